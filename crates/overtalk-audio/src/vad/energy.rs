//! A model-free backend: energy above an adaptive noise floor.

use super::Vad;
use crate::frames::power_db;

/// Energy detector on 10 ms frames.
///
/// The noise floor follows the frame energy down quickly (time constant ≈ 0.1 s) and up slowly
/// (≈ 5 s), so it settles on the quietest recent level. The probability is a logistic function of
/// the margin above the floor: 0.5 at `margin_db` (default 10 dB), ≈ 0.9 at `margin_db + 4.4`.
/// Frames quieter than `min_db` (default −60 dBFS) are never speech. It cannot tell speech from
/// other sounds; it exists as a fast fallback and as a second backend for the shared tests.
#[derive(Clone, Debug)]
pub struct EnergyVad {
    floor: f32,
    started: bool,
    /// Margin above the noise floor that gives probability 0.5, in dB.
    pub margin_db: f32,
    /// Absolute level below which nothing is speech, in dBFS.
    pub min_db: f32,
}

impl Default for EnergyVad {
    fn default() -> Self {
        EnergyVad::new()
    }
}

impl EnergyVad {
    /// A detector at the start of a signal.
    pub fn new() -> EnergyVad {
        EnergyVad { floor: -120.0, started: false, margin_db: 10.0, min_db: -60.0 }
    }
}

impl Vad for EnergyVad {
    fn name(&self) -> &'static str {
        "energy"
    }

    fn frame_samples(&self) -> usize {
        crate::frames::HOP
    }

    fn predict(&mut self, frame: &[f32]) -> f32 {
        let mut sum = 0.0f32;
        let mut mean = 0.0f32;
        let mut n = 0.0f32;
        for &s in frame {
            if s.is_finite() {
                mean += s;
                n += 1.0;
            }
        }
        let mean = if n > 0.0 { mean / n } else { 0.0 };
        for &s in frame {
            if s.is_finite() {
                let d = s - mean;
                sum += d * d;
            }
        }
        let db = power_db(sum / frame.len().max(1) as f32);
        if !self.started {
            self.floor = db;
            self.started = true;
        } else if db < self.floor {
            self.floor += (db - self.floor) * 0.1;
        } else {
            self.floor += (db - self.floor) * 0.002;
        }
        if db < self.min_db {
            return 0.0;
        }
        let m = db - self.floor - self.margin_db;
        1.0 / (1.0 + (-m / 2.0).exp())
    }

    fn reset(&mut self) {
        self.started = false;
        self.floor = -120.0;
    }
}
