//! Every output of an analysis, machine and human, behind one [`Exporter`] trait: one file per
//! format, as hyperfine's `export/` does.
//!
//! ```text
//! json.rs      the JSON envelope {schema_version, conversations, corpus}
//! jsonl.rs     one conversation object per line
//! live.rs      the wire type of a live floor session: one event per JSON line
//! csv.rs       CSV and TSV: event lists and the per-speaker table
//! info.rs      the first glance of `info`: recordings, speakers, speech; JSON and tables
//! markdown.rs  Markdown tables and bullets
//! table.rs     the terminal table (aligned by display columns)
//! markup.rs    what Markdown and the terminal table share: the layout of a conversation
//! totals.rs    totals over a corpus of conversations
//! number.rs    how numbers are written in human outputs
//! schema.rs    the JSON Schema of the JSON envelope
//! validate.rs  what each scoring tool would do with an RTTM file: text and JSON
//! score/       the outputs of a diarization score: JSON, CSV/TSV, Markdown, table
//! ```
//!
//! Front ends (the command line, bindings) choose an exporter and a writer; the bytes written
//! are the same whoever asks, so the outputs of every front end agree.

pub(crate) mod align;
pub(crate) mod chat_markers;
pub mod csv;
pub mod info;
pub mod json;
pub mod jsonl;
pub mod live;
pub mod markdown;
pub(crate) mod markup;
pub(crate) mod number;
pub mod schema;
pub mod score;
pub mod table;
pub(crate) mod totals;
pub mod untimed;
pub mod validate;

use std::io::{self, Write};

use serde::Serialize;

use crate::analysis::Analysis;

/// One analysed conversation as the outputs show it: its name, how its speech was found, and
/// its result.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Conversation<'a> {
    /// The recording id (with the file name added by the front end when ids repeat).
    pub recording: &'a str,
    /// For a recording: how its speech was detected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detection: Option<DetectionMethod<'a>>,
    /// The result, its fields written beside `recording`.
    #[serde(flatten)]
    pub analysis: &'a Analysis,
}

/// How the speech of a recording was detected, for the record.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct DetectionMethod<'a> {
    /// The method and its parameters.
    pub method: &'a str,
}

impl<'a> Conversation<'a> {
    /// A conversation named `recording`, detected by `method` when it came from a recording.
    pub fn new(recording: &'a str, method: Option<&'a str>, analysis: &'a Analysis) -> Self {
        Conversation {
            recording,
            detection: method.map(|method| DetectionMethod { method }),
            analysis,
        }
    }

    /// The detection method, if the conversation came from a recording.
    pub fn method(&self) -> Option<&'a str> {
        self.detection.map(|d| d.method)
    }
}

/// A way of writing results: one implementation per output format. `Data` is what is written:
/// `[Conversation]` for an analysis, [`score::Scored`] for a diarization score.
pub trait Exporter<Data: ?Sized> {
    /// Writes `data` to `out`.
    fn export(&self, data: &Data, out: &mut dyn Write) -> io::Result<()>;
}

/// At most this many speakers are shown as a matrix of who interrupts whom (the table, Markdown
/// and the HTML report); more are listed pair by pair, most attempts first: a matrix of 5 000
/// speakers would have 25 million cells.
pub const MAX_MATRIX_SPEAKERS: usize = 12;

/// The pairs of who interrupts whom as the outputs list them above [`MAX_MATRIX_SPEAKERS`]:
/// every pair with an attempt or a talk-over event, most attempts first, then by name.
pub fn listed_pairs(r: &crate::analysis::Analysis) -> Vec<&crate::analysis::result::PairOut> {
    let mut pairs: Vec<_> = r.pairs.iter().collect();
    pairs.sort_by(|a, b| {
        b.attempts
            .cmp(&a.attempts)
            .then_with(|| a.interrupter.cmp(&b.interrupter))
            .then_with(|| a.interruptee.cmp(&b.interruptee))
    });
    pairs
}

/// What the human outputs show for a number that cannot be measured.
pub const NOT_MEASURABLE: &str = "not measurable";

/// A count, or [`NOT_MEASURABLE`] when it is unknown.
pub fn count_or_unmeasurable(n: Option<usize>) -> String {
    n.map_or_else(|| NOT_MEASURABLE.to_owned(), |n| n.to_string())
}

/// `n` and its noun, singular for 1 (`1 turn`, `3 turns`).
pub fn counted(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// [`counted`], or `many` [`NOT_MEASURABLE`] when the count is unknown (`overlaps between not
/// measurable`).
pub fn counted_or_unmeasurable(n: Option<usize>, one: &str, many: &str) -> String {
    n.map_or_else(|| format!("{many} {NOT_MEASURABLE}"), |n| counted(n, one, many))
}

/// `text` with its first letter in capitals, for a phrase of the JSON (written to be quoted
/// mid-sentence, as `turn_order.basis` is) that a human output puts at the start of a
/// sentence.
pub(crate) fn sentence_start(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

pub use crate::analysis::warning::OVERLAP_NOT_MEASURABLE;

/// A share in percent as every output writes it, rounded half away from zero (for front ends
/// that write a share in a message of their own).
pub use number::percent;
