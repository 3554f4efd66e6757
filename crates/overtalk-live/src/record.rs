//! `--record DIR`: at the end of a session (the source ended or vanished, or Ctrl-C), the
//! committed detection as RTTM, its analysis as JSON — what `overtalk analyze --format json`
//! gives on that RTTM, with the session's warnings about its input as `analyze` of the
//! recordings carries them — and the HTML report, each written to a temporary file in `DIR` and
//! renamed into place ([`overtalk::atomic`]), so a reader never sees half a file.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use overtalk::analysis::{analyze, Analysis, AnalysisWarning, Params};
use overtalk::atomic;
use overtalk::format::{self, Format, ReadOptions};
use overtalk::output::json::Json;
use overtalk::output::{Conversation, Exporter};
use overtalk::report::html::{conversation_report, ConversationView, ReportOptions};
use overtalk::{Annotation, Corpus, Transcript};

/// The files a record wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recorded {
    /// `DIR/RECORDING.rttm`.
    pub rttm: PathBuf,
    /// `DIR/RECORDING.analysis.json`.
    pub analysis: PathBuf,
    /// `DIR/RECORDING.html`.
    pub report: PathBuf,
}

/// Makes sure the record can be written into `dir` before the session starts: creates it
/// if missing and creates (then removes) a file in it, so a path that is a file, a directory
/// without write permission or a read-only file system is an error naming `dir` at once,
/// not after an hour of audio whose record would then be lost.
pub fn prepare(dir: &Path) -> Result<()> {
    let shown = dir.display();
    if dir.exists() && !dir.is_dir() {
        bail!("--record {shown}: not a directory (the record is three files written into it)");
    }
    std::fs::create_dir_all(dir).with_context(|| format!("--record {shown}: creating it"))?;
    let probe = dir.join(format!(".overtalk-live-{}.check", std::process::id()));
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&probe)
        .with_context(|| format!("--record {shown}: cannot write into it"))?;
    std::fs::remove_file(&probe)
        .with_context(|| format!("--record {shown}: removing {}", probe.display()))?;
    Ok(())
}

/// The RTTM text of a detection, and the analysis `overtalk analyze` makes of that text.
pub fn rttm_and_analysis(
    recording: &str,
    annotation: Annotation,
    params: &Params,
) -> Result<(String, Transcript, Analysis)> {
    let corpus = Corpus::single(recording, Transcript::from(annotation));
    let mut rttm = Vec::new();
    format::write(&corpus, Format::Rttm, &mut rttm)?;
    let rttm = String::from_utf8(rttm)?;
    // Read back as `analyze` reads the file, so the analysis is the file's.
    let options =
        ReadOptions { recording_id: Some(recording.to_owned()), ..ReadOptions::default() };
    let read = format::read_str(&rttm, Format::Rttm, &options)?;
    let transcript = read
        .corpus
        .get(recording)
        .cloned()
        .unwrap_or_else(|| Transcript::from(Annotation::default()));
    let analysis = analyze(&transcript, params)?;
    Ok((rttm, transcript, analysis))
}

/// Writes the three files into `dir` (created if missing); `detection` says how the speech
/// was found, for the report; `notes` are the session's warnings about its input (audio
/// tracks left unread, a track that sounds like music), carried into the analysis's warnings
/// as `overtalk analyze` of the recordings carries the same warnings of `detect`.
pub fn write(
    dir: &Path,
    recording: &str,
    annotation: Annotation,
    params: &Params,
    preset: &str,
    detection: &str,
    notes: &[String],
) -> Result<Recorded> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let (rttm, transcript, mut analysis) = rttm_and_analysis(recording, annotation, params)?;
    for note in notes {
        analysis.diagnostics.warnings.push(AnalysisWarning::Recording(note.clone()));
    }
    // The recording id as one file name in `dir`, whatever it holds.
    let stem = overtalk::format::file_stem(recording);
    let files = Recorded {
        rttm: dir.join(format!("{stem}.rttm")),
        analysis: dir.join(format!("{stem}.analysis.json")),
        report: dir.join(format!("{stem}.html")),
    };
    atomic::write(&files.rttm, rttm.as_bytes())?;
    let conv = [Conversation::new(recording, None, &analysis)];
    atomic::write_with(&files.analysis, |out| -> Result<()> { Ok(Json.export(&conv[..], out)?) })?;
    let view = ConversationView { recording, analysis: &analysis, transcript: Some(&transcript) };
    let options = ReportOptions {
        title: None,
        audio: None,
        preset: Some(preset.to_owned()),
        sources: vec![files.rttm.display().to_string()],
        detection: vec![format!("{recording}: {detection}")],
    };
    let html = conversation_report(&[view], &options)?;
    atomic::write(&files.report, html.as_bytes())?;
    Ok(files)
}
