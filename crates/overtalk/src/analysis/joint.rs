//! S3 — the joint-state timeline: at each instant, the set of speakers inside a talkspurt.
//!
//! ```text
//! A spurts  [0────────5000)        [6500──9000)
//! B spurts        [4000────6000)
//! joint     {A}  |{A,B}|{B}  | ∅  |{A}
//!           0   4000  5000  6000 6500      9000
//! ```
//! Pieces are ordered, disjoint, gap-free (silence is a piece with no speaker) and cover
//! `[first start, last end)`; neighbouring pieces never have the same set.

use std::ops::Deref;

use serde::{Serialize, Serializer};

use super::talkspurt::Talkspurt;
use super::units::{Millis, SpeakerIndex};

/// How many active speakers a piece holds without a heap allocation.
const INLINE: usize = 3;

/// The speakers active in one piece, ascending; derefs to a slice. Sets of up to three speakers
/// (silence, solo, most overlaps) are stored inline, so a timeline of many pieces costs one
/// allocation, not one per piece.
#[derive(Clone, Debug, Default)]
pub struct Active {
    len: usize,
    inline: [SpeakerIndex; INLINE],
    heap: Vec<SpeakerIndex>,
}

impl Active {
    /// The set holding exactly `ids` (ascending, as the caller keeps them).
    pub fn from_slice(ids: &[SpeakerIndex]) -> Active {
        let mut a = Active { len: ids.len(), ..Active::default() };
        match a.inline.get_mut(..ids.len()) {
            Some(slot) => slot.copy_from_slice(ids),
            None => a.heap = ids.to_vec(),
        }
        a
    }
}

impl Active {
    /// The set holding the ids yielded by `ids` (ascending, as the caller keeps them).
    pub fn from_ids(ids: impl ExactSizeIterator<Item = SpeakerIndex>) -> Active {
        let len = ids.len();
        let mut a = Active { len, ..Active::default() };
        if len <= INLINE {
            for (slot, id) in a.inline.iter_mut().zip(ids) {
                *slot = id;
            }
        } else {
            a.heap = ids.collect();
        }
        a
    }
}

impl Deref for Active {
    type Target = [SpeakerIndex];

    fn deref(&self) -> &[SpeakerIndex] {
        self.inline.get(..self.len).unwrap_or(&self.heap)
    }
}

impl PartialEq for Active {
    fn eq(&self, other: &Active) -> bool {
        **self == **other
    }
}

impl Eq for Active {}

impl Serialize for Active {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}

/// One piece of the joint timeline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct JointPiece {
    /// Start (ms).
    pub start: Millis,
    /// End (ms).
    pub end: Millis,
    /// Active speaker indices, ascending (empty = silence).
    pub active: Active,
}

impl JointPiece {
    /// The single active speaker of a solo piece.
    pub fn solo(&self) -> Option<SpeakerIndex> {
        match *self.active {
            [x] => Some(x),
            _ => None,
        }
    }

    /// Duration (ms).
    pub fn dur(&self) -> Millis {
        self.end - self.start
    }
}

/// S3 over the talkspurts for which `keep` holds (a speaker's kept talkspurts must be
/// disjoint, as S2 guarantees). Cost O(n + pieces × speakers active) for talkspurts sorted by
/// start (as S2 leaves them; others are sorted first).
///
/// One sweep: the next instant is the earlier of the next start and the earliest end among the
/// active speakers (at most one talkspurt each), so the ends never need sorting. At one instant
/// the ends apply before the starts, and within one kind the order does not change the set.
pub fn joint_timeline(spurts: &[Talkspurt], keep: impl Fn(&Talkspurt) -> bool) -> Vec<JointPiece> {
    let kept = spurts.iter().filter(|s| keep(s)).map(|s| (s.start, s.speaker, s.end));
    if spurts.is_sorted_by_key(|s| s.start) {
        sweep(kept, spurts.len())
    } else {
        let mut sorted: Vec<(Millis, SpeakerIndex, Millis)> = kept.collect();
        sorted.sort_unstable();
        let n = sorted.len();
        sweep(sorted.into_iter(), n)
    }
}

/// The sweep of [`joint_timeline`] over `(start, speaker, end)` in start order.
fn sweep(
    spurts: impl Iterator<Item = (Millis, SpeakerIndex, Millis)>,
    hint: usize,
) -> Vec<JointPiece> {
    let mut spurts = spurts.peekable();
    let mut pieces: Vec<JointPiece> = Vec::with_capacity(2 * hint);
    // Active speakers, ascending, each with the end of its talkspurt. The list is short, so it
    // is kept in order by hand (no `memmove` calls for a few elements).
    let mut active: Vec<(SpeakerIndex, Millis)> = Vec::new();
    let next_time = |next_start: Option<Millis>, active: &[(SpeakerIndex, Millis)]| {
        let end = active.iter().map(|a| a.1).min();
        match (next_start, end) {
            (Some(a), Some(e)) => Some(a.min(e)),
            (a, e) => a.or(e),
        }
    };
    let mut t = match spurts.peek() {
        Some(&(start, ..)) => start,
        None => return pieces,
    };
    loop {
        // Ends at `t`, then starts at `t`.
        active.retain(|a| a.1 != t);
        while let Some(&(_, sp, end)) = spurts.peek().filter(|s| s.0 == t) {
            if !active.iter().any(|a| a.0 == sp) {
                active.push((sp, end));
                let mut k = active.len() - 1;
                while k > 0 && active[k - 1].0 > sp {
                    active.swap(k - 1, k);
                    k -= 1;
                }
            }
            spurts.next();
        }
        let Some(next) = next_time(spurts.peek().map(|s| s.0), &active) else { break };
        let same =
            |a: &Active| a.len() == active.len() && a.iter().zip(&active).all(|(x, y)| *x == y.0);
        match pieces.last_mut() {
            Some(last) if last.end == t && same(&last.active) => last.end = next,
            _ => pieces.push(JointPiece {
                start: t,
                end: next,
                active: Active::from_ids(active.iter().map(|a| a.0)),
            }),
        }
        t = next;
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn spurt(speaker: usize, start: i64, end: i64) -> Talkspurt {
        Talkspurt::timed(SpeakerIndex::new(speaker), Millis::new(start), Millis::new(end))
    }

    fn ids(a: &Active) -> Vec<usize> {
        a.iter().map(|x| x.get()).collect()
    }

    #[test]
    fn w1_joint_timeline() {
        let s = [spurt(0, 0, 5000), spurt(1, 4000, 6000), spurt(0, 6500, 9000)];
        let j = joint_timeline(&s, |_| true);
        let got: Vec<_> = j.iter().map(|p| (p.start.get(), p.end.get(), ids(&p.active))).collect();
        assert_eq!(
            got,
            vec![
                (0, 4000, vec![0]),
                (4000, 5000, vec![0, 1]),
                (5000, 6000, vec![1]),
                (6000, 6500, vec![]),
                (6500, 9000, vec![0]),
            ]
        );
    }

    #[test]
    fn active_sets_beyond_the_inline_size() {
        // Five speakers all overlapping: {0..4} is stored on the heap, the others inline.
        let s: Vec<_> = (0..5).map(|k| spurt(k, 10 * k as i64, 100)).collect();
        let j = joint_timeline(&s, |_| true);
        let sets: Vec<Vec<usize>> = j.iter().map(|p| ids(&p.active)).collect();
        assert_eq!(
            sets,
            vec![vec![0], vec![0, 1], vec![0, 1, 2], vec![0, 1, 2, 3], vec![0, 1, 2, 3, 4]]
        );
        let five: Vec<SpeakerIndex> = SpeakerIndex::all(5).collect();
        assert_eq!(j[4].active, Active::from_slice(&five));
        assert_ne!(j[4].active, j[3].active);
        assert_eq!(
            serde_json::to_string(&j[4]).unwrap(),
            r#"{"start":40,"end":100,"active":[0,1,2,3,4]}"#
        );
        assert_eq!(j[0].solo(), Some(SpeakerIndex::new(0)));
        assert_eq!(j[4].solo(), None);
    }

    #[test]
    fn touching_speakers_give_adjacent_solo_pieces() {
        let j = joint_timeline(&[spurt(0, 0, 10), spurt(1, 10, 20)], |_| true);
        assert_eq!(j.len(), 2);
        assert_eq!((j[0].end, j[1].start), (Millis::new(10), Millis::new(10)));
        assert!(joint_timeline(&[], |_| true).is_empty());
    }
}
