//! A small frame-level DER for checking detection (10 ms frames, speaker labels known, so no
//! mapping step). The audio crate does not depend on the library's scoring module, and a second,
//! independent scorer makes these checks a cross-check of it too.
//!
//! Per frame with `r` reference speakers, `h` detected speakers and `c` in both:
//! miss = max(0, r − h), false alarm = max(0, h − r), confusion = min(r, h) − c; DER = the sums
//! over frames divided by Σ r. Overlap is scored (a frame with two reference speakers counts
//! twice). With a collar, frames within `collar` of a reference boundary are not scored.
#![allow(dead_code)]

use overtalk::{Annotation, Delta};

/// Frame-level scores.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrameScore {
    /// Reference speaker-frames.
    pub total: u64,
    /// Missed speaker-frames.
    pub miss: u64,
    /// False-alarm speaker-frames.
    pub fa: u64,
    /// Confused speaker-frames.
    pub confusion: u64,
    /// Frames where the reference has ≥ 2 speakers.
    pub ref_overlap: u64,
    /// Frames where the hypothesis has ≥ 2 speakers.
    pub hyp_overlap: u64,
    /// Frames where both have ≥ 2 speakers.
    pub both_overlap: u64,
}

impl FrameScore {
    /// (miss + fa + confusion) / total.
    pub fn der(&self) -> f64 {
        (self.miss + self.fa + self.confusion) as f64 / self.total.max(1) as f64
    }
    /// Overlap recall.
    pub fn overlap_recall(&self) -> f64 {
        self.both_overlap as f64 / self.ref_overlap.max(1) as f64
    }
    /// Overlap precision.
    pub fn overlap_precision(&self) -> f64 {
        self.both_overlap as f64 / self.hyp_overlap.max(1) as f64
    }
    /// Sums two scores.
    pub fn add(&mut self, o: &FrameScore) {
        self.total += o.total;
        self.miss += o.miss;
        self.fa += o.fa;
        self.confusion += o.confusion;
        self.ref_overlap += o.ref_overlap;
        self.hyp_overlap += o.hyp_overlap;
        self.both_overlap += o.both_overlap;
    }
}

const HOP: i64 = 10_000;

fn frames(ann: &Annotation, names: &[String], n: usize) -> Vec<Vec<bool>> {
    let mut out = vec![vec![false; n]; names.len()];
    for t in ann.tracks() {
        let name = ann.speaker_name(t.speaker);
        let Some(k) = names.iter().position(|x| x == name) else { continue };
        let s = ((t.segment.start().micros() + HOP / 2) / HOP).max(0) as usize;
        let e = (((t.segment.end().micros() + HOP / 2) / HOP).max(0) as usize).min(n);
        for f in out[k].iter_mut().take(e).skip(s) {
            *f = true;
        }
    }
    out
}

/// Scores `hyp` against `reference` over `[0, duration)`; speakers are matched by label.
pub fn score(
    reference: &Annotation,
    hyp: &Annotation,
    duration: Delta,
    collar: Delta,
) -> FrameScore {
    let n = (duration.micros() / HOP).max(0) as usize;
    let mut names: Vec<String> = reference.speakers().iter().map(|(_, s)| s.to_owned()).collect();
    for (_, s) in hyp.speakers().iter() {
        if !names.iter().any(|x| x == s) {
            names.push(s.to_owned());
        }
    }
    let r = frames(reference, &names, n);
    let h = frames(hyp, &names, n);
    let mut scored = vec![true; n];
    let c = collar.micros() / HOP;
    if c > 0 {
        for t in reference.tracks() {
            for b in [t.segment.start().micros(), t.segment.end().micros()] {
                let f = (b + HOP / 2) / HOP;
                for x in (f - c).max(0)..(f + c).min(n as i64) {
                    scored[x as usize] = false;
                }
            }
        }
    }
    let mut s = FrameScore::default();
    for f in 0..n {
        if !scored[f] {
            continue;
        }
        let nr = r.iter().filter(|v| v[f]).count() as u64;
        let nh = h.iter().filter(|v| v[f]).count() as u64;
        let nc = r.iter().zip(&h).filter(|(a, b)| a[f] && b[f]).count() as u64;
        s.total += nr;
        s.miss += nr.saturating_sub(nh);
        s.fa += nh.saturating_sub(nr);
        s.confusion += nr.min(nh) - nc;
        s.ref_overlap += u64::from(nr >= 2);
        s.hyp_overlap += u64::from(nh >= 2);
        s.both_overlap += u64::from(nr >= 2 && nh >= 2);
    }
    s
}
