//! Gaps in a track's timestamps: audio a recorder dropped or paused, which the decoded samples
//! alone would close up.
//!
//! A container with timestamps (MP4/MOV, Matroska/WebM, Ogg) places every packet on the file's
//! timeline. When a recorder drops audio (a stream whose connection stalled, a browser tab
//! throttled, a capture that paused), the packets after the drop start later than the samples
//! before them end:
//!
//! ```text
//! file timeline   0 ────── 5 s ─────────── 8 s ─────────▶
//! packets         [ … audio … ]            [ … audio … ]    (Ogg, Matroska: the timestamps
//!                                                            jump; MP4: one sample lasts 3 s)
//! decoded alone   [ … audio … ][ … audio … ]                 every later time 3 s early
//! with the gap    [ … audio … ][ silence  ][ … audio … ]     times on the file's timeline
//! ```
//!
//! [`Timeline`] follows the packets: where the next packet's timestamp puts it past the end of
//! the samples decoded so far by more than [`GAP_TOLERANCE_SECONDS`], the difference is a gap,
//! to be filled with silence before that packet's samples. Positions are measured from an
//! anchor (the first packet that decoded to samples), so rounding of timestamps (Matroska's
//! milliseconds) never accumulates. Packets that repeat the timestamp before them (Matroska
//! lacing: the frames of one block share the block's timestamp) say nothing about where they
//! start and are taken to follow. Timestamps that go back (files joined with their clocks
//! restarted), or jump further ahead than the caller can fill (a damaged timestamp), move the
//! anchor: the audio stays in file order.

/// The smallest gap filled, in seconds. Matroska rounds timestamps to a millisecond and a
/// muxer may round a packet's start by a frame; a recorder that drops audio drops at least a
/// packet (20 ms of Opus, 21–64 ms of AAC).
pub(super) const GAP_TOLERANCE_SECONDS: f64 = 0.02;

/// The position of a track's packets on the file's timeline against the samples decoded.
#[derive(Clone, Debug)]
pub(super) struct Timeline {
    /// The time base: a timestamp `t` is `t × numer / denom` seconds.
    numer: u32,
    denom: u32,
    /// The decoder's sample rate.
    rate: u32,
    /// A packet's timestamp and the frames decoded before it, from which later positions are
    /// measured; `None` until a packet decodes to samples.
    anchor: Option<(i64, u64)>,
    /// Frames decoded (and filled) since the first packet that decoded to samples.
    decoded: u64,
    /// The timestamp of the last packet placed.
    last: Option<i64>,
    /// The smallest gap filled, in frames.
    tolerance: u64,
}

/// What a packet's timestamp says about the samples before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Placement {
    /// The packet follows the samples before it (within the tolerance).
    Follows,
    /// The packet starts this many frames after the samples before it end.
    Gap(u64),
    /// The packet starts before the samples before it end by more than the tolerance (the
    /// timestamps went back), or after them by more than the caller can fill; it is kept in
    /// file order, and later packets are measured from it.
    Reset,
}

impl Timeline {
    /// A timeline in time base `numer / denom` seconds for a decoder at `rate` Hz; `None` for
    /// a time base of zero.
    pub fn new(numer: u32, denom: u32, rate: u32) -> Option<Timeline> {
        if numer == 0 || denom == 0 || rate == 0 {
            return None;
        }
        let tolerance = (GAP_TOLERANCE_SECONDS * f64::from(rate)).ceil() as u64;
        Some(Timeline { numer, denom, rate, anchor: None, decoded: 0, last: None, tolerance })
    }

    /// Frames at the decoder's rate in `ticks` of the time base (a packet's length), rounded.
    pub fn frames_in(&self, ticks: u64) -> u64 {
        u64::try_from(self.frames(i128::from(ticks))).unwrap_or(u64::MAX)
    }

    /// Frames at the decoder's rate in `ticks` of the time base, rounded; saturating.
    fn frames(&self, ticks: i128) -> i128 {
        let scaled = ticks * i128::from(self.numer) * i128::from(self.rate);
        let denom = i128::from(self.denom);
        (scaled + denom / 2).div_euclid(denom)
    }

    /// Places a packet with timestamp `pts` that decoded to `frames` frames (0 for a header
    /// packet or one that decodes nothing, which does not move the timeline), before its
    /// samples are delivered. A [`Placement::Gap`] (at most `max_gap` frames) is counted as
    /// filled: the caller delivers that many frames of silence before the packet's samples.
    pub fn place(&mut self, pts: i64, frames: u64, max_gap: u64) -> Placement {
        if frames == 0 {
            return Placement::Follows;
        }
        if self.last.replace(pts) == Some(pts) {
            // A laced frame: the block's timestamp again.
            self.decoded = self.decoded.saturating_add(frames);
            return Placement::Follows;
        }
        let Some((anchor_pts, anchor_frames)) = self.anchor else {
            self.anchor = Some((pts, 0));
            self.decoded = frames;
            return Placement::Follows;
        };
        let at = i128::from(anchor_frames)
            + self.frames(i128::from(pts).saturating_sub(i128::from(anchor_pts)));
        let decoded = i128::from(self.decoded);
        let tolerance = i128::from(self.tolerance);
        let placement = if at > decoded + tolerance && at - decoded <= i128::from(max_gap) {
            let gap = u64::try_from(at - decoded).unwrap_or(u64::MAX);
            self.decoded = self.decoded.saturating_add(gap);
            Placement::Gap(gap)
        } else if at > decoded + tolerance || at + tolerance < decoded {
            // The clock went back, or too far ahead: measure from here on.
            self.anchor = Some((pts, self.decoded));
            Placement::Reset
        } else {
            Placement::Follows
        };
        self.decoded = self.decoded.saturating_add(frames);
        placement
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// No bound on the gaps filled.
    const ANY: u64 = u64::MAX;

    #[test]
    fn packets_that_follow_each_other_have_no_gap() {
        // Opus in Ogg: 960 frames per packet at 48 kHz, time base 1/48000.
        let mut t = Timeline::new(1, 48_000, 48_000).unwrap();
        for i in 0..100 {
            assert_eq!(t.place(i * 960, 960, ANY), Placement::Follows);
        }
    }

    #[test]
    fn millisecond_timestamps_do_not_accumulate_rounding() {
        // AAC in Matroska at 44.1 kHz: 1024 frames (23.22 ms) per packet, timestamps in
        // milliseconds, each rounded on its own.
        let mut t = Timeline::new(1, 1000, 44_100).unwrap();
        for i in 0..10_000i64 {
            let ms = (i as f64 * 1024.0 / 44.1).round() as i64;
            assert_eq!(t.place(ms, 1024, ANY), Placement::Follows, "packet {i}");
        }
    }

    #[test]
    fn a_timestamp_jump_is_a_gap_of_its_length() {
        // WebM/Opus: 20 ms packets, then 3 s missing.
        let mut t = Timeline::new(1, 1000, 48_000).unwrap();
        assert_eq!(t.place(-7, 960, ANY), Placement::Follows);
        assert_eq!(t.place(13, 960, ANY), Placement::Follows);
        assert_eq!(t.place(33 + 3000, 960, ANY), Placement::Gap(144_000));
        // After it, the packets follow again.
        assert_eq!(t.place(53 + 3000, 960, ANY), Placement::Follows);
    }

    #[test]
    fn a_sample_longer_than_its_audio_opens_a_gap_before_the_next() {
        // ffmpeg's MP4 for a drop: the sample before it lasts 1024 + 48 000 ticks (16 kHz
        // time base) but decodes to 1024 frames.
        let mut t = Timeline::new(1, 16_000, 16_000).unwrap();
        assert_eq!(t.place(0, 1024, ANY), Placement::Follows);
        assert_eq!(t.place(1024, 1024, ANY), Placement::Follows);
        assert_eq!(t.place(2048 + 48_000, 1024, ANY), Placement::Gap(48_000));
        assert_eq!(t.place(2048 + 48_000 + 1024, 1024, ANY), Placement::Follows);
    }

    #[test]
    fn gaps_under_the_tolerance_are_not_filled() {
        // 19 ms at 16 kHz is 304 frames; 20 ms (the tolerance, 320 frames) is not over it.
        let mut t = Timeline::new(1, 16_000, 16_000).unwrap();
        assert_eq!(t.place(0, 1600, ANY), Placement::Follows);
        assert_eq!(t.place(1600 + 304, 1600, ANY), Placement::Follows);
        // The 304 frames are still owed: a later slip of 17 more frames makes 321, a gap of
        // all of it.
        assert_eq!(t.place(3200 + 304 + 17, 1600, ANY), Placement::Gap(321));
    }

    #[test]
    fn laced_frames_follow_the_first_of_their_block() {
        // mkvmerge's WebM/Opus: eight 20 ms frames per block, each delivered with the
        // block's timestamp (time base 62 499 ns; 160 ms is 2 560 ticks).
        let mut t = Timeline::new(62_499, 1_000_000_000, 48_000).unwrap();
        for block in 0..20 {
            for _ in 0..8 {
                assert_eq!(t.place(-104 + block * 2560, 960, ANY), Placement::Follows, "{block}");
            }
        }
        // A block 8 000 ticks late (0.499992 s): the ticks are 62 499 ns, not 62 500, so
        // 59 200 ticks from the anchor are 177 597 frames, of which 153 600 were decoded.
        let late = -104 + 20 * 2560 + 8000;
        assert_eq!(t.place(late, 960, ANY), Placement::Gap(23_997));
    }

    #[test]
    fn a_clock_that_goes_back_moves_the_anchor() {
        // Two recordings joined, the second's clock restarting at 0.
        let mut t = Timeline::new(1, 1000, 1000).unwrap();
        assert_eq!(t.place(0, 500, ANY), Placement::Follows);
        assert_eq!(t.place(500, 500, ANY), Placement::Follows);
        assert_eq!(t.place(0, 500, ANY), Placement::Reset);
        assert_eq!(t.place(500, 500, ANY), Placement::Follows);
        assert_eq!(t.place(1000, 500, ANY), Placement::Follows);
        // A gap after it is measured from the new anchor.
        assert_eq!(t.place(2000, 500, ANY), Placement::Gap(500));
    }

    #[test]
    fn header_packets_and_hostile_timestamps_do_not_overflow() {
        let mut t = Timeline::new(1, 1, 768_000).unwrap();
        assert_eq!(t.place(i64::MIN, 0, ANY), Placement::Follows);
        assert_eq!(t.place(i64::MIN, 10, ANY), Placement::Follows);
        // 2^64 seconds at 768 kHz: more frames than a u64 counts, so no gap can fill it.
        assert_eq!(t.place(i64::MAX, 10, ANY), Placement::Reset);
        assert_eq!(t.place(i64::MIN, 10, ANY), Placement::Reset);
        assert_eq!(t.place(i64::MIN + 1, 10, ANY), Placement::Gap(767_990));
        // Bounded: a jump further than the caller can fill is a reset, not a gap.
        let mut t = Timeline::new(1, 1, 768_000).unwrap();
        assert_eq!(t.place(0, 10, 1000), Placement::Follows);
        assert_eq!(t.place(i64::MAX, 10, 1000), Placement::Reset);
        assert_eq!(t.place(i64::MIN, 10, 1000), Placement::Reset);
        assert_eq!(t.place(i64::MIN + 1, 10, 1000), Placement::Reset);
        assert!(Timeline::new(0, 1, 1).is_none());
        assert!(Timeline::new(1, 0, 1).is_none());
    }
}
