//! Integration tests of the audio crate, one module per stage (decoding, voice activity, multitrack detection, diarization), and two independent frame-level scorers that cross-check the library's: one test binary, linked once.

// A failed unwrap in a test is a failed test with its location, which is what we want.
#![allow(clippy::unwrap_used)]

mod decode;
mod diarize;
mod diarize_models;
mod diarizer_choice;
mod error_kinds;
mod frame_der;
mod frame_score;
mod hostile;
mod multitrack;
mod online;
mod onnx_embed;
#[cfg(feature = "onnx")]
mod onnx_writer;
mod pyannote;
mod vad;
mod wav;
