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
//! - The Speech SDK's results (`result.json` of each recognized or transcribed phrase, in
//!   PascalCase: `Offset` and `Duration` in ticks, `SpeakerId`, `NBest` with `Display` and
//!   `Words`), saved as a list or one per line (JSON lines), are read as phrases too. A
//!   `SpeakerId` that is a name (`Guest-1`) is the speaker's name; `Unknown` is the
//!   placeholder [`UNKNOWN_SPEAKER`].
//!
//! overtalk does not write Azure results: they are a vendor's output, not an exchange format.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Result, WarningKind};
use crate::format::json::{is_list, label, scan, value_lines, warn, Pos, UNKNOWN_SPEAKER};
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
    #[serde(default, alias = "RecognitionStatus")]
    recognition_status: Option<String>,
    #[serde(default, alias = "Channel")]
    channel: Option<Value>,
    #[serde(default)]
    speaker: Option<Value>,
    /// The Speech SDK's speaker: a number or a name (`Guest-1`).
    #[serde(default, rename = "SpeakerId")]
    speaker_id: Option<Value>,
    #[serde(default, alias = "Offset")]
    offset_in_ticks: Option<f64>,
    #[serde(default, alias = "Duration")]
    duration_in_ticks: Option<f64>,
    #[serde(default)]
    offset_milliseconds: Option<f64>,
    #[serde(default)]
    duration_milliseconds: Option<f64>,
    #[serde(default, alias = "NBest", deserialize_with = "list_or_null")]
    n_best: Vec<BestJ>,
    /// Fast transcription: the phrase's text and words, without alternatives (the SDK's
    /// simple results: `DisplayText`).
    #[serde(default, alias = "DisplayText")]
    text: Option<String>,
    #[serde(default, deserialize_with = "list_or_null")]
    words: Vec<WordJ>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct BestJ {
    #[serde(default, alias = "Display")]
    display: Option<String>,
    #[serde(default, alias = "Words", deserialize_with = "list_or_null")]
    words: Vec<WordJ>,
}

/// A list, where `null` (the Speech SDK writes `"Words": null`) is an empty one.
fn list_or_null<'de, D, T>(d: D) -> std::result::Result<Vec<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(Option::<Vec<T>>::deserialize(d)?.unwrap_or_default())
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WordJ {
    #[serde(default, alias = "text", alias = "Word")]
    word: Option<String>,
    #[serde(default, alias = "Offset")]
    offset_in_ticks: Option<f64>,
    #[serde(default, alias = "Duration")]
    duration_in_ticks: Option<f64>,
    #[serde(default)]
    offset_milliseconds: Option<f64>,
    #[serde(default)]
    duration_milliseconds: Option<f64>,
    #[serde(default)]
    confidence: Option<f64>,
}

/// The phrases of a batch result, of fast transcription, and of a list of SDK results.
const TRACKED: [&str; 3] = ["recognizedPhrases", "phrases", ""];

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
    let mut b = TranscriptBuilder::new();
    let phrases: Vec<(PhraseJ, Option<Pos>)> = match value_lines::<PhraseJ>(text, "result", ctx)? {
        Some(lines) => lines.into_iter().map(|(p, line)| (p, Some((line, 1)))).collect(),
        None => {
            let scanned = scan(text, &TRACKED, false, ctx)?;
            let (phrases, path) = if is_list(text) {
                (scanned.parse::<Vec<PhraseJ>>(ctx)?, 2)
            } else {
                let doc: Doc = scanned.parse(ctx)?;
                if let Some(d) = time(doc.duration_in_ticks, doc.duration_milliseconds) {
                    b.extent(Segment::new(Time::ZERO, d));
                }
                // Batch phrases, else fast transcription's.
                if doc.recognized_phrases.is_empty() && !doc.phrases.is_empty() {
                    (doc.phrases, 1)
                } else {
                    (doc.recognized_phrases, 0)
                }
            };
            let n = phrases.len();
            phrases.into_iter().zip((0..n).map(|k| scanned.pos(path, k))).collect()
        }
    };
    let mut missing_speaker = false;
    for (k, (p, pos)) in phrases.into_iter().enumerate() {
        if p.recognition_status.as_deref().is_some_and(|s| s != "Success") {
            continue;
        }
        let sdk_speaker = label(&p.speaker_id).filter(|s| !s.is_empty() && s != "Unknown");
        let speaker = match (label(&p.speaker), sdk_speaker, label(&p.channel)) {
            (Some(s), _, _) => format!("speaker_{s}"),
            (None, Some(s), _) if s.parse::<u64>().is_ok() => format!("speaker_{s}"),
            (None, Some(s), _) => s,
            (None, None, Some(c)) => format!("channel_{c}"),
            (None, None, None) => {
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
        if let Some(seg) = ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))? {
            b.add(seg, &speaker, content);
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

    /// The Speech SDK's results (PascalCase, `"Words": null`), as a list and as JSON lines;
    /// a named speaker keeps its name, `Unknown` is the placeholder.
    #[test]
    fn speech_sdk_results_as_a_list_or_lines() {
        let one = |offset: u64, speaker: &str, display: &str| {
            format!(
                r#"{{"RecognitionStatus": "Success", "Offset": {offset}, "Duration": 5600000, "SpeakerId": "{speaker}", "NBest": [{{"Confidence": 0.95, "Display": "{display}", "Words": null}}]}}"#
            )
        };
        let rows = [
            one(900_000, "0", "Hello."),
            one(7_000_000, "Guest-2", "Hi."),
            one(20_000_000, "Unknown", "Bye."),
        ];
        let want = vec![
            (90_000, 650_000, "speaker_0".to_owned(), "Hello.".to_owned()),
            (700_000, 1_260_000, "Guest-2".to_owned(), "Hi.".to_owned()),
            (2_000_000, 2_560_000, "unknown".to_owned(), "Bye.".to_owned()),
        ];
        for text in [format!("[{}]", rows.join(",\n")), rows.join("\n")] {
            assert_eq!(crate::format::sniff(&text), Some(Format::Azure), "{text}");
            let out = read_str(&text, Format::Azure, &ReadOptions::default()).unwrap();
            assert_eq!(tracks_with_text(&out, "recording"), want, "{text}");
            let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
            assert_eq!(w, vec![(WarningKind::MissingSpeaker, Some(3), Some(1))], "{text}");
        }
        // A broken line after two good ones is an error naming it.
        let broken = format!("{}\n{}\n{{\"Offset\": ]", rows[0], rows[1]);
        let e = read_str(&broken, Format::Azure, &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(3), Some(12)), "{e}");
        assert!(e.to_string().contains("result 3: expected value"), "{e}");
    }
}
