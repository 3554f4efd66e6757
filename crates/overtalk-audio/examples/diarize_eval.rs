//! Diarizes the real recordings with a reference in `shared/data/real-audio` and prints frame
//! DER (collar 0.25 s and 0, overlap scored, optimal mapping) and the speaker count, for the
//! GE2E pipeline (automatic count and oracle count) and the naive baseline (oracle count).
//!
//! ```text
//! cargo run --release -p overtalk-audio --example diarize_eval -- MODEL.safetensors ../shared/data/real-audio [--hyp DIR]
//! ```
//! Tuning knobs (environment): `OT_THRESHOLD`, `OT_SWITCH`, `OT_STEP`, `OT_WINDOW`, `OT_ONLY` (file
//! name substring), `OT_NO_BASELINE`, `OT_AUTO_ONLY` (automatic count only: timing runs), `OT_SYNTH=DIR` (score `DIR/<name>.mix.wav` against
//! `DIR/<name>.rttm` instead of the real recordings; make them with `bench/make_synth.sh`).

// A measurement tool: a panic here is a failed run, with its message.
#![allow(clippy::unwrap_used)]

#[path = "../tests/diarize_common/mod.rs"]
mod score;

use std::path::{Path, PathBuf};
use std::time::Instant;

use overtalk_audio::decode::{decode_all, DecodeOptions};
use overtalk_audio::diarize::cluster::SpeakerCount;
use overtalk_audio::diarize::embed::Ge2eWeights;
use overtalk_audio::diarize::{DiarizeOptions, Diarizer, Ge2eDiarizer, NaiveDiarizer};
use overtalk_audio::resample::resample_to_16k;
use score::{der, read_rttm, speaker_count, turns_of, Der, Turns};

fn load_16k(path: &Path) -> Vec<f32> {
    let (info, ch) = decode_all(path, &DecodeOptions::default()).unwrap();
    let n = ch.first().map_or(0, |c| c.len());
    let k = ch.len().max(1) as f32;
    let mono: Vec<f32> = (0..n).map(|i| ch.iter().map(|c| c[i]).sum::<f32>() / k).collect();
    resample_to_16k(&mono, info.sample_rate).unwrap()
}

fn env<T: std::str::FromStr>(k: &str, d: T) -> T {
    std::env::var(k).ok().and_then(|v| v.parse().ok()).unwrap_or(d)
}

fn write_rttm(dir: &Path, id: &str, t: &Turns) {
    std::fs::create_dir_all(dir).unwrap();
    let mut s = String::new();
    for (n, a, b) in t {
        s.push_str(&format!("SPEAKER {id} 1 {a:.3} {:.3} <NA> <NA> {n} <NA> <NA>\n", b - a));
    }
    std::fs::write(dir.join(format!("{id}.rttm")), s).unwrap();
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let model = PathBuf::from(&args[1]);
    let data = PathBuf::from(&args[2]);
    let hyp_dir = args.iter().position(|a| a == "--hyp").map(|i| PathBuf::from(&args[i + 1]));
    let synth: Vec<(String, String, String)> = match std::env::var("OT_SYNTH") {
        Ok(dir) => {
            let mut v: Vec<(String, String, String)> = std::fs::read_dir(&dir)
                .unwrap()
                .filter_map(|e| {
                    let p = e.unwrap().path();
                    let name = p.file_name()?.to_str()?.strip_suffix(".mix.wav")?.to_string();
                    Some((
                        name.clone(),
                        format!("{dir}/{name}.mix.wav"),
                        format!("{dir}/{name}.rttm"),
                    ))
                })
                .collect();
            v.sort();
            v
        }
        Err(_) => Vec::new(),
    };
    let real = [
        (
            "ES2004a",
            "ami-es2004a-multitrack/mixture.wav",
            "ami-es2004a-multitrack/mixture.ref.rttm",
        ),
        ("tst00", "ami-30s-excerpts/tst00.wav", "ami-30s-excerpts/tst00.but.rttm"),
        ("tst01", "ami-30s-excerpts/tst01.wav", "ami-30s-excerpts/tst01.but.rttm"),
        ("dev00", "ami-30s-excerpts/dev00.wav", "ami-30s-excerpts/dev00.but.rttm"),
        ("trn08", "ami-30s-excerpts/trn08.wav", "ami-30s-excerpts/trn08.but.rttm"),
        ("gecko", "gecko-demo-call/demo.mp3", "gecko-demo-call/demo.rttm"),
    ];
    let files: Vec<(&str, &str, &str)> = if synth.is_empty() {
        real.to_vec()
    } else {
        synth.iter().map(|(a, b, c)| (a.as_str(), b.as_str(), c.as_str())).collect()
    };
    let mut opts = DiarizeOptions::default();
    opts.threshold = env("OT_THRESHOLD", opts.threshold);
    opts.switch_cost = env("OT_SWITCH", opts.switch_cost);
    opts.step = env("OT_STEP", opts.step);
    opts.window = env("OT_WINDOW", opts.window);
    let only: String = env("OT_ONLY", String::new());
    let baseline = std::env::var_os("OT_NO_BASELINE").is_none();
    let weights = || Ge2eWeights::load(&model).unwrap();
    let auto = Ge2eDiarizer::new(weights(), "ge2e", opts);
    println!("{}", auto.describe());
    println!(
        "{:8} {:>5} {:>4} | {:>4} {:>7} {:>7} {:>6} | {:>7} {:>7} (oracle k) | {:>7} {:>7} (naive, oracle k)",
        "file", "dur", "ref", "hypk", "DER.25", "DER0", "RTF", "DER.25", "DER0", "DER.25", "DER0"
    );
    if std::env::var_os("OT_SWEEP").is_some() {
        sweep(&auto, &data, &files, &only);
        return;
    }
    let mut tot = [Der::default(); 6];
    for (id, wav, rttm) in files {
        if !id.contains(&only) {
            continue;
        }
        let samples = load_16k(&data.join(wav));
        let dur = samples.len() as f64 / 16_000.0;
        let reference = read_rttm(&std::fs::read_to_string(data.join(rttm)).unwrap());
        let k = speaker_count(&reference);
        let t0 = Instant::now();
        let d = auto.diarize(&samples).unwrap();
        let rtf = dur / t0.elapsed().as_secs_f64();
        let h = turns_of(&d.annotation);
        let mut row = vec![der(&reference, &h, dur, 0.25), der(&reference, &h, dur, 0.0)];
        if let Some(dir) = &hyp_dir {
            write_rttm(dir, id, &h);
        }
        if std::env::var_os("OT_AUTO_ONLY").is_some() {
            row.extend([Der::default(); 4]);
        } else {
            let mut o = opts;
            o.count = SpeakerCount { exact: Some(k), ..SpeakerCount::default() };
            let oracle = Ge2eDiarizer::new(weights(), "ge2e", o).diarize(&samples).unwrap();
            let ho = turns_of(&oracle.annotation);
            row.push(der(&reference, &ho, dur, 0.25));
            row.push(der(&reference, &ho, dur, 0.0));
        }
        if baseline && row.len() == 4 {
            let naive = NaiveDiarizer::new(weights(), k).diarize(&samples).unwrap();
            let hn = turns_of(&naive.annotation);
            row.push(der(&reference, &hn, dur, 0.25));
            row.push(der(&reference, &hn, dur, 0.0));
        } else {
            row.extend([Der::default(), Der::default()]);
        }
        for (t, r) in tot.iter_mut().zip(&row) {
            t.add(r);
        }
        println!(
            "{:8} {:5.0} {:4} | {:4} {:6.1}% {:6.1}% {:5.0}x | {:6.1}% {:6.1}%            | {:6.1}% {:6.1}%",
            id,
            dur,
            k,
            d.speakers,
            100.0 * row[0].rate(),
            100.0 * row[1].rate(),
            rtf,
            100.0 * row[2].rate(),
            100.0 * row[3].rate(),
            100.0 * row[4].rate(),
            100.0 * row[5].rate()
        );
    }
    println!(
        "{:8} {:5} {:4} | {:4} {:6.1}% {:6.1}% {:>6} | {:6.1}% {:6.1}%            | {:6.1}% {:6.1}%",
        "pooled",
        "",
        "",
        "",
        100.0 * tot[0].rate(),
        100.0 * tot[1].rate(),
        "",
        100.0 * tot[2].rate(),
        100.0 * tot[3].rate(),
        100.0 * tot[4].rate(),
        100.0 * tot[5].rate()
    );
}

/// Prepares every file once, then prints pooled DER (collar 0.25) and count accuracy for a grid
/// of thresholds and switch costs.
fn sweep(d: &Ge2eDiarizer, data: &Path, files: &[(&str, &str, &str)], only: &str) {
    let mut cases = Vec::new();
    for (id, wav, rttm) in files {
        if !id.contains(only) {
            continue;
        }
        let samples = load_16k(&data.join(wav));
        let dur = samples.len() as f64 / 16_000.0;
        let reference = read_rttm(&std::fs::read_to_string(data.join(rttm)).unwrap());
        let t0 = Instant::now();
        let p = d.prepare(&samples);
        println!(
            "{id}: prepared in {:.1} s ({:.0}x real time)",
            t0.elapsed().as_secs_f64(),
            dur / t0.elapsed().as_secs_f64()
        );
        cases.push((id.to_string(), dur, reference, p));
    }
    for th in [0.6f32, 0.7, 0.8, 0.9, 1.0, 1.1] {
        for sw in [1.0f32, 2.0, 4.0, 8.0] {
            for frac in [0.03f32, 0.1] {
                let mut o = d.options;
                o.threshold = th;
                o.switch_cost = sw;
                o.min_cluster_fraction = frac;
                let mut tot = Der::default();
                let mut right = 0;
                let mut line = String::new();
                for (id, dur, reference, p) in &cases {
                    let r = d.assign(p, &o);
                    let x = der(reference, &turns_of(&r.annotation), *dur, 0.25);
                    tot.add(&x);
                    right += usize::from(r.speakers == speaker_count(reference));
                    line.push_str(&format!(" {id}={:.1}%/{}", 100.0 * x.rate(), r.speakers));
                }
                println!(
                    "th {th:.1} sw {sw:.0} frac {frac:.2}: pooled {:.1}% count {right}/{} |{line}",
                    100.0 * tot.rate(),
                    cases.len()
                );
            }
        }
    }
}
