use std::path::PathBuf;

use crate::util::Dir;

fn example(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/red-carpet")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// The README's main command: both files of the example, each its own conversation, labelled by
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
        assert_eq!(v["schema_version"], 1);
    }
    let csv = dir
        .run(&["analyze", &example("red-carpet.vtt"), "--format", "csv", "--events", "onsets"])
        .ok();
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("recording,speaker,time,holder,class,outcome,ferguson,partner,dist_to_completion,holder_remaining"));
    assert_eq!(lines.next(), Some("red-carpet,Interviewer,0,,opening,floor_taken,,,,"));
}

/// The calibrated classifier (the default) changes the counts of the example and says so; the
/// rules carry no probabilities.
#[test]
fn calibrated_classifier_is_the_default_and_names_itself() {
    let dir = Dir::new();
    let counts = |args: &[&str]| {
        let out = dir.run(args).ok();
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let c = &v["conversation"]["counts"];
        (c["interruptions"].as_u64(), c["successful"].as_u64(), c["backchannels"].as_u64(), v)
    };
    let rttm = example("red-carpet.rttm");
    let (i, s, b, v) = counts(&["analyze", &rttm, "--format", "json"]);
    assert_eq!((i, s, b), (Some(6), Some(5), Some(1)));
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
