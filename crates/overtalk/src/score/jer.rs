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
use crate::time::FrameGrid;

use super::cluster::overlap_duration;
use super::frames::{frame_sets, FrameSets};
use super::mapping::min_cost_assignment;
use super::prepare::{crop_pieces, PreparedRecording, ScoredTurn};

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
    /// The recording's JER (fraction), with the tool's rules for empty sides; `None` when the
    /// recording has no reference speaker in the evaluation and the conventions leave such a
    /// score undefined ([`ZeroScored::Undefined`](super::ZeroScored::Undefined)), as its DER.
    pub value: Option<f64>,
}

impl FileJer {
    /// Applies the rule for a recording without reference speakers: under
    /// [`ZeroScored::Undefined`](super::ZeroScored::Undefined) its JER is undefined (a mean
    /// over no speakers), whatever the tool would print.
    pub(crate) fn with_rule(mut self, rule: super::ZeroScored) -> Self {
        if rule == super::ZeroScored::Undefined && self.speakers.is_empty() {
            self.value = None;
        }
        self
    }
}

/// Corpus JER from recording JERs: the mean over every reference speaker, with dscore's (for
/// frames) or pyannote's (for continuous) answer when a side is empty, and `None` without any
/// reference speaker when `rule` leaves a score over nothing undefined.
pub fn corpus_jer(files: &[FileJer], frames: bool, rule: super::ZeroScored) -> Option<f64> {
    let n_ref: usize = files.iter().map(|f| f.speakers.len()).sum();
    let n_hyp: usize = files.iter().map(|f| f.hypothesis_speakers).sum();
    if n_ref == 0 {
        if rule == super::ZeroScored::Undefined {
            return None;
        }
        return Some(if frames && n_hyp == 0 { 0.0 } else { 1.0 });
    }
    if frames && n_hyp == 0 {
        return Some(1.0);
    }
    Some(files.iter().flat_map(|f| f.speakers.iter().map(|s| s.jer)).sum::<f64>() / n_ref as f64)
}

/// dscore's frame-based JER for one recording.
pub fn frames_jer(p: &PreparedRecording, grid: FrameGrid) -> FileJer {
    frames_jer_of(p, frame_sets(p, grid))
}

/// dscore's frame-based JER from the recording's frames.
pub fn frames_jer_of(p: &PreparedRecording, fs: FrameSets) -> FileJer {
    let (rp, rf): (Vec<bool>, Vec<Region>) = fs.reference.into_iter().unzip();
    let (hp, hf): (Vec<bool>, Vec<Region>) = fs.hypothesis.into_iter().unzip();
    let refs: Vec<usize> = (0..rp.len()).filter(|&i| rp[i]).collect();
    let hyps: Vec<usize> = (0..hp.len()).filter(|&i| hp[i]).collect();
    let count = |r: &Region| r.duration().micros() as f64;
    let value_of = |speakers: &[SpeakerJer]| {
        speakers.iter().map(|s| s.jer).sum::<f64>() / speakers.len().max(1) as f64
    };
    if refs.is_empty() {
        let value = Some(if hyps.is_empty() { 0.0 } else { 1.0 });
        return FileJer { speakers: Vec::new(), hypothesis_speakers: hyps.len(), value };
    }
    let unpaired = |i: usize| SpeakerJer {
        reference: p.reference_names[i].clone(),
        hypothesis: None,
        jer: 1.0,
    };
    if hyps.is_empty() {
        let speakers: Vec<SpeakerJer> = refs.iter().map(|&i| unpaired(i)).collect();
        return FileJer { speakers, hypothesis_speakers: 0, value: Some(1.0) };
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
    let value = Some(value_of(&speakers));
    FileJer { speakers, hypothesis_speakers: hyps.len(), value }
}

/// pyannote's continuous JER for one recording, with the DER `mapping` (reference index →
/// hypothesis index), on the scored region.
pub fn continuous_jer(
    p: &PreparedRecording,
    reference: &[ScoredTurn],
    hypothesis: &[ScoredTurn],
    mapping: &[Option<usize>],
) -> FileJer {
    let per = |tokens: &[ScoredTurn], count: usize| -> Vec<Region> {
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
    let value = Some(if speakers.is_empty() {
        1.0
    } else {
        speakers.iter().map(|s| s.jer).sum::<f64>() / speakers.len() as f64
    });
    FileJer { speakers, hypothesis_speakers, value }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corpus_jer_edge_cases() {
        use super::super::ZeroScored::{Undefined, ZeroOrFull};
        let none = FileJer { speakers: vec![], hypothesis_speakers: 0, value: Some(0.0) };
        assert_eq!(corpus_jer(std::slice::from_ref(&none), true, ZeroOrFull), Some(0.0));
        assert_eq!(corpus_jer(std::slice::from_ref(&none), false, ZeroOrFull), Some(1.0));
        assert_eq!(corpus_jer(std::slice::from_ref(&none), true, Undefined), None);
        assert_eq!(none.clone().with_rule(Undefined).value, None);
        assert_eq!(none.with_rule(ZeroOrFull).value, Some(0.0));
        let fa = FileJer { speakers: vec![], hypothesis_speakers: 2, value: Some(1.0) };
        assert_eq!(corpus_jer(std::slice::from_ref(&fa), true, ZeroOrFull), Some(1.0));
        assert_eq!(corpus_jer(&[fa], false, Undefined), None);
    }
}
