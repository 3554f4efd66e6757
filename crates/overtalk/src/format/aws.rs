//! Amazon Transcribe batch transcripts (the job's output JSON), read only.
//!
//! ```json
//! {"jobName": "…", "accountId": "…", "status": "COMPLETED",
//!  "results": {
//!    "transcripts": [{"transcript": "Hello there. Hi."}],
//!    "speaker_labels": {"speakers": 2, "segments": [
//!      {"start_time": "0.44", "end_time": "1.20", "speaker_label": "spk_0",
//!       "items": [{"start_time": "0.44", "end_time": "0.75", "speaker_label": "spk_0"}, …]}]},
//!    "items": [
//!      {"start_time": "0.44", "end_time": "0.75", "type": "pronunciation",
//!       "alternatives": [{"confidence": "0.998", "content": "Hello"}], "speaker_label": "spk_0"},
//!      {"type": "punctuation", "alternatives": [{"confidence": "0.0", "content": "."}]}]}}
//! ```
//!
//! Times and confidences are **strings** of decimal seconds (numbers are accepted too); times
//! are read exactly, to the microsecond.
//!
//! - **Words** are the `pronunciation` items, with their first alternative's `content` and
//!   `confidence`; a `punctuation` item (which has no times) is appended to the word before it.
//!   A pronunciation item without times is dropped, with one `missing-time` warning.
//! - **Speaker identification** (`ShowSpeakerLabels`): each `speaker_labels.segments[]` entry is
//!   one track of its `speaker_label` (`spk_0`, `spk_1`, … kept as they are), holding the words
//!   of that speaker that start inside it. A word's speaker is its own `speaker_label` (newer
//!   outputs), else that of the segment item with its times.
//! - **Channel identification** (`ChannelIdentification`): the words of each
//!   `channel_labels.channels[]` entry belong to its `channel_label` (`ch_0`, …), one speaker per
//!   channel; tracks are built from the words as for Deepgram: a new track at each pause longer
//!   than 0.8 s.
//! - Neither: the words go to the placeholder [`UNKNOWN_SPEAKER`] (one `missing-speaker`
//!   warning), tracks as above.
//!
//! **Call Analytics** (and Amazon Connect Contact Lens) write another shape: a `Transcript`
//! list of turns, each with its `ParticipantRole` (`AGENT`, `CUSTOMER`; else `ParticipantId`),
//! `BeginOffsetMillis` / `EndOffsetMillis`, `Content` and `Items` (words in milliseconds,
//! `pronunciation` and `punctuation` as above), beside `JobStatus` and
//! `ConversationCharacteristics`. Each turn is one track of its participant.
//!
//! ```json
//! {"JobStatus": "COMPLETED", "JobName": "…", "Participants": [{"ParticipantRole": "AGENT"}, …],
//!  "Transcript": [{"Id": "…", "ParticipantRole": "AGENT", "BeginOffsetMillis": 4210,
//!                  "EndOffsetMillis": 6710, "Content": "Hello, how can I help?",
//!                  "Items": [{"Type": "pronunciation", "Content": "Hello", "Confidence": 0.99,
//!                             "BeginOffsetMillis": 4210, "EndOffsetMillis": 4550}, …]}]}
//! ```
//!
//! A job whose `status` is not `COMPLETED` is an error saying what the status (and the failure
//! reason) is. overtalk does not write Transcribe output: it is a vendor's output, not an
//! exchange format.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Result, WarningKind};
use crate::format::json::Unlabelled;
use crate::format::json::{
    add_word_runs, label, millis, scan, seconds_value, warn, LabelledWord, Pos, Scanned, Untimed,
    UNKNOWN_SPEAKER,
};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, TranscriptBuilder, Word};
use crate::time::Time;

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told apart
/// in [`crate::format::json`].
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::AwsTranscribe,
    name: "aws-transcribe",
    aliases: &["aws", "transcribe", "amazon-transcribe"],
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
    #[serde(default, alias = "JobStatus")]
    status: Option<String>,
    #[serde(default, alias = "FailureReason")]
    failure_reason: Option<String>,
    #[serde(default)]
    results: Option<Results>,
    /// The turns of a Call Analytics transcript.
    #[serde(default, rename = "Transcript")]
    turns: Option<Vec<TurnJ>>,
}

/// One turn of a Call Analytics transcript.
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct TurnJ {
    #[serde(default)]
    participant_role: Option<Value>,
    #[serde(default)]
    participant_id: Option<Value>,
    #[serde(default)]
    begin_offset_millis: Option<f64>,
    #[serde(default)]
    end_offset_millis: Option<f64>,
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    items: Option<Vec<TurnItemJ>>,
}

/// One word or punctuation mark of a Call Analytics turn.
#[derive(Deserialize)]
#[serde(rename_all = "PascalCase")]
struct TurnItemJ {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    confidence: Option<Value>,
    #[serde(default)]
    begin_offset_millis: Option<f64>,
    #[serde(default)]
    end_offset_millis: Option<f64>,
    #[serde(default, rename = "Type")]
    kind: Option<String>,
}

#[derive(Default, Deserialize)]
struct Results {
    #[serde(default)]
    items: Option<Vec<ItemJ>>,
    #[serde(default)]
    speaker_labels: Option<SpeakerLabels>,
    #[serde(default)]
    channel_labels: Option<ChannelLabels>,
}

#[derive(Deserialize)]
struct SpeakerLabels {
    #[serde(default)]
    segments: Option<Vec<SegmentJ>>,
}

#[derive(Deserialize)]
struct SegmentJ {
    #[serde(default)]
    start_time: Option<Value>,
    #[serde(default)]
    end_time: Option<Value>,
    #[serde(default)]
    speaker_label: Option<Value>,
    #[serde(default)]
    items: Option<Vec<SegmentItemJ>>,
}

#[derive(Deserialize)]
struct SegmentItemJ {
    #[serde(default)]
    start_time: Option<Value>,
    #[serde(default)]
    end_time: Option<Value>,
    #[serde(default)]
    speaker_label: Option<Value>,
}

#[derive(Deserialize)]
struct ChannelLabels {
    #[serde(default)]
    channels: Option<Vec<ChannelJ>>,
}

#[derive(Deserialize)]
struct ChannelJ {
    #[serde(default)]
    channel_label: Option<Value>,
    #[serde(default)]
    items: Option<Vec<ItemJ>>,
}

#[derive(Deserialize)]
struct ItemJ {
    #[serde(default)]
    start_time: Option<Value>,
    #[serde(default)]
    end_time: Option<Value>,
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    alternatives: Option<Vec<AlternativeJ>>,
    #[serde(default)]
    speaker_label: Option<Value>,
}

#[derive(Deserialize)]
struct AlternativeJ {
    #[serde(default)]
    content: Option<String>,
    #[serde(default)]
    confidence: Option<Value>,
}

const TRACKED: [&str; 4] = [
    "results/items",
    "results/speaker_labels/segments",
    "results/channel_labels/channels",
    "Transcript",
];
const P_ITEM: usize = 0;
const P_SEGMENT: usize = 1;
const P_CHANNEL: usize = 2;
const P_TURN: usize = 3;

/// A confidence: a number, or a string holding one.
fn confidence(v: &Option<Value>) -> Option<f64> {
    match v {
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => s.trim().parse().ok().filter(|c: &f64| c.is_finite()),
        _ => None,
    }
}

/// The words of a list of items: pronunciations with their times and the item's own speaker
/// label, punctuation appended to the word before it. Items without times are counted in
/// `untimed`.
fn words_of(
    items: Vec<ItemJ>,
    positions: impl Fn(usize) -> Option<Pos>,
    untimed: &mut Untimed,
) -> Vec<(Word, Time, Time, Option<String>)> {
    let mut out: Vec<(Word, Time, Time, Option<String>)> = Vec::new();
    let mut last_was_dropped = false;
    for (k, item) in items.into_iter().enumerate() {
        let alt = item.alternatives.and_then(|a| a.into_iter().next());
        let content = alt.as_ref().and_then(|a| a.content.clone()).unwrap_or_default();
        if item.kind.as_deref() == Some("punctuation") {
            if let (Some(last), false) = (out.last_mut(), last_was_dropped) {
                last.0.text.push_str(content.trim());
            }
            continue;
        }
        let start = item.start_time.as_ref().and_then(seconds_value);
        let end = item.end_time.as_ref().and_then(seconds_value);
        let (Some(start), Some(end)) = (start, end) else {
            untimed.add(positions(k));
            last_was_dropped = true;
            continue;
        };
        last_was_dropped = false;
        let word = Word {
            text: content,
            start: Some(start),
            end: Some(end),
            confidence: confidence(&alt.and_then(|a| a.confidence)),
        };
        out.push((word, start, end, label(&item.speaker_label)));
    }
    out
}

/// Reads an Amazon Transcribe transcript into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let doc: Doc = scanned.parse(ctx)?;
    match doc.status.as_deref() {
        None | Some("COMPLETED") => {}
        Some("FAILED") => {
            let why = doc.failure_reason.unwrap_or_default();
            return Err(Error::invalid(format!("the Transcribe job failed: {why}")));
        }
        Some(other) => {
            return Err(Error::invalid(format!(
                "the Transcribe job is not complete (status {other:?}); fetch its transcript again when it is \"COMPLETED\""
            )))
        }
    }
    if let Some(turns) = doc.turns {
        return read_call_analytics(ctx, &scanned, turns);
    }
    let results =
        doc.results.unwrap_or(Results { items: None, speaker_labels: None, channel_labels: None });
    let mut b = TranscriptBuilder::new();
    let mut untimed = Untimed::default();
    let segments = results.speaker_labels.and_then(|s| s.segments).unwrap_or_default();
    let channels = results.channel_labels.and_then(|c| c.channels).unwrap_or_default();
    if !segments.is_empty() {
        let words =
            words_of(results.items.unwrap_or_default(), |k| scanned.pos(P_ITEM, k), &mut untimed);
        read_speaker_segments(ctx, &scanned, segments, words, &mut b)?;
    } else if !channels.is_empty() {
        let mut labelled = Vec::new();
        for (c, channel) in channels.into_iter().enumerate() {
            let name = label(&channel.channel_label).unwrap_or_else(|| format!("ch_{c}"));
            let pos = scanned.pos(P_CHANNEL, c);
            let words = words_of(channel.items.unwrap_or_default(), |_| pos, &mut untimed);
            labelled.extend(words.into_iter().map(|(word, start, end, _)| LabelledWord {
                speaker: name.clone(),
                word,
                start,
                end,
            }));
        }
        // Channels are listed one after another; tracks are built per channel in time order.
        labelled.sort_by(|x, y| (&x.speaker, x.start).cmp(&(&y.speaker, y.start)));
        add_word_runs(ctx, labelled, &mut b)?;
    } else {
        let words =
            words_of(results.items.unwrap_or_default(), |k| scanned.pos(P_ITEM, k), &mut untimed);
        let total = words.len();
        let mut unlabelled = Unlabelled { first: scanned.pos(P_ITEM, 0), ..Unlabelled::default() };
        let labelled: Vec<LabelledWord> = words
            .into_iter()
            .map(|(word, start, end, speaker)| {
                let speaker = speaker.unwrap_or_else(|| {
                    unlabelled.missing += 1;
                    UNKNOWN_SPEAKER.to_owned()
                });
                LabelledWord { speaker, word, start, end }
            })
            .collect();
        unlabelled.warn(ctx, unlabelled.missing == total, total, "speaker identification")?;
        add_word_runs(ctx, labelled, &mut b)?;
    }
    untimed.warn(ctx, "")?;
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

/// Reads the turns of a Call Analytics transcript: one track per turn, of its participant.
fn read_call_analytics(
    ctx: &mut ReadContext<'_>,
    scanned: &Scanned<'_>,
    turns: Vec<TurnJ>,
) -> Result<Corpus> {
    let mut b = TranscriptBuilder::new();
    let total = turns.len();
    let (mut unnamed, mut first_unnamed) = (0usize, None);
    for (k, turn) in turns.into_iter().enumerate() {
        let pos = scanned.pos(P_TURN, k);
        let speaker = label(&turn.participant_role)
            .or_else(|| label(&turn.participant_id))
            .unwrap_or_else(|| {
                unnamed += 1;
                first_unnamed = first_unnamed.or(pos);
                UNKNOWN_SPEAKER.to_owned()
            });
        let mut words: Vec<Word> = Vec::new();
        for item in turn.items.unwrap_or_default() {
            let text = item.content.unwrap_or_default();
            if item.kind.as_deref() == Some("punctuation") {
                if let Some(last) = words.last_mut() {
                    last.text.push_str(text.trim());
                }
                continue;
            }
            let start =
                item.begin_offset_millis.map(|t| millis(ctx, t, "item begin", pos)).transpose()?;
            let end =
                item.end_offset_millis.map(|t| millis(ctx, t, "item end", pos)).transpose()?;
            words.push(Word { text, start, end, confidence: confidence(&item.confidence) });
        }
        let start =
            turn.begin_offset_millis.map(|t| millis(ctx, t, "turn begin", pos)).transpose()?;
        let end = turn.end_offset_millis.map(|t| millis(ctx, t, "turn end", pos)).transpose()?;
        let (Some(start), Some(end)) = (start, end) else {
            warn(
                ctx,
                WarningKind::MissingTime,
                pos,
                format!("turn {k} has no BeginOffsetMillis or EndOffsetMillis; dropped"),
            )?;
            continue;
        };
        let content = Content { text: turn.content, words };
        if let Some(seg) = ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))? {
            b.add(seg, &speaker, Some(content));
        }
    }
    if unnamed > 0 {
        warn(
            ctx,
            WarningKind::MissingSpeaker,
            first_unnamed,
            format!("{unnamed} of {total} turns have no ParticipantRole or ParticipantId; given to the placeholder speaker {UNKNOWN_SPEAKER:?}"),
        )?;
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

/// One track per speaker segment, holding the words of its speaker that start inside it.
fn read_speaker_segments(
    ctx: &mut ReadContext<'_>,
    scanned: &Scanned<'_>,
    segments: Vec<SegmentJ>,
    words: Vec<(Word, Time, Time, Option<String>)>,
    b: &mut TranscriptBuilder,
) -> Result<()> {
    // The speaker of a word without its own label: the segment item with the same times.
    let mut by_times: HashMap<(Time, Time), String> = HashMap::new();
    for s in &segments {
        for item in s.items.iter().flatten() {
            let start = item.start_time.as_ref().and_then(seconds_value);
            let end = item.end_time.as_ref().and_then(seconds_value);
            if let (Some(start), Some(end), Some(who)) = (start, end, label(&item.speaker_label)) {
                by_times.insert((start, end), who);
            }
        }
    }
    // Each speaker's words in time order.
    let mut per: HashMap<String, Vec<Word>> = HashMap::new();
    for (word, start, end, own) in words {
        if let Some(who) = own.or_else(|| by_times.get(&(start, end)).cloned()) {
            per.entry(who).or_default().push(word);
        }
    }
    for list in per.values_mut() {
        list.sort_by_key(|w| w.start);
    }
    for (k, s) in segments.into_iter().enumerate() {
        let pos = scanned.pos(P_SEGMENT, k);
        let Some(speaker) = label(&s.speaker_label) else {
            warn(
                ctx,
                WarningKind::MissingSpeaker,
                pos,
                format!("speaker segment {k} has no speaker_label; dropped"),
            )?;
            continue;
        };
        let start = s.start_time.as_ref().and_then(seconds_value);
        let end = s.end_time.as_ref().and_then(seconds_value);
        let (Some(start), Some(end)) = (start, end) else {
            warn(
                ctx,
                WarningKind::MissingTime,
                pos,
                format!("speaker segment {k} has no readable start_time or end_time; dropped"),
            )?;
            continue;
        };
        let inside: Vec<Word> = per
            .get(&speaker)
            .map(|list| {
                let from = list.partition_point(|w| w.start < Some(start));
                let to = list.partition_point(|w| w.start < Some(end));
                list[from..to.max(from)].to_vec()
            })
            .unwrap_or_default();
        let text = inside.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ");
        let content = Content { text: Some(text), words: inside };
        if let Some(seg) = ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))? {
            b.add(seg, &speaker, Some(content));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_support::tracks_with_text;
    use crate::format::{read_str, ReadOptions};

    fn read_ok(text: &str) -> crate::format::ReadOutput {
        read_str(text, Format::AwsTranscribe, &ReadOptions::default()).unwrap()
    }

    fn tracks(out: &crate::format::ReadOutput) -> Vec<(i64, i64, String, String)> {
        tracks_with_text(out, "recording")
    }

    #[test]
    fn speaker_segments_take_their_words_by_times_or_label() {
        let out = read_ok(
            r#"{"jobName": "j", "accountId": "1", "status": "COMPLETED", "results": {
  "transcripts": [{"transcript": "Hello there. Hi, you."}],
  "speaker_labels": {"speakers": 2, "segments": [
    {"start_time": "0.44", "end_time": "1.20", "speaker_label": "spk_0", "items": [
      {"start_time": "0.44", "end_time": "0.75", "speaker_label": "spk_0"},
      {"start_time": "0.75", "end_time": "1.20", "speaker_label": "spk_0"}]},
    {"start_time": "1.1", "end_time": "2.005", "speaker_label": "spk_1", "items": [
      {"start_time": "1.1", "end_time": "1.5", "speaker_label": "spk_1"}]}]},
  "items": [
    {"start_time": "0.44", "end_time": "0.75", "type": "pronunciation", "alternatives": [{"confidence": "0.998", "content": "Hello"}]},
    {"start_time": "0.75", "end_time": "1.20", "type": "pronunciation", "alternatives": [{"confidence": "0.9", "content": "there"}]},
    {"type": "punctuation", "alternatives": [{"confidence": "0.0", "content": "."}]},
    {"start_time": "1.1", "end_time": "1.5", "type": "pronunciation", "alternatives": [{"confidence": "1.0", "content": "Hi"}]},
    {"type": "punctuation", "alternatives": [{"confidence": "0.0", "content": ","}]},
    {"start_time": "1.6", "end_time": "2.005", "type": "pronunciation", "alternatives": [{"confidence": "0.7", "content": "you"}], "speaker_label": "spk_1"},
    {"type": "punctuation", "alternatives": [{"confidence": "0.0", "content": "."}]}]}}"#,
        );
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(
            tracks(&out),
            vec![
                (440_000, 1_200_000, "spk_0".to_owned(), "Hello there.".to_owned()),
                (1_100_000, 2_005_000, "spk_1".to_owned(), "Hi, you.".to_owned()),
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        let w = &t.contents()[0].as_ref().unwrap().words[0];
        assert_eq!(
            (w.start, w.end, w.confidence),
            (Some(Time::from_micros(440_000)), Some(Time::from_micros(750_000)), Some(0.998))
        );
    }

    #[test]
    fn channels_and_undiarized_words_make_tracks_from_pauses() {
        let out = read_ok(
            r#"{"status": "COMPLETED", "results": {"channel_labels": {"number_of_channels": 2, "channels": [
  {"channel_label": "ch_0", "items": [
    {"start_time": "0.0", "end_time": "0.5", "type": "pronunciation", "alternatives": [{"content": "a"}]},
    {"start_time": "2.0", "end_time": "2.5", "type": "pronunciation", "alternatives": [{"content": "b"}]}]},
  {"channel_label": "ch_1", "items": [
    {"start_time": "0.4", "end_time": "0.9", "type": "pronunciation", "alternatives": [{"content": "c"}]}]}]}}}"#,
        );
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(
            tracks(&out),
            vec![
                (0, 500_000, "ch_0".to_owned(), "a".to_owned()),
                (400_000, 900_000, "ch_1".to_owned(), "c".to_owned()),
                (2_000_000, 2_500_000, "ch_0".to_owned(), "b".to_owned()),
            ]
        );
        let out = read_ok(
            r#"{"results": {"items": [
  {"start_time": "0.0", "end_time": "0.5", "type": "pronunciation", "alternatives": [{"content": "a"}]},
  {"type": "pronunciation", "alternatives": [{"content": "lost"}]},
  {"start_time": "0.6", "end_time": "0.9", "type": "pronunciation", "alternatives": [{"content": "b"}]}]}}"#,
        );
        assert_eq!(tracks(&out), vec![(0, 900_000, "unknown".to_owned(), "a b".to_owned())]);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::MissingSpeaker, Some(2), Some(3)),
                (WarningKind::MissingTime, Some(3), Some(3))
            ]
        );
    }

    #[test]
    fn unfinished_and_failed_jobs_are_errors() {
        let read = |t: &str| read_str(t, Format::AwsTranscribe, &ReadOptions::default());
        let e = read(r#"{"status": "IN_PROGRESS"}"#).unwrap_err();
        assert!(e.to_string().contains("not complete"), "{e}");
        let e = read(r#"{"status": "FAILED", "failure_reason": "Unsupported media"}"#).unwrap_err();
        assert!(e.to_string().contains("Unsupported media"), "{e}");
    }

    /// A Call Analytics transcript: one track per turn of its participant, words in
    /// milliseconds with punctuation joined, the agent and the customer overlapping.
    #[test]
    fn call_analytics_turns_are_tracks_of_their_participants() {
        let text = r#"{"JobStatus": "COMPLETED", "LanguageCode": "en-US", "AccountId": "1", "JobName": "call", "Channel": "VOICE",
 "Participants": [{"ParticipantRole": "AGENT"}, {"ParticipantRole": "CUSTOMER"}],
 "Transcript": [
  {"LoudnessScores": [78.6], "Content": "Hello, how can I help?", "Id": "a1", "BeginOffsetMillis": 4210, "EndOffsetMillis": 6710, "Sentiment": "POSITIVE", "ParticipantRole": "AGENT",
   "Items": [
    {"Confidence": 0.999, "Content": "Hello", "BeginOffsetMillis": 4210, "EndOffsetMillis": 4550, "Type": "pronunciation"},
    {"Confidence": 0.0, "Content": ",", "BeginOffsetMillis": 4550, "EndOffsetMillis": 4550, "Type": "punctuation"},
    {"Confidence": 0.98, "Content": "how", "BeginOffsetMillis": 4560, "EndOffsetMillis": 5000, "Type": "pronunciation"}]},
  {"LoudnessScores": [70.1], "Content": "Hi.", "Id": "c1", "BeginOffsetMillis": 6500, "EndOffsetMillis": 7125, "Sentiment": "NEUTRAL", "ParticipantRole": "CUSTOMER",
   "Items": [{"Confidence": 0.97, "Content": "Hi", "BeginOffsetMillis": 6500, "EndOffsetMillis": 7125, "Type": "pronunciation"}]}],
 "ConversationCharacteristics": {"NonTalkTime": {"TotalTimeMillis": 0}}}"#;
        assert_eq!(crate::format::sniff(text), Some(Format::AwsTranscribe));
        let out = read_ok(text);
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(
            tracks(&out),
            vec![
                (4_210_000, 6_710_000, "AGENT".to_owned(), "Hello, how can I help?".to_owned()),
                (6_500_000, 7_125_000, "CUSTOMER".to_owned(), "Hi.".to_owned()),
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        let words: Vec<_> = t.contents()[0]
            .as_ref()
            .unwrap()
            .words
            .iter()
            .map(|w| {
                (w.text.as_str(), w.start.unwrap().micros(), w.end.unwrap().micros(), w.confidence)
            })
            .collect();
        assert_eq!(
            words,
            vec![
                ("Hello,", 4_210_000, 4_550_000, Some(0.999)),
                ("how", 4_560_000, 5_000_000, Some(0.98))
            ]
        );
        // A turn without its participant is said, with its line and column.
        let out = read_ok(&text.replace(r#", "ParticipantRole": "CUSTOMER""#, ""));
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::MissingSpeaker, Some(9), Some(3))]);
        assert_eq!(tracks(&out)[1].2, "unknown");
    }
}
