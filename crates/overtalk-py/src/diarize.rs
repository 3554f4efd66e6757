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
//! A file goes through the command line's own path (`pipeline::diarize_recording`), so what
//! decoding repaired (non-finite samples, corrupt packets, a WAV header without a length) is
//! warned about as there. The diarizer is GE2E (the installed encoder, or `embedding_model`);
//! with no encoder installed all speech is one speaker, with a warning, as on the command
//! line. The `pyannote`
//! diarizer needs a build with that feature, which the wheel does not have: asking for it is
//! an error that says so.

use std::path::{Path, PathBuf};

use overtalk::{Segment, Time, Transcript, TranscriptBuilder};
use overtalk_audio::decode::Decoder;
use overtalk_audio::diarize::{Diarizer, FeatureStream};
use overtalk_audio::multitrack::TrackWarning;
use overtalk_audio::music::MusicMeter;
use overtalk_audio::pipeline::{
    self, ChosenDiarizer, DetectOptions, DiarizerChoice, DiarizerRefusal, DiarizerRequest,
};
use overtalk_audio::provenance::Provenance;
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
    /// The longest recording the decoder takes (`--max-duration`).
    max_duration: overtalk::Delta,
}

impl Settings {
    /// The detection settings the diarizer starts from: the chosen detector (`none` is the
    /// energy rules, as on the command line), checked to be usable.
    fn detect_options(&self) -> PyResult<DetectOptions> {
        let mut detect = DetectOptions::default();
        detect.decode.max_duration = self.max_duration;
        if let Some(v) = self.vad.as_deref() {
            let vad = match v {
                "none" => VadKind::Energy,
                name => name.parse::<VadKind>().map_err(bad)?,
            };
            vad.try_build().map_err(to_py)?;
            detect.vad = Some(vad);
        }
        Ok(detect)
    }

    /// The diarizer, and the warnings about it (no encoder installed: all speech is one
    /// speaker), chosen by the library as on the command line.
    fn diarizer(&self) -> PyResult<ChosenDiarizer> {
        let choice = match self.diarizer.as_deref() {
            None => None,
            Some(name) => Some(name.parse::<DiarizerChoice>().map_err(|e| bad(e.to_string()))?),
        };
        let request = DiarizerRequest {
            choice,
            vad_chosen: self.vad.is_some(),
            num_speakers: self.num_speakers,
            min_speakers: self.min_speakers,
            max_speakers: self.max_speakers,
            embedding_model: self.embedding_model.clone(),
            overlap_margin: self.overlap_margin,
            model_dir: None,
        };
        pipeline::build_diarizer(&request, &self.detect_options()?).map_err(refusal)
    }
}

/// A refusal in this package's words: the keyword arguments' names, and what the wheel's
/// build lacks.
fn refusal(r: DiarizerRefusal) -> PyErr {
    bad(match r {
        DiarizerRefusal::CountConflict => {
            "num_speakers goes with neither min_speakers nor max_speakers".to_owned()
        }
        DiarizerRefusal::NoSpeakers => "num_speakers/min_speakers: expected at least 1".to_owned(),
        DiarizerRefusal::MinAboveMax { min, max } => {
            format!("min_speakers {min} is larger than max_speakers {max}")
        }
        DiarizerRefusal::OverlapMargin(m) => {
            format!("overlap_margin {m}: expected a cosine margin from 0 to 1")
        }
        DiarizerRefusal::PyannoteTuned => "diarizer=\"pyannote\" takes none of vad, num_speakers, \
             min_speakers, max_speakers, embedding_model, overlap_margin; they apply to ge2e"
            .to_owned(),
        DiarizerRefusal::PyannoteNotBuilt => "diarizer=\"pyannote\" needs a build with the \
             `pyannote` feature, which this package does not have; use the command line built \
             with it (cargo install --path crates/overtalk-cli --features pyannote), or \
             diarizer=\"ge2e\""
            .to_owned(),
        DiarizerRefusal::OnnxNotBuilt { path } => format!(
            "{}: ONNX speaker models need a build with the `onnx` feature; give a GE2E \
             safetensors file (`overtalk models install` writes one)",
            path.display()
        ),
        DiarizerRefusal::InstalledModel(e) => format!(
            "the installed speaker model does not load ({e}); run `overtalk models install` again"
        ),
        DiarizerRefusal::Load(e) => e.to_string(),
        other => match other.error() {
            Some(e) => format!("{other}: {e}"),
            None => other.to_string(),
        },
    })
}

/// Blocks of any rate resampled to 16 kHz mono into a diarizer's feature stream.
struct To16k<'s> {
    resampler: Resampler16k,
    stream: &'s mut FeatureStream,
    /// Music heard as speech, measured on the same signal (as `diarize_recording` does).
    music: MusicMeter,
    /// 16 kHz samples fed so far.
    samples: u64,
}

impl<'s> To16k<'s> {
    fn new(rate: u32, stream: &'s mut FeatureStream) -> PyResult<To16k<'s>> {
        Ok(To16k {
            resampler: Resampler16k::new(rate).map_err(to_py)?,
            stream,
            music: MusicMeter::default(),
            samples: 0,
        })
    }

    fn push(&mut self, block: impl Iterator<Item = f32>) -> PyResult<()> {
        let (stream, music, n) = (&mut *self.stream, &mut self.music, &mut self.samples);
        self.resampler
            .push(block, &mut |x| {
                *n += x.len() as u64;
                stream.push(x);
                music.push(x);
            })
            .map_err(to_py)
    }

    /// Flushes the resampler; the number of 16 kHz samples fed, and the music meter.
    fn finish(mut self) -> PyResult<(u64, MusicMeter)> {
        let (stream, music, n) = (&mut *self.stream, &mut self.music, &mut self.samples);
        self.resampler
            .finish(&mut |x| {
                *n += x.len() as u64;
                stream.push(x);
                music.push(x);
            })
            .map_err(to_py)?;
        Ok((self.samples, self.music))
    }
}

/// Who spoke when in samples held in memory as a conversation: the diarizer's speakers
/// (`SPK00`, …), the extent the signal's length, the method as the command line records it.
/// The conversation, and the embedding windows the diarizer left out as not finite
/// ([`TrackWarning::NonFiniteEmbeddings`]).
fn conversation(
    id: String,
    diarizer: &dyn Diarizer,
    stream: FeatureStream,
    samples: u64,
) -> PyResult<(Conversation, usize)> {
    let d = diarizer.finish(stream.finish()).map_err(to_py)?;
    let provenance = d.provenance();
    let mut b = TranscriptBuilder::new();
    let ann = &d.annotation;
    for track in ann.tracks() {
        b.add(track.segment, ann.speaker_name(track.speaker), None);
    }
    let duration = overtalk_audio::decode::frames_to_delta(samples, ANALYSIS_RATE);
    b.extent(Segment::new(Time::from_micros(0), Time::from_micros(duration.micros())));
    Ok((detected(id, b.build(), &provenance), d.dropped_windows))
}

/// The conversation of a diarization, with what it cannot measure: overlap, when there is at
/// most one speaker per frame; the speakers, when only voice activity was found.
fn detected(id: String, t: Transcript, provenance: &Provenance) -> Conversation {
    let one_per_frame = provenance.one_speaker_per_frame_in(t.annotation());
    let not_separated = provenance.voice_activity_only();
    let mut c = Conversation::new(id, t, Some(provenance.description.clone()));
    c.origin.overlap_not_measurable = one_per_frame;
    c.origin.speakers_not_separated = not_separated;
    c
}

/// Diarizes the file at `path` as `overtalk detect FILE` does; the conversation, and the
/// warnings of decoding it.
fn diarize_path(
    id: String,
    path: &Path,
    diarizer: &dyn Diarizer,
    max_duration: overtalk::Delta,
) -> PyResult<(Conversation, Vec<String>)> {
    let mut decode = DetectOptions::default().decode;
    decode.max_duration = max_duration;
    // A file that is not a recording is refused before any work, as on the command line.
    let d = Decoder::open(path, &decode).map_err(to_py)?;
    let found =
        pipeline::diarize_recording(d, path, diarizer, Some(&id), &mut |_| {}, &mut || {}, &|_| {})
            .map_err(|failure| match failure {
                pipeline::DiarizeFailure::Decoding(e) => to_py(e),
                pipeline::DiarizeFailure::Diarizing(e) => to_py(e),
            })?;
    let mut warnings: Vec<String> = found.warnings.iter().map(ToString::to_string).collect();
    warnings.extend(pipeline::silence_warnings(&found.transcript, &[path.display().to_string()]));
    Ok((detected(found.recording_id, found.transcript, &found.provenance), warnings))
}

/// Tells the speakers of one mixed recording apart: a file (`path`) or mono little-endian
/// float32 samples (`samples` at `sample_rate` Hz). Returns the conversation and the warnings
/// the command line prints for it: no speaker model installed (all speech is one speaker),
/// what decoding the file repaired.
#[pyfunction]
#[pyo3(signature = (recording_id, path=None, samples=None, sample_rate=None, diarizer=None, vad=None, num_speakers=None, min_speakers=None, max_speakers=None, embedding_model=None, overlap_margin=None, max_duration=None))]
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
    max_duration: Option<f64>,
) -> PyResult<(Conversation, Vec<String>)> {
    let settings = Settings {
        max_duration: crate::detect::max_duration(max_duration)?,
        diarizer,
        vad,
        num_speakers,
        min_speakers,
        max_speakers,
        embedding_model,
        overlap_margin,
    };
    py.detach(|| {
        let chosen = settings.diarizer()?;
        let mut warnings: Vec<String> = chosen.warnings.iter().map(ToString::to_string).collect();
        let diarizer = chosen.diarizer;
        let source =
            path.as_ref().map_or_else(|| "samples".to_owned(), |p| p.display().to_string());
        // What follows is about the recording, kept with it (the choice of diarizer above is
        // not: `overtalk analyze` keeps the same).
        let about_model = warnings.len();
        let mut c = match (path, samples) {
            (Some(p), None) => {
                let (c, decoding) =
                    diarize_path(recording_id, &p, diarizer.as_ref(), settings.max_duration)?;
                warnings.extend(decoding);
                c
            }
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
                let (n, music) = to16k.finish()?;
                let (c, dropped) = conversation(recording_id, diarizer.as_ref(), stream, n)?;
                if dropped > 0 {
                    let w = TrackWarning::NonFiniteEmbeddings {
                        path: "samples".into(),
                        windows: dropped,
                    };
                    warnings.push(w.to_string());
                }
                let annotation = c.transcript.annotation();
                warnings.extend(pipeline::music_like_speakers(&music, annotation).into_iter().map(
                    |(speaker, v)| {
                        TrackWarning::MusicLike {
                            path: "samples".into(),
                            speaker,
                            seconds: v.seconds,
                            music_share: f64::from(v.music_share),
                            beat_share: f64::from(v.beat_share),
                        }
                        .to_string()
                    },
                ));
                warnings.extend(pipeline::silence_warnings(&c.transcript, &["samples".into()]));
                c
            }
            _ => return Err(bad("diarize takes a path or samples")),
        };
        warnings.extend(pipeline::count_warning(
            &source,
            settings.num_speakers,
            c.transcript.annotation().speakers().len(),
            c.origin.speakers_not_separated,
        ));
        c.origin.notes = warnings[about_model..].to_vec();
        Ok((c, warnings))
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(diarize, m)?)?;
    Ok(())
}
