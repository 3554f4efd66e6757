//! Turn-level measures of a mixed-track diarization against a reference: where speaker changes
//! land, how short the segments get, the floor transfer offsets, whether short turns survive,
//! and the speaker count. DER says how many frames are wrong; these say *which* frames, in
//! the terms a conversation analysis reads (who took the floor when, after how long a gap).
//!
//! Definitions (all times in seconds; hypothesis speakers are first mapped one-to-one onto
//! reference speakers by the scorer's Hungarian mapping on co-active time):
//!
//! - **Segments**: each speaker's segments, with overlapping or touching ones joined.
//! - **Turns**: the segments of all speakers in order of start; consecutive segments of one
//!   speaker join into one turn (a pause inside a turn is not a floor transfer). A turn that
//!   ends before the turn in progress ends (a backchannel inside someone else's turn) is
//!   *embedded*: it counts for short-turn recall but does not take the floor.
//! - **Floor transfer**: two consecutive floor-taking turns of different speakers. Its
//!   offset (FTO) is the next start minus the previous end: positive for a gap, negative for
//!   overlap.
//!
//!   ```text
//!   A  [=======)                  FTO = s_B − e_A > 0 (a gap)
//!   B             [=======)
//!          e_A ──►|<─ gap ─>|◄── s_B
//!   ```
//! - **Boundary error at a true change**: for each reference transfer A→B with an FTO of at
//!   most [`MAX_CHANGE_GAP`], the hypothesis transfer of the mapped pair whose end and start
//!   are both within [`MATCH_TOLERANCE`] of the reference's (the closest one). Both of its
//!   boundaries are compared: `|e_hyp − e_ref|` and `|s_hyp − s_ref|`. Reference changes with
//!   no such hypothesis transfer are counted as unmatched (the median is over matched ones).
//! - **Short segments**: hypothesis segments shorter than [`SHORT_SEGMENT`]; one is *in the
//!   reference* when a reference segment of the mapped speaker shorter than that overlaps it.
//! - **Short-turn recall**: reference turns (embedded ones included) lasting 0.3–0.7 s; one is
//!   found when the mapped hypothesis speaker covers at least half of it.

use std::collections::BTreeMap;

/// Speaker-labelled segments `(label, start, end)` in seconds.
pub type Turns = Vec<(String, f64, f64)>;

/// Segments shorter than this (seconds) are counted as fragments.
pub const SHORT_SEGMENT: f64 = 0.1;
/// A reference transfer with a longer gap than this (seconds) is not a "speaker change" for
/// the boundary error (the floor was free).
pub const MAX_CHANGE_GAP: f64 = 2.0;
/// A hypothesis boundary further than this (seconds) from the reference's does not match it.
pub const MATCH_TOLERANCE: f64 = 1.0;
/// The range of turn durations (seconds) whose recall is measured.
pub const SHORT_TURN: (f64, f64) = (0.3, 0.7);

/// The turn-level measures of one hypothesis against one reference.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TurnMetrics {
    /// Reference speaker changes (transfers with FTO ≤ [`MAX_CHANGE_GAP`]).
    pub changes: usize,
    /// Of those, changes matched by a hypothesis transfer of the mapped pair.
    pub matched: usize,
    /// Absolute boundary errors of the matched changes (two per change), seconds.
    pub boundary_errors: Vec<f64>,
    /// Signed boundary errors (hypothesis − reference; positive = late), seconds.
    pub boundary_signed: Vec<f64>,
    /// Hypothesis segments shorter than [`SHORT_SEGMENT`].
    pub short_segments: usize,
    /// Of those, segments overlapping a reference segment of the mapped speaker shorter than
    /// [`SHORT_SEGMENT`].
    pub short_in_reference: usize,
    /// Reference segments shorter than [`SHORT_SEGMENT`].
    pub reference_short_segments: usize,
    /// Floor transfer offsets of the reference, seconds.
    pub fto_reference: Vec<f64>,
    /// Floor transfer offsets of the hypothesis, seconds.
    pub fto_hypothesis: Vec<f64>,
    /// Reference turns lasting [`SHORT_TURN`].
    pub short_turns: usize,
    /// Of those, turns the mapped hypothesis speaker covers at least half of.
    pub short_turns_found: usize,
    /// Short reference turns that take the floor (not embedded in another's turn): the ones
    /// a diarization with one speaker per frame can find.
    pub short_floor_turns: usize,
    /// Of those, turns found.
    pub short_floor_found: usize,
    /// Speakers in the reference.
    pub reference_speakers: usize,
    /// Speakers in the hypothesis.
    pub hypothesis_speakers: usize,
}

/// The median of `v` (the mean of the two middle values for an even count); `None` if empty.
pub fn median(v: &[f64]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    Some(if n % 2 == 1 { s[n / 2] } else { 0.5 * (s[n / 2 - 1] + s[n / 2]) })
}

impl TurnMetrics {
    /// Median absolute boundary error at matched true changes.
    pub fn boundary_median(&self) -> Option<f64> {
        median(&self.boundary_errors)
    }
    /// Median signed boundary error (positive: the hypothesis is late).
    pub fn boundary_signed_median(&self) -> Option<f64> {
        median(&self.boundary_signed)
    }
    /// Hypothesis fragments not explained by the reference.
    pub fn short_not_in_reference(&self) -> usize {
        self.short_segments - self.short_in_reference
    }
    /// Short-turn recall (1 when there is no short turn).
    pub fn short_turn_recall(&self) -> f64 {
        if self.short_turns == 0 {
            1.0
        } else {
            self.short_turns_found as f64 / self.short_turns as f64
        }
    }
    /// Recall of the floor-taking short turns (1 when there is none).
    pub fn short_floor_recall(&self) -> f64 {
        if self.short_floor_turns == 0 {
            1.0
        } else {
            self.short_floor_found as f64 / self.short_floor_turns as f64
        }
    }
    /// Adds another file's measures (lists are concatenated, counts added; the speaker counts
    /// are summed too, so pooled they mean little).
    pub fn add(&mut self, o: &TurnMetrics) {
        self.changes += o.changes;
        self.matched += o.matched;
        self.boundary_errors.extend(&o.boundary_errors);
        self.boundary_signed.extend(&o.boundary_signed);
        self.short_segments += o.short_segments;
        self.short_in_reference += o.short_in_reference;
        self.reference_short_segments += o.reference_short_segments;
        self.fto_reference.extend(&o.fto_reference);
        self.fto_hypothesis.extend(&o.fto_hypothesis);
        self.short_turns += o.short_turns;
        self.short_turns_found += o.short_turns_found;
        self.short_floor_turns += o.short_floor_turns;
        self.short_floor_found += o.short_floor_found;
        self.reference_speakers += o.reference_speakers;
        self.hypothesis_speakers += o.hypothesis_speakers;
    }
    /// One line: changes matched, median |error| and signed error in ms, fragments, FTO
    /// medians in ms, short-turn recall, speaker counts.
    pub fn summary(&self) -> String {
        let ms = |x: Option<f64>| x.map_or("-".to_owned(), |v| format!("{:.0}", v * 1000.0));
        format!(
            "changes {}/{} matched, |err| median {} ms (signed {} ms); segments <100 ms {} ({} not in ref; ref has {}); FTO median ref {} / hyp {} ms; short turns {}/{} = {:.2} (floor-taking {}/{} = {:.2}); speakers ref {} hyp {}",
            self.matched,
            self.changes,
            ms(self.boundary_median()),
            ms(self.boundary_signed_median()),
            self.short_segments,
            self.short_not_in_reference(),
            self.reference_short_segments,
            ms(median(&self.fto_reference)),
            ms(median(&self.fto_hypothesis)),
            self.short_turns_found,
            self.short_turns,
            self.short_turn_recall(),
            self.short_floor_found,
            self.short_floor_turns,
            self.short_floor_recall(),
            self.reference_speakers,
            self.hypothesis_speakers,
        )
    }
}

/// Each speaker's segments, overlapping or touching ones joined, by speaker name.
fn joined(t: &[(String, f64, f64)]) -> BTreeMap<String, Vec<(f64, f64)>> {
    let mut by: BTreeMap<String, Vec<(f64, f64)>> = BTreeMap::new();
    for (n, a, b) in t {
        if b > a {
            by.entry(n.clone()).or_default().push((*a, *b));
        }
    }
    for v in by.values_mut() {
        v.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut out: Vec<(f64, f64)> = Vec::with_capacity(v.len());
        for &(a, b) in v.iter() {
            match out.last_mut() {
                Some(l) if a <= l.1 + 1e-9 => l.1 = l.1.max(b),
                _ => out.push((a, b)),
            }
        }
        *v = out;
    }
    by
}

/// A turn: speaker index, start, end, and whether it is embedded in another's turn.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Turn {
    speaker: usize,
    start: f64,
    end: f64,
    embedded: bool,
}

/// The turns of joined segments (see the module documentation).
///
/// ```text
/// A  [=====)  [===)          [=====)
/// B                 [====)      [=)
/// turns  A──────────A B────B A─────A      B's second segment ends inside A's last turn:
///                                         embedded (no floor transfer to it)
/// ```
fn turns(segs: &[Vec<(f64, f64)>]) -> Vec<Turn> {
    let mut all: Vec<(f64, f64, usize)> =
        segs.iter().enumerate().flat_map(|(k, v)| v.iter().map(move |&(a, b)| (a, b, k))).collect();
    all.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.2.cmp(&y.2)));
    let mut out: Vec<Turn> = Vec::new();
    // Index in `out` of the floor-taking turn in progress.
    let mut floor: Option<usize> = None;
    for (a, b, k) in all {
        if let Some(f) = floor {
            if out[f].speaker == k {
                out[f].end = out[f].end.max(b);
                continue;
            }
            if b <= out[f].end {
                out.push(Turn { speaker: k, start: a, end: b, embedded: true });
                continue;
            }
        }
        out.push(Turn { speaker: k, start: a, end: b, embedded: false });
        floor = Some(out.len() - 1);
    }
    out
}

/// Floor transfers `(from, to, end of from, start of to)` between consecutive floor-taking
/// turns of different speakers.
fn transfers(t: &[Turn]) -> Vec<(usize, usize, f64, f64)> {
    let floor: Vec<&Turn> = t.iter().filter(|x| !x.embedded).collect();
    floor
        .windows(2)
        .filter(|w| w[0].speaker != w[1].speaker)
        .map(|w| (w[0].speaker, w[1].speaker, w[0].end, w[1].start))
        .collect()
}

/// Total time two sorted lists of disjoint intervals share.
fn shared(a: &[(f64, f64)], b: &[(f64, f64)]) -> f64 {
    let (mut i, mut j, mut s) = (0, 0, 0.0);
    while i < a.len() && j < b.len() {
        let lo = a[i].0.max(b[j].0);
        let hi = a[i].1.min(b[j].1);
        if hi > lo {
            s += hi - lo;
        }
        if a[i].1 < b[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    s
}

/// The turn-level measures of `hypothesis` against `reference` (see the module
/// documentation for every definition).
pub fn turn_metrics(
    reference: &[(String, f64, f64)],
    hypothesis: &[(String, f64, f64)],
) -> TurnMetrics {
    let r = joined(reference);
    let h = joined(hypothesis);
    let rs: Vec<Vec<(f64, f64)>> = r.values().cloned().collect();
    let hs: Vec<Vec<(f64, f64)>> = h.values().cloned().collect();
    // Map hypothesis speakers onto reference speakers (Hungarian on shared time, ms).
    let w: Vec<Vec<i64>> = rs
        .iter()
        .map(|a| hs.iter().map(|b| (shared(a, b) * 1000.0).round() as i64).collect())
        .collect();
    let map = if rs.is_empty() || hs.is_empty() {
        vec![None; rs.len()]
    } else {
        overtalk::score::mapping::map_speakers(
            &w,
            overtalk::score::options::MappingMethod::Hungarian,
        )
    };
    // Hypothesis speaker j → reference index (unmapped ones get indices past the reference).
    let mut to_ref: Vec<usize> = (0..hs.len()).map(|j| rs.len() + j).collect();
    for (i, m) in map.iter().enumerate() {
        if let Some(j) = m {
            to_ref[*j] = i;
        }
    }
    let mut hs_mapped: Vec<Vec<(f64, f64)>> = vec![Vec::new(); rs.len() + hs.len()];
    for (j, v) in hs.iter().enumerate() {
        hs_mapped[to_ref[j]] = v.clone();
    }

    let mut m = TurnMetrics {
        reference_speakers: rs.len(),
        hypothesis_speakers: hs.len(),
        ..TurnMetrics::default()
    };
    let rt = turns(&rs);
    let ht = turns(&hs_mapped);
    let rx = transfers(&rt);
    let hx = transfers(&ht);
    m.fto_reference = rx.iter().map(|x| x.3 - x.2).collect();
    m.fto_hypothesis = hx.iter().map(|x| x.3 - x.2).collect();
    for &(a, b, e, s) in rx.iter().filter(|x| x.3 - x.2 <= MAX_CHANGE_GAP) {
        m.changes += 1;
        let best = hx
            .iter()
            .filter(|x| x.0 == a && x.1 == b)
            .filter(|x| (x.2 - e).abs() <= MATCH_TOLERANCE && (x.3 - s).abs() <= MATCH_TOLERANCE)
            .min_by(|x, y| {
                let dx = (x.2 - e).abs() + (x.3 - s).abs();
                let dy = (y.2 - e).abs() + (y.3 - s).abs();
                dx.total_cmp(&dy)
            });
        if let Some(x) = best {
            m.matched += 1;
            m.boundary_errors.extend([(x.2 - e).abs(), (x.3 - s).abs()]);
            m.boundary_signed.extend([x.2 - e, x.3 - s]);
        }
    }
    // Fragments.
    let short = |v: &[(f64, f64)]| -> Vec<(f64, f64)> {
        v.iter().copied().filter(|x| x.1 - x.0 < SHORT_SEGMENT - 1e-9).collect()
    };
    m.reference_short_segments = rs.iter().map(|v| short(v).len()).sum();
    for (k, v) in hs_mapped.iter().enumerate() {
        let rshort = rs.get(k).map(|x| short(x)).unwrap_or_default();
        for x in short(v) {
            m.short_segments += 1;
            if rshort.iter().any(|y| y.0 < x.1 && x.0 < y.1) {
                m.short_in_reference += 1;
            }
        }
    }
    // Short turns.
    for t in &rt {
        let d = t.end - t.start;
        if d + 1e-9 < SHORT_TURN.0 || d > SHORT_TURN.1 + 1e-9 {
            continue;
        }
        let found = shared(&hs_mapped[t.speaker], &[(t.start, t.end)]) >= 0.5 * d;
        m.short_turns += 1;
        m.short_turns_found += usize::from(found);
        if !t.embedded {
            m.short_floor_turns += 1;
            m.short_floor_found += usize::from(found);
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(v: &[(&str, f64, f64)]) -> Turns {
        v.iter().map(|(n, a, b)| (n.to_string(), *a, *b)).collect()
    }

    #[test]
    fn a_perfect_hypothesis_has_no_error() {
        let r = t(&[("A", 0.0, 2.0), ("B", 2.3, 2.8), ("A", 3.0, 6.0), ("B", 6.0, 6.05)]);
        let h = t(&[("x", 0.0, 2.0), ("y", 2.3, 2.8), ("x", 3.0, 6.0), ("y", 6.0, 6.05)]);
        let m = turn_metrics(&r, &h);
        assert_eq!((m.changes, m.matched), (3, 3));
        assert_eq!(m.boundary_median(), Some(0.0));
        assert_eq!((m.short_segments, m.short_in_reference, m.reference_short_segments), (1, 1, 1));
        assert_eq!(m.short_turns, 1);
        assert_eq!(m.short_turns_found, 1);
        assert_eq!(median(&m.fto_reference).map(|x| (x * 1000.0).round()), Some(200.0));
        assert_eq!(m.fto_reference, m.fto_hypothesis);
        assert_eq!((m.reference_speakers, m.hypothesis_speakers), (2, 2));
    }

    #[test]
    fn a_late_change_without_its_gap_is_measured() {
        // The reference has a 0.4 s gap; the hypothesis fills it and changes 0.2 s late.
        //   ref  A [0,3)      B [3.4,6)
        //   hyp  A [0,3.6)    B [3.6,6)      errors: end +0.6, start +0.2
        let r = t(&[("A", 0.0, 3.0), ("B", 3.4, 6.0)]);
        let h = t(&[("1", 0.0, 3.6), ("2", 3.6, 6.0)]);
        let m = turn_metrics(&r, &h);
        assert_eq!((m.changes, m.matched), (1, 1));
        let e: Vec<i64> = m.boundary_errors.iter().map(|x| (x * 1000.0).round() as i64).collect();
        assert_eq!(e, vec![600, 200]);
        assert_eq!(m.boundary_median().map(|x| (x * 1000.0).round()), Some(400.0));
        assert_eq!(m.fto_hypothesis, vec![0.0]);
        assert!((m.fto_reference[0] - 0.4).abs() < 1e-9);
    }

    #[test]
    fn embedded_backchannels_take_no_floor_but_count_as_short_turns() {
        // B's 0.5 s backchannel lies inside A's turn: no transfer, one short turn.
        let r = t(&[("A", 0.0, 5.0), ("B", 2.0, 2.5), ("B", 5.2, 8.0)]);
        let h = t(&[("1", 0.0, 5.0), ("2", 5.2, 8.0)]);
        let m = turn_metrics(&r, &h);
        assert_eq!(m.changes, 1);
        assert_eq!((m.short_turns, m.short_turns_found), (1, 0));
        assert_eq!(m.short_turn_recall(), 0.0);
        assert_eq!((m.short_floor_turns, m.short_floor_recall()), (0, 1.0));
    }

    #[test]
    fn fragments_outside_the_reference_are_counted() {
        let r = t(&[("A", 0.0, 3.0), ("B", 3.0, 6.0)]);
        let h = t(&[("1", 0.0, 3.0), ("2", 3.0, 3.01), ("1", 3.01, 3.05), ("2", 3.05, 6.0)]);
        let m = turn_metrics(&r, &h);
        assert_eq!((m.short_segments, m.short_not_in_reference()), (2, 2));
    }
}
