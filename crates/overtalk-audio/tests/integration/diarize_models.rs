//! Model installation and the GE2E forward pass against a NumPy reference. These need the
//! Resemblyzer 0.1.4 wheel (never committed): set `OVERTALK_RESEMBLYZER_WHEEL=FILE.whl`
//! (fetch it with `pip download --no-deps resemblyzer==0.1.4`); without it they are skipped.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use overtalk_audio::diarize::embed::{Ge2eWeights, N_MELS};
use overtalk_audio::diarize::models::{install_ge2e_from_wheel, read_safetensors_file, sha256_hex};

fn wheel(test: &str) -> Option<PathBuf> {
    match std::env::var_os("OVERTALK_RESEMBLYZER_WHEEL") {
        Some(p) => Some(PathBuf::from(p)),
        None => {
            eprintln!("skipping {test}: OVERTALK_RESEMBLYZER_WHEEL is not set");
            None
        }
    }
}

#[test]
fn converted_encoder_matches_numpy_reference() {
    let Some(w) = wheel("converted_encoder_matches_numpy_reference") else { return };
    let dir = tempfile::tempdir().unwrap();
    let path = install_ge2e_from_wheel(&w, dir.path()).unwrap();
    let tensors = read_safetensors_file(&path).unwrap();
    // Only the network's weights are kept (no optimizer state, no similarity scalars).
    assert_eq!(tensors.len(), 14);
    let weights = Ge2eWeights::load(&path).unwrap();
    // mels[b][t][m] = ((7b + 3t + m) mod 11) / 10, the input given to
    // shared/tools/ge2e_convert.py's forward_numpy, which printed these values.
    let mels: Vec<Vec<[f32; N_MELS]>> = (0..2)
        .map(|b| {
            (0..160)
                .map(|t| {
                    let mut r = [0.0f32; N_MELS];
                    for (m, v) in r.iter_mut().enumerate() {
                        *v = ((b * 7 + t * 3 + m) % 11) as f32 / 10.0;
                    }
                    r
                })
                .collect()
        })
        .collect();
    let views: Vec<&[[f32; N_MELS]]> = mels.iter().map(|m| m.as_slice()).collect();
    let e = weights.embed(&views);
    let want0 = [(4, 0.099_869_03), (8, 0.131_802_19), (10, 0.229_818_63), (15, 0.064_080_32)];
    let want1 = [(4, 0.082_138_75), (8, 0.124_504_8), (10, 0.242_168_68), (15, 0.068_958_16)];
    for ((i, a), (_, b)) in want0.iter().zip(&want1) {
        assert!((e[0][*i] - a).abs() < 1e-5, "{i}: {} vs {a}", e[0][*i]);
        assert!((e[1][*i] - b).abs() < 1e-5, "{i}: {} vs {b}", e[1][*i]);
    }
    assert_eq!(e[0][0], 0.0);
    let dot: f32 = e[0].iter().zip(&e[1]).map(|(x, y)| x * y).sum();
    assert!((dot - 0.993_876_46).abs() < 1e-5, "{dot}");
}

#[test]
fn corrupt_and_wrong_files_give_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    // Not a wheel.
    let junk = dir.path().join("junk.whl");
    std::fs::write(&junk, b"not a zip").unwrap();
    let e = install_ge2e_from_wheel(&junk, dir.path()).unwrap_err();
    assert!(e.to_string().contains("not a zip archive"), "{e}");
    // The zip reader's error is kept as the cause.
    assert!(std::error::Error::source(&e).is_some(), "{e}");
    // A missing model file.
    let e = Ge2eWeights::load(&dir.path().join("ge2e.safetensors")).unwrap_err().to_string();
    assert!(e.contains("ge2e.safetensors"), "{e}");
    // A truncated model file.
    let bad = dir.path().join("bad.safetensors");
    std::fs::write(&bad, [8u8, 0, 0, 0, 0, 0, 0, 0, b'{', b'}']).unwrap();
    let e = Ge2eWeights::load(&bad).unwrap_err().to_string();
    assert!(e.contains("truncated header"), "{e}");
    // A valid safetensors file of the wrong shape.
    let t = vec![overtalk_audio::diarize::models::Tensor {
        name: "lstm.weight_ih_l0".into(),
        shape: vec![2],
        data: vec![0.0, 1.0],
    }];
    let bytes = overtalk_audio::diarize::models::write_safetensors(&t, &[]).unwrap();
    std::fs::write(&bad, bytes).unwrap();
    let e = Ge2eWeights::load(&bad).unwrap_err().to_string();
    assert!(e.contains("has shape [2], expected [1024, 40]"), "{e}");
    if let Some(w) = wheel("corrupt_and_wrong_files_give_clear_errors (wheel part)") {
        // A wheel whose pretrained.pt differs from the pinned hash is refused.
        let bytes = std::fs::read(&w).unwrap();
        assert_eq!(sha256_hex(&bytes), overtalk_audio::diarize::models::RESEMBLYZER_WHEEL_SHA256);
    }
}
