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

use overtalk::analysis::dyad;
use overtalk::analysis::intervals::{HeInterval, HeKind, Layer};
use overtalk::analysis::{Millis, SpeakerIndex};
use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyList, PySlice, PyString, PyTuple, PyType};
use serde_json::{json, Value};

use crate::analysis::{PyColumn, PyParams};
use crate::columns::{self, Nested};
use crate::corpus::{Conversation, Corpus};
use crate::{parallel, OvertalkError};

/// The intervals of one conversation, its speakers named by index. This is the package's
/// `overtalk.Intervals` itself (no Python wrapper around it): a call per conversation in a loop
/// costs one object, and `counts()` one dict.
#[pyclass(module = "overtalk", frozen)]
pub(crate) struct Intervals {
    recording_id: String,
    speakers: Vec<String>,
    items: Vec<HeInterval>,
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
    let mut n = [0usize; HeKind::ALL.len()];
    for h in items {
        n[h.kind as usize] += 1;
    }
    n
}

/// `counts` as a dict keyed by class name, every class present, in report order.
fn counts_dict<'py>(py: Python<'py>, items: &[HeInterval]) -> PyResult<Bound<'py, PyDict>> {
    let names =
        KIND_NAMES.get_or_init(py, || HeKind::ALL.map(|k| PyString::intern(py, k.name()).unbind()));
    let dict = PyDict::new(py);
    for (name, n) in names.iter().zip(count(items)) {
        dict.set_item(name.bind(py), n)?;
    }
    Ok(dict)
}

impl Intervals {
    fn name(&self, i: Option<SpeakerIndex>) -> Option<&str> {
        i.and_then(|i| self.speakers.get(i.index())).map(String::as_str)
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
        &self.recording_id
    }

    /// The conversation's speakers (`before` and `after` name them).
    #[getter]
    fn speakers(&self) -> Vec<String> {
        self.speakers.clone()
    }

    fn __len__(&self) -> usize {
        self.items.len()
    }

    /// The number of intervals of each class (`pause`, `gap`, `overlap_within`,
    /// `overlap_between`, `ngno`, `unbounded_silence`, `unbounded_overlap`): a dict with every
    /// class named, zero included, in that order.
    fn counts<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        counts_dict(py, &self.items)
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
                self.recording_id == o.recording_id
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
        (self.recording_id.as_str(), self.items.len()).hash(&mut h);
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
        let order: Vec<String> =
            ["kind", "start_ms", "end_ms", "before", "after"].map(String::from).to_vec();
        let rows: Vec<Value> = self
            .items
            .iter()
            .map(|h| {
                let (kind, start, end, before, after) = self.row_of(h);
                json!({"kind": kind, "start_ms": start, "end_ms": end, "before": before, "after": after})
            })
            .collect();
        let cols = py.detach(|| columns::columns(&rows, &order, Nested::Json));
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
        Ok((f, (self.recording_id.clone(), self.speakers.clone(), rows).into_pyobject(py)?))
    }

    fn __repr__(&self) -> String {
        format!("<overtalk.Intervals {:?}: {} intervals>", self.recording_id, self.items.len())
    }
}

/// One interval as a pickled row (times in ms, speakers as indices into the speaker list).
fn pickled_row(h: &HeInterval) -> Pickled<&'static str> {
    let (prev, next) = (h.prev.map(SpeakerIndex::get), h.next.map(SpeakerIndex::get));
    (h.kind.name(), h.start.get(), h.end.get(), prev, next)
}

/// Rebuilds pickled intervals.
#[pyfunction]
fn _intervals_from_rows(
    recording_id: String,
    speakers: Vec<String>,
    rows: Vec<Pickled<String>>,
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
    Ok(Intervals { recording_id, speakers, items })
}

/// The intervals of one conversation (`dyad::he_acoustic`: one sweep for two speakers, the
/// general stages for more).
fn intervals_of(c: &Conversation, params: &overtalk::analysis::Params) -> Intervals {
    Intervals {
        recording_id: c.id.clone(),
        speakers: c.transcript.annotation().speakers().iter().map(|(_, n)| n.to_owned()).collect(),
        items: dyad::he_acoustic(&c.transcript, params),
    }
}

/// The acoustic H&E intervals of `conversation`, as `analyze` finds them in its acoustic
/// layer.
#[pyfunction]
fn gaps_and_overlaps(
    py: Python<'_>,
    conversation: PyRef<'_, Conversation>,
    params: PyRef<'_, PyParams>,
) -> Intervals {
    let (c, p) = (&*conversation, &params.inner);
    py.detach(|| intervals_of(c, p))
}

/// The number of acoustic H&E intervals of each class in `conversation` (as
/// `Intervals.counts()` of `gaps_and_overlaps`), without keeping the intervals.
#[pyfunction]
fn gaps_and_overlaps_counts<'py>(
    py: Python<'py>,
    conversation: PyRef<'py, Conversation>,
    params: PyRef<'py, PyParams>,
) -> PyResult<Bound<'py, PyDict>> {
    let (c, p) = (&*conversation, &params.inner);
    let items = py.detach(|| dyad::he_acoustic(&c.transcript, p));
    counts_dict(py, &items)
}

/// The intervals of each conversation, in the order given, on `threads` worker threads.
#[pyfunction]
#[pyo3(signature = (conversations, params, threads=None))]
fn gaps_and_overlaps_many(
    py: Python<'_>,
    conversations: Vec<PyRef<'_, Conversation>>,
    params: PyRef<'_, PyParams>,
    threads: Option<usize>,
) -> PyResult<Vec<Intervals>> {
    let threads = parallel::check_threads(threads)?;
    let convs: Vec<&Conversation> = conversations.iter().map(|c| &**c).collect();
    let p = &params.inner;
    py.detach(|| parallel::map(&convs, threads, |c| intervals_of(c, p)))
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
    let p = &params.inner;
    py.detach(|| {
        parallel::map(&recordings, threads, |(id, t)| Intervals {
            recording_id: (*id).to_owned(),
            speakers: t.annotation().speakers().iter().map(|(_, n)| n.to_owned()).collect(),
            items: dyad::he_acoustic(t, p),
        })
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Intervals>()?;
    m.add_function(wrap_pyfunction!(gaps_and_overlaps, m)?)?;
    m.add_function(wrap_pyfunction!(gaps_and_overlaps_counts, m)?)?;
    m.add_function(wrap_pyfunction!(gaps_and_overlaps_many, m)?)?;
    m.add_function(wrap_pyfunction!(gaps_and_overlaps_corpus, m)?)?;
    m.add_function(wrap_pyfunction!(_intervals_from_rows, m)?)?;
    Ok(())
}
