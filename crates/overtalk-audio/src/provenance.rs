//! How the speakers of a recording were found, as data: the outputs print the description,
//! and what the method can and cannot measure is asked of the kind, never read out of the text.
//!
//! ```text
//! tracks, one per speaker ──► Method::Tracks      overlap measured
//! one mixed track ──────────► Method::Diarized(Ge2e { overlap: false })  one speaker per frame
//!                             Method::Diarized(Ge2e { overlap: true })   a second where likely
//!                             Method::Diarized(Pyannote)                 overlap modelled
//! ```

use std::fmt;

/// The diarizer that told the speakers of a mixed track apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DiarizerKind {
    /// GE2E window embeddings clustered; `overlap` says whether a second speaker is given
    /// where two are nearly as likely (off: one speaker per frame).
    Ge2e {
        /// A second speaker per frame may be assigned.
        overlap: bool,
    },
    /// The pyannote segmentation and embedding pipeline (speakrs).
    Pyannote,
    /// Fixed windows clustered by k-means (the naive baseline).
    Naive,
    /// Voice activity only: one speaker, no speaker model.
    VadOnly,
}

/// How the speech of a recording was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Method {
    /// One track per speaker, decided by the multitrack rule (or voice activity alone for one
    /// track).
    Tracks {
        /// How many tracks.
        count: usize,
    },
    /// One mixed track, diarized.
    Diarized(DiarizerKind),
}

/// How the speakers were found: the [`Method`], and its description with the parameters that
/// matter (shown beside every result derived from it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Provenance {
    /// The kind of method.
    pub method: Method,
    /// The method and its parameters, for the record.
    pub description: String,
}

impl Provenance {
    /// A provenance of `method` described by `description`.
    pub fn new(method: Method, description: impl Into<String>) -> Provenance {
        Provenance { method, description: description.into() }
    }

    /// Whether the method gives at most one speaker per frame, so overlap cannot be measured:
    /// a mixed track diarized by GE2E with its second-speaker overlap off, by the naive
    /// baseline's k-means windows, or found by voice activity alone (one label).
    pub fn one_speaker_per_frame(&self) -> bool {
        matches!(
            self.method,
            Method::Diarized(
                DiarizerKind::Ge2e { overlap: false } | DiarizerKind::Naive | DiarizerKind::VadOnly
            )
        )
    }

    /// Whether a diarizer told the speakers of a mixed track apart (a speaker model, not one
    /// track per speaker and not voice activity alone): the number it found is an estimate.
    pub fn speakers_estimated(&self) -> bool {
        matches!(self.method, Method::Diarized(kind) if kind != DiarizerKind::VadOnly)
    }

    /// Whether the speakers of `annotation`, found by this method, hold one speaker per frame:
    /// [`Provenance::one_speaker_per_frame`], or a second speaker asked for (`--overlap-margin`)
    /// that was found nowhere, so that the overlap is again zero by construction.
    pub fn one_speaker_per_frame_in(&self, annotation: &overtalk::Annotation) -> bool {
        self.one_speaker_per_frame()
            || (matches!(self.method, Method::Diarized(DiarizerKind::Ge2e { overlap: true }))
                && annotation.overlap().is_empty())
    }

    /// Whether the speech of a mixed track was found by voice activity alone, without a
    /// speaker model (the fallback): everyone is one label, the speakers were not told apart.
    pub fn voice_activity_only(&self) -> bool {
        self.method == Method::Diarized(DiarizerKind::VadOnly)
    }

    /// Whether the speakers come from GE2E diarization of a mixed track (whose measured
    /// accuracy the reports quote).
    pub fn is_ge2e(&self) -> bool {
        matches!(self.method, Method::Diarized(DiarizerKind::Ge2e { .. }))
    }
}

impl fmt::Display for Provenance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.description)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_without_a_second_speaker_per_frame_cannot_measure_overlap() {
        let p = |m| Provenance::new(m, "x");
        assert!(p(Method::Diarized(DiarizerKind::Ge2e { overlap: false })).one_speaker_per_frame());
        assert!(p(Method::Diarized(DiarizerKind::Naive)).one_speaker_per_frame());
        assert!(p(Method::Diarized(DiarizerKind::VadOnly)).one_speaker_per_frame());
        assert!(!p(Method::Diarized(DiarizerKind::Ge2e { overlap: true })).one_speaker_per_frame());
        assert!(!p(Method::Diarized(DiarizerKind::Pyannote)).one_speaker_per_frame());
        assert!(!p(Method::Tracks { count: 2 }).one_speaker_per_frame());
        // The speaker count is estimated by a diarizer only.
        assert!(p(Method::Diarized(DiarizerKind::Pyannote)).speakers_estimated());
        assert!(p(Method::Diarized(DiarizerKind::Naive)).speakers_estimated());
        assert!(!p(Method::Diarized(DiarizerKind::VadOnly)).speakers_estimated());
        assert!(!p(Method::Tracks { count: 1 }).speakers_estimated());
        assert!(p(Method::Diarized(DiarizerKind::Ge2e { overlap: true })).is_ge2e());
        assert!(!p(Method::Diarized(DiarizerKind::Naive)).is_ge2e());
        assert_eq!(p(Method::Tracks { count: 2 }).to_string(), "x");
    }
}
