//! [`Segment`]: one half-open interval of time, `[start, end)` with `start < end`.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::time::{Delta, Time};

/// A half-open interval `[start, end)` of a recording, never empty.
///
/// ```text
///      start            end
///        |               |
///   ─────[███████████████)─────
/// ```
///
/// Two segments that touch (`a.end == b.start`) neither overlap nor leave a gap. Ordering is by
/// `(start, end)`.
///
/// Deserializing checks the invariant: `{"start": 5, "end": 5}` is an error, not an empty
/// segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "SegmentFields")]
pub struct Segment {
    start: Time,
    end: Time,
}

/// A segment as serialized, before its invariant is checked.
#[derive(Deserialize)]
struct SegmentFields {
    start: Time,
    end: Time,
}

impl TryFrom<SegmentFields> for Segment {
    type Error = Error;

    fn try_from(fields: SegmentFields) -> Result<Segment, Error> {
        Segment::new(fields.start, fields.end).ok_or_else(|| {
            Error::invalid(format!(
                "segment start {} µs is not before its end {} µs",
                fields.start.micros(),
                fields.end.micros()
            ))
        })
    }
}

impl Segment {
    /// `[start, end)`, or `None` when `start >= end`.
    pub fn new(start: Time, end: Time) -> Option<Segment> {
        (start < end).then_some(Segment { start, end })
    }

    /// `[start_us, end_us)` in microseconds, or `None` when empty.
    pub fn from_micros(start_us: i64, end_us: i64) -> Option<Segment> {
        Segment::new(Time::from_micros(start_us), Time::from_micros(end_us))
    }

    /// `[start_ms, end_ms)` in milliseconds, or `None` when empty.
    pub fn from_millis(start_ms: i64, end_ms: i64) -> Option<Segment> {
        Segment::new(Time::from_millis(start_ms), Time::from_millis(end_ms))
    }

    /// The first instant inside the segment.
    pub fn start(&self) -> Time {
        self.start
    }

    /// The first instant after the segment.
    pub fn end(&self) -> Time {
        self.end
    }

    /// `end - start`, always positive.
    pub fn duration(&self) -> Delta {
        self.end - self.start
    }

    /// Whether `t` is inside: `start <= t < end`.
    pub fn contains(&self, t: Time) -> bool {
        self.start <= t && t < self.end
    }

    /// Whether `other` lies entirely inside this segment.
    pub fn covers(&self, other: &Segment) -> bool {
        self.start <= other.start && other.end <= self.end
    }

    /// Whether the two share some time (touching segments do not).
    ///
    /// ```text
    /// a    [██████)
    /// b         [██████)      → true
    /// c           [████)      → false (touches a)
    /// ```
    pub fn intersects(&self, other: &Segment) -> bool {
        self.start < other.end && other.start < self.end
    }

    /// The time both share, if any.
    ///
    /// ```text
    /// a      [██████████)
    /// b            [██████████)
    /// a ∩ b        [████)
    /// ```
    pub fn intersection(&self, other: &Segment) -> Option<Segment> {
        Segment::new(self.start.max(other.start), self.end.min(other.end))
    }

    /// The smallest segment covering both.
    ///
    /// ```text
    /// a    [████)
    /// b              [████)
    /// hull [██████████████)
    /// ```
    pub fn hull(&self, other: &Segment) -> Segment {
        Segment { start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    /// The silence between two disjoint segments, if they neither touch nor overlap.
    ///
    /// ```text
    /// a    [████)
    /// b              [████)
    /// gap       [████)
    /// ```
    pub fn gap(&self, other: &Segment) -> Option<Segment> {
        let (first, second) = if self.start <= other.start { (self, other) } else { (other, self) };
        Segment::new(first.end, second.start)
    }

    /// The segment widened by `by` on each side (shrunk when `by` is negative); `None` if that
    /// leaves nothing.
    ///
    /// ```text
    /// s          [████)
    /// widen(2)  [████████)
    /// ```
    pub fn widen(&self, by: Delta) -> Option<Segment> {
        Segment::new(self.start.saturating_sub(by), self.end.saturating_add(by))
    }

    /// The middle instant (rounded down).
    pub fn middle(&self) -> Time {
        Time::from_micros(self.start.micros() + (self.end.micros() - self.start.micros()) / 2)
    }
}

impl fmt::Display for Segment {
    /// `[start, end)` in seconds: `[1.500, 2.250)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {})", self.start, self.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(a: i64, b: i64) -> Segment {
        Segment::from_micros(a, b).unwrap()
    }

    #[test]
    fn construction_rejects_empty() {
        assert!(Segment::from_micros(5, 5).is_none());
        assert!(Segment::from_micros(6, 5).is_none());
        assert_eq!(s(1, 2).duration(), Delta::from_micros(1));
    }

    #[test]
    fn deserializing_checks_the_invariant() {
        let ok: Segment = serde_json::from_str(r#"{"start": 1, "end": 2}"#).unwrap();
        assert_eq!(ok, s(1, 2));
        assert_eq!(serde_json::to_string(&ok).unwrap(), r#"{"start":1,"end":2}"#);
        for empty in [r#"{"start": 5, "end": 5}"#, r#"{"start": 6, "end": 5}"#] {
            let err = serde_json::from_str::<Segment>(empty).unwrap_err().to_string();
            assert!(err.contains("is not before its end"), "{err}");
        }
    }

    #[test]
    fn touching_segments_neither_intersect_nor_gap() {
        assert!(!s(0, 5).intersects(&s(5, 9)));
        assert_eq!(s(0, 5).intersection(&s(5, 9)), None);
        assert_eq!(s(0, 5).gap(&s(5, 9)), None);
        assert_eq!(s(0, 5).gap(&s(7, 9)), Some(s(5, 7)));
        assert_eq!(s(7, 9).gap(&s(0, 5)), Some(s(5, 7)));
        assert_eq!(s(0, 6).intersection(&s(5, 9)), Some(s(5, 6)));
        assert!(s(0, 6).contains(Time::from_micros(0)) && !s(0, 6).contains(Time::from_micros(6)));
        assert_eq!(s(3, 4).widen(Delta::from_micros(2)), Some(s(1, 6)));
        assert_eq!(s(3, 4).widen(Delta::from_micros(-1)), None);
        assert_eq!(s(0, 1).hull(&s(5, 9)), s(0, 9));
    }
}
