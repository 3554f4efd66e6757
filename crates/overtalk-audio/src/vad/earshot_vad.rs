//! The default backend: earshot's neural detector (pure Rust, weights compiled in).

use super::Vad;

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
}
