//! Speechmatics transcripts: batch (`json-v2`) and real-time, read only.
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
//! - Words are the `word` results (and `entity` results, written form, where their spoken words
//!   are not given one by one) with their first alternative's `content` and `confidence`,
//!   times in seconds; a `punctuation` result is appended to the word before it (or, with
//!   `attaches_to: "next"`, put before the next word).
//! - The speaker is the alternative's `speaker` (`S1`, `S2`, …; speaker diarization), else the
//!   result's `channel` (`channel_1`, …; channel diarization). `UU` (speaker unknown) and words
//!   without either go to the placeholder [`UNKNOWN_SPEAKER`], with one `missing-speaker`
//!   warning. Speaker change detection (`"diarization": "speaker_change"`, `speaker_change`
//!   results between the words) says where the speaker changes but not who speaks: its words
//!   go to the placeholder too, and the warning counts the changes it leaves unread.
//! - With channel and speaker diarization (`"diarization": "channel_and_speaker"`) each
//!   channel's speakers are numbered on their own, so `S1` on `channel_1` and `S1` on
//!   `channel_2` are two people: the speaker is the channel, an underscore and the label
//!   (`channel_1_S1`, `channel_2_S1`). A file is read so when its metadata names that mode, or
//!   when its words labelled with a speaker come on two channels or more (a real-time session
//!   carries no such metadata); a word of `UU` on a channel goes to the channel (`channel_2`).
//!   Files of one mode keep their labels (`S1`, `channel_1`).
//! - Tracks are built from the words as for Deepgram: a new track at each speaker change or pause
//!   longer than 0.8 s.
//! - `job.duration` (seconds) becomes the declared extent.
//! - The real-time API's messages are read too: one `AddTranscript` message (`{"message":
//!   "AddTranscript", "format": "2.7", "results": […]}`), or a session saved as its messages one
//!   after another (JSON lines), whose `AddTranscript` results are read in order;
//!   `AddPartialTranscript` messages (superseded by the final ones) and the others
//!   (`RecognitionStarted`, `EndOfTranscript`, …) are passed over.
//!
//! overtalk does not write Speechmatics transcripts: they are a vendor's output, not an exchange
//! format.

use serde::Deserialize;
use serde_json::Value;

use crate::error::Result;
use crate::error::WarningKind;
use crate::format::json::Unlabelled;
use crate::format::json::{
    add_word_runs, label, scan, seconds_value, value_lines, warn, LabelledWord, Pos, Untimed,
    UNKNOWN_SPEAKER,
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
    metadata: Option<MetadataJ>,
    #[serde(default)]
    results: Vec<ResultJ>,
}

/// `metadata.transcription_config.diarization`: the diarization mode asked for.
#[derive(Deserialize)]
struct MetadataJ {
    #[serde(default)]
    transcription_config: Option<ConfigJ>,
}

#[derive(Deserialize)]
struct ConfigJ {
    #[serde(default)]
    diarization: Option<Value>,
}

/// The diarization mode whose speakers are numbered within each channel.
const CHANNEL_AND_SPEAKER: &str = "channel_and_speaker";

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

/// One message of a real-time session.
#[derive(Deserialize)]
struct MessageJ {
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    results: Vec<ResultJ>,
}

/// Reads a Speechmatics transcript into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let mut b = TranscriptBuilder::new();
    let mut mode: Option<String> = None;
    let results: Vec<(ResultJ, Option<Pos>)> = match value_lines::<MessageJ>(text, "message", ctx)?
    {
        Some(messages) => messages
            .into_iter()
            .filter(|(m, _)| m.message.as_deref().is_none_or(|m| m == "AddTranscript"))
            .flat_map(|(m, line)| m.results.into_iter().map(move |r| (r, Some((line, 1)))))
            .collect(),
        None => {
            let scanned = scan(text, &TRACKED, false, ctx)?;
            let doc: Doc = scanned.parse(ctx)?;
            mode = doc
                .metadata
                .and_then(|m| m.transcription_config)
                .and_then(|c| label(&c.diarization));
            if let Some(d) = doc.job.and_then(|j| j.duration).as_ref().and_then(seconds_value) {
                b.extent(Segment::new(Time::ZERO, d));
            }
            let n = doc.results.len();
            doc.results.into_iter().zip((0..n).map(|k| scanned.pos(0, k))).collect()
        }
    };
    let mut labelled: Vec<LabelledWord> = Vec::new();
    let mut unlabelled = Unlabelled::default();
    let mut untimed = Untimed::default();
    let mut pending_prefix = String::new();
    let mut changes = 0usize;
    // Where words were given one by one: an entity spanning them repeats them.
    let mut word_starts: Vec<Time> = results
        .iter()
        .filter(|(r, _)| r.kind.as_deref() == Some("word"))
        .filter_map(|(r, _)| r.start_time.as_ref().and_then(seconds_value))
        .collect();
    word_starts.sort_unstable();
    // Speakers numbered within each channel: by the metadata, or by speakers' words on two
    // channels or more.
    let speaker_of =
        |alt: Option<&AlternativeJ>| alt.and_then(|a| label(&a.speaker)).filter(|s| s != "UU");
    let channels: std::collections::HashSet<String> = results
        .iter()
        .filter(|(r, _)| speaker_of(r.alternatives.first()).is_some())
        .filter_map(|(r, _)| label(&r.channel))
        .collect();
    let per_channel = mode.as_deref() == Some(CHANNEL_AND_SPEAKER) || channels.len() >= 2;
    for (r, pos) in results {
        let alt = r.alternatives.into_iter().next();
        let content = alt.as_ref().and_then(|a| a.content.clone()).unwrap_or_default();
        match r.kind.as_deref() {
            Some("word") => {}
            // An entity (`enable_entities`: "$2.05" for "two dollars five cents") stands in for
            // its spoken words as one word of its written form, unless those words are there.
            Some("entity") => {
                let span = r
                    .start_time
                    .as_ref()
                    .and_then(seconds_value)
                    .zip(r.end_time.as_ref().and_then(seconds_value));
                let covered = span.is_some_and(|(s, e)| {
                    let k = word_starts.partition_point(|&t| t < s);
                    word_starts.get(k).is_some_and(|&t| t < e)
                });
                if covered {
                    continue;
                }
            }
            Some("punctuation") => {
                if r.attaches_to.as_deref() == Some("next") {
                    pending_prefix.push_str(content.trim());
                } else if let Some(w) = labelled.last_mut() {
                    w.word.text.push_str(content.trim());
                }
                continue;
            }
            // Speaker change detection (`"diarization": "speaker_change"`) marks where the
            // speaker changes without saying who speaks.
            Some("speaker_change") => {
                changes += 1;
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
        let speaker = match (speaker_of(alt.as_ref()), label(&r.channel)) {
            (Some(s), Some(c)) if per_channel => format!("{c}_{s}"),
            (Some(s), _) => s,
            (None, Some(c)) => c,
            (None, None) => {
                unlabelled.add(pos);
                UNKNOWN_SPEAKER.to_owned()
            }
        };
        let text = std::mem::take(&mut pending_prefix) + &content;
        let word = Word {
            text,
            start: Some(start),
            end: Some(end),
            confidence: alt.and_then(|a| a.confidence),
        };
        labelled.push(LabelledWord { speaker, word, start, end });
    }
    let total = labelled.len();
    if changes > 0 && unlabelled.missing == total {
        let message = format!(
            "no word has a speaker: the transcript marks {changes} speaker change(s) (`speaker_change`, speaker change detection) but not who speaks; all speech is given to the placeholder speaker {UNKNOWN_SPEAKER:?}"
        );
        warn(ctx, WarningKind::MissingSpeaker, unlabelled.first, message)?;
    } else {
        unlabelled.warn(ctx, unlabelled.missing == total, total, "diarization")?;
    }
    untimed.warn(ctx, "")?;
    add_word_runs(ctx, labelled, &mut b)?;
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::WarningKind;
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

    /// Channel and speaker diarization: `S1` on two channels is two people, named by channel
    /// and label; a speaker's word on one channel only (or a file of one mode) keeps its label.
    #[test]
    fn channel_and_speaker_labels_name_the_channel() {
        let word = |t0: f64, t1: f64, w: &str, c: &str, s: &str| {
            format!(
                r#"{{"type": "word", "start_time": {t0}, "end_time": {t1}, "channel": "{c}", "alternatives": [{{"content": "{w}", "speaker": "{s}"}}]}}"#
            )
        };
        let doc = |config: &str, words: &[String]| {
            format!(
                r#"{{"format": "2.9", "job": {{"duration": 9}}, "metadata": {{"transcription_config": {{"diarization": "{config}"}}}}, "results": [{}]}}"#,
                words.join(", ")
            )
        };
        let read = |text: &str| read_str(text, Format::Speechmatics, &ReadOptions::default());
        let words = [
            word(0.0, 0.5, "hello", "channel_1", "S1"),
            word(1.0, 1.5, "hi", "channel_2", "S1"),
            word(2.0, 2.5, "yes", "channel_2", "S2"),
            word(4.0, 4.5, "mm", "channel_2", "UU"),
        ];
        let want = vec![
            (0, 500_000, "channel_1_S1".to_owned(), "hello".to_owned()),
            (1_000_000, 1_500_000, "channel_2_S1".to_owned(), "hi".to_owned()),
            (2_000_000, 2_500_000, "channel_2_S2".to_owned(), "yes".to_owned()),
            (4_000_000, 4_500_000, "channel_2".to_owned(), "mm".to_owned()),
        ];
        let out = read(&doc(CHANNEL_AND_SPEAKER, &words)).unwrap();
        assert_eq!(tracks_with_text(&out, "recording"), want);
        // Without metadata (a real-time message), speakers on two channels say the mode.
        let message = format!(
            r#"{{"message": "AddTranscript", "format": "2.7", "results": [{}]}}"#,
            words.join(", ")
        );
        assert_eq!(tracks_with_text(&read(&message).unwrap(), "recording"), want);
        // The mode named, one channel: still qualified.
        let one = doc(CHANNEL_AND_SPEAKER, &words[..1]);
        let got = tracks_with_text(&read(&one).unwrap(), "recording");
        assert_eq!(got, vec![(0, 500_000, "channel_1_S1".to_owned(), "hello".to_owned())]);
        // Speaker diarization whose words carry one channel: the labels as they are.
        let speaker = doc("speaker", &[words[0].clone(), word(1.0, 1.5, "hi", "channel_1", "S2")]);
        let got = tracks_with_text(&read(&speaker).unwrap(), "recording");
        assert_eq!(
            got,
            vec![
                (0, 500_000, "S1".to_owned(), "hello".to_owned()),
                (1_000_000, 1_500_000, "S2".to_owned(), "hi".to_owned()),
            ]
        );
        // Channel diarization: the channel.
        let channel = doc(
            "channel",
            &[word(0.0, 0.5, "hello", "channel_1", "UU"), word(1.0, 1.5, "hi", "channel_2", "UU")],
        );
        let got = tracks_with_text(&read(&channel).unwrap(), "recording");
        assert_eq!(
            got,
            vec![
                (0, 500_000, "channel_1".to_owned(), "hello".to_owned()),
                (1_000_000, 1_500_000, "channel_2".to_owned(), "hi".to_owned()),
            ]
        );
    }

    /// The real-time API's messages: one `AddTranscript`, or a session saved as JSON lines
    /// (partials and the other messages passed over); an entity stands in for its words.
    #[test]
    fn real_time_messages_and_entities() {
        let word = |t0: f64, t1: f64, w: &str, s: &str| {
            format!(
                r#"{{"type": "word", "start_time": {t0}, "end_time": {t1}, "alternatives": [{{"content": "{w}", "speaker": "{s}"}}]}}"#
            )
        };
        let entity = r#"{"type": "entity", "entity_class": "money", "start_time": 2.0, "end_time": 3.0,
  "alternatives": [{"content": "$2.05", "speaker": "S2"}],
  "spoken_form": [{"type": "word", "start_time": 2.0, "end_time": 2.5, "alternatives": [{"content": "two"}]}]}"#;
        let one = format!(
            r#"{{"message": "AddTranscript", "format": "2.7", "results": [{}, {entity}], "metadata": {{}}}}"#,
            word(0.5, 1.0, "hello", "S1")
        );
        assert_eq!(crate::format::sniff(&one), Some(Format::Speechmatics));
        let read = |text: &str| read_str(text, Format::Speechmatics, &ReadOptions::default());
        let out = read(&one).unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let want = vec![
            (500_000, 1_000_000, "S1".to_owned(), "hello".to_owned()),
            (2_000_000, 3_000_000, "S2".to_owned(), "$2.05".to_owned()),
        ];
        assert_eq!(tracks_with_text(&out, "recording"), want);
        let session = [
            r#"{"message": "RecognitionStarted", "id": "x"}"#.to_owned(),
            format!(
                r#"{{"message": "AddPartialTranscript", "format": "2.7", "results": [{}]}}"#,
                word(0.5, 0.9, "hel", "S1")
            ),
            one.clone(),
            r#"{"message": "EndOfTranscript"}"#.to_owned(),
        ]
        .join("\n");
        assert_eq!(crate::format::sniff(&session), Some(Format::Speechmatics));
        assert_eq!(tracks_with_text(&read(&session).unwrap(), "recording"), want);
        // A broken message past the first two is an error naming its line.
        let broken = format!("{session}\n{{\"message\": ]");
        let e = read(&broken).unwrap_err();
        assert_eq!(e.line(), Some(session.lines().count() + 1), "{e}");
        assert!(e.to_string().contains("message 5"), "{e}");
        // Words given one by one are not repeated by their entity.
        let both = format!(
            r#"{{"format": "2.9", "job": {{}}, "results": [{}, {entity}]}}"#,
            word(2.0, 2.5, "two", "S2")
        );
        let got = tracks_with_text(&read(&both).unwrap(), "recording");
        assert_eq!(got, vec![(2_000_000, 2_500_000, "S2".to_owned(), "two".to_owned())]);
    }
}
