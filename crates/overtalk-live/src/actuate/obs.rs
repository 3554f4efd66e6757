//! OBS Studio through obs-websocket v5 (`--obs ws://HOST:PORT`, default port 4455): a mute is
//! `SetInputMute {inputName, inputMuted}`, a duck `SetInputVolume {inputName, inputVolumeDb}`
//! (−N dB, and 0 dB to undo). Each request waits for its `RequestResponse`; `ok` is the
//! response's `requestStatus.result`, so a missing input is reported with OBS's own comment.
//!
//! Connecting follows the protocol: the server's `Hello` (op 0), our `Identify` (op 1, with the
//! authentication string when the server asks for one), its `Identified` (op 2). The password
//! comes from an environment variable (`OBS_WEBSOCKET_PASSWORD` unless told otherwise), never
//! from the command line. The authentication string is
//! `base64(sha256(base64(sha256(password + salt)) + challenge))`.
//!
//! A broken connection is dropped and made again at the next attempt (the actuator task's
//! backoff paces the attempts).

use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};
use tokio_tungstenite::tungstenite::{self, Message};

use super::{Actuator, Attempt};
use crate::failsafe::Releaser;
use crate::state::ChannelLevel;

/// obs-websocket's RPC version.
pub const RPC_VERSION: u64 = 1;

/// The authentication string for `password` and the `Hello`'s `salt` and `challenge`.
pub fn authentication(password: &str, salt: &str, challenge: &str) -> String {
    let b64 = base64::engine::general_purpose::STANDARD;
    let secret = b64.encode(Sha256::digest(format!("{password}{salt}").as_bytes()));
    b64.encode(Sha256::digest(format!("{secret}{challenge}").as_bytes()))
}

/// The `Identify` answering a `Hello` message.
pub fn identify(hello: &Value, password: Option<&str>) -> Result<Value, String> {
    if hello["op"] != 0 {
        return Err(format!("expected Hello (op 0), got {hello}"));
    }
    let mut d = json!({ "rpcVersion": RPC_VERSION, "eventSubscriptions": 0 });
    if let Some(auth) = hello["d"].get("authentication") {
        let password =
            password.ok_or("OBS asks for a password and the environment variable is not set")?;
        let salt = auth["salt"].as_str().ok_or("Hello without a salt")?;
        let challenge = auth["challenge"].as_str().ok_or("Hello without a challenge")?;
        d["authentication"] = json!(authentication(password, salt, challenge));
    }
    Ok(json!({ "op": 1, "d": d }))
}

/// The request that moves an input from `from` to `to` (mute, or volume), with its id.
pub fn requests(input: &str, from: ChannelLevel, to: ChannelLevel, id: u64) -> Vec<Value> {
    let mut out = Vec::new();
    if from.muted != to.muted {
        out.push(json!({ "op": 6, "d": {
            "requestType": "SetInputMute",
            "requestId": format!("overtalk-{id}"),
            "requestData": { "inputName": input, "inputMuted": to.muted },
        }}));
    }
    if from.duck_db != to.duck_db {
        out.push(json!({ "op": 6, "d": {
            "requestType": "SetInputVolume",
            "requestId": format!("overtalk-{id}-volume"),
            "requestData": { "inputName": input, "inputVolumeDb": 0.0 - to.duck_db },
        }}));
    }
    out
}

/// Checks a `RequestResponse` for `request`: `Ok` when OBS did it.
pub fn check_response(request: &Value, response: &Value) -> Result<(), String> {
    if response["op"] != 7 || response["d"]["requestId"] != request["d"]["requestId"] {
        return Err(format!("unexpected answer {response}"));
    }
    let status = &response["d"]["requestStatus"];
    if status["result"] == true {
        Ok(())
    } else {
        Err(format!(
            "{} failed: code {} {}",
            request["d"]["requestType"].as_str().unwrap_or("?"),
            status["code"],
            status["comment"].as_str().unwrap_or("")
        ))
    }
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The OBS actuator.
pub struct Obs {
    url: String,
    password: Option<String>,
    inputs: BTreeMap<String, String>,
    socket: Option<Socket>,
    next_id: u64,
}

impl Obs {
    /// Talks to `url`; `inputs` maps speakers to OBS input names (a speaker not in it is
    /// controlled through the input of its own name).
    pub fn new(url: &str, password: Option<String>, inputs: BTreeMap<String, String>) -> Obs {
        Obs { url: url.to_owned(), password, inputs, socket: None, next_id: 0 }
    }

    fn input<'a>(&'a self, speaker: &'a str) -> &'a str {
        self.inputs.get(speaker).map_or(speaker, String::as_str)
    }

    async fn connect(&mut self) -> Result<(), String> {
        let (mut ws, _) =
            tokio_tungstenite::connect_async(self.url.as_str()).await.map_err(|e| e.to_string())?;
        let hello = next_json(&mut ws).await?;
        let identify = identify(&hello, self.password.as_deref())?;
        ws.send(Message::text(identify.to_string())).await.map_err(|e| e.to_string())?;
        let identified = next_json(&mut ws).await?;
        if identified["op"] != 2 {
            return Err(format!("not identified: {identified}"));
        }
        self.socket = Some(ws);
        Ok(())
    }

    async fn request(&mut self, request: &Value) -> Result<(), String> {
        if self.socket.is_none() {
            self.connect().await?;
        }
        let Some(ws) = self.socket.as_mut() else { return Err("not connected".into()) };
        let result = async {
            ws.send(Message::text(request.to_string())).await.map_err(|e| e.to_string())?;
            loop {
                let answer = next_json(ws).await?;
                // Events (op 5) may come in between; the answer names our request.
                if answer["op"] == 7 {
                    return check_response(request, &answer);
                }
            }
        }
        .await;
        if result.as_ref().is_err_and(|e| !e.contains("failed: code")) {
            self.socket = None;
        }
        result
    }
}

async fn next_json(ws: &mut Socket) -> Result<Value, String> {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(text))) => {
                return serde_json::from_str(text.as_str()).map_err(|e| e.to_string())
            }
            Some(Ok(Message::Close(frame))) => return Err(format!("closed by OBS: {frame:?}")),
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(e.to_string()),
            None => return Err("connection closed".into()),
        }
    }
}

impl Actuator for Obs {
    async fn set_level(&mut self, speaker: &str, from: ChannelLevel, to: ChannelLevel) -> Attempt {
        self.next_id += 1;
        let input = self.input(speaker).to_owned();
        let target = format!("obs {} {input}", self.url);
        for request in requests(&input, from, to, self.next_id) {
            self.request(&request).await.map_err(|e| (target.clone(), e))?;
        }
        Ok(Some(target))
    }

    async fn cue(&mut self, _: Option<&str>, _: &str) -> Attempt {
        Ok(None)
    }

    fn releaser(&self) -> Releaser {
        let (url, password, inputs) =
            (self.url.clone(), self.password.clone(), self.inputs.clone());
        Arc::new(move |channels: &[(String, ChannelLevel)], deadline: Instant| {
            let _ = release_blocking(&url, password.as_deref(), &inputs, channels, deadline);
        })
    }
}

/// A blocking obs-websocket session (std sockets) that opens `channels`: every step waits at
/// most 300 ms and none goes past `deadline`.
fn release_blocking(
    url: &str,
    password: Option<&str>,
    inputs: &BTreeMap<String, String>,
    channels: &[(String, ChannelLevel)],
    deadline: Instant,
) -> Result<(), String> {
    // What the next step may wait: 300 ms, less when the deadline is nearer, none after it.
    let step = || {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            Err("the release deadline passed".to_owned())
        } else {
            Ok(left.min(Duration::from_millis(300)))
        }
    };
    let authority =
        url.strip_prefix("ws://").ok_or("only ws:// URLs")?.split('/').next().unwrap_or_default();
    let addr =
        authority.to_socket_addrs().map_err(|e| e.to_string())?.next().ok_or("no address")?;
    let stream = TcpStream::connect_timeout(&addr, step()?).map_err(|e| e.to_string())?;
    let bound = |stream: &TcpStream| -> Result<(), String> {
        let t = step()?;
        stream.set_read_timeout(Some(t)).map_err(|e| e.to_string())?;
        stream.set_write_timeout(Some(t)).map_err(|e| e.to_string())
    };
    bound(&stream)?;
    let (mut ws, _) = tungstenite::client(url, stream).map_err(|e| e.to_string())?;
    bound(ws.get_ref())?;
    let hello = read_json(&mut ws)?;
    bound(ws.get_ref())?;
    ws.send(Message::text(identify(&hello, password)?.to_string())).map_err(|e| e.to_string())?;
    bound(ws.get_ref())?;
    read_json(&mut ws)?;
    for (i, (speaker, from)) in channels.iter().enumerate() {
        let input = inputs.get(speaker).map_or(speaker.as_str(), String::as_str);
        for request in requests(input, *from, ChannelLevel::OPEN, 1_000_000 + i as u64) {
            bound(ws.get_ref())?;
            ws.send(Message::text(request.to_string())).map_err(|e| e.to_string())?;
            bound(ws.get_ref())?;
            read_json(&mut ws)?;
        }
    }
    let _ = ws.close(None);
    Ok(())
}

fn read_json<S: Read + Write>(ws: &mut tungstenite::WebSocket<S>) -> Result<Value, String> {
    loop {
        match ws.read().map_err(|e| e.to_string())? {
            Message::Text(text) => {
                return serde_json::from_str(text.as_str()).map_err(|e| e.to_string())
            }
            Message::Close(_) => return Err("closed".into()),
            _ => continue,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_authentication_string_follows_the_protocol() {
        // The password, salt and challenge of the protocol documentation's pseudo code; the
        // expected string computed independently with Python's hashlib and base64.
        let a = authentication(
            "supersecretpassword",
            "PZVbYpvAnZut2SS6JNJytDm9",
            "ztTBnnuqrqaKDzRM3xcVdbYm",
        );
        assert_eq!(a, "zZgWipvwSGrw748kHN4gNpBC1IaeiiWX3Hjkrm849Sc=");
    }

    #[test]
    fn identify_answers_hello_with_or_without_a_password() {
        let plain = json!({"op": 0, "d": {"obsWebSocketVersion": "5.0.1", "rpcVersion": 1}});
        assert_eq!(
            identify(&plain, None).unwrap(),
            json!({"op": 1, "d": {"rpcVersion": 1, "eventSubscriptions": 0}})
        );
        let auth = json!({"op": 0, "d": {"rpcVersion": 1, "authentication": {"salt": "s", "challenge": "c"}}});
        assert_eq!(
            identify(&auth, None).unwrap_err(),
            "OBS asks for a password and the environment variable is not set"
        );
        assert_eq!(
            identify(&auth, Some("p")).unwrap()["d"]["authentication"],
            json!(authentication("p", "s", "c"))
        );
    }

    #[test]
    fn requests_and_responses() {
        let muted = ChannelLevel { muted: true, duck_db: 0.0 };
        let r = requests("Mic A", ChannelLevel::OPEN, muted, 7);
        assert_eq!(
            r,
            vec![
                json!({"op": 6, "d": {"requestType": "SetInputMute", "requestId": "overtalk-7", "requestData": {"inputName": "Mic A", "inputMuted": true}}})
            ]
        );
        let ok = json!({"op": 7, "d": {"requestType": "SetInputMute", "requestId": "overtalk-7", "requestStatus": {"result": true, "code": 100}}});
        assert_eq!(check_response(&r[0], &ok), Ok(()));
        let missing = json!({"op": 7, "d": {"requestType": "SetInputMute", "requestId": "overtalk-7", "requestStatus": {"result": false, "code": 600, "comment": "No source was found by the name of `Mic A`."}}});
        assert_eq!(
            check_response(&r[0], &missing).unwrap_err(),
            "SetInputMute failed: code 600 No source was found by the name of `Mic A`."
        );
        let ducked = ChannelLevel { muted: false, duck_db: 6.0 };
        assert_eq!(
            requests("Mic A", ChannelLevel::OPEN, ducked, 8)[0]["d"]["requestData"],
            json!({"inputName": "Mic A", "inputVolumeDb": -6.0})
        );
    }
}
