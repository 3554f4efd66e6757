//! Recordings in, who spoke when out: the tracks (`--track NAME=FILE`), the channels
//! (`--channels`) and the detector settings, shared by `detect`, `analyze`, `report` and
//! `score`, so any of them takes recordings directly.

use overtalk_audio::provenance::Provenance;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use overtalk::format;
use overtalk::{Corpus, Delta};
use overtalk_audio::pipeline::{self, DetectOptions, TrackSpec};
use overtalk_audio::vad::VadKind;

use crate::app::Globals;
use crate::input::Source;

/// How recordings become who-spoke-when: the tracks, the channels and the detector settings.
/// Shared by `detect`, `analyze` and `report`, so any of them takes recordings directly.
#[derive(Debug, clap::Args)]
#[command(next_help_heading = "Recordings")]
pub(crate) struct AudioArgs {
    /// A damaged recording is an error (`--strict` of the command): a file cut short is not
    /// read as far as it goes with a warning.
    #[arg(skip)]
    pub(crate) strict: bool,
    /// A speaker's own track, `NAME=FILE` (repeat for each speaker).
    #[arg(long = "track", value_name = "NAME=FILE")]
    pub(crate) tracks: Vec<String>,
    /// Where a `--track` starts on the common timeline, `NAME=TIME` with NAME a `--track`
    /// name (repeat for each track that needs one; default 0), for tracks recorded on
    /// separate devices that started at different times: positive, the track starts that
    /// much later (silence is put before it); negative, its first seconds are before the
    /// common zero and are dropped. The speech found, the levels, the words of
    /// `--track-words` and the extent are all on the common timeline.
    #[arg(long = "track-offset", value_name = "NAME=TIME")]
    pub(crate) track_offsets: Vec<String>,
    /// Names of the recording's channels, in order (`_` skips a channel).
    #[arg(long, value_name = "NAME,NAME,…", value_delimiter = ',')]
    pub(crate) channels: Vec<String>,
    /// Names of the recording's audio tracks, in order (`_` skips a track): a file that holds
    /// one audio track per microphone (OBS, a multitrack export) read as one speaker's own
    /// track each, bleed rejected as with `--track`.
    #[arg(long = "audio-tracks", value_name = "NAME,NAME,…", value_delimiter = ',')]
    pub(crate) audio_tracks: Vec<String>,
    /// Voice activity detector: earshot (default), energy, silero (a build with the `onnx`
    /// feature and `overtalk models install silero`), or none (energy rules only).
    #[arg(long, value_name = "NAME")]
    vad: Option<String>,
    /// A voice activity model with the Silero sequence interface (see docs/models.md) instead
    /// of the installed Silero model; implies `--vad silero`. Needs the `onnx` feature.
    #[arg(long, value_name = "FILE.onnx")]
    vad_model: Option<PathBuf>,
    /// Speech runs shorter than this are dropped (seconds; default 0.1).
    #[arg(long, value_name = "TIME", value_parser = crate::time_arg::seconds)]
    min_speech: Option<f64>,
    /// Pauses shorter than this within one speaker's speech are closed (seconds; default 0.4
    /// with one track per speaker, 0.25 for one recording).
    #[arg(long, value_name = "TIME", value_parser = crate::time_arg::seconds)]
    min_silence: Option<f64>,
    /// Largest accepted difference between track durations (seconds).
    #[arg(long, value_name = "TIME", value_parser = crate::time_arg::seconds, default_value = "1")]
    max_length_diff: f64,
    /// Accept tracks with different sample rates.
    #[arg(long)]
    allow_rate_mismatch: bool,
    /// Longest recording accepted (seconds).
    #[arg(long, value_name = "TIME", value_parser = crate::time_arg::seconds, default_value = "86400")]
    max_duration: f64,
    #[command(flatten)]
    pub(crate) diarize: crate::input::diarize::DiarizeArgs,
}

/// What detection made of a recording: who spoke when, the files it read, and how.
pub(crate) struct Detected {
    /// The files read.
    pub(crate) sources: Vec<Source>,
    /// Who spoke when, as a corpus of one recording.
    pub(crate) corpus: Corpus,
    /// The method and the parameters that produced `corpus`, shown beside every result
    /// derived from it.
    pub(crate) provenance: Provenance,
    /// With one microphone per speaker, how far each track stands above what the detector
    /// predicts there (for laying words of overlapped speech).
    pub(crate) levels: Option<overtalk_audio::multitrack::TrackExcess>,
    /// What the detection noted about the recording (a late start, a truncated file, a track
    /// whose speech was mostly taken for bleed, a track without speech), as printed on stderr:
    /// the analysis carries each beside its numbers, into the JSON and the report.
    pub(crate) notes: Vec<String>,
}

/// `--track-offset NAME=TIME` (each of `offsets`) as `(name, offset)`, each name one of
/// the `--track NAME=FILE` of `tracks`, once: the one reading of the flag, for every command
/// that takes it (`detect`, `analyze`, `report`, `score`, `cut`, `live`), checked before any
/// decoding.
pub(crate) fn parse_track_offsets(
    tracks: &[String],
    offsets: &[String],
) -> Result<Vec<(String, Delta)>> {
    let mut out: Vec<(String, Delta)> = Vec::new();
    if offsets.is_empty() {
        return Ok(out);
    }
    let names: Vec<&str> =
        tracks.iter().filter_map(|t| t.split_once('=').map(|(n, _)| n)).collect();
    if names.is_empty() {
        bail!(
            "--track-offset places a --track file on the common timeline; give the tracks \
             with --track NAME=FILE (the channels of one recording share its clock)"
        );
    }
    for t in offsets {
        let Some((name, value)) = t.split_once('=') else {
            bail!("--track-offset {t:?}: expected NAME=TIME");
        };
        if !names.contains(&name) {
            bail!(
                "--track-offset {t}: {name:?} is not a --track name (the tracks are {})",
                names.iter().map(|n| format!("{n:?}")).collect::<Vec<_>>().join(", ")
            );
        }
        // A time as every time option takes it (within the largest time either way).
        let offset = crate::time_arg::delta(value)
            .map_err(|e| anyhow::anyhow!("--track-offset {t}: {e}"))?;
        if out.iter().any(|(n, _)| n == name) {
            bail!("--track-offset {name}=…: the offset of {name:?} is given twice");
        }
        out.push((name.to_owned(), offset));
    }
    Ok(out)
}

impl AudioArgs {
    /// The speakers named by `--track`, `--channels` and `--audio-tracks` (one microphone
    /// each), as given.
    pub(crate) fn track_names(&self) -> Vec<String> {
        let tracks = self.tracks.iter().filter_map(|t| t.split_once('=').map(|(n, _)| n));
        let named = self.channels.iter().chain(&self.audio_tracks);
        let named = named.map(|c| c.trim()).filter(|c| *c != "_");
        tracks.chain(named).map(str::to_owned).collect()
    }

    /// `--track-offset` as `(name, offset)`, each a `--track` name, once; checked before any
    /// decoding.
    pub(crate) fn offsets(&self) -> Result<Vec<(String, Delta)>> {
        parse_track_offsets(&self.tracks, &self.track_offsets)
    }

    fn options(&self) -> Result<DetectOptions> {
        let vad = match (self.vad.as_deref(), &self.vad_model) {
            (Some(v), Some(_)) if !v.eq_ignore_ascii_case("silero") => {
                bail!("--vad-model gives the model of --vad silero; it does not go with --vad {v}")
            }
            (_, Some(path)) => Some(use_vad_model(path)?),
            (None, None) => Some(VadKind::Earshot),
            (Some("none"), None) => None,
            (Some(name), None) => Some(name.parse::<VadKind>().map_err(anyhow::Error::msg)?),
        };
        // A detector that needs a model file is checked before any decoding.
        if let Some(kind) = vad {
            kind.try_build().with_context(|| format!("--vad {}", kind.name()))?;
        }
        let mut options = DetectOptions { vad, ..DetectOptions::default() };
        // Unset, each stage keeps its own default (the multitrack rule closes longer pauses).
        if let Some(v) = self.min_speech {
            options.multitrack.min_speech = seconds(v, "--min-speech")?;
            options.binarize.min_speech = options.multitrack.min_speech;
        }
        if let Some(v) = self.min_silence {
            options.multitrack.min_silence = seconds(v, "--min-silence")?;
            options.binarize.min_silence = options.multitrack.min_silence;
        }
        options.max_length_diff = seconds(self.max_length_diff, "--max-length-diff")?;
        options.allow_rate_mismatch = self.allow_rate_mismatch;
        options.decode.max_duration = seconds(self.max_duration, "--max-duration")?;
        options.decode.strict = self.strict;
        Ok(options)
    }

    /// Detects who spoke when in the `--track` files (if any) and in each of `recordings`, one
    /// corpus per detection, with the files it came from. `--channels` needs exactly one
    /// recording.
    pub(crate) fn detect_recordings(
        &self,
        recordings: &[impl AsRef<Path>],
        globals: Globals,
    ) -> Result<Vec<Detected>> {
        if !self.channels.is_empty() && recordings.len() != 1 {
            bail!("--channels names the channels of one recording; give exactly one");
        }
        if !self.audio_tracks.is_empty() && recordings.len() != 1 {
            bail!("--audio-tracks names the audio tracks of one recording; give exactly one");
        }
        // Flags of recordings given with transcripts alone would change nothing: said, not
        // ignored (`--track-offset` names its missing `--track`).
        self.offsets()?;
        let diarization = self.diarize.given();
        if recordings.is_empty() && self.tracks.is_empty() && !diarization.is_empty() {
            let verb = if diarization.len() == 1 { "tells" } else { "tell" };
            bail!(
                "{} {verb} the speakers of a recording apart; the inputs hold no recording (a \
                 transcript's speakers are its own)",
                diarization.join(", ")
            );
        }
        let mut detected = Vec::new();
        if !self.tracks.is_empty() {
            detected.push(self.detect(None, None, globals)?);
        }
        for r in recordings {
            detected.push(self.detect(Some(r.as_ref()), None, globals)?);
        }
        Ok(detected)
    }

    /// Detects who spoke when in `audio` (one recording, split by `--channels` if given) or in
    /// the `--track` files, as a corpus of one recording named `recording_id` (default: from
    /// the file names, see `pipeline::tracks_recording_id`).
    ///
    /// One mixed recording (no `--track`, no `--channels`) is diarized: its speakers are told
    /// apart unless `--no-diarize` is given.
    pub(crate) fn detect(
        &self,
        audio: Option<&Path>,
        recording_id: Option<&str>,
        globals: Globals,
    ) -> Result<Detected> {
        let mut specs = track_specs(audio, &self.tracks, &self.channels, &self.audio_tracks)?;
        for (name, offset) in self.offsets()? {
            for spec in specs.iter_mut().filter(|s| s.name == name) {
                spec.offset = offset;
            }
        }
        let options = self.options()?;
        let sources: Vec<Source> = specs.iter().map(|s| Source::File(s.path.clone())).collect();
        let mixed =
            self.tracks.is_empty() && self.channels.is_empty() && self.audio_tracks.is_empty();
        if self.diarize.wanted() && !mixed {
            bail!(
                "--diarize and --num-speakers apply to one mixed recording, not to --track, \
                 --channels or --audio-tracks"
            );
        }
        if let (Some(audio), true, false) = (audio, mixed, globals.quiet) {
            channels_note(audio, &options);
        }
        if let (Some(audio), false, false) = (audio, self.channels.is_empty(), globals.quiet) {
            unnamed_channels_note(audio, self.channels.len(), &options);
        }
        if !self.tracks.is_empty() && !globals.quiet {
            for spec in &specs {
                track_channels_note(spec, &options);
            }
        }
        if let (Some(audio), true, false) = (audio, mixed, self.diarize.no_diarize) {
            let vad_chosen = self.vad.is_some() || self.vad_model.is_some();
            let (corpus, provenance, mut notes) = crate::input::diarize::diarize(
                &self.diarize,
                audio,
                recording_id,
                &options,
                vad_chosen,
                globals,
            )?;
            notes.extend(warn_if_silent(&sources, &corpus, globals));
            let detected = Detected { sources, corpus, provenance, levels: None, notes };
            let count_given = self.diarize.num_speakers.is_some()
                || self.diarize.max_speakers.is_some_and(|n| n <= 1);
            if !globals.quiet && !count_given {
                for (id, t) in detected.corpus.iter() {
                    let speakers = t.annotation().speakers().len();
                    if let Some(hint) = one_speaker_hint(&detected.provenance, speakers) {
                        eprintln!("overtalk: note: {id}: {hint}");
                    }
                }
            }
            return Ok(detected);
        }
        let bar = crate::progress::seconds_bar(globals);
        let found = pipeline::detect_recording(&specs, &options, recording_id, &mut |p| {
            if let Some(bar) = &bar {
                crate::progress::show_seconds(bar, p.path, p.done, p.total);
            }
        });
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        let found = found.context("detecting speech")?;
        let mut notes: Vec<String> = found.warnings.iter().map(ToString::to_string).collect();
        if !globals.quiet {
            for w in &notes {
                eprintln!("overtalk: warning: {w}");
            }
        }
        let provenance = found.provenance;
        let corpus = Corpus::single(found.recording_id, found.transcript);
        notes.extend(warn_if_silent(&sources, &corpus, globals));
        Ok(Detected { sources, corpus, provenance, levels: found.levels, notes })
    }
}

/// A hint for a mixed track in which the diarizer found one speaker: the count is its
/// estimate (two similar voices, or a short clip, can fall into one cluster), and the analysis
/// of one speaker has no floor transfers, interruptions or overlap to show.
fn one_speaker_hint(method: &Provenance, speakers: usize) -> Option<&'static str> {
    (speakers == 1 && method.speakers_estimated()).then_some(
        "the diarizer found one speaker; if more people speak, `--num-speakers N` (or \
         `--min-speakers 2`) makes it look for them (docs/diarization.md)",
    )
}

/// Says so on stderr when no speech at all was found in a recording, so that an empty RTTM or
/// a table of "0 speakers" is not mistaken for a result about people (and when a speaker of a
/// multitrack recording has none: `pipeline::silence_warnings`); returns what it said (or
/// would have said with `--quiet`).
fn warn_if_silent(sources: &[Source], corpus: &Corpus, globals: Globals) -> Vec<String> {
    let names: Vec<String> = sources.iter().map(Source::display).collect();
    let mut said = Vec::new();
    for (_, t) in corpus.iter() {
        for w in pipeline::silence_warnings(t, &names) {
            if !globals.quiet {
                eprintln!("overtalk: warning: {w}");
            }
            said.push(w);
        }
    }
    said
}

/// A note on stderr when `--channels` names fewer channels than the recording has: the others
/// are left out (their speakers are not in the result), which `_` says on purpose.
fn unnamed_channels_note(audio: &Path, named: usize, options: &DetectOptions) {
    let Ok(d) = overtalk_audio::decode::Decoder::open(audio, &options.decode) else { return };
    let channels = d.info().channels;
    if channels > named {
        let (which, them) = if channels - named == 1 {
            (format!("channel {channels} is"), "it")
        } else {
            (format!("channels {}–{channels} are", named + 1), "them")
        };
        eprintln!(
            "overtalk: note: {}: it has {channels} channels and --channels names {named}; \
             {which} left out (name {them}, or `_` to skip one on purpose)",
            audio.display(),
        );
    }
}

/// A note on stderr when a multichannel recording given without `--channels` has channels
/// that differ (a call with one party per channel): mixing them down loses who spoke.
fn channels_note(audio: &Path, options: &DetectOptions) {
    let Ok(Some(c)) = overtalk_audio::channels::compare_channels(audio, &options.decode) else {
        return;
    };
    if c.differ() {
        eprintln!(
            "overtalk: note: {}: its {} channels differ (one is {} dB or more louder than the \
             other{} in {:.0} % of its sound), as when each speaker has a channel; \
             `--channels NAME,NAME{}` gives each channel its own speaker and measures overlap, \
             where mixing them down to one track cannot",
            audio.display(),
            c.channels,
            overtalk_audio::channels::DIFFER_DB,
            if c.channels > 2 { "s" } else { "" },
            c.differ_share * 100.0,
            if c.channels > 2 { ",…" } else { "" }
        );
    }
}

/// A note on stderr when a `--track` file has channels that differ (a call recorded with one
/// party per channel, given as one speaker's track): they are mixed down into that one
/// speaker, so the other party's speech is counted as theirs.
fn track_channels_note(spec: &TrackSpec, options: &DetectOptions) {
    let Ok(Some(c)) = overtalk_audio::channels::compare_channels(&spec.path, &options.decode)
    else {
        return;
    };
    if c.differ() {
        eprintln!(
            "overtalk: note: {} (--track {}): its {} channels differ (one is {} dB or more \
             louder than the other{} in {:.0} % of its sound), as when each speaker has a \
             channel, and they are mixed down into the one speaker {:?}; if the channels are \
             different people, give the file alone with `--channels NAME,NAME{}`, or split it \
             into one file per channel for `--track`",
            spec.path.display(),
            spec.name,
            c.channels,
            overtalk_audio::channels::DIFFER_DB,
            if c.channels > 2 { "s" } else { "" },
            c.differ_share * 100.0,
            spec.name,
            if c.channels > 2 { ",…" } else { "" }
        );
    }
}

/// The tracks to decode: one per `--track`, one per named channel or audio track of `audio`,
/// or `audio` itself as one track.
pub(crate) fn track_specs(
    audio: Option<&Path>,
    tracks: &[String],
    channels: &[String],
    audio_tracks: &[String],
) -> Result<Vec<TrackSpec>> {
    if !audio_tracks.is_empty() {
        if !tracks.is_empty() {
            bail!("--audio-tracks names the audio tracks of one recording; it does not go with --track");
        }
        if !channels.is_empty() {
            bail!(
                "--audio-tracks and --channels each name one speaker per microphone of one \
                 recording; give one of them"
            );
        }
        let Some(audio) = audio else {
            bail!("--audio-tracks needs the recording whose audio tracks it names");
        };
        return named_parts(
            audio,
            audio_tracks,
            "--audio-tracks",
            ("an audio track", "audio track"),
            |i| (None, Some(i)),
        );
    }
    if !tracks.is_empty() {
        if audio.is_some() {
            bail!("give either a recording (with --channels) or --track NAME=FILE, not both");
        }
        if !channels.is_empty() {
            bail!("--channels names the channels of one recording; it does not go with --track");
        }
        let mut specs = Vec::new();
        for t in tracks {
            let Some((name, file)) = t.split_once('=') else {
                bail!("--track {t:?}: expected NAME=FILE");
            };
            if name.trim().is_empty() || file.is_empty() {
                bail!("--track {t:?}: expected NAME=FILE with a non-empty name and file");
            }
            if specs.iter().any(|s: &TrackSpec| s.name == name) {
                // Each track's speech is the others' bleed to the detector: one name for two
                // microphones would merge a speaker with their own bleed.
                bail!(
                    "--track {name}=…: the name {name:?} is given to two tracks; each microphone \
                     takes a name of its own (a speaker on two microphones: two names, such as \
                     {name}-1 and {name}-2, and a --speakers file that renames both to {name:?}, \
                     so the detection keeps the microphones apart and the analysis counts them \
                     as one speaker)"
                );
            }
            specs.push(TrackSpec::file(name.to_owned(), PathBuf::from(file)));
        }
        return Ok(specs);
    }
    let Some(audio) = audio else {
        if !channels.is_empty() {
            bail!("--channels needs the recording whose channels it names");
        }
        bail!("give a recording (AUDIO) or one --track NAME=FILE per speaker");
    };
    if channels.is_empty() {
        let name = format::recording_id_from_path(audio);
        return Ok(vec![TrackSpec::file(name, audio.to_path_buf())]);
    }
    named_parts(audio, channels, "--channels", ("a channel", "channel"), |c| (Some(c), None))
}

/// One track per name of `names` (`_` skips one): the channels (`--channels`) or the audio
/// tracks (`--audio-tracks`) of `audio`, each part `i` placed by `part` as `(channel, audio
/// track)`.
fn named_parts(
    audio: &Path,
    names: &[String],
    flag: &str,
    (a_what, what): (&str, &str),
    part: impl Fn(usize) -> (Option<usize>, Option<usize>),
) -> Result<Vec<TrackSpec>> {
    let specs: Vec<TrackSpec> = names
        .iter()
        .enumerate()
        .filter(|(_, n)| n.as_str() != "_")
        .map(|(i, n)| {
            let (channel, audio_track) = part(i);
            TrackSpec {
                name: n.trim().to_owned(),
                path: audio.to_path_buf(),
                channel,
                audio_track,
                offset: overtalk::Delta::ZERO,
            }
        })
        .collect();
    if specs.is_empty() {
        bail!("{flag} names no speaker (every {what} is `_`)");
    }
    if specs.iter().any(|s| s.name.is_empty()) {
        bail!("{flag}: {a_what} name is empty (use `_` to skip {a_what})");
    }
    Ok(specs)
}

/// Loads `--vad-model FILE.onnx` (checked against the Silero sequence interface) as the model
/// of `--vad silero`.
#[cfg(feature = "onnx")]
fn use_vad_model(path: &Path) -> Result<VadKind> {
    let model = overtalk_audio::vad::silero::SileroModel::load(path).context("--vad-model")?;
    overtalk_audio::vad::silero::use_model(model);
    Ok(VadKind::Silero)
}

#[cfg(not(feature = "onnx"))]
fn use_vad_model(path: &Path) -> Result<VadKind> {
    bail!("--vad-model {}: {}", path.display(), overtalk_audio::vad::ONNX_FEATURE_HINT)
}

fn seconds(value: f64, flag: &str) -> Result<Delta> {
    match Delta::from_secs_f64(value) {
        Some(d) if d.micros() >= 0 => Ok(d),
        _ => bail!("{flag} {value}: expected a non-negative number of seconds"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use overtalk_audio::provenance::{DiarizerKind, Method};

    #[test]
    fn one_speaker_from_a_diarizer_gets_a_hint() {
        let by = |method| Provenance::new(method, "x");
        let ge2e = by(Method::Diarized(DiarizerKind::Ge2e { overlap: false }));
        assert!(one_speaker_hint(&ge2e, 1).is_some_and(|h| h.contains("--num-speakers")));
        assert!(one_speaker_hint(&by(Method::Diarized(DiarizerKind::Pyannote)), 1).is_some());
        assert_eq!(one_speaker_hint(&ge2e, 2), None);
        assert_eq!(one_speaker_hint(&ge2e, 0), None, "silence has its own warning");
        // Not where one label is what was asked for (voice activity alone) or one track.
        assert_eq!(one_speaker_hint(&by(Method::Diarized(DiarizerKind::VadOnly)), 1), None);
        assert_eq!(one_speaker_hint(&by(Method::Tracks { count: 1 }), 1), None);
    }
}
