//! Untimed transcripts in `analyze`'s outputs: the turn-order analysis
//! ([`crate::analysis::turn_order`]) as a table, Markdown, CSV rows and JSON objects.
//!
//! In JSON, each untimed recording is an object of the envelope's `untimed` list (and a line of
//! its own in JSON Lines): `{"recording", "schema_version", "untimed": true, …}` with the fields
//! of [`TurnOrder`]. The conversations and corpus totals of the envelope hold the timed inputs
//! only.

use std::io::{self, Write};

use serde::Serialize;

use super::csv::Events;
use crate::analysis::turn_order::{SpeakerTurns, TurnEnd, TurnOrder};
use crate::analysis::SCHEMA_VERSION;

/// One untimed recording and its turn-order analysis.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct UntimedRecording<'a> {
    /// The recording id (with the file name when the id repeats across inputs).
    pub recording: &'a str,
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// Always `true`: tells these objects from conversations in JSON Lines.
    pub untimed: bool,
    /// The analysis.
    #[serde(flatten)]
    pub order: &'a TurnOrder,
}

impl<'a> UntimedRecording<'a> {
    /// The output object of `order`.
    pub fn new(recording: &'a str, order: &'a TurnOrder) -> Self {
        UntimedRecording { recording, schema_version: SCHEMA_VERSION, untimed: true, order }
    }
}

/// A share as a percentage with one decimal, `-` when undefined.
fn percent(share: Option<f64>) -> String {
    crate::output::number::pct(share)
}

/// `name n, name n` of a count per speaker, or `-`.
fn by_speaker(counts: &std::collections::BTreeMap<String, usize>) -> String {
    if counts.is_empty() {
        return "-".to_owned();
    }
    counts.iter().map(|(k, v)| format!("{k} {v}")).collect::<Vec<_>>().join(", ")
}

/// One speaker's numbers in the column order of every listing (turns, turn share, words, word
/// share, longest and median turn in words, questions, the rule counts made and received,
/// crosstalk notes, claims); each output writes shares and the median its own way.
fn speaker_cells(
    s: &SpeakerTurns,
    share: impl Fn(Option<f64>) -> String,
    median: impl Fn(Option<f64>) -> String,
) -> [String; 13] {
    [
        s.turns.to_string(),
        share(s.turn_share),
        s.words.to_string(),
        share(s.word_share),
        s.longest_turn_words.to_string(),
        median(s.median_turn_words),
        s.questions.to_string(),
        s.cut_off_made.to_string(),
        s.cut_off_received.to_string(),
        s.no_sentence_end_made.to_string(),
        s.no_sentence_end_received.to_string(),
        s.crosstalk_notes.to_string(),
        s.verbal_claims.to_string(),
    ]
}

/// [`speaker_cells`] as the table and Markdown show them: percentages, `-` when undefined.
fn table_cells(s: &SpeakerTurns) -> [String; 13] {
    let median = |m: Option<f64>| m.map_or_else(|| "-".to_owned(), |m| format!("{m:.1}"));
    speaker_cells(s, percent, median)
}

/// The headline sentence of one recording.
fn headline(u: &UntimedRecording<'_>) -> String {
    let o = u.order;
    format!(
        "{}: untimed transcript, {} speakers, {} turns, {} speaker changes, {} words (no times: measured from the order of the turns, their words, and the transcriber's punctuation and notes)",
        u.recording,
        o.speakers.len(),
        o.turns,
        o.speaker_changes,
        o.words
    )
}

/// Writes the table of each recording, as `analyze --format table` does.
pub fn write_table(recordings: &[UntimedRecording<'_>], out: &mut dyn Write) -> io::Result<()> {
    for (i, u) in recordings.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        let o = u.order;
        writeln!(out, "{}", headline(u))?;
        writeln!(out)?;
        let header = [
            "speaker",
            "turns",
            "turn %",
            "words",
            "word %",
            "longest",
            "median",
            "questions",
            "cut off",
            "cut off by",
            "before end",
            "before end by",
            "crosstalk",
            "claims",
        ];
        let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| (*s).to_owned()).collect()];
        for (name, s) in &o.speakers {
            let mut row = vec![name.clone()];
            row.extend(table_cells(s));
            rows.push(row);
        }
        let widths: Vec<usize> = (0..header.len())
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        for row in &rows {
            let cells: Vec<String> = row
                .iter()
                .zip(&widths)
                .enumerate()
                .map(
                    |(c, (cell, w))| {
                        if c == 0 {
                            format!("{cell:<w$}")
                        } else {
                            format!("{cell:>w$}")
                        }
                    },
                )
                .collect();
            writeln!(out, "{}", cells.join("  ").trim_end())?;
        }
        writeln!(out, "(longest and median turn in words; cut off: turns taken after a turn ending with a dash or an ellipsis, and by whom this speaker's were; before end: turns taken before the holder's sentence ended, dashes and ellipses included)")?;
        writeln!(out)?;
        writeln!(
            out,
            "interruptions by rule (published counts of one debate differ by what they count):"
        )?;
        for r in &o.rules {
            let count = r.count.map_or_else(|| "-".to_owned(), |c| c.to_string());
            let who = if r.count.is_some() && !r.by_speaker.is_empty() {
                format!(" (by {})", by_speaker(&r.by_speaker))
            } else {
                String::new()
            };
            writeln!(out, "  {:<16} {:>5}  {}{}; {}", r.rule, count, r.description, who, r.basis)?;
        }
        if !o.pairs.is_empty() {
            writeln!(out)?;
            writeln!(out, "who followed whom before the sentence ended (cut off / before end):")?;
            let names: Vec<String> =
                o.pairs.iter().map(|p| format!("{} → {}", p.interrupter, p.interruptee)).collect();
            let w = names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
            for (p, name) in o.pairs.iter().zip(&names) {
                writeln!(out, "  {name:<w$}  {} / {}", p.cut_off, p.no_sentence_end)?;
            }
        }
        if !o.verbal_claims.is_empty() {
            writeln!(out)?;
            writeln!(out, "floor claims in the words:")?;
            for c in &o.verbal_claims {
                let after = claim_after(c);
                writeln!(out, "  turn {}: {} \"{}\"{}", c.turn, c.speaker, c.phrase, after)?;
            }
        }
        writeln!(out)?;
        writeln!(out, "not measurable without times: {}", o.not_measurable.join("; "))?;
    }
    Ok(())
}

/// What follows a floor claim's turn in the table and the Markdown: who spoke before it, and
/// whether that speaker had taken over an unfinished turn.
fn claim_after(c: &crate::analysis::turn_order::TurnClaim) -> String {
    match (&c.after, c.reclaims) {
        (Some(a), true) => format!(", after {a}, who followed this speaker's unfinished turn"),
        (Some(a), false) => format!(", after {a}"),
        (None, _) => String::new(),
    }
}

/// A Markdown table cell: `|` escaped, lines joined.
fn cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// Writes each recording as Markdown, as `analyze --format md` does.
pub fn write_markdown(recordings: &[UntimedRecording<'_>], out: &mut dyn Write) -> io::Result<()> {
    for u in recordings {
        let o = u.order;
        writeln!(out, "## {} (untimed transcript)", cell(u.recording))?;
        writeln!(out)?;
        writeln!(
            out,
            "{} speakers, {} turns, {} speaker changes, {} words. {}.",
            o.speakers.len(),
            o.turns,
            o.speaker_changes,
            o.words,
            super::sentence_start(&o.basis)
        )?;
        writeln!(out)?;
        writeln!(out, "| speaker | turns | turn % | words | word % | longest turn (words) | median turn (words) | questions | cut off | cut off by | before end | before end by | crosstalk notes | floor claims |")?;
        writeln!(out, "| --- |{}", " ---: |".repeat(13))?;
        for (name, s) in &o.speakers {
            writeln!(out, "| {} | {} |", cell(name), table_cells(s).join(" | "))?;
        }
        writeln!(out)?;
        writeln!(out, "| rule | count | counts | by speaker |")?;
        writeln!(out, "| --- | ---: | --- | --- |")?;
        for r in &o.rules {
            let count = r.count.map_or_else(|| "not measurable".to_owned(), |c| c.to_string());
            writeln!(
                out,
                "| `{}` | {} | {} | {} |",
                r.rule,
                count,
                cell(&r.description),
                cell(&by_speaker(&r.by_speaker))
            )?;
        }
        // Who followed whom and the floor claims, as the table and the HTML report give them.
        if !o.pairs.is_empty() {
            writeln!(out)?;
            writeln!(out, "Who followed whom before the sentence ended:")?;
            writeln!(out)?;
            writeln!(out, "| next speaker | holder | after a dash or an ellipsis | before the sentence ended |")?;
            writeln!(out, "| --- | --- | ---: | ---: |")?;
            for p in &o.pairs {
                writeln!(
                    out,
                    "| {} | {} | {} | {} |",
                    cell(&p.interrupter),
                    cell(&p.interruptee),
                    p.cut_off,
                    p.no_sentence_end
                )?;
            }
        }
        if !o.verbal_claims.is_empty() {
            writeln!(out)?;
            writeln!(out, "Floor claims in the words:")?;
            writeln!(out)?;
            for c in &o.verbal_claims {
                let after = claim_after(c);
                writeln!(
                    out,
                    "- turn {}: {} \"{}\"{}",
                    c.turn,
                    cell(&c.speaker),
                    cell(&c.phrase),
                    after
                )?;
            }
        }
        writeln!(out)?;
        writeln!(out, "Not measurable without times: {}.", o.not_measurable.join("; "))?;
        writeln!(out)?;
    }
    Ok(())
}

/// Whether `events` has rows in an untimed transcript (`speakers` and `turns`).
pub fn has_rows(events: Events) -> bool {
    matches!(events, Events::Speakers | Events::Turns)
}

/// Writes the `speakers` or `turns` rows of every recording, the recording first; other lists
/// need times ([`has_rows`]) and write nothing.
pub fn write_rows(
    recordings: &[UntimedRecording<'_>],
    events: Events,
    separator: char,
    out: &mut dyn Write,
) -> io::Result<()> {
    let sep = separator.to_string();
    let quote = |s: &str| super::csv::quote(s, separator);
    match events {
        Events::Speakers => {
            writeln!(
                out,
                "{}",
                [
                    "recording",
                    "speaker",
                    "turns",
                    "turn_share",
                    "words",
                    "word_share",
                    "longest_turn_words",
                    "median_turn_words",
                    "questions",
                    "cut_off_made",
                    "cut_off_received",
                    "no_sentence_end_made",
                    "no_sentence_end_received",
                    "crosstalk_notes",
                    "verbal_claims"
                ]
                .join(&sep)
            )?;
            for u in recordings {
                for (name, s) in &u.order.speakers {
                    // For programs: shares as fractions, an undefined value an empty cell.
                    let raw = |v: Option<f64>| v.map(|x| x.to_string()).unwrap_or_default();
                    let mut cells = vec![quote(u.recording), quote(name)];
                    cells.extend(speaker_cells(s, raw, raw));
                    writeln!(out, "{}", cells.join(&sep))?;
                }
            }
        }
        Events::Turns => {
            writeln!(
                out,
                "{}",
                ["recording", "turn", "speaker", "line", "words", "ends"].join(&sep)
            )?;
            for u in recordings {
                for t in &u.order.turn_list {
                    let ends = match t.ends {
                        TurnEnd::Sentence => "sentence",
                        TurnEnd::CutOff => "cut_off",
                        TurnEnd::Open => "open",
                        TurnEnd::Empty => "empty",
                    };
                    let cells = [
                        quote(u.recording),
                        t.turn.to_string(),
                        quote(&t.speaker),
                        t.line.to_string(),
                        t.words.to_string(),
                        ends.to_owned(),
                    ];
                    writeln!(out, "{}", cells.join(&sep))?;
                }
            }
        }
        _ => {}
    }
    Ok(())
}
