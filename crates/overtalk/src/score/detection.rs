//! Speech activity detection error: who spoke is ignored, only whether anyone did.
//!
//! ```text
//! ref speech   [██████)    [████)
//! hyp speech      [██████)       [██)
//! miss         [██)        [████)
//! false alarm         [██)       [██)
//! error rate = (miss + false alarm) / reference speech
//! ```
//!
//! Computed on the same scored region as the DER (collars and overlap exclusion applied).

use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};

use crate::model::Region;
use crate::time::Delta;

use super::prepare::ScoredTurn;

/// The additive parts of a detection error rate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DetectionComponents {
    /// Reference speech in the scored region.
    pub total: Delta,
    /// Reference speech where the hypothesis has none.
    pub miss: Delta,
    /// Hypothesis speech where the reference has none.
    pub false_alarm: Delta,
}

impl DetectionComponents {
    /// `(miss + false alarm) / total`; `None` without reference speech.
    pub fn error_rate(&self) -> Option<f64> {
        if self.total <= Delta::ZERO {
            return None;
        }
        Some((self.miss + self.false_alarm).micros() as f64 / self.total.micros() as f64)
    }
}

impl Add for DetectionComponents {
    type Output = DetectionComponents;
    fn add(self, o: DetectionComponents) -> DetectionComponents {
        DetectionComponents {
            total: self.total + o.total,
            miss: self.miss + o.miss,
            false_alarm: self.false_alarm + o.false_alarm,
        }
    }
}

impl AddAssign for DetectionComponents {
    fn add_assign(&mut self, o: DetectionComponents) {
        *self = *self + o;
    }
}

/// Detection components of `hypothesis` against `reference` within `scored`.
pub fn detection(
    reference: &[ScoredTurn],
    hypothesis: &[ScoredTurn],
    scored: &Region,
) -> DetectionComponents {
    let speech =
        |t: &[ScoredTurn]| Region::from_segments(t.iter().map(|x| x.0)).intersection(scored);
    let r = speech(reference);
    let h = speech(hypothesis);
    DetectionComponents {
        total: r.duration(),
        miss: r.difference(&h).duration(),
        false_alarm: h.difference(&r).duration(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Segment;

    #[test]
    fn detection_ignores_labels() {
        let s = |a, b| Segment::from_millis(a, b).unwrap();
        let r = vec![(s(0, 6), 0), (s(4, 10), 1)];
        let h = vec![(s(3, 12), 7)];
        let c = detection(&r, &h, &Region::from_segment(s(0, 20)));
        assert_eq!(c.total, Delta::from_millis(10));
        assert_eq!(c.miss, Delta::from_millis(3));
        assert_eq!(c.false_alarm, Delta::from_millis(2));
        assert_eq!(c.error_rate(), Some(0.5));
        assert_eq!(DetectionComponents::default().error_rate(), None);
    }
}
