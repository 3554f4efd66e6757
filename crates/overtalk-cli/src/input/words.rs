//! `--words FILE`: the words of captions laid on detected speakers (the rule is the library's,
//! `overtalk::words`; this module reads the file and reports what happened to the words).

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use overtalk::format::{self, Format, ReadOptions};
use overtalk::words::{lay, words_of, LayOptions};
use overtalk::{Delta, Transcript, WarningKind};

/// Flags of `--words`, shared by `analyze`, `report` and `detect`.
#[derive(Debug, Default, clap::Args)]
#[command(next_help_heading = "Words")]
pub(crate) struct WordsArgs {
    /// A transcript with times but no (or unreliable) speakers — YouTube auto-captions (WebVTT
    /// with inline word times), Whisper or WhisperX JSON, SRT or WebVTT without voices — whose
    /// words are laid on the detected speakers, each word to the speaker whose speech overlaps
    /// it most (docs/conversation-metrics.md, "Words laid on speakers"): text mode on a
    /// recording. Its own speakers are ignored.
    #[arg(long, value_name = "FILE")]
    pub(crate) words: Option<PathBuf>,
    /// Format of the `--words` file (default: from the extension, then the content).
    #[arg(long, value_name = "FORMAT", requires = "words")]
    pub(crate) words_from: Option<Format>,
    /// Farthest a word in no speech may lie from the speech it is laid on (seconds; default
    /// 0.5); farther words are dropped, with a warning that counts them.
    #[arg(long, value_name = "SECS", requires = "words")]
    pub(crate) words_max_gap: Option<f64>,
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
    /// Lays the words of `--words` on `speakers` (the one conversation `label` of the inputs);
    /// `None` without `--words`. Reader warnings other than the missing speakers (which are the
    /// point of the file) and the self-overlap of its one placeholder speaker (caption cues
    /// overlap each other, and the file's speakers are not used) are printed, and fail under
    /// `--strict`, as are dropped words.
    pub(crate) fn lay_on(
        &self,
        speakers: &Transcript,
        label: &str,
        read: &ReadOptions,
        quiet: bool,
    ) -> Result<Option<Transcript>> {
        let Some(path) = &self.words else { return Ok(None) };
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
            if read.strict {
                bail!("{shown}: {w} (--strict)");
            }
            if !quiet {
                eprintln!("overtalk: warning: {shown}: {w}");
            }
        }
        if out.corpus.len() != 1 {
            bail!(
                "--words {shown}: holds {} recordings; it takes the words of one",
                out.corpus.len()
            );
        }
        let Some((_, captions)) = out.corpus.iter().next() else {
            bail!("--words {shown}: holds no recording");
        };
        let mut lay_options = LayOptions::default();
        if let Some(secs) = self.words_max_gap {
            lay_options.max_distance = match Delta::from_secs_f64(secs) {
                Some(d) if d.micros() >= 0 => d,
                _ => bail!("--words-max-gap {secs}: expected a non-negative number of seconds"),
            };
        }
        if speakers.has_text() && !quiet {
            eprintln!(
                "overtalk: warning: {label} has words of its own; the words of {shown} replace them"
            );
        }
        let words = words_of(captions);
        let laid = lay(speakers, &words, &lay_options)
            .with_context(|| format!("--words {shown}: laying its words on {label}"))?;
        let s = laid.stats;
        let max = lay_options.max_distance.as_secs_f64();
        if s.dropped > 0 {
            let message = format!(
                "{shown}: {} of {} words lie in no speech of {label} and farther than {max} s from any: dropped",
                s.dropped, s.words
            );
            if read.strict {
                bail!("{message} (--strict)");
            }
            if !quiet {
                eprintln!("overtalk: warning: {message}");
            }
        }
        if !quiet {
            let mut how = format!(
                "{} by overlap ({} of them by the tie rule), {} on the nearest speech within {max} s",
                s.by_overlap, s.tied, s.nearest
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
            for (name, share) in sparse_words(&laid.transcript) {
                eprintln!(
                    "overtalk: warning: {shown}: the words cover {:.0} % of {name:?}'s speech: \
                     what rests on words (speaking rate, completion points, floor claims) \
                     rests on that part; captions for part of the recording?",
                    (share * 100.0).floor()
                );
            }
        }
        Ok(Some(laid.transcript))
    }

    /// What the method record says of the words, `""` without `--words`.
    pub(crate) fn method_note(&self) -> String {
        match &self.words {
            None => String::new(),
            Some(p) => format!(
                "; words from {} laid on the speakers (most overlap)",
                p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
            ),
        }
    }
}
