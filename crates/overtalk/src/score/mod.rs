//! Diarization scoring: DER and JER that agree with md-eval-22, dscore, pyannote.metrics and
//! spyder — each tool's conventions are a [`ScoringPreset`], every convention an option.
//!
//! ```text
//! RecordingInput ─► prepare (region, collars, overlap, self-overlap) ─► mapping (Hungarian)
//!   (reference,                                                        │
//!    hypothesis,         ┌──────────────┬──────────────┬───────────────┤
//!    zero-length turns)  ▼              ▼              ▼               ▼
//!                     der (components) jer          detection      errors (timeline)
//! ```
//!
//! The module takes model values ([`Annotation`], [`Region`]) and returns plain values; it
//! neither reads files nor prints.
//!
//! ```
//! use overtalk::score::{score, RecordingInput, ScoreOptions};
//! use overtalk::{Annotation, Segment};
//!
//! let s = |a, b| Segment::from_millis(a, b).unwrap();
//! let reference = Annotation::from_labelled([(s(0, 10_000), "A"), (s(10_000, 20_000), "B")]);
//! let hypothesis = Annotation::from_labelled([(s(0, 12_000), "x"), (s(12_000, 20_000), "y")]);
//! let input = RecordingInput::new("rec", Some(reference), Some(hypothesis));
//! let report = score(&[input], None, &ScoreOptions::default()).unwrap();
//! assert_eq!(report.total.confusion.micros(), 2_000_000);
//! assert_eq!(report.der(), Some(0.1));
//! ```

pub(crate) mod accumulator;
pub mod cluster;
pub mod der;
pub(crate) mod detection;
pub mod errors;
pub(crate) mod frames;
pub(crate) mod jer;
pub mod mapping;
pub mod options;
pub mod pairing;
pub(crate) mod prepare;
pub mod validate;

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::model::{Annotation, Region};
use crate::time::{Delta, Time};

pub use accumulator::{CorpusScore, MappedRecording, ScoreAccumulator};
pub use der::{macro_average, DerComponents};
pub use detection::DetectionComponents;
pub use errors::{error_timeline, to_annotation, ErrorSegment, ErrorType};
pub use jer::{FileJer, SpeakerJer};
pub use mapping::map_speakers;
pub use options::{
    DefaultRegion, HypothesisOnly, JerDefinition, MapStage, MappingMethod, ScoreOptions,
    ScoredRegions, ScoringPreset, SelfOverlap, UemIds, ZeroLength, ZeroScored,
};
pub use prepare::{prepare, uem_key, PreparedRecording};

/// Which side of the comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// The reference (truth).
    Reference,
    /// The hypothesis (system output).
    Hypothesis,
}

/// A turn of zero duration, which the model cannot hold as a segment but some tools react to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZeroLengthTurn {
    /// Which file it was in.
    pub side: Side,
    /// Speaker label.
    pub speaker: String,
    /// Onset.
    pub at: Time,
}

/// One recording to score: a reference and a hypothesis (either may be absent).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordingInput {
    /// Recording id.
    pub id: String,
    /// The reference, if the recording was in the reference files.
    pub reference: Option<Annotation>,
    /// The hypothesis, if the recording was in the hypothesis files.
    pub hypothesis: Option<Annotation>,
    /// Zero-length turns found on reading (see [`ZeroLength`]).
    pub zero_length: Vec<ZeroLengthTurn>,
}

impl RecordingInput {
    /// A recording from its id and annotations.
    pub fn new(
        id: impl Into<String>,
        reference: Option<Annotation>,
        hypothesis: Option<Annotation>,
    ) -> RecordingInput {
        RecordingInput { id: id.into(), reference, hypothesis, zero_length: Vec::new() }
    }
}

/// How a recording took part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileStatus {
    /// Both sides present.
    Scored,
    /// No hypothesis: everything is miss.
    MissingHypothesis,
    /// No reference: everything is false alarm (or ignored, see [`HypothesisOnly`]).
    MissingReference,
    /// Not scored: only in the hypothesis under [`HypothesisOnly::Ignore`], or not in the UEM
    /// under a preset that drops such recordings.
    Skipped,
}

impl FileStatus {
    /// Every value, in documentation order.
    pub const ALL: [FileStatus; 4] = [
        FileStatus::Scored,
        FileStatus::MissingHypothesis,
        FileStatus::MissingReference,
        FileStatus::Skipped,
    ];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            FileStatus::Scored => "scored",
            FileStatus::MissingHypothesis => "missing-hypothesis",
            FileStatus::MissingReference => "missing-reference",
            FileStatus::Skipped => "skipped",
        }
    }
}

crate::named::named_enum!(FileStatus, "file status");

/// The score of one recording.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileScore {
    /// Recording id.
    pub id: String,
    /// How it took part.
    pub status: FileStatus,
    /// DER components.
    pub der: DerComponents,
    /// Reference speaker → hypothesis speaker.
    pub mapping: Vec<(String, String)>,
    /// JER details.
    pub jer: Option<FileJer>,
    /// Speech detection components.
    pub detection: DetectionComponents,
    /// Duration of the evaluation region (UEM or default), before collars.
    pub evaluated: Delta,
    /// dscore's clustering metrics on 10 ms frames (no collar).
    pub cluster: Option<cluster::ClusterMetrics>,
    /// pyannote's purity as `(largest, total)` (whole annotations, no UEM).
    pub purity: (Delta, Delta),
    /// pyannote's coverage as `(largest, total)`.
    pub coverage: (Delta, Delta),
}

impl FileScore {
    /// The recording's DER under the options' zero-scored rule.
    pub fn der_value(&self, opts: &ScoreOptions) -> Option<f64> {
        self.der.der_with(opts.zero_scored)
    }
}

/// The score of a corpus: per recording, then totals.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScoreReport {
    /// The conventions used.
    pub options: ScoreOptions,
    /// Per recording, sorted by id (skipped recordings included with their status).
    pub files: Vec<FileScore>,
    /// Sum of the per-recording components (micro total).
    pub total: DerComponents,
    /// Sum of the detection components.
    pub detection: DetectionComponents,
    /// Corpus JER (fraction).
    pub jer: Option<f64>,
    /// dscore's clustering metrics over the block-diagonal table of all recordings.
    pub cluster: Option<cluster::ClusterMetrics>,
    /// pyannote's purity over all recordings (1 when there is no hypothesis speech).
    pub purity: f64,
    /// pyannote's coverage over all recordings.
    pub coverage: f64,
    /// Which metrics were computed; the others hold their empty values (`None`, zero, 1.0).
    #[serde(default)]
    pub computed: Metrics,
}

/// Which metrics [`score_with`] computes besides the DER (which is always computed).
///
/// The DER alone is what md-eval, spyder and pyannote's `DiarizationErrorRate` report; the JER
/// (10 ms frames under dscore's definition) and the clustering metrics cost more than the DER.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Metrics {
    /// The Jaccard error rate.
    pub jer: bool,
    /// dscore's clustering metrics and pyannote's purity and coverage.
    pub clustering: bool,
    /// The speech detection error.
    pub detection: bool,
}

impl Metrics {
    /// Every metric.
    pub const ALL: Metrics = Metrics { jer: true, clustering: true, detection: true };
    /// The DER only.
    pub const DER_ONLY: Metrics = Metrics { jer: false, clustering: false, detection: false };
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::ALL
    }
}

impl ScoreReport {
    /// The corpus DER (total error / total scored), under the options' zero-scored rule.
    pub fn der(&self) -> Option<f64> {
        self.total.der_with(self.options.zero_scored)
    }

    /// The mean of the per-recording DERs (recordings where it is defined).
    pub fn macro_der(&self) -> Option<f64> {
        macro_average(self.files.iter().filter(|f| f.status != FileStatus::Skipped).map(|f| &f.der))
    }

    /// The ids of the recordings the preset left out ([`FileStatus::Skipped`]: md-eval, dscore
    /// and spyder leave out recordings only in the hypothesis, dscore those not in the UEM),
    /// in id order. A front end counts them as skipped inputs.
    pub fn skipped(&self) -> Vec<&str> {
        self.files
            .iter()
            .filter(|f| f.status == FileStatus::Skipped)
            .map(|f| f.id.as_str())
            .collect()
    }
}

/// Largest reference × hypothesis speaker count of one recording (the mapping is cubic in it;
/// real diarizations have tens of speakers).
pub const MAX_SPEAKER_PAIRS: usize = 1_000_000;

/// Prepares one recording and computes its mapping (reference index → hypothesis index).
pub fn prepare_and_map(
    input: &RecordingInput,
    uem: Option<&Region>,
    uem_given: bool,
    opts: &ScoreOptions,
) -> Result<Option<(PreparedRecording, Vec<Option<usize>>)>> {
    Ok(prepare_map_events(input, uem, uem_given, opts)?.map(|(p, m, _)| (p, m)))
}

/// A prepared recording, its mapping and its sorted turn boundaries.
type Mapped = (PreparedRecording, Vec<Option<usize>>, der::TurnEvents);

/// [`prepare_and_map`], also returning the sorted turn boundaries for the DER sweep.
fn prepare_map_events(
    input: &RecordingInput,
    uem: Option<&Region>,
    uem_given: bool,
    opts: &ScoreOptions,
) -> Result<Option<Mapped>> {
    let Some(p) = prepare(input, uem, uem_given, opts)? else { return Ok(None) };
    let cells = p.reference_names.len().saturating_mul(p.hypothesis_names.len());
    if cells > MAX_SPEAKER_PAIRS {
        return Err(Error::limit(format!(
            "{}: {} reference × {} hypothesis speakers is more pairs than the {} the mapping \
             handles",
            p.id,
            p.reference_names.len(),
            p.hypothesis_names.len(),
            MAX_SPEAKER_PAIRS
        )));
    }
    let count_each = opts.self_overlap == SelfOverlap::CountEach;
    let within = match opts.map_stage {
        MapStage::BeforeCollar => &p.evaluation,
        MapStage::AfterCollar => &p.scored,
    };
    let turns = der::TurnEvents::new(&p.reference, &p.hypothesis);
    let co = der::cooccurrence_of(
        &turns,
        p.reference_names.len(),
        p.hypothesis_names.len(),
        within,
        count_each,
    );
    let mapping = map_speakers(&co, opts.mapping);
    Ok(Some((p, mapping, turns)))
}

/// Scores one recording; the contingency table comes back for the corpus clustering metrics
/// (`None` when the recording is skipped).
fn score_recording(
    input: &RecordingInput,
    entry: Option<&Region>,
    uem_given: bool,
    opts: &ScoreOptions,
    metrics: Metrics,
    keep: bool,
) -> Result<accumulator::RecordingScore> {
    let count_each = opts.self_overlap == SelfOverlap::CountEach;
    let has_ref = input.reference.as_ref().is_some_and(|a| !a.is_empty());
    let has_hyp = input.hypothesis.as_ref().is_some_and(|a| !a.is_empty());
    let status = match (has_ref, has_hyp) {
        (true, true) => FileStatus::Scored,
        (true, false) => FileStatus::MissingHypothesis,
        (false, _) => FileStatus::MissingReference,
    };
    let skipped = |status| FileScore {
        id: input.id.clone(),
        status,
        der: DerComponents::default(),
        mapping: Vec::new(),
        jer: None,
        detection: DetectionComponents::default(),
        evaluated: Delta::ZERO,
        cluster: None,
        purity: (Delta::ZERO, Delta::ZERO),
        coverage: (Delta::ZERO, Delta::ZERO),
    };
    if status == FileStatus::MissingReference && opts.hypothesis_only == HypothesisOnly::Ignore {
        // Not scored; the mapped recording is still kept when asked (the HTML report shows its
        // lanes).
        let mapped = if keep {
            prepare_and_map(input, entry, uem_given, opts)?
                .map(|(prepared, mapping)| accumulator::MappedRecording { prepared, mapping })
        } else {
            None
        };
        return Ok(accumulator::RecordingScore {
            file: skipped(FileStatus::Skipped),
            table: None,
            mapped,
        });
    }
    let Some((p, mapping, turns)) = prepare_map_events(input, entry, uem_given, opts)? else {
        return Ok(accumulator::RecordingScore {
            file: skipped(FileStatus::Skipped),
            table: None,
            mapped: None,
        });
    };
    let der = der::components_of(&turns, &p.scored, &mapping, count_each);
    drop(turns);
    let frames_needed = metrics.clustering || (metrics.jer && opts.jer == JerDefinition::Frames);
    let frames = frames_needed.then(|| frames::frame_sets(&p, opts.frame_grid));
    let contingency = match &frames {
        Some(f) if metrics.clustering => Some(cluster::Contingency::of_frames(f)),
        _ => None,
    };
    let jer = match (metrics.jer, opts.jer, frames) {
        (false, ..) => None,
        (true, JerDefinition::Frames, Some(f)) => Some(jer::frames_jer_of(&p, f)),
        (true, JerDefinition::Frames, None) => Some(jer::frames_jer(&p, opts.frame_grid)),
        (true, JerDefinition::Continuous, _) => {
            Some(jer::continuous_jer(&p, &p.reference, &p.hypothesis, &mapping))
        }
    }
    .map(|j| j.with_rule(opts.zero_scored));
    let detection = if metrics.detection {
        detection::detection(&p.reference, &p.hypothesis, &p.scored)
    } else {
        DetectionComponents::default()
    };
    let pairs = mapping
        .iter()
        .enumerate()
        .filter_map(|(r, h)| {
            let h = (*h)?;
            Some((p.reference_names.get(r)?.clone(), p.hypothesis_names.get(h)?.clone()))
        })
        .collect();
    let empty = Annotation::default();
    let (r, h) =
        (input.reference.as_ref().unwrap_or(&empty), input.hypothesis.as_ref().unwrap_or(&empty));
    let nothing = (Delta::ZERO, Delta::ZERO);
    let (purity, coverage) =
        if metrics.clustering { cluster::purity_and_coverage(r, h) } else { (nothing, nothing) };
    let file = FileScore {
        id: input.id.clone(),
        status,
        der,
        mapping: pairs,
        jer,
        detection,
        evaluated: p.evaluation.duration(),
        cluster: contingency.as_ref().and_then(cluster::Contingency::metrics),
        purity,
        coverage,
    };
    let mapped = keep.then_some(accumulator::MappedRecording { prepared: p, mapping });
    Ok(accumulator::RecordingScore { file, table: contingency, mapped })
}

/// Scores recordings. `uem` maps recording ids (as written in the UEM file) to scoring regions.
///
/// Errors only when a preset refuses the input (dscore and zero-length turns).
pub fn score(
    inputs: &[RecordingInput],
    uem: Option<&BTreeMap<String, Region>>,
    opts: &ScoreOptions,
) -> Result<ScoreReport> {
    score_with(inputs, uem, opts, Metrics::ALL)
}

/// [`score`], computing only the DER and the chosen `metrics`: the others are left at their
/// empty values (no JER, no clustering metrics, purity and coverage 1, zero detection
/// components) and [`ScoreReport::computed`] says which were computed. What is computed is
/// the same as under [`score`].
pub fn score_with(
    inputs: &[RecordingInput],
    uem: Option<&BTreeMap<String, Region>>,
    opts: &ScoreOptions,
    metrics: Metrics,
) -> Result<ScoreReport> {
    Ok(score_corpus(inputs, uem, opts, metrics, false)?.report)
}

/// Under a preset that refuses zero-length turns (dscore), the error for the first recording
/// that has one, in input order.
fn reject_zero_length(inputs: &[RecordingInput], opts: &ScoreOptions) -> Result<()> {
    if opts.zero_length == ZeroLength::Reject {
        if let Some((input, z)) = inputs.iter().find_map(|i| i.zero_length.first().map(|z| (i, z)))
        {
            return Err(Error::invalid(format!(
                "{}: zero-length turn of {:?} at {} s; dscore refuses such files",
                input.id, z.speaker, z.at
            )));
        }
    }
    Ok(())
}

/// [`score_with`], keeping each recording's prepared form and speaker mapping when `keep` is
/// set: the error timelines ([`CorpusScore::error_timelines`]) and the HTML report are drawn
/// from them, so the mapping is computed once.
pub fn score_corpus(
    inputs: &[RecordingInput],
    uem: Option<&BTreeMap<String, Region>>,
    opts: &ScoreOptions,
    metrics: Metrics,
    keep: bool,
) -> Result<CorpusScore> {
    reject_zero_length(inputs, opts)?;
    let uem_norm = uem.map(|u| prepare::normalise_uem(u, opts.uem_ids));
    let mut sorted: Vec<&RecordingInput> = inputs.iter().collect();
    sorted.sort_by(|a, b| a.id.cmp(&b.id));
    // Recordings are independent: they are scored in parallel and collected in id order, so
    // every number (and the first error, if any) is the same whatever the number of threads.
    let scored: Vec<Result<accumulator::RecordingScore>> = sorted
        .par_iter()
        .map(|input| {
            let entry = uem_norm.as_ref().and_then(|u| u.get(&input.id));
            score_recording(input, entry, uem.is_some(), opts, metrics, keep)
        })
        .collect();
    let mut acc = ScoreAccumulator::new(opts.clone(), metrics);
    for r in scored {
        acc.push(r?);
    }
    Ok(acc.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Segment;

    #[test]
    fn fewer_metrics_leave_the_computed_ones_unchanged() {
        let s = |a, b| Segment::from_millis(a, b).unwrap();
        let reference = Annotation::from_labelled([
            (s(0, 10_000), "A"),
            (s(8_000, 20_000), "B"),
            (s(25_000, 30_000), "A"),
        ]);
        let hypothesis = Annotation::from_labelled([
            (s(500, 12_000), "x"),
            (s(12_000, 21_000), "y"),
            (s(24_000, 29_000), "y"),
        ]);
        let inputs = [
            RecordingInput::new("r1", Some(reference.clone()), Some(hypothesis.clone())),
            RecordingInput::new("r2", Some(hypothesis), Some(reference)),
        ];
        for preset in ScoringPreset::ALL {
            let opts = ScoreOptions::preset(preset).with_collar(Delta::from_millis(250));
            let all = score(&inputs, None, &opts).unwrap();
            assert_eq!(all.computed, Metrics::ALL);
            assert!(all.jer.is_some() && all.cluster.is_some());
            let jer_only = Metrics { jer: true, clustering: false, detection: false };
            for metrics in [Metrics::DER_ONLY, jer_only] {
                let some = score_with(&inputs, None, &opts, metrics).unwrap();
                assert_eq!(some.total, all.total);
                assert_eq!(some.der(), all.der());
                assert_eq!(some.computed, metrics);
                assert_eq!(some.jer, all.jer.filter(|_| metrics.jer));
                assert_eq!(some.cluster, None);
                assert_eq!(some.detection, DetectionComponents::default());
                for (a, b) in some.files.iter().zip(&all.files) {
                    assert_eq!((&a.der, &a.mapping), (&b.der, &b.mapping));
                    assert_eq!(a.jer, b.jer.clone().filter(|_| metrics.jer));
                }
            }
        }
    }
}
