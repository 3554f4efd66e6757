//! A score for the terminal: the rows aligned by display width (times and rates
//! right-aligned), then the conventions that produced them.

use std::io::{self, Write};

use super::{rows, Scored, HEADER};
use crate::output::align::width;
use crate::output::Exporter;

/// A score as an aligned plain-text table.
#[derive(Debug, Clone, Copy, Default)]
pub struct ScoreTable;

impl<'a> Exporter<Scored<'a>> for ScoreTable {
    fn export(&self, scored: &Scored<'a>, out: &mut dyn Write) -> io::Result<()> {
        let all = rows(scored.report);
        let cols = HEADER.len();
        let mut widths = [0usize; 10];
        for (i, h) in HEADER.iter().enumerate() {
            widths[i] = width(h);
        }
        for r in &all {
            for i in 0..cols {
                widths[i] = widths[i].max(width(&r[i]));
            }
        }
        let line = |cells: &[String]| -> String {
            let mut s = String::new();
            for (i, c) in cells.iter().enumerate() {
                let pad = widths[i].saturating_sub(width(c));
                if (2..9).contains(&i) {
                    s.push_str(&" ".repeat(pad));
                    s.push_str(c);
                } else {
                    s.push_str(c);
                    if i + 1 < cells.len() {
                        s.push_str(&" ".repeat(pad));
                    }
                }
                if i + 1 < cells.len() {
                    s.push_str("  ");
                }
            }
            s.trim_end().to_owned()
        };
        let header: Vec<String> = HEADER.iter().map(|h| h.to_string()).collect();
        writeln!(out, "{}", line(&header))?;
        for r in &all {
            writeln!(out, "{}", line(r))?;
        }
        writeln!(out)?;
        writeln!(out, "conventions:")?;
        for (k, v) in &scored.report.options.describe() {
            writeln!(out, "  {k}: {v}")?;
        }
        Ok(())
    }
}
