//! Decoded length and onset against ffmpeg's: for each file, the frames this crate decodes and
//! the first sample louder than a threshold, next to the same from
//! `ffmpeg -i FILE -f s16le -ac 1 -` (the clock players and transcripts use), one row per file.
//!
//! ```text
//! cargo run --release -p overtalk-audio --example decode_vs_ffmpeg -- [--threshold 0.25] FILE…
//! ```
//! The onset is in frames at the decoded rate; both decoders are read at the file's own rate
//! (Opus: 48 kHz). A row ends in `ok` when the lengths are equal and the onsets within one
//! frame, else in the differences in frames and milliseconds.

// A measurement tool: a panic here is a failed run, with its message.
#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::process::Command;

use overtalk_audio::decode::{decode_all, DecodeOptions};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut threshold = 0.25f32;
    if args.first().map(String::as_str) == Some("--threshold") {
        threshold = args[1].parse().unwrap();
        args.drain(..2);
    }
    println!("| file | codec | rate | frames (overtalk) | frames (ffmpeg) | onset (overtalk) | onset (ffmpeg) | verdict |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- |");
    for f in &args {
        let name = Path::new(f).file_name().unwrap().to_string_lossy().into_owned();
        let ours = decode_all(Path::new(f), &DecodeOptions::default());
        let (info, ch) = match ours {
            Ok(v) => v,
            Err(e) => {
                println!("| {name} | – | – | error: {e} | | | | |");
                continue;
            }
        };
        let n = ch.first().map_or(0, Vec::len);
        let mono: Vec<f32> =
            (0..n).map(|i| ch.iter().map(|c| c[i]).sum::<f32>() / ch.len() as f32).collect();
        let rate = info.sample_rate;
        let out = Command::new("ffmpeg")
            .args(["-hide_banner", "-loglevel", "error", "-i", f, "-f", "s16le", "-ac", "1"])
            .args(["-ar", &rate.to_string(), "-"])
            .output()
            .unwrap();
        let theirs: Vec<f32> = out
            .stdout
            .chunks_exact(2)
            .map(|b| f32::from(i16::from_le_bytes([b[0], b[1]])) / 32768.0)
            .collect();
        let on = |x: &[f32]| x.iter().position(|v| v.abs() > threshold);
        let (a, b) = (on(&mono), on(&theirs));
        let ms = |d: i64| d as f64 * 1000.0 / f64::from(rate);
        let dl = n as i64 - theirs.len() as i64;
        let verdict = match (a, b) {
            (Some(a), Some(b)) => {
                let d = a as i64 - b as i64;
                if dl == 0 && d.abs() <= 1 {
                    "ok".to_owned()
                } else {
                    format!("length {dl:+} ({:+.2} ms), onset {d:+} ({:+.2} ms)", ms(dl), ms(d))
                }
            }
            _ => format!("length {dl:+} ({:+.2} ms), onset missing", ms(dl)),
        };
        let show = |o: Option<usize>| o.map_or("–".to_owned(), |v| v.to_string());
        println!(
            "| {name} | {} | {rate} | {n} | {} | {} | {} | {verdict} |",
            info.codec,
            theirs.len(),
            show(a),
            show(b)
        );
    }
}
