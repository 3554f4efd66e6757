//! The multitrack rule decided on growing prefixes of a recording, as the look-ahead detector
//! (`overtalk_audio::online`, `OnlineOptions::lookahead`) decides it, against the rule on the
//! whole recording: for each prefix (every 500 ms) the band need per track
//! (`MultitrackReport::band_need`), and at the end the stretches where the frames committed
//! from the prefixes (each `LOOKAHEAD` frames behind the prefix's end) differ from the whole
//! recording's decision.
//!
//! ```text
//! cargo run -p overtalk-audio --example prefix_stats -- ../shared/data/real-audio/ami-es2004a-multitrack [LOOKAHEAD_FRAMES]
//! ```
//! The folder holds `source0.wav` … and the speaker names are the AMI ES2004a headsets'
//! (MEO015, FEE013, MEE014, FEE016); the look-ahead defaults to 200 frames (2 s).

// A measurement tool: a panic here is a failed run, with its message.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use overtalk::{Region, Rounding};
use overtalk_audio::frames::GRID;
use overtalk_audio::multitrack::{detect_regions, MultitrackOptions};
use overtalk_audio::pipeline::{analyze, DetectOptions, TrackSpec};

/// The frames of `r` within `[0, n)`.
fn mask(r: &Region, n: usize) -> Vec<bool> {
    let mut m = vec![false; n];
    for s in r.iter() {
        let a = GRID.index_of(s.start(), Rounding::Floor).min(n);
        let z = GRID.index_of(s.end(), Rounding::Ceil).min(n);
        m[a..z].iter_mut().for_each(|v| *v = true);
    }
    m
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let dir = PathBuf::from(args.get(1).expect("a folder of source0.wav … source3.wav"));
    let look: usize = args.get(2).map_or(200, |s| s.parse().unwrap());
    let specs: Vec<TrackSpec> = overtalk_testkit::ami_es2004a_headsets(&dir)
        .into_iter()
        .map(|(name, path)| TrackSpec::file(name, path))
        .collect();
    let (features, _) = analyze(&specs, &DetectOptions::default(), &mut |_| {}).unwrap();
    let o = MultitrackOptions::default();
    let n = features.iter().map(|f| f.frames()).min().unwrap();
    let k = features.len();
    let (whole, report) = detect_regions(&features, &o).unwrap();
    println!("whole recording: band need {:?}", report.band_need);
    let whole: Vec<Vec<bool>> = whole.iter().map(|r| mask(r, n)).collect();
    let mut committed = vec![vec![false; n]; k];
    let mut done = 0usize;
    let mut end = 50usize;
    while done < n {
        let to_frame = end.min(n);
        let prefix: Vec<_> = features.iter().map(|f| f.window(0, to_frame).unwrap()).collect();
        let (regions, report) = detect_regions(&prefix, &o).unwrap();
        let commit_to = if to_frame == n { n } else { to_frame.saturating_sub(look) };
        for (i, r) in regions.iter().enumerate() {
            let m = mask(r, to_frame);
            committed[i][done..commit_to.max(done)].copy_from_slice(&m[done..commit_to.max(done)]);
        }
        println!("prefix {:5.1} s: band need {:?}", to_frame as f64 / 100.0, report.band_need);
        done = done.max(commit_to);
        end += 50;
    }
    let (mut missed, mut extra) = (0usize, 0usize);
    for i in 0..k {
        let mut f = 0;
        while f < n {
            if committed[i][f] == whole[i][f] {
                f += 1;
                continue;
            }
            let (s, v) = (f, committed[i][f]);
            while f < n && committed[i][f] != whole[i][f] && committed[i][f] == v {
                f += 1;
            }
            if v {
                extra += f - s;
            } else {
                missed += f - s;
            }
            let what =
                if v { "committed, not in the whole's" } else { "in the whole's, not committed" };
            println!("{} {:.2}–{:.2} s: {what}", specs[i].name, s as f64 / 100.0, f as f64 / 100.0);
        }
    }
    println!(
        "committed from the prefixes against the whole recording: {:.2} s missing, {:.2} s extra",
        missed as f64 / 100.0,
        extra as f64 / 100.0
    );
}
