//! `--words FILE`: the words of captions laid on detected speakers; `--track-words NAME=FILE`:
//! the words of each track's own transcript laid on that track's speaker (the rules are the
//! library's, `overtalk::words`; this module reads the files and reports what happened to
//! the words).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use overtalk::format::{self, Format, ReadOptions};
use overtalk::words::{lay, lay_per_speaker, words_of, LayOptions, LayStats, Words};
use overtalk::{Delta, Severity, Transcript, WarningKind};
use overtalk_audio::multitrack::TrackExcess;

/// Flags of `--words`, shared by `analyze`, `report` and `detect`.
#[derive(Debug, Default, clap::Args)]
#[command(next_help_heading = "Words")]
pub(crate) struct WordsArgs {
    /// A transcript with times but no (or unreliable) speakers — YouTube auto-captions (WebVTT
    /// with inline word times), Whisper or WhisperX JSON, SRT or WebVTT without voices — whose
    /// words are laid on the detected speakers, each word to the speaker whose speech overlaps
    /// it most (docs/conversation-metrics.md, "Words laid on speakers"): text mode on a
    /// recording. Its own speakers are ignored. With `--track`, a word in the speech of
    /// several speakers goes to the one whose track stands out most there (by 3 dB or more).
    #[arg(long, value_name = "FILE", conflicts_with = "track_words")]
    pub(crate) words: Option<PathBuf>,
    /// The transcript of one `--track`'s own recording (Whisper per track; the formats of
    /// `--words`), `NAME=FILE` with NAME a `--track` name (repeat for each track): its words
    /// are that speaker's where their speech was detected; the others' voices it transcribed
    /// (bleed into the microphone) and words in no speech are dropped, with a warning that
    /// counts them.
    #[arg(long = "track-words", value_name = "NAME=FILE")]
    pub(crate) track_words: Vec<String>,
    /// Format of the `--words` or `--track-words` files (default: from the extension, then the
    /// content).
    #[arg(long, value_name = "FORMAT")]
    pub(crate) words_from: Option<Format>,
    /// Farthest a word in no speech (of its speaker, for `--track-words`) may lie from the
    /// speech it is laid on (seconds; default 0.5); farther words are dropped, with a warning
    /// that counts them.
    #[arg(long, value_name = "TIME", value_parser = crate::time_arg::seconds)]
    pub(crate) words_max_gap: Option<f64>,
}

/// What the detection of `--track` recordings gives the words laid on them: the tracks'
/// levels (whose a word in overlapped speech is, for `--words`) and the tracks' offsets on
/// the common timeline (`--track-offset`, by track name: the words of `--track-words` are on
/// their file's timeline).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct FromTracks<'a> {
    /// The tracks' levels, with one microphone per speaker.
    pub(crate) levels: Option<&'a TrackExcess>,
    /// Each offset track's name and offset.
    pub(crate) offsets: &'a [(String, Delta)],
}

/// The words laid on a recording's speakers, and how, for the method record.
pub(crate) struct LaidWords {
    /// The speakers' transcript with the words.
    pub(crate) transcript: Transcript,
    /// What the method record says of the words (`"; words from … laid …"`).
    pub(crate) note: String,
}

/// A file's name, for the method record.
fn file_name(p: &Path) -> String {
    p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// Below this share of a speaker's speech in stretches that got words, `--words` warns.
const WORDS_COVER_MIN: f64 = 0.5;

/// The speakers of `laid` whose speech lies mostly in tracks that got no word, with the share
/// that did (by time): the words file covers only part of the recording, or of that speaker.
fn sparse_words(laid: &Transcript) -> Vec<(String, f64)> {
    let a = laid.annotation();
    let mut by: Vec<(i64, i64)> = vec![(0, 0); a.speakers().len()];
    for (track, content) in a.tracks().iter().zip(laid.contents()) {
        let d = track.segment.duration().micros();
        let e = &mut by[track.speaker.index()];
        e.0 += d;
        if content.as_ref().is_some_and(|c| !c.words.is_empty()) {
            e.1 += d;
        }
    }
    a.speakers()
        .iter()
        .filter_map(|(id, name)| {
            let (all, worded) = by[id.index()];
            let share = worded as f64 / all as f64;
            (all > 0 && share < WORDS_COVER_MIN).then(|| (name.to_owned(), share))
        })
        .collect()
}

impl WordsArgs {
    /// Whether words are given (`--words` or `--track-words`).
    pub(crate) fn given(&self) -> bool {
        self.words.is_some() || !self.track_words.is_empty()
    }

    /// The flags that need a words file, refused without one; `--track-words` names checked
    /// against `tracks` (the `--track` and `--channels` names), before any detection.
    pub(crate) fn check(&self, tracks: &[String]) -> Result<()> {
        if !self.given() {
            if self.words_from.is_some() {
                bail!("--words-from gives the format of --words or --track-words; give one");
            }
            if self.words_max_gap.is_some() {
                bail!("--words-max-gap applies to --words or --track-words; give one");
            }
            return Ok(());
        }
        if self.track_words.is_empty() {
            return Ok(());
        }
        if tracks.is_empty() {
            bail!(
                "--track-words gives the words of a --track's own recording; give the tracks with --track NAME=FILE"
            );
        }
        for (name, _) in self.track_files()? {
            if !tracks.contains(&name) {
                bail!(
                    "--track-words {name}=…: {name:?} is not a --track name (the tracks are {})",
                    tracks.iter().map(|t| format!("{t:?}")).collect::<Vec<_>>().join(", ")
                );
            }
        }
        Ok(())
    }

    /// `--track-words` as `(name, file)`, each name once.
    fn track_files(&self) -> Result<Vec<(String, PathBuf)>> {
        let mut out: Vec<(String, PathBuf)> = Vec::new();
        for t in &self.track_words {
            let Some((name, file)) = t.split_once('=') else {
                bail!("--track-words {t:?}: expected NAME=FILE");
            };
            if name.trim().is_empty() || file.is_empty() {
                bail!("--track-words {t:?}: expected NAME=FILE with a non-empty name and file");
            }
            if out.iter().any(|(n, _)| n == name) {
                bail!("--track-words {name}=…: the words of {name:?} are given twice");
            }
            out.push((name.to_owned(), PathBuf::from(file)));
        }
        Ok(out)
    }

    /// The words of one file (`flag` names it in errors). Reader warnings other than the
    /// missing speakers (which are the point of the file) and the self-overlap of its one
    /// placeholder speaker (caption cues overlap each other, and the file's speakers are not
    /// used) are printed; those of malformed input fail under `--strict`.
    fn read_words(
        &self,
        path: &Path,
        flag: &str,
        read: &ReadOptions,
        quiet: bool,
    ) -> Result<Words> {
        let shown = path.display();
        let options = ReadOptions { strict: false, recording_id: None, ..read.clone() };
        // The words file's format is named with --words-from, not --from.
        let out = format::read_path(path, self.words_from, &options).map_err(|e| {
            let message = e.to_string();
            if message.contains("--from") {
                anyhow::anyhow!(message.replace("--from", "--words-from"))
            } else {
                anyhow::Error::from(e)
            }
        })?;
        let about_speakers = [WarningKind::MissingSpeaker, WarningKind::SelfOverlap];
        for w in out.warnings.iter().filter(|w| !about_speakers.contains(&w.kind)) {
            // As for any input: `--strict` rejects malformed input, not notes on valid input.
            if read.strict && w.kind.severity() == Severity::Repair {
                bail!("{shown}: {w} (--strict)");
            }
            if !quiet {
                eprintln!("overtalk: warning: {shown}: {w}");
            }
        }
        if out.corpus.len() != 1 {
            bail!(
                "{flag} {shown}: holds {} recordings; it takes the words of one",
                out.corpus.len()
            );
        }
        let Some((_, captions)) = out.corpus.iter().next() else {
            bail!("{flag} {shown}: holds no recording");
        };
        Ok(words_of(captions))
    }

    fn lay_options(&self) -> Result<LayOptions> {
        let mut lay_options = LayOptions::default();
        if let Some(secs) = self.words_max_gap {
            lay_options.max_distance = match Delta::from_secs_f64(secs) {
                Some(d) if d.micros() >= 0 => d,
                _ => bail!("--words-max-gap {secs}: expected a non-negative number of seconds"),
            };
        }
        Ok(lay_options)
    }

    /// Lays the words of `--words` (or of each `--track-words` file) on `speakers` (the one
    /// conversation `label` of the inputs, its speakers renamed by `rename`); `None` without
    /// words. With `levels` (one microphone per speaker), the words of overlapped speech go
    /// by the tracks' levels. Dropped words in no speech fail under `--strict`; bleed dropped
    /// from a track's own transcript is what the rule is for, and only counted.
    pub(crate) fn lay_on(
        &self,
        speakers: &Transcript,
        label: &str,
        read: &ReadOptions,
        quiet: bool,
        tracks: FromTracks<'_>,
        rename: &HashMap<String, String>,
    ) -> Result<Option<LaidWords>> {
        let offsets = tracks.offsets;
        if !self.track_words.is_empty() {
            return self.lay_track_words(speakers, label, read, quiet, rename, offsets).map(Some);
        }
        let Some(path) = &self.words else { return Ok(None) };
        let shown = path.display();
        let words = self.read_words(path, "--words", read, quiet)?;
        let lay_options = self.lay_options()?;
        if speakers.has_text() && !quiet {
            eprintln!(
                "overtalk: warning: {label} has words of its own; the words of {shown} replace them"
            );
        }
        let levels = tracks.levels.map(|l| l as &dyn overtalk::words::SpeakerLevels);
        let laid = lay(speakers, &words, &lay_options, levels)
            .with_context(|| format!("--words {shown}: laying its words on {label}"))?;
        let s = laid.stats;
        let max = lay_options.max_distance.as_secs_f64();
        if s.dropped > 0 {
            let mut message = format!(
                "{shown}: {} of {} words lie in no speech of {label} and farther than {max} s from any: dropped",
                s.dropped, s.words
            );
            // Words past the recording's end are not silence in it: the captions are of
            // another recording, or of a longer cut of this one.
            // Counted among the dropped only: a word past the end but within `max` of the
            // last speech is laid on it.
            if let Some(end) = speakers.declared_extent().map(|e| e.end()) {
                let last_speech = speakers.annotation().extent().map(|e| e.end().micros());
                let reach = lay_options.max_distance.micros().max(0);
                let dropped_after = |w: &&overtalk::words::TimedWord| {
                    w.start >= end
                        && last_speech.is_none_or(|l| w.start.micros().saturating_sub(l) > reach)
                };
                let after = words.words.iter().filter(dropped_after).count();
                if after > 0 {
                    message.push_str(&format!(
                        "; {after} of them {} after the recording ends ({:.3} s): captions of \
                         another recording, or of a longer cut of this one?",
                        if after == 1 { "starts" } else { "start" },
                        end.as_secs_f64()
                    ));
                }
            }
            if read.strict {
                bail!("{message} (--strict)");
            }
            if !quiet {
                eprintln!("overtalk: warning: {message}");
            }
        }
        if !quiet {
            let inner = match levels {
                Some(_) => format!(
                    "{} of them in the speech of several speakers by the tracks' levels, {} there \
                     without a 3 dB margin between the levels; {} by the tie rule",
                    s.by_level, s.level_undecided, s.tied
                ),
                None => format!("{} of them by the tie rule", s.tied),
            };
            let mut how = format!(
                "{} by overlap ({inner}), {} on the nearest speech within {max} s",
                s.by_overlap, s.nearest
            );
            if s.spread > 0 {
                how.push_str(&format!("; {} without times of their own spread evenly", s.spread));
            }
            if words.duplicates > 0 {
                how.push_str(&format!("; {} repeated words read once", words.duplicates));
            }
            eprintln!(
                "overtalk: note: {shown}: {} words laid on the speakers of {label}: {how}",
                s.by_overlap + s.nearest
            );
            warn_sparse(&shown.to_string(), &laid.transcript);
        }
        let how = if levels.is_some() {
            format!(
                "most overlap; in overlapped speech by the tracks' levels: {} of {} words",
                s.by_level, s.words
            )
        } else {
            "most overlap".to_owned()
        };
        let note = format!("; words from {} laid on the speakers ({how})", file_name(path));
        Ok(Some(LaidWords { transcript: laid.transcript, note }))
    }

    /// `--track-words`: each file's words on its track's speaker, moved by the track's
    /// `--track-offset` (`offsets`) onto the common timeline.
    fn lay_track_words(
        &self,
        speakers: &Transcript,
        label: &str,
        read: &ReadOptions,
        quiet: bool,
        rename: &HashMap<String, String>,
        offsets: &[(String, Delta)],
    ) -> Result<LaidWords> {
        let files = self.track_files()?;
        let mut words = Vec::with_capacity(files.len());
        // Per file: its words that lie before the common start, dropped with that audio.
        let mut shifted_out = Vec::with_capacity(files.len());
        for (name, path) in &files {
            let flag = format!("--track-words {name}=");
            let mut w = self.read_words(path, &flag, read, quiet)?;
            let mut dropped = 0;
            if let Some((_, offset)) = offsets.iter().find(|(n, _)| n == name) {
                let before = w.words.len();
                dropped = w.shift(*offset);
                if dropped > 0 && !quiet {
                    eprintln!(
                        "overtalk: note: {} (--track-words {name}): {dropped} of {before} words \
                         lie before the common start (--track-offset {name}={offset}) and are \
                         dropped with that audio",
                        path.display()
                    );
                }
            }
            shifted_out.push(dropped);
            words.push(w);
        }
        // The tracks' names as the speakers are now called.
        let names: Vec<String> =
            files.iter().map(|(n, _)| crate::input::renamed(rename, n)).collect();
        for (i, name) in names.iter().enumerate() {
            if let Some(j) = names[..i].iter().position(|n| n == name) {
                bail!(
                    "--track-words {}= and --track-words {}=: both tracks are the speaker {name:?} \
                     after --speakers, and a speaker's words are laid once (the microphones of \
                     one speaker hear the same words); give the transcript of one of them",
                    files[j].0,
                    files[i].0
                );
            }
        }
        let per: Vec<(&str, &Words)> = names.iter().map(String::as_str).zip(&words).collect();
        let lay_options = self.lay_options()?;
        let laid = lay_per_speaker(speakers, &per, &lay_options)
            .with_context(|| format!("--track-words: laying the tracks' words on {label}"))?;
        let max = lay_options.max_distance.as_secs_f64();
        let mut silence_dropped = Vec::new();
        let mut kept = Vec::new();
        let per_file = files.iter().zip(&laid.per_speaker).zip(&words).zip(&shifted_out);
        for ((((name, path), (speaker, s)), w), &shifted) in per_file {
            let shown = path.display();
            let silence = s.dropped - s.bleed;
            // The file's words, those before the common start included.
            let in_file = s.words + shifted;
            if s.dropped > 0 && !quiet {
                let mut why = Vec::new();
                if s.bleed > 0 {
                    why.push(format!(
                        "{} in the others' speech (their voices heard on {speaker}'s microphone: bleed)",
                        s.bleed
                    ));
                }
                if silence > 0 {
                    why.push(format!(
                        "{silence} in no speech and farther than {max} s from {speaker}'s (silence)"
                    ));
                }
                eprintln!(
                    "overtalk: warning: {shown} (--track-words {name}): {} of {in_file} words dropped: {}",
                    s.dropped,
                    why.join(", ")
                );
            }
            if silence > 0 {
                silence_dropped.push(format!("{shown}: {silence}"));
            }
            if !quiet {
                eprintln!(
                    "overtalk: note: {shown}: {} words laid on {speaker:?} of {label}: {}",
                    s.by_overlap + s.nearest,
                    how_laid(s, w, max, shifted)
                );
            }
            kept.push(format!(
                "{speaker}: {}, {} of {in_file} words",
                file_name(path),
                s.by_overlap + s.nearest,
            ));
        }
        if read.strict && !silence_dropped.is_empty() {
            bail!(
                "--track-words: words in no speech and farther than {max} s from their speaker's were dropped ({}) (--strict)",
                silence_dropped.join(", ")
            );
        }
        if !quiet {
            warn_sparse("--track-words", &laid.transcript);
        }
        let note = format!(
            "; words of each track's own transcript laid on its speaker where their speech was detected, bleed dropped ({})",
            kept.join("; ")
        );
        Ok(LaidWords { transcript: laid.transcript, note })
    }
}

/// How one track's words were laid, for the note.
fn how_laid(s: &LayStats, words: &Words, max: f64, before_start: usize) -> String {
    let mut how = format!(
        "{} in their speech, {} within {max} s of it, {} dropped ({} as bleed)",
        s.by_overlap, s.nearest, s.dropped, s.bleed
    );
    if before_start > 0 {
        how.push_str(&format!("; {before_start} before the common start, dropped with that audio"));
    }
    if s.spread > 0 {
        how.push_str(&format!("; {} without times of their own spread evenly", s.spread));
    }
    if words.duplicates > 0 {
        how.push_str(&format!("; {} repeated words read once", words.duplicates));
    }
    how
}

/// The warning for speakers most of whose speech got no word.
fn warn_sparse(shown: &str, laid: &Transcript) {
    for (name, share) in sparse_words(laid) {
        eprintln!(
            "overtalk: warning: {shown}: the words cover {:.0} % of {name:?}'s speech: \
             what rests on words (speaking rate, completion points, floor claims) \
             rests on that part; captions for part of the recording?",
            (share * 100.0).floor()
        );
    }
}
