//! A corpus run: many conversations read from many inputs, analysed one by one in
//! recording-id order, each labelled so that a recording id met in several files (the same
//! conversation as WebVTT and as RTTM, say) stays apart as `id (file name)`. What the command
//! line's `analyze` and `report` and the Python corpus helpers share.
//!
//! ```text
//! entries (any order)        sorted by (id, file)       labels
//! b  from b.rttm        ─┐   a  from a.vtt          ─►  a (a.vtt)
//! a  from a.vtt          ├─► a  from x.rttm         ─►  a (x.rttm)
//! a  from x.rttm        ─┘   b  from b.rttm         ─►  b
//! ```

use std::collections::HashMap;
use std::fmt;

use crate::analysis::markers::MarkersVsTiming;
use crate::analysis::{analyze, Analysis, Params};
use crate::error::Error;
use crate::model::{Transcript, TranscriptBuilder};

/// One conversation of a corpus run, as read, with whatever the front end carries beside it
/// (`extra`: how its speech was detected, say).
#[derive(Clone, Debug, PartialEq)]
pub struct CorpusEntry<T> {
    /// The recording id.
    pub recording_id: String,
    /// The input it came from, as shown in the label when the id repeats (a file name).
    pub file: String,
    /// Who spoke when.
    pub transcript: Transcript,
    /// For CHAT with time bullets: the transcriber's markers against the timing, compared on
    /// the transcript as read ([`crate::analysis::markers::compare`]).
    pub chat_markers: Option<MarkersVsTiming>,
    /// Whether the speech was found by a method giving at most one speaker per frame (a
    /// diarizer with its overlap off): overlap is then not measurable.
    pub one_speaker_per_frame: bool,
    /// Whether the speech of a mixed track was found by voice activity alone, all one speaker
    /// (no speaker model): the speakers were not told apart.
    pub speakers_not_separated: bool,
    /// The notes of the detection that found the speech in a recording (a late start, a
    /// truncated file, a track whose speech was mostly taken for bleed), each given to the
    /// analysis as an [`AnalysisWarning::Recording`](crate::analysis::AnalysisWarning::Recording).
    pub recording_notes: Vec<String>,
    /// Carried through to the result.
    pub extra: T,
}

/// How a corpus run analyses.
#[derive(Clone, Debug, PartialEq)]
pub struct CorpusOptions<'a> {
    /// The analysis parameters.
    pub params: &'a Params,
    /// Analyse timing only: text and words are removed first (a transcript with estimated
    /// ends keeps its text, which the punctuation rules of the rule-by-rule count read).
    pub timing_only: bool,
}

/// One analysed conversation of a corpus run.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalyzedEntry<T> {
    /// The recording id, with the file name added when the id repeats across inputs.
    pub label: String,
    /// What was analysed (without text under `timing_only`).
    pub transcript: Transcript,
    /// The result, its warnings included.
    pub analysis: Analysis,
    /// The entry's `extra`.
    pub extra: T,
}

/// A conversation of a corpus run that could not be analysed: its label and the error.
#[derive(Debug)]
pub struct CorpusAnalysisError {
    /// The conversation's label.
    pub label: String,
    /// What went wrong.
    pub error: Error,
}

impl fmt::Display for CorpusAnalysisError {
    /// `analysing LABEL`; the error itself is the [`source`](std::error::Error::source).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "analysing {}", self.label)
    }
}

impl std::error::Error for CorpusAnalysisError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Removes text and words, for timing only.
fn strip_text(t: &Transcript) -> Transcript {
    let mut b = TranscriptBuilder::new();
    for (_, name) in t.annotation().speakers().iter() {
        b.speaker(name);
    }
    for u in t.utterances() {
        b.add(u.segment, u.speaker_name, None);
    }
    b.extent(t.declared_extent());
    b.build()
}

/// Sorts entries into the order of a corpus run's results: by recording id, then input
/// (stable, so entries of one input keep their order).
pub fn sort_entries<T>(entries: &mut [CorpusEntry<T>]) {
    entries.sort_by(|a, b| (&a.recording_id, &a.file).cmp(&(&b.recording_id, &b.file)));
}

/// Analyses every entry, in recording-id order ([`sort_entries`]), labelling repeated ids with
/// their file. Each result is handed to `each` as it is made (a front end prints its warnings
/// there, before the next conversation is analysed) and then collected. A conversation whose
/// speech was found one speaker per frame gets [`AnalysisWarning::OverlapNotMeasurable`](crate::analysis::AnalysisWarning::OverlapNotMeasurable) as
/// its first warning, whatever its number of speakers (one found may be two merged).
pub fn analyze_entries<T>(
    mut entries: Vec<CorpusEntry<T>>,
    options: &CorpusOptions<'_>,
    each: &mut dyn FnMut(&AnalyzedEntry<T>),
) -> Result<Vec<AnalyzedEntry<T>>, CorpusAnalysisError> {
    sort_entries(&mut entries);
    let mut seen: HashMap<String, usize> = HashMap::new();
    for e in &entries {
        *seen.entry(e.recording_id.clone()).or_default() += 1;
    }
    let mut results = Vec::with_capacity(entries.len());
    for e in entries {
        let label = if seen[&e.recording_id] > 1 {
            format!("{} ({})", e.recording_id, e.file)
        } else {
            e.recording_id
        };
        let transcript = if options.timing_only && e.transcript.estimated_ends() == 0 {
            strip_text(&e.transcript)
        } else {
            e.transcript
        };
        let mut analysis = match analyze(&transcript, options.params) {
            Ok(a) => a,
            Err(error) => return Err(CorpusAnalysisError { label, error }),
        };
        analysis.chat_markers_vs_timing = e.chat_markers;
        if e.one_speaker_per_frame {
            // Whatever the length: the 5-minute rule of the analysis's own warning is for
            // transcripts, where zero overlap may be true. Whatever the speaker count: a
            // single speaker found in a mixed track may be two the diarizer merged.
            analysis.mark_one_speaker_per_frame();
        }
        if e.speakers_not_separated {
            analysis.mark_speakers_not_separated();
        }
        for note in e.recording_notes {
            analysis.diagnostics.warnings.push(crate::analysis::AnalysisWarning::Recording(note));
        }
        let result = AnalyzedEntry { label, transcript, analysis, extra: e.extra };
        each(&result);
        results.push(result);
    }
    Ok(results)
}
