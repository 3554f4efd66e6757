//! What a diarizer gives ([`Diarization`]) and the interface every diarizer implements
//! ([`Diarizer`]): features streamed in, who spoke when out.

use std::collections::BTreeSet;

use overtalk::{Annotation, CropMode, Delta, Region, Result, Segment, Time};

use super::features::{FeatureStream, Features};
pub use crate::provenance::DiarizerKind;
use crate::provenance::{Method, Provenance};

/// A diarization of one recording.
#[derive(Clone, Debug, PartialEq)]
pub struct Diarization {
    /// Who spoke when (speakers `SPK00`, `SPK01`, … in order of first appearance).
    pub annotation: Annotation,
    /// Number of speakers found.
    pub speakers: usize,
    /// What produced it (diarizer and parameters), for provenance in reports.
    pub method: String,
    /// Which diarizer produced it, for what the outputs can and cannot measure.
    pub kind: DiarizerKind,
    /// Embedding windows left out of the clustering because the speaker model gave no usable
    /// embedding for them (NaN or infinite values, all zeros, or no values): 0 normally; the
    /// front ends say how many ([`crate::multitrack::TrackWarning::NonFiniteEmbeddings`]).
    pub dropped_windows: usize,
}

impl Diarization {
    /// How the speakers were found: the diarizer's kind and its description.
    pub fn provenance(&self) -> Provenance {
        Provenance::new(Method::Diarized(self.kind), self.method.clone())
    }

    /// No speaker: nothing was heard as speech, or no window of it had a usable embedding
    /// (`dropped_windows` of them were left out).
    pub(super) fn empty(method: String, kind: DiarizerKind, dropped_windows: usize) -> Diarization {
        Diarization {
            annotation: Annotation::default(),
            speakers: 0,
            method,
            kind,
            dropped_windows,
        }
    }

    /// A diarization of a signal lasting `duration`, cut back to it: the diarizers work in
    /// whole 10 ms frames (VAD frames can be longer), and the last one can reach past the end.
    ///
    /// ```text
    /// signal   |=========================|
    /// frames   |----|----|----|----|----|----|
    /// speech        [=======================)     → [====================)
    /// ```
    ///
    /// `speakers` counts the speakers left with speech.
    pub(super) fn within(
        annotation: Annotation,
        duration: Delta,
        method: String,
        kind: DiarizerKind,
    ) -> Diarization {
        let signal = Segment::new(Time::from_micros(0), Time::from_micros(duration.micros()))
            .map(Region::from_segment);
        let annotation = match signal {
            Some(r) => annotation.crop(&r, CropMode::Intersection),
            None => Annotation::default(),
        };
        let speakers = annotation.tracks().iter().map(|t| t.speaker).collect::<BTreeSet<_>>().len();
        Diarization { annotation, speakers, method, kind, dropped_windows: 0 }
    }
}

/// Turns a 16 kHz mono signal into who spoke when.
///
/// The signal may be fed block by block ([`stream`](Diarizer::stream), then
/// [`FeatureStream::push`] and [`finish`](Diarizer::finish)): only the features are kept, never
/// the signal, so memory stays at the features' size (58 MB of mel frames per hour for GE2E).
pub trait Diarizer {
    /// A short description with the parameters that matter.
    fn describe(&self) -> String;
    /// A stream that computes this diarizer's features.
    fn stream(&self) -> FeatureStream;
    /// Diarizes the features of a whole recording.
    fn finish(&self, features: Features) -> Result<Diarization>;
    /// [`finish`](Diarizer::finish), telling `progress` the share (0 to 1) of its costly part
    /// done as it goes, so a long recording shows a percentage rather than a spinner alone.
    /// Called from any thread. Without an override, `finish` with no progress.
    fn finish_with_progress(
        &self,
        features: Features,
        progress: &(dyn Fn(f64) + Sync),
    ) -> Result<Diarization> {
        let _ = progress;
        self.finish(features)
    }
    /// Diarizes a whole 16 kHz mono signal.
    fn diarize(&self, samples: &[f32]) -> Result<Diarization> {
        let mut s = self.stream();
        s.push(samples);
        self.finish(s.finish())
    }
}

/// Duration of `samples` at 16 kHz.
pub fn signal_duration(samples: &[f32]) -> Delta {
    crate::decode::frames_to_delta(samples.len() as u64, crate::resample::ANALYSIS_RATE)
}
