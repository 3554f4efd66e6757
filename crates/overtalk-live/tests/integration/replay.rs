//! A scripted two-speaker conversation, rendered to two close-talk tracks with bleed, replayed
//! unpaced through the live session: the committed analysis equals the offline analysis of
//! the recorded RTTM, and every event keeps its two clocks in order.

// A failed unwrap in a test is a failed test with its location.

use std::path::{Path, PathBuf};

use overtalk::analysis::stream::StreamEventKind;
use overtalk::analysis::{Millis, Params};
use overtalk::output::live::{EventState, LiveEvent, LiveEventKind};
use overtalk_live::record::rttm_and_analysis;
use overtalk_live::replay::{Pacing, Replay};
use overtalk_live::session::{Session, SessionConfig};
use overtalk_live::source::SourceEnd;

const RATE: u32 = 16_000;

/// (speaker, start s, end s): A holds, B backchannels, B interrupts, A answers.
const SCRIPT: [(usize, f64, f64); 6] =
    [(0, 1.0, 6.0), (1, 3.0, 3.4), (1, 5.0, 8.5), (0, 9.5, 13.0), (1, 12.0, 12.3), (1, 14.5, 17.0)];

fn voiced(t: f64, f0: f64) -> f32 {
    // A buzz with a slow syllable envelope: energy in many bands, like a voice.
    let env = 0.6 + 0.4 * (2.0 * std::f64::consts::PI * 4.0 * t).sin();
    let mut v = 0.0;
    for h in 1..12 {
        v += (2.0 * std::f64::consts::PI * f0 * h as f64 * t).sin() / h as f64;
    }
    (0.15 * env * v) as f32
}

/// The script twice: the second time, the online statistics have a conversation behind them.
const REPEAT: f64 = 19.0;
const COPIES: f64 = 1.0;

fn render(dir: &Path) -> Vec<(String, PathBuf)> {
    render_copies(dir, COPIES)
}

/// The script `copies` times in a row.
fn render_copies(dir: &Path, copies: f64) -> Vec<(String, PathBuf)> {
    let tracks = script_samples(copies);
    ["A", "B"]
        .iter()
        .zip(&tracks)
        .map(|(name, samples)| {
            let path = dir.join(format!("{name}.wav"));
            write_wav(&path, samples);
            ((*name).to_owned(), path)
        })
        .collect()
}

/// The two mics' samples of the script `copies` times in a row (each hears the other 20 dB
/// down, over a faint noise).
fn script_samples(copies: f64) -> Vec<Vec<f32>> {
    let secs = copies * REPEAT;
    let n = (secs * f64::from(RATE)) as usize;
    let mut tracks = vec![vec![0.0f32; n]; 2];
    let mut seed = 7u32;
    let (first, second) = tracks.split_at_mut(1);
    for (i, (a, b)) in first[0].iter_mut().zip(second[0].iter_mut()).enumerate() {
        let t = i as f64 / f64::from(RATE);
        let mut own = [0.0f32; 2];
        let local = t % REPEAT;
        for &(sp, s, e) in &SCRIPT {
            if local >= s && local < e {
                own[sp] += voiced(t, if sp == 0 { 120.0 } else { 210.0 });
            }
        }
        let mut noise = || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            ((seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5) * 0.002
        };
        *a = own[0] + 0.1 * own[1] + noise();
        *b = own[1] + 0.1 * own[0] + noise();
    }
    tracks
}

/// A 16 kHz 16-bit mono WAV of `samples`.
fn write_wav(path: &Path, samples: &[f32]) {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(path, spec).unwrap();
    for &s in samples {
        w.write_sample((s.clamp(-1.0, 1.0) * 32767.0) as i16).unwrap();
    }
    w.finalize().unwrap();
}

/// Offline `overtalk detect` of the rendered tracks, with its default options.
fn offline_detect_of(tracks: &[(String, PathBuf)]) -> overtalk_audio::Detection {
    let specs: Vec<overtalk_audio::TrackSpec> = tracks
        .iter()
        .map(|(name, path)| overtalk_audio::TrackSpec::file(name.clone(), path.clone()))
        .collect();
    overtalk_audio::detect(&specs, &overtalk_audio::DetectOptions::default(), &mut |_| {}).unwrap()
}

#[test]
fn a_replayed_session_commits_what_the_offline_analysis_finds() {
    let dir = tempfile::tempdir().unwrap();
    let tracks = render(dir.path());
    let source = Replay::open(&tracks, 480, Pacing::Unpaced).unwrap();
    let events_path = dir.path().join("events.jsonl");
    let online = overtalk_audio::online::OnlineOptions {
        redecide: overtalk::Delta::from_micros(500_000),
        ..Default::default()
    };
    let config = SessionConfig {
        online,
        events_out: Some(Box::new(std::fs::File::create(&events_path).unwrap())),
        record: Some(dir.path().join("record")),
        ..SessionConfig::default()
    };
    let session = Session::start(Box::new(source), config).unwrap();
    let mut rx = session.subscribe();
    let summary = session.wait().unwrap();
    assert_eq!(summary.end, SourceEnd::Finished);
    assert_eq!(summary.dropped_blocks, 0);

    // The speech found: each speaker's stretches of the script, one segment each.
    // The speech found online is the offline `detect` of the same tracks.
    let offline_detect = offline_detect_of(&tracks);
    // The online detection decides the first seconds of a session on little evidence (no
    // couplings yet), so overlaps there come out shorter than offline; the rest agrees.
    let regions = summary.annotation.speaker_regions();
    let offline_regions = offline_detect.annotation.speaker_regions();
    let (mut differ, mut union) = (0i64, 0i64);
    for (a, b) in regions.iter().zip(&offline_regions) {
        let both = a.intersection(b).duration().micros();
        let either = a.union(b).duration().micros();
        differ += either - both;
        union += either;
    }
    let agreement = 1.0 - differ as f64 / union as f64;
    assert!(
        agreement >= 0.85,
        "online vs offline speech agreement {agreement:.3}: {regions:?} {offline_regions:?}"
    );
    let segments: usize = regions.iter().map(|r| r.len()).sum();

    // The committed onsets of the stream are the offline analysis of the recorded RTTM.
    let recorded = summary.recorded.as_ref().unwrap();
    let rttm = std::fs::read_to_string(&recorded.rttm).unwrap();
    let (_, _, offline) =
        rttm_and_analysis("live", summary.annotation.clone(), &Params::default()).unwrap();
    let names = ["A", "B"];
    let mut live: Vec<(Millis, String, String, String)> = summary
        .stream_events
        .iter()
        .filter_map(|e| match &e.kind {
            StreamEventKind::Onset(r) => Some((
                r.time,
                names[r.speaker.index()].to_owned(),
                format!("{:?}", r.class),
                format!("{:?}", r.outcome),
            )),
            _ => None,
        })
        .collect();
    live.sort();
    let mut batch: Vec<(Millis, String, String, String)> = offline
        .onsets
        .iter()
        .map(|o| {
            (o.time, o.speaker.to_string(), format!("{:?}", o.class), format!("{:?}", o.outcome))
        })
        .collect();
    batch.sort();
    assert_eq!(live, batch);
    assert_eq!(batch.len(), 4, "{batch:?}\n{rttm}");
    let json = std::fs::read_to_string(&recorded.analysis).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["conversations"][0]["recording"], "live");
    assert_eq!(v["conversations"][0]["onsets"].as_array().unwrap().len(), offline.onsets.len());
    assert!(std::fs::read_to_string(&recorded.report).unwrap().starts_with("<!DOCTYPE html>"));

    // The wire: ids in order, refers_to earlier, decisions after what they are about, one
    // JSON line per event, the same events on the broadcast.
    let lines = std::fs::read_to_string(&events_path).unwrap();
    assert_eq!(lines.lines().count(), summary.events.len());
    for (i, e) in summary.events.iter().enumerate() {
        assert_eq!(e.id, i as u64);
        if let Some(r) = e.refers_to {
            assert!(r < e.id);
        }
        if e.state == EventState::Committed {
            assert!(e.decided_s + 1e-9 >= e.t_s, "{e:?}");
        }
    }
    let kinds = |k: LiveEventKind| {
        summary.events.iter().filter(|e| e.kind == k && e.state == EventState::Committed).count()
    };
    assert_eq!(kinds(LiveEventKind::SpeechStart), segments);
    assert_eq!(kinds(LiveEventKind::SpeechEnd), segments);
    assert_eq!(
        kinds(LiveEventKind::Backchannel),
        offline.talkspurts.iter().filter(|t| t.is_backchannel).count()
    );
    assert_eq!(kinds(LiveEventKind::FloorChange), offline.turns.len());
    let mut received = 0;
    while rx.try_recv().is_ok() {
        received += 1;
    }
    assert_eq!(received, summary.events.len());
}

/// The whole monitor on the same replay: the session's events drive `debate-mute` on an X32
/// over OSC (a UDP receiver on loopback); the holder is never muted, every mute is released by
/// the end, and the final floor state counts the session's events and actions.
#[test]
fn the_monitor_mutes_the_non_holder_and_releases_every_mute_at_the_end() {
    use clap::Parser;
    use overtalk_live::{run_monitor, OutputArgs};

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        outputs: OutputArgs,
    }
    let dir = tempfile::tempdir().unwrap();
    let tracks = render(dir.path());
    let receiver = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    receiver.set_read_timeout(Some(std::time::Duration::from_millis(300))).unwrap();
    let osc = receiver.local_addr().unwrap().to_string();
    let cli = Cli::try_parse_from([
        "live",
        "--rule",
        "debate-mute",
        "--osc",
        &osc,
        "--osc-profile",
        "x32",
        "--osc-map",
        "A=1,B=2",
    ])
    .unwrap();
    let source = Replay::open(&tracks, 480, Pacing::Unpaced).unwrap();
    let online = overtalk_audio::online::OnlineOptions {
        redecide: overtalk::Delta::from_micros(500_000),
        ..Default::default()
    };
    let events_path = dir.path().join("events.jsonl");
    let config = SessionConfig {
        online,
        events_out: Some(Box::new(std::fs::File::create(&events_path).unwrap())),
        ..SessionConfig::default()
    };
    let (summary, floor) = run_monitor(Box::new(source), config, &cli.outputs).unwrap();
    assert_eq!(summary.end, SourceEnd::Finished);

    let mut messages = Vec::new();
    let mut buf = [0u8; 1024];
    while let Ok(n) = receiver.recv(&mut buf) {
        match rosc::decoder::decode_udp(&buf[..n]).unwrap().1 {
            rosc::OscPacket::Message(m) => messages.push((m.addr, m.args)),
            rosc::OscPacket::Bundle(_) => panic!("the X32 profile sends single messages"),
        }
    }
    assert!(!messages.is_empty(), "debate-mute acted on the replay");
    // Per channel: mutes and unmutes alternate, starting with a mute and ending unmuted.
    for channel in ["/ch/01/mix/on", "/ch/02/mix/on"] {
        let states: Vec<i32> = messages
            .iter()
            .filter(|(addr, _)| addr == channel)
            .map(|(_, args)| match args.as_slice() {
                [rosc::OscType::Int(v)] => *v,
                other => panic!("{channel}: {other:?}"),
            })
            .collect();
        for (k, v) in states.iter().enumerate() {
            assert_eq!(*v, if k % 2 == 0 { 0 } else { 1 }, "{channel}: {states:?}");
        }
        assert!(states.len() % 2 == 0, "{channel} left muted: {states:?}");
    }
    // The floor state folded the session's events and its own actions, one per datagram.
    assert_eq!(floor.actions, messages.len() as u64);
    assert_eq!(floor.actions_failed, 0);
    assert_eq!(floor.events, summary.events.len() as u64 + floor.actions);
    // --events holds the session's events and the actions, each a whole JSON line.
    let lines: Vec<overtalk::output::live::LiveEvent> = std::fs::read_to_string(&events_path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let actions = lines.iter().filter(|e| e.kind == LiveEventKind::Action).count();
    assert_eq!(actions as u64, floor.actions);
    assert_eq!(lines.len(), summary.events.len() + actions);
}

/// `--detector lookahead` on the script played twice: B's speech is offline `detect` of the
/// tracks segment for segment, A's differs where A was decided before B had dominated a frame
/// and by 10 ms at one end; the committed classes are the offline analysis's, each onset
/// at its time; the provisional starts still come from the causal rule, within 100 ms of
/// the sound.
#[test]
fn the_lookahead_detector_commits_offline_detect() {
    use overtalk::{Segment, Time};
    use overtalk_live::session::DetectorKind;
    let dir = tempfile::tempdir().unwrap();
    let tracks = render_copies(dir.path(), 2.0);
    let source = Replay::open(&tracks, 480, Pacing::Unpaced).unwrap();
    let config = SessionConfig {
        detector: DetectorKind::Lookahead,
        record: Some(dir.path().join("record")),
        ..SessionConfig::default()
    };
    let summary = Session::start(Box::new(source), config).unwrap().wait().unwrap();
    let offline_detect = offline_detect_of(&tracks);
    let ms = |r: &overtalk::Region| -> Vec<(i64, i64)> {
        let all = Segment::new(Time::ZERO, Time::from_millis(38_000)).unwrap();
        r.crop_segment(all)
            .iter()
            .map(|s| (s.start().micros() / 1000, s.end().micros() / 1000))
            .collect()
    };
    let live = summary.committed_annotation.speaker_regions();
    let offline_regions = offline_detect.annotation.speaker_regions();
    assert_eq!(
        ms(&offline_regions[0]),
        [(990, 6010), (9490, 13_010), (19_990, 25_010), (28_490, 32_010)]
    );
    // As committed during the session: A's first turn was decided before B had dominated a
    // frame (no coupling of B's voice into A's mic yet), so it is cut where B talks (B's
    // backchannel at 3 s, B's interruption at 5 s). The second time, one end lands 10 ms
    // late.
    assert_eq!(
        ms(&live[0]),
        [
            (990, 3000),
            (3460, 5000),
            (5130, 6010),
            (9490, 13_010),
            (19_990, 25_010),
            (28_490, 32_020)
        ]
    );
    assert_eq!(ms(&live[1]), ms(&offline_regions[1]));
    assert_eq!(live[1].len(), 8);
    // The end-of-session revision decides every frame once more on the whole session: the
    // speech the session leaves (its summary and its record) is offline `detect`, exactly.
    assert_eq!(summary.annotation, offline_detect.annotation);
    let recorded = std::fs::read_to_string(&summary.recorded.as_ref().unwrap().rttm).unwrap();
    let (offline_rttm, _, _) =
        rttm_and_analysis("live", offline_detect.annotation.clone(), &Params::default()).unwrap();
    assert_eq!(recorded, offline_rttm);
    // The record's report says how its speech was found.
    let html = std::fs::read_to_string(&summary.recorded.as_ref().unwrap().report).unwrap();
    assert!(
        html.contains("live multitrack detection (lookahead detector), decided again at the end on the whole session"),
        "the report names the revision"
    );
    // Its events withdraw A's two cuts, the late end and what followed from them, each
    // naming a committed event published before, and commit what replaces them.
    let revision = summary.revision.unwrap();
    assert_eq!(revision.from_s, 0.0);
    let revised: Vec<&LiveEvent> = summary.events.iter().filter(|e| e.revised).collect();
    assert_eq!(revised.len(), revision.retracted + revision.added);
    for e in revised.iter().filter(|e| e.state == EventState::Retracted) {
        let was = summary.events.iter().find(|p| Some(p.id) == e.refers_to).unwrap();
        assert_eq!((was.kind, was.state, was.t_s), (e.kind, EventState::Committed, e.t_s));
        assert!(was.id < e.id);
    }
    let retracted_ends: Vec<(f64, Option<&str>)> = revised
        .iter()
        .filter(|e| e.state == EventState::Retracted && e.kind == LiveEventKind::SpeechEnd)
        .map(|e| (e.t_s, e.speaker.as_deref()))
        .collect();
    assert_eq!(retracted_ends, [(3.0, Some("A")), (5.0, Some("A")), (32.02, Some("A"))]);
    // The classes committed during the session are the offline analysis's: the same speaker
    // and class, at the same time.
    let (_, _, offline) =
        rttm_and_analysis("live", offline_detect.annotation.clone(), &Params::default()).unwrap();
    let names = ["A", "B"];
    let live_onsets: Vec<(Millis, String, String)> = summary
        .stream_events
        .iter()
        .filter_map(|e| match &e.kind {
            StreamEventKind::Onset(r) => {
                Some((r.time, names[r.speaker.index()].to_owned(), format!("{:?}", r.class)))
            }
            _ => None,
        })
        .collect();
    let batch: Vec<(Millis, String, String)> = offline
        .onsets
        .iter()
        .map(|o| (o.time, o.speaker.to_string(), format!("{:?}", o.class)))
        .collect();
    assert_eq!(batch.len(), 8, "{batch:?}");
    assert_eq!(live_onsets.len(), batch.len());
    let apart: Vec<i64> =
        live_onsets.iter().zip(&batch).map(|(l, o)| (l.0 - o.0).abs().get()).collect();
    assert_eq!(apart, [0; 8]);
    for (l, o) in live_onsets.iter().zip(&batch) {
        assert_eq!((&l.1, &l.2), (&o.1, &o.2));
    }
    // The first report of each start is the causal rule's provisional one, which stays
    // (committed later, not retracted).
    let script_starts = [1.0, 3.0, 5.0, 9.5, 12.0, 14.5];
    let first: Vec<f64> = script_starts
        .iter()
        .flat_map(|&s| [s, s + REPEAT])
        .map(|s| {
            let retracted: Vec<u64> = summary
                .events
                .iter()
                .filter(|e| e.state == EventState::Retracted)
                .filter_map(|e| e.refers_to)
                .collect();
            summary
                .events
                .iter()
                .filter(|e| e.kind == LiveEventKind::SpeechStart && (e.t_s - s).abs() < 0.25)
                .filter(|e| !retracted.contains(&e.id))
                .map(|e| e.decided_s - s)
                .fold(f64::INFINITY, f64::min)
        })
        .collect();
    assert!(first.iter().all(|&d| d <= 0.1), "{first:?}");
}

/// `--revise` with the default (causal) detector: the session commits the causal rule's
/// speech as it goes, and leaves offline `detect`'s, its record byte for byte.
#[test]
fn a_causal_session_with_revise_leaves_offline_detect() {
    let dir = tempfile::tempdir().unwrap();
    let tracks = render_copies(dir.path(), 2.0);
    let source = Replay::open(&tracks, 160, Pacing::Unpaced).unwrap();
    let config = SessionConfig {
        revise: true,
        record: Some(dir.path().join("record")),
        ..SessionConfig::default()
    };
    let summary = Session::start(Box::new(source), config).unwrap().wait().unwrap();
    let offline = offline_detect_of(&tracks);
    assert_ne!(summary.committed_annotation, offline.annotation);
    assert_eq!(summary.annotation, offline.annotation);
    let recorded = std::fs::read_to_string(&summary.recorded.as_ref().unwrap().rttm).unwrap();
    let (offline_rttm, _, _) =
        rttm_and_analysis("live", offline.annotation.clone(), &Params::default()).unwrap();
    assert_eq!(recorded, offline_rttm);
    let revision = summary.revision.unwrap();
    assert_eq!(revision.from_s, 0.0);
    assert!(revision.retracted > 0 && revision.added > 0, "{revision:?}");
    // Nothing the causal rule committed during the session came after the audio.
    let live_commits = summary.events.iter().filter(|e| !e.revised);
    assert!(live_commits.clone().all(|e| e.decided_s <= summary.audio_s + 1e-9));
    assert_eq!(
        summary.events.iter().filter(|e| e.revised).count(),
        revision.retracted + revision.added
    );
}

/// A paced replay delivers each block once its last sample has played, as a capture device
/// does: no event is published before the audio it was decided on has been heard (its
/// `decided_s` over the speed, on the session's wall clock), so wall-clock latencies are
/// never too short.
#[test]
fn a_paced_replay_publishes_no_event_before_its_audio_has_played() {
    let dir = tempfile::tempdir().unwrap();
    let tracks = render(dir.path());
    let speed = 19.0;
    // 0.25 s blocks: 76 of them, the last played at 76 · 0.25 / 19 = 1 s.
    let source = Replay::open(&tracks, 4000, Pacing::Speed(speed)).unwrap();
    let s = Session::start(Box::new(source), SessionConfig::default()).unwrap().wait().unwrap();
    assert_eq!(s.end, SourceEnd::Finished);
    assert!(s.wall_s >= 1.0, "the session ended after {} s", s.wall_s);
    assert!(!s.events.is_empty());
    for (e, &wall) in s.events.iter().zip(&s.wall_at) {
        assert!(
            wall >= e.decided_s / speed,
            "event {} decided at {} s of audio published at {wall} s",
            e.id,
            e.decided_s
        );
    }
}

/// A session's events with their two clocks in microseconds, `back` earlier (every field
/// else as published), to compare sessions whose audio starts at different times.
fn events_back(events: &[LiveEvent], back: i64) -> Vec<(i64, i64, String)> {
    let us = |s: f64| (s * 1e6).round() as i64 - back;
    events
        .iter()
        .map(|e| {
            let rest = LiveEvent { t_s: 0.0, decided_s: 0.0, ..e.clone() };
            (us(e.t_s), us(e.decided_s), format!("{rest:?}"))
        })
        .collect()
}

/// Each speaker's committed speech as (speaker, start ms, end ms), `back` ms earlier.
fn speech_back(annotation: &overtalk::Annotation, back: i64) -> Vec<(usize, i64, i64)> {
    annotation
        .speaker_regions()
        .iter()
        .enumerate()
        .flat_map(|(i, r)| {
            r.iter()
                .map(move |s| (i, s.start().micros() / 1000 - back, s.end().micros() / 1000 - back))
        })
        .collect()
}

/// `--track-offset` with one offset for every track: the same session, that much later. The
/// causal detector commits the same speech, each edge exactly 1.5 s later, publishes the same
/// events, each about and decided exactly 1.5 s later, and records the same RTTM, each turn
/// 1.5 s later.
#[test]
fn a_replay_with_offsets_commits_the_same_speech_that_much_later() {
    use overtalk::Delta;
    let dir = tempfile::tempdir().unwrap();
    let tracks = render(dir.path());
    let run = |offsets: &[(String, Delta)], record: &str| {
        let source =
            Replay::open(&tracks, 480, Pacing::Unpaced).unwrap().with_offsets(offsets).unwrap();
        // Without the music meter: its windows lie on the session clock, as offline
        // `detect`'s lie on the common timeline, so 1.5 s of silence before the tracks moves
        // them against the speech. B's syllables, regular as a beat in this scene, sound like
        // music to the plain session (a warning about B:
        // `a_replay_gives_the_same_event_stream_every_time`), not once moved 1.5 s.
        let config = SessionConfig {
            record: Some(dir.path().join(record)),
            music: false,
            ..SessionConfig::default()
        };
        Session::start(Box::new(source), config).unwrap().wait().unwrap()
    };
    let plain = run(&[], "plain");
    let later = Delta::from_micros(1_500_000);
    let moved = run(&[("A".to_owned(), later), ("B".to_owned(), later)], "moved");
    assert_eq!(moved.end, SourceEnd::Finished);
    assert_eq!(((moved.audio_s - plain.audio_s) * 1e6).round(), 1.5e6);
    assert_eq!(
        speech_back(&plain.committed_annotation, 0),
        [
            (0, 1000, 3010),
            (0, 3480, 5000),
            (0, 9500, 13_010),
            (1, 3000, 3410),
            (1, 5000, 8510),
            (1, 12_000, 12_310),
            (1, 14_500, 17_010)
        ]
    );
    assert_eq!(
        speech_back(&moved.committed_annotation, 1500),
        speech_back(&plain.committed_annotation, 0)
    );
    assert_eq!(events_back(&moved.events, 1_500_000), events_back(&plain.events, 0));
    let first = moved.events.iter().find(|e| e.kind == LiveEventKind::SpeechStart).unwrap();
    assert_eq!((first.speaker.as_deref(), first.t_s), (Some("A"), 2.5));
    // The record: the same turns, 1.5 s later.
    let rttm = |s: &overtalk_live::session::SessionSummary| {
        std::fs::read_to_string(&s.recorded.as_ref().unwrap().rttm).unwrap()
    };
    let turns = |text: &str, back: f64| -> Vec<(String, String, String)> {
        text.lines()
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                let start: f64 = f[3].parse().unwrap();
                (format!("{:.3}", start - back), f[4].to_owned(), f[7].to_owned())
            })
            .collect()
    };
    assert_eq!(turns(&rttm(&moved), 1.5), turns(&rttm(&plain), 0.0));
    assert_eq!(
        [rttm(&plain).lines().next().unwrap(), rttm(&moved).lines().next().unwrap()],
        [
            "SPEAKER live 1 1.000 2.010 <NA> <NA> A <NA> <NA>",
            "SPEAKER live 1 2.500 2.010 <NA> <NA> A <NA> <NA>"
        ]
    );
    // The record's report says how the tracks were placed, as `overtalk detect` says it.
    let html = std::fs::read_to_string(&moved.recorded.as_ref().unwrap().report).unwrap();
    assert!(
        html.contains(
            "live multitrack detection (causal detector); offsets A +1.500 s, B +1.500 s"
        ),
        "the report names the offsets"
    );
}

/// The music meter runs in the session's path: a replay gives the same event stream, byte for
/// byte, every time, the warning about B (whose syllables in this scene are as regular as a
/// beat) included at the same place, with the same id and clocks.
#[test]
fn a_replay_gives_the_same_event_stream_every_time() {
    let dir = tempfile::tempdir().unwrap();
    let tracks = render(dir.path());
    let run = |name: &str| {
        let path = dir.path().join(name);
        let source = Replay::open(&tracks, 480, Pacing::Unpaced).unwrap();
        let out = std::fs::File::create(&path).unwrap();
        let config = SessionConfig { events_out: Some(Box::new(out)), ..SessionConfig::default() };
        let s = Session::start(Box::new(source), config).unwrap().wait().unwrap();
        assert_eq!(s.end, SourceEnd::Finished);
        (std::fs::read(&path).unwrap(), s.events)
    };
    let (first, events) = run("first.jsonl");
    for again in ["second.jsonl", "third.jsonl"] {
        assert!(run(again).0 == first, "{again} differs from the first run's events");
    }
    let warnings: Vec<_> = events
        .iter()
        .filter(|e| e.kind == LiveEventKind::Warning)
        .map(|e| (e.id, e.speaker.as_deref(), e.state, e.refers_to, e.t_s, e.decided_s))
        .collect();
    // Provisional when a judgement first finds it (the speech judged up to 16.0075 s, decided
    // with the block that ends at 18.84 s), committed at the end by the verdict on B's whole
    // speech.
    assert_eq!(
        warnings,
        [
            (50, Some("B"), EventState::Provisional, None, 16.0075, 18.84),
            (51, Some("B"), EventState::Committed, Some(50), 19.0, 19.0)
        ]
    );
}

/// The record's report names a moved track as `overtalk detect` does, quoted when its name
/// holds a comma (read as two tracks otherwise).
#[test]
fn the_record_quotes_an_odd_track_name_as_detect_does() {
    use overtalk::Delta;
    let dir = tempfile::tempdir().unwrap();
    let mut tracks = render(dir.path());
    tracks[1].0 = "B, left".to_owned();
    let offsets = [("B, left".to_owned(), Delta::from_micros(250_000))];
    let source =
        Replay::open(&tracks, 480, Pacing::Unpaced).unwrap().with_offsets(&offsets).unwrap();
    let config =
        SessionConfig { record: Some(dir.path().join("record")), ..SessionConfig::default() };
    let summary = Session::start(Box::new(source), config).unwrap().wait().unwrap();
    let html = std::fs::read_to_string(&summary.recorded.as_ref().unwrap().report).unwrap();
    let described = overtalk_audio::pipeline::offsets_description(&[
        ("A", Delta::ZERO),
        ("B, left", Delta::from_micros(250_000)),
    ]);
    assert_eq!(described.as_deref(), Some("\"B, left\" +0.250 s"));
    assert!(
        html.contains(
            "live multitrack detection (causal detector); offsets &quot;B, left&quot; +0.250 s"
        ),
        "the report quotes the name"
    );
}

/// Recordings of separate devices: A's recorder started 0.75 s before the session's zero (its
/// file has 0.75 s more in front, a voice the offset drops), B's 0.5 s after it (its file
/// lacks the first 0.5 s, where B's mic was silent). Replayed with their offsets, they are
/// the two mics of one recorder, sample for sample: the same events at the same times, the
/// same record.
#[test]
fn offsets_put_the_files_of_separate_devices_on_the_session_clock() {
    use overtalk::Delta;
    let dir = tempfile::tempdir().unwrap();
    let mut mics = script_samples(COPIES);
    mics[1][..8000].iter_mut().for_each(|v| *v = 0.0);
    write_wav(&dir.path().join("A.wav"), &mics[0]);
    write_wav(&dir.path().join("B.wav"), &mics[1]);
    let early: Vec<f32> = (0..12_000)
        .map(|i| voiced(f64::from(i) / f64::from(RATE), 150.0))
        .chain(mics[0].iter().copied())
        .collect();
    write_wav(&dir.path().join("A-dev.wav"), &early);
    write_wav(&dir.path().join("B-dev.wav"), &mics[1][8000..]);
    let run = |files: [&str; 2], offsets: &[(String, Delta)], record: &str| {
        let tracks: Vec<(String, PathBuf)> = ["A", "B"]
            .iter()
            .zip(files)
            .map(|(n, f)| ((*n).to_owned(), dir.path().join(f)))
            .collect();
        let source =
            Replay::open(&tracks, 480, Pacing::Unpaced).unwrap().with_offsets(offsets).unwrap();
        let config =
            SessionConfig { record: Some(dir.path().join(record)), ..SessionConfig::default() };
        Session::start(Box::new(source), config).unwrap().wait().unwrap()
    };
    let one = run(["A.wav", "B.wav"], &[], "one");
    let offsets = [
        ("A".to_owned(), Delta::from_micros(-750_000)),
        ("B".to_owned(), Delta::from_micros(500_000)),
    ];
    let two = run(["A-dev.wav", "B-dev.wav"], &offsets, "two");
    assert_eq!(((two.audio_s - one.audio_s) * 1e6).round(), 0.0);
    assert_eq!(
        speech_back(&two.committed_annotation, 0),
        speech_back(&one.committed_annotation, 0)
    );
    assert_eq!(events_back(&two.events, 0), events_back(&one.events, 0));
    let starts = |s: &overtalk_live::session::SessionSummary| -> Vec<(i64, Option<String>)> {
        s.events
            .iter()
            .filter(|e| e.kind == LiveEventKind::SpeechStart && e.state == EventState::Committed)
            .map(|e| ((e.t_s * 1000.0).round() as i64, e.speaker.clone()))
            .collect()
    };
    let script: Vec<(i64, Option<String>)> =
        [(1000, "A"), (3000, "B"), (5000, "B"), (9500, "A"), (12_000, "B"), (14_500, "B")]
            .iter()
            .map(|&(t, s)| (t, Some(s.to_owned())))
            .collect();
    let mut got = starts(&two);
    got.sort();
    let mut want = script.clone();
    // A's turn is cut where B's backchannel starts, and resumes after it.
    want.push((3480, Some("A".to_owned())));
    want.sort();
    assert_eq!(got, want);
    let rttm = |s: &overtalk_live::session::SessionSummary| {
        std::fs::read_to_string(&s.recorded.as_ref().unwrap().rttm).unwrap()
    };
    assert_eq!(rttm(&two), rttm(&one));
    // Without the offsets, A's early voice is a turn 0.75 s long at the start.
    let plain = run(["A-dev.wav", "B-dev.wav"], &[], "plain");
    assert_ne!(
        speech_back(&plain.committed_annotation, 0),
        speech_back(&one.committed_annotation, 0)
    );
}

/// Offsets are refused as `overtalk detect` refuses them: a name that is no track, an offset
/// longer than the longest recording accepted, one that leaves nothing of its recording.
#[test]
fn offsets_that_leave_nothing_or_name_no_track_are_refused() {
    use overtalk::Delta;
    let dir = tempfile::tempdir().unwrap();
    let tracks = render(dir.path());
    let refused = |name: &str, us: i64| {
        Replay::open(&tracks, 480, Pacing::Unpaced)
            .unwrap()
            .with_offsets(&[(name.to_owned(), Delta::from_micros(us))])
            .unwrap_err()
            .to_string()
    };
    assert_eq!(refused("C", 1), "\"C\" is not a track of the replay (the tracks are \"A\", \"B\")");
    assert_eq!(
        refused("B", -19_000_000),
        format!(
            "{}: the offset -19.000 s of \"B\" puts the whole of its recording (19.000 s) before \
             the common start of the tracks",
            tracks[1].1.display()
        )
    );
    // Less than half a sample short of the end rounds to it: nothing left either.
    assert!(refused("B", -18_999_990).contains("puts the whole of its recording"));
    assert_eq!(
        refused("A", 86_400_000_001),
        "the offset 86400.000001 s of \"A\" is longer than the longest recording accepted \
         (86400.000 s)"
    );
    // One sample left is a track.
    let kept = Replay::open(&tracks, 480, Pacing::Unpaced)
        .unwrap()
        .with_offsets(&[("B".to_owned(), Delta::from_micros(-18_999_937))])
        .unwrap();
    assert_eq!(kept.offsets(), [Delta::ZERO, Delta::from_micros(-18_999_937)]);
}

/// With the calibrated classifier the causal session commits a class before the speech up to
/// its horizon is final when the edges the detector may still take back cannot change it
/// (`SessionConfig::speculate`): the same classes, each no later, still the batch analysis of
/// the record.
#[test]
fn early_commits_are_the_classes_of_the_record_no_later() {
    let dir = tempfile::tempdir().unwrap();
    let tracks = render_copies(dir.path(), 2.0);
    let params = Params {
        classifier: overtalk::analysis::Classifier::Calibrated,
        decision_horizon: Some(Millis::new(250)),
        ..Params::default()
    };
    let run = |speculate: bool| {
        let source = Replay::open(&tracks, 160, Pacing::Unpaced).unwrap();
        let config =
            SessionConfig { params: params.clone(), speculate, ..SessionConfig::default() };
        Session::start(Box::new(source), config).unwrap().wait().unwrap()
    };
    let (early, late) = (run(true), run(false));
    assert_eq!(early.annotation, late.annotation);
    // The classes: onset labels and backchannel tags of the stream, and of the batch analysis
    // of the session's speech.
    let labels = |events: &[overtalk::analysis::stream::StreamEvent]| {
        let mut v: Vec<(Millis, usize, String)> = events
            .iter()
            .filter_map(|e| match &e.kind {
                StreamEventKind::Onset(r) => {
                    Some((r.time, r.speaker.index(), format!("{:?} {:?}", r.class, r.outcome)))
                }
                StreamEventKind::Floor { speaker, backchannel, .. } => {
                    Some((e.time, speaker.index(), format!("backchannel {backchannel}")))
                }
                _ => None,
            })
            .collect();
        v.sort();
        v
    };
    assert_eq!(labels(&early.stream_events), labels(&late.stream_events));
    let (_, _, batch) = rttm_and_analysis("live", early.annotation.clone(), &params).unwrap();
    let mut onsets: Vec<(Millis, usize, String)> = batch
        .onsets
        .iter()
        .map(|o| {
            let speaker = usize::from(&*o.speaker == "B");
            (o.time, speaker, format!("{:?} {:?}", o.class, o.outcome))
        })
        .collect();
    onsets.sort();
    let stream_onsets: Vec<_> = labels(&early.stream_events)
        .into_iter()
        .filter(|l| !l.2.starts_with("backchannel"))
        .collect();
    assert_eq!(stream_onsets, onsets);
    // The wire: the same committed interruptions and backchannels, each decided no later.
    let commits = |events: &[LiveEvent]| -> Vec<(LiveEventKind, i64, i64)> {
        events
            .iter()
            .filter(|e| {
                e.state == EventState::Committed
                    && matches!(e.kind, LiveEventKind::Interruption | LiveEventKind::Backchannel)
            })
            .map(|e| (e.kind, (e.t_s * 1e3).round() as i64, (e.decided_s * 1e3).round() as i64))
            .collect()
    };
    // B's "yeah" at 3.00–3.40 s is committed at its horizon: the detector's commit clock was
    // held before it by an edge the detector could still take back, and both outcomes of that
    // edge tag B's talkspurt a backchannel.
    use LiveEventKind::{Backchannel as Bc, Interruption as Int};
    let later = [(Int, 12000, 12260), (Int, 22000, 22260), (Bc, 24000, 24260), (Int, 31000, 31260)];
    let mut want = vec![(Bc, 3000, 3260)];
    want.extend(later);
    assert_eq!(commits(&early.events), want);
    want[0] = (Bc, 3000, 3410);
    assert_eq!(commits(&late.events), want);
}

/// A source that delivers the script's first `good` blocks of 480 frames as a replay does,
/// then one block of three channels for the two speakers, which the detector refuses; then it
/// ends as if nothing were wrong.
struct BrokenAfter {
    names: Vec<String>,
    tracks: Vec<Vec<f32>>,
    good: usize,
}

struct Joined(Option<std::thread::JoinHandle<()>>);

impl overtalk_live::source::Running for Joined {
    fn stop(&mut self) {
        if let Some(h) = self.0.take() {
            h.join().unwrap();
        }
    }
}

impl overtalk_live::source::Source for BrokenAfter {
    fn names(&self) -> &[String] {
        &self.names
    }
    fn rate(&self) -> u32 {
        RATE
    }
    fn block_frames(&self) -> usize {
        480
    }
    fn lossless(&self) -> bool {
        true
    }
    fn start(
        self: Box<Self>,
        sink: overtalk_live::source::BlockSink,
    ) -> anyhow::Result<Box<dyn overtalk_live::source::Running>> {
        let thread = std::thread::spawn(move || {
            for b in 0..self.good {
                let block: Vec<&[f32]> =
                    self.tracks.iter().map(|t| &t[b * 480..(b + 1) * 480]).collect();
                if !sink.push(&block) {
                    return;
                }
            }
            let wrong = [0.0f32; 480];
            if sink.push(&[&wrong[..], &wrong[..], &wrong[..]]) {
                sink.end(SourceEnd::Finished);
            }
        });
        Ok(Box::new(Joined(Some(thread))))
    }
}

/// An error of the detector in the middle of a session (a block it refuses after 9 s of the
/// script) ends the session as a stop does: the record is written, and its speech is what a
/// replay of those 9 s gives, to the byte; its analysis says the session ended early and why;
/// the summary keeps the reason for the caller.
#[test]
fn an_error_in_the_middle_of_a_session_ends_it_with_its_record_written() {
    let dir = tempfile::tempdir().unwrap();
    let tracks = script_samples(COPIES);
    let good = 300; // 300 × 480 frames: 9.00 s
    let source = BrokenAfter { names: vec!["A".into(), "B".into()], tracks: tracks.clone(), good };
    let config =
        SessionConfig { record: Some(dir.path().join("broken")), ..SessionConfig::default() };
    let broken = Session::start(Box::new(source), config).unwrap().wait().unwrap();
    let why = "at 9.00 s of audio: speech detection: causal detection: a block of 3 channels for \
               2 speakers";
    assert_eq!(broken.failure.as_deref(), Some(why));
    assert_eq!(broken.end, SourceEnd::Stopped);
    assert_eq!(broken.audio_s, 9.0);
    // The same 9 s replayed to their end.
    for (name, t) in ["A", "B"].iter().zip(&tracks) {
        write_wav(&dir.path().join(format!("{name}9.wav")), &t[..good * 480]);
    }
    let files: Vec<(String, PathBuf)> = ["A", "B"]
        .iter()
        .map(|n| ((*n).to_owned(), dir.path().join(format!("{n}9.wav"))))
        .collect();
    let source = Replay::open(&files, 480, Pacing::Unpaced).unwrap();
    let config = SessionConfig {
        record: Some(dir.path().join("whole")),
        music: false,
        ..SessionConfig::default()
    };
    let whole = Session::start(Box::new(source), config).unwrap().wait().unwrap();
    assert_eq!(whole.failure, None);
    let read = |r: &Option<overtalk_live::record::Recorded>| {
        let r = r.as_ref().unwrap();
        (std::fs::read_to_string(&r.rttm).unwrap(), std::fs::read_to_string(&r.analysis).unwrap())
    };
    let (broken_rttm, broken_json) = read(&broken.recorded);
    let (whole_rttm, _) = read(&whole.recorded);
    assert_eq!(broken_rttm, whole_rttm);
    assert_eq!(broken_rttm.lines().count(), 4, "{broken_rttm}");
    let json: serde_json::Value = serde_json::from_str(&broken_json).unwrap();
    let warnings = &json["conversations"][0]["diagnostics"]["warnings"];
    let note = format!(
        "the live session ended early on an error {why}; the record holds the speech decided \
         up to it"
    );
    assert!(
        warnings.as_array().unwrap().iter().any(|w| w.to_string().contains(&note)),
        "{warnings}"
    );
}

/// An events output that fails in the middle (a full disk) is closed and said once; the
/// session runs to its end and its record is written.
#[test]
fn an_events_output_that_fails_stops_neither_the_session_nor_its_record() {
    struct FullAfter(usize);
    impl std::io::Write for FullAfter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.0 == 0 {
                return Err(std::io::Error::from_raw_os_error(28));
            }
            self.0 -= 1;
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let tracks = render(dir.path());
    let run = |out: Option<Box<dyn std::io::Write + Send>>, record: &str| {
        let source = Replay::open(&tracks, 480, Pacing::Unpaced).unwrap();
        let config = SessionConfig {
            events_out: out,
            record: Some(dir.path().join(record)),
            ..SessionConfig::default()
        };
        Session::start(Box::new(source), config).unwrap().wait().unwrap()
    };
    let failed = run(Some(Box::new(FullAfter(3))), "failed");
    let plain = run(None, "plain");
    assert_eq!(failed.end, SourceEnd::Finished);
    assert_eq!(failed.failure, None);
    let why = failed.events_error.as_deref().unwrap();
    assert!(why.ends_with("s of audio: No space left on device (os error 28)"), "{why}");
    assert_eq!(failed.events.len(), plain.events.len());
    let rttm = |s: &overtalk_live::session::SessionSummary| {
        std::fs::read_to_string(&s.recorded.as_ref().unwrap().rttm).unwrap()
    };
    assert_eq!(rttm(&failed), rttm(&plain));
    assert!(!rttm(&plain).is_empty());
}
