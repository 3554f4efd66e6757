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
}

impl Default for ShortRunOptions {
    /// Pieces of 0.25–1.2 s; a margin of 0.1 (chosen in docs/diarization.md: the smallest
    /// measured that raises DER on no tuning set at either collar, once a quiet room's single
    /// faint frames no longer cut turns; 0.05 raises the gecko call's).
    fn default() -> ShortRunOptions {
        ShortRunOptions { min_frames: 25, max_frames: 120, margin: 0.1 }
    }
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
    let n = speech.len();
    // Pause frames: runs of at least `min_pause` consecutive low frames.
    let mut pause = vec![false; n];
    let mut q = 0;
    while q < n {
        if vad.get(q).is_some_and(|&v| v < valley) {
            let mut r = q + 1;
            while r < n && speech[r] == speech[r - 1] + 1 && vad.get(r).is_some_and(|&v| v < valley)
            {
                r += 1;
            }
            if r - q >= min_pause.max(1) {
                pause[q..r].iter_mut().for_each(|p| *p = true);
            }
            q = r;
        } else {
            q += 1;
        }
    }
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for q in 0..=n {
        let breaks = q == n || pause[q] || (q > 0 && speech[q] != speech[q - 1] + 1);
        if breaks {
            if let Some(s) = start.take() {
                let len = q - s;
                if (min.max(1)..=max).contains(&len) {
                    out.push((s, len));
                }
            }
        }
        if q < n && !pause[q] && start.is_none() {
            start = Some(q);
        }
    }
    out
}

/// Relabels each run of `runs` (`(first, len)` over the speech frames, with its embedding in
/// `embeddings`, centred as the windows' are) whose frames all carry one label in `labels`:
/// to the centroid in `centroids` its embedding is closest to, when that is another label and
/// closer than the run's label by at least `options.margin`. Returns how many runs changed.
pub fn relabel_short_runs(
    labels: &mut [usize],
    runs: &[(usize, usize)],
    embeddings: &[Vec<f32>],
    centroids: &[Vec<f32>],
    options: &ShortRunOptions,
) -> usize {
    let mut changed = 0;
    for (&(first, len), e) in runs.iter().zip(embeddings) {
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
        if best != label && sims[best] - sims[label] >= options.margin {
            frames.iter_mut().for_each(|l| *l = best);
            changed += 1;
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
        let o = ShortRunOptions { min_frames: 1, max_frames: 10, margin: 0.3 };
        let mut labels = vec![0, 0, 0, 0, 0, 1, 0, 0];
        assert_eq!(relabel_short_runs(&mut labels, &runs, &embs, &cents, &o), 1);
        assert_eq!(labels, [1, 1, 1, 1, 0, 1, 0, 0]);
        // With a smaller margin the run between the voices (0.8 against 0.6) moves too.
        let o = ShortRunOptions { margin: 0.1, ..o };
        assert_eq!(relabel_short_runs(&mut labels, &runs, &embs, &cents, &o), 1);
        assert_eq!(labels, [1, 1, 1, 1, 0, 1, 1, 1]);
        // Runs outside the lengths are left alone.
        let mut labels = vec![0; 8];
        let o = ShortRunOptions { min_frames: 5, max_frames: 10, margin: 0.0 };
        assert_eq!(relabel_short_runs(&mut labels, &runs, &embs, &cents, &o), 0);
    }
}
