//! SegLST, the segment list of meeteval and of the CHiME-7/8 challenges (also DiPCo and
//! Mixer 6 as CHiME distributes them): read and written.
//!
//! ```json
//! [
//!   {"session_id": "S02", "speaker": "P05", "start_time": "40.600", "end_time": "42.400",
//!    "words": "so ummm"},
//!   {"session_id": "S02", "speaker": "P06", "start_time": 41.2, "end_time": 43.0,
//!    "words": "yeah"}
//! ]
//! ```
//!
//! A file is one JSON list of segments; each segment is one track.
//!
//! - `session_id` names the recording, so one file may hold several. A segment without it
//!   belongs to the recording named after the file, as meeteval's CHiME converter does.
//! - `speaker` is a string or an integer. A segment without one goes to the placeholder
//!   [`UNKNOWN_SPEAKER`], with one `missing-speaker` warning.
//! - `start_time` and `end_time` are seconds, as JSON numbers (meeteval) or as strings
//!   (CHiME-7 writes `"11.370"`); strings are read exactly, to the microsecond, and the clock
//!   form of the CHiME-5/6 originals (`"0:00:40.60"`) is read too. A segment whose times are
//!   missing or unreadable is dropped with a `missing-time` warning naming its line and column
//!   (`--strict` rejects it); its speaker is kept.
//! - `words` is the segment's text (space-separated words). Other keys (`segment_index`,
//!   `channel`, `confidence`, …) are ignored.
//!
//! **Writing** gives one list over every recording, by recording id and then in time order:
//! `session_id`, `speaker`, `start_time`, `end_time` as JSON numbers exact to the microsecond,
//! and `words` (the text, line breaks as spaces; `""` for a track without text, so every
//! segment has the keys meeteval's WER tools ask for).

use std::collections::BTreeMap;
use std::io::Write;

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Result, Warning, WarningKind};
use crate::format::json::{label, quote, scan, seconds_value, warn, UNKNOWN_SPEAKER};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, TranscriptBuilder};

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told apart
/// in [`crate::format::json`].
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::SegLst,
    name: "seglst",
    aliases: &["chime", "meeteval"],
    extension: "seglst.json",
    detected_by: &[],
    read: Ok(read),
    write: Some(write),
    json: true,
    many_recordings: true,
    paragraphs: false,
    sniff: &[],
};

#[derive(Deserialize)]
#[serde(expecting = "a segment (an object with session_id, speaker, start_time, end_time, words)")]
struct SegmentJ {
    #[serde(default)]
    session_id: Option<Value>,
    #[serde(default)]
    speaker: Option<Value>,
    #[serde(default)]
    start_time: Option<Value>,
    #[serde(default)]
    end_time: Option<Value>,
    #[serde(default)]
    words: Option<Value>,
}

/// The root list's elements.
const TRACKED: [&str; 1] = [""];

/// Reads a SegLST list: one recording per `session_id`.
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    if text.trim_start_matches('\u{feff}').trim_start().starts_with('{') {
        // Well-formed JSON of another shape is named for what it is not; malformed JSON gets
        // the parser's error at its position.
        scanned.parse::<serde::de::IgnoredAny>(ctx)?;
        return Err(ctx.error(1, 1, "a SegLST file is a JSON list of segments; this is an object"));
    }
    // An element that is not a segment object is a parse error at its line and column.
    let items: Vec<SegmentJ> = scanned.parse(ctx)?;
    let mut per: BTreeMap<String, TranscriptBuilder> = BTreeMap::new();
    let mut missing_speaker = false;
    for (k, s) in items.into_iter().enumerate() {
        let pos = scanned.pos(0, k);
        let session = label(&s.session_id).unwrap_or_else(|| ctx.recording_id().to_owned());
        let speaker = match label(&s.speaker) {
            Some(name) => name,
            None => {
                if !missing_speaker {
                    missing_speaker = true;
                    warn(
                        ctx,
                        WarningKind::MissingSpeaker,
                        pos,
                        format!("segment {k} has no speaker; it and every later one like it go to the placeholder speaker {UNKNOWN_SPEAKER:?}"),
                    )?;
                }
                UNKNOWN_SPEAKER.to_owned()
            }
        };
        let b = per.entry(session).or_default();
        let start = s.start_time.as_ref().and_then(seconds_value);
        let end = s.end_time.as_ref().and_then(seconds_value);
        let (Some(start), Some(end)) = (start, end) else {
            warn(
                ctx,
                WarningKind::MissingTime,
                pos,
                format!("segment {k} has no readable start_time or end_time; dropped"),
            )?;
            continue;
        };
        let content = match &s.words {
            Some(Value::String(w)) => Some(Content::text(w.clone())),
            Some(Value::Null) | None => None,
            Some(other) => Some(Content::text(other.to_string())),
        };
        if let Some(seg) = ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))? {
            b.add(seg, &speaker, content);
        }
    }
    if per.is_empty() {
        ctx.warn(Warning::new(WarningKind::Note, "no segments in the list"))?;
        return Ok(Corpus::single(ctx.recording_id(), TranscriptBuilder::new().build()));
    }
    Ok(per.into_iter().map(|(id, b)| (id, b.build())).collect())
}

/// Writes every recording as one SegLST list (see the module doc).
pub fn write(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    use std::fmt::Write as _;
    let mut warnings = Vec::new();
    let mut buf = String::from("[");
    let mut first = true;
    let mut joined_warned = false;
    for (id, t) in corpus.iter() {
        let session = quote(id);
        let names: Vec<String> = t.annotation().speakers().iter().map(|(_, n)| quote(n)).collect();
        for u in t.utterances() {
            let text = u.content.map(|c| c.display_text()).unwrap_or_default();
            if text.contains(['\n', '\r']) && !joined_warned {
                joined_warned = true;
                warnings.push(Warning::new(
                    WarningKind::Repaired,
                    format!(
                        "{id}: line breaks in a text written as spaces (SegLST words are one line)"
                    ),
                ));
            }
            let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
            let _ = write!(
                buf,
                "{}\n  {{\"session_id\": {session}, \"speaker\": {}, \"start_time\": {}, \"end_time\": {}, \"words\": {}}}",
                if first { "" } else { "," },
                names[u.speaker.index()],
                u.segment.start(),
                u.segment.end(),
                quote(&words)
            );
            first = false;
            if buf.len() > 1 << 16 {
                out.write_all(buf.as_bytes())?;
                buf.clear();
            }
        }
    }
    buf.push_str(if first { "]\n" } else { "\n]\n" });
    out.write_all(buf.as_bytes()).map_err(Error::from)?;
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, ReadOptions};
    use crate::model::Segment;

    fn read_text(text: &str) -> Result<crate::format::ReadOutput> {
        read_str(text, Format::SegLst, &ReadOptions::default())
    }

    #[test]
    fn chime_strings_meeteval_numbers_and_clocks_read_exactly() {
        let out = read_text(
            r#"[
  {"end_time": "11.370", "start_time": "11.000", "words": "so ummm", "speaker": "P03", "session_id": "S05"},
  {"session_id": "S05", "speaker": 2, "start_time": 10.47, "end_time": 12.000001, "words": "yes", "segment_index": 0},
  {"session_id": "S02", "speaker": "P05", "start_time": "0:00:40.60", "end_time": "0:00:42.40", "words": ""}
]"#,
        )
        .unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let ids: Vec<&str> = out.corpus.ids().collect();
        assert_eq!(ids, ["S02", "S05"]);
        let s05 = out.corpus.get("S05").unwrap();
        let got: Vec<(String, Segment, Option<String>)> = s05
            .utterances()
            .map(|u| (u.speaker_name.to_owned(), u.segment, u.content.and_then(|c| c.text.clone())))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "2".to_owned(),
                    Segment::from_micros(10_470_000, 12_000_001).unwrap(),
                    Some("yes".to_owned())
                ),
                (
                    "P03".to_owned(),
                    Segment::from_millis(11_000, 11_370).unwrap(),
                    Some("so ummm".to_owned())
                ),
            ]
        );
        let s02 = out.corpus.get("S02").unwrap();
        assert_eq!(
            s02.annotation().tracks()[0].segment,
            Segment::from_millis(40_600, 42_400).unwrap()
        );
    }

    #[test]
    fn bad_segments_are_named_and_strict_rejects_them() {
        let text = "[\n  {\"session_id\": \"a\", \"speaker\": \"A\", \"start_time\": 1, \"end_time\": 2},\n  {\"session_id\": \"a\", \"start_time\": \"x\", \"end_time\": 3},\n  {\"session_id\": \"a\", \"start_time\": 3, \"end_time\": 4}\n]";
        let out = read_text(text).unwrap();
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::MissingSpeaker, Some(3), Some(3)),
                (WarningKind::MissingTime, Some(3), Some(3)),
            ]
        );
        let t = out.corpus.get("a").unwrap();
        assert_eq!(t.annotation().tracks().len(), 2);
        let strict = ReadOptions { strict: true, ..Default::default() };
        let e = read_str(text, Format::SegLst, &strict).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(3), Some(3)));
        // Not a list, or a list of something else: an error that says what SegLST is.
        let e = read_text(r#"{"segments": []}"#).unwrap_err();
        assert!(e.to_string().contains("a JSON list of segments; this is an object"), "{e}");
        let e = read_text("[\n  1, 2]").unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(3)), "{e}");
        assert!(e.to_string().contains("expected a segment"), "{e}");
    }

    #[test]
    fn written_lists_read_back_unchanged() {
        let text = r#"[
  {"session_id": "m1", "speaker": "B", "start_time": 0.5, "end_time": 1.25, "words": "hello there"},
  {"session_id": "m1", "speaker": "A", "start_time": 0, "end_time": 2.000001, "words": "a\nb"},
  {"session_id": "m0", "speaker": "A", "start_time": 3, "end_time": 4}
]"#;
        let first = read_text(text).unwrap().corpus;
        let mut bytes = Vec::new();
        let warnings = crate::format::write(&first, Format::SegLst, &mut bytes).unwrap();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        let written = String::from_utf8(bytes).unwrap();
        assert_eq!(
            written,
            "[\n  {\"session_id\": \"m0\", \"speaker\": \"A\", \"start_time\": 3.000, \"end_time\": 4.000, \"words\": \"\"},\n  {\"session_id\": \"m1\", \"speaker\": \"A\", \"start_time\": 0.000, \"end_time\": 2.000001, \"words\": \"a b\"},\n  {\"session_id\": \"m1\", \"speaker\": \"B\", \"start_time\": 0.500, \"end_time\": 1.250, \"words\": \"hello there\"}\n]\n"
        );
        let again = read_text(&written).unwrap().corpus;
        for (id, t) in first.iter() {
            let u = again.get(id).unwrap();
            assert_eq!(t.annotation(), u.annotation(), "{id}");
        }
        // The sniffer knows it without a --from.
        assert_eq!(crate::format::sniff(&written), Some(Format::SegLst));
    }
}
