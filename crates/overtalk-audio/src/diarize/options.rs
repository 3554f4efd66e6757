//! The options of the embedding pipeline ([`DiarizeOptions`]) and its profiles.

use super::change::ChangeOptions;
use super::cluster::SpeakerCount;
use super::embed::WINDOW_FRAMES;
use crate::frames::Binarize;
use crate::vad::VadKind;

/// Options of [`Ge2eDiarizer`](super::Ge2eDiarizer).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiarizeOptions {
    /// The voice activity detector.
    pub vad: VadKind,
    /// A second detector. When set, the windows are still placed over the first detector's
    /// speech (with `binarize`), but the speech that is labelled in the output is where the
    /// mean of the two detectors' probabilities passes `fuse_binarize`; each such frame takes
    /// the speaker of the nearest clustered speech frame. `None`: the first detector alone.
    pub vad_fuse: Option<VadKind>,
    /// The binarization of the two detectors' mean (used only with `vad_fuse`).
    pub fuse_binarize: Binarize,
    /// Its binarization.
    pub binarize: Binarize,
    /// Window step over speech frames (10 ms frames).
    pub step: usize,
    /// Window length (10 ms frames, ≤ 160).
    pub window: usize,
    /// AHC stopping distance (1 − cosine on centred embeddings).
    pub threshold: f32,
    /// Speaker-count constraints.
    pub count: SpeakerCount,
    /// Viterbi switch cost (in units of per-frame cosine score).
    pub switch_cost: f32,
    /// Clusters holding less than this fraction of windows are merged into their nearest
    /// neighbour (automatic count only).
    pub min_cluster_fraction: f32,
    /// Clusters whose windows cover less than this much distinct speech (seconds: windows ×
    /// step) are merged likewise (automatic count only). It matters on short recordings, where
    /// the fraction above is only a few seconds.
    pub min_speaker_speech: f32,
    /// When fewer than two clusters pass the two size rules above, absorb the small clusters
    /// into their nearest neighbour (smallest first, centroids recomputed after each merge)
    /// instead of dropping them, so that pieces of one voice can join and pass together
    /// (automatic count only, never below the minimum). Default off: on 15-40 s espeak-ng
    /// conversations it fixes the count that hung on one window (2-voice clips counted as 1),
    /// but on 20-40 s windows of real recordings it gives a second or third speaker to windows
    /// where one voice talks and lowers the pooled DER of none of the real sets
    /// (docs/diarization.md, "Short clips").
    pub absorb_small: bool,
    /// Resegmentation rounds (centroids re-estimated from the frame labels).
    pub rounds: usize,
    /// At most this many windows enter the O(n²) clustering; the rest are assigned to the
    /// nearest centroid.
    pub max_cluster_windows: usize,
    /// Overlap: a frame also gets its second-best speaker when that speaker's score is within
    /// this margin of the best one (and the frame is confidently speech). `None`: one speaker
    /// per frame.
    pub overlap_margin: Option<f32>,
    /// Speaker change points ([`change`](super::change)): found on the window embeddings, they make the
    /// resegmentation change-aware — where a window that crosses no change point covers a
    /// frame, the windows that cross one count [`ChangeOptions::cross_weight`] of their weight
    /// in its score, and the Viterbi switch cost is [`ChangeOptions::switch_cost`] near a
    /// change point instead of `switch_cost`. `None` (the default): no change points; measured,
    /// they do not lower DER on every tuning set (docs/diarization.md).
    pub change: Option<ChangeOptions>,
    /// Boundary refinement at 10 ms after the resegmentation ([`refine`](super::refine)):
    /// changes move onto the pause between turns (kept as silence) or the crossing of the two
    /// speakers' scores, and no segment is shorter than
    /// [`RefineOptions::min_segment`](super::refine::RefineOptions::min_segment). `None`: the
    /// Viterbi labels as they are.
    pub refine: Option<super::refine::RefineOptions>,
    /// A cluster whose speech lies mostly in short pieces right beside other speakers' is a
    /// cluster of speaker changes, not a speaker ([`transition`](super::transition)): its
    /// centroid is dropped and the resegmentation run again (automatic count only, never below
    /// the minimum). `None`: kept.
    pub transition: Option<super::transition::TransitionOptions>,
    /// After the small clusters are dropped, two speakers whose centroids are closer than
    /// this ratio times their mean spread are merged ([`remerge`](super::remerge); automatic
    /// count only). `None`: no such merge. Default 1.5: on the tuning sets every ratio from
    /// 1.0 to 1.9 gives the same speakers and 2.0 merges two real voices; 1.5 joins the two
    /// halves of one voice that made a third speaker of the gecko call's first 180 s
    /// (docs/diarization.md, "The re-merge by default").
    pub merge_ratio: Option<f32>,
    /// After the re-merge, two speakers whose windows prefer their own voice over the other's
    /// by less than this many standard deviations are merged
    /// ([`remerge::merge_same_voice`](super::remerge::merge_same_voice), on the embeddings as
    /// the encoder gave them; automatic count only). `None`: no such merge. Default 1.5,
    /// between a voice split in two (1.06, the gecko call from 8 kHz with the band-limited
    /// detector) and the closest two voices of the tuning sets (2.02, the gecko call)
    /// (docs/diarization.md, "One voice stays one speaker").
    pub same_voice: Option<f32>,
    /// Speech edges that border silence move onto the crossing of the signal's frame energy
    /// ([`edges`](super::edges)), which does not trail the voice as the detector's
    /// probabilities do; on by default (measured in docs/diarization.md). `None`: the
    /// detector's edges.
    pub edges: Option<super::edges::EdgeOptions>,
    /// Direct speaker changes (no silence between the turns) move onto the front-end frames
    /// by a two-segment likelihood search, and a pause found there becomes silence
    /// ([`handover`](super::handover)); runs after the refinement. `None`: they stay where
    /// the refinement put them.
    pub handover: Option<super::handover::HandoverOptions>,
    /// A speech run shorter than a window (a reply between two turns) is given the speaker its
    /// own embedding is closest to, when closer than its label by a margin
    /// ([`short_runs`](super::short_runs)). `None`: the Viterbi labels.
    pub short_runs: Option<super::short_runs::ShortRunOptions>,
}

impl Default for DiarizeOptions {
    fn default() -> DiarizeOptions {
        DiarizeOptions {
            vad: VadKind::Earshot,
            vad_fuse: None,
            fuse_binarize: Binarize::default(),
            binarize: Binarize::default(),
            step: 20,
            window: WINDOW_FRAMES,
            threshold: 0.9,
            count: SpeakerCount::default(),
            switch_cost: 4.0,
            min_cluster_fraction: 0.1,
            min_speaker_speech: 4.0,
            absorb_small: false,
            rounds: 2,
            max_cluster_windows: 2000,
            overlap_margin: None,
            change: None,
            refine: Some(super::refine::RefineOptions::default()),
            merge_ratio: Some(1.5),
            same_voice: Some(1.5),
            transition: Some(super::transition::TransitionOptions::default()),
            edges: Some(super::edges::EdgeOptions::default()),
            handover: None,
            short_runs: Some(super::short_runs::ShortRunOptions::default()),
        }
    }
}

impl DiarizeOptions {
    /// The options of the earshot + Silero profile: the windows and the clustering are those
    /// of the defaults (earshot at onset 0.5), and the speech labelled in the output is where
    /// the mean of earshot's and Silero's probabilities passes onset 0.3 / offset 0.21
    /// ([`DiarizeOptions::vad_fuse`]). Silero rejects loud non-speech that earshot takes for
    /// speech; earshot keeps far-field speech that Silero misses. Keeping the clustering on
    /// earshot's speech keeps the speaker count as tuned (measured in docs/diarization.md).
    ///
    /// ```text
    /// earshot ≥ 0.5   ──► windows, embeddings, clustering, frame labels
    /// (earshot + Silero) / 2 ≥ 0.3 ──► which frames are speech in the output;
    ///                                  each takes the label of the nearest labelled frame
    /// ```
    #[cfg(feature = "onnx")]
    pub fn earshot_silero() -> DiarizeOptions {
        DiarizeOptions {
            vad_fuse: Some(VadKind::Silero),
            fuse_binarize: Binarize { onset: 0.3, offset: 0.21, ..Binarize::default() },
            ..DiarizeOptions::default()
        }
    }

    /// The best options this build and installation offer: `DiarizeOptions::earshot_silero()`
    /// when the build has the `onnx` feature and the Silero model loads (installed by
    /// `overtalk models install silero`, or chosen with `vad::silero::use_model`), else the
    /// defaults (earshot alone). The choice shows in
    /// [`Diarizer::describe`](super::Diarizer::describe).
    pub fn preferred() -> DiarizeOptions {
        #[cfg(feature = "onnx")]
        if crate::vad::silero::shared_model().is_ok() {
            return DiarizeOptions::earshot_silero();
        }
        DiarizeOptions::default()
    }
}
