//! proptest strategies for model values, shared by the property tests of every crate.

use overtalk::{Annotation, Delta, FrameGrid, Region, Segment, Time};
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

/// A frame grid: the 10 ms grid, or a step of 1 µs to 100 ms (odd steps too, so that both
/// kinds of half are drawn).
pub fn frame_grid() -> impl Strategy<Value = FrameGrid> {
    prop_oneof![
        Just(FrameGrid::TEN_MS),
        (1i64..=100_000).prop_map(|us| FrameGrid::new(Delta::from_micros(us))),
    ]
}

/// A time within ±10⁶ s, negative ones included (a time moved by a collar may be).
pub fn time() -> impl Strategy<Value = Time> {
    (-1_000_000_000_000i64..=1_000_000_000_000).prop_map(Time::from_micros)
}
