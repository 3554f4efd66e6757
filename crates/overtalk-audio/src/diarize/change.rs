//! Speaker change points over the speech-frame sequence, from the window embeddings the
//! pipeline already has (no extra network pass).
//!
//! At every point `p` where one window ends and another starts, the evidence for a change is
//! the cosine distance (1 − cos, on the centred embeddings) between the window that ends at `p`
//! and the window that starts at `p`. With 1.6 s windows every 0.2 s these are windows `i` and
//! `i + 8`: they share no frame, so inside one speaker's turn they are two samples of the same
//! voice, and at a turn change they are two voices (below: windows of 4 frames).
//!
//! ```text
//! frames          A A A A A A A A A A A A B B B B B B B B
//! p inside A          [------)[------)                       small
//! p before change             [------)[------)               medium
//! p at the change                 [------)[------)           large
//! change point                            ^
//! ```
//!
//! The distance rises linearly over the window length on either side of a true change, so the
//! curve is smoothed (weights 1, 2, 1) and its local maxima above a threshold, at least
//! `min_spacing` frames apart (the higher one wins), are the change points. Everything is a
//! deterministic function of the embeddings; ties go to the earlier point.

use super::embed::cosine;

/// Options of the change-point detector and of its use in the resegmentation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChangeOptions {
    /// A smoothed distance (1 − cosine of centred window embeddings) at least this high can be
    /// a change point.
    pub threshold: f32,
    /// Two change points are at least this many 10 ms speech frames apart.
    pub min_spacing: usize,
    /// The Viterbi switch cost within `tolerance` frames of a change point (elsewhere the
    /// usual [`DiarizeOptions::switch_cost`](super::DiarizeOptions::switch_cost)).
    pub switch_cost: f32,
    /// How far (10 ms frames) on either side of a change point the low switch cost applies: the
    /// point is only known to the window step.
    pub tolerance: usize,
    /// How far each frame's scores are pulled towards the mean of its segment (between change
    /// points), 0 to 1 ([`pull_to_segments`](super::reseg::pull_to_segments)). 0: not at all.
    pub segment_weight: f32,
    /// Where a window that crosses no change point covers a frame, the windows that cross one
    /// count this much (0 to 1) in the frame's score
    /// ([`frame_scores_within`](super::reseg::frame_scores_within)).
    pub cross_weight: f32,
}

impl Default for ChangeOptions {
    fn default() -> ChangeOptions {
        ChangeOptions {
            threshold: 1.0,
            min_spacing: 100,
            switch_cost: 1.0,
            tolerance: 10,
            segment_weight: 0.0,
            cross_weight: 0.5,
        }
    }
}

/// The change-evidence curve: `(p, d)` for every frame position `p` where a window ends and
/// another one starts, `d` being the cosine distance between the two (sorted by `p`).
///
/// `windows[w] = (first, len)` over the speech-frame sequence, in order of `first`;
/// `emb[w]` is window `w`'s embedding.
///
/// ```text
/// windows  0:[0,4)  1:[2,6)  2:[4,8)  3:[6,10)
/// points   p=4: d(0,2)   p=6: d(1,3)
/// ```
pub fn curve(windows: &[(usize, usize)], emb: &[Vec<f32>]) -> Vec<(usize, f32)> {
    let mut out = Vec::new();
    let mut right = 0;
    for (i, &(first, len)) in windows.iter().enumerate() {
        let p = first + len;
        // Windows are sorted by start: the first one starting at or after `p`.
        while right < windows.len() && windows[right].0 < p {
            right += 1;
        }
        if right < windows.len() && windows[right].0 == p {
            if let (Some(a), Some(b)) = (emb.get(i), emb.get(right)) {
                out.push((p, 1.0 - cosine(a, b)));
            }
        }
    }
    out
}

/// The curve smoothed with weights 1, 2, 1 over consecutive points (renormalised at the ends).
///
/// ```text
/// in   0  0  4  0  0
/// out  0  1  2  1  0
/// ```
pub fn smooth(curve: &[(usize, f32)]) -> Vec<(usize, f32)> {
    (0..curve.len())
        .map(|i| {
            let mut s = 2.0 * curve[i].1;
            let mut w = 2.0;
            if i > 0 {
                s += curve[i - 1].1;
                w += 1.0;
            }
            if let Some(n) = curve.get(i + 1) {
                s += n.1;
                w += 1.0;
            }
            (curve[i].0, s / w)
        })
        .collect()
}

/// Positions of the peaks of `curve`: points at least `threshold` high, taken from the highest
/// down (ties: the earlier one), each at least `min_spacing` frames from every point already
/// taken. Sorted.
///
/// ```text
/// d      .2 .3 .9 .4 .2 .8 .7 .1 .6        threshold .5, spacing 3 points
/// taken        ^        ^        ^         (.7 is within the spacing of .8)
/// ```
pub fn peaks(curve: &[(usize, f32)], threshold: f32, min_spacing: usize) -> Vec<usize> {
    let mut cand: Vec<(usize, f32)> =
        curve.iter().copied().filter(|&(_, d)| d >= threshold && d.is_finite()).collect();
    // Highest first; equal heights: the earlier point first.
    cand.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    // Only the nearest taken point on each side can be too close: O(n log n) in all.
    let mut taken = std::collections::BTreeSet::new();
    for (p, _) in cand {
        let before = taken.range(..=p).next_back().is_some_and(|&q: &usize| p - q < min_spacing);
        let after = taken.range(p..).next().is_some_and(|&q: &usize| q - p < min_spacing);
        if !before && !after {
            taken.insert(p);
        }
    }
    taken.into_iter().collect()
}

/// The change points (frame positions in the speech-frame sequence, sorted) of windows
/// `(first, len)` with embeddings `emb`: [`peaks`] of the [`smooth`]ed [`curve`].
pub fn change_points(
    windows: &[(usize, usize)],
    emb: &[Vec<f32>],
    o: &ChangeOptions,
) -> Vec<usize> {
    peaks(&smooth(&curve(windows, emb)), o.threshold, o.min_spacing)
}

/// Whether the window `[first, first + len)` crosses a change point (one strictly inside it).
/// `changes` is sorted.
///
/// ```text
/// change          |
/// [----)          no (ends at the change)
///      [----)     no (starts at it)
///    [----)       yes
/// ```
pub fn crosses(changes: &[usize], first: usize, len: usize) -> bool {
    let i = changes.partition_point(|&c| c <= first);
    changes.get(i).is_some_and(|&c| c < first + len)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Windows of `len` frames every `step` over the frames of `speakers` (frame → speaker),
    /// each embedded as the share of its frames that each speaker holds.
    fn setup(speakers: &[usize], len: usize, step: usize) -> (Vec<(usize, usize)>, Vec<Vec<f32>>) {
        let k = speakers.iter().max().map_or(0, |m| m + 1);
        let mut windows = Vec::new();
        let mut emb = Vec::new();
        let mut first = 0;
        while first + len <= speakers.len() {
            let mut count = vec![0usize; k];
            speakers[first..first + len].iter().for_each(|&s| count[s] += 1);
            emb.push(count.iter().map(|&c| c as f32 / len as f32).collect());
            windows.push((first, len));
            first += step;
        }
        (windows, emb)
    }

    #[test]
    fn curve_pairs_the_window_ending_at_a_point_with_the_one_starting_there() {
        // windows 0:[0,4) 1:[2,6) 2:[4,8) 3:[6,10)
        let windows = [(0, 4), (2, 4), (4, 4), (6, 4)];
        let emb = vec![vec![1.0, 0.0], vec![1.0, 0.0], vec![0.0, 1.0], vec![1.0, 1.0]];
        let c = curve(&windows, &emb);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0], (4, 1.0));
        assert_eq!(c[1].0, 6);
        assert!((c[1].1 - (1.0 - 0.5f32.sqrt())).abs() < 1e-6);
        // A window that does not end on another's start gives no point.
        assert!(curve(&[(0, 4), (3, 4)], &emb[..2]).is_empty());
    }

    #[test]
    fn smoothing_spreads_a_spike() {
        let c = [(0, 0.0), (1, 0.0), (2, 4.0), (3, 0.0), (4, 0.0)];
        assert_eq!(smooth(&c), vec![(0, 0.0), (1, 1.0), (2, 2.0), (3, 1.0), (4, 0.0)]);
        // Ends are renormalised: 2·3 + 0 over 3.
        assert_eq!(smooth(&[(0, 3.0), (1, 0.0)]), vec![(0, 2.0), (1, 1.0)]);
        assert!(smooth(&[]).is_empty());
    }

    #[test]
    fn peaks_are_the_highest_points_apart() {
        let d = [0.2, 0.3, 0.9, 0.4, 0.2, 0.8, 0.7, 0.1, 0.6];
        let c: Vec<(usize, f32)> = d.iter().enumerate().map(|(i, &x)| (10 * i, x)).collect();
        assert_eq!(peaks(&c, 0.5, 30), vec![20, 50, 80]);
        // Closer spacing lets the 0.7 beside the 0.8 in; a higher threshold keeps only 0.9.
        assert_eq!(peaks(&c, 0.5, 10), vec![20, 50, 60, 80]);
        assert_eq!(peaks(&c, 0.85, 30), vec![20]);
        // Equal heights: the earlier one wins.
        assert_eq!(peaks(&[(0, 1.0), (10, 1.0)], 0.5, 20), vec![0]);
        assert_eq!(peaks(&[(0, f32::NAN)], 0.5, 20), Vec::<usize>::new());
    }

    /// The nearest-neighbour check agrees with comparing every pair, on pseudo-random curves
    /// with many ties and spacings from 0 to 40 frames.
    #[test]
    fn peaks_match_the_all_pairs_rule() {
        let all_pairs = |curve: &[(usize, f32)], threshold: f32, spacing: usize| {
            let mut cand: Vec<(usize, f32)> =
                curve.iter().copied().filter(|&(_, d)| d >= threshold).collect();
            cand.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            let mut taken: Vec<usize> = Vec::new();
            for (p, _) in cand {
                if taken.iter().all(|&q| p.abs_diff(q) >= spacing) {
                    taken.push(p);
                }
            }
            taken.sort_unstable();
            taken
        };
        let mut state = 7u32;
        for round in 0..200 {
            let curve: Vec<(usize, f32)> = (0..60)
                .map(|i| {
                    state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    (5 * i, (state >> 28) as f32 / 8.0)
                })
                .collect();
            let spacing = round % 41;
            assert_eq!(peaks(&curve, 0.5, spacing), all_pairs(&curve, 0.5, spacing), "{round}");
        }
    }

    /// Three turns on 40 frames, windows of 8 frames every 2: the changes are found at the
    /// exact frames.
    ///
    /// ```text
    /// frame    0         10        20        30     39
    /// speaker  AAAAAAAAAAAAAAAABBBBBBBBBBBBAAAAAAAAAAAA
    ///                          ^16         ^28
    /// ```
    #[test]
    fn turns_give_their_change_points() {
        let speakers: Vec<usize> = (0..40).map(|f| usize::from((16..28).contains(&f))).collect();
        let (windows, emb) = setup(&speakers, 8, 2);
        let o = ChangeOptions { threshold: 0.6, min_spacing: 6, ..ChangeOptions::default() };
        assert_eq!(change_points(&windows, &emb, &o), vec![16, 28]);
        // One speaker throughout: no change.
        let (windows, emb) = setup(&[0; 40], 8, 2);
        assert_eq!(change_points(&windows, &emb, &o), Vec::<usize>::new());
        // Too few windows for any pair.
        assert_eq!(change_points(&[(0, 8)], &emb[..1], &o), Vec::<usize>::new());
    }

    #[test]
    fn a_window_crosses_a_change_strictly_inside_it() {
        let changes = [10, 30];
        assert!(!crosses(&changes, 2, 8));
        assert!(!crosses(&changes, 10, 8));
        assert!(crosses(&changes, 5, 8));
        assert!(crosses(&changes, 25, 8));
        assert!(!crosses(&changes, 31, 8));
        assert!(!crosses(&[], 0, 100));
    }
}
