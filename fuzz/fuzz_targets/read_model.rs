//! Parses arbitrary bytes as each kind of model file `overtalk models install` and
//! `--embedding-model` read: a wheel (zip) and the member in it, the legacy `torch.save`
//! pickle inside (restricted unpickler), and a safetensors file, then builds the GE2E network
//! from whatever tensors come out. Any input must give a result or an error, never a panic,
//! a hang or unbounded memory.
#![no_main]

use libfuzzer_sys::fuzz_target;
use overtalk_audio::diarize::embed::Ge2eWeights;
use overtalk_audio::diarize::models::{read_legacy_torch, read_safetensors, zip_member};

fuzz_target!(|data: &[u8]| {
    if let Ok(member) = zip_member(data, "resemblyzer/pretrained.pt") {
        let _ = read_legacy_torch(&member);
    }
    if let Ok(tensors) = read_legacy_torch(data) {
        let _ = Ge2eWeights::from_tensors(&tensors);
    }
    if let Ok(tensors) = read_safetensors(data) {
        for t in &tensors {
            assert_eq!(t.data.len(), t.shape.iter().product::<usize>(), "{}", t.name);
        }
        let _ = Ge2eWeights::from_tensors(&tensors);
    }
});
