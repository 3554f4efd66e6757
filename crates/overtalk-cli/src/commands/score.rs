//! `overtalk score -r REF -s HYP`: diarization error rate and Jaccard error rate.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use overtalk::output::score::{self as score_out, Scored};
use overtalk::output::Exporter;
use overtalk::score::{
    self, DefaultRegion, JerDefinition, MappingMethod, RecordingInput, ScoreOptions, ScoringPreset,
};
use overtalk::{Delta, Region};

use crate::app::{Globals, Outcome};
use crate::input::params::AnalysisArgs;
use crate::input::recordings::AudioArgs;
use crate::input::{is_audio, sides, ReadArgs, Source};
use crate::named_arg::named;
use crate::output::Target;

/// Score a diarization against a reference: DER (with its components) and JER.
///
/// Recordings are matched by id across all reference and hypothesis inputs. A recording only
/// in the reference is scored as all miss; one only in the hypothesis as all false alarm (the
/// md-eval, dscore and spyder presets leave it out, as those tools do, and the exit status is 1). Totals add components over recordings (micro average);
/// the macro average is the mean of per-recording DERs. The collar is per side, as in md-eval
/// and dscore; pyannote.metrics' `collar` is the total width, twice this value — every result
/// prints both.
#[derive(Debug, clap::Args)]
// `--collar -1` reaches the command's own range check instead of clap's "unexpected argument".
#[command(allow_negative_numbers = true)]
#[command(
    mut_arg("analysis_preset", |a| a.long("analysis-preset").requires("events").help("With --events: the analysis parameter preset (`overtalk analyze --preset`)")),
    mut_group("ParamFlags", |g| g.requires("events")),
    mut_arg("config", |a| a.requires("events")),
    mut_arg("timing_only", |a| a.requires("events")),
    mut_arg("decision_horizon", |a| a.requires("events")),
    mut_arg("classifier", |a| a.requires("events").help("With --events: what decides backchannels and interruptions on both sides: `rules` (the rule book's structural definitions, §5.4; the default here, the definitions the matching is checked against) or `calibrated` (§5.8, the default of `overtalk analyze`)")),
    mut_arg("words", |a| a.hide(true)),
    mut_arg("words_from", |a| a.hide(true)),
    mut_arg("words_max_gap", |a| a.hide(true)),
    mut_arg("track_words", |a| a.hide(true)),
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
    /// UEM files or directories (scoring regions): every `.uem` file under a directory; a
    /// directory without one is an error, as an empty UEM file is.
    #[arg(short, long, value_name = "UEM")]
    uem: Vec<String>,
    /// Conventions of one tool (default: overtalk's).
    #[arg(long, value_parser = named::<ScoringPreset>(), default_value_t = ScoringPreset::Overtalk)]
    preset: ScoringPreset,
    /// No-score collar in seconds on EACH side of every reference boundary (md-eval `-c`).
    #[arg(long, value_name = "TIME", value_parser = crate::time_arg::seconds)]
    collar: Option<f64>,
    /// Do not score where two or more reference speakers overlap (md-eval `-1`).
    #[arg(long, alias = "ignore-overlaps", alias = "ignore_overlaps")]
    skip_overlap: bool,
    /// Speaker mapping method.
    #[arg(long, value_parser = named::<MappingMethod>())]
    mapping: Option<MappingMethod>,
    /// Scoring region of recordings without a UEM: union of both extents, or the reference's.
    #[arg(long, value_parser = named::<DefaultRegion>())]
    region: Option<DefaultRegion>,
    /// JER definition: dscore's 10 ms frames, or pyannote's continuous time.
    #[arg(long, value_parser = named::<JerDefinition>())]
    jer: Option<JerDefinition>,
    /// Output format (default: from the `-o` file's extension, `.json`, `.csv`, `.tsv`, `.md` or
    /// `.html`; else table).
    #[arg(id = "format", long = "format", value_enum)]
    format_flag: Option<ScoreFormat>,
    /// The format written: `--format`, else the output file's extension, else table.
    #[arg(skip = ScoreFormat::Table)]
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
    #[arg(long, value_name = "TIME", value_parser = crate::time_arg::seconds, default_value_t = 0.2, requires = "events")]
    tolerance: f64,
    /// Exit with status 1 when the total DER (in percent) is above this value.
    #[arg(long, value_name = "PERCENT")]
    max_der: Option<f64>,
    #[command(flatten)]
    read: ReadArgs,
    #[command(flatten)]
    audio: AudioArgs,
    /// With --events: how both sides are analysed, the options of `overtalk analyze` (its
    /// `--preset` is `--analysis-preset` here). Its `--words` is not taken: words do not
    /// change who spoke when, so no DER or JER (an error that says so; see
    /// docs/diarization.md, "Words from captions").
    #[command(flatten, next_help_heading = "Analysis with --events")]
    analysis: AnalysisArgs,
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

/// The recordings with reference speech of which nothing was scored: the UEM, the collar or
/// the overlap exclusion left none of it, so the DER is undefined (and the JER of such a
/// recording says nothing). Said in a warning, as a table of zeros and `n/a` is easy to take
/// for a result.
fn nothing_scored(
    report: &score::ScoreReport,
    inputs: &[RecordingInput],
    uem: bool,
) -> Vec<String> {
    let o = &report.options;
    let mut why = Vec::new();
    if uem {
        why.push("the UEM".to_owned());
    }
    if o.collar > Delta::ZERO {
        why.push(format!("the collar of {:.3} s per side", o.collar.as_secs_f64()));
    }
    if o.regions != score::ScoredRegions::All {
        why.push(format!("the scored regions ({})", o.regions.name()));
    }
    let why = match why.len() {
        0 => "the scoring region leaves".to_owned(),
        1 => format!("{} leaves", why[0]),
        _ => format!("{} leave", why.join(" and ")),
    };
    report
        .files
        .iter()
        .filter(|f| {
            matches!(f.status, score::FileStatus::Scored | score::FileStatus::MissingHypothesis)
                && f.der.scored <= Delta::ZERO
        })
        .filter_map(|f| {
            let input = inputs.iter().find(|i| i.id == f.id)?;
            let speech = input.reference.as_ref()?.speech().duration();
            (speech > Delta::ZERO).then(|| {
                format!(
                    "recording {:?}: none of its {:.3} s of reference speech is scored ({why} none of it): its DER is undefined",
                    f.id,
                    speech.as_secs_f64()
                )
            })
        })
        .collect()
}

fn options(args: &Args) -> Result<ScoreOptions> {
    let mut o = ScoreOptions::preset(args.preset);
    if let Some(c) = args.collar {
        if !(c.is_finite() && c >= 0.0) {
            bail!("--collar must be a non-negative number of seconds, got {c}");
        }
        o.collar = Delta::from_secs_f64(c).context("--collar is out of range")?;
    }
    o = o.with_skip_overlap(args.skip_overlap);
    o.mapping = args.mapping.unwrap_or(o.mapping);
    o.default_region = args.region.unwrap_or(o.default_region);
    o.jer = args.jer.unwrap_or(o.jer);
    Ok(o)
}

/// Runs `score`.
pub fn run(mut args: Args, globals: Globals) -> Result<Outcome> {
    args.format =
        crate::output::report_format(args.format_flag, args.output.as_deref(), ScoreFormat::Table)?;
    args.audio.strict = args.read.strict;
    if let Some(words) = &args.analysis.words.words {
        bail!(
            "--words {}: score compares who spoke when, which words do not change (DER and JER stay the same); give --words to detect, analyze or report to see the words on the speakers",
            words.display()
        );
    }
    if let Some(t) = args.analysis.words.track_words.first() {
        bail!(
            "--track-words {t}: score compares who spoke when, which words do not change (DER and JER stay the same); give --track-words to detect, analyze or report to see the words on the speakers"
        );
    }
    // `--words-from` and `--words-max-gap` alone.
    args.analysis.words.check(&[])?;
    if let Some(m) = args.max_der.filter(|m| !(m.is_finite() && *m >= 0.0)) {
        bail!("--max-der must be a non-negative percentage, got {m}");
    }
    let opts = options(&args)?;
    let mut sources = Vec::new();
    let (recordings, files): (Vec<String>, Vec<String>) =
        args.sys.iter().cloned().partition(|h| is_audio(std::path::Path::new(h)));
    let (reference, mut hypothesis) =
        sides::read_sides(&args.reference, &files, &args.read, globals, &mut sources)?;
    let detection = sides::detect_hypothesis(
        &args.audio,
        args.recording_id.as_deref(),
        &recordings,
        &reference,
        &mut hypothesis,
        &mut sources,
        globals,
    )?;
    let target = Target::from_arg(args.output.as_deref());
    target.check_not_input(&sources)?;
    let uems = sides::read_uems(&args.uem, &args.read, globals.quiet)?;
    let inputs = sides::pair(reference, hypothesis, globals.quiet);
    if inputs.is_empty() {
        bail!("no recordings found in the inputs");
    }
    if !globals.quiet {
        for id in score::pairing::not_in_uem(&inputs, &uems) {
            eprintln!("overtalk: warning: recording {id:?} is not in the UEM");
        }
    }
    let uem_arg: Option<&BTreeMap<String, Region>> =
        if args.uem.is_empty() { None } else { Some(&uems) };
    let format = args.format;
    if args.events {
        let shown =
            EventShown { sources: sources.iter().map(Source::display).collect(), detection };
        return run_events(&args, &inputs, uem_arg, &opts, &target, shown);
    }
    let keep = args.errors || format == ScoreFormat::Html;
    let scored = score::score_corpus(&inputs, uem_arg, &opts, metrics(&args), keep)?;
    if !globals.quiet {
        for warning in nothing_scored(&scored.report, &inputs, !args.uem.is_empty()) {
            eprintln!("overtalk: warning: {warning}");
        }
    }
    if args.errors && format != ScoreFormat::Json {
        bail!("--errors needs --format json");
    }
    let timelines = args.errors.then(|| scored.error_timelines());
    let report = &scored.report;
    if format == ScoreFormat::Html {
        let view = overtalk::report::ScoreView { report, mapped: &scored.mapped };
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
        let scored = Scored { report, timelines: timelines.as_ref() };
        target.write_with(|out| Ok(exporter(format).export(&scored, out)?))?;
    }
    let skipped = report.skipped();
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
                    eprintln!(
                        "overtalk: DER {} % is above --max-der {max} %",
                        overtalk::output::percent(d, 2)
                    );
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

/// What the HTML page of `score --events` says about its inputs.
struct EventShown {
    sources: Vec<String>,
    detection: Vec<String>,
}

/// `score --events`: the event report in the chosen format.
fn run_events(
    args: &Args,
    inputs: &[RecordingInput],
    uem: Option<&BTreeMap<String, Region>>,
    opts: &ScoreOptions,
    target: &Target,
    shown: EventShown,
) -> Result<Outcome> {
    use overtalk::events::{self, render};
    if !(args.tolerance.is_finite() && args.tolerance >= 0.0) {
        bail!("--tolerance must be a non-negative number of seconds, got {}", args.tolerance);
    }
    let ev = events::EventOptions {
        tolerance: (args.tolerance * 1000.0).round() as i64,
        ..events::EventOptions::default()
    };
    let params = args.analysis.params_with_classifier(overtalk::analysis::Classifier::Rules)?;
    let report = events::score_events(inputs, uem, opts, &params, &ev)?;
    let text = match args.format {
        ScoreFormat::Table => render::to_table(&report),
        ScoreFormat::Json => serde_json::to_string_pretty(&report)? + "\n",
        ScoreFormat::Csv => render::to_delimited(&report, ','),
        ScoreFormat::Tsv => render::to_delimited(&report, '\t'),
        ScoreFormat::Md => render::to_markdown(&report),
        ScoreFormat::Html => {
            let options = overtalk::report::ReportOptions {
                sources: shown.sources,
                detection: shown.detection,
                preset: Some(args.analysis.preset.clone()),
                ..overtalk::report::ReportOptions::default()
            };
            overtalk::report::event_score_report(&report, &options)?
        }
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

/// The exporter of `format` (HTML is written by the report module instead).
fn exporter(format: ScoreFormat) -> Box<dyn for<'a> Exporter<Scored<'a>>> {
    match format {
        ScoreFormat::Json | ScoreFormat::Html => Box::new(score_out::json::ScoreJson),
        ScoreFormat::Csv => Box::new(score_out::csv::ScoreCsv { separator: ',' }),
        ScoreFormat::Tsv => Box::new(score_out::csv::ScoreCsv { separator: '\t' }),
        ScoreFormat::Md => Box::new(score_out::markdown::ScoreMarkdown),
        ScoreFormat::Table => Box::new(score_out::table::ScoreTable),
    }
}

#[cfg(test)]
fn render(
    report: &score::ScoreReport,
    format: ScoreFormat,
    out: &mut dyn std::io::Write,
) -> Result<()> {
    Ok(exporter(format).export(&Scored { report, timelines: None }, out)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use overtalk::score::ScoreReport;
    use overtalk::{Annotation, Segment};

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
        assert_eq!(o.preset, ScoringPreset::Pyannote);
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
