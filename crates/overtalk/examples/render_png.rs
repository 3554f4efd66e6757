//! Reads one conversation, analyses it and draws it as PNG (the timeline, or `--card`), a
//! number of times on one thread; prints the best time of each stage as JSON and writes the
//! last picture. The stages are what `overtalk report -o clip.png` does after reading.
//!
//! `cargo run --release --example render_png -- [--repeat N] [--card] FILE OUT.png`

use std::time::Instant;

use overtalk::analysis::{analyze, Params};
use overtalk::format::{read_bytes, ReadOptions};
use overtalk::report::png::svg_to_png;
use overtalk::report::svg::{conversation_svg, ImageOptions, Layout};

pub fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut repeat = 5usize;
    if let Some(i) = args.iter().position(|a| a == "--repeat") {
        repeat = args.get(i + 1).ok_or("--repeat needs a value")?.parse()?;
        args.drain(i..i + 2);
    }
    let card = args.iter().position(|a| a == "--card").map(|i| args.remove(i)).is_some();
    let [file, out] = args.as_slice() else { return Err("usage: render_png FILE OUT.png".into()) };
    let bytes = std::fs::read(file)?;
    let opts = ImageOptions {
        layout: if card { Layout::Card } else { Layout::Timeline },
        ..ImageOptions::default()
    };
    let (mut read_s, mut analyse_s, mut svg_s, mut png_s, mut total_s) =
        (f64::MAX, f64::MAX, f64::MAX, f64::MAX, f64::MAX);
    let mut png = Vec::new();
    let mut svg_len = 0;
    for _ in 0..repeat {
        let t0 = Instant::now();
        let read = read_bytes(&bytes, Some(file), None, &ReadOptions::default())?;
        let (id, t) = read.corpus.iter().next().ok_or("no recording")?;
        let t1 = Instant::now();
        let a = analyze(t, &Params::default())?;
        let t2 = Instant::now();
        let svg = conversation_svg(id, &a, &opts)?;
        let t3 = Instant::now();
        png = svg_to_png(&svg, 1.0)?;
        let t4 = Instant::now();
        svg_len = svg.len();
        read_s = read_s.min((t1 - t0).as_secs_f64());
        analyse_s = analyse_s.min((t2 - t1).as_secs_f64());
        svg_s = svg_s.min((t3 - t2).as_secs_f64());
        png_s = png_s.min((t4 - t3).as_secs_f64());
        total_s = total_s.min((t4 - t0).as_secs_f64());
    }
    std::fs::write(out, &png)?;
    println!(
        "{{\"file\": {file:?}, \"card\": {card}, \"read_s\": {read_s:.4}, \"analyse_s\": {analyse_s:.4}, \"svg_s\": {svg_s:.4}, \"png_s\": {png_s:.4}, \"total_s\": {total_s:.4}, \"svg_bytes\": {svg_len}, \"png_bytes\": {}}}",
        png.len()
    );
    Ok(())
}
