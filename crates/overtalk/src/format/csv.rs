//! CSV and TSV tables with a header row: one row per segment.
//!
//! ```text
//! recording,start,end,speaker,text
//! call1,0.000,4.210,Alice,"So the plan, then"
//! call1,00:00:03.950,00:00:06.250,Bob,Friday won't work.
//! ```
//!
//! **Reading.** Columns are found by their header, case-insensitively, ignoring spaces, `-` and
//! `_` differences and a unit suffix (`start_ms`, `Start (s)`, `end [ms]`):
//!
//! | role | headers |
//! |---|---|
//! | start | start, begin, start time, begin time, tbeg, onset, from, t0, xmin |
//! | end | end, stop, end time, stop time, tend, offset, to, t1, xmax |
//! | duration (when there is no end) | duration, dur, tdur, length |
//! | speaker | speaker, spk, spkr, speaker id/label/name, name, label, participant, who, tier, talker |
//! | text (optional) | text, transcript, transcription, utterance, content, words, sentence, caption |
//! | recording (optional) | file, recording, uri, file id, recording id, session, session id, audio, filename, meeting, conversation |
//!
//! Times are seconds (`12.5`) or clock notation (`00:00:12.500`, `0:12.5`); a header with an
//! `ms` unit means milliseconds. With a recording column each distinct value is a recording of its
//! own; without one the file is one recording. Without a speaker column, or with an empty speaker
//! cell, the speaker is [`UNKNOWN_SPEAKER`] with one [`WarningKind::MissingSpeaker`] warning.
//! A table whose first row already holds two times has no header: it is read as
//! `start, end, speaker, text` with a [`WarningKind::Note`]. A tab-separated table with exactly
//! the header `start end text` and whole numbers for every time is what Whisper and WhisperX
//! write (`--output_format tsv`): its times are milliseconds, read so with a note. Quoted fields
//! may hold the delimiter, quotes and line breaks (RFC 4180). A `.csv` table whose header row is
//! separated by semicolons (`start;end;speaker;sentence`, as spreadsheets write CSV in the
//! locales whose decimal separator is a comma, and diarization scripts such as forks of
//! pyannote-whisper write for them) is read with `;` as its delimiter, and its times may then
//! be written with a decimal comma (`10,34`).
//!
//! **Rows that do not fit.** A row whose time is empty or cannot be read (`NaN`, `abc`, out of
//! range, a frame timecode `hh:mm:ss:ff` whose frame rate the table does not say) is skipped
//! with a [`WarningKind::MissingTime`] warning naming line and column, so that one bad row does
//! not lose the rest; under `--strict` it is the error. A row with more fields than the header
//! is never cut short without a word: times written with SRT's decimal comma and split by it
//! (`00:00:03,200` unquoted) are rejoined, and fields after a last text column are the rest of
//! its text (`hello,world` unquoted), each with a [`WarningKind::Repaired`] warning; any other
//! such row is skipped with a [`WarningKind::Skipped`] warning (extra fields that are all empty,
//! trailing delimiters, hold nothing and are dropped). A table in which every data row was
//! rejected is an error naming the first one, not an empty result.
//!
//! **Writing**: the header `recording,start,end,speaker,text` (tab separated for TSV), one row per
//! track sorted by recording then time, times in seconds exact to the microsecond, fields quoted
//! only when they must be.

use std::collections::BTreeMap;
use std::io::Write;

use crate::error::{Error, Result, Warning, WarningKind};
use crate::format::webvtt::{shown, UNKNOWN_SPEAKER};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, TranscriptBuilder};
use crate::time::{parse_clock, parse_seconds, round_div, Time, TimeError};

use crate::format::{is_seconds, FirstLine, Format, FormatSpec, Head, Sniff};

/// What the format registry knows of CSV (see [`FormatSpec`]).
pub(crate) const CSV_SPEC: FormatSpec = FormatSpec {
    format: Format::Csv,
    name: "csv",
    aliases: &[],
    extension: "csv",
    detected_by: &["csv"],
    read: Ok(read_csv),
    write: Some(write_csv),
    json: false,
    many_recordings: true,
    paragraphs: false,
    sniff: &[Sniff::Line { rank: 90, test: sniff_csv }],
};

/// What the format registry knows of TSV (see [`FormatSpec`]).
pub(crate) const TSV_SPEC: FormatSpec = FormatSpec {
    format: Format::Tsv,
    name: "tsv",
    aliases: &[],
    extension: "tsv",
    detected_by: &["tsv"],
    read: Ok(read_tsv),
    write: Some(write_tsv),
    json: false,
    many_recordings: true,
    paragraphs: false,
    sniff: &[Sniff::Line { rank: 80, test: sniff_tsv }],
};

/// A first line with a tab (after every other line test).
fn sniff_tsv(_: &Head<'_>, first: &FirstLine<'_>) -> Option<Format> {
    first.line.contains('\t').then_some(Format::Tsv)
}

/// A first line that is a header row with two columns this reader knows (or one time column),
/// or a row of data with two times (the last line test): a line of prose with a comma
/// (`Feb 19, 2026`, a title such as `TOWN HALL DEBATE, TRANSCRIPT`) is neither.
fn sniff_csv(_: &Head<'_>, first: &FirstLine<'_>) -> Option<Format> {
    let fields: Vec<&str> = first.line.split(',').map(|f| f.trim().trim_matches('"')).collect();
    let time_like = |f: &str| {
        is_seconds(f)
            || (f.contains(':') && f.split(':').all(|p| !p.is_empty() && p.parse::<f64>().is_ok()))
    };
    let roles: Vec<Role> = fields.iter().filter_map(|f| role(f)).map(|(r, _)| r).collect();
    let header = roles.len() >= 2 || roles.iter().any(|r| matches!(r, Role::Start | Role::End));
    let data = fields.iter().filter(|f| time_like(f)).count() >= 2;
    // A semicolon-separated header row (`start;end;speaker;text`) with two known columns, a
    // start among them.
    let semicolon: Vec<Role> = first
        .line
        .split(';')
        .filter_map(|f| role(f.trim().trim_matches('"')))
        .map(|(r, _)| r)
        .collect();
    let semicolon_header = semicolon.len() >= 2 && semicolon.contains(&Role::Start);
    ((fields.len() >= 2 && (header || data)) || semicolon_header).then_some(Format::Csv)
}

/// Reads comma-separated text (see the module doc), or semicolon-separated text when its header
/// row is separated by semicolons (see `header_delimiter`).
pub fn read_csv(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    read_delimited(text, header_delimiter(text), ctx)
}

/// The delimiter of a `.csv` table: `;` when its header row, split at semicolons, names a start
/// column and, split at commas, does not (`start;end;speaker;sentence`: what spreadsheets write
/// in the locales whose decimal separator is a comma, and what diarization scripts write to be
/// opened there); `,` otherwise.
fn header_delimiter(text: &str) -> u8 {
    let Some(first) = text.trim_start_matches('\u{feff}').lines().find(|l| !l.trim().is_empty())
    else {
        return b',';
    };
    let has_start = |d: char| {
        first
            .split(d)
            .any(|f| role(f.trim().trim_matches('"')).is_some_and(|(r, _)| r == Role::Start))
    };
    if has_start(';') && !has_start(',') {
        b';'
    } else {
        b','
    }
}

/// Reads tab-separated text (see the module doc).
pub fn read_tsv(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    read_delimited(text, b'\t', ctx)
}

/// Writes comma-separated rows (see the module doc).
pub fn write_csv(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    write_delimited(corpus, b',', out)
}

/// Writes tab-separated rows (see the module doc).
pub fn write_tsv(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    write_delimited(corpus, b'\t', out)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Start,
    End,
    Duration,
    Speaker,
    Text,
    Recording,
}

/// The role of a header and whether its unit is milliseconds.
fn role(header: &str) -> Option<(Role, bool)> {
    let mut h: String = header
        .trim()
        .trim_start_matches('\u{feff}')
        .to_lowercase()
        .chars()
        .map(|c| if c == ' ' || c == '-' { '_' } else { c })
        .collect();
    let mut ms = false;
    for (suffix, is_ms) in [
        ("_(ms)", true),
        ("(ms)", true),
        ("_[ms]", true),
        ("[ms]", true),
        ("_ms", true),
        ("_(s)", false),
        ("(s)", false),
        ("_[s]", false),
        ("[s]", false),
        ("_seconds", false),
        ("_secs", false),
        ("_sec", false),
        ("_s", false),
    ] {
        if let Some(stem) = h.strip_suffix(suffix) {
            if !stem.is_empty() {
                ms = is_ms;
                h = stem.trim_end_matches('_').to_owned();
                break;
            }
        }
    }
    let key: String = h.chars().filter(|c| *c != '_').collect();
    let r = match key.as_str() {
        "start" | "begin" | "starttime" | "begintime" | "tbeg" | "onset" | "from" | "t0"
        | "xmin" | "startts" | "starttimestamp" => Role::Start,
        "end" | "stop" | "endtime" | "stoptime" | "tend" | "offset" | "to" | "t1" | "xmax"
        | "endts" | "endtimestamp" => Role::End,
        "duration" | "dur" | "tdur" | "length" => Role::Duration,
        "speaker" | "spk" | "spkr" | "speakerid" | "speakerlabel" | "speakername" | "name"
        | "label" | "participant" | "who" | "tier" | "talker" => Role::Speaker,
        "text" | "transcript" | "transcription" | "utterance" | "content" | "words"
        | "sentence" | "caption" => Role::Text,
        "file" | "recording" | "uri" | "fileid" | "recordingid" | "session" | "sessionid"
        | "audio" | "filename" | "meeting" | "conversation" | "conversationid" => Role::Recording,
        _ => return None,
    };
    Some((r, ms))
}

/// 1-based column (in characters) where field `k` of a delimited `line` starts, honouring quotes.
fn field_column(line: &str, delim: char, k: usize) -> usize {
    if k == 0 {
        return 1;
    }
    let mut seen = 0;
    let mut quoted = false;
    for (col, c) in line.chars().enumerate() {
        if c == '"' {
            quoted = !quoted;
        } else if c == delim && !quoted {
            seen += 1;
            if seen == k {
                return col + 2;
            }
        }
    }
    1
}

/// Parses a time cell: clock notation when it has a `:`, else decimal seconds (or milliseconds).
/// In a semicolon-separated table (`semicolon`) a decimal comma is the locale's decimal
/// separator (`1,25`), read as a decimal point.
fn cell_time(field: &str, ms: bool, semicolon: bool) -> std::result::Result<Time, TimeError> {
    let f = field.trim();
    let pointed;
    let f = match f.split_once(',') {
        Some((whole, fraction))
            if semicolon
                && !whole.is_empty()
                && !fraction.is_empty()
                && whole.bytes().all(|b| b.is_ascii_digit())
                && fraction.bytes().all(|b| b.is_ascii_digit()) =>
        {
            pointed = format!("{whole}.{fraction}");
            pointed.as_str()
        }
        _ => f,
    };
    if f.contains(':') {
        return parse_clock(f);
    }
    if !ms {
        return parse_seconds(f);
    }
    if f.contains(['e', 'E']) {
        let t = parse_seconds(f)?;
        return Ok(Time::from_micros(round_div(t.micros(), 1000)));
    }
    parse_seconds(&format!("{f}e-3"))
}

/// Whether a tab-separated table is what Whisper and WhisperX write with `--output_format tsv`:
/// exactly the header `start end text` and whole numbers in both time columns of every row
/// (`round(1000 * seconds)`, milliseconds although the header has no unit).
fn is_whisper_tsv(header: &csv::StringRecord, rows: &[&str]) -> bool {
    let names: Vec<&str> = header.iter().map(|h| h.trim().trim_start_matches('\u{feff}')).collect();
    if names != ["start", "end", "text"] {
        return false;
    }
    let whole = |f: &str| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit());
    let mut any = false;
    for row in rows.iter().filter(|r| !r.trim().is_empty()) {
        let mut fields = row.split('\t');
        let (Some(a), Some(b)) = (fields.next(), fields.next()) else { return false };
        if !whole(a.trim()) || !whole(b.trim()) {
            return false;
        }
        any = true;
    }
    any
}

/// Whether a cell is a frame timecode, `hh:mm:ss:ff` (or `hh:mm:ss;ff`, drop frame), as video
/// editors write it: its last part counts frames at a rate the table does not say.
fn is_frame_timecode(cell: &str) -> bool {
    let parts: Vec<&str> = cell.split([':', ';']).collect();
    parts.len() == 4
        && parts.iter().all(|p| (1..=3).contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether a cell is a clock time without a fraction (`00:00:03`, `0:03`), and `next` the
/// three digits SRT writes after its decimal comma (`200`): `00:00:03,200` pasted unquoted
/// into a comma-separated table.
fn is_split_srt_time(cell: &str, next: Option<&str>) -> bool {
    let parts: Vec<&str> = cell.split(':').collect();
    let clock = (2..=3).contains(&parts.len())
        && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        && parts[parts.len() - 1].len() == 2;
    clock && next.is_some_and(|n| n.len() == 3 && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The line numbers of byte offsets of a table, counted as [`ReadContext::lines`] counts them
/// (`\r\n`, a lone `\r` and `\n` each end a line), so that a message names the line an editor
/// shows. The csv crate's own count, `Position::line`, counts only `\n` bytes and lags behind
/// after `\r\n` ends a record and after blank lines (BurntSushi/rust-csv#395, #208); its byte
/// offsets are right, but a record's may point at the end of the line before it.
struct LineStarts<'t> {
    bytes: &'t [u8],
    starts: Vec<usize>,
}

impl<'t> LineStarts<'t> {
    fn new(text: &'t str) -> LineStarts<'t> {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while let Some(k) = memchr::memchr2(b'\n', b'\r', &bytes[i..]) {
            i += k + if bytes[i + k..].starts_with(b"\r\n") { 2 } else { 1 };
            starts.push(i);
        }
        LineStarts { bytes, starts }
    }

    /// The 1-based line of a position: where the record (or the error) starts, past the line
    /// ends that come before it; line 1 without a position.
    fn line(&self, position: Option<&csv::Position>) -> usize {
        let Some(p) = position else { return 1 };
        let mut b = usize::try_from(p.byte()).unwrap_or(usize::MAX).min(self.bytes.len());
        while b < self.bytes.len() && matches!(self.bytes[b], b'\r' | b'\n') {
            b += 1;
        }
        self.starts.partition_point(|&s| s <= b).max(1)
    }
}

/// Where a row was rejected (line, column) and why.
type Rejected = (usize, usize, String);

/// The cells of a data row as the reader takes them, each with the index of the field of the
/// line where it starts (for the column of a message): a row with more fields than the header
/// is fitted to it first ([`Row::fit`]).
struct Row<'r> {
    cells: Vec<std::borrow::Cow<'r, str>>,
    origins: Vec<usize>,
}

impl<'r> Row<'r> {
    fn of(record: &'r csv::StringRecord) -> Row<'r> {
        Row { cells: record.iter().map(Into::into).collect(), origins: (0..record.len()).collect() }
    }

    /// Cell `k`, trimmed; empty beyond the row.
    fn cell(&self, k: usize) -> &str {
        self.cells.get(k).map_or("", |c| c.trim())
    }

    /// The field of the line where cell `k` starts.
    fn origin(&self, k: usize) -> usize {
        self.origins.get(k).copied().unwrap_or(k)
    }

    /// Fits a row with more fields than the header's `width`, so that no field is dropped
    /// without a word (the table is read with rows of any length):
    ///
    /// - extra fields that are all empty (trailing delimiters, as spreadsheets pad rows) hold
    ///   nothing: dropped;
    /// - when every time column holds `hh:mm:ss` and the next field three digits, the times
    ///   were written with SRT's decimal comma and split by it (`00:00:03,200`): rejoined, with
    ///   a warning;
    /// - when the text is the last column, the extra fields can only be the rest of a text
    ///   holding the delimiter unquoted (`hello,world`): joined to it with the delimiter, with a
    ///   warning;
    /// - otherwise which field is extra cannot be told: the row is skipped with a warning.
    ///
    /// Each warning is a repair, so the error under `--strict`. Gives where and why the row
    /// was rejected, or `None` when it is to be read.
    #[allow(clippy::too_many_arguments)]
    fn fit(
        &mut self,
        width: usize,
        time_columns: &[usize],
        text: Option<usize>,
        delim: char,
        raw: &str,
        line: usize,
        ctx: &mut ReadContext<'_>,
    ) -> Result<Option<Rejected>> {
        let fields = self.cells.len();
        if fields <= width {
            return Ok(None);
        }
        if self.cells[width..].iter().all(|c| c.trim().is_empty()) {
            self.cells.truncate(width);
            self.origins.truncate(width);
            return Ok(None);
        }
        let shape = format!("row has {fields} fields, the header {width}");
        // Times split at SRT's decimal comma, at each time column in turn.
        let (mut cells, mut origins, mut split) = (Vec::new(), Vec::new(), Vec::new());
        let mut i = 0;
        while i < self.cells.len() {
            let (here, next) = (self.cells[i].trim(), self.cells.get(i + 1).map(|c| c.trim()));
            origins.push(self.origins[i]);
            if delim == ',' && time_columns.contains(&cells.len()) && is_split_srt_time(here, next)
            {
                let joined = format!("{here},{}", next.unwrap_or_default());
                split.push((self.origins[i], joined.clone()));
                cells.push(joined.into());
                i += 2;
            } else {
                cells.push(self.cells[i].clone());
                i += 1;
            }
        }
        let srt_times = |split: &[(usize, String)]| -> String {
            let times: Vec<String> = split.iter().map(|(_, t)| format!("`{t}`")).collect();
            format!(
                "{} {} written with SRT's decimal comma, split by the delimiter (quote such a time or write it with `.`: `{}`)",
                times.join(" and "),
                if times.len() == 1 { "is a time" } else { "are times" },
                split[0].1.replace(',', ".")
            )
        };
        let mut hint = String::new();
        if !split.is_empty() && split.len() == time_columns.len() {
            let column = field_column(raw, delim, split[0].0);
            ctx.warn_at(
                WarningKind::Repaired,
                line,
                Some(column),
                format!("{shape}: {}; read so", srt_times(&split)),
            )?;
            self.cells = cells;
            self.origins = origins;
            if self.cells.len() <= width {
                return Ok(None);
            }
        } else if !split.is_empty() {
            hint = format!("; {}", srt_times(&split));
        }
        let extra = self.cells.len() - width;
        let column = field_column(raw, delim, self.origin(width));
        if hint.is_empty() && text == Some(width - 1) {
            let rest: Vec<&str> = self.cells[width - 1..].iter().map(|c| c.as_ref()).collect();
            let joined = rest.join(&delim.to_string());
            ctx.warn_at(
                WarningKind::Repaired,
                line,
                Some(column),
                format!(
                    "{shape}: the text is the last column, so the {extra} field(s) after it are the rest of a text holding the delimiter {delim:?} unquoted (quote such a text); read so"
                ),
            )?;
            self.cells.truncate(width - 1);
            self.cells.push(joined.into());
            self.origins.truncate(width);
            return Ok(None);
        }
        let why = format!(
            "{shape}, and which {} extra cannot be told{hint}",
            if extra == 1 { "one is" } else { "are" }
        );
        // Under --strict the error leaves `; row skipped` off (`Warning::into_error`).
        ctx.warn_at(WarningKind::Skipped, line, Some(column), format!("{why}; row skipped"))?;
        Ok(Some((line, column, why)))
    }
}

struct Columns {
    start: usize,
    start_ms: bool,
    end: Option<(usize, bool)>,
    duration: Option<(usize, bool)>,
    speaker: Option<usize>,
    text: Option<usize>,
    recording: Option<usize>,
}

fn read_delimited(text: &str, delim: u8, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    // Line lengths are checked before the table is parsed, so a huge line fails fast and by number.
    let mut lines: Vec<&str> = Vec::new();
    for item in ctx.lines(text) {
        lines.push(item?.1);
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let line_of = LineStarts::new(text);
    let line_of = |p: Option<&csv::Position>| line_of.line(p);
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delim)
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let dchar = char::from(delim);
    let mut records = reader.records();
    let csv_error = |e: csv::Error, ctx: &ReadContext<'_>| -> Error {
        ctx.error(line_of(e.position()), 1, format!("malformed table: {e}"))
    };
    // The header: the first record with a non-empty cell.
    let header = loop {
        match records.next() {
            None => return Err(ctx.error(1, 1, "empty input: expected a header row")),
            Some(Err(e)) => return Err(csv_error(e, ctx)),
            Some(Ok(r)) if r.iter().all(|f| f.trim().is_empty()) => continue,
            Some(Ok(r)) => break r,
        }
    };
    let header_line = line_of(header.position());
    let mut pending: Option<csv::StringRecord> = None;
    let cols = {
        let mut found: Vec<(Role, usize, bool)> = Vec::new();
        for (k, h) in header.iter().enumerate() {
            if let Some((r, ms)) = role(h) {
                if !found.iter().any(|f| f.0 == r) {
                    found.push((r, k, ms));
                }
            }
        }
        let get = |r: Role| found.iter().find(|f| f.0 == r).map(|f| (f.1, f.2));
        match get(Role::Start) {
            Some((start, start_ms)) => Columns {
                start,
                start_ms,
                end: get(Role::End),
                duration: get(Role::Duration),
                speaker: get(Role::Speaker).map(|c| c.0),
                text: get(Role::Text).map(|c| c.0),
                recording: get(Role::Recording).map(|c| c.0),
            },
            None if header.len() >= 2
                && cell_time(&header[0], false, delim == b';').is_ok()
                && cell_time(&header[1], false, delim == b';').is_ok() =>
            {
                ctx.warn_at(
                    WarningKind::Note,
                    header_line,
                    Some(1),
                    "no header row: columns read as start, end, speaker, text",
                )?;
                pending = Some(header.clone());
                Columns {
                    start: 0,
                    start_ms: false,
                    end: Some((1, false)),
                    duration: None,
                    // Four columns at most, whatever the first row holds: a first row
                    // without text (`0.5,1.2,A`) must not make the rows with text too long.
                    speaker: (header.len() > 2).then_some(2),
                    text: (header.len() > 2).then_some(3),
                    recording: None,
                }
            }
            None => {
                let names: Vec<String> = header.iter().take(8).map(|h| shown(h, 20)).collect();
                return Err(ctx.error(
                    header_line,
                    1,
                    format!("no start column in the header row (found {names:?}); expected one of start, begin, start_time, tbeg, onset"),
                ));
            }
        }
    };
    let headerless = pending.is_some();
    let mut cols = cols;
    if delim == b'\t' && is_whisper_tsv(&header, &lines[header_line.min(lines.len())..]) {
        cols.start_ms = true;
        cols.end = cols.end.map(|(k, _)| (k, true));
        ctx.warn_at(
            WarningKind::Note,
            header_line,
            Some(1),
            "Whisper/WhisperX table (header `start end text`, whole-number times): times read as milliseconds, as Whisper writes them",
        )?;
    }
    if cols.end.is_none() && cols.duration.is_none() {
        return Err(ctx.error(
            header_line,
            1,
            "no end or duration column in the header row; expected one of end, stop, end_time, offset, duration",
        ));
    }
    if cols.speaker.is_none() {
        ctx.warn_at(
            WarningKind::MissingSpeaker,
            header_line,
            Some(1),
            format!("no speaker column; every row gets the speaker {UNKNOWN_SPEAKER:?}"),
        )?;
    }
    let default_id = ctx.recording_id();
    let mut per: BTreeMap<String, TranscriptBuilder> = BTreeMap::new();
    let mut missing_warned = cols.speaker.is_none();
    let mut rows = 0usize;
    // Rows that reached the segment stage, and the first row rejected before it (line, column,
    // why): a table none of whose rows can be read is an error, not an empty result.
    let mut kept = 0usize;
    let mut first_rejected: Option<(usize, usize, String)> = None;
    let width = if headerless { 4 } else { header.len() };
    let time_columns: Vec<usize> = {
        let mut c: Vec<usize> =
            [Some(cols.start), cols.end.map(|e| e.0), cols.duration.map(|d| d.0)]
                .into_iter()
                .flatten()
                .collect();
        c.sort_unstable();
        c.dedup();
        c
    };
    let mut next = move |records: &mut csv::StringRecordsIter<'_, &[u8]>| match pending.take() {
        Some(r) => Some(Ok(r)),
        None => records.next(),
    };
    while let Some(item) = next(&mut records) {
        let record = item.map_err(|e| csv_error(e, ctx))?;
        if record.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        rows += 1;
        let n = line_of(record.position());
        let raw = lines.get(n.wrapping_sub(1)).copied().unwrap_or("");
        let mut row = Row::of(&record);
        if let Some(why) = row.fit(width, &time_columns, cols.text, dchar, raw, n, ctx)? {
            first_rejected.get_or_insert(why);
            continue;
        }
        let col = |k: usize| field_column(raw, dchar, row.origin(k));
        let cell = |k: usize| row.cell(k);
        // A time, or why the row is rejected (warned: a repair, so the error under --strict).
        let time = |k: usize,
                    ms: bool,
                    what: &str,
                    ctx: &mut ReadContext<'_>|
         -> Result<std::result::Result<Time, (usize, usize, String)>> {
            let f = cell(k);
            let why = match cell_time(f, ms, delim == b';') {
                _ if f.is_empty() => format!("{what} is empty"),
                Ok(t) => return Ok(Ok(t)),
                Err(_) if is_frame_timecode(f) => format!(
                    "{what} {:?}: a frame timecode (hh:mm:ss:ff) at a frame rate the file does not say; write times in seconds or as hh:mm:ss.mmm",
                    shown(f, 40)
                ),
                Err(e) => format!("{what} {:?}: {e}", f.chars().take(40).collect::<String>()),
            };
            // Under --strict the error leaves `; row skipped` off (`Warning::into_error`).
            ctx.warn_at(WarningKind::MissingTime, n, Some(col(k)), format!("{why}; row skipped"))?;
            Ok(Err((n, col(k), why)))
        };
        let start = match time(cols.start, cols.start_ms, "start", ctx)? {
            Ok(t) => t,
            Err(why) => {
                first_rejected.get_or_insert(why);
                continue;
            }
        };
        let (end, end_col) = match (cols.end, cols.duration) {
            (Some((k, ms)), _) => (time(k, ms, "end", ctx)?, k),
            (None, Some((k, ms))) => (
                time(k, ms, "duration", ctx)?
                    .map(|d| Time::from_micros(start.micros().saturating_add(d.micros()))),
                k,
            ),
            // Refused above: a table has an end or a duration column.
            (None, None) => continue,
        };
        let end = match end {
            Ok(t) => t,
            Err(why) => {
                first_rejected.get_or_insert(why);
                continue;
            }
        };
        kept += 1;
        let speaker = match cols.speaker.map(cell) {
            Some(s) if !s.is_empty() => s,
            _ => {
                if !missing_warned {
                    missing_warned = true;
                    ctx.warn_at(
                        WarningKind::MissingSpeaker,
                        n,
                        cols.speaker.map(col),
                        format!("speaker is empty; it and every later empty speaker get {UNKNOWN_SPEAKER:?}"),
                    )?;
                }
                UNKNOWN_SPEAKER
            }
        };
        let recording = match cols.recording.map(cell) {
            Some(r) if !r.is_empty() => r.to_owned(),
            _ => default_id.clone(),
        };
        let content =
            cols.text.map(cell).filter(|t| !t.is_empty()).map(|t| Content::text(t.to_owned()));
        let b = per.entry(recording).or_default();
        if let Some(seg) = ctx.segment(start, end, n, Some(col(end_col)))? {
            b.add(seg, speaker, content);
        }
    }
    if let (0, Some((line, column, why))) = (kept, first_rejected) {
        return Err(ctx.error(
            line,
            column,
            format!(
                "no row could be read: all {rows} data row(s) were rejected, the first for: {why}"
            ),
        ));
    }
    if rows == 0 {
        ctx.warn_at(WarningKind::Note, header_line, Some(1), "no rows after the header")?;
    }
    if per.is_empty() {
        per.insert(default_id, TranscriptBuilder::new());
    }
    Ok(per.into_iter().map(|(k, b)| (k, b.build())).collect())
}

fn write_delimited(corpus: &Corpus, delim: u8, out: &mut dyn Write) -> Result<Vec<Warning>> {
    let csv_error = |e: csv::Error| -> Error {
        match e.into_kind() {
            csv::ErrorKind::Io(io) => Error::from(io),
            other => Error::invalid(format!("writing a table: {other:?}")),
        }
    };
    let mut w = csv::WriterBuilder::new().delimiter(delim).from_writer(out);
    w.write_record(["recording", "start", "end", "speaker", "text"]).map_err(csv_error)?;
    for (id, t) in corpus.iter() {
        for u in t.utterances() {
            let text = u.content.map(|c| c.display_text()).unwrap_or_default();
            w.write_record([
                id,
                &u.segment.start().to_string(),
                &u.segment.end().to_string(),
                u.speaker_name,
                &text,
            ])
            .map_err(csv_error)?;
        }
    }
    w.flush()?;
    Ok(Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, Format, ReadOptions};
    use crate::model::Segment;

    fn read_text(text: &str, f: Format) -> crate::format::ReadOutput {
        read_str(text, f, &ReadOptions::default()).unwrap()
    }

    #[test]
    fn whisper_tsv_times_are_milliseconds() {
        // What `whisperx --output_format tsv` writes: integer milliseconds under `start end`.
        let out =
            read_text("start\tend\ttext\n0\t4210\tSo the plan\n4210\t6250\tFriday\n", Format::Tsv);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(w, vec![(WarningKind::Note, Some(1)), (WarningKind::MissingSpeaker, Some(1))]);
        let a = out.corpus.get("recording").unwrap().annotation();
        let segs: Vec<_> = a.tracks().iter().map(|t| t.segment).collect();
        assert_eq!(
            segs,
            vec![
                Segment::from_micros(0, 4_210_000).unwrap(),
                Segment::from_micros(4_210_000, 6_250_000).unwrap()
            ]
        );
        // Decimal times, another header, or CSV: seconds, as before.
        for (text, f, end) in [
            ("start\tend\ttext\n0\t4.5\tx\n", Format::Tsv, 4_500_000),
            ("start\tend\tspeaker\n0\t4\tA\n", Format::Tsv, 4_000_000),
            ("start,end,text\n0,4,x\n", Format::Csv, 4_000_000),
        ] {
            let out = read_text(text, f);
            let a = out.corpus.get("recording").unwrap().annotation();
            assert_eq!(a.tracks()[0].segment, Segment::from_micros(0, end).unwrap(), "{text:?}");
        }
    }

    #[test]
    fn a_semicolon_header_makes_a_semicolon_table() {
        // pyannote-whisper's `to_csv(semicolon=True)` in its forks, and a spreadsheet's CSV in a
        // locale with a decimal comma: `;` between the fields, `,` in the times.
        let text = "\u{feff}start;end;speaker;sentence\r\n0.00;10.34;SPEAKER_00; So the plan, then.\r\n10,34;16,24;SPEAKER_01;Right.\r\n";
        let out = read_text(text, Format::Csv);
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let t = out.corpus.get("recording").unwrap();
        let u: Vec<_> = t
            .utterances()
            .map(|u| (u.segment, u.speaker_name, u.content.and_then(|c| c.text.as_deref())))
            .collect();
        assert_eq!(
            u,
            vec![
                (
                    Segment::from_millis(0, 10_340).unwrap(),
                    "SPEAKER_00",
                    Some("So the plan, then.")
                ),
                (Segment::from_millis(10_340, 16_240).unwrap(), "SPEAKER_01", Some("Right.")),
            ]
        );
        // Found from the content too (no `.csv` name), and a comma header stays a comma table
        // even when its text holds semicolons.
        assert_eq!(crate::format::sniff("start;end;speaker;text\n0;1;A;hi\n"), Some(Format::Csv));
        let out = read_text("start,end,speaker,text\n0,1,A,hi; there\n", Format::Csv);
        let t = out.corpus.get("recording").unwrap();
        let u: Vec<_> = t.utterances().map(|u| u.content.and_then(|c| c.text.as_deref())).collect();
        assert_eq!(u, vec![Some("hi; there")]);
        // A decimal comma is read as such only in a semicolon table: in a comma table `1,5` is
        // two fields, as before.
        assert_eq!(cell_time("1,5", false, true), Ok(Time::from_micros(1_500_000)));
        assert_eq!(cell_time("1,5", false, false), Err(TimeError::Syntax));
    }

    #[test]
    fn headers_map_case_insensitively_with_units() {
        let out = read_text(
            "Session ID,Start (s),End_ms,Speaker Name,Transcript\nc1,0.5,1250,Ana María,\"hi, there\"\nc2,00:00:01.000,2000,B,\n",
            Format::Csv,
        );
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let c1 = out.corpus.get("c1").unwrap();
        let u: Vec<_> = c1
            .utterances()
            .map(|u| (u.segment, u.speaker_name, u.content.and_then(|c| c.text.as_deref())))
            .collect();
        assert_eq!(
            u,
            vec![(Segment::from_millis(500, 1250).unwrap(), "Ana María", Some("hi, there"))]
        );
        let c2 = out.corpus.get("c2").unwrap();
        assert_eq!(c2.annotation().tracks()[0].segment, Segment::from_millis(1000, 2000).unwrap());
    }

    #[test]
    fn tsv_with_duration_and_missing_speakers() {
        let out = read_text("onset\tdur\tparticipant\n1\t0.5\t\n2\t\t\n", Format::Tsv);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::MissingSpeaker, Some(2), Some(7)),
                (WarningKind::MissingTime, Some(3), Some(3))
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.annotation().tracks()[0].segment, Segment::from_millis(1000, 1500).unwrap());
        assert_eq!(t.annotation().speaker_name(t.annotation().tracks()[0].speaker), "unknown");
    }

    /// A message names the line and column an editor shows whatever ends the lines (`\r\n`,
    /// a lone `\r`), after blank lines and after a quoted cell that holds a line break.
    #[test]
    fn rows_are_placed_at_their_line_whatever_ends_the_lines() {
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        for (text, at) in [
            ("start,end,speaker\n0,1,A\n2,x,B\n", (3, 3)),
            ("start,end,speaker\r\n0,1,A\r\n2,x,B\r\n", (3, 3)),
            ("start,end,speaker\r0,1,A\r2,x,B\r", (3, 3)),
            ("start,end,speaker\n0,1,A\n\n\n2,x,B\n", (5, 3)),
            ("start,end,speaker\r\n\r\n0,1,A\r\n\r\n2,x,B\r\n", (5, 3)),
            ("start,end,speaker\r\n0,1,\"A\nB\"\r\n2,x,B\r\n", (4, 3)),
            ("\n\nstart,end,speaker\r\n2,x,B\r\n", (4, 3)),
            ("\u{feff}start\tend\tspeaker\r\n0\t1\tA\r\n2\tx\tB\r\n", (3, 3)),
        ] {
            let f = if text.contains('\t') { Format::Tsv } else { Format::Csv };
            let e = read_str(text, f, &strict).unwrap_err();
            assert_eq!((e.line(), e.column()), (Some(at.0), Some(at.1)), "{text:?}");
        }
        // The header's own line, for a message about the header.
        let e = read_str("\r\n\r\nwho,what\r\na,b\r\n", Format::Csv, &strict).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(3), Some(1)));
    }

    #[test]
    fn headerless_tables_and_errors() {
        let out = read_text("0.5,1.5,A,hello\n", Format::Csv);
        assert_eq!(out.warnings[0].kind, WarningKind::Note);
        assert_eq!(out.corpus.get("recording").unwrap().annotation().len(), 1);
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        let e = read_str("start,end,speaker\n1,NaN,a\n", Format::Csv, &strict).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(3)));
        let e = read_str("who,what\na,b\n", Format::Csv, &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(1)));
        let e = read_str("", Format::Csv, &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(1)));
    }

    /// Each warning as (kind, line, column, message).
    fn warnings(
        out: &crate::format::ReadOutput,
    ) -> Vec<(WarningKind, Option<usize>, Option<usize>, &str)> {
        out.warnings.iter().map(|w| (w.kind, w.line, w.column, w.message.as_str())).collect()
    }

    /// Each utterance as (start µs, end µs, speaker, text).
    fn rows(out: &crate::format::ReadOutput) -> Vec<(i64, i64, String, Option<String>)> {
        out.corpus
            .get("recording")
            .unwrap()
            .utterances()
            .map(|u| {
                (
                    u.segment.start().micros(),
                    u.segment.end().micros(),
                    u.speaker_name.to_owned(),
                    u.content.and_then(|c| c.text.clone()),
                )
            })
            .collect()
    }

    #[test]
    fn rows_longer_than_the_header_are_never_cut_short_silently() {
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        // An unquoted delimiter in the last column, the text: the rest of the text.
        let text = "start,end,speaker,text\n1.0,2.0,A,hello,world\n3,4,B\n";
        let out = read_text(text, Format::Csv);
        assert_eq!(
            warnings(&out),
            vec![(
                WarningKind::Repaired,
                Some(2),
                Some(17),
                "row has 5 fields, the header 4: the text is the last column, so the 1 field(s) after it are the rest of a text holding the delimiter ',' unquoted (quote such a text); read so"
            )]
        );
        assert_eq!(
            rows(&out),
            vec![
                (1_000_000, 2_000_000, "A".into(), Some("hello,world".into())),
                (3_000_000, 4_000_000, "B".into(), None)
            ]
        );
        let e = read_str(text, Format::Csv, &strict).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 17: csv: row has 5 fields, the header 4: the text is the last column, so the 1 field(s) after it are the rest of a text holding the delimiter ',' unquoted (quote such a text)"
        );
        // SRT times pasted unquoted: `00:00:00,500` is one time, not a start and an end.
        let text = "start,end,speaker,text\n00:00:00,500,00:00:03,200,Alice,hi\n";
        let out = read_text(text, Format::Csv);
        assert_eq!(
            warnings(&out),
            vec![(
                WarningKind::Repaired,
                Some(2),
                Some(1),
                "row has 6 fields, the header 4: `00:00:00,500` and `00:00:03,200` are times written with SRT's decimal comma, split by the delimiter (quote such a time or write it with `.`: `00:00:00.500`); read so"
            )]
        );
        assert_eq!(rows(&out), vec![(500_000, 3_200_000, "Alice".into(), Some("hi".into()))]);
        let e = read_str(text, Format::Csv, &strict).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(1)));
        assert!(e.to_string().contains("SRT's decimal comma"), "{e}");
        // Both at once, and a table without a header row.
        let out = read_text("00:00:01,000,00:00:02,500,A,so, then\n", Format::Csv);
        assert_eq!(rows(&out), vec![(1_000_000, 2_500_000, "A".into(), Some("so, then".into()))]);
        let kinds: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.column)).collect();
        assert_eq!(
            kinds,
            vec![
                (WarningKind::Note, Some(1)),
                (WarningKind::Repaired, Some(1)),
                (WarningKind::Repaired, Some(32))
            ]
        );
        // The text is not the last column: which field is extra cannot be told; the row is
        // skipped, and a split time is named.
        let out = read_text(
            "start,end,text,speaker\n0,1,hi,A\n2,3,so,then,B\n00:00:04,00:00:05,200,x,B\n",
            Format::Csv,
        );
        assert_eq!(
            warnings(&out),
            vec![
                (
                    WarningKind::Skipped,
                    Some(3),
                    Some(13),
                    "row has 5 fields, the header 4, and which one is extra cannot be told; row skipped"
                ),
                (
                    WarningKind::Skipped,
                    Some(4),
                    Some(25),
                    "row has 5 fields, the header 4, and which one is extra cannot be told; `00:00:05,200` is a time written with SRT's decimal comma, split by the delimiter (quote such a time or write it with `.`: `00:00:05.200`); row skipped"
                ),
            ]
        );
        assert_eq!(rows(&out), vec![(0, 1_000_000, "A".into(), Some("hi".into()))]);
        // Trailing delimiters, as spreadsheets pad rows, hold nothing: no warning.
        let out = read_text("start,end,speaker\n0,1,A,,\n", Format::Csv);
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(rows(&out), vec![(0, 1_000_000, "A".into(), None)]);
    }

    #[test]
    fn a_table_of_rejected_rows_is_an_error_naming_the_first() {
        // Frame timecodes, as video editors export them: the frame rate is not in the file.
        let text = "Speaker,Start,End,Transcript\nAlice,00:00:00:12,00:00:03:05,\"Hello, how are you?\"\nBob,00:00:03:00,00:00:05:15,\"Fine, thanks.\"\n";
        let e = read_str(text, Format::Csv, &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(7)));
        assert!(
            e.to_string().ends_with("no row could be read: all 2 data row(s) were rejected, the first for: start \"00:00:00:12\": a frame timecode (hh:mm:ss:ff) at a frame rate the file does not say; write times in seconds or as hh:mm:ss.mmm"),
            "{e}"
        );
        let e =
            read_str("start,end,speaker\n1,,a\nabc,2,b\n", Format::Csv, &ReadOptions::default())
                .unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(3)));
        assert!(e.to_string().ends_with("the first for: end is empty"), "{e}");
        // One readable row is enough: the others are skipped with a warning each.
        let out = read_text("start,end,speaker\nNaN,1,a\n1,2,b\n", Format::Csv);
        assert_eq!(
            warnings(&out),
            vec![(
                WarningKind::MissingTime,
                Some(2),
                Some(1),
                "start \"NaN\": time is NaN; row skipped"
            )]
        );
        assert_eq!(rows(&out), vec![(1_000_000, 2_000_000, "b".into(), None)]);
        // A table of a header alone has no rejected row: it reads empty, with notes.
        let out = read_text("start,end,speaker\n", Format::Csv);
        assert_eq!(out.warnings[0].message, "no rows after the header");
    }

    #[test]
    fn writes_rows_that_read_back() {
        let out = read_text(
            "file,begin,end,speaker,text\nr,0.5,1.000001,\"A, B\",\"say \"\"hi\"\"\nthere\"\nr,0,2,C,\n",
            Format::Csv,
        );
        for f in [Format::Csv, Format::Tsv] {
            let mut buf = Vec::new();
            let w = if f == Format::Csv {
                write_csv(&out.corpus, &mut buf)
            } else {
                write_tsv(&out.corpus, &mut buf)
            };
            assert!(w.unwrap().is_empty());
            let text = String::from_utf8(buf).unwrap();
            if f == Format::Csv {
                assert_eq!(
                    text,
                    "recording,start,end,speaker,text\nr,0.000,2.000,C,\nr,0.500,1.000001,\"A, B\",\"say \"\"hi\"\"\nthere\"\n"
                );
            }
            assert_eq!(read_text(&text, f).corpus, out.corpus);
        }
    }
}
