//! One error type for the library, and the warnings that lenient readers return.
//!
//! Errors say where: a parse error names the format, the line and the column (1-based), and the
//! caller adds the path with [`Error::with_path`]. Warnings are values returned beside a result,
//! never printed by the library. Each kind has a [`Severity`]: a *note* informs about a well-formed
//! input (no speaker labels, lines out of order, a tier left out) and stays a warning under
//! `--strict`; a *repair* says the input was malformed and was changed or partly skipped, and
//! `--strict` turns the first one into an error ([`Warning::into_error`]).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// A library error: what went wrong ([`ErrorKind`]), when known in which file, and the error
/// it came from ([`std::error::Error::source`]), so a front end can show the chain or map the
/// cause (a Python exception, a live session's retry).
#[derive(Debug)]
pub struct Error {
    kind: ErrorKind,
    path: Option<PathBuf>,
    cause: Option<Box<dyn std::error::Error + Send + Sync + 'static>>,
}

/// What a caller can do after an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Recovery {
    /// The error is about one input (malformed, refused, over a limit): skip it and go on
    /// with the others; a live session drops the block and keeps listening.
    SkipInput,
    /// Reading or writing failed, or a model the work needs is unusable: the caller cannot go
    /// on with this source or sink (nor, for a model, with any input until it is installed
    /// again).
    Fatal,
}

/// What went wrong.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Reading or writing failed.
    Io(io::Error),
    /// The input does not follow its format.
    Parse {
        /// The format being read (`"rttm"`, `"webvtt"`, …).
        format: &'static str,
        /// 1-based line number (0 when unknown).
        line: usize,
        /// 1-based column number, in characters (0 when unknown).
        column: usize,
        /// What was expected or found.
        message: String,
    },
    /// A value is well formed but not acceptable (for example `end < start` under `--strict`).
    Invalid(String),
    /// A configured limit was exceeded (file size, line length, nesting depth, duration).
    Limit(String),
    /// The input or request is of a kind overtalk does not handle.
    Unsupported(String),
    /// A recording cannot be decoded: its container or codec is not one overtalk reads, or
    /// its data is cut short or corrupt.
    Recording {
        /// What is wrong with the recording.
        problem: RecordingProblem,
        /// What was found, in words about the input.
        message: String,
    },
    /// A model file cannot be used: it is missing, fails its hash, is cut short, holds a
    /// tensor of the wrong shape or is not a model at all. The message says what to download
    /// and where.
    Model {
        /// What is wrong with the model.
        problem: ModelProblem,
        /// What was found and what to do about it.
        message: String,
    },
    /// A recording cannot be resampled to the analysis rate.
    Resampling {
        /// Whether the rate was refused or the resampler failed.
        problem: ResamplingProblem,
        /// What failed.
        message: String,
    },
}

/// What is wrong with a recording that cannot be decoded ([`ErrorKind::Recording`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum RecordingProblem {
    /// The file is not in a container overtalk reads, or has no audio track in one.
    Container,
    /// The audio track's codec (or a feature of it) is not one overtalk decodes.
    Codec,
    /// The file ends early: cut short, or never finalised (an interrupted recording).
    Truncated,
    /// The file or its audio is empty.
    Empty,
    /// The data is malformed: a header, a packet or a declared value makes no sense.
    Corrupt,
}

/// What is wrong with a model file ([`ErrorKind::Model`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ModelProblem {
    /// The model, one of its files or one of its tensors is not there.
    Missing,
    /// A file's SHA-256 is not the published or installed one.
    Hash,
    /// A file ends early.
    Truncated,
    /// A tensor, input or output has the wrong shape.
    Shape,
    /// The file is not a readable model of the kind expected (or gives unusable values).
    Malformed,
}

/// Why a recording cannot be resampled ([`ErrorKind::Resampling`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ResamplingProblem {
    /// The sample rate is not one a resampler can start from (0 Hz).
    Rate,
    /// The resampler failed on the recording's samples.
    Failed,
}

/// `Result` with the library's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// A new error of the given kind, without a path.
    pub fn new(kind: ErrorKind) -> Error {
        Error { kind, path: None, cause: None }
    }

    /// A parse error at `line`:`column` (1-based) of a `format` input.
    pub fn parse(
        format: &'static str,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> Error {
        Error::new(ErrorKind::Parse { format, line, column, message: message.into() })
    }

    /// An invalid-value error.
    pub fn invalid(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Invalid(message.into()))
    }

    /// A limit error.
    pub fn limit(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Limit(message.into()))
    }

    /// An unsupported-input error.
    pub fn unsupported(message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Unsupported(message.into()))
    }

    /// A recording that cannot be decoded.
    pub fn recording(problem: RecordingProblem, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Recording { problem, message: message.into() })
    }

    /// A model file that cannot be used.
    pub fn model(problem: ModelProblem, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Model { problem, message: message.into() })
    }

    /// A recording that cannot be resampled.
    pub fn resampling(problem: ResamplingProblem, message: impl Into<String>) -> Error {
        Error::new(ErrorKind::Resampling { problem, message: message.into() })
    }

    /// Keeps `cause` as this error's [`source`](std::error::Error::source). The message is
    /// unchanged: it already says what the cause said, in words about the input.
    pub fn with_source(
        mut self,
        cause: impl Into<Box<dyn std::error::Error + Send + Sync + 'static>>,
    ) -> Error {
        self.cause = Some(cause.into());
        self
    }

    /// Whether the caller may skip the input and go on ([`Recovery::SkipInput`]: this input
    /// is malformed, refused, over a limit, cannot be decoded or resampled) or must stop
    /// ([`Recovery::Fatal`]: reading or writing failed, or a model is unusable, which every
    /// other input would meet too).
    pub fn recovery(&self) -> Recovery {
        match self.kind {
            ErrorKind::Io(_) | ErrorKind::Model { .. } => Recovery::Fatal,
            ErrorKind::Parse { .. }
            | ErrorKind::Invalid(_)
            | ErrorKind::Limit(_)
            | ErrorKind::Unsupported(_)
            | ErrorKind::Recording { .. }
            | ErrorKind::Resampling { .. } => Recovery::SkipInput,
        }
    }

    /// Attaches the path of the file the error is about (kept if one is already set).
    pub fn with_path(mut self, path: impl AsRef<Path>) -> Error {
        if self.path.is_none() {
            self.path = Some(path.as_ref().to_path_buf());
        }
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The file the error is about, if known.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// The line (1-based) of a parse error.
    pub fn line(&self) -> Option<usize> {
        match self.kind {
            ErrorKind::Parse { line, .. } if line > 0 => Some(line),
            _ => None,
        }
    }

    /// The column (1-based) of a parse error.
    pub fn column(&self) -> Option<usize> {
        match self.kind {
            ErrorKind::Parse { column, .. } if column > 0 => Some(column),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    /// `path:line:column: format: message`, as compilers print it, so editors can jump there.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.path {
            write!(f, "{}", p.display())?;
        }
        match &self.kind {
            ErrorKind::Parse { format, line, column, message } => {
                if self.path.is_some() {
                    if *line > 0 {
                        write!(f, ":{line}")?;
                        if *column > 0 {
                            write!(f, ":{column}")?;
                        }
                    }
                    write!(f, ": ")?;
                } else if *line > 0 {
                    write!(f, "line {line}")?;
                    if *column > 0 {
                        write!(f, ", column {column}")?;
                    }
                    write!(f, ": ")?;
                }
                write!(f, "{format}: {message}")
            }
            other => {
                if self.path.is_some() {
                    write!(f, ": ")?;
                }
                match other {
                    ErrorKind::Io(e) => write!(f, "{}", io_message(e)),
                    ErrorKind::Invalid(m) => write!(f, "{m}"),
                    ErrorKind::Limit(m) => write!(f, "limit exceeded: {m}"),
                    ErrorKind::Unsupported(m) => write!(f, "unsupported: {m}"),
                    // A container or codec overtalk does not read is said as unsupported
                    // input is; the other problems are said as they are.
                    ErrorKind::Recording {
                        problem: RecordingProblem::Container | RecordingProblem::Codec,
                        message,
                    } => write!(f, "unsupported: {message}"),
                    ErrorKind::Recording { message, .. }
                    | ErrorKind::Model { message, .. }
                    | ErrorKind::Resampling { message, .. } => write!(f, "{message}"),
                    ErrorKind::Parse { .. } => Ok(()),
                }
            }
        }
    }
}

/// A system error as the messages around it are written: lower case and without the
/// `(os error 2)` the standard library appends (`x.wav: no such file or directory`, not
/// `x.wav: No such file or directory (os error 2)`), so that a missing file reads alike
/// whichever option named it. An error made with a message of its own keeps that message.
pub fn io_message(e: &io::Error) -> String {
    if e.raw_os_error().is_none() {
        return e.to_string();
    }
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".to_owned(),
        io::ErrorKind::PermissionDenied => "permission denied".to_owned(),
        io::ErrorKind::IsADirectory => "is a directory, not a file".to_owned(),
        io::ErrorKind::NotADirectory => "a component of the path is not a directory".to_owned(),
        _ => {
            let text = e.to_string();
            let text = match text.rfind(" (os error ") {
                Some(at) if text.ends_with(')') => text[..at].to_owned(),
                _ => text,
            };
            let mut chars = text.chars();
            match chars.next() {
                Some(first) => first.to_lowercase().chain(chars).collect(),
                None => text,
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Io(e) => Some(e),
            _ => self.cause.as_deref().map(|c| c as &(dyn std::error::Error + 'static)),
        }
    }
}

impl From<io::Error> for Error {
    fn from(e: io::Error) -> Error {
        Error::new(ErrorKind::Io(e))
    }
}

/// The kind of a non-fatal problem found while reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum WarningKind {
    /// Lines are not in time order (they are sorted on reading).
    Unsorted,
    /// A segment has zero duration (it is dropped: it holds no talk). Well formed in every
    /// format read (Audacity point labels, CTM tokens of duration 0, a caption cue of no
    /// length), so a note; one warning per file counts them.
    ZeroDuration,
    /// A segment ends before it starts (it is dropped).
    NegativeDuration,
    /// A speaker's segments overlap each other.
    SelfOverlap,
    /// A segment has no speaker (it gets a placeholder speaker or is dropped, as stated).
    MissingSpeaker,
    /// A time is `NaN` or missing (the item is dropped or kept without times, as stated).
    MissingTime,
    /// A line or element was not understood and was skipped.
    Skipped,
    /// A value was changed to be usable (for example a field with spaces).
    Repaired,
    /// Something the format allows but a consumer may treat differently.
    Note,
    /// The text was not UTF-8 and was decoded from the legacy encoding named in the message.
    Encoding,
}

impl WarningKind {
    /// Every value, in documentation order.
    pub const ALL: [WarningKind; 10] = [
        WarningKind::Unsorted,
        WarningKind::ZeroDuration,
        WarningKind::NegativeDuration,
        WarningKind::SelfOverlap,
        WarningKind::MissingSpeaker,
        WarningKind::MissingTime,
        WarningKind::Skipped,
        WarningKind::Repaired,
        WarningKind::Note,
        WarningKind::Encoding,
    ];
}

crate::named::named_enum!(WarningKind, "warning kind");

/// What a warning says about the input, which decides what `--strict` does with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Severity {
    /// Information about a well-formed input (speakers not labelled, lines out of order, a tier
    /// that is not a speaker left out): `--strict` keeps it a warning.
    Note,
    /// The input breaks its format and was repaired, or part of it was skipped: `--strict`
    /// rejects it.
    Repair,
}

impl Severity {
    /// Every value, in documentation order.
    pub const ALL: [Severity; 2] = [Severity::Note, Severity::Repair];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Repair => "repair",
        }
    }
}

crate::named::named_enum!(Severity, "warning severity");

impl WarningKind {
    /// A short stable name (`unsorted`, `zero-duration`, …) for reports and JSON.
    pub fn name(self) -> &'static str {
        match self {
            WarningKind::Unsorted => "unsorted",
            WarningKind::ZeroDuration => "zero-duration",
            WarningKind::NegativeDuration => "negative-duration",
            WarningKind::SelfOverlap => "self-overlap",
            WarningKind::MissingSpeaker => "missing-speaker",
            WarningKind::MissingTime => "missing-time",
            WarningKind::Skipped => "skipped",
            WarningKind::Repaired => "repaired",
            WarningKind::Note => "note",
            WarningKind::Encoding => "encoding",
        }
    }

    /// Whether this kind informs about valid input or reports a repair of malformed input.
    ///
    /// Lines out of order, zero-length items, a speaker overlapping themselves, segments
    /// without speaker labels, notes and a legacy encoding are all things a well-formed file
    /// of some format may have; everything else (negative durations, missing times, skipped or
    /// repaired lines) means the file breaks its format.
    pub fn severity(self) -> Severity {
        match self {
            WarningKind::Unsorted
            | WarningKind::ZeroDuration
            | WarningKind::SelfOverlap
            | WarningKind::MissingSpeaker
            | WarningKind::Note
            | WarningKind::Encoding => Severity::Note,
            WarningKind::NegativeDuration
            | WarningKind::MissingTime
            | WarningKind::Skipped
            | WarningKind::Repaired => Severity::Repair,
        }
    }
}

/// A non-fatal problem found while reading, with where it was found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// What kind of problem.
    pub kind: WarningKind,
    /// 1-based line, when the format has lines.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
    /// A sentence saying what was found and what was done about it.
    pub message: String,
}

impl Warning {
    /// A warning without a position.
    pub fn new(kind: WarningKind, message: impl Into<String>) -> Warning {
        Warning { kind, line: None, column: None, message: message.into() }
    }

    /// A warning at a line (and optionally a column).
    pub fn at(
        kind: WarningKind,
        line: usize,
        column: Option<usize>,
        message: impl Into<String>,
    ) -> Warning {
        Warning { kind, line: Some(line), column, message: message.into() }
    }

    /// Whether the warning is a note or a repair ([`WarningKind::severity`]).
    pub fn severity(&self) -> Severity {
        self.kind.severity()
    }

    /// The error `--strict` reports for this warning. Under `--strict` the file is refused
    /// and nothing is skipped, read or repaired, so what the message says the lenient reading
    /// does is left off (see `strict_message`): the error says what is wrong, and only that.
    pub fn into_error(self, format: &'static str) -> Error {
        let message = strict_message(&self.message);
        Error::parse(format, self.line.unwrap_or(0), self.column.unwrap_or(0), message)
    }
}

/// What a lenient reading does with what it warns about, as the closing clause of a warning
/// (`…; line skipped`, `…; read so`, `…; interpolated between …`) says it.
const LENIENT_CLAUSES: [&str; 13] = [
    "read so",
    "the separator was taken as ",
    "read as ",
    "interpolated ",
    "taken from ",
    "its span is taken ",
    "its first alternative is read",
    "the later one is kept",
    "the paragraph is kept",
    "the string ends at the quote",
    "kept without times",
    "not kept",
    "left out",
];

/// Participles that say an item was passed over (`line after @End skipped`, `3 segment(s)
/// without times dropped`).
const PASSED_OVER: [&str; 4] = ["skipped", "dropped", "ignored", "left out"];

/// `message` as a `--strict` error says it: without what the lenient reading did. Two shapes
/// of warning say that, and both are taken off:
///
/// - a closing clause after `; ` that is the lenient action: a participle alone or after one
///   word (`; skipped`, `; line skipped`, `; dropped`), or one of [`LENIENT_CLAUSES`];
/// - a participle of [`PASSED_OVER`] that ends the subject of a clause, outside quotes, before
///   the end, a `:`, a `;`, a `,` or a ` (`: `line after @End skipped` is `line after @End`,
///   `2 cue(s) with no text skipped: …` is `2 cue(s) with no text: …`. After a form of *to
///   be* (`two were skipped`) the participle is the sentence's verb and is kept.
pub(crate) fn strict_message(message: &str) -> String {
    let mut message = message;
    while let Some((head, tail)) = message.rsplit_once("; ") {
        let participle = |t: &str| {
            PASSED_OVER.iter().any(|p| {
                t == *p
                    || t.strip_suffix(p).and_then(|u| u.strip_suffix(' ')).is_some_and(|unit| {
                        !unit.is_empty() && unit.chars().all(|c| c.is_alphabetic() || c == '-')
                    })
            })
        };
        if participle(tail) || LENIENT_CLAUSES.iter().any(|c| tail.starts_with(c)) {
            message = head;
        } else {
            break;
        }
    }
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    let (mut quote, mut tick) = (false, false);
    'scan: while let Some(c) = rest.chars().next() {
        if c == ' ' && !quote && !tick {
            for p in PASSED_OVER {
                let Some(after) = rest[1..].strip_prefix(p) else { continue };
                let closes = after.is_empty()
                    || after.starts_with([':', ';', ','])
                    || after.starts_with(" (");
                let before = out.rsplit(' ').next().unwrap_or("");
                let verb = matches!(before, "is" | "are" | "was" | "were" | "be" | "been");
                if closes && !verb && !out.is_empty() {
                    rest = after;
                    continue 'scan;
                }
            }
        }
        match c {
            '"' if !tick => quote = !quote,
            '\\' if quote => {
                // An escaped character inside a quoted field: keep both, and stay in the quote.
                out.push(c);
                rest = &rest[1..];
                if let Some(next) = rest.chars().next() {
                    out.push(next);
                    rest = &rest[next.len_utf8()..];
                }
                continue;
            }
            '`' if !quote => tick = !tick,
            _ => {}
        }
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}")?;
            if let Some(c) = self.column {
                write!(f, ", column {c}")?;
            }
            write!(f, ": ")?;
        }
        write!(f, "{} ({})", self.message, self.kind.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[cfg(target_os = "linux")]
    #[test]
    fn system_errors_are_said_in_the_messages_style() {
        let said = |code| io_message(&io::Error::from_raw_os_error(code));
        assert_eq!(said(2), "no such file or directory");
        assert_eq!(said(13), "permission denied");
        assert_eq!(said(21), "is a directory, not a file");
        assert_eq!(said(28), "no space left on device");
        let missing = Error::from(io::Error::from_raw_os_error(2)).with_path("x.wav");
        assert_eq!(missing.to_string(), "x.wav: no such file or directory");
        // A message of its own is kept as written.
        assert_eq!(io_message(&io::Error::other("Early end")), "Early end");
    }

    #[test]
    fn causes_are_kept_and_recovery_follows_the_kind() {
        let cause = io::Error::new(io::ErrorKind::UnexpectedEof, "early end");
        let e = Error::invalid("the file is truncated").with_source(cause).with_path("a.wav");
        assert_eq!(e.to_string(), "a.wav: the file is truncated");
        assert_eq!(e.source().map(|c| c.to_string()).as_deref(), Some("early end"));
        assert_eq!(e.recovery(), Recovery::SkipInput);
        let io = Error::from(io::Error::new(io::ErrorKind::PermissionDenied, "denied"));
        assert_eq!(io.recovery(), Recovery::Fatal);
        assert_eq!(io.source().map(|c| c.to_string()).as_deref(), Some("denied"));
        assert!(Error::parse("rttm", 3, 1, "bad").source().is_none());
    }

    /// Under `--strict` the warning is the error and nothing is skipped: the clause that says
    /// what was skipped is left off, and only that clause.
    #[test]
    fn a_strict_error_does_not_say_what_was_skipped() {
        for (message, shown) in [
            (
                "cue end \"x\": not a time; cue skipped",
                "line 2, column 3: srt: cue end \"x\": not a time",
            ),
            (
                "block without a timing line (\"a\"); skipped",
                "line 2, column 3: srt: block without a timing line (\"a\")",
            ),
            ("4 fields; line skipped", "line 2, column 3: srt: 4 fields"),
            ("a; b; row skipped", "line 2, column 3: srt: a; b"),
            ("words skipped", "line 2, column 3: srt: words"),
            ("kept; two were skipped", "line 2, column 3: srt: kept; two were skipped"),
            ("a; cue 3 skipped", "line 2, column 3: srt: a; cue 3"),
        ] {
            let w = Warning::at(WarningKind::Skipped, 2, Some(3), message);
            assert_eq!(w.into_error("srt").to_string(), shown);
        }
    }

    /// Whatever the lenient reading does, and wherever the message says it, a strict error
    /// says only what is wrong: one rule for every reader's warnings.
    #[test]
    fn strict_messages_never_claim_what_a_lenient_reading_did() {
        for (message, strict) in [
            ("line after @End skipped", "line after @End"),
            (
                "row has 5 fields, the header 4: the text is the last column (quote such a text); read so",
                "row has 5 fields, the header 4: the text is the last column (quote such a text)",
            ),
            (
                "2 cue(s) with no text skipped: a caption that shows nothing marks no one's speech",
                "2 cue(s) with no text: a caption that shows nothing marks no one's speech",
            ),
            (
                "reference annotation on the top-level tier \"gloss\" skipped (it has no time)",
                "reference annotation on the top-level tier \"gloss\" (it has no time)",
            ),
            (
                "3 event(s) of transcription notation alone (pauses such as `•`) left out: not speech",
                "3 event(s) of transcription notation alone (pauses such as `•`): not speech",
            ),
            ("2 monologue(s) without a time or a timed term dropped", "2 monologue(s) without a time or a timed term"),
            ("4 word(s) of \"x\" have no times at all; dropped", "4 word(s) of \"x\" have no times at all"),
            (
                "event has no time (no point of the timeline has one); skipped",
                "event has no time (no point of the timeline has one)",
            ),
            (
                "3 event(s) start or end at a timeline point without a time; interpolated between the timed points around it",
                "3 event(s) start or end at a timeline point without a time",
            ),
            ("1 tier(s) after the last declared tier ignored", "1 tier(s) after the last declared tier"),
            (
                "2 line(s) outside the transcript's numbered lines skipped (page numbers): not speech; the line numbers are taken off the others",
                "2 line(s) outside the transcript's numbered lines (page numbers): not speech; the line numbers are taken off the others",
            ),
            // Quoted text is the file's own and stays as it is.
            ("label \"a skipped\" and `b dropped`; line skipped", "label \"a skipped\" and `b dropped`"),
            ("label \"a \\\" skipped\" unknown", "label \"a \\\" skipped\" unknown"),
        ] {
            assert_eq!(strict_message(message), strict, "{message}");
        }
    }
}
