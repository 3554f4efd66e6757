//! Matroska's `DiscardPadding`: the samples an encoder added at the end of a block, which the
//! decoder must drop (Matroska §5.1.3.5.3; WebM writes it on the last Opus block, whose packet
//! is padded to a whole 20 ms frame).
//!
//! symphonia's Matroska demuxer reads the element and drops it, so a WebM/Opus recording
//! decoded a packet's padding too long (13.5 ms on ffmpeg's 1 s test tone: 48 648 frames
//! instead of ffmpeg's 48 000). This module walks the file's clusters once, reading only
//! element headers and each block's first bytes, and lists, for one track, the blocks that
//! carry a positive `DiscardPadding`:
//!
//! ```text
//! Segment ─ Cluster ─ SimpleBlock (track, flags, lacing)      frames counted
//!         │         └ BlockGroup ─ Block (track, flags, lacing)
//!         │                      └ DiscardPadding (ns)         → (last frame's index, ns)
//!         └ Cues, Tags, …                                       skipped by their size
//! ```
//!
//! The decoder counts the track's packets (one per frame of a laced block, as symphonia hands
//! them over) and trims the packet whose index is listed. A negative `DiscardPadding` (samples
//! to drop at the start of a block) is not written by any encoder known here and is ignored;
//! the start of an Opus stream is its `OpusHead` pre-skip (the same as the track's
//! `CodecDelay`), which the decoder drops already.

use std::io::{Read, Seek, SeekFrom};

const SEGMENT: u32 = 0x1853_8067;
const CLUSTER: u32 = 0x1F43_B675;
const SIMPLE_BLOCK: u32 = 0xA3;
const BLOCK_GROUP: u32 = 0xA0;
const BLOCK: u32 = 0xA1;
const DISCARD_PADDING: u32 = 0x75A2;

/// An element's size that says "until the parent ends" (live streams' Segment and Cluster).
const UNKNOWN: u64 = u64::MAX;

/// The blocks of track `track` (its Matroska track number) with a positive `DiscardPadding`,
/// in file order: the index of the block's last frame among the track's frames (laced frames
/// counted one by one) and the padding in nanoseconds. `None` when the file's structure cannot
/// be walked (the caller then keeps what the demuxer gives); an empty list when no block has
/// padding.
pub(super) fn discard_paddings(r: &mut (impl Read + Seek), track: u64) -> Option<Vec<(u64, u64)>> {
    r.seek(SeekFrom::Start(0)).ok()?;
    let mut out = Vec::new();
    let mut frames = 0u64;
    let mut in_segment = false;
    // A flat walk: the Segment and its Clusters are entered (their children's IDs do not
    // collide with their siblings'), every other element is skipped by its size, so a
    // Cluster of unknown size ends where the next element that is not its child begins.
    while let Some((id, size)) = header(r)? {
        match id {
            SEGMENT if !in_segment => in_segment = true,
            CLUSTER if in_segment => {}
            SIMPLE_BLOCK if in_segment && size != UNKNOWN => {
                if let Some((t, n)) = block_head(r, size)? {
                    if t == track {
                        frames += n;
                    }
                }
            }
            BLOCK_GROUP if in_segment && size != UNKNOWN => {
                let (mut head, mut padding) = (None, 0i64);
                let mut left = size;
                while left > 0 {
                    let start = r.stream_position().ok()?;
                    let (cid, csize) = header(r)??;
                    let body = r.stream_position().ok()?;
                    if csize == UNKNOWN || csize > left.saturating_sub(body - start) {
                        return None;
                    }
                    match cid {
                        BLOCK => head = block_head(r, csize)?,
                        DISCARD_PADDING if csize <= 8 => padding = signed(r, csize)?,
                        _ => skip(r, csize)?,
                    }
                    left -= body - start + csize;
                }
                if let Some((_, n)) = head.filter(|&(t, _)| t == track) {
                    frames += n;
                    if padding > 0 {
                        out.push((frames - 1, padding.unsigned_abs()));
                    }
                }
            }
            _ if size == UNKNOWN => return None,
            _ => skip(r, size)?,
        }
    }
    Some(out)
}

/// The next element's ID and data size; `Some(None)` at the end of the file, `None` on a
/// malformed header.
fn header(r: &mut impl Read) -> Option<Option<(u32, u64)>> {
    let mut first = [0u8; 1];
    match r.read(&mut first) {
        Ok(0) => return Some(None),
        Ok(_) => {}
        Err(_) => return None,
    }
    let id_len = first[0].leading_zeros() as usize + 1;
    if id_len > 4 {
        return None;
    }
    let mut id = u32::from(first[0]);
    for _ in 1..id_len {
        id = (id << 8) | u32::from(byte(r)?);
    }
    let size = vint(r)?;
    Some(Some((id, size)))
}

/// A variable-length integer with its length marker removed; all ones is [`UNKNOWN`].
fn vint(r: &mut impl Read) -> Option<u64> {
    let first = byte(r)?;
    let len = first.leading_zeros() as usize + 1;
    if len > 8 {
        return None;
    }
    let mut v = u64::from(first) & (0xFF >> len);
    let mut all_ones = v == 0xFF >> len;
    for _ in 1..len {
        let b = byte(r)?;
        all_ones &= b == 0xFF;
        v = (v << 8) | u64::from(b);
    }
    Some(if all_ones { UNKNOWN } else { v })
}

fn byte(r: &mut impl Read) -> Option<u8> {
    let mut b = [0u8; 1];
    r.read_exact(&mut b).ok()?;
    Some(b[0])
}

fn skip(r: &mut impl Seek, n: u64) -> Option<()> {
    r.seek(SeekFrom::Current(i64::try_from(n).ok()?)).ok()?;
    Some(())
}

/// A big-endian signed integer of `n` bytes (at most 8; 0 bytes is 0).
fn signed(r: &mut impl Read, n: u64) -> Option<i64> {
    let mut v = 0i64;
    for i in 0..n {
        let b = byte(r)?;
        v = if i == 0 { i64::from(b as i8) } else { (v << 8) | i64::from(b) };
    }
    Some(v)
}

/// A block's track number and frame count (1, or its lace count), the rest of its `size`
/// bytes skipped; `Some(None)` for a block too short to hold its header.
fn block_head(r: &mut (impl Read + Seek), size: u64) -> Option<Option<(u64, u64)>> {
    let start = r.stream_position().ok()?;
    let track = vint(r)?;
    let mut rest = [0u8; 3];
    r.read_exact(&mut rest).ok()?;
    // Timecode (2 bytes), flags: bits 1–2 the lacing.
    let laced = rest[2] & 0x06 != 0;
    let frames = if laced { u64::from(byte(r)?) + 1 } else { 1 };
    let read = r.stream_position().ok()? - start;
    if read > size {
        return Some(None);
    }
    skip(r, size - read)?;
    Some(Some((track, frames)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// An element: ID bytes, a one-byte size (or the 8-byte unknown size), data.
    fn el(id: &[u8], data: &[u8], unknown: bool) -> Vec<u8> {
        let mut v = id.to_vec();
        if unknown {
            v.extend_from_slice(&[0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]);
        } else {
            v.push(0x80 | u8::try_from(data.len()).unwrap_or(0x7F));
        }
        v.extend_from_slice(data);
        v
    }

    fn simple(track: u8, laced: Option<u8>) -> Vec<u8> {
        let mut d = vec![0x80 | track, 0, 0, if laced.is_some() { 0x82 } else { 0x80 }];
        d.extend(laced);
        d.extend_from_slice(&[1, 2, 3]);
        el(&[0xA3], &d, false)
    }

    fn group(track: u8, padding: &[u8]) -> Vec<u8> {
        let block = el(&[0xA1], &[0x80 | track, 0, 0, 0, 9, 9], false);
        let mut g = block;
        g.extend(el(&[0x75, 0xA2], padding, false));
        el(&[0xA0], &g, false)
    }

    #[test]
    fn the_padded_blocks_of_one_track_are_found_by_their_frame_index() {
        // Track 1: a block, a lace of 3, a padded group; track 2 in between, padded too.
        let mut cluster = el(&[0xE7], &[0], false);
        cluster.extend(simple(1, None));
        cluster.extend(simple(2, None));
        cluster.extend(simple(1, Some(2)));
        cluster.extend(group(2, &[0x10]));
        // 13.5 ms: 13 500 000 ns = 0xCD 0xFE 0x60.
        cluster.extend(group(1, &[0x00, 0xCD, 0xFE, 0x60]));
        // A negative padding (start of the block) is not an end trim.
        cluster.extend(group(1, &[0xFF]));
        // Both known and unknown sizes for the Segment and the Cluster.
        for unknown in [false, true] {
            let mut file = el(&[0x1A, 0x45, 0xDF, 0xA3], &[0x42, 0x86, 0x81, 0x01], false);
            let mut segment = el(&[0x1F, 0x43, 0xB6, 0x75], &cluster, unknown);
            segment.extend(el(&[0x1C, 0x53, 0xBB, 0x6B], &[0; 4], false));
            file.extend(el(&[0x18, 0x53, 0x80, 0x67], &segment, unknown));
            let mut r = Cursor::new(file);
            assert_eq!(discard_paddings(&mut r, 1), Some(vec![(4, 13_500_000)]));
            assert_eq!(discard_paddings(&mut r, 2), Some(vec![(1, 16)]));
            assert_eq!(discard_paddings(&mut r, 3), Some(vec![]));
        }
    }

    #[test]
    fn a_malformed_or_cut_file_is_none_not_a_panic() {
        let mut group = group(1, &[0x10]);
        let mut file = el(&[0x18, 0x53, 0x80, 0x67], &[], true);
        file.extend(el(&[0x1F, 0x43, 0xB6, 0x75], &[], true));
        // A child claims more than its group holds.
        group[1] = 0x82;
        file.extend(group);
        assert_eq!(discard_paddings(&mut Cursor::new(file.clone()), 1), None);
        // An ID longer than 4 bytes.
        assert_eq!(discard_paddings(&mut Cursor::new(vec![0x08, 0, 0, 0, 0]), 1), None);
        // Every prefix of a valid file: a list or None, never a panic.
        let whole = {
            let mut f = el(&[0x18, 0x53, 0x80, 0x67], &[], true);
            f.extend(el(&[0x1F, 0x43, 0xB6, 0x75], &[], true));
            f.extend(simple(1, Some(4)));
            f
        };
        for n in 0..whole.len() {
            let _ = discard_paddings(&mut Cursor::new(whole[..n].to_vec()), 1);
        }
        assert_eq!(discard_paddings(&mut Cursor::new(whole), 1), Some(vec![]));
    }
}
