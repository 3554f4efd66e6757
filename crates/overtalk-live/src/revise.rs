//! The end-of-session revision: the committed events of a session against those of its speech
//! decided once more on everything heard (`--detector lookahead`), and the events that turn
//! the one into the other.
//!
//! A live decision can only use the audio heard so far: the look-ahead detector commits each
//! frame on the statistics of the session up to 2 s after it, and in the first minute those
//! differ from the whole session's (docs/live.md). When the session ends, the detector decides
//! every frame it holds once more ([`OnlineMultitrack::finish_revised`]); for a session shorter
//! than its window that is offline `detect`. The revised speech goes through a fresh analysis
//! stream and a fresh event wire, as the live speech went through the session's, and the two sets
//! of committed events are compared by what they say (type, speaker, time to the millisecond,
//! class):
//!
//! ```text
//! live committed    speech_start A 12.30   interruption B 14.02   speech_end A 15.10
//! revised           speech_start A 12.30                          speech_end A 16.40
//! revision          retracted #41 (interruption B 14.02)   retracted #57 (speech_end A 15.10)
//!                   committed speech_end A 16.40 (new id)
//! ```
//!
//! Every revision event carries `revised: true`. The record, the summary's annotation and its
//! committed stream events are the revised ones, so what a session leaves behind is what
//! offline `detect` + `analyze` make of the same recording.
//!
//! [`OnlineMultitrack::finish_revised`]: overtalk_audio::online::OnlineMultitrack::finish_revised

use std::collections::{HashMap, HashSet};

use anyhow::Result;
use overtalk::analysis::stream::{AnalysisStream, StreamEvent};
use overtalk::analysis::{Millis, Params, SpeakerIndex};
use overtalk::output::live::{EventState, LiveEvent, LiveEventKind};
use overtalk::{Region, Time};
use overtalk_audio::online::{EdgeState, SpeechEdge};

use crate::wire::Wire;

/// What the revision changed.
#[derive(Debug)]
pub(crate) struct Revision {
    /// The revision events, to publish: the retractions in time order, then the additions.
    pub(crate) events: Vec<LiveEvent>,
    /// The committed analysis-stream events of the revised speech.
    pub(crate) stream_events: Vec<StreamEvent>,
}

/// What an event says, for matching a live event with a revised one.
type Key = (LiveEventKind, Option<String>, i64, Option<String>);

fn key(e: &LiveEvent) -> Key {
    (e.kind, e.speaker.clone(), (e.t_s * 1000.0).round() as i64, e.class.clone())
}

/// The speech of `regions` (per channel) as committed edges decided at `end`, in the order
/// the session feeds edges (time, then ends before starts).
fn edges_of(regions: &[Region], end: Time) -> Vec<SpeechEdge> {
    let mut edges: Vec<SpeechEdge> = regions
        .iter()
        .enumerate()
        .flat_map(|(track, region)| {
            region.iter().flat_map(move |seg| {
                [(track, true, seg.start()), (track, false, seg.end())].map(
                    |(track, speaking, time)| SpeechEdge {
                        track,
                        speaking,
                        time,
                        decided: end,
                        state: EdgeState::Committed,
                    },
                )
            })
        })
        .collect();
    edges.sort_by_key(|e| (e.time, e.speaking));
    edges
}

/// The committed events a session with the speech `regions` publishes, and its committed
/// stream events: the edges and the stream's decisions through a fresh stream and wire.
fn committed_events(
    names: &[String],
    stream_of: &[usize],
    by_name: &[usize],
    params: &Params,
    regions: &[Region],
    end: Time,
) -> Result<(Vec<LiveEvent>, Vec<StreamEvent>)> {
    let end_s = end.micros() as f64 / 1e6;
    let edges = edges_of(regions, end);
    let mut stream = AnalysisStream::new(names.len(), params)?;
    let mut wire = Wire::new(names.to_vec(), by_name.to_vec());
    let mut out = Vec::new();
    let mut decided = Vec::new();
    let ms = |t: Time| Millis::new(t.micros() / 1000);
    for e in &edges {
        // Every edge before this one has been given: the stream decides what it can, as the
        // session's stream does at each commit.
        decided.extend(stream.advance(ms(e.time))?);
        wire.edge(e, &mut out);
        let s = SpeakerIndex::new(stream_of[e.track]);
        if e.speaking {
            stream.speech_start(s, ms(e.time))?;
        } else {
            stream.speech_end(s, ms(e.time))?;
        }
    }
    decided.extend(stream.finish(ms(end))?);
    for d in &decided {
        wire.stream(d, end_s, &mut out);
    }
    out.retain(|e| e.state == EventState::Committed);
    decided.retain(StreamEvent::is_committed);
    Ok((out, decided))
}

/// The revision of a session that published `published` (its wire `wire`, which numbers the
/// revision events) into one whose speech is `revised`, decided at `end`.
#[allow(clippy::too_many_arguments)] // the session's naming of speakers, handed over as is
pub(crate) fn revise(
    names: &[String],
    stream_of: &[usize],
    by_name: &[usize],
    params: &Params,
    revised: &[Region],
    end: Time,
    published: &[LiveEvent],
    wire: &mut Wire,
) -> Result<Revision> {
    let end_s = end.micros() as f64 / 1e6;
    let (wanted, stream_events) =
        committed_events(names, stream_of, by_name, params, revised, end)?;
    let withdrawn: HashSet<u64> = published
        .iter()
        .filter(|e| e.state == EventState::Retracted)
        .filter_map(|e| e.refers_to)
        .collect();
    let mut live: HashMap<Key, Vec<&LiveEvent>> = HashMap::new();
    for e in published {
        if e.state == EventState::Committed
            && !matches!(e.kind, LiveEventKind::Action | LiveEventKind::Warning)
            && !withdrawn.contains(&e.id)
        {
            live.entry(key(e)).or_default().push(e);
        }
    }
    let mut added: Vec<&LiveEvent> = Vec::new();
    for e in &wanted {
        match live.get_mut(&key(e)).and_then(Vec::pop) {
            Some(_) => {}
            None => added.push(e),
        }
    }
    let mut retracted: Vec<&LiveEvent> = live.into_values().flatten().collect();
    retracted.sort_by(|a, b| a.t_s.total_cmp(&b.t_s).then(a.id.cmp(&b.id)));
    added.sort_by(|a, b| a.t_s.total_cmp(&b.t_s));
    let mut events = Vec::with_capacity(retracted.len() + added.len());
    for e in &retracted {
        events.push(wire.revision(e, EventState::Retracted, Some(e.id), end_s));
    }
    for e in &added {
        events.push(wire.revision(e, EventState::Committed, None, end_s));
    }
    Ok(Revision { events, stream_events })
}

#[cfg(test)]
mod tests {
    use super::*;
    use overtalk::Segment;

    fn region(spans: &[(i64, i64)]) -> Region {
        Region::try_from(
            spans
                .iter()
                .map(|&(s, e)| {
                    Segment::new(Time::from_micros(s * 1000), Time::from_micros(e * 1000)).unwrap()
                })
                .collect::<Vec<_>>(),
        )
        .unwrap()
    }

    /// Type, state, speaker, time (ms) and class of an event.
    type Brief<'a> = (LiveEventKind, EventState, Option<&'a str>, i64, Option<&'a str>);

    fn names() -> Vec<String> {
        vec!["A".to_owned(), "B".to_owned()]
    }

    /// The published events of a session whose committed speech is `regions`.
    fn session(regions: &[Region], end: Time) -> Vec<LiveEvent> {
        let names = names();
        committed_events(&names, &[0, 1], &[0, 1], &Params::default(), regions, end).unwrap().0
    }

    /// The revision events of a session that published `published` into the speech `revised`.
    fn revision(published: &[LiveEvent], revised: &[Region], end: Time) -> Vec<LiveEvent> {
        let mut wire = Wire::new(names(), vec![0, 1]);
        let p = Params::default();
        revise(&names(), &[0, 1], &[0, 1], &p, revised, end, published, &mut wire).unwrap().events
    }

    #[test]
    fn the_same_speech_needs_no_revision() {
        let end = Time::from_micros(20_000_000);
        let regions = [region(&[(0, 5_000), (9_000, 12_000)]), region(&[(4_000, 8_000)])];
        let published = session(&regions, end);
        assert!(!published.is_empty());
        assert_eq!(revision(&published, &regions, end), []);
    }

    #[test]
    fn a_turn_end_moved_by_the_revision_retracts_its_edges_and_reclassifies_the_onset() {
        // Live: A stops at 5.0 s and B takes the floor after a 0.5 s gap. Revised: A talks on
        // to 7.0 s, so B starts inside A's turn and A stops 1.5 s later.
        let end = Time::from_micros(20_000_000);
        let live = [region(&[(0, 5_000), (9_500, 14_000)]), region(&[(5_500, 9_000)])];
        let published = session(&live, end);
        let revised = [region(&[(0, 7_000), (9_500, 14_000)]), region(&[(5_500, 9_000)])];
        let events = revision(&published, &revised, end);
        let brief: Vec<Brief<'_>> = events
            .iter()
            .map(|e| {
                let ms = (e.t_s * 1000.0).round() as i64;
                (e.kind, e.state, e.speaker.as_deref(), ms, e.class.as_deref())
            })
            .collect();
        // The retractions, then the additions, each in time order: A's end moves from 5.0 to
        // 7.0 s, B's floor change moves with it, and B's onset at 5.5 s is no longer a smooth
        // switch but an interruption inside an overlap; B's own edges stay.
        use EventState::{Committed as C, Retracted as R};
        use LiveEventKind::*;
        assert_eq!(
            brief,
            [
                (SpeechEnd, R, Some("A"), 5_000, None),
                (FloorChange, R, Some("B"), 5_500, None),
                (Onset, R, Some("B"), 5_500, Some("smooth_switch")),
                (OverlapStart, C, None, 5_500, None),
                (Interruption, C, Some("B"), 5_500, Some("interruption")),
                (SpeechEnd, C, Some("A"), 7_000, None),
                (FloorChange, C, Some("B"), 7_000, None),
                (OverlapEnd, C, None, 7_000, None),
            ]
        );
        // Every retraction names a published committed event of the same type and time.
        for e in events.iter().filter(|e| e.state == EventState::Retracted) {
            let was = published.iter().find(|p| Some(p.id) == e.refers_to).unwrap();
            assert_eq!((was.kind, was.state, was.t_s), (e.kind, EventState::Committed, e.t_s));
        }
        assert!(events.iter().all(|e| e.revised));
        // The revised session's own committed events need no further revision.
        assert_eq!(revision(&session(&revised, end), &revised, end), []);
    }
}
