//! The pyannote (speakrs) backend end to end, with a model directory written by the test:
//! every file and tensor speakrs 0.7 loads, at its shape, with deterministic values (no
//! trained weights are available here). The installation's checks run in every build; the
//! diarization itself needs the `pyannote` feature.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeMap;
use std::path::Path;

use overtalk_audio::diarize::models::sha256_hex;
use overtalk_audio::diarize::pyannote::{
    check_file, install_from_dir, installed_dir, is_installed, test_model_files, verify_installed,
    write_test_model, ModelFile, TestSegmentation, MANIFEST_FILE, PYANNOTE_FILES,
};

fn install(src: &Path, model_dir: &Path) -> overtalk::Result<std::path::PathBuf> {
    install_from_dir(src, model_dir, &PYANNOTE_FILES, &BTreeMap::new())
}

fn err<T: std::fmt::Debug>(r: overtalk::Result<T>) -> String {
    r.unwrap_err().to_string()
}

#[test]
fn install_from_dir_writes_every_file_and_the_manifest() {
    let src = tempfile::tempdir().unwrap();
    let models = tempfile::tempdir().unwrap();
    write_test_model(src.path(), TestSegmentation::OneSpeaker).unwrap();
    assert!(!is_installed(models.path()));
    let dir = install(src.path(), models.path()).unwrap();
    assert_eq!(dir, installed_dir(models.path()));
    assert!(is_installed(models.path()));
    let manifest = std::fs::read_to_string(dir.join(MANIFEST_FILE)).unwrap();
    let expected: String = test_model_files(TestSegmentation::OneSpeaker)
        .iter()
        .map(|(n, b)| format!("{}  {n}\n", sha256_hex(b)))
        .collect();
    assert_eq!(manifest, expected);
    verify_installed(&dir).unwrap();
    // No temporary files are left behind.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.') || n.ends_with(".partial") || n.ends_with(".tmp"))
        .collect();
    assert_eq!(names, Vec::<String>::new());
}

/// Two installations into one model directory at the same time both succeed, and leave one
/// complete installation with no temporary files.
#[test]
fn two_installs_at_once_both_succeed() {
    let src = tempfile::tempdir().unwrap();
    let models = tempfile::tempdir().unwrap();
    write_test_model(src.path(), TestSegmentation::OneSpeaker).unwrap();
    for _ in 0..4 {
        std::thread::scope(|s| {
            let one = s.spawn(|| install(src.path(), models.path()));
            let two = s.spawn(|| install(src.path(), models.path()));
            one.join().unwrap().unwrap();
            two.join().unwrap().unwrap();
        });
        let dir = installed_dir(models.path());
        verify_installed(&dir).unwrap();
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let mut expected: Vec<String> = test_model_files(TestSegmentation::OneSpeaker)
            .iter()
            .map(|(n, _)| (*n).to_owned())
            .chain([MANIFEST_FILE.to_owned()])
            .collect();
        expected.sort();
        assert_eq!(names, expected);
    }
}

#[test]
fn a_missing_file_names_what_to_download_and_where() {
    let src = tempfile::tempdir().unwrap();
    let models = tempfile::tempdir().unwrap();
    write_test_model(src.path(), TestSegmentation::OneSpeaker).unwrap();
    std::fs::remove_file(src.path().join("plda_psi.npy")).unwrap();
    let e = err(install(src.path(), models.path()));
    assert!(e.contains("1 of the 9 pyannote model files missing"), "{e}");
    assert!(
        e.contains(
            "plda_psi.npy (from https://huggingface.co/avencera/speakrs-models/resolve/67f963b6a1d94fcd4678948237b3cc8bd69bf1d8/plda_psi.npy)"
        ),
        "{e}"
    );
    assert!(e.contains(&format!("--from {}", src.path().display())), "{e}");
    assert!(!is_installed(models.path()));
}

#[test]
fn a_truncated_file_is_refused_before_anything_is_written() {
    let src = tempfile::tempdir().unwrap();
    let models = tempfile::tempdir().unwrap();
    write_test_model(src.path(), TestSegmentation::OneSpeaker).unwrap();
    let p = src.path().join("wespeaker-multimask-tail.safetensors");
    let bytes = std::fs::read(&p).unwrap();
    std::fs::write(&p, &bytes[..bytes.len() - 4096]).unwrap();
    let e = err(install(src.path(), models.path()));
    assert!(e.contains("wespeaker-multimask-tail.safetensors is not usable (truncated"), "{e}");
    assert!(e.contains("download it again"), "{e}");
    assert!(!installed_dir(models.path()).exists());
}

#[test]
fn a_wrong_hash_is_refused_pinned_or_published() {
    let src = tempfile::tempdir().unwrap();
    let models = tempfile::tempdir().unwrap();
    write_test_model(src.path(), TestSegmentation::OneSpeaker).unwrap();
    let wrong = "0".repeat(64);
    // Against the value the server publishes for the pinned revision.
    let published: BTreeMap<String, (String, u64)> =
        [("plda_tr.npy".to_owned(), (wrong.clone(), 0))].into();
    let e = err(install_from_dir(src.path(), models.path(), &PYANNOTE_FILES, &published));
    let tr = sha256_hex(&std::fs::read(src.path().join("plda_tr.npy")).unwrap());
    assert!(e.contains(&format!("plda_tr.npy has SHA-256 {tr}, expected {wrong}")), "{e}");
    assert!(e.contains("published for the pinned revision"), "{e}");
    // Against a hash pinned in the file table.
    let mut pinned = PYANNOTE_FILES;
    pinned[3] = ModelFile {
        sha256: Some("00000000000000000000000000000000000000000000000000000000000000ff"),
        ..pinned[3]
    };
    assert_eq!(pinned[3].name, "plda_tr.npy");
    let e = err(install_from_dir(src.path(), models.path(), &pinned, &BTreeMap::new()));
    assert!(e.contains("pinned in overtalk"), "{e}");
    assert!(!is_installed(models.path()));
    // The right pins pass.
    let files = test_model_files(TestSegmentation::OneSpeaker);
    let right: Vec<ModelFile> = PYANNOTE_FILES
        .iter()
        .map(|f| {
            let b = &files.iter().find(|(n, _)| *n == f.name).unwrap().1;
            ModelFile { sha256: Some(Box::leak(sha256_hex(b).into_boxed_str())), ..*f }
        })
        .collect();
    install_from_dir(src.path(), models.path(), &right, &BTreeMap::new()).unwrap();
    overtalk_audio::diarize::pyannote::verify_installed_with(&installed_dir(models.path()), &right)
        .unwrap();
    let e = err(overtalk_audio::diarize::pyannote::verify_installed_with(
        &installed_dir(models.path()),
        &pinned,
    ));
    assert!(e.contains("expected the pinned 0000"), "{e}");
}

#[test]
fn an_installation_changed_afterwards_is_refused_at_load() {
    let src = tempfile::tempdir().unwrap();
    let models = tempfile::tempdir().unwrap();
    write_test_model(src.path(), TestSegmentation::OneSpeaker).unwrap();
    let dir = install(src.path(), models.path()).unwrap();
    let p = dir.join("segmentation-3.0.safetensors");
    let b = std::fs::read(&p).unwrap();
    std::fs::write(&p, &b[..b.len() / 2]).unwrap();
    let e = err(verify_installed(&dir));
    assert!(e.contains("but") && e.contains("was installed (changed or truncated since)"), "{e}");
    assert!(e.contains("segmentation-3.0.safetensors into"), "{e}");
    std::fs::remove_file(&p).unwrap();
    let e = err(verify_installed(&dir));
    assert!(e.contains("segmentation-3.0.safetensors is missing"), "{e}");
    std::fs::remove_file(dir.join(MANIFEST_FILE)).unwrap();
    let e = err(verify_installed(&dir));
    assert!(e.contains("the pyannote model is not installed"), "{e}");
    assert!(e.contains("overtalk models install pyannote --from DIR"), "{e}");
}

#[test]
fn oversized_files_are_not_read() {
    let f = PYANNOTE_FILES[8];
    let e = err(check_file(&f, &[b'1'; 65], None));
    assert!(e.contains("65 bytes, more than the 64 accepted"), "{e}");
    let e = err(check_file(&f, b"0\n", None));
    assert!(e.contains("expected a positive whole number"), "{e}");
}

#[cfg(feature = "pyannote")]
mod diarize {
    use super::*;
    use overtalk_audio::diarize::pyannote::{PyannoteDiarizer, PYANNOTE_REVISION};
    use overtalk_audio::diarize::Diarizer;

    fn installed(seg: TestSegmentation) -> (tempfile::TempDir, std::path::PathBuf) {
        let src = tempfile::tempdir().unwrap();
        let models = tempfile::tempdir().unwrap();
        write_test_model(src.path(), seg).unwrap();
        let dir = install(src.path(), models.path()).unwrap();
        (models, dir)
    }

    /// 16 kHz test signal: a chirp-like tone with pauses (the values matter little: the test
    /// model's segmentation is fixed).
    fn signal(seconds: f32) -> Vec<f32> {
        let n = (seconds * 16_000.0) as usize;
        (0..n)
            .map(|i| {
                let t = i as f32 / 16_000.0;
                let on = (t as usize) % 3 != 2;
                if on {
                    0.3 * (2.0 * std::f32::consts::PI * (150.0 + 40.0 * t) * t).sin()
                } else {
                    0.0
                }
            })
            .collect()
    }

    #[test]
    fn speakrs_pins_the_same_files_and_revision() {
        assert_eq!(speakrs::models::MODEL_REVISION, PYANNOTE_REVISION);
        let mut theirs = speakrs::models::required_model_files(speakrs::ExecutionMode::Cpu);
        theirs.sort();
        let mut ours: Vec<String> = PYANNOTE_FILES.iter().map(|f| f.name.to_owned()).collect();
        ours.sort();
        assert_eq!(ours, theirs);
    }

    #[test]
    fn one_speaker_throughout_is_found_with_its_method() {
        let (_keep, dir) = installed(TestSegmentation::OneSpeaker);
        let d = PyannoteDiarizer::load(&dir).unwrap();
        let x = signal(11.5);
        let out = d.diarize(&x).unwrap();
        assert_eq!(out.method, d.describe());
        assert!(out.method.starts_with("pyannote (speakrs 0.7.0, native CPU"), "{}", out.method);
        assert!(out.method.contains("avencera/speakrs-models at 67f963b6a1d9"), "{}", out.method);
        assert!(out.method.contains("overlap modelled"), "{}", out.method);
        assert_eq!(out.speakers, 1);
        let tracks = out.annotation.tracks();
        assert_eq!(tracks.len(), 1, "{tracks:?}");
        assert_eq!(out.annotation.speaker_name(tracks[0].speaker), "SPK00");
        // From the centre of the first segmentation frame (half its 991-sample receptive
        // field: 30.969 ms) to the end of the signal.
        assert_eq!(tracks[0].segment.start().micros(), 30_969, "{tracks:?}");
        assert_eq!(tracks[0].segment.end().micros(), 11_500_000, "{tracks:?}");
        // Deterministic, and the same fed block by block.
        let mut s = d.stream();
        for block in x.chunks(4_001) {
            s.push(block);
        }
        assert_eq!(d.finish(s.finish()).unwrap(), out);
    }

    #[test]
    fn silence_everywhere_gives_no_speaker() {
        let (_keep, dir) = installed(TestSegmentation::Silence);
        let d = PyannoteDiarizer::load(&dir).unwrap();
        let out = d.diarize(&signal(4.0)).unwrap();
        assert_eq!(out.speakers, 0);
        assert_eq!(out.annotation.tracks().len(), 0);
        // Empty and very short input are not errors.
        assert_eq!(d.diarize(&[]).unwrap().speakers, 0);
        let short = d.diarize(&signal(0.05)).unwrap();
        assert!(short.annotation.tracks().iter().all(|t| t.segment.end().micros() <= 50_000));
    }

    #[test]
    fn a_tensor_of_the_wrong_shape_is_a_load_error() {
        let src = tempfile::tempdir().unwrap();
        let models = tempfile::tempdir().unwrap();
        write_test_model(src.path(), TestSegmentation::OneSpeaker).unwrap();
        // A well-formed file whose classifier has 6 classes instead of 7.
        let mut seg = overtalk_audio::diarize::pyannote::segmentation_tensors();
        for t in &mut seg {
            if t.0 == "classifier.bias" {
                t.1 = vec![6];
            }
        }
        let bytes = overtalk_audio::diarize::pyannote::safetensors_bytes(&seg, &|_, _, _| 0.01);
        std::fs::write(src.path().join("segmentation-3.0.safetensors"), bytes).unwrap();
        let dir = install(src.path(), models.path()).unwrap();
        let e = PyannoteDiarizer::load(&dir).unwrap_err().to_string();
        assert!(e.contains("speakrs could not load the pyannote model"), "{e}");
        assert!(e.contains("classifier.bias"), "{e}");
        assert!(e.contains("overtalk models install pyannote"), "{e}");
    }
}
