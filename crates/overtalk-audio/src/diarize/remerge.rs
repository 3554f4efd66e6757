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
//!
//! A second test, [`merge_same_voice`], asks the windows themselves, on the encoder's own
//! (uncentred) embeddings: two clusters whose windows prefer their own centroid over the
//! other's by less than `max_z` standard deviations of their similarity to their own are one
//! voice. The ratio above divides by the spread, so a voice whose windows lie tight around
//! it (band-limited audio) could be cut in two pieces that it kept apart: the gecko call from
//! 8 kHz with the band-limited detector gave three speakers, two of them one voice, their
//! windows preferring their own piece by 1.06 standard deviations where the call's two voices
//! prefer theirs by 2.02.

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

/// How much the windows of two clusters prefer their own voice, in standard deviations: over
/// the windows `w` of `a` and `b` (on the encoder's own, uncentred embeddings; `c_own`,
/// `c_other` the normalised means of the two clusters' windows),
///
/// ```text
/// z = mean(cos(w, c_own) − cos(w, c_other)) / sd(cos(w, c_own))
/// ```
///
/// When the other centroid lies within the spread of a cluster's own similarities (`z`
/// small), the windows cannot tell the two apart: one voice cut in two. Two voices keep their
/// windows clearly nearer their own centroid. Both terms are means over windows, so `z` does
/// not move with the number of windows. `None` when either cluster has no window or the own
/// similarities do not vary.
pub fn preference(raw: &[Vec<f32>], labels: &[usize], a: usize, b: usize) -> Option<f64> {
    let k = a.max(b) + 1;
    let own = centroids(raw, labels, k);
    let (mut margin, mut sum, mut sq, mut n, mut na) = (0f64, 0f64, 0f64, 0usize, 0usize);
    for (w, &l) in raw.iter().zip(labels) {
        let other = match l {
            l if l == a => b,
            l if l == b => a,
            _ => continue,
        };
        let c = f64::from(cosine(w, &own[l]));
        margin += c - f64::from(cosine(w, &own[other]));
        sum += c;
        sq += c * c;
        n += 1;
        na += usize::from(l == a);
    }
    if na == 0 || na == n {
        return None;
    }
    let n = n as f64;
    let sd = (sq / n - (sum / n).powi(2)).max(0.0).sqrt();
    (sd > 0.0).then(|| (margin / n) / sd)
}

/// Merges the two clusters whose windows least prefer their own voice ([`preference`]) while
/// that preference is under `max_z` standard deviations; never below `min` clusters. `centred`
/// are the clustering's (centred) windows, which `cents` represent and which decide each
/// window's cluster (nearest centroid, ties to the lower index); `raw` the same windows as the
/// encoder gave them, on which the preference is measured. Returns the new centroids (each the
/// normalised mean of its centred windows).
///
/// Why the encoder's own embeddings: centring removes what all windows share, which in a
/// recording of few voices is much of each voice, and leaves the variation within a voice that
/// the clustering may cut; the preference is measured where a voice is whole.
pub fn merge_same_voice(
    centred: &[Vec<f32>],
    raw: &[Vec<f32>],
    cents: Vec<Vec<f32>>,
    max_z: f32,
    min: usize,
) -> Vec<Vec<f32>> {
    let mut cents = cents;
    while cents.len() > min.max(1) {
        let labels: Vec<usize> = centred.iter().map(|w| nearest(w, &cents)).collect();
        let mut best: Option<(f64, usize, usize)> = None;
        for a in 0..cents.len() {
            for b in a + 1..cents.len() {
                if let Some(z) = preference(raw, &labels, a, b) {
                    if best.is_none_or(|x| z < x.0) {
                        best = Some((z, a, b));
                    }
                }
            }
        }
        let Some((_, a, b)) = best.filter(|x| x.0 < f64::from(max_z)) else {
            break;
        };
        let merged: Vec<usize> = labels.iter().map(|&l| usize::from(l == a || l == b)).collect();
        let union = centroids(centred, &merged, 2).swap_remove(1);
        cents = cents
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

    /// Two voices (axes 0 and 1, 200 windows each) with the first cut in two along one of its
    /// own directions of variation (the sign of dimension 5): three clusters.
    fn two_voices_one_cut() -> (Vec<Vec<f32>>, Vec<usize>) {
        let mut w = voice(0, 200, 11);
        w.extend(voice(1, 200, 12));
        let labels = w
            .iter()
            .enumerate()
            .map(|(i, v)| if i >= 200 { 2 } else { usize::from(v[5] > 0.0) })
            .collect();
        (w, labels)
    }

    fn z(raw: &[Vec<f32>], labels: &[usize], a: usize, b: usize) -> String {
        format!("{:.4}", preference(raw, labels, a, b).unwrap())
    }

    #[test]
    fn the_pieces_of_one_voice_prefer_their_own_less_than_two_voices_do() {
        let (w, l) = two_voices_one_cut();
        // Even and odd windows of one voice: next to no preference at all.
        let one = voice(0, 200, 13);
        let halves: Vec<usize> = (0..200).map(|i| i % 2).collect();
        // The two pieces of voice 0 under the bar of 1.5; either piece against voice 1 far above.
        assert_eq!(
            [z(&w, &l, 0, 1), z(&w, &l, 0, 2), z(&w, &l, 1, 2), z(&one, &halves, 0, 1)],
            ["0.8682", "5.7706", "5.6309", "0.0672"]
        );
        // An empty cluster has no preference.
        assert_eq!(preference(&one, &[0; 200], 0, 1), None);
    }

    #[test]
    fn a_voice_cut_in_two_is_merged_and_the_other_voice_kept() {
        let (w, l) = two_voices_one_cut();
        let cents = centroids(&w, &l, 3);
        let merged = merge_same_voice(&w, &w, cents.clone(), 1.5, 1);
        assert_eq!(merged.len(), 2);
        let labels: Vec<usize> = w.iter().map(|x| nearest(x, &merged)).collect();
        assert_eq!(labels[..200].iter().filter(|&&x| x == 0).count(), 200);
        assert_eq!(labels[200..].iter().filter(|&&x| x == 1).count(), 200);
        // Under a bar below the pieces' preference nothing merges; the minimum count holds.
        assert_eq!(merge_same_voice(&w, &w, cents.clone(), 0.1, 1).len(), 3);
        assert_eq!(merge_same_voice(&w, &w, cents, 1.5, 3).len(), 3);
    }

    #[test]
    fn the_preference_does_not_depend_on_how_many_windows_there_are() {
        for n in [100, 500, 2000] {
            let mut w = voice(0, n, 21);
            w.extend(voice(1, n, 22));
            let l: Vec<usize> = (0..2 * n).map(|i| usize::from(i >= n)).collect();
            let z = preference(&w, &l, 0, 1).unwrap();
            assert!(z > 2.0, "{n}: {z}");
        }
    }
}
