//! Per-track features on the analysis grid, computed in one streaming pass and stored compactly.
//!
//! ```text
//! samples at any rate ─► Resampler16k ─┬─► EnergyFramer ─► energy  (i16, 0.01 dB, every 10 ms)
//!                                      │                └► bands   (u8 × BANDS, 0.5 dB, every 10 ms)
//!                                      └─► VadRunner    ─► speech  (u8, 1/255, every VAD frame)
//! ```
//!
//! Two bytes of energy and [`BANDS`] bytes of band energy per 10 ms frame plus one byte per VAD
//! frame: a track-hour takes about 10 MB, so multitrack detection over long recordings stays
//! within a bounded memory budget.

use overtalk::{Delta, Result};

use crate::frames::{EnergyFramer, BANDS, HOP_DELTA};
use crate::resample::Resampler16k;
use crate::vad::{Vad, VadRunner};

/// The features of one track.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackFeatures {
    /// The speaker or track name.
    pub name: String,
    /// Frame energy in hundredths of a dB (dBFS × 100), one per 10 ms frame.
    pub energy_cdb: Vec<i16>,
    /// Band energies, [`BANDS`] per 10 ms frame, each in 0.5 dB steps above
    /// [`BAND_BASE_DB`] (0 = at or below it); empty when not measured.
    pub bands: Vec<u8>,
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

    /// Whether band energies were measured.
    pub fn has_bands(&self) -> bool {
        !self.bands.is_empty() && self.bands.len() >= self.energy_cdb.len() * BANDS
    }

    /// The band energies of frame `t` in dBFS (requires [`has_bands`](TrackFeatures::has_bands)).
    pub fn bands_db(&self, t: usize) -> impl Iterator<Item = f32> + '_ {
        self.bands[t * BANDS..(t + 1) * BANDS].iter().map(|&q| from_band_q(q))
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
                bands: Vec::new(),
                vad: Vec::new(),
                vad_hop,
                samples: 0,
            },
            resampler: Resampler16k::new(rate)?,
            framer: EnergyFramer::with_bands(),
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
        let TrackFeatures { energy_cdb, bands, .. } = &mut features;
        framer.finish_bands(&mut |e, b| {
            energy_cdb.push(to_cdb(e));
            bands.extend(b.iter().map(|&v| to_band_q(v)));
        });
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
    let TrackFeatures { energy_cdb, bands, .. } = features;
    framer.push_bands(s, &mut |e, b| {
        energy_cdb.push(to_cdb(e));
        bands.extend(b.iter().map(|&v| to_band_q(v)));
    });
    if let Some(v) = vad {
        let probs = &mut features.vad;
        v.push(s, &mut |p| probs.push(to_u8(p)));
    }
}

fn to_cdb(db: f32) -> i16 {
    (db * 100.0).round().clamp(-12_000.0, 3_000.0) as i16
}

/// The band energy that band value 0 stands for, in dBFS.
pub const BAND_BASE_DB: f32 = -127.5;

fn to_band_q(db: f32) -> u8 {
    ((db - BAND_BASE_DB) * 2.0).round().clamp(0.0, 255.0) as u8
}

fn from_band_q(q: u8) -> f32 {
    BAND_BASE_DB + f32::from(q) / 2.0
}

fn to_u8(p: f32) -> u8 {
    (p * 255.0).round().clamp(0.0, 255.0) as u8
}
