//! The process-wide release registry: what every actuator holds closed right now (a mute, a
//! duck), with a synchronous way to open it, so that a path that ends the process without
//! unwinding (a second Ctrl-C or SIGTERM, [`exit`]; a panic of the main thread, through
//! [`install_panic_hook`]) still opens every channel before the process is gone.
//!
//! ```text
//! actuator task ── applies a level ──► Registration::set(closed channels)
//!                                              │
//! second signal / main-thread panic ──► release_all(deadline): one thread per actuator,
//!                                       each its releaser (UDP send, blocking websocket,
//!                                       hook command), all bounded by one deadline ──► exit
//! ```
//!
//! The normal end (the source ran out, the first signal) does not come here: each actuator's
//! task opens its channels itself and reports every attempt as an action event. This is the
//! last resort, bounded by [`EXIT_DEADLINE`] in all, so the process ends within a second of
//! being told twice.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Once};
use std::time::{Duration, Instant};

use crate::state::ChannelLevel;

/// Channels held closed, with the level each is held at.
pub type Closed = Vec<(String, ChannelLevel)>;

/// Opens the given channels synchronously, giving up at the deadline (best effort: a device
/// that does not answer in time stays as it is).
pub type Releaser = Arc<dyn Fn(&[(String, ChannelLevel)], Instant) + Send + Sync>;

/// How long [`exit`] (and the panic hook) may spend opening channels, all actuators at once:
/// under the second the fail-safe promises, with room for the process to end.
pub const EXIT_DEADLINE: Duration = Duration::from_millis(800);

struct Entry {
    releaser: Releaser,
    closed: Closed,
}

static REGISTRY: Mutex<BTreeMap<u64, Entry>> = Mutex::new(BTreeMap::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(0);
static EXITING: AtomicBool = AtomicBool::new(false);

/// The registry, even after a panic while it was held (its entries stay consistent: each
/// change is one insert or remove).
fn registry() -> MutexGuard<'static, BTreeMap<u64, Entry>> {
    REGISTRY.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// One actuator's place in the registry; removed when dropped (the actuator released what it
/// held, or gave up).
pub struct Registration(u64);

impl Registration {
    /// Registers an actuator's releaser, holding nothing yet.
    pub fn new(releaser: Releaser) -> Registration {
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        registry().insert(id, Entry { releaser, closed: Vec::new() });
        Registration(id)
    }

    /// What the actuator holds closed now (empty: nothing to release).
    pub fn set(&self, closed: Closed) {
        if let Some(e) = registry().get_mut(&self.0) {
            e.closed = closed;
        }
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        registry().remove(&self.0);
    }
}

impl std::fmt::Debug for Registration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Registration").field(&self.0).finish()
    }
}

/// Whether the process is ending through [`exit`]: actuators then close nothing more.
pub fn is_exiting() -> bool {
    EXITING.load(Ordering::SeqCst)
}

/// Opens everything registered as closed, every actuator on a thread of its own so that one
/// that hangs delays no other, and returns when all are done or at `deadline`, whichever
/// comes first: how many actuators finished in time.
pub fn release_all(deadline: Instant) -> usize {
    let held: Vec<(Releaser, Closed)> = registry()
        .values_mut()
        .filter(|e| !e.closed.is_empty())
        .map(|e| (e.releaser.clone(), std::mem::take(&mut e.closed)))
        .collect();
    release(held, deadline)
}

/// Runs each releaser on its channels, on threads of their own, until all are done or the
/// deadline: how many finished in time.
fn release(held: Vec<(Releaser, Closed)>, deadline: Instant) -> usize {
    let (done, finished) = std::sync::mpsc::channel();
    let mut started = 0;
    for (releaser, closed) in held {
        let done = done.clone();
        let spawned =
            std::thread::Builder::new().name("overtalk-release".into()).spawn(move || {
                releaser(&closed, deadline);
                let _ = done.send(());
            });
        if spawned.is_ok() {
            started += 1;
        }
    }
    drop(done);
    let mut released = 0;
    while released < started {
        let left = deadline.saturating_duration_since(Instant::now());
        if finished.recv_timeout(left).is_err() {
            break;
        }
        released += 1;
    }
    released
}

/// Ends the process with `status` after opening every registered channel (within
/// [`EXIT_DEADLINE`]): the exit of a second Ctrl-C or SIGTERM, which does not wait for the
/// actuators' own release.
pub fn exit(status: i32) -> ! {
    EXITING.store(true, Ordering::SeqCst);
    let deadline = Instant::now() + EXIT_DEADLINE;
    release_all(deadline);
    // A change an actuator had in flight when the exit began (no new one starts after it) may
    // have landed while the first pass ran: opened too, in what is left of the deadline.
    release_all(deadline);
    std::process::exit(status)
}

/// Adds to the panic hook (once per process): a panic of the main thread, which ends the
/// process, first opens every registered channel (within [`EXIT_DEADLINE`]), whether or not
/// the unwinding that follows would reach the actuators' own guards. A panic of another
/// thread ends that thread only; its actuator's guard opens what it held.
pub fn install_panic_hook() {
    static INSTALLED: Once = Once::new();
    INSTALLED.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            previous(info);
            if std::thread::current().name() == Some("main") {
                EXITING.store(true, Ordering::SeqCst);
                release_all(Instant::now() + EXIT_DEADLINE);
            }
        }));
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    const MUTED: ChannelLevel = ChannelLevel { muted: true, duck_db: 0.0 };

    #[test]
    fn registrations_hold_what_is_closed_until_dropped() {
        let r = Registration::new(Arc::new(|_: &[(String, ChannelLevel)], _| {}));
        let closed = |r: &Registration| registry().get(&r.0).map(|e| e.closed.clone());
        assert_eq!(closed(&r), Some(Vec::new()));
        r.set(vec![("B".into(), MUTED)]);
        assert_eq!(closed(&r), Some(vec![("B".to_owned(), MUTED)]));
        let id = r.0;
        drop(r);
        assert!(!registry().contains_key(&id));
    }

    #[test]
    fn every_releaser_runs_at_once_and_a_hung_one_is_left_at_the_deadline() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let l = log.clone();
        let quick: Releaser = Arc::new(move |closed: &[(String, ChannelLevel)], _| {
            l.lock().unwrap().extend(closed.iter().map(|(c, _)| c.clone()));
        });
        let hung: Releaser = Arc::new(|_: &[(String, ChannelLevel)], _| {
            std::thread::sleep(Duration::from_secs(5));
        });
        let start = Instant::now();
        let held = vec![
            (hung, vec![("A".to_owned(), MUTED)]),
            (quick, vec![("B".to_owned(), MUTED), ("C".to_owned(), MUTED)]),
        ];
        let released = release(held, start + Duration::from_millis(200));
        let took = start.elapsed();
        assert_eq!(released, 1);
        assert!(
            took >= Duration::from_millis(200) && took < Duration::from_millis(600),
            "{took:?}"
        );
        assert_eq!(*log.lock().unwrap(), ["B", "C"]);
    }
}
