//! Rev.ai transcripts (`GET /speechtotext/v1/jobs/{id}/transcript` as JSON), read only.
//!
//! ```json
//! {"monologues": [
//!   {"speaker": 1, "speaker_name": "Jane", "elements": [
//!     {"type": "text", "value": "Hello", "ts": 0.5, "end_ts": 1.5, "confidence": 1},
//!     {"type": "punct", "value": " "},
//!     {"type": "text", "value": "world", "ts": 1.75, "end_ts": 2.85, "confidence": 0.8},
//!     {"type": "punct", "value": "."}]}]}
//! ```
//!
//! - Each monologue is one track, from its first timed element's `ts` to its last one's
//!   `end_ts` (seconds), with its words. Its speaker is `speaker_name` when given, else
//!   `speaker_<n>` from the integer `speaker`; a monologue with neither goes to the placeholder
//!   `unknown`, with one `missing-speaker` warning.
//! - Words are the `text` elements with times; a `punct` element other than a space is appended
//!   to the word before it. The track's text is the `text` and `punct` values as written,
//!   spaces included (`co`, `-`, `founder` reads "co-founder"). `unknown` elements (`<inaudible>`, `<laugh>`) extend the track's time
//!   but give no word. A monologue without any timed element is dropped with a `missing-time`
//!   warning naming its line and column.
//!
//! overtalk does not write Rev.ai transcripts: they are a vendor's output, not an exchange
//! format. (Rev's text transcripts, `Name (00:00:03):` paragraphs, are the `rev` format.)

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Result, WarningKind};
use crate::format::json::{label, placeholder_for_monologue, scan, seconds_value, warn};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, TranscriptBuilder, Word};
use crate::time::Time;

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told apart
/// in [`crate::format::json`].
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::RevAi,
    name: "revai",
    aliases: &["rev-ai", "rev.ai"],
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
    monologues: Option<Vec<MonologueJ>>,
}

#[derive(Deserialize)]
struct MonologueJ {
    #[serde(default)]
    speaker: Option<Value>,
    #[serde(default)]
    speaker_name: Option<Value>,
    #[serde(default)]
    elements: Vec<ElementJ>,
}

#[derive(Deserialize)]
struct ElementJ {
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    value: Option<String>,
    #[serde(default)]
    ts: Option<Value>,
    #[serde(default)]
    end_ts: Option<Value>,
    #[serde(default)]
    confidence: Option<f64>,
}

const TRACKED: [&str; 1] = ["monologues"];

/// Reads a Rev.ai transcript into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let doc: Doc = scanned.parse(ctx)?;
    // Another tool's JSON forced with --from: not an empty transcript.
    let monologues = doc.monologues.ok_or_else(|| {
        ctx.error(1, 1, "no `monologues` array: this JSON is not a Rev.ai transcript; name its format with --from, or leave --from out to detect it")
    })?;
    let mut b = TranscriptBuilder::new();
    let mut missing_speaker = false;
    let (total, mut kept) = (monologues.len(), 0usize);
    for (k, m) in monologues.into_iter().enumerate() {
        let pos = scanned.pos(0, k);
        let speaker = match (label(&m.speaker_name), label(&m.speaker)) {
            (Some(name), _) if !name.trim().is_empty() => name,
            (_, Some(n)) => format!("speaker_{n}"),
            _ => placeholder_for_monologue(ctx, &mut missing_speaker, pos, k)?,
        };
        let mut words: Vec<Word> = Vec::new();
        let mut span: Option<(Time, Time)> = None;
        // The text is the elements' values as Rev.ai spells them, spaces included ("co", "-",
        // "founder" is "co-founder"); the words are the timed `text` elements.
        let mut text = String::new();
        for e in m.elements {
            let value = e.value.unwrap_or_default();
            if matches!(e.kind.as_deref(), Some("text" | "punct")) {
                text.push_str(&value);
            }
            let start = e.ts.as_ref().and_then(seconds_value);
            let end = e.end_ts.as_ref().and_then(seconds_value);
            if let (Some(s), Some(t)) = (start, end) {
                span = Some(span.map_or((s, t), |(a, z)| (a.min(s), z.max(t))));
            }
            match e.kind.as_deref() {
                Some("text") => {
                    if let (Some(s), Some(t)) = (start, end) {
                        words.push(Word {
                            text: value,
                            start: Some(s),
                            end: Some(t),
                            confidence: e.confidence,
                        });
                    }
                }
                Some("punct") => {
                    if let (Some(w), false) = (words.last_mut(), value.trim().is_empty()) {
                        w.text.push_str(value.trim());
                    }
                }
                _ => {}
            }
        }
        let Some((start, end)) = span else {
            warn(
                ctx,
                WarningKind::MissingTime,
                pos,
                format!("monologue {k} has no timed element; dropped"),
            )?;
            continue;
        };
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let content = Content { text: Some(text), words };
        if let Some(seg) = ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))? {
            b.add(seg, &speaker, Some(content));
            kept += 1;
        }
    }
    if kept == 0 && total > 0 {
        // Every monologue dropped: another tool's monologues (Gecko's `terms`), not an empty
        // transcript.
        return Err(Error::invalid(format!(
            "none of the {total} monologues gives a segment (no timed `elements` entry, or only zero-length ones): nothing to read (Gecko's monologues hold `terms`: --from gecko)"
        )));
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_support::tracks_with_text;
    use crate::format::{read_str, ReadOptions};

    #[test]
    fn monologues_become_tracks_with_their_words() {
        let out = read_str(
            r#"{"monologues": [
  {"speaker": 1, "speaker_name": "Jane", "elements": [
    {"type": "text", "value": "Hello", "ts": 0.5, "end_ts": 1.5, "confidence": 1},
    {"type": "punct", "value": " "},
    {"type": "text", "value": "world", "ts": 1.75, "end_ts": 2.85, "confidence": 0.8},
    {"type": "punct", "value": "."}]},
  {"speaker": 0, "elements": [
    {"type": "unknown", "value": "<inaudible>", "ts": 2.5, "end_ts": 3.0},
    {"type": "text", "value": "Hi", "ts": 3.0, "end_ts": 3.25}]},
  {"elements": [{"type": "text", "value": "x"}]}]}"#,
            Format::RevAi,
            &ReadOptions::default(),
        )
        .unwrap();
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::MissingSpeaker, Some(10), Some(3)),
                (WarningKind::MissingTime, Some(10), Some(3))
            ]
        );
        let got = tracks_with_text(&out, "recording");
        assert_eq!(
            got,
            vec![
                (500_000, 2_850_000, "Jane".to_owned(), "Hello world.".to_owned()),
                (2_500_000, 3_250_000, "speaker_0".to_owned(), "Hi".to_owned()),
            ]
        );
        assert_eq!(crate::format::sniff(r#"{"monologues": []}"#), Some(Format::RevAi));
        // Another tool's JSON forced as Rev.ai (Whisper's `segments`, a `monologue` typo): an
        // error, not an empty transcript.
        for other in [r#"{"text": "hi", "segments": []}"#, r#"{"monologue": {"elements": []}}"#] {
            let e = read_str(other, Format::RevAi, &ReadOptions::default()).unwrap_err();
            assert!(e.to_string().contains("not a Rev.ai transcript"), "{e}");
        }
    }

    /// A hyphen between two words without spaces joins them in the text, as Rev.ai spells it;
    /// the words keep their own times.
    #[test]
    fn the_text_is_spelled_as_the_elements_are() {
        let text = r#"{"monologues": [{"speaker": 0, "elements": [
    {"type": "text", "value": "a", "ts": 3.76, "end_ts": 3.82},
    {"type": "punct", "value": " "},
    {"type": "text", "value": "co", "ts": 3.82, "end_ts": 3.99},
    {"type": "punct", "value": "-"},
    {"type": "text", "value": "founder", "ts": 3.99, "end_ts": 4.46},
    {"type": "punct", "value": "."}]}]}"#;
        let out = read_str(text, Format::RevAi, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let content = t.contents()[0].as_ref().unwrap();
        assert_eq!(content.text.as_deref(), Some("a co-founder."));
        let words: Vec<&str> = content.words.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(words, ["a", "co-", "founder."]);
    }
}
