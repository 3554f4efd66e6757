//! The line-based text formats (WebVTT, SRT, LAB, CSV/TSV, STM, CTM): real sample files, round
//! trips through RTTM and through each format's own writer, random round trips, hostile input.
// Helpers here are test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::Path;

use overtalk::format::{self, read_bytes, read_path, read_str, write, Format, Limits, ReadOptions};
use overtalk::model::{Content, Corpus, Segment, Transcript, TranscriptBuilder, Word};
use overtalk::{ErrorKind, Time, WarningKind};
use proptest::prelude::*;

// -------------------------------------------------------------------------------------------
// Sample files (copies in tests/data, from shared/data/format-samples).

/// What a sample must read as.
struct Sample {
    path: &'static str,
    format: Format,
    /// `(kind, line, column)` of every warning.
    warnings: &'static [(WarningKind, usize, usize)],
    recording: &'static str,
    tracks: usize,
    speakers: &'static [&'static str],
    /// `(track index, start µs, end µs, speaker)`.
    checks: &'static [(usize, i64, i64, &'static str)],
}

const SAMPLES: &[Sample] = &[
    Sample {
        path: "webvtt/webvttpy_teams_timeframe.vtt",
        format: Format::WebVtt,
        // Teams' unpadded `0:0:0.0` is read, with one warning that it is not WebVTT.
        warnings: &[(WarningKind::Repaired, 3, 1)],
        recording: "webvttpy_teams_timeframe",
        tracks: 2,
        speakers: &["Adrian Petrescu", "Yuri Bakulin"],
        checks: &[(0, 0, 570_000, "Yuri Bakulin"), (1, 210_000, 1_130_000, "Adrian Petrescu")],
    },
    Sample {
        path: "webvtt/webvttpy_youtube_dl.vtt",
        format: Format::WebVtt,
        warnings: &[(WarningKind::MissingSpeaker, 13, 1)],
        recording: "webvttpy_youtube_dl",
        tracks: 4,
        speakers: &["unknown"],
        checks: &[
            (0, 286_070_000, 286_470_000, "unknown"),
            (3, 305_069_000, 305_400_000, "unknown"),
        ],
    },
    Sample {
        path: "webvtt/webvttpy_comments.vtt",
        format: Format::WebVtt,
        // Two cues are dialogues of dash lines that name no one (their speakers are missing).
        warnings: &[(WarningKind::MissingSpeaker, 9, 1), (WarningKind::MissingSpeaker, 9, 1)],
        recording: "webvttpy_comments",
        tracks: 3,
        speakers: &["unknown"],
        checks: &[
            (0, 135_000_000, 140_000_000, "unknown"),
            (2, 145_000_000, 150_000_000, "unknown"),
        ],
    },
    Sample {
        path: "webvtt/webvttpy_cue_tags.vtt",
        format: Format::WebVtt,
        warnings: &[(WarningKind::MissingSpeaker, 4, 1)],
        recording: "webvttpy_cue_tags",
        tracks: 3,
        speakers: &["unknown"],
        checks: &[(0, 16_500_000, 18_500_000, "unknown"), (2, 20_500_000, 21_500_000, "unknown")],
    },
    Sample {
        path: "srt/webvttpy_sample.srt",
        format: Format::Srt,
        warnings: &[(WarningKind::MissingSpeaker, 3, 1)],
        recording: "webvttpy_sample",
        tracks: 5,
        speakers: &["unknown"],
        checks: &[(0, 500_000, 7_000_000, "unknown"), (4, 21_580_000, 23_880_000, "unknown")],
    },
    Sample {
        path: "lab/ami_ES2011a.lab",
        format: Format::Lab,
        warnings: &[],
        recording: "ami_ES2011a",
        tracks: 94,
        speakers: &["speech"],
        checks: &[(0, 34_270_000, 44_390_000, "speech"), (3, 65_000_000, 82_890_000, "speech")],
    },
    Sample {
        path: "stm/pyannote_sample.stm",
        format: Format::Stm,
        warnings: &[],
        recording: "sample",
        tracks: 13,
        speakers: &["Diane", "Sheila"],
        checks: &[
            (0, 6_680_000, 7_160_000, "Diane"),
            (1, 7_634_000, 8_155_000, "Sheila"),
            (12, 28_445_000, 29_987_000, "Diane"),
        ],
    },
];

fn fixture(rel: &str) -> std::path::PathBuf {
    overtalk_testkit::fixtures().join(rel)
}

fn kinds(w: &[overtalk::Warning]) -> Vec<WarningKind> {
    w.iter().map(|w| w.kind).collect()
}

fn written(corpus: &Corpus, f: Format) -> (String, Vec<overtalk::Warning>) {
    let mut buf = Vec::new();
    let warnings = write(corpus, f, &mut buf).unwrap();
    (String::from_utf8(buf).unwrap(), warnings)
}

/// `(segment, speaker)` of every track.
fn labelled(t: &Transcript) -> Vec<(Segment, String)> {
    let a = t.annotation();
    a.tracks().iter().map(|tr| (tr.segment, a.speaker_name(tr.speaker).to_owned())).collect()
}

#[test]
fn samples_read_with_the_expected_tracks_and_warnings() {
    for s in SAMPLES {
        let out = read_path(&fixture(s.path), None, &ReadOptions::default()).unwrap();
        assert_eq!(out.format, Some(s.format), "{}", s.path);
        let warnings: Vec<_> = out
            .warnings
            .iter()
            .map(|w| (w.kind, w.line.unwrap_or(0), w.column.unwrap_or(0)))
            .collect();
        assert_eq!(warnings, s.warnings, "{}: {:?}", s.path, out.warnings);
        assert_eq!(out.corpus.ids().collect::<Vec<_>>(), vec![s.recording], "{}", s.path);
        let t = out.corpus.get(s.recording).unwrap();
        assert_eq!(t.annotation().len(), s.tracks, "{}", s.path);
        let speakers: Vec<&str> = t.annotation().speakers().iter().map(|(_, n)| n).collect();
        assert_eq!(speakers, s.speakers, "{}", s.path);
        let tracks = labelled(t);
        for &(k, start, end, who) in s.checks {
            assert_eq!(
                tracks[k],
                (Segment::from_micros(start, end).unwrap(), who.to_owned()),
                "{} track {k}",
                s.path
            );
        }
    }
}

/// webvtt-py's `missing_caption_text` samples (its PyPI sdist): the second cue has no text.
/// It showed nothing, but its 4.89 s were counted as the speech of "unknown".
#[test]
fn a_caption_without_text_is_no_speech() {
    for name in
        ["webvtt/webvttpy_missing_caption_text.vtt", "srt/webvttpy_missing_caption_text.srt"]
    {
        let out = read_path(&fixture(name), None, &ReadOptions::default()).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        let at = |a, b| Segment::from_millis(a, b).unwrap();
        let spans: Vec<Segment> = labelled(t).into_iter().map(|(s, _)| s).collect();
        assert_eq!(
            spans,
            [at(500, 7000), at(11890, 16320), at(16320, 21580), at(21580, 23880)],
            "{name}"
        );
        let skipped: Vec<(Option<usize>, &str)> = out
            .warnings
            .iter()
            .filter(|w| w.kind == WarningKind::Skipped)
            .map(|w| (w.line, w.message.as_str()))
            .collect();
        let (line, what) = if name.ends_with(".vtt") { (6, "cue") } else { (6, "block") };
        assert_eq!(
            skipped,
            [(Some(line), format!("1 {what}(s) with no text skipped: a caption that shows nothing marks no one's speech").as_str())],
            "{name}"
        );
    }
}

/// Praat's `To TextGrid (silences)` as PraatTextGridJS ships it (`sampleUtterances.TextGrid`,
/// its silences tier): 19 `utterance` intervals and 18 `silent` ones. Every interval was
/// speech (178.6 s, and 37 "words").
#[test]
fn a_silence_detection_tier_is_speech_and_silence() {
    let path = fixture("textgrid/praattextgridjs_silences.TextGrid");
    let out = read_path(&path, None, &ReadOptions::default()).unwrap();
    let t = out.corpus.iter().next().unwrap().1;
    let spans = labelled(t);
    assert_eq!(spans.len(), 19);
    assert!(spans.iter().all(|(_, who)| who == "silences"));
    let speech: i64 = spans.iter().map(|(s, _)| s.duration().micros()).sum();
    assert_eq!(speech, 165_322_667);
    assert!(t.contents().iter().all(Option::is_none));
    let notes: Vec<(Option<usize>, &str)> =
        out.warnings.iter().map(|w| (w.line, w.message.as_str())).collect();
    assert_eq!(
        notes,
        [(Some(10), "tier \"silences\" is a silence detection (Praat's `To TextGrid (silences)`): its 18 `silent` interval(s) read as silence, its \"utterance\" ones as speech without words")]
    );
}

/// ELAN's export of a Toolbox layout (PraatTextGridJS's `sample_elan.TextGrid`, 150–175 s):
/// `ref`, `trs`, `trad` and `eng` tiers of two participants. Read as eight tiers, it was six
/// speakers talking over each other for 99 % of the speech; it is two, RLP and NAL, their
/// words those of the transcription tiers.
#[test]
fn elan_participant_tiers_in_a_textgrid_are_one_speaker_each() {
    let path = fixture("textgrid/praattextgridjs_elan_participants.TextGrid");
    let out = read_path(&path, None, &ReadOptions::default()).unwrap();
    let t = out.corpus.iter().next().unwrap().1;
    let at = |a, b| Segment::from_millis(a, b).unwrap();
    assert_eq!(
        labelled(t),
        [
            (at(151_890, 155_180), "RLP".to_owned()),
            (at(156_410, 158_290), "RLP".to_owned()),
            (at(159_610, 161_110), "NAL".to_owned()),
            (at(161_880, 164_820), "RLP".to_owned()),
            (at(166_070, 168_620), "RLP".to_owned()),
            (at(170_130, 170_840), "RLP".to_owned()),
            (at(172_200, 173_440), "RLP".to_owned()),
        ]
    );
    let first = t.contents()[0].as_ref().and_then(|c| c.text.clone()).unwrap();
    assert!(first.starts_with("kuñ wäxek chumil"), "{first}");
    let notes: Vec<(WarningKind, &str)> =
        out.warnings.iter().map(|w| (w.kind, w.message.as_str())).collect();
    let annotation = |of: &str| {
        format!("another annotation of the intervals of \"trs@{of}\" (ELAN's `tier@participant`)")
    };
    let expected = format!(
        "6 tier(s) left out as not speakers: \"ref@RLP\" ({r}), \"trad@RLP\" ({r}), \"eng@RLP\" ({r}), \"ref@NAL\" ({n}), \"trad@NAL\" ({n}), \"eng@NAL\" ({n}); choose with --tiers or --ignore-tiers",
        r = annotation("RLP"),
        n = annotation("NAL")
    );
    assert_eq!(notes, [(WarningKind::Note, expected.as_str())]);
}

#[test]
fn samples_survive_rttm_and_their_own_writer() {
    for s in SAMPLES {
        let first = read_path(&fixture(s.path), None, &ReadOptions::default()).unwrap();
        let t = first.corpus.get(s.recording).unwrap();
        // Through RTTM: identical segments; speakers identical up to RTTM's documented `_` for
        // spaces (which the RTTM writer reports).
        let (rttm, warnings) = written(&first.corpus, Format::Rttm);
        let spaced = s.speakers.iter().filter(|n| n.contains(' ')).count();
        assert_eq!(warnings.len(), spaced, "{}: {warnings:?}", s.path);
        let back = read_str(&rttm, Format::Rttm, &ReadOptions::default()).unwrap();
        let expected: Vec<_> =
            labelled(t).into_iter().map(|(seg, n)| (seg, n.replace(' ', "_"))).collect();
        assert_eq!(labelled(back.corpus.get(s.recording).unwrap()), expected, "{}", s.path);
        // And back from RTTM to the sample's format: the same segments again.
        let (again, _) = written(&back.corpus, s.format);
        let again = read_str(&again, s.format, &ReadOptions::default()).unwrap();
        let again_id = if s.format == Format::Stm { s.recording } else { "recording" };
        assert_eq!(labelled(again.corpus.get(again_id).unwrap()), expected, "{}", s.path);
        // Through the format's own writer: the identical transcript (segments, speakers, texts
        // and word timings).
        let (own, warnings) = written(&first.corpus, s.format);
        assert!(warnings.is_empty(), "{}: {warnings:?}", s.path);
        let back = read_str(&own, s.format, &ReadOptions::default()).unwrap();
        let back_id = if s.format == Format::Stm { s.recording } else { "recording" };
        assert_eq!(back.corpus.get(back_id).unwrap(), t, "{}", s.path);
    }
}

#[test]
fn word_timings_become_ctm_word_lines() {
    let yt = read_path(&fixture("webvtt/webvttpy_youtube_dl.vtt"), None, &ReadOptions::default())
        .unwrap();
    let (ctm, warnings) = written(&yt.corpus, Format::Ctm);
    // `telling` starts where its cue ends.
    assert_eq!(kinds(&warnings), vec![WarningKind::Repaired]);
    assert!(warnings[0].message.contains("\"telling\" at 305.069"), "{warnings:?}");
    let lines: Vec<&str> = ctm.lines().collect();
    assert_eq!(
        lines,
        vec![
            "webvttpy_youtube_dl unknown 286.070 0.400 yeah",
            "webvttpy_youtube_dl unknown 286.470 17.610 what",
            "webvttpy_youtube_dl unknown 304.080 0.119 this",
            "webvttpy_youtube_dl unknown 304.199 0.180 will",
            "webvttpy_youtube_dl unknown 304.379 0.241 happen",
            "webvttpy_youtube_dl unknown 304.620 0.240 is",
            "webvttpy_youtube_dl unknown 304.860 0.209 I'm",
            "webvttpy_youtube_dl unknown 305.069 0.331 <NA>",
        ]
    );
}

#[test]
fn sample_texts_and_word_timings() {
    let read = |p: &str| read_path(&fixture(p), None, &ReadOptions::default()).unwrap();
    let texts = |out: &format::ReadOutput| -> Vec<Option<String>> {
        let t = out.corpus.iter().next().unwrap().1;
        t.contents().iter().map(|c| c.as_ref().and_then(|c| c.text.clone())).collect()
    };
    let teams = read("webvtt/webvttpy_teams_timeframe.vtt");
    assert_eq!(
        texts(&teams),
        vec![Some("There you go.".to_owned()), Some("Why hello there, Yuri.".to_owned())]
    );
    // Rolling captions lose their repeated lines; the fully repeated last cue keeps no text.
    let yt = read("webvtt/webvttpy_youtube_dl.vtt");
    assert_eq!(
        texts(&yt),
        vec![
            Some("yeah".to_owned()),
            Some("what".to_owned()),
            Some("this will happen is I'm telling".to_owned()),
            None
        ]
    );
    let t = yt.corpus.get("webvttpy_youtube_dl").unwrap();
    let words = &t.contents()[2].as_ref().unwrap().words;
    let ms = |x: i64| Some(Time::from_millis(x));
    let got: Vec<_> = words.iter().map(|w| (w.text.as_str(), w.start, w.end)).collect();
    assert_eq!(
        got,
        vec![
            ("this", ms(304_080), ms(304_199)),
            ("will", ms(304_199), ms(304_379)),
            ("happen", ms(304_379), ms(304_620)),
            ("is", ms(304_620), ms(304_860)),
            ("I'm", ms(304_860), ms(305_069)),
            ("telling", ms(305_069), ms(305_069)),
        ]
    );
    let comments = read("webvtt/webvttpy_comments.vtt");
    assert_eq!(
        texts(&comments)[0].as_deref(),
        Some("- Ta en kopp varmt te.\n- Det är inte varmt.")
    );
    let tags = read("webvtt/webvttpy_cue_tags.vtt");
    assert_eq!(texts(&tags)[2].as_deref(), Some("That's amore"));
    let stm = read("stm/pyannote_sample.stm");
    assert_eq!(texts(&stm)[5].as_deref(), Some("Okay, then I thought you know, I heard a beep."));
}

#[test]
fn fixture_copies_match_the_shared_samples() {
    let Some(shared) = overtalk_testkit::shared_data("fixture_copies_match_the_shared_samples")
    else {
        return;
    };
    // Every sample of these formats is covered.
    for dir in ["webvtt", "srt", "lab", "stm"] {
        for entry in std::fs::read_dir(shared.join("format-samples").join(dir)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            if name != "README.md" {
                let rel = format!("{dir}/{name}");
                assert!(SAMPLES.iter().any(|s| s.path == rel), "{rel} has no golden test");
            }
        }
    }
    for s in SAMPLES {
        let ours = std::fs::read(fixture(s.path)).unwrap();
        let theirs = std::fs::read(shared.join("format-samples").join(s.path)).unwrap();
        assert_eq!(ours, theirs, "{} differs from the shared sample", s.path);
    }
}

// -------------------------------------------------------------------------------------------
// Random round trips: transcript → write → read gives the same transcript.

/// Speaker names and tracks `(start, duration, speaker index, text)`.
type Tracks = (Vec<String>, Vec<(i64, i64, usize, Option<String>)>);

/// A random transcript: tracks `(start, duration, speaker index, text)` in `unit` µs steps.
fn tracks(
    unit: i64,
    names: impl Strategy<Value = String> + Clone,
    text: impl Strategy<Value = Option<String>> + Clone,
) -> impl Strategy<Value = Tracks> {
    prop::collection::btree_set(names, 1..5).prop_flat_map(move |names| {
        let names: Vec<String> = names.into_iter().collect();
        let n = names.len();
        let track = (0i64..10_000_000, 1i64..100_000, 0..n, text.clone())
            .prop_map(move |(s, d, k, t)| (s * unit, d * unit, k, t));
        (Just(names), prop::collection::vec(track, 0..25))
    })
}

fn build(names: &[String], tracks: &[(i64, i64, usize, Option<String>)]) -> Transcript {
    let mut b = TranscriptBuilder::new();
    for (start, dur, k, text) in tracks {
        let seg = Segment::from_micros(*start, start + dur).unwrap();
        b.add(seg, &names[*k], text.clone().map(Content::text));
    }
    // Speakers without tracks do not exist in caption formats: declare only used ones.
    b.build()
}

fn round_trip(f: Format, corpus: &Corpus) -> Corpus {
    let (text, warnings) = written(corpus, f);
    assert!(warnings.is_empty(), "{f}: {warnings:?}");
    read_str(&text, f, &ReadOptions::default()).unwrap().corpus
}

/// The corpus without recordings that have no track (a multi-recording line format has no line
/// to name them).
fn without_empty(c: Corpus) -> Corpus {
    c.into_recordings().into_iter().filter(|(_, t)| !t.annotation().is_empty()).collect()
}

/// Words joined by single spaces or line breaks.
fn words(word: &'static str, breaks: bool) -> impl Strategy<Value = Option<String>> + Clone {
    let sep = if breaks { prop_oneof![Just(" "), Just("\n")].boxed() } else { Just(" ").boxed() };
    prop::option::of(prop::collection::vec((word, sep), 1..6).prop_map(|v| {
        let mut s = String::new();
        for (k, (w, sep)) in v.iter().enumerate() {
            if k > 0 {
                s.push_str(sep);
            }
            s.push_str(w);
        }
        s
    }))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn webvtt_round_trips(
        (names, ts) in tracks(1000, "[A-Za-zÀ-ÿ&<>'().0-9]{1,8}( [A-Za-zÀ-ÿ:]{1,8}){0,2}", words("[a-zA-Zé,.?'&<>:-]{1,8}", true))
    ) {
        let c = Corpus::single("recording", build(&names, &ts));
        prop_assert_eq!(round_trip(Format::WebVtt, &c), c);
    }

    #[test]
    fn srt_round_trips(
        // SRT has no escapes: `<i>`-like tags are formatting, removed on reading.
        (names, ts) in tracks(1000, "[A-Za-zÀ-ÿ:()0-9]{1,8}( [A-Za-zÀ-ÿ]{1,8}){0,2}", words("[a-zA-Zé,.?'&>:-]{1,8}", true))
    ) {
        let c = Corpus::single("recording", build(&names, &ts));
        prop_assert_eq!(round_trip(Format::Srt, &c), c);
    }

    #[test]
    fn lab_round_trips(
        (names, ts) in tracks(1, "[A-Za-zÀ-ÿ_0-9]{1,8}( [A-Za-zÀ-ÿ]{1,8}){0,2}", Just(None))
    ) {
        let c = Corpus::single("recording", build(&names, &ts));
        prop_assert_eq!(round_trip(Format::Lab, &c), c);
    }

    #[test]
    fn stm_round_trips(
        (names, ts) in tracks(1, "[A-Za-zÀ-ÿ_0-9<>]{1,8}", words("[a-zA-Zé,.?'<>-]{1,8}", false)),
        id in "[A-Za-z0-9._-]{1,12}",
    ) {
        let c = Corpus::single(id, build(&names, &ts));
        prop_assert_eq!(round_trip(Format::Stm, &c), without_empty(c));
    }

    #[test]
    fn csv_and_tsv_round_trip(
        recordings in prop::collection::btree_map(
            "[A-Za-zé0-9.,\"_-]{1,8}( [a-z]{1,4})?",
            tracks(1, "[A-Za-zÀ-ÿ,\"0-9]{1,8}( [A-Za-zÀ-ÿ]{1,8}){0,2}", words("[a-zA-Zé,.?;\"'-]{1,8}", true)),
            1..4,
        )
    ) {
        let mut c = Corpus::new();
        for (id, (names, ts)) in &recordings {
            c.insert(id.clone(), build(names, ts));
        }
        for (f, w) in [
            (Format::Csv, format::csv::write_csv as fn(&Corpus, &mut dyn std::io::Write) -> overtalk::Result<Vec<overtalk::Warning>>),
            (Format::Tsv, format::csv::write_tsv),
        ] {
            let mut buf = Vec::new();
            prop_assert!(w(&c, &mut buf).unwrap().is_empty());
            let back = read_bytes(&buf, None, Some(f), &ReadOptions::default()).unwrap().corpus;
            // Recordings without tracks leave no row behind.
            let mut expected = Corpus::new();
            for (id, t) in c.iter().filter(|(_, t)| !t.annotation().is_empty()) {
                expected.insert(id, t.clone());
            }
            if expected.is_empty() {
                expected.insert("recording", Transcript::default());
            }
            prop_assert_eq!(back, expected);
        }
    }

    #[test]
    fn ctm_round_trips(
        (names, ts) in tracks(1, "[A-Za-z0-9_]{1,4}", prop::option::of("[a-zA-Zé'-]{1,8}")),
        confidences in prop::collection::vec(prop::option::of(0u32..=100), 25),
    ) {
        let mut b = TranscriptBuilder::new();
        for (k, (start, dur, who, word)) in ts.iter().enumerate() {
            let seg = Segment::from_micros(*start, start + dur).unwrap();
            let content = word.clone().map(|w| Content {
                text: Some(w.clone()),
                words: vec![Word {
                    text: w,
                    start: Some(seg.start()),
                    end: Some(seg.end()),
                    confidence: confidences[k].map(|c| f64::from(c) / 100.0),
                }],
            });
            b.add(seg, &names[*who], content);
        }
        let c = Corpus::single("m", b.build());
        prop_assert_eq!(round_trip(Format::Ctm, &c), without_empty(c));
    }
}

// -------------------------------------------------------------------------------------------
// Hostile input.

const MINE: [Format; 7] =
    [Format::WebVtt, Format::Srt, Format::Lab, Format::Csv, Format::Tsv, Format::Stm, Format::Ctm];

/// `(line, column)` of a parse error, panicking on any other result. Caption formats skip a cue
/// whose time cannot be read, and the line formats (CSV, TSV, STM, CTM) its line (with a
/// warning at the field), so they are read with `--strict`.
fn position(text: &str, f: Format) -> (usize, usize) {
    let strict = matches!(
        f,
        Format::WebVtt | Format::Srt | Format::Csv | Format::Tsv | Format::Stm | Format::Ctm
    );
    if strict {
        if let Ok(out) = read_str(text, f, &ReadOptions::default()) {
            let kind = if matches!(f, Format::WebVtt | Format::Srt) {
                WarningKind::Skipped
            } else {
                WarningKind::MissingTime
            };
            assert!(out.warnings.iter().any(|w| w.kind == kind), "{f}: {text:?}");
        }
    }
    match read_str(text, f, &ReadOptions { strict, ..ReadOptions::default() }) {
        Err(e) => match e.kind() {
            ErrorKind::Parse { line, column, .. } => (*line, *column),
            other => panic!("{f}: {text:?}: not a parse error: {other:?}"),
        },
        Ok(out) => panic!("{f}: {text:?}: read without error: {:?}", out.warnings),
    }
}

#[test]
fn bad_times_are_errors_at_the_field() {
    let cases: &[(Format, &str, (usize, usize))] = &[
        (Format::WebVtt, "WEBVTT\n\nNaN --> 00:01.000\nx\n", (3, 1)),
        (Format::WebVtt, "WEBVTT\n\n00:00.000 --> -00:01.000\nx\n", (3, 15)),
        (Format::WebVtt, "WEBVTT\n\n00:00.000 --> 99999999999:00:00.000\nx\n", (3, 15)),
        (Format::WebVtt, "WEBVTT\n\n00:00.000 --> 00:", (3, 15)),
        (Format::Srt, "1\n00:00:01,000 --> NaN\nx\n", (2, 18)),
        (Format::Srt, "1\n-00:00:01,000 --> 00:00:02,000\nx\n", (2, 1)),
        (Format::Srt, "1\n00:00:01,000 --> 9999999999:00:00,000\nx\n", (2, 18)),
        (Format::Lab, "0.5 1 a\nNaN 2 b\n", (2, 1)),
        (Format::Lab, "0.5 1e300 a\n", (1, 5)),
        (Format::Csv, "start,end,speaker\n1,nan,a\n", (2, 3)),
        (Format::Csv, "\"text\",start,end\n\"a,b\",1e300,2\n", (2, 7)),
        (Format::Tsv, "start\tend\n1\t-inf\n", (2, 3)),
        (Format::Stm, "f 1 s NaN 2 x\n", (1, 7)),
        (Format::Stm, "f 1 s 0 99999999999999 x\n", (1, 9)),
        (Format::Ctm, "f A 1 NaN w\n", (1, 7)),
    ];
    for &(f, text, pos) in cases {
        assert_eq!(position(text, f), pos, "{f}: {text:?}");
    }
}

#[test]
fn negative_and_empty_segments_are_warnings() {
    let cases: &[(Format, &str, &[WarningKind])] = &[
        (
            Format::Lab,
            "-1 2 a\n3 3 a\n5 4 a\n",
            &[WarningKind::Repaired, WarningKind::ZeroDuration, WarningKind::NegativeDuration],
        ),
        (
            Format::Stm,
            "f 1 a -1 2\nf 1 a 3 3\n",
            &[WarningKind::Repaired, WarningKind::ZeroDuration],
        ),
        (
            Format::Ctm,
            "f A -1 2 w\nf A 3 -1 w\n",
            &[WarningKind::Repaired, WarningKind::NegativeDuration],
        ),
        (
            Format::Csv,
            "start,end,speaker\n-1,2,a\n3,3,a\n",
            &[WarningKind::Repaired, WarningKind::ZeroDuration],
        ),
        (
            Format::WebVtt,
            "WEBVTT\n\n00:02.000 --> 00:01.000\n<v a>x\n",
            // Its one cue dropped, nobody speaks: noted.
            &[WarningKind::NegativeDuration, WarningKind::Note],
        ),
        (
            Format::Srt,
            "1\n00:00:02,000 --> 00:00:02,000\n[a]: x\n2\n00:00:03,000 --> 00:00:03,000\n[a]: y\n00:00:04,000 --> 00:00:03,000\n[a]: z\n",
            // The two zero-length cues in one warning.
            &[WarningKind::ZeroDuration, WarningKind::NegativeDuration, WarningKind::Note],
        ),
    ];
    for &(f, text, expected) in cases {
        let out = read_str(text, f, &ReadOptions::default()).unwrap();
        assert_eq!(kinds(&out.warnings), expected, "{f}: {text:?}");
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        let e = read_str(text, f, &strict).unwrap_err();
        assert!(e.line().is_some(), "{f}: strict error without a line: {e}");
    }
}

#[test]
fn empty_and_truncated_inputs() {
    for f in MINE {
        for text in ["", "  \n\n\t\r\n"] {
            match read_str(text, f, &ReadOptions::default()) {
                Ok(out) => {
                    assert!(
                        out.corpus.iter().all(|(_, t)| t.annotation().is_empty()),
                        "{f}: {text:?}"
                    );
                }
                Err(e) => assert_eq!((e.line(), e.column()), (Some(1), Some(1)), "{f}: {e}"),
            }
        }
    }
    assert_eq!(position("", Format::WebVtt), (1, 1));
    assert_eq!(position("", Format::Csv), (1, 1));
    let truncated: &[(Format, &str, usize)] = &[
        (Format::WebVtt, "WEBVTT\n\n00:00:01.000 --> 00:0", 0),
        (Format::WebVtt, "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v Ana", 1),
        // A block cut before its text shows nothing: skipped, with a warning.
        (Format::Srt, "1\n00:00:01,000 --> 00:00:02,000", 0),
        (Format::Srt, "1\n00:00:01,000", 0),
        (Format::Lab, "0.5 1.0 a\n2.0", 1),
        (Format::Csv, "start,end\n1,2\n3", 1),
        (Format::Csv, "start,end,text\n1,2,\"unclosed", 1),
        (Format::Stm, "f 1 a 0 1 hi\nf 1 b 2", 1),
        (Format::Ctm, "f A 0 1 w\nf A 2", 1),
    ];
    for &(f, text, tracks) in truncated {
        match read_str(text, f, &ReadOptions::default()) {
            Ok(out) => {
                let n: usize = out.corpus.iter().map(|(_, t)| t.annotation().len()).sum();
                assert_eq!(n, tracks, "{f}: {text:?}");
            }
            Err(e) => {
                assert_eq!(tracks, 0, "{f}: {text:?}: {e}");
                assert!(e.line().is_some() && e.column().is_some(), "{f}: {e}");
            }
        }
    }
}

#[test]
fn a_10_mb_line_is_a_limit_error_naming_the_line() {
    let big = "x".repeat(10 << 20);
    let options = ReadOptions::default();
    for f in MINE {
        let text = match f {
            Format::WebVtt => format!("WEBVTT\n\n00:00.000 --> 00:01.000\n{big}\n"),
            Format::Srt => format!("1\n00:00:00,000 --> 00:00:01,000\n{big}\n"),
            Format::Csv | Format::Tsv => format!("start,end\n0,1\n1,2,{big}\n"),
            _ => format!("0 1 a\n0 1 {big}\n"),
        };
        let e = read_str(&text, f, &options).unwrap_err();
        let line = match f {
            Format::WebVtt => 4,
            Format::Srt | Format::Csv | Format::Tsv => 3,
            _ => 2,
        };
        match e.kind() {
            ErrorKind::Limit(m) => assert!(m.contains(&format!("line {line} ")), "{f}: {m}"),
            other => panic!("{f}: not a limit error: {other:?}"),
        }
    }
}

#[test]
fn invalid_utf8_names_line_and_column() {
    let utf8 = ReadOptions { encoding: Some("utf-8".into()), ..ReadOptions::default() };
    for f in MINE {
        let bytes = b"ok line\nab\xffcd\n";
        let e = read_bytes(bytes, Some("x.in"), Some(f), &utf8).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(3)), "{f}: {e}");
        // Without --encoding the text is decoded as the likeliest legacy encoding, and said so
        // at the first byte that is not UTF-8 (the reader may still refuse what it says).
        if let Ok(out) = read_bytes(bytes, Some("x.in"), Some(f), &ReadOptions::default()) {
            let w = &out.warnings[0];
            assert_eq!(
                (w.kind, w.line, w.column),
                (WarningKind::Encoding, Some(2), Some(3)),
                "{f}"
            );
        }
    }
}

#[test]
fn a_latin1_srt_reads_with_a_note_naming_the_encoding() {
    let bytes = b"1\n00:00:00,000 --> 00:00:01,000\n[Jos\xe9]: \xa1Hola, se\xf1or!\n";
    let out = read_bytes(bytes, Some("x.srt"), None, &ReadOptions::default()).unwrap();
    let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
    assert_eq!(w, vec![(WarningKind::Encoding, Some(3), Some(5))]);
    assert!(out.warnings[0].message.contains("windows-1252"), "{}", out.warnings[0]);
    let t = out.corpus.get("recording").unwrap();
    assert_eq!(t.annotation().speakers().iter().map(|(_, n)| n).collect::<Vec<_>>(), ["José"]);
    assert_eq!(t.contents()[0].as_ref().unwrap().text.as_deref(), Some("¡Hola, señor!"));
    // A legacy encoding is a note: strict reads the file too.
    let strict = ReadOptions { strict: true, ..ReadOptions::default() };
    assert_eq!(read_bytes(bytes, Some("x.srt"), None, &strict).unwrap().warnings.len(), 1);
}

#[test]
fn utf32_with_a_bom_is_not_an_empty_file() {
    let text = "1\n00:00:00,000 --> 00:00:01,000\n[A]: hi\n";
    let bytes: Vec<u8> = [0xFF, 0xFE, 0, 0]
        .into_iter()
        .chain(text.chars().flat_map(|c| (c as u32).to_le_bytes()))
        .collect();
    let out = read_bytes(&bytes, Some("x.srt"), None, &ReadOptions::default()).unwrap();
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(out.corpus.get("recording").unwrap().annotation().len(), 1);
}

#[test]
fn garbage_never_panics() {
    // Deterministic pseudo-random text: control characters, arrows, tags, quotes, digits.
    let alphabet: Vec<char> =
        "\0\u{1}\t\n\r -->:.,;<>&#\"'[]{}\\0123456789aZé\u{feff}\u{200b}WEBVTTNOTE"
            .chars()
            .collect();
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for round in 0..200 {
        let len = 1 + (round * 37) % 600;
        let text: String = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                alphabet[(x % alphabet.len() as u64) as usize]
            })
            .collect();
        for f in MINE {
            for text in [text.clone(), format!("WEBVTT\n\n{text}"), format!("start,end\n{text}")] {
                if let Err(e) = read_str(&text, f, &ReadOptions::default()) {
                    if let ErrorKind::Parse { line, column, .. } = e.kind() {
                        assert!(*line > 0 && *column > 0, "{f}: {text:?}: {e}");
                    }
                }
            }
        }
    }
}

#[test]
fn binary_bytes_are_errors_with_a_position_or_read() {
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for round in 0..50 {
        let bytes: Vec<u8> = (0..(1 + round * 97))
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect();
        for f in MINE {
            if let Err(e) = read_bytes(&bytes, None, Some(f), &ReadOptions::default()) {
                if let ErrorKind::Parse { line, column, .. } = e.kind() {
                    assert!(*line > 0 && *column > 0, "{f}: {e}");
                }
            }
        }
    }
}

#[test]
fn limits_apply_to_every_text_format() {
    let options = ReadOptions {
        limits: Limits { max_line_bytes: 8, ..Limits::default() },
        ..ReadOptions::default()
    };
    for f in MINE {
        let e = read_str("0 1 a\n0123456789\n", f, &options).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Limit(_)), "{f}: {e}");
        assert!(e.to_string().contains("line 2 "), "{f}: {e}");
    }
}

#[test]
fn sniffing_finds_every_text_format() {
    let cases: &[(&str, Format)] = &[
        ("WEBVTT\n\n00:00.000 --> 00:01.000\nx\n", Format::WebVtt),
        ("1\n00:00:00,000 --> 00:00:01,000\nx\n", Format::Srt),
        ("0.5\t1.0\tAna María 2 3\n", Format::Lab),
        ("34.27 44.39 speech\n", Format::Lab),
        (";; c\nsample 1 Diane 6.68 7.16 Hello?\n", Format::Stm),
        ("sample 1 Diane 6.68 7.16\n", Format::Stm),
        ("m A 0.50 0.25 hello 0.98\n", Format::Ctm),
        ("start,end,speaker\n0,1,a\n", Format::Csv),
        ("start\tend\tspeaker\n0\t1\ta\n", Format::Tsv),
    ];
    for &(text, f) in cases {
        assert_eq!(format::sniff(text), Some(f), "{text:?}");
    }
    assert_eq!(format::detect_by_name("x.aud"), Some(Format::Lab));
    assert!(Path::new(&fixture("lab/ami_ES2011a.lab")).is_file());
}

#[test]
fn pathological_lines_stay_fast() {
    let n = 150_000;
    let spans = format!(
        "WEBVTT\n\n00:00.000 --> 00:01.000\n{}\n{}\n",
        "</v>x".repeat(n),
        (0..n / 10).map(|k| format!("<v s{k}>w")).collect::<String>()
    );
    let brackets = format!("1\n00:00:00,000 --> 00:00:01,000\n{}\n", "<{".repeat(400_000));
    let speakers = format!(
        "1\n00:00:00,000 --> 00:00:01,000\n{}",
        (0..40_000).map(|k| format!("[s{k}]: w\n")).collect::<String>()
    );
    let rolling = format!(
        "WEBVTT\nKind: captions\n\n00:00.000 --> 00:01.000\n{0}\n00:01.000 --> 00:02.000\n{0}\n",
        "same\n".repeat(50_000).trim_end()
    );
    for (name, text, f, tracks) in [
        ("voice spans", spans, Format::WebVtt, n / 10),
        ("unclosed tags", brackets, Format::Srt, 1),
        ("many speakers", speakers, Format::Srt, 40_000),
        ("rolling captions", rolling, Format::WebVtt, 2),
    ] {
        let started = std::time::Instant::now();
        let out = read_str(&text, f, &ReadOptions::default()).unwrap();
        let took = started.elapsed();
        // A guard against quadratic readers, not a speed measurement: linear reading takes
        // about 2 s here in a debug build, a quadratic one hours; the bound leaves room for a
        // loaded machine. Reading speed is measured in the benchmarks.
        assert!(took < std::time::Duration::from_secs(120), "{name}: {took:?}");
        assert_eq!(out.corpus.get("recording").unwrap().annotation().len(), tracks, "{name}");
    }
}

#[test]
fn one_recording_writers_refuse_several() {
    let rttm = "SPEAKER a 1 0 1 <NA> <NA> x <NA> <NA>\nSPEAKER b 1 0 1 <NA> <NA> y <NA> <NA>\n";
    let corpus = read_str(rttm, Format::Rttm, &ReadOptions::default()).unwrap().corpus;
    type W = fn(&Corpus, &mut dyn std::io::Write) -> overtalk::Result<Vec<overtalk::Warning>>;
    let writers: [(&str, W); 3] = [
        ("webvtt", format::webvtt::write),
        ("srt", format::srt::write),
        ("lab", format::lab::write),
    ];
    for (name, w) in writers {
        let e = w(&corpus, &mut Vec::new()).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Unsupported(_)), "{name}: {e}");
    }
    // Table and NIST formats name the recording on every line.
    let (stm, _) = written(&corpus, Format::Stm);
    assert_eq!(stm, "a 1 x 0.000 1.000\nb 1 y 0.000 1.000\n");
    let mut csv = Vec::new();
    format::csv::write_csv(&corpus, &mut csv).unwrap();
    assert_eq!(
        String::from_utf8(csv).unwrap(),
        "recording,start,end,speaker,text\na,0.000,1.000,x,\nb,0.000,1.000,y,\n"
    );
}

// -------------------------------------------------------------------------------------------
// Messy captions: whatever the reader makes of a file, the writer writes it back identically.

/// One payload line built from tags, entities, prefixes, timestamps and words.
fn payload_line(voices: bool) -> impl Strategy<Value = String> {
    let mut atoms = vec![
        "[a-zA-Zé,.?']{1,6}".boxed(),
        Just(" ".to_owned()).boxed(),
        Just("<i>".to_owned()).boxed(),
        Just("</i>".to_owned()).boxed(),
        Just("<c.colorE5E5E5>".to_owned()).boxed(),
        Just("</c>".to_owned()).boxed(),
        Just("&amp;".to_owned()).boxed(),
        Just("&lt;".to_owned()).boxed(),
        Just("&nbsp;".to_owned()).boxed(),
        (0u32..5000).prop_map(|ms| format!("<00:00:{:02}.{:03}>", ms / 1000, ms % 1000)).boxed(),
    ];
    if voices {
        atoms.push("[A-Z][a-z]{0,5}( [A-Z][a-z]{0,5})?".prop_map(|n| format!("<v {n}>")).boxed());
        atoms.push(Just("</v>".to_owned()).boxed());
    }
    let prefix = prop_oneof![
        Just(String::new()),
        "[A-Z][a-z]{0,5}( \\(SL\\))?".prop_map(|n| format!("{n}: ")),
        "SPEAKER_0[0-3]".prop_map(|n| format!("[{n}]: ")),
    ];
    (prefix, prop::collection::vec(prop::strategy::Union::new(atoms), 0..8))
        .prop_map(|(p, atoms)| format!("{p}{}", atoms.concat()))
}

/// Cues `(start ms, duration ms, payload lines)`.
fn cues(voices: bool) -> impl Strategy<Value = Vec<(u32, u32, Vec<String>)>> {
    prop::collection::vec(
        (0u32..5000, 0u32..3000, prop::collection::vec(payload_line(voices), 0..4)),
        0..8,
    )
}

/// `(segment, speaker, text)` of every track.
fn annotated(c: &Corpus) -> Vec<(Segment, String, Option<String>)> {
    c.iter()
        .flat_map(|(_, t)| {
            t.utterances().map(|u| {
                (u.segment, u.speaker_name.to_owned(), u.content.and_then(|c| c.text.clone()))
            })
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn messy_webvtt_is_written_back_as_read(youtube in any::<bool>(), cues in cues(true)) {
        let mut doc = String::from(if youtube { "WEBVTT\nKind: captions\nLanguage: en\n" } else { "WEBVTT - x\n" });
        for (k, (start, dur, lines)) in cues.iter().enumerate() {
            let clock = |ms: u32| format!("00:{:02}:{:02}.{:03}", ms / 60_000, ms / 1000 % 60, ms % 1000);
            doc.push_str(&format!("\nNOTE {k}\n\n{k}\n{} --> {} align:start\n", clock(*start), clock(start + dur)));
            for l in lines {
                doc.push_str(l);
                doc.push('\n');
            }
        }
        let first = read_str(&doc, Format::WebVtt, &ReadOptions::default()).unwrap().corpus;
        let again = round_trip(Format::WebVtt, &first);
        prop_assert_eq!(annotated(&again), annotated(&first), "{}", doc);
    }

    #[test]
    fn messy_srt_is_written_back_as_read(cues in cues(false)) {
        let mut doc = String::new();
        for (k, (start, dur, lines)) in cues.iter().enumerate() {
            let clock = |ms: u32| format!("00:{:02}:{:02},{:03}", ms / 60_000, ms / 1000 % 60, ms % 1000);
            doc.push_str(&format!("{}\n{} --> {}\n", k + 1, clock(*start), clock(start + dur)));
            for l in lines.iter().filter(|l| !l.trim().is_empty()) {
                doc.push_str(l);
                doc.push('\n');
            }
            doc.push('\n');
        }
        let first = read_str(&doc, Format::Srt, &ReadOptions::default()).unwrap().corpus;
        let again = round_trip(Format::Srt, &first);
        prop_assert_eq!(annotated(&again), annotated(&first), "{}", doc);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Any spelling of the known headers, in any column order and case, with seconds,
    /// milliseconds or clock times, reads the same rows.
    #[test]
    fn csv_headers_in_any_spelling(
        start in prop::sample::select(vec!["start", "Begin", "START_TIME", "tbeg", "Onset", "start (s)", "Start Time"]),
        end in prop::sample::select(vec!["end", "Stop", "END_TIME", "offset", "end [s]", "End Time"]),
        speaker in prop::sample::select(vec!["speaker", "SPK", "Speaker Name", "participant", "label", "who"]),
        text in prop::sample::select(vec!["text", "Transcript", "utterance", "Content"]),
        file in prop::sample::select(vec!["file", "Recording", "URI", "session_id"]),
        ms in any::<bool>(),
        clock in any::<bool>(),
        order in Just(vec![0usize, 1, 2, 3, 4]).prop_shuffle(),
        rows in prop::collection::vec((0i64..3_600_000, 1i64..60_000, 0usize..3), 1..10),
    ) {
        let names = ["Ana María", "Bo", "Zoë, Jr."];
        let start_h = if ms && !clock { format!("{start}_ms").replace(" (s)_ms", "_ms") } else { start.to_owned() };
        let end_h = if ms && !clock { format!("{end}_ms").replace(" [s]_ms", "_ms") } else { end.to_owned() };
        let headers = [file.to_owned(), start_h, end_h, speaker.to_owned(), text.to_owned()];
        let time = |t_ms: i64| {
            if clock {
                overtalk::time::format_clock(Time::from_millis(t_ms), '.')
            } else if ms {
                t_ms.to_string()
            } else {
                Time::from_millis(t_ms).to_string()
            }
        };
        let mut w = Vec::new();
        {
            let mut csv = ::csv::Writer::from_writer(&mut w);
            csv.write_record(order.iter().map(|&k| headers[k].as_str())).unwrap();
            for (k, (s, d, who)) in rows.iter().enumerate() {
                let fields = ["rec".to_owned(), time(*s), time(s + d), names[*who].to_owned(), format!("row {k}")];
                csv.write_record(order.iter().map(|&k| fields[k].as_str())).unwrap();
            }
        }
        let out = read_bytes(&w, None, Some(Format::Csv), &ReadOptions::default()).unwrap();
        prop_assert!(out.warnings.iter().all(|w| w.kind == WarningKind::SelfOverlap), "{:?}", out.warnings);
        let mut b = TranscriptBuilder::new();
        for (k, (s, d, who)) in rows.iter().enumerate() {
            b.add(Segment::from_millis(*s, s + d).unwrap(), names[*who], Some(Content::text(format!("row {k}"))));
        }
        prop_assert_eq!(out.corpus, Corpus::single("rec", b.build()));
    }
}

/// Real NIST files that are valid but not the usual shape: SCTK's two-channel STM sorted by
/// file, channel and time, SCTK's excluded region, and pyannote.database's multichannel RTTM.
/// Each reads under `--strict`, with one note that says what is not kept.
#[test]
fn nist_channels_and_excluded_regions_are_read_with_notes() {
    let strict = ReadOptions { strict: true, ..ReadOptions::default() };
    let notes = |rel: &str| {
        let out = read_path(&fixture(rel), None, &strict).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let w: Vec<(WarningKind, Option<usize>, String)> =
            out.warnings.iter().map(|w| (w.kind, w.line, w.message.clone())).collect();
        (out.corpus, w)
    };
    let (corpus, w) = notes("stm/sctk_testmss.stm");
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!((w[0].0, w[0].1), (WarningKind::Note, Some(3)));
    assert!(w[0]
        .2
        .starts_with("1 recording(s) have lines on more than one channel (testmss: A, B)"));
    let t = corpus.get("testmss").unwrap();
    let starts: Vec<i64> = t.utterances().map(|u| u.segment.start().micros()).collect();
    assert_eq!(starts, [4_282_622, 15_047_205, 75_772_244, 85_772_244]);

    let (corpus, w) = notes("stm/sctk_isgbug.stm");
    assert_eq!(
        w,
        [
            (WarningKind::Note, Some(9), "lines are on channel 0 (not 1); the channel is not kept and is written as 1".to_owned()),
            (WarningKind::Note, Some(9), "1 line marked IGNORE_TIME_SEGMENT_IN_SCORING (first at line 9): regions excluded from scoring, not speech; not read as turns".to_owned()),
            (WarningKind::Note, Some(12), "sclite alternations (`{ a / b }`): the first alternative of each is read, the others are left out".to_owned()),
        ]
    );
    assert_eq!(corpus.get("Speech012").unwrap().annotation().len(), 10);

    let (corpus, w) = notes("rttm/pyannote_database_multichannel.rttm");
    assert_eq!(w.len(), 1, "{w:?}");
    assert_eq!((w[0].0, w[0].1), (WarningKind::Note, Some(2)));
    assert!(w[0].2.starts_with("1 recording(s) have lines on more than one channel (conv1: 1, 2)"));
    assert_eq!(corpus.get("conv1").unwrap().annotation().len(), 3);
}

/// `(speaker, start µs, end µs)` of every track.
fn spans(t: &Transcript) -> Vec<(String, i64, i64)> {
    t.utterances()
        .map(|u| (u.speaker_name.to_owned(), u.segment.start().micros(), u.segment.end().micros()))
        .collect()
}

#[test]
fn teams_unpadded_milliseconds_and_name_lines() {
    // Microsoft Teams writes no leading zeros, in the milliseconds too: `0:0:6.90 --> 0:0:6.500`
    // is 6.090–6.500 s (read as a decimal, the cue would end before it starts and be lost).
    // Its Word transcript saved as text puts the name on its own line under the times.
    let word = "0:0:0.0 --> 0:0:0.870\nAna Ruiz\nYeah, hopefully.\n0:0:4.560 --> 0:0:5.180\nBo Lind\nSo.\n0:0:6.90 --> 0:0:6.500\nAna Ruiz\nHello.\n0:1:25.70 --> 0:1:27.40\nBo Lind\nHello.\n";
    assert_eq!(format::sniff(word), Some(Format::Srt));
    let out = read_str(word, Format::Srt, &ReadOptions::default()).unwrap();
    let t = out.corpus.get("recording").unwrap();
    let s = |n: &str, a: i64, b: i64| (n.to_owned(), a, b);
    assert_eq!(
        spans(t),
        vec![
            s("Ana Ruiz", 0, 870_000),
            s("Bo Lind", 4_560_000, 5_180_000),
            s("Ana Ruiz", 6_090_000, 6_500_000),
            s("Bo Lind", 85_070_000, 87_040_000),
        ]
    );
    assert_eq!(
        t.utterances().nth(2).and_then(|u| u.content.and_then(|c| c.text.clone())),
        Some("Hello.".into())
    );
    // One warning says how the fraction was read, at the first field it changed.
    let w: Vec<_> = out.warnings.iter().filter(|w| w.message.contains("leading zeros")).collect();
    assert_eq!(w.len(), 1, "{:?}", out.warnings);
    assert_eq!((w[0].kind, w[0].line, w[0].column), (WarningKind::Repaired, Some(7), Some(1)));
    assert!(w[0].message.contains("read as 6.090, not 6.900"), "{}", w[0].message);
    assert!(
        out.warnings.iter().all(|w| w.kind != WarningKind::MissingSpeaker),
        "{:?}",
        out.warnings
    );
    // The same times in Teams' WebVTT.
    let vtt = "WEBVTT\n\n0:0:0.0 --> 0:0:0.870\n<v Ana Ruiz>Yeah.</v>\n\n0:0:6.90 --> 0:0:6.500\n<v Bo Lind>Hello.</v>\n";
    let out = read_str(vtt, Format::WebVtt, &ReadOptions::default()).unwrap();
    let t = out.corpus.get("recording").unwrap();
    assert_eq!(spans(t), vec![s("Ana Ruiz", 0, 870_000), s("Bo Lind", 6_090_000, 6_500_000)]);
    // Padded clocks keep their decimal fraction (`00:00:06.9` is 6.9 s), and so do the
    // subtitles of a file that pads its minutes and seconds.
    let srt = "1\n00:00:06,9 --> 00:00:07,5\nHello there.\n";
    let out = read_str(srt, Format::Srt, &ReadOptions::default()).unwrap();
    assert_eq!(
        spans(out.corpus.get("recording").unwrap()),
        vec![s("unknown", 6_900_000, 7_500_000)]
    );
    // Unpadded decimal seconds, as a float printer writes them, stay decimal: no two-digit
    // fraction ends in 0 (`2.25`, `3.125`), or one starts with 0 (`1.05` beside `1.90`).
    for (text, want) in [
        (
            "0:0:1.5 --> 0:0:2.25\nAna Ruiz\nHi.\n0:0:3.125 --> 0:0:4.5\nBo Lind\nYes.\n",
            (1_500_000, 2_250_000),
        ),
        (
            "0:0:1.05 --> 0:0:1.90\nAna Ruiz\nHi.\n0:0:3.125 --> 0:0:4.5\nBo Lind\nYes.\n",
            (1_050_000, 1_900_000),
        ),
    ] {
        let out = read_str(text, Format::Srt, &ReadOptions::default()).unwrap();
        let first = spans(out.corpus.get("recording").unwrap())[0].clone();
        assert_eq!((first.1, first.2), want, "{text}");
    }
    // Names as Teams writes them (a role in parentheses, particles, other scripts, numbers),
    // and a sound caption among them: each names its block.
    let teams = "0:0:1.0 --> 0:0:2.0\nBo Lind (Guest)\nHi.\n0:0:2.0 --> 0:0:3.0\nJan ter Horst\nYes.\n0:0:3.0 --> 0:0:4.0\n王伟\n好.\n0:0:4.0 --> 0:0:5.0\nSpeaker 1\nOk.\n0:0:5.0 --> 0:0:6.0\n[Music]\n0:0:6.0 --> 0:0:7.0\nBo Lind (Guest)\nSo.\n0:0:7.0 --> 0:0:8.0\nJan ter Horst\nRight.\n0:0:8.0 --> 0:0:9.0\n王伟\n对.\n0:0:9.0 --> 0:0:10.0\nSpeaker 1\nSure.\n";
    let out = read_str(teams, Format::Srt, &ReadOptions::default()).unwrap();
    let names: Vec<String> =
        spans(out.corpus.get("recording").unwrap()).into_iter().map(|s| s.0).collect();
    assert_eq!(names[..4], ["Bo Lind (Guest)", "Jan ter Horst", "王伟", "Speaker 1"], "{names:?}");
    assert!(!names.iter().any(|n| n == "unknown"), "{names:?}");
    // Two-line subtitles are no name lines: their first lines do not recur.
    let subs = "1\n00:00:01,000 --> 00:00:02,000\nGood Morning\nto you.\n\n2\n00:00:03,000 --> 00:00:04,000\nBig News\ntoday.\n";
    let out = read_str(subs, Format::Srt, &ReadOptions::default()).unwrap();
    let t = out.corpus.get("recording").unwrap();
    assert!(t.utterances().all(|u| u.speaker_name == "unknown"));
}

#[test]
fn webvtt_named_for_a_file_without_header_or_timing_line_is_an_error() {
    // An ASS subtitle file named with `--from webvtt`: no silent empty result.
    let ass = "[Script Info]\nTitle: x\n\n[Events]\nDialogue: 0,0:00:01.00,0:00:02.00,Default,Ana,0,0,0,,Hi\n";
    let e = read_str(ass, Format::WebVtt, &ReadOptions::default()).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(1), Some(1)));
    assert!(e.to_string().contains("this is not WebVTT"), "{e}");
    // A header with no cues is an empty WebVTT file: a note, not an error.
    let out =
        read_str("WEBVTT\n\nNOTE nothing yet\n", Format::WebVtt, &ReadOptions::default()).unwrap();
    assert!(kinds(&out.warnings).iter().all(|k| *k == WarningKind::Note), "{:?}", out.warnings);
}

#[test]
fn an_xml_file_is_read_in_the_encoding_it_declares() {
    // Transcriber files are often Latin-1, and say so: read so, with a note naming it.
    let bytes = b"<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<Trans><Speakers><Speaker id=\"spk1\" name=\"Rey Garc\xeda\"/></Speakers><Episode><Section type=\"report\" startTime=\"0\" endTime=\"2\"><Turn startTime=\"0\" endTime=\"2\" speaker=\"spk1\"><Sync time=\"0\"/>\xa1se\xf1or!</Turn></Section></Episode></Trans>\n";
    let out = read_bytes(bytes, Some("x.trs"), None, &ReadOptions::default()).unwrap();
    let notes: Vec<_> = out.warnings.iter().filter(|w| w.kind == WarningKind::Encoding).collect();
    assert_eq!(notes.len(), 1, "{:?}", out.warnings);
    assert!(
        notes[0].message.contains("decoded as ISO-8859-1, as its XML declaration says"),
        "{}",
        notes[0].message
    );
    let t = out.corpus.get("recording").unwrap();
    assert_eq!(
        t.annotation().speakers().iter().map(|(_, n)| n).collect::<Vec<_>>(),
        ["Rey García"]
    );
    // ISO-8859-2 is not what a guess would find for these bytes; the declaration decides.
    let bytes2 = b"<?xml version='1.0' encoding='ISO-8859-2'?>\n<Trans><Speakers><Speaker id=\"s\" name=\"\xa3ukasz\"/></Speakers><Episode><Section type=\"report\" startTime=\"0\" endTime=\"1\"><Turn startTime=\"0\" endTime=\"1\" speaker=\"s\"><Sync time=\"0\"/>tak</Turn></Section></Episode></Trans>\n";
    let out = read_bytes(bytes2, Some("y.trs"), None, &ReadOptions::default()).unwrap();
    let t = out.corpus.get("recording").unwrap();
    assert_eq!(t.annotation().speakers().iter().map(|(_, n)| n).collect::<Vec<_>>(), ["Łukasz"]);
    // A UTF-16 declaration on bytes that are no UTF-16 (no byte order mark, no NUL) is not
    // trusted: the encoding is guessed, and the note says it was.
    let bytes3 = b"<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<Trans><Speakers><Speaker id=\"s\" name=\"Jos\xe9\"/></Speakers><Episode><Section type=\"report\" startTime=\"0\" endTime=\"1\"><Turn startTime=\"0\" endTime=\"1\" speaker=\"s\"><Sync time=\"0\"/>s\xed</Turn></Section></Episode></Trans>\n";
    let out = read_bytes(bytes3, Some("z.trs"), None, &ReadOptions::default()).unwrap();
    let t = out.corpus.get("recording").unwrap();
    assert_eq!(t.annotation().speakers().iter().map(|(_, n)| n).collect::<Vec<_>>(), ["José"]);
    let notes: Vec<_> = out.warnings.iter().filter(|w| w.kind == WarningKind::Encoding).collect();
    assert_eq!(notes.len(), 1, "{:?}", out.warnings);
    assert!(notes[0].message.contains("the most likely encoding"), "{}", notes[0].message);
}

#[test]
fn text_of_another_format_named_rttm_is_an_error() {
    // A WebVTT file named `.rttm`: said at its first line, with the format it reads as.
    let vtt = "WEBVTT\n\n00:00.000 --> 00:01.000\n<v Ann>Hi.\n";
    let e = read_str(vtt, Format::Rttm, &ReadOptions::default()).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(1), Some(1)));
    assert!(e.to_string().contains("reads as webvtt"), "{e}");
    // Text of no known format: one error, not a warning per line and an empty result.
    let e =
        read_str("hello there\nhow are you\n", Format::Rttm, &ReadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("no line has an RTTM type"), "{e}");
    // An unknown type among RTTM lines stays a warning.
    let mixed = "SPEAKER a 1 0 1 <NA> <NA> x <NA> <NA>\nFOO a 1 0 1\n";
    let out = read_str(mixed, Format::Rttm, &ReadOptions::default()).unwrap();
    assert_eq!(kinds(&out.warnings), vec![WarningKind::Skipped]);
}
