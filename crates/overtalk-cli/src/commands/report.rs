//! `overtalk report INPUT… -o report.html`: the self-contained HTML report of conversations,
//! and `overtalk report --score -r REF -s HYP -o score.html` for a scoring run.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context, Result};
use overtalk::analysis::{self, Analysis, Params, Preset};
use overtalk::format::uem;
use overtalk::report::{self, Audio, ConversationView, ReportOptions, ScoreView};
use overtalk::score::{self, RecordingInput, ScoreOptions};
use overtalk::{Corpus, Delta, Region, Transcript};

use crate::input::{self, ReadArgs, Source};
use crate::output::Target;
use crate::{Globals, Outcome};

/// Largest recording `--embed-audio` accepts.
const MAX_EMBED_BYTES: u64 = 512 << 20;

/// Write one self-contained HTML file: the conversation timeline (a lane per speaker, overlaps,
/// backchannels, interruption arrows, the floor holder), talk and floor shares, the
/// who-interrupts-whom matrix, the floor-transfer offsets, the longest turns and the transcript;
/// or, with `--score`, the reference, hypothesis and error lanes of a diarization score.
///
/// The file needs no network: its script, style and data are inline, and its
/// Content-Security-Policy forbids any request. Every number in it is a number of the JSON
/// output of `analyze` (or `score`) for the same inputs and parameters.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  overtalk report interview.vtt -o interview.html\n  overtalk report meeting.rttm --audio meeting.mp3 --embed-audio -o meeting.html\n  overtalk report --score -r ref.rttm -s sys.rttm -o score.html"
)]
pub struct Args {
    /// Input files, directories or globs (transcripts to analyse); `-` reads stdin.
    #[arg(value_name = "INPUT", required_unless_present = "score")]
    inputs: Vec<String>,
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Page title.
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// The recording: linked from the report (path made relative to the output file).
    #[arg(long, value_name = "FILE")]
    audio: Option<PathBuf>,
    /// Embed the `--audio` file in the report (its bytes as they are, base64).
    #[arg(long, requires = "audio")]
    embed_audio: bool,
    /// Parameter preset of the analysis.
    #[arg(long, value_name = "PRESET", default_value = "default", value_parser = ["default", "he2010", "pure-jf"])]
    preset: String,
    /// TOML file of analysis parameters, as for `analyze --config`.
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Ignore words and text: judge completion and backchannels by timing only.
    #[arg(long)]
    timing_only: bool,
    /// Report a diarization score instead: needs `-r` and `-s`.
    #[arg(long, conflicts_with_all = ["inputs", "audio", "timing_only", "config"])]
    score: bool,
    /// Reference files or directories (with `--score`).
    #[arg(short, long = "reference", num_args = 1.., value_name = "REF", requires = "score")]
    reference: Vec<String>,
    /// Hypothesis files or directories (with `--score`).
    #[arg(short = 's', long = "hypothesis", num_args = 1.., value_name = "HYP", requires = "score")]
    hypothesis: Vec<String>,
    /// UEM files or directories (with `--score`).
    #[arg(short, long, value_name = "UEM", requires = "score")]
    uem: Vec<String>,
    /// Scoring conventions (with `--score`): overtalk, md-eval, dscore, pyannote or spyder.
    #[arg(long, value_name = "PRESET", default_value = "overtalk", value_parser = ["overtalk", "md-eval", "dscore", "pyannote", "spyder"])]
    score_preset: String,
    /// No-score collar in seconds on each side of every reference boundary (with `--score`).
    #[arg(long, value_name = "SECONDS", requires = "score")]
    collar: Option<f64>,
    /// Do not score overlapped reference speech (with `--score`).
    #[arg(long, requires = "score")]
    skip_overlap: bool,
    #[command(flatten)]
    read: ReadArgs,
}

/// Resolves the analysis parameters: the preset, then the config file.
fn params(args: &Args) -> Result<Params> {
    let mut preset = Preset::parse(&args.preset).context("unknown preset")?;
    let mut table = toml::Table::new();
    let shown = args.config.as_deref().map(|p| p.display().to_string()).unwrap_or_default();
    if let Some(path) = &args.config {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        table =
            text.parse::<toml::Table>().with_context(|| format!("parsing {}", path.display()))?;
        if let Some(v) = table.remove("preset") {
            let name = v.as_str().context("`preset` in the config must be a string")?;
            preset = Preset::parse(name)
                .with_context(|| format!("{}: unknown preset {name:?}", path.display()))?;
        }
    }
    let mut merged =
        toml::Table::try_from(Params::preset(preset)).context("encoding the preset")?;
    for (k, v) in table {
        if !merged.contains_key(&k) {
            bail!("{shown}: unknown parameter {k:?}");
        }
        merged.insert(k, v);
    }
    let p: Params = toml::Value::Table(merged)
        .try_into()
        .with_context(|| format!("{shown}: bad parameter value"))?;
    p.validate()?;
    Ok(p)
}

/// Removes text and words, for `--timing-only`.
fn strip_text(t: &Transcript) -> Transcript {
    let mut b = overtalk::TranscriptBuilder::new();
    for (_, name) in t.annotation().speakers().iter() {
        b.speaker(name);
    }
    for u in t.utterances() {
        b.add(u.segment, u.speaker_name, None);
    }
    b.extent(t.declared_extent());
    b.build()
}

/// `path` relative to the directory `base`, as a URL path (percent-encoded).
fn relative_url(path: &Path, base: &Path) -> String {
    let p: Vec<Component<'_>> = path.components().collect();
    let b: Vec<Component<'_>> = base.components().collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = Vec::new();
    for _ in common..b.len() {
        parts.push("..".to_owned());
    }
    for c in &p[common..] {
        parts.push(c.as_os_str().to_string_lossy().into_owned());
    }
    let joined = parts.join("/");
    let mut out = String::with_capacity(joined.len());
    for byte in joined.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

fn audio(args: &Args) -> Result<Option<Audio>> {
    let Some(path) = &args.audio else { return Ok(None) };
    let name = path.to_string_lossy();
    if args.embed_audio {
        let mime = Audio::mime_for(&name).with_context(|| {
            format!(
                "{name}: unknown audio type (use .mp3, .wav, .ogg, .opus, .m4a, .flac or .webm)"
            )
        })?;
        let len = std::fs::metadata(path).with_context(|| format!("reading {name}"))?.len();
        if len > MAX_EMBED_BYTES {
            bail!("{name}: {len} bytes is above the embedding limit of {MAX_EMBED_BYTES} bytes; link it without --embed-audio");
        }
        let bytes = std::fs::read(path).with_context(|| format!("reading {name}"))?;
        return Ok(Some(Audio::Embedded { mime: mime.to_owned(), bytes }));
    }
    let audio_abs = std::fs::canonicalize(path).with_context(|| format!("reading {name}"))?;
    let out_dir = match &args.output {
        Some(o) if o.as_os_str() != "-" => {
            let dir = match o.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            };
            std::fs::canonicalize(&dir).with_context(|| format!("reading {}", dir.display()))?
        }
        _ => std::env::current_dir().context("finding the current directory")?,
    };
    Ok(Some(Audio::Linked(relative_url(&audio_abs, &out_dir))))
}

/// Runs `report`.
pub fn run(args: Args, globals: Globals) -> Result<Outcome> {
    if args.score {
        return run_score(args, globals);
    }
    if !args.reference.is_empty()
        || !args.hypothesis.is_empty()
        || !args.uem.is_empty()
        || args.collar.is_some()
        || args.skip_overlap
        || args.score_preset != "overtalk"
    {
        bail!("-r, -s, --uem, --collar, --skip-overlap and --score-preset need --score");
    }
    let params = params(&args)?;
    let sources = input::expand(&args.inputs)?;
    let rename = args.read.rename_map()?;
    let target = Target::from_arg(args.output.as_deref());
    target.check_not_input(&sources)?;
    let mut corpus = Corpus::new();
    for source in &sources {
        let out = input::read(source, &args.read, &rename)?;
        input::print_warnings(source, &out, globals.quiet);
        for id in out.corpus.ids() {
            if corpus.get(id).is_some() {
                bail!("{}: recording {id:?} appears in more than one input", source.display());
            }
        }
        corpus.merge(out.corpus);
    }
    let mut results: Vec<(String, Transcript, Analysis)> = Vec::with_capacity(corpus.len());
    for (id, t) in corpus.iter() {
        let t = if args.timing_only { strip_text(t) } else { t.clone() };
        let r = analysis::analyze(&t, &params).with_context(|| format!("analysing {id}"))?;
        if !globals.quiet {
            for w in &r.diagnostics.warnings {
                eprintln!("overtalk: warning: {id}: {w}");
            }
        }
        results.push((id.to_owned(), t, r));
    }
    let views: Vec<ConversationView<'_>> = results
        .iter()
        .map(|(id, t, a)| ConversationView { recording: id, analysis: a, transcript: Some(t) })
        .collect();
    let opts = ReportOptions {
        title: args.title.clone(),
        audio: audio(&args)?,
        preset: Some(args.preset.clone()),
        sources: sources.iter().map(Source::display).collect(),
    };
    let html = report::conversation_report(&views, &opts)?;
    target.write_with(|out| {
        out.write_all(html.as_bytes())?;
        Ok(())
    })?;
    Ok(Outcome::Ok)
}

fn read_side(
    args: &[String],
    read: &ReadArgs,
    globals: Globals,
    all: &mut Vec<Source>,
) -> Result<BTreeMap<String, overtalk::Annotation>> {
    let sources = input::expand(args)?;
    let rename = read.rename_map()?;
    let mut recordings = BTreeMap::new();
    for source in &sources {
        let out = input::read(source, read, &rename)?;
        input::print_warnings(source, &out, globals.quiet);
        for (id, t) in out.corpus.into_recordings() {
            if recordings.contains_key(&id) {
                bail!("{}: recording {id:?} appears in more than one input", source.display());
            }
            recordings.insert(id, t.annotation().clone());
        }
    }
    all.extend(sources);
    Ok(recordings)
}

fn run_score(args: Args, globals: Globals) -> Result<Outcome> {
    if args.reference.is_empty() || args.hypothesis.is_empty() {
        bail!("--score needs -r REF and -s HYP");
    }
    let preset = match args.score_preset.as_str() {
        "md-eval" => score::Preset::MdEval,
        "dscore" => score::Preset::Dscore,
        "pyannote" => score::Preset::Pyannote,
        "spyder" => score::Preset::Spyder,
        _ => score::Preset::Overtalk,
    };
    let mut opts = ScoreOptions::preset(preset);
    if let Some(c) = args.collar {
        if !(c.is_finite() && c >= 0.0) {
            bail!("--collar must be a non-negative number of seconds, got {c}");
        }
        opts.collar = Delta::from_secs_f64(c).context("--collar is out of range")?;
    }
    opts = opts.with_skip_overlap(args.skip_overlap);
    let mut sources = Vec::new();
    let reference = read_side(&args.reference, &args.read, globals, &mut sources)?;
    let hypothesis = read_side(&args.hypothesis, &args.read, globals, &mut sources)?;
    let target = Target::from_arg(args.output.as_deref());
    target.check_not_input(&sources)?;
    let mut uems: BTreeMap<String, Region> = BTreeMap::new();
    for s in input::expand_uem(&args.uem)? {
        let bytes = std::fs::read(&s).with_context(|| format!("reading {}", s.display()))?;
        let (u, _) = uem::read_bytes(&bytes, &args.read.options()).map_err(|e| e.with_path(&s))?;
        for (k, r) in u {
            let merged = match uems.get(&k) {
                Some(prev) => prev.union(&r),
                None => r,
            };
            uems.insert(k, merged);
        }
    }
    let mut ids: Vec<&String> = reference.keys().chain(hypothesis.keys()).collect();
    ids.sort();
    ids.dedup();
    let inputs: Vec<RecordingInput> = ids
        .into_iter()
        .map(|id| {
            RecordingInput::new(id.clone(), reference.get(id).cloned(), hypothesis.get(id).cloned())
        })
        .collect();
    if inputs.is_empty() {
        bail!("no recordings found in the inputs");
    }
    let uem_arg = if args.uem.is_empty() { None } else { Some(&uems) };
    let result = score::score(&inputs, uem_arg, &opts)?;
    let view = ScoreView { report: &result, inputs: &inputs, uem: uem_arg };
    let ropts = ReportOptions {
        title: args.title.clone(),
        audio: None,
        preset: None,
        sources: sources.iter().map(Source::display).collect(),
    };
    let html = report::score_report(&view, &ropts)?;
    target.write_with(|out| {
        out.write_all(html.as_bytes())?;
        Ok(())
    })?;
    Ok(Outcome::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct R {
        #[command(flatten)]
        a: Args,
    }

    #[derive(Debug, Parser)]
    struct A {
        #[command(flatten)]
        a: crate::commands::analyze::Args,
    }

    fn embedded(html: &str) -> serde_json::Value {
        let open = "<script type=\"application/json\" id=\"overtalk-data\">";
        let a = html.find(open).unwrap() + open.len();
        let b = a + html[a..].find("</script>").unwrap();
        serde_json::from_str(&html[a..b]).unwrap()
    }

    #[test]
    fn report_embeds_what_analyze_writes() {
        let vtt = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/red-carpet/red-carpet.vtt");
        let dir = tempfile::tempdir().unwrap();
        let html = dir.path().join("r.html");
        let json = dir.path().join("r.json");
        let g = Globals { quiet: true };
        let h = html.to_str().unwrap();
        let r = R::try_parse_from(["report", vtt, "-o", h, "--preset", "he2010"]).unwrap();
        assert_eq!(run(r.a, g).unwrap(), Outcome::Ok);
        let j = json.to_str().unwrap();
        let a =
            A::try_parse_from(["analyze", vtt, "--format", "json", "-o", j, "--preset", "he2010"])
                .unwrap();
        crate::commands::analyze::run(a.a, g).unwrap();
        let want: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let page = std::fs::read_to_string(&html).unwrap();
        assert_eq!(embedded(&page)["conversations"][0]["result"], want);
        assert_eq!(want["params"]["bridge_pause"], 20);
        assert!(page.contains("Preset: he2010."));
    }

    #[test]
    fn score_form_and_argument_errors() {
        let dir = tempfile::tempdir().unwrap();
        let reference = dir.path().join("ref.rttm");
        let hypothesis = dir.path().join("hyp.rttm");
        std::fs::write(
            &reference,
            "SPEAKER f 1 0 10 <NA> <NA> A <NA> <NA>\nSPEAKER f 1 10 10 <NA> <NA> B <NA> <NA>\n",
        )
        .unwrap();
        std::fs::write(
            &hypothesis,
            "SPEAKER f 1 0 12 <NA> <NA> x <NA> <NA>\nSPEAKER f 1 12 8 <NA> <NA> y <NA> <NA>\n",
        )
        .unwrap();
        let out = dir.path().join("s.html");
        let (r, h, o) =
            (reference.to_str().unwrap(), hypothesis.to_str().unwrap(), out.to_str().unwrap());
        let args = R::try_parse_from(["report", "--score", "-r", r, "-s", h, "-o", o]).unwrap();
        assert_eq!(run(args.a, Globals { quiet: true }).unwrap(), Outcome::Ok);
        let page = std::fs::read_to_string(&out).unwrap();
        let data = embedded(&page);
        assert_eq!(data["kind"], "score");
        assert_eq!(data["report"]["files"][0]["der"]["confusion"], serde_json::json!(2_000_000));
        // Without inputs and without --score, -r without --score, --embed-audio alone: errors.
        assert!(R::try_parse_from(["report", "-o", o]).is_err());
        let args = R::try_parse_from(["report", r, "-r", r, "-o", o]).unwrap();
        assert!(run(args.a, Globals { quiet: true }).is_err());
        assert!(R::try_parse_from(["report", "x.rttm", "--embed-audio"]).is_err());
        // Never overwrite an input.
        let args = R::try_parse_from(["report", "--score", "-r", r, "-s", h, "-o", r]).unwrap();
        assert!(run(args.a, Globals { quiet: true }).is_err());
    }

    #[test]
    fn relative_urls_climb_and_encode() {
        assert_eq!(relative_url(Path::new("/a/b/c d.mp3"), Path::new("/a/b")), "c%20d.mp3");
        assert_eq!(
            relative_url(Path::new("/a/x/y#1.wav"), Path::new("/a/b/c")),
            "../../x/y%231.wav"
        );
    }
}
