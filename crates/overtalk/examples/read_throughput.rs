//! Reads every file given on the command line (RTTM or any other readable format) a number of
//! times on one thread and prints throughput as JSON: bytes, turns, seconds, MB/s, turns/s.
//!
//! `cargo run --release --example read_throughput -- [--repeat N] FILE…`
//!
//! The files are loaded into memory first, so the figure is parsing and model building, not
//! disk speed; the bench script runs pyannote's loader the same way.

use std::time::Instant;

use overtalk::format::{read_bytes, ReadOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut repeat = 5usize;
    if let Some(i) = args.iter().position(|a| a == "--repeat") {
        repeat = args.get(i + 1).ok_or("--repeat needs a value")?.parse()?;
        args.drain(i..i + 2);
    }
    let files: Vec<(String, Vec<u8>)> = args
        .iter()
        .map(|p| Ok((p.clone(), std::fs::read(p)?)))
        .collect::<Result<_, std::io::Error>>()?;
    let bytes: usize = files.iter().map(|f| f.1.len()).sum();
    let options = ReadOptions::default();
    let mut best = f64::INFINITY;
    let mut turns = 0usize;
    for _ in 0..repeat {
        let start = Instant::now();
        turns = 0;
        for (name, data) in &files {
            let out = read_bytes(data, Some(name), None, &options)?;
            turns += out.corpus.iter().map(|(_, t)| t.annotation().len()).sum::<usize>();
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "{{\"tool\": \"overtalk\", \"files\": {}, \"bytes\": {bytes}, \"turns\": {turns}, \"seconds\": {best:.6}, \"mb_per_s\": {:.1}, \"turns_per_s\": {:.0}}}",
        files.len(),
        bytes as f64 / 1e6 / best,
        turns as f64 / best
    );
    Ok(())
}
