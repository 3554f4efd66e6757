//! Speech edges placed on the signal's energy at 10 ms: every start and end of a speaker's
//! segment that borders silence moves, within a short reach, to where the frame energy crosses
//! a level between the pause's floor and the segment's speech.
//!
//! Why: the edges of the labelled speech are the voice activity detector's, and a detector
//! that carries state from frame to frame (earshot is recurrent; its probabilities are
//! smoothed) trails the signal: its probability stays up after a voice stops and rises after
//! it starts. Measured on the synthetic mixes, the boundary at a speaker change then lands
//! 60–80 ms late ([`turn_metrics`](super::turn_metrics) signed error), the same lag on the end
//! of the outgoing turn and the start of the incoming one. The energy of a 25 ms window
//! centred on each 10 ms frame has no such lag.
//!
//! ```text
//! energy dB   ▇▇▇▇▇▇▇▅▂▁▁▁▁▁▁▃▆▇▇▇▇         (A stops at frame 7, B starts at 14)
//! VAD labels  A A A A A A A A A A . . . . . . B B B B   (edges 3 and 2 frames late)
//! snapped     A A A A A A A . . . . . . . B B B B B B   (on the crossings of the level)
//! ```
//!
//! For the start of a segment after silence, the *floor* is the lowest energy in the silence
//! before it as labelled (at most `reach` frames back), the *peak* the highest energy of the
//! segment's first `reach` frames, and the level `floor + level × (peak − floor)` (dB). The
//! start moves to the first frame after the floor's frame whose energy reaches the level. An
//! end before silence is the mirror image: the floor in the silence after it, the peak in its
//! last `end_span` frames, and the end just after the last frame before the floor's that
//! reaches the level. An edge moves at most `reach` frames inwards and `outward` frames
//! outwards, keeps one silent frame to a segment of another speaker (as moved), and keeps
//! every segment at least `min_segment` frames long (a crossing beyond those limits stops at
//! the limit); it does not move when the contrast `peak − floor` is under `min_contrast` dB (no
//! pause in the signal to find). Segments already shorter than `min_segment`, and edges
//! between two speakers with no silence between them, are left as they are.
//!
//! The end's peak is looked for further in than the start's because the detector's lag is not
//! symmetric: its probability rises within a few frames of a voice's start, but over steady
//! line noise (a telephone call) it can stay over the offset for 250 ms after the voice
//! stopped. The last `reach` frames of such a segment then hold only noise, their contrast to
//! the pause is a few dB, and the end would not move:
//!
//! ```text
//! energy dB   ▇▇▇▇▇▇▇▇▁▁▁▁▁▁▁▁▁▁▁▁    (the voice stops at frame 8)
//! VAD labels  A A A A A A A A A A A A . . . . . . . .    (4 frames of hangover)
//! end_span 4  peak over frames 8–11: noise, no contrast:  A A A A A A A A A A A A . . .
//! end_span 8  peak over frames 4–11: the voice's level:   A A A A A A A A . . . . . . .
//! ```
//!
//! Deterministic: the first frame of the lowest energy is the floor's frame.

/// Options of [`snap_edges`]. Frames are 10 ms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EdgeOptions {
    /// Frames an edge may move inwards (shortening its segment), and the span searched for the
    /// floor and the peak.
    pub reach: usize,
    /// Frames an edge may move outwards, into what the detector called silence (≤ `reach`).
    pub outward: usize,
    /// Frames before an end searched for the segment's peak (at least `reach`): past the
    /// detector's hangover over steady noise (see the module documentation).
    pub end_span: usize,
    /// Where between the floor (0) and the peak (1) the level lies.
    pub level: f32,
    /// An edge needs at least this many dB between floor and peak to move.
    pub min_contrast: f32,
    /// No segment is made shorter than this many frames.
    pub min_segment: usize,
}

impl Default for EdgeOptions {
    /// Inwards up to 250 ms, outwards up to 100 ms, an end's peak within 400 ms, a fifth of the
    /// way from the floor to the peak (in dB), 10 dB of contrast, segments of at least 100 ms
    /// (the voice activity's minimum speech). Chosen on the synthetic mixes and the real clips
    /// together (docs/diarization.md): outwards moves of more than 100 ms added false alarm on
    /// the near-silent AMI clip; an end's peak over 400 ms instead of 250 moves the ends the
    /// detector held over noise (synthetic suite at collar 0: 6.8 → 6.3 % DER).
    fn default() -> EdgeOptions {
        EdgeOptions {
            reach: 25,
            outward: 10,
            end_span: 40,
            level: 0.2,
            min_contrast: 10.0,
            min_segment: 10,
        }
    }
}

/// Runs `[start, end)` of one speaker over `labels`.
fn runs(labels: &[Option<usize>]) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    let mut q = 0;
    while q < labels.len() {
        let Some(k) = labels[q] else {
            q += 1;
            continue;
        };
        let s = q;
        while q < labels.len() && labels[q] == Some(k) {
            q += 1;
        }
        out.push((k, s, q));
    }
    out
}

/// The first index of the lowest value of `e[a..=b]` (`a ≤ b < e.len()`).
fn argmin(e: &[f32], a: usize, b: usize) -> usize {
    let mut at = a;
    for q in a..=b {
        if e[q] < e[at] {
            at = q;
        }
    }
    at
}

/// Moves the edges of `labels` (one per 10 ms signal frame, `None` = silence) that border
/// silence onto the energy crossings of `energy` (dB, one per frame; see the module
/// documentation). Does nothing when `energy` is shorter than `labels`.
pub fn snap_edges(labels: &mut [Option<usize>], energy: &[f32], o: &EdgeOptions) {
    let n = labels.len();
    if energy.len() < n || n == 0 || o.reach == 0 {
        return;
    }
    let e = &energy[..n];
    let rs = runs(labels);
    let min_segment = o.min_segment.max(1);
    let mut moved: Vec<(usize, usize, usize)> = Vec::with_capacity(rs.len());
    for (i, &(k, s, t)) in rs.iter().enumerate() {
        let (mut start, mut end) = (s, t);
        if t < s + min_segment {
            moved.push((k, s, t));
            continue;
        }
        // A start after silence: the floor lies in the silence before it (up to the previous
        // run as labelled); the new start keeps a silent frame after the previous run as moved.
        let prev = i.checked_sub(1).map(|j| rs[j]);
        if s > 0 && labels[s - 1].is_none() {
            let floor_from = s.saturating_sub(o.reach).max(prev.map_or(0, |p| p.2));
            let limit = moved.last().map_or(0, |&(pk, _, pe)| if pk == k { pe } else { pe + 1 });
            let lo = s.saturating_sub(o.outward.min(o.reach)).max(limit);
            let hi = (s + o.reach).min(t - min_segment);
            if lo <= hi {
                let m = argmin(e, floor_from, s - 1);
                let peak = e[s..(s + o.reach).min(t)].iter().copied().fold(f32::MIN, f32::max);
                if peak - e[m] >= o.min_contrast {
                    let level = e[m] + o.level * (peak - e[m]);
                    let q = (m + 1..=hi).find(|&q| e[q] >= level);
                    start = q.unwrap_or(hi).clamp(lo, hi);
                }
            }
        }
        // An end before silence: the floor lies in the silence after it (up to the next run as
        // labelled), and the end keeps a silent frame before a run of another speaker.
        let next = rs.get(i + 1).copied();
        if t < n && labels[t].is_none() {
            let floor_to = (t + o.reach).min(next.map_or(n, |x| x.1));
            let limit = next.map_or(n, |(nk, ns, _)| if nk == k { ns } else { ns - 1 });
            let lo = t.saturating_sub(o.reach).max(start + min_segment);
            let hi = (t + o.outward.min(o.reach)).min(limit);
            if lo <= hi && floor_to > t {
                let m = argmin(e, t, floor_to - 1);
                let from = t.saturating_sub(o.end_span.max(o.reach)).max(start);
                let peak = e[from..t].iter().copied().fold(f32::MIN, f32::max);
                if peak - e[m] >= o.min_contrast {
                    let level = e[m] + o.level * (peak - e[m]);
                    let q = (lo.saturating_sub(1)..m).rev().find(|&q| e[q] >= level);
                    end = q.map_or(lo, |q| q + 1).clamp(lo, hi);
                }
            }
        }
        moved.push((k, start, end));
    }
    for (&(_, s, t), &(k, ns, nt)) in rs.iter().zip(&moved) {
        labels[s.min(ns)..t.max(nt)].iter_mut().for_each(|l| *l = None);
        labels[ns..nt].iter_mut().for_each(|l| *l = Some(k));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(v: &[Option<usize>]) -> String {
        v.iter().map(|l| l.map_or('.', |k| (b'A' + k as u8) as char)).collect()
    }

    fn parse(s: &str) -> Vec<Option<usize>> {
        s.bytes().map(|b| (b != b'.').then(|| usize::from(b - b'A'))).collect()
    }

    /// −20 dB where `speech` is `#`, −60 dB elsewhere.
    fn energy(speech: &str) -> Vec<f32> {
        speech.bytes().map(|b| if b == b'#' { -20.0 } else { -60.0 }).collect()
    }

    fn opts() -> EdgeOptions {
        EdgeOptions {
            reach: 4,
            outward: 4,
            end_span: 4,
            level: 0.33,
            min_contrast: 10.0,
            min_segment: 3,
        }
    }

    #[test]
    fn late_edges_move_onto_the_energy_crossings() {
        let e = energy("#######.......######");
        let mut l = parse("AAAAAAAAAA......BBBB");
        snap_edges(&mut l, &e, &opts());
        assert_eq!(show(&l), "AAAAAAA.......BBBBBB");
    }

    #[test]
    fn early_edges_move_too_and_reach_bounds_the_move() {
        // A's end 2 frames early, B's start 2 frames early and its end on the energy.
        let e = energy("#########.....#####.........#######");
        let mut l = parse("AAAAAAA.....BBBBBBB.................");
        l.truncate(e.len());
        snap_edges(&mut l, &e, &opts());
        assert_eq!(show(&l), "AAAAAAAAA.....BBBBB................");
        // C starts 3 frames late: it moves; 6 frames late, no silence is within reach: it stays.
        let e = energy(".......#############");
        let mut l = parse("..........CCCCCCCCCC");
        snap_edges(&mut l, &e, &opts());
        assert_eq!(show(&l), ".......CCCCCCCCCCCCC");
        let e = energy("....################");
        let mut l = parse("..........CCCCCCCCCC");
        snap_edges(&mut l, &e, &opts());
        assert_eq!(show(&l), "..........CCCCCCCCCC");
    }

    #[test]
    fn no_contrast_no_short_segment_and_direct_changes_stay() {
        // Flat energy: nothing moves.
        let flat = vec![-30.0; 12];
        let mut l = parse("..AAAA...BB.");
        snap_edges(&mut l, &flat, &opts());
        assert_eq!(show(&l), "..AAAA...BB.");
        // A direct change A→B is not an edge; B's end moves back onto the energy.
        let e = energy("##########....");
        let mut l = parse("AAAAABBBBBBB..");
        snap_edges(&mut l, &e, &opts());
        assert_eq!(show(&l), "AAAAABBBBB....");
        // The segment would get shorter than 3 frames: its end stops at the limit.
        let e = energy("#.........");
        let mut l = parse("AAAA......");
        snap_edges(&mut l, &e, &opts());
        assert_eq!(show(&l), "AAA.......");
    }

    #[test]
    fn a_silent_frame_is_kept_between_two_speakers() {
        // The energy gap between A and B is one frame shorter than the labels' silence would
        // allow if both edges moved fully: B may not touch A.
        let e = energy("######.######");
        let mut l = parse("AAAA.....BBBB");
        snap_edges(&mut l, &e, &opts());
        assert_eq!(show(&l), "AAAAAA.BBBBBB");
        // Too little energy data: nothing happens.
        let mut l = parse("AAAA.....BBBB");
        snap_edges(&mut l, &e[..5], &opts());
        assert_eq!(show(&l), "AAAA.....BBBB");
    }

    #[test]
    fn an_end_whose_last_frames_are_all_hangover_moves_with_a_longer_end_span() {
        // The voice stops at frame 8; the detector held it 4 frames longer (the reach).
        let e = energy("########............");
        let mut l = parse("AAAAAAAAAAAA........");
        snap_edges(&mut l, &e, &opts());
        assert_eq!(show(&l), "AAAAAAAAAAAA........");
        let mut l = parse("AAAAAAAAAAAA........");
        snap_edges(&mut l, &e, &EdgeOptions { end_span: 8, ..opts() });
        assert_eq!(show(&l), "AAAAAAAA............");
        // The span does not widen the move: 6 frames of hangover, 4 of reach.
        let mut l = parse("AAAAAAAAAAAAAA......");
        snap_edges(&mut l, &e, &EdgeOptions { end_span: 8, ..opts() });
        assert_eq!(show(&l), "AAAAAAAAAA..........");
        // A start moves as without it.
        let e = energy("......##############");
        for o in [opts(), EdgeOptions { end_span: 8, ..opts() }] {
            let mut l = parse("........BBBBBBBBBBBB");
            snap_edges(&mut l, &e, &o);
            assert_eq!(show(&l), "......BBBBBBBBBBBBBB");
        }
    }

    #[test]
    fn outward_moves_have_their_own_limit() {
        // C starts 3 frames late; with one frame outwards allowed it moves one frame. Its end
        // (one frame late) moves inwards onto the energy.
        let e = energy(".......###########..");
        let mut l = parse("..........CCCCCCCCC.");
        let o = EdgeOptions { outward: 1, ..opts() };
        snap_edges(&mut l, &e, &o);
        assert_eq!(show(&l), ".........CCCCCCCCC..");
    }
}
