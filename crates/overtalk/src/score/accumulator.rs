//! Scores gathered recording by recording, as pyannote.metrics' metric objects do
//! (`metric(reference, hypothesis)` per file, then `abs(metric)` and `metric.report()`): a
//! [`ScoreAccumulator`] takes one recording at a time and gives the corpus [`ScoreReport`]
//! (per recording, then totals) whenever asked. The batch [`super::score_corpus`] is a fold over
//! it; a live session adds each recording as it ends.
//!
//! ```text
//! add(rec 1) ─► FileScore 1 ─┐
//! add(rec 2) ─► FileScore 2 ─┼─► report(): files sorted by id, micro total, macro average,
//! add(rec 3) ─► FileScore 3 ─┘             corpus JER, clustering over the block diagonal
//! ```

use std::collections::BTreeMap;

use super::{
    cluster, error_timeline, jer, score_recording, DerComponents, DetectionComponents,
    ErrorSegment, FileJer, FileScore, FileStatus, JerDefinition, Metrics, PreparedRecording,
    RecordingInput, ScoreOptions, ScoreReport, SelfOverlap,
};
use crate::error::{Error, Result};
use crate::model::Region;
use crate::time::Delta;

/// One recording prepared for scoring and its speaker mapping (reference index → hypothesis
/// index): what the error timeline, the event scoring and the HTML report are drawn from.
#[derive(Clone, Debug)]
pub struct MappedRecording {
    /// The recording prepared (scoring region, collars, speaker tokens).
    pub prepared: PreparedRecording,
    /// Reference speaker index → hypothesis speaker index.
    pub mapping: Vec<Option<usize>>,
}

impl MappedRecording {
    /// The error timeline (correct, confusion, miss, false alarm pieces with the speakers
    /// involved) under `opts`' self-overlap rule.
    pub fn error_timeline(&self, opts: &ScoreOptions) -> Vec<ErrorSegment> {
        let count_each = opts.self_overlap == SelfOverlap::CountEach;
        error_timeline(&self.prepared, &self.mapping, count_each)
    }
}

/// One recording's part: its score, its contingency table for the corpus clustering metrics,
/// and, when kept, its mapped form.
#[derive(Clone, Debug)]
pub(crate) struct RecordingScore {
    pub(crate) file: FileScore,
    pub(crate) table: Option<cluster::Contingency>,
    pub(crate) mapped: Option<MappedRecording>,
}

/// A corpus score and, when kept, every recording's mapped form by id.
#[derive(Clone, Debug)]
pub struct CorpusScore {
    /// Per recording and totals.
    pub report: ScoreReport,
    /// Mapped recordings by id (empty unless asked for); a recording left out by a preset
    /// is kept too when it could be prepared.
    pub mapped: BTreeMap<String, MappedRecording>,
}

impl CorpusScore {
    /// Each scored recording's error timeline, by id (recordings left out are left out).
    pub fn error_timelines(&self) -> BTreeMap<String, Vec<ErrorSegment>> {
        self.report
            .files
            .iter()
            .filter(|f| f.status != FileStatus::Skipped)
            .filter_map(|f| {
                let m = self.mapped.get(&f.id)?;
                Some((f.id.clone(), m.error_timeline(&self.report.options)))
            })
            .collect()
    }
}

/// Recordings scored one at a time, and their corpus report.
#[derive(Clone, Debug)]
pub struct ScoreAccumulator {
    options: ScoreOptions,
    metrics: Metrics,
    files: Vec<FileScore>,
    /// By id, so the block-diagonal table is in id order whatever the order added.
    tables: BTreeMap<String, cluster::Contingency>,
    mapped: BTreeMap<String, MappedRecording>,
    keep: bool,
}

impl ScoreAccumulator {
    /// An empty accumulator scoring under `options`, computing the DER and `metrics`.
    pub fn new(options: ScoreOptions, metrics: Metrics) -> ScoreAccumulator {
        ScoreAccumulator {
            options,
            metrics,
            files: Vec::new(),
            tables: BTreeMap::new(),
            mapped: BTreeMap::new(),
            keep: false,
        }
    }

    /// Also keeps each recording's mapped form ([`CorpusScore::mapped`]).
    pub fn keeping_mapped(mut self) -> ScoreAccumulator {
        self.keep = true;
        self
    }

    /// Scores one recording and adds it; `uem` is its scoring region when a UEM was given
    /// (`uem_given`), looked up by the caller. Returns its score. A recording id seen before is
    /// an error: totals would count it twice.
    pub fn add(
        &mut self,
        input: &RecordingInput,
        uem: Option<&Region>,
        uem_given: bool,
    ) -> Result<&FileScore> {
        if self.files.iter().any(|f| f.id == input.id) {
            return Err(Error::invalid(format!("recording {:?} is scored twice", input.id)));
        }
        super::reject_zero_length(std::slice::from_ref(input), &self.options)?;
        let scored =
            score_recording(input, uem, uem_given, &self.options, self.metrics, self.keep)?;
        self.push(scored);
        Ok(&self.files[self.files.len() - 1])
    }

    /// Adds a recording scored elsewhere (the batch scores in parallel, then folds).
    pub(crate) fn push(&mut self, r: RecordingScore) {
        if let Some(m) = r.mapped {
            self.mapped.insert(r.file.id.clone(), m);
        }
        if let Some(t) = r.table {
            self.tables.insert(r.file.id.clone(), t);
        }
        self.files.push(r.file);
    }

    /// The recordings added so far, in the order added.
    pub fn files(&self) -> &[FileScore] {
        &self.files
    }

    /// The corpus report of the recordings added so far (files sorted by id).
    pub fn report(&self) -> ScoreReport {
        let mut files = self.files.clone();
        files.sort_by(|a, b| a.id.cmp(&b.id));
        report_of(&self.options, self.metrics, files, &self.tables)
    }

    /// The corpus report and the mapped recordings, consuming the accumulator.
    pub fn finish(mut self) -> CorpusScore {
        self.files.sort_by(|a, b| a.id.cmp(&b.id));
        let report = report_of(&self.options, self.metrics, self.files, &self.tables);
        CorpusScore { report, mapped: self.mapped }
    }
}

/// Totals over `files`: components added over recordings (micro), the corpus JER, clustering
/// over the block-diagonal table, purity and coverage from summed parts.
fn report_of(
    opts: &ScoreOptions,
    metrics: Metrics,
    files: Vec<FileScore>,
    tables: &BTreeMap<String, cluster::Contingency>,
) -> ScoreReport {
    let counted = || files.iter().filter(|f| f.status != FileStatus::Skipped);
    let total: DerComponents = counted().map(|f| f.der).sum();
    let mut detection = DetectionComponents::default();
    for f in counted() {
        detection += f.detection;
    }
    let jers: Vec<FileJer> = counted().filter_map(|f| f.jer.clone()).collect();
    let jer = if jers.is_empty() {
        None
    } else {
        jer::corpus_jer(&jers, opts.jer == JerDefinition::Frames, opts.zero_scored)
    };
    let cluster = if metrics.clustering {
        cluster::Contingency::block_diagonal(tables.values()).metrics()
    } else {
        None
    };
    let add = |f: fn(&FileScore) -> (Delta, Delta)| {
        counted().map(f).fold((Delta::ZERO, Delta::ZERO), |a, b| (a.0 + b.0, a.1 + b.1))
    };
    let purity = cluster::ratio(add(|f| f.purity));
    let coverage = cluster::ratio(add(|f| f.coverage));
    ScoreReport {
        options: opts.clone(),
        files,
        total,
        detection,
        jer,
        cluster,
        purity,
        coverage,
        computed: metrics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Annotation, Segment};
    use crate::score::{score, score_corpus, ScoringPreset};

    fn inputs() -> Vec<RecordingInput> {
        let s = |a, b| Segment::from_millis(a, b).unwrap();
        let r = Annotation::from_labelled([(s(0, 10_000), "A"), (s(8_000, 20_000), "B")]);
        let h = Annotation::from_labelled([(s(500, 12_000), "x"), (s(12_000, 21_000), "y")]);
        vec![
            RecordingInput::new("r2", Some(h.clone()), Some(r.clone())),
            RecordingInput::new("r1", Some(r.clone()), Some(h)),
            RecordingInput::new("r3", None, Some(r)),
        ]
    }

    #[test]
    fn adding_one_by_one_gives_the_batch_report() {
        for preset in ScoringPreset::ALL {
            let opts = ScoreOptions::preset(preset).with_collar(Delta::from_millis(250));
            let batch = score(&inputs(), None, &opts).unwrap();
            let mut acc = ScoreAccumulator::new(opts.clone(), Metrics::ALL);
            for i in inputs() {
                acc.add(&i, None, false).unwrap();
            }
            assert_eq!(acc.files().len(), 3);
            assert_eq!(acc.report(), batch, "{preset:?}");
            assert!(acc.add(&inputs()[0], None, false).is_err(), "a recording scored twice");
        }
    }

    #[test]
    fn kept_mappings_give_the_error_timelines_of_scored_recordings() {
        let opts = ScoreOptions::preset(ScoringPreset::MdEval);
        let kept = score_corpus(&inputs(), None, &opts, Metrics::ALL, true).unwrap();
        let plain = score_corpus(&inputs(), None, &opts, Metrics::ALL, false).unwrap();
        assert_eq!(kept.report, plain.report);
        assert!(plain.mapped.is_empty());
        // md-eval leaves the hypothesis-only recording out: mapped, but no timeline.
        assert_eq!(kept.mapped.keys().collect::<Vec<_>>(), ["r1", "r2", "r3"]);
        let timelines = kept.error_timelines();
        assert_eq!(timelines.keys().collect::<Vec<_>>(), ["r1", "r2"]);
        let r1 = &kept.report.files[0];
        let pairs: Vec<(String, String)> = r1.mapping.clone();
        assert_eq!(pairs, [("A".to_owned(), "x".to_owned()), ("B".to_owned(), "y".to_owned())]);
    }
}
