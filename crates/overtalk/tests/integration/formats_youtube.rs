//! YouTube's native captions, srv3 (XML) and json3, as yt-dlp downloads them: golden values of
//! the fixtures, detection beside the other formats, and malformed input named by place.

use overtalk::format::{self, read_path, read_str, Format, ReadOptions, ReadOutput};
use overtalk::WarningKind;

fn fixture(rel: &str) -> std::path::PathBuf {
    overtalk_testkit::fixtures().join("youtube").join(rel)
}

fn read(rel: &str) -> ReadOutput {
    read_path(&fixture(rel), None, &ReadOptions::default()).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// `(start µs, end µs, speaker, text, words)` of each track.
fn tracks(out: &ReadOutput, id: &str) -> Vec<(i64, i64, String, String, usize)> {
    let t = out.corpus.get(id).unwrap();
    t.utterances()
        .map(|u| {
            let c = u.content.cloned().unwrap_or_default();
            (
                u.segment.start().micros(),
                u.segment.end().micros(),
                u.speaker_name.to_owned(),
                c.text.unwrap_or_default(),
                c.words.len(),
            )
        })
        .collect()
}

fn warnings(out: &ReadOutput) -> Vec<(WarningKind, Option<usize>, Option<usize>)> {
    out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect()
}

/// The manual captions' tracks, the same in both formats: `>> NAME:` names each turn, the
/// `[Music]` caption is skipped, and the last caption's two speakers divide its time.
fn manual_tracks() -> Vec<(i64, i64, String, String, usize)> {
    let t = |s: i64, e: i64, who: &str, text: &str| (s, e, who.to_owned(), text.to_owned(), 0);
    vec![
        t(1_200_000, 4_000_000, "ANA", "Thanks for coming in\nthis morning."),
        t(4_100_000, 6_400_000, "BEN", "Glad to be here."),
        t(6_400_000, 9_500_000, "ANA", "So how did the\nproject start?"),
        t(9_500_000, 13_100_000, "BEN", "It started with a question\nnobody could answer."),
        t(15_100_000, 16_350_000, "ANA", "Really?"),
        t(16_350_000, 17_600_000, "BEN", "Really."),
    ]
}

#[test]
fn manual_srv3_names_speakers_by_chevrons_and_colons() {
    let out = read("interview_manual.srv3");
    assert_eq!(tracks(&out, "interview_manual"), manual_tracks());
    assert_eq!(
        warnings(&out),
        vec![(WarningKind::Skipped, Some(15), Some(1)), (WarningKind::Note, Some(16), Some(1))]
    );
}

#[test]
fn manual_json3_reads_as_the_srv3() {
    let out = read("interview_manual.json3");
    assert_eq!(tracks(&out, "interview_manual"), manual_tracks());
    assert_eq!(
        warnings(&out),
        vec![(WarningKind::Skipped, Some(36), Some(1)), (WarningKind::Note, Some(42), Some(1))]
    );
}

/// Automatic captions: each line once (the appended line breaks are no captions), its words
/// timed, a rolling line ending where the next starts, `>>` dropped from the words.
fn check_auto(out: &ReadOutput, id: &str) {
    let unknown =
        |s: i64, e: i64, text: &str, n: usize| (s, e, "unknown".to_owned(), text.to_owned(), n);
    assert_eq!(
        tracks(out, id),
        vec![
            unknown(1_200_000, 2_800_000, "thanks for coming in this morning", 6),
            unknown(2_800_000, 5_360_000, "glad to be here", 4),
            unknown(5_360_000, 9_500_000, "so how did it start", 5),
        ]
    );
    let t = out.corpus.get(id).unwrap();
    let words: Vec<(String, i64, i64)> = t
        .utterances()
        .flat_map(|u| u.content.unwrap().words.clone())
        .map(|w| (w.text, w.start.unwrap().micros(), w.end.unwrap().micros()))
        .collect();
    assert_eq!(words.len(), 15);
    assert_eq!(words[0], ("thanks".to_owned(), 1_200_000, 1_520_000));
    assert_eq!(words[5], ("morning".to_owned(), 2_400_000, 2_800_000));
    assert_eq!(words[6], ("glad".to_owned(), 4_100_000, 4_340_000));
    assert_eq!(words[14], ("start".to_owned(), 7_120_000, 9_500_000));
    // The two captions opened by `>>` hold one speaker each, whom no one names.
    assert!(
        out.warnings[1]
            .message
            .starts_with("2 caption(s) open with `>>` (a new speaker) without a name"),
        "{:?}",
        out.warnings
    );
}

#[test]
fn automatic_srv3_keeps_word_times_once() {
    let out = read("interview_auto.srv3");
    check_auto(&out, "interview_auto");
    assert_eq!(
        warnings(&out),
        vec![
            (WarningKind::MissingSpeaker, Some(10), Some(1)),
            (WarningKind::MissingSpeaker, Some(13), Some(1))
        ]
    );
}

#[test]
fn automatic_json3_keeps_word_times_once() {
    let out = read("interview_auto.json3");
    check_auto(&out, "interview_auto");
    assert_eq!(
        warnings(&out),
        vec![
            (WarningKind::MissingSpeaker, Some(28), Some(1)),
            (WarningKind::MissingSpeaker, Some(64), Some(1))
        ]
    );
}

/// The same manual captions in YouTube's older XML formats: srv1 (`<transcript>`, seconds,
/// the text escaped twice) and srv2 (`<timedtext>`, milliseconds) read as the srv3 does.
#[test]
fn manual_srv1_and_srv2_read_as_the_srv3() {
    for (rel, id, music, shared) in [
        ("interview_manual.srv1", "interview_manual", 4, 4),
        ("interview_manual.srv2", "interview_manual", 10, 11),
    ] {
        let out = read(rel);
        assert_eq!(tracks(&out, id), manual_tracks(), "{rel}");
        assert_eq!(
            warnings(&out),
            vec![
                (WarningKind::Skipped, Some(music), Some(1)),
                (WarningKind::Note, Some(shared), Some(1))
            ],
            "{rel}"
        );
    }
}

/// youtube-transcript-api's test transcript (srv1 as its client fetches it): an escaped `<i>`
/// tag removed, an empty caption skipped.
#[test]
fn youtube_transcript_api_sample_reads() {
    let out = read("transcript_api.srv1");
    let t = |s: i64, e: i64, text: &str| (s, e, "unknown".to_owned(), text.to_owned(), 0);
    assert_eq!(
        tracks(&out, "transcript_api"),
        vec![
            t(0, 1_540_000, "Hey, this is just a test"),
            t(1_540_000, 5_700_000, "this is not the original transcript"),
            t(5_700_000, 8_939_000, "just something shorter, I made up for testing"),
        ]
    );
    assert_eq!(warnings(&out), vec![(WarningKind::MissingSpeaker, Some(3), Some(1))]);
}

#[test]
fn detected_by_content_and_extension_beside_the_other_formats() {
    for (rel, format) in [
        ("interview_manual.srv1", Format::Srv1),
        ("transcript_api.srv1", Format::Srv1),
        ("interview_manual.srv2", Format::Srv2),
        ("interview_manual.srv3", Format::Srv3),
        ("interview_auto.srv3", Format::Srv3),
        ("interview_manual.json3", Format::Json3),
        ("interview_auto.json3", Format::Json3),
    ] {
        let text = std::fs::read_to_string(fixture(rel)).unwrap();
        assert_eq!(format::sniff(&text), Some(format), "{rel}");
    }
    assert_eq!(format::detect_by_name("a.en.srv3"), Some(Format::Srv3));
    assert_eq!(format::detect_by_name("a.en.srv1"), Some(Format::Srv1));
    assert_eq!(format::detect_by_name("a.en.srv2"), Some(Format::Srv2));
    assert_eq!(format::detect_by_name("a.en.json3"), Some(Format::Json3));
    // An `events` list of `tStartMs` without the `wireMagic` (a client's dump) is json3 too.
    let bare = r#"{"events": [{"tStartMs": 0, "dDurationMs": 900, "segs": [{"utf8": "Hi."}]}]}"#;
    assert_eq!(format::sniff(bare), Some(Format::Json3));
    // Other XML is still no srv1, srv2 or srv3, and other JSON keeps its format.
    assert_eq!(format::sniff("<timedtext><text start=\"0\">hi</text></timedtext>"), None);
    assert_eq!(
        format::sniff(r#"{"segments": [{"start": 0.0, "end": 1.0, "text": "hi"}]}"#),
        Some(Format::WhisperX)
    );
}

#[test]
fn malformed_input_is_named_by_line_and_column() {
    let strict = ReadOptions { strict: true, ..Default::default() };
    // JSON syntax: serde_json's place.
    let e =
        read_str("{\"events\": [\n  {\"tStartMs\": 0,,}]}", Format::Json3, &ReadOptions::default())
            .unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(2), Some(18)), "{e}");
    let e = read_str("{\"events\": [", Format::Json3, &ReadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("truncated"), "{e}");
    // JSON without `events` is no json3: an error, not an empty transcript.
    assert!(read_str("{\"segments\": []}", Format::Json3, &ReadOptions::default()).is_err());
    // A time that is no whole milliseconds: skipped with a warning, an error under --strict.
    let text = "{\"events\": [\n {\"tStartMs\": \"soon\", \"dDurationMs\": 900, \"segs\": [{\"utf8\": \"a\"}]},\n {\"tStartMs\": 1000, \"dDurationMs\": 900, \"segs\": [{\"utf8\": \"b\"}]}]}";
    let out = read_str(text, Format::Json3, &ReadOptions::default()).unwrap();
    assert_eq!(warnings(&out)[0], (WarningKind::Skipped, Some(2), Some(2)));
    assert_eq!(tracks(&out, "recording").len(), 1);
    let e = read_str(text, Format::Json3, &strict).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(2), Some(2)), "{e}");
    // XML: the parser's place, a closing tag that does not match.
    let e = read_str(
        "<timedtext format=\"3\"><body>\n<p t=\"1\" d=\"2\">a</s></body></timedtext>",
        Format::Srv3,
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.line(), Some(2), "{e}");
    let e = read_str("<tt><body/></tt>", Format::Srv3, &ReadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("root element <tt>"), "{e}");
    // A `<p>` whose duration is no number: skipped, an error under --strict.
    let text = "<timedtext format=\"3\"><body>\n<p t=\"0\" d=\"x\">a</p>\n<p t=\"1000\" d=\"500\">b</p></body></timedtext>";
    let out = read_str(text, Format::Srv3, &ReadOptions::default()).unwrap();
    assert_eq!(warnings(&out)[0], (WarningKind::Skipped, Some(2), Some(1)));
    assert_eq!(tracks(&out, "recording").len(), 1);
    let e = read_str(text, Format::Srv3, &strict).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(2), Some(1)), "{e}");
    // An empty body is the note on an input without speech, never a silent empty result.
    let out = read_str(
        "<timedtext format=\"3\"><body></body></timedtext>",
        Format::Srv3,
        &ReadOptions::default(),
    )
    .unwrap();
    assert_eq!(warnings(&out), vec![(WarningKind::Note, None, None)]);
}

/// A `>>` inside a line of automatic captions changes speaker where it falls; named so
/// (`>> ANA:`), the speakers split the caption at the first word of each.
#[test]
fn a_named_change_inside_a_timed_line_splits_it_at_the_word() {
    let text = r#"{"wireMagic": "pb3", "events": [
 {"tStartMs": 0, "dDurationMs": 3000, "segs": [{"utf8": ">>", "acAsrConf": 0}, {"utf8": " ANA:", "tOffsetMs": 100}, {"utf8": " so", "tOffsetMs": 200}, {"utf8": " >>", "tOffsetMs": 900}, {"utf8": " BEN:", "tOffsetMs": 1000}, {"utf8": " yes", "tOffsetMs": 1200}]},
 {"tStartMs": 3000, "dDurationMs": 1000, "segs": [{"utf8": ">> ANA: good", "acAsrConf": 0}]}]}"#;
    let out = read_str(text, Format::Json3, &ReadOptions::default()).unwrap();
    assert_eq!(
        tracks(&out, "recording"),
        vec![
            (0, 1_200_000, "ANA".to_owned(), "so".to_owned(), 1),
            (1_200_000, 3_000_000, "BEN".to_owned(), "yes".to_owned(), 1),
            (3_000_000, 4_000_000, "ANA".to_owned(), "good".to_owned(), 1),
        ]
    );
}
