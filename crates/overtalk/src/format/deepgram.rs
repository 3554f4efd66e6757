//! Deepgram pre-recorded API responses (`/v1/listen`), read only.
//!
//! ```json
//! {"metadata": {"request_id": "…", "duration": 17.56, "channels": 1},
//!  "results": {"channels": [{"alternatives": [{"transcript": "…", "words": [
//!                {"word": "yep", "punctuated_word": "Yep.", "start": 5.52, "end": 6.02,
//!                 "confidence": 0.99, "speaker": 0}]}]}],
//!              "utterances": [{"start": 5.52, "end": 6.02, "channel": 0, "transcript": "Yep.",
//!                              "speaker": 0, "words": […]}]}}
//! ```
//!
//! # Which tracks
//!
//! - With `results.utterances` (requested with `utterances=true`) each utterance is one track,
//!   with its `transcript` as text and its words. Deepgram cuts utterances at speaker changes and
//!   at pauses longer than `utt_split` (0.8 s by default).
//! - Without utterances the tracks are built from the words of each channel's first alternative
//!   by the same rule: consecutive words of one speaker make one track, and a new track starts at
//!   each speaker change or pause longer than 0.8 s (a silence inside a track would count as
//!   speech).
//!
//! ```text
//! words   [0][0] [0]      [0][1][1]
//! tracks  [0───────)      [0)[1──)
//!                   ↑ gap > 0.8 s   ↑ speaker change
//! ```
//!
//! Word text is `punctuated_word` when present, else `word`; `confidence` is kept.
//!
//! # Speaker labels
//!
//! | response | label |
//! |---|---|
//! | diarized (`diarize=true`), one channel | `speaker_0`, `speaker_1`, … |
//! | diarized, several channels | `channel_0_speaker_0`, … |
//! | undiarized, one channel | [`UNKNOWN_SPEAKER`], with one `missing-speaker` warning |
//! | undiarized, several channels | `channel_0`, `channel_1`, … (multichannel audio puts each speaker on a channel) |
//!
//! `metadata.duration` becomes the declared extent. An error response (`err_code`, `err_msg`) is
//! an error. overtalk does not write Deepgram responses: they are a vendor's output, not an
//! exchange format.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Result, WarningKind};
use crate::format::json::{
    add_word_runs, label, scan, seconds, warn, LabelledWord, Pos, Scanned, Untimed, UNKNOWN_SPEAKER,
};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, Segment, TranscriptBuilder, Word};
use crate::time::Time;

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told apart
/// in [`crate::format::json`].
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Deepgram,
    name: "deepgram",
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
    metadata: Option<Metadata>,
    #[serde(default)]
    results: Option<Results>,
    #[serde(default)]
    err_code: Option<Value>,
    #[serde(default)]
    err_msg: Option<Value>,
}

#[derive(Deserialize)]
struct Metadata {
    #[serde(default)]
    duration: Option<f64>,
    #[serde(default)]
    channels: Option<f64>,
}

#[derive(Deserialize)]
struct Results {
    #[serde(default)]
    channels: Option<Vec<Channel>>,
    #[serde(default)]
    utterances: Option<Vec<Utterance>>,
}

#[derive(Deserialize)]
struct Channel {
    #[serde(default)]
    alternatives: Option<Vec<Alternative>>,
}

#[derive(Deserialize)]
struct Alternative {
    #[serde(default)]
    words: Option<Vec<WordJ>>,
}

#[derive(Deserialize)]
struct Utterance {
    #[serde(default)]
    start: Option<f64>,
    #[serde(default)]
    end: Option<f64>,
    #[serde(default)]
    channel: Option<f64>,
    #[serde(default)]
    transcript: Option<String>,
    #[serde(default)]
    speaker: Option<Value>,
    #[serde(default)]
    words: Option<Vec<WordJ>>,
}

#[derive(Deserialize)]
struct WordJ {
    #[serde(default)]
    word: Option<String>,
    #[serde(default)]
    punctuated_word: Option<String>,
    #[serde(default)]
    start: Option<f64>,
    #[serde(default)]
    end: Option<f64>,
    #[serde(default)]
    confidence: Option<f64>,
    #[serde(default)]
    speaker: Option<Value>,
}

const TRACKED: [&str; 3] =
    ["results/utterances", "results/utterances/words", "results/channels/alternatives/words"];
const P_UTTERANCE: usize = 0;
const P_UTTERANCE_WORD: usize = 1;
const P_CHANNEL_WORD: usize = 2;

/// How speakers are named in this response.
struct Labels {
    multichannel: bool,
}

impl Labels {
    fn name(&self, channel: usize, speaker: Option<&str>) -> String {
        match (self.multichannel, speaker) {
            (false, Some(s)) => format!("speaker_{s}"),
            (true, Some(s)) => format!("channel_{channel}_speaker_{s}"),
            (true, None) => format!("channel_{channel}"),
            (false, None) => UNKNOWN_SPEAKER.to_owned(),
        }
    }
}

/// Undiarized items, reported once per response.
#[derive(Default)]
struct Missing {
    count: usize,
    total: usize,
    first: Option<Pos>,
}

fn word(ctx: &ReadContext<'_>, w: WordJ, pos: Option<Pos>) -> Result<(Word, Option<String>)> {
    let start = w.start.map(|s| seconds(ctx, s, "word start", pos)).transpose()?;
    let end = w.end.map(|s| seconds(ctx, s, "word end", pos)).transpose()?;
    let text = w.punctuated_word.or(w.word).unwrap_or_default();
    Ok((Word { text, start, end, confidence: w.confidence }, label(&w.speaker)))
}

/// Reads a Deepgram response into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let doc: Doc = scanned.parse(ctx)?;
    if doc.err_code.is_some() || doc.err_msg.is_some() {
        let show = |v: Option<Value>| v.map(|v| v.to_string()).unwrap_or_default();
        return Err(Error::invalid(format!(
            "this is a Deepgram error response ({} {}), not a transcript",
            show(doc.err_code),
            show(doc.err_msg)
        )));
    }
    let results = doc
        .results
        .ok_or_else(|| ctx.error(1, 1, "no \"results\": not a Deepgram pre-recorded response"))?;
    if results.channels.is_none() && results.utterances.is_none() {
        // Another service's `results` (Amazon Transcribe's hold `items`): not an empty response.
        return Err(ctx.error(1, 1, "`results` has no `channels` or `utterances`: not a Deepgram pre-recorded response; name its format with --from, or leave --from out to detect it"));
    }
    let channels = results.channels.unwrap_or_default();
    let declared_channels = doc.metadata.as_ref().and_then(|m| m.channels).unwrap_or(1.0);
    let labels = Labels { multichannel: channels.len() > 1 || declared_channels > 1.0 };
    let mut b = TranscriptBuilder::new();
    if let Some(d) = doc.metadata.as_ref().and_then(|m| m.duration) {
        let end = seconds(ctx, d, "metadata.duration", None)?;
        b.extent(Segment::new(Time::ZERO, end));
    }
    let mut missing = Missing::default();
    let utterances = results.utterances.unwrap_or_default();
    if !utterances.is_empty() {
        read_utterances(ctx, &scanned, utterances, &labels, &mut missing, &mut b)?;
        // Channel words are counted in document order but not used.
    } else {
        read_channel_words(ctx, &scanned, channels, &labels, &mut missing, &mut b)?;
    }
    if missing.count > 0 {
        let message = if missing.count == missing.total && !labels.multichannel {
            format!("no speaker labels (the request lacked diarize=true); all speech is given to the placeholder speaker {UNKNOWN_SPEAKER:?}")
        } else if missing.count == missing.total {
            "no speaker labels (the request lacked diarize=true); each channel is taken as one speaker".to_owned()
        } else {
            format!(
                "{} of {} utterances or words have no speaker; given to {}",
                missing.count,
                missing.total,
                if labels.multichannel {
                    "their channel"
                } else {
                    "the placeholder speaker unknown"
                }
            )
        };
        warn(ctx, WarningKind::MissingSpeaker, missing.first, message)?;
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

fn channel_of(c: Option<f64>) -> usize {
    c.filter(|c| c.is_finite() && *c >= 0.0 && *c < 1e6).map_or(0, |c| c as usize)
}

fn read_utterances(
    ctx: &mut ReadContext<'_>,
    scanned: &Scanned<'_>,
    utterances: Vec<Utterance>,
    labels: &Labels,
    missing: &mut Missing,
    b: &mut TranscriptBuilder,
) -> Result<()> {
    let mut n_word = 0usize;
    for (k, u) in utterances.into_iter().enumerate() {
        let pos = scanned.pos(P_UTTERANCE, k);
        let mut words = Vec::new();
        for w in u.words.unwrap_or_default() {
            let wpos = scanned.pos(P_UTTERANCE_WORD, n_word);
            n_word += 1;
            words.push(word(ctx, w, wpos)?.0);
        }
        let speaker = label(&u.speaker);
        missing.total += 1;
        if speaker.is_none() {
            missing.count += 1;
            missing.first = missing.first.or(pos);
        }
        let name = labels.name(channel_of(u.channel), speaker.as_deref());
        let start = u.start.map(|s| seconds(ctx, s, "utterance start", pos)).transpose()?;
        let end = u.end.map(|s| seconds(ctx, s, "utterance end", pos)).transpose()?;
        let (Some(start), Some(end)) = (start, end) else {
            warn(
                ctx,
                WarningKind::MissingTime,
                pos,
                format!("utterance {k} has no start or end; dropped"),
            )?;
            continue;
        };
        let content = Content { text: u.transcript, words };
        if let Some(s) = ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))? {
            b.add(s, &name, Some(content));
        }
    }
    Ok(())
}

fn read_channel_words(
    ctx: &mut ReadContext<'_>,
    scanned: &Scanned<'_>,
    channels: Vec<Channel>,
    labels: &Labels,
    missing: &mut Missing,
    b: &mut TranscriptBuilder,
) -> Result<()> {
    let mut n_word = 0usize;
    for (c, channel) in channels.into_iter().enumerate() {
        let mut labelled = Vec::new();
        let mut untimed = Untimed::default();
        for (a, alt) in channel.alternatives.unwrap_or_default().into_iter().enumerate() {
            for w in alt.words.unwrap_or_default() {
                let pos = scanned.pos(P_CHANNEL_WORD, n_word);
                n_word += 1;
                if a > 0 {
                    // Only the first (best) alternative is read.
                    continue;
                }
                let (word, speaker) = word(ctx, w, pos)?;
                let (start, end) = (word.start, word.end);
                missing.total += 1;
                if speaker.is_none() {
                    missing.count += 1;
                    missing.first = missing.first.or(pos);
                }
                match (start, end) {
                    (Some(start), Some(end)) => labelled.push(LabelledWord {
                        speaker: labels.name(c, speaker.as_deref()),
                        word,
                        start,
                        end,
                    }),
                    _ => untimed.add(pos),
                }
            }
        }
        untimed.warn(ctx, &format!("channel {c}: "))?;
        add_word_runs(ctx, labelled, b)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, Format, ReadOptions};

    fn read_ok(text: &str) -> crate::format::ReadOutput {
        read_str(text, Format::Deepgram, &ReadOptions::default()).unwrap()
    }

    fn tracks(out: &crate::format::ReadOutput) -> Vec<(i64, i64, String)> {
        let t = out.corpus.get("recording").unwrap();
        t.utterances()
            .map(|u| {
                (u.segment.start().micros(), u.segment.end().micros(), u.speaker_name.to_owned())
            })
            .collect()
    }

    const DIARIZED_WORDS: &str = r#"{"metadata": {"duration": 10.0, "channels": 1},
 "results": {"channels": [{"alternatives": [{"transcript": "hi there yes ok", "words": [
   {"word": "hi", "punctuated_word": "Hi", "start": 0.5, "end": 0.9, "confidence": 0.9, "speaker": 0},
   {"word": "there", "punctuated_word": "there.", "start": 1.0, "end": 1.4, "confidence": 0.8, "speaker": 0},
   {"word": "yes", "punctuated_word": "Yes.", "start": 1.3, "end": 1.8, "confidence": 0.7, "speaker": 1},
   {"word": "ok", "punctuated_word": "Ok.", "start": 3.0, "end": 3.5, "confidence": 0.6, "speaker": 1}]},
   {"words": [{"word": "x", "start": 0, "end": 9, "speaker": 5}]}]}]}}"#;

    #[test]
    fn words_make_tracks_at_speaker_changes_and_pauses() {
        let out = read_ok(DIARIZED_WORDS);
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(
            tracks(&out),
            vec![
                (500_000, 1_400_000, "speaker_0".to_owned()),
                (1_300_000, 1_800_000, "speaker_1".to_owned()),
                (3_000_000, 3_500_000, "speaker_1".to_owned())
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.declared_extent(), Segment::from_micros(0, 10_000_000));
        let c = t.contents()[0].as_ref().unwrap();
        assert_eq!(c.text.as_deref(), Some("Hi there."));
        assert_eq!(c.words[1].confidence, Some(0.8));
    }

    #[test]
    fn utterances_are_preferred_and_multichannel_names_channels() {
        let out = read_ok(
            r#"{"metadata": {"channels": 2}, "results": {"channels": [{"alternatives": [{"words": []}]}, {"alternatives": [{"words": []}]}],
              "utterances": [
               {"start": 0, "end": 2, "channel": 0, "transcript": "a", "words": []},
               {"start": 1, "end": 3, "channel": 1, "transcript": "b", "words": [{"word": "b", "start": 1, "end": 3}]}]}}"#,
        );
        assert_eq!(
            tracks(&out),
            vec![
                (0, 2_000_000, "channel_0".to_owned()),
                (1_000_000, 3_000_000, "channel_1".to_owned())
            ]
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::MissingSpeaker, Some(3), Some(16))]);
        assert!(out.warnings[0].message.contains("each channel"), "{}", out.warnings[0]);
    }

    #[test]
    fn error_responses_and_bad_shapes_are_errors() {
        let e = read_str(
            r#"{"err_code": "Bad Request", "err_msg": "no audio"}"#,
            Format::Deepgram,
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("error response"), "{e}");
        let e = read_str(
            "{\"results\": {\"utterances\": [\n {\"start\": \"zero\"}]}}",
            Format::Deepgram,
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(17)), "{e}");
        // Amazon Transcribe's JSON forced as Deepgram: its `results` hold `items`.
        let e = read_str(
            r#"{"jobName": "x", "results": {"transcripts": [{"transcript": "hi"}], "items": []}}"#,
            Format::Deepgram,
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("not a Deepgram pre-recorded response"), "{e}");
        // An empty response is empty, not another format.
        let out =
            read_str(r#"{"results": {"channels": []}}"#, Format::Deepgram, &ReadOptions::default())
                .unwrap();
        assert!(out.corpus.iter().all(|(_, t)| t.annotation().is_empty()));
    }
}
