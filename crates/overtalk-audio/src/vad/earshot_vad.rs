//! The default backend: earshot's neural detector (pure Rust, weights compiled in).

use super::Vad;

/// The level earshot's input is raised to when quieter (dBFS, mean power of the loudest
/// second; see [`super::LevelGain`]).
pub const EARSHOT_LEVEL_DB: f32 = -19.0;

/// The mean power (dBFS, about the frame's mean: a DC offset is not sound) of the recording's
/// own samples, before any [`super::LevelGain`], under which a 16 ms frame is not speech,
/// whatever earshot says ([`super::Vad::silence_db`]).
///
/// earshot's features are log mel powers divided by their RMS, mean not removed, so the
/// fainter a frame the flatter they are, and far below speech a flat vector reads as speech:
/// near-silence made of sparse single-step samples (μ-law's smallest step in a phone line's
/// silence, about −94 dBFS; A-law's, whose silence is a constant step with the other sign now
/// and then; ±1 LSB dither of 16-bit audio, about −90 dBFS) was speech from end to end. The
/// gate is on the recording's level, not the gained one: the gain that raises a quiet
/// recording would raise that near-silence with it (a gate at −70 dBFS after the gain took
/// speech from far-field AMI clips: docs/diarization.md).
pub const EARSHOT_SILENCE_DB: f32 = -80.0;

/// earshot 1.2: 256-sample (16 ms) frames at 16 kHz, about 8 KiB of state.
pub struct EarshotVad {
    detector: Box<earshot::Detector>,
    clean: Vec<f32>,
}

impl std::fmt::Debug for EarshotVad {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("EarshotVad")
    }
}

impl Default for EarshotVad {
    fn default() -> Self {
        EarshotVad::new()
    }
}

impl EarshotVad {
    /// A detector at the start of a signal.
    pub fn new() -> EarshotVad {
        EarshotVad { detector: earshot::Detector::default_boxed(), clean: vec![0.0; 256] }
    }
}

impl Vad for EarshotVad {
    fn name(&self) -> &'static str {
        "earshot"
    }

    fn frame_samples(&self) -> usize {
        256
    }

    fn predict(&mut self, frame: &[f32]) -> f32 {
        // earshot expects exactly 256 finite samples in [-1, 1].
        for (d, &s) in self.clean.iter_mut().zip(frame.iter().chain(std::iter::repeat(&0.0))) {
            *d = if s.is_finite() { s.clamp(-1.0, 1.0) } else { 0.0 };
        }
        self.detector.predict_f32(&self.clean)
    }

    fn reset(&mut self) {
        self.detector.reset();
    }

    /// earshot's features are log mel powers divided by their RMS, mean not removed: the
    /// quieter the signal, the flatter they are, and far below this level pauses fill up with
    /// speech. −19 dBFS is about the loudest second of speech peaking at −8 dBFS; measured
    /// from −20 to −16 dBFS, it kept the benchmarks at or under their figures and the
    /// diarizer's speakers apart on quiet recordings (BENCHMARKS.md, "Recording level").
    fn level_target_db(&self) -> Option<f32> {
        Some(EARSHOT_LEVEL_DB)
    }

    fn silence_db(&self) -> Option<f32> {
        Some(EARSHOT_SILENCE_DB)
    }
}
