//! Streaming resampling of one channel to the analysis rate ([`ANALYSIS_RATE`], 16 kHz).
//!
//! ```text
//! push(block) ─► input queue ─► rubato Fft, 1024-frame chunks ─► drop the filter delay ─► out
//!                                                         finish() flushes the tail with zeros
//! ```
//!
//! The output is aligned with the input: output sample `k` is the input at time `k / 16000` s.
//! The resampler's own delay is dropped from the front and the tail is flushed on
//! [`Resampler16k::finish`], so an input of `n` frames at rate `r` gives exactly
//! `round(n · 16000 / r)` frames. Input already at 16 kHz passes through untouched.

use overtalk::error::ResamplingProblem;
use overtalk::{Error, Result};
use rubato::audioadapter_buffers::direct::InterleavedSlice;
use rubato::{Fft, FixedSync, Indexing, Resampler, WindowFunction};

/// The rate every analysis runs at (the voice activity models expect it).
pub const ANALYSIS_RATE: u32 = 16_000;

/// Input frames per chunk at the analysis rate and below (the passthrough's block too).
const CHUNK: usize = 1024;

/// Output frames per chunk, at least: the FFT block on the 16 kHz side. rubato's FFT
/// resampler designs its anti-aliasing filter over one block, so a short block lowers its
/// cutoff: with its default of 256 input frames a block, 48 kHz lost 16 dB at 7–7.5 kHz,
/// 96 kHz 18 dB at 6–7 kHz and 192 kHz 20 dB at 4–6 kHz, where voice activity and speaker
/// models read the upper bands. With a block of 1024 frames on the 16 kHz side the passband
/// is flat to 7.5 kHz from every rate (`every_rate_keeps_the_band_to_7_5_khz`).
const OUT_BLOCK: usize = 1024;

/// The input chunk for `rate`: [`CHUNK`], or as many frames as make [`OUT_BLOCK`] at 16 kHz.
fn chunk_for(rate: u32) -> usize {
    let scaled = (OUT_BLOCK as u64 * u64::from(rate)).div_ceil(u64::from(ANALYSIS_RATE));
    CHUNK.max(usize::try_from(scaled).unwrap_or(usize::MAX))
}

/// Resamples one channel to 16 kHz, block by block, with bounded memory.
pub struct Resampler16k {
    inner: Option<Fft<f32>>,
    /// Input frames per resampled chunk (rubato's fixed input size for this rate).
    chunk: usize,
    queue: Vec<f32>,
    out_buf: Vec<f32>,
    delay_left: usize,
    input_frames: u64,
    output_frames: u64,
    rate: u32,
}

impl std::fmt::Debug for Resampler16k {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resampler16k").field("rate", &self.rate).finish()
    }
}

impl Resampler16k {
    /// A resampler from `rate` Hz.
    pub fn new(rate: u32) -> Result<Resampler16k> {
        if rate == 0 {
            return Err(Error::resampling(ResamplingProblem::Rate, "a sample rate of 0 Hz"));
        }
        // The filter block grows with the rate: a rate no recording has would take gigabytes.
        crate::decode::check_rate(rate)?;
        let inner = if rate == ANALYSIS_RATE {
            None
        } else {
            let fft = Fft::<f32>::new_custom(
                rate as usize,
                ANALYSIS_RATE as usize,
                chunk_for(rate),
                1,
                1,
                WindowFunction::BlackmanHarris2,
                FixedSync::Input,
            )
            .map_err(|e| Error::unsupported(format!("resampling from {rate} Hz: {e}")))?;
            Some(fft)
        };
        let delay_left = inner.as_ref().map_or(0, |r| r.output_delay());
        let chunk = inner.as_ref().map_or(CHUNK, |r| r.input_frames_next());
        Ok(Resampler16k {
            inner,
            chunk,
            queue: Vec::with_capacity(2 * chunk),
            out_buf: Vec::new(),
            delay_left,
            input_frames: 0,
            output_frames: 0,
            rate,
        })
    }

    /// The input rate.
    pub fn input_rate(&self) -> u32 {
        self.rate
    }

    /// Feeds samples; `emit` receives resampled output as it becomes available.
    pub fn push(
        &mut self,
        samples: impl Iterator<Item = f32>,
        emit: &mut dyn FnMut(&[f32]),
    ) -> Result<()> {
        if self.inner.is_none() {
            // Passed through a chunk at a time, so that a long run of samples (the silence
            // put before a track that starts late) never sits in memory whole.
            let mut samples = samples.peekable();
            while samples.peek().is_some() {
                self.queue.clear();
                self.queue.extend(samples.by_ref().take(CHUNK));
                self.input_frames += self.queue.len() as u64;
                self.output_frames += self.queue.len() as u64;
                emit(&self.queue);
            }
            return Ok(());
        }
        for s in samples {
            self.queue.push(s);
            self.input_frames += 1;
            if self.queue.len() == self.chunk {
                self.run_chunk(self.chunk, emit)?;
                self.queue.clear();
            }
        }
        Ok(())
    }

    /// Flushes what is left; the total output is then `round(n · 16000 / rate)` frames.
    pub fn finish(&mut self, emit: &mut dyn FnMut(&[f32])) -> Result<()> {
        if self.inner.is_none() {
            return Ok(());
        }
        let target = (u128::from(self.input_frames) * u128::from(ANALYSIS_RATE)
            + u128::from(self.rate) / 2)
            / u128::from(self.rate);
        let target = target as u64;
        let mut guard = 0;
        while self.output_frames < target && guard < 64 {
            let n = self.queue.len();
            self.queue.resize(self.chunk, 0.0);
            let room = target - self.output_frames;
            self.run_chunk_limited(n, room, emit)?;
            self.queue.clear();
            guard += 1;
        }
        Ok(())
    }

    fn run_chunk(&mut self, valid: usize, emit: &mut dyn FnMut(&[f32])) -> Result<()> {
        self.run_chunk_limited(valid, u64::MAX, emit)
    }

    fn run_chunk_limited(
        &mut self,
        valid: usize,
        room: u64,
        emit: &mut dyn FnMut(&[f32]),
    ) -> Result<()> {
        let Some(inner) = self.inner.as_mut() else { return Ok(()) };
        let max_out = inner.output_frames_max();
        self.out_buf.resize(max_out, 0.0);
        let input = InterleavedSlice::new(&self.queue[..], 1, self.chunk).map_err(|e| {
            let message = format!("resampler input: {e}");
            Error::resampling(ResamplingProblem::Failed, message).with_source(e)
        })?;
        let mut output =
            InterleavedSlice::new_mut(&mut self.out_buf[..], 1, max_out).map_err(|e| {
                let message = format!("resampler output: {e}");
                Error::resampling(ResamplingProblem::Failed, message).with_source(e)
            })?;
        let indexing = Indexing {
            input_offset: 0,
            output_offset: 0,
            partial_len: if valid < self.chunk { Some(valid) } else { None },
            active_channels_mask: None,
        };
        let (_, produced) =
            inner.process_into_buffer(&input, &mut output, Some(&indexing)).map_err(|e| {
                let message = format!("resampling: {e}");
                Error::resampling(ResamplingProblem::Failed, message).with_source(e)
            })?;
        let mut out = &self.out_buf[..produced];
        if self.delay_left > 0 {
            let d = self.delay_left.min(out.len());
            self.delay_left -= d;
            out = &out[d..];
        }
        let take = (out.len() as u64).min(room) as usize;
        let out = &out[..take];
        self.output_frames += out.len() as u64;
        if !out.is_empty() {
            emit(out);
        }
        Ok(())
    }
}

/// Resamples a whole signal held in memory (tests and short clips).
pub fn resample_to_16k(samples: &[f32], rate: u32) -> Result<Vec<f32>> {
    let mut r = Resampler16k::new(rate)?;
    let mut out = Vec::with_capacity(samples.len() * 16_000 / rate.max(1) as usize + 16);
    r.push(samples.iter().copied(), &mut |s| out.extend_from_slice(s))?;
    r.finish(&mut |s| out.extend_from_slice(s))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tone_burst(rate: u32, secs: f32, on: (f32, f32)) -> Vec<f32> {
        let n = (rate as f32 * secs) as usize;
        (0..n)
            .map(|i| {
                let t = i as f32 / rate as f32;
                if t >= on.0 && t < on.1 {
                    (2.0 * std::f32::consts::PI * 440.0 * t).sin() * 0.5
                } else {
                    0.0
                }
            })
            .collect()
    }

    fn onset(x: &[f32]) -> usize {
        x.iter().position(|v| v.abs() > 0.05).unwrap()
    }

    /// At 16 kHz the samples pass through a chunk at a time, in order and untouched, however
    /// long the run pushed at once (the silence before a track that starts hours late).
    #[test]
    fn a_long_push_at_the_analysis_rate_passes_through_in_bounded_blocks() {
        let mut r = Resampler16k::new(ANALYSIS_RATE).unwrap();
        let (mut out, mut largest, mut calls) = (Vec::new(), 0, 0);
        let n = 10 * CHUNK + 7;
        r.push((0..n).map(|i| i as f32), &mut |s| {
            largest = largest.max(s.len());
            calls += 1;
            out.extend_from_slice(s);
        })
        .unwrap();
        r.finish(&mut |s| out.extend_from_slice(s)).unwrap();
        assert_eq!((largest, calls), (CHUNK, 11));
        assert_eq!(out, (0..n).map(|i| i as f32).collect::<Vec<_>>());
        // Nothing pushed, nothing emitted.
        r.push(std::iter::empty(), &mut |_| panic!("emitted")).unwrap();
    }

    /// Speech-like noise at each rate keeps its 16 kHz band: within 0.5 dB of the input's
    /// power up to 7.5 kHz (the filter blocks of [`OUT_BLOCK`] frames).
    #[test]
    fn every_rate_keeps_the_band_to_7_5_khz() {
        for rate in [22_050u32, 32_000, 44_100, 48_000, 96_000, 192_000] {
            // Tones every 250 Hz from 250 Hz to 7.5 kHz, 2 s.
            let n = rate as usize * 2;
            let tones: Vec<f64> = (1..=30).map(|k| 250.0 * f64::from(k)).collect();
            let x: Vec<f32> = (0..n)
                .map(|i| {
                    let t = i as f64 / f64::from(rate);
                    (tones.iter().map(|f| (2.0 * std::f64::consts::PI * f * t).sin()).sum::<f64>()
                        / 40.0) as f32
                })
                .collect();
            let y = resample_to_16k(&x, rate).unwrap();
            // Each tone's amplitude on the middle second, by correlation.
            let mid = &y[8_000..24_000];
            for &f in &tones {
                let (mut c, mut s) = (0.0f64, 0.0f64);
                for (i, &v) in mid.iter().enumerate() {
                    let w = 2.0 * std::f64::consts::PI * f * (i + 8_000) as f64 / 16_000.0;
                    c += f64::from(v) * w.cos();
                    s += f64::from(v) * w.sin();
                }
                let amp = 2.0 * c.hypot(s) / mid.len() as f64 * 40.0;
                let db = 20.0 * amp.log10();
                assert!(db.abs() < 0.5, "{rate} Hz: the tone at {f} Hz comes out at {db:.2} dB");
            }
        }
    }

    #[test]
    fn lengths_and_onsets_are_preserved() {
        for rate in [8_000u32, 22_050, 44_100, 48_000] {
            let x = tone_burst(rate, 1.0, (0.25, 0.5));
            let y = resample_to_16k(&x, rate).unwrap();
            assert_eq!(y.len(), 16_000, "rate {rate}");
            // The burst starts at 0.25 s = sample 4000, within a millisecond.
            let o = onset(&y) as i64;
            assert!((o - 4000).abs() <= 16, "rate {rate}: onset at {o}");
        }
    }

    #[test]
    fn sixteen_khz_passes_through() {
        let x = tone_burst(16_000, 0.1, (0.0, 0.1));
        assert_eq!(resample_to_16k(&x, 16_000).unwrap(), x);
    }

    #[test]
    fn zero_rate_is_an_error() {
        assert!(Resampler16k::new(0).is_err());
    }
}
