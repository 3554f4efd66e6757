//! Properties of the scorer on random inputs, a naive frame-based DER to compare against, and
//! degenerate inputs that must get defined answers.
#![allow(clippy::unwrap_used)]

use std::collections::{BTreeMap, HashMap};

use overtalk::format::{self, Format, ReadOptions};
use overtalk::score::{
    error_timeline, prepare_and_map, score, ErrorType, JerDefinition, MappingMethod,
    RecordingInput, ScoreOptions, ScoringPreset,
};
use overtalk::{Annotation, Delta, Region, Segment};
use proptest::prelude::*;

const LABELS: [&str; 4] = ["A", "B", "C", "D"];
const HYP_LABELS: [&str; 4] = ["w", "x", "y", "z"];

/// Up to 12 turns of up to 4 speakers in 0–20 s, on a 100 µs grid.
fn arb_annotation(labels: &'static [&'static str; 4]) -> impl Strategy<Value = Annotation> {
    overtalk_testkit::strategies::annotation(labels, 12)
}

fn arb_preset() -> impl Strategy<Value = ScoringPreset> {
    prop::sample::select(ScoringPreset::ALL.to_vec())
}

fn one(reference: Annotation, hypothesis: Annotation) -> Vec<RecordingInput> {
    vec![RecordingInput::new("rec", Some(reference), Some(hypothesis))]
}

fn rename(a: &Annotation, perm: &[usize]) -> Annotation {
    let map: HashMap<String, String> = HYP_LABELS
        .iter()
        .enumerate()
        .map(|(i, l)| (l.to_string(), HYP_LABELS[perm[i]].to_string()))
        .collect();
    a.rename(&map)
}

/// DER components on 1 ms frames with a brute-force optimal mapping (overtalk default
/// conventions, collar 0): (scored, miss, false alarm, confusion) in frames.
fn naive_frames(r: &Annotation, h: &Annotation) -> (i64, i64, i64, i64) {
    let extent = match (r.extent(), h.extent()) {
        (Some(a), Some(b)) => a.hull(&b),
        (a, b) => match a.or(b) {
            Some(e) => e,
            None => return (0, 0, 0, 0),
        },
    };
    let (start, end) = (extent.start().micros() / 1000, (extent.end().micros() + 999) / 1000);
    let active = |a: &Annotation, t: i64| -> Vec<usize> {
        let mut v: Vec<usize> = a
            .tracks()
            .iter()
            .filter(|tr| tr.segment.start().micros() <= t && t < tr.segment.end().micros())
            .map(|tr| tr.speaker.index())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let (nr, nh) = (r.speakers().len(), h.speakers().len());
    let mut frames = Vec::new();
    let mut co = vec![vec![0i64; nh]; nr];
    for k in start..end {
        let t = k * 1000 + 500;
        let (rs, hs) = (active(r, t), active(h, t));
        for &a in &rs {
            for &b in &hs {
                co[a][b] += 1;
            }
        }
        frames.push((rs, hs));
    }
    // Brute-force best partial injection.
    fn best(
        co: &[Vec<i64>],
        i: usize,
        used: &mut Vec<bool>,
        map: &mut Vec<Option<usize>>,
    ) -> (i64, Vec<Option<usize>>) {
        if i == co.len() {
            return (0, map.clone());
        }
        let mut top = best(co, i + 1, used, map);
        for j in 0..used.len() {
            if !used[j] && co[i][j] > 0 {
                used[j] = true;
                map[i] = Some(j);
                let (v, m) = best(co, i + 1, used, map);
                if v + co[i][j] > top.0 {
                    top = (v + co[i][j], m);
                }
                map[i] = None;
                used[j] = false;
            }
        }
        top
    }
    let (_, mapping) = best(&co, 0, &mut vec![false; nh], &mut vec![None; nr]);
    let (mut scored, mut miss, mut fa, mut conf) = (0, 0, 0, 0);
    for (rs, hs) in frames {
        let (a, b) = (rs.len() as i64, hs.len() as i64);
        let m = rs.iter().filter(|&&x| mapping[x].is_some_and(|y| hs.contains(&y))).count() as i64;
        scored += a;
        miss += (a - b).max(0);
        fa += (b - a).max(0);
        conf += a.min(b) - m;
    }
    (scored, miss, fa, conf)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn der_of_identical_is_zero(x in arb_annotation(&LABELS), preset in arb_preset(), collar in 0i64..600, skip in any::<bool>()) {
        let opts = ScoreOptions::preset(preset).with_collar(Delta::from_millis(collar)).with_skip_overlap(skip);
        let r = score(&one(x.clone(), x.clone()), None, &opts).unwrap();
        prop_assert_eq!(r.total.error(), Delta::ZERO);
        prop_assert_eq!(r.total.correct, r.total.scored);
        if let Some(d) = r.der() { prop_assert_eq!(d, 0.0); }
    }

    #[test]
    fn hypothesis_label_permutation_changes_nothing(
        r in arb_annotation(&LABELS), h in arb_annotation(&HYP_LABELS), preset in arb_preset(),
        perm in Just(vec![0usize, 1, 2, 3]).prop_shuffle(),
    ) {
        let opts = ScoreOptions::preset(preset);
        let a = score(&one(r.clone(), h.clone()), None, &opts).unwrap();
        let b = score(&one(r, rename(&h, &perm)), None, &opts).unwrap();
        prop_assert_eq!(a.total, b.total);
        prop_assert_eq!(a.jer.is_some(), b.jer.is_some());
        // Frame JER pairs speakers to minimise JER, so its value cannot depend on labels. (The
        // continuous JER reuses the DER mapping, whose ties may be broken by label order.)
        if let (Some(x), Some(y), JerDefinition::Frames) = (a.jer, b.jer, opts.jer) { prop_assert!((x - y).abs() < 1e-6, "JER {} vs {}", x, y); }
    }

    #[test]
    fn components_add_up_and_jer_is_a_fraction(
        r in arb_annotation(&LABELS), h in arb_annotation(&HYP_LABELS), preset in arb_preset(),
        collar in 0i64..600, skip in any::<bool>(), greedy in any::<bool>(), continuous in any::<bool>(),
    ) {
        let mut opts = ScoreOptions::preset(preset).with_collar(Delta::from_millis(collar)).with_skip_overlap(skip);
        if greedy { opts.mapping = MappingMethod::Greedy; }
        if continuous { opts.jer = JerDefinition::Continuous; } else { opts.jer = JerDefinition::Frames; }
        let rep = score(&one(r.clone(), h.clone()), None, &opts).unwrap();
        let t = rep.total;
        prop_assert_eq!(t.correct + t.confusion + t.miss, t.scored);
        for x in [t.correct, t.confusion, t.miss, t.false_alarm] { prop_assert!(x >= Delta::ZERO); }
        if let Some(j) = rep.jer {
            prop_assert!((0.0..=1.0).contains(&j), "JER {}", j);
        }
        // The error timeline carries the same times as the components.
        let input = RecordingInput::new("rec", Some(r), Some(h));
        let skipped = rep.files[0].status == overtalk::score::FileStatus::Skipped;
        if let (false, Some((p, mapping))) = (skipped, prepare_and_map(&input, None, false, &opts).unwrap()) {
            let tl = error_timeline(&p, &mapping, opts.self_overlap == overtalk::score::SelfOverlap::CountEach);
            let sum = |k: ErrorType| tl.iter().filter(|e| e.kind == k).map(|e| e.segment.duration()).sum::<Delta>();
            prop_assert_eq!(sum(ErrorType::Correct), t.correct);
            prop_assert_eq!(sum(ErrorType::Confusion), t.confusion);
            prop_assert_eq!(sum(ErrorType::Miss), t.miss);
            prop_assert_eq!(sum(ErrorType::FalseAlarm), t.false_alarm);
        }
    }

    #[test]
    fn clustering_metrics_are_in_range_and_greedy_never_beats_hungarian(
        r in arb_annotation(&LABELS), h in arb_annotation(&HYP_LABELS),
    ) {
        let rep = score(&one(r.clone(), h.clone()), None, &ScoreOptions::default()).unwrap();
        if let Some(c) = rep.cluster {
            for x in [c.bcubed_precision, c.bcubed_recall, c.bcubed_f1, c.normalized_mutual_information] {
                prop_assert!((0.0..=1.0 + 1e-12).contains(&x), "{:?}", c);
            }
            for x in [c.h_ref_given_sys, c.h_sys_given_ref, c.mutual_information] {
                prop_assert!(x >= -1e-12, "{:?}", c);
            }
        }
        prop_assert!((0.0..=1.0).contains(&rep.purity) && (0.0..=1.0).contains(&rep.coverage));
        let greedy = ScoreOptions { mapping: MappingMethod::Greedy, ..ScoreOptions::default() };
        let g = score(&one(r, h), None, &greedy).unwrap();
        prop_assert!(g.total.correct <= rep.total.correct);
        prop_assert_eq!(g.total.scored, rep.total.scored);
        prop_assert_eq!(g.total.miss, rep.total.miss);
    }

    #[test]
    fn exact_der_matches_naive_frames(r in arb_annotation(&LABELS), h in arb_annotation(&HYP_LABELS)) {
        let rep = score(&one(r.clone(), h.clone()), None, &ScoreOptions::default()).unwrap();
        let (scored, miss, fa, conf) = naive_frames(&r, &h);
        // Each turn boundary can misplace at most one 1 ms frame for each of at most 4 speakers.
        let boundaries = 2 * (r.len() + h.len()) as i64;
        let tol = 4 * boundaries;
        let ms = |d: Delta| d.micros() as f64 / 1000.0;
        for (name, exact, naive) in [("scored", rep.total.scored, scored), ("miss", rep.total.miss, miss), ("fa", rep.total.false_alarm, fa), ("conf", rep.total.confusion, conf)] {
            prop_assert!((ms(exact) - naive as f64).abs() <= tol as f64, "{}: exact {} ms vs frames {}", name, ms(exact), naive);
        }
    }

    #[test]
    fn never_panics_on_odd_uems(
        r in arb_annotation(&LABELS), h in arb_annotation(&HYP_LABELS), preset in arb_preset(),
        uem in proptest::collection::vec((-5_000i64..25_000, 0i64..10_000), 0..4), collar in 0i64..2_000,
    ) {
        let u: BTreeMap<String, Region> = [("rec".to_owned(), Region::from_segments(uem.iter().filter_map(|&(a, d)| Segment::from_millis(a, a + d))))].into_iter().collect();
        let opts = ScoreOptions::preset(preset).with_collar(Delta::from_millis(collar));
        let rep = score(&one(r, h), Some(&u), &opts).unwrap();
        let t = rep.total;
        prop_assert_eq!(t.correct + t.confusion + t.miss, t.scored);
        if let Some(d) = rep.der() { prop_assert!(d.is_finite() && d >= 0.0); }
    }
}

fn s(a: i64, b: i64) -> Segment {
    Segment::from_millis(a, b).unwrap()
}

#[test]
fn empty_hypothesis_is_all_miss() {
    let r = Annotation::from_labelled([(s(0, 10_000), "A")]);
    for h in [Some(Annotation::default()), None] {
        let rep =
            score(&[RecordingInput::new("f", Some(r.clone()), h)], None, &ScoreOptions::default())
                .unwrap();
        assert_eq!(rep.der(), Some(1.0));
        assert_eq!(rep.total.miss, Delta::from_secs(10));
        assert_eq!(rep.jer, Some(1.0));
    }
}

#[test]
fn empty_reference_has_undefined_der() {
    let h = Annotation::from_labelled([(s(0, 5_000), "x")]);
    let inputs = [RecordingInput::new("f", Some(Annotation::default()), Some(h))];
    let rep = score(&inputs, None, &ScoreOptions::default()).unwrap();
    assert_eq!(rep.der(), None);
    assert_eq!(rep.total.false_alarm, Delta::from_secs(5));
    assert_eq!(rep.macro_der(), None);
    // pyannote's rule: 100 % when there is error and nothing to score.
    let rep = score(&inputs, None, &ScoreOptions::preset(ScoringPreset::Pyannote)).unwrap();
    assert_eq!(rep.der(), Some(1.0));
    // md-eval ignores recordings without reference turns.
    let rep = score(&inputs, None, &ScoreOptions::preset(ScoringPreset::MdEval)).unwrap();
    assert_eq!(rep.total, Default::default());
    assert_eq!(rep.der(), None);
}

#[test]
fn no_common_recordings() {
    let r = Annotation::from_labelled([(s(0, 4_000), "A")]);
    let h = Annotation::from_labelled([(s(0, 6_000), "x")]);
    let inputs = [RecordingInput::new("a", Some(r), None), RecordingInput::new("b", None, Some(h))];
    let rep = score(&inputs, None, &ScoreOptions::default()).unwrap();
    assert_eq!(rep.total.miss, Delta::from_secs(4));
    assert_eq!(rep.total.false_alarm, Delta::from_secs(6));
    assert_eq!(rep.der(), Some(2.5));
    assert!(score(&[], None, &ScoreOptions::default()).unwrap().der().is_none());
}

#[test]
fn uem_covering_nothing() {
    let r = Annotation::from_labelled([(s(0, 4_000), "A")]);
    let h = Annotation::from_labelled([(s(0, 4_000), "x")]);
    let uem: BTreeMap<String, Region> =
        [("f".to_owned(), Region::from_segment(s(10_000, 20_000)))].into_iter().collect();
    let rep = score(
        &[RecordingInput::new("f", Some(r.clone()), Some(h.clone()))],
        Some(&uem),
        &ScoreOptions::default(),
    )
    .unwrap();
    assert_eq!(rep.total.scored, Delta::ZERO);
    assert_eq!(rep.der(), None);
    // An empty UEM entry and a UEM for another recording.
    let empty: BTreeMap<String, Region> = [("f".to_owned(), Region::new())].into_iter().collect();
    let rep = score(
        &[RecordingInput::new("f", Some(r.clone()), Some(h.clone()))],
        Some(&empty),
        &ScoreOptions::default(),
    )
    .unwrap();
    assert_eq!(rep.der(), None);
    let other: BTreeMap<String, Region> =
        [("g".to_owned(), Region::from_segment(s(0, 1_000)))].into_iter().collect();
    let rep = score(
        &[RecordingInput::new("f", Some(r), Some(h))],
        Some(&other),
        &ScoreOptions::preset(ScoringPreset::Dscore),
    )
    .unwrap();
    assert_eq!(rep.der(), None, "dscore drops recordings missing from the UEM");
}

#[test]
fn spyder_scores_nothing_of_a_recording_its_uem_omits() {
    // spy-der 0.4.1: f1 scored on its UEM (1 s), f2 not at all (`Overall 1.00`).
    let f1 = Annotation::from_labelled([(s(1_000, 5_000), "A")]);
    let f2 = Annotation::from_labelled([(s(13_000, 15_000), "B")]);
    let uem: BTreeMap<String, Region> =
        [("f1".to_owned(), Region::from_segment(s(1_000, 2_000)))].into_iter().collect();
    let inputs = [
        RecordingInput::new("f1", Some(f1), Some(Annotation::default())),
        RecordingInput::new("f2", Some(f2), Some(Annotation::default())),
    ];
    let rep = score(&inputs, Some(&uem), &ScoreOptions::preset(ScoringPreset::Spyder)).unwrap();
    assert_eq!(rep.total.scored, Delta::from_millis(1_000));
    // md-eval scores f2 on its default region.
    let rep = score(&inputs, Some(&uem), &ScoreOptions::preset(ScoringPreset::MdEval)).unwrap();
    assert_eq!(rep.total.scored, Delta::from_millis(3_000));
}

#[test]
fn zero_length_and_negative_turns_from_rttm() {
    let text = "SPEAKER f 1 0.000 5.000 <NA> <NA> A <NA> <NA>\n\
                SPEAKER f 1 5.000 0.000 <NA> <NA> C <NA> <NA>\n\
                SPEAKER f 1 6.000 -1.000 <NA> <NA> B <NA> <NA>\n";
    let read = format::read_str(text, Format::Rttm, &ReadOptions::default()).unwrap();
    let a = read.corpus.get("f").unwrap().annotation().clone();
    assert_eq!(a.len(), 1);
    let rep = score(
        &[RecordingInput::new("f", Some(a.clone()), Some(a))],
        None,
        &ScoreOptions::default(),
    )
    .unwrap();
    assert_eq!(rep.der(), Some(0.0));
    assert_eq!(rep.total.scored, Delta::from_secs(5));
}

#[test]
fn ids_with_dots_and_spaces() {
    let r = Annotation::from_labelled([(s(5_000, 10_000), "spk 1")]);
    let h = Annotation::from_labelled([(s(0, 10_000), "sys 1")]);
    let uem: BTreeMap<String, Region> =
        [("rec one.a".to_owned(), Region::from_segment(s(0, 15_000)))].into_iter().collect();
    let inputs = [RecordingInput::new("rec one.a", Some(r), Some(h))];
    let exact = score(&inputs, Some(&uem), &ScoreOptions::default()).unwrap();
    assert_eq!(exact.der(), Some(1.0));
    assert_eq!(exact.files[0].mapping, vec![("spk 1".to_owned(), "sys 1".to_owned())]);
    // md-eval cuts the UEM id at the dot and falls back to the reference extent.
    let md = score(&inputs, Some(&uem), &ScoreOptions::preset(ScoringPreset::MdEval)).unwrap();
    assert_eq!(md.der(), Some(0.0));
}

#[test]
fn dscore_rejects_zero_length_turns() {
    let r = Annotation::from_labelled([(s(0, 5_000), "A")]);
    let mut input = RecordingInput::new("f", Some(r.clone()), Some(r));
    input.zero_length.push(overtalk::score::ZeroLengthTurn {
        side: overtalk::score::Side::Reference,
        speaker: "C".into(),
        at: overtalk::Time::from_millis(5_000),
    });
    let err =
        score(std::slice::from_ref(&input), None, &ScoreOptions::preset(ScoringPreset::Dscore))
            .unwrap_err();
    assert!(err.to_string().contains("zero-length"), "{err}");
    // spyder keeps C on to the end of the region: nothing to end at here, so no change.
    let rep = score(&[input], None, &ScoreOptions::preset(ScoringPreset::Spyder)).unwrap();
    assert_eq!(rep.der(), Some(0.0));
}

#[test]
fn too_many_speakers_is_a_limit_error_not_a_hang() {
    let names: Vec<String> = (0..1001).map(|i| format!("s{i}")).collect();
    let a = Annotation::from_labelled(
        names.iter().enumerate().map(|(i, n)| (s(i as i64 * 10, i as i64 * 10 + 5), n.as_str())),
    );
    let err = score(
        &[RecordingInput::new("f", Some(a.clone()), Some(a))],
        None,
        &ScoreOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(err.kind(), overtalk::ErrorKind::Limit(_)), "{err}");
}
