//! Short turns told by their own voice.
//!
//! The windows are placed over the speech frames joined end to end, so a reply of 0.3–0.7 s
//! between two longer turns ("Yes.", "Why?") lies only in windows that hold mostly the turns
//! around it. Its frames' scores are those windows' scores, and the Viterbi gives it the
//! neighbours' speaker:
//!
//! ```text
//! speech runs   A ████████████   B ███   A ██████████        B's reply is its own run
//! 1.6 s windows   [────────────────]                          (silence on both sides) but
//!                       [────────────────]                    every window over it is
//!                              [────────────────]             mostly A
//! Viterbi       A ████████████   A ███   A ██████████        → B's turn is lost
//! its own embedding                B ███ (closer to B's centroid by ≥ margin) → relabelled
//! ```
//!
//! A piece of speech (speech frames with silence or a pause before and after) shorter than a
//! window is embedded alone when the signal is prepared ([`short_runs`]); after the resegmentation,
//! [`relabel_short_runs`] gives such a run the speaker whose centroid its own embedding is
//! closest to, when that speaker is not the run's label and is closer by at least
//! [`ShortRunOptions::margin`] (cosine). A run is one speaker or nothing: it is relabelled
//! whole, and only runs the Viterbi gave one label are considered (a run it split is a
//! change inside the run, which its single embedding cannot place).
//!
//! A reply after a gap of 150–250 ms often has no pause the detector shows: its probability,
//! smoothed from frame to frame, stays over the valley across so short a gap, and the reply
//! is one run with the turn before or after it, too long to be embedded alone. The signal
//! itself still falls silent there. So the runs too long for a piece are parted further at
//! *energy dips* ([`energy_dips`]: at least [`DipOptions::min_frames`] frames each
//! [`DipOptions::contrast`] dB or more under the loudest speech around them), and the parts of
//! piece length ([`dip_pieces`]) are relabelled the same way with a wider margin
//! ([`DipOptions::margin`]): a dip is also what a pause between two words of one turn looks
//! like, and a word embedded alone is a weaker voice print than a reply.
//!
//! A reply that starts inside the end of the turn before (overlap) has neither pause nor dip
//! before it: it is the end of that turn's run. With [`ShortRunOptions::ends`] (off by
//! default) the first and last 0.3–0.7 s of each run still too long for a piece are embedded
//! alone ([`end_pieces`]) and, after the refinement, the stretch of each end leaning most
//! (by at least a margin) to another speaker takes that speaker ([`relabel_ends`]).
//!
//! ```text
//! energy dB   ▇▇▇▇▇▇▇▇▇▇▇▂▁▁▂▇▇▇▇▇▂▁▁▁▂▇▇▇▇▇▇▇▇▇▇▇   (gaps of 160 and 200 ms, 30 dB deep)
//! VAD prob    ▇▇▇▇▇▇▇▇▇▇▇▆▅▅▆▇▇▇▇▇▆▅▅▅▆▇▇▇▇▇▇▇▇▇▇▇   (no valley: one run of 3.6 s)
//! dip pieces                 [B ███]                    (0.5 s between two dips, embedded alone)
//! ```

/// Which runs are relabelled by their own embedding ([`relabel_short_runs`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShortRunOptions {
    /// The shortest run considered (10 ms frames): a shorter one embeds too little voice.
    pub min_frames: usize,
    /// The longest run considered (10 ms frames; at most a window, whose own windows would be
    /// the run alone anyway).
    pub max_frames: usize,
    /// How much closer (cosine on centred embeddings) the run's own embedding must be to
    /// another speaker's centroid than to its label's.
    pub margin: f32,
    /// Runs too long for a piece parted further at energy dips; `None`: at the detector's
    /// pauses only.
    pub dips: Option<DipOptions>,
    /// The first and last stretch of each run still too long for a piece embedded alone
    /// ([`end_pieces`]): a reply that starts inside the end of the turn before (or a turn
    /// that starts inside the end of the reply) is one run with that turn, with no pause or
    /// dip to part them. `None` (the default): not tried.
    pub ends: Option<EndOptions>,
}

impl Default for ShortRunOptions {
    /// Pieces of 0.25–1.2 s; a margin of 0.1 (chosen in docs/diarization.md: the smallest
    /// measured that raises DER on no tuning set at either collar, once a quiet room's single
    /// faint frames no longer cut turns; 0.05 raises the gecko call's); pieces parted at
    /// energy dips too ([`DipOptions::default`]); no end stretches (they find more short
    /// turns on the synthetic sets but raise DER on the far-field ES2004a halves; see
    /// docs/diarization.md, "Replies that start inside the turn before").
    fn default() -> ShortRunOptions {
        ShortRunOptions {
            min_frames: 25,
            max_frames: 120,
            margin: 0.1,
            dips: Some(DipOptions::default()),
            ends: None,
        }
    }
}

/// Where runs too long for a piece are parted further ([`energy_dips`], [`dip_pieces`]), and
/// how far the parts' own embeddings must lean to move them. Frames are 10 ms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DipOptions {
    /// A dip is at least this many consecutive frames under the contrast.
    pub min_frames: usize,
    /// dB under the loudest speech frame within `span` frames on either side.
    pub contrast: f32,
    /// Frames searched on each side for that loudest frame.
    pub span: usize,
    /// The margin ([`ShortRunOptions::margin`]) for the parts between dips.
    pub margin: f32,
}

impl Default for DipOptions {
    /// Dips of at least 120 ms, 25 dB under the loudest speech within 1 s; a margin of 0.5.
    /// Chosen on the short-turn tuning set and checked on the other tuning sets
    /// (docs/diarization.md): 20 dB took dips in a far-field room's speech, where a part
    /// moved wrongly even at a margin of 0.6; margins under 0.5 moved words of one turn.
    fn default() -> DipOptions {
        DipOptions { min_frames: 12, contrast: 25.0, span: 100, margin: 0.5 }
    }
}

/// Which stretches at the ends of long runs are tried ([`end_pieces`], [`relabel_ends`]).
/// Frames are 10 ms.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndOptions {
    /// The shortest end stretch tried.
    pub min_frames: usize,
    /// The longest end stretch tried.
    pub max_frames: usize,
    /// The step between the lengths tried, from `min_frames` up.
    pub step: usize,
    /// The rest of the run keeps at least this many frames (its label's voice).
    pub min_rest: usize,
    /// How much closer (cosine) the stretch's own embedding must be to another speaker's
    /// centroid than to the run's label.
    pub margin: f32,
    /// Which stretch of an end moves when several pass the margin: the longest (`true`), or
    /// the one leading most (`false`, which favours the shortest, purest stretch).
    pub longest: bool,
}

impl Default for EndOptions {
    /// Stretches of 0.3, 0.4, … 0.7 s (the short turns' lengths) at the ends of runs that keep
    /// at least 1 s besides; the margin is the dips' (0.5), the one that raised DER least on
    /// the short-turn tuning set (docs/diarization.md).
    fn default() -> EndOptions {
        EndOptions {
            min_frames: 30,
            max_frames: 70,
            step: 10,
            min_rest: 100,
            margin: 0.5,
            longest: false,
        }
    }
}

/// One stretch at an end of a run ([`end_pieces`]): `run` and `piece` are `(first, len)` over
/// the speech frames; `tail` says whether the piece ends the run (else it starts it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndPiece {
    /// The run the piece is an end of.
    pub run: (usize, usize),
    /// The piece.
    pub piece: (usize, usize),
    /// Whether the piece is the run's last frames.
    pub tail: bool,
}

/// The stretches tried at each end of the runs longer than `max` frames (between the
/// detector's pauses and, when `dips` is not empty, the energy dips): for each length `L` of
/// `o.min_frames, o.min_frames + o.step, … ≤ o.max_frames` with at least `o.min_rest` frames
/// left, the run's first `L` frames and its last `L`. Listed run by run, the head lengths then
/// the tail lengths, shortest first.
///
/// ```text
/// run (no pause, no dip)   A ██████████████████████▓▓▓ B ███     (B starts in A's last words)
/// tails tried                                   [  0.3 s ]
///                                             [    0.5 s ]
///                                           [      0.7 s ]       → the one leaning most to B
/// ```
pub fn end_pieces(
    speech: &[usize],
    vad: &[f32],
    valley: f32,
    min_pause: usize,
    dips: &[bool],
    max: usize,
    o: &EndOptions,
) -> Vec<EndPiece> {
    let mut pause = valley_pauses(speech, vad, valley, min_pause);
    for (p, &d) in pause.iter_mut().zip(dips) {
        *p |= d;
    }
    let lengths: Vec<usize> = (o.min_frames.max(1)..=o.max_frames).step_by(o.step.max(1)).collect();
    let mut out = Vec::new();
    for (first, len) in pieces(speech, &pause) {
        if len <= max {
            continue;
        }
        for tail in [false, true] {
            for &l in lengths.iter().filter(|&&l| len >= l + o.min_rest) {
                let piece = if tail { (first + len - l, l) } else { (first, l) };
                out.push(EndPiece { run: (first, len), piece, tail });
            }
        }
    }
    out
}

/// Relabels the end stretches of runs (`ends`, from [`end_pieces`], with their embeddings in
/// `embeddings`, centred as the windows' are) on `labels` (one per speech frame, `None` for a
/// pause made silence): for each end of a run whose frames all carry one label, the stretch
/// whose own embedding leads most towards another speaker's centroid (the cosine to it minus
/// the cosine to the label), when that lead is at least `o.margin`, takes that speaker (with
/// `o.longest`, the longest stretch that leads by the margin). Runs are judged on the labels as
/// given (moving a head does not stop the tail). Returns the moved stretches' indices in
/// `ends`. Ties go to the shorter stretch and the lower label.
pub fn relabel_ends(
    labels: &mut [Option<usize>],
    ends: &[EndPiece],
    embeddings: &[Vec<f32>],
    centroids: &[Vec<f32>],
    o: &EndOptions,
) -> Vec<usize> {
    let margin = o.margin;
    let given = labels.to_vec();
    let mut moved = Vec::new();
    let mut i = 0;
    while i < ends.len().min(embeddings.len()) {
        let (run, tail) = (ends[i].run, ends[i].tail);
        let mut j = i;
        while j < ends.len().min(embeddings.len()) && ends[j].run == run && ends[j].tail == tail {
            j += 1;
        }
        let label = given.get(run.0).copied().flatten();
        let whole = given.get(run.0..run.0 + run.1).is_some_and(|f| f.iter().all(|&l| l == label));
        if let (Some(label), true) = (label.filter(|&l| l < centroids.len()), whole) {
            // The stretch (index, speaker, lead) leading most away from the label.
            let mut best: Option<(usize, usize, f32)> = None;
            for (k, e) in embeddings.iter().enumerate().take(j).skip(i) {
                let sims: Vec<f32> = centroids.iter().map(|c| super::embed::cosine(e, c)).collect();
                let to = (0..sims.len()).fold(label, |b, c| if sims[c] > sims[b] { c } else { b });
                let lead = sims[to] - sims[label];
                let wins = |b: &(usize, usize, f32)| {
                    if o.longest {
                        lead >= margin && ends[k].piece.1 > ends[b.0].piece.1
                    } else {
                        lead > b.2
                    }
                };
                if to != label && best.as_ref().is_none_or(wins) {
                    best = Some((k, to, lead));
                }
            }
            if let Some((k, to, _)) = best.filter(|b| b.2 >= margin) {
                let (first, len) = ends[k].piece;
                labels.iter_mut().skip(first).take(len).for_each(|l| *l = Some(to));
                moved.push(k);
            }
        }
        i = j;
    }
    moved
}

/// The pieces of speech whose length is in `min..=max` frames, as `(first, len)` over the
/// speech-frame sequence (what the windows are placed on). A piece is a run of consecutive
/// speech frames (frame numbers in `speech`, ascending) bounded by silence or by a pause: at
/// least `min_pause` consecutive speech frames whose voice probability (`vad`, one per speech
/// frame) is under `valley` (the refinement's pauses, [`super::refine`]). The pause frames
/// belong to no piece. The detector's own minimum silence joins a reply that follows a turn
/// after a short gap into one run with it; the dip in the probability still parts them.
///
/// ```text
/// speech frames  3 4 5 6 7 8 | 10 11 | 20 21 22 23 24 25 26
/// vad            9 9 9 1 1 9    9  9    9  9  9  9  9  9  9     (tenths; valley 0.35, pause 2)
/// pieces (1..=4) (0, 3)  (5, 1) (6, 2)  — (7 frames: too long)
/// ```
pub fn short_runs(
    speech: &[usize],
    vad: &[f32],
    valley: f32,
    min_pause: usize,
    min: usize,
    max: usize,
) -> Vec<(usize, usize)> {
    let pause = valley_pauses(speech, vad, valley, min_pause);
    pieces(speech, &pause)
        .into_iter()
        .filter(|&(_, len)| (min.max(1)..=max).contains(&len))
        .collect()
}

/// The pause frames among the speech frames: runs of at least `min_pause` consecutive speech
/// frames whose probability (`vad`, one per speech frame) is under `valley`.
fn valley_pauses(speech: &[usize], vad: &[f32], valley: f32, min_pause: usize) -> Vec<bool> {
    let low: Vec<bool> =
        (0..speech.len()).map(|q| vad.get(q).is_some_and(|&v| v < valley)).collect();
    long_stretches(speech, &low, min_pause.max(1))
}

/// `low` kept only in stretches of at least `min_len` consecutive speech frames that are all
/// low (a silence between two speech frames ends a stretch).
fn long_stretches(speech: &[usize], low: &[bool], min_len: usize) -> Vec<bool> {
    let n = speech.len().min(low.len());
    let mut out = vec![false; speech.len()];
    let mut q = 0;
    while q < n {
        if !low[q] {
            q += 1;
            continue;
        }
        let mut r = q + 1;
        while r < n && low[r] && speech[r] == speech[r - 1] + 1 {
            r += 1;
        }
        if r - q >= min_len {
            out[q..r].iter_mut().for_each(|p| *p = true);
        }
        q = r;
    }
    out
}

/// Every piece of speech, `(first, len)`: runs of consecutive speech frames that are not
/// `pause` frames.
fn pieces(speech: &[usize], pause: &[bool]) -> Vec<(usize, usize)> {
    let n = speech.len();
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for q in 0..=n {
        let paused = q < n && pause.get(q).copied().unwrap_or(false);
        let breaks = q == n || paused || (q > 0 && speech[q] != speech[q - 1] + 1);
        if breaks {
            if let Some(s) = start.take() {
                out.push((s, q - s));
            }
        }
        if q < n && !paused && start.is_none() {
            start = Some(q);
        }
    }
    out
}

/// The speech frames (frame numbers in `speech`, `energy` in dB one per speech frame) that lie
/// in an energy dip: a stretch of at least `o.min_frames` consecutive frames, each at least
/// `o.contrast` dB under the loudest speech frame within `o.span` frames on either side.
///
/// ```text
/// energy dB   60 60 60 20 20 20 60 60 35 60      (contrast 25, min_frames 2)
/// dip          .  .  .  █  █  █  .  .  .  .      (35 is only 25 dB under — a dip frame,
///                                                  but one frame alone is no dip)
/// ```
pub fn energy_dips(speech: &[usize], energy: &[f32], o: &DipOptions) -> Vec<bool> {
    let n = speech.len().min(energy.len());
    let low: Vec<bool> = (0..n)
        .map(|q| {
            let (a, b) =
                (q.saturating_sub(o.span), q.saturating_add(o.span).saturating_add(1).min(n));
            let peak = energy[a..b].iter().copied().fold(f32::MIN, f32::max);
            energy[q] <= peak - o.contrast
        })
        .collect();
    let mut out = long_stretches(&speech[..n], &low, o.min_frames.max(1));
    out.resize(speech.len(), false);
    out
}

/// The parts, between energy dips (`dips`, one per speech frame, from [`energy_dips`]), of
/// the runs between the detector's pauses that are longer than `max` (too long for
/// [`relabel_short_runs`] to take whole): `(first, len)` over the speech frames, each
/// `min..=max` frames long. Runs of piece length are not parted again (their own embedding is
/// already taken whole), and dip frames belong to no part.
///
/// ```text
/// pieces (detector's pauses)   [────── 300 frames ──────]  [ 80 ]
/// dips                               ██         ███
/// dip pieces                   (too long) [ 40 ] (too long)        (the 80 stays whole)
/// ```
pub fn dip_pieces(
    speech: &[usize],
    vad: &[f32],
    valley: f32,
    min_pause: usize,
    dips: &[bool],
    min: usize,
    max: usize,
) -> Vec<(usize, usize)> {
    let pause = valley_pauses(speech, vad, valley, min_pause);
    let mut out = Vec::new();
    for (first, len) in pieces(speech, &pause) {
        if len <= max {
            continue;
        }
        let span = first..first + len;
        let inner = dips.get(span.clone()).map_or_else(|| vec![false; len], <[bool]>::to_vec);
        for (a, l) in pieces(&speech[span], &inner) {
            if (min.max(1)..=max).contains(&l) {
                out.push((first + a, l));
            }
        }
    }
    out
}

/// Relabels each run of `runs` (`(first, len)` over the speech frames, with its embedding in
/// `embeddings`, centred as the windows' are) whose frames all carry one label in `labels`:
/// to the centroid in `centroids` its embedding is closest to, when that is another label and
/// closer than the run's label by at least `margin`. Returns the indices (in `runs`) of the
/// runs moved.
pub fn relabel_short_runs(
    labels: &mut [usize],
    runs: &[(usize, usize)],
    embeddings: &[Vec<f32>],
    centroids: &[Vec<f32>],
    options: &ShortRunOptions,
    margin: f32,
) -> Vec<usize> {
    let mut changed = Vec::new();
    for (i, (&(first, len), e)) in runs.iter().zip(embeddings).enumerate() {
        if len < options.min_frames || len > options.max_frames {
            continue;
        }
        let Some(frames) = labels.get_mut(first..first + len) else { continue };
        let label = frames[0];
        if frames.iter().any(|&l| l != label) || label >= centroids.len() {
            continue;
        }
        let sims: Vec<f32> = centroids.iter().map(|c| super::embed::cosine(e, c)).collect();
        // The closest centroid; ties go to the lower label, so the result is deterministic.
        let best = (0..sims.len()).fold(label, |b, c| if sims[c] > sims[b] { c } else { b });
        if best != label && sims[best] - sims[label] >= margin {
            frames.iter_mut().for_each(|l| *l = best);
            changed.push(i);
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pieces_are_bounded_by_silence_by_pauses_and_by_length() {
        let speech = [3, 4, 5, 6, 7, 8, 10, 11, 20, 21, 22, 23, 24, 25, 26];
        let mut vad = vec![0.9; speech.len()];
        assert_eq!(short_runs(&speech, &vad, 0.35, 2, 2, 6), vec![(0, 6), (6, 2)]);
        assert_eq!(short_runs(&speech, &vad, 0.35, 2, 3, 7), vec![(0, 6), (8, 7)]);
        // A pause of two low frames parts the first run; one low frame does not.
        vad[3] = 0.1;
        vad[4] = 0.1;
        vad[10] = 0.2;
        assert_eq!(short_runs(&speech, &vad, 0.35, 2, 1, 4), vec![(0, 3), (5, 1), (6, 2)]);
        assert_eq!(short_runs(&speech, &vad, 0.35, 3, 1, 6), vec![(0, 6), (6, 2)]);
        // Low frames on both sides of a silence are two valleys, each too short.
        let speech = [1, 2, 5, 6];
        assert_eq!(short_runs(&speech, &[0.9, 0.1, 0.1, 0.9], 0.35, 2, 1, 4), vec![(0, 2), (2, 2)]);
        assert_eq!(short_runs(&[], &[], 0.35, 2, 1, 10), vec![]);
        assert_eq!(short_runs(&[7], &[0.9], 0.35, 2, 0, 10), vec![(0, 1)]);
    }

    #[test]
    fn a_run_moves_only_whole_and_only_past_the_margin() {
        let a = vec![1.0, 0.0];
        let b = vec![0.0, 1.0];
        let cents = vec![a.clone(), b.clone()];
        // Frames 0-3 a run labelled A whose voice is B's; 4-5 a run split by the Viterbi;
        // 6-7 a run labelled A whose voice is between the two.
        let runs = [(0, 4), (4, 2), (6, 2)];
        let between = vec![0.6, 0.8];
        let embs = vec![b.clone(), b.clone(), between];
        let o =
            ShortRunOptions { min_frames: 1, max_frames: 10, margin: 0.3, dips: None, ends: None };
        let mut labels = vec![0, 0, 0, 0, 0, 1, 0, 0];
        assert_eq!(relabel_short_runs(&mut labels, &runs, &embs, &cents, &o, 0.3), vec![0]);
        assert_eq!(labels, [1, 1, 1, 1, 0, 1, 0, 0]);
        // With a smaller margin the run between the voices (0.8 against 0.6) moves too.
        assert_eq!(relabel_short_runs(&mut labels, &runs, &embs, &cents, &o, 0.1), vec![2]);
        assert_eq!(labels, [1, 1, 1, 1, 0, 1, 1, 1]);
        // Runs outside the lengths are left alone.
        let mut labels = vec![0; 8];
        let o =
            ShortRunOptions { min_frames: 5, max_frames: 10, margin: 0.0, dips: None, ends: None };
        assert!(relabel_short_runs(&mut labels, &runs, &embs, &cents, &o, 0.0).is_empty());
    }

    #[test]
    fn dips_are_long_stretches_deep_under_the_speech_around_them() {
        let o = DipOptions { min_frames: 2, contrast: 25.0, span: 3, margin: 0.5 };
        let speech: Vec<usize> = (0..10).collect();
        let e = [60.0, 60.0, 60.0, 20.0, 20.0, 20.0, 60.0, 60.0, 35.0, 60.0];
        let dip = |v: Vec<bool>| v.iter().map(|&d| if d { '#' } else { '.' }).collect::<String>();
        assert_eq!(dip(energy_dips(&speech, &e, &o)), "...###....");
        // One frame 25 dB down is no dip; two are.
        let e2 = [60.0, 60.0, 60.0, 20.0, 20.0, 20.0, 60.0, 35.0, 35.0, 60.0];
        assert_eq!(dip(energy_dips(&speech, &e2, &o)), "...###.##.");
        // The loudest frame is looked for within the span only: 20 dB against a 60 dB peak
        // four frames away is not 25 dB under anything within three.
        let e3 = [60.0, 40.0, 40.0, 40.0, 20.0, 20.0, 40.0, 40.0, 40.0, 40.0];
        assert_eq!(dip(energy_dips(&speech, &e3, &o)), "..........");
        // A silence between two speech frames ends a stretch; a short energy slice is padded.
        let gapped = [0, 1, 2, 3, 10, 11, 12, 13, 14, 15];
        let e4 = [60.0, 60.0, 60.0, 20.0, 20.0, 60.0, 60.0, 60.0, 60.0, 60.0];
        assert_eq!(dip(energy_dips(&gapped, &e4, &o)), "..........");
        assert_eq!(dip(energy_dips(&speech, &e[..4], &o)), "..........");
        assert!(energy_dips(&[], &[], &o).is_empty());
        // A span beyond any recording looks over all of it: 20 dB is 40 under the 60 at 0.
        let all = DipOptions { span: usize::MAX, ..o };
        assert_eq!(dip(energy_dips(&speech, &e3, &all)), "....##....");
    }

    #[test]
    fn dip_pieces_part_only_the_runs_too_long_for_a_piece() {
        // Speech frames 0-19 (one run: no valley), then 30-35 (a run of piece length).
        let speech: Vec<usize> = (0..20).chain(30..36).collect();
        let vad = vec![0.9; speech.len()];
        let mut dips = vec![false; speech.len()];
        // Dips at 5-6 and 12-13 inside the long run, and at 22-23 inside the short one.
        for q in [5, 6, 12, 13, 22, 23] {
            dips[q] = true;
        }
        // Pieces of 3..=8 frames: the long run gives 7-11 (5 frames); 0-4 and 14-19 too (5, 6).
        assert_eq!(dip_pieces(&speech, &vad, 0.35, 2, &dips, 3, 8), vec![(0, 5), (7, 5), (14, 6)]);
        // Pieces of 6..=8: only 14-19; the run of 6 (30-35) is not parted, as short_runs keeps it.
        assert_eq!(dip_pieces(&speech, &vad, 0.35, 2, &dips, 6, 8), vec![(14, 6)]);
        assert_eq!(short_runs(&speech, &vad, 0.35, 2, 6, 8), vec![(20, 6)]);
        // A valley of the detector parts the long run first: 0-9 and 12-19 are runs, 10-11 a
        // pause; 12-19 is of piece length (8 ≤ 9) and stays whole, 0-9 is parted at 5-6.
        let mut vad2 = vad.clone();
        vad2[10] = 0.1;
        vad2[11] = 0.1;
        assert_eq!(dip_pieces(&speech, &vad2, 0.35, 2, &dips, 3, 9), vec![(0, 5), (7, 3)]);
        assert!(dip_pieces(&speech, &vad, 0.35, 2, &[], 3, 8).is_empty());
    }

    #[test]
    fn end_pieces_are_tried_only_on_runs_too_long_for_a_piece() {
        // Runs: 0-29 (30 frames), a pause at 30-31, 32-41 (10 frames); 50-55 after a silence.
        let speech: Vec<usize> = (0..42).chain(50..56).collect();
        let mut vad = vec![0.9; speech.len()];
        vad[30] = 0.1;
        vad[31] = 0.1;
        let o = EndOptions {
            min_frames: 4,
            max_frames: 8,
            step: 2,
            min_rest: 20,
            margin: 0.5,
            longest: false,
        };
        let e = end_pieces(&speech, &vad, 0.35, 2, &[], 12, &o);
        // Only 0-29 is longer than 12; lengths 4, 6, 8 leave at least 20 frames (8 + 20 ≤ 30 but
        // 10 + 20 would too: 10 is past max_frames).
        let got: Vec<((usize, usize), bool)> = e.iter().map(|p| (p.piece, p.tail)).collect();
        assert_eq!(
            got,
            vec![
                ((0, 4), false),
                ((0, 6), false),
                ((0, 8), false),
                ((26, 4), true),
                ((24, 6), true),
                ((22, 8), true)
            ]
        );
        assert!(e.iter().all(|p| p.run == (0, 30)));
        // A dip at 14-15 parts the run into 0-13 and 16-29, both too short for a rest of 20.
        let mut dips = vec![false; speech.len()];
        dips[14] = true;
        dips[15] = true;
        assert!(end_pieces(&speech, &vad, 0.35, 2, &dips, 12, &o).is_empty());
        // A longer rest leaves fewer lengths.
        let tight = EndOptions { min_rest: 25, ..o };
        let got: Vec<(usize, usize)> =
            end_pieces(&speech, &vad, 0.35, 2, &[], 12, &tight).iter().map(|p| p.piece).collect();
        assert_eq!(got, vec![(0, 4), (26, 4)]);
        assert!(end_pieces(&[], &[], 0.35, 2, &[], 12, &o).is_empty());
    }

    #[test]
    fn an_end_moves_to_the_stretch_leading_most_or_the_longest_past_the_margin() {
        let a = vec![1.0, 0.0];
        let b = vec![0.0, 1.0];
        let cents = vec![a.clone(), b.clone()];
        let run = (0, 10);
        let end =
            |first: usize, len: usize, tail: bool| EndPiece { run, piece: (first, len), tail };
        // Tails of 2, 3 and 4 frames: pure B, B, and halfway (lead 0).
        let ends = [end(8, 2, true), end(7, 3, true), end(6, 4, true)];
        let half = vec![std::f32::consts::FRAC_1_SQRT_2; 2];
        let embs = vec![b.clone(), vec![0.28, 0.96], half.clone()];
        let o = EndOptions {
            min_frames: 2,
            max_frames: 4,
            step: 1,
            min_rest: 6,
            margin: 0.5,
            longest: false,
        };
        let show = |l: &[Option<usize>]| {
            l.iter().map(|x| x.map_or('.', |k| char::from(b'0' + k as u8))).collect::<String>()
        };
        let mut labels = vec![Some(0); 10];
        // Leading most: the 2-frame tail (lead 1.0 against 0.68).
        assert_eq!(relabel_ends(&mut labels, &ends, &embs, &cents, &o), vec![0]);
        assert_eq!(show(&labels), "0000000011");
        // The longest past the margin: the 3-frame tail (the 4-frame one leads by 0).
        let mut labels = vec![Some(0); 10];
        let longest = EndOptions { longest: true, ..o };
        assert_eq!(relabel_ends(&mut labels, &ends, &embs, &cents, &longest), vec![1]);
        assert_eq!(show(&labels), "0000000111");
        // Past no margin of 1.1 nothing moves; nor does a run the labels already split.
        let mut labels = vec![Some(0); 10];
        let strict = EndOptions { margin: 1.1, ..o };
        assert!(relabel_ends(&mut labels, &ends, &embs, &cents, &strict).is_empty());
        let mut labels = vec![Some(0); 10];
        labels[3] = None;
        assert!(relabel_ends(&mut labels, &ends, &embs, &cents, &o).is_empty());
        assert_eq!(show(&labels), "000.000000");
        // A head and a tail of one run are judged on the labels as given: both move.
        let both = [end(0, 2, false), end(8, 2, true)];
        let mut labels = vec![Some(0); 10];
        let embs2 = vec![b.clone(), b.clone()];
        assert_eq!(relabel_ends(&mut labels, &both, &embs2, &cents, &o), vec![0, 1]);
        assert_eq!(show(&labels), "1100000011");
    }
}
