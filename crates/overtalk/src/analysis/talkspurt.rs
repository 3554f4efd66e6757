//! S2 — talkspurts: per speaker, merge segments that overlap, touch, or are separated by a
//! silence shorter than `bridge_pause` (Brady-style fill-in; §5.4 S2 (R16)).
//!
//! ```text
//! bridge_pause = 200
//! A segs   [0──2000)  [2150──4000)      [4500──6000)
//!                  150 ms < 200   500 ms ≥ 200
//! A spurts [0──────────────4000)      [4500──6000)
//! ```

use super::normalise::{NormSegment, WordToken};
use super::units::{Millis, SpeakerIndex};

/// A maximal stretch of one speaker's speech.
#[derive(Clone, Debug, PartialEq)]
pub struct Talkspurt {
    /// Speaker.
    pub speaker: SpeakerIndex,
    /// Start (ms).
    pub start: Millis,
    /// End (ms).
    pub end: Millis,
    /// Tokens of the merged segments, ordered by `(start, end, input order)`.
    pub tokens: Vec<WordToken>,
    /// At least one merged segment had a token (§5.1 Modes (R9)).
    pub has_tokens: bool,
    /// Every merged segment is laughter-only (Q4).
    pub laughter: bool,
    /// Tagged as a backchannel in S5.
    pub backchannel: bool,
    /// Floor-relevant (not a backchannel, not non-floor laughter); set in S5.
    pub floor: bool,
}

impl Talkspurt {
    /// A talkspurt known by its times alone (no tokens): floor-relevant, neither laughter nor
    /// a backchannel, as S2 leaves a timing-only talkspurt before S5 looks at it.
    pub fn timed(speaker: SpeakerIndex, start: Millis, end: Millis) -> Talkspurt {
        Talkspurt {
            speaker,
            start,
            end,
            tokens: Vec::new(),
            has_tokens: false,
            laughter: false,
            backchannel: false,
            floor: true,
        }
    }

    /// Duration (ms).
    pub fn dur(&self) -> Millis {
        self.end - self.start
    }

    /// Number of words (tokens that are neither punctuation-only nor laughter).
    pub fn n_words(&self) -> usize {
        self.tokens.iter().filter(|t| t.is_word()).count()
    }

    /// Whether the half-open spans intersect (touching does not).
    pub fn intersects(&self, other: &Talkspurt) -> bool {
        self.start < other.end && other.start < self.end
    }

    /// Whether `t` lies in `[start, end)`.
    pub fn covers(&self, t: Millis) -> bool {
        self.start <= t && t < self.end
    }
}

/// The outcome of S2.
#[derive(Clone, Debug, Default)]
pub struct Spurts {
    /// All talkspurts sorted by `(start, end, speaker)`.
    pub spurts: Vec<Talkspurt>,
    /// Same-speaker overlapping segments that were unioned.
    pub same_speaker_overlaps: usize,
    /// Per speaker: the duration of the union of the raw segments (no bridging).
    pub talk_unbridged: Vec<Millis>,
}

/// S2 over segments sorted by `(speaker, start, end)`.
pub fn talkspurts(segments: &[NormSegment], n_speakers: usize, bridge_pause: Millis) -> Spurts {
    let mut out = Spurts {
        spurts: Vec::with_capacity(segments.len()),
        talk_unbridged: vec![Millis::ZERO; n_speakers],
        ..Spurts::default()
    };
    let mut cur: Option<Talkspurt> = None;
    // Tokens of the current talkspurt with their segment's input order: one buffer for all
    // talkspurts, emptied into each as it is finished.
    let mut words: Vec<(WordToken, usize)> = Vec::new();
    let mut union_end: Option<(SpeakerIndex, Millis)> = None;
    let finish =
        |mut s: Talkspurt, words: &mut Vec<(WordToken, usize)>, out: &mut Vec<Talkspurt>| {
            if !words.is_empty() {
                words.sort_by_key(|t| (t.0.start, t.0.end, t.1));
                s.tokens = words.drain(..).map(|(t, _)| t).collect();
            }
            out.push(s);
        };
    for seg in segments {
        // Unbridged talk: union of raw segments.
        let from = match union_end {
            Some((sp, e)) if sp == seg.speaker => seg.start.max(e),
            _ => seg.start,
        };
        if seg.end > from {
            out.talk_unbridged[seg.speaker.index()] += seg.end - from;
        }
        union_end = Some(match union_end {
            Some((sp, e)) if sp == seg.speaker => (sp, e.max(seg.end)),
            _ => (seg.speaker, seg.end),
        });
        let toks = seg.tokens.iter().cloned().map(|t| (t, seg.order));
        match cur.as_mut() {
            Some(s)
                if s.speaker == seg.speaker
                    && (seg.start <= s.end || seg.start - s.end < bridge_pause) =>
            {
                if seg.start < s.end {
                    out.same_speaker_overlaps += 1;
                }
                s.end = s.end.max(seg.end);
                s.has_tokens |= !seg.tokens.is_empty();
                s.laughter &= seg.laughter;
                if !seg.tokens.is_empty() {
                    words.extend(toks);
                }
            }
            _ => {
                if let Some(c) = cur.take() {
                    finish(c, &mut words, &mut out.spurts);
                }
                words.extend(toks);
                cur = Some(Talkspurt {
                    speaker: seg.speaker,
                    start: seg.start,
                    end: seg.end,
                    tokens: Vec::new(),
                    has_tokens: !seg.tokens.is_empty(),
                    laughter: seg.laughter,
                    backchannel: false,
                    floor: true,
                });
            }
        }
    }
    if let Some(c) = cur.take() {
        finish(c, &mut words, &mut out.spurts);
    }
    out.spurts.sort_by_key(|s| (s.start, s.end, s.speaker));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seg(speaker: usize, start: i64, end: i64) -> NormSegment {
        NormSegment {
            speaker: SpeakerIndex::new(speaker),
            start: Millis::new(start),
            end: Millis::new(end),
            tokens: Vec::new(),
            laughter: false,
            order: 0,
        }
    }

    fn spans(s: &Spurts) -> Vec<(i64, i64)> {
        s.spurts.iter().map(|t| (t.start.get(), t.end.get())).collect()
    }

    #[test]
    fn bridges_short_silences_and_unions_overlaps() {
        let segs = [seg(0, 0, 2000), seg(0, 2150, 4000), seg(0, 3000, 3500), seg(0, 4500, 6000)];
        let s = talkspurts(&segs, 1, Millis::new(200));
        assert_eq!(spans(&s), vec![(0, 4000), (4500, 6000)]);
        assert_eq!(s.same_speaker_overlaps, 1);
        assert_eq!(s.talk_unbridged, vec![Millis::new(5350)]);
    }

    #[test]
    fn touching_segments_merge_even_without_bridging() {
        let s = talkspurts(&[seg(0, 0, 10), seg(0, 10, 20), seg(0, 21, 30)], 1, Millis::ZERO);
        assert_eq!(spans(&s), vec![(0, 20), (21, 30)]);
        assert_eq!(s.same_speaker_overlaps, 0);
    }
}
