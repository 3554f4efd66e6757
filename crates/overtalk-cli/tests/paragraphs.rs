//! Paragraph transcripts with start times only (Rev, Otter, YouTube …) through the binary:
//! `analyze` in timing-only mode with the estimated-ends note, marked overlaps from
//! `[crosstalk]` notes and the rule-by-rule interruption table; `convert` flags estimated ends.

use crate::util::Dir;

/// A Rev-shaped transcript (invented words): times after names, a dash, crosstalk notes.
const DEBATE: &str = "Debate night, part one

Moderator Ana Ruiz: (00:00)
Good evening and welcome to the first debate. We begin now.

Senator Bo Lind (00:12):
Thank you, Ana. I want to say that the plan is—

Governor Cy Marsh (00:15):
That is not true. [crosstalk 00:00:16]

Senator Bo Lind (00:18):
Let me finish [crosstalk 00:00:19] please

Moderator Ana Ruiz: (00:21)
Thank you both. We move on [laughter].
";

/// The words of the first line starting with `rule` in `table`.
fn row<'a>(table: &'a str, rule: &str) -> Vec<&'a str> {
    let line = table
        .lines()
        .find(|l| l.split_whitespace().next() == Some(rule))
        .unwrap_or_else(|| panic!("no row {rule} in\n{table}"));
    line.split_whitespace().collect()
}

#[test]
fn analyze_shows_timing_only_estimated_ends_marked_overlaps_and_rules() {
    let dir = Dir::new();
    let path = dir.create("debate.txt", DEBATE);
    let path = path.to_str().unwrap();
    let run = dir.run(&["analyze", path]);
    let table = run.ok();
    let stderr = run.stderr();
    assert!(stderr.contains("5 of 5 ends are estimated"), "{stderr}");
    assert!(stderr.contains("overlap is not measurable from these times"), "{stderr}");
    assert!(table.starts_with("debate: 3 speakers, span 24.00 s, speech 15.50 s, overlap not measurable (ends estimated)\n"), "{table}");
    for speaker in ["Governor Cy Marsh", "Moderator Ana Ruiz", "Senator Bo Lind"] {
        // The table row (the summary above the table has sentences starting with names too).
        let line = table
            .lines()
            .find(|l| {
                l.strip_prefix(speaker).is_some_and(|r| r.trim_start().starts_with("timing "))
            })
            .unwrap();
        assert!(line.contains(" timing "), "{line}");
        assert!(line.contains("not measurable    not measurable"), "{line}");
    }
    assert!(table.contains("ends estimated: 5 of 5 tracks"), "{table}");
    // The summary says what the estimated ends cannot give, and gives no overlap or count.
    assert!(
        table.contains(
            "Overlap and interruptions could not be measured: the ends of the turns are estimated"
        ),
        "{table}"
    );
    assert!(!table.contains("interruption attempts;"), "{table}");
    // The words are there (the rule-by-rule counts read them); what is missing is their times.
    assert!(table.contains("3 speakers over 24.0 s, analysed from start times alone (each turn's end is estimated; the words serve only the rule-by-rule interruption counts); backchannels were classified by"), "{table}");
    assert!(table.contains("Floor claims in words and speaking rates could not be measured: the words have no times of their own, only each paragraph's start."), "{table}");
    assert!(!table.contains("no words"), "{table}");
    assert!(
        table.contains("marked overlaps ([crosstalk] notes, the transcriber's judgement): 2"),
        "{table}"
    );
    assert!(table.contains("marked overlap at 16.00 s (note) in Governor Cy Marsh's paragraph: [crosstalk 00:00:16]"), "{table}");
    assert!(
        table.contains("marked overlap at 19.00 s (note) in Senator Bo Lind's paragraph"),
        "{table}"
    );
    assert!(!table.contains("who interrupts whom"), "{table}");
    assert_eq!(row(&table, "crosstalk"), ["crosstalk", "2", "-"]);
    assert_eq!(row(&table, "cut_off"), ["cut_off", "1", "Governor", "Cy", "Marsh", "1"]);
    assert_eq!(
        row(&table, "no_sentence_end"),
        ["no_sentence_end", "2", "Governor", "Cy", "Marsh", "1,", "Moderator", "Ana", "Ruiz", "1"]
    );
    assert_eq!(row(&table, "timing"), ["timing", "not", "measurable", "-"]);

    let json = dir.run(&["analyze", path, "--format", "json"]).ok();
    let all: serde_json::Value = serde_json::from_str(&json).unwrap();
    let v = &all["conversations"][0];
    for (_, mode) in v["mode"].as_object().unwrap() {
        assert_eq!(mode, "timing");
    }
    let e = &v["estimated_times"];
    assert_eq!((e["tracks"].as_u64(), e["estimated_ends"].as_u64()), (Some(5), Some(5)));
    let counts: Vec<_> =
        e["rules"].as_array().unwrap().iter().map(|r| r["count"].clone()).collect();
    assert_eq!(
        counts,
        [serde_json::json!(2), serde_json::json!(1), serde_json::json!(2), serde_json::Value::Null]
    );
    let times: Vec<_> = e["marked_overlaps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["time"].as_i64().unwrap())
        .collect();
    assert_eq!(times, [16_000, 19_000]);
    assert_eq!(v["conversation"]["overlap_ratio"], serde_json::Value::Null);
    let notes = v["diagnostics"]["warnings"].as_array().unwrap();
    assert!(
        notes.iter().any(|w| w.as_str().unwrap().starts_with("5 of 5 ends are estimated")),
        "{notes:?}"
    );

    let md = dir.run(&["analyze", path, "--format", "md"]).ok();
    assert!(md.contains("| crosstalk | 2 | - |"), "{md}");
    assert!(md.contains("| timing | not measurable | - |"), "{md}");

    // --timing-only keeps the estimated ends and the notes.
    let t = dir.run(&["analyze", path, "--timing-only", "--format", "json"]).ok();
    let t: serde_json::Value = serde_json::from_str(&t).unwrap();
    assert_eq!(t["conversations"][0]["estimated_times"], v["estimated_times"]);
}

#[test]
fn convert_flags_estimated_ends_and_from_names_the_dialect() {
    let dir = Dir::new();
    let path = dir.create("debate.md", DEBATE);
    let path = path.to_str().unwrap();
    dir.run(&["convert", path, "-o", "debate.overtalk.json"]).ok();
    let json = dir.read("debate.overtalk.json");
    assert_eq!(json.matches("\"end_estimated\": true").count(), 5, "{json}");
    assert_eq!(json.matches("\"kind\": \"crosstalk\"").count(), 2, "{json}");
    let rttm = dir.run(&["convert", path, "--from", "rev", "--to", "rttm", "-o", "-"]).ok();
    assert_eq!(rttm.lines().count(), 5, "{rttm}");
    assert!(
        rttm.starts_with("SPEAKER debate 1 0.000 5.500 <NA> <NA> Moderator_Ana_Ruiz"),
        "{rttm}"
    );
    // The JSON keeps what the analysis needs: the same rule-by-rule counts.
    let a = dir.run(&["analyze", "debate.overtalk.json", "--format", "json"]).ok();
    let v: serde_json::Value = serde_json::from_str(&a).unwrap();
    assert_eq!(v["conversations"][0]["estimated_times"]["rules"][0]["count"], 2);
    // `info` gives no overlap where the ends are estimated: `-` and null, never 0.
    let info = dir.run(&["info", path]).ok();
    let line = info.lines().nth(1).unwrap();
    assert!(line.ends_with("-          -"), "{info}");
    assert!(info.contains("overlap -: not measurable where ends are estimated"), "{info}");
    let j: serde_json::Value =
        serde_json::from_str(&dir.run(&["info", path, "--format", "json"]).ok()).unwrap();
    let r = &j["recordings"][0];
    assert!(r["overlap_s"].is_null() && r["overlap_share"].is_null(), "{r}");
    assert_eq!(r["estimated_ends"], 5);
    assert!(j["totals"]["overlap_share"].is_null());
    // A .docx that is not a zip archive: a clear error naming the file.
    let fake = dir.create("fake.docx", DEBATE);
    let run = dir.run(&["analyze", fake.to_str().unwrap()]);
    assert_ne!(run.code(), 0);
    assert!(
        run.stderr().contains("fake.docx") && run.stderr().contains("not a .docx"),
        "{}",
        run.stderr()
    );
}

/// A US Supreme Court oral argument as the reporting company prints it (invented words): line
/// numbers 1 to 25, page numbers and the company's footer outside them, a heading in capitals,
/// interruptions written `--`, `(Laughter.)` and a `(Whereupon, …)` note on lines of their own;
/// with a BOM and CRLF line ends.
const ARGUMENT: &str = "\u{feff}                                                        3\r\n\r\n 1               P R O C E E D I N G S\r\n 2                                     (10:04 a.m.)\r\n 3             CHIEF JUSTICE ROBERTS:  We'll hear\r\n 4   argument first this morning.  Mr. Lee.\r\n 5              ORAL ARGUMENT OF ANA LEE\r\n 6             MS. LEE:  Mr. Chief Justice, this case is\r\n 7   about --\r\n 8             JUSTICE KAGAN:  Can I ask --\r\n 9             MS. LEE:  Of course.\r\n10             JUSTICE KAGAN:  -- what happens next?\r\n11             (Laughter.)\r\n12             MS. LEE:  Nothing\r\n13   happens.\r\n14             CHIEF JUSTICE ROBERTS:  Thank you.\r\n15             (Whereupon, at 11:58 a.m., the case was\r\n16   submitted.)\r\n\r\n                 Alderson Reporting Company\r\n";

#[test]
fn a_line_numbered_argument_reads_turn_by_turn() {
    let dir = Dir::new();
    let path = dir.create("argument.txt", ARGUMENT);
    let run = dir.run(&["analyze", "--format", "json", path.to_str().unwrap()]);
    let out: serde_json::Value = serde_json::from_str(&run.ok()).unwrap();
    let stderr = run.stderr();
    assert!(stderr.contains("argument.txt: line 1, column 1: 2 line(s) outside the transcript's numbered lines skipped"), "{stderr}");
    assert!(
        stderr.contains("line 7, column 1: 1 heading(s) in capitals between the turns skipped"),
        "{stderr}"
    );
    let u = &out["untimed"][0];
    let turns: Vec<(String, u64, String)> = u["turn_list"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let s = |k: &str| t[k].as_str().unwrap().to_owned();
            (s("speaker"), t["words"].as_u64().unwrap(), s("ends"))
        })
        .collect();
    let expected = [
        ("CHIEF JUSTICE ROBERTS", 8, "sentence"),
        ("MS. LEE", 7, "cut_off"),
        ("JUSTICE KAGAN", 3, "cut_off"),
        ("MS. LEE", 2, "sentence"),
        ("JUSTICE KAGAN", 3, "sentence"),
        ("MS. LEE", 2, "sentence"),
        ("CHIEF JUSTICE ROBERTS", 2, "sentence"),
    ];
    let expected: Vec<(String, u64, String)> =
        expected.iter().map(|(s, w, e)| (s.to_string(), *w, e.to_string())).collect();
    assert_eq!(turns, expected);
    assert_eq!(u["words"], 27);
    let rules: Vec<(String, serde_json::Value)> = u["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["rule"].as_str().unwrap().to_owned(), r["count"].clone()))
        .collect();
    assert_eq!(rules[1], ("cut_off".to_owned(), serde_json::json!(2)));
}
