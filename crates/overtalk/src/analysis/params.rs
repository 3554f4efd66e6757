//! Every parameter of conversation-metrics.md §5.2, with its default and the three presets.
//!
//! All durations are integer milliseconds, like every time inside the analysis. The struct
//! (de)serialises with serde; a TOML or JSON config may give any subset of the fields and the
//! rest keep their defaults (`#[serde(default)]`), so `overtalk analyze --config overtalk.toml`
//! can set one value without restating the others:
//!
//! ```toml
//! bridge_pause = 150
//! terminal_window = 250
//! ```

use serde::{Deserialize, Serialize};

use super::units::Millis;
use crate::error::{Error, Result};

/// The decision horizons with a fitted model (ms after the onset; `None`: unbounded).
pub const HORIZONS: [Option<Millis>; 4] =
    [Some(Millis::new(250)), Some(Millis::new(500)), Some(Millis::new(1000)), None];

/// The 30 single-word cues of the CANDOR/NaturalTurn backchannel list plus spelling variants,
/// and the commonest continuers of the other languages overtalk users transcribe (§5.2
/// `bc_lexicon`, (R13)).
pub const BC_LEXICON: &[&str] = &[
    "a",
    "ah",
    "alright",
    "awesome",
    "cool",
    "dope",
    "e",
    "exactly",
    "god",
    "gotcha",
    "huh",
    "hmm",
    "mhm",
    "mm",
    "mmm",
    "nice",
    "oh",
    "okay",
    "really",
    "right",
    "sick",
    "sucks",
    "sure",
    "uh",
    "um",
    "wow",
    "yeah",
    "yep",
    "yes",
    "yup", // CANDOR cues
    "mm-hmm",
    "mm-hm",
    "mmhmm",
    "mhmm",
    "uh-huh",
    "uhhuh",
    "uh-hum",
    "ok", // variants
    "hm",
    "hum",
    "mh",
    "mhh", // hesitation spellings of other transcription conventions
    "ouais",
    "oui",
    "d'accord",
    "voilà",
    "exactement", // French
    "ja",
    "jaja",
    "genau",
    "stimmt",
    "achso",
    "aha", // German
    "sí",
    "vale",
    "claro",
    "ajá",
    "exacto", // Spanish
    "certo",
    "esatto",
    "uhum",
    "jawel",
    "precies",
    "inderdaad", // Italian, Portuguese, Dutch
];

/// The 15 CANDOR "not-backchannel" first words (§5.2 `bc_forbidden_first`).
pub const BC_FORBIDDEN_FIRST: &[&str] = &[
    "and", "but", "i", "i'm", "it", "it's", "like", "so", "that", "that's", "we", "we're", "well",
    "you", "you're",
];

/// Phrases by which a speaker claims the floor in words ("let me finish"). Matched on
/// normalised tokens (§5.1), so punctuation and case do not matter. Replace the list with
/// `verbal_claim_phrases` in a config file.
pub const VERBAL_CLAIM_PHRASES: &[&str] = &[
    "let me finish",
    "let me speak",
    "let me talk",
    "when i'm talking",
    "when i am talking",
    "you're not talking",
    "can i finish",
    "may i finish",
    "i wasn't done",
    "i wasn't finished",
    "i'm not done",
    "i'm not finished",
    "you're interrupting",
    "stop interrupting",
    "don't interrupt",
    "hold on",
    "wait a minute",
    "excuse me",
    "stop",
];

/// The named parameter sets of §5.2 (the CLI spells them `default`, `he2010`, `pure-jf`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AnalysisPreset {
    /// The §5.2 table.
    Default,
    /// Heldner & Edlund 2010 / CANDOR-style intervals: `bridge_pause` 20 ms, `min_segment` 0.
    /// Read H&E statistics from the acoustic layer (which never removes backchannels).
    He2010,
    /// Pure Jaffe & Feldstein floor rule: `min_floor_solo` 0 (any solo stretch claims).
    PureJf,
}

crate::named::named_enum!(AnalysisPreset, "analysis preset");

impl AnalysisPreset {
    /// Every preset.
    pub const ALL: [AnalysisPreset; 3] =
        [AnalysisPreset::Default, AnalysisPreset::He2010, AnalysisPreset::PureJf];

    /// The preset's CLI name.
    pub fn name(self) -> &'static str {
        match self {
            AnalysisPreset::Default => "default",
            AnalysisPreset::He2010 => "he2010",
            AnalysisPreset::PureJf => "pure-jf",
        }
    }

    /// Parses `default`, `he2010`, `pure-jf` (also `pure_jf`).
    pub fn parse(name: &str) -> Option<AnalysisPreset> {
        match name {
            "default" => Some(AnalysisPreset::Default),
            "he2010" => Some(AnalysisPreset::He2010),
            "pure-jf" | "pure_jf" => Some(AnalysisPreset::PureJf),
            _ => None,
        }
    }
}

/// Which definition decides backchannels and interruption classes (§5.8).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Classifier {
    /// The structural rules of §5.4 (S5 conditions 1–5, S8 rules 1–3): the published
    /// definitions, exact on the worked examples W1–W6.
    #[default]
    Rules,
    /// The classifier calibrated on human labels (ICSI MRDA, [`super::calibrated`]): decides
    /// which talkspurts are backchannels and which onsets are interruptions, with a
    /// probability per event. The rules still build the floor, the turns and the onsets.
    Calibrated,
    /// The calibrated classifier with the three-way talkspurt decision of §5.8 (backchannel,
    /// floor-taking attempt or floor talk, one model): a short talkspurt that the model takes
    /// for an attempt stays on the floor, so it becomes an onset that the onset model (fitted
    /// on the onsets this decision leaves) scores for its outcome.
    Joint,
}

crate::named::named_enum!(Classifier, "classifier");

impl Classifier {
    /// Every classifier.
    pub const ALL: [Classifier; 3] = [Classifier::Rules, Classifier::Calibrated, Classifier::Joint];

    /// The CLI and JSON name (`rules`, `calibrated`, `joint`).
    pub fn name(self) -> &'static str {
        match self {
            Classifier::Rules => "rules",
            Classifier::Calibrated => "calibrated",
            Classifier::Joint => "joint",
        }
    }

    /// Whether the classifier is fitted on human labels (either calibrated variant).
    pub fn is_calibrated(self) -> bool {
        self != Classifier::Rules
    }
}

/// All analysis parameters (§5.2); durations in milliseconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Params {
    /// |between-speaker interval| ≤ this ⇒ no-gap-no-overlap (NGNO).
    pub latch_tolerance: Millis,
    /// Segments with duration ≤ this are dropped (zero-length ones always are).
    pub min_segment: Millis,
    /// Same-speaker segments separated by a silence shorter than this merge into one talkspurt.
    pub bridge_pause: Millis,
    /// Pauses and gaps shorter than this go to a "micro" bin in histograms only.
    pub pause_report_min: Millis,
    /// A backchannel lasts at most this long.
    pub bc_max_duration: Millis,
    /// A backchannel has at most this many tokens (text mode).
    pub bc_max_words: usize,
    /// The share of cue tokens in a backchannel must be strictly greater than this.
    pub bc_min_cue_share: f64,
    /// Backchannel cue words (normalised, §5.1).
    pub bc_lexicon: Vec<String>,
    /// A backchannel must not start with one of these (normalised).
    pub bc_forbidden_first: Vec<String>,
    /// The backchannel speaker was silent at least this long before.
    pub bc_pre_silence: Millis,
    /// The backchannel speaker stays silent at least this long after.
    pub bc_post_silence: Millis,
    /// Another speaker was talking at the backchannel's onset or stopped less than this before.
    pub bc_context: Millis,
    /// That other speaker talks during the backchannel or resumes within this after it.
    pub bc_resume_window: Millis,
    /// An overlapped talkspurt claims the floor only through a solo stretch at least this long.
    pub min_floor_solo: Millis,
    /// An onset within this of a completion point of the holder is a terminal overlap.
    pub terminal_window: Millis,
    /// Two onsets this close, with no third speaker talking, are a simultaneous start.
    pub simul_start_tol: Millis,
    /// A silent interruption needs the gap after the incomplete utterance to be at most this.
    pub silent_int_max_gap: Millis,
    /// Gaps and pauses at least this long are "long".
    pub long_silence: Millis,
    /// Turns at least this long are monologues.
    pub monologue_min: Millis,
    /// Window of the windowed talk balance.
    pub balance_window: Millis,
    /// Step of the windowed talk balance.
    pub balance_step: Millis,
    /// A window is dominated by a speaker whose share is strictly greater than this.
    pub balance_dominance: f64,
    /// Backchannels count as talk time.
    pub bc_counts_as_talk: bool,
    /// Laughter-only talkspurts are floor-relevant talk (otherwise non-floor material).
    pub laughter_is_floor: bool,
    /// Speaker labels that are not speakers (dropped in S1); default: the empty label.
    pub ignore_labels: Vec<String>,
    /// Floor claims in words: phrases matched on normalised tokens (overtalk extension).
    pub verbal_claim_phrases: Vec<String>,
    /// A verbal floor claim answers an onset by someone else whose talkspurt ended at most this
    /// long before the phrase (or is still running) (overtalk extension).
    pub verbal_claim_window: Millis,
    /// Which definition decides backchannels and interruptions (overtalk extension, §5.8).
    pub classifier: Classifier,
    /// The calibrated classifier decides each event from evidence up to this long after its
    /// onset (`null`: the whole conversation). One of the fitted horizons: 250, 500, 1000 ms
    /// (overtalk extension, §5.8).
    pub decision_horizon: Option<Millis>,
}

impl Default for Params {
    fn default() -> Params {
        let strings = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect();
        Params {
            latch_tolerance: Millis::new(10),
            min_segment: Millis::new(0),
            bridge_pause: Millis::new(200),
            pause_report_min: Millis::new(0),
            bc_max_duration: Millis::new(1000),
            bc_max_words: 3,
            bc_min_cue_share: 0.5,
            bc_lexicon: strings(BC_LEXICON),
            bc_forbidden_first: strings(BC_FORBIDDEN_FIRST),
            bc_pre_silence: Millis::new(1000),
            bc_post_silence: Millis::new(1000),
            bc_context: Millis::new(1000),
            bc_resume_window: Millis::new(1000),
            min_floor_solo: Millis::new(500),
            terminal_window: Millis::new(300),
            simul_start_tol: Millis::new(200),
            silent_int_max_gap: Millis::new(1000),
            long_silence: Millis::new(1000),
            monologue_min: Millis::new(60_000),
            balance_window: Millis::new(150_000),
            balance_step: Millis::new(30_000),
            balance_dominance: 0.6,
            bc_counts_as_talk: true,
            laughter_is_floor: false,
            ignore_labels: vec![String::new()],
            verbal_claim_phrases: strings(VERBAL_CLAIM_PHRASES),
            verbal_claim_window: Millis::new(2000),
            classifier: Classifier::Rules,
            decision_horizon: None,
        }
    }
}

impl Params {
    /// The parameters of a preset.
    pub fn preset(preset: AnalysisPreset) -> Params {
        let mut p = Params::default();
        match preset {
            AnalysisPreset::Default => {}
            AnalysisPreset::He2010 => {
                p.bridge_pause = Millis::new(20);
                p.min_segment = Millis::ZERO;
            }
            AnalysisPreset::PureJf => p.min_floor_solo = Millis::ZERO,
        }
        p
    }

    /// Checks that every duration is non-negative, the shares are in `[0, 1]` and the windows
    /// are positive.
    pub fn validate(&self) -> Result<()> {
        let durations = [
            ("latch_tolerance", self.latch_tolerance),
            ("min_segment", self.min_segment),
            ("bridge_pause", self.bridge_pause),
            ("pause_report_min", self.pause_report_min),
            ("bc_max_duration", self.bc_max_duration),
            ("bc_pre_silence", self.bc_pre_silence),
            ("bc_post_silence", self.bc_post_silence),
            ("bc_context", self.bc_context),
            ("bc_resume_window", self.bc_resume_window),
            ("min_floor_solo", self.min_floor_solo),
            ("terminal_window", self.terminal_window),
            ("simul_start_tol", self.simul_start_tol),
            ("silent_int_max_gap", self.silent_int_max_gap),
            ("long_silence", self.long_silence),
            ("monologue_min", self.monologue_min),
            ("verbal_claim_window", self.verbal_claim_window),
        ];
        for (name, v) in durations {
            if !(0..=crate::time::MAX_MICROS / 1000).contains(&v.get()) {
                return Err(Error::invalid(format!("parameter {name} = {v} ms is out of range")));
            }
        }
        for (name, v) in
            [("balance_window", self.balance_window), ("balance_step", self.balance_step)]
        {
            if v.get() <= 0 || v.get() > crate::time::MAX_MICROS / 1000 {
                return Err(Error::invalid(format!("parameter {name} = {v} ms is out of range")));
            }
        }
        for (name, v) in [
            ("bc_min_cue_share", self.bc_min_cue_share),
            ("balance_dominance", self.balance_dominance),
        ] {
            if !(0.0..=1.0).contains(&v) {
                return Err(Error::invalid(format!("parameter {name} must be in [0, 1], got {v}")));
            }
        }
        if let Some(h) = self.decision_horizon {
            if !HORIZONS.contains(&Some(h)) {
                return Err(Error::invalid(format!(
                    "parameter decision_horizon = {h} ms has no fitted classifier: use 250, 500 or 1000 ms, or leave it unbounded"
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_the_table() {
        let p = Params::default();
        assert_eq!(p.bridge_pause, Millis::new(200));
        assert_eq!(p.min_floor_solo, Millis::new(500));
        assert_eq!(p.bc_lexicon.len(), 64);
        assert_eq!(p.bc_forbidden_first.len(), 15);
        assert!(p.validate().is_ok());
    }

    #[test]
    fn presets_change_only_their_fields() {
        let he = Params::preset(AnalysisPreset::He2010);
        assert_eq!(
            (he.bridge_pause.get(), he.min_segment.get(), he.min_floor_solo.get()),
            (20, 0, 500)
        );
        let jf = Params::preset(AnalysisPreset::PureJf);
        assert_eq!((jf.bridge_pause.get(), jf.min_floor_solo.get()), (200, 0));
        assert_eq!(AnalysisPreset::parse("pure_jf"), Some(AnalysisPreset::PureJf));
        assert_eq!(AnalysisPreset::parse("x"), None);
    }

    #[test]
    fn partial_config_keeps_defaults_and_rejects_unknown_fields() {
        let p: Params = serde_json::from_str(r#"{"bridge_pause": 150}"#).unwrap();
        assert_eq!((p.bridge_pause.get(), p.terminal_window.get()), (150, 300));
        assert!(serde_json::from_str::<Params>(r#"{"bridge_paus": 150}"#).is_err());
        let bad = Params { bc_min_cue_share: 1.5, ..Params::default() };
        assert!(bad.validate().is_err());
    }
}
