//! `overtalk completions SHELL` and `overtalk man`: generated from the flag definitions.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap_complete::Shell;

use crate::app::Outcome;

/// Print a shell completion script.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  overtalk completions bash > /etc/bash_completion.d/overtalk")]
pub struct CompletionArgs {
    /// The shell to complete for.
    shell: Shell,
}

/// Write man pages (roff): `overtalk.1` and one page per subcommand.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  overtalk man -o man/ && man man/overtalk.1")]
pub struct ManArgs {
    /// Directory to write the pages to (default: print the main page on stdout).
    #[arg(long, short)]
    output: Option<PathBuf>,
}

/// Prints the completion script for `args.shell`.
///
/// The script is generated in memory and then written: `clap_complete` panics when its writer
/// fails, so a closed pipe (`overtalk completions fish | head`) must reach our own write, whose
/// error `main` turns into a quiet exit 0.
pub fn completions(args: CompletionArgs, mut cmd: clap::Command) -> Result<Outcome> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "overtalk", &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(Outcome::Ok)
}

/// Writes man pages.
pub fn man(args: ManArgs, cmd: clap::Command) -> Result<Outcome> {
    // `-o -` is stdout, as everywhere else: the main page.
    let output = args.output.filter(|d| d.as_os_str() != "-");
    match output {
        None => {
            let mut page = Vec::new();
            clap_mangen::Man::new(cmd).render(&mut page)?;
            let mut out = std::io::stdout().lock();
            out.write_all(&page)?;
            out.flush()?;
        }
        Some(dir) => {
            if dir.exists() && !dir.is_dir() {
                anyhow::bail!(
                    "{}: not a directory; man writes one page per subcommand into a directory",
                    dir.display()
                );
            }
            std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
            clap_mangen::generate_to(cmd, &dir)
                .with_context(|| format!("writing man pages to {}", dir.display()))?;
        }
    }
    Ok(Outcome::Ok)
}
