//! A gain in front of a level-dependent detector, derived from the recording's own level.
//!
//! earshot takes the logarithm of its mel band powers and divides the vector by its RMS
//! without removing the mean, so a quieter signal (more negative logarithms) has a flatter
//! feature vector: the same speech 20 dB quieter looks like continuous speech, its pauses gone.
//! [`LevelGain`] raises a quiet recording to the level the detector was made for, so what it
//! sees does not depend on how the recording was gained.
//!
//! The level is the mean power of the loudest [`LOUDEST_FRAMES`] 16 ms frames heard so far
//! (about one second: a click does not set it, a participant who says one sentence does). It
//! only grows. Samples are held back [`LevelGain::lookahead`] so that the gain applied to a
//! sample already knows the level of what follows it:
//!
//! ```text
//! input      ▁▁▁▁▁▁▁▁▂▅▇▅▂▁▁▂▆▇▆▂▁▁▁▁▁▁▂▅▇▅▂▁▁▁   (quiet: loudest second at −40 dB)
//!            ├─ released ─┤├── lookahead ──┤ newest
//! level      the loudest second of everything up to the newest sample
//! floor      the 10th percentile of the frames' power (digital silence left out)
//! gain       target / level, at least 1 (never quieter), at most max_gain,
//!            in full when the level stands 12 dB or more above the floor, none under 6 dB
//! output     the released samples × gain, in order, delayed by the lookahead
//! ```
//!
//! Only a recording with something standing out of its noise is raised: hiss or room tone
//! alone keeps its level, so the detector does not meet it loud (where it finds short
//! "speech" in white noise) when the recording holds nothing but noise.
//!
//! Multiplying the input by `c` multiplies every level by `c²` and divides every gain by `c`,
//! so the detector sees the same samples whatever the recording's gain (while the gain stays
//! between 1 and `max_gain`). Once the level reaches the target the gain is 1 for good, the
//! held samples are released and later ones pass straight through: a recording at a normal
//! level is not delayed past its first loud second and is not changed at all.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// The frames whose mean power is the level: 62 × 16 ms, about one second.
pub const LOUDEST_FRAMES: usize = 62;

/// Samples per level frame (16 ms at 16 kHz).
const FRAME: usize = 256;

/// The floor's percentile of the frames' power.
const FLOOR_SHARE: f64 = 0.1;
/// Level over floor (dB) under which nothing is raised, and over which the gain is whole.
const CONTRAST_DB: (f32, f32) = (6.0, 12.0);
/// The floor histogram: bins of 0.25 dB from −140 dBFS.
const BIN_DB: f32 = 0.25;
const LOWEST_DB: f32 = -140.0;
const BINS: usize = 640;

/// Raises a quiet signal to a target level (see the module documentation).
#[derive(Clone, Debug)]
pub struct LevelGain {
    /// The target level: mean power of the loudest second (linear, full scale 1).
    target_power: f32,
    /// The largest gain applied (linear amplitude).
    max_gain: f32,
    /// Samples held back before release.
    lookahead: usize,
    /// The loudest frames' powers, as the bits of non-negative `f32`s (ordered like the values).
    loudest: BinaryHeap<Reverse<u32>>,
    /// Their sum.
    loudest_sum: f64,
    /// Frames per 0.25 dB of power (digital silence left out), for the floor.
    histogram: Vec<u32>,
    /// Frames in the histogram.
    counted: u64,
    /// The frame being measured.
    frame: Vec<f32>,
    /// Samples not yet released.
    held: VecDeque<f32>,
    /// The gain reached 1: everything passes through unchanged.
    settled: bool,
    /// The release buffer.
    out: Vec<f32>,
}

impl LevelGain {
    /// A gain stage raising the loudest second towards `target_db` dBFS (mean power), by at
    /// most `max_gain_db`, deciding with `lookahead` samples of look-ahead.
    pub fn new(target_db: f32, max_gain_db: f32, lookahead: usize) -> LevelGain {
        LevelGain {
            target_power: 10f32.powf(target_db / 10.0),
            max_gain: 10f32.powf(max_gain_db.max(0.0) / 20.0),
            lookahead,
            loudest: BinaryHeap::with_capacity(LOUDEST_FRAMES + 1),
            loudest_sum: 0.0,
            histogram: vec![0; BINS],
            counted: 0,
            frame: Vec::with_capacity(FRAME),
            held: VecDeque::new(),
            settled: false,
            out: Vec::new(),
        }
    }

    /// The samples held back at most.
    pub fn lookahead(&self) -> usize {
        self.lookahead
    }

    /// The gain that applies now (linear amplitude): target over level, between 1 and the
    /// largest gain, scaled (in dB) by how far the level stands above the floor.
    pub fn gain(&self) -> f32 {
        if self.settled {
            return 1.0;
        }
        let level = (self.loudest_sum / LOUDEST_FRAMES as f64) as f32;
        let full = if level > 0.0 {
            (self.target_power / level).sqrt().clamp(1.0, self.max_gain)
        } else {
            self.max_gain
        };
        let share = match self.floor_db() {
            Some(floor) if level > 0.0 => {
                let contrast = 10.0 * level.log10() - floor;
                ((contrast - CONTRAST_DB.0) / (CONTRAST_DB.1 - CONTRAST_DB.0)).clamp(0.0, 1.0)
            }
            // Nothing but digital silence so far: nothing to stand out, nothing to raise.
            _ => 0.0,
        };
        full.powf(share)
    }

    /// The floor: the 10th percentile of the frames' power in dBFS (the lower edge of its
    /// 0.25 dB bin), digital silence left out; `None` before the first such frame.
    fn floor_db(&self) -> Option<f32> {
        if self.counted == 0 {
            return None;
        }
        let rank = (self.counted as f64 * FLOOR_SHARE).floor() as u64;
        let mut seen = 0u64;
        for (b, &n) in self.histogram.iter().enumerate() {
            seen += u64::from(n);
            if seen > rank {
                return Some(LOWEST_DB + b as f32 * BIN_DB);
            }
        }
        None
    }

    /// Whether the gain can only be 1 from now on: the level has reached the target (it only
    /// grows).
    fn reached_target(&self) -> bool {
        (self.loudest_sum / LOUDEST_FRAMES as f64) as f32 >= self.target_power
    }

    /// Feeds samples; `emit` receives the released ones, gained, in order.
    ///
    /// A sample is released, at the gain of that moment, as soon as [`lookahead`] samples
    /// follow it, and the gain changes only when a level frame is complete. So the gain a
    /// sample gets is set by the frames completed up to `lookahead` samples after it, whatever
    /// the sizes of the blocks pushed: a recording fed whole and the same fed block by block
    /// come out the same. (Measuring a whole block before releasing any of it gave the samples
    /// of a large block a gain that knew more of their future than the lookahead, so a
    /// recording diarized whole and streamed could disagree.)
    ///
    /// [`lookahead`]: LevelGain::lookahead
    pub fn push(&mut self, samples: &[f32], emit: &mut dyn FnMut(&[f32])) {
        let mut rest = samples;
        while !rest.is_empty() {
            if self.settled {
                emit(rest);
                return;
            }
            // Up to the sample that completes the frame being measured.
            let take = (FRAME - self.frame.len()).min(rest.len());
            let (piece, after) = rest.split_at(take);
            rest = after;
            let Some((&last, before)) = piece.split_last() else { continue };
            // The samples before it are released at the gain known before it.
            self.hold(before, emit);
            self.frame.push(if last.is_finite() { last } else { 0.0 });
            self.held.push_back(last);
            if self.frame.len() == FRAME {
                self.measure();
                if self.reached_target() {
                    self.settled = true;
                    self.release(self.held.len(), emit);
                    self.frame = Vec::new();
                    self.held = VecDeque::new();
                    continue;
                }
            }
            let over = self.held.len().saturating_sub(self.lookahead);
            self.release(over, emit);
        }
    }

    /// Takes samples that complete no frame, and releases what lies beyond the lookahead.
    fn hold(&mut self, samples: &[f32], emit: &mut dyn FnMut(&[f32])) {
        self.frame.extend(samples.iter().map(|&s| if s.is_finite() { s } else { 0.0 }));
        self.held.extend(samples.iter().copied());
        let over = self.held.len().saturating_sub(self.lookahead);
        self.release(over, emit);
    }

    /// Releases everything held, at the final gain.
    pub fn finish(&mut self, emit: &mut dyn FnMut(&[f32])) {
        self.release(self.held.len(), emit);
    }

    /// The frame's power about its mean (a DC offset is not level) enters the loudest set.
    fn measure(&mut self) {
        let mean = self.frame.iter().sum::<f32>() / FRAME as f32;
        let power = self.frame.iter().map(|s| (s - mean) * (s - mean)).sum::<f32>() / FRAME as f32;
        self.frame.clear();
        if power > 1e-12 {
            let bin = ((10.0 * power.log10() - LOWEST_DB) / BIN_DB).floor();
            self.histogram[(bin.max(0.0) as usize).min(BINS - 1)] += 1;
            self.counted += 1;
        }
        self.loudest.push(Reverse(power.max(0.0).to_bits()));
        self.loudest_sum += f64::from(power.max(0.0));
        if self.loudest.len() > LOUDEST_FRAMES {
            if let Some(Reverse(bits)) = self.loudest.pop() {
                self.loudest_sum -= f64::from(f32::from_bits(bits));
            }
        }
    }

    fn release(&mut self, n: usize, emit: &mut dyn FnMut(&[f32])) {
        let g = self.gain();
        let mut left = n.min(self.held.len());
        while left > 0 {
            let chunk = left.min(4096);
            self.out.extend(self.held.drain(..chunk).map(|s| s * g));
            emit(&self.out);
            self.out.clear();
            left -= chunk;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(g: &mut LevelGain, x: &[f32], block: usize) -> Vec<f32> {
        let mut out = Vec::new();
        for c in x.chunks(block) {
            g.push(c, &mut |s| out.extend_from_slice(s));
        }
        g.finish(&mut |s| out.extend_from_slice(s));
        out
    }

    #[test]
    fn a_quiet_signal_is_raised_to_the_target_whatever_its_gain() {
        // One second of hiss, then a 440 Hz tone of amplitude a for one second: its power is
        // a²/2 (the hiss adds a²/10⁴), so the loudest second of the 0.01 tone is −43.0 dB and
        // the gain to −20 dB is √(0.01 / 0.000_050_01) = 14.14.
        // Under it, a noise floor 40 dB below the tone (alternating ±a/100 has power a²/10⁴).
        let tone = |a: f32| -> Vec<f32> {
            (0..32_000usize)
                .map(|i| {
                    let hiss = if i.is_multiple_of(2) { a / 100.0 } else { -a / 100.0 };
                    hiss + if i < 16_000 { 0.0 } else { a * (i as f32 * 0.172_787_6).sin() }
                })
                .collect()
        };
        let quiet = run(&mut LevelGain::new(-20.0, 40.0, 48_000), &tone(0.01), 1000);
        let louder = run(&mut LevelGain::new(-20.0, 40.0, 48_000), &tone(0.1), 333);
        assert_eq!(quiet.len(), 32_000);
        assert_eq!(louder.len(), 32_000);
        let peak = |x: &[f32]| x.iter().fold(0f32, |m, s| m.max(s.abs()));
        assert!((peak(&quiet) - 0.142_83).abs() < 2e-4, "{}", peak(&quiet));
        for (a, b) in quiet.iter().zip(&louder) {
            assert!((a - b).abs() < 1e-5, "{a} {b}");
        }
    }

    #[test]
    fn the_output_does_not_depend_on_the_block_sizes() {
        // Hiss at −60 dB for 2 s, a tone at −40 dB for 1 s, then one at −30 dB for 1 s: the
        // level grows twice, each time while samples before it are still held back. The
        // samples of the first tone leave before the second is heard (lookahead 0.5 s), so
        // they get the gain the first tone alone sets, whichever blocks the signal came in.
        let x: Vec<f32> = (0..64_000usize)
            .map(|i| {
                let hiss = if i.is_multiple_of(2) { 0.001 } else { -0.001 };
                let a = match i {
                    0..32_000 => 0.0,
                    32_000..48_000 => 0.01,
                    _ => 0.0316,
                };
                hiss + a * (i as f32 * 0.172_787_6).sin()
            })
            .collect();
        let whole = run(&mut LevelGain::new(-20.0, 40.0, 8_000), &x, x.len());
        assert_eq!(whole.len(), x.len());
        for block in [1, 255, 256, 257, 4093] {
            let out = run(&mut LevelGain::new(-20.0, 40.0, 8_000), &x, block);
            assert!(out == whole, "blocks of {block}");
        }
        // The first tone's first half: raised by the gain the first tone alone sets, not by the
        // louder second tone's. Sample 36 000 leaves when sample 44 000 comes in: 171 frames
        // are complete, 46 of them the first tone (power 5.1·10⁻⁵), so the loudest 62 frames
        // average 3.810·10⁻⁵ and the gain to −20 dB is √(0.01 / 3.810·10⁻⁵) = 16.200. Sample
        // 60 000 leaves at the end, at the gain all 250 frames set: 62 of the second tone,
        // 5.003·10⁻⁴, a gain of 4.471 (what both got when a whole block was measured first).
        let gain = whole[36_000] / x[36_000];
        let later = whole[60_000] / x[60_000];
        assert!((gain - 16.200).abs() < 2e-3, "{gain}");
        assert!((later - 4.471).abs() < 2e-3, "{later}");
    }

    #[test]
    fn a_signal_at_the_target_passes_unchanged_and_undelayed() {
        let x: Vec<f32> = (0..40_000).map(|i| 0.5 * (i as f32 * 0.1).sin()).collect();
        let mut g = LevelGain::new(-20.0, 40.0, 48_000);
        let mut out = Vec::new();
        g.push(&x[..20_000], &mut |s| out.extend_from_slice(s));
        // The loudest second (−9 dB) is over the target once 62 frames are in: all released.
        assert_eq!(out.len(), 20_000);
        g.push(&x[20_000..], &mut |s| out.extend_from_slice(s));
        assert_eq!(out, x);
    }

    #[test]
    fn digital_silence_and_steady_noise_are_not_raised() {
        let mut g = LevelGain::new(-20.0, 40.0, 1600);
        let out = run(&mut g, &[0.0; 5000], 700);
        assert_eq!(out, vec![0.0; 5000]);
        assert_eq!(g.gain(), 1.0);
        // Hiss at −60 dB: its loudest second is its floor, 0 dB of contrast.
        let hiss: Vec<f32> =
            (0..32_000usize).map(|i| if i.is_multiple_of(2) { 0.001 } else { -0.001 }).collect();
        let mut g = LevelGain::new(-20.0, 40.0, 48_000);
        assert_eq!(run(&mut g, &hiss, 1000), hiss);
        assert_eq!(g.gain(), 1.0);
    }

    #[test]
    fn the_gain_grows_with_the_contrast_over_the_floor() {
        // Hiss at −60.125 dB (its 0.25 dB bin starts at −60.25), then one second of a burst at
        // −51.25 dB: 9 dB of contrast, half way from 6 to 12 dB, so half the full gain in dB:
        // the full gain is 31.25 dB (to −20 dB), the gain 15.625 dB.
        let square = |db: f32, i: usize| {
            let a = 10f32.powf(db / 20.0);
            if i.is_multiple_of(2) {
                a
            } else {
                -a
            }
        };
        let x: Vec<f32> =
            (0..48_000).map(|i| square(if i >= 32_000 { -51.25 } else { -60.125 }, i)).collect();
        let mut g = LevelGain::new(-20.0, 60.0, 64_000);
        run(&mut g, &x, 4096);
        let db = 20.0 * g.gain().log10();
        assert!((db - 15.625).abs() < 0.01, "{db}");
    }
}
