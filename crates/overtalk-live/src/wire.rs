//! From detector edges and analysis-stream events to [`LiveEvent`]s: ids, the two clocks, and
//! provisional events later committed (`refers_to`) or retracted.
//!
//! ```text
//! detector   A start (prov) ........ A start (committed)
//! wire       speech_start {id 3, provisional}   speech_start {id 8, committed, refers_to 3}
//! stream     onset B (prov) ........ onset B interruption (committed)
//! wire       onset {id 5, provisional}          interruption {id 12, committed, refers_to 5}
//! ```

use std::collections::HashMap;

use overtalk::analysis::onsets::OnsetClass;
use overtalk::analysis::stream::{StreamEvent, StreamEventKind};
use overtalk::output::live::{EventState, LiveEvent, LiveEventKind};
use overtalk_audio::online::{EdgeState, SpeechEdge};

/// Turns detector edges and stream events into wire events.
#[derive(Debug)]
pub(crate) struct Wire {
    /// Speaker names by channel.
    names: Vec<String>,
    /// Channel of each stream speaker index.
    channel_of: Vec<usize>,
    next_id: u64,
    committed_speaking: Vec<bool>,
    provisional_speaking: Vec<bool>,
    prov_start: Vec<Option<u64>>,
    prov_end: Vec<Option<u64>>,
    prov_overlap: Option<u64>,
    in_overlap: bool,
    prov_onsets: HashMap<usize, u64>,
    holder: Option<usize>,
}

fn secs(us: i64) -> f64 {
    us as f64 / 1e6
}

fn ms_secs(ms: i64) -> f64 {
    ms as f64 / 1e3
}

/// The rule book's name of an onset class (as the analysis JSON writes it).
pub(crate) fn class_name(c: OnsetClass) -> String {
    serde_json::to_value(c).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

impl Wire {
    pub(crate) fn new(names: Vec<String>, channel_of: Vec<usize>) -> Wire {
        let k = names.len();
        Wire {
            names,
            channel_of,
            next_id: 0,
            committed_speaking: vec![false; k],
            provisional_speaking: vec![false; k],
            prov_start: vec![None; k],
            prov_end: vec![None; k],
            prov_overlap: None,
            in_overlap: false,
            prov_onsets: HashMap::new(),
            holder: None,
        }
    }

    fn name_of_stream(&self, speaker: usize) -> Option<String> {
        self.channel_of.get(speaker).and_then(|&c| self.names.get(c)).cloned()
    }

    fn event(
        &mut self,
        kind: LiveEventKind,
        state: EventState,
        t_s: f64,
        decided_s: f64,
    ) -> LiveEvent {
        let id = self.next_id;
        self.next_id += 1;
        LiveEvent {
            id,
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
        }
    }

    fn holder_name(&self) -> Option<String> {
        self.holder.and_then(|h| self.name_of_stream(h))
    }

    fn retract(&mut self, refers: u64, t_s: f64, decided_s: f64, kind: LiveEventKind) -> LiveEvent {
        let mut e = self.event(kind, EventState::Retracted, t_s, decided_s);
        e.refers_to = Some(refers);
        e
    }

    /// The wire events of one detector edge.
    pub(crate) fn edge(&mut self, e: &SpeechEdge, out: &mut Vec<LiveEvent>) {
        let c = e.track;
        let (t_s, decided_s) = (secs(e.time.micros()), secs(e.decided.micros()));
        let speaker = self.names.get(c).cloned();
        let before = self.provisional_speaking.iter().filter(|&&s| s).count();
        match (e.state, e.speaking) {
            (EdgeState::Provisional, true) => {
                if let Some(r) = self.prov_end[c].take() {
                    out.push(self.retract(r, t_s, decided_s, LiveEventKind::SpeechEnd));
                } else if !self.committed_speaking[c] {
                    let mut ev = self.event(
                        LiveEventKind::SpeechStart,
                        EventState::Provisional,
                        t_s,
                        decided_s,
                    );
                    ev.speaker = speaker;
                    self.prov_start[c] = Some(ev.id);
                    out.push(ev);
                }
            }
            (EdgeState::Provisional, false) => {
                if let Some(r) = self.prov_start[c].take() {
                    out.push(self.retract(r, t_s, decided_s, LiveEventKind::SpeechStart));
                } else if self.committed_speaking[c] {
                    let mut ev = self.event(
                        LiveEventKind::SpeechEnd,
                        EventState::Provisional,
                        t_s,
                        decided_s,
                    );
                    ev.speaker = speaker;
                    self.prov_end[c] = Some(ev.id);
                    out.push(ev);
                }
            }
            (EdgeState::Committed, speaking) => {
                let kind =
                    if speaking { LiveEventKind::SpeechStart } else { LiveEventKind::SpeechEnd };
                let refers =
                    if speaking { self.prov_start[c].take() } else { self.prov_end[c].take() };
                let mut ev = self.event(kind, EventState::Committed, t_s, decided_s);
                ev.speaker = speaker;
                ev.refers_to = refers;
                out.push(ev);
                self.committed_speaking[c] = speaking;
            }
        }
        // The provisional view of who talks: the committed state, or the newer report.
        self.provisional_speaking[c] = e.speaking;
        let after = self.provisional_speaking.iter().filter(|&&s| s).count();
        if before < 2 && after >= 2 && self.prov_overlap.is_none() {
            let mut ev =
                self.event(LiveEventKind::OverlapStart, EventState::Provisional, t_s, decided_s);
            ev.speaker = self.names.get(c).cloned();
            ev.holder = self.holder_name();
            self.prov_overlap = Some(ev.id);
            out.push(ev);
        } else if before >= 2 && after < 2 && !self.in_overlap {
            if let Some(r) = self.prov_overlap.take() {
                // Provisional overlaps that the committed timeline never shows are retracted
                // when the committed overlap does not come; here it ended before commit.
                let mut ev =
                    self.event(LiveEventKind::OverlapEnd, EventState::Provisional, t_s, decided_s);
                ev.refers_to = Some(r);
                out.push(ev);
            }
        }
    }

    /// The wire events of one analysis-stream event, emitted at audio time `decided_s`.
    pub(crate) fn stream(&mut self, e: &StreamEvent, decided_s: f64, out: &mut Vec<LiveEvent>) {
        let t_s = ms_secs(e.time);
        match &e.kind {
            StreamEventKind::Piece { active, .. } => {
                let overlap = active.len() >= 2;
                if overlap && !self.in_overlap {
                    self.in_overlap = true;
                    let mut ev = self.event(
                        LiveEventKind::OverlapStart,
                        EventState::Committed,
                        t_s,
                        decided_s,
                    );
                    ev.refers_to = self.prov_overlap.take();
                    ev.holder = self.holder_name();
                    out.push(ev);
                } else if !overlap && self.in_overlap {
                    self.in_overlap = false;
                    let mut ev = self.event(
                        LiveEventKind::OverlapEnd,
                        EventState::Committed,
                        t_s,
                        decided_s,
                    );
                    ev.holder = self.holder_name();
                    out.push(ev);
                }
            }
            StreamEventKind::Claim { speaker, .. } => {
                let previous = self.holder_name();
                self.holder = Some(*speaker);
                let mut ev =
                    self.event(LiveEventKind::FloorChange, EventState::Committed, t_s, decided_s);
                ev.speaker = self.name_of_stream(*speaker);
                ev.holder = previous;
                out.push(ev);
            }
            StreamEventKind::ProvisionalOnset { spurt, speaker, holder } => {
                let mut ev =
                    self.event(LiveEventKind::Onset, EventState::Provisional, t_s, decided_s);
                ev.speaker = self.name_of_stream(*speaker);
                ev.holder = holder.and_then(|h| self.name_of_stream(h));
                self.prov_onsets.insert(*spurt, ev.id);
                out.push(ev);
            }
            StreamEventKind::Onset(rec) => {
                let kind = if rec.is_attempt() {
                    LiveEventKind::Interruption
                } else {
                    LiveEventKind::Onset
                };
                let mut ev = self.event(kind, EventState::Committed, t_s, decided_s);
                ev.speaker = self.name_of_stream(rec.speaker);
                ev.holder = rec.holder.and_then(|h| self.name_of_stream(h));
                ev.class = Some(class_name(rec.class));
                ev.refers_to = self.prov_onsets.remove(&rec.spurt);
                out.push(ev);
            }
            StreamEventKind::Floor { spurt, speaker, backchannel: true } => {
                let mut ev =
                    self.event(LiveEventKind::Backchannel, EventState::Committed, t_s, decided_s);
                ev.speaker = self.name_of_stream(*speaker);
                ev.holder = self.holder_name();
                ev.class = Some("backchannel".to_owned());
                ev.refers_to = self.prov_onsets.remove(spurt);
                out.push(ev);
            }
            StreamEventKind::NotAnOnset { spurt } => {
                if let Some(r) = self.prov_onsets.remove(spurt) {
                    out.push(self.retract(r, t_s, decided_s, LiveEventKind::Onset));
                }
            }
            StreamEventKind::TalkspurtStart { .. }
            | StreamEventKind::TalkspurtEnd { .. }
            | StreamEventKind::Floor { backchannel: false, .. } => {}
        }
    }
}
