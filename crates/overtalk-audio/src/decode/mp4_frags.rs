//! The layout of an MP4/MOV file's top-level boxes: where a file cut short ends (which box runs
//! past its last byte), and how long the audio of a fragmented file is.
//!
//! A fragmented MP4 (`ffmpeg -movflags frag_keyframe+empty_moov` or `+dash`, OBS's
//! "fragmented MP4/MOV", a browser's MediaRecorder, DASH/CMAF segments joined after their
//! initialisation segment) has an index (`moov`) that lists no samples and declares no length:
//! each fragment's own index (`moof`) lists the samples of the `mdat` after it.
//!
//! ```text
//! [ftyp][moov: tracks, mvex (no samples)][moof][mdat][moof][mdat] … [mfra]
//!                                         └ traf ─ tfhd (track, default duration)
//!                                                  trun (samples: durations, sizes)
//! ```
//!
//! The audio track's length is the sum of its samples' durations over every fragment (ISO/IEC
//! 14496-12 §8.8), read here from the `moof` boxes alone (each `mdat` is skipped by its size).
//! symphonia reads the fragments' samples, but takes the track's length from the empty index
//! (0) or from the first segment index (`sidx`), which covers only the first of several joined
//! segments.
//!
//! A fragment may also say where its first sample is decoded on the track's timeline (`tfdt`,
//! §8.8.12). symphonia ignores it; a recorder that dropped audio between two fragments writes
//! the drop there alone, so the jumps of `tfdt` against the durations before it are read here
//! ([`Fragments::jumps`]), for the decoder to place the packets after them.
//!
//! ```text
//! fragment        [moof tfdt 0, 40 × 1024][moof tfdt 40 960, 40 × 1024][moof tfdt 130 000 …]
//! durations say    0 ─────────── 40 960 ─────────────── 81 920 ──────▶
//! tfdt says        0 ─────────── 40 960 ─────────────── 81 920   (jump of 48 080) 130 000 ──▶
//! ```

use std::io::{Read, Seek, SeekFrom};

use super::mp4_edits::{
    self, be_u32, be_u64, child, children, read_moov, timescale, tkhd_track, Overrun, TopBox,
    MAX_MOOV,
};

/// Where a file that is cut short ends, among its top-level boxes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Cut {
    /// The file's length in bytes.
    pub len: u64,
    /// Where the box starts.
    pub at: u64,
    /// Where in (or after) that box the file ends.
    pub place: Place,
}

/// Where in a box a file ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// Inside the box of this type and declared size.
    Inside([u8; 4], u64),
    /// Inside the box's header (its size and type).
    Header,
    /// Right after a whole `moof` box (a fragment's index), before the `mdat` it indexes.
    AfterMoof,
    /// At the end of a whole box, before any box of this type (`moov`, `mdat`, or `moof` for
    /// a fragmented file's first fragment); `at` is the file's length.
    Before([u8; 4]),
}

impl Cut {
    /// The type of the box the file ends inside, when its header is whole.
    pub fn kind(&self) -> Option<&[u8; 4]> {
        match &self.place {
            Place::Inside(kind, _) => Some(kind),
            _ => None,
        }
    }

    /// Where the file ends, as a clause: "it ends after 400 bytes, inside its moov box (the
    /// index, 681 bytes from byte 32)".
    pub fn describe(&self) -> String {
        let at = self.at;
        let len = match self.len {
            1 => "1 byte".to_owned(),
            n => format!("{n} bytes"),
        };
        let what = |kind: &[u8; 4]| match kind {
            b"ftyp" => "the file type",
            b"moov" => "the index",
            b"moof" => "a fragment's index",
            b"mdat" => "the audio and video data",
            _ => "",
        };
        // A damaged file's box type may be any bytes: shown escaped (`\x00`), not raw.
        let name = |kind: &[u8; 4]| kind.escape_ascii().to_string();
        match &self.place {
            Place::Header => {
                format!("it ends after {len}, inside the header of the box at byte {at}")
            }
            Place::Inside(kind, size) => {
                let what = match what(kind) {
                    "" => String::new(),
                    w => format!("{w}, "),
                };
                format!(
                    "it ends after {len}, inside its {} box ({what}{size} bytes from byte \
                     {at})",
                    name(kind)
                )
            }
            Place::AfterMoof => format!(
                "it ends after {len}, right after a fragment's index (its moof box at byte \
                 {at})"
            ),
            Place::Before(kind) => {
                let what = match kind {
                    b"moof" => "its first fragment",
                    b"moov" => "its index",
                    _ => "its audio and video data",
                };
                format!("it ends after {len}, before {what} ({} box)", name(kind))
            }
        }
    }
}

/// The most top-level boxes read: a day of fragments of one AAC packet each is 8 million
/// (a `moof` and an `mdat` per packet at 48 kHz); a file of more is not walked to its end.
const MAX_BOXES: usize = 1 << 24;

/// The top-level box at `at` of a file `len` bytes long ([`mp4_edits::top_box`]), a box that
/// runs past the end as the [`Cut`] it makes.
fn top_box(r: &mut (impl Read + Seek), at: u64, len: u64) -> Option<Result<TopBox, Cut>> {
    Some(mp4_edits::top_box(r, at, len)?.map_err(|overrun| Cut {
        len,
        at,
        place: match overrun {
            Overrun::Header => Place::Header,
            Overrun::Inside(kind, size) => Place::Inside(kind, size),
        },
    }))
}

/// What the top-level boxes of an MP4-family file show about where it ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Layout {
    /// The file's length in bytes.
    pub len: u64,
    /// A whole `moov` box (the index) comes before the end, or before the cut.
    pub index: bool,
    /// A whole box of media data (`mdat`, or a fragment's `moof`) comes before the end, or
    /// before the cut.
    pub media: bool,
    /// The first box that runs past the end, or whose header is cut; `None` when every box
    /// fits.
    pub cut: Option<Cut>,
    /// The boxes were read up to one whose size is smaller than its header, before the end:
    /// the file is damaged there, not cut, and what follows is not known.
    pub malformed: bool,
}

/// The top-level boxes of an MP4-family file, read header by header up to the first that runs
/// past its end.
pub(super) fn layout(r: &mut (impl Read + Seek)) -> Option<Layout> {
    let len = r.seek(SeekFrom::End(0)).ok()?;
    let mut out = Layout { len, index: false, media: false, cut: None, malformed: false };
    let mut at = 0;
    for _ in 0..MAX_BOXES {
        match top_box(r, at, len) {
            None => {
                out.malformed = at < len;
                break;
            }
            Some(Ok(b)) => {
                out.index |= &b.kind == b"moov";
                out.media |= &b.kind == b"mdat" || &b.kind == b"moof";
                at = b.at + b.size;
            }
            Some(Err(cut)) => {
                out.cut = Some(cut);
                break;
            }
        }
    }
    Some(out)
}

/// What the fragments of a fragmented MP4 say about one track.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Fragments {
    /// Frames (at the decoder's rate) of the track's samples, summed over every whole `moof`.
    pub frames: u64,
    /// The movie's length its `mehd` box declares, in frames, when it has one.
    pub declared: Option<u64>,
    /// Whole `moof` boxes read.
    pub fragments: u64,
    /// The file ends with a fragment random access box (`mfra`), written after the last
    /// fragment: the fragments are all there.
    pub mfra: bool,
    /// Where the file ends inside a fragment: a `moof`, `mdat` or other box of a fragment
    /// that runs past its end, a header cut short after the fragments, or a last `moof`
    /// without the `mdat` it indexes.
    pub cut: Option<Cut>,
    /// Where a fragment's decode time (`tfdt`) is not where the samples before it end: the
    /// index of its first sample among the track's samples (those the index lists counted),
    /// and the jump in media ticks (negative: the timeline goes back). The first fragment's
    /// time is the origin, unless the index lists samples before it. At most [`MAX_JUMPS`].
    pub jumps: Vec<(u64, i64)>,
}

/// The most jumps of the fragments' decode times kept: a file with more is damaged, and the
/// rest of its fragments keep the durations' placement.
pub(super) const MAX_JUMPS: usize = 1 << 16;

/// The samples of track `track_id` in a fragmented MP4 (one whose `moov` has an `mvex`), in
/// frames at `rate` Hz. `None` when the file is not fragmented or its boxes cannot be read
/// (the caller then keeps what symphonia says).
pub(super) fn fragments(r: &mut (impl Read + Seek), track_id: u32, rate: u32) -> Option<Fragments> {
    let moov = read_moov(r)?;
    let mvex = child(&moov, b"mvex")?;
    let trak = children(&moov)
        .filter(|(k, _)| k == b"trak")
        .map(|(_, t)| t)
        .find(|t| child(t, b"tkhd").and_then(tkhd_track) == Some(track_id))?;
    let mdia = child(trak, b"mdia")?;
    let media_scale = u128::from(timescale(child(mdia, b"mdhd")?)?);
    // The samples the index lists itself, before the first fragment (`-movflags
    // frag_keyframe` without `empty_moov`): usually none.
    let stts = child(child(child(mdia, b"minf")?, b"stbl")?, b"stts")?;
    let (listed_samples, listed) = stts_duration(stts)?;
    let mut ticks = listed;
    // The track's samples so far, and where the next fragment's samples should be decoded
    // (`None` before the first fragment of a track whose index lists no samples: its time is
    // the origin).
    let mut samples = listed_samples;
    let mut expected = (listed_samples > 0).then_some(listed);
    let mut jumps = Vec::new();
    let mut origin = None::<u64>;
    // The track's default sample duration, when a fragment's header does not set one.
    let trex_duration = children(mvex)
        .filter(|(k, _)| k == b"trex")
        .find(|(_, t)| be_u32(t, 4) == Some(track_id))
        .and_then(|(_, t)| be_u32(t, 12))
        .unwrap_or(0);
    let rate = u128::from(rate);
    let to_frames = |t: u128, scale: u128| u64::try_from((t * rate + scale / 2) / scale).ok();
    let declared = match (child(mvex, b"mehd"), child(&moov, b"mvhd").and_then(timescale)) {
        (Some(mehd), Some(movie_scale)) => {
            let d = if mehd.first() == Some(&1) {
                be_u64(mehd, 4)
            } else {
                be_u32(mehd, 4).map(u64::from)
            };
            d.filter(|&d| d > 0).and_then(|d| to_frames(u128::from(d), u128::from(movie_scale)))
        }
        _ => None,
    };
    let len = r.seek(SeekFrom::End(0)).ok()?;
    let mut out =
        Fragments { frames: 0, declared, fragments: 0, mfra: false, cut: None, jumps: Vec::new() };
    let (mut at, mut boxes) = (0, 0);
    loop {
        boxes += 1;
        if boxes > MAX_BOXES {
            return None;
        }
        let b = match top_box(r, at, len) {
            None => break,
            Some(Ok(b)) => b,
            Some(Err(cut)) => {
                // A box written after the last fragment (`mfra`, `free`, `udta`), cut short,
                // holds no audio; any other (a `moof`, its `mdat`, the `styp` and `sidx` that
                // start a joined segment, a header) is a fragment cut short.
                if !matches!(cut.kind(), Some(b"mfra" | b"free" | b"skip" | b"udta" | b"meta")) {
                    out.cut = Some(cut);
                }
                break;
            }
        };
        at = b.at + b.size;
        out.mfra = &b.kind == b"mfra";
        // A `moof` without its data: the file ends between the two.
        out.cut = (&b.kind == b"moof" && at == len).then_some(Cut {
            len,
            at: b.at,
            place: Place::AfterMoof,
        });
        if &b.kind != b"moof" {
            continue;
        }
        let body_len = b.size - b.header;
        if body_len > MAX_MOOV {
            return None;
        }
        let mut body = vec![0u8; usize::try_from(body_len).ok()?];
        r.seek(SeekFrom::Start(b.at + b.header)).ok()?;
        r.read_exact(&mut body).ok()?;
        for (kind, traf) in children(&body) {
            if &kind != b"traf" || child(traf, b"tfhd").and_then(|t| be_u32(t, 4)) != Some(track_id)
            {
                continue;
            }
            let (count, duration) = traf_duration(traf, trex_duration)?;
            let time = child(traf, b"tfdt").and_then(decode_time);
            if let (Some(time), Some(at)) = (time, expected) {
                // A jump beyond what a timestamp counts is a damaged time, not a drop.
                let jump = i64::try_from(i128::from(time) - i128::from(at)).unwrap_or(0);
                if jump != 0 && jumps.len() < MAX_JUMPS {
                    jumps.push((samples, jump));
                }
            }
            // A fragment without a decode time follows the one before it.
            let start = time.or(expected).unwrap_or(ticks);
            // The timeline's origin: the first fragment's start less the samples before it.
            origin.get_or_insert(start.saturating_sub(ticks));
            expected = Some(start.saturating_add(duration));
            ticks = ticks.checked_add(duration)?;
            samples = samples.checked_add(count)?;
        }
        out.fragments += 1;
    }
    if out.fragments == 0 && listed == 0 && !out.mfra && out.cut.is_none() {
        // An index listing no samples and nothing after it, not even the closing `mfra`: the
        // recording stopped (or the file was cut) before its first fragment.
        out.cut = Some(Cut { len, at: len, place: Place::Before(*b"moof") });
    }
    // The samples' durations, or further when the decode times jumped ahead in all (the end
    // of the last fragment on their timeline, from the origin); a damaged time too far ahead
    // to count in frames leaves the durations.
    let on_timeline = expected.unwrap_or(0).saturating_sub(origin.unwrap_or(0));
    out.frames = to_frames(u128::from(on_timeline.max(ticks)), media_scale)
        .or_else(|| to_frames(u128::from(ticks), media_scale))?;
    out.jumps = jumps;
    Some(out)
}

/// The decode time of a `tfdt` body (version 1: 64-bit, 0: 32-bit), in media ticks.
fn decode_time(b: &[u8]) -> Option<u64> {
    if *b.first()? == 1 {
        be_u64(b, 4)
    } else {
        be_u32(b, 4).map(u64::from)
    }
}

/// The samples a `stts` body lists and their summed durations (sample count × sample delta),
/// in the media timescale. `None` when it is malformed.
fn stts_duration(b: &[u8]) -> Option<(u64, u64)> {
    let count = be_u32(b, 4)? as usize;
    if count > b.len().saturating_sub(8) / 8 {
        return None;
    }
    (0..count).try_fold((0u64, 0u64), |(samples, total), i| {
        let n = u64::from(be_u32(b, 8 + i * 8)?);
        Some((samples.checked_add(n)?, total.checked_add(n * u64::from(be_u32(b, 12 + i * 8)?))?))
    })
}

/// The samples of a track fragment (a `traf` body) and their summed durations, in the media
/// timescale: each `trun`'s own durations, else the `tfhd`'s default, else `trex_duration`.
/// `None` when a box is malformed.
fn traf_duration(traf: &[u8], trex_duration: u32) -> Option<(u64, u64)> {
    let tfhd = child(traf, b"tfhd")?;
    let flags = be_u32(tfhd, 0)? & 0xFF_FFFF;
    // track_ID, then base-data-offset (0x01, 8 bytes) and sample-description-index (0x02).
    let at = 8 + if flags & 0x01 != 0 { 8 } else { 0 } + if flags & 0x02 != 0 { 4 } else { 0 };
    let default = if flags & 0x08 != 0 { be_u32(tfhd, at)? } else { trex_duration };
    let (mut samples, mut total) = (0u64, 0u64);
    for (kind, trun) in children(traf) {
        if &kind != b"trun" {
            continue;
        }
        let flags = be_u32(trun, 0)? & 0xFF_FFFF;
        let count = u64::from(be_u32(trun, 4)?);
        samples = samples.checked_add(count)?;
        if flags & 0x100 == 0 {
            total = total.checked_add(count * u64::from(default))?;
            continue;
        }
        // data-offset (0x01) and first-sample-flags (0x04), then per sample: duration (0x100),
        // size (0x200), flags (0x400), composition offset (0x800), 4 bytes each.
        let start =
            8 + if flags & 0x01 != 0 { 4 } else { 0 } + if flags & 0x04 != 0 { 4 } else { 0 };
        let width = [0x100, 0x200, 0x400, 0x800].iter().filter(|&&f| flags & f != 0).count() * 4;
        if count > (trun.len().saturating_sub(start) / width) as u64 {
            return None;
        }
        for i in 0..count as usize {
            total = total.checked_add(u64::from(be_u32(trun, start + i * width)?))?;
        }
    }
    Some((samples, total))
}

#[cfg(test)]
mod tests {
    use super::*;
    use mp4_edits::boxed;
    use std::io::Cursor;

    fn full(version: u8, flags: u32, rest: &[u8]) -> Vec<u8> {
        let mut b = (u32::from(version) << 24 | flags).to_be_bytes().to_vec();
        b.extend_from_slice(rest);
        b
    }

    fn words(w: &[u32]) -> Vec<u8> {
        w.iter().flat_map(|w| w.to_be_bytes()).collect()
    }

    /// A fragmented file: track 2 (48 kHz media timescale; trex default duration 1024),
    /// `mehd` when given, then the fragments, each a `moof` and an `mdat` of 10 bytes.
    fn file(mehd: Option<u32>, fragments: &[Vec<u8>]) -> Vec<u8> {
        file_listing(&[], mehd, fragments)
    }

    /// [`file`] whose index lists samples itself: `stts` entries (count, duration).
    fn file_listing(listed: &[(u32, u32)], mehd: Option<u32>, fragments: &[Vec<u8>]) -> Vec<u8> {
        let mut mdhd = vec![0u8; 20];
        mdhd[12..16].copy_from_slice(&48_000u32.to_be_bytes());
        let tkhd = full(0, 3, &words(&[0, 0, 2, 0, 0]));
        let mut stts = words(&[0, listed.len() as u32]);
        stts.extend(listed.iter().flat_map(|&(n, d)| words(&[n, d])));
        let minf = boxed(b"minf", &boxed(b"stbl", &boxed(b"stts", &stts)));
        let mdia = [boxed(b"mdhd", &mdhd), minf].concat();
        let trak = [boxed(b"tkhd", &tkhd), boxed(b"mdia", &mdia)].concat();
        let mut mvex = boxed(b"trex", &full(0, 0, &words(&[2, 1, 1024, 0, 0])));
        if let Some(d) = mehd {
            mvex = [boxed(b"mehd", &full(0, 0, &words(&[d]))), mvex].concat();
        }
        let mut mvhd = vec![0u8; 20];
        mvhd[12..16].copy_from_slice(&1000u32.to_be_bytes());
        let moov = [boxed(b"mvhd", &mvhd), boxed(b"trak", &trak), boxed(b"mvex", &mvex)].concat();
        let mut f = [boxed(b"ftyp", b"iso6"), boxed(b"moov", &moov)].concat();
        for traf in fragments {
            f.extend(boxed(b"moof", &boxed(b"traf", traf)));
            f.extend(boxed(b"mdat", &[0; 10]));
        }
        f
    }

    /// A `traf` of track `track` with a `tfhd` (default duration when given) and one `trun`.
    fn traf(track: u32, default: Option<u32>, trun: Vec<u8>) -> Vec<u8> {
        let tfhd = match default {
            Some(d) => full(0, 0x08, &words(&[track, d])),
            None => full(0, 0, &words(&[track])),
        };
        [boxed(b"tfhd", &tfhd), boxed(b"trun", &trun)].concat()
    }

    /// A [`Fragments`] as a tuple: frames, declared, fragments, mfra, cut.
    type Summary = (u64, Option<u64>, u64, bool, Option<Cut>);

    fn frames(f: &[u8]) -> Option<Summary> {
        fragments(&mut Cursor::new(f), 2, 48_000)
            .map(|x| (x.frames, x.declared, x.fragments, x.mfra, x.cut))
    }

    #[test]
    fn durations_come_from_the_runs_the_fragment_header_or_the_track_default() {
        // Per-sample durations with data offsets and sizes (flags 0x301), as ffmpeg writes the
        // last fragment: 1024 + 1024 + 68.
        let own = full(0, 0x301, &words(&[3, 100, 1024, 6, 1024, 6, 68, 6]));
        // The fragment header's default (1000) for 4 samples; first-sample flags (0x04).
        let header = full(0, 0x205, &words(&[4, 100, 0, 6, 6, 6, 6]));
        // The track's default (1024) for 2 samples.
        let track = full(0, 0, &words(&[2]));
        // Another track's fragment is not counted.
        let other = traf(1, Some(5000), full(0, 0, &words(&[7])));
        let f = file(
            None,
            &[traf(2, None, own), traf(2, Some(1000), header), traf(2, None, track), other],
        );
        assert_eq!(frames(&f), Some((2116 + 4000 + 2048, None, 4, false, None)));
        // Samples the index lists before the fragments (3 × 1024 and 1 × 500) count too.
        let g =
            file_listing(&[(3, 1024), (1, 500)], None, &[traf(2, None, full(0, 0, &words(&[2])))]);
        assert_eq!(frames(&g), Some((3572 + 2048, None, 1, false, None)));
        // At 44.1 kHz, the 48 kHz ticks are rounded to frames.
        let x = fragments(&mut Cursor::new(&f), 2, 44_100).unwrap();
        assert_eq!(x.frames, ((2116 + 4000 + 2048) * 44_100 + 24_000) / 48_000);
    }

    /// [`traf`] with a decode time (`tfdt`, version 1) before the run.
    fn timed(track: u32, time: u64, trun: Vec<u8>) -> Vec<u8> {
        let tfhd = boxed(b"tfhd", &full(0, 0, &words(&[track])));
        let tfdt = boxed(b"tfdt", &full(1, 0, &time.to_be_bytes()));
        [tfhd, tfdt, boxed(b"trun", &trun)].concat()
    }

    #[test]
    fn jumps_of_the_fragments_decode_times_are_read() {
        let run = |n: u32| full(0, 0, &words(&[n]));
        // Three fragments of 4 × 1024 ticks; the second starts 1000 ticks late, the third
        // where the second ends; a fourth goes back 500 ticks.
        let f = file(
            None,
            &[
                timed(2, 0, run(4)),
                timed(2, 5096, run(4)),
                timed(2, 9192, run(4)),
                timed(2, 12_788, run(4)),
            ],
        );
        let x = fragments(&mut Cursor::new(&f), 2, 48_000).unwrap();
        assert_eq!(x.jumps, [(4, 1000), (12, -500)]);
        // The length counts the net time jumped ahead (1000 − 500).
        assert_eq!(x.frames, 16 * 1024 + 500);
        // The first fragment's time is the origin: a stream cut from a long one starts at 0.
        let g = file(None, &[timed(2, 90_000_000, run(4)), timed(2, 90_004_096, run(4))]);
        let y = fragments(&mut Cursor::new(&g), 2, 48_000).unwrap();
        assert_eq!((y.jumps.as_slice(), y.frames), (&[][..], 8 * 1024));
        // Unless the index lists samples before it: they end at 3 × 1024.
        let h = file_listing(&[(3, 1024)], None, &[timed(2, 4096, run(4))]);
        let z = fragments(&mut Cursor::new(&h), 2, 48_000).unwrap();
        assert_eq!(z.jumps, [(3, 1024)]);
        // A fragment without a decode time follows the durations, and one after it is
        // measured from there.
        let k = file(None, &[timed(2, 0, run(2)), traf(2, None, run(2)), timed(2, 4096, run(2))]);
        let w = fragments(&mut Cursor::new(&k), 2, 48_000).unwrap();
        assert!(w.jumps.is_empty());
        // After a jump, a fragment without a decode time follows the jumped one: the next
        // decode time is no second jump, and the length counts the jump once.
        let j = file(
            None,
            &[
                timed(2, 0, run(2)),
                timed(2, 3048, run(2)),
                traf(2, None, run(2)),
                timed(2, 7144, run(2)),
            ],
        );
        let u = fragments(&mut Cursor::new(&j), 2, 48_000).unwrap();
        assert_eq!((u.jumps.as_slice(), u.frames), (&[(2, 1000)][..], 8 * 1024 + 1000));
        // A hostile time further ahead than a jump can count is no jump, not an overflow.
        let m = file(None, &[timed(2, 0, run(2)), timed(2, u64::MAX, run(2))]);
        let v = fragments(&mut Cursor::new(&m), 2, 48_000).unwrap();
        assert!(v.jumps.is_empty());
    }

    #[test]
    fn the_movie_length_and_the_end_of_the_fragments_are_read() {
        let run = || traf(2, None, full(0, 0, &words(&[3])));
        // mehd declares 1.5 s in the movie timescale (ms); an mfra ends the file.
        let mut f = file(Some(1500), &[run(), run()]);
        f.extend(boxed(b"mfra", &[0; 8]));
        assert_eq!(frames(&f), Some((6144, Some(72_000), 2, true, None)));
        // Cut inside the second fragment's mdat: the moof's samples count, the cut is told.
        let whole = file(None, &[run(), run()]);
        let n = whole.len();
        let cut = frames(&whole[..n - 4]).unwrap();
        let mdat_at = n as u64 - 18;
        let inside = Place::Inside(*b"mdat", 18);
        assert_eq!(cut.4, Some(Cut { len: n as u64 - 4, at: mdat_at, place: inside }));
        assert_eq!((cut.0, cut.2), (6144, 2));
        assert_eq!(
            cut.4.unwrap().describe(),
            format!(
                "it ends after {} bytes, inside its mdat box (the audio and video data, 18 bytes \
                 from byte {mdat_at})",
                n - 4
            )
        );
        // Cut inside the second moof: only the first fragment counts.
        let moof_at = whole.windows(4).rposition(|w| w == b"moof").unwrap() - 4;
        let cut = frames(&whole[..moof_at + 20]).unwrap();
        assert_eq!((cut.0, cut.2), (3072, 1));
        assert_eq!(cut.4.unwrap().kind(), Some(b"moof"));
        // Cut inside a box header after the fragments.
        let mut f = whole.clone();
        f.extend_from_slice(&[0, 0, 1]);
        let cut = frames(&f).unwrap();
        assert_eq!((cut.0, cut.2), (6144, 2));
        assert_eq!(cut.4, Some(Cut { len: n as u64 + 3, at: n as u64, place: Place::Header }));
        // The last moof without its mdat.
        let cut = frames(&whole[..n - 18]).unwrap();
        assert_eq!((cut.0, cut.2), (6144, 2));
        let after = Cut { len: n as u64 - 18, at: moof_at as u64, place: Place::AfterMoof };
        assert_eq!(cut.4.as_ref(), Some(&after));
        assert_eq!(
            after.describe(),
            format!(
                "it ends after {} bytes, right after a fragment's index (its moof box at byte \
                 {moof_at})",
                n - 18
            )
        );
        // Nothing after the index: no fragment at all.
        let index = whole.windows(4).position(|w| w == b"moof").unwrap() - 4;
        let none = Cut { len: index as u64, at: index as u64, place: Place::Before(*b"moof") };
        assert_eq!(frames(&whole[..index]), Some((0, None, 0, false, Some(none.clone()))));
        assert_eq!(
            none.describe(),
            format!("it ends after {index} bytes, before its first fragment (moof box)")
        );
        // … unless the index lists samples itself, or an mfra says the fragments are all there.
        let listed = file_listing(&[(2, 1024)], None, &[]);
        assert_eq!(frames(&listed), Some((2048, None, 0, false, None)));
        let mut ended = whole[..index].to_vec();
        ended.extend(boxed(b"mfra", &[0; 8]));
        assert_eq!(frames(&ended), Some((0, None, 0, true, None)));
        // A cut `free` box after the fragments holds no audio: not a cut fragment.
        let mut f = whole.clone();
        f.extend_from_slice(&[0, 0, 0, 100, b'f', b'r', b'e', b'e', 0]);
        assert_eq!(frames(&f), Some((6144, None, 2, false, None)));
        // A cut `styp` (the start of a joined segment) is a fragment cut short.
        let mut f = whole.clone();
        f.extend_from_slice(&[0, 0, 0, 100, b's', b't', b'y', b'p', 0]);
        assert_eq!(frames(&f).unwrap().4.unwrap().kind(), Some(b"styp"));
    }

    #[test]
    fn unfragmented_and_malformed_files_give_nothing() {
        // No mvex: not fragmented.
        let moov = boxed(b"moov", &boxed(b"mvhd", &[0; 20]));
        assert_eq!(frames(&[boxed(b"ftyp", b"isom"), moov].concat()), None);
        // A trun claiming more samples than it holds.
        let f = file(None, &[traf(2, None, full(0, 0x100, &words(&[5, 1024])))]);
        assert_eq!(frames(&f), None);
        // The track is not in the file.
        let f = file(None, &[traf(2, None, full(0, 0, &words(&[1])))]);
        assert_eq!(fragments(&mut Cursor::new(&f), 3, 48_000), None);
    }

    #[test]
    fn the_first_box_cut_short_is_found() {
        let f = file(None, &[traf(2, None, full(0, 0, &words(&[1])))]);
        let odd = Cut { len: 20, at: 12, place: Place::Inside(*b"\0\x01ab", 99) };
        assert_eq!(
            odd.describe(),
            "it ends after 20 bytes, inside its \\x00\\x01ab box (99 bytes from byte 12)"
        );
        let at = |n: usize| layout(&mut Cursor::new(&f[..n])).unwrap();
        let whole =
            Layout { len: f.len() as u64, index: true, media: true, cut: None, malformed: false };
        assert_eq!(at(f.len()), whole);
        let ftyp = Cut { len: 10, at: 0, place: Place::Inside(*b"ftyp", 12) };
        let ftyp = Some(ftyp);
        let cut = Layout { len: 10, index: false, media: false, cut: ftyp, malformed: false };
        assert_eq!(at(10), cut);
        let header = Cut { len: 14, at: 12, place: Place::Header };
        assert_eq!(at(14).cut.as_ref(), Some(&header));
        assert_eq!(
            header.describe(),
            "it ends after 14 bytes, inside the header of the box at byte 12"
        );
        let ends = Layout { len: 12, index: false, media: false, cut: None, malformed: false };
        assert_eq!(at(12), ends);
        // A box smaller than its header (4 bytes) after the file type: damaged, not cut.
        let mut bad = f.clone();
        bad[12..16].copy_from_slice(&4u32.to_be_bytes());
        let l = layout(&mut Cursor::new(&bad)).unwrap();
        let damaged =
            Layout { len: f.len() as u64, index: false, media: false, cut: None, malformed: true };
        assert_eq!(l, damaged);
        let moov = u32::from_be_bytes(f[12..16].try_into().unwrap());
        let l = at(30);
        assert_eq!(
            (l.cut.as_ref().and_then(Cut::kind), l.index, l.media),
            (Some(b"moov"), false, false)
        );
        assert_eq!(
            l.cut.unwrap().describe(),
            format!("it ends after 30 bytes, inside its moov box (the index, {moov} bytes from byte 12)")
        );
        let l = at(f.len() - 1);
        assert_eq!(
            (l.cut.as_ref().and_then(Cut::kind), l.index, l.media),
            (Some(b"mdat"), true, true)
        );
        let before = Cut { len: 40, at: 40, place: Place::Before(*b"mdat") };
        assert_eq!(
            before.describe(),
            "it ends after 40 bytes, before its audio and video data (mdat box)"
        );
        let before = Cut { len: 12, at: 12, place: Place::Before(*b"moov") };
        assert_eq!(before.describe(), "it ends after 12 bytes, before its index (moov box)");
    }
}
