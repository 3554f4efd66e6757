//! proptest strategies for model values, shared by the property tests of every crate.

use overtalk::{Annotation, Region, Segment};
use proptest::prelude::*;

/// Up to `max_turns` turns of the speakers `labels` in 0–20 s, on a 100 µs grid, each
/// 100 µs to 6 s long; turns of one speaker may overlap (the annotation merges them).
pub fn annotation(
    labels: &'static [&'static str],
    max_turns: usize,
) -> impl Strategy<Value = Annotation> {
    proptest::collection::vec((0i64..200_000, 1i64..60_000, 0..labels.len()), 0..max_turns)
        .prop_map(move |turns| {
            Annotation::from_labelled(turns.into_iter().filter_map(|(start, dur, k)| {
                Some((Segment::from_micros(start * 100, (start + dur) * 100)?, labels[k]))
            }))
        })
}

/// A region of up to `max_segments` segments in 0–20 s on a 1 ms grid (overlapping or
/// touching draws are merged, so the region has fewer segments than drawn).
pub fn region(max_segments: usize) -> impl Strategy<Value = Region> {
    proptest::collection::vec((0i64..20_000, 1i64..3_000), 0..max_segments).prop_map(|draws| {
        Region::from_segments(
            draws.into_iter().filter_map(|(start, dur)| Segment::from_millis(start, start + dur)),
        )
    })
}
