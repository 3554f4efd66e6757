//! JSON Lines: one conversation object per line (`#/$defs/conversation` of the schema), for
//! streaming a corpus without holding the envelope; each with its summary.

use std::io::{self, Write};

use super::{Conversation, Exporter};

/// One compact JSON object per conversation, each on its own line.
#[derive(Debug, Clone, Copy, Default)]
pub struct Jsonl;

impl<'a> Exporter<[Conversation<'a>]> for Jsonl {
    fn export(&self, conversations: &[Conversation<'a>], out: &mut dyn Write) -> io::Result<()> {
        for c in conversations {
            serde_json::to_writer(&mut *out, &crate::summary::Summarised::new(c))?;
            writeln!(out)?;
        }
        Ok(())
    }
}
