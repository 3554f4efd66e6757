//! [`Region`]: a normalised set of time — disjoint, sorted, non-touching segments.
//!
//! Scoring regions (UEM), speech, overlap and silence are regions. Set operations on regions are
//! linear merges.

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::model::Segment;
use crate::time::{Delta, Time};

/// A set of instants stored as disjoint, sorted segments with gaps between them.
///
/// ```text
/// segments   [████)  [███)
///               [██████)     [██)
/// region     [████████████)  [██)
/// ```
///
/// Touching segments are merged: `[0, 5) ∪ [5, 9)` is `[0, 9)`.
///
/// Serialized as the list of its segments; deserializing checks that they are sorted, disjoint
/// and not touching (a list that is not a region is an error, never silently merged).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(try_from = "Vec<Segment>")]
pub struct Region {
    segments: Vec<Segment>,
}

impl TryFrom<Vec<Segment>> for Region {
    type Error = Error;

    /// The region of these segments if they already are one: sorted, disjoint, not touching.
    ///
    /// ```text
    /// [██)  [███)      ok
    /// [██)[███)        touching: error (the region is [█████))
    /// [████)           overlapping or out of order: error
    ///    [███)
    /// ```
    fn try_from(segments: Vec<Segment>) -> Result<Region, Error> {
        if let Some(i) = segments.windows(2).position(|w| w[0].end() >= w[1].start()) {
            return Err(Error::invalid(format!(
                "region segments {} and {} ({} then {}) are not sorted, disjoint and apart",
                i,
                i + 1,
                segments[i],
                segments[i + 1]
            )));
        }
        Ok(Region { segments })
    }
}

impl Serialize for Region {
    /// The list of its segments.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.segments.serialize(serializer)
    }
}

impl Region {
    /// The empty set.
    pub fn new() -> Region {
        Region::default()
    }

    /// The set covered by any of `segments` (in any order, overlapping or not).
    pub fn from_segments(segments: impl IntoIterator<Item = Segment>) -> Region {
        let mut v: Vec<Segment> = segments.into_iter().collect();
        v.sort_unstable();
        Region::from_sorted(v.into_iter(), Delta::ZERO)
    }

    /// Merges segments sorted by start, filling gaps shorter than `fill`.
    pub(crate) fn from_sorted(sorted: impl Iterator<Item = Segment>, fill: Delta) -> Region {
        let mut out: Vec<Segment> = Vec::new();
        for s in sorted {
            match out.last_mut() {
                Some(last) if s.start() - last.end() < fill || s.start() <= last.end() => {
                    if s.end() > last.end() {
                        *last = last.hull(&s);
                    }
                }
                _ => out.push(s),
            }
        }
        Region { segments: out }
    }

    /// A region holding one segment.
    pub fn from_segment(segment: Segment) -> Region {
        Region { segments: vec![segment] }
    }

    /// The disjoint segments, in time order.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Iterates the disjoint segments in time order.
    pub fn iter(&self) -> std::slice::Iter<'_, Segment> {
        self.segments.iter()
    }

    /// Number of disjoint segments.
    pub fn len(&self) -> usize {
        self.segments.len()
    }

    /// Whether the region is empty.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// Total time covered.
    pub fn duration(&self) -> Delta {
        self.segments.iter().map(Segment::duration).sum()
    }

    /// From the first start to the last end.
    pub fn extent(&self) -> Option<Segment> {
        Some(self.segments.first()?.hull(self.segments.last()?))
    }

    /// Whether `t` is in the region (binary search).
    pub fn contains(&self, t: Time) -> bool {
        let i = self.segments.partition_point(|s| s.end() <= t);
        self.segments.get(i).is_some_and(|s| s.contains(t))
    }

    /// Instants in either region.
    ///
    /// ```text
    /// a       [████)      [██)
    /// b          [████)          [█)
    /// a ∪ b   [███████)   [██)   [█)
    /// ```
    pub fn union(&self, other: &Region) -> Region {
        let mut merged = Vec::with_capacity(self.len() + other.len());
        let (mut i, mut j) = (0, 0);
        while i < self.len() || j < other.len() {
            let take_a =
                j >= other.len() || (i < self.len() && self.segments[i] <= other.segments[j]);
            if take_a {
                merged.push(self.segments[i]);
                i += 1;
            } else {
                merged.push(other.segments[j]);
                j += 1;
            }
        }
        Region::from_sorted(merged.into_iter(), Delta::ZERO)
    }

    /// Instants in both regions.
    ///
    /// ```text
    /// a       [████)      [██████)
    /// b          [████)      [█)
    /// a ∩ b      [█)         [█)
    /// ```
    pub fn intersection(&self, other: &Region) -> Region {
        let mut out = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < self.len() && j < other.len() {
            let (a, b) = (self.segments[i], other.segments[j]);
            if let Some(x) = a.intersection(&b) {
                out.push(x);
            }
            if a.end() <= b.end() {
                i += 1;
            } else {
                j += 1;
            }
        }
        Region { segments: out }
    }

    /// Instants in `self` but not in `other`.
    ///
    /// ```text
    /// a       [██████████)
    /// b          [██)  [█████)
    /// a − b   [██)  [██)
    /// ```
    pub fn difference(&self, other: &Region) -> Region {
        let mut out = Vec::new();
        let mut j = 0;
        for a in &self.segments {
            let mut cursor = a.start();
            while j < other.len() && other.segments[j].end() <= a.start() {
                j += 1;
            }
            let mut k = j;
            while k < other.len() && other.segments[k].start() < a.end() {
                let b = other.segments[k];
                if let Some(piece) = Segment::new(cursor, b.start()) {
                    out.push(piece);
                }
                cursor = cursor.max(b.end());
                k += 1;
            }
            if let Some(piece) = Segment::new(cursor, a.end()) {
                out.push(piece);
            }
        }
        Region { segments: out }
    }

    /// The instants of `within` that are not in the region: its gaps, including any before the
    /// first and after the last segment.
    ///
    /// ```text
    /// within  [████████████████)
    /// region     [██)   [██)
    /// gaps    [██)  [███)  [███)
    /// ```
    pub fn complement(&self, within: Segment) -> Region {
        Region::from_segment(within).difference(self)
    }

    /// The gaps between consecutive segments (not before the first or after the last).
    pub fn gaps(&self) -> Region {
        match self.extent() {
            Some(e) => self.complement(e),
            None => Region::new(),
        }
    }

    /// Every segment widened by `by` on each side, then merged (a negative `by` shrinks and may
    /// remove segments).
    ///
    /// ```text
    /// region     [██)  [██)       [█)
    /// widen(1)  [████████)      [███)
    /// ```
    pub fn widen(&self, by: Delta) -> Region {
        Region::from_sorted(self.segments.iter().filter_map(|s| s.widen(by)), Delta::ZERO)
    }

    /// Fills every gap shorter than `gap` (strictly), merging the segments around it.
    ///
    /// ```text
    /// region        [██) [██)      [█)
    /// fill(2)       [███████)      [█)
    /// ```
    pub fn fill_gaps(&self, gap: Delta) -> Region {
        Region::from_sorted(self.segments.iter().copied(), gap)
    }

    /// The part of `segment` inside the region.
    pub fn crop_segment(&self, segment: Segment) -> Region {
        self.intersection(&Region::from_segment(segment))
    }
}

impl<'a> IntoIterator for &'a Region {
    type Item = &'a Segment;
    type IntoIter = std::slice::Iter<'a, Segment>;
    fn into_iter(self) -> Self::IntoIter {
        self.segments.iter()
    }
}

impl FromIterator<Segment> for Region {
    fn from_iter<I: IntoIterator<Item = Segment>>(iter: I) -> Region {
        Region::from_segments(iter)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn s(a: i64, b: i64) -> Segment {
        Segment::from_micros(a, b).unwrap()
    }

    fn r(v: &[(i64, i64)]) -> Region {
        Region::from_segments(v.iter().map(|&(a, b)| s(a, b)))
    }

    #[test]
    fn deserializing_accepts_regions_only() {
        let text = r#"[{"start":0,"end":2},{"start":3,"end":5}]"#;
        let ok: Region = serde_json::from_str(text).unwrap();
        assert_eq!(ok, r(&[(0, 2), (3, 5)]));
        assert_eq!(serde_json::to_string(&ok).unwrap(), text);
        assert_eq!(serde_json::from_str::<Region>("[]").unwrap(), Region::new());
        for (bad, why) in [
            (r#"[{"start":0,"end":3},{"start":3,"end":5}]"#, "touching"),
            (r#"[{"start":0,"end":4},{"start":3,"end":5}]"#, "overlapping"),
            (r#"[{"start":3,"end":5},{"start":0,"end":2}]"#, "unsorted"),
            (r#"[{"start":3,"end":3}]"#, "empty segment"),
        ] {
            assert!(serde_json::from_str::<Region>(bad).is_err(), "{why}");
        }
    }

    /// Membership of every integer instant in [0, 60), the naive model of a region.
    fn bits(region: &Region) -> Vec<bool> {
        (0..60).map(|t| region.contains(Time::from_micros(t))).collect()
    }

    fn arb_region() -> impl Strategy<Value = Region> {
        prop::collection::vec((0i64..55, 1i64..10), 0..8)
            .prop_map(|v| Region::from_segments(v.into_iter().map(|(a, d)| s(a, (a + d).min(60)))))
    }

    #[test]
    fn normalises() {
        assert_eq!(r(&[(5, 9), (0, 5)]).segments(), &[s(0, 9)]);
        assert_eq!(r(&[(0, 3), (1, 2), (4, 6)]).segments(), &[s(0, 3), s(4, 6)]);
        assert_eq!(
            r(&[(0, 3), (5, 6)]).fill_gaps(Delta::from_micros(2)).segments(),
            &[s(0, 3), s(5, 6)]
        );
        assert_eq!(r(&[(0, 3), (5, 6)]).fill_gaps(Delta::from_micros(3)).segments(), &[s(0, 6)]);
        assert_eq!(
            r(&[(2, 3), (5, 6)]).complement(s(0, 10)).segments(),
            &[s(0, 2), s(3, 5), s(6, 10)]
        );
        assert_eq!(r(&[(2, 3), (5, 6)]).gaps().segments(), &[s(3, 5)]);
        assert_eq!(r(&[(2, 3), (5, 6)]).widen(Delta::from_micros(1)).segments(), &[s(1, 7)]);
        assert!(r(&[(2, 4), (6, 7)]).widen(Delta::from_micros(-1)).is_empty());
        assert_eq!(r(&[(2, 5), (6, 7)]).widen(Delta::from_micros(-1)).segments(), &[s(3, 4)]);
    }

    proptest! {
        #[test]
        fn set_operations_match_the_naive_model(a in arb_region(), b in arb_region()) {
            let (x, y) = (bits(&a), bits(&b));
            let u = bits(&a.union(&b));
            let i = bits(&a.intersection(&b));
            let d = bits(&a.difference(&b));
            let c = bits(&a.complement(s(0, 60)));
            for t in 0..60 {
                prop_assert_eq!(u[t], x[t] || y[t]);
                prop_assert_eq!(i[t], x[t] && y[t]);
                prop_assert_eq!(d[t], x[t] && !y[t]);
                prop_assert_eq!(c[t], !x[t]);
            }
            for reg in [a.union(&b), a.intersection(&b), a.difference(&b)] {
                for w in reg.segments().windows(2) {
                    prop_assert!(w[0].end() < w[1].start(), "normalised: {:?}", reg);
                }
            }
            prop_assert_eq!(a.duration().micros(), x.iter().filter(|&&v| v).count() as i64);
        }
    }
}
