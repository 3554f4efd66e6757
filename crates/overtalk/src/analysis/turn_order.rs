//! Transcripts without times (a debate's rush transcript, a CHAT file without media bullets):
//! what the order of the turns, their words, and the transcriber's punctuation and notes can
//! say, and nothing that needs a clock (conversation-metrics.md, "Transcripts without times").
//!
//! Consecutive utterances of one speaker are one turn. Each speaker change is judged by how the
//! turn before it ends, after trailing notes and closing quotes are removed (the rules of
//! [`super::rules`], as for transcripts with start times only):
//!
//! ```text
//! turn  speaker  text                                     ends        change counted
//! 1     WALLACE  Mr. President, you have two minutes.     sentence
//! 2     TRUMP    Thank you very much. Chris, so --        cut_off
//! 3     BIDEN    Will you shut up, man? (CROSSTALK)       sentence    cut_off: BIDEN→TRUMP (also
//! 4     TRUMP    Listen, who is on your list, Joe         open                  no_sentence_end)
//! 5     WALLACE  Gentlemen, I think we've ended this.     sentence    no_sentence_end: WALLACE→TRUMP
//!
//! crosstalk 1 (the note in turn 3) · cut_off 1 · no_sentence_end 2 · timing: not measurable
//! ```
//!
//! Floor claims ("let me finish", the lexicon of `Params::verbal_claim_phrases`) are found in the
//! words of each turn; a claim *reclaims* the floor when the speaker's previous turn, just
//! before the other speaker's, ended without a sentence end. Talk and floor time, gaps, pauses,
//! overlaps, backchannels and the timing rule's interruptions need times: they are listed as not
//! measurable, never given as zero.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::claims::Lexicon;
use super::normalise::normalise_token;
use super::params::Params;
use super::rules::{self, cut_off, sentence_end, sentence_tail, RuleCount};
use crate::format::notes;
use crate::model::{MarkKind, Transcript};

/// What an untimed transcript says of its conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnOrder {
    /// What the numbers rest on.
    pub basis: String,
    /// What cannot be measured without times.
    pub not_measurable: Vec<String>,
    /// Turns (consecutive utterances of one speaker joined).
    pub turns: usize,
    /// Changes of speaker from one turn to the next.
    pub speaker_changes: usize,
    /// Words, outside the transcriber's notes.
    pub words: usize,
    /// Per speaker, by name.
    pub speakers: BTreeMap<String, SpeakerTurns>,
    /// Interruptions counted by each rule (the timing rule's count is `null`).
    pub rules: Vec<RuleCount>,
    /// Who cut off whom, by rule, most `no_sentence_end` changes first.
    pub pairs: Vec<TurnPair>,
    /// The transcriber's crosstalk notes.
    pub marked_overlaps: Vec<TurnNote>,
    /// Floor claims found in the words.
    pub verbal_claims: Vec<TurnClaim>,
    /// Every turn, in order.
    pub turn_list: Vec<TurnRow>,
}

/// One speaker's turns and words.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SpeakerTurns {
    /// Turns.
    pub turns: usize,
    /// Words.
    pub words: usize,
    /// Share of all words (`null` without words).
    pub word_share: Option<f64>,
    /// Share of all turns.
    pub turn_share: Option<f64>,
    /// Words in the longest turn.
    pub longest_turn_words: usize,
    /// Median words per turn.
    pub median_turn_words: Option<f64>,
    /// Turns ending with a question mark.
    pub questions: usize,
    /// Speaker changes onto this speaker after a cut-off turn (rule `cut_off`).
    pub cut_off_made: usize,
    /// This speaker's turns cut off by another speaker (rule `cut_off`).
    pub cut_off_received: usize,
    /// Speaker changes onto this speaker before the holder's sentence ended
    /// (rule `no_sentence_end`).
    pub no_sentence_end_made: usize,
    /// This speaker's turns followed by another speaker before their sentence ended.
    pub no_sentence_end_received: usize,
    /// Crosstalk notes in this speaker's turns.
    pub crosstalk_notes: usize,
    /// Floor claims in this speaker's words.
    pub verbal_claims: usize,
}

/// Who followed whom before the holder finished, by rule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnPair {
    /// The next speaker.
    pub interrupter: String,
    /// The holder, whose turn ended without a sentence end.
    pub interruptee: String,
    /// Changes after a dash or an ellipsis.
    pub cut_off: usize,
    /// Changes after no sentence end (dashes and ellipses included).
    pub no_sentence_end: usize,
}

/// A transcriber's note in a turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnNote {
    /// Turn number (1-based).
    pub turn: usize,
    /// The turn's speaker.
    pub speaker: String,
    /// The note as written, without its brackets.
    pub text: String,
}

/// A floor claim in a turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnClaim {
    /// Turn number (1-based).
    pub turn: usize,
    /// Who said it.
    pub speaker: String,
    /// The phrase as the lexicon gives it.
    pub phrase: String,
    /// The speaker of the turn before (`null` in the first turn).
    pub after: Option<String>,
    /// Whether the speaker's own turn before that one ended without a sentence end: the claim
    /// answers being cut off.
    pub reclaims: bool,
}

/// How a turn ends, by the transcriber's punctuation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnEnd {
    /// `.`, `?` or `!`.
    Sentence,
    /// A dash or an ellipsis: the transcriber's mark of a cut-off.
    CutOff,
    /// No terminal punctuation.
    Open,
    /// No text (notes only).
    Empty,
}

/// One turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnRow {
    /// Turn number (1-based).
    pub turn: usize,
    /// Speaker.
    pub speaker: String,
    /// Line of the source where the turn starts (0 when unknown).
    pub line: usize,
    /// Words.
    pub words: usize,
    /// How it ends.
    pub ends: TurnEnd,
    /// The turn's text as written, notes included; its utterances joined by line breaks.
    pub text: String,
}

/// What cannot be measured without times.
const NOT_MEASURABLE: &[&str] = &[
    "talk, solo and floor time and their shares",
    "speech and silence, gaps and pauses, floor-transfer offsets",
    "overlap: the crosstalk notes are the only evidence of it",
    "the timing rule's interruptions, terminal overlaps and simultaneous starts",
    "backchannels (judged by duration)",
];

/// The median of `v` (sorted here).
fn median(v: &mut [usize]) -> Option<f64> {
    v.sort_unstable();
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2] as f64),
        _ => Some((v[n / 2 - 1] + v[n / 2]) as f64 / 2.0),
    }
}

/// `part / whole`, `None` when `whole` is 0.
fn share(part: usize, whole: usize) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

/// The turn-order analysis of `t`; `None` unless `t` is an untimed transcript. Speakers named
/// in `p.ignore_labels` are left out, as the timed analysis leaves them out.
pub fn analyze(t: &Transcript, p: &Params) -> Option<TurnOrder> {
    if !t.is_untimed() {
        return None;
    }
    let ann = t.annotation();
    // Turns: (speaker, first line, text of the utterances joined, their normalised words).
    // The words are the reader's when it gives them (CHAT's, counted as CLAN counts them:
    // no `&-uh`, `xxx`, `0word`), else the text's tokens outside the transcriber's notes.
    let mut turns: Vec<(&str, usize, String, Vec<String>)> = Vec::new();
    for u in t.untimed() {
        let name = ann.speaker_name(u.speaker);
        if p.ignore_labels.iter().any(|l| l == name) {
            continue;
        }
        let text = u.content.display_text();
        let words: Vec<String> = if u.content.words.is_empty() {
            notes::without_notes(&text)
                .split_whitespace()
                .filter(|w| w.chars().any(char::is_alphanumeric))
                .map(normalise_token)
                .collect()
        } else {
            u.content
                .words
                .iter()
                .filter(|w| w.text.chars().any(char::is_alphanumeric))
                .map(|w| normalise_token(&w.text))
                .collect()
        };
        match turns.last_mut() {
            Some((speaker, _, joined, all)) if *speaker == name => {
                joined.push('\n');
                joined.push_str(&text);
                all.extend(words);
            }
            _ => turns.push((name, u.line, text, words)),
        }
    }
    let lexicon = Lexicon::new(&p.verbal_claim_phrases);
    let mut speakers: BTreeMap<String, SpeakerTurns> = BTreeMap::new();
    let mut lengths: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut rows = Vec::with_capacity(turns.len());
    let mut marked = Vec::new();
    let mut claims = Vec::new();
    let mut pairs: BTreeMap<(&str, &str), (usize, usize)> = BTreeMap::new();
    let (mut cut, mut open) = (BTreeMap::new(), BTreeMap::new());
    let (mut n_cut, mut n_open, mut changes, mut words_total) = (0, 0, 0, 0);
    for (i, (speaker, line, text, tokens)) in turns.iter().enumerate() {
        let turn = i + 1;
        let words = tokens.len();
        words_total += words;
        let tail = sentence_tail(text);
        let ends = if tail.is_empty() {
            TurnEnd::Empty
        } else if cut_off(tail) {
            TurnEnd::CutOff
        } else if sentence_end(tail) {
            TurnEnd::Sentence
        } else {
            TurnEnd::Open
        };
        let s = speakers.entry((*speaker).to_owned()).or_default();
        s.turns += 1;
        s.words += words;
        s.longest_turn_words = s.longest_turn_words.max(words);
        s.questions += usize::from(tail.ends_with('?'));
        lengths.entry(speaker).or_default().push(words);
        for note in notes::notes(text).iter().filter(|n| n.kind == MarkKind::Crosstalk) {
            s.crosstalk_notes += 1;
            marked.push(TurnNote { turn, speaker: (*speaker).to_owned(), text: note.inner.into() });
        }
        // The change from the turn before onto this one, judged by how that turn ended.
        let before = i.checked_sub(1).map(|j| (turns[j].0, rows_end(&rows, j)));
        if let Some((holder, holder_ends)) = before {
            changes += 1;
            let is_cut = holder_ends == TurnEnd::CutOff;
            let is_open = is_cut || holder_ends == TurnEnd::Open;
            if is_cut || is_open {
                let pair = pairs.entry((speaker, holder)).or_default();
                if is_cut {
                    n_cut += 1;
                    *cut.entry((*speaker).to_owned()).or_insert(0) += 1;
                    pair.0 += 1;
                }
                n_open += 1;
                *open.entry((*speaker).to_owned()).or_insert(0) += 1;
                pair.1 += 1;
            }
        }
        // Floor claims: the lexicon's phrases in the turn's words, without overlapping matches.
        let norms: Vec<&str> = tokens.iter().map(String::as_str).collect();
        let mut at = 0;
        while !lexicon.is_empty() && at < norms.len() {
            let Some((len, phrase)) = lexicon.at(&norms, at) else {
                at += 1;
                continue;
            };
            let after = before.map(|(holder, _)| holder.to_owned());
            // Cut off in their own turn before the other speaker's.
            let reclaims = i >= 2
                && turns[i - 2].0 == *speaker
                && matches!(rows_end(&rows, i - 2), TurnEnd::CutOff | TurnEnd::Open);
            claims.push(TurnClaim {
                turn,
                speaker: (*speaker).to_owned(),
                phrase: phrase.to_owned(),
                after,
                reclaims,
            });
            at += len;
        }
        rows.push(TurnRow {
            turn,
            speaker: (*speaker).to_owned(),
            line: *line,
            words,
            ends,
            text: text.clone(),
        });
    }
    for c in &claims {
        if let Some(s) = speakers.get_mut(&c.speaker) {
            s.verbal_claims += 1;
        }
    }
    for ((interrupter, holder), (c, o)) in &pairs {
        if let Some(s) = speakers.get_mut(*interrupter) {
            s.cut_off_made += c;
            s.no_sentence_end_made += o;
        }
        if let Some(s) = speakers.get_mut(*holder) {
            s.cut_off_received += c;
            s.no_sentence_end_received += o;
        }
    }
    let n_turns = rows.len();
    for (name, s) in speakers.iter_mut() {
        s.word_share = share(s.words, words_total);
        s.turn_share = share(s.turns, n_turns);
        s.median_turn_words = lengths.get_mut(name.as_str()).and_then(|v| median(v));
    }
    let mut pairs: Vec<TurnPair> = pairs
        .into_iter()
        .map(|((interrupter, interruptee), (cut_off, no_sentence_end))| TurnPair {
            interrupter: interrupter.to_owned(),
            interruptee: interruptee.to_owned(),
            cut_off,
            no_sentence_end,
        })
        .collect();
    pairs.sort_by(|a, b| b.no_sentence_end.cmp(&a.no_sentence_end).then(b.cut_off.cmp(&a.cut_off)));
    let crosstalk = marked.len();
    let timing = "not measurable: the transcript has no times, so no start can be placed inside another speaker's talk".to_owned();
    Some(TurnOrder {
        basis: "the order of the turns, their words, and the transcriber's punctuation and notes: the transcript has no times".to_owned(),
        not_measurable: NOT_MEASURABLE.iter().map(|s| (*s).to_owned()).collect(),
        turns: n_turns,
        speaker_changes: changes,
        words: words_total,
        speakers,
        rules: rules::rule_counts(crosstalk, (n_cut, cut), (n_open, open), timing),
        pairs,
        marked_overlaps: marked,
        verbal_claims: claims,
        turn_list: rows,
    })
}

/// How turn `j` (already judged) ends.
fn rows_end(rows: &[TurnRow], j: usize) -> TurnEnd {
    rows.get(j).map_or(TurnEnd::Empty, |r| r.ends)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, Format, ReadOptions};

    const DEBATE: &str = "\
WALLACE: Mr. President, you have two minutes.
TRUMP: Thank you very much. Chris, so --
BIDEN: Will you shut up, man? (CROSSTALK)
TRUMP: Listen, who is on your list, Joe
WALLACE: Gentlemen, I think we've ended this.
BIDEN: Let me finish. The fact is --
TRUMP: No.
BIDEN: When I'm talking, you're not talking.
";

    fn order(text: &str, p: &Params) -> TurnOrder {
        let out = read_str(text, Format::Paragraphs, &ReadOptions::default()).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        analyze(t, p).unwrap()
    }

    #[test]
    fn the_debate_counted_by_each_rule() {
        let o = order(DEBATE, &Params::default());
        assert_eq!((o.turns, o.speaker_changes, o.words), (8, 7, 43));
        let counts: Vec<(&str, Option<usize>)> =
            o.rules.iter().map(|r| (r.rule.as_str(), r.count)).collect();
        assert_eq!(
            counts,
            vec![
                ("crosstalk", Some(1)),
                ("cut_off", Some(2)),
                ("no_sentence_end", Some(3)),
                ("timing", None)
            ]
        );
        // TRUMP cut off by BIDEN (turn 2 → 3), BIDEN by TRUMP (6 → 7); TRUMP's open turn 4
        // followed by WALLACE.
        assert_eq!(
            o.rules[1].by_speaker,
            BTreeMap::from([("BIDEN".into(), 1), ("TRUMP".into(), 1)])
        );
        assert_eq!(
            o.rules[2].by_speaker,
            BTreeMap::from([("BIDEN".into(), 1), ("TRUMP".into(), 1), ("WALLACE".into(), 1)])
        );
        let biden = &o.speakers["BIDEN"];
        assert_eq!((biden.turns, biden.cut_off_made, biden.cut_off_received), (3, 1, 1));
        assert_eq!((biden.crosstalk_notes, biden.questions, biden.verbal_claims), (1, 1, 3));
        let trump = &o.speakers["TRUMP"];
        assert_eq!((trump.no_sentence_end_received, trump.no_sentence_end_made), (2, 1));
        assert_eq!(trump.words, 6 + 7 + 1);
        assert_eq!(trump.word_share, Some(14.0 / 43.0));
        assert_eq!(trump.median_turn_words, Some(6.0));
        assert_eq!(
            o.marked_overlaps,
            vec![TurnNote { turn: 3, speaker: "BIDEN".into(), text: "CROSSTALK".into() }]
        );
        let ends: Vec<TurnEnd> = o.turn_list.iter().map(|r| r.ends).collect();
        use TurnEnd::*;
        assert_eq!(
            ends,
            vec![Sentence, CutOff, Sentence, Open, Sentence, CutOff, Sentence, Sentence]
        );
        // "Let me finish" opens turn 6 (BIDEN's turn 3 ended with a sentence: no reclaim); the
        // two phrases of turn 8 follow BIDEN's cut-off turn 6: they reclaim the floor.
        let claims: Vec<(usize, &str, Option<&str>, bool)> = o
            .verbal_claims
            .iter()
            .map(|c| (c.turn, c.phrase.as_str(), c.after.as_deref(), c.reclaims))
            .collect();
        assert_eq!(
            claims,
            vec![
                (6, "let me finish", Some("WALLACE"), false),
                (8, "when i'm talking", Some("TRUMP"), true),
                (8, "you're not talking", Some("TRUMP"), true),
            ]
        );
        assert_eq!(
            o.pairs[0],
            TurnPair {
                interrupter: "BIDEN".into(),
                interruptee: "TRUMP".into(),
                cut_off: 1,
                no_sentence_end: 1
            }
        );
    }

    #[test]
    fn one_speakers_utterances_in_a_row_are_one_turn_and_ignored_labels_are_left_out() {
        let text = "A: Hello --\nA: I mean, hello.\nB: Hi\nNOISE: (COUGH)\nA: Right.\nB: Bye.\n";
        let mut p = Params::default();
        let o = order(text, &p);
        assert_eq!(o.turns, 5);
        p.ignore_labels = vec!["NOISE".into()];
        let o = order(text, &p);
        // A A → one turn ending with a sentence; B "Hi" open → A counted under no_sentence_end.
        assert_eq!(o.turns, 4);
        assert_eq!(o.rules[1].count, Some(0));
        assert_eq!(o.rules[2].count, Some(1));
        assert!(!o.speakers.contains_key("NOISE"));
        assert_eq!(o.turn_list[0].words, 4);
        // A timed transcript has no turn-order analysis.
        let rttm = "SPEAKER r 1 0.0 1.0 <NA> <NA> A <NA> <NA>\n";
        let timed = read_str(rttm, Format::Rttm, &ReadOptions::default()).unwrap();
        assert!(analyze(timed.corpus.iter().next().unwrap().1, &p).is_none());
    }
}
