//! Prints one speech probability per VAD frame for a 16 kHz recording (for inspection).
#![allow(clippy::unwrap_used)]
use overtalk_audio::decode::{decode_all, DecodeOptions};
use overtalk_audio::vad::{probabilities, VadKind};
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let (_, ch) = decode_all(path.as_ref(), &DecodeOptions::default()).unwrap();
    for p in probabilities(VadKind::Earshot.build(), &ch[0]) {
        println!("{p:.3}");
    }
}
