//! The online multitrack rule against offline `detect`: the look-ahead detector on a
//! conversation built here gives exactly the offline speech once its look-ahead has passed,
//! and the history it keeps stays within its window however long the input.

use overtalk::{Delta, Region, Segment, Time};
use overtalk_audio::decode::{decode_all, DecodeOptions};
use overtalk_audio::online::{EdgeState, OnlineMultitrack, OnlineOptions, FORGET_FRAMES};

use crate::multitrack::{conversation, run, Conversation};

/// The conversation's tracks as offline `detect` reads them (written to 16-bit WAV and read
/// back), and the offline speech per track.
fn offline(c: &Conversation, dir: &std::path::Path) -> (Vec<Vec<f32>>, Vec<Region>) {
    let found = run(c, dir);
    let tracks = c
        .names
        .iter()
        .map(|n| decode_all(&dir.join(format!("{n}.wav")), &DecodeOptions::default()).unwrap().1)
        .map(|mut ch| ch.swap_remove(0))
        .collect();
    (tracks, found.annotation.speaker_regions())
}

/// What the online detector commits while the tracks stream in (blocks of 10 ms), per track:
/// the speech up to the commit point, the commit point, and the largest history it held.
fn stream(
    tracks: &[Vec<f32>],
    names: &[String],
    options: &OnlineOptions,
) -> (Vec<Region>, Time, usize, Vec<Region>, Vec<Region>) {
    let mut d = OnlineMultitrack::new(names, 16_000, options).unwrap();
    let mut open: Vec<Option<Time>> = vec![None; tracks.len()];
    let mut segs: Vec<Vec<Segment>> = vec![Vec::new(); tracks.len()];
    let mut held = 0;
    let n = tracks[0].len();
    for at in (0..n).step_by(160) {
        let block: Vec<&[f32]> = tracks.iter().map(|t| &t[at..(at + 160).min(n)]).collect();
        for e in d.push(&block).unwrap() {
            if e.state != EdgeState::Committed {
                continue;
            }
            if e.speaking {
                open[e.track] = Some(e.time);
            } else if let Some(s) = open[e.track].take() {
                segs[e.track].push(Segment::new(s, e.time).unwrap());
            }
        }
        held = held.max(d.held_frames());
    }
    let committed = d.committed();
    let streamed = segs
        .into_iter()
        .zip(&open)
        .map(|(mut s, o)| {
            if let Some(o) = o.filter(|&o| o < committed) {
                s.push(Segment::new(o, committed).unwrap());
            }
            Region::from_segments(s)
        })
        .collect();
    let f = d.finish_revised().unwrap();
    (streamed, committed, held, f.regions, f.revised)
}

fn crop(r: &Region, to: Time) -> Region {
    r.crop_segment(Segment::new(Time::ZERO, to).unwrap())
}

#[test]
fn the_lookahead_detector_commits_the_offline_speech() {
    // Two speakers, each mic hearing the other 20 dB down, overlaps at 2.5 s and 9 s.
    let dir = tempfile::tempdir().unwrap();
    let c = conversation(-20.0, &[0.0, -3.0], false, false);
    let (tracks, offline) = offline(&c, dir.path());
    let names: Vec<String> = c.names.iter().map(|n| (*n).to_owned()).collect();
    let (streamed, committed, _, finished, revised) =
        stream(&tracks, &names, &OnlineOptions::lookahead());
    // Committed while streaming: everything but the last look-ahead (2 s) and one decision
    // period (0.5 s) of the 20 s.
    assert_eq!(committed, Time::from_micros(17_500_000));
    let segments = |r: &Region| -> Vec<(i64, i64)> {
        r.iter().map(|s| (s.start().micros() / 10_000, s.end().micros() / 10_000)).collect()
    };
    // Offline, in 10 ms frames: A 0.5–3.68 s and 9.0–12.18 s, B 2.5–5.05 s and 12.99–15.55 s.
    assert_eq!(segments(&offline[0]), [(50, 368), (900, 1218)]);
    assert_eq!(segments(&offline[1]), [(250, 505), (1299, 1555)]);
    // Online: A exactly; B exactly from its second turn on. B's first turn was decided on the
    // first 5 s alone, before B had ever dominated a frame (no coupling of B's voice into A's
    // mic yet, no bleed statistics of B's mic): both its edges land one frame inside.
    assert_eq!(streamed[0], crop(&offline[0], committed));
    assert_eq!(segments(&streamed[1]), [(251, 504), (1299, 1555)]);
    // The end decides the last 2.5 s as offline does (here: no speech) and changes nothing
    // committed.
    assert_eq!(finished[0], offline[0]);
    assert_eq!(segments(&finished[1]), [(251, 504), (1299, 1555)]);
    // The revision decides every frame once more on the whole session: offline `detect`.
    assert_eq!(revised, offline);
}

#[test]
fn the_history_kept_is_the_window() {
    // A 5 s window over 20 s of input: at most the window, the frames forgotten at a time and
    // one voice-activity step are held, and the decisions are those of the window.
    let dir = tempfile::tempdir().unwrap();
    let c = conversation(-20.0, &[0.0, -3.0], false, false);
    let (tracks, _) = offline(&c, dir.path());
    let names: Vec<String> = c.names.iter().map(|n| (*n).to_owned()).collect();
    let options =
        OnlineOptions { window: Delta::from_micros(5_000_000), ..OnlineOptions::lookahead() };
    let (short, committed, held, _, _) = stream(&tracks, &names, &options);
    assert!(held <= 500 + FORGET_FRAMES + 3, "{held}");
    assert!(held >= 500 + FORGET_FRAMES - 50, "{held}");
    // The whole 20 s as the window: the same speech where both windows hold it all.
    let (whole, same_commit, whole_held, _, _) =
        stream(&tracks, &names, &OnlineOptions::lookahead());
    assert_eq!(same_commit, committed);
    assert!(whole_held >= 2000 - 3, "{whole_held}");
    for (s, w) in short.iter().zip(&whole) {
        assert_eq!(crop(s, Time::from_micros(3_000_000)), crop(w, Time::from_micros(3_000_000)));
    }
    // The revision covers what is held: before it, the committed speech stays as it was.
    let mut d = OnlineMultitrack::new(&names, 16_000, &options).unwrap();
    for at in (0..tracks[0].len()).step_by(160) {
        let block: Vec<&[f32]> = tracks.iter().map(|t| &t[at..(at + 160).min(t.len())]).collect();
        d.push(&block).unwrap();
    }
    let f = d.finish_revised().unwrap();
    let from = f.revised_from;
    assert!(from > Time::ZERO && from < Time::from_micros(20_000_000), "{from:?}");
    for (c, r) in f.regions.iter().zip(&f.revised) {
        assert_eq!(crop(c, from), crop(r, from));
    }
}
