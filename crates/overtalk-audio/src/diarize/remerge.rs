//! A speaker-count check that does not depend on the recording's length: after the clustering,
//! two speakers whose centroids are closer than their windows are to their own centroids are
//! one speaker split in two, and are merged.
//!
//! Why: the clustering stops at a fixed distance on a subsample of at most
//! `max_cluster_windows` windows, and its result for one voice that spreads near that distance
//! (far-field or telephone speech) flips between one and two clusters with the sample. Six
//! copies of one two-person call (57 min) gave four speakers where one copy gave two: the
//! sample changes with the length (every 2nd window of one copy, every 8th of six), the
//! embeddings do not. The ratio below compares two quantities that are both means over
//! windows, so it does not move with the number of windows.
//!
//! ```text
//! speaker a's windows     · · ·(c_a)· ·          spread_a = mean (1 − cos(x, c_a))
//! speaker b's windows          · ·(c_b)· · ·     spread_b likewise
//!                              ├──────┤ between = 1 − cos(c_a, c_b)
//! merge the closest pair while between < ratio × (spread_a + spread_b) / 2
//! ```
//!
//! The means need enough windows to be stable: with about ten windows per speaker two halves of
//! one voice still look apart (their centroids carry the windows' noise); the clustering sample
//! holds hundreds to 2000.
//!
//! Windows are assigned to the nearest centroid (ties to the lower index), so the result is
//! deterministic.

use super::cluster::{centroids, nearest};
use super::embed::cosine;

/// Each window's nearest centroid, the clusters' centroids and their spreads (mean cosine
/// distance of the members to their centroid; 0 for an empty cluster).
fn assign(windows: &[Vec<f32>], cents: &[Vec<f32>]) -> (Vec<usize>, Vec<Vec<f32>>, Vec<f32>) {
    let labels: Vec<usize> = windows.iter().map(|w| nearest(w, cents)).collect();
    let mut own = centroids(windows, &labels, cents.len());
    for (c, old) in own.iter_mut().zip(cents) {
        if c.iter().all(|v| *v == 0.0) {
            c.clone_from(old);
        }
    }
    let mut sum = vec![0.0f64; cents.len()];
    let mut n = vec![0usize; cents.len()];
    for (w, &l) in windows.iter().zip(&labels) {
        sum[l] += f64::from(1.0 - cosine(w, &own[l]));
        n[l] += 1;
    }
    let spread =
        sum.iter().zip(&n).map(|(s, &k)| if k > 0 { (s / k as f64) as f32 } else { 0.0 }).collect();
    (labels, own, spread)
}

/// Merges clusters of `windows` (represented by `cents`) while the closest pair, measured as
/// `between / mean spread`, is under `ratio`; never below `min` clusters. Returns the new
/// centroids (each the normalised mean of its windows).
pub fn merge_close(
    windows: &[Vec<f32>],
    cents: Vec<Vec<f32>>,
    ratio: f32,
    min: usize,
) -> Vec<Vec<f32>> {
    let mut cents = cents;
    while cents.len() > min.max(1) {
        let (_, own, spread) = assign(windows, &cents);
        let mut best: Option<(f32, usize, usize)> = None;
        for a in 0..own.len() {
            for b in a + 1..own.len() {
                let mean = 0.5 * (spread[a] + spread[b]);
                if mean <= 0.0 {
                    continue;
                }
                let r = (1.0 - cosine(&own[a], &own[b])) / mean;
                if best.is_none_or(|x| r < x.0) {
                    best = Some((r, a, b));
                }
            }
        }
        let Some((_, a, b)) = best.filter(|x| x.0 < ratio) else {
            return own;
        };
        // b's windows join a: recompute a's centroid from the union.
        let (labels, _, _) = assign(windows, &own);
        let merged: Vec<usize> = labels.iter().map(|&l| usize::from(l == a || l == b)).collect();
        let union = centroids(windows, &merged, 2).swap_remove(1);
        cents = own
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| i != b)
            .map(|(i, c)| if i == a { union.clone() } else { c })
            .collect();
    }
    cents
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diarize::embed::normalized;

    /// `n` unit vectors in 16 dimensions: axis `axis` plus deterministic noise of about the
    /// same norm in every dimension (a voice's windows: one direction, wide spread).
    fn voice(axis: usize, n: usize, seed: u64) -> Vec<Vec<f32>> {
        let mut s = seed;
        let mut rnd = || {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((s >> 33) as f32 / (1u64 << 31) as f32) - 0.5
        };
        (0..n)
            .map(|_| {
                let mut v: Vec<f32> = (0..16).map(|_| rnd()).collect();
                v[axis] += 1.0;
                normalized(v)
            })
            .collect()
    }

    /// Centroids of the even and the odd windows: one voice cut in two.
    fn halves(w: &[Vec<f32>]) -> Vec<Vec<f32>> {
        let l: Vec<usize> = (0..w.len()).map(|i| i % 2).collect();
        centroids(w, &l, 2)
    }

    #[test]
    fn a_voice_split_in_two_is_merged_and_two_voices_are_not() {
        let w = voice(0, 200, 1);
        assert_eq!(merge_close(&w, halves(&w), 1.0, 1).len(), 1);
        // Two voices on different axes stay two.
        let mut two = voice(0, 100, 2);
        two.extend(voice(1, 100, 3));
        let l: Vec<usize> = (0..200).map(|i| usize::from(i >= 100)).collect();
        assert_eq!(merge_close(&two, centroids(&two, &l, 2), 1.0, 1).len(), 2);
        // The minimum count is kept.
        assert_eq!(merge_close(&w, halves(&w), 1.0, 2).len(), 2);
    }

    #[test]
    fn the_decision_does_not_depend_on_how_many_windows_there_are() {
        for n in [100, 500, 2000] {
            let w = voice(0, n, 7);
            assert_eq!(merge_close(&w, halves(&w), 1.0, 1).len(), 1, "{n}");
            let mut two = voice(0, n, 8);
            two.extend(voice(1, n, 9));
            let l: Vec<usize> = (0..2 * n).map(|i| usize::from(i >= n)).collect();
            assert_eq!(merge_close(&two, centroids(&two, &l, 2), 1.0, 1).len(), 2, "{n}");
        }
    }
}
