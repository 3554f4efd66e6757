//! Broadcast captions' speaker marks in SRT and WebVTT: `>>` opens a new speaker's words (a
//! name may follow it), `>>>` a new story. Golden values of a news roll-up in SRT and a council
//! meeting's captions in WebVTT, in the shapes broadcast captioners write them.

use overtalk::format::{read_path, Format, ReadOptions, ReadOutput};
use overtalk::WarningKind;

fn read(rel: &str) -> ReadOutput {
    let path = overtalk_testkit::fixtures().join("broadcast").join(rel);
    read_path(&path, None, &ReadOptions::default()).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `(start ms, end ms, speaker, text)` of each track, in time order.
fn tracks(out: &ReadOutput, id: &str) -> Vec<(i64, i64, String, String)> {
    let t = out.corpus.get(id).unwrap();
    t.utterances()
        .map(|u| {
            let text = u.content.and_then(|c| c.text.clone()).unwrap_or_default();
            (
                u.segment.start().micros() / 1000,
                u.segment.end().micros() / 1000,
                u.speaker_name.to_owned(),
                text,
            )
        })
        .collect()
}

fn warnings(out: &ReadOutput) -> Vec<(WarningKind, Option<usize>, String)> {
    out.warnings.iter().map(|w| (w.kind, w.line, w.message.clone())).collect()
}

fn t(start: i64, end: i64, who: &str, text: &str) -> (i64, i64, String, String) {
    (start, end, who.to_owned(), text.to_owned())
}

/// A news roll-up: names at the starts of turns, so a caption without one goes on with the
/// speaker before it; a caption that ends one turn and starts the next (`THE WATER IS HIGH
/// HERE.` / `>> ANCHOR: …`) gives its first line to the speaker before (DANA), not to the name
/// below it; `>>` without a name is a new, unknown speaker, whom the next caption continues;
/// `>>>` (a new story) goes on with the anchor who spoke.
#[test]
fn news_chevrons_mark_speakers_and_stories() {
    let out = read("news_rollup.srt");
    assert_eq!(out.format, Some(Format::Srt));
    assert_eq!(
        tracks(&out, "news_rollup"),
        vec![
            t(1000, 4000, "ANCHOR", "GOOD EVENING. THE RIVER\nIS RISING TONIGHT."),
            t(4000, 6000, "DANA", "I'M ON THE BRIDGE, AND"),
            t(6000, 7500, "DANA", "THE WATER IS HIGH HERE."),
            t(7500, 9000, "ANCHOR", "HOW FAST DID IT RISE?"),
            t(9000, 12000, "unknown", ">> IT CAME UP IN AN HOUR. WE\nWERE NOT READY."),
            t(12000, 14000, "unknown", "THE SCHOOLS ARE CLOSED."),
            t(14000, 16000, "ANCHOR", "THANK YOU, DANA."),
            t(16000, 19000, "ANCHOR", ">>> IN OTHER NEWS, THE COUNCIL\nMET TODAY."),
        ]
    );
    let kinds: Vec<_> = warnings(&out).into_iter().map(|(k, line, _)| (k, line)).collect();
    assert_eq!(
        kinds,
        vec![
            (WarningKind::MissingSpeaker, Some(17)),
            (WarningKind::Note, Some(12)),
            (WarningKind::Note, Some(12)),
            (WarningKind::MissingSpeaker, Some(17)),
        ],
        "{:?}",
        out.warnings
    );
    let notes: Vec<String> = warnings(&out).into_iter().skip(1).map(|w| w.2).collect();
    assert!(notes[0].starts_with("2 block(s) without a `Name:` prefix continue"), "{notes:?}");
    assert!(notes[1].starts_with("1 block(s) hold two speakers or more"), "{notes:?}");
    // Caption 4 opens with `>>` and names no one; `>>>` is no change of speaker.
    assert!(notes[2].starts_with("1 block(s) open with `>>` (a new speaker) without a name"));
    assert_eq!(notes.len(), 3, "{notes:?}");
}

/// A council meeting's captions: the mayor's second caption goes on with her; the clerk's
/// caption starts with the mayor's last words; `>> here.` is councilmember Bell, whom no one
/// names: unknown, not the clerk; a name on a line of its own keeps the `>>` line below it.
#[test]
fn council_chevrons_mark_speakers_in_webvtt() {
    let out = read("council_meeting.vtt");
    assert_eq!(out.format, Some(Format::WebVtt));
    assert_eq!(
        tracks(&out, "council_meeting"),
        vec![
            t(83820, 85820, "Mayor Lind", "good evening"),
            t(86000, 88000, "Mayor Lind", "everyone, it's 6:00 and I call\nthe meeting to order."),
            t(88000, 89333, "Mayor Lind", "clerk, the roll please."),
            t(89333, 90000, "Clerk Ortiz", "councilmember Bell?"),
            t(90000, 92000, "unknown", ">> here."),
            t(93000, 95000, "Councilmember Vance", ">> present, ma'am."),
            t(96000, 98000, "Mayor Lind", "thank you."),
        ]
    );
    // The empty cue at 0:00 (council captions open with one) shows nothing: skipped, so the
    // first without a speaker is `>> here.`.
    let kinds: Vec<_> = warnings(&out).into_iter().map(|(k, line, _)| (k, line)).collect();
    assert_eq!(
        kinds,
        vec![
            (WarningKind::MissingSpeaker, Some(18)),
            (WarningKind::Note, Some(10)),
            (WarningKind::Skipped, Some(3)),
            (WarningKind::Note, Some(14)),
            (WarningKind::MissingSpeaker, Some(18)),
        ],
        "{:?}",
        out.warnings
    );
    assert!(warnings(&out)[1].2.starts_with("2 cue(s) without a `Name:` prefix continue"));
    assert!(warnings(&out)[2].2.starts_with("1 cue(s) with no text skipped"));
    assert!(warnings(&out)[4].2.starts_with("1 cue(s) open with `>>` (a new speaker) without"));
}
