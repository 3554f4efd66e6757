//! S6 — floor tracking, an incremental state machine (Jaffe & Feldstein generalised to N
//! speakers, §5.4 S6 (R20)).
//!
//! A speaker X claims the floor at the start `a` of a solo piece `[a, c)` when X is not the
//! holder and (there is no holder yet, or `c − a ≥ min_floor_solo`, or X's talkspurt is
//! *clean* — no other speaker's floor-relevant talkspurt intersects it):
//!
//! ```text
//! A  [0──────────5000)        [6500────9000)
//! B         [4000──────6000)
//! solo  A         B(1000 ≥ 500)  A (clean)
//! claims A@0      B@5000         A@6500
//! ```
//!
//! The tracker is fed talkspurt events in time order — [`FloorTracker::start`] and
//! [`FloorTracker::end`], or [`FloorTracker::tick`] when only the clock moved — and returns
//! each claim as soon as it is certain:
//!
//! - the first solo piece claims as soon as it has begun (there is no holder);
//! - a solo piece claims once it has lasted `min_floor_solo`, even while it is still running;
//! - a shorter solo piece waits for its talkspurt: another speaker starting inside it decides
//!   "not clean", its end untouched decides "clean".
//!
//! Later solo pieces wait behind an undecided one, so claims come out in time order. Events at
//! the same instant are applied together, ends before starts (touching talkspurts do not
//! intersect). Batch analysis uses [`FloorTracker::push`], which takes whole talkspurts in
//! start order and generates their end events itself.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use super::units::{Millis, SpeakerIndex};
use crate::error::{Error, Result};

/// A floor claim: `speaker` took the floor at `time` through talkspurt `spurt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Claim time (ms): start of the qualifying solo piece.
    pub time: Millis,
    /// Speaker index.
    pub speaker: SpeakerIndex,
    /// Caller's id of the claiming talkspurt.
    pub spurt: usize,
}

#[derive(Clone, Copy, Debug)]
struct Active {
    speaker: SpeakerIndex,
    id: usize,
    intersected: bool,
}

#[derive(Clone, Copy, Debug)]
struct Pending {
    start: Millis,
    end: Millis,
    speaker: SpeakerIndex,
    id: usize,
    intersected: bool,
    ended: bool,
}

#[derive(Clone, Copy, Debug)]
enum Event {
    Start { id: usize, speaker: SpeakerIndex },
    End { id: usize },
}

/// The S6 state machine.
#[derive(Clone, Debug)]
pub struct FloorTracker {
    min_floor_solo: Millis,
    holder: Option<SpeakerIndex>,
    /// Time of the buffered events.
    time: Millis,
    /// Events at `time`, not yet applied.
    buffered: Vec<Event>,
    /// Start of the current piece of the joint timeline.
    piece_start: Millis,
    active: Vec<Active>,
    pending: VecDeque<Pending>,
    out: Vec<Claim>,
    /// Scheduled ends of talkspurts given to [`FloorTracker::push`].
    ends: BinaryHeap<Reverse<(Millis, usize)>>,
}

impl FloorTracker {
    /// A tracker with no holder.
    pub fn new(min_floor_solo: Millis) -> FloorTracker {
        FloorTracker {
            min_floor_solo,
            holder: None,
            time: Millis::MIN,
            buffered: Vec::new(),
            piece_start: Millis::MIN,
            active: Vec::new(),
            pending: VecDeque::new(),
            out: Vec::new(),
            ends: BinaryHeap::new(),
        }
    }

    /// The holder as far as decided.
    pub fn holder(&self) -> Option<SpeakerIndex> {
        self.holder
    }

    /// The earliest time a claim not yet returned can have: every claim before it has been
    /// returned. A later claim starts either an undecided solo piece or the running one.
    ///
    /// ```text
    /// claims out   A@0 ........ B@5000
    /// pending                         [6500 undecided)   → decided before 6500
    /// ```
    pub fn decided_until(&self) -> Millis {
        self.pending.front().map_or(self.piece_start, |p| p.start)
    }

    /// A floor-relevant talkspurt `id` of `speaker` starts at `t`.
    pub fn start(&mut self, id: usize, speaker: SpeakerIndex, t: Millis) -> Result<Vec<Claim>> {
        self.at(t)?;
        self.buffered.push(Event::Start { id, speaker });
        self.decide_running(t);
        Ok(std::mem::take(&mut self.out))
    }

    /// Talkspurt `id` ends at `t`.
    pub fn end(&mut self, id: usize, t: Millis) -> Result<Vec<Claim>> {
        self.at(t)?;
        self.buffered.push(Event::End { id });
        self.decide_running(t);
        Ok(std::mem::take(&mut self.out))
    }

    /// The clock reached `t` without an event.
    pub fn tick(&mut self, t: Millis) -> Result<Vec<Claim>> {
        self.at(t)?;
        self.decide_running(t);
        Ok(std::mem::take(&mut self.out))
    }

    /// Feeds one whole talkspurt `[start, end)`; starts must not decrease (batch use).
    pub fn push(
        &mut self,
        id: usize,
        speaker: SpeakerIndex,
        start: Millis,
        end: Millis,
    ) -> Result<Vec<Claim>> {
        self.feed(id, speaker, start, end)?;
        Ok(std::mem::take(&mut self.out))
    }

    /// [`FloorTracker::push`] leaving the claims in `self.out` (no vector per talkspurt).
    fn feed(&mut self, id: usize, speaker: SpeakerIndex, start: Millis, end: Millis) -> Result<()> {
        if end <= start {
            return Err(Error::invalid(format!("floor tracker: empty talkspurt at {start} ms")));
        }
        if start < self.time {
            return Err(self.out_of_order(start));
        }
        while let Some(&Reverse((e, j))) = self.ends.peek() {
            if e > start {
                break;
            }
            self.ends.pop();
            self.at(e)?;
            self.buffered.push(Event::End { id: j });
            self.decide_running(e);
        }
        self.at(start)?;
        self.buffered.push(Event::Start { id, speaker });
        self.decide_running(start);
        self.ends.push(Reverse((end, id)));
        Ok(())
    }

    /// Ends the input (every scheduled end happens); returns the remaining claims.
    pub fn finish(&mut self) -> Vec<Claim> {
        let mut out = Vec::new();
        while let Some(Reverse((e, j))) = self.ends.pop() {
            if let Ok(c) = self.end(j, e) {
                out.extend(c);
            }
        }
        self.apply();
        // Talkspurts still open (events without an end) end now.
        let open: Vec<usize> = self.active.iter().map(|a| a.id).collect();
        if !open.is_empty() {
            let t = Millis::new(self.time.get().saturating_add(1));
            for id in open {
                if let Ok(c) = self.end(id, t) {
                    out.extend(c);
                }
            }
            self.apply();
        }
        self.resolve();
        out.extend(std::mem::take(&mut self.out));
        out
    }

    fn out_of_order(&self, t: Millis) -> Error {
        Error::invalid(format!("floor tracker: event at {t} ms after one at {} ms", self.time))
    }

    /// Moves the clock to `t`, applying the events buffered at the previous time.
    fn at(&mut self, t: Millis) -> Result<()> {
        if t < self.time {
            return Err(self.out_of_order(t));
        }
        if t > self.time {
            self.apply();
            self.time = t;
        }
        Ok(())
    }

    /// Applies the buffered events (all at `self.time`): closes the piece before them, then
    /// ends, then starts.
    fn apply(&mut self) {
        if self.buffered.is_empty() {
            return;
        }
        let t = self.time;
        if t > self.piece_start {
            if let [a] = self.active.as_slice() {
                self.pending.push_back(Pending {
                    start: self.piece_start,
                    end: t,
                    speaker: a.speaker,
                    id: a.id,
                    intersected: a.intersected,
                    ended: false,
                });
            }
        }
        self.piece_start = t;
        // The buffer is lent out while its events are applied and handed back empty, so its
        // allocation is reused for the next instant.
        let mut events = std::mem::take(&mut self.buffered);
        for e in &events {
            if let Event::End { id } = *e {
                self.active.retain(|a| a.id != id);
                for p in self.pending.iter_mut().filter(|p| p.id == id) {
                    p.ended = true;
                }
            }
        }
        for e in &events {
            if let Event::Start { id, speaker } = *e {
                let overlapped = !self.active.is_empty();
                for a in &mut self.active {
                    a.intersected = true;
                }
                for p in &mut self.pending {
                    if self.active.iter().any(|a| a.id == p.id) {
                        p.intersected = true;
                    }
                }
                self.active.push(Active { speaker, id, intersected: overlapped });
            }
        }
        events.clear();
        self.buffered = events;
        self.resolve();
    }

    /// Decides completed solo pieces in order, stopping at the first undecidable one.
    fn resolve(&mut self) {
        while let Some(p) = self.pending.front().copied() {
            let claim = if self.holder == Some(p.speaker) {
                false
            } else if self.holder.is_none() || p.end - p.start >= self.min_floor_solo {
                true
            } else if p.intersected {
                false
            } else if p.ended {
                true
            } else {
                break;
            };
            self.pending.pop_front();
            if claim {
                self.holder = Some(p.speaker);
                self.out.push(Claim { time: p.start, speaker: p.speaker, spurt: p.id });
            }
        }
    }

    /// Decides the solo piece still running at `now`, when everything before it is decided.
    fn decide_running(&mut self, now: Millis) {
        if !self.pending.is_empty() || now <= self.piece_start {
            return;
        }
        // The active set of the running piece is the one before the buffered events.
        if let [a] = self.active.as_slice() {
            let long = now - self.piece_start >= self.min_floor_solo;
            if self.holder != Some(a.speaker) && (self.holder.is_none() || long) {
                self.holder = Some(a.speaker);
                self.out.push(Claim { time: self.piece_start, speaker: a.speaker, spurt: a.id });
            }
        }
    }
}

/// Runs the tracker over talkspurts `(id, speaker, start, end)` sorted by start.
pub fn claims(
    spurts: impl IntoIterator<Item = (usize, SpeakerIndex, Millis, Millis)>,
    min_floor_solo: Millis,
) -> Result<Vec<Claim>> {
    let mut t = FloorTracker::new(min_floor_solo);
    for (id, speaker, start, end) in spurts {
        t.feed(id, speaker, start, end)?;
    }
    let mut out = std::mem::take(&mut t.out);
    out.extend(t.finish());
    Ok(out)
}

/// The holder at `t`: the speaker of the last claim strictly before `t`.
pub fn holder_at(claims: &[Claim], t: Millis) -> Option<SpeakerIndex> {
    let n = claims.partition_point(|c| c.time < t);
    n.checked_sub(1).map(|i| claims[i].speaker)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(t: i64) -> Millis {
        Millis::new(t)
    }

    fn who(x: usize) -> SpeakerIndex {
        SpeakerIndex::new(x)
    }

    fn claim(time: i64, speaker: usize, spurt: usize) -> Claim {
        Claim { time: ms(time), speaker: who(speaker), spurt }
    }

    fn pair(c: Claim) -> (i64, usize) {
        (c.time.get(), c.speaker.get())
    }

    fn run(s: &[(usize, i64, i64)], min: i64) -> Vec<(i64, usize)> {
        claims(s.iter().enumerate().map(|(i, &(x, a, b))| (i, who(x), ms(a), ms(b))), ms(min))
            .unwrap()
            .into_iter()
            .map(pair)
            .collect()
    }

    #[test]
    fn w1_claims() {
        let s = [(0, 0, 5000), (1, 4000, 6000), (0, 6500, 9000)];
        assert_eq!(run(&s, 500), vec![(0, 0), (5000, 1), (6500, 0)]);
    }

    #[test]
    fn short_overlapped_tail_does_not_claim_unless_pure_jf() {
        // H holds; A's 300 ms solo tail after overlapping H's end.
        let s = [(1, 0, 13000), (0, 12750, 13300), (1, 13550, 16400)];
        assert_eq!(run(&s, 500), vec![(0, 1)]);
        assert_eq!(run(&s, 0), vec![(0, 1), (13000, 0), (13550, 1)]);
    }

    #[test]
    fn clean_short_talkspurt_claims_only_when_it_ends_untouched() {
        let s = [(0, 0, 4000), (1, 4100, 4400), (0, 4600, 6000)];
        let mut t = FloorTracker::new(ms(500));
        assert_eq!(t.push(0, who(0), ms(0), ms(4000)).unwrap(), vec![]);
        // A's opening claim is decided once A's first solo piece is known.
        assert_eq!(t.push(1, who(1), ms(4100), ms(4400)).unwrap(), vec![claim(0, 0, 0)]);
        // B's 300 ms solo is undecided until B's talkspurt ends untouched.
        assert_eq!(t.push(2, who(0), ms(4600), ms(6000)).unwrap(), vec![claim(4100, 1, 1)]);
        assert_eq!(t.finish(), vec![claim(4600, 0, 2)]);
        assert_eq!(run(&s, 500).len(), 3);
    }

    #[test]
    fn live_events_claim_as_soon_as_certain() {
        let mut t = FloorTracker::new(ms(500));
        assert_eq!(t.start(0, who(0), ms(0)).unwrap(), vec![]);
        // No holder yet: the first solo piece claims as soon as it has begun.
        assert_eq!(t.tick(ms(1)).unwrap(), vec![claim(0, 0, 0)]);
        assert_eq!(t.start(1, who(1), ms(4000)).unwrap(), vec![]);
        assert_eq!(t.end(0, ms(5000)).unwrap(), vec![]);
        assert_eq!(t.tick(ms(5499)).unwrap(), vec![]);
        // B has been alone for 500 ms: the claim is certain before B stops talking.
        assert_eq!(t.tick(ms(5500)).unwrap(), vec![claim(5000, 1, 1)]);
        assert_eq!(t.end(1, ms(6000)).unwrap(), vec![]);
        // A talks alone [6500, 6800) and B again from 6800, touching A's end. B's start
        // arrives before A's end: events at one instant are applied together, ends first, so
        // the two talkspurts do not intersect and A's short talkspurt is clean.
        assert_eq!(t.start(2, who(0), ms(6500)).unwrap(), vec![]);
        assert_eq!(t.start(3, who(1), ms(6800)).unwrap(), vec![]);
        assert_eq!(t.end(2, ms(6800)).unwrap(), vec![]);
        assert_eq!(t.end(3, ms(7000)).unwrap(), vec![claim(6500, 0, 2)]);
        assert_eq!(t.finish(), vec![claim(6800, 1, 3)]);
        assert!(t.tick(ms(10)).is_err());
    }

    #[test]
    fn out_of_order_input_is_an_error_and_holder_at_is_strict() {
        let mut t = FloorTracker::new(ms(500));
        t.push(0, who(0), ms(100), ms(200)).unwrap();
        assert!(t.push(1, who(1), ms(50), ms(300)).is_err());
        assert!(t.push(1, who(1), ms(300), ms(300)).is_err());
        let c = [claim(0, 0, 0), claim(10, 1, 1)];
        assert_eq!(
            (holder_at(&c, ms(0)), holder_at(&c, ms(10)), holder_at(&c, ms(11))),
            (None, Some(who(0)), Some(who(1)))
        );
    }

    use crate::analysis::joint::joint_timeline;
    use crate::analysis::talkspurt::Talkspurt;
    use proptest::prelude::*;

    /// The S6 pseudocode of the spec, run on the whole joint timeline at once.
    fn batch(spurts: &[Talkspurt], min: i64) -> Vec<(i64, usize)> {
        let mut holder = None;
        let mut out = Vec::new();
        for p in joint_timeline(spurts, |_| true) {
            let Some(x) = p.solo() else { continue };
            if holder == Some(x) {
                continue;
            }
            let sp = spurts
                .iter()
                .find(|s| s.speaker == x && s.start <= p.start && p.end <= s.end)
                .unwrap();
            let clean = !spurts.iter().any(|y| y.speaker != x && y.intersects(sp));
            if holder.is_none() || p.end - p.start >= ms(min) || clean {
                holder = Some(x);
                out.push((p.start.get(), x.get()));
            }
        }
        out
    }

    fn spurts_strategy() -> impl Strategy<Value = Vec<Talkspurt>> {
        prop::collection::vec((0usize..4, 0i64..20_000, 1i64..3000), 0..30).prop_map(|raw| {
            // Per speaker, keep disjoint, non-touching spurts (as S2 guarantees).
            let mut by: Vec<Vec<(i64, i64)>> = vec![Vec::new(); 4];
            for (sp, a, d) in raw {
                by[sp].push((a, a + d));
            }
            let mut out = Vec::new();
            for (sp, mut v) in by.into_iter().enumerate() {
                v.sort_unstable();
                let mut last_end = i64::MIN;
                for (a, b) in v {
                    if a > last_end {
                        out.push(Talkspurt {
                            speaker: who(sp),
                            start: ms(a),
                            end: ms(b),
                            tokens: Vec::new(),
                            has_tokens: false,
                            laughter: false,
                            backchannel: false,
                            floor: true,
                        });
                        last_end = b;
                    }
                }
            }
            out.sort_by_key(|s| (s.start, s.end, s.speaker));
            out
        })
    }

    proptest! {
        #[test]
        fn incremental_equals_batch(spurts in spurts_strategy(), min in prop_oneof![Just(0i64), Just(500i64), 1i64..2000]) {
            let inc: Vec<(i64, usize)> = claims(
                spurts.iter().enumerate().map(|(i, s)| (i, s.speaker, s.start, s.end)),
                ms(min),
            )
            .unwrap()
            .into_iter()
            .map(pair)
            .collect();
            prop_assert_eq!(inc, batch(&spurts, min));
        }

        #[test]
        fn live_events_in_any_same_instant_order_equal_batch(
            spurts in spurts_strategy(),
            ticks in prop::collection::vec(0i64..25_000, 0..20),
            flip in any::<bool>(),
        ) {
            // Events: (time, order within the instant, kind); ticks interleaved.
            let mut events: Vec<(i64, u8, usize, bool)> = Vec::new();
            for (i, s) in spurts.iter().enumerate() {
                // Same-instant events arrive starts-first or ends-first.
                events.push((s.start.get(), u8::from(!flip), i, true));
                events.push((s.end.get(), u8::from(flip), i, false));
            }
            events.extend(ticks.iter().map(|&t| (t, 2, usize::MAX, false)));
            events.sort_unstable();
            let mut t = FloorTracker::new(ms(500));
            let mut got = Vec::new();
            for (time, _, i, is_start) in events {
                let c = if i == usize::MAX {
                    t.tick(ms(time)).unwrap()
                } else if is_start {
                    t.start(i, spurts[i].speaker, ms(time)).unwrap()
                } else {
                    t.end(i, ms(time)).unwrap()
                };
                for c in c {
                    // Never announced before it could be known.
                    prop_assert!(c.time <= ms(time));
                    got.push(pair(c));
                }
            }
            got.extend(t.finish().into_iter().map(pair));
            prop_assert_eq!(got, batch(&spurts, 500));
        }

        #[test]
        fn claims_are_emitted_once_certain(spurts in spurts_strategy()) {
            // A claim returned by `push` at input start `t` is never revised: it equals the batch
            // claim, and its solo piece ended by `t`.
            let mut t = FloorTracker::new(ms(500));
            let mut seen = Vec::new();
            for (i, s) in spurts.iter().enumerate() {
                for c in t.push(i, s.speaker, s.start, s.end).unwrap() {
                    prop_assert!(c.time <= s.start);
                    seen.push(pair(c));
                }
            }
            seen.extend(t.finish().into_iter().map(pair));
            prop_assert_eq!(seen, batch(&spurts, 500));
        }
    }
}
