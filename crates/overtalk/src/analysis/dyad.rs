//! The acoustic Heldner & Edlund layer of a conversation of at most two speakers in one pass
//! over its tracks and one over its talkspurts: the same intervals as S1 → S2 → S3 → S4
//! (acoustic), without the general machinery (no tokens, no joint timeline of N speakers, no
//! sorting of boundary events).
//!
//! ```text
//! tracks (µs, sorted)     A [0──5000)      B [4000──6000)      A [6500──9000)
//! S1+S2, by start         A [0──5000)      B [4000──6000)      A [6500──9000)
//! frontier before each    —                5000 (A)            6000 (B)
//! intervals                                overlap_between     gap B→A [6000, 6500)
//!                                          A→B [4000, 5000)
//! ```
//!
//! [`he_acoustic`] takes a [`Transcript`]: each track is converted to milliseconds (S1's
//! rounding), dropped when S1 drops it (ignored label, `end − start ≤ min_segment`), and bridged
//! into its speaker's current talkspurt as S2 does; the annotation is sorted by start, so the
//! talkspurts of both speakers come out in one list in order of start, each speaker's sorted and
//! disjoint. Each talkspurt then closes one silence or overlap, classified from its start, its
//! end and the latest end before it (the frontier), as S4 classifies the joint timeline. With
//! three or more speakers left after S1 it runs the general stages instead
//! ([`he_acoustic_general`]), so the result is always the acoustic part of
//! [`analyze`](super::analyze)'s `he`.

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
    let mut spurts = Vec::with_capacity(t.annotation().len() + 1);
    match dyad_spurts(t, p, &mut spurts) {
        Some((order, ids)) => {
            if let Some(kept) = kept {
                let (x, y) = if order { (ids[0], ids[1]) } else { (ids[1], ids[0]) };
                kept.extend(x.into_iter().chain(y));
            }
            spurts.push(Spurt::SENTINEL);
            let mut out = Vec::with_capacity(spurts.len());
            classify(&spurts, u8::from(!order), p.latch_tolerance, &mut out);
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

/// One talkspurt of a two-speaker conversation: start and end (ms) and the speaker's slot.
#[derive(Clone, Copy, Debug)]
struct Spurt {
    start: i64,
    end: i64,
    /// 0 or 1: the order the speaker was met in ([`dyad_spurts`]) or its index ([`sweep`]).
    who: u8,
}

impl Spurt {
    /// Ends a list, so that the talkspurt after the last one can be read: no time is
    /// `i64::MAX` (milliseconds of a microsecond `i64`, and [`sweep`] refuses it).
    const SENTINEL: Spurt = Spurt { start: i64::MAX, end: i64::MAX, who: 0 };
}

/// S1 + S2 for at most two kept speakers: their talkspurts (ms) in `spurts`, in order of start,
/// each with the speaker's slot (0 for the speaker met first). Returns whether the first speaker
/// met sorts first by name and the kept speakers in the order met, or `None` when a third
/// speaker keeps a segment.
///
/// The tracks come sorted by start, so a talkspurt is opened in order of start whoever speaks
/// it: the two speakers' talkspurts come out in one list already merged, which is what
/// [`classify`] reads. A track joins its speaker's latest talkspurt as S2 joins them (overlap,
/// touch, or a silence shorter than `bridge_pause`), which only moves that talkspurt's end.
fn dyad_spurts(
    t: &Transcript,
    p: &Params,
    spurts: &mut Vec<Spurt>,
) -> Option<(bool, [Option<SpeakerId>; 2])> {
    let ann = t.annotation();
    // Per speaker id: 0 not seen yet, 1 ignored, 2 + slot when kept.
    let mut state = vec![0u8; ann.speakers().len()];
    let mut ids = [None, None];
    let mut n = 0usize;
    // The position in `spurts` of each slot's latest talkspurt (`usize::MAX`: none yet).
    let mut latest = [usize::MAX; 2];
    let (min_segment, bridge_pause) = (p.min_segment.get(), p.bridge_pause.get());
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
        if e - s <= min_segment || e <= s {
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
        let slot = *st - 4;
        let at = &mut latest[usize::from(slot & 1)];
        // S2: this speaker's tracks arrive in order of start, so each either extends its latest
        // talkspurt or opens the next one.
        match spurts.get_mut(*at) {
            Some(l) if s <= l.end || s - l.end < bridge_pause => l.end = l.end.max(e),
            _ => {
                *at = spurts.len();
                spurts.push(Spurt { start: s, end: e, who: slot });
            }
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
    let ib = u8::from(!a.is_empty());
    if !(valid(a) && valid(b)) {
        let mut spurts: Vec<Talkspurt> =
            [(SpeakerIndex::new(0), a), (SpeakerIndex::new(usize::from(ib)), b)]
                .into_iter()
                .flat_map(|(x, l)| {
                    l.iter().map(move |&(start, end)| Talkspurt::timed(x, start, end))
                })
                .collect();
        spurts.sort_by_key(|s| (s.start, s.end, s.speaker));
        let j = joint::joint_timeline(&spurts, |_| true);
        intervals::he_intervals_into(&j, Layer::Acoustic, latch_tolerance, out);
        return;
    }
    // The two lists merged by start, as `dyad_spurts` opens them.
    let mut spurts = Vec::with_capacity(a.len() + b.len() + 1);
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let take_a = j == b.len() || (i < a.len() && a[i].0 <= b[j].0);
        let ((s, e), who) = if take_a { (a[i], 0) } else { (b[j], ib) };
        spurts.push(Spurt { start: s.get(), end: e.get(), who });
        i += usize::from(take_a);
        j += usize::from(!take_a);
    }
    spurts.push(Spurt::SENTINEL);
    classify(&spurts, 0, latch_tolerance, out);
}

/// S3 + S4 of two speakers: the intervals between their talkspurts, appended to `out` in time
/// order. `spurts` holds them in order of start, ending with [`Spurt::SENTINEL`]; each speaker's
/// own talkspurts are disjoint and do not touch, as S2 leaves them; speaker `who ^ flip` is
/// the slot's index in the intervals.
///
/// The talkspurts are visited in order of start, keeping the frontier `hi` (the latest end so
/// far) and its speaker. A talkspurt of `x` starting at `s` closes exactly one interval, read
/// off `s`, its end `e` and the frontier alone, without merging the two speakers' boundaries:
///
/// ```text
/// s > hi    silence [hi, s)            before: hi's speaker, after: x   pause or gap
/// s = hi    NGNO [s, s)                before: hi's speaker, after: x
/// s < hi    overlap [s, min(e, hi))    before: hi's speaker (talking at s),
///           after: hi's speaker when e < hi (within), x when e > hi (between)
/// ```
///
/// The class then follows from a table ([`run_kind`]): nothing in this step branches on the
/// data, and the loop carries only `hi` and its speaker. A silence or overlap followed by
/// another run is the rare case that waits for the next solo speaker, as in S4's classifier:
/// two talkspurts starting at the same instant (a silence, then both talking), or an overlap
/// whose two talkspurts end at the same instant (both talking, then a silence).
fn classify(spurts: &[Spurt], flip: u8, latch_tolerance: Millis, out: &mut Vec<HeInterval>) {
    let n = spurts.len().saturating_sub(1);
    if n == 0 {
        return;
    }
    let who = |s: &Spurt| SpeakerIndex::new(usize::from(s.who ^ flip));
    let run = |overlap: bool, start: i64, end: i64, prev: Option<SpeakerIndex>| HeInterval {
        layer: Layer::Acoustic,
        kind: if overlap { HeKind::UnboundedOverlap } else { HeKind::UnboundedSilence },
        start: Millis::new(start),
        end: Millis::new(end),
        prev,
        next: None,
    };
    let settle = |from: usize, next: SpeakerIndex, out: &mut Vec<HeInterval>| {
        Classifier::new(Layer::Acoustic, latch_tolerance, from).settle(Some(next), out);
    };
    // The frontier: the latest end so far, and the speaker whose talkspurt ends there.
    let first = spurts[0];
    let (mut hi, mut owner) = (first.end, who(&first));
    // While both speakers' talkspurts end at `hi` (or both started the conversation): the first
    // of the runs since the latest solo piece, which wait for the solo speaker after them, and
    // the solo speaker before them (`None` at the start).
    let mut pending: Option<usize> = None;
    let mut before_runs: Option<SpeakerIndex> = None;
    let mut i = 1;
    if spurts[1].start == first.start {
        // Both start the conversation: an overlap with no solo piece before it.
        pending = Some(out.len());
        i = 0;
    }
    while i < n {
        let sp = spurts[i];
        let (s, e, x) = (sp.start, sp.end, who(&sp));
        let both_start = spurts[i + 1].start == s;
        if both_start | pending.is_some() | ((s < hi) & (e == hi)) {
            if both_start {
                // Both start at `s`: a silence since `hi` (unless the conversation starts here),
                // then an overlap, both classified when one of the two talkspurts ends first.
                let other = spurts[i + 1];
                let prev = if pending.is_some() { before_runs } else { Some(owner) };
                let from = *pending.get_or_insert(out.len());
                if i > 0 {
                    out.push(run(false, hi, s, prev));
                }
                out.push(run(true, s, e.min(other.end), prev));
                if e == other.end {
                    (hi, before_runs) = (e, prev);
                } else {
                    let z = if e > other.end { x } else { who(&other) };
                    settle(from, z, out);
                    pending = None;
                    (hi, owner) = (e.max(other.end), z);
                }
                i += 2;
                continue;
            }
            if let Some(from) = pending.take() {
                // Both ended at `hi`: the silence up to `s`, then `x` alone.
                out.push(run(false, hi, s, before_runs));
                settle(from, x, out);
                (hi, owner) = (e, x);
            } else {
                // `x` ends with the other speaker at `hi`: an overlap, then a silence.
                pending = Some(out.len());
                before_runs = Some(owner);
                out.push(run(true, s, hi, Some(owner)));
            }
            i += 1;
            continue;
        }
        let overlap = s < hi;
        let within = overlap & (e < hi);
        let (start, end) = (s.min(hi), s.max(e.min(hi)));
        let next = if within { owner } else { x };
        let kind =
            run_kind(overlap, true, next == owner, Millis::new(end - start), latch_tolerance);
        out.push(HeInterval {
            layer: Layer::Acoustic,
            // Touching talkspurts of the two speakers: NGNO whatever the tolerance.
            kind: if s == hi { HeKind::Ngno } else { kind },
            start: Millis::new(start),
            end: Millis::new(end),
            prev: Some(owner),
            next: Some(next),
        });
        owner = if e > hi { x } else { owner };
        hi = hi.max(e);
        i += 1;
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
    fn simultaneous_starts_and_ends_wait_for_the_next_solo_speaker() {
        let p = Params { bridge_pause: Millis::ZERO, ..Params::default() };
        // Both end at 100 (an overlap, then a silence), both start at 200 (a silence, then an
        // overlap): A is the solo speaker on both sides of all four runs but the last silence.
        let t = conv(&[
            ("A", 0, 100),
            ("B", 50, 100),
            ("A", 200, 300),
            ("B", 200, 250),
            ("B", 400, 500),
        ]);
        assert_eq!(
            kinds(&t, &p),
            vec![
                (HeKind::OverlapWithin, 50, 100, Some(0), Some(0)),
                (HeKind::Pause, 100, 200, Some(0), Some(0)),
                (HeKind::OverlapWithin, 200, 250, Some(0), Some(0)),
                (HeKind::Gap, 300, 400, Some(0), Some(1)),
            ]
        );
        assert_eq!(he_acoustic(&t, &p), he_acoustic_general(&t, &p));
        // Both start the conversation and end together: no solo piece before either run.
        let u = conv(&[("A", 0, 100), ("B", 0, 100), ("B", 200, 300)]);
        assert_eq!(
            kinds(&u, &p),
            vec![
                (HeKind::UnboundedOverlap, 0, 100, None, Some(1)),
                (HeKind::UnboundedSilence, 100, 200, None, Some(1)),
            ]
        );
        assert_eq!(he_acoustic(&u, &p), he_acoustic_general(&u, &p));
        // Both end the conversation: no solo piece after.
        let v = conv(&[("A", 0, 100), ("B", 50, 100)]);
        assert_eq!(kinds(&v, &p), vec![(HeKind::UnboundedOverlap, 50, 100, Some(0), None)]);
        assert_eq!(he_acoustic(&v, &p), he_acoustic_general(&v, &p));
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
