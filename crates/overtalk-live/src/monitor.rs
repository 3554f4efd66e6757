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
//! [`run_monitor`] returns. The actuators' `action` events join the session's in `--events`,
//! whole lines from either side, never one inside the other.

use std::io::{self, Write};
use std::sync::{Arc, Mutex};

use anyhow::{anyhow, Result};
use tokio::sync::broadcast::{self, error::RecvError};

use crate::outputs::{run_outputs, OutputArgs};
use crate::session::{stop_on_signal, Session, SessionConfig, SessionSummary, StopHandle};
use crate::source::Source;
use crate::state::Snapshot;

/// Runs a session from `source` with the outputs `outputs` asks for, until the source ends or
/// Ctrl-C; returns the session's summary and the outputs' final floor state.
pub fn run_monitor(
    source: Box<dyn Source>,
    mut config: SessionConfig,
    outputs: &OutputArgs,
) -> Result<(SessionSummary, Snapshot)> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("overtalk-outputs")
        .enable_all()
        .build()?;
    let names = source.names().to_vec();
    // Signals are taken before anything starts: one that comes while the outputs are set up
    // or the session starts stops it as a later one does, instead of killing the process
    // with its default action once something may be muted.
    let stop = config.stop.get_or_insert_with(StopHandle::new).clone();
    stop_on_signal(&stop)?;
    // The outputs are configured (and their server bound, their actuators reached) before
    // the first block is read, so a failure to bind stops the session before it starts.
    let outputs_config = runtime.block_on(outputs.to_config(&names))?;
    // One events file for the session and the actuators: each writes whole lines under a lock.
    // A file opened only when the session starts is put under the lock then.
    let shared: Option<Shared> = if let Some(out) = config.events_out.take() {
        let shared = Arc::new(Mutex::new(Some(out)));
        config.events_out = Some(Box::new(LineWriter::new(shared.clone())));
        Some(shared)
    } else if let Some(open) = config.events_open.take() {
        let shared: Shared = Arc::new(Mutex::new(None));
        let opened = shared.clone();
        config.events_open = Some(Box::new(move || {
            let out = open()?;
            *opened.lock().map_err(|_| anyhow!("the events writer was poisoned"))? = Some(out);
            Ok(Box::new(LineWriter::new(opened)) as Box<dyn Write + Send>)
        }));
        Some(shared)
    } else {
        None
    };
    // The outputs start first, on a relay of the session's events, so their action events are
    // subscribed to before the first event can cause one.
    let (relay, relayed) = broadcast::channel(config.capacity.max(1));
    // The audio clock, published by the session after every block: the outputs' watchdog
    // releases every mute when it stops advancing (a stalled device, a hung detector).
    let (clock, clock_rx) = tokio::sync::watch::channel(0.0);
    config.clock = Some(clock);
    let handle = runtime.block_on(run_outputs(relayed, Some(clock_rx), outputs_config))?;
    if config.warn_stderr {
        if let Some(addr) = handle.server_addr {
            // The address bound, not the one asked for: `--serve 127.0.0.1:0` takes a free port.
            eprintln!("{}", page_line(addr));
        }
    }
    let forward = shared.map(|shared| {
        let mut actions = handle.actions();
        runtime.spawn(async move {
            let mut out = LineWriter::new(shared);
            loop {
                match actions.recv().await {
                    Ok(action) => {
                        if let Err(e) = action.write_line(&mut out) {
                            // The session's own lines meet the same output: it says so.
                            return Some(format!("at {:.2} s of audio: {e}", action.decided_s));
                        }
                    }
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => break,
                }
            }
            out.flush().err().map(|e| format!("at the end: {e}"))
        })
    });
    let (session, mut events) = match Session::start_subscribed(source, config) {
        Ok(started) => started,
        Err(e) => {
            drop(relay);
            runtime.block_on(handle.finish());
            return Err(e);
        }
    };
    let relay_task = runtime.spawn(async move {
        loop {
            match events.recv().await {
                Ok(event) => {
                    let _ = relay.send(event);
                }
                Err(RecvError::Lagged(_)) => continue,
                // The session is over: dropping the relay ends the outputs.
                Err(RecvError::Closed) => break,
            }
        }
    });
    let summary = runtime
        .block_on(runtime.spawn_blocking(move || session.wait()))
        .map_err(|e| anyhow!("the live session's thread failed: {e}"))?;
    // The session is over and its sender dropped: the outputs release every mute and end.
    let _ = runtime.block_on(relay_task);
    let snapshot = runtime.block_on(handle.finish());
    // The actions' sender is gone with the outputs: the forwarder writes what is left.
    let forwarded = forward.and_then(|forward| runtime.block_on(forward).ok().flatten());
    let mut summary = summary?;
    // Said here only when the session's own lines did not meet the failure first.
    if let (Some(why), None) = (forwarded, &summary.events_error) {
        eprintln!(
            "overtalk live: the events output failed {why}; the actions after it are not in it"
        );
        summary.events_error = Some(why);
    }
    Ok((summary, snapshot))
}

/// The line `overtalk live` prints once the page is served: its address as bound (the port
/// the system chose for `--serve HOST:0`).
pub fn page_line(addr: std::net::SocketAddr) -> String {
    format!("overtalk live: the live page is at http://{addr}/")
}

/// The events output shared by the session and the actuators' forwarder: `None` until the
/// session opens it.
type Shared = Arc<Mutex<Option<Box<dyn Write + Send>>>>;

/// How many bytes a [`LineWriter`] holds while its output is not open yet: far more than the
/// few action lines that can come before the session opens it, and a bound on memory if the
/// output is never opened.
const HELD_LIMIT: usize = 1 << 20;

/// A writer that hands a shared writer whole lines only: bytes wait here until their newline,
/// then the line is written under the lock (and wait on while the output is not open yet, up
/// to [`HELD_LIMIT`] bytes; a write past that fails).
struct LineWriter {
    shared: Shared,
    pending: Vec<u8>,
}

impl LineWriter {
    fn new(shared: Shared) -> LineWriter {
        LineWriter { shared, pending: Vec::new() }
    }

    fn lock(
        shared: &Shared,
    ) -> io::Result<std::sync::MutexGuard<'_, Option<Box<dyn Write + Send>>>> {
        shared.lock().map_err(|_| io::Error::other("the events writer was poisoned"))
    }
}

impl Write for LineWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let mut out = LineWriter::lock(&self.shared)?;
        let Some(out) = out.as_mut() else {
            if self.pending.len() + buf.len() > HELD_LIMIT {
                return Err(io::Error::other(format!(
                    "the events output is not open yet and {} bytes wait for it",
                    self.pending.len()
                )));
            }
            self.pending.extend_from_slice(buf);
            return Ok(buf.len());
        };
        self.pending.extend_from_slice(buf);
        if let Some(last) = self.pending.iter().rposition(|&b| b == b'\n') {
            let lines: Vec<u8> = self.pending.drain(..=last).collect();
            out.write_all(&lines)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let mut out = LineWriter::lock(&self.shared)?;
        let Some(out) = out.as_mut() else { return Ok(()) };
        if !self.pending.is_empty() {
            out.write_all(&self.pending)?;
            self.pending.clear();
        }
        out.flush()
    }
}

impl Drop for LineWriter {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A shared output whose bytes the test can read back.
    #[derive(Clone, Default)]
    struct Bytes(Arc<Mutex<Vec<u8>>>);

    impl Write for Bytes {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_wait_for_the_output_to_open_then_go_whole() {
        let shared: Shared = Arc::new(Mutex::new(None));
        let mut writer = LineWriter::new(shared.clone());
        writer.write_all(b"first\nsec").unwrap();
        writer.flush().unwrap();
        let bytes = Bytes::default();
        *shared.lock().unwrap() = Some(Box::new(bytes.clone()));
        writer.write_all(b"ond\nthi").unwrap();
        assert_eq!(*bytes.0.lock().unwrap(), b"first\nsecond\n");
        drop(writer);
        assert_eq!(*bytes.0.lock().unwrap(), b"first\nsecond\nthi");
    }

    #[test]
    fn what_waits_for_an_output_never_opened_is_bounded() {
        let shared: Shared = Arc::new(Mutex::new(None));
        let mut writer = LineWriter::new(shared);
        let line = [b'x'; 1023].iter().chain(b"\n").copied().collect::<Vec<u8>>();
        for _ in 0..HELD_LIMIT / line.len() {
            writer.write_all(&line).unwrap();
        }
        let e = writer.write_all(&line).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the events output is not open yet and 1048576 bytes wait for it"
        );
        assert_eq!(writer.pending.len(), HELD_LIMIT);
    }
}
