//! # overtalk-live
//!
//! The live floor monitor behind `overtalk live`: audio in (a device, or recordings replayed
//! through the same callback path), causal speech detection per speaker, the incremental floor
//! tracker, events out ([`overtalk::output::live::LiveEvent`], one JSON line each), and floor
//! rules that act through actuators (OSC mixers, OBS, a command hook).
//!
//! The heavy dependencies (tokio, axum, cpal, rosc) live here so the core library and the
//! offline command line build without them.

#![deny(missing_docs)]

pub mod actuate;
pub mod obs_mock;
pub mod outputs;
pub mod rules;
pub mod script;
pub mod serve;
pub mod state;
pub use outputs::{run_outputs, OutputArgs, OutputsConfig, OutputsHandle};
