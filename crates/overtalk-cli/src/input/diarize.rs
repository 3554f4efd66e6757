//! Speaker diarization of one mixed recording: what `detect`, `analyze`, `report` and `score`
//! do with a single recording given without `--track` or `--channels`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use overtalk::Corpus;
use overtalk_audio::decode::Decoder;
use overtalk_audio::diarize::cluster::SpeakerCount;
use overtalk_audio::diarize::models::{ge2e_path, model_dir};
use overtalk_audio::diarize::{DiarizeOptions, Diarizer, Ge2eDiarizer, VadOnlyDiarizer};
use overtalk_audio::pipeline::{self, DetectOptions};

use crate::app::Globals;

/// Flags for telling speakers apart in a single mixed recording.
#[derive(Debug, Clone, clap::Args)]
pub struct DiarizeArgs {
    /// Tell the speakers of a single mixed recording apart: the default for one recording
    /// without `--track` or `--channels` (needs `overtalk models install`; without a model,
    /// all speech is one speaker, with a warning).
    #[arg(long)]
    pub diarize: bool,
    /// Keep a single mixed recording's speech under one label (voice activity only) instead of
    /// telling its speakers apart.
    #[arg(long, conflicts_with_all = ["diarize", "diarizer", "num_speakers", "min_speakers", "max_speakers", "embedding_model", "overlap_margin"])]
    pub no_diarize: bool,
    /// Which diarizer tells the speakers apart (implies --diarize). Default: `pyannote` when
    /// this build has the `pyannote` feature and `overtalk models install pyannote` was run
    /// and no GE2E-only flag (--vad, --num/min/max-speakers, --embedding-model,
    /// --overlap-margin) is given, else `ge2e`.
    #[arg(long, value_enum, value_name = "NAME")]
    pub diarizer: Option<DiarizerChoice>,
    /// Exactly this many speakers (implies --diarize). (`--speakers` renames speakers.)
    #[arg(long, value_name = "N", conflicts_with_all = ["min_speakers", "max_speakers"])]
    pub num_speakers: Option<usize>,
    /// At least this many speakers (implies --diarize).
    #[arg(long, value_name = "N")]
    pub min_speakers: Option<usize>,
    /// At most this many speakers (implies --diarize).
    #[arg(long, value_name = "N")]
    pub max_speakers: Option<usize>,
    /// A speaker encoder instead of the installed one (implies --diarize): a GE2E encoder in
    /// safetensors form (as `overtalk models install` writes it), or, in builds with the `onnx`
    /// feature, an ONNX model taking a waveform [B, S] or Kaldi fbank [B, T, 80] (docs/models.md).
    #[arg(long, value_name = "FILE")]
    pub embedding_model: Option<PathBuf>,
    /// Overlapped speech (implies --diarize): a speech frame also gets its second-best speaker
    /// when that speaker's score is within this margin of the best one (cosine, 0 to 1; e.g.
    /// 0.05). Off by default: on the measured recordings it adds more false alarm than it
    /// recovers missed overlap (docs/diarization.md), but without it no overlap is ever found.
    #[arg(long, value_name = "MARGIN")]
    pub overlap_margin: Option<f32>,
}

/// The diarizers `--diarizer` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum DiarizerChoice {
    /// pyannote community-1 style, through speakrs (segmentation-3.0, WeSpeaker ResNet34,
    /// PLDA + VBx; overlap modelled). Needs the `pyannote` feature and `overtalk models install
    /// pyannote`.
    Pyannote,
    /// GE2E embeddings, clustering and resegmentation (`overtalk models install ge2e`); works
    /// offline from a PyPI wheel.
    Ge2e,
}

impl DiarizeArgs {
    /// Whether any flag asks for diarization explicitly.
    pub fn wanted(&self) -> bool {
        self.diarize
            || self.diarizer.is_some()
            || self.num_speakers.is_some()
            || self.min_speakers.is_some()
            || self.max_speakers.is_some()
            || self.embedding_model.is_some()
            || self.overlap_margin.is_some()
    }

    fn overlap_margin(&self) -> Result<Option<f32>> {
        match self.overlap_margin {
            Some(m) if !(0.0..=1.0).contains(&m) => {
                bail!("--overlap-margin {m}: expected a cosine margin from 0 to 1")
            }
            m => Ok(m),
        }
    }

    fn count(&self) -> Result<SpeakerCount> {
        let d = SpeakerCount::default();
        let c = SpeakerCount {
            exact: self.num_speakers,
            min: self.min_speakers.unwrap_or(d.min),
            max: self.max_speakers.unwrap_or(d.max),
        };
        if c.exact == Some(0) || c.min == 0 {
            bail!("--num-speakers/--min-speakers: expected at least 1");
        }
        if c.min > c.max {
            bail!("--min-speakers {} is larger than --max-speakers {}", c.min, c.max);
        }
        Ok(c)
    }
}

/// The pipeline with a user-supplied ONNX speaker-embedding model (docs/models.md has the
/// interface).
#[cfg(feature = "onnx")]
fn onnx_diarizer(path: &Path, options: DiarizeOptions) -> Result<Box<dyn Diarizer>> {
    let model = overtalk_audio::diarize::onnx_embed::OnnxEmbedder::load(path)
        .with_context(|| format!("loading the speaker-embedding model {}", path.display()))?;
    Ok(Box::new(Ge2eDiarizer::with_embedder(Box::new(model), options)))
}

/// Without the `onnx` feature an ONNX file is refused with how to get a build that reads it.
#[cfg(not(feature = "onnx"))]
fn onnx_diarizer(path: &Path, _options: DiarizeOptions) -> Result<Box<dyn Diarizer>> {
    bail!(
        "{}: ONNX speaker models need a build with the `onnx` feature \
         (cargo install --path crates/overtalk-cli --features onnx); or give a GE2E safetensors \
         file (`overtalk models install` writes one)",
        path.display()
    )
}

/// The GE2E pipeline (`--embedding-model`, else the installed encoder), or voice activity
/// only, with a warning, when no encoder is installed.
fn ge2e_diarizer(
    args: &DiarizeArgs,
    o: DiarizeOptions,
    globals: Globals,
) -> Result<Box<dyn Diarizer>> {
    Ok(match &args.embedding_model {
        Some(p) => {
            if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("onnx")) {
                onnx_diarizer(p, o)?
            } else {
                Box::new(Ge2eDiarizer::from_file(p, o)?)
            }
        }
        None => {
            let p = ge2e_path(&model_dir()?);
            if p.exists() {
                Box::new(Ge2eDiarizer::from_file(&p, o).with_context(|| {
                    "the installed speaker model does not load; run `overtalk models install` again"
                })?)
            } else {
                if !globals.quiet {
                    eprintln!(
                        "overtalk: warning: no speaker model at {} (run `overtalk models install`); \
                         falling back to voice activity only: all speech is one speaker",
                        p.display()
                    );
                }
                Box::new(VadOnlyDiarizer { vad: o.vad, binarize: o.binarize })
            }
        }
    })
}

/// The speakrs pipeline from the installation in `dir` (`<model dir>/pyannote`).
#[cfg(feature = "pyannote")]
fn pyannote_diarizer(dir: &Path) -> Result<Box<dyn Diarizer>> {
    let d = overtalk_audio::diarize::pyannote::PyannoteDiarizer::load(dir)
        .context("loading the pyannote diarizer")?;
    Ok(Box::new(d))
}

/// Without the `pyannote` feature `--diarizer pyannote` is refused with how to get a build
/// that has it.
#[cfg(not(feature = "pyannote"))]
fn pyannote_diarizer(_dir: &Path) -> Result<Box<dyn Diarizer>> {
    bail!(
        "--diarizer pyannote needs a build with the `pyannote` feature \
         (cargo install --path crates/overtalk-cli --features pyannote); \
         or use --diarizer ge2e"
    )
}

/// Diarizes `audio`: who spoke when, as a corpus of one recording (`recording_id`, default the
/// file name without its extension), and the method and parameters that produced it.
///
/// `vad_chosen`: whether `--vad`/`--vad-model` was given. If not, the diarizer takes the best
/// detector this build and installation offer ([`DiarizeOptions::preferred`]: the mean of
/// earshot and Silero with its own thresholds when built with `onnx` and the Silero model is
/// installed, else earshot), silently; the method names the choice.
pub fn diarize(
    args: &DiarizeArgs,
    audio: &Path,
    recording_id: Option<&str>,
    options: &DetectOptions,
    vad_chosen: bool,
    globals: Globals,
) -> Result<(Corpus, overtalk_audio::provenance::Provenance)> {
    // A file that is not a recording is refused before any model is looked for.
    let decoder = Decoder::open(audio, &options.decode).context("detecting speech")?;
    let mut o = pipeline::diarize_options(options, vad_chosen);
    o.count = args.count()?;
    o.overlap_margin = args.overlap_margin()?;
    let ge2e_only = vad_chosen
        || args.num_speakers.is_some()
        || args.min_speakers.is_some()
        || args.max_speakers.is_some()
        || args.embedding_model.is_some()
        || args.overlap_margin.is_some();
    let use_pyannote = match args.diarizer {
        Some(DiarizerChoice::Pyannote) => {
            if ge2e_only {
                bail!(
                    "--diarizer pyannote takes none of --vad, --vad-model, --num-speakers, \
                     --min-speakers, --max-speakers, --embedding-model, --overlap-margin \
                     (speakrs finds speech, overlap and the number of speakers itself); \
                     they apply to --diarizer ge2e"
                );
            }
            true
        }
        Some(DiarizerChoice::Ge2e) => false,
        None => {
            cfg!(feature = "pyannote")
                && !ge2e_only
                && overtalk_audio::diarize::pyannote::is_installed(&model_dir()?)
        }
    };
    let diarizer: Box<dyn Diarizer> = if use_pyannote {
        pyannote_diarizer(&overtalk_audio::diarize::pyannote::installed_dir(&model_dir()?))?
    } else {
        ge2e_diarizer(args, o, globals)?
    };
    let decode_bar = crate::progress::seconds_bar(globals);
    let mut shown = 0i64;
    let share_bar = std::sync::OnceLock::new();
    let found = pipeline::diarize_recording(
        decoder,
        audio,
        diarizer.as_ref(),
        recording_id,
        &mut |p| {
            if let Some(bar) = &decode_bar {
                if p.done.micros() / 1_000_000 != shown {
                    shown = p.done.micros() / 1_000_000;
                    crate::progress::show_seconds(bar, p.path, p.done, p.total);
                }
            }
        },
        &mut || {
            if let Some(bar) = &decode_bar {
                bar.finish_and_clear();
            }
            let _ =
                share_bar.set(crate::progress::percent_bar(globals, "telling the speakers apart"));
        },
        &|share| {
            if let Some(Some(bar)) = share_bar.get() {
                crate::progress::show_share(bar, share);
            }
        },
    );
    if let Some(Some(bar)) = share_bar.get() {
        bar.finish_and_clear();
    }
    let found = found.map_err(|failure| match failure {
        pipeline::DiarizeFailure::Decoding(e) => anyhow::Error::new(e).context("decoding"),
        pipeline::DiarizeFailure::Diarizing(e) => anyhow::Error::new(e).context("diarizing"),
    })?;
    Ok((Corpus::single(found.recording_id, found.transcript), found.provenance))
}
