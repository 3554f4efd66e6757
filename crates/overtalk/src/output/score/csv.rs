//! CSV and TSV of a score: the table's rows with the preset, the collar (per side and total
//! width) and the scoring regions in every row, so rows of several runs can be concatenated.

use std::io::{self, Write};

use super::{rows, Scored, HEADER};
use crate::output::Exporter;

/// Delimiter-separated rows of a score.
#[derive(Debug, Clone, Copy)]
pub struct ScoreCsv {
    /// `,` for CSV (cells quoted as RFC 4180), `\t` for TSV (tabs and line breaks in cells
    /// become spaces).
    pub separator: char,
}

impl<'a> Exporter<Scored<'a>> for ScoreCsv {
    fn export(&self, scored: &Scored<'a>, out: &mut dyn Write) -> io::Result<()> {
        let report = scored.report;
        let conventions = report.options.describe();
        let csv = self.separator == ',';
        let sep = self.separator.to_string();
        let quote = |s: &str| {
            if csv && s.contains([',', '"', '\n']) {
                format!("\"{}\"", s.replace('"', "\"\""))
            } else {
                s.replace(['\t', '\n'], " ")
            }
        };
        let extra = ["preset", "collar_per_side_s", "collar_total_width_s", "regions"];
        let o = &report.options;
        let extra_values = [
            o.preset.name().to_owned(),
            format!("{:.3}", o.collar.as_secs_f64()),
            format!("{:.3}", o.collar_total_width().as_secs_f64()),
            conventions.iter().find(|c| c.0 == "regions").map(|c| c.1.clone()).unwrap_or_default(),
        ];
        let header: Vec<&str> = HEADER.iter().chain(extra.iter()).copied().collect();
        writeln!(out, "{}", header.join(&sep))?;
        for row in rows(report) {
            let cells: Vec<String> =
                row.iter().chain(extra_values.iter()).map(|c| quote(c)).collect();
            writeln!(out, "{}", cells.join(&sep))?;
        }
        Ok(())
    }
}
