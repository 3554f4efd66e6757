//! The terminal table: columns aligned by display width (wide characters take two columns,
//! combining marks none), labels left-aligned and numbers right-aligned.

use std::io::{self, Write};

use super::align::{pad_left, pad_right, width};
use super::markup::Markup;

/// The analysis as aligned plain-text tables (an [`super::Exporter`] through [`Markup`]).
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// The preset name shown in the parameters line.
    pub preset: String,
}

impl Markup for Table {
    fn preset(&self) -> &str {
        &self.preset
    }

    fn heading(&self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{text}\n")
    }

    fn corpus_heading(&self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{text}")
    }

    fn bullet(&self) -> &'static str {
        ""
    }

    fn note(&self) -> &'static str {
        ""
    }

    fn after_caption(&self, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }

    fn table(
        &self,
        header: &[String],
        rows: &[Vec<String>],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        let widths: Vec<usize> = (0..header.len())
            .map(|i| {
                rows.iter().map(|r| width(&r[i])).chain([width(&header[i])]).max().unwrap_or(0)
            })
            .collect();
        let line = |cells: &[String]| -> String {
            cells
                .iter()
                .enumerate()
                .map(|(i, c)| if i == 0 { pad_right(c, widths[i]) } else { pad_left(c, widths[i]) })
                .collect::<Vec<_>>()
                .join("  ")
        };
        writeln!(out, "{}", line(header).trim_end())?;
        for r in rows {
            writeln!(out, "{}", line(r).trim_end())?;
        }
        Ok(())
    }
}
