//! `overtalk info FILE…`: a first glance at recordings, speakers and speech.

use std::path::PathBuf;

use anyhow::Result;
use overtalk::format::{uem, Format};
use overtalk::output::info::{Info, InfoRow, InfoStyle};

use crate::app::{Globals, Outcome};
use crate::input::{self, ReadArgs};
use crate::output::Target;

/// Summarise transcripts: recordings, speakers, segments, duration, speech, overlapped share.
///
/// "Segments" are the tracks as the file gives them (RTTM lines, cues, intervals), not turns
/// (`overtalk analyze` finds those). The duration runs from time 0 to the end of the
/// recording when the file states it (a TextGrid's `xmax`, AssemblyAI's `audio_duration`,
/// Deepgram's `metadata.duration`, …), or to the end of the last segment when that is later or
/// the file states no end; with `--uem` the scored (UEM) duration has a column of its own. Times are
/// h:mm:ss.ss in the table, seconds in `--format tsv` and `json` (for programs: `tsv` is one
/// row per recording, no total). The overlapped share is the time with two or more speakers
/// divided by the time with at least one. `info` describes the file as it is, as a scoring
/// tool reads it: it counts every speaker the file declares, even one who never speaks, and
/// measures speech and overlap on the raw segments. `analyze` measures the conversation by the
/// rule book, counting only speakers who talk and joining a speaker's segments less than
/// `--bridge-pause` (200 ms) apart, so its speech and overlap can be slightly larger (MRDA
/// Bdb001: 2470.23 s and 237.63 s here, 2477.89 s and 240.37 s there). A CHAT file with time bullets also gets a table of
/// its transcriber's overlap and interruption markers against the timing (not in `--format
/// tsv`).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  overtalk info interview.vtt\n  overtalk info ami/only_words/rttms/test --uem ami/uems/test\n  overtalk info corpus/ --format json"
)]
pub struct Args {
    /// Input files, directories or globs; `-` reads stdin.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,
    /// UEM files or directories (every `.uem` file under it; none is an error): also report
    /// the scored (UEM) duration.
    #[arg(long, value_name = "UEM")]
    uem: Vec<String>,
    /// Output format (default: from the `-o` file's extension, `.json`, `.md` or `.tsv`; else
    /// table).
    #[arg(id = "format", long = "format", value_enum)]
    format_flag: Option<InfoFormat>,
    /// The format written: `--format`, else the output file's extension, else table.
    #[arg(skip = InfoFormat::Table)]
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

/// Runs `info`.
pub fn run(mut args: Args, globals: Globals) -> Result<Outcome> {
    args.format =
        crate::output::report_format(args.format_flag, args.output.as_deref(), InfoFormat::Table)?;
    let sources = input::expand(&args.inputs)?;
    let rename = args.read.rename_map()?;
    let mut uems = uem::Uem::new();
    for s in input::expand_uem(&args.uem)? {
        let options = args.read.options();
        let bytes = overtalk::format::read_file(&s, &options.limits)?;
        let (u, w) = uem::read_bytes(&bytes, &options).map_err(|e| e.with_path(&s))?;
        if !globals.quiet {
            for w in w {
                eprintln!("overtalk: warning: {}: {w}", s.display());
            }
        }
        uems.extend(u);
    }
    let mut rows = Vec::new();
    // Where each recording id was first seen: one given twice is counted twice, and said.
    let mut seen: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for source in &sources {
        let out = input::read(source, &args.read, &rename)?;
        // An RTTM without speech is a valid reference of a silent recording (md-eval reads
        // it): listed, with the reader's note, so that a folder of references is described
        // whole. Any other input without speech is an error.
        if out.format != Some(Format::Rttm) {
            input::require_speech(source, &out, globals.quiet)?;
        }
        input::print_warnings(source, &out, globals.quiet);
        let chat = out.format == Some(Format::Chat);
        for (id, t) in out.corpus.iter() {
            let here = source.display();
            match seen.get(id) {
                Some(first) if !globals.quiet => eprintln!(
                    "overtalk: warning: {here}: recording {id:?} is also in {first}; both are listed and counted in the totals"
                ),
                Some(_) => {}
                None => {
                    seen.insert(id.to_owned(), here.to_string());
                }
            }
            rows.push(InfoRow::of(id, &here, t, uems.get(id), chat));
        }
    }
    let info = Info::new(rows, !uems.is_empty());
    let target = Target::from_arg(args.output.as_deref());
    target.check_not_input(&sources)?;
    target.write_with(|out| {
        match args.format {
            InfoFormat::Json => info.write_json(out)?,
            InfoFormat::Table => info.write_table(InfoStyle::Table, out)?,
            InfoFormat::Md => info.write_table(InfoStyle::Markdown, out)?,
            InfoFormat::Tsv => info.write_table(InfoStyle::Tsv, out)?,
        }
        Ok(())
    })?;
    Ok(Outcome::Ok)
}
