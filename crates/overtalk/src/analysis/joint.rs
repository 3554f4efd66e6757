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

use serde::Serialize;

use super::talkspurt::Talkspurt;

/// One piece of the joint timeline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Piece {
    /// Start (ms).
    pub start: i64,
    /// End (ms).
    pub end: i64,
    /// Active speaker indices, ascending (empty = silence).
    pub active: Vec<usize>,
}

impl Piece {
    /// The single active speaker of a solo piece.
    pub fn solo(&self) -> Option<usize> {
        match self.active.as_slice() {
            [x] => Some(*x),
            _ => None,
        }
    }

    /// Duration (ms).
    pub fn dur(&self) -> i64 {
        self.end - self.start
    }
}

/// S3 over the talkspurts for which `keep` holds (a speaker's kept talkspurts must be
/// disjoint, as S2 guarantees). Cost O(n log n + pieces × speakers active).
pub fn joint_timeline(spurts: &[Talkspurt], keep: impl Fn(&Talkspurt) -> bool) -> Vec<Piece> {
    // Boundary events: (time, kind 0 = end / 1 = start, speaker).
    let mut events: Vec<(i64, u8, usize)> = Vec::new();
    for s in spurts.iter().filter(|s| keep(s)) {
        events.push((s.start, 1, s.speaker));
        events.push((s.end, 0, s.speaker));
    }
    events.sort_unstable();
    let mut pieces: Vec<Piece> = Vec::new();
    let mut active: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < events.len() {
        let t = events[i].0;
        while i < events.len() && events[i].0 == t {
            let (_, kind, sp) = events[i];
            match (kind, active.binary_search(&sp)) {
                (1, Err(pos)) => active.insert(pos, sp),
                (0, Ok(pos)) => {
                    active.remove(pos);
                }
                _ => {}
            }
            i += 1;
        }
        if i < events.len() {
            let next = events[i].0;
            match pieces.last_mut() {
                Some(last) if last.active == active && last.end == t => last.end = next,
                _ => pieces.push(Piece { start: t, end: next, active: active.clone() }),
            }
        }
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn spurt(speaker: usize, start: i64, end: i64) -> Talkspurt {
        Talkspurt {
            speaker,
            start,
            end,
            tokens: Vec::new(),
            has_tokens: false,
            laughter: false,
            backchannel: false,
            floor: true,
        }
    }

    #[test]
    fn w1_joint_timeline() {
        let s = [spurt(0, 0, 5000), spurt(1, 4000, 6000), spurt(0, 6500, 9000)];
        let j = joint_timeline(&s, |_| true);
        let got: Vec<_> = j.iter().map(|p| (p.start, p.end, p.active.clone())).collect();
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
    fn touching_speakers_give_adjacent_solo_pieces() {
        let j = joint_timeline(&[spurt(0, 0, 10), spurt(1, 10, 20)], |_| true);
        assert_eq!(j.len(), 2);
        assert_eq!((j[0].end, j[1].start), (10, 10));
        assert!(joint_timeline(&[], |_| true).is_empty());
    }
}
