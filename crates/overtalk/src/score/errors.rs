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

use crate::model::{Annotation, AnnotationBuilder, Segment};

use super::der::sweep;
use super::prepare::PreparedRecording;

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

impl ErrorType {
    /// Every value, in documentation order.
    pub const ALL: [ErrorType; 4] =
        [ErrorType::Correct, ErrorType::Confusion, ErrorType::Miss, ErrorType::FalseAlarm];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            ErrorType::Correct => "correct",
            ErrorType::Confusion => "confusion",
            ErrorType::Miss => "miss",
            ErrorType::FalseAlarm => "false-alarm",
        }
    }
}

crate::named::named_enum!(ErrorType, "error type");

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
    p: &PreparedRecording,
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

impl ErrorSegment {
    /// A label naming the error and the speakers: `correct:A=x`, `confusion:A=y`, `miss:A`,
    /// `false-alarm:y`.
    pub fn label(&self) -> String {
        let kind = match self.kind {
            ErrorType::Correct => "correct",
            ErrorType::Confusion => "confusion",
            ErrorType::Miss => "miss",
            ErrorType::FalseAlarm => "false-alarm",
        };
        match (&self.reference, &self.hypothesis) {
            (Some(r), Some(h)) => format!("{kind}:{r}={h}"),
            (Some(r), None) => format!("{kind}:{r}"),
            (None, Some(h)) => format!("{kind}:{h}"),
            (None, None) => kind.to_owned(),
        }
    }
}

/// The error timeline as an [`Annotation`] whose labels are [`ErrorSegment::label`]s, so it can
/// be written, drawn or analysed like any diarization.
///
/// ```text
/// correct:A=x    [██████)        [██████)
/// confusion:A=y         [███)
/// false-alarm:y                          [██)
/// ```
pub fn to_annotation(timeline: &[ErrorSegment]) -> Annotation {
    let mut b = AnnotationBuilder::new();
    for e in timeline {
        b.add(e.segment, &e.label());
    }
    b.build()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{prepare_and_map, RecordingInput, ScoreOptions};

    #[test]
    fn timeline_of_the_module_example() {
        let s = |a, b| Segment::from_millis(a, b).unwrap();
        let r = Annotation::from_labelled([(s(0, 10_000), "A"), (s(14_000, 20_000), "B")]);
        let h = Annotation::from_labelled([(s(0, 7_000), "x"), (s(7_000, 22_000), "y")]);
        let input = RecordingInput::new("rec", Some(r), Some(h));
        let (p, mapping) =
            prepare_and_map(&input, None, false, &ScoreOptions::default()).unwrap().unwrap();
        let tl = error_timeline(&p, &mapping, false);
        let labels: Vec<(i64, i64, String)> = tl
            .iter()
            .map(|e| {
                (e.segment.start().micros() / 1000, e.segment.end().micros() / 1000, e.label())
            })
            .collect();
        assert_eq!(
            labels,
            vec![
                (0, 7_000, "correct:A=x".to_owned()),
                (7_000, 10_000, "confusion:A=y".to_owned()),
                (10_000, 14_000, "false-alarm:y".to_owned()),
                (14_000, 20_000, "correct:B=y".to_owned()),
                (20_000, 22_000, "false-alarm:y".to_owned()),
            ]
        );
        let a = to_annotation(&tl);
        assert_eq!(a.len(), 5);
        assert_eq!(a.speakers().len(), 4);
    }
}
