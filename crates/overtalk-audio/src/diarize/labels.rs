//! From 10 ms frame labels to an annotation and back: speech masks of regions, speakers named
//! by first appearance, and labels moved onto another speech mask.

use overtalk::{Annotation, AnnotationBuilder, Region, Rounding, Segment};

use crate::frames::GRID;

/// The 10 ms frames of `region` among the first `frames`: each edge snapped to the nearest
/// frame boundary ([`Rounding::HalfUp`]), so a region of another grid lands on the frames it
/// covers most of.
pub(super) fn region_mask(region: &Region, frames: usize) -> Vec<bool> {
    let mut m = vec![false; frames];
    for s in region.iter() {
        let a = GRID.index_of(s.start(), Rounding::HalfUp);
        let b = GRID.index_of(s.end(), Rounding::HalfUp).min(frames);
        for x in m.iter_mut().take(b).skip(a.min(b)) {
            *x = true;
        }
    }
    m
}

/// An annotation from the labels of 10 ms frames: each frame has a primary speaker (or none)
/// and optionally a second one (overlap).
pub(super) fn annotation_from_labels(labels: &[Option<usize>]) -> (Annotation, usize) {
    annotation_from_layers(labels, &[])
}

/// [`annotation_from_labels`] with a second layer of labels (overlapping speakers); `second`
/// may be shorter (missing frames have no second speaker). Speakers are named by first
/// appearance; a speaker active in consecutive frames, in either layer, gets one segment.
///
/// ```text
/// first    A A A B B B . A
/// second   . . B A . . . .
/// SPK00    ███████·····██        (A: frames 0–3 and 7)
/// SPK01    ······██████··        (B: frames 2–5)
/// ```
pub(super) fn annotation_from_layers(
    first: &[Option<usize>],
    second: &[Option<usize>],
) -> (Annotation, usize) {
    let mut order: Vec<usize> = Vec::new();
    let mut active: Vec<Vec<bool>> = Vec::new();
    for (f, l) in first.iter().enumerate() {
        for l in [*l, second.get(f).copied().flatten()].into_iter().flatten() {
            let pos = order.iter().position(|&x| x == l).unwrap_or_else(|| {
                order.push(l);
                active.push(vec![false; first.len()]);
                order.len() - 1
            });
            active[pos][f] = true;
        }
    }
    let mut b = AnnotationBuilder::new();
    for (pos, act) in active.iter().enumerate() {
        let name = format!("SPK{pos:02}");
        let mut i = 0;
        while i < act.len() {
            if !act[i] {
                i += 1;
                continue;
            }
            let mut j = i;
            while j < act.len() && act[j] {
                j += 1;
            }
            if let Some(seg) = Segment::new(GRID.start_of(i), GRID.start_of(j)) {
                b.add(seg, &name);
            }
            i = j;
        }
    }
    (b.build(), order.len())
}

/// Moves frame labels onto another speech mask: a frame of `mask` takes the label of the
/// nearest labelled frame (the earlier one on a tie); frames outside `mask` get none.
///
/// ```text
/// labels  . A A . . B B . .
/// mask    . . x x x x . . x
/// result  . . A A B B . . B
/// ```
pub(super) fn relabel_to(labels: &[Option<usize>], mask: &[bool]) -> Vec<Option<usize>> {
    let n = labels.len().min(mask.len());
    // Nearest labelled frame at or before / at or after each frame.
    let mut before: Vec<Option<(usize, usize)>> = vec![None; n];
    let mut last = None;
    for f in 0..n {
        if let Some(l) = labels[f] {
            last = Some((f, l));
        }
        before[f] = last;
    }
    let mut out = vec![None; labels.len()];
    let mut next: Option<(usize, usize)> = None;
    for f in (0..n).rev() {
        if let Some(l) = labels[f] {
            next = Some((f, l));
        }
        if !mask[f] {
            continue;
        }
        out[f] = match (before[f], next) {
            (Some((b, lb)), Some((a, la))) => Some(if f - b <= a - f { lb } else { la }),
            (Some((_, l)), None) | (None, Some((_, l))) => Some(l),
            (None, None) => None,
        };
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_become_segments_named_by_first_appearance() {
        let l = [None, Some(3), Some(3), Some(1), None, Some(3)];
        let (a, k) = annotation_from_labels(&l);
        assert_eq!(k, 2);
        let got: Vec<(i64, i64, &str)> = a
            .tracks()
            .iter()
            .map(|t| {
                (t.segment.start().micros(), t.segment.end().micros(), a.speaker_name(t.speaker))
            })
            .collect();
        assert_eq!(
            got,
            vec![(10_000, 30_000, "SPK00"), (30_000, 40_000, "SPK01"), (50_000, 60_000, "SPK00")]
        );
    }

    #[test]
    fn second_layer_adds_overlapping_speakers() {
        let first = [Some(0), Some(0), Some(0), Some(1), Some(1), Some(1), None, Some(0)];
        let second = [None, None, Some(1), Some(0), None, None, None, None];
        let (a, k) = annotation_from_layers(&first, &second);
        assert_eq!(k, 2);
        let got: Vec<(i64, i64, &str)> = a
            .tracks()
            .iter()
            .map(|t| {
                (
                    GRID.frame_of(t.segment.start(), Rounding::Floor),
                    GRID.frame_of(t.segment.end(), Rounding::Floor),
                    a.speaker_name(t.speaker),
                )
            })
            .collect();
        assert_eq!(got, vec![(0, 4, "SPK00"), (2, 6, "SPK01"), (7, 8, "SPK00")]);
    }

    #[test]
    fn labels_move_to_the_nearest_labelled_frame() {
        let (a, b) = (Some(0), Some(1));
        let labels = [None, a, a, None, None, b, b, None, None];
        let mask = [false, false, true, true, true, true, false, false, true];
        assert_eq!(relabel_to(&labels, &mask), vec![None, None, a, a, b, b, None, None, b],);
        // A tie goes to the earlier frame; nothing labelled gives nothing.
        assert_eq!(relabel_to(&[a, None, b], &[false, true, false]), vec![None, a, None]);
        assert_eq!(relabel_to(&[None, None], &[true, true]), vec![None, None]);
    }
}
