//! Where an MP4/MOV's audio sits on the file's timeline, from its edit list (ISO/IEC
//! 14496-12 §8.6.6): symphonia reads the samples but not the edits, so a track that starts
//! after the others (`ffmpeg -itsoffset 2`, a video whose sound starts late) would decode as
//! if it started at 0, and a clip trimmed at the start (`ffmpeg -ss 1.5 -i in.mp4 -c copy`,
//! an editor's non-destructive trim, Apple's 2112 frames of AAC priming) would keep the media
//! before its `media_time`.
//!
//! ```text
//! moov ─ mvhd (movie timescale)
//!      └ trak ─ edts ─ elst: [empty 1936 ms] [media from sample 0 …]
//!               mdia ─ mdhd (media timescale), hdlr "soun"
//!
//! file timeline   0 ───────── 1.936 ─────── 2.000 ─────────────▶
//! audio track       (empty edit)  [priming]  [first sample heard …]
//! ```
//!
//! Time 0 is the media at the first media edit's `media_time`, after the leading empty edits,
//! and the audio ends with that edit, as ffmpeg plays it. The silence put before the audio is
//! the empty edits' duration plus the encoder priming the media edit shows (the priming the
//! decoder drops, less what the edit already skips). The box walk reads headers and seeks;
//! only `moov` (at most [`MAX_MOOV`] bytes) is read whole.

use std::io::{Read, Seek, SeekFrom};

/// The largest `moov` box read (its sample tables grow with the recording: about 8 bytes per
/// packet, so 64 MiB covers days of audio).
pub(super) const MAX_MOOV: u64 = 64 << 20;

/// The children of a box's body: `(type, body)`, stopping at the first malformed header.
pub(super) fn children(mut b: &[u8]) -> impl Iterator<Item = ([u8; 4], &[u8])> {
    std::iter::from_fn(move || {
        if b.len() < 8 {
            return None;
        }
        let size32 = u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as u64;
        let kind = [b[4], b[5], b[6], b[7]];
        let (size, header) = match size32 {
            0 => (b.len() as u64, 8),
            1 if b.len() >= 16 => (u64::from_be_bytes(b[8..16].try_into().ok()?), 16),
            _ => (size32, 8),
        };
        if size < header || size > b.len() as u64 {
            b = &[];
            return None;
        }
        let body = &b[header as usize..size as usize];
        b = &b[size as usize..];
        Some((kind, body))
    })
}

pub(super) fn child<'a>(b: &'a [u8], kind: &[u8; 4]) -> Option<&'a [u8]> {
    children(b).find(|(k, _)| k == kind).map(|(_, body)| body)
}

pub(super) fn be_u32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

pub(super) fn be_u64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_be_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// The timescale of an `mvhd` or `mdhd` body (version 0: 32-bit times, 1: 64-bit).
pub(super) fn timescale(b: &[u8]) -> Option<u32> {
    let t = if *b.first()? == 1 { be_u32(b, 20)? } else { be_u32(b, 12)? };
    (t > 0).then_some(t)
}

/// The `elst` entries: `(segment duration in the movie timescale, media time in the media
/// timescale, −1 for an empty edit)`.
fn edits(b: &[u8]) -> Option<Vec<(u64, i64)>> {
    let version = *b.first()?;
    let count = be_u32(b, 4)? as usize;
    let width = if version == 1 { 20 } else { 12 };
    if count > (b.len().saturating_sub(8)) / width {
        return None;
    }
    (0..count)
        .map(|i| {
            let at = 8 + i * width;
            Some(if version == 1 {
                (be_u64(b, at)?, be_u64(b, at + 8)? as i64)
            } else {
                (u64::from(be_u32(b, at)?), i64::from(be_u32(b, at + 4)? as i32))
            })
        })
        .collect()
}

/// Where an MP4's edit list places the first audio track's decoded frames on the file's
/// timeline, in frames at the decoder's output rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Placement {
    /// Decoded frames dropped from the start: the media the edit skips (`media_time`: AAC
    /// priming, the part a trimmed clip leaves out), at least the decoder's `priming` when the
    /// audio starts late.
    pub skip: u64,
    /// Frames of silence put before the first frame kept.
    pub lead: u64,
    /// Decoded frames up to the end of the media edit (`media_time` + its duration), the
    /// recording's declared length before `skip`; `None` when the edit leaves it open
    /// (a duration of 0, as fragmented files write).
    pub declared_frames: Option<u64>,
}

/// Where the first audio track's edit list puts its media, given the codec's `priming`
/// frames (AAC: 1024; Opus: its pre-skip): time 0 is the media at the first media edit's
/// `media_time`, after the leading empty edits, as ffmpeg plays it. `None` when the track has
/// no edit list (or the file cannot be read as MP4 boxes): the caller keeps its own priming
/// (AAC's is then played, as ffmpeg plays it: nothing declares it).
///
/// ```text
/// elst [media_time 73024, 18.5 s]          elst [empty 1.936 s] [media_time 0 …]
/// decoded  |priming|trimmed 1.5 s|kept …   decoded        |priming|audio …
///          └──────── skip ───────┘         timeline  silence (lead) ─┘
/// ```
///
/// With leading empty edits, priming the media edit does not skip becomes silence, so the
/// first sample heard is where ffmpeg plays it; without them the media at `media_time` is
/// time 0 even inside the priming.
pub(super) fn audio_placement(
    r: &mut (impl Read + Seek),
    track_id: u32,
    rate: u32,
    priming: u64,
) -> Option<Placement> {
    let moov = read_moov(r)?;
    let movie_scale = u128::from(timescale(child(&moov, b"mvhd")?)?);
    for (kind, trak) in children(&moov) {
        if &kind != b"trak" {
            continue;
        }
        let mdia = child(trak, b"mdia")?;
        if child(mdia, b"hdlr")?.get(8..12)? != b"soun" {
            continue;
        }
        // The track being decoded (a file may hold one sound track per microphone).
        if child(trak, b"tkhd").and_then(tkhd_track).is_some_and(|id| id != track_id) {
            continue;
        }
        let media_scale = u128::from(timescale(child(mdia, b"mdhd")?)?);
        let list = edits(child(child(trak, b"edts")?, b"elst")?)?;
        // Version-1 durations are 64-bit: their sum may not fit (a damaged or hostile file).
        let empty = list
            .iter()
            .take_while(|(_, media)| *media == -1)
            .try_fold(0u64, |sum, &(d, _)| sum.checked_add(d))?;
        let media_edit = list.iter().find(|(_, m)| *m >= 0);
        if media_edit.is_none() && empty == 0 {
            return None;
        }
        let (duration, media_time) = media_edit.map_or((0, 0), |&(d, m)| (d, m as u64));
        let rate = u128::from(rate);
        let to_frames = |t: u128, scale: u128| u64::try_from((t * rate + scale / 2) / scale).ok();
        let empty_frames = to_frames(u128::from(empty), movie_scale)?;
        let media_start = to_frames(u128::from(media_time), media_scale)?;
        let skip = if empty > 0 { media_start.max(priming) } else { media_start };
        let lead = empty_frames.checked_add(skip - media_start)?;
        let declared_frames = match duration {
            0 => None,
            d => Some(media_start.checked_add(to_frames(u128::from(d), movie_scale)?)?),
        };
        return Some(Placement { skip, lead, declared_frames });
    }
    None
}

/// The track id of a `tkhd` body (version 0: 32-bit times, 1: 64-bit).
pub(super) fn tkhd_track(b: &[u8]) -> Option<u32> {
    if *b.first()? == 1 {
        be_u32(b, 20)
    } else {
        be_u32(b, 12)
    }
}

/// One top-level box: its type, where it starts, the length of its header and its size (to
/// the end of the file for a size of 0).
pub(super) struct TopBox {
    pub kind: [u8; 4],
    pub at: u64,
    pub header: u64,
    pub size: u64,
}

/// How a top-level box runs past the end of its file.
pub(super) enum Overrun {
    /// Its header (size and type) is cut.
    Header,
    /// Its body is: the box of this type and declared size.
    Inside([u8; 4], u64),
}

/// The top-level box at `at` of a file `len` bytes long, its header read (its body is not):
/// `Err` when it runs past the end or its header is cut, `None` at the end of the file or at
/// a malformed size (smaller than its header).
pub(super) fn top_box(
    r: &mut (impl Read + Seek),
    at: u64,
    len: u64,
) -> Option<Result<TopBox, Overrun>> {
    if at >= len {
        return None;
    }
    let mut h = [0u8; 16];
    if len - at < 8 || r.seek(SeekFrom::Start(at)).is_err() || r.read_exact(&mut h[..8]).is_err() {
        return Some(Err(Overrun::Header));
    }
    let kind = [h[4], h[5], h[6], h[7]];
    let (size, header) = match u32::from_be_bytes([h[0], h[1], h[2], h[3]]) {
        // Up to the end of the file: only a last box is written so.
        0 => (len - at, 8),
        1 => {
            if len - at < 16 || r.read_exact(&mut h[8..]).is_err() {
                return Some(Err(Overrun::Header));
            }
            (u64::from_be_bytes([h[8], h[9], h[10], h[11], h[12], h[13], h[14], h[15]]), 16)
        }
        n => (u64::from(n), 8),
    };
    if size < header {
        return None;
    }
    Some(match at.checked_add(size) {
        Some(end) if end <= len => Ok(TopBox { kind, at, header, size }),
        _ => Err(Overrun::Inside(kind, size)),
    })
}

/// The body of the top-level `moov` box, found by reading box headers and seeking past the
/// others (a large `mdat` is never read).
pub(super) fn read_moov(r: &mut (impl Read + Seek)) -> Option<Vec<u8>> {
    let len = r.seek(SeekFrom::End(0)).ok()?;
    let mut at = 0;
    loop {
        let b = top_box(r, at, len)?.ok()?;
        if &b.kind == b"moov" {
            let body = b.size - b.header;
            if body > MAX_MOOV {
                return None;
            }
            r.seek(SeekFrom::Start(b.at + b.header)).ok()?;
            let mut out = vec![0u8; body as usize];
            r.read_exact(&mut out).ok()?;
            return Some(out);
        }
        at = b.at + b.size;
    }
}

/// A box of type `kind` around `body`, with a 32-bit size (for the tests of the MP4 readers).
#[cfg(test)]
pub(super) fn boxed(kind: &[u8; 4], body: &[u8]) -> Vec<u8> {
    let mut b = ((body.len() + 8) as u32).to_be_bytes().to_vec();
    b.extend_from_slice(kind);
    b.extend_from_slice(body);
    b
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// A version-0 `mvhd`/`mdhd` body with the timescale at byte 12.
    fn header(scale: u32) -> Vec<u8> {
        let mut b = vec![0u8; 20];
        b[12..16].copy_from_slice(&scale.to_be_bytes());
        b
    }

    fn file(edits: &[(u32, i32)]) -> Vec<u8> {
        let mut elst = vec![0u8, 0, 0, 0];
        elst.extend_from_slice(&(edits.len() as u32).to_be_bytes());
        for &(d, m) in edits {
            elst.extend_from_slice(&d.to_be_bytes());
            elst.extend_from_slice(&m.to_be_bytes());
            elst.extend_from_slice(&[0, 1, 0, 0]);
        }
        file_with_elst(&elst)
    }

    /// A version-1 `elst` (64-bit durations and media times).
    fn file_v1(edits: &[(u64, i64)]) -> Vec<u8> {
        let mut elst = vec![1u8, 0, 0, 0];
        elst.extend_from_slice(&(edits.len() as u32).to_be_bytes());
        for &(d, m) in edits {
            elst.extend_from_slice(&d.to_be_bytes());
            elst.extend_from_slice(&m.to_be_bytes());
            elst.extend_from_slice(&[0, 1, 0, 0]);
        }
        file_with_elst(&elst)
    }

    fn file_with_elst(elst: &[u8]) -> Vec<u8> {
        let mut hdlr = vec![0u8; 8];
        hdlr.extend_from_slice(b"soun");
        hdlr.extend_from_slice(&[0; 12]);
        let mdia = [boxed(b"mdhd", &header(48_000)), boxed(b"hdlr", &hdlr)].concat();
        let trak = [boxed(b"edts", &boxed(b"elst", elst)), boxed(b"mdia", &mdia)].concat();
        let moov = [boxed(b"mvhd", &header(1000)), boxed(b"trak", &trak)].concat();
        [boxed(b"ftyp", b"isom"), boxed(b"mdat", &[0; 100]), boxed(b"moov", &moov)].concat()
    }

    fn placement(f: Vec<u8>, priming: u64) -> Option<(u64, u64, Option<u64>)> {
        audio_placement(&mut Cursor::new(f), 1, 48_000, priming)
            .map(|p| (p.skip, p.lead, p.declared_frames))
    }

    #[test]
    fn a_leading_empty_edit_is_silence_before_the_audio() {
        // 1.936 s empty, then 45 s of media from sample 0: 1.936 s + the 1024 frames of
        // priming the decoder drops, at 48 kHz; the edit ends 45 s of media later.
        let f = file(&[(1936, -1), (45_000, 0)]);
        assert_eq!(placement(f, 1024), Some((1024, 92_928 + 1024, Some(2_160_000))));
        // The media edit skips the priming itself: the empty edit alone.
        let f = file(&[(1936, -1), (45_000, 1024)]);
        assert_eq!(placement(f, 1024), Some((1024, 92_928, Some(2_161_024))));
        // An empty edit alone: the priming is dropped, the end left open.
        let f = file(&[(1936, -1)]);
        assert_eq!(placement(f, 1024), Some((1024, 92_928 + 1024, None)));
    }

    #[test]
    fn a_media_edit_trims_the_start_and_the_end() {
        // ffmpeg's own AAC: the media edit skips the 1024 frames of priming.
        let f = file(&[(45_000, 1024)]);
        assert_eq!(placement(f, 1024), Some((1024, 0, Some(2_161_024))));
        // `ffmpeg -ss 1.5 -i in.m4a -c copy`: the kept packets start 320 frames before 1.5 s.
        let f = file(&[(18_500, 320)]);
        assert_eq!(placement(f, 1024), Some((320, 0, Some(320 + 888_000))));
        // An editor's trim keeping all the media: 1.5 s and the priming skipped, 10 s played.
        let f = file(&[(10_000, 73_024)]);
        assert_eq!(placement(f, 1024), Some((73_024, 0, Some(73_024 + 480_000))));
        // Apple's AAC declares 2112 frames of priming: all of them are dropped.
        let f = file(&[(45_000, 2112)]);
        assert_eq!(placement(f, 1024), Some((2112, 0, Some(2112 + 2_160_000))));
        // A duration of 0 (fragmented files) leaves the end open.
        let f = file(&[(0, 1024)]);
        assert_eq!(placement(f, 1024), Some((1024, 0, None)));
        // No edit at all: the caller keeps its priming.
        assert_eq!(placement(file(&[]), 1024), None);
    }

    #[test]
    fn broken_boxes_give_no_placement() {
        let mut f = file(&[(1936, -1), (45_000, 0)]);
        let n = f.len();
        f.truncate(n - 10);
        assert_eq!(placement(f, 1024), None);
        assert_eq!(placement(b"RIFF\0\0\0\0WAVE".to_vec(), 0), None);
        // An elst claiming more entries than it holds.
        let mut f = file(&[(1936, -1)]);
        let at = f.windows(4).position(|w| w == b"elst").unwrap() + 8;
        f[at..at + 4].copy_from_slice(&1000u32.to_be_bytes());
        assert_eq!(placement(f, 0), None);
        // 64-bit empty edits whose sum does not fit in 64 bits.
        let f = file_v1(&[(1 << 63, -1), (1 << 63, -1), (45_000, 0)]);
        assert_eq!(placement(f, 0), None);
        // The same edits in 64 bits that fit read as in 32.
        let f = file_v1(&[(1936, -1), (45_000, 0)]);
        assert_eq!(placement(f, 1024), Some((1024, 92_928 + 1024, Some(2_160_000))));
    }
}
