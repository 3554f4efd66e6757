//! From detector edges and analysis-stream events to [`LiveEvent`]s: ids, the two clocks, and
//! provisional events later committed (`refers_to`) or retracted.
//!
//! ```text
//! detector   A start (prov) ........ A start (committed)
//! wire       speech_start {id 3, provisional}   speech_start {id 8, committed, refers_to 3}
//! stream     onset B (prov) ........ onset B interruption (committed)
//! wire       onset {id 5, provisional}          interruption {id 12, committed, refers_to 5}
//! ```
//!
//! An interruption is announced before the analysis can classify it: a provisional speech
//! start of a speaker other than the holder, while the holder talks, is at once a provisional
//! `onset` with class `interruption` and the prior [`INTERRUPTION_PRIOR`]. The analysis's own
//! provisional onset of that talkspurt, when it comes, is the same event; its committed class
//! (`interruption`, `onset` or `backchannel`) refers to it, or `NotAnOnset` retracts it:
//!
//! ```text
//! detector   B start (prov, t+20 ms)
//! wire       onset {id 9, provisional, class interruption, probability 0.64}
//! stream     onset B (prov, t+100..600 ms) → no new event, is id 9
//!            onset B interruption (committed, after B's talkspurt closes) → refers_to 9
//! ```

//!
//! With the calibrated classifier (`--classifier calibrated`, the command line's default) the
//! stream decides each onset at `--decision-horizon` after it (`OnsetDecision`): the
//! committed `interruption` (or `onset` with its class) goes out then, with p(attempt) as its
//! `probability`, and the record that follows once the talkspurt ends adds no event. An onset
//! in the holder's silence that the classifier does not call an attempt waits for the rules'
//! class (smooth switch or pause competition needs the outcome).

use std::collections::{HashMap, VecDeque};

use overtalk::analysis::onsets::OnsetClass;
use overtalk::analysis::stream::{StreamEvent, StreamEventKind};
use overtalk::analysis::SpeakerIndex;
use overtalk::output::live::{EventState, LiveEvent, LiveEventKind};
use overtalk_audio::online::{EdgeState, SpeechEdge};

/// Turns detector edges and stream events into wire events.
#[derive(Debug)]
pub(crate) struct Wire {
    /// Speaker names by channel.
    names: Vec<String>,
    /// Channel of each stream speaker index.
    channel_of: Vec<usize>,
    next_id: u64,
    committed_speaking: Vec<bool>,
    provisional_speaking: Vec<bool>,
    /// Per channel: the provisional speech start (end) not yet committed or retracted: its
    /// id and time, so a retraction names what it retracts.
    prov_start: Vec<Option<(u64, f64)>>,
    prov_end: Vec<Option<(u64, f64)>>,
    prov_overlap: Option<u64>,
    in_overlap: bool,
    prov_onsets: HashMap<usize, u64>,
    holder: Option<SpeakerIndex>,
    /// Per channel: the interruption candidate announced from the detector (id, onset time).
    candidates: Vec<Option<(u64, f64)>>,
    /// Onsets the calibrated classifier decided early, by talkspurt: whether that event was
    /// committed then (its class named), and the probability for the final one otherwise.
    early: HashMap<usize, (bool, Option<f64>)>,
    /// When the committed edges come from a detector that lags the provisional ones by more
    /// than a talkspurt (`hybrid`, `lookahead`): the causal rule's `min_silence` in seconds
    /// (see [`Wire::lagging`]).
    reopen_s: Option<f64>,
    /// In that mode, per channel: the provisional starts and ends not yet committed or
    /// retracted, oldest first (id, time).
    pending_starts: Vec<VecDeque<(u64, f64)>>,
    pending_ends: Vec<VecDeque<(u64, f64)>>,
    /// The detector withdraws a provisional start by a provisional end at the start's own
    /// time, and reports every other provisional end as an end (the causal rule; see
    /// [`Wire::withdrawals_at_start`]).
    withdraws_at_start: bool,
}

/// How far a committed edge may lie from the provisional one it confirms (seconds).
const EDGE_MATCH_S: f64 = 0.5;

/// The probability announced with an interruption candidate: the share of interruptions
/// among the floor-relevant onsets made while the holder talks (interruptions and terminal
/// overlaps) in the AMI only_words training meetings, by `overtalk analyze --events onsets`
/// (12 180 of 18 976).
pub(crate) const INTERRUPTION_PRIOR: f64 = 0.64;

/// How close the analysis's provisional onset must be to a candidate to be the same.
const CANDIDATE_MATCH_S: f64 = 0.5;

fn secs(us: i64) -> f64 {
    us as f64 / 1e6
}

fn ms_secs(ms: i64) -> f64 {
    ms as f64 / 1e3
}

impl Wire {
    pub(crate) fn new(names: Vec<String>, channel_of: Vec<usize>) -> Wire {
        let k = names.len();
        Wire {
            names,
            channel_of,
            next_id: 0,
            committed_speaking: vec![false; k],
            provisional_speaking: vec![false; k],
            prov_start: vec![None; k],
            prov_end: vec![None; k],
            prov_overlap: None,
            in_overlap: false,
            prov_onsets: HashMap::new(),
            holder: None,
            candidates: vec![None; k],
            early: HashMap::new(),
            reopen_s: None,
            pending_starts: vec![VecDeque::new(); k],
            pending_ends: vec![VecDeque::new(); k],
            withdraws_at_start: false,
        }
    }

    /// The detector (the causal rule) withdraws a provisional start only by a provisional end
    /// at that start's time (a run too short, or a lead-in that reached no voice); any other
    /// provisional end is where its speech stopped. Then a provisional end goes out as an end
    /// even while the talkspurt's committed start is still held back (committed edges leave in
    /// time order, and another channel's open run may hold them), instead of as the
    /// retraction of the provisional start, so the end is reported one hop after the voice
    /// stops rather than by its commit:
    ///
    /// ```text
    /// causal   start 1.00 (prov)  end 1.60 (prov)  [held]  start 1.00, end 1.60 (committed)
    /// wire     speech_start #0    speech_end #1            refers_to #0, refers_to #1
    /// causal   start 3.00 (prov)  end 3.05 (prov)  end 3.00 (prov: too short)
    /// wire     speech_start #4    speech_end #5    speech_end #5 and speech_start #4 retracted
    /// ```
    pub(crate) fn withdrawals_at_start(&mut self) {
        self.withdraws_at_start = true;
    }

    /// The committed edges lag the provisional ones by seconds (a look-ahead detector behind
    /// the causal rule's provisional edges), so several provisional talkspurts may wait for
    /// their commit at once. Then a provisional end is an end, not the retraction of its
    /// start; a provisional start within `reopen_s` (the causal rule's `min_silence`) of the
    /// provisional end before it retracts that end (the causal rule reopened its run); a
    /// committed edge refers to the provisional edge of its kind within [`EDGE_MATCH_S`]; and
    /// once the commit clock is [`EDGE_MATCH_S`] past a provisional edge that no committed
    /// edge confirmed, it is retracted ([`Wire::commit_clock`]):
    ///
    /// ```text
    /// causal      start 1.00 ... end 1.30    start 2.00 . end 2.20
    /// wire        prov start #0, prov end #1  prov start #2, prov end #3
    /// look-ahead  committed start 0.98 → #0, end 1.32 → #1   (at 3.5 s)
    /// clock 3.5   #2 and #3 retracted: the committed speech has no run there
    /// ```
    pub(crate) fn lagging(&mut self, reopen_s: f64) {
        self.reopen_s = Some(reopen_s);
    }

    fn name_of_stream(&self, speaker: SpeakerIndex) -> Option<String> {
        self.channel_of.get(speaker.index()).and_then(|&c| self.names.get(c)).cloned()
    }

    fn event(
        &mut self,
        kind: LiveEventKind,
        state: EventState,
        t_s: f64,
        decided_s: f64,
    ) -> LiveEvent {
        let id = self.next_id;
        self.next_id += 1;
        LiveEvent {
            id,
            kind,
            state,
            t_s,
            decided_s,
            speaker: None,
            holder: None,
            class: None,
            probability: None,
            refers_to: None,
            action: None,
            warning: None,
            revised: false,
        }
    }

    /// A revision event (see [`crate::revise`]): `like`'s kind, time, speaker, holder, class
    /// and probability, in `state`, referring to `refers_to`, with the next id.
    pub(crate) fn revision(
        &mut self,
        like: &LiveEvent,
        state: EventState,
        refers_to: Option<u64>,
        decided_s: f64,
    ) -> LiveEvent {
        let mut ev = self.event(like.kind, state, like.t_s, decided_s);
        ev.speaker.clone_from(&like.speaker);
        ev.holder.clone_from(&like.holder);
        ev.class.clone_from(&like.class);
        ev.probability = like.probability;
        ev.refers_to = refers_to;
        ev.revised = true;
        ev
    }

    /// A warning about `speaker`'s input (`kind`, `message`: [`LiveWarning`]) in `state`,
    /// referring to the provisional warning it commits or retracts, with the next id.
    ///
    /// [`LiveWarning`]: overtalk::output::live::LiveWarning
    #[allow(clippy::too_many_arguments)] // an event's fields, each its own
    pub(crate) fn warning(
        &mut self,
        speaker: &str,
        kind: &str,
        message: String,
        t_s: f64,
        decided_s: f64,
        state: EventState,
        refers_to: Option<u64>,
    ) -> LiveEvent {
        let mut ev = self.event(LiveEventKind::Warning, state, t_s, decided_s);
        ev.speaker = Some(speaker.to_owned());
        ev.refers_to = refers_to;
        ev.warning = Some(overtalk::output::live::LiveWarning { kind: kind.to_owned(), message });
        ev
    }

    fn holder_name(&self) -> Option<String> {
        self.holder.and_then(|h| self.name_of_stream(h))
    }

    fn retract(&mut self, refers: u64, t_s: f64, decided_s: f64, kind: LiveEventKind) -> LiveEvent {
        let mut e = self.event(kind, EventState::Retracted, t_s, decided_s);
        e.refers_to = Some(refers);
        e
    }

    /// Pushes a provisional speech edge (`kind`) of channel `c` at `t_s`; returns its id.
    fn provisional_edge(
        &mut self,
        c: usize,
        kind: LiveEventKind,
        t_s: f64,
        decided_s: f64,
        out: &mut Vec<LiveEvent>,
    ) -> u64 {
        let mut ev = self.event(kind, EventState::Provisional, t_s, decided_s);
        ev.speaker = self.names.get(c).cloned();
        let id = ev.id;
        out.push(ev);
        id
    }

    /// Pushes the retraction of channel `c`'s event `refers` (a `kind` dated `at`).
    fn retract_edge(
        &mut self,
        c: usize,
        refers: u64,
        at: f64,
        decided_s: f64,
        kind: LiveEventKind,
        out: &mut Vec<LiveEvent>,
    ) {
        let mut ev = self.retract(refers, at, decided_s, kind);
        ev.speaker = self.names.get(c).cloned();
        out.push(ev);
    }

    /// Pushes channel `c`'s committed start (`speaking`) or end, confirming the provisional
    /// event `refers` when there is one.
    fn committed_edge(
        &mut self,
        c: usize,
        speaking: bool,
        refers: Option<u64>,
        t_s: f64,
        decided_s: f64,
        out: &mut Vec<LiveEvent>,
    ) {
        let kind = if speaking { LiveEventKind::SpeechStart } else { LiveEventKind::SpeechEnd };
        let mut ev = self.event(kind, EventState::Committed, t_s, decided_s);
        ev.speaker = self.names.get(c).cloned();
        ev.refers_to = refers;
        out.push(ev);
        self.committed_speaking[c] = speaking;
    }

    /// The wire events of one detector edge.
    pub(crate) fn edge(&mut self, e: &SpeechEdge, out: &mut Vec<LiveEvent>) {
        let c = e.track;
        let (t_s, decided_s) = (secs(e.time.micros()), secs(e.decided.micros()));
        let before = self.provisional_speaking.iter().filter(|&&s| s).count();
        if let Some(reopen) = self.reopen_s {
            if !self.lagging_edge(e, reopen, t_s, decided_s, out) {
                return;
            }
        } else {
            self.leading_edge(e, t_s, decided_s, out);
        }
        // The provisional view of who talks: the committed state, or the newer report.
        self.provisional_speaking[c] = e.speaking;
        self.provisional_overlap(before, c, t_s, decided_s, out);
    }

    /// One edge when the committed edges lag (see [`Wire::lagging`]); false for a committed
    /// edge, which says nothing about the provisional view.
    fn lagging_edge(
        &mut self,
        e: &SpeechEdge,
        reopen: f64,
        t_s: f64,
        decided_s: f64,
        out: &mut Vec<LiveEvent>,
    ) -> bool {
        let c = e.track;
        match (e.state, e.speaking) {
            (EdgeState::Provisional, true) => {
                match self.pending_ends[c].back().copied() {
                    Some((r, at)) if t_s - at < reopen => {
                        self.pending_ends[c].pop_back();
                        self.retract_edge(c, r, at, decided_s, LiveEventKind::SpeechEnd, out);
                    }
                    _ => {
                        let id = self.provisional_edge(
                            c,
                            LiveEventKind::SpeechStart,
                            t_s,
                            decided_s,
                            out,
                        );
                        self.pending_starts[c].push_back((id, t_s));
                        self.candidate(c, t_s, decided_s, out);
                    }
                }
                true
            }
            (EdgeState::Provisional, false) => {
                let id = self.provisional_edge(c, LiveEventKind::SpeechEnd, t_s, decided_s, out);
                self.pending_ends[c].push_back((id, t_s));
                true
            }
            (EdgeState::Committed, speaking) => {
                // Older provisional edges of the kind that this one does not confirm go first.
                self.expire(c, speaking, t_s - EDGE_MATCH_S, decided_s, out);
                let pending =
                    if speaking { &mut self.pending_starts[c] } else { &mut self.pending_ends[c] };
                let refers = match pending.front() {
                    Some(&(id, at)) if (at - t_s).abs() <= EDGE_MATCH_S => {
                        pending.pop_front();
                        Some(id)
                    }
                    _ => None,
                };
                self.committed_edge(c, speaking, refers, t_s, decided_s, out);
                false
            }
        }
    }

    /// Retracts channel `c`'s provisional starts (or ends) dated before `before`.
    fn expire(
        &mut self,
        c: usize,
        starts: bool,
        before: f64,
        decided_s: f64,
        out: &mut Vec<LiveEvent>,
    ) {
        loop {
            let pending =
                if starts { &mut self.pending_starts[c] } else { &mut self.pending_ends[c] };
            let Some(&(r, at)) = pending.front().filter(|&&(_, at)| at < before) else {
                return;
            };
            pending.pop_front();
            let kind = if starts { LiveEventKind::SpeechStart } else { LiveEventKind::SpeechEnd };
            self.retract_edge(c, r, at, decided_s, kind, out);
            if starts {
                if let Some((id, cat)) = self.candidates[c] {
                    if cat == at && !self.prov_onsets.values().any(|&v| v == id) {
                        self.candidates[c] = None;
                        self.retract_edge(c, id, at, decided_s, LiveEventKind::Onset, out);
                    }
                }
            }
        }
    }

    /// The committed speech is final up to `committed_s` (lagging mode only): every
    /// provisional edge more than [`EDGE_MATCH_S`] before it that no committed edge confirmed
    /// is retracted.
    pub(crate) fn commit_clock(
        &mut self,
        committed_s: f64,
        decided_s: f64,
        out: &mut Vec<LiveEvent>,
    ) {
        if self.reopen_s.is_none() {
            return;
        }
        for c in 0..self.names.len() {
            self.expire(c, true, committed_s - EDGE_MATCH_S, decided_s, out);
            self.expire(c, false, committed_s - EDGE_MATCH_S, decided_s, out);
        }
    }

    /// One edge when the committed edges follow the provisional ones within a talkspurt.
    fn leading_edge(&mut self, e: &SpeechEdge, t_s: f64, decided_s: f64, out: &mut Vec<LiveEvent>) {
        let c = e.track;
        match (e.state, e.speaking) {
            (EdgeState::Provisional, true) => {
                if let Some((r, at)) = self.prov_end[c].take() {
                    self.retract_edge(c, r, at, decided_s, LiveEventKind::SpeechEnd, out);
                } else if !self.committed_speaking[c] {
                    let id =
                        self.provisional_edge(c, LiveEventKind::SpeechStart, t_s, decided_s, out);
                    self.prov_start[c] = Some((id, t_s));
                    self.candidate(c, t_s, decided_s, out);
                }
            }
            (EdgeState::Provisional, false)
                if self.withdraws_at_start
                    && self.prov_start[c].is_some_and(|(_, at)| at != t_s) =>
            {
                // The speech stopped before its start was committed: an end, which the
                // committed end will confirm (or a withdrawal at the start retract).
                if self.prov_end[c].is_none() {
                    let id =
                        self.provisional_edge(c, LiveEventKind::SpeechEnd, t_s, decided_s, out);
                    self.prov_end[c] = Some((id, t_s));
                }
            }
            (EdgeState::Provisional, false) => {
                if self.withdraws_at_start {
                    // A withdrawal: the provisional end reported before it goes too.
                    if let Some((r, at)) = self.prov_end[c].take() {
                        self.retract_edge(c, r, at, decided_s, LiveEventKind::SpeechEnd, out);
                    }
                }
                if let Some((r, at)) = self.prov_start[c].take() {
                    self.retract_edge(c, r, at, decided_s, LiveEventKind::SpeechStart, out);
                    if let Some((id, at)) = self.candidates[c].take() {
                        if !self.prov_onsets.values().any(|&v| v == id) {
                            self.retract_edge(c, id, at, decided_s, LiveEventKind::Onset, out);
                        }
                    }
                } else if self.committed_speaking[c] {
                    let id =
                        self.provisional_edge(c, LiveEventKind::SpeechEnd, t_s, decided_s, out);
                    self.prov_end[c] = Some((id, t_s));
                }
            }
            (EdgeState::Committed, speaking) => {
                let refers =
                    if speaking { self.prov_start[c].take() } else { self.prov_end[c].take() };
                self.committed_edge(c, speaking, refers.map(|(id, _)| id), t_s, decided_s, out);
            }
        }
    }

    /// A provisional overlap starts or ends with channel `c`'s newest report (`before`
    /// channels talked before it).
    fn provisional_overlap(
        &mut self,
        before: usize,
        c: usize,
        t_s: f64,
        decided_s: f64,
        out: &mut Vec<LiveEvent>,
    ) {
        let after = self.provisional_speaking.iter().filter(|&&s| s).count();
        if before < 2 && after >= 2 && self.prov_overlap.is_none() {
            let mut ev =
                self.event(LiveEventKind::OverlapStart, EventState::Provisional, t_s, decided_s);
            ev.speaker = self.names.get(c).cloned();
            ev.holder = self.holder_name();
            self.prov_overlap = Some(ev.id);
            out.push(ev);
        } else if before >= 2 && after < 2 && !self.in_overlap {
            if let Some(r) = self.prov_overlap.take() {
                // Provisional overlaps that the committed timeline never shows are retracted
                // when the committed overlap does not come; here it ended before commit.
                let mut ev =
                    self.event(LiveEventKind::OverlapEnd, EventState::Provisional, t_s, decided_s);
                ev.refers_to = Some(r);
                out.push(ev);
            }
        }
    }

    /// Announces an interruption candidate when channel `c` starts while the holder talks.
    fn candidate(&mut self, c: usize, t_s: f64, decided_s: f64, out: &mut Vec<LiveEvent>) {
        let Some(h) = self.holder.and_then(|h| self.channel_of.get(h.index()).copied()) else {
            return;
        };
        if h == c || !self.provisional_speaking.get(h).copied().unwrap_or(false) {
            return;
        }
        let mut ev = self.event(LiveEventKind::Onset, EventState::Provisional, t_s, decided_s);
        ev.speaker = self.names.get(c).cloned();
        ev.holder = self.names.get(h).cloned();
        ev.class = Some("interruption".to_owned());
        ev.probability = Some(INTERRUPTION_PRIOR);
        self.candidates[c] = Some((ev.id, t_s));
        out.push(ev);
    }

    /// The committed event of a classified onset: an `interruption` for an attempt (the
    /// rule book's interruption or silent interruption), else an `onset`; it refers to the
    /// provisional onset of the talkspurt.
    fn onset(
        &mut self,
        spurt: usize,
        speaker: SpeakerIndex,
        holder: Option<SpeakerIndex>,
        class: OnsetClass,
        t_s: f64,
        decided_s: f64,
    ) -> LiveEvent {
        let kind = if matches!(class, OnsetClass::Interruption | OnsetClass::SilentInterruption) {
            LiveEventKind::Interruption
        } else {
            LiveEventKind::Onset
        };
        let mut ev = self.event(kind, EventState::Committed, t_s, decided_s);
        ev.speaker = self.name_of_stream(speaker);
        ev.holder = holder.and_then(|h| self.name_of_stream(h));
        ev.class = Some(class.name().to_owned());
        ev.refers_to = self.prov_onsets.remove(&spurt);
        ev
    }

    /// The wire events of one analysis-stream event, emitted at audio time `decided_s`.
    pub(crate) fn stream(&mut self, e: &StreamEvent, decided_s: f64, out: &mut Vec<LiveEvent>) {
        let t_s = ms_secs(e.time.get());
        match &e.kind {
            StreamEventKind::Piece { active, .. } => {
                let overlap = active.len() >= 2;
                if overlap && !self.in_overlap {
                    self.in_overlap = true;
                    let mut ev = self.event(
                        LiveEventKind::OverlapStart,
                        EventState::Committed,
                        t_s,
                        decided_s,
                    );
                    ev.refers_to = self.prov_overlap.take();
                    ev.holder = self.holder_name();
                    out.push(ev);
                } else if !overlap && self.in_overlap {
                    self.in_overlap = false;
                    let mut ev = self.event(
                        LiveEventKind::OverlapEnd,
                        EventState::Committed,
                        t_s,
                        decided_s,
                    );
                    ev.holder = self.holder_name();
                    out.push(ev);
                }
            }
            StreamEventKind::Claim { speaker, .. } => {
                let previous = self.holder_name();
                self.holder = Some(*speaker);
                let mut ev =
                    self.event(LiveEventKind::FloorChange, EventState::Committed, t_s, decided_s);
                ev.speaker = self.name_of_stream(*speaker);
                ev.holder = previous;
                out.push(ev);
            }
            StreamEventKind::ProvisionalOnset { spurt, speaker, holder } => {
                let channel = self.channel_of.get(speaker.index()).copied();
                if let Some((id, at)) = channel.and_then(|c| self.candidates[c].take()) {
                    if (at - t_s).abs() <= CANDIDATE_MATCH_S {
                        // Announced already: the candidate is this onset.
                        self.prov_onsets.insert(*spurt, id);
                        return;
                    }
                    out.push(self.retract(id, t_s, decided_s, LiveEventKind::Onset));
                }
                let mut ev =
                    self.event(LiveEventKind::Onset, EventState::Provisional, t_s, decided_s);
                ev.speaker = self.name_of_stream(*speaker);
                ev.holder = holder.and_then(|h| self.name_of_stream(h));
                self.prov_onsets.insert(*spurt, ev.id);
                out.push(ev);
            }
            StreamEventKind::Onset(rec) => {
                let probability = match self.early.remove(&rec.spurt) {
                    // Committed when the classifier decided it, with this very class.
                    Some((true, _)) => return,
                    Some((false, p)) => p,
                    None => None,
                };
                let mut ev =
                    self.onset(rec.spurt, rec.speaker, rec.holder, rec.class, t_s, decided_s);
                ev.probability = probability;
                out.push(ev);
            }
            StreamEventKind::OnsetDecision { spurt, speaker, holder, class, probabilities } => {
                // p(attempt): an interruption, successful or not.
                let attempt = probabilities.map(|p| p[0] + p[1]);
                let Some(class) = *class else {
                    self.early.insert(*spurt, (false, attempt.map(|p| 1.0 - p)));
                    return;
                };
                self.early.insert(*spurt, (true, None));
                let mut ev = self.onset(*spurt, *speaker, *holder, class, t_s, decided_s);
                ev.probability = match ev.kind {
                    LiveEventKind::Interruption => attempt,
                    _ => attempt.map(|p| 1.0 - p),
                };
                out.push(ev);
            }
            StreamEventKind::Floor { spurt, speaker, backchannel: true, probability } => {
                let mut ev =
                    self.event(LiveEventKind::Backchannel, EventState::Committed, t_s, decided_s);
                ev.speaker = self.name_of_stream(*speaker);
                ev.holder = self.holder_name();
                ev.class = Some("backchannel".to_owned());
                ev.probability = *probability;
                ev.refers_to = self.prov_onsets.remove(spurt);
                out.push(ev);
            }
            StreamEventKind::NotAnOnset { spurt } => {
                if let Some(r) = self.prov_onsets.remove(spurt) {
                    out.push(self.retract(r, t_s, decided_s, LiveEventKind::Onset));
                }
            }
            StreamEventKind::TalkspurtStart { .. }
            | StreamEventKind::TalkspurtEnd { .. }
            | StreamEventKind::Floor { backchannel: false, .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use overtalk::analysis::onsets::{OnsetRec, Outcome};
    use overtalk::analysis::Millis;
    use overtalk::Time;

    fn edge(track: usize, speaking: bool, ms: i64, decided: i64, state: EdgeState) -> SpeechEdge {
        SpeechEdge {
            track,
            speaking,
            time: Time::from_micros(ms * 1000),
            decided: Time::from_micros(decided * 1000),
            state,
        }
    }

    fn claim(speaker: usize, ms: i64) -> StreamEvent {
        let (time, speaker) = (Millis::new(ms), SpeakerIndex::new(speaker));
        StreamEvent { time, decided: time, kind: StreamEventKind::Claim { spurt: 0, speaker } }
    }

    /// The record of speaker 1's interruption of speaker 0 at 2 s, which took the floor.
    fn interruption_of_1_over_0_at_2s() -> OnsetRec {
        OnsetRec {
            speaker: SpeakerIndex::new(1),
            time: Millis::new(2000),
            spurt: 1,
            holder: Some(SpeakerIndex::new(0)),
            class: OnsetClass::Interruption,
            outcome: Outcome::FloorTaken,
            ferguson: None,
            partner: None,
            dist_to_completion: None,
            holder_remaining: None,
        }
    }

    fn names() -> Wire {
        Wire::new(vec!["A".to_owned(), "B".to_owned()], vec![0, 1])
    }

    fn brief(out: &[LiveEvent]) -> Vec<(u64, LiveEventKind, EventState, Option<u64>, f64)> {
        out.iter().map(|e| (e.id, e.kind, e.state, e.refers_to, e.decided_s)).collect()
    }

    #[test]
    fn lagging_commits_confirm_or_retract_each_provisional_talkspurt() {
        use EdgeState::{Committed, Provisional};
        let mut w = names();
        w.lagging(0.4);
        let mut out = Vec::new();
        // The causal rule: A talks 1.00–1.30 s, then 2.00–2.20 s; a pause of 0.1 s at 2.10 s
        // that it bridges (a start within 0.4 s of its end retracts that end).
        for (speaking, ms) in [(true, 1000), (false, 1300), (true, 2000), (false, 2100)] {
            w.edge(&edge(0, speaking, ms, ms + 10, Provisional), &mut out);
        }
        w.edge(&edge(0, true, 2150, 2160, Provisional), &mut out);
        w.edge(&edge(0, false, 2200, 2210, Provisional), &mut out);
        // The look-ahead detector commits 0.98–1.32 s only, at 3.5 s; its clock then is 3.0 s.
        w.edge(&edge(0, true, 980, 3500, Committed), &mut out);
        w.edge(&edge(0, false, 1320, 3500, Committed), &mut out);
        w.commit_clock(3.0, 3.5, &mut out);
        use EventState::{Committed as C, Provisional as P, Retracted as R};
        use LiveEventKind::{SpeechEnd as End, SpeechStart as Start};
        assert_eq!(
            brief(&out),
            [
                (0, Start, P, None, 1.01),
                (1, End, P, None, 1.31),
                (2, Start, P, None, 2.01),
                (3, End, P, None, 2.11),
                (4, End, R, Some(3), 2.16),
                (5, End, P, None, 2.21),
                (6, Start, C, Some(0), 3.5),
                (7, End, C, Some(1), 3.5),
                (8, Start, R, Some(2), 3.5),
                (9, End, R, Some(5), 3.5),
            ]
        );
        // Each retraction names the time of what it retracts.
        assert_eq!(out[8].t_s, 2.0);
        assert_eq!(out[9].t_s, 2.2);
    }

    #[test]
    fn a_start_in_the_holders_speech_is_announced_at_once_and_committed_later() {
        let mut w = names();
        let mut out = Vec::new();
        w.edge(&edge(0, true, 0, 20, EdgeState::Provisional), &mut out);
        w.stream(&claim(0, 0), 0.5, &mut out);
        out.clear();
        // B starts at 2.00 s while A, the holder, talks: the candidate comes with the start.
        w.edge(&edge(1, true, 2000, 2020, EdgeState::Provisional), &mut out);
        assert_eq!(
            brief(&out),
            vec![
                (2, LiveEventKind::SpeechStart, EventState::Provisional, None, 2.02),
                (3, LiveEventKind::Onset, EventState::Provisional, None, 2.02),
                (4, LiveEventKind::OverlapStart, EventState::Provisional, None, 2.02),
            ]
        );
        assert_eq!(out[1].class.as_deref(), Some("interruption"));
        assert_eq!(out[1].probability, Some(INTERRUPTION_PRIOR));
        assert_eq!((out[1].speaker.as_deref(), out[1].holder.as_deref()), (Some("B"), Some("A")));
        out.clear();
        // The analysis's provisional onset of B's talkspurt is the candidate: no new event.
        let prov = StreamEvent {
            time: Millis::new(2000),
            decided: Millis::new(2400),
            kind: StreamEventKind::ProvisionalOnset {
                spurt: 1,
                speaker: SpeakerIndex::new(1),
                holder: Some(SpeakerIndex::new(0)),
            },
        };
        w.stream(&prov, 2.4, &mut out);
        assert!(out.is_empty(), "{out:?}");
        // Classified: the committed interruption refers to the candidate.
        let rec = interruption_of_1_over_0_at_2s();
        let onset = StreamEvent {
            time: Millis::new(2000),
            decided: Millis::new(5000),
            kind: StreamEventKind::Onset(rec),
        };
        w.stream(&onset, 5.0, &mut out);
        assert_eq!(
            brief(&out),
            vec![(5, LiveEventKind::Interruption, EventState::Committed, Some(3), 5.0)]
        );
    }

    #[test]
    fn a_calibrated_decision_commits_the_interruption_once_at_the_horizon() {
        let mut w = names();
        let mut out = Vec::new();
        w.edge(&edge(0, true, 0, 20, EdgeState::Provisional), &mut out);
        w.stream(&claim(0, 0), 0.5, &mut out);
        w.edge(&edge(1, true, 2000, 2020, EdgeState::Provisional), &mut out);
        let prov = StreamEvent {
            time: Millis::new(2000),
            decided: Millis::new(2100),
            kind: StreamEventKind::ProvisionalOnset {
                spurt: 1,
                speaker: SpeakerIndex::new(1),
                holder: Some(SpeakerIndex::new(0)),
            },
        };
        w.stream(&prov, 2.1, &mut out);
        out.clear();
        // The classifier decides at the horizon (250 ms): the interruption is committed then,
        // referring to the candidate, with p(attempt).
        let decision = StreamEvent {
            time: Millis::new(2000),
            decided: Millis::new(2260),
            kind: StreamEventKind::OnsetDecision {
                spurt: 1,
                speaker: SpeakerIndex::new(1),
                holder: Some(SpeakerIndex::new(0)),
                class: Some(OnsetClass::Interruption),
                probabilities: Some([0.25, 0.125]),
            },
        };
        w.stream(&decision, 2.26, &mut out);
        assert_eq!(
            brief(&out),
            vec![(5, LiveEventKind::Interruption, EventState::Committed, Some(3), 2.26)]
        );
        assert_eq!(out[0].probability, Some(0.375));
        assert_eq!(out[0].class.as_deref(), Some("interruption"));
        out.clear();
        // The record that follows once the talkspurt has ended is the same: no second event.
        let rec = interruption_of_1_over_0_at_2s();
        w.stream(
            &StreamEvent {
                time: Millis::new(2000),
                decided: Millis::new(5000),
                kind: StreamEventKind::Onset(rec),
            },
            5.0,
            &mut out,
        );
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn a_candidate_whose_start_is_withdrawn_is_retracted() {
        let mut w = names();
        let mut out = Vec::new();
        w.edge(&edge(0, true, 0, 20, EdgeState::Provisional), &mut out);
        w.stream(&claim(0, 0), 0.5, &mut out);
        w.edge(&edge(1, true, 2000, 2020, EdgeState::Provisional), &mut out);
        out.clear();
        // Too short: the detector withdraws the start, and the candidate goes with it.
        w.edge(&edge(1, false, 2000, 2450, EdgeState::Provisional), &mut out);
        let kinds: Vec<_> = out.iter().map(|e| (e.kind, e.state, e.refers_to)).collect();
        assert_eq!(
            kinds,
            vec![
                (LiveEventKind::SpeechStart, EventState::Retracted, Some(2)),
                (LiveEventKind::Onset, EventState::Retracted, Some(3)),
                (LiveEventKind::OverlapEnd, EventState::Provisional, Some(4)),
            ]
        );
        // Each retraction names the speaker and the time of what it retracts.
        for e in &out[..2] {
            assert_eq!((e.speaker.as_deref(), e.t_s, e.decided_s), (Some("B"), 2.0, 2.45));
        }
        // A start again within the gap retracts the provisional end, at the end's time.
        out.clear();
        w.edge(&edge(0, true, 0, 20, EdgeState::Committed), &mut out);
        w.edge(&edge(0, false, 3000, 3010, EdgeState::Provisional), &mut out);
        out.clear();
        w.edge(&edge(0, true, 2600, 3200, EdgeState::Provisional), &mut out);
        let retraction = &out[0];
        assert_eq!(
            (retraction.kind, retraction.state),
            (LiveEventKind::SpeechEnd, EventState::Retracted)
        );
        assert_eq!((retraction.speaker.as_deref(), retraction.t_s), (Some("A"), 3.0));
    }

    #[test]
    fn with_withdrawals_at_start_an_end_before_the_commit_is_reported_as_an_end() {
        use EdgeState::{Committed, Provisional};
        use EventState::{Committed as C, Provisional as P, Retracted as R};
        use LiveEventKind::{SpeechEnd as End, SpeechStart as Start};
        let mut w = names();
        w.withdrawals_at_start();
        let mut out = Vec::new();
        // A talks 1.00–1.60 s; its committed start is held back (B's open run) until 2.0 s.
        w.edge(&edge(0, true, 1000, 1010, Provisional), &mut out);
        w.edge(&edge(0, false, 1600, 1610, Provisional), &mut out);
        w.edge(&edge(0, true, 1000, 2000, Committed), &mut out);
        w.edge(&edge(0, false, 1600, 2000, Committed), &mut out);
        // 3.00–3.05 s, too short: the end at 3.05 s is an end, then the withdrawal at the
        // start's time (3.00 s) retracts the end and the start.
        w.edge(&edge(0, true, 3000, 3010, Provisional), &mut out);
        w.edge(&edge(0, false, 3050, 3060, Provisional), &mut out);
        w.edge(&edge(0, false, 3000, 3450, Provisional), &mut out);
        // 5.00–5.30 s, then speech again at 5.50 s: the gap closes (a start at the run's
        // start), which retracts the end; the run is committed, ends at 6.00 s.
        w.edge(&edge(0, true, 5000, 5010, Provisional), &mut out);
        w.edge(&edge(0, false, 5300, 5310, Provisional), &mut out);
        w.edge(&edge(0, true, 5000, 5510, Provisional), &mut out);
        w.edge(&edge(0, false, 6000, 6010, Provisional), &mut out);
        w.edge(&edge(0, true, 5000, 6100, Committed), &mut out);
        w.edge(&edge(0, false, 6000, 6400, Committed), &mut out);
        let got: Vec<_> = out.iter().map(|e| (e.id, e.kind, e.state, e.refers_to, e.t_s)).collect();
        assert_eq!(
            got,
            [
                (0, Start, P, None, 1.0),
                (1, End, P, None, 1.6),
                (2, Start, C, Some(0), 1.0),
                (3, End, C, Some(1), 1.6),
                (4, Start, P, None, 3.0),
                (5, End, P, None, 3.05),
                (6, End, R, Some(5), 3.05),
                (7, Start, R, Some(4), 3.0),
                (8, Start, P, None, 5.0),
                (9, End, P, None, 5.3),
                (10, End, R, Some(9), 5.3),
                (11, End, P, None, 6.0),
                (12, Start, C, Some(8), 5.0),
                (13, End, C, Some(11), 6.0),
            ]
        );
        // The same edges without the mode: the end before the commit retracts the start,
        // and the end is first reported by its commit.
        let mut w = names();
        let mut out = Vec::new();
        w.edge(&edge(0, true, 1000, 1010, Provisional), &mut out);
        w.edge(&edge(0, false, 1600, 1610, Provisional), &mut out);
        w.edge(&edge(0, true, 1000, 2000, Committed), &mut out);
        w.edge(&edge(0, false, 1600, 2000, Committed), &mut out);
        let got: Vec<_> = out.iter().map(|e| (e.id, e.kind, e.state, e.refers_to, e.t_s)).collect();
        assert_eq!(
            got,
            [
                (0, Start, P, None, 1.0),
                (1, Start, R, Some(0), 1.0),
                (2, Start, C, None, 1.0),
                (3, End, C, None, 1.6),
            ]
        );
    }

    #[test]
    fn no_candidate_without_a_holder_talking() {
        let mut w = names();
        let mut out = Vec::new();
        w.edge(&edge(0, true, 0, 20, EdgeState::Provisional), &mut out);
        w.stream(&claim(0, 0), 0.5, &mut out);
        w.edge(&edge(0, false, 1000, 1020, EdgeState::Provisional), &mut out);
        out.clear();
        w.edge(&edge(1, true, 2000, 2020, EdgeState::Provisional), &mut out);
        assert!(out.iter().all(|e| e.kind != LiveEventKind::Onset), "{out:?}");
    }
}
