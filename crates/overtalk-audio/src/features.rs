//! Per-track features on the analysis grid, computed in one streaming pass and stored compactly.
//!
//! ```text
//! samples at any rate ─► Resampler16k ─┬─► EnergyFramer ─► energy  (i16, 0.01 dB, every 10 ms)
//!                                      │                └► bands   (u8 × BANDS, 0.5 dB, every 10 ms)
//!                                      └─► VadRunner    ─► speech  (u8, 1/255, every VAD frame)
//! ```
//!
//! ## Memory
//!
//! Per 10 ms frame and track, in RAM: two bytes of energy, and about one byte of speech
//! probability (one per VAD frame) — 0.9 MB per track-hour. The [`BANDS`] bytes of band energy
//! per frame (8.6 MB per track-hour) are kept in RAM only up to [`BAND_SPILL_BYTES`] per track
//! (about 29 minutes); past that, a [`BandStore`] moves them to an anonymous temporary file
//! (`tempfile::tempfile`, in the system temporary directory, removed when the features are
//! dropped) and keeps in RAM only a write buffer of [`BAND_CHUNK_FRAMES`] frames. They are read
//! back in order, block by block, through a [`BandReader`] holding one block: a long recording's
//! band energies cost disk (24 bytes per frame per track, 8.6 MB per track-hour), not memory.

use std::env::temp_dir;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::{Arc, Mutex};

use overtalk::{Delta, Error, FrameGrid, Result, Rounding};

use crate::frames::{EnergyFramer, BANDS, GRID};
use crate::music::{MusicMeasures, MusicMeter};
use crate::resample::Resampler16k;
use crate::vad::{Vad, VadRunner};

/// Band bytes a track keeps in RAM before moving them to a temporary file (4 MiB: about 29
/// minutes of 10 ms frames).
pub const BAND_SPILL_BYTES: usize = 4 << 20;

/// Frames of band energies written or read at a time once they are in a temporary file.
pub const BAND_CHUNK_FRAMES: usize = 4096;

/// The band energies of one track, [`BANDS`] bytes per 10 ms frame: in RAM while short, in an
/// anonymous temporary file past a size limit (see the module documentation). Frames are
/// appended in order and read back in order through a [`BandReader`].
///
/// ```text
/// frames   0 ……………………………… spilled-1 │ spilled …… frames-1
///          temporary file (on disk)     │ tail (in RAM, < one chunk once spilled)
/// ```
#[derive(Clone, Debug)]
pub struct BandStore {
    /// Frames stored.
    frames: usize,
    /// Frames written to the file.
    spilled: usize,
    /// The frames not in the file.
    tail: Vec<u8>,
    /// The temporary file, once the store has grown past its RAM limit.
    file: Option<Arc<Mutex<File>>>,
    /// Bytes kept in RAM before spilling.
    limit: usize,
}

impl Default for BandStore {
    /// An empty store with the default RAM limit, [`BAND_SPILL_BYTES`].
    fn default() -> BandStore {
        BandStore::new(BAND_SPILL_BYTES)
    }
}

impl BandStore {
    /// An empty store that keeps up to `limit` bytes in RAM.
    pub fn new(limit: usize) -> BandStore {
        BandStore { frames: 0, spilled: 0, tail: Vec::new(), file: None, limit }
    }

    /// Frames stored.
    pub fn frames(&self) -> usize {
        self.frames
    }

    /// Whether the frames are (partly) in a temporary file.
    pub fn is_spilled(&self) -> bool {
        self.file.is_some()
    }

    /// Appends one frame of quantised band values.
    fn push(&mut self, frame: impl Iterator<Item = u8>) {
        let before = self.tail.len();
        self.tail.extend(frame.take(BANDS));
        self.tail.resize(before + BANDS, 0);
        self.frames += 1;
    }

    /// Moves the frames in RAM to the temporary file when they exceed the limit (whole chunks
    /// only, or everything when `all`).
    fn spill(&mut self, all: bool) -> Result<()> {
        let chunk = BAND_CHUNK_FRAMES * BANDS;
        if self.file.is_none() {
            if self.tail.len() <= self.limit {
                return Ok(());
            }
            // An error names the directory (set by TMPDIR) so a full or read-only one is found.
            let file = tempfile::tempfile().map_err(|e| Error::from(e).with_path(temp_dir()))?;
            self.file = Some(Arc::new(Mutex::new(file)));
        }
        let whole = if all { self.tail.len() } else { self.tail.len() / chunk * chunk };
        if whole == 0 {
            return Ok(());
        }
        if let Some(file) = &self.file {
            let mut f = file.lock().map_err(|_| Error::invalid("band store lock poisoned"))?;
            f.seek(SeekFrom::Start((self.spilled * BANDS) as u64))
                .and_then(|_| f.write_all(&self.tail[..whole]))
                .map_err(|e| Error::from(e).with_path(temp_dir()))?;
        }
        self.spilled += whole / BANDS;
        let rest = self.tail.split_off(whole);
        // Give back the RAM the in-memory phase used.
        self.tail = Vec::with_capacity(chunk.max(rest.len()));
        self.tail.extend_from_slice(&rest);
        Ok(())
    }

    /// Forgets the first `frames` frames, which must all still be in RAM (a store that has
    /// spilled to its temporary file keeps everything: an error).
    fn drop_front(&mut self, frames: usize) -> Result<()> {
        if self.file.is_some() {
            return Err(Error::invalid(
                "band energies moved to a temporary file cannot be dropped from the front",
            ));
        }
        let frames = frames.min(self.frames);
        self.tail.drain(..frames * BANDS);
        self.frames -= frames;
        Ok(())
    }

    /// A reader that returns the frames in order, one block in RAM at a time.
    pub fn reader(&self) -> BandReader<'_> {
        BandReader { store: self, buf: Vec::new(), start: 0, len: 0 }
    }
}

/// Reads a [`BandStore`] frame by frame, in order (any order works, but a jump outside the
/// current block costs a read of [`BAND_CHUNK_FRAMES`] frames).
#[derive(Debug)]
pub struct BandReader<'a> {
    store: &'a BandStore,
    buf: Vec<u8>,
    /// First frame in `buf` and how many it holds.
    start: usize,
    len: usize,
}

impl BandReader<'_> {
    /// Makes frame `t` available to [`frame`](BandReader::frame) (reads its block from the
    /// temporary file if needed).
    pub fn load(&mut self, t: usize) -> Result<()> {
        let s = self.store;
        if t < s.spilled && !(self.start..self.start + self.len).contains(&t) {
            let start = t / BAND_CHUNK_FRAMES * BAND_CHUNK_FRAMES;
            let len = BAND_CHUNK_FRAMES.min(s.spilled - start);
            self.buf.resize(len * BANDS, 0);
            if let Some(file) = &s.file {
                let mut f = file.lock().map_err(|_| Error::invalid("band store lock poisoned"))?;
                f.seek(SeekFrom::Start((start * BANDS) as u64))
                    .and_then(|_| f.read_exact(&mut self.buf))
                    .map_err(|e| Error::from(e).with_path(temp_dir()))?;
            }
            self.start = start;
            self.len = len;
        }
        Ok(())
    }

    /// The [`BANDS`] values of frame `t` (after [`load`](BandReader::load)`(t)`; empty past the
    /// end or when `t` was not loaded).
    pub fn frame(&self, t: usize) -> &[u8] {
        let s = self.store;
        if t >= s.frames {
            &[]
        } else if t >= s.spilled {
            let o = (t - s.spilled) * BANDS;
            &s.tail[o..o + BANDS]
        } else if (self.start..self.start + self.len).contains(&t) {
            let o = (t - self.start) * BANDS;
            &self.buf[o..o + BANDS]
        } else {
            &[]
        }
    }
}

/// The features of one track.
#[derive(Clone, Debug)]
pub struct TrackFeatures {
    /// The speaker or track name.
    pub name: String,
    /// Frame energy in hundredths of a dB (dBFS × 100), one per 10 ms frame.
    pub energy_cdb: Vec<i16>,
    /// Band energies, [`BANDS`] per 10 ms frame, each in 0.5 dB steps above
    /// [`BAND_BASE_DB`] (0 = at or below it); empty when not measured.
    pub bands: BandStore,
    /// Speech probability × 255, one per VAD frame (empty when no VAD ran).
    pub vad: Vec<u8>,
    /// The VAD frame hop.
    pub vad_hop: Delta,
    /// Number of 16 kHz samples the features describe.
    pub samples: u64,
    /// How music-like the track sounds, window by window ([`crate::music`]), when measured
    /// ([`TrackAnalyzer::measure_music`]); judged once the track's speech is known.
    pub music: Option<MusicMeasures>,
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
        self.bands.frames() > 0 && self.bands.frames() >= self.energy_cdb.len()
    }

    /// The speech probability of the VAD frame covering the middle of 10 ms frame `t` (1.0 when
    /// no VAD ran).
    pub fn vad_at(&self, t: usize) -> f32 {
        if self.vad.is_empty() || self.vad_hop.micros() <= 0 {
            return 1.0;
        }
        let k = FrameGrid::new(self.vad_hop).index_of(GRID.centre_of(t), Rounding::Floor);
        let k = k.min(self.vad.len() - 1);
        f32::from(self.vad[k]) / 255.0
    }

    /// Extends the track with digital silence to `frames` 10 ms frames (nothing when it is
    /// already that long): a track that ends early is silent after its end, so tracks of
    /// unequal length are analysed over the longest rather than cut to the shortest (which
    /// dropped the other speakers' speech after it).
    pub fn pad_to(&mut self, frames: usize) -> Result<()> {
        let old = self.frames();
        if frames <= old {
            return Ok(());
        }
        let has_bands = self.has_bands();
        for _ in old..frames {
            self.energy_cdb.push(to_cdb(crate::frames::SILENCE_DB));
            if has_bands {
                self.bands.push(std::iter::repeat(0));
            }
        }
        if has_bands {
            self.bands.spill(self.bands.is_spilled())?;
        }
        if !self.vad.is_empty() && self.vad_hop.micros() > 0 {
            let want = FrameGrid::new(self.vad_hop).index_of(GRID.start_of(frames), Rounding::Ceil);
            if want > self.vad.len() {
                self.vad.resize(want, 0);
            }
        }
        self.samples = self.samples.max(frames as u64 * crate::frames::HOP as u64);
        Ok(())
    }

    /// A copy of frames `[from, to)` as features of their own (frame 0 is `from`), for
    /// deciding over a window of a growing recording. `from` must lie on a voice-activity frame
    /// boundary ([`TrackFeatures::window_step`]).
    pub fn window(&self, from: usize, to: usize) -> Result<TrackFeatures> {
        let to = to.min(self.frames());
        let from = from.min(to);
        let mut bands = BandStore::new(usize::MAX);
        if self.has_bands() {
            let mut reader = self.bands.reader();
            for t in from..to {
                reader.load(t)?;
                bands.push(reader.frame(t).iter().copied());
            }
        }
        let vad = if self.vad.is_empty() || self.vad_hop.micros() <= 0 {
            Vec::new()
        } else {
            let vad = FrameGrid::new(self.vad_hop);
            let a = vad.index_of(GRID.start_of(from), Rounding::Floor);
            let z = vad.index_of(GRID.start_of(to), Rounding::Ceil);
            self.vad.get(a.min(self.vad.len())..z.min(self.vad.len())).unwrap_or_default().to_vec()
        };
        Ok(TrackFeatures {
            name: self.name.clone(),
            energy_cdb: self.energy_cdb[from..to].to_vec(),
            bands,
            vad,
            vad_hop: self.vad_hop,
            samples: ((to - from) * crate::frames::HOP) as u64,
            music: None,
        })
    }

    /// Forgets the first `frames` 10 ms frames (frame `frames` becomes frame 0), so a growing
    /// recording can keep a bounded history. `frames` must be a multiple of
    /// [`TrackFeatures::window_step`], so the voice-activity frames stay aligned, and the band
    /// energies must still be in RAM ([`TrackAnalyzer::set_band_spill`]).
    pub fn drop_front(&mut self, frames: usize) -> Result<()> {
        let frames = frames.min(self.frames());
        if !frames.is_multiple_of(self.window_step()) {
            return Err(Error::invalid(format!(
                "features: {frames} frames dropped, not a multiple of the voice-activity step {}",
                self.window_step()
            )));
        }
        if self.bands.frames() > 0 {
            self.bands.drop_front(frames)?;
        }
        self.energy_cdb.drain(..frames);
        if !self.vad.is_empty() && self.vad_hop.micros() > 0 {
            let n = (frames as i64 * GRID.step().micros() / self.vad_hop.micros()) as usize;
            self.vad.drain(..n.min(self.vad.len()));
        }
        self.samples = self.samples.saturating_sub((frames * crate::frames::HOP) as u64);
        Ok(())
    }

    /// The 10 ms frames between window starts that keep the voice-activity frames aligned
    /// (the least common multiple of the two hops, in frames).
    pub fn window_step(&self) -> usize {
        let hop = self.vad_hop.micros();
        if self.vad.is_empty() || hop <= 0 {
            return 1;
        }
        let step = GRID.step().micros();
        let (mut a, mut b) = (step, hop);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        ((step / a) * hop / step).max(1) as usize
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
    music: Option<MusicMeter>,
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
                bands: BandStore::new(BAND_SPILL_BYTES),
                vad: Vec::new(),
                vad_hop,
                samples: 0,
                music: None,
            },
            resampler: Resampler16k::new(rate)?,
            framer: EnergyFramer::with_bands(),
            vad,
            music: None,
        })
    }

    /// Also measures how music-like the track sounds ([`crate::music`]; call before the first
    /// [`TrackAnalyzer::push`]): the finished features carry [`TrackFeatures::music`].
    pub fn measure_music(&mut self) {
        self.music = Some(MusicMeter::default());
    }

    /// Keeps at most `bytes` of band energies in RAM before moving them to a temporary file
    /// (default [`BAND_SPILL_BYTES`]; 0 spills from the first chunk).
    pub fn set_band_spill(&mut self, bytes: usize) {
        self.features.bands.limit = bytes;
    }

    /// Feeds the voice activity detector the samples as they are, with no [`LevelGain`]
    /// (call before the first [`TrackAnalyzer::push`]): its probabilities come as soon as
    /// their frame is complete, for a live detector that cannot wait for the look-ahead, at
    /// the price of depending on the recording's level.
    ///
    /// [`LevelGain`]: crate::vad::LevelGain
    pub fn without_level_gain(&mut self) {
        if let Some(v) = &mut self.vad {
            v.drop_level_gain();
        }
    }

    /// The features computed so far (they grow with every [`TrackAnalyzer::push`]; the
    /// resampler and the voice activity detector hold back up to a few frames).
    pub fn features(&self) -> &TrackFeatures {
        &self.features
    }

    /// Forgets the first `frames` frames of the features computed so far (see
    /// [`TrackFeatures::drop_front`]); the analysis goes on from where it was.
    pub fn drop_front(&mut self, frames: usize) -> Result<()> {
        self.features.drop_front(frames)
    }

    /// Feeds samples at the track's rate.
    ///
    /// The band store spills to its file as the frames come, so a long push (the silence put
    /// before a track that starts hours late) keeps its memory bounded.
    pub fn push(&mut self, samples: impl Iterator<Item = f32>) -> Result<()> {
        let TrackAnalyzer { features, resampler, framer, vad, music } = self;
        let mut spilled = Ok(());
        resampler.push(samples, &mut |s| {
            consume(features, framer, vad.as_mut(), s);
            if let Some(m) = music.as_mut() {
                m.push(s);
            }
            if spilled.is_ok() {
                spilled = features.bands.spill(false);
            }
        })?;
        spilled?;
        features.bands.spill(false)
    }

    /// Flushes and returns the features.
    pub fn finish(mut self) -> Result<TrackFeatures> {
        {
            let TrackAnalyzer { features, resampler, framer, vad, music } = &mut self;
            resampler.finish(&mut |s| {
                consume(features, framer, vad.as_mut(), s);
                if let Some(m) = music.as_mut() {
                    m.push(s);
                }
            })?;
        }
        let TrackAnalyzer { mut features, mut framer, vad, music, .. } = self;
        features.music = music.map(MusicMeter::into_measures);
        let TrackFeatures { energy_cdb, bands, .. } = &mut features;
        framer.finish_bands(&mut |e, b| {
            energy_cdb.push(to_cdb(e));
            bands.push(b.iter().map(|&v| to_band_q(v)));
        });
        if bands.is_spilled() {
            bands.spill(true)?;
        }
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
        bands.push(b.iter().map(|&v| to_band_q(v)));
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

fn to_u8(p: f32) -> u8 {
    (p * 255.0).round().clamp(0.0, 255.0) as u8
}
