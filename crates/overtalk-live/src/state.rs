//! The floor state, folded from the live event stream: who holds the floor, who is speaking,
//! talk time per speaker, interruption and backchannel counts, and what the actuators were last
//! asked to do per channel. A [`Snapshot`] of it is what the web page draws on connect and after
//! a resync, so a client that missed events is shown exactly what the fold says now.
//!
//! Everything here follows from the events themselves (plus the audio clock for the talk time of
//! a talkspurt still running):
//!
//! ```text
//! events   speech_start A@0.0   speech_start B@2.0   speech_end B@2.4   speech_end A@5.0
//! A        [==================================================)            talk 5.0 s
//! B                             [====)                                     talk 0.4 s
//! holder   floor_change A@0.3 ──────────────────────────────────────────►  A
//! ```
//!
//! Only committed interruptions and backchannels are counted: a provisional one may still be
//! retracted, and the offline analysis counts what was committed.

use std::collections::{BTreeMap, VecDeque};

use overtalk::output::live::{EventState, LiveEvent, LiveEventKind};
use serde::{Deserialize, Serialize};

/// At most this many speakers are tracked; events naming further speakers are counted in
/// [`Snapshot::ignored_events`] (a hostile or broken stream cannot grow the state without bound).
pub const MAX_SPEAKERS: usize = 256;

/// Talkspurts kept per speaker for drawing the lanes of a page that connects late.
pub const RECENT_SPURTS: usize = 64;

/// What a channel's actuators were last asked to do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ChannelLevel {
    /// Muted by the rule.
    pub muted: bool,
    /// Lowered by this many dB (0 when not ducked).
    pub duck_db: f64,
}

impl ChannelLevel {
    /// Open: neither muted nor ducked.
    pub const OPEN: ChannelLevel = ChannelLevel { muted: false, duck_db: 0.0 };

    /// Whether anything is set that the fail-safe must release.
    pub fn is_open(&self) -> bool {
        !self.muted && self.duck_db == 0.0
    }
}

/// One speaker's part of the state.
#[derive(Clone, Debug, Default, PartialEq)]
struct SpeakerState {
    speaking_since: Option<f64>,
    talk_closed_s: f64,
    interruptions_made: u64,
    interrupted: u64,
    backchannels: u64,
    level: ChannelLevel,
    recent: VecDeque<(f64, f64)>,
    /// The event that opened the running (or last) talkspurt and the one that closed the
    /// last: a later event referring to them confirms them, a retraction of the end reopens
    /// the talkspurt.
    start_id: Option<u64>,
    end_id: Option<u64>,
}

/// The state folded from the events.
#[derive(Clone, Debug, Default)]
pub struct FloorState {
    speakers: BTreeMap<String, SpeakerState>,
    holder: Option<String>,
    clock_s: f64,
    last_event_id: Option<u64>,
    events: u64,
    ignored_events: u64,
    interruptions: u64,
    backchannels: u64,
    floor_changes: u64,
    overlaps: u64,
    actions: u64,
    actions_failed: u64,
}

/// A speaker in a [`Snapshot`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeakerSnapshot {
    /// Speaker name (the channel name of the actuators).
    pub name: String,
    /// Talking now.
    pub speaking: bool,
    /// Start of the talkspurt running now (audio seconds).
    pub speaking_since: Option<f64>,
    /// Talk time so far, the running talkspurt included up to the clock (seconds).
    pub talk_s: f64,
    /// Committed interruptions this speaker made.
    pub interruptions_made: u64,
    /// Committed interruptions of this speaker while holding the floor.
    pub interrupted: u64,
    /// Committed backchannels of this speaker.
    pub backchannels: u64,
    /// What the rule last asked the actuators to do on this speaker's channel.
    pub level: ChannelLevel,
    /// The last closed talkspurts, `[start, end]` in audio seconds, oldest first.
    pub recent: Vec<[f64; 2]>,
}

/// The whole state at one audio time, as the page and resyncing clients receive it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// Always `snapshot`, so a client can tell it from a [`LiveEvent`] on the same socket.
    #[serde(rename = "type")]
    pub kind: String,
    /// Audio clock (seconds).
    pub clock_s: f64,
    /// Current floor holder.
    pub holder: Option<String>,
    /// Speakers in name order.
    pub speakers: Vec<SpeakerSnapshot>,
    /// Committed interruptions.
    pub interruptions: u64,
    /// Committed backchannels.
    pub backchannels: u64,
    /// Floor changes.
    pub floor_changes: u64,
    /// Overlaps started.
    pub overlaps: u64,
    /// Action events (actuator reports).
    pub actions: u64,
    /// Action events with `ok = false`.
    pub actions_failed: u64,
    /// Events folded.
    pub events: u64,
    /// Events ignored because they named a speaker beyond [`MAX_SPEAKERS`].
    pub ignored_events: u64,
    /// The last event folded (a client resumes after it).
    pub last_event_id: Option<u64>,
}

impl FloorState {
    /// An empty state at audio time 0.
    pub fn new() -> FloorState {
        FloorState::default()
    }

    /// A state that knows its speakers from the start (they are shown before they speak).
    pub fn with_speakers<'a>(names: impl IntoIterator<Item = &'a str>) -> FloorState {
        let mut state = FloorState::new();
        for name in names {
            state.speaker_mut(name);
        }
        state
    }

    /// Current floor holder.
    pub fn holder(&self) -> Option<&str> {
        self.holder.as_deref()
    }

    /// Audio clock: the latest of the event times and [`FloorState::advance`].
    pub fn clock_s(&self) -> f64 {
        self.clock_s
    }

    /// Whether `speaker` is talking now.
    pub fn is_speaking(&self, speaker: &str) -> bool {
        self.speakers.get(speaker).is_some_and(|s| s.speaking_since.is_some())
    }

    /// Start of `speaker`'s running talkspurt.
    pub fn speaking_since(&self, speaker: &str) -> Option<f64> {
        self.speakers.get(speaker).and_then(|s| s.speaking_since)
    }

    /// Known speakers, in name order.
    pub fn speakers(&self) -> impl Iterator<Item = &str> + '_ {
        self.speakers.keys().map(String::as_str)
    }

    /// Talk time of `speaker` up to the clock (seconds).
    pub fn talk_s(&self, speaker: &str) -> f64 {
        self.speakers.get(speaker).map_or(0.0, |s| {
            s.talk_closed_s + s.speaking_since.map_or(0.0, |t0| (self.clock_s - t0).max(0.0))
        })
    }

    /// Committed interruptions and backchannels so far.
    pub fn counts(&self) -> (u64, u64) {
        (self.interruptions, self.backchannels)
    }

    /// Moves the audio clock forward (never back).
    pub fn advance(&mut self, clock_s: f64) {
        if clock_s.is_finite() && clock_s > self.clock_s {
            self.clock_s = clock_s;
        }
    }

    /// Records what the actuators were asked to do on `channel`.
    pub fn set_level(&mut self, channel: &str, level: ChannelLevel) {
        if let Some(s) = self.speaker_mut(channel) {
            s.level = level;
        }
    }

    fn speaker_mut(&mut self, name: &str) -> Option<&mut SpeakerState> {
        if !self.speakers.contains_key(name) {
            if self.speakers.len() >= MAX_SPEAKERS {
                return None;
            }
            self.speakers.insert(name.to_owned(), SpeakerState::default());
        }
        self.speakers.get_mut(name)
    }

    /// Folds a revision event (`revised`): a committed interruption or backchannel it adds
    /// counts, one it retracts is taken off the counts.
    fn apply_revision(&mut self, event: &LiveEvent) {
        let step = match event.state {
            EventState::Committed => 1i64,
            EventState::Retracted => -1,
            EventState::Provisional => return,
        };
        let bump = |n: &mut u64| *n = n.saturating_add_signed(step);
        let speaker = event.speaker.as_deref();
        match event.kind {
            LiveEventKind::Interruption => {
                bump(&mut self.interruptions);
                if let Some(s) = speaker.and_then(|n| self.speakers.get_mut(n)) {
                    bump(&mut s.interruptions_made);
                }
                if let Some(h) = event.holder.as_deref().and_then(|n| self.speaker_mut(n)) {
                    bump(&mut h.interrupted);
                }
            }
            LiveEventKind::Backchannel => {
                bump(&mut self.backchannels);
                if let Some(s) = speaker.and_then(|n| self.speakers.get_mut(n)) {
                    bump(&mut s.backchannels);
                }
            }
            _ => {}
        }
    }

    /// Folds one event into the state.
    pub fn apply(&mut self, event: &LiveEvent) {
        self.events += 1;
        self.last_event_id = Some(event.id);
        self.advance(event.decided_s);
        let retracted = event.state == EventState::Retracted;
        let committed = event.state == EventState::Committed;
        let speaker = event.speaker.as_deref();
        if let Some(name) = speaker {
            if self.speaker_mut(name).is_none() {
                self.ignored_events += 1;
                return;
            }
        }
        if event.revised {
            // The end-of-session revision: the counts follow it; the talk clocks, the floor
            // and the overlaps stay as they were lived.
            self.apply_revision(event);
            return;
        }
        match event.kind {
            LiveEventKind::SpeechStart => {
                let Some(s) = speaker.and_then(|n| self.speakers.get_mut(n)) else { return };
                if retracted {
                    // The start did not happen: drop the running talkspurt without counting it.
                    s.speaking_since = None;
                } else if event.refers_to.is_some() && event.refers_to == s.start_id {
                    // The commit of the start that opened the talkspurt (which may have
                    // ended since): nothing changes.
                } else if s.speaking_since.is_none() {
                    s.speaking_since = Some(event.t_s);
                    s.start_id = Some(event.id);
                }
            }
            LiveEventKind::SpeechEnd => {
                let Some(s) = speaker.and_then(|n| self.speakers.get_mut(n)) else { return };
                if retracted {
                    // The end did not happen: the talkspurt it closed runs on.
                    if event.refers_to.is_some()
                        && event.refers_to == s.end_id
                        && s.speaking_since.is_none()
                    {
                        if let Some((t0, t1)) = s.recent.pop_back() {
                            s.talk_closed_s -= t1 - t0;
                            s.speaking_since = Some(t0);
                        }
                        s.end_id = None;
                    }
                    return;
                }
                if event.refers_to.is_some() && event.refers_to == s.end_id {
                    // The commit of the end already folded.
                    return;
                }
                s.end_id = Some(event.id);
                if let Some(t0) = s.speaking_since.take() {
                    let t1 = event.t_s.max(t0);
                    s.talk_closed_s += t1 - t0;
                    if s.recent.len() == RECENT_SPURTS {
                        s.recent.pop_front();
                    }
                    s.recent.push_back((t0, t1));
                }
            }
            LiveEventKind::FloorChange if !retracted => {
                self.holder = speaker.map(str::to_owned);
                self.floor_changes += 1;
            }
            LiveEventKind::OverlapStart if !retracted => self.overlaps += 1,
            LiveEventKind::Interruption if committed => {
                self.interruptions += 1;
                if let Some(s) = speaker.and_then(|n| self.speakers.get_mut(n)) {
                    s.interruptions_made += 1;
                }
                if let Some(h) = event.holder.as_deref().and_then(|n| self.speaker_mut(n)) {
                    h.interrupted += 1;
                }
            }
            LiveEventKind::Backchannel if committed => {
                self.backchannels += 1;
                if let Some(s) = speaker.and_then(|n| self.speakers.get_mut(n)) {
                    s.backchannels += 1;
                }
            }
            LiveEventKind::Action => {
                self.actions += 1;
                if event.action.as_ref().is_some_and(|a| !a.ok) {
                    self.actions_failed += 1;
                }
            }
            _ => {}
        }
    }

    /// The state now, for the page.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            kind: "snapshot".into(),
            clock_s: self.clock_s,
            holder: self.holder.clone(),
            speakers: self
                .speakers
                .iter()
                .map(|(name, s)| SpeakerSnapshot {
                    name: name.clone(),
                    speaking: s.speaking_since.is_some(),
                    speaking_since: s.speaking_since,
                    talk_s: self.talk_s(name),
                    interruptions_made: s.interruptions_made,
                    interrupted: s.interrupted,
                    backchannels: s.backchannels,
                    level: s.level,
                    recent: s.recent.iter().map(|&(a, b)| [a, b]).collect(),
                })
                .collect(),
            interruptions: self.interruptions,
            backchannels: self.backchannels,
            floor_changes: self.floor_changes,
            overlaps: self.overlaps,
            actions: self.actions,
            actions_failed: self.actions_failed,
            events: self.events,
            ignored_events: self.ignored_events,
            last_event_id: self.last_event_id,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::Scripted;
    use overtalk::output::live::LiveEventKind::*;

    #[test]
    fn talk_time_holder_and_counts_follow_the_events() {
        let events = Scripted::new()
            .at(0.0, SpeechStart, "A")
            .at(0.3, FloorChange, "A")
            .at(2.0, SpeechStart, "B")
            .committed(2.0, Backchannel, "B", "A", 2.5)
            .at(2.4, SpeechEnd, "B")
            .at(5.0, SpeechEnd, "A")
            .at(5.5, SpeechStart, "B")
            .committed(5.5, Interruption, "B", "A", 5.8)
            .into_events();
        let mut state = FloorState::new();
        for e in &events {
            state.apply(e);
        }
        state.advance(6.0);
        assert_eq!(state.holder(), Some("A"));
        assert_eq!(state.talk_s("A"), 5.0);
        assert!((state.talk_s("B") - 0.9).abs() < 1e-9, "{}", state.talk_s("B"));
        assert_eq!(state.counts(), (1, 1));
        let snap = state.snapshot();
        assert_eq!(snap.speakers[0].interrupted, 1);
        assert_eq!(snap.speakers[1].interruptions_made, 1);
        assert_eq!(snap.speakers[1].backchannels, 1);
        assert_eq!(snap.speakers[1].recent, vec![[2.0, 2.4]]);
        assert!(snap.speakers[1].speaking);
        assert_eq!(snap.events, events.len() as u64);
    }

    #[test]
    fn a_retracted_start_leaves_no_talk_time_and_provisional_onsets_are_not_counted() {
        let events = Scripted::new()
            .at(1.0, SpeechStart, "A")
            .provisional(1.0, Interruption, "A", "B", 1.1)
            .retract(1.0, SpeechStart, "A", 1.2)
            .into_events();
        let mut state = FloorState::new();
        for e in &events {
            state.apply(e);
        }
        state.advance(3.0);
        assert_eq!(state.talk_s("A"), 0.0);
        assert!(!state.is_speaking("A"));
        assert_eq!(state.counts(), (0, 0));
    }

    #[test]
    fn the_revision_moves_the_counts_and_leaves_the_clocks_as_lived() {
        let events = Scripted::new()
            .at(0.0, SpeechStart, "A")
            .at(0.3, FloorChange, "A")
            .at(5.5, SpeechStart, "B")
            .committed(5.5, Interruption, "B", "A", 5.8)
            .at(6.0, SpeechEnd, "A")
            .at(8.0, SpeechEnd, "B")
            .into_events();
        let mut state = FloorState::new();
        for e in &events {
            state.apply(e);
        }
        assert_eq!(state.counts(), (1, 0));
        // The revision withdraws the interruption and A's end, and commits a backchannel and a
        // later end.
        let interruption = events.iter().find(|e| e.kind == Interruption).unwrap();
        let end = events.iter().rfind(|e| e.kind == SpeechEnd && e.speaker.as_deref() == Some("A"));
        let mut revision = Vec::new();
        let mut next = events.len() as u64;
        for (like, state) in [
            (interruption.clone(), EventState::Retracted),
            (end.unwrap().clone(), EventState::Retracted),
        ] {
            revision.push(LiveEvent {
                id: next,
                state,
                refers_to: Some(like.id),
                decided_s: 9.0,
                revised: true,
                ..like
            });
            next += 1;
        }
        let mut bc = interruption.clone();
        (bc.id, bc.kind, bc.class, bc.decided_s, bc.revised) =
            (next, Backchannel, Some("backchannel".into()), 9.0, true);
        revision.push(bc);
        let mut later = end.unwrap().clone();
        (later.id, later.t_s, later.decided_s, later.revised) = (next + 1, 8.5, 9.0, true);
        revision.push(later);
        for e in &revision {
            state.apply(e);
        }
        assert_eq!(state.counts(), (0, 1));
        let snap = state.snapshot();
        assert_eq!((snap.speakers[0].interrupted, snap.speakers[1].interruptions_made), (0, 0));
        assert_eq!(snap.speakers[1].backchannels, 1);
        // The clocks and the floor stay as they were lived.
        assert_eq!(state.talk_s("A"), 6.0);
        assert!(!state.is_speaking("A"));
        assert_eq!(state.holder(), Some("A"));
    }

    fn speech(id: u64, start: bool, state: EventState, t_s: f64, refers: Option<u64>) -> LiveEvent {
        let kind = if start { SpeechStart } else { SpeechEnd };
        LiveEvent {
            id,
            kind,
            state,
            t_s,
            decided_s: t_s,
            speaker: Some("A".to_owned()),
            holder: None,
            class: None,
            probability: None,
            refers_to: refers,
            action: None,
            warning: None,
            revised: false,
        }
    }

    #[test]
    fn commits_confirm_the_talkspurt_and_a_retracted_end_reopens_it() {
        use EventState::{Committed as C, Provisional as P, Retracted as R};
        let mut state = FloorState::new();
        // A provisional talkspurt 1.0–1.6 s, then the commits of its start and end.
        for e in [
            speech(0, true, P, 1.0, None),
            speech(1, false, P, 1.6, None),
            speech(2, true, C, 1.0, Some(0)),
            speech(3, false, C, 1.6, Some(1)),
        ] {
            state.apply(&e);
        }
        assert!(!state.is_speaking("A"));
        assert!((state.talk_s("A") - 0.6).abs() < 1e-9, "{}", state.talk_s("A"));
        assert_eq!(state.snapshot().speakers[0].recent, vec![[1.0, 1.6]]);
        // 3.0–3.3 s, then the end is retracted: A talks on from 3.0 s.
        for e in [speech(4, true, P, 3.0, None), speech(5, false, P, 3.3, None)] {
            state.apply(&e);
        }
        state.apply(&speech(6, false, R, 3.3, Some(5)));
        assert_eq!(state.speaking_since("A"), Some(3.0));
        assert_eq!(state.snapshot().speakers[0].recent, vec![[1.0, 1.6]]);
        state.apply(&speech(7, false, P, 4.0, None));
        assert!((state.talk_s("A") - 1.6).abs() < 1e-9, "{}", state.talk_s("A"));
        assert_eq!(state.snapshot().speakers[0].recent, vec![[1.0, 1.6], [3.0, 4.0]]);
        // A retraction of an end that did not close the last talkspurt changes nothing.
        state.apply(&speech(8, false, R, 1.6, Some(1)));
        assert!(!state.is_speaking("A"));
        assert!((state.talk_s("A") - 1.6).abs() < 1e-9, "{}", state.talk_s("A"));
    }

    #[test]
    fn speakers_beyond_the_limit_are_ignored_and_counted() {
        let mut script = Scripted::new();
        for i in 0..MAX_SPEAKERS + 3 {
            script = script.at(i as f64, SpeechStart, &format!("S{i}"));
        }
        let mut state = FloorState::new();
        for e in &script.into_events() {
            state.apply(e);
        }
        let snap = state.snapshot();
        assert_eq!(snap.speakers.len(), MAX_SPEAKERS);
        assert_eq!(snap.ignored_events, 3);
    }
}
