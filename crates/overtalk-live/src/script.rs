//! Event streams for tests, benchmarks and demonstrations of the outputs without audio: a
//! scripted list ([`Scripted`]), the events a real "who spoke when" annotation implies
//! ([`events_from_transcript`], through the library's analysis), and [`replay`], which paces a
//! list by its `decided_s` clock into the broadcast channel the outputs read, as the engine does.
//!
//! ```text
//! RTTM      A [=========)      [====)
//!           B        [==)  [=====)
//! events    speech_start/end per talkspurt, floor_change at each claim,
//!           interruption at each committed interruption onset,
//!           backchannel at each backchannel talkspurt (decided at its end)
//! ```

use std::time::Duration;

use overtalk::analysis::{self, onsets::OnsetClass, Millis, Params};
use overtalk::output::live::{EventState, LiveEvent, LiveEventKind};
use overtalk::Transcript;
use tokio::sync::{broadcast, watch};

/// A scripted event list, built in audio order and sorted by decision time at the end.
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    events: Vec<LiveEvent>,
    holder: Option<String>,
}

fn event(kind: LiveEventKind, state: EventState, t_s: f64, decided_s: f64) -> LiveEvent {
    LiveEvent {
        id: 0,
        kind,
        state,
        t_s,
        decided_s,
        speaker: None,
        holder: None,
        class: None,
        probability: None,
        refers_to: None,
        action: None,
        warning: None,
        revised: false,
    }
}

impl Scripted {
    /// An empty script.
    pub fn new() -> Scripted {
        Scripted::default()
    }

    /// A committed event about `speaker`, decided at `t_s`; a `floor_change` names the previous
    /// holder itself.
    pub fn at(mut self, t_s: f64, kind: LiveEventKind, speaker: &str) -> Scripted {
        let mut e = event(kind, EventState::Committed, t_s, t_s);
        e.speaker = Some(speaker.to_owned());
        e.holder = self.holder.clone();
        if kind == LiveEventKind::FloorChange {
            self.holder = Some(speaker.to_owned());
        }
        self.events.push(e);
        self
    }

    fn classified(
        mut self,
        state: EventState,
        t_s: f64,
        kind: LiveEventKind,
        speaker: &str,
        holder: &str,
        decided_s: f64,
    ) -> Scripted {
        let mut e = event(kind, state, t_s, decided_s);
        e.speaker = Some(speaker.to_owned());
        e.holder = Some(holder.to_owned());
        e.class = Some(match kind {
            LiveEventKind::Backchannel => "backchannel".into(),
            _ => "interruption".into(),
        });
        self.events.push(e);
        self
    }

    /// A committed classified event (interruption, backchannel) decided at `decided_s`.
    pub fn committed(
        self,
        t_s: f64,
        kind: LiveEventKind,
        speaker: &str,
        holder: &str,
        decided_s: f64,
    ) -> Scripted {
        self.classified(EventState::Committed, t_s, kind, speaker, holder, decided_s)
    }

    /// A provisional classified event decided at `decided_s`.
    pub fn provisional(
        self,
        t_s: f64,
        kind: LiveEventKind,
        speaker: &str,
        holder: &str,
        decided_s: f64,
    ) -> Scripted {
        self.classified(EventState::Provisional, t_s, kind, speaker, holder, decided_s)
    }

    /// Retracts the last event of `kind` about `speaker` at `t_s`, decided at `decided_s`.
    pub fn retract(
        mut self,
        t_s: f64,
        kind: LiveEventKind,
        speaker: &str,
        decided_s: f64,
    ) -> Scripted {
        let mut e = event(kind, EventState::Retracted, t_s, decided_s);
        e.speaker = Some(speaker.to_owned());
        // Ids are given in into_events; remember the position for now.
        e.refers_to = self
            .events
            .iter()
            .rposition(|x| x.kind == kind && x.speaker.as_deref() == Some(speaker))
            .map(|i| i as u64);
        self.events.push(e);
        self
    }

    /// The events sorted by decision time (stable), numbered from 0.
    pub fn into_events(self) -> Vec<LiveEvent> {
        number(self.events)
    }
}

/// Sorts by `decided_s` (stable) and numbers the events; `refers_to` given as positions in the
/// input are renumbered.
fn number(events: Vec<LiveEvent>) -> Vec<LiveEvent> {
    let mut order: Vec<usize> = (0..events.len()).collect();
    order.sort_by(|&a, &b| events[a].decided_s.total_cmp(&events[b].decided_s));
    let mut id_of = vec![0u64; events.len()];
    for (id, &i) in order.iter().enumerate() {
        id_of[i] = id as u64;
    }
    order
        .iter()
        .map(|&i| {
            let mut e = events[i].clone();
            e.id = id_of[i];
            e.refers_to = e.refers_to.map(|p| id_of[p as usize]);
            e
        })
        .collect()
}

/// How late the synthetic decisions of [`events_from_transcript`] come after what they refer to.
#[derive(Clone, Copy, Debug)]
pub struct Latencies {
    /// Speech start and end (seconds).
    pub speech_s: f64,
    /// Interruption commitment after the onset (seconds).
    pub classify_s: f64,
}

impl Default for Latencies {
    fn default() -> Self {
        Latencies { speech_s: 0.05, classify_s: 0.3 }
    }
}

/// The event stream a perfect causal detector would send for `transcript`: speech edges from
/// the analysis's talkspurts, a floor change at every turn's claim, an interruption at every
/// interruption onset (both kinds of the rule book), and a backchannel for every talkspurt
/// tagged as one, decided when it ends.
pub fn events_from_transcript(
    transcript: &Transcript,
    params: &Params,
    latency: Latencies,
) -> overtalk::Result<Vec<LiveEvent>> {
    let a = analysis::analyze(transcript, params)?;
    let s = |ms: Millis| ms.as_secs_f64();
    let mut out = Vec::new();
    for ts in &a.talkspurts {
        let mut start = event(
            LiveEventKind::SpeechStart,
            EventState::Committed,
            s(ts.start),
            s(ts.start) + latency.speech_s,
        );
        start.speaker = Some(ts.speaker.to_string());
        let mut end = start.clone();
        end.kind = LiveEventKind::SpeechEnd;
        end.t_s = s(ts.end);
        end.decided_s = s(ts.end) + latency.speech_s;
        out.push(start);
        out.push(end);
        if ts.is_backchannel {
            let mut bc =
                event(LiveEventKind::Backchannel, EventState::Committed, s(ts.start), s(ts.end));
            bc.speaker = Some(ts.speaker.to_string());
            bc.class = Some("backchannel".into());
            out.push(bc);
        }
    }
    let mut previous: Option<String> = None;
    for turn in &a.turns {
        let mut e =
            event(LiveEventKind::FloorChange, EventState::Committed, s(turn.claim), s(turn.claim));
        e.speaker = Some(turn.speaker.to_string());
        e.holder = previous.replace(turn.speaker.to_string());
        out.push(e);
    }
    for onset in &a.onsets {
        if matches!(onset.class, OnsetClass::Interruption | OnsetClass::SilentInterruption) {
            let mut e = event(
                LiveEventKind::Interruption,
                EventState::Committed,
                s(onset.time),
                s(onset.time) + latency.classify_s,
            );
            e.speaker = Some(onset.speaker.to_string());
            e.holder = onset.holder.as_ref().map(|h| h.to_string());
            e.class = Some("interruption".into());
            out.push(e);
        }
    }
    // Holders named on backchannels: who held the floor at their start.
    let claims: Vec<(f64, String)> =
        a.turns.iter().map(|t| (s(t.claim), t.speaker.to_string())).collect();
    for e in out.iter_mut().filter(|e| e.kind == LiveEventKind::Backchannel) {
        let i = claims.partition_point(|(t, _)| *t <= e.t_s);
        e.holder = i.checked_sub(1).map(|i| claims[i].1.clone());
    }
    Ok(number(out))
}

/// Sends `events` into `sender` paced by their `decided_s` at `speed` times real time (the
/// audio clock `clock` advances with them, every 10 ms of audio in between), then closes
/// nothing: the caller drops the sender to end the session.
pub async fn replay(
    events: &[LiveEvent],
    sender: &broadcast::Sender<LiveEvent>,
    clock: &watch::Sender<f64>,
    speed: f64,
) {
    let start = tokio::time::Instant::now();
    let speed = if speed.is_finite() && speed > 0.0 { speed } else { 1.0 };
    let wait_until = |audio_s: f64| start + Duration::from_secs_f64((audio_s / speed).max(0.0));
    let mut now_s = 0.0_f64;
    for e in events {
        while now_s + 0.01 < e.decided_s {
            now_s += 0.01;
            tokio::time::sleep_until(wait_until(now_s)).await;
            clock.send_replace(now_s);
        }
        tokio::time::sleep_until(wait_until(e.decided_s)).await;
        now_s = now_s.max(e.decided_s);
        clock.send_replace(now_s);
        let _ = sender.send(e.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use LiveEventKind::*;

    #[test]
    fn a_script_is_sorted_by_decision_and_retractions_point_at_their_event() {
        let events = Scripted::new()
            .at(1.0, SpeechStart, "A")
            .provisional(1.0, Interruption, "A", "B", 1.5)
            .at(1.2, SpeechEnd, "A")
            .retract(1.0, Interruption, "A", 1.6)
            .into_events();
        let kinds: Vec<_> = events.iter().map(|e| (e.id, e.kind, e.state)).collect();
        assert_eq!(
            kinds,
            vec![
                (0, SpeechStart, EventState::Committed),
                (1, SpeechEnd, EventState::Committed),
                (2, Interruption, EventState::Provisional),
                (3, Interruption, EventState::Retracted),
            ]
        );
        assert_eq!(events[3].refers_to, Some(2));
    }
}
