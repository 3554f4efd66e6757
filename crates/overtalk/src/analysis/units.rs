//! The analysis' own units: [`Millis`] for its times and durations, [`SpeakerIndex`] for its
//! speakers.
//!
//! The model layer counts in microseconds ([`Time`], [`Delta`]) and names speakers by
//! [`SpeakerId`]; the analysis (conversation-metrics.md §5) counts in whole milliseconds and
//! numbers only the speakers that keep a segment after S1. The two never mix silently: a model
//! time becomes a [`Millis`] only through [`Millis::from_time`] (S1's rounding), and a
//! [`SpeakerIndex`] is never a [`SpeakerId`].
//!
//! ```
//! use overtalk::analysis::{Millis, SpeakerIndex};
//! use overtalk::time::Time;
//!
//! let start = Millis::from_time(Time::from_micros(1_499_500)); // rounds half away from zero
//! assert_eq!(start, Millis::new(1500));
//! assert_eq!((Millis::new(4000) - start).get(), 2500);
//! assert_eq!(serde_json::to_string(&start).unwrap(), "1500");
//! assert_eq!(SpeakerIndex::new(1).index(), 1);
//! ```
//!
//! [`SpeakerId`]: crate::model::SpeakerId

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};

use serde::{Deserialize, Serialize};

use crate::time::{Delta, Time};

/// A time or a duration of the analysis, in whole milliseconds.
///
/// Instants (a talkspurt's start, an onset) are counted from the start of the recording;
/// durations (a gap, a parameter such as `bridge_pause`) and signed offsets (a floor-transfer
/// offset, negative for an overlap) are differences of instants. One type serves all three
/// because the rule book (conversation-metrics.md §5) computes with them as one number line:
/// windows are added to instants (`onset + terminal_window`), instants are compared with
/// durations' sums (`end − start ≤ min_segment`), offsets change sign (`−overlap`), and every one
/// of them is written as the same integer in the output. Separate instant and duration types
/// would need every such mix spelled out without catching a mistake the rule book allows; the
/// confusions that do happen — microseconds for milliseconds, a speaker index for a time — are
/// what this type rules out.
///
/// The field is private: a value is made by [`Millis::new`] or [`Millis::from_time`] and read
/// by [`Millis::get`]. It (de)serialises as the bare integer, so the JSON is unchanged.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Millis(i64);

impl Millis {
    /// Zero: the start of the recording, or no time at all.
    pub const ZERO: Millis = Millis(0);

    /// The largest value (a sentinel that no time of a file reaches).
    pub const MAX: Millis = Millis(i64::MAX);

    /// The smallest value.
    pub const MIN: Millis = Millis(i64::MIN);

    /// `ms` milliseconds.
    pub const fn new(ms: i64) -> Millis {
        Millis(ms)
    }

    /// The number of milliseconds.
    pub const fn get(self) -> i64 {
        self.0
    }

    /// A model time in milliseconds, rounded half away from zero (S1's rule, §5.4 S1); the same
    /// as [`to_ms`](super::normalise::to_ms) of its microseconds.
    pub const fn from_time(t: Time) -> Millis {
        Millis(round_us_to_ms(t.micros()))
    }

    /// A model delta in milliseconds, rounded as [`Millis::from_time`].
    pub const fn from_delta(d: Delta) -> Millis {
        Millis(round_us_to_ms(d.micros()))
    }

    /// The same time as a model [`Time`] (exact: a millisecond is 1000 microseconds).
    pub const fn to_time(self) -> Time {
        Time::from_millis(self.0)
    }

    /// Seconds as a float (for display and statistics only).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / 1000.0
    }

    /// `self + rhs`, saturating at the bounds (for sentinels and clocks near them).
    pub const fn saturating_add(self, rhs: Millis) -> Millis {
        Millis(self.0.saturating_add(rhs.0))
    }

    /// `self − rhs`, saturating at the bounds.
    pub const fn saturating_sub(self, rhs: Millis) -> Millis {
        Millis(self.0.saturating_sub(rhs.0))
    }

    /// The magnitude.
    pub const fn abs(self) -> Millis {
        Millis(self.0.abs())
    }
}

/// Microseconds to milliseconds, rounded half away from zero (the body of
/// [`to_ms`](super::normalise::to_ms)). Non-negative times (all but a few): add half and
/// truncate. Otherwise truncate, then step away from zero when the remainder is at least half
/// (the remainder has the sign of `us`).
#[inline]
pub(crate) const fn round_us_to_ms(us: i64) -> i64 {
    if us >= 0 && us <= i64::MAX - 500 {
        return (us + 500) / 1000;
    }
    let (q, r) = (us / 1000, us % 1000);
    q + (r >= 500) as i64 - (r <= -500) as i64
}

impl From<Time> for Millis {
    fn from(t: Time) -> Millis {
        Millis::from_time(t)
    }
}

impl Add for Millis {
    type Output = Millis;

    #[inline]
    fn add(self, rhs: Millis) -> Millis {
        Millis(self.0 + rhs.0)
    }
}

impl Sub for Millis {
    type Output = Millis;

    #[inline]
    fn sub(self, rhs: Millis) -> Millis {
        Millis(self.0 - rhs.0)
    }
}

impl Neg for Millis {
    type Output = Millis;

    #[inline]
    fn neg(self) -> Millis {
        Millis(-self.0)
    }
}

impl AddAssign for Millis {
    #[inline]
    fn add_assign(&mut self, rhs: Millis) {
        self.0 += rhs.0;
    }
}

impl SubAssign for Millis {
    #[inline]
    fn sub_assign(&mut self, rhs: Millis) {
        self.0 -= rhs.0;
    }
}

impl Sum for Millis {
    fn sum<I: Iterator<Item = Millis>>(iter: I) -> Millis {
        Millis(iter.map(|m| m.0).sum())
    }
}

impl<'a> Sum<&'a Millis> for Millis {
    fn sum<I: Iterator<Item = &'a Millis>>(iter: I) -> Millis {
        Millis(iter.map(|m| m.0).sum())
    }
}

/// The bare number of milliseconds (`1500`), as the JSON writes it.
impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// A speaker of the analysis: the position in the analysis' speaker list
/// ([`Normalised::speakers`](super::normalise::Normalised::speakers), sorted by name, only the
/// speakers that keep a segment after S1).
///
/// Not a [`SpeakerId`](crate::model::SpeakerId): that numbers every speaker of a transcript in
/// the order they were met, ignored labels and dropped speakers included, so the same person
/// usually has a different number in each. The field is private: made by [`SpeakerIndex::new`],
/// read by [`SpeakerIndex::get`] or, to index a per-speaker list, [`SpeakerIndex::index`]. It
/// (de)serialises as the bare integer.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct SpeakerIndex(usize);

impl SpeakerIndex {
    /// The speaker at position `i` of the analysis' speaker list.
    pub const fn new(i: usize) -> SpeakerIndex {
        SpeakerIndex(i)
    }

    /// The position in the speaker list.
    pub const fn get(self) -> usize {
        self.0
    }

    /// The position, for indexing a per-speaker list (the same number as [`SpeakerIndex::get`];
    /// the name says what it is used for).
    pub const fn index(self) -> usize {
        self.0
    }

    /// Every speaker of a list of `n`, in order.
    pub fn all(n: usize) -> impl DoubleEndedIterator<Item = SpeakerIndex> + ExactSizeIterator {
        (0..n).map(SpeakerIndex)
    }
}

/// The bare position (`1`).
impl fmt::Display for SpeakerIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::normalise::to_ms;

    #[test]
    fn from_time_rounds_half_away_from_zero_as_s1() {
        for (us, ms) in [
            (0, 0),
            (499, 0),
            (500, 1),
            (1_499_499, 1499),
            (1_499_500, 1500),
            (-499, 0),
            (-500, -1),
            (-1500, -2),
            (-1499, -1),
            (i64::MAX, i64::MAX / 1000 + 1),
            (i64::MAX - 500, (i64::MAX - 500 + 500) / 1000),
            (i64::MIN, i64::MIN / 1000 - 1),
        ] {
            assert_eq!(Millis::from_time(Time::from_micros(us)), Millis::new(ms), "{us} µs");
            assert_eq!(Millis::from_delta(Delta::from_micros(us)), Millis::new(ms), "{us} µs");
            assert_eq!(Millis::from(Time::from_micros(us)), Millis::new(ms));
        }
        for us in (-3000..3000).step_by(7).chain([i64::MAX, i64::MAX - 499, i64::MIN]) {
            assert_eq!(Millis::from_time(Time::from_micros(us)), to_ms(us));
        }
        assert_eq!(Millis::new(1500).to_time(), Time::from_micros(1_500_000));
    }

    #[test]
    fn arithmetic_order_and_sums() {
        let (a, b) = (Millis::new(4000), Millis::new(6500));
        assert_eq!(b - a, Millis::new(2500));
        assert_eq!(a + b, Millis::new(10_500));
        assert_eq!(-(b - a), Millis::new(-2500));
        assert_eq!((a - b).abs(), Millis::new(2500));
        let mut c = a;
        c += b;
        c -= Millis::new(500);
        assert_eq!(c.get(), 10_000);
        assert!(a < b && Millis::MIN < Millis::ZERO && Millis::ZERO < Millis::MAX);
        assert_eq!(a.max(b), b);
        assert_eq!([a, b].iter().sum::<Millis>(), Millis::new(10_500));
        assert_eq!([a, b].into_iter().sum::<Millis>(), Millis::new(10_500));
        assert_eq!(std::iter::empty::<Millis>().sum::<Millis>(), Millis::ZERO);
        assert_eq!(Millis::new(1250).as_secs_f64(), 1.25);
    }

    #[test]
    fn serialise_and_print_as_bare_integers() {
        assert_eq!(serde_json::to_string(&Millis::new(-250)).unwrap(), "-250");
        assert_eq!(serde_json::from_str::<Millis>("1500").unwrap(), Millis::new(1500));
        assert_eq!(serde_json::to_string(&Some(Millis::new(7))).unwrap(), "7");
        assert_eq!(Millis::new(-250).to_string(), "-250");
        assert_eq!(format!("{:>6}", Millis::new(42)), "    42");
        let s = SpeakerIndex::new(3);
        assert_eq!((s.get(), s.index(), s.to_string()), (3, 3, "3".to_owned()));
        assert_eq!(serde_json::to_string(&[s, SpeakerIndex::new(0)]).unwrap(), "[3,0]");
        assert_eq!(serde_json::from_str::<SpeakerIndex>("2").unwrap(), SpeakerIndex::new(2));
        let all: Vec<usize> = SpeakerIndex::all(3).map(SpeakerIndex::get).collect();
        assert_eq!(all, vec![0, 1, 2]);
        assert!(SpeakerIndex::new(0) < SpeakerIndex::new(1));
    }
}
