//! Voice activity detection: one [`Vad`] trait, several backends, one behavioural test suite.
//!
//! A backend turns fixed-size frames of 16 kHz mono audio into speech probabilities in
//! `[0, 1]`. [`VadRunner`] feeds it a stream of any block size, and [`speech_region`] turns a
//! whole signal into speech segments with [`Binarize`].
//!
//! | backend | what it is | speed (this machine) |
//! | --- | --- | --- |
//! | [`EarshotVad`] (default) | earshot's small neural network, 16 ms frames, weights built in | ≈1300× real time |
//! | [`EnergyVad`] | adaptive noise floor + energy margin, 10 ms frames; no model | ≫ 1000× real time |
//! | `SileroVad` (feature `onnx`) | Silero VAD v6 (an installed model file) through tract, 32 ms frames, batched | ≈590× real time |
//!
//! earshot's output depends on the recording's level (its features are not mean-normalised),
//! so [`VadRunner`] raises a quiet recording to the level earshot was made for before it
//! listens ([`LevelGain`], [`Vad::level_target_db`]): the same speech gives the same segments
//! whether it peaks at −6 or at −46 dBFS.
//!
//! Every backend passes the same behavioural suite (`vad_suite!` in the tests): silence and
//! stationary noise are not speech, speech-like bursts are, onsets and offsets land within a
//! frame or two of the truth, and probabilities stay in `[0, 1]` for any input, NaN included.

mod earshot_vad;
mod energy;
pub mod level;
#[cfg(feature = "onnx")]
pub(crate) mod onnx;
#[cfg(feature = "onnx")]
pub mod silero;

pub use earshot_vad::EarshotVad;
pub use energy::EnergyVad;
pub use level::LevelGain;
#[cfg(feature = "onnx")]
pub use silero::SileroVad;

use overtalk::{Delta, Region};

use crate::frames::Binarize;

/// A voice activity detector over fixed-size frames of 16 kHz mono audio.
pub trait Vad: Send {
    /// A short stable name (`earshot`, `energy`).
    fn name(&self) -> &'static str;
    /// Frame length in samples at 16 kHz.
    fn frame_samples(&self) -> usize;
    /// The probability that a frame (exactly [`frame_samples`](Vad::frame_samples) long)
    /// contains speech, in `[0, 1]`.
    fn predict(&mut self, frame: &[f32]) -> f32;
    /// Forgets all state (a new signal starts).
    fn reset(&mut self);
    /// How many frames the detector prefers to score per [`predict_many`](Vad::predict_many)
    /// call (1: no batching). Neural backends amortise their per-call cost over a batch.
    fn batch_frames(&self) -> usize {
        1
    }
    /// Scores consecutive frames (`frames.len()` a multiple of
    /// [`frame_samples`](Vad::frame_samples)) and appends one probability per frame to `out`:
    /// exactly what calling [`predict`](Vad::predict) on each frame in order would give.
    fn predict_many(&mut self, frames: &[f32], out: &mut Vec<f32>) {
        let n = self.frame_samples();
        for f in frames.chunks_exact(n) {
            out.push(self.predict(f));
        }
    }
    /// The level (dBFS, mean power of the loudest second) the detector expects, when its
    /// output depends on the recording's level: [`VadRunner`] then raises a quieter recording
    /// to it ([`LevelGain`]). `None` (the default): the detector takes the samples as they are.
    fn level_target_db(&self) -> Option<f32> {
        None
    }
    /// The frame hop as a duration.
    fn hop(&self) -> Delta {
        Delta::from_micros(
            self.frame_samples() as i64 * 1_000_000 / crate::resample::ANALYSIS_RATE as i64,
        )
    }
}

/// The backends that can be chosen by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VadKind {
    /// [`EarshotVad`].
    #[default]
    Earshot,
    /// [`EnergyVad`].
    Energy,
    /// `SileroVad`: Silero VAD v6 from `overtalk models install silero`, or the model given to
    /// `silero::use_model` (e.g. with `--vad-model FILE.onnx`).
    #[cfg(feature = "onnx")]
    Silero,
}

impl VadKind {
    /// Every backend.
    #[cfg(not(feature = "onnx"))]
    pub const ALL: [VadKind; 2] = [VadKind::Earshot, VadKind::Energy];
    /// Every backend.
    #[cfg(feature = "onnx")]
    pub const ALL: [VadKind; 3] = [VadKind::Earshot, VadKind::Energy, VadKind::Silero];

    /// A fresh detector.
    ///
    /// This cannot fail: if the Silero model cannot be loaded, the detector it returns finds no
    /// speech. Call [`try_build`](VadKind::try_build) first to get the reason instead.
    pub fn build(self) -> Box<dyn Vad> {
        match self {
            VadKind::Earshot => Box::new(EarshotVad::new()),
            VadKind::Energy => Box::new(EnergyVad::new()),
            #[cfg(feature = "onnx")]
            VadKind::Silero => Box::new(SileroVad::shared()),
        }
    }

    /// A fresh detector, or why it cannot be had (the Silero model is not installed, or the
    /// chosen model file is unusable).
    pub fn try_build(self) -> overtalk::Result<Box<dyn Vad>> {
        #[cfg(feature = "onnx")]
        if self == VadKind::Silero {
            return Ok(Box::new(SileroVad::new(silero::shared_model()?)));
        }
        Ok(self.build())
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            VadKind::Earshot => "earshot",
            VadKind::Energy => "energy",
            #[cfg(feature = "onnx")]
            VadKind::Silero => "silero",
        }
    }
}

/// How to get the neural detector when this build lacks it.
pub const ONNX_FEATURE_HINT: &str = "this overtalk was built without the `onnx` feature; \
     rebuild with `cargo install --path crates/overtalk-cli --features onnx` \
     (or `cargo build --release --features onnx`)";

impl std::fmt::Display for VadKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for VadKind {
    type Err = String;
    fn from_str(s: &str) -> Result<VadKind, String> {
        if let Some(k) = VadKind::ALL.into_iter().find(|k| k.name().eq_ignore_ascii_case(s)) {
            return Ok(k);
        }
        if cfg!(not(feature = "onnx")) && s.eq_ignore_ascii_case("silero") {
            return Err(format!(
                "the silero voice activity detector is not available: {ONNX_FEATURE_HINT}"
            ));
        }
        let names: Vec<&str> = VadKind::ALL.iter().map(|k| k.name()).collect();
        Err(format!("unknown voice activity detector {s:?} ({})", names.join(", ")))
    }
}

/// The largest gain [`VadRunner`] gives a quiet recording: 50 dB, enough to bring speech
/// peaking at −46 dBFS (its loudest second near −57 dBFS) to the detector's level.
pub const MAX_LEVEL_GAIN_DB: f32 = 50.0;

/// How far [`VadRunner`] looks ahead to set a quiet recording's gain: 20 s (1.3 MB of samples
/// per detector, held only while the recording stays below the detector's level).
pub const LEVEL_LOOKAHEAD_SAMPLES: usize = 20 * crate::resample::ANALYSIS_RATE as usize;

/// Feeds a stream of any block size to a [`Vad`] frame by frame, in batches of
/// [`Vad::batch_frames`] frames (so at most one batch of samples is held).
///
/// A detector whose output depends on the level ([`Vad::level_target_db`]) gets the samples
/// through a [`LevelGain`]: a quiet recording is raised to the detector's level, so the same
/// speech gives the same probabilities whatever the recording's gain. The probabilities then
/// come up to [`LEVEL_LOOKAHEAD_SAMPLES`] late (all of them by [`VadRunner::finish`]) until
/// the recording has reached that level; [`VadRunner::without_level_gain`] feeds the
/// samples as they are, with no delay.
pub struct VadRunner {
    vad: Box<dyn Vad>,
    level: Option<LevelGain>,
    buffer: Vec<f32>,
    batch: usize,
    scores: Vec<f32>,
}

impl std::fmt::Debug for VadRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VadRunner").field("vad", &self.vad.name()).finish()
    }
}

impl VadRunner {
    /// Wraps a detector, with a [`LevelGain`] in front of it if its output depends on the
    /// level.
    pub fn new(vad: Box<dyn Vad>) -> VadRunner {
        let level = vad
            .level_target_db()
            .map(|t| LevelGain::new(t, MAX_LEVEL_GAIN_DB, LEVEL_LOOKAHEAD_SAMPLES));
        let batch = vad.batch_frames().clamp(1, 1024) * vad.frame_samples();
        VadRunner { vad, level, buffer: Vec::with_capacity(batch), batch, scores: Vec::new() }
    }

    /// Wraps a detector and feeds it the samples as they are: every probability comes as soon
    /// as its frame is complete (for live use), at the price of the detector's dependence on
    /// the recording's level.
    pub fn without_level_gain(vad: Box<dyn Vad>) -> VadRunner {
        VadRunner { level: None, ..VadRunner::new(vad) }
    }

    /// Drops the [`LevelGain`] before any sample is pushed: as
    /// [`VadRunner::without_level_gain`].
    pub fn drop_level_gain(&mut self) {
        self.level = None;
    }

    /// The detector's frame hop.
    pub fn hop(&self) -> Delta {
        self.vad.hop()
    }

    /// Feeds samples; `emit` receives each completed frame's probability, in order (a batching
    /// detector's come a batch at a time).
    pub fn push(&mut self, samples: &[f32], emit: &mut dyn FnMut(f32)) {
        match self.level.take() {
            Some(mut level) => {
                level.push(samples, &mut |s| self.push_gained(s, emit));
                self.level = Some(level);
            }
            None => self.push_gained(samples, emit),
        }
    }

    fn push_gained(&mut self, samples: &[f32], emit: &mut dyn FnMut(f32)) {
        let mut rest = samples;
        while !rest.is_empty() {
            let take = (self.batch - self.buffer.len()).min(rest.len());
            self.buffer.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.buffer.len() == self.batch {
                self.score(emit);
            }
        }
    }

    /// Scores what is buffered, the last partial frame padded with silence.
    pub fn finish(&mut self, emit: &mut dyn FnMut(f32)) {
        if let Some(mut level) = self.level.take() {
            level.finish(&mut |s| self.push_gained(s, emit));
        }
        if !self.buffer.is_empty() {
            let n = self.vad.frame_samples();
            self.buffer.resize(self.buffer.len().div_ceil(n) * n, 0.0);
            self.score(emit);
        }
    }

    fn score(&mut self, emit: &mut dyn FnMut(f32)) {
        self.scores.clear();
        self.vad.predict_many(&self.buffer, &mut self.scores);
        // A detector that returned too few scores gets silence for the rest.
        let frames = self.buffer.len() / self.vad.frame_samples();
        self.scores.resize(frames, 0.0);
        for &p in &self.scores[..frames] {
            emit(clamp_probability(p));
        }
        self.buffer.clear();
    }
}

fn clamp_probability(p: f32) -> f32 {
    if p.is_nan() {
        0.0
    } else {
        p.clamp(0.0, 1.0)
    }
}

/// Per-frame speech probabilities of a whole 16 kHz signal.
pub fn probabilities(vad: Box<dyn Vad>, samples: &[f32]) -> Vec<f32> {
    let mut r = VadRunner::new(vad);
    let mut out = Vec::new();
    r.push(samples, &mut |p| out.push(p));
    r.finish(&mut |p| out.push(p));
    out
}

/// The speech in a whole 16 kHz signal.
pub fn speech_region(vad: Box<dyn Vad>, samples: &[f32], binarize: &Binarize) -> Region {
    let hop = vad.hop();
    binarize.apply(probabilities(vad, samples), hop)
}
