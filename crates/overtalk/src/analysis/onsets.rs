//! S8 — onset classification: every floor-relevant talkspurt that starts while someone else
//! holds the floor (or before anyone does) is one event (§5.4 S8 (R22), Q1).
//!
//! ```text
//! holder A  [0─────────────────5000)          completion point of A at 5000
//! B onset          4000 ─────────────6000)    d = 1000 > terminal_window ⇒ interruption
//! B onset                  4800 ──────)       d = 200 ≤ 300 ⇒ terminal_overlap
//! ```
//! Rules, in order: simultaneous start (another onset within `simul_start_tol`, no third
//! speaker talking) → overlapped onset (the holder is talking: terminal overlap or interruption
//! by distance to the nearest completion point) → onset in the holder's silence (smooth switch,
//! silent interruption, or pause competition).

use serde::{Deserialize, Serialize};

use super::floor::Claim;
use super::params::Params;
use super::seek;
use super::talkspurt::Talkspurt;
use super::units::{Millis, SpeakerIndex};

/// Onset classes (§5.7 `class`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OnsetClass {
    /// Before anyone held the floor.
    Opening,
    /// Taking the floor in the holder's silence after a complete utterance.
    SmoothSwitch,
    /// Taking the floor in the holder's silence after an incomplete utterance.
    SilentInterruption,
    /// Starting in the holder's silence without obtaining the floor.
    PauseCompetition,
    /// Two onsets within `simul_start_tol`, no third speaker talking.
    SimultaneousStart,
    /// Onset while the holder talks, near a completion point.
    TerminalOverlap,
    /// Onset while the holder talks, away from any completion point.
    Interruption,
}

impl OnsetClass {
    /// Every value, in documentation order.
    pub const ALL: [OnsetClass; 7] = [
        OnsetClass::Opening,
        OnsetClass::SmoothSwitch,
        OnsetClass::SilentInterruption,
        OnsetClass::PauseCompetition,
        OnsetClass::SimultaneousStart,
        OnsetClass::TerminalOverlap,
        OnsetClass::Interruption,
    ];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            OnsetClass::Opening => "opening",
            OnsetClass::SmoothSwitch => "smooth_switch",
            OnsetClass::SilentInterruption => "silent_interruption",
            OnsetClass::PauseCompetition => "pause_competition",
            OnsetClass::SimultaneousStart => "simultaneous_start",
            OnsetClass::TerminalOverlap => "terminal_overlap",
            OnsetClass::Interruption => "interruption",
        }
    }
}

crate::named::named_enum!(OnsetClass, "onset class");

/// Outcomes (§5.7 `outcome`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The onset's talkspurt claimed the floor.
    FloorTaken,
    /// A third speaker, already competing, got the floor.
    FloorToThird,
    /// The floor stayed where it was.
    FloorKept,
}

impl Outcome {
    /// Every value, in documentation order.
    pub const ALL: [Outcome; 3] = [Outcome::FloorTaken, Outcome::FloorToThird, Outcome::FloorKept];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            Outcome::FloorTaken => "floor_taken",
            Outcome::FloorToThird => "floor_to_third",
            Outcome::FloorKept => "floor_kept",
        }
    }
}

crate::named::named_enum!(Outcome, "onset outcome");

/// Ferguson/Beattie labels (§5.7 `ferguson`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ferguson {
    /// Switch in silence after a complete utterance.
    Smooth,
    /// Switch in silence after an incomplete utterance.
    Silent,
    /// Overlap, holder complete, floor taken.
    Overlap,
    /// Overlap, holder incomplete, floor taken.
    Simple,
    /// Overlap, floor not taken.
    ButtingIn,
}

impl Ferguson {
    /// Every value, in documentation order.
    pub const ALL: [Ferguson; 5] = [
        Ferguson::Smooth,
        Ferguson::Silent,
        Ferguson::Overlap,
        Ferguson::Simple,
        Ferguson::ButtingIn,
    ];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            Ferguson::Smooth => "smooth",
            Ferguson::Silent => "silent",
            Ferguson::Overlap => "overlap",
            Ferguson::Simple => "simple",
            Ferguson::ButtingIn => "butting_in",
        }
    }
}

crate::named::named_enum!(Ferguson, "Ferguson class");

/// One onset event (speakers as indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OnsetRec {
    /// Onset speaker.
    pub speaker: SpeakerIndex,
    /// Onset time (ms).
    pub time: Millis,
    /// Index of the talkspurt.
    pub spurt: usize,
    /// Floor holder at the onset.
    pub holder: Option<SpeakerIndex>,
    /// Class.
    pub class: OnsetClass,
    /// Outcome.
    pub outcome: Outcome,
    /// Ferguson/Beattie label.
    pub ferguson: Option<Ferguson>,
    /// Simultaneous-start partner.
    pub partner: Option<SpeakerIndex>,
    /// Distance to the nearest completion point of the holder's talkspurt (rule 2).
    pub dist_to_completion: Option<Millis>,
    /// Holder's talkspurt end minus the onset (rule 2).
    pub holder_remaining: Option<Millis>,
}

impl OnsetRec {
    /// Interruption attempt: rule-2 interruption or silent interruption.
    pub fn is_attempt(&self) -> bool {
        matches!(self.class, OnsetClass::Interruption | OnsetClass::SilentInterruption)
    }

    /// Successful attempt.
    pub fn is_successful(&self) -> bool {
        self.is_attempt() && self.outcome == Outcome::FloorTaken
    }

    /// Rule-2 onset (talk-over event): the holder was talking at the onset, which only rule 2
    /// records ([`OnsetRec::holder_remaining`]). Not read from the class: the calibrated
    /// classifier (S8′) also labels a failed attempt made in the holder's silence, or a
    /// simultaneous start, `interruption`, and a talk-over is a fact of the timing that
    /// depends on the classifier only through the backchannels it finds.
    pub fn is_talk_over(&self) -> bool {
        self.holder_remaining.is_some()
    }
}

/// The floor-relevant talkspurt of speaker `x` covering `t`; `at` is the cursor into `own`
/// (see [`seek`]).
fn covering(spurts: &[Talkspurt], own: &[usize], at: &mut usize, t: Millis) -> Option<usize> {
    let n = seek(own, at, |&i| spurts[i].start <= t);
    n.checked_sub(1).map(|j| own[j]).filter(|&i| spurts[i].covers(t))
}

/// S8 over all floor-relevant talkspurts.
pub fn classify(
    spurts: &[Talkspurt],
    floor_by: &[Vec<usize>],
    floor_order: &[usize],
    claims: &[Claim],
    p: &Params,
) -> Vec<OnsetRec> {
    let mut out = Vec::with_capacity(floor_order.len());
    // Cursors (see `seek`): the onsets come in time order, so each search moves a few places.
    let (mut at_claim, mut at_simul) = (0, 0);
    let mut at_own = vec![0usize; floor_by.len()];
    let mut at_third = vec![0usize; floor_by.len()];
    for (pos, &i) in floor_order.iter().enumerate() {
        let s = &spurts[i];
        let (x, t0) = (s.speaker, s.start);
        // The holder at t0 is the speaker of the latest claim before t0 (`holder_at`).
        let first = seek(claims, &mut at_claim, |c| c.time < t0);
        let holder = first.checked_sub(1).map(|k| claims[k].speaker);
        if holder == Some(x) {
            continue;
        }
        // Outcome.
        let taken = claims[first..].iter().take_while(|c| c.time < s.end).any(|c| c.speaker == x);
        let outcome = if taken {
            Outcome::FloorTaken
        } else {
            match claims.get(first) {
                Some(c)
                    if c.speaker != x
                        && Some(c.speaker) != holder
                        && spurts[c.spurt].start < s.end =>
                {
                    Outcome::FloorToThird
                }
                _ => Outcome::FloorKept,
            }
        };
        let mut rec = OnsetRec {
            speaker: x,
            time: t0,
            spurt: i,
            holder,
            class: OnsetClass::Opening,
            outcome,
            ferguson: None,
            partner: None,
            dist_to_completion: None,
            holder_remaining: None,
        };
        let Some(f) = holder else {
            out.push(rec);
            continue;
        };
        // Rule 1: simultaneous start. Candidates: floor talkspurts starting within the tolerance.
        let lo = seek(floor_order, &mut at_simul, |&j| spurts[j].start < t0 - p.simul_start_tol);
        let mut partner: Option<(Millis, Millis, SpeakerIndex)> = None;
        for &j in
            floor_order[lo..].iter().take_while(|&&j| spurts[j].start <= t0 + p.simul_start_tol)
        {
            let g = &spurts[j];
            if g.speaker == x || j == floor_order[pos] {
                continue;
            }
            let m = g.start.min(t0);
            let third =
                floor_by.iter().zip(at_third.iter_mut()).enumerate().any(|(z, (own, at))| {
                    z != x.index()
                        && z != g.speaker.index()
                        && covering(spurts, own, at, m).is_some()
                });
            if third {
                continue;
            }
            let key = ((g.start - t0).abs(), g.start, g.speaker);
            if partner.is_none_or(|best| key < best) {
                partner = Some(key);
            }
        }
        if let Some((_, _, y)) = partner {
            rec.class = OnsetClass::SimultaneousStart;
            rec.partner = Some(y);
            out.push(rec);
            continue;
        }
        // Rule 2: overlapped onset.
        if let Some(fi) = covering(spurts, &floor_by[f.index()], &mut at_own[f.index()], t0) {
            let fs = &spurts[fi];
            let d = if fs.has_tokens {
                fs.tokens.iter().filter(|t| t.terminal).map(|t| (t0 - t.end).abs()).min()
            } else {
                Some((fs.end - t0).abs())
            };
            rec.dist_to_completion = d;
            rec.holder_remaining = Some(fs.end - t0);
            rec.class = match d {
                Some(d) if d <= p.terminal_window => OnsetClass::TerminalOverlap,
                _ => OnsetClass::Interruption,
            };
            let complete = if fs.has_tokens {
                fs.tokens.last().is_some_and(|t| t.terminal)
            } else {
                fs.end - t0 <= p.terminal_window
            };
            rec.ferguson = Some(match (outcome == Outcome::FloorTaken, complete) {
                (true, true) => Ferguson::Overlap,
                (true, false) => Ferguson::Simple,
                (false, _) => Ferguson::ButtingIn,
            });
            out.push(rec);
            continue;
        }
        // Rule 3: onset in the holder's silence.
        if outcome == Outcome::FloorTaken {
            let own = &floor_by[f.index()];
            let n = seek(own, &mut at_own[f.index()], |&j| spurts[j].start < t0);
            // Latest end ≤ t0 among F's talkspurts: none covers t0, so the last one started.
            let last = n.checked_sub(1).map(|j| &spurts[own[j]]).filter(|l| l.end <= t0);
            let silent = last.is_some_and(|l| {
                l.has_tokens
                    && l.tokens.last().is_some_and(|t| !t.terminal)
                    && t0 - l.end <= p.silent_int_max_gap
            });
            if silent {
                rec.class = OnsetClass::SilentInterruption;
                rec.ferguson = Some(Ferguson::Silent);
            } else {
                rec.class = OnsetClass::SmoothSwitch;
                rec.ferguson = Some(Ferguson::Smooth);
            }
        } else {
            rec.class = OnsetClass::PauseCompetition;
        }
        out.push(rec);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn onset(class: OnsetClass, outcome: Outcome, holder_remaining: Option<i64>) -> OnsetRec {
        OnsetRec {
            speaker: SpeakerIndex::new(1),
            time: Millis::new(10_750),
            spurt: 6,
            holder: Some(SpeakerIndex::new(0)),
            class,
            outcome,
            ferguson: None,
            partner: None,
            dist_to_completion: holder_remaining.map(Millis::new),
            holder_remaining: holder_remaining.map(Millis::new),
        }
    }

    #[test]
    fn a_talk_over_is_an_onset_into_the_holders_talk_whatever_its_class() {
        // Rule 2: the holder talks 500 ms past the onset.
        assert!(onset(OnsetClass::TerminalOverlap, Outcome::FloorTaken, Some(500)).is_talk_over());
        assert!(onset(OnsetClass::Interruption, Outcome::FloorKept, Some(1900)).is_talk_over());
        // The calibrated classifier's failed attempt in the holder's silence (a rule-3
        // pause competition) and its interruption out of a simultaneous start: attempts, not
        // talk-over events.
        let failed = onset(OnsetClass::Interruption, Outcome::FloorKept, None);
        assert!(failed.is_attempt() && !failed.is_talk_over());
        let started_together = onset(OnsetClass::Interruption, Outcome::FloorTaken, None);
        assert!(started_together.is_attempt() && !started_together.is_talk_over());
    }
}
