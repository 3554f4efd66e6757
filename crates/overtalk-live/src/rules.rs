//! Floor rules: pure state machines from the folded floor state, the events and the audio clock
//! to what each channel's actuators should do (open, muted, ducked by N dB) and cues. They read
//! no wall clock and do no I/O, so every policy is tested on scripted and real streams exactly.
//!
//! The policies (docs/live.md states them in full):
//!
//! - `alert` (the default): no actuation; with `cue_interruptions`, a cue per committed
//!   interruption.
//! - `debate-mute`: while the holder speaks, every other channel is muted.
//!
//!   ```text
//!   holder A  [=========)  gap<hold [======)        gap>=hold
//!   engaged       ^engage ......................)^hold
//!   B muted       [...............................)
//!   ```
//!
//!   The mute engages once the holder has spoken `engage_s` without a break and releases when
//!   the holder has been silent `hold_s` (hysteresis both ways). A non-holder already talking
//!   when the mute engages keeps an open channel for the first `allowance_s` of that talkspurt
//!   (a backchannel under way is not cut mid-word). A channel is muted at most once per
//!   `cooldown_s`; unmuting is never delayed. The holder is never muted.
//! - `duck`: a non-holder talking over a speaking holder for `duck_after_s` is lowered by
//!   `duck_db`, unless that talkspurt was reported as a backchannel; released when they stop or
//!   take the floor. At most one duck per channel per `cooldown_s`.
//! - `allocated`: the floor is given, not detected: by the operator (`POST /floor`) or by a
//!   timer of slots; everyone but the allocated speaker is muted; nobody allocated, nobody muted.
//!
//! An operator override (`POST /floor`) replaces the detected holder in every rule until it is
//! cleared.

use std::collections::BTreeMap;

use overtalk::output::live::{EventState, LiveEvent, LiveEventKind};
use serde::{Deserialize, Serialize};

use crate::state::{ChannelLevel, FloorState};

/// Which floor rule runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum RuleKind {
    /// Watch and report; act on nothing.
    #[default]
    Alert,
    /// Mute every non-holder while the holder speaks.
    DebateMute,
    /// Lower an intruder by N dB after M ms unless it is a backchannel.
    Duck,
    /// The operator or a timer gives the floor; everyone else is muted.
    Allocated,
}

impl RuleKind {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            RuleKind::Alert => "alert",
            RuleKind::DebateMute => "debate-mute",
            RuleKind::Duck => "duck",
            RuleKind::Allocated => "allocated",
        }
    }
}

/// The parameters of the rules (seconds and dB).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuleParams {
    /// debate-mute: the holder speaks this long before the others are muted.
    pub engage_s: f64,
    /// debate-mute, duck: the holder is silent this long before the mutes are released.
    pub hold_s: f64,
    /// debate-mute: a non-holder already talking is muted only this far into the talkspurt.
    pub allowance_s: f64,
    /// debate-mute, duck: at most one mute (or duck) per channel per this many seconds.
    pub cooldown_s: f64,
    /// duck: how far the intruder is lowered (dB, positive).
    pub duck_db: f64,
    /// duck: how long the intruder talks over the holder before being lowered.
    pub duck_after_s: f64,
    /// alert: a cue per committed interruption.
    pub cue_interruptions: bool,
    /// allocated: the timer's slots (speaker, seconds), repeated from audio time 0.
    pub slots: Vec<(String, f64)>,
}

impl Default for RuleParams {
    fn default() -> Self {
        RuleParams {
            engage_s: 0.3,
            hold_s: 1.5,
            allowance_s: 1.0,
            cooldown_s: 10.0,
            duck_db: 12.0,
            duck_after_s: 0.5,
            cue_interruptions: false,
            slots: Vec::new(),
        }
    }
}

/// What a rule asks of the actuators.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Command {
    /// Set a channel's level.
    Set {
        /// The channel (speaker name).
        channel: String,
        /// Open, muted or ducked.
        level: ChannelLevel,
    },
    /// Cue the moderator.
    Cue {
        /// The speaker the cue is about.
        channel: Option<String>,
        /// What happened, for people.
        text: String,
    },
}

/// A floor rule with its memory.
#[derive(Clone, Debug)]
pub struct FloorRule {
    kind: RuleKind,
    params: RuleParams,
    channels: Vec<String>,
    levels: BTreeMap<String, ChannelLevel>,
    last_engaged_s: BTreeMap<String, f64>,
    last_end_s: BTreeMap<String, f64>,
    backchannel_since: BTreeMap<String, f64>,
    operator: Option<String>,
    engaged: bool,
    now_s: f64,
}

impl FloorRule {
    /// A rule acting on `channels` (speaker names); an empty list means every speaker the
    /// state knows.
    pub fn new(kind: RuleKind, params: RuleParams, channels: Vec<String>) -> FloorRule {
        FloorRule {
            kind,
            params,
            channels,
            levels: BTreeMap::new(),
            last_engaged_s: BTreeMap::new(),
            last_end_s: BTreeMap::new(),
            backchannel_since: BTreeMap::new(),
            operator: None,
            engaged: false,
            now_s: 0.0,
        }
    }

    /// The rule that runs.
    pub fn kind(&self) -> RuleKind {
        self.kind
    }

    /// The level each channel was last set to.
    pub fn levels(&self) -> &BTreeMap<String, ChannelLevel> {
        &self.levels
    }

    /// The holder the rule acts on: the operator's, else the timer's (allocated), else the
    /// detected one (other rules).
    pub fn effective_holder(&self, state: &FloorState) -> Option<String> {
        if let Some(op) = &self.operator {
            return Some(op.clone());
        }
        match self.kind {
            RuleKind::Allocated => self.slot_holder(self.now_s),
            _ => state.holder().map(str::to_owned),
        }
    }

    fn slot_holder(&self, now_s: f64) -> Option<String> {
        let cycle: f64 = self.params.slots.iter().map(|(_, d)| d.max(0.0)).sum();
        if cycle <= 0.0 || now_s < 0.0 {
            return None;
        }
        let mut t = now_s % cycle;
        for (speaker, d) in &self.params.slots {
            if t < *d {
                return Some(speaker.clone());
            }
            t -= d.max(0.0);
        }
        None
    }

    /// An event, already folded into `state`.
    pub fn on_event(&mut self, event: &LiveEvent, state: &FloorState) -> Vec<Command> {
        if event.revised {
            // The end-of-session revision comes after the audio: nothing to act on.
            return Vec::new();
        }
        let speaker = event.speaker.clone();
        match (event.kind, event.state) {
            (LiveEventKind::SpeechEnd, s) if s != EventState::Retracted => {
                if let Some(name) = &speaker {
                    self.last_end_s.insert(name.clone(), event.t_s);
                    self.backchannel_since.remove(name);
                }
            }
            (LiveEventKind::Backchannel, EventState::Retracted) => {
                if let Some(name) = &speaker {
                    self.backchannel_since.remove(name);
                }
            }
            (LiveEventKind::Backchannel, _) => {
                if let Some(name) = &speaker {
                    if state.speaking_since(name).is_some_and(|t0| (t0 - event.t_s).abs() < 0.05) {
                        self.backchannel_since.insert(name.clone(), event.t_s);
                    }
                }
            }
            _ => {}
        }
        let mut out = Vec::new();
        if self.kind == RuleKind::Alert
            && self.params.cue_interruptions
            && event.kind == LiveEventKind::Interruption
            && event.state == EventState::Committed
        {
            out.push(Command::Cue {
                channel: speaker.clone(),
                text: format!(
                    "interruption at {:.1} s: {} over {}",
                    event.t_s,
                    speaker.as_deref().unwrap_or("?"),
                    event.holder.as_deref().unwrap_or("?")
                ),
            });
        }
        out.extend(self.on_clock(state.clock_s().max(event.decided_s), state));
        out
    }

    /// The operator gives the floor to `holder` (or clears the override with `None`).
    pub fn on_operator(&mut self, holder: Option<String>, state: &FloorState) -> Vec<Command> {
        self.operator = holder;
        self.on_clock(self.now_s.max(state.clock_s()), state)
    }

    /// The audio clock reached `now_s`: timeouts (hysteresis, allowance, cooldown, slots).
    pub fn on_clock(&mut self, now_s: f64, state: &FloorState) -> Vec<Command> {
        if now_s.is_finite() && now_s > self.now_s {
            self.now_s = now_s;
        }
        let now = self.now_s;
        let holder = self.effective_holder(state);
        let channels: Vec<String> = if self.channels.is_empty() {
            state.speakers().map(str::to_owned).collect()
        } else {
            self.channels.clone()
        };
        self.update_engaged(holder.as_deref(), state, now);
        let mut out = Vec::new();
        for ch in channels {
            let current = self.levels.get(&ch).copied().unwrap_or(ChannelLevel::OPEN);
            let wanted = self.wanted(&ch, holder.as_deref(), current, state, now);
            if wanted != current {
                let engaging = !wanted.is_open() && current.is_open();
                if engaging {
                    self.last_engaged_s.insert(ch.clone(), now);
                }
                self.levels.insert(ch.clone(), wanted);
                out.push(Command::Set { channel: ch, level: wanted });
            }
        }
        // Opening goes first: a new holder is heard before the others are muted.
        out.sort_by_key(|c| matches!(c, Command::Set { level, .. } if !level.is_open()));
        out
    }

    /// Every channel back to open (the fail-safe).
    pub fn release_all(&mut self) -> Vec<Command> {
        let mut out = Vec::new();
        for (ch, level) in self.levels.iter_mut() {
            if !level.is_open() {
                *level = ChannelLevel::OPEN;
                out.push(Command::Set { channel: ch.clone(), level: ChannelLevel::OPEN });
            }
        }
        out
    }

    fn holder_silent_for(&self, holder: &str, state: &FloorState, now: f64) -> f64 {
        if state.is_speaking(holder) {
            0.0
        } else {
            self.last_end_s.get(holder).map_or(f64::INFINITY, |t| now - t)
        }
    }

    fn update_engaged(&mut self, holder: Option<&str>, state: &FloorState, now: f64) {
        let Some(h) = holder else {
            self.engaged = false;
            return;
        };
        let spoken = state.speaking_since(h).map(|t0| now - t0);
        if spoken.is_some_and(|d| d >= self.params.engage_s) {
            self.engaged = true;
        } else if self.holder_silent_for(h, state, now) >= self.params.hold_s {
            self.engaged = false;
        }
    }

    fn cooled(&self, ch: &str, now: f64) -> bool {
        self.last_engaged_s.get(ch).is_none_or(|t| now - t >= self.params.cooldown_s)
    }

    fn wanted(
        &self,
        ch: &str,
        holder: Option<&str>,
        current: ChannelLevel,
        state: &FloorState,
        now: f64,
    ) -> ChannelLevel {
        if holder == Some(ch) {
            return ChannelLevel::OPEN;
        }
        match self.kind {
            RuleKind::Alert => ChannelLevel::OPEN,
            RuleKind::Allocated => {
                if holder.is_some() {
                    ChannelLevel { muted: true, duck_db: 0.0 }
                } else {
                    ChannelLevel::OPEN
                }
            }
            RuleKind::DebateMute => {
                if !self.engaged {
                    return ChannelLevel::OPEN;
                }
                if current.muted {
                    return current;
                }
                let in_allowance =
                    state.speaking_since(ch).is_some_and(|t0| now - t0 < self.params.allowance_s);
                if in_allowance || !self.cooled(ch, now) {
                    ChannelLevel::OPEN
                } else {
                    ChannelLevel { muted: true, duck_db: 0.0 }
                }
            }
            RuleKind::Duck => {
                let Some(h) = holder else { return ChannelLevel::OPEN };
                let holder_on = self.holder_silent_for(h, state, now) < self.params.hold_s;
                let Some(t0) = state.speaking_since(ch) else { return ChannelLevel::OPEN };
                if !holder_on || self.backchannel_since.contains_key(ch) {
                    return ChannelLevel::OPEN;
                }
                if current.duck_db > 0.0 {
                    return current;
                }
                if now - t0 >= self.params.duck_after_s && self.cooled(ch, now) {
                    ChannelLevel { muted: false, duck_db: self.params.duck_db }
                } else {
                    ChannelLevel::OPEN
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::Scripted;
    use LiveEventKind::*;

    const MUTED: ChannelLevel = ChannelLevel { muted: true, duck_db: 0.0 };

    /// Runs `events` through a rule with 10 ms clock ticks up to `end_s`; returns the commands
    /// with the audio time they were issued.
    fn run(rule: &mut FloorRule, events: &[LiveEvent], end_s: f64) -> Vec<(f64, Command)> {
        let mut state = FloorState::with_speakers(["A", "B", "C"]);
        let mut out = Vec::new();
        let mut next = 0;
        let mut tick = 0u32;
        loop {
            let now = f64::from(tick) * 0.01;
            while next < events.len() && events[next].decided_s <= now + 1e-9 {
                state.apply(&events[next]);
                for c in rule.on_event(&events[next], &state) {
                    out.push((events[next].decided_s, c));
                }
                next += 1;
            }
            state.advance(now);
            for c in rule.on_clock(now, &state) {
                out.push((now, c));
            }
            if now >= end_s {
                return out;
            }
            tick += 1;
        }
    }

    fn set(ch: &str, level: ChannelLevel) -> Command {
        Command::Set { channel: ch.into(), level }
    }

    fn round(cmds: Vec<(f64, Command)>) -> Vec<(f64, Command)> {
        cmds.into_iter().map(|(t, c)| ((t * 100.0).round() / 100.0, c)).collect()
    }

    #[test]
    fn debate_mute_engages_after_the_holder_speaks_and_releases_after_the_hold() {
        let events = Scripted::new()
            .at(1.0, SpeechStart, "A")
            .at(1.0, FloorChange, "A")
            .at(3.0, SpeechEnd, "A")
            .at(3.5, SpeechStart, "A") // a pause shorter than the hold: stays muted
            .at(5.0, SpeechEnd, "A")
            .into_events();
        let mut rule = FloorRule::new(
            RuleKind::DebateMute,
            RuleParams::default(),
            vec!["A".into(), "B".into(), "C".into()],
        );
        let cmds = round(run(&mut rule, &events, 8.0));
        assert_eq!(
            cmds,
            vec![
                (1.3, set("B", MUTED)),
                (1.3, set("C", MUTED)),
                (6.5, set("B", ChannelLevel::OPEN)),
                (6.5, set("C", ChannelLevel::OPEN)),
            ]
        );
    }

    #[test]
    fn debate_mute_never_mutes_the_new_holder_and_respects_allowance_and_cooldown() {
        let events = Scripted::new()
            .at(0.0, SpeechStart, "A")
            .at(0.0, FloorChange, "A")
            .at(2.0, SpeechStart, "B")
            .at(4.0, SpeechEnd, "A")
            .at(4.5, FloorChange, "B")
            .at(9.0, SpeechEnd, "B")
            .at(9.2, SpeechStart, "A")
            .at(9.5, FloorChange, "A")
            .at(20.0, SpeechEnd, "A")
            .into_events();
        let mut rule = FloorRule::new(
            RuleKind::DebateMute,
            RuleParams::default(),
            vec!["A".into(), "B".into()],
        );
        let cmds = round(run(&mut rule, &events, 23.0));
        assert_eq!(
            cmds,
            vec![
                // B starts at 0.3 muted.
                (0.3, set("B", MUTED)),
                // B becomes holder: unmuted at once; A is muted (never muted before).
                (4.5, set("B", ChannelLevel::OPEN)),
                (4.5, set("A", MUTED)),
                // A takes the floor back: A open at once; B waits for its cooldown
                // (muted at 0.3, so again from 10.3).
                (9.5, set("A", ChannelLevel::OPEN)),
                (10.3, set("B", MUTED)),
                (21.5, set("B", ChannelLevel::OPEN)),
            ]
        );
        // A non-holder already talking keeps an open channel for the allowance.
        let events = Scripted::new()
            .at(0.0, SpeechStart, "B")
            .at(0.1, SpeechStart, "A")
            .at(0.1, FloorChange, "A")
            .at(3.0, SpeechEnd, "B")
            .into_events();
        let mut rule = FloorRule::new(
            RuleKind::DebateMute,
            RuleParams::default(),
            vec!["A".into(), "B".into()],
        );
        let cmds = round(run(&mut rule, &events, 2.0));
        assert_eq!(cmds, vec![(1.0, set("B", MUTED))]);
    }

    #[test]
    fn duck_lowers_an_intruder_unless_it_is_a_backchannel() {
        let ducked = ChannelLevel { muted: false, duck_db: 12.0 };
        let events = Scripted::new()
            .at(0.0, SpeechStart, "A")
            .at(0.0, FloorChange, "A")
            .at(2.0, SpeechStart, "B")
            .provisional(2.0, Backchannel, "B", "A", 2.2)
            .at(2.8, SpeechEnd, "B")
            .at(5.0, SpeechStart, "C")
            .at(6.0, SpeechEnd, "C")
            .at(8.0, SpeechEnd, "A")
            .into_events();
        let mut rule = FloorRule::new(
            RuleKind::Duck,
            RuleParams::default(),
            vec!["A".into(), "B".into(), "C".into()],
        );
        let cmds = round(run(&mut rule, &events, 9.0));
        assert_eq!(cmds, vec![(5.5, set("C", ducked)), (6.0, set("C", ChannelLevel::OPEN))]);
    }

    #[test]
    fn allocated_follows_the_timer_and_the_operator() {
        let params = RuleParams {
            slots: vec![("A".into(), 2.0), ("B".into(), 2.0)],
            ..RuleParams::default()
        };
        let mut rule = FloorRule::new(RuleKind::Allocated, params, vec!["A".into(), "B".into()]);
        let state = FloorState::with_speakers(["A", "B"]);
        assert_eq!(rule.on_clock(0.0, &state), vec![set("B", MUTED)]);
        assert_eq!(rule.on_clock(2.0, &state), vec![set("B", ChannelLevel::OPEN), set("A", MUTED)]);
        assert_eq!(
            rule.on_operator(Some("A".into()), &state),
            vec![set("A", ChannelLevel::OPEN), set("B", MUTED)]
        );
        assert_eq!(rule.on_clock(4.5, &state), vec![]);
        assert_eq!(
            rule.on_operator(None, &state),
            vec![] // 4.5 is in A's slot again
        );
        assert_eq!(rule.release_all(), vec![set("B", ChannelLevel::OPEN)]);
    }

    #[test]
    fn alert_acts_on_nothing_and_cues_committed_interruptions_when_asked() {
        let events = Scripted::new()
            .at(0.0, SpeechStart, "A")
            .at(0.0, FloorChange, "A")
            .at(1.0, SpeechStart, "B")
            .provisional(1.0, Interruption, "B", "A", 1.1)
            .committed(1.0, Interruption, "B", "A", 1.3)
            .into_events();
        let mut rule = FloorRule::new(RuleKind::Alert, RuleParams::default(), vec![]);
        assert_eq!(run(&mut rule, &events, 2.0), vec![]);
        let params = RuleParams { cue_interruptions: true, ..RuleParams::default() };
        let mut rule = FloorRule::new(RuleKind::Alert, params.clone(), vec![]);
        assert_eq!(
            round(run(&mut rule, &events, 2.0)),
            vec![(
                1.3,
                Command::Cue {
                    channel: Some("B".into()),
                    text: "interruption at 1.0 s: B over A".into()
                }
            )]
        );
        // The same interruption added by the end-of-session revision is not cued: the audio
        // is over.
        let mut revised = events.clone();
        for e in &mut revised {
            e.revised = e.kind == Interruption;
        }
        let mut rule = FloorRule::new(RuleKind::Alert, params, vec![]);
        assert_eq!(run(&mut rule, &revised, 2.0), vec![]);
    }
}
