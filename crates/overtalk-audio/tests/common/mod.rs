//! Helpers shared by the integration tests: where the corpus-scale data lives, signals, WAV
//! writing, and a frame-level scorer.
#![allow(dead_code)]

pub mod score;

use std::path::PathBuf;

/// The shared data folder (`$OVERTALK_SHARED_DATA`, else `../shared/data` beside the
/// repository), or `None` with a printed reason. When `OVERTALK_REQUIRE_SHARED_DATA` is set (CI
/// sets it), absence is a test failure instead of a skip.
pub fn shared_data(test: &str) -> Option<PathBuf> {
    let path = std::env::var_os("OVERTALK_SHARED_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"));
    if path.is_dir() {
        return Some(path);
    }
    if std::env::var_os("OVERTALK_REQUIRE_SHARED_DATA").is_some() {
        panic!(
            "{test}: shared data not found at {} and OVERTALK_REQUIRE_SHARED_DATA is set",
            path.display()
        );
    }
    eprintln!(
        "skipping {test}: shared data not found at {} (set OVERTALK_SHARED_DATA)",
        path.display()
    );
    None
}
