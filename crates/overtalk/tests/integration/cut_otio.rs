//! Cut lists read back by OpenTimelineIO and its editor adapters (cmx_3600, fcp_xml,
//! fcpx_xml): random cut lists at every rate, each clip's source range and record position
//! frame-exact; and overtalk's timecode equal to OpenTimelineIO's for every frame of 24 hours
//! at the drop-frame rates (every 101st frame at the others); multicam (`--follow-speaker`
//! with one camera per speaker) cut lists with every clip's source media, source range and
//! record position exact.
//!
//! Needs the venv of `scripts/cut/setup_venv.sh` (or `OVERTALK_OTIO_PYTHON`); skipped with a
//! printed reason without it, and a failure under `OVERTALK_REQUIRE_SHARED_DATA` (CI makes the
//! venv first).

#![allow(clippy::unwrap_used)]

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

use overtalk::analysis::{analyze, Params};
use overtalk::cut::{self, edl, CutOptions, Edit, Media, Rate, Selection};
use overtalk::{Annotation, Delta, Segment, Transcript};
use sha2::{Digest, Sha256};

fn python(test: &str) -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let py = std::env::var_os("OVERTALK_OTIO_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("scripts/cut/.venv/bin/python"));
    let ok = Command::new(&py)
        .args([
            "-c",
            "import opentimelineio, otio_cmx3600_adapter, otio_fcp_adapter, otio_fcpx_xml_adapter",
        ])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(py);
    }
    let why = format!(
        "{test}: no Python with opentimelineio and its adapters at {} (run scripts/cut/setup_venv.sh)",
        py.display()
    );
    if std::env::var_os("OVERTALK_REQUIRE_SHARED_DATA").is_some() {
        panic!("{why}");
    }
    eprintln!("skipping {why}");
    None
}

fn script() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts/cut/otio_check.py")
}

/// xorshift64*: reproducible cases without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> i64 {
        (self.next() % n.max(1)) as i64
    }
}

/// 2–4 speakers taking turns (with overlaps) over up to 23 hours, so hours, ten-minute
/// boundaries and dropped labels all occur.
fn random_annotation(rng: &mut Rng) -> Annotation {
    let speakers = ["A", "B", "C", "D"];
    let n_spk = 2 + rng.below(3) as usize;
    let n = 20 + rng.below(60);
    let span_ms = 60_000 + rng.below(23 * 3_600_000);
    let step = span_ms / n;
    let mut v = Vec::new();
    for i in 0..n {
        let start = i * step + rng.below(step as u64 / 2 + 1);
        let len = 200 + rng.below(step as u64 * 3 / 2 + 1);
        let s = Segment::from_millis(start, start + len).unwrap();
        v.push((s, speakers[rng.below(n_spk as u64) as usize]));
    }
    Annotation::from_labelled(v)
}

#[test]
fn random_cut_lists_round_trip_through_opentimelineio() {
    let Some(py) = python("cut_otio") else { return };
    let dir = std::env::temp_dir().join(format!("overtalk-cut-otio-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x5EED_CAFE);
    let mut cases = 0;
    for (fps, rate) in Rate::ALL {
        for k in 0..4 {
            let ann = random_annotation(&mut rng);
            let spk = ["A", "B"][rng.below(2) as usize].to_owned();
            let selection = match k % 3 {
                0 => Selection::Without(vec![spk]),
                1 => Selection::Only(vec![spk]),
                _ => Selection::Mute(vec![spk]),
            };
            let options = CutOptions {
                rate,
                pad: Delta::from_millis(rng.below(300)),
                merge: Delta::from_millis(rng.below(500)),
                min_clip: Delta::from_millis(rng.below(400)),
                media_duration: None,
            };
            let Ok(c) = cut::plan(&ann, None, &selection, &options) else { continue };
            let media = [Media::from_path(&format!("/media/case {fps} {k}.wav"))];
            let edit = Edit { name: "case", cut: &c, media: &media, angles: None };
            let name = format!("r{}_{k}", fps.replace('.', "_"));
            let style = [edl::Style::Premiere, edl::Style::Resolve, edl::Style::Avid][k % 3];
            let w = |ext: &str, text: String| {
                std::fs::write(dir.join(format!("{name}.{ext}")), text).unwrap()
            };
            w("otio", cut::otio::write(&edit));
            w("edl", edl::write(&edit, 0, style));
            w("xml", cut::fcp7::write(&edit));
            w("fcpxml", cut::fcpxml::write(&edit));
            let mut exp = format!("{{\"fps\": \"{fps}\", \"clips\": [");
            for (i, cl) in c.clips.iter().enumerate() {
                let sep = if i > 0 { ", " } else { "" };
                write!(exp, "{sep}[{}, {}, {}]", cl.source_in, cl.duration, cl.record_in).unwrap();
            }
            exp.push_str("]}\n");
            w("expected.json", exp);
            cases += 1;
        }
    }
    assert!(cases >= 30, "{cases}");
    let out = Command::new(&py).arg(script()).arg(&dir).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}{}", String::from_utf8_lossy(&out.stderr));
    let summary = text.lines().find(|l| l.ends_with(" failed")).unwrap_or_default().to_owned();
    assert!(out.status.success(), "{summary}");
    assert_eq!(summary, format!("{} files checked, 0 failed", cases * 4));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn multicam_cut_lists_round_trip_through_opentimelineio() {
    let Some(py) = python("cut_otio multicam") else { return };
    let dir = std::env::temp_dir().join(format!("overtalk-cut-multicam-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0xA11E_CA4E);
    let mut cases = 0;
    for (fps, rate) in Rate::ALL {
        for k in 0..2 {
            let ann = random_annotation(&mut rng);
            let analysis = analyze(&Transcript::from_annotation(ann.clone()), &Params::default());
            let options = CutOptions { rate, ..CutOptions::default() };
            let c = cut::plan(&ann, Some(&analysis.unwrap()), &Selection::FollowSpeaker, &options)
                .unwrap();
            // One camera per speaker, named with a space (URLs percent-encode it).
            let speakers: Vec<String> = ann.speakers().iter().map(|(_, n)| n.to_owned()).collect();
            let media: Vec<Media> = speakers
                .iter()
                .map(|s| Media::from_path(&format!("/media/cam {s} {fps}.mp4")))
                .collect();
            let cameras: Vec<(String, usize)> =
                speakers.iter().cloned().enumerate().map(|(i, s)| (s, i)).collect();
            let angles = cut::angles_by_speaker(&c, &cameras).unwrap();
            assert!(angles.iter().any(|&a| a != angles[0]), "the cut switches camera");
            let edit = Edit { name: "multicam", cut: &c, media: &media, angles: Some(&angles) };
            let name = format!("m{}_{k}", fps.replace('.', "_"));
            let style = [edl::Style::Premiere, edl::Style::Resolve, edl::Style::Avid][k % 3];
            let w = |ext: &str, text: String| {
                std::fs::write(dir.join(format!("{name}.{ext}")), text).unwrap()
            };
            w("otio", cut::otio::write(&edit));
            assert_eq!(edl::write_all(&edit, style).len(), 1, "one EDL switching reels");
            w("edl", edl::write(&edit, 0, style));
            w("xml", cut::fcp7::write(&edit));
            w("fcpxml", cut::fcpxml::write(&edit));
            let mut exp = format!("{{\"fps\": \"{fps}\", \"clips\": [");
            for (i, cl) in c.clips.iter().enumerate() {
                let sep = if i > 0 { ", " } else { "" };
                write!(exp, "{sep}[{}, {}, {}]", cl.source_in, cl.duration, cl.record_in).unwrap();
            }
            exp.push_str("], \"media\": [");
            for (i, &a) in angles.iter().enumerate() {
                let sep = if i > 0 { ", " } else { "" };
                write!(exp, "{sep}\"{}\"", media[a].name).unwrap();
            }
            exp.push_str("]}\n");
            w("expected.json", exp);
            cases += 1;
        }
    }
    assert_eq!(cases, 20);
    let out = Command::new(&py).arg(script()).arg(&dir).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}{}", String::from_utf8_lossy(&out.stderr));
    let summary = text.lines().find(|l| l.ends_with(" failed")).unwrap_or_default().to_owned();
    assert!(out.status.success(), "{summary}");
    assert_eq!(summary, format!("{} files checked, 0 failed", cases * 4));
    let _ = std::fs::remove_dir_all(&dir);
}

fn our_hash(rate: Rate, step: usize, count: i64) -> String {
    let mut h = Sha256::new();
    for f in (0..count).step_by(step) {
        h.update(rate.timecode(f).as_bytes());
        h.update(b"\n");
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn timecode_matches(fps: &str, step: usize) {
    let Some(py) = python("cut_otio timecode") else { return };
    let rate: Rate = fps.parse().unwrap();
    // OpenTimelineIO wraps non-drop timecode at 1000/1001 rates after 24 hours of wall time
    // (the drop-frame day, 2 589 408 frames at 29.97), where SMPTE non-drop labels run on to
    // 23:59:59:29 (2 592 000 frames): the comparison stops at the shorter day.
    let count = if rate.is_ntsc() && !rate.drop_frame {
        Rate { drop_frame: true, ..rate }.frames_per_day()
    } else {
        rate.frames_per_day()
    };
    let out = Command::new(&py)
        .arg(script())
        .args(["--timecode", fps, &step.to_string(), &count.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let theirs = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    assert_eq!(our_hash(rate, step, count), theirs, "{fps}");
}

#[test]
fn drop_frame_timecode_equals_opentimelineio_on_every_frame_of_a_day_2997() {
    timecode_matches("29.97df", 1);
}

#[test]
fn drop_frame_timecode_equals_opentimelineio_on_every_frame_of_a_day_5994() {
    timecode_matches("59.94df", 1);
}

#[test]
fn non_drop_timecode_equals_opentimelineio() {
    for fps in ["23.976", "24", "25", "29.97", "30", "50", "59.94", "60"] {
        timecode_matches(fps, 101);
    }
}
