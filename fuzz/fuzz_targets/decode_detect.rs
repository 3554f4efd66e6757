//! Decodes arbitrary bytes as a recording (any container the probe recognises) and runs voice
//! activity detection on every channel, as `overtalk detect` does for a file it is given.
//! Caps keep each run small: 1 MiB of input, 60 s of audio, 8 channels.
#![no_main]

use libfuzzer_sys::fuzz_target;
use overtalk::Delta;
use overtalk_audio::decode::DecodeOptions;
use overtalk_audio::pipeline::{detect_bytes, DetectOptions};

fuzz_target!(|data: &[u8]| {
    let options = DetectOptions {
        decode: DecodeOptions {
            max_duration: Delta::from_micros(60_000_000),
            max_bytes: 1 << 20,
            max_channels: 8,
            strict: false,
            ..DecodeOptions::default()
        },
        ..DetectOptions::default()
    };
    if let Ok(found) = detect_bytes(data.to_vec(), &options) {
        // Whatever is found lies within the decoded duration.
        for t in found.annotation.tracks() {
            assert!(t.segment.end().micros() <= found.duration.micros() + 20_000);
        }
    }
});
