use super::*;
use crate::analysis::{analyze, Params};
use crate::format::{read_str, Format, ReadOptions};

/// Wife 0–4 s, Husband 3.5–6 s (overlapping her end by 0.5 s), Wife 7–9 s, Husband 9.5–10 s.
fn ann() -> Annotation {
    Annotation::from_labelled([
        (Segment::from_millis(0, 4000).unwrap(), "Wife"),
        (Segment::from_millis(3500, 6000).unwrap(), "Husband"),
        (Segment::from_millis(7000, 9000).unwrap(), "Wife"),
        (Segment::from_millis(9500, 10_000).unwrap(), "Husband"),
    ])
}

fn opts(fps: &str) -> CutOptions {
    CutOptions { rate: fps.parse().unwrap(), ..CutOptions::default() }
}

fn spans(c: &CutList) -> Vec<(i64, i64, i64)> {
    c.clips.iter().map(|c| (c.source_in, c.duration, c.record_in)).collect()
}

#[test]
fn without_removes_solo_speech_only_and_ripples() {
    let c = plan(&ann(), None, &Selection::Without(vec!["Husband".into()]), &opts("25")).unwrap();
    // Removed: 4–6 s and 9.5–10 s (his overlap with her, 3.5–4 s, is kept).
    assert_eq!(spans(&c), vec![(0, 100, 0), (150, 88, 100)]);
    assert_eq!(c.record_frames(), 188);
    assert!(!c.in_place);
}

#[test]
fn mute_keeps_timing() {
    let c = plan(&ann(), None, &Selection::Mute(vec!["Husband".into()]), &opts("25")).unwrap();
    assert_eq!(spans(&c), vec![(0, 100, 0), (150, 88, 150)]);
    assert_eq!(c.record_frames(), 250);
}

#[test]
fn only_pad_merge_and_min_clip() {
    let o = CutOptions { pad: Delta::from_millis(200), ..opts("25") };
    let c = plan(&ann(), None, &Selection::Only(vec!["Wife".into()]), &o).unwrap();
    assert_eq!(spans(&c), vec![(0, 105, 0), (170, 60, 105)]);
    let o = CutOptions { merge: Delta::from_millis(3500), ..opts("25") };
    let c = plan(&ann(), None, &Selection::Only(vec!["Wife".into()]), &o).unwrap();
    assert_eq!(spans(&c), vec![(0, 225, 0)]);
    let o = CutOptions { min_clip: Delta::from_millis(2500), ..opts("25") };
    let c = plan(&ann(), None, &Selection::Only(vec!["Wife".into()]), &o).unwrap();
    assert_eq!(spans(&c), vec![(0, 100, 0)]);
}

#[test]
fn frames_round_to_the_nearest_boundary_at_ntsc() {
    // 4 s at 29.97 is 119.88 frames: 120. 7 s is 209.79: 210. 9 s is 269.73: 270.
    let c = plan(&ann(), None, &Selection::Only(vec!["Wife".into()]), &opts("29.97df")).unwrap();
    assert_eq!(spans(&c), vec![(0, 120, 0), (210, 60, 120)]);
    let e = Edit { name: "t", cut: &c, media: &[Media::from_path("/m/a b.wav")], angles: None };
    let edl = edl::write(&e, 0, edl::Style::Premiere);
    assert_eq!(
        edl,
        "TITLE: t\nFCM: DROP FRAME\n\n001  AX       A     C        00:00:00;00 00:00:04;00 00:00:00;00 00:00:04;00\n* FROM CLIP NAME: a b.wav\n\n002  AX       A     C        00:00:07;00 00:00:09;00 00:00:04;00 00:00:06;00\n* FROM CLIP NAME: a b.wav\n"
    );
    assert_eq!(e.media[0].url(), "file:///m/a%20b.wav");
    assert_eq!(fcpxml::time(c.rate, 120), "1001/250s");
}

#[test]
fn unknown_speaker_and_empty_selection_are_errors() {
    let e = plan(&ann(), None, &Selection::Only(vec!["Nobody".into()]), &opts("25")).unwrap_err();
    assert_eq!(e.to_string(), "no speaker \"Nobody\" (speakers: Husband, Wife)");
    let o = CutOptions { min_clip: Delta::from_secs(100), ..opts("25") };
    assert!(plan(&ann(), None, &Selection::Only(vec!["Wife".into()]), &o).is_err());
    let o = CutOptions { pad: Delta::from_micros(-1), ..opts("25") };
    assert!(plan(&ann(), None, &Selection::Only(vec!["Wife".into()]), &o).is_err());
    // Every speaker removed or muted: only silence would be left.
    let both = vec!["Wife".to_owned(), "Husband".to_owned()];
    let e = plan(&ann(), None, &Selection::Without(both.clone()), &opts("25")).unwrap_err();
    assert_eq!(
        e.to_string(),
        "--without names every speaker (Husband, Wife): nothing of the speech would be kept, only the silences between it"
    );
    let e = plan(&ann(), None, &Selection::Mute(both), &opts("25")).unwrap_err();
    assert!(e.to_string().starts_with("--mute names every speaker (Husband, Wife)"), "{e}");
}

#[test]
fn remap_moves_segments_to_the_cut() {
    let c = plan(&ann(), None, &Selection::Without(vec!["Husband".into()]), &opts("25")).unwrap();
    let r = c.remap(&ann());
    let got: Vec<(i64, i64, &str)> = r
        .tracks()
        .iter()
        .map(|t| {
            (
                t.segment.start().micros() / 1000,
                t.segment.end().micros() / 1000,
                r.speaker_name(t.speaker),
            )
        })
        .collect();
    // The last clip ends on frame 238 (9.52 s): 20 ms of his next line is inside it.
    assert_eq!(
        got,
        vec![
            (0, 4000, "Wife"),
            (3500, 4000, "Husband"),
            (5000, 7000, "Wife"),
            (7500, 7520, "Husband")
        ]
    );
}

#[test]
fn evidence_reel_and_follow_speaker_from_the_analysis() {
    let rttm = include_str!("../../../../examples/red-carpet/red-carpet.rttm");
    let read = read_str(rttm, Format::Rttm, &ReadOptions::default()).unwrap();
    let t = read.corpus.get("red-carpet").unwrap();
    let a = analyze(t, &Params::default()).unwrap();
    let sel = Selection::Events {
        kinds: vec![EventKind::Interruptions],
        by: Some("Wife".into()),
        context: Delta::ZERO,
    };
    let c = plan(t.annotation(), Some(&a), &sel, &opts("25")).unwrap();
    assert!(!c.clips.is_empty());
    for clip in &c.clips {
        assert_eq!(clip.speaker.as_deref(), Some("Wife"));
        assert!(clip.note.starts_with("Wife "), "{}", clip.note);
    }
    let f = plan(t.annotation(), Some(&a), &Selection::FollowSpeaker, &opts("25")).unwrap();
    assert_eq!(f.clips[0].source_in, 0);
    for w in f.clips.windows(2) {
        assert_eq!(w[0].source_out(), w[1].source_in);
        assert_ne!(w[0].speaker, w[1].speaker);
    }
    assert_eq!(f.clips.last().unwrap().source_out(), f.media_frames);
}

/// A hand-made follow-speaker cut at 25 fps: Wife 0–100, Husband 100–150, Wife 150–250.
fn switching() -> CutList {
    let clip = |a: i64, d: i64, who: &str| Clip {
        source_in: a,
        duration: d,
        record_in: a,
        speaker: Some(who.to_owned()),
        note: format!("{who} holds the floor"),
    };
    CutList {
        rate: "25".parse().unwrap(),
        in_place: true,
        media_frames: 250,
        clips: vec![clip(0, 100, "Wife"), clip(100, 50, "Husband"), clip(150, 100, "Wife")],
    }
}

#[test]
fn multicam_clips_take_their_floor_holders_camera() {
    let c = switching();
    let cams = [("Husband".to_owned(), 1), ("Wife".to_owned(), 0)];
    let angles = angles_by_speaker(&c, &cams).unwrap();
    assert_eq!(angles, vec![0, 1, 0]);
    let e = angles_by_speaker(&c, &cams[..1]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "no camera for \"Wife\", who holds the floor at frame 0 (cameras: Husband)"
    );
    // Two stems alike in their first 8 characters: the Avid reels stay distinct.
    let media =
        [Media::from_path("/c/interview_wife.mp4"), Media::from_path("/c/interview_husband.mp4")];
    let edit = Edit { name: "mc", cut: &c, media: &media, angles: Some(&angles) };
    assert_eq!(edit.track_count(), 1);
    assert_eq!(edl::reels(&edit, edl::Style::Avid), vec!["INTERVIE", "INTERVI2"]);
    assert_eq!(edl::reels(&edit, edl::Style::Premiere), vec!["AX", "AX"]);
    let all = edl::write_all(&edit, edl::Style::Avid);
    assert_eq!(all.len(), 1);
    let events: Vec<&str> = all[0].1.lines().filter(|l| l.starts_with("00")).collect();
    assert_eq!(
        events,
        vec![
            "001  INTERVIE AA/V  C        00:00:00:00 00:00:04:00 00:00:00:00 00:00:04:00",
            "002  INTERVI2 AA/V  C        00:00:04:00 00:00:06:00 00:00:04:00 00:00:06:00",
            "003  INTERVIE AA/V  C        00:00:06:00 00:00:10:00 00:00:06:00 00:00:10:00",
        ]
    );
    let mlt = mlt::write(&edit);
    let entries: Vec<&str> =
        mlt.lines().filter(|l| l.contains("<entry")).map(|l| l.trim()).collect();
    assert_eq!(entries.len(), 3);
    assert!(entries[0].starts_with("<entry producer=\"producer0\" in=\"0\" out=\"99\">"));
    assert!(entries[1].starts_with("<entry producer=\"producer1\" in=\"100\" out=\"149\">"));
    assert!(entries[2].starts_with("<entry producer=\"producer0\" in=\"150\" out=\"249\">"));
    assert_eq!(mlt.matches("<producer id=").count(), 2);
    assert_eq!(mlt.matches("<playlist id=").count(), 1);
    let fx = fcpxml::write(&edit);
    let refs: Vec<&str> = fx.lines().filter(|l| l.contains("<asset-clip")).collect();
    assert_eq!(refs.len(), 3);
    assert!(refs[1].contains(
        "ref=\"a1\" name=\"Husband holds the floor\" offset=\"4s\" start=\"4s\" duration=\"2s\""
    ));
    assert!(refs[2].contains("ref=\"a0\""));
    let x7 = fcp7::write(&edit);
    // One video and one audio track; each file described once, referred to after.
    assert_eq!(x7.matches("<track>").count(), 2);
    assert_eq!(x7.matches("<pathurl>").count(), 2);
    assert_eq!(x7.matches("<file id=\"file-2\"/>").count(), 1);
    let o = otio::write(&edit);
    assert_eq!(o.matches("\"OTIO_SCHEMA\": \"Track.1\"").count(), 1);
    assert_eq!(o.matches("interview_husband.mp4\"").count(), 2, "name and URL of clip 2");
    let rows = csv::write(&edit);
    let last: Vec<&str> = rows.lines().map(|l| l.rsplit(',').next().unwrap()).collect();
    assert_eq!(
        last,
        vec!["media", "interview_wife.mp4", "interview_husband.mp4", "interview_wife.mp4"]
    );
}
