//! Readers and writers: every transcript and diarization format, into and out of the model.
//!
//! Each format has one module with `read(text, &mut ReadContext) -> Result<Corpus>` and, where
//! the format can hold what the model holds, `write(corpus, out) -> Result<Vec<Warning>>`.
//! This module owns what they share:
//!
//! - **decoding**: bytes to text once, honouring UTF-8 and UTF-16 byte-order marks; invalid text
//!   is an error naming line and column;
//! - **detection** ([`detect`]): the extension first, then content sniffing; `--from` overrides;
//! - **containers**: a `.docx` (or a zip named by `--from rev|otter|paragraphs`) is unzipped to
//!   its text first ([`docx`]), then read as a paragraph transcript ([`paragraphs`]);
//! - **leniency** ([`ReadContext::warn`]): readers report every repair and every note as a
//!   [`Warning`]; with `strict` the first repair of malformed input becomes an error, while notes
//!   about well-formed input stay warnings ([`crate::Severity`]);
//! - **limits** ([`Limits`]): input size, line length and nesting depth, so hostile input fails
//!   fast with a limit error instead of exhausting memory;
//! - **checks every reader gets**: self-overlapping tracks are reported after reading.

use std::fmt;
use std::io::Write;
use std::path::Path;
use std::str::FromStr;

use crate::error::{Error, Result, Severity, Warning, WarningKind};
use crate::model::{Corpus, Segment, Transcript};
use crate::time::{parse_seconds, Time, TimeError};

pub mod assemblyai;
pub mod chat;
pub mod csv;
pub mod ctm;
pub mod deepgram;
pub mod docx;
pub mod eaf;
pub mod json;
pub mod lab;
pub(crate) mod order;
pub mod paragraphs;
pub mod rttm;
pub mod srt;
pub mod stm;
pub mod textgrid;
pub mod tiers;
pub mod uem;
pub mod webvtt;
pub mod whisperx;

/// Every format overtalk knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Format {
    /// NIST RTTM (`SPEAKER` lines).
    Rttm,
    /// NIST UEM scoring regions (read with [`uem::read`]; not a transcript).
    Uem,
    /// Audacity / HTK label files (`start end label`).
    Lab,
    /// WebVTT captions (voice spans, `Name:` prefixes).
    WebVtt,
    /// SubRip captions.
    Srt,
    /// Praat TextGrid, long or short form.
    TextGrid,
    /// ELAN annotation format.
    Eaf,
    /// TalkBank CHAT.
    Chat,
    /// WhisperX JSON output.
    WhisperX,
    /// Deepgram pre-recorded API JSON.
    Deepgram,
    /// AssemblyAI transcript JSON.
    AssemblyAi,
    /// Comma-separated values with a header.
    Csv,
    /// Tab-separated values with a header.
    Tsv,
    /// NIST STM segment transcripts.
    Stm,
    /// NIST CTM word transcripts.
    Ctm,
    /// overtalk's own lossless JSON.
    Json,
    /// Rev transcripts: `Name (01:09:00):` paragraphs, `[crosstalk 00:13:22]` notes.
    Rev,
    /// Otter.ai transcripts: `Speaker 1  0:04`, then the text.
    Otter,
    /// Other paragraph transcripts with start times only (Trint, Descript, Zoom, YouTube).
    Paragraphs,
}

impl Format {
    /// Every format, in a stable order.
    pub const ALL: [Format; 19] = [
        Format::Rttm,
        Format::Uem,
        Format::Lab,
        Format::WebVtt,
        Format::Srt,
        Format::TextGrid,
        Format::Eaf,
        Format::Chat,
        Format::WhisperX,
        Format::Deepgram,
        Format::AssemblyAi,
        Format::Csv,
        Format::Tsv,
        Format::Stm,
        Format::Ctm,
        Format::Json,
        Format::Rev,
        Format::Otter,
        Format::Paragraphs,
    ];

    /// The name used on the command line (`--from`, `--to`) and in messages.
    pub fn name(self) -> &'static str {
        match self {
            Format::Rttm => "rttm",
            Format::Uem => "uem",
            Format::Lab => "lab",
            Format::WebVtt => "webvtt",
            Format::Srt => "srt",
            Format::TextGrid => "textgrid",
            Format::Eaf => "eaf",
            Format::Chat => "chat",
            Format::WhisperX => "whisperx",
            Format::Deepgram => "deepgram",
            Format::AssemblyAi => "assemblyai",
            Format::Csv => "csv",
            Format::Tsv => "tsv",
            Format::Stm => "stm",
            Format::Ctm => "ctm",
            Format::Json => "json",
            Format::Rev => "rev",
            Format::Otter => "otter",
            Format::Paragraphs => "paragraphs",
        }
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            Format::WebVtt => "vtt",
            Format::TextGrid => "TextGrid",
            Format::Chat => "cha",
            Format::WhisperX | Format::Deepgram | Format::AssemblyAi => "json",
            Format::Json => "overtalk.json",
            Format::Rev | Format::Otter | Format::Paragraphs => "txt",
            other => other.name(),
        }
    }

    /// Whether overtalk can write this format.
    pub fn is_writable(self) -> bool {
        writer(self).is_some()
    }

    /// Whether this is a paragraph transcript with start times only ([`paragraphs`]).
    pub fn is_paragraphs(self) -> bool {
        matches!(self, Format::Rev | Format::Otter | Format::Paragraphs)
    }

    /// Whether the format is JSON (always UTF-8, never a legacy encoding).
    pub fn is_json(self) -> bool {
        matches!(self, Format::Json | Format::WhisperX | Format::Deepgram | Format::AssemblyAi)
    }

    /// Whether one file of this format can hold several recordings.
    pub fn holds_many_recordings(self) -> bool {
        matches!(
            self,
            Format::Rttm
                | Format::Uem
                | Format::Stm
                | Format::Ctm
                | Format::Json
                | Format::Csv
                | Format::Tsv
        )
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Format {
    type Err = Error;
    fn from_str(s: &str) -> Result<Format> {
        let lower = s.to_ascii_lowercase();
        let f = match lower.as_str() {
            "vtt" | "webvtt" => Format::WebVtt,
            "tg" | "textgrid" | "praat" => Format::TextGrid,
            "cha" | "chat" => Format::Chat,
            "elan" | "eaf" => Format::Eaf,
            "overtalk" | "overtalk-json" | "json" => Format::Json,
            "whisperx" | "whisper" => Format::WhisperX,
            "assembly" | "assemblyai" => Format::AssemblyAi,
            "audacity" | "htk" | "lab" => Format::Lab,
            "trint" | "descript" | "zoom" | "youtube" | "temi" | "sonix" => Format::Paragraphs,
            other => Format::ALL.into_iter().find(|f| f.name() == other).ok_or_else(|| {
                Error::unsupported(format!(
                    "unknown format {s:?}; known: {}",
                    Format::ALL.map(Format::name).join(", ")
                ))
            })?,
        };
        Ok(f)
    }
}

/// Caps that keep hostile input from exhausting memory or time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Largest input accepted, in bytes (default 1 GiB).
    pub max_bytes: usize,
    /// Longest line accepted in line-based formats, in bytes (default 1 MiB).
    pub max_line_bytes: usize,
    /// Deepest nesting accepted in XML and JSON (default 256).
    pub max_depth: usize,
    /// Most warnings kept per kind; further ones are counted in one summary (default 100).
    pub max_warnings_per_kind: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_bytes: 1 << 30,
            max_line_bytes: 1 << 20,
            max_depth: 256,
            max_warnings_per_kind: 100,
        }
    }
}

/// How to read.
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// Turn the first repair of malformed input into an error (notes stay warnings; see
    /// [`crate::Severity`]).
    pub strict: bool,
    /// Size, line and depth caps.
    pub limits: Limits,
    /// The recording id for formats that hold one recording and do not name it (usually the
    /// file name without its extension).
    pub recording_id: Option<String>,
    /// The text encoding of inputs without a byte-order mark (`--encoding`, a WHATWG label such
    /// as `windows-1252` or `gbk`); `None` reads UTF-8 and guesses legacy encodings
    /// ([`decode_text`]).
    pub encoding: Option<String>,
    /// Which tiers of TextGrid and EAF files are speakers (`--tiers`, `--ignore-tiers`).
    pub tiers: tiers::TierSelection,
}

/// What a reader is given besides the text: options, and where warnings go.
#[derive(Debug)]
pub struct ReadContext<'a> {
    format: Format,
    options: &'a ReadOptions,
    warnings: Vec<Warning>,
    dropped: std::collections::BTreeMap<WarningKind, usize>,
    zero_length: Vec<ZeroLengthSegment>,
}

impl<'a> ReadContext<'a> {
    /// A context for reading `format` with `options`.
    pub fn new(format: Format, options: &'a ReadOptions) -> ReadContext<'a> {
        ReadContext {
            format,
            options,
            warnings: Vec::new(),
            dropped: Default::default(),
            zero_length: Vec::new(),
        }
    }

    /// The options.
    pub fn options(&self) -> &ReadOptions {
        self.options
    }

    /// The limits.
    pub fn limits(&self) -> Limits {
        self.options.limits
    }

    /// The id for a format that holds one unnamed recording.
    pub fn recording_id(&self) -> String {
        self.options.recording_id.clone().unwrap_or_else(|| "recording".to_owned())
    }

    /// Records a warning; under `strict`, returns a repair of malformed input as an error instead
    /// (notes are recorded either way).
    pub fn warn(&mut self, warning: Warning) -> Result<()> {
        if self.options.strict && warning.severity() == Severity::Repair {
            return Err(warning.into_error(self.format.name()));
        }
        let kept = self.warnings.iter().filter(|w| w.kind == warning.kind).count();
        if kept < self.options.limits.max_warnings_per_kind {
            self.warnings.push(warning);
        } else {
            *self.dropped.entry(warning.kind).or_default() += 1;
        }
        Ok(())
    }

    /// Replaces the message of the first kept warning of `kind`, for a reader that learns
    /// more after warning (how many recordings of a file turned out unsorted, say); nothing
    /// when no such warning was kept.
    pub fn amend_first(&mut self, kind: WarningKind, message: impl Into<String>) {
        if let Some(w) = self.warnings.iter_mut().find(|w| w.kind == kind) {
            w.message = message.into();
        }
    }

    /// A warning at a line (and column).
    pub fn warn_at(
        &mut self,
        kind: WarningKind,
        line: usize,
        column: Option<usize>,
        message: impl Into<String>,
    ) -> Result<()> {
        self.warn(Warning::at(kind, line, column, message))
    }

    /// A parse error of this format at `line`:`column`.
    pub fn error(&self, line: usize, column: usize, message: impl Into<String>) -> Error {
        Error::parse(self.format.name(), line, column, message)
    }

    /// Records a segment of zero duration, which the model cannot hold but some scoring tools
    /// react to (see [`ReadOutput::zero_length`]); the reader still warns and drops it.
    pub fn zero_length(&mut self, segment: ZeroLengthSegment) {
        self.zero_length.push(segment);
    }

    /// The warnings so far, with one summary per kind whose excess was dropped.
    pub fn into_warnings(self) -> Vec<Warning> {
        let mut w = self.warnings;
        for (kind, n) in self.dropped {
            w.push(Warning::new(kind, format!("{n} more warnings of this kind not shown")));
        }
        w
    }

    /// Iterates `(line number, line)` over `text`, without line terminators (`\n`, `\r\n`, `\r`),
    /// failing with a limit error on a line longer than [`Limits::max_line_bytes`].
    pub fn lines<'t>(&self, text: &'t str) -> Lines<'t> {
        Lines { rest: text, line: 0, max: self.options.limits.max_line_bytes, format: self.format }
    }

    /// Parses decimal seconds at `line`:`column`; NaN and out-of-range values are errors that
    /// name the field.
    pub fn seconds(&self, field: &str, what: &str, line: usize, column: usize) -> Result<Time> {
        parse_seconds(field).map_err(|e| self.time_error(e, field, what, line, column))
    }

    /// The error for a time field that could not be read.
    pub fn time_error(
        &self,
        e: TimeError,
        field: &str,
        what: &str,
        line: usize,
        column: usize,
    ) -> Error {
        let shown: String = field.chars().take(40).collect();
        self.error(line, column, format!("{what} {shown:?}: {e}"))
    }

    /// A segment from `start` and `end`, or a warning (zero or negative duration) and `None`.
    pub fn segment(
        &mut self,
        start: Time,
        end: Time,
        line: usize,
        column: Option<usize>,
    ) -> Result<Option<Segment>> {
        if start.micros() < 0 {
            self.warn_at(
                WarningKind::Repaired,
                line,
                column,
                format!("negative start {start} clipped to 0"),
            )?;
        }
        let start = start.max(Time::ZERO);
        match Segment::new(start, end) {
            Some(s) => Ok(Some(s)),
            None if start == end => {
                self.warn_at(
                    WarningKind::ZeroDuration,
                    line,
                    column,
                    format!("zero-length segment at {start} dropped"),
                )?;
                Ok(None)
            }
            None => {
                self.warn_at(
                    WarningKind::NegativeDuration,
                    line,
                    column,
                    format!("segment ends ({end}) before it starts ({start}); dropped"),
                )?;
                Ok(None)
            }
        }
    }
}

/// Lines of a text with their 1-based numbers; see [`ReadContext::lines`].
#[derive(Debug)]
pub struct Lines<'t> {
    rest: &'t str,
    line: usize,
    max: usize,
    format: Format,
}

impl<'t> Iterator for Lines<'t> {
    type Item = Result<(usize, &'t str)>;
    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        self.line += 1;
        let (line, rest) = match memchr::memchr2(b'\n', b'\r', self.rest.as_bytes()) {
            Some(i) => {
                let skip = if self.rest[i..].starts_with("\r\n") { 2 } else { 1 };
                (&self.rest[..i], &self.rest[i + skip..])
            }
            None => (self.rest, ""),
        };
        self.rest = rest;
        if line.len() > self.max {
            self.rest = "";
            return Some(Err(Error::limit(format!(
                "{}: line {} is {} bytes long, more than the limit of {} bytes",
                self.format,
                self.line,
                line.len(),
                self.max
            ))));
        }
        Some(Ok((self.line, line)))
    }
}

/// What reading gives: the recordings and the warnings.
#[derive(Clone, Debug, Default)]
pub struct ReadOutput {
    /// The format that was read.
    pub format: Option<Format>,
    /// The recordings.
    pub corpus: Corpus,
    /// Everything repaired or questionable, in the order found.
    pub warnings: Vec<Warning>,
    /// Segments of zero duration, in the order found: dropped from the corpus (with a
    /// warning), carried here for the scoring presets that react to them (dscore refuses the
    /// file, spyder keeps the speaker on). RTTM records them.
    pub zero_length: Vec<ZeroLengthSegment>,
}

/// A segment of zero duration as the file gives it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZeroLengthSegment {
    /// The recording it belongs to.
    pub recording: String,
    /// The speaker label, as written.
    pub speaker: String,
    /// Its onset, as written (before any clipping of a negative onset).
    pub at: Time,
    /// 1-based line.
    pub line: usize,
}

type ReadFn = fn(&str, &mut ReadContext<'_>) -> Result<Corpus>;
type WriteFn = fn(&Corpus, &mut dyn Write) -> Result<Vec<Warning>>;

fn reader(format: Format) -> Option<ReadFn> {
    Some(match format {
        Format::Rttm => rttm::read,
        Format::WebVtt => webvtt::read,
        Format::Srt => srt::read,
        Format::Lab => lab::read,
        Format::Csv => csv::read_csv,
        Format::Tsv => csv::read_tsv,
        Format::Stm => stm::read,
        Format::Ctm => ctm::read,
        Format::TextGrid => textgrid::read,
        Format::Eaf => eaf::read,
        Format::Chat => chat::read,
        Format::Json => json::read,
        Format::WhisperX => whisperx::read,
        Format::Deepgram => deepgram::read,
        Format::AssemblyAi => assemblyai::read,
        Format::Rev | Format::Otter | Format::Paragraphs => paragraphs::read,
        _ => return None,
    })
}

fn writer(format: Format) -> Option<WriteFn> {
    Some(match format {
        Format::Rttm => rttm::write,
        Format::WebVtt => webvtt::write,
        Format::Srt => srt::write,
        Format::Lab => lab::write,
        Format::Csv => csv::write_csv,
        Format::Tsv => csv::write_tsv,
        Format::Stm => stm::write,
        Format::Ctm => ctm::write,
        Format::TextGrid => textgrid::write,
        Format::Eaf => eaf::write,
        Format::Chat => chat::write,
        Format::Json => json::write,
        Format::WhisperX => whisperx::write,
        _ => return None,
    })
}

/// Decodes input bytes that must be Unicode: UTF-8 (with or without BOM), or UTF-16 or UTF-32
/// with a byte-order mark. Invalid text is an error naming the line and column of the first bad
/// byte. [`decode_text`] also reads legacy encodings.
pub fn decode(bytes: &[u8], format_name: &'static str, limits: &Limits) -> Result<String> {
    check_decodable(bytes, limits)?;
    match unicode_by_bom(bytes, format_name)? {
        Some(text) => Ok(text),
        None => utf8(bytes, format_name),
    }
}

/// Decodes input bytes to text, choosing the encoding in this order:
///
/// 1. a byte-order mark (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE);
/// 2. `options.encoding` (`--encoding`), a WHATWG label such as `windows-1252`, `latin1`,
///    `gbk`, `shift_jis` or `utf-16le`;
/// 3. UTF-8, when the bytes are valid UTF-8;
/// 4. when `guess` is set, the legacy encoding `chardetng` finds most likely (Latin-1 and
///    Windows-1252 TextGrids, GB2312 subtitles and sclite files), with a
///    [`WarningKind::Encoding`] note that names it and the first byte that is not UTF-8.
///
/// Readers of formats that are UTF-8 by definition (JSON) pass `guess = false`; bytes with a NUL
/// are binary, not legacy text, and are never guessed either: invalid UTF-8 is then an error
/// naming line and column. A binary Praat file (`ooBinaryFile`) is an unsupported-input error that
/// says so.
pub fn decode_text(
    bytes: &[u8],
    format_name: &'static str,
    options: &ReadOptions,
    guess: bool,
) -> Result<(String, Option<Warning>)> {
    check_decodable(bytes, &options.limits)?;
    if let Some(text) = unicode_by_bom(bytes, format_name)? {
        return Ok((text, None));
    }
    if let Some(label) = &options.encoding {
        let encoding = encoding_rs::Encoding::for_label(label.trim().as_bytes()).ok_or_else(|| {
            Error::unsupported(format!(
                "unknown encoding {label:?}; name one such as utf-8, windows-1252, latin1, gbk, shift_jis, utf-16le"
            ))
        })?;
        return decode_as(encoding, bytes, format_name).map(|t| (t, None));
    }
    let bad = match std::str::from_utf8(bytes) {
        Ok(s) => return Ok((s.to_owned(), None)),
        Err(e) => e.valid_up_to(),
    };
    if !guess || memchr::memchr(0, bytes).is_some() {
        return utf8(bytes, format_name).map(|t| (t, None));
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let encoding = detector.guess(None, chardetng::Utf8Detection::Deny);
    let text = decode_as(encoding, bytes, format_name)?;
    // `bytes[..bad]` is valid UTF-8 by construction.
    let (line, column) = position_of(std::str::from_utf8(&bytes[..bad]).unwrap_or_default(), bad);
    let note = Warning::at(
        WarningKind::Encoding,
        line,
        Some(column),
        format!(
            "the text is not UTF-8 (first at line {line}, column {column}); decoded as {}, the most likely encoding; name another with --encoding",
            encoding.name()
        ),
    );
    Ok((text, Some(note)))
}

/// The size limit, and binary Praat files, which are not text in any encoding.
fn check_decodable(bytes: &[u8], limits: &Limits) -> Result<()> {
    if bytes.len() > limits.max_bytes {
        return Err(Error::limit(format!(
            "input is {} bytes, more than the limit of {} bytes",
            bytes.len(),
            limits.max_bytes
        )));
    }
    if bytes.starts_with(b"ooBinaryFile") {
        return Err(Error::unsupported(
            "binary Praat file (ooBinaryFile); save it from Praat as a text file (Save as text file…)",
        ));
    }
    Ok(())
}

/// Decodes `bytes` with a byte-order mark as its Unicode encoding; `None` without one.
fn unicode_by_bom(bytes: &[u8], format_name: &'static str) -> Result<Option<String>> {
    // UTF-32 first: its little-endian mark starts with UTF-16's.
    if let Some(body) = bytes.strip_prefix(&[0xFF, 0xFE, 0, 0]) {
        return utf32(body, false, format_name).map(Some);
    }
    if let Some(body) = bytes.strip_prefix(&[0, 0, 0xFE, 0xFF]) {
        return utf32(body, true, format_name).map(Some);
    }
    match encoding_rs::Encoding::for_bom(bytes) {
        Some((encoding, bom)) if encoding != encoding_rs::UTF_8 => {
            decode_as(encoding, &bytes[bom..], format_name).map(Some)
        }
        Some((_, bom)) => utf8(&bytes[bom..], format_name).map(Some),
        None => Ok(None),
    }
}

/// Decodes `bytes` (without a byte-order mark) as `encoding`; a byte sequence the encoding does
/// not define is an error at its position.
fn decode_as(
    encoding: &'static encoding_rs::Encoding,
    bytes: &[u8],
    format_name: &'static str,
) -> Result<String> {
    if encoding == encoding_rs::UTF_8 {
        return utf8(bytes, format_name);
    }
    let (text, had_errors) = encoding.decode_without_bom_handling(bytes);
    if had_errors {
        // Point at the first replacement character.
        let (line, column) = position_of(&text, text.find('\u{FFFD}').unwrap_or(0));
        return Err(Error::parse(
            format_name,
            line,
            column,
            format!("invalid {} text", encoding.name()),
        ));
    }
    Ok(text.into_owned())
}

/// Decodes UTF-32 code units (after the byte-order mark), which `encoding_rs` does not know.
fn utf32(body: &[u8], big_endian: bool, format_name: &'static str) -> Result<String> {
    let mut text = String::with_capacity(body.len() / 4);
    let mut units = body.chunks_exact(4);
    for unit in &mut units {
        let b = [unit[0], unit[1], unit[2], unit[3]];
        let v = if big_endian { u32::from_be_bytes(b) } else { u32::from_le_bytes(b) };
        match char::from_u32(v) {
            Some(c) => text.push(c),
            None => {
                let (line, column) = position_of(&text, text.len());
                return Err(Error::parse(
                    format_name,
                    line,
                    column,
                    format!("invalid UTF-32 text (code unit {v:#x})"),
                ));
            }
        }
    }
    if !units.remainder().is_empty() {
        let (line, column) = position_of(&text, text.len());
        return Err(Error::parse(
            format_name,
            line,
            column,
            "UTF-32 text ends in the middle of a character (truncated?)",
        ));
    }
    Ok(text)
}

fn utf8(bytes: &[u8], format_name: &'static str) -> Result<String> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Ok(s.to_owned()),
        Err(e) => {
            let good = &bytes[..e.valid_up_to()];
            // `good` is valid UTF-8 by construction.
            let text = std::str::from_utf8(good).unwrap_or_default();
            let (line, column) = position_of(text, text.len());
            Err(Error::parse(
                format_name,
                line,
                column,
                "invalid UTF-8 (expected UTF-8, or UTF-16 or UTF-32 with a byte-order mark)",
            ))
        }
    }
}

/// 1-based line and column (in characters) of byte offset `at` in `text`.
pub fn position_of(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Guesses the format from a file name: the extension, and for `.json`/`.txt` nothing (content
/// decides).
pub fn detect_by_name(name: &str) -> Option<Format> {
    let lower = name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map(|(_, e)| e)?;
    Some(match ext {
        "rttm" => Format::Rttm,
        "uem" => Format::Uem,
        "lab" | "aud" => Format::Lab,
        "vtt" => Format::WebVtt,
        "srt" => Format::Srt,
        "textgrid" => Format::TextGrid,
        "eaf" => Format::Eaf,
        "cha" => Format::Chat,
        "csv" => Format::Csv,
        "tsv" => Format::Tsv,
        "stm" => Format::Stm,
        "ctm" => Format::Ctm,
        _ => return None,
    })
}

/// Guesses the format from the text itself.
pub fn sniff(text: &str) -> Option<Format> {
    let head: &str = {
        let mut end = text.len().min(64 * 1024);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        &text[..end]
    };
    let trimmed = head.trim_start_matches('\u{feff}').trim_start();
    if trimmed.starts_with("WEBVTT") {
        return Some(Format::WebVtt);
    }
    // Praat accepts any spacing around `=`, and the older short-form header.
    let first_line = trimmed.lines().next().unwrap_or("");
    if first_line.starts_with("File type") && first_line.contains("\"ooTextFile")
        || first_line.starts_with("\"ooTextFile")
    {
        return Some(Format::TextGrid);
    }
    if trimmed.starts_with("<?xml") || trimmed.starts_with("<ANNOTATION_DOCUMENT") {
        if head.contains("<ANNOTATION_DOCUMENT") {
            return Some(Format::Eaf);
        }
        return None;
    }
    // CHAT: `@UTF8` first; older CLAN files start with `@Font:` or `@Window:` headers.
    if ["@UTF8", "@Begin", "@Font:", "@Window:"].iter().any(|h| trimmed.starts_with(h)) {
        return Some(Format::Chat);
    }
    // `[00:01:02] Name: text` paragraphs start like a JSON array.
    if trimmed.starts_with('[') {
        if let Some(f) = paragraphs::sniff(trimmed) {
            return Some(f);
        }
    }
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        // By the keys of the top-level object, in any order, looking past the 64 KiB head
        // (a long first value can hide the telling key; see `json::sniff`).
        return json::sniff(text.trim_start_matches('\u{feff}').trim_start());
    }
    let first = trimmed
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with(';') && !l.starts_with('#'))?;
    let fields: Vec<&str> = first.split_whitespace().collect();
    let upper = fields.first().map(|f| f.to_ascii_uppercase());
    if matches!(
        upper.as_deref(),
        Some("SPEAKER" | "SPKR-INFO" | "LEXEME" | "NON-SPEECH" | "NON-LEX" | "SEGMENT")
    ) && fields.len() >= 9
    {
        return Some(Format::Rttm);
    }
    let is_num = |s: &str| parse_seconds(s).is_ok();
    if fields.len() == 4 && is_num(fields[2]) && is_num(fields[3]) && !is_num(fields[0]) {
        return Some(Format::Uem);
    }
    // STM: `file channel speaker begin end …`; CTM: `file channel begin duration word …`
    // (space separated; a tab means an Audacity label line).
    if fields.len() >= 5 && !first.contains('\t') {
        let (n2, n3, n4) = (is_num(fields[2]), is_num(fields[3]), is_num(fields[4]));
        if n3 && n4 && !n2 {
            return Some(Format::Stm);
        }
        if n2 && n3 && !n4 && fields.len() <= 7 {
            return Some(Format::Ctm);
        }
    }
    if fields.len() >= 2 && is_num(fields[0]) && is_num(fields[1]) {
        return Some(Format::Lab);
    }
    if first.contains(" --> ") {
        return Some(Format::Srt);
    }
    if fields.first().is_some_and(|f| f.chars().all(|c| c.is_ascii_digit())) {
        if let Some(second) = trimmed.lines().nth(1) {
            if second.contains("-->") {
                return Some(Format::Srt);
            }
        }
    }
    // Paragraph transcripts: headers with start times (before CSV: their text has commas).
    if let Some(f) = paragraphs::sniff(trimmed) {
        return Some(f);
    }
    if first.contains('\t') {
        return Some(Format::Tsv);
    }
    if first.contains(',') {
        return Some(Format::Csv);
    }
    None
}

/// Picks the format: `explicit` if given, else the file name, else the content.
pub fn detect(name: Option<&str>, text: &str, explicit: Option<Format>) -> Result<Format> {
    if let Some(f) = explicit {
        return Ok(f);
    }
    if let Some(f) = name.and_then(detect_by_name) {
        return Ok(f);
    }
    sniff(text).ok_or_else(|| {
        Error::unsupported(
            "cannot tell the format from the file name or content; name it with --from",
        )
    })
}

/// Reads `text` as `format`, then runs the checks every reader gets (self-overlap).
pub fn read_str(text: &str, format: Format, options: &ReadOptions) -> Result<ReadOutput> {
    let read = reader(format).ok_or_else(|| match format {
        Format::Uem => {
            Error::unsupported("a UEM file holds scoring regions, not speech; pass it with --uem")
        }
        other => Error::unsupported(format!("reading {other} is not supported")),
    })?;
    let mut ctx = ReadContext::new(format, options);
    let corpus = read(text, &mut ctx)?;
    for (id, t) in corpus.iter() {
        report_self_overlap(id, t, &mut ctx)?;
    }
    let zero_length = std::mem::take(&mut ctx.zero_length);
    Ok(ReadOutput { format: Some(format), corpus, warnings: ctx.into_warnings(), zero_length })
}

fn report_self_overlap(id: &str, t: &Transcript, ctx: &mut ReadContext<'_>) -> Result<()> {
    let a = t.annotation();
    let pairs = a.self_overlaps();
    let mut per_speaker: std::collections::BTreeMap<&str, (usize, Segment)> = Default::default();
    for (x, y) in &pairs {
        let e = per_speaker.entry(a.speaker_name(x.speaker)).or_insert((0, y.segment));
        e.0 += 1;
    }
    for (name, (n, first)) in per_speaker {
        ctx.warn(Warning::new(
            WarningKind::SelfOverlap,
            format!("{id}: speaker {name:?} overlaps themselves {n} time(s), first at {first}; scorers and analysis merge these"),
        ))?;
    }
    Ok(())
}

/// Reads bytes: decodes, detects the format (`name` is the file name for the extension hint)
/// and reads.
pub fn read_bytes(
    bytes: &[u8],
    name: Option<&str>,
    explicit: Option<Format>,
    options: &ReadOptions,
) -> Result<ReadOutput> {
    let hint = explicit.or_else(|| name.and_then(detect_by_name));
    let docx_name = name.is_some_and(|n| n.to_ascii_lowercase().ends_with(".docx"));
    if docx_name || (docx::is_zip(bytes) && explicit.is_some_and(Format::is_paragraphs)) {
        if bytes.len() > options.limits.max_bytes {
            return Err(Error::limit(format!(
                "input is {} bytes, more than the limit of {} bytes",
                bytes.len(),
                options.limits.max_bytes
            )));
        }
        let text = docx::text(bytes, &options.limits)?;
        let format = match explicit {
            Some(f) if f.is_paragraphs() => f,
            Some(f) => {
                return Err(Error::unsupported(format!(
                    "a .docx holds a paragraph transcript (rev, otter, paragraphs), not {f}"
                )))
            }
            None => paragraphs::sniff(&text).unwrap_or(Format::Paragraphs),
        };
        return read_str(&text, format, options);
    }
    // JSON is UTF-8 by definition: its bytes are never guessed as a legacy encoding.
    let json_like = match hint {
        Some(f) => f.is_json(),
        None => bytes.iter().find(|b| !b.is_ascii_whitespace()).is_some_and(|b| b"{[".contains(b)),
    };
    let (text, note) = decode_text(bytes, hint.map_or("input", Format::name), options, !json_like)?;
    let format = detect(name, &text, explicit)?;
    let mut out = read_str(&text, format, options)?;
    if let Some(note) = note {
        out.warnings.insert(0, note);
    }
    Ok(out)
}

/// Reads a file; the recording id of single-recording formats defaults to the file name without
/// its extension. Errors carry the path.
pub fn read_path(
    path: &Path,
    explicit: Option<Format>,
    options: &ReadOptions,
) -> Result<ReadOutput> {
    let meta = std::fs::metadata(path).map_err(|e| Error::from(e).with_path(path))?;
    if meta.len() > options.limits.max_bytes as u64 {
        return Err(Error::limit(format!(
            "file is {} bytes, more than the limit of {} bytes",
            meta.len(),
            options.limits.max_bytes
        ))
        .with_path(path));
    }
    let bytes = std::fs::read(path).map_err(|e| Error::from(e).with_path(path))?;
    let mut options = options.clone();
    if options.recording_id.is_none() {
        options.recording_id = Some(recording_id_from_path(path));
    }
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    read_bytes(&bytes, name.as_deref(), explicit, &options).map_err(|e| e.with_path(path))
}

/// The recording id a file name implies: the name without its format extension
/// (`EN2002a.Mix-Headset.rttm` → `EN2002a.Mix-Headset`).
pub fn recording_id_from_path(path: &Path) -> String {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let lower = name.to_ascii_lowercase();
    for suffix in [".overtalk.json", ".textgrid"] {
        if lower.ends_with(suffix) {
            return name[..name.len() - suffix.len()].to_owned();
        }
    }
    match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_owned(),
        _ => name,
    }
}

/// Writes `corpus` as `format`. Writers are canonical and strict: what they cannot represent is
/// an error, what they change (such as spaces in labels) is a warning.
pub fn write(corpus: &Corpus, format: Format, out: &mut dyn Write) -> Result<Vec<Warning>> {
    let w = writer(format)
        .ok_or_else(|| Error::unsupported(format!("writing {format} is not supported")))?;
    if !format.holds_many_recordings() && corpus.len() > 1 {
        return Err(Error::unsupported(format!(
            "{format} holds one recording and the input has {}; write rttm or json, or one file per recording",
            corpus.len()
        )));
    }
    w(corpus, out)
}

/// Replaces whitespace in a field with `_`, for formats whose fields are whitespace-separated;
/// returns the field and whether it changed.
pub(crate) fn no_spaces(field: &str) -> (String, bool) {
    if field.chars().any(char::is_whitespace) || field.is_empty() {
        let mut s: String =
            field.chars().map(|c| if c.is_whitespace() { '_' } else { c }).collect();
        if s.is_empty() {
            s.push('_');
        }
        (s, true)
    } else {
        (field.to_owned(), false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recording_ids_keep_dots() {
        assert_eq!(
            recording_id_from_path(Path::new("a/EN2002a.Mix-Headset.rttm")),
            "EN2002a.Mix-Headset"
        );
        assert_eq!(recording_id_from_path(Path::new("x.TextGrid")), "x");
        assert_eq!(recording_id_from_path(Path::new("x.overtalk.json")), "x");
        assert_eq!(recording_id_from_path(Path::new("noext")), "noext");
    }

    #[test]
    fn decoding_reports_the_position_of_bad_bytes() {
        let e = decode(b"ab\ncd\xffef", "rttm", &Limits::default()).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(3)));
        let utf16: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("hé\n".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(decode(&utf16, "textgrid", &Limits::default()).unwrap(), "hé\n");
        let limits = Limits { max_bytes: 2, ..Limits::default() };
        assert!(matches!(
            decode(b"abc", "x", &limits).unwrap_err().kind(),
            crate::ErrorKind::Limit(_)
        ));
    }

    #[test]
    fn legacy_encodings_are_detected_and_named() {
        let opts = ReadOptions::default();
        // Latin-1 / Windows-1252: `é` is one byte 0xE9.
        let (text, note) = decode_text(b"ok\nCaf\xe9 cr\xe8me\n", "srt", &opts, true).unwrap();
        assert_eq!(text, "ok\nCafé crème\n");
        let note = note.unwrap();
        assert_eq!((note.kind, note.line, note.column), (WarningKind::Encoding, Some(2), Some(4)));
        assert!(note.message.contains("windows-1252"), "{}", note.message);
        // GB2312 (read as GBK, its superset): 你好 is C4 E3 BA C3.
        let gb = b"1\n00:00:00,000 --> 00:00:01,000\n\xc4\xe3\xba\xc3\xa3\xac\xca\xc0\xbd\xe7\n";
        let (text, note) = decode_text(gb, "srt", &opts, true).unwrap();
        assert!(text.ends_with("你好，世界\n"), "{text:?}");
        assert!(note.unwrap().message.contains("GBK"));
        // Named explicitly: no guess and no note.
        let named = ReadOptions { encoding: Some("latin1".into()), ..Default::default() };
        assert_eq!(decode_text(b"\xe9", "srt", &named, true).unwrap(), ("é".to_owned(), None));
        let unknown = ReadOptions { encoding: Some("klingon".into()), ..Default::default() };
        assert!(decode_text(b"x", "srt", &unknown, true).is_err());
        // JSON is never guessed; NUL bytes mean binary, not legacy text.
        let e = decode_text(b"{\"a\":\n\"\xe9\"}", "json", &opts, false).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(2)));
        let e = decode_text(b"a\0b\xff", "srt", &opts, true).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(4)));
    }

    #[test]
    fn utf32_with_a_byte_order_mark_reads() {
        let le: Vec<u8> = [0xFF, 0xFE, 0, 0]
            .into_iter()
            .chain("hé\n".chars().flat_map(|c| (c as u32).to_le_bytes()))
            .collect();
        assert_eq!(decode(&le, "srt", &Limits::default()).unwrap(), "hé\n");
        let be: Vec<u8> = [0, 0, 0xFE, 0xFF]
            .into_iter()
            .chain("hé\n".chars().flat_map(|c| (c as u32).to_be_bytes()))
            .collect();
        assert_eq!(decode(&be, "srt", &Limits::default()).unwrap(), "hé\n");
        let e = decode(&le[..9], "srt", &Limits::default()).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(2)));
        let bad = [0xFF, 0xFE, 0, 0, 0, 0xD8, 0, 0];
        assert!(decode(&bad, "srt", &Limits::default()).is_err());
    }

    #[test]
    fn a_binary_praat_file_says_so() {
        let e = read_bytes(
            b"ooBinaryFile\x08TextGrid\x00\x00",
            Some("x.TextGrid"),
            None,
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert!(matches!(e.kind(), crate::ErrorKind::Unsupported(_)), "{e}");
        assert!(e.to_string().contains("binary Praat file"), "{e}");
    }

    #[test]
    fn lines_split_every_terminator_and_cap_length() {
        let opts = ReadOptions {
            limits: Limits { max_line_bytes: 5, ..Limits::default() },
            ..Default::default()
        };
        let ctx = ReadContext::new(Format::Rttm, &opts);
        let lines: Vec<_> = ctx.lines("a\r\nb\rc\n").map(|r| r.unwrap()).collect();
        assert_eq!(lines, vec![(1, "a"), (2, "b"), (3, "c")]);
        let err = ctx.lines("ok\n123456\n").nth(1).unwrap().unwrap_err();
        assert!(err.to_string().contains("line 2"), "{err}");
    }

    #[test]
    fn strict_turns_warnings_into_errors() {
        let opts = ReadOptions { strict: true, ..Default::default() };
        let mut ctx = ReadContext::new(Format::Rttm, &opts);
        let e = ctx.warn_at(WarningKind::Repaired, 7, Some(3), "bad field").unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(7), Some(3)));
    }

    #[test]
    fn strict_keeps_notes_about_valid_input_as_warnings() {
        let opts = ReadOptions { strict: true, ..Default::default() };
        let mut ctx = ReadContext::new(Format::Rttm, &opts);
        for kind in [
            WarningKind::Unsorted,
            WarningKind::SelfOverlap,
            WarningKind::MissingSpeaker,
            WarningKind::Note,
            WarningKind::Encoding,
        ] {
            ctx.warn_at(kind, 2, None, "fine").unwrap();
        }
        for kind in [
            WarningKind::ZeroDuration,
            WarningKind::NegativeDuration,
            WarningKind::MissingTime,
            WarningKind::Skipped,
            WarningKind::Repaired,
        ] {
            assert!(ctx.warn_at(kind, 3, None, "broken").is_err(), "{kind:?}");
        }
        assert_eq!(ctx.into_warnings().len(), 5);
    }

    #[test]
    fn format_names_parse() {
        for f in Format::ALL {
            assert_eq!(f.name().parse::<Format>().unwrap(), f);
        }
        assert_eq!("vtt".parse::<Format>().unwrap(), Format::WebVtt);
        assert!("docx".parse::<Format>().is_err());
    }
}
