//! Markdown: a `##` heading per conversation, pipe tables and bullet lists, for pasting into
//! notes and issues.

use std::io::{self, Write};

use super::markup::Markup;

/// The analysis as Markdown (an [`super::Exporter`] through [`Markup`]).
#[derive(Debug, Clone, Default)]
pub struct Markdown {
    /// The preset name shown in the parameters line.
    pub preset: String,
}

impl Markup for Markdown {
    fn preset(&self) -> &str {
        &self.preset
    }

    fn heading(&self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "## {text}\n")
    }

    fn corpus_heading(&self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "## {text}\n")
    }

    fn bullet(&self) -> &'static str {
        "- "
    }

    fn is_markdown(&self) -> bool {
        true
    }

    fn note(&self) -> &'static str {
        "> "
    }

    fn after_caption(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out)
    }

    fn table(
        &self,
        header: &[String],
        rows: &[Vec<String>],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        writeln!(out, "| {} |", header.join(" | "))?;
        writeln!(out, "|{}", header.iter().map(|_| " --- |").collect::<String>())?;
        for r in rows {
            writeln!(out, "| {} |", r.join(" | "))?;
        }
        Ok(())
    }
}
