//! `overtalk cut INPUT… -o OUT`: an edit by speaker or by event, as an editor's cut list or
//! as rendered audio.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use overtalk::cut::{self, edl, request, CutOptions, Edit, EventKind, Rate, Selection};
use overtalk::Delta;
use overtalk_audio::pipeline::TrackSpec;
use overtalk_audio::render::{render_wav, CutRecording, CutRenderOptions};

use crate::app::{Globals, Outcome};
use crate::input::conversations::read_and_analyze;
use crate::input::params::AnalysisArgs;
use crate::input::recordings::{track_specs, AudioArgs};
use crate::input::{ReadArgs, Source};
use crate::named_arg::{named, named_with_help};
use crate::output::{format_for_path, Target};

/// Cut by speaker or by event: remove a speaker, keep only one, mute one, pull every
/// interruption of one speaker with context, or follow the floor holder.
///
/// The output's extension (or `--format`) picks what is written: an OpenTimelineIO timeline
/// (`.otio`), a CMX3600 EDL (`.edl`, `--edl-style`), FCP7 XML for Premiere and Resolve
/// (`.xml`), FCPXML for Final Cut Pro (`.fcpxml`), MLT XML for Shotcut, Kdenlive and `melt`
/// (`.mlt`), a CSV cut list (`.csv`), or the audio itself (`.wav`, from `--audio` or the
/// `--track` recordings). Cuts fall on frames of `--fps`; docs/cut.md says which editor
/// imports what.
#[derive(Debug, clap::Args)]
// `--collar -1` reaches the command's own range check instead of clap's "unexpected argument".
#[command(allow_negative_numbers = true)]
#[command(
    after_help = "Examples:\n  overtalk cut show.rttm --without Host --audio show.wav -o show-no-host.edl --fps 29.97df\n  overtalk cut show.rttm --only Guest --audio show.wav -o guest.wav\n  overtalk cut debate.vtt --events interruptions --by Alice --context 2s --audio debate.mp4 -o reel.otio\n  overtalk cut --track Host=host.wav --track Guest=guest.wav --without Host -o guest-only.wav\n  overtalk cut show.rttm --follow-speaker --camera Host=host.mp4 --camera Guest=guest.mp4 -o multicam.fcpxml"
)]
#[command(group(clap::ArgGroup::new("selection").required(true).args(["without", "only", "mute", "events", "follow_speaker"])))]
pub struct Args {
    /// Transcripts or diarizations (as `analyze` reads them), or recordings.
    #[arg(required_unless_present = "tracks", value_name = "INPUT")]
    inputs: Vec<String>,
    /// Output file; its extension picks the format unless `--format` is given.
    #[arg(short, long, value_name = "OUT")]
    output: PathBuf,
    /// Output format.
    #[arg(long, value_parser = named_with_help(cut_format_help))]
    format: Option<request::CutFormat>,
    /// Remove this speaker's solo speech (repeatable); the rest closes up.
    #[arg(long, value_name = "NAME")]
    without: Vec<String>,
    /// Keep only this speaker's speech (repeatable).
    #[arg(long, value_name = "NAME")]
    only: Vec<String>,
    /// Silence this speaker's solo speech, keeping the timing (repeatable).
    #[arg(long, value_name = "NAME")]
    mute: Vec<String>,
    /// An evidence reel of these events: interruptions, backchannels, claims, overlaps
    /// (comma-separated).
    #[arg(long, value_name = "KIND,…", value_delimiter = ',')]
    events: Vec<String>,
    /// With `--events`: only this speaker's events.
    #[arg(long, value_name = "NAME", requires = "events")]
    by: Option<String>,
    /// With `--events`: context before and after each event (a time: `2s`, `500ms`, `2.5`).
    #[arg(long, value_name = "TIME", default_value = "2s", requires = "events", value_parser = crate::time_arg::delta)]
    context: Delta,
    /// The whole recording, in place, one clip per floor holder's turn.
    #[arg(long)]
    follow_speaker: bool,
    /// With `--follow-speaker`: a multicam cut whose clips switch to this speaker's camera (or
    /// other source) while they hold the floor (repeatable, one per speaker; default: the
    /// `--track` recordings, each speaker's own).
    #[arg(long, value_name = "NAME=FILE", requires = "follow_speaker")]
    camera: Vec<String>,
    /// Frame rate of the edit: 23.976, 24, 25, 29.97, 29.97df, 30, 50, 59.94, 59.94df, 60.
    #[arg(long, value_name = "RATE", default_value = "25")]
    fps: Rate,
    /// EDL dialect.
    #[arg(long, value_name = "STYLE", default_value_t = edl::Style::Premiere, value_parser = named::<edl::Style>())]
    edl_style: edl::Style,
    /// Handles: widen each kept stretch by this on both sides (`0.2s`, `200ms`).
    #[arg(long, value_name = "TIME", default_value = "0", value_parser = crate::time_arg::delta)]
    pad: Delta,
    /// Join kept stretches closer than this.
    #[arg(long, value_name = "TIME", default_value = "0", value_parser = crate::time_arg::delta)]
    merge: Delta,
    /// Drop clips shorter than this.
    #[arg(long, value_name = "TIME", default_value = "0", value_parser = crate::time_arg::delta)]
    min_clip: Delta,
    /// The recording the edit plays (rendered for `.wav`; recorded as the media of cut lists).
    #[arg(long, value_name = "FILE")]
    audio: Option<PathBuf>,
    /// The media path written into cut lists (default: `--audio`, or the `--track` files).
    #[arg(long, value_name = "PATH")]
    media: Option<String>,
    /// Length of the crossfades and fades at cuts (a time; a bare number is milliseconds).
    #[arg(long, value_name = "MS", default_value = "10", value_parser = crate::time_arg::millis_u32)]
    crossfade: u32,
    /// From `--track` recordings: the gain of the kept tracks during a removed speaker's solo
    /// speech (dB), which ducks that speaker's bleed.
    #[arg(long, value_name = "DB", default_value_t = -40.0, allow_negative_numbers = true)]
    duck: f64,
    /// Also write who spoke when in the cut (times remapped), in the format of FILE's
    /// extension (`.rttm`, `.vtt`, …).
    #[arg(long, value_name = "FILE")]
    transcript: Option<PathBuf>,
    #[command(flatten)]
    analysis: AnalysisArgs,
    #[command(flatten)]
    recordings: AudioArgs,
    #[command(flatten)]
    read: ReadArgs,
}

/// The line of `--help` under each `--format` value.
fn cut_format_help(f: request::CutFormat) -> Option<&'static str> {
    use request::CutFormat as F;
    Some(match f {
        F::Otio => "OpenTimelineIO JSON",
        F::Edl => "CMX3600 EDL",
        F::Fcp7 => "FCP7 XML (xmeml)",
        F::Fcpxml => "FCPXML 1.8",
        F::Mlt => "MLT XML",
        F::Csv => "CSV cut list",
        F::Wav => "Rendered audio (32-bit float WAV)",
    })
}

/// A duration option's value ([`crate::time_arg`]), refused when negative.
fn duration(d: Delta, flag: &str) -> Result<Delta> {
    if d.micros() < 0 {
        bail!("{flag} {}: cannot be negative", d.as_secs_f64());
    }
    Ok(d)
}

/// The recording the cut plays: `--audio`, else the `--track` files (`specs`, each at its
/// `--track-offset` on the common timeline), else none.
fn decode(args: &Args, specs: &[TrackSpec]) -> Result<Option<CutRecording>> {
    if let Some(path) = &args.audio {
        return Ok(Some(CutRecording::decode_mixed(path)?));
    }
    if specs.is_empty() {
        return Ok(None);
    }
    Ok(CutRecording::decode_tracks(specs)?)
}

/// The `--track NAME=FILE` values as specs, each at its `--track-offset` (`offsets`).
fn placed_tracks(tracks: &[String], offsets: &[(String, Delta)]) -> Result<Vec<TrackSpec>> {
    if tracks.is_empty() {
        return Ok(Vec::new());
    }
    let mut specs = track_specs(None, tracks, &[], &[])?;
    for (name, offset) in offsets {
        for spec in specs.iter_mut().filter(|s| &s.name == name) {
            spec.offset = *offset;
        }
    }
    Ok(specs)
}

/// Runs `cut`.
pub fn run(mut args: Args, globals: Globals) -> Result<Outcome> {
    args.recordings.strict = args.read.strict;
    // Flags that belong to another mode (clap's `requires` counts a flag's default as given).
    if !args.camera.is_empty() && !args.follow_speaker {
        bail!("--camera goes with --follow-speaker: the cameras are the angles of a multicam cut that follows the floor holder");
    }
    if args.by.is_some() && args.events.is_empty() {
        bail!("--by goes with --events: it keeps one speaker's events in an evidence reel");
    }
    // `--track-offset` places each `--track` file on the common timeline, as `detect` does;
    // read before the tracks are set aside below.
    let offsets = args.recordings.offsets()?;
    let moved = offsets.iter().any(|(_, d)| *d != Delta::ZERO);
    if !(args.duck.is_finite() && args.duck <= 0.0) {
        bail!(
            "--duck is a gain in dB, 0 or below (-40 lowers the bleed by 40 dB), got {}",
            args.duck
        );
    }
    // With a transcript or diarization as INPUT, the `--track` recordings are what is cut, not
    // what is detected: who spoke when comes from the INPUT.
    let tracks = if args.inputs.is_empty() {
        args.recordings.tracks.clone()
    } else {
        args.recordings.track_offsets.clear();
        std::mem::take(&mut args.recordings.tracks)
    };
    let specs = placed_tracks(&tracks, &offsets)?;
    // One mixed recording as INPUT (diarized into who spoke when) is also what the cut plays.
    if let ([one], None, true) = (args.inputs.as_slice(), &args.audio, tracks.is_empty()) {
        if crate::input::is_audio(Path::new(one)) {
            args.audio = Some(PathBuf::from(one));
        }
    }
    let format = match args.format {
        Some(f) => f,
        None => request::CutFormat::from_path(&args.output)?,
    };
    // A cut list names each track's own file with times on the common timeline; an editor
    // would read them on the file's timeline, off by the offset. Rendering moves the samples.
    let track_media = args.media.is_none() && args.audio.is_none() && !specs.is_empty();
    let track_angles = args.follow_speaker && args.camera.is_empty();
    if moved && format != request::CutFormat::Wav && (track_media || track_angles) {
        bail!(
            "--track-offset: a cut list would name each --track file with times of the common \
             timeline, which an editor reads on the file's own timeline; render the cut \
             (-o FILE.wav), or name media on the common timeline with --media PATH or --audio \
             FILE{}",
            if track_angles { " (and the angles with --camera NAME=FILE)" } else { "" }
        );
    }
    let selection = if !args.without.is_empty() {
        Selection::Without(args.without.clone())
    } else if !args.only.is_empty() {
        Selection::Only(args.only.clone())
    } else if !args.mute.is_empty() {
        Selection::Mute(args.mute.clone())
    } else if args.follow_speaker {
        Selection::FollowSpeaker
    } else {
        let mut kinds = Vec::new();
        for k in &args.events {
            kinds.push(EventKind::parse(k).with_context(|| {
                format!("--events {k:?}: one of interruptions, backchannels, claims, overlaps")
            })?);
        }
        Selection::Events {
            kinds,
            by: args.by.clone(),
            context: duration(args.context, "--context")?,
        }
    };
    let (mut sources, analyzed) = read_and_analyze(
        "cut",
        &args.inputs,
        &args.read,
        &args.analysis,
        &args.recordings,
        globals,
    )?;
    let [one] = analyzed.as_slice() else {
        bail!("cut edits one conversation; the inputs hold {}", analyzed.len());
    };
    if let Some(a) = &args.audio {
        sources.push(Source::File(a.clone()));
    }
    for spec in &specs {
        sources.push(Source::File(spec.path.clone()));
    }
    let target = Target::from_arg(Some(&args.output));
    target.check_not_input(&sources)?;
    // Every output is checked before any is written: no edit left behind a refused transcript.
    let transcript_format = match &args.transcript {
        Some(path) => {
            Target::from_arg(Some(path)).check_not_input(&sources)?;
            let same = match (std::fs::canonicalize(path), std::fs::canonicalize(&args.output)) {
                (Ok(a), Ok(b)) => a == b,
                _ => path == &args.output,
            };
            if same {
                bail!("--transcript {}: the same file as -o; name two files", path.display());
            }
            Some(format_for_path(path).map_err(|_| {
                anyhow::anyhow!(
                    "--transcript {}: cannot tell the format from the extension: name it .rttm, .vtt, .srt, .eaf, .json, …",
                    path.display()
                )
            })?)
        }
        None => None,
    };
    let decoded = decode(&args, &specs)?;
    if format == request::CutFormat::Wav && decoded.is_none() {
        bail!(
            "-o {}: rendering needs the recording: give --audio FILE or --track NAME=FILE",
            args.output.display()
        );
    }
    let options = CutOptions {
        rate: args.fps,
        pad: duration(args.pad, "--pad")?,
        merge: duration(args.merge, "--merge")?,
        min_clip: duration(args.min_clip, "--min-clip")?,
        media_duration: decoded.as_ref().map(CutRecording::duration),
    };
    let annotation = one.transcript.annotation();
    let cut = cut::plan(annotation, Some(&one.analysis), &selection, &options)
        .with_context(|| format!("cutting {}", one.label))?;
    let source = request::MediaChoice {
        media: args.media.clone(),
        audio: args.audio.as_ref().map(|a| a.to_string_lossy().into_owned()),
        tracks: specs
            .iter()
            .map(|s| (s.name.clone(), s.path.to_string_lossy().into_owned()))
            .collect(),
        decoded: decoded.as_ref().map(CutRecording::media_format),
    };
    // A multicam cut: the cameras (or each speaker's own track) are the media, one per
    // speaker, and each clip plays its floor holder's.
    let cameras = if !args.camera.is_empty() {
        request::camera_specs(&args.camera)?
    } else if args.follow_speaker && args.media.is_none() && args.audio.is_none() {
        source.tracks.clone()
    } else {
        Vec::new()
    };
    let (media, angles) = if cameras.is_empty() {
        (request::edit_media(&source, &selection, annotation, format)?, None)
    } else {
        let (media, angles) = request::multicam(&cameras, annotation, &cut, source.decoded, format)
            .with_context(|| format!("cutting {}", one.label))?;
        (media, Some(angles))
    };
    let name = request::sequence_name(&one.label, &selection);
    let edit = Edit { name: &name, cut: &cut, media: &media, angles: angles.as_deref() };
    if format == request::CutFormat::Wav {
        let Some(d) = &decoded else { bail!("rendering needs the recording") };
        let render = CutRenderOptions { crossfade_ms: args.crossfade, duck_db: args.duck };
        let bytes = render_wav(&cut, d, annotation, &selection, &render)?;
        target.write_with(|out| Ok(out.write_all(&bytes)?))?;
    } else {
        for file in request::export(&edit, format, args.edl_style) {
            let t = match &file.media_stem {
                None => Target::from_arg(Some(&args.output)),
                Some(stem) => {
                    let t = Target::from_arg(Some(&request::sibling_path(&args.output, stem)));
                    t.check_not_input(&sources)?;
                    t
                }
            };
            t.write_with(|out| Ok(out.write_all(file.text.as_bytes())?))?;
        }
    }
    if let (Some(path), Some(f)) = (&args.transcript, transcript_format) {
        let corpus = request::remapped_corpus(&one.label, &cut, annotation);
        let t = Target::from_arg(Some(path));
        t.check_not_input(&sources)?;
        t.write_with(|out| {
            overtalk::format::write(&corpus, f, out)?;
            Ok(())
        })?;
    }
    if !globals.quiet {
        let r = cut.rate;
        eprintln!(
            "overtalk: cut {}: {}, {} of {} at {} fps",
            one.label,
            overtalk::output::counted(cut.clips.len(), "clip", "clips"),
            r.timecode(cut.record_frames()),
            r.timecode(cut.media_frames),
            r.name()
        );
    }
    Ok(Outcome::Ok)
}
