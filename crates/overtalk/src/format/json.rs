//! overtalk's own JSON, lossless; and the JSON plumbing the other JSON readers share.
//!
//! # The format
//!
//! ```json
//! {
//!   "format": "overtalk",
//!   "schema_version": 1,
//!   "recordings": [
//!     {
//!       "id": "EN2002a",
//!       "extent": {"start_us": 0, "end_us": 10000000, "start": 0.000, "end": 10.000},
//!       "speakers": ["alice", "bob", "carol"],
//!       "tracks": [
//!         {"speaker": "alice", "start_us": 0, "end_us": 4210000, "start": 0.000, "end": 4.210,
//!          "text": "So the plan is", "words": [
//!           {"text": "So", "start_us": 0, "end_us": 180000, "start": 0.000, "end": 0.180,
//!            "confidence": 0.91}
//!         ]}
//!       ]
//!     }
//!   ]
//! }
//! ```
//!
//! - Times are written twice: `start_us`/`end_us`, integer microseconds, which are authoritative,
//!   and `start`/`end`, the same instants as exact decimal seconds for people reading the file.
//!   A reader given only seconds uses them; given both, it uses the microseconds and warns
//!   (`note`) when the seconds say something else (a hand edit).
//! - `speakers` lists every speaker of the recording, those without tracks included (an empty
//!   TextGrid tier), in the model's order (by label; the model keeps no other order, so the
//!   order of a hand-written list is not kept). A track may name a speaker the list lacks; the
//!   speaker is added with a warning.
//! - A track has content when it has a `text` or a `words` key: `"words": []` alone marks content
//!   that is present but empty, so `None` and empty content stay distinct.
//! - `extent` is the declared span of the recording, when known.
//! - The reader refuses a `schema_version` whose major number it does not know, and a `format`
//!   other than `"overtalk"`, with an error saying so. [`schema`] gives the JSON Schema.
//!
//! Writing then reading gives back exactly the same [`Corpus`] (a property test checks it).
//!
//! # Plumbing shared by the JSON readers
//!
//! Every JSON reader goes through one scan before `serde_json` sees the text. The scan is one
//! iterative, string-aware pass that
//!
//! - enforces [`Limits::max_depth`](crate::format::Limits::max_depth), so ten thousand nested
//!   brackets give a limit error naming line and column instead of a stack overflow (`serde_json`
//!   itself stops at depth 128 with a parse error);
//! - optionally replaces the bare `NaN`, `Infinity` and `-Infinity` tokens that Python's
//!   `json.dump` writes (they are not JSON) with `null`, outside strings only;
//! - records the line and column of the objects in the arrays a reader cares about (for example
//!   `segments/words`), so warnings about the k-th word can say where it is.
//!
//! `serde_json` errors become [`Error::parse`](crate::Error::parse) with the line and the column
//! in characters of the original text.

use std::borrow::Cow;
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::Write;
use std::rc::Rc;

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::{Error, Result, Warning, WarningKind};
use crate::format::{Format, ReadContext};
use crate::model::{Content, Corpus, Mark, MarkKind, Segment, TranscriptBuilder, Word};
use crate::time::{Time, MAX_MICROS};

/// The speaker label readers give to speech whose source names no speaker (an undiarized
/// Deepgram response, a WhisperX segment outside every diarization turn). Each use is reported
/// as a [`WarningKind::MissingSpeaker`] warning. It is the same `"unknown"` the caption and
/// table readers use, so one placeholder never counts as two speakers.
pub use super::webvtt::UNKNOWN_SPEAKER;

use crate::format::{FormatSpec, Head, Sniff, Verdict};

/// What the format registry knows of overtalk JSON (see [`FormatSpec`]); its content test
/// ([`sniff`]) also tells WhisperX, Deepgram and AssemblyAI JSON apart.
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Json,
    name: "json",
    aliases: &["overtalk", "overtalk-json"],
    extension: "overtalk.json",
    detected_by: &[],
    read: Ok(read),
    write: Some(write),
    json: true,
    many_recordings: true,
    paragraphs: false,
    sniff: &[Sniff::Start { rank: 60, test: sniff_start }],
};

/// A text that starts like JSON is one of the JSON formats ([`sniff`]) or no known format.
fn sniff_start(head: &Head<'_>) -> Verdict {
    if !(head.trimmed.starts_with('{') || head.trimmed.starts_with('[')) {
        return Verdict::Pass;
    }
    // By the keys of the top-level object, in any order, looking past the 64 KiB head (a long
    // first value can hide the telling key).
    sniff(head.text).map_or(Verdict::Unknown, Verdict::Is)
}

/// The `schema_version` this build writes and the only major version it reads.
pub const SCHEMA_VERSION: u64 = 1;

// ---------------------------------------------------------------------------------------------
// Shared plumbing
// ---------------------------------------------------------------------------------------------

/// A line and a column (1-based, the column in characters).
pub(crate) type Pos = (usize, usize);

/// JSON text after [`scan`]: possibly rewritten (`NaN` → `null`), with the positions it recorded.
#[derive(Debug)]
pub(crate) struct Scanned<'a> {
    text: Cow<'a, str>,
    /// How many bare `NaN`/`Infinity` tokens were replaced, and where the first was.
    pub(crate) nan_count: usize,
    pub(crate) first_nan: Option<Pos>,
    /// For each line holding replacements, the rewritten column just after each `null` that
    /// replaced a `NaN` (one character longer than the original).
    shifts: Vec<(usize, usize)>,
    /// Per tracked path, the position of each object element, in document order.
    positions: Vec<Vec<(u32, u32)>>,
}

impl Scanned<'_> {
    /// The position of the `k`-th object of tracked path number `path`.
    pub(crate) fn pos(&self, path: usize, k: usize) -> Option<Pos> {
        self.positions.get(path)?.get(k).map(|&(l, c)| (l as usize, c as usize))
    }

    /// Deserialises the scanned text, mapping `serde_json` errors to parse errors at the line
    /// and column of the original text.
    pub(crate) fn parse<T: DeserializeOwned>(&self, ctx: &ReadContext<'_>) -> Result<T> {
        serde_json::from_str(&self.text).map_err(|e| self.error(&e, ctx))
    }

    fn error(&self, e: &serde_json::Error, ctx: &ReadContext<'_>) -> Error {
        let line = e.line().max(1);
        let text_line = self.text.split('\n').nth(line - 1).unwrap_or("");
        let mut byte_col = e.column().min(text_line.len());
        while !text_line.is_char_boundary(byte_col) {
            byte_col -= 1;
        }
        let col = text_line[..byte_col].chars().count().max(1);
        let shift = self.shifts.iter().filter(|&&(l, c)| l == line && c <= col).count();
        let col = col.saturating_sub(shift).max(1);
        let full = e.to_string();
        let message = match full.rfind(" at line ") {
            Some(i) => &full[..i],
            None => full.as_str(),
        };
        let message = if e.is_eof() {
            format!("{message} (the input ends early: truncated?)")
        } else {
            message.to_owned()
        };
        ctx.error(line, col, message)
    }
}

enum FrameKind {
    Object { expecting_key: bool, key: (usize, usize) },
    Array { awaiting: bool, tracked: Option<usize> },
}

struct Frame {
    /// The key path of this container (keys of enclosing objects joined by `/`; arrays add
    /// nothing), or `None` when no tracked path lies below it.
    path: Option<Rc<str>>,
    kind: FrameKind,
}

/// Keys longer than this are not followed (no tracked path has one).
const MAX_TRACKED_KEY: usize = 64;

/// One iterative pass over `text`: depth limit, optional `NaN` rewriting, positions of the object
/// elements of the `tracked` array paths (see the module documentation).
///
/// Syntax errors are left to `serde_json`, which reports them with their position; the scan only
/// fails on nesting deeper than the limit.
pub(crate) fn scan<'a>(
    text: &'a str,
    tracked: &[&str],
    allow_nan: bool,
    ctx: &ReadContext<'_>,
) -> Result<Scanned<'a>> {
    let max_depth = ctx.limits().max_depth;
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    let mut copied = 0usize;
    let mut scanned = Scanned {
        text: Cow::Borrowed(""),
        nan_count: 0,
        first_nan: None,
        shifts: Vec::new(),
        positions: vec![Vec::new(); tracked.len()],
    };
    let prefixes: BTreeSet<&str> = tracked
        .iter()
        .flat_map(|p| p.char_indices().filter(|&(_, c)| c == '/').map(|(i, _)| &p[..i]).chain([*p]))
        .collect();
    let root: Rc<str> = Rc::from("");
    let mut stack: Vec<Frame> = Vec::new();
    let mut line = 1usize;
    let mut col = 0usize; // characters before the current byte on this line
    let mut line_shift = 0usize; // NaN replacements so far on this line
    let mut in_string = false;
    let mut escape = false;
    let mut key_start: Option<usize> = None;
    let mut i = 0usize;
    while i < bytes.len() {
        let b = bytes[i];
        let here = (line, col + 1);
        if b == b'\n' {
            line += 1;
            col = 0;
            line_shift = 0;
        } else if b & 0xC0 != 0x80 {
            col += 1;
        }
        if in_string {
            if escape {
                escape = false;
            } else if b == b'\\' {
                escape = true;
            } else if b == b'"' {
                in_string = false;
                if let Some(start) = key_start.take() {
                    if let Some(Frame { kind: FrameKind::Object { key, .. }, .. }) =
                        stack.last_mut()
                    {
                        *key = (start, i);
                    }
                }
            } else {
                // Fast path: skip to the next byte that matters inside a string, counting the
                // characters passed over.
                let rest = &bytes[i + 1..];
                let skip = rest
                    .iter()
                    .position(|&c| matches!(c, b'"' | b'\\' | b'\n'))
                    .unwrap_or(rest.len());
                col += rest[..skip].iter().filter(|&&c| c & 0xC0 != 0x80).count();
                i += 1 + skip;
                continue;
            }
            i += 1;
            continue;
        }
        match b {
            b' ' | b'\t' | b'\r' | b'\n' | b':' => {}
            b'"' => {
                in_string = true;
                match stack.last_mut() {
                    Some(Frame {
                        kind: FrameKind::Object { expecting_key: expecting_key @ true, .. },
                        ..
                    }) => {
                        *expecting_key = false;
                        key_start = Some(i + 1);
                    }
                    _ => value_start(&mut stack, &mut scanned.positions, here, false),
                }
            }
            b'{' | b'[' => {
                value_start(&mut stack, &mut scanned.positions, here, b == b'{');
                if stack.len() >= max_depth {
                    return Err(Error::limit(format!(
                        "JSON nesting deeper than {max_depth} at line {}, column {}",
                        here.0, here.1
                    )));
                }
                let path = child_path(stack.last(), text, &root, &prefixes);
                let kind = if b == b'{' {
                    FrameKind::Object { expecting_key: true, key: (0, 0) }
                } else {
                    let tracked_index =
                        path.as_deref().and_then(|p| tracked.iter().position(|t| *t == p));
                    FrameKind::Array { awaiting: true, tracked: tracked_index }
                };
                stack.push(Frame { path, kind });
            }
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame { kind: FrameKind::Object { expecting_key, .. }, .. }) => {
                    *expecting_key = true;
                }
                Some(Frame { kind: FrameKind::Array { awaiting, .. }, .. }) => *awaiting = true,
                None => {}
            },
            _ => {
                value_start(&mut stack, &mut scanned.positions, here, false);
                if allow_nan && matches!(b, b'N' | b'I' | b'-') {
                    let boundary_before = i == 0 || !is_word_byte(bytes[i - 1]);
                    let token = ["NaN", "-NaN", "Infinity", "-Infinity"]
                        .into_iter()
                        .find(|t| text[i..].starts_with(t));
                    if let Some(token) = token {
                        let end = i + token.len();
                        let boundary_after = end >= bytes.len() || !is_word_byte(bytes[end]);
                        if boundary_before && boundary_after {
                            let buf = out.get_or_insert_with(|| String::with_capacity(text.len()));
                            buf.push_str(&text[copied..i]);
                            buf.push_str("null");
                            for _ in 4..token.len() {
                                buf.push(' ');
                            }
                            copied = end;
                            if token.len() == 3 {
                                line_shift += 1;
                                scanned.shifts.push((line, here.1 + 3 + line_shift));
                            }
                            scanned.nan_count += 1;
                            scanned.first_nan.get_or_insert(here);
                            col += token.len() - 1;
                            i = end;
                            continue;
                        }
                    }
                }
            }
        }
        i += 1;
    }
    scanned.text = match out {
        Some(mut buf) => {
            buf.push_str(&text[copied..]);
            Cow::Owned(buf)
        }
        None => Cow::Borrowed(text),
    };
    Ok(scanned)
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'.'
}

/// Marks the start of a value: the first value of an array element records its position when
/// the array is tracked and the element is an object.
fn value_start(stack: &mut [Frame], positions: &mut [Vec<(u32, u32)>], here: Pos, is_object: bool) {
    if let Some(Frame { kind: FrameKind::Array { awaiting, tracked }, .. }) = stack.last_mut() {
        if *awaiting {
            *awaiting = false;
            if let (Some(t), true) = (*tracked, is_object) {
                let clamp = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
                positions[t].push((clamp(here.0), clamp(here.1)));
            }
        }
    }
}

fn child_path(
    parent: Option<&Frame>,
    text: &str,
    root: &Rc<str>,
    prefixes: &BTreeSet<&str>,
) -> Option<Rc<str>> {
    let Some(parent) = parent else {
        return Some(root.clone());
    };
    let path = parent.path.as_ref()?;
    match parent.kind {
        FrameKind::Array { .. } => Some(path.clone()),
        FrameKind::Object { key: (s, e), .. } => {
            if e - s > MAX_TRACKED_KEY {
                return None;
            }
            let key = text.get(s..e)?;
            let child = if path.is_empty() { key.to_owned() } else { format!("{path}/{key}") };
            prefixes.contains(child.as_str()).then(|| Rc::from(child))
        }
    }
}

/// Records a warning at `pos` when known.
pub(crate) fn warn(
    ctx: &mut ReadContext<'_>,
    kind: WarningKind,
    pos: Option<Pos>,
    message: impl Into<String>,
) -> Result<()> {
    match pos {
        Some((line, col)) => ctx.warn_at(kind, line, Some(col), message),
        None => ctx.warn(Warning::new(kind, message)),
    }
}

/// The placeholder speaker for monologue `k`, which names none; the first such monologue of a
/// file is warned about (`warned` remembers it), the later ones are not.
pub(crate) fn placeholder_for_monologue(
    ctx: &mut ReadContext<'_>,
    warned: &mut bool,
    pos: Option<Pos>,
    k: usize,
) -> Result<String> {
    if !std::mem::replace(warned, true) {
        warn(
            ctx,
            WarningKind::MissingSpeaker,
            pos,
            format!("monologue {k} has no speaker; it and every later one like it go to the placeholder speaker {UNKNOWN_SPEAKER:?}"),
        )?;
    }
    Ok(UNKNOWN_SPEAKER.to_owned())
}

/// Words without a speaker in a speech-to-text result, counted while reading, warned about
/// once: either no word has one (the service's diarization `setting` was off, so all speech
/// goes to the placeholder speaker) or only some lack one.
#[derive(Default)]
pub(crate) struct Unlabelled {
    pub(crate) missing: usize,
    pub(crate) first: Option<Pos>,
}

impl Unlabelled {
    /// Counts a word at `pos` without a speaker.
    pub(crate) fn add(&mut self, pos: Option<Pos>) {
        self.missing += 1;
        self.first = self.first.or(pos);
    }

    /// The one [`WarningKind::MissingSpeaker`] warning, when a word of the `total` had no
    /// speaker; `all` says the result has no speakers at all (`missing == total` unless the
    /// service marks diarization otherwise).
    pub(crate) fn warn(
        &self,
        ctx: &mut ReadContext<'_>,
        all: bool,
        total: usize,
        setting: &str,
    ) -> Result<()> {
        if self.missing == 0 {
            return Ok(());
        }
        let message = if all {
            format!("no word has a speaker ({setting} was off); all speech is given to the placeholder speaker {UNKNOWN_SPEAKER:?}")
        } else {
            format!("{} of {total} words have no speaker; given to the placeholder speaker {UNKNOWN_SPEAKER:?}", self.missing)
        };
        warn(ctx, WarningKind::MissingSpeaker, self.first, message)
    }
}

/// A parse error at `pos` (or without a position).
pub(crate) fn error_at(
    ctx: &ReadContext<'_>,
    pos: Option<Pos>,
    message: impl Into<String>,
) -> Error {
    let (line, col) = pos.unwrap_or((0, 0));
    ctx.error(line, col, message)
}

/// Seconds held in a JSON number as a [`Time`]; beyond ±[`MAX_MICROS`] is an error at `pos`.
pub(crate) fn seconds(
    ctx: &ReadContext<'_>,
    secs: f64,
    what: &str,
    pos: Option<Pos>,
) -> Result<Time> {
    Time::from_secs_f64(secs)
        .ok_or_else(|| error_at(ctx, pos, format!("{what} {secs} s is out of range")))
}

/// Milliseconds held in a JSON number as a [`Time`], exact for integers.
pub(crate) fn millis(ctx: &ReadContext<'_>, ms: f64, what: &str, pos: Option<Pos>) -> Result<Time> {
    Time::from_secs_f64(ms / 1000.0)
        .ok_or_else(|| error_at(ctx, pos, format!("{what} {ms} ms is out of range")))
}

/// Seconds held in a JSON value as a [`Time`]: a number (its shortest decimal form, which is
/// the number as written, read exactly; an exponent form goes through the float), or a string
/// of decimal seconds (`"11.370"`, as CHiME and Amazon Transcribe write them) or a clock
/// (`"0:00:40.60"`). `None` for anything else or out of range.
pub(crate) fn seconds_value(v: &Value) -> Option<Time> {
    match v {
        Value::Number(n) => crate::time::parse_seconds(&n.to_string())
            .ok()
            .or_else(|| n.as_f64().and_then(Time::from_secs_f64)),
        Value::String(s) => {
            let s = s.trim();
            crate::time::parse_seconds(s).ok().or_else(|| crate::time::parse_clock(s).ok())
        }
        _ => None,
    }
}

/// Whether the top-level value of a JSON text is a list (a byte-order mark and white space
/// before it skipped).
pub(crate) fn is_list(text: &str) -> bool {
    text.trim_start_matches('\u{feff}').trim_start().starts_with('[')
}

/// The values of a text that holds several JSON values one after another (JSON lines: a
/// real-time session saved message by message), each with the line it starts on. `None` when
/// the text holds one value, or when its first or second does not parse (a single document,
/// trailing text perhaps: its own reader reports the error); an error naming the line,
/// column and number of a later value that does not parse.
pub(crate) fn value_lines<T: DeserializeOwned>(
    text: &str,
    what: &str,
    ctx: &ReadContext<'_>,
) -> Result<Option<Vec<(T, usize)>>> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<T>();
    let mut values = Vec::new();
    let mut at = 0;
    while let Some(next) = stream.next() {
        let start = at + text[at..].len() - text[at..].trim_start().len();
        let line = 1 + text[..start].matches('\n').count();
        match next {
            Ok(v) => values.push((v, line)),
            Err(_) if values.len() < 2 => return Ok(None),
            Err(e) => {
                let message = e.to_string();
                let message = message.rfind(" at line ").map_or(&message[..], |i| &message[..i]);
                return Err(ctx.error(
                    e.line().max(line),
                    e.column().max(1),
                    format!("{what} {}: {message}", values.len() + 1),
                ));
            }
        }
        at = stream.byte_offset();
    }
    Ok((values.len() > 1).then_some(values))
}

/// Reports the bare `NaN`/`Infinity` tokens a scan replaced, once per input.
pub(crate) fn report_nan(ctx: &mut ReadContext<'_>, scanned: &Scanned<'_>) -> Result<()> {
    if scanned.nan_count > 0 {
        warn(
            ctx,
            WarningKind::Repaired,
            scanned.first_nan,
            format!(
                "{} bare NaN/Infinity value(s) (Python's json.dump writes them; they are not JSON); read as missing",
                scanned.nan_count
            ),
        )?;
    }
    Ok(())
}

/// A speaker label from a JSON value: strings as they are, integers in decimal.
pub(crate) fn label(value: &Option<Value>) -> Option<String> {
    match value {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    }
}

/// A word of a vendor transcript on its way into a track: always timed.
#[derive(Clone, Debug)]
pub(crate) struct LabelledWord {
    pub(crate) speaker: String,
    pub(crate) word: Word,
    pub(crate) start: Time,
    pub(crate) end: Time,
}

/// The longest pause inside one track built from words (Deepgram's default `utt_split`, 0.8 s):
/// a longer silence between two words of one speaker starts a new track.
pub(crate) const MAX_WORD_GAP: Time = Time::from_micros(800_000);

/// Words dropped for want of a start or an end: how many, and where the first one was.
#[derive(Debug, Default)]
pub(crate) struct Untimed {
    count: usize,
    first: Option<Pos>,
}

impl Untimed {
    /// Counts one dropped word at `pos`.
    pub(crate) fn add(&mut self, pos: Option<Pos>) {
        self.count += 1;
        self.first = self.first.or(pos);
    }

    /// One `missing-time` warning for them all, at the first; `prefix` goes before the count
    /// (`"channel 0: "`).
    pub(crate) fn warn(&self, ctx: &mut ReadContext<'_>, prefix: &str) -> Result<()> {
        if self.count == 0 {
            return Ok(());
        }
        warn(
            ctx,
            WarningKind::MissingTime,
            self.first,
            format!("{prefix}{} word(s) without start or end dropped", self.count),
        )
    }
}

/// Adds the tracks [`word_runs`] makes of `words` to `b`, each with its words and their text
/// joined by spaces.
pub(crate) fn add_word_runs(
    ctx: &mut ReadContext<'_>,
    words: Vec<LabelledWord>,
    b: &mut TranscriptBuilder,
) -> Result<()> {
    for (speaker, start, end, words) in word_runs(words) {
        let text = words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ");
        if let Some(s) = ctx.segment(start, end, 0, None)? {
            b.add(s, &speaker, Some(Content { text: Some(text), words }));
        }
    }
    Ok(())
}

/// Groups words in order into tracks: a new track starts when the speaker changes or when the
/// pause since the previous word's end exceeds [`MAX_WORD_GAP`].
///
/// ```text
/// words   [A][A] [A]      [A][B][B]
/// tracks  [A───────)      [A)[B──)
///                   ↑ gap > 0.8 s   ↑ speaker change
/// ```
pub(crate) fn word_runs(words: Vec<LabelledWord>) -> Vec<(String, Time, Time, Vec<Word>)> {
    let mut runs: Vec<(String, Time, Time, Vec<Word>)> = Vec::new();
    for w in words {
        match runs.last_mut() {
            Some(run)
                if run.0 == w.speaker
                    && w.start.micros().saturating_sub(run.2.micros()) <= MAX_WORD_GAP.micros() =>
            {
                run.2 = run.2.max(w.end);
                run.3.push(w.word);
            }
            _ => runs.push((w.speaker, w.start, w.end, vec![w.word])),
        }
    }
    runs
}

// ---------------------------------------------------------------------------------------------
// overtalk JSON
// ---------------------------------------------------------------------------------------------

#[derive(Deserialize)]
struct Header {
    #[serde(default)]
    format: Option<Value>,
    #[serde(default)]
    schema_version: Option<Value>,
}

#[derive(Deserialize)]
struct Doc {
    #[serde(default)]
    recordings: Vec<RecordingJ>,
}

#[derive(Deserialize)]
struct RecordingJ {
    id: String,
    #[serde(default)]
    extent: Option<SpanJ>,
    #[serde(default)]
    speakers: Vec<String>,
    #[serde(default)]
    tracks: Vec<TrackJ>,
    #[serde(default)]
    marks: Vec<MarkJ>,
    #[serde(default)]
    untimed: Vec<UntimedJ>,
}

/// An utterance without time (CHAT without bullets), in source order.
#[derive(Deserialize)]
struct UntimedJ {
    speaker: String,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    words: Vec<String>,
    #[serde(default)]
    line: usize,
}

#[derive(Deserialize)]
struct MarkJ {
    kind: MarkKind,
    #[serde(default)]
    text: String,
    #[serde(default)]
    speaker: Option<String>,
    #[serde(default)]
    at_us: Option<i64>,
    #[serde(default)]
    at: Option<f64>,
    #[serde(default)]
    paragraph_start_us: Option<i64>,
    #[serde(default)]
    paragraph_start: Option<f64>,
}

#[derive(Deserialize)]
struct SpanJ {
    #[serde(default)]
    start_us: Option<i64>,
    #[serde(default)]
    end_us: Option<i64>,
    #[serde(default)]
    start: Option<f64>,
    #[serde(default)]
    end: Option<f64>,
}

#[derive(Deserialize)]
struct TrackJ {
    speaker: String,
    #[serde(default)]
    start_us: Option<i64>,
    #[serde(default)]
    end_us: Option<i64>,
    #[serde(default)]
    start: Option<f64>,
    #[serde(default)]
    end: Option<f64>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    words: Option<Vec<WordJ>>,
    #[serde(default)]
    end_estimated: bool,
}

#[derive(Deserialize)]
struct WordJ {
    text: String,
    #[serde(default)]
    start_us: Option<i64>,
    #[serde(default)]
    end_us: Option<i64>,
    #[serde(default)]
    start: Option<f64>,
    #[serde(default)]
    end: Option<f64>,
    #[serde(default)]
    confidence: Option<f64>,
}

const TRACKED: [&str; 3] = ["recordings", "recordings/tracks", "recordings/tracks/words"];
const P_RECORDING: usize = 0;
const P_TRACK: usize = 1;
const P_WORD: usize = 2;

/// The major version of a `schema_version` value (`1`, `1.2`, `"1"`, `"1.2.0"`).
fn major_version(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64().or_else(|| {
            n.as_f64().filter(|f| f.is_finite() && *f >= 0.0 && *f < 1e9).map(|f| f as u64)
        }),
        Value::String(s) => s.split('.').next()?.trim().parse().ok(),
        _ => None,
    }
}

/// One instant of a span: the microseconds when given, else the seconds.
fn instant(
    ctx: &mut ReadContext<'_>,
    us: Option<i64>,
    secs: Option<f64>,
    what: &str,
    pos: Option<Pos>,
) -> Result<Option<Time>> {
    let from_secs = match secs {
        Some(s) => Some(seconds(ctx, s, what, pos)?),
        None => None,
    };
    match us {
        Some(us) => {
            if us.unsigned_abs() > MAX_MICROS as u64 {
                return Err(error_at(ctx, pos, format!("{what}_us {us} is out of range")));
            }
            if let Some(s) = from_secs.filter(|s| s.micros() != us) {
                warn(
                    ctx,
                    WarningKind::Note,
                    pos,
                    format!("{what} {s} disagrees with {what}_us {us}; the microseconds are used"),
                )?;
            }
            Ok(Some(Time::from_micros(us)))
        }
        None => Ok(from_secs),
    }
}

/// Reads overtalk JSON.
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let header: Header = scanned.parse(ctx)?;
    match header.format.as_ref() {
        Some(Value::String(s)) if s == "overtalk" => {}
        Some(other) => {
            return Err(Error::unsupported(format!(
                "\"format\" is {other}, not \"overtalk\": not an overtalk JSON file"
            )))
        }
        None => {
            return Err(Error::unsupported(
                "no \"format\": \"overtalk\" key: not an overtalk JSON file",
            ))
        }
    }
    let version = header.schema_version.as_ref().ok_or_else(|| {
        Error::unsupported("no \"schema_version\": cannot tell which overtalk JSON this is")
    })?;
    match major_version(version) {
        Some(SCHEMA_VERSION) => {}
        Some(v) => {
            return Err(Error::unsupported(format!(
                "overtalk JSON schema_version {version} (major {v}) is not known to this overtalk, which reads major version {SCHEMA_VERSION}; use a matching overtalk release"
            )))
        }
        None => {
            return Err(Error::unsupported(format!(
                "schema_version {version} is not a version number"
            )))
        }
    }
    let doc: Doc = scanned.parse(ctx)?;
    let mut corpus = Corpus::new();
    let (mut n_track, mut n_word) = (0usize, 0usize);
    for (r, rec) in doc.recordings.into_iter().enumerate() {
        let rpos = scanned.pos(P_RECORDING, r);
        let mut b = TranscriptBuilder::new();
        for s in &rec.speakers {
            b.speaker(s);
        }
        if let Some(x) = &rec.extent {
            let start = instant(ctx, x.start_us, x.start, "extent start", rpos)?;
            let end = instant(ctx, x.end_us, x.end, "extent end", rpos)?;
            match (start, end) {
                (Some(s), Some(e)) => {
                    let seg = Segment::new(s, e);
                    if seg.is_none() {
                        warn(
                            ctx,
                            WarningKind::Skipped,
                            rpos,
                            format!("{}: empty extent [{s}, {e}) ignored", rec.id),
                        )?;
                    }
                    b.extent(seg);
                }
                _ => warn(
                    ctx,
                    WarningKind::MissingTime,
                    rpos,
                    format!("{}: extent without start or end ignored", rec.id),
                )?,
            }
        }
        for track in rec.tracks {
            let tpos = scanned.pos(P_TRACK, n_track);
            n_track += 1;
            if !rec.speakers.is_empty() && !rec.speakers.contains(&track.speaker) {
                warn(
                    ctx,
                    WarningKind::Note,
                    tpos,
                    format!(
                        "{}: speaker {:?} is not in \"speakers\"; added",
                        rec.id, track.speaker
                    ),
                )?;
            }
            let start = instant(ctx, track.start_us, track.start, "start", tpos)?;
            let end = instant(ctx, track.end_us, track.end, "end", tpos)?;
            let mut words = Vec::new();
            let has_words = track.words.is_some();
            for w in track.words.unwrap_or_default() {
                let wpos = scanned.pos(P_WORD, n_word);
                n_word += 1;
                let start = instant(ctx, w.start_us, w.start, "word start", wpos)?;
                let end = instant(ctx, w.end_us, w.end, "word end", wpos)?;
                words.push(Word { text: w.text, start, end, confidence: w.confidence });
            }
            let content =
                (track.text.is_some() || has_words).then_some(Content { text: track.text, words });
            let (Some(start), Some(end)) = (start, end) else {
                warn(
                    ctx,
                    WarningKind::MissingTime,
                    tpos,
                    format!(
                        "{}: track of {:?} without start or end dropped",
                        rec.id, track.speaker
                    ),
                )?;
                continue;
            };
            let line = tpos.map_or(0, |p| p.0);
            if let Some(seg) = ctx.segment(start, end, line, tpos.map(|p| p.1))? {
                b.add(seg, &track.speaker, content);
                if track.end_estimated {
                    b.end_estimated();
                }
            }
        }
        for m in rec.marks {
            let at = instant(ctx, m.at_us, m.at, "mark time", rpos)?;
            let paragraph_start = instant(
                ctx,
                m.paragraph_start_us,
                m.paragraph_start,
                "mark paragraph start",
                rpos,
            )?;
            b.mark(Mark { kind: m.kind, at, speaker: m.speaker, paragraph_start, text: m.text });
        }
        for u in rec.untimed {
            let speaker = b.speaker(&u.speaker);
            let words = u.words.into_iter().map(Word::untimed).collect();
            b.push_untimed(speaker, Content { text: u.text, words }, u.line);
        }
        if corpus.get(&rec.id).is_some() {
            warn(
                ctx,
                WarningKind::Skipped,
                rpos,
                format!("recording {:?} appears twice; the later one is kept", rec.id),
            )?;
        }
        corpus.insert(rec.id, b.build());
    }
    Ok(corpus)
}

/// Appends `"start_us": …, "end_us": …, "start": …, "end": …` for the instants that are known.
fn write_span(buf: &mut String, start: Option<Time>, end: Option<Time>) {
    if let Some(s) = start {
        let _ = write!(buf, ", \"start_us\": {}", s.micros());
    }
    if let Some(e) = end {
        let _ = write!(buf, ", \"end_us\": {}", e.micros());
    }
    if let Some(s) = start {
        let _ = write!(buf, ", \"start\": {s}");
    }
    if let Some(e) = end {
        let _ = write!(buf, ", \"end\": {e}");
    }
}

/// A JSON string literal.
pub(crate) fn quote(s: &str) -> String {
    // Serialising a `str` cannot fail.
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned())
}

/// A confidence as a JSON number, or `None` (with a warning) when it is not finite.
pub(crate) fn confidence_json(c: f64, warnings: &mut Vec<Warning>) -> Option<String> {
    if c.is_finite() {
        serde_json::to_string(&c).ok()
    } else {
        warnings.push(Warning::new(
            WarningKind::Repaired,
            format!("confidence {c} is not a JSON number; left out"),
        ));
        None
    }
}

/// Writes overtalk JSON: every recording, speaker, track, text, word and extent, exactly.
pub fn write(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    let mut warnings = Vec::new();
    let mut buf = String::new();
    let _ = write!(
        buf,
        "{{\n  \"format\": \"overtalk\",\n  \"schema_version\": {SCHEMA_VERSION},\n  \"recordings\": ["
    );
    for (r, (id, t)) in corpus.iter().enumerate() {
        let _ =
            write!(buf, "{}\n    {{\n      \"id\": {}", if r > 0 { "," } else { "" }, quote(id));
        if let Some(x) = t.declared_extent() {
            buf.push_str(",\n      \"extent\": {");
            let mut span = String::new();
            write_span(&mut span, Some(x.start()), Some(x.end()));
            buf.push_str(span.trim_start_matches(", "));
            buf.push('}');
        }
        let a = t.annotation();
        let names: Vec<String> = a.speakers().iter().map(|(_, n)| quote(n)).collect();
        let _ = write!(buf, ",\n      \"speakers\": [{}]", names.join(", "));
        buf.push_str(",\n      \"tracks\": [");
        for (k, u) in t.utterances().enumerate() {
            let _ = write!(
                buf,
                "{}\n        {{\"speaker\": {}",
                if k > 0 { "," } else { "" },
                names[u.speaker.index()]
            );
            write_span(&mut buf, Some(u.segment.start()), Some(u.segment.end()));
            if t.end_estimated(k) {
                buf.push_str(", \"end_estimated\": true");
            }
            if let Some(c) = u.content {
                if let Some(text) = &c.text {
                    let _ = write!(buf, ", \"text\": {}", quote(text));
                }
                if !c.words.is_empty() || c.text.is_none() {
                    buf.push_str(", \"words\": [");
                    for (j, w) in c.words.iter().enumerate() {
                        let _ = write!(
                            buf,
                            "{}\n          {{\"text\": {}",
                            if j > 0 { "," } else { "" },
                            quote(&w.text)
                        );
                        write_span(&mut buf, w.start, w.end);
                        if let Some(c) =
                            w.confidence.and_then(|c| confidence_json(c, &mut warnings))
                        {
                            let _ = write!(buf, ", \"confidence\": {c}");
                        }
                        buf.push('}');
                    }
                    if !c.words.is_empty() {
                        buf.push_str("\n        ");
                    }
                    buf.push(']');
                }
            }
            buf.push('}');
            if buf.len() > 1 << 16 {
                out.write_all(buf.as_bytes())?;
                buf.clear();
            }
        }
        if !a.is_empty() {
            buf.push_str("\n      ");
        }
        buf.push(']');
        if !t.marks().is_empty() {
            buf.push_str(",\n      \"marks\": [");
            for (j, m) in t.marks().iter().enumerate() {
                let kind = serde_json::to_string(&m.kind).unwrap_or_else(|_| "\"other\"".into());
                let _ = write!(
                    buf,
                    "{}\n        {{\"kind\": {kind}, \"text\": {}",
                    if j > 0 { "," } else { "" },
                    quote(&m.text)
                );
                if let Some(s) = &m.speaker {
                    let _ = write!(buf, ", \"speaker\": {}", quote(s));
                }
                if let Some(at) = m.at {
                    let _ = write!(buf, ", \"at_us\": {}, \"at\": {at}", at.micros());
                }
                if let Some(p) = m.paragraph_start {
                    let _ = write!(
                        buf,
                        ", \"paragraph_start_us\": {}, \"paragraph_start\": {p}",
                        p.micros()
                    );
                }
                buf.push('}');
            }
            buf.push_str("\n      ]");
        }
        if !t.untimed().is_empty() {
            buf.push_str(",\n      \"untimed\": [");
            for (j, u) in t.untimed().iter().enumerate() {
                let _ = write!(
                    buf,
                    "{}\n        {{\"speaker\": {}",
                    if j > 0 { "," } else { "" },
                    names[u.speaker.index()]
                );
                if let Some(text) = &u.content.text {
                    let _ = write!(buf, ", \"text\": {}", quote(text));
                }
                let words: Vec<String> = u.content.words.iter().map(|w| quote(&w.text)).collect();
                let _ = write!(buf, ", \"words\": [{}], \"line\": {}}}", words.join(", "), u.line);
            }
            buf.push_str("\n      ]");
        }
        buf.push_str("\n    }");
    }
    if !corpus.is_empty() {
        buf.push_str("\n  ");
    }
    buf.push_str("]\n}\n");
    out.write_all(buf.as_bytes())?;
    Ok(warnings)
}

/// The JSON Schema (draft 2020-12) of overtalk JSON, `schema_version` 1.
///
/// It states what [`write()`] produces; [`read()`] is more lenient (seconds without microseconds,
/// unknown keys, speakers missing from `speakers`).
pub fn schema() -> Value {
    let span_props = json!({
        "start_us": {"type": "integer", "description": "Start in integer microseconds (authoritative)."},
        "end_us": {"type": "integer", "description": "End in integer microseconds (authoritative)."},
        "start": {"type": "number", "description": "start_us in seconds, for reading."},
        "end": {"type": "number", "description": "end_us in seconds, for reading."}
    });
    let mut word_props = span_props.clone();
    word_props["text"] = json!({"type": "string"});
    word_props["confidence"] = json!({"type": "number", "minimum": 0, "maximum": 1});
    let mut track_props = span_props.clone();
    track_props["speaker"] = json!({"type": "string"});
    track_props["text"] = json!({"type": "string"});
    track_props["words"] = json!({"type": "array", "items": {"$ref": "#/$defs/word"}});
    track_props["end_estimated"] = json!({"const": true, "description": "The end was estimated, not read from the source (paragraph transcripts give only starts); absent when read."});
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://github.com/overtalk/overtalk/schema/overtalk-v1.json",
        "title": "overtalk transcript",
        "description": "Recordings with speakers, timed tracks, text and words; times in integer microseconds (start_us/end_us) repeated as seconds (start/end).",
        "type": "object",
        "required": ["format", "schema_version", "recordings"],
        "properties": {
            "format": {"const": "overtalk"},
            "schema_version": {"const": SCHEMA_VERSION},
            "recordings": {"type": "array", "items": {"$ref": "#/$defs/recording"}}
        },
        "$defs": {
            "recording": {
                "type": "object",
                "required": ["id", "speakers", "tracks"],
                "properties": {
                    "id": {"type": "string"},
                    "extent": {
                        "type": "object",
                        "description": "The declared span of the recording.",
                        "required": ["start_us", "end_us"],
                        "properties": span_props
                    },
                    "speakers": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
                    "tracks": {"type": "array", "items": {"$ref": "#/$defs/track"}},
                    "marks": {"type": "array", "items": {"$ref": "#/$defs/mark"}, "description": "The transcriber's bracketed notes ([crosstalk 00:13:22], [inaudible]), in file order."},
                    "untimed": {"type": "array", "description": "Utterances without time (CHAT without bullets), in source order.", "items": {
                        "type": "object",
                        "required": ["speaker", "words", "line"],
                        "properties": {
                            "speaker": {"type": "string"},
                            "text": {"type": "string", "description": "What was said, markers included."},
                            "words": {"type": "array", "items": {"type": "string"}},
                            "line": {"type": "integer", "minimum": 0, "description": "1-based line of the source where it starts (0 when unknown)."}
                        }
                    }}
                }
            },
            "track": {
                "type": "object",
                "description": "One speaker active over [start, end). Content is present when text or words is.",
                "required": ["speaker", "start_us", "end_us"],
                "properties": track_props
            },
            "word": {
                "type": "object",
                "required": ["text"],
                "properties": word_props
            },
            "mark": {
                "type": "object",
                "required": ["kind", "text"],
                "properties": {
                    "kind": {"enum": ["crosstalk", "inaudible", "laughter", "other"]},
                    "text": {"type": "string", "description": "The note as written, without brackets."},
                    "speaker": {"type": "string", "description": "Speaker of the paragraph holding the note."},
                    "at_us": {"type": "integer", "description": "The time written in the note (microseconds)."},
                    "at": {"type": "number", "description": "at_us in seconds."},
                    "paragraph_start_us": {"type": "integer", "description": "Start of the paragraph holding the note (microseconds)."},
                    "paragraph_start": {"type": "number", "description": "paragraph_start_us in seconds."}
                }
            }
        }
    })
}

/// How much of a JSON text sniffing looks at: enough to pass a long first value (a WhisperX
/// file can start with a transcript-long `"text"`).
const SNIFF_BYTES: usize = 8 << 20;

/// Whether a JSON text looks like overtalk JSON, SegLST, pyannote's JSON, WhisperX, or a
/// speech-to-text vendor's output (Deepgram, AssemblyAI, Amazon Transcribe, Rev.ai,
/// Speechmatics, Google, Azure, ElevenLabs, Gladia), judged from the keys of the top-level object (and of
/// `results`, `metadata` and `output` below it; of the elements of a top-level list), in any
/// order, within the first 8 MiB. The text may be cut anywhere.
pub(crate) fn sniff(text: &str) -> Option<Format> {
    let mut end = text.len().min(SNIFF_BYTES);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let keys = top_keys(&text[..end]);
    let has = |k: &str| keys.iter().any(|seen| seen.parent.is_empty() && seen.key == k);
    let value_of = |k: &str| {
        keys.iter()
            .find(|seen| seen.parent.is_empty() && seen.key == k)
            .and_then(|seen| seen.text.clone())
    };
    let opens_list = |k: &str| {
        keys.iter().any(|seen| seen.parent.is_empty() && seen.key == k && seen.opens_list)
    };
    // YouTube's json3 captions: the `wireMagic` of the player's format, or `events` whose
    // entries start at `tStartMs` (checked first: no other JSON format has either).
    if value_of("wireMagic").as_deref() == Some("pb3")
        || opens_list("events") && text[..end].contains("\"tStartMs\"")
    {
        return Some(Format::Json3);
    }
    if value_of("format").as_deref() == Some("overtalk")
        || (has("schema_version") && has("recordings"))
    {
        return Some(Format::Json);
    }
    // Speechmatics json-v2: a `results` list beside the `job` and a version in `format`
    // (checked before Deepgram, whose responses also have `results` and `metadata`).
    if has("results")
        && has("job")
        && value_of("format").is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit()))
    {
        return Some(Format::Speechmatics);
    }
    // Speechmatics real-time: one `AddTranscript` message, or a session saved as its messages
    // (JSON lines), whose first (`RecognitionStarted`) names no transcript.
    if has("message")
        && text[..end].contains("\"AddTranscript\"")
        && text[..end].contains("\"results\"")
    {
        return Some(Format::Speechmatics);
    }
    // Podcasting 2.0 transcripts: `segments` of `startTime`, `endTime` and `body` (checked
    // before the `segments` of Whisper-style JSON).
    if has("segments") && text[..end].contains("\"startTime\"") {
        return Some(Format::Podcast);
    }
    // Gecko's monologues hold `terms` (and the file a `schemaVersion`); Rev.ai's `elements`.
    if has("monologues") {
        let head = &text[..end];
        let terms = head.find("\"terms\"");
        let elements = head.find("\"elements\"");
        let gecko = has("schemaVersion") || terms.is_some_and(|t| elements.is_none_or(|e| t < e));
        return Some(if gecko { Format::Gecko } else { Format::RevAi });
    }
    // Gladia v2: a job with its `request_params` (or `kind`) beside the `result`, or the
    // result saved alone: a `transcription` object beside `metadata` with Gladia's durations.
    let in_metadata = |k: &str| keys.iter().any(|seen| seen.parent == "metadata" && seen.key == k);
    if has("result")
        && (has("request_params") || value_of("kind").as_deref() == Some("pre-recorded"))
        || has("transcription")
            && ["audio_duration", "number_of_distinct_channels", "billing_time"]
                .iter()
                .any(|k| in_metadata(k))
    {
        return Some(Format::Gladia);
    }
    // ElevenLabs Scribe: `words` tokens beside the language's probability or the id, or a
    // multichannel response's `transcripts` with their `channel_index`.
    let head = &text[..end];
    let scribe_tokens = head.contains("\"speaker_id\"")
        && ["\"spacing\"", "\"audio_event\"", "\"logprob\"", "\"characters\""]
            .iter()
            .any(|k| head.contains(k));
    if has("words") && (has("language_probability") || has("transcription_id") || scribe_tokens)
        || has("transcripts") && !has("results") && head.contains("\"channel_index\"")
    {
        return Some(Format::ElevenLabs);
    }
    // whisper.cpp: a `transcription` list (beside its `result`, `params` and `model`).
    if has("transcription") {
        return Some(Format::WhisperCpp);
    }
    let in_results = |k: &str| keys.iter().any(|seen| seen.parent == "results" && seen.key == k);
    // Deepgram's `results` is an object; Google v2's list of results also sits beside a
    // `metadata` (its billed duration), and is told apart below.
    if has("results")
        && (has("metadata") && !opens_list("results")
            || in_results("channels")
            || in_results("utterances"))
        || has("metadata") && in_metadata("request_id")
    {
        return Some(Format::Deepgram);
    }
    // A list whose segments carry a `session_id`: SegLST (meeteval, CHiME). The keys of a
    // top-level list's objects are its depth-two keys, under the root path.
    let list = is_list(text);
    if list && has("session_id") && (has("start_time") || has("words")) {
        return Some(Format::SegLst);
    }
    // A bare list of timed turns, as scripts dump a diarization or a transcript
    // (`[{"start": 1.8, "end": 4.5, "speaker": "SPEAKER_00"}, …]`): with text, the segments
    // of a Whisper-style transcript; without, the turns of a diarization.
    if list
        && has("start")
        && (has("end") || has("stop") || has("duration") && (has("text") || has("word")))
    {
        // Speechmatics' `asr_metrics` diarization reference: `speaker_name`, `word`, `start`,
        // `duration` per word.
        if has("text") || has("words") || has("word") && has("speaker_name") {
            return Some(Format::WhisperX);
        }
        if has("speaker") {
            return Some(Format::PyannoteJson);
        }
    }
    // Google Speech-to-Text results saved as a bare list (a client's `response.results`).
    if list
        && has("alternatives")
        && ["resultEndTime", "resultEndOffset", "channelTag", "languageCode"].iter().any(|k| has(k))
    {
        return Some(Format::GoogleStt);
    }
    // Amazon Transcribe: `results` with its `items` or speaker/channel labels, and the job's
    // `jobName`/`accountId` (or the `transcripts` list only Transcribe writes).
    if has("results")
        && (has("jobName") || has("accountId") || in_results("transcripts"))
        && ["items", "speaker_labels", "channel_labels", "transcripts"]
            .iter()
            .any(|k| in_results(k))
    {
        return Some(Format::AwsTranscribe);
    }
    // Amazon Transcribe Call Analytics (and Contact Lens): a `Transcript` list of participants'
    // turns beside the job's `JobStatus` or the call's characteristics.
    if opens_list("Transcript")
        && (has("JobStatus") || has("ConversationCharacteristics") || has("Participants"))
    {
        return Some(Format::AwsTranscribe);
    }
    // pyannote.audio's `serialize()` and pyannoteAI's job output.
    let output_has = |k: &str| keys.iter().any(|seen| seen.parent == "output" && seen.key == k);
    if has("diarization")
        || has("exclusive_diarization")
        || output_has("diarization")
        || output_has("exclusiveDiarization")
    {
        return Some(Format::PyannoteJson);
    }
    // OpenAI's `verbose_json` names its `task`; asked for word times alone it has `words` and
    // no `segments`.
    let whisper_task = value_of("task").is_some_and(|t| t == "transcribe" || t == "translate");
    if has("segments") || has("word_segments") || has("words") && whisper_task {
        return Some(Format::WhisperX);
    }
    if has("recognizedPhrases")
        || has("combinedRecognizedPhrases")
        || has("RecognitionStatus") && has("Offset")
        || has("phrases") && (has("combinedPhrases") || has("durationMilliseconds"))
    {
        return Some(Format::Azure);
    }
    // Google Speech-to-Text: a `results` list (its elements' keys lie below what is tracked
    // here) whose alternatives carry protobuf durations, with the REST API's camelCase names or
    // the field names the Python client's `to_dict` keeps (`result_end_time`, `speaker_tag`);
    // or a long-running operation (`operations.get`) holding the response.
    let google_keys = [
        "\"resultEndTime\"",
        "\"resultEndOffset\"",
        "\"startTime\"",
        "\"startOffset\"",
        "\"result_end_time\"",
        "\"result_end_offset\"",
        "\"start_offset\"",
        "\"speaker_tag\"",
    ];
    let response_has = |k: &str| keys.iter().any(|seen| seen.parent == "response" && seen.key == k);
    if (has("results") || has("done") && response_has("results"))
        && head.contains("\"alternatives\"")
        && google_keys.iter().any(|k| head.contains(k))
        || has("done") && has("error") && head.contains("google.cloud.speech.")
    {
        return Some(Format::GoogleStt);
    }
    let assembly_keys =
        ["audio_url", "speaker_labels", "audio_duration", "status", "acoustic_model"];
    if has("utterances") || (has("words") && assembly_keys.iter().any(|k| has(k))) {
        return Some(Format::AssemblyAi);
    }
    None
}

/// A key met by [`top_keys`], with what sniffing needs to know of its value.
struct KeySeen {
    /// The path of the object holding the key (`""` at the top, `"results"` below it).
    parent: String,
    key: String,
    /// The value, when it is a short string.
    text: Option<String>,
    /// Whether the value is a list (`"results": [` is Google's, `"results": {` Deepgram's).
    opens_list: bool,
}

/// The keys at depth one and two of a JSON text, tolerating a cut-off end.
fn top_keys(head: &str) -> Vec<KeySeen> {
    let bytes = head.as_bytes();
    let mut found = Vec::new();
    // Per open container: is it an object, is a key expected, its key path.
    let mut stack: Vec<(bool, bool, String)> = Vec::new();
    let mut last_key: Option<String> = None;
    let mut awaiting_value_of: Option<usize> = None;
    let mut i = 0;
    while i < bytes.len() && found.len() < 10_000 {
        let b = bytes[i];
        match b {
            b'"' => {
                let start = i + 1;
                let mut j = start;
                let mut escape = false;
                while j < bytes.len() {
                    match bytes[j] {
                        _ if escape => escape = false,
                        b'\\' => escape = true,
                        b'"' => break,
                        _ => {}
                    }
                    j += 1;
                }
                let s = head.get(start..j.min(bytes.len())).unwrap_or("");
                let depth = stack.len();
                match stack.last_mut() {
                    Some((true, expecting @ true, path)) => {
                        *expecting = false;
                        if depth <= 2 && s.len() <= MAX_TRACKED_KEY {
                            let parent = path.clone();
                            found.push(KeySeen {
                                parent,
                                key: s.to_owned(),
                                text: None,
                                opens_list: false,
                            });
                            awaiting_value_of = Some(found.len() - 1);
                        }
                        last_key = Some(s.to_owned());
                    }
                    _ => {
                        if let Some(k) = awaiting_value_of.take() {
                            if s.len() <= MAX_TRACKED_KEY {
                                found[k].text = Some(s.to_owned());
                            }
                        }
                    }
                }
                i = j + 1;
                continue;
            }
            b'{' | b'[' => {
                if let Some(k) = awaiting_value_of.take() {
                    found[k].opens_list = b == b'[';
                }
                if stack.len() >= 1024 {
                    // Hostile nesting: the keys that matter are not down there.
                    break;
                }
                let path = match (stack.last(), &last_key) {
                    (None, _) => String::new(),
                    (Some((true, _, p)), Some(k)) if p.is_empty() => k.clone(),
                    (Some((true, _, p)), Some(k)) => format!("{p}/{k}"),
                    (Some((_, _, p)), _) => p.clone(),
                };
                if stack.len() > 2 {
                    // Deeper levels do not matter; keep counting without paths.
                    stack.push((b == b'{', b == b'{', String::from("\u{0}")));
                } else {
                    stack.push((b == b'{', b == b'{', path));
                }
                last_key = None;
            }
            b'}' | b']' => {
                stack.pop();
                if stack.is_empty() {
                    // The top-level value is complete.
                    break;
                }
            }
            b',' => {
                awaiting_value_of = None;
                if let Some((true, expecting, _)) = stack.last_mut() {
                    *expecting = true;
                }
            }
            b' ' | b'\t' | b'\r' | b'\n' | b':' => {}
            _ => awaiting_value_of = None,
        }
        i += 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, ReadOptions};
    use crate::ErrorKind;

    fn ctx_read(text: &str) -> Result<crate::format::ReadOutput> {
        read_str(text, Format::Json, &ReadOptions::default())
    }

    #[test]
    fn scan_rewrites_nan_outside_strings_only() {
        let opts = ReadOptions::default();
        let ctx = ReadContext::new(Format::WhisperX, &opts);
        let s = scan(
            r#"{"a": NaN, "b": "NaN", "c": [-Infinity, Infinity], "NaNx": 1}"#,
            &[],
            true,
            &ctx,
        )
        .unwrap();
        assert_eq!(&*s.text, r#"{"a": null, "b": "NaN", "c": [null     , null    ], "NaNx": 1}"#);
        assert_eq!(s.nan_count, 3);
        assert_eq!(s.first_nan, Some((1, 7)));
        let s = scan(r#"{"a": "x\"NaN", "b": NaNa}"#, &[], true, &ctx).unwrap();
        assert_eq!(s.nan_count, 0);
    }

    #[test]
    fn scan_errors_keep_original_columns() {
        let opts = ReadOptions::default();
        let ctx = ReadContext::new(Format::WhisperX, &opts);
        // The error is at the `x` (column 21 of the original); two NaNs before it on the line.
        let s = scan("{\"a\": [NaN, NaN, 1, x]}", &[], true, &ctx).unwrap();
        let e = s.parse::<Value>(&ctx).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(21)), "{e}");
    }

    #[test]
    fn parse_error_columns_count_characters() {
        let opts = ReadOptions::default();
        let ctx = ReadContext::new(Format::Json, &opts);
        let s = scan("{\"é\": \"ça\",\n \"b\": \"\u{1F600}\", x}", &[], false, &ctx).unwrap();
        let e = s.parse::<Value>(&ctx).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(12)), "{e}");
    }

    #[test]
    fn sniffing_looks_past_a_long_first_value() {
        let text = format!("{{\"text\": \"{}\", \"segments\": []}}", "a }".repeat(100_000));
        assert_eq!(sniff(&text), Some(Format::WhisperX));
        assert_eq!(crate::format::sniff(&text), Some(Format::WhisperX));
        assert_eq!(sniff("{\"a\": 1} {\"segments\": []}"), None);
    }

    #[test]
    fn scan_records_positions_of_tracked_objects() {
        let opts = ReadOptions::default();
        let ctx = ReadContext::new(Format::WhisperX, &opts);
        let text = "{\"segments\": [\n  {\"words\": [{}, {\"x\": {\"words\": [{}]}}]},\n  {\"words\": [{}]}\n]}";
        let s = scan(text, &["segments", "segments/words"], false, &ctx).unwrap();
        assert_eq!(s.positions[0], vec![(2, 3), (3, 3)]);
        assert_eq!(s.positions[1], vec![(2, 14), (2, 18), (3, 14)]);
    }

    #[test]
    fn deep_nesting_is_a_limit_error_not_a_crash() {
        let text = "[".repeat(10_000);
        let e = ctx_read(&text).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Limit(_)), "{e}");
        assert!(e.to_string().contains("line 1, column 257"), "{e}");
    }

    #[test]
    fn reads_the_documented_example() {
        let text = r#"{"format": "overtalk", "schema_version": 1, "recordings": [
            {"id": "EN2002a", "extent": {"start_us": 0, "end_us": 10000000},
             "speakers": ["alice", "bob", "carol"],
             "tracks": [
               {"speaker": "alice", "start_us": 0, "end_us": 4210000, "text": "So the plan is",
                "words": [{"text": "So", "start_us": 0, "end_us": 180000, "confidence": 0.91}]},
               {"speaker": "bob", "start": 3.95, "end": 6.25}
             ]}]}"#;
        let out = ctx_read(text).unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let t = out.corpus.get("EN2002a").unwrap();
        assert_eq!(t.annotation().speakers().len(), 3);
        assert_eq!(t.declared_extent(), Segment::from_micros(0, 10_000_000));
        let u: Vec<_> = t.utterances().collect();
        assert_eq!(u[0].segment, Segment::from_micros(0, 4_210_000).unwrap());
        assert_eq!(u[0].content.unwrap().words[0].confidence, Some(0.91));
        assert_eq!(u[1].segment, Segment::from_micros(3_950_000, 6_250_000).unwrap());
        assert_eq!(u[1].speaker_name, "bob");
        assert!(u[1].content.is_none());
    }

    #[test]
    fn refuses_other_versions_and_formats() {
        let e = ctx_read(r#"{"format": "overtalk", "schema_version": 2, "recordings": 5}"#)
            .unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Unsupported(_)), "{e}");
        assert!(e.to_string().contains("schema_version 2"), "{e}");
        assert!(ctx_read(r#"{"format": "overtalk", "schema_version": "1.3", "recordings": []}"#)
            .is_ok());
        let e = ctx_read(r#"{"format": "other", "schema_version": 1}"#).unwrap_err();
        assert!(e.to_string().contains("not an overtalk JSON file"), "{e}");
        let e = ctx_read(r#"{"format": "overtalk", "recordings": []}"#).unwrap_err();
        assert!(e.to_string().contains("schema_version"), "{e}");
    }

    #[test]
    fn disagreeing_seconds_and_bad_tracks_are_warnings_with_positions() {
        let text = "{\"format\": \"overtalk\", \"schema_version\": 1, \"recordings\": [{\"id\": \"r\", \"speakers\": [\"a\"], \"tracks\": [\n{\"speaker\": \"a\", \"start_us\": 0, \"end_us\": 1000000, \"start\": 0.5, \"end\": 1.0},\n  {\"speaker\": \"b\", \"start_us\": 5, \"end_us\": 5}]}]}";
        let out = ctx_read(text).unwrap();
        let got: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            got,
            vec![
                (WarningKind::Note, Some(2), Some(1)),
                (WarningKind::Note, Some(3), Some(3)),
                (WarningKind::ZeroDuration, Some(3), Some(3)),
            ]
        );
        let t = out.corpus.get("r").unwrap();
        assert_eq!(t.annotation().len(), 1);
        // `b`, neither declared nor with a track kept, is no speaker.
        let names: Vec<&str> = t.annotation().speakers().iter().map(|(_, n)| n).collect();
        assert_eq!(names, ["a"]);
    }

    #[test]
    fn writes_a_readable_layout() {
        let mut b = TranscriptBuilder::new();
        b.speaker("z");
        b.add(
            Segment::from_micros(0, 1_500_000).unwrap(),
            "a",
            Some(Content {
                text: Some("hi \"you\"".into()),
                words: vec![Word {
                    text: "hi".into(),
                    start: Some(Time::from_micros(0)),
                    end: Some(Time::from_micros(500_001)),
                    confidence: Some(0.5),
                }],
            }),
        );
        b.add(Segment::from_micros(2_000_000, 3_000_000).unwrap(), "a", Some(Content::default()));
        let corpus = Corpus::single("r 1", b.build());
        let mut out = Vec::new();
        assert!(write(&corpus, &mut out).unwrap().is_empty());
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            r#"{
  "format": "overtalk",
  "schema_version": 1,
  "recordings": [
    {
      "id": "r 1",
      "speakers": ["a", "z"],
      "tracks": [
        {"speaker": "a", "start_us": 0, "end_us": 1500000, "start": 0.000, "end": 1.500, "text": "hi \"you\"", "words": [
          {"text": "hi", "start_us": 0, "end_us": 500001, "start": 0.000, "end": 0.500001, "confidence": 0.5}
        ]},
        {"speaker": "a", "start_us": 2000000, "end_us": 3000000, "start": 2.000, "end": 3.000, "words": []}
      ]
    }
  ]
}
"#
        );
        assert_eq!(ctx_read(&text).unwrap().corpus, corpus);
    }

    #[test]
    fn sniffs_json_flavours_by_keys() {
        assert_eq!(sniff(r#"{"schema_version": 1, "format": "overtalk""#), Some(Format::Json));
        assert_eq!(
            sniff(r#"{"metadata": {"request_id": "x"}, "results": {"#),
            Some(Format::Deepgram)
        );
        assert_eq!(sniff(r#"{"results": {"channels": [{"#), Some(Format::Deepgram));
        assert_eq!(
            sniff(r#"{"segments": [{"start": NaN, "text": "\"utterances\""#),
            Some(Format::WhisperX)
        );
        assert_eq!(
            sniff(r#"{"id": "x", "status": "completed", "words": [{"text": "a"#),
            Some(Format::AssemblyAi)
        );
        assert_eq!(sniff(r#"{"utterances": []}"#), Some(Format::AssemblyAi));
        // Keys inside nested values do not count.
        assert_eq!(sniff(r#"{"data": {"segments": []}}"#), None);
        assert_eq!(sniff(r#"[1, 2]"#), None);
    }

    /// Checks `value` against the subset of JSON Schema that [`schema`] uses (`type`, `const`,
    /// `required`, `properties`, `items`, `$ref`, `minimum`/`maximum`, `uniqueItems`), and that
    /// no object carries a key its schema does not name.
    fn conforms(
        value: &Value,
        schema: &Value,
        root: &Value,
        path: &str,
    ) -> std::result::Result<(), String> {
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            let name = r.trim_start_matches("#/$defs/");
            return conforms(value, &root["$defs"][name], root, path);
        }
        if let Some(c) = schema.get("const") {
            if c != value {
                return Err(format!("{path}: {value} is not {c}"));
            }
        }
        let ty = schema.get("type").and_then(Value::as_str);
        let ok = match ty {
            Some("object") => value.is_object(),
            Some("array") => value.is_array(),
            Some("string") => value.is_string(),
            Some("integer") => value.is_i64() || value.is_u64(),
            Some("number") => value.is_number(),
            _ => true,
        };
        if !ok {
            return Err(format!("{path}: {value} is not of type {ty:?}"));
        }
        if let Some(n) = value.as_f64() {
            let below = schema.get("minimum").and_then(Value::as_f64).is_some_and(|m| n < m);
            let above = schema.get("maximum").and_then(Value::as_f64).is_some_and(|m| n > m);
            if below || above {
                return Err(format!("{path}: {n} out of bounds"));
            }
        }
        if let Some(obj) = value.as_object() {
            for r in schema.get("required").and_then(Value::as_array).into_iter().flatten() {
                if !obj.contains_key(r.as_str().unwrap_or("")) {
                    return Err(format!("{path}: missing {r}"));
                }
            }
            for (k, v) in obj {
                let sub = schema["properties"]
                    .get(k)
                    .ok_or_else(|| format!("{path}: key {k:?} not in the schema"))?;
                conforms(v, sub, root, &format!("{path}/{k}"))?;
            }
        }
        if let Some(items) = value.as_array() {
            if schema.get("uniqueItems") == Some(&Value::Bool(true)) {
                let set: BTreeSet<String> = items.iter().map(Value::to_string).collect();
                if set.len() != items.len() {
                    return Err(format!("{path}: repeated items"));
                }
            }
            for (i, item) in items.iter().enumerate() {
                conforms(item, &schema["items"], root, &format!("{path}/{i}"))?;
            }
        }
        Ok(())
    }

    #[test]
    fn written_files_conform_to_the_schema() {
        let mut b = TranscriptBuilder::new();
        b.speaker("silent");
        b.extent(Segment::from_micros(0, 9_000_000));
        b.add(
            Segment::from_micros(0, 1_500_000).unwrap(),
            "a",
            Some(Content {
                text: Some("hi you".into()),
                words: vec![
                    Word {
                        confidence: Some(0.25),
                        ..Word::timed("hi", Time::from_micros(0), Time::from_micros(400_000))
                    },
                    Word { start: Some(Time::from_micros(500_000)), ..Word::untimed("you") },
                ],
            }),
        );
        b.add(Segment::from_micros(1_000_000, 3_000_000).unwrap(), "b", None);
        b.add(Segment::from_micros(4_000_000, 5_000_000).unwrap(), "b", Some(Content::default()));
        let mut corpus = Corpus::single("r1", b.build());
        corpus.insert("r2", crate::model::Transcript::default());
        let mut out = Vec::new();
        write(&corpus, &mut out).unwrap();
        let value: Value = serde_json::from_slice(&out).unwrap();
        let s = schema();
        assert_eq!(conforms(&value, &s, &s, ""), Ok(()));
        // The check itself rejects what the schema does not allow.
        let mut bad = value.clone();
        bad["recordings"][0]["tracks"][0]["colour"] = json!("red");
        assert!(conforms(&bad, &s, &s, "").unwrap_err().contains("colour"));
        let mut bad = value;
        bad["recordings"][0]["tracks"][0]["start_us"] = json!(0.5);
        assert!(conforms(&bad, &s, &s, "").is_err());
    }

    #[test]
    fn the_schema_names_every_written_key() {
        let s = schema();
        assert_eq!(s["properties"]["schema_version"]["const"], json!(1));
        let track = &s["$defs"]["track"]["properties"];
        for key in ["speaker", "start_us", "end_us", "start", "end", "text", "words"] {
            assert!(track.get(key).is_some(), "{key}");
        }
        assert!(s["$defs"]["word"]["properties"].get("confidence").is_some());
    }

    #[test]
    fn untimed_utterances_round_trip() {
        // Found by fuzzing the round trip: CHAT without bullets lost its utterances in JSON.
        let chat = "@UTF8\n@Begin\n@Participants:\tPAR Participant, INV Investigator\n*PAR:\tso I was telling [>] him .\n*INV:\t+< yeah [<] .\n@End\n";
        let first = crate::format::read_str(chat, Format::Chat, &Default::default()).unwrap();
        let t = first.corpus.iter().next().unwrap().1;
        assert_eq!(t.untimed().len(), 2);
        let mut json = Vec::new();
        write(&first.corpus, &mut json).unwrap();
        let text = String::from_utf8(json).unwrap();
        assert!(text.contains("\"untimed\": ["), "{text}");
        let again = crate::format::read_str(&text, Format::Json, &Default::default()).unwrap();
        assert_eq!(again.corpus, first.corpus);
    }

    #[test]
    fn estimated_ends_and_marks_round_trip() {
        let mut b = TranscriptBuilder::new();
        b.add(Segment::from_micros(0, 2_000_000).unwrap(), "a", Some(Content::text("hi")));
        b.end_estimated();
        b.add(Segment::from_micros(2_000_000, 3_000_000).unwrap(), "b", Some(Content::text("yo")));
        b.mark(Mark {
            kind: MarkKind::Crosstalk,
            at: Some(Time::from_micros(2_500_000)),
            speaker: Some("b".into()),
            paragraph_start: Some(Time::from_micros(2_000_000)),
            text: "crosstalk 00:00:02".into(),
        });
        b.mark(Mark {
            kind: MarkKind::Laughter,
            at: None,
            speaker: None,
            paragraph_start: None,
            text: "laughter".into(),
        });
        let corpus = Corpus::single("r", b.build());
        let mut buf = Vec::new();
        write(&corpus, &mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert!(text.contains("\"end_estimated\": true"), "{text}");
        assert_eq!(text.matches("end_estimated").count(), 1);
        assert!(text.contains("{\"kind\": \"crosstalk\", \"text\": \"crosstalk 00:00:02\", \"speaker\": \"b\", \"at_us\": 2500000, \"at\": 2.500, \"paragraph_start_us\": 2000000, \"paragraph_start\": 2.000}"), "{text}");
        let back = ctx_read(&text).unwrap();
        assert_eq!(back.corpus, corpus);
        let t = back.corpus.get("r").unwrap();
        assert!(t.end_estimated(0) && !t.end_estimated(1));
        assert_eq!(t.marks().len(), 2);
        conforms(&serde_json::from_str(&text).unwrap(), &schema(), &schema(), "$").unwrap();
    }
}
