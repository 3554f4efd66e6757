//! How numbers are written in the human outputs (terminal table, Markdown): one function per
//! kind of number, so every table writes the same quantity the same way.

/// Milliseconds as seconds with two decimals, rounded half away from zero (`9050` → `9.05`).
pub fn secs(ms: i64) -> String {
    let cs = crate::time::round_div(ms, 10);
    let sign = if cs < 0 { "-" } else { "" };
    let a = cs.unsigned_abs();
    format!("{sign}{}.{:02}", a / 100, a % 100)
}

/// Milliseconds that may end in .5 (a median of an even count, §5.5.7) as seconds with three
/// decimals, rounded half away from zero to the millisecond (`141.5` → `0.142`, `-46.5` →
/// `-0.047`); `-` when undefined. Formatting the `f64` seconds instead rounds a half up or down
/// by its binary expansion (`0.1415` → `0.141`, `0.2825` → `0.283`).
pub fn secs_from_ms(ms: Option<f64>) -> String {
    ms.map_or_else(
        || "-".to_owned(),
        |v| {
            let rounded = v.round() as i64;
            let sign = if rounded < 0 { "-" } else { "" };
            let a = rounded.unsigned_abs();
            format!("{sign}{}.{:03}", a / 1000, a % 1000)
        },
    )
}

/// A share as a percentage with one decimal and a `%` sign (`0.125` → `12.5%`, `0.0625` →
/// `6.3%`); `-` when undefined.
pub fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "-".to_owned(), |v| format!("{}%", percent(v, 1)))
}

/// The fraction `x` as a percentage number with `decimals` decimals and no sign, rounded half
/// away from zero as durations are (`0.0625` → `6.3`, `0.145` → `14.5`, `0.0625` with no
/// decimals → `6`). Every output that writes a share in percent (tables, Markdown, CSV of
/// `info`, HTML, SVG and PNG text, summary sentences) writes it with this, so a share reads the
/// same everywhere. `format!("{:.1}")` rounds an exact tie to even (`6.25` → `6.2`) and a share
/// such as 29/200 by its binary expansion (`0.145 * 100` is `14.499…`); here a value within a
/// few units in the last place of a tie is taken for the tie it stands for: a ratio of two
/// whole numbers up to 10⁹ that is not a tie lies at least 5·10⁻¹⁰ from one, far beyond the
/// error of its division and scaling.
pub fn percent(x: f64, decimals: u32) -> String {
    let scaled = x * 100.0 * 10f64.powi(decimals as i32);
    if !scaled.is_finite() {
        return format!("{:.*}", decimals as usize, x * 100.0);
    }
    let n = half_away_from_zero(scaled);
    let sign = if n < 0.0 { "-" } else { "" };
    let a = n.abs() as u64;
    let p = 10u64.pow(decimals);
    if decimals == 0 {
        format!("{sign}{a}")
    } else {
        format!("{sign}{}.{:0w$}", a / p, a % p, w = decimals as usize)
    }
}

/// As [`percent`], with a `+` on shares that are not negative (a relative error).
pub fn signed_percent(x: f64, decimals: u32) -> String {
    let s = percent(x, decimals);
    if s.starts_with('-') {
        s
    } else {
        format!("+{s}")
    }
}

/// `v` rounded to a whole number, half away from zero, a value within 16 units in the last
/// place of a half counting as the half (see [`percent`]).
fn half_away_from_zero(v: f64) -> f64 {
    let t = v.trunc();
    let frac = (v - t).abs();
    if (frac - 0.5).abs() <= v.abs() * 16.0 * f64::EPSILON {
        t + v.signum()
    } else {
        v.round()
    }
}

/// A number with `decimals` decimals; `-` when undefined.
pub fn fixed(x: Option<f64>, decimals: usize) -> String {
    x.map_or_else(|| "-".to_owned(), |v| format!("{v:.decimals$}"))
}

/// Milliseconds as hours with two decimals (`5_400_000` → `1.50`).
pub fn hours(ms: i64) -> String {
    format!("{:.2}", ms as f64 / 3_600_000.0)
}

/// A duration in seconds with three decimals, as the score tables write times (`1.500`).
pub fn secs3(d: crate::Delta) -> String {
    format!("{:.3}", d.as_secs_f64())
}

/// A rate as a percentage with two decimals and no sign, as the score tables write error
/// rates (`0.2639` → `26.39`); `n/a` when undefined.
pub fn pct2(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_owned(), |v| percent(v, 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_rounded_to_centiseconds() {
        assert_eq!(secs(9050), "9.05");
        assert_eq!(secs(-150), "-0.15");
        assert_eq!(secs(4999), "5.00");
        assert_eq!(secs(0), "0.00");
    }

    #[test]
    fn half_milliseconds_round_away_from_zero() {
        // Medians of MRDA meetings (Bed005 mn036, textgrid sarah, Bmr020 me001).
        assert_eq!(secs_from_ms(Some(141.5)), "0.142");
        assert_eq!(secs_from_ms(Some(-46.5)), "-0.047");
        assert_eq!(secs_from_ms(Some(282.5)), "0.283");
        assert_eq!(secs_from_ms(Some(-150.0)), "-0.150");
        assert_eq!(secs_from_ms(Some(1600.0)), "1.600");
        assert_eq!(secs_from_ms(Some(-0.0)), "0.000");
        assert_eq!(secs_from_ms(None), "-");
    }

    #[test]
    fn percentages_round_half_away_from_zero() {
        // 1 of 16 turns, 1 s of 16 s: an exact tie, which `{:.1}` rounds to even (6.2).
        assert_eq!(pct(Some(0.0625)), "6.3%");
        assert_eq!(pct(Some(15.0 / 16.0)), "93.8%");
        assert_eq!(pct(Some(0.125)), "12.5%");
        // 29/200 is 14.5 % exactly; its f64 times 100 is 14.499…, so the whole percent is 15.
        assert_eq!(percent(29.0 / 200.0, 0), "15");
        assert_eq!(percent(0.0625, 0), "6");
        assert_eq!(percent(0.065, 0), "7");
        assert_eq!(percent(0.005, 0), "1");
        // Two decimals (DER): 1 of 1600 is 0.0625 %.
        assert_eq!(percent(1.0 / 1600.0, 2), "0.06");
        assert_eq!(percent(1.0 / 800.0, 2), "0.13");
        assert_eq!(pct2(Some(0.00125)), "0.13");
        assert_eq!(signed_percent(-0.0625, 1), "-6.3");
        assert_eq!(signed_percent(0.0625, 1), "+6.3");
        assert_eq!(signed_percent(0.0, 1), "+0.0");
        // Not ties: the nearest value.
        assert_eq!(percent(1.0 / 3.0, 1), "33.3");
        assert_eq!(percent(0.06249, 1), "6.2");
        assert_eq!(percent(1.0, 1), "100.0");
        assert_eq!(percent(0.0, 0), "0");
    }

    #[test]
    fn undefined_numbers_are_a_dash() {
        assert_eq!(pct(None), "-");
        assert_eq!(pct(Some(0.125)), "12.5%");
        assert_eq!(fixed(Some(1.0 / 3.0), 2), "0.33");
        assert_eq!(fixed(None, 2), "-");
        assert_eq!(hours(5_400_000), "1.50");
        assert_eq!(secs3(crate::Delta::from_millis(1500)), "1.500");
        assert_eq!(pct2(Some(0.2639)), "26.39");
        assert_eq!(pct2(None), "n/a");
    }
}
