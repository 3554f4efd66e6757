//! Golden tests: the worked examples W1–W6 and the red-carpet re-enactment of
//! conversation-metrics.md §6–7, with the spec's numbers (integer ms, shares to 4 decimals).

#![allow(clippy::unwrap_used)]

use overtalk::analysis::intervals::{HeKind, Layer};
use overtalk::analysis::onsets::{Ferguson, OnsetClass, Outcome};
use overtalk::analysis::{
    analyze, Analysis, AnalysisPreset, AnalysisWarning, Classifier, Millis, Params,
};
use overtalk::{Content, Segment, Transcript, TranscriptBuilder};

use HeKind::*;
use OnsetClass::*;
use Outcome::*;

/// Builds a transcript from `(speaker, start ms, end ms, text)`; empty text = timing-only.
fn transcript(rows: &[(&str, i64, i64, &str)]) -> Transcript {
    let mut b = TranscriptBuilder::new();
    for &(who, a, z, text) in rows {
        let content = (!text.is_empty()).then(|| Content::text(text));
        b.add(Segment::from_millis(a, z).unwrap(), who, content);
    }
    b.build()
}

fn run(rows: &[(&str, i64, i64, &str)]) -> Analysis {
    analyze(&transcript(rows), &Params::default()).unwrap()
}

fn he(r: &Analysis, layer: Layer) -> Vec<(HeKind, i64, i64, String, String)> {
    r.he.iter()
        .filter(|h| h.layer == layer)
        .map(|h| {
            (
                h.kind,
                h.start.get(),
                h.end.get(),
                h.prev.as_deref().unwrap_or_default().to_owned(),
                h.next.as_deref().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

fn he_total(r: &Analysis, layer: Layer, kind: HeKind) -> (usize, i64) {
    let v: Vec<_> = r.he.iter().filter(|h| h.layer == layer && h.kind == kind).collect();
    (v.len(), v.iter().map(|h| h.end.get() - h.start.get()).sum())
}

fn claims(r: &Analysis) -> Vec<(i64, String)> {
    let mut v = vec![];
    if let Some(t) = r.turns.first() {
        v.push((t.claim.get(), t.speaker.to_string()));
    }
    v.extend(r.transfers.iter().map(|t| (t.time.get(), t.to.to_string())));
    v
}

fn turns(r: &Analysis) -> Vec<(String, i64, i64)> {
    r.turns.iter().map(|t| (t.speaker.to_string(), t.start.get(), t.end.get())).collect()
}

fn ftos(r: &Analysis) -> Vec<i64> {
    r.transfers.iter().map(|t| t.fto.unwrap().get()).collect()
}

type OnsetRow = (i64, String, OnsetClass, Outcome, Option<Ferguson>, Option<i64>);

fn onsets(r: &Analysis) -> Vec<OnsetRow> {
    r.onsets
        .iter()
        .map(|o| {
            let d = o.dist_to_completion.map(Millis::get);
            (o.time.get(), o.speaker.to_string(), o.class, o.outcome, o.ferguson, d)
        })
        .collect()
}

fn s(x: &str) -> String {
    x.to_owned()
}

fn r4(x: Option<f64>) -> f64 {
    (x.unwrap() * 10_000.0).round() / 10_000.0
}

fn talk(r: &Analysis, who: &str) -> (i64, i64, i64) {
    let sp = &r.speakers[who];
    (sp.talk.get(), sp.solo.expect("solo measured").get(), sp.floor.get())
}

#[test]
fn w1_canonical_interruption() {
    let r = run(&[("A", 0, 5000, ""), ("B", 4000, 6000, ""), ("A", 6500, 9000, "")]);
    assert!(r.talkspurts.iter().all(|t| !t.is_backchannel));
    let joint: Vec<_> =
        r.joint.iter().map(|j| (j.start.get(), j.end.get(), j.active.join(","))).collect();
    assert_eq!(
        joint,
        vec![
            (0, 4000, s("A")),
            (4000, 5000, s("A,B")),
            (5000, 6000, s("B")),
            (6000, 6500, s("")),
            (6500, 9000, s("A"))
        ]
    );
    assert_eq!(
        he(&r, Layer::Acoustic),
        vec![(OverlapBetween, 4000, 5000, s("A"), s("B")), (Gap, 6000, 6500, s("B"), s("A"))]
    );
    assert_eq!(claims(&r), vec![(0, s("A")), (5000, s("B")), (6500, s("A"))]);
    assert_eq!(turns(&r), vec![(s("A"), 0, 5000), (s("B"), 4000, 6000), (s("A"), 6500, 9000)]);
    assert_eq!(r4(r.conversation.transfers_per_min), 13.3333);
    assert_eq!(ftos(&r), vec![-1000, 500]);
    assert_eq!(
        onsets(&r),
        vec![
            (0, s("A"), Opening, FloorTaken, None, None),
            (4000, s("B"), Interruption, FloorTaken, Some(Ferguson::Simple), Some(1000)),
            (6500, s("A"), SmoothSwitch, FloorTaken, Some(Ferguson::Smooth), None),
        ]
    );
    assert_eq!(talk(&r, "A"), (7500, 6500, 7500));
    assert_eq!(talk(&r, "B"), (2000, 1000, 1500));
    assert_eq!(r4(r.speakers["A"].talk_share), 0.7895);
    assert_eq!(r4(r.speakers["B"].talk_share), 0.2105);
    let c = &r.conversation;
    assert_eq!(
        (c.span.get(), c.silence.get(), c.speech.get(), c.overlap.unwrap().get()),
        (9000, 500, 8500, 1000)
    );
    assert_eq!(r4(c.overlap_ratio), 0.1176);
    assert_eq!(r.pairs.len(), 1);
    assert_eq!((&*r.pairs[0].interrupter, &*r.pairs[0].interruptee), ("B", "A"));
    assert_eq!((r.pairs[0].attempts, r.pairs[0].successful), (1, 1));
    assert_eq!(r.speakers["A"].interruptions_made.unwrap().attempts, 0);
}

const W2_BASE: (&str, i64, i64, &str) =
    ("A", 0, 6000, "So I went down to the market and they had nothing left at all.");

fn check_w2a(r: &Analysis) {
    assert_eq!(r.talkspurts.iter().filter(|t| t.is_backchannel).count(), 1);
    assert_eq!(he(r, Layer::Acoustic), vec![(OverlapWithin, 2000, 2400, s("A"), s("A"))]);
    assert!(he(r, Layer::Floor).is_empty());
    assert_eq!(turns(r), vec![(s("A"), 0, 6000)]);
    assert!(r.transfers.is_empty());
    assert_eq!(onsets(r), vec![(0, s("A"), Opening, FloorTaken, None, None)]);
    assert_eq!(r.conversation.counts.events.interruptions, Some(0));
    assert_eq!((r.speakers["A"].talk.get(), r.speakers["B"].talk.get()), (6000, 400));
    assert_eq!(r4(r.speakers["A"].talk_share), 0.9375);
    assert_eq!(r4(r.speakers["B"].talk_share), 0.0625);
    assert_eq!(r.speakers["B"].backchannels, 1);
}

#[test]
fn w2a_backchannel() {
    let r = run(&[W2_BASE, ("B", 2000, 2400, "mm-hmm")]);
    check_w2a(&r);
    assert_eq!(r.mode["B"], overtalk::analysis::result::Mode::Text);
}

#[test]
fn w2b_butting_in() {
    let r = run(&[W2_BASE, ("B", 2000, 2600, "no wait")]);
    assert!(r.talkspurts.iter().all(|t| !t.is_backchannel));
    assert_eq!(he(&r, Layer::Acoustic), vec![(OverlapWithin, 2000, 2600, s("A"), s("A"))]);
    assert_eq!(
        onsets(&r)[1],
        (2000, s("B"), Interruption, FloorKept, Some(Ferguson::ButtingIn), Some(4000))
    );
    assert_eq!(
        r.speakers["B"].interruptions_made,
        Some(overtalk::analysis::result::Counts { attempts: 1, successful: 0 })
    );
    assert_eq!(r4(r.speakers["A"].talk_share), 0.9091);
    assert_eq!(r4(r.speakers["B"].talk_share), 0.0909);
}

#[test]
fn w2c_backchannel_without_text() {
    let r = run(&[("A", 0, 6000, ""), ("B", 2000, 2400, "")]);
    check_w2a(&r);
    assert_eq!(r.mode["B"], overtalk::analysis::result::Mode::Timing);
}

#[test]
fn w3_three_speakers_simultaneous_start() {
    // The zero-length `C 1.0–1.0 "uh"` cannot exist in the model (segments are non-empty); it
    // is dropped by the readers. A 0.4 µs segment plays its part: it rounds to 0 ms in S1.
    let mut b = TranscriptBuilder::new();
    for &(who, a, z, text) in &[
        ("A", 0, 3000, "So that is my plan."),
        ("A", 2500, 3200, "Any thoughts?"),
        ("B", 3600, 4000, "Well I"),
        ("C", 3650, 6000, "I think we should wait a week."),
        ("A", 6100, 6400, "okay"),
        ("C", 6300, 8000, "and then decide"),
    ] {
        b.add(Segment::from_millis(a, z).unwrap(), who, Some(Content::text(text)));
    }
    b.add(Segment::from_micros(1_000_000, 1_000_400).unwrap(), "C", Some(Content::text("uh")));
    let r = analyze(&b.build(), &Params::default()).unwrap();
    assert_eq!((r.diagnostics.dropped_segments, r.diagnostics.same_speaker_overlaps), (1, 1));
    let spurts: Vec<_> = r
        .talkspurts
        .iter()
        .map(|t| (t.speaker.to_string(), t.start.get(), t.end.get(), t.is_backchannel))
        .collect();
    assert_eq!(
        spurts,
        vec![
            (s("A"), 0, 3200, false),
            (s("B"), 3600, 4000, false),
            (s("C"), 3650, 6000, false),
            (s("A"), 6100, 6400, true),
            (s("C"), 6300, 8000, false),
        ]
    );
    assert_eq!(
        he(&r, Layer::Acoustic),
        vec![
            (Gap, 3200, 3600, s("A"), s("B")),
            (OverlapBetween, 3650, 4000, s("B"), s("C")),
            (Gap, 6000, 6100, s("C"), s("A")),
            (OverlapBetween, 6300, 6400, s("A"), s("C")),
        ]
    );
    assert_eq!(
        he(&r, Layer::Floor),
        vec![
            (Gap, 3200, 3600, s("A"), s("B")),
            (OverlapBetween, 3650, 4000, s("B"), s("C")),
            (Pause, 6000, 6300, s("C"), s("C")),
        ]
    );
    assert_eq!(claims(&r), vec![(0, s("A")), (4000, s("C"))]);
    assert_eq!(turns(&r), vec![(s("A"), 0, 3200), (s("C"), 3650, 8000)]);
    assert_eq!((r.turns[0].n_tokens, r.turns[1].n_tokens, r.turns[1].n_talkspurts), (7, 10, 2));
    assert_eq!(r.speakers["B"].non_floor_contributions, 1);
    assert_eq!(ftos(&r), vec![450]);
    let o = &r.onsets;
    assert_eq!(o.len(), 3);
    assert_eq!((&*o[1].speaker, o[1].class, o[1].outcome), ("B", SimultaneousStart, FloorToThird));
    assert_eq!(o[1].partner.as_deref(), Some("C"));
    assert_eq!((&*o[2].speaker, o[2].class, o[2].outcome), ("C", SimultaneousStart, FloorTaken));
    assert_eq!(o[2].partner.as_deref(), Some("B"));
    assert_eq!(o[1].ferguson, None);
    assert_eq!(r.conversation.counts.events.interruptions, Some(0));
    assert_eq!(talk(&r, "A").0, 3500);
    assert_eq!(talk(&r, "B").0, 400);
    assert_eq!(talk(&r, "C").0, 4050);
    assert_eq!(r4(r.speakers["A"].talk_share), 0.4403);
    assert_eq!(r4(r.speakers["B"].talk_share), 0.0503);
    assert_eq!(r4(r.speakers["C"].talk_share), 0.5094);
    assert_eq!(
        (r.speakers["A"].floor.get(), r.speakers["C"].floor.get(), r.speakers["B"].floor.get()),
        (4000, 4000, 0)
    );
    let c = &r.conversation;
    assert_eq!((c.span.get(), c.silence.get(), c.overlap.unwrap().get()), (8000, 500, 450));
}

#[test]
fn w4a_bridging_pause_gap() {
    let r = run(&[
        ("A", 0, 2000, "I was thinking"),
        ("A", 2150, 4000, "that we could go"),
        ("A", 4500, 6000, "to the coast."),
        ("B", 6300, 7000, "Right."),
    ]);
    let spurts: Vec<_> =
        r.talkspurts.iter().map(|t| (t.start.get(), t.end.get(), t.is_backchannel)).collect();
    assert_eq!(spurts, vec![(0, 4000, false), (4500, 6000, false), (6300, 7000, false)]);
    assert_eq!(
        he(&r, Layer::Acoustic),
        vec![(Pause, 4000, 4500, s("A"), s("A")), (Gap, 6000, 6300, s("A"), s("B"))]
    );
    assert_eq!(claims(&r), vec![(0, s("A")), (6300, s("B"))]);
    assert_eq!(ftos(&r), vec![300]);
    assert_eq!(
        onsets(&r)[1],
        (6300, s("B"), SmoothSwitch, FloorTaken, Some(Ferguson::Smooth), None)
    );
    assert_eq!((talk(&r, "A").0, talk(&r, "B").0), (5500, 700));
    assert_eq!((talk(&r, "A").2, talk(&r, "B").2), (6300, 700));
}

#[test]
fn w4b_silent_interruption() {
    let r = run(&[
        ("A", 0, 2000, "I was thinking"),
        ("A", 2150, 4000, "that we could go"),
        ("B", 4100, 4400, "What?"),
        ("A", 4600, 6000, "to the coast."),
    ]);
    assert_eq!(
        he(&r, Layer::Acoustic),
        vec![(Gap, 4000, 4100, s("A"), s("B")), (Gap, 4400, 4600, s("B"), s("A"))]
    );
    assert_eq!(claims(&r), vec![(0, s("A")), (4100, s("B")), (4600, s("A"))]);
    assert_eq!(ftos(&r), vec![100, 200]);
    assert_eq!((talk(&r, "A").0, talk(&r, "B").0), (5400, 300));
    assert_eq!((talk(&r, "A").2, talk(&r, "B").2), (5500, 500));
    assert_eq!(
        onsets(&r)[1..],
        [
            (4100, s("B"), SilentInterruption, FloorTaken, Some(Ferguson::Silent), None),
            (4600, s("A"), SmoothSwitch, FloorTaken, Some(Ferguson::Smooth), None),
        ]
    );
    assert_eq!(r.speakers["B"].interruptions_made.unwrap().successful, 1);
}

fn check_w5_common(r: &Analysis) {
    assert_eq!(he(r, Layer::Acoustic), vec![(OverlapBetween, 4800, 5000, s("A"), s("B"))]);
    assert_eq!(claims(r), vec![(0, s("A")), (5000, s("B"))]);
    assert_eq!(ftos(r), vec![-200]);
    assert_eq!((talk(r, "A").0, talk(r, "B").0), (5000, 2200));
    assert_eq!((talk(r, "A").2, talk(r, "B").2), (5000, 2000));
}

#[test]
fn w5_completion_from_text_vs_timing() {
    let text = run(&[
        ("A", 0, 5000, "I was saying that the budget is really"),
        ("B", 4800, 7000, "No no no, that is wrong."),
    ]);
    check_w5_common(&text);
    assert_eq!(
        onsets(&text)[1],
        (4800, s("B"), Interruption, FloorTaken, Some(Ferguson::Simple), None)
    );
    let timing = run(&[("A", 0, 5000, ""), ("B", 4800, 7000, "")]);
    check_w5_common(&timing);
    assert_eq!(
        onsets(&timing)[1],
        (4800, s("B"), TerminalOverlap, FloorTaken, Some(Ferguson::Overlap), Some(200))
    );
    assert_eq!(
        (
            text.conversation.counts.events.interruptions,
            timing.conversation.counts.events.interruptions
        ),
        (Some(1), Some(0))
    );
}

#[test]
fn w6_competing_interrupters() {
    let r = run(&[
        ("A", 0, 5000, "I was saying that the budget is"),
        ("B", 3000, 3600, "but the"),
        ("C", 3200, 7000, "Hold on, the numbers are wrong."),
    ]);
    assert_eq!(he(&r, Layer::Acoustic), vec![(OverlapBetween, 3000, 5000, s("A"), s("C"))]);
    assert_eq!(
        onsets(&r)[1..],
        [
            (3000, s("B"), Interruption, FloorToThird, Some(Ferguson::ButtingIn), None),
            (3200, s("C"), Interruption, FloorTaken, Some(Ferguson::Simple), None),
        ]
    );
    assert_eq!(r.onsets[1].holder.as_deref(), Some("A"));
    assert_eq!(claims(&r), vec![(0, s("A")), (5000, s("C"))]);
    assert_eq!(ftos(&r), vec![-1800]);
    assert_eq!((talk(&r, "A").0, talk(&r, "B").0, talk(&r, "C").0), (5000, 600, 3800));
    let pairs: Vec<_> = r
        .pairs
        .iter()
        .map(|p| (&*p.interrupter, &*p.interruptee, p.attempts, p.successful))
        .collect();
    assert_eq!(pairs, vec![("B", "A", 1, 0), ("C", "A", 1, 1)]);
    // "Hold on" is a verbal floor claim; it answers B's onset (the latest other onset).
    assert_eq!(r.verbal_claims.len(), 1);
    assert_eq!(r.verbal_claims[0].phrase, "hold on");
    assert_eq!(r.verbal_claims[0].answers_speaker.as_deref(), Some("B"));
}

/// §7.1: the red-carpet re-enactment (invented timings; interviewer lines are placeholders).
const RED_CARPET: &[(&str, i64, i64, &str)] = &[
    ("Interviewer", 0, 3000, "So, are you on board for a second season?"),
    ("Husband", 3450, 4450, "The Hilaria Show."),
    ("Wife", 4300, 8400, "No, I think we're gonna see, you know, we're gonna see how it feels to be out there."),
    ("Husband", 7900, 9900, "It's gonna be great. You're a winner."),
    ("Wife", 9400, 13000, "Oh my God. When I'm talking, you're not talking. No. When I'm talking, you're not talking."),
    ("Husband", 12750, 13300, "Oh, I'm sorry."),
    ("Wife", 13550, 16400, "This is why, yes, we'll have to just cut him out of the show."),
    ("Interviewer", 18000, 20000, "And life with seven kids?"),
    ("Wife", 20400, 25400, "Every parent knows that a routine is king. Or queen. Routine is key, we'll just say."),
    ("Husband", 25600, 26600, "Routine is essential."),
    ("Husband", 26900, 28000, "What's the Spanish word for essential?"),
    ("Wife", 28300, 28900, "Esencial."),
    ("Wife", 29200, 32000, "Now you're just doing that. Like, why? Why are you distracting me?"),
    ("Husband", 31800, 33600, "I'm just captivated by your beauty."),
    ("Husband", 33900, 35000, "You're so beautiful."),
    ("Wife", 34500, 39500, "Oh my God, stop. You're annoying me. Stop. It's not cute. No, he's distracting me."),
    ("Husband", 37600, 38100, "beautiful"),
    ("Wife", 39800, 42300, "I'm going to, like, walk out of this interview right now."),
];

fn timing_only(
    rows: &[(&'static str, i64, i64, &'static str)],
) -> Vec<(&'static str, i64, i64, &'static str)> {
    rows.iter().map(|&(w, a, z, _)| (w, a, z, "")).collect()
}

const I: &str = "Interviewer";
const A: &str = "Husband";
const H: &str = "Wife";

fn rc_acoustic_table() -> Vec<(HeKind, i64, i64, String, String)> {
    let mut v = vec![
        (Gap, 3000, 3450, s(I), s(A)),
        (OverlapBetween, 4300, 4450, s(A), s(H)),
        (OverlapBetween, 7900, 8400, s(H), s(A)),
        (OverlapBetween, 9400, 9900, s(A), s(H)),
        (OverlapBetween, 12750, 13000, s(H), s(A)),
        (Gap, 13300, 13550, s(A), s(H)),
        (Gap, 16400, 18000, s(H), s(I)),
        (Gap, 20000, 20400, s(I), s(H)),
        (Gap, 25400, 25600, s(H), s(A)),
        (Pause, 26600, 26900, s(A), s(A)),
        (Gap, 28000, 28300, s(A), s(H)),
        (Pause, 28900, 29200, s(H), s(H)),
        (OverlapBetween, 31800, 32000, s(H), s(A)),
        (Pause, 33600, 33900, s(A), s(A)),
        (OverlapBetween, 34500, 35000, s(A), s(H)),
        (OverlapWithin, 37600, 38100, s(H), s(H)),
        (Pause, 39500, 39800, s(H), s(H)),
    ];
    v.sort_by_key(|x| x.1);
    v
}

#[test]
fn red_carpet_text_mode() {
    let r = run(RED_CARPET);
    assert_eq!(r.diagnostics.same_speaker_overlaps, 0);
    assert_eq!(r.talkspurts.len(), 18, "no segment is bridged");
    assert_eq!(r.talkspurts.iter().filter(|t| t.is_backchannel).count(), 0);
    assert_eq!(he(&r, Layer::Acoustic), rc_acoustic_table());
    assert_eq!(he(&r, Layer::Floor), rc_acoustic_table());
    assert_eq!(he_total(&r, Layer::Acoustic, Gap), (6, 3200));
    assert_eq!(he_total(&r, Layer::Acoustic, Pause), (4, 1200));
    assert_eq!(he_total(&r, Layer::Acoustic, OverlapBetween), (6, 2100));
    assert_eq!(he_total(&r, Layer::Acoustic, OverlapWithin), (1, 500));
    assert_eq!(he_total(&r, Layer::Acoustic, Ngno), (0, 0));
    let gaps = r.conversation.he_durations[&Layer::Acoustic][&Gap].as_ref().unwrap();
    // Gaps 200, 250, 300, 400, 450, 1600 ms: median 350, Q1 262.5, Q3 437.5; one ≥ 1 s.
    assert_eq!(
        (gaps.n, gaps.total.get(), gaps.median, gaps.iqr, gaps.long),
        (6, 3200, Some(350.0), Some(175.0), 1)
    );
    let c = &r.conversation;
    assert_eq!(r4(c.overlap_between_share), 0.5);
    assert_eq!(
        (c.span.get(), c.silence.get(), c.speech.get(), c.overlap.unwrap().get()),
        (42300, 4400, 37900, 2600)
    );
    assert_eq!(r4(c.overlap_ratio), 0.0686);
    assert_eq!(c.long_silences, 1);
    assert_eq!(
        claims(&r),
        vec![
            (0, s(I)),
            (3450, s(A)),
            (4450, s(H)),
            (8400, s(A)),
            (9900, s(H)),
            (18000, s(I)),
            (20400, s(H)),
            (25600, s(A)),
            (28300, s(H)),
            (32000, s(A)),
            (35000, s(H)),
        ]
    );
    assert_eq!(r4(c.transfers_per_min), 14.1844);
    assert_eq!(
        turns(&r),
        vec![
            (s(I), 0, 3000),
            (s(A), 3450, 4450),
            (s(H), 4300, 8400),
            (s(A), 7900, 9900),
            (s(H), 9400, 16400),
            (s(I), 18000, 20000),
            (s(H), 20400, 25400),
            (s(A), 25600, 28000),
            (s(H), 28300, 32000),
            (s(A), 31800, 35000),
            (s(H), 34500, 42300),
        ]
    );
    assert_eq!(r.speakers[A].non_floor_contributions, 2);
    assert_eq!(ftos(&r), vec![450, -150, -500, -500, 1600, 400, 200, 300, -200, -500]);
    assert_eq!(r.speakers[A].median_fto_in, Some(0.0));
    assert_eq!(r.speakers[H].median_fto_in, Some(-150.0));
    assert_eq!(r.speakers[I].median_fto_in, Some(1600.0));
    use Ferguson as F;
    assert_eq!(
        onsets(&r),
        vec![
            (0, s(I), Opening, FloorTaken, None, None),
            (3450, s(A), SmoothSwitch, FloorTaken, Some(F::Smooth), None),
            (4300, s(H), TerminalOverlap, FloorTaken, Some(F::Overlap), Some(150)),
            (7900, s(A), Interruption, FloorTaken, Some(F::Overlap), Some(500)),
            (9400, s(H), Interruption, FloorTaken, Some(F::Overlap), Some(357)),
            (12750, s(A), TerminalOverlap, FloorKept, Some(F::ButtingIn), Some(250)),
            (18000, s(I), SmoothSwitch, FloorTaken, Some(F::Smooth), None),
            (20400, s(H), SmoothSwitch, FloorTaken, Some(F::Smooth), None),
            (25600, s(A), SmoothSwitch, FloorTaken, Some(F::Smooth), None),
            (28300, s(H), SmoothSwitch, FloorTaken, Some(F::Smooth), None),
            (31800, s(A), TerminalOverlap, FloorTaken, Some(F::Overlap), Some(200)),
            (34500, s(H), Interruption, FloorTaken, Some(F::Overlap), Some(500)),
            (37600, s(A), Interruption, FloorKept, Some(F::ButtingIn), Some(433)),
        ]
    );
    // Per speaker: talk, solo, floor; shares; turns; longest turn; words; wpm.
    let row = |who: &str| {
        let x = &r.speakers[who];
        let longest = x.longest_turn.unwrap().get();
        (
            x.talk.get(),
            x.solo.expect("solo measured").get(),
            x.floor.get(),
            x.turns,
            longest,
            x.words,
        )
    };
    assert_eq!(row(I), (5000, 5000, 5850, 2, 3000, 14));
    assert_eq!(row(A), (9050, 6450, 8200, 4, 3200, 32));
    assert_eq!(row(H), (26450, 23850, 28250, 5, 7800, 103));
    let shares = |who: &str| {
        let x = &r.speakers[who];
        (r4(x.talk_share), r4(x.floor_share), (x.wpm.unwrap() * 10.0).round() / 10.0)
    };
    assert_eq!(shares(I), (0.1235, 0.1383, 168.0));
    assert_eq!(shares(A), (0.2235, 0.1939, 212.2));
    assert_eq!(shares(H), (0.6531, 0.6678, 233.6));
    let made = |who: &str| {
        let x = &r.speakers[who];
        (
            x.interruptions_made.unwrap().attempts,
            x.interruptions_made.unwrap().successful,
            x.interruptions_received.unwrap().attempts,
        )
    };
    assert_eq!(made(I), (0, 0, 0));
    assert_eq!(made(A), (2, 1, 2));
    assert_eq!(made(H), (2, 2, 2));
    // Extensions (§5.5.6, §5.5.7): longest unbroken stretch, FTO spread, question latency.
    let ext = |who: &str| {
        let x = &r.speakers[who];
        let unbroken = x.longest_unbroken.map(Millis::get);
        (unbroken, x.fto_in_iqr, x.fto_in_negative_share, x.question_fto_median)
    };
    // FTOs into the wife: −500, −500, −150, +300, +400 → Q1 −500, Q3 +300.
    assert_eq!(ext(H), (Some(5000), Some(800.0), Some(0.6), Some(350.0)));
    assert_eq!(ext(A), (Some(2500), Some(537.5), Some(0.5), Some(125.0)));
    assert_eq!(ext(I), (Some(3000), Some(0.0), Some(0.0), None));
    // 12 between-speaker intervals; the middle two are −150 (overlap) and +200 (gap).
    assert_eq!(r.conversation.between_median, Some(25.0));
    let pairs: Vec<_> = r
        .pairs
        .iter()
        .map(|p| {
            let rate = p.rate_per_min_of_interruptee_floor.map(|x| (x * 100.0).round() / 100.0);
            (&*p.interrupter, &*p.interruptee, p.attempts, p.talk_over_events, rate)
        })
        .collect();
    assert_eq!(pairs, vec![(A, H, 2, Some(4), Some(4.25)), (H, A, 2, Some(3), Some(14.63))]);
    // Floor claims in words: "When I'm talking" answers the husband's interruption at 7.90 s.
    // Both "you're not talking" answer it too (the second one through its talkspurt).
    let not: Vec<_> = r
        .verbal_claims
        .iter()
        .filter(|c| c.phrase == "you're not talking")
        .map(|c| (c.start.get(), c.answers_time.map(Millis::get)))
        .collect();
    assert_eq!(not, vec![(10_750, Some(7900)), (12_325, Some(7900))]);
    let when: Vec<_> = r.verbal_claims.iter().filter(|c| c.phrase == "when i'm talking").collect();
    assert_eq!(when.len(), 2);
    assert_eq!((&*when[0].speaker, when[0].start.get()), (H, 10_075));
    assert_eq!(
        (when[0].answers_speaker.as_deref(), when[0].answers_time.map(Millis::get)),
        (Some(A), Some(7900))
    );
    let stops: Vec<_> =
        r.verbal_claims.iter().filter(|c| c.phrase == "stop").map(|c| c.start.get()).collect();
    // #16: 15 tokens over 5 s; "stop." is token 3 → 34500 + R(3·5000/15) = 35500, "Stop." is
    // token 7 → 34500 + R(2333.3) = 36833.
    assert_eq!(stops, vec![35_500, 36_833]);
    assert!(r
        .verbal_claims
        .iter()
        .filter(|c| c.phrase == "stop")
        .all(|c| c.answers_speaker.as_deref() == Some(A)));
}

#[test]
fn red_carpet_timing_only() {
    let r = run(&timing_only(RED_CARPET));
    let bcs: Vec<_> =
        r.talkspurts.iter().filter(|t| t.is_backchannel).map(|t| t.start.get()).collect();
    assert_eq!(bcs, vec![12750, 37600]);
    let ints: Vec<_> = r
        .onsets
        .iter()
        .filter(|o| o.class == Interruption)
        .map(|o| (o.time.get(), &*o.speaker, o.outcome, o.ferguson))
        .collect();
    assert_eq!(
        ints,
        vec![
            (7900, A, FloorTaken, Some(Ferguson::Simple)),
            (9400, H, FloorTaken, Some(Ferguson::Simple)),
            (34500, H, FloorTaken, Some(Ferguson::Simple)),
        ]
    );
    let term: Vec<_> = r
        .onsets
        .iter()
        .filter(|o| o.class == TerminalOverlap)
        .map(|o| (o.time.get(), &*o.speaker))
        .collect();
    assert_eq!(term, vec![(4300, H), (31800, A)]);
    let tov: Vec<_> = r.pairs.iter().map(|p| (&*p.interrupter, p.talk_over_events)).collect();
    assert_eq!(tov, vec![(A, Some(2)), (H, Some(3))]);
    let text = run(RED_CARPET);
    assert_eq!(claims(&r), claims(&text));
    for who in [I, A, H] {
        assert_eq!(r.speakers[who].talk, text.speakers[who].talk);
    }
    assert_eq!(he(&r, Layer::Acoustic), rc_acoustic_table());
    assert_eq!(he_total(&r, Layer::Floor, Gap), (5, 2950));
    assert_eq!(he_total(&r, Layer::Floor, Pause), (5, 1750));
    assert_eq!(he_total(&r, Layer::Floor, OverlapBetween), (5, 1850));
    assert_eq!(he_total(&r, Layer::Floor, OverlapWithin), (0, 0));
    assert!(he(&r, Layer::Floor).contains(&(Pause, 13000, 13550, s(H), s(H))));
}

#[test]
fn red_carpet_variant_b() {
    let rows: Vec<_> = RED_CARPET
        .iter()
        .map(|&(w, a, z, t)| if (w, a) == (H, 9400) { (w, 10_050, z, t) } else { (w, a, z, t) })
        .collect();
    let r = run(&rows);
    let o = r.onsets.iter().find(|o| &*o.speaker == H && o.time.get() == 10_050).unwrap();
    assert_eq!((o.class, o.outcome), (SmoothSwitch, FloorTaken));
    assert_eq!(he(&r, Layer::Acoustic)[3], (Gap, 9900, 10_050, s(A), s(H)));
    let made = |who: &str| {
        (
            r.speakers[who].interruptions_made.unwrap().attempts,
            r.speakers[who].interruptions_made.unwrap().successful,
        )
    };
    assert_eq!((made(A), made(H)), ((2, 1), (1, 1)));
}

#[test]
fn red_carpet_pure_jf() {
    let r = analyze(&transcript(RED_CARPET), &Params::preset(AnalysisPreset::PureJf)).unwrap();
    assert_eq!((r.transfers.len(), r.turns.len()), (12, 13));
    let o = r.onsets.iter().find(|o| o.time.get() == 12_750).unwrap();
    assert_eq!((o.class, o.outcome), (TerminalOverlap, FloorTaken));
    assert!(claims(&r).contains(&(13_000, s(A))));
}

/// The bundled example files are the §7.1 table: the WebVTT (text) analyses exactly like the
/// transcript built above, the RTTM like its timing-only version.
#[test]
fn red_carpet_example_files_match_the_table() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/red-carpet");
    let read = |name: &str| {
        let out = overtalk::format::read_path(
            &dir.join(name),
            None,
            &overtalk::format::ReadOptions::default(),
        )
        .unwrap();
        assert!(out.warnings.is_empty(), "{name}: {:?}", out.warnings);
        let (_, t) = out.corpus.iter().next().unwrap();
        analyze(t, &Params::default()).unwrap()
    };
    assert_eq!(read("red-carpet.vtt"), run(RED_CARPET));
    assert_eq!(read("red-carpet.rttm"), run(&timing_only(RED_CARPET)));
}

#[test]
fn nothing_answers_no_one_under_the_calibrated_classifier() {
    // The opening "Yeah" of a recording (short, then silence, then talk) has the timing and the
    // word of a backchannel, and the model gives it a probability to match; but nobody has
    // spoken yet, so there is nothing to answer. Alone, and before another speaker.
    let one = [("A", 2040, 2310, "Yeah"), ("A", 3180, 9000, "so the plan for today is simple")];
    let two = [
        ("A", 2040, 2310, "Yeah"),
        ("A", 3180, 9000, "so the plan for today is simple"),
        ("B", 9400, 12000, "and what do we do first then"),
        ("A", 10500, 10800, "yeah"),
    ];
    let calibrated = |rows: &[(&str, i64, i64, &str)]| {
        let p = Params { classifier: Classifier::Calibrated, ..Params::default() };
        analyze(&transcript(rows), &p).unwrap()
    };
    for rows in [&one[..], &two[..]] {
        let r = calibrated(rows);
        let first = &r.talkspurts[0];
        assert!(!first.is_backchannel, "{rows:?}");
        assert_eq!(first.p_backchannel, Some(0.0), "{rows:?}");
    }
    // A's "yeah" inside B's turn is still judged by the model (and is one).
    let r = calibrated(&two);
    let late = r.talkspurts.iter().find(|t| t.start == Millis::new(10500)).unwrap();
    assert!(late.is_backchannel && late.p_backchannel.unwrap() > 0.5, "{late:?}");
}

#[test]
fn turns_that_touch_say_the_gaps_were_not_measured() {
    // A timeline tiled with turns (Transcriber, EXMARaLDA): every transfer at offset 0.
    let tiled: Vec<(&str, i64, i64, &str)> = (0..6)
        .map(|k| (if k % 2 == 0 { "A" } else { "B" }, k * 2000, (k + 1) * 2000, ""))
        .collect();
    let r = run(&tiled);
    let touching = |r: &Analysis| {
        r.diagnostics.warnings.iter().any(|w| matches!(w, AnalysisWarning::TouchingTurns { .. }))
    };
    assert!(touching(&r), "{:?}", r.diagnostics.warnings);
    // One real gap among them, or too few transfers: no warning.
    let mut gapped = tiled.clone();
    gapped[3].1 += 150;
    assert!(!touching(&run(&gapped)));
    assert!(!touching(&run(&tiled[..4])));
}
