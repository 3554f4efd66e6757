//! Telling the speakers of one mixed recording apart: what `overtalk detect` does with a
//! single recording given without `--track` or `--channels` (the command line's
//! `input::diarize`), for a file or for samples held in memory.
//!
//! ```text
//! file ─► Decoder ─┐
//!                  ├─► Resampler16k ─► FeatureStream ─► Diarizer::finish ─► who spoke when
//! samples (any Hz) ┘      (16 kHz mono, block by block; the signal is never held whole)
//! ```
//!
//! The diarizer is GE2E (the installed encoder, or `embedding_model`); with no encoder
//! installed all speech is one speaker, with a warning, as on the command line. The `pyannote`
//! diarizer needs a build with that feature, which the wheel does not have: asking for it is
//! an error that says so.

use std::path::{Path, PathBuf};

use overtalk::{Segment, Time, TranscriptBuilder};
use overtalk_audio::decode::Decoder;
use overtalk_audio::diarize::cluster::SpeakerCount;
use overtalk_audio::diarize::models::{ge2e_path, model_dir};
use overtalk_audio::diarize::{
    DiarizeOptions, Diarizer, FeatureStream, Ge2eDiarizer, VadOnlyDiarizer,
};
use overtalk_audio::pipeline::DetectOptions;
use overtalk_audio::resample::{Resampler16k, ANALYSIS_RATE};
use overtalk_audio::vad::VadKind;
use pyo3::prelude::*;

use crate::corpus::Conversation;
use crate::{to_py, OvertalkError};

fn bad(message: impl Into<String>) -> PyErr {
    OvertalkError::new_err(message.into())
}

/// The diarizer's settings as `overtalk detect --diarizer D --num-speakers N …` takes them.
struct Settings {
    /// `--diarizer`: `ge2e` or `pyannote` (`None`: the command line's default, which in a
    /// build without the `pyannote` feature is GE2E).
    diarizer: Option<String>,
    /// `--vad` (`None`: the best detector the build offers, as when `--vad` is not given).
    vad: Option<String>,
    num_speakers: Option<usize>,
    min_speakers: Option<usize>,
    max_speakers: Option<usize>,
    embedding_model: Option<PathBuf>,
    overlap_margin: Option<f32>,
}

impl Settings {
    /// Whether a GE2E-only setting is given (pyannote takes none of them).
    fn ge2e_only(&self) -> bool {
        self.vad.is_some()
            || self.num_speakers.is_some()
            || self.min_speakers.is_some()
            || self.max_speakers.is_some()
            || self.embedding_model.is_some()
            || self.overlap_margin.is_some()
    }

    fn count(&self) -> PyResult<SpeakerCount> {
        let d = SpeakerCount::default();
        if self.num_speakers.is_some()
            && (self.min_speakers.is_some() || self.max_speakers.is_some())
        {
            return Err(bad("num_speakers goes with neither min_speakers nor max_speakers"));
        }
        let c = SpeakerCount {
            exact: self.num_speakers,
            min: self.min_speakers.unwrap_or(d.min),
            max: self.max_speakers.unwrap_or(d.max),
        };
        if c.exact == Some(0) || c.min == 0 {
            return Err(bad("num_speakers/min_speakers: expected at least 1"));
        }
        if c.min > c.max {
            return Err(bad(format!(
                "min_speakers {} is larger than max_speakers {}",
                c.min, c.max
            )));
        }
        Ok(c)
    }

    /// The diarizer options: the chosen detector with the defaults' thresholds, else the
    /// build's preferred profile; then the speaker count and the overlap margin.
    fn options(&self) -> PyResult<DiarizeOptions> {
        let detect = DetectOptions::default();
        let mut o = match self.vad.as_deref() {
            None => {
                // The profile's thresholds with the detection's shortest speech and silence.
                let mut o = DiarizeOptions::preferred();
                o.binarize.min_speech = detect.binarize.min_speech;
                o.binarize.min_silence = detect.binarize.min_silence;
                o
            }
            Some(v) => {
                let vad = match v {
                    // As on the command line, `none` is the energy rules.
                    "none" => VadKind::Energy,
                    name => name.parse::<VadKind>().map_err(bad)?,
                };
                vad.try_build().map_err(to_py)?;
                DiarizeOptions { vad, binarize: detect.binarize, ..DiarizeOptions::default() }
            }
        };
        o.count = self.count()?;
        o.overlap_margin = match self.overlap_margin {
            Some(m) if !(0.0..=1.0).contains(&m) => {
                return Err(bad(format!(
                    "overlap_margin {m}: expected a cosine margin from 0 to 1"
                )))
            }
            m => m,
        };
        Ok(o)
    }

    /// The diarizer, and a warning when there is no encoder and all speech is one speaker.
    fn diarizer(&self) -> PyResult<(Box<dyn Diarizer>, Option<String>)> {
        match self.diarizer.as_deref() {
            None | Some("ge2e") => {}
            Some("pyannote") => {
                if self.ge2e_only() {
                    return Err(bad(
                        "diarizer=\"pyannote\" takes none of vad, num_speakers, min_speakers, \
                         max_speakers, embedding_model, overlap_margin; they apply to ge2e",
                    ));
                }
                return Err(bad(
                    "diarizer=\"pyannote\" needs a build with the `pyannote` feature, which this \
                     package does not have; use the command line built with it \
                     (cargo install --path crates/overtalk-cli --features pyannote), or \
                     diarizer=\"ge2e\"",
                ));
            }
            Some(d) => return Err(bad(format!("unknown diarizer {d:?} (ge2e or pyannote)"))),
        }
        let o = self.options()?;
        if let Some(p) = &self.embedding_model {
            if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("onnx")) {
                return Err(bad(format!(
                    "{}: ONNX speaker models need a build with the `onnx` feature; give a GE2E \
                     safetensors file (`overtalk models install` writes one)",
                    p.display()
                )));
            }
            return Ok((Box::new(Ge2eDiarizer::from_file(p, o).map_err(to_py)?), None));
        }
        let p = ge2e_path(&model_dir().map_err(to_py)?);
        if p.exists() {
            let d = Ge2eDiarizer::from_file(&p, o).map_err(|e| {
                bad(format!(
                    "the installed speaker model does not load ({e}); run `overtalk models install` again"
                ))
            })?;
            return Ok((Box::new(d), None));
        }
        let warning = format!(
            "no speaker model at {} (run `overtalk models install`); falling back to voice \
             activity only: all speech is one speaker",
            p.display()
        );
        Ok((Box::new(VadOnlyDiarizer { vad: o.vad, binarize: o.binarize }), Some(warning)))
    }
}

/// Blocks of any rate resampled to 16 kHz mono into a diarizer's feature stream.
struct To16k<'s> {
    resampler: Resampler16k,
    stream: &'s mut FeatureStream,
    /// 16 kHz samples fed so far.
    samples: u64,
}

impl<'s> To16k<'s> {
    fn new(rate: u32, stream: &'s mut FeatureStream) -> PyResult<To16k<'s>> {
        Ok(To16k { resampler: Resampler16k::new(rate).map_err(to_py)?, stream, samples: 0 })
    }

    fn push(&mut self, block: impl Iterator<Item = f32>) -> PyResult<()> {
        let (stream, n) = (&mut *self.stream, &mut self.samples);
        self.resampler
            .push(block, &mut |x| {
                *n += x.len() as u64;
                stream.push(x);
            })
            .map_err(to_py)
    }

    /// Flushes the resampler; the number of 16 kHz samples fed.
    fn finish(mut self) -> PyResult<u64> {
        let (stream, n) = (&mut *self.stream, &mut self.samples);
        self.resampler
            .finish(&mut |x| {
                *n += x.len() as u64;
                stream.push(x);
            })
            .map_err(to_py)?;
        Ok(self.samples)
    }
}

/// Who spoke when as a conversation: the diarizer's speakers (`SPK00`, …), the extent the
/// signal's length, the method as the command line records it.
fn conversation(
    id: String,
    diarizer: &dyn Diarizer,
    stream: FeatureStream,
    samples: u64,
) -> PyResult<Conversation> {
    let d = diarizer.finish(stream.finish()).map_err(to_py)?;
    let provenance = d.provenance();
    let mut b = TranscriptBuilder::new();
    let ann = &d.annotation;
    for track in ann.tracks() {
        b.add(track.segment, ann.speaker_name(track.speaker), None);
    }
    let duration = overtalk_audio::decode::frames_to_delta(samples, ANALYSIS_RATE);
    b.extent(Segment::new(Time::from_micros(0), Time::from_micros(duration.micros())));
    let mut c = Conversation::new(id, b.build(), Some(provenance.description.clone()));
    c.overlap_not_measurable = provenance.one_speaker_per_frame();
    Ok(c)
}

/// Diarizes the file at `path`.
fn diarize_path(id: String, path: &Path, diarizer: &dyn Diarizer) -> PyResult<Conversation> {
    // A file that is not a recording is refused before any work, as on the command line.
    let mut d = Decoder::open(path, &DetectOptions::default().decode).map_err(to_py)?;
    let rate = d.info().sample_rate;
    let mut stream = diarizer.stream();
    let mut to16k = To16k::new(rate, &mut stream)?;
    while let Some(block) = d.next_block().map_err(|e| to_py(e.with_path(path)))? {
        to16k.push(block.mono())?;
    }
    let samples = to16k.finish()?;
    conversation(id, diarizer, stream, samples)
}

/// Tells the speakers of one mixed recording apart: a file (`path`) or mono little-endian
/// float32 samples (`samples` at `sample_rate` Hz). Returns the conversation and, when no
/// speaker model is installed and all speech is one speaker, the warning saying so.
#[pyfunction]
#[pyo3(signature = (recording_id, path=None, samples=None, sample_rate=None, diarizer=None, vad=None, num_speakers=None, min_speakers=None, max_speakers=None, embedding_model=None, overlap_margin=None))]
#[allow(clippy::too_many_arguments)]
fn diarize(
    py: Python<'_>,
    recording_id: String,
    path: Option<PathBuf>,
    samples: Option<Vec<u8>>,
    sample_rate: Option<u32>,
    diarizer: Option<String>,
    vad: Option<String>,
    num_speakers: Option<usize>,
    min_speakers: Option<usize>,
    max_speakers: Option<usize>,
    embedding_model: Option<PathBuf>,
    overlap_margin: Option<f32>,
) -> PyResult<(Conversation, Option<String>)> {
    let settings = Settings {
        diarizer,
        vad,
        num_speakers,
        min_speakers,
        max_speakers,
        embedding_model,
        overlap_margin,
    };
    py.detach(|| {
        let (diarizer, warning) = settings.diarizer()?;
        let c = match (path, samples) {
            (Some(p), None) => diarize_path(recording_id, &p, diarizer.as_ref())?,
            (None, Some(bytes)) => {
                let rate = sample_rate
                    .filter(|&r| r > 0)
                    .ok_or_else(|| bad("samples need a positive sample_rate"))?;
                let mut stream = diarizer.stream();
                let mut to16k = To16k::new(rate, &mut stream)?;
                to16k.push(
                    bytes
                        .chunks_exact(4)
                        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                        .map(|s| if s.is_finite() { s } else { 0.0 }),
                )?;
                let n = to16k.finish()?;
                conversation(recording_id, diarizer.as_ref(), stream, n)?
            }
            _ => return Err(bad("diarize takes a path or samples")),
        };
        Ok((c, warning))
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(diarize, m)?)?;
    Ok(())
}
