use crate::util::{shared_data, Dir};

#[test]
fn info_json_counts_speech_and_overlap() {
    let dir = Dir::new();
    dir.create("clip.rttm", "SPEAKER clip 1 0.000 4.000 <NA> <NA> Wife <NA> <NA>\nSPEAKER clip 1 3.500 1.000 <NA> <NA> Husband <NA> <NA>\n");
    let out = dir.run(&["info", "clip.rttm", "--format", "json"]).ok();
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let r = &v["recordings"][0];
    assert_eq!(r["recording"], "clip");
    assert_eq!(r["speakers"], 2);
    assert_eq!(r["segments"], 2);
    assert_eq!(r["speech_s"], 4.5);
    assert_eq!(r["overlap_s"], 0.5);
    assert_eq!(v["schema_version"], 2);
}

/// The table says segments (what the file holds, not turns), keeps the decimals of short
/// clips, and labels the UEM duration as such beside the file's own duration.
#[test]
fn info_table_has_segments_decimals_and_a_labelled_uem_duration() {
    let dir = Dir::new();
    dir.create(
        "clip.rttm",
        "SPEAKER clip 1 0.250 4.000 <NA> <NA> Wife <NA> <NA>
SPEAKER clip 1 3.500 1.000 <NA> <NA> Husband <NA> <NA>
",
    );
    dir.create("clip.uem", "clip 1 0.000 3.125\n");
    let table = dir.run(&["info", "clip.rttm"]).ok();
    assert_eq!(
        table,
        "recording  speakers  segments    duration      speech     overlap  overlap %\n\
         clip              2         2  0:00:04.50  0:00:04.25  0:00:00.75       17.6\n"
    );
    let table = dir.run(&["info", "clip.rttm", "--uem", "clip.uem"]).ok();
    assert_eq!(
        table,
        "recording  speakers  segments    duration  UEM duration      speech     overlap  overlap %\n\
         clip              2         2  0:00:04.50    0:00:03.13  0:00:04.25  0:00:00.75       17.6\n"
    );
}

/// Wide (CJK) names take two columns each: the columns after them still line up.
#[test]
fn tables_align_wide_characters() {
    let dir = Dir::new();
    dir.create(
        "m.rttm",
        "SPEAKER 会议 1 0.000 1.000 <NA> <NA> 王芳 <NA> <NA>\nSPEAKER 会议 1 0.500 1.000 <NA> <NA> B <NA> <NA>\nSPEAKER ab 1 0.000 1.000 <NA> <NA> B <NA> <NA>\n",
    );
    let info = dir.run(&["info", "m.rttm"]).ok();
    let lines: Vec<&str> = info.lines().collect();
    assert_eq!(
        lines[1],
        "ab                           1         1  0:00:01.00  0:00:01.00  0:00:00.00        0.0"
    );
    assert_eq!(
        lines[2],
        "会议                         2         2  0:00:01.50  0:00:01.50  0:00:00.50       33.3"
    );
    let table = dir.run(&["analyze", "m.rttm"]).ok();
    let rows: Vec<&str> = table.lines().filter(|l| l.contains(" timing ")).collect();
    assert!(rows.iter().any(|l| l.starts_with("B        timing    1.00")), "{table}");
    assert!(rows.iter().any(|l| l.starts_with("王芳     timing    1.00")), "{table}");
}

/// The statistics table of the AMI README, split by split (only_words).
#[test]
fn info_reproduces_the_ami_readme_table() {
    let Some(data) = shared_data("info_reproduces_the_ami_readme_table") else { return };
    let ami = data.join("corpora/ami");
    // split, meetings, UEM hours, speech hours, overlapped share %, turns, spk min/mean/max, distinct
    let expected = [
        ("train", 136, "80.67", "66.04", "13.4", 66_816, (3, "4.0", 5), 152),
        ("dev", 18, "9.67", "7.59", "14.1", 8_664, (4, "4.0", 4), 21),
        ("test", 16, "9.06", "7.29", "14.6", 7_493, (3, "3.9", 4), 16),
    ];
    let dir = Dir::new();
    for (split, meetings, uem_h, speech_h, share, turns, (lo, mean, hi), distinct) in expected {
        let rttms = ami.join("only_words/rttms").join(split);
        let uems = ami.join("uems").join(split);
        let out = dir
            .run(&[
                "info",
                rttms.to_str().unwrap(),
                "--uem",
                uems.to_str().unwrap(),
                "--format",
                "json",
            ])
            .ok();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let t = &v["totals"];
        assert_eq!(t["recordings"], meetings, "{split}");
        assert_eq!(format!("{:.2}", t["uem_hours"].as_f64().unwrap()), uem_h, "{split}");
        assert_eq!(format!("{:.2}", t["speech_hours"].as_f64().unwrap()), speech_h, "{split}");
        assert_eq!(
            format!("{:.1}", t["overlap_share"].as_f64().unwrap() * 100.0),
            share,
            "{split}"
        );
        assert_eq!(t["segments"], turns, "{split}");
        assert_eq!(t["speakers_per_recording_min"], lo, "{split}");
        assert_eq!(
            format!("{:.1}", t["speakers_per_recording_mean"].as_f64().unwrap()),
            mean,
            "{split}"
        );
        assert_eq!(t["speakers_per_recording_max"], hi, "{split}");
        assert_eq!(t["distinct_speakers"], distinct, "{split}");
    }
}

/// The statistics table of the VoxConverse README, split by split.
#[test]
fn info_reproduces_the_voxconverse_readme_table() {
    let Some(data) = shared_data("info_reproduces_the_voxconverse_readme_table") else { return };
    // split, files, hours to last turn end, speech hours, overlapped share %, turns, spk min/mean/max
    let expected = [
        ("dev", 216, "20.11", "18.91", "3.7", 8_268, (1, "4.5", 20)),
        ("test", 232, "43.35", "38.99", "3.1", 19_479, (1, "6.5", 21)),
    ];
    let dir = Dir::new();
    for (split, files, hours, speech_h, share, turns, (lo, mean, hi)) in expected {
        let rttms = data.join("corpora/voxconverse").join(split);
        let out = dir.run(&["info", rttms.to_str().unwrap(), "--format", "json", "-q"]).ok();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let t = &v["totals"];
        assert_eq!(t["recordings"], files, "{split}");
        assert_eq!(format!("{:.2}", t["duration_hours"].as_f64().unwrap()), hours, "{split}");
        assert_eq!(format!("{:.2}", t["speech_hours"].as_f64().unwrap()), speech_h, "{split}");
        assert_eq!(
            format!("{:.1}", t["overlap_share"].as_f64().unwrap() * 100.0),
            share,
            "{split}"
        );
        assert_eq!(t["segments"], turns, "{split}");
        assert_eq!(t["speakers_per_recording_min"], lo, "{split}");
        assert_eq!(
            format!("{:.1}", t["speakers_per_recording_mean"].as_f64().unwrap()),
            mean,
            "{split}"
        );
        assert_eq!(t["speakers_per_recording_max"], hi, "{split}");
    }
}

/// Lines out of time order get one warning per file with their count and the first line, not
/// one per recording (RTTM) or per line: RTTM, STM and CTM alike.
#[test]
fn unsorted_lines_are_warned_about_once_per_file_with_a_count() {
    let dir = Dir::new();
    dir.create(
        "u.rttm",
        "SPEAKER a 1 2.000 1.000 <NA> <NA> A <NA> <NA>\nSPEAKER a 1 0.000 1.000 <NA> <NA> B <NA> <NA>\n\
         SPEAKER b 1 2.000 1.000 <NA> <NA> A <NA> <NA>\nSPEAKER b 1 0.000 1.000 <NA> <NA> B <NA> <NA>\n\
         SPEAKER c 1 0.000 1.000 <NA> <NA> A <NA> <NA>\n",
    );
    let run = dir.run(&["info", "u.rttm"]);
    assert_eq!(run.code(), 0);
    assert_eq!(
        run.stderr(),
        "overtalk: warning: u.rttm: line 2, column 13: 2 lines out of time order (first at line 2), \
         in 2 of 3 recordings (a, b); sorted on reading (unsorted)\n"
    );
    dir.create(
        "one.rttm",
        "SPEAKER a 1 2.000 1.000 <NA> <NA> A <NA> <NA>\nSPEAKER a 1 0.000 1.000 <NA> <NA> B <NA> <NA>\n",
    );
    let run = dir.run(&["info", "one.rttm"]);
    assert_eq!(
        run.stderr(),
        "overtalk: warning: one.rttm: line 2, column 13: 1 line out of time order (line 2); sorted on reading (unsorted)\n"
    );
    // One recording, three lines out of order: one warning, not three.
    dir.create(
        "u.stm",
        "r 1 A 5.0 6.0 e\nr 1 B 1.0 2.0 a\nr 1 A 2.0 3.0 b\nr 1 B 6.0 7.0 f\nr 1 A 3.0 4.0 c\n",
    );
    let run = dir.run(&["info", "u.stm"]);
    assert_eq!(run.code(), 0);
    assert_eq!(
        run.stderr(),
        "overtalk: warning: u.stm: line 2, column 7: 3 lines out of time order (first at line 2); sorted on reading (unsorted)\n"
    );
    // CTM order is checked within each channel, as sclite sorts (file, channel, time): channel
    // B may start before A's last word.
    dir.create(
        "u.ctm",
        "r A 5.0 1.0 e\nr A 1.0 1.0 a\nr B 2.0 1.0 b\nr A 6.0 1.0 f\nr A 4.0 1.0 g\n",
    );
    let run = dir.run(&["info", "u.ctm"]);
    assert_eq!(
        run.stderr(),
        "overtalk: warning: u.ctm: line 2, column 5: 2 lines out of time order (first at line 2); sorted on reading (unsorted)\n"
    );
}

#[test]
fn a_recording_given_twice_is_said_and_tsv_is_for_programs() {
    let dir = Dir::new();
    let rttm = "SPEAKER s 1 0 2 <NA> <NA> A <NA> <NA>\nSPEAKER s 1 1.5 1 <NA> <NA> B <NA> <NA>\n";
    dir.create("a.rttm", rttm);
    dir.create("b.rttm", rttm);
    let run = dir.run(&["info", "a.rttm", "b.rttm", "--format", "tsv"]);
    assert_eq!(run.code(), 0);
    assert!(run.stderr().contains("b.rttm: recording \"s\" is also in a.rttm"), "{}", run.stderr());
    assert_eq!(
        run.stdout(),
        "recording\tspeakers\tsegments\tduration_s\tspeech_s\toverlap_s\toverlap_pct\n\
         s\t2\t2\t2.500\t2.500\t0.500\t20.0\n\
         s\t2\t2\t2.500\t2.500\t0.500\t20.0\n"
    );
}

/// The duration is the recording's when the file states it (AssemblyAI's `audio_duration`),
/// else the end of the last segment, and `info --help` says so.
#[test]
fn info_duration_is_the_stated_recording_length_else_the_last_end() {
    let dir = Dir::new();
    dir.create(
        "call.json",
        r#"{"status": "completed", "audio_duration": 10, "utterances": [
            {"speaker": "A", "start": 0, "end": 4000, "text": "Good morning."},
            {"speaker": "B", "start": 4500, "end": 9000, "text": "Morning."}]}"#,
    );
    dir.create("call.rttm", "SPEAKER call 1 0.000 4.000 <NA> <NA> A <NA> <NA>\nSPEAKER call 1 4.500 4.500 <NA> <NA> B <NA> <NA>\n");
    let duration = |file: &str| -> serde_json::Value {
        let out = dir.run(&["info", file, "--format", "json"]).ok();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["recordings"][0]["duration_s"].clone()
    };
    assert_eq!(duration("call.json"), 10.0);
    assert_eq!(duration("call.rttm"), 9.0);
    let help = dir.run(&["info", "--help"]).ok();
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        help.contains("The duration runs from time 0 to the end of the recording when the file states it (a TextGrid's `xmax`, AssemblyAI's `audio_duration`, Deepgram's `metadata.duration`, …), or to the end of the last segment when that is later or the file states no end"),
        "{help}"
    );
}

/// `info` measures the raw segments; `analyze` joins a speaker's segments less than
/// `--bridge-pause` apart, so a reply in that pause is overlap there and not here, as
/// `info --help` says.
#[test]
fn info_measures_raw_segments_and_analyze_bridged_talkspurts() {
    let dir = Dir::new();
    dir.create(
        "clip.rttm",
        "SPEAKER clip 1 0.000 1.000 <NA> <NA> A <NA> <NA>\n\
         SPEAKER clip 1 1.100 0.900 <NA> <NA> A <NA> <NA>\n\
         SPEAKER clip 1 1.020 0.060 <NA> <NA> B <NA> <NA>\n",
    );
    let info: serde_json::Value =
        serde_json::from_str(&dir.run(&["info", "clip.rttm", "--format", "json"]).ok()).unwrap();
    assert_eq!(
        (&info["recordings"][0]["speech_s"], &info["recordings"][0]["overlap_s"]),
        (&serde_json::json!(1.96), &serde_json::json!(0.0))
    );
    let a: serde_json::Value =
        serde_json::from_str(&dir.run(&["analyze", "clip.rttm", "--format", "json"]).ok()).unwrap();
    let c = &a["conversations"][0]["conversation"];
    assert_eq!((&c["speech"], &c["overlap"]), (&serde_json::json!(2000), &serde_json::json!(60)));
    let help = dir.run(&["info", "--help"]).ok();
    assert!(help.contains("measures speech and overlap on the raw segments"), "{help}");
}
