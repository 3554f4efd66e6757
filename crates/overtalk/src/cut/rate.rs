//! Frame rates and SMPTE timecode: exact integer arithmetic, drop-frame included.
//!
//! A [`Rate`] is a rational number of frames per second (`30000/1001` for 29.97) and a
//! drop-frame flag. Times become frames in one place, [`Rate::frame_at`], with one rule:
//! **round half up to the nearest frame boundary**, computed in integers
//! (`⌊(t·num + den·500 000) / (den·1 000 000)⌋`), so 29.97 fps never drifts however long the
//! recording is. Frames become microseconds by [`Rate::micros_of`] with the same rule, so
//! `frame_at(micros_of(f)) == f` for every frame.
//!
//! ```text
//! time (µs)   0        33 366.7    66 733.4      (29.97 fps: 1 001 000 / 30 µs per frame)
//! frames      |   0    |    1      |    2     …
//!             t → frame: the nearest boundary, a half frame rounding up
//! ```
//!
//! Drop-frame timecode (29.97 DF, 59.94 DF) counts 30 (60) frames per second on the clock but
//! skips the labels `;00` and `;01` (`;00`–`;03` at 59.94) at the start of every minute not
//! divisible by ten, so the clock stays within a frame of wall time: 17 982 frames per ten
//! minutes at 29.97. No frame is dropped from the media, only labels.

use std::fmt;
use std::str::FromStr;

use crate::time::Time;

/// A frame rate: `num/den` frames per second, and whether timecode drops frame labels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rate {
    /// Frames per second, numerator.
    pub num: u32,
    /// Frames per second, denominator (1 or 1001).
    pub den: u32,
    /// Drop-frame timecode (29.97 and 59.94 only).
    pub drop_frame: bool,
}

/// Frames in 24 hours of timecode at a rate's nominal count (timecode wraps there).
const TC_DAY_SECONDS: i64 = 24 * 3600;

impl Rate {
    /// The rates editors agree on, by the names `--fps` takes.
    pub const ALL: [(&'static str, Rate); 10] = [
        ("23.976", Rate::new(24000, 1001, false)),
        ("24", Rate::new(24, 1, false)),
        ("25", Rate::new(25, 1, false)),
        ("29.97df", Rate::new(30000, 1001, true)),
        ("29.97", Rate::new(30000, 1001, false)),
        ("30", Rate::new(30, 1, false)),
        ("50", Rate::new(50, 1, false)),
        ("59.94df", Rate::new(60000, 1001, true)),
        ("59.94", Rate::new(60000, 1001, false)),
        ("60", Rate::new(60, 1, false)),
    ];

    /// A rate from its parts (no check; see [`FromStr`] for the accepted rates).
    pub const fn new(num: u32, den: u32, drop_frame: bool) -> Rate {
        Rate { num, den, drop_frame }
    }

    /// The frames the timecode clock counts per second (24, 25, 30, 50 or 60).
    pub fn nominal(&self) -> u32 {
        self.num.div_ceil(self.den)
    }

    /// Whether the rate is an NTSC rate (`den == 1001`), as FCP7 XML's `<ntsc>` says.
    pub fn is_ntsc(&self) -> bool {
        self.den == 1001
    }

    /// Frames per second as a float (for formats that store one, like OpenTimelineIO).
    pub fn as_f64(&self) -> f64 {
        f64::from(self.num) / f64::from(self.den)
    }

    /// The name `--fps` takes for this rate (`29.97df`).
    pub fn name(&self) -> &'static str {
        Rate::ALL.iter().find(|(_, r)| r == self).map(|(n, _)| *n).unwrap_or("?")
    }

    /// The frame boundary nearest to `t`, a half frame rounding up (negative times give
    /// negative frames, with the same rule).
    pub fn frame_at(&self, t: Time) -> i64 {
        let scale = i128::from(self.den) * 1_000_000;
        let n = i128::from(t.micros()) * i128::from(self.num) + scale / 2;
        n.div_euclid(scale) as i64
    }

    /// The microsecond nearest to the start of frame `f` (a half microsecond rounding up).
    pub fn micros_of(&self, f: i64) -> i64 {
        let num = i128::from(self.num);
        let n = i128::from(f) * i128::from(self.den) * 1_000_000 * 2 + num;
        n.div_euclid(2 * num) as i64
    }

    /// The sample nearest to the start of frame `f` at `sample_rate` Hz (half up).
    pub fn sample_of(&self, f: i64, sample_rate: u32) -> i64 {
        let num = i128::from(self.num);
        let n = i128::from(f) * i128::from(self.den) * i128::from(sample_rate) * 2 + num;
        n.div_euclid(2 * num) as i64
    }

    /// Label frames per 24 hours of timecode (before drop-frame skips).
    fn drop_per_minute(&self) -> i64 {
        if self.drop_frame {
            i64::from(self.nominal() / 15)
        } else {
            0
        }
    }

    /// The number of frames in 24 hours of timecode (where the clock wraps).
    pub fn frames_per_day(&self) -> i64 {
        let nom = i64::from(self.nominal());
        let d = self.drop_per_minute();
        TC_DAY_SECONDS * nom - d * (24 * 60 - 24 * 6)
    }

    /// The timecode of frame `f` counted from `00:00:00:00` (wrapping at 24 hours), as
    /// `(hours, minutes, seconds, frames)`.
    pub fn timecode_parts(&self, f: i64) -> (u32, u32, u32, u32) {
        let nom = i64::from(self.nominal());
        let mut f = f.rem_euclid(self.frames_per_day());
        let d = self.drop_per_minute();
        if d > 0 {
            let per_10min = 600 * nom - 9 * d;
            let per_min = 60 * nom - d;
            let tens = f / per_10min;
            let rest = f % per_10min;
            f += 9 * d * tens;
            if rest >= d {
                f += d * ((rest - d) / per_min);
            }
        }
        let ff = f % nom;
        let s = f / nom;
        ((s / 3600) as u32, (s / 60 % 60) as u32, (s % 60) as u32, ff as u32)
    }

    /// The timecode of frame `f` (`01:02:03:04`; drop-frame separates frames with `;`).
    pub fn timecode(&self, f: i64) -> String {
        let (h, m, s, ff) = self.timecode_parts(f);
        let sep = if self.drop_frame { ';' } else { ':' };
        format!("{h:02}:{m:02}:{s:02}{sep}{ff:02}")
    }

    /// The frame a timecode names, or `None` when it is malformed or names a label that does
    /// not exist (a dropped `;00`, frames beyond the rate).
    pub fn parse_timecode(&self, tc: &str) -> Option<i64> {
        let b = tc.as_bytes();
        if b.len() != 11 || ![2, 5, 8].iter().all(|&i| matches!(b[i], b':' | b';' | b'.')) {
            return None;
        }
        let num = |i: usize| -> Option<i64> {
            let s = tc.get(i..i + 2)?;
            if !s.bytes().all(|c| c.is_ascii_digit()) {
                return None;
            }
            s.parse().ok()
        };
        self.frame_of(num(0)?, num(3)?, num(6)?, num(9)?)
    }

    /// The frame the timecode `hh:mm:ss:ff` names, or `None` for a label that does not exist
    /// (beyond 23:59:59, frames beyond the rate, a dropped label).
    pub fn frame_of(&self, h: i64, m: i64, s: i64, ff: i64) -> Option<i64> {
        let nom = i64::from(self.nominal());
        if !(0..24).contains(&h)
            || !(0..60).contains(&m)
            || !(0..60).contains(&s)
            || !(0..nom).contains(&ff)
        {
            return None;
        }
        let d = self.drop_per_minute();
        if d > 0 && s == 0 && m % 10 != 0 && ff < d {
            return None;
        }
        let minutes = 60 * h + m;
        Some((3600 * h + 60 * m + s) * nom + ff - d * (minutes - minutes / 10))
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rate {
    type Err = String;

    /// Accepts the names of [`Rate::ALL`], with `ndf` / `df` suffixes and `drop` spelled out:
    /// `23.976`, `24`, `25`, `29.97` (non-drop), `29.97df`, `30`, `50`, `59.94`, `59.94df`, `60`.
    fn from_str(s: &str) -> Result<Rate, String> {
        let l = s.trim().to_ascii_lowercase().replace([' ', '-', '_'], "");
        let l = l.strip_suffix("ndf").or_else(|| l.strip_suffix("nondrop")).unwrap_or(&l);
        let l = l.replace("drop", "df");
        Rate::ALL.iter().find(|(n, _)| *n == l).map(|(_, r)| *r).ok_or_else(|| {
            let names: Vec<&str> = Rate::ALL.iter().map(|(n, _)| *n).collect();
            format!("unknown frame rate {s:?} (one of {})", names.join(", "))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Rate {
        s.parse().unwrap()
    }

    #[test]
    fn names_parse() {
        assert_eq!(r("29.97df"), Rate::new(30000, 1001, true));
        assert_eq!(r("29.97 NDF"), Rate::new(30000, 1001, false));
        assert_eq!(r("59.94drop"), Rate::new(60000, 1001, true));
        assert_eq!(r("23.976"), Rate::new(24000, 1001, false));
        assert!("29".parse::<Rate>().is_err());
    }

    #[test]
    fn frames_round_half_up_and_back() {
        let ntsc = r("29.97");
        // One frame is 33 366.666… µs.
        assert_eq!(ntsc.frame_at(Time::from_micros(16_683)), 0);
        assert_eq!(ntsc.frame_at(Time::from_micros(16_684)), 1);
        assert_eq!(ntsc.micros_of(1), 33_367);
        assert_eq!(ntsc.micros_of(3), 100_100);
        assert_eq!(ntsc.sample_of(1, 48_000), 1602);
        for (_, rate) in Rate::ALL {
            for f in (0..200_000).step_by(7) {
                assert_eq!(rate.frame_at(Time::from_micros(rate.micros_of(f))), f, "{rate} {f}");
            }
        }
    }

    #[test]
    fn drop_frame_labels() {
        let df = r("29.97df");
        assert_eq!(df.timecode(1799), "00:00:59;29");
        assert_eq!(df.timecode(1800), "00:01:00;02");
        assert_eq!(df.timecode(17_982), "00:10:00;00");
        assert_eq!(df.frames_per_day(), 2_589_408);
        assert_eq!(df.timecode(2_589_408), "00:00:00;00");
        assert_eq!(df.parse_timecode("00:01:00;00"), None);
        assert_eq!(df.parse_timecode("00:01:00;02"), Some(1800));
        let df60 = r("59.94df");
        assert_eq!(df60.timecode(3599), "00:00:59;59");
        assert_eq!(df60.timecode(3600), "00:01:00;04");
        assert_eq!(df60.frames_per_day(), 5_178_816);
        assert_eq!(r("25").timecode(90_000), "01:00:00:00");
    }

    #[test]
    fn every_label_of_a_day_round_trips() {
        for (_, rate) in Rate::ALL {
            let mut prev = None;
            for f in 0..rate.frames_per_day() {
                let (h, m, s, ff) = rate.timecode_parts(f);
                assert!(prev < Some((h, m, s, ff)), "{rate} {f}");
                prev = Some((h, m, s, ff));
                let back = rate.frame_of(i64::from(h), i64::from(m), i64::from(s), i64::from(ff));
                assert_eq!(back, Some(f), "{rate} {f}");
                if f % 9973 == 0 {
                    assert_eq!(rate.parse_timecode(&rate.timecode(f)), Some(f), "{rate} {f}");
                }
            }
        }
    }
}
