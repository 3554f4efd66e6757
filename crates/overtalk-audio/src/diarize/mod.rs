//! Who spoke when from one mixed recording, fully offline.
//!
//! ```text
//! 16 kHz mono ─► VAD ─► speech frames ─► 1.6 s windows over speech only (step 0.2 s)
//!            ─► GE2E embeddings ─► centre ─► AHC (threshold or --speakers) ─► centroids
//!            ─► per-frame scores ─► Viterbi with switch cost ─► re-estimate centroids (×2)
//!            ─► Annotation (SPK00, SPK01, … by first appearance)
//! ```
//!
//! | type | what it does |
//! | --- | --- |
//! | [`Ge2eDiarizer`] | the pipeline above |
//! | [`NaiveDiarizer`] | baseline: 1.6 s windows every 0.77 s on the raw timeline, k-means, nearest window |
//! | [`VadOnlyDiarizer`] | model-free fallback: all speech is one speaker |
//!
//! Every [`Diarizer`] is deterministic for a given input. Overlapping speech is not modelled:
//! each speech frame gets exactly one speaker.

pub mod cluster;
pub mod embed;
pub mod models;
#[cfg(feature = "onnx")]
pub mod onnx_embed;
pub mod reseg;

use overtalk::{Annotation, AnnotationBuilder, Delta, Region, Result, Segment, Time};

use crate::frames::Binarize;
use crate::vad::{self, VadKind};
use cluster::SpeakerCount;
use embed::{Ge2eWeights, MelFrontEnd, N_MELS, WINDOW_FRAMES};

/// The analysis frame hop (10 ms) in microseconds.
const FRAME_US: i64 = 10_000;

/// A diarization of one recording.
#[derive(Clone, Debug, PartialEq)]
pub struct Diarization {
    /// Who spoke when (speakers `SPK00`, `SPK01`, … in order of first appearance).
    pub annotation: Annotation,
    /// Number of speakers found.
    pub speakers: usize,
    /// What produced it (diarizer and parameters), for provenance in reports.
    pub method: String,
}

/// Turns a 16 kHz mono signal into who spoke when.
pub trait Diarizer {
    /// A short description with the parameters that matter.
    fn describe(&self) -> String;
    /// Diarizes a whole 16 kHz mono signal.
    fn diarize(&self, samples: &[f32]) -> Result<Diarization>;
}

/// The speech frames (10 ms) of a signal according to the VAD.
fn speech_mask(samples: &[f32], vad: VadKind, binarize: &Binarize, frames: usize) -> Vec<bool> {
    let region = vad::speech_region(vad.build(), samples, binarize);
    region_mask(&region, frames)
}

fn region_mask(region: &Region, frames: usize) -> Vec<bool> {
    let mut m = vec![false; frames];
    for s in region.iter() {
        let a = ((s.start().0 + FRAME_US / 2) / FRAME_US).max(0) as usize;
        let b = (((s.end().0 + FRAME_US / 2) / FRAME_US).max(0) as usize).min(frames);
        for x in m.iter_mut().take(b).skip(a.min(b)) {
            *x = true;
        }
    }
    m
}

/// An annotation from one optional label per 10 ms frame.
fn annotation_from_labels(labels: &[Option<usize>]) -> (Annotation, usize) {
    let mut b = AnnotationBuilder::new();
    let mut order: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < labels.len() {
        let Some(l) = labels[i] else {
            i += 1;
            continue;
        };
        let mut j = i;
        while j < labels.len() && labels[j] == Some(l) {
            j += 1;
        }
        let pos = order.iter().position(|&x| x == l).unwrap_or_else(|| {
            order.push(l);
            order.len() - 1
        });
        if let Some(seg) = Segment::new(Time(i as i64 * FRAME_US), Time(j as i64 * FRAME_US)) {
            b.add(seg, &format!("SPK{pos:02}"));
        }
        i = j;
    }
    (b.build(), order.len())
}

/// Options of [`Ge2eDiarizer`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiarizeOptions {
    /// The voice activity detector.
    pub vad: VadKind,
    /// Its binarization.
    pub binarize: Binarize,
    /// Window step over speech frames (10 ms frames).
    pub step: usize,
    /// Window length (10 ms frames, ≤ 160).
    pub window: usize,
    /// AHC stopping distance (1 − cosine on centred embeddings).
    pub threshold: f32,
    /// Speaker-count constraints.
    pub count: SpeakerCount,
    /// Viterbi switch cost (in units of per-frame cosine score).
    pub switch_cost: f32,
    /// Clusters holding less than this fraction of windows are merged into their nearest
    /// neighbour (automatic count only).
    pub min_cluster_fraction: f32,
    /// Resegmentation rounds (centroids re-estimated from the frame labels).
    pub rounds: usize,
    /// At most this many windows enter the O(n²) clustering; the rest are assigned to the
    /// nearest centroid.
    pub max_cluster_windows: usize,
}

impl Default for DiarizeOptions {
    fn default() -> DiarizeOptions {
        DiarizeOptions {
            vad: VadKind::Earshot,
            binarize: Binarize::default(),
            step: 20,
            window: WINDOW_FRAMES,
            threshold: 0.9,
            count: SpeakerCount::default(),
            switch_cost: 4.0,
            min_cluster_fraction: 0.1,
            rounds: 2,
            max_cluster_windows: 2000,
        }
    }
}

/// The GE2E pipeline (see the module documentation).
pub struct Ge2eDiarizer {
    weights: Ge2eWeights,
    front: MelFrontEnd,
    /// The options.
    pub options: DiarizeOptions,
    model: String,
}

impl std::fmt::Debug for Ge2eDiarizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ge2eDiarizer").field("options", &self.options).finish()
    }
}

impl Ge2eDiarizer {
    /// A diarizer with loaded weights; `model` names them in [`Diarizer::describe`].
    pub fn new(
        weights: Ge2eWeights,
        model: impl Into<String>,
        options: DiarizeOptions,
    ) -> Ge2eDiarizer {
        Ge2eDiarizer { weights, front: MelFrontEnd::new(), options, model: model.into() }
    }

    /// Loads the converted encoder from a file.
    pub fn from_file(path: &std::path::Path, options: DiarizeOptions) -> Result<Ge2eDiarizer> {
        let w = Ge2eWeights::load(path)?;
        Ok(Ge2eDiarizer::new(w, path.display().to_string(), options))
    }

    /// Embeds windows (batches of 32).
    fn embed_windows(&self, mels: &[[f32; N_MELS]], windows: &[(usize, usize)]) -> Vec<Vec<f32>> {
        let mut out = Vec::with_capacity(windows.len());
        for chunk in windows.chunks(32) {
            // Windows of one batch must have equal length; group by length.
            let mut by_len: Vec<usize> = chunk.iter().map(|w| w.1).collect();
            by_len.sort_unstable();
            by_len.dedup();
            let mut res: Vec<Option<Vec<f32>>> = vec![None; chunk.len()];
            for len in by_len {
                let idx: Vec<usize> = (0..chunk.len()).filter(|&i| chunk[i].1 == len).collect();
                let views: Vec<&[[f32; N_MELS]]> =
                    idx.iter().map(|&i| &mels[chunk[i].0..chunk[i].0 + chunk[i].1]).collect();
                for (i, e) in idx.iter().zip(self.weights.embed(&views)) {
                    res[*i] = Some(e);
                }
            }
            out.extend(res.into_iter().map(|e| e.unwrap_or_default()));
        }
        out
    }
}

/// Window placements `(first, len)` over a sequence of `n` frames.
fn place_windows(n: usize, window: usize, step: usize) -> Vec<(usize, usize)> {
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

impl Diarizer for Ge2eDiarizer {
    fn describe(&self) -> String {
        let o = &self.options;
        format!(
            "ge2e (model {}; vad {}; window {} ms, step {} ms; ahc threshold {}; switch cost {}; speakers {})",
            self.model,
            o.vad.name(),
            o.window * 10,
            o.step * 10,
            o.threshold,
            o.switch_cost,
            match o.count.exact {
                Some(k) => k.to_string(),
                None => format!("{}..{}", o.count.min, o.count.max),
            }
        )
    }

    fn diarize(&self, samples: &[f32]) -> Result<Diarization> {
        let prepared = self.prepare(samples);
        Ok(self.assign(&prepared, &self.options))
    }
}

/// The expensive, option-independent half of [`Ge2eDiarizer`]: speech frames and window
/// embeddings. [`Ge2eDiarizer::assign`] turns it into a diarization for any clustering options.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// Frames (10 ms) in the signal.
    frames: usize,
    /// Indices of the speech frames.
    speech: Vec<usize>,
    /// Windows `(first, len)` over the speech-frame sequence.
    windows: Vec<(usize, usize)>,
    /// Mean-centred, normalised window embeddings.
    emb: Vec<Vec<f32>>,
}

impl Ge2eDiarizer {
    /// VAD, mel frames and window embeddings (the costly part), with `self.options`' VAD and
    /// window settings. Windows are embedded on up to two threads.
    pub fn prepare(&self, samples: &[f32]) -> Prepared {
        let o = &self.options;
        let mut x = samples.to_vec();
        embed::normalize_volume(&mut x);
        let mels = self.front.frames(&x);
        let n = mels.len();
        let mask = speech_mask(samples, o.vad, &o.binarize, n);
        let speech: Vec<usize> = (0..n).filter(|&i| mask[i]).collect();
        // Mel frames of speech only, so windows never contain silence.
        let smels: Vec<[f32; N_MELS]> = speech.iter().map(|&i| mels[i]).collect();
        let windows = place_windows(smels.len(), o.window.clamp(10, WINDOW_FRAMES), o.step);
        let half = windows.len().div_ceil(2).div_ceil(32) * 32;
        let raw = if windows.len() > 64 {
            let (a, b) = windows.split_at(half.min(windows.len()));
            let (ea, eb) = std::thread::scope(|sc| {
                let ha = sc.spawn(|| self.embed_windows(&smels, a));
                let eb = self.embed_windows(&smels, b);
                (ha.join().unwrap_or_default(), eb)
            });
            let mut e = ea;
            e.extend(eb);
            e
        } else {
            self.embed_windows(&smels, &windows)
        };
        Prepared { frames: n, speech, windows, emb: cluster::centre(&raw) }
    }

    /// Clustering and resegmentation of prepared embeddings under options `o` (its VAD and
    /// window settings are ignored: they were used by [`prepare`](Ge2eDiarizer::prepare)).
    pub fn assign(&self, p: &Prepared, o: &DiarizeOptions) -> Diarization {
        let method = self.describe();
        let (emb, windows, speech) = (&p.emb, &p.windows, &p.speech);
        if speech.is_empty() || emb.len() != windows.len() {
            return Diarization { annotation: Annotation::default(), speakers: 0, method };
        }
        let n = p.frames;
        let sn = speech.len();
        // Cluster (a subsample when long), then assign every window to the nearest centroid.
        let stride = emb.len().div_ceil(o.max_cluster_windows.max(2));
        let sample: Vec<Vec<f32>> = emb.iter().step_by(stride).cloned().collect();
        let labels = cluster::ahc(&sample, o.threshold, o.count);
        let mut k = labels.iter().max().map_or(1, |m| m + 1);
        let mut cents = cluster::centroids(&sample, &labels, k);
        if o.count.exact.is_none() && k > o.count.min.max(1) {
            // Drop tiny clusters (outlier windows), keeping at least the minimum count.
            let mut sizes = vec![0usize; k];
            labels.iter().for_each(|&l| sizes[l] += 1);
            let min = (o.min_cluster_fraction * sample.len() as f32).ceil() as usize;
            let mut keep: Vec<usize> = (0..k).filter(|&c| sizes[c] >= min.max(2)).collect();
            if keep.len() < o.count.min.max(1) {
                let mut by_size: Vec<usize> = (0..k).collect();
                by_size.sort_by_key(|&c| (std::cmp::Reverse(sizes[c]), c));
                keep = by_size[..o.count.min.max(1).min(k)].to_vec();
                keep.sort_unstable();
            }
            cents = keep.iter().map(|&c| cents[c].clone()).collect();
            k = cents.len();
        }

        // Resegmentation rounds.
        let mut frame_labels = vec![0usize; sn];
        for _ in 0..o.rounds.max(1) {
            let sims: Vec<Vec<f32>> =
                emb.iter().map(|e| cents.iter().map(|c| embed::cosine(e, c)).collect()).collect();
            let scores = reseg::frame_scores(windows, &sims, sn, k);
            frame_labels = reseg::viterbi(&scores, o.switch_cost);
            // Re-estimate centroids from the windows whose centre frame carries each label.
            let wl: Vec<usize> =
                windows.iter().map(|&(f, l)| frame_labels[(f + l / 2).min(sn - 1)]).collect();
            let new = cluster::centroids(emb, &wl, k);
            for (c, nc) in cents.iter_mut().zip(new) {
                if nc.iter().any(|v| *v != 0.0) {
                    *c = nc;
                }
            }
        }
        let mut labels: Vec<Option<usize>> = vec![None; n];
        for (p, &f) in speech.iter().enumerate() {
            labels[f] = Some(frame_labels[p]);
        }
        let (annotation, speakers) = annotation_from_labels(&labels);
        Diarization { annotation, speakers, method }
    }
}

/// The naive baseline: 1.6 s windows every 0.77 s on the raw timeline (not only speech),
/// spherical k-means with a given number of speakers, and each speech frame labelled by the
/// window whose centre is nearest. Kept to measure what the full pipeline gains.
pub struct NaiveDiarizer {
    weights: Ge2eWeights,
    front: MelFrontEnd,
    /// Number of speakers (the baseline does not estimate it).
    pub speakers: usize,
    /// The voice activity detector.
    pub vad: VadKind,
}

impl std::fmt::Debug for NaiveDiarizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NaiveDiarizer").field("speakers", &self.speakers).finish()
    }
}

impl NaiveDiarizer {
    /// The baseline with loaded weights.
    pub fn new(weights: Ge2eWeights, speakers: usize) -> NaiveDiarizer {
        NaiveDiarizer { weights, front: MelFrontEnd::new(), speakers, vad: VadKind::Earshot }
    }
}

impl Diarizer for NaiveDiarizer {
    fn describe(&self) -> String {
        format!("naive (1.6 s windows every 0.77 s, k-means k={})", self.speakers)
    }

    fn diarize(&self, samples: &[f32]) -> Result<Diarization> {
        let mut x = samples.to_vec();
        embed::normalize_volume(&mut x);
        let mels = self.front.frames(&x);
        let n = mels.len();
        let mask = speech_mask(samples, self.vad, &Binarize::default(), n);
        let windows = place_windows(n, WINDOW_FRAMES, 77);
        // Only windows that contain some speech are clustered.
        let used: Vec<(usize, usize)> = windows
            .into_iter()
            .filter(|&(f, l)| mask[f..f + l].iter().filter(|&&m| m).count() * 4 >= l)
            .collect();
        let method = self.describe();
        if used.is_empty() {
            return Ok(Diarization { annotation: Annotation::default(), speakers: 0, method });
        }
        let mut emb = Vec::new();
        for chunk in used.chunks(32) {
            let views: Vec<&[[f32; N_MELS]]> =
                chunk.iter().map(|&(f, l)| &mels[f..f + l]).collect();
            emb.extend(self.weights.embed(&views));
        }
        let wl = cluster::kmeans(&emb, self.speakers.max(1));
        let centres: Vec<usize> = used.iter().map(|&(f, l)| f + l / 2).collect();
        let mut labels: Vec<Option<usize>> = vec![None; n];
        let mut w = 0;
        for (f, l) in labels.iter_mut().enumerate() {
            if !mask[f] {
                continue;
            }
            while w + 1 < centres.len() && centres[w + 1].abs_diff(f) <= centres[w].abs_diff(f) {
                w += 1;
            }
            *l = Some(wl[w]);
        }
        let (annotation, speakers) = annotation_from_labels(&labels);
        Ok(Diarization { annotation, speakers, method })
    }
}

/// The model-free fallback: all detected speech is attributed to one speaker.
#[derive(Clone, Copy, Debug, Default)]
pub struct VadOnlyDiarizer {
    /// The voice activity detector.
    pub vad: VadKind,
    /// Its binarization.
    pub binarize: Binarize,
}

impl Diarizer for VadOnlyDiarizer {
    fn describe(&self) -> String {
        format!("vad-only fallback ({}; one speaker; no speaker model)", self.vad.name())
    }

    fn diarize(&self, samples: &[f32]) -> Result<Diarization> {
        let region = vad::speech_region(self.vad.build(), samples, &self.binarize);
        let mut b = AnnotationBuilder::new();
        for s in region.iter() {
            b.add(*s, "SPK00");
        }
        let annotation = b.build();
        let speakers = usize::from(!annotation.is_empty());
        Ok(Diarization { annotation, speakers, method: self.describe() })
    }
}

/// Duration of `samples` at 16 kHz.
pub fn signal_duration(samples: &[f32]) -> Delta {
    crate::decode::frames_to_delta(samples.len() as u64, crate::resample::ANALYSIS_RATE)
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

    #[test]
    fn labels_become_segments_named_by_first_appearance() {
        let l = [None, Some(3), Some(3), Some(1), None, Some(3)];
        let (a, k) = annotation_from_labels(&l);
        assert_eq!(k, 2);
        let got: Vec<(i64, i64, &str)> = a
            .tracks()
            .iter()
            .map(|t| (t.segment.start().0, t.segment.end().0, a.speaker_name(t.speaker)))
            .collect();
        assert_eq!(
            got,
            vec![(10_000, 30_000, "SPK00"), (30_000, 40_000, "SPK01"), (50_000, 60_000, "SPK00")]
        );
    }

    #[test]
    fn vad_only_on_silence_is_empty() {
        let d = VadOnlyDiarizer::default().diarize(&vec![0.0; 16_000]).unwrap();
        assert_eq!(d.speakers, 0);
        assert!(d.annotation.is_empty());
    }
}
