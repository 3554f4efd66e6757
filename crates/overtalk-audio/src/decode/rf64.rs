//! RF64 and BW64 (EBU Tech 3306, ITU-R BS.2088): WAV whose sizes outgrow 32 bits. Long
//! multichannel recordings (ten hours of eight channels is 9.2 GB) are written this way;
//! neither symphonia nor hound reads it, so the header is parsed here and the PCM data (or
//! G.711 A-law and μ-law, a long call recording's) is streamed in blocks like any WAV.
//!
//! ```text
//! "RF64" 0xFFFFFFFF "WAVE" │ "ds64" riff size u64, data size u64, … │ "fmt " │ … │ "data" 0xFFFFFFFF
//!                                          └──────── the real data length ────────────┘
//! ```

use std::io::{BufReader, Read};
use std::path::Path;

use overtalk::error::RecordingProblem;
use overtalk::{Error, Result};

/// How one sample is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sample {
    U8,
    S16,
    S24,
    S32,
    F32,
    F64,
    /// G.711 A-law, one byte a sample.
    ALaw,
    /// G.711 μ-law, one byte a sample.
    MuLaw,
}

impl Sample {
    /// Bytes per sample.
    pub(super) fn width(self) -> usize {
        match self {
            Sample::U8 | Sample::ALaw | Sample::MuLaw => 1,
            Sample::S16 => 2,
            Sample::S24 => 3,
            Sample::S32 | Sample::F32 => 4,
            Sample::F64 => 8,
        }
    }

    /// symphonia's short name for the same codec.
    pub(super) fn codec(self) -> &'static str {
        match self {
            Sample::U8 => "pcm_u8",
            Sample::S16 => "pcm_s16le",
            Sample::S24 => "pcm_s24le",
            Sample::S32 => "pcm_s32le",
            Sample::F32 => "pcm_f32le",
            Sample::F64 => "pcm_f64le",
            Sample::ALaw => "pcm_alaw",
            Sample::MuLaw => "pcm_mulaw",
        }
    }

    /// One little-endian sample as `f32` in [-1, 1) (floats as stored).
    pub(super) fn decode(self, b: &[u8]) -> f32 {
        match (self, b) {
            (Sample::U8, [x, ..]) => (f32::from(*x) - 128.0) / 128.0,
            (Sample::S16, [a, b, ..]) => f32::from(i16::from_le_bytes([*a, *b])) / 32_768.0,
            (Sample::S24, [a, b, c, ..]) => {
                (i32::from_le_bytes([0, *a, *b, *c]) >> 8) as f32 / 8_388_608.0
            }
            (Sample::S32, [a, b, c, d, ..]) => {
                i32::from_le_bytes([*a, *b, *c, *d]) as f32 / 2_147_483_648.0
            }
            (Sample::F32, [a, b, c, d, ..]) => f32::from_le_bytes([*a, *b, *c, *d]),
            (Sample::F64, [a, b, c, d, e, f, g, h, ..]) => {
                f64::from_le_bytes([*a, *b, *c, *d, *e, *f, *g, *h]) as f32
            }
            (Sample::ALaw, [x, ..]) => f32::from(alaw(*x)) / 32_768.0,
            (Sample::MuLaw, [x, ..]) => f32::from(mulaw(*x)) / 32_768.0,
            _ => 0.0,
        }
    }
}

/// A G.711 A-law byte as a 16-bit sample (ITU-T G.711: the segment's step, from 8 to 1024,
/// times the level, plus half a step), the value symphonia gives in a WAV file.
fn alaw(byte: u8) -> i16 {
    let x = byte ^ 0x55;
    let (segment, level) = (i16::from((x >> 4) & 7), i16::from(x & 0x0F));
    let magnitude =
        if segment == 0 { (level << 4) + 8 } else { ((level << 4) + 0x108) << (segment - 1) };
    if x & 0x80 != 0 {
        magnitude
    } else {
        -magnitude
    }
}

/// A G.711 μ-law byte as a 16-bit sample (ITU-T G.711, bias 0x84), the value symphonia gives
/// in a WAV file.
fn mulaw(byte: u8) -> i16 {
    let x = !byte;
    let magnitude = (((i16::from(x & 0x0F) << 3) + 0x84) << ((x >> 4) & 7)) - 0x84;
    if x & 0x80 != 0 {
        -magnitude
    } else {
        magnitude
    }
}

/// What an RF64 header says.
#[derive(Debug)]
pub(super) struct Header {
    pub(super) sample_rate: u32,
    pub(super) channels: usize,
    pub(super) sample: Sample,
    /// Bytes of sample data.
    pub(super) data_len: u64,
}

const WAVE_FORMAT_PCM: u16 = 1;
const WAVE_FORMAT_IEEE_FLOAT: u16 = 3;
const WAVE_FORMAT_ALAW: u16 = 6;
const WAVE_FORMAT_MULAW: u16 = 7;
const WAVE_FORMAT_EXTENSIBLE: u16 = 0xFFFE;

fn eof_is_truncation(e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        Error::recording(
            RecordingProblem::Truncated,
            "the file is truncated: it ends before any complete block of audio",
        )
    } else {
        Error::from(e)
    }
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from(u32_at(b, at)) | u64::from(u32_at(b, at + 4)) << 32
}

/// Reads the header up to the start of the sample data. `r` must start at the file's first
/// byte, which the caller has checked reads `RF64` or `BW64`, then four bytes, then `WAVE`.
pub(super) fn read_header<R: Read>(r: &mut BufReader<R>, path: Option<&Path>) -> Result<Header> {
    let mut head = [0u8; 12];
    r.read_exact(&mut head).map_err(eof_is_truncation)?;
    let mut ds64_data_len = None;
    let mut fmt: Option<Vec<u8>> = None;
    loop {
        let mut chunk = [0u8; 8];
        r.read_exact(&mut chunk).map_err(eof_is_truncation)?;
        let id = [chunk[0], chunk[1], chunk[2], chunk[3]];
        let len = u32_at(&chunk, 4);
        match &id {
            b"ds64" | b"fmt " => {
                if !(16..=4096).contains(&len) {
                    return Err(Error::recording(
                        RecordingProblem::Corrupt,
                        format!(
                            "malformed RF64 header: a {} chunk of {len} bytes",
                            String::from_utf8_lossy(&id)
                        ),
                    ));
                }
                let mut body = vec![0u8; len as usize + (len as usize & 1)];
                r.read_exact(&mut body).map_err(eof_is_truncation)?;
                if &id == b"ds64" {
                    if len < 24 {
                        return Err(Error::recording(
                            RecordingProblem::Corrupt,
                            "malformed RF64 header: ds64 is too short",
                        ));
                    }
                    ds64_data_len = Some(u64_at(&body, 8));
                } else {
                    fmt = Some(body);
                }
            }
            b"data" => {
                let fmt = fmt.ok_or_else(|| {
                    Error::recording(
                        RecordingProblem::Corrupt,
                        "malformed RF64 header: no fmt chunk before data",
                    )
                })?;
                let data_len = match (len, ds64_data_len) {
                    (0xFFFF_FFFF, Some(n)) => n,
                    (0xFFFF_FFFF, None) => {
                        return Err(Error::recording(
                            RecordingProblem::Corrupt,
                            "malformed RF64 header: the data length is in a ds64 chunk, which is \
                             missing",
                        ));
                    }
                    (n, _) => u64::from(n),
                };
                return parse_fmt(&fmt, data_len, path);
            }
            _ => {
                // Any other chunk (bext, LIST, JUNK, …): skip it, with its pad byte.
                let skip = u64::from(len) + u64::from(len & 1);
                let skipped = std::io::copy(&mut r.by_ref().take(skip), &mut std::io::sink())?;
                if skipped < skip {
                    return Err(Error::recording(
                        RecordingProblem::Truncated,
                        "the file is truncated: it ends before any complete block of audio",
                    ));
                }
            }
        }
    }
}

fn parse_fmt(fmt: &[u8], data_len: u64, path: Option<&Path>) -> Result<Header> {
    let mut tag = u16_at(fmt, 0);
    let channels = usize::from(u16_at(fmt, 2));
    let sample_rate = u32_at(fmt, 4);
    let bits = u16_at(fmt, 14);
    if tag == WAVE_FORMAT_EXTENSIBLE {
        if fmt.len() < 40 {
            return Err(Error::recording(
                RecordingProblem::Corrupt,
                "malformed RF64 header: a short extensible fmt chunk",
            ));
        }
        // The sub-format GUID starts with the format tag.
        tag = u16_at(fmt, 24);
    }
    let sample = match (tag, bits) {
        (WAVE_FORMAT_PCM, 8) => Sample::U8,
        (WAVE_FORMAT_PCM, 16) => Sample::S16,
        (WAVE_FORMAT_PCM, 24) => Sample::S24,
        (WAVE_FORMAT_PCM, 32) => Sample::S32,
        (WAVE_FORMAT_IEEE_FLOAT, 32) => Sample::F32,
        (WAVE_FORMAT_IEEE_FLOAT, 64) => Sample::F64,
        (WAVE_FORMAT_ALAW, 8) => Sample::ALaw,
        (WAVE_FORMAT_MULAW, 8) => Sample::MuLaw,
        _ => {
            return Err(Error::recording(
                RecordingProblem::Codec,
                format!(
                    "RF64 with format tag {tag:#06x} and {bits}-bit samples is not supported \
                     (integer and float PCM, A-law and μ-law are); {}",
                    super::foreign::convert_hint(path, channels == 1)
                ),
            ));
        }
    };
    if channels == 0 {
        return Err(Error::recording(
            RecordingProblem::Corrupt,
            "malformed RF64 header: zero channels",
        ));
    }
    if sample_rate == 0 {
        return Err(Error::recording(
            RecordingProblem::Corrupt,
            "the audio track declares no sample rate",
        ));
    }
    // Samples in wider slots than their size (24 bits in 4 bytes) would be read packed.
    if let Some(e) = super::foreign::wav_padded_error(fmt) {
        return Err(e);
    }
    Ok(Header { sample_rate, channels, sample, data_len })
}
