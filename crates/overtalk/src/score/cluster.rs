//! Clustering metrics of a diarization (dscore's, on 10 ms frames) and pyannote's purity and
//! coverage.
//!
//! Every frame gets one class per side: the *set* of speakers active in it (silence is the empty
//! set, overlap a set of several), then a contingency table counts frames per (reference class,
//! hypothesis class). Over a corpus the table is block-diagonal: a class in one recording is
//! never the same class as in another (dscore's choice, silence included).
//!
//! ```text
//! ref   A A A AB AB B B · ·        classes {A} {A,B} {B} {}
//! hyp   x x y y  y  y y y ·        classes {x} {y} {}
//! ```
//!
//! From the table: B-cubed precision/recall/F1, Goodman–Kruskal τ in both directions,
//! conditional entropies H(ref|sys) and H(sys|ref), mutual information and NMI normalised by
//! `sqrt(H(ref)·H(sys))` — all in bits, with dscore's special cases for single-class labelings.

use std::collections::HashMap;

use rustc_hash::FxHashMap;

use serde::{Deserialize, Serialize};

use crate::model::{Annotation, Region};
use crate::time::Delta;

use super::frames::FrameSets;

/// A sparse contingency table of frame counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Contingency {
    /// `(reference class, hypothesis class) → frames`.
    pub cells: HashMap<(usize, usize), u64>,
    /// Number of reference classes.
    pub rows: usize,
    /// Number of hypothesis classes.
    pub columns: usize,
}

impl Contingency {
    /// The contingency table of one recording's frames.
    pub fn of_frames(f: &FrameSets) -> Contingency {
        Contingency::of_frames_small(f).unwrap_or_else(|| Contingency::of_frames_general(f))
    }

    /// [`Contingency::of_frames`] for any number of speakers: classes are sorted lists.
    fn of_frames_general(f: &FrameSets) -> Contingency {
        let mut events: Vec<(i64, u8, u32, i32)> = Vec::new();
        for (side, sets) in [(0u8, &f.reference), (1u8, &f.hypothesis)] {
            for (k, (_, region)) in sets.iter().enumerate() {
                for s in region.iter() {
                    events.push((s.start().micros(), side, k as u32, 1));
                    events.push((s.end().micros(), side, k as u32, -1));
                }
            }
        }
        for s in f.keep.iter() {
            events.push((s.start().micros(), 2, 0, 1));
            events.push((s.end().micros(), 2, 0, -1));
        }
        // Only the time orders events: the class of a side is the sorted set of its active
        // speakers once every event at that time is applied, whatever their order.
        events.sort_unstable_by_key(|e| e.0);
        let mut cells: FxHashMap<(usize, usize), u64> = FxHashMap::default();
        let mut active: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        let mut inside = 0i32;
        let mut classes: [FxHashMap<Vec<u32>, usize>; 2] = Default::default();
        let mut cm = Contingency::default();
        // The class of each side's active set, recomputed only when that set changed.
        let mut ids = [0usize; 2];
        let mut dirty = [true; 2];
        let mut key: Vec<u32> = Vec::new();
        let mut i = 0;
        while i < events.len() {
            let t = events[i].0;
            while i < events.len() && events[i].0 == t {
                let (_, side, k, d) = events[i];
                match side {
                    2 => inside += d,
                    s => {
                        let list = &mut active[s as usize];
                        if d > 0 {
                            list.push(k);
                        } else if let Some(pos) = list.iter().position(|&x| x == k) {
                            list.swap_remove(pos);
                        }
                        dirty[s as usize] = true;
                    }
                }
                i += 1;
            }
            let Some(&(next, ..)) = events.get(i) else { break };
            if inside <= 0 || next <= t {
                continue;
            }
            for s in 0..2 {
                if dirty[s] {
                    key.clear();
                    key.extend_from_slice(&active[s]);
                    key.sort_unstable();
                    let n = classes[s].len();
                    ids[s] = match classes[s].get(&key) {
                        Some(&id) => id,
                        None => {
                            classes[s].insert(key.clone(), n);
                            n
                        }
                    };
                    dirty[s] = false;
                }
            }
            *cells.entry((ids[0], ids[1])).or_insert(0) += (next - t) as u64;
        }
        cm.cells = cells.into_iter().collect();
        cm.rows = classes[0].len();
        cm.columns = classes[1].len();
        cm
    }

    /// [`Contingency::of_frames`] for the common case of at most 64 speakers a side: a class
    /// is a bit set, and a boundary is one `u64` (`frame << 9 | side << 7 | speaker << 1 |
    /// start`), so the events sort as integers and classes hash as integers. Classes get the
    /// same numbers (order of first appearance), so the table is the same. `None` when the
    /// recording does not fit.
    fn of_frames_small(f: &FrameSets) -> Option<Contingency> {
        const TIME_LIMIT: i64 = 1 << 50;
        if f.reference.len() > 64 || f.hypothesis.len() > 64 {
            return None;
        }
        let pack = |t: i64, side: u64, k: u64, start: bool| -> Option<u64> {
            (0..TIME_LIMIT)
                .contains(&t)
                .then(|| (t as u64) << 9 | side << 7 | k << 1 | u64::from(start))
        };
        let count: usize = f.reference.iter().chain(&f.hypothesis).map(|(_, r)| r.len()).sum();
        let mut events: Vec<u64> = Vec::with_capacity(2 * (count + f.keep.len()));
        for (side, sets) in [(0u64, &f.reference), (1u64, &f.hypothesis)] {
            for (k, (_, region)) in sets.iter().enumerate() {
                for s in region.iter() {
                    events.push(pack(s.start().micros(), side, k as u64, true)?);
                    events.push(pack(s.end().micros(), side, k as u64, false)?);
                }
            }
        }
        for s in f.keep.iter() {
            events.push(pack(s.start().micros(), 2, 0, true)?);
            events.push(pack(s.end().micros(), 2, 0, false)?);
        }
        events.sort_unstable();
        let mut cells: FxHashMap<(usize, usize), u64> = FxHashMap::default();
        let mut classes: [FxHashMap<u64, usize>; 2] = Default::default();
        let mut active = [0u64; 2];
        let mut ids = [0usize; 2];
        let mut dirty = [true; 2];
        let mut inside = 0i32;
        let mut i = 0;
        while i < events.len() {
            let t = events[i] >> 9;
            while i < events.len() && events[i] >> 9 == t {
                let code = events[i] & 0x1ff;
                let (side, bit, start) =
                    ((code >> 7) as usize, 1u64 << ((code >> 1) & 63), code & 1 == 1);
                match side {
                    0 | 1 => {
                        if start {
                            active[side] |= bit;
                        } else {
                            active[side] &= !bit;
                        }
                        dirty[side] = true;
                    }
                    _ => inside += if start { 1 } else { -1 },
                }
                i += 1;
            }
            let Some(&e) = events.get(i) else { break };
            let next = e >> 9;
            if inside <= 0 || next <= t {
                continue;
            }
            for s in 0..2 {
                if dirty[s] {
                    let n = classes[s].len();
                    ids[s] = *classes[s].entry(active[s]).or_insert(n);
                    dirty[s] = false;
                }
            }
            *cells.entry((ids[0], ids[1])).or_insert(0) += next - t;
        }
        Some(Contingency {
            cells: cells.into_iter().collect(),
            rows: classes[0].len(),
            columns: classes[1].len(),
        })
    }

    /// Block-diagonal sum of recordings' tables.
    pub fn block_diagonal<'a>(tables: impl IntoIterator<Item = &'a Contingency>) -> Contingency {
        let mut out = Contingency::default();
        for t in tables {
            for (&(r, c), &v) in &t.cells {
                out.cells.insert((r + out.rows, c + out.columns), v);
            }
            out.rows += t.rows;
            out.columns += t.columns;
        }
        out
    }

    /// The clustering metrics of this table; `None` when it holds no frame.
    pub fn metrics(&self) -> Option<ClusterMetrics> {
        let n: u64 = self.cells.values().sum();
        if n == 0 {
            return None;
        }
        let nf = n as f64;
        let mut row = vec![0f64; self.rows];
        let mut col = vec![0f64; self.columns];
        let mut cells: Vec<(usize, usize, f64)> = self
            .cells
            .iter()
            .filter(|(_, &v)| v > 0)
            .map(|(&(r, c), &v)| (r, c, v as f64))
            .collect();
        cells.sort_by_key(|&(r, c, _)| (r, c));
        for &(r, c, v) in &cells {
            row[r] += v;
            col[c] += v;
        }
        let precision: f64 = cells.iter().map(|&(_, c, v)| v / nf * (v / col[c])).sum();
        let recall: f64 = cells.iter().map(|&(r, _, v)| v / nf * (v / row[r])).sum();
        let f1 = if precision + recall > 0.0 {
            2.0 * precision * recall / (precision + recall)
        } else {
            0.0
        };
        // Goodman–Kruskal tau.
        let mut sq_row = vec![0f64; self.rows];
        let mut sq_col = vec![0f64; self.columns];
        for &(r, c, v) in &cells {
            let p = v / nf;
            sq_row[r] += p * p;
            sq_col[c] += p * p;
        }
        let tau = |marg_target: &[f64], marg_given: &[f64], sq_given: &[f64], classes: usize| {
            if classes == 1 {
                return 1.0;
            }
            let v = 1.0 - marg_target.iter().map(|m| (m / nf) * (m / nf)).sum::<f64>();
            let v_bar = 1.0
                - sq_given
                    .iter()
                    .zip(marg_given)
                    .filter(|(_, m)| **m > 0.0)
                    .map(|(s, m)| s / (m / nf))
                    .sum::<f64>();
            if v > 0.0 {
                (v - v_bar) / v
            } else {
                0.0
            }
        };
        let tau_ref_sys = tau(&col, &row, &sq_row, self.columns);
        let tau_sys_ref = tau(&row, &col, &sq_col, self.rows);
        let h_ref_given_sys: f64 =
            cells.iter().map(|&(_, c, v)| v / nf * (col[c].log2() - v.log2())).sum();
        let h_sys_given_ref: f64 =
            cells.iter().map(|&(r, _, v)| v / nf * (row[r].log2() - v.log2())).sum();
        let (mi, nmi) = match (self.rows == 1, self.columns == 1) {
            (true, true) => (0.0, 1.0),
            (true, false) | (false, true) => (0.0, 0.0),
            (false, false) => {
                let mi: f64 = cells
                    .iter()
                    .map(|&(r, c, v)| v / nf * (v.log2() - (row[r] * col[c]).log2() + nf.log2()))
                    .sum::<f64>()
                    .max(0.0);
                let h = |m: &[f64]| {
                    (-m.iter()
                        .filter(|x| **x > 0.0)
                        .map(|x| (x / nf) * (x / nf).log2())
                        .sum::<f64>())
                    .max(0.0)
                };
                let denom = (h(&row) * h(&col)).sqrt();
                let nmi = if denom > 0.0 { (mi / denom).clamp(0.0, 1.0) } else { 0.0 };
                (mi, nmi)
            }
        };
        Some(ClusterMetrics {
            bcubed_precision: precision,
            bcubed_recall: recall,
            bcubed_f1: f1,
            tau_ref_sys,
            tau_sys_ref,
            h_ref_given_sys,
            h_sys_given_ref,
            mutual_information: mi,
            normalized_mutual_information: nmi,
        })
    }
}

/// dscore's clustering metrics (bits).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClusterMetrics {
    /// B-cubed precision.
    pub bcubed_precision: f64,
    /// B-cubed recall.
    pub bcubed_recall: f64,
    /// B-cubed F1.
    pub bcubed_f1: f64,
    /// Goodman–Kruskal τ(ref, sys): how well the reference predicts the hypothesis.
    pub tau_ref_sys: f64,
    /// Goodman–Kruskal τ(sys, ref).
    pub tau_sys_ref: f64,
    /// Conditional entropy H(ref | sys).
    pub h_ref_given_sys: f64,
    /// Conditional entropy H(sys | ref).
    pub h_sys_given_ref: f64,
    /// Mutual information.
    pub mutual_information: f64,
    /// Mutual information over `sqrt(H(ref)·H(sys))`.
    pub normalized_mutual_information: f64,
}

/// pyannote's cluster purity as `(largest, total)`: for each hypothesis label, the time of the
/// reference label it overlaps most, summed, over the hypothesis labels' total time. No UEM or
/// collar (pyannote applies none here). Purity = largest / total (1 when total is 0).
pub fn purity(reference: &Annotation, hypothesis: &Annotation) -> (Delta, Delta) {
    let r = reference.speaker_regions();
    let mut largest = Delta::ZERO;
    let mut total = Delta::ZERO;
    for h in hypothesis.speaker_regions() {
        total += h.duration();
        largest += r.iter().map(|ri| ri.intersection(&h).duration()).max().unwrap_or(Delta::ZERO);
    }
    (largest, total)
}

/// pyannote's cluster coverage: purity with the roles swapped.
pub fn coverage(reference: &Annotation, hypothesis: &Annotation) -> (Delta, Delta) {
    purity(hypothesis, reference)
}

/// [`purity`] and [`coverage`] at once: each speaker's region is built once and every
/// (reference, hypothesis) overlap is measured once, without building the intersections.
pub fn purity_and_coverage(
    reference: &Annotation,
    hypothesis: &Annotation,
) -> ((Delta, Delta), (Delta, Delta)) {
    let r = reference.speaker_regions();
    let h = hypothesis.speaker_regions();
    // overlap[j][i] = |h_j ∩ r_i|.
    let overlap: Vec<Vec<Delta>> =
        h.iter().map(|hj| r.iter().map(|ri| overlap_duration(ri, hj)).collect()).collect();
    let mut purity = (Delta::ZERO, Delta::ZERO);
    for (j, hj) in h.iter().enumerate() {
        purity.1 += hj.duration();
        purity.0 += overlap[j].iter().copied().max().unwrap_or(Delta::ZERO);
    }
    let mut coverage = (Delta::ZERO, Delta::ZERO);
    for (i, ri) in r.iter().enumerate() {
        coverage.1 += ri.duration();
        coverage.0 += overlap.iter().map(|row| row[i]).max().unwrap_or(Delta::ZERO);
    }
    (purity, coverage)
}

/// `|a ∩ b|`, by the same linear merge as [`Region::intersection`] but without building it.
///
/// ```text
/// a       [████)      [██████)
/// b          [████)      [█)
/// a ∩ b      [█)         [█)      → 2 units
/// ```
pub fn overlap_duration(a: &Region, b: &Region) -> Delta {
    let (a, b) = (a.segments(), b.segments());
    let (mut i, mut j) = (0, 0);
    let mut total = Delta::ZERO;
    while i < a.len() && j < b.len() {
        let (x, y) = (a[i], b[j]);
        if let Some(piece) = x.intersection(&y) {
            total += piece.duration();
        }
        if x.end() <= y.end() {
            i += 1;
        } else {
            j += 1;
        }
    }
    total
}

/// `largest / total`, 1 when nothing was labelled.
pub fn ratio((largest, total): (Delta, Delta)) -> f64 {
    if total <= Delta::ZERO {
        1.0
    } else {
        largest.micros() as f64 / total.micros() as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Segment;

    fn r(a: i64, b: i64) -> Region {
        Region::from_segment(Segment::from_micros(a, b).unwrap())
    }

    #[test]
    fn identical_labelings_are_perfect() {
        let f = FrameSets {
            keep: r(0, 100),
            reference: vec![(true, r(0, 40)), (true, r(30, 80))],
            hypothesis: vec![(true, r(0, 40)), (true, r(30, 80))],
        };
        let cm = Contingency::of_frames(&f);
        assert_eq!((cm.rows, cm.columns), (4, 4));
        let m = cm.metrics().unwrap();
        assert_eq!(m.bcubed_precision, 1.0);
        assert_eq!(m.bcubed_recall, 1.0);
        assert!((m.tau_ref_sys - 1.0).abs() < 1e-12);
        assert!(m.h_ref_given_sys.abs() < 1e-12);
        assert!((m.normalized_mutual_information - 1.0).abs() < 1e-12);
        let two = Contingency::block_diagonal([&cm, &cm]);
        assert_eq!((two.rows, two.columns), (8, 8));
        assert_eq!(Contingency::default().metrics(), None);
    }

    #[test]
    fn bit_set_classes_give_the_same_table() {
        // Pseudo-random speakers over 0..2000 frames, keep with holes; both paths must agree
        // cell for cell, class numbers included.
        let mut seed = 12345u64;
        let mut next = |m: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for round in 0..20 {
            let mut side = |n: usize| -> Vec<(bool, Region)> {
                (0..n)
                    .map(|_| {
                        let segs: Vec<Segment> = (0..next(8))
                            .filter_map(|_| {
                                let a = next(2000) as i64;
                                Segment::from_micros(a, a + 1 + next(300) as i64)
                            })
                            .collect();
                        (true, Region::from_segments(segs))
                    })
                    .collect()
            };
            let f = FrameSets {
                keep: Region::from_segments([
                    Segment::from_micros(0, 900).unwrap(),
                    Segment::from_micros(1000 + round, 2100).unwrap(),
                ]),
                reference: side(1 + round as usize % 5),
                hypothesis: side(1 + round as usize % 7),
            };
            let small = Contingency::of_frames_small(&f).unwrap();
            assert_eq!(small, Contingency::of_frames_general(&f), "round {round}");
            assert_eq!(small.metrics(), Contingency::of_frames_general(&f).metrics());
        }
        let many = FrameSets {
            keep: r(0, 10),
            reference: (0..65).map(|k| (true, r(k % 10, k % 10 + 1))).collect(),
            hypothesis: vec![(true, r(0, 10))],
        };
        assert_eq!(Contingency::of_frames_small(&many), None);
        assert_eq!(Contingency::of_frames(&many).rows, 10);
    }

    #[test]
    fn purity_and_coverage_of_the_pyannote_example() {
        let s = |a, b| Segment::from_millis(a, b).unwrap();
        let reference = Annotation::from_labelled([
            (s(0, 10_000), "A"),
            (s(12_000, 20_000), "B"),
            (s(24_000, 27_000), "A"),
            (s(30_000, 40_000), "C"),
        ]);
        let hypothesis = Annotation::from_labelled([
            (s(2_000, 13_000), "a"),
            (s(13_000, 14_000), "d"),
            (s(14_000, 20_000), "b"),
            (s(22_000, 38_000), "c"),
            (s(38_000, 40_000), "d"),
        ]);
        assert_eq!(purity(&reference, &hypothesis), (Delta::from_secs(24), Delta::from_secs(36)));
        assert_eq!(coverage(&reference, &hypothesis), (Delta::from_secs(22), Delta::from_secs(31)));
        assert_eq!(format!("{:.4}", ratio(purity(&reference, &hypothesis))), "0.6667");
        assert_eq!(
            purity_and_coverage(&reference, &hypothesis),
            (purity(&reference, &hypothesis), coverage(&reference, &hypothesis))
        );
    }
}
