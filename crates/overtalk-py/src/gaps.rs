//! The acoustic Heldner & Edlund intervals of a conversation (gaps, pauses, overlaps between
//! and within speakers, NGNO events, unbounded runs) as one compact object, [`Intervals`]:
//! the intervals stay in Rust, and Python asks for what it needs — the counts per class, the
//! columns as Arrow buffers, or the rows as tuples — instead of one Python object per interval
//! made on every call.
//!
//! ```text
//! A  ██████████···········██████        kind             start_ms end_ms before after
//! B          ████████████          ─►   overlap_between       800   1000 A      B
//!    0       800 1000    2000 2100      gap                  2000   2100 B      A
//! ```

use std::sync::{Mutex, MutexGuard};

use overtalk::analysis::intervals::{HeInterval, HeKind, Layer};
use overtalk::analysis::{dyad, Millis, Params, SpeakerIndex};
use overtalk::SpeakerId;
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PySlice, PyString, PyTuple, PyType,
};
use pyo3::{intern, Borrowed};
use serde_json::{json, Value};

use crate::analysis::{PyColumn, PyParams};
use crate::columns::{self, FieldType, Nested};
use crate::corpus::{Conversation, Corpus};
use crate::{parallel, OvertalkError};

/// The intervals of one conversation, its speakers named by index. This is the package's
/// `overtalk.Intervals` itself (no Python wrapper around it): a call per conversation in a loop
/// costs one object, and `counts()` one dict.
#[pyclass(module = "overtalk", frozen)]
pub(crate) struct Intervals {
    names: Names,
    items: Vec<HeInterval>,
    /// Overlap is not measurable in the conversation (speakers found one per frame, or ends
    /// estimated): `counts()` gives `None` for the overlap classes, as the JSON gives `null`.
    overlap_unknown: bool,
}

/// Refuses an untimed transcript (utterances in order, no times), as `analyze` does: its
/// intervals would all be zero counts of nothing measured.
fn timed<'a>(id: &str, t: &'a overtalk::Transcript) -> PyResult<&'a overtalk::Transcript> {
    if t.is_untimed() {
        Err(crate::analysis::untimed(id, t))
    } else {
        Ok(t)
    }
}

/// Whether the overlap of a conversation cannot be measured: its detection found the speakers
/// one per frame, or its ends were estimated (start times only).
fn overlap_unknown(c: &Conversation) -> bool {
    c.origin.overlap_not_measurable || c.transcript.estimated_ends() > 0
}

/// Where the recording id and the speaker names of an [`Intervals`] come from: the conversation
/// the intervals were found in, shared (a call costs one reference to it, not a copy of the id
/// and of every name), or a copy of their own (a recording of a corpus, unpickled intervals).
/// Either way the names are those of the speakers the analysis kept, which the intervals'
/// `prev` and `next` index ([`dyad::he_acoustic_with_speakers`]) — not the conversation's
/// speaker table, which may hold ignored, silent or merely declared speakers too.
enum Names {
    /// The conversation's own id, and the kept speakers' ids in its speaker table.
    Shared(Py<Conversation>, Vec<SpeakerId>),
    /// A copy.
    Owned { recording_id: String, speakers: Vec<String> },
}

impl Names {
    fn recording_id(&self) -> &str {
        match self {
            Names::Shared(c, _) => &c.get().id,
            Names::Owned { recording_id, .. } => recording_id,
        }
    }

    /// The name of speaker `i` (`None` past the last).
    fn speaker(&self, i: SpeakerIndex) -> Option<&str> {
        match self {
            Names::Shared(c, kept) => {
                let id = *kept.get(i.index())?;
                Some(c.get().transcript.annotation().speaker_name(id))
            }
            Names::Owned { speakers, .. } => speakers.get(i.index()).map(String::as_str),
        }
    }

    fn speakers(&self) -> Vec<String> {
        match self {
            Names::Shared(c, kept) => {
                let ann = c.get().transcript.annotation();
                kept.iter().map(|&id| ann.speaker_name(id).to_owned()).collect()
            }
            Names::Owned { speakers, .. } => speakers.clone(),
        }
    }
}

/// One interval as a row: class, start and end (ms), the speakers before and after.
type Row<'a> = (&'static str, i64, i64, Option<&'a str>, Option<&'a str>);

/// One interval as pickled: class, start and end (ms), the speakers' indices before and after.
type Pickled<K> = (K, i64, i64, Option<usize>, Option<usize>);

/// The class names as interned Python strings, in report order (`HeKind::ALL`): the keys of
/// every counts dict, made once per process rather than once per call.
static KIND_NAMES: PyOnceLock<[Py<PyString>; HeKind::ALL.len()]> = PyOnceLock::new();

/// `overtalk.Interval`, the named tuple an interval is given as.
static INTERVAL_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();

// `HeKind::ALL` lists the classes in declaration order, so a class is its own index there.
const _: () = {
    let mut i = 0;
    while i < HeKind::ALL.len() {
        assert!(HeKind::ALL[i] as usize == i);
        i += 1;
    }
};

/// The number of intervals of each class, indexed as `HeKind::ALL`.
fn count(items: &[HeInterval]) -> [usize; HeKind::ALL.len()] {
    // Four tallies, one per position mod 4: runs of the same class (pauses in a monologue) then
    // add to four counters in turn instead of waiting on one counter's previous increment.
    let mut lanes = [[0usize; HeKind::ALL.len()]; 4];
    let mut quads = items.chunks_exact(4);
    for q in &mut quads {
        for (lane, h) in lanes.iter_mut().zip(q) {
            lane[h.kind as usize] += 1;
        }
    }
    for h in quads.remainder() {
        lanes[0][h.kind as usize] += 1;
    }
    std::array::from_fn(|k| lanes.iter().map(|lane| lane[k]).sum())
}

/// Every class name with a count of zero, in report order: what a counts dict is copied from.
static ZERO_COUNTS: PyOnceLock<Py<PyDict>> = PyOnceLock::new();

/// `counts` as a dict keyed by class name, every class present, in report order. The dict is a
/// copy of [`ZERO_COUNTS`] (its table copied whole, keys and their hashes included) with the
/// classes that occur set in place: no insertion grows it, where a new dict filled key by key
/// is resized on its sixth key.
fn counts_dict<'py>(
    py: Python<'py>,
    items: &[HeInterval],
    overlap_unknown: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let names =
        KIND_NAMES.get_or_init(py, || HeKind::ALL.map(|k| PyString::intern(py, k.name()).unbind()));
    let zero = match ZERO_COUNTS.get(py) {
        Some(d) => d,
        None => {
            let d = PyDict::new(py);
            for name in names {
                d.set_item(name.bind(py), 0)?;
            }
            ZERO_COUNTS.get_or_init(py, || d.unbind())
        }
    };
    let dict = zero.bind(py).copy()?;
    for (name, n) in names.iter().zip(count(items)) {
        if n != 0 {
            dict.set_item(name.bind(py), n)?;
        }
    }
    if overlap_unknown {
        for (name, kind) in names.iter().zip(HeKind::ALL) {
            if kind.is_overlap_dependent() {
                dict.set_item(name.bind(py), py.None())?;
            }
        }
    }
    Ok(dict)
}

impl Intervals {
    fn name(&self, i: Option<SpeakerIndex>) -> Option<&str> {
        i.and_then(|i| self.names.speaker(i))
    }

    fn row_of(&self, h: &HeInterval) -> Row<'_> {
        (h.kind.name(), h.start.get(), h.end.get(), self.name(h.prev), self.name(h.next))
    }

    /// Interval `i` as an `overtalk.Interval`.
    fn interval<'py>(&self, py: Python<'py>, h: &HeInterval) -> PyResult<Bound<'py, PyAny>> {
        INTERVAL_TYPE.import(py, "overtalk", "Interval")?.call1(self.row_of(h))
    }

    /// Every interval as an `overtalk.Interval`, in a list.
    fn interval_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let items =
            self.items.iter().map(|h| self.interval(py, h)).collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, items)
    }

    /// The position of `index` (negative from the end) among the intervals.
    fn position(&self, index: isize) -> PyResult<usize> {
        let n = self.items.len() as isize;
        let i = if index < 0 { index + n } else { index };
        if !(0..n).contains(&i) {
            return Err(PyIndexError::new_err("interval index out of range"));
        }
        Ok(i as usize)
    }
}

#[pymethods]
impl Intervals {
    /// The recording id.
    #[getter]
    fn recording_id(&self) -> &str {
        self.names.recording_id()
    }

    /// The conversation's speakers (`before` and `after` name them).
    #[getter]
    fn speakers(&self) -> Vec<String> {
        self.names.speakers()
    }

    fn __len__(&self) -> usize {
        self.items.len()
    }

    /// The number of intervals of each class (`pause`, `gap`, `overlap_within`,
    /// `overlap_between`, `ngno`, `unbounded_silence`, `unbounded_overlap`): a dict with every
    /// class named, zero included, in that order; the overlap classes are `None` when the
    /// conversation's overlap is not measurable.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        counts_dict(py, &self.items, self.overlap_unknown)
    }

    /// Interval `index` (negative from the end) as a plain tuple.
    fn row(&self, index: isize) -> PyResult<Row<'_>> {
        Ok(self.row_of(&self.items[self.position(index)?]))
    }

    /// Interval `index` (negative from the end) as an `overtalk.Interval`, or the intervals of
    /// a slice as a list of them.
    fn __getitem__<'py>(
        &self,
        py: Python<'py>,
        index: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(slice) = index.cast::<PySlice>() {
            let ix = slice.indices(self.items.len() as isize)?;
            let mut out = Vec::with_capacity(ix.slicelength);
            let mut i = ix.start;
            for _ in 0..ix.slicelength {
                out.push(self.interval(py, &self.items[i as usize])?);
                i += ix.step;
            }
            return Ok(PyList::new(py, out)?.into_any());
        }
        let Ok(index) = index.extract::<isize>() else {
            if index.is_instance_of::<PyInt>() {
                // An integer too large for any sequence: out of range, as for a list.
                return Err(PyIndexError::new_err("interval index out of range"));
            }
            return Err(PyTypeError::new_err(format!(
                "interval indices must be integers or slices, not {}",
                index.get_type().name()?
            )));
        };
        self.interval(py, &self.items[self.position(index)?])
    }

    /// The intervals as `overtalk.Interval`s, in time order.
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.interval_list(py)?.try_iter()?.into_any())
    }

    /// Equal to intervals of the same recording with the same rows (speakers by name), and
    /// to a list of the same `Interval`s.
    fn __richcmp__<'py>(
        &self,
        py: Python<'py>,
        other: &Bound<'py, PyAny>,
        op: CompareOp,
    ) -> PyResult<Bound<'py, PyAny>> {
        let equal = match (op, other.cast::<Intervals>()) {
            (CompareOp::Eq | CompareOp::Ne, Ok(o)) => {
                let o = o.get();
                self.names.recording_id() == o.names.recording_id()
                    && self.items.len() == o.items.len()
                    && self.items.iter().zip(&o.items).all(|(a, b)| self.row_of(a) == o.row_of(b))
            }
            (CompareOp::Eq | CompareOp::Ne, Err(_)) if other.is_instance_of::<PyList>() => {
                self.interval_list(py)?.eq(other)?
            }
            _ => return Ok(py.NotImplemented().into_bound(py)),
        };
        Ok(PyBool::new(py, equal == matches!(op, CompareOp::Eq)).to_owned().into_any())
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        (self.names.recording_id(), self.items.len()).hash(&mut h);
        h.finish()
    }

    /// The intervals as a `pyarrow.Table`: `kind`, `start_ms`, `end_ms`, `before`, `after`
    /// (the speakers; null where there is none).
    fn to_arrow<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("overtalk")?.getattr("_arrow_table")?.call1((self._columns(py),))
    }

    /// `to_arrow()` as a `pandas.DataFrame`.
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        self.to_arrow(py)?.call_method0("to_pandas")
    }

    /// Every interval as a row, in time order.
    fn rows(&self) -> Vec<Row<'_>> {
        self.items.iter().map(|h| self.row_of(h)).collect()
    }

    /// The columns `kind`, `start_ms`, `end_ms`, `before`, `after` as Arrow buffers (as
    /// `Analysis._columns`).
    fn _columns<'py>(&self, py: Python<'py>) -> Vec<PyColumn<'py>> {
        let declared = [
            ("kind", FieldType::String),
            ("start_ms", FieldType::Integer),
            ("end_ms", FieldType::Integer),
            ("before", FieldType::String),
            ("after", FieldType::String),
        ]
        .map(|(name, ty)| (name.to_owned(), ty));
        let rows: Vec<Value> = self
            .items
            .iter()
            .map(|h| {
                let (kind, start, end, before, after) = self.row_of(h);
                json!({"kind": kind, "start_ms": start, "end_ms": end, "before": before, "after": after})
            })
            .collect();
        let cols = py.detach(|| columns::columns(&rows, &declared, Nested::Json));
        let bytes = |b: &[u8]| PyBytes::new(py, b);
        cols.into_iter()
            .map(|c| {
                let validity = c.validity.as_deref().map(bytes);
                let buffers = c.buffers.iter().map(|b| bytes(b)).collect();
                (c.name, c.kind, c.len, c.nulls, validity, buffers)
            })
            .collect()
    }

    fn __reduce__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let rows: Vec<Pickled<&str>> = self.items.iter().map(pickled_row).collect();
        let f = py.import("overtalk._native")?.getattr("_intervals_from_rows")?;
        let args = (self.names.recording_id(), self.names.speakers(), rows, self.overlap_unknown);
        Ok((f, args.into_pyobject(py)?))
    }

    fn __repr__(&self) -> String {
        format!(
            "<overtalk.Intervals {:?}: {} intervals>",
            self.names.recording_id(),
            self.items.len()
        )
    }
}

/// One interval as a pickled row (times in ms, speakers as indices into the speaker list).
fn pickled_row(h: &HeInterval) -> Pickled<&'static str> {
    let (prev, next) = (h.prev.map(SpeakerIndex::get), h.next.map(SpeakerIndex::get));
    (h.kind.name(), h.start.get(), h.end.get(), prev, next)
}

/// Rebuilds pickled intervals.
#[pyfunction]
#[pyo3(signature = (recording_id, speakers, rows, overlap_unknown=false))]
fn _intervals_from_rows(
    recording_id: String,
    speakers: Vec<String>,
    rows: Vec<Pickled<String>>,
    overlap_unknown: bool,
) -> PyResult<Intervals> {
    let items = rows
        .into_iter()
        .map(|(kind, start, end, prev, next)| {
            let kind = kind.parse::<HeKind>().map_err(|e| OvertalkError::new_err(e.to_string()))?;
            let (start, end) = (Millis::new(start), Millis::new(end));
            let (prev, next) = (prev.map(SpeakerIndex::new), next.map(SpeakerIndex::new));
            Ok(HeInterval { layer: Layer::Acoustic, kind, start, end, prev, next })
        })
        .collect::<PyResult<_>>()?;
    Ok(Intervals { names: Names::Owned { recording_id, speakers }, items, overlap_unknown })
}

/// Below this many tracks a conversation's sweep runs with the GIL held: giving the GIL up and
/// taking it back costs more than the sweep of a short conversation (two speakers: about 15 ns
/// a track; the general stages for more, about ten times that, so at most a few hundred µs).
const DETACH_TRACKS: usize = 2048;

/// `sweep` (`dyad::he_acoustic` or `he_acoustic_with_speakers`: one sweep for two speakers, the
/// general stages for more) of `c`'s transcript, with the GIL given up for the long
/// conversations only.
fn sweep_of<T: Send>(
    py: Python<'_>,
    c: &Conversation,
    sweep: impl FnOnce(&overtalk::Transcript) -> T + Send,
) -> T {
    if c.transcript.annotation().len() < DETACH_TRACKS {
        sweep(&c.transcript)
    } else {
        py.detach(|| sweep(&c.transcript))
    }
}

/// The intervals of one conversation, their names its own (a copy).
fn owned_intervals_of(
    id: &str,
    t: &overtalk::Transcript,
    params: &Params,
    overlap_unknown: bool,
) -> Intervals {
    let (items, kept) = dyad::he_acoustic_with_speakers(t, params);
    let speakers = kept.iter().map(|&k| t.annotation().speaker_name(k).to_owned()).collect();
    Intervals {
        names: Names::Owned { recording_id: id.to_owned(), speakers },
        items,
        overlap_unknown,
    }
}

/// `overtalk.Conversation`, the class the package's functions take.
static CONVERSATION_TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `overtalk._conversation`: anything else a function takes (a corpus of one recording, a path,
/// text, a pyannote annotation) as a `Conversation`, or the error naming the function.
static CONVERSATION_OF: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The native conversation of `x`, as the package's functions take it: an
/// `overtalk.Conversation` directly (its `_native`), anything else through
/// `overtalk._conversation` (`what` names the function in its errors).
fn native_conversation<'py>(
    x: &Bound<'py, PyAny>,
    what: &str,
) -> PyResult<Bound<'py, Conversation>> {
    let py = x.py();
    let native = intern!(py, "_native");
    if x.get_type().is(CONVERSATION_TYPE.import(py, "overtalk", "Conversation")?) {
        return Ok(x.getattr(native)?.cast_into::<Conversation>()?);
    }
    let conv = CONVERSATION_OF.import(py, "overtalk", "_conversation")?.call1((x, what))?;
    Ok(conv.getattr(native)?.cast_into::<Conversation>()?)
}

/// The `preset` argument: the one given, or the default (`he2010`). Given as `None` it goes to
/// the parameters' resolution as it is (which refuses it), as any other value does.
enum Preset<'py> {
    Default,
    Given(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Preset<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Preset::Given(obj.to_owned()))
    }
}

/// A keyword's value as the resolved parameters are cached under it: only the exact built-in
/// types whose values cannot change after the call (a list could be changed in place after
/// being cached). The variant is the type, so `True`, `1` and `1.0` are three keys, as in the
/// package's own cache (a parameter may take one and refuse another).
#[derive(PartialEq)]
enum KeyValue {
    None,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
}

impl KeyValue {
    /// `v` as a key, when it can be one.
    fn of(v: &Bound<'_, PyAny>) -> Option<KeyValue> {
        if v.is_none() {
            Some(KeyValue::None)
        } else if v.is_exact_instance_of::<PyBool>() {
            Some(KeyValue::Bool(v.is_truthy().ok()?))
        } else if v.is_exact_instance_of::<PyInt>() {
            v.extract().ok().map(KeyValue::Int)
        } else if v.is_exact_instance_of::<PyFloat>() {
            v.extract().ok().map(KeyValue::Float)
        } else if v.is_exact_instance_of::<PyString>() {
            v.cast::<PyString>().ok()?.to_str().ok().map(|s| KeyValue::Str(s.to_owned()))
        } else {
            None
        }
    }

    /// Whether `v` is this key (same type, equal value), without making one.
    fn matches(&self, v: &Bound<'_, PyAny>) -> bool {
        match self {
            KeyValue::None => v.is_none(),
            KeyValue::Bool(b) => {
                v.is_exact_instance_of::<PyBool>() && v.is_truthy().ok() == Some(*b)
            }
            KeyValue::Int(i) => {
                v.is_exact_instance_of::<PyInt>() && v.extract::<i64>().ok() == Some(*i)
            }
            KeyValue::Float(f) => {
                v.is_exact_instance_of::<PyFloat>() && v.extract::<f64>().ok() == Some(*f)
            }
            KeyValue::Str(s) => {
                v.is_exact_instance_of::<PyString>()
                    && v.cast::<PyString>().is_ok_and(|p| p.to_str().is_ok_and(|p| p == s))
            }
        }
    }
}

/// Resolved parameters, by preset and keywords (in the order given).
struct CachedParams {
    preset: String,
    keywords: Vec<(String, KeyValue)>,
    params: Py<PyParams>,
}

/// The parameters resolved by the native calls that take `preset` and `**params` themselves,
/// in front of the package's `_params`: a loop of calls with the same keywords resolves them
/// once and then finds them here without building a key. Small (a loop uses one or two
/// entries), cleared when full. Only resolved parameters are kept, never a result.
static PARAMS_CACHE: Mutex<Vec<CachedParams>> = Mutex::new(Vec::new());
const PARAMS_CACHE_SIZE: usize = 16;

/// `overtalk._params`, which resolves (and caches) the parameters of any preset and keywords.
static RESOLVE_PARAMS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

fn params_cache() -> MutexGuard<'static, Vec<CachedParams>> {
    // The lock is held only with the GIL and never across Python code, so no holder panics
    // while holding it; were it poisoned, the entries themselves are still whole.
    PARAMS_CACHE.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// The cached parameters of `preset` with exactly `keywords` (names, types and values, in order).
fn cached_params(
    py: Python<'_>,
    preset: &str,
    keywords: Option<&Bound<'_, PyDict>>,
) -> Option<Py<PyParams>> {
    let n = keywords.map_or(0, |d| d.len());
    let cache = params_cache();
    'entries: for e in cache.iter() {
        if e.keywords.len() != n || e.preset != preset {
            continue;
        }
        if let Some(d) = keywords {
            for ((name, value), (k, v)) in e.keywords.iter().zip(d.iter()) {
                let same_name =
                    k.cast::<PyString>().is_ok_and(|k| k.to_str().is_ok_and(|k| k == name));
                if !(same_name && value.matches(&v)) {
                    continue 'entries;
                }
            }
        }
        return Some(e.params.clone_ref(py));
    }
    None
}

/// The resolved parameters of `preset` with the overrides `keywords`, as the package's
/// `_params(preset, keywords)` gives them (its errors included): from [`PARAMS_CACHE`] when
/// there, else from `_params`, and kept when the preset and keywords can be a key.
fn resolved_params<'py>(
    py: Python<'py>,
    preset: Preset<'py>,
    keywords: Option<&Bound<'py, PyDict>>,
) -> PyResult<Py<PyParams>> {
    let preset = match preset {
        Preset::Default => intern!(py, "he2010").clone().into_any(),
        Preset::Given(p) => p,
    };
    let name = preset
        .is_exact_instance_of::<PyString>()
        .then(|| preset.cast::<PyString>().ok()?.to_str().ok().map(str::to_owned))
        .flatten();
    if let Some(name) = &name {
        if let Some(hit) = cached_params(py, name, keywords) {
            return Ok(hit);
        }
    }
    let given = match keywords {
        Some(d) => d.clone(),
        None => PyDict::new(py),
    };
    let resolve = RESOLVE_PARAMS.import(py, "overtalk", "_params")?;
    let params = resolve.call1((&preset, &given))?.cast_into::<PyParams>()?.unbind();
    let key = given
        .iter()
        .map(|(k, v)| {
            let k = k.cast::<PyString>().ok()?.to_str().ok()?.to_owned();
            Some((k, KeyValue::of(&v)?))
        })
        .collect::<Option<Vec<_>>>();
    if let (Some(preset), Some(keywords)) = (name, key) {
        let mut cache = params_cache();
        if cache.len() >= PARAMS_CACHE_SIZE {
            cache.clear();
        }
        cache.push(CachedParams { preset, keywords, params: params.clone_ref(py) });
    }
    Ok(params)
}

/// The acoustic gaps, pauses and overlaps (between and within speakers), NGNO events and
/// unbounded runs of a conversation, as :func:`analyze` finds them in its acoustic layer
/// (Heldner & Edlund 2010; pympi's ``get_gaps_and_overlaps2`` classes). ``preset`` defaults
/// to ``he2010``; ``params`` override it (``latch_tolerance=0``…). Two speakers take one
/// sweep; the result is an :class:`Intervals`, a sequence of :class:`Interval`.
///
/// A native function (no Python frame): it takes the ``Conversation`` itself and looks the
/// resolved parameters up by preset and keywords; the result shares the conversation's id and
/// speaker names.
#[pyfunction]
#[pyo3(
    signature = (conversation, preset = Preset::Default, **params),
    text_signature = "(conversation, preset='he2010', **params)"
)]
fn gaps_and_overlaps<'py>(
    py: Python<'py>,
    conversation: &Bound<'py, PyAny>,
    preset: Preset<'py>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Intervals> {
    let conv = native_conversation(conversation, "gaps_and_overlaps")?;
    timed(&conv.get().id, &conv.get().transcript)?;
    let p = resolved_params(py, preset, params)?;
    let p = &p.get().inner;
    let (items, kept) = sweep_of(py, conv.get(), |t| dyad::he_acoustic_with_speakers(t, p));
    let overlap_unknown = overlap_unknown(conv.get());
    Ok(Intervals { names: Names::Shared(conv.unbind(), kept), items, overlap_unknown })
}

/// ``gaps_and_overlaps(conversation, preset, **params).counts()`` in one call that keeps no
/// intervals: the number of each class (``pause``, ``gap``, ``overlap_within``,
/// ``overlap_between``, ``ngno``, ``unbounded_silence``, ``unbounded_overlap``), every class
/// named, zero included, in that order.
#[pyfunction]
#[pyo3(
    signature = (conversation, preset = Preset::Default, **params),
    text_signature = "(conversation, preset='he2010', **params)"
)]
fn gaps_and_overlaps_counts<'py>(
    py: Python<'py>,
    conversation: &Bound<'py, PyAny>,
    preset: Preset<'py>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyDict>> {
    let conv = native_conversation(conversation, "gaps_and_overlaps_counts")?;
    timed(&conv.get().id, &conv.get().transcript)?;
    let p = resolved_params(py, preset, params)?;
    let p = &p.get().inner;
    // Only the counts: the sweep alone, without the speakers that would name the intervals.
    counts_dict(
        py,
        &sweep_of(py, conv.get(), |t| dyad::he_acoustic(t, p)),
        overlap_unknown(conv.get()),
    )
}

/// The acoustic H&E intervals of a native `conversation` under parameters resolved before
/// (`_native.params`): `gaps_and_overlaps` without the lookups, for measuring them.
#[pyfunction]
fn gaps_and_overlaps_with(
    py: Python<'_>,
    conversation: Bound<'_, Conversation>,
    params: PyRef<'_, PyParams>,
) -> PyResult<Intervals> {
    timed(&conversation.get().id, &conversation.get().transcript)?;
    let p = &params.inner;
    let (items, kept) = sweep_of(py, conversation.get(), |t| dyad::he_acoustic_with_speakers(t, p));
    let overlap_unknown = overlap_unknown(conversation.get());
    Ok(Intervals { names: Names::Shared(conversation.unbind(), kept), items, overlap_unknown })
}

/// The intervals of each conversation, in the order given, on `threads` worker threads.
#[pyfunction]
#[pyo3(signature = (conversations, params, threads=None))]
fn gaps_and_overlaps_many(
    py: Python<'_>,
    conversations: Vec<Bound<'_, Conversation>>,
    params: PyRef<'_, PyParams>,
    threads: Option<usize>,
) -> PyResult<Vec<Intervals>> {
    let threads = parallel::check_threads(threads)?;
    let convs: Vec<&Conversation> = conversations.iter().map(Bound::get).collect();
    for c in &convs {
        timed(&c.id, &c.transcript)?;
    }
    let p = &params.inner;
    let items = py.detach(|| {
        parallel::map(&convs, threads, |c| dyad::he_acoustic_with_speakers(&c.transcript, p))
    })?;
    Ok(conversations
        .into_iter()
        .zip(items)
        .map(|(c, (items, kept))| {
            let overlap_unknown = overlap_unknown(c.get());
            Intervals { names: Names::Shared(c.unbind(), kept), items, overlap_unknown }
        })
        .collect())
}

/// The intervals of every recording of `corpus`, in id order, on `threads` worker threads.
#[pyfunction]
#[pyo3(signature = (corpus, params, threads=None))]
fn gaps_and_overlaps_corpus(
    py: Python<'_>,
    corpus: PyRef<'_, Corpus>,
    params: PyRef<'_, PyParams>,
    threads: Option<usize>,
) -> PyResult<Vec<Intervals>> {
    let threads = parallel::check_threads(threads)?;
    let recordings: Vec<_> = corpus.inner.iter().collect();
    for (id, t) in &recordings {
        timed(id, t)?;
    }
    let (p, origins) = (&params.inner, &corpus.origins);
    py.detach(|| {
        parallel::map(&recordings, threads, |(id, t)| {
            let detected = origins.get(*id).is_some_and(|o| o.overlap_not_measurable);
            owned_intervals_of(id, t, p, detected || t.estimated_ends() > 0)
        })
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Intervals>()?;
    m.add_function(wrap_pyfunction!(gaps_and_overlaps, m)?)?;
    m.add_function(wrap_pyfunction!(gaps_and_overlaps_with, m)?)?;
    m.add_function(wrap_pyfunction!(gaps_and_overlaps_counts, m)?)?;
    m.add_function(wrap_pyfunction!(gaps_and_overlaps_many, m)?)?;
    m.add_function(wrap_pyfunction!(gaps_and_overlaps_corpus, m)?)?;
    m.add_function(wrap_pyfunction!(_intervals_from_rows, m)?)?;
    Ok(())
}
