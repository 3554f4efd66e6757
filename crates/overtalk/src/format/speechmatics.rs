//! Speechmatics batch transcripts (`json-v2`), read only.
//!
//! ```json
//! {"format": "2.9", "job": {"id": "…", "duration": 8},
//!  "metadata": {"transcription_config": {"diarization": "speaker"}},
//!  "results": [
//!    {"type": "word", "start_time": 0.33, "end_time": 0.84,
//!     "alternatives": [{"content": "Hello", "confidence": 0.99, "language": "en", "speaker": "S1"}]},
//!    {"type": "punctuation", "attaches_to": "previous", "start_time": 0.84, "end_time": 0.84,
//!     "alternatives": [{"content": ".", "confidence": 1, "speaker": "S1"}]}]}
//! ```
//!
//! - Words are the `word` results with their first alternative's `content` and `confidence`,
//!   times in seconds; a `punctuation` result is appended to the word before it (or, with
//!   `attaches_to: "next"`, put before the next word).
//! - The speaker is the alternative's `speaker` (`S1`, `S2`, …; speaker diarization), else the
//!   result's `channel` (`channel_1`, …; channel diarization). `UU` (speaker unknown) and words
//!   without either go to the placeholder [`UNKNOWN_SPEAKER`], with one `missing-speaker`
//!   warning.
//! - Tracks are built from the words as for Deepgram: a new track at each speaker change or pause
//!   longer than 0.8 s.
//! - `job.duration` (seconds) becomes the declared extent.
//!
//! overtalk does not write Speechmatics transcripts: they are a vendor's output, not an exchange
//! format.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Result, WarningKind};
use crate::format::json::{
    add_word_runs, label, scan, seconds_value, warn, LabelledWord, Pos, Untimed, UNKNOWN_SPEAKER,
};
use crate::format::ReadContext;
use crate::model::{Corpus, Segment, TranscriptBuilder, Word};
use crate::time::Time;

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told apart
/// in [`crate::format::json`].
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Speechmatics,
    name: "speechmatics",
    aliases: &[],
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
    job: Option<JobJ>,
    #[serde(default)]
    results: Vec<ResultJ>,
}

#[derive(Deserialize)]
struct JobJ {
    #[serde(default)]
    duration: Option<Value>,
}

#[derive(Deserialize)]
struct ResultJ {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    start_time: Option<Value>,
    #[serde(default)]
    end_time: Option<Value>,
    #[serde(default)]
    attaches_to: Option<String>,
    #[serde(default)]
    channel: Option<Value>,
    #[serde(default)]
    alternatives: Vec<AlternativeJ>,
}

#[derive(Deserialize)]
struct AlternativeJ {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    confidence: Option<f64>,
    #[serde(default)]
    speaker: Option<Value>,
}

const TRACKED: [&str; 1] = ["results"];

/// Reads a Speechmatics transcript into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let doc: Doc = scanned.parse(ctx)?;
    let mut b = TranscriptBuilder::new();
    if let Some(d) = doc.job.and_then(|j| j.duration).as_ref().and_then(seconds_value) {
        b.extent(Segment::new(Time::ZERO, d));
    }
    let mut labelled: Vec<LabelledWord> = Vec::new();
    let (mut missing, mut first_missing): (usize, Option<Pos>) = (0, None);
    let mut untimed = Untimed::default();
    let mut pending_prefix = String::new();
    for (k, r) in doc.results.into_iter().enumerate() {
        let pos = scanned.pos(0, k);
        let alt = r.alternatives.into_iter().next();
        let content = alt.as_ref().and_then(|a| a.content.clone()).unwrap_or_default();
        match r.kind.as_deref() {
            Some("word") => {}
            Some("punctuation") => {
                if r.attaches_to.as_deref() == Some("next") {
                    pending_prefix.push_str(content.trim());
                } else if let Some(w) = labelled.last_mut() {
                    w.word.text.push_str(content.trim());
                }
                continue;
            }
            _ => continue,
        }
        let start = r.start_time.as_ref().and_then(seconds_value);
        let end = r.end_time.as_ref().and_then(seconds_value);
        let (Some(start), Some(end)) = (start, end) else {
            untimed.add(pos);
            continue;
        };
        let speaker = alt
            .as_ref()
            .and_then(|a| label(&a.speaker))
            .filter(|s| s != "UU")
            .or_else(|| label(&r.channel))
            .unwrap_or_else(|| {
                missing += 1;
                first_missing = first_missing.or(pos);
                UNKNOWN_SPEAKER.to_owned()
            });
        let text = std::mem::take(&mut pending_prefix) + &content;
        let word = Word {
            text,
            start: Some(start),
            end: Some(end),
            confidence: alt.and_then(|a| a.confidence),
        };
        labelled.push(LabelledWord { speaker, word, start, end });
    }
    if missing > 0 {
        let total = labelled.len();
        let message = if missing == total {
            format!("no word has a speaker (diarization was off); all speech is given to the placeholder speaker {UNKNOWN_SPEAKER:?}")
        } else {
            format!("{missing} of {total} words have no known speaker; given to the placeholder speaker {UNKNOWN_SPEAKER:?}")
        };
        warn(ctx, WarningKind::MissingSpeaker, first_missing, message)?;
    }
    untimed.warn(ctx, "")?;
    add_word_runs(ctx, labelled, &mut b)?;
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_support::tracks_with_text;
    use crate::format::{read_str, ReadOptions};

    #[test]
    fn words_make_tracks_by_speaker_and_pause() {
        let out = read_str(
            r#"{"format": "2.9", "job": {"duration": 8},
 "metadata": {"transcription_config": {"diarization": "speaker"}},
 "results": [
  {"type": "word", "start_time": 0.33, "end_time": 0.84, "alternatives": [{"content": "Hello", "confidence": 0.99, "speaker": "S1"}]},
  {"type": "punctuation", "attaches_to": "previous", "start_time": 0.84, "end_time": 0.84, "alternatives": [{"content": ",", "speaker": "S1"}]},
  {"type": "word", "start_time": 0.9, "end_time": 1.2, "alternatives": [{"content": "you", "speaker": "S1"}]},
  {"type": "word", "start_time": 1.1, "end_time": 1.5, "alternatives": [{"content": "hi", "speaker": "S2"}]},
  {"type": "word", "start_time": 3.0, "end_time": 3.4, "alternatives": [{"content": "so", "speaker": "S1"}]},
  {"type": "word", "start_time": 3.5, "end_time": 3.6, "alternatives": [{"content": "mm", "speaker": "UU"}]},
  {"type": "word", "alternatives": [{"content": "lost", "speaker": "S1"}]}]}"#,
            Format::Speechmatics,
            &ReadOptions::default(),
        )
        .unwrap();
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::MissingSpeaker, Some(9), Some(3)),
                (WarningKind::MissingTime, Some(10), Some(3))
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        let got = tracks_with_text(&out, "recording");
        assert_eq!(
            got,
            vec![
                (330_000, 1_200_000, "S1".to_owned(), "Hello, you".to_owned()),
                (1_100_000, 1_500_000, "S2".to_owned(), "hi".to_owned()),
                (3_000_000, 3_400_000, "S1".to_owned(), "so".to_owned()),
                (3_500_000, 3_600_000, "unknown".to_owned(), "mm".to_owned()),
            ]
        );
        assert_eq!(t.declared_extent(), Segment::from_micros(0, 8_000_000));
        let head = r#"{"format": "2.9", "job": {"id": "x"}, "results": [{"type": "word"}]}"#;
        assert_eq!(crate::format::sniff(head), Some(Format::Speechmatics));
    }
}
