//! The worker threads of the batch calls (`read` of many files, `analyze_many`,
//! `gaps_and_overlaps_many`) and of the library's own parallel steps (scoring's recordings and
//! its two sides): one rayon pool per process, sized to the machine, or a pool of the size the
//! caller asks for.
//!
//! The pool is the module's own, not rayon's global one, and it remembers the process that
//! made it: a child forked from a process whose pool had started (Python's `multiprocessing`
//! with `fork`, Spark's worker daemon) has no threads behind the pool it inherited, so it
//! makes its own instead of waiting for ever on the inherited one.
//!
//! ```text
//! items   a  b  c  d  e  f        results, in the items' order
//! thread1 a     c     e      ─►   [f(a), f(b), f(c), f(d), f(e), f(f)]
//! thread2    b     d     f
//! ```

use std::sync::{Arc, Mutex};

use pyo3::prelude::*;
use rayon::prelude::*;
use rayon::ThreadPool;

use crate::OvertalkError;

/// The process's pool: the id of the process that built it, and the pool.
static POOL: Mutex<Option<(u32, Arc<ThreadPool>)>> = Mutex::new(None);

/// One thread per core the process may run on.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn build(threads: usize) -> PyResult<ThreadPool> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("overtalk-{i}"))
        .build()
        .map_err(|e| OvertalkError::new_err(format!("starting {threads} worker threads: {e}")))
}

/// The pool of this process, built on first use with one thread per core.
fn shared_pool() -> PyResult<Arc<ThreadPool>> {
    let pid = std::process::id();
    let mut slot = POOL.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((owner, pool)) = slot.as_ref() {
        if *owner == pid {
            return Ok(Arc::clone(pool));
        }
        // Inherited through fork: its threads live in the parent only. Dropping it here would
        // signal threads that do not exist; keep it out of the way instead (once per fork).
        if let Some((_, inherited)) = slot.take() {
            std::mem::forget(inherited);
        }
    }
    let pool = Arc::new(build(cores())?);
    *slot = Some((pid, Arc::clone(&pool)));
    Ok(pool)
}

/// The most worker threads a call may ask for: a pool of a million threads would spawn
/// until the system refuses (or, for `2**62`, never return), where no machine has the cores.
pub(crate) const MAX_THREADS: usize = 1024;

/// The number of worker threads asked for: `None` is one per core; zero, or more than
/// [`MAX_THREADS`], is an error.
pub(crate) fn check_threads(threads: Option<usize>) -> PyResult<Option<usize>> {
    match threads {
        Some(0) => Err(OvertalkError::new_err("threads must be at least 1")),
        Some(n) if n > MAX_THREADS => Err(OvertalkError::new_err(format!(
            "threads must be at most {MAX_THREADS}, got {n} (this machine has {} cores)",
            cores()
        ))),
        t => Ok(t),
    }
}

/// `f` run inside the process's pool, so that the library's own parallel steps (the
/// recordings of a score, its two sides) run on these fork-safe threads rather than on
/// rayon's global pool, whose threads a forked child does not have. Call it with the GIL
/// released.
pub(crate) fn install<R: Send>(f: impl FnOnce() -> R + Send) -> PyResult<R> {
    Ok(shared_pool()?.install(f))
}

/// `f` applied to every item, in order, on `threads` worker threads (`None`: one per core;
/// 1: in the calling thread). Call it with the GIL released.
pub(crate) fn map<T, R, F>(items: &[T], threads: Option<usize>, f: F) -> PyResult<Vec<R>>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> R + Sync + Send,
{
    if items.len() <= 1 || threads == Some(1) {
        return Ok(items.iter().map(f).collect());
    }
    let run = |pool: &ThreadPool| pool.install(|| items.par_iter().map(&f).collect());
    // No more threads than items: the others would only be started and stopped.
    match threads.map(|n| n.min(items.len())) {
        Some(n) if n != cores() => Ok(run(&build(n)?)),
        _ => Ok(run(shared_pool()?.as_ref())),
    }
}
