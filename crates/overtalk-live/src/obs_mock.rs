//! A stand-in for OBS Studio's obs-websocket v5 server, for tests and the check against the
//! reference Python client (`scripts/live/obsws_check.sh`): `Hello` with or without an
//! authentication challenge, `Identify` checked (a wrong password closes with 4009, as OBS
//! does), and the requests the OBS actuator sends (`SetInputMute`, `SetInputVolume`) plus
//! `GetInputMute`, `GetInputVolume` and `GetVersion`, answered from a table of inputs. Every
//! request it receives is logged in order.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::protocol::{frame::coding::CloseCode, CloseFrame};
use tokio_tungstenite::tungstenite::Message;

use crate::actuate::obs::{authentication, RPC_VERSION};

/// One input's state in the mock.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MockInput {
    /// Muted.
    pub muted: bool,
    /// Volume in dB.
    pub volume_db: f64,
}

/// What the mock has seen and holds.
#[derive(Debug, Default)]
pub struct MockObsLog {
    /// Every request (`d` of op 6), in arrival order.
    pub requests: Vec<Value>,
    /// The inputs, by name.
    pub inputs: BTreeMap<String, MockInput>,
    /// Successful identifications.
    pub identified: usize,
}

/// A running mock server.
pub struct MockObs {
    /// Where it listens.
    pub addr: SocketAddr,
    /// What it has seen.
    pub log: Arc<Mutex<MockObsLog>>,
    task: tokio::task::JoinHandle<()>,
}

impl MockObs {
    /// `ws://ADDR`.
    pub fn url(&self) -> String {
        format!("ws://{}", self.addr)
    }

    /// Stops listening (open connections end with it).
    pub fn stop(self) {
        self.task.abort();
    }
}

/// Listens on `addr` (port 0 for any) with `inputs`; asks for `password` when given.
pub async fn spawn(
    addr: &str,
    password: Option<&str>,
    inputs: &[&str],
) -> std::io::Result<MockObs> {
    let listener = TcpListener::bind(addr).await?;
    let addr = listener.local_addr()?;
    let log = Arc::new(Mutex::new(MockObsLog {
        inputs: inputs.iter().map(|n| (n.to_string(), MockInput::default())).collect(),
        ..MockObsLog::default()
    }));
    let password = password.map(str::to_owned);
    let shared = log.clone();
    let task = tokio::spawn(async move {
        let mut connections = tokio::task::JoinSet::new();
        while let Ok((stream, _)) = listener.accept().await {
            let log = shared.clone();
            let password = password.clone();
            connections.spawn(async move {
                let _ = session(stream, password, log).await;
            });
        }
    });
    Ok(MockObs { addr, log, task })
}

async fn session(
    stream: tokio::net::TcpStream,
    password: Option<String>,
    log: Arc<Mutex<MockObsLog>>,
) -> Result<(), String> {
    let mut ws = tokio_tungstenite::accept_async(stream).await.map_err(|e| e.to_string())?;
    let (salt, challenge) = ("bW9jay1zYWx0LW9mLW92ZXJ0YWxr", "bW9jay1jaGFsbGVuZ2U=");
    let mut hello =
        json!({"op": 0, "d": {"obsWebSocketVersion": "5.5.0", "rpcVersion": RPC_VERSION}});
    if password.is_some() {
        hello["d"]["authentication"] = json!({"challenge": challenge, "salt": salt});
    }
    ws.send(Message::text(hello.to_string())).await.map_err(|e| e.to_string())?;
    let mut identified = false;
    while let Some(msg) = ws.next().await {
        let Ok(Message::Text(text)) = msg else { continue };
        let Ok(msg) = serde_json::from_str::<Value>(text.as_str()) else {
            let close = CloseFrame { code: CloseCode::from(4002), reason: "DecodeError".into() };
            let _ = ws.close(Some(close)).await;
            return Ok(());
        };
        match (msg["op"].as_u64(), identified) {
            (Some(1), false) => {
                if let Some(p) = &password {
                    if msg["d"]["authentication"] != json!(authentication(p, salt, challenge)) {
                        let close = CloseFrame {
                            code: CloseCode::from(4009),
                            reason: "Authentication failed.".into(),
                        };
                        let _ = ws.close(Some(close)).await;
                        return Ok(());
                    }
                }
                identified = true;
                log.lock().map_err(|e| e.to_string())?.identified += 1;
                let reply = json!({"op": 2, "d": {"negotiatedRpcVersion": RPC_VERSION}});
                ws.send(Message::text(reply.to_string())).await.map_err(|e| e.to_string())?;
            }
            (Some(6), true) => {
                let reply = answer(&msg["d"], &log);
                ws.send(Message::text(reply.to_string())).await.map_err(|e| e.to_string())?;
            }
            _ => {
                let close =
                    CloseFrame { code: CloseCode::from(4007), reason: "NotIdentified".into() };
                let _ = ws.close(Some(close)).await;
                return Ok(());
            }
        }
    }
    Ok(())
}

fn answer(d: &Value, log: &Arc<Mutex<MockObsLog>>) -> Value {
    let Ok(mut log) = log.lock() else { return json!({}) };
    log.requests.push(d.clone());
    let kind = d["requestType"].as_str().unwrap_or_default().to_owned();
    let data = &d["requestData"];
    let name = data["inputName"].as_str().unwrap_or_default().to_owned();
    let mut status = json!({"result": true, "code": 100});
    let mut response = Value::Null;
    let missing = json!({"result": false, "code": 600,
        "comment": format!("No source was found by the name of `{name}`.")});
    match kind.as_str() {
        "GetVersion" => {
            response = json!({"obsVersion": "30.0.0", "obsWebSocketVersion": "5.5.0",
                "rpcVersion": RPC_VERSION, "availableRequests": ["SetInputMute", "SetInputVolume",
                "GetInputMute", "GetInputVolume", "GetVersion"]});
        }
        "SetInputMute" | "SetInputVolume" | "GetInputMute" | "GetInputVolume" => {
            match log.inputs.get_mut(&name) {
                None => status = missing,
                Some(input) => match kind.as_str() {
                    "SetInputMute" => match data["inputMuted"].as_bool() {
                        Some(m) => input.muted = m,
                        None => {
                            status = json!({"result": false, "code": 300,
                            "comment": "Your request is missing the `inputMuted` field."})
                        }
                    },
                    "SetInputVolume" => match data["inputVolumeDb"].as_f64() {
                        Some(db) => input.volume_db = db,
                        None => {
                            status = json!({"result": false, "code": 300,
                            "comment": "Your request is missing the `inputVolumeDb` field."})
                        }
                    },
                    "GetInputMute" => response = json!({"inputMuted": input.muted}),
                    _ => {
                        response = json!({"inputVolumeDb": input.volume_db,
                            "inputVolumeMul": 10f64.powf(input.volume_db / 20.0)})
                    }
                },
            }
        }
        _ => status = json!({"result": false, "code": 204, "comment": "Unknown request type."}),
    }
    let mut reply = json!({"op": 7, "d": {"requestType": kind, "requestId": d["requestId"],
        "requestStatus": status}});
    if !response.is_null() {
        reply["d"]["responseData"] = response;
    }
    reply
}
