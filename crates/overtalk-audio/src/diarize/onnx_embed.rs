//! Speaker embeddings from a user-supplied ONNX model (feature `onnx`), run by tract.
//!
//! Two interfaces are accepted; which one a file follows is read from the rank of its first
//! input:
//!
//! | interface | input 0 | output 0 |
//! | --- | --- | --- |
//! | waveform | float32 `[B, S]`: `B` windows of `S` samples of 16 kHz mono audio in [−1, 1] | float32 `[B, D]` |
//! | fbank (WeSpeaker exports) | float32 `[B, T, 80]`: 80-bin Kaldi log-mel filterbanks (below), mean-normalised over each window | float32 `[B, D]` |
//!
//! `B`, `S` and `T` must be free in the file; `D` (the embedding size) is read from a trial run.
//! The model has exactly one input and one output. Embeddings are returned as the model gives
//! them (not normalised).
//!
//! The fbank features are Kaldi's (`compute-fbank-feats`, as `torchaudio.compliance.kaldi.fbank`
//! and kaldi-native-fbank compute them with WeSpeaker's settings): samples scaled to 16-bit range
//! (× 32768), 25 ms frames every 10 ms (`snip_edges`: only whole frames), DC offset removed,
//! pre-emphasis 0.97, Povey window, 512-point FFT, power spectrum, 80 triangular mel bins from
//! 20 Hz to 8 kHz, natural log (floored at `f32::EPSILON`), no dither. Each window's features
//! then have their mean over time subtracted (cepstral mean normalisation), as WeSpeaker does.
//!
//! ```text
//! window (16 kHz) ─► frames 400 samples, hop 160 ─► −DC, pre-emphasis, Povey, |FFT₅₁₂|²
//!                 ─► 80 mel bins ─► ln ─► − mean over frames ─► [T, 80] ─► model ─► [D]
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;

use overtalk::error::ModelProblem;
use overtalk::{Error, Result};
use rustfft::{num_complex::Complex, Fft, FftPlanner};

use crate::vad::onnx::{self, Dim, InputSpec, OnnxPlan};

/// Windows passed to the model per call.
const BATCH: usize = 32;
/// Kaldi frame length (25 ms at 16 kHz).
pub const FBANK_FRAME: usize = 400;
/// Kaldi frame shift: the analysis grid's 10 ms at 16 kHz ([`crate::frames::HOP`]).
pub const FBANK_HOP: usize = crate::frames::HOP;
/// Mel bins of the fbank interface.
pub const FBANK_BINS: usize = 80;
const FBANK_FFT: usize = 512;
/// Longest window accepted, in samples (60 s), to bound memory.
pub const MAX_WINDOW: usize = 60 * 16_000;

/// What a model takes as input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbeddingInput {
    /// `[B, S]` samples at 16 kHz.
    Waveform,
    /// `[B, T, 80]` Kaldi log-mel filterbanks, mean-normalised per window.
    Fbank,
}

/// A speaker-embedding model loaded from an ONNX file (see the module docs for the interface).
pub struct OnnxEmbedder {
    plan: OnnxPlan,
    input: EmbeddingInput,
    dim: usize,
    fbank: Option<Arc<Fbank>>,
    source: PathBuf,
}

impl std::fmt::Debug for OnnxEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OnnxEmbedder")
            .field("input", &self.input)
            .field("dim", &self.dim)
            .field("source", &self.source)
            .finish()
    }
}

impl OnnxEmbedder {
    /// Loads and checks a model file.
    pub fn load(path: &Path) -> Result<OnnxEmbedder> {
        let bytes = onnx::read_model(path)?;
        let mut m = OnnxEmbedder::from_bytes(&bytes).map_err(|e| e.with_path(path))?;
        m.source = path.to_path_buf();
        Ok(m)
    }

    /// Loads and checks a model held in memory.
    pub fn from_bytes(bytes: &[u8]) -> Result<OnnxEmbedder> {
        const WHAT: &str = "speaker-embedding model";
        let (rank, last) = onnx::first_input_shape(bytes)?;
        let (input, spec) = match (rank, last) {
            (Some(2), _) => (
                EmbeddingInput::Waveform,
                InputSpec { name: "waveform", dims: vec![Dim::Free("B"), Dim::Free("S")] },
            ),
            (Some(3), Some(80) | None) => (
                EmbeddingInput::Fbank,
                InputSpec {
                    name: "fbank",
                    dims: vec![Dim::Free("B"), Dim::Free("T"), Dim::Fixed(FBANK_BINS)],
                },
            ),
            (r, l) => {
                let shown = match (r, l) {
                    (None, _) => "an open shape".to_string(),
                    (Some(r), Some(l)) => format!("rank {r} (last dimension {l})"),
                    (Some(r), None) => format!("rank {r}"),
                };
                return Err(Error::model(
                    ModelProblem::Shape,
                    format!(
                        "not a usable {WHAT}: input 0 has {shown}; expected waveform [B, S] or \
                     fbank [B, T, 80]"
                    ),
                ));
            }
        };
        let plan = onnx::load(bytes, &[spec], 1, WHAT)?;
        let fbank = (input == EmbeddingInput::Fbank).then(|| Arc::new(Fbank::new()));
        let mut m = OnnxEmbedder { plan, input, dim: 0, fbank, source: PathBuf::new() };
        // Trial: two 1-second windows (a tone and noise-like samples).
        let a: Vec<f32> = (0..16_000).map(|i| 0.3 * (i as f32 * 0.07).sin()).collect();
        let b: Vec<f32> = (0..16_000u32)
            .map(|i| ((i.wrapping_mul(2_654_435_761) >> 16) as f32 / 65_536.0 - 0.5) * 0.2)
            .collect();
        let out = m.run(&[&a, &b])?;
        let dim = out.first().map_or(0, Vec::len);
        if dim == 0 {
            return Err(Error::model(
                ModelProblem::Malformed,
                format!("not a usable {WHAT}: empty embeddings"),
            ));
        }
        if out.iter().flatten().any(|v| !v.is_finite()) {
            return Err(Error::model(
                ModelProblem::Malformed,
                format!("not a usable {WHAT}: non-finite embedding values on a trial run"),
            ));
        }
        m.dim = dim;
        Ok(m)
    }

    /// Which interface the file follows.
    pub fn input(&self) -> EmbeddingInput {
        self.input
    }

    /// The embedding size `D`.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The file the model came from (empty when loaded from memory).
    pub fn source(&self) -> &Path {
        &self.source
    }

    /// One embedding per window (16 kHz mono samples; windows of the same length are batched
    /// together). Non-finite samples count as silence. Windows must be at least 25 ms long for
    /// an fbank model and at most [`MAX_WINDOW`] samples.
    pub fn embed(&self, windows: &[&[f32]]) -> Result<Vec<Vec<f32>>> {
        let mut out = vec![Vec::new(); windows.len()];
        // Group windows of equal length, keeping their positions.
        let mut order: Vec<usize> = (0..windows.len()).collect();
        order.sort_by_key(|&i| windows[i].len());
        for group in order.chunk_by(|&a, &b| windows[a].len() == windows[b].len()) {
            for batch in group.chunks(BATCH) {
                let ws: Vec<&[f32]> = batch.iter().map(|&i| windows[i]).collect();
                for (&i, e) in batch.iter().zip(self.run(&ws)?) {
                    out[i] = e;
                }
            }
        }
        if self.dim > 0 {
            if let Some(e) = out.iter().find(|e| e.len() != self.dim) {
                return Err(Error::model(
                    ModelProblem::Shape,
                    format!("the embedding model returned {} values, not {}", e.len(), self.dim),
                ));
            }
        }
        Ok(out)
    }

    /// Runs windows of one length in one call.
    fn run(&self, windows: &[&[f32]]) -> Result<Vec<Vec<f32>>> {
        let b = windows.len();
        let len = windows.first().map_or(0, |w| w.len());
        if b == 0 {
            return Ok(Vec::new());
        }
        if len > MAX_WINDOW {
            return Err(Error::limit(format!("window of {len} samples (at most {MAX_WINDOW})")));
        }
        let clean = |s: f32| if s.is_finite() { s.clamp(-1.0, 1.0) } else { 0.0 };
        let (shape, data) = match &self.fbank {
            None => {
                if len == 0 {
                    return Err(Error::invalid("empty window"));
                }
                (vec![b, len], windows.iter().flat_map(|w| w.iter().map(|&s| clean(s))).collect())
            }
            Some(fb) => {
                let t = fbank_frames(len);
                if t == 0 {
                    return Err(Error::invalid(format!(
                        "window of {len} samples is shorter than one 25 ms frame"
                    )));
                }
                let mut data = Vec::with_capacity(b * t * FBANK_BINS);
                for w in windows {
                    let x: Vec<f32> = w.iter().map(|&s| clean(s)).collect();
                    data.extend(fb.compute(&x, true));
                }
                (vec![b, t, FBANK_BINS], data)
            }
        };
        let outs = self.plan.run(&[(&shape[..], &data[..])])?;
        let o = outs.first().ok_or_else(|| {
            Error::model(ModelProblem::Malformed, "the embedding model returned nothing")
        })?;
        if o.shape.len() != 2 || o.shape[0] != b {
            return Err(Error::model(
                ModelProblem::Shape,
                format!(
                "not a usable speaker-embedding model: output 0 has shape {:?} for {b} windows, \
                 expected [{b}, D]",
                o.shape
            ),
            ));
        }
        Ok(o.data.chunks(o.shape[1].max(1)).map(<[f32]>::to_vec).collect())
    }
}

/// Number of whole 25 ms frames (hop 10 ms) in `n` samples.
pub fn fbank_frames(n: usize) -> usize {
    if n < FBANK_FRAME {
        0
    } else {
        1 + (n - FBANK_FRAME) / FBANK_HOP
    }
}

/// Kaldi-compatible 80-bin log-mel filterbank features at 16 kHz (see the module docs).
pub struct Fbank {
    fft: Arc<dyn Fft<f32>>,
    window: Vec<f32>,
    /// Per mel bin: first FFT bin and its weights.
    bins: Vec<(usize, Vec<f32>)>,
}

impl std::fmt::Debug for Fbank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Fbank")
    }
}

impl Default for Fbank {
    fn default() -> Self {
        Fbank::new()
    }
}

fn mel(f: f64) -> f64 {
    1127.0 * (1.0 + f / 700.0).ln()
}

impl Fbank {
    /// The filterbank, window and FFT plan.
    pub fn new() -> Fbank {
        let n = FBANK_FRAME as f64;
        let window = (0..FBANK_FRAME)
            .map(|i| {
                let hann = 0.5 - 0.5 * (2.0 * std::f64::consts::PI * i as f64 / (n - 1.0)).cos();
                hann.powf(0.85) as f32
            })
            .collect();
        // Kaldi's MelBanks: bins equally spaced on the mel scale between 20 Hz and Nyquist,
        // weights computed at each FFT bin's centre frequency (the Nyquist bin is not used).
        let (lo, hi) = (mel(20.0), mel(8000.0));
        let delta = (hi - lo) / (FBANK_BINS + 1) as f64;
        let width = 16_000.0 / FBANK_FFT as f64;
        let bins = (0..FBANK_BINS)
            .map(|b| {
                let left = lo + b as f64 * delta;
                let centre = left + delta;
                let right = centre + delta;
                let mut first = None;
                let mut w = Vec::new();
                for k in 0..FBANK_FFT / 2 {
                    let m = mel(width * k as f64);
                    if m > left && m < right {
                        let v = if m <= centre {
                            (m - left) / (centre - left)
                        } else {
                            (right - m) / (right - centre)
                        };
                        first.get_or_insert(k);
                        w.push(v as f32);
                    }
                }
                (first.unwrap_or(0), w)
            })
            .collect();
        Fbank { fft: FftPlanner::new().plan_fft_forward(FBANK_FFT), window, bins }
    }

    /// Features of `samples` (in [−1, 1]) as `[T, 80]` row-major, `T` = [`fbank_frames`];
    /// `cmn` subtracts each bin's mean over the frames.
    pub fn compute(&self, samples: &[f32], cmn: bool) -> Vec<f32> {
        let t = fbank_frames(samples.len());
        let mut out = Vec::with_capacity(t * FBANK_BINS);
        let mut frame = vec![0.0f32; FBANK_FRAME];
        let mut spec = vec![Complex::new(0.0f32, 0.0); FBANK_FFT];
        let mut power = vec![0.0f32; FBANK_FFT / 2 + 1];
        for i in 0..t {
            let src = &samples[i * FBANK_HOP..i * FBANK_HOP + FBANK_FRAME];
            for (d, s) in frame.iter_mut().zip(src) {
                *d = s * 32_768.0;
            }
            let mean = frame.iter().sum::<f32>() / FBANK_FRAME as f32;
            for v in frame.iter_mut() {
                *v -= mean;
            }
            for k in (1..FBANK_FRAME).rev() {
                frame[k] -= 0.97 * frame[k - 1];
            }
            frame[0] -= 0.97 * frame[0];
            for (k, c) in spec.iter_mut().enumerate() {
                let v = if k < FBANK_FRAME { frame[k] * self.window[k] } else { 0.0 };
                *c = Complex::new(v, 0.0);
            }
            self.fft.process(&mut spec);
            for (p, c) in power.iter_mut().zip(&spec) {
                *p = c.norm_sqr();
            }
            for (first, w) in &self.bins {
                let e: f32 = w.iter().zip(&power[*first..]).map(|(a, b)| a * b).sum();
                out.push(e.max(f32::EPSILON).ln());
            }
        }
        if cmn && t > 0 {
            for b in 0..FBANK_BINS {
                let m = (0..t).map(|i| out[i * FBANK_BINS + b]).sum::<f32>() / t as f32;
                for i in 0..t {
                    out[i * FBANK_BINS + b] -= m;
                }
            }
        }
        out
    }
}

/// Raw 16 kHz samples as front-end "frames" of one 10 ms hop (160 values each), so that a
/// window of frames is a window of waveform, which is what [`OnnxEmbedder`] takes.
///
/// ```text
/// samples  |0 ........ 159|160 ...... 319|320 ...... 479| … |last partial hop, zero-padded|
/// frames   |    frame 0   |    frame 1   |    frame 2   | … |  frame ⌊samples/160⌋        |
/// ```
///
/// There are `1 + samples / 160` frames, as for every front end. Keeping raw samples costs
/// 64 kB per second of audio (230 MB per hour), four times the GE2E mel frames.
#[derive(Debug, Default)]
pub struct SampleFrames {
    pending: Vec<f32>,
    samples: u64,
}

impl super::features::FrontEnd for SampleFrames {
    fn dim(&self) -> usize {
        FBANK_HOP
    }
    fn push(&mut self, samples: &[f32], out: &mut Vec<f32>) {
        self.samples += samples.len() as u64;
        let clean = |s: &f32| if s.is_finite() { *s } else { 0.0 };
        if self.pending.is_empty() {
            let whole = samples.len() / FBANK_HOP * FBANK_HOP;
            out.extend(samples[..whole].iter().map(clean));
            self.pending.extend(samples[whole..].iter().map(clean));
            return;
        }
        self.pending.extend(samples.iter().map(clean));
        let whole = self.pending.len() / FBANK_HOP * FBANK_HOP;
        out.extend(self.pending.drain(..whole));
    }
    fn finish(&mut self, out: &mut Vec<f32>) {
        let total = (1 + self.samples / FBANK_HOP as u64) as usize * FBANK_HOP;
        out.append(&mut self.pending);
        out.resize(total, 0.0);
    }
}

impl super::windows::WindowEmbedder for OnnxEmbedder {
    fn name(&self) -> String {
        let kind = match self.input {
            EmbeddingInput::Waveform => "waveform",
            EmbeddingInput::Fbank => "fbank",
        };
        format!("ONNX {kind} model {} ({}-dimensional)", self.source.display(), self.dim)
    }
    fn front_end(&self) -> Box<dyn super::features::FrontEnd> {
        Box::new(SampleFrames::default())
    }
    fn window_frames(&self) -> usize {
        super::embed::WINDOW_FRAMES
    }
    fn embed(&self, windows: &[&[f32]]) -> Result<Vec<Vec<f32>>> {
        OnnxEmbedder::embed(self, windows)
    }
}
