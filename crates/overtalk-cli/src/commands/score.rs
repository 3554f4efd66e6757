//! `overtalk score -r REF -s HYP`: diarization error rate and Jaccard error rate.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use overtalk::format::uem;
use overtalk::score::validate::validate_rttm;
use overtalk::score::{
    self, DefaultRegion, ErrorSegment, FileStatus, JerDefinition, MappingMethod, Preset,
    RecordingInput, ScoreOptions, ScoreReport, Side, ZeroLengthTurn,
};
use overtalk::{Annotation, Delta, Region};
use rayon::prelude::*;
use serde_json::json;

use crate::commands::detect::{is_audio, AudioArgs, Detected};
use crate::input::{self, ReadArgs, Source};
use crate::output::Target;
use crate::{Globals, Outcome};

/// Score a diarization against a reference: DER (with its components) and JER.
///
/// Recordings are matched by id across all reference and hypothesis inputs. A recording only
/// in the reference is scored as all miss; one only in the hypothesis as all false alarm (the
/// md-eval, dscore and spyder presets leave it out, as those tools do, and the exit status is 1). Totals add components over recordings (micro average);
/// the macro average is the mean of per-recording DERs. The collar is per side, as in md-eval
/// and dscore; pyannote.metrics' `collar` is the total width, twice this value — every result
/// prints both.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  overtalk score -r ref.rttm -s sys.rttm\n  overtalk score -r ami/only_words/rttms/test -s vbx/test --collar 0.25 --skip-overlap\n  overtalk score -r ref/ -s sys/ --uem all.uem --preset dscore --format json\n  overtalk score -r ref.rttm -s sys.rttm --max-der 20\n  overtalk score -r ref.rttm --track Host=host.wav --track Guest=guest.wav --collar 0.25"
)]
pub struct Args {
    /// Reference files or directories.
    #[arg(short, long = "reference", required = true, num_args = 1.., value_name = "REF")]
    reference: Vec<String>,
    /// Hypothesis (system output) files or directories, or a recording (WAV, MP3, MP4…) whose
    /// speech is detected first (as `overtalk detect` would, with the flags under Recordings).
    #[arg(
        short,
        long = "hypothesis",
        num_args = 1..,
        value_name = "HYP",
        required_unless_present = "tracks"
    )]
    sys: Vec<String>,
    /// The recording id of a hypothesis detected from recordings (default: the reference's id
    /// when the reference holds exactly one recording, else the recording's file name).
    #[arg(long, value_name = "ID")]
    recording_id: Option<String>,
    /// UEM files or directories (scoring regions).
    #[arg(short, long, value_name = "UEM")]
    uem: Vec<String>,
    /// Conventions of one tool (default: overtalk's).
    #[arg(long, value_enum, default_value_t = PresetArg::Overtalk)]
    preset: PresetArg,
    /// No-score collar in seconds on EACH side of every reference boundary (md-eval `-c`).
    #[arg(long, value_name = "SECONDS")]
    collar: Option<f64>,
    /// Do not score where two or more reference speakers overlap (md-eval `-1`).
    #[arg(long, alias = "ignore-overlaps", alias = "ignore_overlaps")]
    skip_overlap: bool,
    /// Speaker mapping method.
    #[arg(long, value_enum)]
    mapping: Option<MappingArg>,
    /// Scoring region of recordings without a UEM: union of both extents, or the reference's.
    #[arg(long, value_enum)]
    region: Option<RegionArg>,
    /// JER definition: dscore's 10 ms frames, or pyannote's continuous time.
    #[arg(long, value_enum)]
    jer: Option<JerArg>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ScoreFormat::Table)]
    format: ScoreFormat,
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Add each recording's error timeline (correct / confusion / miss / false alarm pieces with
    /// the speakers involved) to the JSON output.
    #[arg(long)]
    errors: bool,
    /// Compute the DER only, as md-eval, spyder and pyannote's DiarizationErrorRate do: the
    /// JER, clustering metrics, purity, coverage and detection error are not computed and
    /// print as null (JSON) or n/a.
    #[arg(long)]
    der_only: bool,
    /// Score the dynamics instead: analyse both sides with the default analysis parameters,
    /// map speakers with the DER mapping and match onsets, interruptions, backchannels,
    /// floor transfers, turns and monologues one to one (docs/events.md).
    #[arg(long)]
    events: bool,
    /// With --events: onset tolerance in seconds (sed_eval's t_collar).
    #[arg(long, value_name = "SECONDS", default_value_t = 0.2, requires = "events")]
    tolerance: f64,
    /// Exit with status 1 when the total DER (in percent) is above this value.
    #[arg(long, value_name = "PERCENT")]
    max_der: Option<f64>,
    #[command(flatten)]
    read: ReadArgs,
    #[command(flatten)]
    audio: AudioArgs,
    /// Not taken: words do not change who spoke when, so no DER or JER (an error that says
    /// so; see docs/diarization.md, "Words from captions").
    #[arg(long, value_name = "FILE", hide = true)]
    words: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum PresetArg {
    Overtalk,
    MdEval,
    Dscore,
    Pyannote,
    Spyder,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum MappingArg {
    Hungarian,
    Greedy,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum RegionArg {
    Union,
    Reference,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum JerArg {
    Frames,
    Continuous,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum ScoreFormat {
    Table,
    Json,
    Csv,
    Tsv,
    Md,
    /// The self-contained HTML report: reference, mapped hypothesis and error lanes.
    Html,
}

struct Side_ {
    recordings: BTreeMap<String, Annotation>,
    zero: Vec<(String, ZeroLengthTurn)>,
}

/// Reads both sides. Files are read in parallel and then taken in command-line order, so
/// warnings, errors and results are the same as reading them one after the other.
fn read_sides(
    reference: &[String],
    hypothesis: &[String],
    read: &ReadArgs,
    globals: Globals,
    all_sources: &mut Vec<Source>,
) -> Result<(Side_, Side_)> {
    let ref_sources = input::expand(reference)?;
    let rename = read.rename_map()?;
    // A bad hypothesis argument is reported after the reference files' errors, as when the
    // sides are read one after the other.
    let hyp_expanded = input::expand(hypothesis);
    let hyp_sources = hyp_expanded.as_ref().map(Vec::clone).unwrap_or_default();
    let jobs: Vec<(&Source, Side)> = ref_sources
        .iter()
        .map(|s| (s, Side::Reference))
        .chain(hyp_sources.iter().map(|s| (s, Side::Hypothesis)))
        .collect();
    let outputs: Vec<Result<overtalk::format::ReadOutput>> =
        jobs.par_iter().map(|(source, _)| input::read(source, read, &rename)).collect();
    let mut sides = [
        Side_ { recordings: BTreeMap::new(), zero: Vec::new() },
        Side_ { recordings: BTreeMap::new(), zero: Vec::new() },
    ];
    // Without hypothesis sources (a bad argument) only the reference files are in `jobs`.
    for ((source, side), out) in jobs.iter().zip(outputs) {
        let out = out?;
        input::require_times(source, &out, "score")?;
        let target = &mut sides[usize::from(*side == Side::Hypothesis)];
        input::print_warnings(source, &out, globals.quiet);
        if let Source::File(p) = source {
            // The reader drops zero-length turns (with a warning); some presets need them back
            // (dscore refuses the file, spyder keeps the speaker on), so re-read the lines then.
            let is_rttm = out.format == Some(overtalk::format::Format::Rttm);
            let has_zero =
                out.warnings.iter().any(|w| w.kind == overtalk::WarningKind::ZeroDuration);
            if is_rttm && has_zero {
                let text = std::fs::read_to_string(p)
                    .with_context(|| format!("reading {}", p.display()))?;
                target.zero.extend(validate_rttm(&text, None, *side).zero_length);
            }
        }
        for (id, t) in out.corpus.into_recordings() {
            if target.recordings.contains_key(&id) {
                bail!("{}: recording {id:?} appears in more than one input", source.display());
            }
            target.recordings.insert(id, t.annotation().clone());
        }
    }
    let hyp_sources = hyp_expanded?;
    all_sources.extend(ref_sources);
    all_sources.extend(hyp_sources);
    let [r, h] = sides;
    Ok((r, h))
}

/// Detects who spoke when in the hypothesis recordings (`-s AUDIO`, `--track`, `--channels`)
/// and adds them to the hypothesis side. A detected recording takes `--recording-id`, else the
/// reference's id when the reference holds exactly one recording and one recording is
/// detected, else its file name. Returns `id: method` for each detected recording (also
/// written to standard error unless `--quiet`: a score is only as good as what made the
/// hypothesis).
fn detect_hypothesis(
    args: &Args,
    recordings: &[String],
    reference: &Side_,
    hypothesis: &mut Side_,
    sources: &mut Vec<Source>,
    globals: Globals,
) -> Result<Vec<String>> {
    let recordings: Vec<&str> = recordings.iter().map(String::as_str).collect();
    let detected = args.audio.detect_recordings(&recordings, globals)?;
    let single_reference = match (reference.recordings.len(), detected.len()) {
        (1, 1) => reference.recordings.keys().next().cloned(),
        _ => None,
    };
    let mut methods = Vec::new();
    for Detected { sources: srcs, corpus, method } in detected {
        for (id, t) in corpus.into_recordings() {
            let id = args.recording_id.clone().or_else(|| single_reference.clone()).unwrap_or(id);
            if hypothesis.recordings.contains_key(&id) {
                bail!("recording {id:?} appears in more than one hypothesis input");
            }
            if !globals.quiet {
                eprintln!("overtalk: hypothesis {id:?} detected from the recording: {method}");
            }
            methods.push(format!("{id}: {method}"));
            hypothesis.recordings.insert(id, t.annotation().clone());
        }
        sources.extend(srcs);
    }
    Ok(methods)
}

fn options(args: &Args) -> Result<ScoreOptions> {
    let preset = match args.preset {
        PresetArg::Overtalk => Preset::Overtalk,
        PresetArg::MdEval => Preset::MdEval,
        PresetArg::Dscore => Preset::Dscore,
        PresetArg::Pyannote => Preset::Pyannote,
        PresetArg::Spyder => Preset::Spyder,
    };
    let mut o = ScoreOptions::preset(preset);
    if let Some(c) = args.collar {
        if !(c.is_finite() && c >= 0.0) {
            bail!("--collar must be a non-negative number of seconds, got {c}");
        }
        o.collar = Delta::from_secs_f64(c).context("--collar is out of range")?;
    }
    o = o.with_skip_overlap(args.skip_overlap);
    if let Some(m) = args.mapping {
        o.mapping = match m {
            MappingArg::Hungarian => MappingMethod::Hungarian,
            MappingArg::Greedy => MappingMethod::Greedy,
        };
    }
    if let Some(r) = args.region {
        o.default_region = match r {
            RegionArg::Union => DefaultRegion::Union,
            RegionArg::Reference => DefaultRegion::Reference,
        };
    }
    if let Some(j) = args.jer {
        o.jer = match j {
            JerArg::Frames => JerDefinition::Frames,
            JerArg::Continuous => JerDefinition::Continuous,
        };
    }
    Ok(o)
}

/// Runs `score`.
pub fn run(args: Args, globals: Globals) -> Result<Outcome> {
    if let Some(words) = &args.words {
        bail!(
            "--words {}: score compares who spoke when, which words do not change (DER and JER stay the same); give --words to detect, analyze or report to see the words on the speakers",
            words.display()
        );
    }
    let opts = options(&args)?;
    let mut sources = Vec::new();
    let (recordings, files): (Vec<String>, Vec<String>) =
        args.sys.iter().cloned().partition(|h| is_audio(std::path::Path::new(h)));
    let (mut reference, mut hypothesis) =
        read_sides(&args.reference, &files, &args.read, globals, &mut sources)?;
    let detection =
        detect_hypothesis(&args, &recordings, &reference, &mut hypothesis, &mut sources, globals)?;
    let target = Target::from_arg(args.output.as_deref());
    target.check_not_input(&sources)?;
    let mut uems = uem::Uem::new();
    for s in input::expand_uem(&args.uem)? {
        let bytes = std::fs::read(&s).with_context(|| format!("reading {}", s.display()))?;
        let (u, w) = uem::read_bytes(&bytes, &args.read.options()).map_err(|e| e.with_path(&s))?;
        if !globals.quiet {
            for w in w {
                eprintln!("overtalk: warning: {}: {w}", s.display());
            }
        }
        for (k, r) in u {
            let merged = match uems.get(&k) {
                Some(prev) => prev.union(&r),
                None => r,
            };
            uems.insert(k, merged);
        }
    }
    let mut ids: Vec<String> =
        reference.recordings.keys().chain(hypothesis.recordings.keys()).cloned().collect();
    ids.sort();
    ids.dedup();
    let inputs: Vec<RecordingInput> = ids
        .into_iter()
        .map(|id| {
            let r = reference.recordings.remove(&id);
            let h = hypothesis.recordings.remove(&id);
            if (r.is_none() || h.is_none()) && !globals.quiet {
                let what = if r.is_none() {
                    "only in the hypothesis: all of its speech is false alarm (md-eval and dscore ignore it)"
                } else {
                    "only in the reference: all of its speech is missed"
                };
                eprintln!("overtalk: warning: recording {id:?} is {what}");
            }
            let zero = reference
                .zero
                .iter()
                .chain(hypothesis.zero.iter())
                .filter(|(k, _)| *k == id)
                .map(|(_, z)| z.clone())
                .collect();
            RecordingInput { id, reference: r, hypothesis: h, zero_length: zero }
        })
        .collect();
    if inputs.is_empty() {
        bail!("no recordings found in the inputs");
    }
    if !uems.is_empty() && !globals.quiet {
        for i in &inputs {
            if !uems.contains_key(&i.id) {
                eprintln!("overtalk: warning: recording {:?} is not in the UEM", i.id);
            }
        }
    }
    let uem_arg: Option<&BTreeMap<String, Region>> =
        if args.uem.is_empty() { None } else { Some(&uems) };
    let format = args.format;
    if args.events {
        return run_events(&args, &inputs, uem_arg, &opts, &target);
    }
    let report = score::score_with(&inputs, uem_arg, &opts, metrics(&args))?;
    let timelines = if args.errors {
        if format != ScoreFormat::Json {
            bail!("--errors needs --format json");
        }
        Some(error_timelines(&inputs, uem_arg, &report)?)
    } else {
        None
    };
    if format == ScoreFormat::Html {
        let view = overtalk::report::ScoreView { report: &report, inputs: &inputs, uem: uem_arg };
        let options = overtalk::report::ReportOptions {
            title: None,
            audio: None,
            preset: None,
            sources: sources.iter().map(Source::display).collect(),
            detection,
        };
        let html = overtalk::report::score_report(&view, &options)?;
        target.write_with(|out| {
            out.write_all(html.as_bytes())?;
            Ok(())
        })?;
    } else {
        target.write_with(|out| render_with(&report, format, timelines.as_ref(), out))?;
    }
    // Recordings a preset leaves out (md-eval and dscore: hypothesis only; dscore: not in the
    // UEM) count as skipped inputs.
    let skipped: Vec<&str> = report
        .files
        .iter()
        .filter(|f| f.status == FileStatus::Skipped)
        .map(|f| f.id.as_str())
        .collect();
    if !skipped.is_empty() && !globals.quiet {
        eprintln!(
            "overtalk: warning: {} recording(s) not scored under preset {}: {}",
            skipped.len(),
            opts.preset.name(),
            skipped.join(", ")
        );
    }
    let mut outcome = if skipped.is_empty() { Outcome::Ok } else { Outcome::Partial };
    if let Some(max) = args.max_der {
        match report.der() {
            Some(d) if d * 100.0 <= max => {}
            Some(d) => {
                if !globals.quiet {
                    eprintln!("overtalk: DER {:.2} % is above --max-der {max} %", d * 100.0);
                }
                outcome = Outcome::Partial;
            }
            None => {
                if !globals.quiet {
                    eprintln!(
                        "overtalk: DER is undefined (no scored reference time); --max-der fails"
                    );
                }
                outcome = Outcome::Partial;
            }
        }
    }
    Ok(outcome)
}

/// `score --events`: the event report in the chosen format.
fn run_events(
    args: &Args,
    inputs: &[RecordingInput],
    uem: Option<&BTreeMap<String, Region>>,
    opts: &ScoreOptions,
    target: &Target,
) -> Result<Outcome> {
    use overtalk::events::{self, render};
    if !(args.tolerance.is_finite() && args.tolerance >= 0.0) {
        bail!("--tolerance must be a non-negative number of seconds, got {}", args.tolerance);
    }
    let ev = events::EventOptions {
        tolerance: (args.tolerance * 1000.0).round() as i64,
        ..events::EventOptions::default()
    };
    let params = overtalk::analysis::Params::default();
    let report = events::score_events(inputs, uem, opts, &params, &ev)?;
    let text = match args.format {
        ScoreFormat::Table => render::to_table(&report),
        ScoreFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
        ScoreFormat::Csv => render::to_delimited(&report, ','),
        ScoreFormat::Tsv => render::to_delimited(&report, '\t'),
        ScoreFormat::Md => render::to_markdown(&report),
        ScoreFormat::Html => bail!(
            "--events has no HTML output yet; use --format json (the unmatched events with their causes) or md"
        ),
    };
    target.write_with(|out| {
        out.write_all(text.as_bytes())?;
        Ok(())
    })?;
    Ok(Outcome::Ok)
}

/// What the output shows: JSON and HTML show every metric, the tables the DER and the JER
/// only; `--der-only` asks for the DER alone.
fn metrics(args: &Args) -> score::Metrics {
    if args.der_only {
        return score::Metrics::DER_ONLY;
    }
    match args.format {
        ScoreFormat::Json | ScoreFormat::Html => score::Metrics::ALL,
        ScoreFormat::Table | ScoreFormat::Csv | ScoreFormat::Tsv | ScoreFormat::Md => {
            score::Metrics { jer: true, clustering: false, detection: false }
        }
    }
}

fn secs(d: Delta) -> String {
    format!("{:.3}", d.as_secs_f64())
}

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_owned(), |v| format!("{:.2}", v * 100.0))
}

fn status_name(s: FileStatus) -> &'static str {
    match s {
        FileStatus::Scored => "scored",
        FileStatus::MissingHypothesis => "no hypothesis",
        FileStatus::MissingReference => "no reference",
        FileStatus::Skipped => "skipped",
    }
}

const HEADER: [&str; 10] = [
    "recording",
    "status",
    "scored_s",
    "correct_s",
    "miss_s",
    "fa_s",
    "confusion_s",
    "der_pct",
    "jer_pct",
    "mapping",
];

fn rows(report: &ScoreReport) -> Vec<[String; 10]> {
    let o = &report.options;
    let mut rows: Vec<[String; 10]> = report
        .files
        .iter()
        .map(|f| {
            let d = &f.der;
            [
                f.id.clone(),
                status_name(f.status).to_owned(),
                secs(d.scored),
                secs(d.correct),
                secs(d.miss),
                secs(d.false_alarm),
                secs(d.confusion),
                pct(f.der_value(o)),
                pct(f.jer.as_ref().map(|j| j.value)),
                f.mapping.iter().map(|(r, h)| format!("{r}={h}")).collect::<Vec<_>>().join(" "),
            ]
        })
        .collect();
    let t = &report.total;
    rows.push([
        "TOTAL".to_owned(),
        format!("{} recordings", report.files.len()),
        secs(t.scored),
        secs(t.correct),
        secs(t.miss),
        secs(t.false_alarm),
        secs(t.confusion),
        pct(report.der()),
        pct(report.jer),
        String::new(),
    ]);
    rows.push([
        "MACRO".to_owned(),
        "mean of recordings".to_owned(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        pct(report.macro_der()),
        String::new(),
        String::new(),
    ]);
    rows
}

/// Each scored recording's error timeline, by id.
fn error_timelines(
    inputs: &[RecordingInput],
    uem: Option<&BTreeMap<String, Region>>,
    report: &ScoreReport,
) -> Result<BTreeMap<String, Vec<ErrorSegment>>> {
    let opts = &report.options;
    let uem = uem.map(|u| score::prepare::normalise_uem(u, opts.uem_ids));
    let count_each = opts.self_overlap == score::SelfOverlap::CountEach;
    let mut out = BTreeMap::new();
    for f in report.files.iter().filter(|f| f.status != FileStatus::Skipped) {
        let Some(input) = inputs.iter().find(|i| i.id == f.id) else { continue };
        let entry = uem.as_ref().and_then(|u| u.get(&f.id));
        if let Some((p, mapping)) = score::prepare_and_map(input, entry, uem.is_some(), opts)? {
            out.insert(f.id.clone(), score::error_timeline(&p, &mapping, count_each));
        }
    }
    Ok(out)
}

// The JSON report, serialised straight from these structs. Every object's keys are declared in
// alphabetical order: the schema has always printed them sorted.

#[derive(serde::Serialize)]
struct JsonReport<'a> {
    collar_per_side_s: f64,
    collar_total_width_s: f64,
    conventions: serde_json::Map<String, serde_json::Value>,
    files: Vec<JsonFile<'a>>,
    options: serde_json::Value,
    schema_version: u32,
    total: JsonTotal<'a>,
}

#[derive(serde::Serialize)]
struct JsonFile<'a> {
    clustering: Option<JsonCluster<'a>>,
    confusion_s: f64,
    correct_s: f64,
    der: Option<f64>,
    detection: Option<JsonDetection>,
    errors: Option<Vec<JsonError<'a>>>,
    evaluated_s: f64,
    false_alarm_s: f64,
    jer: Option<f64>,
    jer_speakers: Option<Vec<JsonSpeakerJer<'a>>>,
    mapping: &'a [(String, String)],
    miss_s: f64,
    recording: &'a str,
    scored_s: f64,
    status: FileStatus,
}

#[derive(serde::Serialize)]
struct JsonDetection {
    false_alarm: Delta,
    miss: Delta,
    total: Delta,
}

#[derive(serde::Serialize)]
struct JsonSpeakerJer<'a> {
    hypothesis: Option<&'a str>,
    jer: f64,
    reference: &'a str,
}

#[derive(serde::Serialize)]
struct JsonError<'a> {
    end: f64,
    hypothesis: Option<&'a str>,
    kind: score::ErrorType,
    reference: Option<&'a str>,
    start: f64,
}

struct JsonCluster<'a>(&'a score::cluster::ClusterMetrics);

impl serde::Serialize for JsonCluster<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let m = self.0;
        let mut st = s.serialize_struct("ClusterMetrics", 9)?;
        st.serialize_field("bcubed_f1", &m.bcubed_f1)?;
        st.serialize_field("bcubed_precision", &m.bcubed_precision)?;
        st.serialize_field("bcubed_recall", &m.bcubed_recall)?;
        st.serialize_field("h_ref_given_sys", &m.h_ref_given_sys)?;
        st.serialize_field("h_sys_given_ref", &m.h_sys_given_ref)?;
        st.serialize_field("mutual_information", &m.mutual_information)?;
        st.serialize_field("normalized_mutual_information", &m.normalized_mutual_information)?;
        st.serialize_field("tau_ref_sys", &m.tau_ref_sys)?;
        st.serialize_field("tau_sys_ref", &m.tau_sys_ref)?;
        st.end()
    }
}

#[derive(serde::Serialize)]
struct JsonTotal<'a> {
    clustering: Option<JsonCluster<'a>>,
    confusion_s: f64,
    correct_s: f64,
    coverage: Option<f64>,
    der: Option<f64>,
    detection_error_rate: Option<f64>,
    false_alarm_s: f64,
    jer: Option<f64>,
    macro_der: Option<f64>,
    miss_s: f64,
    purity: Option<f64>,
    scored_s: f64,
}

impl<'a> JsonReport<'a> {
    fn new(
        report: &'a ScoreReport,
        conventions: &[(&str, String)],
        timelines: Option<&'a BTreeMap<String, Vec<ErrorSegment>>>,
    ) -> JsonReport<'a> {
        let o = &report.options;
        let files = report
            .files
            .iter()
            .map(|f| JsonFile {
                clustering: f.cluster.as_ref().map(JsonCluster),
                confusion_s: f.der.confusion.as_secs_f64(),
                correct_s: f.der.correct.as_secs_f64(),
                der: f.der_value(o),
                detection: report.computed.detection.then_some(JsonDetection {
                    false_alarm: f.detection.false_alarm,
                    miss: f.detection.miss,
                    total: f.detection.total,
                }),
                errors: timelines.and_then(|t| t.get(&f.id)).map(|v| {
                    v.iter()
                        .map(|e| JsonError {
                            end: e.segment.end().as_secs_f64(),
                            hypothesis: e.hypothesis.as_deref(),
                            kind: e.kind,
                            reference: e.reference.as_deref(),
                            start: e.segment.start().as_secs_f64(),
                        })
                        .collect()
                }),
                evaluated_s: f.evaluated.as_secs_f64(),
                false_alarm_s: f.der.false_alarm.as_secs_f64(),
                jer: f.jer.as_ref().map(|j| j.value),
                jer_speakers: f.jer.as_ref().map(|j| {
                    j.speakers
                        .iter()
                        .map(|s| JsonSpeakerJer {
                            hypothesis: s.hypothesis.as_deref(),
                            jer: s.jer,
                            reference: &s.reference,
                        })
                        .collect()
                }),
                mapping: &f.mapping,
                miss_s: f.der.miss.as_secs_f64(),
                recording: &f.id,
                scored_s: f.der.scored.as_secs_f64(),
                status: f.status,
            })
            .collect();
        let t = &report.total;
        let clustering = report.computed.clustering;
        JsonReport {
            collar_per_side_s: o.collar.as_secs_f64(),
            collar_total_width_s: o.collar_total_width().as_secs_f64(),
            conventions: conventions.iter().map(|(k, v)| (k.to_string(), json!(v))).collect(),
            files,
            options: json!(o),
            schema_version: 1,
            total: JsonTotal {
                clustering: report.cluster.as_ref().map(JsonCluster),
                confusion_s: t.confusion.as_secs_f64(),
                correct_s: t.correct.as_secs_f64(),
                coverage: clustering.then_some(report.coverage),
                der: report.der(),
                detection_error_rate: report
                    .detection
                    .error_rate()
                    .filter(|_| report.computed.detection),
                false_alarm_s: t.false_alarm.as_secs_f64(),
                jer: report.jer,
                macro_der: report.macro_der(),
                miss_s: t.miss.as_secs_f64(),
                purity: clustering.then_some(report.purity),
                scored_s: t.scored.as_secs_f64(),
            },
        }
    }
}

#[cfg(test)]
fn render(report: &ScoreReport, format: ScoreFormat, out: &mut dyn Write) -> Result<()> {
    render_with(report, format, None, out)
}

fn render_with(
    report: &ScoreReport,
    format: ScoreFormat,
    timelines: Option<&BTreeMap<String, Vec<ErrorSegment>>>,
    out: &mut dyn Write,
) -> Result<()> {
    let conventions = report.options.describe();
    match format {
        // Rendered by the report module before this is reached.
        ScoreFormat::Html => {}
        ScoreFormat::Json => {
            let value = JsonReport::new(report, &conventions, timelines);
            serde_json::to_writer_pretty(&mut *out, &value)?;
            writeln!(out)?;
        }
        ScoreFormat::Csv | ScoreFormat::Tsv => {
            let sep = if format == ScoreFormat::Csv { "," } else { "\t" };
            let quote = |s: &str| {
                if format == ScoreFormat::Csv && s.contains([',', '"', '\n']) {
                    format!("\"{}\"", s.replace('"', "\"\""))
                } else {
                    s.replace(['\t', '\n'], " ")
                }
            };
            let extra = ["preset", "collar_per_side_s", "collar_total_width_s", "regions"];
            let o = &report.options;
            let extra_values = [
                o.preset.name().to_owned(),
                format!("{:.3}", o.collar.as_secs_f64()),
                format!("{:.3}", o.collar_total_width().as_secs_f64()),
                conventions
                    .iter()
                    .find(|c| c.0 == "regions")
                    .map(|c| c.1.clone())
                    .unwrap_or_default(),
            ];
            let header: Vec<&str> = HEADER.iter().chain(extra.iter()).copied().collect();
            writeln!(out, "{}", header.join(sep))?;
            for row in rows(report) {
                let cells: Vec<String> =
                    row.iter().chain(extra_values.iter()).map(|c| quote(c)).collect();
                writeln!(out, "{}", cells.join(sep))?;
            }
        }
        ScoreFormat::Md => {
            writeln!(out, "| {} |", HEADER.join(" | "))?;
            writeln!(out, "|{}", " --- |".repeat(HEADER.len()))?;
            for row in rows(report) {
                let cells: Vec<String> = row.iter().map(|c| c.replace('|', "\\|")).collect();
                writeln!(out, "| {} |", cells.join(" | "))?;
            }
            writeln!(out)?;
            for (k, v) in &conventions {
                writeln!(out, "- {k}: {v}")?;
            }
        }
        ScoreFormat::Table => {
            let all = rows(report);
            let cols = HEADER.len();
            let mut width = [0usize; 10];
            for (i, h) in HEADER.iter().enumerate() {
                width[i] = crate::output::width(h);
            }
            for r in &all {
                for i in 0..cols {
                    width[i] = width[i].max(crate::output::width(&r[i]));
                }
            }
            let line = |cells: &[String]| -> String {
                let mut s = String::new();
                for (i, c) in cells.iter().enumerate() {
                    let pad = width[i].saturating_sub(crate::output::width(c));
                    if (2..9).contains(&i) {
                        s.push_str(&" ".repeat(pad));
                        s.push_str(c);
                    } else {
                        s.push_str(c);
                        if i + 1 < cells.len() {
                            s.push_str(&" ".repeat(pad));
                        }
                    }
                    if i + 1 < cells.len() {
                        s.push_str("  ");
                    }
                }
                s.trim_end().to_owned()
            };
            let header: Vec<String> = HEADER.iter().map(|h| h.to_string()).collect();
            writeln!(out, "{}", line(&header))?;
            for r in &all {
                writeln!(out, "{}", line(r))?;
            }
            writeln!(out)?;
            writeln!(out, "conventions:")?;
            for (k, v) in &conventions {
                writeln!(out, "  {k}: {v}")?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use overtalk::Segment;

    #[derive(Debug, Parser)]
    struct T {
        #[command(flatten)]
        args: Args,
    }

    fn parse(extra: &[&str]) -> Args {
        let mut v = vec!["t", "-r", "ref.rttm", "-s", "sys.rttm"];
        v.extend_from_slice(extra);
        T::try_parse_from(v).unwrap().args
    }

    fn report(opts: &ScoreOptions) -> ScoreReport {
        let s = |a, b| Segment::from_millis(a, b).unwrap();
        let r = Annotation::from_labelled([(s(0, 10_000), "A"), (s(10_000, 20_000), "B")]);
        let h = Annotation::from_labelled([(s(0, 12_000), "x"), (s(12_000, 20_000), "y")]);
        score::score(&[RecordingInput::new("rec", Some(r), Some(h))], None, opts).unwrap()
    }

    #[test]
    fn flags_become_options() {
        let o = options(&parse(&["--collar", "0.25", "--ignore-overlaps", "--preset", "pyannote"]))
            .unwrap();
        assert_eq!(o.preset, Preset::Pyannote);
        assert_eq!(o.collar, Delta::from_millis(250));
        assert_eq!(o.regions, overtalk::score::ScoredRegions::NonOverlap);
        let o = options(&parse(&[
            "--mapping",
            "greedy",
            "--region",
            "reference",
            "--jer",
            "continuous",
        ]))
        .unwrap();
        assert_eq!(o.mapping, MappingMethod::Greedy);
        assert_eq!(o.default_region, DefaultRegion::Reference);
        assert_eq!(o.jer, JerDefinition::Continuous);
        assert!(options(&parse(&["--collar=-1"])).is_err());
    }

    #[test]
    fn every_format_prints_the_conventions() {
        let opts = ScoreOptions::default().with_collar(Delta::from_millis(250));
        let r = report(&opts);
        for (format, needle) in [
            (ScoreFormat::Table, "0.250 s per side (pyannote collar=0.500 s total width)"),
            (ScoreFormat::Md, "- collar: 0.250 s per side"),
            (ScoreFormat::Csv, ",overtalk,0.250,0.500,all"),
            (ScoreFormat::Tsv, "\tovertalk\t0.250\t0.500\tall"),
            (ScoreFormat::Json, "\"collar_total_width_s\": 0.5"),
        ] {
            let mut out = Vec::new();
            render(&r, format, &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(text.contains(needle), "{format:?}:\n{text}");
        }
    }

    fn fixture(rel: &str) -> String {
        format!("{}/../overtalk/tests/data/scoring-fixtures/{rel}", env!("CARGO_MANIFEST_DIR"))
    }

    #[test]
    fn run_scores_files_end_to_end() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("e13.csv");
        let out_s = out.to_string_lossy().into_owned();
        let mut v = vec!["t", "-r"];
        let (r, h) = (
            fixture("edge-cases/E13_file_missing_in_hyp/ref.rttm"),
            fixture("edge-cases/E13_file_missing_in_hyp/hyp.rttm"),
        );
        v.extend([r.as_str(), "-s", h.as_str(), "--format", "csv", "-o", out_s.as_str()]);
        v.extend(["--max-der", "50"]);
        let args = T::try_parse_from(v.clone()).unwrap().args;
        assert_eq!(run(args, Globals { quiet: true }).unwrap(), Outcome::Ok);
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains("\nf2,no hypothesis,10.000,0.000,10.000,"), "{text}");
        assert!(text.contains("\nTOTAL,2 recordings,20.000,10.000,10.000,0.000,0.000,50.00,"));
        // The error timeline in JSON.
        let json_out = dir.path().join("e13.json").to_string_lossy().into_owned();
        let args = T::try_parse_from([
            "t", "-r", &r, "-s", &h, "--errors", "--format", "json", "-o", &json_out,
        ])
        .unwrap()
        .args;
        assert_eq!(run(args, Globals { quiet: true }).unwrap(), Outcome::Ok);
        let j: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json_out).unwrap()).unwrap();
        let f2 = &j["files"][1];
        assert_eq!(f2["recording"], "f2");
        assert_eq!(f2["errors"][0]["kind"], "miss");
        assert_eq!(f2["errors"][0]["end"], 10.0);
        assert_eq!(j["files"][0]["errors"][0]["kind"], "correct");
        // Above the threshold: exit status 1.
        let last = v.len() - 1;
        v[last] = "49.9";
        let args = T::try_parse_from(v).unwrap().args;
        assert_eq!(run(args, Globals { quiet: true }).unwrap(), Outcome::Partial);
        // dscore refuses a zero-length turn.
        let z = fixture("edge-cases/E14_zero_duration_turn/ref.rttm");
        let zh = fixture("edge-cases/E14_zero_duration_turn/hyp.rttm");
        let args =
            T::try_parse_from(["t", "-r", &z, "-s", &zh, "--preset", "dscore", "-o", &out_s])
                .unwrap()
                .args;
        let err = run(args, Globals { quiet: true }).unwrap_err();
        assert!(err.to_string().contains("zero-length"), "{err}");
    }

    #[test]
    fn der_only_prints_the_same_der_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let (r, h) = (
            fixture("edge-cases/E13_file_missing_in_hyp/ref.rttm"),
            fixture("edge-cases/E13_file_missing_in_hyp/hyp.rttm"),
        );
        let json = |extra: &[&str]| -> serde_json::Value {
            let out = dir.path().join("out.json").to_string_lossy().into_owned();
            let mut v = vec!["t", "-r", &r, "-s", &h, "--format", "json", "-o", &out];
            v.extend_from_slice(extra);
            let args = T::try_parse_from(v).unwrap().args;
            run(args, Globals { quiet: true }).unwrap();
            serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap()
        };
        let (all, der) = (json(&[]), json(&["--der-only"]));
        for k in ["scored_s", "miss_s", "false_alarm_s", "confusion_s", "der", "macro_der"] {
            assert_eq!(all["total"][k], der["total"][k], "{k}");
        }
        assert_eq!(all["files"][0]["mapping"], der["files"][0]["mapping"]);
        assert_eq!(all["total"]["der"], 0.5);
        assert!(all["total"]["jer"].is_number() && all["total"]["purity"].is_number());
        for k in ["jer", "clustering", "purity", "coverage", "detection_error_rate"] {
            assert!(der["total"][k].is_null(), "{k}: {}", der["total"][k]);
        }
        assert!(der["files"][0]["detection"].is_null() && der["files"][0]["jer"].is_null());
    }

    #[test]
    fn csv_rows_hold_the_components() {
        let r = report(&ScoreOptions::default());
        let mut out = Vec::new();
        render(&r, ScoreFormat::Csv, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[1],
            "rec,scored,20.000,18.000,0.000,0.000,2.000,10.00,18.33,A=x B=y,overtalk,0.000,0.000,all"
        );
        assert!(lines[2].starts_with("TOTAL,1 recordings,20.000,18.000,0.000,0.000,2.000,10.00,"));
        assert!(lines[3].starts_with("MACRO,mean of recordings,,,,,,10.00,"));
    }
}
