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
//! write (`--output_format tsv`): its times are milliseconds, read so with a note. A row with an empty time is skipped
//! with a [`WarningKind::MissingTime`] warning; a time that cannot be read (`NaN`, `abc`, out of
//! range) is an error naming line and column. Quoted fields may hold the delimiter, quotes and
//! line breaks (RFC 4180).
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
    (fields.len() >= 2 && (header || data)).then_some(Format::Csv)
}

/// Reads comma-separated text (see the module doc).
pub fn read_csv(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    read_delimited(text, b',', ctx)
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
fn cell_time(field: &str, ms: bool) -> std::result::Result<Time, TimeError> {
    let f = field.trim();
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
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delim)
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let dchar = char::from(delim);
    let mut records = reader.records();
    let csv_error = |e: csv::Error, ctx: &ReadContext<'_>| -> Error {
        let line = e.position().map_or(1, |p| p.line() as usize);
        ctx.error(line.max(1), 1, format!("malformed table: {e}"))
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
    let header_line = header.position().map_or(1, |p| p.line() as usize);
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
                && cell_time(&header[0], false).is_ok()
                && cell_time(&header[1], false).is_ok() =>
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
                    speaker: (header.len() > 2).then_some(2),
                    text: (header.len() > 3).then_some(3),
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
        let n = record.position().map_or(0, |p| p.line() as usize);
        let raw = lines.get(n.wrapping_sub(1)).copied().unwrap_or("");
        let col = |k: usize| field_column(raw, dchar, k);
        let cell = |k: usize| record.get(k).unwrap_or("").trim();
        let time =
            |k: usize, ms: bool, what: &str, ctx: &mut ReadContext<'_>| -> Result<Option<Time>> {
                let f = cell(k);
                if f.is_empty() {
                    ctx.warn_at(
                        WarningKind::MissingTime,
                        n,
                        Some(col(k)),
                        format!("{what} is empty; row skipped"),
                    )?;
                    return Ok(None);
                }
                ctx.time_or_skip(cell_time(f, ms), f, what, "row", n, col(k))
            };
        let Some(start) = time(cols.start, cols.start_ms, "start", ctx)? else { continue };
        let (end, end_col) = match (cols.end, cols.duration) {
            (Some((k, ms)), _) => (time(k, ms, "end", ctx)?, k),
            (None, Some((k, ms))) => (
                time(k, ms, "duration", ctx)?
                    .map(|d| Time::from_micros(start.micros().saturating_add(d.micros()))),
                k,
            ),
            (None, None) => (None, 0),
        };
        let Some(end) = end else { continue };
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
        match ctx.segment(start, end, n, Some(col(end_col)))? {
            Some(seg) => {
                b.add(seg, speaker, content);
            }
            None => {
                b.speaker(speaker);
            }
        }
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
