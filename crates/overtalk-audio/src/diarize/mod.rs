//! Who spoke when from one mixed recording, fully offline.
//!
//! ```text
//! 16 kHz mono blocks ─► FeatureStream (VAD probabilities + encoder front end; no signal kept)
//!            ─► speech frames ─► 1.6 s windows over speech only (step 0.2 s)
//!            ─► embeddings (WindowEmbedder, all cores) ─► centre ─► AHC (threshold or
//!               --speakers) ─► drop speakers under 4 s or 10 % of windows ─► centroids
//!            ─► [optional speaker change points (DiarizeOptions::change): windows that
//!               cross one weigh less, switching is cheap near one]
//!            ─► per-frame scores ─► Viterbi with switch cost ─► re-estimate centroids (×2)
//!            ─► [optional second speaker per frame]
//!            ─► [with a second VAD (DiarizeOptions::vad_fuse): output speech where the mean of
//!               both passes its onset, each frame labelled as the nearest clustered frame]
//!            ─► Annotation (SPK00, SPK01, …)
//! ```
//!
//! | type | what it does |
//! | --- | --- |
//! | [`Ge2eDiarizer`] | the pipeline above, with GE2E or any other [`WindowEmbedder`] |
//! | [`NaiveDiarizer`] | baseline: 1.6 s windows every 0.77 s on the raw timeline, k-means, nearest window |
//! | [`VadOnlyDiarizer`] | model-free fallback: all speech is one speaker |
//!
//! Every [`Diarizer`] is deterministic for a given input, whatever the number of threads and
//! however the signal is split into blocks. By default overlapping speech is not modelled:
//! each speech frame gets exactly one speaker ([`DiarizeOptions::overlap_margin`] adds a
//! second one; measured, it does not lower DER on the evaluation sets).

pub mod change;
pub mod cluster;
pub mod embed;
pub mod models;
#[cfg(feature = "onnx")]
pub mod onnx_embed;
pub mod pyannote;
pub mod refine;
pub mod remerge;
pub mod reseg;
pub mod turn_metrics;

use std::collections::BTreeSet;

use overtalk::{Annotation, AnnotationBuilder, CropMode, Delta, Region, Result, Segment, Time};

use crate::frames::Binarize;
use crate::vad::{VadKind, VadRunner};
use change::ChangeOptions;
use cluster::SpeakerCount;
use embed::{Ge2eWeights, MelStream, N_MELS, WINDOW_FRAMES};

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

impl Diarization {
    /// A diarization of a signal lasting `duration`, cut back to it: the diarizers work in
    /// whole 10 ms frames (VAD frames can be longer), and the last one can reach past the end.
    ///
    /// ```text
    /// signal   |=========================|
    /// frames   |----|----|----|----|----|----|
    /// speech        [=======================)     → [====================)
    /// ```
    ///
    /// `speakers` counts the speakers left with speech.
    fn within(annotation: Annotation, duration: Delta, method: String) -> Diarization {
        let signal = Segment::new(Time(0), Time(duration.0)).map(Region::from_segment);
        let annotation = match signal {
            Some(r) => annotation.crop(&r, CropMode::Intersection),
            None => Annotation::default(),
        };
        let speakers = annotation.tracks().iter().map(|t| t.speaker).collect::<BTreeSet<_>>().len();
        Diarization { annotation, speakers, method }
    }
}

/// Turns a 16 kHz mono signal into who spoke when.
///
/// The signal may be fed block by block ([`stream`](Diarizer::stream), then
/// [`FeatureStream::push`] and [`finish`](Diarizer::finish)): only the features are kept, never
/// the signal, so memory stays at the features' size (58 MB of mel frames per hour for GE2E).
pub trait Diarizer {
    /// A short description with the parameters that matter.
    fn describe(&self) -> String;
    /// A stream that computes this diarizer's features.
    fn stream(&self) -> FeatureStream;
    /// Diarizes the features of a whole recording.
    fn finish(&self, features: Features) -> Result<Diarization>;
    /// [`finish`](Diarizer::finish), telling `progress` the share (0 to 1) of its costly part
    /// done as it goes, so a long recording shows a percentage rather than a spinner alone.
    /// Called from any thread. Without an override, `finish` with no progress.
    fn finish_with_progress(
        &self,
        features: Features,
        progress: &(dyn Fn(f64) + Sync),
    ) -> Result<Diarization> {
        let _ = progress;
        self.finish(features)
    }
    /// Diarizes a whole 16 kHz mono signal.
    fn diarize(&self, samples: &[f32]) -> Result<Diarization> {
        let mut s = self.stream();
        s.push(samples);
        self.finish(s.finish())
    }
}

/// Per-frame features computed as the signal streams in (the plug point for a speaker
/// encoder's own front end).
pub trait FrontEnd: Send {
    /// Values per 10 ms frame.
    fn dim(&self) -> usize;
    /// Feeds 16 kHz samples; completed frames are appended to `out`, `dim` values each.
    fn push(&mut self, samples: &[f32], out: &mut Vec<f32>);
    /// Completes the last frames; may rescale all of `out` (whole-signal normalisation).
    fn finish(&mut self, out: &mut Vec<f32>);
}

impl FrontEnd for MelStream {
    fn dim(&self) -> usize {
        N_MELS
    }
    fn push(&mut self, samples: &[f32], out: &mut Vec<f32>) {
        MelStream::push(self, samples, out);
    }
    fn finish(&mut self, out: &mut Vec<f32>) {
        MelStream::finish(self, out);
    }
}

/// A speaker encoder: its front end, and embeddings of windows of front-end frames. The
/// pipeline sees only this trait, so another encoder can be plugged in beside GE2E.
pub trait WindowEmbedder: Send + Sync {
    /// A short name for [`Diarizer::describe`].
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

/// Features of a whole recording: front-end frames and voice activity probabilities.
#[derive(Clone, Debug, Default)]
pub struct Features {
    /// Values per front-end frame (0 when there is no front end).
    pub dim: usize,
    /// Front-end frames (10 ms), `dim` values each.
    pub data: Vec<f32>,
    /// Voice activity probabilities, one per VAD frame.
    pub probs: Vec<f32>,
    /// With a second detector ([`FeatureStream::with_vads`]): the mean of both detectors'
    /// probabilities, one per frame of the first; empty otherwise.
    pub fused: Vec<f32>,
    /// The VAD frame hop.
    pub hop: Delta,
    /// Samples seen (16 kHz).
    pub samples: u64,
}

impl Features {
    /// Number of 10 ms analysis frames (`1 + samples / 160`).
    pub fn frames(&self) -> usize {
        1 + (self.samples / 160) as usize
    }

    /// Duration of the signal.
    pub fn duration(&self) -> Delta {
        crate::decode::frames_to_delta(self.samples, crate::resample::ANALYSIS_RATE)
    }

    /// The speech frames (10 ms) according to the VAD and `binarize`.
    fn speech_mask(&self, binarize: &Binarize) -> Vec<bool> {
        region_mask(&binarize.apply(self.probs.iter().copied(), self.hop), self.frames())
    }
}

/// Computes [`Features`] block by block: the signal itself is not kept.
pub struct FeatureStream {
    front: Option<Box<dyn FrontEnd>>,
    vad: VadRunner,
    /// A second detector and its probabilities; their mean with the first's becomes
    /// [`Features::fused`] at the end.
    second: Option<(VadRunner, Vec<f32>)>,
    features: Features,
}

impl std::fmt::Debug for FeatureStream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FeatureStream").field("samples", &self.features.samples).finish()
    }
}

impl FeatureStream {
    /// A stream with an optional front end and a VAD.
    pub fn new(front: Option<Box<dyn FrontEnd>>, vad: VadKind) -> FeatureStream {
        FeatureStream::with_vads(front, vad, None)
    }

    /// A stream with a second detector: [`Features::fused`] is the mean of the two detectors'
    /// probabilities (`second` is read on the first one's frame grid: each frame takes the
    /// second detector's frame that contains its centre); [`Features::probs`] stays the
    /// first's.
    ///
    /// ```text
    /// first   |  16 ms |  16 ms |  16 ms |  16 ms |   p = (p1 + p2) / 2
    /// second  |      32 ms      |      32 ms      |
    /// ```
    pub fn with_vads(
        front: Option<Box<dyn FrontEnd>>,
        vad: VadKind,
        second: Option<VadKind>,
    ) -> FeatureStream {
        let vad = VadRunner::new(vad.build());
        let features = Features {
            dim: front.as_ref().map_or(0, |f| f.dim()),
            hop: vad.hop(),
            ..Features::default()
        };
        let second = second.map(|k| (VadRunner::new(k.build()), Vec::new()));
        FeatureStream { front, vad, second, features }
    }

    /// Feeds 16 kHz mono samples (any block size).
    pub fn push(&mut self, samples: &[f32]) {
        let f = &mut self.features;
        if let Some(front) = &mut self.front {
            front.push(samples, &mut f.data);
        }
        self.vad.push(samples, &mut |p| f.probs.push(p));
        if let Some((v, probs)) = &mut self.second {
            v.push(samples, &mut |p| probs.push(p));
        }
        f.samples += samples.len() as u64;
    }

    /// Completes the features.
    pub fn finish(mut self) -> Features {
        let f = &mut self.features;
        if let Some(front) = &mut self.front {
            front.finish(&mut f.data);
        }
        self.vad.finish(&mut |p| f.probs.push(p));
        if let Some((mut v, mut probs)) = self.second.take() {
            v.finish(&mut |p| probs.push(p));
            let (h1, h2) = (f.hop.0.max(1), v.hop().0.max(1));
            f.fused = f
                .probs
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let j = ((i as i64 * h1 + h1 / 2) / h2) as usize;
                    let last = probs.len().saturating_sub(1);
                    0.5 * (p + probs.get(j.min(last)).copied().unwrap_or(0.0))
                })
                .collect();
        }
        let n = f.frames() * f.dim;
        f.data.resize(n, 0.0);
        f.data.shrink_to_fit();
        self.features
    }
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

/// An annotation from the labels of 10 ms frames: each frame has a primary speaker (or none)
/// and optionally a second one (overlap).
fn annotation_from_labels(labels: &[Option<usize>]) -> (Annotation, usize) {
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
fn annotation_from_layers(
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
            if let Some(seg) = Segment::new(Time(i as i64 * FRAME_US), Time(j as i64 * FRAME_US)) {
                b.add(seg, &name);
            }
            i = j;
        }
    }
    (b.build(), order.len())
}

/// Options of [`Ge2eDiarizer`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DiarizeOptions {
    /// The voice activity detector.
    pub vad: VadKind,
    /// A second detector. When set, the windows are still placed over the first detector's
    /// speech (with `binarize`), but the speech that is labelled in the output is where the
    /// mean of the two detectors' probabilities passes `fuse_binarize`; each such frame takes
    /// the speaker of the nearest clustered speech frame. `None`: the first detector alone.
    pub vad_fuse: Option<VadKind>,
    /// The binarization of the two detectors' mean (used only with `vad_fuse`).
    pub fuse_binarize: Binarize,
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
    /// Clusters whose windows cover less than this much distinct speech (seconds: windows ×
    /// step) are merged likewise (automatic count only). It matters on short recordings, where
    /// the fraction above is only a few seconds.
    pub min_speaker_speech: f32,
    /// Resegmentation rounds (centroids re-estimated from the frame labels).
    pub rounds: usize,
    /// At most this many windows enter the O(n²) clustering; the rest are assigned to the
    /// nearest centroid.
    pub max_cluster_windows: usize,
    /// Overlap: a frame also gets its second-best speaker when that speaker's score is within
    /// this margin of the best one (and the frame is confidently speech). `None`: one speaker
    /// per frame.
    pub overlap_margin: Option<f32>,
    /// Speaker change points ([`change`]): found on the window embeddings, they make the
    /// resegmentation change-aware — where a window that crosses no change point covers a
    /// frame, the windows that cross one count [`ChangeOptions::cross_weight`] of their weight
    /// in its score, and the Viterbi switch cost is [`ChangeOptions::switch_cost`] near a
    /// change point instead of `switch_cost`. `None` (the default): no change points; measured,
    /// they do not lower DER on every tuning set (docs/diarization.md).
    pub change: Option<ChangeOptions>,
    /// Boundary refinement at 10 ms after the resegmentation ([`refine`]): changes move onto
    /// the pause between turns (kept as silence) or the crossing of the two speakers' scores,
    /// and no segment is shorter than [`refine::RefineOptions::min_segment`]. `None`: the
    /// Viterbi labels as they are.
    pub refine: Option<refine::RefineOptions>,
    /// After the small clusters are dropped, two speakers whose centroids are closer than
    /// this ratio times their mean spread are merged ([`remerge`]; automatic count only).
    /// `None`: no such merge.
    pub merge_ratio: Option<f32>,
}

impl Default for DiarizeOptions {
    fn default() -> DiarizeOptions {
        DiarizeOptions {
            vad: VadKind::Earshot,
            vad_fuse: None,
            fuse_binarize: Binarize::default(),
            binarize: Binarize::default(),
            step: 20,
            window: WINDOW_FRAMES,
            threshold: 0.9,
            count: SpeakerCount::default(),
            switch_cost: 4.0,
            min_cluster_fraction: 0.1,
            min_speaker_speech: 4.0,
            rounds: 2,
            max_cluster_windows: 2000,
            overlap_margin: None,
            change: None,
            refine: Some(refine::RefineOptions::default()),
            merge_ratio: None,
        }
    }
}

impl DiarizeOptions {
    /// The options of the earshot + Silero profile: the windows and the clustering are those
    /// of the defaults (earshot at onset 0.5), and the speech labelled in the output is where
    /// the mean of earshot's and Silero's probabilities passes onset 0.3 / offset 0.21
    /// ([`DiarizeOptions::vad_fuse`]). Silero rejects loud non-speech that earshot takes for
    /// speech; earshot keeps far-field speech that Silero misses. Keeping the clustering on
    /// earshot's speech keeps the speaker count as tuned (measured in docs/diarization.md).
    ///
    /// ```text
    /// earshot ≥ 0.5   ──► windows, embeddings, clustering, frame labels
    /// (earshot + Silero) / 2 ≥ 0.3 ──► which frames are speech in the output;
    ///                                  each takes the label of the nearest labelled frame
    /// ```
    #[cfg(feature = "onnx")]
    pub fn earshot_silero() -> DiarizeOptions {
        DiarizeOptions {
            vad_fuse: Some(VadKind::Silero),
            fuse_binarize: Binarize { onset: 0.3, offset: 0.21, ..Binarize::default() },
            ..DiarizeOptions::default()
        }
    }

    /// The best options this build and installation offer: `DiarizeOptions::earshot_silero()`
    /// when the build has the `onnx` feature and the Silero model loads (installed by
    /// `overtalk models install silero`, or chosen with `vad::silero::use_model`), else the
    /// defaults (earshot alone). The choice shows in [`Diarizer::describe`].
    pub fn preferred() -> DiarizeOptions {
        #[cfg(feature = "onnx")]
        if crate::vad::silero::shared_model().is_ok() {
            return DiarizeOptions::earshot_silero();
        }
        DiarizeOptions::default()
    }
}

/// The embedding pipeline (see the module documentation), with any [`WindowEmbedder`].
pub struct Ge2eDiarizer {
    embedder: Box<dyn WindowEmbedder>,
    /// The options.
    pub options: DiarizeOptions,
}

impl std::fmt::Debug for Ge2eDiarizer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ge2eDiarizer").field("options", &self.options).finish()
    }
}

impl Ge2eDiarizer {
    /// A diarizer with loaded GE2E weights; `model` names them in [`Diarizer::describe`].
    pub fn new(
        weights: Ge2eWeights,
        model: impl Into<String>,
        options: DiarizeOptions,
    ) -> Ge2eDiarizer {
        Ge2eDiarizer::with_embedder(Box::new(Ge2eEmbedder::new(weights, model)), options)
    }

    /// A diarizer with any speaker encoder.
    pub fn with_embedder(
        embedder: Box<dyn WindowEmbedder>,
        options: DiarizeOptions,
    ) -> Ge2eDiarizer {
        Ge2eDiarizer { embedder, options }
    }

    /// Loads the converted encoder from a file. It is named by its file name in
    /// [`Diarizer::describe`]: the description goes into reports and JSON that are shared, where
    /// an absolute path would say where the model sits on one machine (a home directory) and
    /// nothing about the model.
    pub fn from_file(path: &std::path::Path, options: DiarizeOptions) -> Result<Ge2eDiarizer> {
        let w = Ge2eWeights::load(path)?;
        let name = path
            .file_name()
            .map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        Ok(Ge2eDiarizer::new(w, name, options))
    }
}

/// Embeds windows `(first, len)` of the frames in `data` (`dim` values per frame).
///
/// Windows go in fixed batches of 32 (split further by length), and the batches are shared
/// among the available cores in a fixed interleave, so the result does not depend on the
/// number of threads.
fn embed_windows(
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

/// Moves frame labels onto another speech mask: a frame of `mask` takes the label of the
/// nearest labelled frame (the earlier one on a tie); frames outside `mask` get none.
///
/// ```text
/// labels  . A A . . B B . .
/// mask    . . x x x x . . x
/// result  . . A A B B . . B
/// ```
fn relabel_to(labels: &[Option<usize>], mask: &[bool]) -> Vec<Option<usize>> {
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
        self.describe_with(&self.options)
    }

    fn stream(&self) -> FeatureStream {
        let o = &self.options;
        FeatureStream::with_vads(Some(self.embedder.front_end()), o.vad, o.vad_fuse)
    }

    fn finish(&self, features: Features) -> Result<Diarization> {
        self.finish_with_progress(features, &|_| {})
    }

    /// Progress is that of embedding the windows, by far the longest step.
    fn finish_with_progress(
        &self,
        features: Features,
        progress: &(dyn Fn(f64) + Sync),
    ) -> Result<Diarization> {
        let prepared = self.prepare_features_with_progress(features, progress)?;
        Ok(self.assign(&prepared, &self.options))
    }
}

impl Ge2eDiarizer {
    /// The method and parameters of [`assign`](Ge2eDiarizer::assign) with options `o`: the
    /// voice activity and windows are those [`prepare`](Ge2eDiarizer::prepare) used
    /// (`self.options`), the rest is `o`.
    fn describe_with(&self, o: &DiarizeOptions) -> String {
        let p = &self.options;
        format!(
            "ge2e ({}; vad {}; window {} ms, step {} ms; ahc threshold {}; speaker ≥ {} s and ≥ {} % of windows; switch cost {}; speakers {}; overlap {}; change points {}; boundaries {}; merge {})",
            self.embedder.name(),
            match o.vad_fuse {
                Some(k) => format!(
                    "{}, output speech where the mean of {} and {} ≥ {}",
                    p.vad.name(),
                    p.vad.name(),
                    k.name(),
                    o.fuse_binarize.onset
                ),
                None => p.vad.name().to_owned(),
            },
            p.window * 10,
            p.step * 10,
            o.threshold,
            o.min_speaker_speech,
            o.min_cluster_fraction * 100.0,
            o.switch_cost,
            match o.count.exact {
                Some(k) => k.to_string(),
                None => format!("{}..{}", o.count.min, o.count.max),
            },
            match o.overlap_margin {
                Some(m) => format!("margin {m}"),
                None => "off".to_owned(),
            },
            match o.change {
                Some(c) => format!(
                    "distance ≥ {} at least {} ms apart, switch cost {} within {} ms, segment weight {}, crossing windows weight {}",
                    c.threshold,
                    c.min_spacing * 10,
                    c.switch_cost,
                    c.tolerance * 10,
                    c.segment_weight,
                    c.cross_weight
                ),
                None => "off".to_owned(),
            },
            match o.refine {
                Some(r) => format!(
                    "refined on pauses (probability < {} for ≥ {} ms, ±{} ms) or score crossings, segments ≥ {} ms",
                    r.valley,
                    r.min_pause * 10,
                    r.window * 10,
                    r.min_segment * 10
                ),
                None => "as resegmented".to_owned(),
            },
            match o.merge_ratio {
                Some(r) => format!("centroids closer than {r} × spread"),
                None => "off".to_owned(),
            }
        )
    }
}

/// The expensive, option-independent half of [`Ge2eDiarizer`]: speech frames and window
/// embeddings. [`Ge2eDiarizer::assign`] turns it into a diarization for any clustering options.
#[derive(Clone, Debug)]
pub struct Prepared {
    /// Frames (10 ms) in the signal.
    frames: usize,
    /// Duration of the signal.
    duration: Delta,
    /// Indices of the speech frames.
    speech: Vec<usize>,
    /// VAD probability of each speech frame.
    vad: Vec<f32>,
    /// Windows `(first, len)` over the speech-frame sequence.
    windows: Vec<(usize, usize)>,
    /// Mean-centred, normalised window embeddings.
    emb: Vec<Vec<f32>>,
    /// The embeddings as the encoder gave them (normalised, not centred).
    raw: Vec<Vec<f32>>,
    /// With a second detector: the two detectors' mean probability (see [`Features::fused`])
    /// and its frame hop.
    fused: (Vec<f32>, Delta),
}

impl Prepared {
    /// Number of embedding windows.
    pub fn windows(&self) -> usize {
        self.windows.len()
    }

    /// Number of speech frames (10 ms).
    pub fn speech_frames(&self) -> usize {
        self.speech.len()
    }

    /// The speech frames: the index in the signal (10 ms frames) of each frame of the
    /// speech-frame sequence the windows are placed on.
    pub fn speech(&self) -> &[usize] {
        &self.speech
    }

    /// The windows `(first, len)` over the speech-frame sequence, one per embedding.
    pub fn spans(&self) -> &[(usize, usize)] {
        &self.windows
    }

    /// The mean-centred window embeddings (what the clustering sees).
    pub fn centred(&self) -> &[Vec<f32>] {
        &self.emb
    }

    /// The window embeddings as the encoder gave them.
    pub fn raw(&self) -> &[Vec<f32>] {
        &self.raw
    }
}

impl Ge2eDiarizer {
    /// VAD, features and window embeddings of a whole signal (the costly part), with
    /// `self.options`' VAD and window settings.
    pub fn prepare(&self, samples: &[f32]) -> Result<Prepared> {
        let mut s = self.stream();
        s.push(samples);
        self.prepare_features(s.finish())
    }

    /// [`prepare`](Ge2eDiarizer::prepare) from streamed features. Only the speech frames'
    /// features are kept (compacted in place) while the windows are embedded.
    pub fn prepare_features(&self, f: Features) -> Result<Prepared> {
        self.prepare_features_with_progress(f, &|_| {})
    }

    /// [`prepare_features`](Ge2eDiarizer::prepare_features), telling `progress` the share of
    /// the windows embedded (0 to 1) as it goes.
    pub fn prepare_features_with_progress(
        &self,
        mut f: Features,
        progress: &(dyn Fn(f64) + Sync),
    ) -> Result<Prepared> {
        let o = &self.options;
        let (n, duration) = (f.frames(), f.duration());
        let mask = f.speech_mask(&o.binarize);
        let speech: Vec<usize> = (0..n).filter(|&i| mask[i]).collect();
        let hop = f.hop.0.max(1);
        let vad: Vec<f32> = speech
            .iter()
            .map(|&i| {
                let v = ((i as i64 * FRAME_US + FRAME_US / 2) / hop) as usize;
                f.probs.get(v.min(f.probs.len().saturating_sub(1))).copied().unwrap_or(0.0)
            })
            .collect();
        // Features of speech frames only, so windows never contain silence.
        let d = f.dim;
        for (k, &i) in speech.iter().enumerate() {
            if k != i && (i + 1) * d <= f.data.len() {
                f.data.copy_within(i * d..(i + 1) * d, k * d);
            }
        }
        f.data.truncate(speech.len() * d);
        let wmax = self.embedder.window_frames().max(10);
        let windows = place_windows(speech.len(), o.window.clamp(10, wmax), o.step);
        let raw = embed_windows(&*self.embedder, &f.data, d, &windows, progress)?;
        let emb = cluster::centre(&raw);
        let fused = (std::mem::take(&mut f.fused), f.hop);
        Ok(Prepared { frames: n, duration, speech, vad, windows, emb, raw, fused })
    }

    /// Clustering and resegmentation of prepared embeddings under options `o` (its VAD and
    /// window settings are ignored: they were used by [`prepare`](Ge2eDiarizer::prepare)).
    pub fn assign(&self, p: &Prepared, o: &DiarizeOptions) -> Diarization {
        let method = self.describe_with(o);
        let (emb, windows, speech) = (&p.emb, &p.windows, &p.speech);
        if speech.is_empty() || emb.len() != windows.len() || emb.is_empty() {
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
            let by_fraction = (o.min_cluster_fraction * sample.len() as f32).ceil() as usize;
            // Each sampled window stands for `stride × step` frames of distinct speech.
            let per_window = (stride * o.step.max(1)) as f32 / 100.0;
            let by_speech = (o.min_speaker_speech.max(0.0) / per_window).ceil() as usize;
            let min = by_fraction.max(by_speech);
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
        if let (Some(r), None) = (o.merge_ratio, o.count.exact) {
            cents = remerge::merge_close(&sample, cents, r, o.count.min.max(1));
            k = cents.len();
        }

        // Speaker change points, and the switch cost they give each frame.
        let changes = match &o.change {
            Some(c) => change::change_points(windows, emb, c),
            None => Vec::new(),
        };
        let costs = match &o.change {
            Some(c) => reseg::switch_costs(sn, &changes, c.switch_cost, o.switch_cost, c.tolerance),
            None => Vec::new(),
        };
        let cross = o.change.map_or(1.0, |c| c.cross_weight);
        // Resegmentation rounds.
        let mut frame_labels = vec![0usize; sn];
        let mut scores = Vec::new();
        for _ in 0..o.rounds.max(1) {
            let sims: Vec<Vec<f32>> =
                emb.iter().map(|e| cents.iter().map(|c| embed::cosine(e, c)).collect()).collect();
            scores = reseg::frame_scores_within(windows, &sims, sn, k, &changes, cross);
            if let Some(c) = &o.change {
                reseg::pull_to_segments(&mut scores, &changes, c.segment_weight);
            }
            frame_labels =
                reseg::viterbi_with(&scores, |t| costs.get(t).copied().unwrap_or(o.switch_cost));
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
        let second = match o.overlap_margin {
            Some(m) if k > 1 => reseg::second_speaker(&scores, &frame_labels, &p.vad, m),
            _ => Vec::new(),
        };
        let refined: Vec<Option<usize>> = match &o.refine {
            Some(r) => refine::refine(speech, &p.vad, &frame_labels, &scores, r),
            None => frame_labels.iter().copied().map(Some).collect(),
        };
        let mut labels: Vec<Option<usize>> = vec![None; n];
        let mut labels2: Vec<Option<usize>> = vec![None; if second.is_empty() { 0 } else { n }];
        for (q, &f) in speech.iter().enumerate() {
            labels[f] = refined.get(q).copied().flatten();
            if let Some(s) = second.get(q).filter(|_| labels[f].is_some()) {
                labels2[f] = *s;
            }
        }
        if o.vad_fuse.is_some() && !p.fused.0.is_empty() {
            let (probs, hop) = &p.fused;
            let out = region_mask(&o.fuse_binarize.apply(probs.iter().copied(), *hop), n);
            labels = relabel_to(&labels, &out);
            // Pauses the refinement made silent stay silent.
            for (q, &f) in speech.iter().enumerate() {
                if refined.get(q).is_some_and(|l| l.is_none()) {
                    labels[f] = None;
                }
            }
            for (l, &keep) in labels2.iter_mut().zip(&out) {
                if !keep {
                    *l = None;
                }
            }
        }
        let (annotation, _) = annotation_from_layers(&labels, &labels2);
        Diarization::within(annotation, p.duration, method)
    }
}

/// The naive baseline: 1.6 s windows every 0.77 s on the raw timeline (not only speech),
/// spherical k-means with a given number of speakers, and each speech frame labelled by the
/// window whose centre is nearest. Kept to measure what the full pipeline gains.
pub struct NaiveDiarizer {
    weights: Ge2eWeights,
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
        NaiveDiarizer { weights, speakers, vad: VadKind::Earshot }
    }
}

impl Diarizer for NaiveDiarizer {
    fn describe(&self) -> String {
        format!("naive (1.6 s windows every 0.77 s, k-means k={})", self.speakers)
    }

    fn stream(&self) -> FeatureStream {
        FeatureStream::new(Some(Box::new(MelStream::new())), self.vad)
    }

    fn finish(&self, f: Features) -> Result<Diarization> {
        let n = f.frames();
        let mask = f.speech_mask(&Binarize::default());
        let windows = place_windows(n, WINDOW_FRAMES, 77);
        // Only windows that contain some speech are clustered.
        let used: Vec<(usize, usize)> = windows
            .into_iter()
            .filter(|&(s, l)| mask[s..s + l].iter().filter(|&&m| m).count() * 4 >= l)
            .collect();
        let method = self.describe();
        if used.is_empty() {
            return Ok(Diarization { annotation: Annotation::default(), speakers: 0, method });
        }
        let mut emb = Vec::new();
        for chunk in used.chunks(32) {
            let views: Vec<&[f32]> = chunk
                .iter()
                .map(|&(s, l)| f.data.get(s * N_MELS..(s + l) * N_MELS).unwrap_or(&[]))
                .collect();
            emb.extend(self.weights.embed_flat(&views));
        }
        let wl = cluster::kmeans(&emb, self.speakers.max(1));
        let centres: Vec<usize> = used.iter().map(|&(s, l)| s + l / 2).collect();
        let mut labels: Vec<Option<usize>> = vec![None; n];
        let mut w = 0;
        for (fr, l) in labels.iter_mut().enumerate() {
            if !mask[fr] {
                continue;
            }
            while w + 1 < centres.len() && centres[w + 1].abs_diff(fr) <= centres[w].abs_diff(fr) {
                w += 1;
            }
            *l = Some(wl[w]);
        }
        let (annotation, _) = annotation_from_labels(&labels);
        Ok(Diarization::within(annotation, f.duration(), method))
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

    fn stream(&self) -> FeatureStream {
        FeatureStream::new(None, self.vad)
    }

    fn finish(&self, f: Features) -> Result<Diarization> {
        let region = self.binarize.apply(f.probs.iter().copied(), f.hop);
        let mut b = AnnotationBuilder::new();
        for s in region.iter() {
            b.add(*s, "SPK00");
        }
        Ok(Diarization::within(b.build(), f.duration(), self.describe()))
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
                    t.segment.start().0 / FRAME_US,
                    t.segment.end().0 / FRAME_US,
                    a.speaker_name(t.speaker),
                )
            })
            .collect();
        assert_eq!(got, vec![(0, 4, "SPK00"), (2, 6, "SPK01"), (7, 8, "SPK00")]);
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

    /// An embedder whose frames carry a speaker number (dim 1): a window embeds as the one-hot
    /// vector of its rounded mean.
    struct OneHot;
    impl WindowEmbedder for OneHot {
        fn name(&self) -> String {
            "one-hot".into()
        }
        fn front_end(&self) -> Box<dyn FrontEnd> {
            Box::new(MelStream::new())
        }
        fn window_frames(&self) -> usize {
            160
        }
        fn embed(&self, windows: &[&[f32]]) -> Result<Vec<Vec<f32>>> {
            Ok(windows
                .iter()
                .map(|w| {
                    let m = (w.iter().sum::<f32>() / w.len().max(1) as f32).round() as usize;
                    (0..4).map(|k| if k == m { 1.0 } else { 0.0 }).collect()
                })
                .collect())
        }
    }

    #[test]
    fn a_speaker_needs_enough_speech() {
        // 20 s of speech: speaker 0 for 10 s, speaker 1 for 7 s, speaker 2 for 3 s.
        let ids: Vec<f32> = (0..2000)
            .map(|f| {
                if f < 1000 {
                    0.0
                } else if f < 1700 {
                    1.0
                } else {
                    2.0
                }
            })
            .collect();
        let features = Features {
            dim: 1,
            data: ids,
            probs: vec![1.0; 2000],
            fused: Vec::new(),
            hop: Delta(10_000),
            samples: 2000 * 160,
        };
        let count = |min_speaker_speech: f32, exact: Option<usize>| {
            let o = DiarizeOptions {
                min_cluster_fraction: 0.0,
                min_speaker_speech,
                count: SpeakerCount { exact, ..SpeakerCount::default() },
                ..DiarizeOptions::default()
            };
            let d = Ge2eDiarizer::with_embedder(Box::new(OneHot), o);
            d.finish(features.clone()).unwrap().speakers
        };
        assert_eq!(count(0.0, None), 3);
        assert_eq!(count(2.0, None), 3);
        assert_eq!(count(4.0, None), 2);
        // An exact count is not subject to the rule.
        assert_eq!(count(4.0, Some(3)), 3);
    }

    #[test]
    fn streamed_features_match_the_whole_signal() {
        let x: Vec<f32> = (0..40_000).map(|i| 0.1 * ((i as f32) * 0.05).sin()).collect();
        let d = VadOnlyDiarizer::default();
        let whole = d.diarize(&x).unwrap();
        let mut s = d.stream();
        for c in x.chunks(1234) {
            s.push(c);
        }
        let f = s.finish();
        assert_eq!(f.samples, 40_000);
        assert_eq!(f.frames(), 251);
        assert_eq!(d.finish(f).unwrap(), whole);
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

    #[test]
    fn a_second_detector_is_averaged_on_the_first_ones_grid() {
        let x: Vec<f32> = (0..16_000)
            .map(|i| if i < 8_000 { 0.0 } else { 0.3 * ((i as f32) * 0.07).sin() })
            .collect();
        let mut s = FeatureStream::with_vads(None, VadKind::Earshot, Some(VadKind::Energy));
        for c in x.chunks(777) {
            s.push(c);
        }
        let f = s.finish();
        let ea = crate::vad::probabilities(VadKind::Earshot.build(), &x);
        let en = crate::vad::probabilities(VadKind::Energy.build(), &x);
        assert_eq!(f.probs, ea);
        assert_eq!(f.hop, Delta(16_000));
        assert_eq!(f.fused.len(), ea.len());
        for (i, p) in f.fused.iter().enumerate() {
            // Earshot frame i (16 ms) has its centre in energy frame (16 i + 8) / 10.
            let j = ((16 * i + 8) / 10).min(en.len() - 1);
            assert_eq!(*p, 0.5 * (ea[i] + en[j]), "frame {i}");
        }
        // Without a second detector there is nothing to fuse.
        let mut s = FeatureStream::new(None, VadKind::Earshot);
        s.push(&x);
        assert!(s.finish().fused.is_empty());
    }

    #[test]
    fn vad_only_on_silence_is_empty() {
        let d = VadOnlyDiarizer::default().diarize(&vec![0.0; 16_000]).unwrap();
        assert_eq!(d.speakers, 0);
        assert!(d.annotation.is_empty());
    }
}
