//! `overtalk info FILE…`: a first glance at recordings, speakers and speech.

use std::collections::BTreeSet;
use std::path::PathBuf;

use anyhow::Result;
use overtalk::analysis::markers::{self, MarkersVsTiming};
use overtalk::format::{uem, Format};
use overtalk::{Delta, Region};
use serde::Serialize;

use crate::app::{Globals, Outcome};
use crate::input::{self, ReadArgs};
use crate::output::Target;

/// Summarise transcripts: recordings, speakers, duration, speech, overlapped share, turns.
///
/// "Segments" are the tracks as the file gives them (RTTM lines, cues, intervals), not turns
/// (`overtalk analyze` finds those). The duration runs from time 0 to the end of the last
/// segment; with `--uem` the scored (UEM) duration has a column of its own. Times are
/// h:mm:ss.ss. The overlapped share is the time with two or more speakers divided by the time
/// with at least one. A CHAT file with time bullets also gets a table of its transcriber's
/// overlap and interruption markers against the timing (not in `--format tsv`, which is one
/// table).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  overtalk info interview.vtt\n  overtalk info ami/only_words/rttms/test --uem ami/uems/test\n  overtalk info corpus/ --format json"
)]
pub struct Args {
    /// Input files, directories or globs; `-` reads stdin.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,
    /// UEM files or directories: also report the scored (UEM) duration.
    #[arg(long, value_name = "UEM")]
    uem: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = InfoFormat::Table)]
    format: InfoFormat,
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    read: ReadArgs,
}

/// Output formats of `info`.
#[derive(Debug, Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum InfoFormat {
    Table,
    Json,
    Md,
    Tsv,
}

#[derive(Debug, Serialize)]
struct Row {
    recording: String,
    source: String,
    speakers: usize,
    /// Segments as the file gives them (schema version 1 called them `turns`).
    segments: usize,
    /// From time 0 to the end of the last turn (or the declared end of the recording, if later).
    duration_s: f64,
    uem_s: Option<f64>,
    speech_s: f64,
    overlap_s: f64,
    overlap_share: f64,
    has_text: bool,
    /// CHAT with time bullets only: the transcriber's overlap and interruption markers against
    /// the timing.
    #[serde(skip_serializing_if = "Option::is_none")]
    chat_markers_vs_timing: Option<MarkersVsTiming>,
}

#[derive(Debug, Serialize)]
struct Totals {
    recordings: usize,
    segments: usize,
    duration_hours: f64,
    uem_hours: Option<f64>,
    speech_hours: f64,
    overlap_share: f64,
    speakers_per_recording_min: usize,
    speakers_per_recording_mean: f64,
    speakers_per_recording_max: usize,
    distinct_speakers: usize,
}

#[derive(Debug, Serialize)]
struct Info {
    schema_version: u32,
    recordings: Vec<Row>,
    totals: Totals,
}

/// Runs `info`.
pub fn run(args: Args, globals: Globals) -> Result<Outcome> {
    let sources = input::expand(&args.inputs)?;
    let rename = args.read.rename_map()?;
    let mut uems = uem::Uem::new();
    for s in input::expand_uem(&args.uem)? {
        let bytes = std::fs::read(&s)?;
        let (u, w) = uem::read_bytes(&bytes, &args.read.options()).map_err(|e| e.with_path(&s))?;
        if !globals.quiet {
            for w in w {
                eprintln!("overtalk: warning: {}: {w}", s.display());
            }
        }
        uems.extend(u);
    }
    let mut rows = Vec::new();
    let mut names = BTreeSet::new();
    let (mut speech, mut overlap, mut uem_total) = (Delta::ZERO, Delta::ZERO, Delta::ZERO);
    let mut duration = Delta::ZERO;
    for source in &sources {
        let out = input::read(source, &args.read, &rename)?;
        input::print_warnings(source, &out, globals.quiet);
        let chat = out.format == Some(Format::Chat);
        for (id, t) in out.corpus.iter() {
            let a = t.annotation();
            let sp = a.speech();
            let ov = a.overlap();
            let u = uems.get(id).map(Region::duration);
            let end = t.span().map_or(overtalk::Time::ZERO, |s| s.end());
            duration += end - overtalk::Time::ZERO;
            speech += sp.duration();
            overlap += ov.duration();
            uem_total += u.unwrap_or_default();
            names.extend(a.speakers().iter().map(|(_, n)| n.to_owned()));
            rows.push(Row {
                recording: id.to_owned(),
                source: source.display(),
                speakers: a.speakers().len(),
                segments: a.len(),
                duration_s: end.as_secs_f64(),
                uem_s: u.map(|d| d.as_secs_f64()),
                speech_s: sp.duration().as_secs_f64(),
                overlap_s: ov.duration().as_secs_f64(),
                overlap_share: share(ov.duration(), sp.duration()),
                has_text: t.has_text(),
                chat_markers_vs_timing: if chat { markers::compare(t) } else { None },
            });
        }
    }
    let counts: Vec<usize> = rows.iter().map(|r| r.speakers).collect();
    let totals = Totals {
        recordings: rows.len(),
        segments: rows.iter().map(|r| r.segments).sum(),
        duration_hours: duration.as_secs_f64() / 3600.0,
        uem_hours: (!uems.is_empty()).then(|| uem_total.as_secs_f64() / 3600.0),
        speech_hours: speech.as_secs_f64() / 3600.0,
        overlap_share: share(overlap, speech),
        speakers_per_recording_min: counts.iter().copied().min().unwrap_or(0),
        speakers_per_recording_mean: if counts.is_empty() {
            0.0
        } else {
            counts.iter().sum::<usize>() as f64 / counts.len() as f64
        },
        speakers_per_recording_max: counts.iter().copied().max().unwrap_or(0),
        distinct_speakers: names.len(),
    };
    // 2: `turns` became `segments` (they are the file's segments, not turns).
    let info = Info { schema_version: 2, recordings: rows, totals };
    let target = Target::from_arg(args.output.as_deref());
    target.check_not_input(&sources)?;
    target.write_with(|out| {
        match args.format {
            InfoFormat::Json => {
                serde_json::to_writer_pretty(&mut *out, &info)?;
                writeln!(out)?;
            }
            InfoFormat::Table | InfoFormat::Md | InfoFormat::Tsv => {
                render_table(&info, args.format, out)?;
                if args.format != InfoFormat::Tsv {
                    for r in &info.recordings {
                        if let Some(m) = &r.chat_markers_vs_timing {
                            writeln!(out)?;
                            let md = args.format == InfoFormat::Md;
                            overtalk::output::chat_markers::write(m, Some(&r.recording), md, out)?;
                        }
                    }
                }
            }
        }
        Ok(())
    })?;
    Ok(Outcome::Ok)
}

fn share(part: Delta, whole: Delta) -> f64 {
    if whole.micros() == 0 {
        0.0
    } else {
        part.micros() as f64 / whole.micros() as f64
    }
}

/// Seconds as `h:mm:ss.ss` (rounded to the centisecond), so short clips keep their decimals.
fn hms(secs: f64) -> String {
    let cs = (secs * 100.0).round() as i64;
    let total = cs / 100;
    format!("{}:{:02}:{:02}.{:02}", total / 3600, total / 60 % 60, total % 60, cs % 100)
}

fn render_table(info: &Info, style: InfoFormat, out: &mut dyn std::io::Write) -> Result<()> {
    let with_uem = info.totals.uem_hours.is_some();
    let mut header = vec!["recording", "speakers", "segments", "duration"];
    if with_uem {
        header.push("UEM duration");
    }
    header.extend(["speech", "overlap", "overlap %"]);
    let mut rows: Vec<Vec<String>> = info
        .recordings
        .iter()
        .map(|r| {
            let mut row = vec![
                r.recording.clone(),
                r.speakers.to_string(),
                r.segments.to_string(),
                hms(r.duration_s),
            ];
            if with_uem {
                row.push(r.uem_s.map_or_else(|| "-".to_owned(), hms));
            }
            row.extend([
                hms(r.speech_s),
                hms(r.overlap_s),
                format!("{:.1}", r.overlap_share * 100.0),
            ]);
            row
        })
        .collect();
    let t = &info.totals;
    if info.recordings.len() > 1 {
        let mut row = vec![
            format!("total ({} recordings)", t.recordings),
            format!(
                "{}/{:.1}/{}",
                t.speakers_per_recording_min,
                t.speakers_per_recording_mean,
                t.speakers_per_recording_max
            ),
            t.segments.to_string(),
            format!("{:.2} h", t.duration_hours),
        ];
        if let Some(u) = t.uem_hours {
            row.push(format!("{u:.2} h"));
        }
        row.extend([
            format!("{:.2} h", t.speech_hours),
            "".to_owned(),
            format!("{:.1}", t.overlap_share * 100.0),
        ]);
        rows.push(row);
    }
    match style {
        InfoFormat::Tsv => {
            writeln!(out, "{}", header.join("\t"))?;
            for r in &rows {
                writeln!(out, "{}", r.join("\t"))?;
            }
        }
        InfoFormat::Md => {
            writeln!(out, "| {} |", header.join(" | "))?;
            writeln!(out, "|{}", header.iter().map(|_| " --- |").collect::<String>())?;
            for r in &rows {
                writeln!(out, "| {} |", r.join(" | "))?;
            }
        }
        _ => {
            let widths: Vec<usize> = (0..header.len())
                .map(|i| {
                    rows.iter()
                        .map(|r| crate::output::width(&r[i]))
                        .chain([crate::output::width(header[i])])
                        .max()
                        .unwrap_or(0)
                })
                .collect();
            let line = |cells: &[String]| -> String {
                cells
                    .iter()
                    .enumerate()
                    .map(|(i, c)| {
                        if i == 0 {
                            crate::output::pad_right(c, widths[i])
                        } else {
                            crate::output::pad_left(c, widths[i])
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("  ")
            };
            let header: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
            writeln!(out, "{}", line(&header))?;
            for r in &rows {
                writeln!(out, "{}", line(r))?;
            }
            if info.recordings.len() > 1 {
                writeln!(out, "distinct speakers: {}", t.distinct_speakers)?;
            }
        }
    }
    Ok(())
}
