//! A recording on dscore's frame grid (10 ms by default): which frames are scored and which
//! frames each speaker is on, the input of dscore's frame-based JER ([`super::jer`]) and of the
//! clustering metrics ([`super::cluster`]).
//!
//! The grid is a [`FrameGrid`], but its rounding is dscore's own and none of [`Rounding`]'s
//! integer rules: dscore holds a turn's end as onset + duration in floating point and counts
//! the float instants `step · k` strictly before it, so an end that the float sum moves by
//! 10⁻¹⁶ s past a boundary takes one frame more than [`Rounding::Ceil`] of the exact time
//! would:
//!
//! ```text
//! float grid   0.00   0.01   …   0.57 (= 0.5700000000000001)
//! onset 0.57           frames_before = 57: frame 57 is on, as dscore has it
//! ```
//!
//! [`Rounding`]: crate::time::Rounding
//! [`Rounding::Ceil`]: crate::time::Rounding::Ceil

use crate::model::{Region, Segment};
use crate::time::{FrameGrid, Time};

use super::prepare::{PreparedRecording, ScoredTurn};

/// `searchsorted(times, x, side="left")` for `times[k] = step·k`, `k < n`: the number of frames
/// strictly before `x`.
fn frames_before(x: f64, step: f64, n: i64) -> i64 {
    let guess = (x / step).ceil();
    let mut k = if guess.is_nan() { 0 } else { guess.clamp(0.0, n as f64) as i64 };
    while k > 0 && step * ((k - 1) as f64) >= x {
        k -= 1;
    }
    while k < n && step * (k as f64) < x {
        k += 1;
    }
    k
}

fn secs(t: Time) -> f64 {
    t.micros() as f64 / 1e6
}

/// A recording on dscore's frame grid: frame indices are used as time units (frame `k` is the
/// instant `k` of these regions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameSets {
    /// Frames inside the scoring regions.
    pub keep: Region,
    /// Per reference speaker: whether it has turns (with a UEM: turns that reach into it), and
    /// its kept frames.
    pub reference: Vec<(bool, Region)>,
    /// Per hypothesis speaker, likewise.
    pub hypothesis: Vec<(bool, Region)>,
}

/// Puts a prepared recording on dscore's frame grid (`grid`, 10 ms by default), turn times
/// held as dscore holds them: the onset, and onset + duration in floating point, clipped to
/// the UEM segment holding the turn.
pub fn frame_sets(p: &PreparedRecording, grid: FrameGrid) -> FrameSets {
    let step = grid.step().micros() as f64 / 1e6;
    let float_turns = |tokens: &[ScoredTurn]| -> Vec<(f64, f64, u32)> {
        tokens
            .iter()
            .map(|&(s, k)| {
                let on = secs(s.start());
                let mut off = on + s.duration().micros() as f64 / 1e6;
                if p.from_uem {
                    if let Some(u) = p.evaluation.iter().find(|u| u.covers(&s)) {
                        if s.end() == u.end() {
                            off = off.min(secs(u.end()));
                        }
                    }
                }
                (on, off, k)
            })
            .collect()
    };
    let rt = float_turns(&p.reference_raw);
    let ht = float_turns(&p.hypothesis_raw);
    let regions: Vec<(f64, f64)> = if p.from_uem {
        p.evaluation.iter().map(|s| (secs(s.start()), secs(s.end()))).collect()
    } else {
        let all = rt.iter().chain(ht.iter());
        let on = all.clone().map(|t| t.0).fold(f64::INFINITY, f64::min);
        let off = all.map(|t| t.1).fold(f64::NEG_INFINITY, f64::max);
        if on.is_finite() && off.is_finite() {
            vec![(on, off)]
        } else {
            Vec::new()
        }
    };
    let dur = regions.iter().map(|r| r.1).fold(0.0f64, f64::max);
    let n = (dur / step).floor().clamp(0.0, 1e12) as i64;
    let keep = Region::from_segments(regions.iter().filter_map(|&(a, b)| {
        Segment::from_micros(frames_before(a, step, n), frames_before(b, step, n))
    }));
    let per_speaker = |turns: &[(f64, f64, u32)], count: usize| -> Vec<(bool, Region)> {
        let mut present = vec![false; count];
        let mut segs: Vec<Vec<Segment>> = vec![Vec::new(); count];
        for &(on, off, k) in turns {
            // A speaker whose turns all lie outside the UEM is not in the evaluation, as dscore,
            // which drops such turns, has it (without a UEM every turn lies in the region).
            let inside = !p.from_uem
                || regions
                    .iter()
                    .any(|&(a, b)| (on < b && off > a) || (on == off && a <= on && on < b));
            if let Some(pres) = present.get_mut(k as usize).filter(|_| inside) {
                *pres = true;
                if let Some(s) =
                    Segment::from_micros(frames_before(on, step, n), frames_before(off, step, n))
                {
                    segs[k as usize].push(s);
                }
            }
        }
        present
            .into_iter()
            .zip(segs)
            .map(|(pres, v)| (pres, Region::from_segments(v).intersection(&keep)))
            .collect()
    };
    let reference = per_speaker(&rt, p.reference_names.len());
    let hypothesis = per_speaker(&ht, p.hypothesis_names.len());
    FrameSets { keep, reference, hypothesis }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_before_matches_searchsorted_on_a_float_grid() {
        // 0.01 * 57 = 0.5700000000000001 > 0.57, so frame 57 is on for an onset at 0.57.
        assert_eq!(frames_before(0.57, 0.01, 100), 57);
        assert_eq!(frames_before(0.0, 0.01, 100), 0);
        assert_eq!(frames_before(5.0, 0.01, 100), 100);
        assert_eq!(frames_before(-1.0, 0.01, 100), 0);
        assert_eq!(frames_before(0.005, 0.01, 100), 1);
    }
}
