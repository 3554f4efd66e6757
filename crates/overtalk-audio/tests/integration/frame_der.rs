//! A small frame-level DER with optimal speaker mapping, for diarization checks and the
//! `diarize_eval` example: frames here, segments in `overtalk score`, so the two check each other
//! (only the Hungarian speaker mapping is shared).
//!
//! 10 ms frames over `[0, duration)`. Per frame with `r` reference and `h` hypothesis speakers:
//! miss = max(0, r − h), false alarm = max(0, h − r), confusion = min(r, h) − correct, where
//! `correct` counts mapped pairs active together. The one-to-one mapping maximises the total
//! co-activity (Hungarian algorithm). Overlap is scored. With a collar, frames within `collar`
//! seconds of any reference boundary are not scored.
#![allow(dead_code)]

/// Speaker-labelled segments in seconds.
pub type Turns = Vec<(String, f64, f64)>;

/// Reads the SPEAKER lines of an RTTM file.
pub fn read_rttm(text: &str) -> Turns {
    text.lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            if f.len() < 8 || f[0] != "SPEAKER" {
                return None;
            }
            let s: f64 = f[3].parse().ok()?;
            let d: f64 = f[4].parse().ok()?;
            Some((f[7].to_string(), s, s + d))
        })
        .collect()
}

/// DER components in frames.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Der {
    /// Scored reference speaker-frames.
    pub total: u64,
    /// Missed speaker-frames.
    pub miss: u64,
    /// False-alarm speaker-frames.
    pub fa: u64,
    /// Confused speaker-frames.
    pub confusion: u64,
}

impl Der {
    /// (miss + fa + confusion) / total.
    pub fn rate(&self) -> f64 {
        (self.miss + self.fa + self.confusion) as f64 / self.total.max(1) as f64
    }
    /// Adds another file's components.
    pub fn add(&mut self, o: &Der) {
        self.total += o.total;
        self.miss += o.miss;
        self.fa += o.fa;
        self.confusion += o.confusion;
    }
}

fn matrix(t: &Turns, n: usize) -> (Vec<String>, Vec<Vec<bool>>) {
    let mut names: Vec<String> = t.iter().map(|x| x.0.clone()).collect();
    names.sort();
    names.dedup();
    let mut m = vec![vec![false; n]; names.len()];
    for (s, a, b) in t {
        let k = names.iter().position(|x| x == s).unwrap_or(0);
        let a = ((a * 100.0).round().max(0.0) as usize).min(n);
        let b = ((b * 100.0).round().max(0.0) as usize).min(n);
        for x in m[k].iter_mut().take(b).skip(a) {
            *x = true;
        }
    }
    (names, m)
}

/// Maximum-weight one-to-one assignment (rows to columns) of a rectangular weight matrix: the
/// scorer's own Hungarian mapping (pairs that never co-occur stay unmapped, which changes no
/// DER).
pub fn best_assignment(w: &[Vec<i64>]) -> Vec<Option<usize>> {
    overtalk::score::mapping::map_speakers(w, overtalk::score::options::MappingMethod::Hungarian)
}

/// Frame DER of `hyp` against `reference` over `[0, duration)` seconds with a collar (seconds
/// on each side of every reference boundary).
pub fn der(reference: &Turns, hyp: &Turns, duration: f64, collar: f64) -> Der {
    let n = (duration * 100.0).round().max(0.0) as usize;
    let (_, r) = matrix(reference, n);
    let (_, h) = matrix(hyp, n);
    let mut scored = vec![true; n];
    let c = (collar * 100.0).round() as isize;
    if c > 0 {
        for (_, a, b) in reference {
            for x in [a, b] {
                let f = (x * 100.0).round() as isize;
                for i in (f - c).max(0)..(f + c).min(n as isize) {
                    scored[i as usize] = false;
                }
            }
        }
    }
    let w: Vec<Vec<i64>> = r
        .iter()
        .map(|ri| {
            h.iter()
                .map(|hj| (0..n).filter(|&f| scored[f] && ri[f] && hj[f]).count() as i64)
                .collect()
        })
        .collect();
    let map = best_assignment(&w);
    let mut d = Der::default();
    for f in (0..n).filter(|&f| scored[f]) {
        let rc = r.iter().filter(|x| x[f]).count() as u64;
        let hc = h.iter().filter(|x| x[f]).count() as u64;
        let correct =
            map.iter().enumerate().filter(|(i, m)| m.is_some_and(|j| r[*i][f] && h[j][f])).count()
                as u64;
        d.total += rc;
        d.miss += rc.saturating_sub(hc);
        d.fa += hc.saturating_sub(rc);
        d.confusion += rc.min(hc) - correct;
    }
    d
}

/// Distinct speaker labels.
pub fn speaker_count(t: &Turns) -> usize {
    let mut n: Vec<&str> = t.iter().map(|x| x.0.as_str()).collect();
    n.sort_unstable();
    n.dedup();
    n.len()
}

/// An annotation's turns as `(label, start, end)` seconds.
pub fn turns_of(a: &overtalk::Annotation) -> Turns {
    a.tracks()
        .iter()
        .map(|t| {
            (
                a.speaker_name(t.speaker).to_string(),
                t.segment.start().micros() as f64 / 1e6,
                t.segment.end().micros() as f64 / 1e6,
            )
        })
        .collect()
}
