//! Where an MP4/MOV's audio starts on the file's timeline, from its edit list (ISO/IEC
//! 14496-12 §8.6.6): symphonia reads the samples but not the edits, so a track that starts
//! after the others (`ffmpeg -itsoffset 2`, a video whose sound starts late) would decode as
//! if it started at 0.
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
//! The silence put before the audio is the empty edits' duration plus the encoder priming the
//! media edit shows (the priming the decoder drops, less what the edit already skips), which is
//! where ffmpeg plays the first sample. Only leading empty edits are honoured: without one the
//! audio starts at 0, as before. The box walk reads headers and seeks; only `moov` (at most
//! [`MAX_MOOV`] bytes) is read whole.

use std::io::{Read, Seek, SeekFrom};

/// The largest `moov` box read (its sample tables grow with the recording: about 8 bytes per
/// packet, so 64 MiB covers days of audio).
const MAX_MOOV: u64 = 64 << 20;

/// The children of a box's body: `(type, body)`, stopping at the first malformed header.
fn children(mut b: &[u8]) -> impl Iterator<Item = ([u8; 4], &[u8])> {
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

fn child<'a>(b: &'a [u8], kind: &[u8; 4]) -> Option<&'a [u8]> {
    children(b).find(|(k, _)| k == kind).map(|(_, body)| body)
}

fn be_u32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn be_u64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_be_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// The timescale of an `mvhd` or `mdhd` body (version 0: 32-bit times, 1: 64-bit).
fn timescale(b: &[u8]) -> Option<u32> {
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

/// The frames of silence at `rate` Hz that put the first audio track's first heard sample
/// where its edit list places it, given the `priming` frames the decoder drops; `None` when
/// the track has no leading empty edit (or the file cannot be read as MP4 boxes).
pub(super) fn audio_lead(r: &mut (impl Read + Seek), rate: u32, priming: u64) -> Option<u64> {
    let moov = read_moov(r)?;
    let movie_scale = timescale(child(&moov, b"mvhd")?)?;
    for (kind, trak) in children(&moov) {
        if &kind != b"trak" {
            continue;
        }
        let mdia = child(trak, b"mdia")?;
        if child(mdia, b"hdlr")?.get(8..12)? != b"soun" {
            continue;
        }
        let media_scale = timescale(child(mdia, b"mdhd")?)?;
        let list = edits(child(child(trak, b"edts")?, b"elst")?)?;
        let empty: u64 = list.iter().take_while(|(_, media)| *media == -1).map(|(d, _)| *d).sum();
        if empty == 0 {
            return None;
        }
        let media_start = list.iter().find(|(_, m)| *m >= 0).map_or(0, |(_, m)| *m as u64);
        let rate = u128::from(rate);
        let empty_frames =
            (u128::from(empty) * rate + u128::from(movie_scale) / 2) / u128::from(movie_scale);
        let skipped = u128::from(media_start) * rate / u128::from(media_scale);
        let lead = empty_frames + u128::from(priming).saturating_sub(skipped);
        return u64::try_from(lead).ok();
    }
    None
}

/// The body of the top-level `moov` box, found by reading box headers and seeking past the
/// others (a large `mdat` is never read).
fn read_moov(r: &mut (impl Read + Seek)) -> Option<Vec<u8>> {
    let mut at = 0u64;
    loop {
        r.seek(SeekFrom::Start(at)).ok()?;
        let mut h = [0u8; 16];
        r.read_exact(&mut h[..8]).ok()?;
        let size32 = u64::from(u32::from_be_bytes([h[0], h[1], h[2], h[3]]));
        let (size, header) = match size32 {
            // Up to the end of the file: only a last box is written so.
            0 => (r.seek(SeekFrom::End(0)).ok()?.checked_sub(at)?, 8),
            1 => {
                r.read_exact(&mut h[8..]).ok()?;
                (u64::from_be_bytes(h[8..16].try_into().ok()?), 16)
            }
            s => (s, 8),
        };
        if size < header {
            return None;
        }
        if &h[4..8] == b"moov" {
            let len = size - header;
            if len > MAX_MOOV {
                return None;
            }
            r.seek(SeekFrom::Start(at + header)).ok()?;
            let mut body = vec![0u8; len as usize];
            r.read_exact(&mut body).ok()?;
            return Some(body);
        }
        at = at.checked_add(size)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn boxed(kind: &[u8; 4], body: &[u8]) -> Vec<u8> {
        let mut b = ((body.len() + 8) as u32).to_be_bytes().to_vec();
        b.extend_from_slice(kind);
        b.extend_from_slice(body);
        b
    }

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
        let mut hdlr = vec![0u8; 8];
        hdlr.extend_from_slice(b"soun");
        hdlr.extend_from_slice(&[0; 12]);
        let mdia = [boxed(b"mdhd", &header(48_000)), boxed(b"hdlr", &hdlr)].concat();
        let trak = [boxed(b"edts", &boxed(b"elst", &elst)), boxed(b"mdia", &mdia)].concat();
        let moov = [boxed(b"mvhd", &header(1000)), boxed(b"trak", &trak)].concat();
        [boxed(b"ftyp", b"isom"), boxed(b"mdat", &[0; 100]), boxed(b"moov", &moov)].concat()
    }

    #[test]
    fn a_leading_empty_edit_is_silence_before_the_audio() {
        // 1.936 s empty, then the media from sample 0: 1.936 s + the 1024 frames of priming
        // the decoder drops, at 48 kHz.
        let f = file(&[(1936, -1), (45_000, 0)]);
        assert_eq!(audio_lead(&mut Cursor::new(f), 48_000, 1024), Some(92_928 + 1024));
        // The media edit skips the priming itself: the empty edit alone.
        let f = file(&[(1936, -1), (45_000, 1024)]);
        assert_eq!(audio_lead(&mut Cursor::new(f), 48_000, 1024), Some(92_928));
        // No empty edit: the audio starts at 0, as without an edit list.
        let f = file(&[(45_000, 1024)]);
        assert_eq!(audio_lead(&mut Cursor::new(f), 48_000, 1024), None);
    }

    #[test]
    fn broken_boxes_give_no_lead() {
        let mut f = file(&[(1936, -1), (45_000, 0)]);
        let n = f.len();
        f.truncate(n - 10);
        assert_eq!(audio_lead(&mut Cursor::new(f), 48_000, 1024), None);
        assert_eq!(audio_lead(&mut Cursor::new(b"RIFF\0\0\0\0WAVE".to_vec()), 48_000, 0), None);
        // An elst claiming more entries than it holds.
        let mut f = file(&[(1936, -1)]);
        let at = f.windows(4).position(|w| w == b"elst").unwrap() + 8;
        f[at..at + 4].copy_from_slice(&1000u32.to_be_bytes());
        assert_eq!(audio_lead(&mut Cursor::new(f), 48_000, 0), None);
    }
}
