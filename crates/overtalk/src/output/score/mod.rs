//! The outputs of a diarization score: one file per format, as for the analysis.
//!
//! ```text
//! json.rs      the JSON report (every metric; the error timelines when asked)
//! csv.rs       CSV and TSV: a row per recording, the total and the macro average
//! markdown.rs  the same rows as a Markdown table, and the conventions as a list
//! table.rs     the same rows aligned for a terminal, and the conventions
//! ```

pub mod csv;
pub mod json;
pub mod markdown;
pub mod table;

use std::collections::BTreeMap;

use crate::output::number::{pct2, secs3};
use crate::score::{ErrorSegment, FileStatus, ScoreReport};

/// A score as the outputs show it: the report, and each recording's error timeline when they
/// were computed (the JSON writes them).
#[derive(Debug, Clone, Copy)]
pub struct Scored<'a> {
    /// The score.
    pub report: &'a ScoreReport,
    /// Each scored recording's error pieces, by id.
    pub timelines: Option<&'a BTreeMap<String, Vec<ErrorSegment>>>,
}

/// How a recording's status reads in the tables.
fn status_name(s: FileStatus) -> &'static str {
    match s {
        FileStatus::Scored => "scored",
        FileStatus::MissingHypothesis => "no hypothesis",
        FileStatus::MissingReference => "no reference",
        FileStatus::Skipped => "skipped",
    }
}

/// The columns of the tables.
const HEADER: [&str; 10] = [
    "recording",
    "status",
    "scored_s",
    "correct_s",
    "miss_s",
    "fa_s",
    "confusion_s",
    "der_pct",
    "jer_pct",
    "mapping",
];

/// The rows of the tables: one per recording, the total and the macro average.
fn rows(report: &ScoreReport) -> Vec<[String; 10]> {
    let o = &report.options;
    let mut rows: Vec<[String; 10]> = report
        .files
        .iter()
        .map(|f| {
            let d = &f.der;
            [
                f.id.clone(),
                status_name(f.status).to_owned(),
                secs3(d.scored),
                secs3(d.correct),
                secs3(d.miss),
                secs3(d.false_alarm),
                secs3(d.confusion),
                pct2(f.der_value(o)),
                pct2(f.jer.as_ref().and_then(|j| j.value)),
                f.mapping.iter().map(|(r, h)| format!("{r}={h}")).collect::<Vec<_>>().join(" "),
            ]
        })
        .collect();
    let t = &report.total;
    rows.push([
        "TOTAL".to_owned(),
        format!("{} recordings", report.files.len()),
        secs3(t.scored),
        secs3(t.correct),
        secs3(t.miss),
        secs3(t.false_alarm),
        secs3(t.confusion),
        pct2(report.der()),
        pct2(report.jer),
        String::new(),
    ]);
    rows.push([
        "MACRO".to_owned(),
        "mean of recordings".to_owned(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        pct2(report.macro_der()),
        String::new(),
        String::new(),
    ]);
    rows
}
