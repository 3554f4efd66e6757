//! Event → OSC datagram latency on loopback: floor changes between two talking speakers under
//! `debate-mute` (no engage delay, no cooldown, no allowance), each one answered by an unmute and a mute; the
//! time from sending the event into the outputs' broadcast to the first datagram arriving at a
//! receiver on 127.0.0.1. Beside it, in the same run, the floor of the measurement: one rosc
//! datagram encoded and sent straight from the sending thread.
//!
//! `cargo run --release -p overtalk-live --example osc_latency -- [EVENTS]`

use std::net::UdpSocket;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use overtalk::output::live::{EventState, LiveEvent, LiveEventKind};
use overtalk_live::actuate::osc::OscProfile;
use overtalk_live::outputs::OscConfig;
use overtalk_live::rules::{RuleKind, RuleParams};
use overtalk_live::{run_outputs, OutputsConfig};
use rosc::{OscMessage, OscPacket, OscType};

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn summary(name: &str, mut us: Vec<f64>) -> f64 {
    us.sort_by(f64::total_cmp);
    let p99 = percentile(&us, 0.99);
    println!(
        "{name}: n {} p50 {:.0} µs p99 {:.0} µs max {:.0} µs",
        us.len(),
        percentile(&us, 0.5),
        p99,
        us[us.len() - 1]
    );
    p99
}

fn event(id: u64, kind: LiveEventKind, speaker: &str, t: f64) -> LiveEvent {
    LiveEvent {
        id,
        kind,
        state: EventState::Committed,
        t_s: t,
        decided_s: t,
        speaker: Some(speaker.into()),
        holder: None,
        class: None,
        probability: None,
        refers_to: None,
        action: None,
        warning: None,
        revised: false,
    }
}

fn main() -> anyhow::Result<()> {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let receiver = UdpSocket::bind("127.0.0.1:0")?;
    receiver.set_read_timeout(Some(Duration::from_secs(2)))?;
    let target = receiver.local_addr()?;
    let (arrived_tx, arrived_rx) = mpsc::channel::<Instant>();
    std::thread::spawn(move || {
        let mut buf = [0u8; 512];
        while receiver.recv(&mut buf).is_ok() {
            let _ = arrived_tx.send(Instant::now());
        }
    });

    let runtime =
        tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build()?;
    let through_outputs = runtime.block_on(async {
        let (tx, rx) = tokio::sync::broadcast::channel(1024);
        // No engage delay, no cooldown and no allowance: every floor change acts at once. With
        // the allowance (1 s of the talkspurt, on the rule's clock, which runs on the events'
        // times) the first changes would find both speakers inside it and act on nothing.
        let params = RuleParams {
            engage_s: 0.0,
            cooldown_s: 0.0,
            allowance_s: 0.0,
            ..RuleParams::default()
        };
        let config = OutputsConfig {
            rule: RuleKind::DebateMute,
            params,
            speakers: vec!["A".into(), "B".into()],
            osc: Some(OscConfig {
                target,
                profile: OscProfile::X32,
                map: [("A".into(), 1), ("B".into(), 2)].into(),
            }),
            ..OutputsConfig::default()
        };
        let outputs = run_outputs(rx, None, config).await?;
        tx.send(event(0, LiveEventKind::SpeechStart, "A", 0.0))?;
        tx.send(event(1, LiveEventKind::SpeechStart, "B", 0.0))?;
        tx.send(event(2, LiveEventKind::FloorChange, "A", 0.0))?;
        // The first mute (B), not measured.
        arrived_rx.recv_timeout(Duration::from_secs(1))?;
        let mut latencies = Vec::with_capacity(n);
        for i in 0..n {
            tokio::time::sleep(Duration::from_millis(2)).await;
            while arrived_rx.try_recv().is_ok() {}
            let who = if i % 2 == 0 { "B" } else { "A" };
            let sent = Instant::now();
            tx.send(event(3 + i as u64, LiveEventKind::FloorChange, who, 0.01 * i as f64))?;
            let arrived = arrived_rx.recv_timeout(Duration::from_secs(1))?;
            latencies.push(arrived.duration_since(sent).as_secs_f64() * 1e6);
            // The change's second datagram (the old holder's mute) before the next change:
            // the actuator follows the newest wish, so a change sent while it still applies
            // the one before can cancel it (back to the levels already set, nothing to send),
            // and a late datagram of one change would be timed as the next one's.
            arrived_rx.recv_timeout(Duration::from_secs(1))?;
        }
        drop(tx);
        outputs.finish().await;
        anyhow::Ok(latencies)
    })?;

    // The floor: encode and send one datagram directly.
    let sender = UdpSocket::bind("127.0.0.1:0")?;
    sender.connect(target)?;
    let mut direct = Vec::with_capacity(n);
    for i in 0..n {
        std::thread::sleep(Duration::from_millis(1));
        while arrived_rx.try_recv().is_ok() {}
        let sent = Instant::now();
        let packet = OscPacket::Message(OscMessage {
            addr: "/ch/01/mix/on".into(),
            args: vec![OscType::Int((i % 2) as i32)],
        });
        sender.send(&rosc::encoder::encode(&packet)?)?;
        let arrived = arrived_rx.recv_timeout(Duration::from_secs(1))?;
        direct.push(arrived.duration_since(sent).as_secs_f64() * 1e6);
    }
    let ours = summary("event -> OSC datagram (run_outputs, debate-mute, x32)", through_outputs);
    let floor = summary("rosc encode + send, same thread (floor)", direct);
    println!(
        "p99 ratio to the floor: {:.1}x; target p99 <= 2000 µs: {}",
        ours / floor,
        if ours <= 2000.0 { "met" } else { "NOT met" }
    );
    Ok(())
}
