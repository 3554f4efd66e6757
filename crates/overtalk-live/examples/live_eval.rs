//! Replays recordings with exact references through the live session and measures it:
//! speech start/stop latency after the true edge (audio clock and wall clock), the commit
//! latency of interruptions and backchannels after the onset, agreement of the committed
//! labels with the offline analysis, and the session's CPU time. Writes the live and the
//! offline (`detect`) RTTMs for `overtalk score`.
//!
//! ```text
//! live_eval synth bench/out/synth OUT [--speed K]    # NAME.mic{i}_{SPK}.wav + NAME.rttm
//! live_eval ami ../shared/data/real-audio/ami-es2004a-multitrack OUT [--speed K]
//! live_eval ch32 DIR OUT --no-offline                # DIR/s{0..7}_{0..3}.wav: CPU only
//! (any: --detector causal|windowed|hybrid|lookahead, --no-offline skips offline detect,
//!  --revise revises at the end with any detector (lookahead always does),
//!  --early-commits commits a class before the speech up to its horizon is committed when
//!  every outcome of the detector's undecided edges gives it (SessionConfig::speculate),
//!  --window S, --lookahead S and --redecide S for the windowed rule of the detector,
//!  --classifier calibrated|rules and --decision-horizon MS (default calibrated at 250 ms),
//!  --min-silence MS, --lead-in MS, --unvoiced-start MS and --causal NAME=DB for the causal
//!  detector's rule; --overlap-silence MS and --overlap-since MS for the causal and the
//!  offline rule alike (ends confirmed sooner in overlap),
//!  --dump FILE: one tab-separated line per true speech edge with its first report and commit)
//! ```
//! It prints the DER of the speech as committed during the session and as the session left
//! it (after the end-of-session revision of `--detector lookahead`), and of offline `detect`,
//! under `overtalk score`'s defaults, and how many provisional speech starts were retracted.
//! `bench/live_bench.sh` runs it and scores the RTTMs.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use overtalk::analysis::stream::StreamEventKind;
use overtalk::analysis::{Classifier, Millis, Params};
use overtalk::output::live::{EventState, LiveEvent, LiveEventKind};
use overtalk::score::{score_with, Metrics, RecordingInput, ScoreOptions};
use overtalk::{Annotation, Region};
use overtalk_audio::{detect, DetectOptions, TrackSpec};
use overtalk_live::record::rttm_and_analysis;
use overtalk_live::replay::{Pacing, Replay};
use overtalk_live::session::{DetectorKind, Session, SessionConfig};

struct Recording {
    id: String,
    tracks: Vec<(String, PathBuf)>,
    reference: Annotation,
}

fn read_rttm(path: &Path, id: &str) -> Result<Annotation> {
    let text = std::fs::read_to_string(path)?;
    let out =
        overtalk::format::read_str(&text, overtalk::format::Format::Rttm, &Default::default())?;
    let t = out.corpus.get(id).with_context(|| format!("{id} not in {}", path.display()))?;
    Ok(t.annotation().clone())
}

fn recordings(kind: &str, dir: &Path) -> Result<Vec<Recording>> {
    let mut out = Vec::new();
    match kind {
        "synth" => {
            let mut names: Vec<String> = std::fs::read_dir(dir)?
                .filter_map(|e| e.ok()?.file_name().into_string().ok())
                .filter_map(|n| n.strip_suffix(".rttm").map(str::to_owned))
                .collect();
            names.sort();
            for id in names {
                let mut tracks: Vec<(String, PathBuf)> = std::fs::read_dir(dir)?
                    .filter_map(|e| e.ok()?.file_name().into_string().ok())
                    .filter(|n| n.starts_with(&format!("{id}.mic")) && n.ends_with(".wav"))
                    .map(|n| {
                        let spk = n.trim_end_matches(".wav").rsplit('_').next().unwrap().to_owned();
                        (spk, dir.join(&n))
                    })
                    .collect();
                tracks.sort();
                let reference = read_rttm(&dir.join(format!("{id}.rttm")), &id)?;
                out.push(Recording { id, tracks, reference });
            }
        }
        "ami" => {
            let tracks = overtalk_testkit::ami_es2004a_headsets(dir);
            let reference = read_rttm(&dir.join("mixture.ref.rttm"), "mixture")?;
            out.push(Recording { id: "mixture".into(), tracks, reference });
        }
        "ch32" => {
            // 32 channels: eight copies of the four AMI headsets, upsampled to 48 kHz
            // (bench/live_bench.sh makes them); no reference, for the CPU alone.
            let tracks = (0..8)
                .flat_map(|copy| (0..4).map(move |i| (copy, i)))
                .map(|(copy, i)| (format!("S{copy}_{i}"), dir.join(format!("s{copy}_{i}.wav"))))
                .collect();
            let reference = overtalk::AnnotationBuilder::new().build();
            out.push(Recording { id: "ch32".into(), tracks, reference });
        }
        _ => bail!("unknown set {kind}"),
    }
    Ok(out)
}

fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14 and 15 of the file (utime, stime) are 12 and 13 after the command name.
    (ticks(11) + ticks(12)) / 100.0
}

fn pct(v: &mut [f64], q: f64) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let i = ((v.len() as f64 * q).ceil() as usize).clamp(1, v.len()) - 1;
    v[i]
}

#[derive(Default)]
struct Lat {
    first_audio: Vec<f64>,
    first_wall: Vec<f64>,
    committed_audio: Vec<f64>,
    missed: usize,
    /// Per true edge (for `--dump`): recording, speaker, the edge (s), and of the first
    /// report its `t_s`, `decided_s` and wall-clock latency, and the commit's `decided_s`.
    rows: Vec<String>,
}

/// For each true edge of each speaker: the first event of that kind for that speaker within
/// 250 ms of it (its report), and the first committed one.
#[allow(clippy::too_many_arguments)]
fn edge_latency(
    id: &str,
    reference: &Region,
    speaker: &str,
    events: &[LiveEvent],
    wall_at: &[f64],
    speed: Option<f64>,
    start: bool,
    lat: &mut Lat,
) {
    let kind = if start { LiveEventKind::SpeechStart } else { LiveEventKind::SpeechEnd };
    for seg in reference.iter() {
        let edge = if start { seg.start() } else { seg.end() }.micros() as f64 / 1e6;
        let near = |e: &&LiveEvent| {
            e.kind == kind && e.speaker.as_deref() == Some(speaker) && (e.t_s - edge).abs() <= 0.25
        };
        let first =
            events.iter().enumerate().find(|(_, e)| near(e) && e.state != EventState::Retracted);
        let mut row =
            format!("{id}\t{speaker}\t{}\t{edge:.3}", if start { "start" } else { "end" });
        let fmt = |v: Option<f64>| v.map_or("-".to_owned(), |v| format!("{v:.3}"));
        match first {
            Some((i, e)) => {
                lat.first_audio.push(e.decided_s - edge);
                let wall = speed.map(|k| wall_at[i] - edge / k);
                if let Some(w) = wall {
                    lat.first_wall.push(w);
                }
                row += &format!("\t{:.3}\t{:.3}\t{}", e.t_s, e.decided_s, fmt(wall));
            }
            None => {
                lat.missed += 1;
                row += "\t-\t-\t-";
            }
        }
        // The commit made during the session (the end-of-session revision's are counted
        // apart).
        let committed =
            events.iter().find(|e| near(e) && e.state == EventState::Committed && !e.revised);
        if let Some(e) = committed {
            lat.committed_audio.push(e.decided_s - edge);
        }
        row += &format!("\t{}", fmt(committed.map(|e| e.decided_s)));
        lat.rows.push(row);
    }
}

type Label = (Millis, String, String, String);
/// A talkspurt's start, speaker and backchannel tag.
type Tag = (Millis, String, bool);

fn tags_of(a: &overtalk::analysis::Analysis) -> Vec<Tag> {
    let mut v: Vec<Tag> =
        a.talkspurts.iter().map(|t| (t.start, t.speaker.to_string(), t.is_backchannel)).collect();
    v.sort();
    v
}

fn labels_of(a: &overtalk::analysis::Analysis) -> Vec<Label> {
    let mut v: Vec<Label> = a
        .onsets
        .iter()
        .map(|o| {
            (o.time, o.speaker.to_string(), format!("{:?}", o.class), format!("{:?}", o.outcome))
        })
        .collect();
    v.sort();
    v
}

fn main() -> Result<()> {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        bail!("usage: live_eval synth|ami DIR OUT [--speed K] [--detector causal|windowed|hybrid|lookahead] [--no-offline] [--no-music]");
    }
    let (kind, dir, out) = (&args[1], PathBuf::from(&args[2]), PathBuf::from(&args[3]));
    let speed = match args.iter().position(|a| a == "--speed") {
        Some(i) => Some(args[i + 1].parse::<f64>()?),
        None => None,
    };
    let detector = match args.iter().position(|a| a == "--detector") {
        Some(i) => args[i + 1].parse::<DetectorKind>().map_err(anyhow::Error::msg)?,
        None => DetectorKind::default(),
    };
    let no_offline = args.iter().any(|a| a == "--no-offline");
    let revise = args.iter().any(|a| a == "--revise");
    let speculate = args.iter().any(|a| a == "--early-commits");
    let mut causal_options = overtalk_audio::causal::CausalOptions::default();
    if let Some(i) = args.iter().position(|a| a == "--min-silence") {
        causal_options.min_silence =
            overtalk::Delta::from_micros(args[i + 1].parse::<i64>()? * 1000);
    }
    // --overlap-silence MS: the end of speech confirmed while another speaks, for the causal
    // rule and the offline one (offline `detect`, the look-ahead rule, the revision) alike.
    let overlap_silence = match args.iter().position(|a| a == "--overlap-silence") {
        Some(i) => Some(overtalk::Delta::from_micros(args[i + 1].parse::<i64>()? * 1000)),
        None => None,
    };
    if let Some(d) = overlap_silence {
        causal_options.overlap_silence = d;
    }
    // --overlap-since MS: how long before a stop another speaker must have spoken.
    let overlap_since = match args.iter().position(|a| a == "--overlap-since") {
        Some(i) => Some(overtalk::Delta::from_micros(args[i + 1].parse::<i64>()? * 1000)),
        None => None,
    };
    if let Some(d) = overlap_since {
        causal_options.overlap_since = d;
    }
    // --lead-in MS, --unvoiced-start MS: the causal rule's dating back and early reports.
    if let Some(i) = args.iter().position(|a| a == "--lead-in") {
        causal_options.lead_in = overtalk::Delta::from_micros(args[i + 1].parse::<i64>()? * 1000);
    }
    if let Some(i) = args.iter().position(|a| a == "--unvoiced-start") {
        causal_options.unvoiced_start =
            Some(overtalk::Delta::from_micros(args[i + 1].parse::<i64>()? * 1000));
    }
    // --causal NAME=DB: a threshold of the causal detector (for the DER experiments).
    for (i, _) in args.iter().enumerate().filter(|(_, a)| *a == "--causal") {
        let (k, v) = args[i + 1].split_once('=').context("--causal NAME=DB")?;
        let v: f32 = v.parse()?;
        match k {
            "above_floor_on_db" => causal_options.above_floor_on_db = v,
            "above_floor_off_db" => causal_options.above_floor_off_db = v,
            "above_bleed_on_db" => causal_options.above_bleed_on_db = v,
            "above_bleed_off_db" => causal_options.above_bleed_off_db = v,
            "voicing" => causal_options.voicing = v,
            "start_voicing" => causal_options.start_voicing = v,
            _ => bail!("unknown causal option {k}"),
        }
    }
    // --window S, --lookahead S, --redecide S: the windowed rule's timing (of the detector
    // chosen: `windowed`/`hybrid` or `lookahead`).
    let mut online = match detector {
        DetectorKind::Lookahead => overtalk_audio::online::OnlineOptions::lookahead(),
        _ => overtalk_audio::online::OnlineOptions::default(),
    };
    for (flag, field) in [
        ("--window", &mut online.window),
        ("--lookahead", &mut online.lookahead),
        ("--redecide", &mut online.redecide),
    ] {
        if let Some(i) = args.iter().position(|a| a == flag) {
            *field = overtalk::Delta::from_secs_f64(args[i + 1].parse::<f64>()?)
                .with_context(|| format!("{flag} out of range"))?;
        }
    }
    if let Some(d) = overlap_silence {
        online.multitrack.overlap_silence = d;
    }
    if let Some(d) = overlap_since {
        online.multitrack.overlap_since = d;
    }
    let classifier = match args.iter().position(|a| a == "--classifier") {
        Some(i) => args[i + 1].parse::<Classifier>().map_err(anyhow::Error::msg)?,
        None => Classifier::Calibrated,
    };
    let mut params = Params { classifier, ..Params::default() };
    if params.classifier == Classifier::Calibrated {
        params.decision_horizon = Some(match args.iter().position(|a| a == "--decision-horizon") {
            Some(i) => Millis::new(args[i + 1].parse::<i64>()?),
            None => Millis::new(250),
        });
    }
    std::fs::create_dir_all(out.join("live"))?;
    std::fs::create_dir_all(out.join("offline"))?;
    let (mut starts, mut ends) = (Lat::default(), Lat::default());
    let (mut commit_int, mut commit_bc) = (Vec::new(), Vec::new());
    let mut no_probability = 0usize;
    let (mut announce_int, mut unannounced) = (Vec::new(), 0usize);
    let (mut candidates, mut cand_int, mut cand_other, mut cand_retracted) = (0, 0, 0, 0);
    let (mut same_record, mut total_record, mut same_offline, mut total_offline) =
        (0usize, 0usize, 0usize, 0usize);
    let (mut same_tag_record, mut total_tag_record, mut same_tag_offline, mut total_tag_offline) =
        (0usize, 0usize, 0usize, 0usize);
    let (mut cpu, mut audio) = (0.0, 0.0);
    let (mut prov_starts, mut retracted_starts) = (0usize, 0usize);
    let (mut live_scored, mut offline_scored) = (Vec::new(), Vec::new());
    let mut committed_scored = Vec::new();
    let (mut revised_retracted, mut revised_added) = (0, 0);
    let dump = args.iter().position(|a| a == "--dump").map(|i| PathBuf::from(&args[i + 1]));
    for rec in recordings(kind, &dir)? {
        let pacing = speed.map_or(Pacing::Unpaced, Pacing::Speed);
        let rate = overtalk_live::source::Source::rate(&Replay::open(&rec.tracks, 1, pacing)?);
        let source = Replay::open(&rec.tracks, (rate / 100) as usize, pacing)?;
        let config = SessionConfig {
            record: Some(out.join("live")),
            recording: rec.id.clone(),
            detector,
            params: params.clone(),
            causal: causal_options,
            online: online.clone(),
            lookahead: if detector == DetectorKind::Lookahead {
                online.clone()
            } else {
                use overtalk_audio::online::OnlineOptions;
                OnlineOptions {
                    vad: online.vad,
                    multitrack: online.multitrack,
                    ..OnlineOptions::lookahead()
                }
            },
            revise,
            speculate,
            // --no-music: without the music meter's thread (its cost on the latencies).
            music: !args.iter().any(|a| a == "--no-music"),
            ..SessionConfig::default()
        };
        let before = cpu_seconds();
        let session = Session::start(Box::new(source), config)?;
        let s = session.wait()?;
        cpu += cpu_seconds() - before;
        audio += s.audio_s;
        // Latency of speech edges against the exact reference.
        let ref_regions = rec.reference.speaker_regions();
        for ((_, name), region) in rec.reference.speakers().iter().zip(&ref_regions) {
            let name = name.to_owned();
            edge_latency(&rec.id, region, &name, &s.events, &s.wall_at, speed, true, &mut starts);
            edge_latency(&rec.id, region, &name, &s.events, &s.wall_at, speed, false, &mut ends);
        }
        let is_start = |e: &LiveEvent| e.kind == LiveEventKind::SpeechStart;
        prov_starts +=
            s.events.iter().filter(|e| is_start(e) && e.state == EventState::Provisional).count();
        retracted_starts +=
            s.events.iter().filter(|e| is_start(e) && e.state == EventState::Retracted).count();
        live_scored.push(RecordingInput::new(
            rec.id.clone(),
            Some(rec.reference.clone()),
            Some(s.annotation.clone()),
        ));
        committed_scored.push(RecordingInput::new(
            rec.id.clone(),
            Some(rec.reference.clone()),
            Some(s.committed_annotation.clone()),
        ));
        if let Some(r) = s.revision {
            revised_retracted += r.retracted;
            revised_added += r.added;
        }
        let by_id: std::collections::HashMap<u64, &LiveEvent> =
            s.events.iter().map(|e| (e.id, e)).collect();
        let is_candidate = |e: &LiveEvent| {
            e.kind == LiveEventKind::Onset
                && e.state == EventState::Provisional
                && e.class.as_deref() == Some("interruption")
        };
        candidates += s.events.iter().filter(|e| is_candidate(e)).count();
        for e in &s.events {
            let Some(r) = e.refers_to.and_then(|r| by_id.get(&r)) else { continue };
            if !is_candidate(r) {
                continue;
            }
            match (e.state, e.kind) {
                (EventState::Retracted, _) => cand_retracted += 1,
                (EventState::Committed, LiveEventKind::Interruption) => cand_int += 1,
                (EventState::Committed, _) => cand_other += 1,
                _ => {}
            }
        }
        for e in s.events.iter().filter(|e| e.state == EventState::Committed && !e.revised) {
            if e.kind == LiveEventKind::Interruption {
                match e.refers_to.and_then(|r| by_id.get(&r)).filter(|r| is_candidate(r)) {
                    Some(r) => announce_int.push(r.decided_s - e.t_s),
                    None => unannounced += 1,
                }
            }
            match e.kind {
                LiveEventKind::Interruption => commit_int.push(e.decided_s - e.t_s),
                LiveEventKind::Backchannel => commit_bc.push(e.decided_s - e.t_s),
                _ => {}
            }
            if matches!(e.kind, LiveEventKind::Interruption | LiveEventKind::Backchannel) {
                // Committed before the speech it reads was final, on a probability the
                // undecided edges could still move.
                no_probability += usize::from(e.probability.is_none());
            }
        }
        // Committed labels against the offline analysis of the recorded RTTM, and of the
        // offline detection.
        let mut names: Vec<&str> = rec.tracks.iter().map(|(n, _)| n.as_str()).collect();
        names.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
        let mut live: Vec<Label> = s
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
        let mut live_bc: Vec<Tag> = s
            .stream_events
            .iter()
            .filter_map(|e| match &e.kind {
                StreamEventKind::Floor { speaker, backchannel, .. } => {
                    Some((e.time, names[speaker.index()].to_owned(), *backchannel))
                }
                _ => None,
            })
            .collect();
        live_bc.sort();
        let (_, _, recorded) = rttm_and_analysis(&rec.id, s.annotation.clone(), &params)?;
        let rec_labels = labels_of(&recorded);
        same_record += live.iter().filter(|l| rec_labels.contains(l)).count();
        total_record += live.len().max(rec_labels.len());
        let rec_tags = tags_of(&recorded);
        same_tag_record += live_bc.iter().filter(|l| rec_tags.contains(l)).count();
        total_tag_record += live_bc.len().max(rec_tags.len());
        if no_offline {
            continue;
        }
        let specs: Vec<TrackSpec> =
            rec.tracks.iter().map(|(n, p)| TrackSpec::file(n.clone(), p.clone())).collect();
        let mut detect_options = DetectOptions::default();
        if let Some(d) = overlap_silence {
            detect_options.multitrack.overlap_silence = d;
        }
        if let Some(d) = overlap_since {
            detect_options.multitrack.overlap_since = d;
        }
        let offline = detect(&specs, &detect_options, &mut |_| {})?;
        offline_scored.push(RecordingInput::new(
            rec.id.clone(),
            Some(rec.reference.clone()),
            Some(offline.annotation.clone()),
        ));
        let (rttm, _, off_analysis) =
            rttm_and_analysis(&rec.id, offline.annotation.clone(), &params)?;
        std::fs::write(out.join("offline").join(format!("{}.rttm", rec.id)), rttm)?;
        let off = labels_of(&off_analysis);
        // An onset agrees when the offline one has its speaker and class within 100 ms.
        same_offline += live
            .iter()
            .filter(|l| {
                off.iter().any(|o| {
                    o.1 == l.1 && o.2 == l.2 && o.3 == l.3 && (o.0 - l.0).abs() <= Millis::new(100)
                })
            })
            .count();
        total_offline += live.len().max(off.len());
        let off_tags = tags_of(&off_analysis);
        same_tag_offline += live_bc
            .iter()
            .filter(|l| {
                off_tags
                    .iter()
                    .any(|o| o.1 == l.1 && o.2 == l.2 && (o.0 - l.0).abs() <= Millis::new(100))
            })
            .count();
        total_tag_offline += live_bc.len().max(off_tags.len());
        println!(
            "{:<18} audio {:6.1} s  events {:5}  onsets live {:3} record {:3} offline {:3}",
            rec.id,
            s.audio_s,
            s.events.len(),
            live.len(),
            rec_labels.len(),
            off.len()
        );
    }
    let show = |name: &str, l: &mut Lat| {
        println!(
            "{name}: first report p50 {:.0} ms p95 {:.0} ms (audio clock){}; committed p50 {:.0} ms p95 {:.0} ms; {} edges, {} not reported within 250 ms",
            1e3 * pct(&mut l.first_audio, 0.5),
            1e3 * pct(&mut l.first_audio, 0.95),
            if l.first_wall.is_empty() {
                String::new()
            } else {
                format!(", p50 {:.0} ms p95 {:.0} ms (wall clock)", 1e3 * pct(&mut l.first_wall, 0.5), 1e3 * pct(&mut l.first_wall, 0.95))
            },
            1e3 * pct(&mut l.committed_audio, 0.5),
            1e3 * pct(&mut l.committed_audio, 0.95),
            l.first_audio.len() + l.missed,
            l.missed
        );
    };
    show("speech start", &mut starts);
    show("speech end", &mut ends);
    println!("provisional speech starts {prov_starts}, retracted {retracted_starts}");
    let der = |inputs: &[RecordingInput]| -> Result<f64> {
        let report = score_with(inputs, None, &ScoreOptions::default(), Metrics::DER_ONLY)?;
        Ok(100.0 * report.der().unwrap_or(f64::NAN))
    };
    if kind != "ch32" {
        print!(
            "DER of the speech as committed live {:.2} %, as the session left it {:.2} % \
             (revision: {revised_retracted} events retracted, {revised_added} added)",
            der(&committed_scored)?,
            der(&live_scored)?
        );
        if offline_scored.is_empty() {
            println!();
        } else {
            println!(" (offline detect {:.2} %)", der(&offline_scored)?);
        }
    }
    if let Some(path) = dump {
        let mut text = String::from("recording\tspeaker\tedge\ttrue_s\tfirst_t_s\tfirst_decided_s\tfirst_wall_latency_s\tcommitted_decided_s\n");
        for row in starts.rows.iter().chain(&ends.rows) {
            text += row;
            text.push('\n');
        }
        std::fs::write(&path, text).with_context(|| path.display().to_string())?;
    }
    println!(
        "commit after the onset: interruption p50 {:.0} ms p95 {:.0} ms ({}), backchannel p50 {:.0} ms ({}); without a probability {}",
        1e3 * pct(&mut commit_int, 0.5),
        1e3 * pct(&mut commit_int, 0.95),
        commit_int.len(),
        1e3 * pct(&mut commit_bc, 0.5),
        commit_bc.len(),
        no_probability
    );
    println!(
        "interruptions announced (provisional, class interruption) after the onset: p50 {:.0} ms p95 {:.0} ms ({} announced, {} not); candidates {}: committed interruption {}, other class {}, retracted {}",
        1e3 * pct(&mut announce_int.clone(), 0.5),
        1e3 * pct(&mut announce_int, 0.95),
        commit_int.len() - unannounced,
        unannounced,
        candidates,
        cand_int,
        cand_other,
        cand_retracted
    );
    println!(
        "committed onset labels = analyze of the recorded RTTM: {same_record}/{total_record} ({:.2} %); = analyze of offline detect (±100 ms): {same_offline}/{total_offline} ({:.2} %)",
        100.0 * same_record as f64 / total_record.max(1) as f64,
        100.0 * same_offline as f64 / total_offline.max(1) as f64
    );
    println!(
        "committed backchannel tags = analyze of the recorded RTTM: {same_tag_record}/{total_tag_record} ({:.2} %); = analyze of offline detect (±100 ms): {same_tag_offline}/{total_tag_offline} ({:.2} %)",
        100.0 * same_tag_record as f64 / total_tag_record.max(1) as f64,
        100.0 * same_tag_offline as f64 / total_tag_offline.max(1) as f64
    );
    println!(
        "session CPU {cpu:.2} s for {audio:.1} s of audio: {:.2} % of one core",
        100.0 * cpu / audio.max(1e-9)
    );
    Ok(())
}
