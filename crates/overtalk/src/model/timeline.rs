//! [`Timeline`]: a sorted list of segments that may overlap or repeat.

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::model::{Region, Segment};
use crate::time::{Delta, Time};

/// How [`Timeline::crop`] treats segments that cross the border of the focus region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum CropMode {
    /// Keep only segments entirely inside the focus.
    Strict,
    /// Keep every segment that intersects the focus, untrimmed.
    Loose,
    /// Keep the parts of segments inside the focus (the default).
    #[default]
    Intersection,
}

/// Segments sorted by `(start, end)`, overlapping or repeated ones kept.
///
/// ```text
/// timeline  [████)
///              [██████)
///                        [██)
/// ```
///
/// One speaker's turns, or every turn of a conversation without labels, are timelines; their
/// [`support`](Timeline::support) is a [`Region`].
///
/// Serialized as the list of its segments; deserializing checks that they are in `(start, end)`
/// order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(try_from = "Vec<Segment>")]
pub struct Timeline {
    segments: Vec<Segment>,
}

impl TryFrom<Vec<Segment>> for Timeline {
    type Error = Error;

    /// The timeline of these segments if they are in `(start, end)` order (overlaps allowed).
    fn try_from(segments: Vec<Segment>) -> Result<Timeline, Error> {
        if let Some(i) = segments.windows(2).position(|w| w[0] > w[1]) {
            return Err(Error::invalid(format!(
                "timeline segments {} and {} ({} then {}) are out of order",
                i,
                i + 1,
                segments[i],
                segments[i + 1]
            )));
        }
        Ok(Timeline { segments })
    }
}

impl Serialize for Timeline {
    /// The list of its segments.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.segments.serialize(serializer)
    }
}

impl Timeline {
    /// An empty timeline.
    pub fn new() -> Timeline {
        Timeline::default()
    }

    /// A timeline of `segments`, sorted.
    pub fn from_segments(segments: impl IntoIterator<Item = Segment>) -> Timeline {
        let mut segments: Vec<Segment> = segments.into_iter().collect();
        segments.sort_unstable();
        Timeline { segments }
    }

    /// The segments in `(start, end)` order.
    pub fn segments(&self) -> &[Segment] {
        &self.segments
    }

    /// Iterates the segments in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Segment> {
        self.segments.iter()
    }

    /// Number of segments.
    pub fn len(&self) -> usize {
        self.segments.len()
    }

    /// Whether there are no segments.
    pub fn is_empty(&self) -> bool {
        self.segments.is_empty()
    }

    /// Sum of the segment durations: overlapping time counted once per segment that covers it.
    ///
    /// ```text
    /// timeline  [████)            4
    ///              [██████)       6
    /// sum       10                (the support is 7: `support().duration()`)
    /// ```
    ///
    /// Not named `duration`: pyannote's `Timeline.duration()` is the duration of the support.
    pub fn sum_of_durations(&self) -> Delta {
        self.segments.iter().map(Segment::duration).sum()
    }

    /// From the earliest start to the latest end.
    ///
    /// ```text
    /// timeline  [████)      [█)
    ///              [██████)
    /// extent    [████████████)
    /// ```
    pub fn extent(&self) -> Option<Segment> {
        let first = self.segments.first()?;
        let end = self.segments.iter().map(|s| s.end()).max()?;
        Segment::new(first.start(), end)
    }

    /// The time covered by at least one segment.
    ///
    /// ```text
    /// timeline  [████)      [██)
    ///              [██████)
    /// support   [█████████) [██)
    /// ```
    pub fn support(&self) -> Region {
        Region::from_sorted(self.segments.iter().copied(), Delta::ZERO)
    }

    /// The support with every gap shorter than `collar` (strictly) filled.
    ///
    /// ```text
    /// timeline          [███)  [██)        [█)
    /// support(collar=3) [█████████)        [█)      (gap of 2 filled, gap of 8 kept)
    /// ```
    pub fn support_with_collar(&self, collar: Delta) -> Region {
        Region::from_sorted(self.segments.iter().copied(), collar)
    }

    /// The silences between segments inside `within` (inside the extent when `None`).
    ///
    /// ```text
    /// timeline  [███)     [██)
    ///              [██)          [█)
    /// gaps           [████)  [███)
    /// ```
    pub fn gaps(&self, within: Option<Segment>) -> Region {
        match within.or_else(|| self.extent()) {
            Some(w) => self.support().complement(w),
            None => Region::new(),
        }
    }

    /// The segments as seen through `focus`.
    ///
    /// ```text
    /// focus                 [██████████████)
    /// timeline          [████)   [███)   [██████)
    /// Strict                     [███)
    /// Loose             [████)   [███)   [██████)
    /// Intersection          [)   [███)   [█)        (the parts inside)
    /// ```
    pub fn crop(&self, focus: &Region, mode: CropMode) -> Timeline {
        let mut out = Vec::new();
        for s in &self.segments {
            let parts = focus.crop_segment(*s);
            match mode {
                CropMode::Strict => {
                    if parts.len() == 1 && parts.segments()[0] == *s {
                        out.push(*s);
                    }
                }
                CropMode::Loose => {
                    if !parts.is_empty() {
                        out.push(*s);
                    }
                }
                CropMode::Intersection => out.extend(parts.iter().copied()),
            }
        }
        Timeline::from_segments(out)
    }

    /// The segments with `removed` taken out: a crop to the complement of `removed`.
    ///
    /// ```text
    /// removed              [████)
    /// timeline          [████)   [█)   [██)
    /// Strict                     [█)   [██)
    /// Loose             [████)   [█)   [██)
    /// Intersection      [██)     [█)   [██)
    /// ```
    pub fn extrude(&self, removed: &Region, mode: CropMode) -> Timeline {
        let Some(extent) = self.extent() else { return Timeline::new() };
        let keep = removed.complement(extent);
        self.crop(&keep, mode)
    }

    /// The elementary pieces between every start and end, where at least one segment is active.
    ///
    /// ```text
    /// timeline      [██████)
    ///                  [██████)
    /// segmentation  [██)[██)[█)
    /// ```
    pub fn segmentation(&self) -> Vec<Segment> {
        let mut bounds: Vec<Time> =
            self.segments.iter().flat_map(|s| [s.start(), s.end()]).collect();
        bounds.sort_unstable();
        bounds.dedup();
        let support = self.support();
        bounds
            .windows(2)
            .filter_map(|w| Segment::new(w[0], w[1]))
            .filter(|p| support.contains(p.start()))
            .collect()
    }

    /// The time covered by two or more segments.
    ///
    /// ```text
    /// timeline  [██████)   [█)
    ///              [██████)[█)
    /// overlap      [███)   [█)
    /// ```
    pub fn overlap(&self) -> Region {
        let mut out = Vec::new();
        let mut reach = Time::from_micros(i64::MIN);
        for s in &self.segments {
            if s.start() < reach {
                if let Some(x) = Segment::new(s.start(), s.end().min(reach)) {
                    out.push(x);
                }
            }
            reach = reach.max(s.end());
        }
        Region::from_segments(out)
    }

    /// Every pair `(a, b)` with `a` from `self`, `b` from `other` and `a ∩ b` non-empty, in
    /// order of `a` then `b` (a sweep, O((n + m) log + pairs)).
    ///
    /// ```text
    /// self    [████)    [██)
    /// other      [██████)     → (a0, b0) only; a1 touches b0
    /// ```
    pub fn co_iter<'a>(&'a self, other: &'a Timeline) -> Vec<(Segment, Segment)> {
        let mut out = Vec::new();
        // `other` is sorted by start; a segment of `other` can still intersect a later `a` as
        // long as its end is beyond that `a`'s start, so keep a window of candidates.
        let mut first = 0;
        let mut max_end_prefix: Vec<Time> = Vec::with_capacity(other.len());
        let mut m = Time::from_micros(i64::MIN);
        for b in &other.segments {
            m = m.max(b.end());
            max_end_prefix.push(m);
        }
        for a in &self.segments {
            // Skip b's that end before a starts and cannot matter for any later a either:
            // only safe while every b before `first` ends by a.start (prefix max).
            while first < other.len() && max_end_prefix[first] <= a.start() {
                first += 1;
            }
            for b in &other.segments[first..] {
                if b.start() >= a.end() {
                    break;
                }
                if a.intersects(b) {
                    out.push((*a, *b));
                }
            }
        }
        out
    }
}

impl FromIterator<Segment> for Timeline {
    fn from_iter<I: IntoIterator<Item = Segment>>(iter: I) -> Timeline {
        Timeline::from_segments(iter)
    }
}

impl<'a> IntoIterator for &'a Timeline {
    type Item = &'a Segment;
    type IntoIter = std::slice::Iter<'a, Segment>;
    fn into_iter(self) -> Self::IntoIter {
        self.segments.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn s(a: i64, b: i64) -> Segment {
        Segment::from_micros(a, b).unwrap()
    }

    #[test]
    fn deserializing_accepts_sorted_timelines_only() {
        let text = r#"[{"start":0,"end":4},{"start":0,"end":5},{"start":3,"end":5}]"#;
        let ok: Timeline = serde_json::from_str(text).unwrap();
        assert_eq!(ok, Timeline::from_segments([s(3, 5), s(0, 5), s(0, 4)]));
        assert_eq!(serde_json::to_string(&ok).unwrap(), text);
        let err = serde_json::from_str::<Timeline>(r#"[{"start":3,"end":5},{"start":0,"end":2}]"#)
            .unwrap_err()
            .to_string();
        assert!(err.contains("timeline segments 0 and 1"), "{err}");
        assert!(serde_json::from_str::<Timeline>(r#"[{"start":2,"end":1}]"#).is_err());
    }

    fn arb_timeline() -> impl Strategy<Value = Timeline> {
        prop::collection::vec((0i64..55, 1i64..12), 0..10).prop_map(|v| {
            Timeline::from_segments(v.into_iter().map(|(a, d)| s(a, (a + d).min(60))))
        })
    }

    fn count_at(t: &Timeline, x: i64) -> usize {
        t.iter().filter(|s| s.contains(Time::from_micros(x))).count()
    }

    #[test]
    fn examples_from_the_docs() {
        let t = Timeline::from_segments([s(0, 5), s(3, 10), s(12, 14)]);
        assert_eq!(t.extent(), Some(s(0, 14)));
        assert_eq!(t.support().segments(), &[s(0, 10), s(12, 14)]);
        assert_eq!(t.support_with_collar(Delta::from_micros(3)).segments(), &[s(0, 14)]);
        assert_eq!(t.support_with_collar(Delta::from_micros(2)).segments(), &[s(0, 10), s(12, 14)]);
        assert_eq!(t.gaps(None).segments(), &[s(10, 12)]);
        assert_eq!(t.overlap().segments(), &[s(3, 5)]);
        assert_eq!(t.segmentation(), vec![s(0, 3), s(3, 5), s(5, 10), s(12, 14)]);
        let focus = Region::from_segment(s(4, 13));
        assert_eq!(t.crop(&focus, CropMode::Strict).segments(), &[] as &[Segment]);
        assert_eq!(t.crop(&focus, CropMode::Loose).segments(), t.segments());
        assert_eq!(
            t.crop(&focus, CropMode::Intersection).segments(),
            &[s(4, 5), s(4, 10), s(12, 13)]
        );
        let removed = Region::from_segment(s(4, 11));
        assert_eq!(
            t.extrude(&removed, CropMode::Intersection).segments(),
            &[s(0, 4), s(3, 4), s(12, 14)]
        );
        assert_eq!(t.extrude(&removed, CropMode::Strict).segments(), &[s(12, 14)]);
    }

    proptest! {
        #[test]
        fn support_is_idempotent_and_bounded(t in arb_timeline()) {
            let sup = t.support();
            prop_assert_eq!(Timeline::from_segments(sup.iter().copied()).support(), sup.clone());
            prop_assert!(sup.duration() <= t.sum_of_durations());
            for x in 0..60 {
                prop_assert_eq!(sup.contains(Time::from_micros(x)), count_at(&t, x) > 0);
                prop_assert_eq!(t.overlap().contains(Time::from_micros(x)), count_at(&t, x) > 1);
            }
        }

        #[test]
        fn crop_and_extrude_split_the_time(t in arb_timeline(), a in 0i64..50, d in 1i64..20) {
            let focus = Region::from_segment(s(a, a + d));
            let kept = t.crop(&focus, CropMode::Intersection);
            let rest = t.extrude(&focus, CropMode::Intersection);
            prop_assert_eq!(kept.sum_of_durations() + rest.sum_of_durations(), t.sum_of_durations());
        }

        #[test]
        fn co_iter_equals_the_naive_pairs(a in arb_timeline(), b in arb_timeline()) {
            let mut naive = Vec::new();
            for x in a.iter() {
                for y in b.iter() {
                    if x.intersects(y) {
                        naive.push((*x, *y));
                    }
                }
            }
            prop_assert_eq!(a.co_iter(&b), naive);
        }

        #[test]
        fn segmentation_tiles_the_support(t in arb_timeline()) {
            let pieces = t.segmentation();
            prop_assert_eq!(Region::from_segments(pieces.iter().copied()), t.support());
            for p in &pieces {
                let n = count_at(&t, p.start().micros());
                for x in p.start().micros()..p.end().micros() {
                    prop_assert_eq!(count_at(&t, x), n);
                }
            }
        }
    }
}
