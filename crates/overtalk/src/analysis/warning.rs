//! What the analysis says about its input beside the numbers: typed warnings.
//!
//! Reading has its warnings ([`crate::Warning`]: a malformed line, a repair); the analysis has
//! its own, about a well-formed transcript whose numbers need a caveat (no overlap at all in a
//! long multi-speaker recording, a schism, ends that were estimated). Each is an
//! [`AnalysisWarning`] with a stable [`code`](AnalysisWarning::code), a
//! [`severity`](AnalysisWarning::severity), where it is known the stretch of the recording it
//! is about ([`span_ms`](AnalysisWarning::span_ms)), and the sentence the outputs show
//! ([`Display`](std::fmt::Display)).
//!
//! In JSON a warning is its sentence, a plain string (`diagnostics.warnings` of the analysis
//! schema); the code is part of the library's API only, so that outputs written before the
//! warnings were typed read the same. Reading a sentence back ([`str::parse`]) gives the typed
//! warning, with its numbers at the precision the sentence shows them; a sentence this version
//! does not know is kept as [`AnalysisWarning::Other`].
//!
//! Every analysis warning is a [`Severity::Note`]: none says the input breaks its format, so
//! `--strict` (which rejects repairs of malformed input) keeps them warnings.
//!
//! ```text
//! speaker A   ████████████████████████████
//! speaker B     ███████████████████████████████
//! speaker C       ████████████████████
//!                 ├──── ≥ 3 active, > 5 s ───┤   Schism { speakers: 3, start_ms, end_ms }
//! ```

use std::convert::Infallible;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::units::Millis;
use crate::error::Severity;

/// The note, in the diagnostics and beside every table, for speakers detected one per frame
/// ([`AnalysisWarning::OverlapNotMeasurable`]).
pub const OVERLAP_NOT_MEASURABLE: &str = "overlap not measurable: the speakers were \
     detected by diarizing one mixed track with one speaker per frame, which cannot hear two \
     people at once; overlap, talk-over and the interruptions made while the holder was still \
     talking cannot be found this way, so they are not measured (null in JSON; separate tracks \
     per speaker measure them); interruptions made in the holder's pauses are counted";

/// The note, in the diagnostics and beside every table, for the speech of a mixed track found
/// by voice activity alone ([`AnalysisWarning::SpeakersNotSeparated`]).
pub const SPEAKERS_NOT_SEPARATED: &str = "speakers not told apart: no speaker model is \
     installed, so all the speech of this mixed track was given to one speaker by voice \
     activity alone; the speaker count, talk and floor shares, turns, floor transfers and \
     interruptions describe the speech, not who spoke (`overtalk models install` fetches the \
     speaker model, or give one track per speaker)";

/// A caveat the analysis attaches to its result (see the [module](self) documentation).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AnalysisWarning {
    /// `no-overlap`: two or more speakers, more than five minutes of speech, and not one
    /// moment of overlap, which usually means the times come from a single-channel diarizer or
    /// a forced alignment rather than from the conversation.
    NoOverlap {
        /// The speech in the recording (ms).
        speech_ms: Millis,
    },
    /// `schism`: three or more speakers active together for more than five seconds, one
    /// contiguous stretch (conversation-metrics.md Q10): possibly two conversations at once.
    Schism {
        /// The most speakers active at once in the stretch.
        speakers: usize,
        /// Where the stretch starts (ms).
        start_ms: Millis,
        /// Where the stretch ends (ms).
        end_ms: Millis,
    },
    /// `estimated-ends`: the transcript gives start times only; each end was estimated, so the
    /// analysis ran in timing-only mode and the listed numbers rest on estimated ends.
    EstimatedEnds {
        /// Tracks whose end was estimated.
        estimated_ends: usize,
        /// Tracks in the transcript.
        tracks: usize,
        /// The speaking rate that bounds an estimated end (words per second).
        words_per_second: i64,
        /// The numbers of the analysis that rest on estimated ends.
        rest_on_estimated_ends: Vec<String>,
    },
    /// `overlap-from-marks`: with estimated ends overlap cannot be measured from the times;
    /// the transcriber's `[crosstalk]` notes are reported instead, as marked overlaps.
    OverlapFromMarks {
        /// How many `[crosstalk]` notes the transcript holds.
        marked_overlaps: usize,
    },
    /// `overlap-not-measurable`: the speakers were detected one per frame in one mixed track,
    /// so overlap is zero by construction ([`OVERLAP_NOT_MEASURABLE`]). Added by the caller
    /// that knows how the speakers were found.
    OverlapNotMeasurable,
    /// `speakers-not-separated`: the speech of one mixed track was found by voice activity
    /// alone, all of it one speaker ([`SPEAKERS_NOT_SEPARATED`]). Added by the caller that
    /// knows how the speakers were found.
    SpeakersNotSeparated,
    /// `touching-turns`: every floor transfer (at least [`TOUCHING_TURNS_MIN`]) has an offset
    /// of exactly 0: the turns touch end to start, as files that tile the timeline with turns
    /// write them (Transcriber, EXMARaLDA, some diarizers), so the gaps and overlaps between
    /// speakers were not measured.
    TouchingTurns {
        /// The floor transfers, all with an offset of 0.
        transfers: usize,
    },
    /// `nothing-left`: the input has speech, but none of it is left once the parameters have
    /// dropped segments (ignored labels, `min_segment`): the empty result is the parameters'.
    NothingLeft {
        /// The segments of the input.
        segments: usize,
    },
    /// `recording`: a note of the detection that found the speakers in a recording, carried
    /// into the analysis so that the report and the JSON show it beside the numbers it bears
    /// on: the audio starts late on the file's timeline, the file is truncated, a track's
    /// speech was mostly taken for bleed, a track has no speech. The sentence is
    /// `recording: ` and the detection's own.
    Recording(String),
    /// `other`: a sentence this version does not know, read back from another version's JSON.
    Other(String),
}

/// What the sentence of an [`AnalysisWarning::Recording`] starts with.
const RECORDING_PREFIX: &str = "recording: ";

/// The fewest floor transfers, all of offset 0, that [`AnalysisWarning::TouchingTurns`] takes
/// for a sign of a timeline tiled with turns (a few exact zeros happen in timed speech).
pub const TOUCHING_TURNS_MIN: usize = 5;

impl AnalysisWarning {
    /// Every code, in the order of the variants.
    pub const CODES: [&'static str; 10] = [
        "no-overlap",
        "schism",
        "estimated-ends",
        "overlap-from-marks",
        "overlap-not-measurable",
        "touching-turns",
        "speakers-not-separated",
        "nothing-left",
        "recording",
        "other",
    ];

    /// A short stable name for programs (`no-overlap`, `schism`, …).
    pub fn code(&self) -> &'static str {
        let i = match self {
            AnalysisWarning::NoOverlap { .. } => 0,
            AnalysisWarning::Schism { .. } => 1,
            AnalysisWarning::EstimatedEnds { .. } => 2,
            AnalysisWarning::OverlapFromMarks { .. } => 3,
            AnalysisWarning::OverlapNotMeasurable => 4,
            AnalysisWarning::TouchingTurns { .. } => 5,
            AnalysisWarning::SpeakersNotSeparated => 6,
            AnalysisWarning::NothingLeft { .. } => 7,
            AnalysisWarning::Recording(_) => 8,
            AnalysisWarning::Other(_) => 9,
        };
        Self::CODES[i]
    }

    /// Always [`Severity::Note`]: the input is well formed, its numbers need a caveat; so
    /// `--strict` keeps analysis warnings warnings.
    pub fn severity(&self) -> Severity {
        Severity::Note
    }

    /// The stretch of the recording the warning is about, `(start, end)` in ms, when it is
    /// about one stretch (a schism); `None` when it is about the whole recording.
    pub fn span_ms(&self) -> Option<(Millis, Millis)> {
        match *self {
            AnalysisWarning::Schism { start_ms, end_ms, .. } => Some((start_ms, end_ms)),
            _ => None,
        }
    }
}

impl fmt::Display for AnalysisWarning {
    /// The sentence the outputs show (and JSON holds).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisWarning::NoOverlap { speech_ms } => write!(
                f,
                "no overlapping speech in {:.1} min of multi-speaker speech: overlap-based metrics are structurally zero (single-channel diarization or forced alignment?)",
                speech_ms.get() as f64 / 60_000.0
            ),
            AnalysisWarning::Schism { speakers, start_ms, end_ms } => write!(
                f,
                "{speakers} speakers active for {:.2} s from {:.2} s: possible parallel conversation (schism)",
                (*end_ms - *start_ms).get() as f64 / 1000.0,
                start_ms.get() as f64 / 1000.0
            ),
            AnalysisWarning::EstimatedEnds {
                estimated_ends,
                tracks,
                words_per_second,
                rest_on_estimated_ends,
            } => write!(
                f,
                "{estimated_ends} of {tracks} ends are estimated (start times only; each end is the next start, or sooner at {words_per_second} words a second): analysed in timing-only mode; {} rest on estimated ends",
                rest_on_estimated_ends.join("; ")
            ),
            AnalysisWarning::OverlapFromMarks { marked_overlaps } => write!(
                f,
                "overlap is not measurable from these times; {marked_overlaps} [crosstalk] note(s) are reported as marked overlaps, the transcriber's judgement"
            ),
            AnalysisWarning::OverlapNotMeasurable => f.write_str(OVERLAP_NOT_MEASURABLE),
            AnalysisWarning::SpeakersNotSeparated => f.write_str(SPEAKERS_NOT_SEPARATED),
            AnalysisWarning::TouchingTurns { transfers } => write!(
                f,
                "all {transfers} floor transfers have an offset of exactly 0: the turns touch end to start, as files that tile the timeline with turns write them, so the gaps and overlaps between speakers were not measured"
            ),
            AnalysisWarning::NothingLeft { segments } => write!(
                f,
                "none of the input's {segments} segment(s) is left once the parameters drop segments (ignored labels, min_segment): nothing was analysed"
            ),
            AnalysisWarning::Recording(note) => write!(f, "{RECORDING_PREFIX}{note}"),
            AnalysisWarning::Other(text) => f.write_str(text),
        }
    }
}

/// `text` with `prefix` and `suffix` removed.
fn between<'a>(text: &'a str, prefix: &str, suffix: &str) -> Option<&'a str> {
    text.strip_prefix(prefix)?.strip_suffix(suffix)
}

/// Seconds (or minutes, with `unit` 60 000) written with decimals, as ms.
fn to_ms(text: &str, unit: f64) -> Option<Millis> {
    let v: f64 = text.parse().ok()?;
    v.is_finite().then(|| Millis::new((v * unit).round() as i64))
}

/// The typed warning whose sentence is `text`, if `text` is one of the known sentences.
fn recognise(text: &str) -> Option<AnalysisWarning> {
    if text == OVERLAP_NOT_MEASURABLE {
        return Some(AnalysisWarning::OverlapNotMeasurable);
    }
    if text == SPEAKERS_NOT_SEPARATED {
        return Some(AnalysisWarning::SpeakersNotSeparated);
    }
    if let Some(note) = text.strip_prefix(RECORDING_PREFIX) {
        return Some(AnalysisWarning::Recording(note.to_owned()));
    }
    if let Some(n) = between(
        text,
        "none of the input's ",
        " segment(s) is left once the parameters drop segments (ignored labels, min_segment): nothing was analysed",
    ) {
        return Some(AnalysisWarning::NothingLeft { segments: n.parse().ok()? });
    }
    if let Some(min) = between(
        text,
        "no overlapping speech in ",
        " min of multi-speaker speech: overlap-based metrics are structurally zero (single-channel diarization or forced alignment?)",
    ) {
        return Some(AnalysisWarning::NoOverlap { speech_ms: to_ms(min, 60_000.0)? });
    }
    if let Some(rest) = text.strip_suffix(" s: possible parallel conversation (schism)") {
        let (speakers, rest) = rest.split_once(" speakers active for ")?;
        let (length, start) = rest.split_once(" s from ")?;
        let start_ms = to_ms(start, 1000.0)?;
        return Some(AnalysisWarning::Schism {
            speakers: speakers.parse().ok()?,
            start_ms,
            end_ms: start_ms + to_ms(length, 1000.0)?,
        });
    }
    if let Some(n) = between(
        text,
        "all ",
        " floor transfers have an offset of exactly 0: the turns touch end to start, as files that tile the timeline with turns write them, so the gaps and overlaps between speakers were not measured",
    ) {
        return Some(AnalysisWarning::TouchingTurns { transfers: n.parse().ok()? });
    }
    if let Some(n) = between(
        text,
        "overlap is not measurable from these times; ",
        " [crosstalk] note(s) are reported as marked overlaps, the transcriber's judgement",
    ) {
        return Some(AnalysisWarning::OverlapFromMarks { marked_overlaps: n.parse().ok()? });
    }
    let rest = text.strip_suffix(" rest on estimated ends")?;
    let (estimated, rest) = rest.split_once(" of ")?;
    let (tracks, rest) = rest.split_once(
        " ends are estimated (start times only; each end is the next start, or sooner at ",
    )?;
    let (rate, listed) = rest.split_once(" words a second): analysed in timing-only mode; ")?;
    Some(AnalysisWarning::EstimatedEnds {
        estimated_ends: estimated.parse().ok()?,
        tracks: tracks.parse().ok()?,
        words_per_second: rate.parse().ok()?,
        rest_on_estimated_ends: listed.split("; ").map(str::to_owned).collect(),
    })
}

impl FromStr for AnalysisWarning {
    type Err = Infallible;

    /// The typed warning of a sentence (its numbers at the precision the sentence shows), or
    /// [`AnalysisWarning::Other`] when the sentence is not one this version writes.
    fn from_str(text: &str) -> Result<AnalysisWarning, Infallible> {
        Ok(recognise(text)
            .filter(|w| w == text)
            .unwrap_or_else(|| AnalysisWarning::Other(text.to_owned())))
    }
}

impl PartialEq<str> for AnalysisWarning {
    /// Whether the warning's sentence is `text`.
    fn eq(&self, text: &str) -> bool {
        match self {
            AnalysisWarning::OverlapNotMeasurable => text == OVERLAP_NOT_MEASURABLE,
            AnalysisWarning::Other(own) => own == text,
            other => {
                // The sentence itself: `other == text` would call this function again.
                let sentence = other.to_string();
                sentence == text
            }
        }
    }
}

impl Serialize for AnalysisWarning {
    /// The sentence, as a string.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for AnalysisWarning {
    /// A sentence, read as by [`FromStr`].
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<AnalysisWarning, D::Error> {
        let text = String::deserialize(d)?;
        Ok(text.parse().unwrap_or_else(|never: Infallible| match never {}))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_kind() -> Vec<AnalysisWarning> {
        vec![
            AnalysisWarning::NoOverlap { speech_ms: Millis::new(330_000) },
            AnalysisWarning::Schism {
                speakers: 3,
                start_ms: Millis::new(1250),
                end_ms: Millis::new(6500),
            },
            AnalysisWarning::EstimatedEnds {
                estimated_ends: 12,
                tracks: 14,
                words_per_second: 3,
                rest_on_estimated_ends: vec!["talk time".to_owned(), "turn lengths".to_owned()],
            },
            AnalysisWarning::OverlapFromMarks { marked_overlaps: 2 },
            AnalysisWarning::OverlapNotMeasurable,
            AnalysisWarning::TouchingTurns { transfers: 7 },
            AnalysisWarning::SpeakersNotSeparated,
            AnalysisWarning::NothingLeft { segments: 4 },
            AnalysisWarning::Recording(
                "clip.mp4: its audio starts 1.500 s into the file's timeline".to_owned(),
            ),
            AnalysisWarning::Other("something new".to_owned()),
        ]
    }

    #[test]
    fn sentences_are_the_outputs_text_and_read_back_to_the_same_warning() {
        let w = every_kind();
        assert_eq!(
            w[0].to_string(),
            "no overlapping speech in 5.5 min of multi-speaker speech: overlap-based metrics are structurally zero (single-channel diarization or forced alignment?)"
        );
        assert_eq!(
            w[1].to_string(),
            "3 speakers active for 5.25 s from 1.25 s: possible parallel conversation (schism)"
        );
        assert_eq!(
            w[2].to_string(),
            "12 of 14 ends are estimated (start times only; each end is the next start, or sooner at 3 words a second): analysed in timing-only mode; talk time; turn lengths rest on estimated ends"
        );
        assert_eq!(
            w[3].to_string(),
            "overlap is not measurable from these times; 2 [crosstalk] note(s) are reported as marked overlaps, the transcriber's judgement"
        );
        assert_eq!(w[4].to_string(), OVERLAP_NOT_MEASURABLE);
        assert!(w[5].to_string().starts_with("all 7 floor transfers have an offset of exactly 0"));
        assert_eq!(w[6].to_string(), SPEAKERS_NOT_SEPARATED);
        assert!(w[7].to_string().starts_with("none of the input's 4 segment(s) is left"));
        assert_eq!(
            w[8].to_string(),
            "recording: clip.mp4: its audio starts 1.500 s into the file's timeline"
        );
        let codes: Vec<_> = w.iter().map(AnalysisWarning::code).collect();
        assert_eq!(codes, AnalysisWarning::CODES);
        assert_eq!(w[1].span_ms(), Some((Millis::new(1250), Millis::new(6500))));
        assert!(w.iter().all(|x| x.severity() == Severity::Note && *x == *x.to_string()));
        let json = serde_json::to_string(&w).unwrap();
        assert!(json.starts_with(r#"["no overlapping speech in 5.5 min"#), "{json}");
        let back: Vec<AnalysisWarning> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, w);
    }

    #[test]
    fn unknown_or_near_miss_sentences_are_kept_as_they_are() {
        for text in [
            "",
            "3 speakers active for 5.25 s from x s: possible parallel conversation (schism)",
            "3 speakers active for 5.250 s from 1.25 s: possible parallel conversation (schism)",
            "no overlapping speech in NaN min of multi-speaker speech: overlap-based metrics are structurally zero (single-channel diarization or forced alignment?)",
        ] {
            let w: AnalysisWarning = text.parse().unwrap();
            assert_eq!(w, AnalysisWarning::Other(text.to_owned()), "{text:?}");
            assert_eq!(w.to_string(), text);
        }
    }
}
