//! `overtalk score --events` against sed_eval 0.2.1: scripts/events/check.sh compares the
//! TP/FP/FN of every class on the fixtures of crates/overtalk/tests/data/events. Runs when a
//! venv with sed_eval is available (`$OVERTALK_SED_EVAL_VENV`, else `target/sed-eval-venv`,
//! which `scripts/events/check.sh` makes); skips with the reason otherwise.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn matching_counts_are_sed_eval_s() {
    let root = crate::util::repo_root();
    let venv = std::env::var_os("OVERTALK_SED_EVAL_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target/sed-eval-venv"));
    let python = venv.join("bin/python");
    let ok = Command::new(&python)
        .args(["-c", "import sed_eval, dcase_util"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!(
            "skipping matching_counts_are_sed_eval_s: no venv with sed_eval at {} (run \
             scripts/events/check.sh once, or set OVERTALK_SED_EVAL_VENV)",
            venv.display()
        );
        return;
    }
    let out = Command::new(root.join("scripts/events/check.sh"))
        .arg(env!("CARGO_BIN_EXE_overtalk"))
        .env("VENV", &venv)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(text.matches("sed_eval 0.2.1: identical").count(), 3, "{text}");
}

#[test]
fn every_format_prints_the_event_report() {
    let root = crate::util::repo_root();
    let data = root.join("crates/overtalk/tests/data/events");
    let run = |format: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_overtalk"))
            .args(["score", "--events", "--format", format, "-r"])
            .arg(data.join("blame.ref.rttm"))
            .arg("-s")
            .arg(data.join("blame.hyp.rttm"))
            .output()
            .unwrap();
        (out.status.success(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (ok, table) = run("table");
    assert!(ok);
    let all = "ALL                           19   14   7   7  12   50.0   36.8   42.4  100.0     -5    -26.3";
    assert!(table.contains(all), "{table}");
    let (ok, json) = run("json");
    assert!(ok);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["total"]["tp"], 7);
    assert_eq!(v["recordings"][0]["unmatched"].as_array().unwrap().len(), 19);
    let (ok, csv) = run("csv");
    assert!(ok);
    assert!(csv.contains("\nblame,backchannel,1,1,0,1,1,0,0,0,2,0,0,,1,1,0,0,0\n"), "{csv}");
    let (ok, md) = run("md");
    assert!(ok && md.contains("| ALL | 19 | 14 | 7 | 7 | 12 |"), "{md}");
    let (ok, html) = run("html");
    assert!(ok && html.starts_with("<!DOCTYPE html>"));
    assert_eq!(html.matches("<line class=\"ev m\"").count(), 14);
    assert_eq!(html.matches("<line class=\"ev u ").count(), 19);
    // Written atomically to -o: the page, and no temporary file left beside it.
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("events.html");
    let status = Command::new(env!("CARGO_BIN_EXE_overtalk"))
        .args(["--quiet", "score", "--events", "--format", "html", "-r"])
        .arg(data.join("blame.ref.rttm"))
        .arg("-s")
        .arg(data.join("blame.hyp.rttm"))
        .arg("-o")
        .arg(&page)
        .status()
        .unwrap();
    assert!(status.success());
    assert_eq!(std::fs::read_to_string(&page).unwrap(), html);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
}

/// The analysis options of `overtalk analyze`, applied to both sides and written to the JSON.
#[test]
fn analysis_parameters_change_the_events_as_the_rule_book_says() {
    let root = crate::util::repo_root();
    let data = root.join("crates/overtalk/tests/data/events");
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_overtalk"))
            .args(["--quiet", "score", "--events", "--format", "json", "-r"])
            .arg(data.join("blame.ref.rttm"))
            .arg("-s")
            .arg(data.join("blame.hyp.rttm"))
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let counts = |v: &serde_json::Value, class: &str| {
        let c = v["classes"].as_array().unwrap().iter().find(|c| c["class"] == class).unwrap();
        [&c["reference"], &c["hypothesis"], &c["tp"], &c["fp"], &c["fn"]]
            .map(|x| x.as_u64().unwrap())
    };
    let base = run(&[]);
    assert_eq!(base["schema_version"], 1);
    assert_eq!(base["params"]["terminal_window"], 300);
    assert_eq!(base["params"]["classifier"], "rules");
    // Default terminal_window 300 ms. B's onsets on A: reference 4000 (A ends 5000, d = 1000)
    // and 34800 (A ends 35000, d = 200); hypothesis 4300 (d = 700) and 34800 (A ends 35600,
    // d = 800). §5.4 rule 2: d ≤ terminal_window is a terminal overlap, else an interruption.
    assert_eq!(counts(&base, "onset:terminal_overlap"), [1, 0, 0, 0, 1]);
    assert_eq!(counts(&base, "onset:interruption"), [1, 2, 0, 2, 1]);
    assert_eq!(counts(&base, "interruption:floor_taken"), [1, 2, 0, 2, 1]);
    // terminal_window 900: the hypothesis onsets (d = 700, 800) become terminal overlaps, the
    // one at 34800 matching the reference's; the reference at 4000 (d = 1000) stays an
    // interruption, now unmatched.
    let wide = run(&["--terminal-window", "900"]);
    assert_eq!(wide["params"]["terminal_window"], 900);
    assert_eq!(counts(&wide, "onset:terminal_overlap"), [1, 2, 1, 1, 0]);
    assert_eq!(counts(&wide, "onset:interruption"), [1, 0, 0, 0, 1]);
    assert_eq!(counts(&wide, "interruption:floor_taken"), [1, 0, 0, 0, 1]);
    // Everything else is the same.
    for class in ["onset:smooth_switch", "backchannel", "transfer", "turn"] {
        assert_eq!(counts(&base, class), counts(&wide, class), "{class}");
    }
    // The same from a parameters file, and the preset and classifier are recorded.
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("params.toml");
    std::fs::write(&cfg, "terminal_window = 900\n").unwrap();
    let from_file = run(&["--config", cfg.to_str().unwrap()]);
    assert_eq!(from_file["classes"], wide["classes"]);
    let he = run(&["--analysis-preset", "he2010", "--classifier", "calibrated"]);
    assert_eq!(he["params"]["bridge_pause"], 20);
    assert_eq!(he["params"]["classifier"], "calibrated");
    // Analysis options without --events are an error, not silently ignored.
    let out = Command::new(env!("CARGO_BIN_EXE_overtalk"))
        .args(["score", "--terminal-window", "900", "-r"])
        .arg(data.join("blame.ref.rttm"))
        .arg("-s")
        .arg(data.join("blame.hyp.rttm"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--events"));
}
