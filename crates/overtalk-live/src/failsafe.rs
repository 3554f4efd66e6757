//! The process-wide release registry: what every actuator holds closed right now (a mute, a
//! duck), with a synchronous way to open it, so that a path that ends the process without
//! unwinding (a second Ctrl-C or SIGTERM, [`exit`]; a panic of the main thread, through
//! [`install_panic_hook`]) still opens every channel before the process is gone.
//!
//! ```text
//! actuator task ── before a mute is sent ──► Registration::begin(channel held closed,
//!                                                              change in flight)
//!                ── the change is done ─────► InFlight dropped; Registration::set(closed)
//!                                              │
//! second signal / main-thread panic ──► release_all(deadline): one thread per actuator,
//!                                       each waits for its change in flight, then runs its
//!                                       releaser (UDP send, blocking websocket, hook
//!                                       command), all bounded by one deadline ──► exit
//! ```
//!
//! A channel is held closed *before* the change that closes it is sent, and the exit's release
//! of an actuator waits for its change in flight (at most [`SETTLE_WAIT`]), so the unmute
//! always follows a mute that was being sent when the exit began: a slow hook command or an
//! unanswered OBS request cannot land after it. If that mute never took (it failed, or timed
//! out), the release opens a channel that was open already, which changes nothing.
//!
//! The normal end (the source ran out, the first signal) does not come here: each actuator's
//! task opens its channels itself and reports every attempt as an action event. This is the
//! last resort, bounded by [`EXIT_DEADLINE`] in all, so the process ends within a second of
//! being told twice.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, Once};
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

/// How long the exit's release of an actuator waits for the change it has in flight before it
/// opens the channels anyway: the actuators' attempt timeout
/// ([`crate::actuate::ATTEMPT_TIMEOUT`], after which an attempt is dropped), and never so long
/// that less than [`RELEASE_SHARE`] of the deadline is left for the release itself.
pub const SETTLE_WAIT: Duration = crate::actuate::ATTEMPT_TIMEOUT;

/// What of [`EXIT_DEADLINE`] is kept for the release itself, however long a change in flight
/// takes to settle.
pub const RELEASE_SHARE: Duration = Duration::from_millis(300);

struct Entry {
    releaser: Releaser,
    closed: Closed,
    /// Changes being sent now ([`Registration::begin`]).
    in_flight: usize,
}

static REGISTRY: Mutex<BTreeMap<u64, Entry>> = Mutex::new(BTreeMap::new());
/// Told whenever a change in flight ends.
static SETTLED: Condvar = Condvar::new();
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
        registry().insert(id, Entry { releaser, closed: Vec::new(), in_flight: 0 });
        Registration(id)
    }

    /// Before a change that closes a channel is sent: holds `closed` (what the actuator will
    /// hold once it lands) and counts the change in flight until the guard is dropped, so that
    /// the exit's release waits for it and opens the channel after it. `None` when the process
    /// is ending through [`exit`]: the change must not be sent. Checked under the registry's
    /// lock, so a change either is seen by the exit's release or is never sent.
    pub fn begin(&self, closed: Closed) -> Option<InFlight<'_>> {
        let mut registry = registry();
        if is_exiting() {
            return None;
        }
        let entry = registry.get_mut(&self.0)?;
        entry.closed = closed;
        entry.in_flight += 1;
        Some(InFlight(self))
    }

    /// What the actuator holds closed now (empty: nothing to release).
    pub fn set(&self, closed: Closed) {
        if let Some(e) = registry().get_mut(&self.0) {
            e.closed = closed;
        }
    }
}

/// A change in flight ([`Registration::begin`]); ends when dropped (the change was answered,
/// failed or timed out).
pub struct InFlight<'a>(&'a Registration);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        if let Some(e) = registry().get_mut(&(self.0).0) {
            e.in_flight = e.in_flight.saturating_sub(1);
        }
        SETTLED.notify_all();
    }
}

impl std::fmt::Debug for InFlight<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("InFlight").field(&(self.0).0).finish()
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
    let held: Vec<(u64, Releaser, Closed)> = registry()
        .iter_mut()
        .filter(|(_, e)| !e.closed.is_empty())
        .map(|(&id, e)| (id, e.releaser.clone(), std::mem::take(&mut e.closed)))
        .collect();
    release(held, deadline)
}

/// Waits until the actuator `id` has no change in flight, for at most [`SETTLE_WAIT`] and
/// never past `deadline` less [`RELEASE_SHARE`].
fn settle(id: u64, deadline: Instant) {
    let until =
        (Instant::now() + SETTLE_WAIT).min(deadline.checked_sub(RELEASE_SHARE).unwrap_or(deadline));
    let mut registry = registry();
    while registry.get(&id).is_some_and(|e| e.in_flight > 0) {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return;
        }
        registry = match SETTLED.wait_timeout(registry, left) {
            Ok((guard, _)) => guard,
            Err(poisoned) => poisoned.into_inner().0,
        };
    }
}

/// Runs each releaser on its channels, after the change its actuator has in flight
/// ([`settle`]), on threads of their own, until all are done or the deadline: how many
/// finished in time.
fn release(held: Vec<(u64, Releaser, Closed)>, deadline: Instant) -> usize {
    let (done, finished) = std::sync::mpsc::channel();
    let mut started = 0;
    for (id, releaser, closed) in held {
        let done = done.clone();
        let spawned =
            std::thread::Builder::new().name("overtalk-release".into()).spawn(move || {
                settle(id, deadline);
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
    // A change an actuator had in flight when the exit began (no new one starts after it) was
    // waited for by the first pass; one that landed and was recorded while that pass ran is
    // opened again here, in what is left of the deadline (opening an open channel changes
    // nothing).
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
            (u64::MAX, hung, vec![("A".to_owned(), MUTED)]),
            (u64::MAX - 1, quick, vec![("B".to_owned(), MUTED), ("C".to_owned(), MUTED)]),
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

    /// A mute being sent when the release begins (a hook command slow to mute) is held closed
    /// before it is sent, and the release opens the channel only once it has landed: the
    /// device ends open.
    #[test]
    fn the_release_waits_for_a_mute_in_flight_and_opens_after_it() {
        let device = Arc::new(Mutex::new(Vec::new()));
        let d = device.clone();
        let releaser: Releaser = Arc::new(move |closed: &[(String, ChannelLevel)], _| {
            d.lock().unwrap().extend(closed.iter().map(|(c, _)| format!("unmute {c}")));
        });
        let r = Registration::new(releaser);
        let id = r.0;
        let in_flight = r.begin(vec![("B".to_owned(), MUTED)]).unwrap();
        let start = Instant::now();
        let releasing = std::thread::spawn(move || {
            let held: Vec<(u64, Releaser, Closed)> = registry()
                .iter_mut()
                .filter(|(&i, _)| i == id)
                .map(|(&i, e)| (i, e.releaser.clone(), std::mem::take(&mut e.closed)))
                .collect();
            release(held, Instant::now() + EXIT_DEADLINE)
        });
        std::thread::sleep(Duration::from_millis(150));
        // The mute lands 150 ms into the release, which has not opened anything yet.
        device.lock().unwrap().push("mute B".to_owned());
        drop(in_flight);
        assert_eq!(releasing.join().unwrap(), 1);
        assert!(start.elapsed() < Duration::from_millis(400), "{:?}", start.elapsed());
        assert_eq!(*device.lock().unwrap(), ["mute B", "unmute B"]);
        // A change in flight that never ends delays the release by SETTLE_WAIT at most.
        let _stuck = r.begin(vec![("C".to_owned(), MUTED)]).unwrap();
        let start = Instant::now();
        let held = vec![(
            id,
            registry().get(&id).unwrap().releaser.clone(),
            vec![("C".to_owned(), MUTED)],
        )];
        assert_eq!(release(held, start + EXIT_DEADLINE), 1);
        let took = start.elapsed();
        assert!(took >= SETTLE_WAIT && took < EXIT_DEADLINE, "{took:?}");
        assert_eq!(device.lock().unwrap().last().unwrap(), "unmute C");
    }
}
