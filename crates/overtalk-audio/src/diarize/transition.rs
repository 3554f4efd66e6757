//! Clusters of speaker changes, not of speakers.
//!
//! A window that straddles a change from one speaker to the next carries an embedding between
//! the two voices. Where such windows are many (narrowband or noisy audio, a long recording
//! with many changes), they can form a cluster of their own, and the resegmentation then gives
//! that "speaker" the short stretches at the ends and starts of the real speakers' turns:
//!
//! ```text
//! A  ██████████████      ██████████████
//! X                ██          ██          X: 0.2–0.8 s pieces, each right beside A or B
//! B                  ████████    ████████
//! ```
//!
//! [`transition_cluster`] finds such a cluster from the frame labels: most of its speech lies
//! in short pieces that touch another speaker's speech with no silence between. The windows
//! over an overlap mix the two voices as well, and their cluster takes the stretch between the
//! two speakers' turns. A real
//! speaker talks in turns of their own, bounded by silence or long, so most of their speech is
//! not in such pieces. A listener who says nothing but "yeah", each time right at the end of
//! the other's words with no pause between, looks the same and is merged too: one speaker per
//! frame cannot tell them from a change (the cluster would mostly be too little speech to be
//! kept by the count rules anyway).

/// When a cluster is one of speaker changes ([`transition_cluster`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TransitionOptions {
    /// The longest piece counted (10 ms frames).
    pub max_piece: usize,
    /// The share of the cluster's speech in such pieces from which it is one of changes.
    pub share: f32,
}

impl Default for TransitionOptions {
    /// Pieces up to 1 s; 60 % of the cluster's speech.
    fn default() -> TransitionOptions {
        TransitionOptions { max_piece: 100, share: 0.6 }
    }
}

/// The label whose speech is mostly in short pieces right beside another speaker's, if any:
/// the cluster of speaker changes. `labels[q]` is the label of speech frame `speech[q]` (frame
/// numbers, ascending); `k` the number of labels. A piece counts when it is at most
/// `max_piece` frames long and touches a different label on one side (adjacent frames), or at
/// most 2.5 × `max_piece` and touches different labels on both sides (the windows over an
/// overlap mix the two voices as those over a change do); the label is returned when such
/// pieces hold at least `share` of its frames. Of several, the one with the largest share.
///
/// ```text
/// A  ████████         ████████           a piece of X at a change: counted (≤ max_piece)
/// X          ███            █████████    X between A and B: counted (≤ 2.5 × max_piece)
/// B             █████                ███
/// ```
pub fn transition_cluster(
    speech: &[usize],
    labels: &[usize],
    k: usize,
    max_piece: usize,
    share: f32,
) -> Option<usize> {
    let n = labels.len().min(speech.len());
    if k < 2 || n == 0 {
        return None;
    }
    // Pieces: runs of one label over contiguous frames.
    let mut pieces: Vec<(usize, usize, usize)> = Vec::new(); // (label, first q, last q)
    let mut start = 0;
    for q in 1..=n {
        let ends = q == n || labels[q] != labels[start] || speech[q] != speech[q - 1] + 1;
        if ends {
            pieces.push((labels[start], start, q - 1));
            start = q;
        }
    }
    let mut total = vec![0usize; k];
    let mut beside = vec![0usize; k];
    for (i, &(label, a, b)) in pieces.iter().enumerate() {
        let len = b - a + 1;
        if label >= k {
            continue;
        }
        total[label] += len;
        let touches = |j: usize| {
            let (other, oa, ob) = pieces[j];
            other != label && (speech[ob] + 1 == speech[a] || speech[b] + 1 == speech[oa])
        };
        let left = i > 0 && touches(i - 1);
        let right = i + 1 < pieces.len() && touches(i + 1);
        // Between two others (the windows of an overlap mix both voices too): longer still.
        if (len <= max_piece && (left || right)) || (len <= 5 * max_piece / 2 && left && right) {
            beside[label] += len;
        }
    }
    (0..k)
        .filter(|&c| total[c] > 0)
        .map(|c| (c, beside[c] as f32 / total[c] as f32))
        .filter(|&(_, s)| s >= share)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(c, _)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels over contiguous speech frames: `(label, frames)` runs, with `gap` frames of
    /// silence after each run when given.
    fn runs(spec: &[(usize, usize, usize)]) -> (Vec<usize>, Vec<usize>) {
        let (mut speech, mut labels) = (Vec::new(), Vec::new());
        let mut f = 0;
        for &(label, len, gap) in spec {
            for _ in 0..len {
                speech.push(f);
                labels.push(label);
                f += 1;
            }
            f += gap;
        }
        (speech, labels)
    }

    /// The change cluster (2) holds only short pieces beside speakers 0 and 1; the two
    /// speakers' turns are long and end in silence.
    #[test]
    fn finds_the_cluster_at_the_changes() {
        let (speech, labels) = runs(&[
            (0, 300, 0),
            (2, 40, 0),
            (1, 250, 50),
            (0, 200, 0),
            (2, 30, 0),
            (1, 300, 60),
            (2, 50, 0),
            (0, 280, 40),
        ]);
        assert_eq!(transition_cluster(&speech, &labels, 3, 100, 0.6), Some(2));
        // Without it, none: each speaker's turns are long.
        let (speech, labels) = runs(&[(0, 300, 0), (1, 250, 50), (0, 200, 0), (1, 300, 60)]);
        assert_eq!(transition_cluster(&speech, &labels, 2, 100, 0.6), None);
    }

    /// A third speaker with turns of their own, bounded by silence, is kept, even when they
    /// also answer briefly right after another speaker.
    #[test]
    fn keeps_a_speaker_with_turns_of_their_own() {
        let (speech, labels) = runs(&[
            (0, 300, 0),
            (2, 40, 0),
            (1, 250, 50),
            (2, 400, 50),
            (0, 200, 30),
            (2, 350, 40),
        ]);
        assert_eq!(transition_cluster(&speech, &labels, 3, 100, 0.6), None);
    }
}
