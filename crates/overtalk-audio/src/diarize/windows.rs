//! Speaker encoders and the windows they embed: the [`WindowEmbedder`] interface, GE2E as one
//! ([`Ge2eEmbedder`]), where windows are placed and how they are embedded on all cores with a
//! result that does not depend on the number of threads.

use overtalk::Result;

use super::embed::{Ge2eWeights, MelStream, WINDOW_FRAMES};
use super::features::FrontEnd;

/// A speaker encoder: its front end, and embeddings of windows of front-end frames. The
/// pipeline sees only this trait, so another encoder can be plugged in beside GE2E.
pub trait WindowEmbedder: Send + Sync {
    /// A short name for [`Diarizer::describe`](super::Diarizer::describe).
    fn name(&self) -> String;
    /// A new front end (one per recording).
    fn front_end(&self) -> Box<dyn FrontEnd>;
    /// The longest window the encoder takes, in 10 ms frames.
    fn window_frames(&self) -> usize;
    /// Embeds windows of frames (each `len · dim` values, frame after frame; one batch has
    /// windows of equal length). One vector per window.
    fn embed(&self, windows: &[&[f32]]) -> Result<Vec<Vec<f32>>>;
}

/// GE2E (Resemblyzer) as a [`WindowEmbedder`].
pub struct Ge2eEmbedder {
    weights: Ge2eWeights,
    name: String,
}

impl std::fmt::Debug for Ge2eEmbedder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ge2eEmbedder").field("name", &self.name).finish()
    }
}

impl Ge2eEmbedder {
    /// The encoder with loaded weights; `name` identifies them in descriptions.
    pub fn new(weights: Ge2eWeights, name: impl Into<String>) -> Ge2eEmbedder {
        Ge2eEmbedder { weights, name: name.into() }
    }
}

impl WindowEmbedder for Ge2eEmbedder {
    fn name(&self) -> String {
        format!("model {}", self.name)
    }
    fn front_end(&self) -> Box<dyn FrontEnd> {
        Box::new(MelStream::new())
    }
    fn window_frames(&self) -> usize {
        WINDOW_FRAMES
    }
    fn embed(&self, windows: &[&[f32]]) -> Result<Vec<Vec<f32>>> {
        Ok(self.weights.embed_flat(windows))
    }
}

/// Embeds windows `(first, len)` of the frames in `data` (`dim` values per frame).
///
/// Windows go in fixed batches of 32 (split further by length), and the batches are shared
/// among the available cores in a fixed interleave, so the result does not depend on the
/// number of threads.
pub(super) fn embed_windows(
    embedder: &dyn WindowEmbedder,
    data: &[f32],
    dim: usize,
    windows: &[(usize, usize)],
    progress: &(dyn Fn(f64) + Sync),
) -> Result<Vec<Vec<f32>>> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    embed_windows_on(embedder, data, dim, windows, threads, progress)
}

/// [`embed_windows`] on at most `threads` threads.
fn embed_windows_on(
    embedder: &dyn WindowEmbedder,
    data: &[f32],
    dim: usize,
    windows: &[(usize, usize)],
    threads: usize,
    progress: &(dyn Fn(f64) + Sync),
) -> Result<Vec<Vec<f32>>> {
    let batches: Vec<&[(usize, usize)]> = windows.chunks(32).collect();
    // Batches embedded so far, by every thread: the share done goes to `progress`.
    let done = std::sync::atomic::AtomicUsize::new(0);
    let total = batches.len().max(1) as f64;
    let embed_batch = |chunk: &[(usize, usize)]| -> Result<Vec<Vec<f32>>> {
        let mut lens: Vec<usize> = chunk.iter().map(|w| w.1).collect();
        lens.sort_unstable();
        lens.dedup();
        let mut res: Vec<Vec<f32>> = vec![Vec::new(); chunk.len()];
        for len in lens {
            let idx: Vec<usize> = (0..chunk.len()).filter(|&i| chunk[i].1 == len).collect();
            let views: Vec<&[f32]> = idx
                .iter()
                .map(|&i| data.get(chunk[i].0 * dim..(chunk[i].0 + len) * dim).unwrap_or(&[]))
                .collect();
            for (i, e) in idx.iter().zip(embedder.embed(&views)?) {
                res[*i] = e;
            }
        }
        Ok(res)
    };
    let threads = threads.clamp(1, 8).min(batches.len().max(1));
    let mut parts: Vec<Vec<(usize, Vec<Vec<f32>>)>> = Vec::with_capacity(threads);
    let run = |t: usize| -> Result<Vec<(usize, Vec<Vec<f32>>)>> {
        (t..batches.len())
            .step_by(threads)
            .map(|b| {
                let e = embed_batch(batches[b])?;
                let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                progress(n as f64 / total);
                Ok((b, e))
            })
            .collect()
    };
    std::thread::scope(|sc| -> Result<()> {
        let handles: Vec<_> = (1..threads).map(|t| sc.spawn(move || run(t))).collect();
        parts.push(run(0)?);
        for h in handles {
            let part = h
                .join()
                .map_err(|_| overtalk::Error::invalid("speaker embedding thread failed"))??;
            parts.push(part);
        }
        Ok(())
    })?;
    let mut all: Vec<(usize, Vec<Vec<f32>>)> = parts.into_iter().flatten().collect();
    all.sort_unstable_by_key(|p| p.0);
    Ok(all.into_iter().flat_map(|p| p.1).collect())
}

/// Whether an embedding can be compared: every value finite and not all zero. A window of
/// silence or of degenerate input can make a model give NaN or infinite values (or nothing at
/// all), and one such vector in a mean makes every centred embedding NaN, every cosine 0 and
/// the whole recording one speaker.
pub(super) fn usable(e: &[f32]) -> bool {
    e.iter().all(|v| v.is_finite()) && e.iter().any(|&v| v != 0.0)
}

/// The windows whose embedding is [`usable`], with their embeddings, and how many were
/// dropped: the clustering, the centroids, the speaker-count rules and the relabelling never
/// see the others (the frames they covered take their speaker from the windows around).
pub(super) fn keep_usable(
    windows: Vec<(usize, usize)>,
    emb: Vec<Vec<f32>>,
) -> (Vec<(usize, usize)>, Vec<Vec<f32>>, usize) {
    let before = windows.len();
    let (windows, emb): (Vec<_>, Vec<_>) =
        windows.into_iter().zip(emb).filter(|(_, e)| usable(e)).unzip();
    let dropped = before - windows.len();
    (windows, emb, dropped)
}

/// Window placements `(first, len)` over a sequence of `n` frames.
pub(super) fn place_windows(n: usize, window: usize, step: usize) -> Vec<(usize, usize)> {
    let window = window.max(1);
    if n == 0 {
        return Vec::new();
    }
    if n <= window {
        return vec![(0, n)];
    }
    let step = step.max(1);
    let mut w: Vec<(usize, usize)> = (0..=n - window).step_by(step).map(|s| (s, window)).collect();
    if w.last().is_some_and(|l| l.0 + window < n) {
        w.push((n - window, window));
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_cover_the_sequence() {
        assert_eq!(place_windows(0, 160, 20), vec![]);
        assert_eq!(place_windows(100, 160, 20), vec![(0, 100)]);
        assert_eq!(place_windows(200, 160, 20), vec![(0, 160), (20, 160), (40, 160)]);
        assert_eq!(place_windows(205, 160, 20), vec![(0, 160), (20, 160), (40, 160), (45, 160)]);
    }

    /// An embedder that needs no model: the window's first value, its sum and its length.
    struct Fake;
    impl WindowEmbedder for Fake {
        fn name(&self) -> String {
            "fake".into()
        }
        fn front_end(&self) -> Box<dyn FrontEnd> {
            Box::new(MelStream::new())
        }
        fn window_frames(&self) -> usize {
            160
        }
        fn embed(&self, windows: &[&[f32]]) -> Result<Vec<Vec<f32>>> {
            Ok(windows.iter().map(|w| vec![w[0], w.iter().sum(), w.len() as f32]).collect())
        }
    }

    #[test]
    fn embeddings_do_not_depend_on_the_thread_count() {
        let data: Vec<f32> = (0..2000).map(|i| (i % 97) as f32).collect();
        let mut windows = place_windows(1000, 30, 7);
        windows.push((5, 12)); // a shorter window inside the last batch
        let one = embed_windows_on(&Fake, &data, 2, &windows, 1, &|_| {}).unwrap();
        assert_eq!(one.len(), windows.len());
        assert_eq!(one[1], vec![14.0, (14..74).map(|i| (i % 97) as f32).sum(), 60.0]);
        assert_eq!(one.last().unwrap()[2], 24.0);
        for t in [2, 3, 8] {
            let e = embed_windows_on(&Fake, &data, 2, &windows, t, &|_| {}).unwrap();
            assert_eq!(e, one, "{t} threads");
        }
    }

    #[test]
    fn embedding_reports_its_progress_up_to_the_whole() {
        let data: Vec<f32> = (0..2000).map(|i| (i % 97) as f32).collect();
        let windows = place_windows(1000, 30, 7);
        let batches = windows.len().div_ceil(32);
        for t in [1, 3] {
            let seen = std::sync::Mutex::new(Vec::new());
            embed_windows_on(&Fake, &data, 2, &windows, t, &|p| seen.lock().unwrap().push(p))
                .unwrap();
            let mut seen = seen.into_inner().unwrap();
            seen.sort_by(f64::total_cmp);
            assert_eq!(seen.len(), batches, "one report per batch of 32 windows");
            assert_eq!(seen[0], 1.0 / batches as f64);
            assert_eq!(seen.last().copied(), Some(1.0));
        }
    }
}
