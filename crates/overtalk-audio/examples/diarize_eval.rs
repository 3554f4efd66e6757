//! Diarizes recordings with a reference and prints frame DER (collar 0.25 s and 0, overlap
//! scored, optimal mapping) and the speaker count, for the GE2E pipeline (automatic count and
//! oracle count, from the same embeddings) and the naive baseline (oracle count).
//!
//! ```text
//! cargo run --release -p overtalk-audio --example diarize_eval -- MODEL.safetensors ../shared/data/real-audio [--hyp DIR]
//! ```
//! Every knob is a flag (`diarize_eval --help`); the options start from
//! [`DiarizeOptions::default`] (or [`DiarizeOptions::preferred`] with `--vad auto`, the profile
//! the command line uses) and each flag given replaces one field. Sets (`--set`,
//! comma-separated; default `long,ami30`): `long` (ES2004a mixture, gecko call), `ami30` (four
//! 30 s AMI clips, BUT references), `es30` (ES2004a's two 30 s halves), `synth` and `synth30`
//! (the mixes in `--synth DIR` from `bench/make_synth.sh`, whole or as 30 s cuts at 0, 60, 120,
//! 180 s). Modes other than the per-file table: `--sweep` (a grid over the `--grid-*` lists,
//! pooled per set; `--detail` per file), `--diag` (dendrogram heights, raw-centroid cosines),
//! `--vad-diag` (VAD miss / false alarm per onset; `--vad-diag fuse` and `--vad-diag overlap`
//! with the `onnx` feature), `--change-diag`, `--oracle` (DER with the reference's speech,
//! overlap and turn changes: the encoder and clustering alone; see [`oracle`]) and
//! `--oracle pipeline` (the pipeline with perfect overlap detection and/or voice activity; see
//! [`oracle_pipeline`]), and `--turns` (DER and the turn-level
//! measures — boundary error at true changes, fragments, FTO, short-turn recall, count — for
//! the naive baseline, the pipeline before and after boundary refinement; see [`turns_mode`]).
//! The set `gecko6` is six copies of the gecko call end to end (57 min); the set `files` reads
//! the recordings given by `--files PATH[=RTTM],…` (without an RTTM, one speaker over the
//! whole file). `--split-diag` prints, for the clusters the pipeline keeps, their uncentred
//! centroids' cosines and spreads (one voice split in several against several voices; see
//! [`split_diag`]).

// A measurement tool: a panic here is a failed run, with its message.
#![allow(clippy::unwrap_used)]

#[path = "../tests/integration/frame_der.rs"]
mod score;

use std::path::{Path, PathBuf};
use std::time::Instant;

use overtalk_audio::decode::{decode_all, DecodeOptions};
use overtalk_audio::diarize::change::ChangeOptions;
use overtalk_audio::diarize::cluster::SpeakerCount;
use overtalk_audio::diarize::edges::EdgeOptions;
use overtalk_audio::diarize::embed::Ge2eWeights;
use overtalk_audio::diarize::handover::HandoverOptions;
use overtalk_audio::diarize::short_runs::{EndOptions, ShortRunOptions};
use overtalk_audio::diarize::{DiarizeOptions, Diarizer, Ge2eDiarizer, NaiveDiarizer};
use overtalk_audio::resample::resample_to_16k;
use score::{der, read_rttm, speaker_count, turns_of, Der, Turns};

/// Prints `diarize_eval: MESSAGE` and exits with status 2: a bad argument or a file that
/// cannot be read is told as such, never as a panic.
fn fail(message: impl std::fmt::Display) -> ! {
    eprintln!("diarize_eval: {message}");
    std::process::exit(2)
}

/// [`fail`] on an error, with what was being done.
trait OrFail<T> {
    fn or_fail(self, what: impl std::fmt::Display) -> T;
}

impl<T, E: std::fmt::Display> OrFail<T> for Result<T, E> {
    fn or_fail(self, what: impl std::fmt::Display) -> T {
        self.unwrap_or_else(|e| fail(format!("{what}: {e}")))
    }
}

/// Part `i` of a `/`-separated value of `--flag` (`spec`), as a number; `default` when the
/// part is missing or empty.
fn part<T: std::str::FromStr>(
    flag: &str,
    spec: &str,
    parts: &[&str],
    i: usize,
    default: T,
) -> Result<T, String> {
    match parts.get(i).filter(|p| !p.is_empty()) {
        None => Ok(default),
        Some(p) => p
            .parse()
            .map_err(|_| format!("--{flag} {spec:?}: part {} ({p:?}) is not a number", i + 1)),
    }
}

/// The voice activity detectors of `--vad` (`A` or `A+B`).
fn vad_kinds(
    spec: &str,
) -> Result<(overtalk_audio::vad::VadKind, Option<overtalk_audio::vad::VadKind>), String> {
    let kind = |k: &str| {
        k.parse::<overtalk_audio::vad::VadKind>().map_err(|e| format!("--vad {spec:?}: {e}"))
    };
    match spec.split_once('+') {
        None => Ok((kind(spec)?, None)),
        Some((a, b)) => Ok((kind(a)?, Some(kind(b)?))),
    }
}

fn read_text(path: &Path) -> String {
    std::fs::read_to_string(path).or_fail(path.display())
}

fn load_16k(path: &Path) -> Vec<f32> {
    let (info, ch) = decode_all(path, &DecodeOptions::default())
        .map_err(|e| e.with_path(path))
        .or_fail("decoding");
    let n = ch.first().map_or(0, |c| c.len());
    let k = ch.len().max(1) as f32;
    let mono: Vec<f32> = (0..n).map(|i| ch.iter().map(|c| c[i]).sum::<f32>() / k).collect();
    resample_to_16k(&mono, info.sample_rate).or_fail(path.display())
}

/// Diarization research harness: frame DER and speaker counts of the GE2E pipeline (automatic
/// and oracle count, from the same embeddings) and of the naive baseline, on recordings with a
/// reference, with every option of the diarizer as a flag.
#[derive(clap::Parser, Debug)]
#[command(name = "diarize_eval")]
struct Args {
    /// The converted GE2E encoder (`ge2e.safetensors` from `overtalk models install`).
    model: PathBuf,
    /// The real recordings (`../shared/data/real-audio`).
    data: PathBuf,
    /// Writes each hypothesis as `DIR/<id>.rttm` (the naive baseline's in `DIR/naive/`).
    #[arg(long, value_name = "DIR")]
    hyp: Option<PathBuf>,
    /// Evaluation sets, comma-separated: long, ami30, es30, synth, synth30, gecko6, files.
    #[arg(long, default_value = "long,ami30")]
    set: String,
    /// The synthetic mixes (`bench/out/synth` or `bench/out/synth_heldout`) for the synth sets.
    #[arg(long, value_name = "DIR")]
    synth: Option<PathBuf>,
    /// Only the recordings whose id contains this.
    #[arg(long, default_value = "")]
    only: String,
    /// Voice activity: earshot, energy, silero (`onnx` feature), A+B (windows on A, output
    /// speech where the mean of A and B passes --fuse-onset) or auto (the command line's profile).
    #[arg(long)]
    vad: Option<String>,
    /// VAD onset (offset 0.7 × onset unless --offset).
    #[arg(long)]
    onset: Option<f32>,
    /// VAD offset.
    #[arg(long)]
    offset: Option<f32>,
    /// VAD minimum silence (seconds).
    #[arg(long, value_name = "SECONDS")]
    min_silence: Option<f64>,
    /// Onset of the two detectors' mean with --vad A+B (offset 0.7 × onset).
    #[arg(long)]
    fuse_onset: Option<f32>,
    /// AHC stopping distance.
    #[arg(long)]
    threshold: Option<f32>,
    /// Viterbi switch cost.
    #[arg(long)]
    switch: Option<f32>,
    /// Window step (10 ms frames).
    #[arg(long)]
    step: Option<usize>,
    /// Window length (10 ms frames).
    #[arg(long)]
    window: Option<usize>,
    /// Minimum share of windows of a speaker.
    #[arg(long)]
    frac: Option<f32>,
    /// Minimum speech of a speaker (seconds).
    #[arg(long, value_name = "SECONDS")]
    min_speech: Option<f32>,
    /// Overlap: second speaker within this score margin.
    #[arg(long)]
    overlap: Option<f32>,
    /// Speaker change points on (any --change-* knob turns them on too).
    #[arg(long)]
    change: bool,
    /// Change points: distance threshold.
    #[arg(long)]
    change_threshold: Option<f32>,
    /// Change points: switch cost near a change.
    #[arg(long)]
    change_switch: Option<f32>,
    /// Change points: minimum spacing (10 ms frames).
    #[arg(long)]
    change_gap: Option<usize>,
    /// Change points: tolerance (10 ms frames).
    #[arg(long)]
    change_tol: Option<usize>,
    /// Change points: segment weight.
    #[arg(long)]
    change_segment: Option<f32>,
    /// Change points: crossing windows' weight.
    #[arg(long)]
    change_cross: Option<f32>,
    /// Without the naive baseline.
    #[arg(long)]
    no_baseline: bool,
    /// The automatic count only (no oracle count, no baseline).
    #[arg(long)]
    auto_only: bool,
    /// Sweep the --grid-* lists (each defaults to the current option), pooled per set.
    #[arg(long)]
    sweep: bool,
    /// Turn-level measures (boundary error, fragments, FTO, short-turn recall, count) for the
    /// naive baseline and the pipeline before and after boundary refinement.
    #[arg(long)]
    turns: bool,
    /// The same-voice merge (`DiarizeOptions::same_voice`): `off` or the bar in standard
    /// deviations (default: the options' own).
    #[arg(long, value_name = "off|Z", value_parser = same_voice_bar)]
    same_voice: Option<SameVoice>,
    /// Absorb the small clusters into their nearest neighbour when fewer than two pass the
    /// size rules (`DiarizeOptions::absorb_small`; default off).
    #[arg(long)]
    absorb_small: bool,
    /// --turns: the centroid merge ratio of the "after" row when the options set none.
    #[arg(long, value_name = "RATIO", default_value_t = 1.0)]
    turns_merge: f32,
    /// --turns: merge ratios whose speaker counts and DER are printed per file.
    #[arg(long, value_name = "LIST")]
    grid_merge: Option<String>,
    /// --turns: extra rows, "after" with short runs relabelled by their own embedding,
    /// comma-separated `MIN/MAX/MARGIN` (frames, frames, cosine) or `off`.
    #[arg(long, value_name = "LIST")]
    grid_short: Option<String>,
    /// --turns: extra rows, "after" with the speech edges on the energy, comma-separated
    /// `reach/level/contrast/outward/end_span` (10 ms frames, 0–1, dB, 10 ms frames, 10 ms
    /// frames; missing parts take the defaults, outward the reach) or `off`.
    #[arg(long, value_name = "LIST")]
    grid_edges: Option<String>,
    /// --turns: extra rows, "after" with the speaker changes located on the log-mel frames,
    /// comma-separated `reach/model frames/min pause` (10 ms frames; 0 model frames: the
    /// whole-recording speaker models; 0 min pause: no pause searched).
    #[arg(long, value_name = "LIST")]
    grid_handover: Option<String>,
    /// `--turns`: extra "after" rows with the boundary refinement's search span (frames on
    /// each side of a change), comma-separated (e.g. 50,100,150).
    #[arg(long)]
    grid_refine: Option<String>,
    /// Speech edges on the energy (`reach/level/contrast/outward/end_span`, or `off`; default:
    /// the options').
    #[arg(long, value_name = "SPEC")]
    edges: Option<String>,
    /// The end stretches of long runs relabelled by their own embedding
    /// (`ShortRunOptions::ends`): `off` or the margin, with a trailing `L` for the longest
    /// stretch passing it (default: the options', off). Needed before `--grid-short` rows with
    /// an `END_MARGIN`: the stretches are embedded when the signal is prepared.
    #[arg(long, value_name = "off|MARGIN[L]")]
    ends: Option<String>,
    /// The cluster-of-changes rule (`max_piece/share`, e.g. `100/0.6`, or `off`; default: the
    /// options').
    #[arg(long, value_name = "SPEC")]
    transition: Option<String>,
    /// With --sweep: DER and count per file too.
    #[arg(long)]
    detail: bool,
    /// Sweep: AHC thresholds, comma-separated.
    #[arg(long, value_name = "LIST")]
    grid_threshold: Option<String>,
    /// Sweep: minimum speaker speech values.
    #[arg(long, value_name = "LIST")]
    grid_min_speech: Option<String>,
    /// Sweep: switch costs.
    #[arg(long, value_name = "LIST")]
    grid_switch: Option<String>,
    /// Sweep: minimum cluster fractions.
    #[arg(long, value_name = "LIST")]
    grid_frac: Option<String>,
    /// Sweep: overlap margins (`off` for none).
    #[arg(long, value_name = "LIST")]
    grid_overlap: Option<String>,
    /// Sweep: fusion onsets (--vad A+B).
    #[arg(long, value_name = "LIST")]
    grid_fuse_onset: Option<String>,
    /// Sweep: change points, `off` or threshold[/segment weight[/crossing windows' weight]].
    #[arg(long, value_name = "LIST")]
    grid_change: Option<String>,
    /// Clustering diagnostics: dendrogram heights, raw-centroid cosines.
    #[arg(long)]
    diag: bool,
    /// The set `files`: recordings as `PATH[=RTTM]`, comma-separated (no RTTM: one speaker).
    #[arg(long, default_value = "")]
    files: String,
    /// One voice split in several: the found clusters' uncentred centroids against their
    /// windows' uncentred spread.
    #[arg(long)]
    split_diag: bool,
    /// VAD miss / false alarm per onset; `fuse` (fusion rules) and `overlap` (overlap cue)
    /// need the `onnx` feature.
    #[arg(long, value_name = "KIND", num_args = 0..=1, default_missing_value = "onsets")]
    vad_diag: Option<String>,
    /// Speaker change detection against the reference.
    #[arg(long)]
    change_diag: bool,
    /// Bounds from the reference: `segments` (the encoder and clustering alone) or `pipeline`.
    #[arg(long, value_name = "KIND", num_args = 0..=1, default_missing_value = "segments")]
    oracle: Option<String>,
}

/// The parsed command line.
/// `--same-voice`: `off` (no same-voice merge) or the bar in standard deviations.
#[derive(Clone, Copy, Debug)]
struct SameVoice(Option<f32>);

fn same_voice_bar(s: &str) -> Result<SameVoice, String> {
    if s == "off" {
        return Ok(SameVoice(None));
    }
    match s.parse::<f32>() {
        Ok(z) if z.is_finite() => Ok(SameVoice(Some(z))),
        _ => Err(format!("{s:?} is neither `off` nor a number of standard deviations")),
    }
}

fn args() -> &'static Args {
    static ARGS: std::sync::OnceLock<Args> = std::sync::OnceLock::new();
    ARGS.get_or_init(<Args as clap::Parser>::parse)
}

fn write_rttm(dir: &Path, id: &str, t: &Turns) {
    std::fs::create_dir_all(dir).or_fail(dir.display());
    let mut s = String::new();
    for (n, a, b) in t {
        s.push_str(&format!("SPEAKER {id} 1 {a:.3} {:.3} <NA> <NA> {n} <NA> <NA>\n", b - a));
    }
    let path = dir.join(format!("{id}.rttm"));
    std::fs::write(&path, s).or_fail(path.display());
}

/// One scored recording (or a cut of one).
struct Case {
    id: String,
    group: &'static str,
    samples: Vec<f32>,
    reference: Turns,
}

impl Case {
    fn dur(&self) -> f64 {
        self.samples.len() as f64 / 16_000.0
    }
}

/// Cuts `[off, off + len)` seconds out of a recording and its reference.
fn crop(samples: &[f32], reference: &Turns, off: f64, len: f64) -> (Vec<f32>, Turns) {
    let a = ((off * 16_000.0) as usize).min(samples.len());
    let b = (((off + len) * 16_000.0) as usize).min(samples.len());
    let t = reference
        .iter()
        .filter_map(|(n, s, e)| {
            let (s, e) = (s.max(off) - off, e.min(off + len) - off);
            (e > s).then(|| (n.clone(), s, e))
        })
        .collect();
    (samples[a..b].to_vec(), t)
}

/// The evaluation sets named in `--set` (comma-separated): `long` (ES2004a 60 s and the gecko
/// call), `ami30` (the four 30 s AMI clips), `synth` (the synthetic mixes in `--synth`),
/// `synth30` (30 s cuts of them at 0, 60, 120 and 180 s), `es30` (ES2004a's two halves).
/// Default: `long,ami30`.
fn load_cases(data: &Path, only: &str) -> Vec<Case> {
    let set = &args().set;
    let rd = |wav: &Path, rttm: &Path| (load_16k(wav), read_rttm(&read_text(rttm)));
    let mut out = Vec::new();
    let es = (
        "ES2004a",
        "ami-es2004a-multitrack/mixture.wav",
        "ami-es2004a-multitrack/mixture.ref.rttm",
    );
    for g in set.split(',') {
        match g {
            "long" => {
                for (id, w, r) in
                    [es, ("gecko", "gecko-demo-call/demo.mp3", "gecko-demo-call/demo.rttm")]
                {
                    if id.contains(only) {
                        let (samples, reference) = rd(&data.join(w), &data.join(r));
                        out.push(Case { id: id.into(), group: "long", samples, reference });
                    }
                }
            }
            "gecko6" => {
                // Six copies of the gecko call end to end (57 min), the reference shifted by
                // the exact length of each copy: the count must not depend on the duration.
                let (x, r) = rd(
                    &data.join("gecko-demo-call/demo.mp3"),
                    &data.join("gecko-demo-call/demo.rttm"),
                );
                let len = x.len() as f64 / 16_000.0;
                let samples: Vec<f32> = (0..6).flat_map(|_| x.iter().copied()).collect();
                let reference = (0..6)
                    .flat_map(|c| {
                        let off = c as f64 * len;
                        r.iter().map(move |(n, a, b)| (n.clone(), a + off, b + off))
                    })
                    .collect();
                out.push(Case { id: "gecko6".into(), group: "gecko6", samples, reference });
            }
            "ami30" => {
                for id in ["tst00", "tst01", "dev00", "trn08"] {
                    if id.contains(only) {
                        let d = data.join("ami-30s-excerpts");
                        let (samples, reference) =
                            rd(&d.join(format!("{id}.wav")), &d.join(format!("{id}.but.rttm")));
                        out.push(Case { id: id.into(), group: "ami30", samples, reference });
                    }
                }
            }
            "files" => {
                // `--files PATH[=RTTM],…`: recordings from elsewhere; without a reference, one
                // speaker over the whole file (the count is what is measured).
                for entry in args().files.split(',').filter(|e| !e.is_empty()) {
                    let (wav, rttm) = entry.split_once('=').unwrap_or((entry, ""));
                    let wav = Path::new(wav);
                    let id: String =
                        wav.file_name().unwrap_or(wav.as_os_str()).to_string_lossy().into();
                    if !id.contains(only) {
                        continue;
                    }
                    let samples = load_16k(wav);
                    let reference = if rttm.is_empty() {
                        vec![("ONE".to_string(), 0.0, samples.len() as f64 / 16_000.0)]
                    } else {
                        read_rttm(&read_text(Path::new(rttm)))
                    };
                    out.push(Case { id, group: "files", samples, reference });
                }
            }
            "es30" => {
                let (x, r) = rd(&data.join(es.1), &data.join(es.2));
                for off in [0.0, 30.0] {
                    let (samples, reference) = crop(&x, &r, off, 30.0);
                    out.push(Case {
                        id: format!("ES2004a@{off}"),
                        group: "es30",
                        samples,
                        reference,
                    });
                }
            }
            "synth" | "synth30" => {
                let Some(dir) = args().synth.clone() else {
                    fail(format!("--set {g} needs --synth DIR"))
                };
                let mut names: Vec<String> = std::fs::read_dir(&dir)
                    .or_fail(dir.display())
                    .filter_map(|e| {
                        let p = e.or_fail(dir.display()).path();
                        Some(p.file_name()?.to_str()?.strip_suffix(".mix.wav")?.to_string())
                    })
                    .filter(|n| n.contains(only))
                    .collect();
                names.sort();
                for n in names {
                    let (x, r) =
                        rd(&dir.join(format!("{n}.mix.wav")), &dir.join(format!("{n}.rttm")));
                    if g == "synth" {
                        out.push(Case { id: n, group: "synth", samples: x, reference: r });
                    } else {
                        for off in [0.0, 60.0, 120.0, 180.0] {
                            let (samples, reference) = crop(&x, &r, off, 30.0);
                            out.push(Case {
                                id: format!("{n}@{off}"),
                                group: "synth30",
                                samples,
                                reference,
                            });
                        }
                    }
                }
            }
            other => fail(format!(
                "--set: unknown set {other:?} (long, ami30, es30, synth, synth30, gecko6, files)"
            )),
        }
    }
    out
}

fn options_from_args() -> DiarizeOptions {
    let a = args();
    let vad = a.vad.clone().unwrap_or_default();
    let mut opts =
        if vad == "auto" { DiarizeOptions::preferred() } else { DiarizeOptions::default() };
    opts.threshold = a.threshold.unwrap_or(opts.threshold);
    opts.switch_cost = a.switch.unwrap_or(opts.switch_cost);
    opts.step = a.step.unwrap_or(opts.step);
    opts.window = a.window.unwrap_or(opts.window);
    opts.min_cluster_fraction = a.frac.unwrap_or(opts.min_cluster_fraction);
    opts.min_speaker_speech = a.min_speech.unwrap_or(opts.min_speaker_speech);
    if a.overlap.is_some() {
        opts.overlap_margin = a.overlap;
    }
    // Speaker change points: `--change` (or any of the knobs) turns them on.
    let knobs = [a.change_threshold, a.change_switch, a.change_segment, a.change_cross];
    if a.change || knobs.iter().any(Option::is_some) || a.change_gap.or(a.change_tol).is_some() {
        let mut c = opts.change.unwrap_or_default();
        c.threshold = a.change_threshold.unwrap_or(c.threshold);
        c.switch_cost = a.change_switch.unwrap_or(c.switch_cost);
        c.min_spacing = a.change_gap.unwrap_or(c.min_spacing);
        c.tolerance = a.change_tol.unwrap_or(c.tolerance);
        c.segment_weight = a.change_segment.unwrap_or(c.segment_weight);
        c.cross_weight = a.change_cross.unwrap_or(c.cross_weight);
        opts.change = Some(c);
    }
    if a.absorb_small {
        opts.absorb_small = true;
    }
    if let Some(SameVoice(bar)) = a.same_voice {
        opts.same_voice = bar;
    }
    if !vad.is_empty() && vad != "auto" {
        (opts.vad, opts.vad_fuse) = vad_kinds(&vad).unwrap_or_else(|e| fail(e));
    }
    if let Some(on) = a.onset {
        opts.binarize.onset = on;
        opts.binarize.offset = 0.7 * on;
    }
    if let Some(on) = a.fuse_onset {
        opts.fuse_binarize.onset = on;
        opts.fuse_binarize.offset = 0.7 * on;
    }
    if let Some(off) = a.offset {
        opts.binarize.offset = off;
    }
    if let Some(s) = a.min_silence {
        opts.binarize.min_silence = overtalk::Delta::from_micros((s * 1e6).round() as i64);
    }
    match a.transition.as_deref() {
        None => {}
        Some("off") => opts.transition = None,
        Some(x) => {
            let v: Vec<&str> = x.split('/').collect();
            let mut t = opts.transition.unwrap_or_default();
            let f = "transition";
            t.max_piece = part(f, x, &v, 0, t.max_piece).unwrap_or_else(|e| fail(e));
            t.share = part(f, x, &v, 1, t.share).unwrap_or_else(|e| fail(e));
            opts.transition = Some(t);
        }
    }
    match a.edges.as_deref() {
        None => {}
        Some("off") => opts.edges = None,
        Some(x) => {
            let e = edge_options(opts.edges.unwrap_or_default(), "edges", x);
            opts.edges = Some(e.unwrap_or_else(|e| fail(e)));
        }
    }
    if let (Some(x), Some(r)) = (a.ends.as_deref(), opts.short_runs.as_mut()) {
        r.ends = if x == "off" {
            None
        } else {
            let m = x.trim_end_matches('L');
            let margin: f32 =
                m.parse().unwrap_or_else(|_| fail(format!("--ends: {m:?} is not a number")));
            Some(EndOptions { margin, longest: x.ends_with('L'), ..EndOptions::default() })
        };
    }
    opts
}

/// `reach/level/contrast/outward` over `e` (missing parts keep `e`'s, outward the reach).
fn edge_options(mut e: EdgeOptions, flag: &str, x: &str) -> Result<EdgeOptions, String> {
    let v: Vec<&str> = x.split('/').collect();
    e.reach = part(flag, x, &v, 0, e.reach)?;
    e.level = part(flag, x, &v, 1, e.level)?;
    e.min_contrast = part(flag, x, &v, 2, e.min_contrast)?;
    e.outward = part(flag, x, &v, 3, e.reach)?;
    e.end_span = part(flag, x, &v, 4, e.end_span)?;
    Ok(e)
}

fn main() {
    let a = args();
    let (model, data, hyp_dir) = (&a.model, &a.data, &a.hyp);
    let opts = options_from_args();
    let only = &a.only;
    let baseline = !a.no_baseline;
    let weights = || Ge2eWeights::load(model).or_fail("loading the speaker model");
    let auto = Ge2eDiarizer::new(weights(), "ge2e", opts);
    println!("{}", auto.describe());
    if let Err(e) = opts.vad.try_build() {
        fail(format!("VAD {}: {e}", opts.vad.name()));
    }
    let cases = load_cases(data, only);
    if a.turns {
        let w: &dyn Fn() -> Ge2eWeights = &weights;
        turns_mode(&auto, &cases, baseline.then_some(w), hyp_dir.as_deref());
        return;
    }
    if a.sweep {
        sweep(&auto, &cases);
        return;
    }
    #[cfg(feature = "onnx")]
    if a.vad_diag.as_deref() == Some("overlap") {
        overlap_cue(&cases);
        return;
    }
    #[cfg(feature = "onnx")]
    if a.vad_diag.as_deref() == Some("fuse") {
        vad_fuse_diag(&cases);
        return;
    }
    if a.vad_diag.is_some() {
        vad_diag(&cases);
        return;
    }
    if a.change_diag {
        change_diag(&auto, &cases);
        return;
    }
    if a.diag {
        diag(&auto, &cases);
        return;
    }
    if a.split_diag {
        split_diag(&auto, &opts, &cases);
        return;
    }
    if a.oracle.as_deref() == Some("pipeline") {
        oracle_pipeline(&auto, &cases);
        return;
    }
    if a.oracle.is_some() {
        oracle(&auto, weights(), &cases);
        return;
    }
    println!(
        "{:8} {:>5} {:>4} | {:>4} {:>7} {:>7} {:>6} | {:>7} {:>7} (oracle k) | {:>7} {:>7} {:>4} (naive, oracle k) | auto c=0.25: miss fa conf (s)",
        "file", "dur", "ref", "hypk", "DER.25", "DER0", "RTF", "DER.25", "DER0", "DER.25", "DER0", "k"
    );
    let mut tot = [Der::default(); 6];
    let (mut right, mut files_n) = (0, 0);
    for c in &cases {
        let (id, dur, reference) = (&c.id, c.dur(), &c.reference);
        let k = speaker_count(reference);
        let t0 = Instant::now();
        let p = auto.prepare(&c.samples).or_fail(&c.id);
        let d = auto.assign(&p, &opts);
        let rtf = dur / t0.elapsed().as_secs_f64();
        let h = turns_of(&d.annotation);
        let mut row = vec![der(reference, &h, dur, 0.25), der(reference, &h, dur, 0.0)];
        if let Some(dir) = &hyp_dir {
            write_rttm(dir, id, &h);
        }
        if a.auto_only {
            row.extend([Der::default(); 2]);
        } else {
            let mut o = opts;
            o.count = SpeakerCount { exact: Some(k), ..SpeakerCount::default() };
            let ho = turns_of(&auto.assign(&p, &o).annotation);
            row.push(der(reference, &ho, dur, 0.25));
            row.push(der(reference, &ho, dur, 0.0));
        }
        let mut naive_k = 0;
        if baseline && !a.auto_only {
            let mut nd = NaiveDiarizer::new(weights(), k);
            nd.vad = opts.vad;
            let naive = nd.diarize(&c.samples).or_fail(&c.id);
            naive_k = naive.speakers;
            let hn = turns_of(&naive.annotation);
            if let Some(dir) = &hyp_dir {
                write_rttm(&dir.join("naive"), id, &hn);
            }
            row.push(der(reference, &hn, dur, 0.25));
            row.push(der(reference, &hn, dur, 0.0));
        } else {
            row.extend([Der::default(), Der::default()]);
        }
        for (t, r) in tot.iter_mut().zip(&row) {
            t.add(r);
        }
        files_n += 1;
        right += usize::from(d.speakers == k);
        println!(
            "{:8} {:5.0} {:4} | {:4} {:6.1}% {:6.1}% {:5.0}x | {:6.1}% {:6.1}%            | {:6.1}% {:6.1}% {:4}                  | {:.1} {:.1} {:.1} of {:.1}; {} windows, {:.1} s speech",
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
            100.0 * row[5].rate(),
            naive_k,
            row[0].miss as f64 / 100.0,
            row[0].fa as f64 / 100.0,
            row[0].confusion as f64 / 100.0,
            row[0].total as f64 / 100.0,
            p.windows(),
            p.speech_frames() as f64 / 100.0,
        );
    }
    println!(
        "{:8} {:5} {:4} | {:4} {:6.1}% {:6.1}% {:>6} | {:6.1}% {:6.1}%            | {:6.1}% {:6.1}%",
        "pooled",
        "",
        "",
        format!("{right}/{files_n}"),
        100.0 * tot[0].rate(),
        100.0 * tot[1].rate(),
        "",
        100.0 * tot[2].rate(),
        100.0 * tot[3].rate(),
        100.0 * tot[4].rate(),
        100.0 * tot[5].rate()
    );
}

/// `--turns`: per file and pooled per set, DER (collar 0.25 / 0) and the turn-level
/// measures of [`turn_metrics`] (boundary error at true changes, fragments under 100 ms, median
/// FTO against the reference's, recall of 0.3–0.7 s turns, speaker count) for the naive
/// baseline (true count; skipped with `--no-baseline`), the pipeline without boundary
/// refinement ("before") and with it ("after"), from the same embeddings. With `--hyp DIR`
/// the three hypotheses go to `DIR/{naive,before,after}/<id>.rttm`.
fn turns_mode(
    d: &Ge2eDiarizer,
    cases: &[Case],
    naive: Option<&dyn Fn() -> Ge2eWeights>,
    hyp: Option<&Path>,
) {
    use overtalk_audio::diarize::turn_metrics::{median, turn_metrics, TurnMetrics};
    let mut before = d.options;
    before.refine = None;
    before.merge_ratio = None;
    before.edges = None;
    let after = DiarizeOptions {
        refine: Some(d.options.refine.unwrap_or_default()),
        merge_ratio: d.options.merge_ratio.or(Some(args().turns_merge)),
        ..d.options
    };
    // Extra rows: "after" with the speech edges on the energy (`--grid-edges`).
    let edge_rows: Vec<(String, DiarizeOptions)> = args()
        .grid_edges
        .as_deref()
        .unwrap_or("")
        .split(',')
        .filter(|x| !x.is_empty())
        .map(|x| {
            if x == "off" {
                return ("edges-off".to_owned(), DiarizeOptions { edges: None, ..after });
            }
            let e = edge_options(EdgeOptions::default(), "grid-edges", x);
            (
                format!("e{x}"),
                DiarizeOptions { edges: Some(e.unwrap_or_else(|e| fail(e))), ..after },
            )
        })
        .collect();
    let mut edge_rows = edge_rows;
    edge_rows.extend(
        args().grid_handover.as_deref().unwrap_or("").split(',').filter(|x| !x.is_empty()).map(
            |x| {
                let v: Vec<&str> = x.split('/').collect();
                let mut h = HandoverOptions::default();
                let f = "grid-handover";
                h.reach = part(f, x, &v, 0, h.reach).unwrap_or_else(|e| fail(e));
                h.model_frames = part(f, x, &v, 1, h.model_frames).unwrap_or_else(|e| fail(e));
                h.min_pause = part(f, x, &v, 2, h.min_pause).unwrap_or_else(|e| fail(e));
                (format!("h{x}"), DiarizeOptions { handover: Some(h), ..after })
            },
        ),
    );
    // Extra rows: "after" with the refinement's search span (frames each side) changed.
    edge_rows.extend(
        args().grid_refine.as_deref().unwrap_or("").split(',').filter(|x| !x.is_empty()).map(|x| {
            let mut r = after.refine.unwrap_or_default();
            r.window = part("grid-refine", x, &[x], 0, r.window).unwrap_or_else(|e| fail(e));
            (format!("r{x}"), DiarizeOptions { refine: Some(r), ..after })
        }),
    );
    // Extra rows: "after" with short runs relabelled by their own embedding
    // (`MIN/MAX/MARGIN[/DIP_MARGIN[/END_MARGIN]]` in frames and cosine, `DIP_MARGIN` `off`
    // for no parts between energy dips, `END_MARGIN` `off` for no end stretches of long runs
    // or ending in `L` for the longest stretch passing it; or `off`).
    edge_rows.extend(
        args().grid_short.as_deref().unwrap_or("").split(',').filter(|x| !x.is_empty()).map(|x| {
            if x == "off" {
                return ("s-off".to_owned(), DiarizeOptions { short_runs: None, ..after });
            }
            let v: Vec<&str> = x.split('/').collect();
            let mut r = ShortRunOptions::default();
            let f = "grid-short";
            r.min_frames = part(f, x, &v, 0, r.min_frames).unwrap_or_else(|e| fail(e));
            r.max_frames = part(f, x, &v, 1, r.max_frames).unwrap_or_else(|e| fail(e));
            r.margin = part(f, x, &v, 2, r.margin).unwrap_or_else(|e| fail(e));
            match v.get(3) {
                Some(&"off") => r.dips = None,
                Some(_) => {
                    let mut d = r.dips.unwrap_or_default();
                    d.margin = part(f, x, &v, 3, d.margin).unwrap_or_else(|e| fail(e));
                    r.dips = Some(d);
                }
                None => {}
            }
            // END_MARGIN (`off`: no end stretches; a trailing `L`: the longest passing).
            match v.get(4) {
                Some(&"off") => r.ends = None,
                Some(e) => {
                    let mut o = r.ends.unwrap_or_default();
                    o.longest = e.ends_with('L');
                    let m = e.trim_end_matches('L');
                    o.margin = m
                        .parse()
                        .unwrap_or_else(|_| fail(format!("--{f}: {m:?} in {x:?} is not a number")));
                    r.ends = Some(o);
                }
                None => {}
            }
            (format!("s{x}"), DiarizeOptions { short_runs: Some(r), ..after })
        }),
    );
    let mut names: Vec<String> = ["naive", "before", "after"].map(String::from).to_vec();
    names.extend(edge_rows.iter().map(|r| r.0.clone()));
    let rows = names.len();
    let mut groups: Vec<&str> = cases.iter().map(|c| c.group).collect();
    groups.dedup();
    let mut pooled: Vec<(&str, Vec<Der>, Vec<TurnMetrics>)> = Vec::new();
    let ms = |x: Option<f64>| x.map_or("-".to_owned(), |v| format!("{:.0}", v * 1000.0));
    for c in cases {
        let dur = c.dur();
        let t0 = Instant::now();
        let p = d.prepare(&c.samples).or_fail(&c.id);
        eprintln!("{}: prepared in {:.1} s", c.id, t0.elapsed().as_secs_f64());
        let mut hyps: Vec<Option<Turns>> = vec![None; rows];
        if let Some(w) = &naive {
            let mut nd = NaiveDiarizer::new(w(), speaker_count(&c.reference));
            nd.vad = d.options.vad;
            hyps[0] = Some(turns_of(&nd.diarize(&c.samples).or_fail(&c.id).annotation));
        }
        hyps[1] = Some(turns_of(&d.assign(&p, &before).annotation));
        hyps[2] = Some(turns_of(&d.assign(&p, &after).annotation));
        for (i, (_, o)) in edge_rows.iter().enumerate() {
            hyps[3 + i] = Some(turns_of(&d.assign(&p, o).annotation));
        }
        let ratios: Vec<f32> = grid("grid-merge", &args().grid_merge, "0.6,0.8,1.0,1.2,1.5");
        let counts: Vec<String> = ratios
            .iter()
            .map(|&r| {
                let h = d.assign(&p, &DiarizeOptions { merge_ratio: Some(r), ..after });
                let t = turns_of(&h.annotation);
                let dd = der(&c.reference, &t, dur, 0.25);
                format!("{r}: {} spk {:.1} %", h.speakers, 100.0 * dd.rate())
            })
            .collect();
        println!("{:24} merge ratio → speakers, DER c=0.25: {}", c.id, counts.join("; "));
        if !pooled.iter().any(|g| g.0 == c.group) {
            pooled.push((
                c.group,
                vec![Der::default(); 2 * rows],
                vec![TurnMetrics::default(); rows],
            ));
        }
        let g = pooled.iter_mut().find(|g| g.0 == c.group).unwrap();
        for (i, h) in hyps.iter().enumerate() {
            let Some(h) = h else { continue };
            if let Some(dir) = hyp {
                write_rttm(&dir.join(&names[i]), &c.id, h);
            }
            let (d25, d0) = (der(&c.reference, h, dur, 0.25), der(&c.reference, h, dur, 0.0));
            g.1[2 * i].add(&d25);
            g.1[2 * i + 1].add(&d0);
            let m = turn_metrics(&c.reference, h);
            println!(
                "{:24} {:6} DER {:5.1} / {:5.1} %  {}",
                c.id,
                names[i],
                100.0 * d25.rate(),
                100.0 * d0.rate(),
                m.summary()
            );
            g.2[i].add(&m);
        }
    }
    println!("pooled per set (speaker counts summed over files):");
    for (group, ders, ms3) in &pooled {
        for i in 0..rows {
            if naive.is_none() && i == 0 {
                continue;
            }
            let m = &ms3[i];
            println!(
                "{:8} {:6} DER {:5.1} / {:5.1} %  |err| {} ms (signed {}), matched {}/{}; <100 ms {} ({} not in ref); FTO ref {} hyp {} ms; short-turn recall {}/{} = {:.2}, floor-taking {}/{} = {:.2}",
                group,
                names[i],
                100.0 * ders[2 * i].rate(),
                100.0 * ders[2 * i + 1].rate(),
                ms(m.boundary_median()),
                ms(m.boundary_signed_median()),
                m.matched,
                m.changes,
                m.short_segments,
                m.short_not_in_reference(),
                ms(median(&m.fto_reference)),
                ms(median(&m.fto_hypothesis)),
                m.short_turns_found,
                m.short_turns,
                m.short_turn_recall(),
                m.short_floor_found,
                m.short_floor_turns,
                m.short_floor_recall()
            );
        }
    }
}

/// The comma-separated values of `--flag` (`list`, else `d`), each checked by `check`.
fn grid_with<T>(
    flag: &str,
    list: &Option<String>,
    d: &str,
    check: impl Fn(&str) -> Result<T, String>,
) -> Vec<T> {
    let values = list.as_deref().unwrap_or(d).split(',').filter(|x| !x.is_empty());
    values
        .map(|x| check(x).map_err(|e| format!("--{flag}: {e}")).unwrap_or_else(|e| fail(e)))
        .collect()
}

/// The comma-separated numbers of `--flag` (`list`, else `d`).
fn grid<T: std::str::FromStr>(flag: &str, list: &Option<String>, d: &str) -> Vec<T> {
    grid_with(flag, list, d, |x| x.parse().map_err(|_| format!("{x:?} is not a number")))
}

/// A value that is `off` or whose `/`-separated parts are numbers.
fn off_or_numbers(x: &str) -> Result<String, String> {
    let numbers = x.split('/').all(|p| p.parse::<f32>().is_ok_and(f32::is_finite));
    if x == "off" || numbers {
        Ok(x.to_owned())
    } else {
        Err(format!("{x:?} is neither `off` nor numbers separated by `/`"))
    }
}

/// Prepares every case once, then prints, per set, pooled DER (collar 0.25 and 0) and count
/// accuracy for a grid of options (`--grid-threshold`, `--grid-min-speech`, `--grid-overlap`
/// with `off`, `--grid-switch`, `--grid-frac`, `--grid-fuse-onset`, `--grid-change`:
/// comma-separated values).
fn sweep(d: &Ge2eDiarizer, cases: &[Case]) {
    let mut prepared = Vec::new();
    for c in cases {
        let t0 = Instant::now();
        prepared.push(d.prepare(&c.samples).or_fail(&c.id));
        eprintln!("{}: prepared in {:.1} s", c.id, t0.elapsed().as_secs_f64());
    }
    let mut groups: Vec<&str> = cases.iter().map(|c| c.group).collect();
    groups.dedup();
    let a = args();
    let o = &d.options;
    let ths: Vec<f32> = grid("grid-threshold", &a.grid_threshold, &o.threshold.to_string());
    let mins: Vec<f32> =
        grid("grid-min-speech", &a.grid_min_speech, &o.min_speaker_speech.to_string());
    let sws: Vec<f32> = grid("grid-switch", &a.grid_switch, &o.switch_cost.to_string());
    let fracs: Vec<f32> = grid("grid-frac", &a.grid_frac, &o.min_cluster_fraction.to_string());
    let ovs: Vec<String> = grid_with("grid-overlap", &a.grid_overlap, "off", off_or_numbers);
    let fons: Vec<f32> =
        grid("grid-fuse-onset", &a.grid_fuse_onset, &o.fuse_binarize.onset.to_string());
    let chs: Vec<String> = grid_with(
        "grid-change",
        &a.grid_change,
        &o.change.map_or("off".into(), |c| c.threshold.to_string()),
        off_or_numbers,
    );
    for (fon, ch) in fons.iter().flat_map(|&f| chs.iter().map(move |c| (f, c))) {
        for &th in &ths {
            for &mn in &mins {
                for &sw in &sws {
                    for &fr in &fracs {
                        for ov in &ovs {
                            let mut o = d.options;
                            o.threshold = th;
                            o.min_speaker_speech = mn;
                            o.switch_cost = sw;
                            o.min_cluster_fraction = fr;
                            o.overlap_margin = ov.parse().ok();
                            o.fuse_binarize.onset = fon;
                            o.fuse_binarize.offset = 0.7 * fon;
                            // `off`, or threshold[/segment weight[/crossing windows' weight]].
                            let mut cv = ch.split('/').map(|x| x.parse::<f32>().ok());
                            o.change = cv.next().flatten().map(|t| {
                                let c = d.options.change.unwrap_or_default();
                                ChangeOptions {
                                    threshold: t,
                                    segment_weight: cv.next().flatten().unwrap_or(c.segment_weight),
                                    cross_weight: cv.next().flatten().unwrap_or(c.cross_weight),
                                    ..c
                                }
                            });
                            let mut line = format!(
                            "fon {fon:.2} th {th:.2} mins {mn:.1} sw {sw:.1} frac {fr:.2} ov {ov:>4} ch {ch:>10}:"
                        );
                            let mut detail = String::new();
                            for g in &groups {
                                let (mut t25, mut t0, mut right, mut n) =
                                    (Der::default(), Der::default(), 0, 0);
                                for (c, p) in
                                    cases.iter().zip(&prepared).filter(|(c, _)| c.group == *g)
                                {
                                    let r = d.assign(p, &o);
                                    let h = turns_of(&r.annotation);
                                    let x = der(&c.reference, &h, c.dur(), 0.25);
                                    t25.add(&x);
                                    t0.add(&der(&c.reference, &h, c.dur(), 0.0));
                                    right += usize::from(r.speakers == speaker_count(&c.reference));
                                    n += 1;
                                    if args().detail {
                                        detail.push_str(&format!(
                                            " {}={:.1}%/{}",
                                            c.id,
                                            100.0 * x.rate(),
                                            r.speakers
                                        ));
                                    }
                                }
                                line.push_str(&format!(
                                    " | {g} {:.1}% {:.1}% {right}/{n}",
                                    100.0 * t25.rate(),
                                    100.0 * t0.rate()
                                ));
                            }
                            println!("{line}{detail}");
                        }
                    }
                }
            }
        }
    }
}

/// Per-file clustering diagnostics: the last merge distances of the dendrogram (centred
/// embeddings), and the cosine between raw (uncentred) centroids of the oracle-k clusters.
fn diag(d: &Ge2eDiarizer, cases: &[Case]) {
    use overtalk_audio::diarize::cluster;
    for c in cases {
        let id = &c.id;
        let k = speaker_count(&c.reference);
        let p = d.prepare(&c.samples).or_fail(&c.id);
        let emb = p.centred();
        let stride = emb.len().div_ceil(2000);
        let sample: Vec<Vec<f32>> = emb.iter().step_by(stride).cloned().collect();
        let raw: Vec<Vec<f32>> = p.raw().iter().step_by(stride).cloned().collect();
        let m = cluster::dendrogram(&sample);
        let n = sample.len();
        let last: Vec<String> = m
            .iter()
            .enumerate()
            .rev()
            .take(8)
            .map(|(i, x)| format!("{}->{}:{:.2}", n - i, n - i - 1, x.2))
            .collect();
        println!("{id}: ref {k}, {n} windows; last merges {}", last.join(" "));
        for kk in [k, k + 1, k + 2] {
            if kk > n {
                continue;
            }
            let labels = cluster::cut(n, &m[..n - kk]);
            let mut sizes = vec![0usize; kk];
            labels.iter().for_each(|&l| sizes[l] += 1);
            let c = cluster::centroids(&raw, &labels, kk);
            let mut pairs = Vec::new();
            for a in 0..kk {
                for b in a + 1..kk {
                    pairs.push(format!(
                        "{a}{b}:{:.2}",
                        overtalk_audio::diarize::embed::cosine(&c[a], &c[b])
                    ));
                }
            }
            println!("  k={kk} sizes {sizes:?} raw-centroid cos {}", pairs.join(" "));
        }
    }
}

/// One voice split in several (`--split-diag`): the clusters the pipeline keeps (AHC on the
/// centred embeddings, small clusters dropped, re-merge), then on the uncentred embeddings
/// each pair's centroid cosine and each cluster's spread (mean cosine of its windows to its
/// own uncentred centroid), and the final count (after the resegmentation and the dropping of
/// clusters of speaker changes). When fewer than two clusters pass the size rule the pipeline
/// keeps one; the row then shows all of the AHC's clusters. Each pair prints as
/// `ab:cosine/r ratio/z preference/n windows` (ratio: the re-merge's on the uncentred vectors;
/// preference: `remerge::preference`, what the same-voice merge compares with its bar).
/// `ahc K sizes [..] min M` are the AHC's clusters (windows each, largest first) and the size
/// rule in windows, before any cluster is dropped or absorbed (the pipeline absorbs the small
/// ones when fewer than two pass; this row does not).
fn split_diag(d: &Ge2eDiarizer, o: &DiarizeOptions, cases: &[Case]) {
    use overtalk_audio::diarize::{cluster, embed::cosine, remerge};
    for c in cases {
        let p = d.prepare(&c.samples).or_fail(&c.id);
        let found = speaker_count(&turns_of(&d.assign(&p, o).annotation));
        let emb = p.centred();
        let stride = emb.len().div_ceil(o.max_cluster_windows.max(2));
        let sample: Vec<Vec<f32>> = emb.iter().step_by(stride).cloned().collect();
        let raw: Vec<Vec<f32>> = p.raw().iter().step_by(stride).cloned().collect();
        let labels = cluster::ahc(&sample, o.threshold, o.count);
        let k = labels.iter().max().map_or(1, |m| m + 1);
        let mut cents = cluster::centroids(&sample, &labels, k);
        let mut sizes = vec![0usize; k];
        labels.iter().for_each(|&l| sizes[l] += 1);
        let per_window = (stride * o.step.max(1)) as f32 / 100.0;
        let min = ((o.min_cluster_fraction * sample.len() as f32).ceil() as usize)
            .max((o.min_speaker_speech / per_window).ceil() as usize)
            .max(2);
        let keep: Vec<usize> = (0..k).filter(|&i| sizes[i] >= min).collect();
        if keep.len() > 1 {
            cents = keep.iter().map(|&i| cents[i].clone()).collect();
        }
        if let Some(r) = o.merge_ratio {
            cents = remerge::merge_close(&sample, cents, r, 1);
        }
        let kk = cents.len();
        let wl: Vec<usize> = sample.iter().map(|w| cluster::nearest(w, &cents)).collect();
        let rc = cluster::centroids(&raw, &wl, kk);
        let gm = cluster::centroids(&raw, &vec![0; raw.len()], 1).swap_remove(0);
        let spread: Vec<f32> = (0..kk)
            .map(|i| {
                let v: Vec<f32> = raw
                    .iter()
                    .zip(&wl)
                    .filter(|x| *x.1 == i)
                    .map(|x| cosine(x.0, &rc[i]))
                    .collect();
                v.iter().sum::<f32>() / v.len().max(1) as f32
            })
            .collect();
        let all: f32 = raw.iter().map(|w| cosine(w, &gm)).sum::<f32>() / raw.len().max(1) as f32;
        let mut min_pair = 1.0f32;
        let mut pairs = Vec::new();
        for a in 0..kk {
            for b in a + 1..kk {
                let x = cosine(&rc[a], &rc[b]);
                min_pair = min_pair.min(x);
                // The re-merge's ratio on the uncentred vectors, and the same-voice preference.
                let ratio = (1.0 - x) / (1.0 - 0.5 * (spread[a] + spread[b]));
                let z = remerge::preference(&raw, &wl, a, b).unwrap_or(f64::NAN);
                let n = wl.iter().filter(|&&l| l == a || l == b).count();
                pairs.push(format!("{a}{b}:{x:.3}/r{ratio:.2}/z{z:.2}/n{n}"));
            }
        }
        let sp: Vec<String> = spread.iter().map(|s| format!("{s:.3}")).collect();
        let mut by_size: Vec<usize> = sizes.clone();
        by_size.sort_unstable_by(|a, b| b.cmp(a));
        println!(
            "{:<28} ref {} ahc {k} sizes {by_size:?} min {min} | clusters {kk} final {found} | all-spread {all:.3} | spreads {} | min-pair {min_pair:.3} | {}",
            c.id,
            speaker_count(&c.reference),
            sp.join(" "),
            pairs.join(" ")
        );
    }
}

/// Speech detection against the reference speech (union of speakers), 10 ms frames, no
/// collar: missed and false-alarm seconds for each VAD and onset (offset = 0.7 × onset).
fn vad_diag(cases: &[Case]) {
    use overtalk_audio::frames::Binarize;
    use overtalk_audio::vad::{probabilities, VadKind};
    let onsets = [0.2f32, 0.3, 0.4, 0.5, 0.6];
    let kinds: Vec<VadKind> = VadKind::ALL.to_vec();
    let mut tot = vec![(0u64, 0u64, 0u64); kinds.len() * onsets.len()];
    for c in cases {
        let (id, samples, reference) = (&c.id, &c.samples, &c.reference);
        let n = samples.len() / 160 + 1;
        let mut r = vec![false; n];
        for (_, a, b) in reference {
            let (a, b) =
                (((a * 100.0).round() as usize).min(n), ((b * 100.0).round() as usize).min(n));
            r[a..b].iter_mut().for_each(|x| *x = true);
        }
        let mut line =
            format!("{id:8} speech {:6.1} s |", r.iter().filter(|&&x| x).count() as f64 / 100.0);
        for (vi, &vad) in kinds.iter().enumerate() {
            let probs = probabilities(vad.build(), samples);
            let hop = vad.build().hop();
            for (oi, &on) in onsets.iter().enumerate() {
                let b = Binarize { onset: on, offset: 0.7 * on, ..Binarize::default() };
                let region = b.apply(probs.iter().copied(), hop);
                let (miss, fa) = miss_and_false_alarm(&r, &frame_mask(&region, n));
                let t = &mut tot[vi * onsets.len() + oi];
                t.0 += miss;
                t.1 += fa;
                t.2 += r.iter().filter(|&&x| x).count() as u64;
                line.push_str(&format!(
                    " {}{on:.1}: {:.1}/{:.1}",
                    &vad.name()[..2],
                    miss as f64 / 100.0,
                    fa as f64 / 100.0
                ));
            }
        }
        println!("{line}");
    }
    let mut line = "pooled miss+fa % |".to_string();
    for (i, t) in tot.iter().enumerate() {
        line.push_str(&format!(" {}:{:.1}%", i, 100.0 * (t.0 + t.1) as f64 / t.2.max(1) as f64));
    }
    println!("{line}");
}

/// The 10 ms frames (of `n`) that `region` covers, each frame taken at its nearest boundary.
fn frame_mask(region: &overtalk::Region, n: usize) -> Vec<bool> {
    let mut h = vec![false; n];
    for seg in region.iter() {
        let a = ((seg.start().micros() + 5000) / 10_000) as usize;
        let e = (((seg.end().micros() + 5000) / 10_000) as usize).min(n);
        h[a.min(e)..e].iter_mut().for_each(|x| *x = true);
    }
    h
}

/// Frames of speech in `reference` missing from `hypothesis`, and frames of `hypothesis` that
/// are not speech in `reference`.
fn miss_and_false_alarm(reference: &[bool], hypothesis: &[bool]) -> (u64, u64) {
    let pairs = || reference.iter().zip(hypothesis);
    let miss = pairs().filter(|(a, b)| **a && !**b).count() as u64;
    let fa = pairs().filter(|(a, b)| !**a && **b).count() as u64;
    (miss, fa)
}

/// Fusion of two detectors' probabilities on the 10 ms grid (`--vad-diag fuse`, needs the
/// `onnx` feature): miss / false alarm per set for several combination rules and onsets.
#[cfg(feature = "onnx")]
fn vad_fuse_diag(cases: &[Case]) {
    use overtalk_audio::frames::Binarize;
    use overtalk_audio::vad::{probabilities, VadKind};
    let onsets = [0.2f32, 0.3, 0.4, 0.5];
    type Rule = (&'static str, fn(f32, f32) -> f32);
    let rules: [Rule; 6] = [
        ("ea", |e, _| e),
        ("si", |_, s| s),
        ("mean", |e, s| 0.5 * (e + s)),
        ("max", |e, s| e.max(s)),
        ("geo", |e, s| (e * s).sqrt()),
        ("gate", |e, s| if s >= 0.05 { e.max(s) } else { s }),
    ];
    let mut groups: Vec<&str> = cases.iter().map(|c| c.group).collect();
    groups.dedup();
    // (group, rule, onset) -> (miss, fa, speech)
    let mut tot = std::collections::HashMap::new();
    for c in cases {
        let n = c.samples.len() / 160 + 1;
        let mut r = vec![false; n];
        for (_, a, b) in &c.reference {
            let (a, b) =
                (((a * 100.0).round() as usize).min(n), ((b * 100.0).round() as usize).min(n));
            r[a..b].iter_mut().for_each(|x| *x = true);
        }
        let grid = |k: VadKind| -> Vec<f32> {
            let p = probabilities(k.build(), &c.samples);
            let hop = k.build().hop().micros() as usize;
            (0..n).map(|f| p.get((f * 10_000 + 5_000) / hop).copied().unwrap_or(0.0)).collect()
        };
        let (ea, si) = (grid(VadKind::Earshot), grid(VadKind::Silero));
        let mut line = format!("{:10}", c.id);
        for (ri, (name, f)) in rules.iter().enumerate() {
            let p: Vec<f32> = ea.iter().zip(&si).map(|(&e, &s)| f(e, s)).collect();
            for &on in &onsets {
                let b = Binarize { onset: on, offset: 0.7 * on, ..Binarize::default() };
                let region = b.apply(p.iter().copied(), overtalk::Delta::from_micros(10_000));
                let (miss, fa) = miss_and_false_alarm(&r, &frame_mask(&region, n));
                let t = tot.entry((c.group, ri, (on * 10.0) as u32)).or_insert((0u64, 0u64, 0u64));
                t.0 += miss;
                t.1 += fa;
                t.2 += r.iter().filter(|&&x| x).count() as u64;
                if on == 0.3 || on == 0.5 {
                    line.push_str(&format!(
                        " {name}{on:.1}:{:.1}/{:.1}",
                        miss as f64 / 100.0,
                        fa as f64 / 100.0
                    ));
                }
            }
        }
        println!("{line}");
    }
    for g in &groups {
        for (ri, (name, _)) in rules.iter().enumerate() {
            let mut line = format!("{g:8} {name:5}");
            for &on in &onsets {
                let t = tot[&(*g, ri, (on * 10.0) as u32)];
                line.push_str(&format!(
                    " | {on:.1}: miss {:.1}% fa {:.1}%",
                    100.0 * t.0 as f64 / t.2.max(1) as f64,
                    100.0 * t.1 as f64 / t.2.max(1) as f64
                ));
            }
            println!("{line}");
        }
    }
}

/// Bounds from the reference (`--oracle`): what the encoder and the clustering reach when
/// speech, overlap and every turn change are known.
///
/// Runs of 10 ms frames where exactly one reference speaker talks are embedded with windows
/// (`--window`, step `--step`) that never leave the run; runs shorter than 0.5 s are not
/// embedded. The windows are clustered (AHC on centred embeddings) with the true count and with
/// the automatic threshold. The hypothesis then labels
///
/// ```text
/// reference  A A A A . B B B B B AB AB A A     (AB: both talk)
/// windows    [-w1--]   [--w2---]       [w3]
/// hypothesis c1 ... .  c2 .....  m(A) m(B) c3
/// ```
///
/// each frame of an embedded run with the cluster of its nearest window, and every other
/// speech frame (overlap, short runs) with `m(s)` for each speaker `s` talking there, the
/// cluster holding most of `s`'s windows: a perfect overlap detector and a perfect choice of
/// the second voice. What remains is the encoder's confusion.
fn oracle(d: &Ge2eDiarizer, weights: Ge2eWeights, cases: &[Case]) {
    use overtalk_audio::diarize::cluster;
    use overtalk_audio::diarize::{Ge2eEmbedder, WindowEmbedder};
    let embedder = Ge2eEmbedder::new(weights, "ge2e");
    let (window, step) = (d.options.window, d.options.step.max(1));
    let mut groups: Vec<&str> = cases.iter().map(|c| c.group).collect();
    groups.dedup();
    let mut tot = Totals::default();
    println!(
        "{:10} | {:>6} {:>6} | {:>6} {:>6} | (true k | AHC count) | short/overlap speech s",
        "file", "DER.25", "DER0", "DER.25", "DER0"
    );
    for c in cases {
        let mut fe = embedder.front_end();
        let mut data = Vec::new();
        fe.push(&c.samples, &mut data);
        fe.finish(&mut data);
        let dim = fe.dim();
        let n = data.len() / dim;
        let mut names: Vec<&str> = c.reference.iter().map(|t| t.0.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        let active: Vec<Vec<usize>> = (0..n)
            .map(|f| {
                let t = (f as f64 + 0.5) / 100.0;
                let mut s: Vec<usize> = c
                    .reference
                    .iter()
                    .filter(|r| r.1 <= t && t < r.2)
                    .map(|r| names.iter().position(|x| *x == r.0).unwrap())
                    .collect();
                s.sort_unstable();
                s.dedup();
                s
            })
            .collect();
        // Single-speaker runs of at least 0.5 s, and their windows.
        let mut windows: Vec<(usize, usize, usize)> = Vec::new(); // (first, len, speaker)
        let mut runs: Vec<(usize, usize, std::ops::Range<usize>)> = Vec::new(); // (a, b, windows)
        let mut f = 0;
        while f < n {
            if active[f].len() != 1 {
                f += 1;
                continue;
            }
            let s = active[f][0];
            let a = f;
            while f < n && active[f].len() == 1 && active[f][0] == s {
                f += 1;
            }
            let len = f - a;
            if len < 50 {
                continue;
            }
            let w0 = windows.len();
            let wl = len.min(window);
            let mut st = a;
            loop {
                windows.push((st, wl, s));
                if st + wl >= f {
                    break;
                }
                st = (st + step).min(f - wl);
            }
            runs.push((a, f, w0..windows.len()));
        }
        let mut raw = Vec::new();
        for chunk in windows.chunks(32) {
            let mut lens: Vec<usize> = chunk.iter().map(|w| w.1).collect();
            lens.sort_unstable();
            lens.dedup();
            let mut res = vec![Vec::new(); chunk.len()];
            for len in lens {
                let idx: Vec<usize> = (0..chunk.len()).filter(|&i| chunk[i].1 == len).collect();
                let views: Vec<&[f32]> = idx
                    .iter()
                    .map(|&i| &data[chunk[i].0 * dim..(chunk[i].0 + len) * dim])
                    .collect();
                for (i, e) in idx.iter().zip(embedder.embed(&views).or_fail("embedding")) {
                    res[*i] = e;
                }
            }
            raw.extend(res);
        }
        let emb = cluster::centre(&raw);
        let k = names.len();
        let label = |labels: &[usize]| -> Turns {
            let kk = labels.iter().max().map_or(0, |m| m + 1);
            // m(s): the cluster holding most of speaker s's windows.
            let major: Vec<Option<usize>> = (0..k)
                .map(|s| {
                    let mut cnt = vec![0usize; kk];
                    windows.iter().zip(labels).filter(|(w, _)| w.2 == s).for_each(|(_, &l)| {
                        cnt[l] += 1;
                    });
                    let best = (0..kk).max_by_key(|&c| (cnt[c], std::cmp::Reverse(c)))?;
                    (cnt[best] > 0).then_some(best)
                })
                .collect();
            let mut sets: Vec<Vec<usize>> = active
                .iter()
                .map(|a| {
                    let mut v: Vec<usize> = a.iter().filter_map(|&s| major[s]).collect();
                    v.sort_unstable();
                    v.dedup();
                    v
                })
                .collect();
            for (a, b, ws) in &runs {
                for (fr, set) in sets.iter_mut().enumerate().take(*b).skip(*a) {
                    let w = ws
                        .clone()
                        .min_by_key(|&i| {
                            let centre = 2 * windows[i].0 + windows[i].1;
                            (centre as i64 - 2 * fr as i64 - 1).abs()
                        })
                        .unwrap();
                    *set = vec![labels[w]];
                }
            }
            (0..kk)
                .flat_map(|cl| frame_runs(&format!("C{cl}"), n, |f| sets[f].contains(&cl)))
                .collect()
        };
        if emb.is_empty() {
            println!("{:10} no single-speaker run of 0.5 s", c.id);
            continue;
        }
        let true_k =
            cluster::ahc(&emb, 0.0, SpeakerCount { exact: Some(k), ..SpeakerCount::default() });
        let auto_labels = cluster::ahc(&emb, d.options.threshold, SpeakerCount::default());
        let auto_k = auto_labels.iter().max().map_or(0, |m| m + 1);
        let (ht, ha) = (label(&true_k), label(&auto_labels));
        let row = der_rows(&mut tot, c, &[&ht, &ha]);
        let embedded: usize = runs.iter().map(|r| r.1 - r.0).sum();
        let speech = active.iter().filter(|a| !a.is_empty()).count();
        println!(
            "{:10} | {} | ref {k}, found {auto_k} | {:.1} of {:.1}; conf c=0.25 true k {:.1} s",
            c.id,
            percents(&row),
            (speech - embedded) as f64 / 100.0,
            speech as f64 / 100.0,
            row[0].confusion as f64 / 100.0,
        );
    }
    for g in &groups {
        println!("{:10} | {}", format!("[{g}]"), percents(&tot[g]));
    }
}

/// The pipeline with parts replaced by the reference (`--oracle pipeline`), four columns:
/// the pipeline; the pipeline plus a perfect overlap detector; the pipeline on perfect voice
/// activity (the VAD probabilities replaced by the reference's speech, 1 or 0); and both.
fn oracle_pipeline(d: &Ge2eDiarizer, cases: &[Case]) {
    let mut groups: Vec<&str> = cases.iter().map(|c| c.group).collect();
    groups.dedup();
    let mut tot = Totals::default();
    println!(
        "{:10} | DER.25 DER0 each: pipeline | + perfect overlap | perfect VAD | perfect VAD + overlap",
        "file"
    );
    for c in cases {
        let h = turns_of(&d.assign(&d.prepare(&c.samples).or_fail(&c.id), &d.options).annotation);
        let mut stream = d.stream();
        stream.push(&c.samples);
        let mut f = stream.finish();
        let hop = f.hop.micros().max(1) as f64 / 1e6;
        for (i, p) in f.probs.iter_mut().enumerate() {
            let t = (i as f64 + 0.5) * hop;
            *p = if c.reference.iter().any(|r| r.1 <= t && t < r.2) { 1.0 } else { 0.0 };
        }
        f.fused.clear();
        let hv = turns_of(&d.assign(&d.prepare_features(f).or_fail(&c.id), &d.options).annotation);
        let hyps = [&h, &with_perfect_overlap(c, &h), &hv, &with_perfect_overlap(c, &hv)];
        let row = der_rows(&mut tot, c, &hyps);
        println!("{:10} | {}", c.id, percents(&row));
    }
    for g in &groups {
        println!("{:10} | {}", format!("[{g}]"), percents(&tot[g]));
    }
}

/// `h` with a perfect overlap detector added: on every frame where the reference has two or
/// more speakers, each of them is added as the found speaker mapped to it (optimal mapping of
/// `h`), when there is one. An upper bound on what an overlap detector alone would gain.
fn with_perfect_overlap(c: &Case, h: &Turns) -> Turns {
    let n = (c.dur() * 100.0).round() as usize;
    let names = |t: &Turns| {
        let mut v: Vec<String> = t.iter().map(|x| x.0.clone()).collect();
        v.sort();
        v.dedup();
        v
    };
    let (rn, hn) = (names(&c.reference), names(h));
    let grid = |t: &Turns, nm: &[String]| -> Vec<Vec<bool>> {
        let mut m = vec![vec![false; n]; nm.len()];
        for (s, a, b) in t {
            let k = nm.iter().position(|x| x == s).unwrap();
            let (a, b) =
                (((a * 100.0).round() as usize).min(n), ((b * 100.0).round() as usize).min(n));
            m[k][a..b].iter_mut().for_each(|x| *x = true);
        }
        m
    };
    let (r, mut hm) = (grid(&c.reference, &rn), grid(h, &hn));
    let w: Vec<Vec<i64>> = r
        .iter()
        .map(|ri| hm.iter().map(|hj| (0..n).filter(|&f| ri[f] && hj[f]).count() as i64).collect())
        .collect();
    let map = score::best_assignment(&w);
    for f in 0..n {
        if r.iter().filter(|x| x[f]).count() < 2 {
            continue;
        }
        for (i, m) in map.iter().enumerate() {
            if let Some(j) = m {
                if r[i][f] {
                    hm[*j][f] = true;
                }
            }
        }
    }
    hm.iter().zip(&hn).flat_map(|(row, name)| frame_runs(name, n, |f| row[f])).collect()
}

/// The runs of 10 ms frames (of `n`) where `on(frame)` holds, as turns of `name`.
fn frame_runs(name: &str, n: usize, on: impl Fn(usize) -> bool) -> Turns {
    let mut turns = Turns::new();
    let mut f = 0;
    while f < n {
        if !on(f) {
            f += 1;
            continue;
        }
        let a = f;
        while f < n && on(f) {
            f += 1;
        }
        turns.push((name.to_owned(), a as f64 / 100.0, f as f64 / 100.0));
    }
    turns
}

/// DER totals per set, two per hypothesis (collar 0.25 and 0).
type Totals<'a> = std::collections::HashMap<&'a str, Vec<Der>>;

/// DER at collar 0.25 and 0 of each hypothesis, added to the totals of the case's set.
fn der_rows<'a>(tot: &mut Totals<'a>, c: &Case, hyps: &[&Turns]) -> Vec<Der> {
    let row: Vec<Der> = hyps
        .iter()
        .flat_map(|h| [der(&c.reference, h, c.dur(), 0.25), der(&c.reference, h, c.dur(), 0.0)])
        .collect();
    let t = tot.entry(c.group).or_default();
    t.resize(row.len(), Der::default());
    for (t, x) in t.iter_mut().zip(&row) {
        t.add(x);
    }
    row
}

/// DER pairs (collar 0.25 and 0) as percentages.
fn percents(d: &[Der]) -> String {
    let pair = |x: &[Der]| format!("{:5.1}% {:5.1}%", 100.0 * x[0].rate(), 100.0 * x[1].rate());
    d.chunks(2).map(pair).collect::<Vec<_>>().join(" | ")
}

/// Whether the detectors' probabilities tell overlap from one voice (`--vad-diag overlap`,
/// needs the `onnx` feature): per set, the mean earshot and Silero probability on 10 ms frames
/// with no, one, and two or more reference speakers, and the share of overlap frames above the
/// 90th percentile of one-voice frames (10 % if the probability carries no overlap signal).
#[cfg(feature = "onnx")]
fn overlap_cue(cases: &[Case]) {
    use overtalk_audio::vad::{probabilities, VadKind};
    let mut groups: Vec<&str> = cases.iter().map(|c| c.group).collect();
    groups.dedup();
    for g in &groups {
        let mut line = format!("{g:8}");
        for kind in [VadKind::Earshot, VadKind::Silero] {
            let mut by: [Vec<f32>; 3] = Default::default();
            for c in cases.iter().filter(|c| c.group == *g) {
                let p = probabilities(kind.build(), &c.samples);
                let hop = kind.build().hop().micros() as usize;
                let n = c.samples.len() / 160;
                for f in 0..n {
                    let t = (f as f64 + 0.5) / 100.0;
                    let k = c.reference.iter().filter(|r| r.1 <= t && t < r.2).count().min(2);
                    if let Some(&x) = p.get((f * 10_000 + 5_000) / hop) {
                        by[k].push(x);
                    }
                }
            }
            let mean = |v: &[f32]| v.iter().sum::<f32>().max(0.0) / v.len().max(1) as f32;
            let mut one = by[1].clone();
            one.sort_by(f32::total_cmp);
            let p90 = one.get(one.len() * 9 / 10).copied().unwrap_or(1.0);
            let above =
                by[2].iter().filter(|&&x| x > p90).count() as f32 / by[2].len().max(1) as f32;
            line.push_str(&format!(
                " | {}: none {:.3} one {:.3} overlap {:.3} ({} s); overlap > one's p90 ({p90:.3}): {:.1} %",
                kind.name(),
                mean(&by[0]),
                mean(&by[1]),
                mean(&by[2]),
                by[2].len() / 100,
                100.0 * above
            ));
        }
        println!("{line}");
    }
}

/// Speaker change detection against the reference (`--change-diag`): precision and recall
/// (a hit within 0.3 s, peaks at least 1 s apart) of two evidence curves over the speech-frame
/// sequence, at thresholds set to quantiles of each curve: the cosine distance between
/// adjacent GE2E windows ([`change::curve`], smoothed), and ΔBIC between two 1 s diagonal
/// Gaussians of log-mel frames and one over both (Chen & Gopalakrishnan), every 0.1 s.
/// Reference changes: where the reference speaker set of consecutive speech frames differs
/// (frames with no reference speaker carry the previous set).
fn change_diag(d: &Ge2eDiarizer, cases: &[Case]) {
    use overtalk_audio::diarize::change;
    let quantiles = [0.5f32, 0.7, 0.8, 0.9, 0.95];
    // (detector, quantile) -> (hits on detected, detected, found refs, refs)
    let mut tot = vec![[0usize; 4]; 2 * quantiles.len()];
    // GE2E at the detector's own default threshold and spacing.
    let mut dflt = [0usize; 4];
    let defaults = change::ChangeOptions::default();
    for c in cases {
        let p = d.prepare(&c.samples).or_fail(&c.id);
        let mut stream = d.stream();
        stream.push(&c.samples);
        let f = stream.finish();
        let speech = p.speech();
        let dim = f.dim;
        let mel = &f.data;
        // Reference changes on the speech-frame sequence.
        let mut refs = Vec::new();
        let mut last: Vec<&str> = Vec::new();
        for (q, &fr) in speech.iter().enumerate() {
            let t = (fr as f64 + 0.5) / 100.0;
            let mut set: Vec<&str> =
                c.reference.iter().filter(|r| r.1 <= t && t < r.2).map(|r| r.0.as_str()).collect();
            set.sort_unstable();
            set.dedup();
            if set.is_empty() {
                continue;
            }
            if !last.is_empty() && set != last {
                refs.push(q);
            }
            last = set;
        }
        // GE2E window distance.
        let ge2e = change::smooth(&change::curve(p.spans(), p.centred()));
        // ΔBIC on log-mel, diagonal covariances, 1 s each side, every 10 frames.
        let x: Vec<f64> = speech
            .iter()
            .flat_map(|&fr| {
                (0..dim).map(move |j| mel.get(fr * dim + j).map_or(0.0, |&v| f64::from(v)))
            })
            .map(|v| (v + 1e-10).ln())
            .collect();
        let n = speech.len();
        let (mut s1, mut s2) = (vec![0.0f64; (n + 1) * dim], vec![0.0f64; (n + 1) * dim]);
        for q in 0..n {
            for j in 0..dim {
                let v = x[q * dim + j];
                s1[(q + 1) * dim + j] = s1[q * dim + j] + v;
                s2[(q + 1) * dim + j] = s2[q * dim + j] + v * v;
            }
        }
        let logdet = |a: usize, b: usize| -> f64 {
            let m = (b - a) as f64;
            (0..dim)
                .map(|j| {
                    let mu = (s1[b * dim + j] - s1[a * dim + j]) / m;
                    let var = (s2[b * dim + j] - s2[a * dim + j]) / m - mu * mu;
                    var.max(1e-6).ln()
                })
                .sum()
        };
        let w = 100;
        let bic: Vec<(usize, f32)> = (w..n.saturating_sub(w))
            .step_by(10)
            .map(|q| {
                let d = 0.5
                    * (2.0 * w as f64 * logdet(q - w, q + w)
                        - w as f64 * logdet(q - w, q)
                        - w as f64 * logdet(q, q + w));
                (q, d as f32)
            })
            .collect();
        // Hits among the points found, points found, references hit, references.
        let count = |t: &mut [usize; 4], found: &[usize]| {
            let near = |a: usize, b: usize| a.abs_diff(b) <= 30;
            t[0] += found.iter().filter(|&&p| refs.iter().any(|&r| near(p, r))).count();
            t[1] += found.len();
            t[2] += refs.iter().filter(|&&r| found.iter().any(|&p| near(p, r))).count();
            t[3] += refs.len();
        };
        count(&mut dflt, &change::peaks(&ge2e, defaults.threshold, defaults.min_spacing));
        for (di, curve) in [ge2e, bic].iter().enumerate() {
            let mut v: Vec<f32> = curve.iter().map(|x| x.1).collect();
            v.sort_by(f32::total_cmp);
            for (qi, &qu) in quantiles.iter().enumerate() {
                let th = v.get((qu * v.len() as f32) as usize).copied().unwrap_or(f32::INFINITY);
                count(&mut tot[di * quantiles.len() + qi], &change::peaks(curve, th, 100));
            }
        }
    }
    println!(
        "ge2e at the option's default threshold {}: P {:.2} R {:.2} ({} found, {} ref)",
        defaults.threshold,
        dflt[0] as f64 / dflt[1].max(1) as f64,
        dflt[2] as f64 / dflt[3].max(1) as f64,
        dflt[1],
        dflt[3]
    );
    for (di, name) in ["ge2e", "bic"].iter().enumerate() {
        let mut line = format!("{name:5}");
        for (qi, qu) in quantiles.iter().enumerate() {
            let t = tot[di * quantiles.len() + qi];
            line.push_str(&format!(
                " | q{qu:.2}: P {:.2} R {:.2} ({} found, {} ref)",
                t[0] as f64 / t[1].max(1) as f64,
                t[2] as f64 / t[3].max(1) as f64,
                t[1],
                t[3]
            ));
        }
        println!("{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_values_are_told_not_panicked_on() {
        use overtalk_audio::vad::VadKind;
        assert_eq!(vad_kinds("energy"), Ok((VadKind::Energy, None)));
        assert_eq!(vad_kinds("earshot+energy"), Ok((VadKind::Earshot, Some(VadKind::Energy))));
        // The detectors listed depend on the build's features.
        let unknown = |spec: &str, kind: &str| {
            let e = vad_kinds(spec).unwrap_err();
            let head =
                format!("--vad {spec:?}: unknown voice activity detector {kind:?} (earshot, ");
            assert!(e.starts_with(&head), "{e}");
        };
        unknown("earshot+nope", "nope");
        unknown("", "");
        let spec = "100/0.6x";
        let v: Vec<&str> = spec.split('/').collect();
        assert_eq!(part("transition", spec, &v, 0, 7usize), Ok(100));
        assert_eq!(
            part("transition", spec, &v, 1, 0.5f32),
            Err("--transition \"100/0.6x\": part 2 (\"0.6x\") is not a number".to_owned())
        );
        assert_eq!(part("transition", spec, &v, 2, 0.5f32), Ok(0.5));
        assert_eq!(part("transition", "/0.6", &["", "0.6"], 0, 7usize), Ok(7));
        assert_eq!(
            edge_options(EdgeOptions::default(), "edges", "5/x").map(|_| ()),
            Err("--edges \"5/x\": part 2 (\"x\") is not a number".to_owned())
        );
        assert_eq!(off_or_numbers("0.3/0.5"), Ok("0.3/0.5".to_owned()));
        assert_eq!(
            off_or_numbers("of"),
            Err("\"of\" is neither `off` nor numbers separated by `/`".to_owned())
        );
    }
}
