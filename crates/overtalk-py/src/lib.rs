//! # overtalk-py
//!
//! The extension module `overtalk._native` under the Python package `overtalk`
//! (`python/overtalk`). The Rust side holds the values (corpora, conversations, analyses) and
//! calls the libraries; the Python side adds the interop with pyannote, pympi and pandas and
//! the corpus helpers for Ray, Dask and Spark.
//!
//! ```text
//! corpus.rs    read / write, Corpus and Conversation      overtalk::format
//! analysis.rs  analyze, Analysis, the corpus row          overtalk::analysis, overtalk::output
//! columns.rs   event lists as Arrow buffers               (pyarrow wraps them)
//! gaps.rs      H&E intervals, one compact object each     overtalk::analysis::dyad
//! parallel.rs  the worker threads of the batch calls      rayon
//! scoring.rs   score                                      overtalk::score, overtalk::output::score
//! detect.rs    who spoke when in recordings or samples    overtalk_audio::pipeline
//! diarize.rs   the speakers of one mixed recording        overtalk_audio::diarize
//! ```
//!
//! Every value is immutable (`frozen`), pickles through its lossless JSON, and every call that
//! reads, analyses, scores or decodes runs with the GIL released.

use pyo3::prelude::*;

/// mimalloc for what the extension allocates (Python's objects keep Python's allocator), as
/// in the command line: the analysis of a corpus allocates and frees many small lists per
/// conversation.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod analysis;
mod columns;
mod corpus;
mod detect;
mod diarize;
mod gaps;
mod parallel;
mod scoring;

pyo3::create_exception!(
    _native,
    OvertalkError,
    pyo3::exceptions::PyValueError,
    "An input overtalk cannot read, or parameters it cannot use (the message names the file, line and column when there are any)."
);

pyo3::create_exception!(
    _native,
    OvertalkWarning,
    pyo3::exceptions::PyUserWarning,
    "What overtalk repaired, questioned or left out: what the command line prints as `overtalk: warning: …` (a `UserWarning`)."
);

/// A library error as the Python exception [`OvertalkError`], with its whole message.
pub(crate) fn to_py(e: overtalk::Error) -> PyErr {
    OvertalkError::new_err(e.to_string())
}

/// Gives each message to Python as an [`OvertalkWarning`] (through `overtalk._warn`, which
/// attributes it to the caller's line outside the package), as the command line prints them.
/// An error when the warnings filter turns warnings into errors.
pub(crate) fn warn(py: Python<'_>, messages: Vec<String>) -> PyResult<()> {
    if messages.is_empty() {
        return Ok(());
    }
    py.import("overtalk")?.getattr("_warn")?.call1((messages,))?;
    Ok(())
}

/// Any other error (JSON of our own values, I/O of an in-memory writer) as [`OvertalkError`].
pub(crate) fn other(what: &str, e: impl std::fmt::Display) -> PyErr {
    OvertalkError::new_err(format!("{what}: {e}"))
}

/// The module `overtalk._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("OvertalkError", m.py().get_type::<OvertalkError>())?;
    m.add("OvertalkWarning", m.py().get_type::<OvertalkWarning>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    corpus::register(m)?;
    analysis::register(m)?;
    scoring::register(m)?;
    detect::register(m)?;
    diarize::register(m)?;
    gaps::register(m)?;
    Ok(())
}
