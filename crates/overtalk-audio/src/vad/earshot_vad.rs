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
    detector: Box<earshot::Detector<BandLimited>>,
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
            detector: earshot::Detector::new_boxed(BandLimited::default()),
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

/// A frame of earshot's log mel powers (natural log, 16-bit full scale squared times the
/// window's gain) counts towards the band test when its loudest band is at least this: about
/// 60 dB above the floor that 16-bit rounding leaves in every band (−63 to −57 dB on this
/// scale in 8 kHz telephone audio resampled to 16 kHz), so a band that holds nothing shows as
/// far below the frame's loudest.
const LOUD_FRAME_DB: f32 = 0.0;
/// A band carries signal in a loud frame when it is within this of the frame's loudest band.
/// In wideband speech (the AMI headsets, the gecko call) the top band stays within 35 dB of
/// the loudest in most loud frames; a band above a telephone line's 4 kHz sits 60–80 dB under.
const BAND_GAP_DB: f32 = 45.0;
/// A band is part of the recording once it carried signal in this many loud frames …
const BAND_MIN_FRAMES: u32 = 20;
/// … and in at least this share of them: clipping (a loud call's peaks squared off) spreads a
/// few frames over every band, which must not make a telephone recording wideband.
const BAND_MIN_SHARE: f32 = 0.1;
/// The fewest bands a band-limited recording has (band 25 reaches 3 kHz): a phone line keeps
/// 31 (to 4 kHz), audio sampled at 11 kHz 35. A sound whose highest band is lower is narrow,
/// not cut by a recording's rate (a tone, a hum, a jingle of plucked notes), and keeps its
/// features.
const BAND_MIN_EDGE: usize = 26;
/// The empty bands take the log power of the band this far below the first empty one: the one
/// just below lies in the resampler's transition (from 8 kHz, 3.7–4.2 kHz is 8 dB down).
const BAND_REFERENCE: usize = 2;

/// earshot's predictor with its 40 log mel powers measured over the band the recording has.
///
/// Audio recorded at 8 kHz (a phone line) or 11 kHz holds nothing above 4 or 5.5 kHz once
/// resampled to 16 kHz. There earshot's top bands read the 16-bit rounding floor, 30–40 dB
/// under the room noise a wideband recording has between words, and its features are divided
/// by their RMS with the mean kept: that deep notch (band 38, 5.5–6.3 kHz, carries earshot's
/// largest input weight) tilts every frame towards speech, and pauses fill up. An AMI headset
/// track (22.2 s of speech at 16 kHz) gave 39.4 s from 8 kHz; the gecko call 516 s against
/// 482 s.
///
/// This wrapper learns which bands the recording has (a band carries signal in a loud frame
/// when it is within [`BAND_GAP_DB`] of the frame's loudest band; it is the recording's once
/// it did so in [`BAND_MIN_FRAMES`] loud frames and [`BAND_MIN_SHARE`] of them) and, when it
/// has at least [`BAND_MIN_EDGE`] but not all 40, gives the bands above the highest one the
/// log power of the band [`BAND_REFERENCE`] below the first
/// empty one, frame by frame: a flat continuation of the spectrum, what wideband pauses and
/// vowels look like to 6 kHz (measured on the AMI headsets). A wideband recording has all 40
/// bands within its first second of speech and is heard as before.
///
/// ```text
/// band    0 ……………… 29 30 | 31 ……………… 39
/// 8 kHz   ▅▇█▆▅▃▃▂  ▂  ▁ | ·  ·  ·  ·  ·    the rounding floor: −60 dB
/// heard   ▅▇█▆▅▃▃▂  ▂  ▁ | ▂  ▂  ▂  ▂  ▂    band 29's power, this frame
/// ```
///
/// It uses earshot's `Predictor` trait, whose methods earshot documents as unstable; the
/// dependency is pinned to the version this was written against.
struct BandLimited {
    inner: earshot::DefaultPredictor,
    /// Per band, the loud frames in which it carried signal.
    hits: [std::cell::Cell<u32>; 40],
    /// The loud frames seen.
    loud: std::cell::Cell<u32>,
}

impl Default for BandLimited {
    fn default() -> BandLimited {
        BandLimited {
            inner: earshot::DefaultPredictor::new(),
            hits: std::array::from_fn(|_| std::cell::Cell::new(0)),
            loud: Default::default(),
        }
    }
}

impl BandLimited {
    /// The number of bands the recording has so far (40: all of them, or none learned yet).
    fn bands(&self) -> usize {
        let need = (BAND_MIN_SHARE * self.loud.get() as f32).max(BAND_MIN_FRAMES as f32);
        let heard = |k: usize| self.hits[k].get() as f32 >= need;
        match (0..40).rev().find(|&k| heard(k)) {
            Some(top) => top + 1,
            // Nothing loud yet: no band is known to be missing.
            None => 40,
        }
    }

    /// Counts a frame of log mel powers towards the band test and fills the bands above the
    /// recording's band.
    fn fill(&self, features: &mut [f32]) {
        let to_ln = std::f32::consts::LN_10 / 10.0;
        let loudest = features.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        if loudest >= LOUD_FRAME_DB * to_ln {
            self.loud.set(self.loud.get().saturating_add(1));
            for (hit, &v) in self.hits.iter().zip(features.iter()) {
                if v >= loudest - BAND_GAP_DB * to_ln {
                    hit.set(hit.get().saturating_add(1));
                }
            }
        }
        let bands = self.bands();
        if (BAND_MIN_EDGE..features.len()).contains(&bands) {
            let reference = features[bands - BAND_REFERENCE];
            features[bands..].fill(reference);
        }
    }
}

impl earshot::Predictor for BandLimited {
    fn reset(&mut self) {
        self.inner.reset();
        self.hits.iter().for_each(|h| h.set(0));
        self.loud.set(0);
    }

    fn normalize(&self, features: &mut [f32]) {
        self.fill(features);
        self.inner.normalize(features);
    }

    fn predict(&mut self, features: &[f32], buffer: &mut [f32]) -> f32 {
        self.inner.predict(features, buffer)
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

    /// 40 log mel powers (natural log): `low` up to band `bands`, the rounding floor above.
    fn frame(bands: usize, low: f32) -> Vec<f32> {
        let floor = -60.0 * std::f32::consts::LN_10 / 10.0;
        (0..40).map(|k| if k < bands { low + k as f32 * 0.01 } else { floor }).collect()
    }

    #[test]
    fn a_band_limited_recording_is_heard_over_its_band() {
        let band = BandLimited::default();
        // 19 loud frames (10 dB) with nothing above band 30: not enough to know yet.
        for _ in 0..19 {
            band.fill(&mut frame(31, 2.3));
        }
        assert_eq!(band.bands(), 40);
        let mut f = frame(31, 2.3);
        band.fill(&mut f);
        assert_eq!(band.bands(), 31);
        // Bands 31–39 take band 29's power, this frame's.
        assert_eq!(f[29], frame(31, 2.3)[29]);
        assert!(f[31..].iter().all(|&v| v == f[29]), "{f:?}");
        assert_eq!(f[..31], frame(31, 2.3)[..31]);
        // Quiet frames (under 0 dB) do not count towards the test but are filled.
        let mut quiet = frame(31, -3.0);
        band.fill(&mut quiet);
        assert_eq!(band.loud.get(), 20);
        assert!(quiet[31..].iter().all(|&v| v == frame(31, -3.0)[29]), "{quiet:?}");
        // A new signal starts with nothing known.
        let mut band = band;
        earshot::Predictor::reset(&mut band);
        assert_eq!((band.bands(), band.loud.get()), (40, 0));
    }

    #[test]
    fn a_narrow_sound_keeps_its_features() {
        // Notes under 1 kHz (bands 0–9): no recording's band ends there.
        let band = BandLimited::default();
        for _ in 0..100 {
            let mut f = frame(10, 2.3);
            band.fill(&mut f);
            assert_eq!(f, frame(10, 2.3));
        }
        assert_eq!(band.bands(), 10);
    }

    #[test]
    fn a_wideband_recording_is_heard_as_it_is() {
        let band = BandLimited::default();
        for _ in 0..200 {
            let mut f = frame(40, 2.3);
            let before = f.clone();
            band.fill(&mut f);
            assert_eq!(f, before);
        }
        assert_eq!(band.bands(), 40);
    }

    #[test]
    fn a_few_clipped_frames_do_not_make_a_phone_line_wideband() {
        // Clipping spreads 21 frames over every band; 200 frames show the 4 kHz edge: 21 of
        // 221 loud frames (9.5 %) is under the 10 % a band needs.
        let band = BandLimited::default();
        for _ in 0..21 {
            band.fill(&mut frame(40, 2.3));
        }
        assert_eq!(band.bands(), 40);
        for _ in 0..200 {
            band.fill(&mut frame(31, 2.3));
        }
        assert_eq!(band.bands(), 31);
        // Two more clipped frames: 23 of 223 (10.3 %), all 40 bands again.
        band.fill(&mut frame(40, 2.3));
        band.fill(&mut frame(40, 2.3));
        assert_eq!(band.bands(), 40);
    }
}
