//! Clustering of window embeddings: average-linkage agglomerative clustering on cosine distance
//! with an automatic stopping threshold (or a fixed or bounded number of clusters), and a
//! deterministic spherical k-means for the naive baseline.
//!
//! Embeddings are first mean-centred (the recording's average voice is subtracted and each
//! vector re-normalised): GE2E vectors all live in the positive orthant, and centring spreads
//! them so that one cosine threshold works across recordings.

use super::embed::{cosine, normalized};

/// How many clusters to find.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpeakerCount {
    /// Exactly this many (overrides the bounds and the threshold).
    pub exact: Option<usize>,
    /// At least this many (≥ 1).
    pub min: usize,
    /// At most this many.
    pub max: usize,
}

impl Default for SpeakerCount {
    fn default() -> SpeakerCount {
        SpeakerCount { exact: None, min: 1, max: 20 }
    }
}

/// Subtracts the mean vector and re-normalises every vector.
pub fn centre(vectors: &[Vec<f32>]) -> Vec<Vec<f32>> {
    let mean = mean(vectors);
    centre_on(vectors, &mean)
}

/// The mean of `vectors` (empty when there is none). A vector with a value that is not finite
/// is left out (it would make the mean, and every vector centred on it, NaN); all zeros when
/// every vector is.
pub fn mean(vectors: &[Vec<f32>]) -> Vec<f32> {
    let Some(first) = vectors.first() else { return Vec::new() };
    let mut mean = vec![0.0f32; first.len()];
    let mut n = 0usize;
    for v in vectors.iter().filter(|v| finite(v)) {
        mean.iter_mut().zip(v).for_each(|(m, x)| *m += x);
        n += 1;
    }
    let n = n.max(1) as f32;
    mean.iter_mut().for_each(|m| *m /= n);
    mean
}

/// Whether every value of `v` is finite.
fn finite(v: &[f32]) -> bool {
    v.iter().all(|x| x.is_finite())
}

/// Subtracts `mean` (another set's, [`mean`]) and re-normalises every vector: vectors
/// embedded apart from a set, centred as the set was.
pub fn centre_on(vectors: &[Vec<f32>], mean: &[f32]) -> Vec<Vec<f32>> {
    vectors.iter().map(|v| normalized(v.iter().zip(mean).map(|(x, m)| x - m).collect())).collect()
}

/// Average-linkage agglomerative clustering on cosine distance (1 − cos).
///
/// Merges the closest pair until the closest distance exceeds `threshold`, then keeps merging
/// (or stops early) so that the number of clusters falls inside `count`. Returns one label per
/// vector, numbered by first appearance. The merge sequence is [`dendrogram`]'s, so the result
/// is deterministic. O(n²) memory: callers subsample long inputs.
pub fn ahc(vectors: &[Vec<f32>], threshold: f32, count: SpeakerCount) -> Vec<usize> {
    let n = vectors.len();
    if n == 0 {
        return Vec::new();
    }
    let (lo, hi) = match count.exact {
        Some(k) => (k.max(1), k.max(1)),
        None => (count.min.max(1), count.max.max(count.min.max(1))),
    };
    let merges = dendrogram(vectors);
    // Clusters left after m merges: n − m. Merge while the distance is within the threshold
    // or there are more clusters than allowed, and never below the minimum.
    let mut m = 0;
    while m < merges.len() {
        let clusters = n - m;
        if clusters <= lo || (clusters <= hi && merges[m].2 > threshold) {
            break;
        }
        m += 1;
    }
    cut(n, &merges[..m])
}

/// The labels after applying the first merges of a [`dendrogram`] to `n` singletons.
pub fn cut(n: usize, merges: &[(usize, usize, f32)]) -> Vec<usize> {
    // Merge i forms cluster n + i; each cluster points at the one it was merged into.
    let mut into: Vec<usize> = (0..n + merges.len()).collect();
    for (i, &(a, b, _)) in merges.iter().enumerate() {
        for c in [a, b] {
            if let Some(slot) = into.get_mut(c) {
                *slot = n + i;
            }
        }
    }
    let root = |mut c: usize| {
        while into[c] != c {
            c = into[c];
        }
        c
    };
    relabel(&(0..n).map(root).collect::<Vec<_>>())
}

/// The full average-linkage merge sequence, closest first (n − 1 merges): `(a, b, distance)`,
/// clusters numbered as in SciPy (the vectors are 0 … n − 1, merge i forms cluster n + i).
///
/// Computed by `kodama`'s generic algorithm (Müllner), which merges the closest pair at every
/// step as the textbook loop does, so the distances are the same floating-point values. A
/// distance that is not a number (a vector with infinite or NaN values) counts as 2, the
/// largest cosine distance.
pub fn dendrogram(vectors: &[Vec<f32>]) -> Vec<(usize, usize, f32)> {
    let n = vectors.len();
    let mut d = Vec::with_capacity(n * n.saturating_sub(1) / 2);
    for i in 0..n {
        for j in i + 1..n {
            let x = 1.0 - cosine(&vectors[i], &vectors[j]);
            d.push(if x.is_finite() { x } else { 2.0 });
        }
    }
    kodama::generic(&mut d, n, kodama::Method::Average)
        .steps()
        .iter()
        .map(|s| (s.cluster1, s.cluster2, s.dissimilarity))
        .collect()
}

/// Renumbers labels by first appearance (0, 1, 2, …).
pub fn relabel(labels: &[usize]) -> Vec<usize> {
    let mut map: Vec<(usize, usize)> = Vec::new();
    labels
        .iter()
        .map(|&l| match map.iter().find(|(from, _)| *from == l) {
            Some(&(_, to)) => to,
            None => {
                let to = map.len();
                map.push((l, to));
                to
            }
        })
        .collect()
}

/// The normalised mean of the vectors with each label (`k` centroids). Vectors with a value
/// that is not finite are left out, so one cannot make its speaker's centroid NaN.
pub fn centroids(vectors: &[Vec<f32>], labels: &[usize], k: usize) -> Vec<Vec<f32>> {
    let dim = vectors.first().map_or(0, |v| v.len());
    let mut c = vec![vec![0.0f32; dim]; k];
    for (v, &l) in vectors.iter().zip(labels) {
        if l < k && finite(v) {
            c[l].iter_mut().zip(v).for_each(|(a, x)| *a += x);
        }
    }
    c.into_iter().map(normalized).collect()
}

/// Absorbs clusters of fewer than `min_size` vectors into their nearest neighbour, the
/// smallest first (ties: the lowest label), until every cluster holds `min_size` or there are
/// `min_count` clusters left. The nearest neighbour is the cluster whose centroid is most
/// similar to the small cluster's (ties: the lowest label); centroids are recomputed after each
/// merge, so two small pieces of one voice can meet and pass together. `labels` (values below
/// `k`) are rewritten in place to `0..k'`: an absorbed cluster's windows take their
/// neighbour's label, and the labels above the absorbed one move down by one, so the
/// surviving clusters keep their order; returns `k'`.
pub fn absorb_small(
    vectors: &[Vec<f32>],
    labels: &mut [usize],
    k: usize,
    min_size: usize,
    min_count: usize,
) -> usize {
    let mut k = k;
    while k > min_count.max(1) {
        let mut sizes = vec![0usize; k];
        labels.iter().filter(|&&l| l < k).for_each(|&l| sizes[l] += 1);
        let Some(small) = (0..k).filter(|&c| sizes[c] < min_size).min_by_key(|&c| (sizes[c], c))
        else {
            break;
        };
        let cents = centroids(vectors, labels, k);
        let mut best = (f32::NEG_INFINITY, usize::MAX);
        for (c, cent) in cents.iter().enumerate().filter(|&(c, _)| c != small) {
            let s = cosine(&cents[small], cent);
            if s > best.0 || best.1 == usize::MAX {
                best = (s, c);
            }
        }
        let into = best.1;
        for l in labels.iter_mut() {
            if *l == small {
                *l = into;
            }
            if *l > small {
                *l -= 1;
            }
        }
        k -= 1;
    }
    k
}

/// The label of the most similar centroid.
pub fn nearest(v: &[f32], centroids: &[Vec<f32>]) -> usize {
    let mut best = (f32::NEG_INFINITY, 0);
    for (k, c) in centroids.iter().enumerate() {
        let s = cosine(v, c);
        if s > best.0 {
            best = (s, k);
        }
    }
    best.1
}

/// Spherical k-means with a deterministic farthest-point initialisation (first vector, then
/// repeatedly the vector least similar to every chosen centre); 50 iterations at most.
pub fn kmeans(vectors: &[Vec<f32>], k: usize) -> Vec<usize> {
    let n = vectors.len();
    if n == 0 || k == 0 {
        return vec![0; n];
    }
    let k = k.min(n);
    let mut centres = vec![vectors[0].clone()];
    while centres.len() < k {
        let mut best = (f32::INFINITY, 0);
        for (i, v) in vectors.iter().enumerate() {
            let s = centres.iter().map(|c| cosine(v, c)).fold(f32::NEG_INFINITY, f32::max);
            if s < best.0 {
                best = (s, i);
            }
        }
        centres.push(vectors[best.1].clone());
    }
    let mut labels = vec![0usize; n];
    for _ in 0..50 {
        let new: Vec<usize> = vectors.iter().map(|v| nearest(v, &centres)).collect();
        let done = new == labels;
        labels = new;
        let c = centroids(vectors, &labels, k);
        for (old, new) in centres.iter_mut().zip(c) {
            if new.iter().any(|x| *x != 0.0) {
                *old = new;
            }
        }
        if done {
            break;
        }
    }
    relabel(&labels)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pts() -> Vec<Vec<f32>> {
        vec![
            vec![1.0, 0.0, 0.0],
            vec![0.99, 0.1, 0.0],
            vec![0.0, 1.0, 0.0],
            vec![0.05, 0.98, 0.0],
            vec![0.0, 0.0, 1.0],
        ]
    }

    #[test]
    fn small_clusters_join_their_nearest_until_they_pass() {
        // Voice X cut in two pieces of 3 and 2 windows (labels 1 and 3), voice Y in one
        // cluster of 6 (label 0), and one stray window (label 2) nearest to Y.
        let x = [1.0f32, 0.0, 0.0];
        let x2 = [0.95f32, 0.3, 0.0];
        let y = [0.0f32, 1.0, 0.0];
        let stray = [0.1f32, 0.9, 0.4];
        let mut v = vec![y.to_vec(); 6];
        v.extend([x.to_vec(), x.to_vec(), x.to_vec(), stray.to_vec(), x2.to_vec(), x2.to_vec()]);
        let mut labels = vec![0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 3, 3];
        // Size 4: the stray window (1) goes to Y, then the piece of 2 joins the piece of 3.
        let k = absorb_small(&v, &mut labels, 4, 4, 1);
        assert_eq!(k, 2);
        assert_eq!(labels, vec![0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1]);
        // Size 6: X's five windows still fall short and join Y; the minimum count stops there.
        let mut labels = vec![0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 3, 3];
        assert_eq!(absorb_small(&v, &mut labels, 4, 6, 1), 1);
        assert_eq!(labels, vec![0; 12]);
        let mut labels = vec![0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 3, 3];
        assert_eq!(absorb_small(&v, &mut labels, 4, 6, 2), 2);
        assert_eq!(labels, vec![0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1]);
        // Nothing under the size: unchanged.
        let mut labels = vec![0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 3, 3];
        assert_eq!(absorb_small(&v, &mut labels, 4, 1, 1), 4);
        assert_eq!(labels, vec![0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 3, 3]);
    }

    #[test]
    fn ahc_threshold_and_counts() {
        let auto = ahc(&pts(), 0.5, SpeakerCount::default());
        assert_eq!(auto, vec![0, 0, 1, 1, 2]);
        let two = ahc(&pts(), 0.5, SpeakerCount { exact: Some(2), ..Default::default() });
        assert_eq!(two.iter().max(), Some(&1));
        assert_eq!(two[0], two[1]);
        let at_most_two = ahc(&pts(), 0.5, SpeakerCount { exact: None, min: 1, max: 2 });
        assert_eq!(at_most_two, two);
        let at_least_four = ahc(&pts(), 0.5, SpeakerCount { exact: None, min: 4, max: 9 });
        assert_eq!(at_least_four.iter().max(), Some(&3));
        assert!(ahc(&[], 0.5, SpeakerCount::default()).is_empty());
    }

    /// The textbook O(n³) average-linkage loop, as a reference for [`dendrogram`].
    fn naive_dendrogram(v: &[Vec<f32>]) -> Vec<(usize, usize, f32)> {
        let n = v.len();
        let mut d = vec![0.0f32; n * n];
        for i in 0..n {
            for j in 0..n {
                d[i * n + j] = 1.0 - cosine(&v[i], &v[j]);
            }
        }
        let mut size = vec![1usize; n];
        let mut alive = vec![true; n];
        let mut out = Vec::new();
        for _ in 1..n {
            let mut best = (f32::INFINITY, 0, 0);
            for i in 0..n {
                for j in i + 1..n {
                    if alive[i] && alive[j] && d[i * n + j] < best.0 {
                        best = (d[i * n + j], i, j);
                    }
                }
            }
            let (x, a, b) = best;
            for k in 0..n {
                if alive[k] && k != a && k != b {
                    let y = (d[a * n + k] * size[a] as f32 + d[b * n + k] * size[b] as f32)
                        / (size[a] + size[b]) as f32;
                    d[a * n + k] = y;
                    d[k * n + a] = y;
                }
            }
            size[a] += size[b];
            alive[b] = false;
            out.push((a, b, x));
        }
        out
    }

    #[test]
    fn dendrogram_matches_the_naive_loop() {
        let mut seed = 12345u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) as f32 / (1u64 << 31) as f32) - 0.5
        };
        for n in [1usize, 2, 7, 60] {
            // Three loose groups plus noise, in 8 dimensions; some exact duplicates for ties.
            let mut v: Vec<Vec<f32>> = (0..n)
                .map(|i| (0..8).map(|d| if d == i % 3 { 1.0 } else { 0.0 } + next()).collect())
                .collect();
            if n > 4 {
                v[4] = v[1].clone();
            }
            assert_eq!(previous::dendrogram(&v), naive_dendrogram(&v), "n = {n}");
        }
    }

    /// The previous hand-written implementation (nearest-neighbour rows, merged cluster kept
    /// at the lower index, ties to the lowest indices), as the reference for the `kodama` one.
    mod previous {
        use crate::diarize::cluster::{relabel, SpeakerCount};
        use crate::diarize::embed::cosine;

        /// The labels after applying the first merges of a [`dendrogram`] to `n` singletons.
        pub fn cut(n: usize, merges: &[(usize, usize, f32)]) -> Vec<usize> {
            let mut owner: Vec<usize> = (0..n).collect();
            for &(a, b, _) in merges {
                owner.iter_mut().for_each(|o| {
                    if *o == b {
                        *o = a;
                    }
                });
            }
            relabel(&owner)
        }

        /// The full average-linkage merge sequence: `(a, b, distance)` with `b` merged into `a`,
        /// closest first (n − 1 merges). Ties go to the lowest indices.
        ///
        /// Each cluster keeps its nearest neighbour; after a merge only the rows that pointed at the
        /// merged pair are rescanned, so the usual cost is far below the naive O(n³).
        pub fn dendrogram(vectors: &[Vec<f32>]) -> Vec<(usize, usize, f32)> {
            let n = vectors.len();
            let mut d = vec![0.0f32; n * n];
            for i in 0..n {
                for j in i + 1..n {
                    let x = 1.0 - cosine(&vectors[i], &vectors[j]);
                    d[i * n + j] = x;
                    d[j * n + i] = x;
                }
            }
            let mut size = vec![1usize; n];
            let mut alive = vec![true; n];
            // nn[i]: the nearest alive j > i (by distance, then index) and its distance.
            let scan = |d: &[f32], alive: &[bool], i: usize| -> (usize, f32) {
                let mut best = (usize::MAX, f32::INFINITY);
                for j in i + 1..n {
                    if alive[j] && d[i * n + j] < best.1 {
                        best = (j, d[i * n + j]);
                    }
                }
                best
            };
            let mut nn: Vec<(usize, f32)> = (0..n).map(|i| scan(&d, &alive, i)).collect();
            let mut merges = Vec::with_capacity(n.saturating_sub(1));
            for _ in 1..n {
                let mut best = (f32::INFINITY, usize::MAX, usize::MAX);
                for i in 0..n {
                    if alive[i] && nn[i].0 != usize::MAX && nn[i].1 < best.0 {
                        best = (nn[i].1, i, nn[i].0);
                    }
                }
                let (dist, a, b) = best;
                if a == usize::MAX {
                    break;
                }
                for k in 0..n {
                    if alive[k] && k != a && k != b {
                        let x = (d[a * n + k] * size[a] as f32 + d[b * n + k] * size[b] as f32)
                            / (size[a] + size[b]) as f32;
                        d[a * n + k] = x;
                        d[k * n + a] = x;
                    }
                }
                size[a] += size[b];
                alive[b] = false;
                merges.push((a, b, dist));
                // Rows whose nearest neighbour was a or b, and row a itself, are rescanned; a row
                // i < a may also find the updated a closer than its current neighbour.
                for i in 0..n {
                    if !alive[i] {
                        continue;
                    }
                    if i == a || nn[i].0 == a || nn[i].0 == b {
                        nn[i] = scan(&d, &alive, i);
                    } else if i < a {
                        let x = d[i * n + a];
                        if x < nn[i].1 || (x == nn[i].1 && a < nn[i].0) {
                            nn[i] = (a, x);
                        }
                    }
                }
            }
            merges
        }

        pub fn ahc(vectors: &[Vec<f32>], threshold: f32, count: SpeakerCount) -> Vec<usize> {
            let n = vectors.len();
            if n == 0 {
                return Vec::new();
            }
            let (lo, hi) = match count.exact {
                Some(k) => (k.max(1), k.max(1)),
                None => (count.min.max(1), count.max.max(count.min.max(1))),
            };
            let merges = dendrogram(vectors);
            let mut m = 0;
            while m < merges.len() {
                let clusters = n - m;
                if clusters <= lo || (clusters <= hi && merges[m].2 > threshold) {
                    break;
                }
                m += 1;
            }
            cut(n, &merges[..m])
        }
    }

    /// The `kodama` clustering gives the clusters of the previous implementation: on random
    /// embeddings (loose groups, some exact duplicates for ties at distance 0), for every
    /// threshold and speaker-count constraint the pipeline uses, and the same merge distances.
    #[test]
    fn kodama_gives_the_clusters_of_the_previous_implementation() {
        let mut seed = 987_654_321u64;
        let mut next = || {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((seed >> 33) as f32 / (1u64 << 31) as f32) - 0.5
        };
        let counts = [
            SpeakerCount::default(),
            SpeakerCount { exact: Some(2), ..SpeakerCount::default() },
            SpeakerCount { exact: Some(5), ..SpeakerCount::default() },
            SpeakerCount { exact: None, min: 3, max: 4 },
        ];
        for trial in 0..200 {
            let n = 1 + trial % 97;
            let groups = 1 + trial % 6;
            let spread = 0.2 + 0.8 * (trial % 5) as f32;
            let mut v: Vec<Vec<f32>> = (0..n)
                .map(|i| {
                    (0..16)
                        .map(|d| if d == i % groups { 1.0 } else { 0.0 } + spread * next())
                        .collect()
                })
                .collect();
            if trial % 3 == 0 && n > 6 {
                v[5] = v[2].clone();
                v[n - 1] = v[0].clone();
            }
            let v = centre(&v);
            let new = dendrogram(&v);
            let old = previous::dendrogram(&v);
            let dist = |m: &[(usize, usize, f32)]| m.iter().map(|x| x.2).collect::<Vec<_>>();
            assert_eq!(dist(&new), dist(&old), "trial {trial}: merge distances");
            for m in (0..new.len()).step_by(1 + n / 16) {
                assert_eq!(cut(n, &new[..m]), previous::cut(n, &old[..m]), "trial {trial}, {m}");
            }
            for threshold in [0.3, 0.6, 0.9, 1.2] {
                for c in counts {
                    assert_eq!(
                        ahc(&v, threshold, c),
                        previous::ahc(&v, threshold, c),
                        "trial {trial}, threshold {threshold}, {c:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn vectors_that_are_not_finite_are_left_out_of_means_and_centroids() {
        let v = vec![vec![1.0, 0.0], vec![f32::NAN, 1.0], vec![3.0, 0.0], vec![0.0, f32::INFINITY]];
        assert_eq!(mean(&v), vec![2.0, 0.0]);
        assert_eq!(centroids(&v, &[0, 0, 1, 1], 2), vec![vec![1.0, 0.0], vec![1.0, 0.0]]);
        assert_eq!(mean(&v[1..2]), vec![0.0, 0.0]);
    }

    #[test]
    fn kmeans_separates() {
        assert_eq!(kmeans(&pts(), 3), vec![0, 0, 1, 1, 2]);
        assert_eq!(relabel(&[5, 5, 2, 7, 2]), vec![0, 0, 1, 2, 1]);
    }
}
