//! whisper.cpp JSON output (`whisper-cli --output-json`, `-ojf` with its tokens), read only.
//!
//! ```json
//! {"systeminfo": "…", "model": {…}, "params": {…}, "result": {"language": "en"},
//!  "transcription": [
//!    {"timestamps": {"from": "00:00:00,000", "to": "00:00:03,120"},
//!     "offsets": {"from": 0, "to": 3120},
//!     "text": " And so my fellow Americans",
//!     "tokens": [{"text": " And", "offsets": {"from": 0, "to": 320}, "id": 843, "p": 0.98}, …],
//!     "speaker": "0",               (--diarize, on a stereo recording)
//!     "speaker_turn_next": true}]}  (--tinydiarize)
//! ```
//!
//! - Each element of `transcription` is one track over `offsets` (milliseconds), or over
//!   `timestamps` (`HH:MM:SS,mmm`) when the offsets are missing; its text is `text`, trimmed.
//! - **Words** come from `tokens` (`--output-json-full`) when they have offsets: a token that
//!   starts with a space starts a word, the others (word pieces, punctuation) continue it; a
//!   word runs from its first token's start to its last token's end. Special tokens
//!   (`[_BEG_]`, `[_TT_150]`, `[_SOLM_]`) are no text.
//! - **Speakers.** `--diarize` (stereo input) names each segment's channel: `"0"` and `"1"`
//!   become the speakers `speaker 0` and `speaker 1`; `"?"` (both channels alike) goes to the
//!   placeholder [`UNKNOWN_SPEAKER`]. `--tinydiarize` marks where the speaker changes
//!   (`speaker_turn_next`) but not who speaks: the turns alternate between `speaker A` and
//!   `speaker B`, with a note saying so (right for two people; rename with `--speakers`). With
//!   neither, every segment goes to the placeholder with one `missing-speaker` warning, as a
//!   transcript to lay on detected speakers (`--words`).
//! - A segment without a readable time is dropped with a `missing-time` warning naming its
//!   line and column. A segment whose `text` is empty and which has no words (the empty last
//!   segment, at 0 ms, that `-ml 1` output ends with) holds no speech: dropped, with one
//!   `skipped` warning at the first.
//!
//! overtalk does not write whisper.cpp JSON: WhisperX JSON and the caption formats carry the
//! same content and are read by more tools.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Result, WarningKind};
use crate::format::json::{scan, warn, Pos, UNKNOWN_SPEAKER};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, TranscriptBuilder, Word};
use crate::time::{parse_clock, Time};

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told apart
/// in [`crate::format::json`].
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::WhisperCpp,
    name: "whispercpp",
    aliases: &["whisper.cpp", "whisper-cpp"],
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
    transcription: Option<Vec<SegmentJ>>,
}

#[derive(Deserialize)]
struct SegmentJ {
    #[serde(default)]
    timestamps: Option<Span<String>>,
    #[serde(default)]
    offsets: Option<Span<Value>>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    tokens: Vec<TokenJ>,
    #[serde(default)]
    speaker: Option<Value>,
    #[serde(default)]
    speaker_turn_next: Option<bool>,
}

#[derive(Deserialize)]
struct TokenJ {
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    offsets: Option<Span<Value>>,
}

#[derive(Deserialize)]
struct Span<T> {
    #[serde(default)]
    from: Option<T>,
    #[serde(default)]
    to: Option<T>,
}

const TRACKED: [&str; 1] = ["transcription"];

/// Milliseconds as whisper.cpp writes them (integers; a number or a numeric string is taken).
fn millis(v: &Value) -> Option<Time> {
    let ms = match v {
        Value::Number(n) => n.as_i64()?,
        Value::String(s) => s.trim().parse().ok()?,
        _ => return None,
    };
    Some(Time::from_micros(ms.checked_mul(1000)?))
}

/// The span of a segment or token from its `offsets`, else from its `timestamps`.
fn span_of(offsets: Option<&Span<Value>>, clocks: Option<&Span<String>>) -> Option<(Time, Time)> {
    let from_offsets =
        offsets.and_then(|o| Some((millis(o.from.as_ref()?)?, millis(o.to.as_ref()?)?)));
    from_offsets.or_else(|| {
        let c = clocks?;
        let clock = |s: &Option<String>| parse_clock(&s.as_deref()?.replace(',', ".")).ok();
        Some((clock(&c.from)?, clock(&c.to)?))
    })
}

/// Whether a token is one of Whisper's special tokens (`[_BEG_]`, `[_TT_150]`, `<|en|>`).
fn is_special(text: &str) -> bool {
    let t = text.trim();
    (t.starts_with("[_") && t.ends_with(']')) || (t.starts_with("<|") && t.ends_with("|>"))
}

/// The words of a segment from its tokens: a token starting with a space starts a word.
fn words_of(tokens: &[TokenJ]) -> Vec<Word> {
    let mut words: Vec<Word> = Vec::new();
    for t in tokens {
        let Some(text) = t.text.as_deref().filter(|s| !s.is_empty() && !is_special(s)) else {
            continue;
        };
        let span = span_of(t.offsets.as_ref(), None);
        match words.last_mut() {
            Some(w) if !text.starts_with(' ') => {
                w.text.push_str(text);
                if let (Some((_, end)), Some(_)) = (span, w.end) {
                    w.end = Some(end);
                }
            }
            _ => {
                let (start, end) = span.map_or((None, None), |(s, e)| (Some(s), Some(e)));
                words.push(Word {
                    text: text.trim_start().to_owned(),
                    start,
                    end,
                    confidence: None,
                });
            }
        }
    }
    words.retain(|w| !w.text.trim().is_empty());
    // Words are timed only when every one of them is: a partly timed list would be spread.
    if words.iter().any(|w| w.start.is_none() || w.end.is_none()) {
        for w in &mut words {
            (w.start, w.end) = (None, None);
        }
    }
    words
}

/// Reads whisper.cpp JSON (see the module doc) as one recording.
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let doc: Doc = scanned.parse(ctx)?;
    let Some(transcription) = doc.transcription else {
        // Another service's JSON, or a wrapper around one: not an empty transcript.
        return Err(Error::invalid(
            "no `transcription` list: this JSON is not whisper.cpp output; name its format with --from, or leave --from out to detect it",
        ));
    };
    let diarized = transcription.iter().any(|s| s.speaker.is_some());
    let turns = transcription.iter().any(|s| s.speaker_turn_next.is_some());
    let mut b = TranscriptBuilder::new();
    let mut warned_missing = false;
    let mut warned_empty = false;
    let mut turn = 0usize;
    if turns && !diarized {
        warn(
            ctx,
            WarningKind::Note,
            scanned.pos(0, 0),
            "tinydiarize marks where the speaker changes, not who speaks: the turns alternate between \"speaker A\" and \"speaker B\" (right for two people; rename them with --speakers)",
        )?;
    }
    for (k, s) in transcription.into_iter().enumerate() {
        let pos: Option<Pos> = scanned.pos(0, k);
        let speaker = if diarized {
            match s.speaker.as_ref().map(|v| match v {
                Value::String(x) => x.trim().to_owned(),
                other => other.to_string(),
            }) {
                Some(id) if !id.is_empty() && id != "?" => format!("speaker {id}"),
                _ => {
                    if !warned_missing {
                        warned_missing = true;
                        warn(
                            ctx,
                            WarningKind::MissingSpeaker,
                            pos,
                            format!("segment {k}: whisper.cpp could not tell the channel (`?`); it and every later one like it go to the placeholder speaker {UNKNOWN_SPEAKER:?}"),
                        )?;
                    }
                    UNKNOWN_SPEAKER.to_owned()
                }
            }
        } else if turns {
            if turn % 2 == 0 { "speaker A" } else { "speaker B" }.to_owned()
        } else {
            if !warned_missing {
                warned_missing = true;
                warn(
                    ctx,
                    WarningKind::MissingSpeaker,
                    pos,
                    format!("no segment has a speaker (whisper.cpp ran without --diarize or --tinydiarize); all speech is given to the placeholder speaker {UNKNOWN_SPEAKER:?}"),
                )?;
            }
            UNKNOWN_SPEAKER.to_owned()
        };
        if s.speaker_turn_next == Some(true) {
            turn += 1;
        }
        let Some((start, end)) = span_of(s.offsets.as_ref(), s.timestamps.as_ref()) else {
            warn(
                ctx,
                WarningKind::MissingTime,
                pos,
                format!("segment {k} has no readable `offsets` or `timestamps`; dropped"),
            )?;
            continue;
        };
        let text = s.text.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned);
        let words = words_of(&s.tokens);
        if s.text.is_some() && text.is_none() && words.is_empty() {
            // `"text": ""` (whisper.cpp's last segment when `-ml` splits the words, at 0 ms):
            // nothing was said there.
            if !warned_empty {
                warned_empty = true;
                warn(
                    ctx,
                    WarningKind::Skipped,
                    pos,
                    format!("segment {k} has an empty `text`: no one's speech; dropped, and every later one like it"),
                )?;
            }
            continue;
        }
        let content = (text.is_some() || !words.is_empty()).then_some(Content { text, words });
        if let Some(seg) = ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))? {
            b.add(seg, &speaker, content);
        }
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, sniff, ReadOptions};
    use crate::model::Segment;

    /// `-ml 1` output (a word a segment) ends with an empty segment at 0 ms: no speech, not a
    /// cue of nothing at the start of the recording.
    #[test]
    fn a_segment_with_empty_text_is_no_speech() {
        let text = r#"{"transcription": [
            {"offsets": {"from": 20, "to": 450}, "text": " Tu"},
            {"offsets": {"from": 450, "to": 1360}, "text": " sais"},
            {"offsets": {"from": 0, "to": 20}, "text": ""}
        ]}"#;
        let out = read_str(text, Format::WhisperCpp, &ReadOptions::default()).unwrap();
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(
            w,
            vec![(WarningKind::MissingSpeaker, Some(2)), (WarningKind::Skipped, Some(4))]
        );
        let t = out.corpus.get("recording").unwrap();
        let u: Vec<_> =
            t.utterances().map(|u| (u.segment, u.content.and_then(|c| c.text.clone()))).collect();
        assert_eq!(
            u,
            vec![
                (Segment::from_millis(20, 450).unwrap(), Some("Tu".to_owned())),
                (Segment::from_millis(450, 1360).unwrap(), Some("sais".to_owned())),
            ]
        );
    }

    const PLAIN: &str = r#"{
	"systeminfo": "AVX = 1 | AVX2 = 1",
	"model": {"type": "base", "multilingual": false, "vocab": 51864},
	"params": {"model": "models/ggml-base.en.bin", "language": "en", "translate": false},
	"result": {"language": "en"},
	"transcription": [
		{
			"timestamps": {"from": "00:00:00,000", "to": "00:00:03,120"},
			"offsets": {"from": 0, "to": 3120},
			"text": " And so my fellow Americans, ask not",
			"speaker_turn_next": false
		},
		{
			"timestamps": {"from": "00:00:03,120", "to": "00:00:07,800"},
			"offsets": {"from": 3120, "to": 7800},
			"text": " what your country can do for you.",
			"speaker_turn_next": true
		},
		{
			"timestamps": {"from": "00:00:07,800", "to": "00:00:10,000"},
			"text": " Ask what you can do for your country.",
			"speaker_turn_next": false
		}
	]
}"#;

    #[test]
    fn tinydiarize_turns_alternate_between_two_speakers() {
        assert_eq!(sniff(PLAIN), Some(Format::WhisperCpp));
        let out = read_str(PLAIN, Format::WhisperCpp, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let got: Vec<_> = t
            .utterances()
            .map(|u| (u.speaker_name.to_owned(), u.segment, u.content.and_then(|c| c.text.clone())))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "speaker A".to_owned(),
                    Segment::from_millis(0, 3120).unwrap(),
                    Some("And so my fellow Americans, ask not".to_owned())
                ),
                (
                    "speaker A".to_owned(),
                    Segment::from_millis(3120, 7800).unwrap(),
                    Some("what your country can do for you.".to_owned())
                ),
                (
                    "speaker B".to_owned(),
                    Segment::from_millis(7800, 10_000).unwrap(),
                    Some("Ask what you can do for your country.".to_owned())
                ),
            ]
        );
        assert_eq!(out.warnings.len(), 1);
        assert_eq!(out.warnings[0].kind, WarningKind::Note);
    }

    #[test]
    fn stereo_diarization_names_channels_and_tokens_give_words() {
        let text = r#"{"result": {"language": "en"}, "transcription": [
 {"offsets": {"from": 0, "to": 1500}, "text": " Hello there.", "speaker": "0",
  "tokens": [{"text": "[_BEG_]", "offsets": {"from": 0, "to": 0}, "id": 50363, "p": 0.9},
             {"text": " Hel", "offsets": {"from": 0, "to": 400}, "id": 1, "p": 0.9},
             {"text": "lo", "offsets": {"from": 400, "to": 600}, "id": 2, "p": 0.9},
             {"text": " there", "offsets": {"from": 700, "to": 1200}, "id": 3, "p": 0.9},
             {"text": ".", "offsets": {"from": 1200, "to": 1300}, "id": 4, "p": 0.9},
             {"text": "[_TT_75]", "offsets": {"from": 1500, "to": 1500}, "id": 50438, "p": 0.9}]},
 {"offsets": {"from": 1500, "to": 2000}, "text": " Hi.", "speaker": "1"},
 {"offsets": {"from": 2000, "to": 2500}, "text": " Both.", "speaker": "?"},
 {"timestamps": {"from": "x", "to": "y"}, "text": " lost", "speaker": "1"}
]}"#;
        let out = read_str(text, Format::WhisperCpp, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let names: Vec<_> = t.utterances().map(|u| u.speaker_name.to_owned()).collect();
        assert_eq!(names, ["speaker 0", "speaker 1", "unknown"]);
        let words: Vec<_> = t.contents()[0]
            .as_ref()
            .unwrap()
            .words
            .iter()
            .map(|w| {
                (
                    w.text.as_str(),
                    w.start.map(|s| s.micros() / 1000),
                    w.end.map(|e| e.micros() / 1000),
                )
            })
            .collect();
        assert_eq!(words, [("Hello", Some(0), Some(600)), ("there.", Some(700), Some(1300))]);
        let kinds: Vec<_> = out.warnings.iter().map(|w| w.kind).collect();
        assert_eq!(kinds, [WarningKind::MissingSpeaker, WarningKind::MissingTime]);
    }

    #[test]
    fn malformed_json_is_an_error_at_its_line_and_column() {
        let e = read_str(
            "{\"transcription\": [\n  {\"offsets\": {\"from\": 0,, \"to\": 5}}]}",
            Format::WhisperCpp,
            &ReadOptions::default(),
        )
        .unwrap_err()
        .to_string();
        assert_eq!(e, "line 2, column 26: whispercpp: key must be a string");
    }

    #[test]
    fn without_diarization_all_speech_goes_to_the_placeholder() {
        let text = r#"{"transcription": [{"offsets": {"from": 0, "to": 1000}, "text": " hi"}]}"#;
        assert_eq!(sniff(text), Some(Format::WhisperCpp));
        let out = read_str(text, Format::WhisperCpp, &ReadOptions::default()).unwrap();
        assert_eq!(out.warnings[0].kind, WarningKind::MissingSpeaker);
        assert_eq!(out.corpus.get("recording").unwrap().annotation().len(), 1);
    }
}
