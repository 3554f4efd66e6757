//! What YouTube's two native caption formats share ([`super::srv3`], [`super::json3`]): both
//! are lists of timed events whose pieces of text may carry their own offsets, and both become
//! captions for the caption reader of [`super::srt`].
//!
//! ```text
//! event  t=1040 d=3360   "welcome" +0 | " to" +320 | " super" +560      a line of words
//! event  t=2710 append   "\n"                                             rolls the window: skipped
//! event  t=2720 d=2960   "edition" +0 | " enjoy" +320                    the next line
//!
//! caption 1.040 → 2.720  welcome(1.040–1.360) to(1.360–1.600) super(1.600–2.720)
//! caption 2.720 → 5.680  edition(2.720–3.040) enjoy(3.040–5.680)
//! ```
//!
//! An automatic caption's line stays on screen while the next one is written (roll-up): its
//! display time reaches into the next line's, though the words were said in turn. A line whose
//! words are timed therefore ends where the next line starts; without that, each speaker
//! change of such a file would read as the two speaking at once. Manual captions keep their
//! own times.

use crate::error::{Result, WarningKind};
use crate::format::srt::{read_captions, Caption};
use crate::format::ReadContext;
use crate::model::{Corpus, Word};
use crate::time::{Time, MAX_MICROS};

/// One piece of an event's text (`<s>` of srv3, a `segs` entry of json3).
#[derive(Debug)]
pub(crate) struct Piece {
    pub(crate) text: String,
    /// Milliseconds after the event's start (`t` of `<s>`, `tOffsetMs`), when given.
    pub(crate) offset: Option<i64>,
    /// Whether the recogniser scored it (`ac`, `acAsrConf`): a word of automatic captions.
    pub(crate) scored: bool,
}

/// One event (`<p>` of srv3, an entry of json3's `events` with `segs`).
#[derive(Debug)]
pub(crate) struct Event {
    /// Where it is, for messages.
    pub(crate) line: usize,
    pub(crate) column: usize,
    /// Milliseconds.
    pub(crate) start: i64,
    pub(crate) duration: Option<i64>,
    /// `a="1"`, `aAppend`: appended to the line before (a line break, in rolling captions).
    pub(crate) append: bool,
    pub(crate) pieces: Vec<Piece>,
}

/// A time in milliseconds as the model's, or `None` beyond the model's range.
fn millis(ms: i64) -> Option<Time> {
    ms.checked_mul(1000).filter(|us| us.abs() <= MAX_MICROS).map(Time::from_micros)
}

/// The events' captions read as one recording (see the module doc). A file without captions
/// reads as an empty recording, which every reader's caller notes.
pub(crate) fn read_events(events: Vec<Event>, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    // Appended pieces with text join the line before; line breaks and empty lines are no
    // captions.
    let mut kept: Vec<Event> = Vec::new();
    for e in events {
        let blank = e.pieces.iter().all(|p| p.text.trim().is_empty());
        if blank {
            continue;
        }
        match kept.last_mut() {
            Some(last) if e.append => {
                let base = e.start - last.start;
                last.pieces.extend(e.pieces.into_iter().map(|p| Piece {
                    offset: Some(base.saturating_add(p.offset.unwrap_or(0))),
                    ..p
                }));
            }
            _ => kept.push(e),
        }
    }
    let mut captions: Vec<Caption> = Vec::with_capacity(kept.len());
    for k in 0..kept.len() {
        let e = &kept[k];
        let Some(duration) = e.duration else {
            ctx.warn_at(
                WarningKind::Skipped,
                e.line,
                Some(e.column),
                if ctx.options().strict {
                    "caption without a duration"
                } else {
                    "caption without a duration; skipped"
                },
            )?;
            continue;
        };
        let (Some(start), Some(mut end)) =
            (millis(e.start), millis(e.start.saturating_add(duration)))
        else {
            ctx.warn_at(
                WarningKind::Skipped,
                e.line,
                Some(e.column),
                format!("caption time {} ms (+{duration} ms) out of range", e.start),
            )?;
            continue;
        };
        let timed = e.pieces.iter().any(|p| p.offset.is_some() || p.scored);
        // A rolling line ends where the next one starts (see the module doc).
        if timed {
            if let Some(next) = kept.get(k + 1).and_then(|n| millis(n.start)) {
                if next > start && next < end {
                    end = next;
                }
            }
        }
        let words = if timed { words_of(e, start, end) } else { Vec::new() };
        let text: String = e.pieces.iter().map(|p| p.text.as_str()).collect();
        captions.push(Caption {
            line: e.line,
            end_col: e.column,
            text_line: e.line,
            start,
            end,
            text: lines_of(&text),
            words,
        });
    }
    let transcript = read_captions(&captions, "caption", true, ctx)?;
    Ok(Corpus::single(ctx.recording_id(), transcript))
}

/// The text's lines, a `>>` inside a line starting a line of its own (automatic captions write
/// the change of speaker where it falls: `so that's it >> yes`).
fn lines_of(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.split('\n') {
        let mut rest = line.trim();
        // Past the first character: a line that opens with `>>` is not split before it.
        while let Some(i) = rest
            .char_indices()
            .nth(1)
            .and_then(|(first, _)| rest[first..].find(" >>").map(|i| first + i))
        {
            out.push(rest[..i].trim().to_owned());
            rest = rest[i..].trim_start();
        }
        out.push(rest.to_owned());
    }
    out
}

/// The words of an event whose pieces are timed: a piece that does not open with a space
/// continues the word before it (syllables of some languages' automatic captions); a word
/// starts at its first piece's time (the event's start for the first piece without an
/// offset), words after the first of one piece have none, and a timed word ends where the
/// next timed word starts, the last one with the caption. Times that do not rise inside the
/// caption are dropped from their words.
fn words_of(e: &Event, start: Time, end: Time) -> Vec<Word> {
    let mut words: Vec<Word> = Vec::new();
    let mut open = false;
    for (k, p) in e.pieces.iter().enumerate() {
        let at = match p.offset {
            Some(o) => millis(e.start.saturating_add(o)),
            None if k == 0 => Some(start),
            None => None,
        };
        let mut first = true;
        let mut rest = p.text.as_str();
        if !rest.starts_with(char::is_whitespace) && open {
            // The piece continues the word before it.
            let cont = rest.split(char::is_whitespace).next().unwrap_or("");
            if let Some(w) = words.last_mut() {
                w.text.push_str(cont);
            }
            rest = &rest[cont.len()..];
            first = false;
        }
        for token in rest.split_whitespace() {
            let mut w = Word::untimed(token);
            if first {
                w.start = at.filter(|&t| t >= start && t < end);
            }
            first = false;
            words.push(w);
        }
        open = !p.text.ends_with(char::is_whitespace) && !words.is_empty();
    }
    // Ends: the next timed word's start, the caption's end for the last.
    let mut next_start = end;
    for w in words.iter_mut().rev() {
        if let Some(s) = w.start {
            if s < next_start {
                w.end = Some(next_start);
                next_start = s;
            } else {
                w.start = None;
            }
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chevron_inside_a_line_starts_a_line() {
        assert_eq!(
            lines_of("so that's it >> yes\n>> JOHN: no"),
            ["so that's it", ">> yes", ">> JOHN: no"]
        );
        assert_eq!(lines_of(">>"), [">>"]);
    }

    #[test]
    fn syllables_join_their_word_and_times_rise() {
        let piece =
            |text: &str, offset: Option<i64>| Piece { text: text.to_owned(), offset, scored: true };
        let e = Event {
            line: 1,
            column: 1,
            start: 1000,
            duration: Some(2000),
            append: false,
            pieces: vec![
                piece("wh", None),
                piece("en", Some(30)),
                piece(" we", Some(500)),
                piece(" go", Some(400)),
            ],
        };
        let words = words_of(&e, Time::from_millis(1000), Time::from_millis(3000));
        let got: Vec<_> = words
            .iter()
            .map(|w| (w.text.as_str(), w.start.map(Time::micros), w.end.map(Time::micros)))
            .collect();
        assert_eq!(
            got,
            [
                ("when", Some(1_000_000), Some(1_400_000)),
                ("we", None, None),
                ("go", Some(1_400_000), Some(3_000_000))
            ]
        );
    }
}
