//! S4 / S4' — Heldner & Edlund (2010) intervals: every silence and every overlap is labelled
//! by the solo speaker before it (`prev`) and after it (`next`).
//!
//! ```text
//! joint   {A}    | ∅  |{A}  |{A,B}|{B} | ∅ |{A}
//! run             pause     overlap_between gap
//!                 A→A       A→B             B→A
//! ```
//! Consecutive non-solo pieces of the same kind form one run (`{A,B}→{A,B,C}→{A,C}` is one
//! overlap). Two touching solo pieces of different speakers are a zero-length NGNO event;
//! gaps and between-speaker overlaps no longer than `latch_tolerance` become NGNO too (they
//! keep their start and end). Runs without a solo piece on one side are `unbounded_*` and are
//! left out of the statistics.

use serde::{Deserialize, Serialize};

use super::joint::JointPiece;
use super::units::{Millis, SpeakerIndex};

/// Which timeline an interval was computed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// Everything that was said.
    Acoustic,
    /// Floor-relevant talkspurts only (backchannels and non-floor laughter removed).
    Floor,
}

impl Layer {
    /// Every value, in documentation order.
    pub const ALL: [Layer; 2] = [Layer::Acoustic, Layer::Floor];

    /// The name in JSON (as serialized).
    pub fn name(self) -> &'static str {
        match self {
            Layer::Acoustic => "acoustic",
            Layer::Floor => "floor",
        }
    }
}

crate::named::named_enum!(Layer, "interval layer");

/// Heldner & Edlund classes (§5.4 S4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HeKind {
    /// Silence between solo speech of the same speaker.
    Pause,
    /// Silence between solo speech of different speakers.
    Gap,
    /// Overlap between solo speech of the same speaker.
    OverlapWithin,
    /// Overlap between solo speech of different speakers.
    OverlapBetween,
    /// Speaker change with no gap and no overlap (within `latch_tolerance`).
    Ngno,
    /// Silence without a solo piece on one side.
    UnboundedSilence,
    /// Overlap without a solo piece on one side.
    UnboundedOverlap,
}

crate::named::named_enum!(HeKind, "interval kind");

impl HeKind {
    /// All kinds, in report order.
    pub const ALL: [HeKind; 7] = [
        HeKind::Pause,
        HeKind::Gap,
        HeKind::OverlapWithin,
        HeKind::OverlapBetween,
        HeKind::Ngno,
        HeKind::UnboundedSilence,
        HeKind::UnboundedOverlap,
    ];

    /// An overlap of two speakers (within, between or unbounded): not measurable from input
    /// that cannot show two speakers at once.
    pub fn is_overlap(self) -> bool {
        matches!(self, HeKind::OverlapWithin | HeKind::OverlapBetween | HeKind::UnboundedOverlap)
    }

    /// Whether the kind cannot be counted when the input cannot show two speakers at once
    /// (speakers found one per frame, ends estimated): the overlaps, and the speaker changes
    /// without a gap (NGNO), where a hidden overlap lands.
    ///
    /// ```text
    /// truth     A ██████████
    ///           B        ██████████      an overlap between
    /// one/frame A ████████
    ///           B         █████████      a change without a gap: NGNO
    /// ```
    pub fn is_overlap_dependent(self) -> bool {
        self.is_overlap() || self == HeKind::Ngno
    }

    /// The JSON name.
    pub fn name(self) -> &'static str {
        match self {
            HeKind::Pause => "pause",
            HeKind::Gap => "gap",
            HeKind::OverlapWithin => "overlap_within",
            HeKind::OverlapBetween => "overlap_between",
            HeKind::Ngno => "ngno",
            HeKind::UnboundedSilence => "unbounded_silence",
            HeKind::UnboundedOverlap => "unbounded_overlap",
        }
    }

    /// Whether the interval is between speakers (gap, overlap_between, NGNO).
    pub fn is_between(self) -> bool {
        matches!(self, HeKind::Gap | HeKind::OverlapBetween | HeKind::Ngno)
    }
}

/// One H&E interval, speakers as indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeInterval {
    /// Layer.
    pub layer: Layer,
    /// Class.
    pub kind: HeKind,
    /// Start (ms).
    pub start: Millis,
    /// End (ms); equals `start` for NGNO events from touching solo pieces.
    pub end: Millis,
    /// Solo speaker before.
    pub prev: Option<SpeakerIndex>,
    /// Solo speaker after.
    pub next: Option<SpeakerIndex>,
}

impl HeInterval {
    /// Duration (ms).
    pub fn dur(&self) -> Millis {
        self.end - self.start
    }

    /// Signed between-speaker interval: +gap, −overlap, 0 for NGNO; `None` otherwise.
    pub fn signed(&self) -> Option<Millis> {
        match self.kind {
            HeKind::Gap => Some(self.dur()),
            HeKind::OverlapBetween => Some(-self.dur()),
            HeKind::Ngno => Some(Millis::ZERO),
            _ => None,
        }
    }
}

/// S4 on a joint timeline.
pub fn he_intervals(
    pieces: &[JointPiece],
    layer: Layer,
    latch_tolerance: Millis,
) -> Vec<HeInterval> {
    let mut out = Vec::with_capacity(pieces.len() / 2 + 1);
    he_intervals_into(pieces, layer, latch_tolerance, &mut out);
    out
}

/// [`he_intervals`] appended to `out` (its earlier contents are left as they are).
pub fn he_intervals_into(
    pieces: &[JointPiece],
    layer: Layer,
    latch_tolerance: Millis,
    out: &mut Vec<HeInterval>,
) {
    let mut c = Classifier::new(layer, latch_tolerance, out.len());
    for p in pieces {
        match p.solo() {
            Some(x) => c.solo(x, p.end, out),
            None => c.run(p.active.len() >= 2, p.start, p.end, out),
        }
    }
    c.settle(None, out);
}

/// S4 fed one piece of the joint timeline at a time, in order. A run of silence or overlap
/// needs the solo speaker after it, so the runs since the latest solo piece are pushed with a
/// provisional kind (`unbounded_*`, with `prev` set) and settled when the next solo piece — or
/// the end — is met:
///
/// ```text
/// pieces   {A}  | ∅ |{A,B}| {B}
/// pushed         ∅→?  AB→?       (provisional, prev A)
/// at {B}         gap  overlap_between      (next B)
/// ```
pub(crate) struct Classifier {
    layer: Layer,
    latch_tolerance: Millis,
    /// Speaker of the latest solo piece.
    last_solo: Option<SpeakerIndex>,
    /// End of the latest piece when it was solo.
    solo_end: Option<Millis>,
    /// Index in the output of the first run after the latest solo piece.
    pending: usize,
}

impl Classifier {
    /// A classifier appending to an output that already holds `len` intervals.
    pub(crate) fn new(layer: Layer, latch_tolerance: Millis, len: usize) -> Classifier {
        Classifier { layer, latch_tolerance, last_solo: None, solo_end: None, pending: len }
    }

    /// A solo piece of `x` ending at `end`.
    #[inline]
    pub(crate) fn solo(&mut self, x: SpeakerIndex, end: Millis, out: &mut Vec<HeInterval>) {
        match self.solo_end {
            // Two touching solo pieces of different speakers: a zero-length NGNO event.
            Some(at) => {
                if self.last_solo != Some(x) {
                    out.push(HeInterval {
                        layer: self.layer,
                        kind: HeKind::Ngno,
                        start: at,
                        end: at,
                        prev: self.last_solo,
                        next: Some(x),
                    });
                }
            }
            None => self.settle(Some(x), out),
        }
        self.last_solo = Some(x);
        self.solo_end = Some(end);
        self.pending = out.len();
    }

    /// A silence (`overlap` false) or overlap piece `[start, end)`: joins the run before it when
    /// that run is of the same kind and ends at `start`.
    #[inline]
    pub(crate) fn run(
        &mut self,
        overlap: bool,
        start: Millis,
        end: Millis,
        out: &mut Vec<HeInterval>,
    ) {
        let kind = if overlap { HeKind::UnboundedOverlap } else { HeKind::UnboundedSilence };
        self.solo_end = None;
        if out.len() > self.pending {
            if let Some(last) = out.last_mut().filter(|l| l.kind == kind && l.end == start) {
                last.end = end;
                return;
            }
        }
        out.push(HeInterval {
            layer: self.layer,
            kind,
            start,
            end,
            prev: self.last_solo,
            next: None,
        });
    }

    /// Gives the runs since the latest solo piece their kind, now that the solo speaker after
    /// them (`next`) is known.
    pub(crate) fn settle(&mut self, next: Option<SpeakerIndex>, out: &mut [HeInterval]) {
        let from = self.pending.min(out.len());
        for h in &mut out[from..] {
            let overlap = h.kind == HeKind::UnboundedOverlap;
            let bounded = h.prev.is_some() && next.is_some();
            h.kind =
                run_kind(overlap, bounded, h.prev == next, h.end - h.start, self.latch_tolerance);
            h.next = next;
        }
        self.pending = out.len();
    }
}

/// The class of a silence (`overlap` false) or overlap run of duration `dur`: `bounded` when a
/// solo piece lies on both sides, `same` when both are the same speaker's. A gap or a
/// between-speaker overlap no longer than `latch_tolerance` is NGNO.
///
/// A table lookup and one comparison, without branches on the data: the sweeps call it once per
/// run, and which class comes next in a conversation is not predictable.
#[inline(always)]
pub(crate) fn run_kind(
    overlap: bool,
    bounded: bool,
    same: bool,
    dur: Millis,
    latch_tolerance: Millis,
) -> HeKind {
    const KINDS: [HeKind; 8] = [
        HeKind::UnboundedSilence,
        HeKind::UnboundedSilence,
        HeKind::Gap,
        HeKind::Pause,
        HeKind::UnboundedOverlap,
        HeKind::UnboundedOverlap,
        HeKind::OverlapBetween,
        HeKind::OverlapWithin,
    ];
    let between = bounded & !same;
    let i = (usize::from(overlap) << 2) | (usize::from(bounded) << 1) | usize::from(same & bounded);
    if between & (dur <= latch_tolerance) {
        HeKind::Ngno
    } else {
        KINDS[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::joint::joint_timeline;
    use crate::analysis::talkspurt::Talkspurt;

    fn spurt(speaker: usize, start: i64, end: i64) -> Talkspurt {
        Talkspurt::timed(SpeakerIndex::new(speaker), Millis::new(start), Millis::new(end))
    }

    fn kinds(s: &[Talkspurt], latch: i64) -> Vec<(HeKind, i64, i64)> {
        he_intervals(&joint_timeline(s, |_| true), Layer::Acoustic, Millis::new(latch))
            .into_iter()
            .map(|h| (h.kind, h.start.get(), h.end.get()))
            .collect()
    }

    #[test]
    fn w1_classes() {
        let s = [spurt(0, 0, 5000), spurt(1, 4000, 6000), spurt(0, 6500, 9000)];
        assert_eq!(
            kinds(&s, 10),
            vec![(HeKind::OverlapBetween, 4000, 5000), (HeKind::Gap, 6000, 6500)]
        );
    }

    #[test]
    fn three_speaker_overlap_is_one_run() {
        // W6: {A,B} → {A,B,C} → {A,C}, A before, C after.
        let s = [spurt(0, 0, 5000), spurt(1, 3000, 3600), spurt(2, 3200, 7000)];
        assert_eq!(kinds(&s, 10), vec![(HeKind::OverlapBetween, 3000, 5000)]);
    }

    #[test]
    fn ngno_touching_latched_and_unbounded() {
        let s = [spurt(0, 0, 100), spurt(1, 100, 200), spurt(0, 205, 300)];
        assert_eq!(kinds(&s, 10), vec![(HeKind::Ngno, 100, 100), (HeKind::Ngno, 200, 205)]);
        assert_eq!(kinds(&s, 0), vec![(HeKind::Ngno, 100, 100), (HeKind::Gap, 200, 205)]);
        let u = [spurt(0, 0, 100), spurt(1, 0, 50)];
        assert_eq!(kinds(&u, 10), vec![(HeKind::UnboundedOverlap, 0, 50)]);
    }
}
