//! The error timeline: every scored instant labelled correct, missed, false alarm or confused,
//! with the speakers involved — what a report draws under the two diarizations.
//!
//! ```text
//! ref      A [██████████)      B [██████)
//! hyp      x [██████)y [███████████████)     mapping A→x, B→y
//! errors     [correct)[conf)   [correct)[FA)
//!              A/x     A/y       B/y     y
//! ```
//!
//! In a piece with several speakers, mapped pairs are correct, remaining reference speakers are
//! paired with remaining hypothesis speakers as confusion (in label order), and the rest are
//! misses or false alarms — the same counts as [`components`](super::der::components).

use serde::{Deserialize, Serialize};

use crate::model::Segment;

use super::der::sweep;
use super::prepare::Prepared;

/// What happened in a piece of the scored region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorType {
    /// The reference speaker was given to their mapped hypothesis speaker.
    Correct,
    /// The reference speaker was given to another hypothesis speaker.
    Confusion,
    /// Nobody in the hypothesis for this reference speaker.
    Miss,
    /// A hypothesis speaker with no reference speaker left to answer.
    FalseAlarm,
}

/// One labelled piece of the error timeline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorSegment {
    /// When.
    pub segment: Segment,
    /// What.
    pub kind: ErrorType,
    /// Reference speaker involved (none for false alarm).
    pub reference: Option<String>,
    /// Hypothesis speaker involved (none for miss).
    pub hypothesis: Option<String>,
}

/// The error timeline of a prepared recording under a mapping, sorted by time. Adjacent pieces
/// with the same label and speakers are joined.
pub fn error_timeline(
    p: &Prepared,
    mapping: &[Option<usize>],
    count_each: bool,
) -> Vec<ErrorSegment> {
    let mut out: Vec<ErrorSegment> = Vec::new();
    let rn = |k: usize| p.reference_names.get(k).cloned();
    let hn = |k: usize| p.hypothesis_names.get(k).cloned();
    sweep(&p.reference, &p.hypothesis, &p.scored, count_each, |piece| {
        let mut refs: Vec<usize> = Vec::new();
        for &(k, c) in piece.reference {
            refs.extend(std::iter::repeat_n(k as usize, c as usize));
        }
        let mut hyps: Vec<usize> = Vec::new();
        for &(k, c) in piece.hypothesis {
            hyps.extend(std::iter::repeat_n(k as usize, c as usize));
        }
        let mut labels: Vec<(ErrorType, Option<String>, Option<String>)> = Vec::new();
        let mut left_refs = Vec::new();
        for r in refs {
            let target = mapping.get(r).copied().flatten();
            match target.and_then(|h| hyps.iter().position(|&x| x == h)) {
                Some(i) => {
                    let h = hyps.remove(i);
                    labels.push((ErrorType::Correct, rn(r), hn(h)));
                }
                None => left_refs.push(r),
            }
        }
        let mut hyps = hyps.into_iter();
        for r in left_refs {
            match hyps.next() {
                Some(h) => labels.push((ErrorType::Confusion, rn(r), hn(h))),
                None => labels.push((ErrorType::Miss, rn(r), None)),
            }
        }
        for h in hyps {
            labels.push((ErrorType::FalseAlarm, None, hn(h)));
        }
        for (kind, reference, hypothesis) in labels {
            let joined = out.iter_mut().rev().take(8).find(|e| {
                e.segment.end() == piece.segment.start()
                    && e.kind == kind
                    && e.reference == reference
                    && e.hypothesis == hypothesis
            });
            match joined {
                Some(e) => e.segment = e.segment.hull(&piece.segment),
                None => {
                    out.push(ErrorSegment { segment: piece.segment, kind, reference, hypothesis })
                }
            }
        }
    });
    out.sort_by(|a, b| {
        (a.segment, a.kind as u8, &a.reference, &a.hypothesis).cmp(&(
            b.segment,
            b.kind as u8,
            &b.reference,
            &b.hypothesis,
        ))
    });
    out
}
