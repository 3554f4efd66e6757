//! S9 — aggregate metrics (§5.5) and the assembly of the [`Analysis`] result.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::claims::VerbalClaim;
use super::intervals::{HeInterval, HeKind, Layer};
use super::joint::JointPiece;
use super::onsets::{OnsetClass, OnsetRec};
use super::params::Params;
use super::result::*;
use super::talkspurt::Talkspurt;
use super::turns::{TransferRec, TurnRec};
use super::units::{Millis, SpeakerIndex};
use super::warning::{AnalysisWarning, TOUCHING_TURNS_MIN};

/// Median (mean of the two middle values for an even count); `None` when empty (§5.5.7).
pub fn median(values: &[Millis]) -> Option<f64> {
    median_in_place(&mut values.to_vec())
}

/// [`median`] of values that may be reordered (sorted in place, no copy).
fn median_in_place(v: &mut [Millis]) -> Option<f64> {
    v.sort_unstable();
    median_sorted(v)
}

/// [`median`] and [`iqr`] of values that may be reordered (sorted once, in place).
fn median_iqr_in_place(v: &mut [Millis]) -> (Option<f64>, Option<f64>) {
    v.sort_unstable();
    (median_sorted(v), iqr_sorted(v))
}

/// [`median`] of values already sorted ascending (no copy, no sort).
fn median_sorted(v: &[Millis]) -> Option<f64> {
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2].get() as f64),
        _ => Some((v[n / 2 - 1].get() as f64 + v[n / 2].get() as f64) / 2.0),
    }
}

/// Inter-quartile range with linear interpolation between order statistics (numpy default).
pub fn iqr(values: &[Millis]) -> Option<f64> {
    let mut v = values.to_vec();
    v.sort_unstable();
    iqr_sorted(&v)
}

/// [`iqr`] of values already sorted ascending (no copy, no sort).
fn iqr_sorted(v: &[Millis]) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    let q = |p: f64| {
        let pos = p * (v.len() - 1) as f64;
        let lo = pos.floor() as usize;
        let hi = pos.ceil() as usize;
        let (a, b) = (v[lo].get() as f64, v[hi].get() as f64);
        a + (b - a) * (pos - lo as f64)
    };
    Some(q(0.75) - q(0.25))
}

/// Longest stretch inside each speaker's tenures where nobody else vocalises (acoustic layer,
/// backchannels included), from a start to an end of the speaker's own talk (§5.5.6, Q8):
///
/// ```text
/// tenure of X  [──────────────────────────────────)
/// turn of X    [────────────────────────────)
/// joint         X  | ∅ |  X  |{X,Y}| X | ∅ | x(BC)
///               └─ unbroken ─┘     └X┘   trailing silence and X's own backchannel excluded
/// ```
///
/// It is the strict variant of the longest turn, so it ends where the turn ends (X's last
/// floor-relevant talk): a backchannel X makes after that, before anyone claims the floor
/// ("Yeah." at the end of one's own turn, which the calibrated classifier may take for one),
/// would otherwise stretch it past the turn it is stricter than.
///
/// Tenures follow each other in claim order, so one cursor walks the joint timeline for all
/// turns: a turn's first piece is the first one ending after its claim.
fn longest_unbroken(joint: &[JointPiece], turns: &[TurnRec], n: usize) -> Vec<Option<Millis>> {
    let mut best: Vec<Option<Millis>> = vec![None; n];
    let (mut first, mut last_claim) = (0, Millis::MIN);
    for t in turns {
        let (x, lo, hi) = (t.speaker, t.claim, t.end.min(t.tenure_end));
        if lo < last_claim {
            // Claims never go back in time; this keeps the cursor exact if they did.
            first = 0;
        }
        last_claim = lo;
        first += joint[first..].iter().take_while(|p| p.end <= lo).count();
        let Some(slot) = best.get_mut(x.index()) else { continue };
        let mut run: Option<(Millis, Millis)> = None; // (first own start, last own end)
        for p in joint[first..].iter().take_while(|p| p.start < hi) {
            let (a, b) = (p.start.max(lo), p.end.min(hi));
            if p.active.iter().any(|&s| s != x) {
                run = None;
            } else if p.active.len() == 1 {
                let r = run.map_or((a, b), |(s, _)| (s, b));
                *slot = Some(slot.map_or(r.1 - r.0, |m| m.max(r.1 - r.0)));
                run = Some(r);
            }
        }
    }
    best
}

/// ConvoKit-style windowed balance for a dyad (§5.5.3, Q9): the first and last talkspurts are
/// left out (ConvoKit's `remove_first_last_utt`); windows of `balance_window` start at the first
/// remaining talkspurt and advance by `balance_step` while the window ends before the last
/// remaining end; talk is clipped to each window; a window without talk is skipped; a label is
/// 1 when the primary speaker's share is > `balance_dominance`, −1 when the secondary's is,
/// else 0.
///
/// ```text
/// talk     A A A A A A A A A A B B B B B B B B B B
/// windows  [────── 1 ──────)
///                [────── 1 ──────)
///                      [────── 0 ──────)          (each talkspurt clipped to the window)
///                            [───── −1 ──────)
/// ```
fn windows(spurts: &[Talkspurt], primary: SpeakerIndex, p: &Params) -> Vec<i8> {
    if spurts.len() < 3 {
        return Vec::new();
    }
    let kept = &spurts[1..spurts.len() - 1];
    let start = kept.iter().map(|s| s.start).min().unwrap_or(Millis::ZERO);
    let end = kept.iter().map(|s| s.end).max().unwrap_or(Millis::ZERO);
    let mut out = Vec::new();
    let mut w = start;
    while w + p.balance_window < end {
        let (lo, hi) = (w, w + p.balance_window);
        let (mut ps, mut total) = (Millis::ZERO, Millis::ZERO);
        let upto = kept.partition_point(|s| s.start < hi);
        for s in &kept[..upto] {
            let clip = s.end.min(hi) - s.start.max(lo);
            if clip > Millis::ZERO {
                total += clip;
                if s.speaker == primary {
                    ps += clip;
                }
            }
        }
        if total > Millis::ZERO {
            let share = ps.get() as f64 / total.get() as f64;
            out.push(if share > p.balance_dominance {
                1
            } else if 1.0 - share > p.balance_dominance {
                -1
            } else {
                0
            });
        }
        w += p.balance_step;
    }
    out
}

/// ConvoKit's `summarize` buckets of a window-label list.
fn pattern(w: &[i8]) -> Option<String> {
    if w.is_empty() {
        return None;
    }
    let n = w.len() as f64;
    let pct = |v: i8| w.iter().filter(|&&x| x == v).count() as f64 / n * 100.0;
    Some(
        if pct(1) >= 75.0 || pct(-1) >= 75.0 {
            "dominating_throughout"
        } else if pct(0) >= 60.0 {
            "back_and_forth"
        } else if pct(-1) > 25.0 {
            "alter_dominance"
        } else {
            "no_label"
        }
        .to_owned(),
    )
}

fn share_of(values: &[Millis], pred: impl Fn(Millis) -> bool) -> Option<f64> {
    (!values.is_empty())
        .then(|| values.iter().filter(|&&v| pred(v)).count() as f64 / values.len() as f64)
}

fn ratio(a: i64, b: i64) -> Option<f64> {
    (b != 0).then(|| a as f64 / b as f64)
}

/// Everything the stages produced, borrowed for assembly.
pub struct Stages<'a> {
    /// The calibrated classifier's probabilities (`None` under the rules).
    pub calibrated: Option<&'a super::calibrated::Decisions>,
    /// Parameters.
    pub params: &'a Params,
    /// Speaker names.
    pub names: &'a [String],
    /// Talkspurts.
    pub spurts: &'a [Talkspurt],
    /// Acoustic joint timeline.
    pub joint: &'a [JointPiece],
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
    pub talk_unbridged: &'a [Millis],
}

/// Builds the result.
pub fn assemble(st: Stages<'_>) -> Analysis {
    let p = st.params;
    // Each name is allocated once here; every result item shares it by reference count.
    let shared: Vec<Name> = st.names.iter().map(|s| Name::from(s.as_str())).collect();
    let name = |i: SpeakerIndex| shared[i.index()].clone();
    let key = |i: usize| st.names[i].clone();
    let joint = out_joint(st.joint, &shared);
    let n = st.names.len();
    let mut talk = vec![Millis::ZERO; n];
    let mut words = vec![0usize; n];
    let mut has_tokens = vec![false; n];
    let mut bcs = vec![0usize; n];
    for s in st.spurts {
        if p.bc_counts_as_talk || !s.backchannel {
            talk[s.speaker.index()] += s.dur();
        }
        words[s.speaker.index()] += s.n_words();
        has_tokens[s.speaker.index()] |= s.has_tokens;
        bcs[s.speaker.index()] += usize::from(s.backchannel);
    }
    let mut solo = vec![Millis::ZERO; n];
    let (mut silence, mut overlap) = (Millis::ZERO, Millis::ZERO);
    for piece in st.joint {
        match piece.active.len() {
            0 => silence += piece.dur(),
            1 => solo[piece.active[0].index()] += piece.dur(),
            _ => overlap += piece.dur(),
        }
    }
    let span_start = st.spurts.iter().map(|s| s.start).min();
    let span_end = st.spurts.iter().map(|s| s.end).max();
    let span = match (span_start, span_end) {
        (Some(a), Some(b)) => b - a,
        _ => Millis::ZERO,
    };
    let speech = span - silence;
    let mut floor = vec![Millis::ZERO; n];
    let mut n_turns = vec![0usize; n];
    let mut longest: Vec<Option<Millis>> = vec![None; n];
    let mut monologues = vec![0usize; n];
    let mut in_turn = vec![false; st.spurts.len()];
    for t in st.turns {
        floor[t.speaker.index()] += t.tenure_end - t.claim;
        n_turns[t.speaker.index()] += 1;
        let ext = t.end - t.start;
        longest[t.speaker.index()] = Some(longest[t.speaker.index()].map_or(ext, |l| l.max(ext)));
        monologues[t.speaker.index()] += usize::from(ext >= p.monologue_min);
        for &i in &t.spurts {
            in_turn[i] = true;
        }
    }
    let mut non_floor = vec![0usize; n];
    for (i, s) in st.spurts.iter().enumerate() {
        if s.floor && !in_turn[i] {
            non_floor[s.speaker.index()] += 1;
        }
    }
    let total_talk: Millis = talk.iter().sum();
    let total_floor: Millis = floor.iter().sum();
    let mut made = vec![Counts::default(); n];
    let mut received = vec![Counts::default(); n];
    let mut pairs: BTreeMap<(SpeakerIndex, SpeakerIndex), (usize, usize, usize)> = BTreeMap::new();
    let mut counts = HeadlineCounts::default();
    // terminal overlaps, simultaneous starts, attempts, successful, talk-over events
    let (mut terminal, mut simultaneous, mut attempts, mut successful, mut talk_over) =
        (0, 0, 0, 0, 0);
    for o in st.onsets {
        match o.class {
            OnsetClass::TerminalOverlap => terminal += 1,
            OnsetClass::SimultaneousStart => simultaneous += 1,
            _ => {}
        }
        let Some(f) = o.holder else { continue };
        if o.is_attempt() {
            made[o.speaker.index()].attempts += 1;
            received[f.index()].attempts += 1;
            attempts += 1;
        }
        if o.is_successful() {
            made[o.speaker.index()].successful += 1;
            received[f.index()].successful += 1;
            successful += 1;
        }
        talk_over += usize::from(o.is_talk_over());
        if o.is_attempt() || o.is_talk_over() {
            let e = pairs.entry((o.speaker, f)).or_default();
            e.0 += usize::from(o.is_attempt());
            e.1 += usize::from(o.is_successful());
            e.2 += usize::from(o.is_talk_over());
        }
    }
    counts.events.terminal_overlaps = Some(terminal);
    counts.events.simultaneous_starts = Some(simultaneous);
    counts.events.interruptions = Some(attempts);
    counts.events.successful = Some(successful);
    counts.events.unsuccessful = Some(attempts - successful);
    counts.events.talk_over_events = Some(talk_over);
    let mut fto_in: Vec<Vec<Millis>> = vec![Vec::new(); n];
    for t in st.transfers {
        if let Some(f) = t.fto {
            fto_in[t.to.index()].push(f);
        }
    }
    // Median and IQR by selection (the shares below only count).
    let fto_stats: Vec<(Option<f64>, Option<f64>)> =
        fto_in.iter_mut().map(|v| median_iqr_in_place(v)).collect();
    let mut question_fto: Vec<Vec<Millis>> = vec![Vec::new(); n];
    for t in st.transfers {
        let asks = t.prev_spurt.and_then(|i| st.spurts[i].tokens.last()).is_some_and(|tok| {
            tok.raw
                .trim_end_matches(['"', '\'', '\u{201D}', '\u{2019}', '\u{BB}', ')', ']', '}', '!'])
                .ends_with('?')
        });
        if let (true, Some(f)) = (asks, t.fto) {
            question_fto[t.to.index()].push(f);
        }
    }
    let bc_in_overlap = bc_overlap(st.spurts, n);
    let unbroken = longest_unbroken(st.joint, st.turns, n);
    let mut speakers = BTreeMap::new();
    let mut mode = BTreeMap::new();
    for x in 0..n {
        mode.insert(key(x), if has_tokens[x] { Mode::Text } else { Mode::Timing });
        speakers.insert(
            key(x),
            SpeakerOut {
                talk: talk[x],
                talk_share: ratio(talk[x].get(), total_talk.get()),
                solo: Some(solo[x]),
                floor: floor[x],
                floor_share: ratio(floor[x].get(), total_floor.get()),
                turns: n_turns[x],
                longest_turn: longest[x],
                wpm: (has_tokens[x] && talk[x] > Millis::ZERO)
                    .then(|| words[x] as f64 * 60_000.0 / talk[x].get() as f64),
                backchannels: bcs[x],
                interruptions_made: Some(made[x]),
                interruptions_received: Some(received[x]),
                median_fto_in: fto_stats[x].0,
                words: words[x],
                monologues: monologues[x],
                non_floor_contributions: non_floor[x],
                longest_unbroken: unbroken[x],
                fto_in_iqr: fto_stats[x].1,
                fto_in_negative_share: share_of(&fto_in[x], |v| v < Millis::ZERO),
                fto_in_long_share: share_of(&fto_in[x], |v| v >= p.long_silence),
                question_fto_median: median_in_place(&mut question_fto[x]),
                bc_rate_per_min_of_others_floor: (total_floor - floor[x] > Millis::ZERO)
                    .then(|| bcs[x] as f64 * 60_000.0 / (total_floor - floor[x]).get() as f64),
                bc_in_overlap_share: (bcs[x] > 0).then(|| bc_in_overlap[x] as f64 / bcs[x] as f64),
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
            talk_over_events: Some(talk_over),
            rate_per_min_of_interruptee_floor: (floor[f.index()] > Millis::ZERO)
                .then(|| attempts as f64 * 60_000.0 / floor[f.index()].get() as f64),
        })
        .collect();
    let (between, long_silences, (he_counts, he_durations)) = he_stats(st.he, p);
    counts.speakers = n;
    counts.talkspurts = st.spurts.len();
    counts.events.turns = st.turns.len();
    counts.events.transfers = st.transfers.len();
    counts.events.backchannels = bcs.iter().sum();
    counts.events.verbal_claims = st.verbal.len();
    let shares: Vec<f64> = talk.iter().filter_map(|&t| ratio(t.get(), total_talk.get())).collect();
    let dyad_primary = (n == 2).then(|| SpeakerIndex::new(if talk[1] > talk[0] { 1 } else { 0 }));
    let window_labels = dyad_primary.map(|pr| windows(st.spurts, pr, p)).unwrap_or_default();
    let max_share = shares.iter().copied().reduce(f64::max);
    let balance = Balance {
        primary: dyad_primary.filter(|_| total_talk > Millis::ZERO).map(name),
        balance_type: dyad_primary.and(max_share).map(|m| {
            if m >= 0.65 {
                "low_balance"
            } else if m >= 0.55 {
                "mid_balance"
            } else {
                "high_balance"
            }
            .to_owned()
        }),
        pattern: pattern(&window_labels),
        windows: window_labels,
        max_share,
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
    if overlap == Millis::ZERO && n >= 2 && speech > Millis::new(300_000) {
        warnings.push(AnalysisWarning::NoOverlap { speech_ms: speech });
    }
    let offsets: Vec<Millis> = st.transfers.iter().filter_map(|t| t.fto).collect();
    if offsets.len() >= TOUCHING_TURNS_MIN && offsets.iter().all(|&f| f == Millis::ZERO) {
        warnings.push(AnalysisWarning::TouchingTurns { transfers: offsets.len() });
    }
    // Schisms (Q10): one contiguous stretch of pieces with ≥ 3 active speakers, > 5 s.
    let mut stretch: Option<(Millis, Millis, usize)> = None;
    let flush = |st: Option<(Millis, Millis, usize)>, warnings: &mut Vec<AnalysisWarning>| {
        if let Some((a, b, most)) = st.filter(|&(a, b, _)| b - a > Millis::new(5000)) {
            warnings.push(AnalysisWarning::Schism { speakers: most, start_ms: a, end_ms: b });
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
            talk_time_unbridged: (0..n).map(|x| (key(x), st.talk_unbridged[x])).collect(),
            clamped_words: st.clamped_words,
            warnings,
        },
        talkspurts: out_spurts(st.spurts, &shared, st.calibrated),
        joint,
        he: out_he(st.he, &shared),
        transfers: out_transfers(st.transfers, &shared),
        turns: out_turns(st.turns, &shared),
        onsets: out_onsets(st.onsets, &shared, st.calibrated),
        speakers,
        pairs,
        conversation: ConversationOut {
            span,
            speech,
            silence,
            overlap: Some(overlap),
            overlap_ratio: ratio(overlap.get(), speech.get()),
            transfers_per_min: (span > Millis::ZERO)
                .then(|| st.transfers.len() as f64 * 60_000.0 / span.get() as f64),
            he_counts,
            long_silences,
            start: span_start,
            counts,
            overlap_between_share: ratio(between.1 as i64, between.0 as i64),
            ngno_share: ratio(between.2 as i64, between.0 as i64),
            balance,
            turn_median: median_in_place(
                &mut st.turns.iter().map(|t| t.end - t.start).collect::<Vec<_>>(),
            ),
            words_per_turn: (has_tokens.iter().any(|&h| h) && !st.turns.is_empty()).then(|| {
                st.turns.iter().map(|t| t.n_tokens).sum::<usize>() as f64 / st.turns.len() as f64
            }),
            he_durations,
            between_median: median_in_place(
                &mut st
                    .he
                    .iter()
                    .filter(|h| h.layer == Layer::Acoustic)
                    .filter_map(HeInterval::signed)
                    .collect::<Vec<_>>(),
            ),
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
        estimated_times: None,
        chat_markers_vs_timing: None,
    }
}

/// The joint timeline of the result, each piece naming its active speakers.
fn out_joint(st_joint: &[JointPiece], shared: &[Name]) -> Vec<JointOut> {
    // Each distinct active set of the joint timeline is one shared list: silence, one per solo
    // speaker, and the overlap sets met (few, however long the conversation).
    let silent: Arc<[Name]> = Arc::from(Vec::new());
    let solos: Vec<Arc<[Name]>> = shared.iter().map(|s| Arc::from(vec![s.clone()])).collect();
    // Overlap sets met so far (a handful), searched linearly.
    let mut overlap_sets: Vec<(&[SpeakerIndex], Arc<[Name]>)> = Vec::new();
    let mut joint = Vec::with_capacity(st_joint.len());
    for q in st_joint {
        let ids: &[SpeakerIndex] = &q.active;
        let active = match ids {
            [] => silent.clone(),
            [x] => solos[x.index()].clone(),
            // Compared element by element: these sets are short, a `memcmp` call costs more.
            _ => match overlap_sets
                .iter()
                .find(|(set, _)| set.len() == ids.len() && set.iter().zip(ids).all(|(a, b)| a == b))
            {
                Some((_, names)) => names.clone(),
                None => {
                    let names: Arc<[Name]> =
                        ids.iter().map(|&a| shared[a.index()].clone()).collect();
                    overlap_sets.push((ids, names.clone()));
                    names
                }
            },
        };
        joint.push(JointOut { start: q.start, end: q.end, active });
    }
    joint
}

/// Per speaker, how many of its backchannels start inside another speaker's talkspurt (Q12).
///
/// ```text
/// A  [0──────────────6000)        latest A talkspurt started by 2000 covers it
/// B        [2000─2400)            ⇒ B's backchannel is in overlap
/// ```
///
/// The talkspurts are in start order, so one cursor walks them while the backchannels are met
/// in that order, remembering each speaker's latest talkspurt started by then (a speaker's
/// talkspurts are disjoint, so it is the only one that can cover the onset).
fn bc_overlap(spurts: &[Talkspurt], n: usize) -> Vec<usize> {
    let mut bc_in_overlap = vec![0usize; n];
    let mut latest: Vec<Option<usize>> = vec![None; n];
    let mut next = 0;
    let sorted = spurts.is_sorted_by_key(|s| s.start);
    for s in spurts.iter().filter(|s| s.backchannel) {
        let covered = if sorted {
            while let Some(j) = spurts.get(next).filter(|j| j.start <= s.start) {
                if let Some(l) = latest.get_mut(j.speaker.index()) {
                    *l = Some(next);
                }
                next += 1;
            }
            latest.iter().enumerate().any(|(y, l)| {
                y != s.speaker.index() && l.is_some_and(|k| spurts[k].covers(s.start))
            })
        } else {
            spurts.iter().any(|o| o.speaker != s.speaker && o.covers(s.start))
        };
        bc_in_overlap[s.speaker.index()] += usize::from(covered);
    }
    bc_in_overlap
}

/// Counts and duration statistics per layer and H&E class.
type HeTables = (
    BTreeMap<Layer, BTreeMap<HeKind, Option<usize>>>,
    BTreeMap<Layer, BTreeMap<HeKind, Option<HeStats>>>,
);

/// The H&E figures of §5.5.4: acoustic between-speaker intervals `(all, overlap_between,
/// ngno)`, acoustic long silences, and the counts and duration statistics of every class.
fn he_stats(st_he: &[HeInterval], p: &Params) -> ((usize, usize, usize), usize, HeTables) {
    let mut between = (0usize, 0usize, 0usize); // (all, overlap_between, ngno)
    let mut long_silences = 0;
    // Durations per (layer, kind), gathered in one pass; their lengths are the counts. The
    // kinds are declared in the order of `HeKind::ALL`, so a kind's place there is its number.
    let slot = |layer: Layer, kind: HeKind| {
        Some(usize::from(layer == Layer::Floor) * HeKind::ALL.len() + kind as usize)
    };
    let mut sizes = [0usize; 2 * HeKind::ALL.len()];
    for h in st_he {
        if let Some(n) = slot(h.layer, h.kind).and_then(|i| sizes.get_mut(i)) {
            *n += 1;
        }
    }
    let mut durations: Vec<Vec<Millis>> = sizes.iter().map(|&n| Vec::with_capacity(n)).collect();
    for h in st_he {
        if let Some(d) = slot(h.layer, h.kind).and_then(|i| durations.get_mut(i)) {
            d.push(h.dur());
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
    let he_counts: BTreeMap<Layer, BTreeMap<HeKind, Option<usize>>> =
        [Layer::Acoustic, Layer::Floor]
            .into_iter()
            .map(|layer| {
                let n = |kind| {
                    Some(slot(layer, kind).and_then(|i| durations.get(i)).map_or(0, Vec::len))
                };
                (layer, HeKind::ALL.iter().map(|&k| (k, n(k))).collect())
            })
            .collect();
    // Counts and sums first; then median and IQR by selection (which reorders the list).
    let he_durations: BTreeMap<Layer, BTreeMap<HeKind, Option<HeStats>>> =
        [Layer::Acoustic, Layer::Floor]
            .into_iter()
            .map(|layer| {
                let kinds = HeKind::ALL
                    .iter()
                    .map(|&kind| {
                        let mut none = Vec::new();
                        let d = slot(layer, kind)
                            .and_then(|i| durations.get_mut(i))
                            .unwrap_or(&mut none);
                        let (n, total) = (d.len(), d.iter().sum());
                        let micro = d.iter().filter(|&&x| x < p.pause_report_min).count();
                        let long = d.iter().filter(|&&x| x >= p.long_silence).count();
                        let (median, iqr) = median_iqr_in_place(d);
                        let stats = HeStats { n, total, median, iqr, micro, long };
                        (kind, Some(stats))
                    })
                    .collect();
                (layer, kinds)
            })
            .collect();
    (between, long_silences, (he_counts, he_durations))
}

/// The talkspurts of the result.
fn out_spurts(
    spurts: &[Talkspurt],
    shared: &[Name],
    calibrated: Option<&super::calibrated::Decisions>,
) -> Vec<TalkspurtOut> {
    spurts
        .iter()
        .enumerate()
        .map(|(i, s)| TalkspurtOut {
            speaker: shared[s.speaker.index()].clone(),
            start: s.start,
            end: s.end,
            n_tokens: s.n_words(),
            is_backchannel: s.backchannel,
            p_backchannel: calibrated.and_then(|c| c.p_backchannel.get(i).copied()),
        })
        .collect()
}

/// The H&E intervals of the result.
fn out_he(he: &[HeInterval], shared: &[Name]) -> Vec<HeOut> {
    let name = |i: SpeakerIndex| shared[i.index()].clone();
    he.iter()
        .map(|h| HeOut {
            layer: h.layer,
            kind: h.kind,
            start: h.start,
            end: h.end,
            prev: h.prev.map(name),
            next: h.next.map(name),
        })
        .collect()
}

/// The floor transfers of the result.
fn out_transfers(transfers: &[TransferRec], shared: &[Name]) -> Vec<TransferOut> {
    let name = |i: SpeakerIndex| shared[i.index()].clone();
    transfers
        .iter()
        .map(|t| TransferOut { time: t.time, from: name(t.from), to: name(t.to), fto: t.fto })
        .collect()
}

/// The turns of the result.
fn out_turns(turns: &[TurnRec], shared: &[Name]) -> Vec<TurnOut> {
    turns
        .iter()
        .map(|t| TurnOut {
            speaker: shared[t.speaker.index()].clone(),
            start: t.start,
            end: t.end,
            claim: t.claim,
            n_talkspurts: t.spurts.len(),
            n_tokens: t.n_tokens,
        })
        .collect()
}

/// The onsets of the result.
fn out_onsets(
    onsets: &[OnsetRec],
    shared: &[Name],
    calibrated: Option<&super::calibrated::Decisions>,
) -> Vec<OnsetOut> {
    let name = |i: SpeakerIndex| shared[i.index()].clone();
    let p = |k: usize, j: usize| {
        calibrated.and_then(|c| c.p_onset.get(k).copied().flatten()).map(|p| p[j])
    };
    onsets
        .iter()
        .enumerate()
        .map(|(k, o)| OnsetOut {
            speaker: name(o.speaker),
            time: o.time,
            holder: o.holder.map(name),
            class: o.class,
            outcome: o.outcome,
            ferguson: o.ferguson,
            partner: o.partner.map(name),
            dist_to_completion: o.dist_to_completion,
            holder_remaining: o.holder_remaining,
            p_interruption: p(k, 0),
            p_failed_attempt: p(k, 1),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: &[i64]) -> Vec<Millis> {
        v.iter().copied().map(Millis::new).collect()
    }

    #[test]
    fn windowed_balance_follows_convokit() {
        // A talks for 14 s of every 15 s during the first 300 s, then B for 300 s.
        let spurts: Vec<Talkspurt> = (0..40i64)
            .map(|j| {
                let (a, b) = (Millis::new(15_000 * j), Millis::new(15_000 * j + 14_000));
                Talkspurt::timed(SpeakerIndex::new(usize::from(j >= 20)), a, b)
            })
            .collect();
        // Windows start at 15 s (the first talkspurt is left out) every 30 s while they end
        // before 584 s; window k covers periods 1+2k … 10+2k, so A's share is (19 − 2k)/10
        // clamped to [0, 1]: > 0.6 for k ≤ 6, 0.5 for k = 7, < 0.4 after.
        let w = windows(&spurts, SpeakerIndex::new(0), &Params::default());
        assert_eq!(w, vec![1, 1, 1, 1, 1, 1, 1, 0, -1, -1, -1, -1, -1, -1]);
        assert_eq!(pattern(&w).as_deref(), Some("alter_dominance"));
        assert_eq!(pattern(&[1, 1, 1, 0]).as_deref(), Some("dominating_throughout"));
        assert_eq!(pattern(&[0, 0, 1, 0, 0]).as_deref(), Some("back_and_forth"));
        assert_eq!(pattern(&[]), None);
    }

    #[test]
    fn median_and_iqr_follow_numpy() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&ms(&[3, 1, 2])), Some(2.0));
        assert_eq!(median(&ms(&[-500, 500, 200, -200])), Some(0.0));
        assert_eq!(median(&ms(&[1, 2])), Some(1.5));
        // numpy.percentile([1,2,3,4], [25,75]) = 1.75, 3.25
        assert_eq!(iqr(&ms(&[4, 1, 3, 2])), Some(1.5));
        assert_eq!(iqr(&ms(&[7])), Some(0.0));
    }
}
