//! S7 — turns, floor tenures, transfers and floor-transfer offsets (§5.4 S7 (R21)).
//!
//! ```text
//! claims      A@0               B@5000      A@6500
//! tenures     [0──────────5000)[5000──6500)[6500───9000)   (last one ends at the span end)
//! turns       A [0,5000)    B [4000,6000)  A [6500,9000)
//! FTO A→B = 4000 − 5000 = −1000;  B→A = 6500 − 6000 = +500
//! ```
//! Turn k of X holds X's floor-relevant talkspurts that are the claiming one or start in the
//! tenure; its extent may begin before the claim (an overlapped onset).

use super::floor::Claim;
use super::seek;
use super::talkspurt::Talkspurt;
use super::units::{Millis, SpeakerIndex};

/// One turn (speakers as indices, talkspurts as indices into the sorted list).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRec {
    /// Holder.
    pub speaker: SpeakerIndex,
    /// Earliest start of its talkspurts (ms).
    pub start: Millis,
    /// Latest end of its talkspurts (ms).
    pub end: Millis,
    /// Claim time (ms).
    pub claim: Millis,
    /// Tenure end: the next claim, or the end of the acoustic span for the last turn.
    pub tenure_end: Millis,
    /// Its talkspurts.
    pub spurts: Vec<usize>,
    /// Words in its talkspurts.
    pub n_tokens: usize,
}

/// One floor transfer (claim k ≥ 1).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TransferRec {
    /// Claim time (ms).
    pub time: Millis,
    /// Previous holder.
    pub from: SpeakerIndex,
    /// New holder.
    pub to: SpeakerIndex,
    /// Floor-transfer offset (ms), negative when the new holder started in overlap.
    pub fto: Option<Millis>,
    /// The previous holder's talkspurt `p` of the FTO formula.
    pub prev_spurt: Option<usize>,
}

/// S7 from the claims, the floor-relevant talkspurts per speaker and the acoustic span end.
pub fn turns(
    spurts: &[Talkspurt],
    floor_by: &[Vec<usize>],
    claims: &[Claim],
    span_end: Millis,
) -> (Vec<TurnRec>, Vec<TransferRec>) {
    let mut turns = Vec::with_capacity(claims.len());
    let mut transfers = Vec::with_capacity(claims.len().saturating_sub(1));
    // Cursors into each speaker's list (see `seek`): claims come in time order.
    let mut at_lo = vec![0usize; floor_by.len()];
    let mut at_hi = vec![0usize; floor_by.len()];
    let mut at_prev = vec![0usize; floor_by.len()];
    for (k, c) in claims.iter().enumerate() {
        let next = claims.get(k + 1).map(|n| n.time);
        let own = &floor_by[c.speaker.index()];
        let lo = seek(own, &mut at_lo[c.speaker.index()], |&i| spurts[i].start < c.time);
        let hi = match next {
            Some(t) => seek(own, &mut at_hi[c.speaker.index()], |&i| spurts[i].start < t),
            None => own.len(),
        };
        let run = own.get(lo..hi.max(lo)).unwrap_or_default();
        // The claiming talkspurt first when it is not among them; sized once.
        let mut members: Vec<usize> = Vec::with_capacity(run.len() + 1);
        if !run.contains(&c.spurt) {
            members.push(c.spurt);
        }
        members.extend_from_slice(run);
        let start = members.iter().map(|&i| spurts[i].start).min().unwrap_or(c.time);
        let end = members.iter().map(|&i| spurts[i].end).max().unwrap_or(c.time);
        let n_tokens = members.iter().map(|&i| spurts[i].n_words()).sum();
        turns.push(TurnRec {
            speaker: c.speaker,
            start,
            end,
            claim: c.time,
            tenure_end: next.unwrap_or(span_end.max(c.time)),
            spurts: members,
            n_tokens,
        });
        if k > 0 {
            let from = claims[k - 1].speaker;
            let sp_start = spurts[c.spurt].start;
            let prev = &floor_by[from.index()];
            let n = seek(prev, &mut at_prev[from.index()], |&i| spurts[i].start < sp_start);
            // The previous holder's spurts are disjoint, so the last one starting before has
            // the latest end.
            let prev_spurt = n.checked_sub(1).map(|j| prev[j]);
            let fto = prev_spurt.map(|p| sp_start - spurts[p].end);
            transfers.push(TransferRec { time: c.time, from, to: c.speaker, fto, prev_spurt });
        }
    }
    (turns, transfers)
}
