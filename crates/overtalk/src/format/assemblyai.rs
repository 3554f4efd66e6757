//! AssemblyAI transcripts (`GET /v2/transcript/{id}`), read only.
//!
//! ```json
//! {"id": "…", "status": "completed", "speaker_labels": true, "audio_duration": 7,
//!  "utterances": [{"speaker": "A", "start": 0, "end": 4210, "confidence": 0.97,
//!                  "text": "So the plan is", "words": [{"text": "So", "start": 0, "end": 180,
//!                  "confidence": 0.99, "speaker": "A"}]}],
//!  "words": [{"text": "So", "start": 0, "end": 180, "confidence": 0.99, "speaker": "A"}]}
//! ```
//!
//! Times are **integer milliseconds** (fractions are accepted and kept to the microsecond).
//! A file whose times are seconds (converters, hand-made fixtures) is read as seconds, with a
//! warning, when read as milliseconds its speech would end far before its `audio_duration`,
//! or, without a duration, when some time has a fraction.
//!
//! - With `utterances` (requested with `speaker_labels: true`) each utterance is one track of its
//!   speaker (`"A"`, `"B"`, … kept as they are), with its text and words.
//! - Without utterances the top-level `words` are grouped into tracks: a new track at each
//!   speaker change or pause longer than 0.8 s (as for Deepgram). Words whose `speaker` is null
//!   (no diarization requested) go to the placeholder [`UNKNOWN_SPEAKER`], with one
//!   `missing-speaker` warning; with multichannel transcription a word's `channel` names its
//!   speaker instead (`channel_1`, …).
//!
//! `audio_duration` (seconds) becomes the declared extent. A transcript whose `status` is not
//! `completed` is an error saying what the status is. overtalk does not write AssemblyAI
//! transcripts: they are a vendor's output, not an exchange format.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Result, WarningKind};
use crate::format::json::Unlabelled;
use crate::format::json::{
    add_word_runs, label, millis, scan, seconds, warn, LabelledWord, Pos, Scanned, Untimed,
    UNKNOWN_SPEAKER,
};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, Segment, TranscriptBuilder, Word};
use crate::time::Time;

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told apart
/// in [`crate::format::json`].
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::AssemblyAi,
    name: "assemblyai",
    aliases: &["assembly"],
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
    status: Option<String>,
    #[serde(default)]
    error: Option<Value>,
    #[serde(default)]
    audio_duration: Option<f64>,
    #[serde(default)]
    utterances: Option<Vec<UtteranceJ>>,
    #[serde(default)]
    words: Option<Vec<WordJ>>,
}

#[derive(Deserialize)]
struct UtteranceJ {
    #[serde(default)]
    speaker: Option<Value>,
    #[serde(default)]
    channel: Option<Value>,
    #[serde(default)]
    start: Option<f64>,
    #[serde(default)]
    end: Option<f64>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    words: Option<Vec<WordJ>>,
}

#[derive(Deserialize)]
struct WordJ {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    start: Option<f64>,
    #[serde(default)]
    end: Option<f64>,
    #[serde(default)]
    confidence: Option<f64>,
    #[serde(default)]
    speaker: Option<Value>,
    #[serde(default)]
    channel: Option<Value>,
}

const TRACKED: [&str; 3] = ["utterances", "utterances/words", "words"];
const P_UTTERANCE: usize = 0;
const P_UTTERANCE_WORD: usize = 1;
const P_WORD: usize = 2;

/// The speaker of an utterance or word: its `speaker`, else its `channel`, else none.
fn speaker_of(speaker: &Option<Value>, channel: &Option<Value>) -> Option<String> {
    label(speaker).or_else(|| label(channel).map(|c| format!("channel_{c}")))
}

/// The unit of a transcript's `start` and `end` times. AssemblyAI writes integer milliseconds;
/// converters and hand-made fixtures sometimes write seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unit {
    Millis,
    Seconds,
}

impl Unit {
    /// The unit of `doc`'s times: seconds when some time has a fraction (beyond a float's
    /// rounding), which AssemblyAI's integer milliseconds never have, and, with an
    /// `audio_duration` (seconds), the last time read as seconds falls within it. Integers are
    /// milliseconds whatever their size (speech may end early in a long recording).
    ///
    /// ```text
    /// audio_duration 8.5     words 0.5 … 7.5      fractions, 7.5 s <= 8.5 s: seconds
    /// audio_duration 8.5     words 500 … 7500     integers: milliseconds
    /// audio_duration 3600    words 0 … 30000      integers: milliseconds (speech ends at 30 s)
    /// no duration            word 120.00000000000001   a float's rounding: milliseconds
    /// ```
    fn of(doc: &Doc) -> Unit {
        let words = |w: &Option<Vec<WordJ>>| -> Vec<f64> {
            w.iter().flatten().flat_map(|w| [w.start, w.end]).flatten().collect()
        };
        let mut times = words(&doc.words);
        for u in doc.utterances.iter().flatten() {
            times.extend([u.start, u.end].into_iter().flatten());
            times.extend(words(&u.words));
        }
        let last = times.iter().copied().filter(|t| t.is_finite()).fold(0.0, f64::max);
        let fraction = times.iter().any(|t| t.is_finite() && (t - t.round()).abs() > 1e-6);
        let within = doc.audio_duration.is_none_or(|d| last <= d * 1.01 + 1.0);
        let seconds = fraction && within;
        if seconds {
            Unit::Seconds
        } else {
            Unit::Millis
        }
    }

    fn time(self, ctx: &ReadContext<'_>, v: f64, what: &str, pos: Option<Pos>) -> Result<Time> {
        match self {
            Unit::Millis => millis(ctx, v, what, pos),
            Unit::Seconds => seconds(ctx, v, what, pos),
        }
    }
}

fn word(
    ctx: &ReadContext<'_>,
    unit: Unit,
    w: WordJ,
    pos: Option<Pos>,
) -> Result<(Word, Option<String>)> {
    let start = w.start.map(|s| unit.time(ctx, s, "word start", pos)).transpose()?;
    let end = w.end.map(|s| unit.time(ctx, s, "word end", pos)).transpose()?;
    let speaker = speaker_of(&w.speaker, &w.channel);
    Ok((Word { text: w.text.unwrap_or_default(), start, end, confidence: w.confidence }, speaker))
}

/// Reads an AssemblyAI transcript into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let doc: Doc = scanned.parse(ctx)?;
    match doc.status.as_deref() {
        None | Some("completed") => {}
        Some("error") => {
            let why = doc.error.map(|e| e.to_string()).unwrap_or_default();
            return Err(Error::invalid(format!("the AssemblyAI transcript failed: {why}")));
        }
        Some(other @ ("queued" | "processing")) => {
            return Err(Error::invalid(format!(
                "the AssemblyAI transcript is not complete (status {other:?}); fetch it again when it is \"completed\""
            )))
        }
        Some(other) => {
            return Err(Error::invalid(format!(
                "status {other:?} is not one AssemblyAI gives (queued, processing, completed, error): this JSON is not an AssemblyAI transcript; name its format with --from, or leave --from out to detect it"
            )))
        }
    }
    if doc.utterances.is_none() && doc.words.is_none() {
        // Another service's JSON, or a wrapper around one: not an empty transcript.
        return Err(Error::invalid(
            "no `utterances` or `words`: this JSON is not an AssemblyAI transcript; name its format with --from, or leave --from out to detect it",
        ));
    }
    let unit = Unit::of(&doc);
    if unit == Unit::Seconds {
        warn(
            ctx,
            WarningKind::Repaired,
            None,
            match doc.audio_duration {
                Some(d) => format!("the times are read as seconds, not AssemblyAI's milliseconds: some have fractions, which AssemblyAI's milliseconds never have, and as seconds they end within the audio_duration of {d} s"),
                None => "the times are read as seconds, not AssemblyAI's milliseconds: some have fractions, which AssemblyAI's milliseconds never have".to_owned(),
            },
        )?;
    }
    let mut b = TranscriptBuilder::new();
    if let Some(d) = doc.audio_duration {
        let end = seconds(ctx, d, "audio_duration", None)?;
        b.extent(Segment::new(Time::ZERO, end));
    }
    let utterances = doc.utterances.unwrap_or_default();
    if !utterances.is_empty() {
        read_utterances(ctx, &scanned, unit, utterances, &mut b)?;
    } else {
        read_words(ctx, &scanned, unit, doc.words.unwrap_or_default(), &mut b)?;
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

fn read_utterances(
    ctx: &mut ReadContext<'_>,
    scanned: &Scanned<'_>,
    unit: Unit,
    utterances: Vec<UtteranceJ>,
    b: &mut TranscriptBuilder,
) -> Result<()> {
    let mut n_word = 0usize;
    for (k, u) in utterances.into_iter().enumerate() {
        let pos = scanned.pos(P_UTTERANCE, k);
        let mut words = Vec::new();
        for w in u.words.unwrap_or_default() {
            let wpos = scanned.pos(P_UTTERANCE_WORD, n_word);
            n_word += 1;
            words.push(word(ctx, unit, w, wpos)?.0);
        }
        let speaker = match speaker_of(&u.speaker, &u.channel) {
            Some(s) => s,
            None => {
                warn(
                    ctx,
                    WarningKind::MissingSpeaker,
                    pos,
                    format!("utterance {k} has no speaker; given to the placeholder speaker {UNKNOWN_SPEAKER:?}"),
                )?;
                UNKNOWN_SPEAKER.to_owned()
            }
        };
        let start = u.start.map(|s| unit.time(ctx, s, "utterance start", pos)).transpose()?;
        let end = u.end.map(|s| unit.time(ctx, s, "utterance end", pos)).transpose()?;
        let (Some(start), Some(end)) = (start, end) else {
            warn(
                ctx,
                WarningKind::MissingTime,
                pos,
                format!("utterance {k} has no start or end; dropped"),
            )?;
            continue;
        };
        let content = Content { text: u.text, words };
        if let Some(s) = ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))? {
            b.add(s, &speaker, Some(content));
        }
    }
    Ok(())
}

fn read_words(
    ctx: &mut ReadContext<'_>,
    scanned: &Scanned<'_>,
    unit: Unit,
    words: Vec<WordJ>,
    b: &mut TranscriptBuilder,
) -> Result<()> {
    let mut labelled = Vec::new();
    let mut unlabelled = Unlabelled::default();
    let mut untimed = Untimed::default();
    let total = words.len();
    for (k, w) in words.into_iter().enumerate() {
        let pos = scanned.pos(P_WORD, k);
        let (word, speaker) = word(ctx, unit, w, pos)?;
        let times = word.start.zip(word.end);
        let speaker = speaker.unwrap_or_else(|| {
            unlabelled.add(pos);
            UNKNOWN_SPEAKER.to_owned()
        });
        match times {
            Some((start, end)) => labelled.push(LabelledWord { speaker, word, start, end }),
            None => untimed.add(pos),
        }
    }
    unlabelled.warn(ctx, unlabelled.missing == total, total, "speaker_labels")?;
    untimed.warn(ctx, "")?;
    add_word_runs(ctx, labelled, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, Format, ReadOptions};

    fn read_ok(text: &str) -> crate::format::ReadOutput {
        read_str(text, Format::AssemblyAi, &ReadOptions::default()).unwrap()
    }

    fn tracks(out: &crate::format::ReadOutput) -> Vec<(i64, i64, String)> {
        let t = out.corpus.get("recording").unwrap();
        t.utterances()
            .map(|u| {
                (u.segment.start().micros(), u.segment.end().micros(), u.speaker_name.to_owned())
            })
            .collect()
    }

    /// Times in seconds (a converter's fixture): read as seconds, with a warning, when as
    /// milliseconds the speech would end long before `audio_duration`, or when some time has
    /// a fraction; integer milliseconds stay milliseconds.
    #[test]
    fn times_in_seconds_are_recognised() {
        let doc = |duration: &str, a: &str, b: &str| {
            format!(
                r#"{{"status":"completed",{duration}"words":[{{"text":"hi","start":{a},"end":{b},"speaker":"A"}},{{"text":"yes","start":{b},"end":7.5,"speaker":"B"}}]}}"#
            )
        };
        let out = read_ok(&doc(r#""audio_duration":8.5,"#, "0.0", "0.5"));
        assert_eq!(
            tracks(&out),
            [(0, 500_000, "A".to_owned()), (500_000, 7_500_000, "B".to_owned())]
        );
        assert_eq!(out.warnings.len(), 1);
        assert!(out.warnings[0].message.contains("audio_duration of 8.5 s"), "{:?}", out.warnings);
        // Integer milliseconds of speech that ends early in a long recording, and a float's
        // rounding without a duration: milliseconds.
        for (duration, a, b) in
            [(r#""audio_duration":3600,"#, "0", "500"), ("", "0", "500.00000000000001")]
        {
            let text = doc(duration, a, b).replace("7.5", "7500");
            let out = read_ok(&text);
            assert!(out.warnings.is_empty(), "{:?}", out.warnings);
            assert_eq!(tracks(&out)[1].1, 7_500_000, "{text}");
        }
        // No duration: the fractions say seconds.
        let out = read_ok(&doc("", "0", "0.5"));
        assert_eq!(tracks(&out)[1], (500_000, 7_500_000, "B".to_owned()));
        assert!(out.warnings[0].message.contains("have fractions"), "{:?}", out.warnings);
        // Under --strict, a refusal.
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        assert!(read_str(&doc("", "0", "0.5"), Format::AssemblyAi, &strict).is_err());
        // AssemblyAI's own milliseconds, with and without a duration.
        let ms = r#"{"status":"completed","audio_duration":8,"words":[{"text":"hi","start":0,"end":500,"speaker":"A"},{"text":"yes","start":500,"end":7500,"speaker":"B"}]}"#;
        let out = read_ok(ms);
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(tracks(&out)[1], (500_000, 7_500_000, "B".to_owned()));
    }

    #[test]
    fn reads_the_documented_example() {
        let out = read_ok(
            r#"{"utterances":[{"speaker":"A","start":0,"end":4210,"confidence":0.97,"text":"So the plan is to ship on Friday",
  "words":[{"text":"So","start":0,"end":180,"confidence":0.99,"speaker":"A"}]},
 {"speaker":"B","start":3950,"end":6250,"confidence":0.95,"text":"Friday won't work for us.","words":[]}]}"#,
        );
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(
            tracks(&out),
            vec![(0, 4_210_000, "A".to_owned()), (3_950_000, 6_250_000, "B".to_owned())]
        );
        let t = out.corpus.get("recording").unwrap();
        let w = &t.contents()[0].as_ref().unwrap().words[0];
        assert_eq!(
            (w.start, w.end, w.confidence),
            (Some(Time::from_micros(0)), Some(Time::from_micros(180_000)), Some(0.99))
        );
    }

    #[test]
    fn words_without_utterances_and_without_speakers() {
        let out = read_ok(
            r#"{"status": "completed", "utterances": null, "audio_duration": 3, "words": [
              {"text": "a", "start": 0, "end": 500, "confidence": 0.9, "speaker": null},
              {"text": "b", "start": 600, "end": 900.5, "confidence": 0.9, "speaker": null},
              {"text": "c", "start": 2000, "end": 2500, "confidence": 0.9, "speaker": null}]}"#,
        );
        assert_eq!(
            tracks(&out),
            vec![(0, 900_500, "unknown".to_owned()), (2_000_000, 2_500_000, "unknown".to_owned())]
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::MissingSpeaker, Some(2), Some(15))]);
        assert_eq!(
            out.corpus.get("recording").unwrap().declared_extent(),
            Segment::from_micros(0, 3_000_000)
        );
    }

    #[test]
    fn unfinished_and_failed_transcripts_are_errors() {
        let e =
            read_str(r#"{"status": "processing"}"#, Format::AssemblyAi, &ReadOptions::default())
                .unwrap_err();
        assert!(e.to_string().contains("not complete"), "{e}");
        let e = read_str(
            r#"{"status": "error", "error": "Download error"}"#,
            Format::AssemblyAi,
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("Download error"), "{e}");
    }
}
