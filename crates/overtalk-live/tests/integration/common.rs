//! Helpers shared by the integration tests: where the corpus-scale data lives, and a real AMI
//! meeting turned into the event stream a perfect causal detector would send.
#![allow(dead_code)]

use std::path::PathBuf;

use overtalk::analysis::Params;
use overtalk::format::{self, ReadOptions};
use overtalk::output::live::LiveEvent;
use overtalk_live::script::{events_from_transcript, Latencies};

/// The shared data folder (`$OVERTALK_SHARED_DATA`, else `../shared/data` beside the
/// repository), or `None` with a printed reason; a failure when `OVERTALK_REQUIRE_SHARED_DATA`
/// is set.
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

/// The events of an AMI reference RTTM (`split` is `train`, `dev` or `test`).
pub fn ami_events(data: &std::path::Path, split: &str, meeting: &str) -> Vec<LiveEvent> {
    let path = data.join(format!("corpora/ami/only_words/rttms/{split}/{meeting}.rttm"));
    let read = format::read_path(&path, None, &ReadOptions::default()).expect("read the RTTM");
    let (_, transcript) = read.corpus.iter().next().expect("one recording");
    events_from_transcript(transcript, &Params::default(), Latencies::default()).expect("analysis")
}
