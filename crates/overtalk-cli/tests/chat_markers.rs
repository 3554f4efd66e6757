//! CHAT with time bullets: the transcriber's overlap and interruption markers against the timing,
//! in `info` and `analyze` (table, Markdown, JSON).

use crate::util::Dir;

/// Five timed utterances and one without a bullet (counts worked out in
/// `overtalk::analysis::markers`): overlap 3 both, 1 timing only; interruption 2 both, 2 timing
/// only; interruption before the end 2 both.
const SMALL: &str = "@Begin\n@Participants:\tA Adult, B Adult, C Adult\n\
    *A:\tso <the plan> [>] +/. \u{15}0_4000\u{15}\n\
    *B:\t<no> [<] wait . \u{15}3500_6000\u{15}\n\
    *A:\tfine . \u{15}6000_8000\u{15}\n\
    *B:\tI mean +//. \u{15}8000_9000\u{15}\n\
    *C:\t<yes> [<] . \u{15}8500_9500\u{15}\n\
    *A:\tok .\n@End\n";

const TABLE: &str = "\
small: CHAT markers vs timing (5 timed utterances; markers +/. 1, +//. 1, [<] 2, [>] 1; 1 utterance(s) without a bullet left out; agreement = both / (both + marker only + timing only)):
comparison                   marked by          timing shows                              both  marker only  timing only  agreement
overlap                      [>] [<] +< ⌈ ⌊     bullet overlaps another speaker's            3            0            1      75.0%
interruption                 +/. +/? +//. +//?  next speaker starts at or before the end     2            0            2      50.0%
interruption before the end  +/. +/? +//. +//?  next speaker starts before the end           2            0            0     100.0%
";

#[test]
fn info_prints_the_agreement_of_markers_and_timing() {
    let dir = Dir::new();
    dir.create("small.cha", SMALL);
    let run = dir.run(&["info", "small.cha"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let out = run.stdout();
    assert!(out.ends_with(&format!("\n\n{TABLE}")), "{out}");
    let md = dir.run(&["info", "small.cha", "--format", "md"]).stdout();
    assert!(
        md.contains("| interruption | +/. +/? +//. +//? | next speaker starts at or before the end | 2 | 0 | 2 | 50.0% |\n"),
        "{md}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&dir.run(&["info", "small.cha", "--format", "json"]).stdout())
            .unwrap();
    let m = &json["recordings"][0]["chat_markers_vs_timing"];
    assert_eq!(m["utterances"], 5);
    assert_eq!(m["untimed"], 1);
    assert_eq!(
        m["overlap"],
        serde_json::json!({"both": 3, "marker_only": 0, "timing_only": 1, "neither": 1, "agreement": 0.75})
    );
    assert_eq!(m["markers"], serde_json::json!({"+/.": 1, "+//.": 1, "[<]": 2, "[>]": 1}));
    // TSV is one table: the comparison is left out.
    let tsv = dir.run(&["info", "small.cha", "--format", "tsv"]).stdout();
    assert_eq!(tsv.lines().count(), 2, "{tsv}");
}

#[test]
fn analyze_prints_the_agreement_in_every_format() {
    let dir = Dir::new();
    dir.create("small.cha", SMALL);
    let table = dir.run(&["analyze", "small.cha"]);
    assert_eq!(table.code(), 0, "{}", table.stderr());
    let body = TABLE.trim_start_matches("small: ");
    assert!(table.stdout().contains(&format!("\n\n{body}\n")), "{}", table.stdout());
    let md = dir.run(&["analyze", "small.cha", "--format", "md"]).stdout();
    assert!(
        md.contains("| overlap | [>] [<] +< ⌈ ⌊ | bullet overlaps another speaker's | 3 | 0 | 1 | 75.0% |\n"),
        "{md}"
    );
    for extra in [&[][..], &["--timing-only"][..]] {
        let args = [&["analyze", "small.cha", "--format", "json"][..], extra].concat();
        let json: serde_json::Value = serde_json::from_str(&dir.run(&args).stdout()).unwrap();
        let m = &json["conversations"][0]["chat_markers_vs_timing"];
        assert_eq!(
            m["interruption"],
            serde_json::json!({"both": 2, "marker_only": 0, "timing_only": 2, "neither": 1, "agreement": 0.5}),
            "{extra:?}"
        );
        assert_eq!(m["interruption_before_end"]["both"], 2);
        assert_eq!(m["interruption_before_end"]["agreement"], 1.0);
    }
    // The same conversation as RTTM has no markers to compare: no field, no table.
    let rttm = dir.run(&["convert", "small.cha", "--to", "rttm", "-o", "small.rttm"]);
    assert_eq!(rttm.code(), 0, "{}", rttm.stderr());
    let json: serde_json::Value =
        serde_json::from_str(&dir.run(&["analyze", "small.rttm", "--format", "json"]).stdout())
            .unwrap();
    assert!(json["conversations"][0].get("chat_markers_vs_timing").is_none());
    assert!(!dir.run(&["analyze", "small.rttm"]).stdout().contains("CHAT markers"));
}

/// docs/guide.md quotes `overtalk info` on the real CHAT sample (the fixture is a byte-for-byte
/// copy of `../shared/data/format-samples/chat/eng_multi_speaker.cha`).
#[test]
fn the_guide_quotes_the_current_chat_table() {
    let root = crate::util::repo_root();
    let guide = std::fs::read_to_string(root.join("docs/guide.md")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_overtalk"))
        .args(["info", "crates/overtalk/tests/data/chat/eng_multi_speaker.cha"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let quoted = format!("```text\n{}```", String::from_utf8_lossy(&out.stdout));
    assert!(guide.contains(&quoted), "docs/guide.md does not quote the current output:\n{quoted}");
}
