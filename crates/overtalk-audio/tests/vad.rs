//! The behavioural suite every voice activity backend must pass (one `vad_suite!` per backend).

// Helpers outside `#[test]` functions unwrap too: a panic is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

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

macro_rules! vad_suite {
    ($module:ident, $kind:expr) => {
        mod $module {
            use super::*;

            fn kind() -> VadKind {
                $kind
            }

            #[test]
            fn digital_silence_is_not_speech() {
                let r = speech_region(kind().build(), &vec![0.0; 48_000], &Binarize::default());
                assert!(r.is_empty(), "{r:?}");
            }

            #[test]
            fn stationary_noise_is_not_speech() {
                let x = noise(80_000, 0.01, 1);
                let r = speech_region(kind().build(), &x, &Binarize::default());
                // At most a tenth of five seconds.
                assert!(r.duration() < Delta(500_000), "{:?}", r.duration());
            }

            #[test]
            fn speech_is_found_where_it_is() {
                let (x, truth) = speech();
                let r = speech_region(kind().build(), &x, &Binarize::default());
                let inside = r.crop_segment(truth).duration();
                let outside = Delta(r.duration().0 - inside.0);
                assert!(inside.0 * 10 >= truth.duration().0 * 8, "found {inside:?} of {truth:?}");
                assert!(outside < Delta(400_000), "{outside:?} outside the speech");
                let first = r.iter().next().unwrap().start();
                assert!(
                    (first.0 - truth.start().0).abs() <= 200_000,
                    "onset {first:?} vs {truth:?}"
                );
            }

            #[test]
            fn speech_in_noise_at_20_db_snr_is_found() {
                let (mut x, truth) = speech();
                let level = rms(&x[16_000..x.len() - 16_000]) / 10.0;
                let added = noise(x.len(), level, 7);
                for (v, n) in x.iter_mut().zip(added) {
                    *v += n;
                }
                let r = speech_region(kind().build(), &x, &Binarize::default());
                let inside = r.crop_segment(truth).duration();
                assert!(inside.0 * 10 >= truth.duration().0 * 7, "found {inside:?} of {truth:?}");
                assert!(Delta(r.duration().0 - inside.0) < Delta(600_000));
            }

            #[test]
            fn probabilities_stay_in_range_for_any_input() {
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
