//! Writing results: to stdout, or atomically to a file that is never one of the inputs.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{bail, Context, Result};

use crate::input::Source;

/// The files the command line names (inputs given through options such as `--audio`,
/// `--uem`, `--words`, `--config`, `--track NAME=FILE`), registered once the arguments are
/// parsed, so that no output replaces one of them.
static NAMED_FILES: OnceLock<Vec<PathBuf>> = OnceLock::new();

/// On SIGINT or SIGTERM, removes the hidden files of the writes in progress
/// ([`overtalk::atomic::remove_unfinished`]), then dies of the signal as it would have (the
/// shell sees 130 or 143): an interrupted run leaves neither a partial output nor its
/// temporary file. A signal the process was started with ignored (`nohup`, a script's
/// `cmd &`) stays ignored, and SIGHUP is left alone; where the inherited dispositions cannot be
/// read (`/proc/self/status`, Linux), nothing is installed. Called once, for every command but
/// `live`, which ends its own session on a signal.
#[cfg(unix)]
pub fn remove_unfinished_on_interrupt() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Some(ignored) = overtalk::atomic::ignored_signals() else { return };
    let wanted: Vec<i32> =
        [SIGINT, SIGTERM].into_iter().filter(|&s| ignored & (1 << (s - 1)) == 0).collect();
    let Ok(mut signals) = signal_hook::iterator::Signals::new(&wanted) else { return };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            // Held until the process ends: no write creates or forgets a file from here on.
            let _held = overtalk::atomic::remove_unfinished();
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            std::process::exit(128 + signal);
        }
    });
}

/// Elsewhere, nothing: an interrupted write may leave its hidden file.
#[cfg(not(unix))]
pub fn remove_unfinished_on_interrupt() {}

/// The arguments that name what a command writes, not what it reads.
const OUTPUT_ARGS: &[&str] = &["output", "transcript", "record", "dir", "events"];

/// Registers every existing file that an argument of `matches` (and of its subcommands) names,
/// outputs aside: a value `PATH`, or `NAME=PATH`. Called once, after parsing.
pub fn register_named_files(matches: &clap::ArgMatches) {
    let mut found = Vec::new();
    collect_named_files(matches, &mut found);
    let _ = NAMED_FILES.set(found);
}

fn collect_named_files(m: &clap::ArgMatches, found: &mut Vec<PathBuf>) {
    for id in m.ids() {
        if OUTPUT_ARGS.contains(&id.as_str()) {
            continue;
        }
        let Ok(Some(values)) = m.try_get_raw(id.as_str()) else { continue };
        for v in values {
            let text = v.to_string_lossy();
            let after_name = text.split_once('=').map(|(_, p)| p);
            for candidate in [Some(text.as_ref()), after_name].into_iter().flatten() {
                let path = Path::new(candidate);
                if path.is_file() {
                    if let Ok(c) = std::fs::canonicalize(path) {
                        found.push(c);
                    }
                }
            }
        }
    }
    if let Some((_, sub)) = m.subcommand() {
        collect_named_files(sub, found);
    }
}

/// Whether `out` is a file the command line names as an input.
fn is_named_input(out: &Path) -> bool {
    out.exists() && NAMED_FILES.get().is_some_and(|files| files.iter().any(|f| same_file(out, f)))
}

/// Whether `a` and `b` name one file: the same path once links are resolved, or on Unix the
/// same device and inode (a hard link, which no path comparison sees). Paths that do not
/// resolve are compared as written.
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) if x == y => true,
        (Ok(_), Ok(_)) => {
            #[cfg(unix)]
            {
                use std::os::unix::fs::MetadataExt;
                if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
                    return x.is_file() && x.dev() == y.dev() && x.ino() == y.ino();
                }
            }
            false
        }
        _ => a == b,
    }
}

/// Where output goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// Standard output.
    Stdout,
    /// A file, written to a temporary sibling and renamed into place when complete
    /// ([`overtalk::atomic`]).
    File(PathBuf),
}

impl Target {
    /// `-` or no value means stdout.
    pub fn from_arg(arg: Option<&Path>) -> Target {
        match arg {
            None => Target::Stdout,
            Some(p) if p.as_os_str() == "-" => Target::Stdout,
            Some(p) => Target::File(p.to_path_buf()),
        }
    }

    /// Fails if this target is one of the inputs (overtalk never overwrites an input).
    pub fn check_not_input(&self, inputs: &[Source]) -> Result<()> {
        if let Target::File(out) = self {
            if is_named_input(out) {
                bail!("{}: refusing to overwrite an input file", out.display());
            }
            for s in inputs {
                if let Source::File(p) = s {
                    if same_file(out, p) {
                        bail!("{}: refusing to overwrite an input file", out.display());
                    }
                }
            }
        }
        Ok(())
    }

    /// Runs `write` into the target. For a file, the bytes go to a temporary file in the same
    /// directory that replaces the target only once `write` has succeeded
    /// ([`overtalk::atomic::write_with`]).
    pub fn write_with(&self, write: impl FnOnce(&mut dyn Write) -> Result<()>) -> Result<()> {
        match self {
            Target::Stdout => {
                let stdout = std::io::stdout();
                let mut lock = std::io::BufWriter::new(stdout.lock());
                write(&mut lock)?;
                lock.flush().context("writing to stdout")?;
                Ok(())
            }
            Target::File(path) => {
                if is_named_input(path) {
                    bail!("{}: refusing to overwrite an input file", path.display());
                }
                // Written atomically, devices and pipes in place, links followed.
                overtalk::atomic::write_with(path, write)
            }
        }
    }
}

/// The format an output file's name asks for: its extension, `.seglst.json` for SegLST, and
/// any other `.json` for overtalk's own JSON (the vendor JSON shapes are only read).
pub fn format_for_path(path: &Path) -> Result<overtalk::format::Format> {
    use anyhow::Context as _;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    overtalk::format::output_format_for_name(&name).with_context(|| {
        format!("{}: cannot tell the output format from the extension; use --to", path.display())
    })
}

/// The report format `--format` names; without it, the one the output file's extension names
/// (`-o ami.json` writes JSON, `-o speakers.csv` CSV; `.htm` is HTML and `.markdown` Markdown),
/// so that a file never holds another format than its name says; else `default` (the terminal
/// table, for stdout or a name of no report format such as `.txt`). An explicit `--format`
/// always wins. An extension naming a report format the command does not write (`info -o
/// x.csv`) is an error rather than the table in a file called CSV.
pub fn report_format<F: clap::ValueEnum + Copy>(
    flag: Option<F>,
    output: Option<&Path>,
    default: F,
) -> Result<F> {
    if let Some(f) = flag {
        return Ok(f);
    }
    let Some(path) = output else { return Ok(default) };
    let Some(ext) = path.extension() else { return Ok(default) };
    let ext = ext.to_string_lossy().to_ascii_lowercase();
    let name = match ext.as_str() {
        "htm" => "html",
        "markdown" => "md",
        other => other,
    };
    if !REPORT_EXTENSIONS.contains(&name) {
        // `-o out.txt`, `-o out.table`: a name, not a format.
        return Ok(default);
    }
    match F::from_str(name, true) {
        Ok(format) => Ok(format),
        Err(_) => bail!(
            "{}: the .{ext} extension names a format this command does not write (it writes {}); give --format or name the output after one of them",
            path.display(),
            F::value_variants().iter().map(|&v| value_name(v)).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// The report formats an output's extension can name (after `.htm` → `html`, `.markdown` →
/// `md`); another extension names no format and leaves the default.
const REPORT_EXTENSIONS: [&str; 6] = ["json", "jsonl", "csv", "tsv", "md", "html"];

/// The name of `value` on the command line (`json` of `--format json`).
pub fn value_name<F: clap::ValueEnum>(value: F) -> String {
    value.to_possible_value().map(|v| v.get_name().to_owned()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::{format_for_path, report_format};
    use overtalk::format::Format;
    use std::path::Path;

    #[test]
    fn an_output_name_picks_its_format() {
        for (name, want) in [
            ("a.rttm", Format::Rttm),
            ("a.TextGrid", Format::TextGrid),
            ("a.json", Format::Json),
            ("a.overtalk.json", Format::Json),
            ("a.seglst.json", Format::SegLst),
            ("a.SegLST.json", Format::SegLst),
        ] {
            assert_eq!(format_for_path(Path::new(name)).unwrap(), want, "{name}");
        }
        assert!(format_for_path(Path::new("a.unknown")).is_err());
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
    enum Shown {
        Table,
        Json,
        Md,
        Html,
    }

    #[test]
    fn a_report_name_picks_its_format_unless_format_is_given() {
        let pick = |flag, name: Option<&str>| {
            report_format(flag, name.map(Path::new), Shown::Table).unwrap()
        };
        assert_eq!(pick(None, None), Shown::Table);
        assert_eq!(pick(None, Some("-")), Shown::Table);
        assert_eq!(pick(None, Some("out.JSON")), Shown::Json);
        assert_eq!(pick(None, Some("out.markdown")), Shown::Md);
        assert_eq!(pick(None, Some("out.htm")), Shown::Html);
        assert_eq!(pick(None, Some("out.txt")), Shown::Table);
        assert_eq!(pick(None, Some("out.table")), Shown::Table);
        assert_eq!(pick(Some(Shown::Json), Some("out.csv")), Shown::Json);
        let refused = report_format(None, Some(Path::new("out.CSV")), Shown::Table).unwrap_err();
        assert_eq!(
            refused.to_string(),
            "out.CSV: the .csv extension names a format this command does not write (it writes table, json, md, html); give --format or name the output after one of them"
        );
        assert_eq!(pick(Some(Shown::Md), Some("out.json")), Shown::Md);
    }
}
