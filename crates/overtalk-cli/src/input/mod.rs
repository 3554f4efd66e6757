//! Inputs in, conversations out: finding and reading inputs (files, directories, globs and `-`
//! for stdin, here), recordings and their detection, `--words` captions, `--speakers` names,
//! and the conversations or score inputs the commands work on.
//!
//! ```text
//! mod.rs            files, directories, globs, stdin; reading, renaming, reader warnings
//! recordings.rs     --track / --channels / one mixed recording → who spoke when
//! diarize.rs        the speakers of one mixed recording told apart
//! words.rs          --words: the words of captions laid on detected speakers
//! params.rs         --preset, --config and the parameter flags → analysis parameters
//! conversations.rs  everything above → analysed conversations (analyze, report)
//! sides.rs          reference, hypothesis and UEM inputs → recordings to score (score)
//! ```
//!
//! Each file uses the ones above it, never the reverse.

pub mod conversations;
pub mod diarize;
pub mod params;
pub mod recordings;
pub mod sides;
pub mod words;

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use overtalk::format::{self, Format, ReadOptions, ReadOutput};
use overtalk::Corpus;

/// Flags shared by every command that reads transcripts.
#[derive(Debug, Clone, clap::Args)]
pub struct ReadArgs {
    /// Input format (default: from the extension, then the content).
    #[arg(long, value_name = "FORMAT")]
    pub from: Option<Format>,
    /// Reject malformed input: a reader's repair (a bad time, a skipped line) is an error, and
    /// so is a recording cut short (otherwise read as far as it goes, with a warning).
    /// Notes about valid input (no speaker labels, unsorted lines) stay warnings.
    #[arg(long)]
    pub strict: bool,
    /// Text encoding of inputs without a byte-order mark (windows-1252, latin1, gbk, shift_jis,
    /// utf-16le, …). Default: UTF-8, else the most likely legacy encoding, with a warning.
    #[arg(long, value_name = "NAME")]
    pub encoding: Option<String>,
    /// TextGrid/EAF: read only these tiers as speakers (names or glob patterns, comma
    /// separated). Default: every tier but alignment (`phones`, `words`) and participant-less
    /// marker tiers.
    #[arg(long, value_name = "TIERS", value_delimiter = ',')]
    pub tiers: Vec<String>,
    /// TextGrid/EAF: never read these tiers as speakers (names or glob patterns, comma separated).
    #[arg(long, value_name = "TIERS", value_delimiter = ',')]
    pub ignore_tiers: Vec<String>,
    /// Rename speakers: a TOML file of `"SPEAKER_00" = "Alice"` lines (the labels as the input
    /// names them).
    #[arg(long, value_name = "names.toml")]
    pub speakers: Option<PathBuf>,
    /// Largest input file accepted, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 1024)]
    pub max_file_mib: usize,
    /// Longest line accepted in line-based formats, in KiB.
    #[arg(long, value_name = "KIB", default_value_t = 1024)]
    pub max_line_kib: usize,
    /// Deepest nesting accepted in XML and JSON inputs.
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max_depth: usize,
}

impl ReadArgs {
    /// The library's read options for these flags.
    pub fn options(&self) -> ReadOptions {
        ReadOptions {
            strict: self.strict,
            limits: format::Limits {
                max_bytes: self.max_file_mib.saturating_mul(1 << 20),
                max_line_bytes: self.max_line_kib.saturating_mul(1 << 10),
                max_depth: self.max_depth,
                ..format::Limits::default()
            },
            recording_id: None,
            encoding: self.encoding.clone(),
            tiers: format::tiers::TierSelection {
                only: self.tiers.clone(),
                ignore: self.ignore_tiers.clone(),
            },
        }
    }

    /// The rename map from `--speakers`, empty without it.
    pub fn rename_map(&self) -> Result<HashMap<String, String>> {
        match &self.speakers {
            None => Ok(HashMap::new()),
            Some(p) => read_rename_map(p),
        }
    }
}

/// Reads `"old" = "new"` pairs from a TOML file (a `[speakers]` table is also accepted).
pub fn read_rename_map(path: &Path) -> Result<HashMap<String, String>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let value: toml::Table =
        text.parse().with_context(|| format!("{}: not valid TOML", path.display()))?;
    let table = match value.get("speakers") {
        Some(toml::Value::Table(t)) => t.clone(),
        _ => value,
    };
    let mut map = HashMap::new();
    for (k, v) in table {
        match v {
            // An empty name is the label analysis ignores: the speaker would vanish.
            toml::Value::String(s) if s.trim().is_empty() => bail!(
                "{}: speaker {k:?} is renamed to an empty name, which analysis ignores as no speaker: give a name (or leave the speaker out with --ignore-label)",
                path.display()
            ),
            toml::Value::String(s) if s.chars().any(char::is_control) => bail!(
                "{}: speaker {k:?} is renamed to {s:?}, which holds a control character",
                path.display()
            ),
            toml::Value::String(s) => {
                map.insert(k, s);
            }
            other => bail!(
                "{}: speaker {k:?} must map to a string, found {}",
                path.display(),
                other.type_str()
            ),
        }
    }
    Ok(map)
}

/// One input: a path, or `-` for stdin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Standard input.
    Stdin,
    /// A file.
    File(PathBuf),
}

impl Source {
    /// How the source is shown in messages.
    pub fn display(&self) -> String {
        match self {
            Source::Stdin => "<stdin>".to_owned(),
            Source::File(p) => p.display().to_string(),
        }
    }
}

/// File extensions read as recordings rather than transcripts.
const AUDIO_EXTENSIONS: &[&str] = &[
    "wav", "flac", "mp3", "mp2", "ogg", "oga", "m4a", "m4b", "aac", "mp4", "mov", "mkv", "mka",
    "webm", "opus", "aif", "aiff", "aifc", "caf",
];

/// Whether a path names a recording (by its extension).
pub(crate) fn is_audio(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| AUDIO_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()))
}

/// Expands the command line's inputs: directories are walked (recursively, sorted) for files
/// whose extension overtalk knows; glob patterns are expanded; `-` is stdin. Recordings in a
/// directory are left out (see [`expand_with_recordings`]).
pub fn expand(inputs: &[String]) -> Result<Vec<Source>> {
    expand_inner(inputs, false)
}

/// [`expand`] for the commands that also take recordings (`analyze`, `report`): the
/// recordings in a directory are included, as are those a glob matches.
pub fn expand_with_recordings(inputs: &[String]) -> Result<Vec<Source>> {
    expand_inner(inputs, true)
}

fn expand_inner(inputs: &[String], recordings: bool) -> Result<Vec<Source>> {
    let mut out = Vec::new();
    for arg in inputs {
        if arg == "-" {
            // Given twice, it is refused where it is read (`read_noting_speakers`).
            out.push(Source::Stdin);
            continue;
        }
        let path = PathBuf::from(arg);
        if path.is_dir() {
            let mut found = Vec::new();
            walk(&path, recordings, &mut found)
                .with_context(|| format!("listing {}", path.display()))?;
            if found.is_empty() {
                bail!(
                    "{}: no transcript or diarization files{} found in this directory",
                    path.display(),
                    if recordings { " or recordings" } else { "" }
                );
            }
            found.sort();
            out.extend(found.into_iter().map(Source::File));
        } else if path.exists() {
            out.push(Source::File(path));
        } else if arg.contains(['*', '?', '[']) {
            let mut matched: Vec<PathBuf> = glob::glob(arg)
                .with_context(|| format!("bad glob pattern {arg:?}"))?
                .filter_map(|p| p.ok())
                .filter(|p| p.is_file() && !hidden_by_wildcard(arg, p))
                .collect();
            if matched.is_empty() {
                bail!("{arg}: the pattern matches no files");
            }
            matched.sort();
            out.extend(matched.into_iter().map(Source::File));
        } else {
            bail!("{arg}: no such file or directory");
        }
    }
    // A file named twice (directly, through a directory or a glob) is read once.
    let mut seen = std::collections::HashSet::new();
    out.retain(|s| match s {
        Source::Stdin => true,
        Source::File(p) => seen.insert(std::fs::canonicalize(p).unwrap_or_else(|_| p.clone())),
    });
    Ok(out)
}

/// Collects the files of `dir` and its subdirectories that overtalk reads: transcripts and
/// diarizations by extension (not UEMs), and recordings when `recordings` is set. Hidden
/// entries are passed over, folders as files (see [`is_hidden`]).
fn walk(dir: &Path, recordings: bool, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if is_hidden(&entry) {
            continue;
        }
        let p = entry.path();
        let ft = entry.file_type()?;
        if ft.is_dir() {
            walk(&p, recordings, found)?;
        } else if ft.is_file() {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let known = format::detect_by_name(&name).is_some_and(|f| f != Format::Uem)
                || name.to_ascii_lowercase().ends_with(".json")
                || (recordings && is_audio(&p));
            if known {
                found.push(p);
            }
        }
    }
    Ok(())
}

/// Whether `path`, matched by the glob `pattern`, reaches a hidden file or folder through a
/// wildcard: a shell's `*.wav` does not match macOS's `._x.wav`, and `*/x.rttm` does not
/// look into `.ipynb_checkpoints`; a dot written in the pattern (`.*.wav`, `.cache/*`) does.
/// (The glob crate's own `require_literal_leading_dot` drops hidden entries even when the
/// pattern writes the dot.)
///
/// ```text
/// pattern  corpus / *  / *.rttm        literal prefix: `corpus`
/// path     corpus / .x / a.rttm        `.x` reached by `*`: hidden
/// ```
fn hidden_by_wildcard(pattern: &str, path: &Path) -> bool {
    use std::path::Component;
    let is_wild = |c: &Component| c.as_os_str().to_string_lossy().contains(['*', '?', '[']);
    let dotted = |c: &Component| matches!(c, Component::Normal(n) if n.as_encoded_bytes().first() == Some(&b'.'));
    // `./` is left out on both sides: the glob crate gives `./a/*.x`'s matches as `a/…`.
    let here = |c: &Component| *c != Component::CurDir;
    let pattern: Vec<Component> = Path::new(pattern).components().filter(here).collect();
    let literal = pattern.iter().take_while(|c| !is_wild(c)).count();
    if pattern[literal..].iter().any(dotted) {
        return false;
    }
    path.components().filter(here).skip(literal).any(|c| dotted(&c))
}

/// Whether a directory entry is hidden (its name starts with `.`), so that a directory given
/// as input is read for what its user put there: not the copies that tools keep beside it
/// (Jupyter's `.ipynb_checkpoints/x-checkpoint.rttm` would count a meeting twice), the
/// resource forks macOS writes on other file systems (`._x.wav`, `._x.uem`: not audio, not
/// text), or a `.git` folder. A hidden path named on the command line is still read.
fn is_hidden(entry: &std::fs::DirEntry) -> bool {
    entry.file_name().as_encoded_bytes().first() == Some(&b'.')
}

/// Reads one source with `args`; the speaker map is applied.
pub fn read(
    source: &Source,
    args: &ReadArgs,
    rename: &HashMap<String, String>,
) -> Result<ReadOutput> {
    read_noting_speakers(source, args, rename, &mut BTreeSet::new())
}

/// [`read`], adding the speakers' names as the file gives them (before `--speakers` renames
/// them) to `speakers`, for [`warn_if_no_name_matches`].
pub fn read_noting_speakers(
    source: &Source,
    args: &ReadArgs,
    rename: &HashMap<String, String>,
    speakers: &mut BTreeSet<String>,
) -> Result<ReadOutput> {
    let options = args.options();
    let mut out = match source {
        Source::Stdin => {
            // Read once: `-` on both sides of a score (or twice in one list) would read nothing
            // the second time and fail as an unknown format.
            static READ: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
            if READ.swap(true, std::sync::atomic::Ordering::Relaxed) {
                bail!("`-` (stdin) is given twice: it can be read only once");
            }
            let bytes = format::read_limited(std::io::stdin(), None, options.limits.max_bytes)
                .map_err(|e| anyhow::Error::new(e.with_path("<stdin>")))?;
            refuse_recording_bytes("<stdin>", &bytes)?;
            let mut o = options.clone();
            o.recording_id = Some("stdin".to_owned());
            format::read_bytes(&bytes, None, args.from, &o)
                .map_err(|e| anyhow::Error::new(e.with_path("<stdin>")))?
        }
        Source::File(p) => {
            let bytes = format::read_file(p, &options.limits)?;
            refuse_recording(p, &bytes)?;
            format::read_path_bytes(p, &bytes, args.from, &options)?
        }
    };
    if !rename.is_empty() {
        note_speakers(&out.corpus, speakers);
        out.corpus = rename_corpus(out.corpus, rename);
    }
    Ok(out)
}

/// Fails with a message that says what it is and which commands take it when `path` is a
/// recording (by the first bytes of it, already read, or by its extension), for the commands
/// that read only text.
pub fn refuse_recording(path: &Path, bytes: &[u8]) -> Result<()> {
    if let Some(kind) = overtalk_audio::decode::foreign_container(bytes) {
        bail!("{}", foreign_recording_given(&path.display().to_string(), kind, Some(path)));
    }
    let kind = overtalk_audio::decode::container_of(&bytes[..bytes.len().min(12)])
        .or_else(|| is_audio(path).then_some("audio"));
    match kind {
        Some(kind) => {
            bail!("{}", recording_given(&path.display().to_string(), kind, is_audio(path)))
        }
        None => Ok(()),
    }
}

/// [`refuse_recording`] for stdin, named `name` in the message.
pub fn refuse_recording_bytes(name: &str, bytes: &[u8]) -> Result<()> {
    if let Some(kind) = overtalk_audio::decode::foreign_container(bytes) {
        bail!("{}", foreign_recording_given(name, kind, None));
    }
    match overtalk_audio::decode::container_of(bytes) {
        Some(kind) => bail!(
            "{}, from a file named by its extension (.wav, .flac, .mp3, …), not from stdin",
            recording_given(name, kind, true)
        ),
        None => Ok(()),
    }
}

/// The error for a recording in a format the decoder does not read (a phone's AMR file, a
/// Windows Media file) given where a transcript is read: what it is and the way to a
/// recording the commands take (the command that converts the file at `path`, when it is a
/// file ffmpeg reads).
fn foreign_recording_given(name: &str, kind: &str, path: Option<&Path>) -> String {
    use overtalk_audio::decode::{convert_hint, foreign_is_audio, foreign_is_mono};
    let way_out = if foreign_is_audio(kind) {
        convert_hint(path, foreign_is_mono(kind))
    } else {
        "give the recording itself".to_owned()
    };
    format!(
        "{name}: this is a recording in the {kind} format, not a transcript or diarization; \
         `overtalk analyze`, `report` and `detect` take recordings, but not in this format: \
         {way_out}"
    )
}

/// The error for a recording given where a transcript or diarization is read: what it is and
/// which commands take it, instead of a text decoding error.
fn recording_given(name: &str, kind: &str, named_as_audio: bool) -> String {
    let mut m = format!(
        "{name}: this is a recording ({kind}), not a transcript or diarization; \
         `overtalk analyze`, `report` and `detect` take recordings (and `score -s` as the hypothesis)"
    );
    if !named_as_audio {
        m.push_str(
            ", known by their extension: rename it to .wav, .flac, .mp3, .ogg, .m4a, .opus, .mp4, \
             .mkv or .webm as it is",
        );
    }
    m
}

/// A speaker's name after a `--speakers` map: its new name, or the name itself when the map
/// has none for it.
pub fn renamed(rename: &HashMap<String, String>, name: &str) -> String {
    rename.get(name).cloned().unwrap_or_else(|| name.to_owned())
}

/// Applies a `--speakers` map to every recording of `corpus` (for speakers that were not read
/// by [`read`], such as the speakers detected in a recording).
pub fn rename_corpus(corpus: Corpus, rename: &HashMap<String, String>) -> Corpus {
    if rename.is_empty() {
        corpus
    } else {
        corpus.map(|_, t| t.rename(rename))
    }
}

/// Adds the names of the speakers of `corpus` to `speakers`.
pub fn note_speakers(corpus: &Corpus, speakers: &mut BTreeSet<String>) {
    for (_, t) in corpus.iter() {
        speakers.extend(t.annotation().speakers().iter().map(|(_, n)| n.to_owned()));
    }
}

/// Warns on stderr when `--speakers` was given but renames none of `speakers` (the names the
/// inputs gave): a names file written for other files, or with a typo, would otherwise be
/// ignored without a word.
pub fn warn_if_no_name_matches(
    names_file: Option<&Path>,
    rename: &HashMap<String, String>,
    speakers: &BTreeSet<String>,
    quiet: bool,
) {
    let Some(path) = names_file else { return };
    if quiet {
        return;
    }
    // Two speakers given one name become one speaker: said, in case it was not meant.
    let mut by_name: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for s in speakers {
        by_name.entry(rename.get(s).map_or(s.as_str(), String::as_str)).or_default().push(s);
    }
    for (name, merged) in by_name.iter().filter(|(_, m)| m.len() > 1) {
        let merged: Vec<String> = merged.iter().map(|m| format!("{m:?}")).collect();
        eprintln!(
            "overtalk: warning: {}: speakers {} are all named {name:?}: they are one speaker from here on",
            path.display(),
            merged.join(", ")
        );
    }
    if rename.keys().any(|k| speakers.contains(k)) {
        return;
    }
    let list = |names: Vec<&String>| {
        let shown: Vec<String> = names.iter().take(8).map(|n| format!("{n:?}")).collect();
        let more = names.len().saturating_sub(8);
        if more > 0 {
            format!("{} and {more} more", shown.join(", "))
        } else if shown.is_empty() {
            "none".to_owned()
        } else {
            shown.join(", ")
        }
    };
    let mut keys: Vec<&String> = rename.keys().collect();
    keys.sort();
    eprintln!(
        "overtalk: warning: {}: renames no speaker of the inputs (it names {}; the inputs have {})",
        path.display(),
        list(keys),
        list(speakers.iter().collect())
    );
}
/// Refuses a source whose recordings have utterances but no times (a CHAT file without media
/// bullets), for `command`, which measures time: one error saying so instead of zero turns.
/// The error is [`NeedsTimes`], which exits with code 1 (the input is valid, the request cannot be
/// met), not 2.
pub fn require_times(source: &Source, out: &ReadOutput, command: &str) -> Result<()> {
    if let Some((id, t)) = out.corpus.iter().find(|(_, t)| t.is_untimed()) {
        return Err(NeedsTimes(format!(
            "{}: recording {id:?} is an untimed transcript ({} utterances in order, no times); `{command}` needs times: use a file with times (captions, a transcript with start times, CHAT with media bullets, or one aligned with a forced aligner); `overtalk analyze` counts what the order of its turns says",
            source.display(),
            t.untimed().len()
        ))
        .into());
    }
    Ok(())
}

/// A valid input without times given to a command that measures time ([`require_times`]).
#[derive(Debug)]
pub struct NeedsTimes(String);

impl NeedsTimes {
    /// The error saying `message`.
    pub fn new(message: impl Into<String>) -> Self {
        NeedsTimes(message.into())
    }
}

impl std::fmt::Display for NeedsTimes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NeedsTimes {}

/// Refuses a source in which nobody speaks (an empty or blank file, a header alone, every line
/// dropped by the reader), for the commands that describe speech (`info`, `analyze`,
/// `report`, `cut`, `convert`): one error naming the file (exit code 2), whatever the format,
/// instead of a table of 0 speakers or an empty output with exit code 0 that a script would
/// take for a result. The reader's warnings, which say why nothing was left, are printed first
/// (unless quiet); its note that nobody speaks is the error itself.
///
/// `score` does not call this: an empty RTTM is a valid reference for a silent recording,
/// which md-eval accepts, and an empty hypothesis is what a diarizer writes when it finds
/// nobody; `validate` reads RTTM on its own and gives each scorer's verdict.
pub fn require_speech(source: &Source, out: &ReadOutput, quiet: bool) -> Result<()> {
    if !format::holds_no_speech(&out.corpus) {
        return Ok(());
    }
    if !quiet {
        for w in out.warnings.iter().filter(|w| w.message != format::EMPTY_INPUT) {
            eprintln!("overtalk: warning: {}: {w}", source.display());
        }
    }
    bail!(
        "{}: the input holds no speech (no segment, turn or word{}): nothing to describe",
        source.display(),
        if !quiet && out.warnings.iter().any(|w| w.message != format::EMPTY_INPUT) {
            "; see the warnings above"
        } else {
            ""
        }
    )
}

/// Prints a source's warnings on stderr, unless quiet.
pub fn print_warnings(source: &Source, out: &ReadOutput, quiet: bool) {
    if quiet {
        return;
    }
    for w in &out.warnings {
        eprintln!("overtalk: warning: {}: {w}", source.display());
    }
}

/// Expands UEM arguments: files, or directories searched for `*.uem`.
pub fn expand_uem(args: &[String]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for a in args {
        let p = PathBuf::from(a);
        if p.is_dir() {
            let mut found: Vec<PathBuf> = Vec::new();
            collect_ext(&p, "uem", &mut found)
                .with_context(|| format!("listing {}", p.display()))?;
            if found.is_empty() {
                // As an empty UEM file is refused: scoring without the regions meant, without
                // a word, would give another number.
                bail!("{a}: no UEM file (`.uem`) in this directory");
            }
            found.sort();
            out.extend(found);
        } else if a == "-" {
            bail!("--uem -: a UEM is read from a file (stdin holds the transcripts when `-` is an input); give its path");
        } else if p.exists() {
            // A file, or what reads like one: a named pipe, `<(…)`, /dev/null.
            out.push(p);
        } else {
            bail!("{a}: no such UEM file or directory");
        }
    }
    Ok(out)
}

/// Collects the files of `dir` and its subdirectories whose extension is `ext` (any case),
/// hidden entries passed over as [`walk`] does.
fn collect_ext(dir: &Path, ext: &str, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if is_hidden(&entry) {
            continue;
        }
        let p = entry.path();
        if entry.file_type()?.is_dir() {
            collect_ext(&p, ext, found)?;
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case(ext)) {
            found.push(p);
        }
    }
    Ok(())
}
