//! Diarization error rate: components per recording, added up over a corpus.
//!
//! For every elementary piece of the scored region (constant sets of active speakers), with
//! `d` its duration, `R` the reference speakers, `S` the hypothesis speakers and `nmap` the
//! reference speakers whose mapped hypothesis speaker is also active:
//!
//! ```text
//! scored     += d·|R|
//! miss       += d·max(|R| − |S|, 0)
//! false alarm+= d·max(|S| − |R|, 0)
//! confusion  += d·(min(|R|, |S|) − nmap)
//! correct    += d·nmap
//! DER = (miss + false alarm + confusion) / scored
//! ```
//!
//! This is md-eval-22's arithmetic (and pyannote's, with its own counting of self-overlap).
//! Overlapped speech is scored: a two-speaker overlap answered by one right speaker costs `d` of
//! miss. Totals over recordings add components (time-weighted), never per-file rates.

use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

use crate::model::{Region, Segment};
use crate::time::{Delta, Time};

use super::options::ZeroScored;
use super::prepare::ScoredTurn;

/// The additive parts of a DER, in exact microseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DerComponents {
    /// Reference speaker time scored (every reference speaker counts, overlap included).
    pub scored: Delta,
    /// Reference speaker time attributed to the mapped hypothesis speaker.
    pub correct: Delta,
    /// Reference speaker time with no hypothesis speaker at all.
    pub miss: Delta,
    /// Hypothesis speaker time beyond the number of reference speakers.
    pub false_alarm: Delta,
    /// Reference speaker time given to the wrong hypothesis speaker.
    pub confusion: Delta,
}

impl DerComponents {
    /// `miss + false alarm + confusion`.
    pub fn error(&self) -> Delta {
        self.miss + self.false_alarm + self.confusion
    }

    /// The DER as a fraction (1.0 = 100 %); `None` when nothing was scored.
    pub fn der(&self) -> Option<f64> {
        if self.scored <= Delta::ZERO {
            return None;
        }
        Some(self.error().micros() as f64 / self.scored.micros() as f64)
    }

    /// The DER with a rule for zero scored time ([`ZeroScored::ZeroOrFull`]: 0 without error,
    /// else 1.0 — pyannote's and dscore's per-file answer).
    pub fn der_with(&self, rule: ZeroScored) -> Option<f64> {
        match (self.der(), rule) {
            (Some(d), _) => Some(d),
            (None, ZeroScored::Undefined) => None,
            (None, ZeroScored::ZeroOrFull) => {
                Some(if self.error() > Delta::ZERO { 1.0 } else { 0.0 })
            }
        }
    }
}

impl Add for DerComponents {
    type Output = DerComponents;
    fn add(self, o: DerComponents) -> DerComponents {
        DerComponents {
            scored: self.scored + o.scored,
            correct: self.correct + o.correct,
            miss: self.miss + o.miss,
            false_alarm: self.false_alarm + o.false_alarm,
            confusion: self.confusion + o.confusion,
        }
    }
}

impl AddAssign for DerComponents {
    fn add_assign(&mut self, o: DerComponents) {
        *self = *self + o;
    }
}

impl std::iter::Sum for DerComponents {
    fn sum<I: Iterator<Item = DerComponents>>(iter: I) -> DerComponents {
        iter.fold(DerComponents::default(), Add::add)
    }
}

/// The mean of per-recording DERs (each recording weighs the same), over recordings where it is
/// defined.
pub fn macro_average<'a>(per_file: impl IntoIterator<Item = &'a DerComponents>) -> Option<f64> {
    let ders: Vec<f64> = per_file.into_iter().filter_map(DerComponents::der).collect();
    if ders.is_empty() {
        None
    } else {
        Some(ders.iter().sum::<f64>() / ders.len() as f64)
    }
}

/// One elementary piece: its segment and the active speakers with their turn counts.
pub struct ElementaryPiece<'a> {
    /// The piece.
    pub segment: Segment,
    /// Active reference speakers as `(speaker, count)`.
    pub reference: &'a [(u32, u32)],
    /// Active hypothesis speakers as `(speaker, count)`.
    pub hypothesis: &'a [(u32, u32)],
}

struct Side {
    counts: Vec<u32>,
    active: Vec<(u32, u32)>,
}

impl Side {
    fn new(n: usize) -> Side {
        Side { counts: vec![0; n], active: Vec::new() }
    }
    fn apply(&mut self, k: u32, delta: i32) {
        let Some(c) = self.counts.get_mut(k as usize) else { return };
        *c = c.saturating_add_signed(delta);
        let c = *c;
        match self.active.iter().position(|&(s, _)| s == k) {
            Some(i) if c == 0 => {
                self.active.swap_remove(i);
            }
            Some(i) => self.active[i].1 = c,
            None if c > 0 => self.active.push((k, c)),
            None => {}
        }
    }
}

/// Cuts `within` into elementary pieces at every turn boundary and calls `f` for each piece
/// where at least one speaker is active. With `count_each` a speaker's count is their number of
/// active turns; otherwise it is 0 or 1.
///
/// ```text
/// within   [██████████████)
/// ref A    [██████)
/// hyp x       [████████)
/// pieces   [██)[██)[███)
///           A   A,x  x
/// ```
pub fn sweep(
    reference: &[ScoredTurn],
    hypothesis: &[ScoredTurn],
    within: &Region,
    count_each: bool,
    f: impl FnMut(ElementaryPiece<'_>),
) {
    sweep_events(&TurnEvents::new(reference, hypothesis), within, count_each, f);
}

/// The turn boundaries of a recording's two sides, sorted by time once and swept as often as
/// needed (the mapping and the DER components sweep the same turns over different regions).
pub struct TurnEvents {
    /// `(time, side, speaker, +1 start / −1 end)`, side 0 = reference, 1 = hypothesis; sorted
    /// by time only (the order at one time is irrelevant to a sweep).
    events: Vec<(Time, u8, u32, i32)>,
    nref: usize,
    nhyp: usize,
}

impl TurnEvents {
    /// The boundaries of `reference` and `hypothesis` turns, sorted by time.
    pub fn new(reference: &[ScoredTurn], hypothesis: &[ScoredTurn]) -> TurnEvents {
        let n = 2 * (reference.len() + hypothesis.len());
        let sorted = |t: &[ScoredTurn]| t.is_sorted_by_key(|x| x.0.start());
        let events = if sorted(reference) && sorted(hypothesis) {
            // Turns come sorted by onset (as `prepare` leaves them): only the ends are sorted,
            // then the three runs are merged.
            let mut ends: Vec<(Time, u8, u32, i32)> = Vec::with_capacity(n / 2);
            for (side, tokens) in [(0u8, reference), (1u8, hypothesis)] {
                ends.extend(tokens.iter().map(|&(s, k)| (s.end(), side, k, -1)));
            }
            ends.sort_unstable_by_key(|e| e.0);
            let starts = |side: u8, t: &'_ [ScoredTurn]| {
                t.iter().map(move |&(s, k)| (s.start(), side, k, 1)).collect::<Vec<_>>()
            };
            let merged = merge_by_time(&starts(0, reference), &starts(1, hypothesis));
            merge_by_time(&merged, &ends)
        } else {
            let mut events: Vec<(Time, u8, u32, i32)> = Vec::with_capacity(n);
            for (side, tokens) in [(0u8, reference), (1u8, hypothesis)] {
                for &(s, k) in tokens {
                    events.push((s.start(), side, k, 1));
                    events.push((s.end(), side, k, -1));
                }
            }
            events.sort_unstable_by_key(|e| e.0);
            events
        };
        TurnEvents {
            events,
            nref: reference.iter().map(|t| t.1 as usize + 1).max().unwrap_or(0),
            nhyp: hypothesis.iter().map(|t| t.1 as usize + 1).max().unwrap_or(0),
        }
    }
}

/// Two event lists sorted by time, merged into one sorted by time.
fn merge_by_time(
    a: &[(Time, u8, u32, i32)],
    b: &[(Time, u8, u32, i32)],
) -> Vec<(Time, u8, u32, i32)> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i].0 <= b[j].0 {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// [`sweep`] over turn boundaries sorted beforehand: the region's boundaries (already in time
/// order) are merged in as the sweep goes.
pub fn sweep_events(
    turns: &TurnEvents,
    within: &Region,
    count_each: bool,
    mut f: impl FnMut(ElementaryPiece<'_>),
) {
    let events = &turns.events;
    let region = within.segments();
    // The region's boundaries in time order: start of segment i at 2i, end at 2i + 1.
    let region_at = |j: usize| -> Option<(Time, i32)> {
        let s = region.get(j / 2)?;
        Some(if j % 2 == 0 { (s.start(), 1) } else { (s.end(), -1) })
    };
    let next_time = |i: usize, j: usize| -> Option<Time> {
        match (events.get(i).map(|e| e.0), region_at(j).map(|e| e.0)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    };
    let mut r = Side::new(turns.nref);
    let mut h = Side::new(turns.nhyp);
    let mut inside = 0i32;
    let mut rv: Vec<(u32, u32)> = Vec::new();
    let mut hv: Vec<(u32, u32)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while let Some(t) = next_time(i, j) {
        while i < events.len() && events[i].0 == t {
            let (_, side, k, d) = events[i];
            if side == 0 {
                r.apply(k, d);
            } else {
                h.apply(k, d);
            }
            i += 1;
        }
        while let Some((_, d)) = region_at(j).filter(|e| e.0 == t) {
            inside += d;
            j += 1;
        }
        let Some(next) = next_time(i, j) else { break };
        if inside <= 0 || (r.active.is_empty() && h.active.is_empty()) {
            continue;
        }
        let Some(segment) = Segment::new(t, next) else { continue };
        rv.clear();
        hv.clear();
        let clamp = |&(k, c): &(u32, u32)| (k, if count_each { c } else { c.min(1) });
        rv.extend(r.active.iter().map(clamp));
        hv.extend(h.active.iter().map(clamp));
        rv.sort_unstable();
        hv.sort_unstable();
        f(ElementaryPiece { segment, reference: &rv, hypothesis: &hv });
    }
}

/// Co-occurrence of every (reference, hypothesis) pair over `within`, in microseconds.
pub fn cooccurrence(
    reference: &[ScoredTurn],
    hypothesis: &[ScoredTurn],
    nref: usize,
    nhyp: usize,
    within: &Region,
    count_each: bool,
) -> Vec<Vec<i64>> {
    cooccurrence_of(&TurnEvents::new(reference, hypothesis), nref, nhyp, within, count_each)
}

/// [`cooccurrence`] from turn boundaries sorted beforehand.
pub fn cooccurrence_of(
    turns: &TurnEvents,
    nref: usize,
    nhyp: usize,
    within: &Region,
    count_each: bool,
) -> Vec<Vec<i64>> {
    let mut m = vec![vec![0i64; nhyp]; nref];
    sweep_events(turns, within, count_each, |p| {
        let d = p.segment.duration().micros();
        for &(rk, rc) in p.reference {
            for &(hk, hc) in p.hypothesis {
                if let Some(cell) = m.get_mut(rk as usize).and_then(|row| row.get_mut(hk as usize))
                {
                    *cell += d * i64::from(rc) * i64::from(hc);
                }
            }
        }
    });
    m
}

/// Number of reference turns answered by their mapped hypothesis speaker in a piece.
pub fn matched(piece: &ElementaryPiece<'_>, mapping: &[Option<usize>]) -> u32 {
    piece
        .reference
        .iter()
        .map(|&(rk, rc)| {
            mapping
                .get(rk as usize)
                .copied()
                .flatten()
                .and_then(|hk| piece.hypothesis.iter().find(|&&(k, _)| k as usize == hk))
                .map_or(0, |&(_, hc)| rc.min(hc))
        })
        .sum()
}

/// DER components over `within` given a mapping (reference index → hypothesis index).
pub fn components(
    reference: &[ScoredTurn],
    hypothesis: &[ScoredTurn],
    within: &Region,
    mapping: &[Option<usize>],
    count_each: bool,
) -> DerComponents {
    components_of(&TurnEvents::new(reference, hypothesis), within, mapping, count_each)
}

/// [`components`] from turn boundaries sorted beforehand.
pub fn components_of(
    turns: &TurnEvents,
    within: &Region,
    mapping: &[Option<usize>],
    count_each: bool,
) -> DerComponents {
    let mut c = DerComponents::default();
    sweep_events(turns, within, count_each, |p| {
        let d = p.segment.duration().micros();
        let nref: i64 = p.reference.iter().map(|&(_, n)| i64::from(n)).sum();
        let nsys: i64 = p.hypothesis.iter().map(|&(_, n)| i64::from(n)).sum();
        let nmap = i64::from(matched(&p, mapping));
        c.scored += Delta::from_micros(d * nref);
        c.miss += Delta::from_micros(d * (nref - nsys).max(0));
        c.false_alarm += Delta::from_micros(d * (nsys - nref).max(0));
        c.confusion += Delta::from_micros(d * (nref.min(nsys) - nmap));
        c.correct += Delta::from_micros(d * nmap);
    });
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(a: i64, b: i64) -> Segment {
        Segment::from_millis(a, b).unwrap()
    }

    #[test]
    fn components_follow_md_eval_arithmetic() {
        // ref A 0–10, B 5–15; hyp x 0–7, y 7–15; map A→x, B→y; region 0–20 (hyp z 18–20 FA).
        let r = vec![(seg(0, 10_000), 0), (seg(5_000, 15_000), 1)];
        let h = vec![(seg(0, 7_000), 0), (seg(7_000, 15_000), 1), (seg(18_000, 20_000), 2)];
        let within = Region::from_segment(seg(0, 20_000));
        let c = components(&r, &h, &within, &[Some(0), Some(1)], false);
        assert_eq!(c.scored, Delta::from_secs(20));
        assert_eq!(c.miss, Delta::from_secs(5));
        assert_eq!(c.false_alarm, Delta::from_secs(2));
        assert_eq!(c.confusion, Delta::ZERO);
        assert_eq!(c.correct, Delta::from_secs(15));
        assert_eq!(c.der(), Some(0.35));
        // Without B→y, 7–15 is B answered by the wrong speaker: 8 s of confusion.
        let unmapped = components(&r, &h, &within, &[Some(0), None], false);
        assert_eq!(unmapped.confusion, Delta::from_secs(8));
        assert_eq!(unmapped.correct, Delta::from_secs(7));
        let total = c + c;
        assert_eq!(total.scored, Delta::from_secs(40));
        assert_eq!([c, c].iter().copied().sum::<DerComponents>(), total);
    }

    #[test]
    fn turn_events_are_sorted_either_way() {
        let r = vec![(seg(0, 10), 0), (seg(2, 5), 1), (seg(2, 30), 0), (seg(7, 8), 2)];
        let h = vec![(seg(1, 4), 0), (seg(1, 40), 1), (seg(9, 12), 0)];
        let merged = TurnEvents::new(&r, &h);
        let mut unsorted_r = r.clone();
        unsorted_r.reverse();
        let sorted_all = TurnEvents::new(&unsorted_r, &h);
        assert!(merged.events.is_sorted_by_key(|e| e.0));
        let key = |v: &[(Time, u8, u32, i32)]| {
            let mut v = v.to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(key(&merged.events), key(&sorted_all.events));
        assert_eq!(merged.events.len(), 14);
        let w = Region::from_segment(seg(0, 50));
        let m = [Some(1), Some(0), None];
        assert_eq!(components_of(&merged, &w, &m, true), components(&unsorted_r, &h, &w, &m, true));
    }

    #[test]
    fn zero_scored_rules() {
        let fa = DerComponents { false_alarm: Delta::from_secs(5), ..Default::default() };
        assert_eq!(fa.der(), None);
        assert_eq!(fa.der_with(ZeroScored::Undefined), None);
        assert_eq!(fa.der_with(ZeroScored::ZeroOrFull), Some(1.0));
        assert_eq!(DerComponents::default().der_with(ZeroScored::ZeroOrFull), Some(0.0));
        assert_eq!(macro_average(&[fa]), None);
    }

    #[test]
    fn count_each_counts_self_overlap_twice() {
        let r = vec![(seg(0, 6), 0), (seg(4, 10), 0)];
        let h = vec![(seg(0, 10), 0)];
        let w = Region::from_segment(seg(0, 10));
        let once = components(&r, &h, &w, &[Some(0)], false);
        let twice = components(&r, &h, &w, &[Some(0)], true);
        assert_eq!(once.scored, Delta::from_millis(10));
        assert_eq!(twice.scored, Delta::from_millis(12));
        assert_eq!(twice.miss, Delta::from_millis(2));
    }
}
