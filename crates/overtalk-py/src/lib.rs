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

// `overtalk.OvertalkFileNotFoundError`, defined by the package's `__init__` (a
// `FileNotFoundError` and an `OvertalkError` at once, which one base class cannot say). An error
// of it is made lazily: the class is looked up only when Python sees the error, with the GIL
// held, never where the error is made (in a section without the GIL, on a worker thread).
pyo3::import_exception!(overtalk, OvertalkFileNotFoundError);

/// A library error as the Python exception [`OvertalkError`], with its whole message (the
/// command line's flags in it said as this package's parameters: [`python_words`]); a file
/// that does not exist as `overtalk.OvertalkFileNotFoundError` ([`not_found`]). Needs no GIL:
/// both are made lazily, the Python object when the error reaches Python.
pub(crate) fn to_py(e: overtalk::Error) -> PyErr {
    match e.kind() {
        overtalk::ErrorKind::Io(io) if io.kind() == std::io::ErrorKind::NotFound => {
            match e.path() {
                Some(path) => not_found(&path.to_string_lossy()),
                // No path to name: the library's message, the filename unknown.
                None => PyErr::new::<OvertalkFileNotFoundError, _>((
                    ENOENT,
                    python_words(&e.to_string()),
                    None::<String>,
                )),
            }
        }
        _ => OvertalkError::new_err(python_words(&e.to_string())),
    }
}

/// `ENOENT`, the same number on every system Python runs on.
const ENOENT: i32 = 2;

/// `overtalk.OvertalkFileNotFoundError` for `path`, in the command line's words
/// (`PATH: no such file or directory`), made as `OSError(errno, message, filename)` is, so
/// that its `errno` is `ENOENT` and its `filename` the path. Needs no GIL.
pub(crate) fn not_found(path: &str) -> PyErr {
    PyErr::new::<OvertalkFileNotFoundError, _>((
        ENOENT,
        format!("{path}: no such file or directory"),
        path.to_owned(),
    ))
}

/// A message of the library in this package's words: the command-line flags its errors and
/// warnings tell the user to reach for, said as the Python parameters that do the same
/// (`--from` is `format=`, `--tiers` is `tiers=`, `--encoding` is `encoding=`…). Only the
/// phrases that name a flag are rewritten: a flag of another program quoted in a message
/// (WhisperX's `--diarize`) is left as it is.
pub(crate) fn python_words(message: &str) -> String {
    if !message.contains("--") {
        return message.to_owned();
    }
    let mut m = message.to_owned();
    for (flag, parameter) in [
        ("leave --from out", "leave format unset"),
        ("choose with --tiers or --ignore-tiers", "choose with tiers= or ignore_tiers="),
        ("not chosen by --tiers", "not chosen by tiers="),
        ("matched by --ignore-tiers", "matched by ignore_tiers="),
        ("name another with --encoding", "name another with encoding="),
        ("pass it with --uem", "pass it as score(uem=…)"),
        ("`--track NAME=FILE` for each", "detect(tracks={NAME: FILE})"),
    ] {
        m = m.replace(flag, parameter);
    }
    // `--from NAME` after `with `, a backtick or `: ` is `format="NAME"`; alone, `format=`.
    let mut out = String::with_capacity(m.len());
    let mut rest = m.as_str();
    while let Some(at) = rest.find("--from") {
        let (before, after) = (&rest[..at], &rest[at + "--from".len()..]);
        out.push_str(before);
        let told = out.ends_with("with ") || out.ends_with('`') || out.ends_with(": ");
        if !told {
            out.push_str("--from");
            rest = after;
            continue;
        }
        let name: String = match after.strip_prefix(' ') {
            Some(a) => a
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '-')
                .collect(),
            None => String::new(),
        };
        if name.is_empty() {
            out.push_str("format=");
            rest = after;
        } else {
            out.push_str(&format!("format=\"{name}\""));
            rest = &after[1 + name.len()..];
        }
    }
    out.push_str(rest);
    out
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
    m.add("MAX_THREADS", parallel::MAX_THREADS)?;
    m.add(
        "MAX_DURATION",
        overtalk_audio::decode::DecodeOptions::default().max_duration.as_secs_f64(),
    )?;
    corpus::register(m)?;
    analysis::register(m)?;
    scoring::register(m)?;
    detect::register(m)?;
    diarize::register(m)?;
    gaps::register(m)?;
    Ok(())
}
