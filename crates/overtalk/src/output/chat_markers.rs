//! The table of a CHAT transcriber's overlap and interruption markers against the timing of the
//! bullets, shown by `info` and `analyze` ([`crate::analysis::markers`] does the counting).

use std::io::{self, Write};

use super::align::{pad_left, pad_right, width};
use crate::analysis::markers::MarkersVsTiming;

/// Writes the heading line (after `recording: `, when given) and the table, aligned for the
/// terminal or as Markdown.
pub fn write(
    m: &MarkersVsTiming,
    recording: Option<&str>,
    md: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let forms: Vec<String> = m.markers.iter().map(|(k, n)| format!("{k} {n}")).collect();
    let untimed = if m.untimed > 0 {
        format!("; {} utterance(s) without a bullet left out", m.untimed)
    } else {
        String::new()
    };
    writeln!(
        out,
        "{}CHAT markers vs timing ({} timed utterances; markers {}{untimed}; agreement = both / (both + marker only + timing only)):",
        recording.map_or_else(String::new, |r| format!("{r}: ")),
        m.utterances,
        if forms.is_empty() { "none".to_owned() } else { forms.join(", ") },
    )?;
    let header: Vec<String> = [
        "comparison",
        "marked by",
        "timing shows",
        "both",
        "marker only",
        "timing only",
        "agreement",
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    let rows: Vec<Vec<String>> = m
        .rows()
        .iter()
        .map(|(name, marked, timing, a)| {
            vec![
                (*name).to_owned(),
                (*marked).to_owned(),
                (*timing).to_owned(),
                a.both.to_string(),
                a.marker_only.to_string(),
                a.timing_only.to_string(),
                crate::output::number::pct(a.agreement),
            ]
        })
        .collect();
    if md {
        writeln!(out)?;
        writeln!(out, "| {} |", header.join(" | "))?;
        writeln!(out, "|{}", header.iter().map(|_| " --- |").collect::<String>())?;
        for r in &rows {
            // `|` inside a cell would end it.
            let cells: Vec<String> = r.iter().map(|c| c.replace('|', "\\|")).collect();
            writeln!(out, "| {} |", cells.join(" | "))?;
        }
        return Ok(());
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|i| rows.iter().map(|r| width(&r[i])).chain([width(&header[i])]).max().unwrap_or(0))
        .collect();
    let line = |cells: &[String]| -> String {
        let padded: Vec<String> = cells
            .iter()
            .enumerate()
            .map(|(i, c)| if i < 3 { pad_right(c, widths[i]) } else { pad_left(c, widths[i]) })
            .collect();
        padded.join("  ").trim_end().to_owned()
    };
    writeln!(out, "{}", line(&header))?;
    for r in &rows {
        writeln!(out, "{}", line(r))?;
    }
    Ok(())
}
