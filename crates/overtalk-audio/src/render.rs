//! Rendering a cut list to audio: the kept stretches joined with short raised-cosine
//! crossfades, removed speakers' microphones dropped and their bleed in the others ducked.
//!
//! ```text
//! source      ──[ clip 1 ]──xxxxxxxx──[ clip 2 ]──       (x: removed)
//! output      ──[ clip 1 ]╳[ clip 2 ]──                  ╳: crossfade centred on the join,
//!                                                          half before, half after
//! in place    ──[ clip 1 ]╲________╱[ clip 2 ]──         fades into and out of silence,
//!                                                          inside the clips
//! ```
//!
//! Sample positions come from the cut list's frames ([`overtalk::cut::Rate::sample_of`]), so a
//! render and an editor that imports the same list cut at the same samples. The crossfade
//! weights are `w(k) = ½ − ½·cos(π(k + ½)/n)` for the incoming clip and `1 − w(k)` for the
//! outgoing one (they sum to one: a constant signal passes unchanged). Across a join the
//! outgoing clip continues past its end and the incoming one starts before its start, by half
//! the crossfade, from the source (silence beyond the source's ends).
//!
//! From one microphone per speaker, [`mix_tracks`] drops the removed speakers' tracks and
//! multiplies each remaining track by a gain that falls to `duck` (default −40 dB) during the
//! removed speakers' solo speech (their bleed is all those tracks carry then), with the same
//! raised-cosine ramps, then sums the tracks.

use overtalk::cut::CutList;
use overtalk::{Region, Time};

mod recording;
pub use recording::{render_wav, CutRecording, CutRenderOptions};

/// How to render.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderOptions {
    /// Length of each crossfade or fade, in samples (at least 1).
    pub crossfade: usize,
}

/// The raised-cosine weight of sample `k` of an `n`-sample fade in.
fn fade_in(k: usize, n: usize) -> f32 {
    (0.5 - 0.5 * (std::f64::consts::PI * (k as f64 + 0.5) / n as f64).cos()) as f32
}

/// The sample at `i` of `x`, silence outside it.
fn at(x: &[f32], i: i64) -> f32 {
    if i < 0 {
        return 0.0;
    }
    x.get(i as usize).copied().unwrap_or(0.0)
}

/// Renders the cut of one channel sampled at `rate` Hz.
pub fn render(cut: &CutList, x: &[f32], rate: u32, options: &RenderOptions) -> Vec<f32> {
    let fr = cut.rate;
    let sample = |f: i64| fr.sample_of(f, rate).max(0);
    let total = sample(cut.record_frames()) as usize;
    let mut out = vec![0.0f32; total];
    let n = options.crossfade.max(1);
    let half = (n / 2) as i64;
    let clips = &cut.clips;
    for (i, c) in clips.iter().enumerate() {
        let s0 = sample(c.source_in);
        let r0 = sample(c.record_in);
        let joined_before = i > 0 && clips[i - 1].record_out() == c.record_in;
        let joined_after = clips.get(i + 1).is_some_and(|d| d.record_in == c.record_out());
        // The record positions decide the length (so clips tile the output exactly); the source
        // is read from its own first sample, at most one sample off its frame's end.
        let len = sample(c.record_out()) - r0;
        // Body: plain copy (fades at silence edges applied below).
        let dst = &mut out[(r0 as usize).min(total)..((r0 + len) as usize).min(total)];
        let start = s0 as usize;
        for (k, o) in dst.iter_mut().enumerate() {
            *o = x.get(start + k).copied().unwrap_or(0.0);
        }
        if !joined_before && c.record_in > 0 {
            let m = (n as i64).min(len) as usize;
            for k in 0..m {
                if let Some(o) = out.get_mut(r0 as usize + k) {
                    *o *= fade_in(k, m);
                }
            }
        }
        let r1 = r0 + len;
        if !joined_after && (r1 as usize) < total {
            let m = (n as i64).min(len) as usize;
            for k in 0..m {
                if let Some(o) = out.get_mut((r1 as usize) - m + k) {
                    *o *= 1.0 - fade_in(k, m);
                }
            }
        }
    }
    // Crossfades last, over both bodies.
    for (i, c) in clips.iter().enumerate() {
        let r1 = sample(c.record_out());
        let s1 = sample(c.source_in) + (r1 - sample(c.record_in));
        if let Some(d) = clips.get(i + 1).filter(|d| d.record_in == c.record_out()) {
            let t0 = sample(d.source_in);
            // Centred on the join at record sample r1: k runs over [−half, n − half).
            for k in 0..n as i64 {
                let off = k - half;
                let w = fade_in(k as usize, n);
                let a = at(x, s1 + off);
                let b = at(x, t0 + off);
                let pos = r1 + off;
                if pos >= 0 {
                    if let Some(o) = out.get_mut(pos as usize) {
                        *o = a * (1.0 - w) + b * w;
                    }
                }
            }
        }
    }
    out
}

/// A gain of one with raised-cosine dips to `duck` over `region` (samples at `rate` Hz): the
/// ramps of `n` samples are centred on the region's edges; close regions' ramps take the lower
/// gain.
pub fn duck_gain(len: usize, region: &Region, rate: u32, duck: f32, n: usize) -> Vec<f32> {
    let mut g = vec![1.0f32; len];
    let n = n.max(1) as i64;
    let half = n / 2;
    let sample = |t: Time| -> i64 {
        ((i128::from(t.micros()) * i128::from(rate) + 500_000) / 1_000_000) as i64
    };
    let mut put = |i: i64, v: f32| {
        if let Some(x) = usize::try_from(i).ok().and_then(|i| g.get_mut(i)) {
            *x = x.min(v);
        }
    };
    for seg in region.iter() {
        let (a, b) = (sample(seg.start()), sample(seg.end()).min(len as i64 + n));
        for k in 0..n {
            let w = fade_in(k as usize, n as usize);
            put(a - half + k, 1.0 - w * (1.0 - duck));
            put(b - half + k, duck + w * (1.0 - duck));
        }
        for i in (a - half + n)..(b - half) {
            put(i, duck);
        }
    }
    g
}

/// Sums tracks, each multiplied by `gain` (one shared gain curve), into one channel.
pub fn mix_tracks(tracks: &[&[f32]], gain: Option<&[f32]>) -> Vec<f32> {
    let len = tracks.iter().map(|t| t.len()).max().unwrap_or(0);
    let mut out = vec![0.0f32; len];
    for t in tracks {
        for (o, v) in out.iter_mut().zip(t.iter()) {
            *o += *v;
        }
    }
    if let Some(g) = gain {
        for (o, v) in out.iter_mut().zip(g.iter()) {
            *o *= *v;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use overtalk::cut::{Clip, Rate};
    use overtalk::Segment;

    fn clip(source_in: i64, duration: i64, record_in: i64) -> Clip {
        Clip { source_in, duration, record_in, speaker: None, note: String::new() }
    }

    #[test]
    fn a_constant_passes_a_crossfade_unchanged() {
        // 25 fps at 1000 Hz: 40 samples a frame.
        let cut = CutList {
            rate: Rate::new(25, 1, false),
            in_place: false,
            media_frames: 10,
            clips: vec![clip(0, 2, 0), clip(5, 3, 2)],
        };
        let x = vec![0.5f32; 400];
        let y = render(&cut, &x, 1000, &RenderOptions { crossfade: 10 });
        assert_eq!(y.len(), 200);
        assert!(y.iter().all(|v| (v - 0.5).abs() < 1e-6));
        // A ramp: the two samples around the join mix both sides.
        let x: Vec<f32> = (0..400).map(|i| i as f32).collect();
        let y = render(&cut, &x, 1000, &RenderOptions { crossfade: 2 });
        let w = fade_in(0, 2);
        assert_eq!((y[78], y[81]), (78.0, 201.0));
        assert!((y[79] - (79.0 * (1.0 - w) + 199.0 * w)).abs() < 1e-4);
        assert!((y[80] - (80.0 * w + 200.0 * (1.0 - w))).abs() < 1e-4);
    }

    #[test]
    fn in_place_gaps_are_silent() {
        let cut = CutList {
            rate: Rate::new(25, 1, false),
            in_place: true,
            media_frames: 10,
            clips: vec![clip(0, 2, 0), clip(5, 5, 5)],
        };
        let x = vec![1.0f32; 400];
        let y = render(&cut, &x, 1000, &RenderOptions { crossfade: 4 });
        assert_eq!(y.len(), 400);
        assert!(y[80..200].iter().all(|v| *v == 0.0));
        assert_eq!(y[0], 1.0);
        assert!(y[79] < 0.2 && y[200] < 0.2);
        assert_eq!(y[399], 1.0);
    }

    #[test]
    fn ducking_reaches_its_depth_inside_the_region() {
        let r = Region::from_segment(Segment::from_millis(100, 200).unwrap());
        let g = duck_gain(300, &r, 1000, 0.01, 10);
        assert_eq!(g[0], 1.0);
        assert_eq!(g[150], 0.01);
        assert!(g[96] < 1.0 && g[96] > 0.01);
        assert_eq!(g[299], 1.0);
    }
}
