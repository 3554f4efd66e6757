//! `overtalk detect`: who spoke when, from recordings with one track per speaker.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use overtalk::format::{self, Format};
use overtalk::{Corpus, Delta, Segment, Time, TranscriptBuilder};
use overtalk_audio::pipeline::{self, DetectOptions, Progress, TrackSpec};
use overtalk_audio::vad::VadKind;

use crate::input::Source;
use crate::output::Target;
use crate::{Globals, Outcome};

/// Detect who spoke when in recordings with one microphone per speaker.
///
/// Give each speaker's track with `--track NAME=FILE`, or one multichannel recording with
/// `--channels NAME,NAME,…` (one name per channel, `_` skips a channel). Each track is decoded
/// (WAV, FLAC, MP3, Ogg Vorbis, AAC/M4A, the audio of MP4/MOV/MKV/WebM), resampled to 16 kHz and
/// checked for speech; the other speakers' bleed into each microphone is measured from the
/// recording itself and rejected, so overlapping speech is kept. With a single track and no
/// `--channels`, the result is the speech of that recording under one label.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  overtalk detect --track Host=host.wav --track Guest=guest.wav -o show.rttm\n  overtalk detect call.wav --channels Agent,Customer -o call.TextGrid\n  overtalk detect podcast.mp3 -o speech.rttm"
)]
pub struct Args {
    /// A recording: one track, or several channels named with `--channels`.
    #[arg(value_name = "AUDIO", conflicts_with = "tracks")]
    audio: Option<PathBuf>,
    /// A speaker's own track, `NAME=FILE` (repeat for each speaker).
    #[arg(long = "track", value_name = "NAME=FILE")]
    tracks: Vec<String>,
    /// Names of AUDIO's channels, in order (`_` skips a channel).
    #[arg(long, value_name = "NAME,NAME,…", value_delimiter = ',', requires = "audio")]
    channels: Vec<String>,
    /// Output file or `-` for stdout.
    #[arg(short, long, value_name = "OUT", default_value = "-")]
    output: PathBuf,
    /// Output format (default: from the output's extension; RTTM on stdout).
    #[arg(long, value_name = "FORMAT")]
    to: Option<Format>,
    /// The recording id written in the output (default: the first file's name without extension).
    #[arg(long, value_name = "ID")]
    recording_id: Option<String>,
    /// Voice activity detector: earshot (default), energy, or none (energy rules only).
    #[arg(long, value_name = "NAME", default_value = "earshot")]
    vad: String,
    /// Speech runs shorter than this are dropped (seconds).
    #[arg(long, value_name = "SECS", default_value = "0.1")]
    min_speech: f64,
    /// Pauses shorter than this within one speaker's speech are closed (seconds).
    #[arg(long, value_name = "SECS", default_value = "0.25")]
    min_silence: f64,
    /// Largest accepted difference between track durations (seconds).
    #[arg(long, value_name = "SECS", default_value = "1")]
    max_length_diff: f64,
    /// Accept tracks with different sample rates.
    #[arg(long)]
    allow_rate_mismatch: bool,
    /// Longest recording accepted (seconds).
    #[arg(long, value_name = "SECS", default_value = "86400")]
    max_duration: f64,
    #[command(flatten)]
    diarize: crate::diarize::DiarizeArgs,
}

/// Runs detection and writes the result.
pub fn run(args: Args, globals: Globals) -> Result<Outcome> {
    let specs = track_specs(&args)?;
    let vad = match args.vad.as_str() {
        "none" => None,
        name => Some(name.parse::<VadKind>().map_err(anyhow::Error::msg)?),
    };
    let mut options = DetectOptions { vad, ..DetectOptions::default() };
    options.multitrack.min_speech = seconds(args.min_speech, "--min-speech")?;
    options.multitrack.min_silence = seconds(args.min_silence, "--min-silence")?;
    options.binarize.min_speech = options.multitrack.min_speech;
    options.binarize.min_silence = options.multitrack.min_silence;
    options.max_length_diff = seconds(args.max_length_diff, "--max-length-diff")?;
    options.allow_rate_mismatch = args.allow_rate_mismatch;
    options.decode.max_duration = seconds(args.max_duration, "--max-duration")?;

    let format = match args.to {
        Some(f) => f,
        None if args.output.as_os_str() == "-" => Format::Rttm,
        None => output_format(&args.output)?,
    };
    let sources: Vec<Source> = specs.iter().map(|s| Source::File(s.path.clone())).collect();
    let target = Target::from_arg(Some(&args.output));
    target.check_not_input(&sources)?;
    if args.diarize.wanted() && args.tracks.is_empty() && args.channels.is_empty() {
        let id = args.recording_id.as_deref();
        let audio = &specs[0].path;
        return crate::diarize::run(&args.diarize, audio, id, &options, format, target, globals);
    }

    let bar = progress_bar(globals);
    let detection = pipeline::detect(&specs, &options, &mut |p: Progress<'_>| {
        if let Some(bar) = &bar {
            update_bar(bar, &p);
        }
    });
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let detection = detection.context("detecting speech")?;

    if !globals.quiet {
        for t in &detection.tracks {
            if t.stats.non_finite > 0 {
                eprintln!(
                    "overtalk: warning: {}: {} non-finite samples (NaN or infinity) were replaced by silence",
                    t.path.display(),
                    t.stats.non_finite
                );
            }
            if t.stats.bad_packets > 0 {
                eprintln!(
                    "overtalk: warning: {}: {} corrupt packets were replaced by silence",
                    t.path.display(),
                    t.stats.bad_packets
                );
            }
        }
    }

    let id = match &args.recording_id {
        Some(id) => id.clone(),
        None => format::recording_id_from_path(&specs[0].path),
    };
    let mut builder = TranscriptBuilder::new();
    for t in &detection.tracks {
        builder.speaker(&t.name);
    }
    let ann = &detection.annotation;
    for track in ann.tracks() {
        builder.add(track.segment, ann.speaker_name(track.speaker), None);
    }
    builder.extent(Segment::new(Time(0), Time(detection.duration.0)));
    let corpus = Corpus::single(id, builder.build());
    target.write_with(|out| {
        let warnings = format::write(&corpus, format, out)?;
        if !globals.quiet {
            for w in warnings {
                eprintln!("overtalk: warning: {w}");
            }
        }
        Ok(())
    })?;
    Ok(Outcome::Ok)
}

fn track_specs(args: &Args) -> Result<Vec<TrackSpec>> {
    if !args.tracks.is_empty() {
        let mut specs = Vec::new();
        for t in &args.tracks {
            let Some((name, file)) = t.split_once('=') else {
                bail!("--track {t:?}: expected NAME=FILE");
            };
            if name.trim().is_empty() || file.is_empty() {
                bail!("--track {t:?}: expected NAME=FILE with a non-empty name and file");
            }
            specs.push(TrackSpec {
                name: name.to_owned(),
                path: PathBuf::from(file),
                channel: None,
            });
        }
        return Ok(specs);
    }
    let Some(audio) = &args.audio else {
        bail!("give a recording (AUDIO) or one --track NAME=FILE per speaker");
    };
    if args.channels.is_empty() {
        let name = format::recording_id_from_path(audio);
        return Ok(vec![TrackSpec { name, path: audio.clone(), channel: None }]);
    }
    let specs: Vec<TrackSpec> = args
        .channels
        .iter()
        .enumerate()
        .filter(|(_, n)| n.as_str() != "_")
        .map(|(c, n)| TrackSpec {
            name: n.trim().to_owned(),
            path: audio.clone(),
            channel: Some(c),
        })
        .collect();
    if specs.is_empty() {
        bail!("--channels names no speaker (every channel is `_`)");
    }
    if specs.iter().any(|s| s.name.is_empty()) {
        bail!("--channels: a channel name is empty (use `_` to skip a channel)");
    }
    Ok(specs)
}

fn seconds(value: f64, flag: &str) -> Result<Delta> {
    match Delta::from_secs_f64(value) {
        Some(d) if d.0 >= 0 => Ok(d),
        _ => bail!("{flag} {value}: expected a non-negative number of seconds"),
    }
}

fn output_format(path: &Path) -> Result<Format> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if name.to_ascii_lowercase().ends_with(".json") {
        return Ok(Format::Json);
    }
    format::detect_by_name(&name).with_context(|| {
        format!("{}: cannot tell the output format from the extension; use --to", path.display())
    })
}

fn progress_bar(globals: Globals) -> Option<indicatif::ProgressBar> {
    if globals.quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(0);
    let style =
        indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} s ({eta})")
            .map(|s| s.progress_chars("=> "))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    Some(bar)
}

fn update_bar(bar: &indicatif::ProgressBar, p: &Progress<'_>) {
    let name = p.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    bar.set_message(name);
    if let Some(total) = p.total {
        bar.set_length(total.0.max(0) as u64 / 1_000_000);
    }
    bar.set_position(p.done.0.max(0) as u64 / 1_000_000);
}
