//! The transcriber's overlap and interruption markers against the timing.
//!
//! A CHAT transcriber marks overlap (`[>]` "overlapped by what follows", `[<]` "overlaps what
//! precedes", indexed `[>1]`/`[<1]`, CA brackets `⌈` `⌊`, the lazy-overlap linker `+<`) and
//! interruption (the terminators `+/.` and `+/?` for an interruption by another speaker, `+//.`
//! and `+//?` for a self-interruption) by ear. Where the file also has time bullets, the timing
//! says the same things independently, so each can check the other:
//!
//! ```text
//! *FAT:  that's the &-uh [>] +/.  •12249_13198•   marked: overlap, interruption
//! *CHI:  <what's> [<] that ?       •13198_13514•   marked: overlap
//!
//! FAT  [12249────────13198)
//! CHI                    [13198──13514)            timing: no overlap (the bullets touch);
//!                                                  CHI starts at FAT's end: an interruption
//! ```
//!
//! Each timed utterance (main tier) is one case, in two comparisons:
//!
//! - **overlap**: the text carries an overlap marker; the timing shows one when the utterance's
//!   bullet overlaps (for a positive length) a bullet of another speaker;
//! - **interruption**: the text ends in an interruption terminator; the timing shows one when the
//!   next utterance of another speaker (the first to start at or after this one's start) starts
//!   before or at this one's end. Bullets that tile the time (each utterance ending where the
//!   next begins, as aligners and many transcribers leave them) meet this at every change of
//!   speaker, so the stricter **interruption before the end** (the next speaker starts before
//!   the end, in overlap) is counted too.
//!
//! Counts are `both`, `marker_only`, `timing_only` and `neither`; the agreement is
//! `both / (both + marker_only + timing_only)`, the share of the utterances that either one
//! marks on which both agree (the many utterances neither marks would inflate a plain share of
//! agreeing cases). Utterances without a bullet are left out and counted. The comparison uses
//! the bullets as written: no talkspurt bridging, no backchannel filter.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::Transcript;

/// The overlap and interruption markers of one main tier's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Marked {
    /// `[>]`, `[>N]` and CA `⌈`: this stretch is overlapped by what follows.
    pub overlap_follows: usize,
    /// `[<]`, `[<N]` and CA `⌊`: this stretch overlaps what precedes.
    pub overlap_precedes: usize,
    /// The linker `+<`: the utterance began before the previous one ended (lazy overlap).
    pub lazy_overlap: usize,
    /// `+/.` or `+/?`: interrupted by another speaker.
    pub interrupted: usize,
    /// `+//.` or `+//?`: the speaker breaks off.
    pub self_interrupted: usize,
}

impl Marked {
    /// Reads the markers of a main tier's text (the text as CHAT writes it, bullets removed).
    pub fn scan(text: &str) -> Marked {
        let mut m = Marked::default();
        let mut rest = text;
        while let Some(i) = rest.find('[') {
            rest = &rest[i + 1..];
            let kind = rest.as_bytes().first().copied();
            if !matches!(kind, Some(b'>' | b'<')) {
                continue;
            }
            // `[>]` or `[>N]`: an index of digits, then the closing bracket.
            let digits = rest[1..].bytes().take_while(u8::is_ascii_digit).count();
            if rest.as_bytes().get(1 + digits) != Some(&b']') {
                continue;
            }
            if kind == Some(b'>') {
                m.overlap_follows += 1;
            } else {
                m.overlap_precedes += 1;
            }
        }
        m.overlap_follows += text.matches('⌈').count();
        m.overlap_precedes += text.matches('⌊').count();
        for token in text.split_whitespace() {
            match token {
                "+<" => m.lazy_overlap += 1,
                "+/." | "+/?" => m.interrupted += 1,
                "+//." | "+//?" => m.self_interrupted += 1,
                _ => {}
            }
        }
        m
    }

    /// Whether the text marks overlap (any form).
    pub fn overlap(&self) -> bool {
        self.overlap_follows + self.overlap_precedes + self.lazy_overlap > 0
    }

    /// Whether the text marks an interruption (by another speaker or self).
    pub fn interruption(&self) -> bool {
        self.interrupted + self.self_interrupted > 0
    }
}

/// One comparison of markers with timing, over the timed utterances.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Agreement {
    /// Marked by the transcriber and shown by the timing.
    pub both: usize,
    /// Marked, but the timing does not show it.
    pub marker_only: usize,
    /// Shown by the timing, but not marked.
    pub timing_only: usize,
    /// Neither marked nor shown.
    pub neither: usize,
    /// `both / (both + marker_only + timing_only)`; `null` when neither marks anything.
    pub agreement: Option<f64>,
}

impl Agreement {
    fn add(&mut self, marked: bool, timed: bool) {
        match (marked, timed) {
            (true, true) => self.both += 1,
            (true, false) => self.marker_only += 1,
            (false, true) => self.timing_only += 1,
            (false, false) => self.neither += 1,
        }
    }

    fn finish(&mut self) {
        let any = self.both + self.marker_only + self.timing_only;
        self.agreement = (any > 0).then(|| self.both as f64 / any as f64);
    }
}

/// The transcriber's markers against the timing of one transcript (see the module doc).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct MarkersVsTiming {
    /// Timed utterances compared.
    pub utterances: usize,
    /// Utterances without a time bullet, left out.
    pub untimed: usize,
    /// Markers found in the timed utterances, by form (`[>]` counts `[>N]` and `⌈` too, `[<]`
    /// counts `[<N]` and `⌊`; `+/.` counts `+/?`, `+//.` counts `+//?`).
    pub markers: BTreeMap<String, usize>,
    /// Overlap markers against bullets overlapping another speaker's.
    pub overlap: Agreement,
    /// Interruption terminators against the next speaker starting before or at the end.
    pub interruption: Agreement,
    /// Interruption terminators against the next speaker starting before the end (in overlap).
    pub interruption_before_end: Agreement,
}

impl MarkersVsTiming {
    /// The comparisons with a short name, what is marked, and what the timing must show, for
    /// tables.
    pub fn rows(&self) -> [(&'static str, &'static str, &'static str, &Agreement); 3] {
        [
            ("overlap", "[>] [<] +< ⌈ ⌊", "bullet overlaps another speaker's", &self.overlap),
            (
                "interruption",
                "+/. +/? +//. +//?",
                "next speaker starts at or before the end",
                &self.interruption,
            ),
            (
                "interruption before the end",
                "+/. +/? +//. +//?",
                "next speaker starts before the end",
                &self.interruption_before_end,
            ),
        ]
    }
}

/// Compares the markers in the text of `t`'s timed utterances with their times; `None` when no
/// utterance has a time (an untimed transcript has nothing to compare).
pub fn compare(t: &Transcript) -> Option<MarkersVsTiming> {
    // Utterances come sorted by (start, end, speaker).
    let us: Vec<_> = t.utterances().collect();
    if us.is_empty() {
        return None;
    }
    let n = us.len();
    // next_other[k]: the first index after k whose speaker differs from that of k (n if none).
    let mut next_other = vec![n; n];
    for k in (0..n.saturating_sub(1)).rev() {
        next_other[k] = if us[k + 1].speaker != us[k].speaker { k + 1 } else { next_other[k + 1] };
    }
    // The first index at or after `k` whose speaker is not `s`.
    let other_from = |k: usize, s| match us.get(k) {
        Some(u) if u.speaker == s => next_other[k],
        Some(_) => k,
        None => n,
    };
    let mut out =
        MarkersVsTiming { utterances: n, untimed: t.untimed().len(), ..Default::default() };
    // The latest end so far, and the latest end of a speaker other than its speaker.
    let mut best: Option<(crate::time::Time, crate::model::SpeakerId)> = None;
    let mut second: Option<crate::time::Time> = None;
    for (i, u) in us.iter().enumerate() {
        let (start, end) = (u.segment.start(), u.segment.end());
        let m = u.content.and_then(|c| c.text.as_deref()).map(Marked::scan).unwrap_or_default();
        for (form, count) in [
            ("[>]", m.overlap_follows),
            ("[<]", m.overlap_precedes),
            ("+<", m.lazy_overlap),
            ("+/.", m.interrupted),
            ("+//.", m.self_interrupted),
        ] {
            if count > 0 {
                *out.markers.entry(form.to_owned()).or_default() += count;
            }
        }
        // Overlap with an earlier utterance of another speaker, or a later one.
        let earlier_end = match best {
            Some((e, s)) if s != u.speaker => Some(e),
            _ => second,
        };
        let later = other_from(i + 1, u.speaker);
        let overlapped = earlier_end.is_some_and(|e| e > start)
            || us.get(later).is_some_and(|v| v.segment.start() < end);
        out.overlap.add(m.overlap(), overlapped);
        // The next utterance of another speaker: the first to start at or after this start.
        let from = us.partition_point(|v| v.segment.start() < start);
        let next = us.get(other_from(from, u.speaker)).map(|v| v.segment.start());
        out.interruption.add(m.interruption(), next.is_some_and(|s| s <= end));
        out.interruption_before_end.add(m.interruption(), next.is_some_and(|s| s < end));
        // Keep the latest end and the latest end of another speaker than its speaker.
        best = match best {
            Some((e, s)) if s == u.speaker => Some((e.max(end), s)),
            Some((e, _)) if end > e => {
                second = Some(e);
                Some((end, u.speaker))
            }
            Some((e, s)) => {
                second = Some(second.map_or(end, |x| x.max(end)));
                Some((e, s))
            }
            None => Some((end, u.speaker)),
        };
    }
    out.overlap.finish();
    out.interruption.finish();
    out.interruption_before_end.finish();
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, Format, ReadOptions};

    #[test]
    fn markers_are_read_in_every_form() {
        let m = Marked::scan("+< <so> [>1] I [<] ⌈yes⌉ ⌊no⌋ +/?");
        assert_eq!(
            m,
            Marked {
                overlap_follows: 2,
                overlap_precedes: 2,
                lazy_overlap: 1,
                interrupted: 1,
                self_interrupted: 0
            }
        );
        // Other bracketed codes are not overlap markers.
        assert_eq!(
            Marked::scan("a [>>] [=! laughs] [<x] [ +//."),
            Marked { self_interrupted: 1, ..Marked::default() }
        );
    }

    #[test]
    fn counts_agree_on_a_small_file() {
        // A: 0–4000 marked [>] and +/.; B overlaps it (3500–6000) marked [<]: both, twice.
        // A: 6000–8000 unmarked, starts at B's end: an interruption of B by timing only.
        // B: 8000–9000 +//. and C starts 8500 (unmarked overlap): interruption both, overlap
        //    timing only for B and for C.
        // C: 8500–9500 [<] (overlap both); the last, nobody after it.
        // A: untimed, left out.
        let text = "@Begin\n@Participants:\tA Adult, B Adult, C Adult\n\
            *A:\tso <the plan> [>] +/. \u{15}0_4000\u{15}\n\
            *B:\t<no> [<] wait . \u{15}3500_6000\u{15}\n\
            *A:\tfine . \u{15}6000_8000\u{15}\n\
            *B:\tI mean +//. \u{15}8000_9000\u{15}\n\
            *C:\t<yes> [<] . \u{15}8500_9500\u{15}\n\
            *A:\tok .\n@End\n";
        let out = read_str(text, Format::Chat, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let m = compare(t).unwrap();
        assert_eq!((m.utterances, m.untimed), (5, 1));
        let forms: Vec<(&str, usize)> = m.markers.iter().map(|(k, v)| (k.as_str(), *v)).collect();
        assert_eq!(forms, [("+/.", 1), ("+//.", 1), ("[<]", 2), ("[>]", 1)]);
        // Overlap: A1 both, B1 both, A2 neither (touching only), B2 timing only, C both.
        assert_eq!(
            m.overlap,
            Agreement {
                both: 3,
                marker_only: 0,
                timing_only: 1,
                neither: 1,
                agreement: Some(0.75)
            }
        );
        // Interruption (next speaker at or before the end): A1 both (B at 3500), B1 timing only
        // (A at 6000 = its end), A2 timing only (B at 8000), B2 both (C at 8500), C neither.
        assert_eq!(
            m.interruption,
            Agreement { both: 2, marker_only: 0, timing_only: 2, neither: 1, agreement: Some(0.5) }
        );
        // Before the end only: A1 both, B2 both; B1 and A2 touch, so neither.
        assert_eq!(
            m.interruption_before_end,
            Agreement { both: 2, marker_only: 0, timing_only: 0, neither: 3, agreement: Some(1.0) }
        );
    }

    #[test]
    fn an_overlap_with_an_earlier_long_utterance_is_found() {
        // A talks 0–10000; B's two utterances inside it overlap it, B's own do not count.
        let text = "*A:\tlong . \u{15}0_10000\u{15}\n*B:\tb1 . \u{15}1000_2000\u{15}\n\
            *B:\tb2 . \u{15}3000_4000\u{15}\n*B:\tb3 . \u{15}10000_11000\u{15}\n";
        let out = read_str(text, Format::Chat, &ReadOptions::default()).unwrap();
        let m = compare(out.corpus.get("recording").unwrap()).unwrap();
        assert_eq!((m.overlap.timing_only, m.overlap.neither), (3, 1));
        assert_eq!(m.overlap.agreement, Some(0.0));
        // No marker at all and no timing: no agreement to speak of.
        let out = read_str("*A:\ta . \u{15}0_1000\u{15}\n", Format::Chat, &ReadOptions::default())
            .unwrap();
        let m = compare(out.corpus.get("recording").unwrap()).unwrap();
        assert_eq!(m.interruption, Agreement { neither: 1, ..Agreement::default() });
        // An untimed transcript has nothing to compare.
        let out = read_str("*A:\ta .\n", Format::Chat, &ReadOptions::default()).unwrap();
        assert_eq!(compare(out.corpus.get("recording").unwrap()), None);
    }
}
