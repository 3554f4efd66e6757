//! `score`, `validate`, `report` and `schema` driven end to end: text inputs written to a
//! scratch folder, the binary run on them, exact values read back from what it prints.
//!
//! The conversation of every test here (seconds):
//!
//! ```text
//!            0         5         10        15
//! ref  A     [==========)                      0–10
//!      B             [======)                  8–14
//! hyp  x     [=========)                       0–9
//!      y              [=====)                  9–14
//! UEM        [============)                    0–12
//! ```
//!
//! Mapping A=x, B=y. Without a UEM the reference has 16 s of speech; 8–9 misses B and 9–10
//! misses A (y is B's), so miss = 2 s and DER = 2 / 16 = 12.50 %. Within the UEM the reference
//! has 14 s and the same 2 s are missed: 14.29 %. JER: A↔x 1/10, B↔y 1/6, mean 13.33 %.

use serde_json::Value;

use crate::util::Dir;

const REFERENCE: &str = "SPEAKER rec 1 0.00 10.00 <NA> <NA> A <NA> <NA>\n\
                         SPEAKER rec 1 8.00 6.00 <NA> <NA> B <NA> <NA>\n";
const HYPOTHESIS: &str = "SPEAKER rec 1 0.00 9.00 <NA> <NA> x <NA> <NA>\n\
                          SPEAKER rec 1 9.00 5.00 <NA> <NA> y <NA> <NA>\n";
/// The hypothesis with x overlapping itself over 1–3 s and a recording the reference lacks.
const HYPOTHESIS_EXTRA: &str = "SPEAKER rec 1 0.00 9.00 <NA> <NA> x <NA> <NA>\n\
                                SPEAKER rec 1 9.00 5.00 <NA> <NA> y <NA> <NA>\n\
                                SPEAKER rec 1 1.00 2.00 <NA> <NA> x <NA> <NA>\n\
                                SPEAKER ghost 1 0.00 2.00 <NA> <NA> x <NA> <NA>\n";
const UEM: &str = "rec 1 0.00 12.00\n";

fn inputs() -> Dir {
    let dir = Dir::new();
    dir.create("ref.rttm", REFERENCE);
    dir.create("hyp.rttm", HYPOTHESIS);
    dir.create("extra.rttm", HYPOTHESIS_EXTRA);
    dir.create("rec.uem", UEM);
    dir
}

/// The rows of a CSV output, first column → the columns named `wanted`.
fn csv_rows(text: &str, wanted: &[&str]) -> Vec<(String, Vec<String>)> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at: Vec<usize> =
        wanted.iter().map(|w| header.iter().position(|h| h == w).unwrap()).collect();
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_string(), at.iter().map(|&i| f[i].to_string()).collect())
        })
        .collect()
}

#[test]
fn score_table_gives_der_jer_and_mapping() {
    let dir = inputs();
    let out = dir.run(&["score", "-r", "ref.rttm", "-s", "hyp.rttm"]).ok();
    let rows: Vec<&str> = out.lines().take(4).collect();
    assert_eq!(
        rows,
        [
            "recording  status              scored_s  correct_s  miss_s   fa_s  confusion_s  der_pct  jer_pct  mapping",
            "rec        scored                16.000     14.000   2.000  0.000        0.000    12.50    13.33  A=x B=y",
            "TOTAL      1 recordings          16.000     14.000   2.000  0.000        0.000    12.50    13.33",
            "MACRO      mean of recordings                                                     12.50",
        ]
    );
    assert!(out.contains("  preset: overtalk\n"), "{out}");
}

/// One recording on each side under two ids (a reference written as `rec`, a hypothesis that
/// `detect` named after its file): scored apart, all miss and all false alarm (16 s + 14 s over
/// 16 s: 187.50 %), as the rule says; a note names both ids and the ways to give them one.
/// Two recordings on a side that the other lacks get no such note.
#[test]
fn score_names_the_two_ids_when_one_recording_on_each_side_differs() {
    let dir = inputs();
    dir.create("call.rttm", &HYPOTHESIS.replace(" rec ", " call "));
    let run = dir.run(&["score", "-r", "ref.rttm", "-s", "call.rttm"]);
    let total =
        "TOTAL      2 recordings          16.000      0.000  16.000  14.000        0.000   \
                 187.50   100.00";
    assert_eq!(run.ok().lines().nth(3), Some(total));
    assert_eq!(
        run.stderr(),
        "overtalk: warning: recording \"call\" is only in the hypothesis: all of its speech is \
         false alarm (md-eval and dscore ignore it)\n\
         overtalk: warning: recording \"rec\" is only in the reference: all of its speech is \
         missed\n\
         overtalk: note: the reference holds one recording, \"rec\", and the hypothesis one, \
         \"call\": recordings are paired by id, so they were scored apart; if they are the same \
         recording, give them one id (`overtalk detect --recording-id rec` names a detected \
         hypothesis so; `score -s AUDIO` detects it with the reference's id)\n"
    );
    // An id that is not one shell word is quoted in the command.
    dir.create("quoted.rttm", &REFERENCE.replace(" rec ", " it's "));
    let run = dir.run(&["score", "-r", "quoted.rttm", "-s", "call.rttm"]);
    assert!(
        run.stderr().contains(r"(`overtalk detect --recording-id 'it'\''s'` names"),
        "{}",
        run.stderr()
    );
    let run = dir.run(&["score", "-r", "ref.rttm", "-s", "extra.rttm"]);
    assert!(!run.stderr().contains("note:"), "{}", run.stderr());
    assert!(dir.run(&["score", "-q", "-r", "ref.rttm", "-s", "call.rttm"]).stderr().is_empty());
}

#[test]
fn score_with_a_uem_scores_inside_it_only() {
    let dir = inputs();
    let out = dir
        .run(&["score", "-r", "ref.rttm", "-s", "hyp.rttm", "-u", "rec.uem", "--format", "json"]);
    let json: Value = serde_json::from_str(&out.ok()).unwrap();
    let total = &json["total"];
    assert_eq!(total["scored_s"], 14.0);
    assert_eq!(total["miss_s"], 2.0);
    assert_eq!(total["false_alarm_s"], 0.0);
    assert_eq!(total["confusion_s"], 0.0);
    assert_eq!(total["der"], 2.0 / 14.0);
    // Inside the UEM: A↔x 1 s of 10 s, B↔y (8–12 against 9–12) 1 s of 4 s.
    assert_eq!(total["jer"], (0.1 + 0.25) / 2.0);
    let file = &json["files"][0];
    assert_eq!(file["recording"], "rec");
    assert_eq!(file["mapping"], serde_json::json!([["A", "x"], ["B", "y"]]));
    assert_eq!(json["options"]["preset"], "overtalk");
}

#[test]
fn score_collar_and_skip_overlap_remove_every_error() {
    let dir = inputs();
    let out = dir
        .run(&[
            "score",
            "-r",
            "ref.rttm",
            "-s",
            "hyp.rttm",
            "--collar",
            "0.5",
            "--skip-overlap",
            "--format",
            "csv",
        ])
        .ok();
    // The overlap 8–10 is not scored; collars of 0.5 s around 0, 8, 10 and 14 leave A 0.5–7.5
    // and B 10.5–13.5: 10 s, all correct.
    let rows =
        csv_rows(&out, &["scored_s", "miss_s", "der_pct", "collar_total_width_s", "regions"]);
    assert_eq!(
        rows[0],
        (
            "rec".into(),
            vec![
                "10.000".into(),
                "0.000".into(),
                "0.00".into(),
                "1.000".into(),
                "non-overlap".into()
            ]
        )
    );
}

/// The presets differ on a speaker overlapping itself and on a recording only the hypothesis
/// has: overtalk and pyannote count the ghost recording's 2 s as false alarm, md-eval, dscore
/// and spyder skip it; pyannote alone counts x's doubled 1–3 s twice (2 s more false alarm).
#[test]
fn score_presets_disagree_where_their_tools_do() {
    let dir = inputs();
    let total = |preset: &str| {
        let args = ["score", "-r", "ref.rttm", "-s", "extra.rttm", "--preset", preset];
        let run = dir.run(&[&args[..], &["--format", "csv"]].concat());
        let out = run.stdout();
        let rows = csv_rows(&out, &["status", "fa_s", "der_pct", "preset"]);
        let ghost = rows.iter().find(|r| r.0 == "ghost").unwrap().1[0].clone();
        let total = rows.iter().find(|r| r.0 == "TOTAL").unwrap().1.clone();
        assert_eq!(total[3], preset);
        // A recording left unscored makes the result partial: exit status 1.
        assert_eq!(run.code(), i32::from(ghost == "skipped"), "{}", run.stderr());
        (ghost, total[1].clone(), total[2].clone())
    };
    assert_eq!(total("overtalk"), ("no reference".into(), "2.000".into(), "25.00".into()));
    assert_eq!(total("pyannote"), ("no reference".into(), "4.000".into(), "37.50".into()));
    for preset in ["md-eval", "dscore", "spyder"] {
        assert_eq!(total(preset), ("skipped".into(), "0.000".into(), "12.50".into()), "{preset}");
    }
}

#[test]
fn score_max_der_fails_above_the_threshold_only() {
    let dir = inputs();
    let above = dir.run(&["score", "-r", "ref.rttm", "-s", "hyp.rttm", "--max-der", "10"]);
    assert_eq!(above.code(), 1);
    assert!(above.stderr().contains("DER 12.50 % is above --max-der 10 %"), "{}", above.stderr());
    // The table is still printed: the threshold is a verdict, not a different output.
    assert!(above.stdout().contains("TOTAL      1 recordings          16.000"));
    let below = dir.run(&["score", "-r", "ref.rttm", "-s", "hyp.rttm", "--max-der", "12.6"]);
    assert_eq!(below.code(), 0, "{}", below.stderr());
}

#[test]
fn score_max_der_fails_when_der_is_undefined() {
    let dir = inputs();
    dir.create("empty-ref.rttm", "SPEAKER rec 1 0.00 1.00 <NA> <NA> A <NA> <NA>\n");
    // Inside a UEM that holds no reference speech nothing is scored.
    dir.create("late.uem", "rec 1 5.00 6.00\n");
    let run = dir.run(&[
        "score",
        "-r",
        "empty-ref.rttm",
        "-s",
        "hyp.rttm",
        "-u",
        "late.uem",
        "--max-der",
        "50",
    ]);
    assert_eq!(run.code(), 1, "{}", run.stdout());
    assert!(run.stderr().contains("DER is undefined"), "{}", run.stderr());
}

#[test]
fn validate_gives_each_consumers_verdict() {
    let dir = inputs();
    let out = dir.run(&["validate", "ref.rttm", "extra.rttm"]).ok();
    assert!(out.starts_with("ref.rttm: 2 turns\n  md-eval: accepts\n  dscore: accepts\n  pyannote.metrics: accepts\nextra.rttm: 4 turns\n"), "{out}");
    assert!(out.contains("  pyannote.metrics: accepts with changes\n"), "{out}");
    assert!(
        out.contains(
            "speaker \"x\" overlaps themselves (lines 1 and 3): the overlapped time counts twice"
        ),
        "{out}"
    );

    dir.create("bad.rttm", "SPEAKER rec 1 0.00 abc <NA> <NA> A <NA> <NA>\n");
    let bad = dir.run(&["validate", "--format", "json", "bad.rttm"]);
    assert_eq!(bad.code(), 1);
    let json: Value = serde_json::from_str(&bad.stdout()).unwrap();
    let verdicts = &json["files"][0]["verdicts"];
    assert_eq!(verdicts["md-eval"], "accepts with changes");
    assert_eq!(verdicts["dscore"], "rejects");
    assert_eq!(verdicts["pyannote.metrics"], "rejects");
    assert!(
        bad.stderr().contains("at least one consumer would reject an input"),
        "{}",
        bad.stderr()
    );

    // A Latin-1 STM is no RTTM: nothing to check, not a UTF-8 error; a Latin-1 RTTM is one.
    let stm = b"e 1 Micka\xebl 84.582 85.476 <o,f0,male> bonsoir .\n";
    std::fs::write(dir.path().join("latin1.stm"), stm).unwrap();
    let out = dir.run(&["validate", "latin1.stm"]).ok();
    assert_eq!(out, "latin1.stm: stm, not RTTM or UEM; nothing to check\n");
    // A UEM is checked as one: md-eval refuses overlapping regions, the others merge them.
    std::fs::write(dir.path().join("all.uem"), "rec 1 0 10\nrec 1 5 20\n").unwrap();
    let run = dir.run(&["validate", "all.uem"]);
    assert_eq!(run.code(), 1, "{}", run.stderr());
    assert_eq!(
        run.stdout(),
        "all.uem: UEM, 2 regions\n  md-eval: rejects\n    line 2: rejects: rec, channel 1: the region of line 2 overlaps the region of line 1: \"UEM file has overlapping evaluation segments\"\n  dscore: accepts\n    line 2: note: rec, channel 1: the region of line 2 overlaps the region of line 1: merged\n  pyannote.metrics: accepts\n    line 2: note: rec, channel 1: the region of line 2 overlaps the region of line 1: the support of the timeline merges them\n"
    );
    std::fs::write(
        dir.path().join("latin1.rttm"),
        b"SPEAKER e 1 0.0 1.0 <NA> <NA> Micka\xebl <NA> <NA>\n",
    )
    .unwrap();
    let run = dir.run(&["validate", "latin1.rttm"]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(run.stderr().contains("latin1.rttm"), "{}", run.stderr());
}

#[test]
fn report_embeds_the_analysis_and_never_overwrites_its_input() {
    let dir = inputs();
    dir.run(&["report", "ref.rttm", "-o", "report.html"]).ok();
    let html = dir.read("report.html");
    assert!(html.contains("<title>overtalk report: rec"), "title");
    let start = html.find(r#"<script type="application/json" id="overtalk-data">"#).unwrap();
    let body = &html[start..];
    let body = &body[body.find('>').unwrap() + 1..body.find("</script>").unwrap()];
    let data: Value = serde_json::from_str(body).unwrap();
    let conversation = &data["conversations"][0]["result"]["conversation"];
    assert_eq!(conversation["counts"]["talkspurts"], 2);
    assert_eq!(conversation["counts"]["interruptions"], 1);
    assert_eq!(conversation["he_durations"]["acoustic"]["overlap_between"]["total"], 2000);
    assert_eq!(conversation["balance"]["max_share"], 0.625);

    let refused = dir.run(&["report", "ref.rttm", "-o", "ref.rttm"]);
    assert_eq!(refused.code(), 2);
    assert!(
        refused.stderr().contains("refusing to overwrite an input file"),
        "{}",
        refused.stderr()
    );
    assert_eq!(dir.read("ref.rttm"), REFERENCE);
}

#[test]
fn no_output_replaces_a_file_an_option_names() {
    // Inputs named through options are inputs too: `--uem`, `--config`, `--audio`, `--speakers`.
    let dir = inputs();
    dir.create("cfg.toml", "bridge_pause = 200\n");
    dir.create("names.toml", "[speakers]\nx = \"Ana\"\n");
    dir.create("a.mp3", "not really audio");
    let runs: [&[&str]; 4] = [
        &["score", "-r", "ref.rttm", "-s", "hyp.rttm", "--uem", "rec.uem", "-o", "rec.uem"],
        &["analyze", "ref.rttm", "--config", "cfg.toml", "--format", "json", "-o", "cfg.toml"],
        &["report", "ref.rttm", "--audio", "a.mp3", "-o", "a.mp3"],
        &["convert", "ref.rttm", "--speakers", "names.toml", "--to", "rttm", "-o", "names.toml"],
    ];
    let before: Vec<String> =
        ["rec.uem", "cfg.toml", "a.mp3", "names.toml"].iter().map(|f| dir.read(f)).collect();
    for (args, kept) in runs.iter().zip(&before) {
        let run = dir.run(args);
        assert_eq!(run.code(), 2, "{args:?}: {}", run.stderr());
        assert!(run.stderr().contains("refusing to overwrite an input file"), "{}", run.stderr());
        assert_eq!(&dir.read(args[args.len() - 1]), kept, "{args:?}");
    }
}

#[test]
fn errors_name_the_target_not_a_temporary_file_and_say_it_once() {
    let dir = inputs();
    std::fs::create_dir(dir.path().join("out")).unwrap();
    let run = dir.run(&["schema", "-o", "missing/s.json"]);
    assert_eq!(run.code(), 2);
    assert!(
        run.stderr().contains("missing/s.json: the directory missing does not exist"),
        "{}",
        run.stderr()
    );
    let run = dir.run(&["schema", "-o", "out"]);
    assert!(run.stderr().contains("out: is a directory"), "{}", run.stderr());
    // A cause its context already quotes is not repeated.
    let run = dir.run(&["detect", "missing.wav"]);
    assert_eq!(run.code(), 2);
    let err = run.stderr();
    assert_eq!(err, "overtalk: error: detecting speech: missing.wav: no such file or directory\n");
    // A report's player needs a recording: an empty file or a directory is refused.
    dir.create("empty.wav", "");
    for (audio, says) in [("empty.wav", "an empty file"), ("out", "not a file")] {
        let run = dir.run(&["report", "ref.rttm", "--audio", audio, "-o", "r.html"]);
        assert_eq!(run.code(), 2, "{audio}");
        assert!(run.stderr().contains(says), "{}", run.stderr());
    }
}

/// Checks `value` against the subset of JSON Schema that `overtalk schema` uses (`$ref`, `type`,
/// `properties`, `required`, `additionalProperties: false`, `items`, `enum`, `const`), returning
/// the first violation as a JSON pointer and a reason.
fn violation(schema: &Value, node: &Value, value: &Value, at: &str) -> Option<String> {
    if let Some(reference) = node["$ref"].as_str() {
        let name = reference.strip_prefix("#/$defs/").unwrap();
        return violation(schema, &schema["$defs"][name], value, at);
    }
    let type_of = |v: &Value| match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let allowed: Vec<&str> = match &node["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    let actual = type_of(value);
    let integer_as_number = actual == "integer" && allowed.contains(&"number");
    let type_ok = allowed.is_empty() || allowed.contains(&actual) || integer_as_number;
    if !type_ok {
        return Some(format!("{at}: {actual} where the schema says {allowed:?}"));
    }
    if let Some(options) = node["enum"].as_array() {
        if !options.contains(value) {
            return Some(format!("{at}: {value} not in {options:?}"));
        }
    }
    if !node["const"].is_null() && node["const"] != *value {
        return Some(format!("{at}: {value} is not {}", node["const"]));
    }
    if let Value::Object(fields) = value {
        for required in node["required"].as_array().into_iter().flatten() {
            if !fields.contains_key(required.as_str().unwrap()) {
                return Some(format!("{at}: missing {required}"));
            }
        }
        for (key, field) in fields {
            match node["properties"].get(key) {
                Some(sub) => {
                    if let Some(v) = violation(schema, sub, field, &format!("{at}/{key}")) {
                        return Some(v);
                    }
                }
                None if node["additionalProperties"] == false => {
                    return Some(format!("{at}/{key}: not in the schema"));
                }
                None => {}
            }
        }
    }
    if let (Value::Array(items), Some(item)) = (value, node.get("items")) {
        for (i, v) in items.iter().enumerate() {
            if let Some(v) = violation(schema, item, v, &format!("{at}/{i}")) {
                return Some(v);
            }
        }
    }
    None
}

#[test]
fn schema_describes_what_analyze_writes() {
    let dir = inputs();
    let schema: Value = serde_json::from_str(&dir.run(&["schema"]).ok()).unwrap();
    assert_eq!(schema["$schema"], "https://json-schema.org/draft/2020-12/schema");
    assert_eq!(schema["title"], "overtalk analyze output");
    dir.create(
        "talk.vtt",
        "WEBVTT\n\n00:00.000 --> 00:04.000\n<v Ann>So I think the plan works.\n\n\
         00:03.500 --> 00:06.000\n<v Ben>No wait, it doesn't.\n\n\
         00:06.500 --> 00:07.000\n<v Ann>Yeah.\n",
    );
    // A paragraph transcript (ends estimated, a `[crosstalk]` note): `estimated_times`.
    dir.create(
        "talk.txt",
        "Ann (00:00):\nSo I think the plan works [crosstalk 00:00:03].\n\nBen (00:04):\nNo wait, it doesn't.\n",
    );
    for input in ["ref.rttm", "talk.vtt", "talk.txt"] {
        let output: Value =
            serde_json::from_str(&dir.run(&["analyze", "--format", "json", input]).ok()).unwrap();
        assert_eq!(violation(&schema, &schema, &output, ""), None, "{input}");
        assert_eq!(output["schema_version"], schema["x-schema-version"]);
        let estimated = output["conversations"][0].get("estimated_times").is_some();
        assert_eq!(estimated, input == "talk.txt", "{input}");
    }
    // The checker itself rejects what the schema forbids.
    let mut output: Value =
        serde_json::from_str(&dir.run(&["analyze", "--format", "json", "ref.rttm"]).ok()).unwrap();
    output["conversations"][0]["not_a_field"] = Value::Bool(true);
    assert_eq!(
        violation(&schema, &schema, &output, ""),
        Some("/conversations/0/not_a_field: not in the schema".into())
    );
    // `-o` writes the same bytes.
    dir.run(&["schema", "-o", "schema.json"]).ok();
    assert_eq!(serde_json::from_str::<Value>(&dir.read("schema.json")).unwrap(), schema);
}

/// A UEM that lies after every turn, or a collar wider than the turns, leaves nothing of the
/// reference to score: the table of zeros and `n/a` comes with a warning that says so and why,
/// not as a result that looks like one.
#[test]
fn score_says_when_nothing_of_a_recording_is_scored() {
    let dir = inputs();
    dir.create("late.uem", "rec 1 100 200\n");
    let run = dir.run(&["score", "-r", "ref.rttm", "-s", "hyp.rttm", "-u", "late.uem"]);
    assert_eq!(run.code(), 0);
    assert!(run.stdout().contains("\nrec        scored                 0.000"), "{}", run.stdout());
    assert_eq!(
        run.stderr(),
        "overtalk: warning: recording \"rec\": none of its 14.000 s of reference speech is scored (the UEM leaves none of it): its DER is undefined\n"
    );
    // No reference speaker is in the evaluation, so the JER (a mean over them) is undefined too,
    // not 100 % for speakers that were never evaluated; dscore's preset says so as well (dscore
    // itself stops with an error), pyannote's gives pyannote's answer.
    for preset in ["overtalk", "dscore", "pyannote"] {
        let run = dir.run(&[
            "score", "-r", "ref.rttm", "-s", "hyp.rttm", "-u", "late.uem", "--preset", preset,
            "--format", "json",
        ]);
        let out: Value = serde_json::from_str(&run.ok()).unwrap();
        let expected = if preset == "pyannote" { Value::from(1.0) } else { Value::Null };
        assert_eq!(out["total"]["jer"], expected, "{preset}");
        assert_eq!(out["files"][0]["jer"], expected, "{preset}");
    }
    let run = dir.run(&["score", "-r", "ref.rttm", "-s", "hyp.rttm", "--collar", "60"]);
    assert_eq!(
        run.stderr(),
        "overtalk: warning: recording \"rec\": none of its 14.000 s of reference speech is scored (the collar of 60.000 s per side leaves none of it): its DER is undefined\n"
    );
    // Something scored: no warning.
    assert_eq!(dir.run(&["score", "-r", "ref.rttm", "-s", "hyp.rttm"]).stderr(), "");
}

/// A reference speaker whose turns all lie outside the UEM is not in the evaluation: the frame
/// JER of the overtalk preset is the mean over the speakers inside it, as dscore (which drops
/// turns outside the UEM) has it, not half of it a 100 % for a speaker never evaluated.
#[test]
fn score_jer_leaves_out_speakers_outside_the_uem() {
    let dir = Dir::new();
    dir.create(
        "r.rttm",
        "SPEAKER f 1 0.00 4.00 <NA> <NA> A <NA> <NA>\nSPEAKER f 1 20.00 2.00 <NA> <NA> B <NA> <NA>\n",
    );
    dir.create("h.rttm", "SPEAKER f 1 0.00 2.00 <NA> <NA> X <NA> <NA>\n");
    dir.create("u.uem", "f 1 0 10\n");
    for preset in ["overtalk", "dscore"] {
        let run = dir.run(&[
            "score", "-r", "r.rttm", "-s", "h.rttm", "-u", "u.uem", "--preset", preset, "--format",
            "json",
        ]);
        let out: Value = serde_json::from_str(&run.ok()).unwrap();
        assert_eq!(out["total"]["jer"], Value::from(0.5), "{preset}");
        assert_eq!(out["files"][0]["jer_speakers"].as_array().map(Vec::len), Some(1), "{preset}");
    }
}

/// A UEM that is empty, or of which no line reads (an RTTM given as the UEM), was no UEM at all:
/// every recording scored over its default region, exit 0. It is an error at its first line.
#[test]
fn score_refuses_a_uem_without_a_region() {
    let dir = inputs();
    dir.create("empty.uem", "");
    let run = dir.run(&["score", "-r", "ref.rttm", "-s", "hyp.rttm", "-u", "empty.uem"]);
    assert_eq!(run.code(), 2);
    assert_eq!(run.stdout(), "");
    assert_eq!(
        run.stderr(),
        "overtalk: error: empty.uem:1:1: uem: no scoring region: the UEM is empty (no `file channel onset offset` line)\n"
    );
    let run = dir.run(&["score", "-r", "ref.rttm", "-s", "hyp.rttm", "-u", "ref.rttm"]);
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: ref.rttm:1:1: uem: no scoring region: none of the 2 line(s) could be read, the first for: 10 fields, UEM needs 4: an RTTM line (is this file a UEM?)\n"
    );
}

/// A directory given to `--uem` without a `.uem` file in it is refused as an empty UEM file
/// is, by `score`, `info` and `validate` alike, not read as no UEM.
#[test]
fn a_uem_directory_without_a_uem_file_is_refused() {
    let dir = inputs();
    dir.create("uems/notes.txt", "not a UEM\n");
    for args in [
        &["score", "-r", "ref.rttm", "-s", "hyp.rttm", "-u", "uems"][..],
        &["info", "ref.rttm", "--uem", "uems"],
        &["validate", "ref.rttm", "--uem", "uems"],
    ] {
        let run = dir.run(args);
        assert_eq!(
            (run.code(), run.stdout(), run.stderr()),
            (
                2,
                String::new(),
                "overtalk: error: uems: no UEM file (`.uem`) in this directory\n".to_owned()
            ),
            "{args:?}"
        );
    }
}

/// A directory is read for the files its user put there: hidden entries are passed over, as
/// Jupyter's checkpoint copies (which would score a recording twice) and the resource forks
/// macOS writes beside every file on a USB stick (`._x`: binary, neither text nor a UEM).
#[test]
fn directories_pass_over_hidden_files_and_folders() {
    let dir = inputs();
    dir.create("refs/ref.rttm", REFERENCE);
    dir.create("refs/.ipynb_checkpoints/ref-checkpoint.rttm", HYPOTHESIS_EXTRA);
    dir.create("refs/._ref.rttm", "\u{0}\u{5}\u{16}\u{7}\u{0}\u{2}\u{0}\u{0}Mac OS X        ");
    dir.create("uems/rec.uem", UEM);
    dir.create("uems/._rec.uem", "\u{0}\u{5}\u{16}\u{7}\u{0}\u{2}\u{0}\u{0}Mac OS X        ");
    let by_dir =
        dir.run(&["score", "-r", "refs", "-s", "hyp.rttm", "-u", "uems", "--format", "json"]);
    let by_file = dir
        .run(&["score", "-r", "ref.rttm", "-s", "hyp.rttm", "-u", "rec.uem", "--format", "json"]);
    assert_eq!((by_dir.code(), by_dir.stderr()), (0, String::new()));
    let by_dir: Value = serde_json::from_str(&by_dir.stdout()).unwrap();
    let by_file: Value = serde_json::from_str(&by_file.ok()).unwrap();
    assert_eq!(by_dir["total"], by_file["total"]);
    assert_eq!(by_dir["files"].as_array().map(Vec::len), Some(1), "{by_dir}");
    assert_eq!(by_dir["total"]["scored_s"], 14.0);
    assert_eq!(by_dir["total"]["der"], 2.0 / 14.0);
    // A glob matches hidden files as a shell does: only when its dot is written.
    for pattern in ["refs/*.rttm", "./refs/*.rttm", "refs/./*.rttm"] {
        let star = dir.run(&["info", pattern, "--format", "json"]);
        assert_eq!((star.code(), star.stderr()), (0, String::new()), "{pattern}");
    }
    let dotted = dir.run(&["info", "refs/.*.rttm"]);
    assert_eq!(dotted.code(), 2, "{}", dotted.stderr());
    assert!(dotted.stderr().contains("refs/._ref.rttm"), "{}", dotted.stderr());
    let into_hidden = dir.run(&["info", "refs/*/*.rttm"]);
    assert_eq!(
        (into_hidden.code(), into_hidden.stderr()),
        (2, "overtalk: error: refs/*/*.rttm: the pattern matches no files\n".to_owned())
    );
    // A hidden path named on the command line is read.
    let named =
        dir.run(&["info", "refs/.ipynb_checkpoints/ref-checkpoint.rttm", "--format", "json"]);
    assert_eq!(named.code(), 0, "{}", named.stderr());
}
