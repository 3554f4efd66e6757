//! The behavioural suite every voice activity backend must pass (one `vad_suite!` per backend).

// Helpers outside `#[test]` functions unwrap too: a panic is a failed test.
#![allow(clippy::unwrap_used)]

#[cfg(feature = "onnx")]
use crate::onnx_writer;

use std::path::PathBuf;

use overtalk::{Delta, Segment};
use overtalk_audio::decode::{decode_all, DecodeOptions};
use overtalk_audio::frames::Binarize;
use overtalk_audio::vad::{probabilities, speech_region, VadKind};

/// The committed speech clip and its true speech extent (the non-zero samples).
fn speech() -> (Vec<f32>, Segment) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/speech.wav");
    let (info, ch) = decode_all(&path, &DecodeOptions::default()).unwrap();
    assert_eq!(info.sample_rate, 16_000);
    let x = ch.into_iter().next().unwrap();
    let first = x.iter().position(|v| *v != 0.0).unwrap() as i64;
    let last = x.iter().rposition(|v| *v != 0.0).unwrap() as i64 + 1;
    (x, Segment::from_micros(first * 1_000_000 / 16_000, last * 1_000_000 / 16_000).unwrap())
}

/// Deterministic white noise with the given RMS.
fn noise(n: usize, rms: f32, seed: u64) -> Vec<f32> {
    let mut s = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let u = ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0;
            u * rms * 3f32.sqrt()
        })
        .collect()
}

fn rms(x: &[f32]) -> f32 {
    (x.iter().map(|v| v * v).sum::<f32>() / x.len() as f32).sqrt()
}

/// Whether a backend's model is at hand: always for the built-in backends; for those that need
/// an installed model, a printed skip when it is absent (a failure when
/// `OVERTALK_REQUIRE_MODELS=1`, as in CI).
fn ready(kind: VadKind, test: &str) -> bool {
    match kind.try_build() {
        Ok(_) => true,
        Err(e) if std::env::var_os("OVERTALK_REQUIRE_MODELS").is_some_and(|v| v == "1") => {
            panic!("{test}: the {} model is required (OVERTALK_REQUIRE_MODELS=1): {e}", kind.name())
        }
        Err(e) => {
            eprintln!("skipping {test}: {e}");
            false
        }
    }
}

macro_rules! vad_suite {
    ($module:ident, $kind:expr) => {
        mod $module {
            use super::*;

            fn kind() -> VadKind {
                $kind
            }

            #[test]
            fn digital_silence_is_not_speech() {
                if !ready(kind(), "digital_silence_is_not_speech") {
                    return;
                }
                let r = speech_region(kind().build(), &vec![0.0; 48_000], &Binarize::default());
                assert!(r.is_empty(), "{r:?}");
            }

            #[test]
            fn stationary_noise_is_not_speech() {
                if !ready(kind(), "stationary_noise_is_not_speech") {
                    return;
                }
                let x = noise(80_000, 0.01, 1);
                let r = speech_region(kind().build(), &x, &Binarize::default());
                // At most a tenth of five seconds.
                assert!(r.duration() < Delta::from_micros(500_000), "{:?}", r.duration());
            }

            #[test]
            fn speech_is_found_where_it_is() {
                if !ready(kind(), "speech_is_found_where_it_is") {
                    return;
                }
                let (x, truth) = speech();
                let r = speech_region(kind().build(), &x, &Binarize::default());
                let inside = r.crop_segment(truth).duration();
                let outside = Delta::from_micros(r.duration().micros() - inside.micros());
                assert!(
                    inside.micros() * 10 >= truth.duration().micros() * 8,
                    "found {inside:?} of {truth:?}"
                );
                assert!(outside < Delta::from_micros(400_000), "{outside:?} outside the speech");
                let first = r.iter().next().unwrap().start();
                assert!(
                    (first.micros() - truth.start().micros()).abs() <= 200_000,
                    "onset {first:?} vs {truth:?}"
                );
            }

            #[test]
            fn speech_in_noise_at_20_db_snr_is_found() {
                if !ready(kind(), "speech_in_noise_at_20_db_snr_is_found") {
                    return;
                }
                let (mut x, truth) = speech();
                let level = rms(&x[16_000..x.len() - 16_000]) / 10.0;
                let added = noise(x.len(), level, 7);
                for (v, n) in x.iter_mut().zip(added) {
                    *v += n;
                }
                let r = speech_region(kind().build(), &x, &Binarize::default());
                let inside = r.crop_segment(truth).duration();
                assert!(
                    inside.micros() * 10 >= truth.duration().micros() * 7,
                    "found {inside:?} of {truth:?}"
                );
                assert!(
                    Delta::from_micros(r.duration().micros() - inside.micros())
                        < Delta::from_micros(600_000)
                );
            }

            #[test]
            fn probabilities_stay_in_range_for_any_input() {
                if !ready(kind(), "probabilities_stay_in_range_for_any_input") {
                    return;
                }
                let mut x = vec![f32::NAN; 1000];
                x.extend(vec![f32::INFINITY; 1000]);
                x.extend(vec![1e30; 1000]);
                x.extend((0..4000).map(|i| if (i / 20) % 2 == 0 { 1.0 } else { -1.0 }));
                x.extend(vec![0.0; 7]);
                let p = probabilities(kind().build(), &x);
                let frames = kind().build().frame_samples();
                assert_eq!(p.len(), x.len().div_ceil(frames));
                assert!(p.iter().all(|v| (0.0..=1.0).contains(v)), "{p:?}");
            }

            #[test]
            fn reset_makes_runs_repeatable() {
                if !ready(kind(), "reset_makes_runs_repeatable") {
                    return;
                }
                let (x, _) = speech();
                let mut vad = kind().build();
                let n = vad.frame_samples();
                let run = |vad: &mut Box<dyn overtalk_audio::vad::Vad>| -> Vec<f32> {
                    x.chunks_exact(n).map(|f| vad.predict(f)).collect()
                };
                let a = run(&mut vad);
                vad.reset();
                let b = run(&mut vad);
                assert_eq!(a, b);
                assert_eq!(vad.name(), kind().name());
            }
        }
    };
}

vad_suite!(earshot, VadKind::Earshot);
vad_suite!(energy, VadKind::Energy);
#[cfg(feature = "onnx")]
vad_suite!(silero, VadKind::Silero);

/// Models with the Silero sequence interface: a tiny energy model written here byte by byte
/// (so the user-model path is tested on a bare clone), files that break the interface, and the
/// installed Silero model's batching and state handling.
#[cfg(feature = "onnx")]
mod onnx_models {
    use super::*;
    use onnx_writer::{model, node, scalar, value, D};
    use overtalk_audio::vad::silero::{SileroModel, SileroVad, CHUNK, ROW};
    use overtalk_audio::vad::Vad;
    use std::sync::Arc;

    const STATE: [D; 3] = [D::N(1), D::N(1), D::N(128)];

    /// p = sigmoid(40 · mean|row| − 2) for each row; the state passes through unchanged.
    /// `row` is the declared row length, `h` the declared state shape, `sigmoid` whether the
    /// output is squashed, `wide` whether output 0 is [N, 576] instead of [N, 1].
    fn energy_model(row: i64, h: &[D], sigmoid: bool, wide: bool) -> Vec<u8> {
        let mut nodes = vec![
            node("Abs", &["input"], &["a"], None),
            node("ReduceMean", &["a"], &["m"], Some(&[1])),
            node("Mul", &["m", "k"], &["s"], None),
            node("Sub", &["s", "b"], &["z"], None),
            node("Identity", &["h"], &["hn"], None),
            node("Identity", &["c"], &["cn"], None),
        ];
        let p = if wide { "a" } else { "z" };
        if sigmoid {
            nodes.push(node("Sigmoid", &[p], &["output"], None));
        } else {
            nodes.push(node("Identity", &[p], &["output"], None));
        }
        model(
            &[value("input", &[D::P("N"), D::N(row)]), value("h", h), value("c", &STATE)],
            &[
                value("output", &[D::P("N"), D::N(if wide { row } else { 1 })]),
                value("hn", h),
                value("cn", &STATE),
            ],
            &nodes,
            &[scalar("k", 40.0), scalar("b", 2.0)],
        )
    }

    fn write(dir: &std::path::Path, name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let p = dir.join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    }

    fn sigmoid(z: f64) -> f64 {
        1.0 / (1.0 + (-z).exp())
    }

    #[test]
    fn a_user_model_with_the_interface_runs_with_context_rows() {
        let dir = tempfile::tempdir().unwrap();
        let path = write(dir.path(), "energy.onnx", &energy_model(576, &STATE, true, false));
        let model = Arc::new(SileroModel::load(&path).unwrap());
        assert_eq!(model.source(), path.as_path());
        let mut vad = SileroVad::new(Arc::clone(&model));
        // Three chunks of a constant 0.05. Row 0 has 64 zeros of context, so its mean is
        // 0.05 · 512/576; later rows see 0.05 everywhere.
        let x = vec![0.05f32; 3 * CHUNK];
        let mut p = Vec::new();
        vad.predict_many(&x, &mut p);
        let first = sigmoid(40.0 * 0.05 * 512.0 / 576.0 - 2.0);
        assert_eq!(p.len(), 3);
        assert!((f64::from(p[0]) - first).abs() < 1e-5, "{p:?} vs {first}");
        assert!((p[1] - 0.5).abs() < 1e-5, "{p:?}");
        assert!((p[2] - 0.5).abs() < 1e-5, "{p:?}");
        // The context carries across calls and batch sizes; reset forgets it.
        vad.reset();
        let one: Vec<f32> = x.chunks(CHUNK).map(|f| vad.predict(f)).collect();
        assert_eq!(one, p);
        // Non-finite and out-of-range samples are cleaned: NaN is 0, 3.0 is 1.0.
        vad.reset();
        let mut y = vec![f32::NAN; CHUNK];
        y.extend(vec![3.0; CHUNK]);
        let mut q = Vec::new();
        vad.predict_many(&y, &mut q);
        assert!((f64::from(q[0]) - sigmoid(-2.0)).abs() < 1e-5, "{q:?}");
        assert!((f64::from(q[1]) - sigmoid(40.0 * 512.0 / 576.0 - 2.0)).abs() < 1e-5, "{q:?}");
        // Through the runner: one probability per started 512-sample frame.
        let p = probabilities(Box::new(SileroVad::new(model)), &vec![0.05; 40 * CHUNK + 7]);
        assert_eq!(p.len(), 41);
        assert!((p[40] - sigmoid(40.0 * 0.05 * 71.0 / 576.0 - 2.0) as f32).abs() < 1e-5);
    }

    #[test]
    fn files_that_break_the_interface_are_refused_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let err = |bytes: &[u8]| -> String {
            let p = write(dir.path(), "bad.onnx", bytes);
            let e = SileroModel::load(&p).unwrap_err().to_string();
            assert!(e.contains("bad.onnx"), "{e}");
            e
        };
        // Missing.
        let e = SileroModel::load(&dir.path().join("absent.onnx")).unwrap_err().to_string();
        assert!(e.contains("absent.onnx"), "{e}");
        // Not ONNX at all, and a truncated file.
        let e = err(b"this is not a model");
        assert!(e.contains("not a readable ONNX model"), "{e}");
        // The runtime's error is kept as the cause (its message is already in the text).
        let p = write(dir.path(), "bad.onnx", b"this is not a model");
        let e = SileroModel::load(&p).unwrap_err();
        assert!(std::error::Error::source(&e).is_some(), "{e}");
        let good = energy_model(576, &STATE, true, false);
        let e = err(&good[..good.len() / 2]);
        assert!(e.contains("not a readable ONNX model"), "{e}");
        // One input instead of three.
        let one = model(
            &[value("input", &[D::P("N"), D::N(576)])],
            &[value("output", &[D::P("N"), D::N(576)])],
            &[node("Identity", &["input"], &["output"], None)],
            &[],
        );
        let e = err(&one);
        assert!(e.contains("it has 1 input where 3 are expected"), "{e}");
        assert!(e.contains("input [N, 576], h [1, 1, 128], c [1, 1, 128]"), "{e}");
        // Rows of 512 samples (no context).
        let e = err(&energy_model(512, &STATE, true, false));
        assert!(
            e.contains("input 0 (input): declared shape [N, 512], expected input [N, 576]"),
            "{e}"
        );
        // A smaller state.
        let e = err(&energy_model(576, &[D::N(1), D::N(1), D::N(64)], true, false));
        assert!(
            e.contains("input 1 (h): declared shape [1, 1, 64], expected h [1, 1, 128]"),
            "{e}"
        );
        // One score per sample instead of per chunk.
        let e = err(&energy_model(576, &STATE, true, true));
        assert!(
            e.contains("output 0 has shape [3, 576] for 3 chunks, expected [3, 1] or [3]"),
            "{e}"
        );
        // Logits instead of probabilities.
        let e = err(&energy_model(576, &STATE, false, false));
        assert!(e.contains("not a probability in [0, 1]"), "{e}");
        // A directory.
        let e = SileroModel::load(dir.path()).unwrap_err().to_string();
        assert!(e.contains("not a file"), "{e}");
    }

    #[test]
    fn the_silero_model_gives_the_same_scores_however_the_stream_is_split() {
        if !ready(
            VadKind::Silero,
            "the_silero_model_gives_the_same_scores_however_the_stream_is_split",
        ) {
            return;
        }
        let (x, _) = speech();
        let whole = probabilities(VadKind::Silero.build(), &x);
        // Frame by frame, with the state carried between calls.
        let mut vad = VadKind::Silero.build();
        let mut single: Vec<f32> = x.chunks(CHUNK).map(|f| vad.predict(f)).collect();
        if x.len() % CHUNK != 0 {
            // `predict` pads a short last frame with zeros, as the runner does.
            assert_eq!(single.len(), whole.len());
        }
        single.truncate(whole.len());
        assert_eq!(single.len(), whole.len());
        for (a, b) in whole.iter().zip(&single) {
            assert!((a - b).abs() < 1e-5, "{a} vs {b}");
        }
        // Pushed in odd-sized blocks.
        let mut r = overtalk_audio::vad::VadRunner::new(VadKind::Silero.build());
        let mut blocks = Vec::new();
        for b in x.chunks(1234) {
            r.push(b, &mut |p| blocks.push(p));
        }
        r.finish(&mut |p| blocks.push(p));
        assert_eq!(blocks, whole);
        assert_eq!(ROW, 576);
    }

    #[test]
    fn the_silero_model_matches_onnxruntime() {
        if !ready(VadKind::Silero, "the_silero_model_matches_onnxruntime") {
            return;
        }
        let (x, _) = speech();
        let p = probabilities(VadKind::Silero.build(), &x);
        assert_eq!(p.len(), 162);
        // onnxruntime 1.32.0 on the same file: all 162 rows (with the 64-sample context, the
        // last chunk zero-padded) in one call from a zero state.
        let want = [
            (0, 0.001_669_794_3),
            (10, 0.005_048_305),
            (40, 0.998_301_7),
            (80, 0.999_639_8),
            (120, 0.999_983_8),
            (150, 0.012_581_915),
            (161, 0.010_959_238),
        ];
        for (i, w) in want {
            assert!((p[i] - w).abs() < 1e-4, "chunk {i}: {} vs onnxruntime {w}", p[i]);
        }
    }
}
