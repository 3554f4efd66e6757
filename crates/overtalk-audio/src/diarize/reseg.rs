//! Frame-level resegmentation: every 10 ms speech frame gets one speaker, chosen by a Viterbi
//! pass over per-frame speaker scores with a fixed cost for switching speakers.
//!
//! A frame's score for speaker `k` is the centre-weighted average, over the embedding windows
//! that cover it, of the similarity between the window's embedding and speaker `k`'s centroid.
//! A window straddling a turn change is similar to both speakers; the windows that lie wholly
//! on either side are not, so the change lands where the evidence flips. The switch cost keeps
//! a short dip from becoming a one-frame turn.
//!
//! ```text
//! windows   [-----A-----]
//!                [-----A/B-----]
//!                      [-----B-----]
//! frames    A A A A A A A|B B B B B B B      (Viterbi, switch cost paid once)
//! ```

use super::change;

/// Per-frame scores: `scores[f][k]`.
pub type Scores = Vec<Vec<f32>>;

/// Centre-weighted average similarity of each frame to each centroid.
///
/// `windows[w] = (first, len)` are positions in the frame sequence; `sims[w][k]` is window
/// `w`'s similarity to centroid `k`; `frames` is the sequence length. Frames covered by no
/// window get the scores of the nearest covered frame before them (or zero).
pub fn frame_scores(
    windows: &[(usize, usize)],
    sims: &[Vec<f32>],
    frames: usize,
    k: usize,
) -> Scores {
    let (mut acc, wsum) = accumulate(windows, sims, frames, k, |_| true);
    normalise(&mut acc, &wsum);
    acc
}

/// [`frame_scores`] that respects speaker change points (`changes`, sorted frame positions,
/// from [`change::change_points`]): where a window that crosses
/// no change point covers a frame, the windows that cross one count only `cross_weight` times
/// their usual weight there (0: they are ignored). A frame that no such window covers (its
/// segment is shorter than a window) takes all its covering windows, as [`frame_scores`]
/// does.
///
/// ```text
/// change                    |
/// windows   [--A--]  [--A--]|[--B--]
///                [--A/B (crosses: ignored where a pure window covers the frame)--]
/// frames    A A A A A A A A |B B B B B              (cross_weight 0)
/// ```
pub fn frame_scores_within(
    windows: &[(usize, usize)],
    sims: &[Vec<f32>],
    frames: usize,
    k: usize,
    changes: &[usize],
    cross_weight: f32,
) -> Scores {
    if changes.is_empty() {
        return frame_scores(windows, sims, frames, k);
    }
    let pure = |w: usize| windows.get(w).is_some_and(|&(f, l)| !change::crosses(changes, f, l));
    let (mut acc, mut sum) = accumulate(windows, sims, frames, k, pure);
    let (cross, cross_sum) = accumulate(windows, sims, frames, k, |w| !pure(w));
    let cw = cross_weight.clamp(0.0, 1.0);
    for ((a, s), (b, bs)) in acc.iter_mut().zip(sum.iter_mut()).zip(cross.iter().zip(&cross_sum)) {
        if *s <= 0.0 {
            a.clone_from(b);
            *s = *bs;
        } else if cw > 0.0 {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += cw * y);
            *s += cw * bs;
        }
    }
    normalise(&mut acc, &sum);
    acc
}

/// Pulls each frame's scores towards the mean scores of its segment (the frames between two
/// change points): `(1 − weight) × own + weight × segment mean`. With weight 1 every frame of
/// a segment has the same scores, so the Viterbi can change speakers only at change points
/// (or not at all inside a segment).
///
/// ```text
/// change           |
/// own     .9 .8 .4 | .2 .1 .3       (one speaker's score)
/// mean    .7 .7 .7 | .2 .2 .2
/// w = .5  .8 .75 .55| .2 .15 .25
/// ```
pub fn pull_to_segments(scores: &mut Scores, changes: &[usize], weight: f32) {
    if weight <= 0.0 {
        return;
    }
    let n = scores.len();
    let mut bounds: Vec<usize> = std::iter::once(0)
        .chain(changes.iter().copied().filter(|&c| c > 0 && c < n))
        .chain(std::iter::once(n))
        .collect();
    bounds.dedup();
    for b in bounds.windows(2) {
        let (a, e) = (b[0], b[1]);
        let Some(k) = scores.get(a).map(|s| s.len()) else { continue };
        let mut mean = vec![0.0f32; k];
        for s in &scores[a..e] {
            mean.iter_mut().zip(s).for_each(|(m, x)| *m += x);
        }
        mean.iter_mut().for_each(|m| *m /= (e - a) as f32);
        for s in &mut scores[a..e] {
            s.iter_mut().zip(&mean).for_each(|(x, m)| *x = (1.0 - weight) * *x + weight * m);
        }
    }
}

/// Weighted sums of the similarities of the windows `w` with `take(w)`, per frame, and the
/// sums of their weights.
fn accumulate(
    windows: &[(usize, usize)],
    sims: &[Vec<f32>],
    frames: usize,
    k: usize,
    take: impl Fn(usize) -> bool,
) -> (Scores, Vec<f32>) {
    let mut acc = vec![vec![0.0f32; k]; frames];
    let mut wsum = vec![0.0f32; frames];
    for (wi, (&(first, len), s)) in windows.iter().zip(sims).enumerate() {
        if !take(wi) {
            continue;
        }
        let half = len as f32 / 2.0;
        for (i, (a, ws)) in acc.iter_mut().zip(wsum.iter_mut()).enumerate().skip(first).take(len) {
            // Triangular weight: 1 at the window centre, small at its edges.
            let d = ((i - first) as f32 + 0.5 - half).abs() / half;
            let w = (1.0 - d).max(0.05);
            *ws += w;
            a.iter_mut().zip(s).for_each(|(x, y)| *x += w * y);
        }
    }
    (acc, wsum)
}

/// Divides the sums by their weights; frames without weight take the previous frame's scores.
fn normalise(acc: &mut Scores, wsum: &[f32]) {
    let mut last: Option<Vec<f32>> = None;
    for (a, ws) in acc.iter_mut().zip(wsum) {
        if *ws > 0.0 {
            a.iter_mut().for_each(|x| *x /= ws);
            last = Some(a.clone());
        } else if let Some(l) = &last {
            a.clone_from(l);
        }
    }
}

/// The best label sequence: maximises Σ score − `switch` × (number of changes). Ties go to the
/// lowest label, so the result is deterministic.
pub fn viterbi(scores: &Scores, switch: f32) -> Vec<usize> {
    viterbi_with(scores, |_| switch)
}

/// The switch cost of each frame for [`viterbi_with`]: `near` within `tolerance` frames of a
/// change point (sorted), `far` elsewhere. The cost of frame `t` is that of a change between
/// frames `t − 1` and `t`.
///
/// ```text
/// change             |            (tolerance 2)
/// frame   0 1 2 3 4 5 6 7 8 9
/// cost    F F F n n n n n F F     F = far, n = near; a change at 5 sits between frames 4 and 5
/// ```
pub fn switch_costs(
    frames: usize,
    changes: &[usize],
    near: f32,
    far: f32,
    tolerance: usize,
) -> Vec<f32> {
    let mut c = vec![far; frames];
    for &p in changes {
        let (a, b) = (p.saturating_sub(tolerance), (p + tolerance).min(frames.saturating_sub(1)));
        for x in c.iter_mut().take(b + 1).skip(a) {
            *x = x.min(near);
        }
    }
    c
}

/// [`viterbi`] with a switch cost per frame: `switch(t)` is the cost of a change between
/// frames `t − 1` and `t` (a change-aware HMM: cheap at detected speaker changes).
pub fn viterbi_with(scores: &Scores, switch: impl Fn(usize) -> f32) -> Vec<usize> {
    let n = scores.len();
    let Some(k) = scores.first().map(|s| s.len()) else { return Vec::new() };
    if k == 0 {
        return vec![0; n];
    }
    let mut back = vec![0u16; n * k];
    let mut cur: Vec<f32> = scores[0].clone();
    for t in 1..n {
        let switch = switch(t);
        let (bi, bv) = argmax(&cur);
        let mut next = vec![0.0f32; k];
        for j in 0..k {
            let stay = cur[j];
            let (from, v) = if stay >= bv - switch { (j, stay) } else { (bi, bv - switch) };
            back[t * k + j] = from as u16;
            next[j] = v + scores[t][j];
        }
        cur = next;
    }
    let mut out = vec![0usize; n];
    let mut s = argmax(&cur).0;
    for t in (0..n).rev() {
        out[t] = s;
        s = back[t * k + s] as usize;
    }
    out
}

/// Frames shorter than this run (10 ms frames) of one second speaker are dropped.
const MIN_SECOND_RUN: usize = 10;
/// A second speaker needs at least this VAD probability on the frame.
const MIN_SECOND_VAD: f32 = 0.5;

/// A second speaker per frame, where the evidence supports one: the best speaker other than
/// `labels[f]` scores within `margin` of `labels[f]`'s score, the VAD is confident, and this
/// holds for at least 10 consecutive frames (0.1 s) with the same second speaker.
///
/// ```text
/// score A  .9 .9 .6 .5 .5 .6 .9
/// score B  .1 .2 .5 .5 .4 .3 .1
/// label    A  A  A  A  A  A  A
/// second   -  -  B  B  B  -  -     (margin 0.15, run long enough)
/// ```
pub fn second_speaker(
    scores: &Scores,
    labels: &[usize],
    vad: &[f32],
    margin: f32,
) -> Vec<Option<usize>> {
    let mut out: Vec<Option<usize>> = scores
        .iter()
        .zip(labels)
        .enumerate()
        .map(|(f, (s, &l))| {
            let best = *s.get(l)?;
            let (j, v) = s.iter().enumerate().filter(|&(j, _)| j != l).fold(
                (usize::MAX, f32::NEG_INFINITY),
                |a, (j, &v)| if v > a.1 { (j, v) } else { a },
            );
            let confident = vad.get(f).is_some_and(|&p| p >= MIN_SECOND_VAD);
            (j != usize::MAX && best - v < margin && confident).then_some(j)
        })
        .collect();
    let mut i = 0;
    while i < out.len() {
        let Some(j) = out[i] else {
            i += 1;
            continue;
        };
        let mut e = i;
        while e < out.len() && out[e] == Some(j) {
            e += 1;
        }
        if e - i < MIN_SECOND_RUN {
            out[i..e].iter_mut().for_each(|x| *x = None);
        }
        i = e;
    }
    out
}

fn argmax(v: &[f32]) -> (usize, f32) {
    let mut best = (0, f32::NEG_INFINITY);
    for (i, &x) in v.iter().enumerate() {
        if x > best.1 {
            best = (i, x);
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switch_cost_removes_short_blips() {
        let mut s: Scores = vec![vec![1.0, 0.0]; 10];
        s[5] = vec![0.0, 1.0];
        assert_eq!(viterbi(&s, 0.0)[5], 1);
        assert_eq!(viterbi(&s, 1.5), vec![0; 10]);
        let mut t: Scores = vec![vec![1.0, 0.0]; 5];
        t.extend(vec![vec![0.0, 1.0]; 5]);
        assert_eq!(viterbi(&t, 1.5), vec![0, 0, 0, 0, 0, 1, 1, 1, 1, 1]);
        assert!(viterbi(&Vec::new(), 1.0).is_empty());
    }

    #[test]
    fn second_speaker_needs_close_scores_confident_speech_and_a_run() {
        let mut s: Scores = vec![vec![0.9, 0.1, 0.0]; 30];
        for x in s.iter_mut().take(22).skip(5) {
            *x = vec![0.5, 0.0, 0.45];
        }
        // A short close stretch (4 frames) is not enough.
        for x in s.iter_mut().take(29).skip(25) {
            *x = vec![0.5, 0.45, 0.0];
        }
        let labels = vec![0; 30];
        let mut vad = vec![0.9; 30];
        let got = second_speaker(&s, &labels, &vad, 0.1);
        let want: Vec<Option<usize>> = (0..30).map(|f| (5..22).contains(&f).then_some(2)).collect();
        assert_eq!(got, want);
        // Unsure speech in the middle splits the run into two of 6 and 7 frames: both dropped.
        vad[11] = 0.2;
        vad[12] = 0.2;
        vad[13] = 0.2;
        vad[14] = 0.2;
        assert!(second_speaker(&s, &labels, &vad, 0.1).iter().all(|x| x.is_none()));
        assert!(second_speaker(&s, &labels, &[0.9; 30], 0.01).iter().all(|x| x.is_none()));
    }

    /// A frame 12 frames long with a change at 6, windows of 4 every 2: the window [4, 8)
    /// crosses it and is ignored wherever a window on one side covers the frame.
    ///
    /// ```text
    /// frame    0 1 2 3 4 5|6 7 8 9 10 11
    /// [0,4)    A A A A
    /// [2,6)        A A A A
    /// [4,8)            x x x x            (crosses 6)
    /// [6,10)               B B B B
    /// [8,12)                   B B B  B
    /// ```
    #[test]
    fn scores_within_segments_ignore_crossing_windows() {
        let windows = [(0, 4), (2, 4), (4, 4), (6, 4), (8, 4)];
        let (a, b, x) = (vec![1.0, 0.0], vec![0.0, 1.0], vec![0.5, 0.5]);
        let sims = [a.clone(), a.clone(), x.clone(), b.clone(), b.clone()];
        let s = frame_scores_within(&windows, &sims, 12, 2, &[6], 0.0);
        for (f, x) in s.iter().enumerate() {
            assert_eq!(*x, if f < 6 { a.clone() } else { b.clone() }, "frame {f}");
        }
        // Without the change the crossing window pulls frames 4–7 towards the middle.
        let plain = frame_scores(&windows, &sims, 12, 2);
        assert!(plain[5][1] > 0.0 && plain[6][0] > 0.0);
        assert_eq!(frame_scores_within(&windows, &sims, 12, 2, &[], 0.0), plain);
        // A segment no pure window covers (change points 5 and 7) keeps all its windows.
        let short = frame_scores_within(&windows, &sims, 12, 2, &[5, 7], 0.0);
        assert_eq!(short[5], plain[5]);
        assert_eq!(short[6], plain[6]);
        // At half weight, frame 5 has [2,6) (pure, triangular weight 0.25) and [4,8) (crossing,
        // 0.75 × 0.5): A = (0.25 + 0.375 × 0.5) / 0.625 = 0.7, B = 0.3.
        let half = frame_scores_within(&windows, &sims, 12, 2, &[6], 0.5);
        assert!(
            (half[5][0] - 0.7).abs() < 1e-6 && (half[5][1] - 0.3).abs() < 1e-6,
            "{:?}",
            half[5]
        );
    }

    #[test]
    fn segments_pull_their_frames_together() {
        let mut s: Scores = [0.9, 0.8, 0.4, 0.2, 0.1, 0.3].iter().map(|&x| vec![x, 0.0]).collect();
        let orig = s.clone();
        pull_to_segments(&mut s, &[3], 0.0);
        assert_eq!(s, orig);
        pull_to_segments(&mut s, &[3], 1.0);
        let got: Vec<f32> = s.iter().map(|x| x[0]).collect();
        let m1 = (0.9f32 + 0.8 + 0.4) / 3.0;
        let m2 = (0.2f32 + 0.1 + 0.3) / 3.0;
        assert_eq!(got, vec![m1, m1, m1, m2, m2, m2]);
        // Half way; no change point: one segment.
        let mut s = orig.clone();
        pull_to_segments(&mut s, &[], 0.5);
        let m = (0.9f32 + 0.8 + 0.4 + 0.2 + 0.1 + 0.3) / 6.0;
        assert_eq!(s[0][0], 0.5 * 0.9 + 0.5 * m);
        assert_eq!(s[5][1], 0.0);
    }

    #[test]
    fn switch_costs_are_low_near_changes() {
        assert_eq!(
            switch_costs(10, &[5], 0.5, 4.0, 2),
            vec![4.0, 4.0, 4.0, 0.5, 0.5, 0.5, 0.5, 0.5, 4.0, 4.0]
        );
        assert_eq!(switch_costs(4, &[0, 3], 1.0, 4.0, 1), vec![1.0, 1.0, 1.0, 1.0]);
        assert_eq!(switch_costs(3, &[], 1.0, 4.0, 1), vec![4.0; 3]);
        // A dip of 3 frames is no change at the usual cost, but is one at a detected change.
        let mut s: Scores = vec![vec![1.0, 0.0]; 10];
        for x in s.iter_mut().take(8).skip(5) {
            *x = vec![0.0, 1.0];
        }
        assert_eq!(viterbi(&s, 2.0), vec![0; 10]);
        let c = switch_costs(10, &[5, 8], 0.5, 2.0, 0);
        assert_eq!(viterbi_with(&s, |t| c[t]), vec![0, 0, 0, 0, 0, 1, 1, 1, 0, 0]);
    }

    #[test]
    fn scores_average_covering_windows() {
        let s = frame_scores(&[(0, 4), (2, 4)], &[vec![1.0, 0.0], vec![0.0, 1.0]], 7, 2);
        assert_eq!(s[0], vec![1.0, 0.0]);
        assert_eq!(s[5], vec![0.0, 1.0]);
        assert_eq!(s[6], vec![0.0, 1.0]); // uncovered: carried forward
        assert!(s[3][1] > s[3][0]); // nearer the second window's centre
    }
}
