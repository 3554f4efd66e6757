//! OSC over UDP (`--osc HOST:PORT`, `--osc-profile`, `--osc-map NAME=CHANNEL,…`): one datagram
//! per change, in the addresses of the profile:
//!
//! | profile | mute / unmute | duck by N dB / back | default port |
//! | --- | --- | --- | --- |
//! | `x32` | `/ch/NN/mix/on ,i 0` / `,i 1` | `/ch/NN/mix/fader ,f x(−N dB)` / `,f 0.75` (0 dB) | 10023 |
//! | `xair` | as `x32` (channels 01–16) | as `x32` | 10024 |
//! | `reaper` | `/track/N/mute ,i 1` / `,i 0` | `/track/N/volume/db ,f −N` / `,f 0` | set in REAPER |
//! | `ardour` | `/strip/mute ,ii N 1` / `,ii N 0` | `/strip/gain ,if N −N` / `,if N 0` | 3819 |
//! | `generic` | `/overtalk/NAME/mute ,i 1` / `,i 0` | `/overtalk/NAME/duck ,f N` / `,f 0` | — |
//!
//! Cues go out only in the `generic` profile, as `/overtalk/cue ,ss NAME TEXT`. X32 faders take
//! a position in 0..1, not dB: [`x32_fader`] is the console's published four-segment mapping;
//! ducking assumes the fader sat at 0 dB and puts it back there.
//!
//! The socket is connected to the target, so on loopback a receiver that is not listening shows
//! up as an error on a following send (an ICMP port-unreachable), reported with `ok = false`
//! and retried.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;

use rosc::{OscMessage, OscPacket, OscType};
use tokio::net::UdpSocket;

use super::{Actuator, Attempt};
use crate::failsafe::Releaser;
use crate::state::ChannelLevel;

/// Which device's OSC addresses are used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OscProfile {
    /// Behringer X32 / Midas M32.
    X32,
    /// Behringer X Air / Midas MR.
    Xair,
    /// REAPER's default OSC pattern.
    Reaper,
    /// Ardour's OSC surface.
    Ardour,
    /// `/overtalk/NAME/...`, for Bitfocus Companion, TouchOSC or a script.
    #[default]
    Generic,
}

impl OscProfile {
    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            OscProfile::X32 => "x32",
            OscProfile::Xair => "xair",
            OscProfile::Reaper => "reaper",
            OscProfile::Ardour => "ardour",
            OscProfile::Generic => "generic",
        }
    }

    /// Whether each speaker needs a channel number (`--osc-map`).
    pub fn needs_map(self) -> bool {
        self != OscProfile::Generic
    }

    /// The highest channel number the device has, when it has a fixed one.
    pub fn max_channel(self) -> Option<u32> {
        match self {
            OscProfile::X32 => Some(32),
            OscProfile::Xair => Some(16),
            _ => None,
        }
    }
}

/// The X32/XAir fader position (0..1) for a level in dB: the consoles' four linear segments
/// (−∞…−60, −60…−30, −30…−10, −10…+10 dB).
pub fn x32_fader(db: f64) -> f32 {
    let x = if db >= -10.0 {
        (db + 30.0) / 40.0
    } else if db >= -30.0 {
        (db + 50.0) / 80.0
    } else if db >= -60.0 {
        (db + 70.0) / 160.0
    } else if db >= -90.0 {
        (db + 90.0) / 480.0
    } else {
        0.0
    };
    x.clamp(0.0, 1.0) as f32
}

fn msg(addr: String, args: Vec<OscType>) -> OscMessage {
    OscMessage { addr, args }
}

/// The messages that move a channel from `from` to `to` (mute first, then gain).
pub fn messages(
    profile: OscProfile,
    name: &str,
    channel: Option<u32>,
    from: ChannelLevel,
    to: ChannelLevel,
) -> Vec<OscMessage> {
    let n = channel.unwrap_or(0);
    let mut out = Vec::new();
    if from.muted != to.muted {
        out.push(match profile {
            OscProfile::X32 | OscProfile::Xair => {
                msg(format!("/ch/{n:02}/mix/on"), vec![OscType::Int(i32::from(!to.muted))])
            }
            OscProfile::Reaper => {
                msg(format!("/track/{n}/mute"), vec![OscType::Int(i32::from(to.muted))])
            }
            OscProfile::Ardour => msg(
                "/strip/mute".into(),
                vec![OscType::Int(n as i32), OscType::Int(i32::from(to.muted))],
            ),
            OscProfile::Generic => {
                msg(format!("/overtalk/{name}/mute"), vec![OscType::Int(i32::from(to.muted))])
            }
        });
    }
    if from.duck_db != to.duck_db {
        // 0 dB, not −0 dB, when the duck is undone.
        let db = 0.0 - to.duck_db;
        out.push(match profile {
            OscProfile::X32 | OscProfile::Xair => {
                msg(format!("/ch/{n:02}/mix/fader"), vec![OscType::Float(x32_fader(db))])
            }
            OscProfile::Reaper => {
                msg(format!("/track/{n}/volume/db"), vec![OscType::Float(db as f32)])
            }
            OscProfile::Ardour => {
                msg("/strip/gain".into(), vec![OscType::Int(n as i32), OscType::Float(db as f32)])
            }
            OscProfile::Generic => {
                msg(format!("/overtalk/{name}/duck"), vec![OscType::Float(to.duck_db as f32)])
            }
        });
    }
    out
}

/// Parses `--osc-map NAME=CHANNEL,…`.
pub fn parse_map(text: &str, profile: OscProfile) -> anyhow::Result<BTreeMap<String, u32>> {
    let mut map = BTreeMap::new();
    for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, number) = item
            .rsplit_once('=')
            .ok_or_else(|| anyhow::anyhow!("--osc-map: `{item}` is not NAME=CHANNEL"))?;
        let number: u32 = number.trim().parse().map_err(|_| {
            anyhow::anyhow!("--osc-map: `{number}` in `{item}` is not a channel number")
        })?;
        if number == 0 || profile.max_channel().is_some_and(|m| number > m) {
            anyhow::bail!(
                "--osc-map: channel {number} of `{item}` is outside 1..={} for {}",
                profile.max_channel().unwrap_or(u32::MAX),
                profile.name()
            );
        }
        if map.insert(name.trim().to_owned(), number).is_some() {
            anyhow::bail!("--osc-map: `{}` is mapped twice", name.trim());
        }
    }
    Ok(map)
}

/// The OSC actuator.
pub struct Osc {
    target: SocketAddr,
    profile: OscProfile,
    map: BTreeMap<String, u32>,
    socket: Option<UdpSocket>,
}

impl Osc {
    /// Sends to `target` in `profile`'s addresses; `map` gives each speaker's channel.
    pub fn new(target: SocketAddr, profile: OscProfile, map: BTreeMap<String, u32>) -> Osc {
        Osc { target, profile, map, socket: None }
    }

    fn channel(&self, name: &str) -> Option<Option<u32>> {
        if self.profile.needs_map() {
            self.map.get(name).map(|&n| Some(n))
        } else {
            Some(self.map.get(name).copied())
        }
    }

    fn describe(&self, m: &[OscMessage]) -> String {
        let addrs: Vec<&str> = m.iter().map(|m| m.addr.as_str()).collect();
        format!("osc {} {}", self.target, addrs.join(" "))
    }

    async fn send_all(&mut self, packets: &[OscMessage]) -> Result<(), String> {
        if self.socket.is_none() {
            let bind = if self.target.is_ipv4() { "0.0.0.0:0" } else { "[::]:0" };
            let socket = UdpSocket::bind(bind).await.map_err(|e| e.to_string())?;
            socket.connect(self.target).await.map_err(|e| e.to_string())?;
            self.socket = Some(socket);
        }
        let Some(socket) = &self.socket else { return Err("no socket".into()) };
        for m in packets {
            let bytes =
                rosc::encoder::encode(&OscPacket::Message(m.clone())).map_err(|e| e.to_string())?;
            if let Err(e) = socket.send(&bytes).await {
                self.socket = None;
                return Err(e.to_string());
            }
        }
        Ok(())
    }
}

impl Actuator for Osc {
    async fn set_level(&mut self, name: &str, from: ChannelLevel, to: ChannelLevel) -> Attempt {
        let Some(channel) = self.channel(name) else { return Ok(None) };
        let packets = messages(self.profile, name, channel, from, to);
        if packets.is_empty() {
            return Ok(None);
        }
        let target = self.describe(&packets);
        match self.send_all(&packets).await {
            Ok(()) => Ok(Some(target)),
            Err(e) => Err((target, e)),
        }
    }

    async fn cue(&mut self, channel: Option<&str>, text: &str) -> Attempt {
        if self.profile != OscProfile::Generic {
            return Ok(None);
        }
        let m = msg(
            "/overtalk/cue".into(),
            vec![OscType::String(channel.unwrap_or("").into()), OscType::String(text.into())],
        );
        let target = self.describe(std::slice::from_ref(&m));
        match self.send_all(&[m]).await {
            Ok(()) => Ok(Some(target)),
            Err(e) => Err((target, e)),
        }
    }

    fn releaser(&self) -> Releaser {
        // One datagram per message, sent at once: nothing here waits for the deadline.
        let osc = Osc::new(self.target, self.profile, self.map.clone());
        Arc::new(move |channels: &[(String, ChannelLevel)], _| {
            let bind = if osc.target.is_ipv4() { "0.0.0.0:0" } else { "[::]:0" };
            let Ok(socket) = std::net::UdpSocket::bind(bind) else { return };
            for (name, from) in channels {
                let Some(channel) = osc.channel(name) else { continue };
                for m in messages(osc.profile, name, channel, *from, ChannelLevel::OPEN) {
                    if let Ok(bytes) = rosc::encoder::encode(&OscPacket::Message(m)) {
                        let _ = socket.send_to(&bytes, osc.target);
                    }
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MUTED: ChannelLevel = ChannelLevel { muted: true, duck_db: 0.0 };
    const DUCKED: ChannelLevel = ChannelLevel { muted: false, duck_db: 12.0 };

    fn show(m: &[OscMessage]) -> Vec<String> {
        m.iter().map(|m| format!("{} {:?}", m.addr, m.args)).collect()
    }

    #[test]
    fn each_profile_has_its_addresses() {
        let open = ChannelLevel::OPEN;
        assert_eq!(
            show(&messages(OscProfile::X32, "A", Some(2), open, MUTED)),
            ["/ch/02/mix/on [Int(0)]"]
        );
        assert_eq!(
            show(&messages(OscProfile::X32, "A", Some(2), MUTED, open)),
            ["/ch/02/mix/on [Int(1)]"]
        );
        assert_eq!(
            show(&messages(OscProfile::Xair, "A", Some(12), open, DUCKED)),
            ["/ch/12/mix/fader [Float(0.475)]"]
        );
        assert_eq!(
            show(&messages(OscProfile::Reaper, "A", Some(3), open, MUTED)),
            ["/track/3/mute [Int(1)]"]
        );
        assert_eq!(
            show(&messages(OscProfile::Reaper, "A", Some(3), DUCKED, open)),
            ["/track/3/volume/db [Float(0.0)]"]
        );
        assert_eq!(
            show(&messages(OscProfile::Ardour, "A", Some(4), open, MUTED)),
            ["/strip/mute [Int(4), Int(1)]"]
        );
        assert_eq!(
            show(&messages(OscProfile::Ardour, "A", Some(4), open, DUCKED)),
            ["/strip/gain [Int(4), Float(-12.0)]"]
        );
        assert_eq!(
            show(&messages(OscProfile::Generic, "Ann", None, open, MUTED)),
            ["/overtalk/Ann/mute [Int(1)]"]
        );
    }

    #[test]
    fn the_x32_fader_mapping_hits_its_published_points() {
        assert_eq!(x32_fader(0.0), 0.75);
        assert_eq!(x32_fader(10.0), 1.0);
        assert_eq!(x32_fader(-10.0), 0.5);
        assert_eq!(x32_fader(-30.0), 0.25);
        assert_eq!(x32_fader(-60.0), 0.0625);
        assert_eq!(x32_fader(-200.0), 0.0);
    }

    #[test]
    fn maps_are_checked() {
        let map = parse_map("Ann=1, Bob=2", OscProfile::X32).unwrap();
        assert_eq!(map, BTreeMap::from([("Ann".into(), 1), ("Bob".into(), 2)]));
        let err = |s: &str, p| parse_map(s, p).unwrap_err().to_string();
        assert_eq!(
            err("Ann=33", OscProfile::X32),
            "--osc-map: channel 33 of `Ann=33` is outside 1..=32 for x32"
        );
        assert_eq!(
            err("Ann=17", OscProfile::Xair),
            "--osc-map: channel 17 of `Ann=17` is outside 1..=16 for xair"
        );
        assert_eq!(err("Ann", OscProfile::X32), "--osc-map: `Ann` is not NAME=CHANNEL");
        assert_eq!(
            err("Ann=x", OscProfile::X32),
            "--osc-map: `x` in `Ann=x` is not a channel number"
        );
        assert_eq!(err("Ann=1,Ann=2", OscProfile::X32), "--osc-map: `Ann` is mapped twice");
    }
}
