//! The one rule for enums whose values have names (CLI values, JSON strings, table columns):
//! an inherent `ALL` (every value, in documentation order) and `name(self) -> &'static str`,
//! from which [`Display`](std::fmt::Display) writes the name and
//! [`FromStr`](std::str::FromStr) reads it back, failing with an [`UnknownName`] that lists
//! the names it knows.
//!
//! ```
//! use overtalk::score::ScoringPreset;
//!
//! let preset: ScoringPreset = "dscore".parse().unwrap();
//! assert_eq!(preset.to_string(), "dscore");
//! assert!(ScoringPreset::ALL.iter().all(|p| p.name().parse::<ScoringPreset>() == Ok(*p)));
//! let err = "nist".parse::<ScoringPreset>().unwrap_err();
//! assert_eq!(err.to_string(), "unknown scoring preset \"nist\" (known: overtalk, md-eval, dscore, pyannote, spyder)");
//! ```

use std::fmt;

/// A name that no value of an enum has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    kind: &'static str,
    given: String,
    known: Vec<&'static str>,
}

impl UnknownName {
    /// `given` is not one of `known`, the names of a `kind` ("scoring preset").
    pub fn new(
        kind: &'static str,
        given: &str,
        known: impl IntoIterator<Item = &'static str>,
    ) -> UnknownName {
        UnknownName { kind, given: given.to_string(), known: known.into_iter().collect() }
    }

    /// The names that would have been accepted.
    pub fn known(&self) -> &[&'static str] {
        &self.known
    }
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown {} \"{}\" (known: {})", self.kind, self.given, self.known.join(", "))
    }
}

impl std::error::Error for UnknownName {}

/// An enum whose values have names, seen through one trait: its `ALL` and `name`, for code
/// that works on any of them (the command line builds its value parsers on it, so `--help`
/// lists the names and a wrong one is refused with the list). `named_enum!` implements it.
pub trait Named: Copy + Send + Sync + 'static {
    /// Every value, in documentation order (the type's `ALL`).
    fn all() -> &'static [Self];
    /// The value's name (the type's `name`).
    fn name(self) -> &'static str;
}

/// `named_enum!(Type, "what it names")`: `Display`, `FromStr` and [`Named`] from the type's
/// inherent `ALL` and `name`. Exported so that the other crates' named enums (the audio
/// crate's `DiarizerChoice`) follow the same rule with the same code.
#[macro_export]
macro_rules! named_enum {
    ($ty:ty, $kind:literal) => {
        impl $crate::named::Named for $ty {
            fn all() -> &'static [$ty] {
                &<$ty>::ALL
            }
            fn name(self) -> &'static str {
                <$ty>::name(self)
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::named::UnknownName;

            fn from_str(name: &str) -> ::std::result::Result<$ty, Self::Err> {
                <$ty>::ALL.iter().copied().find(|v| v.name() == name).ok_or_else(|| {
                    $crate::named::UnknownName::new(
                        $kind,
                        name,
                        <$ty>::ALL.iter().map(|v| v.name()),
                    )
                })
            }
        }
    };
}
pub(crate) use crate::named_enum;

#[cfg(test)]
mod tests {
    use crate::analysis::intervals::{HeKind, Layer};
    use crate::analysis::onsets::{Ferguson, OnsetClass, Outcome};
    use crate::analysis::params::{AnalysisPreset, Classifier};
    use crate::cut::request::CutFormat;
    use crate::error::{Severity, WarningKind};
    use crate::events::{blame::Cause, EventClass};
    use crate::output::csv::Events;
    use crate::output::live::{EventState, LiveEventKind};
    use crate::report::svg::{Layout, Theme};
    use crate::score::errors::ErrorType;
    use crate::score::options::{
        DefaultRegion, HypothesisOnly, JerDefinition, MapStage, MappingMethod, ScoredRegions,
        ScoringPreset, SelfOverlap, UemIds, ZeroLength, ZeroScored,
    };
    use crate::score::validate::Consumer;
    use crate::score::FileStatus;

    /// Every value's name reads back to it, prints as itself, and is unique.
    macro_rules! round_trips {
        ($($ty:ty),* $(,)?) => {$(
            let names: Vec<&str> = <$ty>::ALL.iter().map(|v| v.name()).collect();
            assert_eq!(<$ty as super::Named>::all(), &<$ty>::ALL[..]);
            for v in <$ty>::ALL {
                assert_eq!(<$ty as super::Named>::name(v), v.name());
                assert_eq!(v.name().parse::<$ty>().ok(), Some(v));
                assert_eq!(v.to_string(), v.name());
                assert_eq!(names.iter().filter(|n| **n == v.name()).count(), 1, "{}", v.name());
            }
            assert!("no such name".parse::<$ty>().is_err());
        )*};
    }

    /// The name is what serde writes in JSON.
    macro_rules! serialize_as_named {
        ($($ty:ty),* $(,)?) => {$(
            for v in <$ty>::ALL {
                assert_eq!(serde_json::to_value(v).unwrap(), serde_json::json!(v.name()));
            }
        )*};
    }

    #[test]
    fn named_enums_round_trip() {
        round_trips!(
            HeKind,
            Layer,
            Ferguson,
            OnsetClass,
            Outcome,
            AnalysisPreset,
            Classifier,
            CutFormat,
            Severity,
            WarningKind,
            Cause,
            EventClass,
            Events,
            EventState,
            LiveEventKind,
            Layout,
            Theme,
            ErrorType,
            DefaultRegion,
            HypothesisOnly,
            JerDefinition,
            MapStage,
            MappingMethod,
            ScoredRegions,
            ScoringPreset,
            SelfOverlap,
            UemIds,
            ZeroLength,
            ZeroScored,
            Consumer,
            FileStatus,
            crate::format::Format,
            crate::cut::edl::Style,
        );
    }

    #[test]
    fn json_names_are_the_serde_names() {
        serialize_as_named!(
            Layer,
            Ferguson,
            OnsetClass,
            Outcome,
            Severity,
            WarningKind,
            EventState,
            LiveEventKind,
            ErrorType,
            DefaultRegion,
            HypothesisOnly,
            JerDefinition,
            MapStage,
            MappingMethod,
            ScoredRegions,
            SelfOverlap,
            UemIds,
            ZeroLength,
            ZeroScored,
            FileStatus,
        );
    }
}
