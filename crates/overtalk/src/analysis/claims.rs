//! Floor claims in the words: phrases like "let me finish", "when I'm talking", "hold on",
//! "stop", found in the tokens of talkspurts and tied to the onset they answer.
//!
//! The lexicon is `Params::verbal_claim_phrases` (default [`VERBAL_CLAIM_PHRASES`]), matched on
//! normalised tokens (§5.1), longest phrase first, without overlapping matches. A match answers
//! the latest talk-over or interruption onset by another speaker at or before the phrase, when
//! that speaker has been talking since the onset until at most `verbal_claim_window` before the
//! phrase (one of their talkspurts starting at or after the onset is still running, or ended
//! that recently); a later phrase in the same talkspurt answers the same onset:
//!
//! ```text
//! A (onset 7900, interruption)  [7900────────9900)
//! H                                   [9400── "When I'm talking" @10075 ──13000)
//!                                              10075 − 9900 = 175 ≤ 2000 ⇒ answers A@7900
//! ```
//!
//! [`VERBAL_CLAIM_PHRASES`]: super::params::VERBAL_CLAIM_PHRASES

use super::normalise::{normalise_token, WordToken};
use super::onsets::{OnsetClass, OnsetRec};
use super::talkspurt::Talkspurt;
use super::units::{Millis, SpeakerIndex};

/// One verbal claim (speakers as indices).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerbalClaim {
    /// Speaker.
    pub speaker: SpeakerIndex,
    /// The phrase as given in the lexicon.
    pub phrase: String,
    /// Start (ms).
    pub start: Millis,
    /// End (ms).
    pub end: Millis,
    /// Index into the onset list.
    pub answers: Option<usize>,
}

/// The claim phrases as normalised tokens, longest first: at any word, the longest phrase
/// that starts there wins.
pub(crate) struct Lexicon<'a>(Vec<(Vec<String>, &'a str)>);

impl<'a> Lexicon<'a> {
    /// The lexicon of `phrases` (phrases without a word left out).
    pub(crate) fn new(phrases: &'a [String]) -> Self {
        let mut lexicon: Vec<(Vec<String>, &str)> = phrases
            .iter()
            .map(|p| {
                let tokens = p.split_whitespace().map(normalise_token).filter(|t| !t.is_empty());
                (tokens.collect(), p.as_str())
            })
            .filter(|(t, _): &(Vec<String>, &str)| !t.is_empty())
            .collect();
        lexicon.sort_by_key(|l| std::cmp::Reverse(l.0.len()));
        Lexicon(lexicon)
    }

    /// Whether no phrase has a word.
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The phrase starting at word `i` of `words` (normalised tokens): its length in words and
    /// the phrase as the lexicon gives it.
    pub(crate) fn at(&self, words: &[&str], i: usize) -> Option<(usize, &'a str)> {
        let rest = words.get(i..)?;
        self.0.iter().find_map(|(tokens, phrase)| {
            (rest.len() >= tokens.len() && tokens.iter().zip(rest).all(|(a, w)| a == w))
                .then_some((tokens.len(), *phrase))
        })
    }
}

/// Finds the lexicon phrases in every talkspurt and ties each to the onset it answers.
pub fn find(
    spurts: &[Talkspurt],
    onsets: &[OnsetRec],
    phrases: &[String],
    window: Millis,
) -> Vec<VerbalClaim> {
    // Without any word there is nothing to match (and no lexicon to prepare).
    if !spurts.iter().any(|s| s.has_tokens) {
        return Vec::new();
    }
    let lexicon = Lexicon::new(phrases);
    let mut out = Vec::new();
    if lexicon.is_empty() {
        return out;
    }
    // Talkspurt indices per speaker, built on the first phrase found.
    let mut by: Option<Vec<Vec<usize>>> = None;
    // One buffer for the words of every talkspurt, and one for their normalised forms.
    let mut words: Vec<&WordToken> = Vec::new();
    let mut norms: Vec<&str> = Vec::new();
    for s in spurts {
        words.clear();
        words.extend(s.tokens.iter().filter(|t| t.is_word()));
        // A later phrase of the same talkspurt answers the same onset as an earlier one.
        let mut answered: Option<usize> = None;
        norms.clear();
        norms.extend(words.iter().map(|w| w.norm.as_str()));
        let mut i = 0;
        while i < words.len() {
            match lexicon.at(&norms, i) {
                Some((len, phrase)) => {
                    let by = by.get_or_insert_with(|| {
                        let n_speakers =
                            spurts.iter().map(|s| s.speaker.index() + 1).max().unwrap_or(0);
                        super::backchannel::by_speaker(spurts, n_speakers, false)
                    });
                    let (start, end) = (words[i].start, words[i + len - 1].end);
                    let answers = onsets
                        .iter()
                        .enumerate()
                        .rev()
                        .filter(|(_, o)| {
                            o.speaker != s.speaker
                                && o.time <= start
                                && matches!(
                                    o.class,
                                    OnsetClass::Interruption
                                        | OnsetClass::TerminalOverlap
                                        | OnsetClass::SilentInterruption
                                )
                        })
                        .find(|(_, o)| {
                            // Y's last talkspurt starting by the phrase has the latest end.
                            let own = &by[o.speaker.index()];
                            let n = own.partition_point(|&j| spurts[j].start <= start);
                            n.checked_sub(1)
                                .map(|j| &spurts[own[j]])
                                .is_some_and(|y| y.start >= o.time && y.end >= start - window)
                        })
                        .map(|(k, _)| k)
                        .or(answered);
                    answered = answers;
                    out.push(VerbalClaim {
                        speaker: s.speaker,
                        phrase: phrase.to_owned(),
                        start,
                        end,
                        answers,
                    });
                    i += len;
                }
                None => i += 1,
            }
        }
    }
    out.sort_by_key(|c| (c.start, c.end, c.speaker));
    out
}
