//! S5 — backchannel tagging (§5.4 S5 (R19)). One pass over all talkspurts; conditions 3–5 look
//! at every talkspurt, tagged or not, so the result does not depend on the order of tagging.
//!
//! ```text
//! A  [0───────────────────────────6000)      context: A talks at the onset (4)
//! B          [2000─2400) "mm-hmm"            and during it (5)
//!            ≤ bc_max_duration, isolated ≥ 1 s from B's other talk (3) ⇒ backchannel
//! ```

use super::params::Params;
use super::talkspurt::Talkspurt;

/// Per-speaker indices into the sorted talkspurt list, each list in time order.
pub fn by_speaker(spurts: &[Talkspurt], n_speakers: usize, floor_only: bool) -> Vec<Vec<usize>> {
    // Sized first, so that no list grows by copying.
    let mut sizes = vec![0usize; n_speakers];
    for s in spurts.iter().filter(|s| !floor_only || s.floor) {
        if let Some(n) = sizes.get_mut(s.speaker.index()) {
            *n += 1;
        }
    }
    let mut by: Vec<Vec<usize>> = sizes.iter().map(|&n| Vec::with_capacity(n)).collect();
    for (i, s) in spurts.iter().enumerate() {
        if !floor_only || s.floor {
            by[s.speaker.index()].push(i);
        }
    }
    by
}

/// Whether the talkspurt passes the lexical test (condition 2); true without tokens.
fn lexical_ok(s: &Talkspurt, p: &Params) -> bool {
    if !s.has_tokens {
        return true;
    }
    let words: Vec<&str> =
        s.tokens.iter().filter(|t| t.is_word()).map(|t| t.norm.as_str()).collect();
    let n = words.len();
    if n > p.bc_max_words {
        return false;
    }
    let cues = words.iter().filter(|w| p.bc_lexicon.iter().any(|c| c == *w)).count();
    // cues > share × n, compared without rounding surprises for the default 0.5.
    if (cues as f64) <= p.bc_min_cue_share * n as f64 {
        return false;
    }
    !words.first().is_some_and(|f| p.bc_forbidden_first.iter().any(|c| c == f))
}

/// S5: sets `backchannel` and `floor` on every talkspurt.
///
/// One sweep in list order. For talkspurts in start order (as S2 leaves them) the sweep counts
/// each speaker's talkspurts met so far, and the latest talkspurt of another speaker started by
/// an onset is found from that count without a search: every earlier one started by then, and
/// of the later ones only the next can start at the same instant (a speaker's talkspurts are
/// disjoint).
///
/// ```text
/// Y        [──)   [────)  [──)          met before s: 2; the next starts after s ⇒ 2 before
/// s             [─)
/// ```
pub fn tag(spurts: &mut [Talkspurt], n_speakers: usize, p: &Params) {
    let by = by_speaker(spurts, n_speakers, false);
    let mut tags = vec![false; spurts.len()];
    let sorted = spurts.is_sorted_by_key(|s| s.start);
    let all: &[Talkspurt] = spurts;
    // Per speaker: its talkspurts before the current one in the list.
    let mut seen = vec![0usize; by.len()];
    for (i, s) in all.iter().enumerate() {
        let x = s.speaker;
        let (Some(own), Some(k)) = (by.get(x.index()), seen.get_mut(x.index())) else { continue };
        // `own[k]` is `i`.
        let k = std::mem::replace(k, *k + 1);
        if s.dur() > p.bc_max_duration || !lexical_ok(s, p) {
            continue;
        }
        let pre_ok = k == 0 || s.start - all[own[k - 1]].end >= p.bc_pre_silence;
        let post_ok = k + 1 >= own.len() || all[own[k + 1]].start - s.end >= p.bc_post_silence;
        if !(pre_ok && post_ok) {
            continue;
        }
        let context = by.iter().zip(&seen).enumerate().any(|(y, (theirs, &met))| {
            if y == x.index() || theirs.is_empty() {
                return false;
            }
            // 4: a talkspurt with start ≤ s.start and end > s.start − bc_context; the latest
            // one starting by s.start has the latest end (a speaker's spurts are disjoint).
            let n_before = if sorted {
                met + usize::from(theirs.get(met).is_some_and(|&j| all[j].start <= s.start))
            } else {
                theirs.partition_point(|&j| all[j].start <= s.start)
            };
            let cond4 = n_before > 0 && all[theirs[n_before - 1]].end > s.start - p.bc_context;
            // 5: a talkspurt intersecting (s.start, s.end + bc_resume_window): the first one
            // ending after s.start. Their ends are in order too, so it is the latest one
            // starting by s.start when that one is still running, else the next one.
            let first_after = match n_before.checked_sub(1) {
                Some(k) if all[theirs[k]].end > s.start => k,
                _ => n_before,
            };
            let cond5 =
                theirs.get(first_after).is_some_and(|&j| all[j].start < s.end + p.bc_resume_window);
            cond4 && cond5
        });
        tags[i] = context;
    }
    for (s, bc) in spurts.iter_mut().zip(tags) {
        s.backchannel = bc;
        s.floor = !(bc || (s.laughter && !p.laughter_is_floor));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::normalise::WordToken;
    use crate::analysis::units::{Millis, SpeakerIndex};

    fn spurt(speaker: usize, start: i64, end: i64, words: &[&str]) -> Talkspurt {
        let (speaker, start, end) =
            (SpeakerIndex::new(speaker), Millis::new(start), Millis::new(end));
        let tokens = words
            .iter()
            .map(|w| WordToken {
                raw: (*w).to_owned(),
                norm: crate::analysis::normalise::normalise_token(w),
                start,
                end,
                terminal: false,
                laughter: false,
            })
            .collect::<Vec<_>>();
        Talkspurt {
            speaker,
            start,
            end,
            has_tokens: !tokens.is_empty(),
            tokens,
            laughter: false,
            backchannel: false,
            floor: true,
        }
    }

    #[test]
    fn continuer_inside_talk_is_a_backchannel() {
        let mut s = vec![spurt(0, 0, 6000, &["So", "I"]), spurt(1, 2000, 2400, &["mm-hmm"])];
        tag(&mut s, 2, &Params::default());
        assert!(!s[0].backchannel && s[1].backchannel && !s[1].floor);
    }

    #[test]
    fn one_cue_of_two_is_not_enough_and_forbidden_first_blocks() {
        let mut s = vec![spurt(0, 0, 6000, &[]), spurt(1, 2000, 2400, &["yeah", "no"])];
        tag(&mut s, 2, &Params::default());
        assert!(!s[1].backchannel);
        let mut s = vec![spurt(0, 0, 6000, &[]), spurt(1, 2000, 2400, &["so", "yeah", "yeah"])];
        tag(&mut s, 2, &Params::default());
        assert!(!s[1].backchannel);
    }

    #[test]
    fn laughter_is_non_floor_unless_configured() {
        let mut laugh = spurt(1, 2000, 5000, &["[Laughter]"]);
        laugh.laughter = true;
        laugh.tokens[0].laughter = true;
        let mut s = vec![spurt(0, 0, 6000, &["So"]), laugh];
        tag(&mut s, 2, &Params::default());
        // 3 s is too long for a backchannel, but laughter-only talk is non-floor material.
        assert!(!s[1].backchannel && !s[1].floor);
        let p = Params { laughter_is_floor: true, ..Params::default() };
        tag(&mut s, 2, &p);
        assert!(s[1].floor);
    }

    #[test]
    fn answer_without_resumption_is_not_a_backchannel() {
        // W4a "Right." after A has finished for good: condition 5 fails.
        let mut s = vec![spurt(0, 4500, 6000, &[]), spurt(1, 6300, 7000, &["Right."])];
        tag(&mut s, 2, &Params::default());
        assert!(!s[1].backchannel);
    }
}
