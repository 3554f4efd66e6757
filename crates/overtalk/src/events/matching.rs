//! One-to-one matching of events with an onset tolerance, as sed_eval's event-based metrics
//! with `evaluate_onset=True, evaluate_offset=False`.
//!
//! Two events can match when they have the same class and the same speakers and their onsets
//! differ by at most the tolerance (sed_eval's `t_collar`, inclusive: `|Δ| ≤ t_collar`). Among
//! the candidate pairs a maximum one-to-one matching is taken (sed_eval's default
//! `event_matching_type='optimal'`, a maximum bipartite matching), so the counts of true
//! positives are sed_eval's.
//!
//! ```text
//! tolerance 200 ms, one class, one speaker pair
//! reference      1000        1500                 3000
//! hypothesis       1150   1400  1650                        3400
//! candidates     1000~1150, 1000~(none else), 1500~1400, 1500~1650
//! matching       1000─1150   1500─1400                       (1650 FP, 3000 FN, 3400 FP)
//! ```
//!
//! Within one group every reference onset accepts the hypothesis onsets of a window of the same
//! width around it, so the windows are ordered like their centres. Taking the references in time
//! order and giving each the earliest hypothesis onset left in its window is then a maximum
//! matching (the earliest point of a window is the one later windows need least); the matching
//! is deterministic and prefers the earliest pairs.

/// Matches sorted onsets of one group (same class, same speakers) within `tolerance` (ms):
/// returns the `(reference index, hypothesis index)` pairs of a maximum one-to-one matching.
/// Both slices must be sorted. A tolerance beyond the timeline (up to `i64::MAX`) takes every
/// onset of the group as a candidate: the window is computed saturating, never overflowing.
pub fn match_sorted(reference: &[i64], hypothesis: &[i64], tolerance: i64) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    let mut taken = vec![false; hypothesis.len()];
    let mut lo = 0usize;
    for (i, &r) in reference.iter().enumerate() {
        while lo < hypothesis.len() && hypothesis[lo] < r.saturating_sub(tolerance) {
            lo += 1;
        }
        let mut j = lo;
        while j < hypothesis.len() && hypothesis[j] <= r.saturating_add(tolerance) {
            if !taken[j] {
                taken[j] = true;
                pairs.push((i, j));
                break;
            }
            j += 1;
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_timeline_of_the_module_docs() {
        let r = [1000, 1500, 3000];
        let h = [1150, 1400, 1650, 3400];
        assert_eq!(match_sorted(&r, &h, 200), vec![(0, 0), (1, 1)]);
    }

    #[test]
    fn the_tolerance_is_inclusive() {
        assert_eq!(match_sorted(&[1000], &[1200], 200), vec![(0, 0)]);
        assert_eq!(match_sorted(&[1000], &[800], 200), vec![(0, 0)]);
        assert_eq!(match_sorted(&[1000], &[1201], 200), vec![]);
    }

    #[test]
    fn a_tolerance_beyond_the_timeline_takes_every_onset() {
        let r = [0, 1000, i64::MAX / 2];
        let h = [-5, 3_000_000, i64::MAX];
        assert_eq!(match_sorted(&r, &h, i64::MAX), vec![(0, 0), (1, 1), (2, 2)]);
        assert_eq!(match_sorted(&[i64::MIN + 1], &[i64::MAX], i64::MAX), vec![]);
    }

    #[test]
    fn greedy_in_time_order_is_maximum() {
        // A greedy nearest-first pairing would take 1000─1100 and leave 1250 alone.
        let r = [1000, 1250];
        let h = [900, 1100];
        assert_eq!(match_sorted(&r, &h, 200), vec![(0, 0), (1, 1)]);
    }

    /// Brute force maximum matching size.
    fn brute(r: &[i64], h: &[i64], tol: i64) -> usize {
        fn go(r: &[i64], h: &[i64], tol: i64, i: usize, used: &mut Vec<bool>) -> usize {
            if i == r.len() {
                return 0;
            }
            let mut best = go(r, h, tol, i + 1, used);
            for j in 0..h.len() {
                if !used[j] && (r[i] - h[j]).abs() <= tol {
                    used[j] = true;
                    best = best.max(1 + go(r, h, tol, i + 1, used));
                    used[j] = false;
                }
            }
            best
        }
        go(r, h, tol, 0, &mut vec![false; h.len()])
    }

    proptest::proptest! {
        #[test]
        fn matching_is_maximum(mut r in proptest::collection::vec(0i64..3000, 0..7),
                               mut h in proptest::collection::vec(0i64..3000, 0..7)) {
            r.sort_unstable();
            h.sort_unstable();
            let m = match_sorted(&r, &h, 200);
            proptest::prop_assert_eq!(m.len(), brute(&r, &h, 200));
            for &(i, j) in &m {
                proptest::prop_assert!((r[i] - h[j]).abs() <= 200);
            }
        }
    }
}
