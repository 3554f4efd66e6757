//! `overtalk cut INPUT… -o OUT`: an edit by speaker or by event, as an editor's cut list or
//! as rendered audio.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use overtalk::cut::{self, edl, CutList, CutOptions, Edit, EventKind, Media, Rate, Selection};
use overtalk::{Annotation, Corpus, Delta, Region, Transcript};
use overtalk_audio::decode::{decode_all, DecodeOptions};
use overtalk_audio::render::{self, RenderOptions};

use crate::app::{Globals, Outcome};
use crate::input::conversations::read_and_analyze;
use crate::input::params::AnalysisArgs;
use crate::input::recordings::{track_specs, AudioArgs};
use crate::input::{ReadArgs, Source};
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
    #[arg(long, value_enum)]
    format: Option<CutFormat>,
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
    /// With `--events`: context before and after each event (`2s`, `500ms`, seconds).
    #[arg(long, value_name = "TIME", default_value = "2s", requires = "events")]
    context: String,
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
    #[arg(long, value_name = "STYLE", default_value = "premiere", value_parser = ["premiere", "resolve", "avid"])]
    edl_style: String,
    /// Handles: widen each kept stretch by this on both sides (`0.2s`, `200ms`).
    #[arg(long, value_name = "TIME", default_value = "0")]
    pad: String,
    /// Join kept stretches closer than this.
    #[arg(long, value_name = "TIME", default_value = "0")]
    merge: String,
    /// Drop clips shorter than this.
    #[arg(long, value_name = "TIME", default_value = "0")]
    min_clip: String,
    /// The recording the edit plays (rendered for `.wav`; recorded as the media of cut lists).
    #[arg(long, value_name = "FILE")]
    audio: Option<PathBuf>,
    /// The media path written into cut lists (default: `--audio`, or the `--track` files).
    #[arg(long, value_name = "PATH")]
    media: Option<String>,
    /// Length of the crossfades and fades at cuts (ms).
    #[arg(long, value_name = "MS", default_value_t = 10)]
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

/// What `cut` writes.
#[derive(Debug, Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
enum CutFormat {
    /// OpenTimelineIO JSON.
    Otio,
    /// CMX3600 EDL.
    Edl,
    /// FCP7 XML (xmeml).
    Fcp7,
    /// FCPXML 1.8.
    Fcpxml,
    /// MLT XML.
    Mlt,
    /// CSV cut list.
    Csv,
    /// Rendered audio (32-bit float WAV).
    Wav,
}

impl CutFormat {
    fn from_path(p: &Path) -> Result<CutFormat> {
        let ext =
            p.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
        Ok(match ext.as_str() {
            "otio" => CutFormat::Otio,
            "edl" => CutFormat::Edl,
            "xml" => CutFormat::Fcp7,
            "fcpxml" => CutFormat::Fcpxml,
            "mlt" => CutFormat::Mlt,
            "csv" => CutFormat::Csv,
            "wav" => CutFormat::Wav,
            _ => bail!(
                "{}: cannot tell the output from the extension (.otio, .edl, .xml, .fcpxml, .mlt, .csv, .wav); use --format",
                p.display()
            ),
        })
    }
}

/// A duration: `2s`, `500ms`, or plain seconds.
fn duration(s: &str, flag: &str) -> Result<Delta> {
    let t = s.trim();
    let (num, scale) = if let Some(v) = t.strip_suffix("ms") {
        (v, 1000)
    } else if let Some(v) = t.strip_suffix('s') {
        (v, 1)
    } else {
        (t, 1)
    };
    let secs = overtalk::time::parse_seconds(num.trim())
        .map_err(|e| anyhow::anyhow!("{flag} {s:?}: {e}"))?;
    if secs.micros() < 0 {
        bail!("{flag} {s:?}: cannot be negative");
    }
    Ok(Delta::from_micros(secs.micros() / scale))
}

/// One decoded recording: its rate and channels (or one mono track per speaker).
struct Decoded {
    rate: u32,
    /// `(speaker, samples)`: the speaker is `None` for the channels of one mixed recording.
    tracks: Vec<(Option<String>, Vec<f32>)>,
}

fn decode_mono(path: &Path) -> Result<(u32, Vec<f32>, u32)> {
    let (info, chans) = decode_all(path, &DecodeOptions::default())
        .with_context(|| format!("decoding {}", path.display()))?;
    let n = chans.len().max(1);
    let len = chans.iter().map(Vec::len).max().unwrap_or(0);
    let mut mono = vec![0.0f32; len];
    for c in &chans {
        for (m, v) in mono.iter_mut().zip(c) {
            *m += v / n as f32;
        }
    }
    Ok((info.sample_rate, mono, n as u32))
}

fn decode(args: &Args, tracks_arg: &[String]) -> Result<Option<Decoded>> {
    if let Some(path) = &args.audio {
        let (info, chans) = decode_all(path, &DecodeOptions::default())
            .with_context(|| format!("decoding {}", path.display()))?;
        return Ok(Some(Decoded {
            rate: info.sample_rate,
            tracks: chans.into_iter().map(|c| (None, c)).collect(),
        }));
    }
    if tracks_arg.is_empty() {
        return Ok(None);
    }
    let mut rate = None;
    let mut tracks = Vec::new();
    for spec in track_specs(None, tracks_arg, &[])? {
        let (r, mono, _) = decode_mono(&spec.path)?;
        if rate.is_some_and(|x| x != r) {
            bail!("the --track recordings have different sample rates; resample them first");
        }
        rate = Some(r);
        tracks.push((Some(spec.name), mono));
    }
    Ok(rate.map(|rate| Decoded { rate, tracks }))
}

/// The speakers whose own track is dropped, given the selection and the speakers there are.
fn dropped(selection: &Selection, annotation: &Annotation) -> Vec<String> {
    match selection {
        Selection::Without(v) | Selection::Mute(v) => v.clone(),
        Selection::Only(keep) => annotation
            .speakers()
            .iter()
            .map(|(_, n)| n.to_owned())
            .filter(|n| !keep.contains(n))
            .collect(),
        _ => Vec::new(),
    }
}

/// The dropped speakers' solo speech: where the kept tracks carry only their bleed.
fn solo_of(annotation: &Annotation, names: &[String]) -> Region {
    let mut theirs = Region::new();
    let mut others = Region::new();
    for (id, n) in annotation.speakers().iter() {
        let r = annotation.speaker_region(id);
        if names.iter().any(|x| x == n) {
            theirs = theirs.union(&r);
        } else {
            others = others.union(&r);
        }
    }
    theirs.difference(&others)
}

/// Renders the cut to one WAV (channels of `--audio`, or the kept tracks mixed to mono).
fn render_wav(
    args: &Args,
    cut: &CutList,
    decoded: &Decoded,
    annotation: &Annotation,
    selection: &Selection,
) -> Result<Vec<u8>> {
    let options = RenderOptions {
        crossfade: (u64::from(decoded.rate) * u64::from(args.crossfade) / 1000).max(1) as usize,
    };
    let channels: Vec<Vec<f32>> = if decoded.tracks.iter().any(|(s, _)| s.is_some()) {
        let drop = dropped(selection, annotation);
        let kept: Vec<&[f32]> = decoded
            .tracks
            .iter()
            .filter(|(s, _)| !s.as_ref().is_some_and(|s| drop.contains(s)))
            .map(|(_, x)| x.as_slice())
            .collect();
        if kept.is_empty() {
            bail!("no --track is left once the removed speakers' tracks are dropped");
        }
        let len = kept.iter().map(|x| x.len()).max().unwrap_or(0);
        let duck = 10f64.powf(args.duck / 20.0) as f32;
        let gain = render::duck_gain(
            len,
            &solo_of(annotation, &drop),
            decoded.rate,
            duck,
            options.crossfade,
        );
        vec![render::render(cut, &render::mix_tracks(&kept, Some(&gain)), decoded.rate, &options)]
    } else {
        decoded.tracks.iter().map(|(_, x)| render::render(cut, x, decoded.rate, &options)).collect()
    };
    let spec = hound::WavSpec {
        channels: channels.len().max(1) as u16,
        sample_rate: decoded.rate,
        bits_per_sample: 32,
        sample_format: hound::SampleFormat::Float,
    };
    let mut bytes = std::io::Cursor::new(Vec::new());
    {
        let mut w = hound::WavWriter::new(&mut bytes, spec).context("writing WAV")?;
        let len = channels.first().map_or(0, Vec::len);
        for i in 0..len {
            for c in &channels {
                w.write_sample(c.get(i).copied().unwrap_or(0.0)).context("writing WAV")?;
            }
        }
        w.finalize().context("writing WAV")?;
    }
    Ok(bytes.into_inner())
}

/// `--camera NAME=FILE` values as `(speaker, file)`, each speaker once.
fn camera_specs(values: &[String]) -> Result<Vec<(String, String)>> {
    let mut out: Vec<(String, String)> = Vec::new();
    for v in values {
        let Some((name, file)) = v.split_once('=') else {
            bail!("--camera {v:?}: expected NAME=FILE");
        };
        if name.trim().is_empty() || file.is_empty() {
            bail!("--camera {v:?}: expected NAME=FILE with a non-empty name and file");
        }
        if out.iter().any(|(n, _)| n == name) {
            bail!("--camera {v:?}: {name} already has a camera");
        }
        out.push((name.to_owned(), file.to_owned()));
    }
    Ok(out)
}

/// `OUT` with `.NAME` before its extension (`show.edl` → `show.Guest.edl`).
fn sibling(out: &Path, name: &str) -> PathBuf {
    let stem = out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let ext = out.extension().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let safe: String = name
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '_' })
        .collect();
    out.with_file_name(format!("{stem}.{safe}.{ext}"))
}

/// Runs `cut`.
pub fn run(mut args: Args, globals: Globals) -> Result<Outcome> {
    // With a transcript or diarization as INPUT, the `--track` recordings are what is cut, not
    // what is detected: who spoke when comes from the INPUT.
    let tracks = if args.inputs.is_empty() {
        args.recordings.tracks.clone()
    } else {
        std::mem::take(&mut args.recordings.tracks)
    };
    let format = match args.format {
        Some(f) => f,
        None => CutFormat::from_path(&args.output)?,
    };
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
            context: duration(&args.context, "--context")?,
        }
    };
    let (mut sources, analyzed) =
        read_and_analyze(&args.inputs, &args.read, &args.analysis, &args.recordings, globals)?;
    let [one] = analyzed.as_slice() else {
        bail!("cut edits one conversation; the inputs hold {}", analyzed.len());
    };
    if let Some(a) = &args.audio {
        sources.push(Source::File(a.clone()));
    }
    for spec in track_specs(None, &tracks, &[]).unwrap_or_default() {
        sources.push(Source::File(spec.path));
    }
    let target = Target::from_arg(Some(&args.output));
    target.check_not_input(&sources)?;
    let decoded = decode(&args, &tracks)?;
    if format == CutFormat::Wav && decoded.is_none() {
        bail!(
            "-o {}: rendering needs the recording: give --audio FILE or --track NAME=FILE",
            args.output.display()
        );
    }
    let media_duration = decoded.as_ref().map(|d| {
        let frames = d.tracks.iter().map(|(_, x)| x.len()).max().unwrap_or(0) as u64;
        overtalk_audio::decode::frames_to_delta(frames, d.rate)
    });
    let options = CutOptions {
        rate: args.fps,
        pad: duration(&args.pad, "--pad")?,
        merge: duration(&args.merge, "--merge")?,
        min_clip: duration(&args.min_clip, "--min-clip")?,
        media_duration,
    };
    let annotation = one.transcript.annotation();
    let cut = cut::plan(annotation, Some(&one.analysis), &selection, &options)
        .with_context(|| format!("cutting {}", one.label))?;
    // The media each track of the edit plays.
    let mut media: Vec<Media> = Vec::new();
    if let Some(m) = &args.media {
        media.push(Media::from_path(m));
    } else if let Some(a) = &args.audio {
        media.push(Media::from_path(&a.to_string_lossy()));
    } else if !tracks.is_empty() {
        let drop = dropped(&selection, annotation);
        for spec in track_specs(None, &tracks, &[])? {
            if !drop.contains(&spec.name) {
                media.push(Media::from_path(&spec.path.to_string_lossy()));
            }
        }
    }
    // A multicam cut: the cameras (or each speaker's own track) are the media, one per
    // speaker, and each clip plays its floor holder's.
    let cameras = if !args.camera.is_empty() {
        camera_specs(&args.camera)?
    } else if args.follow_speaker && args.media.is_none() && args.audio.is_none() {
        track_specs(None, &tracks, &[])?
            .into_iter()
            .map(|t| (t.name, t.path.to_string_lossy().into_owned()))
            .collect()
    } else {
        Vec::new()
    };
    let angles = if cameras.is_empty() {
        None
    } else {
        if format == CutFormat::Wav {
            bail!("--camera makes a cut list; a rendered --follow-speaker keeps every track");
        }
        for (n, _) in &cameras {
            if annotation.speakers().get(n).is_none() {
                let known: Vec<&str> = annotation.speakers().iter().map(|(_, n)| n).collect();
                bail!("--camera {n}=…: no speaker {n:?} (speakers: {})", known.join(", "));
            }
        }
        media = cameras.iter().map(|(_, f)| Media::from_path(f)).collect();
        let by_speaker: Vec<(String, usize)> =
            cameras.iter().enumerate().map(|(i, (n, _))| (n.clone(), i)).collect();
        Some(
            cut::angles_by_speaker(&cut, &by_speaker)
                .with_context(|| format!("cutting {}", one.label))?,
        )
    };
    if media.is_empty() && format != CutFormat::Csv {
        bail!("a cut list names the media it plays: give --audio FILE, --media PATH or --track NAME=FILE");
    }
    if let Some(d) = &decoded {
        for m in &mut media {
            m.sample_rate = d.rate;
            if d.tracks.iter().all(|(s, _)| s.is_none()) && angles.is_none() {
                m.channels = d.tracks.len() as u32;
            }
        }
    }
    let name = format!("{} ({})", one.label, describe(&selection));
    let edit = Edit { name: &name, cut: &cut, media: &media, angles: angles.as_deref() };
    match format {
        CutFormat::Wav => {
            let Some(d) = &decoded else { bail!("rendering needs the recording") };
            let bytes = render_wav(&args, &cut, d, annotation, &selection)?;
            target.write_with(|out| Ok(out.write_all(&bytes)?))?;
        }
        CutFormat::Edl => {
            let style: edl::Style = args.edl_style.parse().map_err(anyhow::Error::msg)?;
            let all = edl::write_all(&edit, style);
            if all.len() == 1 {
                target.write_with(|out| Ok(out.write_all(all[0].1.as_bytes())?))?;
            } else {
                // One EDL per media: CMX3600 gives an event one source and one track.
                for (m, text) in all {
                    let stem =
                        media[m].name.rsplit_once('.').map_or(media[m].name.as_str(), |(s, _)| s);
                    let t = Target::from_arg(Some(&sibling(&args.output, stem)));
                    t.check_not_input(&sources)?;
                    t.write_with(|out| Ok(out.write_all(text.as_bytes())?))?;
                }
            }
        }
        other => {
            let text = match other {
                CutFormat::Otio => cut::otio::write(&edit),
                CutFormat::Fcp7 => cut::fcp7::write(&edit),
                CutFormat::Fcpxml => cut::fcpxml::write(&edit),
                CutFormat::Mlt => cut::mlt::write(&edit),
                _ => cut::csv::write(&edit),
            };
            target.write_with(|out| Ok(out.write_all(text.as_bytes())?))?;
        }
    }
    if let Some(path) = &args.transcript {
        let f = format_for_path(path)?;
        let mut corpus = Corpus::new();
        corpus.insert(one.label.clone(), Transcript::from_annotation(cut.remap(annotation)));
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
            "overtalk: cut {}: {} clips, {} of {} at {} fps",
            one.label,
            cut.clips.len(),
            r.timecode(cut.record_frames()),
            r.timecode(cut.media_frames),
            r.name()
        );
    }
    Ok(Outcome::Ok)
}

/// The selection in words, for the sequence name.
fn describe(s: &Selection) -> String {
    match s {
        Selection::Without(v) => format!("without {}", v.join(", ")),
        Selection::Only(v) => format!("only {}", v.join(", ")),
        Selection::Mute(v) => format!("{} muted", v.join(", ")),
        Selection::Events { by, .. } => match by {
            Some(b) => format!("events by {b}"),
            None => "events".to_owned(),
        },
        Selection::FollowSpeaker => "following the speaker".to_owned(),
    }
}
