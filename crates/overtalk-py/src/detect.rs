//! Who spoke when in recordings: files (one per speaker, or channels of one file) or samples
//! held in memory (a NumPy array, one column per speaker), through `overtalk_audio::pipeline`
//! — the multitrack rule for two or more tracks, voice activity alone for one.

use std::path::PathBuf;

use overtalk::{Segment, Time, TranscriptBuilder};
use overtalk_audio::decode::DecodeStats;
use overtalk_audio::features::{TrackAnalyzer, TrackFeatures};
use overtalk_audio::pipeline::{self, DetectOptions, Detection, TrackReport, TrackSpec};
use overtalk_audio::vad::VadKind;
use pyo3::prelude::*;

use crate::corpus::Conversation;
use crate::{to_py, OvertalkError};

fn detect_options(vad: &str) -> PyResult<DetectOptions> {
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
    Ok(DetectOptions { vad, ..DetectOptions::default() })
}

/// The method and parameters of the detection, in the words `overtalk detect` records.
fn describe(options: &DetectOptions, tracks: usize) -> String {
    let vad = options.vad.map_or("none (energy only)", |v| v.name());
    if tracks == 1 {
        let b = &options.binarize;
        format!(
            "one track, one speaker (voice activity only); vad {vad}, onset {}, offset {}; \
             min speech {} s, min silence {} s",
            b.onset, b.offset, b.min_speech, b.min_silence
        )
    } else {
        let m = &options.multitrack;
        format!(
            "{tracks} tracks, one per speaker, bleed rejected per band; vad {vad}; \
             min speech {} s, min silence {} s",
            m.min_speech, m.min_silence
        )
    }
}

/// The detected speech as a conversation: every track a speaker (even a silent one), the
/// extent the recording's length.
fn conversation(id: String, found: &Detection, method: String) -> Conversation {
    let mut b = TranscriptBuilder::new();
    for t in &found.tracks {
        b.speaker(&t.name);
    }
    let ann = &found.annotation;
    for track in ann.tracks() {
        b.add(track.segment, ann.speaker_name(track.speaker), None);
    }
    b.extent(Segment::new(Time::from_micros(0), Time::from_micros(found.duration.micros())));
    Conversation::new(id, b.build(), Some(method))
}

/// Detects speech in files: `tracks` holds `(speaker, path, channel or None)`.
#[pyfunction]
#[pyo3(signature = (recording_id, tracks, vad="earshot"))]
fn detect_files(
    py: Python<'_>,
    recording_id: String,
    tracks: Vec<(String, PathBuf, Option<usize>)>,
    vad: &str,
) -> PyResult<Conversation> {
    let options = detect_options(vad)?;
    if tracks.is_empty() {
        return Err(OvertalkError::new_err("no tracks to detect speech in"));
    }
    let specs: Vec<TrackSpec> =
        tracks.into_iter().map(|(name, path, channel)| TrackSpec { name, path, channel }).collect();
    py.detach(|| {
        let found = pipeline::detect(&specs, &options, &mut |_| {}).map_err(to_py)?;
        Ok(conversation(recording_id, &found, describe(&options, specs.len())))
    })
}

/// Detects speech in samples: one `(speaker, little-endian float32 bytes)` per track, all at
/// `sample_rate` Hz.
#[pyfunction]
#[pyo3(signature = (recording_id, tracks, sample_rate, vad="earshot"))]
fn detect_samples(
    py: Python<'_>,
    recording_id: String,
    tracks: Vec<(String, Vec<u8>)>,
    sample_rate: u32,
    vad: &str,
) -> PyResult<Conversation> {
    let options = detect_options(vad)?;
    if tracks.is_empty() {
        return Err(OvertalkError::new_err("no tracks to detect speech in"));
    }
    if sample_rate == 0 {
        return Err(OvertalkError::new_err("sample_rate must be positive"));
    }
    py.detach(|| {
        let mut features: Vec<TrackFeatures> = Vec::with_capacity(tracks.len());
        let mut reports = Vec::with_capacity(tracks.len());
        for (name, bytes) in &tracks {
            let mut a = TrackAnalyzer::new(name, sample_rate, options.vad.map(VadKind::build))
                .map_err(to_py)?;
            let samples = bytes
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .map(|s| if s.is_finite() { s } else { 0.0 });
            a.push(samples).map_err(to_py)?;
            let f = a.finish().map_err(to_py)?;
            let n = (bytes.len() / 4) as i64;
            reports.push(TrackReport {
                name: name.clone(),
                path: PathBuf::new(),
                channel: None,
                sample_rate,
                duration: overtalk::Delta::from_micros(n * 1_000_000 / i64::from(sample_rate)),
                speech: overtalk::Delta::ZERO,
                stats: DecodeStats::default(),
            });
            features.push(f);
        }
        let found = pipeline::detect_features(&features, &mut reports, &options).map_err(to_py)?;
        Ok(conversation(recording_id, &found, describe(&options, tracks.len())))
    })
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(detect_files, m)?)?;
    m.add_function(wrap_pyfunction!(detect_samples, m)?)?;
    Ok(())
}
