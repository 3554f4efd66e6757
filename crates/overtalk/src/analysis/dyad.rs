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

use super::intervals::{run_kind, Classifier, HeInterval, HeKind, Layer};
use super::normalise::to_ms;
use super::params::Params;
use super::talkspurt::Talkspurt;
use super::units::{Millis, SpeakerIndex};
use super::{intervals, joint, normalise, talkspurt};
use crate::model::{SpeakerId, Transcript};

/// The acoustic H&E intervals of `t` under `p` (`ignore_labels`, `min_segment`, `bridge_pause`,
/// `latch_tolerance`): one sweep for at most two speakers, the general stages otherwise. Equal to
/// [`he_acoustic_general`] on every input. Their `prev` and `next` index the speakers S1 keeps
/// ([`he_acoustic_with_speakers`] names them).
pub fn he_acoustic(t: &Transcript, p: &Params) -> Vec<HeInterval> {
    acoustic(t, p, None)
}

/// [`he_acoustic`] and the speakers its intervals' `prev` and `next` index: those that keep a
/// segment after S1 (not an ignored label, a segment longer than `min_segment`), in code-point
/// order of their names. This is not the transcript's speaker table whenever a speaker there is
/// ignored, keeps no segment or was only declared:
///
/// ```text
/// table    0 Amy   1 Bob (declared, no segment)   2 Zed
/// kept     0 Amy   1 Zed                          prev/next = 1 means Zed, not Bob
/// ```
pub fn he_acoustic_with_speakers(t: &Transcript, p: &Params) -> (Vec<HeInterval>, Vec<SpeakerId>) {
    let mut kept = Vec::new();
    let out = acoustic(t, p, Some(&mut kept));
    (out, kept)
}

/// [`he_acoustic`], filling `kept` (when given) with the speakers the intervals index.
fn acoustic(t: &Transcript, p: &Params, kept: Option<&mut Vec<SpeakerId>>) -> Vec<HeInterval> {
    let n = 2 * t.annotation().len() + 1;
    let mut spurts = [Vec::with_capacity(n), Vec::with_capacity(n)];
    match dyad_spurts(t, p, &mut spurts) {
        Some((order, ids)) => {
            if let Some(kept) = kept {
                let (x, y) = if order { (ids[0], ids[1]) } else { (ids[1], ids[0]) };
                kept.extend(x.into_iter().chain(y));
            }
            let [a, b] = &mut spurts;
            a.push(i64::MAX);
            b.push(i64::MAX);
            let (first, second) = if order { (&*a, &*b) } else { (&*b, &*a) };
            let mut out = Vec::with_capacity((first.len() + second.len()) / 2 + 1);
            sweep_bounds(first, second, p.latch_tolerance, &mut out);
            out
        }
        None => {
            let norm = normalise::normalise(t, &p.ignore_labels, p.min_segment);
            if let Some(kept) = kept {
                let table = t.annotation().speakers();
                kept.extend(norm.speakers.iter().filter_map(|name| table.get(name)));
            }
            general(&norm, p)
        }
    }
}

/// The acoustic H&E intervals of `t` through the general stages S1 → S2 → S3 → S4, as
/// [`analyze`](super::analyze) computes them.
pub fn he_acoustic_general(t: &Transcript, p: &Params) -> Vec<HeInterval> {
    general(&normalise::normalise(t, &p.ignore_labels, p.min_segment), p)
}

/// S2 → S3 → S4 (acoustic) of a normalised transcript.
fn general(norm: &normalise::Normalised, p: &Params) -> Vec<HeInterval> {
    let sp = talkspurt::talkspurts(&norm.segments, norm.speakers.len(), p.bridge_pause);
    let j = joint::joint_timeline(&sp.spurts, |_| true);
    intervals::he_intervals(&j, Layer::Acoustic, p.latch_tolerance)
}

/// S1 + S2 for at most two kept speakers: the boundaries of their talkspurts
/// (`start₀, end₀, start₁, …`, ms) in `spurts`, in the order the speakers were met. Returns whether the first speaker met sorts first by name
/// and the kept speakers in the order met, or `None` when a third speaker keeps a segment.
fn dyad_spurts(
    t: &Transcript,
    p: &Params,
    spurts: &mut [Vec<i64>; 2],
) -> Option<(bool, [Option<SpeakerId>; 2])> {
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
    let order = match ids {
        [Some(a), Some(b)] => ann.speaker_name(a).as_bytes() <= ann.speaker_name(b).as_bytes(),
        _ => true,
    };
    Some((order, ids))
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
/// A speaker is talking exactly when its cursor stands on an end (an odd index), so the active
/// set is two bits: 0 silence, 1 `a` alone, 2 `b` alone, 3 both. Every boundary changes it (a
/// speaker's own talkspurts never touch), so each step closes one piece of the joint timeline,
/// and the set after the step is known in the same step. With two speakers a run of silence or
/// overlap is almost always followed by a solo piece, so it is classified at once:
///
/// ```text
/// set      1 (a)   |    0    |  2 (b)  |    3    |  1 (a)
/// step           a ends    b starts  a starts   b ends
/// run                 gap a→b              overlap b→a
///                 (set after: 2, next b)  (set after: 1, next a)
/// ```
///
/// Only when both speakers start or end at the same instant does a run follow a run
/// (silence → both, both → silence); those runs wait with a provisional kind until the next solo
/// piece, or stay unbounded at the end, as S4's classifier leaves them. The classes come from a
/// table ([`run_kind`]), not from branches on the data.
fn sweep_bounds(a: &[i64], b: &[i64], latch_tolerance: Millis, out: &mut Vec<HeInterval>) {
    let (ia, ib) = if a.len() <= 1 { (1, 0) } else { (0, 1) };
    // The solo speaker of each active set (none for silence and overlap).
    let solo = [None, Some(SpeakerIndex::new(ia)), Some(SpeakerIndex::new(ib)), None];
    // The first boundary opens the first piece.
    let mut piece_start = a[0].min(b[0]);
    if piece_start == i64::MAX {
        // Neither speaker keeps a talkspurt: no piece at all.
        return;
    }
    let mut ka = usize::from(a[0] == piece_start);
    let mut kb = usize::from(b[0] == piece_start);
    // Active set of the latest solo piece (0: none yet).
    let first = ka | (kb << 1);
    let mut last_solo = if first == 3 { 0 } else { first };
    // Index in `out` of the first run still waiting for the solo piece after it.
    let mut pending: Option<usize> = None;
    loop {
        let (na, nb) = (a[ka], b[kb]);
        let t = na.min(nb);
        if t == i64::MAX {
            break;
        }
        let before = (ka & 1) | ((kb & 1) << 1);
        ka += usize::from(na <= nb);
        kb += usize::from(nb <= na);
        let after = (ka & 1) | ((kb & 1) << 1);
        let after_solo = (after ^ (after >> 1)) & 1 == 1;
        let (start, end) = (Millis::new(piece_start), Millis::new(t));
        piece_start = t;
        if (before ^ (before >> 1)) & 1 == 0 {
            // A run [start, t): silence (0) or overlap (3).
            let overlap = before == 3;
            let bounded = after_solo & (last_solo != 0);
            let kind = run_kind(overlap, bounded, last_solo == after, end - start, latch_tolerance);
            let next = solo[after];
            if !after_solo && pending.is_none() {
                pending = Some(out.len());
            }
            out.push(HeInterval {
                layer: Layer::Acoustic,
                kind,
                start,
                end,
                prev: solo[last_solo],
                next,
            });
        } else if after_solo {
            // The end of one speaker's solo piece is the start of the other's: a zero-length
            // NGNO event.
            out.push(HeInterval {
                layer: Layer::Acoustic,
                kind: HeKind::Ngno,
                start: end,
                end,
                prev: solo[before],
                next: solo[after],
            });
        }
        if after_solo {
            if let Some(from) = pending.take() {
                // The runs of a simultaneous start or end, now that the solo speaker after them is
                // known (the last one pushed was classified with it already).
                let n = out.len() - 1;
                let mut c = Classifier::new(Layer::Acoustic, latch_tolerance, from);
                c.settle(solo[after], &mut out[..n]);
            }
            last_solo = after;
        }
    }
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

    /// The speakers S1 keeps, by name, as [`he_acoustic_with_speakers`] gives them.
    fn kept_names(t: &Transcript, p: &Params) -> Vec<String> {
        let (out, kept) = he_acoustic_with_speakers(t, p);
        assert_eq!(out, he_acoustic(t, p));
        kept.into_iter().map(|id| t.annotation().speaker_name(id).to_owned()).collect()
    }

    #[test]
    fn the_intervals_index_the_speakers_s1_keeps() {
        let t =
            conv(&[("Aaron", 0, 200), ("Zed", 0, 1000), ("Amy", 1500, 2000), ("Zed", 2500, 3000)]);
        let ignore = Params { ignore_labels: vec!["Aaron".into()], ..Params::default() };
        // Two kept: the sweep; "Zed" is met first but is speaker 1.
        assert_eq!(kept_names(&t, &ignore), ["Amy", "Zed"]);
        assert_eq!(
            kinds(&t, &ignore)[0],
            (HeKind::Gap, 1000, 1500, Some(1), Some(0)),
            "Zed (1) before, Amy (0) after"
        );
        // Three kept: the general stages, numbered as normalise numbers them.
        let d = Params::default();
        let norm = normalise::normalise(&t, &d.ignore_labels, d.min_segment);
        assert_eq!(kept_names(&t, &d), norm.speakers);
        assert_eq!(kept_names(&t, &d), ["Aaron", "Amy", "Zed"]);
        // A speaker whose only segment is too short keeps nothing.
        let short = Params { min_segment: Millis::new(250), ..Params::default() };
        assert_eq!(kept_names(&t, &short), ["Amy", "Zed"]);
        assert!(kept_names(&conv(&[]), &d).is_empty());
        assert_eq!(kept_names(&conv(&[("B", 0, 10)]), &d), ["B"]);
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

    #[test]
    fn no_talkspurt_left_gives_no_interval() {
        // Both cursors start on their sentinels: nothing is read past them.
        let mut out = Vec::new();
        sweep(&[], &[], Millis::ZERO, &mut out);
        assert!(out.is_empty());
        // Every segment no longer than `min_segment`: S1 drops them all.
        let t = conv(&[("A", 0, 100), ("B", 200, 250)]);
        let p = Params { min_segment: Millis::new(100), ..Params::default() };
        assert!(he_acoustic(&t, &p).is_empty());
        assert_eq!(he_acoustic(&t, &p), he_acoustic_general(&t, &p));
    }
}
