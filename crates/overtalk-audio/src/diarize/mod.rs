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
//!            ─► pieces of 0.25–1.2 s between pauses (or between the signal's energy dips)
//!               relabelled by their own embedding (DiarizeOptions::short_runs)
//!            ─► [optional second speaker per frame]
//!            ─► [optional: direct speaker changes located on the log-mel frames
//!               (DiarizeOptions::handover)]
//!            ─► [with a second VAD (DiarizeOptions::vad_fuse): output speech where the mean of
//!               both passes its onset, each frame labelled as the nearest clustered frame]
//!            ─► [speech edges onto the signal's energy (DiarizeOptions::edges)]
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

pub mod baseline;
pub mod change;
pub mod cluster;
pub mod diarization;
pub mod edges;
pub mod embed;
pub mod features;
pub mod handover;
pub mod labels;
pub mod models;
#[cfg(feature = "onnx")]
pub mod onnx_embed;
pub mod options;
pub mod pyannote;
pub mod refine;
pub mod remerge;
pub mod reseg;
pub mod short_runs;
pub mod tensors;
pub mod transition;
pub mod turn_metrics;
pub mod windows;

use overtalk::{Delta, FrameGrid, Result, Rounding};

use crate::frames::GRID;

/// The shortest speech run embedded alone when a signal is prepared (10 ms frames):
/// [`short_runs`] relabels none shorter.
const SHORT_RUN_MIN_FRAMES: usize = 10;

pub use baseline::{NaiveDiarizer, VadOnlyDiarizer};
pub use diarization::{signal_duration, Diarization, Diarizer, DiarizerKind};
use embed::Ge2eWeights;
pub use features::{FeatureStream, Features, FrontEnd};
use labels::{annotation_from_layers, region_mask, relabel_to};
pub use options::DiarizeOptions;
use windows::{embed_windows, keep_usable, place_windows};
pub use windows::{Ge2eEmbedder, WindowEmbedder};

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

/// A share as a percentage for the description, to four decimals: the `f32` 0.6 is 60, not
/// the 60.000004 its binary value prints as.
fn percent(share: f32) -> f64 {
    (f64::from(share) * 1e6).round() / 1e4
}

impl Ge2eDiarizer {
    /// The method and parameters of [`assign`](Ge2eDiarizer::assign) with options `o`: the
    /// voice activity and windows are those [`prepare`](Ge2eDiarizer::prepare) used
    /// (`self.options`), the rest is `o`.
    fn describe_with(&self, o: &DiarizeOptions) -> String {
        let p = &self.options;
        let mut s = format!(
            "ge2e ({}; vad {}; window {} ms, step {} ms; ahc threshold {}; speaker ≥ {} s and ≥ {} % of windows; switch cost {}; speakers {}; overlap {}; change points {}; boundaries {}; merge {}; speech edges {}",
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
            percent(o.min_cluster_fraction),
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
            match (o.merge_ratio, o.same_voice) {
                // Both merges correct an automatic count; a given count is kept as given.
                _ if o.count.exact.is_some() => "off (speakers given)".to_owned(),
                (Some(r), Some(z)) => format!(
                    "centroids closer than {r} × spread, or windows preferring their own voice by < {z} sd"
                ),
                (Some(r), None) => format!("centroids closer than {r} × spread"),
                (None, Some(z)) => format!("windows preferring their own voice by < {z} sd"),
                (None, None) => "off".to_owned(),
            },
            match o.edges {
                Some(e) => format!(
                    "on the energy (±{} ms, an end's peak within {} ms, level {} of floor to peak, contrast ≥ {} dB)",
                    e.reach * 10,
                    e.end_span.max(e.reach) * 10,
                    e.level,
                    e.min_contrast
                ),
                None => "as detected".to_owned(),
            }
        );
        if let Some(t) = &o.transition {
            s.push_str(&format!(
                "; clusters of speaker changes dropped (≥ {} % of their speech in pieces ≤ {} ms beside another speaker)",
                percent(t.share),
                t.max_piece * 10
            ));
        }
        if o.absorb_small && o.count.exact.is_none() {
            s.push_str("; small clusters absorbed into their nearest when fewer than two pass");
        }
        if let Some(h) = &o.handover {
            s.push_str(&format!(
                "; speaker changes on the log-mel frames (±{} ms, local models ≤ {} ms, pauses ≥ {} ms)",
                h.reach * 10,
                h.model_frames * 10,
                h.min_pause * 10
            ));
        }
        if let Some(r) = &o.short_runs {
            s.push_str(&format!(
                "; pieces of {}–{} ms between pauses labelled by their own embedding when closer to another speaker by ≥ {}",
                r.min_frames * 10,
                r.max_frames * 10,
                r.margin
            ));
            if let Some(d) = &r.dips {
                s.push_str(&format!(
                    ", and between energy dips (≥ {} ms, {} dB under the speech within {} ms) by ≥ {}",
                    d.min_frames * 10,
                    d.contrast,
                    d.span * 10,
                    d.margin
                ));
            }
            if let Some(e) = &r.ends {
                s.push_str(&format!(
                    ", and the first or last {}–{} ms of longer runs by ≥ {}",
                    e.min_frames * 10,
                    e.max_frames * 10,
                    e.margin
                ));
            }
        }
        s.push(')');
        s
    }
}

/// The expensive, option-independent half of [`Ge2eDiarizer`]: speech frames and window
/// embeddings. [`Ge2eDiarizer::assign`] turns it into a diarization for any clustering options.
#[derive(Clone, Debug)]
pub struct PreparedSignal {
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
    /// The speech runs shorter than a window, `(first, len)` over the speech frames
    /// ([`short_runs::short_runs`]).
    runs: Vec<(usize, usize)>,
    /// Their own embeddings, centred as the windows' (empty when the options relabel no short
    /// run).
    run_emb: Vec<Vec<f32>>,
    /// Whether each speech frame lies in an energy dip ([`short_runs::energy_dips`]; empty
    /// without [`short_runs::DipOptions`]).
    dips: Vec<bool>,
    /// The parts between dips of the runs too long for a piece ([`short_runs::dip_pieces`]).
    dip_runs: Vec<(usize, usize)>,
    /// Their own embeddings, centred as the windows'.
    dip_run_emb: Vec<Vec<f32>>,
    /// The stretches at the ends of the runs still too long for a piece
    /// ([`short_runs::end_pieces`]).
    ends: Vec<short_runs::EndPiece>,
    /// Their own embeddings, centred as the windows'.
    end_emb: Vec<Vec<f32>>,
    /// With a second detector: the two detectors' mean probability (see [`Features::fused`])
    /// and its frame hop.
    fused: (Vec<f32>, Delta),
    /// Energy (dB) of every 10 ms frame of the signal ([`Features::energy`]).
    energy: Vec<f32>,
    /// The front-end frames of the speech frames, log-mel ([`handover::log_mel`]), `dim`
    /// values each: what [`handover`] locates speaker changes on.
    feats: Vec<f32>,
    /// Values per front-end frame.
    dim: usize,
    /// The front-end frames the detector called silence, as one diagonal Gaussian (log-mel).
    noise: Option<handover::Gaussian>,
    /// Windows and runs left out because their embedding was not finite
    /// ([`windows::keep_usable`]).
    dropped: usize,
}

impl PreparedSignal {
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

    /// How many windows (and short runs embedded alone) were left out because their embedding
    /// was not finite (NaN or infinite values, or all zero): a model that fails on silence or
    /// degenerate input. The others are diarized as if those windows were not there.
    pub fn dropped(&self) -> usize {
        self.dropped
    }
}

impl Ge2eDiarizer {
    /// VAD, features and window embeddings of a whole signal (the costly part), with
    /// `self.options`' VAD and window settings.
    pub fn prepare(&self, samples: &[f32]) -> Result<PreparedSignal> {
        let mut s = self.stream();
        s.push(samples);
        self.prepare_features(s.finish())
    }

    /// [`prepare`](Ge2eDiarizer::prepare) from streamed features. Only the speech frames'
    /// features are kept (compacted in place) while the windows are embedded.
    pub fn prepare_features(&self, f: Features) -> Result<PreparedSignal> {
        self.prepare_features_with_progress(f, &|_| {})
    }

    /// [`prepare_features`](Ge2eDiarizer::prepare_features), telling `progress` the share of
    /// the windows embedded (0 to 1) as it goes.
    pub fn prepare_features_with_progress(
        &self,
        mut f: Features,
        progress: &(dyn Fn(f64) + Sync),
    ) -> Result<PreparedSignal> {
        let o = &self.options;
        let (n, duration) = (f.frames(), f.duration());
        let mask = f.speech_mask(&o.binarize);
        let speech: Vec<usize> = (0..n).filter(|&i| mask[i]).collect();
        let vad_grid = FrameGrid::new(f.hop);
        let vad: Vec<f32> = speech
            .iter()
            .map(|&i| {
                let v = vad_grid.index_of(GRID.centre_of(i), Rounding::Floor);
                f.probs.get(v.min(f.probs.len().saturating_sub(1))).copied().unwrap_or(0.0)
            })
            .collect();
        let d = f.dim;
        let noise = handover::Gaussian::fit_mapped(
            d,
            (0..n).filter(|&i| !mask[i]).filter_map(|i| f.data.get(i * d..(i + 1) * d)),
            handover::log_mel,
        );
        // Features of speech frames only, so windows never contain silence.
        for (k, &i) in speech.iter().enumerate() {
            if k != i && (i + 1) * d <= f.data.len() {
                f.data.copy_within(i * d..(i + 1) * d, k * d);
            }
        }
        f.data.truncate(speech.len() * d);
        let wmax = self.embedder.window_frames().max(10);
        let windows = place_windows(speech.len(), o.window.clamp(10, wmax), o.step);
        let raw = embed_windows(&*self.embedder, &f.data, d, &windows, progress)?;
        let (windows, raw, mut dropped) = keep_usable(windows, raw);
        let mean = cluster::mean(&raw);
        let emb = cluster::centre_on(&raw, &mean);
        // Runs shorter than a window, each embedded alone (short_runs: a reply between two
        // turns lies only in windows of mostly other speech).
        let pauses = o.refine.unwrap_or_default();
        let runs = short_runs::short_runs(
            &speech,
            &vad,
            pauses.valley,
            pauses.min_pause,
            SHORT_RUN_MIN_FRAMES,
            wmax.saturating_sub(1),
        );
        let run_emb = embed_windows(&*self.embedder, &f.data, d, &runs, &|_| {})?;
        let (runs, run_emb, unusable) = keep_usable(runs, run_emb);
        dropped += unusable;
        let run_emb = cluster::centre_on(&run_emb, &mean);
        // The runs too long for the relabelling to take whole, parted further at the signal's
        // energy dips.
        let (dips, dip_runs) = match o.short_runs.and_then(|r| r.dips.map(|d| (r, d))) {
            Some((r, dip)) => {
                let energy: Vec<f32> =
                    speech.iter().map(|&i| f.energy.get(i).copied().unwrap_or(f32::MIN)).collect();
                let dips = short_runs::energy_dips(&speech, &energy, &dip);
                let parts = short_runs::dip_pieces(
                    &speech,
                    &vad,
                    pauses.valley,
                    pauses.min_pause,
                    &dips,
                    SHORT_RUN_MIN_FRAMES,
                    // Every run longer than the relabelling takes whole is parted.
                    r.max_frames.min(wmax.saturating_sub(1)),
                );
                (dips, parts)
            }
            None => (Vec::new(), Vec::new()),
        };
        let dip_run_emb = embed_windows(&*self.embedder, &f.data, d, &dip_runs, &|_| {})?;
        let (dip_runs, dip_run_emb, unusable) = keep_usable(dip_runs, dip_run_emb);
        dropped += unusable;
        let dip_run_emb = cluster::centre_on(&dip_run_emb, &mean);
        // The ends of the runs still too long for a piece: a reply that starts inside the end
        // of the turn before has neither pause nor dip to part it from that turn.
        let ends = match o.short_runs.and_then(|r| r.ends.map(|e| (r, e))) {
            Some((r, e)) => short_runs::end_pieces(
                &speech,
                &vad,
                pauses.valley,
                pauses.min_pause,
                &dips,
                r.max_frames.min(wmax.saturating_sub(1)),
                &e,
            ),
            None => Vec::new(),
        };
        let spans: Vec<(usize, usize)> = ends.iter().map(|e| e.piece).collect();
        let end_emb = embed_windows(&*self.embedder, &f.data, d, &spans, &|_| {})?;
        let (ends, end_emb): (Vec<_>, Vec<_>) =
            ends.into_iter().zip(end_emb).filter(|(_, e)| windows::usable(e)).unzip();
        dropped += spans.len() - ends.len();
        let end_emb = cluster::centre_on(&end_emb, &mean);
        let fused = (std::mem::take(&mut f.fused), f.hop);
        let energy = std::mem::take(&mut f.energy);
        let mut feats = f.data;
        feats.iter_mut().for_each(|v| *v = handover::log_mel(*v));
        Ok(PreparedSignal {
            frames: n,
            duration,
            speech,
            vad,
            windows,
            emb,
            raw,
            runs,
            run_emb,
            dips,
            dip_runs,
            dip_run_emb,
            ends,
            end_emb,
            fused,
            energy,
            feats,
            dim: d,
            noise,
            dropped,
        })
    }

    /// Clustering and resegmentation of prepared embeddings under options `o` (its VAD and
    /// window settings are ignored: they were used by [`prepare`](Ge2eDiarizer::prepare)).
    pub fn assign(&self, p: &PreparedSignal, o: &DiarizeOptions) -> Diarization {
        let method = self.describe_with(o);
        let kind = DiarizerKind::Ge2e { overlap: o.overlap_margin.is_some() };
        let (emb, windows, speech) = (&p.emb, &p.windows, &p.speech);
        if speech.is_empty() || emb.len() != windows.len() || emb.is_empty() {
            return Diarization::empty(method, kind, p.dropped);
        }
        let n = p.frames;
        let sn = speech.len();
        // Cluster (a subsample when long), then assign every window to the nearest centroid.
        let stride = emb.len().div_ceil(o.max_cluster_windows.max(2));
        let sample: Vec<Vec<f32>> = emb.iter().step_by(stride).cloned().collect();
        let mut labels = cluster::ahc(&sample, o.threshold, o.count);
        let mut k = labels.iter().max().map_or(1, |m| m + 1);
        if o.absorb_small && o.count.exact.is_none() && k > o.count.min.max(1) {
            // Each sampled window stands for `stride × step` frames of distinct speech.
            let per_window = (stride * o.step.max(1)) as f32 / 100.0;
            let by_fraction = (o.min_cluster_fraction * sample.len() as f32).ceil() as usize;
            let by_speech = (o.min_speaker_speech.max(0.0) / per_window).ceil() as usize;
            let min = by_fraction.max(by_speech).max(2);
            let mut sizes = vec![0usize; k];
            labels.iter().for_each(|&l| sizes[l] += 1);
            if sizes.iter().filter(|&&s| s >= min).count() < 2 {
                // Fewer than two clusters pass the size rule: on a short clip a voice cut in
                // pieces of 2-4 s each would be lost whole (the count then hangs on one
                // window). The small clusters are absorbed into their nearest neighbour
                // instead, the smallest first, so that pieces of one voice join and pass
                // together (never below the minimum count).
                k = cluster::absorb_small(&sample, &mut labels, k, min, o.count.min.max(1));
            }
        }
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
        if let (Some(z), None, true) = (o.same_voice, o.count.exact, p.raw.len() == emb.len()) {
            let raw: Vec<Vec<f32>> = p.raw.iter().step_by(stride).cloned().collect();
            cents = remerge::merge_same_voice(&sample, &raw, cents, z, o.count.min.max(1));
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
        // Resegmentation rounds; again without a cluster of speaker changes, while one is
        // found (automatic count only).
        let mut frame_labels = vec![0usize; sn];
        let mut scores = Vec::new();
        let mut round = 0;
        while round < o.rounds.max(1) {
            round += 1;
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
            let free = o.count.exact.is_none() && k > o.count.min.max(1);
            if let (true, Some(t), true) = (round == o.rounds.max(1), &o.transition, free) {
                let found =
                    transition::transition_cluster(speech, &frame_labels, k, t.max_piece, t.share);
                if let Some(c) = found {
                    cents.remove(c);
                    k -= 1;
                    round = 0;
                }
            }
        }
        // The pauses the refinement sees: the detector's valleys, and the dips on each side of
        // a part moved by its own voice (the refinement would otherwise find no pause there and
        // give the part back to the scores' speaker).
        let mut pause_vad = std::borrow::Cow::Borrowed(&p.vad);
        if let Some(r) = &o.short_runs {
            if p.run_emb.len() == p.runs.len() {
                short_runs::relabel_short_runs(
                    &mut frame_labels,
                    &p.runs,
                    &p.run_emb,
                    &cents,
                    r,
                    r.margin,
                );
            }
            if let (Some(dip), true) = (r.dips, p.dip_run_emb.len() == p.dip_runs.len()) {
                let moved = short_runs::relabel_short_runs(
                    &mut frame_labels,
                    &p.dip_runs,
                    &p.dip_run_emb,
                    &cents,
                    r,
                    dip.margin,
                );
                for &(first, len) in moved.iter().filter_map(|&i| p.dip_runs.get(i)) {
                    let before = (0..first).rev().take_while(|&q| p.dips.get(q) == Some(&true));
                    let after = (first + len..sn).take_while(|&q| p.dips.get(q) == Some(&true));
                    for q in before.chain(after) {
                        if let Some(v) = pause_vad.to_mut().get_mut(q) {
                            *v = 0.0;
                        }
                    }
                }
            }
        }
        let second = match o.overlap_margin {
            Some(m) if k > 1 => reseg::second_speaker(&scores, &frame_labels, &p.vad, m),
            _ => Vec::new(),
        };
        let mut refined: Vec<Option<usize>> = match &o.refine {
            Some(r) => refine::refine(speech, &pause_vad, &frame_labels, &scores, r),
            None => frame_labels.iter().copied().map(Some).collect(),
        };
        // The ends of long runs, after the refinement: it would move the change back to where
        // the windows' scores cross, inside the next turn or past the run's end.
        if let Some(e) = o.short_runs.and_then(|r| r.ends) {
            if p.end_emb.len() == p.ends.len() {
                short_runs::relabel_ends(&mut refined, &p.ends, &p.end_emb, &cents, &e);
            }
        }
        if let Some(h) = &o.handover {
            handover::relocate(speech, &p.feats, p.dim, &mut refined, p.noise.as_ref(), h);
        }
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
        if let Some(e) = &o.edges {
            edges::snap_edges(&mut labels, &p.energy, e);
            for (l2, l) in labels2.iter_mut().zip(&labels) {
                if l.is_none() {
                    *l2 = None;
                }
            }
        }
        let (annotation, _) = annotation_from_layers(&labels, &labels2);
        Diarization {
            dropped_windows: p.dropped,
            ..Diarization::within(annotation, p.duration, method, kind)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::cluster::SpeakerCount;
    use super::embed::MelStream;
    use super::*;
    use overtalk::Annotation;
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

    /// [`OneHot`], except that a window holding any frame numbered 3 embeds as NaN (a model
    /// that fails on degenerate input).
    struct NanOnThree;
    impl WindowEmbedder for NanOnThree {
        fn name(&self) -> String {
            "nan-on-three".into()
        }
        fn front_end(&self) -> Box<dyn FrontEnd> {
            Box::new(MelStream::new())
        }
        fn window_frames(&self) -> usize {
            160
        }
        fn embed(&self, windows: &[&[f32]]) -> Result<Vec<Vec<f32>>> {
            let nan = |w: &&[f32]| w.contains(&3.0);
            let mut out = OneHot.embed(windows)?;
            for (e, _) in out.iter_mut().zip(windows).filter(|(_, w)| nan(w)) {
                e.iter_mut().for_each(|v| *v = f32::NAN);
            }
            Ok(out)
        }
    }

    /// Who speaks when, in 10 ms frames: `(speaker, first, end)`.
    /// The segments (speaker, start and end frame) the one-hot embedder's diarization finds
    /// in `features` with these short-run options.
    fn segments_with(
        features: &Features,
        short_runs: Option<short_runs::ShortRunOptions>,
    ) -> Vec<(String, f64, f64)> {
        let o = DiarizeOptions { short_runs, ..DiarizeOptions::default() };
        let d = Ge2eDiarizer::with_embedder(Box::new(OneHot), o);
        frames_of(&d.finish(features.clone()).unwrap().annotation)
    }

    fn frames_of(a: &Annotation) -> Vec<(String, f64, f64)> {
        a.tracks()
            .iter()
            .map(|t| {
                let (s, e) = (t.segment.start().as_secs_f64(), t.segment.end().as_secs_f64());
                (a.speaker_name(t.speaker).to_owned(), (s * 100.0).round(), (e * 100.0).round())
            })
            .collect()
    }

    #[test]
    fn windows_embedded_as_nan_are_left_out_and_counted() {
        // Speaker 0 for 10 s, 2 s of input the model fails on, speaker 1 for 10 s, all speech.
        let mut ids = vec![0.0f32; 1000];
        ids.extend(std::iter::repeat_n(3.0, 200));
        ids.extend(std::iter::repeat_n(1.0, 1000));
        let n = ids.len();
        let features = Features {
            dim: 1,
            data: ids,
            probs: vec![1.0; n],
            fused: Vec::new(),
            hop: GRID.step(),
            energy: Vec::new(),
            samples: n as u64 * crate::frames::HOP as u64,
        };
        let d = Ge2eDiarizer::with_embedder(Box::new(NanOnThree), DiarizeOptions::default());
        let p = d.prepare_features(features.clone()).unwrap();
        // The 17 windows starting at frames 860 to 1180 (every 20) hold some of the stretch.
        assert_eq!((p.windows(), p.dropped()), (86, 17));
        assert_eq!(p.spans()[42..44], [(840, 160), (1200, 160)]);
        assert!(p.raw().iter().chain(p.centred()).flatten().all(|v| v.is_finite()));
        let found = d.finish(features).unwrap();
        assert_eq!((found.speakers, found.dropped_windows), (2, 17));
        let warning = crate::multitrack::TrackWarning::NonFiniteEmbeddings {
            path: "call.wav".into(),
            windows: found.dropped_windows,
        };
        assert_eq!(
            warning.to_string(),
            "call.wav: the speaker model gave no usable embedding (NaN, infinite or all-zero \
             values) for 17 of its windows; they were left out of telling the speakers apart"
        );
        // The stretch with no window keeps the speaker before it (the Viterbi's switch cost).
        let spk = |k: &str, s: f64, e: f64| (k.to_owned(), s, e);
        assert_eq!(
            frames_of(&found.annotation),
            vec![spk("SPK00", 0.0, 1200.0), spk("SPK01", 1200.0, 2200.0)]
        );
    }

    #[test]
    fn the_description_gives_shares_as_set() {
        // The f32 shares 0.1 and 0.6 printed as they are read 10.000001 % and 60.000004 %.
        let d = Ge2eDiarizer::with_embedder(Box::new(OneHot), DiarizeOptions::default());
        let text = d.describe();
        assert!(text.contains("speaker ≥ 4 s and ≥ 10 % of windows"), "{text}");
        assert!(text.contains("dropped (≥ 60 % of their speech in pieces ≤ 1000 ms"), "{text}");
        assert_eq!((percent(0.6), percent(0.125), percent(0.0)), (60.0, 12.5, 0.0));
    }

    #[test]
    fn the_description_names_the_merges_that_run() {
        let merge = |o: DiarizeOptions| {
            let text = Ge2eDiarizer::with_embedder(Box::new(OneHot), o).describe();
            let from = text.find("; merge ").map_or(0, |i| i + 8);
            let to = text[from..].find(';').map_or(text.len(), |i| from + i);
            text[from..to].to_owned()
        };
        let given = SpeakerCount { exact: Some(2), ..SpeakerCount::default() };
        assert_eq!(
            [
                merge(DiarizeOptions::default()),
                merge(DiarizeOptions { same_voice: None, ..DiarizeOptions::default() }),
                merge(DiarizeOptions { merge_ratio: None, ..DiarizeOptions::default() }),
                merge(DiarizeOptions {
                    merge_ratio: None,
                    same_voice: None,
                    ..DiarizeOptions::default()
                }),
                merge(DiarizeOptions { count: given, ..DiarizeOptions::default() }),
            ],
            [
                "centroids closer than 1.5 × spread, or windows preferring their own voice by < 1.5 sd",
                "centroids closer than 1.5 × spread",
                "windows preferring their own voice by < 1.5 sd",
                "off",
                "off (speakers given)",
            ]
        );
    }

    #[test]
    fn pieces_under_the_size_rule_join_when_absorbed() {
        // 16 s of speech: speaker 0 for 10 s, then two pieces of 3 s each (ids 1 and 2) that
        // the one-hot embedder keeps apart, as the AHC keeps apart two pieces of one voice.
        // Each piece is under the 4 s rule, so only speaker 0 passes: dropped, the pieces
        // leave one speaker; absorbed, they join each other (their centred centroids are
        // closer to each other than to speaker 0's) and pass as one second speaker.
        let ids: Vec<f32> = (0..1600)
            .map(|f| match f {
                0..1000 => 0.0,
                1000..1300 => 1.0,
                _ => 2.0,
            })
            .collect();
        let features = Features {
            dim: 1,
            data: ids,
            probs: vec![1.0; 1600],
            fused: Vec::new(),
            hop: GRID.step(),
            energy: Vec::new(),
            samples: 1600 * crate::frames::HOP as u64,
        };
        let speakers = |absorb_small: bool, min: usize| {
            let o = DiarizeOptions {
                absorb_small,
                count: SpeakerCount { min, ..SpeakerCount::default() },
                ..DiarizeOptions::default()
            };
            let d = Ge2eDiarizer::with_embedder(Box::new(OneHot), o);
            d.finish(features.clone()).unwrap().speakers
        };
        assert_eq!(speakers(false, 1), 1);
        assert_eq!(speakers(true, 1), 2);
        // With a minimum of two the count is two either way: the two largest are kept, or
        // the absorbing stops at two.
        assert_eq!(speakers(false, 2), 2);
        assert_eq!(speakers(true, 2), 2);
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
            hop: GRID.step(),
            energy: Vec::new(),
            samples: 2000 * crate::frames::HOP as u64,
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
    fn a_reply_with_no_pause_in_the_probability_is_found_between_energy_dips() {
        // Speaker 0 for 10 s, a dip of 150 ms (40 dB down), a 0.5 s reply by speaker 1, another
        // dip, speaker 0 for 10 s, 0.2 s of silence, speaker 1 for 6 s. The detector's
        // probability never dips within the speech, so the reply is one run with the turns
        // around it, and every window over it is mostly speaker 0.
        let mut ids = Vec::new();
        let mut energy = Vec::new();
        let mut probs = Vec::new();
        let mut push = |n: usize, id: f32, db: f32, p: f32| {
            ids.extend(std::iter::repeat_n(id, n));
            energy.extend(std::iter::repeat_n(db, n));
            probs.extend(std::iter::repeat_n(p, n));
        };
        push(1000, 0.0, -20.0, 1.0);
        push(15, 0.0, -60.0, 1.0);
        push(50, 1.0, -20.0, 1.0);
        push(15, 0.0, -60.0, 1.0);
        push(1000, 0.0, -20.0, 1.0);
        push(20, 0.0, -80.0, 0.0);
        push(600, 1.0, -20.0, 1.0);
        let n = ids.len();
        let features = Features {
            dim: 1,
            data: ids,
            probs,
            fused: Vec::new(),
            hop: GRID.step(),
            energy,
            samples: n as u64 * crate::frames::HOP as u64,
        };
        let segments = |dips: Option<short_runs::DipOptions>| {
            let short_runs = Some(short_runs::ShortRunOptions {
                dips,
                ..short_runs::ShortRunOptions::default()
            });
            segments_with(&features, short_runs)
        };
        let spk = |k: &str, s: f64, e: f64| (k.to_owned(), s, e);
        // Between the dips the reply is embedded alone and moved; the dips become the pauses
        // around it (10 ms frames).
        assert_eq!(
            segments(Some(short_runs::DipOptions::default())),
            vec![
                spk("SPK00", 0.0, 1000.0),
                spk("SPK01", 1015.0, 1065.0),
                spk("SPK00", 1080.0, 2080.0),
                spk("SPK01", 2100.0, 2700.0)
            ]
        );
        // At the detector's pauses only, the reply is speaker 0's.
        assert_eq!(segments(None), vec![spk("SPK00", 0.0, 2080.0), spk("SPK01", 2100.0, 2700.0)]);
    }

    #[test]
    fn a_reply_that_starts_inside_the_turn_before_is_found_at_the_runs_end() {
        // Speaker 0 for 10 s and speaker 1's 0.5 s reply with neither pause nor dip between
        // them (the reply starts as the turn ends), 0.3 s of silence, speaker 0 for 6 s, 0.3 s
        // of silence, speaker 1 for 6 s. The reply is the end of a 10.5 s run.
        let mut ids = Vec::new();
        let mut probs = Vec::new();
        let mut push = |n: usize, id: f32, p: f32| {
            ids.extend(std::iter::repeat_n(id, n));
            probs.extend(std::iter::repeat_n(p, n));
        };
        push(1000, 0.0, 1.0);
        push(50, 1.0, 1.0);
        push(30, 0.0, 0.0);
        push(600, 0.0, 1.0);
        push(30, 0.0, 0.0);
        push(600, 1.0, 1.0);
        let n = ids.len();
        let features = Features {
            dim: 1,
            data: ids,
            probs,
            fused: Vec::new(),
            hop: GRID.step(),
            energy: vec![-20.0; n],
            samples: n as u64 * crate::frames::HOP as u64,
        };
        let segments = |ends: Option<short_runs::EndOptions>| {
            let short_runs = Some(short_runs::ShortRunOptions {
                ends,
                ..short_runs::ShortRunOptions::default()
            });
            segments_with(&features, short_runs)
        };
        let spk = |k: &str, s: f64, e: f64| (k.to_owned(), s, e);
        // The run's last 0.3, 0.4, … 0.7 s all embed as speaker 1 here (one-hot means), so all
        // lead alike and the shortest is taken: the reply is found, 0.2 s short.
        assert_eq!(
            segments(Some(short_runs::EndOptions::default())),
            vec![
                spk("SPK00", 0.0, 1020.0),
                spk("SPK01", 1020.0, 1050.0),
                spk("SPK00", 1080.0, 1680.0),
                spk("SPK01", 1710.0, 2310.0)
            ]
        );
        // Without the end stretches, the reply is speaker 0's.
        assert_eq!(
            segments(None),
            vec![
                spk("SPK00", 0.0, 1050.0),
                spk("SPK00", 1080.0, 1680.0),
                spk("SPK01", 1710.0, 2310.0)
            ]
        );
    }
}
