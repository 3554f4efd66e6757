//! `overtalk analyze INPUT…`: turns, overlaps, the floor and interruptions, per conversation.

use std::path::PathBuf;

use anyhow::{bail, Result};
use overtalk::output::csv::{Csv, Events};
use overtalk::output::json::Envelope;
use overtalk::output::jsonl::Jsonl;
use overtalk::output::markdown::Markdown;
use overtalk::output::table::Table;
use overtalk::output::untimed::{self, UntimedRecording};
use overtalk::output::{Conversation, Exporter};
use overtalk::report::ReportOptions;

use crate::app::{Globals, Outcome};
use crate::input::conversations::{self, read_and_analyze_untimed_too};
use crate::input::params::AnalysisArgs;
use crate::input::recordings::AudioArgs;
use crate::input::NeedsTimes;
use crate::input::{ReadArgs, Source};
use crate::named_arg::named_with_help;
use crate::output::Target;

/// Analyse the dynamics of conversations: talk and floor time, turns, gaps and overlaps
/// (Heldner & Edlund), backchannels, and who interrupts whom.
///
/// Each recording is one conversation. Every result carries the mode (text or timing) of each
/// speaker and the parameters used. Parameters come from the preset, then `--config`, then the
/// flags below (durations in milliseconds).
#[derive(Debug, clap::Args)]
// `--collar -1` reaches the command's own range check instead of clap's "unexpected argument".
#[command(allow_negative_numbers = true)]
#[command(
    after_help = "Examples:\n  overtalk analyze interview.vtt\n  overtalk analyze ami/only_words/rttms/test --format json -o ami.json\n  overtalk analyze debate.rttm --preset pure-jf --terminal-window 250\n  overtalk analyze meeting.rttm --format csv --events onsets"
)]
pub struct Args {
    /// Transcripts or diarizations (files, directories, globs; `-` reads stdin), or recordings
    /// (`.wav`, `.mp3`, …: speech is detected first; see `--track` and `--channels`).
    #[arg(required_unless_present = "tracks", value_name = "INPUT")]
    inputs: Vec<String>,
    /// Output format (default: from the `-o` file's extension, `.json`, `.jsonl`, `.csv`, `.tsv`,
    /// `.md` or `.html`; else table).
    #[arg(id = "format", long = "format", value_enum)]
    format_flag: Option<AnalyzeFormat>,
    /// The format written: `--format`, else the output file's extension, else table.
    #[arg(skip = AnalyzeFormat::Table)]
    format: AnalyzeFormat,
    /// Event list (or, with `speakers`, the per-speaker table) written by `--format csv|tsv`.
    #[arg(long, value_parser = named_with_help(events_help), default_value_t = Events::Onsets)]
    events: Events,
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    analysis: AnalysisArgs,
    #[command(flatten)]
    audio: AudioArgs,
    #[command(flatten)]
    read: ReadArgs,
}

/// Output formats of `analyze`.
#[derive(Debug, Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum AnalyzeFormat {
    Table,
    Json,
    Jsonl,
    Csv,
    Tsv,
    Md,
    /// The self-contained HTML report (as `overtalk report`).
    Html,
}

/// The line of `--help` under each `--events` value.
fn events_help(e: Events) -> Option<&'static str> {
    (e == Events::Speakers)
        .then_some("The per-speaker table (one row per speaker; times in ms, shares as fractions)")
}

/// Runs `analyze`.
pub fn run(mut args: Args, globals: Globals) -> Result<Outcome> {
    args.format = crate::output::report_format(
        args.format_flag,
        args.output.as_deref(),
        AnalyzeFormat::Table,
    )?;
    // `--events` picks the rows of a CSV or TSV; another format would drop it silently.
    if args.events != Events::Onsets
        && !matches!(args.format, AnalyzeFormat::Csv | AnalyzeFormat::Tsv)
    {
        bail!(
            "--events {} picks the rows of a CSV or TSV (--format csv|tsv, or -o FILE.csv), not of the {} output",
            args.events.name(),
            crate::output::value_name(args.format)
        );
    }
    args.audio.strict = args.read.strict;
    let (sources, analyzed, untimed) = read_and_analyze_untimed_too(
        &args.inputs,
        &args.read,
        &args.analysis,
        &args.audio,
        globals,
    )?;
    let untimed: Vec<UntimedRecording<'_>> =
        untimed.iter().map(|u| UntimedRecording::new(&u.label, &u.order)).collect();
    if let Some(first) = untimed.first() {
        check_untimed_format(&args, first.recording, !analyzed.is_empty())?;
    }
    let html = if args.format == AnalyzeFormat::Html {
        let options = ReportOptions {
            title: None,
            audio: None,
            preset: Some(args.analysis.preset.clone()),
            sources: sources.iter().map(Source::display).collect(),
            detection: conversations::detections(&analyzed),
        };
        if untimed.is_empty() {
            Some(conversations::html(&analyzed, &options)?)
        } else {
            Some(overtalk::report::untimed_report(&untimed, &options)?)
        }
    } else {
        None
    };
    let target = Target::from_arg(args.output.as_deref());
    target.check_not_input(&sources)?;
    let preset = args.analysis.preset.clone();
    let convs: Vec<Conversation<'_>> = analyzed.iter().map(|a| a.conversation()).collect();
    let exporter: Box<dyn Exporter<[Conversation<'_>]>> = match args.format {
        AnalyzeFormat::Table => Box::new(Table { preset }),
        AnalyzeFormat::Json => {
            let envelope = Envelope::new(&convs).with_untimed(&untimed);
            target.write_with(|out| {
                serde_json::to_writer_pretty(&mut *out, &envelope)?;
                Ok(writeln!(out)?)
            })?;
            return Ok(Outcome::Ok);
        }
        AnalyzeFormat::Jsonl => Box::new(Jsonl),
        AnalyzeFormat::Csv => Box::new(Csv::comma(args.events)),
        AnalyzeFormat::Tsv => Box::new(Csv::tab(args.events)),
        AnalyzeFormat::Md => Box::new(Markdown { preset }),
        AnalyzeFormat::Html => {
            let html = html.unwrap_or_default();
            target.write_with(|out| Ok(out.write_all(html.as_bytes())?))?;
            return Ok(Outcome::Ok);
        }
    };
    target.write_with(|out| {
        if !convs.is_empty() || untimed.is_empty() {
            exporter.export(&convs, out)?;
        }
        if untimed.is_empty() {
            return Ok(());
        }
        let separate = !convs.is_empty();
        match args.format {
            AnalyzeFormat::Table => {
                if separate {
                    writeln!(out)?;
                }
                untimed::write_table(&untimed, out)?;
            }
            AnalyzeFormat::Md => {
                if separate {
                    writeln!(out)?;
                }
                untimed::write_markdown(&untimed, out)?;
            }
            AnalyzeFormat::Jsonl => {
                for u in &untimed {
                    serde_json::to_writer(&mut *out, u)?;
                    writeln!(out)?;
                }
            }
            AnalyzeFormat::Csv => untimed::write_rows(&untimed, args.events, ',', out)?,
            AnalyzeFormat::Tsv => untimed::write_rows(&untimed, args.events, '\t', out)?,
            AnalyzeFormat::Json | AnalyzeFormat::Html => {}
        }
        Ok(())
    })?;
    Ok(Outcome::Ok)
}

/// Refuses an output that cannot hold an untimed transcript's analysis (`recording`): an HTML
/// report of timed and untimed transcripts together (each kind has a page of its own), CSV
/// lists other than `speakers` and `turns`, and CSV rows that would mix timed and untimed
/// transcripts in one header.
fn check_untimed_format(args: &Args, recording: &str, timed_too: bool) -> Result<()> {
    let refuse = |why: String| -> Result<()> {
        Err(NeedsTimes::new(format!(
            "recording {recording:?} is a transcript without times: {why}"
        ))
        .into())
    };
    match args.format {
        AnalyzeFormat::Html if timed_too => refuse(
            "the HTML report of a transcript without times is a page of its own (drawn on an axis of words, not of time); analyse the two kinds separately".to_owned(),
        ),
        AnalyzeFormat::Csv | AnalyzeFormat::Tsv if timed_too => refuse(
            "its rows have other columns than those of the timed inputs; analyse the two kinds separately, or use --format json, jsonl, table or md".to_owned(),
        ),
        AnalyzeFormat::Csv | AnalyzeFormat::Tsv if !untimed::has_rows(args.events) => refuse(format!(
            "--events {} needs times; its turns have rows for --events speakers and --events turns",
            args.events.name()
        )),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct T {
        #[command(flatten)]
        a: Args,
    }

    fn example() -> String {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/red-carpet/red-carpet.rttm").to_owned()
    }

    fn run_to_string(extra: &[&str], inputs: &[&str]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.txt");
        let mut argv: Vec<String> = vec!["analyze".into()];
        argv.extend(inputs.iter().map(|s| (*s).to_owned()));
        argv.extend(["-o".to_owned(), out.display().to_string()]);
        argv.extend(extra.iter().map(|s| (*s).to_owned()));
        let args = T::try_parse_from(argv).unwrap().a;
        assert_eq!(run(args, Globals { quiet: true }).unwrap(), Outcome::Ok);
        std::fs::read_to_string(out).unwrap()
    }

    #[test]
    fn writes_json_jsonl_csv_and_tables() {
        let ex = example();
        let json: serde_json::Value =
            serde_json::from_str(&run_to_string(&["--format", "json"], &[&ex])).unwrap();
        // One conversation has the shape of many: a list of one, and the totals.
        let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["conversations", "corpus", "schema_version"]);
        assert_eq!(json["schema_version"], 3);
        assert_eq!(json["corpus"]["recordings"], 1);
        assert_eq!(json["conversations"].as_array().unwrap().len(), 1);
        let one = &json["conversations"][0];
        assert_eq!(one["recording"], "red-carpet");
        assert_eq!(one["schema_version"], 3);
        assert_eq!(one["turns"].as_array().unwrap().len(), 11);
        assert_eq!(one["mode"]["Wife"], "timing");
        // The same file named twice is read once; jsonl gets one line per conversation.
        let once: serde_json::Value =
            serde_json::from_str(&run_to_string(&["--format", "json"], &[&ex, &ex])).unwrap();
        assert_eq!(once["conversations"][0]["recording"], "red-carpet");
        assert_eq!(once["corpus"]["recordings"], 1);
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("other.rttm");
        let text = std::fs::read_to_string(&ex).unwrap().replace("red-carpet 1", "copy 1");
        std::fs::write(&other, text).unwrap();
        let other = other.display().to_string();
        let jsonl = run_to_string(&["--format", "jsonl"], &[&ex, &other]);
        let lines: Vec<serde_json::Value> =
            jsonl.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            (lines[0]["recording"].as_str(), lines[1]["recording"].as_str()),
            (Some("copy"), Some("red-carpet"))
        );
        let many: serde_json::Value =
            serde_json::from_str(&run_to_string(&["--format", "json"], &[&ex, &other])).unwrap();
        assert_eq!(many["corpus"]["recordings"], 2);
        assert_eq!(many["corpus"]["turns"], 22);
        let csv = run_to_string(&["--format", "csv", "--events", "transfers"], &[&ex]);
        let rows: Vec<&str> = csv.lines().collect();
        assert_eq!(rows[0], "recording,time,from,to,fto");
        assert_eq!(rows[1], "red-carpet,3450,Interviewer,Husband,450");
        assert_eq!(rows.len(), 11);
        let speakers = run_to_string(&["--format", "csv", "--events", "speakers"], &[&ex]);
        let rows: Vec<&str> = speakers.lines().collect();
        assert_eq!(rows[0], "recording,speaker,mode,talk,talk_share,solo,floor,floor_share,turns,longest_turn,words,wpm,backchannels,interruptions_made,interruptions_made_successful,interruptions_received,interruptions_received_successful,median_fto_in");
        assert_eq!(rows.len(), 4, "a header and one row per speaker");
        assert!(rows[1].starts_with("red-carpet,Husband,timing,9050,"), "{}", rows[1]);
        let tsv = run_to_string(&["--format", "tsv", "--events", "intervals"], &[&ex]);
        assert!(tsv
            .lines()
            .any(|l| l == "red-carpet\tacoustic\tgap\t16400\t18000\tWife\tInterviewer"));
        let table = run_to_string(&[], &[&ex]);
        assert!(table.contains("Husband      timing    9.05"));
        assert!(table.contains("parameters (preset default)"));
        let md = run_to_string(&["--format", "md", "--preset", "pure-jf"], &[&ex, &other]);
        assert!(md.contains("## corpus: 2 recordings"));
        assert!(md.contains("min_floor_solo 0 ms"));
    }

    #[test]
    fn timing_only_drops_the_words() {
        let vtt = example().replace(".rttm", ".vtt");
        let strip = |v: &str| {
            let v: serde_json::Value = serde_json::from_str(v).unwrap();
            let mut v = v["conversations"][0].clone();
            v["recording"] = serde_json::Value::Null;
            v
        };
        // The structural rules, whose counts the rule book's worked example gives.
        let rules = ["--format", "json", "--classifier", "rules"];
        let text = strip(&run_to_string(&rules, &[&vtt]));
        assert_eq!(text["mode"]["Husband"], "text");
        assert_eq!(text["conversation"]["counts"]["interruptions"], 4);
        let timing = strip(&run_to_string(&[&rules[..], &["--timing-only"]].concat(), &[&vtt]));
        let rttm = strip(&run_to_string(&rules, &[&example()]));
        assert_eq!(timing, rttm);
        assert_eq!(timing["conversation"]["counts"]["interruptions"], 3);
    }
}
