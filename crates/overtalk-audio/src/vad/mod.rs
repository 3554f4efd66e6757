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
//!
//! Every backend passes the same behavioural suite (`vad_suite!` in the tests): silence and
//! stationary noise are not speech, speech-like bursts are, onsets and offsets land within a
//! frame or two of the truth, and probabilities stay in `[0, 1]` for any input, NaN included.

mod earshot_vad;
mod energy;

pub use earshot_vad::EarshotVad;
pub use energy::EnergyVad;

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
    /// The frame hop as a duration.
    fn hop(&self) -> Delta {
        Delta(self.frame_samples() as i64 * 1_000_000 / crate::resample::ANALYSIS_RATE as i64)
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
}

impl VadKind {
    /// Every backend.
    pub const ALL: [VadKind; 2] = [VadKind::Earshot, VadKind::Energy];

    /// A fresh detector.
    pub fn build(self) -> Box<dyn Vad> {
        match self {
            VadKind::Earshot => Box::new(EarshotVad::new()),
            VadKind::Energy => Box::new(EnergyVad::new()),
        }
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            VadKind::Earshot => "earshot",
            VadKind::Energy => "energy",
        }
    }
}

impl std::str::FromStr for VadKind {
    type Err = String;
    fn from_str(s: &str) -> Result<VadKind, String> {
        VadKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown voice activity detector {s:?} (earshot, energy)"))
    }
}

/// Feeds a stream of any block size to a [`Vad`] frame by frame.
pub struct VadRunner {
    vad: Box<dyn Vad>,
    frame: Vec<f32>,
}

impl std::fmt::Debug for VadRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("VadRunner").field("vad", &self.vad.name()).finish()
    }
}

impl VadRunner {
    /// Wraps a detector.
    pub fn new(vad: Box<dyn Vad>) -> VadRunner {
        let n = vad.frame_samples();
        VadRunner { vad, frame: Vec::with_capacity(n) }
    }

    /// The detector's frame hop.
    pub fn hop(&self) -> Delta {
        self.vad.hop()
    }

    /// Feeds samples; `emit` receives each completed frame's probability.
    pub fn push(&mut self, samples: &[f32], emit: &mut dyn FnMut(f32)) {
        let n = self.vad.frame_samples();
        let mut rest = samples;
        while !rest.is_empty() {
            let take = (n - self.frame.len()).min(rest.len());
            self.frame.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.frame.len() == n {
                emit(clamp_probability(self.vad.predict(&self.frame)));
                self.frame.clear();
            }
        }
    }

    /// Pads the last partial frame with silence and scores it.
    pub fn finish(&mut self, emit: &mut dyn FnMut(f32)) {
        if !self.frame.is_empty() {
            self.frame.resize(self.vad.frame_samples(), 0.0);
            emit(clamp_probability(self.vad.predict(&self.frame)));
            self.frame.clear();
        }
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
