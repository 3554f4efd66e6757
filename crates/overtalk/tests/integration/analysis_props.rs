//! Property tests of the analysis on random conversations (conversation-metrics.md §8), and
//! defined results on degenerate and large inputs.

#![allow(clippy::unwrap_used)]

use std::collections::HashMap;

use overtalk::analysis::floor::{holder_at, Claim};
use overtalk::analysis::intervals::HeKind;
use overtalk::analysis::onsets::OnsetClass;
use overtalk::analysis::{analyze, Analysis, Millis, Params, SpeakerIndex};
use overtalk::{Content, Segment, Transcript, TranscriptBuilder};
use proptest::prelude::*;
use serde_json::Value;

const WORDS: &[&str] = &[
    "yeah", "mm-hmm", "right.", "so", "I", "think", "that", "is", "wrong.", "okay", "well", "no",
    "wait—", "really?", "the", "plan", "works.", "uh", "and", "stop",
];

#[derive(Clone, Debug)]
struct Seg {
    speaker: usize,
    start: i64,
    dur: i64,
    words: Vec<usize>,
}

fn seg_strategy(n_speakers: usize, text: bool) -> impl Strategy<Value = Seg> {
    (
        0..n_speakers,
        0i64..30_000,
        prop_oneof![1i64..400, 1i64..1500, 1i64..6000],
        prop::collection::vec(0..WORDS.len(), if text { 0..6 } else { 0..1 }),
    )
        .prop_map(|(speaker, start, dur, words)| Seg { speaker, start, dur, words })
}

fn conversation() -> impl Strategy<Value = (usize, Vec<Seg>)> {
    (2usize..=5, any::<bool>())
        .prop_flat_map(|(n, text)| (Just(n), prop::collection::vec(seg_strategy(n, text), 0..40)))
}

fn build(segs: &[Seg], name: impl Fn(usize) -> String, shift: i64) -> Transcript {
    let mut b = TranscriptBuilder::new();
    for s in segs {
        let content = (!s.words.is_empty()).then(|| {
            Content::text(s.words.iter().map(|&w| WORDS[w]).collect::<Vec<_>>().join(" "))
        });
        let seg = Segment::from_millis(s.start + shift, s.start + s.dur + shift).unwrap();
        b.add(seg, &name(s.speaker), content);
    }
    b.build()
}

fn default_name(i: usize) -> String {
    format!("S{i}")
}

fn claims_of(r: &Analysis) -> Vec<(i64, String)> {
    r.turns.iter().map(|t| (t.claim.get(), t.speaker.to_string())).collect()
}

/// Replaces every string (values and keys) found in `map`.
fn rename_json(v: &Value, map: &HashMap<String, String>) -> Value {
    match v {
        Value::String(s) => Value::String(map.get(s).cloned().unwrap_or_else(|| s.clone())),
        Value::Array(a) => Value::Array(a.iter().map(|x| rename_json(x, map)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| {
                    (map.get(k).cloned().unwrap_or_else(|| k.clone()), rename_json(x, map))
                })
                .collect(),
        ),
        x => x.clone(),
    }
}

fn check_invariants(r: &Analysis) {
    // Joint timeline: ordered, gap-free, covering the span.
    let c = &r.conversation;
    if let (Some(first), Some(last)) = (r.joint.first(), r.joint.last()) {
        assert_eq!(Some(first.start), c.start);
        assert_eq!(last.end, c.start.unwrap() + c.span);
        for w in r.joint.windows(2) {
            assert_eq!(w[0].end.get(), w[1].start.get());
            assert_ne!(w[0].active, w[1].active);
        }
    } else {
        assert_eq!(c.span.get(), 0);
    }
    // talk = solo + overlap pieces containing the speaker (bc_counts_as_talk = true).
    for (name, s) in &r.speakers {
        let overlap: i64 = r
            .joint
            .iter()
            .filter(|p| p.active.len() >= 2 && p.active.iter().any(|a| **a == **name))
            .map(|p| p.end.get() - p.start.get())
            .sum();
        assert_eq!(s.talk.get(), s.solo.expect("solo measured").get() + overlap, "talk of {name}");
    }
    // Floor tenures partition [opening claim, span end).
    let floor: i64 = r.speakers.values().map(|s| s.floor.get()).sum();
    match r.turns.first() {
        Some(t0) => {
            assert_eq!(floor, (c.start.unwrap() + c.span - t0.claim).get());
            for w in r.turns.windows(2) {
                assert!(w[0].claim < w[1].claim);
                assert_ne!(w[0].speaker, w[1].speaker);
            }
        }
        None => assert_eq!(floor, 0),
    }
    // Every turn's claim lies inside its extent; transfers = turns − 1.
    for t in &r.turns {
        assert!(t.start.get() <= t.claim.get() && t.claim.get() < t.end.get());
    }
    assert_eq!(r.transfers.len(), r.turns.len().saturating_sub(1));
    // The interruptee of every onset held the floor at its onset, and is not the onset speaker.
    let names: Vec<&String> = r.speakers.keys().collect();
    let idx = |n: &str| SpeakerIndex::new(names.iter().position(|x| *x == n).unwrap());
    let claims: Vec<Claim> = r
        .turns
        .iter()
        .map(|t| Claim { time: t.claim, speaker: idx(&t.speaker), spurt: 0 })
        .collect();
    for o in &r.onsets {
        let h = holder_at(&claims, o.time).map(|i| names[i.index()].as_str());
        assert_eq!(o.holder.as_deref(), h);
        assert_ne!(o.holder.as_deref(), Some(&*o.speaker));
        if o.class == OnsetClass::Opening {
            assert!(o.holder.is_none());
        }
    }
    // Counts equal the lengths of their event lists.
    let k = &c.counts.events;
    assert_eq!(k.turns, r.turns.len());
    assert_eq!(k.transfers, r.transfers.len());
    assert_eq!(c.counts.talkspurts, r.talkspurts.len());
    assert_eq!(k.backchannels, r.talkspurts.iter().filter(|t| t.is_backchannel).count());
    let attempts = r
        .onsets
        .iter()
        .filter(|o| matches!(o.class, OnsetClass::Interruption | OnsetClass::SilentInterruption))
        .count();
    assert_eq!(k.interruptions, Some(attempts));
    assert_eq!(k.interruptions, k.successful.zip(k.unsuccessful).map(|(s, u)| s + u));
    // Talk-over events are the rule-2 onsets (the holder talking), whatever the classifier's
    // class; a terminal overlap is always one.
    assert_eq!(
        k.talk_over_events,
        Some(r.onsets.iter().filter(|o| o.holder_remaining.is_some()).count())
    );
    assert!(r
        .onsets
        .iter()
        .filter(|o| o.class == OnsetClass::TerminalOverlap)
        .all(|o| o.holder_remaining.is_some()));
    assert_eq!(
        k.terminal_overlaps,
        Some(r.onsets.iter().filter(|o| o.class == OnsetClass::TerminalOverlap).count())
    );
    assert_eq!(k.verbal_claims, r.verbal_claims.len());
    assert_eq!(r.pairs.iter().map(|p| p.attempts).sum::<usize>(), attempts);
    assert_eq!(
        r.pairs.iter().map(|p| p.talk_over_events).sum::<Option<usize>>(),
        k.talk_over_events
    );
    assert_eq!(
        r.speakers.values().map(|s| s.interruptions_made.unwrap().attempts).sum::<usize>(),
        attempts
    );
    assert_eq!(
        r.speakers.values().map(|s| s.interruptions_received.unwrap().attempts).sum::<usize>(),
        attempts
    );
    assert_eq!(r.speakers.values().map(|s| s.turns).sum::<usize>(), r.turns.len());
    assert_eq!(r.speakers.values().map(|s| s.backchannels).sum::<usize>(), k.backchannels);
    for (layer, kinds) in &c.he_counts {
        for (kind, n) in kinds {
            let listed = r.he.iter().filter(|h| h.layer == *layer && h.kind == *kind).count();
            assert_eq!(*n, Some(listed));
        }
    }
    let long =
        r.he.iter()
            .filter(|h| {
                h.layer == overtalk::analysis::intervals::Layer::Acoustic
                    && matches!(h.kind, HeKind::Gap | HeKind::Pause)
                    && h.end - h.start >= r.params.long_silence
            })
            .count();
    assert_eq!(c.long_silences, long);
    // Shares sum to 1.
    if r.speakers.values().any(|s| s.talk.get() > 0) {
        let sum: f64 = r.speakers.values().filter_map(|s| s.talk_share).sum();
        assert!((sum - 1.0).abs() < 1e-9);
    }
    assert_eq!(c.speech + c.silence, c.span);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn invariants_hold((_, segs) in conversation()) {
        let r = analyze(&build(&segs, default_name, 0), &Params::default()).unwrap();
        check_invariants(&r);
        let jf = analyze(&build(&segs, default_name, 0), &Params::preset(overtalk::analysis::AnalysisPreset::PureJf)).unwrap();
        check_invariants(&jf);
    }

    #[test]
    fn input_order_does_not_matter((_, segs) in conversation(), seed in any::<u64>()) {
        let a = analyze(&build(&segs, default_name, 0), &Params::default()).unwrap();
        let mut shuffled = segs.clone();
        // A deterministic permutation from the seed.
        let n = shuffled.len();
        let mut s = seed;
        for i in (1..n).rev() {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            shuffled.swap(i, (s >> 33) as usize % (i + 1));
        }
        let b = analyze(&build(&shuffled, default_name, 0), &Params::default()).unwrap();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn renaming_speakers_only_renames((n, segs) in conversation()) {
        let a = analyze(&build(&segs, default_name, 0), &Params::default()).unwrap();
        // Order-preserving renaming: the result is identical up to the names.
        let b = analyze(&build(&segs, |i| format!("spk-{i}"), 0), &Params::default()).unwrap();
        let back: HashMap<String, String> = (0..n).map(|i| (format!("spk-{i}"), default_name(i))).collect();
        prop_assert_eq!(serde_json::to_value(&a).unwrap(), rename_json(&serde_json::to_value(&b).unwrap(), &back));
        // Order-reversing renaming: per-speaker figures follow the speaker.
        let c = analyze(&build(&segs, |i| format!("r{}", 9 - i), 0), &Params::default()).unwrap();
        for (name, s) in &a.speakers {
            let i: usize = name[1..].parse().unwrap();
            let t = &c.speakers[&format!("r{}", 9 - i)];
            prop_assert_eq!((s.talk, s.solo, s.floor, s.turns, s.backchannels), (t.talk, t.solo, t.floor, t.turns, t.backchannels));
            prop_assert_eq!(s.interruptions_made, t.interruptions_made);
            prop_assert_eq!(s.interruptions_received, t.interruptions_received);
        }
        prop_assert_eq!(&a.conversation.counts, &c.conversation.counts);
    }

    #[test]
    fn time_shift_moves_events_only((_, segs) in conversation(), shift in 1i64..1_000_000) {
        let a = analyze(&build(&segs, default_name, 0), &Params::default()).unwrap();
        let b = analyze(&build(&segs, default_name, shift), &Params::default()).unwrap();
        prop_assert_eq!(&a.speakers, &b.speakers);
        prop_assert_eq!(&a.conversation.counts, &b.conversation.counts);
        prop_assert_eq!(a.conversation.span, b.conversation.span);
        let shifted: Vec<_> = claims_of(&a).into_iter().map(|(t, s)| (t + shift, s)).collect();
        prop_assert_eq!(shifted, claims_of(&b));
    }

    #[test]
    fn duplicates_and_split_segments_change_only_diagnostics((_, segs) in conversation(), gap in 0i64..200) {
        let clean = |mut r: Analysis| {
            r.diagnostics = Default::default();
            r
        };
        let a = analyze(&build(&segs, default_name, 0), &Params::default()).unwrap();
        let mut doubled = segs.clone();
        doubled.extend(segs.iter().cloned());
        let d = analyze(&build(&doubled, default_name, 0), &Params::default()).unwrap();
        // Every added copy is dropped, plus the duplicates `segs` already had.
        prop_assert_eq!(d.diagnostics.dropped_segments, segs.len() + a.diagnostics.dropped_segments);
        prop_assert_eq!(clean(a.clone()), clean(d));
        // Timing-only: splitting a segment with an overlap or a silence shorter than
        // bridge_pause leaves everything but the diagnostics unchanged.
        let timing: Vec<Seg> = segs.iter().map(|s| Seg { words: vec![], ..s.clone() }).collect();
        let t = analyze(&build(&timing, default_name, 0), &Params::default()).unwrap();
        let mut split = Vec::new();
        for s in &timing {
            if s.dur >= 2 * gap + 4 {
                let m = s.dur / 2;
                split.push(Seg { dur: m, ..s.clone() });
                split.push(Seg { start: s.start + m + gap, dur: s.dur - m - gap, ..s.clone() });
                split.push(Seg { start: s.start + m - 1, dur: 2, ..s.clone() });
            } else {
                split.push(s.clone());
            }
        }
        let u = analyze(&build(&split, default_name, 0), &Params::default()).unwrap();
        prop_assert_eq!(clean(t), clean(u));
    }

    #[test]
    fn backchannel_count_grows_with_bc_max_duration((_, segs) in conversation(), extra in 0i64..3000) {
        let t = build(&segs, default_name, 0);
        let p = Params::default();
        let q = Params { bc_max_duration: p.bc_max_duration + Millis::new(extra), ..Params::default() };
        let a = analyze(&t, &p).unwrap();
        let b = analyze(&t, &q).unwrap();
        prop_assert!(a.conversation.counts.events.backchannels <= b.conversation.counts.events.backchannels);
        let r = Params { bridge_pause: p.bridge_pause + Millis::new(extra), ..Params::default() };
        prop_assert!(analyze(&t, &r).unwrap().talkspurts.len() <= a.talkspurts.len());
    }
}

// ── Defined results, never a panic ──────────────────────────────────────────────────────────

fn ms(a: i64, b: i64) -> Segment {
    Segment::from_millis(a, b).unwrap()
}

#[test]
fn empty_conversation() {
    let r = analyze(&Transcript::default(), &Params::default()).unwrap();
    check_invariants(&r);
    assert!(r.speakers.is_empty() && r.turns.is_empty() && r.joint.is_empty());
    assert_eq!((r.conversation.span.get(), r.conversation.start), (0, None));
    assert_eq!((r.conversation.overlap_ratio, r.conversation.transfers_per_min), (None, None));
    let json = serde_json::to_string(&r).unwrap();
    assert!(json.contains("\"overlap_ratio\":null"));
}

#[test]
fn one_speaker() {
    let mut b = TranscriptBuilder::new();
    b.add(ms(0, 1000), "A", None).add(ms(1100, 2000), "A", None).add(ms(3000, 4000), "A", None);
    let r = analyze(&b.build(), &Params::default()).unwrap();
    check_invariants(&r);
    assert_eq!(r.talkspurts.len(), 2);
    assert_eq!(r.turns.len(), 1);
    assert_eq!(r.speakers["A"].floor.get(), 4000);
    assert_eq!(r.speakers["A"].talk_share, Some(1.0));
    assert_eq!(
        r.conversation.he_counts[&overtalk::analysis::intervals::Layer::Acoustic][&HeKind::Pause],
        Some(1)
    );
    assert_eq!(r.onsets.len(), 1);
    assert_eq!(r.speakers["A"].median_fto_in, None);
    assert_eq!(r.conversation.balance.entropy, None);
}

#[test]
fn sixty_speakers_in_a_round() {
    // Each speaker talks 2 s, overlapping the previous one by 600 ms, then everyone at once.
    let mut b = TranscriptBuilder::new();
    for i in 0..60i64 {
        b.add(ms(i * 1400, i * 1400 + 2000), &format!("P{i:02}"), None);
        b.add(ms(100_000, 106_000 + i), &format!("P{i:02}"), None);
    }
    let r = analyze(&b.build(), &Params::default()).unwrap();
    check_invariants(&r);
    assert_eq!(r.speakers.len(), 60);
    // Every speaker after the first takes the floor with a 800 ms solo ≥ 500 ms (59 successful
    // interruptions, 600 ms before the holder's end); in the final crowd the holder P59 keeps the
    // floor and the 59 others each make an unsuccessful attempt.
    assert_eq!(r.turns.len(), 60);
    let k = &r.conversation.counts.events;
    assert_eq!((k.interruptions, k.successful, k.unsuccessful), (Some(118), Some(59), Some(59)));
    assert_eq!(r.speakers["P59"].interruptions_received.unwrap().attempts, 59);
    assert!(r
        .diagnostics
        .warnings
        .iter()
        .any(|w| w.code() == "schism" && w.to_string().contains("(schism)")));
}

#[test]
fn identical_segments() {
    let mut b = TranscriptBuilder::new();
    // 2 s each: long enough not to be backchannels (a 1 s "yes" would be one).
    b.add(ms(0, 2000), "A", Some(Content::text("yes"))).add(
        ms(0, 2000),
        "A",
        Some(Content::text("yes")),
    );
    b.add(ms(0, 2000), "B", None).add(ms(0, 2000), "C", None);
    let r = analyze(&b.build(), &Params::default()).unwrap();
    check_invariants(&r);
    assert_eq!(r.diagnostics.dropped_segments, 1);
    // Three speakers exactly together: one unbounded overlap, nobody ever alone, no claim.
    assert_eq!(r.joint.len(), 1);
    assert!(r.turns.is_empty());
    assert_eq!(r.he.iter().filter(|h| h.kind == HeKind::UnboundedOverlap).count(), 2);
    assert_eq!(r.onsets.len(), 3);
    assert!(r.onsets.iter().all(|o| o.class == OnsetClass::Opening));
}

#[test]
fn segments_one_microsecond_apart() {
    let mut b = TranscriptBuilder::new();
    let us = |a: i64, z: i64| Segment::from_micros(a, z).unwrap();
    // 1.5 s each, so that no talkspurt is short enough to be a backchannel.
    b.add(us(0, 1_500_000), "A", None);
    b.add(us(1_500_001, 3_000_000), "B", None); // 1 µs gap → touching in ms
    b.add(us(3_000_000, 3_000_001), "A", None); // 1 µs long → dropped
    b.add(us(3_000_001, 4_500_000), "A", None);
    let r = analyze(&b.build(), &Params::default()).unwrap();
    check_invariants(&r);
    assert_eq!(r.diagnostics.dropped_segments, 1);
    let kinds: Vec<_> =
        r.he.iter()
            .filter(|h| h.layer == overtalk::analysis::intervals::Layer::Acoustic)
            .map(|h| (h.kind, h.start.get(), h.end.get()))
            .collect();
    assert_eq!(kinds, vec![(HeKind::Ngno, 1500, 1500), (HeKind::Ngno, 3000, 3000)]);
    assert_eq!(r.turns.len(), 3);
}

#[test]
fn twenty_four_hour_recording() {
    let day = 24 * 3_600_000i64;
    let mut b = TranscriptBuilder::new();
    let mut t = 0;
    let mut k = 0;
    while t < day - 10_000 {
        let who = if k % 2 == 0 { "A" } else { "B" };
        b.add(ms(t, t + 7000), who, None);
        t += 6500 + (k % 7) * 300;
        k += 1;
    }
    b.add(ms(day - 1000, day), "A", None);
    let r = analyze(&b.build(), &Params::default()).unwrap();
    check_invariants(&r);
    assert_eq!((r.conversation.start.unwrap() + r.conversation.span).get(), day);
    assert!(r.turns.len() > 10_000);
}

// ── Real data ───────────────────────────────────────────────────────────────────────────────

/// All 16 AMI test meetings (only_words RTTMs): defined results, every invariant, and the
/// overlapped share of speech of the corpus README (14.6 %).
#[test]
fn ami_test_split() {
    let Some(data) = overtalk_testkit::shared_data("ami_test_split") else { return };
    let dir = data.join("corpora/ami/only_words/rttms/test");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    assert_eq!(files.len(), 16);
    let (mut speech, mut overlap, mut raw_speech, mut raw_overlap) = (0i64, 0i64, 0i64, 0i64);
    for f in &files {
        let read = overtalk::format::read_path(f, None, &overtalk::format::ReadOptions::default())
            .unwrap();
        for (_, t) in read.corpus.iter() {
            let r = analyze(t, &Params::default()).unwrap();
            check_invariants(&r);
            speech += r.conversation.speech.get();
            overlap += r.conversation.overlap.unwrap().get();
            raw_speech += t.annotation().speech().duration().micros();
            raw_overlap += t.annotation().overlap().duration().micros();
            let he =
                analyze(t, &Params::preset(overtalk::analysis::AnalysisPreset::He2010)).unwrap();
            check_invariants(&he);
        }
    }
    let share = overlap as f64 / speech as f64;
    assert_eq!((share * 1000.0).round() / 10.0, 14.6);
    // The unbridged model figures give the README's number too (7.29 h of speech).
    assert_eq!((raw_overlap as f64 / raw_speech as f64 * 1000.0).round() / 10.0, 14.6);
    assert_eq!((speech as f64 / 3_600_000.0 * 100.0).round() / 100.0, 7.29);
}

/// Heldner & Edlund intervals against pympi-ling's `get_gaps_and_overlaps2` (precomputed in
/// `peer-results/pympi-ami-test.tsv`) on every two-speaker pair of the AMI test meetings, with
/// preset he2010 and `latch_tolerance = 0` (§8 invariant 11). The two rules only part ways where
/// both speakers start or both end at the same millisecond, so every pair without such a shared
/// boundary must agree exactly, in counts and summed durations.
#[test]
fn pympi_agreement_on_ami_pairs() {
    use overtalk::analysis::intervals::Layer;
    let Some(data) = overtalk_testkit::shared_data("pympi_agreement_on_ami_pairs") else { return };
    let tsv = std::fs::read_to_string(data.join("peer-results/pympi-ami-test.tsv")).unwrap();
    let mut lines = tsv.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    const CLASSES: [&str; 8] = ["P1", "P2", "G12", "G21", "O12", "O21", "W12", "W21"];
    let params = Params {
        latch_tolerance: Millis::ZERO,
        ..Params::preset(overtalk::analysis::AnalysisPreset::He2010)
    };
    let dir = data.join("corpora/ami/only_words/rttms/test");
    let (mut pairs, mut clean_pairs, mut agree) = (0, 0, 0);
    for row in lines {
        let f: Vec<&str> = row.split('\t').collect();
        let (meeting, t1, t2) = (f[col("meeting")], f[col("tier1")], f[col("tier2")]);
        let read = overtalk::format::read_path(
            &dir.join(format!("{meeting}.rttm")),
            None,
            &overtalk::format::ReadOptions::default(),
        )
        .unwrap();
        let t = read.corpus.get(meeting).unwrap();
        let mut b = TranscriptBuilder::new();
        let (mut bounds1, mut bounds2) = (Vec::new(), Vec::new());
        for u in t.utterances().filter(|u| u.speaker_name == t1 || u.speaker_name == t2) {
            b.add(u.segment, u.speaker_name, None);
            let ms = |x: overtalk::Time| overtalk::time::round_div(x.micros(), 1000);
            let bounds = if u.speaker_name == t1 { &mut bounds1 } else { &mut bounds2 };
            bounds.push((0, ms(u.segment.start())));
            bounds.push((1, ms(u.segment.end())));
        }
        let r = analyze(&b.build(), &params).unwrap();
        let mut ours: HashMap<String, (i64, i64)> = HashMap::new();
        let num = |s: &Option<overtalk::analysis::result::Name>| {
            if s.as_deref() == Some(t1) {
                "1"
            } else {
                "2"
            }
        };
        for h in r.he.iter().filter(|h| h.layer == Layer::Acoustic) {
            let class = match h.kind {
                HeKind::Pause => format!("P{}", num(&h.prev)),
                HeKind::Gap | HeKind::OverlapBetween => format!(
                    "{}{}{}",
                    if h.kind == HeKind::Gap { "G" } else { "O" },
                    num(&h.prev),
                    num(&h.next)
                ),
                HeKind::OverlapWithin => {
                    let p = num(&h.prev);
                    format!("W{p}{}", if p == "1" { "2" } else { "1" })
                }
                _ => continue,
            };
            let e = ours.entry(class).or_default();
            e.0 += 1;
            e.1 += h.end.get() - h.start.get();
        }
        let same = CLASSES.iter().all(|c| {
            let theirs: (i64, i64) =
                (f[col(c)].parse().unwrap(), f[col(&format!("ms_{c}"))].parse().unwrap());
            ours.get(*c).copied().unwrap_or_default() == theirs
        });
        bounds1.sort_unstable();
        let shared = bounds2.iter().any(|b| bounds1.binary_search(b).is_ok());
        pairs += 1;
        agree += usize::from(same);
        if !shared {
            clean_pairs += 1;
            assert!(same, "{meeting} {t1} {t2}: differs from pympi without a shared boundary");
        }
    }
    assert_eq!(pairs, 93);
    assert!(
        clean_pairs > 0 && agree >= clean_pairs,
        "{agree} agree, {clean_pairs} without shared boundaries"
    );
    eprintln!("pympi agreement: {agree}/{pairs} pairs; {clean_pairs} pairs without shared boundaries all agree");
}
