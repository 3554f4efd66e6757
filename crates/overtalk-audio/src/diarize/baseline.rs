//! The reference points the pipeline is measured against: the naive windows-and-k-means
//! baseline ([`NaiveDiarizer`]) and the model-free fallback ([`VadOnlyDiarizer`]).

use overtalk::{AnnotationBuilder, Result};

use super::cluster;
use super::diarization::{Diarization, Diarizer, DiarizerKind};
use super::embed::{Ge2eWeights, MelStream, N_MELS, WINDOW_FRAMES};
use super::features::{FeatureStream, Features};
use super::labels::annotation_from_labels;
use super::windows::place_windows;
use crate::frames::Binarize;
use crate::vad::VadKind;

/// The naive baseline: 1.6 s windows every 0.77 s on the raw timeline (not only speech),
/// spherical k-means with a given number of speakers, and each speech frame labelled by the
/// window whose centre is nearest. Kept to measure what the full pipeline gains.
pub struct NaiveDiarizer {
    weights: Ge2eWeights,
    /// Number of speakers (the baseline does not estimate it).
    pub speakers: usize,
    /// The voice activity detector.
    pub vad: VadKind,
}

impl std::fmt::Debug for NaiveDiarizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NaiveDiarizer").field("speakers", &self.speakers).finish()
    }
}

impl NaiveDiarizer {
    /// The baseline with loaded weights.
    pub fn new(weights: Ge2eWeights, speakers: usize) -> NaiveDiarizer {
        NaiveDiarizer { weights, speakers, vad: VadKind::Earshot }
    }
}

impl Diarizer for NaiveDiarizer {
    fn describe(&self) -> String {
        format!("naive (1.6 s windows every 0.77 s, k-means k={})", self.speakers)
    }

    fn stream(&self) -> FeatureStream {
        FeatureStream::new(Some(Box::new(MelStream::new())), self.vad)
    }

    fn finish(&self, f: Features) -> Result<Diarization> {
        let n = f.frames();
        let mask = f.speech_mask(&Binarize::default());
        let windows = place_windows(n, WINDOW_FRAMES, 77);
        // Only windows that contain some speech are clustered.
        let used: Vec<(usize, usize)> = windows
            .into_iter()
            .filter(|&(s, l)| mask[s..s + l].iter().filter(|&&m| m).count() * 4 >= l)
            .collect();
        let method = self.describe();
        if used.is_empty() {
            return Ok(Diarization::empty(method, DiarizerKind::Naive, 0));
        }
        let mut emb = Vec::new();
        for chunk in used.chunks(32) {
            let views: Vec<&[f32]> = chunk
                .iter()
                .map(|&(s, l)| f.data.get(s * N_MELS..(s + l) * N_MELS).unwrap_or(&[]))
                .collect();
            emb.extend(self.weights.embed_flat(&views));
        }
        let (used, emb, dropped) = super::windows::keep_usable(used, emb);
        if used.is_empty() {
            return Ok(Diarization::empty(method, DiarizerKind::Naive, dropped));
        }
        let wl = cluster::kmeans(&emb, self.speakers.max(1));
        let centres: Vec<usize> = used.iter().map(|&(s, l)| s + l / 2).collect();
        let mut labels: Vec<Option<usize>> = vec![None; n];
        let mut w = 0;
        for (fr, l) in labels.iter_mut().enumerate() {
            if !mask[fr] {
                continue;
            }
            while w + 1 < centres.len() && centres[w + 1].abs_diff(fr) <= centres[w].abs_diff(fr) {
                w += 1;
            }
            *l = Some(wl[w]);
        }
        let (annotation, _) = annotation_from_labels(&labels);
        Ok(Diarization {
            dropped_windows: dropped,
            ..Diarization::within(annotation, f.duration(), method, DiarizerKind::Naive)
        })
    }
}

/// The model-free fallback: all detected speech is attributed to one speaker.
#[derive(Clone, Copy, Debug, Default)]
pub struct VadOnlyDiarizer {
    /// The voice activity detector.
    pub vad: VadKind,
    /// Its binarization.
    pub binarize: Binarize,
}

impl Diarizer for VadOnlyDiarizer {
    fn describe(&self) -> String {
        format!("vad-only fallback ({}; one speaker; no speaker model)", self.vad.name())
    }

    fn stream(&self) -> FeatureStream {
        FeatureStream::new(None, self.vad)
    }

    fn finish(&self, f: Features) -> Result<Diarization> {
        let region = self.binarize.apply(f.probs.iter().copied(), f.hop);
        let mut b = AnnotationBuilder::new();
        for s in region.iter() {
            b.add(*s, "SPK00");
        }
        Ok(Diarization::within(b.build(), f.duration(), self.describe(), DiarizerKind::VadOnly))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streamed_features_match_the_whole_signal() {
        let x: Vec<f32> = (0..40_000).map(|i| 0.1 * ((i as f32) * 0.05).sin()).collect();
        let d = VadOnlyDiarizer::default();
        let whole = d.diarize(&x).unwrap();
        let mut s = d.stream();
        for c in x.chunks(1234) {
            s.push(c);
        }
        let f = s.finish();
        assert_eq!(f.samples, 40_000);
        assert_eq!(f.frames(), 251);
        assert_eq!(d.finish(f).unwrap(), whole);
    }

    #[test]
    fn vad_only_on_silence_is_empty() {
        let d = VadOnlyDiarizer::default().diarize(&vec![0.0; 16_000]).unwrap();
        assert_eq!(d.speakers, 0);
        assert!(d.annotation.is_empty());
    }
}
