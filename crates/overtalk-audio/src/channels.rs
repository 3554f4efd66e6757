//! Whether the channels of one recording carry different things: a two-channel call (each
//! party on their own channel) mixed down to one track loses what the channels tell apart,
//! who spoke and when two spoke at once; `--channels` keeps it. [`Downmix`] makes the one
//! track that a recording mixed down is heard as, and uses one channel alone when the
//! channels cancel out.
//!
//! ## The rule
//!
//! Over the first [`CHANNEL_SCAN`] of the recording, per 10 ms frame and channel, the energy
//! `E_c` in dBFS (as [`crate::frames::EnergyFramer`] measures it, at the file's own rate). A
//! frame is *active* when its loudest channel is above [`ACTIVE_DB`]; the channels *differ*
//! when, in at least [`DIFFER_SHARE`] of the active frames (and at least 100 of them), the
//! loudest and the quietest channel are [`DIFFER_DB`] or more apart.
//!
//! ```text
//! call, ch1  ▇█▇▁▁▁▁▇█▁▁   one voice per channel: most active frames 10 dB+ apart
//! call, ch2  ▁▁▁▇█▇▁▁▁▇█
//! stereo     ▇█▇▇█▇▁▇█▇█   one mix on both (or panned a little): the channels agree
//! ```

use std::path::Path;

use overtalk::{Delta, Result};

use crate::decode::{Block, DecodeOptions, Decoder};
use crate::frames::frame_energies;

/// How much of the recording is scanned (the start is enough to tell a call from a mix).
pub const CHANNEL_SCAN: Delta = Delta::from_micros(120_000_000);
/// A frame takes part when its loudest channel is above this (dBFS).
pub const ACTIVE_DB: f32 = -50.0;
/// Channels this far apart in a frame differ there (dB).
pub const DIFFER_DB: f32 = 10.0;
/// The share of active frames where channels must differ for the recording to count as one
/// with different channels.
pub const DIFFER_SHARE: f64 = 0.2;

/// What [`compare_channels`] measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChannelComparison {
    /// Channels in the recording.
    pub channels: usize,
    /// Active 10 ms frames scanned.
    pub active_frames: usize,
    /// Share of them where the loudest and quietest channel are [`DIFFER_DB`] or more apart.
    pub differ_share: f64,
}

impl ChannelComparison {
    /// Whether the channels carry different things (see the module documentation).
    pub fn differ(&self) -> bool {
        self.channels >= 2 && self.active_frames >= 100 && self.differ_share >= DIFFER_SHARE
    }
}

/// Compares the channels of the recording at `path` over its first [`CHANNEL_SCAN`]; `None`
/// for a mono recording.
pub fn compare_channels(path: &Path, options: &DecodeOptions) -> Result<Option<ChannelComparison>> {
    let mut decoder = Decoder::open(path, options)?;
    let info = decoder.info().clone();
    if info.channels < 2 {
        return Ok(None);
    }
    let limit = (CHANNEL_SCAN.micros() as u128 * u128::from(info.sample_rate) / 1_000_000) as usize;
    let mut samples: Vec<Vec<f32>> = vec![Vec::new(); info.channels];
    let mut seen = 0usize;
    while seen < limit {
        let Some(block) = decoder.next_block().map_err(|e| e.with_path(path))? else { break };
        let take = block.frames().min(limit - seen);
        for (c, s) in samples.iter_mut().enumerate() {
            s.extend(block.channel(c.min(block.channels().saturating_sub(1))).take(take));
        }
        seen += take;
    }
    Ok(Some(compare(&samples)))
}

/// The comparison of channels given as samples (one vector per channel, any one rate).
pub fn compare(samples: &[Vec<f32>]) -> ChannelComparison {
    let energies: Vec<Vec<f32>> = samples.iter().map(|s| frame_energies(s)).collect();
    let n = energies.iter().map(Vec::len).min().unwrap_or(0);
    let (mut active, mut differ) = (0usize, 0usize);
    for t in 0..n {
        let (lo, hi) = energies
            .iter()
            .map(|e| e[t])
            .fold((f32::MAX, f32::MIN), |(lo, hi), e| (lo.min(e), hi.max(e)));
        if hi > ACTIVE_DB {
            active += 1;
            if hi - lo >= DIFFER_DB {
                differ += 1;
            }
        }
    }
    ChannelComparison {
        channels: samples.len(),
        active_frames: active,
        differ_share: if active == 0 { 0.0 } else { differ as f64 / active as f64 },
    }
}

/// The channels' mean is this far (dB) or more below their mean power: they cancel out.
pub const CANCEL_DB: f32 = 20.0;

/// Blocks quieter than this (mean channel power, dBFS) say nothing about cancelling.
const CANCEL_MIN_DB: f32 = -90.0;

/// How the channels of a recording become the one track a speaker's analysis hears: their mean,
/// frame by frame, unless they cancel out (one channel is the other inverted: a balanced lead
/// wired the wrong way round, a stereo effect), when the mean is near silence while each
/// channel carries the sound. From the first block where the mean is [`CANCEL_DB`] or more
/// below the channels' mean power, the loudest channel of that block is used alone, to the end.
///
/// ```text
/// left       ▁▅▇▅▁▁▆▇▆▁      right = −left
/// right      ▁▅▇▅▁▁▆▇▆▁ (inverted)
/// mean       ▁▁▁▁▁▁▁▁▁▁      "silent": −∞ dB against the channels
/// downmix    ▁▅▇▅▁▁▆▇▆▁      the left channel alone, said in a warning
/// ```
#[derive(Clone, Debug, Default)]
pub struct Downmix {
    /// The channel used alone, and the frame from which it was.
    fallback: Option<(usize, u64)>,
    buf: Vec<f32>,
}

impl Downmix {
    /// A downmix at the start of a recording.
    pub fn new() -> Downmix {
        Downmix::default()
    }

    /// The one track of `block`: the channels' mean, or the channel used alone once they were
    /// found to cancel out.
    pub fn mix(&mut self, block: &Block<'_>) -> &[f32] {
        self.buf.clear();
        let channels = block.channels();
        if channels >= 2 && self.fallback.is_none() {
            let mut power = vec![0f64; channels];
            let mut mean_power = 0f64;
            for frame in block.interleaved().chunks_exact(channels) {
                let mean = frame.iter().map(|&x| f64::from(x)).sum::<f64>() / channels as f64;
                mean_power += mean * mean;
                for (p, &x) in power.iter_mut().zip(frame) {
                    *p += f64::from(x) * f64::from(x);
                }
            }
            let channel_power = power.iter().sum::<f64>() / channels as f64;
            let frames = block.frames().max(1) as f64;
            if channel_power / frames > 10f64.powf(f64::from(CANCEL_MIN_DB) / 10.0)
                && mean_power < channel_power * 10f64.powf(-f64::from(CANCEL_DB) / 10.0)
            {
                let loudest = (0..channels)
                    .max_by(|&a, &b| power[a].total_cmp(&power[b]).then(b.cmp(&a)))
                    .unwrap_or(0);
                self.fallback = Some((loudest, block.first_frame));
            }
        }
        match self.fallback {
            Some((c, _)) if c < channels => self.buf.extend(block.channel(c)),
            _ => self.buf.extend(block.mono()),
        }
        &self.buf
    }

    /// The channel used alone because the channels cancel out, and the frame from which it
    /// was (`None`: the mean throughout).
    pub fn fallback(&self) -> Option<(usize, u64)> {
        self.fallback
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn burst(n: usize, on: impl Fn(usize) -> bool) -> Vec<f32> {
        (0..n).map(|i| if on(i / 1600) { 0.3 * ((i as f32) * 0.37).sin() } else { 0.0 }).collect()
    }

    #[test]
    fn a_call_differs_and_a_duplicated_mix_does_not() {
        // 4 s at 16 kHz in 0.1 s slots: A on the even slots, B on the odd ones.
        let n = 64_000;
        let a = burst(n, |s| s % 2 == 0);
        let b = burst(n, |s| s % 2 == 1);
        let call = compare(&[a.clone(), b.clone()]);
        assert_eq!(call.channels, 2);
        assert!(call.differ(), "{call:?}");
        // 8 of every 10 frames: the 25 ms windows that straddle a change hold both voices.
        assert!((call.differ_share - 0.8).abs() < 0.01, "{call:?}");
        let mix: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
        let panned: Vec<f32> = mix.iter().map(|x| x * 0.7).collect();
        let stereo = compare(&[mix, panned]);
        assert_eq!(stereo.differ_share, 0.0);
        assert!(!stereo.differ());
        // Silence: nothing active, nothing to say.
        assert!(!compare(&[vec![0.0; n], vec![0.0; n]]).differ());
    }
}
