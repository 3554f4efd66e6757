use std::path::PathBuf;

use crate::util::{shared_data, Dir};

fn example(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/red-carpet")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Both files of the example, each its own conversation, labelled by
/// file because they share a recording id; text mode for the WebVTT, timing-only for the RTTM.
#[test]
fn the_bundled_example_directory_gives_one_result_per_file() {
    let dir = Dir::new();
    let out = dir.run(&["analyze", &example(""), "--format", "json", "--classifier", "rules"]).ok();
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let convs = v["conversations"].as_array().unwrap();
    let labels: Vec<&str> = convs.iter().map(|c| c["recording"].as_str().unwrap()).collect();
    assert_eq!(labels, ["red-carpet (red-carpet.rttm)", "red-carpet (red-carpet.vtt)"]);
    let vtt = &convs[1]["conversation"]["counts"];
    assert_eq!((vtt["interruptions"].as_u64(), vtt["successful"].as_u64()), (Some(4), Some(3)));
    let rttm = &convs[0]["conversation"]["counts"];
    assert_eq!((rttm["interruptions"].as_u64(), rttm["backchannels"].as_u64()), (Some(3), Some(2)));
    assert_eq!(v["corpus"]["recordings"], 2);
    let table = dir.run(&["analyze", &example(""), "--classifier", "rules"]).ok();
    assert!(
        table.contains("Husband      timing") && table.contains("Husband      text"),
        "{table}"
    );
    assert!(table.contains("parameters (preset default)"), "{table}");
    assert!(table.contains("decided by: rules (the structural definitions"), "{table}");
}

#[test]
fn jsonl_gives_one_line_per_conversation_and_csv_the_onsets() {
    let dir = Dir::new();
    let out = dir.run(&["analyze", &example(""), "--format", "jsonl"]).ok();
    assert_eq!(out.lines().count(), 2);
    for line in out.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["schema_version"], 3);
    }
    let csv = dir
        .run(&["analyze", &example("red-carpet.vtt"), "--format", "csv", "--events", "onsets"])
        .ok();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("recording,speaker,time,holder,class,outcome,ferguson,partner,dist_to_completion,holder_remaining"));
    assert_eq!(lines.next(), Some("red-carpet,Interviewer,0,,opening,floor_taken,,,,"));
}

#[test]
fn a_speakers_file_that_renames_nobody_is_warned_about() {
    let dir = Dir::new();
    dir.create("a.rttm", "SPEAKER a 1 0.000 1.000 <NA> <NA> A <NA> <NA>\n");
    dir.create("names.toml", "B = \"Bea\"\n");
    let run = dir.run(&["analyze", "a.rttm", "--speakers", "names.toml"]);
    assert_eq!(run.code(), 0);
    assert!(
        run.stderr().contains(
            "warning: names.toml: renames no speaker of the inputs (it names \"B\"; the inputs have \"A\")"
        ),
        "{}",
        run.stderr()
    );
    dir.create("names.toml", "A = \"Ann\"\nB = \"Bea\"\n");
    let run = dir.run(&["analyze", "a.rttm", "--speakers", "names.toml"]);
    assert!(!run.stderr().contains("renames no speaker"), "{}", run.stderr());
    assert!(run.ok().contains("Ann"));
}

/// Warnings give times in seconds, as every other message does, not raw milliseconds.
#[test]
fn a_schism_warning_is_in_seconds() {
    let dir = Dir::new();
    dir.create(
        "s.rttm",
        "SPEAKER s 1 0.500 6.000 <NA> <NA> A <NA> <NA>\nSPEAKER s 1 1.000 6.000 <NA> <NA> B <NA> <NA>\nSPEAKER s 1 1.250 6.000 <NA> <NA> C <NA> <NA>\n",
    );
    let run = dir.run(&["analyze", "s.rttm"]);
    assert_eq!(run.code(), 0);
    assert!(
        run.stderr().contains(
            "warning: s: 3 speakers active for 5.25 s from 1.25 s: possible parallel conversation (schism)"
        ),
        "{}",
        run.stderr()
    );
}

/// The report links the recording by a relative URL and shows people its file name, decoded.
#[test]
fn the_report_names_the_linked_recording_by_its_file_name() {
    let dir = Dir::new();
    dir.create("rec/café talk.mp3", "not decoded: only linked");
    dir.create("out/.keep", "");
    let rttm = example("red-carpet.rttm");
    dir.run(&["report", &rttm, "--audio", "rec/café talk.mp3", "-o", "out/r.html"]).ok();
    let page = dir.read("out/r.html");
    assert!(page.contains("src=\"../rec/caf%C3%A9%20talk.mp3\""), "the link is a URL");
    assert!(page.contains("Linked recording: café talk.mp3."), "the name is for people");
}

/// In the score page, the confusion colour (error lane and legend) is no speaker's colour.
#[test]
fn the_score_page_confusion_colour_is_no_speaker_colour() {
    let dir = Dir::new();
    let rttm = example("red-carpet.rttm");
    dir.run(&["score", "-r", &rttm, "-s", &rttm, "--format", "html", "-o", "s.html"]).ok();
    let page = dir.read("s.html");
    let after = |key: &str| -> String {
        let at = page.find(key).unwrap_or_else(|| panic!("{key} not in the page")) + key.len();
        page[at..].chars().take_while(|c| *c != ';' && *c != '\n').collect()
    };
    let colours = |s: &str| -> Vec<String> {
        s.split('#').skip(1).map(|c| c.chars().take(6).collect::<String>().to_uppercase()).collect()
    };
    let palette = colours(&after("var PALETTE = "));
    assert_eq!(palette.len(), 8, "{palette:?}");
    let confusion = colours(&after("confusion: "))[0].clone();
    let legend = colours(&after(".k.conf { background: "))[0].clone();
    assert_eq!(confusion, legend, "the legend shows the lane's colour");
    assert!(!palette.contains(&confusion), "{confusion} is a speaker colour of {palette:?}");
}

/// A CHAT file without time bullets: `analyze` counts what the order of the utterances and the
/// transcriber's codes say (`+/.` an interruption, `[<]` an overlap); `report` draws it on an
/// axis of words, and refuses once with exit 1 what needs times.
#[test]
fn an_untimed_chat_file_is_analysed_by_turn_order_and_reported_on_words() {
    let dir = Dir::new();
    let path = dir.create(
        "untimed.cha",
        "@UTF8\n@Begin\n@Participants:\tA Adult, B Adult\n*A:\tso I [>] +/.\n*B:\tno [<] .\n@End\n",
    );
    let p = path.to_str().unwrap();
    let out = dir.run(&["analyze", p, "--format", "json"]).ok();
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["conversations"].as_array().unwrap().len(), 0);
    let u = &v["untimed"][0];
    assert_eq!(
        (u["recording"].as_str(), u["turns"].as_u64(), u["words"].as_u64()),
        (Some("untimed"), Some(2), Some(3))
    );
    let counts: Vec<(&str, Option<u64>)> = u["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["rule"].as_str().unwrap(), r["count"].as_u64()))
        .collect();
    assert_eq!(
        counts,
        [
            ("crosstalk", Some(1)),
            ("cut_off", Some(1)),
            ("no_sentence_end", Some(1)),
            ("timing", None)
        ]
    );
    assert_eq!(u["speakers"]["B"]["cut_off_made"], 1);
    // Its HTML report is a page drawn on an axis of words; `report` and `analyze --format
    // html` write the same page.
    let page = dir.path().join("r.html");
    dir.run(&["report", p, "-o", page.to_str().unwrap()]).ok();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("words spoken, in order (no times)"), "{html}");
    assert_eq!(html.matches("<title>turn ").count(), 2);
    let same = dir.run(&["analyze", p, "--format", "html"]).ok();
    assert_eq!(same.matches("<title>turn ").count(), 2);
    // What needs times is refused (exit 1, said once): a picture with a time axis, a recording
    // to play at the turns, timed and untimed transcripts on one page, CSV onsets.
    let timed = dir.create("timed.rttm", "SPEAKER t 1 0 1 <NA> <NA> A <NA> <NA>\n");
    let timed = timed.to_str().unwrap();
    for argv in [
        vec!["report", p, "-o", "r.png"],
        vec!["report", p, "--audio", "a.mp3", "-o", "r2.html"],
        vec!["report", p, timed, "-o", "r3.html"],
        vec!["analyze", p, timed, "--format", "html"],
        vec!["analyze", p, "--format", "csv"],
    ] {
        let run = dir.run(&argv);
        assert_eq!(run.code(), 1, "{argv:?}: {}", run.stderr());
        let err = run.stderr();
        assert_eq!(err.matches("is a transcript without times").count(), 1, "{argv:?}: {err}");
    }
    let turns = dir.run(&["analyze", p, "--format", "csv", "--events", "turns"]).ok();
    assert_eq!(turns, "recording,turn,speaker,line,words,ends\nuntimed,1,A,4,2,cut_off\nuntimed,2,B,5,1,sentence\n");
    // Converted where only times can go, it would be an empty file: refused (exit 1); JSON
    // keeps it.
    let rttm = dir.path().join("u.rttm");
    let run = dir.run(&["convert", p, "--to", "rttm", "-o", rttm.to_str().unwrap()]);
    assert_eq!(run.code(), 1, "{}", run.stderr());
    assert!(run.stderr().contains("rttm holds timed segments only"), "{}", run.stderr());
    assert!(!rttm.exists());
    let json = dir.run(&["convert", p, "--to", "json", "-o", "-"]).ok();
    assert!(json.contains("\"untimed\""), "{json}");
    // Reading it is fine: `info` and `--strict` accept a valid untimed file.
    let info = dir.run(&["info", "--strict", p]);
    assert_eq!(info.code(), 0, "{}", info.stderr());
    // No time is shown as zero: the times are `-`, the utterances counted.
    let table = info.stdout();
    assert!(table.contains("untimed utterances"), "{table}");
    assert!(
        table.lines().nth(1).unwrap().split_whitespace().collect::<Vec<_>>()
            == ["untimed", "2", "0", "-", "-", "-", "-", "2"],
        "{table}"
    );
    let json = dir.run(&["info", p, "--format", "json"]).ok();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(
        (
            v["recordings"][0]["untimed_utterances"].as_u64(),
            v["recordings"][0]["has_text"].as_bool()
        ),
        (Some(2), Some(true))
    );
}

/// A debate's rush transcript (names in capitals, no times): the table and Markdown show the
/// counts rule by rule and the floor claims; beside a timed transcript, the JSON holds both.
#[test]
fn a_rush_transcript_is_analysed_by_turn_order() {
    let dir = Dir::new();
    let path = dir.create(
        "debate.txt",
        "DEBATE TRANSCRIPT\n\nWALLACE: Mr. President, you have two minutes.\n\nTRUMP: Thank you very much. Chris, so --\n\nBIDEN: Will you shut up, man?\n\n(CROSSTALK)\n\nTRUMP: Listen, who is on your list, Joe\n\nBIDEN: When I'm talking, you're not talking.\n",
    );
    let p = path.to_str().unwrap();
    let table = dir.run(&["analyze", p]).ok();
    assert!(
        table.starts_with(
            "debate: untimed transcript, 3 speakers, 5 turns, 4 speaker changes, 30 words"
        ),
        "{table}"
    );
    assert!(table.contains("  cut_off              1  "), "{table}");
    assert!(table.contains("  no_sentence_end      2  "), "{table}");
    assert!(table.contains("turn 5: BIDEN \"when i'm talking\", after TRUMP"), "{table}");
    let md = dir.run(&["analyze", p, "--format", "md"]).ok();
    assert!(md.contains("## debate (untimed transcript)"), "{md}");
    assert!(md.contains("| `timing` | not measurable |"), "{md}");
    assert!(
        md.contains("| BIDEN | 2 | 40.0% | 11 | 36.7% | 6 | 5.5 | 1 | 1 | 0 | 2 | 0 | 1 | 2 |"),
        "{md}"
    );
    // Who followed whom and the floor claims, as in the table (they were missing here).
    assert!(table.contains("  BIDEN → TRUMP  1 / 2"), "{table}");
    assert!(md.contains("| BIDEN | TRUMP | 1 | 2 |"), "{md}");
    assert!(md.contains("- turn 5: BIDEN \"when i'm talking\", after TRUMP"), "{md}");
    let csv = dir.run(&["analyze", p, "--format", "csv", "--events", "speakers"]).ok();
    assert!(
        csv.contains("\ndebate,BIDEN,2,0.4,11,0.36666666666666664,6,5.5,1,1,0,2,0,1,2\n"),
        "{csv}"
    );
    let both = dir.run(&["analyze", p, &example("red-carpet.rttm"), "--format", "json"]).ok();
    let v: serde_json::Value = serde_json::from_str(&both).unwrap();
    assert_eq!(v["conversations"][0]["recording"], "red-carpet");
    assert_eq!(v["corpus"]["recordings"], 1);
    assert_eq!(v["untimed"][0]["recording"], "debate");
    let lines = dir.run(&["analyze", p, &example("red-carpet.rttm"), "--format", "jsonl"]).ok();
    let kinds: Vec<bool> = lines
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["untimed"] == true)
        .collect();
    assert_eq!(kinds, [false, true]);
    // A rush transcript whose id is also a timed conversation's is labelled with its file.
    let same = dir.create("red-carpet.txt", &std::fs::read_to_string(&path).unwrap());
    let both = dir
        .run(&["analyze", same.to_str().unwrap(), &example("red-carpet.rttm"), "--format", "json"])
        .ok();
    let v: serde_json::Value = serde_json::from_str(&both).unwrap();
    assert_eq!(v["conversations"][0]["recording"], "red-carpet");
    assert_eq!(v["untimed"][0]["recording"], "red-carpet (red-carpet.txt)");
    // CSV rows cannot mix the two kinds.
    let run = dir.run(&[
        "analyze",
        p,
        &example("red-carpet.rttm"),
        "--format",
        "csv",
        "--events",
        "turns",
    ]);
    assert_eq!(run.code(), 1, "{}", run.stderr());
}

#[test]
fn strict_reads_valid_files_with_notes_and_encoding_names_the_text_encoding() {
    let dir = Dir::new();
    // Valid SRT without speaker prefixes: a note, not an error, under --strict.
    let srt = dir.create("plain.srt", "1\n00:00:00,000 --> 00:00:01,000\nhello\n");
    let run = dir.run(&["info", "--strict", srt.to_str().unwrap()]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    // A malformed time is rejected by --strict at its line and column.
    let bad = dir.create("bad.srt", "1\n00:00.00 --> 00:00:01,000\nhello\n");
    let run = dir.run(&["info", "--strict", bad.to_str().unwrap()]);
    assert_eq!(run.code(), 2);
    assert!(run.stderr().contains("bad.srt:2:1:"), "{}", run.stderr());
    // --encoding names the encoding: no guess, no warning.
    let bytes = b"1\n00:00:00,000 --> 00:00:01,000\n[Jos\xe9]: s\xed\n";
    let latin = dir.path().join("latin.srt");
    std::fs::write(&latin, bytes).unwrap();
    let guessed = dir.run(&["info", latin.to_str().unwrap()]);
    assert!(
        guessed.stderr().contains("not UTF-8 (first at line 3, column 5); decoded as"),
        "{}",
        guessed.stderr()
    );
    let named = dir.run(&[
        "convert",
        "--encoding",
        "latin1",
        latin.to_str().unwrap(),
        "--to",
        "rttm",
        "-o",
        "-",
    ]);
    assert_eq!(named.code(), 0, "{}", named.stderr());
    assert!(!named.stderr().contains("warning"), "{}", named.stderr());
    assert!(named.stdout().contains("José"), "{}", named.stdout());
}

#[test]
fn tiers_and_ignore_tiers_choose_the_speakers_of_a_textgrid() {
    let dir = Dir::new();
    let mut grid = String::from(
        "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0\n1\n<exists>\n3\n",
    );
    for name in ["ann", "bob", "phones"] {
        grid.push_str(&format!("\"IntervalTier\"\n\"{name}\"\n0\n1\n1\n0\n1\n\"x\"\n"));
    }
    let path = dir.create("g.TextGrid", &grid);
    let p = path.to_str().unwrap();
    let rttm = |extra: &[&str]| -> String {
        let mut args = vec!["convert", p, "--to", "rttm", "-o", "-"];
        args.extend_from_slice(extra);
        dir.run(&args).ok()
    };
    let speakers = |out: String| -> Vec<String> {
        out.lines().filter_map(|l| l.split_whitespace().nth(7).map(str::to_owned)).collect()
    };
    assert_eq!(speakers(rttm(&[])), ["ann", "bob"]);
    assert_eq!(speakers(rttm(&["--ignore-tiers", "b*"])), ["ann"]);
    assert_eq!(speakers(rttm(&["--tiers", "bob,phones"])), ["bob", "phones"]);
}

/// The calibrated classifier (the default) changes the counts of the example and says so; the
/// rules carry no probabilities.
#[test]
fn calibrated_classifier_is_the_default_and_names_itself() {
    let dir = Dir::new();
    let counts = |args: &[&str]| {
        let out = dir.run(args).ok();
        let all: serde_json::Value = serde_json::from_str(&out).unwrap();
        let v = all["conversations"][0].clone();
        let c = &v["conversation"]["counts"];
        (c["interruptions"].as_u64(), c["successful"].as_u64(), c["backchannels"].as_u64(), v)
    };
    let rttm = example("red-carpet.rttm");
    let (i, s, b, v) = counts(&["analyze", &rttm, "--format", "json"]);
    assert_eq!((i, s, b), (Some(5), Some(5), Some(1)));
    assert_eq!(v["params"]["classifier"], "calibrated");
    assert!(v["talkspurts"][0]["p_backchannel"].is_f64());
    let (i, s, b, v) = counts(&["analyze", &rttm, "--format", "json", "--classifier", "rules"]);
    assert_eq!((i, s, b), (Some(3), Some(3), Some(2)));
    assert!(v["talkspurts"][0]["p_backchannel"].is_null());
    let table = dir.run(&["analyze", &rttm, "--decision-horizon", "500"]).ok();
    assert!(
        table.contains(
            "decided by: calibrated (fitted on human labels, §5.8; decision horizon 500 ms)"
        ),
        "{table}"
    );
    let bad = dir.run(&["analyze", &rttm, "--decision-horizon", "750"]);
    assert_ne!(bad.code(), 0);
    assert!(bad.stderr().contains("decision_horizon = 750 ms"), "{}", bad.stderr());
}

/// Many speakers: who interrupts whom is listed pair by pair (a matrix of thousands of
/// speakers would have millions of cells), in the table, Markdown and the HTML report alike.
#[test]
fn many_speakers_list_who_interrupts_whom_pair_by_pair() {
    let dir = Dir::new();
    // 40 speakers, each starting 1 s into the previous one's 1.5 s.
    let rttm: String = (0..40)
        .map(|i| format!("SPEAKER r 1 {}.000 1.500 <NA> <NA> S{i:02} <NA> <NA>\n", i))
        .collect();
    dir.create("many.rttm", &rttm);
    let table = dir.run(&["analyze", "many.rttm"]).ok();
    assert!(table.contains("who interrupts whom (40 speakers: each pair with"), "{table}");
    assert!(!table.contains("interrupter \\ holder"), "{table}");
    let md = dir.run(&["analyze", "many.rttm", "--format", "md"]).ok();
    assert!(md.contains("| interrupter | holder | interruptions |"), "{md}");
    dir.run(&["report", "many.rttm", "-o", "many.html"]).ok();
    let html = dir.read("many.html");
    assert!(html.contains("<table class=\"pairs\">") && !html.contains("class=\"matrix\""));
    // The same pairs in both.
    let md_rows = md
        .split("| interrupter | holder | interruptions |")
        .nth(1)
        .map_or(0, |rest| rest.lines().skip(2).take_while(|l| l.starts_with("| ")).count());
    let table = html.split("<table class=\"pairs\">").nth(1).unwrap_or_default();
    let html_rows =
        table.split("</table>").next().unwrap_or_default().matches("<tr><th scope=\"row\"").count();
    assert!(md_rows > 0);
    assert_eq!(md_rows, html_rows);
    // A few speakers keep the matrix.
    dir.create(
        "few.rttm",
        "SPEAKER r 1 0 2 <NA> <NA> A <NA> <NA>\nSPEAKER r 1 1 2 <NA> <NA> B <NA> <NA>\n",
    );
    let table = dir.run(&["analyze", "few.rttm"]).ok();
    assert!(table.contains("interrupter \\ holder"), "{table}");
}

/// A meeting excerpt (the shape of MRDA Bmr012 at 37:11): David takes the floor, talks in four
/// talkspurts, and after a second of silence closes with "Yeah.", which the calibrated
/// classifier takes for a backchannel; Maria answers "Yeah." and claims the floor later.
const OWN_BACKCHANNEL_AFTER_A_TURN: &str = "WEBVTT

00:00:00.000 --> 00:00:01.500
<v Maria>So are you going back home after the workshop?

00:00:01.600 --> 00:00:01.800
<v Maria>Okay.

00:00:02.500 --> 00:00:04.400
<v David>We were talking about something like this last week.

00:00:05.000 --> 00:00:05.400
<v David>Or.

00:00:05.900 --> 00:00:07.500
<v David>Yeah, last week with the whole group.

00:00:08.100 --> 00:00:12.500
<v David>About doing some of the noise cancellation or maybe the spectral analysis of the overlaps.

00:00:12.500 --> 00:00:12.650
<v David>So.

00:00:13.800 --> 00:00:14.000
<v David>Yeah.

00:00:14.400 --> 00:00:14.550
<v Maria>Yeah.

00:00:17.000 --> 00:00:17.600
<v Maria>Let's do the next item.
";

/// The longest unbroken stretch is the strict variant of the longest turn (§5.5.6): it never
/// exceeds it, even when the holder's own backchannel follows the turn.
#[test]
fn the_longest_unbroken_stretch_ends_with_the_turn() {
    let dir = Dir::new();
    let file = dir.create("own-backchannel.vtt", OWN_BACKCHANNEL_AFTER_A_TURN);
    let out = dir.run(&["analyze", file.to_str().unwrap(), "--format", "json"]).ok();
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let c = &v["conversations"][0];
    // David's closing "Yeah." (13.80–14.00 s) is a backchannel, outside his turn 2.50–12.65 s.
    let own_bc = c["talkspurts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["speaker"] == "David" && s["start"] == 13_800)
        .unwrap();
    assert_eq!(own_bc["is_backchannel"], true);
    let david = &c["speakers"]["David"];
    assert_eq!(david["longest_turn"], 10_150);
    // 2.50–12.65 s, not 2.50–14.00 s (11 500 ms, longer than the turn).
    assert_eq!(david["longest_unbroken"], 10_150);
    assert_eq!(c["speakers"]["Maria"]["longest_unbroken"], 1_800);
}

/// A talk-over is an onset while the floor holder talks (rule 2), whatever class the
/// classifier gives it. MRDA Bed004 with the default (calibrated) classifier: 58 onsets are
/// classed `interruption` or `terminal_overlap`, but 2 of those interruptions are simultaneous
/// starts the model calls interruptions, with no holder talking into them by rule 2; the
/// headline, the pairs and the summary count the 56 others.
#[test]
fn talk_over_events_are_the_onsets_into_the_holders_talk_whatever_the_class() {
    let test = "talk_over_events_are_the_onsets_into_the_holders_talk_whatever_the_class";
    let Some(shared) = shared_data(test) else { return };
    let file = shared.join("human-labels/mrda/Bed004.nomarks.vtt");
    let dir = Dir::new();
    let out = dir.run(&["analyze", file.to_str().unwrap(), "--format", "json"]).ok();
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let c = &v["conversations"][0];
    let onsets = c["onsets"].as_array().unwrap();
    let into_talk = onsets.iter().filter(|o| !o["holder_remaining"].is_null()).count();
    let by_class = onsets
        .iter()
        .filter(|o| o["class"] == "interruption" || o["class"] == "terminal_overlap")
        .count();
    assert_eq!((into_talk, by_class), (56, 58));
    // Those 2 were simultaneous starts: as interruptions they have no `partner` (§5.7).
    let partnered: Vec<_> = onsets.iter().filter(|o| !o["partner"].is_null()).collect();
    assert_eq!(partnered.len(), 22);
    assert!(partnered.iter().all(|o| o["class"] == "simultaneous_start"));
    // `ferguson` stays S8's label (§5.8 S8′): null on those 2, `smooth` on the smooth
    // switch the model calls a silent interruption.
    let label = |class: &str, into_talk: bool| {
        let mut l: Vec<String> = onsets
            .iter()
            .filter(|o| o["class"] == class && o["holder_remaining"].is_null() != into_talk)
            .map(|o| o["ferguson"].to_string())
            .collect();
        l.sort();
        l
    };
    assert_eq!(label("interruption", false), ["null", "null"]);
    assert_eq!(label("silent_interruption", false), ["\"silent\"", "\"smooth\""]);
    let counts = &c["conversation"]["counts"];
    assert_eq!(counts["talk_over_events"], 56);
    assert_eq!(
        (counts["terminal_overlaps"].as_u64(), counts["interruptions"].as_u64()),
        (Some(39), Some(21))
    );
    let pairs: u64 = c["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["talk_over_events"].as_u64().unwrap())
        .sum();
    assert_eq!(pairs, 56);
    let sentence =
        c["summary"].as_array().unwrap().iter().find(|s| s["key"] == "talk_over").unwrap();
    assert_eq!(
        sentence["text"],
        "Someone started talking while the floor holder was still talking 56 times (talk-over)."
    );
}
