//! Speaker mapping: pairing reference and hypothesis speakers one-to-one.
//!
//! ```text
//!            hyp x   hyp y          co-occurrence (seconds both active)
//! ref A        9.0     1.0          Hungarian: A→x, B→y (total 16.0)
//! ref B        4.0     7.0          greedy:    A→x, B→y
//! ```
//!
//! Pairs that never co-occur are never mapped (md-eval, pyannote). The Hungarian solver is the
//! shortest-augmenting-path form of the Kuhn–Munkres algorithm, `O(n² m)` for `n ≤ m`.

use super::options::MappingMethod;

/// Assignment minimising the total cost of a rectangular matrix (`rows[i][j]`): for each row,
/// the column it gets (every row gets one when there are at least as many columns as rows).
/// Non-finite costs are treated as very large.
pub fn min_cost_assignment(cost: &[Vec<f64>]) -> Vec<Option<usize>> {
    let n = cost.len();
    let m = cost.iter().map(Vec::len).max().unwrap_or(0);
    if n == 0 || m == 0 {
        return vec![None; n];
    }
    let at = |i: usize, j: usize| -> f64 {
        let c = cost[i].get(j).copied().unwrap_or(f64::MAX / 4.0);
        if c.is_finite() {
            c
        } else {
            f64::MAX / 4.0
        }
    };
    if n > m {
        // Solve the transpose and invert.
        let t: Vec<Vec<f64>> = (0..m).map(|j| (0..n).map(|i| at(i, j)).collect()).collect();
        let cols = min_cost_assignment(&t);
        let mut out = vec![None; n];
        for (j, i) in cols.into_iter().enumerate() {
            if let Some(i) = i {
                out[i] = Some(j);
            }
        }
        return out;
    }
    // 1-based potentials; p[j] = row matched to column j (0 = none).
    let inf = f64::INFINITY;
    let mut u = vec![0.0f64; n + 1];
    let mut v = vec![0.0f64; m + 1];
    let mut p = vec![0usize; m + 1];
    let mut way = vec![0usize; m + 1];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0usize;
        let mut minv = vec![inf; m + 1];
        let mut used = vec![false; m + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = inf;
            let mut j1 = 0usize;
            for j in 1..=m {
                if !used[j] {
                    let cur = at(i0 - 1, j - 1) - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            if j1 == 0 {
                break;
            }
            for j in 0..=m {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let mut out = vec![None; n];
    for j in 1..=m {
        if p[j] != 0 {
            out[p[j] - 1] = Some(j - 1);
        }
    }
    out
}

/// Maps reference speakers (rows) to hypothesis speakers (columns) from a co-occurrence
/// matrix in microseconds. Pairs with zero co-occurrence are left unmapped.
pub fn map_speakers(cooccurrence: &[Vec<i64>], method: MappingMethod) -> Vec<Option<usize>> {
    let n = cooccurrence.len();
    let mapping = match method {
        MappingMethod::Hungarian => {
            let cost: Vec<Vec<f64>> =
                cooccurrence.iter().map(|row| row.iter().map(|&c| -(c as f64)).collect()).collect();
            min_cost_assignment(&cost)
        }
        MappingMethod::Greedy => greedy(cooccurrence),
    };
    (0..n).map(|i| mapping[i].filter(|&j| cooccurrence[i].get(j).is_some_and(|&c| c > 0))).collect()
}

/// Pairs in decreasing co-occurrence (ties by reference, then hypothesis index), each speaker
/// used at most once.
fn greedy(cooccurrence: &[Vec<i64>]) -> Vec<Option<usize>> {
    let n = cooccurrence.len();
    let mut pairs: Vec<(i64, usize, usize)> = Vec::new();
    for (i, row) in cooccurrence.iter().enumerate() {
        for (j, &c) in row.iter().enumerate() {
            if c > 0 {
                pairs.push((c, i, j));
            }
        }
    }
    pairs.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let m = cooccurrence.iter().map(Vec::len).max().unwrap_or(0);
    let mut out = vec![None; n];
    let mut taken = vec![false; m];
    for (_, i, j) in pairs {
        if out[i].is_none() && !taken[j] {
            out[i] = Some(j);
            taken[j] = true;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn brute_max(m: &[Vec<i64>]) -> i64 {
        // Best total over all partial injections rows → columns.
        fn go(m: &[Vec<i64>], i: usize, used: &mut Vec<bool>) -> i64 {
            if i == m.len() {
                return 0;
            }
            let mut best = go(m, i + 1, used);
            for j in 0..used.len() {
                if !used[j] {
                    used[j] = true;
                    best = best.max(m[i][j] + go(m, i + 1, used));
                    used[j] = false;
                }
            }
            best
        }
        let cols = m.first().map_or(0, Vec::len);
        go(m, 0, &mut vec![false; cols])
    }

    fn total(m: &[Vec<i64>], map: &[Option<usize>]) -> i64 {
        map.iter().enumerate().filter_map(|(i, j)| j.map(|j| m[i][j])).sum()
    }

    #[test]
    fn hungarian_beats_greedy_on_the_classic_trap() {
        // Greedy takes A→x (10) and is left with B→y (1); optimal is A→y, B→x (9 + 9).
        let m = vec![vec![10, 9], vec![9, 1]];
        assert_eq!(map_speakers(&m, MappingMethod::Hungarian), vec![Some(1), Some(0)]);
        assert_eq!(map_speakers(&m, MappingMethod::Greedy), vec![Some(0), Some(1)]);
    }

    #[test]
    fn zero_cooccurrence_is_never_mapped() {
        let m = vec![vec![5, 0], vec![0, 0], vec![0, 3]];
        assert_eq!(map_speakers(&m, MappingMethod::Hungarian), vec![Some(0), None, Some(1)]);
        assert_eq!(map_speakers(&[], MappingMethod::Hungarian), Vec::<Option<usize>>::new());
        assert_eq!(map_speakers(&[vec![], vec![]], MappingMethod::Greedy), vec![None, None]);
    }

    proptest! {
        #[test]
        fn hungarian_is_optimal(rows in 1usize..5, cols in 1usize..5, seed in proptest::collection::vec(0i64..50, 25)) {
            let m: Vec<Vec<i64>> = (0..rows).map(|i| (0..cols).map(|j| seed[i * 5 + j]).collect()).collect();
            let map = map_speakers(&m, MappingMethod::Hungarian);
            prop_assert_eq!(total(&m, &map), brute_max(&m));
            let mut seen = std::collections::HashSet::new();
            for j in map.iter().flatten() { prop_assert!(seen.insert(*j)); }
        }
    }
}
