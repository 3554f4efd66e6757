//! Distortion of the aggregates: how far the hypothesis's counts, matrices, shares and FTO
//! distribution are from the reference's, whatever the event matching says.
//!
//! Per recording: the signed count error per class (in [`super::ClassScore`]); the L1 distance
//! between the who-interrupts-whom matrices (attempts per interrupter × interruptee, speakers
//! under their reference names); the largest talk-share and floor-share error over speakers
//! (percentage points); the Wasserstein-1 distance between the FTO distributions (ms):
//!
//! ```text
//! F_ref  ──┐      ┌───────             W1 = ∫ |F_ref(x) − F_hyp(x)| dx
//!          └──┐   │                       = area between the two empirical CDFs
//! F_hyp       └───┘ ...
//!        -500   0  200  400 ms
//! ```
//!
//! Over the corpus each is one number (count errors and the matrix distance as a ratio of sums
//! over recordings, shares and W1 as a mean over the recordings where they are defined) with a
//! percentile bootstrap interval over recordings: `bootstrap` resamples of the recordings with
//! replacement, drawn by SplitMix64 from `seed`, so every run gives the same interval.

use crate::analysis::Millis;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::analysis::Analysis;

use super::{EventClass, EventOptions, RecordingEvents};

/// Distortion of one recording.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Distortion {
    /// Interruption attempts in the reference.
    pub reference_attempts: usize,
    /// Interruption attempts in the hypothesis.
    pub hypothesis_attempts: usize,
    /// Σ |hyp − ref| over the cells of the who-interrupts-whom matrix (attempts).
    pub interruption_matrix_l1: usize,
    /// `interruption_matrix_l1 / reference_attempts` (`null` without reference attempts).
    pub interruption_matrix_relative: Option<f64>,
    /// Largest |talk-share error| over speakers, in percentage points (`null` when a side has
    /// no talk).
    pub talk_share_pp: Option<f64>,
    /// Largest |floor-share error| over speakers, in percentage points (`null` when a side has
    /// no floor time).
    pub floor_share_pp: Option<f64>,
    /// Floor transfers with an FTO in the reference.
    pub reference_ftos: usize,
    /// Floor transfers with an FTO in the hypothesis.
    pub hypothesis_ftos: usize,
    /// Wasserstein-1 distance between the FTO distributions (ms; `null` when a side has none).
    pub fto_w1_ms: Option<f64>,
}

/// One corpus figure with its bootstrap interval.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Aggregate {
    /// The figure (`null` when undefined).
    pub value: Option<f64>,
    /// Lower end of the interval (`null` with fewer than 2 recordings or no resamples).
    pub low: Option<f64>,
    /// Upper end of the interval.
    pub high: Option<f64>,
}

/// Corpus distortion.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TotalDistortion {
    /// Recordings the intervals resample.
    pub recordings: usize,
    /// Per class: Σ(hyp − ref) / Σ ref over recordings.
    pub relative_count_error: BTreeMap<EventClass, Aggregate>,
    /// All interruption attempts (any outcome): Σ(hyp − ref) / Σ ref.
    pub interruption_count_error: Aggregate,
    /// Σ matrix L1 / Σ reference attempts.
    pub interruption_matrix_relative: Aggregate,
    /// Mean over recordings of the largest talk-share error (pp).
    pub talk_share_pp: Aggregate,
    /// Mean over recordings of the largest floor-share error (pp).
    pub floor_share_pp: Aggregate,
    /// Mean over recordings of the FTO Wasserstein-1 distance (ms).
    pub fto_w1_ms: Aggregate,
}

/// Wasserstein-1 distance between two empirical distributions (same unit as the values;
/// `None` when either is empty).
///
/// ```
/// use overtalk::events::distortion::wasserstein1;
/// assert_eq!(wasserstein1(&[0, 100], &[0, 100]), Some(0.0));
/// assert_eq!(wasserstein1(&[0, 100], &[50, 150]), Some(50.0));
/// assert_eq!(wasserstein1(&[0], &[0, 300]), Some(150.0));
/// ```
pub fn wasserstein1(a: &[i64], b: &[i64]) -> Option<f64> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let (mut a, mut b) = (a.to_vec(), b.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    let mut xs: Vec<i64> = a.iter().chain(&b).copied().collect();
    xs.sort_unstable();
    xs.dedup();
    let (na, nb) = (a.len() as i128, b.len() as i128);
    // ∫|Fa − Fb| = Σ |ca/na − cb/nb| · Δx = Σ |ca·nb − cb·na| · Δx / (na·nb), exact in integers.
    let (mut ia, mut ib) = (0usize, 0usize);
    let mut area: i128 = 0;
    for w in xs.windows(2) {
        while ia < a.len() && a[ia] <= w[0] {
            ia += 1;
        }
        while ib < b.len() && b[ib] <= w[0] {
            ib += 1;
        }
        let d = (ia as i128 * nb - ib as i128 * na).abs();
        area += d * i128::from(w[1] - w[0]);
    }
    Some(area as f64 / (na * nb) as f64)
}

/// The largest |share difference| over the speakers of either side, in percentage points.
fn share_error(
    r: &Analysis,
    h: &Analysis,
    share: fn(&crate::analysis::result::SpeakerOut) -> Option<f64>,
) -> Option<f64> {
    let rs: BTreeMap<&str, f64> =
        r.speakers.iter().filter_map(|(k, v)| share(v).map(|s| (k.as_str(), s))).collect();
    let hs: BTreeMap<&str, f64> =
        h.speakers.iter().filter_map(|(k, v)| share(v).map(|s| (k.as_str(), s))).collect();
    if rs.is_empty() || hs.is_empty() {
        return None;
    }
    let names: std::collections::BTreeSet<&str> = rs.keys().chain(hs.keys()).copied().collect();
    let worst = names
        .into_iter()
        .map(|n| (hs.get(n).copied().unwrap_or(0.0) - rs.get(n).copied().unwrap_or(0.0)).abs())
        .fold(0.0, f64::max);
    Some(worst * 100.0)
}

/// The distortion of one recording's aggregates: the attempts and FTOs of `r` and `h` whose
/// time (ms) is `within` the evaluation, and the talk and floor shares of `shares` (the two
/// sides' analyses of the evaluated talk; `r` and `h` themselves when all of it is evaluated).
pub fn of_recording(
    r: &Analysis,
    h: &Analysis,
    within: impl Fn(i64) -> bool,
    shares: (&Analysis, &Analysis),
) -> Distortion {
    // Who interrupts whom: attempts (interruptions and silent interruptions) on a holder, the
    // analysis's `pairs[].attempts` counted from the onsets so that each has its time.
    let matrix = |a: &Analysis| -> BTreeMap<(String, String), usize> {
        let mut m = BTreeMap::new();
        for o in &a.onsets {
            let attempt = matches!(
                o.class,
                crate::analysis::onsets::OnsetClass::Interruption
                    | crate::analysis::onsets::OnsetClass::SilentInterruption
            );
            if let (true, Some(holder)) = (attempt && within(o.time.get()), &o.holder) {
                *m.entry((o.speaker.to_string(), holder.to_string())).or_insert(0) += 1;
            }
        }
        m
    };
    let (rm, hm) = (matrix(r), matrix(h));
    let cells: std::collections::BTreeSet<&(String, String)> = rm.keys().chain(hm.keys()).collect();
    let l1: usize = cells
        .into_iter()
        .map(|c| rm.get(c).copied().unwrap_or(0).abs_diff(hm.get(c).copied().unwrap_or(0)))
        .sum();
    let reference_attempts: usize = rm.values().sum();
    let ftos = |a: &Analysis| -> Vec<i64> {
        a.transfers
            .iter()
            .filter(|t| within(t.time.get()))
            .filter_map(|t| t.fto.map(Millis::get))
            .collect()
    };
    let (rf, hf) = (ftos(r), ftos(h));
    Distortion {
        reference_attempts,
        hypothesis_attempts: hm.values().sum(),
        interruption_matrix_l1: l1,
        interruption_matrix_relative: (reference_attempts > 0)
            .then(|| l1 as f64 / reference_attempts as f64),
        talk_share_pp: share_error(shares.0, shares.1, |s| s.talk_share),
        floor_share_pp: share_error(shares.0, shares.1, |s| s.floor_share),
        reference_ftos: rf.len(),
        hypothesis_ftos: hf.len(),
        fto_w1_ms: wasserstein1(&rf, &hf),
    }
}

/// SplitMix64: a small, well-mixed generator, so the intervals need no dependency.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), by the multiply-shift reduction.
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

/// A ratio of sums over recordings, `Σ num / Σ den` (a recording without the figure passes
/// `None`), with its percentile bootstrap interval. The resamples are the same for every
/// figure of one report (one generator per figure, same seed), so the intervals are paired.
fn ratio_of_sums(items: &[Option<(f64, f64)>], ev: &EventOptions) -> Aggregate {
    let stat = |idx: &mut dyn Iterator<Item = usize>| -> Option<f64> {
        let (mut n, mut d) = (0.0, 0.0);
        for i in idx {
            if let Some((a, b)) = items[i] {
                n += a;
                d += b;
            }
        }
        (d > 0.0).then(|| n / d)
    };
    let value = stat(&mut (0..items.len()));
    if items.len() < 2 || ev.bootstrap == 0 || value.is_none() {
        return Aggregate { value, low: None, high: None };
    }
    let mut rng = SplitMix(ev.seed);
    let mut draws: Vec<f64> = Vec::with_capacity(ev.bootstrap);
    let n = items.len();
    for _ in 0..ev.bootstrap {
        let picks: Vec<usize> = (0..n).map(|_| rng.below(n)).collect();
        if let Some(v) = stat(&mut picks.into_iter()) {
            draws.push(v);
        }
    }
    if draws.is_empty() {
        return Aggregate { value, low: None, high: None };
    }
    draws.sort_by(f64::total_cmp);
    let alpha = (1.0 - ev.confidence).clamp(0.0, 1.0) / 2.0;
    let at = |q: f64| draws[((q * (draws.len() - 1) as f64).round() as usize).min(draws.len() - 1)];
    Aggregate { value, low: Some(at(alpha)), high: Some(at(1.0 - alpha)) }
}

/// The corpus distortion of per-recording scores.
pub fn of_corpus(recordings: &[RecordingEvents], ev: &EventOptions) -> TotalDistortion {
    let mut relative_count_error = BTreeMap::new();
    for (i, class) in EventClass::ALL.iter().enumerate() {
        let items: Vec<Option<(f64, f64)>> = recordings
            .iter()
            .map(|r| {
                let c = &r.classes[i];
                Some((c.count_error as f64, c.reference as f64))
            })
            .collect();
        relative_count_error.insert(*class, ratio_of_sums(&items, ev));
    }
    let mean = |f: fn(&Distortion) -> Option<f64>| -> Aggregate {
        let items: Vec<Option<(f64, f64)>> =
            recordings.iter().map(|r| f(&r.distortion).map(|v| (v, 1.0))).collect();
        ratio_of_sums(&items, ev)
    };
    let matrix: Vec<Option<(f64, f64)>> = recordings
        .iter()
        .map(|r| {
            let d = &r.distortion;
            Some((d.interruption_matrix_l1 as f64, d.reference_attempts as f64))
        })
        .collect();
    let attempts: Vec<Option<(f64, f64)>> = recordings
        .iter()
        .map(|r| {
            let d = &r.distortion;
            let err = d.hypothesis_attempts as f64 - d.reference_attempts as f64;
            Some((err, d.reference_attempts as f64))
        })
        .collect();
    TotalDistortion {
        recordings: recordings.len(),
        relative_count_error,
        interruption_count_error: ratio_of_sums(&attempts, ev),
        interruption_matrix_relative: ratio_of_sums(&matrix, ev),
        talk_share_pp: mean(|d| d.talk_share_pp),
        floor_share_pp: mean(|d| d.floor_share_pp),
        fto_w1_ms: mean(|d| d.fto_w1_ms),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wasserstein_is_the_area_between_the_cdfs() {
        assert_eq!(wasserstein1(&[], &[1]), None);
        assert_eq!(wasserstein1(&[-200, 0, 200], &[-200, 0, 200]), Some(0.0));
        // Shift by 100 ms: W1 = 100.
        assert_eq!(wasserstein1(&[-200, 0, 200], &[-100, 100, 300]), Some(100.0));
        // Sizes 2 and 3: CDFs 1/2 vs 1/3 on [0, 100), 1/2 vs 2/3 on [100, 200).
        let w = wasserstein1(&[0, 200], &[0, 100, 200]).unwrap();
        assert!((w - (100.0 / 6.0 + 100.0 / 6.0)).abs() < 1e-12);
    }

    #[test]
    fn one_recording_has_no_interval_and_the_seed_fixes_it() {
        let ev = EventOptions::default();
        let one = ratio_of_sums(&[Some((1.0, 4.0))], &ev);
        assert_eq!(one, Aggregate { value: Some(0.25), low: None, high: None });
        let items = [Some((1.0, 4.0)), Some((-2.0, 4.0)), Some((0.0, 2.0)), None];
        let a = ratio_of_sums(&items, &ev);
        assert_eq!(a, ratio_of_sums(&items, &ev));
        assert_eq!(a.value, Some(-0.1));
        assert!(a.low.unwrap() <= -0.1 && a.high.unwrap() >= -0.1);
    }
}
