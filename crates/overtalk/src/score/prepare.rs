//! Preparation: from a reference, a hypothesis and a UEM to the region that is scored.
//!
//! ```text
//! UEM / default   [██████████████████████████████)
//! ref A             [██████)        [████)
//! ref B                  [██████)
//! collars (±c)     [█)  [█)[█)  [█)[█) [█)
//! overlap (-1)           [█)
//! scored          [)  [█)      [█)[█)   [)  [█████)
//! ```
//!
//! The order matters and is a convention: turns are rounded (dscore), zero-length turns are
//! handled, self-overlap is merged or kept, the evaluation region is found (UEM, else the
//! default region), turns are trimmed to it (dscore), then collars and the overlap exclusion are
//! cut out of it. The mapping is computed later on either the evaluation region or the scored
//! region ([`MapStage`](super::options::MapStage)).

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::model::{Annotation, Region, Segment};
use crate::time::{round_div, Delta, Time};

use super::options::{DefaultRegion, ScoreOptions, ScoredRegions, SelfOverlap, UemIds, ZeroLength};
use super::{RecordingInput, Side};

/// A turn as the scorer sees it: a segment and a speaker index into a name table.
pub type ScoredTurn = (Segment, u32);

/// One recording ready to be scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreparedRecording {
    /// Recording id.
    pub id: String,
    /// Reference speaker labels (index = speaker number in the tokens).
    pub reference_names: Vec<String>,
    /// Hypothesis speaker labels.
    pub hypothesis_names: Vec<String>,
    /// Reference turns after rounding, zero-length handling, self-overlap policy and trimming.
    pub reference: Vec<ScoredTurn>,
    /// Hypothesis turns, likewise.
    pub hypothesis: Vec<ScoredTurn>,
    /// Reference turns before any self-overlap merge (what frame-based JER sees).
    pub reference_raw: Vec<ScoredTurn>,
    /// Hypothesis turns before any self-overlap merge.
    pub hypothesis_raw: Vec<ScoredTurn>,
    /// The evaluation region: UEM entry, else the default region.
    pub evaluation: Region,
    /// Whether `evaluation` came from a UEM (as opposed to the default region).
    pub from_uem: bool,
    /// The no-score zones around reference boundaries.
    pub collars: Region,
    /// The region that is scored: evaluation minus collars, restricted by the region selection.
    pub scored: Region,
}

/// The key a UEM id is matched under.
///
/// ```
/// use overtalk::score::{uem_key, UemIds};
/// assert_eq!(uem_key("EN2002a.Mix-Headset", UemIds::MdEval), "EN2002a");
/// assert_eq!(uem_key("rec.a.b", UemIds::Dscore), "rec.a");
/// assert_eq!(uem_key("dir/rec.a", UemIds::Exact), "dir/rec.a");
/// ```
pub fn uem_key(id: &str, rule: UemIds) -> String {
    match rule {
        UemIds::Exact => id.to_owned(),
        UemIds::MdEval => {
            // `s/.*\///` then `s/\.[^.]*//`: the directory, then the first `.` and what follows
            // it up to the next `.` (`a.b.c` is `a.c`).
            let base = id.rsplit('/').next().unwrap_or(id);
            match base.find('.') {
                Some(dot) => {
                    let next = base[dot + 1..].find('.').map_or(base.len(), |k| dot + 1 + k);
                    format!("{}{}", &base[..dot], &base[next..])
                }
                None => base.to_owned(),
            }
        }
        UemIds::Dscore => {
            // os.path.splitext: the last dot of the last path component, unless leading.
            let base_start = id.rfind('/').map_or(0, |i| i + 1);
            match id[base_start..].rfind('.') {
                Some(dot) if id[base_start..][..dot].chars().any(|c| c != '.') => {
                    id[..base_start + dot].to_owned()
                }
                _ => id.to_owned(),
            }
        }
    }
}

/// The UEM as the scorer will look it up: keys normalised by the id rule, regions of keys that
/// collapse onto one id united.
pub fn normalise_uem(uem: &BTreeMap<String, Region>, rule: UemIds) -> BTreeMap<String, Region> {
    let mut out: BTreeMap<String, Region> = BTreeMap::new();
    for (k, r) in uem {
        let key = uem_key(k, rule);
        let merged = match out.get(&key) {
            Some(prev) => prev.union(r),
            None => r.clone(),
        };
        out.insert(key, merged);
    }
    out
}

fn tokens_of(a: Option<&Annotation>) -> (Vec<String>, Vec<ScoredTurn>) {
    match a {
        None => (Vec::new(), Vec::new()),
        Some(a) => (
            a.speakers().iter().map(|(_, n)| n.to_owned()).collect(),
            a.tracks().iter().map(|t| (t.segment, t.speaker.get())).collect(),
        ),
    }
}

fn round_millis(tokens: Vec<ScoredTurn>) -> Vec<ScoredTurn> {
    tokens
        .into_iter()
        .filter_map(|(s, k)| {
            let start = round_div(s.start().micros(), 1000) * 1000;
            let dur = round_div(s.duration().micros(), 1000) * 1000;
            Segment::new(Time::from_micros(start), Time::from_micros(start.saturating_add(dur)))
                .map(|s| (s, k))
        })
        .collect()
}

/// Which same-speaker turns [`merge_per_speaker`] joins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeRule {
    /// Overlapping turns only (`start < previous end`, exact times).
    Overlapping,
    /// Overlapping or touching turns (spyder).
    Touching,
    /// Overlapping as dscore sees it: ends computed as `onset + duration` in binary floating
    /// point, so `100.007 + 0.31` ends after a turn starting at `100.317` and the two merge.
    FloatOverlapping,
    /// Overlapping or touching as spyder sees it, on the same floating-point ends: `34.58 +
    /// 1.16` ends just before a turn starting at `35.74`, so those two stay apart.
    FloatTouching,
}

/// The end of a turn as a tool holding `onset` and `duration` in `f64` computes it.
fn float_end(s: &Segment) -> f64 {
    s.start().micros() as f64 / 1e6 + s.duration().micros() as f64 / 1e6
}

/// Merges each speaker's overlapping turns (and touching ones, see [`MergeRule`]).
///
/// ```text
/// A  [████)               A  [███████)
/// A     [████)      →
/// A          [██)         A  [██████████)   (only with MergeRule::Touching)
/// ```
pub fn merge_per_speaker(tokens: &[ScoredTurn], rule: MergeRule) -> Vec<ScoredTurn> {
    let sorted = by_speaker(tokens);
    // The merged turn's float end travels with it (dscore keeps the larger float offset).
    let mut out: Vec<(ScoredTurn, f64)> = Vec::with_capacity(sorted.len());
    for (s, k) in sorted {
        let fe = float_end(&s);
        match out.last_mut() {
            Some(((last, lk), last_fe))
                if *lk == k
                    && match rule {
                        MergeRule::Overlapping => s.start() < last.end(),
                        MergeRule::Touching => s.start() <= last.end(),
                        MergeRule::FloatOverlapping => {
                            s.start() < last.end() || (s.start().micros() as f64 / 1e6) < *last_fe
                        }
                        MergeRule::FloatTouching => {
                            s.start() < last.end() || (s.start().micros() as f64 / 1e6) <= *last_fe
                        }
                    } =>
            {
                *last = last.hull(&s);
                *last_fe = last_fe.max(fe);
            }
            _ => out.push(((s, k), fe)),
        }
    }
    let mut out: Vec<ScoredTurn> = out.into_iter().map(|(t, _)| t).collect();
    out.sort_unstable_by_key(|(s, k)| (*s, *k));
    out
}

/// The tokens ordered by (speaker, segment). From tokens already ordered by (segment,
/// speaker), as `prepare` holds them, a counting pass per speaker keeps each speaker's turns
/// in order without sorting.
fn by_speaker(tokens: &[ScoredTurn]) -> Vec<ScoredTurn> {
    let speakers = tokens.iter().map(|t| t.1 as usize + 1).max().unwrap_or(0);
    if !tokens.is_sorted() || speakers > tokens.len() {
        let mut sorted = tokens.to_vec();
        sorted.sort_unstable_by_key(|(s, k)| (*k, *s));
        return sorted;
    }
    let mut start = vec![0usize; speakers + 1];
    for &(_, k) in tokens {
        start[k as usize + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    let Some(&filler) = tokens.first() else { return Vec::new() };
    let mut out = vec![filler; tokens.len()];
    for &t in tokens {
        let slot = &mut start[t.1 as usize];
        out[*slot] = t;
        *slot += 1;
    }
    out
}

fn extent(tokens: &[ScoredTurn]) -> Option<Segment> {
    let start = tokens.iter().map(|(s, _)| s.start()).min()?;
    let end = tokens.iter().map(|(s, _)| s.end()).max()?;
    Segment::new(start, end)
}

/// Where exactly one, and where two or more, tokens are active.
///
/// ```text
/// A        [██████)
/// B            [██████)
/// single   [██)    [██)
/// multi        [██)
/// ```
pub fn count_regions(tokens: &[ScoredTurn]) -> (Region, Region) {
    let mut events: Vec<(Time, i32)> = Vec::with_capacity(tokens.len() * 2);
    for (s, _) in tokens {
        events.push((s.start(), 1));
        events.push((s.end(), -1));
    }
    events.sort_unstable();
    let (mut single, mut multi) = (Vec::new(), Vec::new());
    let mut count = 0i32;
    let mut i = 0;
    while i < events.len() {
        let t = events[i].0;
        while i < events.len() && events[i].0 == t {
            count += events[i].1;
            i += 1;
        }
        if let Some(&(next, _)) = events.get(i) {
            if let Some(seg) = Segment::new(t, next) {
                match count {
                    1 => single.push(seg),
                    c if c >= 2 => multi.push(seg),
                    _ => {}
                }
            }
        }
    }
    (Region::from_segments(single), Region::from_segments(multi))
}

/// The pieces of `segment` inside `region`, in time order (what
/// [`Region::crop_segment`] returns), found by binary search instead of a walk over the whole
/// region, so cropping every turn of a recording stays `O(n log n)`.
///
/// ```text
/// region    [████)  [██████)   [███)
/// segment      [█████████████)
/// pieces       [█)  [██████)
/// ```
pub fn crop_pieces(region: &Region, segment: Segment) -> impl Iterator<Item = Segment> + '_ {
    let segs = region.segments();
    let first = segs.partition_point(|r| r.end() <= segment.start());
    segs[first..]
        .iter()
        .take_while(move |r| r.start() < segment.end())
        .filter_map(move |r| r.intersection(&segment))
}

fn trim(tokens: &[ScoredTurn], region: &Region) -> Vec<ScoredTurn> {
    let mut out = Vec::with_capacity(tokens.len());
    for &(s, k) in tokens {
        out.extend(crop_pieces(region, s).map(|p| (p, k)));
    }
    out
}

/// Prepares one recording. `uem` is its UEM entry (already looked up); `uem_given` says whether
/// a UEM was supplied at all. Returns `None` when the recording is dropped (dscore: not in the
/// UEM).
pub fn prepare(
    input: &RecordingInput,
    uem: Option<&Region>,
    uem_given: bool,
    opts: &ScoreOptions,
) -> Result<Option<PreparedRecording>> {
    if opts.zero_length == ZeroLength::Reject {
        if let Some(z) = input.zero_length.first() {
            return Err(Error::invalid(format!(
                "{}: zero-length turn of {:?} at {} s (dscore refuses files with turn duration <= 0)",
                input.id, z.speaker, z.at
            )));
        }
    }
    if uem.is_none() && uem_given && opts.drop_outside_uem {
        return Ok(None);
    }
    let (mut reference_names, mut reference) = tokens_of(input.reference.as_ref());
    let (mut hypothesis_names, mut hypothesis) = tokens_of(input.hypothesis.as_ref());
    if opts.round_to_millis {
        reference = round_millis(reference);
        hypothesis = round_millis(hypothesis);
    }
    let evaluation = match uem {
        Some(r) => r.clone(),
        None => {
            let e = match opts.default_region {
                DefaultRegion::Reference => extent(&reference),
                DefaultRegion::Union => match (extent(&reference), extent(&hypothesis)) {
                    (Some(a), Some(b)) => Some(a.hull(&b)),
                    (a, b) => a.or(b),
                },
            };
            e.map(Region::from_segment).unwrap_or_default()
        }
    };
    // Zero-length turns kept "on" to the end of the region (spyder), with a collar at the turn.
    let mut zero_points: Vec<Time> = Vec::new();
    if opts.zero_length == ZeroLength::ExtendToEnd {
        if let Some(end) = evaluation.extent().map(|e| e.end()) {
            for z in &input.zero_length {
                let (names, tokens) = match z.side {
                    Side::Reference => (&mut reference_names, &mut reference),
                    Side::Hypothesis => (&mut hypothesis_names, &mut hypothesis),
                };
                let k = match names.iter().position(|n| *n == z.speaker) {
                    Some(k) => k,
                    None => {
                        names.push(z.speaker.clone());
                        names.len() - 1
                    }
                };
                if let Some(seg) = Segment::new(z.at, end) {
                    tokens.push((seg, k as u32));
                }
                if z.side == Side::Reference {
                    zero_points.push(z.at);
                }
            }
        }
    }
    if opts.trim_before_collar {
        reference = trim(&reference, &evaluation);
        hypothesis = trim(&hypothesis, &evaluation);
    }
    reference.sort_unstable_by_key(|(s, k)| (*s, *k));
    hypothesis.sort_unstable_by_key(|(s, k)| (*s, *k));
    let reference_raw = reference.clone();
    let hypothesis_raw = hypothesis.clone();
    match opts.self_overlap {
        SelfOverlap::Merge => {
            let rule =
                if opts.float_ends { MergeRule::FloatOverlapping } else { MergeRule::Overlapping };
            reference = merge_per_speaker(&reference, rule);
            hypothesis = merge_per_speaker(&hypothesis, rule);
        }
        SelfOverlap::MergeTouching => {
            let rule = if opts.float_ends { MergeRule::FloatTouching } else { MergeRule::Touching };
            reference = merge_per_speaker(&reference, rule);
            hypothesis = merge_per_speaker(&hypothesis, rule);
        }
        SelfOverlap::Union | SelfOverlap::CountEach => {}
    }
    let collars = collar_zone(&reference, &zero_points, opts.collar);
    let mut scored = evaluation.difference(&collars);
    if opts.regions != ScoredRegions::All {
        let (single, multi) = count_regions(&reference);
        scored = match opts.regions {
            ScoredRegions::All => scored,
            ScoredRegions::NonOverlap => scored.difference(&multi),
            ScoredRegions::Single => scored.intersection(&single),
            ScoredRegions::Overlap => scored.intersection(&multi),
        };
    }
    Ok(Some(PreparedRecording {
        id: input.id.clone(),
        reference_names,
        hypothesis_names,
        reference,
        hypothesis,
        reference_raw,
        hypothesis_raw,
        evaluation,
        from_uem: uem.is_some(),
        collars,
        scored,
    }))
}

/// `[b − c, b + c]` around every reference boundary `b`, united.
///
/// ```text
/// ref A      [████████)   [███)
/// c = ·      ·
/// collars   [·)      [·) [·) [·)
/// ```
pub fn collar_zone(reference: &[ScoredTurn], extra: &[Time], per_side: Delta) -> Region {
    if per_side <= Delta::ZERO {
        return Region::new();
    }
    let around = |b: Time| Segment::new(b.saturating_sub(per_side), b.saturating_add(per_side));
    Region::from_segments(
        reference
            .iter()
            .flat_map(|(s, _)| [s.start(), s.end()])
            .chain(extra.iter().copied())
            .filter_map(around),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(a: i64, b: i64) -> Segment {
        Segment::from_millis(a, b).unwrap()
    }

    #[test]
    fn uem_keys_follow_each_tool() {
        assert_eq!(uem_key("rec.a", UemIds::MdEval), "rec");
        assert_eq!(uem_key("a/b/rec.a.b", UemIds::MdEval), "rec.b");
        assert_eq!(uem_key("a.b.c", UemIds::MdEval), "a.c");
        assert_eq!(uem_key("rec.", UemIds::MdEval), "rec");
        assert_eq!(uem_key("rec..x", UemIds::MdEval), "rec.x");
        assert_eq!(uem_key("rec.a", UemIds::Dscore), "rec");
        assert_eq!(uem_key(".hidden", UemIds::Dscore), ".hidden");
        assert_eq!(uem_key("rec", UemIds::Dscore), "rec");
        assert_eq!(uem_key("rec.a", UemIds::Exact), "rec.a");
    }

    #[test]
    fn merge_keeps_touching_apart_unless_asked() {
        let t = vec![(seg(0, 5), 0), (seg(5, 10), 0), (seg(8, 12), 0), (seg(1, 2), 1)];
        assert_eq!(
            merge_per_speaker(&t, MergeRule::Overlapping),
            vec![(seg(0, 5), 0), (seg(1, 2), 1), (seg(5, 12), 0)]
        );
        assert_eq!(
            merge_per_speaker(&t, MergeRule::Touching),
            vec![(seg(0, 12), 0), (seg(1, 2), 1)]
        );
    }

    #[test]
    fn by_speaker_orders_by_speaker_then_time() {
        let mut t = vec![(seg(0, 5), 1), (seg(1, 2), 0), (seg(1, 3), 2), (seg(4, 9), 1)];
        t.push((seg(6, 7), 0));
        t.sort_unstable();
        let mut expected = t.clone();
        expected.sort_unstable_by_key(|(s, k)| (*k, *s));
        assert_eq!(by_speaker(&t), expected);
        t.reverse();
        assert_eq!(by_speaker(&t), expected);
        assert!(by_speaker(&[]).is_empty());
    }

    #[test]
    fn float_overlap_merges_what_dscore_merges() {
        // 100.007 + 0.31 = 100.31700000000001 in f64: dscore sees an overlap with a turn at
        // 100.317 and merges; 1.5 + 0.5 is exact and stays touching.
        let us = |a: i64, b: i64| Segment::from_micros(a, b).unwrap();
        let t = vec![(us(100_007_000, 100_317_000), 0), (us(100_317_000, 101_000_000), 0)];
        let (on, dur) = (std::hint::black_box(100.007f64), std::hint::black_box(0.31f64));
        assert!(on + dur > 100.317);
        assert_eq!(merge_per_speaker(&t, MergeRule::Overlapping).len(), 2);
        assert_eq!(
            merge_per_speaker(&t, MergeRule::FloatOverlapping),
            vec![(us(100_007_000, 101_000_000), 0)]
        );
        let exact = vec![(seg(1500, 2000), 0), (seg(2000, 3000), 0)];
        assert_eq!(merge_per_speaker(&exact, MergeRule::FloatOverlapping).len(), 2);
    }

    #[test]
    fn float_touching_keeps_apart_what_spyder_keeps_apart() {
        // 34.58 + 1.16 = 35.739999999999995 in f64: spyder sees a gap before a turn at 35.74
        // and keeps a collar there; 100.007 + 0.31 overshoots and touches; 1.5 + 0.5 is exact.
        let us = |a: i64, b: i64| Segment::from_micros(a, b).unwrap();
        let (on, dur) = (std::hint::black_box(34.58f64), std::hint::black_box(1.16f64));
        assert!(on + dur < 35.74);
        let apart = vec![(us(34_580_000, 35_740_000), 0), (us(35_740_000, 36_240_000), 0)];
        assert_eq!(merge_per_speaker(&apart, MergeRule::Touching).len(), 1);
        assert_eq!(merge_per_speaker(&apart, MergeRule::FloatTouching), apart);
        let over = vec![(us(100_007_000, 100_317_000), 0), (us(100_317_000, 101_000_000), 0)];
        assert_eq!(merge_per_speaker(&over, MergeRule::FloatTouching).len(), 1);
        let exact = vec![(seg(1500, 2000), 0), (seg(2000, 3000), 0)];
        assert_eq!(merge_per_speaker(&exact, MergeRule::FloatTouching).len(), 1);
    }

    #[test]
    fn collars_cover_both_sides_of_every_boundary() {
        let z = collar_zone(&[(seg(1000, 2000), 0)], &[], Delta::from_millis(250));
        assert_eq!(z.segments(), &[seg(750, 1250), seg(1750, 2250)]);
        assert!(collar_zone(&[(seg(0, 1), 0)], &[], Delta::ZERO).is_empty());
    }

    #[test]
    fn crop_pieces_is_crop_segment() {
        let region = Region::from_segments([seg(0, 5), seg(8, 14), seg(20, 23), seg(30, 31)]);
        for (a, b) in [(3, 21), (5, 8), (0, 40), (14, 20), (9, 10), (22, 35), (40, 50)] {
            let s = seg(a, b);
            let pieces: Vec<Segment> = crop_pieces(&region, s).collect();
            assert_eq!(pieces, region.crop_segment(s).segments(), "{a}..{b}");
        }
        assert_eq!(crop_pieces(&region, seg(3, 21)).count(), 3);
    }

    #[test]
    fn count_regions_counts_tokens() {
        let (single, multi) = count_regions(&[(seg(0, 6), 0), (seg(4, 10), 0), (seg(10, 12), 1)]);
        assert_eq!(single.segments(), &[seg(0, 4), seg(6, 12)]);
        assert_eq!(multi.segments(), &[seg(4, 6)]);
    }
}
