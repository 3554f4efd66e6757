//! Google Cloud Speech-to-Text responses (`recognize`, `longrunningrecognize`, v1 and v2 REST
//! JSON), read only.
//!
//! ```json
//! {"results": [
//!   {"alternatives": [{"transcript": "hello there", "confidence": 0.92, "words": [
//!     {"startTime": "0.500s", "endTime": "0.900s", "word": "hello"}, …]}],
//!    "resultEndTime": "2.300s", "languageCode": "en-us"},
//!   {"alternatives": [{"words": [
//!     {"startTime": "0.500s", "endTime": "0.900s", "word": "hello", "speakerTag": 1}, …]}]}]}
//! ```
//!
//! - Times are durations as strings of seconds with an `s` (`"1.200s"`, v1 `startTime` /
//!   `endTime`, v2 `startOffset` / `endOffset`), read exactly; numbers are accepted too.
//! - With speaker diarization Google repeats **every word of the audio, with its speaker**, in
//!   the last result that has speakers (`speakerTag` in v1, `speakerLabel` in v2): those words
//!   are read and the others, which repeat them without speakers, are not. The speaker is
//!   `speaker_<tag>`.
//! - Without diarization the words of every result's first alternative are read, each result's
//!   `channelTag` naming the speaker (`channel_<n>`, multichannel audio) or, without it, the
//!   placeholder [`UNKNOWN_SPEAKER`] with one `missing-speaker` warning.
//! - Tracks are built from the words as for Deepgram: a new track at each speaker change or
//!   pause longer than 0.8 s. Words without times are dropped with one `missing-time` warning.
//!
//! overtalk does not write these responses: they are a vendor's output, not an exchange format.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Result, WarningKind};
use crate::format::json::{
    add_word_runs, label, scan, seconds_value, warn, LabelledWord, Untimed, UNKNOWN_SPEAKER,
};
use crate::format::ReadContext;
use crate::model::{Corpus, TranscriptBuilder, Word};
use crate::time::Time;

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told apart
/// in [`crate::format::json`].
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::GoogleStt,
    name: "google-stt",
    aliases: &["google", "gcp"],
    extension: "json",
    detected_by: &[],
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
    results: Vec<ResultJ>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResultJ {
    #[serde(default)]
    alternatives: Vec<AlternativeJ>,
    #[serde(default)]
    channel_tag: Option<Value>,
}

#[derive(Deserialize)]
struct AlternativeJ {
    #[serde(default)]
    words: Vec<WordJ>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WordJ {
    #[serde(default, alias = "startOffset")]
    start_time: Option<Value>,
    #[serde(default, alias = "endOffset")]
    end_time: Option<Value>,
    #[serde(default)]
    word: Option<String>,
    #[serde(default)]
    confidence: Option<f64>,
    #[serde(default, alias = "speakerLabel")]
    speaker_tag: Option<Value>,
}

const TRACKED: [&str; 1] = ["results"];

/// A protobuf JSON duration: `"1.200s"`, or a number of seconds.
fn offset(v: &Option<Value>) -> Option<Time> {
    match v {
        Some(Value::String(s)) => {
            seconds_value(&Value::String(s.trim().trim_end_matches('s').to_owned()))
        }
        Some(other) => seconds_value(other),
        None => None,
    }
}

/// A speaker tag, when it names a speaker (v1 uses 0 for "none").
fn speaker_tag(w: &WordJ) -> Option<String> {
    label(&w.speaker_tag).filter(|t| !t.is_empty() && t != "0")
}

/// Reads a Speech-to-Text response into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let doc: Doc = scanned.parse(ctx)?;
    // The last result whose words carry speakers holds every word of the audio.
    let diarized = doc.results.iter().rposition(|r| {
        r.alternatives.first().is_some_and(|a| a.words.iter().any(|w| speaker_tag(w).is_some()))
    });
    let mut labelled = Vec::new();
    let (mut missing, mut first_missing) = (0usize, None);
    let mut untimed = Untimed::default();
    for (k, r) in doc.results.into_iter().enumerate() {
        if diarized.is_some_and(|d| d != k) {
            continue;
        }
        let pos = scanned.pos(0, k);
        let channel = label(&r.channel_tag).map(|c| format!("channel_{c}"));
        let Some(alt) = r.alternatives.into_iter().next() else { continue };
        for w in alt.words {
            let speaker = match (diarized, speaker_tag(&w), &channel) {
                (Some(_), Some(tag), _) => format!("speaker_{tag}"),
                (None, _, Some(c)) => c.clone(),
                _ => {
                    missing += 1;
                    first_missing = first_missing.or(pos);
                    UNKNOWN_SPEAKER.to_owned()
                }
            };
            let (Some(start), Some(end)) = (offset(&w.start_time), offset(&w.end_time)) else {
                untimed.add(pos);
                continue;
            };
            let word = Word {
                text: w.word.unwrap_or_default(),
                start: Some(start),
                end: Some(end),
                confidence: w.confidence,
            };
            labelled.push(LabelledWord { speaker, word, start, end });
        }
    }
    if missing > 0 {
        let message = if diarized.is_some() {
            format!("{missing} word(s) of the diarized result have no speaker; given to the placeholder speaker {UNKNOWN_SPEAKER:?}")
        } else {
            format!("no word has a speaker (diarization was off); all speech is given to the placeholder speaker {UNKNOWN_SPEAKER:?}")
        };
        warn(ctx, WarningKind::MissingSpeaker, first_missing, message)?;
    }
    untimed.warn(ctx, "")?;
    // One diarized stream stays in time order (a speaker change ends a track); channels, which
    // overlap freely, are taken one at a time, each in time order.
    if diarized.is_some() {
        labelled.sort_by_key(|w| w.start);
    } else {
        labelled.sort_by(|x, y| (&x.speaker, x.start).cmp(&(&y.speaker, y.start)));
    }
    let mut b = TranscriptBuilder::new();
    add_word_runs(ctx, labelled, &mut b)?;
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_support::tracks_with_text;
    use crate::format::{read_str, ReadOptions};

    fn tracks(out: &crate::format::ReadOutput) -> Vec<(i64, i64, String, String)> {
        tracks_with_text(out, "recording")
    }

    #[test]
    fn the_diarized_last_result_is_read_once() {
        let out = read_str(
            r#"{"results": [
  {"alternatives": [{"transcript": "hello there", "confidence": 0.92, "words": [
    {"startTime": "0.500s", "endTime": "0.900s", "word": "hello"},
    {"startTime": "0.900s", "endTime": "1.300s", "word": "there"}]}], "resultEndTime": "1.300s"},
  {"alternatives": [{"transcript": "hi", "words": [
    {"startTime": "1.200s", "endTime": "1.600s", "word": "hi"}]}], "resultEndTime": "1.600s"},
  {"alternatives": [{"words": [
    {"startTime": "0.500s", "endTime": "0.900s", "word": "hello", "speakerTag": 1},
    {"startTime": "0.900s", "endTime": "1.300s", "word": "there", "speakerTag": 1},
    {"startTime": "1.200s", "endTime": "1.600s", "word": "hi", "speakerTag": 2}]}]}]}"#,
            Format::GoogleStt,
            &ReadOptions::default(),
        )
        .unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(
            tracks(&out),
            vec![
                (500_000, 1_300_000, "speaker_1".to_owned(), "hello there".to_owned()),
                (1_200_000, 1_600_000, "speaker_2".to_owned(), "hi".to_owned()),
            ]
        );
    }

    #[test]
    fn v2_offsets_channels_and_undiarized_words() {
        let out = read_str(
            r#"{"results": [
  {"channelTag": 1, "alternatives": [{"words": [{"startOffset": "0s", "endOffset": "0.5s", "word": "a"}]}]},
  {"channelTag": 2, "alternatives": [{"words": [{"startOffset": "0.25s", "endOffset": "0.75s", "word": "b"}]}]}]}"#,
            Format::GoogleStt,
            &ReadOptions::default(),
        )
        .unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(
            tracks(&out),
            vec![
                (0, 500_000, "channel_1".to_owned(), "a".to_owned()),
                (250_000, 750_000, "channel_2".to_owned(), "b".to_owned()),
            ]
        );
        let out = read_str(
            "{\"results\": [\n  {\"alternatives\": [{\"words\": [{\"startTime\": \"1s\", \"endTime\": \"2s\", \"word\": \"x\"}, {\"word\": \"y\"}]}]}]}",
            Format::GoogleStt,
            &ReadOptions::default(),
        )
        .unwrap();
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::MissingSpeaker, Some(2), Some(3)),
                (WarningKind::MissingTime, Some(2), Some(3))
            ]
        );
        assert_eq!(
            tracks(&out),
            vec![(1_000_000, 2_000_000, "unknown".to_owned(), "x".to_owned())]
        );
        let head = r#"{"results": [{"alternatives": [{"transcript": "x", "words": [{"startTime": "0s"}]}], "resultEndTime": "1s"}]}"#;
        assert_eq!(crate::format::sniff(head), Some(Format::GoogleStt));
    }
}
