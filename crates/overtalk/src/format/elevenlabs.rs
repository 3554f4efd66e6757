//! ElevenLabs Speech-to-Text (Scribe) JSON (`POST /v1/speech-to-text`), read only.
//!
//! ```json
//! {"language_code": "eng", "language_probability": 0.98, "text": "Hello, world.",
//!  "words": [
//!    {"text": "Hello,", "start": 0.119, "end": 0.459, "type": "word", "speaker_id": "speaker_0", "logprob": -0.12},
//!    {"text": " ", "start": 0.459, "end": 0.5, "type": "spacing", "speaker_id": "speaker_0"},
//!    {"text": "world.", "start": 0.5, "end": 0.9, "type": "word", "speaker_id": "speaker_0"},
//!    {"text": "(laughter)", "start": 1.0, "end": 1.5, "type": "audio_event", "speaker_id": "speaker_1"}]}
//! ```
//!
//! There are no segments: the response is a list of tokens, times in **seconds**.
//!
//! - `word` tokens are the words; `spacing` tokens are the white space between them (they carry
//!   times but are no speech); `punctuation` tokens are appended to the word before.
//! - In scripts written without spaces (Japanese, Chinese, Thai, …) Scribe gives each character
//!   as a word with no spacing between: such characters are joined into one word until a
//!   spacing token, a pause or a change of speaker.
//! - `audio_event` tokens (`(laughter)`, `(applause)`) are no speech: left out, counted in one
//!   [`WarningKind::Note`].
//! - The speaker is the token's `speaker_id` (`speaker_0`, …; `diarize=true`), else the
//!   transcript's `channel_index` (`channel_0`, …; `use_multi_channel=true`, where the response
//!   is `{"transcripts": [{…, "channel_index": 0}, …]}`). Words with neither go to the
//!   placeholder [`UNKNOWN_SPEAKER`], with one `missing-speaker` warning.
//! - A word's confidence is `exp(logprob)`.
//! - Tracks are built from the words as for Deepgram: a new track at each speaker change or pause
//!   longer than 0.8 s. `audio_duration_secs` becomes the declared extent.
//!
//! overtalk does not write ElevenLabs transcripts: they are a vendor's output, not an exchange
//! format.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Result, WarningKind};
use crate::format::json::Unlabelled;
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
    format: Format::ElevenLabs,
    name: "elevenlabs",
    aliases: &["scribe"],
    extension: "json",
    detected_by: &[],
    read: Ok(read),
    write: None,
    json: true,
    many_recordings: false,
    paragraphs: false,
    sniff: &[],
};

/// One transcript: the whole response, or one channel of a multichannel response.
#[derive(Deserialize)]
struct TranscriptJ {
    #[serde(default)]
    words: Vec<TokenJ>,
    #[serde(default)]
    channel_index: Option<Value>,
    #[serde(default)]
    audio_duration_secs: Option<Value>,
}

#[derive(Deserialize)]
struct Doc {
    #[serde(flatten)]
    single: TranscriptJ,
    #[serde(default)]
    transcripts: Vec<TranscriptJ>,
}

#[derive(Deserialize)]
struct TokenJ {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    start: Option<Value>,
    #[serde(default)]
    end: Option<Value>,
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    speaker_id: Option<Value>,
    #[serde(default)]
    logprob: Option<f64>,
}

const TRACKED: [&str; 2] = ["words", "transcripts/words"];

/// Whether `c` belongs to a script written without spaces between words.
fn unspaced(c: char) -> bool {
    matches!(c,
        '\u{0E00}'..='\u{0EFF}'     // Thai, Lao
        | '\u{1000}'..='\u{109F}'   // Myanmar
        | '\u{1780}'..='\u{17FF}'   // Khmer
        | '\u{3000}'..='\u{30FF}'   // CJK punctuation, Hiragana, Katakana
        | '\u{3400}'..='\u{4DBF}'   // CJK extension A
        | '\u{4E00}'..='\u{9FFF}'   // CJK unified ideographs
        | '\u{F900}'..='\u{FAFF}'   // CJK compatibility ideographs
        | '\u{FF00}'..='\u{FFEF}') // full-width forms
}

/// Reads an ElevenLabs Speech-to-Text response into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let doc: Doc = scanned.parse(ctx)?;
    let mut b = TranscriptBuilder::new();
    let (channels, path) =
        if doc.transcripts.is_empty() { (vec![doc.single], 0) } else { (doc.transcripts, 1) };
    let duration =
        channels.iter().filter_map(|c| c.audio_duration_secs.as_ref()).find_map(seconds_value);
    if let Some(d) = duration {
        b.extent(Segment::new(Time::ZERO, d));
    }
    let mut labelled: Vec<LabelledWord> = Vec::new();
    let mut unlabelled = Unlabelled::default();
    let (mut events, mut first_event): (usize, Option<Pos>) = (0, None);
    let mut untimed = Untimed::default();
    let mut k = 0usize;
    for channel in channels {
        let channel_label = label(&channel.channel_index).map(|c| format!("channel_{c}"));
        // Whether the last word may take the next one without a space (no spacing between).
        let mut joinable = false;
        for t in channel.words {
            let pos = scanned.pos(path, k);
            k += 1;
            let content = t.text.unwrap_or_default();
            match t.kind.as_deref() {
                None | Some("word") => {}
                Some("punctuation") => {
                    if let Some(w) = labelled.last_mut() {
                        w.word.text.push_str(content.trim());
                    }
                    continue;
                }
                Some("audio_event") => {
                    events += 1;
                    first_event = first_event.or(pos);
                    joinable = false;
                    continue;
                }
                // `spacing`, and kinds this reader does not know: no speech.
                Some(_) => {
                    joinable = false;
                    continue;
                }
            }
            let start = t.start.as_ref().and_then(seconds_value);
            let end = t.end.as_ref().and_then(seconds_value);
            let (Some(start), Some(end)) = (start, end) else {
                untimed.add(pos);
                joinable = false;
                continue;
            };
            let speaker =
                label(&t.speaker_id).or_else(|| channel_label.clone()).unwrap_or_else(|| {
                    unlabelled.add(pos);
                    UNKNOWN_SPEAKER.to_owned()
                });
            let confidence = t.logprob.map(f64::exp);
            if let Some(last) = labelled.last_mut().filter(|w| {
                joinable
                    && w.speaker == speaker
                    && start >= w.end
                    && start.micros() - w.end.micros() <= 300_000
                    && w.word.text.chars().next_back().is_some_and(unspaced)
                    && content.chars().next().is_some_and(unspaced)
            }) {
                last.word.text.push_str(&content);
                last.word.end = Some(end);
                last.end = end;
                last.word.confidence = match (last.word.confidence, confidence) {
                    (Some(a), Some(c)) => Some(a.min(c)),
                    (a, c) => a.or(c),
                };
                continue;
            }
            let word = Word { text: content, start: Some(start), end: Some(end), confidence };
            labelled.push(LabelledWord { speaker, word, start, end });
            joinable = true;
        }
    }
    if events > 0 {
        warn(
            ctx,
            WarningKind::Note,
            first_event,
            format!("{events} audio event(s) (laughter, applause, music, …) left out: not speech"),
        )?;
    }
    let total = labelled.len();
    unlabelled.warn(ctx, unlabelled.missing >= total, total, "diarize")?;
    untimed.warn(ctx, "")?;
    add_word_runs(ctx, labelled, &mut b)?;
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_support::tracks_with_text;
    use crate::format::{read_str, ReadOptions};

    fn read_ok(text: &str) -> crate::format::ReadOutput {
        read_str(text, Format::ElevenLabs, &ReadOptions::default()).unwrap()
    }

    #[test]
    fn tokens_make_tracks_by_speaker_spacing_and_punctuation_aside() {
        let text = r#"{"language_code": "eng", "language_probability": 0.98, "text": "Hello, world. (laughter) Yes.",
 "audio_duration_secs": 5.0,
 "words": [
  {"text": "Hello", "start": 0.119, "end": 0.459, "type": "word", "speaker_id": "speaker_0", "logprob": 0.0},
  {"text": ",", "start": 0.459, "end": 0.459, "type": "punctuation", "speaker_id": "speaker_0"},
  {"text": " ", "start": 0.459, "end": 0.5, "type": "spacing", "speaker_id": "speaker_0"},
  {"text": "world.", "start": 0.5, "end": 0.9, "type": "word", "speaker_id": "speaker_0"},
  {"text": " ", "start": 0.9, "end": 1.0, "type": "spacing", "speaker_id": "speaker_0"},
  {"text": "(laughter)", "start": 1.0, "end": 1.5, "type": "audio_event", "speaker_id": "speaker_1"},
  {"text": "Yes.", "start": 1.6, "end": 2.0, "type": "word", "speaker_id": "speaker_1"},
  {"text": "so", "start": 2.1, "end": 2.3, "type": "word"},
  {"text": "lost", "type": "word", "speaker_id": "speaker_1"}]}"#;
        assert_eq!(crate::format::sniff(text), Some(Format::ElevenLabs));
        let out = read_ok(text);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::Note, Some(9), Some(3)),
                (WarningKind::MissingSpeaker, Some(11), Some(3)),
                (WarningKind::MissingTime, Some(12), Some(3))
            ],
            "{:?}",
            out.warnings
        );
        assert_eq!(
            tracks_with_text(&out, "recording"),
            vec![
                (119_000, 900_000, "speaker_0".to_owned(), "Hello, world.".to_owned()),
                (1_600_000, 2_000_000, "speaker_1".to_owned(), "Yes.".to_owned()),
                (2_100_000, 2_300_000, "unknown".to_owned(), "so".to_owned()),
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.declared_extent(), Segment::from_micros(0, 5_000_000));
        let first = t.utterances().next().unwrap().content.unwrap().words[0].clone();
        assert_eq!(first.confidence, Some(1.0));
    }

    #[test]
    fn broken_json_and_out_of_range_times() {
        let e = read_str(
            "{\"words\": [\n  {\"text\": \"a\", \"start\": }]}",
            Format::ElevenLabs,
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(26)), "{e}");
        // A time beyond the model's range is no time: the word is dropped with a warning.
        let out = read_ok(
            r#"{"language_probability": 1, "words": [{"text": "a", "start": 1e300, "end": 1e301, "type": "word", "speaker_id": "s"}]}"#,
        );
        let w: Vec<_> = out.warnings.iter().map(|w| w.kind).collect();
        assert!(w.contains(&WarningKind::MissingTime), "{:?}", out.warnings);
    }

    #[test]
    fn characters_of_unspaced_scripts_join_into_words_and_channels_name_speakers() {
        // Japanese: one token a character, no spacing; a pause of 0.5 s ends the word.
        let text = r#"{"transcripts": [
 {"channel_index": 0, "language_code": "jpn", "words": [
  {"text": "そ", "start": 22.719, "end": 22.859, "type": "word"},
  {"text": "う", "start": 22.859, "end": 22.92, "type": "word"},
  {"text": "、", "start": 22.92, "end": 23.0, "type": "word"},
  {"text": "あ", "start": 23.5, "end": 23.6, "type": "word"}]},
 {"channel_index": 1, "words": [
  {"text": "OK", "start": 24.0, "end": 24.2, "type": "word"}]}]}"#;
        assert_eq!(crate::format::sniff(text), Some(Format::ElevenLabs));
        let out = read_ok(text);
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(
            tracks_with_text(&out, "recording"),
            vec![
                (22_719_000, 23_600_000, "channel_0".to_owned(), "そう、 あ".to_owned()),
                (24_000_000, 24_200_000, "channel_1".to_owned(), "OK".to_owned()),
            ]
        );
    }
}
