//! How to analyse: the preset, a config file, timing-only, the classifier and one flag per
//! parameter, layered into the library's [`Params`]. Shared by `analyze` and `report`.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::builder::TypedValueParser;
use overtalk::analysis::{AnalysisPreset, Classifier, Millis, Params};

use crate::named_arg::named;

/// How to analyse: the preset, a config file, timing-only, and one flag per parameter. Shared by
/// `analyze` and `report`.
#[derive(Debug, clap::Args)]
pub(crate) struct AnalysisArgs {
    /// Parameter preset. (`score --events` names it `--analysis-preset`, beside its scoring
    /// `--preset`; the id says which.)
    #[arg(id = "analysis_preset", long = "preset", value_name = "PRESET", default_value = "default", value_parser = named::<AnalysisPreset>().map(|p| p.name().to_owned()))]
    pub(crate) preset: String,
    /// TOML file of parameters (any subset of the names below, in snake_case; `preset = "…"`
    /// is also accepted).
    #[arg(long, value_name = "FILE")]
    pub(crate) config: Option<PathBuf>,
    /// Ignore words and text: judge completion and backchannels by timing only.
    #[arg(long)]
    pub(crate) timing_only: bool,
    /// What decides backchannels and interruptions: `rules` (the rule book's structural
    /// definitions, §5.4), `calibrated` (the classifier fitted on human labels, §5.8, with a
    /// probability per event) or `joint` (calibrated, with the three-way talkspurt decision:
    /// backchannel, floor-taking attempt or floor talk). Default: calibrated.
    #[arg(long, value_name = "CLASSIFIER", value_parser = named::<Classifier>())]
    classifier: Option<Classifier>,
    /// With `--classifier calibrated` or `joint`: decide each event from evidence up to this long after
    /// its onset (250, 500 or 1000 ms; default: unbounded).
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    decision_horizon: Option<i64>,
    #[command(flatten)]
    p: Box<ParamFlags>,
    #[command(flatten)]
    pub(crate) words: crate::input::words::WordsArgs,
}

/// One flag per scalar parameter (conversation-metrics.md §5.2).
#[derive(Debug, Default, clap::Args)]
#[command(next_help_heading = "Parameters (milliseconds unless noted)")]
struct ParamFlags {
    /// |between-speaker interval| ≤ this is no-gap-no-overlap.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    latch_tolerance: Option<i64>,
    /// Drop segments no longer than this.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    min_segment: Option<i64>,
    /// Merge a speaker's segments separated by less than this.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    bridge_pause: Option<i64>,
    /// Histogram bin for micro pauses and gaps.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    pause_report_min: Option<i64>,
    /// Longest backchannel.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    bc_max_duration: Option<i64>,
    /// Most words in a backchannel.
    #[arg(long, value_name = "N")]
    bc_max_words: Option<usize>,
    /// Share of cue words a backchannel must exceed (0–1).
    #[arg(long, value_name = "SHARE")]
    bc_min_cue_share: Option<f64>,
    /// Silence of the backchannel speaker before it.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    bc_pre_silence: Option<i64>,
    /// Silence of the backchannel speaker after it.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    bc_post_silence: Option<i64>,
    /// Another speaker talked at most this long before the backchannel.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    bc_context: Option<i64>,
    /// That speaker resumes within this after the backchannel.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    bc_resume_window: Option<i64>,
    /// Solo stretch an overlapped talkspurt needs to claim the floor.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    min_floor_solo: Option<i64>,
    /// Onsets this close to a completion point are terminal overlaps.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    terminal_window: Option<i64>,
    /// Onsets this close are a simultaneous start.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    simul_start_tol: Option<i64>,
    /// Longest gap after an incomplete utterance for a silent interruption.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    silent_int_max_gap: Option<i64>,
    /// Gaps and pauses at least this long are long.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    long_silence: Option<i64>,
    /// Turns at least this long are monologues.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    monologue_min: Option<i64>,
    /// Window of the talk balance.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    balance_window: Option<i64>,
    /// Step of the talk balance.
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
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
    #[arg(long, value_name = "MS", value_parser = crate::time_arg::millis)]
    verbal_claim_window: Option<i64>,
    /// Speaker label to ignore (repeatable; replaces the default, the empty label).
    #[arg(long, value_name = "LABEL")]
    ignore_label: Vec<String>,
}

impl AnalysisArgs {
    /// Resolves the parameters: preset, then the config file, then the flags.
    pub(crate) fn params(&self) -> Result<Params> {
        resolve_params(self, DEFAULT_CLASSIFIER)
    }

    /// [`AnalysisArgs::params`] with another classifier when neither `--classifier` nor the
    /// config names one (`score --events` scores the rule book's definitions by default).
    pub(crate) fn params_with_classifier(&self, default: Classifier) -> Result<Params> {
        resolve_params(self, default)
    }
}

/// The classifier when neither `--classifier` nor the config names one: calibrated, which
/// agrees with people better on the MRDA val split in text and timing-only mode
/// (docs/agreement.md).
const DEFAULT_CLASSIFIER: Classifier = Classifier::Calibrated;

fn resolve_params(args: &AnalysisArgs, default_classifier: Classifier) -> Result<Params> {
    let mut preset = AnalysisPreset::parse(&args.preset).context("unknown preset")?;
    let mut table = toml::Table::new();
    if let Some(path) = &args.config {
        let text =
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
        table =
            text.parse::<toml::Table>().with_context(|| format!("parsing {}", path.display()))?;
        if let Some(v) = table.remove("preset") {
            let name = v.as_str().context("`preset` in the config must be a string")?;
            preset = AnalysisPreset::parse(name)
                .with_context(|| format!("{}: unknown preset {name:?}", path.display()))?;
        }
    }
    let mut base_params = Params::preset(preset);
    base_params.classifier = default_classifier;
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
    // Durations are given in whole milliseconds on the command line.
    macro_rules! set_ms {
        ($($name:ident),*) => { $( if let Some(v) = f.$name { p.$name = Millis::new(v); } )* };
    }
    macro_rules! set {
        ($($name:ident),*) => { $( if let Some(v) = f.$name { p.$name = v; } )* };
    }
    set_ms!(
        latch_tolerance,
        min_segment,
        bridge_pause,
        pause_report_min,
        bc_max_duration,
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
        verbal_claim_window
    );
    set!(bc_max_words, bc_min_cue_share, balance_dominance, bc_counts_as_talk, laughter_is_floor);
    if !f.ignore_label.is_empty() {
        p.ignore_labels = f.ignore_label.clone();
    }
    p.classifier = args.classifier.unwrap_or(p.classifier);
    if args.decision_horizon.is_some() {
        p.decision_horizon = args.decision_horizon.map(Millis::new);
    }
    if p.decision_horizon.is_some() && !p.classifier.is_calibrated() {
        bail!("--decision-horizon applies to --classifier calibrated or joint only");
    }
    p.validate()?;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct T {
        #[command(flatten)]
        a: AnalysisArgs,
    }

    fn parse(extra: &[&str]) -> AnalysisArgs {
        let mut argv = vec!["analyze"];
        argv.extend_from_slice(extra);
        T::try_parse_from(argv).unwrap().a
    }

    #[test]
    fn parameters_layer_preset_then_config_then_flags() {
        let p = parse(&[]).params().unwrap();
        assert_eq!(p, Params { classifier: DEFAULT_CLASSIFIER, ..Params::default() });
        let p = parse(&["--preset", "he2010", "--min-floor-solo", "250"]).params().unwrap();
        assert_eq!((p.bridge_pause.get(), p.min_floor_solo.get()), (20, 250));
        let dir = tempfile::tempdir().unwrap();
        let cfg = dir.path().join("overtalk.toml");
        std::fs::write(
            &cfg,
            "preset = \"pure-jf\"\nterminal_window = 250\nbc_lexicon = [\"yeah\"]\n",
        )
        .unwrap();
        let c = cfg.to_str().unwrap();
        let p = parse(&["--config", c, "--terminal-window", "280"]).params().unwrap();
        assert_eq!(
            (p.min_floor_solo.get(), p.terminal_window.get(), p.bc_lexicon.len()),
            (0, 280, 1)
        );
        std::fs::write(&cfg, "bridge_paus = 1\n").unwrap();
        assert!(parse(&["--config", c]).params().is_err());
        std::fs::write(&cfg, "bridge_pause = -1\n").unwrap();
        assert!(parse(&["--config", c]).params().is_err());
        assert!(parse(&["--bc-min-cue-share", "2"]).params().is_err());
    }
}
