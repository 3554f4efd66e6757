//! [`ScoreOptions`]: every convention that changes a diarization score, by name.
//!
//! Four tools compute "the" DER and disagree on inputs that are common in practice (see the
//! scoring notes, §6). Each disagreement is one field here, and each tool is one [`ScoringPreset`] that
//! sets the fields the way that tool behaves, quirks included where they change numbers.
//!
//! | field | md-eval-22 | dscore | pyannote.metrics | spyder | overtalk |
//! | --- | --- | --- | --- | --- | --- |
//! | [`default_region`](ScoreOptions::default_region) | reference extent | union | union | union | union |
//! | [`self_overlap`](ScoreOptions::self_overlap) | union | merge | count each | merge touching | merge |
//! | [`map_stage`](ScoreOptions::map_stage) | before collar | before | **after** | before | before |
//! | [`uem_ids`](ScoreOptions::uem_ids) | drop first `.x` | cut last extension | exact | exact | exact |
//! | [`drop_outside_uem`](ScoreOptions::drop_outside_uem) | no | **yes** | no | **yes** | no |
//! | [`trim_before_collar`](ScoreOptions::trim_before_collar) | no | **yes** | no | no | no |
//! | [`float_ends`](ScoreOptions::float_ends) | no | **yes** | no | **yes** | no |
//! | [`zero_length`](ScoreOptions::zero_length) | ignore | **reject** | ignore | **extend to end** | ignore |
//! | [`hypothesis_only`](ScoreOptions::hypothesis_only) | ignore | ignore | false alarm | ignore | false alarm |
//! | [`zero_scored`](ScoreOptions::zero_scored) | undefined | 0 or 100 % | 0 or 100 % | undefined | undefined |
//! | [`jer`](ScoreOptions::jer) | — | frames | continuous | — | frames |
//!
//! The collar is always stored **per side** (md-eval `-c`, dscore `--collar`, spyder `collar`).
//! pyannote.metrics' `collar` is the total width: pyannote `collar=0.5` is `collar` 0.25 here.

use serde::{Deserialize, Serialize};

use crate::time::{Delta, FrameGrid};

/// A named set of conventions reproducing one tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScoringPreset {
    /// md-eval arithmetic, union default region, self-overlap merged, exact ids (the default).
    Overtalk,
    /// NIST `md-eval-22.pl` run directly.
    MdEval,
    /// `nryant/dscore` `score.py` (md-eval after its own pre-processing; JER on 10 ms frames).
    Dscore,
    /// `pyannote.metrics` 4.x `DiarizationErrorRate` / `JaccardErrorRate`.
    Pyannote,
    /// `spy-der` 0.4.
    Spyder,
}

crate::named::named_enum!(ScoringPreset, "scoring preset");

impl ScoringPreset {
    /// Every preset, in display order.
    pub const ALL: [ScoringPreset; 5] = [
        ScoringPreset::Overtalk,
        ScoringPreset::MdEval,
        ScoringPreset::Dscore,
        ScoringPreset::Pyannote,
        ScoringPreset::Spyder,
    ];

    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            ScoringPreset::Overtalk => "overtalk",
            ScoringPreset::MdEval => "md-eval",
            ScoringPreset::Dscore => "dscore",
            ScoringPreset::Pyannote => "pyannote",
            ScoringPreset::Spyder => "spyder",
        }
    }

    /// The preset with this name.
    pub fn from_name(name: &str) -> Option<ScoringPreset> {
        ScoringPreset::ALL.into_iter().find(|p| p.name() == name)
    }
}

/// The scoring region of a recording that has no UEM entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DefaultRegion {
    /// From the first to the last turn of reference **or** hypothesis (dscore, pyannote, spyder).
    ///
    /// ```text
    /// ref          [████)   [██)
    /// hyp      [██)     [████████)
    /// region   [████████████████)
    /// ```
    Union,
    /// From the first to the last *reference* turn (md-eval): hypothesis speech before or after
    /// is never scored.
    Reference,
}

impl DefaultRegion {
    /// Every value, in documentation order.
    pub const ALL: [DefaultRegion; 2] = [DefaultRegion::Union, DefaultRegion::Reference];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            DefaultRegion::Union => "union",
            DefaultRegion::Reference => "reference",
        }
    }
}

crate::named::named_enum!(DefaultRegion, "default region");

/// What a speaker overlapping themselves (two turns of one label at once) counts as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SelfOverlap {
    /// The speaker counts once where their turns overlap, but collars and overlap exclusion see
    /// every turn (md-eval).
    Union,
    /// Overlapping turns of one speaker are merged before anything else (dscore); touching
    /// turns stay apart.
    Merge,
    /// Overlapping **and touching** turns are merged before anything else (spyder), so the
    /// collar at the junction of touching turns disappears.
    MergeTouching,
    /// Every turn counts: a speaker with two turns at once counts twice (pyannote).
    CountEach,
}

impl SelfOverlap {
    /// Every value, in documentation order.
    pub const ALL: [SelfOverlap; 4] = [
        SelfOverlap::Union,
        SelfOverlap::Merge,
        SelfOverlap::MergeTouching,
        SelfOverlap::CountEach,
    ];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            SelfOverlap::Union => "union",
            SelfOverlap::Merge => "merge",
            SelfOverlap::MergeTouching => "merge-touching",
            SelfOverlap::CountEach => "count-each",
        }
    }
}

crate::named::named_enum!(SelfOverlap, "self-overlap rule");

/// When the speaker mapping is computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MapStage {
    /// On the evaluation region before collars and overlap exclusion (md-eval, dscore, spyder).
    BeforeCollar,
    /// On the scored region, after collars and overlap exclusion (pyannote).
    AfterCollar,
}

impl MapStage {
    /// Every value, in documentation order.
    pub const ALL: [MapStage; 2] = [MapStage::BeforeCollar, MapStage::AfterCollar];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            MapStage::BeforeCollar => "before-collar",
            MapStage::AfterCollar => "after-collar",
        }
    }
}

crate::named::named_enum!(MapStage, "mapping stage");

/// How reference and hypothesis speakers are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MappingMethod {
    /// One-to-one pairing maximising total co-occurrence (Hungarian algorithm).
    Hungarian,
    /// Pairs taken in decreasing co-occurrence while both are free.
    Greedy,
}

impl MappingMethod {
    /// Every value, in documentation order.
    pub const ALL: [MappingMethod; 2] = [MappingMethod::Hungarian, MappingMethod::Greedy];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            MappingMethod::Hungarian => "hungarian",
            MappingMethod::Greedy => "greedy",
        }
    }
}

crate::named::named_enum!(MappingMethod, "mapping method");

/// Which part of the region is scored, by the number of reference speakers present.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ScoredRegions {
    /// Everything (the default).
    All,
    /// Everything except where two or more reference turns are active (md-eval `-1`, dscore
    /// `--ignore_overlaps`, pyannote `skip_overlap`, spyder `nonoverlap`); silence stays scored.
    NonOverlap,
    /// Only where exactly one reference speaker is active (spyder `single`): silence is dropped.
    Single,
    /// Only where two or more reference speakers are active (spyder `overlap`).
    Overlap,
}

impl ScoredRegions {
    /// Every value, in documentation order.
    pub const ALL: [ScoredRegions; 4] = [
        ScoredRegions::All,
        ScoredRegions::NonOverlap,
        ScoredRegions::Single,
        ScoredRegions::Overlap,
    ];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            ScoredRegions::All => "all",
            ScoredRegions::NonOverlap => "non-overlap",
            ScoredRegions::Single => "single",
            ScoredRegions::Overlap => "overlap",
        }
    }
}

crate::named::named_enum!(ScoredRegions, "scored-region rule");

/// How UEM recording ids are matched against RTTM recording ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum UemIds {
    /// The whole first field is the id.
    Exact,
    /// md-eval: directories are removed, then the first `.` with what follows it up to the next
    /// `.` (`s/\.[^.]*//`: `a.b.c` is `a.c`), so the UEM line for `EN2002a.Mix-Headset` silently
    /// stops matching.
    MdEval,
    /// dscore: the last extension is removed (`os.path.splitext`).
    Dscore,
}

impl UemIds {
    /// Every value, in documentation order.
    pub const ALL: [UemIds; 3] = [UemIds::Exact, UemIds::MdEval, UemIds::Dscore];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            UemIds::Exact => "exact",
            UemIds::MdEval => "md-eval",
            UemIds::Dscore => "dscore",
        }
    }
}

crate::named::named_enum!(UemIds, "UEM id rule");

/// What zero-length turns do (the model drops them on reading; they are passed separately).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ZeroLength {
    /// Ignored (md-eval, pyannote).
    Ignore,
    /// The whole run is refused (dscore: "Turn duration <= 0").
    Reject,
    /// The speaker stays active from the turn to the end of the scoring region (spyder: its end
    /// event sorts before its start event).
    ExtendToEnd,
}

impl ZeroLength {
    /// Every value, in documentation order.
    pub const ALL: [ZeroLength; 3] =
        [ZeroLength::Ignore, ZeroLength::Reject, ZeroLength::ExtendToEnd];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            ZeroLength::Ignore => "ignore",
            ZeroLength::Reject => "reject",
            ZeroLength::ExtendToEnd => "extend-to-end",
        }
    }
}

crate::named::named_enum!(ZeroLength, "zero-length rule");

/// What a recording with hypothesis turns but no reference file contributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HypothesisOnly {
    /// Nothing (md-eval and spyder iterate reference recordings only).
    Ignore,
    /// All of its speech is false alarm.
    FalseAlarm,
}

impl HypothesisOnly {
    /// Every value, in documentation order.
    pub const ALL: [HypothesisOnly; 2] = [HypothesisOnly::Ignore, HypothesisOnly::FalseAlarm];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            HypothesisOnly::Ignore => "ignore",
            HypothesisOnly::FalseAlarm => "false-alarm",
        }
    }
}

crate::named::named_enum!(HypothesisOnly, "hypothesis-only rule");

/// The DER of something with no scored reference time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ZeroScored {
    /// Undefined (`None`): md-eval and spyder crash here.
    Undefined,
    /// 0 when there is no error, else 100 % (pyannote, dscore per file).
    ZeroOrFull,
}

impl ZeroScored {
    /// Every value, in documentation order.
    pub const ALL: [ZeroScored; 2] = [ZeroScored::Undefined, ZeroScored::ZeroOrFull];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            ZeroScored::Undefined => "undefined",
            ZeroScored::ZeroOrFull => "zero-or-full",
        }
    }
}

crate::named::named_enum!(ZeroScored, "zero-scored rule");

/// Which Jaccard error rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum JerDefinition {
    /// dscore: 10 ms frames, no collar, no overlap exclusion, mapping minimising JER, mean over
    /// all reference speakers of all recordings.
    Frames,
    /// pyannote: continuous time, collars and overlap exclusion honoured, the DER mapping.
    Continuous,
}

impl JerDefinition {
    /// Every value, in documentation order.
    pub const ALL: [JerDefinition; 2] = [JerDefinition::Frames, JerDefinition::Continuous];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            JerDefinition::Frames => "frames",
            JerDefinition::Continuous => "continuous",
        }
    }
}

crate::named::named_enum!(JerDefinition, "JER definition");

/// Every convention of a diarization score.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreOptions {
    /// The preset these options started from (for reports).
    pub preset: ScoringPreset,
    /// No-score zone on **each side** of every reference turn boundary.
    pub collar: Delta,
    /// Which part of the region is scored.
    pub regions: ScoredRegions,
    /// Region of a recording without a UEM entry.
    pub default_region: DefaultRegion,
    /// Self-overlap policy, for reference and hypothesis alike.
    pub self_overlap: SelfOverlap,
    /// When the mapping is computed.
    pub map_stage: MapStage,
    /// How the mapping is computed.
    pub mapping: MappingMethod,
    /// UEM id matching.
    pub uem_ids: UemIds,
    /// When a UEM is given, recordings it does not list are dropped (dscore; spyder's command
    /// line gives them an empty region, and crashes with a collar) instead of being scored on
    /// the default region (md-eval, pyannote).
    pub drop_outside_uem: bool,
    /// Turns are cut at UEM edges before collars, so UEM edges inside a turn get collars too
    /// (dscore).
    pub trim_before_collar: bool,
    /// Onsets and durations are rounded to the millisecond first (dscore writes 3 decimals).
    pub round_to_millis: bool,
    /// Same-speaker turns are compared with ends computed as `onset + duration` in `f64`: in
    /// dscore's merge some touching turns count as overlapping and merge; in spyder's some
    /// touching turns (`34.58 + 1.16` against `35.74`) count as apart and do not.
    pub float_ends: bool,
    /// Zero-length turns.
    pub zero_length: ZeroLength,
    /// Recordings only in the hypothesis.
    pub hypothesis_only: HypothesisOnly,
    /// DER with no scored time.
    pub zero_scored: ZeroScored,
    /// Which JER.
    pub jer: JerDefinition,
    /// The frame grid of the frame-based JER and the clustering metrics (dscore's 10 ms),
    /// serialised as `frame_step`, its step in microseconds.
    #[serde(rename = "frame_step")]
    pub frame_grid: FrameGrid,
}

impl Default for ScoreOptions {
    fn default() -> ScoreOptions {
        ScoreOptions::preset(ScoringPreset::Overtalk)
    }
}

impl ScoreOptions {
    /// The conventions of one tool, with collar 0 and overlap scored.
    pub fn preset(preset: ScoringPreset) -> ScoreOptions {
        let base = ScoreOptions {
            preset,
            collar: Delta::ZERO,
            regions: ScoredRegions::All,
            default_region: DefaultRegion::Union,
            self_overlap: SelfOverlap::Merge,
            map_stage: MapStage::BeforeCollar,
            mapping: MappingMethod::Hungarian,
            uem_ids: UemIds::Exact,
            drop_outside_uem: false,
            trim_before_collar: false,
            round_to_millis: false,
            float_ends: false,
            zero_length: ZeroLength::Ignore,
            hypothesis_only: HypothesisOnly::FalseAlarm,
            zero_scored: ZeroScored::Undefined,
            jer: JerDefinition::Frames,
            frame_grid: FrameGrid::TEN_MS,
        };
        match preset {
            ScoringPreset::Overtalk => base,
            ScoringPreset::MdEval => ScoreOptions {
                default_region: DefaultRegion::Reference,
                self_overlap: SelfOverlap::Union,
                uem_ids: UemIds::MdEval,
                hypothesis_only: HypothesisOnly::Ignore,
                ..base
            },
            ScoringPreset::Dscore => ScoreOptions {
                uem_ids: UemIds::Dscore,
                drop_outside_uem: true,
                trim_before_collar: true,
                round_to_millis: true,
                float_ends: true,
                zero_length: ZeroLength::Reject,
                hypothesis_only: HypothesisOnly::Ignore,
                ..base
            },
            ScoringPreset::Pyannote => ScoreOptions {
                self_overlap: SelfOverlap::CountEach,
                map_stage: MapStage::AfterCollar,
                zero_scored: ZeroScored::ZeroOrFull,
                jer: JerDefinition::Continuous,
                ..base
            },
            ScoringPreset::Spyder => ScoreOptions {
                self_overlap: SelfOverlap::MergeTouching,
                float_ends: true,
                drop_outside_uem: true,
                zero_length: ZeroLength::ExtendToEnd,
                hypothesis_only: HypothesisOnly::Ignore,
                ..base
            },
        }
    }

    /// The same options with a collar per side.
    pub fn with_collar(mut self, per_side: Delta) -> ScoreOptions {
        self.collar = per_side;
        self
    }

    /// The same options with overlapped reference speech excluded (or not).
    pub fn with_skip_overlap(mut self, skip: bool) -> ScoreOptions {
        self.regions = if skip { ScoredRegions::NonOverlap } else { ScoredRegions::All };
        self
    }

    /// The collar as pyannote.metrics counts it: the total width, twice the per-side collar.
    pub fn collar_total_width(&self) -> Delta {
        Delta::from_micros(self.collar.micros().saturating_mul(2))
    }

    /// One line per convention, for printing beside every result.
    pub fn describe(&self) -> Vec<(&'static str, String)> {
        let name = |v: &dyn erased::Named| v.kebab();
        vec![
            ("preset", self.preset.name().to_owned()),
            (
                "collar",
                format!(
                    "{} s per side (pyannote collar={} s total width)",
                    self.collar,
                    self.collar_total_width()
                ),
            ),
            ("regions", name(&self.regions)),
            ("default region (no UEM)", name(&self.default_region)),
            ("self-overlap", name(&self.self_overlap)),
            ("mapping", format!("{} {}", name(&self.mapping), name(&self.map_stage))),
            ("UEM ids", name(&self.uem_ids)),
            (
                "recordings outside the UEM",
                if self.drop_outside_uem { "dropped" } else { "default region" }.to_owned(),
            ),
            ("trim to UEM before collars", self.trim_before_collar.to_string()),
            ("round to ms", self.round_to_millis.to_string()),
            ("float ends (merge)", self.float_ends.to_string()),
            ("zero-length turns", name(&self.zero_length)),
            ("hypothesis-only recordings", name(&self.hypothesis_only)),
            ("no scored time", name(&self.zero_scored)),
            ("JER", format!("{} (step {} s)", name(&self.jer), self.frame_grid.step())),
        ]
    }
}

/// Kebab-case names of the option enums (their serde names), for reports.
mod erased {
    pub trait Named {
        fn kebab(&self) -> String;
    }
    impl<T: serde::Serialize> Named for T {
        fn kebab(&self) -> String {
            match serde_json::to_value(self) {
                Ok(serde_json::Value::String(s)) => s,
                Ok(v) => v.to_string(),
                Err(_) => String::new(),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preset_names_round_trip() {
        for p in ScoringPreset::ALL {
            assert_eq!(ScoringPreset::from_name(p.name()), Some(p));
            assert_eq!(ScoreOptions::preset(p).preset, p);
        }
        assert_eq!(ScoringPreset::from_name("nist"), None);
    }

    #[test]
    fn collar_total_width_is_twice_per_side() {
        let o = ScoreOptions::default().with_collar(Delta::from_millis(250));
        assert_eq!(o.collar_total_width(), Delta::from_millis(500));
        let d = o.describe();
        assert_eq!(d[1].1, "0.250 s per side (pyannote collar=0.500 s total width)");
        assert_eq!(d[4].1, "merge");
        assert_eq!(d[5].1, "hungarian before-collar");
    }

    #[test]
    fn presets_differ_where_the_tools_do() {
        let md = ScoreOptions::preset(ScoringPreset::MdEval);
        assert_eq!(md.default_region, DefaultRegion::Reference);
        assert_eq!(md.uem_ids, UemIds::MdEval);
        let py = ScoreOptions::preset(ScoringPreset::Pyannote);
        assert_eq!(py.map_stage, MapStage::AfterCollar);
        assert_eq!(py.self_overlap, SelfOverlap::CountEach);
        let sp = ScoreOptions::preset(ScoringPreset::Spyder);
        assert_eq!(sp.self_overlap, SelfOverlap::MergeTouching);
        let ds = ScoreOptions::preset(ScoringPreset::Dscore);
        assert!(ds.trim_before_collar && ds.round_to_millis && ds.drop_outside_uem);
    }
}
