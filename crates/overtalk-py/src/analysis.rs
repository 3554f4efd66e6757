//! Analysing conversations: the parameters (a preset, then keyword overrides, as the command
//! line layers its preset, config file and flags), [`Analysis`] with its outputs rendered by
//! `overtalk::output` (the bytes of `overtalk analyze --format json|jsonl`), and the corpus
//! row of the engine helpers (one file or blob in, one JSON line per conversation out).

use std::path::PathBuf;

use overtalk::analysis::{self, AnalysisPreset, Classifier, Params};
use overtalk::corpus_analysis::{self, CorpusEntry, CorpusOptions};
use overtalk::format::{self, Format, ReadOptions};
use overtalk::output::json::Json;
use overtalk::output::jsonl::Jsonl;
use overtalk::output::{Conversation as OutConversation, Exporter};
use overtalk::{Transcript, TranscriptBuilder};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyTuple};
use serde::Serialize;

use crate::columns::{self, Column, FieldType, Nested};
use overtalk::output::schema::row_fields;

use crate::corpus::{Conversation, Corpus, Origin};
use crate::{other, parallel, to_py, OvertalkError};

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
    let base_object = merged.clone();
    for (k, v) in &overrides {
        // `decision_horizon` is unset (unbounded) in the presets, so absent from the object.
        if !merged.contains_key(k) && k != "decision_horizon" {
            let hint = closest_name(k, base_object.keys().map(String::as_str))
                .map_or_else(String::new, |n| format!("; did you mean {n}?"));
            return Err(OvertalkError::new_err(format!("unknown parameter {k:?}{hint}")));
        }
        merged.insert(k.clone(), v.clone());
    }
    let params: Params = match serde_json::from_value(serde_json::Value::Object(merged)) {
        Ok(p) => p,
        Err(e) => {
            // Which parameter: the first override that fails on the preset alone.
            let bad = overrides.iter().find(|(k, v)| {
                let mut one = base_object.clone();
                one.insert((*k).clone(), (*v).clone());
                serde_json::from_value::<Params>(serde_json::Value::Object(one)).is_err()
            });
            return Err(match bad {
                Some((k, v)) => {
                    OvertalkError::new_err(format!("bad parameter value: {k} = {v}: {e}"))
                }
                None => other("bad parameter value", e),
            });
        }
    };
    // Checked where they are resolved, so that every function taking them (the H&E intervals
    // as well as analyze) refuses an out-of-range value as the command line does.
    params.validate().map_err(|e| OvertalkError::new_err(e.to_string()))?;
    Ok(params)
}

/// The known name closest to `name` by edit distance, when it is close (a misspelling: at
/// most a third of the name's letters differ).
fn closest_name<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let distance = |a: &str, b: &str| {
        let b: Vec<char> = b.chars().collect();
        let mut row: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.chars().enumerate() {
            let mut diagonal = row[0];
            row[0] = i + 1;
            for (j, cb) in b.iter().enumerate() {
                let next = (diagonal + usize::from(ca != *cb)).min(row[j] + 1).min(row[j + 1] + 1);
                diagonal = row[j + 1];
                row[j + 1] = next;
            }
        }
        row[b.len()]
    };
    known
        .map(|k| (distance(name, k), k))
        .filter(|&(d, _)| d * 3 <= name.chars().count())
        .min()
        .map(|(_, k)| k)
}

/// The error for an untimed transcript, which analysis cannot use.
pub(crate) fn untimed(label: &str, t: &Transcript) -> PyErr {
    OvertalkError::new_err(format!(
        "recording {label:?} is an untimed transcript ({} utterances in order, no times); analyze needs times: overtalk.turn_order(conversation) gives what the order of its turns says",
        t.untimed().len()
    ))
}

/// How to analyse besides the parameters: what `overtalk analyze` takes from the input and
/// from `--timing-only`.
#[derive(Clone, Copy, Default)]
struct How<'a> {
    /// `--timing-only`: words and text ignored, completion and backchannels judged by timing.
    timing_only: bool,
    /// The format the transcript was read from (CHAT: its markers are compared with the
    /// timing).
    format: Option<Format>,
    /// Detected with one speaker per frame: overlap is not measurable.
    overlap_not_measurable: bool,
    /// Detected by voice activity alone, without a speaker model: the speakers were not told
    /// apart.
    speakers_not_separated: bool,
    /// What the detection noted about the recording: each a `recording` warning of the
    /// analysis.
    notes: &'a [String],
}

/// The transcript without text and words, as `overtalk analyze --timing-only` analyses it:
/// the speakers (all of them, in order), the segments and the declared extent.
fn without_text(t: &Transcript) -> Transcript {
    let mut b = TranscriptBuilder::new();
    for (_, name) in t.annotation().speakers().iter() {
        b.speaker(name);
    }
    for u in t.utterances() {
        b.add(u.segment, u.speaker_name, None);
    }
    b.extent(t.declared_extent());
    b.build()
}

/// Analyses one transcript labelled `label`, as `overtalk analyze` does: under
/// `--timing-only` without its text (unless some ends are estimated: those transcripts are
/// analysed by timing anyway and keep their text for the punctuation rules), and for CHAT
/// with the transcriber's markers against the timing (`chat_markers_vs_timing`).
fn analyze_transcript(
    label: &str,
    t: &Transcript,
    params: &Params,
    how: How<'_>,
) -> PyResult<analysis::Analysis> {
    if t.is_untimed() {
        return Err(untimed(label, t));
    }
    let stripped = (how.timing_only && t.estimated_ends() == 0).then(|| without_text(t));
    let mut a = analysis::analyze(stripped.as_ref().unwrap_or(t), params)
        .map_err(|e| OvertalkError::new_err(format!("analysing {label}: {e}")))?;
    if how.format == Some(Format::Chat) {
        a.chat_markers_vs_timing = analysis::markers::compare(t);
    }
    if how.overlap_not_measurable {
        // Whatever the length and the speaker count, as `overtalk analyze` says it for such a
        // detection.
        a.mark_one_speaker_per_frame();
    }
    if how.speakers_not_separated {
        a.mark_speakers_not_separated();
    }
    // After the analysis's own, as `overtalk analyze` orders them.
    for note in how.notes {
        a.diagnostics.warnings.push(analysis::AnalysisWarning::Recording(note.clone()));
    }
    Ok(a)
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

    /// The analysis's own warnings as `overtalk analyze` prints them on standard error
    /// (`recording: warning`), without the recording's notes (the reader's and the detector's,
    /// given when it was read or detected).
    #[getter]
    fn _fresh_warnings(&self) -> Vec<String> {
        let fresh = self.inner.diagnostics.warnings.iter();
        fresh
            .filter(|w| !matches!(w, analysis::AnalysisWarning::Recording(_)))
            .map(|w| format!("{}: {w}", self.label))
            .collect()
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

    /// The columns of an event list (`onsets`, `turns`, `transfers`, `intervals`,
    /// `talkspurts`) or of `speakers` (one row per speaker, its scalar fields), as Arrow
    /// buffers: `(name, type, length, null count, validity or None, [buffers])` per column.
    fn _columns<'py>(&self, py: Python<'py>, events: &str) -> PyResult<Vec<PyColumn<'py>>> {
        let cols = py.detach(|| self.columns(events))?;
        let bytes = |b: &[u8]| PyBytes::new(py, b);
        Ok(cols
            .into_iter()
            .map(|c| {
                let validity = c.validity.as_deref().map(bytes);
                let buffers = c.buffers.iter().map(|b| bytes(b)).collect();
                (c.name, c.kind, c.len, c.nulls, validity, buffers)
            })
            .collect())
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

/// One column for pyarrow: name, type, length, null count, validity bitmap, buffers.
pub(crate) type PyColumn<'py> =
    (String, &'static str, usize, usize, Option<Bound<'py, PyBytes>>, Vec<Bound<'py, PyBytes>>);

/// The values of `rows`.
fn rows_of<T: Serialize>(rows: &[T]) -> PyResult<Vec<serde_json::Value>> {
    rows.iter().map(serde_json::to_value).collect::<Result<_, _>>().map_err(|e| other("columns", e))
}

impl Analysis {
    /// The columns of `events` (see `_columns`): the fields the output's schema declares for
    /// its rows, of their declared types, whatever rows this analysis has.
    fn columns(&self, events: &str) -> PyResult<Vec<Column>> {
        let a = &self.inner;
        let (list, rows, nested) = match events {
            "onsets" => ("onsets", rows_of(&a.onsets)?, Nested::Json),
            "turns" => ("turns", rows_of(&a.turns)?, Nested::Json),
            "transfers" => ("transfers", rows_of(&a.transfers)?, Nested::Json),
            "intervals" => ("he", rows_of(&a.he)?, Nested::Json),
            "talkspurts" => ("talkspurts", rows_of(&a.talkspurts)?, Nested::Json),
            "speakers" => {
                let mut rows = Vec::with_capacity(a.speakers.len());
                for (name, s) in &a.speakers {
                    let mut v = serde_json::to_value(s).map_err(|e| other("columns", e))?;
                    if let serde_json::Value::Object(m) = &mut v {
                        m.insert("speaker".to_owned(), name.as_str().into());
                    }
                    rows.push(v);
                }
                ("speakers", rows, Nested::Drop)
            }
            e => {
                return Err(pyo3::exceptions::PyValueError::new_err(format!(
                    "events must be one of intervals, onsets, speakers, talkspurts, transfers or turns, got {e:?}"
                )))
            }
        };
        let mut declared = Vec::new();
        if list == "speakers" {
            declared.push(("speaker".to_owned(), FieldType::String));
        }
        declared.extend(
            row_fields(list).ok_or_else(|| other("columns", format!("no schema for {list}")))?,
        );
        Ok(columns::columns(&rows, &declared, nested))
    }
}

/// The turn-order analysis of an untimed transcript, as the JSON object `overtalk analyze`
/// writes for it (an element of the envelope's `untimed` list); an error for a timed one.
#[pyfunction]
fn turn_order_json(
    py: Python<'_>,
    conversation: PyRef<'_, Conversation>,
    params: PyRef<'_, PyParams>,
) -> PyResult<String> {
    let (c, p) = (&*conversation, &params.inner);
    py.detach(|| {
        if c.transcript.utterances().next().is_none() && c.transcript.untimed().is_empty() {
            return Err(OvertalkError::new_err(format!(
                "recording {:?} holds no speech: no turns to put in order",
                c.id
            )));
        }
        let order = overtalk::analysis::turn_order::analyze(&c.transcript, p).ok_or_else(|| {
            OvertalkError::new_err(format!(
                "recording {:?} has times: overtalk.analyze(conversation) analyses it; turn_order is for transcripts without times",
                c.id
            ))
        })?;
        let out = overtalk::output::untimed::UntimedRecording::new(&c.id, &order);
        serde_json::to_string(&out).map_err(|e| other("turn order", e))
    })
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

/// Resolved analysis parameters, made once by `params` and handed to every call that
/// analyses (the package keeps the last few, so a loop of calls with the same keywords
/// resolves them once).
#[pyclass(module = "overtalk._native", name = "Params", frozen)]
pub(crate) struct PyParams {
    pub(crate) inner: Params,
}

#[pymethods]
impl PyParams {
    /// The parameters as JSON (names in snake_case, durations in ms).
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.inner).map_err(|e| other("parameters", e))
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let f = py.import("overtalk._native")?.getattr("_params_from_json")?;
        Ok((f, (self.to_json()?,).into_pyobject(py)?))
    }
}

/// The parameters of `preset` with the overrides of `params_json` ([`resolve_params`]).
#[pyfunction]
#[pyo3(signature = (preset="default", params_json=None))]
fn params(preset: &str, params_json: Option<&str>) -> PyResult<PyParams> {
    Ok(PyParams { inner: resolve_params(preset, params_json)? })
}

/// Rebuilds pickled parameters.
#[pyfunction]
fn _params_from_json(json: &str) -> PyResult<PyParams> {
    Ok(PyParams { inner: serde_json::from_str(json).map_err(|e| other("parameters", e))? })
}

/// How a conversation is analysed besides the parameters, from what it carries.
fn how_of(origin: &Origin, timing_only: bool) -> How<'_> {
    How {
        timing_only,
        format: origin.format,
        overlap_not_measurable: origin.overlap_not_measurable,
        speakers_not_separated: origin.speakers_not_separated,
        notes: &origin.notes,
    }
}

/// Analyses `conversation` with `params`; `timing_only` as `overtalk analyze --timing-only`.
#[pyfunction]
#[pyo3(signature = (conversation, params, timing_only=false))]
fn analyze(
    py: Python<'_>,
    conversation: PyRef<'_, Conversation>,
    params: PyRef<'_, PyParams>,
    timing_only: bool,
) -> PyResult<Analysis> {
    let (c, p) = (&*conversation, &params.inner);
    py.detach(|| analyze_one(c, p, timing_only))
}

fn analyze_one(c: &Conversation, params: &Params, timing_only: bool) -> PyResult<Analysis> {
    let inner = analyze_transcript(&c.id, &c.transcript, params, how_of(&c.origin, timing_only))?;
    Ok(Analysis { label: c.id.clone(), detection: c.origin.detection.clone(), inner })
}

/// The first error in the items' order, or every result.
fn in_order<T>(results: Vec<PyResult<T>>) -> PyResult<Vec<T>> {
    results.into_iter().collect()
}

/// Analyses each conversation, in the order given, on `threads` worker threads (`None`: one
/// per core), each as `analyze` does; the first conversation that fails (in that order) is
/// the error.
#[pyfunction]
#[pyo3(signature = (conversations, params, timing_only=false, threads=None))]
fn analyze_many(
    py: Python<'_>,
    conversations: Vec<PyRef<'_, Conversation>>,
    params: PyRef<'_, PyParams>,
    timing_only: bool,
    threads: Option<usize>,
) -> PyResult<Vec<Analysis>> {
    let threads = parallel::check_threads(threads)?;
    let convs: Vec<&Conversation> = conversations.iter().map(|c| &**c).collect();
    let p = &params.inner;
    py.detach(|| in_order(parallel::map(&convs, threads, |c| analyze_one(c, p, timing_only))?))
}

/// Analyses every recording of `corpus`, in id order, on `threads` worker threads, as
/// `analyze` does each (a CHAT recording with its markers against the timing, a detected one
/// with what its detection cannot measure).
#[pyfunction]
#[pyo3(signature = (corpus, params, timing_only=false, threads=None))]
fn analyze_corpus(
    py: Python<'_>,
    corpus: PyRef<'_, Corpus>,
    params: PyRef<'_, PyParams>,
    timing_only: bool,
    threads: Option<usize>,
) -> PyResult<Vec<Analysis>> {
    let threads = parallel::check_threads(threads)?;
    let recordings: Vec<_> = corpus.inner.iter().collect();
    let (p, origins) = (&params.inner, &corpus.origins);
    py.detach(|| {
        let results = parallel::map(&recordings, threads, |(id, t)| {
            let origin = origins.get(*id).cloned().unwrap_or_default();
            let inner = analyze_transcript(id, t, p, how_of(&origin, timing_only))?;
            Ok(Analysis { label: (*id).to_owned(), detection: origin.detection, inner })
        })?;
        in_order(results)
    })
}

/// One input of a corpus run: a file, or the bytes of one with its name (for the format and
/// the recording id).
#[derive(FromPyObject)]
enum Source {
    Bytes(Vec<u8>),
    Path(PathBuf),
}

/// A value of the conversation-level metrics as Python takes it (a number, a string, a bool or
/// `None`; anything nested as its JSON text).
enum Scalar {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Text(String),
}

impl<'py> IntoPyObject<'py> for Scalar {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = std::convert::Infallible;

    fn into_pyobject(self, py: Python<'py>) -> Result<Self::Output, Self::Error> {
        Ok(match self {
            Scalar::Null => py.None().into_bound(py),
            Scalar::Bool(b) => b.into_pyobject(py)?.to_owned().into_any(),
            Scalar::Int(i) => i.into_pyobject(py)?.into_any(),
            Scalar::Float(f) => f.into_pyobject(py)?.into_any(),
            Scalar::Text(s) => s.into_pyobject(py)?.into_any(),
        })
    }
}

/// The value at `path` (object keys) in `v`; `Null` where the path leads nowhere.
fn scalar_at(v: &serde_json::Value, path: &[String]) -> Scalar {
    use serde_json::Value;
    match path.iter().try_fold(v, |v, k| v.get(k)) {
        None | Some(Value::Null) => Scalar::Null,
        Some(Value::Bool(b)) => Scalar::Bool(*b),
        Some(Value::Number(n)) => {
            n.as_i64().map_or_else(|| Scalar::Float(n.as_f64().unwrap_or(f64::NAN)), Scalar::Int)
        }
        Some(Value::String(s)) => Scalar::Text(s.clone()),
        Some(nested) => Scalar::Text(nested.to_string()),
    }
}

/// A row's JSON line: text (with its newline, as `overtalk analyze --format jsonl` writes it),
/// or, for Arrow columns, its UTF-8 bytes without the newline. A summary sentence's curly
/// quotes make every line non-ASCII, which Python holds two bytes a character and Arrow
/// must encode again; the bytes go into an Arrow string column as they are.
enum Line {
    Text(String),
    Bytes(Vec<u8>),
}

impl<'py> IntoPyObject<'py> for Line {
    type Target = PyAny;
    type Output = Bound<'py, PyAny>;
    type Error = std::convert::Infallible;

    fn into_pyobject(self, py: Python<'py>) -> Result<Self::Output, Self::Error> {
        Ok(match self {
            Line::Text(s) => PyString::new(py, &s).into_any(),
            Line::Bytes(b) => PyBytes::new(py, &b).into_any(),
        })
    }
}

/// One row of a corpus run: recording id, JSON line, the values at the requested paths.
type SourceRow = (String, Line, Vec<Scalar>);

/// Reads one input and analyses each recording in it: `(recording id, JSON line, values)` per
/// conversation, in recording-id order — the lines `overtalk analyze --format jsonl` writes
/// for that input, and the values at `paths` (key paths into the line's object, such as
/// `["conversation", "counts", "turns"]`), taken from the analysis without parsing the line.
///
/// With `json_bytes`, each line comes as UTF-8 `bytes` without its newline, for Arrow columns.
#[pyfunction]
#[pyo3(signature = (source, name=None, format=None, preset="default", params_json=None, timing_only=false, paths=Vec::new(), json_bytes=false))]
#[allow(clippy::too_many_arguments)]
fn analyze_source(
    py: Python<'_>,
    source: Source,
    name: Option<String>,
    format: Option<&str>,
    preset: &str,
    params_json: Option<&str>,
    timing_only: bool,
    paths: Vec<Vec<String>>,
    json_bytes: bool,
) -> PyResult<Vec<SourceRow>> {
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
        // Nobody speaks (an empty or blank file, a header alone, every line dropped): an error
        // naming the input, as `overtalk analyze` refuses it, not zero rows a corpus run would
        // take for a result. The reader's warnings say why nothing was left.
        if format::holds_no_speech(&out.corpus) {
            let label = match (&source, &name) {
                (_, Some(n)) => n.clone(),
                (Source::Path(p), None) => p.display().to_string(),
                (Source::Bytes(_), None) => "<bytes>".to_owned(),
            };
            let said: Vec<String> = out
                .warnings
                .iter()
                .filter(|w| w.message != format::EMPTY_INPUT)
                .map(ToString::to_string)
                .collect();
            let why = if said.is_empty() {
                String::new()
            } else {
                format!(" (the reader: {})", said.join("; "))
            };
            return Err(OvertalkError::new_err(format!(
                "{label}: the input holds no speech (no segment, turn or word): nothing to \
                 describe{why}"
            )));
        }
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
                speakers_not_separated: false,
                recording_notes: Vec::new(),
                extra: (),
            });
        }
        let options = CorpusOptions { params: &params, timing_only };
        let analyzed = corpus_analysis::analyze_entries(entries, &options, &mut |_| {})
            .map_err(|f| OvertalkError::new_err(format!("analysing {}: {}", f.label, f.error)))?;
        let mut rows = Vec::with_capacity(analyzed.len());
        for a in analyzed {
            let a = Analysis { label: a.label, detection: None, inner: a.analysis };
            let line = a.render(&Jsonl)?;
            let values = if paths.is_empty() {
                Vec::new()
            } else if paths.iter().all(|p| p.first().is_some_and(|k| k == "conversation")) {
                // The metrics object alone, not the whole conversation.
                let v = serde_json::to_value(&a.inner.conversation).map_err(|e| other("row", e))?;
                paths.iter().map(|p| scalar_at(&v, &p[1..])).collect()
            } else {
                let v: serde_json::Value =
                    serde_json::from_str(&line).map_err(|e| other("row", e))?;
                paths.iter().map(|p| scalar_at(&v, p)).collect()
            };
            let line = if json_bytes {
                let mut b = line.into_bytes();
                if b.last() == Some(&b'\n') {
                    b.pop();
                }
                Line::Bytes(b)
            } else {
                Line::Text(line)
            };
            rows.push((a.label.clone(), line, values));
        }
        Ok(rows)
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Analysis>()?;
    m.add_function(wrap_pyfunction!(analyze, m)?)?;
    m.add_function(wrap_pyfunction!(analyze_source, m)?)?;
    m.add_function(wrap_pyfunction!(analyze_many, m)?)?;
    m.add_function(wrap_pyfunction!(analyze_corpus, m)?)?;
    m.add_function(wrap_pyfunction!(turn_order_json, m)?)?;
    m.add_class::<PyParams>()?;
    m.add_function(wrap_pyfunction!(params, m)?)?;
    m.add_function(wrap_pyfunction!(_analysis_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(_params_from_json, m)?)?;
    Ok(())
}
