//! Boundary refinement at 10 ms: moves each speaker change of the resegmentation onto the
//! pause between the two turns (or, with no pause near, onto the frame where the two
//! speakers' scores cross), keeps that pause as silence, and removes fragments shorter than a
//! minimum segment.
//!
//! Why: the resegmentation labels the *speech-frame sequence*, and the voice activity it runs
//! on closes gaps shorter than its minimum silence (250 ms) and holds speech a little past a
//! voice's end (hysteresis). So a gap between two turns usually is not in the sequence at all,
//! the change is placed where 1.6 s window scores flip (a few frames late or early, with
//! one-frame fragments where they flip back and forth), and the floor transfer gets an offset
//! of exactly 0. The detector's probabilities still show the pause: a valley under its offset.
//!
//! ```text
//! VAD prob    ▇▇▇▇▇▇▇▆▂▁▁▁▂▆▇▇▇▇▇▇      (valley under the offset: the pause)
//! speech seq  ███████████████████        (the 250 ms gap was closed)
//! before      A A A A A A A A A A A A B B B      change 0.2 s late, FTO 0
//! after       A A A A A A A . . . . . B B B B    A ends at the valley, B starts after it
//! ```
//!
//! Steps, on the speech-frame sequence (`labels`, one per speech frame):
//!
//! 1. For each change A→B, the search span is `window` frames on each side of it, never past
//!    the previous (already refined) change or the next one. Pauses in it are true gaps
//!    (consecutive speech frames that are not consecutive in the signal) and valleys (runs of
//!    at least `min_pause` frames whose probability is under `valley`). The longest pause
//!    wins (ties: the one nearest the old change); A ends where it starts, B starts where it
//!    ends, and a valley's frames become silence. With no pause, the change goes to the frame
//!    `t` that maximises `Σ_{q<t} (s_A − s_B)` over the span (the crossing of the scores).
//! 2. Fragments: a run shorter than `min_segment` that touches another speaker's run (no
//!    silence between) joins the neighbour whose score is higher over it; an isolated run
//!    that short becomes silence, as the voice activity's own minimum speech would drop it.
//!    Shortest runs go first, until none is left.
//!
//! Deterministic: ties go to the nearest, then the earlier position.

/// Options of [`refine`]. Frames are 10 ms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RefineOptions {
    /// Frames searched on each side of a change.
    pub window: usize,
    /// A frame whose voice probability is under this is part of a valley (a pause).
    pub valley: f32,
    /// Valleys shorter than this many frames are not pauses.
    pub min_pause: usize,
    /// No segment is shorter than this many frames (see step 2).
    pub min_segment: usize,
}

impl Default for RefineOptions {
    /// ±0.5 s, valleys under 0.35 (the default VAD offset) of at least 50 ms, segments of at
    /// least 100 ms (the VAD's minimum speech).
    fn default() -> RefineOptions {
        RefineOptions { window: 50, valley: 0.35, min_pause: 5, min_segment: 10 }
    }
}

/// A pause in a search span: `[start, end)` on the speech-frame sequence (frames that become
/// silence; empty for a true gap, which is already silence), and its length in signal frames.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pause {
    start: usize,
    end: usize,
    len: usize,
}

/// Refines the frame labels of the speech-frame sequence (see the module documentation).
///
/// `speech[q]` is speech frame `q`'s index in the signal (increasing), `vad[q]` its voice
/// probability, `labels[q]` its speaker, `scores[q][k]` its score for speaker `k`. Returns one
/// label per speech frame, `None` where a pause was made silence.
pub fn refine(
    speech: &[usize],
    vad: &[f32],
    labels: &[usize],
    scores: &[Vec<f32>],
    o: &RefineOptions,
) -> Vec<Option<usize>> {
    let n = labels.len().min(speech.len()).min(vad.len());
    let mut out: Vec<Option<usize>> = labels[..n].iter().copied().map(Some).collect();
    if n == 0 {
        return out;
    }
    let score = |q: usize, k: usize| scores.get(q).and_then(|s| s.get(k)).copied().unwrap_or(0.0);
    let changes: Vec<usize> = (1..n).filter(|&q| labels[q] != labels[q - 1]).collect();
    // The first frame of the previous refined turn (B's start after its refinement).
    let mut floor = 0usize;
    for (i, &c) in changes.iter().enumerate() {
        let (a, b) = (labels[c - 1], labels[c]);
        let next = changes.get(i + 1).copied().unwrap_or(n);
        // New change positions t (B's first frame) lie in [lo, hi].
        let lo = c.saturating_sub(o.window).max(floor + 1);
        let hi = (c + o.window).min(next.saturating_sub(1));
        if lo > hi {
            floor = c;
            continue;
        }
        let mut best: Option<Pause> = None;
        let better = |p: &Pause, best: &Option<Pause>| match best {
            None => true,
            Some(x) => {
                p.len > x.len
                    || (p.len == x.len && p.end.abs_diff(c) < x.end.abs_diff(c))
                    || (p.len == x.len && p.end.abs_diff(c) == x.end.abs_diff(c) && p.end < x.end)
            }
        };
        // True gaps: B would start at t.
        for t in lo..=hi {
            if speech[t] > speech[t - 1] + 1 {
                let p = Pause { start: t, end: t, len: speech[t] - speech[t - 1] - 1 };
                if better(&p, &best) {
                    best = Some(p);
                }
            }
        }
        // Valleys: frames [s, e) under the level, A keeping at least one frame before them.
        let mut q = lo;
        while q <= hi {
            if vad[q] >= o.valley {
                q += 1;
                continue;
            }
            let s = q;
            while q < next && vad[q] < o.valley && (q == s || speech[q] == speech[q - 1] + 1) {
                q += 1;
            }
            let e = q;
            if e - s >= o.min_pause.max(1) && e < next {
                let p = Pause { start: s, end: e, len: e - s };
                if better(&p, &best) {
                    best = Some(p);
                }
            }
        }
        let (end_a, start_b) = match best {
            Some(p) => (p.start, p.end),
            None => {
                // The crossing: argmax over t of the prefix sum of s_A − s_B from lo.
                let (mut acc, mut top, mut at) = (0.0f32, 0.0f32, lo);
                for t in lo..=hi {
                    if t > lo {
                        acc += score(t - 1, a) - score(t - 1, b);
                    }
                    let closer = t.abs_diff(c) < at.abs_diff(c);
                    if t == lo || acc > top || (acc == top && closer) {
                        (top, at) = (acc, t);
                    }
                }
                (at, at)
            }
        };
        for (q, l) in out.iter_mut().enumerate().take(next).skip(floor) {
            *l = if q < end_a {
                Some(a)
            } else if q < start_b {
                None
            } else {
                Some(b)
            };
        }
        floor = start_b;
    }
    drop_fragments(speech, &mut out, scores, o.min_segment);
    out
}

/// Step 2 of [`refine`]: runs shorter than `min` frames join the touching neighbour with the
/// higher score over them, or become silence when no neighbour touches them.
///
/// ```text
/// before  A A A A B A A A . . B B . B B B      (min 2)
/// after   A A A A A A A A . . B B . B B B      the lone B joins A; runs of 2+ stay
/// ```
fn drop_fragments(speech: &[usize], out: &mut [Option<usize>], scores: &[Vec<f32>], min: usize) {
    let n = out.len();
    let touches = |q: usize| q > 0 && speech[q] == speech[q - 1] + 1;
    loop {
        // Runs [s, e) of one speaker over consecutive signal frames.
        let mut runs: Vec<(usize, usize)> = Vec::new();
        let mut q = 0;
        while q < n {
            if out[q].is_none() {
                q += 1;
                continue;
            }
            let s = q;
            q += 1;
            while q < n && out[q] == out[s] && touches(q) {
                q += 1;
            }
            runs.push((s, q));
        }
        let Some(&(s, e)) =
            runs.iter().filter(|r| r.1 - r.0 < min).min_by_key(|r| (r.1 - r.0, r.0))
        else {
            return;
        };
        let left = (s > 0 && touches(s)).then(|| out[s - 1]).flatten();
        let right = (e < n && touches(e)).then(|| out[e]).flatten();
        let mean = |k: usize| -> f32 {
            (s..e).map(|q| scores.get(q).and_then(|v| v.get(k)).copied().unwrap_or(0.0)).sum()
        };
        let to = match (left, right) {
            (Some(l), Some(r)) => Some(if mean(r) > mean(l) { r } else { l }),
            (Some(l), None) => Some(l),
            (None, Some(r)) => Some(r),
            (None, None) => None,
        };
        out[s..e].iter_mut().for_each(|x| *x = to);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(n: usize) -> Vec<usize> {
        (0..n).collect()
    }

    fn show(v: &[Option<usize>]) -> String {
        v.iter().map(|l| l.map_or('.', |k| (b'A' + k as u8) as char)).collect()
    }

    /// Scores that favour `labels` exactly (1 for the label, 0 otherwise).
    fn sharp(labels: &[usize], k: usize) -> Vec<Vec<f32>> {
        labels.iter().map(|&l| (0..k).map(|j| f32::from(u8::from(j == l))).collect()).collect()
    }

    #[test]
    fn a_late_change_moves_onto_the_valley_and_keeps_it_silent() {
        // 20 frames: A speaks 0–8, pause 8–12 (probability 0.1), B 12–20. The labels change
        // 3 frames late, inside B's speech.
        let labels: Vec<usize> = (0..20).map(|q| usize::from(q >= 15)).collect();
        let vad: Vec<f32> = (0..20).map(|q| if (8..12).contains(&q) { 0.1 } else { 0.9 }).collect();
        let o = RefineOptions { window: 10, valley: 0.35, min_pause: 3, min_segment: 2 };
        let out = refine(&seq(20), &vad, &labels, &sharp(&labels, 2), &o);
        assert_eq!(show(&out), "AAAAAAAA....BBBBBBBB");
    }

    #[test]
    fn a_true_gap_beats_a_shorter_valley() {
        // Frames 0–9 then 14–23 in the signal (a 4-frame gap), a 2-frame valley at 5–6.
        let speech: Vec<usize> = (0..10).chain(14..24).collect();
        let labels: Vec<usize> = (0..20).map(|q| usize::from(q >= 7)).collect();
        let vad: Vec<f32> = (0..20).map(|q| if (5..7).contains(&q) { 0.1 } else { 0.9 }).collect();
        let o = RefineOptions { window: 10, valley: 0.35, min_pause: 2, min_segment: 2 };
        let out = refine(&speech, &vad, &labels, &sharp(&labels, 2), &o);
        assert_eq!(show(&out), "AAAAAAAAAABBBBBBBBBB");
    }

    #[test]
    fn without_a_pause_the_change_goes_where_the_scores_cross() {
        // Scores favour B from frame 6 on; the labels change at 9.
        let labels: Vec<usize> = (0..16).map(|q| usize::from(q >= 9)).collect();
        let truth: Vec<usize> = (0..16).map(|q| usize::from(q >= 6)).collect();
        let vad = vec![0.9; 16];
        let o = RefineOptions { window: 5, min_segment: 2, ..RefineOptions::default() };
        let out = refine(&seq(16), &vad, &labels, &sharp(&truth, 2), &o);
        assert_eq!(show(&out), "AAAAAABBBBBBBBBB");
    }

    #[test]
    fn fragments_join_their_best_neighbour_and_isolated_ones_go() {
        //            A A A B A A A . . C . B B B B
        let speech = seq(15);
        let out0 = [0, 0, 0, 1, 0, 0, 0, 9, 9, 2, 9, 1, 1, 1, 1];
        let mut out: Vec<Option<usize>> = out0.iter().map(|&l| (l != 9).then_some(l)).collect();
        let scores = vec![vec![0.5, 0.4, 0.0]; 15];
        drop_fragments(&speech, &mut out, &scores, 2);
        assert_eq!(show(&out), "AAAAAAA....BBBB");
    }

    #[test]
    fn short_turns_between_pauses_are_kept() {
        // A, pause, a 12-frame B turn, pause, A: every change is on a pause already.
        let labels: Vec<usize> = (0..40).map(|q| usize::from((14..26).contains(&q))).collect();
        let vad: Vec<f32> = (0..40)
            .map(|q| if (10..14).contains(&q) || (26..30).contains(&q) { 0.1 } else { 0.9 })
            .collect();
        let o = RefineOptions { window: 10, valley: 0.35, min_pause: 3, min_segment: 10 };
        let out = refine(&seq(40), &vad, &labels, &sharp(&labels, 2), &o);
        assert_eq!(show(&out), "AAAAAAAAAA....BBBBBBBBBBBB....AAAAAAAAAA");
    }
}
