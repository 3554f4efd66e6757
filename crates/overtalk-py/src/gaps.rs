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
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyTuple};
use serde_json::{json, Value};

use crate::analysis::{PyColumn, PyParams};
use crate::columns::{self, Nested};
use crate::corpus::{Conversation, Corpus};
use crate::{parallel, OvertalkError};

/// The intervals of one conversation, its speakers named by index.
#[pyclass(module = "overtalk._native", frozen)]
pub(crate) struct Intervals {
    recording_id: String,
    speakers: Vec<String>,
    items: Vec<HeInterval>,
}

/// One interval as a row: class, start and end (ms), the speakers before and after.
type Row<'a> = (&'static str, i64, i64, Option<&'a str>, Option<&'a str>);

/// One interval as pickled: class, start and end (ms), the speakers' indices before and after.
type Pickled<K> = (K, i64, i64, Option<usize>, Option<usize>);

impl Intervals {
    fn name(&self, i: Option<usize>) -> Option<&str> {
        i.and_then(|i| self.speakers.get(i)).map(String::as_str)
    }

    fn row_of(&self, h: &HeInterval) -> Row<'_> {
        (h.kind.name(), h.start, h.end, self.name(h.prev), self.name(h.next))
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

    /// The number of intervals of each class, every class named (zero included), in report
    /// order.
    fn counts(&self) -> Vec<(&'static str, usize)> {
        let mut n = [0usize; HeKind::ALL.len()];
        for h in &self.items {
            if let Some(i) = HeKind::ALL.iter().position(|&k| k == h.kind) {
                n[i] += 1;
            }
        }
        HeKind::ALL.iter().zip(n).map(|(k, n)| (k.name(), n)).collect()
    }

    /// Interval `index` (negative from the end) as a row.
    fn row(&self, index: isize) -> PyResult<Row<'_>> {
        let n = self.items.len() as isize;
        let i = if index < 0 { index + n } else { index };
        if !(0..n).contains(&i) {
            return Err(pyo3::exceptions::PyIndexError::new_err("interval index out of range"));
        }
        Ok(self.row_of(&self.items[i as usize]))
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
        let rows: Vec<Pickled<&str>> =
            self.items.iter().map(|h| (h.kind.name(), h.start, h.end, h.prev, h.next)).collect();
        let f = py.import("overtalk._native")?.getattr("_intervals_from_rows")?;
        Ok((f, (self.recording_id.clone(), self.speakers.clone(), rows).into_pyobject(py)?))
    }

    fn __repr__(&self) -> String {
        format!("<overtalk.Intervals {:?}: {} intervals>", self.recording_id, self.items.len())
    }
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
    m.add_function(wrap_pyfunction!(gaps_and_overlaps_many, m)?)?;
    m.add_function(wrap_pyfunction!(gaps_and_overlaps_corpus, m)?)?;
    m.add_function(wrap_pyfunction!(_intervals_from_rows, m)?)?;
    Ok(())
}
