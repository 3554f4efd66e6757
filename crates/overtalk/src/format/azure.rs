//! Azure AI Speech results, read only: batch transcription (the `…_transcription.json`
//! files) and fast transcription (the `transcriptions:transcribe` response).
//!
//! ```json
//! {"source": "…", "durationInTicks": 41200000, "duration": "PT4.12S",
//!  "recognizedPhrases": [
//!    {"recognitionStatus": "Success", "channel": 0, "speaker": 1,
//!     "offsetInTicks": 700000, "durationInTicks": 15900000,
//!     "nBest": [{"confidence": 0.89, "display": "Hello world.",
//!                "words": [{"word": "hello", "offsetInTicks": 700000, "durationInTicks": 4000000,
//!                           "confidence": 0.9}]}]}]}
//! ```
//!
//! - Each recognized phrase is one track, from `offsetInTicks` for `durationInTicks` (ticks of
//!   100 ns, exact to the microsecond only when divisible by 10: they are rounded to it), with
//!   its best alternative's `display` text and words. Phrases whose `recognitionStatus` is not
//!   `Success` are left out.
//! - The speaker is `speaker_<n>` with diarization; without it, `channel_<n>` (one speaker per
//!   channel of a stereo call, Azure's default for two-channel audio).
//! - `durationInTicks` of the file becomes the declared extent.
//! - Fast transcription writes `phrases` instead of `recognizedPhrases`, each with its `text`
//!   and `words` (`text`, `offsetMilliseconds`, `durationMilliseconds`) and times in
//!   milliseconds (`offsetMilliseconds`, `durationMilliseconds`); they are read the same way.
//!
//! ```json
//! {"durationMilliseconds": 182439, "combinedPhrases": [{"channel": 0, "text": "…"}],
//!  "phrases": [{"channel": 0, "speaker": 1, "offsetMilliseconds": 960,
//!               "durationMilliseconds": 640, "text": "Good afternoon.", "confidence": 0.94,
//!               "words": [{"text": "Good", "offsetMilliseconds": 960, "durationMilliseconds": 240}]}]}
//! ```
//!
//! overtalk does not write Azure results: they are a vendor's output, not an exchange format.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Result, WarningKind};
use crate::format::json::{label, scan, warn, UNKNOWN_SPEAKER};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, Segment, TranscriptBuilder, Word};
use crate::time::Time;

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told apart
/// in [`crate::format::json`].
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Azure,
    name: "azure",
    aliases: &["azure-speech"],
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
#[serde(rename_all = "camelCase")]
struct Doc {
    #[serde(default, alias = "durationTicks")]
    duration_in_ticks: Option<f64>,
    #[serde(default)]
    duration_milliseconds: Option<f64>,
    #[serde(default)]
    recognized_phrases: Vec<PhraseJ>,
    /// Fast transcription's phrases.
    #[serde(default)]
    phrases: Vec<PhraseJ>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PhraseJ {
    #[serde(default)]
    recognition_status: Option<String>,
    #[serde(default)]
    channel: Option<Value>,
    #[serde(default)]
    speaker: Option<Value>,
    #[serde(default)]
    offset_in_ticks: Option<f64>,
    #[serde(default)]
    duration_in_ticks: Option<f64>,
    #[serde(default)]
    offset_milliseconds: Option<f64>,
    #[serde(default)]
    duration_milliseconds: Option<f64>,
    #[serde(default)]
    n_best: Vec<BestJ>,
    /// Fast transcription: the phrase's text and words, without alternatives.
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    words: Vec<WordJ>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BestJ {
    #[serde(default)]
    display: Option<String>,
    #[serde(default)]
    words: Vec<WordJ>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WordJ {
    #[serde(default, alias = "text")]
    word: Option<String>,
    #[serde(default)]
    offset_in_ticks: Option<f64>,
    #[serde(default)]
    duration_in_ticks: Option<f64>,
    #[serde(default)]
    offset_milliseconds: Option<f64>,
    #[serde(default)]
    duration_milliseconds: Option<f64>,
    #[serde(default)]
    confidence: Option<f64>,
}

const TRACKED: [&str; 2] = ["recognizedPhrases", "phrases"];

/// Ticks (100 ns) as a time, rounded to the microsecond; `None` when not finite or out of range.
fn ticks(t: f64) -> Option<Time> {
    Time::from_secs_f64(t / 1e7)
}

/// A time given in ticks, else in milliseconds (fast transcription).
fn time(ticks_value: Option<f64>, ms: Option<f64>) -> Option<Time> {
    ticks_value.and_then(ticks).or_else(|| ms.and_then(|ms| Time::from_secs_f64(ms / 1e3)))
}

/// Reads an Azure batch transcription result into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let doc: Doc = scanned.parse(ctx)?;
    let mut b = TranscriptBuilder::new();
    if let Some(d) = time(doc.duration_in_ticks, doc.duration_milliseconds) {
        b.extent(Segment::new(Time::ZERO, d));
    }
    let mut missing_speaker = false;
    // Batch phrases, else fast transcription's.
    let (phrases, path) = if doc.recognized_phrases.is_empty() && !doc.phrases.is_empty() {
        (doc.phrases, 1)
    } else {
        (doc.recognized_phrases, 0)
    };
    for (k, p) in phrases.into_iter().enumerate() {
        let pos = scanned.pos(path, k);
        if p.recognition_status.as_deref().is_some_and(|s| s != "Success") {
            continue;
        }
        let speaker = match (label(&p.speaker), label(&p.channel)) {
            (Some(s), _) => format!("speaker_{s}"),
            (None, Some(c)) => format!("channel_{c}"),
            (None, None) => {
                if !missing_speaker {
                    missing_speaker = true;
                    warn(
                        ctx,
                        WarningKind::MissingSpeaker,
                        pos,
                        format!("phrase {k} has neither speaker nor channel; it and every later one like it go to the placeholder speaker {UNKNOWN_SPEAKER:?}"),
                    )?;
                }
                UNKNOWN_SPEAKER.to_owned()
            }
        };
        let start = time(p.offset_in_ticks, p.offset_milliseconds);
        let length = time(p.duration_in_ticks, p.duration_milliseconds);
        // The best alternative (batch), else the phrase's own text and words (fast).
        let best = p.n_best.into_iter().next().or_else(|| {
            (p.text.is_some() || !p.words.is_empty())
                .then_some(BestJ { display: p.text, words: p.words })
        });
        let content = best.map(|best| {
            let words: Vec<Word> = best
                .words
                .into_iter()
                .filter_map(|w| {
                    let s = time(w.offset_in_ticks, w.offset_milliseconds)?;
                    let d = time(w.duration_in_ticks, w.duration_milliseconds)?;
                    Some(Word {
                        text: w.word.unwrap_or_default(),
                        start: Some(s),
                        end: Some(Time::from_micros(s.micros().saturating_add(d.micros()))),
                        confidence: w.confidence,
                    })
                })
                .collect();
            Content { text: best.display, words }
        });
        let (start, end) = match (start, length) {
            (Some(start), Some(length)) => {
                (start, Time::from_micros(start.micros().saturating_add(length.micros())))
            }
            _ => {
                // No times of its own: the span of its timed words, if it has any.
                let words = content.as_ref().map_or(&[][..], |c| c.words.as_slice());
                let span = words
                    .iter()
                    .filter_map(|w| w.start)
                    .min()
                    .zip(words.iter().filter_map(|w| w.end).max());
                let Some((first, last)) = span else {
                    warn(
                        ctx,
                        WarningKind::MissingTime,
                        pos,
                        format!("phrase {k} has no offset or duration (in ticks or milliseconds) and no timed word; dropped"),
                    )?;
                    b.speaker(&speaker);
                    continue;
                };
                warn(
                    ctx,
                    WarningKind::MissingTime,
                    pos,
                    format!("phrase {k} has no offset or duration (in ticks or milliseconds); its span is taken from its timed words"),
                )?;
                (first, last)
            }
        };
        match ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))? {
            Some(seg) => {
                b.add(seg, &speaker, content);
            }
            None => {
                b.speaker(&speaker);
            }
        }
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_support::tracks_with_text;
    use crate::format::{read_str, ReadOptions};

    #[test]
    fn phrases_become_tracks_by_speaker_or_channel() {
        let out = read_str(
            r#"{"source": "x.wav", "durationInTicks": 41200000, "duration": "PT4.12S",
 "recognizedPhrases": [
  {"recognitionStatus": "Success", "channel": 0, "speaker": 1, "offset": "PT0.07S", "offsetInTicks": 700000, "durationInTicks": 15900000,
   "nBest": [{"confidence": 0.89, "display": "Hello world.", "words": [
     {"word": "hello", "offsetInTicks": 700000, "durationInTicks": 4000000, "confidence": 0.9},
     {"word": "world", "offsetInTicks": 4700000, "durationInTicks": 11900000, "confidence": 0.88}]}]},
  {"recognitionStatus": "Success", "channel": 0, "speaker": 2, "offsetInTicks": 15000000, "durationInTicks": 5000000,
   "nBest": [{"display": "Hi."}]},
  {"recognitionStatus": "NoMatch", "channel": 0, "offsetInTicks": 25000000, "durationInTicks": 5000000},
  {"recognitionStatus": "Success", "channel": 1, "offsetInTicks": 30000000, "durationInTicks": 5000000, "nBest": [{"display": "Bye."}]}]}"#,
            Format::Azure,
            &ReadOptions::default(),
        )
        .unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let t = out.corpus.get("recording").unwrap();
        let got = tracks_with_text(&out, "recording");
        assert_eq!(
            got,
            vec![
                (70_000, 1_660_000, "speaker_1".to_owned(), "Hello world.".to_owned()),
                (1_500_000, 2_000_000, "speaker_2".to_owned(), "Hi.".to_owned()),
                (3_000_000, 3_500_000, "channel_1".to_owned(), "Bye.".to_owned()),
            ]
        );
        let w = &t.contents()[0].as_ref().unwrap().words[1];
        assert_eq!(
            (w.start, w.end),
            (Some(Time::from_micros(470_000)), Some(Time::from_micros(1_660_000)))
        );
        assert_eq!(t.declared_extent(), Segment::from_micros(0, 4_120_000));
        assert_eq!(crate::format::sniff(r#"{"recognizedPhrases": []}"#), Some(Format::Azure));
    }

    #[test]
    fn phrases_without_times_or_speaker_are_named_and_strict_rejects_them() {
        let text = "{\"recognizedPhrases\": [\n  {\"offsetInTicks\": 0, \"durationInTicks\": 10000000},\n  {\"speaker\": 1, \"offsetInTicks\": 20000000}\n]}";
        let out = read_str(text, Format::Azure, &ReadOptions::default()).unwrap();
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::MissingSpeaker, Some(2), Some(3)),
                (WarningKind::MissingTime, Some(3), Some(3))
            ]
        );
        assert_eq!(
            tracks_with_text(&out, "recording"),
            vec![(0, 1_000_000, "unknown".to_owned(), String::new())]
        );
        let strict = ReadOptions { strict: true, ..Default::default() };
        let e = read_str(text, Format::Azure, &strict).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(3), Some(3)), "{e}");
    }

    /// Fast transcription: `phrases` with their own text and words, in milliseconds; a phrase
    /// without times of its own spans its timed words.
    #[test]
    fn fast_transcription_phrases_in_milliseconds() {
        let text = r#"{"durationMilliseconds": 182439, "combinedPhrases": [{"channel": 0, "text": "Good afternoon. Hi."}],
 "phrases": [
  {"channel": 0, "speaker": 1, "offsetMilliseconds": 960, "durationMilliseconds": 640, "text": "Good afternoon.", "confidence": 0.94,
   "words": [{"text": "Good", "offsetMilliseconds": 960, "durationMilliseconds": 240}, {"text": "afternoon.", "offsetMilliseconds": 1200, "durationMilliseconds": 400}]},
  {"channel": 0, "speaker": 2, "text": "Hi.", "words": [{"text": "Hi.", "offsetMilliseconds": 1700, "durationMilliseconds": 300}]}]}"#;
        assert_eq!(crate::format::sniff(text), Some(Format::Azure));
        let out = read_str(text, Format::Azure, &ReadOptions::default()).unwrap();
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::MissingTime, Some(5), Some(3))]);
        assert_eq!(
            tracks_with_text(&out, "recording"),
            vec![
                (960_000, 1_600_000, "speaker_1".to_owned(), "Good afternoon.".to_owned()),
                (1_700_000, 2_000_000, "speaker_2".to_owned(), "Hi.".to_owned())
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.declared_extent(), Segment::from_micros(0, 182_439_000));
        assert_eq!(t.contents()[0].as_ref().unwrap().words.len(), 2);
    }
}
