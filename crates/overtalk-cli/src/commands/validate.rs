//! `overtalk validate FILE…`: what md-eval, dscore and pyannote.metrics would each reject or
//! silently change in an RTTM file or a UEM file.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use overtalk::format::{self, uem, Format};
use overtalk::output::validate::{self as validate_out, Validated};
use overtalk::score::validate::{validate_rttm, validate_uem};
use overtalk::score::Side;

use crate::app::{Globals, Outcome};
use crate::input::{self, Source};
use crate::output::Target;

/// Check RTTM and UEM files the way each scoring tool would read them.
///
/// Reports, per consumer (md-eval-22, dscore, pyannote.metrics), what it would refuse
/// (zero-length turns for dscore, missing fields, non-numeric times, overlapping UEM regions for
/// md-eval…) and what it would silently change (spaces in fields, dotted UEM ids, self-overlap
/// counted twice…). Exit status 1 when any consumer would reject a file.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  overtalk validate ref.rttm\n  overtalk validate refs/ --uem all.uem\n  overtalk validate sys.rttm --format json"
)]
pub struct Args {
    /// RTTM or UEM files, directories or globs.
    #[arg(required = true, value_name = "FILE")]
    inputs: Vec<String>,
    /// UEM files or directories (every `.uem` file under it; none is an error) that go with
    /// the files (checks their recording ids).
    #[arg(long, value_name = "UEM")]
    uem: Vec<String>,
    /// Output format (default: from the `-o` file's extension, `.json`; else text).
    #[arg(id = "format", long = "format", value_enum)]
    format_flag: Option<ValidateFormat>,
    /// The format written: `--format`, else the output file's extension, else text.
    #[arg(skip = ValidateFormat::Text)]
    format: ValidateFormat,
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum ValidateFormat {
    Text,
    Json,
}

/// Runs `validate`.
pub fn run(mut args: Args, globals: Globals) -> Result<Outcome> {
    args.format = crate::output::report_format(
        args.format_flag,
        args.output.as_deref(),
        ValidateFormat::Text,
    )?;
    let sources = input::expand(&args.inputs)?;
    let mut uem_ids: Vec<String> = Vec::new();
    for s in input::expand_uem(&args.uem)? {
        let options = format::ReadOptions::default();
        let bytes = format::read_file(&s, &options.limits)?;
        let (u, _) = uem::read_bytes(&bytes, &options).map_err(|e| e.with_path(&s))?;
        uem_ids.extend(u.into_keys());
    }
    let target = Target::from_arg(args.output.as_deref());
    target.check_not_input(&sources)?;
    let uem = if args.uem.is_empty() { None } else { Some(uem_ids.as_slice()) };
    let mut results: Vec<Validated> = Vec::new();
    for source in &sources {
        let text = match source {
            Source::Stdin => {
                let limits = format::Limits::default();
                let bytes = format::read_limited(std::io::stdin(), None, limits.max_bytes)
                    .map_err(|e| anyhow::Error::new(e.with_path("<stdin>")))?;
                input::refuse_recording_bytes("<stdin>", &bytes)?;
                String::from_utf8(bytes).context("reading stdin")?
            }
            Source::File(p) => {
                let bytes = format::read_file(p, &format::Limits::default())?;
                input::refuse_recording(p, &bytes)?;
                match format::decode(&bytes, "rttm", &format::Limits::default()) {
                    Ok(text) => text,
                    // Not UTF-8: an error only if it is RTTM or UEM (md-eval and dscore read
                    // UTF-8); an STM in Latin-1 is nothing to check.
                    Err(e) => {
                        let format = detected(p, &String::from_utf8_lossy(&bytes));
                        if matches!(format, Some(Format::Rttm | Format::Uem)) {
                            return Err(e.with_path(p).into());
                        }
                        let format = format.map(Format::name);
                        results.push(Validated {
                            name: source.display(),
                            format,
                            validation: None,
                        });
                        continue;
                    }
                }
            }
        };
        // The readers' line limit: a line of hundreds of megabytes is no RTTM to check.
        let max = format::Limits::default().max_line_bytes;
        if let Some((n, line)) = text.lines().enumerate().find(|(_, l)| l.len() > max) {
            bail!(
                "{}: line {} is {} bytes long, more than the limit of {max} bytes",
                source.display(),
                n + 1,
                line.len()
            );
        }
        let format = match source {
            Source::File(p) => detected(p, &text),
            Source::Stdin => match format::detect(None, &text, None) {
                Ok(Format::Uem) => Some(Format::Uem),
                _ => Some(Format::Rttm),
            },
        };
        let validation = match format {
            Some(Format::Rttm) => Some(validate_rttm(&text, uem, Side::Reference)),
            Some(Format::Uem) => Some(validate_uem(&text)),
            _ => None,
        };
        let format = format.map(Format::name);
        results.push(Validated { name: source.display(), format, validation });
    }
    let rejected = validate_out::any_rejected(&results);
    target.write_with(|out| {
        match args.format {
            ValidateFormat::Json => validate_out::write_json(&results, out)?,
            ValidateFormat::Text => validate_out::write_text(&results, out)?,
        }
        Ok(())
    })?;
    if rejected && !globals.quiet {
        eprintln!("overtalk: at least one consumer would reject an input");
    }
    Ok(if rejected { Outcome::Partial } else { Outcome::Ok })
}

/// The format of the file at `path` holding `text`, as the readers would detect it.
fn detected(path: &std::path::Path, text: &str) -> Option<Format> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    format::detect(name.as_deref(), text, None).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct T {
        #[command(flatten)]
        args: Args,
    }

    fn fixture(rel: &str) -> String {
        format!("{}/../overtalk/tests/data/scoring-fixtures/{rel}", env!("CARGO_MANIFEST_DIR"))
    }

    #[test]
    fn rejection_sets_the_exit_status_and_json_names_each_consumer() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("v.json").to_string_lossy().into_owned();
        let zero = fixture("edge-cases/E14_zero_duration_turn/ref.rttm");
        let args = T::try_parse_from(["t", &zero, "--format", "json", "-o", &out]).unwrap().args;
        assert_eq!(run(args, Globals { quiet: true }).unwrap(), Outcome::Partial);
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        let verdicts = &v["files"][0]["verdicts"];
        assert_eq!(verdicts["dscore"], "rejects");
        assert_eq!(verdicts["md-eval"], "accepts with changes");
        assert_eq!(verdicts["pyannote.metrics"], "accepts with changes");
        // A clean file with a dotted id and its UEM: accepted, but md-eval ignores the UEM line.
        let reca = fixture("meeteval-doctests/rec.a_ref.rttm");
        let uem = fixture("meeteval-doctests/rec.a.uem");
        // Text, as the output's name asks (a `.json` name would write JSON).
        let out = dir.path().join("v.txt").to_string_lossy().into_owned();
        let args = T::try_parse_from(["t", &reca, "--uem", &uem, "-o", &out]).unwrap().args;
        assert_eq!(run(args, Globals { quiet: true }).unwrap(), Outcome::Ok);
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(text.contains("md-eval: accepts with changes"), "{text}");
        assert!(text.contains("first dot"), "{text}");
        assert!(text.contains("pyannote.metrics: accepts\n"), "{text}");
    }
}
