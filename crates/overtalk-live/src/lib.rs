//! # overtalk-live
//!
//! The live floor monitor behind `overtalk live`: audio in (a device, or recordings replayed
//! through the same callback path), causal speech detection per speaker, the incremental floor
//! tracker, events out ([`overtalk::output::live::LiveEvent`], one JSON line each), and floor
//! rules that act through actuators (OSC mixers, OBS, a command hook).
//!
//! The heavy dependencies (tokio, axum, cpal, rosc) live here so the core library and the
//! offline command line build without them.
//!
//! | module | what it holds |
//! | --- | --- |
//! | [`source`] | the source trait: fixed-size blocks to a sink |
//! | [`replay`] | recordings replayed through that path, paced by the audio clock |
//! | `device` | capture through cpal (feature `device`) |
//! | [`session`] | source → detector → analysis stream → events, broadcast and recorded |
//! | [`music`] | each track metered for music, as offline `detect` meters it, off the detector's thread |
//! | [`record`] | the RTTM, analysis JSON and HTML report at the end, atomically |
//! | [`failsafe`] | what every actuator holds closed, opened on the exits that run no guard |
//!
//! The outputs of a session ([`run_outputs`], flags in [`OutputArgs`]) take the engine's event
//! broadcast and audio clock: [`state`] folds the events, [`rules`] decides what to mute,
//! [`actuate`] reaches OSC mixers, OBS and a hook, [`serve`] is the live page; [`script`] makes
//! event streams for tests without audio, [`obs_mock`] stands in for OBS. docs/live.md states
//! the policies.

#![deny(missing_docs)]

/// `eprintln!` that never panics: the standard one panics when standard error cannot be
/// written, and after SIGHUP the terminal is gone — a session's warning must not end its
/// thread (and lose its record) then.
macro_rules! eprintln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

pub mod actuate;
#[cfg(feature = "device")]
pub mod device;
pub mod failsafe;
pub mod monitor;
pub mod music;
pub mod obs_mock;
pub mod outputs;
pub mod record;
pub mod replay;
pub mod revise;
pub mod rules;
pub mod script;
pub mod serve;
pub mod session;
pub mod source;
pub mod state;
mod wire;
pub use monitor::run_monitor;
pub use outputs::{run_outputs, OutputArgs, OutputsConfig, OutputsHandle};
