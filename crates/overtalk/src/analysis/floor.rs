//! S6 — floor tracking, an incremental state machine (Jaffe & Feldstein generalised to N
//! speakers, §5.4 S6 (R20)).
//!
//! Feed floor-relevant talkspurts in start order with [`FloorTracker::push`]; each call returns
//! the floor claims that became certain, and [`FloorTracker::finish`] returns the rest. Batch
//! analysis pushes a whole conversation; a live caller pushes talkspurts as they end.
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
//! When is a claim certain? A solo piece is known once its end `c` is reached (no talkspurt
//! can start before the last pushed start). Its claim is then decided at once, except when the
//! only test left is cleanliness and X's talkspurt is still running: the decision waits until
//! another talkspurt intersects it (not clean) or it ends (clean). Later solo pieces wait
//! behind it, so claims are always emitted in time order.

use std::collections::VecDeque;

use crate::error::{Error, Result};

/// A floor claim: `speaker` took the floor at `time` through talkspurt `spurt`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// Claim time (ms): start of the qualifying solo piece.
    pub time: i64,
    /// Speaker index.
    pub speaker: usize,
    /// Caller's id of the claiming talkspurt.
    pub spurt: usize,
}

#[derive(Clone, Copy, Debug)]
struct Active {
    speaker: usize,
    id: usize,
    start: i64,
    end: i64,
    intersected: bool,
}

#[derive(Clone, Copy, Debug)]
struct Pending {
    start: i64,
    end: i64,
    speaker: usize,
    id: usize,
    intersected: bool,
    ended: bool,
}

/// The S6 state machine.
#[derive(Clone, Debug)]
pub struct FloorTracker {
    min_floor_solo: i64,
    holder: Option<usize>,
    piece_start: i64,
    last_start: i64,
    active: Vec<Active>,
    pending: VecDeque<Pending>,
    out: Vec<Claim>,
}

impl FloorTracker {
    /// A tracker with no holder.
    pub fn new(min_floor_solo: i64) -> FloorTracker {
        FloorTracker {
            min_floor_solo,
            holder: None,
            piece_start: i64::MIN,
            last_start: i64::MIN,
            active: Vec::new(),
            pending: VecDeque::new(),
            out: Vec::new(),
        }
    }

    /// The current holder (as far as decided).
    pub fn holder(&self) -> Option<usize> {
        self.holder
    }

    /// Feeds one floor-relevant talkspurt `[start, end)` of `speaker` with the caller's `id`.
    /// Starts must not decrease; returns the claims decided so far.
    pub fn push(&mut self, id: usize, speaker: usize, start: i64, end: i64) -> Result<Vec<Claim>> {
        if start < self.last_start {
            return Err(Error::invalid(format!(
                "floor tracker: talkspurt at {start} ms pushed after one at {} ms",
                self.last_start
            )));
        }
        if end <= start {
            return Err(Error::invalid(format!("floor tracker: empty talkspurt at {start} ms")));
        }
        self.last_start = start;
        self.advance(start);
        self.emit_piece(start);
        let overlapped = !self.active.is_empty();
        for a in &mut self.active {
            a.intersected = true;
        }
        for p in &mut self.pending {
            if self.active.iter().any(|a| a.id == p.id) {
                p.intersected = true;
            }
        }
        self.active.push(Active { speaker, id, start, end, intersected: overlapped });
        self.active.sort_by_key(|a| (a.speaker, a.start));
        self.resolve();
        Ok(std::mem::take(&mut self.out))
    }

    /// Ends the input; returns the remaining claims.
    pub fn finish(&mut self) -> Vec<Claim> {
        self.advance(i64::MAX);
        self.resolve();
        std::mem::take(&mut self.out)
    }

    /// Processes every talkspurt end `≤ t`, emitting the pieces before them.
    fn advance(&mut self, t: i64) {
        while let Some(e) = self.active.iter().map(|a| a.end).min() {
            if e > t {
                break;
            }
            self.emit_piece(e);
            let ended: Vec<usize> =
                self.active.iter().filter(|a| a.end == e).map(|a| a.id).collect();
            self.active.retain(|a| a.end != e);
            for p in &mut self.pending {
                if ended.contains(&p.id) {
                    p.ended = true;
                }
            }
            self.resolve();
        }
    }

    /// Emits the piece `[piece_start, t)` with the current active set.
    fn emit_piece(&mut self, t: i64) {
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
    }

    /// Decides pending solo pieces in order, stopping at the first undecidable one.
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
}

/// Runs the tracker over talkspurts `(id, speaker, start, end)` sorted by start.
pub fn claims(
    spurts: impl IntoIterator<Item = (usize, usize, i64, i64)>,
    min_floor_solo: i64,
) -> Result<Vec<Claim>> {
    let mut t = FloorTracker::new(min_floor_solo);
    let mut out = Vec::new();
    for (id, speaker, start, end) in spurts {
        out.extend(t.push(id, speaker, start, end)?);
    }
    out.extend(t.finish());
    Ok(out)
}

/// The holder at `t`: the speaker of the last claim strictly before `t`.
pub fn holder_at(claims: &[Claim], t: i64) -> Option<usize> {
    let n = claims.partition_point(|c| c.time < t);
    n.checked_sub(1).map(|i| claims[i].speaker)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(s: &[(usize, i64, i64)], min: i64) -> Vec<(i64, usize)> {
        claims(s.iter().enumerate().map(|(i, &(sp, a, b))| (i, sp, a, b)), min)
            .unwrap()
            .into_iter()
            .map(|c| (c.time, c.speaker))
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
        let mut t = FloorTracker::new(500);
        assert_eq!(t.push(0, 0, 0, 4000).unwrap(), vec![]);
        // A's opening claim is decided once A's first solo piece is known.
        assert_eq!(
            t.push(1, 1, 4100, 4400).unwrap(),
            vec![Claim { time: 0, speaker: 0, spurt: 0 }]
        );
        // B's 300 ms solo is undecided until B's talkspurt ends untouched.
        assert_eq!(
            t.push(2, 0, 4600, 6000).unwrap(),
            vec![Claim { time: 4100, speaker: 1, spurt: 1 }]
        );
        assert_eq!(t.finish(), vec![Claim { time: 4600, speaker: 0, spurt: 2 }]);
        assert_eq!(run(&s, 500).len(), 3);
    }

    #[test]
    fn out_of_order_input_is_an_error_and_holder_at_is_strict() {
        let mut t = FloorTracker::new(500);
        t.push(0, 0, 100, 200).unwrap();
        assert!(t.push(1, 1, 50, 300).is_err());
        let c = [Claim { time: 0, speaker: 0, spurt: 0 }, Claim { time: 10, speaker: 1, spurt: 1 }];
        assert_eq!(
            (holder_at(&c, 0), holder_at(&c, 10), holder_at(&c, 11)),
            (None, Some(0), Some(1))
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
            if holder.is_none() || p.end - p.start >= min || clean {
                holder = Some(x);
                out.push((p.start, x));
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
                            speaker: sp,
                            start: a,
                            end: b,
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
                min,
            )
            .unwrap()
            .into_iter()
            .map(|c| (c.time, c.speaker))
            .collect();
            prop_assert_eq!(inc, batch(&spurts, min));
        }

        #[test]
        fn claims_are_emitted_once_certain(spurts in spurts_strategy()) {
            // A claim returned by `push` at input start `t` is never revised: it equals the batch
            // claim, and its solo piece ended by `t`.
            let mut t = FloorTracker::new(500);
            let mut seen = Vec::new();
            for (i, s) in spurts.iter().enumerate() {
                for c in t.push(i, s.speaker, s.start, s.end).unwrap() {
                    prop_assert!(c.time <= s.start);
                    seen.push((c.time, c.speaker));
                }
            }
            seen.extend(t.finish().into_iter().map(|c| (c.time, c.speaker)));
            prop_assert_eq!(seen, batch(&spurts, 500));
        }
    }
}
