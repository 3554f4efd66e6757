//! `overtalk convert IN… -o OUT`: any readable format to any writable one.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use overtalk::format::{self, Format};
use overtalk::Corpus;

use crate::app::{Globals, Outcome};
use crate::input::{self, ReadArgs};
use crate::output::Target;

/// Convert transcripts and diarizations between formats.
///
/// Recordings from all inputs are gathered into one corpus (a recording id seen twice is an
/// error). Formats that hold one recording (WebVTT, SRT, TextGrid, EAF, CHAT, …) need one input
/// recording, or an output directory (`-o dir/`) to get one file per recording.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  overtalk convert interview.vtt -o interview.rttm\n  overtalk convert whisperx.json --speakers names.toml -o out.TextGrid\n  cat a.rttm | overtalk convert - --to webvtt -o -\n  overtalk convert meetings.rttm --to textgrid -o textgrids/"
)]
pub struct Args {
    /// Input files, directories or globs; `-` reads stdin.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<String>,
    /// Output file, directory (ending in `/` or existing) or `-` for stdout.
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// Output format (default: from the output's extension). Written: rttm, uem, lab, webvtt,
    /// srt, textgrid, eaf, chat, whisperx, csv, tsv, stm, ctm, json, seglst, podcast; the other
    /// formats are read only.
    #[arg(long, value_name = "FORMAT")]
    to: Option<Format>,
    #[command(flatten)]
    read: ReadArgs,
}

/// Runs the conversion.
pub fn run(args: Args, globals: Globals) -> Result<Outcome> {
    let sources = input::expand(&args.inputs)?;
    let rename = args.read.rename_map()?;
    let mut corpus = Corpus::new();
    for source in &sources {
        let out = input::read(source, &args.read, &rename)?;
        input::require_speech(source, &out, globals.quiet)?;
        input::print_warnings(source, &out, globals.quiet);
        for id in out.corpus.ids() {
            if corpus.get(id).is_some() {
                bail!("{}: recording {id:?} appears in more than one input", source.display());
            }
        }
        corpus.merge(out.corpus);
    }
    let to_dir = args.output.as_os_str().to_string_lossy().ends_with('/') || args.output.is_dir();
    let format = match args.to {
        Some(f) => f,
        None if to_dir || args.output.as_os_str() == "-" => {
            bail!("name the output format with --to")
        }
        None => crate::output::format_for_path(&args.output)?,
    };
    // A transcript without times written where only times can go would be an empty file.
    if !format.keeps_untimed() {
        if let Some((id, t)) = corpus.iter().find(|(_, t)| t.is_untimed()) {
            return Err(input::NeedsTimes::new(format!(
                "recording {id:?} is a transcript without times ({} utterances in order); {format} holds timed segments only: convert it to json, which keeps it, or analyse it with `overtalk analyze`",
                t.untimed().len()
            ))
            .into());
        }
    }
    if to_dir {
        // Every file is named and checked before the first is written: an id is data, so it
        // becomes one safe file name (`format::file_stem`), and two ids that give the same
        // name, or a name that is an input, stop the conversion with nothing written.
        // Names compared without case: on a file system that ignores it (macOS, Windows), `A`
        // and `a` are one file.
        let mut by_name: std::collections::BTreeMap<String, &str> = Default::default();
        let mut targets = Vec::with_capacity(corpus.len());
        let mut renamed = Vec::new();
        for (id, t) in corpus.iter() {
            let name = format!("{}.{}", format::file_stem(id), format.extension());
            if let Some(other) = by_name.insert(name.to_lowercase(), id) {
                bail!("recordings {other:?} and {id:?} would both be written to {name}: rename one in the input");
            }
            if name != format!("{id}.{}", format.extension()) {
                renamed.push((id, name.clone()));
            }
            let target = Target::File(args.output.join(name));
            target.check_not_input(&sources)?;
            targets.push((Corpus::single(id, t.clone()), target));
        }
        if !globals.quiet {
            for (id, name) in renamed {
                eprintln!("overtalk: warning: recording {id:?} written as {name} (a recording id is written as one file name in the output directory)");
            }
        }
        std::fs::create_dir_all(&args.output)
            .with_context(|| format!("creating {}", args.output.display()))?;
        for (one, target) in &targets {
            write_one(one, format, target, &sources, globals)?;
        }
    } else {
        write_one(&corpus, format, &Target::from_arg(Some(&args.output)), &sources, globals)?;
    }
    Ok(Outcome::Ok)
}

fn write_one(
    corpus: &Corpus,
    format: Format,
    target: &Target,
    sources: &[input::Source],
    globals: Globals,
) -> Result<()> {
    target.check_not_input(sources)?;
    target.write_with(|out| {
        let warnings = format::write(corpus, format, out)?;
        if !globals.quiet {
            for w in warnings {
                eprintln!("overtalk: warning: {w}");
            }
        }
        Ok(())
    })
}
