//! The outputs end to end against receivers on 127.0.0.1: the exact OSC message sequence of a
//! debate-mute session (X32 addresses), the same session through the mock obs-websocket v5
//! server with authentication, unreachable actuators reported without blocking the events, and
//! the fail-safe releases (end of the session, audio clock stopped) within a second.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use overtalk::output::live::{LiveEvent, LiveEventKind::*};
use overtalk_live::actuate::osc::OscProfile;
use overtalk_live::outputs::{ObsConfig, OscConfig};
use overtalk_live::rules::{RuleKind, RuleParams};
use overtalk_live::script::{replay, Scripted};
use overtalk_live::{obs_mock, run_outputs, OutputsConfig};
use rosc::{OscPacket, OscType};
use tokio::net::UdpSocket;
use tokio::sync::{broadcast, watch};

/// A debate: A holds the floor, B takes it at 4.5 s, A takes it back at 9.5 s and is still
/// talking when the session ends at 11 s.
fn debate() -> Vec<LiveEvent> {
    Scripted::new()
        .at(0.0, SpeechStart, "A")
        .at(0.0, FloorChange, "A")
        .at(2.0, SpeechStart, "B")
        .at(4.0, SpeechEnd, "A")
        .at(4.5, FloorChange, "B")
        .at(9.0, SpeechEnd, "B")
        .at(9.2, SpeechStart, "A")
        .at(9.5, FloorChange, "A")
        .at(11.0, SpeechStart, "C")
        .into_events()
}

fn speakers() -> Vec<String> {
    vec!["A".into(), "B".into(), "C".into()]
}

async fn receiver() -> (UdpSocket, SocketAddr) {
    let socket = UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let addr = socket.local_addr().unwrap();
    (socket, addr)
}

async fn next_message(socket: &UdpSocket, wait: Duration) -> Option<(String, Vec<OscType>)> {
    let mut buf = [0u8; 1024];
    let n = tokio::time::timeout(wait, socket.recv(&mut buf)).await.ok()?.ok()?;
    match rosc::decoder::decode_udp(&buf[..n]).ok()?.1 {
        OscPacket::Message(m) => Some((m.addr, m.args)),
        OscPacket::Bundle(_) => None,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_debate_mute_session_sends_the_exact_x32_sequence_and_releases_within_a_second() {
    let (socket, addr) = receiver().await;
    let (tx, rx) = broadcast::channel(64);
    let (clock_tx, clock_rx) = watch::channel(0.0);
    let config = OutputsConfig {
        rule: RuleKind::DebateMute,
        speakers: speakers(),
        osc: Some(OscConfig {
            target: addr,
            profile: OscProfile::X32,
            map: [("A".into(), 1), ("B".into(), 2), ("C".into(), 3)].into(),
        }),
        ..OutputsConfig::default()
    };
    let outputs = run_outputs(rx, Some(clock_rx), config).await.unwrap();
    let mut actions = outputs.actions();
    let events = debate();
    // Four times real time: 11 s of debate in under 3 s.
    replay(&events, &tx, &clock_tx, 4.0).await;
    let ended = Instant::now();
    drop(tx);
    outputs.finish().await;
    let finished = ended.elapsed();
    let mut got = Vec::new();
    let mut last_at = Duration::ZERO;
    while let Some(m) = next_message(&socket, Duration::from_millis(300)).await {
        last_at = ended.elapsed();
        got.push(m);
    }
    let on = |ch: u32, v: i32| (format!("/ch/{ch:02}/mix/on"), vec![OscType::Int(v)]);
    assert_eq!(
        got,
        vec![
            on(2, 0), // 0.3 s: A has spoken long enough, B and C muted
            on(3, 0),
            on(2, 1), // 4.5 s: B holds the floor: B open first, then A muted
            on(1, 0),
            on(1, 1), // 9.5 s: A holds it again; B waits for its cooldown
            on(2, 0), // 10.3 s: 10 s after B's first mute
            on(2, 1), // the session ends: everything open
            on(3, 1),
        ]
    );
    assert!(finished < Duration::from_secs(1), "finish took {finished:?}");
    assert!(last_at < Duration::from_secs(1) + Duration::from_millis(300), "{last_at:?}");
    let mut reports = Vec::new();
    while let Ok(e) = actions.try_recv() {
        let a = e.action.unwrap();
        reports.push((a.name, e.speaker.unwrap_or_default(), a.ok));
    }
    let names: Vec<String> = reports.iter().map(|(n, s, _)| format!("{n} {s}")).collect();
    assert_eq!(
        names,
        ["mute B", "mute C", "unmute B", "mute A", "unmute A", "mute B", "unmute B", "unmute C"]
    );
    assert!(reports.iter().all(|r| r.2));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_same_session_through_obs_websocket_with_a_password() {
    let mock =
        obs_mock::spawn("127.0.0.1:0", Some("s3cret"), &["Mic A", "Mic B", "C"]).await.unwrap();
    let (tx, rx) = broadcast::channel(64);
    let (clock_tx, clock_rx) = watch::channel(0.0);
    let config = OutputsConfig {
        rule: RuleKind::DebateMute,
        speakers: speakers(),
        obs: Some(ObsConfig {
            url: mock.url(),
            password: Some("s3cret".into()),
            inputs: [("A".into(), "Mic A".into()), ("B".into(), "Mic B".into())].into(),
        }),
        ..OutputsConfig::default()
    };
    let outputs = run_outputs(rx, Some(clock_rx), config).await.unwrap();
    replay(&debate(), &tx, &clock_tx, 4.0).await;
    drop(tx);
    let ended = Instant::now();
    outputs.finish().await;
    assert!(ended.elapsed() < Duration::from_secs(1));
    let log = mock.log.lock().unwrap();
    let seq: Vec<String> = log
        .requests
        .iter()
        .map(|r| {
            format!(
                "{} {} {}",
                r["requestType"].as_str().unwrap(),
                r["requestData"]["inputName"].as_str().unwrap(),
                r["requestData"]["inputMuted"]
            )
        })
        .collect();
    assert_eq!(
        seq,
        [
            "SetInputMute Mic B true",
            "SetInputMute C true",
            "SetInputMute Mic B false",
            "SetInputMute Mic A true",
            "SetInputMute Mic A false",
            "SetInputMute Mic B true",
            "SetInputMute Mic B false",
            "SetInputMute C false",
        ]
    );
    assert_eq!(log.identified, 1);
    assert!(log.inputs.values().all(|i| !i.muted));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreachable_actuators_are_reported_and_never_block_the_events() {
    // Nothing listens on these ports (bound, then closed).
    let dead_udp = UdpSocket::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap();
    let dead_tcp =
        tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap().local_addr().unwrap();
    let (tx, rx) = broadcast::channel(64);
    let (clock_tx, clock_rx) = watch::channel(0.0);
    let config = OutputsConfig {
        rule: RuleKind::DebateMute,
        speakers: speakers(),
        osc: Some(OscConfig {
            target: dead_udp,
            profile: OscProfile::Generic,
            map: Default::default(),
        }),
        obs: Some(ObsConfig {
            url: format!("ws://{dead_tcp}"),
            password: None,
            inputs: Default::default(),
        }),
        ..OutputsConfig::default()
    };
    let outputs = run_outputs(rx, Some(clock_rx), config).await.unwrap();
    let mut actions = outputs.actions();
    let events = debate();
    let started = Instant::now();
    replay(&events, &tx, &clock_tx, 4.0).await;
    // The events went through at their pace, whatever the actuators did.
    assert!(started.elapsed() < Duration::from_secs(6), "{:?}", started.elapsed());
    tokio::time::sleep(Duration::from_millis(100)).await;
    let snap = outputs.snapshot();
    assert_eq!(snap.events as usize, events.len() + snap.actions as usize);
    assert_eq!(snap.floor_changes, 3);
    drop(tx);
    outputs.finish().await;
    let mut failed_osc = 0;
    let mut failed_obs = 0;
    while let Ok(e) = actions.try_recv() {
        let a = e.action.unwrap();
        if !a.ok && a.target.starts_with("osc") {
            failed_osc += 1;
        }
        if !a.ok && a.target.starts_with("obs") {
            failed_obs += 1;
            assert!(a.error.is_some());
        }
    }
    // Retried: more than one failure each, but bounded by the backoff (100 ms doubling).
    assert!(failed_obs >= 2, "{failed_obs}");
    assert!(failed_osc >= 1, "{failed_osc}");
    assert!(failed_obs < 60 && failed_osc < 60, "{failed_obs} {failed_osc}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_audio_clock_releases_every_mute() {
    let (socket, addr) = receiver().await;
    let (tx, rx) = broadcast::channel(64);
    let (clock_tx, clock_rx) = watch::channel(0.0);
    let config = OutputsConfig {
        rule: RuleKind::DebateMute,
        // No cooldown, so the re-mute after the clock resumes is immediate.
        params: RuleParams { cooldown_s: 0.0, ..RuleParams::default() },
        speakers: vec!["A".into(), "B".into()],
        osc: Some(OscConfig {
            target: addr,
            profile: OscProfile::Generic,
            map: Default::default(),
        }),
        watchdog: Duration::from_millis(500),
        ..OutputsConfig::default()
    };
    let outputs = run_outputs(rx, Some(clock_rx), config).await.unwrap();
    let events = Scripted::new().at(0.0, SpeechStart, "A").at(0.0, FloorChange, "A").into_events();
    replay(&events, &tx, &clock_tx, 1.0).await;
    for i in 1..=50 {
        clock_tx.send_replace(f64::from(i) * 0.01);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let mute = next_message(&socket, Duration::from_millis(500)).await;
    assert_eq!(mute, Some(("/overtalk/B/mute".into(), vec![OscType::Int(1)])));
    // The clock stops at 0.5 s (the sender stays, events could still come).
    let stopped = Instant::now();
    let unmute = next_message(&socket, Duration::from_secs(2)).await;
    assert_eq!(unmute, Some(("/overtalk/B/mute".into(), vec![OscType::Int(0)])));
    let waited = stopped.elapsed();
    assert!(waited >= Duration::from_millis(400) && waited < Duration::from_secs(1), "{waited:?}");
    // When the clock runs again, the rule resumes.
    for i in 51..=60 {
        clock_tx.send_replace(f64::from(i) * 0.01);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let again = next_message(&socket, Duration::from_millis(500)).await;
    assert_eq!(again, Some(("/overtalk/B/mute".into(), vec![OscType::Int(1)])));
    drop(tx);
    outputs.finish().await;
    assert_eq!(
        next_message(&socket, Duration::from_millis(500)).await,
        Some(("/overtalk/B/mute".into(), vec![OscType::Int(0)]))
    );
}
