//! WhisperX JSON output (`whisperx --output_format json`, usually with `--diarize`).
//!
//! ```json
//! {"segments": [{"start": 0.0, "end": 4.21, "text": " So the plan", "speaker": "SPEAKER_00",
//!                "words": [{"word": "So", "start": 0.0, "end": 0.18, "score": 0.91,
//!                           "speaker": "SPEAKER_00"}, {"word": "5pm"}]}],
//!  "word_segments": [...], "language": "en"}
//! ```
//!
//! # Reading
//!
//! Each segment becomes one track of its `speaker`, with the segment's text and words
//! (`score` becomes the word's confidence). WhisperX's quirks are repairs with warnings:
//!
//! - **bare `NaN`** (Python's `json.dump` writes it; it is not JSON) is read as a missing value,
//!   outside strings only, with one `repaired` warning per file;
//! - **words without `start`/`end`** (numerals and symbols the aligner could not place) are kept
//!   without times, with one `missing-time` warning per file;
//! - **a segment without `speaker`** (no diarization turn overlapped it) takes the speaker of its
//!   words when they have one, else the placeholder [`UNKNOWN_SPEAKER`] with a
//!   `missing-speaker` warning (one warning for the whole file when no segment has a speaker,
//!   i.e. WhisperX ran without `--diarize`);
//! - **a segment without times** takes the span of its timed words (`missing-time`), or is
//!   dropped when no word is timed.
//!
//! **A segment whose words name different speakers** is split, because WhisperX gives every
//! word the diarization turn it overlaps most while the segment only gets the majority: the
//! segment's words are cut into runs at each *timed* word whose speaker differs from the run in
//! progress (words without times or without speaker join the run in progress), and each run
//! becomes a track spanning its timed words, with the run's words and no segment text (the text
//! is the words). A `note` warning names the split.
//!
//! ```text
//! segment  [SPEAKER_00 ────────────────────)
//! words     [00][00] [01][01]  [5pm] [00]
//! tracks    [00─────)[01──────────)  [00)
//! ```
//!
//! When the differing words have no times the segment cannot be cut: it stays one track of the
//! segment's speaker, with a `note`. So does a segment whose words all name one speaker other
//! than the segment's (the segment's speaker is what WhisperX's own SRT and TXT writers print).
//!
//! `word_segments` repeats the words; it is used only when `segments` is absent or empty, and
//! its words are grouped into tracks by speaker changes and pauses longer than 0.8 s.
//!
//! Whisper's own JSON has the same `segments` (OpenAI's `verbose_json`, whisper.cpp's server,
//! `openai-whisper --word_timestamps`, whisper-timestamped, whose words carry their `text` and
//! `confidence` where WhisperX's carry `word` and `score`; a word with both keeps `word` and
//! `score`): its `probability` is read as the score, its `duration`
//! becomes the declared extent, and the words of a segment — when they are Whisper's tokens,
//! spelling out the segment's text exactly, each word beginning with a space — are joined: a
//! piece that starts with punctuation, an apostrophe or a letter of a script written with
//! spaces continues the word before (` that` `'s`); in Chinese, Japanese or Thai every token
//! stays a word. OpenAI's top-level `words` (`timestamp_granularities` with `word`) are given to
//! the segments, each to the last segment starting at or before it; without `segments` they are
//! read as `word_segments`. It holds no speakers.
//!
//! A bare list of segments (`[{"start": 0.0, "end": 2.98, "text": "…", "speaker":
//! "SPEAKER_1"}, …]`, as scripts save `result["segments"]` or a diarized transcript) is read as
//! `segments`. In such a list a `duration` stands for a missing `end` (youtube-transcript-api's
//! JSON: `{"text": "…", "start": 1.54, "duration": 4.16}`), `speaker_name` and `word` stand for
//! a missing `speaker` and `text` (Speechmatics' `asr_metrics` diarization reference, one object
//! per word: `{"speaker_name": "spk1", "word": "hello", "start": 0.0, "duration": 3.0}`), and a list in subsrt's shape (a
//! JavaScript caption library: every segment with its `"type": "caption"`, its `content`, or a
//! `duration` equal to its length) whose times are whole numbers with a median length of 100 or
//! more is in milliseconds, each with a note; whole numbers alone stay seconds (a list of
//! chapters, of long turns). A segment with blank `text` and no words is a caption that shows
//! nothing, skipped with a `skipped` warning counting them, when it gives a `duration` or, with
//! no speaker, stands among segments with text; a diarization list without text keeps its
//! turns.
//!
//! # Writing
//!
//! One segment per track with `start`, `end` (exact decimal seconds), `text` (the track's text,
//! or its words joined), `speaker` and `words` (`word`, `start`, `end`, `score`, `speaker`), plus
//! the flat `word_segments` list, so WhisperX tooling reads it and reading it back gives the same
//! tracks and speakers. WhisperX holds one recording and no speaker list: speakers without
//! tracks and the declared extent are not written (a warning names lost speakers).

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::Write;

use serde::Deserialize;
use serde_json::Value;

use crate::error::{Error, Result, Warning, WarningKind};
use crate::format::json::{
    confidence_json, is_list, label, quote, report_nan, scan, seconds, warn, Pos, MAX_WORD_GAP,
    UNKNOWN_SPEAKER,
};
use crate::format::webvtt::is_sound_only;
use crate::format::ReadContext;
use crate::model::{Content, Corpus, Segment, TranscriptBuilder, Word};
use crate::time::Time;

use crate::format::{Format, FormatSpec};

/// What the format registry knows of this format (see [`FormatSpec`]); JSON content is told apart
/// in [`crate::format::json`].
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::WhisperX,
    name: "whisperx",
    aliases: &["whisper"],
    extension: "json",
    detected_by: &[],
    read: Ok(read),
    write: Some(write),
    json: true,
    many_recordings: false,
    paragraphs: false,
    sniff: &[],
};

#[derive(Deserialize)]
struct Doc {
    #[serde(default)]
    segments: Option<Vec<SegmentJ>>,
    /// The audio's length in seconds (OpenAI's `verbose_json` and whisper.cpp's server write it);
    /// anything but a number is ignored.
    #[serde(default)]
    duration: Option<Value>,
}

/// `word_segments`, parsed only when `segments` is absent or empty (it repeats their words);
/// OpenAI's `words` (`verbose_json` with `timestamp_granularities=["word"]` alone, which has
/// no `segments`) is read the same way.
#[derive(Deserialize)]
struct FlatDoc {
    #[serde(default)]
    word_segments: Option<Vec<WordJ>>,
    #[serde(default)]
    words: Option<Vec<WordJ>>,
}

#[derive(Deserialize)]
struct SegmentJ {
    #[serde(default)]
    start: Option<f64>,
    #[serde(default)]
    end: Option<f64>,
    /// The length, in a bare list that gives it instead of `end` (youtube-transcript-api's
    /// `{"text", "start", "duration"}`); a segment's `end` wins over it.
    #[serde(default)]
    duration: Option<Value>,
    #[serde(default)]
    text: Option<String>,
    /// subsrt's `"type": "caption"`, read only to recognise its lists (whose times are
    /// milliseconds).
    #[serde(default, rename = "type")]
    kind: Option<Value>,
    /// subsrt's `content` (the caption with its markup), read only to recognise its lists.
    #[serde(default)]
    content: Option<Value>,
    #[serde(default)]
    speaker: Option<Value>,
    /// The speaker in a bare list of words that names it so (Speechmatics' `asr_metrics`
    /// diarization reference: `{"speaker_name", "word", "start", "duration"}`); read when there
    /// is no `speaker`.
    #[serde(default)]
    speaker_name: Option<Value>,
    /// The text in such a list, read when there is no `text`.
    #[serde(default)]
    word: Option<String>,
    #[serde(default)]
    words: Option<Vec<WordJ>>,
    /// Where each of `words` stands when they were taken from OpenAI's top-level `words` (see
    /// [`words_into_segments`]); `None` when they are the segment's own.
    #[serde(skip)]
    word_positions: Option<Vec<Option<Pos>>>,
}

#[derive(Deserialize)]
struct WordJ {
    #[serde(default)]
    word: Option<String>,
    /// whisper-timestamped's name for the word (read when `word` is absent).
    #[serde(default)]
    text: Option<String>,
    #[serde(default)]
    start: Option<f64>,
    #[serde(default)]
    end: Option<f64>,
    /// WhisperX's alignment score; Whisper itself (and whisper.cpp) calls it `probability`.
    #[serde(default, alias = "probability")]
    score: Option<f64>,
    /// whisper-timestamped's name for the score (read when there is no `score`).
    #[serde(default)]
    confidence: Option<f64>,
    #[serde(default)]
    speaker: Option<Value>,
}

impl WordJ {
    /// The word as written: `word`, else whisper-timestamped's `text`.
    fn written(&self) -> Option<&str> {
        self.word.as_deref().or(self.text.as_deref())
    }
}

const TRACKED: [&str; 4] = ["segments", "segments/words", "word_segments", "words"];
/// The same paths in a bare list of segments (which has no top-level `words`).
const TRACKED_LIST: [&str; 4] = ["", "words", "word_segments", "\u{0}"];
const P_SEGMENT: usize = 0;
const P_WORD: usize = 1;
const P_FLAT_WORD: usize = 2;
const P_OPENAI_WORD: usize = 3;

/// A word read, with its speaker label.
struct ReadWord {
    word: Word,
    speaker: Option<String>,
}

impl ReadWord {
    fn times(&self) -> Option<(Time, Time)> {
        Some((self.word.start?, self.word.end?))
    }
}

/// Words of one speaker in a row.
struct Run {
    speaker: Option<String>,
    words: Vec<Word>,
    span: Option<(Time, Time)>,
}

impl Run {
    fn new(speaker: Option<String>) -> Run {
        Run { speaker, words: Vec::new(), span: None }
    }

    fn push(&mut self, w: ReadWord) {
        if let Some((s, e)) = w.times() {
            self.span = Some(match self.span {
                Some((a, b)) => (a.min(s), b.max(e)),
                None => (s, e),
            });
        }
        self.words.push(w.word);
    }
}

/// Counts of what was repaired across the file, reported once at the end.
#[derive(Default)]
struct Tally {
    untimed: usize,
    first_untimed: Option<Pos>,
}

fn read_word(
    ctx: &ReadContext<'_>,
    w: WordJ,
    pos: Option<Pos>,
    tally: &mut Tally,
) -> Result<ReadWord> {
    let start = w.start.map(|s| seconds(ctx, s, "word start", pos)).transpose()?;
    let end = w.end.map(|s| seconds(ctx, s, "word end", pos)).transpose()?;
    if start.is_none() || end.is_none() {
        tally.untimed += 1;
        tally.first_untimed = tally.first_untimed.or(pos);
    }
    Ok(ReadWord {
        word: Word {
            text: w.word.or(w.text).unwrap_or_default(),
            start,
            end,
            confidence: w.score.or(w.confidence),
        },
        speaker: label(&w.speaker),
    })
}

/// Whether a segment's words are Whisper's tokens: some begin with a space, and together,
/// as written, they are the segment's text (WhisperX's words are words, without spaces).
fn whisper_tokens(seg: &SegmentJ) -> bool {
    let (Some(text), Some(words)) = (&seg.text, &seg.words) else { return false };
    let texts = || words.iter().map(|w| w.written().unwrap_or(""));
    texts().any(|t| t.starts_with(char::is_whitespace)) && texts().collect::<String>() == *text
}

/// Joins the pieces of Whisper's words. whisper.cpp and OpenAI's `verbose_json` give Whisper's
/// tokens as words: a word begins with a space, and a piece without one continues the word
/// before it (contractions and punctuation), so that counting pieces would count `that's` as
/// two words:
///
/// ```text
/// pieces  " that" "'s" " where" " we" " don" "'t" "."
/// words   " that's"    " where" " we" " don't."
/// ```
///
/// A joined word spans its pieces and keeps the lower confidence.
fn join_pieces(words: Vec<ReadWord>) -> Vec<ReadWord> {
    let mut out: Vec<ReadWord> = Vec::with_capacity(words.len());
    for w in words {
        // A piece continues the word before when it starts with punctuation or an apostrophe,
        // or with a letter of a script written with spaces; in scripts without spaces
        // (Chinese, Japanese, Thai) every token is a word of its own.
        let piece = w
            .word
            .text
            .chars()
            .next()
            .is_some_and(|c| !c.is_whitespace() && (!c.is_alphanumeric() || spaced_script(c)));
        match out.last_mut() {
            Some(prev) if piece => {
                prev.word.text.push_str(&w.word.text);
                prev.word.start = prev.word.start.or(w.word.start);
                prev.word.end = w.word.end.or(prev.word.end);
                prev.word.confidence = match (prev.word.confidence, w.word.confidence) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
                if prev.speaker.is_none() {
                    prev.speaker = w.speaker;
                }
            }
            _ => out.push(w),
        }
    }
    out
}

/// Whether `c` belongs to a script written with spaces between words (Latin, Greek,
/// Cyrillic, Armenian), where a token that starts with a letter continues a word.
fn spaced_script(c: char) -> bool {
    (c as u32) < 0x0590
}

/// Cuts a segment's words into runs at each timed word whose speaker differs from the run in
/// progress (see the module documentation).
fn runs(words: Vec<ReadWord>) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    for w in words {
        let boundary = w.times().and(w.speaker.clone());
        match (runs.last_mut(), boundary) {
            (Some(r), Some(sp)) if r.speaker.is_none() => r.speaker = Some(sp),
            (Some(r), Some(sp)) if r.speaker.as_deref() != Some(sp.as_str()) => {
                runs.push(Run::new(Some(sp)));
            }
            (None, sp) => runs.push(Run::new(sp)),
            _ => {}
        }
        if let Some(r) = runs.last_mut() {
            r.push(w);
        }
    }
    runs
}

/// The median length of a bare list's segments when their times are milliseconds, as subsrt
/// (a JavaScript caption library) writes them: `{"type": "caption", "index": 1, "start": 599,
/// "end": 4160, "duration": 3561, "content": "…", "text": "…"}`. Every segment must show
/// subsrt's shape — its `"type": "caption"`, its `content`, or a `duration` equal to its end
/// minus its start — with every start and end a whole number, no word lists (whose times
/// would need the same reading), and the median length at least 100. Whole numbers alone are
/// no evidence: a list of chapters or of long diarization turns in whole seconds has them too.
fn millisecond_segments(segments: &[SegmentJ]) -> Option<f64> {
    let mut lengths = Vec::with_capacity(segments.len());
    for seg in segments {
        let (start, end) = (seg.start?, seg.end?);
        if start.fract() != 0.0 || end.fract() != 0.0 || seg.words.is_some() {
            return None;
        }
        let caption = seg.kind.as_ref().and_then(Value::as_str) == Some("caption");
        let content = seg.content.is_some();
        let duration = seg.duration.as_ref().and_then(Value::as_f64) == Some(end - start);
        if !(caption || content || duration) {
            return None;
        }
        lengths.push(end - start);
    }
    lengths.sort_by(f64::total_cmp);
    let median = *lengths.get(lengths.len() / 2)?;
    (median >= 100.0).then_some(median)
}

/// Reads WhisperX JSON into one recording (named by the read options).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let list = is_list(text);
    let scanned = scan(text, if list { &TRACKED_LIST } else { &TRACKED }, true, ctx)?;
    report_nan(ctx, &scanned)?;
    let doc: Doc = if list {
        Doc { segments: Some(scanned.parse(ctx)?), duration: None }
    } else {
        scanned.parse(ctx)?
    };
    let mut b = TranscriptBuilder::new();
    if let Some(d) = doc.duration.as_ref().and_then(Value::as_f64).filter(|d| *d > 0.0) {
        let end = seconds(ctx, d, "duration", None)?;
        b.extent(Segment::new(Time::ZERO, end));
    }
    let mut tally = Tally::default();
    let had_segments = doc.segments.is_some();
    let mut segments = doc.segments.unwrap_or_default();
    if !list && !segments.is_empty() && segments.iter().all(|s| s.words.is_none()) {
        // OpenAI's `verbose_json` asked for both granularities: the words are listed apart.
        let flat: FlatDoc = scanned.parse(ctx)?;
        if let Some(words) = flat.words.filter(|w| !w.is_empty()) {
            words_into_segments(&scanned, words, &mut segments);
        }
    }
    if segments.is_empty() && !list {
        let flat: FlatDoc = scanned.parse(ctx)?;
        // OpenAI's top-level words carry `word`; another service's list of words (ElevenLabs'
        // `text`, …) does not make its JSON a Whisper transcript.
        let openai_words =
            flat.words.as_ref().is_some_and(|w| w.is_empty() || w.iter().any(|x| x.word.is_some()));
        if !had_segments && flat.word_segments.is_none() && !openai_words {
            // Another service's JSON, or a wrapper around one: not an empty transcript.
            return Err(Error::invalid(
                "no `segments`, `word_segments` or `words` list: this JSON is not a WhisperX (or Whisper) transcript; name its format with --from, or leave --from out to detect it",
            ));
        }
        if let Some(words) = flat.word_segments.filter(|w| !w.is_empty()) {
            read_flat_words(
                ctx,
                &scanned,
                (P_FLAT_WORD, "word_segments"),
                words,
                &mut b,
                &mut tally,
            )?;
        } else if let Some(words) = flat.words.filter(|w| !w.is_empty()) {
            read_flat_words(ctx, &scanned, (P_OPENAI_WORD, "words"), words, &mut b, &mut tally)?;
        }
    }
    if list {
        let mut lengths = 0usize;
        for seg in &mut segments {
            if seg.speaker.is_none() {
                seg.speaker = seg.speaker_name.take();
            }
            if seg.text.is_none() {
                seg.text = seg.word.take();
            }
            let length = seg.duration.as_ref().and_then(Value::as_f64);
            if let (Some(start), None, Some(length)) = (seg.start, seg.end, length) {
                seg.end = Some(start + length);
                lengths += 1;
            }
        }
        if lengths > 0 {
            warn(
                ctx,
                WarningKind::Note,
                scanned.pos(P_SEGMENT, 0),
                format!("{lengths} segment(s) give a `duration` instead of an `end` (youtube-transcript-api's `text`, `start`, `duration`): each ends at its start plus its duration"),
            )?;
        }
        if let Some(median) = millisecond_segments(&segments) {
            for seg in &mut segments {
                seg.start = seg.start.map(|t| t / 1000.0);
                seg.end = seg.end.map(|t| t / 1000.0);
            }
            warn(
                ctx,
                WarningKind::Note,
                scanned.pos(P_SEGMENT, 0),
                format!("the segments have subsrt's shape (`\"type\": \"caption\"`, `content`, or a `duration` equal to end minus start) and whole-number times of median length {median}: read as milliseconds (as subsrt, a JavaScript caption library, writes them), not seconds"),
            )?;
        }
    }
    let undiarized = !segments.is_empty()
        && segments.iter().all(|s| {
            label(&s.speaker).is_none()
                && s.words.iter().flatten().all(|w| label(&w.speaker).is_none())
        });
    if undiarized {
        warn(
            ctx,
            WarningKind::MissingSpeaker,
            scanned.pos(P_SEGMENT, 0),
            format!("no segment or word has a speaker (Whisper alone does not tell speakers apart; WhisperX does with --diarize); all speech is given to the placeholder speaker {UNKNOWN_SPEAKER:?}"),
        )?;
    }
    // Segments that hold no one's speech: a caption line with no text, or only a sound
    // description (`[Music]`, which Whisper writes for music) with no words. A bare list's
    // segment is a caption line with no text when its `text` is blank and it has no words, and
    // either gives a `duration` (youtube-transcript-api's) or, with no speaker, stands in a list
    // of captions (some segment has text); a diarization list without text keeps its turns.
    let captions =
        list && segments.iter().any(|s| s.text.as_deref().is_some_and(|t| !t.trim().is_empty()));
    let blank_caption = |seg: &SegmentJ| {
        list && seg.words.is_none()
            && seg.text.as_deref().is_some_and(|t| t.trim().is_empty())
            && (seg.duration.is_some() || captions && label(&seg.speaker).is_none())
    };
    let no_speech = |seg: &SegmentJ| {
        let no_words = seg.words.as_ref().is_none_or(Vec::is_empty);
        blank_caption(seg) || no_words && is_sound_only(seg.text.as_deref().unwrap_or(""))
    };
    let mut blanks: Option<(usize, Option<Pos>)> = None;
    let mut sounds: Option<(usize, Option<Pos>)> = None;
    let mut n_word = 0usize;
    for (k, seg) in segments.into_iter().enumerate() {
        let pos = scanned.pos(P_SEGMENT, k);
        if no_speech(&seg) {
            if blank_caption(&seg) {
                blanks.get_or_insert((0, pos)).0 += 1;
            } else if is_sound_only(seg.text.as_deref().unwrap_or("")) {
                sounds.get_or_insert((0, pos)).0 += 1;
            }
            continue;
        }
        let tokens = whisper_tokens(&seg);
        let mut words = Vec::new();
        let positions = seg.word_positions.unwrap_or_default();
        for (i, w) in seg.words.unwrap_or_default().into_iter().enumerate() {
            let wpos = match positions.get(i) {
                Some(p) => *p,
                None => {
                    n_word += 1;
                    scanned.pos(P_WORD, n_word - 1)
                }
            };
            words.push(read_word(ctx, w, wpos, &mut tally)?);
        }
        if tokens {
            words = join_pieces(words);
        }
        let word_speakers: BTreeSet<String> =
            words.iter().filter_map(|w| w.speaker.clone()).collect();
        let seg_speaker = label(&seg.speaker);
        let mut runs = runs(words);
        if runs.len() >= 2 {
            warn(
                ctx,
                WarningKind::Note,
                pos,
                format!(
                    "segment {k}: its words name {} speakers; split into {} tracks at the speaker changes",
                    word_speakers.len(),
                    runs.len()
                ),
            )?;
            for run in runs {
                // Every run after a split starts at a timed word with a speaker.
                let (Some(speaker), Some((start, end))) = (run.speaker, run.span) else {
                    continue;
                };
                let content = Content { text: None, words: run.words };
                if let Some(s) =
                    ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))?
                {
                    b.add(s, &speaker, Some(content));
                }
            }
            continue;
        }
        let run = runs.pop();
        let run_speaker = run.as_ref().and_then(|r| r.speaker.clone());
        let speaker = match seg_speaker.or(run_speaker) {
            Some(s) => s,
            None => {
                if !undiarized {
                    warn(
                        ctx,
                        WarningKind::MissingSpeaker,
                        pos,
                        format!("segment {k} has no speaker; given to the placeholder speaker {UNKNOWN_SPEAKER:?}"),
                    )?;
                }
                UNKNOWN_SPEAKER.to_owned()
            }
        };
        let others: Vec<&String> = word_speakers.iter().filter(|s| **s != speaker).collect();
        if !others.is_empty() {
            warn(
                ctx,
                WarningKind::Note,
                pos,
                format!(
                    "segment {k}: words name {others:?} but the words that differ have no times, or agree with each other; the track keeps the speaker {speaker:?}"
                ),
            )?;
        }
        let (words, word_span) = run.map_or((Vec::new(), None), |r| (r.words, r.span));
        let start = seg.start.map(|s| seconds(ctx, s, "segment start", pos)).transpose()?;
        let end = seg.end.map(|s| seconds(ctx, s, "segment end", pos)).transpose()?;
        let (start, end) = match (start, end, word_span) {
            (Some(s), Some(e), _) => (s, e),
            (s, e, Some((ws, we))) => {
                let (s, e) = (s.unwrap_or(ws), e.unwrap_or(we));
                warn(
                    ctx,
                    WarningKind::MissingTime,
                    pos,
                    format!("segment {k} lacks a start or end (NaN or missing); taken from its words: [{s}, {e})"),
                )?;
                (s, e)
            }
            _ => {
                warn(
                    ctx,
                    WarningKind::MissingTime,
                    pos,
                    format!("segment {k} lacks a start or end and has no timed word; dropped"),
                )?;
                continue;
            }
        };
        let content = Content { text: seg.text, words };
        if let Some(s) = ctx.segment(start, end, pos.map_or(0, |p| p.0), pos.map(|p| p.1))? {
            b.add(s, &speaker, Some(content));
        }
    }
    if let Some((count, pos)) = blanks {
        warn(
            ctx,
            WarningKind::Skipped,
            pos,
            format!("{count} segment(s) with no text skipped: a caption that shows nothing marks no one's speech"),
        )?;
    }
    if let Some((count, pos)) = sounds {
        warn(
            ctx,
            WarningKind::Skipped,
            pos,
            format!("{count} segment(s) holding only a sound description (`[Music]`, `[Applause]`, `♪`) and no words skipped: no one's speech"),
        )?;
    }
    if tally.untimed > 0 {
        warn(
            ctx,
            WarningKind::MissingTime,
            tally.first_untimed,
            format!(
                "{} word(s) without start or end (WhisperX could not align them); kept without times",
                tally.untimed
            ),
        )?;
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

/// Gives OpenAI's top-level `words` (`verbose_json` with both word and segment times, whose
/// segments hold no words) to the segments: each word to the last segment starting at or before
/// it (the first segment for a word before them all), a word without a start to the segment of
/// the word before it.
fn words_into_segments(
    scanned: &crate::format::json::Scanned<'_>,
    words: Vec<WordJ>,
    segments: &mut [SegmentJ],
) {
    let starts: Vec<Option<f64>> = segments.iter().map(|s| s.start).collect();
    let mut at = 0usize;
    for (k, w) in words.into_iter().enumerate() {
        if let Some(t) = w.start.filter(|t| t.is_finite()) {
            at = starts.iter().rposition(|s| s.is_some_and(|s| s <= t)).unwrap_or(0);
        }
        let seg = &mut segments[at];
        seg.words.get_or_insert_with(Vec::new).push(w);
        seg.word_positions.get_or_insert_with(Vec::new).push(scanned.pos(P_OPENAI_WORD, k));
    }
}

/// Builds tracks from a flat list of words alone (`word_segments`, or OpenAI's `words`, named by
/// `list`: its tracked path and its key): a new track at each speaker change or pause longer
/// than 0.8 s; words without times join the track in progress.
fn read_flat_words(
    ctx: &mut ReadContext<'_>,
    scanned: &crate::format::json::Scanned<'_>,
    list: (usize, &str),
    words: Vec<WordJ>,
    b: &mut TranscriptBuilder,
    tally: &mut Tally,
) -> Result<()> {
    let mut runs: Vec<Run> = Vec::new();
    let mut missing = 0usize;
    let mut first_missing = None;
    for (k, w) in words.into_iter().enumerate() {
        let pos = scanned.pos(list.0, k);
        let mut w = read_word(ctx, w, pos, tally)?;
        let Some((start, _)) = w.times() else {
            match runs.last_mut() {
                Some(r) => r.push(w),
                None => {
                    let mut r = Run::new(None);
                    r.push(w);
                    runs.push(r);
                }
            }
            continue;
        };
        if w.speaker.is_none() {
            missing += 1;
            first_missing = first_missing.or(pos);
            w.speaker = Some(UNKNOWN_SPEAKER.to_owned());
        }
        match runs.last_mut() {
            Some(r) if r.span.is_none() => {
                r.speaker.clone_from(&w.speaker);
                r.push(w);
            }
            Some(r)
                if r.speaker == w.speaker
                    && r.span.is_some_and(|(_, e)| {
                        start.micros().saturating_sub(e.micros()) <= MAX_WORD_GAP.micros()
                    }) =>
            {
                r.push(w)
            }
            _ => {
                let mut r = Run::new(w.speaker.clone());
                r.push(w);
                runs.push(r);
            }
        }
    }
    if missing > 0 {
        warn(
            ctx,
            WarningKind::MissingSpeaker,
            first_missing,
            format!("{missing} word(s) of {} have no speaker; given to the placeholder speaker {UNKNOWN_SPEAKER:?}", list.1),
        )?;
    }
    for run in runs {
        let speaker = run.speaker.unwrap_or_else(|| UNKNOWN_SPEAKER.to_owned());
        let Some((start, end)) = run.span else {
            warn(
                ctx,
                WarningKind::MissingTime,
                None,
                format!("{} word(s) of {} have no times at all; dropped", run.words.len(), list.1),
            )?;
            continue;
        };
        let content = Content { text: None, words: run.words };
        if let Some(s) = ctx.segment(start, end, 0, None)? {
            b.add(s, &speaker, Some(content));
        }
    }
    Ok(())
}

fn write_word(buf: &mut String, w: &Word, speaker: &str, warnings: &mut Vec<Warning>) {
    let _ = write!(buf, "{{\"word\": {}", quote(&w.text));
    if let Some(s) = w.start {
        let _ = write!(buf, ", \"start\": {s}");
    }
    if let Some(e) = w.end {
        let _ = write!(buf, ", \"end\": {e}");
    }
    if let Some(c) = w.confidence.and_then(|c| confidence_json(c, warnings)) {
        let _ = write!(buf, ", \"score\": {c}");
    }
    let _ = write!(buf, ", \"speaker\": {speaker}}}");
}

/// Writes WhisperX-shaped JSON: one segment per track, then `word_segments`.
pub fn write(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    if corpus.len() > 1 {
        return Err(Error::unsupported(format!(
            "WhisperX JSON holds one recording and the input has {}",
            corpus.len()
        )));
    }
    let mut warnings = Vec::new();
    let mut buf = String::from("{\"segments\": [");
    let mut flat = String::new();
    let mut n_flat = 0usize;
    if let Some((id, t)) = corpus.iter().next() {
        let a = t.annotation();
        let silent: Vec<&str> = a
            .speakers()
            .iter()
            .filter(|(id, _)| !a.tracks().iter().any(|tr| tr.speaker == *id))
            .map(|(_, n)| n)
            .collect();
        if !silent.is_empty() {
            warnings.push(Warning::new(
                WarningKind::Note,
                format!("{id}: speakers without speech {silent:?} are not written (WhisperX JSON has no speaker list)"),
            ));
        }
        for (k, u) in t.utterances().enumerate() {
            let speaker = quote(u.speaker_name);
            let text = u.content.map(Content::display_text).unwrap_or_default();
            let _ = write!(
                buf,
                "{}\n  {{\"start\": {}, \"end\": {}, \"text\": {}, \"speaker\": {speaker}, \"words\": [",
                if k > 0 { "," } else { "" },
                u.segment.start(),
                u.segment.end(),
                quote(&text)
            );
            let words = u.content.map_or(&[][..], |c| c.words.as_slice());
            for (j, w) in words.iter().enumerate() {
                buf.push_str(if j > 0 { ",\n    " } else { "\n    " });
                write_word(&mut buf, w, &speaker, &mut warnings);
                flat.push_str(if n_flat > 0 { ",\n  " } else { "\n  " });
                // The second copy repeats the warnings of the first; drop them.
                write_word(&mut flat, w, &speaker, &mut Vec::new());
                n_flat += 1;
            }
            if !words.is_empty() {
                buf.push_str("\n  ");
            }
            buf.push_str("]}");
            if buf.len() > 1 << 16 {
                out.write_all(buf.as_bytes())?;
                buf.clear();
            }
        }
    }
    buf.push_str(if buf.ends_with('[') {
        "],\n\"word_segments\": ["
    } else {
        "\n],\n\"word_segments\": ["
    });
    out.write_all(buf.as_bytes())?;
    out.write_all(flat.as_bytes())?;
    out.write_all(if n_flat > 0 { b"\n]}\n" } else { b"]}\n" })?;
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, Format, ReadOptions};
    use crate::model::Segment;

    fn read_ok(text: &str) -> crate::format::ReadOutput {
        read_str(text, Format::WhisperX, &ReadOptions::default()).unwrap()
    }

    /// whisper-timestamped's `text` and `confidence` are read only where WhisperX's `word` and
    /// `score` are absent: a word with both keeps `word` and `score`.
    #[test]
    fn word_and_score_win_over_text_and_confidence() {
        let out = read_ok(
            r#"{"segments": [{"start": 0, "end": 1, "text": "hi there", "words": [
 {"word": "hi", "text": "HI", "start": 0, "end": 0.5, "score": 0.5, "confidence": 0.9},
 {"text": "there", "start": 0.5, "end": 1, "confidence": 0.25}]}]}"#,
        );
        let t = out.corpus.get("recording").unwrap();
        let words: Vec<(&str, Option<f64>)> = t
            .contents()
            .iter()
            .flatten()
            .flat_map(|c| c.words.iter().map(|w| (w.text.as_str(), w.confidence)))
            .collect();
        assert_eq!(words, [("hi", Some(0.5)), ("there", Some(0.25))]);
    }

    fn tracks(out: &crate::format::ReadOutput) -> Vec<(i64, i64, String)> {
        let t = out.corpus.get("recording").unwrap();
        t.utterances()
            .map(|u| {
                (u.segment.start().micros(), u.segment.end().micros(), u.speaker_name.to_owned())
            })
            .collect()
    }

    #[test]
    fn reads_the_documented_example() {
        let out = read_ok(
            r#"{"segments":[{"start":0.0,"end":4.21,"text":" So the plan is to ship on Friday","speaker":"SPEAKER_00",
  "words":[{"word":"So","start":0.0,"end":0.18,"score":0.91,"speaker":"SPEAKER_00"},
           {"word":"Friday","start":3.7,"end":4.21,"score":0.88,"speaker":"SPEAKER_00"}]},
 {"start":3.95,"end":6.25,"text":" Friday won't work for us.","speaker":"SPEAKER_01",
  "words":[{"word":"Friday","start":3.95,"end":4.4,"score":0.8,"speaker":"SPEAKER_01"},
           {"word":"5pm"}]}],
 "word_segments":[], "language":"en"}"#,
        );
        assert_eq!(
            tracks(&out),
            vec![
                (0, 4_210_000, "SPEAKER_00".to_owned()),
                (3_950_000, 6_250_000, "SPEAKER_01".to_owned())
            ]
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::MissingTime, Some(6), Some(12))]);
        let t = out.corpus.get("recording").unwrap();
        let c = t.contents()[1].as_ref().unwrap();
        assert_eq!(c.text.as_deref(), Some(" Friday won't work for us."));
        assert_eq!(c.words[1], Word::untimed("5pm"));
        assert_eq!(c.words[0].confidence, Some(0.8));
    }

    #[test]
    fn splits_segments_at_timed_speaker_changes() {
        let out = read_ok(
            r#"{"segments":[{"start":0.0,"end":5.0,"text":"a b c d","speaker":"S0","words":[
              {"word":"a","start":0.1,"end":1.0,"speaker":"S0"},
              {"word":"b","start":1.2,"end":2.0,"speaker":"S1"},
              {"word":"5","speaker":"S0"},
              {"word":"c","start":2.5,"end":3.0},
              {"word":"d","start":3.5,"end":4.5,"speaker":"S0"}]}]}"#,
        );
        assert_eq!(
            tracks(&out),
            vec![
                (100_000, 1_000_000, "S0".to_owned()),
                (1_200_000, 3_000_000, "S1".to_owned()),
                (3_500_000, 4_500_000, "S0".to_owned())
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        let words: Vec<Vec<&str>> = t
            .contents()
            .iter()
            .map(|c| c.as_ref().unwrap().words.iter().map(|w| w.text.as_str()).collect())
            .collect();
        assert_eq!(words, vec![vec!["a"], vec!["b", "5", "c"], vec!["d"]]);
        let w: Vec<_> = out.warnings.iter().map(|w| w.kind).collect();
        assert_eq!(w, vec![WarningKind::Note, WarningKind::MissingTime]);
    }

    #[test]
    fn untimed_disagreeing_words_cannot_split() {
        let out = read_ok(
            r#"{"segments":[{"start":1,"end":2,"text":"x","speaker":"S0","words":[{"word":"x","speaker":"S1"}]}]}"#,
        );
        assert_eq!(tracks(&out), vec![(1_000_000, 2_000_000, "S0".to_owned())]);
        let w: Vec<_> = out.warnings.iter().map(|w| w.kind).collect();
        assert_eq!(w, vec![WarningKind::Note, WarningKind::MissingTime]);
    }

    #[test]
    fn missing_speakers_and_times() {
        let out = read_ok(
            "{\"segments\": [\n{\"start\": NaN, \"end\": 2.0, \"text\": \"a\", \"speaker\": \"S0\", \"words\": [{\"word\": \"a\", \"start\": 1.5, \"end\": 1.9}]},\n{\"start\": 3, \"end\": 4, \"text\": \"b\"},\n{\"start\": NaN, \"end\": NaN, \"text\": \"c\", \"speaker\": \"S0\"}]}",
        );
        assert_eq!(
            tracks(&out),
            vec![
                (1_500_000, 2_000_000, "S0".to_owned()),
                (3_000_000, 4_000_000, UNKNOWN_SPEAKER.to_owned())
            ]
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::Repaired, Some(2), Some(11)),
                (WarningKind::MissingTime, Some(2), Some(1)),
                (WarningKind::MissingSpeaker, Some(3), Some(1)),
                (WarningKind::MissingTime, Some(4), Some(1)),
            ]
        );
        assert!(out.warnings[0].message.starts_with("3 bare NaN"), "{}", out.warnings[0]);
    }

    #[test]
    fn whisper_tokens_are_joined_into_words_and_the_duration_is_the_extent() {
        // whisper.cpp's server in OpenAI's `verbose_json` shape: words are Whisper's tokens.
        let text = r#"{"task":"transcribe","language":"en","duration":17.98,"text":" And that's it.",
          "segments":[{"id":0,"start":0.0,"end":2.0,"text":" And that's it.","words":[
            {"word":" And","start":0.0,"end":0.37,"probability":0.2},
            {"word":" that","start":1.0,"end":1.1,"probability":0.9},
            {"word":"'s","start":1.1,"end":1.32,"probability":0.8},
            {"word":" it","start":1.36,"end":1.9,"probability":0.99},
            {"word":".","start":1.9,"end":2.0,"probability":0.7}]}]}"#;
        let out = read_ok(text);
        let t = out.corpus.get("recording").unwrap();
        let u = t.utterances().next().unwrap();
        let words: Vec<_> = u
            .content
            .unwrap()
            .words
            .iter()
            .map(|w| {
                (w.text.as_str(), w.start.unwrap().micros(), w.end.unwrap().micros(), w.confidence)
            })
            .collect();
        assert_eq!(
            words,
            vec![
                (" And", 0, 370_000, Some(0.2)),
                (" that's", 1_000_000, 1_320_000, Some(0.8)),
                (" it.", 1_360_000, 2_000_000, Some(0.7)),
            ]
        );
        assert_eq!(t.declared_extent().map(|e| e.end().micros()), Some(17_980_000));
        let w = &out.warnings[0];
        assert!(w.message.contains("Whisper alone does not tell speakers apart"), "{}", w.message);
        // In a script without spaces every token is a word; punctuation still joins. A
        // `duration` that is no number is ignored.
        let zh = r#"{"duration":"n/a","segments":[{"start":0,"end":2,"text":" 我们走吧。","words":[
            {"word":" 我","start":0.0,"end":0.5},{"word":"们","start":0.5,"end":1.0},
            {"word":"走","start":1.0,"end":1.5},{"word":"吧","start":1.5,"end":1.9},{"word":"。","start":1.9,"end":2.0}]}]}"#;
        let out = read_ok(zh);
        let t = out.corpus.get("recording").unwrap();
        let words: Vec<String> = t
            .utterances()
            .next()
            .unwrap()
            .content
            .unwrap()
            .words
            .iter()
            .map(|w| w.text.clone())
            .collect();
        assert_eq!(words, [" 我", "们", "走", "吧。"]);
        assert_eq!(t.declared_extent(), None);
        // WhisperX's words carry no leading space: they are words already, never joined.
        let x = r#"{"segments":[{"start":0,"end":1,"speaker":"A","words":[{"word":"that","start":0,"end":0.5},{"word":"'s","start":0.5,"end":1}]}]}"#;
        let out = read_ok(x);
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.utterances().next().unwrap().content.unwrap().words.len(), 2);
    }

    #[test]
    fn undiarized_output_gets_one_warning() {
        let out = read_ok(
            r#"{"segments":[{"start":0,"end":1,"text":"a"},{"start":2,"end":3,"text":"b"}]}"#,
        );
        assert_eq!(
            tracks(&out),
            vec![
                (0, 1_000_000, "unknown".to_owned()),
                (2_000_000, 3_000_000, "unknown".to_owned())
            ]
        );
        assert_eq!(out.warnings.len(), 1);
        assert_eq!(out.warnings[0].kind, WarningKind::MissingSpeaker);
        // Output without diarization is valid WhisperX: `--strict` keeps the note a warning.
        let strict = ReadOptions { strict: true, ..Default::default() };
        let out =
            read_str(r#"{"segments":[{"start":0,"end":1}]}"#, Format::WhisperX, &strict).unwrap();
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::MissingSpeaker, Some(1), Some(14))]);
    }

    /// OpenAI's `verbose_json` asked for word and segment times: the words, listed apart, are
    /// given to their segments.
    #[test]
    fn openai_words_join_their_segments() {
        let text = r#"{"task": "transcribe", "language": "english", "duration": 8.47, "text": "The beach. People swim.",
 "segments": [
  {"id": 0, "seek": 0, "start": 0.0, "end": 1.0, "text": " The beach.", "tokens": [50364, 440], "temperature": 0.0, "avg_logprob": -0.28, "compression_ratio": 1.2, "no_speech_prob": 0.01},
  {"id": 1, "seek": 0, "start": 3.0, "end": 4.5, "text": " People swim.", "tokens": [1], "temperature": 0.0, "avg_logprob": -0.28, "compression_ratio": 1.2, "no_speech_prob": 0.01}],
 "words": [
  {"word": "The", "start": 0.0, "end": 0.3},
  {"word": "beach", "start": 0.3, "end": 1.0},
  {"word": "People", "start": 3.0, "end": 3.6},
  {"word": "swim", "start": 3.6, "end": 4.5}]}"#;
        let out = read_ok(text);
        assert_eq!(
            tracks(&out),
            vec![
                (0, 1_000_000, "unknown".to_owned()),
                (3_000_000, 4_500_000, "unknown".to_owned())
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        let words: Vec<Vec<(&str, i64, i64)>> = t
            .contents()
            .iter()
            .flatten()
            .map(|c| {
                c.words
                    .iter()
                    .map(|w| (w.text.as_str(), w.start.unwrap().micros(), w.end.unwrap().micros()))
                    .collect()
            })
            .collect();
        assert_eq!(
            words,
            vec![
                vec![("The", 0, 300_000), ("beach", 300_000, 1_000_000)],
                vec![("People", 3_000_000, 3_600_000), ("swim", 3_600_000, 4_500_000)]
            ]
        );
        let kinds: Vec<_> = out.warnings.iter().map(|w| w.kind).collect();
        assert_eq!(kinds, vec![WarningKind::MissingSpeaker]);
    }

    /// OpenAI's `verbose_json` asked for word times alone: `words` and no `segments`.
    #[test]
    fn openai_words_alone_make_tracks() {
        let text = r#"{"task": "transcribe", "language": "english", "duration": 8.47,
 "text": "The beach was popular. Yes.",
 "words": [
  {"word": "The", "start": 0.0, "end": 0.24},
  {"word": "beach", "start": 0.24, "end": 0.66},
  {"word": "was", "start": 0.66, "end": 0.9},
  {"word": "popular", "start": 1.0, "end": 1.4},
  {"word": "Yes", "start": 3.0, "end": 3.5}],
 "usage": {"type": "duration", "seconds": 9}}"#;
        assert_eq!(crate::format::sniff(text), Some(Format::WhisperX));
        let out = read_ok(text);
        assert_eq!(
            tracks(&out),
            vec![
                (0, 1_400_000, "unknown".to_owned()),
                (3_000_000, 3_500_000, "unknown".to_owned())
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        let words: Vec<&str> = t
            .contents()
            .iter()
            .flatten()
            .flat_map(|c| c.words.iter().map(|w| w.text.as_str()))
            .collect();
        assert_eq!(words, ["The", "beach", "was", "popular", "Yes"]);
        assert_eq!(
            out.warnings
                .iter()
                .map(|w| (w.kind, w.line, w.column, w.message.as_str()))
                .collect::<Vec<_>>(),
            vec![(
                WarningKind::MissingSpeaker,
                Some(4),
                Some(3),
                "5 word(s) of words have no speaker; given to the placeholder speaker \"unknown\""
            )]
        );
    }

    #[test]
    fn word_segments_alone_make_tracks() {
        let out = read_ok(
            r#"{"segments": [], "word_segments": [
              {"word":"a","start":0,"end":1,"speaker":"A"},{"word":"b","start":1.5,"end":2,"speaker":"A"},
              {"word":"c","start":3,"end":4,"speaker":"A"},{"word":"d","start":4,"end":5,"speaker":"B"}]}"#,
        );
        assert_eq!(
            tracks(&out),
            vec![
                (0, 2_000_000, "A".to_owned()),
                (3_000_000, 4_000_000, "A".to_owned()),
                (4_000_000, 5_000_000, "B".to_owned())
            ]
        );
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    }

    #[test]
    fn writes_segments_that_read_back() {
        let mut b = TranscriptBuilder::new();
        b.add(
            Segment::from_micros(0, 1_500_000).unwrap(),
            "SPEAKER_00",
            Some(Content {
                text: Some(" Hi there".into()),
                words: vec![
                    Word {
                        confidence: Some(0.5),
                        ..Word::timed("Hi", Time::from_micros(0), Time::from_micros(400_000))
                    },
                    Word::untimed("there"),
                ],
            }),
        );
        b.add(Segment::from_micros(1_000_000, 2_000_001).unwrap(), "SPEAKER_01", None);
        let corpus = Corpus::single("recording", b.build());
        let mut out = Vec::new();
        assert!(write(&corpus, &mut out).unwrap().is_empty());
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            r#"{"segments": [
  {"start": 0.000, "end": 1.500, "text": " Hi there", "speaker": "SPEAKER_00", "words": [
    {"word": "Hi", "start": 0.000, "end": 0.400, "score": 0.5, "speaker": "SPEAKER_00"},
    {"word": "there", "speaker": "SPEAKER_00"}
  ]},
  {"start": 1.000, "end": 2.000001, "text": "", "speaker": "SPEAKER_01", "words": []}
],
"word_segments": [
  {"word": "Hi", "start": 0.000, "end": 0.400, "score": 0.5, "speaker": "SPEAKER_00"},
  {"word": "there", "speaker": "SPEAKER_00"}
]}
"#
        );
        let back = read_ok(&text);
        assert_eq!(
            back.corpus.get("recording").unwrap().annotation(),
            corpus.get("recording").unwrap().annotation()
        );
        let mut empty = Vec::new();
        write(&Corpus::new(), &mut empty).unwrap();
        assert_eq!(
            String::from_utf8(empty).unwrap(),
            "{\"segments\": [],\n\"word_segments\": []}\n"
        );
    }

    /// A bare list of segments (a script's `json.dump(result["segments"])`).
    #[test]
    fn a_bare_list_of_segments() {
        let text = r#"[
  {"start": 0.0, "end": 2.98, "text": "كنت مليونير", "speaker": "SPEAKER_1"},
  {"start": 2.98, "end": 3.74, "text": "26 سنة", "speaker": "SPEAKER_0",
   "words": [{"word": "26", "start": 2.98, "end": 3.2}, {"word": "سنة", "start": 3.3, "end": 3.74}]}]"#;
        assert_eq!(crate::format::sniff(text), Some(Format::WhisperX));
        let out = read_str(text, Format::WhisperX, &ReadOptions::default()).unwrap();
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let t = out.corpus.get("recording").unwrap();
        let got: Vec<_> = t
            .utterances()
            .map(|u| {
                (u.segment.start().micros(), u.segment.end().micros(), u.speaker_name.to_owned())
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (0, 2_980_000, "SPEAKER_1".to_owned()),
                (2_980_000, 3_740_000, "SPEAKER_0".to_owned())
            ]
        );
        assert_eq!(t.contents()[1].as_ref().unwrap().words.len(), 2);
    }

    /// subsrt's JSON (a JavaScript caption library): a bare list whose times are whole
    /// milliseconds. Read as seconds it made a 21-second dialogue last 5.8 hours.
    #[test]
    fn a_bare_list_in_milliseconds() {
        let text = r#"[
  {"type": "caption", "index": 1, "start": 599, "end": 4160, "duration": 3561, "text": "Hi, my name is Alice"},
  {"type": "caption", "index": 2, "start": 4160, "end": 6770, "duration": 2610, "text": "and we're the owners"},
  {"type": "caption", "index": 3, "start": 6770, "end": 10880, "duration": 4110, "text": "Today we'll bake"}]"#;
        assert_eq!(crate::format::sniff(text), Some(Format::WhisperX));
        let out = read_str(text, Format::WhisperX, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let got: Vec<_> = t
            .utterances()
            .map(|u| (u.segment.start().micros(), u.segment.end().micros()))
            .collect();
        assert_eq!(
            got,
            vec![(599_000, 4_160_000), (4_160_000, 6_770_000), (6_770_000, 10_880_000)]
        );
        let notes: Vec<_> = out
            .warnings
            .iter()
            .filter(|w| w.kind == WarningKind::Note)
            .map(|w| (w.line, w.message.as_str()))
            .collect();
        assert_eq!(
            notes,
            [(Some(2), "the segments have subsrt's shape (`\"type\": \"caption\"`, `content`, or a `duration` equal to end minus start) and whole-number times of median length 3561: read as milliseconds (as subsrt, a JavaScript caption library, writes them), not seconds")]
        );
        // Whole seconds of ordinary length stay seconds.
        let secs = r#"[{"start": 0, "end": 4, "text": "a"}, {"start": 4, "end": 9, "text": "b"}]"#;
        let out = read_str(secs, Format::WhisperX, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.utterances().last().unwrap().segment.end().micros(), 9_000_000);
        assert!(!out.warnings.iter().any(|w| w.kind == WarningKind::Note), "{:?}", out.warnings);
    }

    /// youtube-transcript-api's JSON (`JSONFormatter`, `to_raw_data()`): `start` and
    /// `duration`, no `end`; was "cannot tell the format", and every segment dropped with
    /// `--from whisperx`.
    #[test]
    fn a_bare_list_with_durations() {
        let text = r#"[{"text": "Hey, this is just a test", "start": 0.0, "duration": 1.54}, {"text": "this is not the original", "start": 1.54, "duration": 4.16}, {"text": " ", "start": 5.0, "duration": 0.5}, {"text": "just something shorter", "start": 5.7, "duration": 3.239, "end": 9.0}]"#;
        assert_eq!(crate::format::sniff(text), Some(Format::WhisperX));
        let out = read_str(text, Format::WhisperX, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let got: Vec<_> = t
            .utterances()
            .map(|u| (u.segment.start().micros(), u.segment.end().micros()))
            .collect();
        assert_eq!(got, vec![(0, 1_540_000), (1_540_000, 5_700_000), (5_700_000, 9_000_000)]);
        let notes: Vec<_> = out
            .warnings
            .iter()
            .filter(|w| w.kind == WarningKind::Note)
            .map(|w| w.message.as_str())
            .collect();
        assert_eq!(
            notes,
            ["3 segment(s) give a `duration` instead of an `end` (youtube-transcript-api's `text`, `start`, `duration`): each ends at its start plus its duration"]
        );
        assert_eq!(skipped(&out.warnings), [(Some(1), "1 segment(s) with no text skipped: a caption that shows nothing marks no one's speech")]);
    }

    /// Speechmatics' `asr_metrics` diarization reference (`examples/reference-diarization.json`):
    /// one object per word with `speaker_name`, `word`, `start` and `duration`; was "cannot tell
    /// the format", and with `--from whisperx` every word went to "unknown".
    #[test]
    fn a_bare_list_of_words_with_speaker_names() {
        let text = r#"[{"speaker_name": "spk1", "word": "hello", "start": 0.0, "duration": 3.0}, {"speaker_name": "spk2", "word": "how", "start": 3.0, "duration": 4.0}, {"speaker_name": "spk3", "word": "hi", "start": 0.0, "duration": 5.0}]"#;
        assert_eq!(crate::format::sniff(text), Some(Format::WhisperX));
        let out = read_str(text, Format::WhisperX, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let got: Vec<_> = t
            .utterances()
            .map(|u| {
                let text = u.content.and_then(|c| c.text.clone());
                (
                    u.speaker_name.to_owned(),
                    u.segment.start().micros(),
                    u.segment.end().micros(),
                    text,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("spk1".to_owned(), 0, 3_000_000, Some("hello".to_owned())),
                ("spk3".to_owned(), 0, 5_000_000, Some("hi".to_owned())),
                ("spk2".to_owned(), 3_000_000, 7_000_000, Some("how".to_owned())),
            ]
        );
        assert!(
            !out.warnings.iter().any(|w| w.kind == WarningKind::MissingSpeaker),
            "{:?}",
            out.warnings
        );
    }

    fn skipped(warnings: &[crate::error::Warning]) -> Vec<(Option<usize>, &str)> {
        warnings
            .iter()
            .filter(|w| w.kind == WarningKind::Skipped)
            .map(|w| (w.line, w.message.as_str()))
            .collect()
    }

    fn spans(text: &str) -> (Vec<(i64, i64)>, Vec<crate::error::Warning>) {
        let out = read_str(text, Format::WhisperX, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let got = t
            .utterances()
            .map(|u| (u.segment.start().micros(), u.segment.end().micros()))
            .collect();
        (got, out.warnings)
    }

    /// Whole-number times of long segments are seconds unless the list has subsrt's shape: a
    /// list of chapters, of two-minute diarization turns, or one segment for a whole meeting.
    #[test]
    fn whole_seconds_of_long_segments_stay_seconds() {
        let chapters = r#"[{"start": 0, "end": 300, "text": "Intro and news"}, {"start": 300, "end": 900, "text": "Interview with the mayor"}, {"start": 900, "end": 1500, "text": "Listener questions"}]"#;
        let coarse = r#"[{"start": 0, "end": 120, "text": "Intro", "speaker":"A"}, {"start": 120, "end": 240, "text": "Main", "speaker":"B"}]"#;
        let one = r#"[{"start": 0, "end": 3600, "text": "the whole meeting in one segment", "speaker": "A"}]"#;
        // A `duration` that is not the length is no evidence either.
        let other = r#"[{"start": 0, "end": 300, "duration": 3600, "text": "a"}, {"start": 300, "end": 900, "duration": 3600, "text": "b"}]"#;
        let s = 1_000_000;
        let cases: [(&str, Vec<(i64, i64)>); 4] = [
            (chapters, vec![(0, 300 * s), (300 * s, 900 * s), (900 * s, 1500 * s)]),
            (coarse, vec![(0, 120 * s), (120 * s, 240 * s)]),
            (one, vec![(0, 3600 * s)]),
            (other, vec![(0, 300 * s), (300 * s, 900 * s)]),
        ];
        for (text, want) in cases {
            let (got, warnings) = spans(text);
            assert_eq!(got, want, "{text}");
            assert!(!warnings.iter().any(|w| w.message.contains("milliseconds")), "{warnings:?}");
        }
        // Each of subsrt's marks alone is evidence: `type`, `content`, or `duration` = length.
        for seg in [r#""type": "caption""#, r#""content": "x""#, r#""duration": 300"#] {
            let text = format!(r#"[{{"start": 0, "end": 300, "text": "a", {seg}}}]"#);
            assert_eq!(spans(&text).0, [(0, 300_000)], "{text}");
        }
    }

    /// A blank segment of a bare list of captions is skipped as a blank caption is; a list of
    /// diarization turns without text keeps its turns.
    #[test]
    fn blank_captions_of_a_bare_list() {
        let text = r#"[{"start": 0.0, "end": 1.5, "text": "hello"}, {"start": 1.5, "end": 2.0, "text": " "},
{"start": 2.0, "end": 2.5, "text": ""}, {"start": 2.5, "end": 4.0, "text": "bye"}]"#;
        let (got, warnings) = spans(text);
        assert_eq!(got, [(0, 1_500_000), (2_500_000, 4_000_000)]);
        assert_eq!(skipped(&warnings), [(Some(1), "2 segment(s) with no text skipped: a caption that shows nothing marks no one's speech")]);
        let turns = r#"[{"start": 0.0, "end": 1.5, "text": "", "speaker": "A"}, {"start": 1.5, "end": 3.0, "text": "", "speaker": "B"}]"#;
        let (got, warnings) = spans(turns);
        assert_eq!(got, [(0, 1_500_000), (1_500_000, 3_000_000)]);
        assert!(skipped(&warnings).is_empty(), "{warnings:?}");
        // In a list with text, a blank segment that names its speaker is still that speaker's.
        let named = r#"[{"start": 0.0, "end": 1.5, "text": "hi", "speaker": "A"}, {"start": 1.5, "end": 3.0, "text": "", "speaker": "B"}]"#;
        assert_eq!(spans(named).0, [(0, 1_500_000), (1_500_000, 3_000_000)]);
    }

    /// Whisper writes music as a segment `[Music]` (and subsrt's sample has `[intro music]`):
    /// with no words, no one's speech; a segment with words stays.
    #[test]
    fn sound_only_segments_are_no_speech() {
        let text = r#"{"segments": [{"start": 0.0, "end": 9.5, "text": " [Music]"}, {"start": 9.5, "end": 11.0, "text": " Welcome back.", "speaker": "SPEAKER_00"}, {"start": 11.0, "end": 14.0, "text": " (applause)", "speaker": "SPEAKER_01"}, {"start": 14.0, "end": 15.0, "text": "[Music]", "words": [{"word": "[Music]", "start": 14.0, "end": 15.0}]}]}"#;
        let out = read_str(text, Format::WhisperX, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let got: Vec<_> = t
            .utterances()
            .map(|u| (u.segment.start().micros(), u.speaker_name.to_owned()))
            .collect();
        assert_eq!(got, [(9_500_000, "SPEAKER_00".to_owned()), (14_000_000, "unknown".to_owned())]);
        let skipped: Vec<_> = out
            .warnings
            .iter()
            .filter(|w| w.kind == WarningKind::Skipped)
            .map(|w| (w.line, w.message.as_str()))
            .collect();
        assert_eq!(
            skipped,
            [(Some(1), "2 segment(s) holding only a sound description (`[Music]`, `[Applause]`, `♪`) and no words skipped: no one's speech")]
        );
    }
}
