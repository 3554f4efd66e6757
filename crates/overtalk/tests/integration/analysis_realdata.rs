//! Real data through the whole analysis: the VoxConverse v0.3 dev and test references and the
//! AMI test split (only_words), with the default and `he2010` presets. Every recording must
//! analyse without error and keep the invariants of conversation-metrics.md §8; the corpus
//! figures the READMEs print (files, turns, speech hours, overlapped share of speech, speakers
//! per file) must come out at the README's precision. The Heldner & Edlund sanity figures
//! (share of overlaps and of NGNO among between-speaker intervals, median floor-transfer
//! offset) are printed for docs/analysis-notes.md:
//!
//! `cargo test --release -p overtalk --test analysis_realdata -- --nocapture`

#![allow(clippy::unwrap_used)]

use std::path::Path;

use overtalk::analysis::floor::{holder_at, Claim};
use overtalk::analysis::intervals::{HeKind, Layer};
use overtalk::analysis::onsets::OnsetClass;
use overtalk::analysis::{analyze, Analysis, AnalysisPreset, Millis, Params, SpeakerIndex};
use overtalk::format::{read_path, ReadOptions};

/// The invariants of §8 that hold on any input (talk = solo + overlap pieces, floor tenures
/// partition the span after the opening claim, interruptees held the floor, counts equal their
/// event lists).
fn check_invariants(r: &Analysis, label: &str) {
    let c = &r.conversation;
    assert_eq!(c.speech.get() + c.silence.get(), c.span.get(), "{label}: speech + silence = span");
    match (r.joint.first(), r.joint.last()) {
        (Some(first), Some(last)) => {
            assert_eq!(Some(first.start), c.start, "{label}");
            assert_eq!(last.end, c.start.unwrap() + c.span, "{label}");
            for w in r.joint.windows(2) {
                assert_eq!(w[0].end.get(), w[1].start.get(), "{label}: joint timeline has a hole");
                assert_ne!(w[0].active, w[1].active, "{label}: equal neighbouring pieces");
            }
        }
        _ => assert_eq!(c.span.get(), 0, "{label}"),
    }
    let overlap: i64 =
        r.joint.iter().filter(|p| p.active.len() >= 2).map(|p| p.end.get() - p.start.get()).sum();
    // Unknown only when ends were estimated or speakers found one per frame.
    match c.overlap {
        Some(o) => assert_eq!(overlap, o.get(), "{label}: overlap"),
        None => assert!(r.overlap_unmeasurable().is_some(), "{label}: overlap"),
    }
    for (name, s) in &r.speakers {
        let in_overlap: i64 = r
            .joint
            .iter()
            .filter(|p| p.active.len() >= 2 && p.active.iter().any(|a| **a == **name))
            .map(|p| p.end.get() - p.start.get())
            .sum();
        assert_eq!(
            s.talk.get(),
            s.solo.expect("solo measured").get() + in_overlap,
            "{label}: talk of {name}"
        );
    }
    let floor: i64 = r.speakers.values().map(|s| s.floor.get()).sum();
    match r.turns.first() {
        Some(t0) => {
            assert_eq!(floor, (c.start.unwrap() + c.span - t0.claim).get(), "{label}: floor")
        }
        None => assert_eq!(floor, 0, "{label}: floor"),
    }
    for w in r.turns.windows(2) {
        assert!(
            w[0].claim.get() < w[1].claim.get() && w[0].speaker != w[1].speaker,
            "{label}: turns"
        );
    }
    assert_eq!(r.transfers.len(), r.turns.len().saturating_sub(1), "{label}: transfers");
    let names: Vec<&String> = r.speakers.keys().collect();
    let idx = |n: &str| SpeakerIndex::new(names.iter().position(|x| *x == n).unwrap());
    let claims: Vec<Claim> = r
        .turns
        .iter()
        .map(|t| Claim { time: t.claim, speaker: idx(&t.speaker), spurt: 0 })
        .collect();
    for o in &r.onsets {
        assert_eq!(
            o.holder.as_deref(),
            holder_at(&claims, o.time).map(|i| names[i.index()].as_str()),
            "{label}"
        );
        assert_ne!(o.holder.as_deref(), Some(&*o.speaker), "{label}");
    }
    let k = &c.counts.events;
    assert_eq!(k.turns, r.turns.len(), "{label}");
    assert_eq!(k.transfers, r.transfers.len(), "{label}");
    assert_eq!(c.counts.talkspurts, r.talkspurts.len(), "{label}");
    assert_eq!(k.backchannels, r.talkspurts.iter().filter(|t| t.is_backchannel).count());
    let attempts = r
        .onsets
        .iter()
        .filter(|o| matches!(o.class, OnsetClass::Interruption | OnsetClass::SilentInterruption))
        .count();
    if r.estimated_times.is_none() {
        assert_eq!(k.interruptions, Some(attempts), "{label}");
        let sum = k.successful.zip(k.unsuccessful).map(|(s, u)| s + u);
        assert_eq!(k.interruptions, sum, "{label}");
        assert_eq!(r.pairs.iter().map(|p| p.attempts).sum::<usize>(), attempts, "{label}");
    } else {
        assert_eq!((k.interruptions, k.successful, k.unsuccessful), (None, None, None));
        assert!(r.pairs.is_empty(), "{label}");
    }
    for (layer, kinds) in &c.he_counts {
        for (kind, n) in kinds {
            let listed = r.he.iter().filter(|h| h.layer == *layer && h.kind == *kind).count();
            // An overlap or NGNO count is unknown, not zero, where overlap cannot be measured.
            let unknown = kind.is_overlap_dependent() && r.overlap_unmeasurable().is_some();
            assert_eq!(*n, (!unknown).then_some(listed), "{label}: {kind:?} count");
        }
    }
}

/// Corpus totals of one folder of RTTMs under one parameter set.
#[derive(Default)]
struct Figures {
    files: usize,
    segments: usize,
    speakers: Vec<usize>,
    raw_speech_us: i64,
    raw_overlap_us: i64,
    speech: i64,
    overlap: i64,
    /// Acoustic between-speaker intervals: gaps, overlaps between, NGNO events.
    gaps: usize,
    overlaps_between: usize,
    ngno: usize,
    /// Signed acoustic between-speaker intervals: +gap, −overlap, 0 for NGNO.
    signed: Vec<i64>,
    ftos: Vec<i64>,
}

impl Figures {
    fn between(&self) -> usize {
        self.gaps + self.overlaps_between + self.ngno
    }

    fn negative_fto_percent(&self) -> f64 {
        self.ftos.iter().filter(|&&f| f < 0).count() as f64 / self.ftos.len() as f64 * 100.0
    }
}

/// Middle value, or the mean of the two middle values (§5.5.7).
fn median(values: &[i64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_unstable();
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2] as f64
    } else {
        (v[n / 2 - 1] + v[n / 2]) as f64 / 2.0
    }
}

/// Rounds to `decimals` the way the READMEs print.
fn round(x: f64, decimals: i32) -> f64 {
    let m = 10f64.powi(decimals);
    (x * m).round() / m
}

fn run(dir: &Path, params: &Params) -> Figures {
    let mut files: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut f = Figures { files: files.len(), ..Figures::default() };
    for path in &files {
        let read = read_path(path, None, &ReadOptions::default()).unwrap();
        for (id, t) in read.corpus.iter() {
            let r = analyze(t, params).unwrap();
            check_invariants(&r, id);
            f.segments += t.annotation().len();
            f.speakers.push(r.speakers.len());
            f.raw_speech_us += t.annotation().speech().duration().micros();
            f.raw_overlap_us += t.annotation().overlap().duration().micros();
            f.speech += r.conversation.speech.get();
            f.overlap += r.conversation.overlap.unwrap().get();
            for h in r.he.iter().filter(|h| h.layer == Layer::Acoustic) {
                let d = h.end.get() - h.start.get();
                match h.kind {
                    HeKind::Gap => {
                        f.gaps += 1;
                        f.signed.push(d);
                    }
                    HeKind::OverlapBetween => {
                        f.overlaps_between += 1;
                        f.signed.push(-d);
                    }
                    HeKind::Ngno => {
                        f.ngno += 1;
                        f.signed.push(0);
                    }
                    _ => {}
                }
            }
            f.ftos.extend(r.transfers.iter().filter_map(|t| t.fto.map(Millis::get)));
        }
    }
    f
}

/// Runs both presets on `dir`, checks the README figures and prints the H&E sanity figures.
fn corpus(name: &str, dir: &Path, readme: Readme) {
    for (preset, params) in
        [("default", Params::default()), ("he2010", Params::preset(AnalysisPreset::He2010))]
    {
        let f = run(dir, &params);
        let share = f.overlap as f64 / f.speech as f64 * 100.0;
        let raw_share = f.raw_overlap_us as f64 / f.raw_speech_us as f64 * 100.0;
        let between = f.between() as f64;
        println!(
            "{name} [{preset}]: {} files, {} segments, speech {:.2} h ({:.2} h unbridged), overlapped share {:.2} % ({:.2} % unbridged); acoustic between-speaker intervals {} (gaps {}, overlaps {}, NGNO {}): overlaps {:.1} %, NGNO {:.2} %; median signed between-speaker interval {} ms; transfers with an FTO {}, median FTO {} ms, {:.1} % negative",
            f.files,
            f.segments,
            f.speech as f64 / 3_600_000.0,
            f.raw_speech_us as f64 / 3.6e9,
            share,
            raw_share,
            f.between(),
            f.gaps,
            f.overlaps_between,
            f.ngno,
            f.overlaps_between as f64 / between * 100.0,
            f.ngno as f64 / between * 100.0,
            median(&f.signed),
            f.ftos.len(),
            median(&f.ftos),
            f.negative_fto_percent(),
        );
        assert_eq!(f.files, readme.files, "{name}: files");
        assert_eq!(f.segments, readme.turns, "{name}: turns");
        assert_eq!(round(f.raw_speech_us as f64 / 3.6e9, 2), readme.speech_hours, "{name}");
        // The README's share is computed on the raw turns; the analysis bridges pauses under
        // `bridge_pause` first, which must not move it at the printed precision.
        assert_eq!(round(raw_share, 1), readme.overlap_percent, "{name}: raw overlapped share");
        assert_eq!(round(share, 1), readme.overlap_percent, "{name} [{preset}]: overlapped share");
        let (min, mean, max) = readme.speakers;
        let n = f.speakers.len() as f64;
        assert_eq!(f.speakers.iter().min().copied(), Some(min), "{name}: min speakers");
        assert_eq!(f.speakers.iter().max().copied(), Some(max), "{name}: max speakers");
        assert_eq!(round(f.speakers.iter().sum::<usize>() as f64 / n, 1), mean, "{name}");
    }
}

/// The figures a corpus README prints.
struct Readme {
    files: usize,
    turns: usize,
    speech_hours: f64,
    overlap_percent: f64,
    /// Speakers per file: min, mean, max.
    speakers: (usize, f64, usize),
}

#[test]
fn voxconverse_dev() {
    let Some(data) = overtalk_testkit::shared_data("voxconverse_dev") else { return };
    let readme = Readme {
        files: 216,
        turns: 8268,
        speech_hours: 18.91,
        overlap_percent: 3.7,
        speakers: (1, 4.5, 20),
    };
    corpus("VoxConverse dev", &data.join("corpora/voxconverse/dev"), readme);
}

#[test]
fn voxconverse_test() {
    let Some(data) = overtalk_testkit::shared_data("voxconverse_test") else { return };
    let readme = Readme {
        files: 232,
        turns: 19_479,
        speech_hours: 38.99,
        overlap_percent: 3.1,
        speakers: (1, 6.5, 21),
    };
    corpus("VoxConverse test", &data.join("corpora/voxconverse/test"), readme);
}

#[test]
fn ami_test() {
    let Some(data) = overtalk_testkit::shared_data("ami_test") else { return };
    let dir = data.join("corpora/ami/only_words/rttms/test");
    let readme = Readme {
        files: 16,
        turns: 7493,
        speech_hours: 7.29,
        overlap_percent: 14.6,
        speakers: (3, 3.9, 4),
    };
    corpus("AMI test", &dir, readme);
}
