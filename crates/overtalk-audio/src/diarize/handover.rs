//! Speaker changes located on the front-end features at 10 ms: every direct change A→B of the
//! refined labels (no silence between the two turns) moves, within a short reach, to where a
//! two-segment likelihood search on the log-mel frames puts it, and a pause found there is
//! kept as silence.
//!
//! Why: after [`refine`](super::refine), a change with no pause in the detector's
//! probabilities sits where the 1.6 s window scores cross, which smears the change over a
//! window; and the edges on the energy ([`edges`](super::edges)) move only edges that border
//! silence. The frames themselves carry the change: A's frames fit a model of A's voice better
//! than one of B's, and the frames of a pause fit the recording's non-speech better than
//! either.
//!
//! ```text
//! labels      A A A A A A A A A A A B B B B B      change where the window scores cross
//! frames      a a a a a a n n n b b b b b b b      (a: like A, b: like B, n: like non-speech)
//! zone                  [ ─ ─ ─ ─ ─ ─ ─ ]          ±reach, inside the two runs
//! after       A A A A A A . . . B B B B B B B      A ends, a pause, B starts
//! ```
//!
//! For a change at speech frame `q` between the run `[ra, q)` of A and the run `[q, rb)` of B
//! (both over consecutive signal frames), the zone is `[lo, hi)` with
//! `lo = max(ra + min_segment, q − reach)` and `hi = min(rb − min_segment, q + reach)`. Each
//! speaker is a diagonal Gaussian of the log-mel frames: fitted on the `model_frames` frames of
//! its run just outside the zone when there are at least `min_model` of them, else on all the
//! frames labelled with that speaker. Non-speech is a diagonal Gaussian of the frames the
//! detector called silence. The new change maximises
//!
//! ```text
//! Σ_{u∈[lo,t1)} log p_A(x_u) + Σ_{u∈[t1,t2)} log p_N(x_u) + Σ_{u∈[t2,hi)} log p_B(x_u)
//! ```
//!
//! over `lo ≤ t1 ≤ t2 ≤ hi` with `t2 = t1` (no pause) or `t2 − t1 ≥ min_pause`; with no
//! non-speech model, or `min_pause` 0, only `t1 = t2` is searched. Ties go to no pause, then to
//! the position nearest the old change, then to the earlier one. Changes are taken left to
//! right, each on the labels as the previous ones left them.

/// Options of [`relocate`]. Frames are 10 ms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HandoverOptions {
    /// Frames searched on each side of a change.
    pub reach: usize,
    /// Neither run is made shorter than this many frames.
    pub min_segment: usize,
    /// Frames of each run, next to the zone, that its speaker's local model is fitted on
    /// (0: always the speaker's model over the whole recording).
    pub model_frames: usize,
    /// A local model needs at least this many frames, else the whole-recording model is used.
    pub min_model: usize,
    /// A pause between the two turns is at least this many frames (0: no pause is searched).
    pub min_pause: usize,
}

impl Default for HandoverOptions {
    /// ±0.5 s, segments of at least 100 ms, local models from up to 3 s of each run (at least
    /// 0.3 s), pauses of at least 50 ms.
    fn default() -> HandoverOptions {
        HandoverOptions {
            reach: 50,
            min_segment: 10,
            model_frames: 300,
            min_model: 30,
            min_pause: 5,
        }
    }
}

/// A diagonal Gaussian over feature frames (log-likelihoods in nats).
#[derive(Clone, Debug, PartialEq)]
pub struct Gaussian {
    mean: Vec<f64>,
    var: Vec<f64>,
    /// `−½ Σ ln(2π σ²)`.
    norm: f64,
}

/// Variance floor (log-mel units²), so a constant band does not dominate.
const VAR_FLOOR: f64 = 1e-2;

impl Gaussian {
    /// Fits the frames `frames` (each `dim` values of `x`); `None` with fewer than 2 frames.
    pub fn fit(x: &[f32], dim: usize, frames: impl Iterator<Item = usize>) -> Option<Gaussian> {
        let slices = frames.filter_map(|u| x.get(u * dim..(u + 1) * dim));
        Gaussian::fit_mapped(dim, slices, |v| v)
    }

    /// Fits frame slices of `dim` values each, every value passed through `map` first (e.g.
    /// the log of mel power); `None` with fewer than 2 frames.
    pub fn fit_mapped<'a>(
        dim: usize,
        frames: impl Iterator<Item = &'a [f32]>,
        map: impl Fn(f32) -> f32,
    ) -> Option<Gaussian> {
        if dim == 0 {
            return None;
        }
        let (mut s, mut s2, mut n) = (vec![0.0f64; dim], vec![0.0f64; dim], 0usize);
        for f in frames.filter(|f| f.len() == dim) {
            for k in 0..dim {
                let v = f64::from(map(f[k]));
                s[k] += v;
                s2[k] += v * v;
            }
            n += 1;
        }
        if n < 2 {
            return None;
        }
        let mean: Vec<f64> = s.iter().map(|v| v / n as f64).collect();
        let var: Vec<f64> =
            (0..dim).map(|k| (s2[k] / n as f64 - mean[k] * mean[k]).max(VAR_FLOOR)).collect();
        let norm = -0.5 * var.iter().map(|v| (2.0 * std::f64::consts::PI * v).ln()).sum::<f64>();
        Some(Gaussian { mean, var, norm })
    }

    /// Log-likelihood of one frame.
    pub fn log_p(&self, f: &[f32]) -> f64 {
        let q: f64 = f
            .iter()
            .zip(self.mean.iter().zip(&self.var))
            .map(|(&v, (m, s))| (f64::from(v) - m).powi(2) / s)
            .sum();
        self.norm - 0.5 * q
    }
}

/// The natural log of a mel power value (floored at 1e-10): what [`relocate`] models.
pub fn log_mel(v: f32) -> f32 {
    v.max(1e-10).ln()
}

/// Moves the direct speaker changes of `labels` (one per speech frame, `None` where silent)
/// onto the features (see the module documentation). `speech[q]` is speech frame `q`'s index
/// in the signal, `x` its `dim` features (log-mel), `noise` the non-speech model.
pub fn relocate(
    speech: &[usize],
    x: &[f32],
    dim: usize,
    labels: &mut [Option<usize>],
    noise: Option<&Gaussian>,
    o: &HandoverOptions,
) {
    let n = labels.len().min(speech.len()).min(x.len().checked_div(dim).unwrap_or(0));
    if n < 2 {
        return;
    }
    let k = labels[..n].iter().flatten().max().map_or(0, |m| m + 1);
    let global: Vec<Option<Gaussian>> =
        (0..k).map(|s| Gaussian::fit(x, dim, (0..n).filter(|&u| labels[u] == Some(s)))).collect();
    let frame = |u: usize| &x[u * dim..(u + 1) * dim];
    let touches = |u: usize| speech[u] == speech[u - 1] + 1;
    let min_seg = o.min_segment.max(1);
    let mut q = 1;
    while q < n {
        let (Some(a), Some(b)) = (labels[q - 1], labels[q]) else {
            q += 1;
            continue;
        };
        if a == b || !touches(q) {
            q += 1;
            continue;
        }
        let mut ra = q - 1;
        while ra > 0 && labels[ra - 1] == Some(a) && touches(ra) {
            ra -= 1;
        }
        let mut rb = q + 1;
        while rb < n && labels[rb] == Some(b) && touches(rb) {
            rb += 1;
        }
        let lo = (ra + min_seg).max(q.saturating_sub(o.reach));
        let hi = rb.saturating_sub(min_seg).min(q + o.reach);
        if lo > q || hi < q || lo >= hi {
            q += 1;
            continue;
        }
        let local = |from: usize, to: usize| {
            (o.model_frames > 0 && to - from >= o.min_model.max(2))
                .then(|| Gaussian::fit(x, dim, from..to))
                .flatten()
        };
        let ma = local(ra.max(lo.saturating_sub(o.model_frames)), lo).or_else(|| global[a].clone());
        let mb = local(hi, rb.min(hi + o.model_frames)).or_else(|| global[b].clone());
        let (Some(ma), Some(mb)) = (ma, mb) else {
            q += 1;
            continue;
        };
        // Prefix sums over the zone: pa[i] = Σ_{u<lo+i} log p_A(x_u), and so for B and N.
        let len = hi - lo;
        let prefix = |g: &Gaussian| -> Vec<f64> {
            let mut p = vec![0.0f64; len + 1];
            for i in 0..len {
                p[i + 1] = p[i] + g.log_p(frame(lo + i));
            }
            p
        };
        let (pa, pb) = (prefix(&ma), prefix(&mb));
        let pn = noise.filter(|_| o.min_pause > 0).map(prefix);
        let total = |i1: usize, i2: usize| -> f64 {
            let gap = pn.as_ref().map_or(0.0, |p| p[i2] - p[i1]);
            pa[i1] + gap + (pb[len] - pb[i2])
        };
        let old = q - lo;
        // (score, pause?, distance to the old change, position)
        let mut best = (total(old, old), false, 0usize, old, old);
        let better =
            |s: f64, pause: bool, dist: usize, i1: usize, b: &(f64, bool, usize, usize, usize)| {
                s > b.0
                    || (s == b.0 && !pause && b.1)
                    || (s == b.0 && pause == b.1 && dist < b.2)
                    || (s == b.0 && pause == b.1 && dist == b.2 && i1 < b.3)
            };
        for i1 in 0..=len {
            let s = total(i1, i1);
            if better(s, false, i1.abs_diff(old), i1, &best) {
                best = (s, false, i1.abs_diff(old), i1, i1);
            }
            if pn.is_some() {
                for i2 in (i1 + o.min_pause)..=len {
                    let s = total(i1, i2);
                    let dist = i1.abs_diff(old) + i2.abs_diff(old);
                    if better(s, true, dist, i1, &best) {
                        best = (s, true, dist, i1, i2);
                    }
                }
            }
        }
        let (t1, t2) = (lo + best.3, lo + best.4);
        for (u, l) in labels.iter_mut().enumerate().take(hi).skip(lo) {
            *l = if u < t1 {
                Some(a)
            } else if u < t2 {
                None
            } else {
                Some(b)
            };
        }
        q = t2.max(q) + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels from a string: `A`…`Z` a speaker, `.` silence.
    fn parse(s: &str) -> Vec<Option<usize>> {
        s.bytes().map(|c| (c != b'.').then(|| usize::from(c - b'A'))).collect()
    }

    fn show(l: &[Option<usize>]) -> String {
        l.iter().map(|x| x.map_or('.', |k| char::from(b'A' + k as u8))).collect()
    }

    /// One feature per frame: `a` → 0 ± 0.5, `b` → 10 ± 0.5, `n` → −20 ± 0.5 (alternating).
    fn feats(s: &str) -> Vec<f32> {
        s.bytes()
            .enumerate()
            .map(|(i, c)| {
                let j = if i % 2 == 0 { 0.5 } else { -0.5 };
                match c {
                    b'a' => j,
                    b'b' => 10.0 + j,
                    _ => -20.0 + j,
                }
            })
            .collect()
    }

    fn opts(min_pause: usize) -> HandoverOptions {
        HandoverOptions { reach: 6, min_segment: 2, model_frames: 0, min_model: 2, min_pause }
    }

    #[test]
    fn a_late_change_moves_onto_the_frames() {
        let f = "aaaaaaaabbbbbbbbbbbb";
        let mut l = parse("AAAAAAAAAAAABBBBBBBB");
        let speech: Vec<usize> = (0..l.len()).collect();
        relocate(&speech, &feats(f), 1, &mut l, None, &opts(0));
        assert_eq!(show(&l), "AAAAAAAABBBBBBBBBBBB");
    }

    #[test]
    fn an_early_change_moves_too_within_the_reach() {
        // The true change is 8 frames after the labelled one; the reach is 6.
        let f = "aaaaaaaaaaaaaaabbbbbbbbbbb";
        let mut l = parse("AAAAAAABBBBBBBBBBBBBBBBBBB");
        let speech: Vec<usize> = (0..l.len()).collect();
        relocate(&speech, &feats(f), 1, &mut l, None, &opts(0));
        assert_eq!(show(&l), "AAAAAAAAAAAAABBBBBBBBBBBBB");
    }

    #[test]
    fn a_pause_between_the_turns_becomes_silence() {
        let f = "aaaaaaaannnnbbbbbbbbbbbb";
        let mut l = parse("AAAAAAAAAAAAAABBBBBBBBBB");
        let speech: Vec<usize> = (0..l.len()).collect();
        let noise = Gaussian::fit(&[-20.5, -19.5, -20.5, -19.5], 1, 0..4).unwrap();
        relocate(&speech, &feats(f), 1, &mut l, Some(&noise), &opts(2));
        assert_eq!(show(&l), "AAAAAAAA....BBBBBBBBBBBB");
        // A pause shorter than the minimum is not carved: it goes to the speaker whose model
        // fits it better (A's, fitted on A's labels, which covered the pause).
        let mut l = parse("AAAAAAAAAAAAAABBBBBBBBBB");
        relocate(&speech, &feats(f), 1, &mut l, Some(&noise), &opts(5));
        assert_eq!(show(&l), "AAAAAAAAAAAABBBBBBBBBBBB");
    }

    #[test]
    fn runs_keep_their_minimum_and_gaps_in_the_signal_are_left_alone() {
        // A's run is 3 frames: with a minimum of 2 the change can move 1 frame left at most.
        let f = "abbbbbbbbb";
        let mut l = parse("AAABBBBBBB");
        let speech: Vec<usize> = (0..l.len()).collect();
        relocate(&speech, &feats(f), 1, &mut l, None, &opts(0));
        assert_eq!(show(&l), "AABBBBBBBB");
        // A change across a gap of the signal (frames 4 and 9 are not adjacent) stays.
        let mut l = parse("AAAAABBBBB");
        let speech = [0, 1, 2, 3, 4, 9, 10, 11, 12, 13];
        relocate(&speech, &feats("aaabbbbbbb"), 1, &mut l, None, &opts(0));
        assert_eq!(show(&l), "AAAAABBBBB");
    }

    #[test]
    fn the_gaussian_log_likelihood_is_exact() {
        // Frames 1 and 3: mean 2, variance 1.
        let g = Gaussian::fit(&[1.0, 3.0], 1, 0..2).unwrap();
        let want = -0.5 * (2.0 * std::f64::consts::PI).ln() - 0.5 * 4.0;
        assert!((g.log_p(&[4.0]) - want).abs() < 1e-12);
        assert_eq!(Gaussian::fit(&[1.0], 1, 0..1), None);
    }
}
