//! Frames on the 10 ms analysis grid, their energy, and turning frame scores into speech
//! segments (binarization with hysteresis and minimum durations).
//!
//! ## The grid
//!
//! Frame `t` stands for the time cell `[t · 10 ms, (t + 1) · 10 ms)` of the 16 kHz signal. Its
//! energy is measured over a 25 ms window centred on the middle of the cell, so a frame's value
//! describes its own cell and not the one before:
//!
//! ```text
//! samples  |----|----|----|----|----|      (cells of 160 samples = 10 ms)
//! frame 2            [====╪====)           window of 400 samples centred on cell 2's middle
//! ```
//!
//! ## Binarization
//!
//! ```text
//! score    ▁▂▆█▇▃▅█▆▂▁▁▃▁▁▁▇█▂▁
//! onset    ─────────────────────  enter speech at score ≥ onset
//! offset   ─────────────────────  leave speech when score < offset (offset ≤ onset)
//! raw           [██████)    [█)
//! fill gaps < min_silence, then drop runs < min_speech
//! ```
//!
//! Hysteresis keeps a run from flickering when the score hovers near one threshold; closing short
//! gaps keeps a speaker's word-internal pauses inside one segment; dropping short runs removes
//! clicks. Gaps are closed before short runs are dropped, so two short words close together
//! survive as one segment.

use std::sync::Arc;

use overtalk::{Delta, FrameGrid, Region, Rounding, Segment};
use rustfft::{num_complex::Complex, Fft, FftPlanner};

use crate::resample::ANALYSIS_RATE;

/// The analysis grid: frame `t` is `[t · 10 ms, (t + 1) · 10 ms)`.
pub const GRID: FrameGrid = FrameGrid::TEN_MS;
/// Frame hop on the analysis grid, in samples at 16 kHz (160: 10 ms).
pub const HOP: usize = match GRID.samples_per_frame(ANALYSIS_RATE) {
    Some(n) => n,
    None => panic!("the analysis grid holds whole samples"),
};
/// Energy window, in samples at 16 kHz (25 ms).
pub const WINDOW: usize = 400;
/// Cut-off of the high-pass filter applied before measuring energy, in Hz.
pub const HIGH_PASS_HZ: f32 = 150.0;
/// The energy of digital silence, in dB (full scale sine ≈ −3 dB).
pub const SILENCE_DB: f32 = -120.0;

/// Streams 16 kHz samples into per-frame energies in dB relative to full scale.
///
/// A second-order high-pass filter at [`HIGH_PASS_HZ`] runs first: DC offsets, hum, rumble, wind and breath
/// pops on a close-talk microphone sit mostly below it, while speech keeps most of its energy
/// (harmonics and formants) above it.
#[derive(Clone, Debug)]
pub struct EnergyFramer {
    ring: Vec<f32>,
    filled: usize,
    next_frame_end: usize,
    seen: usize,
    hp: HighPass,
    bands: Option<BandAnalyzer>,
}

/// A second-order Butterworth high-pass filter at 16 kHz (direct form I).
#[derive(Clone, Copy, Debug)]
struct HighPass {
    b: [f32; 3],
    a: [f32; 2],
    x: [f32; 2],
    y: [f32; 2],
}

impl HighPass {
    /// Cut-off `hz` at 16 kHz (RBJ cookbook, Q = 1/√2).
    fn new(hz: f32) -> HighPass {
        let w0 = 2.0 * std::f32::consts::PI * hz / 16_000.0;
        let alpha = w0.sin() / std::f32::consts::SQRT_2;
        let cos = w0.cos();
        let a0 = 1.0 + alpha;
        let b0 = (1.0 + cos) / 2.0 / a0;
        HighPass {
            b: [b0, -2.0 * b0, b0],
            a: [-2.0 * cos / a0, (1.0 - alpha) / a0],
            x: [0.0; 2],
            y: [0.0; 2],
        }
    }

    fn run(&mut self, x: f32) -> f32 {
        let y = self.b[0] * x + self.b[1] * self.x[0] + self.b[2] * self.x[1]
            - self.a[0] * self.y[0]
            - self.a[1] * self.y[1];
        self.x = [x, self.x[0]];
        self.y = [y, self.y[0]];
        y
    }
}

const HALF: usize = WINDOW / 2;
const LEAD: usize = HALF - HOP / 2; // zeros before the first sample so frame 0 is centred at 80

impl Default for EnergyFramer {
    fn default() -> Self {
        EnergyFramer::new()
    }
}

impl EnergyFramer {
    /// A framer at the start of a signal.
    pub fn new() -> EnergyFramer {
        EnergyFramer {
            ring: vec![0.0; WINDOW],
            filled: LEAD,
            next_frame_end: WINDOW,
            seen: 0,
            hp: HighPass::new(HIGH_PASS_HZ),
            bands: None,
        }
    }

    /// A framer that also measures the energy of each of the [`BANDS`] frequency bands of
    /// every frame (see [`BandAnalyzer`]), passed to [`push_bands`](EnergyFramer::push_bands).
    pub fn with_bands() -> EnergyFramer {
        EnergyFramer { bands: Some(BandAnalyzer::new()), ..EnergyFramer::new() }
    }

    /// Feeds samples; `emit` receives each completed frame's energy in dB.
    pub fn push(&mut self, samples: &[f32], emit: &mut dyn FnMut(f32)) {
        self.push_bands(samples, &mut |e, _| emit(e));
    }

    /// Feeds samples; `emit` receives each completed frame's energy in dB and its band
    /// energies in dB (empty unless made [`with_bands`](EnergyFramer::with_bands)).
    pub fn push_bands(&mut self, samples: &[f32], emit: &mut dyn FnMut(f32, &[f32])) {
        for &x in samples {
            let y = self.hp.run(x);
            self.ring[self.filled % WINDOW] = y;
            self.filled += 1;
            self.seen += 1;
            if self.filled == self.next_frame_end {
                self.emit_frame(emit);
                self.next_frame_end += HOP;
            }
        }
    }

    fn emit_frame(&mut self, emit: &mut dyn FnMut(f32, &[f32])) {
        let energy = self.energy();
        match &mut self.bands {
            Some(b) => {
                // The ring holds the window with its oldest sample at `filled % WINDOW`.
                let start = self.filled % WINDOW;
                emit(energy, b.analyse(&self.ring[start..], &self.ring[..start]));
            }
            None => emit(energy, &[]),
        }
    }

    /// Emits the frames whose cells have started but whose windows reach past the end, padding
    /// with silence; after this the number of frames is `ceil(samples / 160)`.
    pub fn finish(&mut self, emit: &mut dyn FnMut(f32)) {
        self.finish_bands(&mut |e, _| emit(e));
    }

    /// [`finish`](EnergyFramer::finish) with band energies, as [`push_bands`](EnergyFramer::push_bands).
    pub fn finish_bands(&mut self, emit: &mut dyn FnMut(f32, &[f32])) {
        let frames_needed = self.seen.div_ceil(HOP);
        let mut emitted = (self.next_frame_end - WINDOW) / HOP;
        while emitted < frames_needed {
            while self.filled < self.next_frame_end {
                self.ring[self.filled % WINDOW] = 0.0;
                self.filled += 1;
            }
            self.emit_frame(emit);
            self.next_frame_end += HOP;
            emitted += 1;
        }
    }

    fn energy(&self) -> f32 {
        let sum: f32 = self.ring.iter().map(|v| v * v).sum();
        power_db(sum / WINDOW as f32)
    }
}

/// Mean power → dB, floored at [`SILENCE_DB`].
pub fn power_db(power: f32) -> f32 {
    if power > 1e-12 {
        (10.0 * power.log10()).max(SILENCE_DB)
    } else {
        SILENCE_DB
    }
}

/// Number of frequency bands [`BandAnalyzer`] measures.
pub const BANDS: usize = 24;
/// FFT length of the band analysis (the 25 ms window zero-padded), in samples at 16 kHz.
const FFT_LEN: usize = 512;
/// Lowest and highest band edge, in Hz.
const BAND_LOW_HZ: f32 = 120.0;
const BAND_HIGH_HZ: f32 = 7600.0;

/// Band energies of a 25 ms window: a Hann-windowed 512-point FFT, its power summed over
/// [`BANDS`] bands spaced evenly on the mel scale from 120 Hz to 7.6 kHz (about 60 Hz wide at
/// the bottom, where voices' harmonics are resolved, 1 kHz at the top).
///
/// ```text
/// |X(f)|²  ▁▃█▂▅▁▇▂▁▄▁▃▁▁▂▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁
/// bands    [ ][ ][ ][  ][  ][   ][    ][      ]
/// ```
///
/// Each band's energy is in dB relative to full scale, scaled so that the bands of white noise
/// add up to the frame energy; a band that is nearly empty reads [`SILENCE_DB`].
#[derive(Clone)]
pub struct BandAnalyzer {
    /// A half-length complex FFT: the real window goes in as even + i·odd samples.
    fft: Arc<dyn Fft<f32>>,
    window: Vec<f32>,
    buf: Vec<Complex<f32>>,
    scratch: Vec<Complex<f32>>,
    /// `e^{-2πik/FFT_LEN}` for the split of the half-length transform into the real one.
    twiddle: Vec<Complex<f32>>,
    edges: [usize; BANDS + 1],
    out: [f32; BANDS],
}

impl std::fmt::Debug for BandAnalyzer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BandAnalyzer").field("edges", &self.edges).finish()
    }
}

impl Default for BandAnalyzer {
    fn default() -> Self {
        BandAnalyzer::new()
    }
}

impl BandAnalyzer {
    /// The analyzer (plans the FFT once).
    pub fn new() -> BandAnalyzer {
        let fft = FftPlanner::new().plan_fft_forward(FFT_LEN / 2);
        let scratch = vec![Complex::new(0.0, 0.0); fft.get_inplace_scratch_len()];
        let window: Vec<f32> = (0..WINDOW)
            .map(|n| {
                0.5 - 0.5 * (2.0 * std::f32::consts::PI * (n as f32 + 0.5) / WINDOW as f32).cos()
            })
            .collect();
        let mel = |hz: f32| 2595.0 * (1.0 + hz / 700.0).log10();
        let hz = |m: f32| 700.0 * (10f32.powf(m / 2595.0) - 1.0);
        let (lo, hi) = (mel(BAND_LOW_HZ), mel(BAND_HIGH_HZ));
        let bin_hz = 16_000.0 / FFT_LEN as f32;
        let mut edges = [0usize; BANDS + 1];
        for (b, e) in edges.iter_mut().enumerate() {
            let f = hz(lo + (hi - lo) * b as f32 / BANDS as f32);
            *e = (f / bin_hz).round() as usize;
        }
        // Every band at least one bin wide.
        for b in 1..=BANDS {
            edges[b] = edges[b].max(edges[b - 1] + 1);
        }
        // Within 1..=N/2 (120 Hz to 7.6 kHz is bins 4 to 243 of 256).
        for e in edges.iter_mut() {
            *e = (*e).clamp(1, FFT_LEN / 2);
        }
        let twiddle = (0..=FFT_LEN / 2)
            .map(|k| {
                let a = -2.0 * std::f32::consts::PI * k as f32 / FFT_LEN as f32;
                Complex::new(a.cos(), a.sin())
            })
            .collect();
        BandAnalyzer {
            fft,
            window,
            buf: vec![Complex::new(0.0, 0.0); FFT_LEN / 2],
            scratch,
            twiddle,
            edges,
            out: [SILENCE_DB; BANDS],
        }
    }

    /// Band energies in dB of the window made of `first` followed by `second`
    /// ([`WINDOW`] samples in all).
    pub fn analyse(&mut self, first: &[f32], second: &[f32]) -> &[f32] {
        // Pack the windowed real samples two by two (even → real, odd → imaginary); the zero
        // padding fills the rest.
        let mut x = [0.0f32; WINDOW];
        let (a, b) = x.split_at_mut(first.len().min(WINDOW));
        a.copy_from_slice(&first[..a.len()]);
        let rest = b.len().min(second.len());
        b[..rest].copy_from_slice(&second[..rest]);
        for (v, w) in x.iter_mut().zip(&self.window) {
            *v *= w;
        }
        for (o, pair) in self.buf.iter_mut().zip(x.chunks_exact(2)) {
            *o = Complex::new(pair[0], pair[1]);
        }
        self.buf[WINDOW / 2..].iter_mut().for_each(|o| *o = Complex::new(0.0, 0.0));
        self.fft.process_with_scratch(&mut self.buf, &mut self.scratch);
        // Parseval: Σ_k |X_k|² = N_fft · Σ_n (x_n w_n)²; the window's mean square is 3/8, and
        // the one-sided spectrum counts each bin twice.
        let norm = 2.0 / (FFT_LEN as f32 * WINDOW as f32 * 0.375);
        let half = FFT_LEN / 2;
        let z = &self.buf;
        // X_k = (Z_k + conj Z_{N/2−k}) / 2 − i·e^{−2πik/N} (Z_k − conj Z_{N/2−k}) / 2.
        // Band edges lie within 1..N/2, so no index wraps.
        let bin = |k: usize| -> f32 {
            let a = z[k];
            let b = z[half - k].conj();
            let even = (a + b) * 0.5;
            let odd = (a - b) * Complex::new(0.0, -0.5);
            (even + self.twiddle[k] * odd).norm_sqr()
        };
        for (b, o) in self.out.iter_mut().enumerate() {
            let p: f32 = (self.edges[b]..self.edges[b + 1]).map(bin).sum();
            *o = power_db(p * norm);
        }
        &self.out
    }
}

/// Energies in dB for a whole 16 kHz signal (tests and short clips).
pub fn frame_energies(samples: &[f32]) -> Vec<f32> {
    let mut f = EnergyFramer::new();
    let mut out = Vec::with_capacity(samples.len() / HOP + 2);
    f.push(samples, &mut |e| out.push(e));
    f.finish(&mut |e| out.push(e));
    out
}

/// How frame scores become speech segments. See the module documentation for the picture.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Binarize {
    /// A run of speech starts at a frame whose score is at least this.
    pub onset: f32,
    /// A run of speech continues while the score stays at or above this (≤ `onset`).
    pub offset: f32,
    /// Runs shorter than this are dropped (after gaps are closed).
    pub min_speech: Delta,
    /// Gaps shorter than this between two runs are closed.
    pub min_silence: Delta,
}

impl Default for Binarize {
    /// Onset 0.5, offset 0.35, minimum speech 100 ms, minimum silence 250 ms: the values that
    /// suit probabilities from a voice activity detector (the earshot default threshold is 0.5).
    fn default() -> Binarize {
        Binarize {
            onset: 0.5,
            offset: 0.35,
            min_speech: Delta::from_micros(100_000),
            min_silence: Delta::from_micros(250_000),
        }
    }
}

impl Binarize {
    /// Frame decisions with hysteresis, before the duration rules.
    pub fn hysteresis(&self, scores: impl IntoIterator<Item = f32>) -> Vec<bool> {
        let mut on = false;
        scores
            .into_iter()
            .map(|s| {
                on = if on { s >= self.offset } else { s >= self.onset };
                on
            })
            .collect()
    }

    /// Frame scores at a fixed `hop` → speech region (frame `i` covers `[i·hop, (i+1)·hop)`,
    /// on [`FrameGrid::new(hop)`](FrameGrid::new)).
    pub fn apply(&self, scores: impl IntoIterator<Item = f32>, hop: Delta) -> Region {
        let grid = FrameGrid::new(hop);
        let active = self.hysteresis(scores);
        runs_to_region(&smooth_runs(&active, grid, self.min_speech, self.min_silence), grid)
    }
}

/// Applies the duration rules to frame decisions: close gaps shorter than `min_silence` (never
/// at the very start or end), then drop runs shorter than `min_speech`. Returns the runs as
/// half-open frame ranges.
///
/// ```text
/// in         ██░██████░░░░░░██░░░░█
/// fill <3    █████████░░░░░░██░░░░█
/// drop <2    █████████░░░░░░██░░░░░
/// ```
pub fn smooth_runs(
    active: &[bool],
    grid: FrameGrid,
    min_speech: Delta,
    min_silence: Delta,
) -> Vec<(usize, usize)> {
    // Gaps of fewer than `fill` frames close; runs of fewer than `keep` frames drop.
    let fill = grid.frames_in(min_silence, Rounding::Ceil);
    let keep = grid.frames_in(min_speech, Rounding::Ceil);
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (s, e) in active_runs(active) {
        match runs.last_mut() {
            Some(last) if s - last.1 < fill => last.1 = e,
            _ => runs.push((s, e)),
        }
    }
    runs.retain(|&(s, e)| e - s >= keep);
    runs
}

/// [`smooth_runs`] for one track of several: a gap shorter than `min_silence` is closed unless
/// another track speaks at a frame `t` of it that is `overlap_silence` or more into the gap
/// and another spoke when the gap began (`others(g, t)`, `g` the gap's first frame). Decided
/// frame by frame from the past only, so a causal detector applies the same rule as it goes:
/// its run ends at the first such frame, `overlap_silence` after the last speech at the
/// earliest, instead of `min_silence` after it.
///
/// ```text
/// track     ████████░░░░░░░░░░████      gap of 10 frames, min_silence 14, overlap_silence 6
/// others    ░░░░░░░███████████████      on as the gap begins (frame 8)
///                         ▲ frame 6 of the gap, the others speak: the gap stays open
/// out       ████████░░░░░░░░░░████
/// others    ░░░░░░░░░░██░░░░░░░░░░      they speak only before frame 6 of the gap
/// out       ██████████████████████      closed, as by smooth_runs
/// ```
///
/// Why: a pause within one speaker's utterance is what `min_silence` bridges; a silence while
/// someone else talks is the floor given up (or a backchannel over), and its end can be
/// confirmed sooner. With `overlap_silence` at `min_silence` or more this is `smooth_runs`.
pub fn smooth_runs_in_overlap(
    active: &[bool],
    grid: FrameGrid,
    (min_speech, min_silence, overlap_silence): (Delta, Delta, Delta),
    others: impl Fn(usize, usize) -> bool,
) -> Vec<(usize, usize)> {
    let fill = grid.frames_in(min_silence, Rounding::Ceil);
    let keep = grid.frames_in(min_speech, Rounding::Ceil);
    // Whole frames, as the causal detector counts them.
    let confirm = grid.frames_in(overlap_silence, Rounding::Floor).max(1);
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for (s, e) in active_runs(active) {
        match runs.last_mut() {
            Some(last)
                if s - last.1 < fill && !(last.1 + confirm - 1..s).any(|t| others(last.1, t)) =>
            {
                last.1 = e;
            }
            _ => runs.push((s, e)),
        }
    }
    runs.retain(|&(s, e)| e - s >= keep);
    runs
}

/// Drops the short runs of `active` that can only be chance: a run shorter than `short` that
/// the gap closing of [`smooth_runs`] (gaps under `min_silence` closed) would join to speech on
/// one side only, or on neither, unless it lies within `near` of speech (then it is the edge
/// of that speech's word, not a separate event). Such a run may bridge a pause between two
/// runs; it never lengthens a turn by a whole gap, nor stands alone. Applied until nothing
/// changes: a chain of short runs hanging off the end of a turn goes, one bridging a pause
/// stays.
///
/// Why: after a turn the voice activity detector's probability decays over 150–200 ms, and
/// one noise frame whose bands stand above their noise by chance would otherwise be joined to
/// the turn by the gap closing, a false alarm of the whole gap (on clean tracks, where
/// nothing else goes wrong, most of the error); the same frames inside a pause are what keeps
/// a turn whole.
///
/// ```text
/// in      ███████░░░█░░░░░░░░░░░░░░░██████░░█░░░████░█       (short 2, gaps < 4 close, near 2)
/// out     ███████░░░░░░░░░░░░░░░░░░░██████░░█░░░████░█
///                   ▲ joined on its left only: dropped
///                                             ▲ joined on both sides: kept
///                                                      ▲ within `near` of speech: kept
/// ```
pub fn drop_dangling_runs(
    active: &mut [bool],
    grid: FrameGrid,
    short: Delta,
    near: Delta,
    min_silence: Delta,
) {
    let short = grid.frames_in(short, Rounding::Ceil);
    let near = grid.frames_in(near, Rounding::Ceil);
    let fill = grid.frames_in(min_silence, Rounding::Ceil);
    if short == 0 {
        return;
    }
    let runs: Vec<(usize, usize)> = active_runs(active).collect();
    // A doubly linked list over the runs still kept, and a work list of short runs to check:
    // dropping a run re-checks its short neighbours, so the whole pass is linear.
    let n = runs.len();
    let mut prev: Vec<Option<usize>> = (0..n).map(|i| i.checked_sub(1)).collect();
    let mut next: Vec<Option<usize>> = (0..n).map(|i| (i + 1 < n).then_some(i + 1)).collect();
    let mut kept = vec![true; n];
    let is_short = |i: usize| runs[i].1 - runs[i].0 < short;
    let mut work: Vec<usize> = (0..n).filter(|&i| is_short(i)).collect();
    while let Some(i) = work.pop() {
        if !kept[i] {
            continue;
        }
        let gap_left = prev[i].map(|p| runs[i].0 - runs[p].1);
        let gap_right = next[i].map(|q| runs[q].0 - runs[i].1);
        let within = |gap: Option<usize>, limit: usize| gap.is_some_and(|g| g < limit);
        if (within(gap_left, fill) && within(gap_right, fill))
            || within(gap_left, near)
            || within(gap_right, near)
        {
            continue;
        }
        kept[i] = false;
        active[runs[i].0..runs[i].1].iter_mut().for_each(|a| *a = false);
        if let Some(p) = prev[i] {
            next[p] = next[i];
            if is_short(p) {
                work.push(p);
            }
        }
        if let Some(q) = next[i] {
            prev[q] = prev[i];
            if is_short(q) {
                work.push(q);
            }
        }
    }
}

/// The maximal runs of `true` in `active`, as `[start, end)` frame indices in order.
fn active_runs(active: &[bool]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut t = 0;
    std::iter::from_fn(move || {
        while t < active.len() && !active[t] {
            t += 1;
        }
        let s = t;
        while t < active.len() && active[t] {
            t += 1;
        }
        (t > s).then_some((s, t))
    })
}

/// Frame runs → a region, frame `i` covering `[i·step, (i+1)·step)` of `grid`.
pub fn runs_to_region(runs: &[(usize, usize)], grid: FrameGrid) -> Region {
    Region::from_segments(
        runs.iter().filter_map(|&(s, e)| Segment::new(grid.start_of(s), grid.start_of(e))),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn energy_grid_is_centred_on_cells() {
        // Silence for 100 ms, a full-scale square wave for 100 ms, silence for 100 ms.
        let mut x = vec![0.0f32; 4800];
        for (i, v) in x[1600..3200].iter_mut().enumerate() {
            *v = if (i / 8) % 2 == 0 { 1.0 } else { -1.0 };
        }
        let e = frame_energies(&x);
        assert_eq!(e.len(), 30);
        // Cells 10..20 hold the sound. The centred window of cell 9 reaches 120 samples into
        // cell 10, and cell 20's reaches back as far: the picture is symmetric about the burst.
        // Cells 0..9 are digital silence; after the burst only the DC blocker's tail remains.
        assert!(e[..9].iter().all(|&v| v == SILENCE_DB), "{e:?}");
        assert!(e[21..].iter().all(|&v| v < -40.0), "{e:?}");
        assert!(e[11..19].iter().all(|&v| v > -0.1), "{e:?}");
        assert!(e[9] < e[10] && e[10] < e[11]);
        assert!((e[9] - e[20]).abs() < 0.15 && (e[10] - e[19]).abs() < 0.15, "{e:?}");
    }

    #[test]
    fn bands_find_a_tone_and_add_up_to_the_frame_energy() {
        // A 1343.75 Hz tone (FFT bin 43, mid-band) at amplitude 0.5 (−9 dBFS): nearly all its
        // energy in the band holding it, and the bands add up to the frame energy.
        let tone: Vec<f32> = (0..4800)
            .map(|n| 0.5 * (2.0 * std::f32::consts::PI * 1343.75 * n as f32 / 16_000.0).sin())
            .collect();
        let mut f = EnergyFramer::with_bands();
        let mut frames: Vec<(f32, Vec<f32>)> = Vec::new();
        f.push_bands(&tone, &mut |e, b| frames.push((e, b.to_vec())));
        let (e, bands) = &frames[20];
        assert_eq!(bands.len(), BANDS);
        let a = BandAnalyzer::new();
        let holding = (0..BANDS).find(|&b| a.edges[b] <= 43 && 43 < a.edges[b + 1]).unwrap();
        let total: f32 = bands.iter().map(|d| 10f32.powf(d / 10.0)).sum();
        let own = 10f32.powf(bands[holding] / 10.0);
        assert!(own / total > 0.99, "{bands:?}");
        assert!((10.0 * total.log10() - e).abs() < 0.3, "{} vs {e}", 10.0 * total.log10());
        assert!((e + 9.03).abs() < 0.1, "{e}");
        // A framer without bands passes none.
        let mut plain = EnergyFramer::new();
        plain.push_bands(&tone, &mut |_, b| assert!(b.is_empty()));
    }

    #[test]
    fn frame_count_is_ceil_of_cells() {
        assert_eq!(frame_energies(&[0.0; 161]).len(), 2);
        assert_eq!(frame_energies(&[0.0; 160]).len(), 1);
        assert_eq!(frame_energies(&[0.5]).len(), 1);
        assert_eq!(frame_energies(&[]).len(), 0);
    }

    #[test]
    fn hysteresis_holds_between_thresholds() {
        let b = Binarize { onset: 0.5, offset: 0.3, ..Binarize::default() };
        let got = b.hysteresis([0.4, 0.6, 0.4, 0.31, 0.29, 0.4, 0.5]);
        assert_eq!(got, [false, true, true, true, false, false, true]);
    }

    #[test]
    fn short_runs_only_bridge_or_touch_speech() {
        let ms = |v: i64| Delta::from_micros(v * 1000);
        let parse = |s: &str| s.chars().map(|c| c == '#').collect::<Vec<bool>>();
        let show = |a: &[bool]| a.iter().map(|&b| if b { '#' } else { '.' }).collect::<String>();
        let run = |s: &str, short: i64, near: i64, silence: i64| {
            let mut a = parse(s);
            drop_dangling_runs(&mut a, GRID, ms(short), ms(near), ms(silence));
            show(&a)
        };
        // The picture in the doc comment.
        assert_eq!(
            run("#######...#...............######..#...####.#", 20, 20, 40),
            "#######...................######..#...####.#"
        );
        // A chain hanging off a turn goes from its far end; a chain inside a pause stays.
        assert_eq!(
            run("####..#..#..........####..#..#..####", 20, 0, 30),
            "####................####..#..#..####"
        );
        // Alone: nothing to bridge. Off: nothing dropped.
        assert_eq!(run("..#..", 20, 0, 400), ".....");
        assert_eq!(run("##..#", 0, 0, 400), "##..#");
        // A run as long as `short` is not short.
        assert_eq!(run("####....##", 20, 0, 400), "####....##");
    }

    #[test]
    fn a_gap_while_another_track_speaks_stays_open() {
        let ms = |v: i64| Delta::from_micros(v * 1000);
        let parse = |s: &str| s.chars().map(|c| c == '#').collect::<Vec<bool>>();
        let run = |track: &str, others: &str| {
            let others = parse(others);
            smooth_runs_in_overlap(&parse(track), GRID, (ms(0), ms(140), ms(60)), |_, t| others[t])
        };
        // The picture in the doc comment: frame 6 of the gap is frame 13.
        let track = "########..........####";
        assert_eq!(run(track, "............##########"), [(0, 8), (18, 22)]);
        assert_eq!(run(track, "..........##.........."), [(0, 22)]);
        // The others speak at frame 6 of the gap only (frame 13): confirmed; at frame 5 only,
        // too soon.
        assert_eq!(run(track, ".............#........"), [(0, 8), (18, 22)]);
        assert_eq!(run(track, "............#........."), [(0, 22)]);
        // A gap of `min_silence` or more stays open whatever the others do.
        assert_eq!(run("##..............##", ".................."), [(0, 2), (16, 18)]);
        // At `min_silence`, the rule is smooth_runs's.
        let plain = |a: &[bool]| smooth_runs(a, GRID, ms(0), ms(140));
        let t = parse(track);
        let all = vec![true; t.len()];
        assert_eq!(
            smooth_runs_in_overlap(&t, GRID, (ms(0), ms(140), ms(140)), |_, f| all[f]),
            plain(&t)
        );
    }

    #[test]
    fn gaps_close_before_short_runs_drop() {
        let a: Vec<bool> = "██░██████░░░░░░██░░░░█".chars().map(|c| c == '█').collect();
        let grid = FrameGrid::new(Delta::from_micros(10));
        let runs = smooth_runs(&a, grid, Delta::from_micros(20), Delta::from_micros(30));
        assert_eq!(runs, [(0, 9), (15, 17)]);
        let region = runs_to_region(&runs, grid);
        assert_eq!(region.duration(), Delta::from_micros(110));
    }

    #[test]
    fn apply_gives_exact_times() {
        let b = Binarize {
            onset: 0.5,
            offset: 0.5,
            min_speech: Delta::from_micros(30_000),
            min_silence: Delta::from_micros(20_000),
        };
        let scores = [0.0, 0.9, 0.9, 0.0, 0.9, 0.0, 0.0, 0.9, 0.0];
        let r = b.apply(scores, GRID.step());
        let segs: Vec<_> = r.iter().map(|s| (s.start().micros(), s.end().micros())).collect();
        assert_eq!(segs, [(10_000, 50_000)]);
    }
}
