//! The render stage of `overtalk cut` alone, timed: one conversation's one-mic-per-speaker
//! tracks (decoded once, outside the timing) cut `--without` their last speaker, as the
//! command does it — the kept tracks summed, ducked during the removed speaker's solo speech,
//! cut and crossfaded — repeated until at least a second has passed.
//!
//! usage: render_bench RTTM REMOVED FPS CROSSFADE_MS TRACK.wav…
//!
//! Prints one line: `audio_s wall_s ratio` for the render stage (mix, duck, cut), the audio
//! being the source's length per repetition.

use std::path::Path;
use std::time::Instant;

use overtalk::cut::{self, CutOptions, Selection};
use overtalk::format::{read_path, ReadOptions};
use overtalk::Region;
use overtalk_audio::decode::{decode_all, frames_to_delta, DecodeOptions};
use overtalk_audio::render::{self, RenderOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [rttm, removed, fps, crossfade_ms, tracks @ ..] = args.as_slice() else {
        eprintln!("usage: render_bench RTTM REMOVED FPS CROSSFADE_MS TRACK.wav…");
        std::process::exit(2);
    };
    let read = read_path(Path::new(rttm), None, &ReadOptions::default()).expect("reference");
    let (_, transcript) = read.corpus.iter().next().expect("one recording");
    let annotation = transcript.annotation();
    let mut rate = 0;
    let mut kept: Vec<Vec<f32>> = Vec::new();
    for t in tracks {
        let (info, chans) = decode_all(Path::new(t), &DecodeOptions::default()).expect("decode");
        rate = info.sample_rate;
        // The speaker is the file name's last `_` field (bench/make_synth.sh: NAME.micI_S.wav).
        let speaker = t.rsplit('_').next().unwrap_or("").trim_end_matches(".wav");
        if speaker != removed {
            kept.push(chans.into_iter().next().expect("one channel"));
        }
    }
    let len = kept.iter().map(Vec::len).max().unwrap_or(0);
    let options = CutOptions {
        rate: fps.parse().expect("FPS"),
        media_duration: Some(frames_to_delta(len as u64, rate)),
        ..CutOptions::default()
    };
    let selection = Selection::Without(vec![removed.clone()]);
    let cut = cut::plan(annotation, None, &selection, &options).expect("plan");
    // The removed speaker's solo speech, where the kept tracks carry only their bleed.
    let mut theirs = Region::new();
    let mut others = Region::new();
    for (id, n) in annotation.speakers().iter() {
        let r = annotation.speaker_region(id);
        if n == removed {
            theirs = theirs.union(&r);
        } else {
            others = others.union(&r);
        }
    }
    let solo = theirs.difference(&others);
    let n = (u64::from(rate) * crossfade_ms.parse::<u64>().expect("CROSSFADE_MS") / 1000).max(1);
    let ro = RenderOptions { crossfade: n as usize };
    let refs: Vec<&[f32]> = kept.iter().map(Vec::as_slice).collect();
    let start = Instant::now();
    let mut reps = 0u32;
    let mut sink = 0.0f32;
    while reps == 0 || start.elapsed().as_secs_f64() < 1.0 {
        let gain = render::duck_gain(len, &solo, rate, 0.01, ro.crossfade);
        let mixed = render::mix_tracks(&refs, Some(&gain));
        let out = render::render(&cut, &mixed, rate, &ro);
        sink += out.get(out.len() / 2).copied().unwrap_or(0.0);
        reps += 1;
    }
    let wall = start.elapsed().as_secs_f64();
    let audio = f64::from(reps) * len as f64 / f64::from(rate);
    println!("{audio:.1} {wall:.3} {:.0}", audio / wall);
    if sink.is_nan() {
        eprintln!("(nan)");
    }
}
