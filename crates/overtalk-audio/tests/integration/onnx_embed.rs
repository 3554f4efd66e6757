//! Speaker-embedding models from ONNX files (feature `onnx`): the Kaldi fbank front end against
//! kaldi-native-fbank, both interfaces run on small models written byte by byte, and the errors
//! for files that do not fit.
#![cfg(feature = "onnx")]
#![allow(clippy::unwrap_used)]

use crate::onnx_writer;

use std::path::PathBuf;

use onnx_writer::{model, node, node_keep, value, D};
use overtalk_audio::decode::{decode_all, DecodeOptions};
use overtalk_audio::diarize::onnx_embed::{fbank_frames, EmbeddingInput, Fbank, OnnxEmbedder};

fn speech() -> Vec<f32> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/speech.wav");
    decode_all(&path, &DecodeOptions::default()).unwrap().1.into_iter().next().unwrap()
}

#[test]
fn fbank_matches_kaldi_native_fbank() {
    // kaldi-native-fbank 1.22 (FbankOptions: dither 0, 80 bins, snip_edges, defaults otherwise)
    // on samples 16000..32000 of speech.wav × 32768 printed these values.
    let x = speech();
    let f = Fbank::new().compute(&x[16_000..32_000], false);
    assert_eq!(fbank_frames(16_000), 98);
    assert_eq!(f.len(), 98 * 80);
    let want = [
        (0, 0, 11.464_879),
        (0, 10, 15.925_252),
        (50, 40, 18.666_796),
        (97, 79, 19.013_098),
        (20, 5, 17.107_44),
        (70, 60, 18.129_465),
    ];
    for (t, b, w) in want {
        let got = f[t * 80 + b];
        assert!((got - w).abs() < 2e-3, "frame {t} bin {b}: {got} vs {w}");
    }
    // With the mean over frames removed.
    let c = Fbank::new().compute(&x[16_000..32_000], true);
    for (t, b, w) in [(0, 0, -0.264_946_94), (50, 40, 4.240_437_5), (97, 79, 5.121_109)] {
        let got = c[t * 80 + b];
        assert!((got - w).abs() < 2e-3, "frame {t} bin {b}: {got} vs {w}");
    }
    assert_eq!(fbank_frames(399), 0);
    assert_eq!(fbank_frames(400), 1);
    assert_eq!(fbank_frames(559), 1);
    assert_eq!(fbank_frames(560), 2);
}

fn write(dir: &std::path::Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// waveform [B, S] → mean |x| over S, kept as [B, 1].
fn waveform_model(keep: bool) -> Vec<u8> {
    model(
        &[value("waveform", &[D::P("B"), D::P("S")])],
        &[value("embedding", &if keep { vec![D::P("B"), D::N(1)] } else { vec![D::P("B")] })],
        &[
            node("Abs", &["waveform"], &["a"], None),
            node_keep("ReduceMean", &["a"], &["embedding"], Some(&[1]), Some(i64::from(keep))),
        ],
        &[],
    )
}

/// fbank [B, T, 80] → mean |feature| over T: [B, 80].
fn fbank_model() -> Vec<u8> {
    model(
        &[value("feats", &[D::P("B"), D::P("T"), D::N(80)])],
        &[value("embedding", &[D::P("B"), D::N(80)])],
        &[
            node("Abs", &["feats"], &["a"], None),
            node_keep("ReduceMean", &["a"], &["embedding"], Some(&[1]), Some(0)),
        ],
        &[],
    )
}

#[test]
fn a_waveform_model_embeds_each_window_in_its_place() {
    let dir = tempfile::tempdir().unwrap();
    let m = OnnxEmbedder::load(&write(dir.path(), "w.onnx", &waveform_model(true))).unwrap();
    assert_eq!(m.input(), EmbeddingInput::Waveform);
    assert_eq!(m.dim(), 1);
    // Windows of two lengths, interleaved: each result stays in its place.
    let a = vec![0.5f32; 8000];
    let b = vec![-0.25f32; 4000];
    let c = vec![0.125f32; 8000];
    let mut d = vec![0.0f32; 4000];
    d[0] = f32::NAN; // cleaned to silence
    d[1] = 4.0; // clamped to 1
    let e = m.embed(&[&a, &b, &c, &d]).unwrap();
    assert_eq!(e.len(), 4);
    assert!((e[0][0] - 0.5).abs() < 1e-6, "{e:?}");
    assert!((e[1][0] - 0.25).abs() < 1e-6, "{e:?}");
    assert!((e[2][0] - 0.125).abs() < 1e-6, "{e:?}");
    assert!((e[3][0] - 1.0 / 4000.0).abs() < 1e-7, "{e:?}");
    // 40 windows: more than one batch.
    let many: Vec<Vec<f32>> = (0..40).map(|i| vec![i as f32 / 100.0; 1600]).collect();
    let views: Vec<&[f32]> = many.iter().map(Vec::as_slice).collect();
    let e = m.embed(&views).unwrap();
    for (i, v) in e.iter().enumerate() {
        assert!((v[0] - i as f32 / 100.0).abs() < 1e-5, "{i}: {v:?}");
    }
    assert!(m.embed(&[]).unwrap().is_empty());
}

#[test]
fn an_fbank_model_gets_kaldi_features() {
    let dir = tempfile::tempdir().unwrap();
    let m = OnnxEmbedder::load(&write(dir.path(), "f.onnx", &fbank_model())).unwrap();
    assert_eq!(m.input(), EmbeddingInput::Fbank);
    assert_eq!(m.dim(), 80);
    let x = speech();
    let w = &x[16_000..32_000];
    let e = m.embed(&[w]).unwrap();
    let f = Fbank::new().compute(w, true);
    for b in [0, 40, 79] {
        let want = (0..98).map(|t| f[t * 80 + b].abs()).sum::<f32>() / 98.0;
        assert!((e[0][b] - want).abs() < 1e-4, "bin {b}: {} vs {want}", e[0][b]);
    }
    // Shorter than one 25 ms frame.
    let err = m.embed(&[&x[..399]]).unwrap_err().to_string();
    assert!(err.contains("shorter than one 25 ms frame"), "{err}");
}

#[test]
fn embedding_files_that_do_not_fit_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let err = |bytes: &[u8]| -> String {
        let p = write(dir.path(), "bad.onnx", bytes);
        let e = OnnxEmbedder::load(&p).unwrap_err().to_string();
        assert!(e.contains("bad.onnx"), "{e}");
        e
    };
    let e = err(b"junk");
    assert!(e.contains("not a readable ONNX model"), "{e}");
    let e = OnnxEmbedder::load(&dir.path().join("none.onnx")).unwrap_err().to_string();
    assert!(e.contains("none.onnx"), "{e}");
    // One score per window instead of a vector.
    let e = err(&waveform_model(false));
    assert!(e.contains("output 0 has shape [2] for 2 windows, expected [2, D]"), "{e}");
    // A rank-4 input.
    let four = model(
        &[value("x", &[D::P("B"), D::N(1), D::P("T"), D::N(80)])],
        &[value("y", &[D::P("B"), D::N(1), D::P("T"), D::N(80)])],
        &[node("Identity", &["x"], &["y"], None)],
        &[],
    );
    let e = err(&four);
    assert!(
        e.contains(
            "input 0 has rank 4 (last dimension 80); expected waveform [B, S] or fbank [B, T, 80]"
        ),
        "{e}"
    );
    // 64 mel bins.
    let small = model(
        &[value("x", &[D::P("B"), D::P("T"), D::N(64)])],
        &[value("y", &[D::P("B"), D::N(64)])],
        &[node_keep("ReduceMean", &["x"], &["y"], Some(&[1]), Some(0))],
        &[],
    );
    let e = err(&small);
    assert!(e.contains("rank 3 (last dimension 64)"), "{e}");
    // Two inputs.
    let two = model(
        &[value("a", &[D::P("B"), D::P("S")]), value("b", &[D::P("B"), D::P("S")])],
        &[value("y", &[D::P("B"), D::P("S")])],
        &[node("Add", &["a", "b"], &["y"], None)],
        &[],
    );
    let e = err(&two);
    assert!(e.contains("it has 2 inputs where 1 are expected"), "{e}");
}

/// Two synthetic "voices": syllable-rate bursts in a low band and in a high band.
fn two_voices() -> (Vec<f32>, Vec<(f64, f64, usize)>) {
    let turns = [(0.5, 5.0, 0), (5.5, 10.0, 1), (10.5, 15.0, 0), (15.5, 20.0, 1)];
    let bands: [&[f32]; 2] = [&[310.0, 455.0, 620.0, 810.0], &[2050.0, 2630.0, 3310.0, 3900.0]];
    // A quiet noise floor, so the pauses are not digital silence.
    let mut seed = 12_345u32;
    let mut x: Vec<f32> = (0..16_000 * 21)
        .map(|_| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / 16_777_216.0 * 0.004 - 0.002
        })
        .collect();
    for &(a, b, who) in &turns {
        for (i, s) in
            x.iter_mut().enumerate().take((b * 16_000.0) as usize).skip((a * 16_000.0) as usize)
        {
            let t = i as f32 / 16_000.0;
            let env = (0.5 + 0.5 * (std::f32::consts::TAU * 4.0 * t).sin()).powi(2);
            let tone: f32 = bands[who]
                .iter()
                .enumerate()
                .map(|(k, f)| (std::f32::consts::TAU * f * t + k as f32).sin())
                .sum();
            *s += 0.1 * env * tone;
        }
    }
    (x, turns.to_vec())
}

#[test]
fn the_diarizer_runs_on_an_onnx_speaker_model() {
    use overtalk_audio::diarize::cluster::SpeakerCount;
    use overtalk_audio::diarize::{DiarizeOptions, Diarizer, Ge2eDiarizer};
    use overtalk_audio::vad::VadKind;
    let m = OnnxEmbedder::from_bytes(&fbank_model()).unwrap();
    let options = DiarizeOptions {
        vad: VadKind::Energy,
        count: SpeakerCount { exact: Some(2), ..SpeakerCount::default() },
        ..DiarizeOptions::default()
    };
    let d = Ge2eDiarizer::with_embedder(Box::new(m), options);
    assert!(d.describe().contains("ONNX fbank model"), "{}", d.describe());
    let (x, turns) = two_voices();
    let out = d.diarize(&x).unwrap();
    assert_eq!(out.speakers, 2);
    // Each turn is at least 90 % one speaker; turns 1 and 3 share one, 2 and 4 the other.
    let mut majority = Vec::new();
    for &(a, b, _) in &turns {
        let mut per = [0.0f64; 2];
        for t in out.annotation.tracks() {
            let (s, e) = (t.segment.start().as_secs_f64(), t.segment.end().as_secs_f64());
            per[t.speaker.index()] += (e.min(b) - s.max(a)).max(0.0);
        }
        let best = usize::from(per[1] > per[0]);
        assert!(per[best] >= 0.9 * (b - a), "turn {a}–{b}: {per:?}");
        majority.push(best);
    }
    assert_eq!(majority[0], majority[2]);
    assert_eq!(majority[1], majority[3]);
    assert_ne!(majority[0], majority[1]);
}
