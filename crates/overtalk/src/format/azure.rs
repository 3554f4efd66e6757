//! Azure AI Speech batch transcription results (the `…_transcription.json` files), read only.
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
    #[serde(default)]
    duration_in_ticks: Option<f64>,
    #[serde(default)]
    recognized_phrases: Vec<PhraseJ>,
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
    n_best: Vec<BestJ>,
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
    #[serde(default)]
    word: Option<String>,
    #[serde(default)]
    offset_in_ticks: Option<f64>,
    #[serde(default)]
    duration_in_ticks: Option<f64>,
    #[serde(default)]
    confidence: Option<f64>,
}

const TRACKED: [&str; 1] = ["recognizedPhrases"];

/// Ticks (100 ns) as a time, rounded to the microsecond; `None` when not finite or out of range.
fn ticks(t: f64) -> Option<Time> {
    Time::from_secs_f64(t / 1e7)
}

/// Reads an Azure batch transcription result into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let doc: Doc = scanned.parse(ctx)?;
    let mut b = TranscriptBuilder::new();
    if let Some(d) = doc.duration_in_ticks.and_then(ticks) {
        b.extent(Segment::new(Time::ZERO, d));
    }
    let mut missing_speaker = false;
    for (k, p) in doc.recognized_phrases.into_iter().enumerate() {
        let pos = scanned.pos(0, k);
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
        let start = p.offset_in_ticks.and_then(ticks);
        let length = p.duration_in_ticks.and_then(ticks);
        let (Some(start), Some(length)) = (start, length) else {
            warn(
                ctx,
                WarningKind::MissingTime,
                pos,
                format!("phrase {k} has no offsetInTicks or durationInTicks; dropped"),
            )?;
            b.speaker(&speaker);
            continue;
        };
        let end = Time::from_micros(start.micros().saturating_add(length.micros()));
        let best = p.n_best.into_iter().next();
        let content = best.map(|best| {
            let words = best
                .words
                .into_iter()
                .filter_map(|w| {
                    let s = w.offset_in_ticks.and_then(ticks)?;
                    let d = w.duration_in_ticks.and_then(ticks)?;
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
}
