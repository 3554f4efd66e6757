//! Reading and writing: [`Corpus`] (recording id → conversation) and [`Conversation`] (one
//! recording's who-spoke-when, with its text when the format has text), over
//! `overtalk::format`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::str::FromStr;

use overtalk::format::{self, Format, ReadOptions};
use overtalk::{Content, Segment, Time, Transcript, TranscriptBuilder, Warning, WarningKind};
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::{other, parallel, python_words, to_py, warn, OvertalkError};

/// One segment as Python sees it: start and end in seconds, the speaker, the text (if any).
pub(crate) type PySegment = (f64, f64, String, Option<String>);

/// Recordings by id, as read from one or more inputs.
#[pyclass(module = "overtalk._native", frozen)]
pub(crate) struct Corpus {
    pub(crate) inner: overtalk::Corpus,
    /// What the readers repaired or questioned, as `source: line L, column C: message`.
    warnings: Vec<String>,
    /// Where each recording came from, for those read from a format or detected (absent for
    /// recordings built in memory).
    pub(crate) origins: BTreeMap<String, Origin>,
    /// The zero-length turns the readers dropped: `score` gives them to the presets that
    /// treat them (dscore refuses the file, spyder keeps the speaker), as `overtalk score`.
    pub(crate) zero_length: Vec<format::ZeroLengthSegment>,
}

/// What a recording carries besides its transcript: the format it was read from, or how its
/// speech was detected and what that detection cannot measure. `analyze` says what the
/// command line says for the same input; a corpus keeps it per recording, so that indexing,
/// pickling and `Corpus.from_conversations` do not lose it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Origin {
    /// The format it was read from: a CHAT transcript's markers are compared with its timing
    /// by `analyze`, as on the command line.
    pub(crate) format: Option<Format>,
    /// How speech was detected, for a conversation detected in recordings.
    pub(crate) detection: Option<String>,
    /// Detected with at most one speaker per frame (a mixed track diarized by GE2E without its
    /// second speaker, or by voice activity alone): `analyze` warns that overlap is not
    /// measurable, as the command line does.
    pub(crate) overlap_not_measurable: bool,
    /// Detected by voice activity alone (no speaker model): `analyze` warns that the speakers
    /// were not told apart, as the command line does.
    pub(crate) speakers_not_separated: bool,
    /// What the detection noted about the recording (its audio starts late, the file is
    /// truncated, a track's speech was mostly taken for bleed, a track has no speech), each
    /// given as a warning when it was detected: `analyze` carries each as a `recording`
    /// warning, as the command line does.
    pub(crate) notes: Vec<String>,
}

impl Origin {
    /// Read from `format`.
    fn read_as(format: Format) -> Self {
        Origin { format: Some(format), ..Origin::default() }
    }
}

/// One recording: its id, its speakers, its segments (and text), and where it came from.
#[pyclass(module = "overtalk._native", frozen)]
pub(crate) struct Conversation {
    pub(crate) id: String,
    pub(crate) transcript: Transcript,
    pub(crate) origin: Origin,
}

impl Conversation {
    /// A conversation built in memory or detected in recordings (read from no format).
    pub(crate) fn new(id: String, transcript: Transcript, detection: Option<String>) -> Self {
        Conversation { id, transcript, origin: Origin { detection, ..Origin::default() } }
    }
}

/// The format each recording of `out` was read in, keyed by recording id.
fn origins_of(out: &format::ReadOutput) -> BTreeMap<String, Origin> {
    out.format.map_or_else(BTreeMap::new, |f| {
        out.corpus.ids().map(|id| (id.to_owned(), Origin::read_as(f))).collect()
    })
}

fn parse_format(name: Option<&str>) -> PyResult<Option<Format>> {
    name.map(|n| Format::from_str(n).map_err(|e| OvertalkError::new_err(e.to_string()))).transpose()
}

/// The reading options besides the format: `read(strict=…, recording_id=…, encoding=…,
/// tiers=…, ignore_tiers=…)`, the command line's `--strict`, `--encoding`, `--tiers` and
/// `--ignore-tiers`.
fn options(
    strict: bool,
    recording_id: Option<String>,
    encoding: Option<String>,
    tiers: Option<Vec<String>>,
    ignore_tiers: Option<Vec<String>>,
) -> ReadOptions {
    ReadOptions {
        strict,
        recording_id,
        encoding,
        tiers: format::tiers::TierSelection {
            only: tiers.unwrap_or_default(),
            ignore: ignore_tiers.unwrap_or_default(),
        },
        ..ReadOptions::default()
    }
}

fn warning_lines(source: &str, out: &format::ReadOutput) -> Vec<String> {
    out.warnings.iter().map(|w| python_words(&format!("{source}: {w}"))).collect()
}

/// Reads the files at `paths` into one corpus, on `threads` worker threads (`None`: one per
/// core); the files are merged in the order given, so a recording id in two files is an error
/// naming the later one, as in `overtalk score`, and the first unreadable file (in that order)
/// is the error.
#[pyfunction]
#[pyo3(signature = (paths, format=None, strict=false, recording_id=None, threads=None, encoding=None, tiers=None, ignore_tiers=None))]
#[allow(clippy::too_many_arguments)]
fn read_paths(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    format: Option<&str>,
    strict: bool,
    recording_id: Option<String>,
    threads: Option<usize>,
    encoding: Option<String>,
    tiers: Option<Vec<String>>,
    ignore_tiers: Option<Vec<String>>,
) -> PyResult<Corpus> {
    let explicit = parse_format(format)?;
    let threads = parallel::check_threads(threads)?;
    py.detach(|| {
        let opts = options(strict, recording_id, encoding, tiers, ignore_tiers);
        let read = parallel::map(&paths, threads, |path| format::read_path(path, explicit, &opts))?;
        let mut corpus = overtalk::Corpus::new();
        let mut warnings = Vec::new();
        let mut origins = BTreeMap::new();
        let mut zero_length = Vec::new();
        for (path, out) in paths.iter().zip(read) {
            let out = out.map_err(to_py)?;
            let source = path.display().to_string();
            warnings.extend(warning_lines(&source, &out));
            origins.extend(origins_of(&out));
            zero_length.extend(out.zero_length.iter().cloned());
            let repeated = corpus.merge(out.corpus);
            if let Some(id) = repeated.first() {
                return Err(OvertalkError::new_err(format!(
                    "{source}: recording {id:?} appears in more than one input"
                )));
            }
        }
        Ok(Corpus { inner: corpus, warnings, origins, zero_length })
    })
}

/// Reads text or bytes held in memory; `name` (a file name) hints at the format.
#[pyfunction]
#[pyo3(signature = (data, format=None, name=None, strict=false, recording_id=None, encoding=None, tiers=None, ignore_tiers=None))]
#[allow(clippy::too_many_arguments)]
fn read_bytes(
    py: Python<'_>,
    data: Vec<u8>,
    format: Option<&str>,
    name: Option<String>,
    strict: bool,
    recording_id: Option<String>,
    encoding: Option<String>,
    tiers: Option<Vec<String>>,
    ignore_tiers: Option<Vec<String>>,
) -> PyResult<Corpus> {
    let explicit = parse_format(format)?;
    py.detach(|| {
        let id = recording_id
            .or_else(|| name.as_deref().map(|n| format::recording_id_from_path(n.as_ref())));
        let opts = options(strict, id, encoding, tiers, ignore_tiers);
        let out = format::read_bytes(&data, name.as_deref(), explicit, &opts).map_err(to_py)?;
        let source = name.unwrap_or_else(|| "<text>".to_owned());
        let warnings = warning_lines(&source, &out);
        let origins = origins_of(&out);
        let zero_length = out.zero_length.clone();
        Ok(Corpus { inner: out.corpus, warnings, origins, zero_length })
    })
}

/// The format a file name implies by its extension (`None` when it implies none).
#[pyfunction]
fn format_for_name(name: &str) -> Option<&'static str> {
    format::detect_by_name(name).map(Format::name)
}

/// The format an output file's name asks for, as `overtalk convert -o NAME` takes it (`.json`
/// overtalk's JSON, `.seglst.json` SegLST); `None` when it asks for none.
#[pyfunction]
fn output_format_for_name(name: &str) -> Option<&'static str> {
    format::output_format_for_name(name).map(Format::name)
}

/// Writes `text` to the file at `path` as every overtalk output is written
/// (`overtalk::atomic`): a temporary file beside it, synced, then renamed over it, so that no
/// reader sees half a file and a failure leaves the old one; a device or a pipe written in
/// place, a symbolic link followed. A failure to write is the `OSError` its cause says
/// (`FileNotFoundError` for a missing directory, `IsADirectoryError`, `PermissionError`…), its
/// message naming the path.
#[pyfunction]
fn write_file(py: Python<'_>, path: PathBuf, text: &str) -> PyResult<()> {
    py.detach(|| overtalk::atomic::write(&path, text.as_bytes())).map_err(|e| match e.kind() {
        overtalk::ErrorKind::Io(io) => std::io::Error::new(io.kind(), e.to_string()).into(),
        _ => to_py(e),
    })
}

/// The corpus written by the lossless JSON writer (for pickling), which changes nothing.
fn to_lossless_json(corpus: &overtalk::Corpus) -> PyResult<String> {
    Ok(write_corpus(corpus, Format::Json)?.0)
}

/// The corpus written as `format`, and what the writer changed to fit it (a name with spaces
/// in an RTTM field), as the command line warns of it.
fn write_corpus(corpus: &overtalk::Corpus, format: Format) -> PyResult<(String, Vec<String>)> {
    let mut out = Vec::new();
    let warnings = format::write(corpus, format, &mut out).map_err(to_py)?;
    let text = String::from_utf8(out).map_err(|e| other("writing", e))?;
    Ok((text, warnings.iter().map(|w| python_words(&w.to_string())).collect()))
}

/// [`write_corpus`] with the GIL released, its warnings given to Python.
fn write_warning(py: Python<'_>, corpus: &overtalk::Corpus, format: Format) -> PyResult<String> {
    let (text, warnings) = py.detach(|| write_corpus(corpus, format))?;
    warn(py, warnings)?;
    Ok(text)
}

fn from_lossless_json(json: &str) -> PyResult<overtalk::Corpus> {
    Ok(format::read_str(json, Format::Json, &ReadOptions::default()).map_err(to_py)?.corpus)
}

/// An [`Origin`] as pickled: the format's name, the detection, the two flags and the notes.
type PickledOrigin = (Option<String>, Option<String>, bool, bool, Vec<String>);

impl Origin {
    fn pickled(&self) -> PickledOrigin {
        (
            self.format.map(|f| f.name().to_owned()),
            self.detection.clone(),
            self.overlap_not_measurable,
            self.speakers_not_separated,
            self.notes.clone(),
        )
    }

    fn unpickled(
        (format, detection, overlap_not_measurable, speakers_not_separated, notes): PickledOrigin,
    ) -> PyResult<Self> {
        Ok(Origin {
            format: parse_format(format.as_deref())?,
            detection,
            overlap_not_measurable,
            speakers_not_separated,
            notes,
        })
    }
}

/// Rebuilds a pickled corpus: its lossless JSON and where each recording came from.
#[pyfunction]
#[pyo3(signature = (json, origins=Vec::new(), zero_length=Vec::new(), warnings=Vec::new()))]
fn _corpus_from_json(
    py: Python<'_>,
    json: &str,
    origins: Vec<(String, PickledOrigin)>,
    zero_length: Vec<(String, String, i64, usize)>,
    warnings: Vec<String>,
) -> PyResult<Corpus> {
    let inner = py.detach(|| from_lossless_json(json))?;
    let origins = origins
        .into_iter()
        .map(|(id, o)| Ok((id, Origin::unpickled(o)?)))
        .collect::<PyResult<_>>()?;
    let zero_length = zero_length
        .into_iter()
        .map(|(recording, speaker, at, line)| format::ZeroLengthSegment {
            recording,
            speaker,
            at: overtalk::Time::from_micros(at),
            line,
        })
        .collect();
    Ok(Corpus { inner, warnings, origins, zero_length })
}

/// Rebuilds a pickled conversation.
#[pyfunction]
fn _conversation_from_json(
    py: Python<'_>,
    id: String,
    json: &str,
    origin: PickledOrigin,
) -> PyResult<Conversation> {
    let corpus = py.detach(|| from_lossless_json(json))?;
    let transcript = corpus.get(&id).cloned().ok_or_else(|| {
        OvertalkError::new_err(format!("the pickled corpus has no recording {id:?}"))
    })?;
    Ok(Conversation { id, transcript, origin: Origin::unpickled(origin)? })
}

fn reducer<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("overtalk._native")?.getattr(name)
}

#[pymethods]
impl Corpus {
    /// The recording ids, sorted.
    fn ids(&self) -> Vec<String> {
        self.inner.ids().map(str::to_owned).collect()
    }

    /// What the readers repaired or questioned while reading.
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.warnings.clone()
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __contains__(&self, id: &str) -> bool {
        self.inner.get(id).is_some()
    }

    fn __getitem__(&self, id: &str) -> PyResult<Conversation> {
        match self.inner.get(id) {
            Some(t) => Ok(Conversation {
                id: id.to_owned(),
                transcript: t.clone(),
                origin: self.origins.get(id).cloned().unwrap_or_default(),
            }),
            None => Err(pyo3::exceptions::PyKeyError::new_err(missing_id(&self.inner, id))),
        }
    }

    /// The corpus written as `format` (`rttm`, `json`, `eaf`, …); what the writer changed
    /// to fit the format is warned about.
    fn write(&self, py: Python<'_>, format: &str) -> PyResult<String> {
        let f = parse_format(Some(format))?.unwrap_or(Format::Json);
        write_warning(py, &self.inner, f)
    }

    /// Corpora from conversations (ids must differ), each keeping where it came from.
    #[staticmethod]
    fn from_conversations(conversations: Vec<PyRef<'_, Conversation>>) -> PyResult<Corpus> {
        let mut inner = overtalk::Corpus::new();
        let mut origins = BTreeMap::new();
        for c in conversations {
            if inner.get(&c.id).is_some() {
                return Err(OvertalkError::new_err(format!("recording {:?} is given twice", c.id)));
            }
            inner.insert(c.id.clone(), c.transcript.clone());
            if c.origin != Origin::default() {
                origins.insert(c.id.clone(), c.origin.clone());
            }
        }
        Ok(Corpus { inner, warnings: Vec::new(), origins, zero_length: Vec::new() })
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let json = py.detach(|| to_lossless_json(&self.inner))?;
        let origins: Vec<(String, PickledOrigin)> =
            self.origins.iter().map(|(id, o)| (id.clone(), o.pickled())).collect();
        let zero: Vec<(String, String, i64, usize)> = self
            .zero_length
            .iter()
            .map(|z| (z.recording.clone(), z.speaker.clone(), z.at.micros(), z.line))
            .collect();
        // The reading warnings too: `corpus.warnings` of an unpickled corpus says what the
        // readers repaired, as before pickling.
        let args = (json, origins, zero, self.warnings.clone());
        Ok((reducer(py, "_corpus_from_json")?, args.into_pyobject(py)?))
    }

    fn __repr__(&self) -> String {
        format!("<overtalk.Corpus of {} recordings>", self.inner.len())
    }
}

#[pymethods]
impl Conversation {
    /// The recording id.
    #[getter]
    fn recording_id(&self) -> &str {
        &self.id
    }

    /// How speech was detected, for a conversation detected in recordings.
    #[getter]
    fn detection(&self) -> Option<&str> {
        self.origin.detection.as_deref()
    }

    /// What the detection noted about the recording, as warned when it was detected (empty
    /// for a conversation read or built in memory).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.origin.notes.clone()
    }

    /// The format the conversation was read from (`None` when built in memory or detected).
    #[getter]
    fn format(&self) -> Option<&'static str> {
        self.origin.format.map(Format::name)
    }

    /// The speakers, in the order of the speaker table (by label).
    fn speakers(&self) -> Vec<String> {
        self.transcript.annotation().speakers().iter().map(|(_, n)| n.to_owned()).collect()
    }

    /// The segments in time order: `(start_s, end_s, speaker, text or None)`.
    fn segments(&self) -> Vec<PySegment> {
        self.transcript
            .utterances()
            .map(|u| {
                (
                    u.segment.start().as_secs_f64(),
                    u.segment.end().as_secs_f64(),
                    u.speaker_name.to_owned(),
                    u.content.map(Content::display_text),
                )
            })
            .collect()
    }

    /// The segments' times in microseconds: `(start_us, end_us, speaker)`, exactly as held.
    fn segments_micros(&self) -> Vec<(i64, i64, String)> {
        self.transcript
            .utterances()
            .map(|u| {
                (u.segment.start().micros(), u.segment.end().micros(), u.speaker_name.to_owned())
            })
            .collect()
    }

    /// The conversation written as `format` (`rttm`, `json`, `eaf`, `textgrid`, …); what the
    /// writer changed to fit the format is warned about.
    fn write(&self, py: Python<'_>, format: &str) -> PyResult<String> {
        let f = parse_format(Some(format))?.unwrap_or(Format::Json);
        write_warning(py, &overtalk::Corpus::single(&self.id, self.transcript.clone()), f)
    }

    /// A conversation from `(start_s, end_s, speaker[, text])` segments; `speakers` declares
    /// speakers (and their order) even when they have no segment. Times are rounded to the
    /// microsecond; an empty or reversed segment is an error naming it. As when a file is
    /// read: a negative start is clipped to 0 with a warning (an error under `strict`), and a
    /// speaker whose segments overlap each other is a warning. Errors name a segment as `item`
    /// and its index (`segment 3`; `row 3` for a DataFrame's rows, as `from_pandas` names
    /// them in its own errors).
    #[staticmethod]
    #[pyo3(signature = (recording_id, segments, speakers=None, extent=None, strict=false, item="segment"))]
    fn from_segments(
        py: Python<'_>,
        recording_id: String,
        segments: Vec<PySegment>,
        speakers: Option<Vec<String>>,
        extent: Option<(f64, f64)>,
        strict: bool,
        item: &str,
    ) -> PyResult<Conversation> {
        let time = |s: f64, i: usize| {
            Time::from_secs_f64(s).ok_or_else(|| {
                OvertalkError::new_err(format!(
                    "{item} {i}: time {s:?} is not a finite number of seconds in range"
                ))
            })
        };
        // A label with control characters is shown as the readers show it (`format::shown_label`:
        // `A\0` is `A\u{fffd}`), a repair (refused under `strict`).
        let mut renamed: BTreeMap<String, String> = BTreeMap::new();
        let mut shown = |name: String| -> String {
            match format::shown_label(&name) {
                Some(s) => renamed.entry(name).or_insert(s).clone(),
                None => name,
            }
        };
        let declared: Vec<String> = speakers.into_iter().flatten().map(&mut shown).collect();
        let segments: Vec<PySegment> =
            segments.into_iter().map(|(a, b, s, t)| (a, b, shown(s), t)).collect();
        let mut warnings = Vec::new();
        for (name, to) in &renamed {
            let what = format!(
                "{recording_id}: speaker {name:?} holds control characters (a line break, a tab, \
                 NUL, an escape)"
            );
            if strict {
                return Err(OvertalkError::new_err(format!(
                    "{what}; strict=True refuses what is otherwise read as {to:?}"
                )));
            }
            warnings.push(
                Warning::new(WarningKind::Repaired, format!("{what}; read as {to:?}")).to_string(),
            );
        }
        if segments.is_empty() {
            // As the readers note an input without speech.
            let note = format!("{recording_id}: no segments: {}", format::EMPTY_INPUT);
            warnings.push(Warning::new(WarningKind::Note, note).to_string());
        }
        let mut b = TranscriptBuilder::new();
        for s in &declared {
            b.speaker(s);
        }
        b.reserve(segments.len());
        // The first segment that starts before 0, and how many do.
        let mut negative: Option<String> = None;
        let mut negatives = 0usize;
        for (i, (start, end, speaker, text)) in segments.into_iter().enumerate() {
            let (t0, t1) = (time(start, i)?, time(end, i)?);
            let clipped = t0.micros() < 0;
            if clipped {
                // The readers' rule (`ReadContext::segment`): clipped to 0, a repair.
                let what = format!("{item} {i} ({speaker:?}, {t0}–{t1} s): negative start {t0}");
                if strict {
                    return Err(OvertalkError::new_err(format!(
                        "{what}; strict=True refuses what is otherwise clipped to 0"
                    )));
                }
                negatives += 1;
                negative.get_or_insert(what);
            }
            let seg = Segment::new(t0.max(Time::ZERO), t1).ok_or_else(|| {
                let once = if clipped { " once its negative start is clipped to 0" } else { "" };
                OvertalkError::new_err(format!(
                    "{item} {i} ({speaker}, {start}–{end} s) is empty or reversed{once}"
                ))
            })?;
            b.add(seg, &speaker, text.map(Content::text));
        }
        if let Some((start, end)) = extent {
            b.extent(Segment::new(time(start, 0)?, time(end, 0)?));
        }
        let transcript = b.build();
        if let Some(what) = negative {
            let more = match negatives - 1 {
                0 => String::new(),
                n => format!("; and {n} more segment(s) starting before 0, clipped likewise"),
            };
            let message = format!("{recording_id}: {what} clipped to 0{more}");
            warnings.push(Warning::new(WarningKind::Repaired, message).to_string());
        }
        warnings.extend(
            format::self_overlap_warnings(&recording_id, &transcript)
                .iter()
                .map(ToString::to_string),
        );
        warn(py, warnings)?;
        Ok(Conversation::new(recording_id, transcript, None))
    }

    fn __len__(&self) -> usize {
        self.transcript.annotation().len()
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let single = overtalk::Corpus::single(&self.id, self.transcript.clone());
        let json = py.detach(|| to_lossless_json(&single))?;
        let args = (self.id.clone(), json, self.origin.pickled()).into_pyobject(py)?;
        Ok((reducer(py, "_conversation_from_json")?, args))
    }

    fn __repr__(&self) -> String {
        format!(
            "<overtalk.Conversation {:?}: {} speakers, {} segments>",
            self.id,
            self.transcript.annotation().speakers().len(),
            self.transcript.annotation().len()
        )
    }
}

/// `name` as a conversation holds it: a label with control characters as the readers show it
/// (`A\0` is `A\u{fffd}`, a line break a space), any other label unchanged. It lets the interop
/// layer find the segment a repaired label became.
#[pyfunction]
fn _shown_label(name: &str) -> String {
    format::shown_label(name).unwrap_or_else(|| name.to_owned())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_shown_label, m)?)?;
    m.add_class::<Corpus>()?;
    m.add_class::<Conversation>()?;
    m.add_function(wrap_pyfunction!(read_paths, m)?)?;
    m.add_function(wrap_pyfunction!(read_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(format_for_name, m)?)?;
    m.add_function(wrap_pyfunction!(output_format_for_name, m)?)?;
    m.add_function(wrap_pyfunction!(write_file, m)?)?;
    m.add_function(wrap_pyfunction!(_corpus_from_json, m)?)?;
    m.add_function(wrap_pyfunction!(_conversation_from_json, m)?)?;
    Ok(())
}

/// How many ids a [`Corpus`] lookup that fails lists before `… and N more`.
const IDS_LISTED: usize = 10;

/// The message of the `KeyError` for `id`, which names no recording of `corpus`: the ids it
/// does hold (the first [`IDS_LISTED`]), so that a typo or a file name given for its id shows.
fn missing_id(corpus: &overtalk::Corpus, id: &str) -> String {
    let ids: Vec<&str> = corpus.ids().collect();
    if ids.is_empty() {
        return format!("no recording {id:?}: the corpus is empty");
    }
    let mut listed: Vec<String> = ids.iter().take(IDS_LISTED).map(|i| format!("{i:?}")).collect();
    if ids.len() > IDS_LISTED {
        listed.push(format!("… and {} more", ids.len() - IDS_LISTED));
    }
    format!("no recording {id:?} in the corpus (its ids: {})", listed.join(", "))
}
