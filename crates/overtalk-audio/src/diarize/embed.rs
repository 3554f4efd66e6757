//! Speaker embeddings: the GE2E encoder (Resemblyzer's weights) run in pure Rust.
//!
//! Front end (as Resemblyzer): 16 kHz signal → 25 ms periodic Hann window (400 samples), 10 ms
//! hop, zero-padded centring → power spectrum → 40 Slaney-scale, area-normalised mel bands
//! (mel *power*, not log). Network: 3 stacked LSTM layers of 256 units over a 160-frame
//! (1.6 s) window → the last hidden state → Linear(256) → ReLU → L2 normalisation.
//!
//! ```text
//! samples ─► |STFT|² ─► mel(40) ─► [160 frames] ─► LSTM ─► LSTM ─► LSTM ─► h_T ─► Linear ─► ReLU ─► ‖·‖
//! ```
//!
//! Windows are embedded in batches: the input projections of a layer are one matrix product over
//! all frames of the batch, and each time step is one `[batch × 256] · [256 × 1024]` product.

use ndarray::{linalg::general_mat_mul, Array2, ArrayView2, Axis, Slice};
use overtalk::error::ModelProblem;
use overtalk::{Error, Result};
use rustfft::{num_complex::Complex, FftPlanner};

use super::tensors::{read_safetensors_file, Tensor};

/// Samples per STFT window (25 ms at 16 kHz).
pub const N_FFT: usize = 400;
/// Samples per frame hop: the analysis grid's 10 ms ([`crate::frames::HOP`]).
pub const HOP: usize = crate::frames::HOP;
/// Mel bands.
pub const N_MELS: usize = 40;
/// Frames per embedding window (1.6 s).
pub const WINDOW_FRAMES: usize = 160;
/// Embedding dimension.
pub const DIM: usize = 256;
const HIDDEN: usize = 256;

/// Computes Resemblyzer's 40-band mel power frames of a 16 kHz signal.
pub struct MelFrontEnd {
    window: Vec<f32>,
    filters: Vec<Vec<(usize, f32)>>,
    fft: std::sync::Arc<dyn rustfft::Fft<f32>>,
}

impl std::fmt::Debug for MelFrontEnd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MelFrontEnd").finish()
    }
}

impl Default for MelFrontEnd {
    fn default() -> Self {
        MelFrontEnd::new()
    }
}

fn hz_to_mel(f: f64) -> f64 {
    // Slaney: linear below 1 kHz, logarithmic above.
    let f_sp = 200.0 / 3.0;
    let logstep = 6.4f64.ln() / 27.0;
    if f < 1000.0 {
        f / f_sp
    } else {
        1000.0 / f_sp + (f / 1000.0).ln() / logstep
    }
}

fn mel_to_hz(m: f64) -> f64 {
    let f_sp = 200.0 / 3.0;
    let logstep = 6.4f64.ln() / 27.0;
    let min_log_mel = 1000.0 / f_sp;
    if m < min_log_mel {
        m * f_sp
    } else {
        1000.0 * (logstep * (m - min_log_mel)).exp()
    }
}

impl MelFrontEnd {
    /// The front end at 16 kHz.
    pub fn new() -> MelFrontEnd {
        let window = (0..N_FFT)
            .map(|n| {
                (0.5 - 0.5 * (2.0 * std::f64::consts::PI * n as f64 / N_FFT as f64).cos()) as f32
            })
            .collect();
        let bins = N_FFT / 2 + 1;
        let (lo, hi) = (hz_to_mel(0.0), hz_to_mel(8000.0));
        let mel_f: Vec<f64> = (0..N_MELS + 2)
            .map(|i| mel_to_hz(lo + (hi - lo) * i as f64 / (N_MELS + 1) as f64))
            .collect();
        let mut filters = Vec::with_capacity(N_MELS);
        for i in 0..N_MELS {
            let enorm = 2.0 / (mel_f[i + 2] - mel_f[i]);
            let mut row = Vec::new();
            for k in 0..bins {
                let f = k as f64 * 16_000.0 / N_FFT as f64;
                let lower = (f - mel_f[i]) / (mel_f[i + 1] - mel_f[i]);
                let upper = (mel_f[i + 2] - f) / (mel_f[i + 2] - mel_f[i + 1]);
                let w = lower.min(upper).max(0.0) * enorm;
                if w > 0.0 {
                    row.push((k, w as f32));
                }
            }
            filters.push(row);
        }
        let fft = FftPlanner::new().plan_fft_forward(N_FFT);
        MelFrontEnd { window, filters, fft }
    }

    /// Mel frames of a whole signal: `1 + len / HOP` frames of [`N_MELS`] values, row-major.
    pub fn frames(&self, samples: &[f32]) -> Vec<[f32; N_MELS]> {
        let n = 1 + samples.len() / HOP;
        let pad = N_FFT / 2;
        let mut out = Vec::with_capacity(n);
        let mut buf = [Complex::new(0.0f32, 0.0); N_FFT];
        let mut scratch = vec![Complex::new(0.0f32, 0.0); self.fft.get_inplace_scratch_len()];
        let mut x = [0.0f32; N_FFT];
        for t in 0..n {
            let start = (t * HOP) as isize - pad as isize;
            for (j, v) in x.iter_mut().enumerate() {
                let i = start + j as isize;
                let s = if i >= 0 { samples.get(i as usize).copied().unwrap_or(0.0) } else { 0.0 };
                *v = if s.is_finite() { s } else { 0.0 };
            }
            out.push(self.frame(&x, &mut buf, &mut scratch));
        }
        out
    }

    /// The mel power of one frame of [`N_FFT`] samples.
    fn frame(
        &self,
        x: &[f32],
        buf: &mut [Complex<f32>; N_FFT],
        scratch: &mut [Complex<f32>],
    ) -> [f32; N_MELS] {
        for ((b, &s), w) in buf.iter_mut().zip(x).zip(&self.window) {
            *b = Complex::new(s * w, 0.0);
        }
        self.fft.process_with_scratch(buf, scratch);
        let mut power = [0.0f32; N_FFT / 2 + 1];
        for (p, c) in power.iter_mut().zip(buf.iter()) {
            *p = c.norm_sqr();
        }
        let mut m = [0.0f32; N_MELS];
        for (v, row) in m.iter_mut().zip(&self.filters) {
            *v = row.iter().map(|&(k, w)| w * power[k]).sum();
        }
        m
    }
}

/// [`MelFrontEnd::frames`] computed block by block, with Resemblyzer's loudness normalisation
/// applied at the end.
///
/// The normalisation scales the whole signal by one gain `g` chosen from its overall RMS, and
/// mel power is quadratic in the signal, so `mel(g·x) = g²·mel(x)`: the frames of the raw
/// signal are kept and multiplied by `g²` once the RMS is known. Only the mel frames are
/// retained (40 values per 10 ms), never the signal.
///
/// ```text
/// samples  ──push──► [200 zeros | x0 x1 x2 …]      (zero-padded centring)
/// frame t            └── samples t·160−200 … t·160+199 ──┘
/// finish   ──► pad with zeros until 1 + len/160 frames, then × g²
/// ```
#[derive(Debug)]
pub struct MelStream {
    front: MelFrontEnd,
    /// Pending samples; `buf[0]` is sample `next_frame·HOP − N_FFT/2`.
    buf: Vec<f32>,
    next_frame: usize,
    samples: u64,
    sum_sq: f64,
}

impl Default for MelStream {
    fn default() -> Self {
        MelStream::new()
    }
}

impl MelStream {
    /// An empty stream.
    pub fn new() -> MelStream {
        MelStream {
            front: MelFrontEnd::new(),
            buf: vec![0.0; N_FFT / 2],
            next_frame: 0,
            samples: 0,
            sum_sq: 0.0,
        }
    }

    /// Feeds samples; completed frames are appended to `out` (flat, [`N_MELS`] per frame).
    pub fn push(&mut self, samples: &[f32], out: &mut Vec<f32>) {
        for &x in samples {
            let x = if x.is_finite() { x } else { 0.0 };
            self.sum_sq += f64::from(x) * f64::from(x);
            self.buf.push(x);
        }
        self.samples += samples.len() as u64;
        self.drain(out);
    }

    fn drain(&mut self, out: &mut Vec<f32>) {
        let mut start = 0;
        let mut buf = [Complex::new(0.0f32, 0.0); N_FFT];
        let mut scratch = vec![Complex::new(0.0f32, 0.0); self.front.fft.get_inplace_scratch_len()];
        while start + N_FFT <= self.buf.len() {
            out.extend_from_slice(&self.front.frame(
                &self.buf[start..start + N_FFT],
                &mut buf,
                &mut scratch,
            ));
            start += HOP;
            self.next_frame += 1;
        }
        self.buf.drain(..start);
    }

    /// Completes the last frames (`1 + len / HOP` in all) and applies the loudness gain to
    /// every frame in `out`.
    pub fn finish(&mut self, out: &mut Vec<f32>) {
        let total = 1 + (self.samples / HOP as u64) as usize;
        while self.next_frame < total {
            let need = N_FFT.saturating_sub(self.buf.len()).max(1);
            self.buf.extend(std::iter::repeat_n(0.0, need));
            self.drain(out);
        }
        out.truncate(total * N_MELS);
        let g = loudness_gain(self.sum_sq, self.samples);
        if g != 1.0 {
            let g2 = g * g;
            out.iter_mut().for_each(|v| *v *= g2);
        }
    }
}

/// The gain of Resemblyzer's loudness normalisation for a signal with this sum of squares:
/// up to −30 dBFS RMS, never down.
pub fn loudness_gain(sum_sq: f64, samples: u64) -> f32 {
    let ms = sum_sq / samples.max(1) as f64;
    if ms <= 0.0 || !ms.is_finite() {
        return 1.0;
    }
    let change_db = -30.0 - 10.0 * ms.log10();
    if change_db > 0.0 {
        10f64.powf(change_db / 20.0) as f32
    } else {
        1.0
    }
}

/// Resemblyzer's loudness normalisation: scales the signal up (never down) to −30 dBFS RMS.
pub fn normalize_volume(samples: &mut [f32]) {
    let ss = samples.iter().map(|&x| f64::from(x) * f64::from(x)).sum::<f64>();
    let g = loudness_gain(ss, samples.len() as u64);
    if g != 1.0 {
        samples.iter_mut().for_each(|x| *x *= g);
    }
}

struct Layer {
    /// `[in, 4·256]`: the transpose of torch's `weight_ih`, gate order i, f, g, o.
    w_ih_t: Array2<f32>,
    /// `[256, 4·256]`.
    w_hh_t: Array2<f32>,
    /// `bias_ih + bias_hh`, `[4·256]`.
    bias: Vec<f32>,
}

/// The GE2E weights, validated.
pub struct Ge2eWeights {
    layers: Vec<Layer>,
    /// `[256, 256]` transposed linear weight.
    lin_t: Array2<f32>,
    lin_b: Vec<f32>,
}

impl std::fmt::Debug for Ge2eWeights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ge2eWeights").field("layers", &self.layers.len()).finish()
    }
}

fn find<'a>(t: &'a [Tensor], name: &str, shape: &[usize]) -> Result<&'a Tensor> {
    let x = t.iter().find(|x| x.name == name).ok_or_else(|| {
        Error::model(ModelProblem::Missing, format!("GE2E model: tensor {name} is missing"))
    })?;
    if x.shape != shape || x.data.len() != shape.iter().product::<usize>() {
        return Err(Error::model(
            ModelProblem::Shape,
            format!("GE2E model: tensor {name} has shape {:?}, expected {shape:?}", x.shape),
        ));
    }
    if x.data.iter().any(|v| !v.is_finite()) {
        return Err(Error::model(
            ModelProblem::Malformed,
            format!("GE2E model: tensor {name} holds non-finite values"),
        ));
    }
    Ok(x)
}

fn transposed(t: &Tensor) -> Array2<f32> {
    let (r, c) = (t.shape[0], t.shape[1]);
    let a = ArrayView2::from_shape((r, c), &t.data).map(|v| v.t().to_owned());
    a.unwrap_or_else(|_| Array2::zeros((c, r)))
}

impl Ge2eWeights {
    /// Validates and arranges the tensors (`lstm.{weight,bias}_{ih,hh}_l{0,1,2}`,
    /// `linear.{weight,bias}`) of a GE2E state dict.
    pub fn from_tensors(t: &[Tensor]) -> Result<Ge2eWeights> {
        let mut layers = Vec::new();
        for l in 0..3 {
            let input = if l == 0 { N_MELS } else { HIDDEN };
            let wi = find(t, &format!("lstm.weight_ih_l{l}"), &[4 * HIDDEN, input])?;
            let wh = find(t, &format!("lstm.weight_hh_l{l}"), &[4 * HIDDEN, HIDDEN])?;
            let bi = find(t, &format!("lstm.bias_ih_l{l}"), &[4 * HIDDEN])?;
            let bh = find(t, &format!("lstm.bias_hh_l{l}"), &[4 * HIDDEN])?;
            layers.push(Layer {
                w_ih_t: transposed(wi),
                w_hh_t: transposed(wh),
                bias: bi.data.iter().zip(&bh.data).map(|(a, b)| a + b).collect(),
            });
        }
        let lw = find(t, "linear.weight", &[DIM, HIDDEN])?;
        let lb = find(t, "linear.bias", &[DIM])?;
        Ok(Ge2eWeights { layers, lin_t: transposed(lw), lin_b: lb.data.clone() })
    }

    /// Loads a converted model file (safetensors).
    pub fn load(path: &std::path::Path) -> Result<Ge2eWeights> {
        let t = read_safetensors_file(path)?;
        Ge2eWeights::from_tensors(&t).map_err(|e| e.with_path(path))
    }

    /// Embeds a batch of windows, each [`WINDOW_FRAMES`] mel frames long. Returns one
    /// L2-normalised [`DIM`]-vector per window (all zeros if the network output is zero).
    pub fn embed(&self, windows: &[&[[f32; N_MELS]]]) -> Vec<Vec<f32>> {
        let flat: Vec<&[f32]> = windows.iter().map(|w| w.as_flattened()).collect();
        self.embed_flat(&flat)
    }

    /// [`embed`](Ge2eWeights::embed) on flat windows (`N_MELS` values per frame, frame after
    /// frame). Windows of unequal length are cut to the shortest.
    pub fn embed_flat(&self, windows: &[&[f32]]) -> Vec<Vec<f32>> {
        let b = windows.len();
        if b == 0 {
            return Vec::new();
        }
        let t_len = windows.iter().map(|w| w.len() / N_MELS).min().unwrap_or(0);
        if t_len == 0 {
            return vec![vec![0.0; DIM]; b];
        }
        // Time-major input: row (t·b + i) is frame t of window i.
        let mut x = Array2::<f32>::zeros((t_len * b, N_MELS));
        for t in 0..t_len {
            for (i, w) in windows.iter().enumerate() {
                x.row_mut(t * b + i)
                    .iter_mut()
                    .zip(&w[t * N_MELS..(t + 1) * N_MELS])
                    .for_each(|(d, v)| *d = *v);
            }
        }
        let mut h = Array2::<f32>::zeros((b, HIDDEN));
        let mut c = vec![0.0f32; b * HIDDEN];
        let mut g = Array2::<f32>::zeros((b, 4 * HIDDEN));
        for layer in &self.layers {
            let mut pre = Array2::<f32>::zeros((t_len * b, 4 * HIDDEN));
            general_mat_mul(1.0, &x, &layer.w_ih_t, 0.0, &mut pre);
            for mut row in pre.axis_iter_mut(Axis(0)) {
                row.iter_mut().zip(&layer.bias).for_each(|(v, b)| *v += b);
            }
            let mut out = Array2::<f32>::zeros((t_len * b, HIDDEN));
            h.fill(0.0);
            c.fill(0.0);
            for t in 0..t_len {
                g.assign(&pre.slice_axis(Axis(0), Slice::from(t * b..(t + 1) * b)));
                general_mat_mul(1.0, &h, &layer.w_hh_t, 1.0, &mut g);
                for ((gr, mut hr), cr) in
                    g.axis_iter(Axis(0)).zip(h.axis_iter_mut(Axis(0))).zip(c.chunks_mut(HIDDEN))
                {
                    let (Some(gr), Some(hr)) = (gr.as_slice(), hr.as_slice_mut()) else {
                        continue;
                    };
                    let (gi, rest) = gr.split_at(HIDDEN);
                    let (gf, rest) = rest.split_at(HIDDEN);
                    let (gg, go) = rest.split_at(HIDDEN);
                    let gates = gi.iter().zip(gf).zip(gg).zip(go);
                    for ((cv, hv), (((&i, &f), &g), &o)) in cr.iter_mut().zip(hr).zip(gates) {
                        let c = sigmoid(f) * *cv + sigmoid(i) * tanh(g);
                        *cv = c;
                        *hv = sigmoid(o) * tanh(c);
                    }
                }
                out.slice_axis_mut(Axis(0), Slice::from(t * b..(t + 1) * b)).assign(&h);
            }
            x = out;
        }
        let mut e = Array2::<f32>::zeros((b, DIM));
        general_mat_mul(1.0, &h, &self.lin_t, 0.0, &mut e);
        e.axis_iter(Axis(0))
            .map(|row| {
                let v: Vec<f32> =
                    row.iter().zip(&self.lin_b).map(|(a, b)| (a + b).max(0.0)).collect();
                normalized(v)
            })
            .collect()
    }
}

/// `e^x` to about 2e-7 relative error, branch-free so that the gate loop vectorises: the
/// exponent goes into the float's exponent bits, and `2^f` for `f ∈ [−½, ½]` is a degree-6
/// Taylor polynomial (remainder below `(½·ln 2)^7 / 7! ≈ 1.2e-7`).
#[inline(always)]
fn exp_approx(x: f32) -> f32 {
    const ROUND: f32 = 12_582_912.0; // 1.5 · 2^23: adding and subtracting it rounds to an integer
    let t = x.clamp(-86.0, 86.0) * std::f32::consts::LOG2_E;
    let n = (t + ROUND) - ROUND;
    let f = (t - n) * std::f32::consts::LN_2;
    let p = 1.0
        + f * (1.0
            + f * (0.5
                + f * (1.0 / 6.0 + f * (1.0 / 24.0 + f * (1.0 / 120.0 + f * (1.0 / 720.0))))));
    p * f32::from_bits(((n as i32 + 127) as u32) << 23)
}

#[inline(always)]
fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + exp_approx(-x))
}

#[inline(always)]
fn tanh(x: f32) -> f32 {
    2.0 / (1.0 + exp_approx(-2.0 * x)) - 1.0
}

/// `v / ‖v‖` (unchanged if the norm is zero or not finite).
pub fn normalized(mut v: Vec<f32>) -> Vec<f32> {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 && n.is_finite() {
        v.iter_mut().for_each(|x| *x /= n);
    }
    v
}

/// Cosine similarity of two vectors (0 when either is zero).
pub fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let (mut d, mut na, mut nb) = (0.0f32, 0.0f32, 0.0f32);
    for (x, y) in a.iter().zip(b) {
        d += x * y;
        na += x * x;
        nb += y * y;
    }
    if na > 0.0 && nb > 0.0 {
        d / (na.sqrt() * nb.sqrt())
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mel_filters_match_librosa_slaney_edges() {
        // Band 0 spans 0–147 Hz with its peak at 73.6 Hz (1.10 mel): bins 1–3 (40, 80, 120 Hz).
        let m = MelFrontEnd::new();
        assert_eq!(m.filters.len(), N_MELS);
        assert_eq!(m.filters[0].iter().map(|x| x.0).collect::<Vec<_>>(), vec![1, 2, 3]);
        assert!((hz_to_mel(1000.0) - 15.0).abs() < 1e-12);
        assert!((mel_to_hz(hz_to_mel(3000.0)) - 3000.0).abs() < 1e-9);
    }

    #[test]
    fn frame_count_and_silence() {
        let m = MelFrontEnd::new();
        let f = m.frames(&vec![0.0; 16_000]);
        assert_eq!(f.len(), 101);
        assert!(f.iter().all(|r| r.iter().all(|&v| v == 0.0)));
    }

    #[test]
    fn streamed_frames_match_the_whole_signal_normalised() {
        // A quiet chirp (so the loudness gain is applied), 1.234 s, fed in odd block sizes.
        let x: Vec<f32> =
            (0..19_744).map(|i| 0.003 * ((i as f32) * (0.01 + i as f32 * 2e-6)).sin()).collect();
        let mut y = x.clone();
        normalize_volume(&mut y);
        let whole = MelFrontEnd::new().frames(&y);
        for block in [1usize, 159, 160, 401, 20_000] {
            let mut s = MelStream::new();
            let mut out = Vec::new();
            for c in x.chunks(block) {
                s.push(c, &mut out);
            }
            s.finish(&mut out);
            assert_eq!(out.len(), whole.len() * N_MELS, "block {block}");
            for (a, b) in out.iter().zip(whole.as_flattened()) {
                assert!((a - b).abs() <= 1e-4 * b.abs().max(1e-3), "block {block}: {a} vs {b}");
            }
        }
        // Empty input: one frame of zeros.
        let mut s = MelStream::new();
        let mut out = Vec::new();
        s.finish(&mut out);
        assert_eq!(out, vec![0.0; N_MELS]);
    }

    #[test]
    fn activations_match_the_standard_library() {
        let mut worst = (0.0f32, 0.0f32, 0.0f32);
        for i in -4000..=4000 {
            let x = i as f32 * 0.01;
            let e = (exp_approx(x) - x.exp()).abs() / x.exp();
            let s = (sigmoid(x) - 1.0 / (1.0 + (-x).exp())).abs();
            let t = (tanh(x) - x.tanh()).abs();
            worst = (worst.0.max(e), worst.1.max(s), worst.2.max(t));
        }
        // exp: relative error grows with |x| because x·log₂e is rounded to f32 (4e-6 ulp at 40).
        assert!(worst.0 < 3e-6 && worst.1 < 2e-7 && worst.2 < 3e-7, "{worst:?}");
        assert!(sigmoid(-200.0) < 1e-37);
        assert_eq!((sigmoid(200.0), tanh(-200.0), tanh(200.0)), (1.0, -1.0, 1.0));
    }

    #[test]
    fn wrong_shapes_are_named() {
        let t =
            vec![Tensor { name: "lstm.weight_ih_l0".into(), shape: vec![3], data: vec![0.0; 3] }];
        let e = Ge2eWeights::from_tensors(&t).unwrap_err().to_string();
        assert!(e.contains("lstm.weight_ih_l0") && e.contains("[1024, 40]"), "{e}");
        let e = Ge2eWeights::from_tensors(&[]).unwrap_err().to_string();
        assert!(e.contains("missing"), "{e}");
    }
}
