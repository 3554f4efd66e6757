//! From recordings to an annotation: decode every input once, analyse each track, detect.
//!
//! ```text
//! TrackSpec "A" = a.wav            ─┐
//! TrackSpec "B" = b.wav            ─┼─► decode ─► TrackAnalyzer per track ─► multitrack::detect
//! TrackSpec "C" = c.wav            ─┘                                       (≥ 2 tracks)
//! TrackSpec "Host" = call.wav ch 0 ─┐  one decode, one analyzer per channel   or VAD only
//! TrackSpec "Guest" = call.wav ch 1 ─┘                                       (1 track)
//! ```
//!
//! Tracks must describe the same stretch of time: their durations may differ by at most
//! [`DetectOptions::max_length_diff`], and their sample rates must agree unless
//! [`DetectOptions::allow_rate_mismatch`] is set (different rates usually mean different devices
//! whose clocks drift apart).

use std::path::{Path, PathBuf};

use overtalk::{Annotation, Delta, Error, Result};

use crate::decode::{frames_to_delta, DecodeOptions, DecodeStats, Decoder};
use crate::features::{TrackAnalyzer, TrackFeatures};
use crate::frames::Binarize;
use crate::multitrack::{self, annotation_from_regions, MultitrackOptions, MultitrackReport};
use crate::vad::VadKind;

/// One speaker's track: a file, optionally one channel of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrackSpec {
    /// The speaker label.
    pub name: String,
    /// The recording.
    pub path: PathBuf,
    /// The channel (0-based); `None` mixes all channels down.
    pub channel: Option<usize>,
}

/// Everything detection can be told.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DetectOptions {
    /// Caps for decoding.
    pub decode: DecodeOptions,
    /// The voice activity detector; `None` runs energy rules only.
    pub vad: Option<VadKind>,
    /// The multitrack rule (two or more tracks).
    pub multitrack: MultitrackOptions,
    /// Binarization of the VAD for a single track.
    pub binarize: Binarize,
    /// The largest difference in duration accepted between tracks.
    pub max_length_diff: Delta,
    /// Accept tracks with different sample rates (each is resampled to 16 kHz).
    pub allow_rate_mismatch: bool,
}

impl Default for DetectOptions {
    fn default() -> DetectOptions {
        DetectOptions {
            decode: DecodeOptions::default(),
            vad: Some(VadKind::Earshot),
            multitrack: MultitrackOptions::default(),
            binarize: Binarize::default(),
            max_length_diff: Delta::from_micros(1_000_000),
            allow_rate_mismatch: false,
        }
    }
}

/// What was found about one track.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackReport {
    /// The speaker label.
    pub name: String,
    /// The recording.
    pub path: PathBuf,
    /// The channel used (`None` = mixed down).
    pub channel: Option<usize>,
    /// The recording's sample rate.
    pub sample_rate: u32,
    /// Its duration.
    pub duration: Delta,
    /// Time detected as this speaker's speech.
    pub speech: Delta,
    /// Decoder counts (non-finite samples, corrupt packets).
    pub stats: DecodeStats,
}

/// The result of [`detect`].
#[derive(Clone, Debug, PartialEq)]
pub struct Detection {
    /// Who spoke when (one speaker per track; overlaps kept).
    pub annotation: Annotation,
    /// Per track, in the order given.
    pub tracks: Vec<TrackReport>,
    /// What the multitrack rule estimated (absent for a single track).
    pub multitrack: Option<MultitrackReport>,
    /// The analysed duration (the longest track: shorter ones are silent after their end).
    pub duration: Delta,
}

/// Progress while decoding: which file, how far, out of how much (when known).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress<'a> {
    /// The file being decoded.
    pub path: &'a Path,
    /// Audio decoded so far in this file.
    pub done: Delta,
    /// The file's declared duration, if the container declares one.
    pub total: Option<Delta>,
}

/// Decodes and analyses every track into features (one decode per distinct file).
pub fn analyze(
    specs: &[TrackSpec],
    options: &DetectOptions,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<(Vec<TrackFeatures>, Vec<TrackReport>)> {
    if specs.is_empty() {
        return Err(Error::invalid("no tracks given"));
    }
    for (i, a) in specs.iter().enumerate() {
        if specs[..i].iter().any(|b| b.name == a.name) {
            return Err(Error::invalid(format!("the speaker name {:?} is given twice", a.name)));
        }
    }
    let mut features: Vec<Option<TrackFeatures>> = vec![None; specs.len()];
    let mut reports: Vec<Option<TrackReport>> = vec![None; specs.len()];
    let mut done = vec![false; specs.len()];
    for first in 0..specs.len() {
        if done[first] {
            continue;
        }
        let path = &specs[first].path;
        let group: Vec<usize> =
            (first..specs.len()).filter(|&i| !done[i] && specs[i].path == *path).collect();
        let mut decoder = Decoder::open(path, &options.decode)?;
        let info = decoder.info().clone();
        let mut analyzers = Vec::with_capacity(group.len());
        for &i in &group {
            if let Some(c) = specs[i].channel {
                if info.channels > 0 && c >= info.channels {
                    return Err(Error::invalid(format!(
                        "channel {} requested for {:?}, but the recording has {} channel{}",
                        c + 1,
                        specs[i].name,
                        info.channels,
                        if info.channels == 1 { "" } else { "s" }
                    ))
                    .with_path(path));
                }
            }
            analyzers.push(TrackAnalyzer::new(
                &specs[i].name,
                info.sample_rate,
                options.vad.map(VadKind::build),
            )?);
        }
        let total = info.declared_duration();
        let mut last_report = 0u64;
        while let Some(block) = decoder.next_block().map_err(|e| e.with_path(path))? {
            for (a, &i) in analyzers.iter_mut().zip(&group) {
                match specs[i].channel {
                    Some(c) if c >= block.channels() => {
                        return Err(Error::invalid(format!(
                            "channel {} requested for {:?}, but the recording has {} channels",
                            c + 1,
                            specs[i].name,
                            block.channels()
                        ))
                        .with_path(path));
                    }
                    Some(c) => a.push(block.channel(c))?,
                    None => a.push(block.mono())?,
                }
            }
            let at = block.first_frame + block.frames() as u64;
            if at - last_report >= u64::from(info.sample_rate) * 10 {
                last_report = at;
                progress(Progress { path, done: frames_to_delta(at, info.sample_rate), total });
            }
        }
        let stats = decoder.stats();
        let sample_rate = decoder.info().sample_rate;
        progress(Progress { path, done: frames_to_delta(stats.frames, sample_rate), total });
        for (a, &i) in analyzers.into_iter().zip(&group) {
            features[i] = Some(a.finish()?);
            reports[i] = Some(TrackReport {
                name: specs[i].name.clone(),
                path: path.clone(),
                channel: specs[i].channel,
                sample_rate,
                duration: frames_to_delta(stats.frames, sample_rate),
                speech: Delta::ZERO,
                stats,
            });
            done[i] = true;
        }
    }
    let mut features: Vec<TrackFeatures> = features.into_iter().flatten().collect();
    let reports: Vec<TrackReport> = reports.into_iter().flatten().collect();
    check_consistent(&reports, options)?;
    // Tracks of unequal length (within the tolerance) are analysed over the longest, the
    // shorter ones silent after their end.
    let longest = features.iter().map(TrackFeatures::frames).max().unwrap_or(0);
    for f in &mut features {
        f.pad_to(longest)?;
    }
    Ok((features, reports))
}

fn check_consistent(reports: &[TrackReport], options: &DetectOptions) -> Result<()> {
    let Some(first) = reports.first() else { return Ok(()) };
    for r in &reports[1..] {
        if r.sample_rate != first.sample_rate && !options.allow_rate_mismatch {
            return Err(Error::invalid(format!(
                "tracks have different sample rates: {} ({}) is {} Hz, {} ({}) is {} Hz; \
                 one-mic-per-speaker tracks should come from one recorder \
                 (allow it with --allow-rate-mismatch)",
                first.name,
                first.path.display(),
                first.sample_rate,
                r.name,
                r.path.display(),
                r.sample_rate
            )));
        }
        let diff = Delta::from_micros((r.duration.micros() - first.duration.micros()).abs());
        if diff > options.max_length_diff {
            return Err(Error::invalid(format!(
                "tracks have different lengths: {} ({}) lasts {} s, {} ({}) lasts {} s; \
                 they must cover the same stretch of time (tolerance {} s, --max-length-diff)",
                first.name,
                first.path.display(),
                first.duration,
                r.name,
                r.path.display(),
                r.duration,
                options.max_length_diff
            )));
        }
    }
    Ok(())
}

/// Who spoke when in the given tracks: the multitrack rule for two or more tracks, the voice
/// activity detector alone for one.
pub fn detect(
    specs: &[TrackSpec],
    options: &DetectOptions,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Detection> {
    let (features, mut reports) = analyze(specs, options, progress)?;
    detect_features(&features, &mut reports, options)
}

/// The detection step on features already computed by [`analyze`].
pub fn detect_features(
    features: &[TrackFeatures],
    reports: &mut [TrackReport],
    options: &DetectOptions,
) -> Result<Detection> {
    let duration = features.iter().map(TrackFeatures::duration).min().unwrap_or(Delta::ZERO);
    let (annotation, multitrack) = if features.len() == 1 {
        let f = &features[0];
        let region = if f.vad.is_empty() {
            // No VAD: energy above the 10th percentile by the multitrack onset margin.
            let opts = MultitrackOptions { use_vad: false, ..options.multitrack };
            let (mut r, _) = multitrack::detect_regions(features, &opts)?;
            r.pop().unwrap_or_default()
        } else {
            options.binarize.apply(f.vad.iter().map(|&p| f32::from(p) / 255.0), f.vad_hop)
        };
        let end = overtalk::Time::from_micros(duration.micros());
        let region = match overtalk::Segment::new(overtalk::Time::from_micros(0), end) {
            Some(all) => region.crop_segment(all),
            None => overtalk::Region::new(),
        };
        (annotation_from_regions([(f.name.as_str(), region)]), None)
    } else {
        let (ann, report) = multitrack::detect(features, &options.multitrack)?;
        (ann, Some(report))
    };
    let durations = annotation.speaker_durations();
    for r in reports.iter_mut() {
        if let Some(id) = annotation.speakers().get(&r.name) {
            r.speech = durations[id.index()];
        }
    }
    Ok(Detection { annotation, tracks: reports.to_vec(), multitrack, duration })
}

/// Decodes bytes held in memory and returns the speech found by the default detector: the
/// whole decode + detect path on untrusted input, with the caps of `options` (the fuzz target's
/// entry point).
pub fn detect_bytes(bytes: Vec<u8>, options: &DetectOptions) -> Result<Detection> {
    let mut decoder = Decoder::from_bytes(bytes, None, &options.decode)?;
    let info = decoder.info().clone();
    let channels = info.channels.clamp(1, 8);
    let mut analyzers = (0..channels)
        .map(|c| {
            TrackAnalyzer::new(
                &format!("ch{}", c + 1),
                info.sample_rate,
                options.vad.map(VadKind::build),
            )
        })
        .collect::<Result<Vec<_>>>()?;
    while let Some(block) = decoder.next_block()? {
        for (c, a) in analyzers.iter_mut().enumerate() {
            a.push(block.channel(c.min(block.channels() - 1)))?;
        }
    }
    let stats = decoder.stats();
    let features = analyzers.into_iter().map(TrackAnalyzer::finish).collect::<Result<Vec<_>>>()?;
    let mut reports: Vec<TrackReport> = features
        .iter()
        .enumerate()
        .map(|(c, f)| TrackReport {
            name: f.name.clone(),
            path: PathBuf::new(),
            channel: Some(c),
            sample_rate: info.sample_rate,
            duration: frames_to_delta(stats.frames, info.sample_rate),
            speech: Delta::ZERO,
            stats,
        })
        .collect();
    detect_features(&features, &mut reports, options)
}
