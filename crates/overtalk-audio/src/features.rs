//! Per-track features on the analysis grid, computed in one streaming pass and stored compactly.
//!
//! ```text
//! samples at any rate ─► Resampler16k ─┬─► EnergyFramer ─► energy  (i16, 0.01 dB, every 10 ms)
//!                                      └─► VadRunner    ─► speech  (u8, 1/255, every VAD frame)
//! ```
//!
//! Three bytes per 10 ms frame plus one per VAD frame: a 10-hour track takes about 13 MB, so
//! multitrack detection over long recordings stays within a small memory budget.

use overtalk::{Delta, Result};

use crate::frames::{EnergyFramer, HOP_DELTA};
use crate::resample::Resampler16k;
use crate::vad::{Vad, VadRunner};

/// The features of one track.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackFeatures {
    /// The speaker or track name.
    pub name: String,
    /// Frame energy in hundredths of a dB (dBFS × 100), one per 10 ms frame.
    pub energy_cdb: Vec<i16>,
    /// Speech probability × 255, one per VAD frame (empty when no VAD ran).
    pub vad: Vec<u8>,
    /// The VAD frame hop.
    pub vad_hop: Delta,
    /// Number of 16 kHz samples the features describe.
    pub samples: u64,
}

impl TrackFeatures {
    /// Number of 10 ms frames.
    pub fn frames(&self) -> usize {
        self.energy_cdb.len()
    }

    /// The energy of frame `t` in dBFS.
    pub fn energy_db(&self, t: usize) -> f32 {
        f32::from(self.energy_cdb[t]) / 100.0
    }

    /// The speech probability of the VAD frame covering the middle of 10 ms frame `t` (1.0 when
    /// no VAD ran).
    pub fn vad_at(&self, t: usize) -> f32 {
        if self.vad.is_empty() || self.vad_hop.0 <= 0 {
            return 1.0;
        }
        let mid = t as i64 * HOP_DELTA.0 + HOP_DELTA.0 / 2;
        let k = ((mid / self.vad_hop.0) as usize).min(self.vad.len() - 1);
        f32::from(self.vad[k]) / 255.0
    }

    /// The duration covered.
    pub fn duration(&self) -> Delta {
        crate::decode::frames_to_delta(self.samples, crate::resample::ANALYSIS_RATE)
    }
}

/// Streams one channel's samples (at its own rate) into [`TrackFeatures`].
pub struct TrackAnalyzer {
    features: TrackFeatures,
    resampler: Resampler16k,
    framer: EnergyFramer,
    vad: Option<VadRunner>,
}

impl std::fmt::Debug for TrackAnalyzer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TrackAnalyzer").field("name", &self.features.name).finish()
    }
}

impl TrackAnalyzer {
    /// An analyzer for a track at `rate` Hz; `vad` is the detector to run (or none).
    pub fn new(name: &str, rate: u32, vad: Option<Box<dyn Vad>>) -> Result<TrackAnalyzer> {
        let vad = vad.map(VadRunner::new);
        let vad_hop = vad.as_ref().map_or(Delta::ZERO, VadRunner::hop);
        Ok(TrackAnalyzer {
            features: TrackFeatures {
                name: name.to_owned(),
                energy_cdb: Vec::new(),
                vad: Vec::new(),
                vad_hop,
                samples: 0,
            },
            resampler: Resampler16k::new(rate)?,
            framer: EnergyFramer::new(),
            vad,
        })
    }

    /// Feeds samples at the track's rate.
    pub fn push(&mut self, samples: impl Iterator<Item = f32>) -> Result<()> {
        let TrackAnalyzer { features, resampler, framer, vad } = self;
        resampler.push(samples, &mut |s| consume(features, framer, vad.as_mut(), s))
    }

    /// Flushes and returns the features.
    pub fn finish(mut self) -> Result<TrackFeatures> {
        {
            let TrackAnalyzer { features, resampler, framer, vad } = &mut self;
            resampler.finish(&mut |s| consume(features, framer, vad.as_mut(), s))?;
        }
        let TrackAnalyzer { mut features, mut framer, vad, .. } = self;
        framer.finish(&mut |e| features.energy_cdb.push(to_cdb(e)));
        if let Some(mut v) = vad {
            v.finish(&mut |p| features.vad.push(to_u8(p)));
        }
        Ok(features)
    }
}

fn consume(
    features: &mut TrackFeatures,
    framer: &mut EnergyFramer,
    vad: Option<&mut VadRunner>,
    s: &[f32],
) {
    features.samples += s.len() as u64;
    let energy = &mut features.energy_cdb;
    framer.push(s, &mut |e| energy.push(to_cdb(e)));
    if let Some(v) = vad {
        let probs = &mut features.vad;
        v.push(s, &mut |p| probs.push(to_u8(p)));
    }
}

fn to_cdb(db: f32) -> i16 {
    (db * 100.0).round().clamp(-12_000.0, 3_000.0) as i16
}

fn to_u8(p: f32) -> u8 {
    (p * 255.0).round().clamp(0.0, 255.0) as u8
}
