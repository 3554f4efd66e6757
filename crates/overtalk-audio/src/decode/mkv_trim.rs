//! Matroska's `DiscardPadding`: the samples an encoder added at the end of a block (or, when
//! negative, at its start), which the decoder must drop (Matroska §5.1.3.5.3; WebM writes it on
//! the last Opus block, whose packet is padded to a whole 20 ms frame).
//!
//! symphonia's Matroska demuxer reads the element and drops it, so a WebM/Opus recording
//! decoded a packet's padding too long (13.5 ms on ffmpeg's 1 s test tone: 48 648 frames
//! instead of ffmpeg's 48 000). This module walks the file's clusters once, reading only
//! element headers and each block's first bytes, and lists, for one track, the blocks that
//! carry a `DiscardPadding`:
//!
//! ```text
//! Segment ─ Cluster ─ SimpleBlock (track, flags, lacing)      frames counted
//!         │         └ BlockGroup ─ Block (track, flags, lacing)
//!         │                      └ DiscardPadding (ns)         → a trim of one frame
//!         └ Cues, Tags, …                                       skipped by their size
//! ```
//!
//! The decoder counts the track's packets (one per frame of a laced block, as symphonia hands
//! them over) and trims the packet whose index is listed, wherever it lies in the stream (a
//! padded block mid-stream, where two encodings were joined, is trimmed as the last one is).
//! A positive `DiscardPadding` drops samples from the end of the block's last frame; a
//! negative one, from the start of its first frame, as ffmpeg's demuxer does (no encoder
//! known here writes one: the start of an Opus stream is its `OpusHead` pre-skip, the same as
//! the track's `CodecDelay`, which the decoder drops already).
//!
//! On a hostile file the walk stops (`None`: the demuxer's packets are kept as they are) at
//! the first header that does not fit its parent, and it lists at most [`MAX_TRIMS`] blocks.
//! Every element ends after its own header, so the walk only moves forward and ends at the
//! end of the file; its list is bounded whatever the file says.

use std::io::{Read, Seek, SeekFrom};

const SEGMENT: u32 = 0x1853_8067;
const CLUSTER: u32 = 0x1F43_B675;
const SIMPLE_BLOCK: u32 = 0xA3;
const BLOCK_GROUP: u32 = 0xA0;
const BLOCK: u32 = 0xA1;
const DISCARD_PADDING: u32 = 0x75A2;
const TRACKS: u32 = 0x1654_AE6B;
const TRACK_ENTRY: u32 = 0xAE;
const TRACK_NUMBER: u32 = 0xD7;
const CODEC_DELAY: u32 = 0x56AA;

/// An element's size that says "until the parent ends" (live streams' Segment and Cluster).
const UNKNOWN: u64 = u64::MAX;

/// The most padded blocks listed: a real file has one (the last block), or one per joined
/// encoding; a file with more is taken as malformed (`None`) rather than listed without end.
pub(super) const MAX_TRIMS: usize = 4096;

/// A block's `DiscardPadding` for the decoder: the index of the frame to trim among the track's
/// frames (laced frames counted one by one), how long to drop in nanoseconds, and from which
/// end of that frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Trim {
    pub frame: u64,
    pub nanos: u64,
    /// From the start of the block's first frame (a negative `DiscardPadding`); otherwise from
    /// the end of its last frame.
    pub at_start: bool,
}

/// The blocks of track `track` (its Matroska track number) with a non-zero `DiscardPadding`,
/// in file order. `None` when the file's structure cannot be walked or lists more than
/// [`MAX_TRIMS`] (the caller then keeps what the demuxer gives); an empty list when no block
/// has padding.
pub(super) fn discard_paddings(r: &mut (impl Read + Seek), track: u64) -> Option<Vec<Trim>> {
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
                    // The child's header and data both lie within the group.
                    let head_len = body.checked_sub(start)?;
                    if head_len > left || csize == UNKNOWN || csize > left - head_len {
                        return None;
                    }
                    match cid {
                        BLOCK => head = block_head(r, csize)?,
                        DISCARD_PADDING if csize <= 8 => padding = signed(r, csize)?,
                        _ => skip(r, csize)?,
                    }
                    left -= head_len + csize;
                }
                if let Some((_, n)) = head.filter(|&(t, _)| t == track) {
                    if padding != 0 {
                        if out.len() == MAX_TRIMS {
                            return None;
                        }
                        out.push(Trim {
                            frame: if padding > 0 { frames + n - 1 } else { frames },
                            nanos: padding.unsigned_abs(),
                            at_start: padding < 0,
                        });
                    }
                    frames += n;
                }
            }
            _ if size == UNKNOWN => return None,
            _ => skip(r, size)?,
        }
    }
    Some(out)
}

/// Track `track`'s `CodecDelay` in nanoseconds (Matroska §5.1.4.1.19: the codec's built-in
/// delay, the priming an encoder put before the first sample, which the player drops), read
/// from the Segment's `Tracks` before the first Cluster. `None` when the track declares none
/// (or 0), is not listed, or the header cannot be walked.
///
/// symphonia subtracts the delay from the packets' timestamps (rounded to the track's
/// millisecond ticks), and its AAC decoder keeps the priming, so for AAC the decoder drops
/// exactly this many frames, as ffmpeg does (its matroska muxer writes the element for AAC
/// since 6.1, 1024 frames). The walk reads only element headers and the two small integers,
/// moves forward only and stops at the first Cluster, the end of `Tracks` or the first header
/// that does not fit its parent.
pub(super) fn codec_delay(r: &mut (impl Read + Seek), track: u64) -> Option<u64> {
    r.seek(SeekFrom::Start(0)).ok()?;
    let mut in_segment = false;
    while let Some((id, size)) = header(r)? {
        match id {
            SEGMENT if !in_segment => in_segment = true,
            TRACKS if in_segment && size != UNKNOWN => {
                let mut left = size;
                while left > 0 {
                    let (eid, esize, elen) = child(r, left)?;
                    if eid == TRACK_ENTRY {
                        let (mut number, mut delay) = (None, 0);
                        let mut eleft = esize;
                        while eleft > 0 {
                            let (cid, csize, clen) = child(r, eleft)?;
                            match cid {
                                TRACK_NUMBER if csize <= 8 => number = Some(unsigned(r, csize)?),
                                CODEC_DELAY if csize <= 8 => delay = unsigned(r, csize)?,
                                _ => skip(r, csize)?,
                            }
                            eleft -= clen + csize;
                        }
                        if number == Some(track) {
                            return (delay > 0).then_some(delay);
                        }
                    } else {
                        skip(r, esize)?;
                    }
                    left -= elen + esize;
                }
                return None;
            }
            CLUSTER => return None,
            _ if size == UNKNOWN => return None,
            _ => skip(r, size)?,
        }
    }
    None
}

/// The next child of a parent with `left` bytes to go: its ID, data size and header length,
/// `None` when the header or the data would overrun the parent (or the size is unknown).
fn child(r: &mut (impl Read + Seek), left: u64) -> Option<(u32, u64, u64)> {
    let start = r.stream_position().ok()?;
    let (id, size) = header(r)??;
    let len = r.stream_position().ok()?.checked_sub(start)?;
    if len > left || size == UNKNOWN || size > left - len {
        return None;
    }
    Some((id, size, len))
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

/// Skips `n` bytes: a short distance (a block's body) is read through, so a buffered reader
/// keeps its buffer (a seek empties it, and every block would read the file's next 8 KiB
/// again); a long one is a seek.
fn skip(r: &mut (impl Read + Seek), n: u64) -> Option<()> {
    if n <= SKIP_BY_READING {
        let got = std::io::copy(&mut r.by_ref().take(n), &mut std::io::sink()).ok()?;
        if got < n {
            // The file ends inside the element: the walk ends at the next header.
            return Some(());
        }
    } else {
        r.seek(SeekFrom::Current(i64::try_from(n).ok()?)).ok()?;
    }
    Some(())
}

/// The longest skip read through rather than sought (see [`skip`]).
const SKIP_BY_READING: u64 = 4096;

/// A big-endian unsigned integer of `n` bytes (at most 8; 0 bytes is 0).
fn unsigned(r: &mut impl Read, n: u64) -> Option<u64> {
    let mut v = 0u64;
    for _ in 0..n {
        v = (v << 8) | u64::from(byte(r)?);
    }
    Some(v)
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

/// A block's track number and frame count (1, or its lace count), the reader left at the end
/// of its `size` bytes; `Some(None)` for a block too short to hold its header (the demuxer
/// hands over no frame for it).
fn block_head(r: &mut (impl Read + Seek), size: u64) -> Option<Option<(u64, u64)>> {
    let start = r.stream_position().ok()?;
    let end = start.checked_add(size)?;
    let head = (|| {
        let track = vint(r)?;
        let mut rest = [0u8; 3];
        r.read_exact(&mut rest).ok()?;
        // Timecode (2 bytes), flags: bits 1–2 the lacing.
        let laced = rest[2] & 0x06 != 0;
        let frames = if laced { u64::from(byte(r)?) + 1 } else { 1 };
        Some((track, frames))
    })();
    let read = r.stream_position().ok()?.checked_sub(start)?;
    if read <= size {
        skip(r, size - read)?;
    } else {
        r.seek(SeekFrom::Start(end)).ok()?;
    }
    Some(head.filter(|_| read <= size))
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
        // A negative padding (1 ns): from the start of the next block.
        cluster.extend(group(1, &[0xFF]));
        // Both known and unknown sizes for the Segment and the Cluster.
        for unknown in [false, true] {
            let mut file = el(&[0x1A, 0x45, 0xDF, 0xA3], &[0x42, 0x86, 0x81, 0x01], false);
            let mut segment = el(&[0x1F, 0x43, 0xB6, 0x75], &cluster, unknown);
            segment.extend(el(&[0x1C, 0x53, 0xBB, 0x6B], &[0; 4], false));
            file.extend(el(&[0x18, 0x53, 0x80, 0x67], &segment, unknown));
            let mut r = Cursor::new(file);
            let end = |frame, nanos| Trim { frame, nanos, at_start: false };
            assert_eq!(
                discard_paddings(&mut r, 1),
                Some(vec![end(4, 13_500_000), Trim { frame: 5, nanos: 1, at_start: true }])
            );
            assert_eq!(discard_paddings(&mut r, 2), Some(vec![end(1, 16)]));
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

    /// A Segment and a Cluster of unknown size holding `blocks`.
    fn file(blocks: &[Vec<u8>]) -> Vec<u8> {
        let mut f = el(&[0x18, 0x53, 0x80, 0x67], &[], true);
        f.extend(el(&[0x1F, 0x43, 0xB6, 0x75], &[], true));
        blocks.iter().for_each(|b| f.extend_from_slice(b));
        f
    }

    #[test]
    fn a_padded_block_mid_stream_is_trimmed_where_it_lies() {
        // Two encodings joined: the first one's last block is padded, then the second one's.
        let f = file(&[
            simple(1, None),
            group(1, &[0x10]),
            simple(1, Some(1)),
            group(1, &[0x20]),
            simple(1, None),
        ]);
        let end = |frame, nanos| Trim { frame, nanos, at_start: false };
        assert_eq!(discard_paddings(&mut Cursor::new(f), 1), Some(vec![end(1, 16), end(4, 32)]));
    }

    #[test]
    fn a_child_whose_header_overruns_its_group_is_none_not_a_panic() {
        // A BlockGroup of 1 byte whose first child's header takes 2 (ID 0xEC, size 0).
        let f = file(&[vec![0xA0, 0x81, 0xEC, 0x80]]);
        assert_eq!(discard_paddings(&mut Cursor::new(f), 1), None);
        // A block shorter than its own header is skipped by its size, not read past it.
        let short = el(&[0xA3], &[0x81, 0], false);
        let f = file(&[short, simple(1, None), group(1, &[0x10])]);
        let trim = Trim { frame: 1, nanos: 16, at_start: false };
        assert_eq!(discard_paddings(&mut Cursor::new(f), 1), Some(vec![trim]));
    }

    #[test]
    fn a_file_of_padded_blocks_is_not_listed_without_end() {
        let blocks = vec![group(1, &[0x10]); MAX_TRIMS];
        let listed = discard_paddings(&mut Cursor::new(file(&blocks)), 1).unwrap();
        assert_eq!(listed.len(), MAX_TRIMS);
        let blocks = vec![group(1, &[0x10]); MAX_TRIMS + 1];
        assert_eq!(discard_paddings(&mut Cursor::new(file(&blocks)), 1), None);
    }

    /// A Segment of known size holding Info, then Tracks of two entries (track 1 without a
    /// delay, track 2 with `delay` as a 4-byte `CodecDelay` after its number), then a Cluster.
    fn with_tracks(delay: &[u8]) -> Vec<u8> {
        let mut one = el(&[0xD7], &[1], false);
        one.extend(el(&[0x86], b"V_VP8", false));
        let mut two = el(&[0xD7], &[2], false);
        two.extend(el(&[0x56, 0xAA], delay, false));
        two.extend(el(&[0x86], b"A_AAC", false));
        let mut tracks = el(&[0xAE], &one, false);
        tracks.extend(el(&[0xAE], &two, false));
        let mut seg =
            el(&[0x15, 0x49, 0xA9, 0x66], &[0x2A, 0xD7, 0xB1, 0x83, 0x0F, 0x42, 0x40], false);
        seg.extend(el(&[0x16, 0x54, 0xAE, 0x6B], &tracks, false));
        seg.extend(el(&[0x1F, 0x43, 0xB6, 0x75], &simple(2, None), false));
        el(&[0x18, 0x53, 0x80, 0x67], &seg, false)
    }

    #[test]
    fn a_tracks_codec_delay_is_read_from_its_entry() {
        // 1024 frames at 44.1 kHz: 23 219 955 ns = 0x01 0x62 0x4E 0xF3.
        let f = with_tracks(&[0x01, 0x62, 0x4E, 0xF3]);
        assert_eq!(codec_delay(&mut Cursor::new(f.clone()), 2), Some(23_219_955));
        assert_eq!(codec_delay(&mut Cursor::new(f.clone()), 1), None);
        assert_eq!(codec_delay(&mut Cursor::new(f), 3), None);
        // A delay of 0 declares none.
        assert_eq!(codec_delay(&mut Cursor::new(with_tracks(&[0])), 2), None);
        // Tracks after the first Cluster are not looked for.
        let mut late = file(&[simple(2, None)]);
        late.extend(el(&[0x16, 0x54, 0xAE, 0x6B], &el(&[0xAE], &[0xD7, 0x81, 2], false), false));
        assert_eq!(codec_delay(&mut Cursor::new(late), 2), None);
    }

    #[test]
    fn every_byte_of_a_track_list_changed_is_walked_without_a_panic_or_a_hang() {
        let whole = with_tracks(&[0x01, 0x62, 0x4E, 0xF3]);
        let mut found = 0;
        for i in 0..whole.len() {
            for v in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                let mut f = whole.clone();
                f[i] = v;
                found += usize::from(codec_delay(&mut Cursor::new(f), 2).is_some());
            }
            let _ = codec_delay(&mut Cursor::new(whole[..i].to_vec()), 2);
        }
        // Most changes leave the delay readable (the bytes of other elements' data).
        assert!(found > whole.len(), "{found} of {}", whole.len() * 5);
    }

    #[test]
    fn every_byte_of_a_file_changed_is_walked_without_a_panic_or_a_hang() {
        let whole = file(&[
            simple(1, Some(3)),
            group(1, &[0x00, 0xCD, 0xFE, 0x60]),
            group(1, &[0xFF]),
            simple(2, None),
        ]);
        let mut walked = 0;
        for i in 0..whole.len() {
            for v in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                let mut f = whole.clone();
                f[i] = v;
                if let Some(list) = discard_paddings(&mut Cursor::new(f), 1) {
                    assert!(list.len() <= 2, "byte {i} = {v:#x}: {list:?}");
                }
                walked += 1;
            }
        }
        assert_eq!(walked, whole.len() * 5);
    }
}
