//! Speaker diarization of one mixed recording: what `detect`, `analyze`, `report` and `score`
//! do with a single recording given without `--track` or `--channels`.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use overtalk::Corpus;
use overtalk_audio::decode::Decoder;
use overtalk_audio::pipeline::{self, DetectOptions, DiarizerChoice, DiarizerRequest};

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
    #[arg(long, value_name = "NAME", value_parser = crate::named_arg::named_with_help(|c: DiarizerChoice| Some(c.help())))]
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

impl DiarizeArgs {
    /// Whether any flag asks for diarization explicitly.
    pub fn wanted(&self) -> bool {
        !self.given().is_empty()
    }

    /// The flags given that ask for diarization, as typed (`--num-speakers`): named in the
    /// error when there is no recording to diarize.
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--diarize", self.diarize),
            ("--diarizer", self.diarizer.is_some()),
            ("--num-speakers", self.num_speakers.is_some()),
            ("--min-speakers", self.min_speakers.is_some()),
            ("--max-speakers", self.max_speakers.is_some()),
            ("--embedding-model", self.embedding_model.is_some()),
            ("--overlap-margin", self.overlap_margin.is_some()),
        ]
        .into_iter()
        .filter_map(|(flag, set)| set.then_some(flag))
        .collect()
    }

    /// The flags as the library's request; `vad_chosen`: whether `--vad`/`--vad-model` was
    /// given.
    fn request(&self, vad_chosen: bool) -> DiarizerRequest {
        DiarizerRequest {
            choice: self.diarizer,
            vad_chosen,
            num_speakers: self.num_speakers,
            min_speakers: self.min_speakers,
            max_speakers: self.max_speakers,
            embedding_model: self.embedding_model.clone(),
            overlap_margin: self.overlap_margin,
            model_dir: None,
        }
    }
}

/// Diarizes `audio`: who spoke when, as a corpus of one recording (`recording_id`, default the
/// file name without its extension), and the method and parameters that produced it.
///
/// `vad_chosen`: whether `--vad`/`--vad-model` was given. If not, the diarizer takes the best
/// detector this build and installation offer
/// ([`overtalk_audio::diarize::DiarizeOptions::preferred`]: the mean of
/// earshot and Silero with its own thresholds when built with `onnx` and the Silero model is
/// installed, else earshot), silently; the method names the choice.
pub fn diarize(
    args: &DiarizeArgs,
    audio: &Path,
    recording_id: Option<&str>,
    options: &DetectOptions,
    vad_chosen: bool,
    globals: Globals,
) -> Result<(Corpus, overtalk_audio::provenance::Provenance, Vec<String>)> {
    // A file that is not a recording is refused before any model is looked for.
    let decoder = Decoder::open(audio, &options.decode).context("detecting speech")?;
    let chosen = pipeline::build_diarizer(&args.request(vad_chosen), options)?;
    if !globals.quiet {
        for w in &chosen.warnings {
            eprintln!("overtalk: warning: {w}");
        }
    }
    let diarizer = chosen.diarizer;
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
    let mut notes: Vec<String> = found.warnings.iter().map(ToString::to_string).collect();
    // A count asked for and not given back is said (fewer stretches of speech than speakers
    // asked for); without a speaker model the fallback's own warning says why.
    let shortfall = pipeline::count_warning(
        &audio.display().to_string(),
        args.num_speakers,
        found.transcript.annotation().speakers().len(),
        found.provenance.voice_activity_only(),
    );
    if !globals.quiet {
        for w in &notes {
            eprintln!("overtalk: warning: {w}");
        }
        if let Some(w) = &shortfall {
            eprintln!("overtalk: warning: {w} (--num-speakers)");
        }
    }
    notes.extend(shortfall);
    Ok((Corpus::single(found.recording_id, found.transcript), found.provenance, notes))
}
