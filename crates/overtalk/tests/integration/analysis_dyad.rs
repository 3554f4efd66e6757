//! The two-speaker sweep of the acoustic Heldner & Edlund layer (`analysis::dyad`) against the
//! general stages on random conversations: equal intervals (kind, start, end, prev, next) and
//! equal to the acoustic part of `analyze`'s `he`.

#![allow(clippy::unwrap_used)]

use overtalk::analysis::dyad::{he_acoustic, he_acoustic_general, sweep};
use overtalk::analysis::intervals::{he_intervals, HeInterval, HeKind, Layer};
use overtalk::analysis::joint::joint_timeline;
use overtalk::analysis::talkspurt::Talkspurt;
use overtalk::analysis::{analyze, Millis, Params, SpeakerIndex};
use overtalk::{Segment, Transcript, TranscriptBuilder};
use proptest::prelude::*;

/// Speaker labels: met in any order, sorting in another ("b" < "c" < "ä" by code point).
const NAMES: &[&str] = &["c", "b", "\u{e4}", ""];

/// `(speaker, start µs, duration µs)`; starts on a coarse grid so that boundaries of the two
/// speakers coincide often (touching talkspurts, simultaneous starts and ends).
fn conversation() -> impl Strategy<Value = Vec<(usize, i64, i64)>> {
    let track = (
        prop_oneof![4 => 0usize..2, 1 => 0usize..NAMES.len()],
        prop_oneof![(0i64..400).prop_map(|k| k * 50_000), 0i64..20_000_000],
        prop_oneof![(1i64..40).prop_map(|k| k * 50_000), 1i64..3_000_000, 1i64..2_000],
    );
    prop::collection::vec(track, 0..60)
}

fn params() -> impl Strategy<Value = Params> {
    (
        prop_oneof![Just(0i64), 0i64..300],
        prop_oneof![Just(0i64), Just(20i64), 0i64..800],
        prop_oneof![Just(0i64), 0i64..300],
        any::<bool>(),
    )
        .prop_map(|(min_segment, bridge_pause, latch_tolerance, ignore)| Params {
            min_segment: Millis::new(min_segment),
            bridge_pause: Millis::new(bridge_pause),
            latch_tolerance: Millis::new(latch_tolerance),
            ignore_labels: if ignore { vec![String::new(), "b".into()] } else { vec![] },
            ..Params::default()
        })
}

/// Talkspurt bounds in milliseconds.
fn ms(l: &[(i64, i64)]) -> Vec<(Millis, Millis)> {
    l.iter().map(|&(s, e)| (Millis::new(s), Millis::new(e))).collect()
}

fn build(tracks: &[(usize, i64, i64)]) -> Transcript {
    let mut b = TranscriptBuilder::new();
    for &(who, start, dur) in tracks {
        b.add(Segment::from_micros(start, start + dur).unwrap(), NAMES[who], None);
    }
    b.build()
}

/// The general stages S3 + S4 on two speakers' talkspurts, as the full pipeline runs them (the
/// oracle for the sweep; it shares no code with it).
fn stages_s3_s4(a: &[(i64, i64)], b: &[(i64, i64)], latch: i64) -> Vec<HeInterval> {
    // S1 numbers only speakers with talk: `b` is speaker 0 when `a` is empty.
    let ib = usize::from(!a.is_empty());
    let mut spurts: Vec<Talkspurt> = a
        .iter()
        .map(|&x| (0, x))
        .chain(b.iter().map(|&x| (ib, x)))
        .map(|(x, (start, end))| {
            Talkspurt::timed(SpeakerIndex::new(x), Millis::new(start), Millis::new(end))
        })
        .collect();
    spurts.sort_by_key(|s| (s.start.get(), s.end.get(), s.speaker));
    he_intervals(&joint_timeline(&spurts, |_| true), Layer::Acoustic, Millis::new(latch))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn sweep_equals_general_stages(tracks in conversation(), p in params()) {
        let t = build(&tracks);
        let fast = he_acoustic(&t, &p);
        prop_assert_eq!(&fast, &he_acoustic_general(&t, &p));
        // And the acoustic layer of the whole analysis, speakers by name.
        let full = analyze(&t, &p).unwrap();
        let mut names: Vec<&str> = full.speakers.keys().map(String::as_str).collect();
        names.sort_unstable();
        let got: Vec<_> = fast
            .iter()
            .map(|h| {
                let name = |i: SpeakerIndex| names[i.index()];
                (h.kind, h.start, h.end, h.prev.map(name), h.next.map(name))
            })
            .collect();
        let want: Vec<_> = full
            .he
            .iter()
            .filter(|h| h.layer == Layer::Acoustic)
            .map(|h| (h.kind, h.start, h.end, h.prev.as_deref(), h.next.as_deref()))
            .collect();
        prop_assert_eq!(got, want);
    }

    #[test]
    fn sweep_of_talkspurt_lists_equals_s3_s4(
        raw in prop::collection::vec((0usize..2, 0i64..200, 1i64..30), 0..40),
        latch in prop_oneof![Just(0i64), 0i64..300],
    ) {
        // Two speakers' talkspurts on a 100 ms grid, each list sorted, disjoint, not touching.
        let mut lists: [Vec<(i64, i64)>; 2] = [Vec::new(), Vec::new()];
        let mut sorted = raw;
        sorted.sort_unstable();
        for (x, a, d) in sorted {
            let (a, b) = (a * 100, (a + d) * 100);
            if lists[x].last().is_none_or(|l| a > l.1) {
                lists[x].push((a, b));
            }
        }
        let (a, b) = (&lists[0], &lists[1]);
        let want = stages_s3_s4(a, b, latch);
        // Appended after what the vector already holds, which stays untouched.
        let first = HeInterval {
            layer: Layer::Floor,
            kind: HeKind::UnboundedSilence,
            start: Millis::new(-5),
            end: Millis::new(-1),
            prev: None,
            next: None,
        };
        let mut out = vec![first.clone()];
        sweep(&ms(a), &ms(b), Millis::new(latch), &mut out);
        prop_assert_eq!(&out[0], &first);
        prop_assert_eq!(&out[1..], &want[..]);
    }

    #[test]
    fn sweep_of_any_lists_never_panics_and_matches_s3_s4_on_them(
        a in prop::collection::vec((-5i64..50, 0i64..20), 0..12),
        b in prop::collection::vec((-5i64..50, 0i64..20), 0..12),
        latch in 0i64..10,
    ) {
        // Unsorted, touching, overlapping or empty talkspurts (not what S2 leaves): the sweep
        // hands them to S3 + S4.
        let a: Vec<(i64, i64)> = a.into_iter().map(|(s, d)| (s, s + d)).collect();
        let b: Vec<(i64, i64)> = b.into_iter().map(|(s, d)| (s, s + d)).collect();
        let mut out = Vec::new();
        sweep(&ms(&a), &ms(&b), Millis::new(latch), &mut out);
        prop_assert_eq!(out, stages_s3_s4(&a, &b, latch));
    }
}
