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

/// The HTML page of `score --events`: exact counts of what it draws, the numbers of the JSON,
/// escaping, no network, one recording and a corpus.
mod html {
    use super::*;
    use overtalk::report::{csp_hash, event_score_report, ReportOptions};

    fn count(html: &str, needle: &str) -> usize {
        html.matches(needle).count()
    }

    /// The text of the `k`-th recording's section.
    fn section(html: &str, k: usize) -> &str {
        let open = format!("<section class=\"file ev-rec\" id=\"rec-{k}\"");
        let a = html.find(&open).unwrap();
        let b = a + html[a..].find("</section>").unwrap();
        &html[a..b]
    }

    #[test]
    fn one_recording_draws_every_event_with_its_cause() {
        let report = run(&inputs("blame.ref.rttm", "blame.hyp.rttm"));
        let html = event_score_report(&report, &ReportOptions::default()).unwrap();
        // 7 matched pairs: 14 marks; 19 unmatched, by the causes of the blame test.
        assert_eq!(count(&html, "<line class=\"ev m\""), 14);
        assert_eq!(count(&html, "<line class=\"ev u "), 19);
        for (cause, n) in [
            ("missed_speech", 1),
            ("false_alarm", 1),
            ("speaker_confusion", 6),
            ("boundary_shift", 8),
            ("rule", 3),
        ] {
            assert_eq!(count(&html, &format!("<line class=\"ev u {cause}\"")), n, "{cause}");
            assert_eq!(count(&html, &format!("data-cause=\"{cause}\"")), n, "{cause}");
        }
        assert_eq!(count(&html, "data-side=\"reference\""), 7 + 12);
        assert_eq!(count(&html, "data-side=\"hypothesis\""), 7 + 7);
        // Matched marks come in pairs with one pair id.
        for i in 0..7 {
            assert_eq!(count(&html, &format!("data-pair=\"p{i}\"")), 2);
        }
        // Lanes: ref A, hyp x → A, ref B, hyp y → B, errors.
        for label in ["ref A", "hyp x → A", "ref B", "hyp y → B"] {
            assert_eq!(count(&html, &format!("title=\"{label}\">{label}</div>")), 1, "{label}");
        }
        assert_eq!(count(&html, "<div class=\"tl-label ev-lane "), 5);
        // Speech bars: the prepared turns of both sides.
        let rec = &report.recordings[0];
        let bars: usize =
            rec.lanes.reference.iter().chain(&rec.lanes.hypothesis).map(|l| l.segments.len()).sum();
        assert_eq!(count(&html, "<rect class=\"sp "), bars);
        assert_eq!(bars, 7 + 7);
        assert_eq!(count(&html, "<rect class=\"er "), rec.lanes.errors.len());
        // Tables: the JSON's numbers.
        assert!(html.contains("<tr class=\"total\" data-class=\"ALL\"><th scope=\"row\">ALL</th><td data-field=\"reference\" data-v=\"19\">19</td><td data-field=\"hypothesis\" data-v=\"14\">14</td><td data-field=\"tp\" data-v=\"7\">7</td><td data-field=\"fp\" data-v=\"7\">7</td><td data-field=\"fn\" data-v=\"12\">12</td>"), "{html}");
        assert_eq!(count(&html, "<tr data-class=\""), 14 + 2 * 7);
        // One recording: every interval is not measurable, never zero.
        assert_eq!(
            count(
                &html,
                "<td class=\"ci\" data-low=\"null\" data-high=\"null\">not measurable</td>"
            ),
            19
        );
        // Self-contained: nothing from the network, the inline style and script by hash.
        assert!(!html.contains("http://") && !html.contains("https://") && !html.contains("src="));
        let csp = html.split("content=\"").nth(1).unwrap().split('"').next().unwrap();
        let style = include_str!("../../src/report/assets/events.css");
        let script = include_str!("../../src/report/assets/events.js");
        assert!(csp.contains(&csp_hash(style).replace('\'', "&#39;")), "{csp}");
        assert!(csp.contains(&csp_hash(script).replace('\'', "&#39;")), "{csp}");
        assert!(html.contains(&format!("<style>{style}</style>")));
        assert!(html.contains(&format!("<script>{script}</script>")));
    }

    #[test]
    fn a_corpus_has_a_section_per_recording_and_interval_figures() {
        let mut all = inputs("blame.ref.rttm", "blame.hyp.rttm");
        all.extend(inputs("is1009a.ref.rttm", "is1009a.hyp.rttm"));
        all.extend(inputs("monologue.ref.rttm", "monologue.hyp.rttm"));
        let report = run(&all);
        assert_eq!(report.recordings.len(), 3);
        let html = event_score_report(&report, &ReportOptions::default()).unwrap();
        assert_eq!(count(&html, "<section class=\"file ev-rec\""), 3);
        assert_eq!(count(&html, "<div class=\"ev-draw\""), 3);
        for (k, rec) in report.recordings.iter().enumerate() {
            let s = section(&html, k);
            assert!(s.contains(&format!("data-recording=\"{}\"", rec.id)));
            assert_eq!(count(s, "<line class=\"ev m\""), 2 * rec.matched.len(), "{}", rec.id);
            assert_eq!(count(s, "<line class=\"ev u "), rec.unmatched.len(), "{}", rec.id);
            for c in Cause::ALL {
                let n = rec.unmatched.iter().filter(|u| u.cause == c).count();
                assert_eq!(count(s, &format!("data-cause=\"{}\"", c.name())), n);
            }
            assert!(html.contains(&format!("<li><a href=\"#rec-{k}\">{}</a></li>", rec.id)));
        }
        // Three recordings: the corpus figures have bootstrap intervals.
        let d = &report.distortion.interruption_count_error;
        let ci = |x: f64| serde_json::to_string(&x).unwrap();
        assert!(html.contains(&format!(
            "data-low=\"{}\" data-high=\"{}\"",
            ci(d.low.unwrap()),
            ci(d.high.unwrap())
        )));
        assert!(html.contains("95 % percentile bootstrap interval over the 3 recordings"));
    }

    #[test]
    fn names_from_the_input_are_escaped() {
        let s = |a, b| overtalk::Segment::from_millis(a, b).unwrap();
        let evil = "<img src=x onerror=alert(1)>\"'&";
        let r = Annotation::from_labelled([
            (s(0, 5_000), evil),
            (s(4_000, 9_000), "B"),
            (s(9_500, 12_000), evil),
        ]);
        let h = Annotation::from_labelled([
            (s(0, 5_300), "</svg><script>x</script>"),
            (s(4_200, 9_000), "y"),
        ]);
        let id = "rec\"><b>bold</b>";
        let report = run(&[RecordingInput::new(id, Some(r), Some(h))]);
        let html = event_score_report(&report, &ReportOptions::default()).unwrap();
        assert!(
            !html.contains("<img")
                && !html.contains("<b>bold")
                && !html.contains("</svg><script>x")
        );
        assert!(html.contains("ref &lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;"));
        assert!(html.contains("rec&quot;&gt;&lt;b&gt;bold&lt;/b&gt;"));
        assert_eq!(count(&html, "<script>"), 1);
        let marks = count(&html, "<line class=\"ev ");
        let rec = &report.recordings[0];
        assert_eq!(marks, 2 * rec.matched.len() + rec.unmatched.len());
        assert!(marks > 0);
    }
}

/// Events by class and time (ms).
type Timed = Vec<(EventClass, i64)>;

/// The reference and hypothesis event times of a report, matched or not.
fn event_times(report: &EventReport) -> (Timed, Timed) {
    let (mut r, mut h) = (Vec::new(), Vec::new());
    for rec in &report.recordings {
        for m in &rec.matched {
            r.push((m.class, m.reference));
            h.push((m.class, m.hypothesis));
        }
        for u in &rec.unmatched {
            let side = if u.side == Side::Reference { &mut r } else { &mut h };
            side.push((u.event.class, u.event.time));
        }
    }
    r.sort_unstable();
    h.sort_unstable();
    (r, h)
}

/// With a UEM only what happens inside it is scored: exactly the events of the whole analysis
/// whose time lies in the UEM, on both sides (the analysis still sees the whole turns, so no
/// event is made or reclassified by the UEM's edges). A UEM over everything changes nothing.
#[test]
fn a_uem_scores_the_events_inside_it() {
    use overtalk::model::{Region, Segment};
    use std::collections::BTreeMap;
    let input = inputs("is1009a.ref.rttm", "is1009a.hyp.rttm");
    let whole = run(&input);
    let with_uem = |from_ms: i64, to_ms: i64| {
        let region = Region::from_segments([Segment::from_millis(from_ms, to_ms).unwrap()]);
        let uem: BTreeMap<String, Region> = [("IS1009a".to_string(), region)].into();
        score_events(
            &input,
            Some(&uem),
            &ScoreOptions::default(),
            &Params::default(),
            &EventOptions::default(),
        )
        .unwrap()
    };
    let (all_r, all_h) = event_times(&whole);
    let (lo, hi) = (300_000, 600_000);
    let cut = with_uem(lo, hi);
    let (r, h) = event_times(&cut);
    let inside = |v: &[(EventClass, i64)]| -> Timed {
        v.iter().copied().filter(|&(_, t)| (lo..hi).contains(&t)).collect()
    };
    assert_eq!(r, inside(&all_r));
    assert_eq!(h, inside(&all_h));
    assert!(r.len() > 50 && r.len() < all_r.len(), "{} of {}", r.len(), all_r.len());
    assert_eq!(cut.total.reference, r.len());
    assert_eq!(cut.total.hypothesis, h.len());
    // The attempts of the who-interrupts-whom matrix are those of the interruption events kept.
    let attempts = |v: &[(EventClass, i64)]| {
        v.iter().filter(|(c, _)| matches!(c, EventClass::Interruption(_))).count()
    };
    let d = &cut.recordings[0].distortion;
    assert_eq!((d.reference_attempts, d.hypothesis_attempts), (attempts(&r), attempts(&h)));
    // A UEM over the whole recording scores what no UEM scores.
    let everything = with_uem(0, 10_000_000);
    assert_eq!(event_times(&everything), (all_r, all_h));
    assert_eq!(everything.recordings[0].distortion, whole.recordings[0].distortion);
    assert_eq!(everything.total, whole.total);
}
