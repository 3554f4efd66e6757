//! One microphone per speaker: who is talking on each track, with the other speakers' bleed
//! rejected, overlaps kept.
//!
//! ## The rule
//!
//! Every 10 ms frame `t`, with `E_i` the energy of mic `i` in dB and `P_i` its power:
//!
//! ```text
//! floor_i      = 2nd percentile of E_i over the recording          (the mic's own noise)
//! c_ij         = median of P_i / P_j over frames where mic j is     (how much of speaker j
//!                the loudest and 20 dB above its floor                leaks into mic i)
//! S            = the source powers solving P = C·S, S ≥ 0          (C: 1 on the diagonal,
//!                                                                     c_ij elsewhere)
//! bleed_i(t)   = Σ_{j≠i} c_ij · S_j(t)                             (what mic i hears of
//!                                                                     the others)
//! speaking_i(t) ⇔  E_i(t) ≥ floor_i + above_floor_db
//!              ∧  10·log10(S_i(t) / bleed_i(t)) ≥ above_bleed_db
//!              ∧  the voice activity detector hears speech on mic i near t
//! ```
//!
//! The couplings are re-estimated every 10 s (`coupling_block`) when the block has enough
//! frames where each speaker dominates, so a gain turned up mid-recording is followed; the
//! whole recording's estimate fills in otherwise. The bleed predicted from a speaker fades by
//! at most `bleed_decay_db` per frame after they stop, so the reverberation tail of their voice
//! in a roomy recording is not taken for the listener's speech.
//!
//! Unmixing matters when levels differ: a quiet speaker overlapping a loud one is, on their own
//! mic, quieter than the loud one's bleed; their own power `S_i` still stands out from the
//! bleed the couplings predict.
//!
//! The couplings `c_ij` are estimated from the recording itself, so unequal speaker levels,
//! unequal mic gains and bleed anywhere from −40 to −6 dB are handled without tuning. The
//! thresholds have hysteresis (a run starts at the `_on` margins and continues down to the
//! `_off` margins), then gaps shorter than `min_silence` are closed and runs shorter than
//! `min_speech` dropped, per track. Tracks are decided independently, so two people talking at
//! once both come out: overlap is preserved.
//!
//! ```text
//! mic A   ▁▁▇█▇▇▃▃▃▁▁▁▃▃▃▁       (A speaks, then B's bleed at −15 dB)
//! mic B   ▁▁▂▂▂▂▇█▇█▁▁▇█▇▁
//! bleed_A ▁▁▁▁▁▁▃▃▃▃▁▁▃▃▃▁       predicted from B with c_AB
//! A         [████)               B's bleed on A is at its prediction, so it is rejected
//! B               [██)   [██)
//! ```
//!
//! The voice-activity conditions reject loud non-speech sounds on a speaker's own mic (breath,
//! handling noise, coughs, a door): frame by frame, the detector must hear speech within
//! `vad_dilate` (so word edges are not clipped); and a whole run, once short gaps are closed, is
//! kept only if the detector is confident (`vad_peak`, 0.85) on at least `vad_peak_frames` (3) of
//! its frames. On a close-talk mic the detector is confident on its own speaker's words and
//! rarely on the bleed or on noise, which is what the run test relies on.

use overtalk::{Annotation, AnnotationBuilder, Delta, Error, Region, Result};

use crate::features::TrackFeatures;
use crate::frames::{runs_to_region, smooth_runs, HOP_DELTA};

/// Thresholds of the multitrack rule (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MultitrackOptions {
    /// A run starts when a mic is this far above its own noise floor (dB).
    pub above_floor_on_db: f32,
    /// A run continues while a mic stays this far above its noise floor (dB).
    pub above_floor_off_db: f32,
    /// A run starts when a mic is this far above the bleed predicted from the others (dB).
    pub above_bleed_on_db: f32,
    /// A run continues while a mic stays this far above the predicted bleed (dB).
    pub above_bleed_off_db: f32,
    /// Percentile of a mic's frame energies taken as its noise floor (0–100).
    pub floor_percentile: f32,
    /// Frames used to estimate coupling `c_ij`: mic `j` loudest and this far above its floor.
    pub coupling_min_db: f32,
    /// Require the voice activity detector (when one ran) to hear speech near the frame.
    pub use_vad: bool,
    /// The speech probability the voice activity detector must reach.
    pub vad_threshold: f32,
    /// How far around a frame the voice activity detector may hear the speech.
    pub vad_dilate: Delta,
    /// A run (before gap closing) is dropped when the detector's mean speech probability over
    /// it is below this (0 switches the test off).
    pub vad_run_mean: f32,
    /// A run (after gap closing) is kept only if at least this many of its 10 ms frames reach
    /// [`vad_peak`](MultitrackOptions::vad_peak) (0 switches the test off).
    pub vad_peak_frames: usize,
    /// The confident speech probability that [`vad_peak_frames`](MultitrackOptions::vad_peak_frames)
    /// counts.
    pub vad_peak: f32,
    /// Couplings are re-estimated over blocks of this many 10 ms frames (falling back to the
    /// whole recording's when a block has too few frames where a speaker dominates).
    pub coupling_block: usize,
    /// Frames where a speaker dominates that a block needs before its own coupling estimate is
    /// trusted over the whole recording's.
    pub coupling_block_min: usize,
    /// The bleed predicted from a speaker may fade by at most this many dB per 10 ms frame,
    /// so reverberation tails of another speaker are not taken for speech.
    pub bleed_decay_db: f32,
    /// Compare each speaker's estimated own power (the mic powers unmixed with the couplings)
    /// with the bleed, instead of the raw mic power.
    pub unmix: bool,
    /// Runs shorter than this are dropped.
    pub min_speech: Delta,
    /// Gaps shorter than this within a track are closed.
    pub min_silence: Delta,
}

impl Default for MultitrackOptions {
    /// Chosen on the synthetic suite (`bench/make_synth.sh`) and the AMI ES2004a headsets; see
    /// BENCHMARKS.md for what they give.
    fn default() -> MultitrackOptions {
        MultitrackOptions {
            above_floor_on_db: 8.0,
            above_floor_off_db: 5.0,
            above_bleed_on_db: 3.0,
            above_bleed_off_db: 0.0,
            floor_percentile: 2.0,
            coupling_min_db: 20.0,
            use_vad: true,
            vad_threshold: 0.5,
            vad_dilate: Delta(100_000),
            vad_run_mean: 0.0,
            unmix: true,
            coupling_block: 1000,
            coupling_block_min: 50,
            bleed_decay_db: 1.5,
            vad_peak_frames: 3,
            vad_peak: 0.85,
            min_speech: Delta(100_000),
            min_silence: Delta(250_000),
        }
    }
}

/// What the detector estimated about the recording (for reports and debugging).
#[derive(Clone, Debug, PartialEq)]
pub struct MultitrackReport {
    /// Noise floor per track, dBFS.
    pub floors_db: Vec<f32>,
    /// `coupling_db[i][j]`: level of speaker `j` in mic `i` relative to mic `j`, in dB
    /// (`None` when speaker `j` never clearly spoke, and on the diagonal).
    pub coupling_db: Vec<Vec<Option<f32>>>,
}

/// Speech per track, in track order, plus what was estimated.
pub fn detect_regions(
    tracks: &[TrackFeatures],
    options: &MultitrackOptions,
) -> Result<(Vec<Region>, MultitrackReport)> {
    if tracks.is_empty() {
        return Err(Error::invalid("no tracks to analyse"));
    }
    let k = tracks.len();
    let n = tracks.iter().map(TrackFeatures::frames).min().unwrap_or(0);
    let db = |i: usize, t: usize| tracks[i].energy_db(t);
    let floors: Vec<f32> = tracks
        .iter()
        .map(|tr| percentile_cdb(&tr.energy_cdb[..n], options.floor_percentile))
        .collect();

    // Couplings from frames where mic j clearly dominates: over the whole recording (reported,
    // and the fallback), and per block so gain changes mid-recording are followed.
    let dominant = |t: usize| -> Option<(usize, f32)> {
        let (j, ej) =
            (0..k).map(|j| (j, db(j, t))).fold((0, f32::MIN), |a, b| if b.1 > a.1 { b } else { a });
        (ej >= floors[j] + options.coupling_min_db).then_some((j, ej))
    };
    let mut coupling_db = vec![vec![None; k]; k];
    let mut coupling = vec![vec![0.0f32; k]; k];
    if k > 1 {
        let mut hists = vec![vec![Hist::new(); k]; k];
        for t in 0..n {
            let Some((j, ej)) = dominant(t) else { continue };
            for (i, row) in hists.iter_mut().enumerate() {
                if i != j {
                    row[j].add(db(i, t) - ej);
                }
            }
        }
        for i in 0..k {
            for j in 0..k {
                if i != j && hists[i][j].count >= 20 {
                    let m = hists[i][j].median();
                    coupling_db[i][j] = Some(m);
                    coupling[i][j] = 10f32.powf(m / 10.0);
                }
            }
        }
    }
    let block = options.coupling_block.max(1);
    let blocks = n.div_ceil(block);
    let mut block_coupling: Vec<Vec<Vec<f32>>> = Vec::with_capacity(blocks);
    let mut diffs: Vec<Vec<Vec<f32>>> = vec![vec![Vec::new(); k]; k];
    for b in 0..blocks {
        diffs.iter_mut().flatten().for_each(Vec::clear);
        for t in b * block..((b + 1) * block).min(n) {
            let Some((j, ej)) = dominant(t) else { continue };
            for (i, row) in diffs.iter_mut().enumerate() {
                if i != j {
                    row[j].push(db(i, t) - ej);
                }
            }
        }
        let mut c = coupling.clone();
        for i in 0..k {
            for j in 0..k {
                let d = &mut diffs[i][j];
                if i != j && d.len() >= options.coupling_block_min {
                    let mid = (d.len() - 1) / 2; // the lower median, as Hist::median
                    let (_, m, _) = d.select_nth_unstable_by(mid, f32::total_cmp);
                    c[i][j] = 10f32.powf(*m / 10.0);
                }
            }
        }
        block_coupling.push(c);
    }
    // How fast the bleed a mic hears may die away (reverberation), per 10 ms frame.
    let tail = 10f32.powf(-options.bleed_decay_db / 10.0);

    let dilate = (options.vad_dilate.0.max(0) / HOP_DELTA.0) as usize;
    // Voice activity near each frame (dilated), per track.
    let mut vad_ok = vec![vec![true; n]; k];
    let mut has_vad = vec![false; k];
    for i in 0..k {
        has_vad[i] = options.use_vad && !tracks[i].vad.is_empty();
        if !has_vad[i] {
            continue;
        }
        let ok = &mut vad_ok[i];
        let mut last_speech: Option<usize> = None;
        for (t, o) in ok.iter_mut().enumerate() {
            if tracks[i].vad_at(t) >= options.vad_threshold {
                last_speech = Some(t);
            }
            *o = last_speech.is_some_and(|s| t - s <= dilate);
        }
        let mut next_speech: Option<usize> = None;
        for t in (0..n).rev() {
            if tracks[i].vad_at(t) >= options.vad_threshold {
                next_speech = Some(t);
            }
            if next_speech.is_some_and(|s| s - t <= dilate) {
                ok[t] = true;
            }
        }
    }

    let mut active = vec![vec![false; n]; k];
    let mut on = vec![false; k];
    let mut power = vec![0.0f32; k];
    let mut source = vec![0.0f32; k];
    let mut envelope = vec![0.0f32; k];
    for t in 0..n {
        let coupling = &block_coupling[t / block];
        for (j, p) in power.iter_mut().enumerate() {
            *p = 10f32.powf(db(j, t) / 10.0);
        }
        if options.unmix && k > 1 {
            // Source powers S from mic powers P = C·S (C has 1 on the diagonal and the
            // couplings elsewhere), by a few Gauss–Seidel sweeps with S ≥ 0.
            source.copy_from_slice(&power);
            for _ in 0..4 {
                for i in 0..k {
                    let leak: f32 =
                        (0..k).filter(|&j| j != i).map(|j| coupling[i][j] * source[j]).sum();
                    source[i] = (power[i] - leak).max(0.0);
                }
            }
        } else {
            source.copy_from_slice(&power);
        }
        for (e, &s) in envelope.iter_mut().zip(&source) {
            *e = s.max(*e * tail);
        }
        for i in 0..k {
            let bleed: f32 = (0..k).filter(|&j| j != i).map(|j| coupling[i][j] * envelope[j]).sum();
            let own = if options.unmix { source[i] } else { power[i] };
            let above_bleed =
                if bleed > 1e-12 { 10.0 * (own.max(1e-12) / bleed).log10() } else { 120.0 };
            let above_floor = db(i, t) - floors[i];
            on[i] = if on[i] {
                above_floor >= options.above_floor_off_db
                    && above_bleed >= options.above_bleed_off_db
            } else {
                above_floor >= options.above_floor_on_db && above_bleed >= options.above_bleed_on_db
            };
            active[i][t] = on[i] && vad_ok[i][t];
        }
    }

    let mut regions = Vec::with_capacity(k);
    for (i, active) in active.iter_mut().enumerate() {
        if has_vad[i] && options.vad_run_mean > 0.0 {
            let mut t = 0;
            while t < n {
                if !active[t] {
                    t += 1;
                    continue;
                }
                let s = t;
                let mut sum = 0.0f32;
                while t < n && active[t] {
                    sum += tracks[i].vad_at(t);
                    t += 1;
                }
                if sum / ((t - s) as f32) < options.vad_run_mean {
                    active[s..t].iter_mut().for_each(|a| *a = false);
                }
            }
        }
        let mut runs = smooth_runs(active, HOP_DELTA, options.min_speech, options.min_silence);
        if has_vad[i] && options.vad_peak_frames > 0 {
            // Keep a run only if the detector is confident somewhere inside it.
            runs.retain(|&(s, e)| {
                (s..e).filter(|&t| tracks[i].vad_at(t) >= options.vad_peak).count()
                    >= options.vad_peak_frames
            });
        }
        regions.push(runs_to_region(&runs, HOP_DELTA));
    }
    Ok((regions, MultitrackReport { floors_db: floors, coupling_db }))
}

/// Speech per track as an annotation labelled with the track names; overlaps are kept.
pub fn detect(
    tracks: &[TrackFeatures],
    options: &MultitrackOptions,
) -> Result<(Annotation, MultitrackReport)> {
    let (regions, report) = detect_regions(tracks, options)?;
    Ok((annotation_from_regions(tracks.iter().map(|t| t.name.as_str()).zip(regions)), report))
}

/// An annotation from one region per named speaker (speakers without speech are kept).
pub fn annotation_from_regions<'a>(
    per_speaker: impl IntoIterator<Item = (&'a str, Region)>,
) -> Annotation {
    let mut b = AnnotationBuilder::new();
    for (name, region) in per_speaker {
        let id = b.speaker(name);
        for s in region.iter() {
            b.push(*s, id);
        }
    }
    b.build()
}

/// A histogram of dB values in 0.1 dB bins from −150 to +150 dB, for medians without storing
/// every frame.
#[derive(Clone, Debug)]
struct Hist {
    bins: Vec<u32>,
    count: u64,
}

const HIST_MIN: f32 = -150.0;
const HIST_BINS: usize = 3001;

impl Hist {
    fn new() -> Hist {
        Hist { bins: vec![0; HIST_BINS], count: 0 }
    }

    fn add(&mut self, v: f32) {
        let b = ((v - HIST_MIN) * 10.0).round().clamp(0.0, (HIST_BINS - 1) as f32) as usize;
        self.bins[b] += 1;
        self.count += 1;
    }

    fn quantile(&self, q: f32) -> f32 {
        let target = ((self.count as f64) * f64::from(q) - 1e-6).ceil().max(1.0) as u64;
        let mut acc = 0u64;
        for (b, &c) in self.bins.iter().enumerate() {
            acc += u64::from(c);
            if acc >= target {
                return HIST_MIN + b as f32 / 10.0;
            }
        }
        HIST_MIN
    }

    fn median(&self) -> f32 {
        self.quantile(0.5)
    }
}

/// The `p`-th percentile of energies stored in 0.01 dB.
fn percentile_cdb(values: &[i16], p: f32) -> f32 {
    let mut h = Hist::new();
    for &v in values {
        h.add(f32::from(v) / 100.0);
    }
    if h.count == 0 {
        return -120.0;
    }
    h.quantile(p / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn features(name: &str, energy_db: &[f32]) -> TrackFeatures {
        TrackFeatures {
            name: name.into(),
            energy_cdb: energy_db.iter().map(|e| (e * 100.0) as i16).collect(),
            vad: Vec::new(),
            vad_hop: Delta::ZERO,
            samples: energy_db.len() as u64 * 160,
        }
    }

    #[test]
    fn histogram_quantiles() {
        let mut h = Hist::new();
        for v in [-10.0, -20.0, -30.0, -40.0, -50.0] {
            h.add(v);
        }
        assert_eq!(h.median(), -30.0);
        assert_eq!(h.quantile(0.2), -50.0);
    }

    #[test]
    fn bleed_is_rejected_and_overlap_kept() {
        // 3 s at 10 ms: A speaks 0.5–1.5 s, B speaks 1.0–2.5 s; each mic hears the other at
        // −12 dB; noise floor −70 dB.
        let n = 300;
        let (mut a, mut b) = (vec![-70.0f32; n], vec![-70.0f32; n]);
        for t in 0..n {
            let sa = (50..150).contains(&t);
            let sb = (100..250).contains(&t);
            let pa = if sa { 10f32.powf(-2.0) } else { 0.0 };
            let pb = if sb { 10f32.powf(-2.5) } else { 0.0 };
            let noise = 10f32.powf(-7.0);
            a[t] = 10.0 * (pa + pb * 10f32.powf(-1.2) + noise).log10();
            b[t] = 10.0 * (pb + pa * 10f32.powf(-1.2) + noise).log10();
        }
        let tracks = [features("A", &a), features("B", &b)];
        let (ann, report) = detect(&tracks, &MultitrackOptions::default()).unwrap();
        let c = report.coupling_db[0][1].unwrap();
        assert!((c + 12.0).abs() < 0.6, "{c}");
        let got: Vec<_> = ann
            .tracks()
            .iter()
            .map(|t| (ann.speaker_name(t.speaker), t.segment.start().0, t.segment.end().0))
            .collect();
        assert_eq!(got, [("A", 500_000, 1_500_000), ("B", 1_000_000, 2_500_000)]);
        assert_eq!(ann.overlap().duration(), Delta(500_000));
    }
}
