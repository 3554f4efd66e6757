//! pyannote's JSON: `DiarizeOutput.serialize()` of pyannote.audio 4 (also what
//! `pyannote-audio apply … --into DIR` writes beside its RTTM) and pyannoteAI's job output;
//! read only.
//!
//! ```json
//! {"diarization": [{"start": 6.665, "end": 7.165, "speaker": "SPEAKER_00"}, …],
//!  "exclusive_diarization": [{"start": 6.665, "end": 7.165, "speaker": "SPEAKER_00"}, …]}
//!
//! {"jobId": "…", "status": "succeeded",
//!  "output": {"diarization": [{"start": 0.5, "end": 2.3, "speaker": "SPEAKER_00"}, …],
//!             "exclusiveDiarization": […]}}
//! ```
//!
//! - Each turn of `diarization` is one track of its `speaker`, times in seconds (numbers or
//!   strings, read exactly). `diarization` is the one read: it keeps overlapping speech, which
//!   is what overtalk measures. `exclusive_diarization` (`exclusiveDiarization`), one speaker
//!   at a time, is pyannote's view for aligning ASR words; it is read only when the file has
//!   no `diarization`, with a note saying that overlap was removed from it.
//! - A turn without speaker goes to the placeholder [`UNKNOWN_SPEAKER`] (one `missing-speaker`
//!   warning); one whose times are missing or unreadable is dropped with a `missing-time`
//!   warning naming its line and column.
//! - A pyannoteAI job whose `status` is not `succeeded` is an error saying what the status is.
//! - A bare list of turns, as scripts dump a diarization (`json.dump([{"start": turn.start,
//!   "end": turn.end, "speaker": speaker} …])`, WhisperX's diarization records with their
//!   `label`), is read as `diarization`; `stop` is read where `end` is missing.
//!
//! overtalk does not write this JSON: RTTM is what pyannote reads back.

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Result, Warning, WarningKind};
use crate::format::json::{is_list, label, scan, seconds_value, warn, UNKNOWN_SPEAKER};
use crate::format::ReadContext;
use crate::model::{Corpus, TranscriptBuilder};

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told apart
/// in [`crate::format::json`].
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::PyannoteJson,
    name: "pyannote-json",
    aliases: &["pyannote", "pyannoteai"],
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
    output: Option<Lists>,
    #[serde(flatten)]
    lists: Lists,
}

#[derive(Deserialize)]
struct Lists {
    #[serde(default)]
    diarization: Option<Vec<TurnJ>>,
    #[serde(default, alias = "exclusiveDiarization")]
    exclusive_diarization: Option<Vec<TurnJ>>,
}

#[derive(Deserialize)]
#[serde(expecting = "a speech turn (an object with start, end, speaker)")]
struct TurnJ {
    #[serde(default)]
    start: Option<Value>,
    #[serde(default)]
    end: Option<Value>,
    #[serde(default)]
    stop: Option<Value>,
    #[serde(default)]
    speaker: Option<Value>,
}

const TRACKED: [&str; 5] = [
    "diarization",
    "exclusive_diarization",
    "output/diarization",
    "output/exclusiveDiarization",
    // a bare list of turns
    "",
];

/// Reads pyannote JSON into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let scanned = scan(text, &TRACKED, false, ctx)?;
    if is_list(text) {
        let turns: Vec<TurnJ> = scanned.parse(ctx)?;
        return read_turns(turns, &scanned, TRACKED.len() - 1, ctx);
    }
    let doc: Doc = scanned.parse(ctx)?;
    match doc.status.as_deref() {
        None | Some("succeeded") => {}
        Some(other @ ("created" | "pending" | "running" | "failed" | "canceled")) => {
            return Err(Error::invalid(format!(
                "the pyannoteAI job has not succeeded (status {other:?}); fetch its output again when it has"
            )))
        }
        Some(other) => {
            return Err(Error::invalid(format!(
                "status {other:?} is not one pyannoteAI gives (created, pending, running, succeeded, failed, canceled): this JSON is not a pyannote diarization; name its format with --from, or leave --from out to detect it"
            )))
        }
    }
    // The top level (pyannote.audio) or `output` (pyannoteAI), whichever holds a list; the
    // tracked path of each list, for positions.
    let (lists, base) = match doc.output {
        Some(o) if o.diarization.is_some() || o.exclusive_diarization.is_some() => (o, 2),
        _ => (doc.lists, 0),
    };
    let (turns, path) = match (lists.diarization, lists.exclusive_diarization) {
        (Some(d), _) => (d, base),
        (None, Some(x)) => {
            ctx.warn(Warning::new(
                WarningKind::Note,
                "the file holds only the exclusive diarization (one speaker at a time): its overlapping speech was removed by pyannote, so overlap and interruptions cannot be measured from it",
            ))?;
            (x, base + 1)
        }
        (None, None) => return Err(ctx.error(
            1,
            1,
            "pyannote JSON needs a \"diarization\" (or \"exclusive_diarization\") list of turns",
        )),
    };
    read_turns(turns, &scanned, path, ctx)
}

/// The turns of one list (tracked path number `path`, for positions) as one recording.
fn read_turns(
    turns: Vec<TurnJ>,
    scanned: &crate::format::json::Scanned<'_>,
    path: usize,
    ctx: &mut ReadContext<'_>,
) -> Result<Corpus> {
    let mut b = TranscriptBuilder::new();
    let mut missing_speaker = false;
    for (k, t) in turns.into_iter().enumerate() {
        let pos = scanned.pos(path, k);
        let speaker = match label(&t.speaker) {
            Some(s) => s,
            None => {
                if !missing_speaker {
                    missing_speaker = true;
                    warn(
                        ctx,
                        WarningKind::MissingSpeaker,
                        pos,
                        format!("turn {k} has no speaker; it and every later one like it go to the placeholder speaker {UNKNOWN_SPEAKER:?}"),
                    )?;
                }
                UNKNOWN_SPEAKER.to_owned()
            }
        };
        let start = t.start.as_ref().and_then(seconds_value);
        let end = t.end.as_ref().or(t.stop.as_ref()).and_then(seconds_value);
        let (Some(start), Some(end)) = (start, end) else {
            warn(
                ctx,
                WarningKind::MissingTime,
                pos,
                format!("turn {k} has no readable start or end; dropped"),
            )?;
            continue;
        };
        if let Some(seg) = ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))? {
            b.add(seg, &speaker, None);
        }
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, ReadOptions};

    fn read_text(text: &str) -> Result<crate::format::ReadOutput> {
        read_str(text, Format::PyannoteJson, &ReadOptions::default())
    }

    fn tracks(out: &crate::format::ReadOutput) -> Vec<(i64, i64, String)> {
        let t = out.corpus.get("recording").unwrap();
        t.utterances()
            .map(|u| {
                (u.segment.start().micros(), u.segment.end().micros(), u.speaker_name.to_owned())
            })
            .collect()
    }

    #[test]
    fn serialize_output_reads_the_overlapping_diarization() {
        let out = read_text(
            r#"{"diarization": [{"start": 6.665, "end": 7.165, "speaker": "SPEAKER_00"},
                 {"start": 7.0, "end": 9.0, "speaker": "SPEAKER_01"}],
  "exclusive_diarization": [{"start": 6.665, "end": 7.0, "speaker": "SPEAKER_00"},
                 {"start": 7.0, "end": 9.0, "speaker": "SPEAKER_01"}]}"#,
        )
        .unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert_eq!(
            tracks(&out),
            vec![
                (6_665_000, 7_165_000, "SPEAKER_00".to_owned()),
                (7_000_000, 9_000_000, "SPEAKER_01".to_owned())
            ]
        );
        assert_eq!(crate::format::sniff(r#"{"diarization": []}"#), Some(Format::PyannoteJson));
    }

    #[test]
    fn pyannoteai_output_exclusive_only_and_bad_turns() {
        let out = read_text(
            "{\"jobId\": \"x\", \"status\": \"succeeded\", \"output\": {\"exclusiveDiarization\": [\n  {\"start\": 0.5, \"end\": 2.25, \"speaker\": \"SPEAKER_00\"},\n  {\"start\": \"x\", \"end\": 3, \"speaker\": \"SPEAKER_01\"},\n  {\"start\": 3, \"end\": 4}]}}",
        )
        .unwrap();
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::Note, None, None),
                (WarningKind::MissingTime, Some(3), Some(3)),
                (WarningKind::MissingSpeaker, Some(4), Some(3)),
            ]
        );
        assert_eq!(
            tracks(&out),
            vec![
                (500_000, 2_250_000, "SPEAKER_00".to_owned()),
                (3_000_000, 4_000_000, "unknown".to_owned())
            ]
        );
        assert_eq!(
            crate::format::sniff(
                r#"{"jobId": "x", "status": "succeeded", "output": {"diarization": []}}"#
            ),
            Some(Format::PyannoteJson)
        );
        let e = read_text(r#"{"jobId": "x", "status": "running"}"#).unwrap_err();
        assert!(e.to_string().contains("has not succeeded"), "{e}");
        // Another service's job (Gladia's `done`) is not an unfinished pyannoteAI job.
        let e = read_text(r#"{"id": "x", "status": "done", "result": {}}"#).unwrap_err();
        assert!(e.to_string().contains("status \"done\" is not one pyannoteAI gives"), "{e}");
        let e = read_text(r#"{"speakers": []}"#).unwrap_err();
        assert!(e.to_string().contains("needs a \"diarization\""), "{e}");
    }

    /// A bare list of turns, as scripts dump a diarization (`stop` for `end` in some).
    #[test]
    fn a_bare_list_of_turns_is_a_diarization() {
        let text = "[\n {\"start\": 1.8, \"stop\": 4.5, \"speaker\": \"SPEAKER_00\", \"id\": 0},\n {\"label\": \"0\", \"speaker\": \"SPEAKER_01\", \"start\": 5.5, \"end\": 7.5},\n {\"start\": 8, \"speaker\": \"SPEAKER_00\"}]";
        assert_eq!(crate::format::sniff(text), Some(Format::PyannoteJson));
        let out = read_text(text).unwrap();
        assert_eq!(
            tracks(&out),
            vec![
                (1_800_000, 4_500_000, "SPEAKER_00".to_owned()),
                (5_500_000, 7_500_000, "SPEAKER_01".to_owned())
            ]
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::MissingTime, Some(4), Some(2))]);
    }
}
