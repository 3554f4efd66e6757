//! The whole monitor: a [`Session`] (audio → events) with its outputs ([`run_outputs`]: the
//! floor state, the rule, the actuators, the web page) subscribed from its first event.
//!
//! ```text
//! source ──blocks──▶ Session ──broadcast<LiveEvent>──▶ run_outputs ──▶ rule ──▶ OSC / OBS / hook
//!                       │                                   └──────────▶ --serve page
//!                       └──▶ --events, --record
//! ```
//!
//! When the session ends (the source ran out, the device vanished, Ctrl-C), its event sender
//! is dropped; the outputs see the end and release every mute they set before
//! [`run_monitor`] returns.

use anyhow::{anyhow, Result};

use crate::outputs::{run_outputs, OutputArgs};
use crate::session::{stop_on_ctrl_c, Session, SessionConfig, SessionSummary};
use crate::source::Source;
use crate::state::Snapshot;

/// Runs a session from `source` with the outputs `outputs` asks for, until the source ends or
/// Ctrl-C; returns the session's summary and the outputs' final floor state.
pub fn run_monitor(
    source: Box<dyn Source>,
    config: SessionConfig,
    outputs: &OutputArgs,
) -> Result<(SessionSummary, Snapshot)> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("overtalk-outputs")
        .enable_all()
        .build()?;
    let names = source.names().to_vec();
    // The outputs are configured (and their server bound, their actuators reached) before
    // the first block is read, so a failure to bind stops the session before it starts.
    let outputs_config = runtime.block_on(outputs.to_config(&names))?;
    let (session, events) = Session::start_subscribed(source, config)?;
    stop_on_ctrl_c(&session.stop_handle())?;
    let handle = match runtime.block_on(run_outputs(events, None, outputs_config)) {
        Ok(handle) => handle,
        Err(e) => {
            session.stop_handle().stop();
            let _ = session.wait();
            return Err(e);
        }
    };
    let summary = runtime
        .block_on(runtime.spawn_blocking(move || session.wait()))
        .map_err(|e| anyhow!("the live session's thread failed: {e}"))?;
    // The session is over and its sender dropped: the outputs release every mute and end.
    let snapshot = runtime.block_on(handle.finish());
    Ok((summary?, snapshot))
}
