//! Gladia pre-recorded transcription JSON (API v2: `GET /v2/pre-recorded/{id}`, or the job's
//! `result` saved alone), read only.
//!
//! ```json
//! {"id": "…", "request_id": "G-…", "version": 2, "status": "done", "kind": "pre-recorded",
//!  "request_params": {"diarization": true},
//!  "result": {"metadata": {"audio_duration": 7.5, "number_of_distinct_channels": 1},
//!             "transcription": {"full_transcript": "So the plan is…",
//!               "utterances": [{"start": 0.0, "end": 4.21, "speaker": 0, "channel": 0,
//!                               "text": "So the plan is", "language": "en", "confidence": 0.9,
//!                               "words": [{"word": " So", "start": 0.0, "end": 0.18, "confidence": 0.99}]}]}}}
//! ```
//!
//! - Each utterance of `result.transcription.utterances` (or `transcription.utterances` when
//!   the `result` was saved alone) is one track of its speaker, with its text and words; times
//!   in **seconds**. A word's leading space is dropped.
//! - The speaker is the utterance's `speaker` (an integer, `diarization: true`), named
//!   `speaker_0`, `speaker_1`, …; with several audio channels the channel is part of the name
//!   (`channel_1_speaker_0`), or is the name without diarization (`channel_1`). An utterance
//!   with neither goes to the placeholder [`UNKNOWN_SPEAKER`], with one `missing-speaker`
//!   warning.
//! - `result.metadata.audio_duration` becomes the declared extent.
//! - Translations (`result.translation`: the same utterances in another language), sentences
//!   and subtitles are not read: they repeat the speech.
//! - A job whose `status` is not `done` is an error saying what the status is.
//!
//! overtalk does not write Gladia transcripts: they are a vendor's output, not an exchange
//! format.

use std::collections::BTreeSet;

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Result, WarningKind};
use crate::format::json::{label, scan, seconds_value, warn, Pos, Untimed, UNKNOWN_SPEAKER};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, Segment, TranscriptBuilder, Word};
use crate::time::Time;

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told apart
/// in [`crate::format::json`].
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Gladia,
    name: "gladia",
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

/// A job, or its `result` saved alone (then `metadata` and `transcription` are at the top).
#[derive(Deserialize)]
struct Doc {
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    error_code: Option<Value>,
    #[serde(default)]
    result: Option<ResultJ>,
    #[serde(flatten)]
    alone: ResultJ,
}

#[derive(Deserialize, Default)]
struct ResultJ {
    #[serde(default)]
    metadata: Option<MetadataJ>,
    #[serde(default)]
    transcription: Option<TranscriptionJ>,
}

#[derive(Deserialize, Default)]
struct MetadataJ {
    #[serde(default)]
    audio_duration: Option<Value>,
}

#[derive(Deserialize, Default)]
struct TranscriptionJ {
    #[serde(default)]
    utterances: Vec<UtteranceJ>,
}

#[derive(Deserialize)]
struct UtteranceJ {
    #[serde(default)]
    start: Option<Value>,
    #[serde(default)]
    end: Option<Value>,
    #[serde(default)]
    speaker: Option<Value>,
    #[serde(default)]
    channel: Option<Value>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    words: Vec<WordJ>,
}

#[derive(Deserialize)]
struct WordJ {
    #[serde(default)]
    word: Option<String>,
    #[serde(default)]
    start: Option<Value>,
    #[serde(default)]
    end: Option<Value>,
    #[serde(default)]
    confidence: Option<f64>,
}

const TRACKED: [&str; 4] = [
    "result/transcription/utterances",
    "result/transcription/utterances/words",
    "transcription/utterances",
    "transcription/utterances/words",
];

/// Reads a Gladia transcription into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let doc: Doc = scanned.parse(ctx)?;
    match doc.status.as_deref() {
        None | Some("done") => {}
        Some("error") => {
            let why = doc.error_code.map(|e| format!(" (error code {e})")).unwrap_or_default();
            return Err(Error::invalid(format!("the Gladia transcription failed{why}")));
        }
        Some(other) => {
            return Err(Error::invalid(format!(
                "the Gladia transcription is not done (status {other:?}); fetch it again when it is \"done\""
            )))
        }
    }
    let (result, path) = match doc.result {
        Some(r) => (r, 0),
        None => (doc.alone, 2),
    };
    let Some(transcription) = result.transcription else {
        return Err(Error::invalid(
            "a Gladia transcription needs `result.transcription.utterances` (or `transcription.utterances` in a saved result); there is no `transcription`",
        ));
    };
    let mut b = TranscriptBuilder::new();
    if let Some(d) = result.metadata.and_then(|m| m.audio_duration).as_ref().and_then(seconds_value)
    {
        b.extent(Segment::new(Time::ZERO, d));
    }
    let utterances = transcription.utterances;
    let channels: BTreeSet<String> = utterances.iter().filter_map(|u| label(&u.channel)).collect();
    let multichannel = channels.len() > 1;
    let (mut missing, mut first_missing): (usize, Option<Pos>) = (0, None);
    let mut untimed_words = Untimed::default();
    let (mut untimed, mut first_untimed): (usize, Option<Pos>) = (0, None);
    let mut n_word = 0usize;
    for (k, u) in utterances.into_iter().enumerate() {
        let pos = scanned.pos(path, k);
        let mut words = Vec::with_capacity(u.words.len());
        for w in u.words {
            let wpos = scanned.pos(path + 1, n_word);
            n_word += 1;
            let (start, end) =
                (w.start.as_ref().and_then(seconds_value), w.end.as_ref().and_then(seconds_value));
            if start.is_none() || end.is_none() {
                untimed_words.add(wpos);
                continue;
            }
            let text = w.word.unwrap_or_default().trim().to_owned();
            words.push(Word { text, start, end, confidence: w.confidence });
        }
        let channel = label(&u.channel).filter(|_| multichannel).map(|c| format!("channel_{c}"));
        let speaker = match (label(&u.speaker).map(|s| format!("speaker_{s}")), channel) {
            (Some(s), Some(c)) => format!("{c}_{s}"),
            (Some(s), None) | (None, Some(s)) => s,
            (None, None) => {
                missing += 1;
                first_missing = first_missing.or(pos);
                UNKNOWN_SPEAKER.to_owned()
            }
        };
        let start = u.start.as_ref().and_then(seconds_value);
        let end = u.end.as_ref().and_then(seconds_value);
        let (Some(start), Some(end)) = (start, end) else {
            untimed += 1;
            first_untimed = first_untimed.or(pos);
            continue;
        };
        let text = u.text.map(|t| t.trim().to_owned());
        if let Some(s) = ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))? {
            b.add(s, &speaker, Some(Content { text, words }));
        }
    }
    if missing > 0 {
        warn(
            ctx,
            WarningKind::MissingSpeaker,
            first_missing,
            format!("{missing} utterance(s) without a speaker (diarization was off); given to the placeholder speaker {UNKNOWN_SPEAKER:?}"),
        )?;
    }
    if untimed > 0 {
        warn(
            ctx,
            WarningKind::MissingTime,
            first_untimed,
            format!("{untimed} utterance(s) without start or end dropped"),
        )?;
    }
    untimed_words.warn(ctx, "")?;
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_support::tracks_with_text;
    use crate::format::{read_str, ReadOptions};

    const JOB: &str = r#"{"id": "45463597", "request_id": "G-45463597", "version": 2, "status": "done",
 "kind": "pre-recorded", "request_params": {"diarization": true},
 "result": {"metadata": {"audio_duration": 7.5, "number_of_distinct_channels": 1},
  "transcription": {"full_transcript": "So the plan. Friday.",
   "utterances": [
    {"start": 0.0, "end": 4.21, "speaker": 0, "channel": 0, "text": " So the plan.", "language": "en",
     "words": [{"word": " So", "start": 0.0, "end": 0.18, "confidence": 0.99},
               {"word": " the", "start": 0.2, "end": 0.3, "confidence": 0.9},
               {"word": " plan.", "start": 0.4, "end": 4.21}]},
    {"start": 3.95, "end": 6.25, "speaker": 1, "channel": 0, "text": "Friday.",
     "words": [{"word": " Friday.", "start": 3.95}]},
    {"speaker": 1, "channel": 0, "text": "lost"}]},
  "translation": {"results": [{"utterances": [{"start": 0.0, "end": 4.21, "speaker": 0, "text": "Donc le plan."}]}]}}}"#;

    #[test]
    fn utterances_are_tracks_of_their_speakers() {
        assert_eq!(crate::format::sniff(JOB), Some(Format::Gladia));
        let out = read_str(JOB, Format::Gladia, &ReadOptions::default()).unwrap();
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::MissingTime, Some(12), Some(5)),
                (WarningKind::MissingTime, Some(11), Some(16))
            ],
            "{:?}",
            out.warnings
        );
        assert_eq!(
            tracks_with_text(&out, "recording"),
            vec![
                (0, 4_210_000, "speaker_0".to_owned(), "So the plan.".to_owned()),
                (3_950_000, 6_250_000, "speaker_1".to_owned(), "Friday.".to_owned()),
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.declared_extent(), Segment::from_micros(0, 7_500_000));
        let words = &t.utterances().next().unwrap().content.unwrap().words;
        assert_eq!(words[0].text, "So");
        // The result saved alone reads the same.
        let start = JOB.find("{\"metadata\"").unwrap();
        let alone = &JOB[start..JOB.rfind('}').unwrap()];
        assert_eq!(crate::format::sniff(alone), Some(Format::Gladia));
        let again = read_str(alone, Format::Gladia, &ReadOptions::default()).unwrap();
        assert_eq!(tracks_with_text(&again, "recording"), tracks_with_text(&out, "recording"));
    }

    #[test]
    fn channels_name_speakers_and_unfinished_jobs_are_errors() {
        let two = r#"{"metadata": {"audio_duration": 3, "number_of_distinct_channels": 2},
 "transcription": {"utterances": [
  {"start": 0.5, "end": 1.0, "channel": 0, "text": "hi"},
  {"start": 1.0, "end": 2.0, "channel": 1, "speaker": 0, "text": "hello"}]}}"#;
        let out = read_str(two, Format::Gladia, &ReadOptions::default()).unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let got: Vec<_> = tracks_with_text(&out, "recording").into_iter().map(|t| t.2).collect();
        assert_eq!(got, ["channel_0", "channel_1_speaker_0"]);
        let queued = r#"{"id": "x", "status": "queued", "kind": "pre-recorded", "request_params": {}, "result": null}"#;
        let e = read_str(queued, Format::Gladia, &ReadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("not done (status \"queued\")"), "{e}");
        let failed = r#"{"id": "x", "status": "error", "error_code": 500, "kind": "pre-recorded"}"#;
        let e = read_str(failed, Format::Gladia, &ReadOptions::default()).unwrap_err();
        assert_eq!(e.to_string(), "the Gladia transcription failed (error code 500)");
        // Broken JSON is an error at its line and column.
        let e = read_str(
            "{\"transcription\": {\"utterances\": [\n  {\"start\": ]",
            Format::Gladia,
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(13)), "{e}");
        let e =
            read_str(r#"{"metadata": {}}"#, Format::Gladia, &ReadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("there is no `transcription`"), "{e}");
    }
}
