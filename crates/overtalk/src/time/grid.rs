//! A grid of equal frames over time: frame `k` is the cell `[k · step, (k + 1) · step)`.
//!
//! Audio is analysed on the 10 ms grid ([`FrameGrid::TEN_MS`]: 160 samples at 16 kHz), voice
//! activity detectors have grids of their own, and dscore's frame-based JER puts a recording
//! on a grid of `--frame-step`. Every move between a time and a frame index goes through one
//! [`FrameGrid`], under a [`Rounding`] rule that the caller names, so the rule each caller
//! keeps is written where it is used:
//!
//! ```text
//! time     0        10       20       30 ms
//! frames   |   0    |   1    |   2    |          step 10 ms
//!                         t = 17 ms
//! Floor    frame 1   (the frame holding t)
//! Ceil     frame 2   (the first frame starting at or after t)
//! HalfUp   frame 2   (the nearest boundary; 15 ms is a half and goes up to 2)
//! ```

use serde::{Deserialize, Serialize};

use super::{Delta, Time};

/// How a time between two frame boundaries becomes a frame index.
///
/// ```text
/// boundaries   k·step          (k+½)·step          (k+1)·step
///              |-------------------:-------------------|
/// Floor        k ─────────────────────────────────────▶ (k+1 only at the boundary)
/// Ceil         k (at the boundary) then k+1 ──────────▶
/// HalfUp       k ──────────────────▶ k+1 from the half on
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rounding {
    /// The frame holding the time: `⌊t / step⌋`. A start time's frame, and the number of
    /// whole frames in a duration.
    Floor,
    /// The first frame that starts at or after the time: `⌈t / step⌉`. An end time's
    /// exclusive frame, and the number of frames a duration needs to be covered.
    Ceil,
    /// The nearest boundary, a half going up: `⌊(t + ⌊step / 2⌋) / step⌋`. Used where a time
    /// is snapped to the grid, as a label's edges are.
    HalfUp,
}

/// A grid of frames of one step (at least 1 µs), frame `k` covering
/// `[k · step, (k + 1) · step)`:
///
/// ```text
/// time    0      step    2·step  3·step
///         |------|-------|-------|---
/// frame      0       1       2
///         ^start_of(1) = step   ^centre_of(2) = 2.5·step
/// ```
///
/// Times are integer microseconds, so every conversion is exact: `frame_of(start_of(k), r)`
/// is `k` under every [`Rounding`]. Serialised as its step (integer microseconds).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "Delta", into = "Delta")]
pub struct FrameGrid {
    step: Delta,
}

impl FrameGrid {
    /// The analysis grid of the audio front end: 10 ms frames (160 samples at 16 kHz).
    pub const TEN_MS: FrameGrid = FrameGrid { step: Delta::from_micros(10_000) };

    /// The grid of frames `step` long. A step below 1 µs is taken as 1 µs, so that no
    /// conversion divides by zero.
    pub const fn new(step: Delta) -> FrameGrid {
        let us = if step.micros() < 1 { 1 } else { step.micros() };
        FrameGrid { step: Delta::from_micros(us) }
    }

    /// The length of one frame.
    pub const fn step(self) -> Delta {
        self.step
    }

    /// The start of frame `frame`.
    pub const fn start_of(self, frame: usize) -> Time {
        Time::from_micros(frame as i64 * self.step.micros())
    }

    /// The end of frame `frame` (the start of the next one).
    pub const fn end_of(self, frame: usize) -> Time {
        self.start_of(frame + 1)
    }

    /// The middle of frame `frame` (its start plus half a step, rounded down to the
    /// microsecond).
    pub const fn centre_of(self, frame: usize) -> Time {
        Time::from_micros(frame as i64 * self.step.micros() + self.step.micros() / 2)
    }

    /// The frame of `t` under `rounding`; negative before time zero.
    pub const fn frame_of(self, t: Time, rounding: Rounding) -> i64 {
        let step = self.step.micros();
        let us = t.micros();
        match rounding {
            Rounding::Floor => us.div_euclid(step),
            Rounding::Ceil => {
                let q = us.div_euclid(step);
                if us.rem_euclid(step) == 0 {
                    q
                } else {
                    q + 1
                }
            }
            Rounding::HalfUp => (us + step / 2).div_euclid(step),
        }
    }

    /// [`frame_of`](FrameGrid::frame_of) as an index: a time before the first frame is frame 0.
    pub const fn index_of(self, t: Time, rounding: Rounding) -> usize {
        let k = self.frame_of(t, rounding);
        if k < 0 {
            0
        } else {
            k as usize
        }
    }

    /// The number of frames in `d` under `rounding` (0 for a negative duration): `Floor`
    /// counts the whole frames, `Ceil` the frames needed to cover it.
    pub const fn frames_in(self, d: Delta, rounding: Rounding) -> usize {
        self.index_of(Time::from_micros(d.micros()), rounding)
    }

    /// The samples in one frame at `rate` Hz, when a frame holds a whole number of them
    /// (`None` otherwise, say 10 ms at 22 050 Hz).
    pub const fn samples_per_frame(self, rate: u32) -> Option<usize> {
        let num = self.step.micros() as i128 * rate as i128;
        if num % 1_000_000 == 0 {
            Some((num / 1_000_000) as usize)
        } else {
            None
        }
    }
}

impl From<Delta> for FrameGrid {
    /// [`FrameGrid::new`].
    fn from(step: Delta) -> FrameGrid {
        FrameGrid::new(step)
    }
}

impl From<FrameGrid> for Delta {
    /// The grid's step.
    fn from(grid: FrameGrid) -> Delta {
        grid.step
    }
}

impl Default for FrameGrid {
    /// [`FrameGrid::TEN_MS`].
    fn default() -> FrameGrid {
        FrameGrid::TEN_MS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(us: i64) -> Time {
        Time::from_micros(us)
    }

    #[test]
    fn the_three_rules_on_the_picture() {
        let g = FrameGrid::TEN_MS;
        assert_eq!(g.frame_of(t(17_000), Rounding::Floor), 1);
        assert_eq!(g.frame_of(t(17_000), Rounding::Ceil), 2);
        assert_eq!(g.frame_of(t(17_000), Rounding::HalfUp), 2);
        assert_eq!(g.frame_of(t(14_999), Rounding::HalfUp), 1);
        assert_eq!(g.frame_of(t(15_000), Rounding::HalfUp), 2);
        assert_eq!(g.frame_of(t(-1), Rounding::Floor), -1);
        assert_eq!(g.frame_of(t(-1), Rounding::Ceil), 0);
        assert_eq!(g.frame_of(t(-5_000), Rounding::HalfUp), 0);
        assert_eq!(g.frame_of(t(-5_001), Rounding::HalfUp), -1);
        assert_eq!(g.index_of(t(-25_000), Rounding::Floor), 0);
        assert_eq!(g.frames_in(Delta::from_micros(25_000), Rounding::Floor), 2);
        assert_eq!(g.frames_in(Delta::from_micros(25_000), Rounding::Ceil), 3);
        assert_eq!(g.frames_in(Delta::from_micros(-25_000), Rounding::Ceil), 0);
    }

    #[test]
    fn frames_and_samples() {
        let g = FrameGrid::TEN_MS;
        assert_eq!(g.start_of(3), t(30_000));
        assert_eq!(g.end_of(3), t(40_000));
        assert_eq!(g.centre_of(3), t(35_000));
        assert_eq!(g.samples_per_frame(16_000), Some(160));
        assert_eq!(g.samples_per_frame(44_100), Some(441));
        assert_eq!(g.samples_per_frame(22_050), None);
        assert_eq!(FrameGrid::new(Delta::from_micros(3)).centre_of(1), t(4));
        assert_eq!(FrameGrid::new(Delta::ZERO).step(), Delta::from_micros(1));
        assert_eq!(FrameGrid::new(Delta::from_micros(-7)).step(), Delta::from_micros(1));
        assert_eq!(FrameGrid::default(), FrameGrid::TEN_MS);
    }

    #[test]
    fn serialises_as_its_step() {
        assert_eq!(serde_json::to_string(&FrameGrid::TEN_MS).unwrap(), "10000");
        let back: FrameGrid = serde_json::from_str("0").unwrap();
        assert_eq!(back.step(), Delta::from_micros(1));
    }
}
