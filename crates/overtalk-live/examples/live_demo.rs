//! The live page on a replayed event stream, without audio: `cargo run -p overtalk-live
//! --example live_demo -- [ADDR] [SPEED] [RTTM]` serves `http://ADDR/` and replays, once a page is connected, either the
//! events of an RTTM (through the analysis) or a built-in scripted debate (ending with an
//! end-of-session revision), at SPEED times real time, under `debate-mute`; prints `listening http://ADDR/` once serving and `done N` with
//! the number of events when the replay is over, then keeps serving until killed.

use overtalk::analysis::Params;
use overtalk::format::{self, ReadOptions};
use overtalk::output::live::LiveEventKind::*;
use overtalk::output::live::{EventState, LiveEvent};
use overtalk_live::rules::RuleKind;
use overtalk_live::script::{events_from_transcript, replay, Latencies, Scripted};
use overtalk_live::serve::ServeConfig;
use overtalk_live::{run_outputs, OutputsConfig};
use std::io::Write;

fn main() -> anyhow::Result<()> {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:8765".into());
    let speed: f64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1.0);
    let events = match args.next() {
        Some(path) => {
            let read = format::read_path(path.as_ref(), None, &ReadOptions::default())?;
            let (_, t) = read.corpus.iter().next().ok_or_else(|| anyhow::anyhow!("empty"))?;
            events_from_transcript(t, &Params::default(), Latencies::default())?
        }
        None => Scripted::new()
            .at(0.2, SpeechStart, "Ann")
            .at(0.5, FloorChange, "Ann")
            .at(1.5, SpeechStart, "Bob")
            .committed(1.5, Backchannel, "Bob", "Ann", 1.8)
            .at(1.8, SpeechEnd, "Bob")
            .at(3.0, SpeechStart, "Bob")
            .committed(3.0, Interruption, "Bob", "Ann", 3.3)
            .at(3.6, SpeechEnd, "Ann")
            .at(3.8, FloorChange, "Bob")
            .at(6.0, SpeechEnd, "Bob")
            .at(6.4, SpeechStart, "Ann")
            .at(6.7, FloorChange, "Ann")
            .at(7.5, SpeechStart, "Cy")
            .committed(7.5, Interruption, "Cy", "Ann", 7.8)
            .at(8.5, SpeechEnd, "Cy")
            .at(9.5, SpeechEnd, "Ann")
            .into_events(),
    };
    // The built-in debate ends with an end-of-session revision: Cy's interruption at 7.5 s was
    // a backchannel after all (the page's counts follow it).
    let mut events = events;
    if let Some(cy) = events.iter().find(|e| e.kind == Interruption && e.t_s == 7.5).cloned() {
        let next = events.len() as u64;
        let withdrawn = LiveEvent {
            id: next,
            state: EventState::Retracted,
            refers_to: Some(cy.id),
            decided_s: 10.0,
            revised: true,
            ..cy.clone()
        };
        let added = LiveEvent {
            id: next + 1,
            kind: Backchannel,
            class: Some("backchannel".into()),
            decided_s: 10.0,
            revised: true,
            ..cy
        };
        events.extend([withdrawn, added]);
    }
    let mut speakers: Vec<String> = events.iter().filter_map(|e| e.speaker.clone()).collect();
    speakers.sort();
    speakers.dedup();
    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    runtime.block_on(async {
        let (tx, rx) = tokio::sync::broadcast::channel(4096);
        let (clock_tx, clock_rx) = tokio::sync::watch::channel(0.0);
        let config = OutputsConfig {
            rule: RuleKind::DebateMute,
            speakers,
            serve: Some(ServeConfig { addr: addr.parse()?, token: None }),
            ..OutputsConfig::default()
        };
        let outputs = run_outputs(rx, Some(clock_rx), config).await?;
        println!("listening http://{}/", outputs.server_addr.unwrap_or_else(|| unreachable!()));
        std::io::stdout().flush()?;
        // The replay starts once a page is connected (or after 30 s).
        if let Some(stats) = &outputs.server_stats {
            let start = std::time::Instant::now();
            while stats.connected.load(std::sync::atomic::Ordering::Relaxed) == 0
                && start.elapsed() < std::time::Duration::from_secs(30)
            {
                tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        replay(&events, &tx, &clock_tx, speed).await;
        println!("done {}", events.len());
        std::io::stdout().flush()?;
        tokio::signal::ctrl_c().await?;
        drop(tx);
        outputs.finish().await;
        anyhow::Ok(())
    })
}
