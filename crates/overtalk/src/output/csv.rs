//! CSV and TSV: one event list of every conversation (onsets, intervals, turns, transfers) or
//! the per-speaker table, one row per event with the recording first. Times are integer
//! milliseconds and shares fractions, as in the JSON, so the columns are machine-readable.

use std::io::{self, Write};

use serde::Serialize;

use super::{Conversation, Exporter};
use crate::analysis::Analysis;

/// The rows written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Events {
    /// Onset events: who started while someone held the floor, and what came of it.
    Onsets,
    /// Heldner & Edlund intervals (gaps, pauses, overlaps) of both layers.
    Intervals,
    /// Turns.
    Turns,
    /// Floor transfers.
    Transfers,
    /// The per-speaker table (one row per speaker; times in ms, shares as fractions).
    Speakers,
}

impl Events {
    /// Every value, in documentation order.
    pub const ALL: [Events; 5] =
        [Events::Onsets, Events::Intervals, Events::Turns, Events::Transfers, Events::Speakers];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Events::Onsets => "onsets",
            Events::Intervals => "intervals",
            Events::Turns => "turns",
            Events::Transfers => "transfers",
            Events::Speakers => "speakers",
        }
    }
}

crate::named::named_enum!(Events, "event list");

/// Delimiter-separated rows of one [`Events`] list.
#[derive(Debug, Clone, Copy)]
pub struct Csv {
    /// `,` for CSV, `\t` for TSV.
    pub separator: char,
    /// Which rows.
    pub events: Events,
}

impl Csv {
    /// Comma-separated rows of `events`.
    pub fn comma(events: Events) -> Csv {
        Csv { separator: ',', events }
    }

    /// Tab-separated rows of `events`.
    pub fn tab(events: Events) -> Csv {
        Csv { separator: '\t', events }
    }
}

impl<'a> Exporter<[Conversation<'a>]> for Csv {
    fn export(&self, conversations: &[Conversation<'a>], out: &mut dyn Write) -> io::Result<()> {
        let sep = self.separator.to_string();
        writeln!(out, "{}", header(self.events).join(&sep))?;
        for c in conversations {
            for row in rows(self.events, c.recording, c.analysis) {
                let cells: Vec<String> = row.iter().map(|c| quote(c, self.separator)).collect();
                writeln!(out, "{}", cells.join(&sep))?;
            }
        }
        Ok(())
    }
}

fn header(events: Events) -> &'static [&'static str] {
    match events {
        Events::Onsets => &[
            "recording",
            "speaker",
            "time",
            "holder",
            "class",
            "outcome",
            "ferguson",
            "partner",
            "dist_to_completion",
            "holder_remaining",
        ],
        Events::Intervals => &["recording", "layer", "kind", "start", "end", "prev", "next"],
        Events::Turns => {
            &["recording", "speaker", "start", "end", "claim", "n_talkspurts", "n_tokens"]
        }
        Events::Transfers => &["recording", "time", "from", "to", "fto"],
        Events::Speakers => &[
            "recording",
            "speaker",
            "mode",
            "talk",
            "talk_share",
            "solo",
            "floor",
            "floor_share",
            "turns",
            "longest_turn",
            "words",
            "wpm",
            "backchannels",
            "interruptions_made",
            "interruptions_made_successful",
            "interruptions_received",
            "interruptions_received_successful",
            "median_fto_in",
        ],
    }
}

fn rows(events: Events, id: &str, r: &Analysis) -> Vec<Vec<String>> {
    let id = id.to_owned();
    match events {
        Events::Onsets => r
            .onsets
            .iter()
            .map(|o| {
                vec![
                    id.clone(),
                    o.speaker.to_string(),
                    o.time.to_string(),
                    opt(&o.holder),
                    name_of(&o.class),
                    name_of(&o.outcome),
                    o.ferguson.as_ref().map(name_of).unwrap_or_default(),
                    opt(&o.partner),
                    opt(&o.dist_to_completion),
                    opt(&o.holder_remaining),
                ]
            })
            .collect(),
        Events::Intervals => {
            r.he.iter()
                .map(|h| {
                    vec![
                        id.clone(),
                        name_of(&h.layer),
                        h.kind.name().to_owned(),
                        h.start.to_string(),
                        h.end.to_string(),
                        opt(&h.prev),
                        opt(&h.next),
                    ]
                })
                .collect()
        }
        Events::Turns => r
            .turns
            .iter()
            .map(|t| {
                vec![
                    id.clone(),
                    t.speaker.to_string(),
                    t.start.to_string(),
                    t.end.to_string(),
                    t.claim.to_string(),
                    t.n_talkspurts.to_string(),
                    t.n_tokens.to_string(),
                ]
            })
            .collect(),
        Events::Transfers => r
            .transfers
            .iter()
            .map(|t| {
                vec![
                    id.clone(),
                    t.time.to_string(),
                    t.from.to_string(),
                    t.to.to_string(),
                    opt(&t.fto),
                ]
            })
            .collect(),
        Events::Speakers => r
            .speakers
            .iter()
            .map(|(name, x)| {
                vec![
                    id.clone(),
                    name.clone(),
                    r.mode.get(name).map(name_of).unwrap_or_default(),
                    x.talk.to_string(),
                    opt(&x.talk_share),
                    opt(&x.solo),
                    x.floor.to_string(),
                    opt(&x.floor_share),
                    x.turns.to_string(),
                    opt(&x.longest_turn),
                    x.words.to_string(),
                    opt(&x.wpm),
                    x.backchannels.to_string(),
                    opt(&x.interruptions_made.map(|c| c.attempts)),
                    opt(&x.interruptions_made.map(|c| c.successful)),
                    opt(&x.interruptions_received.map(|c| c.attempts)),
                    opt(&x.interruptions_received.map(|c| c.successful)),
                    opt(&x.median_fto_in),
                ]
            })
            .collect(),
    }
}

/// A cell, quoted when it holds the separator, a quote or a line break (RFC 4180).
pub(crate) fn quote(s: &str, sep: char) -> String {
    if s.contains([sep, '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

/// An optional value, empty when absent.
fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(ToString::to_string).unwrap_or_default()
}

/// The name a value serialises to (the JSON spelling of an enum variant).
fn name_of<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}
