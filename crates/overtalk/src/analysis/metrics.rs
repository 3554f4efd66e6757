//! S9 — aggregate metrics (§5.5) and the assembly of the [`Analysis`] result.

use std::collections::BTreeMap;

use super::claims::VerbalClaim;
use super::intervals::{HeInterval, HeKind, Layer};
use super::joint::Piece;
use super::onsets::{OnsetClass, OnsetRec};
use super::params::Params;
use super::result::*;
use super::talkspurt::Talkspurt;
use super::turns::{TransferRec, TurnRec};

/// Median (mean of the two middle values for an even count); `None` when empty (§5.5.7).
pub fn median(values: &[i64]) -> Option<f64> {
    let mut v = values.to_vec();
    v.sort_unstable();
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2] as f64),
        _ => Some((v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0),
    }
}

/// Inter-quartile range with linear interpolation between order statistics (numpy default).
pub fn iqr(values: &[i64]) -> Option<f64> {
    let mut v = values.to_vec();
    v.sort_unstable();
    if v.is_empty() {
        return None;
    }
    let q = |p: f64| {
        let pos = p * (v.len() - 1) as f64;
        let lo = pos.floor() as usize;
        let hi = pos.ceil() as usize;
        v[lo] as f64 + (v[hi] as f64 - v[lo] as f64) * (pos - lo as f64)
    };
    Some(q(0.75) - q(0.25))
}

fn ratio(a: i64, b: i64) -> Option<f64> {
    (b != 0).then(|| a as f64 / b as f64)
}

/// Everything the stages produced, borrowed for assembly.
pub struct Stages<'a> {
    /// Parameters.
    pub params: &'a Params,
    /// Speaker names.
    pub names: &'a [String],
    /// Talkspurts.
    pub spurts: &'a [Talkspurt],
    /// Acoustic joint timeline.
    pub joint: &'a [Piece],
    /// Acoustic then floor intervals.
    pub he: &'a [HeInterval],
    /// Turns.
    pub turns: &'a [TurnRec],
    /// Transfers.
    pub transfers: &'a [TransferRec],
    /// Onsets.
    pub onsets: &'a [OnsetRec],
    /// Verbal claims.
    pub verbal: &'a [VerbalClaim],
    /// Dropped segments.
    pub dropped_segments: usize,
    /// Same-speaker overlaps.
    pub same_speaker_overlaps: usize,
    /// Clamped words.
    pub clamped_words: usize,
    /// Unbridged talk per speaker.
    pub talk_unbridged: &'a [i64],
}

/// Builds the result.
pub fn assemble(st: Stages<'_>) -> Analysis {
    let p = st.params;
    let name = |i: usize| st.names[i].clone();
    let n = st.names.len();
    let mut talk = vec![0i64; n];
    let mut words = vec![0usize; n];
    let mut has_tokens = vec![false; n];
    let mut bcs = vec![0usize; n];
    for s in st.spurts {
        if p.bc_counts_as_talk || !s.backchannel {
            talk[s.speaker] += s.dur();
        }
        words[s.speaker] += s.n_words();
        has_tokens[s.speaker] |= s.has_tokens;
        bcs[s.speaker] += usize::from(s.backchannel);
    }
    let mut solo = vec![0i64; n];
    let (mut silence, mut overlap) = (0i64, 0i64);
    for piece in st.joint {
        match piece.active.len() {
            0 => silence += piece.dur(),
            1 => solo[piece.active[0]] += piece.dur(),
            _ => overlap += piece.dur(),
        }
    }
    let span_start = st.spurts.iter().map(|s| s.start).min();
    let span_end = st.spurts.iter().map(|s| s.end).max();
    let span = match (span_start, span_end) {
        (Some(a), Some(b)) => b - a,
        _ => 0,
    };
    let speech = span - silence;
    let mut floor = vec![0i64; n];
    let mut n_turns = vec![0usize; n];
    let mut longest: Vec<Option<i64>> = vec![None; n];
    let mut monologues = vec![0usize; n];
    let mut in_turn = vec![false; st.spurts.len()];
    for t in st.turns {
        floor[t.speaker] += t.tenure_end - t.claim;
        n_turns[t.speaker] += 1;
        let ext = t.end - t.start;
        longest[t.speaker] = Some(longest[t.speaker].map_or(ext, |l| l.max(ext)));
        monologues[t.speaker] += usize::from(ext >= p.monologue_min);
        for &i in &t.spurts {
            in_turn[i] = true;
        }
    }
    let mut non_floor = vec![0usize; n];
    for (i, s) in st.spurts.iter().enumerate() {
        if s.floor && !in_turn[i] {
            non_floor[s.speaker] += 1;
        }
    }
    let total_talk: i64 = talk.iter().sum();
    let total_floor: i64 = floor.iter().sum();
    let mut made = vec![Counts::default(); n];
    let mut received = vec![Counts::default(); n];
    let mut pairs: BTreeMap<(usize, usize), (usize, usize, usize)> = BTreeMap::new();
    let mut counts = HeadlineCounts::default();
    for o in st.onsets {
        match o.class {
            OnsetClass::TerminalOverlap => counts.terminal_overlaps += 1,
            OnsetClass::SimultaneousStart => counts.simultaneous_starts += 1,
            _ => {}
        }
        let Some(f) = o.holder else { continue };
        if o.is_attempt() {
            made[o.speaker].attempts += 1;
            received[f].attempts += 1;
            counts.interruptions += 1;
        }
        if o.is_successful() {
            made[o.speaker].successful += 1;
            received[f].successful += 1;
            counts.successful += 1;
        }
        counts.talk_over_events += usize::from(o.is_talk_over());
        if o.is_attempt() || o.is_talk_over() {
            let e = pairs.entry((o.speaker, f)).or_default();
            e.0 += usize::from(o.is_attempt());
            e.1 += usize::from(o.is_successful());
            e.2 += usize::from(o.is_talk_over());
        }
    }
    counts.unsuccessful = counts.interruptions - counts.successful;
    let mut fto_in: Vec<Vec<i64>> = vec![Vec::new(); n];
    for t in st.transfers {
        if let Some(f) = t.fto {
            fto_in[t.to].push(f);
        }
    }
    let mut speakers = BTreeMap::new();
    let mut mode = BTreeMap::new();
    for x in 0..n {
        mode.insert(name(x), if has_tokens[x] { Mode::Text } else { Mode::Timing });
        speakers.insert(
            name(x),
            SpeakerOut {
                talk: talk[x],
                talk_share: ratio(talk[x], total_talk),
                solo: solo[x],
                floor: floor[x],
                floor_share: ratio(floor[x], total_floor),
                turns: n_turns[x],
                longest_turn: longest[x],
                wpm: (has_tokens[x] && talk[x] > 0)
                    .then(|| words[x] as f64 * 60_000.0 / talk[x] as f64),
                backchannels: bcs[x],
                interruptions_made: made[x],
                interruptions_received: received[x],
                median_fto_in: median(&fto_in[x]),
                words: words[x],
                monologues: monologues[x],
                non_floor_contributions: non_floor[x],
            },
        );
    }
    let pairs = pairs
        .into_iter()
        .map(|((x, f), (attempts, successful, talk_over))| PairOut {
            interrupter: name(x),
            interruptee: name(f),
            attempts,
            successful,
            talk_over_events: talk_over,
            rate_per_min_of_interruptee_floor: (floor[f] > 0)
                .then(|| attempts as f64 * 60_000.0 / floor[f] as f64),
        })
        .collect();
    let mut he_counts: BTreeMap<Layer, BTreeMap<HeKind, usize>> = BTreeMap::new();
    for layer in [Layer::Acoustic, Layer::Floor] {
        he_counts.insert(layer, HeKind::ALL.iter().map(|&k| (k, 0)).collect());
    }
    let mut between = (0usize, 0usize, 0usize); // (all, overlap_between, ngno)
    let mut long_silences = 0;
    for h in st.he {
        if let Some(c) = he_counts.get_mut(&h.layer).and_then(|m| m.get_mut(&h.kind)) {
            *c += 1;
        }
        if h.layer == Layer::Acoustic {
            if h.kind.is_between() {
                between.0 += 1;
                between.1 += usize::from(h.kind == HeKind::OverlapBetween);
                between.2 += usize::from(h.kind == HeKind::Ngno);
            }
            if matches!(h.kind, HeKind::Gap | HeKind::Pause) && h.dur() >= p.long_silence {
                long_silences += 1;
            }
        }
    }
    counts.speakers = n;
    counts.talkspurts = st.spurts.len();
    counts.turns = st.turns.len();
    counts.transfers = st.transfers.len();
    counts.backchannels = bcs.iter().sum();
    counts.verbal_claims = st.verbal.len();
    let shares: Vec<f64> = talk.iter().filter_map(|&t| ratio(t, total_talk)).collect();
    let balance = Balance {
        max_share: shares.iter().copied().reduce(f64::max),
        entropy: (shares.len() >= 2).then(|| {
            let h: f64 = shares.iter().filter(|&&s| s > 0.0).map(|&s| -s * s.ln()).sum();
            h / (shares.len() as f64).ln()
        }),
        gini: (!shares.is_empty()).then(|| {
            let m = shares.len() as f64;
            let mean = 1.0 / m;
            let sum: f64 =
                shares.iter().flat_map(|a| shares.iter().map(move |b| (a - b).abs())).sum();
            sum / (2.0 * m * m * mean)
        }),
    };
    let mut warnings = Vec::new();
    if overlap == 0 && n >= 2 && speech > 300_000 {
        warnings.push(format!(
            "no overlapping speech in {:.1} min of multi-speaker speech: overlap-based metrics are structurally zero (single-channel diarization or forced alignment?)",
            speech as f64 / 60_000.0
        ));
    }
    // Schisms (Q10): one contiguous stretch of pieces with ≥ 3 active speakers, > 5 s.
    let mut stretch: Option<(i64, i64, usize)> = None;
    let flush = |st: Option<(i64, i64, usize)>, warnings: &mut Vec<String>| {
        if let Some((a, b, most)) = st.filter(|&(a, b, _)| b - a > 5000) {
            warnings.push(format!(
                "{most} speakers active for {} ms from {a} ms: possible parallel conversation (schism)",
                b - a
            ));
        }
    };
    for piece in st.joint {
        if piece.active.len() >= 3 {
            stretch = Some(match stretch {
                Some((a, b, m)) if b == piece.start => (a, piece.end, m.max(piece.active.len())),
                other => {
                    flush(other, &mut warnings);
                    (piece.start, piece.end, piece.active.len())
                }
            });
        } else {
            flush(stretch.take(), &mut warnings);
        }
    }
    flush(stretch, &mut warnings);
    Analysis {
        schema_version: SCHEMA_VERSION,
        params: p.clone(),
        mode,
        diagnostics: Diagnostics {
            dropped_segments: st.dropped_segments,
            same_speaker_overlaps: st.same_speaker_overlaps,
            talk_time_unbridged: (0..n).map(|x| (name(x), st.talk_unbridged[x])).collect(),
            clamped_words: st.clamped_words,
            warnings,
        },
        talkspurts: st
            .spurts
            .iter()
            .map(|s| TalkspurtOut {
                speaker: name(s.speaker),
                start: s.start,
                end: s.end,
                n_tokens: s.n_words(),
                is_backchannel: s.backchannel,
            })
            .collect(),
        joint: st
            .joint
            .iter()
            .map(|q| JointOut {
                start: q.start,
                end: q.end,
                active: q.active.iter().map(|&a| name(a)).collect(),
            })
            .collect(),
        he: st
            .he
            .iter()
            .map(|h| HeOut {
                layer: h.layer,
                kind: h.kind,
                start: h.start,
                end: h.end,
                prev: h.prev.map(name),
                next: h.next.map(name),
            })
            .collect(),
        transfers: st
            .transfers
            .iter()
            .map(|t| TransferOut { time: t.time, from: name(t.from), to: name(t.to), fto: t.fto })
            .collect(),
        turns: st
            .turns
            .iter()
            .map(|t| TurnOut {
                speaker: name(t.speaker),
                start: t.start,
                end: t.end,
                claim: t.claim,
                n_talkspurts: t.spurts.len(),
                n_tokens: t.n_tokens,
            })
            .collect(),
        onsets: st
            .onsets
            .iter()
            .map(|o| OnsetOut {
                speaker: name(o.speaker),
                time: o.time,
                holder: o.holder.map(name),
                class: o.class,
                outcome: o.outcome,
                ferguson: o.ferguson,
                partner: o.partner.map(name),
                dist_to_completion: o.dist_to_completion,
                holder_remaining: o.holder_remaining,
            })
            .collect(),
        speakers,
        pairs,
        conversation: ConversationOut {
            span,
            speech,
            silence,
            overlap,
            overlap_ratio: ratio(overlap, speech),
            transfers_per_min: (span > 0)
                .then(|| st.transfers.len() as f64 * 60_000.0 / span as f64),
            he_counts,
            long_silences,
            start: span_start,
            counts,
            overlap_between_share: ratio(between.1 as i64, between.0 as i64),
            ngno_share: ratio(between.2 as i64, between.0 as i64),
            balance,
        },
        verbal_claims: st
            .verbal
            .iter()
            .map(|c| {
                let o = c.answers.and_then(|k| st.onsets.get(k));
                VerbalClaimOut {
                    speaker: name(c.speaker),
                    phrase: c.phrase.clone(),
                    start: c.start,
                    end: c.end,
                    answers: c.answers,
                    answers_speaker: o.map(|o| name(o.speaker)),
                    answers_time: o.map(|o| o.time),
                    answers_class: o.map(|o| o.class),
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_iqr_follow_numpy() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3, 1, 2]), Some(2.0));
        assert_eq!(median(&[-500, 500, 200, -200]), Some(0.0));
        assert_eq!(median(&[1, 2]), Some(1.5));
        // numpy.percentile([1,2,3,4], [25,75]) = 1.75, 3.25
        assert_eq!(iqr(&[4, 1, 3, 2]), Some(1.5));
        assert_eq!(iqr(&[7]), Some(0.0));
    }
}
