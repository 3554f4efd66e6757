//! Readers and writers: every transcript and diarization format, into and out of the model.
//!
//! Each format has one module with `read(text, &mut ReadContext) -> Result<Corpus>` and, where
//! the format can hold what the model holds, `write(corpus, out) -> Result<Vec<Warning>>`.
//! This module owns what they share:
//!
//! - **decoding**: bytes to text once, honouring UTF-8 and UTF-16 byte-order marks and
//!   recognising UTF-16 without one by its NUL bytes; invalid text is an error naming line and
//!   column;
//! - **detection** ([`detect`]): the extension first, then content sniffing; `--from` overrides;
//! - **containers**: a `.docx` (or a zip named by `--from rev|otter|paragraphs`) is unzipped to
//!   its text first (`docx`), then read as a paragraph transcript ([`paragraphs`]);
//! - **leniency** ([`ReadContext::warn`]): readers report every repair and every note as a
//!   [`Warning`]; with `strict` the first repair of malformed input becomes an error, while notes
//!   about well-formed input stay warnings ([`crate::Severity`]);
//! - **limits** ([`Limits`]): input size, line length and nesting depth, so hostile input fails
//!   fast with a limit error instead of exhausting memory;
//! - **checks every reader gets**: self-overlapping tracks are reported after reading.

use std::fmt;
use std::io::{Read, Write};
use std::path::Path;
use std::str::FromStr;

use crate::error::{Error, Result, Severity, Warning, WarningKind};
use crate::model::{Corpus, Segment, Transcript};
use crate::time::{parse_seconds, Time, TimeError};

pub mod assemblyai;
pub mod aws;
pub mod azure;
pub(crate) mod channel;
pub mod chat;
pub mod csv;
pub mod ctm;
pub mod deepgram;
pub(crate) mod docx;
pub mod eaf;
pub mod elevenlabs;
pub mod exmaralda;
pub mod gecko;
pub mod gladia;
pub mod google;
pub mod json;
pub mod json3;
pub mod lab;
pub(crate) mod notes;
pub(crate) mod order;
pub mod paragraphs;
pub mod podcast;
pub mod pyannote;
pub mod revai;
pub mod rttm;
pub mod seglst;
pub mod speechmatics;
pub mod srt;
pub mod srv3;
pub mod stm;
pub mod textgrid;
pub mod tiers;
pub mod timedtext;
pub mod transcriber;
pub mod uem;
pub mod webvtt;
pub mod whispercpp;
pub mod whisperx;
pub(crate) mod xml;
pub(crate) mod youtube;

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
    /// SegLST: meeteval's and the CHiME-7/8 challenges' JSON list of segments.
    SegLst,
    /// Amazon Transcribe batch transcript JSON.
    AwsTranscribe,
    /// pyannote.audio's `serialize()` JSON and pyannoteAI's job output.
    PyannoteJson,
    /// Rev.ai transcript JSON (`monologues`).
    RevAi,
    /// Speechmatics batch transcript JSON (`json-v2`).
    Speechmatics,
    /// Google Cloud Speech-to-Text response JSON.
    GoogleStt,
    /// Azure AI Speech batch transcription result JSON.
    Azure,
    /// whisper.cpp JSON output (`--output-json`).
    WhisperCpp,
    /// EXMARaLDA basic transcriptions (`.exb`).
    Exmaralda,
    /// Transcriber files (`.trs`).
    Transcriber,
    /// ElevenLabs Speech-to-Text (Scribe) JSON.
    ElevenLabs,
    /// Gladia pre-recorded transcription JSON (API v2).
    Gladia,
    /// Gecko annotation JSON (`monologues` of `terms`).
    Gecko,
    /// Podcasting 2.0 JSON transcripts (`segments` of `startTime`, `endTime`, `body`).
    Podcast,
    /// YouTube's timed text, format 3 (srv3 XML), manual and automatic captions.
    Srv3,
    /// YouTube's JSON captions (json3), manual and automatic.
    Json3,
    /// YouTube's SubViewer captions (`.sbv`, as YouTube Studio downloads them).
    Sbv,
    /// YouTube's timed text, format 1 (srv1 XML: `<transcript>`, times in seconds).
    Srv1,
    /// YouTube's timed text, format 2 (srv2 XML: `<timedtext>`, times in milliseconds).
    Srv2,
}

impl Format {
    /// Every format, in a stable order (the order of the format registry).
    pub const ALL: [Format; SPECS.len()] = {
        let mut all = [Format::Rttm; SPECS.len()];
        let mut i = 0;
        while i < SPECS.len() {
            all[i] = SPECS[i].format;
            i += 1;
        }
        all
    };

    /// What the format declares about itself.
    fn spec(self) -> &'static FormatSpec {
        SPECS[self as usize]
    }

    /// Whether the writer keeps utterances without times ([`Transcript::untimed`]): the
    /// overtalk JSON and CHAT do; every other format holds timed segments only.
    ///
    /// [`Transcript::untimed`]: crate::model::Transcript::untimed
    pub fn keeps_untimed(self) -> bool {
        matches!(self, Format::Json | Format::Chat)
    }

    /// The name used on the command line (`--from`, `--to`) and in messages.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        self.spec().extension
    }

    /// Whether overtalk can write this format.
    pub fn is_writable(self) -> bool {
        self.spec().write.is_some()
    }

    /// The names of the formats overtalk writes, `, `-joined, for help and messages.
    pub fn writable_names() -> String {
        let names: Vec<&str> =
            Format::ALL.iter().filter(|f| f.is_writable()).map(|f| f.name()).collect();
        names.join(", ")
    }

    /// Whether this is a paragraph transcript with start times only ([`paragraphs`]).
    pub fn is_paragraphs(self) -> bool {
        self.spec().paragraphs
    }

    /// Whether the format is JSON (always UTF-8, never a legacy encoding).
    pub fn is_json(self) -> bool {
        self.spec().json
    }

    /// Whether one file of this format can hold several recordings.
    pub fn holds_many_recordings(self) -> bool {
        self.spec().many_recordings
    }
}

impl crate::named::Named for Format {
    fn all() -> &'static [Format] {
        &Format::ALL
    }
    fn name(self) -> &'static str {
        Format::name(self)
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
        SPECS
            .iter()
            .find(|spec| spec.name == lower || spec.aliases.contains(&lower.as_str()))
            .map(|spec| spec.format)
            .ok_or_else(|| {
                Error::unsupported(format!(
                    "unknown format {s:?}; known: {}",
                    Format::ALL.map(Format::name).join(", ")
                ))
            })
    }
}

/// The registry: every format's [`FormatSpec`], in the order of the [`Format`] variants (checked
/// when compiling). Adding a format is one module that declares its `SPEC`, one `Format`
/// variant and one entry here.
const SPECS: [&FormatSpec; 38] = [
    &rttm::SPEC,
    &uem::SPEC,
    &lab::SPEC,
    &webvtt::SPEC,
    &srt::SPEC,
    &textgrid::SPEC,
    &eaf::SPEC,
    &chat::SPEC,
    &whisperx::SPEC,
    &deepgram::SPEC,
    &assemblyai::SPEC,
    &csv::CSV_SPEC,
    &csv::TSV_SPEC,
    &stm::SPEC,
    &ctm::SPEC,
    &json::SPEC,
    &paragraphs::REV_SPEC,
    &paragraphs::OTTER_SPEC,
    &paragraphs::PARAGRAPHS_SPEC,
    &seglst::SPEC,
    &aws::SPEC,
    &pyannote::SPEC,
    &revai::SPEC,
    &speechmatics::SPEC,
    &google::SPEC,
    &azure::SPEC,
    &whispercpp::SPEC,
    &exmaralda::SPEC,
    &transcriber::SPEC,
    &elevenlabs::SPEC,
    &gladia::SPEC,
    &gecko::SPEC,
    &podcast::SPEC,
    &srv3::SPEC,
    &json3::SPEC,
    &srt::SBV_SPEC,
    &timedtext::SRV1_SPEC,
    &timedtext::SRV2_SPEC,
];

// Each entry sits at its variant's index, so `Format::spec` is an index.
const _: () = {
    let mut i = 0;
    while i < SPECS.len() {
        assert!(SPECS[i].format as usize == i, "SPECS is not in the order of Format");
        i += 1;
    }
};

/// Everything one format declares about itself, as a `SPEC` constant beside its reader; the
/// registry ([`SPECS`]) lists them, and every per-format fact (`--from` names, extensions,
/// reader, writer, content sniffing) is read from here.
pub(crate) struct FormatSpec {
    /// The handle.
    pub(crate) format: Format,
    /// The name used on the command line and in messages.
    pub(crate) name: &'static str,
    /// Other names `--from`/`--to` accept (lowercase).
    pub(crate) aliases: &'static [&'static str],
    /// The usual file extension, without the dot.
    pub(crate) extension: &'static str,
    /// The file extensions that name this format on their own (lowercase, without the dot);
    /// none for `.json` and `.txt`, where the content decides.
    pub(crate) detected_by: &'static [&'static str],
    /// The reader, or why the format is not read as a transcript.
    pub(crate) read: std::result::Result<ReadFn, &'static str>,
    /// The writer, for formats that can hold what the model holds.
    pub(crate) write: Option<WriteFn>,
    /// JSON: always UTF-8, never a legacy encoding.
    pub(crate) json: bool,
    /// One file can hold several recordings.
    pub(crate) many_recordings: bool,
    /// A paragraph transcript with start times only ([`paragraphs`]).
    pub(crate) paragraphs: bool,
    /// How the format is recognised by its content ([`sniff`]).
    pub(crate) sniff: &'static [Sniff],
}

/// One content test of [`sniff`]. Every test of one kind runs in the order of its rank (lower
/// first) across all formats, the start tests before the line tests; the first that decides
/// wins:
///
/// ```text
///  text ──► Start tests (rank order) ──► first line ──► Line tests (rank order) ──► None
///           WEBVTT, ooTextFile, <?xml,    past blanks    SPEAKER…, 4 fields, STM,
///           @UTF8, [00:01] , { or [       and ;/# lines  CTM, label, -->, headers, tab, comma
/// ```
#[derive(Clone, Copy)]
pub(crate) enum Sniff {
    /// A test on how the text starts ([`Head`]); it may pass, name a format, or end the search.
    Start { rank: u8, test: fn(&Head<'_>) -> Verdict },
    /// A test on the first line that is not blank or a `;`/`#` comment, with the rest of the
    /// text at hand; it names a format or passes.
    Line { rank: u8, test: fn(&Head<'_>, &FirstLine<'_>) -> Option<Format> },
}

/// What a start test of [`sniff`] concludes.
pub(crate) enum Verdict {
    /// Not this format; the next test decides.
    Pass,
    /// This format.
    Is(Format),
    /// No format can be told from this text (an XML file that is not EAF, a JSON text of no
    /// known shape); the search ends.
    Unknown,
}

/// The text as the sniffing tests see it.
pub(crate) struct Head<'t> {
    /// The whole text, past a byte-order mark and leading blank space (for JSON, whose telling
    /// key can lie past the first 64 KiB).
    pub(crate) text: &'t str,
    /// The first 64 KiB.
    pub(crate) head: &'t str,
    /// The first 64 KiB, past a byte-order mark and leading blank space.
    pub(crate) trimmed: &'t str,
}

/// The first line of a text that is not blank or a `;`/`#` comment, and its whitespace-separated
/// fields.
pub(crate) struct FirstLine<'t> {
    /// The line.
    pub(crate) line: &'t str,
    /// Its fields.
    pub(crate) fields: Vec<&'t str>,
}

/// Whether a transcriber's text is pause notation alone: dashes (`--`, `—`), which several
/// conventions (NZILBB, Transcriber exports) write for a pause inside a turn. Silence, not
/// speech.
pub(crate) fn is_dash_pause(text: &str) -> bool {
    let t = text.trim();
    !t.is_empty() && t.chars().all(|c| matches!(c, '-' | '\u{2013}' | '\u{2014}'))
}

/// Whether a field reads as decimal seconds (for the line tests of [`sniff`]).
pub(crate) fn is_seconds(field: &str) -> bool {
    parse_seconds(field).is_ok()
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
    /// Zero-length items after the first, counted in the first one's warning.
    more_zero_length: usize,
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
            more_zero_length: 0,
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
        if warning.kind == WarningKind::ZeroDuration && kept > 0 {
            // Zero-length items come in bulk (point labels, CTM tokens of duration 0): the
            // first is shown where it is, the rest are counted in its message.
            self.more_zero_length += 1;
        } else if kept < self.options.limits.max_warnings_per_kind {
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
        if self.more_zero_length > 0 {
            if let Some(first) = w.iter_mut().find(|w| w.kind == WarningKind::ZeroDuration) {
                first.message = format!(
                    "{}; and {} more zero-length item(s) after it, dropped",
                    first.message, self.more_zero_length
                );
            }
        }
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

    /// Parses decimal seconds at `line`:`column`, or warns that the field is no time and its
    /// `unit` (`line`, `row`) is skipped, and gives `None`: a repair, so an error under
    /// `strict`. One unreadable line does not stop the reading of the rest.
    pub fn seconds_or_skip(
        &mut self,
        field: &str,
        what: &str,
        unit: &str,
        line: usize,
        column: usize,
    ) -> Result<Option<Time>> {
        self.time_or_skip(parse_seconds(field), field, what, unit, line, column)
    }

    /// [`seconds_or_skip`](Self::seconds_or_skip) for a time already parsed by the format's
    /// own rule (a CSV cell in seconds or milliseconds): the time, or the warning and `None`.
    pub fn time_or_skip(
        &mut self,
        parsed: std::result::Result<Time, TimeError>,
        field: &str,
        what: &str,
        unit: &str,
        line: usize,
        column: usize,
    ) -> Result<Option<Time>> {
        let e = match parsed {
            Ok(t) => return Ok(Some(t)),
            Err(e) => e,
        };
        let shown: String = field.chars().take(40).collect();
        // Under --strict this is the error, without the `; … skipped` clause (see
        // `Warning::into_error`).
        self.warn_at(
            WarningKind::MissingTime,
            line,
            Some(column),
            format!("{what} {shown:?}: {e}; {unit} skipped"),
        )?;
        Ok(None)
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

pub(crate) type ReadFn = fn(&str, &mut ReadContext<'_>) -> Result<Corpus>;
pub(crate) type WriteFn = fn(&Corpus, &mut dyn Write) -> Result<Vec<Warning>>;

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
/// 3. UTF-16 without a byte-order mark, when NUL bytes fill the high byte of nearly every code
///    unit at the start (`utf16_without_bom`: Windows tools save text so), with a
///    [`WarningKind::Encoding`] note that names it. NUL bytes are valid UTF-8, so this comes
///    before it: else `start` would read as `s\0t\0a\0r\0t\0`;
/// 4. UTF-8, when the bytes are valid UTF-8;
/// 5. when `guess` is set, the legacy encoding `chardetng` finds most likely (Latin-1 and
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
    if let Some(encoding) = utf16_without_bom(bytes) {
        let text = decode_as(encoding, bytes, format_name)?;
        let note = Warning::new(
            WarningKind::Encoding,
            format!(
                "no byte-order mark, but NUL bytes as in UTF-16 text: decoded as {}; name another with --encoding",
                encoding.name()
            ),
        );
        return Ok((text, Some(note)));
    }
    let bad = match std::str::from_utf8(bytes) {
        Ok(s) => return Ok((s.to_owned(), None)),
        Err(e) => e.valid_up_to(),
    };
    if !guess || memchr::memchr(0, bytes).is_some() {
        return utf8(bytes, format_name).map(|t| (t, None));
    }
    // An XML file that declares its encoding (`<?xml version="1.0" encoding="ISO-8859-1"?>`,
    // as Transcriber and ELAN files do) is read in it, with a note that says so (a declaration
    // can be wrong). UTF-16 without a byte order mark or NUL bytes is no UTF-16: guessed.
    let declared = declared_xml_encoding(bytes)
        .filter(|(_, e)| *e != encoding_rs::UTF_8 && e.is_ascii_compatible());
    if let Some((label, encoding)) = declared {
        let text = decode_as(encoding, bytes, format_name)?;
        let (line, column) =
            position_of(std::str::from_utf8(&bytes[..bad]).unwrap_or_default(), bad);
        let note = Warning::at(
            WarningKind::Encoding,
            line,
            Some(column),
            format!(
                "the text is not UTF-8 (first at line {line}, column {column}); decoded as {label}, as its XML declaration says; name another with --encoding"
            ),
        );
        return Ok((text, Some(note)));
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(bytes, true);
    let guessed = detector.guess(None, chardetng::Utf8Detection::Deny);
    let western = western_spelling(bytes, guessed) || no_one_central_language(bytes, guessed);
    let encoding = if western {
        encoding_rs::WINDOWS_1252
    } else if hungarian_double_acute(bytes, guessed) {
        encoding_rs::WINDOWS_1250
    } else {
        guessed
    };
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

/// Whether `bytes`, guessed as Central European (`windows-1250`, `ISO-8859-2`), are rather
/// Western text in `windows-1252`: every byte the two read differently reads, in
/// `windows-1252`, as Western spelling that Central European text never has. On a few words
/// the detector has little to go on and calls `Sí señor` Polish (`Sí seńor`); these are the
/// bytes that settle it:
///
/// - `ñ` before a vowel (`señor`, `años`): read as `ń`, a vowel after it, which Polish never
///   writes (it writes `ni`: `nie`, `niebo`), nor Czech or Slovak its `ň`;
/// - `ã` before `o` or `e` (Portuguese `não`, `mãe`; `NÃO` in capitals): read as Romanian `ă`,
///   which no `o` or `e` follows;
/// - `¿` and `¡` before a capital (`¿Qué`, `¡Hola`): read as `ż` and `ˇ`, which no capital
///   follows (ISO-8859-2 reads `¡`'s byte as `Ą`, which a capital does follow: no sign).
///
/// Letters both languages spell (`ê` and Polish `ę`, `è` and Czech `č`) settle nothing and
/// leave the guess as it is: on the short Spanish and Portuguese phrases and the Polish, Czech,
/// Croatian and Romanian ones of `western_spelling_settles_a_short_central_european_guess`,
/// this turns the Western ones read as windows-1250 to windows-1252 and no Central European one.
fn western_spelling(bytes: &[u8], guessed: &'static encoding_rs::Encoding) -> bool {
    if guessed != encoding_rs::WINDOWS_1250 && guessed != encoding_rs::ISO_8859_2 {
        return false;
    }
    let Some((western, central)) = two_readings(bytes, guessed) else { return false };
    // Both are single-byte encodings: the characters match one to one, compared as they come
    // (no copy of the text's characters, whatever its size).
    let mut western = western.chars().peekable();
    let mut central = central.chars();
    let mut differing = false;
    while let (Some(w), Some(c)) = (western.next(), central.next()) {
        if w == c {
            continue;
        }
        differing = true;
        let next = western.peek().copied().unwrap_or(' ');
        // The pair read, not the Western letter alone: ISO-8859-2 reads `¡`'s byte as `Ą`,
        // which a capital follows in Polish written in capitals (`PIĄTEK`).
        let western_only = match (w, c) {
            ('ñ', 'ń') | ('Ñ', 'Ń') => "aeiouáéíóúAEIOUÁÉÍÓÚ".contains(next),
            ('ã', 'ă') => next == 'o' || next == 'e',
            ('Ã', 'Ă') => next == 'O' || next == 'E',
            ('¿', 'ż') | ('¡', 'ˇ') => next.is_uppercase(),
            _ => false,
        };
        if !western_only {
            return false;
        }
    }
    differing
}

/// `bytes` read as `windows-1252` and as the Central European `central` (`windows-1250`,
/// `ISO-8859-2`), for the checks that compare the two readings letter by letter
/// ([`western_spelling`], [`no_one_central_language`], [`hungarian_double_acute`]); `None`
/// when either reading finds a byte it has no character for, which settles nothing.
fn two_readings<'a>(
    bytes: &'a [u8],
    central: &'static encoding_rs::Encoding,
) -> Option<(std::borrow::Cow<'a, str>, std::borrow::Cow<'a, str>)> {
    let (western, _, bad_western) = encoding_rs::WINDOWS_1252.decode(bytes);
    let (central, _, bad_central) = central.decode(bytes);
    (!bad_western && !bad_central).then_some((western, central))
}

/// The letters each Central European language written in `windows-1250` or `ISO-8859-2` has
/// beyond ASCII, in lower case (Polish, Czech, Slovak, Hungarian, Croatian and Slovene,
/// Romanian). Letters both encodings read alike (`é`, `ü`, `ó`) are listed too, though only
/// those they read differently are looked up ([`no_one_central_language`]).
const CENTRAL_ALPHABETS: &[&str] =
    &["ąćęłńóśźż", "áčďéěíňóřšťúůýž", "áäčďéíĺľňóôŕšťúýž", "áéíóöőúüű", "čćđšž", "ăâîşţ"];

/// Whether `bytes`, guessed as Central European (`windows-1250`, `ISO-8859-2`), are rather
/// Western text in `windows-1252` because their Central European reading spells no one
/// language: the letters the two encodings read differently are, read as Central European,
/// letters of no single alphabet of [`CENTRAL_ALPHABETS`], and read as `windows-1252`, letters
/// all. French `Hélène` and `fenêtre` in one file read as `Hélčne` and `fenętre`: Czech `č`
/// and Polish `ę`, which no language writes together; read as windows-1252 they are `è` and
/// `ê`. Polish, Czech or Hungarian text spells its own letters only, and Polish's `ł`, `ą`,
/// `ż` are no letters in windows-1252 (`³`, `¹`, `¿`). One word alone (`Hélène`, read as the
/// Czech-looking `Hélčne`) settles nothing: the detector's guess stands.
fn no_one_central_language(bytes: &[u8], guessed: &'static encoding_rs::Encoding) -> bool {
    if guessed != encoding_rs::WINDOWS_1250 && guessed != encoding_rs::ISO_8859_2 {
        return false;
    }
    let Some((western, central)) = two_readings(bytes, guessed) else { return false };
    // Single-byte encodings: the characters match one to one.
    let mut differing: Vec<char> = Vec::new();
    for (w, c) in western.chars().zip(central.chars()) {
        if w == c {
            continue;
        }
        if !w.is_alphabetic() || !c.is_alphabetic() {
            return false;
        }
        let c = c.to_lowercase().next().unwrap_or(c);
        if !differing.contains(&c) {
            differing.push(c);
        }
    }
    !differing.is_empty()
        && !CENTRAL_ALPHABETS.iter().any(|alphabet| differing.iter().all(|c| alphabet.contains(*c)))
}

/// Whether `bytes`, guessed as `windows-1252`, are rather Hungarian in `windows-1250` (or
/// ISO-8859-2, which places these letters alike): the only bytes the two read differently are
/// those of Hungarian's `ő` and `ű`, and both are there. The detector reads
/// `Árvíztűrő tükörfúrógép` as `Árvíztûrõ`: the other accented letters of Hungarian are
/// Western too. Western text has `õ` (Portuguese `ações`) or `û` (French `sûr`), hardly both and
/// nothing else; any other byte the two read differently (French `è`, read as `č`) leaves the
/// guess.
fn hungarian_double_acute(bytes: &[u8], guessed: &'static encoding_rs::Encoding) -> bool {
    if guessed != encoding_rs::WINDOWS_1252 {
        return false;
    }
    let Some((western, central)) = two_readings(bytes, encoding_rs::WINDOWS_1250) else {
        return false;
    };
    let (mut o, mut u) = (false, false);
    for (w, c) in western.chars().zip(central.chars()) {
        match c {
            _ if w == c => {}
            'ő' | 'Ő' => o = true,
            'ű' | 'Ű' => u = true,
            _ => return false,
        }
    }
    o && u
}

/// The encoding an XML declaration at the start of `bytes` names, as written and as the
/// encoding `encoding_rs` knows by it (`ISO-8859-1` is read as its superset windows-1252, as
/// browsers do).
fn declared_xml_encoding(bytes: &[u8]) -> Option<(String, &'static encoding_rs::Encoding)> {
    let start = bytes.iter().position(|b| !b.is_ascii_whitespace())?;
    let head = &bytes[start..bytes.len().min(start + 300)];
    if !head.starts_with(b"<?xml") {
        return None;
    }
    let decl = &head[..memchr::memmem::find(head, b"?>")?];
    let at = memchr::memmem::find(decl, b"encoding")? + b"encoding".len();
    let rest = decl[at..].trim_ascii_start().strip_prefix(b"=")?.trim_ascii_start();
    let quote = *rest.first().filter(|q| **q == b'"' || **q == b'\'')?;
    let label = &rest[1..];
    let label = &label[..memchr::memchr(quote, label)?];
    let encoding = encoding_rs::Encoding::for_label(label)?;
    Some((String::from_utf8_lossy(label).into_owned(), encoding))
}

/// UTF-16LE or UTF-16BE when `bytes` start like UTF-16 text without a byte-order mark: in their
/// first KiB (of at least two code units), the high byte of at least 90 % of the code units is
/// NUL and the low byte of at most 10 %, as in text that is mostly ASCII or Latin-1:
///
/// ```text
/// s  \0 t  \0 a  \0 r  \0     UTF-16LE: odd bytes NUL
/// \0 s  \0 t  \0 a  \0 r      UTF-16BE: even bytes NUL
/// ```
///
/// UTF-8 text holds no NUL byte at all, and text in other encodings hardly any; binary data
/// rarely has NUL bytes in every other place. Text mostly in other scripts (CJK) is not
/// recognised: it needs its byte-order mark or `--encoding`.
fn utf16_without_bom(bytes: &[u8]) -> Option<&'static encoding_rs::Encoding> {
    let head = &bytes[..bytes.len().min(1024)];
    let units = head.len() / 2;
    if units < 2 {
        return None;
    }
    let nul = |parity: usize| {
        head.iter().skip(parity).step_by(2).take(units).filter(|b| **b == 0).count()
    };
    let (even, odd) = (nul(0), nul(1));
    let most = |n: usize| n * 10 >= units * 9;
    let few = |n: usize| n * 10 <= units;
    if most(odd) && few(even) {
        Some(encoding_rs::UTF_16LE)
    } else if most(even) && few(odd) {
        Some(encoding_rs::UTF_16BE)
    } else {
        None
    }
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
    SPECS.iter().find(|spec| spec.detected_by.contains(&ext)).map(|spec| spec.format)
}

/// The format an output file's name asks for: `.seglst.json` SegLST, any other `.json`
/// overtalk's own JSON (the vendor JSON shapes are only read), else the format its extension
/// names ([`detect_by_name`]). `None` when the name asks for none: a writer then needs the
/// format said, never a default.
pub fn output_format_for_name(name: &str) -> Option<Format> {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with(".seglst.json") {
        Some(Format::SegLst)
    } else if lower.ends_with(".json") {
        Some(Format::Json)
    } else {
        detect_by_name(name)
    }
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
    let head = Head {
        text: text.trim_start_matches('\u{feff}').trim_start(),
        head,
        trimmed: head.trim_start_matches('\u{feff}').trim_start(),
    };
    let ranked = |line: bool| {
        let mut tests: Vec<Sniff> = SPECS
            .iter()
            .flat_map(|spec| spec.sniff.iter().copied())
            .filter(|t| matches!(t, Sniff::Line { .. }) == line)
            .collect();
        tests.sort_by_key(|t| match t {
            Sniff::Start { rank, .. } | Sniff::Line { rank, .. } => *rank,
        });
        tests
    };
    for t in ranked(false) {
        if let Sniff::Start { test, .. } = t {
            match test(&head) {
                Verdict::Pass => {}
                Verdict::Is(f) => return Some(f),
                Verdict::Unknown => return None,
            }
        }
    }
    let line = head
        .trimmed
        .lines()
        .find(|l| !l.trim().is_empty() && !l.starts_with(';') && !l.starts_with('#'))?;
    let first = FirstLine { line, fields: line.split_whitespace().collect() };
    ranked(true).into_iter().find_map(|t| match t {
        Sniff::Line { test, .. } => test(&head, &first),
        Sniff::Start { .. } => None,
    })
}

/// Picks the format: `explicit` if given, else the file name, else the content.
pub fn detect(name: Option<&str>, text: &str, explicit: Option<Format>) -> Result<Format> {
    if let Some(f) = explicit {
        return Ok(f);
    }
    if let Some(f) = name.and_then(detect_by_name) {
        return Ok(f);
    }
    if let Some(f) = sniff(text) {
        return Ok(f);
    }
    // A subtitle format overtalk does not read is named, before its lines (ASS's repeated
    // `Dialogue:`) could pass for speakers' turns or the error could say only "cannot tell".
    if let Some(what) = unread_subtitles(text) {
        return Err(Error::unsupported(format!(
            "{what} are not read; convert them to WebVTT or SRT first"
        )));
    }
    // Speakers' turns without times: read by the paragraph reader as an untimed transcript.
    if paragraphs::speech_turns(text) {
        return Ok(Format::Paragraphs);
    }
    // Nothing to tell a format from: that is what is wrong, not the format (`--from` would
    // only move the complaint to the reader).
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        let what = if text.is_empty() {
            "the input is empty"
        } else {
            "the input holds no text (only white space or a byte-order mark)"
        };
        return Err(Error::invalid(format!("{what}: no transcript or diarization to read")));
    }
    if let Some((_, count, labels)) = paragraphs::agenda_items(text) {
        return Err(Error::unsupported(format!(
            "cannot tell the format from the file name or content, and no speaker turns found in it as text: {}",
            paragraphs::agenda_reason(count, &labels)
        )));
    }
    Err(Error::unsupported(
        "cannot tell the format from the file name or content, and no speaker turns found in it as text (no times, no speakers' labels that come back); name it with --from",
    ))
}

/// The subtitle formats that are recognisable but not read, as an error names them: TTML
/// (`.ttml`, `.dfxp`: XML whose root element is `tt`, with or without a namespace prefix) and
/// ASS/SSA (a first line `[Script Info]`). `None` for anything else. Looks at the first 4 KB
/// only, so a large file costs no more than a small one.
fn unread_subtitles(text: &str) -> Option<&'static str> {
    let mut end = text.len().min(4096);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = text[..end].trim_start_matches('\u{feff}').trim_start();
    if head.lines().next().is_some_and(|l| l.trim().eq_ignore_ascii_case("[script info]")) {
        return Some("ASS/SSA subtitles (`[Script Info]`)");
    }
    // The root element: the first tag that is not a declaration (`<?xml`), a comment or a
    // DOCTYPE (`<!`).
    let mut rest = head;
    while let Some(at) = rest.find('<') {
        let tag = &rest[at + 1..];
        if tag.starts_with(['?', '!']) {
            rest = tag;
            continue;
        }
        let name_end = tag.find(|c: char| c.is_whitespace() || c == '>' || c == '/');
        let name = &tag[..name_end.unwrap_or(tag.len())];
        let local = name.rsplit_once(':').map_or(name, |(_, local)| local);
        return (local == "tt" && name_end.is_some())
            .then_some("TTML subtitles (XML with a `<tt>` root: .ttml, .dfxp)");
    }
    None
}

/// Reads `text` as `format`, then runs the checks every reader gets (self-overlap).
pub fn read_str(text: &str, format: Format, options: &ReadOptions) -> Result<ReadOutput> {
    let read = format.spec().read.map_err(Error::unsupported)?;
    let mut ctx = ReadContext::new(format, options);
    let corpus = read(text, &mut ctx)?;
    let corpus = show_speakers(corpus, &mut ctx)?;
    for (id, t) in corpus.iter() {
        report_self_overlap(id, t, &mut ctx)?;
    }
    // An input that holds nobody speaking reads as an empty result: say so, so that an empty
    // RTTM or a table of "0 speakers" is not taken for a result about people.
    if holds_no_speech(&corpus) {
        ctx.warn(Warning::new(WarningKind::Note, EMPTY_INPUT))?;
    }
    let zero_length = std::mem::take(&mut ctx.zero_length);
    Ok(ReadOutput { format: Some(format), corpus, warnings: ctx.into_warnings(), zero_length })
}

/// Whether nobody speaks in `corpus`: no recording holds a segment or an untimed utterance
/// (an empty file, a header alone, every line dropped). Readers note it ([`EMPTY_INPUT`]); the
/// command line refuses such an input where it describes speech.
pub fn holds_no_speech(corpus: &Corpus) -> bool {
    corpus.iter().all(|(_, t)| t.utterances().next().is_none() && t.untimed().is_empty())
}

/// The note on an input in which nobody speaks ([`read_str`]).
pub const EMPTY_INPUT: &str = "the input holds no speech (no segment, turn or word): an empty \
     file or an empty result, so what is made from it has no speakers";

/// A speaker label as it can be shown: each line break or tab becomes a space, and every other
/// control character (NUL, ESC, BEL, DEL, C1 controls) becomes U+FFFD; `None` when the label
/// holds none. A label is printed in tables, reports and terminals, where a control character
/// is invisible (`A` and `A\0` print alike), breaks the line, or is obeyed (`\x1b[2J` clears
/// the screen of whoever runs `overtalk analyze`).
pub fn shown_label(name: &str) -> Option<String> {
    if !name.chars().any(char::is_control) {
        return None;
    }
    let shown: String = name
        .chars()
        .map(|c| match c {
            '\t' | '\n' | '\r' | '\u{b}' | '\u{c}' | '\u{85}' => ' ',
            c if c.is_control() => '\u{fffd}',
            c => c,
        })
        .collect();
    // `Ana\n` shows as `Ana`, as the label it prints like (and is merged with, if both occur);
    // runs of breaks show as one space.
    let mut out = String::with_capacity(shown.len());
    for word in shown.split(' ').filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    if out.is_empty() {
        out.push('\u{fffd}');
    }
    Some(out)
}

/// Gives every speaker label that holds control characters its [`shown_label`], with a repair
/// warning per label (so an error under `--strict`), the same for the zero-length segments
/// kept aside.
fn show_speakers(corpus: Corpus, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let mut renamed: Vec<(String, String, String)> = Vec::new();
    for (id, t) in corpus.iter() {
        let names: Vec<&str> = t.annotation().speakers().iter().map(|(_, n)| n).collect();
        for &name in &names {
            if let Some(shown) = shown_label(name) {
                let merged = if names.contains(&shown.as_str()) {
                    ", the label of another speaker: the two are one speaker"
                } else {
                    ""
                };
                ctx.warn(Warning::new(
                    WarningKind::Repaired,
                    format!("{id}: speaker {name:?} holds control characters (a line break, a tab, NUL, an escape); read as {shown:?}{merged}"),
                ))?;
                renamed.push((id.to_owned(), name.to_owned(), shown));
            }
        }
    }
    if renamed.is_empty() {
        return Ok(corpus);
    }
    for z in &mut ctx.zero_length {
        if let Some(shown) = shown_label(&z.speaker) {
            z.speaker = shown;
        }
    }
    Ok(corpus.map(|id, t| {
        let map: std::collections::HashMap<String, String> = renamed
            .iter()
            .filter(|(r, _, _)| r == id)
            .map(|(_, from, to)| (from.clone(), to.clone()))
            .collect();
        if map.is_empty() {
            t
        } else {
            t.rename(&map)
        }
    }))
}

fn report_self_overlap(id: &str, t: &Transcript, ctx: &mut ReadContext<'_>) -> Result<()> {
    for w in self_overlap_warnings(id, t) {
        ctx.warn(w)?;
    }
    Ok(())
}

/// The check every reader gets, for a transcript made elsewhere (built in memory, say): one
/// [`WarningKind::SelfOverlap`] note per speaker whose segments overlap each other, with how
/// many times and where first (`id` names the recording in the message).
pub fn self_overlap_warnings(id: &str, t: &Transcript) -> Vec<Warning> {
    let a = t.annotation();
    let pairs = a.self_overlaps();
    let mut per_speaker: std::collections::BTreeMap<&str, (usize, Segment)> = Default::default();
    for (x, y) in &pairs {
        let e = per_speaker.entry(a.speaker_name(x.speaker)).or_insert((0, y.segment));
        e.0 += 1;
    }
    per_speaker
        .into_iter()
        .map(|(name, (n, first))| {
            Warning::new(
                WarningKind::SelfOverlap,
                format!("{id}: speaker {name:?} overlaps themselves {n} time(s), first at {first}; scorers and analysis merge these"),
            )
        })
        .collect()
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
    let format = detect(name, &text, explicit).map_err(|e| {
        overlong_line(&text, options.limits.max_line_bytes).map_or(e, |(line, bytes)| {
            Error::limit(format!(
                "line {line} is {bytes} bytes long, more than the limit of {} bytes, and the format cannot be told from the rest of the input; name it with --from",
                options.limits.max_line_bytes
            ))
        })
    })?;
    let mut out = read_str(&text, format, options)?;
    if let Some(note) = note {
        out.warnings.insert(0, note);
    }
    Ok(out)
}

/// The first line of `text` longer than `max` bytes: its 1-based number and its length. An
/// input whose format cannot be told but that holds such a line (one line of megabytes, as a
/// minified document or a dump gives) is refused for the line, as a reader refuses it
/// ([`Limits::max_line_bytes`]), so that a file and the same bytes on standard input are
/// refused alike, for what is wrong.
fn overlong_line(text: &str, max: usize) -> Option<(usize, usize)> {
    let mut lines = Lines { rest: text, line: 0, max, format: Format::Paragraphs };
    loop {
        let before = lines.rest;
        match lines.next()? {
            Ok(_) => {}
            Err(_) => {
                let bytes = before.find(['\n', '\r']).unwrap_or(before.len());
                return Some((lines.line, bytes));
            }
        }
    }
}

/// Reads a file; the recording id of single-recording formats defaults to the file name without
/// its extension. Errors carry the path.
pub fn read_path(
    path: &Path,
    explicit: Option<Format>,
    options: &ReadOptions,
) -> Result<ReadOutput> {
    let bytes = read_file(path, &options.limits)?;
    read_path_bytes(path, &bytes, explicit, options)
}

/// The bytes of the file at `path`, read once and never more than `limits.max_bytes` of them
/// (an error beyond). Reading once is what makes a named pipe work (`<(command)`,
/// `/dev/stdin`): a second open would miss what the first read took. Errors carry the path.
pub fn read_file(path: &Path, limits: &Limits) -> Result<Vec<u8>> {
    let file = std::fs::File::open(path).map_err(|e| Error::from(e).with_path(path))?;
    // A regular file says its size up front; a pipe is read up to the limit.
    let declared = file.metadata().map(|m| m.is_file().then_some(m.len())).ok().flatten();
    if let Some(len) = declared.filter(|&len| len > limits.max_bytes as u64) {
        return Err(Error::limit(format!(
            "file is {len} bytes, more than the limit of {} bytes",
            limits.max_bytes
        ))
        .with_path(path));
    }
    read_limited(file, declared, limits.max_bytes).map_err(|e| e.with_path(path))
}

/// Everything `reader` gives, or a limit error as soon as it gives more than `max` bytes
/// (`size` is what it declares, a regular file's length, for the first allocation). Memory
/// never holds more than `max` bytes and one block: `read_to_end` of `max + 1` bytes doubles a
/// full buffer for the last byte, so a stream without end (`/dev/zero`, `yes |`) held twice the
/// limit (2 GiB at the default 1 GiB) before it was refused.
pub fn read_limited(mut reader: impl Read, size: Option<u64>, max: usize) -> Result<Vec<u8>> {
    let mut bytes: Vec<u8> = Vec::new();
    if let Some(size) = size {
        bytes.reserve_exact(usize::try_from(size).unwrap_or(max).min(max));
    }
    let mut block = vec![0u8; 64 * 1024];
    loop {
        let n = match reader.read(&mut block) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::from(e)),
        };
        if n > max - bytes.len() {
            return Err(Error::limit(format!("input is more than the limit of {max} bytes")));
        }
        if bytes.capacity() - bytes.len() < n {
            // Doubling, but never past the limit.
            let grow = bytes.capacity().max(n).min(max - bytes.len());
            bytes.reserve_exact(grow);
        }
        bytes.extend_from_slice(&block[..n]);
    }
}

/// [`read_path`] of bytes already read from `path` ([`read_file`]): the file name names the
/// format and, for single-recording formats, the recording id.
pub fn read_path_bytes(
    path: &Path,
    bytes: &[u8],
    explicit: Option<Format>,
    options: &ReadOptions,
) -> Result<ReadOutput> {
    let mut options = options.clone();
    if options.recording_id.is_none() {
        options.recording_id = Some(recording_id_from_path(path));
    }
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    read_bytes(bytes, name.as_deref(), explicit, &options).map_err(|e| e.with_path(path))
}

/// The recording id a file name implies: the name without its format extension
/// (`EN2002a.Mix-Headset.rttm` → `EN2002a.Mix-Headset`).
pub fn recording_id_from_path(path: &Path) -> String {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let lower = name.to_ascii_lowercase();
    for suffix in [".overtalk.json", ".seglst.json", ".textgrid"] {
        if lower.ends_with(suffix) {
            return name[..name.len() - suffix.len()].to_owned();
        }
    }
    match name.rsplit_once('.') {
        Some((stem, _)) if !stem.is_empty() => stem.to_owned(),
        _ => name,
    }
}

/// The longest file stem [`file_stem`] gives, in bytes: room for an extension and for the
/// hidden temporary name an atomic write uses, under the 255 bytes most file systems allow.
pub const MAX_FILE_STEM: usize = 180;

/// A recording id made safe as one file name in an output directory, the inverse of
/// [`recording_id_from_path`] for ids that are plain names. Ids are data (an RTTM's second
/// field): a path separator, a leading dot (`..`, a hidden file), a control character or an
/// overlong id would otherwise write outside the directory or fail. Each such character
/// becomes `_`, and the stem is cut at [`MAX_FILE_STEM`] bytes.
///
/// ```text
/// ES2004a        -> ES2004a
/// ../../victim   -> _._.._victim
/// /tmp/abs       -> _tmp_abs
/// a\b            -> a_b
/// ```
pub fn file_stem(recording_id: &str) -> String {
    let mut stem: String = recording_id
        .chars()
        .enumerate()
        .map(|(i, c)| match c {
            '/' | '\\' => '_',
            '.' if i == 0 => '_',
            c if c.is_control() => '_',
            c => c,
        })
        .collect();
    if stem.is_empty() {
        stem.push('_');
    }
    if stem.len() > MAX_FILE_STEM {
        let mut end = MAX_FILE_STEM;
        while !stem.is_char_boundary(end) {
            end -= 1;
        }
        stem.truncate(end);
    }
    stem
}

/// Writes `corpus` as `format`. Writers are canonical and strict: what they cannot represent is
/// an error, what they change (such as spaces in labels) is a warning.
pub fn write(corpus: &Corpus, format: Format, out: &mut dyn Write) -> Result<Vec<Warning>> {
    let w = format.spec().write.ok_or_else(|| {
        Error::unsupported(format!(
            "writing {format} is not supported (it is read only); overtalk writes {}",
            Format::writable_names()
        ))
    })?;
    if !format.holds_many_recordings() && corpus.len() > 1 {
        return Err(Error::unsupported(format!(
            "{format} holds one recording and the input has {}; write rttm or json, or one file per recording",
            corpus.len()
        )));
    }
    // A transcript without times written where only times can go would be an empty file.
    if !format.keeps_untimed() && !corpus.is_empty() && corpus.iter().all(|(_, t)| t.is_untimed()) {
        let (id, t) = corpus.iter().next().map_or(("", 0), |(id, t)| (id, t.untimed().len()));
        return Err(Error::unsupported(format!(
            "recording {id:?} is a transcript without times ({t} utterances in order); {format} holds timed segments only: write json, which keeps it"
        )));
    }
    let mut warnings = w(corpus, out)?;
    if !format.keeps_untimed() {
        for (id, t) in corpus.iter().filter(|(_, t)| !t.untimed().is_empty()) {
            warnings.push(Warning::new(
                WarningKind::Note,
                format!("recording {id:?}: {} utterance(s) without times left out: {format} holds timed segments only (json keeps them)", t.untimed().len()),
            ));
        }
    }
    Ok(warnings)
}

/// `names` as fields without spaces ([`no_spaces`]) that stay distinct: a name that would
/// become another one's field gets a suffix (`Mary Ann` beside `Mary_Ann` is written
/// `Mary_Ann_2`), so that two speakers (or recordings) are never merged by the writing. Each
/// change is a warning that says what it is (`what`, `speaker` or `recording id`) and why
/// (`format`'s fields cannot hold spaces); `prefix` starts it (the recording, for speakers).
pub(crate) fn distinct_fields<'a>(
    names: impl IntoIterator<Item = &'a str>,
    what: &str,
    format: &str,
    prefix: &str,
    warnings: &mut Vec<Warning>,
) -> Vec<String> {
    let names: Vec<&str> = names.into_iter().collect();
    let mut taken: std::collections::HashSet<String> =
        names.iter().filter(|n| !no_spaces(n).1).map(|n| (*n).to_owned()).collect();
    names
        .into_iter()
        .map(|name| {
            let (field, changed) = no_spaces(name);
            if !changed {
                return field;
            }
            let mut written = field.clone();
            let mut k = 2;
            while taken.contains(&written) {
                written = format!("{field}_{k}");
                k += 1;
            }
            taken.insert(written.clone());
            let clash = if written == field {
                String::new()
            } else {
                format!(", since {field:?} is another {what}'s")
            };
            warnings.push(Warning::new(
                WarningKind::Repaired,
                format!("{prefix}{what} {name:?} written as {written:?} ({format} fields cannot hold spaces{clash})"),
            ));
            written
        })
        .collect()
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
    fn file_stems_stay_in_their_directory() {
        for (id, stem) in [
            ("ES2004a", "ES2004a"),
            ("EN2002a.Mix-Headset", "EN2002a.Mix-Headset"),
            ("../../victim", "_._.._victim"),
            ("/tmp/abs", "_tmp_abs"),
            (".", "_"),
            ("..", "_."),
            ("a\\b", "a_b"),
            ("new\nline", "new_line"),
            ("", "_"),
        ] {
            assert_eq!(file_stem(id), stem, "{id:?}");
        }
        // Cut at a character boundary: 90 two-byte characters, then 89 and a one-byte one.
        assert_eq!(file_stem(&"é".repeat(200)), "é".repeat(90));
        assert_eq!(file_stem(&format!("a{}", "é".repeat(200))), format!("a{}", "é".repeat(89)));
    }

    /// A speaker label with control characters is read as it can be shown, with a repair
    /// warning: line breaks and tabs become spaces, NUL and escapes U+FFFD, so `A\0` is not
    /// printed as a second `A` and an escape sequence is not obeyed by a terminal.
    #[test]
    fn control_characters_in_speaker_labels_are_shown() {
        let rttm = "SPEAKER rec 1 0 1 <NA> <NA> A <NA> <NA>\n\
                    SPEAKER rec 1 2 1 <NA> <NA> A\0 <NA> <NA>\n\
                    SPEAKER rec 1 3 1 <NA> <NA> \x1b[2JB <NA> <NA>\n\
                    SPEAKER rec 1 4 0 <NA> <NA> \x1b[2JB <NA> <NA>\n";
        let out = read_str(rttm, Format::Rttm, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("rec").unwrap();
        let names: Vec<&str> = t.annotation().speakers().iter().map(|(_, n)| n).collect();
        assert_eq!(names, ["A", "A\u{fffd}", "\u{fffd}[2JB"]);
        let shown: Vec<(WarningKind, &str)> =
            out.warnings.iter().map(|w| (w.kind, w.message.as_str())).collect();
        assert_eq!(
            shown[1..],
            [
                (WarningKind::Repaired, "rec: speaker \"\\u{1b}[2JB\" holds control characters (a line break, a tab, NUL, an escape); read as \"\u{fffd}[2JB\""),
                (WarningKind::Repaired, "rec: speaker \"A\\0\" holds control characters (a line break, a tab, NUL, an escape); read as \"A\u{fffd}\""),
            ]
        );
        assert_eq!(out.zero_length[0].speaker, "\u{fffd}[2JB");
        // A trailing tab: the label it prints like (was `Ana ` beside `Ana`).
        let csv = "start,end,speaker\n0,1,\"Ana\t\"\n2,3,Ana\n";
        let out = read_str(csv, Format::Csv, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.annotation().speakers().iter().map(|(_, n)| n).collect::<Vec<_>>(), ["Ana"]);
        assert_eq!(shown_label("\t\n"), Some("\u{fffd}".to_owned()));
        assert_eq!(shown_label("Ana \t María"), Some("Ana María".to_owned()));
        // A line break in a quoted CSV cell: a space, and the same speaker as the label with one.
        let csv = "start,end,speaker\n0,1,\"Ana\nMaría\"\n2,3,Ana María\n";
        let out = read_str(csv, Format::Csv, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(
            t.annotation().speakers().iter().map(|(_, n)| n).collect::<Vec<_>>(),
            ["Ana María"]
        );
        assert!(
            out.warnings[0].message.ends_with(
                "read as \"Ana María\", the label of another speaker: the two are one speaker"
            ),
            "{:?}",
            out.warnings
        );
        // A repair: the error under --strict.
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        let e = read_str(rttm, Format::Rttm, &strict).unwrap_err();
        assert_eq!(
            e.to_string(),
            "rttm: rec: speaker \"\\u{1b}[2JB\" holds control characters (a line break, a tab, NUL, an escape)"
        );
    }

    /// A stream is read up to the limit and refused past it, without more than the limit and
    /// one block in memory, whatever it declares.
    #[test]
    fn streams_are_read_up_to_the_limit() {
        use std::io::Read as _;
        let max = 200_000;
        let exact = read_limited(std::io::repeat(7).take(max as u64), None, max).unwrap();
        assert_eq!(exact.len(), max);
        assert!(exact.capacity() <= max, "{}", exact.capacity());
        let declared = read_limited(&b"abc"[..], Some(3), max).unwrap();
        assert_eq!((declared.as_slice(), declared.capacity()), (&b"abc"[..], 3));
        for (size, declared) in
            [(None, "none"), (Some(10), "too little"), (Some(u64::MAX), "too much")]
        {
            let e = read_limited(std::io::repeat(0), size, max).unwrap_err();
            assert_eq!(
                e.to_string(),
                "limit exceeded: input is more than the limit of 200000 bytes",
                "{declared}"
            );
        }
    }

    /// An empty input whose name does not say its format is called empty, not of an unknown
    /// format to be named with `--from`.
    #[test]
    fn an_empty_input_is_called_empty() {
        for (name, text, shown) in [
            (None, "", "the input is empty: no transcript or diarization to read"),
            (Some("a.json"), "", "the input is empty: no transcript or diarization to read"),
            (
                Some("a.txt"),
                "\u{feff} \r\n\t\n",
                "the input holds no text (only white space or a byte-order mark): no transcript or diarization to read",
            ),
        ] {
            assert_eq!(detect(name, text, None).unwrap_err().to_string(), shown, "{text:?}");
        }
    }

    /// TTML and ASS/SSA subtitles are named as formats that are not read, whatever their file
    /// is called; XML with another root, and a line that only mentions `[Script Info]`, are not.
    #[test]
    fn unread_subtitle_formats_are_named() {
        let ttml = "unsupported: TTML subtitles (XML with a `<tt>` root: .ttml, .dfxp) are not read; convert them to WebVTT or SRT first";
        let ass =
            "unsupported: ASS/SSA subtitles (`[Script Info]`) are not read; convert them to WebVTT or SRT first";
        for (name, text, shown) in [
            (
                Some("a.ttml"),
                "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- made by hand -->\n<tt xmlns=\"http://www.w3.org/ns/ttml\" xml:lang=\"en\">\n<body><div><p begin=\"00:00:01.000\" end=\"00:00:02.000\">Hi</p></div></body></tt>\n",
                ttml,
            ),
            (Some("a.dfxp"), "\u{feff}<tt:tt xmlns:tt=\"http://www.w3.org/ns/ttml\">\n<tt:body/></tt:tt>", ttml),
            (None, "<tt>\n</tt>\n", ttml),
            (
                Some("a.ass"),
                "[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,Ann,0,0,0,,Hi\nDialogue: 0,0:00:02.00,0:00:03.00,Default,Bob,0,0,0,,Hello\n",
                ass,
            ),
            (None, "\u{feff}[script info]\r\nTitle: x\r\n", ass),
        ] {
            assert_eq!(detect(name, text, None).unwrap_err().to_string(), shown, "{text:?}");
        }
        assert_eq!(unread_subtitles("<ttx>\n</ttx>"), None);
        assert_eq!(unread_subtitles("<html><tt>code</tt></html>"), None);
        assert_eq!(unread_subtitles("Title\n[Script Info]\n"), None);
        assert_eq!(unread_subtitles("<tt"), None);
    }

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

    /// A few words of Spanish or Portuguese that the detector calls Central European
    /// (`Sí señor` as `Sí seńor`) are read as windows-1252 by their spelling (`ñ` before a
    /// vowel, `ão`/`ãe`), and the short Central European phrases it reads right stay as they
    /// are, those whose letters a Western reading would also spell (`ę` as `ê`, `Č` as `È`,
    /// `ă` as `ã`) among them.
    #[test]
    fn western_spelling_settles_a_short_central_european_guess() {
        let opts = ReadOptions::default();
        let encode = |text: &str, encoding: &'static encoding_rs::Encoding| {
            let (bytes, _, unmappable) = encoding.encode(text);
            assert!(!unmappable, "{text}");
            bytes.into_owned()
        };
        let guessed = |bytes: &[u8]| {
            let mut detector =
                chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            detector.feed(bytes, true);
            detector.guess(None, chardetng::Utf8Detection::Deny)
        };
        for text in ["Sí señor", "Mãe"] {
            let bytes = encode(text, encoding_rs::WINDOWS_1252);
            // What the detector alone says, and what is read.
            assert_eq!(guessed(&bytes), encoding_rs::WINDOWS_1250, "{text}");
            let (decoded, note) = decode_text(&bytes, "lab", &opts, true).unwrap();
            assert_eq!(decoded, text);
            assert!(note.unwrap().message.contains("decoded as windows-1252,"), "{text}");
        }
        for text in [
            "Dziękuję",
            "Się",
            "Česko",
            "Pět",
            "Bună ziua",
            "Vă rog",
            "Zażółć gęślą jaźń.",
            "Cześć, jak się masz? Dziękuję, dobrze.",
            "Wójt gminy powiedział, że szkoła będzie otwarta.",
            "Příliš žluťoučký kůň úpěl ďábelské ódy.",
            "Řekl mi, že přijde zítra.",
            "Hvala, laku noć. Čovjek je došao.",
        ] {
            let bytes = encode(text, encoding_rs::WINDOWS_1250);
            assert_eq!(guessed(&bytes), encoding_rs::WINDOWS_1250, "{text}");
            assert_eq!(decode_text(&bytes, "lab", &opts, true).unwrap().0, text);
        }
        // French, Italian and German phrases, and Hungarian and Slovak ones: the spelling
        // leaves the detector's guess as it is (right or wrong: it reads the Slovak one as
        // windows-1252 either way).
        for (text, encoding) in [
            ("Très bien, merci.", encoding_rs::WINDOWS_1252),
            ("Grazie mille, però no.", encoding_rs::WINDOWS_1252),
            ("Schöne Grüße aus München.", encoding_rs::WINDOWS_1252),
            ("Köszönöm szépen, jó napot kívánok.", encoding_rs::WINDOWS_1250),
            ("Ďakujem, dobrý deň, ako sa máš?", encoding_rs::WINDOWS_1250),
        ] {
            let bytes = encode(text, encoding);
            assert!(!western_spelling(&bytes, guessed(&bytes)), "{text}");
        }
        let iso = encode("Dzień dobry, proszę pana. Zażółć gęślą jaźń.", encoding_rs::ISO_8859_2);
        assert_eq!(
            decode_text(&iso, "lab", &opts, true).unwrap().0,
            "Dzień dobry, proszę pana. Zażółć gęślą jaźń."
        );
        // `ń` at a word's end (`Poznań`), as Polish writes it, is no Western spelling.
        assert!(!western_spelling(b"Pozna\xf1 \xb3", encoding_rs::WINDOWS_1250));
        assert!(western_spelling(b"\xbfQu\xe9?", encoding_rs::WINDOWS_1250));
        assert!(!western_spelling(b"\xbfe", encoding_rs::WINDOWS_1250));
        assert!(!western_spelling(b"se\xf1or", encoding_rs::WINDOWS_1252));
        // Capitals: Portuguese `NÃO` is Western; ISO-8859-2's `Ą` before a capital (`PIĄTEK`)
        // is Polish, though windows-1252 reads its byte as `¡`.
        assert!(western_spelling(b"N\xc3O", encoding_rs::WINDOWS_1250));
        assert!(!western_spelling(b"PI\xa1TEK", encoding_rs::ISO_8859_2));
        assert!(western_spelling(b"\xa1Hola", encoding_rs::WINDOWS_1250));
    }

    /// French and Portuguese words in a legacy single-byte file whose Central European reading
    /// spells no one language (`Hélčne` and `fenętre`: Czech `č`, Polish `ę`) are read as
    /// windows-1252; before, the detector's windows-1250 stood and the words came out so. The
    /// Central European texts keep their encoding, and one word alone keeps the guess.
    #[test]
    fn letters_of_no_one_central_language_are_western() {
        let opts = ReadOptions::default();
        let encode = |text: &str, encoding: &'static encoding_rs::Encoding| {
            let (bytes, _, unmappable) = encoding.encode(text);
            assert!(!unmappable, "{text}");
            bytes.into_owned()
        };
        for text in [
            "Hélène: Fermez la fenêtre, s'il vous plaît.",
            "Fenêtre\nHélène\n",
            "Hélène: Très bien, merci. Marie: La fenêtre est ouverte.",
        ] {
            for encoding in [encoding_rs::WINDOWS_1252, encoding_rs::WINDOWS_1254] {
                let bytes = encode(text, encoding);
                let (decoded, note) = decode_text(&bytes, "lab", &opts, true).unwrap();
                assert_eq!(decoded, text);
                assert!(note.unwrap().message.contains("decoded as windows-1252,"), "{text}");
            }
        }
        // Hungarian's `ő` and `ű`, read by the detector as windows-1252 (`Árvíztûrõ`): read as
        // windows-1250; Portuguese `õ` or French `û` alone, or with other Western letters,
        // stay windows-1252.
        for encoding in [encoding_rs::WINDOWS_1250, encoding_rs::ISO_8859_2] {
            let text =
                "Anna: Jó napot kívánok. Péter: Köszönöm, jól vagyok. Árvíztűrő tükörfúrógép.";
            let (decoded, note) = decode_text(&encode(text, encoding), "lab", &opts, true).unwrap();
            assert_eq!(decoded, text);
            assert!(note.unwrap().message.contains("decoded as windows-1250,"), "{text}");
        }
        for text in [
            "As ações e os corações.",
            "C'est sûr, il a dû partir.",
            "Où est la flûte? Très sûr, à côté.",
        ] {
            let (decoded, _) =
                decode_text(&encode(text, encoding_rs::WINDOWS_1252), "lab", &opts, true).unwrap();
            assert_eq!(decoded, text);
        }
        // One word alone: the Czech-looking `Hélčne`, the Polish-looking `Fenętre`.
        assert!(!no_one_central_language(
            &encode("Hélène", encoding_rs::WINDOWS_1252),
            encoding_rs::WINDOWS_1250
        ));
        assert!(!no_one_central_language(
            &encode("Fenêtre", encoding_rs::WINDOWS_1252),
            encoding_rs::WINDOWS_1250
        ));
        for text in [
            "Anna: Dzień dobry, proszę pana. Jan: Zażółć gęślą jaźń.",
            "Petr: Dobrý den, jak se máte? Jana: Děkuji, dobře.",
            "Příliš žluťoučký kůň úpěl ďábelské ódy.",
            "Hvala, laku noć. Čovjek je došao.",
            "Bună ziua, vă rog, mulţumesc.",
            "Köszönöm szépen. Árvíztűrő tükörfúrógép.",
            "Ďakujem, dobrý deň, ako sa máš? Ľúbim ťa.",
        ] {
            for encoding in [encoding_rs::WINDOWS_1250, encoding_rs::ISO_8859_2] {
                let bytes = encode(text, encoding);
                assert!(!no_one_central_language(&bytes, encoding), "{text} {}", encoding.name());
            }
        }
    }

    #[test]
    fn utf16_without_a_byte_order_mark_is_recognised() {
        let opts = ReadOptions::default();
        let text = "start,end,speaker\n0,1.5,Zoë\n";
        let le: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let be: Vec<u8> = text.encode_utf16().flat_map(u16::to_be_bytes).collect();
        for (bytes, name, guess) in [(&le, "UTF-16LE", true), (&be, "UTF-16BE", false)] {
            let (decoded, note) = decode_text(bytes, "csv", &opts, guess).unwrap();
            assert_eq!(decoded, text);
            let note = note.unwrap();
            assert_eq!((note.kind, note.line), (WarningKind::Encoding, None));
            assert_eq!(
                note.message,
                format!("no byte-order mark, but NUL bytes as in UTF-16 text: decoded as {name}; name another with --encoding")
            );
        }
        // Read as a file: the columns are found, the note comes first.
        let out = read_bytes(&le, Some("t.csv"), None, &opts).unwrap();
        assert_eq!(out.warnings[0].kind, WarningKind::Encoding);
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.annotation().tracks()[0].segment, Segment::from_millis(0, 1500).unwrap());
        assert_eq!(t.annotation().speaker_name(t.annotation().tracks()[0].speaker), "Zoë");
        // One NUL, or NUL bytes in no pattern, are no UTF-16; nor is a single code unit.
        assert_eq!(utf16_without_bom(b"a\0b\xff"), None);
        assert_eq!(utf16_without_bom(b"\0\0\0\0ab"), None);
        assert_eq!(utf16_without_bom(b"a\0"), None);
        // Named explicitly, the encoding wins.
        let latin1 = ReadOptions { encoding: Some("latin1".into()), ..Default::default() };
        assert_eq!(decode_text(b"a\0b\0", "srt", &latin1, true).unwrap().0, "a\0b\0");
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
            WarningKind::ZeroDuration,
            WarningKind::SelfOverlap,
            WarningKind::MissingSpeaker,
            WarningKind::Note,
            WarningKind::Encoding,
        ] {
            ctx.warn_at(kind, 2, None, "fine").unwrap();
        }
        for kind in [
            WarningKind::NegativeDuration,
            WarningKind::MissingTime,
            WarningKind::Skipped,
            WarningKind::Repaired,
        ] {
            assert!(ctx.warn_at(kind, 3, None, "broken").is_err(), "{kind:?}");
        }
        assert_eq!(ctx.into_warnings().len(), 6);
    }

    #[test]
    fn zero_length_items_are_counted_in_one_warning() {
        let opts = ReadOptions::default();
        let mut ctx = ReadContext::new(Format::Ctm, &opts);
        for line in 3..66 {
            ctx.warn_at(
                WarningKind::ZeroDuration,
                line,
                Some(1),
                "zero-length segment at 0.000 dropped",
            )
            .unwrap();
        }
        ctx.warn_at(WarningKind::Note, 70, None, "other").unwrap();
        let w = ctx.into_warnings();
        assert_eq!(w.len(), 2);
        assert_eq!((w[0].kind, w[0].line), (WarningKind::ZeroDuration, Some(3)));
        assert_eq!(
            w[0].message,
            "zero-length segment at 0.000 dropped; and 62 more zero-length item(s) after it, dropped"
        );
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

/// What the readers' unit tests compare.
#[cfg(test)]
pub(crate) mod test_support {
    use super::ReadOutput;
    use crate::model::Content;

    /// `(start µs, end µs, speaker, text)` of every track of recording `id`, in time order.
    pub(crate) fn tracks_with_text(out: &ReadOutput, id: &str) -> Vec<(i64, i64, String, String)> {
        let Some(t) = out.corpus.get(id) else { panic!("no recording {id:?}") };
        t.utterances()
            .map(|u| {
                (
                    u.segment.start().micros(),
                    u.segment.end().micros(),
                    u.speaker_name.to_owned(),
                    u.content.map(Content::display_text).unwrap_or_default(),
                )
            })
            .collect()
    }
}
