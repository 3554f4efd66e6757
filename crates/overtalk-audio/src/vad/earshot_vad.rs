//! The default backend: earshot's neural detector (pure Rust, weights compiled in).

use super::Vad;

/// The level earshot's input is raised to when quieter (dBFS, mean power of the loudest
/// second; see [`super::LevelGain`]).
pub const EARSHOT_LEVEL_DB: f32 = -19.0;

/// The mean power (dBFS, about the frame's mean: a DC offset is not sound) under which a 16 ms
/// frame is not speech, whatever earshot says.
///
/// earshot's features are log mel powers divided by their RMS, mean not removed, so the
/// fainter a frame the flatter they are, and far below speech a flat vector reads as speech:
/// near-silence made of sparse single-step samples (μ-law's smallest step in a phone line's
/// silence, A-law's, whose silence is a constant step with the other sign now and then, ±1
/// LSB dither, isolated clicks) was speech from end to end. The [`super::LevelGain`]
/// in front raises a quiet recording's loudest second to about [`EARSHOT_LEVEL_DB`], so speech
/// reaches earshot 40 dB or more above this; dense noise this faint was already silence.
///
/// Only a faint *stretch* is silence: the first [`EARSHOT_FAINT_FRAMES`] faint frames in a row
/// keep earshot's answer, and the gate takes the frames after them. In a quiet room a single
/// frame dips under the floor inside speech (a stop's closure, a breath between words); zeroed
/// alone, such frames cut turns into pieces and made the speakers' embeddings shorter. On the
/// AMI mixture that gate alone missed 1.0 s more speech in 60 s (4.2 → 5.2 s), on the quiet
/// 30 s clip tst00 1.4 s more (2.0 → 3.4 s); with three frames kept, 4.4 s and 3.1 s.
pub const EARSHOT_SILENCE_DB: f32 = -70.0;

/// How many faint frames in a row (16 ms each) keep earshot's answer before the silence gate
/// takes the rest of the stretch (see [`EARSHOT_SILENCE_DB`]): 48 ms. A phone line's idle
/// stretch lasts hundreds of milliseconds or more, so it is still silence; at most its first
/// 48 ms can remain speech, where earshot's decay after a word says so.
pub const EARSHOT_FAINT_FRAMES: usize = 3;

/// earshot 1.2: 256-sample (16 ms) frames at 16 kHz, about 8 KiB of state.
///
/// It hears each frame as 16-bit PCM (the samples rounded to the nearest of 65 536 steps),
/// what it was made for. Given floats, earshot keeps their full precision, and where a
/// recording has no sound at all in a band (8 kHz telephone audio resampled to 16 kHz: nothing
/// above 4 kHz), that band's log mel powers fall far below anything a 16-bit recording holds,
/// whose rounding fills every band with a floor at about −100 dBFS; earshot then takes the
/// low-level noise between words for speech. Measured on an AMI headset (60 s, 22.2 s of
/// speech detected at 16 kHz): resampled from 8 kHz, 59.9 s was speech as floats and 36.5 s as
/// 16-bit; from 96 kHz, 34.3 s and 22 s.
///
/// ```text
/// 0–4 kHz   ▆▇█▆▅▃▂  speech and room noise
/// 4–8 kHz   ········  floats: nothing (log power −∞ → "speech-like" tilt)
///           ░░░░░░░░  16-bit: the rounding's floor, as in every recording earshot knows
/// ```
pub struct EarshotVad {
    detector: Box<earshot::Detector>,
    clean: Vec<f32>,
    /// The frame as earshot hears it: 16-bit PCM.
    pcm: Vec<i16>,
    /// Faint frames in a row up to the current one.
    faint_run: usize,
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
        EarshotVad {
            detector: earshot::Detector::default_boxed(),
            clean: vec![0.0; 256],
            pcm: vec![0; 256],
            faint_run: 0,
        }
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
        // The detector hears every frame (its state follows the signal), but a stretch this
        // faint is silence.
        for (q, &s) in self.pcm.iter_mut().zip(&self.clean) {
            // In range after the clamp: at most 32 768 before the cap.
            *q = (s * 32_768.0).round().min(32_767.0) as i16;
        }
        let p = self.detector.predict_i16(&self.pcm);
        let n = self.clean.len() as f32;
        let mean = self.clean.iter().sum::<f32>() / n;
        let power = self.clean.iter().map(|s| (s - mean) * (s - mean)).sum::<f32>() / n;
        if power < 10f32.powf(EARSHOT_SILENCE_DB / 10.0) {
            self.faint_run = self.faint_run.saturating_add(1);
        } else {
            self.faint_run = 0;
        }
        if self.faint_run > EARSHOT_FAINT_FRAMES {
            0.0
        } else {
            p
        }
    }

    fn reset(&mut self) {
        self.detector.reset();
        self.faint_run = 0;
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Faint noise with nothing above 4 kHz (telephone audio resampled to 16 kHz), as floats
    /// and rounded to 16-bit PCM: earshot hears the same frames either way.
    #[test]
    fn floats_are_heard_as_16_bit_pcm() {
        let mut state = 12_345u64;
        let mut white = || {
            state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (state >> 40) as f32 / (1u64 << 24) as f32 - 0.5
        };
        let noise: Vec<f32> = (0..16_000).map(|_| white() * 0.004).collect();
        // A moving sum of four samples: a zero at 4 kHz and little above it.
        let faint: Vec<f32> = noise.windows(4).map(|w| w.iter().sum::<f32>() / 4.0).collect();
        let pcm: Vec<f32> = faint.iter().map(|s| (s * 32_768.0).round() / 32_768.0).collect();
        let (mut a, mut b) = (EarshotVad::new(), EarshotVad::new());
        let heard = |vad: &mut EarshotVad, x: &[f32]| -> Vec<f32> {
            x.chunks_exact(256).map(|frame| vad.predict(frame)).collect()
        };
        let (from_floats, from_pcm) = (heard(&mut a, &faint), heard(&mut b, &pcm));
        assert_eq!(from_floats.len(), 62);
        assert_eq!(from_floats, from_pcm);
    }
}
