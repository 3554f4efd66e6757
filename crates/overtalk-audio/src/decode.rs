//! Decoding recordings into blocks of `f32` samples, streamed so memory does not grow with the
//! recording's duration.
//!
//! ```text
//! file ──probe──► container ──packets──► codec ──► [priming removed] ──► Block, Block, …
//!                                                    (AAC: as declared)    interleaved f32
//!                                                    (Opus: pre-skip)
//! ```
//!
//! | codec | containers | feature | priming (encoder delay) |
//! | --- | --- | --- | --- |
//! | PCM (8/16/24/32-bit integer, 32/64-bit float), A-law, µ-law | WAV | — | none |
//! | PCM, any channel count (e.g. 48) | WAV | — | none (read by hound, see below) |
//! | PCM (8/16/24/32-bit integer, 32/64-bit float), any channel count | RF64, BW64 | — | none |
//! | PCM | AIFF, AIFF-C, CAF | — | none |
//! | IMA/MS ADPCM | WAV | — | none |
//! | FLAC | FLAC, Ogg, MKV, MP4 (plain or fragmented) | — | none |
//! | MP3 | MP3 | — | LAME/Xing header: trimmed by symphonia |
//! | MP3, MPEG-1 Layer I/II | WAV (format tag 0x0055, 0x0050: call and broadcast recorders) | — | not declared: times late by the codec's delay (MP3 from LAME: 1 105 frames), as ffmpeg plays them |
//! | MPEG-1/2 Layer I and II (broadcast MP2) | MP1, MP2 | — | not declared: times 481 frames (11 ms at 44.1 kHz) late |
//! | Vorbis | Ogg, MKV/WebM | — | granule positions: trimmed by symphonia |
//! | AAC-LC | M4A/MP4/MOV (plain or fragmented), MKV, ADTS, CAF | — | the MP4 edit list, Matroska `CodecDelay` or CAF packet table: dropped here; not declared (ADTS, MP4 without an edit list, Matroska from ffmpeg before 6.1): kept, times late by 1024 frames, as ffmpeg plays them |
//! | Opus (mono, stereo) | Ogg, MKV/WebM, MP4 (plain or fragmented) | — | `OpusHead` (MP4: `dOps`) pre-skip: dropped here; Matroska's `DiscardPadding`: dropped here |
//! | ALAC (Apple Lossless) | M4A/MP4, CAF | — | none |
//!
//! Formats and codecs without a decoder here (AMR, Windows Media, Sun AU; WAV holding GSM
//! 6.10, G.726 or other codecs; MOV holding A-law, μ-law or IMA ADPCM; AC-3, DTS) are refused
//! with their name and the way out, by the `foreign` submodule: the exact ffmpeg command that
//! converts the file, its own path quoted for a shell ([`convert_hint`]: `convert it first:
//! ffmpeg -i 'call.amr' -ac 1 -ar 16000 'call.wav'`).
//!
//! Opus is decoded in pure Rust by the `opus` submodule (no system library), always at
//! 48 kHz, whatever input rate the header records; it agrees with libopus within one 16-bit
//! step on speech. Multistream Opus (5.1 and other layouts of more than one stream) is refused
//! with a clear error.
//!
//! **Times line up with transcripts**, which are on the clock of ffmpeg and the players built
//! on it. Encoders prepend "priming" samples that are not part of the recording. MP3
//! (LAME/Xing header) and Vorbis carry the amount and symphonia trims it; AAC in MP4 and
//! Matroska does not get trimmed by symphonia (it ignores MP4 edit lists and Matroska's
//! `CodecDelay`), so the decoder drops the delay the container declares (an MP4 edit list, read
//! by `mp4_edits`; a Matroska `CodecDelay`, read by `mkv_trim`). Where nothing declares it
//! (ADTS, an MP4 written without an edit list or fragmented by ffmpeg, Matroska from ffmpeg
//! before 6.1) the 1024 frames of AAC-LC priming are kept, as ffmpeg plays them (and as MP3
//! without a LAME header keeps its delay): speech then starts 23 ms (at 44.1 kHz) after it
//! did in the recording, where a transcript made from ffmpeg's decoding puts it. Opus
//! declares its pre-skip (usually 312 frames at 48 kHz) in its header; the decoder drops
//! exactly that many frames, even when they span several packets, and the Ogg granule
//! position of the last page trims the end; in Matroska/WebM the last block's
//! `DiscardPadding`, which symphonia's demuxer drops, trims it (read by the `mkv_trim`
//! submodule), so the decoded length is ffmpeg's. Sample 0 of the first block is time 0 on
//! ffmpeg's clock: the test clips' onsets agree with ffmpeg's decoding to the sample (Opus:
//! within 2 frames at 48 kHz), and their lengths too, but where the container declares the
//! end and ffmpeg 5.1 plays the last packet whole (AAC and Opus in MP4: the decoder ends at
//! the declared length) or one packet short (Vorbis in Ogg: the decoder ends at the last
//! granule position, 128 frames after ffmpeg).
//!
//! **Audio that starts late on the file's timeline** (a video whose sound starts after it,
//! `ffmpeg -itsoffset 2`; an Ogg stream cut from a longer one): an MP4/MOV edit list's leading
//! empty edits (read by the `mp4_edits` submodule: symphonia ignores edit lists), a
//! Matroska/WebM track's first timestamp and an Ogg stream's first granule position say where
//! the audio starts. The decoder puts that much silence before it
//! ([`AudioInfo::lead`], counted in [`DecodeStats::leading_silence`]), so time 0 is the
//! file's time 0, where players, editors and captions put it, and the priming the track
//! shows on that timeline stays there too (ffmpeg's placement, within 1 ms on the test
//! clips). Callers say so to the user. An MP4 edit list that trims the media (`media_time`
//! past the priming: a clip cut by stream copy, an editor's trim, Apple's 2112 frames of AAC
//! priming) drops the media before it, and the edit's duration ends the audio, as ffmpeg
//! plays it.
//!
//! ```text
//! file timeline  0 ───────────── 2.0 s ─────────────────▶
//! audio track      (empty edit)   [speech …]
//! decoded        [silence, lead ][speech …]   time 0 = the file's time 0
//! ```
//!
//! **Fragmented MP4** (`ffmpeg -movflags frag_keyframe+empty_moov` or `+dash`, OBS's fragmented
//! MP4/MOV, a browser's MediaRecorder, DASH/CMAF segments joined after their initialisation
//! segment): the index (`moov`) lists no samples and declares no length, and each fragment
//! (`moof` + `mdat`) lists its own. symphonia reads the fragments, but takes the track's length
//! from the index (0, so nothing was delivered) or from the first segment index (`sidx`) alone;
//! the `mp4_frags` submodule sums the fragments' sample durations instead, so the encoder's
//! padding after the last sample is dropped as in a plain MP4 and the samples are those of the
//! file it was remuxed from. A fragmented file cut inside a fragment (a recording that stopped,
//! a download cut short) reads to the cut with the truncation told, its full length unknown
//! (`Truncation::declared` is `None` unless an `mehd` box declares it); one cut exactly between
//! two fragments cannot be told from a whole file, since nothing declares the length.
//!
//! **Gaps in the timestamps** (audio a recorder dropped or paused: Ogg and Matroska/WebM
//! timestamps that jump, an MP4 sample that lasts longer than its audio, as ffmpeg writes a
//! drop or a fragmented track that starts late without an edit list) are filled with silence
//! by the `timeline` submodule, so every later time stays on the file's timeline instead of
//! moving earlier by the gap; counted in [`DecodeStats::gaps`] for a warning. Timestamps that
//! go back (recordings joined with their clocks restarted) keep the audio in file order. A
//! fragmented MP4 may carry a drop only in a fragment's decode time (`tfdt`), which symphonia
//! ignores: `mp4_frags` reads those jumps and the packets after one are placed by it.
//!
//! **Any channel count.** symphonia maps WAV channels to speaker positions and refuses files
//! whose channels it cannot position (more than 18 in an extensible header, fewer in a plain
//! one: a 48-channel recorder's file, say). When it refuses a RIFF/WAVE file, the decoder reads
//! the integer or 32-bit float PCM with hound instead, in blocks of 65,536 samples, so a
//! 48-channel file streams like a mono one. RF64 and BW64 (WAV over 4 GiB, as long
//! multichannel recordings are written) are read by the `rf64` submodule the same way.
//!
//! **Hostile input.** Every failure is an [`overtalk::Error`]: unreadable or unrecognised files
//! (`Unsupported`), truncated (under [`DecodeOptions::strict`]) or corrupt streams (`Invalid`, with
//! the time where decoding stopped),
//! files over the size, duration or channel caps (`Limit`), and recordings with no samples at all
//! (`Invalid`). A WAV header written before the length was known (`ffmpeg -f wav -` to a pipe,
//! a recorder that stopped early: a data size of 0 or 0xFFFFFFFF with samples after it) is read
//! to the end of the file, and [`DecodeStats::placeholder_length`] says so; when another
//! `RIFF…WAVE` header follows inside (files joined byte for byte), the samples end there and
//! [`DecodeStats::appended_wav`] names the joined files. MP3 files joined byte for byte are
//! decoded whole, past the length the first one's LAME/Xing header declares
//! ([`DecodeStats::past_declared_frames`]), and frames of another channel count at the same
//! rate are decoded by a decoder of their own and mixed to the stream's channels
//! ([`DecodeStats::other_layout_packets`]). Truncation is found
//! three ways: the data runs out inside a packet or frame; a
//! reader that looks at the file's end first (Ogg, Matroska) fails, and the file is then re-read as
//! a stream so the audio present decodes before the error; or the stream ends well short of the
//! exact length its header declares (FLAC, WAV, Ogg, MP4, MP3 with a Xing/Info/VBRI header;
//! symphonia's estimates for other MP3 are not held against the file). A truncated file with audio
//! before the cut ends there ([`DecodeStats::truncated`] says how much was read against the
//! declared length, for a warning), unless [`DecodeOptions::strict`] makes it an error; one
//! that ends before any audio is an error either way. An MP4/MOV without its index
//! box is reported as truncated or unfinished; one that ends before any audio (inside its
//! `ftyp` or `moov` box, inside a box header, before its first fragment or its data) says
//! after how many bytes and in which box. A corrupt packet in the middle of a stream is
//! replaced by silence of the same length, so later times stay right; non-finite samples (NaN, ±∞
//! in float WAV) are replaced by 0 (silence). Both are counted in [`DecodeStats`] so callers can
//! warn (the command line does).

use std::fs::File;
use std::io::{BufReader, Cursor, Read, Seek};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use overtalk::error::ErrorKind;
use overtalk::error::RecordingProblem;
use overtalk::{Delta, Error, Result};
use symphonia::core::codecs::audio::well_known::{CODEC_ID_AAC, CODEC_ID_OPUS, CODEC_ID_VORBIS};
use symphonia::core::codecs::audio::{AudioCodecParameters, AudioDecoder, AudioDecoderOptions};
use symphonia::core::codecs::registry::CodecRegistry;
use symphonia::core::errors::Error as SymError;
use symphonia::core::formats::probe::Hint;
use symphonia::core::formats::{FormatOptions, FormatReader, TrackType};
use symphonia::core::io::{MediaSource, MediaSourceStream};
use symphonia::core::meta::MetadataOptions;
use symphonia::core::packet::Packet;

mod foreign;
mod mkv_trim;
mod mp4_edits;
mod mp4_frags;
mod opus;
mod rf64;
mod timeline;

pub use foreign::{
    convert_command, convert_hint, foreign_container, foreign_is_audio, foreign_is_mono,
};

/// Caps on what a decoder accepts (hostile or mistaken input fails early with a limit error).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Longest recording accepted (default 24 hours).
    pub max_duration: Delta,
    /// Largest file accepted, in bytes (default 16 GiB).
    pub max_bytes: u64,
    /// Most channels accepted (default 64).
    pub max_channels: usize,
    /// A truncated file (a download or recording cut short) is an error. Otherwise (the
    /// default) the audio present is delivered and [`DecodeStats::truncated`] says how much
    /// was read against what the header declared, so the caller can warn. A file with no
    /// decodable audio is an error either way.
    pub strict: bool,
    /// Which of the container's audio tracks to read, counted from 0 in file order (a
    /// recorder such as OBS writes one track per microphone); `None` reads the container's
    /// default audio track and counts the others in [`DecodeStats::unread_audio_tracks`].
    pub audio_track: Option<usize>,
}

impl Default for DecodeOptions {
    fn default() -> DecodeOptions {
        DecodeOptions {
            max_duration: Delta::from_micros(24 * 3600 * 1_000_000),
            max_bytes: 16 << 30,
            max_channels: 64,
            strict: false,
            audio_track: None,
        }
    }
}

/// What a recording is, as far as the container says before decoding (fields may be added).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
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
    /// Frames of silence put before the audio because the container starts it this late on
    /// its timeline (an MP4 edit list's empty edit, a Matroska track's first timestamp).
    pub lead: u64,
}

impl AudioInfo {
    /// The declared duration, when the container declares one.
    pub fn declared_duration(&self) -> Option<Delta> {
        self.declared_frames.map(|f| {
            frames_to_delta(
                f.saturating_sub(self.priming).saturating_add(self.lead),
                self.sample_rate,
            )
        })
    }
}

/// The share of samples at full scale ([`DecodeStats::full_scale`]) from which a recording is
/// said to be clipped or not audio: 1 %. Speech clipped now and then by a hot microphone stays
/// far below it (a clipped peak is a few samples of a 16 kHz second); full-scale noise, a
/// square wave or data read as audio are far above it.
pub const FULL_SCALE_WARN_SHARE: f64 = 0.01;

/// A sample at full scale: at least the largest positive 16-bit value, 32767/32768 (a 16-bit
/// file clipped on the positive side never reaches 1.0, and wider ones reach past this).
pub const FULL_SCALE: f32 = 32767.0 / 32768.0;

/// What happened while decoding, for warnings. Fields are added as the decoder learns to tell
/// more (hence `non_exhaustive`: read them, do not build the struct).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct DecodeStats {
    /// Frames delivered so far.
    pub frames: u64,
    /// Samples that were NaN or infinite and were replaced by 0.
    pub non_finite: u64,
    /// Samples delivered so far, all channels counted (`frames × channels`).
    pub samples: u64,
    /// Samples at or beyond full scale (|s| ≥ [`FULL_SCALE`]): a few in a loud recording, a
    /// large share in one clipped throughout or in data that is not audio (full-scale noise),
    /// where the detector's "speech" is not speech ([`FULL_SCALE_WARN_SHARE`]).
    pub full_scale: u64,
    /// Corrupt packets replaced by silence.
    pub bad_packets: u64,
    /// MPEG audio frames at another sample rate than the stream's first frame (MP3 files of
    /// two rates joined byte for byte, `cat a.mp3 b.mp3`), which the decoder cannot decode
    /// in the same stream: replaced by silence as long as they play at their own rate, so
    /// later times stay right. Not counted in `bad_packets`.
    pub other_rate_packets: u64,
    /// The sample rate of the last of those frames.
    pub other_rate: Option<u32>,
    /// Frames of silence (at the stream's rate) those frames became; counted in `frames`.
    pub other_rate_frames: u64,
    /// MPEG audio frames at the stream's rate but with another channel count than its first
    /// frame (a mono and a stereo MP3 joined byte for byte, `cat mono.mp3 stereo.mp3`): decoded
    /// by a decoder of their own and mixed to the stream's channels (to mono: the mean). Not
    /// counted in `bad_packets`.
    pub other_layout_packets: u64,
    /// The stream's channel count (its first frame's) and that of the last of those frames.
    pub other_layout_channels: Option<(usize, usize)>,
    /// Frames those frames gave; counted in `frames`.
    pub other_layout_frames: u64,
    /// Frames of MPEG audio past the length the stream's LAME/Xing header declares, once a
    /// frame past the ones that header counts is found: MP3 files joined byte for byte (`cat
    /// a.mp3 b.mp3`, however short the second), whose later files' audio the first header does
    /// not count. Decoded and counted in `frames` (with the first file's padding before them),
    /// as ffmpeg plays them.
    pub past_declared_frames: u64,
    /// The WAV header's data size was a placeholder (0 or 0xFFFFFFFF, as a recorder or a pipe
    /// writes it before the length is known): the data was read to the end of the file.
    pub placeholder_length: bool,
    /// Another RIFF/WAVE file follows the end the first one's header declares (files joined
    /// byte for byte, as `cat a.wav b.wav` joins them, often at another sample rate): it was not
    /// read, since the first header's sizes end the recording before it.
    pub appended_wav: Option<AppendedWav>,
    /// Frames of silence put before the audio ([`AudioInfo::lead`]); counted in `frames`.
    pub leading_silence: u64,
    /// Gaps in the track's timestamps (audio a recorder dropped or paused) filled with
    /// silence, so later times stay on the file's timeline (the `timeline` submodule).
    pub gaps: u64,
    /// Frames of silence those gaps were filled with; counted in `frames`.
    pub gap_frames: u64,
    /// Times the track's timestamps went back (files joined with their clocks restarted) or
    /// jumped further ahead than the recording may last (a damaged timestamp); the audio was
    /// kept in file order.
    pub clock_resets: u64,
    /// The file ends early and was read as far as it goes (not under
    /// [`DecodeOptions::strict`]).
    pub truncated: Option<Truncation>,
    /// Audio tracks of the container that were not read: the default one was, and no
    /// [`DecodeOptions::audio_track`] was asked for (or, set by the pipeline, the tracks
    /// named left some out).
    pub unread_audio_tracks: usize,
    /// Audio tracks the container holds (0 when the reader does not say: one).
    pub audio_tracks: usize,
    /// Audio tracks named by the caller, counted up to the last one named (set by the
    /// pipeline; 0 when the default track was read).
    pub named_audio_tracks: usize,
}

/// The WAV files found after the end of the RIFF chunk that was read
/// ([`DecodeStats::appended_wav`]): the first of them described, and how many and how long
/// they all are. Fields may be added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AppendedWav {
    /// Where it starts in the file, in bytes.
    pub offset: u64,
    /// Bytes from there to the end of the file (every file joined after the first, and
    /// anything after them).
    pub bytes: u64,
    /// Its sample rate, when its `fmt ` chunk is there to say.
    pub sample_rate: Option<u32>,
    /// Its frames, when its `fmt ` and `data` chunks are there to say (the data chunk's size,
    /// at most what the file holds, over the block size).
    pub frames: Option<u64>,
    /// How many WAV files are joined after the one read (1 for two files joined; `cat a.wav
    /// b.wav c.wav` joins 2), each found where the one before it ends.
    pub files: u64,
    /// The duration of all of them together, each at its own rate, when every one's header
    /// says its rate and length.
    pub duration: Option<Delta>,
}

/// WAV format tags whose block is one frame of samples (PCM, IEEE float, A-law, µ-law, and
/// the extensible header, which carries PCM or float), so that a data chunk's size over the
/// block size is its length in frames.
const WAV_FRAME_BLOCKS: [u16; 5] = [0x0001, 0x0003, 0x0006, 0x0007, 0xFFFE];

/// symphonia's MP3 decoder's error for a frame whose sample rate or channel count differs from
/// the first frame's (it keeps one output format per stream).
const MPA_RESPEC: &str = "mpa: invalid audio buffer signal spec for packet";

/// The sample rate an MPEG audio frame header declares (its first four bytes: the sync word,
/// the version and the rate index), `None` when the bytes are not such a header.
fn mpeg_frame_rate(frame: &[u8]) -> Option<u32> {
    let [0xFF, b1, b2, ..] = *frame else { return None };
    if b1 & 0xE0 != 0xE0 {
        return None;
    }
    let base = [44_100, 48_000, 32_000].get(usize::from((b2 >> 2) & 3)).copied()?;
    match (b1 >> 3) & 3 {
        0b11 => Some(base),
        0b10 => Some(base / 2),
        0b00 => Some(base / 4),
        _ => None,
    }
}

/// One RIFF/WAVE file found inside another's bytes ([`Input::wav_appended`]).
struct WavPart {
    /// Where its `RIFF` header starts.
    offset: u64,
    sample_rate: Option<u32>,
    frames: Option<u64>,
    /// Where the next file would start: the end its RIFF size declares, or (a placeholder
    /// size) the next `RIFF…WAVE` header found after its samples; `None` when neither is
    /// known.
    next: Option<u64>,
}

impl WavPart {
    fn duration(&self) -> Option<Delta> {
        self.sample_rate.zip(self.frames).map(|(r, n)| frames_to_delta(n, r))
    }
}

/// True when `b` (at least 16 bytes) starts like a RIFF/WAVE file: `RIFF`, a size, `WAVE`, then
/// a chunk id of printable ASCII (`fmt `, `JUNK`, `bext`, …), which samples rarely spell.
fn riff_wave_header(b: &[u8]) -> bool {
    b.len() >= 16
        && &b[..4] == b"RIFF"
        && &b[8..12] == b"WAVE"
        && b[12..16].iter().all(|c| c.is_ascii_graphic() || *c == b' ')
}

/// The first RIFF/WAVE header at or after byte `from` (before `len`), read in blocks of
/// 64 KiB so memory stays bounded whatever the file's length. Each block is searched for `RIFF`
/// with `memchr`'s vectorised substring search, so a streamed recording's samples pass at the
/// speed they are read; only its hits are checked as headers.
fn find_riff_wave(r: &mut dyn SeekSource, from: u64, len: u64) -> Option<u64> {
    const BLOCK: usize = 1 << 16;
    /// A header is 16 bytes: blocks overlap by 15 so one across a block's end is found whole.
    const OVERLAP: usize = 15;
    let riff = memchr::memmem::Finder::new(b"RIFF");
    let mut at = from;
    let mut buf = vec![0u8; BLOCK + OVERLAP];
    while at + 16 <= len {
        r.seek(std::io::SeekFrom::Start(at)).ok()?;
        let want = usize::try_from((len - at).min((BLOCK + OVERLAP) as u64)).ok()?;
        r.read_exact(&mut buf[..want]).ok()?;
        let window = &buf[..want];
        // Headers starting in this block (the last 15 bytes are the next block's start).
        let starts = want.saturating_sub(OVERLAP);
        let hit = riff
            .find_iter(window)
            .take_while(|&i| i < starts)
            .find(|&i| riff_wave_header(&window[i..]));
        if let Some(i) = hit {
            return Some(at + i as u64);
        }
        at += BLOCK as u64;
    }
    None
}

/// The RIFF/WAVE file starting at `at` (or at `at + 1`, past the pad byte a writer adds to an
/// odd RIFF chunk): its rate and length when its `fmt ` and `data` chunks say, and where the
/// next file would start. `None` when no WAV header is there.
fn wav_part_at(r: &mut dyn SeekSource, at: u64, len: u64) -> Option<WavPart> {
    for offset in [at, at + 1] {
        if offset + 16 > len {
            return None;
        }
        r.seek(std::io::SeekFrom::Start(offset)).ok()?;
        let mut next = [0u8; 16];
        r.read_exact(&mut next).ok()?;
        if !riff_wave_header(&next) {
            continue;
        }
        let riff = u32::from_le_bytes([next[4], next[5], next[6], next[7]]);
        r.seek(std::io::SeekFrom::Start(offset + 12)).ok()?;
        // `block` stays 0 (no frame count) unless the format stores whole frames in blocks of
        // that size; a compressed format's block (ADPCM, MPEG) holds many frames.
        let (mut sample_rate, mut block, mut frames) = (None, 0u64, None);
        let mut data_placeholder = None;
        let mut chunk_at = offset + 12;
        // Its first chunks, each skipped by its size, up to its data chunk.
        for _ in 0..64 {
            let mut chunk = [0u8; 8];
            if r.read_exact(&mut chunk).is_err() {
                break;
            }
            let size32 = u32::from_le_bytes([chunk[4], chunk[5], chunk[6], chunk[7]]);
            let size = u64::from(size32);
            if &chunk[..4] == b"fmt " && size >= 16 {
                let mut fmt = [0u8; 16];
                if r.read_exact(&mut fmt).is_err() {
                    break;
                }
                sample_rate = Some(u32::from_le_bytes([fmt[4], fmt[5], fmt[6], fmt[7]]))
                    .filter(|&rate| rate > 0);
                if WAV_FRAME_BLOCKS.contains(&u16::from_le_bytes([fmt[0], fmt[1]])) {
                    block = u64::from(u16::from_le_bytes([fmt[12], fmt[13]]));
                }
                r.seek(std::io::SeekFrom::Current((size - 16 + (size & 1)) as i64)).ok()?;
            } else if &chunk[..4] == b"data" {
                let samples = chunk_at + 8;
                let mut held = size.min(len.saturating_sub(samples));
                if size32 == u32::MAX || (size32 == 0 && (riff == 0 || riff == u32::MAX)) {
                    // Placeholder sizes: the samples run to the next joined file, or the end.
                    let found = find_riff_wave(r, samples, len);
                    held = found.unwrap_or(len) - samples;
                    data_placeholder = Some(found);
                }
                frames = (block > 0).then(|| held / block);
                break;
            } else {
                r.seek(std::io::SeekFrom::Current((size + (size & 1)) as i64)).ok()?;
            }
            chunk_at += 8 + size + (size & 1);
        }
        let next = match data_placeholder {
            Some(found) => found,
            None if riff == 0 || riff == u32::MAX => None,
            None => Some(offset + 8 + u64::from(riff)),
        };
        return Some(WavPart { offset, sample_rate, frames, next });
    }
    None
}

/// How much of a truncated recording was read, against what its header declared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Truncation {
    /// The audio read (from time 0, including any [`AudioInfo::lead`]).
    pub read: Delta,
    /// The duration the header declares, when it declares one.
    pub declared: Option<Delta>,
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

/// Samples per block read from the WAV fallback (all channels together), so a block of a
/// 48-channel file stays as small as one of a mono file.
const WAV_BLOCK_SAMPLES: usize = 1 << 16;

/// Where the bytes come from. The input may be opened twice: when symphonia refuses a WAV file
/// (more channels than its channel mask mapping knows), the WAV fallback reads it again.
#[derive(Clone)]
enum Input {
    File(std::path::PathBuf),
    Bytes(SharedBytes),
}

/// Bytes held once and read through any number of cursors.
#[derive(Clone)]
struct SharedBytes(Arc<Vec<u8>>);

impl AsRef<[u8]> for SharedBytes {
    fn as_ref(&self) -> &[u8] {
        &self.0
    }
}

/// A source read front to back only: symphonia's readers then skip looking at the end.
struct Unseekable(Box<dyn MediaSource>);

impl Read for Unseekable {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.0.read(buf)
    }
}

impl std::io::Seek for Unseekable {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        self.0.seek(pos)
    }
}

impl MediaSource for Unseekable {
    fn is_seekable(&self) -> bool {
        false
    }

    fn byte_len(&self) -> Option<u64> {
        None
    }
}

/// A reader that notes when its source runs out.
struct EofWatch {
    inner: Box<dyn ReadSource>,
    eof: Arc<AtomicBool>,
}

impl Read for EofWatch {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n == 0 && !buf.is_empty() {
            self.eof.store(true, Ordering::Relaxed);
        }
        Ok(n)
    }
}

/// A readable source for the WAV fallback.
trait ReadSource: Read + Send + Sync {}
impl<T: Read + Send + Sync> ReadSource for T {}

/// A readable, seekable source for reading container boxes.
trait SeekSource: Read + Seek {}
impl<T: Read + Seek> SeekSource for T {}

impl Input {
    fn media_source(&self) -> Result<Box<dyn MediaSource>> {
        Ok(match self {
            Input::File(p) => Box::new(File::open(p)?),
            Input::Bytes(b) => Box::new(Cursor::new(b.clone())),
        })
    }

    fn seeker(&self) -> Result<Box<dyn SeekSource>> {
        Ok(match self {
            Input::File(p) => Box::new(BufReader::new(File::open(p)?)),
            Input::Bytes(b) => Box::new(Cursor::new(b.clone())),
        })
    }

    fn reader(&self) -> Result<Box<dyn ReadSource>> {
        Ok(match self {
            Input::File(p) => Box::new(File::open(p)?),
            Input::Bytes(b) => Box::new(Cursor::new(b.clone())),
        })
    }

    /// The file's path as it was given, for the command that converts it; `None` for bytes.
    fn path(&self) -> Option<&Path> {
        match self {
            Input::File(path) => Some(path),
            Input::Bytes(_) => None,
        }
    }

    /// The first 12 bytes (followed by zeros when the input is shorter).
    fn head(&self) -> [u8; 12] {
        let mut head = [0u8; 12];
        if let Ok(r) = self.reader() {
            let mut got = Vec::with_capacity(12);
            if r.take(12).read_to_end(&mut got).is_ok() {
                head[..got.len()].copy_from_slice(&got);
            }
        }
        head
    }

    /// True when the input starts like a RIFF/WAVE file.
    fn is_riff_wave(&self) -> bool {
        let head = self.head();
        &head[..4] == b"RIFF" && &head[8..] == b"WAVE"
    }

    /// True when the first MPEG audio frame (after any ID3v2 tag) carries a Xing, Info or VBRI
    /// header, which states the stream's exact length.
    fn has_mpeg_length_header(&self) -> bool {
        let Ok(mut r) = self.reader() else { return false };
        let mut head = [0u8; 10];
        if r.read_exact(&mut head).is_err() {
            return false;
        }
        let mut frame = Vec::new();
        if &head[..3] == b"ID3" {
            // Skip the ID3v2 tag: its size is four 7-bit bytes, plus a footer when flagged.
            let size = head[6..10].iter().fold(0u64, |n, &b| n << 7 | u64::from(b & 0x7F))
                + if head[5] & 0x10 != 0 { 10 } else { 0 };
            if std::io::copy(&mut r.by_ref().take(size), &mut std::io::sink()).ok() != Some(size) {
                return false;
            }
        } else {
            frame.extend_from_slice(&head);
        }
        r.take(4096).read_to_end(&mut frame).is_ok()
            && frame.windows(4).any(|w| w == b"Xing" || w == b"Info" || w == b"VBRI")
    }

    /// The input's length in bytes.
    fn len(&self) -> Option<u64> {
        match self {
            Input::File(p) => std::fs::metadata(p).ok().map(|m| m.len()),
            Input::Bytes(b) => Some(b.0.len() as u64),
        }
    }

    /// The corrections a RIFF/WAVE header with placeholder sizes needs, as `(offset, value)`
    /// of 32-bit little-endian fields: a `data` chunk (the last chunk) whose size is 0 or
    /// 0xFFFFFFFF while bytes follow it — written before the length was known, by `ffmpeg -f
    /// wav -` to a pipe or by a recorder that stopped before finishing the header — is as long
    /// as the file, and so is the `RIFF` chunk when its size is such a placeholder too. When
    /// another `RIFF…WAVE` header follows inside those bytes (files joined byte for byte, `cat
    /// a.wav b.wav`), the samples end where it starts, and its offset is returned beside the
    /// corrections. Empty for every other input (a size larger than the file is truncation,
    /// not a placeholder).
    ///
    /// ```text
    /// RIFF <FFFFFFFF> WAVE  fmt  <16> ....  data <FFFFFFFF> ..... samples to the end .....
    ///      ^ len − 8                              ^ len − (offset of the samples)
    /// RIFF <FFFFFFFF> WAVE  fmt  <16> ....  data <FFFFFFFF> ... samples ... RIFF .... WAVE ...
    ///      ^ joined − 8                           ^ joined − (offset)        ^ joined
    /// ```
    fn wav_placeholders(&self) -> (Vec<(u64, u32)>, Option<u64>) {
        let (Some(len), true) = (self.len(), self.is_riff_wave()) else {
            return (Vec::new(), None);
        };
        let Ok(mut r) = self.reader() else { return (Vec::new(), None) };
        let mut head = [0u8; 12];
        if r.read_exact(&mut head).is_err() {
            return (Vec::new(), None);
        }
        let placeholder = |size: u32| size == 0 || size == u32::MAX;
        let clamp = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        let riff = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
        let mut at = 12u64;
        // The chunks before `data` (fmt, fact, LIST, …): a few, each skipped by its size.
        for _ in 0..64 {
            let mut chunk = [0u8; 8];
            if r.read_exact(&mut chunk).is_err() {
                return (Vec::new(), None);
            }
            let size = u32::from_le_bytes([chunk[4], chunk[5], chunk[6], chunk[7]]);
            if &chunk[..4] == b"data" {
                let rest = len.saturating_sub(at + 8);
                // A size of 0 is a placeholder only beside a RIFF size that is one too: an
                // empty data chunk may be followed by other chunks (LIST, bext).
                let unwritten = size == u32::MAX || (size == 0 && placeholder(riff));
                if !unwritten || rest == 0 {
                    return (Vec::new(), None);
                }
                // Another file joined after it (`cat` of a recorder's files) ends the samples
                // where its header starts; read as samples it would be noise.
                let joined =
                    self.seeker().ok().and_then(|mut s| find_riff_wave(s.as_mut(), at + 8, len));
                let end = joined.unwrap_or(len);
                let mut fix = vec![(at + 4, clamp(end - (at + 8)))];
                if placeholder(riff) {
                    fix.push((4, clamp(end - 8)));
                }
                return (fix, joined);
            }
            let skip = u64::from(size) + u64::from(size & 1);
            if std::io::copy(&mut r.by_ref().take(skip), &mut std::io::sink()).ok() != Some(skip) {
                return (Vec::new(), None);
            }
            at += 8 + skip;
        }
        (Vec::new(), None)
    }

    /// The RIFF/WAVE files joined after this one, as `cat a.wav b.wav c.wav` leaves them:
    /// symphonia, like ffmpeg, stops at the end the first header declares, so the others
    /// (often at another sample rate) would go unheard without a word. The first joined file
    /// starts where this one's `RIFF` chunk ends, or at `joined_at` when this one's sizes were
    /// placeholders ([`Input::wav_placeholders`] found the next header inside its data). `None`
    /// for every other input: nothing after the RIFF chunk, bytes that are not a WAV header
    /// (an ID3 tag, padding), or placeholder sizes with no WAV header after the samples.
    fn wav_appended(&self, joined_at: Option<u64>) -> Option<AppendedWav> {
        if !self.is_riff_wave() {
            return None;
        }
        let len = self.len()?;
        let end = match joined_at {
            Some(at) => at,
            None => {
                let head = self.head();
                let riff = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
                if riff == 0 || riff == u32::MAX {
                    return None;
                }
                8 + u64::from(riff)
            }
        };
        let mut r = self.seeker().ok()?;
        let first = wav_part_at(&mut r, end, len)?;
        let mut joined = AppendedWav {
            offset: first.offset,
            bytes: len - first.offset,
            sample_rate: first.sample_rate,
            frames: first.frames,
            files: 1,
            duration: first.duration(),
        };
        // The files after it, each where the one before ends (at most 10,000 of them: every
        // one is at least 12 bytes, and each is counted, so the walk ends).
        let mut next = first.next;
        for _ in 0..10_000 {
            let Some(part) = next.and_then(|at| wav_part_at(&mut r, at, len)) else { break };
            joined.files += 1;
            joined.duration = joined.duration.zip(part.duration()).map(|(a, b)| a + b);
            next = part.next.filter(|&n| n > part.offset);
        }
        Some(joined)
    }

    /// The layout of a RIFF/WAVE file whose `data` chunk comes before its `fmt ` chunk (some
    /// recorders and converters write it so; ffmpeg reads it, symphonia refuses it as
    /// "missing format chunk"): where the samples are and the format chunk's bytes. `None` for
    /// every other input, including the usual order.
    fn wav_data_before_fmt(&self) -> Option<DataFirst> {
        if !self.is_riff_wave() {
            return None;
        }
        let len = self.len()?;
        let mut r = self.seeker().ok()?;
        r.seek(std::io::SeekFrom::Start(12)).ok()?;
        let mut at = 12u64;
        let mut data = None;
        // A few chunks (fmt, data, fact, LIST, …), each skipped by its size.
        for _ in 0..64 {
            let mut chunk = [0u8; 8];
            r.read_exact(&mut chunk).ok()?;
            let size = u32::from_le_bytes([chunk[4], chunk[5], chunk[6], chunk[7]]);
            match (&chunk[..4], data) {
                (b"fmt ", None) => return None,
                (b"fmt ", Some((offset, data_len))) => {
                    // A format chunk is 16 to 40 bytes; a larger one is not a format chunk.
                    if size > 1024 {
                        return None;
                    }
                    let mut fmt = vec![0u8; size as usize];
                    r.read_exact(&mut fmt).ok()?;
                    // A G.711 chunk of a shape symphonia refuses is read in its plain form.
                    let fmt = plain_g711_fmt(&fmt).unwrap_or(fmt);
                    return Some(DataFirst {
                        fmt,
                        offset,
                        len: data_len,
                        declared: data_len,
                        placeholder: false,
                        joined_at: None,
                    });
                }
                (b"data", None) => {
                    // A data chunk cut short holds what the file has.
                    let held = u64::from(size).min(len.saturating_sub(at + 8));
                    data = Some((at + 8, held));
                }
                _ => {}
            }
            let skip = u64::from(size) + u64::from(size & 1);
            at += 8 + skip;
            if at >= len {
                return None;
            }
            r.seek(std::io::SeekFrom::Start(at)).ok()?;
        }
        None
    }

    /// The layout of a RIFF/WAVE file of A-law or μ-law samples (G.711, as telephone and
    /// call-recording systems write it) whose `fmt ` chunk ffmpeg reads and symphonia refuses,
    /// to be read with the plain 18-byte chunk of the same format in its place: a chunk of 16
    /// bytes (no `cbSize`: "malformed fmt_mulaw chunk"), one longer than 18, or
    /// WAVE_FORMAT_EXTENSIBLE with the A-law or μ-law sub-format (symphonia takes μ-law's for
    /// another GUID, and fails on A-law's at its first packet). The samples stay where they
    /// are; a `data` chunk whose size is a placeholder (0xFFFFFFFF, or 0 beside a `RIFF` size
    /// that is one too) runs to the next WAV file joined after it, or to the end of the file,
    /// as [`Input::wav_placeholders`] reads any WAV. `None` for every other input, including
    /// a plain 18-byte chunk, which symphonia reads.
    fn wav_g711_layout(&self) -> Option<DataFirst> {
        let (fmt_at, _) = self.wav_chunk(b"fmt ")?;
        let plain_fmt = plain_g711_fmt(&self.wav_fmt()?)?;
        let (offset, size) = self.wav_chunk(b"data")?;
        if offset < fmt_at {
            // The data chunk first: `wav_data_before_fmt` reads that layout.
            return None;
        }
        let len = self.len()?;
        let rest = len.saturating_sub(offset);
        let head = self.head();
        let riff = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
        let placeholder = size == u32::MAX || (size == 0 && (riff == 0 || riff == u32::MAX));
        let joined_at = if placeholder {
            self.seeker().ok().and_then(|mut s| find_riff_wave(s.as_mut(), offset, len))
        } else {
            None
        };
        let declared = match joined_at {
            Some(at) => at - offset,
            None if placeholder => rest,
            None => u64::from(size),
        };
        Some(DataFirst {
            fmt: plain_fmt,
            offset,
            len: declared.min(rest),
            declared,
            placeholder,
            joined_at,
        })
    }

    /// The error for MPEG-1 Layer II audio whose first frame (at byte `at`, after an ID3v2
    /// tag when `at` is 0) has a bitrate its channel mode does not allow
    /// ([`foreign::forbidden_layer2`]); `None` for any other file.
    fn forbidden_layer2(&self, at: u64) -> Option<Error> {
        let mut r = self.seeker().ok()?;
        r.seek(std::io::SeekFrom::Start(at)).ok()?;
        let mut head = [0u8; 10];
        r.read_exact(&mut head).ok()?;
        let mut frame = head[..4].to_vec();
        if at == 0 && head.starts_with(b"ID3") {
            // The tag's size: four 7-bit bytes, after the 10-byte header (and a 10-byte
            // footer when flag 0x10 is set).
            let size = head[6..10].iter().fold(0u64, |n, &b| (n << 7) | u64::from(b & 0x7F));
            let footer = if head[5] & 0x10 != 0 { 10 } else { 0 };
            r.seek(std::io::SeekFrom::Start(10 + size + footer)).ok()?;
            r.read_exact(&mut frame).ok()?;
        }
        let (kbps, mode) = foreign::forbidden_layer2(&frame)?;
        let hint = convert_hint(self.path(), mode == "mono");
        // Where such files come from, when it is known.
        let origin = if (kbps, mode) == (384, "mono") {
            " (ffmpeg writes mono MP2 at 384 kbit/s by default)"
        } else {
            ""
        };
        Some(Error::recording(
            RecordingProblem::Codec,
            format!(
                "the file is MPEG-1 Layer II (MP2) audio in {mode} at {kbps} kbit/s, a bitrate the \
                 standard does not allow in {mode}{origin}, which this decoder does not read; \
                 {hint}"
            ),
        ))
    }

    /// Where a WAV file's chunk `id` is: the offset of its body and its declared size, found
    /// by skipping the chunks before it by their sizes (at most 64 of them).
    fn wav_chunk(&self, id: &[u8; 4]) -> Option<(u64, u32)> {
        if !self.is_riff_wave() {
            return None;
        }
        let mut r = self.seeker().ok()?;
        let mut at = r.seek(std::io::SeekFrom::Start(12)).ok()?;
        for _ in 0..64 {
            let mut chunk = [0u8; 8];
            r.read_exact(&mut chunk).ok()?;
            let size = u32::from_le_bytes([chunk[4], chunk[5], chunk[6], chunk[7]]);
            if &chunk[..4] == id {
                return Some((at + 8, size));
            }
            at += 8 + u64::from(size) + u64::from(size & 1);
            r.seek(std::io::SeekFrom::Start(at)).ok()?;
        }
        None
    }

    /// The first line of the input (at most 40 characters) when its first 512 bytes are text
    /// (UTF-8 without control characters other than tabs and line ends): a transcript, a note
    /// or a saved error page named like a recording. `None` for every other input.
    fn text_start(&self) -> Option<String> {
        let mut head = Vec::with_capacity(512);
        self.reader().ok()?.take(512).read_to_end(&mut head).ok()?;
        let text = match std::str::from_utf8(&head) {
            Ok(t) => t,
            // Cut inside a character at byte 512: the whole characters before it.
            Err(e) if e.error_len().is_none() => {
                std::str::from_utf8(&head[..e.valid_up_to()]).ok()?
            }
            Err(_) => return None,
        };
        if text.trim().is_empty()
            || text.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
        {
            return None;
        }
        let line = text.trim_start().lines().next().unwrap_or("").trim_end();
        let mut shown: String = line.chars().take(40).collect();
        if line.chars().count() > 40 {
            shown.push('…');
        }
        Some(shown)
    }

    /// Where a WAV file's chunks `id` before its `data` chunk start (the offsets of their
    /// ids), found by skipping the chunks by their sizes (at most 64 of them).
    fn wav_chunks_before_data(&self, id: &[u8; 4]) -> Vec<u64> {
        let mut found = Vec::new();
        let (true, Ok(mut r)) = (self.is_riff_wave(), self.seeker()) else { return found };
        let mut at = 12u64;
        for _ in 0..64 {
            let mut chunk = [0u8; 8];
            if r.seek(std::io::SeekFrom::Start(at)).is_err() || r.read_exact(&mut chunk).is_err() {
                break;
            }
            if &chunk[..4] == b"data" {
                break;
            }
            if &chunk[..4] == id {
                found.push(at);
            }
            let size = u32::from_le_bytes([chunk[4], chunk[5], chunk[6], chunk[7]]);
            at += 8 + u64::from(size) + u64::from(size & 1);
        }
        found
    }

    /// The body of a WAV file's `fmt ` chunk (at most 1 KiB: a larger one is not a format
    /// chunk).
    fn wav_fmt(&self) -> Option<Vec<u8>> {
        let (at, size) = self.wav_chunk(b"fmt ")?;
        if size > 1024 {
            return None;
        }
        let mut r = self.seeker().ok()?;
        r.seek(std::io::SeekFrom::Start(at)).ok()?;
        let mut fmt = vec![0u8; size as usize];
        r.read_exact(&mut fmt).ok()?;
        Some(fmt)
    }

    /// True when the input is an Ogg file of whole pages (it ends where a page ends, not
    /// inside one): when no audio decodes from it, it holds none (an encoder stopped after the
    /// headers), rather than being cut inside its first audio page. Read page header by page
    /// header (at most 100,000 pages).
    fn ogg_ends_whole(&self) -> bool {
        let (Some(len), Ok(mut r)) = (self.len(), self.seeker()) else { return false };
        let mut at = 0u64;
        for _ in 0..100_000 {
            if at == len {
                return at > 0;
            }
            let mut head = [0u8; 27];
            if r.seek(std::io::SeekFrom::Start(at)).is_err()
                || r.read_exact(&mut head).is_err()
                || &head[..4] != b"OggS"
            {
                return false;
            }
            let mut lacing = vec![0u8; usize::from(head[26])];
            if r.read_exact(&mut lacing).is_err() {
                return false;
            }
            at += 27 + lacing.len() as u64 + lacing.iter().map(|&b| u64::from(b)).sum::<u64>();
            if at > len {
                return false;
            }
        }
        false
    }

    /// Where an MP4-family file (`ftyp` first) says it ends when that is past its last byte:
    /// the end of the top-level `mdat` box (the audio) that runs off the file (a download or a
    /// recording cut short inside it), or of a fragmented file's `moof` box (a fragment's
    /// index), when a whole `moov` box (the index) comes before it.
    /// `None` for other inputs, when every box fits, when the index is not there (a file cut
    /// before its index is told as such by the decoder), and when the box that runs off is not
    /// the audio (a whole file with its index at the end and a cut box after it, such as
    /// `free` or `udta`, reads as it is: all its audio is there).
    ///
    /// ```text
    /// file        [ftyp][moov][mdat ─────────────|        the bytes end here
    /// mdat says                  ─────────────────────]   the box's declared end (returned)
    /// ```
    fn mp4_declared_end(&self) -> Option<u64> {
        if &self.head()[4..8] != b"ftyp" {
            return None;
        }
        let layout = mp4_frags::layout(&mut self.seeker().ok()?)?;
        let cut = layout.cut?;
        match cut.place {
            mp4_frags::Place::Inside(kind, size)
                if layout.index && (&kind == b"mdat" || &kind == b"moof") =>
            {
                cut.at.checked_add(size)
            }
            _ => None,
        }
    }

    /// True when the input may be the start of an MP4-family file: `ftyp` at byte 4, or as
    /// much of it as a file cut inside its first box header has, or (four bytes or fewer) an
    /// MP4-family extension.
    fn may_be_mp4(&self, ext: Option<&str>) -> bool {
        let (Some(len), head) = (self.len(), self.head()) else { return false };
        match len {
            8.. => &head[4..8] == b"ftyp",
            5..=7 => b"ftyp".starts_with(&head[4..len as usize]),
            _ => ext.is_some_and(|e| MP4_EXTENSIONS.iter().any(|m| e.eq_ignore_ascii_case(m))),
        }
    }

    /// True when the input starts like an RF64 or BW64 file (WAV over 4 GiB).
    fn is_rf64(&self) -> bool {
        let head = self.head();
        (&head[..4] == b"RF64" || &head[..4] == b"BW64") && &head[8..] == b"WAVE"
    }
}

/// A media source in which some 32-bit little-endian fields read as other values: the sizes of
/// a WAV header written before the length was known ([`Input::wav_placeholders`]), corrected
/// without copying the file.
struct Patched {
    inner: Box<dyn MediaSource>,
    /// `(offset, value)` of each corrected field.
    fields: Vec<(u64, u32)>,
    pos: u64,
}

impl Read for Patched {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        let (from, to) = (self.pos, self.pos + n as u64);
        for &(at, value) in &self.fields {
            for (k, byte) in value.to_le_bytes().into_iter().enumerate() {
                let abs = at + k as u64;
                if (from..to).contains(&abs) {
                    buf[(abs - from) as usize] = byte;
                }
            }
        }
        self.pos = to;
        Ok(n)
    }
}

impl std::io::Seek for Patched {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        self.pos = self.inner.seek(to)?;
        Ok(self.pos)
    }
}

impl MediaSource for Patched {
    fn is_seekable(&self) -> bool {
        self.inner.is_seekable()
    }

    fn byte_len(&self) -> Option<u64> {
        self.inner.byte_len()
    }
}

/// Extensions of the MP4 family (ISO base media files and QuickTime).
const MP4_EXTENSIONS: [&str; 9] = ["mp4", "m4a", "m4b", "m4v", "mov", "3gp", "3g2", "m4s", "cmfa"];

/// Where a seek `to` lands from `pos` in a source `end` bytes long; an error before the start.
fn seek_target(to: std::io::SeekFrom, pos: u64, end: u64) -> std::io::Result<u64> {
    match to {
        std::io::SeekFrom::Start(n) => Some(n),
        std::io::SeekFrom::End(d) => end.checked_add_signed(d),
        std::io::SeekFrom::Current(d) => pos.checked_add_signed(d),
    }
    .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::InvalidInput, "seek before the start"))
}

/// An MP4 file cut short inside a box, read as if it were as long as the box says
/// ([`Input::mp4_declared_end`]): reads past the last byte give nothing. The demuxer takes a
/// box that runs past the stream's length as no box at all, so without this a file whose
/// `moov` comes first (playable while downloading) and whose `mdat` was cut gives no audio;
/// with it, the samples that are there decode and the first one past the end reads as the
/// file's truncation.
struct Lengthened {
    inner: Box<dyn MediaSource>,
    /// The file's real length.
    len: u64,
    /// The length it is read as.
    declared: u64,
    pos: u64,
}

impl Read for Lengthened {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.len.saturating_sub(self.pos);
        if left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl std::io::Seek for Lengthened {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        let target = seek_target(to, self.pos, self.declared)?;
        self.inner.seek(std::io::SeekFrom::Start(target.min(self.len)))?;
        self.pos = target;
        Ok(target)
    }
}

impl MediaSource for Lengthened {
    fn is_seekable(&self) -> bool {
        true
    }

    fn byte_len(&self) -> Option<u64> {
        Some(self.declared)
    }
}

/// A byte range of a source read as a whole source (the `data` chunk of a WAV file that
/// holds an MPEG stream, [`Decoder::wav_mpeg`]).
struct Slice {
    inner: Box<dyn MediaSource>,
    start: u64,
    len: u64,
    /// The position within the range.
    pos: u64,
}

impl Read for Slice {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let left = self.len.saturating_sub(self.pos);
        if left == 0 || buf.is_empty() {
            return Ok(0);
        }
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        self.inner.seek(std::io::SeekFrom::Start(self.start + self.pos))?;
        let n = self.inner.read(&mut buf[..want])?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl std::io::Seek for Slice {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        self.pos = seek_target(to, self.pos, self.len)?;
        Ok(self.pos)
    }
}

impl MediaSource for Slice {
    fn is_seekable(&self) -> bool {
        true
    }

    fn byte_len(&self) -> Option<u64> {
        Some(self.len)
    }
}

/// Where a WAV file that symphonia cannot read as it is laid out keeps its parts: one that
/// puts its `data` chunk before its `fmt ` chunk ([`Input::wav_data_before_fmt`]), or one of
/// A-law or μ-law samples whose `fmt ` chunk is read as the plain form of its format
/// ([`Input::wav_g711_layout`]).
struct DataFirst {
    /// The format chunk's bytes (without its header), as they are read.
    fmt: Vec<u8>,
    /// Where the samples start in the file.
    offset: u64,
    /// Bytes of samples the file holds.
    len: u64,
    /// Bytes of samples the `data` chunk declares (more than `len` when the file is cut
    /// short: the demuxer then finds its end early and the decoder says the file is
    /// truncated, as it does for any WAV).
    declared: u64,
    /// The `data` chunk's size was a placeholder ([`DecodeStats::placeholder_length`]).
    placeholder: bool,
    /// Where a WAV file joined after placeholder sizes starts (the samples end there).
    joined_at: Option<u64>,
}

/// The plain 18-byte `fmt ` chunk (no extension) of a G.711 (A-law or μ-law, 8-bit) format
/// chunk of another shape: 16 bytes without `cbSize`, more than 18, or
/// WAVE_FORMAT_EXTENSIBLE with the A-law or μ-law sub-format; symphonia reads only the plain
/// one ([`Input::wav_g711_layout`]). `None` for any other chunk, the plain one included.
fn plain_g711_fmt(fmt: &[u8]) -> Option<Vec<u8>> {
    let tag = foreign::wav_format_tag(fmt)?;
    let plain = u16::from_le_bytes([*fmt.first()?, *fmt.get(1)?]);
    let bits = u16::from_le_bytes(fmt.get(14..16)?.try_into().ok()?);
    if !matches!(tag, 6 | 7) || bits != 8 || (plain == tag && fmt.len() == 18) {
        return None;
    }
    let channels = u16::from_le_bytes([fmt[2], fmt[3]]);
    let rate = u32::from_le_bytes(fmt[4..8].try_into().ok()?);
    let mut out = Vec::with_capacity(18);
    out.extend_from_slice(&tag.to_le_bytes());
    out.extend_from_slice(&channels.to_le_bytes());
    out.extend_from_slice(&rate.to_le_bytes());
    // One byte per sample: the byte rate and the block follow from the channels.
    out.extend_from_slice(&rate.saturating_mul(u32::from(channels)).to_le_bytes());
    out.extend_from_slice(&channels.to_le_bytes());
    out.extend_from_slice(&8u16.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    Some(out)
}

/// A WAV file read with a header of a few dozen bytes held here, then the samples read from
/// the file where they are, so memory does not grow with the file: a file whose `data` chunk
/// comes before its `fmt ` chunk, read as the usual layout, and a G.711 file whose `fmt `
/// chunk symphonia refuses, read with the plain chunk of its format.
///
/// ```text
/// file     RIFF WAVE [data ........ samples ........] [fmt  ....]
/// read as  RIFF WAVE [fmt  ....] [data ........ samples ........]
/// file     RIFF WAVE [fmt  <40: extensible, μ-law>] [fact] [data ........ samples ........]
/// read as  RIFF WAVE [fmt  <18: μ-law>] [data ........ samples ........]
/// ```
struct Reordered {
    inner: Box<dyn MediaSource>,
    head: Vec<u8>,
    /// Where the samples start in `inner`, and how many bytes they are.
    offset: u64,
    len: u64,
    pos: u64,
}

impl Reordered {
    fn new(inner: Box<dyn MediaSource>, layout: &DataFirst) -> Reordered {
        let fmt_len = layout.fmt.len() as u64;
        let pad = fmt_len & 1;
        let clamp = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        let mut head = Vec::with_capacity(28 + layout.fmt.len());
        head.extend_from_slice(b"RIFF");
        head.extend_from_slice(&clamp(4 + 8 + fmt_len + pad + 8 + layout.declared).to_le_bytes());
        head.extend_from_slice(b"WAVEfmt ");
        head.extend_from_slice(&clamp(fmt_len).to_le_bytes());
        head.extend_from_slice(&layout.fmt);
        if pad == 1 {
            head.push(0);
        }
        head.extend_from_slice(b"data");
        head.extend_from_slice(&clamp(layout.declared).to_le_bytes());
        Reordered { inner, head, offset: layout.offset, len: layout.len, pos: 0 }
    }

    fn total(&self) -> u64 {
        self.head.len() as u64 + self.len
    }
}

impl Read for Reordered {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let head = self.head.len() as u64;
        if self.pos < head {
            let from = self.pos as usize;
            let n = buf.len().min(self.head.len() - from);
            buf[..n].copy_from_slice(&self.head[from..from + n]);
            self.pos += n as u64;
            return Ok(n);
        }
        let left = self.total().saturating_sub(self.pos);
        if left == 0 || buf.is_empty() {
            return Ok(0);
        }
        self.inner.seek(std::io::SeekFrom::Start(self.offset + (self.pos - head)))?;
        let want = buf.len().min(usize::try_from(left).unwrap_or(usize::MAX));
        let n = self.inner.read(&mut buf[..want])?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl std::io::Seek for Reordered {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        let target = seek_target(to, self.pos, self.total())?;
        self.pos = target;
        Ok(target)
    }
}

impl MediaSource for Reordered {
    fn is_seekable(&self) -> bool {
        true
    }

    fn byte_len(&self) -> Option<u64> {
        Some(self.total())
    }
}

/// The demuxer and codec behind a [`Decoder`].
enum Stream {
    /// Everything symphonia reads, and Opus through the [`opus`] module.
    Codec {
        format: Box<dyn FormatReader>,
        decoder: Box<dyn AudioDecoder>,
        track_id: u32,
        /// The track's codec parameters, to set up `other_layout`.
        params: Box<AudioCodecParameters>,
        /// A second decoder for MPEG audio frames whose channel count differs from the first
        /// frame's at the same rate (`cat mono.mp3 stereo.mp3`), which `decoder` refuses:
        /// made at the first such frame, kept for the frames after it (they share its bit
        /// reservoir).
        other_layout: Option<Box<dyn AudioDecoder>>,
    },
    /// Integer or float PCM WAV that symphonia refuses (more than 18 channels), read by hound.
    Wav {
        reader: Box<hound::WavReader<BufReader<EofWatch>>>,
        float: bool,
        scale: f32,
        /// Set when the file ran out: hound reports that as a generic I/O error.
        eof: Arc<AtomicBool>,
        /// The data ended inside this block: its whole frames are delivered, then this ends.
        truncated: bool,
    },
    /// RF64/BW64 PCM, header parsed by [`rf64`], data read here.
    Raw {
        reader: BufReader<Box<dyn ReadSource>>,
        sample: rf64::Sample,
        /// Bytes of sample data not read yet.
        remaining: u64,
        bytes: Vec<u8>,
        truncated: bool,
    },
}

/// What one read from the stream gave.
enum Fill {
    /// `buf` holds the next interleaved samples (possibly none, e.g. a header packet).
    Data,
    /// The stream ended normally.
    End,
    /// The next packet starts later on the file's timeline than the samples before it end:
    /// the gap's silence (`gap_left`) is delivered before its samples (`held`).
    Gap,
}

/// Frames of lead silence delivered per block.
const LEAD_BLOCK_FRAMES: u64 = 16_384;

/// The frames at `rate` Hz before a Matroska track's first packet (or an Ogg stream's first
/// sample), at `pts` ticks of `numer / denom` seconds; `None` when it starts at 0 or before (a
/// negative timestamp is the codec delay, which the decoder drops).
fn start_lead(pts: i64, numer: u32, denom: u32, rate: u32) -> Option<u64> {
    if pts <= 0 {
        return None;
    }
    let ticks = i128::from(pts) * i128::from(numer) * i128::from(rate);
    u64::try_from((ticks + i128::from(denom) / 2) / i128::from(denom)).ok()
}

/// The longest Matroska `CodecDelay` taken for a codec's delay (1 s, in nanoseconds): AAC's
/// and Opus's are a few milliseconds, so a longer one is a broken track header, refused rather
/// than taken as priming that would drop the whole recording.
const MAX_CODEC_DELAY_NS: u64 = 1_000_000_000;

/// A streaming decoder over one recording's default audio track.
pub struct Decoder {
    stream: Stream,
    info: AudioInfo,
    max_frames: u64,
    skip: u64,
    /// Frames after which the rest is encoder padding (AAC in MP4 declares its exact length).
    end: Option<u64>,
    /// The declared length is exact, not an estimate: ending well before it means truncation.
    declared_exact: bool,
    /// Frames of the lead ([`AudioInfo::lead`]) still to deliver.
    lead_left: u64,
    /// The track's packets on the file's timeline, for containers whose timestamps place
    /// them (MP4/MOV, Matroska/WebM, Ogg); `None` for the others.
    timeline: Option<timeline::Timeline>,
    /// Frames of silence still to deliver for a gap in the timestamps.
    gap_left: u64,
    /// The gap is a drop to count ([`DecodeStats::gaps`]), not the rest of a corrupt packet
    /// whose length the container does not give; counted once its first frame is delivered.
    gap_is_drop: bool,
    gap_counted: bool,
    /// The last packet of the track was corrupt (replaced by silence).
    after_corrupt: bool,
    /// Samples of MPEG audio frames wholly past the length the stream's LAME/Xing header
    /// declares, held while they may be the encoder's padding: delivered once a frame past
    /// the ones the header counts decodes (another file is joined), dropped at the end.
    past_end: Vec<f32>,
    /// Where the frames the stream's Xing/Info/VBRI header counts end, in the demuxer's
    /// timestamps (the declared length plus the LAME header's padding): a frame that starts
    /// there or later is no padding of the first file but another file's audio. `None` when
    /// no header counts them (the length is symphonia's estimate): frames past the estimate
    /// are delivered as they come, and not said to be past a declared length.
    frames_end: Option<u64>,
    /// Frames past the declared length are delivered (a joined file was found).
    past_end_open: bool,
    /// A fragmented MP4's jumps of decode time (`tfdt`) that symphonia's timestamps do not
    /// carry: the index of the first sample after each, and the jump in media ticks
    /// ([`mp4_frags::Fragments::jumps`]).
    jumps: std::collections::VecDeque<(u64, i64)>,
    /// The track's packets read, and the sum of the decode-time jumps before the next.
    packets: u64,
    shift: i64,
    /// Matroska's `DiscardPadding` trims ([`mkv_trim`]), in order: the index of a packet among
    /// the track's packets, how many frames to drop, and whether from its start (else its end).
    block_trims: std::collections::VecDeque<(u64, u64, bool)>,
    /// Frames of AAC priming kept because the container declares none (1024, else 0): a gap
    /// right after them is where the track starts, not a drop.
    kept_priming: u64,
    /// The samples of the packet after a gap, delivered once its silence is.
    held: Vec<f32>,
    /// A packet read ahead to find where the track starts, delivered first.
    first: Option<std::result::Result<Option<Packet>, SymError>>,
    buf: Vec<f32>,
    stats: DecodeStats,
    done: bool,
    /// [`DecodeOptions::strict`]: truncation is an error, not the end of the audio.
    strict: bool,
    /// Where an MP4 file ends inside its audio ("it ends after 900 bytes, inside its moof box
    /// …"): the stream is truncated even when the demuxer finds its end quietly (a fragmented
    /// file cut between or inside fragments), and an error before any audio says where.
    cut: Option<String>,
}

impl std::fmt::Debug for Decoder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Decoder").field("info", &self.info).field("stats", &self.stats).finish()
    }
}

/// The codec registry: symphonia's codecs, plus Opus from the [`opus`] module (pure Rust).
fn codecs() -> &'static CodecRegistry {
    static REGISTRY: std::sync::LazyLock<CodecRegistry> = std::sync::LazyLock::new(|| {
        let mut registry = CodecRegistry::new();
        symphonia::default::register_enabled_codecs(&mut registry);
        registry.register_audio_decoder::<opus::OpusDecoder>();
        registry
    });
    &REGISTRY
}

/// The sample rates a recording has: 1 kHz to 768 kHz. A header that declares 1 Hz would make
/// an 86 KB file a 12-hour recording; 4 GHz makes every sample a nanosecond.
const SAMPLE_RATES: std::ops::RangeInclusive<u32> = 1_000..=768_000;

/// For the readers of files that hold one audio track (RF64, WAV read by the fallback): an
/// [`DecodeOptions::audio_track`] past the first is an error, as the demuxer's readers give it.
fn one_audio_track(options: &DecodeOptions) -> Result<()> {
    match options.audio_track {
        Some(i) if i > 0 => Err(Error::invalid(format!(
            "audio track {} requested, but the recording has 1 audio track",
            i + 1
        ))),
        _ => Ok(()),
    }
}

/// Refuses a declared sample rate outside [`SAMPLE_RATES`] as a corrupt header.
pub(crate) fn check_rate(rate: u32) -> Result<()> {
    if SAMPLE_RATES.contains(&rate) {
        Ok(())
    } else {
        Err(Error::recording(
            RecordingProblem::Corrupt,
            format!(
                "the audio track declares {rate} samples a second; a recording has {} to {}",
                SAMPLE_RATES.start(),
                SAMPLE_RATES.end()
            ),
        ))
    }
}

/// The pre-skip of an Opus stream, read from its `OpusHead` (RFC 7845 §5.1), and the header
/// with the pre-skip set to 0: this decoder drops the priming itself, so it is removed exactly
/// even when it spans more than the first packet. In MP4 the header comes from the `dOps` box,
/// whose fields are big-endian (Encapsulation of Opus in ISOBMFF §4.3.2), behind the
/// `OpusHead` signature symphonia puts before them (`big_endian`); in Ogg and Matroska they
/// are little-endian.
fn take_opus_pre_skip(extra: &mut Option<Box<[u8]>>, big_endian: bool) -> u64 {
    match extra {
        Some(head) if head.len() >= 19 && head.starts_with(b"OpusHead") => {
            let bytes = [head[10], head[11]];
            let pre_skip =
                if big_endian { u16::from_be_bytes(bytes) } else { u16::from_le_bytes(bytes) };
            head[10] = 0;
            head[11] = 0;
            u64::from(pre_skip)
        }
        _ => 0,
    }
}

impl Decoder {
    /// Opens a file; the extension is only a hint (a WAV named `.mp3` still decodes).
    pub fn open(path: &Path, options: &DecodeOptions) -> Result<Decoder> {
        let file = File::open(path).map_err(|e| Error::from(e).with_path(path))?;
        let meta = file.metadata().map_err(|e| Error::from(e).with_path(path))?;
        if meta.is_dir() {
            return Err(Error::invalid(
                "is a directory, not a recording (give its files, or `--track NAME=FILE` for each)",
            )
            .with_path(path));
        }
        let len = meta.len();
        if len > options.max_bytes {
            return Err(Error::limit(format!(
                "the file has {len} bytes, more than the {} allowed",
                options.max_bytes
            ))
            .with_path(path));
        }
        if len == 0 {
            return Err(Error::recording(RecordingProblem::Empty, "the file is empty (0 bytes)")
                .with_path(path));
        }
        drop(file);
        let ext = path.extension().and_then(|e| e.to_str());
        Decoder::from_input(Input::File(path.to_path_buf()), ext, options)
            .map_err(|e| e.with_path(path))
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
            return Err(Error::recording(RecordingProblem::Empty, "the input is empty (0 bytes)"));
        }
        Decoder::from_input(Input::Bytes(SharedBytes(Arc::new(bytes))), ext, options)
    }

    fn from_input(input: Input, ext: Option<&str>, options: &DecodeOptions) -> Result<Decoder> {
        // Before the probe, which scans for frame markers and may find one in a foreign
        // file's samples.
        if let Some(name) = foreign::foreign_container(&input.head()) {
            let way_out = if foreign_is_audio(name) {
                convert_hint(input.path(), foreign_is_mono(name))
            } else {
                "give the recording itself".to_owned()
            };
            return Err(Error::recording(
                RecordingProblem::Container,
                format!(
                    "the file is in the {name} format, which this decoder does not read; {way_out}"
                ),
            ));
        }
        if input.is_rf64() {
            one_audio_track(options)?;
            return Decoder::rf64(&input, options);
        }
        let (data_first, g711) = match input.wav_data_before_fmt() {
            Some(layout) => (Some(layout), false),
            None => {
                let layout = input.wav_g711_layout();
                let g711 = layout.is_some();
                (layout, g711)
            }
        };
        let (fields, joined_at) =
            if data_first.is_some() { (Vec::new(), None) } else { input.wav_placeholders() };
        let cut_mp4 = input.mp4_declared_end();
        let source = || -> Result<Box<dyn MediaSource>> {
            let mut inner = input.media_source()?;
            Ok(if let Some(layout) = &data_first {
                Box::new(Reordered::new(inner, layout))
            } else if let Some(declared) = cut_mp4 {
                let len = inner.seek(std::io::SeekFrom::End(0))?;
                inner.seek(std::io::SeekFrom::Start(0))?;
                Box::new(Lengthened { inner, len, declared, pos: 0 })
            } else if fields.is_empty() {
                inner
            } else {
                Box::new(Patched { inner, fields: fields.clone(), pos: 0 })
            })
        };
        let mss = MediaSourceStream::new(source()?, Default::default());
        let mut hint = Hint::new();
        if let Some(ext) = ext {
            hint.with_extension(ext);
        }
        let probed = symphonia::default::get_probe().probe(
            &hint,
            mss,
            FormatOptions::default(),
            MetadataOptions::default(),
        );
        let first = match probed {
            Ok(format) => {
                let mut d = Decoder::from_format(format, &input, options)?;
                d.stats.placeholder_length = !fields.is_empty();
                match &data_first {
                    None if fields.is_empty() || joined_at.is_some() => {
                        d.stats.appended_wav = input.wav_appended(joined_at);
                    }
                    // A G.711 file read through its plain format chunk: its placeholder sizes
                    // said and the files joined after it found, as for any WAV (the
                    // data-before-fmt layout is read no further than its data chunk).
                    Some(layout) if g711 => {
                        d.stats.placeholder_length = layout.placeholder;
                        if !layout.placeholder || layout.joined_at.is_some() {
                            d.stats.appended_wav = input.wav_appended(layout.joined_at);
                        }
                    }
                    _ => {}
                }
                return Ok(d);
            }
            Err(e) => e,
        };
        if matches!(first, SymError::DecodeError(_)) && data_first.is_none() {
            // A malformed LIST chunk (an INFO entry of odd length without its pad byte, as some
            // taggers write it) makes symphonia refuse the whole file, where ffmpeg skips it:
            // hidden as a JUNK chunk (which every reader skips), the samples read.
            let lists = input.wav_chunks_before_data(b"LIST");
            if !lists.is_empty() {
                let mut hidden = fields.clone();
                hidden.extend(lists.iter().map(|&at| (at, u32::from_le_bytes(*b"JUNK"))));
                let patched = Patched { inner: input.media_source()?, fields: hidden, pos: 0 };
                let mss = MediaSourceStream::new(Box::new(patched), Default::default());
                let probed = symphonia::default::get_probe().probe(
                    &hint,
                    mss,
                    FormatOptions::default(),
                    MetadataOptions::default(),
                );
                if let Ok(format) = probed {
                    let mut d = Decoder::from_format(format, &input, options)?;
                    d.stats.placeholder_length = !fields.is_empty();
                    if fields.is_empty() || joined_at.is_some() {
                        d.stats.appended_wav = input.wav_appended(joined_at);
                    }
                    return Ok(d);
                }
            }
        }
        if input.may_be_mp4(ext) {
            if let Some(e) = mp4_cut_error(&input) {
                return Err(e);
            }
        }
        let named = container_of(&input.head());
        if matches!(&first, SymError::Unsupported(m) if m.contains("no suitable format reader")) {
            if let Some(e) = input.forbidden_layer2(0) {
                return Err(e);
            }
            if named == Some("MP3") {
                // An ID3 tag (or the start of a frame) and no MPEG audio frame after it.
                return Err(Error::recording(
                    RecordingProblem::Empty,
                    "the MP3 file holds no audio (no MPEG audio frame)",
                ));
            }
            if let Some(line) = input.text_start() {
                // A transcript, a note or an error page saved under an audio name.
                return Err(Error::recording(
                    RecordingProblem::Container,
                    format!(
                        "the file is text, not a recording (it begins \"{line}\"); give the \
                         audio file itself"
                    ),
                ));
            }
            return Err(Error::recording(
                RecordingProblem::Container,
                format!(
                    "not a recognised audio or video container; if ffmpeg plays it, {}",
                    convert_hint(input.path(), false)
                ),
            ));
        }
        if matches!(first, SymError::Unsupported(_) | SymError::DecodeError(_))
            && input.is_riff_wave()
        {
            // symphonia maps WAV channels to speaker positions and refuses more than 18 (in an
            // extensible header) or 8 (in a plain one); PCM of any channel count is read by the
            // WAV fallback instead.
            let fallback = match Decoder::wav_fallback(&input, options)? {
                Some(d) => Some(d),
                None => Decoder::wav_mpeg(&input, options)?,
            };
            if let Some(mut d) = fallback {
                one_audio_track(options)?;
                d.stats.appended_wav = input.wav_appended(None);
                return Ok(d);
            }
        }
        let mut first = first;
        if Decoder::retry_unseekable(&first) {
            // Readers that look at the end of a file first (Ogg for its length, Matroska for its
            // index) fail on a truncated one. Read it as a stream instead: the audio that is
            // there decodes, and the end of the data is reported with its time.
            let mss = MediaSourceStream::new(Box::new(Unseekable(source()?)), Default::default());
            match symphonia::default::get_probe().probe(
                &hint,
                mss,
                FormatOptions::default(),
                MetadataOptions::default(),
            ) {
                Ok(format) => return Decoder::from_format(format, &input, options),
                // Read as a stream, the file ends before its first audio.
                Err(e @ SymError::IoError(_)) => first = e,
                Err(_) => {}
            }
        }
        Err(match first {
            SymError::Unsupported(m) if m.contains("missing moov atom") => Error::recording(
                RecordingProblem::Truncated,
                "the MP4/MOV file has no index (moov box): it is truncated or was never \
                 finalised (an interrupted recording)",
            ),
            SymError::Unsupported(m) => {
                let fmt = input.wav_fmt();
                let tag = fmt.as_deref().and_then(foreign::wav_format_tag);
                // The `fmt ` chunk's channel count (bytes 2–3): a mono file converts to mono.
                let mono = fmt.as_deref().and_then(|f| f.get(2..4)) == Some(&[1, 0][..]);
                // MP2 whose bitrate is not allowed with its channel mode.
                let forbidden_mp2 = tag
                    .filter(|&t| t == 0x0050)
                    .and_then(|_| input.wav_chunk(b"data"))
                    .and_then(|(at, _)| input.forbidden_layer2(at));
                if let Some(e) = forbidden_mp2 {
                    return Err(e);
                }
                match tag.and_then(|t| Some((t, foreign::wav_codec(t)?))) {
                    // Read by `wav_mpeg` when its data chunk holds MPEG frames.
                    Some((tag @ (0x0050 | 0x0055), codec)) => Error::recording(
                        RecordingProblem::Corrupt,
                        format!(
                            "the WAV file declares {codec} audio (format tag {tag:#06x}), but its \
                             data chunk holds no MPEG audio frame"
                        ),
                    ),
                    Some((tag, codec)) => Error::recording(
                        RecordingProblem::Codec,
                        format!(
                            "the WAV file holds {codec} audio (format tag {tag:#06x}), which this \
                             decoder does not read; {}",
                            convert_hint(input.path(), mono)
                        ),
                    ),
                    None => Error::recording(
                        RecordingProblem::Codec,
                        format!("the container holds audio this decoder cannot read ({m})"),
                    ),
                }
            }
            SymError::IoError(io)
                if io.kind() == std::io::ErrorKind::UnexpectedEof
                    && named == Some("Ogg")
                    && input.ogg_ends_whole() =>
            {
                // Whole pages and no audio: the stream ends after its headers.
                Error::recording(
                    RecordingProblem::Empty,
                    "the Ogg file holds no audio (its stream ends after its headers)",
                )
            }
            SymError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
                Error::recording(
                    RecordingProblem::Truncated,
                    "the file is truncated: it ends before any complete block of audio",
                )
            }
            other => map_error(other, "reading the container header"),
        })
    }

    /// Whether a probe failure may come from a truncated file whose reader looked at its end.
    fn retry_unseekable(e: &SymError) -> bool {
        match e {
            SymError::IoError(io) => io.kind() == std::io::ErrorKind::UnexpectedEof,
            SymError::Unsupported(m) => m.contains("missing segment element"),
            _ => false,
        }
    }

    fn from_format(
        format: Box<dyn FormatReader>,
        input: &Input,
        options: &DecodeOptions,
    ) -> Result<Decoder> {
        if format.format_info().short_name == "wave" {
            if let Some(e) = input.wav_fmt().as_deref().and_then(foreign::wav_padded_error) {
                return Err(e);
            }
        }
        let exact = match format.format_info().short_name {
            "wave" | "aiff" | "flac" | "ogg" | "isomp4" => true,
            // Without a Xing/Info/VBRI header symphonia estimates the length from the file size.
            "mp1" | "mp2" | "mp3" => input.has_mpeg_length_header(),
            _ => false,
        };
        let audio_ids: Vec<u32> = format
            .tracks()
            .iter()
            .filter(|t| t.codec_params.as_ref().and_then(|p| p.audio()).is_some())
            .map(|t| t.id)
            .collect();
        let chosen = match options.audio_track {
            Some(i) => {
                let Some(&id) = audio_ids.get(i) else {
                    let n = audio_ids.len();
                    return Err(Error::invalid(format!(
                        "audio track {} requested, but the recording has {n} audio track{}",
                        i + 1,
                        if n == 1 { "" } else { "s" }
                    )));
                };
                format.tracks().iter().find(|t| t.id == id)
            }
            None => format.default_track(TrackType::Audio),
        };
        let unread_audio_tracks =
            if options.audio_track.is_none() { audio_ids.len().saturating_sub(1) } else { 0 };
        let track = chosen.ok_or_else(|| {
            let container = container_of(&input.head()).unwrap_or(format.format_info().long_name);
            // A sound track the demuxer skipped: its codec has no reader here.
            let skipped = (format.format_info().short_name == "isomp4")
                .then(|| input.seeker().ok())
                .flatten()
                .and_then(|mut r| mp4_edits::read_moov(&mut r))
                .and_then(|moov| foreign::mp4_sound_entries(&moov).first().copied());
            match skipped {
                Some(entry) => Error::recording(
                    RecordingProblem::Codec,
                    format!(
                        "the {container} file's audio is {}, which this decoder does not read; {}",
                        foreign::mp4_entry_name(entry),
                        convert_hint(input.path(), false)
                    ),
                ),
                None => Error::recording(
                    RecordingProblem::Empty,
                    format!("the {container} file holds no audio (no audio track with samples)"),
                ),
            }
        })?;
        let track_id = track.id;
        let mut params = track
            .codec_params
            .as_ref()
            .and_then(|p| p.audio())
            .ok_or_else(|| {
                Error::recording(RecordingProblem::Codec, "the audio track has no codec parameters")
            })?
            .clone();
        let is_opus = params.codec == CODEC_ID_OPUS;
        let is_aac = params.codec == CODEC_ID_AAC;
        let priming = if is_aac {
            // Only the priming the container declares (CAF's packet table here; an MP4 edit
            // list and Matroska's `CodecDelay` below): without a declaration ffmpeg plays the
            // 1024 frames of AAC-LC priming (ADTS, an MP4 without an edit list, Matroska
            // from ffmpeg before 6.1), and times are on its clock.
            u64::from(track.delay.unwrap_or(0))
        } else if is_opus {
            // Opus always decodes at 48 kHz; the container's rate is the encoder's input rate.
            params.sample_rate = Some(48_000);
            take_opus_pre_skip(&mut params.extra_data, format.format_info().short_name == "isomp4")
        } else {
            0
        };
        let sample_rate = params.sample_rate.filter(|&r| r > 0).ok_or_else(|| {
            Error::recording(RecordingProblem::Corrupt, "the audio track declares no sample rate")
        })?;
        check_rate(sample_rate)?;
        let channels = params.channels.as_ref().map(|c| c.count()).unwrap_or(0);
        check_channels(channels, options)?;
        let mut declared_frames = track.num_frames;
        let frames_end =
            track.num_frames.map(|n| n.saturating_add(u64::from(track.padding.unwrap_or(0))));
        let registry = codecs();
        let codec = match registry.get_audio_decoder(params.codec) {
            Some(d) => d.codec.info.short_name.to_owned(),
            None if is_opus => "opus".to_owned(),
            None => foreign::codec_name(params.codec)
                .map_or_else(|| format!("codec {}", params.codec), str::to_owned),
        };
        let decoder = registry
            .make_audio_decoder(&params, &AudioDecoderOptions::default())
            .map_err(|e| match e {
                SymError::Unsupported(m) if is_opus => Error::recording(
                    RecordingProblem::Codec,
                    format!(
                        "Opus with {channels} channels: {m}; {}",
                        convert_hint(input.path(), false)
                    ),
                ),
                SymError::Unsupported(_) => Error::recording(
                    RecordingProblem::Codec,
                    format!(
                        "the audio codec ({codec}) is not supported; {}",
                        convert_hint(input.path(), channels == 1)
                    ),
                ),
                other => map_error(other, "setting up the audio decoder"),
            })?;
        // Where the track starts on the file's timeline: an MP4's edit list (which may also
        // trim the media's start and end), a Matroska track's first timestamp (read ahead here
        // and delivered first), an Ogg stream's first granule position. Without a channel
        // count the silence could not be shaped like the audio, so it is left out.
        let short_name = format.format_info().short_name;
        let time_base = track.time_base;
        let start_ts = track.start_ts.get();
        let track_delay = track.delay;
        let mut format = format;
        let mut first = None;
        let mut lead = 0;
        let mut priming = priming;
        let mut edited_end = false;
        // Where the track's samples end (the declared length, unless the file is cut).
        let mut end_frames = declared_frames;
        let mut cut = None;
        let mut exact = exact;
        let mut jumps = Vec::new();
        if short_name == "isomp4" {
            let fragments = input
                .seeker()
                .ok()
                .and_then(|mut r| mp4_frags::fragments(&mut r, track_id, sample_rate));
            if let Some(f) = fragments {
                // A fragmented file: its index declares no samples (symphonia takes 0, or the
                // first segment index's span), its fragments hold them all.
                end_frames = Some(f.frames);
                declared_frames = if f.cut.is_some() { f.declared } else { Some(f.frames) };
                cut = f.cut.map(|c| c.describe());
                jumps = f.jumps;
                // The fragments read are the length, not a length declared beforehand: a cut is
                // told by where the file ends (`cut`). Their durations may also span a gap the
                // samples do not fill (ffmpeg starts audio late with a long first sample), which
                // the decoder fills with silence (the `timeline` submodule): no truncation.
                exact = false;
            } else if let Some(layout) =
                input.seeker().ok().and_then(|mut r| mp4_frags::layout(&mut r))
            {
                // The index is whole (the demuxer read it): the file ends inside its audio
                // data, or before it (a file with its index first, cut after it).
                cut = match layout.cut {
                    Some(c) if !layout.media || c.kind() == Some(b"mdat") => Some(c.describe()),
                    None if !layout.media && !layout.malformed && declared_frames != Some(0) => {
                        let len = layout.len;
                        let before = mp4_frags::Place::Before(*b"mdat");
                        Some(mp4_frags::Cut { len, at: len, place: before }.describe())
                    }
                    _ => None,
                };
            }
            // An index that declares no samples and fragments that cannot be read: where the
            // audio ends is not known, rather than at 0.
            end_frames = end_frames.filter(|&n| n > 0);
        }
        if channels > 0 && short_name == "isomp4" {
            // Behind leading empty edits, AAC's 1024 frames of priming become silence on the
            // timeline (ffmpeg plays them there: a media edit from 0 declares them).
            let codec_priming = if is_aac { 1024 } else { priming };
            let placement = input.seeker().ok().and_then(|mut r| {
                mp4_edits::audio_placement(&mut r, track_id, sample_rate, codec_priming)
            });
            if let Some(p) = placement {
                priming = p.skip;
                lead = p.lead;
                if let Some(edit_end) = p.declared_frames {
                    // The edit may end before the media (a clip trimmed at both ends), never
                    // after it.
                    declared_frames = Some(declared_frames.map_or(edit_end, |n| n.min(edit_end)));
                    end_frames = Some(end_frames.map_or(edit_end, |n| n.min(edit_end)));
                    edited_end = true;
                }
            }
        } else if channels > 0 && short_name == "ogg" {
            // A stream cut from a live stream or a longer file: its first page's granule
            // position puts the first packet after 0 (RFC 3533, RFC 7845 §4), at ffprobe's
            // `start_time`. Opus's pre-skip is still dropped, so its first sample kept is
            // there; Vorbis's first packet only primes the overlap (half its block, the
            // track's delay), so its first sample comes that much later.
            let withheld =
                if params.codec == CODEC_ID_VORBIS { track_delay.unwrap_or(0) } else { 0 };
            let first_ts = start_ts.saturating_add(i64::from(withheld));
            if start_ts > 0 {
                if let Some(tb) = time_base {
                    lead = start_lead(first_ts, tb.numer.get(), tb.denom.get(), sample_rate)
                        .unwrap_or(0);
                }
                // The last granule position is where the stream ends, not its length.
                declared_frames = declared_frames.map(|n| n.saturating_sub(first_ts as u64));
            }
        } else if channels > 0 && short_name == "matroska" {
            let packet = loop {
                match format.next_packet() {
                    Ok(Some(p)) if p.track_id != track_id => continue,
                    other => break other,
                }
            };
            if is_aac {
                // The track's `CodecDelay` (ffmpeg's matroska muxer writes it for AAC since
                // 6.1), in frames; none declared: the priming stays, as ffmpeg plays it.
                let delay_ns = input
                    .seeker()
                    .ok()
                    .and_then(|mut r| mkv_trim::codec_delay(&mut r, u64::from(track_id)))
                    .unwrap_or(0);
                // A codec's delay is a few thousand frames (AAC-LC: 1024); one of more than a
                // second is a broken header, which would otherwise drop the whole recording.
                if delay_ns > MAX_CODEC_DELAY_NS {
                    return Err(Error::recording(
                        RecordingProblem::Corrupt,
                        format!(
                            "the Matroska audio track declares a CodecDelay of {:.6} s, longer \
                             than any codec's delay (at most 1 s): the track header is broken",
                            delay_ns as f64 / 1e9
                        ),
                    ));
                }
                // At most 1 s of nanoseconds times a u32 rate: no overflow in u64.
                priming = (delay_ns * u64::from(sample_rate) + 500_000_000) / 1_000_000_000;
            }
            if let (Ok(Some(p)), Some(tb)) = (&packet, time_base) {
                lead = start_lead(p.pts.get(), tb.numer.get(), tb.denom.get(), sample_rate)
                    .map_or(0, |frames| frames.saturating_add(priming));
            }
            first = Some(packet);
        }
        let info = AudioInfo { sample_rate, channels, codec, declared_frames, priming, lead };
        let stream = Stream::Codec {
            format,
            decoder,
            track_id,
            params: Box::new(params.clone()),
            other_layout: None,
        };
        let mut d = Decoder::new(stream, info, options)?;
        d.stats.unread_audio_tracks = unread_audio_tracks;
        d.stats.audio_tracks = audio_ids.len();
        if matches!(short_name, "isomp4" | "matroska" | "ogg") {
            d.timeline = time_base.and_then(|tb| {
                timeline::Timeline::new(tb.numer.get(), tb.denom.get(), sample_rate)
            });
            d.jumps = jumps.into();
        }
        if is_opus && short_name == "matroska" {
            // The encoder's padding (`DiscardPadding`, in nanoseconds; after the last sample),
            // which symphonia's demuxer does not pass on, in frames at the decoding rate.
            let rate = u128::from(sample_rate);
            d.block_trims = input
                .seeker()
                .ok()
                .and_then(|mut r| mkv_trim::discard_paddings(&mut r, u64::from(track_id)))
                .unwrap_or_default()
                .into_iter()
                .map(|t| {
                    let frames = (u128::from(t.nanos) * rate + 500_000_000) / 1_000_000_000;
                    (t.frame, u64::try_from(frames).unwrap_or(u64::MAX), t.at_start)
                })
                .collect();
        }
        if is_aac && priming == 0 && lead == 0 {
            d.kept_priming = 1024;
        }
        d.declared_exact = exact;
        // Only a header counts the frames; symphonia's estimate from the file size (an MP3
        // without one) counts nothing, and no padding is declared: every frame past it is audio.
        d.frames_end = frames_end.filter(|_| exact);
        d.first = first;
        d.cut = cut;
        if is_aac || (is_opus && short_name == "isomp4") || edited_end {
            // MP4 declares priming + recording (or its edit list where the media ends); the
            // last packet's padding beyond it is dropped.
            d.end = end_frames.map(|n| n.saturating_sub(priming).saturating_add(lead));
        }
        Ok(d)
    }

    /// Reads integer or float PCM WAV with hound, streaming blocks. `Ok(None)` when hound
    /// cannot read it either (the caller then reports symphonia's reason).
    fn wav_fallback(input: &Input, options: &DecodeOptions) -> Result<Option<Decoder>> {
        let eof = Arc::new(AtomicBool::new(false));
        let watch = EofWatch { inner: input.reader()?, eof: eof.clone() };
        let reader = match hound::WavReader::new(BufReader::new(watch)) {
            Ok(r) => r,
            // symphonia's reason is reported instead.
            Err(_) => return Ok(None),
        };
        let spec = reader.spec();
        if spec.sample_rate == 0 {
            return Err(Error::recording(
                RecordingProblem::Corrupt,
                "the audio track declares no sample rate",
            ));
        }
        check_rate(spec.sample_rate)?;
        check_channels(usize::from(spec.channels), options)?;
        let float = spec.sample_format == hound::SampleFormat::Float;
        if float && spec.bits_per_sample != 32 {
            return Ok(None);
        }
        let codec = match (float, spec.bits_per_sample) {
            (true, _) => "pcm_f32le".to_owned(),
            (false, 8) => "pcm_u8".to_owned(),
            (false, b) => format!("pcm_s{b}le"),
        };
        let scale = 1.0 / (1u64 << spec.bits_per_sample.clamp(1, 32).saturating_sub(1)) as f32;
        let info = AudioInfo {
            sample_rate: spec.sample_rate,
            channels: usize::from(spec.channels),
            codec,
            declared_frames: Some(u64::from(reader.duration())),
            priming: 0,
            lead: 0,
        };
        let stream = Stream::Wav { reader: Box::new(reader), float, scale, eof, truncated: false };
        Decoder::new(stream, info, options).map(Some)
    }

    /// MPEG audio in a WAV file (format tag 0x0055, MP3, or 0x0050, MPEG-1 Layer 1 or 2), as
    /// call and broadcast recorders write it: the `data` chunk is an MPEG elementary stream,
    /// read by the MPEG demuxer over that chunk alone.
    ///
    /// ```text
    /// RIFF WAVE ─ fmt  (tag 0x0055, rate, channels)
    ///           └ data ─ [MPEG frame][MPEG frame]…   → read as an .mp3 file
    /// ```
    fn wav_mpeg(input: &Input, options: &DecodeOptions) -> Result<Option<Decoder>> {
        let tag = input.wav_fmt().as_deref().and_then(foreign::wav_format_tag);
        if !matches!(tag, Some(0x0050 | 0x0055)) {
            return Ok(None);
        }
        let Some((at, size)) = input.wav_chunk(b"data") else { return Ok(None) };
        let len = input.len().unwrap_or(0);
        // A data chunk cut short (or of a placeholder size) holds what the file has.
        let held = if size == 0 || size == u32::MAX {
            len.saturating_sub(at)
        } else {
            u64::from(size).min(len.saturating_sub(at))
        };
        let slice = Slice { inner: input.media_source()?, start: at, len: held, pos: 0 };
        let mss = MediaSourceStream::new(Box::new(slice), Default::default());
        let mut hint = Hint::new();
        hint.with_extension(if tag == Some(0x0055) { "mp3" } else { "mp2" });
        match symphonia::default::get_probe().probe(
            &hint,
            mss,
            FormatOptions::default(),
            MetadataOptions::default(),
        ) {
            Ok(format) => Decoder::from_format(format, input, options).map(Some),
            // No MPEG frame in the data: the codec's error says what the file holds.
            Err(_) => Ok(None),
        }
    }

    /// RF64/BW64: the header parsed by [`rf64::read_header`], the PCM (or G.711) streamed in
    /// blocks.
    fn rf64(input: &Input, options: &DecodeOptions) -> Result<Decoder> {
        let mut reader = BufReader::new(input.reader()?);
        let header = rf64::read_header(&mut reader, input.path())?;
        check_channels(header.channels, options)?;
        let frame_bytes = (header.channels * header.sample.width()) as u64;
        let info = AudioInfo {
            sample_rate: header.sample_rate,
            channels: header.channels,
            codec: header.sample.codec().to_owned(),
            declared_frames: Some(header.data_len / frame_bytes),
            priming: 0,
            lead: 0,
        };
        let stream = Stream::Raw {
            reader,
            sample: header.sample,
            remaining: header.data_len / frame_bytes * frame_bytes,
            bytes: Vec::new(),
            truncated: false,
        };
        Decoder::new(stream, info, options)
    }

    fn new(stream: Stream, info: AudioInfo, options: &DecodeOptions) -> Result<Decoder> {
        let max_frames = (options.max_duration.micros().max(0) as u128
            * u128::from(info.sample_rate)
            / 1_000_000)
            .min(u128::from(u64::MAX)) as u64;
        if info.lead > max_frames {
            return Err(Error::limit(format!(
                "the audio starts {} s into the file, later than the {} s allowed",
                frames_to_delta(info.lead, info.sample_rate),
                options.max_duration
            )));
        }
        if let Some(n) = info.declared_frames {
            let n = n.saturating_sub(info.priming).saturating_add(info.lead);
            if n > max_frames {
                return Err(Error::limit(format!(
                    "the recording lasts {} s, longer than the {} s allowed",
                    frames_to_delta(n, info.sample_rate),
                    options.max_duration
                )));
            }
        }
        Ok(Decoder {
            stream,
            skip: info.priming,
            end: None,
            declared_exact: true,
            lead_left: info.lead,
            timeline: None,
            gap_left: 0,
            gap_is_drop: false,
            kept_priming: 0,
            gap_counted: false,
            after_corrupt: false,
            past_end: Vec::new(),
            past_end_open: false,
            frames_end: None,
            jumps: Default::default(),
            packets: 0,
            shift: 0,
            block_trims: Default::default(),
            held: Vec::new(),
            first: None,
            info,
            max_frames,
            buf: Vec::new(),
            stats: DecodeStats::default(),
            done: false,
            strict: options.strict,
            cut: None,
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

    /// A block of `frames` frames of silence (a late start's, a gap's), counted in the frames
    /// delivered; an error past the longest recording allowed.
    fn silence(&mut self, frames: u64) -> Result<Block<'_>> {
        if self.stats.frames + frames > self.max_frames {
            self.done = true;
            return Err(Error::limit(format!(
                "the recording is longer than the {} s allowed",
                frames_to_delta(self.max_frames, self.info.sample_rate)
            )));
        }
        let channels = self.info.channels.max(1);
        self.buf.clear();
        self.buf.resize(frames as usize * channels, 0.0);
        self.stats.frames += frames;
        Ok(Block { samples: &self.buf, channels, first_frame: self.stats.frames - frames })
    }

    /// The next block, or `None` at the end of the recording. A recording that ends without a
    /// single sample is an error.
    pub fn next_block(&mut self) -> Result<Option<Block<'_>>> {
        if self.lead_left > 0 && !self.done {
            // The silence before a track that starts late on the file's timeline.
            let frames = self.lead_left.min(LEAD_BLOCK_FRAMES);
            self.lead_left -= frames;
            self.stats.leading_silence += frames;
            return self.silence(frames).map(Some);
        }
        if self.gap_left > 0 && !self.done {
            // The silence of a gap in the track's timestamps, up to where the audio ends.
            let end = self.end.map_or(u64::MAX, |end| end.saturating_sub(self.stats.frames));
            let frames = self.gap_left.min(LEAD_BLOCK_FRAMES).min(end);
            self.gap_left = if frames == 0 { 0 } else { self.gap_left - frames };
            if frames > 0 {
                if self.stats.frames <= self.stats.leading_silence + self.kept_priming {
                    // Before any audio (AAC's undeclared priming is none): the track starts
                    // late on the file's timeline (a fragmented MP4's long first sample, the
                    // priming packet), as an edit list's empty edit says.
                    self.stats.leading_silence += frames;
                } else if self.gap_is_drop {
                    self.stats.gaps += u64::from(!std::mem::replace(&mut self.gap_counted, true));
                    self.stats.gap_frames += frames;
                }
                return self.silence(frames).map(Some);
            }
        }
        loop {
            if self.done {
                return Ok(None);
            }
            let filled = if !self.held.is_empty() {
                // The packet after a gap, whose silence has been delivered.
                std::mem::swap(&mut self.buf, &mut self.held);
                self.held.clear();
                Ok(Fill::Data)
            } else {
                match &mut self.stream {
                    Stream::Codec { .. } => self.fill_codec(),
                    Stream::Wav { .. } => self.fill_wav(),
                    Stream::Raw { .. } => self.fill_raw(),
                }
            };
            match filled {
                Ok(Fill::Gap) => return self.next_block(),
                Ok(Fill::Data) => {}
                Ok(Fill::End) => {
                    self.done = true;
                    if self.stats.frames == self.stats.leading_silence {
                        return Err(Error::recording(
                            RecordingProblem::Empty,
                            "the recording contains no audio samples",
                        ));
                    }
                    if let Some(declared) =
                        self.info.declared_duration().filter(|_| self.declared_exact)
                    {
                        // A stream that ends well before the length its header declares (an MP3
                        // cut short, say) is truncated, not a shorter recording. The slack
                        // covers encoders' rounding of the declared length.
                        let declared_frames = self
                            .info
                            .declared_frames
                            .unwrap_or(0)
                            .saturating_sub(self.info.priming);
                        let audio = self.stats.frames - self.stats.leading_silence;
                        if audio + declared_frames / 200 + 2048 < declared_frames {
                            if !self.strict {
                                self.stats.truncated = Some(self.truncation());
                                return Ok(None);
                            }
                            return Err(Error::recording(
                                RecordingProblem::Truncated,
                                format!(
                                    "the file is truncated: the audio stops at {} s, before the \
                                     {} s its header declares",
                                    frames_to_delta(self.stats.frames, self.info.sample_rate),
                                    declared
                                ),
                            ));
                        }
                    }
                    return Ok(None);
                }
                Err(e) => {
                    self.done = true;
                    let truncated = matches!(
                        e.kind(),
                        ErrorKind::Recording { problem: RecordingProblem::Truncated, .. }
                    );
                    // Lenient: a file cut short after some audio ends there, with a warning.
                    if truncated && !self.strict && self.stats.frames > self.stats.leading_silence {
                        self.stats.truncated = Some(self.truncation());
                        return Ok(None);
                    }
                    return Err(e);
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
            let mut frames = ((self.buf.len() - start) / channels) as u64;
            if let Some(end) = self.end {
                frames = frames.min(end.saturating_sub(self.stats.frames));
                self.buf.truncate(start + frames as usize * channels);
            }
            if frames == 0 {
                continue;
            }
            if self.stats.frames + frames > self.max_frames {
                self.done = true;
                return Err(Error::limit(format!(
                    "the recording is longer than the {} s allowed",
                    frames_to_delta(self.max_frames, self.info.sample_rate)
                )));
            }
            for s in &mut self.buf[start..] {
                if !s.is_finite() {
                    *s = 0.0;
                    self.stats.non_finite += 1;
                } else if s.abs() >= FULL_SCALE {
                    self.stats.full_scale += 1;
                }
            }
            self.stats.samples += (self.buf.len() - start) as u64;
            self.stats.frames += frames;
            return Ok(Some(Block {
                samples: &self.buf[start..],
                channels,
                first_frame: self.stats.frames - frames,
            }));
        }
    }

    /// How much was read of a file that ends early, against its declared duration.
    fn truncation(&self) -> Truncation {
        Truncation {
            read: frames_to_delta(self.stats.frames, self.info.sample_rate),
            declared: self.info.declared_duration(),
        }
    }

    /// The error for a stream that ends before its container said it would.
    fn truncated(&self) -> Error {
        if self.stats.frames == self.stats.leading_silence {
            let message = match &self.cut {
                Some(cut) => format!("the MP4/M4A/MOV file is truncated: {cut}, before any audio"),
                None => "the file is truncated: it ends before any audio".to_owned(),
            };
            Error::recording(RecordingProblem::Truncated, message)
        } else {
            Error::recording(
                RecordingProblem::Truncated,
                format!(
                    "the file is truncated: the audio stops at {} s",
                    frames_to_delta(self.stats.frames, self.info.sample_rate)
                ),
            )
        }
    }

    /// Decodes the next packet of the track into `buf`.
    fn fill_codec(&mut self) -> Result<Fill> {
        let Stream::Codec { format, decoder, track_id, params, other_layout } = &mut self.stream
        else {
            return Ok(Fill::End);
        };
        let mut packet = match self.first.take().unwrap_or_else(|| format.next_packet()) {
            Ok(Some(p)) => p,
            Ok(None) if self.cut.is_some() => return Err(self.truncated()),
            Ok(None) => return Ok(Fill::End),
            Err(SymError::IoError(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                return Err(self.truncated());
            }
            // The file ends inside (or before) its audio data: whatever the demuxer makes of
            // the missing bytes, the file is truncated.
            Err(SymError::IoError(_) | SymError::DecodeError(_)) if self.cut.is_some() => {
                return Err(self.truncated());
            }
            Err(SymError::ResetRequired) => {
                return Err(Error::recording(
                    RecordingProblem::Codec,
                    "the audio track changes its format mid-stream",
                ));
            }
            Err(e) => return Err(self.positioned(e)),
        };
        if packet.track_id != *track_id {
            self.buf.clear();
            return Ok(Fill::Data);
        }
        while self.jumps.front().is_some_and(|&(at, _)| at <= self.packets) {
            let (_, jump) = self.jumps.pop_front().unwrap_or_default();
            self.shift = self.shift.saturating_add(jump);
        }
        let index = self.packets;
        self.packets += 1;
        // An MPEG frame wholly past the length the LAME/Xing header declares: the encoder's
        // padding, or another file joined byte for byte, which the demuxer's trim would drop
        // without a word. Decoded whole and held. What is there tells them apart, not how
        // much: padding lies inside the frames the header counts; a frame that starts past
        // them is another file's (its ID3 tag and Xing/Info frame, which the demuxer skips,
        // come before it), however short that file is.
        // The frame that ends past it has its end held the same way (ffmpeg keeps a joined
        // file's padding too, and so times after it are on ffmpeg's clock).
        let mpeg_end = self.timeline.is_none()
            && packet.trim_end.get() > 0
            && mpeg_frame_rate(&packet.data).is_some();
        let past_end = mpeg_end && packet.trim_end.get() >= packet.dur.get();
        // Without a header that counts the frames (the length is symphonia's estimate) no
        // padding is declared: what lies past the estimate is audio, delivered as it comes.
        let counted = self.frames_end;
        let tail =
            if mpeg_end && !past_end && counted.is_some() { packet.trim_end.get() } else { 0 };
        if mpeg_end {
            if past_end {
                packet.trim_start = symphonia::core::units::Duration::ZERO;
            }
            packet.trim_end = symphonia::core::units::Duration::ZERO;
        }
        let beyond_counted =
            counted.is_none_or(|end| packet.pts.get() >= i64::try_from(end).unwrap_or(i64::MAX));
        let bad_before = self.stats.bad_packets;
        let after_corrupt = std::mem::take(&mut self.after_corrupt);
        match decoder.decode(&packet) {
            Ok(decoded) => {
                let channels = decoded.spec().channels().count();
                if channels == 0 || channels > u16::MAX as usize {
                    return Err(Error::recording(
                        RecordingProblem::Corrupt,
                        "the audio has no channels",
                    ));
                }
                if self.info.channels == 0 {
                    self.info.channels = channels;
                }
                if channels != self.info.channels {
                    return Err(Error::recording(
                        RecordingProblem::Codec,
                        format!(
                            "the channel count changes mid-stream ({} → {channels})",
                            self.info.channels
                        ),
                    ));
                }
                decoded.copy_to_vec_interleaved::<f32>(&mut self.buf);
                while self.block_trims.front().is_some_and(|&(at, _, _)| at < index) {
                    self.block_trims.pop_front();
                }
                // A packet can be both a block's first and last frame: both trims apply.
                while let Some(&(_, frames, at_start)) =
                    self.block_trims.front().filter(|&&(at, _, _)| at == index)
                {
                    self.block_trims.pop_front();
                    let len = self.buf.len() / channels;
                    let drop = usize::try_from(frames).unwrap_or(usize::MAX).min(len);
                    if at_start {
                        self.buf.drain(..drop * channels);
                    } else {
                        self.buf.truncate((len - drop) * channels);
                    }
                }
            }
            Err(SymError::DecodeError(why))
                if why == MPA_RESPEC
                    && self.timeline.is_none()
                    && mpeg_frame_rate(&packet.data) == Some(self.info.sample_rate)
                    && self.info.channels > 0 =>
            {
                // The same rate, another channel count: MP3 files of one rate joined byte for
                // byte, one mono and one stereo. A decoder of its own reads them, mixed to the
                // stream's channels, so they are heard and last as long as they play.
                let channels = self.info.channels;
                match decode_other_layout(other_layout, params, &packet, &mut self.buf) {
                    Some(other) => {
                        remix(&mut self.buf, other, channels);
                        self.stats.other_layout_packets += 1;
                        self.stats.other_layout_channels = Some((channels, other));
                        self.stats.other_layout_frames += (self.buf.len() / channels) as u64;
                    }
                    None => {
                        self.stats.bad_packets += 1;
                        let frames = usize::try_from(packet.dur.get()).unwrap_or(0).min(1 << 20);
                        self.buf.clear();
                        self.buf.resize(frames * channels, 0.0);
                        self.after_corrupt = true;
                    }
                }
            }
            Err(SymError::DecodeError(why)) => {
                // Keep later times right: a corrupt packet becomes silence of its length (in
                // the time base's ticks, frames for containers without a timeline; where the
                // container gives no length, the next packet's timestamp fills the rest).
                let ticks = packet.dur.get();
                let mut frames = self.timeline.as_ref().map_or(ticks, |t| t.frames_in(ticks));
                let rate = self.info.sample_rate;
                let other_rate = mpeg_frame_rate(&packet.data)
                    .filter(|&r| r != rate && why == MPA_RESPEC && self.timeline.is_none());
                match other_rate {
                    Some(other) => {
                        // The MPEG demuxer gives the frame's length in its own samples (it has
                        // no timeline), which the stream takes at its first rate; they play at
                        // their own. A container with a timeline gives the length in time,
                        // already right.
                        frames = frames.min(1 << 20) * u64::from(rate) / u64::from(other);
                        self.stats.other_rate_packets += 1;
                        self.stats.other_rate = Some(other);
                        self.stats.other_rate_frames += frames.min(1 << 20);
                    }
                    None => self.stats.bad_packets += 1,
                }
                let frames = usize::try_from(frames).unwrap_or(0).min(1 << 20);
                self.buf.clear();
                self.buf.resize(frames * self.info.channels.max(1), 0.0);
                self.after_corrupt = true;
            }
            Err(e) => return Err(self.positioned(e)),
        }
        if tail > 0 {
            let channels = self.info.channels.max(1);
            let keep = (self.buf.len() / channels).saturating_sub(tail as usize) * channels;
            self.past_end.extend_from_slice(&self.buf[keep..]);
            self.buf.truncate(keep);
            return Ok(Fill::Data);
        }
        if past_end && !self.past_end_open {
            self.past_end.append(&mut self.buf);
            // A frame past the counted ones that does not decode (bytes that only look like a
            // frame header: a tag at the end of the file) joins no file.
            if !beyond_counted || self.stats.bad_packets != bad_before {
                return Ok(Fill::Data);
            }
            self.past_end_open = true;
            std::mem::swap(&mut self.buf, &mut self.past_end);
        }
        // Silence for a frame that did not decode is not audio past the end.
        if past_end && !self.after_corrupt && self.frames_end.is_some() {
            self.stats.past_declared_frames += (self.buf.len() / self.info.channels.max(1)) as u64;
        }
        // Packets past where the audio ends (encoder padding, an edit that ends early) are
        // not placed: a gap or a reset there would be a note about audio not delivered.
        let ended = self.end.is_some_and(|end| self.stats.frames >= end);
        if let Some(timeline) = self.timeline.as_mut().filter(|_| !ended) {
            let frames = (self.buf.len() / self.info.channels.max(1)) as u64;
            // A gap longer than the recording may still grow is a damaged timestamp, not a
            // drop to fill.
            let room = self.max_frames.saturating_sub(self.stats.frames + frames);
            match timeline.place(packet.pts.get().saturating_add(self.shift), frames, room) {
                timeline::Placement::Follows => {}
                timeline::Placement::Reset => self.stats.clock_resets += 1,
                timeline::Placement::Gap(gap) => {
                    // The rest of a corrupt packet without a length is no drop.
                    self.gap_is_drop = !after_corrupt;
                    self.gap_counted = false;
                    self.gap_left = gap;
                    std::mem::swap(&mut self.buf, &mut self.held);
                    return Ok(Fill::Gap);
                }
            }
        }
        Ok(Fill::Data)
    }

    /// Reads the next block of WAV samples into `buf` (whole frames only).
    fn fill_wav(&mut self) -> Result<Fill> {
        let Stream::Wav { reader, float, scale, eof, truncated } = &mut self.stream else {
            return Ok(Fill::End);
        };
        if *truncated {
            return Err(self.truncated());
        }
        let channels = self.info.channels.max(1);
        let want = (WAV_BLOCK_SAMPLES / channels).max(1) * channels;
        self.buf.clear();
        let mut failed = None;
        if *float {
            for s in reader.samples::<f32>().take(want) {
                match s {
                    Ok(v) => self.buf.push(v),
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
        } else {
            let scale = *scale;
            for s in reader.samples::<i32>().take(want) {
                match s {
                    Ok(v) => self.buf.push(v as f32 * scale),
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
            }
        }
        // Whole frames only: a data chunk may end inside a frame.
        self.buf.truncate(self.buf.len() / channels * channels);
        match failed {
            None if self.buf.is_empty() => Ok(Fill::End),
            None => Ok(Fill::Data),
            Some(hound::Error::IoError(_)) if eof.load(Ordering::Relaxed) => {
                // The whole frames read are delivered; the next call reports the truncation.
                *truncated = true;
                if self.buf.is_empty() {
                    return Err(self.truncated());
                }
                Ok(Fill::Data)
            }
            Some(hound::Error::IoError(e)) => Err(Error::from(e)),
            Some(e) => Err(Error::recording(
                RecordingProblem::Corrupt,
                format!(
                    "malformed WAV data at {} s: {e}",
                    frames_to_delta(self.stats.frames, self.info.sample_rate)
                ),
            )),
        }
    }

    /// Reads the next block of RF64 samples into `buf` (whole frames only).
    fn fill_raw(&mut self) -> Result<Fill> {
        let Stream::Raw { reader, sample, remaining, bytes, truncated } = &mut self.stream else {
            return Ok(Fill::End);
        };
        if *truncated {
            return Err(self.truncated());
        }
        let channels = self.info.channels.max(1);
        let frame_bytes = (channels * sample.width()) as u64;
        let want = ((WAV_BLOCK_SAMPLES / channels).max(1) as u64 * frame_bytes).min(*remaining);
        if want == 0 {
            return Ok(Fill::End);
        }
        bytes.clear();
        let got = reader.by_ref().take(want).read_to_end(bytes)? as u64;
        *remaining -= got;
        let whole = (got / frame_bytes * frame_bytes) as usize;
        let width = sample.width();
        let sample = *sample;
        self.buf.clear();
        self.buf.extend(bytes[..whole].chunks_exact(width).map(|b| sample.decode(b)));
        if got < want {
            // The data ended early: deliver the whole frames, then report the truncation.
            *truncated = true;
            if self.buf.is_empty() {
                return Err(self.truncated());
            }
        }
        Ok(Fill::Data)
    }

    fn positioned(&self, e: SymError) -> Error {
        if matches!(&e, SymError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof) {
            return self.truncated();
        }
        let at = frames_to_delta(self.stats.frames, self.info.sample_rate);
        map_error(e, &format!("decoding at {at}"))
    }
}

/// Decodes `packet` with `other` (made from `params` on first use, and made anew once if it
/// refuses the packet's layout too) into `buf`, interleaved; its channel count, or `None` when
/// it does not decode.
fn decode_other_layout(
    other: &mut Option<Box<dyn AudioDecoder>>,
    params: &AudioCodecParameters,
    packet: &Packet,
    buf: &mut Vec<f32>,
) -> Option<usize> {
    // The demuxer trims packets past the length the first file's header (LAME/Xing) declares
    // to nothing; frames of another layout are another file's, whose audio that length does
    // not cover, so they are decoded whole.
    let mut whole = packet.clone();
    whole.trim_start = symphonia::core::units::Duration::ZERO;
    whole.trim_end = symphonia::core::units::Duration::ZERO;
    for fresh in [false, true] {
        if fresh || other.is_none() {
            *other = codecs().make_audio_decoder(params, &AudioDecoderOptions::default()).ok();
        }
        let decoder = other.as_mut()?;
        match decoder.decode(&whole) {
            Ok(decoded) => {
                let channels = decoded.spec().channels().count();
                if channels == 0 {
                    return None;
                }
                decoded.copy_to_vec_interleaved::<f32>(buf);
                return Some(channels);
            }
            Err(SymError::DecodeError(why)) if why == MPA_RESPEC && !fresh => continue,
            Err(_) => return None,
        }
    }
    None
}

/// Mixes interleaved frames of `from` channels in `buf` to `to` channels: to mono, the mean
/// of the channels; from mono, the one channel in each; otherwise the first `to` channels
/// (repeated when there are fewer).
fn remix(buf: &mut Vec<f32>, from: usize, to: usize) {
    if from == to || from == 0 || to == 0 {
        return;
    }
    let frames = buf.len() / from;
    let mut out = Vec::with_capacity(frames * to);
    for frame in buf.chunks_exact(from) {
        if to == 1 {
            out.push(frame.iter().sum::<f32>() / from as f32);
        } else {
            out.extend((0..to).map(|c| frame[c % from]));
        }
    }
    *buf = out;
}

/// The error for an MP4-family file that does not open because it is cut short: where it
/// ends, and in which box. `None` when every box fits or the audio and its index are whole
/// before the cut (the demuxer's own reason is then reported).
fn mp4_cut_error(input: &Input) -> Option<Error> {
    let layout = mp4_frags::layout(&mut input.seeker().ok()?)?;
    let cut = match layout.cut {
        Some(cut) => cut,
        // Every box whole, and neither an index nor audio data: the file stops before them
        // (unless a damaged box stopped the reading: the demuxer's reason is reported).
        None if !layout.index && !layout.media && !layout.malformed => {
            let before = mp4_frags::Place::Before(*b"moov");
            mp4_frags::Cut { len: layout.len, at: layout.len, place: before }
        }
        None => return None,
    };
    let in_data = cut.kind() == Some(b"mdat");
    let message = match (layout.index, layout.media || in_data) {
        // The audio data, and no index before it (ffmpeg writes it after the audio).
        (false, true) => format!(
            "the MP4/MOV file has no index (moov box): it is truncated or was never finalised \
             (an interrupted recording); {}",
            cut.describe()
        ),
        (_, false) => {
            format!("the MP4/M4A/MOV file is truncated: {}, before any audio", cut.describe())
        }
        (true, true) => return None,
    };
    Some(Error::recording(RecordingProblem::Truncated, message))
}

fn check_channels(channels: usize, options: &DecodeOptions) -> Result<()> {
    if channels > options.max_channels {
        return Err(Error::limit(format!(
            "the recording has {channels} channels, more than the {} allowed",
            options.max_channels
        )));
    }
    Ok(())
}

fn map_error(e: SymError, doing: &str) -> Error {
    match e {
        SymError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            Error::recording(
                RecordingProblem::Truncated,
                format!("the file is truncated ({doing})"),
            )
            .with_source(io)
        }
        SymError::IoError(io) => Error::from(io),
        SymError::DecodeError(m) => {
            Error::recording(RecordingProblem::Corrupt, format!("malformed audio ({doing}): {m}"))
        }
        SymError::Unsupported(m) => {
            Error::recording(RecordingProblem::Codec, format!("{m} ({doing})"))
        }
        SymError::LimitError(m) => Error::limit(format!("{m} ({doing})")),
        other => {
            let message = format!("{other} ({doing})");
            Error::recording(RecordingProblem::Corrupt, message).with_source(other)
        }
    }
}

/// The duration of `frames` samples at `rate` Hz, rounded to the microsecond.
pub fn frames_to_delta(frames: u64, rate: u32) -> Delta {
    let us = (u128::from(frames) * 1_000_000 + u128::from(rate) / 2) / u128::from(rate.max(1));
    Delta::from_micros(us.min(i64::MAX as u128) as i64)
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

/// The container a file's first bytes announce, when they are those of a recording (`"WAV"`,
/// `"FLAC"`, `"MP3"`, …), else `None`. Twelve bytes are enough; fewer give `None`.
///
/// Used to tell a user who hands a recording to a transcript reader what they gave, instead
/// of a text decoding error. It looks only at the signature, not at whether the file decodes.
pub fn container_of(head: &[u8]) -> Option<&'static str> {
    let at = |i: usize, sig: &[u8]| head.get(i..i + sig.len()) == Some(sig);
    if at(0, b"RIFF") && at(8, b"WAVE") {
        Some("WAV")
    } else if (at(0, b"RF64") || at(0, b"BW64")) && at(8, b"WAVE") {
        Some("RF64/BW64 WAV")
    } else if at(0, b"fLaC") {
        Some("FLAC")
    } else if at(0, b"OggS") {
        Some("Ogg")
    } else if at(0, b"ID3") {
        Some("MP3")
    } else if at(4, b"ftyp") {
        Some("MP4/M4A/MOV")
    } else if at(0, &[0x1A, 0x45, 0xDF, 0xA3]) {
        Some("Matroska/WebM")
    } else if head.len() >= 12 && head[0] == 0xFF && head[1] & 0xE0 == 0xE0 && head[1] < 0xFE {
        // An MPEG audio frame (MP3 without an ID3 tag) or ADTS AAC: 11 set sync bits, which
        // no UTF-8 text starts with (`FF FE` is the UTF-16 and UTF-32 byte-order mark).
        Some(if head[1] & 0x06 == 0 { "AAC (ADTS)" } else { "MP3" })
    } else {
        None
    }
}

#[cfg(test)]
mod container_tests {
    use super::container_of;

    #[test]
    fn recordings_are_told_from_text_by_their_first_bytes() {
        assert_eq!(container_of(b"RIFF\x24\0\0\0WAVEfmt "), Some("WAV"));
        assert_eq!(container_of(b"fLaC\0\0\0\x22\0\0\0\0"), Some("FLAC"));
        assert_eq!(container_of(b"OggS\0\x02\0\0\0\0\0\0"), Some("Ogg"));
        assert_eq!(container_of(b"ID3\x04\0\0\0\0\0\0\0\0"), Some("MP3"));
        assert_eq!(container_of(b"\xFF\xFB\x90\x64\0\0\0\0\0\0\0\0"), Some("MP3"));
        assert_eq!(container_of(b"\xFF\xF1\x50\x80\0\0\0\0\0\0\0\0"), Some("AAC (ADTS)"));
        assert_eq!(container_of(b"\0\0\0\x20ftypM4A "), Some("MP4/M4A/MOV"));
        assert_eq!(container_of(b"\x1A\x45\xDF\xA3\x01\0\0\0\0\0\0\0"), Some("Matroska/WebM"));
        assert_eq!(container_of(b"RIFF"), None, "too short to say");
        assert_eq!(container_of(b"SPEAKER a 1 0.0 1.0 <NA>"), None);
        assert_eq!(container_of(b"\xFF\xFEW\0E\0B\0V\0T\0T\0"), None, "UTF-16 text with a BOM");
        assert_eq!(container_of(b"\xEF\xBB\xBFWEBVTT\n\n00"), None, "UTF-8 text with a BOM");
        assert_eq!(container_of(b""), None);
    }
}

#[cfg(test)]
mod info_tests {
    use super::AudioInfo;
    use overtalk::Delta;

    #[test]
    fn a_declared_length_and_a_lead_too_long_for_64_bits_saturate() {
        // A fragmented file's samples summed near 2^64 frames, behind an edit list's lead.
        let info = AudioInfo {
            sample_rate: 48_000,
            channels: 1,
            codec: "aac".to_owned(),
            declared_frames: Some(u64::MAX - 10),
            priming: 0,
            lead: 48_000,
        };
        assert_eq!(info.declared_duration(), Some(Delta::from_micros(i64::MAX)));
        let info = AudioInfo { declared_frames: Some(96_000), priming: 1024, ..info };
        assert_eq!(info.declared_duration(), Some(Delta::from_micros(2_978_667)));
    }
}
