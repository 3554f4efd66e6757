//! Decoding recordings into blocks of `f32` samples, streamed so memory does not grow with the
//! recording's duration.
//!
//! Containers and codecs (through symphonia): WAV (PCM, float, ADPCM), FLAC, MP3, Ogg Vorbis,
//! AAC in M4A/MP4/MOV, and the audio track of MKV/WebM (Vorbis, AAC, …). Opus is not decoded.
//!
//! ```text
//! file ──probe──► container ──packets──► codec ──► [priming removed] ──► Block, Block, …
//!                                                    (AAC: 1024 frames)    interleaved f32
//! ```
//!
//! **Times line up with transcripts.** Encoders prepend "priming" samples that are not part of
//! the recording. MP3 (LAME/Xing header) and Vorbis carry the amount and symphonia trims it; AAC
//! in MP4 and Matroska does not get trimmed by symphonia (it ignores MP4 edit lists), so the
//! decoder drops the container's declared delay, or the standard 1024 frames of AAC-LC when the
//! container declares none. Sample 0 of the first block is time 0 of the recording.
//!
//! **Hostile input.** Every failure is an [`overtalk::Error`]: unreadable or unrecognised files
//! (`Unsupported`), truncated or corrupt streams (`Invalid`, with the time where decoding
//! stopped), files over the size, duration or channel caps (`Limit`), and recordings with no
//! samples at all (`Invalid`). A corrupt packet in the middle of a stream is replaced by silence
//! of the same length, so later times stay right; non-finite samples (NaN, ±∞ in float WAV) are
//! replaced by 0. Both are counted in [`DecodeStats`] so callers can warn.

use std::fs::File;
use std::io::Cursor;
use std::path::Path;

use overtalk::{Delta, Error, Result};
use symphonia::core::codecs::audio::well_known::CODEC_ID_AAC;
use symphonia::core::codecs::audio::{AudioDecoder, AudioDecoderOptions};
use symphonia::core::errors::Error as SymError;
use symphonia::core::formats::probe::Hint;
use symphonia::core::formats::{FormatOptions, FormatReader, TrackType};
use symphonia::core::io::{MediaSource, MediaSourceStream};
use symphonia::core::meta::MetadataOptions;

/// Caps on what a decoder accepts (hostile or mistaken input fails early with a limit error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Longest recording accepted (default 24 hours).
    pub max_duration: Delta,
    /// Largest file accepted, in bytes (default 16 GiB).
    pub max_bytes: u64,
    /// Most channels accepted (default 64).
    pub max_channels: usize,
}

impl Default for DecodeOptions {
    fn default() -> DecodeOptions {
        DecodeOptions {
            max_duration: Delta(24 * 3600 * 1_000_000),
            max_bytes: 16 << 30,
            max_channels: 64,
        }
    }
}

/// What a recording is, as far as the container says before decoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AudioInfo {
    /// Sample rate in Hz.
    pub sample_rate: u32,
    /// Number of channels.
    pub channels: usize,
    /// The codec's short name (`pcm_s16le`, `mp3`, `aac`, …).
    pub codec: String,
    /// Frames (samples per channel) the container declares, if it does, before priming removal.
    pub declared_frames: Option<u64>,
    /// Frames of encoder priming dropped from the start so times line up.
    pub priming: u64,
}

impl AudioInfo {
    /// The declared duration, when the container declares one.
    pub fn declared_duration(&self) -> Option<Delta> {
        self.declared_frames
            .map(|f| frames_to_delta(f.saturating_sub(self.priming), self.sample_rate))
    }
}

/// What happened while decoding, for warnings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DecodeStats {
    /// Frames delivered so far.
    pub frames: u64,
    /// Samples that were NaN or infinite and were replaced by 0.
    pub non_finite: u64,
    /// Corrupt packets replaced by silence.
    pub bad_packets: u64,
}

/// One block of decoded audio: `frames × channels` samples, interleaved.
#[derive(Debug)]
pub struct Block<'a> {
    samples: &'a [f32],
    channels: usize,
    /// Index of this block's first frame in the recording.
    pub first_frame: u64,
}

impl<'a> Block<'a> {
    /// The interleaved samples (`frame0ch0, frame0ch1, …`).
    pub fn interleaved(&self) -> &'a [f32] {
        self.samples
    }

    /// Number of channels.
    pub fn channels(&self) -> usize {
        self.channels
    }

    /// Number of frames (samples per channel).
    pub fn frames(&self) -> usize {
        self.samples.len() / self.channels.max(1)
    }

    /// One channel's samples.
    pub fn channel(&self, c: usize) -> impl Iterator<Item = f32> + 'a {
        let n = self.channels.max(1);
        self.samples.iter().skip(c).step_by(n).copied()
    }

    /// The mean of all channels, frame by frame.
    pub fn mono(&self) -> impl Iterator<Item = f32> + 'a {
        let n = self.channels.max(1);
        let scale = 1.0 / n as f32;
        self.samples.chunks_exact(n).map(move |f| f.iter().sum::<f32>() * scale)
    }
}

/// A streaming decoder over one recording's default audio track.
pub struct Decoder {
    format: Box<dyn FormatReader>,
    decoder: Box<dyn AudioDecoder>,
    track_id: u32,
    info: AudioInfo,
    max_frames: u64,
    skip: u64,
    buf: Vec<f32>,
    stats: DecodeStats,
    done: bool,
}

impl std::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoder").field("info", &self.info).field("stats", &self.stats).finish()
    }
}

impl Decoder {
    /// Opens a file; the extension is only a hint (a WAV named `.mp3` still decodes).
    pub fn open(path: &Path, options: &DecodeOptions) -> Result<Decoder> {
        let file = File::open(path).map_err(|e| Error::from(e).with_path(path))?;
        let len = file.metadata().map_err(|e| Error::from(e).with_path(path))?.len();
        if len > options.max_bytes {
            return Err(Error::limit(format!(
                "the file has {len} bytes, more than the {} allowed",
                options.max_bytes
            ))
            .with_path(path));
        }
        if len == 0 {
            return Err(Error::invalid("the file is empty (0 bytes)").with_path(path));
        }
        let ext = path.extension().and_then(|e| e.to_str());
        Decoder::from_source(Box::new(file), ext, options).map_err(|e| e.with_path(path))
    }

    /// Decodes bytes held in memory (`ext` is an optional extension hint such as `"wav"`).
    pub fn from_bytes(
        bytes: Vec<u8>,
        ext: Option<&str>,
        options: &DecodeOptions,
    ) -> Result<Decoder> {
        if bytes.len() as u64 > options.max_bytes {
            return Err(Error::limit(format!(
                "the input has {} bytes, more than the {} allowed",
                bytes.len(),
                options.max_bytes
            )));
        }
        if bytes.is_empty() {
            return Err(Error::invalid("the input is empty (0 bytes)"));
        }
        Decoder::from_source(Box::new(Cursor::new(bytes)), ext, options)
    }

    fn from_source(
        source: Box<dyn MediaSource>,
        ext: Option<&str>,
        options: &DecodeOptions,
    ) -> Result<Decoder> {
        let mss = MediaSourceStream::new(source, Default::default());
        let mut hint = Hint::new();
        if let Some(ext) = ext {
            hint.with_extension(ext);
        }
        let format = symphonia::default::get_probe()
            .probe(&hint, mss, FormatOptions::default(), MetadataOptions::default())
            .map_err(|e| match e {
                SymError::Unsupported(m) if m.contains("no suitable format reader") => {
                    Error::unsupported("not a recognised audio or video container")
                }
                SymError::Unsupported(m) => Error::unsupported(format!(
                    "the container holds audio this decoder cannot read ({m})"
                )),
                other => map_error(other, "reading the container header"),
            })?;
        let track = format
            .default_track(TrackType::Audio)
            .ok_or_else(|| Error::unsupported("the file has no audio track"))?;
        let track_id = track.id;
        let params = track
            .codec_params
            .as_ref()
            .and_then(|p| p.audio())
            .ok_or_else(|| Error::unsupported("the audio track has no codec parameters"))?
            .clone();
        let sample_rate = params
            .sample_rate
            .filter(|&r| r > 0)
            .ok_or_else(|| Error::invalid("the audio track declares no sample rate"))?;
        let channels = params.channels.as_ref().map(|c| c.count()).unwrap_or(0);
        if channels > options.max_channels {
            return Err(Error::limit(format!(
                "the recording has {channels} channels, more than the {} allowed",
                options.max_channels
            )));
        }
        let is_aac = params.codec == CODEC_ID_AAC;
        let priming = if is_aac { u64::from(track.delay.unwrap_or(1024)) } else { 0 };
        let declared_frames = track.num_frames;
        let registry = symphonia::default::get_codecs();
        let codec = registry
            .get_audio_decoder(params.codec)
            .map(|d| d.codec.info.short_name.to_owned())
            .unwrap_or_else(|| format!("codec {:?}", params.codec));
        let decoder = registry
            .make_audio_decoder(&params, &AudioDecoderOptions::default())
            .map_err(|e| match e {
                SymError::Unsupported(_) => Error::unsupported(format!(
                    "the audio codec ({codec}) is not supported; convert the file to WAV or FLAC"
                )),
                other => map_error(other, "setting up the audio decoder"),
            })?;
        let max_frames = (options.max_duration.0.max(0) as u128 * u128::from(sample_rate)
            / 1_000_000)
            .min(u128::from(u64::MAX)) as u64;
        if let Some(n) = declared_frames {
            if n.saturating_sub(priming) > max_frames {
                return Err(Error::limit(format!(
                    "the recording lasts {}, longer than the {} allowed",
                    frames_to_delta(n.saturating_sub(priming), sample_rate),
                    options.max_duration
                )));
            }
        }
        let info = AudioInfo { sample_rate, channels, codec, declared_frames, priming };
        Ok(Decoder {
            format,
            decoder,
            track_id,
            info,
            max_frames,
            skip: priming,
            buf: Vec::new(),
            stats: DecodeStats::default(),
            done: false,
        })
    }

    /// What the container declares.
    pub fn info(&self) -> &AudioInfo {
        &self.info
    }

    /// Counts so far.
    pub fn stats(&self) -> DecodeStats {
        self.stats
    }

    /// The next block, or `None` at the end of the recording. A recording that ends without a
    /// single sample is an error.
    pub fn next_block(&mut self) -> Result<Option<Block<'_>>> {
        loop {
            if self.done {
                return Ok(None);
            }
            let packet = match self.format.next_packet() {
                Ok(Some(p)) => p,
                Ok(None) => {
                    self.done = true;
                    return self.finish();
                }
                Err(SymError::IoError(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                    self.done = true;
                    if self.stats.frames == 0 && self.skip == self.info.priming {
                        return Err(Error::invalid(
                            "the file is truncated: it ends before any audio",
                        ));
                    }
                    return Err(Error::invalid(format!(
                        "the file is truncated: the audio stops at {}",
                        frames_to_delta(self.stats.frames, self.info.sample_rate)
                    )));
                }
                Err(SymError::ResetRequired) => {
                    self.done = true;
                    return Err(Error::unsupported(
                        "the audio track changes its format mid-stream",
                    ));
                }
                Err(e) => {
                    self.done = true;
                    return Err(self.positioned(e));
                }
            };
            if packet.track_id != self.track_id {
                continue;
            }
            match self.decoder.decode(&packet) {
                Ok(decoded) => {
                    let channels = decoded.spec().channels().count();
                    if channels == 0 || channels > u16::MAX as usize {
                        self.done = true;
                        return Err(Error::invalid("the audio has no channels"));
                    }
                    if self.info.channels == 0 {
                        self.info.channels = channels;
                    }
                    if channels != self.info.channels {
                        self.done = true;
                        return Err(Error::unsupported(format!(
                            "the channel count changes mid-stream ({} → {channels})",
                            self.info.channels
                        )));
                    }
                    decoded.copy_to_vec_interleaved::<f32>(&mut self.buf);
                }
                Err(SymError::DecodeError(_)) => {
                    // Keep later times right: a corrupt packet becomes silence of its length.
                    self.stats.bad_packets += 1;
                    let frames = usize::try_from(packet.dur.get()).unwrap_or(0).min(1 << 20);
                    self.buf.clear();
                    self.buf.resize(frames * self.info.channels.max(1), 0.0);
                }
                Err(e) => {
                    self.done = true;
                    return Err(self.positioned(e));
                }
            }
            let channels = self.info.channels.max(1);
            let mut start = 0usize;
            if self.skip > 0 {
                let frames = (self.buf.len() / channels) as u64;
                let drop = self.skip.min(frames);
                self.skip -= drop;
                start = drop as usize * channels;
            }
            let frames = ((self.buf.len() - start) / channels) as u64;
            if frames == 0 {
                continue;
            }
            if self.stats.frames + frames > self.max_frames {
                self.done = true;
                return Err(Error::limit(format!(
                    "the recording is longer than the {} allowed",
                    frames_to_delta(self.max_frames, self.info.sample_rate)
                )));
            }
            for s in &mut self.buf[start..] {
                if !s.is_finite() {
                    *s = 0.0;
                    self.stats.non_finite += 1;
                }
            }
            self.stats.frames += frames;
            return Ok(Some(Block {
                samples: &self.buf[start..],
                channels,
                first_frame: self.stats.frames - frames,
            }));
        }
    }

    fn finish(&mut self) -> Result<Option<Block<'_>>> {
        if self.stats.frames == 0 {
            return Err(Error::invalid("the recording contains no audio samples"));
        }
        Ok(None)
    }

    fn positioned(&self, e: SymError) -> Error {
        let at = frames_to_delta(self.stats.frames, self.info.sample_rate);
        map_error(e, &format!("decoding at {at}"))
    }
}

fn map_error(e: SymError, doing: &str) -> Error {
    match e {
        SymError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            Error::invalid(format!("the file is truncated ({doing})"))
        }
        SymError::IoError(io) => Error::from(io),
        SymError::DecodeError(m) => Error::invalid(format!("malformed audio ({doing}): {m}")),
        SymError::Unsupported(m) => Error::unsupported(format!("{m} ({doing})")),
        SymError::LimitError(m) => Error::limit(format!("{m} ({doing})")),
        other => Error::invalid(format!("{other} ({doing})")),
    }
}

/// The duration of `frames` samples at `rate` Hz, rounded to the microsecond.
pub fn frames_to_delta(frames: u64, rate: u32) -> Delta {
    let us = (u128::from(frames) * 1_000_000 + u128::from(rate) / 2) / u128::from(rate.max(1));
    Delta(us.min(i64::MAX as u128) as i64)
}

/// Decodes a whole recording into memory, one `Vec` per channel. Meant for tests and short
/// clips; long recordings should be streamed with [`Decoder::next_block`].
pub fn decode_all(path: &Path, options: &DecodeOptions) -> Result<(AudioInfo, Vec<Vec<f32>>)> {
    let mut d = Decoder::open(path, options)?;
    let mut out: Vec<Vec<f32>> = Vec::new();
    while let Some(block) = d.next_block().map_err(|e| e.with_path(path))? {
        if out.is_empty() {
            out = vec![Vec::new(); block.channels()];
        }
        for (c, ch) in out.iter_mut().enumerate() {
            ch.extend(block.channel(c));
        }
    }
    Ok((d.info().clone(), out))
}
