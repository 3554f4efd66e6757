//! Hostile and unusual audio: each case gives a clear error or a correct result, never a panic,
//! and memory stays bounded.

// Helpers outside `#[test]` functions unwrap too: a panic is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};

use overtalk::{Delta, ErrorKind};
use overtalk_audio::decode::{decode_all, DecodeOptions, Decoder};
use overtalk_audio::pipeline::{detect, detect_bytes, DetectOptions, TrackSpec};

struct Tmp(tempfile::TempDir);

impl Tmp {
    fn new() -> Tmp {
        Tmp(tempfile::tempdir().unwrap())
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
}

fn write_wav(path: &Path, rate: u32, channels: u16, frames: &[Vec<f32>], float: bool) {
    let spec = hound::WavSpec {
        channels,
        sample_rate: rate,
        bits_per_sample: if float { 32 } else { 16 },
        sample_format: if float { hound::SampleFormat::Float } else { hound::SampleFormat::Int },
    };
    let mut w = hound::WavWriter::create(path, spec).unwrap();
    for f in frames {
        for &s in f {
            if float {
                w.write_sample(s).unwrap();
            } else {
                w.write_sample((s * 32767.0) as i16).unwrap();
            }
        }
    }
    w.finalize().unwrap();
}

fn tone(rate: u32, secs: f64) -> Vec<Vec<f32>> {
    let n = (f64::from(rate) * secs) as usize;
    (0..n).map(|i| vec![(i as f32 * 0.05).sin() * 0.5]).collect()
}

fn kind_of(e: &overtalk::Error) -> &'static str {
    match e.kind() {
        ErrorKind::Io(_) => "io",
        ErrorKind::Invalid(_) => "invalid",
        ErrorKind::Limit(_) => "limit",
        ErrorKind::Unsupported(_) => "unsupported",
        ErrorKind::Parse { .. } => "parse",
        _ => "other",
    }
}

#[test]
fn empty_file_is_invalid() {
    let t = Tmp::new();
    let p = t.path("empty.wav");
    std::fs::write(&p, b"").unwrap();
    let e = Decoder::open(&p, &DecodeOptions::default()).unwrap_err();
    assert_eq!(kind_of(&e), "invalid");
    assert_eq!(e.to_string(), format!("{}: the file is empty (0 bytes)", p.display()));
}

#[test]
fn missing_file_is_an_io_error_naming_the_file() {
    let e = Decoder::open(Path::new("/nonexistent/x.wav"), &DecodeOptions::default()).unwrap_err();
    assert_eq!(kind_of(&e), "io");
    assert!(e.to_string().starts_with("/nonexistent/x.wav: "), "{e}");
}

#[test]
fn zero_length_wav_is_invalid() {
    let t = Tmp::new();
    let p = t.path("zero.wav");
    write_wav(&p, 16_000, 1, &[], false);
    let e = decode_all(&p, &DecodeOptions::default()).unwrap_err();
    assert_eq!(kind_of(&e), "invalid", "{e}");
    assert!(e.to_string().contains("no audio samples"), "{e}");
}

#[test]
fn one_sample_file_decodes_and_detects_nothing() {
    let t = Tmp::new();
    let p = t.path("one.wav");
    write_wav(&p, 16_000, 1, &[vec![0.5]], false);
    let (info, ch) = decode_all(&p, &DecodeOptions::default()).unwrap();
    assert_eq!((info.sample_rate, ch.len(), ch[0].len()), (16_000, 1, 1));
    let spec = TrackSpec { name: "A".into(), path: p, channel: None };
    let found = detect(&[spec], &DetectOptions::default(), &mut |_| {}).unwrap();
    assert!(found.annotation.is_empty());
    assert_eq!(found.duration, Delta(63)); // 1 / 16000 s, rounded to the microsecond
}

#[test]
fn garbage_is_unsupported() {
    let t = Tmp::new();
    let p = t.path("noise.wav");
    std::fs::write(&p, (0..5000u32).map(|i| (i * 7919 % 251) as u8).collect::<Vec<_>>()).unwrap();
    let e = Decoder::open(&p, &DecodeOptions::default()).unwrap_err();
    assert_eq!(kind_of(&e), "unsupported", "{e}");
    assert!(e.to_string().contains("not a recognised audio or video container"), "{e}");
}

#[test]
fn wrong_extension_still_decodes() {
    let t = Tmp::new();
    let p = t.path("really-a-wav.mp3");
    write_wav(&p, 16_000, 1, &tone(16_000, 0.5), false);
    let (info, ch) = decode_all(&p, &DecodeOptions::default()).unwrap();
    assert_eq!((info.codec.as_str(), ch[0].len()), ("pcm_s16le", 8000));
}

#[test]
fn truncated_wav_is_reported_with_the_time() {
    let t = Tmp::new();
    let p = t.path("cut.wav");
    write_wav(&p, 16_000, 1, &tone(16_000, 2.0), false);
    let bytes = std::fs::read(&p).unwrap();
    std::fs::write(&p, &bytes[..bytes.len() / 2]).unwrap();
    let r = decode_all(&p, &DecodeOptions::default());
    match r {
        Err(e) => {
            assert_eq!(kind_of(&e), "invalid", "{e}");
            assert!(e.to_string().contains("truncated"), "{e}");
        }
        Ok((_, ch)) => panic!("a truncated file decoded to {} samples", ch[0].len()),
    }
}

#[test]
fn truncated_coded_files_give_errors_or_a_prefix() {
    // Lossy streams have no declared length everywhere; a cut stream either errors clearly or
    // yields a prefix of the audio, never more than the original.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let t = Tmp::new();
    for name in ["burst.flac", "burst.mp3", "burst.ogg", "burst.m4a", "burst.mkv", "burst.webm"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        for cut in [16, bytes.len() / 3, bytes.len() * 2 / 3] {
            let p = t.path(name);
            std::fs::write(&p, &bytes[..cut]).unwrap();
            match decode_all(&p, &DecodeOptions::default()) {
                Err(e) => {
                    let k = kind_of(&e);
                    assert!(k == "invalid" || k == "unsupported", "{name} cut at {cut}: {e}");
                    assert!(e.to_string().starts_with(&p.display().to_string()), "{e}");
                }
                Ok((_, ch)) => assert!(ch[0].len() <= 46_100, "{name} cut at {cut}"),
            }
        }
    }
}

#[test]
fn nan_samples_in_float_wav_become_silence_and_are_counted() {
    let t = Tmp::new();
    let p = t.path("nan.wav");
    let mut frames = tone(16_000, 0.5);
    for f in frames.iter_mut().skip(100).step_by(1000) {
        f[0] = f32::NAN;
    }
    frames[5][0] = f32::INFINITY;
    write_wav(&p, 16_000, 1, &frames, true);
    let mut d = Decoder::open(&p, &DecodeOptions::default()).unwrap();
    let mut all = Vec::new();
    while let Some(b) = d.next_block().unwrap() {
        all.extend_from_slice(b.interleaved());
    }
    assert_eq!(d.stats().non_finite, 9);
    assert!(all.iter().all(|v| v.is_finite()));
    assert_eq!(all[100], 0.0);
    assert_eq!(all[5], 0.0);
}

#[test]
fn eight_channels_decode_each_channel_separately_and_caps_apply() {
    let t = Tmp::new();
    let p = t.path("eight.wav");
    // Channel c carries the constant (c + 1) / 100.
    let frames: Vec<Vec<f32>> =
        (0..1600).map(|_| (0..8).map(|c| (c + 1) as f32 / 100.0).collect()).collect();
    write_wav(&p, 16_000, 8, &frames, true);
    let (info, ch) = decode_all(&p, &DecodeOptions::default()).unwrap();
    assert_eq!((info.channels, ch.len(), ch[0].len()), (8, 8, 1600));
    for (c, x) in ch.iter().enumerate() {
        assert_eq!(x[800], (c + 1) as f32 / 100.0);
    }
    let few = DecodeOptions { max_channels: 4, ..DecodeOptions::default() };
    let e = Decoder::open(&p, &few).unwrap_err();
    assert_eq!(kind_of(&e), "limit");
    assert!(e.to_string().contains("8 channels, more than the 4 allowed"), "{e}");
}

#[test]
fn forty_eight_channels_are_a_clear_unsupported_error() {
    // WAV's extensible header cannot position 48 channels; the decoder says so.
    let t = Tmp::new();
    let p = t.path("many.wav");
    let frames: Vec<Vec<f32>> = (0..160).map(|_| vec![0.1; 48]).collect();
    write_wav(&p, 16_000, 48, &frames, true);
    let e = Decoder::open(&p, &DecodeOptions::default()).unwrap_err();
    assert_eq!(kind_of(&e), "unsupported", "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "{}: unsupported: the container holds audio this decoder cannot read \
             (wav: too many channels in mask for fmt_ext)",
            p.display()
        )
    );
}

#[test]
fn duration_and_size_caps_are_limit_errors() {
    let t = Tmp::new();
    let p = t.path("long.wav");
    write_wav(&p, 16_000, 1, &tone(16_000, 3.0), false);
    let short = DecodeOptions { max_duration: Delta(1_000_000), ..DecodeOptions::default() };
    let e = decode_all(&p, &short).unwrap_err();
    assert_eq!(kind_of(&e), "limit");
    assert!(e.to_string().contains("longer than the 1.000 allowed"), "{e}");
    let small = DecodeOptions { max_bytes: 1000, ..DecodeOptions::default() };
    let e = Decoder::open(&p, &small).unwrap_err();
    assert_eq!(kind_of(&e), "limit");
}

#[test]
fn a_ten_hour_header_is_refused_before_decoding_under_a_one_hour_cap() {
    // A WAV header that declares ten hours of 16 kHz audio (1.15 GB) but holds one second.
    let t = Tmp::new();
    let p = t.path("ten-hours.wav");
    write_wav(&p, 16_000, 1, &tone(16_000, 1.0), false);
    let mut bytes = std::fs::read(&p).unwrap();
    let data_len: u32 = 10 * 3600 * 16_000 * 2;
    let at = bytes.windows(4).position(|w| w == b"data").unwrap() + 4;
    bytes[at..at + 4].copy_from_slice(&data_len.to_le_bytes());
    let riff_len = data_len + (at as u32 + 4 - 8);
    bytes[4..8].copy_from_slice(&riff_len.to_le_bytes());
    std::fs::write(&p, &bytes).unwrap();
    let hour = DecodeOptions { max_duration: Delta(3_600_000_000), ..DecodeOptions::default() };
    let e = Decoder::open(&p, &hour).unwrap_err();
    assert_eq!(kind_of(&e), "limit", "{e}");
    // Without the cap, the lie is found when the data runs out.
    let e = decode_all(&p, &DecodeOptions::default()).unwrap_err();
    assert!(e.to_string().contains("truncated"), "{e}");
}

#[test]
fn mismatched_lengths_and_rates_are_clear_errors() {
    let t = Tmp::new();
    let (a, b, c) = (t.path("a.wav"), t.path("b.wav"), t.path("c.wav"));
    write_wav(&a, 16_000, 1, &tone(16_000, 3.0), false);
    write_wav(&b, 16_000, 1, &tone(16_000, 5.0), false);
    write_wav(&c, 48_000, 1, &tone(48_000, 3.0), false);
    let spec = |n: &str, p: &Path| TrackSpec { name: n.into(), path: p.into(), channel: None };
    let e = detect(&[spec("A", &a), spec("B", &b)], &DetectOptions::default(), &mut |_| {})
        .unwrap_err();
    assert!(e.to_string().starts_with("tracks have different lengths: A ("), "{e}");
    assert!(e.to_string().contains("lasts 3.000 s, B ("), "{e}");
    let e = detect(&[spec("A", &a), spec("C", &c)], &DetectOptions::default(), &mut |_| {})
        .unwrap_err();
    assert!(e.to_string().starts_with("tracks have different sample rates: A ("), "{e}");
    let ok = DetectOptions { allow_rate_mismatch: true, ..DetectOptions::default() };
    let found = detect(&[spec("A", &a), spec("C", &c)], &ok, &mut |_| {}).unwrap();
    assert_eq!(found.duration, Delta(3_000_000));
}

#[test]
fn detect_bytes_survives_arbitrary_prefixes_of_real_files() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let options = DetectOptions::default();
    for name in ["burst.flac", "burst.mp3", "burst.m4a", "burst.webm", "burst.adpcm.wav"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        for cut in (0..bytes.len()).step_by(997) {
            let _ = detect_bytes(bytes[..cut].to_vec(), &options);
        }
        let whole = detect_bytes(bytes, &options).unwrap();
        assert_eq!(whole.tracks.len(), 2, "{name}");
    }
}
