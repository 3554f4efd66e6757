//! The JSON output: `{schema_version, conversations: [...], corpus: {...}}`, the same shape for
//! one conversation as for many, so a script reads both alike (`output::schema` describes it).

use std::io::{self, Write};

use serde::Serialize;

use super::totals::CorpusTotals;
use super::untimed::UntimedRecording;
use super::{Conversation, Exporter};
use crate::analysis::SCHEMA_VERSION;

/// The JSON document: every conversation and the corpus totals.
#[derive(Debug, Serialize)]
pub struct Envelope<'a> {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The conversations, in the order given, each with its plain-language summary.
    #[serde(serialize_with = "crate::summary::serialize_summarised")]
    pub conversations: &'a [Conversation<'a>],
    /// Totals over `conversations`.
    pub corpus: CorpusTotals,
    /// Transcripts without times, each with its turn-order analysis; left out when there are
    /// none (the totals above do not count them).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub untimed: &'a [UntimedRecording<'a>],
}

impl<'a> Envelope<'a> {
    /// The envelope of `conversations`, with their totals.
    pub fn new(conversations: &'a [Conversation<'a>]) -> Self {
        Envelope {
            schema_version: SCHEMA_VERSION,
            conversations,
            corpus: CorpusTotals::of(conversations),
            untimed: &[],
        }
    }

    /// The envelope with the untimed transcripts `untimed`.
    pub fn with_untimed(self, untimed: &'a [UntimedRecording<'a>]) -> Self {
        Envelope { untimed, ..self }
    }
}

/// Pretty-printed JSON ([`Envelope`]) followed by a newline.
#[derive(Debug, Clone, Copy, Default)]
pub struct Json;

impl<'a> Exporter<[Conversation<'a>]> for Json {
    fn export(&self, conversations: &[Conversation<'a>], out: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer_pretty(&mut *out, &Envelope::new(conversations))?;
        writeln!(out)
    }
}
