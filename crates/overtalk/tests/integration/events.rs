//! Event-level scoring (`overtalk::events`): identity, relabelling and blame on the fixtures
//! of `tests/data/events` (README there).
#![allow(clippy::unwrap_used)] // Test helpers fail loudly.

use overtalk::analysis::Params;
use overtalk::events::{score_events, Cause, EventClass, EventOptions, EventReport};
use overtalk::format::{read_str, Format, ReadOptions};
use overtalk::score::Side;
use overtalk::score::{RecordingInput, ScoreOptions};
use overtalk::Annotation;

fn rttm(name: &str) -> Vec<(String, Annotation)> {
    let path = overtalk_testkit::fixtures().join("events").join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let read = read_str(&text, Format::Rttm, &ReadOptions::default()).unwrap();
    read.corpus.into_recordings().into_iter().map(|(id, t)| (id, t.annotation().clone())).collect()
}

fn inputs(reference: &str, hypothesis: &str) -> Vec<RecordingInput> {
    let (r, h) = (rttm(reference), rttm(hypothesis));
    r.into_iter()
        .zip(h)
        .map(|((id, r), (_, h))| RecordingInput::new(id, Some(r), Some(h)))
        .collect()
}

fn run(inputs: &[RecordingInput]) -> EventReport {
    score_events(
        inputs,
        None,
        &ScoreOptions::default(),
        &Params::default(),
        &EventOptions::default(),
    )
    .unwrap()
}

const FIXTURES: [&str; 3] = ["blame", "is1009a", "monologue"];

#[test]
fn a_hypothesis_identical_to_the_reference_is_perfect_in_every_class() {
    for f in FIXTURES {
        let r = format!("{f}.ref.rttm");
        let report = run(&inputs(&r, &r));
        for c in report.classes.iter().chain([&report.total]) {
            assert_eq!((c.fp, c.fn_, c.count_error), (0, 0, 0), "{f} {:?}", c.class);
            assert_eq!(c.f1, (c.reference > 0).then_some(1.0), "{f} {:?}", c.class);
            assert_eq!(c.error_rate, (c.reference > 0).then_some(0.0));
            assert_eq!(c.offset_sum, 0);
        }
        for rec in &report.recordings {
            assert!(rec.unmatched.is_empty());
            let d = &rec.distortion;
            assert_eq!(d.interruption_matrix_l1, 0);
            assert_eq!(d.talk_share_pp, Some(0.0));
            assert_eq!(d.floor_share_pp, Some(0.0));
            assert_eq!(d.fto_w1_ms, Some(0.0));
        }
        let d = &report.distortion;
        for a in d.relative_count_error.values() {
            assert!(a.value.is_none_or(|v| v == 0.0), "{f}");
        }
        assert_eq!(d.talk_share_pp.value, Some(0.0));
        assert_eq!(d.fto_w1_ms.value, Some(0.0));
    }
}

#[test]
fn every_class_has_events_in_the_fixtures() {
    let mut seen = std::collections::BTreeSet::new();
    for f in FIXTURES {
        let report = run(&inputs(&format!("{f}.ref.rttm"), &format!("{f}.hyp.rttm")));
        for c in &report.classes {
            if c.reference > 0 && c.hypothesis > 0 {
                seen.insert(c.class.unwrap());
            }
        }
    }
    let missing: Vec<&str> =
        EventClass::ALL.iter().filter(|c| !seen.contains(c)).map(|c| c.name()).collect();
    // Silent interruptions need an incomplete utterance; without words every talkspurt end is
    // a completion point (§5.1 timing mode), so RTTM input never has one.
    assert_eq!(missing, vec!["onset:silent_interruption"]);
}

#[test]
fn relabelling_the_hypothesis_speakers_changes_nothing() {
    for f in FIXTURES {
        let base = inputs(&format!("{f}.ref.rttm"), &format!("{f}.hyp.rttm"));
        let relabelled: Vec<RecordingInput> = base
            .iter()
            .map(|i| {
                let h = i.hypothesis.as_ref().unwrap();
                // Reverse the label order and rename every speaker.
                let tracks: Vec<(overtalk::Segment, String)> = h
                    .tracks()
                    .iter()
                    .map(|t| (t.segment, format!("zz-{}", 1000 - t.speaker.get())))
                    .collect();
                let h2 = Annotation::from_labelled(tracks.iter().map(|(s, n)| (*s, n.as_str())));
                RecordingInput::new(i.id.clone(), i.reference.clone(), Some(h2))
            })
            .collect();
        let (a, b) = (run(&base), run(&relabelled));
        assert_eq!(a.classes, b.classes, "{f}");
        assert_eq!(a.distortion, b.distortion, "{f}");
        for (x, y) in a.recordings.iter().zip(&b.recordings) {
            assert_eq!(x.matched, y.matched, "{f}");
            assert_eq!(x.unmatched, y.unmatched, "{f}");
            assert_eq!(x.der, y.der);
        }
    }
}

/// `blame.{ref,hyp}.rttm` (README in tests/data/events): every mismatch and its cause.
#[test]
fn every_mismatch_in_the_blame_fixture_is_attributed() {
    use Cause::*;
    use Side::*;
    let report = run(&inputs("blame.ref.rttm", "blame.hyp.rttm"));
    let rec = &report.recordings[0];
    type Row<'a> = (Side, &'a str, i64, &'a str, Option<&'a str>, Cause);
    let got: Vec<Row<'_>> = rec
        .unmatched
        .iter()
        .map(|u| {
            let e = &u.event;
            (u.side, e.class.name(), e.time, e.speaker.as_str(), e.other.as_deref(), u.cause)
        })
        .collect();
    let want = vec![
        // B's blip in A's first turn: a backchannel that is not there.
        (Hypothesis, "backchannel", 1000, "B", None, FalseAlarm),
        // B's interruption 300 ms late: the same events, shifted beyond the tolerance.
        (Reference, "onset:interruption", 4000, "B", Some("A"), BoundaryShift),
        (Reference, "interruption:floor_taken", 4000, "B", Some("A"), BoundaryShift),
        (Reference, "turn", 4000, "B", None, BoundaryShift),
        (Hypothesis, "onset:interruption", 4300, "B", Some("A"), BoundaryShift),
        (Hypothesis, "interruption:floor_taken", 4300, "B", Some("A"), BoundaryShift),
        (Hypothesis, "turn", 4300, "B", None, BoundaryShift),
        // B's backchannel missed.
        (Reference, "backchannel", 11000, "B", None, MissedSpeech),
        // B's turn given to A: B's switch, and A's switch back, are gone.
        (Reference, "onset:smooth_switch", 14600, "B", Some("A"), SpeakerConfusion),
        (Reference, "transfer", 14600, "B", Some("A"), SpeakerConfusion),
        (Reference, "turn", 14600, "B", None, SpeakerConfusion),
        (Reference, "onset:smooth_switch", 21000, "A", Some("B"), SpeakerConfusion),
        (Reference, "transfer", 21000, "A", Some("B"), SpeakerConfusion),
        (Reference, "turn", 21000, "A", None, SpeakerConfusion),
        // A ends 600 ms late, outside B's onset window: the rule turns B's terminal overlap
        // into an interruption; the transfer (at A's end) moves with the boundary.
        (Reference, "onset:terminal_overlap", 34800, "B", Some("A"), Rule),
        (Hypothesis, "onset:interruption", 34800, "B", Some("A"), Rule),
        (Hypothesis, "interruption:floor_taken", 34800, "B", Some("A"), Rule),
        (Reference, "transfer", 35000, "B", Some("A"), BoundaryShift),
        (Hypothesis, "transfer", 35600, "B", Some("A"), BoundaryShift),
    ];
    assert_eq!(got, want);
    let counts: Vec<(&str, usize, usize, usize)> = report
        .classes
        .iter()
        .filter(|c| c.reference + c.hypothesis > 0)
        .map(|c| (c.class.unwrap().name(), c.tp, c.fp, c.fn_))
        .collect();
    assert_eq!(
        counts,
        vec![
            ("onset:opening", 1, 0, 0),
            ("onset:smooth_switch", 1, 0, 2),
            ("onset:terminal_overlap", 0, 0, 1),
            ("onset:interruption", 0, 2, 1),
            ("interruption:floor_taken", 0, 2, 1),
            ("backchannel", 0, 1, 1),
            ("transfer", 2, 1, 3),
            ("turn", 3, 1, 3),
        ]
    );
    assert_eq!((report.total.tp, report.total.fp, report.total.fn_), (7, 7, 12));
    assert_eq!(report.total.blame.total(), 19);
    let d = &rec.distortion;
    assert_eq!((d.reference_attempts, d.hypothesis_attempts, d.interruption_matrix_l1), (1, 2, 1));
    assert_eq!(d.interruption_matrix_relative, Some(1.0));
    // Every unmatched event of every fixture has a cause, and the blame table adds up.
    for f in FIXTURES {
        let r = run(&inputs(&format!("{f}.ref.rttm"), &format!("{f}.hyp.rttm")));
        for c in &r.classes {
            assert_eq!(c.blame.total(), c.fp + c.fn_, "{f} {:?}", c.class);
        }
    }
}
