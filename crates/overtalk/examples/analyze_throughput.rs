//! Reads and analyses every file given on the command line (RTTM or any other readable format)
//! a number of times on one thread and prints throughput as JSON: recordings, segments,
//! seconds, segments/s; the best pass is reported.
//!
//! `cargo run --release --example analyze_throughput -- [--repeat N] [--preset NAME] [--classifier rules|calibrated|joint] FILE…`
//!
//! The files are loaded into memory first, so the figure is parsing, model building and the
//! whole analysis (S1–S9 with default parameters, or the named preset), not disk speed.
//! `segments` counts the input segments (RTTM turns) of all recordings; `analyse_seconds` is
//! the part of the best pass spent in `analyze` alone.

use std::time::Instant;

use overtalk::analysis::{analyze, AnalysisPreset, Classifier, Params};
use overtalk::format::{read_bytes, ReadOptions};

pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut repeat = 5usize;
    if let Some(i) = args.iter().position(|a| a == "--repeat") {
        repeat = args.get(i + 1).ok_or("--repeat needs a value")?.parse()?;
        args.drain(i..i + 2);
    }
    let mut params = Params::default();
    let mut preset = "default".to_string();
    if let Some(i) = args.iter().position(|a| a == "--preset") {
        preset = args.get(i + 1).ok_or("--preset needs a value")?.clone();
        params = Params::preset(match preset.as_str() {
            "default" => AnalysisPreset::Default,
            "he2010" => AnalysisPreset::He2010,
            "pure-jf" => AnalysisPreset::PureJf,
            other => return Err(format!("unknown preset {other}").into()),
        });
        args.drain(i..i + 2);
    }
    if let Some(i) = args.iter().position(|a| a == "--classifier") {
        params.classifier = match args.get(i + 1).map(String::as_str) {
            Some("rules") => Classifier::Rules,
            Some("calibrated") => Classifier::Calibrated,
            Some("joint") => Classifier::Joint,
            _ => return Err("--classifier rules|calibrated|joint".into()),
        };
        args.drain(i..i + 2);
    }
    let files: Vec<(String, Vec<u8>)> = args
        .iter()
        .map(|p| Ok((p.clone(), std::fs::read(p)?)))
        .collect::<Result<_, std::io::Error>>()?;
    let bytes: usize = files.iter().map(|f| f.1.len()).sum();
    let options = ReadOptions::default();
    let (mut best, mut best_analyse) = (f64::INFINITY, f64::INFINITY);
    let (mut segments, mut recordings, mut turns) = (0usize, 0usize, 0usize);
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        let mut analyse = 0.0;
        (segments, recordings, turns) = (0, 0, 0);
        for (name, data) in &files {
            let out = read_bytes(data, Some(name), None, &options)?;
            for (_, t) in out.corpus.iter() {
                segments += t.annotation().len();
                recordings += 1;
                let a = Instant::now();
                let r = analyze(t, &params)?;
                analyse += a.elapsed().as_secs_f64();
                turns += r.turns.len();
            }
        }
        let total = start.elapsed().as_secs_f64();
        if total < best {
            best = total;
            best_analyse = analyse;
        }
    }
    println!(
        "{{\"tool\": \"overtalk\", \"preset\": \"{preset}\", \"files\": {}, \"recordings\": {recordings}, \"bytes\": {bytes}, \"segments\": {segments}, \"turns\": {turns}, \"seconds\": {best:.6}, \"analyse_seconds\": {best_analyse:.6}, \"segments_per_s\": {:.0}, \"analyse_segments_per_s\": {:.0}}}",
        files.len(),
        segments as f64 / best,
        segments as f64 / best_analyse
    );
    Ok(())
}
