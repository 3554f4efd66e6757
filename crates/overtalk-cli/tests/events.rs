//! `overtalk score --events` against sed_eval 0.2.1: scripts/events/check.sh compares the
//! TP/FP/FN of every class on the fixtures of crates/overtalk/tests/data/events. Runs when a
//! venv with sed_eval is available (`$OVERTALK_SED_EVAL_VENV`, else `target/sed-eval-venv`,
//! which `scripts/events/check.sh` makes); skips with the reason otherwise.
#![allow(clippy::unwrap_used)] // Test helpers fail loudly.

use std::path::PathBuf;
use std::process::Command;

#[test]
fn matching_counts_are_sed_eval_s() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
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
