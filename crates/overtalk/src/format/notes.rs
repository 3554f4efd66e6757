//! Transcribers' notes inside the text of a turn: what they mark (people talking over each
//! other, speech not made out, laughter) and the words left when they are taken out.
//!
//! Services write them in brackets (`[crosstalk 00:13:22]`, `[inaudible]`, Rev, Otter); the
//! rush transcripts of broadcasters in parentheses and capitals (`(CROSSTALK)`,
//! `(LAUGHTER)`, `(APPLAUSE)`). A note in parentheses is one only when its first word is a
//! known kind (`(crosstalk)`, `(laughs)`) or it is all capitals of five letters or more, so
//! that a speaker's aside in parentheses (`(and I mean that)`, `(NATO)`) stays speech:
//!
//! ```text
//! I think [crosstalk 00:13:22] so (CROSSTALK) -- (and I mean that) yes.
//!         └ crosstalk, 00:13:22 ┘  └ crosstalk ┘    └ speech ─────┘
//! words: I think so -- and I mean that yes.  → 8 words (the dashes are no word)
//! ```

use crate::model::MarkKind;

/// Longest note read, in bytes: a longer bracket is text, not a note.
pub(crate) const MAX_NOTE_BYTES: usize = 200;

/// One note in a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Note<'a> {
    /// What it marks.
    pub(crate) kind: MarkKind,
    /// The note without its brackets, trimmed (`crosstalk 00:13:22`).
    pub(crate) inner: &'a str,
    /// Byte range of the note in the text, brackets included.
    pub(crate) range: (usize, usize),
}

/// What a note says happened, from its first word.
pub(crate) fn kind_of(inner: &str) -> MarkKind {
    let word: String = inner
        .split(|c: char| c.is_whitespace() || c.is_ascii_digit() || c == ':')
        .next()
        .unwrap_or("")
        .to_lowercase();
    // CHAT's overlap scopes: `[<]` (this utterance overlaps the one before) is the mark of one
    // overlap; its partner `[>]` is not counted again.
    let scope =
        |c: char| inner.strip_prefix(c).is_some_and(|n| n.chars().all(|d| d.is_ascii_digit()));
    if scope('<') {
        return MarkKind::Crosstalk;
    }
    match word.trim_end_matches(['-', ',', '.']) {
        "crosstalk" | "cross-talk" | "overlapping" | "overtalk" => MarkKind::Crosstalk,
        "cross" if inner.to_lowercase().starts_with("cross talk") => MarkKind::Crosstalk,
        "inaudible" | "unintelligible" | "indiscernible" => MarkKind::Inaudible,
        "laughter" | "laughs" | "laughing" | "laugh" => MarkKind::Laughter,
        _ => MarkKind::Other,
    }
}

/// Whether a note in parentheses is a transcriber's: a known kind, or all capitals with at
/// least five letters (`(APPLAUSE)`, `(BELL RINGS)`; an acronym aside such as `(NATO)` or
/// `(FBI)` stays speech).
pub(crate) fn parenthesised_note(inner: &str) -> bool {
    let letters = inner.chars().filter(|c| c.is_alphabetic()).count();
    kind_of(inner) != MarkKind::Other || (letters >= 5 && !inner.chars().any(char::is_lowercase))
}

/// Whether the bytes `start..end` of `text` fill lines of their own below its first line:
/// a line break and nothing but spaces before them, nothing but spaces after them on their last
/// line. A note in parentheses set apart so is the transcriber's, whatever its words
/// (`(Pause)`, `(Witness sworn.)`, `(Whereupon, at 11:58 a.m., the case was submitted.)`, as
/// court reporters write them between the lines of a turn): a speaker's aside in parentheses
/// sits inside a sentence, or is the whole of what they said (`JONES: (It was a joke.)`).
pub(crate) fn alone(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].trim_end_matches([' ', '\t']);
    let after = text[end..].trim_start_matches([' ', '\t']);
    before.ends_with('\n') && (after.is_empty() || after.starts_with(['\n', '\r']))
}

/// The notes of `text`, in order: every `[…]`, and every `(…)` that is a transcriber's note
/// ([`parenthesised_note`]) or fills its lines ([`alone`]). An opening bracket without its closing one within
/// [`MAX_NOTE_BYTES`], or with another opening bracket before it, opens no note.
pub(crate) fn notes(text: &str) -> Vec<Note<'_>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(['[', '(']).map(|i| from + i) {
        let (open, close) = if text.as_bytes()[i] == b'[' { ('[', ']') } else { ('(', ')') };
        let body = i + 1;
        let mut end = (body + MAX_NOTE_BYTES).min(text.len());
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let window = &text[body..end];
        from = body;
        let Some(at) = window.find([close, open]) else { continue };
        if window[at..].starts_with(open) {
            continue;
        }
        let inner = window[..at].trim();
        let after = body + at + 1;
        from = after;
        if inner.is_empty() || (open == '(' && !parenthesised_note(inner) && !alone(text, i, after))
        {
            continue;
        }
        out.push(Note { kind: kind_of(inner), inner, range: (i, after) });
    }
    out
}

/// `text` without its notes (each replaced by a space).
pub(crate) fn without_notes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for n in notes(text) {
        out.push_str(&text[at..n.range.0]);
        out.push(' ');
        at = n.range.1;
    }
    out.push_str(&text[at..]);
    out
}

/// The words of `text` outside its notes: tokens with a letter or a digit.
pub(crate) fn word_count(text: &str) -> usize {
    without_notes(text).split_whitespace().filter(|t| t.chars().any(char::is_alphanumeric)).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_and_capitals_in_parentheses_are_notes() {
        let text = "I think [crosstalk 00:13:22] so (CROSSTALK) -- (and I mean that) yes (laughs).";
        let found: Vec<(MarkKind, &str)> = notes(text).iter().map(|n| (n.kind, n.inner)).collect();
        assert_eq!(
            found,
            vec![
                (MarkKind::Crosstalk, "crosstalk 00:13:22"),
                (MarkKind::Crosstalk, "CROSSTALK"),
                (MarkKind::Laughter, "laughs"),
            ]
        );
        assert_eq!(word_count(text), 8);
        assert_eq!(without_notes("a (APPLAUSE) b"), "a   b");
        assert_eq!(notes("(APPLAUSE)")[0].kind, MarkKind::Other);
        // Not notes: one capital, an aside, unclosed or nested brackets, empty ones.
        assert!(notes("(A) (NATO) (I mean) [unclosed ( [] ()").is_empty());
        assert_eq!(notes("[a [b]")[0].inner, "b");
        // A long bracket is text; a multi-byte character at the limit does not split.
        assert!(notes(&format!("[{}]", "€".repeat(100))).is_empty());
        assert_eq!(word_count("[laughter]"), 0);
        // A parenthesis on lines of its own below the first is a note, whatever its words; the
        // whole of a text in parentheses is speech (an aside).
        assert!(notes("(It was a joke.)").is_empty());
        let court = "there too.\n(Pause)\nYes (I think) so.\n(Whereupon, the case was\nsubmitted.)";
        let found: Vec<&str> = notes(court).iter().map(|n| n.inner).collect();
        assert_eq!(found, vec!["Pause", "Whereupon, the case was\nsubmitted."]);
        assert_eq!(word_count(court), 6);
        let chat: Vec<MarkKind> =
            notes("so I [>] +/. no [<] . [<1] [>1]").iter().map(|n| n.kind).collect();
        use MarkKind::*;
        assert_eq!(chat, vec![Other, Crosstalk, Crosstalk, Other]);
    }
}
