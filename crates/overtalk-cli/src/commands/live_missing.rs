//! `overtalk live` in a build without the live monitor: says how to get it.

use anyhow::{bail, Result};

use crate::app::{Globals, Outcome};

/// The live floor monitor (not in this build: it needs the `live` feature).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples (a build with the live feature):\n  cargo install --path crates/overtalk-cli --features live\n  overtalk live --track Host=host.wav --track Guest=guest.wav --events - --record out/"
)]
pub struct Args {
    /// Whatever was given.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
    rest: Vec<String>,
}

/// Explains how to build `overtalk live`.
pub fn run(_args: Args, _globals: Globals) -> Result<Outcome> {
    bail!(
        "this build of overtalk has no live monitor: build it with the `live` feature \
         (`cargo install --path crates/overtalk-cli --features live`, `--features device` to \
         capture from an audio input)"
    )
}
