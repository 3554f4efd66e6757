//! The two sides of a comparison gathered and paired: each side's recordings by id with the
//! zero-length turns its reader dropped, the UEM regions of a recording named in several UEM
//! files united, and the recordings of both sides paired by id. What `overtalk score` and any
//! other front end scoring corpora against corpora share.
//!
//! ```text
//! reference   a  b     c
//! hypothesis  a     b' d
//! pairs       (a, a) (b, b') (c, —) (d, —)   in id order; c all missed, d all false alarm
//! ```

use std::collections::BTreeMap;

use super::{RecordingInput, ZeroLengthTurn};
use crate::model::{Annotation, Region};

/// One side of a comparison: who spoke when by recording id, and the zero-length turns the
/// reader dropped (some presets need them: dscore refuses the file, spyder keeps the speaker).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideRecordings {
    /// Who spoke when, by recording id.
    pub recordings: BTreeMap<String, Annotation>,
    /// Zero-length turns, by recording id.
    pub zero: Vec<(String, ZeroLengthTurn)>,
}

/// A recording present on one side only, when pairing: it is scored all the same (all of its
/// speech missed, or all false alarm), and the front end says so.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OneSided {
    /// The recording id.
    pub id: String,
    /// Whether it is in the reference (its speech all missed) rather than the hypothesis (all
    /// false alarm).
    pub in_reference: bool,
}

impl std::fmt::Display for OneSided {
    /// `recording "ID" is only in the …: …`, the warning `score` prints.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.in_reference {
            "only in the reference: all of its speech is missed"
        } else {
            "only in the hypothesis: all of its speech is false alarm (md-eval and dscore ignore it)"
        };
        write!(f, "recording {:?} is {what}", self.id)
    }
}

/// The recordings of both sides paired by id, in id order, each with the zero-length turns of
/// both sides; and the recordings found on one side only (kept in the pairs), in id order.
pub fn pair_sides(
    mut reference: SideRecordings,
    mut hypothesis: SideRecordings,
) -> (Vec<RecordingInput>, Vec<OneSided>) {
    let mut ids: Vec<String> =
        reference.recordings.keys().chain(hypothesis.recordings.keys()).cloned().collect();
    ids.sort();
    ids.dedup();
    let mut one_sided = Vec::new();
    let pairs = ids
        .into_iter()
        .map(|id| {
            let r = reference.recordings.remove(&id);
            let h = hypothesis.recordings.remove(&id);
            if r.is_none() || h.is_none() {
                one_sided.push(OneSided { id: id.clone(), in_reference: r.is_some() });
            }
            let zero = reference
                .zero
                .iter()
                .chain(hypothesis.zero.iter())
                .filter(|(k, _)| *k == id)
                .map(|(_, z)| z.clone())
                .collect();
            RecordingInput { id, reference: r, hypothesis: h, zero_length: zero }
        })
        .collect();
    (pairs, one_sided)
}

/// Adds the UEM regions of one more file to `into`: the regions of a recording already there
/// are united with the new ones.
///
/// ```text
/// into   rec1  [=====)        [===)
/// more   rec1       [=====)
/// into   rec1  [==========)   [===)
/// ```
pub fn merge_uem(into: &mut BTreeMap<String, Region>, more: BTreeMap<String, Region>) {
    for (k, r) in more {
        let merged = match into.get(&k) {
            Some(prev) => prev.union(&r),
            None => r,
        };
        into.insert(k, merged);
    }
}
