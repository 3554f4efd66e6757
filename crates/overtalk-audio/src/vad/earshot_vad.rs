//! The default backend: earshot's neural detector (pure Rust, weights compiled in).

use super::Vad;

/// The level earshot's input is raised to when quieter (dBFS, mean power of the loudest
/// second; see [`super::LevelGain`]).
pub const EARSHOT_LEVEL_DB: f32 = -19.0;

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
}
