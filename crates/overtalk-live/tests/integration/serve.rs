//! The live web server: 50 WebSocket clients, one of them stalled, under a flood of events
//! (memory bounded, the stalled one dropped, every other one's view equal to the server's),
//! and the operator's `POST /floor` with and without a token.

use std::sync::atomic::Ordering;
use std::time::Duration;

use futures_util::StreamExt;
use overtalk::output::live::{EventState, LiveEvent, LiveEventKind};
use overtalk_live::rules::RuleKind;
use overtalk_live::serve::ServeConfig;
use overtalk_live::{run_outputs, OutputsConfig};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::broadcast;
use tokio_tungstenite::tungstenite::Message;

fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn event(id: u64) -> LiveEvent {
    let speaker = ["A", "B"][(id % 2) as usize];
    LiveEvent {
        id,
        kind: if id % 2 == 0 { LiveEventKind::SpeechStart } else { LiveEventKind::SpeechEnd },
        state: EventState::Committed,
        t_s: id as f64 * 0.01,
        decided_s: id as f64 * 0.01,
        speaker: Some(speaker.into()),
        holder: Some("A".into()),
        // Padding, so the flood is megabytes.
        class: Some("x".repeat(1000)),
        probability: None,
        refers_to: None,
        action: None,
        warning: None,
        revised: false,
    }
}

/// Reads a client's stream to its end; returns the events it accounts for (the last snapshot's
/// count plus the events after it) and how many snapshots it got.
async fn follow(url: String) -> (u64, u64) {
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let (mut count, mut snapshots) = (0u64, 0u64);
    while let Some(Ok(msg)) = ws.next().await {
        let Message::Text(text) = msg else { continue };
        // Only snapshots are parsed (they start with their type; events with their id).
        if text.as_str().starts_with(r#"{"type":"snapshot""#) {
            let v: Value = serde_json::from_str(text.as_str()).unwrap();
            count = v["events"].as_u64().unwrap();
            snapshots += 1;
        } else {
            assert!(text.as_str().starts_with(r#"{"id":"#));
            count += 1;
        }
    }
    (count, snapshots)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fifty_clients_one_stalled_memory_bounded_and_every_live_view_equal_to_the_server() {
    let (tx, rx) = broadcast::channel(8192);
    let config = OutputsConfig {
        rule: RuleKind::Alert,
        speakers: vec!["A".into(), "B".into()],
        serve: Some(ServeConfig { addr: "127.0.0.1:0".parse().unwrap(), token: None }),
        ..OutputsConfig::default()
    };
    let outputs = run_outputs(rx, None, config).await.unwrap();
    let addr = outputs.server_addr.unwrap();
    let stats = outputs.server_stats.clone().unwrap();
    let url = format!("ws://{addr}/events");
    // The stalled client: connects with a small receive buffer, then never reads.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(addr).await.unwrap();
    let (stalled, _) = tokio_tungstenite::client_async(url.clone(), stream).await.unwrap();
    let followers: Vec<_> = (0..49).map(|_| tokio::spawn(follow(url.clone()))).collect();
    while stats.connected.load(Ordering::Relaxed) < 50 {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let mut id = 0;
    let mut flood = |n: u64| {
        let tx = tx.clone();
        let start = id;
        id += n;
        async move {
            for i in start..start + n {
                // Paced a little so the driver keeps up; the clients need not.
                while tx.len() > 4096 {
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
                tx.send(event(i)).unwrap();
            }
        }
    };
    // 1 500 events of ~1.2 kB (1.8 MB) to every client, twice: memory after the second flood
    // is where it was after the first.
    flood(1_500).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let after_first = rss_kib();
    flood(1_500).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let after_second = rss_kib();
    assert!(
        after_second < after_first + 16 * 1024,
        "RSS grew from {after_first} KiB to {after_second} KiB"
    );
    assert_eq!(stats.dropped.load(Ordering::Relaxed), 1, "the stalled client is dropped");
    assert_eq!(stats.connected.load(Ordering::Relaxed), 49);
    drop(tx);
    let last = outputs.finish().await;
    assert_eq!(last.events, 3_000);
    for f in followers {
        let (count, _) = f.await.unwrap();
        assert_eq!(count, 3_000);
    }
    drop(stalled);
    eprintln!(
        "RSS {after_first} KiB -> {after_second} KiB; resyncs {}",
        stats.resyncs.load(Ordering::Relaxed)
    );
}

async fn post(addr: std::net::SocketAddr, body: &str, token: Option<&str>) -> (u16, String) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let auth = token.map(|t| format!("Authorization: Bearer {t}\r\n")).unwrap_or_default();
    let request = format!(
        "POST /floor HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n{auth}\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    s.write_all(request.as_bytes()).await.unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).await.unwrap();
    let code = out[9..12].parse().unwrap();
    let body = out.split("\r\n\r\n").nth(1).unwrap_or_default().to_owned();
    (code, body)
}

#[tokio::test]
async fn the_operator_gives_the_floor_with_the_token_only() {
    let (tx, rx) = broadcast::channel(16);
    let config = OutputsConfig {
        rule: RuleKind::Allocated,
        speakers: vec!["A".into(), "B".into()],
        serve: Some(ServeConfig {
            addr: "127.0.0.1:0".parse().unwrap(),
            token: Some("t0ken".into()),
        }),
        ..OutputsConfig::default()
    };
    let outputs = run_outputs(rx, None, config).await.unwrap();
    let addr = outputs.server_addr.unwrap();
    assert_eq!(post(addr, r#"{"speaker":"A"}"#, None).await.0, 401);
    assert_eq!(post(addr, r#"{"speaker":"A"}"#, Some("wrong")).await.0, 401);
    assert_eq!(
        post(addr, r#"{"speaker":"Z"}"#, Some("t0ken")).await,
        (422, "unknown speaker `Z`\n".into())
    );
    assert_eq!(post(addr, "{", Some("t0ken")).await.0, 400);
    assert_eq!(
        post(addr, r#"{"speaker":"A"}"#, Some("t0ken")).await,
        (202, r#"{"holder":"A"}"#.into())
    );
    tokio::time::sleep(Duration::from_millis(100)).await;
    let snap = outputs.snapshot();
    let muted: Vec<(&str, bool)> =
        snap.speakers.iter().map(|s| (s.name.as_str(), s.level.muted)).collect();
    assert_eq!(muted, [("A", false), ("B", true)]);
    drop(tx);
    outputs.finish().await;
    assert!(outputs_released(&addr).await);
}

async fn outputs_released(addr: &std::net::SocketAddr) -> bool {
    // The server stops with the session.
    tokio::net::TcpStream::connect(addr).await.is_err()
}

#[test]
fn listening_beyond_loopback_needs_a_token() {
    let open = ServeConfig { addr: "0.0.0.0:8765".parse().unwrap(), token: None };
    assert_eq!(
        open.check().unwrap_err().to_string(),
        "--serve 0.0.0.0:8765: listening beyond loopback needs --token (state changes are \
         token-checked)"
    );
    let guarded = ServeConfig { addr: "0.0.0.0:8765".parse().unwrap(), token: Some("t".into()) };
    assert!(guarded.check().is_ok());
    let local = ServeConfig { addr: "[::1]:8765".parse().unwrap(), token: None };
    assert!(local.check().is_ok());
}
