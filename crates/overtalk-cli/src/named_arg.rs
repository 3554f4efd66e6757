//! The library's named enums as flag values: one clap value parser built from an enum's `ALL`
//! and `name()` ([`overtalk::named::Named`]), so a flag takes the library's type itself,
//! `--help` lists the names, and a wrong name is refused with the list, as clap does for its
//! own value enums.

use std::ffi::OsStr;
use std::marker::PhantomData;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use overtalk::named::Named;

/// Parses a flag value into `T` by name; see the module documentation.
#[derive(Clone)]
pub struct NamedParser<T> {
    help: fn(T) -> Option<&'static str>,
    kind: PhantomData<T>,
}

/// The value parser of the [`Named`] enum `T` (possible values without help).
pub fn named<T: Named>() -> NamedParser<T> {
    NamedParser { help: |_| None, kind: PhantomData }
}

/// [`named`] with a line of help per value, listed under the flag in `--help`.
pub fn named_with_help<T: Named>(help: fn(T) -> Option<&'static str>) -> NamedParser<T> {
    NamedParser { help, kind: PhantomData }
}

impl<T: Named> NamedParser<T> {
    fn possible(&self) -> impl Iterator<Item = PossibleValue> + '_ {
        T::all().iter().map(|&v| PossibleValue::new(v.name()).help((self.help)(v)))
    }
}

impl<T: Named> TypedValueParser for NamedParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        // clap's own parser of a list of names checks the value and words the error.
        let name = PossibleValuesParser::new(self.possible()).parse_ref(cmd, arg, value)?;
        T::all().iter().copied().find(|v| v.name() == name).ok_or_else(|| {
            clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("unknown {name:?}"))
        })
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.possible()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;
    use overtalk::score::ScoringPreset;

    #[derive(Debug, Parser)]
    struct T {
        #[arg(long, value_parser = named::<ScoringPreset>(), default_value_t = ScoringPreset::Overtalk)]
        preset: ScoringPreset,
    }

    #[test]
    fn takes_the_names_and_lists_them_when_refusing() {
        assert_eq!(
            T::try_parse_from(["t", "--preset", "md-eval"]).unwrap().preset,
            ScoringPreset::MdEval
        );
        assert_eq!(T::try_parse_from(["t"]).unwrap().preset, ScoringPreset::Overtalk);
        let err = T::try_parse_from(["t", "--preset", "nist"]).unwrap_err().to_string();
        assert!(
            err.contains("invalid value 'nist' for '--preset <PRESET>'")
                && err.contains("[possible values: overtalk, md-eval, dscore, pyannote, spyder]"),
            "{err}"
        );
    }
}
