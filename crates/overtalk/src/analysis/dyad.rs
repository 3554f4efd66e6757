//! The acoustic Heldner & Edlund layer of a conversation of at most two speakers in one sweep:
//! the same intervals as S1 → S2 → S3 → S4 (acoustic), without the general machinery (no
//! tokens, no joint timeline of N speakers, no sorting of boundary events).
//!
//! ```text
//! tracks (µs, sorted)   A [0──5000)      [6500──9000)     B [4000──6000)
//! S1+S2 per speaker     A [0──5000) [6500──9000)           B [4000──6000)
//! sweep (2 cursors)     {A} |{A,B}| {B} | ∅  | {A}
//! intervals                  overlap_between A→B   gap B→A [6000, 6500)
//! ```
//!
//! [`he_acoustic`] takes a [`Transcript`]: each track is converted to milliseconds (S1's
//! rounding), dropped when S1 drops it (ignored label, `end − start ≤ min_segment`), and bridged
//! into its speaker's current talkspurt as S2 does; the annotation is sorted by start, so each
//! speaker's tracks arrive in order and the talkspurts come out sorted and disjoint. A sweep with
//! one cursor per speaker then visits every change of the active set once and classifies the
//! silences and overlaps on the fly, as S4 does on the joint timeline. With three or more
//! speakers left after S1 it runs the general stages instead ([`he_acoustic_general`]), so the
//! result is always the acoustic part of [`analyze`](super::analyze)'s `he`.

use super::intervals::{Classifier, HeInterval, Layer};
use super::normalise::to_ms;
use super::params::Params;
use super::talkspurt::Talkspurt;
use super::units::{Millis, SpeakerIndex};
use super::{intervals, joint, normalise, talkspurt};
use crate::model::Transcript;

/// The acoustic H&E intervals of `t` under `p` (`ignore_labels`, `min_segment`, `bridge_pause`,
/// `latch_tolerance`): one sweep for at most two speakers, the general stages otherwise. Equal to
/// [`he_acoustic_general`] on every input.
pub fn he_acoustic(t: &Transcript, p: &Params) -> Vec<HeInterval> {
    let n = 2 * t.annotation().len() + 1;
    let mut spurts = [Vec::with_capacity(n), Vec::with_capacity(n)];
    match dyad_spurts(t, p, &mut spurts) {
        Some(order) => {
            let [a, b] = &mut spurts;
            a.push(i64::MAX);
            b.push(i64::MAX);
            let (first, second) = if order { (&*a, &*b) } else { (&*b, &*a) };
            let mut out = Vec::with_capacity((first.len() + second.len()) / 2 + 1);
            sweep_bounds(first, second, p.latch_tolerance, &mut out);
            out
        }
        None => he_acoustic_general(t, p),
    }
}

/// The acoustic H&E intervals of `t` through the general stages S1 → S2 → S3 → S4, as
/// [`analyze`](super::analyze) computes them.
pub fn he_acoustic_general(t: &Transcript, p: &Params) -> Vec<HeInterval> {
    let norm = normalise::normalise(t, &p.ignore_labels, p.min_segment);
    let sp = talkspurt::talkspurts(&norm.segments, norm.speakers.len(), p.bridge_pause);
    let j = joint::joint_timeline(&sp.spurts, |_| true);
    intervals::he_intervals(&j, Layer::Acoustic, p.latch_tolerance)
}

/// S1 + S2 for at most two kept speakers: the boundaries of their talkspurts
/// (`start₀, end₀, start₁, …`, ms) in `spurts`, in the order the speakers were met. Returns whether the first speaker met sorts first by name,
/// or `None` when a third speaker keeps a segment.
fn dyad_spurts(t: &Transcript, p: &Params, spurts: &mut [Vec<i64>; 2]) -> Option<bool> {
    let ann = t.annotation();
    // Per speaker id: 0 not seen yet, 1 ignored, 2 + slot when kept.
    let mut state = vec![0u8; ann.speakers().len()];
    let mut ids = [None, None];
    let mut n = 0usize;
    for track in ann.tracks() {
        let id = track.speaker.index();
        let st = state.get_mut(id)?;
        if *st == 0 {
            let name = ann.speaker_name(track.speaker);
            *st = if p.ignore_labels.iter().any(|l| l == name) { 1 } else { 3 };
        }
        if *st == 1 {
            continue;
        }
        let s = to_ms(track.segment.start().micros()).get();
        let e = to_ms(track.segment.end().micros()).get();
        if e - s <= p.min_segment.get() || e <= s {
            continue;
        }
        if *st == 3 {
            if n == 2 {
                return None;
            }
            *st = 4 + n as u8;
            ids[n] = Some(track.speaker);
            n += 1;
        }
        let list = &mut spurts[usize::from(*st - 4)];
        // S2: tracks come sorted by start, so this speaker's segments arrive in order and
        // either extend the current talkspurt (overlap, touch, or a silence < bridge_pause) or
        // start the next one.
        match list.last_mut() {
            Some(end) if s <= *end || s - *end < p.bridge_pause.get() => *end = (*end).max(e),
            _ => list.extend([s, e]),
        }
    }
    Some(match ids {
        [Some(a), Some(b)] => ann.speaker_name(a).as_bytes() <= ann.speaker_name(b).as_bytes(),
        _ => true,
    })
}

/// S3 + S4 over two speakers' talkspurt lists (each sorted, disjoint and not touching, as S2
/// leaves them; speaker 0 is `a` — or `b` when `a` is empty, as S1 numbers only the speakers that
/// keep a segment). Appends the intervals in time order.
pub fn sweep(
    a: &[(Millis, Millis)],
    b: &[(Millis, Millis)],
    latch_tolerance: Millis,
    out: &mut Vec<HeInterval>,
) {
    // What S2 leaves: each list sorted, every talkspurt non-empty, consecutive ones apart (and
    // no time at the sentinel). Anything else goes through the general stages.
    let valid = |l: &[(Millis, Millis)]| {
        l.iter().all(|&(s, e)| s < e && e < Millis::MAX) && l.windows(2).all(|w| w[0].1 < w[1].0)
    };
    if !(valid(a) && valid(b)) {
        let ib = SpeakerIndex::new(usize::from(!a.is_empty()));
        let mut spurts: Vec<Talkspurt> = [(SpeakerIndex::new(0), a), (ib, b)]
            .into_iter()
            .flat_map(|(x, l)| l.iter().map(move |&(start, end)| Talkspurt::timed(x, start, end)))
            .collect();
        spurts.sort_by_key(|s| (s.start, s.end, s.speaker));
        let j = joint::joint_timeline(&spurts, |_| true);
        intervals::he_intervals_into(&j, Layer::Acoustic, latch_tolerance, out);
        return;
    }
    let flat = |l: &[(Millis, Millis)]| {
        let mut v: Vec<i64> = l.iter().flat_map(|&(s, e)| [s.get(), e.get()]).collect();
        v.push(i64::MAX);
        v
    };
    sweep_bounds(&flat(a), &flat(b), latch_tolerance, out);
}

/// [`sweep`] over boundary lists: `[start₀, end₀, start₁, end₁, …, i64::MAX]` per speaker (the
/// last entry is a sentinel, so a cursor never runs off its list). The lists must be what S2
/// leaves (sorted, non-empty talkspurts that do not touch, times below the sentinel).
///
/// A speaker is talking exactly when its cursor stands on an end (an odd index). Every instant
/// where a boundary of `a` or `b` lies changes the active set (a speaker's own talkspurts never
/// touch), so each step of the sweep closes one piece of the joint timeline. Solo pieces label
/// the silences and overlaps around them: the runs after the last solo piece are pushed with
/// provisional kinds and settled when the next solo piece (or the end) is met.
fn sweep_bounds(a: &[i64], b: &[i64], latch_tolerance: Millis, out: &mut Vec<HeInterval>) {
    let (ia, ib) = if a.len() <= 1 { (1, 0) } else { (0, 1) };
    let (ia, ib) = (SpeakerIndex::new(ia), SpeakerIndex::new(ib));
    let mut c = Classifier::new(Layer::Acoustic, latch_tolerance, out.len());
    let at = |l: &[i64], k: usize| l.get(k).copied().unwrap_or(i64::MAX);
    let (mut na, mut nb) = (at(a, 0), at(b, 0));
    // The first boundary opens the first piece.
    let mut piece_start = na.min(nb);
    let (mut ka, mut kb) = (usize::from(na == piece_start), usize::from(nb == piece_start));
    loop {
        (na, nb) = (at(a, ka), at(b, kb));
        let t = na.min(nb);
        if t == i64::MAX {
            break;
        }
        match (ka & 1, kb & 1) {
            (1, 0) => c.solo(ia, Millis::new(t), out),
            (0, 1) => c.solo(ib, Millis::new(t), out),
            (x, _) => c.run(x == 1, Millis::new(piece_start), Millis::new(t), out),
        }
        ka += usize::from(na == t);
        kb += usize::from(nb == t);
        piece_start = t;
    }
    c.settle(None, out);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::intervals::HeKind;
    use crate::model::{Segment, TranscriptBuilder};

    fn conv(tracks: &[(&str, i64, i64)]) -> Transcript {
        let mut b = TranscriptBuilder::new();
        for &(who, s, e) in tracks {
            b.add(Segment::from_millis(s, e).unwrap(), who, None);
        }
        b.build()
    }

    type Row = (HeKind, i64, i64, Option<usize>, Option<usize>);

    fn kinds(t: &Transcript, p: &Params) -> Vec<Row> {
        he_acoustic(t, p)
            .into_iter()
            .map(|h| {
                let (prev, next) = (h.prev.map(SpeakerIndex::get), h.next.map(SpeakerIndex::get));
                (h.kind, h.start.get(), h.end.get(), prev, next)
            })
            .collect()
    }

    #[test]
    fn w1_classes_in_one_sweep() {
        let t = conv(&[("A", 0, 5000), ("B", 4000, 6000), ("A", 6500, 9000)]);
        let p = Params { latch_tolerance: Millis::new(10), ..Params::default() };
        assert_eq!(
            kinds(&t, &p),
            vec![
                (HeKind::OverlapBetween, 4000, 5000, Some(0), Some(1)),
                (HeKind::Gap, 6000, 6500, Some(1), Some(0)),
            ]
        );
        assert_eq!(he_acoustic(&t, &p), he_acoustic_general(&t, &p));
    }

    #[test]
    fn touching_latched_unbounded_and_names_out_of_order() {
        // "B" is met first but sorts second.
        let t = conv(&[("B", 0, 100), ("A", 100, 200), ("B", 205, 300), ("A", 250, 260)]);
        let p = Params {
            latch_tolerance: Millis::new(10),
            bridge_pause: Millis::ZERO,
            ..Params::default()
        };
        assert_eq!(
            kinds(&t, &p),
            vec![
                (HeKind::Ngno, 100, 100, Some(1), Some(0)),
                (HeKind::Ngno, 200, 205, Some(0), Some(1)),
                (HeKind::OverlapWithin, 250, 260, Some(1), Some(1)),
            ]
        );
        assert_eq!(he_acoustic(&t, &p), he_acoustic_general(&t, &p));
        let u = conv(&[("A", 0, 100), ("B", 0, 50), ("B", 100, 120)]);
        assert_eq!(
            kinds(&u, &p),
            vec![
                (HeKind::UnboundedOverlap, 0, 50, None, Some(0)),
                (HeKind::Ngno, 100, 100, Some(0), Some(1)),
            ]
        );
    }

    #[test]
    fn one_speaker_left_and_three_speakers_fall_back() {
        // "A" is ignored: "B" is speaker 0, its two talkspurts a pause apart.
        let t = conv(&[("A", 0, 5000), ("B", 1000, 2000), ("B", 3000, 4000)]);
        let p = Params { ignore_labels: vec!["A".into()], ..Params::default() };
        assert_eq!(kinds(&t, &p), vec![(HeKind::Pause, 2000, 3000, Some(0), Some(0))]);
        // Three speakers: the general stages (two gaps); with "A" ignored, one sweep (one gap).
        let three = conv(&[("A", 0, 1000), ("B", 1500, 2000), ("C", 2500, 3000)]);
        let d = Params::default();
        assert_eq!(he_acoustic(&three, &d), he_acoustic_general(&three, &d));
        assert_eq!(he_acoustic(&three, &d).len(), 2);
        assert_eq!(kinds(&three, &p), vec![(HeKind::Gap, 2000, 2500, Some(0), Some(1))]);
        assert!(he_acoustic(&conv(&[]), &p).is_empty());
    }
}
