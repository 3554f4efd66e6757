//! `overtalk detect`: who spoke when, from recordings with one track per speaker or from one
//! mixed recording.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Result;
use overtalk::format::{self, Format};
use overtalk::Corpus;

use crate::app::{Globals, Outcome};
use crate::input::recordings::{track_specs, AudioArgs};
use crate::input::words::FromTracks;
use crate::input::Source;
use crate::output::Target;

/// Detect who spoke when in recordings: one microphone per speaker, or one mixed track.
///
/// Give each speaker's track with `--track NAME=FILE`, or one multichannel recording with
/// `--channels NAME,NAME,…` (one name per channel, `_` skips a channel), or one recording with
/// an audio track per microphone (OBS) with `--audio-tracks NAME,NAME,…`. Each track is decoded
/// (WAV, AIFF, CAF, FLAC, MP3, MP2, Ogg Vorbis, Opus, AAC and ALAC in M4A, the audio of
/// MP4/MOV/MKV/WebM), resampled to 16 kHz and
/// checked for speech; the other speakers' bleed into each microphone is measured from the
/// recording itself and rejected, so overlapping speech is kept. A single mixed recording (no
/// `--track`, no `--channels`) is diarized: its speakers are told apart with the speaker model
/// of `overtalk models install` (without it, all speech is one speaker, with a warning);
/// `--no-diarize` keeps its speech under one label.
#[derive(Debug, clap::Args)]
// `--collar -1` reaches the command's own range check instead of clap's "unexpected argument".
#[command(allow_negative_numbers = true)]
#[command(
    after_help = "Examples:\n  overtalk detect --track Host=host.wav --track Guest=guest.wav -o show.rttm\n  overtalk detect call.wav --channels Agent,Customer -o call.TextGrid\n  overtalk detect podcast.mp3 -o speakers.rttm\n  overtalk detect interview.mp4 --num-speakers 2 -o interview.rttm"
)]
pub struct Args {
    /// A recording: one track, or several channels named with `--channels`.
    #[arg(value_name = "AUDIO")]
    audio: Option<PathBuf>,
    /// Output file or `-` for stdout.
    #[arg(short, long, value_name = "OUT", default_value = "-")]
    output: PathBuf,
    /// Output format (default: from the output's extension; RTTM on stdout).
    #[arg(long, value_name = "FORMAT")]
    to: Option<Format>,
    /// The recording id written in the output (default: the recording's file name without its
    /// extension; for one file per speaker, what their names have in common, else the names
    /// joined with `+`).
    #[arg(long, value_name = "ID")]
    recording_id: Option<String>,
    /// Rename the detected speakers: a TOML file of `"SPK00" = "Alice"` lines (the names
    /// `detect` writes without it: the `--track` and `--channels` names, `SPK00`, `SPK01`, …).
    #[arg(long, value_name = "names.toml")]
    speakers: Option<PathBuf>,
    /// Refuse a damaged recording: a file cut short is an error instead of being read as far
    /// as it goes with a warning.
    #[arg(long)]
    strict: bool,
    #[command(flatten)]
    detection: AudioArgs,
    #[command(flatten)]
    words: crate::input::words::WordsArgs,
}

/// Runs detection and writes the result.
pub fn run(mut args: Args, globals: Globals) -> Result<Outcome> {
    args.detection.strict = args.strict;
    let format = match args.to {
        Some(f) => f,
        None if args.output.as_os_str() == "-" => Format::Rttm,
        None => crate::output::format_for_path(&args.output)?,
    };
    // Check the output before the (possibly long) detection.
    let specs = track_specs(
        args.audio.as_deref(),
        &args.detection.tracks,
        &args.detection.channels,
        &args.detection.audio_tracks,
    )?;
    let named: Vec<Source> = specs.iter().map(|s| Source::File(s.path.clone())).collect();
    let target = Target::from_arg(Some(&args.output));
    target.check_not_input(&named)?;
    args.words.check(&args.detection.track_names())?;
    let rename = match &args.speakers {
        Some(p) => crate::input::read_rename_map(p)?,
        None => std::collections::HashMap::new(),
    };
    let mut detected =
        args.detection.detect(args.audio.as_deref(), args.recording_id.as_deref(), globals)?;
    if args.speakers.is_some() {
        let mut speakers = std::collections::BTreeSet::new();
        crate::input::note_speakers(&detected.corpus, &mut speakers);
        crate::input::warn_if_no_name_matches(
            args.speakers.as_deref(),
            &rename,
            &speakers,
            globals.quiet,
        );
        detected.corpus = crate::input::rename_corpus(detected.corpus, &rename);
        if let Some(levels) = &mut detected.levels {
            levels.rename(|n| crate::input::renamed(&rename, n));
        }
    }
    // Detection gives one recording; `--words` lays the words of captions on its speakers,
    // `--track-words` those of each track's own transcript.
    let options = format::ReadOptions::default();
    let offsets = args.detection.offsets()?;
    let levels = detected.levels.as_ref();
    let laid = match detected.corpus.iter().next() {
        Some((id, t)) => args
            .words
            .lay_on(
                t,
                id,
                &options,
                globals.quiet,
                FromTracks { levels, offsets: &offsets },
                &rename,
            )?
            .map(|l| (id.to_owned(), l)),
        None => None,
    };
    if let Some((id, laid)) = laid {
        detected.corpus = Corpus::single(id, laid.transcript);
        detected.provenance.description.push_str(&laid.note);
    }
    // An RTTM or TextGrid has no place for the method: it goes to a terminal's stderr.
    // (`analyze` and `report` put it in their output, `score` on stderr.)
    if !globals.quiet && std::io::stderr().is_terminal() {
        for (id, t) in detected.corpus.iter() {
            let n = t.annotation().speakers().len();
            eprintln!("overtalk: {id}: {n} speakers; {}", detected.provenance);
        }
    }
    target.write_with(|out| {
        let warnings = format::write(&detected.corpus, format, out)?;
        if !globals.quiet {
            for w in warnings {
                eprintln!("overtalk: warning: {w}");
            }
        }
        Ok(())
    })?;
    Ok(Outcome::Ok)
}
