//! `overtalk report INPUT… -o report.html`: the self-contained HTML report of conversations.
//! (`analyze --format html` writes the same page; `score --format html` the scoring view.)

use std::path::{Component, Path, PathBuf};

use anyhow::{bail, Context, Result};
use overtalk::report::{Audio, ReportOptions, TrackAudio};
use overtalk::Delta;

use crate::app::{Globals, Outcome};
use crate::commands::report_image::{self, ImageArgs, ReportFormat};
use crate::input::conversations::{self, read_and_analyze_untimed_too};
use crate::input::params::AnalysisArgs;
use crate::input::recordings::AudioArgs;
use crate::input::{is_audio, NeedsTimes, ReadArgs, Source};
use crate::output::Target;
use overtalk::output::untimed::UntimedRecording;

/// Largest recording `--embed-audio` accepts.
const MAX_EMBED_BYTES: u64 = 512 << 20;

/// Write one self-contained HTML file: the conversation timeline (a lane per speaker, overlaps,
/// backchannels, interruption arrows, the floor holder), talk and floor shares, the
/// who-interrupts-whom matrix, the floor-transfer offsets, the longest turns and the transcript,
/// with the recording playable at every event when `--audio` names it.
///
/// With `-o clip.svg` or `-o clip.png` (or `--format svg|png`) it draws the conversation as a
/// picture instead: the lanes, overlaps, backchannels, interruption arrows and the floor, with
/// a title, legend and time axis; `--layout card` adds the summary sentences, sized for posts.
///
/// The file needs no network: its script, style and data are inline, and its
/// Content-Security-Policy forbids any request. Every number in it is a number of the JSON
/// output of `analyze` for the same inputs and parameters. For a diarization score, use
/// `overtalk score -r REF -s HYP --format html -o score.html`.
#[derive(Debug, clap::Args)]
// `--collar -1` reaches the command's own range check instead of clap's "unexpected argument".
#[command(allow_negative_numbers = true)]
#[command(
    after_help = "Examples:\n  overtalk report interview.vtt -o interview.html\n  overtalk report interview.vtt --layout card -o card.png\n  overtalk report meeting.rttm --start 10:00 --end 12:00 --theme dark -o clip.svg\n  overtalk report meeting.rttm --audio meeting.mp3 --embed-audio -o meeting.html\n  overtalk score -r ref.rttm -s sys.rttm --format html -o score.html"
)]
pub struct Args {
    /// Transcripts or diarizations (files, directories, globs; `-` reads stdin), or recordings
    /// (speech is detected first; see `--track` and `--channels`).
    #[arg(required_unless_present = "tracks", value_name = "INPUT")]
    inputs: Vec<String>,
    /// Write to this file instead of stdout.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Page title.
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// The recording: linked from the report (path made relative to the output file). Default:
    /// the recording the report is made from, when there is exactly one; with `--track`, every
    /// track, played together in sync (one player drives them; each can be muted).
    #[arg(long, value_name = "FILE")]
    audio: Option<PathBuf>,
    /// Embed the recording in the report (its bytes as they are, base64) instead of linking it.
    #[arg(long)]
    embed_audio: bool,
    /// What to write: the HTML report, or the conversation as a picture (default: from the
    /// output file's extension, `.svg` or `.png`; else HTML).
    #[arg(long, value_enum)]
    format: Option<ReportFormat>,
    #[command(flatten)]
    image: ImageArgs,
    #[command(flatten)]
    analysis: AnalysisArgs,
    #[command(flatten)]
    detection: AudioArgs,
    #[command(flatten)]
    read: ReadArgs,
}

/// `path` relative to the directory `base`, as a URL path (percent-encoded).
fn relative_url(path: &Path, base: &Path) -> String {
    let p: Vec<Component<'_>> = path.components().collect();
    let b: Vec<Component<'_>> = base.components().collect();
    let common = p.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let mut parts: Vec<String> = Vec::new();
    for _ in common..b.len() {
        parts.push("..".to_owned());
    }
    for c in &p[common..] {
        parts.push(c.as_os_str().to_string_lossy().into_owned());
    }
    let joined = parts.join("/");
    let mut out = String::with_capacity(joined.len());
    for byte in joined.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(char::from(byte));
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// The directory a linked recording's URL is made relative to: the output file's.
fn output_dir(args: &Args) -> Result<PathBuf> {
    match &args.output {
        Some(o) if o.as_os_str() != "-" => {
            let dir = match o.parent() {
                Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
                _ => PathBuf::from("."),
            };
            std::fs::canonicalize(&dir).with_context(|| format!("reading {}", dir.display()))
        }
        _ => std::env::current_dir().context("finding the current directory"),
    }
}

/// One recording, embedded (its bytes, up to `budget` of them) or linked from `out_dir`.
fn one_audio(path: &Path, embed: bool, budget: u64, out_dir: &Path) -> Result<Audio> {
    let name = path.to_string_lossy();
    // A player in the report needs a recording: not a directory, not an empty file; and one
    // the decoder cannot open is said (the browser may still play a video it does not read).
    let meta = std::fs::metadata(path).with_context(|| format!("reading {name}"))?;
    if !meta.is_file() {
        bail!("--audio {name}: not a file");
    }
    if meta.len() == 0 {
        bail!("--audio {name}: an empty file, no recording");
    }
    if let Err(e) = overtalk_audio::decode::Decoder::open(path, &Default::default()) {
        eprintln!("overtalk: warning: --audio {name}: not a recording overtalk can read ({e}); the report links it anyway, and its player may not play it");
    }
    if embed {
        let mime = Audio::mime_for(&name).with_context(|| {
            format!(
                "{name}: unknown audio type (use .mp3, .wav, .ogg, .opus, .m4a, .flac or .webm)"
            )
        })?;
        let len = std::fs::metadata(path).with_context(|| format!("reading {name}"))?.len();
        if len > budget {
            bail!("{name}: {len} bytes is above the embedding limit of {MAX_EMBED_BYTES} bytes (all recordings together); link it without --embed-audio");
        }
        let bytes = std::fs::read(path).with_context(|| format!("reading {name}"))?;
        return Ok(Audio::Embedded { mime: mime.to_owned(), bytes });
    }
    let abs = std::fs::canonicalize(path).with_context(|| format!("reading {name}"))?;
    Ok(Audio::Linked(relative_url(&abs, out_dir)))
}

/// The `--track NAME=FILE` recordings, each with its `--track-offset` (`offsets`), in the
/// order of the players: the track that starts first on the timeline (a negative offset starts
/// at 0, what is before dropped) and, of those, ends last, first (it drives playback while the
/// timeline is inside its stretch; past its end the track sounding there that ends last takes
/// over); tracks whose length the header does not declare keep their order after the others
/// that start with them.
fn tracks_in_play_order(
    tracks: &[String],
    offsets: &[(String, Delta)],
) -> Result<Vec<(String, PathBuf, Delta)>> {
    let mut named: Vec<(String, PathBuf, Delta, i64)> = Vec::with_capacity(tracks.len());
    for t in tracks {
        let Some((name, file)) = t.split_once('=') else {
            bail!("--track {t:?}: expected NAME=FILE");
        };
        let path = PathBuf::from(file);
        let offset =
            offsets.iter().find(|(n, _)| n == name).map_or(Delta::ZERO, |(_, offset)| *offset);
        let end = overtalk_audio::decode::Decoder::open(&path, &Default::default())
            .ok()
            .and_then(|d| d.info().declared_duration())
            .map_or(i64::MIN, |d| d.micros().saturating_add(offset.micros()));
        named.push((name.to_owned(), path, offset, end));
    }
    named.sort_by_key(|t| (t.2.micros().max(0), std::cmp::Reverse(t.3)));
    Ok(named.into_iter().map(|(n, p, o, _)| (n, p, o)).collect())
}

fn audio(args: &Args) -> Result<Option<Audio>> {
    // `--audio`, or else the recording the report was made from, when there is exactly one, or
    // else the `--track` recordings together.
    let recordings: Vec<&String> =
        args.inputs.iter().filter(|i| is_audio(Path::new(i.as_str()))).collect();
    let implied = match (recordings.as_slice(), args.detection.tracks.is_empty()) {
        ([one], true) => Some(PathBuf::from(one.as_str())),
        _ => None,
    };
    if let Some(path) = args.audio.clone().or(implied) {
        return one_audio(&path, args.embed_audio, MAX_EMBED_BYTES, &output_dir(args)?).map(Some);
    }
    if args.detection.tracks.is_empty() {
        if args.embed_audio {
            bail!("--embed-audio needs the recording: name it with --audio");
        }
        return Ok(None);
    }
    let out_dir = output_dir(args)?;
    // A track is labelled with its speaker as the report names them (`--speakers` renames).
    let rename = args.read.rename_map()?;
    let mut budget = MAX_EMBED_BYTES;
    let mut tracks = Vec::with_capacity(args.detection.tracks.len());
    // Each plays at its offset on the timeline, as detection placed it.
    let offsets = args.detection.offsets()?;
    for (name, path, offset) in tracks_in_play_order(&args.detection.tracks, &offsets)? {
        let name = rename.get(&name).cloned().unwrap_or(name);
        let audio = one_audio(&path, args.embed_audio, budget, &out_dir)?;
        if let Audio::Embedded { bytes, .. } = &audio {
            budget = budget.saturating_sub(bytes.len() as u64);
        }
        tracks.push(TrackAudio { name, audio, offset });
    }
    Ok(Some(Audio::Tracks(tracks)))
}

/// Refuses flags that the chosen output cannot show, rather than leaving them out silently:
/// the picture flags (`--layout card`, `--theme`, …) on the HTML report, and the recording
/// (`--audio`, `--embed-audio`) on a picture.
fn check_format_flags(args: &Args, format: ReportFormat) -> Result<()> {
    let written = match &args.output {
        Some(p) if p.as_os_str() != "-" => p.display().to_string(),
        _ => "stdout".to_owned(),
    };
    if format == ReportFormat::Html {
        let given = args.image.given();
        if !given.is_empty() {
            let verb = if given.len() == 1 { "shapes" } else { "shape" };
            bail!(
                "{} {verb} a picture, but the report written to {written} is HTML: name an .svg or .png output (-o card.png) or give --format svg|png",
                given.join(", ")
            );
        }
    } else if args.audio.is_some() || args.embed_audio {
        let flag = if args.audio.is_some() { "--audio" } else { "--embed-audio" };
        bail!(
            "{flag} is for the HTML report (a recording playable at every event); a picture cannot play it: leave it out, or write HTML (-o report.html)"
        );
    }
    Ok(())
}

/// Runs `report`.
pub fn run(mut args: Args, globals: Globals) -> Result<Outcome> {
    args.detection.strict = args.read.strict;
    // Before reading (and maybe detecting speech in a long recording).
    let format = ReportFormat::choose(args.format, args.output.as_deref())?;
    let (sources, analyzed, untimed) = read_and_analyze_untimed_too(
        &args.inputs,
        &args.read,
        &args.analysis,
        &args.detection,
        globals,
    )?;
    let target = Target::from_arg(args.output.as_deref());
    target.check_not_input(&sources)?;
    check_format_flags(&args, format)?;
    if let Some(first) = untimed.first() {
        let refuse = |why: &str| -> Result<Outcome> {
            Err(NeedsTimes::new(format!(
                "recording {:?} is a transcript without times: {why}",
                first.label
            ))
            .into())
        };
        if !analyzed.is_empty() {
            return refuse("its report is a page of its own (drawn on an axis of words, not of time); report the transcripts with times and those without separately");
        }
        if format != ReportFormat::Html {
            return refuse("the picture formats draw a time axis; its report is HTML (-o FILE.html), drawn on an axis of words");
        }
        if args.audio.is_some() || args.embed_audio {
            return refuse("a recording cannot be played at its turns, which have no times; leave out --audio and --embed-audio");
        }
        let untimed: Vec<UntimedRecording<'_>> =
            untimed.iter().map(|u| UntimedRecording::new(&u.label, &u.order)).collect();
        let options = ReportOptions {
            title: args.title.clone(),
            audio: None,
            preset: Some(args.analysis.preset.clone()),
            sources: sources.iter().map(Source::display).collect(),
            detection: Vec::new(),
        };
        let html = overtalk::report::untimed_report(&untimed, &options)?;
        target.write_with(|out| Ok(out.write_all(html.as_bytes())?))?;
        return Ok(Outcome::Ok);
    }
    if format != ReportFormat::Html {
        let bytes = report_image::render(&analyzed, &args.image, args.title.as_deref(), format)?;
        target.write_with(|out| Ok(out.write_all(&bytes)?))?;
        return Ok(Outcome::Ok);
    }
    let options = ReportOptions {
        title: args.title.clone(),
        audio: audio(&args)?,
        preset: Some(args.analysis.preset.clone()),
        sources: sources.iter().map(Source::display).collect(),
        detection: conversations::detections(&analyzed),
    };
    let html = conversations::html(&analyzed, &options)?;
    target.write_with(|out| {
        out.write_all(html.as_bytes())?;
        Ok(())
    })?;
    Ok(Outcome::Ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct R {
        #[command(flatten)]
        a: Args,
    }

    #[derive(Debug, Parser)]
    struct A {
        #[command(flatten)]
        a: crate::commands::analyze::Args,
    }

    fn embedded(html: &str) -> serde_json::Value {
        let open = "<script type=\"application/json\" id=\"overtalk-data\">";
        let a = html.find(open).unwrap() + open.len();
        let b = a + html[a..].find("</script>").unwrap();
        serde_json::from_str(&html[a..b]).unwrap()
    }

    #[test]
    fn report_embeds_what_analyze_writes() {
        let vtt = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/red-carpet/red-carpet.vtt");
        let dir = tempfile::tempdir().unwrap();
        let html = dir.path().join("r.html");
        let json = dir.path().join("r.json");
        let g = Globals { quiet: true };
        let h = html.to_str().unwrap();
        let r = R::try_parse_from(["report", vtt, "-o", h, "--preset", "he2010"]).unwrap();
        assert_eq!(run(r.a, g).unwrap(), Outcome::Ok);
        let j = json.to_str().unwrap();
        let a =
            A::try_parse_from(["analyze", vtt, "--format", "json", "-o", j, "--preset", "he2010"])
                .unwrap();
        crate::commands::analyze::run(a.a, g).unwrap();
        let all: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let want = &all["conversations"][0];
        let page = std::fs::read_to_string(&html).unwrap();
        assert_eq!(&embedded(&page)["conversations"][0]["result"], want);
        assert_eq!(want["params"]["bridge_pause"], 20);
        assert!(page.contains("Preset: he2010."));
    }

    #[test]
    fn score_html_and_argument_errors() {
        #[derive(Debug, Parser)]
        struct S {
            #[command(flatten)]
            a: crate::commands::score::Args,
        }
        let dir = tempfile::tempdir().unwrap();
        let reference = dir.path().join("ref.rttm");
        let hypothesis = dir.path().join("hyp.rttm");
        std::fs::write(
            &reference,
            "SPEAKER f 1 0 10 <NA> <NA> A <NA> <NA>\nSPEAKER f 1 10 10 <NA> <NA> B <NA> <NA>\n",
        )
        .unwrap();
        std::fs::write(
            &hypothesis,
            "SPEAKER f 1 0 12 <NA> <NA> x <NA> <NA>\nSPEAKER f 1 12 8 <NA> <NA> y <NA> <NA>\n",
        )
        .unwrap();
        let out = dir.path().join("s.html");
        let (r, h, o) =
            (reference.to_str().unwrap(), hypothesis.to_str().unwrap(), out.to_str().unwrap());
        let args =
            S::try_parse_from(["score", "-r", r, "-s", h, "--format", "html", "-o", o]).unwrap();
        assert_eq!(
            crate::commands::score::run(args.a, Globals { quiet: true }).unwrap(),
            Outcome::Ok
        );
        let page = std::fs::read_to_string(&out).unwrap();
        let data = embedded(&page);
        assert_eq!(data["kind"], "score");
        assert_eq!(data["report"]["files"][0]["der"]["confusion"], serde_json::json!(2_000_000));
        // Without inputs: a usage error; --embed-audio without a recording: an error.
        assert!(R::try_parse_from(["report", "-o", o]).is_err());
        let args = R::try_parse_from(["report", r, "--embed-audio", "-o", o]).unwrap();
        let e = run(args.a, Globals { quiet: true }).unwrap_err();
        assert!(e.to_string().contains("--embed-audio needs the recording"), "{e}");
        // Never overwrite an input.
        let args = R::try_parse_from(["report", r, "-o", r]).unwrap();
        assert!(run(args.a, Globals { quiet: true }).is_err());
    }

    #[test]
    fn relative_urls_climb_and_encode() {
        assert_eq!(relative_url(Path::new("/a/b/c d.mp3"), Path::new("/a/b")), "c%20d.mp3");
        assert_eq!(
            relative_url(Path::new("/a/x/y#1.wav"), Path::new("/a/b/c")),
            "../../x/y%231.wav"
        );
    }
}
