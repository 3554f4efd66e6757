//! `--diarizer pyannote` and `overtalk models install pyannote`, with a model directory the
//! test writes (every file and tensor speakrs loads, at its shape, deterministic values; its
//! segmentation says "one speaker" in every frame, so the expected result is known).

use std::path::Path;

use overtalk_audio::diarize::pyannote::{write_test_model, TestSegmentation};

use crate::util::Dir;

/// A 16 kHz 16-bit mono WAV of `seconds`: a tone, silent every third second.
fn tone_wav(dir: &Dir, name: &str, seconds: usize) {
    let samples: Vec<i16> = (0..seconds * 16_000)
        .map(|i| {
            let t = i as f32 / 16_000.0;
            if (i / 16_000) % 3 == 2 {
                0
            } else {
                (8_000.0 * (2.0 * std::f32::consts::PI * 220.0 * t).sin()) as i16
            }
        })
        .collect();
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::new();
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    for v in [16u32, 1 | (1 << 16), 16_000, 32_000, 2 | (16 << 16)] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&s.to_le_bytes());
    }
    std::fs::write(dir.path().join(name), out).unwrap();
}

/// Installs the test model from a directory into `models`.
fn install(dir: &Dir, models: &Path) {
    let src = dir.path().join("fetched");
    write_test_model(&src, TestSegmentation::OneSpeaker).unwrap();
    let env = [("OVERTALK_MODEL_DIR", models)];
    let run = dir.run_env(&["models", "install", "pyannote", "--from", "fetched"], &env);
    assert_eq!(run.stdout(), format!("{}\n", models.join("pyannote").display()));
    assert!(
        run.stderr().contains(
            "9 files of avencera/speakrs-models at 67f963b6a1d94fcd4678948237b3cc8bd69bf1d8"
        ),
        "{}",
        run.stderr()
    );
}

/// Every way an installation fails says what to download and where to put it; a good one is
/// listed as such.
#[test]
fn pyannote_install_failures_say_what_to_download() {
    let dir = Dir::new();
    let models = dir.path().join("models");
    let env = [("OVERTALK_MODEL_DIR", models.as_path())];
    let src = dir.path().join("fetched");
    write_test_model(&src, TestSegmentation::OneSpeaker).unwrap();
    // Missing file.
    std::fs::remove_file(src.join("plda_lda.npy")).unwrap();
    let run = dir.run_env(&["models", "install", "pyannote", "--from", "fetched"], &env);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(
        run.stderr().contains("1 of the 9 pyannote model files missing in fetched"),
        "{}",
        run.stderr()
    );
    assert!(run.stderr().contains("plda_lda.npy (from https://huggingface.co/avencera/speakrs-models/resolve/67f963b6a1d94fcd4678948237b3cc8bd69bf1d8/plda_lda.npy)"), "{}", run.stderr());
    // Truncated file.
    write_test_model(&src, TestSegmentation::OneSpeaker).unwrap();
    let p = src.join("segmentation-3.0.safetensors");
    let b = std::fs::read(&p).unwrap();
    std::fs::write(&p, &b[..1000]).unwrap();
    let run = dir.run_env(&["models", "install", "pyannote", "--from", "fetched"], &env);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(
        run.stderr().contains("segmentation-3.0.safetensors is not usable (truncated"),
        "{}",
        run.stderr()
    );
    assert!(!models.join("pyannote").exists());
    // No network: the download host does not answer.
    let env2 = [
        ("OVERTALK_MODEL_DIR", models.as_path()),
        ("OVERTALK_PYANNOTE_MIRROR", Path::new("http://127.0.0.1:9")),
    ];
    let run = dir.run_env(&["models", "install", "pyannote"], &env2);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    let e = run.stderr();
    assert!(e.contains("could not download http://127.0.0.1:9/api/models/avencera/speakrs-models/tree/67f963b6a1d94fcd4678948237b3cc8bd69bf1d8"), "{e}");
    assert!(e.contains("download these 9 files by hand:"), "{e}");
    assert!(e.contains("https://huggingface.co/avencera/speakrs-models/resolve/67f963b6a1d94fcd4678948237b3cc8bd69bf1d8/wespeaker-multimask-tail.safetensors"), "{e}");
    assert!(
        e.contains(&format!(
            "`overtalk models install pyannote --from DIR` (they are installed into {})",
            models.join("pyannote").display()
        )),
        "{e}"
    );
    // --from is for pyannote only.
    let run = dir.run_env(&["models", "install", "ge2e", "--from", "fetched"], &env);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(run.stderr().contains("--from installs the pyannote files"), "{}", run.stderr());
    // A good installation, then one changed after install.
    write_test_model(&src, TestSegmentation::OneSpeaker).unwrap();
    install(&dir, &models);
    let list = dir.run_env(&["models", "list"], &env).stdout();
    let line = list.lines().find(|l| l.starts_with("pyannote\t")).unwrap();
    assert!(
        line.starts_with(&format!(
            "pyannote\tok\t{}",
            models.join("pyannote/SHA256SUMS").display()
        )),
        "{list}"
    );
    std::fs::write(models.join("pyannote/plda_mu.npy"), b"\x93NUMPY").unwrap();
    let list = dir.run_env(&["models", "list"], &env).stdout();
    let line = list.lines().find(|l| l.starts_with("pyannote\t")).unwrap();
    assert!(line.starts_with("pyannote\tbroken\t"), "{list}");
    assert!(line.contains("was installed (changed or truncated since)"), "{list}");
}

/// With the pyannote files installed, `detect` and `analyze` diarize with speakrs (chosen
/// automatically, or by `--diarizer pyannote`) and record how.
#[cfg(feature = "pyannote")]
#[test]
fn detect_and_analyze_with_pyannote() {
    let dir = Dir::new();
    tone_wav(&dir, "clip.wav", 10);
    let models = dir.path().join("models");
    install(&dir, &models);
    let env = [("OVERTALK_MODEL_DIR", models.as_path())];
    let run = dir.run_env(&["detect", "clip.wav", "--diarizer", "pyannote", "-o", "a.rttm"], &env);
    // One speaker found (a tone): the note that the count is the diarizer's estimate, only.
    let note = "overtalk: note: clip: the diarizer found one speaker; if more people speak, \
                `--num-speakers N` (or `--min-speakers 2`) makes it look for them \
                (docs/diarization.md)\n";
    assert_eq!((run.code(), run.stderr().as_str()), (0, note));
    let rttm = dir.read("a.rttm");
    let lines: Vec<Vec<&str>> = rttm.lines().map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(lines.len(), 1, "{rttm}");
    assert_eq!((lines[0][0], lines[0][1], lines[0][7]), ("SPEAKER", "clip", "SPK00"), "{rttm}");
    // From the centre of the first segmentation frame (30.969 ms) to that of the last frame
    // of the one 10 s window (9.970344 s).
    assert_eq!((lines[0][3], lines[0][4]), ("0.030969", "9.939375"), "{rttm}");
    // Chosen automatically when installed.
    let run = dir.run_env(&["detect", "clip.wav", "-o", "b.rttm"], &env);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(dir.read("b.rttm"), rttm);
    let json = dir.run_env(&["analyze", "clip.wav", "--format", "json"], &env).ok();
    let all: serde_json::Value = serde_json::from_str(&json).unwrap();
    let method = all["conversations"][0]["detection"]["method"].as_str().unwrap();
    assert_eq!(
        method,
        "pyannote (speakrs 0.7.0, native CPU: segmentation-3.0 powerset on 10 s windows every 1 s, \
         WeSpeaker ResNet34 embeddings, PLDA + VBx clustering; models avencera/speakrs-models at \
         67f963b6a1d9; voice activity from the segmentation model; overlap modelled, up to 2 \
         speakers per frame)"
    );
    // GE2E-only flags pick GE2E automatically, and contradict --diarizer pyannote.
    let run = dir.run_env(&["detect", "clip.wav", "--max-speakers", "3", "-o", "c.rttm"], &env);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(run.stderr().contains("no speaker model at"), "{}", run.stderr());
    let run =
        dir.run_env(&["detect", "clip.wav", "--diarizer", "pyannote", "--num-speakers", "2"], &env);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(run.stderr().contains("--diarizer pyannote takes none of --vad"), "{}", run.stderr());
    // A broken installation is an error with what to do, not a silent fallback.
    std::fs::remove_file(models.join("pyannote/plda_tr.npy")).unwrap();
    let run = dir.run_env(&["detect", "clip.wav", "--diarizer", "pyannote"], &env);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(run.stderr().contains("plda_tr.npy is missing"), "{}", run.stderr());
}

/// Without the `pyannote` feature, `--diarizer pyannote` says which build has it, and an
/// installation is not chosen automatically.
#[cfg(not(feature = "pyannote"))]
#[test]
fn without_the_feature_pyannote_is_refused_by_name() {
    let dir = Dir::new();
    tone_wav(&dir, "clip.wav", 4);
    let models = dir.path().join("models");
    install(&dir, &models);
    let env = [("OVERTALK_MODEL_DIR", models.as_path())];
    let run = dir.run_env(&["detect", "clip.wav", "--diarizer", "pyannote"], &env);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(run.stderr().contains("needs a build with the `pyannote` feature"), "{}", run.stderr());
    let run = dir.run_env(&["detect", "clip.wav", "-o", "a.rttm"], &env);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(run.stderr().contains("no speaker model at"), "{}", run.stderr());
    let list = dir.run_env(&["models", "list"], &env).stdout();
    assert!(list.contains("running them needs a build with the `pyannote` feature"), "{list}");
}
