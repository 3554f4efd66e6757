//! # overtalk-audio
//!
//! Recordings in, who spoke when out. This crate decodes recordings, resamples them to the
//! analysis rate, finds voice activity, and — for recordings with one microphone per speaker —
//! decides who is talking on each track while rejecting the other speakers' bleed. The result is
//! an [`overtalk::Annotation`] with overlaps preserved, ready for analysis or scoring.
//!
//! ```text
//! decode ──► resample (16 kHz) ──► features (10 ms energy, VAD) ──► multitrack rule ──► Annotation
//! symphonia   rubato                frames, vad                      multitrack
//! ```
//!
//! | module | job |
//! | --- | --- |
//! | [`channels`] | whether a multichannel recording's channels differ (a call: suggest `--channels`) |
//! | [`decode`] | every common container and codec, streamed in blocks, priming delay removed |
//! | [`resample`] | streaming resampling to 16 kHz, time-aligned |
//! | [`frames`] | the 10 ms grid, frame energy, binarization with hysteresis and minimum durations |
//! | [`vad`] | the [`vad::Vad`] trait and its backends (earshot by default, energy) |
//! | [`features`] | one streaming pass per track into compact per-frame features |
//! | [`multitrack`] | per-track speech with crosstalk couplings estimated from the recording |
//! | [`pipeline`] | files in, [`pipeline::Detection`] out |
//!
//! This crate depends only on `overtalk`'s time and model types (and its error type).
//!
//! ## Example
//!
//! ```no_run
//! use overtalk_audio::pipeline::{detect, DetectOptions, TrackSpec};
//!
//! let specs = [TrackSpec::file("Host", "host.wav"), TrackSpec::file("Guest", "guest.wav")];
//! let found = detect(&specs, &DetectOptions::default(), &mut |_| {})?;
//! println!("{} s of overlap", found.annotation.overlap().duration());
//! # Ok::<(), overtalk::Error>(())
//! ```

#![deny(missing_docs)]

pub mod causal;
pub mod channels;
pub mod decode;
pub mod diarize;
pub mod features;
pub mod frames;
pub mod multitrack;
pub mod music;
pub mod online;
pub mod pipeline;
pub mod provenance;
pub mod render;
pub mod resample;
pub mod vad;

pub use pipeline::{detect, DetectOptions, Detection, TrackSpec};
