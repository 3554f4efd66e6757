//! The analysis as events in time order: speech edges go in as they happen, talkspurts, joint
//! pieces, backchannel tags, floor claims and classified onsets come out as soon as the rule
//! book's evidence for them is in, each stamped with the time it was decided.
//!
//! ```text
//! edges in   A start 0 ─────────── A end 5000          A start 6500 ── A end 9000
//!                     B start 4000 ──────── B end 6000
//! out        A spurt start @0                 (provisional: its end is not known)
//!            onset B @4000 (provisional)      decided 4000
//!            claim A@0                        decided 1     (no holder yet)
//!            spurt A [0,5000)                 decided 5200  (bridge_pause of silence)
//!            claim B@5000                     decided 5500  (B alone min_floor_solo)
//!            onset B @4000 interruption,
//!                  floor_taken                decided once B's talkspurt and every
//!                                             talkspurt it could meet are closed
//! ```
//!
//! Every committed event equals what [`super::analyze`] reports for the whole recording
//! (timing-only input: no words): the talkspurts with their backchannel tags, the acoustic joint
//! timeline (overlaps are its pieces with two or more speakers), the floor claims, and the
//! onsets with class and outcome. A property test checks this on random conversations.
//!
//! When a decision can be taken, for each stage:
//!
//! - a talkspurt *starts* at its first segment start, and *ends* once `bridge_pause` of silence
//!   has followed its last segment (S2: a shorter silence would have been bridged);
//! - a joint piece is final once every talkspurt touching it is;
//! - a talkspurt is *floor-relevant* (not a backchannel, S5) as soon as it has lasted beyond
//!   `bc_max_duration`, or started without the silence or the context a backchannel needs; it
//!   is a backchannel only once `max(bc_post_silence, bc_resume_window)` has passed after its
//!   end;
//! - claims come from the incremental [`FloorTracker`], fed with the floor-relevant
//!   talkspurts in time order up to the first one whose status is open;
//! - an onset is classified once its talkspurt and every floor-relevant talkspurt starting
//!   before its end are closed, the talkspurts within `simul_start_tol` of it are known, and
//!   the tracker has decided every claim up to the latest of their ends.
//!
//! With the calibrated classifier (`params.classifier`, a bounded `decision_horizon` H), S5′
//! replaces S5 and S8′ relabels S8, as [`super::analyze`] does: a talkspurt's backchannel tag
//! and an onset's [`StreamEventKind::OnsetDecision`] are taken once the clock is past its
//! start + H and no talkspurt that stopped by then can still be bridged (for an onset, also
//! once the holder at its start and the simultaneous starts are decided). Every feature reads
//! the speech up to start + H only (the last minute's talk counts a talkspurt still running
//! then up to there), so the stream's decisions are the batch analysis's at every horizon.
//! Behind a detector that holds its commits at edges it may still take back (a pause it may
//! bridge, a run it may drop), [`AnalysisStream::speculate`] takes such a decision sooner when
//! every outcome of those edges gives it the same label.
//!
//! Times are analysis milliseconds; speakers are the caller's indices.

use std::collections::BTreeSet;

use super::calibrated::Calibrated;
use super::floor::{Claim, FloorTracker};
use super::joint::joint_timeline;
use super::onsets::{classify, OnsetClass, OnsetRec, Outcome};
use super::params::{Classifier, Params};
use super::shared::Shared;
use super::talkspurt::Talkspurt;
use super::units::{Millis, SpeakerIndex};
use crate::error::{Error, Result};

/// What a [`StreamEvent`] reports.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamEventKind {
    /// A talkspurt began (its end is not known yet). `time` is its start.
    TalkspurtStart {
        /// The stream's id of the talkspurt (in order of creation).
        spurt: usize,
        /// Its speaker.
        speaker: SpeakerIndex,
    },
    /// A talkspurt is final: `[start, end)`, with its backchannel tag still to come
    /// ([`StreamEventKind::Floor`]). `time` is its end.
    TalkspurtEnd {
        /// The talkspurt.
        spurt: usize,
        /// Its speaker.
        speaker: SpeakerIndex,
        /// Its start.
        start: Millis,
    },
    /// S5 decided whether a talkspurt is floor-relevant or a backchannel. `time` is its start.
    Floor {
        /// The talkspurt.
        spurt: usize,
        /// Its speaker.
        speaker: SpeakerIndex,
        /// Tagged as a backchannel.
        backchannel: bool,
        /// The calibrated classifier's probability that it is a backchannel (`None` under
        /// the rules, and for a tag [`AnalysisStream::speculate`] committed early when the
        /// possible futures give it different probabilities).
        probability: Option<f64>,
    },
    /// A piece of the acoustic joint timeline, final. `time` is its start.
    Piece {
        /// Its end.
        end: Millis,
        /// The speakers talking in it, ascending (two or more: an overlap).
        active: Vec<SpeakerIndex>,
    },
    /// A talkspurt began while someone else held the floor as far as known (or before anyone
    /// did): an onset to be classified. Provisional: it is later followed by
    /// [`StreamEventKind::Onset`], or by [`StreamEventKind::NotAnOnset`]. `time` is its start.
    ProvisionalOnset {
        /// The talkspurt.
        spurt: usize,
        /// Its speaker.
        speaker: SpeakerIndex,
        /// The holder as far as decided when it started.
        holder: Option<SpeakerIndex>,
    },
    /// A floor claim, final (S6). `time` is the claim time.
    Claim {
        /// The claiming talkspurt.
        spurt: usize,
        /// The new holder.
        speaker: SpeakerIndex,
    },
    /// An onset, classified (S8), final. `time` is the onset; `rec.spurt` is the stream's id.
    Onset(OnsetRec),
    /// The calibrated classifier's decision on an onset (S8′), taken as soon as the evidence
    /// up to `decision_horizon` after it is final, long before its talkspurt ends. The
    /// [`StreamEventKind::Onset`] that follows has this class when one is named here; with
    /// `class: None` the rules' class, which needs the outcome, is the one that follows.
    /// `time` is the onset.
    OnsetDecision {
        /// The talkspurt.
        spurt: usize,
        /// Its speaker.
        speaker: SpeakerIndex,
        /// The holder at the onset (`None`: an opening).
        holder: Option<SpeakerIndex>,
        /// The class, when the decision names it.
        class: Option<OnsetClass>,
        /// The probabilities of an interruption and of a failed attempt (`None` for an
        /// opening, which the classifier does not see, and for a class
        /// [`AnalysisStream::speculate`] committed early when the possible futures give it
        /// different probabilities; a decision with `class: None` is never committed early
        /// without them).
        probabilities: Option<[f64; 2]>,
    },
    /// A talkspurt reported as a provisional onset is none: its speaker held the floor, or it
    /// is not floor-relevant. `time` is its start.
    NotAnOnset {
        /// The talkspurt.
        spurt: usize,
    },
}

/// One event of the stream.
#[derive(Clone, Debug, PartialEq)]
pub struct StreamEvent {
    /// The time the event is about (ms).
    pub time: Millis,
    /// The stream time at which it was decided (ms); never before `time`'s evidence.
    pub decided: Millis,
    /// What it reports.
    pub kind: StreamEventKind,
}

impl StreamEvent {
    /// Whether the event is final (everything but the start of a talkspurt and a provisional
    /// onset).
    pub fn is_committed(&self) -> bool {
        !matches!(
            self.kind,
            StreamEventKind::TalkspurtStart { .. } | StreamEventKind::ProvisionalOnset { .. }
        )
    }
}

/// One speaker's speech that the detector has heard past the stream clock but not committed:
/// either future may still come (see [`AnalysisStream::speculate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pending {
    /// The speaker stopped at `at`, in a pause the detector may still bridge: either the
    /// speech ended there and the speaker says nothing before `quiet` (the detector bridges
    /// any shorter pause), or it runs on through [`Heard::until`].
    Pause {
        /// The end, if it is one.
        at: Millis,
        /// The earliest time the speaker may start again after an end at `at`.
        quiet: Millis,
    },
    /// Speech began at this time, in a run the detector may still drop (too short, or no
    /// voice yet): either it is speech from there on through [`Heard::until`], or none.
    Start(Millis),
}

/// What the detector has heard beyond the stream clock (see [`AnalysisStream::speculate`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Heard {
    /// The audio time up to which it has decided every frame (at or after the stream clock).
    pub until: Millis,
    /// The edges it has committed and not given to the stream yet (held back because another
    /// speaker may still commit an earlier one): speaker, time, and whether it is a start.
    pub edges: Vec<(SpeakerIndex, Millis, bool)>,
    /// Per speaker, at most one undecided edge (after that speaker's held edges).
    pub pending: Vec<(SpeakerIndex, Pending)>,
}

/// The most undecided edges [`AnalysisStream::speculate`] enumerates (2⁴ futures): with
/// more, it commits nothing early, and the decisions wait for the detector's commits.
const MAX_PENDING: usize = 4;

/// Without a change in what the detector holds, in the edges given or in the decisions due,
/// [`AnalysisStream::speculate`] checks again after this much more heard audio only.
const RECHECK: Millis = Millis::new(50);

/// What a check of [`AnalysisStream::speculate`] that committed nothing looked at: the same
/// again (before [`RECHECK`] more audio) is not checked again.
#[derive(Clone, Debug, PartialEq)]
struct SpeculationKey {
    edges: Vec<(SpeakerIndex, Millis, bool)>,
    pending: Vec<(SpeakerIndex, Pending)>,
    given: u64,
    due: Vec<usize>,
}

/// A decision one future of [`AnalysisStream::speculate`] takes on a talkspurt the stream
/// knows: its event (a backchannel tag or an onset decision) and the onset decision itself.
#[derive(Clone, Debug, PartialEq)]
struct Verdict {
    spurt: usize,
    event: StreamEventKind,
    decision: Option<Decision>,
}

impl Verdict {
    /// The decision without its probabilities: what every future must agree on.
    fn label(&self) -> Verdict {
        let mut v = self.clone();
        match &mut v.event {
            StreamEventKind::Floor { probability, .. } => *probability = None,
            StreamEventKind::OnsetDecision { probabilities, .. } => *probabilities = None,
            _ => {}
        }
        if let Some(d) = &mut v.decision {
            d.probabilities = None;
        }
        v
    }
}

#[derive(Clone, Debug)]
struct Spurt {
    speaker: SpeakerIndex,
    start: Millis,
    /// End of its last segment (while `speaking`, the talkspurt reaches at least `now`).
    end: Millis,
    speaking: bool,
    closed: bool,
    /// `Some(true)`: floor-relevant; `Some(false)`: backchannel.
    floor: Option<bool>,
    provisional_onset: bool,
    onset_done: bool,
    /// The calibrated classifier's p(backchannel).
    p_backchannel: Option<f64>,
    /// The calibrated onset decision: the class it names (if any), whether it is a failed
    /// attempt, and the probabilities.
    decision: Option<Decision>,
}

/// The calibrated classifier's decision on one onset (what S8′ does to the rules' record).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Decision {
    /// `Interruption` or `SilentInterruption` when the model calls it an attempt.
    attempt: Option<OnsetClass>,
    /// The attempt failed (the model's third class): the outcome is `floor_kept`.
    failed: bool,
    probabilities: Option<[f64; 2]>,
}

impl Decision {
    /// What S8′ does to the rules' record of the onset.
    fn relabel(&self, rec: &mut OnsetRec) {
        match self.attempt {
            Some(class) => {
                rec.class = class;
                if self.failed {
                    rec.outcome = Outcome::FloorKept;
                }
            }
            None => {
                rec.class = match rec.class {
                    OnsetClass::Interruption => OnsetClass::TerminalOverlap,
                    OnsetClass::SilentInterruption => OnsetClass::SmoothSwitch,
                    c => c,
                }
            }
        }
        // `partner` belongs to a simultaneous start only (§5.7), as in the batch relabelling.
        if rec.class != OnsetClass::SimultaneousStart {
            rec.partner = None;
        }
    }
}

/// How far back the calibrated features look (the floor history of the last minute).
const CALIBRATED_LOOKBACK: Millis = Millis::new(60_000);

/// The streaming analysis of one conversation (timing only: speech edges, no words).
///
/// Feed edges with [`AnalysisStream::speech_start`] and [`AnalysisStream::speech_end`] in time
/// order, move the clock with [`AnalysisStream::advance`] (which returns the events decided by
/// then), and end with [`AnalysisStream::finish`].
#[derive(Clone, Debug)]
pub struct AnalysisStream {
    params: Params,
    now: Millis,
    spurts: Shared<Spurt>,
    /// Per speaker: its talkspurts in time order.
    by_speaker: Vec<Shared<usize>>,
    /// Talkspurts whose floor status is open, in start order.
    undecided: BTreeSet<(Millis, usize)>,
    /// Talkspurts that are not closed.
    open: Vec<usize>,
    /// Talkspurts that may still reach past `joint_done`.
    joint_live: Vec<usize>,
    joint_done: Option<Millis>,
    /// Tracker events ready to feed: (time, 0 = end / 1 = start, spurt).
    ready: BTreeSet<(Millis, u8, usize)>,
    tracker: FloorTracker,
    tracker_clock: Millis,
    claims: Shared<Claim>,
    /// Floor-relevant talkspurts given to the tracker whose onset is not decided.
    onset_queue: Vec<usize>,
    /// Floor-relevant talkspurts given to the tracker, in start order.
    floor_spurts: Shared<usize>,
    out: Vec<StreamEvent>,
    finished: bool,
    /// S5′/S8′ (calibrated classifier) and its horizon, instead of the rules' S5.
    calibrated: Option<(Calibrated, Millis)>,
    /// Per speaker: known silent from its last end up to this time (a future of
    /// [`AnalysisStream::speculate`]: the detector would have bridged a shorter pause).
    quiet: Vec<Millis>,
    /// Edges given so far (a copy of the stream counts its future's too).
    given: u64,
    /// The last check of [`AnalysisStream::speculate`] that committed nothing, and its
    /// `heard.until`.
    speculated: Option<(SpeculationKey, Millis)>,
    /// Futures [`AnalysisStream::speculate`] could not run (see
    /// [`AnalysisStream::speculation_errors`]).
    speculation_errors: u64,
}

impl AnalysisStream {
    /// A stream for `n_speakers` speakers (indices `0..n_speakers`) under `params`.
    ///
    /// With the calibrated classifier (`params.classifier`), each talkspurt's backchannel
    /// decision and each onset's class are taken once the evidence up to
    /// `params.decision_horizon` after its start is final; the horizon must be bounded.
    pub fn new(n_speakers: usize, params: &Params) -> Result<AnalysisStream> {
        params.validate()?;
        let calibrated = match (params.classifier, params.decision_horizon) {
            (Classifier::Rules, _) => None,
            (Classifier::Joint, _) => {
                return Err(Error::invalid(
                    "analysis stream: the joint classifier is fitted for the unbounded horizon only; use the calibrated classifier or the rules",
                ))
            }
            (Classifier::Calibrated, Some(h)) => {
                Some((Calibrated::load(Classifier::Calibrated, Some(h))?, h))
            }
            (Classifier::Calibrated, None) => {
                return Err(Error::invalid(
                    "analysis stream: the calibrated classifier needs a bounded decision horizon (250, 500 or 1000 ms)",
                ))
            }
        };
        Ok(AnalysisStream {
            params: params.clone(),
            now: Millis::MIN,
            spurts: Shared::default(),
            by_speaker: vec![Shared::default(); n_speakers],
            undecided: BTreeSet::new(),
            open: Vec::new(),
            joint_live: Vec::new(),
            joint_done: None,
            ready: BTreeSet::new(),
            tracker: FloorTracker::new(params.min_floor_solo),
            tracker_clock: Millis::MIN,
            claims: Shared::default(),
            onset_queue: Vec::new(),
            floor_spurts: Shared::default(),
            out: Vec::new(),
            finished: false,
            calibrated,
            quiet: vec![Millis::MIN; n_speakers],
            given: 0,
            speculated: None,
            speculation_errors: 0,
        })
    }

    /// The stream clock: every edge before it has been given.
    pub fn now(&self) -> Millis {
        self.now
    }

    /// The floor holder as far as decided.
    pub fn holder(&self) -> Option<SpeakerIndex> {
        self.tracker.holder()
    }

    fn check_edge(&self, speaker: SpeakerIndex, t: Millis) -> Result<()> {
        if self.finished {
            return Err(Error::invalid("analysis stream: edge after finish"));
        }
        if speaker.index() >= self.by_speaker.len() {
            return Err(Error::invalid(format!("analysis stream: no speaker {speaker}")));
        }
        if t < self.now {
            return Err(Error::invalid(format!(
                "analysis stream: edge at {t} ms after the clock reached {} ms",
                self.now
            )));
        }
        Ok(())
    }

    /// `speaker` starts talking at `t` (not before the clock).
    pub fn speech_start(&mut self, speaker: SpeakerIndex, t: Millis) -> Result<()> {
        self.check_edge(speaker, t)?;
        self.given += 1;
        let last = self.by_speaker[speaker.index()].last().copied();
        if let Some(i) = last {
            // Read, not written, unless bridged: a closed talkspurt may be shared with other
            // copies of the stream (`freeze_history`), and writing it would copy them all.
            let s = &self.spurts[i];
            if s.speaking {
                return Err(Error::invalid(format!(
                    "analysis stream: speaker {speaker} starts at {t} ms while talking"
                )));
            }
            // S2: a silence shorter than bridge_pause is bridged.
            if !s.closed && (t <= s.end || t - s.end < self.params.bridge_pause) {
                self.spurts[i].speaking = true;
                return Ok(());
            }
        }
        let id = self.spurts.len();
        self.spurts.push(Spurt {
            speaker,
            start: t,
            end: t,
            speaking: true,
            closed: false,
            floor: None,
            provisional_onset: false,
            onset_done: false,
            p_backchannel: None,
            decision: None,
        });
        self.by_speaker[speaker.index()].push(id);
        self.undecided.insert((t, id));
        self.open.push(id);
        self.joint_live.push(id);
        self.out.push(StreamEvent {
            time: t,
            decided: t,
            kind: StreamEventKind::TalkspurtStart { spurt: id, speaker },
        });
        let holder = self.tracker.holder();
        if holder != Some(speaker) {
            self.spurts[id].provisional_onset = true;
            self.out.push(StreamEvent {
                time: t,
                decided: t,
                kind: StreamEventKind::ProvisionalOnset { spurt: id, speaker, holder },
            });
        }
        Ok(())
    }

    /// `speaker` stops talking at `t`.
    pub fn speech_end(&mut self, speaker: SpeakerIndex, t: Millis) -> Result<()> {
        self.check_edge(speaker, t)?;
        self.given += 1;
        let Some(&i) = self.by_speaker[speaker.index()].last() else {
            return Err(Error::invalid(format!(
                "analysis stream: speaker {speaker} stops at {t} ms without having started"
            )));
        };
        if !self.spurts[i].speaking {
            return Err(Error::invalid(format!(
                "analysis stream: speaker {speaker} stops at {t} ms while silent"
            )));
        }
        let s = &mut self.spurts[i];
        if t <= s.start {
            // An empty talkspurt is no talkspurt (a segment [t, t) is dropped by S1).
            if s.end == s.start {
                self.discard(i);
                return Ok(());
            }
        }
        s.speaking = false;
        s.end = s.end.max(t);
        Ok(())
    }

    /// Removes a talkspurt that turned out empty (started and stopped at one instant).
    fn discard(&mut self, i: usize) {
        let s = &mut self.spurts[i];
        s.speaking = false;
        s.closed = true;
        s.floor = Some(false);
        s.onset_done = true;
        let (start, speaker) = (s.start, s.speaker);
        self.undecided.remove(&(start, i));
        self.open.retain(|&j| j != i);
        self.joint_live.retain(|&j| j != i);
        self.by_speaker[speaker.index()].pop();
        if self.spurts[i].provisional_onset {
            self.out.push(StreamEvent {
                time: start,
                decided: self.now.max(start),
                kind: StreamEventKind::NotAnOnset { spurt: i },
            });
        }
    }

    /// The clock reached `now`: every edge before it has been given (edges at `now` may still
    /// come). Returns the events decided since the last call.
    pub fn advance(&mut self, now: Millis) -> Result<Vec<StreamEvent>> {
        if self.finished {
            return Err(Error::invalid("analysis stream: advance after finish"));
        }
        if now < self.now {
            return Err(Error::invalid(format!(
                "analysis stream: clock at {now} ms after {} ms",
                self.now
            )));
        }
        self.now = now;
        self.step(now, now)?;
        Ok(std::mem::take(&mut self.out))
    }

    /// Ends the stream at `end` (speakers still talking stop there) and returns every event
    /// still undecided, decided at `end`.
    pub fn finish(&mut self, end: Millis) -> Result<Vec<StreamEvent>> {
        if self.finished {
            return Ok(Vec::new());
        }
        let end = end.max(self.now);
        self.now = end;
        for i in self.open.clone() {
            if self.spurts[i].speaking {
                let speaker = self.spurts[i].speaker;
                self.speech_end(speaker, end)?;
            }
        }
        // Nothing can come after the end: decide as if an unbounded silence followed.
        self.step(Millis::new(i64::MAX / 4), end)?;
        let last = std::mem::take(&mut self.ready);
        for (t, kind, id) in last {
            self.feed_tracker(t, kind, id, end)?;
        }
        let rest = self.tracker.finish();
        self.take_claims(rest, end);
        self.decide_onsets(Millis::new(i64::MAX / 4), end)?;
        self.finished = true;
        Ok(std::mem::take(&mut self.out))
    }

    /// Commits the calibrated decisions (S5′ backchannel tags, S8′ onset decisions) that the
    /// speech the detector has heard but not committed can no longer change, before that
    /// speech is final. Returns the events decided (stamped `heard.until`); the stream clock
    /// does not move, and the edges must still be given as the detector commits them.
    ///
    /// Each undecided edge has two futures ([`Pending`]); a copy of the stream is run under
    /// every combination of them (with the held edges, up to `heard.until`), and a decision
    /// on a talkspurt the stream knows is taken when every future takes it with the same
    /// label (tag; class, failed or not). The speech the detector will commit up to
    /// `heard.until` is one of those futures, and what comes after cannot change a decision
    /// the stream has taken (it reads the speech up to start + horizon only), so the label is
    /// the one the stream would commit later, i.e. the batch analysis's. Its probability goes
    /// with it when every future gives the same, and is left out (`None`) otherwise; an onset
    /// decision that names no class (which puts nothing out before the outcome) is committed
    /// early only with its probabilities, so the onset's later event keeps them.
    ///
    /// ```text
    /// A (holder)   ████████████████████████████████
    /// B "yeah"          ███████░░░░░░░░                 B stopped at t_off < t0 + 250 ms
    ///                   t0     t_off
    /// committed    ─────────────▲ t_off: the detector bridges a pause < 400 ms
    /// B ended at t_off      → backchannel  ┐ the same label under both futures:
    /// B talks on (bridged)  → backchannel  ┘ committed at t0 + 250 ms, not t_off + 400 ms
    /// ```
    ///
    /// An end is final for the analysis once `bridge_pause` of silence follows it; the
    /// future in which the speech ended at `at` knows the speaker silent up to `quiet`, so
    /// that talkspurt is closed at once there. A decision that hangs on the edge itself
    /// (did the holder stop by the horizon? did the incomer?) differs between the futures
    /// and waits, as does a talkspurt whose start the stream has not been given.
    ///
    /// Nothing is committed early while more than four edges are undecided (`MAX_PENDING`;
    /// the decisions then wait for the detector's commits), under the rules' classifier, or
    /// when a future is not a valid continuation of the edges given so far (the caller's
    /// view of the detector would then be wrong; counted in
    /// [`AnalysisStream::speculation_errors`]).
    ///
    /// Each check copies the stream once per future; the history no future can change (the
    /// settled talkspurts, the claims) is shared between the copies, not copied, so a copy
    /// costs what the undecided edges can still change. A check that committed nothing is
    /// not repeated while the held and undecided edges, the edges given and the decisions
    /// due stay the same, until 50 ms more audio has been heard.
    pub fn speculate(&mut self, heard: &Heard) -> Vec<StreamEvent> {
        let Some((_, h)) = self.calibrated else { return Vec::new() };
        let until = heard.until;
        if self.finished || until <= self.now || heard.pending.len() > MAX_PENDING {
            return Vec::new();
        }
        let due = |t: Millis, wait: Millis| t.saturating_add(wait) < until;
        let tol = self.params.simul_start_tol;
        let mut due_spurts: Vec<usize> =
            self.undecided.iter().take_while(|&&(t, _)| due(t, h)).map(|&(_, i)| i).collect();
        due_spurts.extend(self.onset_queue.iter().copied().filter(|&i| {
            self.spurts[i].decision.is_none() && due(self.spurts[i].start, h.max(tol))
        }));
        if due_spurts.is_empty() {
            return Vec::new();
        }
        let key = SpeculationKey {
            edges: heard.edges.clone(),
            pending: heard.pending.clone(),
            given: self.given,
            due: due_spurts,
        };
        if let Some((last, at)) = &self.speculated {
            if *last == key && until < at.saturating_add(RECHECK) {
                return Vec::new();
            }
        }
        let events = self.speculate_now(heard, until);
        self.speculated = if events.is_empty() { Some((key, until)) } else { None };
        events
    }

    /// Futures of [`AnalysisStream::speculate`] that could not be run: a held or undecided
    /// edge the stream refused (not in time order, or a stop without a start). Nothing is
    /// committed early on such a check; a count above zero means the caller's view of the
    /// detector is wrong.
    pub fn speculation_errors(&self) -> u64 {
        self.speculation_errors
    }

    /// One check of [`AnalysisStream::speculate`].
    fn speculate_now(&mut self, heard: &Heard, until: Millis) -> Vec<StreamEvent> {
        self.freeze_history();
        let known = self.spurts.len();
        let mut agreed: Option<Vec<Verdict>> = None;
        for future in 0..1usize << heard.pending.len() {
            let mut copy = self.clone();
            let mut edges = heard.edges.clone();
            for (k, &(speaker, pending)) in heard.pending.iter().enumerate() {
                if future >> k & 1 == 0 {
                    continue;
                }
                edges.push(match pending {
                    Pending::Pause { at, quiet } => {
                        copy.quiet[speaker.index()] = quiet;
                        (speaker, at, false)
                    }
                    Pending::Start(t) => (speaker, t, true),
                });
            }
            edges.sort_by_key(|&(speaker, t, start)| (t, start, speaker));
            let events = match copy.run_future(&edges, until) {
                Ok(events) => events,
                Err(e) => {
                    self.speculation_errors += 1;
                    debug_assert!(false, "analysis stream: a future could not be run: {e}");
                    return Vec::new();
                }
            };
            let verdicts: Vec<Verdict> = events
                .into_iter()
                .filter_map(|e| match e.kind {
                    StreamEventKind::Floor { spurt, .. } if spurt < known => {
                        Some(Verdict { spurt, event: e.kind, decision: None })
                    }
                    StreamEventKind::OnsetDecision { spurt, .. } if spurt < known => {
                        let decision = copy.spurts[spurt].decision;
                        Some(Verdict { spurt, event: e.kind, decision })
                    }
                    _ => None,
                })
                .collect();
            // The labels must agree; a probability the futures differ on is left out.
            let kept: Vec<Verdict> = match agreed.take() {
                None => verdicts,
                Some(a) => a
                    .into_iter()
                    .filter_map(|v| {
                        let w = verdicts.iter().find(|w| w.label() == v.label())?;
                        Some(if *w == v { v } else { v.label() })
                    })
                    .collect(),
            };
            if kept.is_empty() {
                return Vec::new();
            }
            agreed = Some(kept);
        }
        for v in agreed.unwrap_or_default() {
            let i = v.spurt;
            match v.event {
                StreamEventKind::Floor { backchannel, probability, .. }
                    if self.spurts[i].floor.is_none() =>
                {
                    self.apply_floor(vec![(i, !backchannel, probability)], until);
                }
                // No class and no probabilities on an onset the classifier sees: nothing to put
                // out before the outcome, and the onset's event would go without a probability;
                // it is decided once its evidence is committed.
                StreamEventKind::OnsetDecision {
                    class: None,
                    probabilities: None,
                    holder: Some(_),
                    ..
                } => {}
                kind @ StreamEventKind::OnsetDecision { .. } => {
                    let s = &mut self.spurts[i];
                    if s.floor == Some(true) && s.decision.is_none() && !s.onset_done {
                        s.decision = v.decision;
                        self.out.push(StreamEvent { time: s.start, decided: until, kind });
                    }
                }
                _ => {}
            }
        }
        std::mem::take(&mut self.out)
    }

    /// Freezes the history no future can change, so that the copies of
    /// [`AnalysisStream::speculate`] share it: the talkspurts before the first one still open
    /// (a future may bridge it), undecided, waiting for its onset or for the joint timeline;
    /// each speaker's list but its last talkspurt; the floor talkspurts starting before all
    /// of those (a future inserts only later ones); all claims (a future only adds). A closed
    /// talkspurt is only read by a future (a start after it opens a new one), so a speaker
    /// silent since the session's start does not hold the freeze point back. What a copy
    /// does change of the frozen part is copied then, so a freeze too eager costs time,
    /// never correctness.
    ///
    /// ```text
    /// spurts   0   1   2   3 │ 4   5   6        4: the first open/undecided/queued one
    ///          └── frozen ───┘ └─ each copy's ─┘
    /// ```
    fn freeze_history(&mut self) {
        #[cfg(test)]
        if tests::COPY_WHOLE.with(std::cell::Cell::get) {
            return;
        }
        let live = self
            .open
            .iter()
            .chain(&self.onset_queue)
            .chain(&self.joint_live)
            .chain(self.undecided.iter().map(|(_, i)| i))
            .copied();
        let first = live.clone().min().unwrap_or(self.spurts.len());
        let first_start = live.map(|i| self.spurts[i].start).min().unwrap_or(self.now);
        self.spurts.freeze_before(first);
        for own in &mut self.by_speaker {
            own.freeze_before(own.len().saturating_sub(1));
        }
        let spurts = &self.spurts;
        let floor_before = self.floor_spurts.partition_point(|&j| spurts[j].start < first_start);
        self.floor_spurts.freeze_before(floor_before);
        self.claims.freeze_before(self.claims.len());
    }

    /// Gives a copy of the stream one future's edges and moves its clock to `until`.
    fn run_future(
        &mut self,
        edges: &[(SpeakerIndex, Millis, bool)],
        until: Millis,
    ) -> Result<Vec<StreamEvent>> {
        self.out.clear();
        for &(speaker, t, start) in edges {
            if t > until {
                return Err(Error::invalid("analysis stream: a heard edge after the heard clock"));
            }
            if start {
                self.speech_start(speaker, t)?;
            } else {
                self.speech_end(speaker, t)?;
            }
        }
        self.advance(until)
    }

    /// One round of decisions with the logical clock `now`, stamping them `stamp`.
    fn step(&mut self, now: Millis, stamp: Millis) -> Result<()> {
        self.close_spurts(now, stamp);
        self.decide_floor(now, stamp);
        self.emit_pieces(now, stamp);
        self.run_tracker(now, stamp)?;
        self.decide_onsets(now, stamp)
    }

    /// The current end of talkspurt `i` under the clock `now` (it reaches `now` while speaking).
    fn current_end(&self, i: usize, now: Millis) -> Millis {
        let s = &self.spurts[i];
        if s.speaking {
            s.end.max(now)
        } else {
            s.end
        }
    }

    fn close_spurts(&mut self, now: Millis, stamp: Millis) {
        let bridge = self.params.bridge_pause;
        let mut k = 0;
        while k < self.open.len() {
            let i = self.open[k];
            let s = &mut self.spurts[i];
            let quiet = self.quiet[s.speaker.index()];
            if !s.speaking && now.max(quiet) >= s.end.saturating_add(bridge) {
                s.closed = true;
                self.open.swap_remove(k);
                let (speaker, start, end) = (s.speaker, s.start, s.end);
                self.out.push(StreamEvent {
                    time: end,
                    decided: stamp,
                    kind: StreamEventKind::TalkspurtEnd { spurt: i, speaker, start },
                });
                if s.floor == Some(true) {
                    self.ready.insert((end, 0, i));
                }
            } else {
                k += 1;
            }
        }
    }

    /// S5 for the talkspurts whose status is open (§5.4 S5 (R19), timing-only: the lexical
    /// test passes and nothing is laughter).
    fn decide_floor(&mut self, now: Millis, stamp: Millis) {
        let decided = match self.calibrated {
            Some((c, h)) => self.calibrated_floor(c, h, now),
            None => self.rules_floor(now),
        };
        self.apply_floor(decided, stamp);
    }

    /// S5 by the rules: the talkspurts whose status the evidence up to `now` decides.
    fn rules_floor(&self, now: Millis) -> Vec<(usize, bool, Option<f64>)> {
        let p = &self.params;
        let mut decided = Vec::new();
        for &(_, i) in &self.undecided {
            let s = &self.spurts[i];
            let x = s.speaker;
            let end_now = self.current_end(i, now);
            // The verdict is "floor-relevant".
            let verdict = if end_now - s.start > p.bc_max_duration {
                Some(true)
            } else if now <= s.start {
                // Other talkspurts may still start at the same instant.
                None
            } else {
                let own = &self.by_speaker[x.index()];
                let k = own.partition_point(|&j| j != i);
                let pre_ok = k == 0 || s.start - self.spurts[own[k - 1]].end >= p.bc_pre_silence;
                // 4 for each other speaker: the latest talkspurt starting by s.start ends
                // after s.start − bc_context.
                let cond4 = |y: usize| -> Option<usize> {
                    let theirs = &self.by_speaker[y];
                    let n = theirs.partition_point(|&j| self.spurts[j].start <= s.start);
                    let last = n.checked_sub(1).map(|k| theirs[k])?;
                    (self.current_end(last, now) > s.start - p.bc_context).then_some(n)
                };
                let context4: Vec<(usize, usize)> = (0..self.by_speaker.len())
                    .filter(|&y| y != x.index())
                    .filter_map(|y| cond4(y).map(|n| (y, n)))
                    .collect();
                if !pre_ok || context4.is_empty() {
                    Some(true)
                } else if s.closed
                    && now >= s.end.saturating_add(p.bc_post_silence.max(p.bc_resume_window))
                {
                    let post_ok = own
                        .get(k + 1)
                        .is_none_or(|&j| self.spurts[j].start - s.end >= p.bc_post_silence);
                    let context = post_ok
                        && context4.iter().any(|&(y, n_before)| {
                            let theirs = &self.by_speaker[y];
                            // 5: the first of Y's talkspurts ending after s.start starts
                            // before s.end + bc_resume_window.
                            let first_after = match n_before.checked_sub(1) {
                                Some(k) if self.current_end(theirs[k], now) > s.start => k,
                                _ => n_before,
                            };
                            theirs
                                .get(first_after)
                                .is_some_and(|&j| self.spurts[j].start < s.end + p.bc_resume_window)
                        });
                    Some(!context)
                } else {
                    None
                }
            };
            if let Some(floor) = verdict {
                decided.push((i, floor, None));
            }
        }
        decided
    }

    /// The instant up to which the talk is final: a talkspurt that stopped less than
    /// `bridge_pause` ago may still be bridged (its end move past it).
    fn settled(&self) -> Millis {
        let open = self.open.iter().map(|&i| &self.spurts[i]);
        open.filter(|s| !s.speaking).map(|s| s.end).min().unwrap_or(Millis::MAX)
    }

    /// S5′: the talkspurts whose evidence up to `horizon` after their start is final, tagged
    /// by the calibrated classifier.
    ///
    /// ```text
    /// spurt        [──────────── (open)
    /// horizon      ├─ h ─┤
    /// decided            ▲ once the clock is past start + h and no talkspurt that stopped
    ///                      by then can still be bridged
    /// ```
    fn calibrated_floor(
        &self,
        c: Calibrated,
        h: Millis,
        now: Millis,
    ) -> Vec<(usize, bool, Option<f64>)> {
        let settled = self.settled();
        let mut decided = Vec::new();
        for &(start, i) in &self.undecided {
            let lim = start.saturating_add(h);
            if now <= lim || settled <= lim {
                break;
            }
            let (mut local, ids) = self.window(start, now);
            let Some(me) = ids.iter().position(|&j| j == i) else { continue };
            let mut ix = c.index(&local, self.by_speaker.len());
            let p = c.tag_backchannels(&mut ix, &mut local, &self.params);
            decided.push((i, !local[me].backchannel, Some(p[me])));
        }
        decided
    }

    /// The talkspurts the calibrated features of one starting at `t0` read, as the batch
    /// analysis sees them: per speaker, those starting in the last minute before `t0` or
    /// later, and the one before them (the previous talkspurt and the latest reference);
    /// running ones reach the clock `now`. Sorted by start; with their stream ids.
    fn window(&self, t0: Millis, now: Millis) -> (Vec<Talkspurt>, Vec<usize>) {
        let cutoff = t0.saturating_sub(CALIBRATED_LOOKBACK);
        let mut ids = Vec::new();
        for own in &self.by_speaker {
            let k = own.partition_point(|&j| self.spurts[j].start < cutoff);
            ids.extend(own.iter().skip(k.saturating_sub(1)).copied());
        }
        ids.sort_by_key(|&j| (self.spurts[j].start, self.spurts[j].speaker));
        let local = ids
            .iter()
            .map(|&j| {
                let s = &self.spurts[j];
                Talkspurt::timed(s.speaker, s.start, self.current_end(j, now))
            })
            .collect();
        (local, ids)
    }

    /// Records the floor statuses decided, and passes the floor-relevant talkspurts on to the
    /// tracker and the onsets.
    fn apply_floor(&mut self, decided: Vec<(usize, bool, Option<f64>)>, stamp: Millis) {
        for (i, floor, probability) in decided {
            let s = &mut self.spurts[i];
            s.floor = Some(floor);
            s.p_backchannel = probability;
            self.undecided.remove(&(s.start, i));
            let (speaker, start, end, closed) = (s.speaker, s.start, s.end, s.closed);
            self.out.push(StreamEvent {
                time: start,
                decided: stamp,
                kind: StreamEventKind::Floor {
                    spurt: i,
                    speaker,
                    backchannel: !floor,
                    probability,
                },
            });
            let s = &mut self.spurts[i];
            if floor {
                let at =
                    self.floor_spurts.partition_point(|&j| (self.spurts[j].start, j) < (start, i));
                self.floor_spurts.insert(at, i);
                self.onset_queue.push(i);
                self.ready.insert((start, 1, i));
                if closed {
                    self.ready.insert((end, 0, i));
                }
            } else {
                s.onset_done = true;
                if s.provisional_onset {
                    self.out.push(StreamEvent {
                        time: start,
                        decided: stamp,
                        kind: StreamEventKind::NotAnOnset { spurt: i },
                    });
                }
            }
        }
    }

    /// S3 for the pieces that can no longer change.
    ///
    /// ```text
    /// spurts   A [────────)        B [──── (open)
    /// final    ├─ {A} ─┤ ∅ ┤ ← pieces ending before the first open end (or the clock)
    /// ```
    fn emit_pieces(&mut self, now: Millis, stamp: Millis) {
        let mut frontier = now;
        for &i in &self.open {
            frontier = frontier.min(self.current_end(i, now));
        }
        let from = self.joint_done;
        let clipped: Vec<Talkspurt> = self
            .joint_live
            .iter()
            .filter_map(|&i| {
                let s = &self.spurts[i];
                let start = from.map_or(s.start, |d| s.start.max(d));
                let end = self.current_end(i, now);
                (start < end).then(|| Talkspurt::timed(s.speaker, start, end))
            })
            .collect();
        let mut clipped = clipped;
        clipped.sort_by_key(|s| (s.start, s.end, s.speaker));
        let pieces = joint_timeline(&clipped, |_| true);
        let mut done = from;
        if let (Some(d), Some(first)) = (from, pieces.first()) {
            if first.start > d && first.start < frontier {
                self.out.push(StreamEvent {
                    time: d,
                    decided: stamp,
                    kind: StreamEventKind::Piece { end: first.start, active: Vec::new() },
                });
                done = Some(first.start);
            }
        }
        for piece in pieces.iter().take_while(|p| p.end < frontier) {
            self.out.push(StreamEvent {
                time: piece.start,
                decided: stamp,
                kind: StreamEventKind::Piece { end: piece.end, active: piece.active.to_vec() },
            });
            done = Some(piece.end);
        }
        if let Some(d) = done {
            self.joint_done = Some(d);
            let spurts = &self.spurts;
            let open_or_later = |i: &usize| !spurts[*i].closed || spurts[*i].end > d;
            self.joint_live.retain(open_or_later);
        }
    }

    fn take_claims(&mut self, claims: Vec<Claim>, stamp: Millis) {
        for c in claims {
            self.out.push(StreamEvent {
                time: c.time,
                decided: stamp,
                kind: StreamEventKind::Claim { spurt: c.spurt, speaker: c.speaker },
            });
            self.claims.push(c);
        }
    }

    fn feed_tracker(&mut self, t: Millis, kind: u8, id: usize, stamp: Millis) -> Result<()> {
        let claims = if kind == 1 {
            self.tracker.start(id, self.spurts[id].speaker, t)?
        } else {
            self.tracker.end(id, t)?
        };
        self.tracker_clock = self.tracker_clock.max(t);
        self.take_claims(claims, stamp);
        Ok(())
    }

    /// S6: feeds the tracker every floor-relevant edge before the first instant still open
    /// (a talkspurt whose status is open, or the running end of an open floor talkspurt).
    fn run_tracker(&mut self, now: Millis, stamp: Millis) -> Result<()> {
        let mut horizon = now;
        if let Some(&(t, _)) = self.undecided.first() {
            horizon = horizon.min(t);
        }
        for &i in &self.open {
            if self.spurts[i].floor == Some(true) {
                horizon = horizon.min(self.current_end(i, now));
            }
        }
        while let Some(&(t, kind, id)) = self.ready.first() {
            if t >= horizon {
                break;
            }
            self.ready.pop_first();
            self.feed_tracker(t, kind, id, stamp)?;
        }
        if horizon > self.tracker_clock {
            self.tracker_clock = horizon;
            let claims = self.tracker.tick(horizon)?;
            self.take_claims(claims, stamp);
        }
        Ok(())
    }

    /// S8 for the onsets whose evidence is in.
    fn decide_onsets(&mut self, now: Millis, stamp: Millis) -> Result<()> {
        let tol = self.params.simul_start_tol;
        let known_until = self.undecided.first().map_or(now, |&(t, _)| t.min(now));
        let decided_until = self.tracker.decided_until();
        let queue = std::mem::take(&mut self.onset_queue);
        let mut keep = Vec::with_capacity(queue.len());
        for i in queue {
            let s = &self.spurts[i];
            let (x, t0) = (s.speaker, s.start);
            if decided_until < t0 {
                keep.push(i);
                continue;
            }
            let first = self.claims.partition_point(|c| c.time < t0);
            let holder = first.checked_sub(1).map(|k| self.claims[k].speaker);
            if holder == Some(x) {
                self.spurts[i].onset_done = true;
                if self.spurts[i].provisional_onset {
                    self.out.push(StreamEvent {
                        time: t0,
                        decided: stamp,
                        kind: StreamEventKind::NotAnOnset { spurt: i },
                    });
                }
                continue;
            }
            if let Some((c, h)) = self.calibrated {
                if self.spurts[i].decision.is_none() {
                    if let Some(d) = self.decide_early(c, h, i, holder, now, known_until) {
                        self.spurts[i].decision = Some(d);
                        self.out.push(StreamEvent {
                            time: t0,
                            decided: stamp,
                            kind: StreamEventKind::OnsetDecision {
                                spurt: i,
                                speaker: x,
                                holder,
                                class: self.named_class(i, holder, d, now),
                                probabilities: d.probabilities,
                            },
                        });
                    }
                }
            }
            // A talkspurt whose floor status `speculate` committed ahead of the clock may be
            // complete before its evidence is final (the clock not past its horizon, or a
            // talkspurt that stopped before the horizon still bridgeable): its onset waits
            // for the decision, or it would be classified without S8′.
            if let Some((_, h)) = self.calibrated {
                if self.spurts[i].decision.is_none() && self.onset_waits(h, i, now, known_until) {
                    keep.push(i);
                    continue;
                }
            }
            let s = &self.spurts[i];
            if !s.closed || known_until <= t0.saturating_add(tol) || known_until < s.end {
                keep.push(i);
                continue;
            }
            // Every floor talkspurt starting before s.end closed, and its end decided.
            let before_end = self.floor_spurts.partition_point(|&j| self.spurts[j].start < s.end);
            let mut reach = s.end;
            let mut all_closed = true;
            for &j in self.floor_spurts.iter().take(before_end) {
                let o = &self.spurts[j];
                if o.end > t0 - tol || !o.closed {
                    all_closed &= o.closed;
                    reach = reach.max(o.end);
                }
            }
            if !all_closed || decided_until < reach {
                keep.push(i);
                continue;
            }
            match self.classify_one(i) {
                Some(mut rec) => {
                    if let Some(d) = self.spurts[i].decision.filter(|_| rec.holder.is_some()) {
                        d.relabel(&mut rec);
                    }
                    self.spurts[i].onset_done = true;
                    self.out.push(StreamEvent {
                        time: t0,
                        decided: stamp,
                        kind: StreamEventKind::Onset(rec),
                    });
                }
                None => {
                    return Err(Error::invalid(format!("analysis stream: onset at {t0} ms lost")))
                }
            }
        }
        keep.append(&mut self.onset_queue);
        self.onset_queue = keep;
        Ok(())
    }

    /// S8′ for the onset of talkspurt `i` with `holder`, once the evidence up to the horizon
    /// `h` after it (and the simultaneous starts within `simul_start_tol`) is final; `None`
    /// while it is not.
    fn decide_early(
        &self,
        c: Calibrated,
        h: Millis,
        i: usize,
        holder: Option<SpeakerIndex>,
        now: Millis,
        known_until: Millis,
    ) -> Option<Decision> {
        if self.onset_waits(h, i, now, known_until) {
            return None;
        }
        let s = &self.spurts[i];
        let t0 = s.start;
        let Some(f) = holder else {
            return Some(Decision { attempt: None, failed: false, probabilities: None });
        };
        let (local, ids) = self.window(t0, now);
        let me = ids.iter().position(|&j| j == i)?;
        let ix = c.index(&local, self.by_speaker.len());
        // S8′ relabels the rules' record; a class the decision leaves alone marks "other".
        let placeholder = if self.simultaneous(i, now) {
            OnsetClass::SimultaneousStart
        } else {
            OnsetClass::PauseCompetition
        };
        let mut rec = OnsetRec {
            speaker: s.speaker,
            time: t0,
            spurt: me,
            holder: Some(f),
            class: placeholder,
            outcome: Outcome::FloorTaken,
            ferguson: None,
            partner: None,
            dist_to_completion: None,
            holder_remaining: None,
        };
        let p = c.relabel_onsets(&ix, &local, &self.params, std::slice::from_mut(&mut rec));
        let attempt = rec.is_attempt().then_some(rec.class);
        Some(Decision {
            attempt,
            failed: attempt.is_some() && rec.outcome == Outcome::FloorKept,
            probabilities: p.first().copied().flatten(),
        })
    }

    /// Whether the S8′ decision on talkspurt `i`'s onset must wait: the evidence up to its
    /// horizon is not final (the clock not past it, or a talkspurt that stopped by then may
    /// still be bridged), or whether a start is simultaneous with it is not known yet.
    ///
    /// ```text
    /// spurt i      [────────
    /// horizon      ├─ max(h, tol) ─┤ lim
    /// other        ──────────█████████░░░░   stopped before lim, bridgeable
    /// waits while now <= lim, or while that stop may still be bridged (settled <= lim)
    /// ```
    fn onset_waits(&self, h: Millis, i: usize, now: Millis, known_until: Millis) -> bool {
        let tol = self.params.simul_start_tol;
        let t0 = self.spurts[i].start;
        let lim = t0.saturating_add(h.max(tol));
        now <= lim || self.settled() <= lim || known_until <= t0.saturating_add(tol)
    }

    /// The class the decision on talkspurt `i`'s onset fixes before the outcome is known:
    /// an attempt; else a simultaneous start; else, in the holder's speech, a terminal
    /// overlap (the rules' interruption there is one for the classifier); in the holder's
    /// silence the rules' class needs the outcome (`None`).
    fn named_class(
        &self,
        i: usize,
        holder: Option<SpeakerIndex>,
        d: Decision,
        now: Millis,
    ) -> Option<OnsetClass> {
        let Some(f) = holder else { return Some(OnsetClass::Opening) };
        if let Some(c) = d.attempt {
            return Some(c);
        }
        if self.simultaneous(i, now) {
            return Some(OnsetClass::SimultaneousStart);
        }
        let t0 = self.spurts[i].start;
        let covered = self.floor_spurts.iter().any(|&j| {
            let g = &self.spurts[j];
            g.speaker == f && g.start <= t0 && t0 < self.current_end(j, now)
        });
        covered.then_some(OnsetClass::TerminalOverlap)
    }

    /// S8 rule 1 for talkspurt `i`: another floor talkspurt starts within `simul_start_tol`
    /// and no third speaker's floor talkspurt covers the earlier start.
    fn simultaneous(&self, i: usize, now: Millis) -> bool {
        let s = &self.spurts[i];
        let (x, t0, tol) = (s.speaker, s.start, self.params.simul_start_tol);
        let covers = |j: usize, t: Millis| {
            let g = &self.spurts[j];
            g.start <= t && t < self.current_end(j, now)
        };
        self.floor_spurts.iter().any(|&j| {
            let g = &self.spurts[j];
            if j == i || g.speaker == x || (g.start - t0).abs() > tol {
                return false;
            }
            let m = g.start.min(t0);
            !self.floor_spurts.iter().any(|&k| {
                let z = self.spurts[k].speaker;
                z != x && z != g.speaker && covers(k, m)
            })
        })
    }

    /// Runs S8 on the floor talkspurts around talkspurt `i` and the claims that can matter.
    fn classify_one(&self, i: usize) -> Option<OnsetRec> {
        let s = &self.spurts[i];
        let t0 = s.start;
        let tol = self.params.simul_start_tol;
        // Everything S8 looks at for this onset reaches past t0 − tol: the talkspurts covering
        // t0 (the holder's), the simultaneous starts and the thirds covering them, and the
        // claiming talkspurts of claims from t0 on.
        let mut local: Vec<usize> = self
            .floor_spurts
            .iter()
            .copied()
            .filter(|&j| self.spurts[j].end > t0 - tol - Millis::new(1))
            .collect();
        local.sort_by_key(|&j| (self.spurts[j].start, self.spurts[j].end, self.spurts[j].speaker));
        let spurts: Vec<Talkspurt> = local
            .iter()
            .map(|&j| {
                Talkspurt::timed(self.spurts[j].speaker, self.spurts[j].start, self.spurts[j].end)
            })
            .collect();
        let index_of = |j: usize| local.iter().position(|&l| l == j);
        let me = index_of(i)?;
        let first = self.claims.partition_point(|c| c.time < t0);
        let mut claims = Vec::new();
        if let Some(prev) = first.checked_sub(1).map(|k| self.claims[k]) {
            claims.push(Claim { spurt: index_of(prev.spurt).unwrap_or(0), ..prev });
        }
        for c in self.claims.iter().skip(first) {
            claims.push(Claim { spurt: index_of(c.spurt)?, ..*c });
        }
        let mut floor_by = vec![Vec::new(); self.by_speaker.len()];
        for (k, sp) in spurts.iter().enumerate() {
            floor_by[sp.speaker.index()].push(k);
        }
        let order: Vec<usize> = (0..spurts.len()).collect();
        let mut rec = classify(&spurts, &floor_by, &order, &claims, &self.params)
            .into_iter()
            .find(|r| r.spurt == me)?;
        rec.spurt = i;
        Some(rec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze;

    thread_local! {
        /// Freeze nothing: every copy of `speculate` holds the whole history (the cost
        /// measure's "before").
        pub(super) static COPY_WHOLE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    }
    use crate::{Segment, TranscriptBuilder};
    use proptest::prelude::*;

    const NAMES: [&str; 4] = ["A", "B", "C", "D"];

    /// Edges `(time, is_start, speaker)` of disjoint segments per speaker.
    fn edges(segments: &[(usize, i64, i64)]) -> Vec<(i64, bool, usize)> {
        let mut e = Vec::new();
        for &(sp, a, b) in segments {
            e.push((a, true, sp));
            e.push((b, false, sp));
        }
        e
    }

    /// Runs the stream over the edges, advancing at every distinct instant (and at `ticks`),
    /// applying the edges of one instant in the given order.
    fn run(segments: &[(usize, i64, i64)], ticks: &[i64], p: &Params) -> Vec<StreamEvent> {
        let mut e = edges(segments);
        e.sort_by_key(|&(t, _, _)| t);
        let mut ticks = ticks.to_vec();
        ticks.sort_unstable();
        let mut s = AnalysisStream::new(4, p).unwrap();
        let mut out = Vec::new();
        let mut k = 0;
        for (t, start, sp) in e {
            let (t, sp) = (Millis::new(t), SpeakerIndex::new(sp));
            while k < ticks.len() && Millis::new(ticks[k]) < t {
                out.extend(s.advance(Millis::new(ticks[k]).max(s.now())).unwrap());
                k += 1;
            }
            out.extend(s.advance(t).unwrap());
            if start {
                s.speech_start(sp, t).unwrap();
            } else {
                s.speech_end(sp, t).unwrap();
            }
        }
        let end = Millis::new(segments.iter().map(|x| x.2).max().unwrap_or(0));
        out.extend(s.advance(end).unwrap());
        out.extend(s.finish(end).unwrap());
        out
    }

    fn transcript(segments: &[(usize, i64, i64)]) -> crate::Transcript {
        let mut b = TranscriptBuilder::new();
        for &(sp, a, z) in segments {
            b.add(Segment::from_millis(a, z).unwrap(), NAMES[sp], None);
        }
        b.build()
    }

    type Onset = (Millis, String, Option<String>, String, String, Option<String>, Option<Millis>);
    /// Talkspurts (with their tags), joint pieces, claims and onsets, by name.
    type Folded = (
        Vec<(String, Millis, Millis, bool)>,
        Vec<(Millis, Millis, Vec<String>)>,
        Vec<(Millis, String)>,
        Vec<Onset>,
    );

    /// The committed events, in the batch analysis's vocabulary.
    fn folded(events: &[StreamEvent]) -> Folded {
        let name = |i: SpeakerIndex| NAMES[i.index()].to_owned();
        let mut ends = std::collections::HashMap::new();
        let mut bc = std::collections::HashMap::new();
        let (mut pieces, mut claims, mut onsets) = (Vec::new(), Vec::new(), Vec::new());
        for e in events {
            match &e.kind {
                StreamEventKind::TalkspurtEnd { spurt, speaker, start } => {
                    ends.insert(*spurt, (name(*speaker), *start, e.time));
                }
                StreamEventKind::Floor { spurt, backchannel, .. } => {
                    bc.insert(*spurt, *backchannel);
                }
                StreamEventKind::Piece { end, active } => {
                    pieces.push((e.time, *end, active.iter().map(|&i| name(i)).collect()));
                }
                StreamEventKind::Claim { speaker, .. } => claims.push((e.time, name(*speaker))),
                StreamEventKind::Onset(r) => onsets.push((
                    r.time,
                    name(r.speaker),
                    r.holder.map(name),
                    format!("{:?}", r.class),
                    format!("{:?}/{:?}", r.outcome, r.ferguson),
                    r.partner.map(name),
                    r.dist_to_completion,
                )),
                _ => {}
            }
        }
        let mut spurts: Vec<_> =
            ends.iter().map(|(id, (n, a, z))| (n.clone(), *a, *z, bc[id])).collect();
        spurts.sort_by_key(|s| (s.1, s.2, s.0.clone()));
        onsets.sort();
        (spurts, pieces, claims, onsets)
    }

    fn batch(segments: &[(usize, i64, i64)], p: &Params) -> Folded {
        let a = analyze(&transcript(segments), p).unwrap();
        let spurts = a
            .talkspurts
            .iter()
            .map(|t| (t.speaker.to_string(), t.start, t.end, t.is_backchannel))
            .collect();
        let pieces = a
            .joint
            .iter()
            .map(|j| (j.start, j.end, j.active.iter().map(|n| n.to_string()).collect()))
            .collect();
        let claims = a.turns.iter().map(|t| (t.claim, t.speaker.to_string())).collect();
        let mut onsets: Vec<Onset> = a
            .onsets
            .iter()
            .map(|o| {
                (
                    o.time,
                    o.speaker.to_string(),
                    o.holder.as_ref().map(|h| h.to_string()),
                    format!("{:?}", o.class),
                    format!("{:?}/{:?}", o.outcome, o.ferguson),
                    o.partner.as_ref().map(|h| h.to_string()),
                    o.dist_to_completion,
                )
            })
            .collect();
        onsets.sort();
        (spurts, pieces, claims, onsets)
    }

    #[test]
    fn w1_interruption_is_committed_after_the_evidence() {
        let segs = [(0, 0, 5000), (1, 4000, 6000), (0, 6500, 9000)];
        let p = Params::default();
        let events = run(&segs, &[], &p);
        assert_eq!(folded(&events), batch(&segs, &p));
        let onset = events
            .iter()
            .find_map(|e| match &e.kind {
                StreamEventKind::Onset(r) if r.speaker.get() == 1 => {
                    Some((r.class, e.decided.get()))
                }
                _ => None,
            })
            .unwrap();
        // B's talkspurt [4000, 6000) closes at 6200; the claims up to then are decided.
        assert_eq!(onset, (crate::analysis::onsets::OnsetClass::Interruption, 6500));
        for e in &events {
            assert!(e.decided >= e.time, "{e:?}");
        }
    }

    fn calibrated(h: i64) -> Params {
        Params {
            classifier: Classifier::Calibrated,
            decision_horizon: Some(Millis::new(h)),
            ..Params::default()
        }
    }

    #[test]
    fn calibrated_decisions_come_at_the_horizon_and_equal_the_batch_analysis() {
        // A holds the floor; B backchannels at 3000 (300 ms) and starts over A at 8000; A
        // yields at 8400; B talks on alone; A comes back at 12000.
        let segs = [
            (0, 0, 8400),
            (1, 3000, 3300),
            (1, 8000, 11000),
            (0, 12_000, 15_000),
            (1, 13_000, 13_200),
        ];
        for h in [250, 500, 1000] {
            let p = calibrated(h);
            let events = run(&segs, &(0..150).map(|k| k * 100).collect::<Vec<_>>(), &p);
            assert_eq!(folded(&events), batch(&segs, &p), "horizon {h}");
            let mut decisions = 0;
            for e in &events {
                match &e.kind {
                    // Every S5′ and S8′ decision is taken at the first tick past its horizon
                    // (ticks every 100 ms) once the holder's talkspurt is settled.
                    StreamEventKind::Floor { probability, .. } => {
                        assert!(probability.is_some());
                        let (d, t) = (e.decided.get(), e.time.get());
                        assert!(d > t + h && d <= t + h + 300, "{e:?}");
                        decisions += 1;
                    }
                    StreamEventKind::OnsetDecision { holder: Some(_), probabilities, .. } => {
                        assert!(probabilities.is_some());
                        let (d, t) = (e.decided.get(), e.time.get());
                        assert!(d > t + h && d <= t + h + 300, "{e:?}");
                    }
                    _ => {}
                }
            }
            assert_eq!(decisions, segs.len(), "horizon {h}");
        }
    }

    #[test]
    fn an_opening_talkspurt_is_no_backchannel_in_the_stream_either() {
        // A's opening "yeah" (300 ms) comes before anyone else has spoken: there is nothing
        // to answer, so it is no backchannel (p = 0), decided at the horizon as in the batch
        // analysis. B's 300 ms inside A's later turn is the control. (The other guard, the
        // 2 s ceiling, cannot bind at a bounded horizon: no talkspurt is seen for 2 s.)
        let segs = [(0, 0, 300), (0, 1500, 12_000), (1, 8000, 8300)];
        for h in [250, 500, 1000] {
            let p = calibrated(h);
            let events = run(&segs, &(0..130).map(|k| k * 100).collect::<Vec<_>>(), &p);
            assert_eq!(folded(&events), batch(&segs, &p), "horizon {h}");
            let probability = |at: i64| {
                events.iter().find_map(|e| match &e.kind {
                    StreamEventKind::Floor { probability, .. } if e.time == Millis::new(at) => {
                        *probability
                    }
                    _ => None,
                })
            };
            assert_eq!(probability(0), Some(0.0), "horizon {h}");
            assert!(probability(8000).is_some_and(|p| p > 0.0), "horizon {h}");
        }
    }

    #[test]
    fn the_calibrated_stream_needs_a_bounded_horizon() {
        let p = Params { classifier: Classifier::Calibrated, ..Params::default() };
        assert!(AnalysisStream::new(2, &p).is_err());
        assert!(AnalysisStream::new(2, &calibrated(500)).is_ok());
    }

    fn segments_strategy() -> impl Strategy<Value = Vec<(usize, i64, i64)>> {
        speakers_strategy(3)
    }

    /// Random conversations of `n` speakers (at most 4, the streams' size here).
    fn speakers_strategy(n: usize) -> impl Strategy<Value = Vec<(usize, i64, i64)>> {
        prop::collection::vec((0usize..n, 0i64..30_000, 1i64..4000, 1i64..1500), 0..40).prop_map(
            move |raw| without_self_overlap(n, raw.into_iter().map(|(sp, a, d, _)| (sp, a, a + d))),
        )
    }

    /// `segs` of `n` speakers grouped by speaker and sorted, each speaker's segment that starts
    /// before the end of their previous one dropped (a speaker never overlaps themselves).
    fn without_self_overlap(
        n: usize,
        segs: impl IntoIterator<Item = (usize, i64, i64)>,
    ) -> Vec<(usize, i64, i64)> {
        let mut by: Vec<Vec<(i64, i64)>> = vec![Vec::new(); n];
        for (sp, a, b) in segs {
            by[sp].push((a, b));
        }
        let mut out = Vec::new();
        for (sp, mut v) in by.into_iter().enumerate() {
            v.sort_unstable();
            let mut last_end = i64::MIN;
            for (a, b) in v {
                if a > last_end {
                    out.push((sp, a, b));
                    last_end = b;
                }
            }
        }
        out
    }

    /// Runs the stream as behind a detector: at each tick `(heard, lag, choice)` the stream
    /// has every edge before `heard − lag` (the committed clock, never going back) and
    /// speculates on the edges up to `heard` (the detector's clock). Per speaker, the last of
    /// its edges in that span is made undecided or not by `choice` (one bit per speaker), the
    /// others are held edges; a speaker without edges there may get an undecided edge that
    /// does not happen (the next bit), as a pause the detector bridges or a run it drops.
    fn run_speculating(
        segments: &[(usize, i64, i64)],
        ticks: &[(i64, i64, u8)],
        p: &Params,
    ) -> Vec<StreamEvent> {
        let mut e = edges(segments);
        e.sort_by_key(|&(t, start, _)| (t, start));
        let mut ticks = ticks.to_vec();
        ticks.sort_unstable();
        let mut s = AnalysisStream::new(4, p).unwrap();
        let mut out = Vec::new();
        let mut given = 0;
        for (heard, lag, choice) in ticks {
            let clock = (heard - lag).max(s.now().get());
            if clock > heard {
                continue;
            }
            while given < e.len() && e[given].0 < clock {
                let (t, start, sp) = e[given];
                let (t, sp) = (Millis::new(t), SpeakerIndex::new(sp));
                if start {
                    s.speech_start(sp, t).unwrap();
                } else {
                    s.speech_end(sp, t).unwrap();
                }
                given += 1;
            }
            out.extend(s.advance(Millis::new(clock)).unwrap());
            let mut h = Heard { until: Millis::new(heard), ..Heard::default() };
            for sp in 0..4 {
                let speaker = SpeakerIndex::new(sp);
                let span: Vec<(i64, bool)> = e[given..]
                    .iter()
                    .take_while(|x| x.0 < heard)
                    .filter(|x| x.2 == sp)
                    .map(|x| (x.0, x.1))
                    .collect();
                let undecided = choice >> (2 * sp) & 1 == 1;
                let phantom = choice >> (2 * sp + 1) & 1 == 1;
                let mut held = span.clone();
                match span.last() {
                    Some(&(t, start)) if undecided => {
                        held.pop();
                        let at = Millis::new(t);
                        h.pending.push((
                            speaker,
                            if start {
                                Pending::Start(at)
                            } else {
                                // Silent up to its next start (at most 400 ms), as the
                                // detector guarantees after an end.
                                let next = e[given..]
                                    .iter()
                                    .find(|x| x.2 == sp && x.0 > t)
                                    .map_or(i64::MAX, |x| x.0);
                                Pending::Pause { at, quiet: Millis::new(next.min(t + 400)) }
                            },
                        ));
                    }
                    None if phantom => {
                        // Talking through `heard` (a pause that will be bridged), or silent
                        // (a run that will be dropped): the edge does not happen.
                        let talking =
                            e[..given].iter().rev().find(|x| x.2 == sp).is_some_and(|x| x.1);
                        let at = Millis::new(clock + (heard - clock) / 2);
                        h.pending.push((
                            speaker,
                            if talking {
                                Pending::Pause { at, quiet: at + Millis::new(400) }
                            } else {
                                Pending::Start(at)
                            },
                        ));
                    }
                    _ => {}
                }
                h.edges.extend(held.into_iter().map(|(t, start)| (speaker, Millis::new(t), start)));
            }
            h.edges.sort_by_key(|&(sp, t, start)| (t, start, sp));
            out.extend(s.speculate(&h));
        }
        for &(t, start, sp) in &e[given..] {
            let (t, sp) = (Millis::new(t), SpeakerIndex::new(sp));
            out.extend(s.advance(t).unwrap());
            if start {
                s.speech_start(sp, t).unwrap();
            } else {
                s.speech_end(sp, t).unwrap();
            }
        }
        let end = Millis::new(segments.iter().map(|x| x.2).max().unwrap_or(0)).max(s.now());
        out.extend(s.advance(end).unwrap());
        out.extend(s.finish(end).unwrap());
        out
    }

    /// The S5′ and S8′ decisions by talkspurt, probabilities apart.
    fn decisions(events: &[StreamEvent]) -> Vec<(usize, StreamEventKind)> {
        let mut out: Vec<(usize, StreamEventKind)> = events
            .iter()
            .filter_map(|e| match &e.kind {
                StreamEventKind::Floor { spurt, .. }
                | StreamEventKind::OnsetDecision { spurt, .. } => {
                    let v = Verdict { spurt: *spurt, event: e.kind.clone(), decision: None };
                    Some((*spurt, v.label().event))
                }
                _ => None,
            })
            .collect();
        out.sort_by_key(|(spurt, k)| (*spurt, matches!(k, StreamEventKind::Floor { .. })));
        out
    }

    /// A long three-speaker conversation (`minutes` of it), deterministic: turns of 1–6 s
    /// with pauses inside, a backchannel in most turns, switches with gaps and overlaps.
    fn long_conversation(minutes: i64) -> Vec<(usize, i64, i64)> {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: i64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) as i64 % n
        };
        let mut segs = Vec::new();
        let (mut t, mut holder) = (0i64, 0usize);
        while t < minutes * 60_000 {
            let mut a = t;
            for _ in 0..1 + next(3) {
                let b = a + 600 + next(2_000);
                segs.push((holder, a, b));
                a = b + 150 + next(700);
            }
            let end = a;
            let listener = (holder + 1 + next(2) as usize) % 3;
            if next(4) > 0 && end - t > 1_500 {
                let at = t + 300 + next(end - t - 1_400);
                segs.push((listener, at, at + 150 + next(500)));
            }
            holder = (holder + 1 + next(2) as usize) % 3;
            t = end - 300 + next(900);
        }
        without_self_overlap(3, segs)
    }

    /// The cost of early commits over a long session: `speculate` every 20 ms behind a
    /// detector 400 ms late, over 10 and over 60 minutes, with the history copied whole into
    /// every future (as before it was shared) and shared. The decisions must be the stream's
    /// without speculating; the times are printed (release build: `cargo test --release -p
    /// overtalk --lib speculation_cost -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn speculation_cost_grows_with_the_session_linearly() {
        let p = calibrated(250);
        for (minutes, whole) in [(10, true), (60, true), (10, false), (60, false)] {
            COPY_WHOLE.with(|c| c.set(whole));
            let segs = long_conversation(minutes);
            // Every 20 ms, each speaker's last edge undecided (or one that does not happen).
            let ticks: Vec<(i64, i64, u8)> =
                (0..minutes * 3_000).map(|k| (k * 20, 400, 0xff)).collect();
            let t0 = std::time::Instant::now();
            let events = run_speculating(&segs, &ticks, &p);
            let spent = t0.elapsed();
            let plain = run(&segs, &[], &p);
            assert_eq!(decisions(&events), decisions(&plain));
            let early = events
                .iter()
                .filter(|e| {
                    matches!(
                        e.kind,
                        StreamEventKind::Floor { .. } | StreamEventKind::OnsetDecision { .. }
                    )
                })
                .count();
            println!(
                "{minutes} min, {}: {} talkspurts, {} decisions, {} checks: {:.3} s ({:.1} µs per check)",
                if whole { "history copied whole" } else { "history shared" },
                segs.len(),
                early,
                ticks.len(),
                spent.as_secs_f64(),
                spent.as_secs_f64() * 1e6 / ticks.len() as f64
            );
        }
    }

    #[test]
    fn a_backchannel_that_stopped_is_committed_at_the_horizon_whichever_way_its_pause_goes() {
        // A holds the floor; B says "yeah" from 3000 and stops at 3200, before the horizon
        // (3250). The detector holds its commits at 3200 until 3600 (the pause may still be
        // bridged); at 3260 both futures tag B's talkspurt a backchannel.
        let p = calibrated(250);
        let mut s = AnalysisStream::new(2, &p).unwrap();
        let (a, b) = (SpeakerIndex::new(0), SpeakerIndex::new(1));
        s.speech_start(a, Millis::new(0)).unwrap();
        s.speech_start(b, Millis::new(3000)).unwrap();
        s.advance(Millis::new(3200)).unwrap();
        let pause = Pending::Pause { at: Millis::new(3200), quiet: Millis::new(3600) };
        let heard =
            |until| Heard { until: Millis::new(until), edges: vec![], pending: vec![(b, pause)] };
        assert_eq!(s.speculate(&heard(3250)), vec![]);
        let events = s.speculate(&heard(3260));
        let tags: Vec<_> =
            events.iter().map(|e| (e.time.get(), e.decided.get(), e.kind.clone())).collect();
        // Its probability differs between the futures (B's talkspurt is 200 ms or longer):
        // left out.
        let tag =
            StreamEventKind::Floor { spurt: 1, speaker: b, backchannel: true, probability: None };
        let not_an_onset = StreamEventKind::NotAnOnset { spurt: 1 };
        assert_eq!(tags, vec![(3000, 3260, tag), (3000, 3260, not_an_onset)]);
        // Once the end is committed (at 3600) the stream takes no decision again.
        s.speech_end(b, Millis::new(3200)).unwrap();
        let later = s.advance(Millis::new(3600)).unwrap();
        assert!(!later.iter().any(|e| matches!(e.kind, StreamEventKind::Floor { .. })));
        // Without the early commit, the same tag at 3600.
        let mut plain = AnalysisStream::new(2, &p).unwrap();
        plain.speech_start(a, Millis::new(0)).unwrap();
        plain.speech_start(b, Millis::new(3000)).unwrap();
        plain.speech_end(b, Millis::new(3200)).unwrap();
        let tags: Vec<_> = plain
            .advance(Millis::new(3600))
            .unwrap()
            .into_iter()
            .filter_map(|e| match e.kind {
                StreamEventKind::Floor { spurt: 1, backchannel, .. } => {
                    Some((e.time.get(), backchannel))
                }
                _ => None,
            })
            .collect();
        assert_eq!(tags, vec![(3000, true)]);
    }

    /// A and B have taken turns; A talks again from 3300 and B comes in at 4000. The
    /// detector heard up to 4300 (B's horizon is 4250) and holds its commits at `clock`,
    /// with one edge of `speaker` undecided.
    fn speculated(
        clock: i64,
        speaker: usize,
        pending: Pending,
    ) -> Vec<(i64, i64, StreamEventKind)> {
        let p = calibrated(250);
        let mut s = AnalysisStream::new(3, &p).unwrap();
        let (a, b) = (SpeakerIndex::new(0), SpeakerIndex::new(1));
        for (sp, t, start) in [(a, 0, true), (a, 1000, false), (b, 1300, true), (b, 3000, false)] {
            if start {
                s.speech_start(sp, Millis::new(t)).unwrap();
            } else {
                s.speech_end(sp, Millis::new(t)).unwrap();
            }
        }
        s.speech_start(a, Millis::new(3300)).unwrap();
        s.speech_start(b, Millis::new(4000)).unwrap();
        s.advance(Millis::new(clock)).unwrap();
        let pending = vec![(SpeakerIndex::new(speaker), pending)];
        let heard = Heard { until: Millis::new(4300), edges: vec![], pending };
        let events = s.speculate(&heard);
        events.into_iter().map(|e| (e.time.get(), e.decided.get(), e.kind)).collect()
    }

    #[test]
    fn a_decision_that_hangs_on_the_undecided_edge_waits() {
        let b = SpeakerIndex::new(1);
        let pause = |at: i64| Pending::Pause { at: Millis::new(at), quiet: Millis::new(at + 400) };
        let floor =
            StreamEventKind::Floor { spurt: 3, speaker: b, backchannel: false, probability: None };
        // A stopped 50–240 ms after B's onset: whether that ends A's turn is the evidence
        // of B's onset itself (a terminal overlap, or a failed interruption, or one that
        // took the floor): its class waits; B's talkspurt is floor-relevant either way.
        for stop in [4050, 4100, 4240] {
            assert_eq!(speculated(stop, 0, pause(stop)), vec![(4000, 4300, floor.clone())]);
        }
    }

    #[test]
    fn a_decision_the_undecided_edge_cannot_change_is_committed_with_its_probabilities() {
        // C's mic has a run from 4220 that the detector may still drop (too short, or no
        // voice yet): it starts after the 200 ms in which it would make B's onset a
        // simultaneous start, and before B's horizon. B's interruption is the same either way
        // and is committed at 4300, with the probabilities the stream gives once C's run is
        // decided, here dropped (the batch analysis of the same speech).
        let (a, b) = (SpeakerIndex::new(0), SpeakerIndex::new(1));
        let early = speculated(4220, 2, Pending::Start(Millis::new(4220)));
        let p = calibrated(250);
        let mut s = AnalysisStream::new(3, &p).unwrap();
        for (sp, t, start) in [(a, 0, true), (a, 1000, false), (b, 1300, true), (b, 3000, false)] {
            if start {
                s.speech_start(sp, Millis::new(t)).unwrap();
            } else {
                s.speech_end(sp, Millis::new(t)).unwrap();
            }
        }
        s.speech_start(a, Millis::new(3300)).unwrap();
        s.speech_start(b, Millis::new(4000)).unwrap();
        let later: Vec<_> = s
            .advance(Millis::new(4300))
            .unwrap()
            .into_iter()
            .filter(|e| {
                matches!(
                    e.kind,
                    StreamEventKind::Floor { spurt: 3, .. }
                        | StreamEventKind::OnsetDecision { spurt: 3, .. }
                )
            })
            .map(|e| (e.time.get(), e.decided.get(), e.kind))
            .collect();
        assert_eq!(early, later);
        assert_eq!(early.len(), 2);
        assert!(matches!(
            &early[1],
            (
                4000,
                4300,
                StreamEventKind::OnsetDecision {
                    spurt: 3,
                    class: Some(OnsetClass::Interruption),
                    probabilities: Some(_),
                    ..
                }
            )
        ));
    }

    /// Behind a detector whose commits lag, with random undecided edges (the true one among
    /// each pair of futures): the committed events are the batch analysis's, and every
    /// decision is the one the stream takes without speculating, probabilities left out only.
    fn check_speculating(
        segs: &[(usize, i64, i64)],
        ticks: &[(i64, i64, u8)],
        h: i64,
    ) -> std::result::Result<(), TestCaseError> {
        let p = calibrated(h);
        let events = run_speculating(segs, ticks, &p);
        prop_assert_eq!(folded(&events), batch(segs, &p));
        let plain = run(segs, &[], &p);
        prop_assert_eq!(decisions(&events), decisions(&plain));
        // Per talkspurt: p(backchannel), then the onset decision's probabilities.
        type Probabilities = (usize, u8, Option<[f64; 2]>);
        let probability = |events: &[StreamEvent]| -> Vec<Probabilities> {
            let mut v: Vec<_> = events
                .iter()
                .filter_map(|e| match &e.kind {
                    StreamEventKind::Floor { spurt, probability, .. } => {
                        Some((*spurt, 0, probability.map(|p| [p, 0.0])))
                    }
                    StreamEventKind::OnsetDecision { spurt, probabilities, .. } => {
                        Some((*spurt, 1, *probabilities))
                    }
                    _ => None,
                })
                .collect();
            v.sort_by_key(|x| (x.0, x.1));
            v
        };
        prop_assert_eq!(probability(&events).len(), probability(&plain).len());
        for (a, b) in probability(&events).iter().zip(probability(&plain)) {
            prop_assert!((a.0, a.1) == (b.0, b.1), "{:?} {:?}", a, b);
            prop_assert!(a.2.is_none() || a.2 == b.2, "{:?} {:?}", a, b);
        }
        decided_after_their_evidence(&events)
    }

    /// Every event is decided no earlier than its evidence is in: an onset's time, a piece's
    /// end, else the event's own time.
    fn decided_after_their_evidence(
        events: &[StreamEvent],
    ) -> std::result::Result<(), TestCaseError> {
        for e in events {
            let evidence = match &e.kind {
                StreamEventKind::Onset(r) => r.time,
                StreamEventKind::Piece { end, .. } => *end,
                _ => e.time,
            };
            prop_assert!(e.decided >= evidence, "{:?}", e);
        }
        Ok(())
    }

    #[test]
    fn a_speaker_silent_since_the_start_does_not_hold_the_shared_history_back() {
        // C says one word at the start; A and B talk on for a minute, all of it settled by
        // 62000. Every talkspurt is shared, C's included (its last one is closed: a future
        // can only read it), and a future in which C starts again leaves the shared part
        // shared.
        let mut segs: Vec<(usize, i64, i64)> = vec![(2, 0, 300)];
        for k in 0..30i64 {
            segs.push((k as usize % 2, 1_000 + k * 2_000, 2_700 + k * 2_000));
        }
        let p = calibrated(500);
        let mut s = AnalysisStream::new(4, &p).unwrap();
        let mut e = edges(&segs);
        e.sort_by_key(|&(t, start, _)| (t, start));
        for (t, start, sp) in e {
            let (t, sp) = (Millis::new(t), SpeakerIndex::new(sp));
            s.advance(t).unwrap();
            if start {
                s.speech_start(sp, t).unwrap();
            } else {
                s.speech_end(sp, t).unwrap();
            }
        }
        s.advance(Millis::new(62_000)).unwrap();
        s.freeze_history();
        assert_eq!((s.spurts.len(), s.spurts.shared_len()), (31, 31));
        let mut copy = s.clone();
        copy.speech_start(SpeakerIndex::new(2), Millis::new(62_100)).unwrap();
        assert!(s.spurts.shares_with(&copy.spurts));
        assert_eq!(copy.spurts.len(), 32);
    }

    #[test]
    fn an_onset_committed_early_waits_for_its_decision_while_a_stop_may_be_bridged() {
        // B opens at 0; A talks [25004, 25704) and [25917, 25959); horizon 1000 ms. At heard
        // 26005 every future tags A's first talkspurt floor, so its onset is queued early.
        // At the clock 26158 its horizon (26004) is past, but A's stop at 25959 is less than
        // `bridge_pause` old: the evidence is not final and S8′ cannot decide yet. The onset
        // must wait for that decision, not be classified without it.
        check_speculating(
            &[(0, 25_004, 25_704), (0, 25_917, 25_959), (1, 0, 1)],
            &[(26_005, 46, 205), (26_549, 391, 0)],
            1000,
        )
        .unwrap();
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn committed_events_equal_the_batch_analysis(
            segs in segments_strategy(),
            ticks in prop::collection::vec(0i64..35_000, 0..30),
            preset in 0usize..6,
        ) {
            // The rules under three parameter sets, and the calibrated classifier at each
            // bounded horizon.
            let p = match preset {
                0 => Params::default(),
                1 => Params::preset(crate::analysis::AnalysisPreset::PureJf),
                2 => Params {
                    bridge_pause: Millis::new(20),
                    bc_max_duration: Millis::new(1500),
                    ..Params::default()
                },
                3 => calibrated(250),
                4 => calibrated(500),
                _ => calibrated(1000),
            };
            let events = run(&segs, &ticks, &p);
            prop_assert_eq!(folded(&events), batch(&segs, &p));
            decided_after_their_evidence(&events)?;
        }

        #[test]
        fn speculative_commits_equal_the_batch_analysis(
            segs in speakers_strategy(4),
            ticks in prop::collection::vec((0i64..35_000, 0i64..700, any::<u8>()), 0..60),
            h in prop::sample::select(vec![250i64, 500, 1000]),
        ) {
            check_speculating(&segs, &ticks, h)?;
        }
    }
}
