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

use rayon::prelude::*;

use super::{RecordingInput, Side, ZeroLengthTurn};
use crate::format::ReadOutput;
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

impl SideRecordings {
    /// Adds what was read from one input of `side`: its recordings and its zero-length turns.
    /// A recording id this side already holds is refused (`Err` with the id), before anything
    /// of that recording is added.
    pub fn add(&mut self, side: Side, out: ReadOutput) -> Result<(), String> {
        // The reader drops zero-length turns (with a warning) and carries them beside the
        // corpus; some presets need them (dscore refuses the file, spyder keeps the speaker on).
        self.zero.extend(out.zero_length.iter().map(|z| {
            (z.recording.clone(), ZeroLengthTurn { side, speaker: z.speaker.clone(), at: z.at })
        }));
        for (id, t) in out.corpus.into_recordings() {
            if self.recordings.contains_key(&id) {
                return Err(id);
            }
            self.recordings.insert(id, t.annotation().clone());
        }
        Ok(())
    }
}

/// Reads the inputs of both sides at once: the reference and the hypothesis side in parallel
/// (`rayon::join`), and the files of each side in parallel too. Each side's results come back
/// in the order of its inputs, so taking them in that order gives the warnings, errors and
/// recordings of reading the files one after the other.
///
/// ```text
/// reference   r1 r2 r3  ─┐ join ┌─ [out r1, out r2, out r3]
/// hypothesis  h1 h2     ─┘      └─ [out h1, out h2]
/// ```
pub fn read_sides<S, T, F>(reference: &[S], hypothesis: &[S], read: F) -> (Vec<T>, Vec<T>)
where
    S: Sync,
    T: Send,
    F: Fn(&S) -> T + Sync,
{
    rayon::join(
        || reference.par_iter().map(&read).collect(),
        || hypothesis.par_iter().map(&read).collect(),
    )
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

/// The ids of the paired recordings that `uem` has no regions for, in the pairs' order
/// (none when `uem` is empty: no UEM was given). Such a recording is scored over its default
/// region, which a front end warns about.
pub fn not_in_uem<'a>(pairs: &'a [RecordingInput], uem: &BTreeMap<String, Region>) -> Vec<&'a str> {
    if uem.is_empty() {
        return Vec::new();
    }
    pairs.iter().map(|p| p.id.as_str()).filter(|id| !uem.contains_key(*id)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, Format, ReadOptions};

    #[test]
    fn recordings_missing_from_a_given_uem() {
        let pairs: Vec<RecordingInput> = ["a", "b", "c"]
            .into_iter()
            .map(|id| RecordingInput::new(id, Some(Annotation::default()), None))
            .collect();
        let mut uem = BTreeMap::new();
        assert!(not_in_uem(&pairs, &uem).is_empty());
        let region = Region::from_segments(crate::model::Segment::from_millis(0, 1000));
        uem.insert("b".to_owned(), region);
        assert_eq!(not_in_uem(&pairs, &uem), ["a", "c"]);
    }

    #[test]
    fn both_sides_come_back_in_input_order() {
        let reference: Vec<u32> = (0..50).collect();
        let hypothesis: Vec<u32> = (100..120).collect();
        let (r, h) = read_sides(&reference, &hypothesis, |x| x * 2);
        assert_eq!(r, reference.iter().map(|x| x * 2).collect::<Vec<_>>());
        assert_eq!(h, hypothesis.iter().map(|x| x * 2).collect::<Vec<_>>());
    }

    #[test]
    fn a_side_refuses_a_recording_id_it_holds() {
        let text = "SPEAKER a 1 0.0 1.0 <NA> <NA> A <NA> <NA>\nSPEAKER a 1 2.0 0.0 <NA> <NA> B <NA> <NA>\n";
        let read = || read_str(text, Format::Rttm, &ReadOptions::default()).unwrap();
        let mut side = SideRecordings::default();
        side.add(Side::Hypothesis, read()).unwrap();
        assert_eq!(side.recordings.len(), 1);
        assert_eq!(side.zero.len(), 1);
        assert_eq!(side.zero[0].0, "a");
        assert_eq!(side.zero[0].1.side, Side::Hypothesis);
        assert_eq!(side.add(Side::Hypothesis, read()), Err("a".to_owned()));
    }
}
