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
    let mut acc = vec![vec![0.0f32; k]; frames];
    let mut wsum = vec![0.0f32; frames];
    for (&(first, len), s) in windows.iter().zip(sims) {
        let half = len as f32 / 2.0;
        for (i, (a, ws)) in acc.iter_mut().zip(wsum.iter_mut()).enumerate().skip(first).take(len) {
            // Triangular weight: 1 at the window centre, small at its edges.
            let d = ((i - first) as f32 + 0.5 - half).abs() / half;
            let w = (1.0 - d).max(0.05);
            *ws += w;
            a.iter_mut().zip(s).for_each(|(x, y)| *x += w * y);
        }
    }
    let mut last: Option<Vec<f32>> = None;
    for (a, ws) in acc.iter_mut().zip(&wsum) {
        if *ws > 0.0 {
            a.iter_mut().for_each(|x| *x /= ws);
            last = Some(a.clone());
        } else if let Some(l) = &last {
            a.clone_from(l);
        }
    }
    acc
}

/// The best label sequence: maximises Σ score − `switch` × (number of changes). Ties go to the
/// lowest label, so the result is deterministic.
pub fn viterbi(scores: &Scores, switch: f32) -> Vec<usize> {
    let n = scores.len();
    let Some(k) = scores.first().map(|s| s.len()) else { return Vec::new() };
    if k == 0 {
        return vec![0; n];
    }
    let mut back = vec![0u16; n * k];
    let mut cur: Vec<f32> = scores[0].clone();
    for t in 1..n {
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

    #[test]
    fn scores_average_covering_windows() {
        let s = frame_scores(&[(0, 4), (2, 4)], &[vec![1.0, 0.0], vec![0.0, 1.0]], 7, 2);
        assert_eq!(s[0], vec![1.0, 0.0]);
        assert_eq!(s[5], vec![0.0, 1.0]);
        assert_eq!(s[6], vec![0.0, 1.0]); // uncovered: carried forward
        assert!(s[3][1] > s[3][0]); // nearer the second window's centre
    }
}
