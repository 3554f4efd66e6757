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
        let best = lowest_pair(own.len(), |a, b| {
            let mean = 0.5 * (spread[a] + spread[b]);
            (mean > 0.0).then(|| (1.0 - cosine(&own[a], &own[b])) / mean)
        });
        let Some((_, a, b)) = best.filter(|x| x.0 < ratio) else {
            return own;
        };
        let (labels, _, _) = assign(windows, &own);
        cents = merge_pair(windows, &labels, own, a, b);
    }
    cents
}

/// The pair `a < b` of `k` clusters with the lowest `score` (the first such pair on a tie);
/// pairs scored `None` are passed over.
fn lowest_pair<T: PartialOrd + Copy>(
    k: usize,
    mut score: impl FnMut(usize, usize) -> Option<T>,
) -> Option<(T, usize, usize)> {
    let mut best: Option<(T, usize, usize)> = None;
    for a in 0..k {
        for b in a + 1..k {
            if let Some(s) = score(a, b) {
                if best.is_none_or(|x| s < x.0) {
                    best = Some((s, a, b));
                }
            }
        }
    }
    best
}

/// `cents` with cluster `b` merged into `a` (`a < b`): `a`'s centroid becomes the normalised
/// mean of the windows labelled `a` or `b`, and `b`'s is removed.
fn merge_pair(
    windows: &[Vec<f32>],
    labels: &[usize],
    cents: Vec<Vec<f32>>,
    a: usize,
    b: usize,
) -> Vec<Vec<f32>> {
    let merged: Vec<usize> = labels.iter().map(|&l| usize::from(l == a || l == b)).collect();
    let union = centroids(windows, &merged, 2).swap_remove(1);
    cents
        .into_iter()
        .enumerate()
        .filter(|&(i, _)| i != b)
        .map(|(i, c)| if i == a { union.clone() } else { c })
        .collect()
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
/// not move with the number of windows. `None` when either cluster has no window, when the
/// own similarities do not vary, or when `z` is not finite (an embedding that is not).
pub fn preference(raw: &[Vec<f32>], labels: &[usize], a: usize, b: usize) -> Option<f64> {
    let own = centroids(raw, labels, a.max(b) + 1);
    preference_of(&similarities(raw, &own), labels, a, b)
}

/// Each window's cosine to each centroid, in `f64` for the sums of [`preference_of`].
fn similarities(windows: &[Vec<f32>], cents: &[Vec<f32>]) -> Vec<Vec<f64>> {
    windows.iter().map(|w| cents.iter().map(|c| f64::from(cosine(w, c))).collect()).collect()
}

/// [`preference`] from each window's similarity to each cluster's centroid (`sims[w][c]`), so
/// that the pairs of one round share the cosines: one pass over the windows per pair instead
/// of one pass over the windows and their dimensions.
fn preference_of(sims: &[Vec<f64>], labels: &[usize], a: usize, b: usize) -> Option<f64> {
    let (mut margin, mut sum, mut sq, mut n, mut na) = (0f64, 0f64, 0f64, 0usize, 0usize);
    for (s, &l) in sims.iter().zip(labels) {
        let other = match l {
            l if l == a => b,
            l if l == b => a,
            _ => continue,
        };
        let (c, c_other) = (*s.get(l)?, *s.get(other)?);
        margin += c - c_other;
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
    let z = (margin / n) / sd;
    (sd > 0.0 && z.is_finite()).then_some(z)
}

/// Merges the two clusters whose windows least prefer their own voice ([`preference`]) while
/// that preference is under `max_z` standard deviations; never below `min` clusters. `centred`
/// are the clustering's (centred) windows, which `cents` represent and which decide each
/// window's cluster (nearest centroid, ties to the lower index); `raw` the same windows as the
/// encoder gave them, on which the preference is measured. Returns the new centroids (each the
/// normalised mean of its centred windows). A pair without a preference (an empty cluster,
/// a non-finite embedding) is never merged, and does not stop the others.
///
/// Why the encoder's own embeddings: centring removes what all windows share, which in a
/// recording of few voices is much of each voice, and leaves the variation within a voice that
/// the clustering may cut; the preference is measured where a voice is whole.
///
/// Cost: each round one cosine per window and cluster, then one pass over the windows per
/// pair; at most `cents.len() − min` rounds.
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
        let sims = similarities(raw, &centroids(raw, &labels, cents.len()));
        let best = lowest_pair(cents.len(), |a, b| preference_of(&sims, &labels, a, b));
        let Some((_, a, b)) = best.filter(|x| x.0 < f64::from(max_z)) else {
            break;
        };
        cents = merge_pair(centred, &labels, cents, a, b);
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
        let zs: Vec<String> = [100, 500, 2000]
            .into_iter()
            .map(|n| {
                let mut w = voice(0, n, 21);
                w.extend(voice(1, n, 22));
                let l: Vec<usize> = (0..2 * n).map(|i| usize::from(i >= n)).collect();
                z(&w, &l, 0, 1)
            })
            .collect();
        // Within 3 % of each other from 100 to 2000 windows per voice.
        assert_eq!(zs, ["5.3566", "5.5132", "5.5155"]);
    }

    #[test]
    fn identical_windows_and_empty_clusters_give_no_preference() {
        // Every window the same: the own similarities do not vary.
        let same = vec![normalized(vec![1.0, 0.5, 0.0, 0.0]); 6];
        assert_eq!(preference(&same, &[0, 0, 0, 1, 1, 1], 0, 1), None);
        // A centroid that no window is nearest to (listed first): no preference for its
        // pairs, and the two pieces of voice 0 are still merged.
        let (w, l) = two_voices_one_cut();
        let mut far = vec![0.0f32; 16];
        far[10] = -1.0;
        let mut cents = vec![far];
        cents.extend(centroids(&w, &l, 3));
        let labels: Vec<usize> = w.iter().map(|x| nearest(x, &cents)).collect();
        assert!(!labels.contains(&0));
        assert_eq!(preference(&w, &labels, 0, 1), None);
        assert_eq!(z(&w, &labels, 1, 2), "0.8996");
        assert_eq!(merge_same_voice(&w, &w, cents, 1.5, 1).len(), 3);
    }

    #[test]
    fn two_single_windows_have_no_preference() {
        // Each window is its own centroid: the own similarities are all 1 and do not vary.
        let w = vec![normalized(vec![1.0, 0.1, 0.0]), normalized(vec![0.1, 1.0, 0.0])];
        assert_eq!(preference(&w, &[0, 1], 0, 1), None);
        // Two windows and one: they vary, but little, and the two are far apart.
        let w3 = vec![w[0].clone(), normalized(vec![1.0, 0.3, 0.0]), w[1].clone()];
        assert_eq!(z(&w3, &[0, 0, 1], 0, 1), "326.3832");
    }
}
