//! The JSON formats: real and hand-written fixtures read to exact tracks and warnings, round
//! trips, and hostile input.

#![allow(clippy::unwrap_used)] // Test helpers fail loudly.

use std::path::PathBuf;

use overtalk::format::{
    detect, json, read_bytes, read_path, read_str, rttm, whisperx, Format, Limits, ReadOptions,
    ReadOutput,
};
use overtalk::time::MAX_MICROS;
use overtalk::{Content, Corpus, ErrorKind, Segment, Time, TranscriptBuilder, WarningKind, Word};
use proptest::prelude::*;

fn fixture(sub: &str, name: &str) -> PathBuf {
    overtalk_testkit::fixtures().join(sub).join(name)
}

fn read_fixture(sub: &str, name: &str) -> ReadOutput {
    read_path(&fixture(sub, name), None, &ReadOptions::default()).unwrap()
}

/// `(start µs, end µs, speaker)` of every track of the one recording.
fn tracks(out: &ReadOutput, id: &str) -> Vec<(i64, i64, String)> {
    let t = out.corpus.get(id).unwrap();
    t.utterances()
        .map(|u| (u.segment.start().micros(), u.segment.end().micros(), u.speaker_name.to_owned()))
        .collect()
}

fn texts(out: &ReadOutput, id: &str) -> Vec<String> {
    let t = out.corpus.get(id).unwrap();
    t.utterances().map(|u| u.content.map(Content::display_text).unwrap_or_default()).collect()
}

fn warnings(out: &ReadOutput) -> Vec<(WarningKind, Option<usize>, Option<usize>)> {
    out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect()
}

/// 1-based line and character column of the first occurrence of `needle`.
fn position(text: &str, needle: &str) -> (usize, usize) {
    let at = text.find(needle).unwrap();
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (before.matches('\n').count() + 1, before[line_start..].chars().count() + 1)
}

fn owned(v: &[(i64, i64, &str)]) -> Vec<(i64, i64, String)> {
    v.iter().map(|&(s, e, n)| (s, e, n.to_owned())).collect()
}

// ---------------------------------------------------------------------------------------------
// Deepgram
// ---------------------------------------------------------------------------------------------

const DEEPGRAM_ID: &str = "deepgram_python_sdk_mock_response";

#[test]
fn deepgram_sample_reads_with_exact_tracks_and_warnings() {
    let out = read_fixture("deepgram-json", "deepgram_python_sdk_mock_response.json");
    assert_eq!(out.format, Some(Format::Deepgram));
    // Undiarized: one warning for the whole response, at the first utterance.
    assert_eq!(warnings(&out), vec![(WarningKind::MissingSpeaker, Some(267), Some(7))]);
    assert_eq!(
        out.warnings[0].message,
        "no speaker labels (the request lacked diarize=true); all speech is given to the placeholder speaker \"unknown\""
    );
    assert_eq!(
        tracks(&out, DEEPGRAM_ID),
        owned(&[
            (5_520_000, 6_020_000, "unknown"),
            (7_095_000, 9_115_000, "unknown"),
            (9_975_000, 11_514_999, "unknown"),
            (11_975_000, 15_701_312, "unknown"),
        ])
    );
    assert_eq!(
        texts(&out, DEEPGRAM_ID),
        vec![
            "Yep.",
            "I said it before, and I'll say it again.",
            "Life moves pretty fast.",
            "You don't stop and look around once in a while. you could miss it."
        ]
    );
    let t = out.corpus.get(DEEPGRAM_ID).unwrap();
    assert_eq!(t.declared_extent(), Segment::from_micros(0, 17_566_310));
    let second = t.contents()[1].as_ref().unwrap();
    assert_eq!(second.words.len(), 9);
    // 7.2549996 s rounds half away from zero to the microsecond.
    assert_eq!(
        second.words[1],
        Word {
            text: "said".into(),
            start: Some(Time::from_micros(7_255_000)),
            end: Some(Time::from_micros(7_415_000)),
            confidence: Some(0.99609375)
        }
    );
}

#[test]
fn deepgram_sample_converts_to_rttm_and_back() {
    let out = read_fixture("deepgram-json", "deepgram_python_sdk_mock_response.json");
    let mut buf = Vec::new();
    assert!(rttm::write(&out.corpus, &mut buf).unwrap().is_empty());
    let text = String::from_utf8(buf).unwrap();
    assert_eq!(text.lines().count(), 4);
    let back = read_str(&text, Format::Rttm, &ReadOptions::default()).unwrap();
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    assert_eq!(tracks(&back, DEEPGRAM_ID), tracks(&out, DEEPGRAM_ID));
    assert_eq!(
        back.corpus.get(DEEPGRAM_ID).unwrap().annotation(),
        out.corpus.get(DEEPGRAM_ID).unwrap().annotation()
    );
}

#[test]
fn deepgram_fixture_matches_the_shared_sample() {
    let Some(shared) = overtalk_testkit::shared_data("deepgram_fixture_matches_the_shared_sample")
    else {
        return;
    };
    let original =
        shared.join("format-samples/deepgram-json/deepgram_python_sdk_mock_response.json");
    let a = std::fs::read(original).unwrap();
    let b =
        std::fs::read(fixture("deepgram-json", "deepgram_python_sdk_mock_response.json")).unwrap();
    assert_eq!(a, b);
}

#[test]
fn deepgram_sample_without_utterances_builds_tracks_from_words() {
    let text =
        std::fs::read_to_string(fixture("deepgram-json", "deepgram_python_sdk_mock_response.json"))
            .unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    value["results"].as_object_mut().unwrap().remove("utterances");
    let opts = ReadOptions { recording_id: Some("r".into()), ..Default::default() };
    let out = read_str(&value.to_string(), Format::Deepgram, &opts).unwrap();
    // Cut at pauses over 0.8 s: Deepgram's first two utterances, then its last two joined (the
    // pause between them is 0.46 s; Deepgram also cut at the sentence end).
    assert_eq!(
        tracks(&out, "r"),
        owned(&[
            (5_520_000, 6_020_000, "unknown"),
            (7_095_000, 9_115_000, "unknown"),
            (9_975_000, 15_701_312, "unknown"),
        ])
    );
    assert_eq!(out.warnings.len(), 1);
    assert_eq!(
        texts(&out, "r")[2],
        "Life moves pretty fast. You don't stop and look around once in a while. you could miss it."
    );
}

// ---------------------------------------------------------------------------------------------
// WhisperX
// ---------------------------------------------------------------------------------------------

#[test]
fn whisperx_meeting_reads_every_quirk() {
    let path = fixture("whisperx", "meeting.json");
    let text = std::fs::read_to_string(&path).unwrap();
    let out = read_fixture("whisperx", "meeting.json");
    assert_eq!(out.format, Some(Format::WhisperX));
    assert_eq!(
        tracks(&out, "meeting"),
        owned(&[
            (31_000, 4_210_000, "SPEAKER_00"),
            (3_950_000, 6_250_000, "SPEAKER_01"),
            // Segment 2 has no speaker and its words name two: split at the change.
            (6_500_000, 6_900_000, "SPEAKER_00"),
            (7_200_000, 8_800_000, "SPEAKER_01"),
            // Segment 3: no speaker anywhere.
            (9_500_000, 10_200_000, "unknown"),
        ])
    );
    assert_eq!(
        texts(&out, "meeting"),
        vec![
            " So the plan is to ship on Friday.",
            " Friday won't work for us, we need 5pm Monday.",
            "Okay.",
            "Café at nine then?",
            " Mm-hmm."
        ]
    );
    let (l, nan) = position(&text, "NaN");
    let (_, seg2) = position(&text, "{\"start\": 6.4");
    let (_, seg3) = position(&text, "{\"start\": 9.5");
    let (_, pm) = position(&text, "{\"word\": \"5pm\"}");
    assert_eq!(l, 1);
    assert_eq!(
        warnings(&out),
        vec![
            (WarningKind::Repaired, Some(1), Some(nan)),
            (WarningKind::Note, Some(1), Some(seg2)),
            (WarningKind::MissingSpeaker, Some(1), Some(seg3)),
            (WarningKind::MissingTime, Some(1), Some(pm)),
        ]
    );
    // Columns count characters: two "é" (two bytes each) come before segment 3.
    assert_eq!(seg3, text[..text.find("{\"start\": 9.5").unwrap()].len() - 1);
    assert!(out.warnings[0].message.starts_with("3 bare NaN"), "{}", out.warnings[0]);
    let t = out.corpus.get("meeting").unwrap();
    let okay = &t.contents()[2].as_ref().unwrap().words[0];
    assert_eq!(
        okay,
        &Word::timed("Okay.", Time::from_micros(6_500_000), Time::from_micros(6_900_000))
    );
    assert_eq!(t.contents()[1].as_ref().unwrap().words[7], Word::untimed("5pm"));
}

#[test]
fn whisperx_undiarized_reads_with_one_warning() {
    let out = read_fixture("whisperx", "undiarized.json");
    assert_eq!(
        tracks(&out, "undiarized"),
        owned(&[(500_000, 2_250_000, "unknown"), (2_800_000, 4_000_000, "unknown")])
    );
    assert_eq!(warnings(&out), vec![(WarningKind::MissingSpeaker, Some(3), Some(5))]);
    // Undiarized output is valid WhisperX: `--strict` reads it with the same note.
    let strict = ReadOptions { strict: true, ..Default::default() };
    let again = read_path(&fixture("whisperx", "undiarized.json"), None, &strict).unwrap();
    assert_eq!(warnings(&again), vec![(WarningKind::MissingSpeaker, Some(3), Some(5))]);
}

/// whisper-timestamped's JSON (deepgram-python-captions' test file): its words carry `text` and
/// `confidence`, read as WhisperX's `word` and `score` (they were words without text).
#[test]
fn whisper_timestamped_words_keep_their_text_and_confidence() {
    let out = read_fixture("whisperx", "deepgram_captions_whisper_timestamped.json");
    let id = "deepgram_captions_whisper_timestamped";
    assert_eq!(out.format, Some(Format::WhisperX));
    assert_eq!(warnings(&out), vec![(WarningKind::MissingSpeaker, Some(4), Some(5))]);
    assert_eq!(
        tracks(&out, id),
        owned(&[
            (120_000, 7_620_000, "unknown"),
            (8_540_000, 12_360_000, "unknown"),
            (12_980_000, 19_000_000, "unknown"),
            (19_820_000, 25_320_000, "unknown"),
        ])
    );
    let t = out.corpus.get(id).unwrap();
    let words: Vec<(String, Option<Time>, Option<f64>)> = t
        .contents()
        .iter()
        .flatten()
        .flat_map(|c| c.words.iter().map(|w| (w.text.clone(), w.start, w.confidence)))
        .collect();
    assert_eq!(words.len(), 59);
    let w = |text: &str, us: i64, c: f64| (text.to_owned(), Some(Time::from_micros(us)), Some(c));
    assert_eq!(
        words[..3],
        [w("Yeah,", 120_000, 0.74), w("as", 980_000, 0.95), w("much", 1_120_000, 0.98)]
    );
    assert_eq!(words[58], w("today.", 25_060_000, 0.87));
}

/// subsrt's JSON (the npm package's `test/fixtures/sample.json`): times in whole milliseconds.
/// Read as seconds, its 21 s of captions lasted 5.8 hours, `[intro music]` among the speech.
#[test]
fn a_bare_list_in_milliseconds_from_a_caption_library() {
    let out = read_fixture("whisperx", "subsrt_sample.json");
    assert_eq!(out.format, Some(Format::WhisperX));
    let spans: Vec<(i64, i64)> =
        tracks(&out, "subsrt_sample").into_iter().map(|(s, e, _)| (s, e)).collect();
    assert_eq!(
        spans,
        [
            (599_000, 4_160_000),
            (4_160_000, 6_770_000),
            (6_770_000, 10_880_000),
            (16_700_000, 21_480_000)
        ]
    );
    // `[intro music]` is no one's speech.
    assert_eq!(
        warnings(&out),
        vec![
            (WarningKind::Note, Some(2), Some(3)),
            (WarningKind::MissingSpeaker, Some(2), Some(3)),
            (WarningKind::Skipped, Some(29), Some(3))
        ]
    );
    assert_eq!(
        out.warnings[0].message,
        "the segments have subsrt's shape (`\"type\": \"caption\"`, `content`, or a `duration` equal to end minus start) and whole-number times of median length 4110: read as milliseconds (as subsrt, a JavaScript caption library, writes them), not seconds"
    );
}

/// youtube-transcript-api's JSON (`JSONFormatter`) of its own test asset: `start` and
/// `duration`, one caption line with no text.
#[test]
fn youtube_transcript_api_json_reads_start_and_duration() {
    let out = read_fixture("whisperx", "youtube_transcript_api.json");
    assert_eq!(out.format, Some(Format::WhisperX));
    assert_eq!(
        tracks(&out, "youtube_transcript_api"),
        owned(&[
            (0, 1_540_000, "unknown"),
            (1_540_000, 5_700_000, "unknown"),
            (5_700_000, 8_939_000, "unknown")
        ])
    );
    assert_eq!(
        texts(&out, "youtube_transcript_api"),
        [
            "Hey, this is just a test",
            "this is not the original transcript",
            "just something shorter, I made up for testing"
        ]
    );
    let notes: Vec<(WarningKind, Option<usize>, &str)> = out
        .warnings
        .iter()
        .filter(|w| w.kind != WarningKind::MissingSpeaker)
        .map(|w| (w.kind, w.line, w.message.as_str()))
        .collect();
    assert_eq!(
        notes,
        [
            (WarningKind::Note, Some(1), "4 segment(s) give a `duration` instead of an `end` (youtube-transcript-api's `text`, `start`, `duration`): each ends at its start plus its duration"),
            (WarningKind::Skipped, Some(1), "1 segment(s) with no text skipped: a caption that shows nothing marks no one's speech"),
        ]
    );
}

#[test]
fn whisperx_meeting_round_trips_through_its_writer() {
    let out = read_fixture("whisperx", "meeting.json");
    let mut buf = Vec::new();
    assert!(whisperx::write(&out.corpus, &mut buf).unwrap().is_empty());
    let opts = ReadOptions { recording_id: Some("meeting".into()), ..Default::default() };
    let back = read_bytes(&buf, None, None, &opts).unwrap();
    assert_eq!(back.format, Some(Format::WhisperX));
    assert_eq!(tracks(&back, "meeting"), tracks(&out, "meeting"));
    assert_eq!(texts(&back, "meeting"), texts(&out, "meeting"));
    // Only the untimed word is left to warn about.
    assert_eq!(
        back.warnings.iter().map(|w| w.kind).collect::<Vec<_>>(),
        vec![WarningKind::MissingTime]
    );
}

// ---------------------------------------------------------------------------------------------
// AssemblyAI
// ---------------------------------------------------------------------------------------------

#[test]
fn assemblyai_diarized_reads_utterances() {
    let out = read_fixture("assemblyai", "diarized.json");
    assert_eq!(out.format, Some(Format::AssemblyAi));
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(
        tracks(&out, "diarized"),
        owned(&[
            (240_000, 4_210_000, "A"),
            (3_950_000, 5_230_000, "B"),
            (6_500_000, 8_010_000, "A")
        ])
    );
    assert_eq!(texts(&out, "diarized")[1], "Friday won't work for us.");
    let t = out.corpus.get("diarized").unwrap();
    assert_eq!(t.declared_extent(), Segment::from_micros(0, 9_000_000));
    assert_eq!(t.annotation().overlap().duration().micros(), 260_000);
    let w = &t.contents()[2].as_ref().unwrap().words[0];
    assert_eq!(
        w,
        &Word {
            text: "Okay,".into(),
            start: Some(Time::from_micros(6_500_000)),
            end: Some(Time::from_micros(6_900_000)),
            confidence: Some(0.72)
        }
    );
}

#[test]
fn assemblyai_undiarized_falls_back_to_words() {
    let out = read_fixture("assemblyai", "undiarized.json");
    assert_eq!(
        tracks(&out, "undiarized"),
        owned(&[
            (240_000, 1_640_000, "unknown"),
            (3_700_000, 5_230_000, "unknown"),
            (6_500_000, 8_010_000, "unknown")
        ])
    );
    assert_eq!(warnings(&out), vec![(WarningKind::MissingSpeaker, Some(10), Some(5))]);
    assert_eq!(texts(&out, "undiarized")[0], "So the plan is to ship on");
}

// ---------------------------------------------------------------------------------------------
// SegLST
// ---------------------------------------------------------------------------------------------

#[test]
fn seglst_written_by_meeteval_reads_as_the_rttm_it_came_from() {
    let seglst = read_fixture("seglst", "ami_EN2002a_head.meeteval.seglst.json");
    let rttm = read_fixture("seglst", "ami_EN2002a_head.rttm");
    assert!(seglst.warnings.is_empty(), "{:?}", seglst.warnings);
    assert_eq!(seglst.format, Some(Format::SegLst));
    assert_eq!(tracks(&seglst, "EN2002a"), tracks(&rttm, "EN2002a"));
    assert_eq!(tracks(&seglst, "EN2002a").len(), 40);
    // And back: written as SegLST, read again, the same tracks.
    let mut buf = Vec::new();
    overtalk::format::write(&rttm.corpus, Format::SegLst, &mut buf).unwrap();
    let again = read_bytes(&buf, Some("x.json"), None, &ReadOptions::default()).unwrap();
    assert_eq!(again.format, Some(Format::SegLst));
    assert_eq!(tracks(&again, "EN2002a"), tracks(&rttm, "EN2002a"));
}

#[test]
fn seglst_in_the_chime_layout_reads_string_times_exactly() {
    let out = read_fixture("seglst", "chime7_style.json");
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(
        tracks(&out, "S05"),
        owned(&[
            (11_000_000, 11_370_000, "P03"),
            (11_210_000, 13_250_000, "P04"),
            (13_400_000, 14_020_000, "P03")
        ])
    );
    assert_eq!(
        texts(&out, "S05"),
        ["so ummm", "yeah I think we should start with the kitchen", "mm-hmm"]
    );
}

#[test]
fn aws_transcribe_speaker_segments_become_tracks_with_their_words() {
    let out = read_fixture("aws-transcribe", "diarized.json");
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(out.format, Some(Format::AwsTranscribe));
    assert_eq!(
        tracks(&out, "diarized"),
        owned(&[
            (520_000, 3_410_000, "spk_0"),
            (3_020_000, 3_550_000, "spk_1"),
            (3_900_000, 4_870_000, "spk_0")
        ])
    );
    assert_eq!(
        texts(&out, "diarized"),
        ["So when I'm talking, you're not talking.", "Okay.", "Let me finish."]
    );
}

#[test]
fn pyannote_serialized_output_reads_as_its_rttm() {
    let json = read_fixture("pyannote-json", "EN2002a_head.json");
    let rttm = read_fixture("seglst", "ami_EN2002a_head.rttm");
    assert!(json.warnings.is_empty(), "{:?}", json.warnings);
    assert_eq!(json.format, Some(Format::PyannoteJson));
    assert_eq!(tracks(&json, "EN2002a_head"), tracks(&rttm, "EN2002a"));
}

/// Speaker change detection (speechmatics-python's test file): the change is counted in the
/// warning, not hidden behind "diarization was off"; the words go to the placeholder.
#[test]
fn speechmatics_speaker_change_detection_is_named_in_the_warning() {
    let out = read_fixture("speechmatics", "speechmatics_python_speaker_change.json");
    let id = "speechmatics_python_speaker_change";
    assert_eq!(out.format, Some(Format::Speechmatics));
    assert_eq!(warnings(&out), [(WarningKind::MissingSpeaker, Some(5), Some(9))]);
    assert_eq!(
        out.warnings[0].message,
        "no word has a speaker: the transcript marks 1 speaker change(s) (`speaker_change`, speaker change detection) but not who speaks; all speech is given to the placeholder speaker \"unknown\""
    );
    assert_eq!(tracks(&out, id), owned(&[(0, 200_000, "unknown")]));
    assert_eq!(texts(&out, id), ["Hello Hey"]);
}

#[test]
fn four_vendors_give_the_same_exchange_the_same_tracks_and_words() {
    // The same invented exchange from both vendors: the same tracks, text and word times.
    let rev = read_fixture("revai", "transcript.json");
    let sm = read_fixture("speechmatics", "transcript.json");
    assert!(rev.warnings.is_empty(), "{:?}", rev.warnings);
    assert!(sm.warnings.is_empty(), "{:?}", sm.warnings);
    assert_eq!(
        tracks(&rev, "transcript"),
        owned(&[(500_000, 1_500_000, "Host"), (1_380_000, 2_400_000, "speaker_2")])
    );
    assert_eq!(
        tracks(&sm, "transcript"),
        owned(&[(500_000, 1_500_000, "S1"), (1_380_000, 1_900_000, "S2")])
    );
    assert_eq!(texts(&rev, "transcript"), texts(&sm, "transcript"));
    assert_eq!(texts(&sm, "transcript"), ["When I'm talking.", "Sorry."]);
    let words = |out: &ReadOutput| -> Vec<(String, Option<Time>, Option<Time>)> {
        let t = out.corpus.get("transcript").unwrap();
        t.contents()
            .iter()
            .flatten()
            .flat_map(|c| c.words.iter().map(|w| (w.text.clone(), w.start, w.end)))
            .collect()
    };
    assert_eq!(words(&rev), words(&sm));
    // Google and Azure: the same times; Azure's text is its display form, Google's the words.
    let google = read_fixture("google-stt", "diarized.json");
    let azure = read_fixture("azure", "transcription.json");
    assert!(google.warnings.is_empty(), "{:?}", google.warnings);
    assert!(azure.warnings.is_empty(), "{:?}", azure.warnings);
    let speakers = owned(&[(500_000, 1_500_000, "speaker_1"), (1_380_000, 1_900_000, "speaker_2")]);
    assert_eq!(tracks(&google, "diarized"), speakers);
    assert_eq!(tracks(&azure, "transcription"), speakers);
    assert_eq!(texts(&azure, "transcription"), ["When I'm talking.", "Sorry."]);
    assert_eq!(texts(&google, "diarized"), ["When I'm talking", "sorry"]);
    let times = |out: &ReadOutput, id: &str| -> Vec<(Option<Time>, Option<Time>)> {
        let t = out.corpus.get(id).unwrap();
        t.contents()
            .iter()
            .flatten()
            .flat_map(|c| c.words.iter().map(|w| (w.start, w.end)))
            .collect()
    };
    assert_eq!(times(&google, "diarized"), times(&sm, "transcript"));
    assert_eq!(times(&azure, "transcription"), times(&sm, "transcript"));
}

// ---------------------------------------------------------------------------------------------
// Sniffing
// ---------------------------------------------------------------------------------------------

#[test]
fn json_files_are_told_apart_by_content() {
    for (sub, name, want) in [
        ("deepgram-json", "deepgram_python_sdk_mock_response.json", Format::Deepgram),
        ("whisperx", "meeting.json", Format::WhisperX),
        ("whisperx", "undiarized.json", Format::WhisperX),
        ("assemblyai", "diarized.json", Format::AssemblyAi),
        ("assemblyai", "undiarized.json", Format::AssemblyAi),
        ("seglst", "chime7_style.json", Format::SegLst),
        ("seglst", "ami_EN2002a_head.meeteval.seglst.json", Format::SegLst),
        ("aws-transcribe", "diarized.json", Format::AwsTranscribe),
        ("pyannote-json", "EN2002a_head.json", Format::PyannoteJson),
        ("revai", "transcript.json", Format::RevAi),
        ("speechmatics", "transcript.json", Format::Speechmatics),
        ("google-stt", "diarized.json", Format::GoogleStt),
        ("azure", "transcription.json", Format::Azure),
    ] {
        let text = std::fs::read_to_string(fixture(sub, name)).unwrap();
        assert_eq!(detect(Some(name), &text, None).unwrap(), want, "{name}");
    }
    let mut buf = Vec::new();
    json::write(&Corpus::new(), &mut buf).unwrap();
    assert_eq!(
        detect(Some("x.json"), std::str::from_utf8(&buf).unwrap(), None).unwrap(),
        Format::Json
    );
    assert!(detect(Some("x.json"), "{\"something\": 1}", None).is_err());
}

// ---------------------------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------------------------

fn word_strategy() -> impl Strategy<Value = Word> {
    (
        "[a-zA-Z0-9 é\"\\\\\n]{0,6}",
        proptest::option::of(-MAX_MICROS..=MAX_MICROS),
        proptest::option::of(-MAX_MICROS..=MAX_MICROS),
        proptest::option::of(prop_oneof![
            0.0..=1.0f64,
            any::<f64>().prop_filter("finite", |c| c.is_finite())
        ]),
    )
        .prop_map(|(text, s, e, confidence)| Word {
            text,
            start: s.map(Time::from_micros),
            end: e.map(Time::from_micros),
            confidence,
        })
}

fn content_strategy() -> impl Strategy<Value = Option<Content>> {
    proptest::option::of(
        (
            proptest::option::of("[a-zA-Z \t\"é\\u{1F600}]{0,10}"),
            proptest::collection::vec(word_strategy(), 0..4),
        )
            .prop_map(|(text, words)| Content { text, words }),
    )
}

fn track_strategy(max_start: i64) -> impl Strategy<Value = (i64, i64, usize, Option<Content>)> {
    (0..max_start, 1..1_000_000_000i64, 0..4usize, content_strategy())
}

fn transcript_strategy() -> impl Strategy<Value = overtalk::Transcript> {
    (
        proptest::collection::vec("[a-zA-Z_ é\"]{0,6}", 1..4),
        proptest::collection::vec(track_strategy(MAX_MICROS / 2), 0..8),
        proptest::option::of((0..MAX_MICROS / 2, 1..MAX_MICROS / 2)),
        "[a-z]{0,4}",
    )
        .prop_map(|(speakers, tracks, extent, silent)| {
            let mut b = TranscriptBuilder::new();
            b.speaker(&silent);
            for (start, dur, who, content) in tracks {
                let seg = Segment::from_micros(start, start + dur).unwrap();
                b.add(seg, &speakers[who % speakers.len()], content);
            }
            b.extent(extent.and_then(|(s, d)| Segment::from_micros(s, s + d)));
            b.build()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn overtalk_json_round_trips_every_corpus_exactly(
        recordings in proptest::collection::btree_map("[a-zA-Z0-9 ._\"é-]{0,10}", transcript_strategy(), 0..3)
    ) {
        let corpus: Corpus = recordings.into_iter().collect();
        let mut buf = Vec::new();
        prop_assert!(json::write(&corpus, &mut buf).unwrap().is_empty());
        let back = read_bytes(&buf, Some("x.json"), None, &ReadOptions::default()).unwrap();
        prop_assert_eq!(back.format, Some(Format::Json));
        // Self-overlaps are noted; so is a corpus in which nobody speaks.
        let nobody = back.corpus.iter().all(|(_, t)| t.utterances().next().is_none());
        prop_assert!(back.warnings.iter().all(|w| w.kind == WarningKind::SelfOverlap
            || nobody && w.message == overtalk::format::EMPTY_INPUT), "{:?}", back.warnings);
        prop_assert_eq!(back.corpus, corpus);
    }

    #[test]
    fn whisperx_read_after_write_keeps_segments_and_speakers(
        tracks in proptest::collection::vec(track_strategy(MAX_MICROS / 2), 0..8),
        speakers in proptest::collection::vec("[a-zA-Z_ é\"]{0,6}", 1..4),
    ) {
        let mut b = TranscriptBuilder::new();
        for (start, dur, who, content) in tracks {
            let seg = Segment::from_micros(start, start + dur).unwrap();
            b.add(seg, &speakers[who % speakers.len()], content);
        }
        let corpus = Corpus::single("r", b.build());
        let mut buf = Vec::new();
        whisperx::write(&corpus, &mut buf).unwrap();
        let opts = ReadOptions { recording_id: Some("r".into()), ..Default::default() };
        let back = read_bytes(&buf, None, Some(Format::WhisperX), &opts).unwrap();
        let (a, b) = (corpus.get("r").unwrap(), back.corpus.get("r").unwrap());
        prop_assert_eq!(a.annotation(), b.annotation());
        for (x, y) in a.utterances().zip(b.utterances()) {
            let cx = x.content.cloned().unwrap_or_default();
            let cy = y.content.cloned().unwrap_or_default();
            prop_assert_eq!(cx.display_text(), cy.display_text());
            prop_assert_eq!(cx.words, cy.words);
        }
    }

    #[test]
    fn json_readers_never_panic_on_token_soup(
        text in "[\\[\\]{}\",:0-9a-zNIfinty.\\-eE \n\\\\]{0,300}"
    ) {
        for f in JSON_FORMATS {
            let _ = read_str(&text, f, &ReadOptions::default());
        }
    }

    #[test]
    fn json_readers_never_panic_on_damaged_fixtures(cut in 0usize..6000, flip in 0usize..6000, byte in any::<u8>()) {
        for (sub, name, f) in [
            ("deepgram-json", "deepgram_python_sdk_mock_response.json", Format::Deepgram),
            ("whisperx", "meeting.json", Format::WhisperX),
            ("assemblyai", "diarized.json", Format::AssemblyAi),
            ("seglst", "chime7_style.json", Format::SegLst),
            ("seglst", "ami_EN2002a_head.meeteval.seglst.json", Format::SegLst),
            ("aws-transcribe", "diarized.json", Format::AwsTranscribe),
            ("pyannote-json", "EN2002a_head.json", Format::PyannoteJson),
            ("revai", "transcript.json", Format::RevAi),
            ("speechmatics", "transcript.json", Format::Speechmatics),
            ("google-stt", "diarized.json", Format::GoogleStt),
            ("azure", "transcription.json", Format::Azure),
        ] {
            let mut bytes = std::fs::read(fixture(sub, name)).unwrap();
            let n = bytes.len();
            bytes[flip % n] = byte;
            bytes.truncate(cut % (n + 1));
            match read_bytes(&bytes, None, Some(f), &ReadOptions::default()) {
                Ok(_) => {}
                Err(e) => prop_assert!(
                    e.line().is_some() || matches!(e.kind(), ErrorKind::Limit(_) | ErrorKind::Unsupported(_) | ErrorKind::Invalid(_)),
                    "{}", e
                ),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Hostile input
// ---------------------------------------------------------------------------------------------

const JSON_FORMATS: [Format; 11] = [
    Format::Json,
    Format::WhisperX,
    Format::Deepgram,
    Format::AssemblyAi,
    Format::SegLst,
    Format::AwsTranscribe,
    Format::PyannoteJson,
    Format::RevAi,
    Format::Speechmatics,
    Format::GoogleStt,
    Format::Azure,
];

fn read_as(text: &str, f: Format) -> overtalk::Result<ReadOutput> {
    read_str(text, f, &ReadOptions::default())
}

fn assert_positioned(e: &overtalk::Error, line: usize, column: usize) {
    assert_eq!((e.line(), e.column()), (Some(line), Some(column)), "{e}");
    assert!(e.to_string().starts_with(&format!("line {line}, column {column}: ")), "{e}");
}

#[test]
fn empty_and_blank_input_is_an_error_at_the_end() {
    for f in JSON_FORMATS {
        assert_positioned(&read_as("", f).unwrap_err(), 1, 1);
        assert_positioned(&read_as("\n  ", f).unwrap_err(), 2, 2);
    }
}

#[test]
fn truncated_input_is_an_error_at_the_cut() {
    let text =
        std::fs::read_to_string(fixture("deepgram-json", "deepgram_python_sdk_mock_response.json"))
            .unwrap();
    let cut = &text[..text.find("\"utterances\"").unwrap() + 5];
    let e = read_as(cut, Format::Deepgram).unwrap_err();
    // serde_json points at the last character it read.
    let (line, col) = position(&text, "\"utterances\"");
    assert_positioned(&e, line, col + 4);
    assert!(e.to_string().contains("truncated"), "{e}");
    let whisper = "{\"segments\": [{\"start\": 1.0, \"end\": 2";
    assert_positioned(&read_as(whisper, Format::WhisperX).unwrap_err(), 1, 37);
}

#[test]
fn garbage_and_invalid_utf8_are_errors_with_positions() {
    for f in JSON_FORMATS {
        assert_positioned(&read_as("\u{1}\u{2}PK\u{3}\u{4}", f).unwrap_err(), 1, 1);
        let e = read_bytes(
            b"{\"segments\": [\n  \"\xff\xfe\"]}",
            None,
            Some(f),
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(4)), "{e}");
        let e = read_as("{\"a\": 1} trailing", f).unwrap_err();
        assert_positioned(&e, 1, 10);
    }
}

#[test]
fn nan_is_repaired_in_whisperx_and_an_error_elsewhere() {
    let out = read_as(
        r#"{"segments": [{"start": NaN, "end": Infinity, "text": "x", "speaker": "A"}]}"#,
        Format::WhisperX,
    )
    .unwrap();
    assert!(out.corpus.get("recording").unwrap().annotation().is_empty());
    assert_eq!(
        out.warnings.iter().map(|w| w.kind).collect::<Vec<_>>(),
        vec![WarningKind::Repaired, WarningKind::MissingTime, WarningKind::Note]
    );
    assert_eq!(out.warnings[2].message, overtalk::format::EMPTY_INPUT, "nothing timed is left");
    let e =
        read_as(r#"{"results": {"utterances": [{"start": NaN}]}}"#, Format::Deepgram).unwrap_err();
    assert_positioned(&e, 1, 39);
    let e = read_as(r#"{"utterances": [{"start": NaN}]}"#, Format::AssemblyAi).unwrap_err();
    assert_positioned(&e, 1, 27);
    let e = read_as(r#"{"format": "overtalk", "schema_version": 1, "recordings": [{"id": "r", "tracks": [{"speaker": "a", "start": NaN}]}]}"#, Format::Json)
        .unwrap_err();
    assert_positioned(&e, 1, 109);
}

#[test]
fn negative_times_are_repaired_or_dropped_with_warnings() {
    let cases = [
        (
            Format::WhisperX,
            r#"{"segments": [{"start": -1.5, "end": 2, "speaker": "A"}, {"start": 3, "end": -4, "speaker": "A"}]}"#,
        ),
        (
            Format::Deepgram,
            r#"{"results": {"utterances": [{"start": -1.5, "end": 2, "speaker": 0}, {"start": 3, "end": -4, "speaker": 0}]}}"#,
        ),
        (
            Format::AssemblyAi,
            r#"{"utterances": [{"start": -1500, "end": 2000, "speaker": "A"}, {"start": 3000, "end": -4000, "speaker": "A"}]}"#,
        ),
        (
            Format::Json,
            r#"{"format": "overtalk", "schema_version": 1, "recordings": [{"id": "recording", "tracks": [{"speaker": "A", "start_us": -1500000, "end_us": 2000000}, {"speaker": "A", "start_us": 3000000, "end_us": -4000000}]}]}"#,
        ),
    ];
    for (f, text) in cases {
        let out = read_as(text, f).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let segs: Vec<_> = t.annotation().tracks().iter().map(|t| t.segment).collect();
        assert_eq!(segs, vec![Segment::from_micros(0, 2_000_000).unwrap()], "{f}");
        let kinds: Vec<_> = out.warnings.iter().map(|w| w.kind).collect();
        assert_eq!(kinds, vec![WarningKind::Repaired, WarningKind::NegativeDuration], "{f}");
        assert!(out.warnings.iter().all(|w| w.line == Some(1) && w.column.is_some()), "{f}");
    }
}

#[test]
fn enormous_times_are_errors_with_positions() {
    let cases = [
        (Format::WhisperX, r#"{"segments": [{"start": 1e300, "end": 2}]}"#, 15),
        (Format::Deepgram, r#"{"results": {"utterances": [{"start": 0, "end": 1e17}]}}"#, 29),
        (Format::AssemblyAi, r#"{"utterances": [{"start": 0, "end": 1e20}]}"#, 17),
        (
            Format::Json,
            r#"{"format": "overtalk", "schema_version": 1, "recordings": [{"id": "r", "tracks": [{"speaker": "a", "start_us": 0, "end_us": 9223372036854775807}]}]}"#,
            83,
        ),
    ];
    for (f, text, col) in cases {
        let e = read_as(text, f).unwrap_err();
        assert_positioned(&e, 1, col);
        assert!(e.to_string().contains("out of range"), "{e}");
    }
    // Beyond f64: serde_json's own error, with its position.
    let e = read_as(r#"{"segments": [{"start": 1e400}]}"#, Format::WhisperX).unwrap_err();
    assert_eq!(e.line(), Some(1));
    assert!(e.column().is_some(), "{e}");
}

#[test]
fn deep_nesting_is_a_limit_error_for_every_json_format() {
    for f in JSON_FORMATS {
        for text in [
            "[".repeat(10_000),
            "{\"a\":".repeat(10_000),
            format!("{{\"segments\": {}", "[".repeat(10_000)),
        ] {
            let e = read_as(&text, f).unwrap_err();
            assert!(matches!(e.kind(), ErrorKind::Limit(_)), "{f}: {e}");
            assert!(e.to_string().contains("nesting deeper than 256 at line 1, column"), "{e}");
        }
        // Brackets inside strings do not count.
        let quoted = format!("{{\"segments\": [], \"x\": \"{}\"}}", "[".repeat(10_000));
        if f == Format::WhisperX {
            assert!(read_as(&quoted, f).is_ok());
        }
    }
    // Between serde_json's own limit (128) and ours (256): its error, with its position.
    let text = format!("{{\"segments\": [{{\"speaker\": {}", "[".repeat(200));
    let e = read_as(&text, Format::WhisperX).unwrap_err();
    // Three containers enclose the brackets; the 125th bracket is the 128th level.
    assert_positioned(&e, 1, 27 + 124);
    assert!(e.to_string().contains("recursion limit exceeded"), "{e}");
    let opts =
        ReadOptions { limits: Limits { max_depth: 3, ..Limits::default() }, ..Default::default() };
    let e = read_str(r#"{"segments": [{"words": [{}]}]}"#, Format::WhisperX, &opts).unwrap_err();
    assert_eq!(e.to_string(), "limit exceeded: JSON nesting deeper than 3 at line 1, column 25");
}

#[test]
fn ten_megabyte_strings() {
    let big = "x".repeat(10 << 20);
    // As text it is text.
    let text =
        format!(r#"{{"segments": [{{"start": 0, "end": 1, "speaker": "A", "text": "{big}"}}]}}"#);
    let out = read_as(&text, Format::WhisperX).unwrap();
    assert_eq!(texts(&out, "recording")[0].len(), 10 << 20);
    // Where a number belongs it is an error at its end.
    let text = format!(r#"{{"segments": [{{"start": "{big}"}}]}}"#);
    let e = read_as(&text, Format::WhisperX).unwrap_err();
    assert_positioned(&e, 1, 26 + big.len());
    // Unterminated, it runs to the end of the input.
    for f in JSON_FORMATS {
        let text = format!(r#"{{"utterances": [{{"text": "{big}"#);
        let e = read_as(&text, f).unwrap_err();
        assert_positioned(&e, 1, 26 + big.len());
    }
}

#[test]
fn another_services_json_named_with_from_is_an_error_not_an_empty_transcript() {
    // An ElevenLabs response and a Gladia job, read as the wrong vendor: the defining key is
    // missing, so it is no empty transcript of that vendor.
    let scribe = r#"{"language_code": "eng", "language_probability": 0.9, "text": "hi", "words": [{"text": "hi", "start": 0.1, "end": 0.4, "type": "word", "speaker_id": "speaker_0"}]}"#;
    let gladia = r#"{"id": "x", "status": "done", "kind": "pre-recorded", "request_params": {}, "result": {"transcription": {"utterances": []}}}"#;
    for (f, text, says) in [
        (Format::WhisperX, scribe, "not a WhisperX (or Whisper) transcript"),
        (Format::WhisperCpp, scribe, "not whisper.cpp output"),
        (Format::WhisperX, gladia, "not a WhisperX (or Whisper) transcript"),
        (Format::AssemblyAi, gladia, "status \"done\" is not one AssemblyAI gives"),
    ] {
        let e = read_as(text, f).unwrap_err();
        assert!(e.to_string().contains(says), "{f}: {e}");
    }
    // An empty list of segments is an empty WhisperX transcript (with a note), no error.
    assert!(read_as(r#"{"segments": []}"#, Format::WhisperX).is_ok());
    assert_eq!(overtalk::format::sniff(scribe), Some(Format::ElevenLabs));
    assert_eq!(overtalk::format::sniff(gladia), Some(Format::Gladia));
}
