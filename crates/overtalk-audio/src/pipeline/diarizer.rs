//! Which diarizer tells the speakers of one mixed recording apart, as every front end asks for
//! it: one [`DiarizerRequest`] (what the user set), one [`build_diarizer`] (the choice, the
//! refusals, the model lookup), one [`ChosenDiarizer`] (the diarizer and what to tell the
//! user).
//!
//! ```text
//! choice      settings given            pyannote installed   diarizer
//! pyannote    none GE2E-only            (must load)          speakrs pipeline
//! pyannote    any GE2E-only             -                    refused (PyannoteTuned)
//! ge2e / -    embedding model *.onnx    -                    ONNX embedder + GE2E pipeline
//! ge2e / -    embedding model (other)   -                    GE2E from that file
//! -           none GE2E-only            yes (feature on)     speakrs pipeline
//! ge2e / -    no embedding model        -                    installed GE2E encoder, else
//!                                                            voice activity only + warning
//! ```
//!
//! The texts of the refusals and of the warning are the command line's (they name its flags);
//! a front end with other names for the settings (Python's keywords) words the same values its
//! own way from the variant.

use std::fmt;
use std::path::{Path, PathBuf};

use overtalk::Error;

use super::{diarize_options, DetectOptions};
use crate::diarize::cluster::SpeakerCount;
use crate::diarize::models::{ge2e_path, model_dir};
use crate::diarize::{DiarizeOptions, Diarizer, Ge2eDiarizer, VadOnlyDiarizer};

/// The diarizers a front end can name (`--diarizer`, `diarizer=`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DiarizerChoice {
    /// pyannote community-1 style, through speakrs (segmentation-3.0, WeSpeaker ResNet34,
    /// PLDA + VBx; overlap modelled). Needs the `pyannote` feature and `overtalk models install
    /// pyannote`.
    Pyannote,
    /// GE2E embeddings, clustering and resegmentation (`overtalk models install ge2e`); works
    /// offline from a PyPI wheel.
    Ge2e,
}

impl DiarizerChoice {
    /// Every value, in documentation order.
    pub const ALL: [DiarizerChoice; 2] = [DiarizerChoice::Pyannote, DiarizerChoice::Ge2e];

    /// The name a front end takes (`pyannote`, `ge2e`).
    pub fn name(self) -> &'static str {
        match self {
            DiarizerChoice::Pyannote => "pyannote",
            DiarizerChoice::Ge2e => "ge2e",
        }
    }

    /// One sentence on what the diarizer is and what it needs, for a front end's help.
    pub fn help(self) -> &'static str {
        match self {
            DiarizerChoice::Pyannote => {
                "pyannote community-1 style, through speakrs (segmentation-3.0, WeSpeaker \
                 ResNet34, PLDA + VBx; overlap modelled). Needs the `pyannote` feature and \
                 `overtalk models install pyannote`"
            }
            DiarizerChoice::Ge2e => {
                "GE2E embeddings, clustering and resegmentation (`overtalk models install \
                 ge2e`); works offline from a PyPI wheel"
            }
        }
    }
}

overtalk::named_enum!(DiarizerChoice, "diarizer");

/// What the user asked of the diarizer of one mixed recording. `None` is "not given": the
/// GE2E-only settings decide the default diarizer by being given at all.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DiarizerRequest {
    /// The diarizer named (`None`: pyannote when this build has the `pyannote` feature, its
    /// models are installed and no GE2E-only setting is given, else GE2E).
    pub choice: Option<DiarizerChoice>,
    /// Whether the user chose the voice activity detector (GE2E-only; see
    /// [`diarize_options`]).
    pub vad_chosen: bool,
    /// Exactly this many speakers (GE2E-only).
    pub num_speakers: Option<usize>,
    /// At least this many speakers (GE2E-only).
    pub min_speakers: Option<usize>,
    /// At most this many speakers (GE2E-only).
    pub max_speakers: Option<usize>,
    /// A speaker encoder instead of the installed one (GE2E-only): GE2E safetensors, or an
    /// ONNX model (a `.onnx` file, in builds with the `onnx` feature).
    pub embedding_model: Option<PathBuf>,
    /// The second-best speaker's margin for overlapped speech, 0 to 1 (GE2E-only).
    pub overlap_margin: Option<f32>,
    /// Where the installed models are (`None`: [`model_dir`]).
    pub model_dir: Option<PathBuf>,
}

impl DiarizerRequest {
    /// Whether a setting only the GE2E pipeline takes is given.
    pub fn ge2e_only(&self) -> bool {
        self.vad_chosen
            || self.num_speakers.is_some()
            || self.min_speakers.is_some()
            || self.max_speakers.is_some()
            || self.embedding_model.is_some()
            || self.overlap_margin.is_some()
    }

    /// The speaker count the settings ask for, checked.
    pub fn count(&self) -> Result<SpeakerCount, DiarizerRefusal> {
        if self.num_speakers.is_some()
            && (self.min_speakers.is_some() || self.max_speakers.is_some())
        {
            return Err(DiarizerRefusal::CountConflict);
        }
        let d = SpeakerCount::default();
        let c = SpeakerCount {
            exact: self.num_speakers,
            min: self.min_speakers.unwrap_or(d.min),
            max: self.max_speakers.unwrap_or(d.max),
        };
        if c.exact == Some(0) || c.min == 0 {
            return Err(DiarizerRefusal::NoSpeakers);
        }
        if c.min > c.max {
            return Err(DiarizerRefusal::MinAboveMax { min: c.min, max: c.max });
        }
        Ok(c)
    }

    /// The overlap margin, checked to be a cosine margin from 0 to 1.
    pub fn overlap_margin(&self) -> Result<Option<f32>, DiarizerRefusal> {
        match self.overlap_margin {
            Some(m) if !(0.0..=1.0).contains(&m) => Err(DiarizerRefusal::OverlapMargin(m)),
            m => Ok(m),
        }
    }

    /// The model directory: the one given, else [`model_dir`].
    fn model_dir(&self) -> Result<PathBuf, DiarizerRefusal> {
        match &self.model_dir {
            Some(d) => Ok(d.clone()),
            None => model_dir().map_err(DiarizerRefusal::Load),
        }
    }
}

/// Something the user should be told about the chosen diarizer. Never printed by the library.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DiarizerWarning {
    /// No speaker encoder is installed at `path`: all speech is one speaker (voice activity
    /// only).
    NoSpeakerModel {
        /// Where the encoder would be.
        path: PathBuf,
    },
}

impl fmt::Display for DiarizerWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiarizerWarning::NoSpeakerModel { path } => write!(
                f,
                "no speaker model at {} (run `overtalk models install`); falling back to voice \
                 activity only: all speech is one speaker",
                path.display()
            ),
        }
    }
}

/// Why no diarizer can be had for a request. The texts are the command line's.
#[derive(Debug)]
#[non_exhaustive]
pub enum DiarizerRefusal {
    /// An exact count given with a lower or upper bound.
    CountConflict,
    /// No speaker at all asked for (an exact count or a lower bound of 0).
    NoSpeakers,
    /// The lower bound on speakers is above the upper one.
    MinAboveMax {
        /// The lower bound.
        min: usize,
        /// The upper bound.
        max: usize,
    },
    /// The overlap margin is not from 0 to 1.
    OverlapMargin(f32),
    /// pyannote was named with settings only GE2E takes.
    PyannoteTuned,
    /// pyannote was named in a build without the `pyannote` feature.
    PyannoteNotBuilt,
    /// An ONNX speaker model was given to a build without the `onnx` feature.
    OnnxNotBuilt {
        /// The model given.
        path: PathBuf,
    },
    /// The ONNX speaker model given does not load.
    OnnxModel {
        /// The model given.
        path: PathBuf,
        /// Why.
        error: Error,
    },
    /// The installed GE2E encoder does not load.
    InstalledModel(Error),
    /// The installed pyannote models do not load.
    PyannoteModel(Error),
    /// The model directory cannot be found, or the GE2E encoder given does not load.
    Load(Error),
}

impl DiarizerRefusal {
    /// The library error under the refusal, if it has one.
    pub fn error(&self) -> Option<&Error> {
        match self {
            DiarizerRefusal::OnnxModel { error, .. }
            | DiarizerRefusal::InstalledModel(error)
            | DiarizerRefusal::PyannoteModel(error)
            | DiarizerRefusal::Load(error) => Some(error),
            _ => None,
        }
    }
}

impl fmt::Display for DiarizerRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiarizerRefusal::CountConflict => {
                f.write_str("--num-speakers goes with neither --min-speakers nor --max-speakers")
            }
            DiarizerRefusal::NoSpeakers => {
                f.write_str("--num-speakers/--min-speakers: expected at least 1")
            }
            DiarizerRefusal::MinAboveMax { min, max } => {
                write!(f, "--min-speakers {min} is larger than --max-speakers {max}")
            }
            DiarizerRefusal::OverlapMargin(m) => {
                write!(f, "--overlap-margin {m}: expected a cosine margin from 0 to 1")
            }
            DiarizerRefusal::PyannoteTuned => f.write_str(
                "--diarizer pyannote takes none of --vad, --vad-model, --num-speakers, \
                 --min-speakers, --max-speakers, --embedding-model, --overlap-margin \
                 (speakrs finds speech, overlap and the number of speakers itself); \
                 they apply to --diarizer ge2e",
            ),
            DiarizerRefusal::PyannoteNotBuilt => f.write_str(
                "--diarizer pyannote needs a build with the `pyannote` feature \
                 (cargo install --path crates/overtalk-cli --features pyannote); \
                 or use --diarizer ge2e",
            ),
            DiarizerRefusal::OnnxNotBuilt { path } => write!(
                f,
                "{}: ONNX speaker models need a build with the `onnx` feature \
                 (cargo install --path crates/overtalk-cli --features onnx); or give a GE2E \
                 safetensors file (`overtalk models install` writes one)",
                path.display()
            ),
            DiarizerRefusal::OnnxModel { path, .. } => {
                write!(f, "loading the speaker-embedding model {}", path.display())
            }
            DiarizerRefusal::InstalledModel(_) => f.write_str(
                "the installed speaker model does not load; run `overtalk models install` again",
            ),
            DiarizerRefusal::PyannoteModel(_) => f.write_str("loading the pyannote diarizer"),
            DiarizerRefusal::Load(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for DiarizerRefusal {
    /// The error a model failed with, under the sentence saying which model; for
    /// [`DiarizerRefusal::Load`], whose sentence is the error's own, that error's cause.
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            DiarizerRefusal::Load(e) => std::error::Error::source(e),
            other => other.error().map(|e| e as &(dyn std::error::Error + 'static)),
        }
    }
}

/// The diarizer [`build_diarizer`] chose, and what the user should be told about it.
pub struct ChosenDiarizer {
    /// The diarizer.
    pub diarizer: Box<dyn Diarizer>,
    /// Warnings, in the order they arose.
    pub warnings: Vec<DiarizerWarning>,
}

impl fmt::Debug for ChosenDiarizer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChosenDiarizer")
            .field("diarizer", &self.diarizer.describe())
            .field("warnings", &self.warnings)
            .finish()
    }
}

/// The diarizer for `request`, with the detection settings `options` (the voice activity
/// detector and its binarization, see [`diarize_options`]): the settings are checked (speaker
/// count, overlap margin), then the diarizer is chosen and its model loaded, in the order of
/// the table in the module documentation.
pub fn build_diarizer(
    request: &DiarizerRequest,
    options: &DetectOptions,
) -> Result<ChosenDiarizer, DiarizerRefusal> {
    let mut o = diarize_options(options, request.vad_chosen);
    o.count = request.count()?;
    o.overlap_margin = request.overlap_margin()?;
    let use_pyannote = match request.choice {
        Some(DiarizerChoice::Pyannote) => {
            if request.ge2e_only() {
                return Err(DiarizerRefusal::PyannoteTuned);
            }
            true
        }
        Some(DiarizerChoice::Ge2e) => false,
        None => {
            cfg!(feature = "pyannote")
                && !request.ge2e_only()
                && crate::diarize::pyannote::is_installed(&request.model_dir()?)
        }
    };
    if use_pyannote {
        let dir = crate::diarize::pyannote::installed_dir(&request.model_dir()?);
        return Ok(ChosenDiarizer { diarizer: pyannote_diarizer(&dir)?, warnings: Vec::new() });
    }
    ge2e_diarizer(request, o)
}

/// The GE2E pipeline (the embedding model given, else the installed encoder), or voice
/// activity only, with a warning, when no encoder is installed.
fn ge2e_diarizer(
    request: &DiarizerRequest,
    o: DiarizeOptions,
) -> Result<ChosenDiarizer, DiarizerRefusal> {
    let diarizer: Box<dyn Diarizer> = match &request.embedding_model {
        Some(p) if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("onnx")) => {
            onnx_diarizer(p, o)?
        }
        Some(p) => Box::new(Ge2eDiarizer::from_file(p, o).map_err(DiarizerRefusal::Load)?),
        None => {
            let p = ge2e_path(&request.model_dir()?);
            if !p.exists() {
                return Ok(ChosenDiarizer {
                    diarizer: Box::new(VadOnlyDiarizer { vad: o.vad, binarize: o.binarize }),
                    warnings: vec![DiarizerWarning::NoSpeakerModel { path: p }],
                });
            }
            Box::new(Ge2eDiarizer::from_file(&p, o).map_err(DiarizerRefusal::InstalledModel)?)
        }
    };
    Ok(ChosenDiarizer { diarizer, warnings: Vec::new() })
}

/// The pipeline with a user-supplied ONNX speaker-embedding model (docs/models.md has the
/// interface).
#[cfg(feature = "onnx")]
fn onnx_diarizer(
    path: &Path,
    options: DiarizeOptions,
) -> Result<Box<dyn Diarizer>, DiarizerRefusal> {
    let model = crate::diarize::onnx_embed::OnnxEmbedder::load(path)
        .map_err(|error| DiarizerRefusal::OnnxModel { path: path.to_path_buf(), error })?;
    Ok(Box::new(Ge2eDiarizer::with_embedder(Box::new(model), options)))
}

/// Without the `onnx` feature an ONNX file is refused with how to get a build that reads it.
#[cfg(not(feature = "onnx"))]
fn onnx_diarizer(
    path: &Path,
    _options: DiarizeOptions,
) -> Result<Box<dyn Diarizer>, DiarizerRefusal> {
    Err(DiarizerRefusal::OnnxNotBuilt { path: path.to_path_buf() })
}

/// The speakrs pipeline from the installation in `dir` (`<model dir>/pyannote`).
#[cfg(feature = "pyannote")]
fn pyannote_diarizer(dir: &Path) -> Result<Box<dyn Diarizer>, DiarizerRefusal> {
    let d = crate::diarize::pyannote::PyannoteDiarizer::load(dir)
        .map_err(DiarizerRefusal::PyannoteModel)?;
    Ok(Box::new(d))
}

/// Without the `pyannote` feature pyannote is refused with how to get a build that has it.
#[cfg(not(feature = "pyannote"))]
fn pyannote_diarizer(_dir: &Path) -> Result<Box<dyn Diarizer>, DiarizerRefusal> {
    Err(DiarizerRefusal::PyannoteNotBuilt)
}
