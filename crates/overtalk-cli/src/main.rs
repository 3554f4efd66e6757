//! `overtalk`: the command-line face of the overtalk library.
//!
//! This binary parses flags, finds inputs, calls the library and writes results. It holds no
//! domain logic. Exit codes: 0 ok; 1 finished but a requested check failed or some inputs were
//! skipped; 2 usage or fatal error; a closed pipe on stdout exits 0.

/// `eprintln!` that never panics. The standard library's panics when standard error cannot be
/// written (`overtalk convert … 2>&1 | head -1`: the pipe is closed before the warnings are
/// done), which turned a warning into exit 101 and a lost result. A message standard error can
/// no longer take is dropped, as output into a closed pipe is. Defined before the modules, so
/// every `eprintln!` of the command line is this one.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

mod app;
mod commands;
mod input;
mod named_arg;
mod output;
mod progress;
mod time_arg;

use std::io::ErrorKind as IoErrorKind;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

use app::{Globals, Outcome};

/// mimalloc instead of the system allocator: the analysis of a corpus allocates and frees many
/// small lists per conversation (see BENCHMARKS.md, Analysis).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Measure the floor of a conversation: who spoke when, turns, gaps, overlaps, interruptions,
/// and diarization scoring.
#[derive(Debug, Parser)]
#[command(name = "overtalk", version, propagate_version = true)]
#[command(
    about = "Measure the floor of a conversation: who spoke when, turns, gaps, overlaps,\ninterruptions, and diarization scoring (DER/JER)."
)]
#[command(
    after_help = "Examples:\n  overtalk convert meeting.vtt -o meeting.rttm\n  overtalk info corpus/*.rttm\n  overtalk validate ref.rttm --uem all.uem"
)]
pub struct Cli {
    /// Print no warnings or progress on stderr.
    #[arg(long, short, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Analyze(commands::analyze::Args),
    Cut(Box<commands::cut::Args>),
    Score(commands::score::Args),
    Convert(commands::convert::Args),
    Detect(commands::detect::Args),
    Info(commands::info::Args),
    Validate(commands::validate::Args),
    Schema(commands::schema::Args),
    Report(commands::report::Args),
    #[cfg(feature = "live")]
    Live(commands::live::Args),
    #[cfg(not(feature = "live"))]
    Live(commands::live_missing::Args),
    Models(commands::models::Args),
    Completions(commands::generate::CompletionArgs),
    Man(commands::generate::ManArgs),
}

fn main() -> ExitCode {
    let parsed = Cli::command()
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m).map(|cli| (cli, m)));
    let cli = match parsed {
        Ok((cli, matches)) => {
            output::register_named_files(&matches);
            cli
        }
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let globals = Globals { quiet: cli.quiet };
    if !matches!(cli.command, Command::Live(_)) {
        output::remove_unfinished_on_interrupt();
    }
    let result = match cli.command {
        Command::Convert(a) => commands::convert::run(a, globals),
        Command::Detect(a) => commands::detect::run(a, globals),
        Command::Info(a) => commands::info::run(a, globals),
        Command::Score(a) => commands::score::run(a, globals),
        Command::Validate(a) => commands::validate::run(a, globals),
        Command::Analyze(a) => commands::analyze::run(a, globals),
        Command::Cut(a) => commands::cut::run(*a, globals),
        Command::Schema(a) => commands::schema::run(a, globals),
        Command::Report(a) => commands::report::run(a, globals),
        #[cfg(feature = "live")]
        Command::Live(a) => commands::live::run(a, globals),
        #[cfg(not(feature = "live"))]
        Command::Live(a) => commands::live_missing::run(a, globals),
        Command::Models(a) => commands::models::run(a, globals),
        Command::Completions(a) => commands::generate::completions(a, Cli::command()),
        Command::Man(a) => commands::generate::man(a, Cli::command()),
    };
    match result {
        Ok(Outcome::Ok) => ExitCode::SUCCESS,
        Ok(Outcome::Partial) => ExitCode::from(1),
        Err(e) => {
            if is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            eprintln!("overtalk: error: {}", message(&e));
            // An untimed transcript is valid input that a time measure cannot use.
            ExitCode::from(if e.is::<input::NeedsTimes>() { 1 } else { 2 })
        }
    }
}

/// The error and its causes, `: `-joined as anyhow's `{:#}` does, without a cause that the
/// message before it already ends with (a library error that quotes its source: "x.wav: no
/// such file or directory" is not followed by the same words again).
fn message(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        // A system error in the words of the library's messages (`no such file or
        // directory`), whichever layer added it.
        let text = match cause.downcast_ref::<std::io::Error>() {
            Some(io) => overtalk::error::io_message(io),
            None => cause.to_string(),
        };
        if text.is_empty() || out.ends_with(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == IoErrorKind::BrokenPipe)
            || c.downcast_ref::<overtalk::Error>().is_some_and(|oe| {
                matches!(oe.kind(), overtalk::ErrorKind::Io(io) if io.kind() == IoErrorKind::BrokenPipe)
            })
    })
}
