//! Writes a pyannote (speakrs) model directory with every file and tensor speakrs 0.7 loads,
//! at its shape, with deterministic values — not trained weights. For measuring speed and
//! memory (`bench/pyannote_bench.sh`): the compute does not depend on the values.
//!
//! ```sh
//! cargo run --release -p overtalk-audio --example pyannote_test_model -- DIR
//! overtalk models install pyannote --from DIR
//! ```

use overtalk_audio::diarize::pyannote::{write_test_model, TestSegmentation};

fn main() -> std::process::ExitCode {
    let Some(dir) = std::env::args_os().nth(1) else {
        eprintln!("usage: pyannote_test_model DIR");
        return std::process::ExitCode::from(2);
    };
    match write_test_model(std::path::Path::new(&dir), TestSegmentation::OneSpeaker) {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("pyannote_test_model: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
