//! Who spoke when in recordings: files (one per speaker, or channels of one file) or samples
//! held in memory (a NumPy array, one column per speaker), through `overtalk_audio::pipeline`
//! — the multitrack rule for two or more tracks, voice activity alone for one.

use std::path::PathBuf;

use overtalk_audio::pipeline::{self, DetectOptions, Detection, TrackSpec};
use overtalk_audio::vad::VadKind;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::corpus::Conversation;
use crate::{to_py, warn, OvertalkError};

/// The longest recording the decoder takes: `max_duration` seconds (`--max-duration`), by
/// default the decoder's own limit (24 hours).
pub(crate) fn max_duration(seconds: Option<f64>) -> PyResult<overtalk::Delta> {
    match seconds {
        None => Ok(DetectOptions::default().decode.max_duration),
        Some(s) => match overtalk::Delta::from_secs_f64(s) {
            Some(d) if d.micros() >= 0 => Ok(d),
            _ => Err(OvertalkError::new_err(format!(
                "max_duration {s}: expected a non-negative number of seconds"
            ))),
        },
    }
}

fn detect_options(vad: &str, max: Option<f64>) -> PyResult<DetectOptions> {
    let mut options = DetectOptions::default();
    options.decode.max_duration = max_duration(max)?;
    let vad = match vad {
        "earshot" => Some(VadKind::Earshot),
        "energy" => Some(VadKind::Energy),
        "none" => None,
        v => {
            return Err(OvertalkError::new_err(format!(
                "unknown vad {v:?} (earshot, energy or none)"
            )))
        }
    };
    Ok(DetectOptions { vad, ..options })
}

/// The detected speech as a conversation, with the description `overtalk detect` records.
fn conversation(id: String, found: &Detection, options: &DetectOptions) -> Conversation {
    let offsets: Vec<(&str, overtalk::Delta)> =
        found.tracks.iter().map(|t| (t.name.as_str(), t.offset)).collect();
    let provenance = pipeline::tracks_provenance(options, &offsets);
    Conversation::new(id, found.transcript(), Some(provenance.description))
}

/// One track of [`detect_files`]: `(speaker, path, channel, offset in seconds, audio track)`.
type FileTrack = (String, PathBuf, Option<usize>, f64, Option<usize>);

/// Detects speech in files: `tracks` holds `(speaker, path, channel or None, offset in
/// seconds, audio track or None)`, the offset placing the file on the common timeline as
/// `--track-offset` does, the audio track (0-based) choosing one of a file's audio tracks as
/// `--audio-tracks` does;
/// without a `recording_id`, the one `overtalk detect --track` makes from the file names. What the
/// command line warns about (a track whose speech the bleed rule mostly rejected, what
/// decoding repaired) is given as Python warnings.
#[pyfunction]
#[pyo3(signature = (recording_id, tracks, vad="earshot", max_duration=None))]
fn detect_files(
    py: Python<'_>,
    recording_id: Option<String>,
    tracks: Vec<FileTrack>,
    vad: &str,
    max_duration: Option<f64>,
) -> PyResult<Conversation> {
    let options = detect_options(vad, max_duration)?;
    if tracks.is_empty() {
        return Err(OvertalkError::new_err("no tracks to detect speech in"));
    }
    let specs: Vec<TrackSpec> = tracks
        .into_iter()
        .map(|(name, path, channel, seconds, audio_track)| {
            let offset = overtalk::Delta::from_secs_f64(seconds).ok_or_else(|| {
                PyValueError::new_err(if seconds.is_finite() {
                    format!(
                        "track_offsets[{name:?}]: out of range: an offset is at most {} hours \
                         either way, got {seconds}",
                        overtalk::time::MAX_MICROS / 3_600_000_000
                    )
                } else {
                    format!(
                        "track_offsets[{name:?}]: expected a finite number of seconds, got {seconds}"
                    )
                })
            })?;
            Ok(TrackSpec { name, path, channel, audio_track, offset })
        })
        .collect::<PyResult<_>>()?;
    let sources: Vec<String> = specs.iter().map(|s| s.path.display().to_string()).collect();
    let found = py.detach(|| {
        pipeline::detect_recording(&specs, &options, recording_id.as_deref(), &mut |_| {})
            .map_err(to_py)
    })?;
    let mut warnings: Vec<String> = found.warnings.iter().map(ToString::to_string).collect();
    warnings.extend(pipeline::silence_warnings(&found.transcript, &sources));
    let description = Some(found.provenance.description);
    let mut c = Conversation::new(found.recording_id, found.transcript, description);
    c.origin.notes = warnings.clone();
    warn(py, warnings)?;
    Ok(c)
}

/// Detects speech in samples: one `(speaker, little-endian float32 bytes)` per track, all at
/// `sample_rate` Hz. What the detection notes (a track whose speech the bleed rule mostly
/// rejected, a track that sounds like music, a speaker or all of them without speech) is
/// warned about and kept with the conversation, as for files.
#[pyfunction]
#[pyo3(signature = (recording_id, tracks, sample_rate, vad="earshot", max_duration=None))]
fn detect_samples(
    py: Python<'_>,
    recording_id: String,
    tracks: Vec<(String, Vec<u8>)>,
    sample_rate: u32,
    vad: &str,
    max_duration: Option<f64>,
) -> PyResult<Conversation> {
    let options = detect_options(vad, max_duration)?;
    if tracks.is_empty() {
        return Err(OvertalkError::new_err("no tracks to detect speech in"));
    }
    if sample_rate == 0 {
        return Err(OvertalkError::new_err("sample_rate must be positive"));
    }
    let (mut c, mut notes) = py.detach(|| {
        let tracks: Vec<(String, Vec<f32>)> = tracks
            .into_iter()
            .map(|(name, bytes)| {
                let samples = bytes
                    .chunks_exact(4)
                    .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect();
                (name, samples)
            })
            .collect();
        let found = pipeline::detect_samples(&tracks, sample_rate, &options).map_err(to_py)?;
        // The multitrack rule's notes and the tracks that sound like music (decoding notes
        // name a file; samples come from none).
        let rule = found.multitrack.iter().flat_map(|m| &m.warnings);
        let mut notes: Vec<String> = rule.map(ToString::to_string).collect();
        notes.extend(found.music.iter().map(|w| format!("samples: {w}")));
        Ok::<_, PyErr>((conversation(recording_id, &found, &options), notes))
    })?;
    notes.extend(pipeline::silence_warnings(&c.transcript, &["samples".into()]));
    c.origin.notes = notes.clone();
    warn(py, notes)?;
    Ok(c)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(detect_files, m)?)?;
    m.add_function(wrap_pyfunction!(detect_samples, m)?)?;
    Ok(())
}
