//! The outputs of a live session, beside the engine: the floor state, the rule, the actuators
//! and the web server, fed by the engine's event broadcast and audio clock.
//!
//! ```text
//! engine ──broadcast<LiveEvent>──► run_outputs ──► FloorState ──► page (/snapshot, /events)
//!        ──watch<f64> clock──────►     │
//!                                      └─► FloorRule ──levels──► OSC / OBS / hook tasks
//!                                                  ◄──action reports (LiveEvent, type action)
//! ```
//!
//! The one call the command line makes is [`run_outputs`]; [`OutputArgs`] are its flags, to be
//! flattened into `overtalk live`. The session's outputs end when the event sender is dropped
//! (the recording ended, the device vanished, Ctrl-C ended the engine) or on
//! [`OutputsHandle::shutdown`]; every mute is then released before [`OutputsHandle::finish`]
//! returns, within a second. If the audio clock stops advancing for [`OutputsConfig::watchdog`],
//! every mute is released too (the rule resumes when the clock does).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context as _;
use overtalk::output::live::{EventState, LiveAction, LiveEvent, LiveEventKind};
use tokio::sync::{broadcast, mpsc, watch, Notify};
use tokio::task::JoinSet;

use crate::actuate::hook::Hook;
use crate::actuate::obs::Obs;
use crate::actuate::osc::{self, Osc, OscProfile};
use crate::actuate::{run_actuator, Cue, Levels, Reporter};
use crate::rules::{Command, FloorRule, RuleKind, RuleParams};
use crate::serve::{self, ServeConfig, Server, ServerStats};
use crate::state::FloorState;

/// The default address of `--serve` without a value.
pub const DEFAULT_SERVE: &str = "127.0.0.1:8765";

/// The flags of the outputs, for `overtalk live`.
#[derive(Clone, Debug, Default, clap::Args)]
pub struct OutputArgs {
    /// The floor rule: alert (watch only), debate-mute, duck, allocated.
    #[arg(long, value_enum, default_value_t = RuleKind::Alert)]
    pub rule: RuleKind,
    /// alert: cue the moderator on each committed interruption (hook, generic OSC).
    #[arg(long)]
    pub cue_interruptions: bool,
    /// debate-mute: the holder speaks this long (ms) before the others are muted.
    #[arg(long, value_name = "MS", default_value_t = 300)]
    pub engage_ms: u64,
    /// debate-mute, duck: the holder is silent this long (ms) before mutes are released.
    #[arg(long, value_name = "MS", default_value_t = 1500)]
    pub hold_ms: u64,
    /// debate-mute: a non-holder already talking is muted only this far (ms) into it.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub allowance_ms: u64,
    /// debate-mute, duck: at most one mute or duck per channel per this many seconds.
    #[arg(long, value_name = "S", default_value_t = 10.0)]
    pub cooldown_s: f64,
    /// duck: how far an intruder is lowered (dB).
    #[arg(long, value_name = "DB", default_value_t = 12.0)]
    pub duck_db: f64,
    /// duck: how long (ms) an intruder talks over the holder before being lowered.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    pub duck_after_ms: u64,
    /// allocated: a timer of turns, NAME=SECONDS,… repeated from the start.
    #[arg(long, value_name = "NAME=S,…")]
    pub slots: Option<String>,
    /// Send OSC to this mixer or DAW (UDP).
    #[arg(long, value_name = "HOST:PORT")]
    pub osc: Option<String>,
    /// The OSC addresses to use.
    #[arg(long, value_enum, default_value_t = OscProfile::Generic)]
    pub osc_profile: OscProfile,
    /// Each speaker's mixer channel or track, NAME=CHANNEL,… (required but for generic).
    #[arg(long, value_name = "NAME=CH,…", requires = "osc")]
    pub osc_map: Option<String>,
    /// Drive OBS Studio through obs-websocket v5.
    #[arg(long, value_name = "ws://HOST:PORT")]
    pub obs: Option<String>,
    /// Each speaker's OBS input, NAME=INPUT,… (default: the input named like the speaker).
    #[arg(long, value_name = "NAME=INPUT,…", requires = "obs")]
    pub obs_map: Option<String>,
    /// The environment variable holding the obs-websocket password.
    #[arg(long, value_name = "VAR", default_value = "OBS_WEBSOCKET_PASSWORD")]
    pub obs_password_env: String,
    /// Run this shell command on every change and cue (OVERTALK_ACTION, OVERTALK_CHANNEL, …).
    #[arg(long, value_name = "CMD")]
    pub hook: Option<String>,
    /// Serve the live page and the events over WebSocket (default 127.0.0.1:8765).
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = DEFAULT_SERVE)]
    pub serve: Option<String>,
    /// The token for state changes (POST /floor); required beyond loopback.
    #[arg(long, value_name = "TOKEN", requires = "serve")]
    pub token: Option<String>,
}

/// The OSC target.
#[derive(Clone, Debug, PartialEq)]
pub struct OscConfig {
    /// Where datagrams go.
    pub target: SocketAddr,
    /// Whose addresses.
    pub profile: OscProfile,
    /// Speaker → channel.
    pub map: BTreeMap<String, u32>,
}

/// The OBS target.
#[derive(Clone, Debug, PartialEq)]
pub struct ObsConfig {
    /// `ws://HOST:PORT`.
    pub url: String,
    /// The password, read from the environment.
    pub password: Option<String>,
    /// Speaker → input name.
    pub inputs: BTreeMap<String, String>,
}

/// Everything [`run_outputs`] needs.
#[derive(Clone, Debug)]
pub struct OutputsConfig {
    /// The rule.
    pub rule: RuleKind,
    /// Its parameters.
    pub params: RuleParams,
    /// The speakers (channel names) known from the start; the rule acts on these, or on every
    /// speaker seen when empty.
    pub speakers: Vec<String>,
    /// OSC, if any.
    pub osc: Option<OscConfig>,
    /// OBS, if any.
    pub obs: Option<ObsConfig>,
    /// The hook command, if any.
    pub hook: Option<String>,
    /// The web server, if any.
    pub serve: Option<ServeConfig>,
    /// Release every mute when the audio clock has not advanced for this long (wall time);
    /// only when a clock is given to [`run_outputs`].
    pub watchdog: Duration,
    /// How often the rule's timeouts are checked (wall time).
    pub tick: Duration,
    /// Where the ids of action events come from: share the engine's counter so ids stay unique
    /// in the session.
    pub ids: Arc<AtomicU64>,
}

impl Default for OutputsConfig {
    fn default() -> Self {
        OutputsConfig {
            rule: RuleKind::Alert,
            params: RuleParams::default(),
            speakers: Vec::new(),
            osc: None,
            obs: None,
            hook: None,
            serve: None,
            watchdog: Duration::from_millis(500),
            tick: Duration::from_millis(10),
            ids: Arc::new(AtomicU64::new(1 << 40)),
        }
    }
}

fn parse_pairs(flag: &str, text: &str) -> anyhow::Result<Vec<(String, String)>> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            item.rsplit_once('=')
                .map(|(a, b)| (a.trim().to_owned(), b.trim().to_owned()))
                .ok_or_else(|| anyhow::anyhow!("{flag}: `{item}` is not NAME=VALUE"))
        })
        .collect()
}

async fn resolve(flag: &str, text: &str) -> anyhow::Result<SocketAddr> {
    tokio::net::lookup_host(text)
        .await
        .with_context(|| format!("{flag} {text}: not HOST:PORT, or the host is unknown"))?
        .next()
        .ok_or_else(|| anyhow::anyhow!("{flag} {text}: no address"))
}

impl OutputArgs {
    /// The configuration the flags describe (host names resolved, the OBS password read from
    /// the environment); `speakers` are the engine's channel names.
    pub async fn to_config(&self, speakers: &[String]) -> anyhow::Result<OutputsConfig> {
        let ms = |v: u64| v as f64 / 1000.0;
        let mut slots = Vec::new();
        if let Some(text) = &self.slots {
            for (name, secs) in parse_pairs("--slots", text)? {
                let s: f64 =
                    secs.parse().ok().filter(|s: &f64| s.is_finite() && *s > 0.0).ok_or_else(
                        || {
                            anyhow::anyhow!(
                                "--slots: `{secs}` for {name} is not a positive number of seconds"
                            )
                        },
                    )?;
                slots.push((name, s));
            }
        }
        if self.rule == RuleKind::Allocated && slots.is_empty() && self.serve.is_none() {
            anyhow::bail!("--rule allocated needs --slots or --serve (for POST /floor)");
        }
        for (flag, v) in [("--duck-db", self.duck_db), ("--cooldown-s", self.cooldown_s)] {
            if !v.is_finite() || v < 0.0 {
                anyhow::bail!("{flag} {v}: must be a number ≥ 0");
            }
        }
        let params = RuleParams {
            engage_s: ms(self.engage_ms),
            hold_s: ms(self.hold_ms),
            allowance_s: ms(self.allowance_ms),
            cooldown_s: self.cooldown_s,
            duck_db: self.duck_db,
            duck_after_s: ms(self.duck_after_ms),
            cue_interruptions: self.cue_interruptions,
            slots,
        };
        let osc = match &self.osc {
            None => None,
            Some(text) => {
                let map = match &self.osc_map {
                    Some(m) => osc::parse_map(m, self.osc_profile)?,
                    None if self.osc_profile.needs_map() => anyhow::bail!(
                        "--osc-profile {} needs --osc-map NAME=CHANNEL,…",
                        self.osc_profile.name()
                    ),
                    None => BTreeMap::new(),
                };
                Some(OscConfig {
                    target: resolve("--osc", text).await?,
                    profile: self.osc_profile,
                    map,
                })
            }
        };
        let obs = match &self.obs {
            None => None,
            Some(url) => {
                if !url.starts_with("ws://") {
                    anyhow::bail!("--obs {url}: expected ws://HOST:PORT");
                }
                let inputs = match &self.obs_map {
                    Some(m) => parse_pairs("--obs-map", m)?.into_iter().collect(),
                    None => BTreeMap::new(),
                };
                let password = std::env::var(&self.obs_password_env).ok().filter(|p| !p.is_empty());
                Some(ObsConfig { url: url.clone(), password, inputs })
            }
        };
        let serve = match &self.serve {
            None => None,
            Some(text) => {
                let config = ServeConfig {
                    addr: resolve("--serve", text).await?,
                    token: self.token.clone(),
                };
                config.check()?;
                Some(config)
            }
        };
        Ok(OutputsConfig {
            rule: self.rule,
            params,
            speakers: speakers.to_vec(),
            osc,
            obs,
            hook: self.hook.clone(),
            serve,
            ..OutputsConfig::default()
        })
    }
}

/// A running set of outputs.
pub struct OutputsHandle {
    actions: broadcast::Sender<LiveEvent>,
    stop: Arc<Notify>,
    driver: tokio::task::JoinHandle<()>,
    operator: mpsc::Sender<Option<String>>,
    /// The web server's address, when serving.
    pub server_addr: Option<SocketAddr>,
    /// The web server's counters, when serving.
    pub server_stats: Option<Arc<ServerStats>>,
    state: Arc<Mutex<FloorState>>,
}

impl OutputsHandle {
    /// The action events (what the actuators did), to merge into `--events`.
    pub fn actions(&self) -> broadcast::Receiver<LiveEvent> {
        self.actions.subscribe()
    }

    /// The operator's override, as `POST /floor` gives it.
    pub async fn give_floor(&self, speaker: Option<String>) {
        let _ = self.operator.send(speaker).await;
    }

    /// The state now.
    pub fn snapshot(&self) -> crate::state::Snapshot {
        match self.state.lock() {
            Ok(s) => s.snapshot(),
            Err(poisoned) => poisoned.into_inner().snapshot(),
        }
    }

    /// Ends the outputs now (Ctrl-C), as if the events had ended.
    pub fn shutdown(&self) {
        self.stop.notify_one();
    }

    /// Waits until the session's outputs are over and every mute released; the final state.
    pub async fn finish(self) -> crate::state::Snapshot {
        let _ = self.driver.await;
        match self.state.lock() {
            Ok(s) => s.snapshot(),
            Err(poisoned) => poisoned.into_inner().snapshot(),
        }
    }
}

/// Starts the outputs of a session: `events` from the engine, `clock` its audio clock (seconds;
/// `None` to follow the events' `decided_s` alone, without the watchdog).
pub async fn run_outputs(
    events: broadcast::Receiver<LiveEvent>,
    clock: Option<watch::Receiver<f64>>,
    config: OutputsConfig,
) -> anyhow::Result<OutputsHandle> {
    let state =
        Arc::new(Mutex::new(FloorState::with_speakers(config.speakers.iter().map(String::as_str))));
    let (operator_tx, operator_rx) = mpsc::channel(16);
    let server = match &config.serve {
        Some(s) => Some(serve::start(s, state.clone(), operator_tx.clone()).await?),
        None => None,
    };
    let (actions, _) = broadcast::channel(1024);
    let stop = Arc::new(Notify::new());
    let handle = OutputsHandle {
        actions: actions.clone(),
        stop: stop.clone(),
        operator: operator_tx,
        server_addr: server.as_ref().map(|s| s.addr),
        server_stats: server.as_ref().map(|s| s.stats.clone()),
        state: state.clone(),
        driver: tokio::spawn(async {}),
    };
    let driver = tokio::spawn(drive(Driver {
        events,
        clock,
        config,
        state,
        server,
        actions,
        stop,
        operator: operator_rx,
    }));
    Ok(OutputsHandle { driver, ..handle })
}

struct Driver {
    events: broadcast::Receiver<LiveEvent>,
    clock: Option<watch::Receiver<f64>>,
    config: OutputsConfig,
    state: Arc<Mutex<FloorState>>,
    server: Option<Server>,
    actions: broadcast::Sender<LiveEvent>,
    stop: Arc<Notify>,
    operator: mpsc::Receiver<Option<String>>,
}

fn lock(state: &Mutex<FloorState>) -> std::sync::MutexGuard<'_, FloorState> {
    match state.lock() {
        Ok(g) => g,
        Err(poisoned) => poisoned.into_inner(),
    }
}

async fn drive(mut d: Driver) {
    let (wish_tx, _) = watch::channel(Levels::new());
    let (report_tx, mut reports) = mpsc::channel::<(LiveAction, Option<String>)>(1024);
    let mut cue_txs: Vec<mpsc::Sender<Cue>> = Vec::new();
    let mut tasks = JoinSet::new();
    let mut spawn = || {
        let (cue_tx, cue_rx) = mpsc::channel::<Cue>(16);
        cue_txs.push(cue_tx);
        let tx = report_tx.clone();
        let reporter: Reporter = Arc::new(move |a: LiveAction, channel: Option<&str>| {
            // Bounded: the actuators' backoff paces reports; beyond 1024 waiting, drop.
            let _ = tx.try_send((a, channel.map(str::to_owned)));
        });
        (wish_tx.subscribe(), cue_rx, reporter)
    };
    if let Some(o) = &d.config.osc {
        let (w, c, r) = spawn();
        tasks.spawn(run_actuator(Osc::new(o.target, o.profile, o.map.clone()), w, c, r));
    }
    if let Some(o) = &d.config.obs {
        let (w, c, r) = spawn();
        tasks.spawn(run_actuator(Obs::new(&o.url, o.password.clone(), o.inputs.clone()), w, c, r));
    }
    if let Some(h) = &d.config.hook {
        let (w, c, r) = spawn();
        tasks.spawn(run_actuator(Hook::new(h), w, c, r));
    }
    drop(report_tx);
    let mut rule =
        FloorRule::new(d.config.rule, d.config.params.clone(), d.config.speakers.clone());
    let mut levels = Levels::new();
    let mut tick = tokio::time::interval(d.config.tick);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_clock = (f64::NEG_INFINITY, tokio::time::Instant::now());
    let mut stalled = false;
    let mut last_event_wall = (0.0_f64, tokio::time::Instant::now());
    let mut reports_open = true;

    let ids = d.config.ids.clone();
    let actions = d.actions.clone();
    let server_ref = &d.server;
    let state_ref = d.state.clone();
    let emit = |action: LiveAction, channel: Option<String>, clock: f64| {
        let event = LiveEvent {
            id: ids.fetch_add(1, Ordering::Relaxed),
            kind: LiveEventKind::Action,
            state: EventState::Committed,
            t_s: clock,
            decided_s: clock,
            speaker: channel,
            holder: None,
            class: None,
            probability: None,
            refers_to: None,
            action: Some(action),
            warning: None,
            revised: false,
        };
        {
            // Folded and published under one lock, so a snapshot never overlaps the stream.
            let mut state = lock(&state_ref);
            state.apply(&event);
            if let Some(s) = server_ref {
                s.publish(&event);
            }
        }
        let _ = actions.send(event);
    };
    let apply = |cmds: Vec<Command>, levels: &mut Levels, clock: f64| {
        let mut changed = false;
        for c in cmds {
            match c {
                Command::Set { channel, level } => {
                    lock(&d.state).set_level(&channel, level);
                    levels.insert(channel, level);
                    changed = true;
                }
                Command::Cue { channel, text } => {
                    for tx in &cue_txs {
                        let _ = tx.try_send((channel.clone(), text.clone()));
                    }
                    emit(
                        LiveAction {
                            name: "cue".into(),
                            target: format!("rule: {text}"),
                            ok: true,
                            error: None,
                        },
                        channel,
                        clock,
                    );
                }
            }
        }
        if changed {
            wish_tx.send_replace(levels.clone());
        }
    };

    loop {
        tokio::select! {
            biased;
            _ = d.stop.notified() => break,
            event = d.events.recv() => match event {
                Ok(event) => {
                    last_event_wall = (event.decided_s, tokio::time::Instant::now());
                    let (cmds, clock) = {
                        // Folded and published under one lock (see `emit`).
                        let mut s = lock(&d.state);
                        s.apply(&event);
                        if let Some(server) = &d.server {
                            server.publish(&event);
                        }
                        let cmds = if stalled { Vec::new() } else { rule.on_event(&event, &s) };
                        (cmds, s.clock_s())
                    };
                    apply(cmds, &mut levels, clock);
                }
                Err(broadcast::error::RecvError::Lagged(n)) => {
                    let clock = lock(&d.state).clock_s();
                    emit(LiveAction { name: "lag".into(), target: "outputs".into(), ok: false,
                        error: Some(format!("{n} events missed: the outputs fell behind")) }, None, clock);
                }
                Err(broadcast::error::RecvError::Closed) => break,
            },
            report = reports.recv(), if reports_open => match report {
                Some((action, channel)) => {
                    let clock = lock(&d.state).clock_s();
                    emit(action, channel, clock);
                }
                None => reports_open = false,
            },
            op = d.operator.recv() => if let Some(op) = op {
                let cmds = rule.on_operator(op, &lock(&d.state));
                let clock = lock(&d.state).clock_s();
                apply(cmds, &mut levels, clock);
            },
            _ = tick.tick() => {
                let wall = tokio::time::Instant::now();
                let now = match &d.clock {
                    Some(c) => {
                        let v = *c.borrow();
                        if v > last_clock.0 {
                            last_clock = (v, wall);
                        }
                        v
                    }
                    // No clock: the events' own, run on in real time since the last one.
                    None => last_event_wall.0 + wall.duration_since(last_event_wall.1).as_secs_f64(),
                };
                let frozen = d.clock.is_some() && wall.duration_since(last_clock.1) >= d.config.watchdog;
                if frozen && !stalled {
                    stalled = true;
                    let cmds = rule.release_all();
                    let clock = lock(&d.state).clock_s();
                    // Reported only when it undoes something: a mute or a duck some actuator
                    // set (no actuator, or nothing closed, is no action).
                    let muted = levels.values().any(|l| !l.is_open());
                    if muted && !tasks.is_empty() {
                        emit(LiveAction { name: "watchdog".into(), target: "audio clock".into(), ok: false,
                            error: Some(format!("the audio clock stopped at {clock:.3} s: every mute released")) }, None, clock);
                    }
                    apply(cmds, &mut levels, clock);
                } else if !frozen {
                    stalled = false;
                    let cmds = {
                        let mut s = lock(&d.state);
                        s.advance(now);
                        rule.on_clock(now, &s)
                    };
                    apply(cmds, &mut levels, now);
                }
            }
        }
    }
    // The fail-safe: open everything, let the actuators apply it, then let them go.
    let clock = lock(&d.state).clock_s();
    let cmds = rule.release_all();
    apply(cmds, &mut levels, clock);
    drop(wish_tx);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(1);
    loop {
        tokio::select! {
            done = tasks.join_next() => if done.is_none() { break },
            report = reports.recv(), if reports_open => match report {
                Some((action, channel)) => emit(action, channel, clock),
                None => reports_open = false,
            },
            _ = tokio::time::sleep_until(deadline) => {
                // Past the deadline: drop the tasks, whose guards release synchronously.
                tasks.abort_all();
                while tasks.join_next().await.is_some() {}
                break;
            }
        }
    }
    while let Ok((action, channel)) = reports.try_recv() {
        emit(action, channel, clock);
    }
    if let Some(server) = d.server.take() {
        server.stop().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        outputs: OutputArgs,
    }

    async fn config(args: &[&str]) -> anyhow::Result<OutputsConfig> {
        let cli = Cli::try_parse_from(std::iter::once("live").chain(args.iter().copied()))?;
        cli.outputs.to_config(&["A".into(), "B".into()]).await
    }

    #[tokio::test]
    async fn the_flags_make_the_config_and_bad_ones_are_named() {
        let c = config(&[
            "--rule",
            "debate-mute",
            "--osc",
            "127.0.0.1:10023",
            "--osc-profile",
            "x32",
            "--osc-map",
            "A=1,B=2",
            "--serve",
            "--hold-ms",
            "2000",
        ])
        .await
        .unwrap();
        assert_eq!(c.rule, RuleKind::DebateMute);
        assert_eq!(c.params.hold_s, 2.0);
        let osc = c.osc.unwrap();
        assert_eq!(osc.target, "127.0.0.1:10023".parse().unwrap());
        assert_eq!(osc.map, BTreeMap::from([("A".into(), 1), ("B".into(), 2)]));
        assert_eq!(c.serve.unwrap().addr, DEFAULT_SERVE.parse().unwrap());
        assert_eq!(config(&[]).await.unwrap().rule, RuleKind::Alert);
        let err = |args: &'static [&'static str]| async move {
            config(args).await.unwrap_err().to_string()
        };
        assert_eq!(
            err(&["--osc", "127.0.0.1:10023", "--osc-profile", "x32"]).await,
            "--osc-profile x32 needs --osc-map NAME=CHANNEL,…"
        );
        assert_eq!(
            err(&["--rule", "allocated"]).await,
            "--rule allocated needs --slots or --serve (for POST /floor)"
        );
        assert_eq!(
            err(&["--rule", "allocated", "--slots", "A=0"]).await,
            "--slots: `0` for A is not a positive number of seconds"
        );
        assert_eq!(
            err(&["--serve", "0.0.0.0:8765"]).await,
            "--serve 0.0.0.0:8765: listening beyond loopback needs --token (state changes are \
             token-checked)"
        );
        assert_eq!(err(&["--obs", "http://x"]).await, "--obs http://x: expected ws://HOST:PORT");
        let c = config(&["--rule", "allocated", "--slots", "A=60,B=30"]).await.unwrap();
        assert_eq!(c.params.slots, vec![("A".to_string(), 60.0), ("B".to_string(), 30.0)]);
    }
}
