//! `overtalk schema`: the JSON Schema of `overtalk analyze --format json` output (the library's
//! `overtalk::output::schema`, beside the JSON it describes).

use std::path::PathBuf;

use anyhow::Result;
use overtalk::output::schema::schema;

use crate::app::{Globals, Outcome};
use crate::output::Target;

/// Print the JSON Schema (draft 2020-12) of `overtalk analyze --format json` output.
///
/// The output is `{schema_version, conversations: [...], corpus: {...}}`, for one conversation
/// as for many (since schema version 2); each conversation is an object with `recording`,
/// `schema_version` and the §5.7 fields. `--format jsonl` writes one conversation object per
/// line (`#/$defs/conversation`).
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  overtalk schema > analyze.schema.json")]
pub struct Args {
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

/// Runs `schema`.
pub fn run(args: Args, _globals: Globals) -> Result<Outcome> {
    let schema = schema();
    Target::from_arg(args.output.as_deref()).write_with(|out| {
        serde_json::to_writer_pretty(&mut *out, &schema).map_err(std::io::Error::from)?;
        writeln!(out)?;
        Ok(())
    })?;
    Ok(Outcome::Ok)
}
