//! The live web server (`--serve ADDR`, loopback unless told otherwise): the page (`GET /`,
//! self-contained, no CDN), the events over a WebSocket (`GET /events`), the state now
//! (`GET /snapshot`), and the operator's override (`POST /floor {"speaker": NAME|null}`, which
//! needs `Authorization: Bearer TOKEN` whenever a token is set; a token is required to listen
//! beyond loopback).
//!
//! Memory stays bounded whatever the clients do: events go out through one ring of
//! [`EVENT_BUFFER`] lines shared by every client, and each connection's kernel send buffer is
//! [`CLIENT_SEND_BUFFER`]. A client that falls behind the ring is sent a
//! snapshot and continues from there (resync); a client that does not take a message within
//! [`SEND_TIMEOUT`] (stalled, or vanished without closing) is dropped.
//!
//! ```text
//! driver ──publish──► ring (1024 lines) ──► client 1 ──► socket
//!                                      ├─► client 2 (lagged: snapshot, then on)
//!                                      └─► client 3 (send timed out: dropped)
//! ```

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use overtalk::output::live::LiveEvent;
use serde::Deserialize;
use tokio::sync::{broadcast, mpsc, watch};

use crate::state::FloorState;

/// Lines kept for clients that are a little behind.
pub const EVENT_BUFFER: usize = 1024;

/// How long one message may take to go out before the client is dropped.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(2);

/// The page.
pub const PAGE: &str = include_str!("live_page.html");

/// The kernel send buffer of each client's connection: with the ring, what a stalled client
/// can hold before it is dropped.
pub const CLIENT_SEND_BUFFER: usize = 64 * 1024;

/// Where and how the server listens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServeConfig {
    /// The address to listen on.
    pub addr: SocketAddr,
    /// The token state changes need (required beyond loopback).
    pub token: Option<String>,
}

impl ServeConfig {
    /// Checks the loopback rule.
    pub fn check(&self) -> anyhow::Result<()> {
        if !self.addr.ip().is_loopback() && self.token.as_deref().is_none_or(str::is_empty) {
            anyhow::bail!(
                "--serve {}: listening beyond loopback needs --token (state changes are \
                 token-checked)",
                self.addr
            );
        }
        Ok(())
    }
}

/// Counters of the server, for tests and the page's footer.
#[derive(Debug, Default)]
pub struct ServerStats {
    /// Clients connected now.
    pub connected: AtomicUsize,
    /// Clients dropped for not taking a message in time.
    pub dropped: AtomicU64,
    /// Snapshots sent to clients that fell behind.
    pub resyncs: AtomicU64,
}

#[derive(Clone)]
struct App {
    lines: broadcast::Sender<Arc<str>>,
    state: Arc<Mutex<FloorState>>,
    operator: mpsc::Sender<Option<String>>,
    token: Option<String>,
    stats: Arc<ServerStats>,
    stopped: watch::Receiver<bool>,
}

/// A running server.
pub struct Server {
    /// The address it listens on (the port resolved when 0 was asked).
    pub addr: SocketAddr,
    /// Its counters.
    pub stats: Arc<ServerStats>,
    lines: broadcast::Sender<Arc<str>>,
    stop: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Sends an event to every client.
    pub fn publish(&self, event: &LiveEvent) {
        if let Ok(line) = serde_json::to_string(event) {
            let _ = self.lines.send(line.into());
        }
    }

    /// Stops listening and closes the clients.
    pub async fn stop(self) {
        let _ = self.stop.send(true);
        let _ = tokio::time::timeout(Duration::from_secs(1), self.task).await;
    }
}

/// Starts the server; `state` is the fold the snapshots come from, `operator` where overrides
/// go.
pub async fn start(
    config: &ServeConfig,
    state: Arc<Mutex<FloorState>>,
    operator: mpsc::Sender<Option<String>>,
) -> anyhow::Result<Server> {
    config.check()?;
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| anyhow::anyhow!("--serve {}: {e}", config.addr))?;
    let addr = listener.local_addr()?;
    let (lines, _) = broadcast::channel(EVENT_BUFFER);
    let stats = Arc::new(ServerStats::default());
    let (stop, mut stopped) = watch::channel(false);
    let app = App {
        stopped: stopped.clone(),
        lines: lines.clone(),
        state,
        operator,
        token: config.token.clone().filter(|t| !t.is_empty()),
        stats: stats.clone(),
    };
    let router = Router::new()
        .route("/", get(page))
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route("/snapshot", get(snapshot))
        .route("/events", get(events))
        .route("/floor", post(floor))
        .with_state(app);
    let task = tokio::spawn(async move {
        let shutdown = async move {
            let _ = stopped.wait_for(|s| *s).await;
        };
        let listener =
            axum::serve::ListenerExt::tap_io(listener, |tcp: &mut tokio::net::TcpStream| {
                let _ = tcp.set_nodelay(true);
                let _ = socket2::SockRef::from(&*tcp).set_send_buffer_size(CLIENT_SEND_BUFFER);
            });
        let _ = axum::serve(listener, router).with_graceful_shutdown(shutdown).await;
    });
    Ok(Server { addr, stats, lines, stop, task })
}

async fn page() -> impl IntoResponse {
    ([(header::CACHE_CONTROL, "no-store")], Html(PAGE))
}

fn snapshot_line(state: &Mutex<FloorState>) -> String {
    match state.lock() {
        Ok(s) => serde_json::to_string(&s.snapshot()).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

async fn snapshot(State(app): State<App>) -> Response {
    (
        [(header::CONTENT_TYPE, "application/json"), (header::CACHE_CONTROL, "no-store")],
        snapshot_line(&app.state),
    )
        .into_response()
}

async fn events(State(app): State<App>, upgrade: WebSocketUpgrade) -> Response {
    upgrade.on_upgrade(move |socket| client(socket, app))
}

/// A new receiver of the ring and the snapshot of the same instant: the driver folds and
/// publishes under the state's lock, so every event is either in the snapshot or in the ring
/// after it, never both, never neither.
fn subscribe(app: &App) -> (broadcast::Receiver<Arc<str>>, String) {
    let state = match app.state.lock() {
        Ok(s) => s,
        Err(poisoned) => poisoned.into_inner(),
    };
    let lines = app.lines.subscribe();
    (lines, serde_json::to_string(&state.snapshot()).unwrap_or_default())
}

async fn client(socket: WebSocket, app: App) {
    app.stats.connected.fetch_add(1, Ordering::Relaxed);
    let (mut sink, mut incoming) = socket.split();
    let (mut lines, first) = subscribe(&app);
    let mut stopped = app.stopped.clone();
    let mut ok = send(&mut sink, first).await;
    while ok {
        tokio::select! {
            // What is in the ring goes out before the close.
            biased;
            line = lines.recv() => match line {
                Ok(line) => ok = send(&mut sink, line.to_string()).await,
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    app.stats.resyncs.fetch_add(1, Ordering::Relaxed);
                    let (fresh, snapshot) = subscribe(&app);
                    lines = fresh;
                    ok = send(&mut sink, snapshot).await;
                }
                Err(broadcast::error::RecvError::Closed) => break,
            },
            // Only `true` is ever sent, and a dropped sender is the end too.
            _ = stopped.changed() => {
                // The session is over: say so and close.
                let _ = tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::Close(None))).await;
                break;
            }
            msg = incoming.next() => match msg {
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
        }
        if !ok {
            app.stats.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }
    app.stats.connected.fetch_sub(1, Ordering::Relaxed);
}

/// Sends one text message; false when it failed or did not go out within [`SEND_TIMEOUT`].
async fn send(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    text: String,
) -> bool {
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::Text(text.into()))).await,
        Ok(Ok(()))
    )
}

#[derive(Deserialize)]
struct FloorRequest {
    speaker: Option<String>,
}

async fn floor(State(app): State<App>, headers: HeaderMap, body: String) -> Response {
    if let Some(token) = &app.token {
        let given = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        if given != Some(token.as_str()) {
            return (StatusCode::UNAUTHORIZED, "POST /floor needs Authorization: Bearer TOKEN\n")
                .into_response();
        }
    }
    let request: FloorRequest = match serde_json::from_str(&body) {
        Ok(r) => r,
        Err(e) => {
            return (
                StatusCode::BAD_REQUEST,
                format!("POST /floor takes {{\"speaker\": NAME or null}}: {e}\n"),
            )
                .into_response()
        }
    };
    if let Some(name) = &request.speaker {
        let known = app.state.lock().is_ok_and(|s| s.speakers().any(|s| s == name));
        if !known {
            return (StatusCode::UNPROCESSABLE_ENTITY, format!("unknown speaker `{name}`\n"))
                .into_response();
        }
    }
    match app.operator.try_send(request.speaker.clone()) {
        Ok(()) => (StatusCode::ACCEPTED, Json(serde_json::json!({ "holder": request.speaker })))
            .into_response(),
        Err(_) => {
            (StatusCode::SERVICE_UNAVAILABLE, "the rule is busy; try again\n").into_response()
        }
    }
}
