//! Words laid on speakers: the words of a transcript with times but no (or unreliable)
//! speakers — YouTube auto-captions, Whisper or WhisperX JSON, SRT or WebVTT without voices —
//! given to the speakers of a detection or a diarization, so that the words-based half of the
//! analysis (completion points, lexical backchannels, floor claims such as "when I'm talking")
//! runs on a recording.
//!
//! **The words.** [`words_of`] takes every word of every track of the transcript, whoever its
//! speaker: a word with a start and an end keeps them. Words without times are spread evenly:
//! a run of words after a timed start (WebVTT's inline timestamps time some words only) shares
//! the time from that start to the next word's start, a segment with text but no words is split
//! at white space and its words share the segment (word `i` of `n` over `[s, e)` gets
//! `[s + R(i·L/n), s + R((i+1)·L/n))`, `L = e − s`, `R` rounding half up to the microsecond, the
//! rule of the analysis for untimed text). A word repeated with the same text and times (a
//! caption file whose cues repeat each other) is read once.
//!
//! **The rule.** [`lay`] gives each word to the speaker whose speech overlaps the word most
//! (speech counted once where a speaker's own segments overlap), in that speaker's segment that
//! overlaps it most; the word's times are then cut to that segment, so the detected timing —
//! who spoke when — is never changed by the words:
//!
//! ```text
//! A       [0─────────2000)                [5000──────────7000)
//! B                [1500──────3000)
//! so      [100─400)                                        → A   only A overlaps it
//! well              [1600─1900)                            → A   A 300, B 300: a tie (B's
//!                                                                 1.5 s are not short): the
//!                                                                 previous word's speaker
//! no                       [2200─2600)                     → B   only B
//! hm                                [3200─3400)            → B   no speech: the nearest
//!                                                                 speech, 200 ms ≤ 500 ms
//! uh                                     [4000─4200)       ✗     nearest speech 800 ms away:
//!                                                                 dropped (counted)
//! ```
//!
//! - **Ties** (the same overlap with several speakers, as in overlapped speech that covers the
//!   word): the speaker whose speech there is short — at most [`SHORT_SPEECH`] (1 s) and at
//!   most half as long as every other tied speaker's, as a backchannel or a brief attempt
//!   inside another's talk; else the speaker of the previous laid word when it is one of them
//!   (a speaker going on through an overlap); else the one whose speech started first (the
//!   one holding the floor), else the first in the speakers' order. Timing cannot tell whose
//!   the words of a longer overlap are: the first words of an interruption that goes on go to
//!   the holder.
//! - **A word in no speech** (a caption's time a little off the voice activity): the speaker of
//!   the nearest speech when it is at most [`LayOptions::max_distance`] away (default 0.5 s;
//!   ties: the previous word's speaker, then the speech before the word, then the speakers'
//!   order), its times cut to that segment's edge.
//!   Further away, the word is **dropped** and counted in [`LayStats::dropped`].
//! - A zero-length word is laid by the speech that contains its instant.
//!
//! **The tracks' levels decide an overlap.** Timing alone gives the words of two people
//! talking at once to the holder. A recording with one microphone per speaker knows better:
//! with [`SpeakerLevels`] given to [`lay`], a word in the speech of several speakers goes to the
//! one whose own track stands highest above what the detector predicts there without them (the
//! microphone's noise and the others' bleed into it), when that excess is at least
//! [`LEVEL_MARGIN_DB`] (3 dB) above every other candidate's ([`LayStats::by_level`]); else
//! (both voices stand out alike, or a level is unknown) the rule above decides
//! ([`LayStats::level_undecided`]). A transcript of the mixed sound, as Whisper makes it,
//! writes the voice that stands out, so its words go with that voice:
//!
//! ```text
//! A       [0──────────────────3000)                 A trails off, B goes on
//! B                 [1500─────────────────4500)
//! wait                [1600─1900)              → B   B +25 dB, A −2 dB: B by 27 dB ≥ 3
//! so                        [2000─2300)        → A   A +24 dB, B +1 dB
//! then                            [2400─2700)  → B   B +26 dB, A 0 dB (by timing: A, the holder)
//! ```
//!
//! **Words per speaker.** Recordings with one microphone per speaker are often transcribed
//! one track at a time (Whisper per track): each transcript has one speaker's words, and the
//! others' voices that its microphone heard (their bleed), often transcribed too.
//! [`lay_per_speaker`] lays each speaker's words on that speaker alone, where the detection
//! found their speech: a word that overlaps it, or lies within [`LayOptions::max_distance`] of
//! it, is kept (in their track that overlaps it most, else the nearest, cut to it); any other
//! is dropped, counted as bleed ([`LayStats::bleed`]) when it lies in another speaker's speech
//! and as in no speech otherwise:
//!
//! ```text
//! A            [0──────2000)                    [5000────6500)
//! B                         [2400───────4200)
//! A's words   so [100─400)                                           → A   in A's speech
//!             yes          [2100─2300)                               → A   100 ms from A ≤ 500
//!             no                  [2900─3200)                        ✗     in B's speech: bleed
//!             um                                [4800─4900)          → A   100 ms from A ≤ 500
//!             uh                          [4300─4400)                ✗     in no speech, 600 ms from A: dropped
//! ```
//!
//! A bleed word within `max_distance` of its speaker's speech (B's first word right after A
//! stops) is kept as theirs, cut to their speech's edge: the bound is there because a
//! recogniser's word times and a detector's speech edges disagree by that much.
//!
//! The speakers' tracks keep their times and speakers; each gets the words laid on it (in time
//! order) as its content, and a track that gets none has no content: any text the speakers had
//! is replaced.
//!
//! ```
//! use overtalk::words::{lay, words_of, LayOptions};
//! use overtalk::{Content, Segment, TranscriptBuilder};
//!
//! let ms = |a, z| Segment::from_millis(a, z).unwrap();
//! let mut detected = TranscriptBuilder::new();
//! detected.add(ms(0, 2000), "A", None).add(ms(2500, 4000), "B", None);
//! let mut captions = TranscriptBuilder::new();
//! captions.add(ms(0, 4000), "unknown", Some(Content::text("one two three four")));
//! let words = words_of(&captions.build());
//! let laid = lay(&detected.build(), &words, &LayOptions::default(), None).unwrap();
//! let said: Vec<String> = laid.transcript.utterances()
//!     .map(|u| format!("{}: {}", u.speaker_name, u.content.unwrap().display_text()))
//!     .collect();
//! assert_eq!(said, ["A: one two", "B: three four"]);
//! assert_eq!(laid.stats.spread, 4);
//! ```

use crate::error::{Error, Result};
use crate::model::{Content, Segment, Transcript, TranscriptBuilder, Word};
use crate::time::{Delta, Time};

/// One word with its times (`start ≤ end`).
#[derive(Clone, Debug, PartialEq)]
pub struct TimedWord {
    /// The word as written.
    pub text: String,
    /// Start.
    pub start: Time,
    /// End.
    pub end: Time,
    /// The recogniser's confidence, when given.
    pub confidence: Option<f64>,
}

/// The words of a transcript, in time order, with how they were timed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Words {
    /// The words, sorted by `(start, end)` (input order among equals).
    pub words: Vec<TimedWord>,
    /// Words without a start of their own, spread evenly (see the module doc).
    pub spread: usize,
    /// Words read twice (same text, start and end) and kept once.
    pub duplicates: usize,
}

impl Words {
    /// Moves every word by `by` (a transcript of a recording that starts `by` after the
    /// common zero of several recordings onto that common timeline) and returns how many
    /// words were dropped: those that lie wholly before 0 (their audio is before the common
    /// zero). A word that starts before 0 and ends after it starts at 0. The order is kept.
    ///
    /// ```text
    /// own timeline     0 [a) [b)   [c)  [d)
    /// by = −1 s     [a) [b)|  [c)  [d)           a dropped, b cut to start at 0
    ///                      0 [b)  [c)  [d)
    /// ```
    pub fn shift(&mut self, by: Delta) -> usize {
        let zero = Time::from_micros(0);
        let before = self.words.len();
        self.words.retain_mut(|w| {
            let (start, end) = (w.start.saturating_add(by), w.end.saturating_add(by));
            // Wholly before 0; a zero-length word at 0 stays.
            let gone = end < zero || (end == zero && start < zero);
            w.start = start.max(zero);
            w.end = end;
            !gone
        });
        before - self.words.len()
    }
}

/// How words are laid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayOptions {
    /// Farthest a word in no speech may be from the speech it is laid on.
    pub max_distance: Delta,
}

impl Default for LayOptions {
    fn default() -> LayOptions {
        LayOptions { max_distance: Delta::from_millis(500) }
    }
}

/// What happened to the words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayStats {
    /// Words given to [`lay`].
    pub words: usize,
    /// Of those, spread evenly for want of their own times (from [`Words::spread`]).
    pub spread: usize,
    /// In speech: laid on the speaker whose speech overlaps them most (or, of several, the
    /// one the levels pick: `by_level`); for [`lay_per_speaker`], in their own speaker's
    /// speech.
    pub by_overlap: usize,
    /// Of `by_overlap`, laid by the tie rule (several speakers overlap them equally and the
    /// levels, when given, did not decide).
    pub tied: usize,
    /// Of `by_overlap`, words in the speech of several speakers given by the tracks' levels
    /// ([`SpeakerLevels`]): one speaker's track stands [`LEVEL_MARGIN_DB`] or more higher
    /// above what is predicted there than every other's.
    pub by_level: usize,
    /// Of `by_overlap`, words in the speech of several speakers whose levels were given but
    /// did not decide (no margin of [`LEVEL_MARGIN_DB`], or a level unknown): laid by overlap
    /// and the tie rule.
    pub level_undecided: usize,
    /// In no speech, laid on the nearest speech within [`LayOptions::max_distance`].
    pub nearest: usize,
    /// Dropped: in no speech of their speaker (in no speech at all, for [`lay`]) and farther
    /// than [`LayOptions::max_distance`] from it.
    pub dropped: usize,
    /// Of `dropped`, words of one speaker's own transcript ([`lay_per_speaker`]) that lie in
    /// another speaker's speech: that speaker heard on this one's microphone (bleed). The rest
    /// of `dropped` lie in no one's speech.
    pub bleed: usize,
    /// Laid words whose times were cut to their segment.
    pub clamped: usize,
}

/// The speakers' transcript with the words laid on it.
#[derive(Clone, Debug)]
pub struct Laid {
    /// The speakers' tracks, each with the words laid on it.
    pub transcript: Transcript,
    /// What happened to the words (all of them, for [`lay_per_speaker`]).
    pub stats: LayStats,
    /// For [`lay_per_speaker`], what happened to each speaker's words, in the order given
    /// (empty for [`lay`]).
    pub per_speaker: Vec<(String, LayStats)>,
}

/// How far a speaker's own signal stands above what is predicted there without them (their
/// microphone's noise and the others' bleed into it), from recordings with one microphone
/// per speaker: the evidence [`lay`] uses for a word in the speech of several speakers.
/// Implemented by the audio crate's multitrack detector (`TrackExcess`), and by any closure
/// `Fn(&str, Time, Time) -> Option<f64>`.
pub trait SpeakerLevels {
    /// The excess, in dB, of `speaker`'s own signal over `[start, end)` above what the
    /// detector predicts there without them; `None` when it is not known (no such track).
    fn excess_db(&self, speaker: &str, start: Time, end: Time) -> Option<f64>;
}

impl<F: Fn(&str, Time, Time) -> Option<f64>> SpeakerLevels for F {
    fn excess_db(&self, speaker: &str, start: Time, end: Time) -> Option<f64> {
        self(speaker, start, end)
    }
}

/// How much higher one speaker's excess ([`SpeakerLevels`]) must stand than every other
/// candidate's for the levels to decide whose a word is: 3 dB, twice the power.
pub const LEVEL_MARGIN_DB: f64 = 3.0;

/// `from + R(i·len/n)`: `i·len/n` rounded half up, exact in `i128` (`len ≥ 0`).
fn at_share(from: Time, i: usize, len: i128, n: usize) -> Time {
    let (i, n) = (i as i128, n as i128);
    let t = i128::from(from.micros()) + (2 * i * len + n) / (2 * n);
    Time::from_micros(i64::try_from(t).unwrap_or(i64::MAX))
}

/// Spreads `texts` evenly over `[from, to)` (`to < from` is taken as `from`).
fn spread_over(texts: &[(&str, Option<f64>)], from: Time, to: Time, out: &mut Vec<TimedWord>) {
    let len = (i128::from(to.micros()) - i128::from(from.micros())).max(0);
    let n = texts.len();
    for (i, (text, confidence)) in texts.iter().enumerate() {
        out.push(TimedWord {
            text: (*text).to_owned(),
            start: at_share(from, i, len, n),
            end: at_share(from, i + 1, len, n),
            confidence: *confidence,
        });
    }
}

/// Times the words of one track (see the module doc); returns how many were spread.
fn track_words(seg: Segment, content: &Content, out: &mut Vec<TimedWord>) -> usize {
    let words: Vec<&Word> = content.words.iter().filter(|w| !w.text.trim().is_empty()).collect();
    if words.is_empty() {
        let texts: Vec<(&str, Option<f64>)> =
            content.text.as_deref().unwrap_or("").split_whitespace().map(|t| (t, None)).collect();
        spread_over(&texts, seg.start(), seg.end(), out);
        return texts.len();
    }
    let mut spread = 0;
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        if let (Some(s), Some(e)) = (w.start, w.end) {
            out.push(TimedWord {
                text: w.text.trim().to_owned(),
                start: s.min(e),
                end: e.max(s),
                confidence: w.confidence,
            });
            i += 1;
            continue;
        }
        // A run: this word, then every following word without a start.
        let mut j = i + 1;
        while j < words.len() && words[j].start.is_none() {
            j += 1;
        }
        let from = w.start.unwrap_or_else(|| out.last().map_or(seg.start(), |p| p.end));
        let to = words.get(j).and_then(|n| n.start).unwrap_or(seg.end());
        let texts: Vec<(&str, Option<f64>)> =
            words[i..j].iter().map(|w| (w.text.trim(), w.confidence)).collect();
        spread += words[i..j].iter().filter(|w| w.start.is_none()).count();
        spread_over(&texts, from, to.max(from), out);
        i = j;
    }
    spread
}

/// Every word of `transcript`, whoever its speaker, timed (see the module doc).
pub fn words_of(transcript: &Transcript) -> Words {
    let mut words = Vec::new();
    let mut spread = 0;
    for u in transcript.utterances() {
        if let Some(c) = u.content {
            spread += track_words(u.segment, c, &mut words);
        }
    }
    // Stable: input order among equal times.
    words.sort_by_key(|w| (w.start, w.end));
    let before = words.len();
    words.dedup_by(|b, a| a.start == b.start && a.end == b.end && a.text == b.text);
    Words { duplicates: before - words.len(), words, spread }
}

/// One speaker's speech: merged segments, sorted.
struct Speech {
    merged: Vec<Segment>,
}

impl Speech {
    /// Overlap with `[a, b)`, and the start of the first and the end of the last merged
    /// segment that overlap it (for a zero-length word: whether a segment contains `a`, as an
    /// overlap of 1 µs).
    fn overlap(&self, a: Time, b: Time) -> (i64, Option<(Time, Time)>) {
        let k = self.merged.partition_point(|s| s.end() <= a);
        let mut total: i64 = 0;
        let mut span: Option<(Time, Time)> = None;
        for s in &self.merged[k..] {
            if a == b {
                if s.contains(a) {
                    return (1, Some((s.start(), s.end())));
                }
                break;
            }
            if s.start() >= b {
                break;
            }
            let o = s.end().min(b).micros().saturating_sub(s.start().max(a).micros());
            if o > 0 {
                total = total.saturating_add(o);
                span = Some(span.map_or((s.start(), s.end()), |(f, _)| (f, s.end())));
            }
        }
        (total, span)
    }

    /// Distance from `[a, b)` to the nearest merged segment, and whether that one lies before
    /// the word.
    fn nearest(&self, a: Time, b: Time) -> Option<(i64, bool)> {
        let k = self.merged.partition_point(|s| s.end() <= a);
        let before = k
            .checked_sub(1)
            .map(|i| (a.micros().saturating_sub(self.merged[i].end().micros()), true));
        let after = self
            .merged
            .get(k)
            .map(|s| (s.start().micros().saturating_sub(b.micros()).max(0), false));
        match (before, after) {
            (Some(x), Some(y)) => Some(if y.0 < x.0 { y } else { x }),
            (x, y) => x.or(y),
        }
    }
}

/// The speakers' speech and tracks, and the words laid on the tracks so far.
struct Layer<'a> {
    speakers: &'a Transcript,
    speech: Vec<Speech>,
    /// Tracks of each speaker, sorted by start.
    by_speaker: Vec<Vec<usize>>,
    /// Per speaker, the running maximum of the ends of `by_speaker`'s tracks.
    reach: Vec<Vec<Time>>,
    /// [`LayOptions::max_distance`] in µs (≥ 0).
    max: i64,
    laid: Vec<Vec<Word>>,
}

impl<'a> Layer<'a> {
    fn new(speakers: &'a Transcript, options: &LayOptions) -> Layer<'a> {
        let ann = speakers.annotation();
        let speech: Vec<Speech> = ann
            .speaker_regions()
            .into_iter()
            .map(|r| Speech { merged: r.segments().to_vec() })
            .collect();
        let mut by_speaker: Vec<Vec<usize>> = vec![Vec::new(); ann.speakers().len()];
        for (k, t) in ann.tracks().iter().enumerate() {
            by_speaker[t.speaker.index()].push(k);
        }
        let reach: Vec<Vec<Time>> = by_speaker
            .iter()
            .map(|ks| {
                let mut m = Time::from_micros(i64::MIN);
                ks.iter()
                    .map(|&k| {
                        m = m.max(ann.tracks()[k].segment.end());
                        m
                    })
                    .collect()
            })
            .collect();
        Layer {
            speakers,
            speech,
            by_speaker,
            reach,
            max: options.max_distance.micros().max(0),
            laid: vec![Vec::new(); ann.len()],
        }
    }

    /// The speakers whose speech overlaps `[a, b)`: (speaker, overlap, start of their speech
    /// there, length of that speech).
    fn overlapping(&self, a: Time, b: Time) -> Vec<(usize, i64, i64, i64)> {
        let mut out = Vec::new();
        for (sp, s) in self.speech.iter().enumerate() {
            let (o, span) = s.overlap(a, b);
            if o > 0 {
                let (first, length) = span.map_or((i64::MAX, i64::MAX), |(f, l)| {
                    (f.micros(), l.micros().saturating_sub(f.micros()))
                });
                out.push((sp, o, first, length));
            }
        }
        out
    }

    /// The speakers nearest `[a, b)` within the bound: (speaker, distance, speech before the
    /// word).
    fn nearest(&self, a: Time, b: Time, only: Option<usize>) -> Vec<(usize, i64, bool)> {
        let mut near: Vec<(usize, i64, bool)> = Vec::new();
        for (sp, s) in self.speech.iter().enumerate() {
            if only.is_some_and(|o| o != sp) {
                continue;
            }
            if let Some((d, before)) = s.nearest(a, b).filter(|x| x.0 <= self.max) {
                match near.first() {
                    Some(x) if d > x.1 => continue,
                    Some(x) if d < x.1 => near.clear(),
                    _ => {}
                }
                near.push((sp, d, before));
            }
        }
        near
    }

    /// Puts `w` on `chosen`'s track that overlaps it most, else the nearest one, else the
    /// earlier one, its times cut to that track; false when the speaker has no track within
    /// the bound. Tracks come sorted by start: those starting after `b + max` and those that
    /// all end before `a − max` are too far.
    fn place(&mut self, w: &TimedWord, chosen: usize, stats: &mut LayStats) -> bool {
        let (a, b, max) = (w.start, w.end, self.max);
        let ks = &self.by_speaker[chosen];
        let tracks = self.speakers.annotation().tracks();
        let upto = ks.partition_point(|&k| {
            tracks[k].segment.start().micros() <= b.micros().saturating_add(max)
        });
        let lo = a.micros().saturating_sub(max);
        let mut pick_track: Option<(usize, i64, i64)> = None; // (track, overlap, distance)
        for idx in (0..upto).rev() {
            if self.reach[chosen][idx].micros() < lo {
                break;
            }
            let seg = tracks[ks[idx]].segment;
            let o = if a == b {
                i64::from(seg.contains(a))
            } else {
                seg.end().min(b).micros().saturating_sub(seg.start().max(a).micros()).max(0)
            };
            let d = seg
                .start()
                .micros()
                .saturating_sub(b.micros())
                .max(a.micros().saturating_sub(seg.end().micros()))
                .max(0);
            let better = pick_track.is_none_or(|(_, o0, d0)| (o, -d) >= (o0, -d0));
            if better {
                pick_track = Some((ks[idx], o, d));
            }
        }
        let Some((track, _, _)) = pick_track else { return false };
        let seg = tracks[track].segment;
        let s = a.max(seg.start()).min(seg.end());
        let e = b.max(s).min(seg.end());
        if (s, e) != (a, b) {
            stats.clamped += 1;
        }
        self.laid[track].push(Word {
            text: w.text.clone(),
            start: Some(s),
            end: Some(e),
            confidence: w.confidence,
        });
        true
    }

    /// The speakers' transcript with the words laid on it.
    fn finish(self) -> Transcript {
        let ann = self.speakers.annotation();
        let mut b = TranscriptBuilder::new();
        for (_, name) in ann.speakers().iter() {
            b.speaker(name);
        }
        // Each track's words come in time order: the words are sorted, and a track has one
        // speaker, whose words come from one list.
        for (t, words) in ann.tracks().iter().zip(self.laid) {
            let content = (!words.is_empty()).then_some(Content { text: None, words });
            b.push(t.segment, t.speaker, content);
        }
        b.extent(self.speakers.declared_extent());
        b.build()
    }
}

/// The error for words none of which lies in or near the speech they are laid on.
fn none_near(words: usize, max: i64) -> Error {
    Error::invalid(format!(
        "none of the {words} words lies in or within {} s of the speakers' speech (are they the words of this recording?)",
        Delta::from_micros(max).as_secs_f64()
    ))
}

/// Lays `words` on the speakers of `speakers` (see the module doc). With `levels` (recordings
/// with one microphone per speaker), a word in the speech of several speakers goes to the one
/// whose track stands [`LEVEL_MARGIN_DB`] higher above what is predicted there than every
/// other's; without them, or when they do not decide, by overlap and the tie rule. An error
/// when there are no words, or when none of them lies in or near the speakers' speech (the
/// words are then not the words of this recording, or its speech was not detected).
pub fn lay(
    speakers: &Transcript,
    words: &Words,
    options: &LayOptions,
    levels: Option<&dyn SpeakerLevels>,
) -> Result<Laid> {
    if words.words.is_empty() {
        return Err(Error::invalid("the transcript has no words to lay on the speakers"));
    }
    let mut layer = Layer::new(speakers, options);
    let ann = speakers.annotation();
    let mut stats =
        LayStats { words: words.words.len(), spread: words.spread, ..LayStats::default() };
    let mut names: Vec<&str> = vec![""; ann.speakers().len()];
    for (id, name) in ann.speakers().iter() {
        names[id.index()] = name;
    }
    let mut previous: Option<usize> = None;
    for w in &words.words {
        let (a, b) = (w.start, w.end);
        let over = layer.overlapping(a, b);
        let chosen = if !over.is_empty() {
            stats.by_overlap += 1;
            let by_level = match levels {
                Some(levels) if over.len() > 1 => {
                    let decided = loudest(&over, |sp| levels.excess_db(names[sp], a, b));
                    if decided.is_some() {
                        stats.by_level += 1;
                    } else {
                        stats.level_undecided += 1;
                    }
                    decided
                }
                _ => None,
            };
            match by_level {
                Some(sp) => sp,
                None => {
                    // The speakers who overlap the word most.
                    let most = over.iter().map(|c| c.1).max().unwrap_or(0);
                    let best: Vec<(usize, i64, i64)> =
                        over.iter().filter(|c| c.1 == most).map(|c| (c.0, c.2, c.3)).collect();
                    if best.len() > 1 {
                        stats.tied += 1;
                    }
                    // A short speech inside a long one (a backchannel, a brief attempt): its
                    // words.
                    let mut by_length: Vec<(i64, usize)> =
                        best.iter().map(|c| (c.2, c.0)).collect();
                    by_length.sort_unstable();
                    match by_length.as_slice() {
                        [(short, sp), (next, _), ..]
                            if *short <= SHORT_SPEECH.micros()
                                && short.saturating_mul(2) <= *next =>
                        {
                            *sp
                        }
                        _ => pick(&best.iter().map(|c| (c.0, c.1)).collect::<Vec<_>>(), previous),
                    }
                }
            }
        } else {
            let near = layer.nearest(a, b, None);
            if near.is_empty() {
                stats.dropped += 1;
                continue;
            }
            stats.nearest += 1;
            // Ties: the previous word's speaker, then speech before the word, then order.
            let before: Vec<(usize, i64)> = near.iter().map(|x| (x.0, i64::from(!x.2))).collect();
            pick(&before, previous)
        };
        previous = Some(chosen);
        if !layer.place(w, chosen, &mut stats) {
            stats.dropped += 1;
        }
    }
    if stats.dropped == stats.words {
        return Err(none_near(stats.words, layer.max));
    }
    Ok(Laid { transcript: layer.finish(), stats, per_speaker: Vec::new() })
}

/// The speaker among `over` whose excess stands [`LEVEL_MARGIN_DB`] above every other's;
/// `None` when no one does, or when a candidate's excess is unknown or not a number. An
/// infinite excess stands above any finite one; two alike (both `+∞`) decide nothing.
fn loudest(
    over: &[(usize, i64, i64, i64)],
    excess: impl Fn(usize) -> Option<f64>,
) -> Option<usize> {
    let mut levels: Vec<(f64, usize)> = Vec::with_capacity(over.len());
    for c in over {
        let e = excess(c.0).filter(|e| !e.is_nan())?;
        levels.push((e, c.0));
    }
    levels.sort_by(|x, y| y.0.total_cmp(&x.0));
    match levels.as_slice() {
        [(top, sp), (next, _), ..] if top - next >= LEVEL_MARGIN_DB => Some(*sp),
        _ => None,
    }
}

/// Lays each speaker's own words (a transcript of their own track: one microphone per
/// speaker, each transcribed on its own) on that speaker, where the detection found their
/// speech (see the module doc, "Words per speaker"): `per_speaker` pairs a speaker's name in
/// `speakers` with their words. A word in the speaker's speech, or within
/// [`LayOptions::max_distance`] of it, is theirs (in their track that overlaps it most, else
/// the nearest, cut to it); any other is dropped, counted as [`LayStats::bleed`] when it lies
/// in another speaker's speech (their voice heard on this microphone) and in
/// [`LayStats::dropped`] in any case. [`Laid::per_speaker`] has each speaker's counts and
/// [`Laid::stats`] their sums.
///
/// An error for a name that is not a speaker of `speakers` or is given twice, when the files
/// have no word at all, and when none of their words is kept.
pub fn lay_per_speaker(
    speakers: &Transcript,
    per_speaker: &[(&str, &Words)],
    options: &LayOptions,
) -> Result<Laid> {
    let ann = speakers.annotation();
    let mut layer = Layer::new(speakers, options);
    let mut total = LayStats::default();
    let mut each = Vec::with_capacity(per_speaker.len());
    let mut seen = std::collections::HashSet::new();
    for (name, words) in per_speaker {
        let Some(id) = ann.speakers().get(name) else {
            return Err(Error::invalid(format!("{name:?} is not one of the speakers")));
        };
        if !seen.insert(id) {
            return Err(Error::invalid(format!("the words of {name:?} are given twice")));
        }
        let sp = id.index();
        let mut stats =
            LayStats { words: words.words.len(), spread: words.spread, ..LayStats::default() };
        for w in &words.words {
            let (a, b) = (w.start, w.end);
            let own = layer.speech[sp].overlap(a, b).0 > 0;
            let kept = if own {
                stats.by_overlap += 1;
                true
            } else if !layer.nearest(a, b, Some(sp)).is_empty() {
                stats.nearest += 1;
                true
            } else {
                false
            };
            if !(kept && layer.place(w, sp, &mut stats)) {
                if kept {
                    // Counted as laid, but no track within reach (cannot happen: the speech
                    // is the tracks'); counted as dropped all the same.
                    stats.by_overlap -= usize::from(own);
                    stats.nearest -= usize::from(!own);
                }
                stats.dropped += 1;
                if layer.overlapping(a, b).iter().any(|c| c.0 != sp) {
                    stats.bleed += 1;
                }
            }
        }
        total.words += stats.words;
        total.spread += stats.spread;
        total.by_overlap += stats.by_overlap;
        total.nearest += stats.nearest;
        total.dropped += stats.dropped;
        total.bleed += stats.bleed;
        total.clamped += stats.clamped;
        each.push(((*name).to_owned(), stats));
    }
    if total.words == 0 {
        return Err(Error::invalid("the transcripts have no words to lay on the speakers"));
    }
    if total.dropped == total.words {
        return Err(none_near(total.words, layer.max));
    }
    Ok(Laid { transcript: layer.finish(), stats: total, per_speaker: each })
}

/// The longest speech whose words a tie gives it over a speech at least twice as long (a
/// backchannel or a brief attempt inside another's talk): the rule book's `bc_max_duration`.
pub const SHORT_SPEECH: Delta = Delta::from_millis(1000);

/// The tie rule over `(speaker, key)` candidates: the previous word's speaker when it is one,
/// else the smallest key, else the first speaker.
fn pick(cands: &[(usize, i64)], previous: Option<usize>) -> usize {
    if let Some(p) = previous.filter(|p| cands.iter().any(|c| c.0 == *p)) {
        return p;
    }
    cands.iter().min_by_key(|c| (c.1, c.0)).map_or(0, |c| c.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifted_words_move_onto_the_common_timeline() {
        let all = Words {
            words: vec![
                word("a", 0, 400),
                word("b", 800, 1300),
                word("c", 1000, 1000),
                word("d", 2000, 2500),
            ],
            spread: 1,
            duplicates: 2,
        };
        // Back by 1 s: a lies before 0, b is cut to start there, c (zero-length) sits at 0.
        let mut w = all.clone();
        assert_eq!(w.shift(Delta::from_micros(-1_000_000)), 1);
        assert_eq!(
            w,
            Words {
                words: vec![word("b", 0, 300), word("c", 0, 0), word("d", 1000, 1500)],
                spread: 1,
                duplicates: 2,
            }
        );
        // Forward by 2 s: every word 2 s later.
        let mut w = all.clone();
        assert_eq!(w.shift(Delta::from_micros(2_000_000)), 0);
        let starts: Vec<i64> = w.words.iter().map(|w| w.start.micros()).collect();
        assert_eq!(starts, [2_000_000, 2_800_000, 3_000_000, 4_000_000]);
        // Not at all: the same words.
        let mut w = all.clone();
        assert_eq!(w.shift(Delta::ZERO), 0);
        assert_eq!(w, all);
    }

    fn ms(a: i64, z: i64) -> Segment {
        Segment::from_millis(a, z).unwrap()
    }

    fn word(text: &str, a: i64, z: i64) -> TimedWord {
        TimedWord {
            text: text.to_owned(),
            start: Time::from_millis(a),
            end: Time::from_millis(z),
            confidence: None,
        }
    }

    /// A track's speaker and its words with their times in ms.
    type TrackWords = (String, Vec<(String, i64, i64)>);

    /// Speaker and words of each track that got words.
    fn laid_words(t: &Transcript) -> Vec<TrackWords> {
        t.utterances()
            .filter_map(|u| {
                let c = u.content?;
                let w = c
                    .words
                    .iter()
                    .map(|w| {
                        let ms = |t: Option<Time>| t.map_or(-1, |t| t.micros() / 1000);
                        (w.text.clone(), ms(w.start), ms(w.end))
                    })
                    .collect();
                Some((u.speaker_name.to_owned(), w))
            })
            .collect()
    }

    /// The timeline of the module doc, word by word.
    #[test]
    fn the_documented_rule() {
        let mut b = TranscriptBuilder::new();
        b.add(ms(0, 2000), "A", None).add(ms(5000, 7000), "A", None).add(ms(1500, 3000), "B", None);
        let speakers = b.build();
        let words = Words {
            words: vec![
                word("so", 100, 400),
                word("well", 1600, 1900),
                word("no", 2200, 2600),
                word("hm", 3200, 3400),
                word("uh", 4000, 4200),
            ],
            spread: 0,
            duplicates: 0,
        };
        let laid = lay(&speakers, &words, &LayOptions::default(), None).unwrap();
        let s = |x: &str| x.to_owned();
        assert_eq!(
            laid_words(&laid.transcript),
            vec![
                (s("A"), vec![(s("so"), 100, 400), (s("well"), 1600, 1900)]),
                (s("B"), vec![(s("no"), 2200, 2600), (s("hm"), 3000, 3000)]),
            ]
        );
        assert_eq!(
            laid.stats,
            LayStats {
                words: 5,
                spread: 0,
                by_overlap: 3,
                tied: 1,
                nearest: 1,
                dropped: 1,
                clamped: 1,
                ..LayStats::default()
            }
        );
        // The detected timing is unchanged.
        assert_eq!(laid.transcript.annotation(), speakers.annotation());
        // A wider bound takes "uh" too: 1000 ms after B, 800 ms before A's second segment,
        // so A's (the previous word, "hm", was B's: nearness comes first).
        let wide = LayOptions { max_distance: Delta::from_millis(1000) };
        let laid = lay(&speakers, &words, &wide, None).unwrap();
        assert_eq!(laid.stats.dropped, 0);
        assert_eq!(laid_words(&laid.transcript)[2], (s("A"), vec![(s("uh"), 5000, 5000)]));
        // Equally near both: the previous word's speaker.
        let words = Words {
            words: vec![word("no", 2200, 2600), word("er", 3900, 4100)],
            spread: 0,
            duplicates: 0,
        };
        let laid = lay(&speakers, &words, &wide, None).unwrap();
        assert_eq!(
            laid_words(&laid.transcript)[0],
            (s("B"), vec![(s("no"), 2200, 2600), (s("er"), 3000, 3000)])
        );
    }

    /// Levels that are no numbers are unknown; infinite ones compare as numbers do.
    #[test]
    fn levels_not_a_number_or_infinite() {
        let over = [(0, 10, 0, 10), (1, 10, 0, 10)];
        let of = |a: f64, b: f64| loudest(&over, move |sp| Some(if sp == 0 { a } else { b }));
        assert_eq!(of(f64::NAN, 40.0), None);
        assert_eq!(of(40.0, f64::NAN), None);
        assert_eq!(of(f64::INFINITY, 40.0), Some(0));
        assert_eq!(of(40.0, f64::NEG_INFINITY), Some(0));
        assert_eq!(of(f64::INFINITY, f64::INFINITY), None);
        assert_eq!(of(f64::NEG_INFINITY, f64::NEG_INFINITY), None);
        assert_eq!(of(10.0, 13.0), Some(1));
        assert_eq!(of(10.0, 12.999), None);
    }

    /// The levels' timeline of the module doc: an interruption that goes on.
    #[test]
    fn the_levels_decide_an_overlap() {
        let mut b = TranscriptBuilder::new();
        b.add(ms(0, 3000), "A", None).add(ms(1500, 4500), "B", None);
        let speakers = b.build();
        let words = Words {
            words: vec![
                word("well", 500, 800),
                word("wait", 1600, 1900),
                word("so", 2000, 2300),
                word("then", 2400, 2700),
                word("go", 3500, 3800),
            ],
            spread: 0,
            duplicates: 0,
        };
        // Each speaker's excess over a word, as the tracks give it.
        let excess = |speaker: &str, a: Time, _: Time| -> Option<f64> {
            let at = a.micros() / 1000;
            Some(match (speaker, at) {
                ("A", 1600) => -2.0,
                ("B", 1600) => 25.0,
                ("A", 2000) => 24.0,
                ("B", 2000) => 1.0,
                ("A", 2400) => 0.0,
                ("B", 2400) => 26.0,
                _ => 30.0,
            })
        };
        let s = |x: &str| x.to_owned();
        let by_timing = lay(&speakers, &words, &LayOptions::default(), None).unwrap();
        assert_eq!(
            laid_words(&by_timing.transcript),
            vec![
                (
                    s("A"),
                    vec![
                        (s("well"), 500, 800),
                        (s("wait"), 1600, 1900),
                        (s("so"), 2000, 2300),
                        (s("then"), 2400, 2700)
                    ]
                ),
                (s("B"), vec![(s("go"), 3500, 3800)]),
            ]
        );
        assert_eq!((by_timing.stats.tied, by_timing.stats.by_level), (3, 0));
        let laid = lay(&speakers, &words, &LayOptions::default(), Some(&excess)).unwrap();
        assert_eq!(
            laid_words(&laid.transcript),
            vec![
                (s("A"), vec![(s("well"), 500, 800), (s("so"), 2000, 2300)]),
                (
                    s("B"),
                    vec![(s("wait"), 1600, 1900), (s("then"), 2400, 2700), (s("go"), 3500, 3800)]
                ),
            ]
        );
        assert_eq!(
            laid.stats,
            LayStats { words: 5, by_overlap: 5, by_level: 3, ..LayStats::default() }
        );
        // Less than 3 dB apart, or a level unknown: timing decides, as without levels.
        for close in [
            &(|sp: &str, _: Time, _: Time| Some(if sp == "B" { 12.9 } else { 10.0 }))
                as &dyn SpeakerLevels,
            &|sp: &str, _: Time, _: Time| (sp == "B").then_some(40.0),
        ] {
            let laid = lay(&speakers, &words, &LayOptions::default(), Some(close)).unwrap();
            assert_eq!(laid_words(&laid.transcript), laid_words(&by_timing.transcript));
            assert_eq!(
                (laid.stats.by_level, laid.stats.level_undecided, laid.stats.tied),
                (0, 3, 3)
            );
        }
        // 3 dB exactly decides.
        let three = |sp: &str, _: Time, _: Time| Some(if sp == "B" { 13.0 } else { 10.0 });
        let laid = lay(&speakers, &words, &LayOptions::default(), Some(&three)).unwrap();
        assert_eq!(laid_words(&laid.transcript)[1].1.len(), 4);
    }

    /// The per-speaker timeline of the module doc.
    #[test]
    fn each_speaker_keeps_their_words_in_their_speech_and_drops_bleed() {
        let mut b = TranscriptBuilder::new();
        b.add(ms(0, 2000), "A", None).add(ms(5000, 6500), "A", None).add(ms(2400, 4200), "B", None);
        let speakers = b.build();
        let of_a = Words {
            words: vec![
                word("so", 100, 400),
                word("yes", 2100, 2300),
                word("no", 2900, 3200),
                word("uh", 4300, 4400),
                word("um", 4800, 4900),
            ],
            spread: 0,
            duplicates: 0,
        };
        // B's own transcript: their words, and A's "so" heard on B's microphone.
        let of_b = Words {
            words: vec![word("so", 100, 400), word("no", 2900, 3200)],
            spread: 0,
            duplicates: 0,
        };
        let laid =
            lay_per_speaker(&speakers, &[("A", &of_a), ("B", &of_b)], &LayOptions::default())
                .unwrap();
        let s = |x: &str| x.to_owned();
        assert_eq!(
            laid_words(&laid.transcript),
            vec![
                (s("A"), vec![(s("so"), 100, 400), (s("yes"), 2000, 2000)]),
                (s("B"), vec![(s("no"), 2900, 3200)]),
                (s("A"), vec![(s("um"), 5000, 5000)]),
            ]
        );
        let a = LayStats {
            words: 5,
            by_overlap: 1,
            nearest: 2,
            dropped: 2,
            bleed: 1,
            clamped: 2,
            ..LayStats::default()
        };
        let b_ = LayStats { words: 2, by_overlap: 1, dropped: 1, bleed: 1, ..LayStats::default() };
        assert_eq!(laid.per_speaker, vec![(s("A"), a), (s("B"), b_)]);
        assert_eq!(
            laid.stats,
            LayStats {
                words: 7,
                by_overlap: 2,
                nearest: 2,
                dropped: 3,
                bleed: 2,
                clamped: 2,
                ..LayStats::default()
            }
        );
        assert_eq!(laid.transcript.annotation(), speakers.annotation());
        // A name that is no speaker, a name twice, no words, no word kept: errors.
        let opts = LayOptions::default();
        let e = lay_per_speaker(&speakers, &[("C", &of_a)], &opts).unwrap_err();
        assert_eq!(e.to_string(), "\"C\" is not one of the speakers");
        let e = lay_per_speaker(&speakers, &[("A", &of_a), ("A", &of_b)], &opts).unwrap_err();
        assert_eq!(e.to_string(), "the words of \"A\" are given twice");
        let e = lay_per_speaker(&speakers, &[("A", &Words::default())], &opts).unwrap_err();
        assert_eq!(e.to_string(), "the transcripts have no words to lay on the speakers");
        let bleed_only = Words { words: vec![word("no", 2900, 3200)], spread: 0, duplicates: 0 };
        let e = lay_per_speaker(&speakers, &[("A", &bleed_only)], &opts).unwrap_err();
        assert!(e.to_string().starts_with("none of the 1 words lies"), "{e}");
    }

    #[test]
    fn a_tie_goes_to_a_short_speech_else_to_the_previous_speaker() {
        // B backchannels inside A's turn ("mm-hm" fills B's 700 ms, deep inside A's 9 s),
        // then talks over A for 2 s: not short, so its words, covered by both, go on with the
        // previous word's speaker, A (timing cannot tell whose they are).
        let mut b = TranscriptBuilder::new();
        b.add(ms(0, 9000), "A", None).add(ms(2000, 2700), "B", None).add(ms(5000, 7000), "B", None);
        let speakers = b.build();
        let words = Words {
            words: vec![
                word("so", 1500, 1900),
                word("mm-hm", 2100, 2600),
                word("then", 2750, 2900),
                word("wait", 5050, 5400),
            ],
            spread: 0,
            duplicates: 0,
        };
        let laid = lay(&speakers, &words, &LayOptions::default(), None).unwrap();
        let s = |x: &str| x.to_owned();
        assert_eq!(
            laid_words(&laid.transcript),
            vec![
                (
                    s("A"),
                    vec![(s("so"), 1500, 1900), (s("then"), 2750, 2900), (s("wait"), 5050, 5400)]
                ),
                (s("B"), vec![(s("mm-hm"), 2100, 2600)]),
            ]
        );
        assert_eq!(laid.stats.tied, 2);
        // Short is at most 1 s, and at most half the other speech.
        let mut b = TranscriptBuilder::new();
        b.add(ms(0, 1700), "A", None).add(ms(800, 1700), "B", None);
        let words = Words { words: vec![word("yes", 1200, 1500)], spread: 0, duplicates: 0 };
        let laid = lay(&b.build(), &words, &LayOptions::default(), None).unwrap();
        assert_eq!(laid_words(&laid.transcript)[0].0, "A", "900 ms against 1.7 s");
    }

    #[test]
    fn ties_go_to_the_earlier_speech_without_a_previous_word() {
        let mut b = TranscriptBuilder::new();
        b.add(ms(1000, 4000), "late", None).add(ms(0, 4000), "early", None);
        let speakers = b.build();
        let words = Words { words: vec![word("yes", 2000, 2500)], spread: 0, duplicates: 0 };
        let laid = lay(&speakers, &words, &LayOptions::default(), None).unwrap();
        assert_eq!(laid_words(&laid.transcript)[0].0, "early");
        // Zero-length words are laid by the speech containing their instant.
        let words = Words { words: vec![word("x", 500, 500)], spread: 0, duplicates: 0 };
        let laid = lay(&speakers, &words, &LayOptions::default(), None).unwrap();
        assert_eq!(
            laid_words(&laid.transcript),
            vec![("early".to_owned(), vec![("x".to_owned(), 500, 500)])]
        );
        assert_eq!((laid.stats.by_overlap, laid.stats.tied), (1, 0));
    }

    #[test]
    fn untimed_words_are_spread_and_repeats_read_once() {
        let mut b = TranscriptBuilder::new();
        // WebVTT inline times: "a" timed from the cue, "b c" after a mark at 1600.
        let content = Content {
            text: None,
            words: vec![
                Word { start: Some(Time::from_millis(1000)), ..Word::untimed("a") },
                Word::untimed("x"),
                Word { start: Some(Time::from_millis(1600)), ..Word::untimed("b") },
                Word::untimed("c"),
            ],
        };
        b.add(ms(1000, 2000), "unknown", Some(content));
        // Text without words shares its segment: 1000 ms over 3 words.
        b.add(ms(3000, 4000), "unknown", Some(Content::text("one two three")));
        // The same word twice (two cues repeating each other).
        b.add(
            ms(5000, 5500),
            "S",
            Some(Content {
                text: None,
                words: vec![Word::timed("hi", Time::from_millis(5000), Time::from_millis(5400))],
            }),
        );
        b.add(
            ms(5000, 5600),
            "T",
            Some(Content {
                text: None,
                words: vec![Word::timed("hi", Time::from_millis(5000), Time::from_millis(5400))],
            }),
        );
        let w = words_of(&b.build());
        let got: Vec<(&str, i64, i64)> =
            w.words.iter().map(|w| (w.text.as_str(), w.start.micros(), w.end.micros())).collect();
        assert_eq!(
            got,
            vec![
                ("a", 1_000_000, 1_300_000),
                ("x", 1_300_000, 1_600_000),
                ("b", 1_600_000, 1_800_000),
                ("c", 1_800_000, 2_000_000),
                ("one", 3_000_000, 3_333_333),
                ("two", 3_333_333, 3_666_667),
                ("three", 3_666_667, 4_000_000),
                ("hi", 5_000_000, 5_400_000),
            ]
        );
        assert_eq!((w.spread, w.duplicates), (5, 1));
    }

    #[test]
    fn extreme_times_do_not_overflow() {
        let mut b = TranscriptBuilder::new();
        b.add(Segment::from_micros(i64::MIN + 1, i64::MAX).unwrap(), "A", None);
        b.add(ms(0, 1000), "B", None);
        let speakers = b.build();
        let edge = |text: &str, a, z| TimedWord {
            text: text.to_owned(),
            start: Time::from_micros(a),
            end: Time::from_micros(z),
            confidence: None,
        };
        let words = Words {
            words: vec![edge("lo", i64::MIN, i64::MIN + 5), edge("all", i64::MIN, i64::MAX)],
            spread: 0,
            duplicates: 0,
        };
        let far = LayOptions { max_distance: Delta::from_micros(i64::MAX) };
        let laid = lay(&speakers, &words, &far, None).unwrap();
        assert_eq!((laid.stats.by_overlap, laid.stats.clamped), (2, 2));
        // Spreading over the widest span stays in range.
        let mut c = TranscriptBuilder::new();
        c.add(
            Segment::from_micros(i64::MIN + 1, i64::MAX).unwrap(),
            "x",
            Some(Content::text("a b c")),
        );
        let w = words_of(&c.build());
        assert_eq!(w.words[2].end, Time::from_micros(i64::MAX));
    }

    #[test]
    fn no_words_or_no_word_near_speech_is_an_error() {
        let mut b = TranscriptBuilder::new();
        b.add(ms(0, 1000), "A", None);
        let speakers = b.build();
        let e = lay(&speakers, &Words::default(), &LayOptions::default(), None).unwrap_err();
        assert_eq!(e.to_string(), "the transcript has no words to lay on the speakers");
        let far = Words { words: vec![word("a", 5000, 5100)], spread: 0, duplicates: 0 };
        let e = lay(&speakers, &far, &LayOptions::default(), None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "none of the 1 words lies in or within 0.5 s of the speakers' speech (are they the words of this recording?)"
        );
    }
}
