//! Podcasting 2.0 JSON transcripts (the `podcast:transcript` tag's `application/json` type,
//! Podcast Index namespace), read and written.
//!
//! ```json
//! {"version": "1.0.0", "segments": [
//!   {"speaker": "Darth Vader", "startTime": 0.5, "endTime": 0.75, "body": "I"},
//!   {"speaker": "Darth Vader", "startTime": 0.75, "endTime": 1.0, "body": "am"},
//!   {"speaker": "Luke", "startTime": 2.75, "endTime": 3.0, "body": "No!"}]}
//! ```
//!
//! **Reading.** Each segment is one track of its `speaker` over `[startTime, endTime)` with
//! `body` as its text (segments are words or phrases, as the publisher cut them; the analysis
//! joins a speaker's adjacent segments into talkspurts). A segment without a speaker goes to
//! the placeholder speaker `unknown`, with one `missing-speaker` warning. The specification
//! gives `endTime` "if available": when no segment has one, the segments are placed as
//! paragraph transcripts are ([`crate::format::paragraphs`]: each ends at the next later
//! start, or earlier by its words at two words per second, the end marked estimated), with one
//! note. Otherwise a segment without both times is dropped with one `missing-time` warning
//! naming its line and column.
//! A file whose every segment is dropped is an error, not an empty transcript. Times are
//! seconds, as numbers or strings, read exactly.
//!
//! **Writing.** One recording, `version` 1.0.0: a segment per word for a track whose words
//! all have times, else one per track with its text on one line; times in seconds, exact to
//! the microsecond.

use std::io::Write;

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Result, Warning, WarningKind};
use crate::format::json::{label, quote, scan, seconds_value, warn, UNKNOWN_SPEAKER};
use crate::format::paragraphs::{place_turns, StartTurn};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, TranscriptBuilder};

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told apart
/// in [`crate::format::json`].
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Podcast,
    name: "podcast",
    aliases: &["podcasting2", "podcast-json"],
    extension: "json",
    detected_by: &[],
    read: Ok(read),
    write: Some(write),
    json: true,
    many_recordings: false,
    paragraphs: false,
    sniff: &[],
};

/// The version of the transcript JSON this module writes.
const VERSION: &str = "1.0.0";

#[derive(Deserialize)]
struct Doc {
    #[serde(default)]
    segments: Option<Vec<SegmentJ>>,
}

#[derive(Deserialize)]
struct SegmentJ {
    #[serde(default)]
    speaker: Option<Value>,
    #[serde(default, rename = "startTime")]
    start: Option<Value>,
    #[serde(default, rename = "endTime")]
    end: Option<Value>,
    #[serde(default)]
    body: Option<String>,
}

const TRACKED: [&str; 1] = ["segments"];

/// Reads a Podcasting 2.0 JSON transcript into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let doc: Doc = scanned.parse(ctx)?;
    let Some(segments) = doc.segments else {
        return Err(Error::invalid(
            "no `segments` list: this JSON is not a Podcasting 2.0 transcript; name its format with --from, or leave --from out to detect it",
        ));
    };
    let mut b = TranscriptBuilder::new();
    let (mut kept, total) = (0usize, segments.len());
    let mut unnamed: Option<(Option<(usize, usize)>, usize)> = None;
    let mut untimed: Option<(Option<(usize, usize)>, usize)> = None;
    // `endTime` is optional ("if available"): a file with starts and no end is placed as
    // paragraph transcripts are, its ends estimated. Beside segments with an end, a segment
    // without one is dropped, as before.
    let open_ended = segments.iter().any(|s| s.start.as_ref().and_then(seconds_value).is_some())
        && segments.iter().all(|s| s.end.as_ref().and_then(seconds_value).is_none());
    let mut turns: Vec<StartTurn> = Vec::new();
    let mut first_open: Option<(usize, usize)> = None;
    for (k, s) in segments.into_iter().enumerate() {
        let pos = scanned.pos(0, k);
        let speaker = label(&s.speaker).filter(|n| !n.trim().is_empty()).unwrap_or_else(|| {
            unnamed.get_or_insert((pos, 0)).1 += 1;
            UNKNOWN_SPEAKER.to_owned()
        });
        let start = s.start.as_ref().and_then(seconds_value);
        let end = s.end.as_ref().and_then(seconds_value);
        let body = s.body.map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "));
        if let (true, Some(start)) = (open_ended, start) {
            let at = pos.unwrap_or((0, 0));
            first_open = first_open.or(Some(at));
            turns.push(StartTurn { at, speaker, start, end, text: body.unwrap_or_default() });
            continue;
        }
        let (Some(start), Some(end)) = (start, end) else {
            untimed.get_or_insert((pos, 0)).1 += 1;
            continue;
        };
        let content = body.filter(|t| !t.is_empty()).map(Content::text);
        if let Some(seg) = ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))? {
            b.add(seg, &speaker, content);
            kept += 1;
        }
    }
    if let Some((line, column)) = first_open {
        ctx.warn_at(
            WarningKind::Note,
            line,
            Some(column),
            format!("no segment has an `endTime`: each of the {} ends at the next later start, or earlier by its words at {} words per second (ends estimated)", turns.len(), crate::format::paragraphs::WORDS_PER_SECOND),
        )?;
        let before = b.len();
        place_turns(turns, &mut b, ctx)?;
        kept += b.len() - before;
    }
    if kept == 0 && total > 0 {
        return Err(Error::invalid(format!(
            "none of the {total} segments gives a speech segment (no `startTime` and `endTime`, or only zero-length ones): nothing to read"
        )));
    }
    if let Some((pos, n)) = unnamed {
        warn(
            ctx,
            WarningKind::MissingSpeaker,
            pos,
            format!("{n} segment(s) without a `speaker` go to the placeholder speaker {UNKNOWN_SPEAKER:?}"),
        )?;
    }
    if let Some((pos, n)) = untimed {
        warn(
            ctx,
            WarningKind::MissingTime,
            pos,
            format!("{n} segment(s) without `startTime` and `endTime` dropped"),
        )?;
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

/// Writes one recording as a Podcasting 2.0 JSON transcript (see the module doc).
pub fn write(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    use std::fmt::Write as _;
    crate::format::webvtt::one_recording(corpus, "podcast")?;
    let mut buf = format!("{{\n  \"version\": {},\n  \"segments\": [", quote(VERSION));
    let mut first = true;
    let mut push = |buf: &mut String, speaker: &str, start, end, body: &str| {
        let _ = write!(
            buf,
            "{}\n    {{\"speaker\": {}, \"startTime\": {start}, \"endTime\": {end}, \"body\": {}}}",
            if first { "" } else { "," },
            quote(speaker),
            quote(body),
        );
        first = false;
    };
    for (_, t) in corpus.iter() {
        for u in t.utterances() {
            let words = u.content.map(|c| c.words.as_slice()).unwrap_or_default();
            let timed =
                !words.is_empty() && words.iter().all(|w| w.start.is_some() && w.end.is_some());
            if timed {
                for w in words {
                    if let (Some(s), Some(e)) = (w.start, w.end) {
                        push(&mut buf, u.speaker_name, s, e, w.text.trim());
                    }
                }
            } else {
                let text = u.content.map(|c| c.display_text()).unwrap_or_default();
                let body = text.split_whitespace().collect::<Vec<_>>().join(" ");
                push(&mut buf, u.speaker_name, u.segment.start(), u.segment.end(), &body);
            }
            if buf.len() > 1 << 16 {
                out.write_all(buf.as_bytes())?;
                buf.clear();
            }
        }
    }
    buf.push_str(if first { "]\n}\n" } else { "\n  ]\n}\n" });
    out.write_all(buf.as_bytes()).map_err(Error::from)?;
    Ok(Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_support::tracks_with_text;
    use crate::format::{read_str, ReadOptions};

    /// The example of the namespace's documentation (`transcripts/transcripts.md`).
    const EXAMPLE: &str = r#"{
  "version": "1.0.0",
  "segments": [
    { "speaker": "Darth Vader", "startTime": 0.5, "endTime": 0.75, "body": "I" },
    { "speaker": "Darth Vader", "startTime": 0.75, "endTime": 1.0, "body": "am" },
    { "speaker": "Darth Vader", "startTime": 1.0, "endTime": 1.5, "body": "your" },
    { "speaker": "Darth Vader", "startTime": 1.5, "endTime": 2.5, "body": "father." },
    { "speaker": "Luke", "startTime": 2.75, "endTime": 3.0, "body": "Noooo" }
  ]
}"#;

    #[test]
    fn segments_are_tracks_of_their_speakers() {
        assert_eq!(crate::format::sniff(EXAMPLE), Some(Format::Podcast));
        let out = read_str(EXAMPLE, Format::Podcast, &ReadOptions::default()).unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let got = tracks_with_text(&out, "recording");
        assert_eq!(got.len(), 5);
        assert_eq!(got[3], (1_500_000, 2_500_000, "Darth Vader".to_owned(), "father.".to_owned()));
        assert_eq!(got[4], (2_750_000, 3_000_000, "Luke".to_owned(), "Noooo".to_owned()));
    }

    #[test]
    fn missing_speakers_and_times_are_said_and_nothing_timed_is_an_error() {
        let text = r#"{"segments": [
 {"startTime": "0.5", "endTime": "1.25", "body": "hello"},
 {"speaker": "B", "startTime": 2, "body": "lost"},
 {"speaker": "B", "startTime": 2, "endTime": 3, "body": " yes  there "}]}"#;
        let out = read_str(text, Format::Podcast, &ReadOptions::default()).unwrap();
        assert_eq!(
            tracks_with_text(&out, "recording"),
            vec![
                (500_000, 1_250_000, "unknown".to_owned(), "hello".to_owned()),
                (2_000_000, 3_000_000, "B".to_owned(), "yes there".to_owned()),
            ]
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(
            w,
            vec![(WarningKind::MissingSpeaker, Some(2)), (WarningKind::MissingTime, Some(3))]
        );
        let none = r#"{"segments": [{"speaker": "A", "body": "x"}]}"#;
        let e = read_str(none, Format::Podcast, &ReadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("nothing to read"), "{e}");
        let e = read_str(r#"{"monologues": []}"#, Format::Podcast, &ReadOptions::default())
            .unwrap_err();
        assert!(e.to_string().contains("not a Podcasting 2.0 transcript"), "{e}");
    }

    /// `endTime` is optional: a file of starts alone is placed as a paragraph transcript, its
    /// ends estimated (the next later start, or the words at two per second), not refused.
    #[test]
    fn starts_without_ends_are_placed_with_estimated_ends() {
        let text = r#"{"version": "1.0.0", "segments": [
 {"speaker": "Kevin", "startTime": 0, "body": "We have an update planned"},
 {"speaker": "Alban", "startTime": 9, "body": "You are triggering Tom"},
 {"speaker": "Kevin", "startTime": "10.5", "body": "Right."},
 {"speaker": "Kevin", "body": "lost"}]}"#;
        let out = read_str(text, Format::Podcast, &ReadOptions::default()).unwrap();
        let s = |a: i64, b: i64, who: &str, said: &str| (a, b, who.to_owned(), said.to_owned());
        assert_eq!(
            tracks_with_text(&out, "recording"),
            vec![
                s(0, 2_500_000, "Kevin", "We have an update planned"),
                s(9_000_000, 10_500_000, "Alban", "You are triggering Tom"),
                s(10_500_000, 11_000_000, "Kevin", "Right."),
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.estimated_ends(), 3);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.message.as_str())).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::Note, Some(2), "no segment has an `endTime`: each of the 3 ends at the next later start, or earlier by its words at 2 words per second (ends estimated)"),
                (WarningKind::MissingTime, Some(5), "1 segment(s) without `startTime` and `endTime` dropped"),
            ]
        );
    }

    #[test]
    fn written_transcripts_read_back() {
        let out = read_str(EXAMPLE, Format::Podcast, &ReadOptions::default()).unwrap();
        let mut buf = Vec::new();
        assert!(write(&out.corpus, &mut buf).unwrap().is_empty());
        let text = String::from_utf8(buf).unwrap();
        assert!(text.starts_with("{\n  \"version\": \"1.0.0\",\n  \"segments\": [\n    {\"speaker\": \"Darth Vader\", \"startTime\": 0.500, \"endTime\": 0.750, \"body\": \"I\"},"), "{text}");
        let back = read_str(&text, Format::Podcast, &ReadOptions::default()).unwrap();
        assert_eq!(tracks_with_text(&back, "recording"), tracks_with_text(&out, "recording"));
        // Timed words are written one segment each (a WhisperX transcript, say).
        let whisperx = r#"{"segments": [{"start": 0.1, "end": 1.0, "speaker": "A", "text": "Hi there",
  "words": [{"word": "Hi", "start": 0.1, "end": 0.4}, {"word": "there", "start": 0.5, "end": 1.0}]}]}"#;
        let w = read_str(whisperx, Format::WhisperX, &ReadOptions::default()).unwrap();
        let mut buf = Vec::new();
        write(&w.corpus, &mut buf).unwrap();
        let back =
            read_str(&String::from_utf8(buf).unwrap(), Format::Podcast, &ReadOptions::default())
                .unwrap();
        assert_eq!(
            tracks_with_text(&back, "recording"),
            vec![
                (100_000, 400_000, "A".to_owned(), "Hi".to_owned()),
                (500_000, 1_000_000, "A".to_owned(), "there".to_owned()),
            ]
        );
        // An empty transcript is a valid empty list.
        let mut buf = Vec::new();
        write(&Corpus::single("r", crate::model::Transcript::default()), &mut buf).unwrap();
        let v: Value = serde_json::from_slice(&buf).unwrap();
        assert_eq!(v["segments"], serde_json::json!([]));
    }
}
