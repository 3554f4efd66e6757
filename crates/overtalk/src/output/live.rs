//! The wire type of a live floor session: one [`LiveEvent`] per JSON line, as `overtalk live
//! --events` writes it and its web page receives it.
//!
//! Every event carries two clocks: `t_s`, the audio time it refers to (an edge of speech, an
//! onset), and `decided_s`, the audio-clock time at which it was emitted. A decision that needs
//! more evidence than the edge itself is first sent as `provisional`, then `committed` (or
//! `retracted`) by a later event naming the first through `refers_to`:
//!
//! ```text
//! audio     A ████████████████████        B ███████████
//!                          B ██████ ...
//!                          ^t_s=4.0  ^decided_s=4.3
//! events    overlap_start  {id 7, t_s 4.0, decided_s 4.02, state provisional}
//!           interruption   {id 9, t_s 4.0, decided_s 4.30, state committed, refers_to 7}
//! ```
//!
//! The same stream, folded, gives the offline analysis: committed events are what
//! `overtalk analyze` of the same recording reports.

use std::io::{self, Write};

use serde::{Deserialize, Serialize};

/// What an event reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LiveEventKind {
    /// A speaker started talking.
    SpeechStart,
    /// A speaker stopped talking.
    SpeechEnd,
    /// A second (or further) speaker is talking at the same time.
    OverlapStart,
    /// Back to one speaker or none.
    OverlapEnd,
    /// The floor changed hands (`speaker` is the new holder, `holder` the previous one).
    FloorChange,
    /// A talkspurt began while someone held the floor; classified later.
    Onset,
    /// The onset stopped the holder.
    Interruption,
    /// The onset was a backchannel: short, and the holder kept talking.
    Backchannel,
    /// A floor claim in the words ("let me finish").
    Claim,
    /// An actuator acted (mute, unmute, duck, cue), see [`LiveEvent::action`].
    Action,
    /// Something about the input the user should know, as offline detection warns it (a
    /// speaker's track that sounds like music), see [`LiveEvent::warning`].
    Warning,
}

impl LiveEventKind {
    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            LiveEventKind::SpeechStart => "speech_start",
            LiveEventKind::SpeechEnd => "speech_end",
            LiveEventKind::OverlapStart => "overlap_start",
            LiveEventKind::OverlapEnd => "overlap_end",
            LiveEventKind::FloorChange => "floor_change",
            LiveEventKind::Onset => "onset",
            LiveEventKind::Interruption => "interruption",
            LiveEventKind::Backchannel => "backchannel",
            LiveEventKind::Claim => "claim",
            LiveEventKind::Action => "action",
            LiveEventKind::Warning => "warning",
        }
    }
}

crate::named::named_enum!(LiveEventKind, "live event kind");

impl LiveEventKind {
    /// Every kind, in the order of the wire documentation.
    pub const ALL: [LiveEventKind; 11] = [
        LiveEventKind::SpeechStart,
        LiveEventKind::SpeechEnd,
        LiveEventKind::OverlapStart,
        LiveEventKind::OverlapEnd,
        LiveEventKind::FloorChange,
        LiveEventKind::Onset,
        LiveEventKind::Interruption,
        LiveEventKind::Backchannel,
        LiveEventKind::Claim,
        LiveEventKind::Action,
        LiveEventKind::Warning,
    ];
}

/// How final an event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventState {
    /// Reported as soon as the sound allowed; may still be committed or retracted.
    Provisional,
    /// Final: the offline analysis of the same audio agrees.
    Committed,
    /// An earlier provisional event (`refers_to`) did not happen after all.
    Retracted,
}

impl EventState {
    /// Every value, in documentation order.
    pub const ALL: [EventState; 3] =
        [EventState::Provisional, EventState::Committed, EventState::Retracted];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            EventState::Provisional => "provisional",
            EventState::Committed => "committed",
            EventState::Retracted => "retracted",
        }
    }
}

crate::named::named_enum!(EventState, "event state");

/// What an actuator did, for `type = action`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveAction {
    /// `mute`, `unmute`, `duck`, `unduck`, `cue`, `hook`.
    pub name: String,
    /// The actuator (`osc`, `obs`, `hook`) and its target, e.g. `osc 127.0.0.1:10023 /ch/02/mix/on`.
    pub target: String,
    /// Whether the actuator confirmed it (sent for UDP; acknowledged for obs-websocket).
    pub ok: bool,
    /// Why it failed, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// What a warning says, for `type = warning`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveWarning {
    /// What it is about, for programs: `music` (the speaker's speech so far sounds like music,
    /// not a voice).
    pub kind: String,
    /// The warning as offline detection words it on stderr (without `overtalk: warning: `);
    /// for a retracted warning, why it is withdrawn.
    pub message: String,
}

/// One event of a live session (one JSON line on the wire).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LiveEvent {
    /// Sequence number, from 0, unique within a session.
    pub id: u64,
    /// What the event reports.
    #[serde(rename = "type")]
    pub kind: LiveEventKind,
    /// How final it is.
    pub state: EventState,
    /// Audio time the event refers to, in seconds from the start of the session.
    pub t_s: f64,
    /// Audio-clock time at which it was emitted, in seconds.
    pub decided_s: f64,
    /// The speaker the event is about (the one who started, stopped, took or intervened).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speaker: Option<String>,
    /// Who held the floor when it happened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub holder: Option<String>,
    /// For classified events: the onset class of the rule book (`interruption`,
    /// `terminal_overlap`, …) or of the calibrated classifier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// For classified events: the classifier's probability of `class`. Absent under the
    /// rules, and with early commits (`overtalk live --early-commits`) on an event committed
    /// before the speech up to its decision horizon was final when the detector's possible
    /// outcomes give different probabilities.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probability: Option<f64>,
    /// The earlier event this one commits or retracts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refers_to: Option<u64>,
    /// For `type = action`: what was done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<LiveAction>,
    /// For `type = warning`: what it is about and what it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warning: Option<LiveWarning>,
    /// Emitted by the end-of-session revision (the speech decided once more on everything
    /// heard): a committed event it withdraws (`retracted`, `refers_to` the event) or one it
    /// adds (`committed`). Written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub revised: bool,
}

impl LiveEvent {
    /// Writes the event as one JSON line.
    pub fn write_line(&self, out: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer(&mut *out, self)?;
        out.write_all(b"\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_is_one_json_line_with_the_wire_names() {
        let event = LiveEvent {
            id: 9,
            kind: LiveEventKind::Interruption,
            state: EventState::Committed,
            t_s: 4.0,
            decided_s: 4.3,
            speaker: Some("Wife".into()),
            holder: Some("Husband".into()),
            class: Some("interruption".into()),
            probability: Some(0.75),
            refers_to: Some(7),
            action: None,
            warning: None,
            revised: false,
        };
        let mut line = Vec::new();
        event.write_line(&mut line).unwrap();
        assert_eq!(
            String::from_utf8(line.clone()).unwrap(),
            "{\"id\":9,\"type\":\"interruption\",\"state\":\"committed\",\"t_s\":4.0,\
             \"decided_s\":4.3,\"speaker\":\"Wife\",\"holder\":\"Husband\",\
             \"class\":\"interruption\",\"probability\":0.75,\"refers_to\":7}\n"
        );
        let back: LiveEvent = serde_json::from_slice(&line).unwrap();
        assert_eq!(back, event);
    }
}
