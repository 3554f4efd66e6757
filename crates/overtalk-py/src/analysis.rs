//! Analysing conversations: the parameters (a preset, then keyword overrides, as the command
//! line layers its preset, config file and flags), [`Analysis`] with its outputs rendered by
//! `overtalk::output` (the bytes of `overtalk analyze --format json|jsonl`), and the corpus
//! row of the engine helpers (one file or blob in, one JSON line per conversation out).

use std::path::PathBuf;

use overtalk::analysis::{self, AnalysisPreset, Classifier, Params};
use overtalk::corpus_analysis::{self, CorpusEntry, CorpusOptions};
use overtalk::format::{self, ReadOptions};
use overtalk::output::json::Json;
use overtalk::output::jsonl::Jsonl;
use overtalk::output::{Conversation as OutConversation, Exporter};
use overtalk::Transcript;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::corpus::Conversation;
use crate::{other, to_py, OvertalkError};

/// The classifier when the parameters do not name one: calibrated, the command line's default.
const DEFAULT_CLASSIFIER: Classifier = Classifier::Calibrated;

/// The parameters of `preset` with the overrides of `params_json` (an object of parameter
/// names in snake_case, durations in ms), as `overtalk analyze --preset P --config F` resolves
/// them. An unknown name or a bad value is an error naming it.
pub(crate) fn resolve_params(preset: &str, params_json: Option<&str>) -> PyResult<Params> {
    let preset = AnalysisPreset::parse(preset).ok_or_else(|| {
        OvertalkError::new_err(format!(
            "unknown preset {preset:?} (expected default, he2010 or pure-jf)"
        ))
    })?;
    let mut base = Params::preset(preset);
    base.classifier = DEFAULT_CLASSIFIER;
    let Some(json) = params_json else { return Ok(base) };
    let overrides: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(json).map_err(|e| other("parameters", e))?;
    if overrides.is_empty() {
        return Ok(base);
    }
    let serde_json::Value::Object(mut merged) =
        serde_json::to_value(&base).map_err(|e| other("parameters", e))?
    else {
        return Err(OvertalkError::new_err("parameters: the preset is not an object"));
    };
    for (k, v) in overrides {
        // `decision_horizon` is unset (unbounded) in the presets, so absent from the object.
        if !merged.contains_key(&k) && k != "decision_horizon" {
            return Err(OvertalkError::new_err(format!("unknown parameter {k:?}")));
        }
        merged.insert(k, v);
    }
    serde_json::from_value(serde_json::Value::Object(merged))
        .map_err(|e| other("bad parameter value", e))
}

/// The error for an untimed transcript, which analysis cannot use.
fn untimed(label: &str, t: &Transcript) -> PyErr {
    OvertalkError::new_err(format!(
        "recording {label:?} is an untimed transcript ({} utterances in order, no time bullets); analyze needs times",
        t.untimed().len()
    ))
}

/// Analyses one transcript labelled `label`, as `overtalk analyze` does.
fn analyze_transcript(
    label: &str,
    t: &Transcript,
    params: &Params,
) -> PyResult<analysis::Analysis> {
    if t.is_untimed() {
        return Err(untimed(label, t));
    }
    analysis::analyze(t, params)
        .map_err(|e| OvertalkError::new_err(format!("analysing {label}: {e}")))
}

/// One analysed conversation: its name, how its speech was found, and the result.
#[pyclass(module = "overtalk._native", frozen)]
pub(crate) struct Analysis {
    label: String,
    detection: Option<String>,
    inner: analysis::Analysis,
}

impl Analysis {
    fn view(&self) -> OutConversation<'_> {
        OutConversation::new(&self.label, self.detection.as_deref(), &self.inner)
    }

    fn render(&self, exporter: &dyn for<'a> Exporter<[OutConversation<'a>]>) -> PyResult<String> {
        let mut out = Vec::new();
        exporter.export(&[self.view()], &mut out).map_err(|e| other("rendering", e))?;
        String::from_utf8(out).map_err(|e| other("rendering", e))
    }
}

#[pymethods]
impl Analysis {
    /// The recording id.
    #[getter]
    fn recording_id(&self) -> &str {
        &self.label
    }

    /// The JSON envelope of `overtalk analyze --format json` for this conversation, byte for
    /// byte.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| self.render(&Json))
    }

    /// The line of `overtalk analyze --format jsonl` for this conversation (with its newline).
    fn to_jsonl(&self, py: Python<'_>) -> PyResult<String> {
        py.detach(|| self.render(&Jsonl))
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let state = serde_json::to_string(&self.inner).map_err(|e| other("pickling", e))?;
        let f = py.import("overtalk._native")?.getattr("_analysis_from_json")?;
        Ok((f, (self.label.clone(), self.detection.clone(), state).into_pyobject(py)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "<overtalk.Analysis {:?}: {} speakers, {} turns, {} onsets>",
            self.label,
            self.inner.speakers.len(),
            self.inner.turns.len(),
            self.inner.onsets.len()
        )
    }
}

/// Rebuilds a pickled analysis.
#[pyfunction]
fn _analysis_from_json(
    label: String,
    detection: Option<String>,
    state: &str,
) -> PyResult<Analysis> {
    let inner = serde_json::from_str(state).map_err(|e| other("unpickling an analysis", e))?;
    Ok(Analysis { label, detection, inner })
}

/// Analyses `conversation` with the parameters of `preset` and the overrides of `params_json`.
#[pyfunction]
#[pyo3(signature = (conversation, preset="default", params_json=None))]
fn analyze(
    py: Python<'_>,
    conversation: PyRef<'_, Conversation>,
    preset: &str,
    params_json: Option<&str>,
) -> PyResult<Analysis> {
    let params = resolve_params(preset, params_json)?;
    let (id, t, detection) =
        (conversation.id.clone(), &conversation.transcript, conversation.detection.clone());
    py.detach(|| {
        let inner = analyze_transcript(&id, t, &params)?;
        Ok(Analysis { label: id, detection, inner })
    })
}

/// One input of a corpus run: a file, or the bytes of one with its name (for the format and
/// the recording id).
#[derive(FromPyObject)]
enum Source {
    Bytes(Vec<u8>),
    Path(PathBuf),
}

/// Reads one input and analyses each recording in it: `(recording id, JSON line)` per
/// conversation, in recording-id order — the lines `overtalk analyze --format jsonl` writes
/// for that input.
#[pyfunction]
#[pyo3(signature = (source, name=None, format=None, preset="default", params_json=None))]
fn analyze_source(
    py: Python<'_>,
    source: Source,
    name: Option<String>,
    format: Option<&str>,
    preset: &str,
    params_json: Option<&str>,
) -> PyResult<Vec<(String, String)>> {
    let params = resolve_params(preset, params_json)?;
    let explicit = format
        .map(|f| f.parse::<format::Format>().map_err(|e| OvertalkError::new_err(e.to_string())))
        .transpose()?;
    py.detach(|| {
        let opts = ReadOptions::default();
        let out = match &source {
            Source::Path(p) => format::read_path(p, explicit, &opts),
            Source::Bytes(b) => {
                let opts = ReadOptions {
                    recording_id: name
                        .as_deref()
                        .map(|n| format::recording_id_from_path(n.as_ref())),
                    ..opts
                };
                format::read_bytes(b, name.as_deref(), explicit, &opts)
            }
        }
        .map_err(to_py)?;
        let chat = out.format == Some(format::Format::Chat);
        let mut entries = Vec::with_capacity(out.corpus.len());
        for (id, t) in out.corpus.into_recordings() {
            if t.is_untimed() {
                return Err(untimed(&id, &t));
            }
            let chat_markers = if chat { analysis::markers::compare(&t) } else { None };
            entries.push(CorpusEntry {
                recording_id: id,
                file: String::new(),
                transcript: t,
                chat_markers,
                one_speaker_per_frame: false,
                extra: (),
            });
        }
        let options = CorpusOptions { params: &params, timing_only: false };
        let analyzed = corpus_analysis::analyze_entries(entries, &options, &mut |_| {})
            .map_err(|f| OvertalkError::new_err(format!("analysing {}: {}", f.label, f.error)))?;
        let mut rows = Vec::with_capacity(analyzed.len());
        for a in analyzed {
            let a = Analysis { label: a.label, detection: None, inner: a.analysis };
            rows.push((a.label.clone(), a.render(&Jsonl)?));
        }
        Ok(rows)
    })
}

/// One H&E interval as Python sees it: class, start and end (ms), the speakers' indices before
/// and after.
type PyInterval = (String, i64, i64, Option<usize>, Option<usize>);

/// The acoustic Heldner & Edlund intervals (gaps, pauses, overlaps between and within
/// speakers, NGNO, unbounded runs) of `conversation`, as `analyze` finds them in its
/// acoustic layer: `(kind, start_ms, end_ms, speaker before, speaker after)`, the speakers as
/// indices of the conversation's speakers. Two speakers take one sweep
/// (`analysis::dyad::he_acoustic`), more the general stages.
#[pyfunction]
#[pyo3(signature = (conversation, preset="he2010", params_json=None))]
fn gaps_and_overlaps(
    py: Python<'_>,
    conversation: PyRef<'_, Conversation>,
    preset: &str,
    params_json: Option<&str>,
) -> PyResult<Vec<PyInterval>> {
    let params = resolve_params(preset, params_json)?;
    let t = &conversation.transcript;
    py.detach(|| {
        let kind = |k: analysis::intervals::HeKind| {
            serde_json::to_value(k)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        };
        Ok(analysis::dyad::he_acoustic(t, &params)
            .into_iter()
            .map(|h| (kind(h.kind), h.start, h.end, h.prev, h.next))
            .collect())
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Analysis>()?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(analyze_source, m)?)?;
    m.add_function(wrap_pyfunction!(gaps_and_overlaps, m)?)?;
    m.add_function(wrap_pyfunction!(_analysis_from_json, m)?)?;
    Ok(())
}
