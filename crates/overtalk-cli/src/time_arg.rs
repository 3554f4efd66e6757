//! The one syntax of every time value on the command line (`--collar`, `--context`, `report
//! --start`, `--min-speech`, the analysis parameters, …), so that a value written for one
//! option is read the same by every other:
//!
//! - seconds: `62.5`, `62.5s`;
//! - milliseconds: `500ms`;
//! - minutes and seconds, or hours, minutes and seconds: `1:02.5`, `1:02:03.5` (the fields
//!   after the first below 60, the last one with an optional fraction).
//!
//! A bare number is in the option's own unit: seconds, except for the options whose value is
//! shown as `MS` (the analysis parameters, `--decision-horizon`, `--crossfade`), where it is
//! milliseconds, as those options have always read it. Decimals are read exactly (no float), to
//! the microsecond. A value that is none of these is refused with one message naming the forms
//! ([`FORMS`]).

use overtalk::time::{parse_seconds, Delta, TimeError, MAX_MICROS};

/// The forms a time value takes, as every refusal names them.
pub(crate) const FORMS: &str =
    "give seconds (`62.5`, `62.5s`), milliseconds (`500ms`), m:ss or h:mm:ss (`1:02.5`, `1:02:03.5`)";

/// The unit of a bare number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bare {
    Seconds,
    Millis,
}

/// `text` as a signed time in microseconds, a bare number read in `bare`.
fn parse(text: &str, bare: Bare) -> Result<i64, String> {
    let refuse = || {
        let unit = match bare {
            Bare::Seconds => "",
            Bare::Millis => "; a bare number here is milliseconds",
        };
        format!("{text:?} is no time: {FORMS}{unit}")
    };
    let t = text.trim();
    let (negative, body) = match t.as_bytes().first() {
        Some(b'-') => (true, t[1..].trim_start()),
        Some(b'+') => (false, t[1..].trim_start()),
        _ => (false, t),
    };
    let too_large =
        || format!("{text:?}: too large (a time is at most {} hours)", MAX_MICROS / 3_600_000_000);
    // A number of seconds, or of milliseconds (`millis`), in microseconds: `2`, `2.5`, `.5`,
    // `1e3`, read exactly ([`parse_seconds`], the milliseconds by their exponent less 3); its
    // sign goes before the whole value. One beyond the largest time is too large, not "no time".
    let number = |s: &str, millis: bool| -> Result<i64, String> {
        let s = s.trim();
        if s.is_empty() || s.starts_with(['+', '-']) {
            return Err(refuse());
        }
        let scaled = match (millis, s.find(['e', 'E'])) {
            (false, _) => s.to_owned(),
            (true, None) => format!("{s}e-3"),
            (true, Some(at)) => {
                let exponent: i32 = s[at + 1..].parse().map_err(|_| refuse())?;
                format!("{}e{}", &s[..at], exponent.saturating_sub(3))
            }
        };
        match parse_seconds(&scaled) {
            Ok(t) => Ok(t.micros()),
            // `inf` is out of range too, but no number of seconds.
            Err(TimeError::OutOfRange) if !s.to_ascii_lowercase().contains("inf") => {
                Err(too_large())
            }
            Err(_) => Err(refuse()),
        }
    };
    let micros = if let Some(ms) = body.strip_suffix("ms") {
        number(ms, true)?
    } else if let Some(s) = body.strip_suffix('s') {
        number(s, false)?
    } else if body.contains(':') {
        let fields: Vec<&str> = body.split(':').collect();
        if fields.len() > 3 {
            return Err(refuse());
        }
        let (last, leading) = fields.split_last().ok_or_else(refuse)?;
        // The fields after the first have two digits (`1:02`), the last one with an optional
        // fraction: `1:2` may be meant as 1:02 or as 1:20, and is refused rather than guessed.
        let whole_digits = last.split('.').next().map_or(0, str::len);
        if !last.bytes().all(|b| b.is_ascii_digit() || b == b'.') || whole_digits == 0 {
            return Err(refuse());
        }
        let one_digit = whole_digits == 1
            || leading
                .iter()
                .skip(1)
                .any(|f| f.len() == 1 && f.bytes().all(|b| b.is_ascii_digit()));
        if one_digit {
            return Err(format!(
                "{text:?} is no time: after a colon, minutes and seconds have two digits (`1:02`, not `1:2`); {FORMS}"
            ));
        }
        if whole_digits != 2 {
            return Err(refuse());
        }
        let seconds = number(last, false)?;
        let mut whole: i64 = 0;
        for (k, field) in leading.iter().enumerate() {
            if field.is_empty()
                || !field.bytes().all(|b| b.is_ascii_digit())
                || (k > 0 && field.len() > 2)
            {
                return Err(refuse());
            }
            let v: i64 = field.parse().map_err(|_| too_large())?;
            if k > 0 && v >= 60 {
                return Err(format!("{text:?}: minutes and seconds after a colon are below 60"));
            }
            whole = whole.checked_mul(60).and_then(|w| w.checked_add(v)).ok_or_else(too_large)?;
        }
        if seconds >= 60_000_000 {
            return Err(format!("{text:?}: minutes and seconds after a colon are below 60"));
        }
        whole.checked_mul(60_000_000).and_then(|w| w.checked_add(seconds)).ok_or_else(too_large)?
    } else {
        number(body, bare == Bare::Millis)?
    };
    if micros > MAX_MICROS {
        return Err(too_large());
    }
    Ok(if negative { -micros } else { micros })
}

/// A time value whose bare number is seconds, as a [`Delta`].
pub(crate) fn delta(text: &str) -> Result<Delta, String> {
    parse(text, Bare::Seconds).map(Delta::from_micros)
}

/// A time value whose bare number is seconds, in seconds (for the options kept as `f64`).
pub(crate) fn seconds(text: &str) -> Result<f64, String> {
    // Microseconds below 2^53 are exact as an f64, and so is their quotient's nearest value.
    parse(text, Bare::Seconds).map(|micros| micros as f64 / 1e6)
}

/// A time value whose bare number is milliseconds, in whole milliseconds (the analysis
/// parameters): `1.5ms` is refused, not rounded.
pub(crate) fn millis(text: &str) -> Result<i64, String> {
    let micros = parse(text, Bare::Millis)?;
    if micros % 1000 != 0 {
        return Err(format!("{text:?}: this option takes whole milliseconds"));
    }
    Ok(micros / 1000)
}

/// [`millis`], for an option that takes no negative value and fits 32 bits (`--crossfade`).
pub(crate) fn millis_u32(text: &str) -> Result<u32, String> {
    let ms = millis(text)?;
    u32::try_from(ms).map_err(|_| format!("{text:?}: out of range (0 to {} ms)", u32::MAX))
}

/// A time value whose bare number is seconds, in whole milliseconds, not negative (`report
/// --start`, `--end`).
pub(crate) fn clock_millis(text: &str) -> Result<i64, String> {
    let micros = parse(text, Bare::Seconds)?;
    if micros < 0 {
        return Err(format!("{text:?}: a time is not negative"));
    }
    // To the nearest millisecond, half away from zero.
    Ok((micros + 500) / 1000)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_reads_the_same_time() {
        for (text, micros) in [
            ("62.5", 62_500_000),
            ("62.5s", 62_500_000),
            ("62500ms", 62_500_000),
            ("1:02.5", 62_500_000),
            ("0:01:02.5", 62_500_000),
            ("1:02:03.5", 3_723_500_000),
            ("500ms", 500_000),
            ("0.5ms", 500),
            ("1e10ms", 10_000_000_000_000),
            ("0.0015ms", 2),
            (" 2s ", 2_000_000),
            ("-1.5", -1_500_000),
            ("0", 0),
            (".5", 500_000),
            ("1e3", 1_000_000_000),
            ("2 s", 2_000_000),
            ("+3", 3_000_000),
        ] {
            assert_eq!(delta(text), Ok(Delta::from_micros(micros)), "{text:?}");
        }
        assert_eq!(millis("250"), Ok(250));
        assert_eq!(millis("0.25s"), Ok(250));
        assert_eq!(millis("1:00"), Ok(60_000));
        assert_eq!(seconds("1:02.5"), Ok(62.5));
        assert_eq!(clock_millis("1:23.5"), Ok(83_500));
        assert_eq!(millis_u32("10"), Ok(10));
    }

    #[test]
    fn what_is_no_time_is_refused_naming_the_forms() {
        let forms = "give seconds (`62.5`, `62.5s`), milliseconds (`500ms`), m:ss or h:mm:ss (`1:02.5`, `1:02:03.5`)";
        for text in [
            "",
            "abc",
            "1:02:03:04",
            "s",
            "ms",
            "1.2.3",
            "nan",
            "2m",
            "1::02",
            "1:002",
            "--2",
            "1:-5",
            "inf",
            "1:1e1",
        ] {
            assert_eq!(delta(text), Err(format!("{text:?} is no time: {forms}")), "{text:?}");
        }
        assert_eq!(
            millis("x"),
            Err(format!("\"x\" is no time: {forms}; a bare number here is milliseconds"))
        );
        assert_eq!(
            delta("1:60"),
            Err("\"1:60\": minutes and seconds after a colon are below 60".to_owned())
        );
        assert_eq!(
            delta("1:60:00"),
            Err("\"1:60:00\": minutes and seconds after a colon are below 60".to_owned())
        );
        // One digit after a colon is ambiguous (1:02 or 1:20?): refused, naming the forms.
        for text in ["1:2", "1:2.5", "0:1:02", "1:02:3", "-1:2"] {
            assert_eq!(
                delta(text),
                Err(format!(
                    "{text:?} is no time: after a colon, minutes and seconds have two digits (`1:02`, not `1:2`); {forms}"
                )),
                "{text:?}"
            );
        }
        assert_eq!(delta("1:02"), Ok(Delta::from_micros(62_000_000)));
        assert_eq!(delta("0:01:02"), Ok(Delta::from_micros(62_000_000)));
        assert_eq!(millis("1.5"), Err("\"1.5\": this option takes whole milliseconds".to_owned()));
        assert_eq!(clock_millis("-2"), Err("\"-2\": a time is not negative".to_owned()));
        for text in ["999999999", "1e300", "-1e10", "1e13ms", "1e10s", "99999999:00"] {
            assert_eq!(
                delta(text),
                Err(format!("{text:?}: too large (a time is at most 100000 hours)")),
                "{text:?}"
            );
        }
    }
}
