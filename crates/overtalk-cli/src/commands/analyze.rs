//! `overtalk analyze INPUT…`: turns, overlaps, the floor and interruptions, per conversation.

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use overtalk::analysis::intervals::{HeKind, Layer};
use overtalk::analysis::result::Mode;
use overtalk::analysis::{self, Analysis, Classifier, Params, Preset};
use overtalk::Transcript;
use serde::Serialize;

use crate::commands::detect::{is_audio, AudioArgs};
use crate::input::{self, ReadArgs};
use crate::output::Target;
use crate::{Globals, Outcome};

/// Analyse the dynamics of conversations: talk and floor time, turns, gaps and overlaps
/// (Heldner & Edlund), backchannels, and who interrupts whom.
///
/// Each recording is one conversation. Every result carries the mode (text or timing) of each
/// speaker and the parameters used. Parameters come from the preset, then `--config`, then the
/// flags below (durations in milliseconds).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  overtalk analyze interview.vtt\n  overtalk analyze ami/only_words/rttms/test --format json -o ami.json\n  overtalk analyze debate.rttm --preset pure-jf --terminal-window 250\n  overtalk analyze meeting.rttm --format csv --events onsets"
)]
pub struct Args {
    /// Transcripts or diarizations (files, directories, globs; `-` reads stdin), or recordings
    /// (`.wav`, `.mp3`, …: speech is detected first; see `--track` and `--channels`).
    #[arg(required_unless_present = "tracks", value_name = "INPUT")]
    inputs: Vec<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = AnalyzeFormat::Table)]
    format: AnalyzeFormat,
    /// Event list (or, with `speakers`, the per-speaker table) written by `--format csv|tsv`.
    #[arg(long, value_enum, default_value_t = Events::Onsets)]
    events: Events,
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    #[command(flatten)]
    analysis: AnalysisArgs,
    #[command(flatten)]
    audio: AudioArgs,
    #[command(flatten)]
    read: ReadArgs,
}

/// How to analyse: the preset, a config file, timing-only, and one flag per parameter. Shared by
/// `analyze` and `report`.
#[derive(Debug, clap::Args)]
pub(crate) struct AnalysisArgs {
    /// Parameter preset.
    #[arg(long, value_name = "PRESET", default_value = "default", value_parser = ["default", "he2010", "pure-jf"])]
    pub(crate) preset: String,
    /// TOML file of parameters (any subset of the names below, in snake_case; `preset = "…"`
    /// is also accepted).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Ignore words and text: judge completion and backchannels by timing only.
    #[arg(long)]
    timing_only: bool,
    /// What decides backchannels and interruptions: `rules` (the rule book's structural
    /// definitions, §5.4) or `calibrated` (the classifier fitted on human labels, §5.8, with a
    /// probability per event). Default: calibrated.
    #[arg(long, value_name = "CLASSIFIER", value_parser = ["rules", "calibrated"])]
    classifier: Option<String>,
    /// With `--classifier calibrated`: decide each event from evidence up to this long after
    /// its onset (250, 500 or 1000 ms; default: unbounded).
    #[arg(long, value_name = "MS")]
    decision_horizon: Option<i64>,
    #[command(flatten)]
    p: Box<ParamFlags>,
    #[command(flatten)]
    pub(crate) words: crate::words::WordsArgs,
}

/// One conversation read from the inputs, with its analysis.
pub(crate) struct Analyzed {
    /// The recording id, with the file name added when the id repeats across inputs.
    pub(crate) label: String,
    /// What was analysed (without words under `--timing-only`).
    pub(crate) transcript: Transcript,
    /// The result.
    pub(crate) analysis: Analysis,
    /// For a recording: how speech was detected (method and parameters).
    pub(crate) detection: Option<String>,
}

/// One flag per scalar parameter (conversation-metrics.md §5.2).
#[derive(Debug, Default, clap::Args)]
#[command(next_help_heading = "Parameters (milliseconds unless noted)")]
struct ParamFlags {
    /// |between-speaker interval| ≤ this is no-gap-no-overlap.
    #[arg(long, value_name = "MS")]
    latch_tolerance: Option<i64>,
    /// Drop segments no longer than this.
    #[arg(long, value_name = "MS")]
    min_segment: Option<i64>,
    /// Merge a speaker's segments separated by less than this.
    #[arg(long, value_name = "MS")]
    bridge_pause: Option<i64>,
    /// Histogram bin for micro pauses and gaps.
    #[arg(long, value_name = "MS")]
    pause_report_min: Option<i64>,
    /// Longest backchannel.
    #[arg(long, value_name = "MS")]
    bc_max_duration: Option<i64>,
    /// Most words in a backchannel.
    #[arg(long, value_name = "N")]
    bc_max_words: Option<usize>,
    /// Share of cue words a backchannel must exceed (0–1).
    #[arg(long, value_name = "SHARE")]
    bc_min_cue_share: Option<f64>,
    /// Silence of the backchannel speaker before it.
    #[arg(long, value_name = "MS")]
    bc_pre_silence: Option<i64>,
    /// Silence of the backchannel speaker after it.
    #[arg(long, value_name = "MS")]
    bc_post_silence: Option<i64>,
    /// Another speaker talked at most this long before the backchannel.
    #[arg(long, value_name = "MS")]
    bc_context: Option<i64>,
    /// That speaker resumes within this after the backchannel.
    #[arg(long, value_name = "MS")]
    bc_resume_window: Option<i64>,
    /// Solo stretch an overlapped talkspurt needs to claim the floor.
    #[arg(long, value_name = "MS")]
    min_floor_solo: Option<i64>,
    /// Onsets this close to a completion point are terminal overlaps.
    #[arg(long, value_name = "MS")]
    terminal_window: Option<i64>,
    /// Onsets this close are a simultaneous start.
    #[arg(long, value_name = "MS")]
    simul_start_tol: Option<i64>,
    /// Longest gap after an incomplete utterance for a silent interruption.
    #[arg(long, value_name = "MS")]
    silent_int_max_gap: Option<i64>,
    /// Gaps and pauses at least this long are long.
    #[arg(long, value_name = "MS")]
    long_silence: Option<i64>,
    /// Turns at least this long are monologues.
    #[arg(long, value_name = "MS")]
    monologue_min: Option<i64>,
    /// Window of the talk balance.
    #[arg(long, value_name = "MS")]
    balance_window: Option<i64>,
    /// Step of the talk balance.
    #[arg(long, value_name = "MS")]
    balance_step: Option<i64>,
    /// Share above which a window is dominated (0–1).
    #[arg(long, value_name = "SHARE")]
    balance_dominance: Option<f64>,
    /// Count backchannels as talk time.
    #[arg(long, value_name = "BOOL")]
    bc_counts_as_talk: Option<bool>,
    /// Treat laughter-only talk as floor-relevant.
    #[arg(long, value_name = "BOOL")]
    laughter_is_floor: Option<bool>,
    /// How recent the interrupter's talk must be for a verbal floor claim to answer it.
    #[arg(long, value_name = "MS")]
    verbal_claim_window: Option<i64>,
    /// Speaker label to ignore (repeatable; replaces the default, the empty label).
    #[arg(long, value_name = "LABEL")]
    ignore_label: Vec<String>,
}

/// Output formats of `analyze`.
#[derive(Debug, Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum AnalyzeFormat {
    Table,
    Json,
    Jsonl,
    Csv,
    Tsv,
    Md,
    /// The self-contained HTML report (as `overtalk report`).
    Html,
}

/// Event lists for `--format csv|tsv`.
#[derive(Debug, Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum Events {
    Onsets,
    Intervals,
    Turns,
    Transfers,
    /// The per-speaker table (one row per speaker; times in ms, shares as fractions).
    Speakers,
}

/// One conversation's result with its recording id.
#[derive(Debug, Serialize)]
pub(crate) struct Conversation<'a> {
    pub(crate) recording: &'a str,
    /// For a recording: how its speech was detected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) detection: Option<Detection<'a>>,
    #[serde(flatten)]
    pub(crate) analysis: &'a Analysis,
}

/// How the speech of a recording was detected, for the record.
#[derive(Debug, Serialize)]
pub(crate) struct Detection<'a> {
    /// The method and its parameters.
    pub(crate) method: &'a str,
}

/// Totals over every conversation.
#[derive(Debug, Default, Serialize)]
pub(crate) struct CorpusTotals {
    recordings: usize,
    speakers: usize,
    span: i64,
    speech: i64,
    silence: i64,
    overlap: i64,
    overlap_ratio: Option<f64>,
    turns: usize,
    transfers: usize,
    interruptions: usize,
    successful: usize,
    unsuccessful: usize,
    talk_over_events: usize,
    terminal_overlaps: usize,
    simultaneous_starts: usize,
    backchannels: usize,
    verbal_claims: usize,
    he_counts: BTreeMap<Layer, BTreeMap<HeKind, usize>>,
}

#[derive(Debug, Serialize)]
pub(crate) struct Many<'a> {
    pub(crate) schema_version: u32,
    pub(crate) conversations: Vec<Conversation<'a>>,
    pub(crate) corpus: CorpusTotals,
}

impl AnalysisArgs {
    /// Resolves the parameters: preset, then the config file, then the flags.
    pub(crate) fn params(&self) -> Result<Params> {
        resolve_params(self)
    }
}

/// The classifier when neither `--classifier` nor the config names one: calibrated, which
/// agrees with people better on the MRDA val split in text and timing-only mode
/// (docs/agreement.md).
const DEFAULT_CLASSIFIER: Classifier = Classifier::Calibrated;

fn resolve_params(args: &AnalysisArgs) -> Result<Params> {
    let mut preset = Preset::parse(&args.preset).context("unknown preset")?;
    let mut table = toml::Table::new();
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
    let mut base_params = Params::preset(preset);
    base_params.classifier = DEFAULT_CLASSIFIER;
    let base = toml::Table::try_from(base_params).context("encoding the preset")?;
    let mut merged = base;
    for (k, v) in table {
        // `decision_horizon` is unset (unbounded) in the base, so absent from its table.
        if !merged.contains_key(&k) && k != "decision_horizon" {
            bail!(
                "{}: unknown parameter {k:?}",
                args.config.as_deref().map(|p| p.display().to_string()).unwrap_or_default()
            );
        }
        merged.insert(k, v);
    }
    let mut p: Params = toml::Value::Table(merged).try_into().with_context(|| {
        format!(
            "{}: bad parameter value",
            args.config.as_deref().map(|p| p.display().to_string()).unwrap_or_default()
        )
    })?;
    let f = &args.p;
    macro_rules! set {
        ($($name:ident),*) => { $( if let Some(v) = f.$name { p.$name = v; } )* };
    }
    set!(
        latch_tolerance,
        min_segment,
        bridge_pause,
        pause_report_min,
        bc_max_duration,
        bc_max_words,
        bc_min_cue_share,
        bc_pre_silence,
        bc_post_silence,
        bc_context,
        bc_resume_window,
        min_floor_solo,
        terminal_window,
        simul_start_tol,
        silent_int_max_gap,
        long_silence,
        monologue_min,
        balance_window,
        balance_step,
        balance_dominance,
        bc_counts_as_talk,
        laughter_is_floor,
        verbal_claim_window
    );
    if !f.ignore_label.is_empty() {
        p.ignore_labels = f.ignore_label.clone();
    }
    match args.classifier.as_deref() {
        Some("rules") => p.classifier = Classifier::Rules,
        Some("calibrated") => p.classifier = Classifier::Calibrated,
        _ => {}
    }
    if args.decision_horizon.is_some() {
        p.decision_horizon = args.decision_horizon;
    }
    if p.decision_horizon.is_some() && p.classifier != Classifier::Calibrated {
        bail!("--decision-horizon applies to --classifier calibrated only");
    }
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

/// Reads every input and analyses each recording in it. Each input file is its own set of
/// conversations; a recording id met in several files (the same conversation as WebVTT and as
/// RTTM, say) is analysed once per file and labelled `id (file name)`. Results come in
/// recording-id order, whatever the order of the inputs.
pub(crate) fn read_and_analyze(
    inputs: &[String],
    read_args: &ReadArgs,
    how: &AnalysisArgs,
    audio: &AudioArgs,
    globals: Globals,
) -> Result<(Vec<input::Source>, Vec<Analyzed>)> {
    let params = how.params()?;
    // Directories and globs are expanded first, so the recordings they hold are detected too.
    let expanded =
        if inputs.is_empty() { Vec::new() } else { input::expand_with_recordings(inputs)? };
    let (recordings, transcript_sources): (Vec<input::Source>, Vec<input::Source>) =
        expanded.into_iter().partition(|s| matches!(s, input::Source::File(p) if is_audio(p)));
    let recordings: Vec<PathBuf> = recordings
        .into_iter()
        .filter_map(|s| match s {
            input::Source::File(p) => Some(p),
            input::Source::Stdin => None,
        })
        .collect();
    let mut read: Vec<(String, String, Transcript, Option<String>)> = Vec::new();
    let mut sources = Vec::new();
    // Recordings first: detection turns each into who-spoke-when.
    let rename = read_args.rename_map()?;
    let mut speakers = std::collections::BTreeSet::new();
    for detected in audio.detect_recordings(&recordings, globals)? {
        let file = detected.sources.first().map(input::Source::display).unwrap_or_default();
        input::note_speakers(&detected.corpus, &mut speakers);
        let corpus = input::rename_corpus(detected.corpus, &rename);
        for (id, t) in corpus.into_recordings() {
            read.push((id, file.clone(), t, Some(detected.method.clone())));
        }
        sources.extend(detected.sources);
    }
    // CHAT with bullets: the transcriber's markers against the timing, by (recording, file).
    let mut chat_markers = std::collections::HashMap::new();
    for source in &transcript_sources {
        let out = input::read_noting_speakers(source, read_args, &rename, &mut speakers)?;
        input::require_times(source, &out, "analyze")?;
        input::print_warnings(source, &out, globals.quiet);
        let file = match source {
            input::Source::Stdin => "stdin".to_owned(),
            input::Source::File(p) => {
                p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
            }
        };
        if out.format == Some(overtalk::format::Format::Chat) {
            for (id, t) in out.corpus.iter() {
                if let Some(m) = analysis::markers::compare(t) {
                    chat_markers.insert((id.to_owned(), file.clone()), m);
                }
            }
        }
        for (id, t) in out.corpus.into_recordings() {
            read.push((id, file.clone(), t, None));
        }
    }
    sources.extend(transcript_sources);
    input::warn_if_no_name_matches(
        read_args.speakers.as_deref(),
        &rename,
        &speakers,
        globals.quiet,
    );
    read.sort_by(|a, b| (&a.0, &a.1).cmp(&(&b.0, &b.1)));
    if how.words.words.is_some() {
        if read.len() != 1 {
            bail!(
                "--words lays the words of one recording on its speakers; the inputs hold {} recordings",
                read.len()
            );
        }
        let (id, _, t, detection) = &mut read[0];
        if let Some(laid) = how.words.lay_on(t, id, &read_args.options(), globals.quiet)? {
            *t = laid;
            if let Some(method) = detection {
                method.push_str(&how.words.method_note());
            }
        }
    }
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (id, _, _, _) in &read {
        *seen.entry(id.clone()).or_default() += 1;
    }
    let mut results = Vec::with_capacity(read.len());
    for (id, file, t, detection) in read {
        let markers = chat_markers.remove(&(id.clone(), file.clone()));
        let label = if seen[&id] > 1 { format!("{id} ({file})") } else { id };
        // A transcript with estimated ends is analysed by timing anyway; its text is kept for
        // the punctuation rules of the rule-by-rule count.
        let transcript =
            if how.timing_only && t.estimated_ends() == 0 { strip_text(&t) } else { t };
        let mut analysis = analysis::analyze(&transcript, &params)
            .with_context(|| format!("analysing {label}"))?;
        analysis.chat_markers_vs_timing = markers;
        if one_speaker_per_frame(detection.as_deref()) && analysis.speakers.len() >= 2 {
            // Whatever the length: the 5-minute rule of the library's own warning is for
            // transcripts, where zero overlap may be true.
            analysis.diagnostics.warnings.insert(0, OVERLAP_NOT_MEASURABLE.to_owned());
        }
        if !globals.quiet {
            for w in &analysis.diagnostics.warnings {
                eprintln!("overtalk: warning: {label}: {w}");
            }
            if let Some(hint) = overlap_hint(detection.as_deref(), &analysis.diagnostics.warnings) {
                eprintln!("overtalk: note: {label}: {hint}");
            }
        }
        results.push(Analyzed { label, transcript, analysis, detection });
    }
    Ok((sources, results))
}

/// Runs `analyze`.
pub fn run(args: Args, globals: Globals) -> Result<Outcome> {
    let (sources, analyzed) =
        read_and_analyze(&args.inputs, &args.read, &args.analysis, &args.audio, globals)?;
    let html = if args.format == AnalyzeFormat::Html {
        let options = overtalk::report::ReportOptions {
            title: None,
            audio: None,
            preset: Some(args.analysis.preset.clone()),
            sources: sources.iter().map(input::Source::display).collect(),
            detection: detections(&analyzed),
        };
        crate::commands::report::render(&analyzed, &options)?
    } else {
        String::new()
    };
    let methods: Vec<Option<String>> = analyzed.iter().map(|a| a.detection.clone()).collect();
    let results: Vec<(String, Analysis)> =
        analyzed.into_iter().map(|a| (a.label, a.analysis)).collect();
    let totals = totals(&results);
    let target = Target::from_arg(args.output.as_deref());
    target.check_not_input(&sources)?;
    let convs: Vec<Conversation<'_>> = results
        .iter()
        .zip(&methods)
        .map(|((id, a), m)| Conversation {
            recording: id,
            detection: m.as_deref().map(|method| Detection { method }),
            analysis: a,
        })
        .collect();
    target.write_with(|out| {
        match args.format {
            AnalyzeFormat::Json => {
                // The same shape for one conversation as for many, so a script reads both alike.
                let many = Many {
                    schema_version: analysis::SCHEMA_VERSION,
                    conversations: convs,
                    corpus: totals,
                };
                serde_json::to_writer_pretty(&mut *out, &many).map_err(std::io::Error::from)?;
                writeln!(out)?;
            }
            AnalyzeFormat::Jsonl => {
                for c in &convs {
                    serde_json::to_writer(&mut *out, c).map_err(std::io::Error::from)?;
                    writeln!(out)?;
                }
            }
            AnalyzeFormat::Csv | AnalyzeFormat::Tsv => {
                let sep = if args.format == AnalyzeFormat::Csv { ',' } else { '\t' };
                write_events(&results, args.events, sep, out)?;
            }
            AnalyzeFormat::Html => out.write_all(html.as_bytes())?,
            AnalyzeFormat::Table | AnalyzeFormat::Md => {
                let md = args.format == AnalyzeFormat::Md;
                for (k, (id, r)) in results.iter().enumerate() {
                    if k > 0 {
                        writeln!(out)?;
                    }
                    render(id, r, &args.analysis.preset, methods[k].as_deref(), md, out)?;
                }
                if results.len() > 1 {
                    writeln!(out)?;
                    render_totals(&totals, md, out)?;
                }
                if results.is_empty() {
                    writeln!(out, "no recordings")?;
                }
            }
        }
        Ok(())
    })?;
    Ok(Outcome::Ok)
}

pub(crate) fn totals(results: &[(String, Analysis)]) -> CorpusTotals {
    let mut t = CorpusTotals { recordings: results.len(), ..CorpusTotals::default() };
    for (_, r) in results {
        let c = &r.conversation;
        t.speakers += r.speakers.len();
        t.span += c.span;
        t.speech += c.speech;
        t.silence += c.silence;
        t.overlap += c.overlap;
        t.turns += c.counts.turns;
        t.transfers += c.counts.transfers;
        t.interruptions += c.counts.interruptions;
        t.successful += c.counts.successful;
        t.unsuccessful += c.counts.unsuccessful;
        t.talk_over_events += c.counts.talk_over_events;
        t.terminal_overlaps += c.counts.terminal_overlaps;
        t.simultaneous_starts += c.counts.simultaneous_starts;
        t.backchannels += c.counts.backchannels;
        t.verbal_claims += c.counts.verbal_claims;
        for (layer, kinds) in &c.he_counts {
            let e = t.he_counts.entry(*layer).or_default();
            for (k, n) in kinds {
                *e.entry(*k).or_default() += n;
            }
        }
    }
    t.overlap_ratio = (t.speech > 0).then(|| t.overlap as f64 / t.speech as f64);
    t
}

fn quote(s: &str, sep: char) -> String {
    if s.contains([sep, '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map(ToString::to_string).unwrap_or_default()
}

fn name_of<T: Serialize>(v: &T) -> String {
    serde_json::to_value(v).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

fn write_events(
    results: &[(String, Analysis)],
    events: Events,
    sep: char,
    out: &mut dyn std::io::Write,
) -> Result<()> {
    let header: &[&str] = match events {
        Events::Onsets => &[
            "recording",
            "speaker",
            "time",
            "holder",
            "class",
            "outcome",
            "ferguson",
            "partner",
            "dist_to_completion",
            "holder_remaining",
        ],
        Events::Intervals => &["recording", "layer", "kind", "start", "end", "prev", "next"],
        Events::Turns => {
            &["recording", "speaker", "start", "end", "claim", "n_talkspurts", "n_tokens"]
        }
        Events::Transfers => &["recording", "time", "from", "to", "fto"],
        Events::Speakers => &[
            "recording",
            "speaker",
            "mode",
            "talk",
            "talk_share",
            "solo",
            "floor",
            "floor_share",
            "turns",
            "longest_turn",
            "words",
            "wpm",
            "backchannels",
            "interruptions_made",
            "interruptions_made_successful",
            "interruptions_received",
            "interruptions_received_successful",
            "median_fto_in",
        ],
    };
    writeln!(out, "{}", header.join(&sep.to_string()))?;
    for (id, r) in results {
        let rows: Vec<Vec<String>> = match events {
            Events::Onsets => r
                .onsets
                .iter()
                .map(|o| {
                    vec![
                        id.clone(),
                        o.speaker.to_string(),
                        o.time.to_string(),
                        opt(&o.holder),
                        name_of(&o.class),
                        name_of(&o.outcome),
                        o.ferguson.as_ref().map(name_of).unwrap_or_default(),
                        opt(&o.partner),
                        opt(&o.dist_to_completion),
                        opt(&o.holder_remaining),
                    ]
                })
                .collect(),
            Events::Intervals => {
                r.he.iter()
                    .map(|h| {
                        vec![
                            id.clone(),
                            name_of(&h.layer),
                            h.kind.name().to_owned(),
                            h.start.to_string(),
                            h.end.to_string(),
                            opt(&h.prev),
                            opt(&h.next),
                        ]
                    })
                    .collect()
            }
            Events::Turns => r
                .turns
                .iter()
                .map(|t| {
                    vec![
                        id.clone(),
                        t.speaker.to_string(),
                        t.start.to_string(),
                        t.end.to_string(),
                        t.claim.to_string(),
                        t.n_talkspurts.to_string(),
                        t.n_tokens.to_string(),
                    ]
                })
                .collect(),
            Events::Transfers => r
                .transfers
                .iter()
                .map(|t| {
                    vec![
                        id.clone(),
                        t.time.to_string(),
                        t.from.to_string(),
                        t.to.to_string(),
                        opt(&t.fto),
                    ]
                })
                .collect(),
            Events::Speakers => r
                .speakers
                .iter()
                .map(|(name, x)| {
                    vec![
                        id.clone(),
                        name.clone(),
                        r.mode.get(name).map(name_of).unwrap_or_default(),
                        x.talk.to_string(),
                        opt(&x.talk_share),
                        x.solo.to_string(),
                        x.floor.to_string(),
                        opt(&x.floor_share),
                        x.turns.to_string(),
                        opt(&x.longest_turn),
                        x.words.to_string(),
                        opt(&x.wpm),
                        x.backchannels.to_string(),
                        x.interruptions_made.attempts.to_string(),
                        x.interruptions_made.successful.to_string(),
                        x.interruptions_received.attempts.to_string(),
                        x.interruptions_received.successful.to_string(),
                        opt(&x.median_fto_in),
                    ]
                })
                .collect(),
        };
        for row in rows {
            let cells: Vec<String> = row.iter().map(|c| quote(c, sep)).collect();
            writeln!(out, "{}", cells.join(&sep.to_string()))?;
        }
    }
    Ok(())
}

/// Milliseconds as seconds with two decimals (rounded half away from zero).
fn secs(ms: i64) -> String {
    let cs = overtalk::time::round_div(ms, 10);
    let sign = if cs < 0 { "-" } else { "" };
    let a = cs.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_owned(), |v| format!("{:.1}%", v * 100.0))
}

fn table(
    header: &[String],
    rows: &[Vec<String>],
    md: bool,
    out: &mut dyn std::io::Write,
) -> Result<()> {
    if md {
        writeln!(out, "| {} |", header.join(" | "))?;
        writeln!(out, "|{}", header.iter().map(|_| " --- |").collect::<String>())?;
        for r in rows {
            writeln!(out, "| {} |", r.join(" | "))?;
        }
        return Ok(());
    }
    let widths: Vec<usize> = (0..header.len())
        .map(|i| {
            rows.iter()
                .map(|r| crate::output::width(&r[i]))
                .chain([crate::output::width(&header[i])])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: &[String]| -> String {
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| {
                if i == 0 {
                    crate::output::pad_right(c, widths[i])
                } else {
                    crate::output::pad_left(c, widths[i])
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    writeln!(out, "{}", line(header).trim_end())?;
    for r in rows {
        writeln!(out, "{}", line(r).trim_end())?;
    }
    Ok(())
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

fn render(
    id: &str,
    r: &Analysis,
    preset: &str,
    detection: Option<&str>,
    md: bool,
    out: &mut dyn std::io::Write,
) -> Result<()> {
    let c = &r.conversation;
    let speakers = match r.speakers.len() {
        // A recording in which detection found nobody talking.
        0 if detection.is_some() => "no speech found in the recording, 0 speakers".to_owned(),
        n => format!("{n} speakers"),
    };
    // Ends estimated: overlap, and the timing rule's interruptions, cannot be measured.
    let unmeasured = r.estimated_times.is_some();
    let overlap = if unmeasured {
        "overlap not measurable (ends estimated)".to_owned()
    } else {
        format!("overlap {} s ({} of speech)", secs(c.overlap), pct(c.overlap_ratio))
    };
    let heading = format!(
        "{id}: {speakers}, span {} s, speech {} s, {overlap}",
        secs(c.span),
        secs(c.speech),
    );
    if md {
        writeln!(out, "## {heading}\n")?;
    } else {
        writeln!(out, "{heading}\n")?;
    }
    if r.diagnostics.warnings.iter().any(|w| w == OVERLAP_NOT_MEASURABLE) {
        let bullet = if md { "> " } else { "" };
        writeln!(out, "{bullet}{OVERLAP_NOT_MEASURABLE}\n")?;
    }
    let header = strings(&[
        "speaker",
        "mode",
        "talk s",
        "talk %",
        "solo s",
        "floor s",
        "floor %",
        "turns",
        "longest s",
        "wpm",
        "BCs",
        "int. made (succ.)",
        "received (succ.)",
        "median FTO in s",
    ]);
    let rows: Vec<Vec<String>> = r
        .speakers
        .iter()
        .map(|(name, s)| {
            vec![
                name.clone(),
                match r.mode.get(name) {
                    Some(Mode::Text) => "text".to_owned(),
                    _ => "timing".to_owned(),
                },
                secs(s.talk),
                pct(s.talk_share),
                secs(s.solo),
                secs(s.floor),
                pct(s.floor_share),
                s.turns.to_string(),
                s.longest_turn.map_or_else(|| "-".to_owned(), secs),
                s.wpm.map_or_else(|| "-".to_owned(), |w| format!("{w:.1}")),
                s.backchannels.to_string(),
                if unmeasured {
                    NOT_MEASURABLE.to_owned()
                } else {
                    format!(
                        "{} ({})",
                        s.interruptions_made.attempts, s.interruptions_made.successful
                    )
                },
                if unmeasured {
                    NOT_MEASURABLE.to_owned()
                } else {
                    format!(
                        "{} ({})",
                        s.interruptions_received.attempts, s.interruptions_received.successful
                    )
                },
                s.median_fto_in.map_or_else(|| "-".to_owned(), |m| format!("{:.3}", m / 1000.0)),
            ]
        })
        .collect();
    table(&header, &rows, md, out)?;
    let bullet = if md { "- " } else { "" };
    if unmeasured {
        return render_estimated_rest(r, preset, detection, md, out);
    }
    // Who interrupts whom: rows interrupter, columns interruptee; "attempts/successful (talk-over)".
    writeln!(out)?;
    writeln!(out, "who interrupts whom (row interrupts column: attempts/successful, talk-over events in brackets; per min of the column's floor):")?;
    if md {
        writeln!(out)?;
    }
    let names: Vec<&String> = r.speakers.keys().collect();
    let mut header = vec!["interrupter \\ holder".to_owned()];
    header.extend(names.iter().map(|n| (*n).clone()));
    let rows: Vec<Vec<String>> = names
        .iter()
        .map(|x| {
            let mut row = vec![(*x).clone()];
            for f in &names {
                let cell =
                    if x == f {
                        "-".to_owned()
                    } else {
                        match r.pairs.iter().find(|p| {
                            &*p.interrupter == x.as_str() && &*p.interruptee == f.as_str()
                        }) {
                            Some(p) => format!(
                                "{}/{} ({}) {}",
                                p.attempts,
                                p.successful,
                                p.talk_over_events,
                                p.rate_per_min_of_interruptee_floor
                                    .map_or_else(|| "-".to_owned(), |v| format!("{v:.2}/min"))
                            ),
                            None => "0/0 (0)".to_owned(),
                        }
                    };
                row.push(cell);
            }
            row
        })
        .collect();
    table(&header, &rows, md, out)?;
    let k = &c.counts;
    let he = |layer: Layer, kind: HeKind| {
        c.he_counts.get(&layer).and_then(|m| m.get(&kind)).copied().unwrap_or(0)
    };
    writeln!(out)?;
    writeln!(
        out,
        "{bullet}headline: {} turns, {} floor transfers ({}/min); {} interruptions ({} successful, {} unsuccessful); {} talk-over events ({} terminal overlaps); {} simultaneous starts; {} backchannels; {} verbal floor claims",
        k.turns,
        k.transfers,
        c.transfers_per_min.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}")),
        k.interruptions,
        k.successful,
        k.unsuccessful,
        k.talk_over_events,
        k.terminal_overlaps,
        k.simultaneous_starts,
        k.backchannels,
        k.verbal_claims
    )?;
    for layer in [Layer::Acoustic, Layer::Floor] {
        writeln!(
            out,
            "{bullet}{} H&E: {} gaps, {} pauses, {} overlaps between, {} overlaps within, {} NGNO{}",
            if layer == Layer::Acoustic { "acoustic" } else { "floor (BC-filtered)" },
            he(layer, HeKind::Gap),
            he(layer, HeKind::Pause),
            he(layer, HeKind::OverlapBetween),
            he(layer, HeKind::OverlapWithin),
            he(layer, HeKind::Ngno),
            if layer == Layer::Acoustic {
                format!(
                    "; {} long silences; overlaps are {} of between-speaker intervals",
                    c.long_silences,
                    pct(c.overlap_between_share)
                )
            } else {
                String::new()
            }
        )?;
    }
    for v in &r.verbal_claims {
        writeln!(
            out,
            "{bullet}verbal floor claim: {} \"{}\" at {} s{}",
            v.speaker,
            v.phrase,
            secs(v.start),
            match (&v.answers_speaker, v.answers_time) {
                (Some(s), Some(t)) => format!(" (answers {s} at {} s)", secs(t)),
                _ => String::new(),
            }
        )?;
    }
    if let Some(m) = &r.chat_markers_vs_timing {
        writeln!(out)?;
        crate::chat_markers::render(m, None, md, out)?;
        writeln!(out)?;
    }
    render_params(r, preset, detection, bullet, out)
}

/// What the table shows for a number that cannot be measured.
const NOT_MEASURABLE: &str = "not measurable";

fn render_params(
    r: &Analysis,
    preset: &str,
    detection: Option<&str>,
    bullet: &str,
    out: &mut dyn std::io::Write,
) -> Result<()> {
    let p = &r.params;
    writeln!(
        out,
        "{bullet}parameters (preset {preset}): latch_tolerance {} ms, min_segment {} ms, bridge_pause {} ms, bc_max_duration {} ms, bc_max_words {}, bc_min_cue_share {}, bc_pre/post_silence {}/{} ms, bc_context {} ms, bc_resume_window {} ms, min_floor_solo {} ms, terminal_window {} ms, simul_start_tol {} ms, silent_int_max_gap {} ms, long_silence {} ms, bc_counts_as_talk {}, laughter_is_floor {}, bc_lexicon {} words",
        p.latch_tolerance, p.min_segment, p.bridge_pause, p.bc_max_duration, p.bc_max_words, p.bc_min_cue_share,
        p.bc_pre_silence, p.bc_post_silence, p.bc_context, p.bc_resume_window, p.min_floor_solo, p.terminal_window,
        p.simul_start_tol, p.silent_int_max_gap, p.long_silence, p.bc_counts_as_talk, p.laughter_is_floor, p.bc_lexicon.len()
    )?;
    writeln!(out, "{bullet}backchannels and interruptions decided by: {}", classifier_note(p))?;
    if let Some(method) = detection {
        writeln!(out, "{bullet}speech detected from the recording: {method}")?;
    }
    Ok(())
}

/// The rest of [`render`] for transcripts with estimated ends: the counts that rest on start
/// times, what rests on the estimates, the marked overlaps, and the interruptions counted rule
/// by rule (in place of the timing rule's who-interrupts-whom, which cannot be measured).
fn render_estimated_rest(
    r: &Analysis,
    preset: &str,
    detection: Option<&str>,
    md: bool,
    out: &mut dyn std::io::Write,
) -> Result<()> {
    let bullet = if md { "- " } else { "" };
    let Some(e) = &r.estimated_times else { return Ok(()) };
    let c = &r.conversation;
    writeln!(out)?;
    writeln!(
        out,
        "{bullet}headline: {} turns, {} floor transfers ({}/min); interruptions, talk-over events and overlaps by timing: {NOT_MEASURABLE} (ends estimated; see rule by rule below); {} backchannels",
        c.counts.turns,
        c.counts.transfers,
        c.transfers_per_min.map_or_else(|| "-".to_owned(), |v| format!("{v:.2}")),
        c.counts.backchannels,
    )?;
    writeln!(
        out,
        "{bullet}ends estimated: {} of {} tracks (start times only; each end is the next start, or sooner at {} words a second); timing-only mode; resting on estimated ends: {}; from start times alone: {}",
        e.estimated_ends,
        e.tracks,
        e.words_per_second,
        e.rest_on_estimated_ends.join("; "),
        e.from_start_times.join("; ")
    )?;
    writeln!(
        out,
        "{bullet}overlap: {}; marked overlaps ([crosstalk] notes, the transcriber's judgement): {}",
        e.overlap,
        e.marked_overlaps.len()
    )?;
    for m in &e.marked_overlaps {
        writeln!(
            out,
            "{bullet}  marked overlap at {} s ({}){}: [{}]",
            secs(m.time),
            m.time_from,
            m.speaker.as_ref().map_or_else(String::new, |s| format!(" in {s}'s paragraph")),
            m.text
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "interruptions rule by rule (why counts published for the same conversation differ):"
    )?;
    if md {
        writeln!(out)?;
    }
    let header = strings(&["rule", "interruptions", "by speaker"]);
    let rows: Vec<Vec<String>> = e
        .rules
        .iter()
        .map(|r| {
            vec![
                r.rule.clone(),
                r.count.map_or_else(|| NOT_MEASURABLE.to_owned(), |n| n.to_string()),
                if r.by_speaker.is_empty() {
                    "-".to_owned()
                } else {
                    r.by_speaker
                        .iter()
                        .map(|(s, n)| format!("{s} {n}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            ]
        })
        .collect();
    table(&header, &rows, md, out)?;
    writeln!(out)?;
    for rule in &e.rules {
        writeln!(out, "{bullet}{}: {} ({})", rule.rule, rule.description, rule.basis)?;
    }
    render_params(r, preset, detection, bullet, out)
}

/// Which classifier produced the backchannel and interruption counts, in words.
pub(crate) fn classifier_note(p: &Params) -> String {
    match p.classifier {
        Classifier::Rules => {
            "rules (the structural definitions, conversation-metrics.md §5.4)".to_owned()
        }
        Classifier::Calibrated => format!(
            "calibrated (fitted on human labels, §5.8; decision horizon {})",
            p.decision_horizon.map_or("unbounded".to_owned(), |h| format!("{h} ms"))
        ),
    }
}

/// One line per detected recording, `label: method`, for the report's record of its inputs.
pub(crate) fn detections(analyzed: &[Analyzed]) -> Vec<String> {
    let mut lines: Vec<String> = analyzed
        .iter()
        .filter_map(|a| a.detection.as_ref().map(|m| format!("{}: {m}", a.label)))
        .collect();
    if analyzed.iter().any(|a| a.detection.as_deref().is_some_and(|m| m.starts_with("ge2e ("))) {
        lines.push(DIARIZED_ACCURACY.to_owned());
    }
    lines
}

/// The accuracy note of a report whose speakers a diarizer detected in a mixed track: the
/// method, and the DER range measured on the real recordings of docs/diarization.md.
pub(crate) const DIARIZED_ACCURACY: &str = "accuracy: these speakers were detected by machine \
     (GE2E diarization of one mixed track, method above); on the real recordings of \
     docs/diarization.md its DER is 12–138 % per file at a collar of 0.25 s (17–19 % pooled; \
     `bash bench/diar_bench.sh real`), so who spoke when is an \
     estimate";

fn render_totals(t: &CorpusTotals, md: bool, out: &mut dyn std::io::Write) -> Result<()> {
    let heading = format!("corpus: {} recordings", t.recordings);
    if md {
        writeln!(out, "## {heading}\n")?;
    } else {
        writeln!(out, "{heading}")?;
    }
    let header = strings(&[
        "speech h",
        "overlap %",
        "turns",
        "transfers",
        "interruptions",
        "successful",
        "talk-over",
        "terminal",
        "simultaneous",
        "BCs",
    ]);
    let row = vec![
        format!("{:.2}", t.speech as f64 / 3_600_000.0),
        pct(t.overlap_ratio),
        t.turns.to_string(),
        t.transfers.to_string(),
        t.interruptions.to_string(),
        t.successful.to_string(),
        t.talk_over_events.to_string(),
        t.terminal_overlaps.to_string(),
        t.simultaneous_starts.to_string(),
        t.backchannels.to_string(),
    ];
    table(&header, &[row], md, out)
}

/// The note, in the diagnostics and beside every table, for speakers detected one per frame.
pub(crate) const OVERLAP_NOT_MEASURABLE: &str = "overlap not measurable: the speakers were \
     detected by diarizing one mixed track with one speaker per frame, which cannot hear two \
     people at once; the overlap, interruption and talk-over counts here are zero by \
     construction, not measured (separate tracks per speaker measure them)";

/// Whether `method` (a detection method as recorded) gives one speaker per frame: the
/// diarizer of a mixed track with its second-speaker overlap switched off.
pub(crate) fn one_speaker_per_frame(method: Option<&str>) -> bool {
    method.is_some_and(|m| m.starts_with("ge2e (") && m.contains("; overlap off"))
}

/// A hint for a diarized recording in which no overlap was found: the diarizer gives one
/// speaker per frame unless asked for a second, so zero overlap there says more about the
/// method than about the conversation.
fn overlap_hint(method: Option<&str>, warnings: &[String]) -> Option<&'static str> {
    let one_per_frame = one_speaker_per_frame(method);
    let none_found = warnings.iter().any(|w| w.starts_with("no overlapping speech"));
    (one_per_frame && none_found).then_some(
        "the diarizer gave one speaker per frame (overlap off); `--overlap-margin 0.05` adds a \
         second speaker where two are nearly as likely (docs/diarization.md)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct T {
        #[command(flatten)]
        a: Args,
    }

    fn parse(extra: &[&str]) -> Args {
        let mut argv = vec!["analyze", "x.rttm"];
        argv.extend_from_slice(extra);
        T::try_parse_from(argv).unwrap().a
    }

    #[test]
    fn zero_overlap_from_one_speaker_per_frame_gets_a_hint() {
        let none = vec!["no overlapping speech in 8.0 min of multi-speaker speech: …".to_owned()];
        // The methods as the diarizer writes them.
        struct Stub;
        impl overtalk_audio::diarize::WindowEmbedder for Stub {
            fn name(&self) -> String {
                "stub".into()
            }
            fn front_end(&self) -> Box<dyn overtalk_audio::diarize::FrontEnd> {
                Box::new(overtalk_audio::diarize::embed::MelStream::new())
            }
            fn window_frames(&self) -> usize {
                160
            }
            fn embed(&self, w: &[&[f32]]) -> overtalk::Result<Vec<Vec<f32>>> {
                Ok(vec![vec![1.0]; w.len()])
            }
        }
        use overtalk_audio::diarize::{DiarizeOptions, Diarizer, Ge2eDiarizer};
        let method = |overlap_margin| {
            let o = DiarizeOptions { overlap_margin, ..DiarizeOptions::default() };
            Ge2eDiarizer::with_embedder(Box::new(Stub), o).describe()
        };
        let (off, on) = (method(None), method(Some(0.05)));
        let (off, on) = (off.as_str(), on.as_str());
        assert!(overlap_hint(Some(off), &none).is_some_and(|h| h.contains("--overlap-margin")));
        assert_eq!(overlap_hint(Some(on), &none), None);
        assert_eq!(overlap_hint(Some(off), &[]), None);
        assert_eq!(overlap_hint(None, &none), None, "a transcript");
        let tracks = "2 tracks, one per speaker; vad earshot";
        assert_eq!(overlap_hint(Some(tracks), &none), None);
    }

    #[test]
    fn parameters_layer_preset_then_config_then_flags() {
        let p = parse(&[]).analysis.params().unwrap();
        assert_eq!(p, Params { classifier: DEFAULT_CLASSIFIER, ..Params::default() });
        let p =
            parse(&["--preset", "he2010", "--min-floor-solo", "250"]).analysis.params().unwrap();
        assert_eq!((p.bridge_pause, p.min_floor_solo), (20, 250));
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("overtalk.toml");
        std::fs::write(
            &cfg,
            "preset = \"pure-jf\"\nterminal_window = 250\nbc_lexicon = [\"yeah\"]\n",
        )
        .unwrap();
        let c = cfg.to_str().unwrap();
        let p = parse(&["--config", c, "--terminal-window", "280"]).analysis.params().unwrap();
        assert_eq!((p.min_floor_solo, p.terminal_window, p.bc_lexicon.len()), (0, 280, 1));
        std::fs::write(&cfg, "bridge_paus = 1\n").unwrap();
        assert!(parse(&["--config", c]).analysis.params().is_err());
        std::fs::write(&cfg, "bridge_pause = -1\n").unwrap();
        assert!(parse(&["--config", c]).analysis.params().is_err());
        assert!(parse(&["--bc-min-cue-share", "2"]).analysis.params().is_err());
    }

    fn example() -> String {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/red-carpet/red-carpet.rttm").to_owned()
    }

    fn run_to_string(extra: &[&str], inputs: &[&str]) -> String {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.txt");
        let mut argv: Vec<String> = vec!["analyze".into()];
        argv.extend(inputs.iter().map(|s| (*s).to_owned()));
        argv.extend(["-o".to_owned(), out.display().to_string()]);
        argv.extend(extra.iter().map(|s| (*s).to_owned()));
        let args = T::try_parse_from(argv).unwrap().a;
        assert_eq!(run(args, Globals { quiet: true }).unwrap(), Outcome::Ok);
        std::fs::read_to_string(out).unwrap()
    }

    #[test]
    fn writes_json_jsonl_csv_and_tables() {
        let ex = example();
        let json: serde_json::Value =
            serde_json::from_str(&run_to_string(&["--format", "json"], &[&ex])).unwrap();
        // One conversation has the shape of many: a list of one, and the totals.
        let keys: Vec<&str> = json.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["conversations", "corpus", "schema_version"]);
        assert_eq!(json["schema_version"], 2);
        assert_eq!(json["corpus"]["recordings"], 1);
        assert_eq!(json["conversations"].as_array().unwrap().len(), 1);
        let one = &json["conversations"][0];
        assert_eq!(one["recording"], "red-carpet");
        assert_eq!(one["schema_version"], 2);
        assert_eq!(one["turns"].as_array().unwrap().len(), 11);
        assert_eq!(one["mode"]["Wife"], "timing");
        // The same file named twice is read once; jsonl gets one line per conversation.
        let once: serde_json::Value =
            serde_json::from_str(&run_to_string(&["--format", "json"], &[&ex, &ex])).unwrap();
        assert_eq!(once["conversations"][0]["recording"], "red-carpet");
        assert_eq!(once["corpus"]["recordings"], 1);
        let dir = tempfile::tempdir().unwrap();
        let other = dir.path().join("other.rttm");
        let text = std::fs::read_to_string(&ex).unwrap().replace("red-carpet 1", "copy 1");
        std::fs::write(&other, text).unwrap();
        let other = other.display().to_string();
        let jsonl = run_to_string(&["--format", "jsonl"], &[&ex, &other]);
        let lines: Vec<serde_json::Value> =
            jsonl.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            (lines[0]["recording"].as_str(), lines[1]["recording"].as_str()),
            (Some("copy"), Some("red-carpet"))
        );
        let many: serde_json::Value =
            serde_json::from_str(&run_to_string(&["--format", "json"], &[&ex, &other])).unwrap();
        assert_eq!(many["corpus"]["recordings"], 2);
        assert_eq!(many["corpus"]["turns"], 22);
        let csv = run_to_string(&["--format", "csv", "--events", "transfers"], &[&ex]);
        let rows: Vec<&str> = csv.lines().collect();
        assert_eq!(rows[0], "recording,time,from,to,fto");
        assert_eq!(rows[1], "red-carpet,3450,Interviewer,Husband,450");
        assert_eq!(rows.len(), 11);
        let speakers = run_to_string(&["--format", "csv", "--events", "speakers"], &[&ex]);
        let rows: Vec<&str> = speakers.lines().collect();
        assert_eq!(rows[0], "recording,speaker,mode,talk,talk_share,solo,floor,floor_share,turns,longest_turn,words,wpm,backchannels,interruptions_made,interruptions_made_successful,interruptions_received,interruptions_received_successful,median_fto_in");
        assert_eq!(rows.len(), 4, "a header and one row per speaker");
        assert!(rows[1].starts_with("red-carpet,Husband,timing,9050,"), "{}", rows[1]);
        let tsv = run_to_string(&["--format", "tsv", "--events", "intervals"], &[&ex]);
        assert!(tsv
            .lines()
            .any(|l| l == "red-carpet\tacoustic\tgap\t16400\t18000\tWife\tInterviewer"));
        let table = run_to_string(&[], &[&ex]);
        assert!(table.contains("Husband      timing    9.05"));
        assert!(table.contains("parameters (preset default)"));
        let md = run_to_string(&["--format", "md", "--preset", "pure-jf"], &[&ex, &other]);
        assert!(md.contains("## corpus: 2 recordings"));
        assert!(md.contains("min_floor_solo 0 ms"));
    }

    #[test]
    fn timing_only_drops_the_words() {
        let vtt = example().replace(".rttm", ".vtt");
        let strip = |v: &str| {
            let v: serde_json::Value = serde_json::from_str(v).unwrap();
            let mut v = v["conversations"][0].clone();
            v["recording"] = serde_json::Value::Null;
            v
        };
        // The structural rules, whose counts the rule book's worked example gives.
        let rules = ["--format", "json", "--classifier", "rules"];
        let text = strip(&run_to_string(&rules, &[&vtt]));
        assert_eq!(text["mode"]["Husband"], "text");
        assert_eq!(text["conversation"]["counts"]["interruptions"], 4);
        let timing = strip(&run_to_string(&[&rules[..], &["--timing-only"]].concat(), &[&vtt]));
        let rttm = strip(&run_to_string(&rules, &[&example()]));
        assert_eq!(timing, rttm);
        assert_eq!(timing["conversation"]["counts"]["interruptions"], 3);
    }

    #[test]
    fn seconds_are_rounded_to_centiseconds() {
        assert_eq!(secs(9050), "9.05");
        assert_eq!(secs(-150), "-0.15");
        assert_eq!(secs(4999), "5.00");
        assert_eq!(secs(0), "0.00");
    }
}
