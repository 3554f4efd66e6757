//! S1 — validate and normalise: from a [`Transcript`] to integer-millisecond segments with
//! timed tokens (conversation-metrics.md §5.1, §5.4 S1).
//!
//! Time base: the model stores microseconds; the analysis works in integer milliseconds, each
//! time converted with [`round_div`](crate::time::round_div)`(µs, 1000)` — round half away from zero, the §5.1 rule
//! applied to exact integers (so 12.5 ms → 13 ms, −12.5 ms → −13 ms) instead of to an f64
//! product. Every comparison after this stage is on integers.
//!
//! ```text
//! µs   0 ......... 1_000_499 | 1_000_500 ........
//! ms   0 ......... 1000      | 1001
//! ```

use unicode_normalization::UnicodeNormalization;

use super::units::{Millis, SpeakerIndex};
use crate::model::{Content, Transcript};

/// Converts microseconds to milliseconds, rounding half away from zero (as
/// [`Millis::from_time`]).
#[inline]
pub fn to_ms(us: i64) -> Millis {
    Millis::new(super::units::round_us_to_ms(us))
}

/// One token with its time span (ms) and its precomputed lexical properties.
#[derive(Clone, Debug, PartialEq)]
pub struct WordToken {
    /// As written.
    pub raw: String,
    /// Normalised (§5.1): lowercase, letters/digits/apostrophes/hyphens, edges stripped.
    pub norm: String,
    /// Start (ms).
    pub start: Millis,
    /// End (ms).
    pub end: Millis,
    /// Ends a possible completion point (§5.1 "terminal token").
    pub terminal: bool,
    /// Comes from a laughter-only segment (excluded from word counts, Q4).
    pub laughter: bool,
}

impl WordToken {
    /// Whether the token counts as a word: not punctuation-only (Q5), not laughter (Q4).
    pub fn is_word(&self) -> bool {
        !self.norm.is_empty() && !self.laughter
    }
}

/// One input segment after S1.
#[derive(Clone, Debug, PartialEq)]
pub struct NormSegment {
    /// Speaker (into the name-sorted speaker list).
    pub speaker: SpeakerIndex,
    /// Start (ms).
    pub start: Millis,
    /// End (ms), `> start`.
    pub end: Millis,
    /// Tokens in time order.
    pub tokens: Vec<WordToken>,
    /// The whole segment is laughter (`^\[?laugh`, case-insensitive).
    pub laughter: bool,
    /// Position in input order (tie-break for word order).
    pub order: usize,
}

/// The outcome of S1.
#[derive(Clone, Debug, Default)]
pub struct Normalised {
    /// Speaker names in code-point order; the positions are the analysis' [`SpeakerIndex`]es.
    pub speakers: Vec<String>,
    /// Segments sorted by `(speaker, start, end, order)`.
    pub segments: Vec<NormSegment>,
    /// Segments dropped (too short after ms conversion, or exact duplicates).
    pub dropped_segments: usize,
    /// Word timings clamped into their segment (Q6).
    pub clamped_words: usize,
}

/// Normalises a token for the lexicons (§5.1 (R7)). Accented letters are composed first
/// (Unicode NFC), so a word typed with combining accents (`voila` + U+0300, as macOS file
/// names and some converters write it) matches the lexicon's `voilà`.
///
/// ```
/// use overtalk::analysis::normalise::normalise_token;
/// assert_eq!(normalise_token("O.K."), "ok");
/// assert_eq!(normalise_token("Yeah-"), "yeah");
/// assert_eq!(normalise_token("I\u{2019}m"), "i'm");
/// assert_eq!(normalise_token("mm-hmm,"), "mm-hmm");
/// assert_eq!(normalise_token("Voila\u{300}!"), "voilà");
/// ```
pub fn normalise_token(raw: &str) -> String {
    let mut s = String::with_capacity(raw.len());
    for c in raw.nfc() {
        let c = match c {
            '\u{2019}' | '\u{2018}' | '\u{02BC}' => '\'',
            c => c,
        };
        if c.is_alphanumeric() || c == '\'' || c == '-' {
            s.extend(c.to_lowercase());
        }
    }
    s.trim_matches(|c| c == '\'' || c == '-').to_owned()
}

/// `raw` without the closing quotes and brackets that may follow its punctuation
/// (`"Right."` → `"Right.`), so that the punctuation can be read.
pub(crate) fn without_closers(raw: &str) -> &str {
    raw.trim_end_matches(['"', '\'', '\u{201D}', '\u{2019}', '\u{BB}', ')', ']', '}'])
}

/// Whether a raw token is terminal (§5.1 (R8)): after removing trailing closing quotes and
/// brackets it ends in `.`, `?` or `!`, but not in `...`, `…`, or a dash optionally followed by
/// `.?!` characters.
///
/// ```
/// use overtalk::analysis::normalise::is_terminal;
/// for t in ["go.", "\"Right.\"", "why?!"] { assert!(is_terminal(t)); }
/// for t in ["so...", "wait—", "no-?", "go"] { assert!(!is_terminal(t)); }
/// ```
pub fn is_terminal(raw: &str) -> bool {
    let r = without_closers(raw);
    if !r.ends_with(['.', '?', '!']) {
        return false;
    }
    if r.ends_with("...") || r.ends_with('…') {
        return false;
    }
    let body = r.trim_end_matches(['.', '?', '!']);
    !body.ends_with(['-', '–', '—'])
}

/// Whether a segment text is laughter-only (case-insensitive, on trimmed text): `laugh…`, or
/// a transcriber's note of it — `[laughter]`, `(laughs)`, `((laughing))` (GAT, HIAT), CHAT's
/// `&=laughs`, and in brackets the German `((lacht))` of EXMARaLDA and FOLKER transcripts.
pub fn is_laughter(text: &str) -> bool {
    let t = text.trim();
    let starts =
        |s: &str, word: &str| s.get(..word.len()).is_some_and(|p| p.eq_ignore_ascii_case(word));
    let noted = ["((", "(", "[", "&="].iter().find_map(|open| t.strip_prefix(open));
    match noted {
        // The note alone: nothing said after it (`&=laughs I want that` is speech).
        Some(inner) if starts(inner, "laugh") || starts(inner, "lach") => {
            let after = match inner.find([')', ']']) {
                Some(close) => &inner[close..],
                None if t.starts_with("&=") => {
                    inner.find(char::is_whitespace).map_or("", |space| &inner[space..])
                }
                None => "",
            };
            !after.chars().any(char::is_alphanumeric)
        }
        Some(_) => false,
        None => starts(t, "laugh"),
    }
}

/// Tokens of one segment `[start, end)` (ms) from its content (§5.1 "Words" (R6)).
///
/// Real word timings win (clamped into the segment, Q6); otherwise the words (or the
/// whitespace-split text) share the segment equally: token `i` of `n` gets
/// `[s + R(i·L/n), s + R((i+1)·L/n))` with `R` rounding half away from zero, exactly:
///
/// ```text
/// "It's gonna be great." over [7900, 9900): L = 2000, n = 4
///  It's [7900,8400)  gonna [8400,8900)  be [8900,9400)  great. [9400,9900)
/// ```
fn tokens_of(
    content: Option<&Content>,
    start: Millis,
    end: Millis,
    clamped: &mut usize,
) -> Vec<WordToken> {
    let Some(c) = content else { return Vec::new() };
    let laughter = c.text.as_deref().is_some_and(is_laughter)
        || (c.text.is_none() && !c.words.is_empty() && is_laughter(&c.display_text()));
    let make = |raw: &str, s: Millis, e: Millis| WordToken {
        raw: raw.to_owned(),
        norm: normalise_token(raw),
        start: s,
        end: e,
        terminal: is_terminal(raw),
        laughter,
    };
    let words: Vec<&str> =
        c.words.iter().map(|w| w.text.as_str()).filter(|w| !w.trim().is_empty()).collect();
    if !words.is_empty() && c.words.iter().all(|w| w.start.is_some() && w.end.is_some()) {
        let mut out = Vec::with_capacity(c.words.len());
        for w in c.words.iter().filter(|w| !w.text.trim().is_empty()) {
            let (Some(ws), Some(we)) = (w.start, w.end) else { continue };
            let (ws, we) = (to_ms(ws.micros()), to_ms(we.micros()));
            let (cs, ce) = (ws.clamp(start, end), we.clamp(start, end).max(ws.clamp(start, end)));
            if (cs, ce) != (ws, we) {
                *clamped += 1;
            }
            out.push(make(w.text.trim(), cs, ce));
        }
        return out;
    }
    let split: Vec<&str> = if words.is_empty() {
        c.text.as_deref().map(|t| t.split_whitespace().collect()).unwrap_or_default()
    } else {
        words.iter().flat_map(|w| w.split_whitespace()).collect()
    };
    let n = split.len() as i128;
    let len = i128::from((end - start).get());
    // R(i·L/n) = (2·i·L + n) div (2·n); L and n are positive, so this is exact (in i128, so
    // that no product can overflow). The result lies in [0, L], so it fits back into i64.
    let r = |i: i128| Millis::new(i64::try_from((2 * i * len + n) / (2 * n)).unwrap_or(0));
    split
        .iter()
        .enumerate()
        .map(|(i, raw)| {
            let i = i as i128;
            make(raw, start + r(i), start + r(i + 1))
        })
        .collect()
}

/// A kept segment in S1: speaker (id, then index), start, end (ms), content, input order.
type Kept<'a> = (usize, Millis, Millis, Option<&'a Content>, usize);

/// S1: converts to ms, drops ignored labels, too-short segments and exact duplicates, derives
/// tokens, and sorts per speaker by `(start, end)`.
pub fn normalise(
    transcript: &Transcript,
    ignore_labels: &[String],
    min_segment: Millis,
) -> Normalised {
    let mut out = Normalised::default();
    // Per speaker id of the transcript: its name once it keeps a segment, and whether its label
    // is ignored (decided once per id, not once per segment).
    let mut by_id: Vec<Option<&str>> = Vec::new();
    let mut ignored: Vec<Option<bool>> = Vec::new();
    let mut kept: Vec<Kept<'_>> = Vec::with_capacity(transcript.annotation().len());
    for (order, u) in transcript.utterances().enumerate() {
        let id = u.speaker.index();
        if id >= ignored.len() {
            ignored.resize(id + 1, None);
            by_id.resize(id + 1, None);
        }
        let skip =
            *ignored[id].get_or_insert_with(|| ignore_labels.iter().any(|l| l == u.speaker_name));
        if skip {
            continue;
        }
        let (s, e) = (to_ms(u.segment.start().micros()), to_ms(u.segment.end().micros()));
        if e - s <= min_segment || e <= s {
            out.dropped_segments += 1;
            continue;
        }
        kept.push((id, s, e, u.content, order));
        by_id[id] = Some(u.speaker_name);
    }
    // Speaker names in code-point (byte) order; only speakers that keep a segment.
    let mut names: Vec<&str> = by_id.iter().flatten().copied().collect();
    names.sort_unstable();
    names.dedup();
    let index: Vec<usize> =
        by_id.iter().map(|n| n.and_then(|n| names.binary_search(&n).ok()).unwrap_or(0)).collect();
    out.speakers = names.iter().map(|n| (*n).to_owned()).collect();
    // Grouped by speaker first (buckets that keep input order inside each speaker), so the sort
    // below mostly sees runs that are already in order.
    let mut sizes = vec![0usize; names.len()];
    for k in &kept {
        if let Some(n) = index.get(k.0).and_then(|&x| sizes.get_mut(x)) {
            *n += 1;
        }
    }
    let mut buckets: Vec<Vec<Kept<'_>>> = sizes.iter().map(|&n| Vec::with_capacity(n)).collect();
    for k in kept {
        let x = index.get(k.0).copied().unwrap_or(0);
        if let Some(bucket) = buckets.get_mut(x) {
            bucket.push((x, k.1, k.2, k.3, k.4));
        }
    }
    let mut segments: Vec<NormSegment> = Vec::with_capacity(buckets.iter().map(Vec::len).sum());
    for (speaker, s, e, content, order) in buckets.into_iter().flatten() {
        let tokens = tokens_of(content, s, e, &mut out.clamped_words);
        let laughter = !tokens.is_empty() && tokens.iter().all(|t| t.laughter);
        segments.push(NormSegment {
            speaker: SpeakerIndex::new(speaker),
            start: s,
            end: e,
            tokens,
            laughter,
            order,
        });
    }
    // Keys are unique (`order` differs), so an unstable sort is exact. Tracks come sorted by
    // `(start, end)`, so each bucket is usually in order already and the check is all it costs.
    let key = |s: &NormSegment| (s.speaker, s.start, s.end, s.order);
    if !segments.is_sorted_by_key(key) {
        segments.sort_unstable_by_key(key);
    }
    // Exact duplicates: same speaker, start, end and same tokens (text and times).
    let before = segments.len();
    segments.dedup_by(|b, a| {
        a.speaker == b.speaker && a.start == b.start && a.end == b.end && a.tokens == b.tokens
    });
    out.dropped_segments += before - segments.len();
    out.segments = segments;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn laughter_and_the_transcribers_notes_of_it() {
        for t in [
            "laughs",
            " [Laughter] ",
            "(laughs)",
            "((laughing))",
            "&=laughs",
            "((lacht in Intervallen,3s))",
            "[lachen]",
        ] {
            assert!(is_laughter(t), "{t}");
        }
        for t in [
            "Lachs ist teuer",
            "he laughs",
            "(.) laugh",
            "((atmet ein))",
            "flaugh",
            "&=laughs I want that one",
            "((lacht)) ja genau",
            "[laughter] okay",
        ] {
            assert!(!is_laughter(t), "{t}");
        }
    }
    use crate::model::{Segment, TranscriptBuilder};
    use crate::time::round_div;

    fn seg(a: i64, b: i64) -> Segment {
        Segment::from_millis(a, b).unwrap()
    }

    #[test]
    fn ms_rounding_is_half_away_from_zero() {
        assert_eq!(to_ms(12_500), Millis::new(13));
        assert_eq!(to_ms(12_499).get(), 12);
        assert_eq!(to_ms(-12_500).get(), -13);
        assert_eq!(to_ms(1), Millis::ZERO);
        for us in [-1_000_500, -999_999, -500, -499, 0, 499, 500, 1_000_499, i64::MAX - 500]
            .into_iter()
            .chain([i64::MAX - 499, i64::MAX, i64::MIN, i64::MIN + 1])
        {
            assert_eq!(to_ms(us).get(), round_div(us, 1000), "{us}");
        }
    }

    #[test]
    fn equal_split_is_exact() {
        let mut b = TranscriptBuilder::new();
        b.add(seg(7900, 9900), "A", Some(Content::text("It's gonna be great. You're a winner.")));
        let n = normalise(&b.build(), &[String::new()], Millis::ZERO);
        let t = &n.segments[0].tokens;
        assert_eq!(t.len(), 7);
        // L = 2000, n = 7: ends at R(4·2000/7) = R(1142.857) = 1143 → 9043 ("great.").
        assert_eq!((t[3].raw.as_str(), t[3].end.get(), t[3].terminal), ("great.", 9043, true));
        assert_eq!((t[6].end.get(), t[6].terminal), (9900, true));
        assert!(!t[0].terminal);
    }

    #[test]
    fn drops_too_short_ignored_and_duplicate_segments() {
        let mut b = TranscriptBuilder::new();
        b.add(Segment::from_micros(0, 400).unwrap(), "A", None); // 0 ms after rounding
        b.add(seg(0, 1000), "A", Some(Content::text("hi")));
        b.add(seg(0, 1000), "A", Some(Content::text("hi")));
        b.add(seg(0, 1000), "", None);
        b.add(seg(0, 1000), "B", Some(Content::text("[Laughter]")));
        let n = normalise(&b.build(), &[String::new()], Millis::ZERO);
        assert_eq!(n.dropped_segments, 2);
        assert_eq!(n.speakers, vec!["A", "B"]);
        assert_eq!(n.segments.len(), 2);
        assert!(n.segments[1].laughter);
        assert!(!n.segments[1].tokens[0].is_word());
    }

    #[test]
    fn terminal_and_normalisation_rules() {
        assert!(is_terminal("done.)"));
        assert!(!is_terminal("wait—."));
        assert!(!is_terminal("…"));
        assert_eq!(normalise_token("--"), "");
        assert!(is_laughter(" laughs "));
        assert!(!is_laughter("[noise]"));
    }
}
