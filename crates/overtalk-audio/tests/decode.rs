//! Every decoder path on a small clip: committed coded clips (tests/data, made by
//! tests/data/make.sh) and WAV variants written here. Onsets must agree with the signal within
//! 1 ms after priming removal, so times line up across formats.

// Helpers outside `#[test]` functions unwrap too: a panic is a failed test.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::PathBuf;

use overtalk::ErrorKind;
use overtalk_audio::decode::{decode_all, DecodeOptions, Decoder};

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// Seconds of the first sample louder than 0.25 (the bursts have amplitude 0.5).
fn onset(x: &[f32], rate: u32) -> f64 {
    let i = x.iter().position(|v| v.abs() > 0.25).expect("a burst");
    i as f64 / f64::from(rate)
}

fn check_clip(name: &str) {
    let (info, ch) = decode_all(&data(name), &DecodeOptions::default()).unwrap();
    assert_eq!(info.sample_rate, 44_100, "{name}");
    assert_eq!(ch.len(), 2, "{name}");
    let left = onset(&ch[0], 44_100);
    let right = onset(&ch[1], 44_100);
    println!(
        "{name}: {} priming {} onsets {left:.5} {right:.5} len {}",
        info.codec,
        info.priming,
        ch[0].len()
    );
    assert!((left - 0.300).abs() < 0.001, "{name}: left onset {left}");
    assert!((right - 0.500).abs() < 0.001, "{name}: right onset {right}");
    let secs = ch[0].len() as f64 / 44_100.0;
    assert!((0.99..1.06).contains(&secs), "{name}: {secs} s");
}

#[test]
fn flac() {
    check_clip("burst.flac");
}

#[test]
fn mp3() {
    check_clip("burst.mp3");
}

#[test]
fn ogg_vorbis() {
    check_clip("burst.ogg");
}

#[test]
fn aac_in_m4a() {
    check_clip("burst.m4a");
}

#[test]
fn adpcm_wav() {
    check_clip("burst.adpcm.wav");
}

#[test]
fn audio_of_mp4() {
    check_clip("burst.mp4");
}

#[test]
fn audio_of_mov() {
    check_clip("burst.mov");
}

#[test]
fn audio_of_mkv() {
    check_clip("burst.mkv");
}

#[test]
fn audio_of_webm() {
    check_clip("burst.webm");
}

#[test]
fn opus_is_unsupported_with_a_clear_message() {
    let e = Decoder::open(&data("burst.opus"), &DecodeOptions::default()).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Unsupported(_)), "{e}");
    assert!(e.to_string().contains("burst.opus"), "{e}");
    assert!(e.to_string().contains("not supported"), "{e}");
}
