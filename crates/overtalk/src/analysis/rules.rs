//! Transcripts whose ends are estimated (paragraph transcripts with start times only, see
//! [`crate::format::paragraphs`]): what rests on the estimates, the overlaps the transcriber
//! marked, and interruptions counted rule by rule (conversation-metrics.md, "Transcripts with
//! start times only").
//!
//! Newspapers that tallied interruptions in the same televised debate published very different
//! numbers because they counted different things. Given only who spoke when each paragraph
//! began, each published rule can still be applied, and they are reported side by side:
//!
//! ```text
//! Bo (0:12)  Thank you, Ana. I want to say that the plan is—     ← ends with a dash
//! Cy (0:15)  That is not true. [crosstalk 00:00:16]              ← a crosstalk note
//! Bo (0:18)  Let me finish                                      ← no sentence end
//! Ana (0:21) Thank you both.
//!
//! crosstalk          2   every crosstalk note (the transcriber's judgement)
//! cut_off            1   a speaker change after a dash or an ellipsis (Bo → Cy)
//! no_sentence_end    2   … or after no terminal punctuation at all (Bo → Cy, Bo → Ana)
//! timing             —   the rule book's timing rule: not measurable, the ends are estimated
//! ```
//!
//! A paragraph's end is judged after removing trailing bracketed notes and closing quotes:
//! `That is not true. [crosstalk 00:00:16]` ends a sentence.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::units::Millis;
use crate::format::paragraphs::WORDS_PER_SECOND;
use crate::model::{MarkKind, Transcript, TranscriptBuilder};

/// What an analysis of a transcript with estimated ends can and cannot say (extension).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EstimatedTimes {
    /// Tracks in the transcript.
    pub tracks: usize,
    /// Tracks whose end was estimated.
    pub estimated_ends: usize,
    /// The speaking rate that bounds an estimated end (words per second).
    pub words_per_second: i64,
    /// The numbers of the analysis that rest on estimated ends.
    pub rest_on_estimated_ends: Vec<String>,
    /// The numbers that rest on the start times alone.
    pub from_start_times: Vec<String>,
    /// Overlap from the times: always "not measurable" here.
    pub overlap: String,
    /// The transcriber's `[crosstalk]` notes, as marked overlaps.
    pub marked_overlaps: Vec<MarkedOverlap>,
    /// Interruptions counted by each rule.
    pub rules: Vec<RuleCount>,
}

/// One `[crosstalk]` note: the transcriber judged that people talked over each other here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarkedOverlap {
    /// When (ms): the time written in the note, else the start of its paragraph.
    pub time: Millis,
    /// `note` when the note gives the time, `paragraph start` when it does not.
    pub time_from: String,
    /// The speaker of the paragraph holding the note.
    pub speaker: Option<String>,
    /// The note as written.
    pub text: String,
}

/// How many interruptions one rule counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleCount {
    /// `crosstalk`, `cut_off`, `no_sentence_end` or `timing`.
    pub rule: String,
    /// What the rule counts.
    pub description: String,
    /// The count; `null` when the rule cannot be applied to these times.
    pub count: Option<usize>,
    /// Per interrupting speaker, when the rule says who interrupted.
    pub by_speaker: BTreeMap<String, usize>,
    /// Why the count is `null`, or what it rests on.
    pub basis: String,
}

/// The transcript without text and words, keeping estimated ends and notes: analysis of
/// paragraph transcripts runs in timing-only mode, since their words have no times.
pub fn without_text(t: &Transcript) -> Transcript {
    let mut b = TranscriptBuilder::new();
    for (_, name) in t.annotation().speakers().iter() {
        b.speaker(name);
    }
    for (i, u) in t.utterances().enumerate() {
        b.add(u.segment, u.speaker_name, None);
        if t.end_estimated(i) {
            b.end_estimated();
        }
    }
    for m in t.marks() {
        b.mark(m.clone());
    }
    b.extent(t.declared_extent());
    b.build()
}

/// A paragraph's text without trailing notes (`[crosstalk]`, `(CROSSTALK)`), closing quotes and
/// spaces. One note or one run of closing marks comes off per step, so `(CHEERING)
/// (APPLAUSE)` leaves the sentence before both; a note is looked for only within
/// [`MAX_NOTE_BYTES`](crate::format::notes::MAX_NOTE_BYTES) of the end, so a turn of many
/// notes is read once, not once per note.
pub(crate) fn sentence_tail(text: &str) -> &str {
    let mut s = text.trim_end();
    loop {
        if let Some(open) = trailing_note(s) {
            s = s[..open].trim_end();
            continue;
        }
        let trimmed = s.trim_end_matches(['"', '\'', '”', '’', ')', '*']).trim_end();
        if trimmed.len() == s.len() {
            return s;
        }
        s = trimmed;
    }
}

/// Where the note that ends `s` starts: a `[…]`, or a `(…)` that is a transcriber's note
/// ([`parenthesised_note`](crate::format::notes::parenthesised_note)) or fills its lines
/// ([`alone`](crate::format::notes::alone)), within
/// `MAX_NOTE_BYTES` of the end.
fn trailing_note(s: &str) -> Option<usize> {
    let close = s.chars().next_back()?;
    let open = match close {
        ']' => '[',
        ')' => '(',
        _ => return None,
    };
    let mut from = s.len().saturating_sub(crate::format::notes::MAX_NOTE_BYTES + 2);
    while !s.is_char_boundary(from) {
        from += 1;
    }
    let at = from + s[from..].rfind(open)?;
    let inner = &s[at + 1..s.len() - 1];
    let note = open == '['
        || crate::format::notes::parenthesised_note(inner)
        || crate::format::notes::alone(s, at, s.len());
    note.then_some(at)
}

/// Whether a text ends with a dash or an ellipsis (the transcriber's mark of a cut-off), or
/// CHAT's interruption terminator. The Government Publishing Office's text of some hearings
/// prints the dash as an underscore (`Mr. Chairman_`): a last word with one underscore, at its
/// end, is cut off too (`_emphasis_` in Markdown, with two, is not).
pub(crate) fn cut_off(tail: &str) -> bool {
    let underscore = tail.ends_with('_')
        && tail.split_whitespace().next_back().is_some_and(|w| w.matches('_').count() == 1);
    underscore
        || tail.ends_with(['-', '–', '—', '…'])
        // An ellipsis, but not CHAT's `+...` (trailing off: unfinished, not interrupted).
        || (tail.ends_with("...") && !tail.ends_with("+..."))
        // CHAT's terminators of an utterance interrupted by another speaker (`+/.`, `+/?`);
        // `+//.` is a speaker breaking off their own utterance.
        || tail.ends_with("+/.")
        || tail.ends_with("+/?")
}

/// Whether a text ends a sentence (`.`, `?`, `!`, not an ellipsis).
pub(crate) fn sentence_end(tail: &str) -> bool {
    tail.ends_with(['.', '?', '!']) && !tail.ends_with("...")
}

/// The interruptions counted rule by rule: `crosstalk` notes, `cut_off` and `no_sentence_end`
/// speaker changes (each with its count per interrupting speaker), and the timing rule, which
/// `timing_basis` says why it cannot be applied.
pub(crate) fn rule_counts(
    crosstalk: usize,
    (n_cut, cut): (usize, BTreeMap<String, usize>),
    (n_open, open): (usize, BTreeMap<String, usize>),
    timing_basis: String,
) -> Vec<RuleCount> {
    vec![
        RuleCount {
            rule: "crosstalk".to_owned(),
            description: "every crosstalk note ([crosstalk], (CROSSTALK), CHAT's [<])".to_owned(),
            count: Some(crosstalk),
            by_speaker: BTreeMap::new(),
            basis: "the transcriber's judgement; a note does not say who started talking over whom".to_owned(),
        },
        RuleCount {
            rule: "cut_off".to_owned(),
            description: "a speaker change after a turn ending with a dash or an ellipsis (CHAT: +/. or +/?)".to_owned(),
            count: Some(n_cut),
            by_speaker: cut,
            basis: "the transcriber's punctuation; counted for the next speaker".to_owned(),
        },
        RuleCount {
            rule: "no_sentence_end".to_owned(),
            description: "a speaker change before the holder's sentence ended: no . ? ! at the end of the turn (dashes and ellipses included)".to_owned(),
            count: Some(n_open),
            by_speaker: open,
            basis: "the transcriber's punctuation; counted for the next speaker".to_owned(),
        },
        RuleCount {
            rule: "timing".to_owned(),
            description: "the rule book's timing rule (conversation-metrics.md, interruptions): a start inside the holder's talk, away from a completion point".to_owned(),
            count: None,
            by_speaker: BTreeMap::new(),
            basis: timing_basis,
        },
    ]
}

/// What an analysis of `t` rests on, and the rule-by-rule counts; `None` when no end of `t` is
/// estimated.
pub fn assess(t: &Transcript) -> Option<EstimatedTimes> {
    let estimated = t.estimated_ends();
    if estimated == 0 {
        return None;
    }
    let tracks = t.annotation().len();
    let ms = |us: i64| super::normalise::to_ms(us);
    let mut marked = Vec::new();
    for m in t.marks().iter().filter(|m| m.kind == MarkKind::Crosstalk) {
        let (time, from) = match (m.at, m.paragraph_start) {
            (Some(at), _) => (ms(at.micros()), "note"),
            (None, Some(p)) => (ms(p.micros()), "paragraph start"),
            (None, None) => continue,
        };
        marked.push(MarkedOverlap {
            time,
            time_from: from.to_owned(),
            speaker: m.speaker.clone(),
            text: m.text.clone(),
        });
    }
    let crosstalk = t.marks().iter().filter(|m| m.kind == MarkKind::Crosstalk).count();
    let (mut cut, mut open) = (BTreeMap::new(), BTreeMap::new());
    let (mut n_cut, mut n_open) = (0usize, 0usize);
    let utterances: Vec<_> = t.utterances().collect();
    for pair in utterances.windows(2) {
        let (holder, next) = (&pair[0], &pair[1]);
        if holder.speaker == next.speaker {
            continue;
        }
        let Some(text) = holder.content.map(|c| c.display_text()) else { continue };
        let tail = sentence_tail(&text);
        if tail.is_empty() {
            continue;
        }
        let who = next.speaker_name.to_owned();
        if cut_off(tail) {
            n_cut += 1;
            *cut.entry(who.clone()).or_insert(0) += 1;
        }
        if cut_off(tail) || !sentence_end(tail) {
            n_open += 1;
            *open.entry(who).or_insert(0) += 1;
        }
    }
    let timing_basis = if estimated == tracks {
        "not measurable: every end is estimated, so no start can be placed inside another speaker's talk".to_owned()
    } else {
        format!("not measurable: {estimated} of {tracks} ends are estimated")
    };
    let rules = rule_counts(crosstalk, (n_cut, cut), (n_open, open), timing_basis);
    Some(EstimatedTimes {
        tracks,
        estimated_ends: estimated,
        words_per_second: WORDS_PER_SECOND,
        rest_on_estimated_ends: [
            "talk, solo and floor time and their shares",
            "turn lengths (longest turn)",
            "speech and silence totals, gaps and pauses (H&E intervals) and floor-transfer offsets",
            "backchannels (judged by duration in timing-only mode)",
        ]
        .map(str::to_owned)
        .to_vec(),
        from_start_times: ["turn and floor-transfer counts", "the order of speakers"]
            .map(str::to_owned)
            .to_vec(),
        overlap: "not measurable from the times: each paragraph ends no later than the next starts; the [crosstalk] notes are the only evidence of overlap".to_owned(),
        marked_overlaps: marked,
        rules,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentence_ends_after_notes_and_quotes() {
        assert_eq!(sentence_tail("That is not true. [crosstalk 00:00:16]"), "That is not true.");
        assert_eq!(sentence_tail("He said \"no.\"  "), "He said \"no.");
        assert_eq!(sentence_tail("Will you shut up, man? (CROSSTALK)"), "Will you shut up, man?");
        assert_eq!(sentence_tail("(It was a joke.)"), "(It was a joke.");
        // A note on a line of its own below the turn's first line (a court reporter's).
        assert_eq!(sentence_tail("there too.\n(Pause)"), "there too.");
        assert_eq!(sentence_tail("I said (and I mean it)"), "I said (and I mean it");
        assert!(cut_off(sentence_tail("the plan is—")));
        assert!(cut_off(sentence_tail("and then...")));
        assert!(cut_off("Mr. Chairman_") && cut_off("the _"));
        assert!(!cut_off("I _really_") && !cut_off("see my_file.txt"));
        assert!(cut_off("so I [>] +/.") && cut_off("are you +/?"));
        assert!(!cut_off("so I +//.") && !cut_off("so I.") && !cut_off("so I +..."));
        // Two trailing notes: the sentence before both.
        assert_eq!(sentence_tail("We will win. (CHEERING) (APPLAUSE)"), "We will win.");
        assert_eq!(sentence_tail("We will [laughs] (APPLAUSE)"), "We will");
        // Many notes in a long turn: linear (a quadratic scan of this takes minutes).
        let long = format!("({} x", "[n] ".repeat(200_000));
        assert_eq!(sentence_tail(&format!("{long})")), format!("{long}"));
        let notes = format!("ok.{}", " (APPLAUSE)".repeat(100_000));
        assert_eq!(sentence_tail(&notes), "ok.");
        assert!(!sentence_end("and then..."));
        assert!(sentence_end("Really?"));
        assert!(!sentence_end("Let me finish"));
    }
}
