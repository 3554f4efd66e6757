//! Jaccard error rate, in both definitions found in the wild.
//!
//! For a reference speaker `r` paired with hypothesis speaker `h`:
//!
//! ```text
//! r         [██████████)
//! h              [██████████)
//! r ∪ h     [███████████████)     JER(r) = (FA + miss) / |r ∪ h| = 1 − |r ∩ h| / |r ∪ h|
//! r ∩ h          [█████)
//! ```
//!
//! An unpaired reference speaker has JER 1; unpaired hypothesis speakers cost nothing. The
//! recording's JER is the mean over its reference speakers; a corpus JER is the mean over all
//! reference speakers of all recordings (not the mean of recording JERs).
//!
//! * [`JerDefinition::Frames`](super::JerDefinition::Frames) (dscore): 10 ms frames, frame `k`
//!   (at `k·step`) is on for a turn when `onset ≤ k·step < offset`, computed in binary floating
//!   point exactly as dscore does (`n = int(max UEM end / step)`); no collar and no overlap
//!   exclusion; pairing by Hungarian assignment *minimising the sum of JERs*.
//! * [`JerDefinition::Continuous`](super::JerDefinition::Continuous) (pyannote): continuous
//!   time on the scored region (collars and overlap exclusion honoured), pairing = the DER
//!   mapping.

use serde::{Deserialize, Serialize};

use crate::model::{Region, Segment};
use crate::time::Time;

use super::cluster::overlap_duration;
use super::mapping::min_cost_assignment;
use super::prepare::{crop_pieces, Prepared, Token};

/// The JER of one reference speaker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeakerJer {
    /// Reference speaker.
    pub reference: String,
    /// Paired hypothesis speaker.
    pub hypothesis: Option<String>,
    /// JER of this speaker (fraction).
    pub jer: f64,
}

/// The JER of one recording.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileJer {
    /// Per reference speaker.
    pub speakers: Vec<SpeakerJer>,
    /// Number of hypothesis speakers seen.
    pub hypothesis_speakers: usize,
    /// The recording's JER (fraction), with the tool's rules for empty sides.
    pub value: f64,
}

/// Corpus JER from recording JERs: the mean over every reference speaker, with dscore's (for
/// frames) or pyannote's (for continuous) answer when a side is empty.
pub fn corpus_jer(files: &[FileJer], frames: bool) -> f64 {
    let n_ref: usize = files.iter().map(|f| f.speakers.len()).sum();
    let n_hyp: usize = files.iter().map(|f| f.hypothesis_speakers).sum();
    if n_ref == 0 {
        return if frames && n_hyp == 0 { 0.0 } else { 1.0 };
    }
    if frames && n_hyp == 0 {
        return 1.0;
    }
    files.iter().flat_map(|f| f.speakers.iter().map(|s| s.jer)).sum::<f64>() / n_ref as f64
}

/// `searchsorted(times, x, side="left")` for `times[k] = step·k`, `k < n`: the number of frames
/// strictly before `x`.
fn frames_before(x: f64, step: f64, n: i64) -> i64 {
    let guess = (x / step).ceil();
    let mut k = if guess.is_nan() { 0 } else { guess.clamp(0.0, n as f64) as i64 };
    while k > 0 && step * ((k - 1) as f64) >= x {
        k -= 1;
    }
    while k < n && step * (k as f64) < x {
        k += 1;
    }
    k
}

fn secs(t: Time) -> f64 {
    t.micros() as f64 / 1e6
}

/// A recording on dscore's frame grid: frame indices are used as time units (frame `k` is the
/// instant `k` of these regions).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameSets {
    /// Frames inside the scoring regions.
    pub keep: Region,
    /// Per reference speaker: whether it has turns, and its kept frames.
    pub reference: Vec<(bool, Region)>,
    /// Per hypothesis speaker, likewise.
    pub hypothesis: Vec<(bool, Region)>,
}

/// Puts a prepared recording on dscore's frame grid (`step_micros`, 10 ms by default), turn
/// times held as dscore holds them: the onset, and onset + duration in floating point, clipped
/// to the UEM segment holding the turn.
pub fn frame_sets(p: &Prepared, step_micros: i64) -> FrameSets {
    let step = step_micros as f64 / 1e6;
    let float_turns = |tokens: &[Token]| -> Vec<(f64, f64, u32)> {
        tokens
            .iter()
            .map(|&(s, k)| {
                let on = secs(s.start());
                let mut off = on + s.duration().micros() as f64 / 1e6;
                if p.from_uem {
                    if let Some(u) = p.evaluation.iter().find(|u| u.covers(&s)) {
                        if s.end() == u.end() {
                            off = off.min(secs(u.end()));
                        }
                    }
                }
                (on, off, k)
            })
            .collect()
    };
    let rt = float_turns(&p.reference_raw);
    let ht = float_turns(&p.hypothesis_raw);
    let regions: Vec<(f64, f64)> = if p.from_uem {
        p.evaluation.iter().map(|s| (secs(s.start()), secs(s.end()))).collect()
    } else {
        let all = rt.iter().chain(ht.iter());
        let on = all.clone().map(|t| t.0).fold(f64::INFINITY, f64::min);
        let off = all.map(|t| t.1).fold(f64::NEG_INFINITY, f64::max);
        if on.is_finite() && off.is_finite() {
            vec![(on, off)]
        } else {
            Vec::new()
        }
    };
    let dur = regions.iter().map(|r| r.1).fold(0.0f64, f64::max);
    let n = (dur / step).floor().clamp(0.0, 1e12) as i64;
    let keep = Region::from_segments(regions.iter().filter_map(|&(a, b)| {
        Segment::from_micros(frames_before(a, step, n), frames_before(b, step, n))
    }));
    let per_speaker = |turns: &[(f64, f64, u32)], count: usize| -> Vec<(bool, Region)> {
        let mut present = vec![false; count];
        let mut segs: Vec<Vec<Segment>> = vec![Vec::new(); count];
        for &(on, off, k) in turns {
            if let Some(pres) = present.get_mut(k as usize) {
                *pres = true;
                if let Some(s) =
                    Segment::from_micros(frames_before(on, step, n), frames_before(off, step, n))
                {
                    segs[k as usize].push(s);
                }
            }
        }
        present
            .into_iter()
            .zip(segs)
            .map(|(pres, v)| (pres, Region::from_segments(v).intersection(&keep)))
            .collect()
    };
    let reference = per_speaker(&rt, p.reference_names.len());
    let hypothesis = per_speaker(&ht, p.hypothesis_names.len());
    FrameSets { keep, reference, hypothesis }
}

/// dscore's frame-based JER for one recording.
pub fn frames_jer(p: &Prepared, step_micros: i64) -> FileJer {
    frames_jer_of(p, frame_sets(p, step_micros))
}

/// dscore's frame-based JER from the recording's frames.
pub fn frames_jer_of(p: &Prepared, fs: FrameSets) -> FileJer {
    let (rp, rf): (Vec<bool>, Vec<Region>) = fs.reference.into_iter().unzip();
    let (hp, hf): (Vec<bool>, Vec<Region>) = fs.hypothesis.into_iter().unzip();
    let refs: Vec<usize> = (0..rp.len()).filter(|&i| rp[i]).collect();
    let hyps: Vec<usize> = (0..hp.len()).filter(|&i| hp[i]).collect();
    let count = |r: &Region| r.duration().micros() as f64;
    let value_of = |speakers: &[SpeakerJer]| {
        speakers.iter().map(|s| s.jer).sum::<f64>() / speakers.len().max(1) as f64
    };
    if refs.is_empty() {
        let value = if hyps.is_empty() { 0.0 } else { 1.0 };
        return FileJer { speakers: Vec::new(), hypothesis_speakers: hyps.len(), value };
    }
    let unpaired = |i: usize| SpeakerJer {
        reference: p.reference_names[i].clone(),
        hypothesis: None,
        jer: 1.0,
    };
    if hyps.is_empty() {
        let speakers: Vec<SpeakerJer> = refs.iter().map(|&i| unpaired(i)).collect();
        return FileJer { speakers, hypothesis_speakers: 0, value: 1.0 };
    }
    let matrix: Vec<Vec<f64>> = refs
        .iter()
        .map(|&i| {
            hyps.iter()
                .map(|&j| {
                    let inter = overlap_duration(&rf[i], &hf[j]).micros() as f64;
                    let union = count(&rf[i]) + count(&hf[j]) - inter;
                    if union > 0.0 {
                        1.0 - inter / union
                    } else {
                        1.0
                    }
                })
                .collect()
        })
        .collect();
    let assignment = min_cost_assignment(&matrix);
    let speakers: Vec<SpeakerJer> = refs
        .iter()
        .enumerate()
        .map(|(a, &i)| match assignment[a] {
            Some(b) => SpeakerJer {
                reference: p.reference_names[i].clone(),
                hypothesis: Some(p.hypothesis_names[hyps[b]].clone()),
                jer: matrix[a][b],
            },
            None => unpaired(i),
        })
        .collect();
    let value = value_of(&speakers);
    FileJer { speakers, hypothesis_speakers: hyps.len(), value }
}

/// pyannote's continuous JER for one recording, with the DER `mapping` (reference index →
/// hypothesis index), on the scored region.
pub fn continuous_jer(
    p: &Prepared,
    reference: &[Token],
    hypothesis: &[Token],
    mapping: &[Option<usize>],
) -> FileJer {
    let per = |tokens: &[Token], count: usize| -> Vec<Region> {
        let mut segs: Vec<Vec<Segment>> = vec![Vec::new(); count];
        for &(s, k) in tokens {
            if let Some(v) = segs.get_mut(k as usize) {
                v.extend(crop_pieces(&p.scored, s));
            }
        }
        segs.into_iter().map(Region::from_segments).collect()
    };
    let r = per(reference, p.reference_names.len());
    let h = per(hypothesis, p.hypothesis_names.len());
    let mut speakers = Vec::new();
    for (i, ri) in r.iter().enumerate() {
        if ri.is_empty() {
            continue;
        }
        let paired = mapping.get(i).copied().flatten();
        let jer = match paired.and_then(|j| h.get(j)) {
            None => 1.0,
            Some(hj) => {
                let inter = ri.intersection(hj).duration().micros() as f64;
                let total = ri.union(hj).duration().micros() as f64;
                let fa = hj.duration().micros() as f64 - inter;
                let miss = ri.duration().micros() as f64 - inter;
                if total > 0.0 {
                    (fa + miss) / total
                } else {
                    1.0
                }
            }
        };
        speakers.push(SpeakerJer {
            reference: p.reference_names[i].clone(),
            hypothesis: paired.and_then(|j| p.hypothesis_names.get(j).cloned()),
            jer,
        });
    }
    let hypothesis_speakers = h.iter().filter(|x| !x.is_empty()).count();
    let value = if speakers.is_empty() {
        1.0
    } else {
        speakers.iter().map(|s| s.jer).sum::<f64>() / speakers.len() as f64
    };
    FileJer { speakers, hypothesis_speakers, value }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_before_matches_searchsorted_on_a_float_grid() {
        // 0.01 * 57 = 0.5700000000000001 > 0.57, so frame 57 is on for an onset at 0.57.
        assert_eq!(frames_before(0.57, 0.01, 100), 57);
        assert_eq!(frames_before(0.0, 0.01, 100), 0);
        assert_eq!(frames_before(5.0, 0.01, 100), 100);
        assert_eq!(frames_before(-1.0, 0.01, 100), 0);
        assert_eq!(frames_before(0.005, 0.01, 100), 1);
    }

    #[test]
    fn corpus_jer_edge_cases() {
        let none = FileJer { speakers: vec![], hypothesis_speakers: 0, value: 0.0 };
        assert_eq!(corpus_jer(std::slice::from_ref(&none), true), 0.0);
        assert_eq!(corpus_jer(&[none], false), 1.0);
        let fa = FileJer { speakers: vec![], hypothesis_speakers: 2, value: 1.0 };
        assert_eq!(corpus_jer(&[fa], true), 1.0);
    }
}
