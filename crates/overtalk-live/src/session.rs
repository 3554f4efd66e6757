//! A live session: source → online detector → streaming analysis → [`LiveEvent`]s, published
//! on a bounded broadcast channel, written as JSON lines, and recorded at the end.
//!
//! ```text
//! Source ─blocks─► OnlineMultitrack ─edges─► AnalysisStream ─events─► Wire ─► broadcast
//!  (device or        (committed behind        (claims, onsets,                 (subscribe)
//!   replay thread)    a lookahead)             backchannels, overlaps)      ─► --events
//!                                                                          at the end ─► --record
//! ```
//!
//! Everything after the source runs on one thread of the session; subscribers that fall
//! behind lose the oldest events (tokio's `broadcast` reports how many: `Lagged(n)`), never
//! grow memory.
//!
//! ```no_run
//! # fn main() -> anyhow::Result<()> {
//! use overtalk_live::replay::{Pacing, Replay};
//! use overtalk_live::session::{Session, SessionConfig};
//!
//! let tracks = [("A".to_owned(), "a.wav".into()), ("B".to_owned(), "b.wav".into())];
//! let source = Replay::open(&tracks, 480, Pacing::Speed(1.0))?;
//! let session = Session::start(Box::new(source), SessionConfig::default())?;
//! let mut events = session.subscribe();
//! let stop = session.stop_handle(); // stop.stop() ends it early, record written
//! # drop(stop);
//! let summary = session.wait()?;
//! # let _ = (events.try_recv(), summary);
//! # Ok(()) }
//! ```

use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use overtalk::analysis::stream::{AnalysisStream, Heard, Pending, StreamEvent};
use overtalk::analysis::{Millis, Params, SpeakerIndex};
use overtalk::output::live::{EventState, LiveEvent};
use overtalk::Time;
use overtalk_audio::causal::{CausalMultitrack, CausalOptions, Undecided};
use overtalk_audio::multitrack::{annotation_from_regions, TrackWarning};
use overtalk_audio::online::{OnlineMultitrack, OnlineOptions, SpeechEdge};
use tokio::sync::broadcast;

use crate::music::{Edge, Found, MusicWatch};
use crate::record::{self, Recorded};
use crate::source::{Block, BlockSink, Source, SourceEnd, SourceMessage};
use crate::wire::Wire;

/// How a session runs.
pub struct SessionConfig {
    /// The analysis parameters (the rule book's defaults unless a preset or config says).
    pub params: Params,
    /// The preset name, for the record.
    pub preset: String,
    /// Which speech detector runs.
    pub detector: DetectorKind,
    /// How the windowed detector decides (`windowed`, `hybrid`).
    pub online: OnlineOptions,
    /// How the look-ahead detector's committed speech is decided (`lookahead`).
    pub lookahead: OnlineOptions,
    /// How the causal detector decides.
    pub causal: CausalOptions,
    /// Events a subscriber may fall behind before it loses the oldest.
    pub capacity: usize,
    /// Blocks the source may queue ahead of the detector (a device drops beyond it).
    pub queue_blocks: usize,
    /// Where to write one JSON line per event (`--events`), flushed per line.
    pub events_out: Option<Box<dyn Write + Send>>,
    /// The session's stop handle, when made before it (a stop asked before the session starts
    /// ends it at its first block, record written); a new one otherwise.
    pub stop: Option<StopHandle>,
    /// Opens where the events go (`--events FILE`) once the session can start — its record's
    /// directory checked, its detector and music meter set up, its source started — so that a
    /// session that cannot start leaves no events file behind (used when `events_out` is
    /// `None`).
    pub events_open: Option<EventsOpener>,
    /// Where to write the record at the end (`--record`).
    pub record: Option<PathBuf>,
    /// The recording id of the record.
    pub recording: String,
    /// Where to publish the audio clock (seconds of audio processed) after every block, for
    /// the outputs' watchdog: a clock that stops advancing releases every mute.
    pub clock: Option<tokio::sync::watch::Sender<f64>>,
    /// Revise at the end (`--revise`): decide the speech once more on the whole session (up
    /// to [`SessionConfig::lookahead`]'s window), as offline `detect` does, and correct the
    /// committed events ([`crate::revise`]). Always on with `--detector lookahead`, which
    /// holds that history anyway; the other detectors then also keep the features of the
    /// window (their extraction costs CPU; the rule runs once per window and at the end).
    pub revise: bool,
    /// Commit a backchannel tag or an onset's class before the speech up to its decision
    /// horizon is final, when every outcome of the edges the causal detector has heard but
    /// not committed gives it alike ([`AnalysisStream::speculate`]; the causal detector and
    /// the calibrated classifier only). The classes are the same, committed sooner, but an
    /// event so committed has no `probability` when the outcomes give different ones (off by
    /// default; `overtalk live --early-commits`).
    pub speculate: bool,
    /// Meter each track for music as offline `detect` does ([`crate::music`]), in the
    /// session's path, and warn once of a track whose speech so far sounds like music: a
    /// provisional `warning` event, committed or retracted at the end by the verdict on the
    /// track's whole speech, which goes into the record's analysis (on by default).
    pub music: bool,
    /// Also print each warning of the session on stderr, as `overtalk detect` words it
    /// (`overtalk: warning: …`), and, from [`crate::run_monitor`], the live page's address.
    pub warn_stderr: bool,
    /// What the session's input was warned of before it started (audio tracks of a replayed
    /// file left unread, [`crate::replay::Replay::warnings`]), for the record's analysis.
    pub notes: Vec<String>,
}

impl std::fmt::Debug for SessionConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SessionConfig")
            .field("preset", &self.preset)
            .field("detector", &self.detector)
            .field("online", &self.online)
            .field("lookahead", &self.lookahead)
            .field("causal", &self.causal)
            .field("capacity", &self.capacity)
            .field("events_out", &self.events_out.is_some())
            .field("events_open", &self.events_open.is_some())
            .field("record", &self.record)
            .field("revise", &self.revise)
            .field("speculate", &self.speculate)
            .field("music", &self.music)
            .field("notes", &self.notes)
            .finish_non_exhaustive()
    }
}

impl Default for SessionConfig {
    fn default() -> SessionConfig {
        SessionConfig {
            params: Params::default(),
            preset: "default".to_owned(),
            detector: DetectorKind::default(),
            online: OnlineOptions::default(),
            lookahead: OnlineOptions::lookahead(),
            causal: CausalOptions::default(),
            capacity: 4096,
            queue_blocks: 256,
            events_out: None,
            events_open: None,
            stop: None,
            record: None,
            recording: "live".to_owned(),
            clock: None,
            revise: false,
            speculate: false,
            music: true,
            warn_stderr: false,
            notes: Vec::new(),
        }
    }
}

/// Opens a session's events output ([`SessionConfig::events_open`]).
pub type EventsOpener = Box<dyn FnOnce() -> Result<Box<dyn Write + Send>> + Send>;

/// Which speech detector a session runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DetectorKind {
    /// [`CausalMultitrack`]: every 10 ms frame decided from the past alone; provisional
    /// starts one hop after the sound, commits after `min_speech` / `min_silence`.
    #[default]
    Causal,
    /// [`OnlineMultitrack`]: the offline rule re-decided on a trailing window, committed
    /// behind a lookahead.
    Windowed,
    /// Both: the causal detector's provisional edges (one hop after the sound) and the
    /// windowed detector's committed ones (its accuracy), at the CPU of both.
    Hybrid,
    /// The causal detector's provisional edges, and committed speech from the offline rule
    /// re-decided on everything heard so far (up to [`SessionConfig::lookahead`]'s window)
    /// once a bounded look-ahead has passed ([`OnlineOptions::lookahead`]: 2 s), so the
    /// committed speech converges on offline `detect`.
    Lookahead,
}

impl DetectorKind {
    /// Every kind, in order.
    pub const ALL: [DetectorKind; 4] = [
        DetectorKind::Causal,
        DetectorKind::Windowed,
        DetectorKind::Hybrid,
        DetectorKind::Lookahead,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            DetectorKind::Causal => "causal",
            DetectorKind::Windowed => "windowed",
            DetectorKind::Hybrid => "hybrid",
            DetectorKind::Lookahead => "lookahead",
        }
    }
}

impl std::fmt::Display for DetectorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for DetectorKind {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<DetectorKind, String> {
        DetectorKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| {
            format!("unknown detector {s:?} (causal, windowed, hybrid or lookahead)")
        })
    }
}

/// The detector of a running session.
#[derive(Debug)]
enum Detector {
    Causal(CausalMultitrack),
    Windowed(OnlineMultitrack),
    Hybrid(Box<(CausalMultitrack, OnlineMultitrack)>),
}

impl Detector {
    fn new(names: &[String], rate: u32, config: &SessionConfig) -> Result<Detector> {
        Ok(match config.detector {
            DetectorKind::Causal => {
                Detector::Causal(CausalMultitrack::new(names, rate, &config.causal)?)
            }
            DetectorKind::Windowed => {
                Detector::Windowed(OnlineMultitrack::new(names, rate, &config.online)?)
            }
            DetectorKind::Hybrid => Detector::Hybrid(Box::new((
                CausalMultitrack::new(names, rate, &config.causal)?,
                OnlineMultitrack::new(names, rate, &config.online)?,
            ))),
            DetectorKind::Lookahead => Detector::Hybrid(Box::new((
                CausalMultitrack::new(names, rate, &config.causal)?,
                OnlineMultitrack::new(names, rate, &config.lookahead)?,
            ))),
        })
    }

    fn push(&mut self, block: &[&[f32]]) -> Result<Vec<SpeechEdge>> {
        Ok(match self {
            Detector::Causal(d) => d.push(block)?,
            Detector::Windowed(d) => d.push(block)?,
            Detector::Hybrid(both) => hybrid(both.0.push(block)?, both.1.push(block)?),
        })
    }

    fn clock(&self) -> Time {
        match self {
            Detector::Causal(d) => d.clock(),
            Detector::Windowed(d) => d.clock(),
            Detector::Hybrid(both) => both.1.clock(),
        }
    }

    fn committed(&self) -> Time {
        match self {
            Detector::Causal(d) => d.committed(),
            Detector::Windowed(d) => d.committed(),
            Detector::Hybrid(both) => both.1.committed(),
        }
    }

    /// What the causal detector has heard past its committed clock, in the stream's speaker
    /// indices (`None` for the other detectors, whose commits lag by seconds).
    fn heard(&self, stream_of: &[usize]) -> Option<Heard> {
        let Detector::Causal(d) = self else { return None };
        let u = d.unreleased();
        let ms = |t: Time| Millis::new(t.micros() / 1000);
        let speaker = |track: usize| SpeakerIndex::new(stream_of[track]);
        Some(Heard {
            until: ms(u.until),
            edges: u.edges.iter().map(|e| (speaker(e.track), ms(e.time), e.speaking)).collect(),
            pending: u
                .undecided
                .iter()
                .map(|&(track, p)| {
                    let p = match p {
                        Undecided::Pause { at, quiet } => {
                            Pending::Pause { at: ms(at), quiet: ms(quiet) }
                        }
                        Undecided::Start(t) => Pending::Start(ms(t)),
                    };
                    (speaker(track), p)
                })
                .collect(),
        })
    }

    /// The last edges, the committed speech per channel and, with `revise`, the speech
    /// decided once more on everything held (the look-ahead detector's revision).
    fn finish(self, revise: bool) -> Result<Finish> {
        Ok(match self {
            Detector::Causal(d) => {
                let (edges, regions) = d.finish()?;
                (edges, regions, None)
            }
            Detector::Windowed(d) => {
                let (edges, regions) = d.finish()?;
                (edges, regions, None)
            }
            Detector::Hybrid(both) => {
                let (c, w) = *both;
                let causal = c.finish()?.0;
                if revise {
                    let f = w.finish_revised()?;
                    (hybrid(causal, f.edges), f.regions, Some((f.revised, f.revised_from)))
                } else {
                    let (edges, regions) = w.finish()?;
                    (hybrid(causal, edges), regions, None)
                }
            }
        })
    }
}

/// A session's detector and, when it revises at the end and keeps no history of its own, the
/// history it revises from: the rule of [`SessionConfig::lookahead`] fed the same blocks,
/// deciding only once per window (to bound what it holds) and at the end.
struct Detecting {
    detector: Detector,
    history: Option<Box<OnlineMultitrack>>,
    /// Whether the detector revises from its own history (`lookahead`).
    own: bool,
}

impl Detecting {
    fn new(names: &[String], rate: u32, config: &SessionConfig) -> Result<Detecting> {
        let detector = Detector::new(names, rate, config)?;
        let own = config.detector == DetectorKind::Lookahead;
        let history = if config.revise && !own {
            let o = OnlineOptions { redecide: config.lookahead.window, ..config.lookahead.clone() };
            Some(Box::new(OnlineMultitrack::new(names, rate, &o)?))
        } else {
            None
        };
        Ok(Detecting { detector, history, own })
    }

    fn push(&mut self, block: &[&[f32]]) -> Result<Vec<SpeechEdge>> {
        if let Some(h) = &mut self.history {
            // Only its features and its revision at the end are used.
            h.push(block)?;
        }
        self.detector.push(block)
    }

    fn finish(self) -> Result<Finish> {
        let (edges, regions, own) = self.detector.finish(self.own)?;
        let revised = match self.history {
            Some(h) => {
                let f = h.finish_revised()?;
                Some((f.revised, f.revised_from))
            }
            None => own,
        };
        Ok((edges, regions, revised))
    }
}

/// What [`Detector::finish`] gives: the last edges, the committed speech per channel, and the
/// revised speech with the time it starts from.
type Finish = (Vec<SpeechEdge>, Vec<overtalk::Region>, Option<(Vec<overtalk::Region>, Time)>);

/// The hybrid detector's edges: the causal one's provisional, the windowed one's committed.
fn hybrid(causal: Vec<SpeechEdge>, windowed: Vec<SpeechEdge>) -> Vec<SpeechEdge> {
    let provisional = overtalk_audio::online::EdgeState::Provisional;
    causal
        .into_iter()
        .filter(|e| e.state == provisional)
        .chain(windowed.into_iter().filter(|e| e.state != provisional))
        .collect()
}

/// Stops a session from anywhere (Ctrl-C, a web request); cloneable. Made before the session
/// ([`SessionConfig::stop`]), it can be handed to [`stop_on_signal`] before anything starts.
#[derive(Clone, Debug, Default)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    /// A handle not stopped yet.
    pub fn new() -> StopHandle {
        StopHandle::default()
    }

    /// Asks the source to stop; the session then finishes and writes its record.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// What a finished session did.
#[derive(Debug)]
pub struct SessionSummary {
    /// Why the source ended.
    pub end: SourceEnd,
    /// Audio processed, in seconds of the audio clock.
    pub audio_s: f64,
    /// Wall-clock seconds the session ran.
    pub wall_s: f64,
    /// Blocks the source dropped because the session fell behind (a device only).
    pub dropped_blocks: u64,
    /// Every event published, in order.
    pub events: Vec<LiveEvent>,
    /// The committed analysis-stream events (analysis milliseconds, stream speaker indices in
    /// name order), for checks against the offline analysis.
    pub stream_events: Vec<StreamEvent>,
    /// Per event id: the wall-clock seconds at which it was published, since the session
    /// started its source (the replay's clock starts after that, so a latency taken against
    /// it is never too short).
    pub wall_at: Vec<f64>,
    /// The speech found per speaker, as an annotation: the revised speech when the session
    /// revised it at the end (`revision`), else the committed speech.
    pub annotation: overtalk::Annotation,
    /// The speech as committed during the session, before any revision.
    pub committed_annotation: overtalk::Annotation,
    /// What the end-of-session revision changed (`--revise`, `--detector lookahead`), when
    /// it ran.
    pub revision: Option<RevisionSummary>,
    /// The record's files, when `--record` was given.
    pub recorded: Option<Recorded>,
    /// Early-commit checks ([`SessionConfig::speculate`]) given edges the analysis stream
    /// refused ([`AnalysisStream::speculation_errors`]): zero unless the detector's report of
    /// its undecided edges is wrong. Those checks committed nothing early.
    pub speculation_errors: u64,
    /// Why the session ended early on an error of its own (the detector, the analysis stream,
    /// the revision at the end), when it did: it then ended as a stop ends it, the record
    /// written from what was decided up to the error, with this reason among its warnings.
    pub failure: Option<String>,
    /// Why the events output (`--events`) failed and was closed, when it did: said on stderr
    /// when it happened; detection and the record went on.
    pub events_error: Option<String>,
}

/// What the end-of-session revision changed (see [`crate::revise`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RevisionSummary {
    /// The audio time the revision starts at: earlier frames had left the detector's window
    /// and kept their committed state (0 when the whole session was revised).
    pub from_s: f64,
    /// Committed events it retracted.
    pub retracted: usize,
    /// Committed events it added.
    pub added: usize,
}

/// A running session.
#[derive(Debug)]
pub struct Session {
    names: Vec<String>,
    events: broadcast::Sender<LiveEvent>,
    stop: StopHandle,
    thread: JoinHandle<Result<SessionSummary>>,
}

impl Session {
    /// Starts the source and the session's thread.
    pub fn start(source: Box<dyn Source>, config: SessionConfig) -> Result<Session> {
        Session::start_subscribed(source, config).map(|(session, _)| session)
    }

    /// [`Session::start`], with a receiver subscribed before the first block is read, so it
    /// misses no event (a later [`Session::subscribe`] sees only what follows it).
    pub fn start_subscribed(
        source: Box<dyn Source>,
        mut config: SessionConfig,
    ) -> Result<(Session, broadcast::Receiver<LiveEvent>)> {
        let names = source.names().to_vec();
        let offsets = source.offsets();
        // The recordings as `detect` names them in its warnings (a device has none: its name).
        let mut sources: Vec<String> =
            source.files().iter().map(|p| p.display().to_string()).collect();
        if sources.is_empty() {
            sources.push("the input".to_owned());
        }
        if let Some(dir) = &config.record {
            // Before any audio: a record that cannot be written would lose the whole session.
            record::prepare(dir)?;
        }
        let detector = Detecting::new(&names, source.rate(), &config)?;
        let music = if config.music {
            Some(MusicWatch::start(&names, source.rate(), source.files())?)
        } else {
            None
        };
        let stop = config.stop.take().unwrap_or_default();
        let (sink, rx, dropped) =
            BlockSink::new(config.queue_blocks, source.lossless(), stop.0.clone());
        let (events, first) = broadcast::channel(config.capacity.max(1));
        // The wall clock of the events starts with the source, not with the session's thread.
        let started = Instant::now();
        let mut running = source.start(sink)?;
        if let Some(open) = config.events_open.take() {
            match open() {
                Ok(out) => config.events_out = Some(out),
                Err(e) => {
                    running.stop();
                    return Err(e);
                }
            }
        }
        let tx = events.clone();
        let stop_flag = stop.0.clone();
        let thread_names = names.clone();
        let thread =
            std::thread::Builder::new().name("overtalk-session".into()).spawn(move || {
                let out = run(
                    thread_names,
                    &sources,
                    &offsets,
                    detector,
                    music,
                    rx,
                    config,
                    tx,
                    stop_flag,
                    dropped,
                    started,
                );
                running.stop();
                out
            })?;
        Ok((Session { names, events, stop, thread }, first))
    }

    /// The speaker names, one per channel.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// A receiver of every event published from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<LiveEvent> {
        self.events.subscribe()
    }

    /// A handle that stops the session.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// Whether the session's thread has ended.
    pub fn is_finished(&self) -> bool {
        self.thread.is_finished()
    }

    /// Waits for the end (the source ended or vanished, or a stop) and returns the summary.
    /// Blocking: from async code, call it in `tokio::task::spawn_blocking`.
    pub fn wait(self) -> Result<SessionSummary> {
        self.thread.join().map_err(|_| anyhow!("the live session's thread panicked"))?
    }
}

/// Speaker indices of the analysis in name order (as the offline analysis numbers them).
fn name_order(names: &[String]) -> (Vec<usize>, Vec<usize>) {
    let mut by_name: Vec<usize> = (0..names.len()).collect();
    by_name.sort_by(|&a, &b| names[a].as_bytes().cmp(names[b].as_bytes()));
    let mut stream_of = vec![0; names.len()];
    for (s, &c) in by_name.iter().enumerate() {
        stream_of[c] = s;
    }
    (stream_of, by_name)
}

struct Publisher {
    tx: broadcast::Sender<LiveEvent>,
    out: Option<Box<dyn Write + Send>>,
    start: Instant,
    events: Vec<LiveEvent>,
    wall_at: Vec<f64>,
    write_error: Option<String>,
}

impl Publisher {
    fn publish(&mut self, batch: &mut Vec<LiveEvent>) {
        let wall = self.start.elapsed().as_secs_f64();
        for e in batch.drain(..) {
            if let Some(out) = self.out.as_mut() {
                if let Err(err) = e.write_line(out.as_mut()).and_then(|()| out.flush()) {
                    // A closed pipe or a full disk stops the event file, not the session:
                    // said once, now, while the session goes on.
                    let why = format!("at {:.2} s of audio: {err}", e.decided_s);
                    eprintln!(
                        "overtalk live: the events output failed {why}; it is closed, and \
                         detection, the actuators and the record go on"
                    );
                    self.write_error = Some(why);
                    self.out = None;
                }
            }
            // No subscriber is not an error.
            let _ = self.tx.send(e.clone());
            self.wall_at.push(wall);
            self.events.push(e);
        }
    }
}

#[allow(clippy::too_many_arguments)] // the session thread's whole state, handed over once
fn run(
    names: Vec<String>,
    sources: &[String],
    offsets: &[overtalk::Delta],
    mut detector: Detecting,
    mut music: Option<MusicWatch>,
    rx: Receiver<SourceMessage>,
    mut config: SessionConfig,
    tx: broadcast::Sender<LiveEvent>,
    stop: Arc<AtomicBool>,
    dropped: Arc<AtomicU64>,
    started: Instant,
) -> Result<SessionSummary> {
    let (stream_of, by_name) = name_order(&names);
    let mut stream = AnalysisStream::new(names.len(), &config.params)?;
    let mut wire = Wire::new(names.clone(), by_name.clone());
    if matches!(config.detector, DetectorKind::Hybrid | DetectorKind::Lookahead) {
        // The committed edges lag the causal provisional ones by the windowed look-ahead.
        wire.lagging(config.causal.min_silence.micros() as f64 / 1e6);
    }
    if matches!(config.detector, DetectorKind::Causal) {
        // The causal rule withdraws a provisional start by an end at its time.
        wire.withdrawals_at_start();
    }
    let mut publisher = Publisher {
        tx,
        out: config.events_out.take(),
        start: started,
        events: Vec::new(),
        wall_at: Vec::new(),
        write_error: None,
    };
    let mut stream_events = Vec::new();
    let mut batch = Vec::new();
    let warn_stderr = config.warn_stderr;
    let mut notes = std::mem::take(&mut config.notes);
    let mut music_warned: Vec<Option<u64>> = vec![None; names.len()];
    let mut feed = |edges: Vec<SpeechEdge>,
                    committed: Option<Time>,
                    heard: Option<Heard>,
                    clock: Time,
                    music_notes: Vec<MusicNote>,
                    stream: &mut AnalysisStream,
                    batch: &mut Vec<LiveEvent>,
                    stream_events: &mut Vec<StreamEvent>|
     -> Result<()> {
        let decided_s = clock.micros() as f64 / 1e6;
        let mut committed_edges: Vec<&SpeechEdge> = edges
            .iter()
            .filter(|e| e.state == overtalk_audio::online::EdgeState::Committed)
            .collect();
        committed_edges.sort_by_key(|e| (e.time, e.speaking));
        for e in &edges {
            wire.edge(e, batch);
        }
        // At the end everything is committed: what no committed edge confirmed is retracted.
        let final_s = committed.map_or(f64::INFINITY, |t| t.micros() as f64 / 1e6);
        wire.commit_clock(final_s, decided_s, batch);
        for e in committed_edges {
            let ms = Millis::new(e.time.micros() / 1000);
            let s = SpeakerIndex::new(stream_of[e.track]);
            if e.speaking {
                stream.speech_start(s, ms)?;
            } else {
                stream.speech_end(s, ms)?;
            }
        }
        let mut decided = match committed {
            Some(t) => stream.advance(Millis::new(t.micros() / 1000))?,
            None => stream.finish(Millis::new(clock.micros() / 1000))?,
        };
        if let Some(heard) = heard {
            decided.extend(stream.speculate(&heard));
        }
        for d in &decided {
            wire.stream(d, decided_s, batch);
        }
        stream_events.extend(decided.into_iter().filter(StreamEvent::is_committed));
        // Music on a track: a provisional warning when a judgement first finds it (and its
        // line on stderr), committed or retracted at the end by the whole speech's verdict.
        for note in music_notes {
            match note {
                MusicNote::Found(f) => {
                    let message = f.warning.to_string();
                    if warn_stderr {
                        eprintln!("overtalk: warning: {message}");
                    }
                    let ev = wire.warning(
                        &names[f.track],
                        "music",
                        message,
                        f.until_s,
                        decided_s,
                        EventState::Provisional,
                        None,
                    );
                    music_warned[f.track] = Some(ev.id);
                    batch.push(ev);
                }
                MusicNote::End { track, warning } => {
                    let name = &names[track];
                    let warned = music_warned[track];
                    // The end verdict commits the warning (or names the track for the first
                    // time), or retracts a provisional one the whole speech does not confirm.
                    let verdict = match (warned, warning) {
                        (_, Some(w)) => {
                            let message = w.to_string();
                            if warn_stderr && warned.is_none() {
                                eprintln!("overtalk: warning: {message}");
                            }
                            Some((message, EventState::Committed))
                        }
                        (Some(_), None) => {
                            let message =
                                format!("track {name}'s whole speech does not sound like music");
                            if warn_stderr {
                                eprintln!("overtalk: warning withdrawn: {message}");
                            }
                            Some((message, EventState::Retracted))
                        }
                        (None, None) => None,
                    };
                    if let Some((message, state)) = verdict {
                        batch.push(
                            wire.warning(
                                name, "music", message, decided_s, decided_s, state, warned,
                            ),
                        );
                    }
                }
            }
        }
        Ok(())
    };
    // An error of the detector or the analysis stream ends the session as a stop does: the
    // source stopped, every mute released by the outputs, the record written from what was
    // decided up to it; the error is kept for the caller.
    let mut failure: Option<anyhow::Error> = None;
    // The committed speech as it comes, for a record when the detector cannot finish.
    let mut committed_speech = CommittedSpeech::new(names.len());
    let end = loop {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(SourceMessage::Block(b)) => {
                let slices: Vec<&[f32]> = b.channels.iter().map(Vec::as_slice).collect();
                let edges = match detector.push(&slices) {
                    Ok(edges) => edges,
                    Err(e) => {
                        failure = Some(e.context("speech detection"));
                        break SourceEnd::Stopped;
                    }
                };
                drop(slices);
                committed_speech.push(&edges);
                let committed = detector.detector.committed();
                let heard = config.speculate.then(|| detector.detector.heard(&stream_of)).flatten();
                if let Some(clock) = &config.clock {
                    clock.send_replace(detector.detector.clock().micros() as f64 / 1e6);
                }
                // The meter takes the block in the session's path: what it finds, and where
                // its warning falls among the events, depend on the audio alone.
                let found = meter(&mut music, &b, &committed_edges(&edges), secs(committed));
                let fed = feed(
                    edges,
                    Some(committed),
                    heard,
                    detector.detector.clock(),
                    found.into_iter().map(MusicNote::Found).collect(),
                    &mut stream,
                    &mut batch,
                    &mut stream_events,
                );
                publisher.publish(&mut batch);
                if let Err(e) = fed {
                    failure = Some(e.context("the analysis of the committed speech"));
                    break SourceEnd::Stopped;
                }
            }
            Ok(SourceMessage::Warnings(warnings)) => {
                // Said as `overtalk detect` says them, and kept for the record.
                for w in warnings {
                    let message = w.to_string();
                    if warn_stderr {
                        eprintln!("overtalk: warning: {message}");
                    }
                    notes.push(message);
                }
            }
            Ok(SourceMessage::End(why)) => break why,
            Err(RecvTimeoutError::Timeout) => {
                if stop.load(Ordering::Relaxed) {
                    // The source did not confirm in time; end without it.
                    break SourceEnd::Stopped;
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                break SourceEnd::Vanished("the source stopped without a word".to_owned())
            }
        }
    };
    if failure.is_some() {
        // The source stops with the session (a device at once, a replay at its next block).
        stop.store(true, Ordering::Relaxed);
    }
    let clock = detector.detector.clock();
    let committed_clock = detector.detector.committed();
    let (edges, regions, revised) = match detector.finish() {
        Ok(finished) => finished,
        Err(e) => {
            // The speech committed before the error, ended where the detector had committed.
            let regions = committed_speech.regions(committed_clock);
            failure.get_or_insert(e.context("finishing the speech detection"));
            (Vec::new(), regions, None)
        }
    };
    let ends = match music {
        // A meter that failed costs its warnings, not the session's record.
        Some(m) => m.finish(&committed_edges(&edges), secs(clock)).unwrap_or_else(|e| {
            eprintln!("overtalk live: the music meter failed: {e:#}");
            Vec::new()
        }),
        None => Vec::new(),
    };
    notes.extend(ends.iter().flatten().map(ToString::to_string));
    let ends = ends.into_iter().enumerate();
    let ends = ends.map(|(track, warning)| MusicNote::End { track, warning }).collect();
    if let Err(e) =
        feed(edges, None, None, clock, ends, &mut stream, &mut batch, &mut stream_events)
    {
        // The record is the detector's speech; what the stream could not finish is said.
        let e = e.context("the analysis of the committed speech");
        match &failure {
            Some(_) => eprintln!("overtalk live: after the error, also: {e:#}"),
            None => failure = Some(e),
        }
    }
    let speculation_errors = stream.speculation_errors();
    publisher.publish(&mut batch);
    let annotation_of = |regions: Vec<overtalk::Region>| {
        annotation_from_regions(names.iter().map(String::as_str).zip(regions))
    };
    let committed_annotation = annotation_of(regions.clone());
    let (annotation, revision) = match revised {
        None => (committed_annotation.clone(), None),
        Some((revised, from)) => {
            let mut summary =
                RevisionSummary { from_s: from.micros() as f64 / 1e6, retracted: 0, added: 0 };
            if revised == regions {
                (committed_annotation.clone(), Some(summary))
            } else {
                match crate::revise::revise(
                    &names,
                    &stream_of,
                    &by_name,
                    &config.params,
                    &revised,
                    clock,
                    &publisher.events,
                    &mut wire,
                ) {
                    Ok(r) => {
                        let mut events = r.events;
                        summary.retracted =
                            events.iter().filter(|e| e.state == EventState::Retracted).count();
                        summary.added = events.len() - summary.retracted;
                        publisher.publish(&mut events);
                        stream_events = r.stream_events;
                        (annotation_of(revised), Some(summary))
                    }
                    Err(e) => {
                        // The record is then the speech as committed.
                        failure.get_or_insert(e.context("revising the speech at the end"));
                        (committed_annotation.clone(), None)
                    }
                }
            }
        }
    };
    // How the record's speakers were found, for its report.
    let detection = match &revision {
        Some(r) if r.from_s > 0.0 => format!(
            "live multitrack detection ({} detector), decided again at the end on the last \
             {:.0} s as offline overtalk detect decides it (earlier audio as committed live)",
            config.detector.name(),
            clock.micros() as f64 / 1e6 - r.from_s
        ),
        Some(_) => format!(
            "live multitrack detection ({} detector), decided again at the end on the whole \
             session as offline overtalk detect decides it",
            config.detector.name()
        ),
        None => format!("live multitrack detection ({} detector)", config.detector.name()),
    };
    // Speech not found (nobody, or a speaker), said as `detect` says it, on stderr and in the
    // record: an empty RTTM is not a result about people.
    let silence = {
        // The session's speech, over the length of audio heard (the length `detect` names).
        let mut t = overtalk::TranscriptBuilder::new();
        let ids: Vec<_> = annotation.speakers().iter().map(|(_, name)| t.speaker(name)).collect();
        for track in annotation.tracks() {
            t.push(track.segment, ids[track.speaker.index()], None);
        }
        t.extent(overtalk::Segment::new(Time::ZERO, clock));
        overtalk_audio::pipeline::silence_warnings(&t.build(), sources)
    };
    if config.warn_stderr {
        for w in &silence {
            eprintln!("overtalk: warning: {w}");
        }
    }
    notes.extend(silence);
    let failure = failure.map(|e| format!("at {:.2} s of audio: {e:#}", secs(clock)));
    if let Some(why) = &failure {
        // In the record's warnings: its speech stops there, not where the audio did.
        notes.push(format!(
            "the live session ended early on an error {why}; the record holds the speech \
             decided up to it"
        ));
    }
    // The tracks moved onto the session clock, named as `overtalk detect` names them.
    let placed: Vec<(&str, overtalk::Delta)> =
        names.iter().map(String::as_str).zip(offsets.iter().copied()).collect();
    let detection = match overtalk_audio::pipeline::offsets_description(&placed) {
        Some(moved) => format!("{detection}; offsets {moved}"),
        None => detection,
    };
    let recorded = match &config.record {
        Some(dir) => Some(record::write(
            dir,
            &config.recording,
            annotation.clone(),
            &config.params,
            &config.preset,
            &detection,
            &notes,
        )?),
        None => None,
    };
    Ok(SessionSummary {
        end,
        audio_s: clock.micros() as f64 / 1e6,
        wall_s: publisher.start.elapsed().as_secs_f64(),
        dropped_blocks: dropped.load(Ordering::Relaxed),
        events: publisher.events,
        stream_events,
        wall_at: publisher.wall_at,
        annotation,
        committed_annotation,
        revision,
        recorded,
        speculation_errors,
        failure,
        events_error: publisher.write_error,
    })
}

/// The committed speech of each track as its committed edges give it, kept as the session
/// runs: the record when the detector fails and cannot finish.
struct CommittedSpeech {
    /// Per track: where its open speech started, if it speaks.
    open: Vec<Option<Time>>,
    /// Per track: its speech ended so far, in order.
    done: Vec<Vec<overtalk::Segment>>,
}

impl CommittedSpeech {
    fn new(tracks: usize) -> CommittedSpeech {
        CommittedSpeech { open: vec![None; tracks], done: vec![Vec::new(); tracks] }
    }

    fn push(&mut self, edges: &[SpeechEdge]) {
        let committed = overtalk_audio::online::EdgeState::Committed;
        let tracks = self.open.len();
        for e in edges.iter().filter(|e| e.state == committed && e.track < tracks) {
            match (e.speaking, self.open[e.track]) {
                (true, None) => self.open[e.track] = Some(e.time),
                (false, Some(start)) => {
                    self.open[e.track] = None;
                    self.done[e.track].extend(overtalk::Segment::new(start, e.time));
                }
                _ => {}
            }
        }
    }

    /// Each track's speech, what is still open ended at `until`.
    fn regions(&self, until: Time) -> Vec<overtalk::Region> {
        self.done
            .iter()
            .zip(&self.open)
            .map(|(done, open)| {
                let last = open.and_then(|start| overtalk::Segment::new(start, until));
                overtalk::Region::from_segments(done.iter().copied().chain(last))
            })
            .collect()
    }
}

/// Seconds of a time on the session clock.
fn secs(t: Time) -> f64 {
    t.micros() as f64 / 1e6
}

/// What the music meter tells the events: a track found to sound like music as the session
/// runs, or the verdict on a track's whole speech at its end (its warning where it sounds
/// like music).
enum MusicNote {
    Found(Found),
    End { track: usize, warning: Option<TrackWarning> },
}

/// Meters a block (`music` the session's meter, if any); a meter that fails says why on
/// stderr and stops, costing its warnings, not the session.
fn meter(
    music: &mut Option<MusicWatch>,
    block: &Block,
    edges: &[Edge],
    committed_s: f64,
) -> Vec<Found> {
    let Some(m) = music else { return Vec::new() };
    m.feed(block, edges, committed_s).unwrap_or_else(|e| {
        eprintln!("overtalk live: the music meter failed: {e:#}");
        *music = None;
        Vec::new()
    })
}

/// The committed edges among `edges`, for the music meter.
fn committed_edges(edges: &[SpeechEdge]) -> Vec<Edge> {
    edges
        .iter()
        .filter(|e| e.state == overtalk_audio::online::EdgeState::Committed)
        .map(|e| Edge { track: e.track, t_s: secs(e.time), speaking: e.speaking })
        .collect()
}

/// Stops the session on Ctrl-C (SIGINT) or, on Unix, SIGTERM (what `kill`, systemd and
/// `docker stop` send) or SIGHUP (the terminal closed, the SSH connection dropped): a thread
/// of its own waits for them, so the session ends as at the end of its source — every mute
/// released, the record written — instead of the process dying with the mixer's channels
/// muted and nothing recorded. A second signal while the session finishes ends the process at
/// once, as the signal would have (status 130, 143 or 129), after opening every channel still
/// held ([`crate::failsafe::exit`], within a second) and removing the temporary file of a
/// record being written. Returns at once.
///
/// A signal the process was started with ignored stays ignored (`nohup` ignores SIGHUP, a
/// script's `cmd &` SIGINT): what is ignored is read from `/proc/self/status` (Linux). Where
/// that cannot be read, SIGINT and SIGTERM are taken and SIGHUP is left alone, so a `nohup`
/// session outlives its terminal; there a SIGHUP kills the session with its mutes held.
pub fn stop_on_signal(stop: &StopHandle) -> Result<()> {
    crate::failsafe::install_panic_hook();
    let stop = stop.clone();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(&'static str, i32)>();
    // Registered here, before the session starts, so that a signal that comes at once ends
    // the session as a later one does instead of killing the process with its default action
    // (`tokio::signal::ctrl_c` would only register when the thread first polls it).
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let _entered = runtime.enter();
        let ignored = overtalk::atomic::ignored_signals();
        for (kind, number, name, status) in [
            (SignalKind::interrupt(), 2, "Ctrl-C", 130),
            (SignalKind::terminate(), 15, "SIGTERM", 143),
            (SignalKind::hangup(), 1, "SIGHUP", 129),
        ] {
            let take = match ignored {
                Some(mask) => mask & (1 << (number - 1)) == 0,
                None => number != 1,
            };
            if !take {
                continue;
            }
            let mut s = signal(kind)?;
            let tx = tx.clone();
            runtime.spawn(async move {
                while s.recv().await.is_some() {
                    if tx.send((name, status)).is_err() {
                        break;
                    }
                }
            });
        }
    }
    #[cfg(not(unix))]
    {
        let tx = tx.clone();
        runtime.spawn(async move {
            while tokio::signal::ctrl_c().await.is_ok() {
                if tx.send(("Ctrl-C", 130)).is_err() {
                    break;
                }
            }
        });
    }
    drop(tx);
    std::thread::Builder::new().name("overtalk-signal".into()).spawn(move || {
        runtime.block_on(async {
            let mut round = 0;
            while let Some((name, status)) = rx.recv().await {
                // The crate's `eprintln!`: after SIGHUP the terminal may be gone, and a failed
                // write must not end this thread.
                if round > 0 {
                    eprintln!(
                        "overtalk live: {name} again: releasing every mute and exiting without \
                         finishing the session"
                    );
                    // Held until the process ends: a record half written leaves no hidden file.
                    let _held = overtalk::atomic::remove_unfinished();
                    crate::failsafe::exit(status);
                }
                round += 1;
                eprintln!("overtalk live: stopping on {name} (the record is written before exit)");
                stop.stop();
            }
        });
    })?;
    Ok(())
}
