//! Properties of the frame grid: frame starts read back to their frame under every rule, and
//! each rule puts the times between two boundaries where its definition says.

use overtalk::{Delta, FrameGrid, Rounding, Time};
use overtalk_testkit::strategies::{frame_grid, time};
use proptest::prelude::*;

const RULES: [Rounding; 3] = [Rounding::Floor, Rounding::Ceil, Rounding::HalfUp];

proptest! {
    #[test]
    fn a_frame_start_is_its_frame(grid in frame_grid(), k in 0usize..10_000_000) {
        for rule in RULES {
            prop_assert_eq!(grid.frame_of(grid.start_of(k), rule), k as i64);
            prop_assert_eq!(grid.index_of(grid.start_of(k), rule), k);
        }
        prop_assert_eq!(grid.end_of(k), grid.start_of(k + 1));
        prop_assert_eq!(grid.start_of(k + 1) - grid.start_of(k), grid.step());
    }

    #[test]
    fn floor_holds_the_time_and_ceil_is_the_next_boundary(grid in frame_grid(), t in time()) {
        let step = grid.step().micros();
        let f = grid.frame_of(t, Rounding::Floor);
        prop_assert!(f * step <= t.micros() && t.micros() < (f + 1) * step);
        let c = grid.frame_of(t, Rounding::Ceil);
        prop_assert_eq!(c, if f * step == t.micros() { f } else { f + 1 });
        prop_assert!((c - 1) * step < t.micros() && t.micros() <= c * step);
    }

    #[test]
    fn half_up_is_the_nearest_boundary(grid in frame_grid(), t in time()) {
        let step = grid.step().micros();
        let n = grid.frame_of(t, Rounding::HalfUp);
        let off = t.micros() - n * step;
        // Within half a step of boundary n; an exact half (even steps) goes up.
        prop_assert!(2 * off < step && -2 * off <= step, "t {t:?} step {step} → {n}");
    }

    #[test]
    fn indices_clamp_at_zero_and_durations_count_alike(
        grid in frame_grid(),
        t in time(),
    ) {
        for rule in RULES {
            let k = grid.frame_of(t, rule);
            prop_assert_eq!(grid.index_of(t, rule) as i64, k.max(0));
            let d = Delta::from_micros(t.micros());
            prop_assert_eq!(grid.frames_in(d, rule), grid.index_of(t, rule));
        }
    }

    #[test]
    fn whole_samples_per_frame(grid in frame_grid(), rate in 1u32..200_000) {
        let exact = grid.step().micros() as i128 * rate as i128;
        match grid.samples_per_frame(rate) {
            Some(n) => prop_assert_eq!(n as i128 * 1_000_000, exact),
            None => prop_assert_ne!(exact % 1_000_000, 0),
        }
    }
}

#[test]
fn the_edges_of_each_rule_on_the_ten_ms_grid() {
    let g = FrameGrid::TEN_MS;
    let at = |us| Time::from_micros(us);
    // Frame 3 is [30 ms, 40 ms).
    assert_eq!(g.frame_of(at(30_000), Rounding::Floor), 3);
    assert_eq!(g.frame_of(at(39_999), Rounding::Floor), 3);
    assert_eq!(g.frame_of(at(40_000), Rounding::Floor), 4);
    assert_eq!(g.frame_of(at(30_000), Rounding::Ceil), 3);
    assert_eq!(g.frame_of(at(30_001), Rounding::Ceil), 4);
    assert_eq!(g.frame_of(at(34_999), Rounding::HalfUp), 3);
    assert_eq!(g.frame_of(at(35_000), Rounding::HalfUp), 4);
    // An odd step has no exact half: 1.5 µs of a 3 µs step lies between 1 and 2 µs.
    let odd = FrameGrid::new(Delta::from_micros(3));
    assert_eq!(odd.frame_of(at(4), Rounding::HalfUp), 1);
    assert_eq!(odd.frame_of(at(5), Rounding::HalfUp), 2);
    assert_eq!(g.samples_per_frame(16_000), Some(160));
    assert_eq!(g.samples_per_frame(48_000), Some(480));
}
