//! Runs multitrack detection on synthetic conversations (`bench/make_synth.sh`) or the AMI
//! ES2004a excerpt and prints frame-level DER at collar 0 and 0.25 s, with overlap recall and
//! precision, per file and overall.
//!
//! ```text
//! cargo run --release -p overtalk-audio --example detect_eval -- synth bench/out/synth
//! cargo run --release -p overtalk-audio --example detect_eval -- ami ../shared/data/real-audio/ami-es2004a-multitrack
//! ```
//! `--vad earshot|energy|none` picks the detector; `--hyp DIR` writes each detected RTTM.

// A measurement tool: a panic here is a failed run, with its message.
#![allow(clippy::unwrap_used)]

#[path = "../tests/integration/frame_score.rs"]
mod score;

use std::path::{Path, PathBuf};
use std::time::Instant;

use overtalk::format::{read_path, ReadOptions};
use overtalk::{Annotation, Corpus, Delta, Transcript};
use overtalk_audio::pipeline::{detect, DetectOptions, TrackSpec};
use overtalk_audio::vad::VadKind;
use score::{score, FrameScore};

fn reference(path: &Path) -> Annotation {
    let read = read_path(path, None, &ReadOptions::default()).expect("reference RTTM");
    let (_, t) = read.corpus.iter().next().expect("one recording");
    t.annotation().clone()
}

fn cases(kind: &str, dir: &Path) -> Vec<(String, Vec<TrackSpec>, PathBuf)> {
    let mut out = Vec::new();
    if kind == "ami" {
        let specs = overtalk_testkit::ami_es2004a_headsets(dir)
            .into_iter()
            .map(|(name, path)| TrackSpec::file(name, path))
            .collect();
        out.push(("ES2004a".into(), specs, dir.join("mixture.ref.rttm")));
        return out;
    }
    let mut rttms: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("synthetic folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "rttm"))
        .collect();
    rttms.sort();
    for rttm in rttms {
        let stem = rttm.file_stem().unwrap().to_string_lossy().into_owned();
        let mut mics: Vec<PathBuf> = std::fs::read_dir(dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let n = p.file_name().unwrap().to_string_lossy();
                n.starts_with(&format!("{stem}.mic")) && n.ends_with(".wav")
            })
            .collect();
        mics.sort();
        let specs = mics
            .into_iter()
            .map(|p| {
                let n = p.file_stem().unwrap().to_string_lossy().into_owned();
                let name = n.rsplit('_').next().unwrap().to_owned();
                TrackSpec::file(name, p)
            })
            .collect();
        out.push((stem, specs, rttm));
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let kind = args.first().map(String::as_str).unwrap_or("synth");
    let dir = PathBuf::from(args.get(1).map(String::as_str).unwrap_or("bench/out/synth"));
    let mut options = DetectOptions::default();
    let mut hyp_dir: Option<PathBuf> = None;
    let mut i = 2;
    while i < args.len() {
        match args[i].as_str() {
            "--vad" => {
                options.vad = match args[i + 1].as_str() {
                    "none" => None,
                    v => Some(v.parse::<VadKind>().unwrap()),
                };
                i += 2;
            }
            "--hyp" => {
                hyp_dir = Some(PathBuf::from(&args[i + 1]));
                i += 2;
            }
            "--set" => {
                let (k, v) = args[i + 1].split_once('=').unwrap();
                let v: f32 = v.parse().unwrap();
                let m = &mut options.multitrack;
                match k {
                    "floor_on" => m.above_floor_on_db = v,
                    "floor_off" => m.above_floor_off_db = v,
                    "bleed_on" => m.above_bleed_on_db = v,
                    "bleed_off" => m.above_bleed_off_db = v,
                    "vad_threshold" => m.vad_threshold = v,
                    "vad_dilate" => m.vad_dilate = Delta::from_micros((v * 1e6) as i64),
                    "min_speech" => m.min_speech = Delta::from_micros((v * 1e6) as i64),
                    "min_silence" => m.min_silence = Delta::from_micros((v * 1e6) as i64),
                    "overlap_silence" => m.overlap_silence = Delta::from_micros((v * 1e6) as i64),
                    "overlap_since" => m.overlap_since = Delta::from_micros((v * 1e6) as i64),
                    "coupling_min" => m.coupling_min_db = v,
                    "coupling_share" => m.coupling_min_share = v,
                    "vad_run_mean" => m.vad_run_mean = v,
                    "unmix" => m.unmix = v > 0.0,
                    "block" => m.coupling_block = v as usize,
                    "block_min" => m.coupling_block_min = v as usize,
                    "decay" => m.bleed_decay_db = v,
                    "peak_frames" => m.vad_peak_frames = v as usize,
                    "peak" => m.vad_peak = v,
                    "floor_pct" => m.floor_percentile = v,
                    "bands" => m.bands = v > 0.0,
                    "band_margin" => m.band_margin_db = v,
                    "band_on" => m.band_on = v,
                    "band_off" => m.band_off = v,
                    "band_q" => m.band_bleed_quantile = v,
                    "band_coupling_min" => m.band_coupling_min_db = v,
                    other => panic!("unknown setting {other}"),
                }
                i += 2;
            }
            other => panic!("unknown argument {other}"),
        }
    }
    let mut all0 = FrameScore::default();
    let mut all25 = FrameScore::default();
    let mut audio = Delta::ZERO;
    let started = Instant::now();
    for (name, specs, rttm) in cases(kind, &dir) {
        let reference = reference(&rttm);
        let found = detect(&specs, &options, &mut |_| {}).expect("detection");
        audio = Delta::from_micros(audio.micros() + found.duration.micros() * specs.len() as i64);
        let s0 = score(&reference, &found.annotation, found.duration, Delta::ZERO);
        let s25 = score(&reference, &found.annotation, found.duration, Delta::from_micros(250_000));
        println!(
            "{name:<18} DER c0 {:6.2} % (miss {:5.2} fa {:5.2} conf {:5.2})  c0.25 {:6.2} %  ovl R {:.3} P {:.3}",
            100.0 * s0.der(),
            100.0 * s0.miss as f64 / s0.total as f64,
            100.0 * s0.fa as f64 / s0.total as f64,
            100.0 * s0.confusion as f64 / s0.total as f64,
            100.0 * s25.der(),
            s0.overlap_recall(),
            s0.overlap_precision()
        );
        if let Some(report) = &found.multitrack {
            let c: Vec<String> = report
                .coupling_db
                .iter()
                .map(|row| {
                    row.iter()
                        .map(|v| v.map_or("   -  ".into(), |x| format!("{x:6.1}")))
                        .collect::<Vec<_>>()
                        .join("")
                })
                .collect();
            println!("    couplings dB: {}", c.join(" | "));
        }
        if let Some(d) = &hyp_dir {
            std::fs::create_dir_all(d).unwrap();
            let corpus =
                Corpus::single(name.clone(), Transcript::from_annotation(found.annotation));
            let mut f = std::fs::File::create(d.join(format!("{name}.rttm"))).unwrap();
            overtalk::format::write(&corpus, overtalk::format::Format::Rttm, &mut f).unwrap();
        }
        all0.add(&s0);
        all25.add(&s25);
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "OVERALL DER c0 {:.2} % (miss {:.2} fa {:.2} conf {:.2})  c0.25 {:.2} %  overlap recall {:.3} precision {:.3}  ({:.0}x real time over {} s of track audio)",
        100.0 * all0.der(),
        100.0 * all0.miss as f64 / all0.total as f64,
        100.0 * all0.fa as f64 / all0.total as f64,
        100.0 * all0.confusion as f64 / all0.total as f64,
        100.0 * all25.der(),
        all0.overlap_recall(),
        all0.overlap_precision(),
        audio.as_secs_f64() / secs,
        audio.as_secs_f64().round()
    );
}
