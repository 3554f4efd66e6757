//! Gecko annotation JSON (`gong-io/gecko`, the browser tool for correcting diarization and
//! transcripts), read only.
//!
//! ```json
//! {"schemaVersion": "2.0", "monologues": [
//!   {"speaker": {"id": "Roger", "name": null}, "start": 0.03, "end": 1.2, "terms": [
//!     {"start": 0.03, "end": 0.09, "text": "Hi", "type": "WORD"},
//!     {"start": 0.09, "end": 0.09, "text": ",", "type": "PUNCTUATION"}]}]}
//! ```
//!
//! - Each monologue is one track of its speaker: `speaker.id`, else `speaker.name`; a
//!   monologue with neither goes to the placeholder speaker `unknown`, with one
//!   `missing-speaker` warning.
//! - Its time is the monologue's own `start` and `end` when it has them (Gecko writes them once
//!   a segment has been edited), else the span of its timed terms.
//! - Words are the `WORD` terms with times (a term without `type` is a word); a `PUNCTUATION`
//!   term is appended to the word before it. The track's text is the words and punctuation as
//!   written.
//! - A monologue with neither times nor timed terms is dropped with one `missing-time` warning
//!   naming its line and column; a file whose every monologue is dropped is an error, not an
//!   empty transcript.
//!
//! Rev.ai's transcripts also hold `monologues`, with `elements` instead of `terms`; the two are
//! told apart by those keys (and Gecko's `schemaVersion`).

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
    format: Format::Gecko,
    name: "gecko",
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
    monologues: Option<Vec<MonologueJ>>,
}

#[derive(Deserialize)]
struct MonologueJ {
    #[serde(default)]
    speaker: Option<Value>,
    #[serde(default)]
    start: Option<Value>,
    #[serde(default)]
    end: Option<Value>,
    #[serde(default)]
    terms: Vec<TermJ>,
}

#[derive(Deserialize)]
struct TermJ {
    #[serde(default)]
    start: Option<Value>,
    #[serde(default)]
    end: Option<Value>,
    #[serde(default)]
    text: Option<String>,
    #[serde(default, rename = "type")]
    kind: Option<String>,
    #[serde(default)]
    confidence: Option<f64>,
}

const TRACKED: [&str; 1] = ["monologues"];

/// The speaker of a monologue: `{"id": …, "name": …}` (or a bare label).
fn speaker_of(v: &Option<Value>) -> Option<String> {
    match v {
        Some(Value::Object(o)) => {
            let id = label(&o.get("id").cloned()).filter(|s| !s.trim().is_empty());
            id.or_else(|| label(&o.get("name").cloned()).filter(|s| !s.trim().is_empty()))
        }
        other => label(other),
    }
}

/// Reads a Gecko annotation into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    let doc: Doc = scanned.parse(ctx)?;
    let Some(monologues) = doc.monologues else {
        return Err(Error::invalid(
            "no `monologues` list: this JSON is not a Gecko annotation; name its format with --from, or leave --from out to detect it",
        ));
    };
    let mut b = TranscriptBuilder::new();
    let (mut missing_speaker, mut kept) = (false, 0usize);
    let mut untimed: Option<(Option<(usize, usize)>, usize)> = None;
    let total = monologues.len();
    for (k, m) in monologues.into_iter().enumerate() {
        let pos = scanned.pos(0, k);
        let speaker = match speaker_of(&m.speaker) {
            Some(s) => s,
            None => placeholder_for_monologue(ctx, &mut missing_speaker, pos, k)?,
        };
        let mut words: Vec<Word> = Vec::new();
        let mut span: Option<(Time, Time)> = None;
        let mut text = String::new();
        for t in m.terms {
            let value = t.text.unwrap_or_default();
            let start = t.start.as_ref().and_then(seconds_value);
            let end = t.end.as_ref().and_then(seconds_value);
            let punctuation =
                t.kind.as_deref().is_some_and(|k| k.eq_ignore_ascii_case("punctuation"));
            if punctuation {
                text.push_str(value.trim());
                if let (Some(w), false) = (words.last_mut(), value.trim().is_empty()) {
                    w.text.push_str(value.trim());
                }
                continue;
            }
            if !text.is_empty() && !value.is_empty() {
                text.push(' ');
            }
            text.push_str(value.trim());
            if let (Some(s), Some(e)) = (start, end) {
                span = Some(span.map_or((s, e), |(a, z)| (a.min(s), z.max(e))));
                words.push(Word {
                    text: value,
                    start: Some(s),
                    end: Some(e),
                    confidence: t.confidence,
                });
            }
        }
        let own =
            m.start.as_ref().and_then(seconds_value).zip(m.end.as_ref().and_then(seconds_value));
        let Some((start, end)) = own.or(span) else {
            untimed.get_or_insert((pos, 0)).1 += 1;
            continue;
        };
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let content = Content { text: (!text.is_empty()).then_some(text), words };
        if let Some(seg) = ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))? {
            b.add(seg, &speaker, Some(content));
            kept += 1;
        }
    }
    if kept == 0 && total > 0 {
        return Err(Error::invalid(format!(
            "none of the {total} monologues gives a segment (no time or timed term, or only zero-length ones): nothing to read"
        )));
    }
    if let Some((pos, n)) = untimed {
        warn(
            ctx,
            WarningKind::MissingTime,
            pos,
            format!("{n} monologue(s) without a time or a timed term dropped"),
        )?;
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_support::tracks_with_text;
    use crate::format::{read_str, ReadOptions};

    #[test]
    fn monologues_become_tracks_with_words_and_punctuation() {
        let text = r#"{"schemaVersion": "2.0", "monologues": [
 {"speaker": {"name": null, "id": "Roger"}, "terms": [
   {"start": 0.03, "end": 0.09, "text": "Hi", "type": "WORD"},
   {"start": 0.09, "end": 0.09, "text": ",", "type": "PUNCTUATION"},
   {"start": 0.2, "end": 0.6, "text": "Virgil", "type": "WORD", "confidence": 0.9}]},
 {"speaker": {"id": "Virgil"}, "start": 1.0, "end": 2.5, "terms": [
   {"start": 1.1, "end": 1.4, "text": "Hello", "type": "WORD"}]},
 {"speaker": {"id": "Roger"}, "terms": []}]}"#;
        let out = read_str(text, Format::Gecko, &ReadOptions::default()).unwrap();
        assert_eq!(
            tracks_with_text(&out, "recording"),
            vec![
                (30_000, 600_000, "Roger".to_owned(), "Hi, Virgil".to_owned()),
                (1_000_000, 2_500_000, "Virgil".to_owned(), "Hello".to_owned()),
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        let words: Vec<_> =
            t.contents()[0].as_ref().unwrap().words.iter().map(|w| w.text.as_str()).collect();
        assert_eq!(words, ["Hi,", "Virgil"]);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(w, vec![(WarningKind::MissingTime, Some(8))]);
        assert_eq!(crate::format::sniff(text), Some(Format::Gecko));
    }

    #[test]
    fn nothing_timed_is_an_error_not_an_empty_transcript() {
        let text =
            r#"{"schemaVersion": "2.0", "monologues": [{"speaker": {"id": "A"}, "terms": []}]}"#;
        let e = read_str(text, Format::Gecko, &ReadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("nothing to read"), "{e}");
        // Zero-length monologues only: nothing to read either.
        let zero =
            r#"{"monologues": [{"speaker": {"id": "A"}, "start": 1, "end": 1, "terms": []}]}"#;
        assert!(read_str(zero, Format::Gecko, &ReadOptions::default()).is_err());
        // Told from Rev.ai by its terms, also without `schemaVersion`.
        assert_eq!(crate::format::sniff(zero), Some(Format::Gecko));
        let rev = r#"{"monologues": [{"speaker": 1, "elements": [{"type": "text", "value": "Hi", "ts": 0, "end_ts": 1}]}]}"#;
        assert_eq!(crate::format::sniff(rev), Some(Format::RevAi));
        let e = read_str(r#"{"results": []}"#, Format::Gecko, &ReadOptions::default()).unwrap_err();
        assert!(e.to_string().contains("not a Gecko annotation"), "{e}");
    }
}
