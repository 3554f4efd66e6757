//! Blame: what made an event go unmatched.
//!
//! The DER error timeline of the recording ([`crate::score::error_timeline`], computed on the
//! whole evaluation region: a collar would hide exactly the instants events live at) is read
//! in the window `[onset − shift_window − tolerance, onset + tolerance]` — the event's
//! tolerance window and the `shift_window` (1 s) before it, where the talk the event answers
//! lies — for the speakers of the event only. The causes, in the order they are tried:
//!
//! 1. **boundary shift**: the other side has the same event (class and speakers) unmatched
//!    within `shift_window`; or the largest error in the window is a miss or a false alarm
//!    no longer than `shift_window` that touches correctly attributed speech of the same
//!    speaker (a talkspurt that starts or ends early or late);
//! 2. **speaker confusion**, **missed speech** or **false alarm**: the largest error in the
//!    window (ties in that order);
//! 3. **rule**: no error for these speakers in the window — both sides agree on who talks
//!    around the event and the dynamics rule decides differently (from context outside the
//!    window, such as a completion point, a floor claim or a backchannel tag).
//!
//! ```text
//! window   [────── t − 1200 ──────── t + 200]
//! ref B                           [██████████████)   B's onset at t: interruption of A
//! hyp B                                [█████████)   B starts 150 ms late: terminal overlap
//! errors                          [miss)[correct)    miss of B, 150 ms, touching correct B:
//!                                                    boundary shift
//! ```

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use crate::score::{error_timeline, ErrorType, PreparedRecording};

use super::{Event, EventOptions};

/// The cause of an unmatched event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cause {
    /// Speech of the event's speakers not in the hypothesis.
    MissedSpeech,
    /// Hypothesis speech of the event's speakers where the reference has none.
    FalseAlarm,
    /// Speech of the event's speakers given to another speaker.
    SpeakerConfusion,
    /// The same talk, starting or ending at another time.
    BoundaryShift,
    /// Both sides agree on who talks around the event; the rule decides differently.
    Rule,
}

crate::named::named_enum!(Cause, "cause");

impl Cause {
    /// Every cause, in report order.
    pub const ALL: [Cause; 5] = [
        Cause::MissedSpeech,
        Cause::FalseAlarm,
        Cause::SpeakerConfusion,
        Cause::BoundaryShift,
        Cause::Rule,
    ];

    /// The name in every output.
    pub fn name(self) -> &'static str {
        match self {
            Cause::MissedSpeech => "missed_speech",
            Cause::FalseAlarm => "false_alarm",
            Cause::SpeakerConfusion => "speaker_confusion",
            Cause::BoundaryShift => "boundary_shift",
            Cause::Rule => "rule",
        }
    }
}

/// Unmatched events per cause.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Blame {
    /// [`Cause::MissedSpeech`].
    pub missed_speech: usize,
    /// [`Cause::FalseAlarm`].
    pub false_alarm: usize,
    /// [`Cause::SpeakerConfusion`].
    pub speaker_confusion: usize,
    /// [`Cause::BoundaryShift`].
    pub boundary_shift: usize,
    /// [`Cause::Rule`].
    pub rule: usize,
}

impl Blame {
    /// Counts one more event of `cause`.
    pub fn add(&mut self, cause: Cause) {
        *self.get_mut(cause) += 1;
    }

    /// The count of `cause`.
    pub fn get(&self, cause: Cause) -> usize {
        match cause {
            Cause::MissedSpeech => self.missed_speech,
            Cause::FalseAlarm => self.false_alarm,
            Cause::SpeakerConfusion => self.speaker_confusion,
            Cause::BoundaryShift => self.boundary_shift,
            Cause::Rule => self.rule,
        }
    }

    fn get_mut(&mut self, cause: Cause) -> &mut usize {
        match cause {
            Cause::MissedSpeech => &mut self.missed_speech,
            Cause::FalseAlarm => &mut self.false_alarm,
            Cause::SpeakerConfusion => &mut self.speaker_confusion,
            Cause::BoundaryShift => &mut self.boundary_shift,
            Cause::Rule => &mut self.rule,
        }
    }

    /// All blamed events.
    pub fn total(&self) -> usize {
        Cause::ALL.iter().map(|&c| self.get(c)).sum()
    }
}

impl std::ops::AddAssign for Blame {
    fn add_assign(&mut self, o: Blame) {
        for c in Cause::ALL {
            *self.get_mut(c) += o.get(c);
        }
    }
}

/// One error piece: `[start, end)` µs, kind, reference speaker, hypothesis speaker renamed.
#[derive(Clone, Debug)]
struct Piece {
    start: i64,
    end: i64,
    kind: ErrorType,
    reference: Option<String>,
    hypothesis: Option<String>,
}

impl Piece {
    /// Whether the piece is about one of `speakers` (by the reference speaker, or the
    /// hypothesis speaker under its reference name).
    fn involves(&self, speakers: &[&str]) -> bool {
        let is = |s: &Option<String>| s.as_deref().is_some_and(|s| speakers.contains(&s));
        match self.kind {
            ErrorType::Miss => is(&self.reference),
            ErrorType::FalseAlarm => is(&self.hypothesis),
            ErrorType::Confusion | ErrorType::Correct => {
                is(&self.reference) || is(&self.hypothesis)
            }
        }
    }

    /// The speaker the piece is about, for a miss or a false alarm.
    fn speaker(&self) -> Option<&str> {
        match self.kind {
            ErrorType::Miss => self.reference.as_deref(),
            ErrorType::FalseAlarm => self.hypothesis.as_deref(),
            _ => None,
        }
    }
}

/// The error timeline of a recording, indexed for window queries.
#[derive(Debug)]
pub struct ErrorIndex {
    /// Error pieces (not correct), sorted by start.
    errors: Vec<Piece>,
    /// Prefix maximum of `errors[..=i].end` (monotone, for the first piece that can reach a
    /// window).
    reach: Vec<i64>,
    /// `(boundary µs, speaker)` of correct pieces: both ends, for the touching test.
    correct_ends: HashSet<(i64, String)>,
}

impl ErrorIndex {
    /// The error timeline of `p` under `mapping` on the whole evaluation region, hypothesis
    /// speakers named by `hyp_name`.
    pub fn new(
        p: &PreparedRecording,
        mapping: &[Option<usize>],
        count_each: bool,
        hyp_name: &[String],
    ) -> ErrorIndex {
        let mut whole = p.clone();
        whole.scored = p.evaluation.clone();
        let index: std::collections::HashMap<&str, usize> =
            p.hypothesis_names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
        let rename =
            |h: Option<String>| h.and_then(|h| index.get(h.as_str()).map(|&i| hyp_name[i].clone()));
        let mut errors = Vec::new();
        let mut correct_ends = HashSet::new();
        for e in error_timeline(&whole, mapping, count_each) {
            let piece = Piece {
                start: e.segment.start().micros(),
                end: e.segment.end().micros(),
                kind: e.kind,
                reference: e.reference,
                hypothesis: rename(e.hypothesis),
            };
            if piece.kind == ErrorType::Correct {
                if let Some(r) = &piece.reference {
                    correct_ends.insert((piece.start, r.clone()));
                    correct_ends.insert((piece.end, r.clone()));
                }
            } else {
                errors.push(piece);
            }
        }
        errors.sort_by_key(|e| (e.start, e.end));
        let mut reach = Vec::with_capacity(errors.len());
        let mut m = i64::MIN;
        for e in &errors {
            m = m.max(e.end);
            reach.push(m);
        }
        ErrorIndex { errors, reach, correct_ends }
    }

    /// The error pieces, `[start, end)` in ms (rounded as the analysis rounds) and kind, in
    /// time order: what the drawing of the HTML report shows.
    pub fn spans(&self) -> Vec<(i64, i64, ErrorType)> {
        use crate::analysis::normalise::to_ms;
        self.errors.iter().map(|p| (to_ms(p.start).get(), to_ms(p.end).get(), p.kind)).collect()
    }

    /// The cause of an unmatched event with no unmatched twin (rules 1b–3 of the module docs).
    pub fn cause(&self, e: &Event, ev: &EventOptions) -> Cause {
        let speakers: Vec<&str> =
            std::iter::once(e.speaker.as_str()).chain(e.other.as_deref()).collect();
        // Saturating: a tolerance or window as large as the caller likes (`--tolerance 1e17`)
        // reaches the ends of the timeline instead of overflowing.
        let lo = e.time.saturating_sub(ev.shift_window).saturating_sub(ev.tolerance);
        let hi = e.time.saturating_add(ev.tolerance);
        let (lo, hi) = (lo.saturating_mul(1000), hi.saturating_mul(1000));
        let first = self.reach.partition_point(|&r| r <= lo);
        let mut amount = [0i64; 3]; // confusion, miss, false alarm
        let mut pieces: [Vec<&Piece>; 3] = [Vec::new(), Vec::new(), Vec::new()];
        for piece in self.errors[first..].iter().take_while(|p| p.start < hi) {
            if piece.end <= lo || !piece.involves(&speakers) {
                continue;
            }
            let k = match piece.kind {
                ErrorType::Confusion => 0,
                ErrorType::Miss => 1,
                ErrorType::FalseAlarm => 2,
                ErrorType::Correct => continue,
            };
            amount[k] += piece.end.min(hi) - piece.start.max(lo);
            pieces[k].push(piece);
        }
        let best = (0..3).max_by_key(|&k| (amount[k], std::cmp::Reverse(k))).unwrap_or(0);
        if amount[best] == 0 {
            return Cause::Rule;
        }
        if best > 0 {
            let window = ev.shift_window * 1000;
            let shifted = pieces[best].iter().all(|p| {
                let Some(s) = p.speaker() else { return false };
                p.end - p.start <= window
                    && (self.correct_ends.contains(&(p.start, s.to_owned()))
                        || self.correct_ends.contains(&(p.end, s.to_owned())))
            });
            if shifted {
                return Cause::BoundaryShift;
            }
        }
        [Cause::SpeakerConfusion, Cause::MissedSpeech, Cause::FalseAlarm][best]
    }
}
