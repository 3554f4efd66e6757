//! Heldner & Edlund intervals of every two-speaker pair of the given recordings, timed: the
//! counterpart of pympi-ling's `get_gaps_and_overlaps2` in `bench/pympi_agreement.py --timing`.
//!
//! `cargo run --release --example he_pairs -- [--repeat N] FILE…`
//!
//! Each recording is split into the pairs of its speakers (names in code-point order, as
//! Python's `sorted`); each pair becomes a transcript of its own, built before the clock starts
//! (as pympi's `Eaf` of each pair is). The timed part is what pympi's call does: from the pair's
//! stored segments to the acoustic H&E intervals, with preset `he2010` and `latch_tolerance = 0`,
//! best of N passes over all pairs — through `analysis::dyad::he_acoustic` (µs → ms, S1's
//! drops, S2's bridging and one sweep over the two speakers' talkspurts; `seconds`) and, for
//! comparison, through the general stages S1 normalise, S2 talkspurts, S3 joint timeline,
//! S4 intervals (`general_seconds`). Both give the same intervals (checked before timing).
//! Prints JSON: pairs, intervals in pympi's eight classes (pauses, gaps, between- and
//! within-speaker overlaps), the other acoustic events (NGNO, unbounded runs), the best passes in
//! seconds, and the whole process time (reading and pairing included, from the start of `main`).

use std::time::Instant;

use overtalk::analysis::dyad::{he_acoustic, he_acoustic_general};
use overtalk::analysis::intervals::{HeInterval, HeKind};
use overtalk::analysis::{AnalysisPreset, Millis, Params};
use overtalk::format::{read_path, ReadOptions};
use overtalk::{Transcript, TranscriptBuilder};

/// Counts (intervals in pympi's classes, other events).
fn classes(he: &[HeInterval]) -> (usize, usize) {
    let classed = he
        .iter()
        .filter(|h| {
            matches!(
                h.kind,
                HeKind::Pause | HeKind::Gap | HeKind::OverlapBetween | HeKind::OverlapWithin
            )
        })
        .count();
    (classed, he.len() - classed)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let process = Instant::now();
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut repeat = 10usize;
    if let Some(i) = args.iter().position(|a| a == "--repeat") {
        repeat = args.get(i + 1).ok_or("--repeat needs a value")?.parse()?;
        args.drain(i..i + 2);
    }
    let params = Params { latch_tolerance: Millis::ZERO, ..Params::preset(AnalysisPreset::He2010) };
    let mut pairs: Vec<Transcript> = Vec::new();
    let mut segments = 0usize;
    for path in &args {
        let read = read_path(std::path::Path::new(path), None, &ReadOptions::default())?;
        for (_, t) in read.corpus.iter() {
            let mut names: Vec<&str> = t.utterances().map(|u| u.speaker_name).collect();
            names.sort_unstable();
            names.dedup();
            for (i, a) in names.iter().enumerate() {
                for b in &names[i + 1..] {
                    let mut builder = TranscriptBuilder::new();
                    for u in t.utterances().filter(|u| u.speaker_name == *a || u.speaker_name == *b)
                    {
                        builder.add(u.segment, u.speaker_name, None);
                        segments += 1;
                    }
                    pairs.push(builder.build());
                }
            }
        }
    }
    for t in &pairs {
        if he_acoustic(t, &params) != he_acoustic_general(t, &params) {
            return Err("the sweep and the general stages differ".into());
        }
    }
    let time = |f: fn(&Transcript, &Params) -> Vec<HeInterval>| {
        let (mut classed, mut other) = (0, 0);
        let mut best = f64::INFINITY;
        for _ in 0..repeat.max(1) {
            let start = Instant::now();
            (classed, other) = (0, 0);
            for t in &pairs {
                let (c, o) = classes(&f(t, &params));
                classed += c;
                other += o;
            }
            best = best.min(start.elapsed().as_secs_f64());
        }
        (classed, other, best)
    };
    let (classed, other, best) = time(he_acoustic);
    let process_seconds = process.elapsed().as_secs_f64();
    let (_, _, general) = time(he_acoustic_general);
    println!(
        "{{\"tool\": \"overtalk\", \"pairs\": {}, \"segments\": {segments}, \"intervals\": {classed}, \"other_events\": {other}, \"seconds\": {best:.6}, \"general_seconds\": {general:.6}, \"process_seconds\": {process_seconds:.6}}}",
        pairs.len()
    );
    Ok(())
}
