//! Time: integer microseconds from the start of a recording.
//!
//! Every time in overtalk is a [`Time`] (an instant) or a [`Delta`] (a signed difference), both
//! counted in whole microseconds. Integers make equality exact: a turn ending at `t` and the next
//! one starting at `t` touch, with a gap of exactly zero, whatever the file format printed.
//!
//! Text is turned into time in exactly one place, [`parse_seconds`] and [`parse_clock`], with one
//! rounding rule: **round half away from zero** to the microsecond. Times read from JSON numbers
//! ([`Time::from_secs_f64`]) go through the same decimal rule, using the shortest decimal that
//! represents the float, so `0.1` is 100 000 µs and not 99 999.
//!
//! Times are printed as seconds with at least three decimals and as many more as needed to be
//! exact (`1.500`, `1.000001`), so writing and reading back never moves a boundary.
//!
//! Frames (the 10 ms audio grid, a detector's grid, dscore's scoring grid) are a
//! [`FrameGrid`]: frame indices to times and back under a named [`Rounding`] rule.

mod grid;

pub use grid::{FrameGrid, Rounding};

use std::fmt;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};

use serde::{Deserialize, Serialize};

/// Microseconds per second.
pub const MICROS_PER_SECOND: i64 = 1_000_000;

/// The largest magnitude a time may have: 100 000 hours. Larger values in a file are rejected as
/// out of range, which keeps every sum of durations far away from `i64` overflow.
pub const MAX_MICROS: i64 = 100_000 * 3600 * MICROS_PER_SECOND;

/// An instant, in microseconds from the start of the recording.
///
/// May be negative only transiently (for example after subtracting a collar); readers reject
/// negative times in files. The microseconds are private: a time is made by a constructor
/// ([`Time::from_micros`], [`Time::from_millis`], [`Time::from_secs_f64`]) and read by
/// [`Time::micros`], so a change of representation or a check is made in one place.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Time(i64);

/// A signed difference between two instants, in microseconds. Durations are non-negative deltas;
/// a floor-transfer offset is negative for an overlap and positive for a gap. Made by
/// [`Delta::from_micros`] and its siblings, read by [`Delta::micros`].
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct Delta(i64);

impl Time {
    /// The start of the recording.
    pub const ZERO: Time = Time(0);

    /// A time from whole microseconds.
    pub const fn from_micros(us: i64) -> Time {
        Time(us)
    }

    /// A time from whole milliseconds.
    pub const fn from_millis(ms: i64) -> Time {
        Time(ms * 1000)
    }

    /// Microseconds since the start of the recording.
    pub const fn micros(self) -> i64 {
        self.0
    }

    /// Seconds as a float (for display and statistics only; never compare these).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / MICROS_PER_SECOND as f64
    }

    /// A time from seconds held in a float, rounded half away from zero to the microsecond
    /// through the float's shortest decimal form. Returns `None` for NaN, infinities and
    /// magnitudes beyond [`MAX_MICROS`].
    pub fn from_secs_f64(secs: f64) -> Option<Time> {
        if !secs.is_finite() {
            return None;
        }
        // `{}` prints the shortest decimal that reads back as the same float (never exponent
        // notation for f64 Display), so the decimal rule below sees what the file said.
        parse_seconds(&format!("{secs}")).ok()
    }

    /// The later of two times.
    pub fn max(self, other: Time) -> Time {
        if self >= other {
            self
        } else {
            other
        }
    }

    /// The earlier of two times.
    pub fn min(self, other: Time) -> Time {
        if self <= other {
            self
        } else {
            other
        }
    }

    /// Saturating addition of a delta (used with collars near `i64` limits).
    pub fn saturating_add(self, d: Delta) -> Time {
        Time(self.0.saturating_add(d.0))
    }

    /// Saturating subtraction of a delta.
    pub fn saturating_sub(self, d: Delta) -> Time {
        Time(self.0.saturating_sub(d.0))
    }
}

impl Delta {
    /// No time at all.
    pub const ZERO: Delta = Delta(0);

    /// A delta from whole microseconds.
    pub const fn from_micros(us: i64) -> Delta {
        Delta(us)
    }

    /// A delta from whole milliseconds.
    pub const fn from_millis(ms: i64) -> Delta {
        Delta(ms * 1000)
    }

    /// A delta from whole seconds.
    pub const fn from_secs(s: i64) -> Delta {
        Delta(s * MICROS_PER_SECOND)
    }

    /// A delta from float seconds (for command-line options such as a collar), with the same
    /// rounding rule as [`Time::from_secs_f64`].
    pub fn from_secs_f64(secs: f64) -> Option<Delta> {
        Time::from_secs_f64(secs).map(|t| Delta(t.0))
    }

    /// The value in microseconds.
    pub const fn micros(self) -> i64 {
        self.0
    }

    /// Seconds as a float (for display and statistics only).
    pub fn as_secs_f64(self) -> f64 {
        self.0 as f64 / MICROS_PER_SECOND as f64
    }

    /// Absolute value.
    pub fn abs(self) -> Delta {
        Delta(self.0.abs())
    }
}

impl Add<Delta> for Time {
    type Output = Time;
    fn add(self, d: Delta) -> Time {
        Time(self.0 + d.0)
    }
}

impl Sub<Delta> for Time {
    type Output = Time;
    fn sub(self, d: Delta) -> Time {
        Time(self.0 - d.0)
    }
}

impl Sub for Time {
    type Output = Delta;
    fn sub(self, other: Time) -> Delta {
        Delta(self.0 - other.0)
    }
}

impl AddAssign<Delta> for Time {
    fn add_assign(&mut self, d: Delta) {
        self.0 += d.0;
    }
}

impl SubAssign<Delta> for Time {
    fn sub_assign(&mut self, d: Delta) {
        self.0 -= d.0;
    }
}

impl Add for Delta {
    type Output = Delta;
    fn add(self, d: Delta) -> Delta {
        Delta(self.0 + d.0)
    }
}

impl Sub for Delta {
    type Output = Delta;
    fn sub(self, d: Delta) -> Delta {
        Delta(self.0 - d.0)
    }
}

impl AddAssign for Delta {
    fn add_assign(&mut self, d: Delta) {
        self.0 += d.0;
    }
}

impl SubAssign for Delta {
    fn sub_assign(&mut self, d: Delta) {
        self.0 -= d.0;
    }
}

impl Neg for Delta {
    type Output = Delta;
    fn neg(self) -> Delta {
        Delta(-self.0)
    }
}

impl std::iter::Sum for Delta {
    fn sum<I: Iterator<Item = Delta>>(iter: I) -> Delta {
        Delta(iter.map(|d| d.0).sum())
    }
}

impl fmt::Display for Time {
    /// Seconds with at least three decimals, exact to the microsecond: `12.340`, `0.000001`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_seconds(f, self.0)
    }
}

impl fmt::Display for Delta {
    /// Seconds with at least three decimals, exact to the microsecond, signed.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_seconds(f, self.0)
    }
}

fn write_seconds(f: &mut fmt::Formatter<'_>, us: i64) -> fmt::Result {
    let sign = if us < 0 { "-" } else { "" };
    let abs = us.unsigned_abs();
    let whole = abs / 1_000_000;
    let frac = abs % 1_000_000;
    if frac % 1000 == 0 {
        write!(f, "{sign}{whole}.{:03}", frac / 1000)
    } else {
        let digits = format!("{frac:06}");
        write!(f, "{sign}{whole}.{}", digits.trim_end_matches('0'))
    }
}

/// Formats microseconds as seconds with exactly `decimals` decimals, rounding half away from
/// zero (for fixed-precision reports).
pub fn format_seconds_fixed(us: i64, decimals: u32) -> String {
    let decimals = decimals.min(6);
    let unit = 10_i64.pow(6 - decimals);
    let rounded = round_div(us, unit);
    let scale = 10_i64.pow(decimals);
    let sign = if rounded < 0 { "-" } else { "" };
    let abs = rounded.unsigned_abs();
    if decimals == 0 {
        format!("{sign}{abs}")
    } else {
        format!(
            "{sign}{}.{:0width$}",
            abs / scale as u64,
            abs % scale as u64,
            width = decimals as usize
        )
    }
}

/// Integer division rounding half away from zero; `den` must be positive.
pub fn round_div(num: i64, den: i64) -> i64 {
    debug_assert!(den > 0);
    let q = num / den;
    let r = num % den;
    if 2 * r.abs() >= den {
        q + num.signum()
    } else {
        q
    }
}

/// Formats a time as a clock, `HH:MM:SS.mmm` (milliseconds rounded half away from zero), with
/// `sep` between seconds and milliseconds (`.` for WebVTT, `,` for SRT).
pub fn format_clock(t: Time, sep: char) -> String {
    let ms = round_div(t.0, 1000);
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    let h = ms / 3_600_000;
    let m = ms / 60_000 % 60;
    let s = ms / 1000 % 60;
    let milli = ms % 1000;
    format!("{sign}{h:02}:{m:02}:{s:02}{sep}{milli:03}")
}

/// Why a time could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeError {
    /// Not a number or clock at all.
    Syntax,
    /// `NaN` (WhisperX writes bare `NaN` for words it could not align).
    NotANumber,
    /// Infinite, or beyond [`MAX_MICROS`].
    OutOfRange,
}

impl fmt::Display for TimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeError::Syntax => f.write_str("not a time"),
            TimeError::NotANumber => f.write_str("time is NaN"),
            TimeError::OutOfRange => f.write_str("time out of range"),
        }
    }
}

/// Parses decimal seconds (`12`, `12.5`, `-0.25`, `1e3`, `.5`) exactly, rounding half away from
/// zero to the microsecond. No float is involved, so `0.0000005` is 1 µs and `2.675` is
/// 2 675 000 µs.
#[inline]
pub fn parse_seconds(text: &str) -> Result<Time, TimeError> {
    match parse_plain_seconds(text.as_bytes()) {
        Some(t) => Ok(t),
        None => parse_seconds_general(text),
    }
}

/// [`parse_seconds`] for everything but plain decimals: signs, exponents, spaces, rounding,
/// and the errors.
#[inline(never)]
fn parse_seconds_general(text: &str) -> Result<Time, TimeError> {
    let s = text.trim();
    if s.eq_ignore_ascii_case("nan") || s.eq_ignore_ascii_case("-nan") {
        return Err(TimeError::NotANumber);
    }
    let (neg, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if body.eq_ignore_ascii_case("inf") || body.eq_ignore_ascii_case("infinity") {
        return Err(TimeError::OutOfRange);
    }
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => {
            let exp: i32 = body[i + 1..].parse().map_err(|_| TimeError::Syntax)?;
            (&body[..i], exp)
        }
        None => (body, 0),
    };
    let (int_part, frac_part) = match mantissa.find('.') {
        Some(i) => (&mantissa[..i], &mantissa[i + 1..]),
        None => (mantissa, ""),
    };
    if int_part.is_empty() && frac_part.is_empty() {
        return Err(TimeError::Syntax);
    }
    if !int_part.bytes().all(|b| b.is_ascii_digit())
        || !frac_part.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(TimeError::Syntax);
    }
    // value = digits × 10^(exponent − frac_len) seconds = digits × 10^(exponent − frac_len + 6) µs
    let int_trimmed = int_part.trim_start_matches('0');
    let shift = i64::from(exponent) - frac_part.len() as i64 + 6;
    let us = digits_to_micros(int_trimmed.bytes().chain(frac_part.bytes()), shift)?;
    Ok(Time(if neg { -us } else { us }))
}

/// The common case in one pass: `D+` or `D*.D+` (no sign, no exponent, no spaces) with at most
/// 12 integer and 6 fraction digits, which is exact without rounding. Anything else (including
/// values the general rule must round or reject) returns `None` and takes the general path.
#[inline]
fn parse_plain_seconds(b: &[u8]) -> Option<Time> {
    if b.is_empty() || b.len() > 19 {
        return None;
    }
    let mut whole: i64 = 0;
    let mut i = 0;
    while i < b.len() && b[i].is_ascii_digit() {
        whole = whole * 10 + i64::from(b[i] - b'0');
        i += 1;
    }
    let int_digits = i;
    if int_digits > 12 {
        return None;
    }
    let mut frac: i64 = 0;
    let mut frac_digits = 0u32;
    if i < b.len() {
        if b[i] != b'.' {
            return None;
        }
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            frac = frac * 10 + i64::from(b[i] - b'0');
            frac_digits += 1;
            i += 1;
        }
        if i != b.len() || frac_digits > 6 || (int_digits == 0 && frac_digits == 0) {
            return None;
        }
    }
    const SCALE: [i64; 7] = [1_000_000, 100_000, 10_000, 1_000, 100, 10, 1];
    let us = whole * MICROS_PER_SECOND + frac * SCALE.get(frac_digits as usize)?;
    (us <= MAX_MICROS).then_some(Time(us))
}

/// `digits × 10^shift`, rounded half away from zero to an integer, bounded by [`MAX_MICROS`].
/// The digits are ASCII; the iterator is walked once and nothing is allocated.
fn digits_to_micros(
    digits: impl Iterator<Item = u8> + Clone,
    shift: i64,
) -> Result<i64, TimeError> {
    // Leading zeros carry no value; skipping them keeps long zero prefixes from overflowing.
    let significant = digits.skip_while(|&d| d == b'0');
    let n = significant.clone().count() as i64;
    if n == 0 {
        return Ok(0);
    }
    // Number of digits of the result before its decimal point.
    let keep = n + shift;
    if keep > 19 {
        return Err(TimeError::OutOfRange);
    }
    if keep < 0 {
        return Ok(0);
    }
    let mut value: i64 = 0;
    let mut rest = significant;
    for _ in 0..keep.min(n) {
        let d = rest.next().unwrap_or(b'0') - b'0';
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(i64::from(d)))
            .ok_or(TimeError::OutOfRange)?;
    }
    if keep > n {
        for _ in 0..(keep - n) {
            value = value.checked_mul(10).ok_or(TimeError::OutOfRange)?;
        }
    } else if let Some(first_dropped) = rest.next() {
        // The first dropped digit decides: half away from zero.
        if first_dropped >= b'5' {
            value += 1;
        }
    }
    if value > MAX_MICROS {
        return Err(TimeError::OutOfRange);
    }
    Ok(value)
}

/// Parses a clock time: `HH:MM:SS.fff`, `MM:SS.fff`, `H:M:S.f` (Microsoft Teams writes
/// `0:0:0.0`), with `.` or `,` before the fraction (SRT uses `,`). Any number of fraction digits
/// is accepted and rounded half away from zero to the microsecond.
pub fn parse_clock(text: &str) -> Result<Time, TimeError> {
    let s = text.trim();
    let parts: Vec<&str> = s.split(':').collect();
    if parts.len() < 2 || parts.len() > 3 {
        return Err(TimeError::Syntax);
    }
    let field = |p: &str| -> Result<i64, TimeError> {
        if p.is_empty() || p.len() > 12 || !p.bytes().all(|b| b.is_ascii_digit()) {
            return Err(TimeError::Syntax);
        }
        p.parse::<i64>().map_err(|_| TimeError::Syntax)
    };
    let (h, m) =
        if parts.len() == 3 { (field(parts[0])?, field(parts[1])?) } else { (0, field(parts[0])?) };
    let sec_text = parts[parts.len() - 1].replace(',', ".");
    if sec_text.starts_with(['+', '-']) || sec_text.contains(['e', 'E']) {
        return Err(TimeError::Syntax);
    }
    let secs = parse_seconds(&sec_text)?;
    let total = h
        .checked_mul(3600)
        .and_then(|x| x.checked_add(m.checked_mul(60)?))
        .and_then(|x| x.checked_mul(MICROS_PER_SECOND))
        .and_then(|x| x.checked_add(secs.0))
        .ok_or(TimeError::OutOfRange)?;
    if total > MAX_MICROS {
        return Err(TimeError::OutOfRange);
    }
    Ok(Time(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_decimal_seconds_exactly() {
        assert_eq!(parse_seconds("12.5"), Ok(Time(12_500_000)));
        assert_eq!(parse_seconds("0.0000005"), Ok(Time(1)));
        assert_eq!(parse_seconds("0.00000049"), Ok(Time(0)));
        assert_eq!(parse_seconds("-0.0000005"), Ok(Time(-1)));
        assert_eq!(parse_seconds("2.675"), Ok(Time(2_675_000)));
        assert_eq!(parse_seconds("1e3"), Ok(Time(1_000_000_000)));
        assert_eq!(parse_seconds("1.5E-3"), Ok(Time(1500)));
        assert_eq!(parse_seconds(".5"), Ok(Time(500_000)));
        assert_eq!(parse_seconds("7."), Ok(Time(7_000_000)));
        assert_eq!(parse_seconds("000000000000000000000001"), Ok(Time(1_000_000)));
        assert_eq!(parse_seconds("0.999999999999999999999"), Ok(Time(1_000_000)));
        assert_eq!(parse_seconds("NaN"), Err(TimeError::NotANumber));
        assert_eq!(parse_seconds("inf"), Err(TimeError::OutOfRange));
        assert_eq!(parse_seconds("1e300"), Err(TimeError::OutOfRange));
        assert_eq!(parse_seconds("1e-300"), Ok(Time(0)));
        assert_eq!(parse_seconds("abc"), Err(TimeError::Syntax));
        assert_eq!(parse_seconds(""), Err(TimeError::Syntax));
        assert_eq!(parse_seconds("."), Err(TimeError::Syntax));
        assert_eq!(parse_seconds("1.2.3"), Err(TimeError::Syntax));
    }

    #[test]
    fn the_plain_fast_path_agrees_with_the_general_rule() {
        for text in ["0", "7", "12.5", "0.000001", "123456789.123456", ".5", "5.", "00012.340"] {
            let fast = parse_plain_seconds(text.as_bytes());
            let general = digits_general(text);
            assert_eq!(fast, Some(general), "{text}");
        }
        for text in ["", ".", "1.2.3", "-1", "+1", "1e3", " 1", "1.0000005", "1234567890123"] {
            assert_eq!(parse_plain_seconds(text.as_bytes()), None, "{text}");
        }
    }

    /// The general path alone (what `parse_seconds` did before its fast path).
    fn digits_general(text: &str) -> Time {
        let (i, f) = text.split_once('.').unwrap_or((text, ""));
        let shift = 6 - f.len() as i64;
        let digits = i.trim_start_matches('0').bytes().chain(f.bytes());
        Time(digits_to_micros(digits, shift).unwrap())
    }

    #[test]
    fn floats_go_through_their_shortest_decimal() {
        assert_eq!(Time::from_secs_f64(0.1), Some(Time(100_000)));
        assert_eq!(Time::from_secs_f64(2.675), Some(Time(2_675_000)));
        assert_eq!(Time::from_secs_f64(1e-7), Some(Time(0)));
        assert_eq!(Time::from_secs_f64(f64::NAN), None);
        assert_eq!(Time::from_secs_f64(1e20), None);
    }

    #[test]
    fn clocks() {
        assert_eq!(parse_clock("00:01:02.500"), Ok(Time(62_500_000)));
        assert_eq!(parse_clock("00:01:02,500"), Ok(Time(62_500_000)));
        assert_eq!(parse_clock("01:02.5"), Ok(Time(62_500_000)));
        assert_eq!(parse_clock("0:0:0.0"), Ok(Time(0)));
        assert_eq!(parse_clock("1:2:3.4567"), Ok(Time(3_723_456_700)));
        assert!(parse_clock("1:2").is_ok());
        assert!(parse_clock("12").is_err());
        assert!(parse_clock("a:b:c").is_err());
        assert!(parse_clock("00:00:-1.0").is_err());
        assert_eq!(format_clock(Time(62_500_400), '.'), "00:01:02.500");
        assert_eq!(format_clock(Time(62_500_500), ','), "00:01:02,501");
    }

    #[test]
    fn display_is_exact_and_reads_back() {
        for us in [0, 1, 999, 1000, 1_500_000, 12_345_678, -2_500_000, MAX_MICROS] {
            let text = Time(us).to_string();
            assert_eq!(parse_seconds(&text), Ok(Time(us)), "{text}");
        }
        assert_eq!(Time(1_500_000).to_string(), "1.500");
        assert_eq!(Time(1_000_001).to_string(), "1.000001");
        assert_eq!(Delta(-250_000).to_string(), "-0.250");
    }

    #[test]
    fn fixed_precision() {
        assert_eq!(format_seconds_fixed(1_234_500, 3), "1.235");
        assert_eq!(format_seconds_fixed(-1_234_500, 3), "-1.235");
        assert_eq!(format_seconds_fixed(1_234_499, 2), "1.23");
        assert_eq!(format_seconds_fixed(999_999, 0), "1");
        assert_eq!(round_div(5, 10), 1);
        assert_eq!(round_div(-5, 10), -1);
        assert_eq!(round_div(4, 10), 0);
    }
}
