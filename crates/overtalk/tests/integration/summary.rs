//! The plain-language summary against the JSON it cites: every number a sentence shows is the
//! value at the JSON path it names, written by the unit it names, and no sentence states what
//! the mode cannot measure. Over the red-carpet example, every AMI test meeting and random
//! conversations.

use overtalk::analysis::{analyze, Analysis, Classifier, Params};
use overtalk::format::{read_path, ReadOptions};
use overtalk::output::{Conversation, OVERLAP_NOT_MEASURABLE};
use overtalk::summary::{summarise_in, Summarised, Templates};
use overtalk::{Content, Segment, Transcript, TranscriptBuilder};
use proptest::prelude::*;
use serde_json::Value;

/// The conversation object of `analyze --format json`, summary included.
fn conversation_json(id: &str, a: &Analysis) -> Value {
    serde_json::to_value(Summarised::new(&Conversation::new(id, None, a))).unwrap()
}

/// The numbers written in `text` (runs of digits with an optional decimal part).
fn numbers_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let decimal_point =
            c == '.' && !cur.is_empty() && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        if c.is_ascii_digit() || decimal_point {
            cur.push(c);
        } else if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// How a cited value must be written, computed here from the JSON value alone.
fn expected_shown(value: &Value, unit: &str) -> String {
    let x = value.as_f64().unwrap();
    match unit {
        "count" => format!("{}", value.as_u64().unwrap()),
        // Half away from zero: a share within 1e-9 % of a half is the half it stands for.
        "share_percent" => {
            let v = x * 100.0;
            let tie = (v.fract().abs() - 0.5).abs() < 1e-9;
            format!("{} %", if tie { v.trunc() + v.signum() } else { v.round() } as i64)
        }
        "ms_seconds" => tenths(value.as_i64().unwrap(), 100) + " s",
        "ms_minutes" => tenths(value.as_i64().unwrap(), 6000) + " min",
        other => panic!("unknown unit {other}"),
    }
}

/// `ms` in tenths of `tenth_ms`, rounded half away from zero on the integer milliseconds.
fn tenths(ms: i64, tenth_ms: i64) -> String {
    let n = (ms.abs() * 2 + tenth_ms) / (tenth_ms * 2);
    format!("{}{}.{}", if ms < 0 { "-" } else { "" }, n / 10, n % 10)
}

/// Checks every sentence of the conversation object `v` against `v` itself; returns the
/// number of numbers checked.
fn check(v: &Value, label: &str) -> usize {
    let speakers: Vec<String> = v["speakers"].as_object().unwrap().keys().cloned().collect();
    let modes: Vec<&str> =
        v["mode"].as_object().unwrap().values().map(|m| m.as_str().unwrap()).collect();
    let timing_only = modes.iter().all(|m| *m == "timing");
    let warnings = v["diagnostics"]["warnings"].as_array().unwrap();
    let one_track = warnings.iter().any(|w| w == OVERLAP_NOT_MEASURABLE);
    let estimated = v.get("estimated_times").is_some();
    let summary = v["summary"].as_array().unwrap();
    assert!(!summary.is_empty(), "{label}: an empty summary");
    let mut checked = 0;
    for s in summary {
        let text = s["text"].as_str().unwrap();
        let key = s["key"].as_str().unwrap();
        assert!(!text.contains('{'), "{label}: unfilled placeholder in {text:?}");
        let cited = s["numbers"].as_array().unwrap();
        let mut shown_numbers = Vec::new();
        for c in cited {
            let path = c["path"].as_str().unwrap();
            let at =
                v.pointer(path).unwrap_or_else(|| panic!("{label}: {path} is not in the JSON"));
            assert_eq!(at, &c["value"], "{label}: {path} in {text:?}");
            let shown = c["shown"].as_str().unwrap();
            assert_eq!(shown, expected_shown(at, c["unit"].as_str().unwrap()), "{label}: {path}");
            assert!(text.contains(shown), "{label}: {shown:?} not in {text:?}");
            shown_numbers.extend(numbers_in(shown));
            // What the mode cannot measure is never cited.
            if timing_only {
                for word in ["verbal_claims", "wpm", "words"] {
                    assert!(!path.contains(word), "{label}: timing mode cites {path}");
                }
            }
            if one_track || estimated {
                for word in ["overlap", "interruptions", "successful", "pairs", "talk_over"] {
                    assert!(!path.contains(word), "{label}: not measurable but cites {path}");
                }
            }
            checked += 1;
        }
        // The digits of the sentence are exactly those of its cited numbers, in order (speaker
        // names may hold digits of their own).
        let mut bare = text.to_owned();
        let mut names = speakers.clone();
        names.sort_by_key(|n| std::cmp::Reverse(n.len()));
        for n in &names {
            bare = bare.replace(n.as_str(), " ");
        }
        assert_eq!(numbers_in(&bare), shown_numbers, "{label}: numbers of {text:?}");
        if timing_only {
            assert_ne!(key, "verbal_claims", "{label}");
        }
        if one_track || estimated {
            assert!(
                !["overlap", "interruptions", "talk_over", "pair"].contains(&key),
                "{label}: {text}"
            );
        }
    }
    let keys: Vec<&str> = summary.iter().map(|s| s["key"].as_str().unwrap()).collect();
    if !speakers.is_empty() {
        assert_eq!(keys[0], "basis", "{label}: the summary starts with how it was measured");
        let basis = summary[0]["text"].as_str().unwrap();
        let mode = match (timing_only, modes.iter().all(|m| *m == "text")) {
            (true, _) => "from timing alone",
            (_, true) => "from the words and their timing",
            _ => "from the words where there are words",
        };
        assert!(basis.contains(mode), "{label}: {basis}");
        let classifier = match v["params"]["classifier"].as_str().unwrap() {
            "rules" => "the structural rules",
            _ => "the calibrated classifier",
        };
        assert!(basis.contains(classifier), "{label}: {basis}");
    }
    assert_eq!(keys.contains(&"not_measurable_one_track"), one_track && !speakers.is_empty());
    assert_eq!(keys.contains(&"not_measurable_words"), timing_only && !speakers.is_empty());
    checked
}

fn example(ext: &str) -> Transcript {
    let path = format!("{}/../../examples/red-carpet/red-carpet.{ext}", env!("CARGO_MANIFEST_DIR"));
    let read = read_path(std::path::Path::new(&path), None, &ReadOptions::default()).unwrap();
    read.corpus.get("red-carpet").unwrap().clone()
}

fn texts(v: &Value) -> Vec<&str> {
    v["summary"].as_array().unwrap().iter().map(|s| s["text"].as_str().unwrap()).collect()
}

#[test]
fn red_carpet_summary_in_timing_mode() {
    let a = analyze(&example("rttm"), &Params::default()).unwrap();
    let v = conversation_json("red-carpet", &a);
    assert_eq!(check(&v, "red-carpet.rttm"), 17);
    assert_eq!(
        texts(&v),
        [
            "3 speakers over 42.3 s, analysed from timing alone (who spoke when, no words); interruptions and backchannels were classified by the structural rules of the rule book.",
            "Floor claims in words and speaking rates could not be measured: there are no words, only timing.",
            "Wife held the floor 67 % of the time; Husband 19 % and Interviewer 14 %.",
            "The floor changed hands 10 times, in 11 turns.",
            "Two or more people talked at once for 2.6 s (7 % of the speech).",
            "There were 3 interruption attempts; 3 of them took the floor.",
            "Someone started talking while the floor holder was still talking 5 times (talk-over).",
            "Wife interrupted Husband 2 times (2 successful).",
            "Husband interrupted Wife 1 time (1 successful).",
            "There were 2 backchannels (brief responses such as “mm-hm” that do not take the floor).",
        ]
    );
}

#[test]
fn red_carpet_summary_in_text_mode_with_both_classifiers() {
    for classifier in [Classifier::Rules, Classifier::Calibrated] {
        let params = Params { classifier, ..Params::default() };
        let a = analyze(&example("vtt"), &params).unwrap();
        let v = conversation_json("red-carpet", &a);
        check(&v, "red-carpet.vtt");
        let all = texts(&v).join(" ");
        assert!(all.contains("from the words and their timing"), "{all}");
        assert!(all.contains("floor claims in words") || all.contains("floor claim in words"));
        // Talk-over does not depend on which onsets are judged interruptions: 7 starts while
        // the holder talks (§7.2), under both classifiers (neither tags a backchannel here).
        assert!(
            texts(&v).contains(
                &"Someone started talking while the floor holder was still talking 7 times (talk-over)."
            ),
            "{all}"
        );
    }
}

/// `[sentences.talk_over]` is optional: a template file written before it still works, and
/// says nothing about talk-over; the zero form says nobody did.
#[test]
fn the_talk_over_sentence_is_optional_and_has_a_zero_form() {
    let a = analyze(&example("vtt"), &Params::default()).unwrap();
    let en = include_str!("../../src/summary/en.toml");
    let start = en.find("[sentences.talk_over]").unwrap();
    let end = start + en[start..].find("\n\n").unwrap();
    let older = Templates::from_toml(&format!("{}{}", &en[..start], &en[end..])).unwrap();
    let keys = |t: &Templates, a: &Analysis| -> Vec<String> {
        summarise_in(a, t).iter().map(|s| s.key.clone()).collect()
    };
    assert!(keys(&Templates::english(), &a).contains(&"talk_over".to_owned()));
    assert!(!keys(&older, &a).contains(&"talk_over".to_owned()));
    // Two people taking turns without overlap.
    let mut apart = TranscriptBuilder::new();
    apart.add(Segment::from_millis(0, 2_000).unwrap(), "A", None);
    apart.add(Segment::from_millis(3_000, 5_000).unwrap(), "B", None);
    let quiet = analyze(&apart.build(), &Params::default()).unwrap();
    let said: Vec<String> =
        summarise_in(&quiet, &Templates::english()).into_iter().map(|s| s.text).collect();
    assert!(
        said.contains(
            &"Nobody started talking while the floor holder was still talking.".to_owned()
        ),
        "{said:?}"
    );
}

#[test]
fn one_mixed_track_says_overlap_is_not_measurable() {
    let mut a = analyze(&example("rttm"), &Params::default()).unwrap();
    a.mark_one_speaker_per_frame();
    let v = conversation_json("red-carpet", &a);
    check(&v, "one track");
    let all = texts(&v).join(" ");
    assert!(all.contains("Overlap could not be measured"), "{all}");
    assert!(!all.contains("interrupted"), "{all}");
}

#[test]
fn the_floor_sentence_says_when_it_leaves_speakers_out() {
    // Eight speakers, one after another: the sentence names six and says there are others.
    let build_n = |n: i64| {
        let mut b = TranscriptBuilder::new();
        for k in 0..n {
            let seg = Segment::from_millis(k * 10_000, k * 10_000 + 9_000 - k * 500).unwrap();
            b.add(seg, &format!("S{k}"), None);
        }
        b.build()
    };
    for (n, rest) in [(8, true), (6, false)] {
        let a = analyze(&build_n(n), &Params::default()).unwrap();
        let v = conversation_json("many", &a);
        check(&v, "many");
        let all = texts(&v).join(" ");
        let floor = texts(&v).into_iter().find(|t| t.contains("held the floor")).unwrap();
        assert_eq!(floor.matches('%').count(), 6, "{floor}");
        assert_eq!(all.contains("The other speakers held it less"), rest, "{all}");
    }
    // A template file written before that sentence existed still summarises.
    let english = include_str!("../../src/summary/en.toml");
    let start = english.find("[sentences.floor_rest]").unwrap();
    let end = start + english[start..].find("\n\n").unwrap() + 2;
    let old = Templates::from_toml(&format!("{}{}", &english[..start], &english[end..])).unwrap();
    let a = analyze(&build_n(8), &Params::default()).unwrap();
    let sentences = summarise_in(&a, &old);
    assert!(sentences.iter().any(|s| s.text.contains("held the floor")));
    assert!(sentences.iter().all(|s| s.key != "floor_rest"));
}

#[test]
fn empty_conversation_says_so() {
    let a = analyze(&Transcript::default(), &Params::default()).unwrap();
    let v = conversation_json("empty", &a);
    check(&v, "empty");
    assert_eq!(
        texts(&v),
        ["0 speakers were found in this recording, so there is nothing to summarise."]
    );
}

#[test]
fn ami_test_meetings() {
    let Some(data) = overtalk_testkit::shared_data("summary ami_test_meetings") else { return };
    let dir = data.join("corpora/ami/only_words/rttms/test");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut meetings = 0;
    let mut numbers = 0;
    for f in files.iter().filter(|p| p.extension().is_some_and(|e| e == "rttm")) {
        let read = read_path(f, None, &ReadOptions::default()).unwrap();
        for (id, t) in read.corpus.iter() {
            let a = analyze(t, &Params::default()).unwrap();
            numbers += check(&conversation_json(id, &a), id);
            meetings += 1;
        }
    }
    assert_eq!(meetings, 16, "the AMI test split");
    assert!(numbers > 16 * 10, "{numbers}");
}

const WORDS: &[&str] =
    &["yeah", "mm-hmm", "right.", "so", "I", "think", "wait—", "no", "let me finish"];

/// One random segment: speaker, start (ms), duration (ms), words.
type Seg = (usize, i64, i64, Vec<usize>);

fn conversation() -> impl Strategy<Value = (bool, Vec<Seg>)> {
    (2usize..=5, any::<bool>(), any::<bool>()).prop_flat_map(|(n, text, one_track)| {
        let seg = (
            0..n,
            0i64..30_000,
            1i64..4000,
            prop::collection::vec(0..WORDS.len(), if text { 0..5 } else { 0..1 }),
        );
        (Just(one_track), prop::collection::vec(seg, 0..40))
    })
}

fn build(segs: &[Seg]) -> Transcript {
    let mut b = TranscriptBuilder::new();
    for (speaker, start, dur, words) in segs {
        let content = (!words.is_empty())
            .then(|| Content::text(words.iter().map(|&w| WORDS[w]).collect::<Vec<_>>().join(" ")));
        b.add(Segment::from_millis(*start, start + dur).unwrap(), &format!("S{speaker}"), content);
    }
    b.build()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]
    #[test]
    fn every_number_is_the_json_value_it_cites((one_track, segs) in conversation()) {
        let mut a = analyze(&build(&segs), &Params::default()).unwrap();
        if one_track && a.speakers.len() >= 2 {
            a.mark_one_speaker_per_frame();
        }
        check(&conversation_json("random", &a), "random");
    }
}
