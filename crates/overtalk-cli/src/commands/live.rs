//! `overtalk live`: the live floor monitor — speech, overlaps, floor changes and classified
//! onsets as they happen, from recordings replayed in real time or (feature `device`) from an
//! audio input.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::builder::TypedValueParser;
use overtalk::analysis::{AnalysisPreset, Classifier, Millis, Params};
use overtalk::Delta;
use overtalk_audio::causal::CausalOptions;
use overtalk_audio::multitrack::TrackWarning;
use overtalk_audio::online::OnlineOptions;
use overtalk_audio::vad::VadKind;
use overtalk_live::replay::{Pacing, Replay};
use overtalk_live::session::{DetectorKind, EventsOpener, SessionConfig};
use overtalk_live::source::Source;
use overtalk_live::{run_monitor, OutputArgs};

use crate::app::{Globals, Outcome};
use crate::input::recordings::{parse_track_offsets, track_specs};
use crate::named_arg::named;

/// Monitor the floor live: who talks, overlaps, floor changes and interruptions as they
/// happen, as JSON lines; at the end (also on Ctrl-C) the RTTM, its analysis and the report.
///
/// Backchannels and interruptions are decided by the calibrated classifier at
/// `--decision-horizon` (250 ms) after each talkspurt's start, so an interruption is committed
/// about a quarter of a second after it begins; `--classifier rules` waits for the rule book's
/// evidence (the talkspurt's end). The record's analysis is what `overtalk analyze
/// --classifier C --decision-horizon H --preset P --format json` gives on the recorded RTTM.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  overtalk live --track Host=host.wav --track Guest=guest.wav --events -\n  overtalk live --track Host=host.wav --track Guest=guest.wav --track-offset Guest=2.5 --record out/\n  overtalk live --track A=a.wav --track B=b.wav --speed 4 --record out/\n  overtalk live --replay obs.mkv --audio-tracks Host,Guest --events -\n  overtalk live --device 'USB Audio' --channels Host,Guest --events events.jsonl --record out/"
)]
pub struct Args {
    /// A recording with one audio track per microphone (OBS), replayed with each audio track
    /// a speaker's own, named by `--audio-tracks`; or with one speaker per channel, named by
    /// `--channels`.
    #[arg(value_name = "AUDIO", conflicts_with = "device")]
    audio: Option<PathBuf>,
    /// Names of AUDIO's audio tracks, in order (`_` skips a track), as `overtalk detect`
    /// takes them: each replayed as a speaker's own track.
    #[arg(long = "audio-tracks", value_name = "NAME,NAME,…", value_delimiter = ',')]
    audio_tracks: Vec<String>,
    /// A speaker's own recording, `NAME=FILE`, replayed (repeat for each speaker).
    #[arg(long = "track", value_name = "NAME=FILE")]
    tracks: Vec<String>,
    /// Where a `--track` starts on the session clock, `NAME=TIME` with NAME a `--track`
    /// name (repeat for each track that needs one; default 0), for tracks recorded on
    /// separate devices that started at different times, as `overtalk detect --track-offset`
    /// takes it: positive, the track's audio starts that much into the session (silence
    /// before it); negative, its first seconds are not played. The events' times and the
    /// record are on the session clock.
    #[arg(long = "track-offset", value_name = "NAME=TIME")]
    track_offsets: Vec<String>,
    /// Replay the `--track` recordings or AUDIO (implied by either).
    #[arg(long, conflicts_with = "device")]
    replay: bool,
    /// Replay speed: seconds of audio per second (1 = real time).
    #[arg(long, value_name = "K", default_value = "1", conflicts_with = "device")]
    speed: f64,
    /// Replay as fast as the detector goes (for measurements).
    #[arg(long, conflicts_with_all = ["speed", "device"])]
    unpaced: bool,
    /// Capture from this input device (a build with the `device` feature).
    #[arg(long, value_name = "NAME", conflicts_with = "tracks")]
    device: Option<String>,
    /// The speakers on the device's input channels, or on AUDIO's channels (one speaker per
    /// channel, as `overtalk detect --channels` takes them), in order.
    #[arg(long, value_name = "NAME,NAME,…", value_delimiter = ',')]
    channels: Vec<String>,
    /// Do not meter the tracks for music (no music `warning` event, no music warning in the
    /// record).
    #[arg(long = "no-music")]
    no_music: bool,
    /// Samples per device buffer requested (the one obtained is logged).
    #[arg(long, value_name = "FRAMES", default_value = "256")]
    buffer: u32,
    /// Samples per channel in each block given to the detector (default: 10 ms).
    #[arg(long, value_name = "FRAMES")]
    block: Option<usize>,
    /// Write one JSON line per event to FILE (`-`: stdout).
    #[arg(long, value_name = "FILE|-")]
    events: Option<String>,
    /// At the end, write RECORDING.rttm, RECORDING.analysis.json and RECORDING.html here.
    #[arg(long, value_name = "DIR")]
    record: Option<PathBuf>,
    /// The recording id of the record (not empty: it names the record's files).
    #[arg(long, value_name = "ID", default_value = "live", value_parser = clap::builder::NonEmptyStringValueParser::new())]
    recording: String,
    /// Parameter preset of the analysis (default, he2010, pure-jf), checked as `analyze
    /// --preset` checks it.
    #[arg(long, value_name = "PRESET", default_value = "default", value_parser = named::<AnalysisPreset>().map(|p| p.name().to_owned()))]
    preset: String,
    /// Voice activity detector: earshot (default), energy or none.
    #[arg(long, value_name = "NAME")]
    vad: Option<String>,
    /// Speech detector: causal (each 10 ms frame decided from the past alone), windowed
    /// (the offline rule re-decided on a trailing window, final behind `--lookahead`), hybrid
    /// (causal provisional edges, windowed commits) or lookahead (causal provisional edges,
    /// commits from the offline rule on the last 10 minutes, 2 s behind).
    #[arg(long, value_name = "causal|windowed|hybrid|lookahead", default_value = "causal")]
    detector: DetectorKind,
    /// What decides backchannels and interruptions: `calibrated` (the classifier fitted on
    /// human labels, deciding at `--decision-horizon`) or `rules` (the rule book, deciding
    /// once each talkspurt has ended).
    #[arg(long, value_name = "calibrated|rules", default_value = "calibrated")]
    classifier: Classifier,
    /// With `--classifier calibrated`: decide each talkspurt and onset from the evidence up
    /// to this long after its start (250, 500 or 1000 ms).
    #[arg(long, value_name = "MS", default_value = "250", value_parser = crate::time_arg::millis)]
    decision_horizon: i64,
    /// Windowed, hybrid and lookahead detectors: how much of the past each detection
    /// decision sees, and the history kept (seconds; 30, or 600 for lookahead).
    #[arg(long, value_name = "TIME", value_parser = crate::time_arg::seconds)]
    window: Option<f64>,
    /// Windowed, hybrid and lookahead detectors: how far behind the newest audio a
    /// detection is final (seconds; 0.6, or 2 for lookahead).
    #[arg(long, value_name = "TIME", value_parser = crate::time_arg::seconds)]
    lookahead: Option<f64>,
    /// Windowed, hybrid and lookahead detectors: how often the detection is decided again
    /// (seconds; 0.1, or 0.5 for lookahead).
    #[arg(long, value_name = "TIME", value_parser = crate::time_arg::seconds)]
    redecide: Option<f64>,
    /// Causal, hybrid and lookahead detectors: report a speech start once a loud frame is
    /// half periodic (0.5) rather than after the voicing test (0.8). On the synthetic suite the
    /// 95th percentile start comes at 99 ms instead of 132 ms; more provisional starts are
    /// retracted (breath and handling noise: three times as many on the AMI headsets). The
    /// committed speech, and so the record, does not change.
    #[arg(long)]
    early_start: bool,
    /// When the session ends, decide the speech once more on the whole session (up to the
    /// last 10 minutes), as `overtalk detect` would, retract or add the committed events that
    /// change (marked `"revised": true`), and write the record from it. Always on with
    /// `--detector lookahead`; with the others it also keeps the features of the last 10
    /// minutes while the session runs.
    #[arg(long)]
    revise: bool,
    /// Causal detector, calibrated classifier: commit a backchannel tag or an onset's class as
    /// soon as every outcome of the edges the detector has heard but may still take back (a
    /// pause it may bridge, a run it may drop) gives the same label, rather than once that
    /// speech is committed. The labels are the same, committed sooner (synthetic suite, p50:
    /// interruptions 390 -> 290 ms, backchannels 330 -> 260 ms after the onset), but such an
    /// event has no `probability` when the outcomes give different ones. Costs a copy of the
    /// analysis per outcome on each check (see docs/live.md).
    #[arg(long)]
    early_commits: bool,
    /// The floor rule, its actuators and the live page.
    #[command(flatten)]
    outputs: OutputArgs,
}

/// The periodicity at which `--early-start` reports a provisional start
/// (`CausalOptions::start_voicing`; BENCHMARKS.md, "Live: speech-start latency").
const EARLY_START_VOICING: f32 = 0.5;

fn secs(s: f64, flag: &str) -> Result<Delta> {
    if !(s.is_finite() && s > 0.0) {
        bail!("{flag} must be a positive number of seconds, not {s}");
    }
    Delta::from_secs_f64(s).with_context(|| format!("{flag} {s} is out of range"))
}

/// Runs `live`.
pub fn run(args: Args, globals: Globals) -> Result<Outcome> {
    let preset = AnalysisPreset::parse(&args.preset).context("unknown preset")?;
    let mut params = Params::preset(preset);
    params.classifier = args.classifier;
    if args.classifier == Classifier::Calibrated {
        params.decision_horizon = Some(Millis::new(args.decision_horizon));
        params.validate().context("--decision-horizon")?;
    }
    let vad = match args.vad.as_deref() {
        None => Some(VadKind::default()),
        Some("none") => None,
        Some(name) => Some(name.parse::<VadKind>().map_err(anyhow::Error::msg)?),
    };
    let mut online = match args.detector {
        DetectorKind::Lookahead => OnlineOptions::lookahead(),
        _ => OnlineOptions::default(),
    };
    online.vad = vad;
    for (value, flag, field) in [
        (args.window, "--window", &mut online.window),
        (args.lookahead, "--lookahead", &mut online.lookahead),
        (args.redecide, "--redecide", &mut online.redecide),
    ] {
        if let Some(v) = value {
            *field = secs(v, flag)?;
        }
    }
    let mut causal = CausalOptions::default();
    if args.early_start {
        if args.detector == DetectorKind::Windowed {
            bail!("--early-start needs the causal rule's provisional starts (--detector causal, hybrid or lookahead)");
        }
        causal.start_voicing = EARLY_START_VOICING;
    }
    // The offsets are read as `detect` reads them, before any recording is opened.
    let offsets = parse_track_offsets(&args.tracks, &args.track_offsets)?;
    let (source, warnings) = source(&args, &offsets)?;
    let notes: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    if !globals.quiet {
        for w in &notes {
            eprintln!("overtalk: warning: {w}");
        }
    }
    if let Some(dir) = &args.record {
        // Before `--events` is created: a refused record leaves no events file behind.
        overtalk_live::record::prepare(dir)?;
    }
    // A file is created only once the session starts (its detector set up, its outputs
    // bound): a session that cannot start leaves no events file suggesting it ran.
    let (events_out, events_open): (Option<Box<dyn Write + Send>>, Option<EventsOpener>) =
        match args.events.as_deref() {
            None => (None, None),
            Some("-") => (Some(Box::new(std::io::stdout())), None),
            Some(path) => {
                let path = PathBuf::from(path);
                let input = args.audio.as_deref() == Some(path.as_path());
                if input
                    || args.tracks.iter().any(|t| {
                        t.split_once('=').is_some_and(|(_, f)| std::path::Path::new(f) == path)
                    })
                {
                    bail!("--events {} would overwrite an input", path.display());
                }
                let open: EventsOpener = Box::new(move || {
                    let file = std::fs::File::create(&path)
                        .with_context(|| format!("creating {}", path.display()))?;
                    Ok(Box::new(std::io::BufWriter::new(file)) as Box<dyn Write + Send>)
                });
                (None, Some(open))
            }
        };
    let config = SessionConfig {
        params,
        preset: args.preset.clone(),
        detector: args.detector,
        lookahead: if args.detector == DetectorKind::Lookahead {
            online.clone()
        } else {
            // The history `--revise` keeps: the look-ahead detector's window.
            OnlineOptions { vad, ..OnlineOptions::lookahead() }
        },
        online,
        causal,
        events_out,
        events_open,
        record: args.record.clone(),
        revise: args.revise,
        speculate: args.early_commits,
        warn_stderr: !globals.quiet,
        notes,
        recording: args.recording.clone(),
        music: !args.no_music,
        ..SessionConfig::default()
    };
    let (summary, _floor) = run_monitor(source, config, &args.outputs)?;
    if !globals.quiet {
        eprintln!(
            "overtalk live: {:.1} s of audio in {:.1} s, {} events, ended: {:?}{}",
            summary.audio_s,
            summary.wall_s,
            summary.events.len(),
            summary.end,
            if summary.dropped_blocks > 0 {
                format!(", {} blocks dropped (the detector fell behind)", summary.dropped_blocks)
            } else {
                String::new()
            }
        );
        if summary.speculation_errors > 0 {
            eprintln!(
                "overtalk live: {} early-commit checks failed on the detector's undecided edges \
                 (nothing was committed early on them)",
                summary.speculation_errors
            );
        }
        if let Some(r) = &summary.revision {
            let from = if r.from_s > 0.0 {
                format!(" from {:.1} s (earlier audio had left the window)", r.from_s)
            } else {
                String::new()
            };
            eprintln!(
                "overtalk live: the speech decided again on the whole session{from}: {} committed \
                 events retracted, {} added (\"revised\": true); the record is the revised speech",
                r.retracted, r.added
            );
        }
        if let Some(r) = &summary.recorded {
            eprintln!(
                "overtalk live: recorded {}, {}, {}",
                r.rttm.display(),
                r.analysis.display(),
                r.report.display()
            );
        }
    }
    // Every mute is released and the record written by now: the session's own error ends the
    // command with it, and an events output that failed (said when it did) leaves it partial.
    if let Some(why) = &summary.failure {
        bail!("the live session ended early {why}");
    }
    if summary.events_error.is_some() {
        return Ok(Outcome::Partial);
    }
    Ok(Outcome::Ok)
}

/// The replay of `--track` (each moved by its `--track-offset`) or of AUDIO's audio tracks
/// (`--audio-tracks`) or channels (`--channels`), read as `overtalk detect` reads them, with
/// what opening them found to warn of; or the device. Fewer than two tracks are refused.
fn source(
    args: &Args,
    offsets: &[(String, Delta)],
) -> Result<(Box<dyn Source>, Vec<TrackWarning>)> {
    if let Some(device) = &args.device {
        if !args.audio_tracks.is_empty() {
            bail!("--audio-tracks names the audio tracks of a replayed recording; it does not go with --device");
        }
        return Ok((device_source(device, args)?, Vec::new()));
    }
    if args.tracks.is_empty() && args.audio.is_none() && args.audio_tracks.is_empty() {
        bail!("give the speakers' recordings (--track NAME=FILE …) or an input device (--device NAME --channels A,B,…)");
    }
    // The tracks as `detect` takes them: the same flags, checks and messages.
    let specs =
        track_specs(args.audio.as_deref(), &args.tracks, &args.channels, &args.audio_tracks)?;
    if specs.len() < 2 {
        // The detectors tell each speaker's speech from the others' bleed: one track per
        // speaker, as `detect`'s multitrack rule needs (a mixed recording is `detect`'s
        // diarization, not live's).
        bail!(
            "live needs one track per speaker (two or more): name {}'s audio tracks with \
             --audio-tracks NAME,NAME, give --channels NAME,NAME for a file with one speaker per \
             channel, or give --track NAME=FILE per speaker",
            args.audio.as_deref().map_or_else(|| "FILE".to_owned(), |p| p.display().to_string())
        );
    }
    let pacing = if args.unpaced { Pacing::Unpaced } else { Pacing::Speed(args.speed) };
    // The block size needs the rate: open once to read it, then with the block.
    let probe = Replay::open_specs(&specs, 1, pacing)?;
    let block = args.block.unwrap_or((probe.rate() / 100).max(1) as usize);
    let replay = Replay::open_specs(&specs, block, pacing)?.with_offsets(offsets)?;
    let warnings = replay.warnings().to_vec();
    Ok((Box::new(replay), warnings))
}

#[cfg(feature = "device")]
fn device_source(device: &str, args: &Args) -> Result<Box<dyn Source>> {
    let block = args.block.unwrap_or(480);
    let name = (device != "default").then_some(device);
    Ok(Box::new(overtalk_live::device::Device::open(name, &args.channels, block, args.buffer)?))
}

#[cfg(not(feature = "device"))]
fn device_source(_device: &str, _args: &Args) -> Result<Box<dyn Source>> {
    bail!("this build cannot capture from a device: build overtalk with `--features device`")
}
