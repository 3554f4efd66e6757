//! Actuators: what turns a rule's levels into mutes and gains on real equipment. Each runs on its
//! own task ([`run_actuator`]): it follows the desired levels (a `watch`, so a slow device sees
//! only the newest wish and nothing queues without bound), reports every attempt as an action
//! (`ok = false` with the reason when the device is unreachable), retries failures with
//! exponential backoff, and never blocks detection, which only writes the wish.
//!
//! Fail-safe: when the wish's sender goes away (the session ended, was interrupted, or the task
//! driving the rule panicked), the task opens every channel it had muted or ducked before it
//! exits; if the task itself is dropped or panics first, a guard opens them synchronously
//! ([`Actuator::releaser`]). What each task holds closed is also in the process-wide
//! [`crate::failsafe`] registry, which opens it on the exits that run no guard (a second
//! Ctrl-C or SIGTERM, a panic of the main thread); a channel is put there before its mute is
//! sent, and the exit waits for the mute in flight, so the unmute always comes after it.
//!
//! ```text
//! rule ──wish──► watch ──► actuator task ──► device (UDP / WebSocket / command)
//!                              │ each attempt
//!                              └──► action report (ok / error) ──► events, page
//! ```

pub mod hook;
pub mod obs;
pub mod osc;

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use overtalk::output::live::LiveAction;
use tokio::sync::{mpsc, watch};

use crate::failsafe::{Registration, Releaser};
use crate::state::ChannelLevel;

/// The levels a rule wants, by channel.
pub type Levels = BTreeMap<String, ChannelLevel>;

/// Where action reports go, with the channel they are about (none for a cue about nobody).
pub type Reporter = Arc<dyn Fn(LiveAction, Option<&str>) + Send + Sync>;

/// A cue for the moderator: (speaker, text).
pub type Cue = (Option<String>, String);

/// How long one attempt may take before it counts as failed.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_millis(500);

/// The first retry delay; doubled after each failure up to [`MAX_BACKOFF`].
pub const FIRST_BACKOFF: Duration = Duration::from_millis(100);

/// The longest retry delay.
pub const MAX_BACKOFF: Duration = Duration::from_secs(5);

/// How long the fail-safe release may take.
pub const RELEASE_DEADLINE: Duration = Duration::from_millis(900);

/// The outcome of one attempt: `Ok(Some(target))` done, `Ok(None)` nothing to do for this
/// channel (not mapped), `Err((target, reason))` failed.
pub type Attempt = Result<Option<String>, (String, String)>;

/// One kind of equipment.
pub trait Actuator: Send + 'static {
    /// Moves `channel` from `from` to `to`.
    fn set_level(
        &mut self,
        channel: &str,
        from: ChannelLevel,
        to: ChannelLevel,
    ) -> impl Future<Output = Attempt> + Send;

    /// Passes a cue on, if this actuator has a way to (`Ok(None)` otherwise).
    fn cue(&mut self, channel: Option<&str>, text: &str) -> impl Future<Output = Attempt> + Send;

    /// What opens channels synchronously, as a last resort from a destructor or the exit path
    /// ([`crate::failsafe`]): best effort, given up at the deadline it is called with. It
    /// shares nothing with the actuator's connection (it may run on another thread while the
    /// actuator's task is stuck).
    fn releaser(&self) -> Releaser;
}

/// The name of a transition, as action events carry it.
pub fn action_name(from: ChannelLevel, to: ChannelLevel) -> &'static str {
    if to.muted {
        "mute"
    } else if to.duck_db > 0.0 {
        "duck"
    } else if from.muted {
        "unmute"
    } else {
        "unduck"
    }
}

/// The actuator and the levels it has applied, registered in [`crate::failsafe`]; opens what
/// is still closed when dropped.
struct Held<A: Actuator> {
    actuator: A,
    applied: Levels,
    releaser: Releaser,
    registration: Registration,
}

impl<A: Actuator> Held<A> {
    fn new(actuator: A) -> Held<A> {
        let releaser = actuator.releaser();
        let registration = Registration::new(releaser.clone());
        Held { actuator, applied: Levels::new(), releaser, registration }
    }

    /// Records that `channel` is at `level` now, here and in the registry.
    fn apply(&mut self, channel: String, level: ChannelLevel) {
        self.applied.insert(channel, level);
        self.registration.set(self.closed());
    }

    /// What is closed once `channel` is at `to`, for [`Registration::begin`] before the
    /// change is sent.
    fn closed_with(&self, channel: &str, to: ChannelLevel) -> Vec<(String, ChannelLevel)> {
        let mut closed = self.closed();
        closed.retain(|(c, _)| c != channel);
        closed.push((channel.to_owned(), to));
        closed
    }

    fn closed(&self) -> Vec<(String, ChannelLevel)> {
        self.applied.iter().filter(|(_, l)| !l.is_open()).map(|(c, l)| (c.clone(), *l)).collect()
    }
}

impl<A: Actuator> Drop for Held<A> {
    fn drop(&mut self) {
        let closed = self.closed();
        if !closed.is_empty() {
            (self.releaser)(&closed, std::time::Instant::now() + RELEASE_DEADLINE);
        }
    }
}

async fn attempt<F: Future<Output = Attempt>>(f: F) -> Attempt {
    match tokio::time::timeout(ATTEMPT_TIMEOUT, f).await {
        Ok(r) => r,
        Err(_) => Err((String::new(), format!("no answer within {ATTEMPT_TIMEOUT:?}"))),
    }
}

fn report(reporter: &Reporter, name: &str, channel: Option<&str>, result: &Attempt) -> bool {
    match result {
        Ok(Some(target)) => {
            let action =
                LiveAction { name: name.into(), target: target.clone(), ok: true, error: None };
            reporter(action, channel);
            true
        }
        Ok(None) => true,
        Err((target, error)) => {
            reporter(
                LiveAction {
                    name: name.into(),
                    target: target.clone(),
                    ok: false,
                    error: Some(error.clone()),
                },
                channel,
            );
            false
        }
    }
}

/// Follows `wish` with `actuator` until the wish's sender is dropped, then opens every channel
/// it closed (within [`RELEASE_DEADLINE`]) and returns.
pub async fn run_actuator<A: Actuator>(
    actuator: A,
    mut wish: watch::Receiver<Levels>,
    mut cues: mpsc::Receiver<Cue>,
    reporter: Reporter,
) {
    let mut held = Held::new(actuator);
    let mut backoff = FIRST_BACKOFF;
    let mut cues_open = true;
    loop {
        // Bring the device to the newest wish.
        let target = wish.borrow_and_update().clone();
        let mut failed = false;
        // Openings first: a new holder is heard before anyone else is muted.
        let mut order: Vec<(&String, &ChannelLevel)> = target.iter().collect();
        order.sort_by_key(|(_, to)| !to.is_open());
        for (channel, &to) in order {
            let from = held.applied.get(channel).copied().unwrap_or(ChannelLevel::OPEN);
            if from == to {
                continue;
            }
            // A closing change is held in the registry before it is sent and counted in
            // flight until it is done, so the exit's release opens the channel after it
            // lands; none starts once the process is ending through that release.
            let in_flight = if to.is_open() {
                None
            } else {
                let closed = held.closed_with(channel, to);
                match held.registration.begin(closed) {
                    Some(guard) => Some(guard),
                    None => continue,
                }
            };
            let result = attempt(held.actuator.set_level(channel, from, to)).await;
            drop(in_flight);
            if report(&reporter, action_name(from, to), Some(channel), &result) {
                held.apply(channel.clone(), to);
            } else {
                failed = true;
            }
        }
        let retry_at = if failed {
            let at = tokio::time::Instant::now() + backoff;
            backoff = (backoff * 2).min(MAX_BACKOFF);
            Some(at)
        } else {
            backoff = FIRST_BACKOFF;
            None
        };
        tokio::select! {
            changed = wish.changed() => {
                if changed.is_err() {
                    break;
                }
            }
            cue = cues.recv(), if cues_open => match cue {
                Some((channel, text)) => {
                    let result = attempt(held.actuator.cue(channel.as_deref(), &text)).await;
                    report(&reporter, "cue", channel.as_deref(), &result);
                }
                None => cues_open = false,
            },
            _ = async {
                match retry_at {
                    Some(at) => tokio::time::sleep_until(at).await,
                    None => std::future::pending().await,
                }
            } => {}
        }
    }
    release(&mut held, &reporter).await;
}

/// Opens every closed channel, retrying until [`RELEASE_DEADLINE`].
async fn release<A: Actuator>(held: &mut Held<A>, reporter: &Reporter) {
    let deadline = tokio::time::Instant::now() + RELEASE_DEADLINE;
    let mut pause = Duration::from_millis(20);
    loop {
        let closed = held.closed();
        if closed.is_empty() {
            return;
        }
        for (channel, from) in closed {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            let result = match tokio::time::timeout(
                left.min(ATTEMPT_TIMEOUT),
                held.actuator.set_level(&channel, from, ChannelLevel::OPEN),
            )
            .await
            {
                Ok(r) => r,
                Err(_) => Err((String::new(), "release timed out".into())),
            };
            if report(reporter, action_name(from, ChannelLevel::OPEN), Some(&channel), &result) {
                held.apply(channel, ChannelLevel::OPEN);
            }
        }
        if tokio::time::Instant::now() + pause >= deadline {
            // Out of time: the guard's synchronous release is the last resort.
            return;
        }
        tokio::time::sleep(pause).await;
        pause *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// An actuator that fails its first `fail_first` attempts and records the rest.
    struct Flaky {
        fail_first: usize,
        log: Arc<Mutex<Vec<String>>>,
        released: Arc<Mutex<Vec<String>>>,
    }

    impl Actuator for Flaky {
        async fn set_level(&mut self, ch: &str, from: ChannelLevel, to: ChannelLevel) -> Attempt {
            if self.fail_first > 0 {
                self.fail_first -= 1;
                return Err(("flaky".into(), "unreachable".into()));
            }
            self.log.lock().unwrap().push(format!("{ch} {}", action_name(from, to)));
            Ok(Some("flaky".into()))
        }
        async fn cue(&mut self, _: Option<&str>, _: &str) -> Attempt {
            Ok(None)
        }
        fn releaser(&self) -> Releaser {
            let released = self.released.clone();
            Arc::new(move |channels: &[(String, ChannelLevel)], _| {
                for (c, _) in channels {
                    released.lock().unwrap().push(c.clone());
                }
            })
        }
    }

    #[tokio::test(start_paused = true)]
    async fn failures_are_reported_retried_with_backoff_and_mutes_released_at_the_end() {
        let log = Arc::new(Mutex::new(Vec::new()));
        let reports = Arc::new(Mutex::new(Vec::new()));
        let r2 = reports.clone();
        let reporter: Reporter =
            Arc::new(move |a: LiveAction, _: Option<&str>| r2.lock().unwrap().push(a));
        let (tx, rx) = watch::channel(Levels::new());
        let (_cue_tx, cue_rx) = mpsc::channel(4);
        let flaky =
            Flaky { fail_first: 3, log: log.clone(), released: Arc::new(Mutex::new(Vec::new())) };
        let task = tokio::spawn(run_actuator(flaky, rx, cue_rx, reporter));
        tx.send_replace(Levels::from([("B".into(), ChannelLevel { muted: true, duck_db: 0.0 })]));
        // 100 + 200 + 400 ms of backoff after three failures.
        tokio::time::sleep(Duration::from_millis(690)).await;
        assert!(log.lock().unwrap().is_empty());
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(*log.lock().unwrap(), vec!["B mute"]);
        drop(tx);
        task.await.unwrap();
        assert_eq!(*log.lock().unwrap(), vec!["B mute", "B unmute"]);
        let oks: Vec<bool> = reports.lock().unwrap().iter().map(|a| a.ok).collect();
        assert_eq!(oks, vec![false, false, false, true, true]);
    }

    #[test]
    fn a_dropped_task_releases_synchronously() {
        let released = Arc::new(Mutex::new(Vec::new()));
        let flaky = Flaky {
            fail_first: 0,
            log: Arc::new(Mutex::new(Vec::new())),
            released: released.clone(),
        };
        let mut held = Held::new(flaky);
        held.apply("A".into(), ChannelLevel::OPEN);
        held.apply("B".into(), ChannelLevel { muted: false, duck_db: 6.0 });
        drop(held);
        assert_eq!(*released.lock().unwrap(), vec!["B"]);
    }
}
