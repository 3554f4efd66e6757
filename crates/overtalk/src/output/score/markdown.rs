//! A score as ScoreMarkdown: the table's rows (pipes in cells escaped) and the conventions as a
//! list.

use std::io::{self, Write};

use super::{rows, Scored, HEADER};
use crate::output::Exporter;

/// A score as a ScoreMarkdown table.
#[derive(Debug, Clone, Copy, Default)]
pub struct ScoreMarkdown;

impl<'a> Exporter<Scored<'a>> for ScoreMarkdown {
    fn export(&self, scored: &Scored<'a>, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "| {} |", HEADER.join(" | "))?;
        writeln!(out, "|{}", " --- |".repeat(HEADER.len()))?;
        for row in rows(scored.report) {
            let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
            writeln!(out, "| {} |", cells.join(" | "))?;
        }
        writeln!(out)?;
        for (k, v) in &scored.report.options.describe() {
            writeln!(out, "- {k}: {v}")?;
        }
        Ok(())
    }
}
