//! YouTube's JSON captions (json3): the `timedtext` events YouTube's player reads, as `yt-dlp
//! --sub-format json3` downloads them, manual and automatic captions alike.
//!
//! ```text
//! {"wireMagic": "pb3", "pens": [{}], "wsWinStyles": [{}, …], "wpWinPositions": [{}, …],
//!  "events": [
//!   {"tStartMs": 0, "dDurationMs": 957600, "id": 1, "wpWinPosId": 1, "wsWinStyleId": 1},
//!   {"tStartMs": 1040, "dDurationMs": 3360, "wWinId": 1, "segs": [
//!      {"utf8": "welcome", "acAsrConf": 0}, {"utf8": " to", "tOffsetMs": 320, "acAsrConf": 0}]},
//!   {"tStartMs": 2710, "dDurationMs": 1690, "wWinId": 1, "aAppend": 1, "segs": [{"utf8": "\n"}]},
//!   {"tStartMs": 9870, "dDurationMs": 6240, "segs": [{"utf8": ">> ANA: So we\nstart."}]}]}
//! ```
//!
//! **Reading.** Events without `segs` define windows and are skipped; each other event with
//! text is a caption over `[tStartMs, tStartMs + dDurationMs)`, its text the `utf8` of its
//! `segs`, line breaks separating lines. Speakers are read from the text as in SRT
//! ([`super::srt`]): `>>` marks a new speaker and `NAME:` names one; a caption without a speaker
//! gets `unknown`, with one warning. Segments with `tOffsetMs` or `acAsrConf` are the words of
//! automatic captions: they keep their times, and a line ends where the next one starts, since
//! automatic captions roll up: a line stays shown while the next is said, and reading its display
//! time would make each change of speaker an overlap. An `aAppend` event appends to the line
//! before: a line break (no caption) or text joining it. Text that is not JSON is an error at
//! serde_json's line and column; an event whose times are missing or no whole milliseconds is
//! skipped with a warning at its line and column (`--strict` rejects it).

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Result, WarningKind};
use crate::format::json::{scan, warn};
use crate::format::youtube::{read_events, Event, Piece};
use crate::format::ReadContext;
use crate::model::Corpus;

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told
/// apart in [`crate::format::json`] by its `wireMagic` or its `events` of `tStartMs`.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Json3,
    name: "json3",
    aliases: &["youtube-json3"],
    extension: "json3",
    detected_by: &["json3"],
    read: Ok(read),
    write: None,
    json: true,
    many_recordings: false,
    paragraphs: false,
    sniff: &[],
};

#[derive(Deserialize)]
struct Doc {
    #[serde(default)]
    events: Option<Vec<EventJ>>,
}

#[derive(Deserialize)]
struct EventJ {
    #[serde(default, rename = "tStartMs")]
    start: Option<Value>,
    #[serde(default, rename = "dDurationMs")]
    duration: Option<Value>,
    #[serde(default, rename = "aAppend")]
    append: Option<Value>,
    #[serde(default)]
    segs: Option<Vec<SegJ>>,
}

#[derive(Deserialize)]
struct SegJ {
    #[serde(default)]
    utf8: Option<String>,
    #[serde(default, rename = "tOffsetMs")]
    offset: Option<Value>,
    #[serde(default, rename = "acAsrConf")]
    confidence: Option<Value>,
}

const TRACKED: [&str; 1] = ["events"];

/// Whole milliseconds, as a number or a string of digits (some tools write them quoted).
fn millis(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64().filter(|&m| m >= 0),
        Value::String(s) => {
            let s = s.trim();
            (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        }
        _ => None,
    }
}

/// Reads json3 captions as one recording (see the module doc).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let doc: Doc = scanned.parse(ctx)?;
    let Some(list) = doc.events else {
        return Err(Error::invalid(
            "no `events` list: this JSON is not YouTube json3 captions; name its format with --from, or leave --from out to detect it",
        ));
    };
    let mut events = Vec::with_capacity(list.len());
    for (k, e) in list.into_iter().enumerate() {
        let Some(segs) = e.segs else { continue };
        let (line, column) = scanned.pos(0, k).unwrap_or((1, 1));
        let start = e.start.as_ref().and_then(millis);
        let append =
            e.append.as_ref().is_some_and(|a| a.as_i64() == Some(1) || a.as_bool() == Some(true));
        let duration = e.duration.as_ref().and_then(millis);
        let bad = match (&e.start, start, &e.duration, duration) {
            (None, ..) => Some("no `tStartMs`".to_owned()),
            (Some(v), None, ..) => Some(format!("`tStartMs` {v} is no whole milliseconds")),
            (_, _, Some(v), None) => Some(format!("`dDurationMs` {v} is no whole milliseconds")),
            _ => None,
        };
        let pieces: Vec<Piece> = segs
            .into_iter()
            .map(|s| Piece {
                text: s.utf8.unwrap_or_default(),
                offset: s.offset.as_ref().and_then(millis),
                scored: s.confidence.is_some(),
            })
            .collect();
        if let Some(why) = bad {
            if !pieces.iter().all(|p| p.text.trim().is_empty()) {
                // Under --strict the error leaves `; skipped` off (`Warning::into_error`).
                let message = format!("event {why}; skipped");
                warn(ctx, WarningKind::Skipped, Some((line, column)), message)?;
            }
            continue;
        }
        events.push(Event { line, column, start: start.unwrap_or(0), duration, append, pieces });
    }
    read_events(events, ctx)
}
