//! Per-frame features computed as the signal streams in: the speaker encoder's front end
//! ([`FrontEnd`]) and the voice activity probabilities, kept as [`Features`] while the signal
//! itself is dropped block by block ([`FeatureStream`]).

use overtalk::Delta;

use super::embed::{MelStream, N_MELS};
use super::labels::region_mask;
use crate::frames::{Binarize, EnergyFramer, HOP, SILENCE_DB};
use crate::vad::{VadKind, VadRunner};

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
    /// Energy in dB of a 25 ms window centred on each 10 ms frame ([`EnergyFramer`]), one per
    /// frame of [`Features::frames`]: where speech edges lie in the signal itself (the VAD's
    /// edges trail it; see [`edges`](super::edges)). Empty: not measured.
    pub energy: Vec<f32>,
    /// Samples seen (16 kHz).
    pub samples: u64,
}

impl Features {
    /// Number of 10 ms analysis frames: one per frame start in `[0, samples]`, so
    /// `1 + samples / 160` (the front ends' centred frames).
    pub fn frames(&self) -> usize {
        1 + (self.samples / HOP as u64) as usize
    }

    /// Duration of the signal.
    pub fn duration(&self) -> Delta {
        crate::decode::frames_to_delta(self.samples, crate::resample::ANALYSIS_RATE)
    }

    /// The speech frames (10 ms) according to the VAD and `binarize`.
    pub(super) fn speech_mask(&self, binarize: &Binarize) -> Vec<bool> {
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
    energy: EnergyFramer,
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
        FeatureStream { front, vad, second, energy: EnergyFramer::new(), features }
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
        self.energy.push(samples, &mut |e| f.energy.push(e));
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
            let (h1, h2) = (f.hop.micros().max(1), v.hop().micros().max(1));
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
        self.energy.finish(&mut |e| f.energy.push(e));
        f.energy.resize(f.frames(), SILENCE_DB);
        f.energy.shrink_to_fit();
        let n = f.frames() * f.dim;
        f.data.resize(n, 0.0);
        f.data.shrink_to_fit();
        self.features
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(f.hop, Delta::from_micros(16_000));
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
    fn the_energy_is_that_of_the_frames_on_the_label_grid() {
        // 0.5 s of digital silence, then a tone: 1 + 16 000 / 160 = 101 frames, the block size
        // does not matter, and the last frame (no samples of its own) is digital silence.
        let x: Vec<f32> = (0..16_000)
            .map(|i| if i < 8_000 { 0.0 } else { 0.3 * ((i as f32) * 0.3).sin() })
            .collect();
        let mut s = FeatureStream::new(None, VadKind::Energy);
        for c in x.chunks(333) {
            s.push(c);
        }
        let f = s.finish();
        let whole = crate::frames::frame_energies(&x);
        assert_eq!(whole.len(), 100);
        assert_eq!(f.energy.len(), f.frames());
        assert_eq!(f.energy.len(), 101);
        assert_eq!(f.energy[..100], whole[..]);
        assert_eq!(f.energy[100], SILENCE_DB);
        // Frame 48's window (centred on 485 ms, ±12.5 ms) holds no sample of the tone.
        assert_eq!(f.energy[48], SILENCE_DB);
        assert!(f.energy[52] > -15.0, "{}", f.energy[52]);
    }
}
