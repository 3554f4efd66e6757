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
//! Tracks must describe the same stretch of time: their ends on the common timeline may differ
//! by at most [`DetectOptions::max_length_diff`], and their sample rates must agree unless
//! [`DetectOptions::allow_rate_mismatch`] is set (different rates usually mean different devices
//! whose clocks drift apart).
//!
//! Tracks recorded on separate devices start at different times: each track's
//! [`TrackSpec::offset`] places it on the common timeline, and everything found (the speech,
//! the levels, the extent) is on that timeline.
//!
//! ```text
//! common timeline   0 ─────────────────────────────────────────►
//! Host, offset 0    [host.wav ─────────────────────────)
//! Guest, offset +2  ░░[guest.wav ─────────────────────)       silence put before it
//! Cam, offset −1   [×|cam.wav ─────────────────────────)      its first second dropped
//! ```

mod diarizer;

use std::path::{Path, PathBuf};

pub use diarizer::{
    build_diarizer, ChosenDiarizer, DiarizerChoice, DiarizerRefusal, DiarizerRequest,
    DiarizerWarning,
};
use overtalk::{Annotation, Delta, Error, Result, Segment, Time, Transcript, TranscriptBuilder};

use crate::channels::Downmix;
use crate::decode::{frames_to_delta, DecodeOptions, DecodeStats, Decoder};
use crate::diarize::{DiarizeOptions, Diarizer};
use crate::features::{TrackAnalyzer, TrackFeatures};
use crate::frames::Binarize;
use crate::multitrack::{
    self, annotation_from_regions, MultitrackOptions, MultitrackReport, TrackWarning,
};
use crate::music::{MusicMeter, MusicVerdict};
use crate::provenance::{Method, Provenance};
use crate::resample::{Resampler16k, ANALYSIS_RATE};
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
    /// The container's audio track (0-based, in file order: a recorder such as OBS writes one
    /// per microphone); `None` reads its default audio track.
    pub audio_track: Option<usize>,
    /// Where the recording starts on the common timeline of the tracks: positive, that much
    /// after the common zero (silence is put before it); negative, its first seconds lie
    /// before the common zero and are dropped. Zero for tracks of one recorder.
    pub offset: Delta,
}

impl TrackSpec {
    /// A speaker's own file, read whole (its channels mixed down, its default audio track) from
    /// the common zero.
    pub fn file(name: impl Into<String>, path: impl Into<PathBuf>) -> TrackSpec {
        TrackSpec {
            name: name.into(),
            path: path.into(),
            channel: None,
            audio_track: None,
            offset: Delta::ZERO,
        }
    }
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
    /// Where the recording starts on the common timeline ([`TrackSpec::offset`]).
    pub offset: Delta,
    /// The recording's sample rate.
    pub sample_rate: u32,
    /// Its duration (of the file, whatever its offset).
    pub duration: Delta,
    /// Time detected as this speaker's speech.
    pub speech: Delta,
    /// Decoder counts (non-finite samples, corrupt packets).
    pub stats: DecodeStats,
    /// Mixed down, the channels cancelled out: the channel used alone instead, and from when
    /// ([`Downmix`]).
    pub cancelled: Option<(usize, Delta)>,
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
    /// How far each track stands above what the rule predicts there, for laying words
    /// ([`overtalk::words::lay`]); absent for a single track.
    pub levels: Option<multitrack::TrackExcess>,
    /// The tracks whose detected speech sounds like music ([`crate::music`]), in the order
    /// given: [`TrackWarning::MusicTrack`] each.
    pub music: Vec<TrackWarning>,
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

/// Refuses a speaker name given to two tracks: their speech would merge into one speaker.
fn distinct_names<'a>(names: impl Iterator<Item = &'a str>) -> Result<()> {
    let mut seen = std::collections::HashSet::new();
    for name in names {
        if !seen.insert(name) {
            return Err(Error::invalid(format!("the speaker name {name:?} is given twice")));
        }
    }
    Ok(())
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
    distinct_names(specs.iter().map(|s| s.name.as_str()))?;
    for spec in specs {
        if spec.offset > options.decode.max_duration {
            return Err(Error::limit(format!(
                "the offset {} s of {:?} is longer than the longest recording accepted \
                 ({} s, --max-duration)",
                spec.offset, spec.name, options.decode.max_duration
            )));
        }
    }
    let mut features: Vec<Option<TrackFeatures>> = vec![None; specs.len()];
    let mut reports: Vec<Option<TrackReport>> = vec![None; specs.len()];
    let mut done = vec![false; specs.len()];
    for first in 0..specs.len() {
        if done[first] {
            continue;
        }
        let (path, audio_track) = (&specs[first].path, specs[first].audio_track);
        // The tracks read from one decoder: the channels of one audio track of one file.
        let group: Vec<usize> = (first..specs.len())
            .filter(|&i| !done[i] && specs[i].path == *path && specs[i].audio_track == audio_track)
            .collect();
        let decode = DecodeOptions { audio_track, ..options.decode };
        let mut decoder = Decoder::open(path, &decode)?;
        let info = decoder.info().clone();
        let mut analyzers = Vec::with_capacity(group.len());
        for &i in &group {
            if let Some(c) = specs[i].channel {
                if info.channels > 0 && c >= info.channels {
                    return Err(channel_beyond(c, &specs[i].name, info.channels).with_path(path));
                }
            }
            let mut analyzer = TrackAnalyzer::new(
                &specs[i].name,
                info.sample_rate,
                options.vad.map(VadKind::build),
            )?;
            analyzer.measure_music();
            let shift = TrackShift::new(specs[i].offset, info.sample_rate);
            analyzer.push(std::iter::repeat_n(0.0, shift.lead()))?;
            analyzers.push((analyzer, shift));
        }
        let total = info.declared_duration();
        let mut last_report = 0u64;
        let mut downmixes = vec![Downmix::new(); group.len()];
        while let Some(block) = decoder.next_block().map_err(|e| e.with_path(path))? {
            for (((a, shift), &i), downmix) in analyzers.iter_mut().zip(&group).zip(&mut downmixes)
            {
                // Samples before the common zero are dropped (the downmix still hears them).
                let skip = shift.take(block.frames());
                match specs[i].channel {
                    Some(c) if c >= block.channels() => {
                        return Err(
                            channel_beyond(c, &specs[i].name, block.channels()).with_path(path)
                        );
                    }
                    Some(c) => a.push(block.channel(c).skip(skip))?,
                    None => a.push(downmix.mix(&block).iter().copied().skip(skip))?,
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
        for (((a, shift), &i), downmix) in analyzers.into_iter().zip(&group).zip(&downmixes) {
            let duration = frames_to_delta(stats.frames, sample_rate);
            // Every sample dropped: the offset reaches the recording's end, or is within half a
            // sample of it and rounds to it.
            if specs[i].offset < Delta::ZERO && shift.kept() == 0 {
                return Err(Error::invalid(format!(
                    "the offset {} s of {:?} puts the whole of its recording ({duration} s) \
                     before the common start of the tracks",
                    specs[i].offset, specs[i].name
                ))
                .with_path(path));
            }
            // The silence put before a late track counts towards the limit, as the decoder
            // counts a file's own late start.
            let end = specs[i].offset.micros().saturating_add(duration.micros());
            if specs[i].offset > Delta::ZERO && end > options.decode.max_duration.micros() {
                return Err(Error::limit(format!(
                    "the offset {} s of {:?} puts the end of its recording ({duration} s) at {} s \
                     on the common timeline, later than the longest recording accepted ({} s, \
                     --max-duration)",
                    specs[i].offset,
                    specs[i].name,
                    Delta::from_micros(end),
                    options.decode.max_duration
                ))
                .with_path(path));
            }
            features[i] = Some(a.finish()?);
            reports[i] = Some(TrackReport {
                name: specs[i].name.clone(),
                path: path.clone(),
                channel: specs[i].channel,
                offset: specs[i].offset,
                sample_rate,
                duration: frames_to_delta(stats.frames, sample_rate),
                speech: Delta::ZERO,
                stats,
                cancelled: downmix
                    .fallback()
                    .map(|(c, from)| (c, frames_to_delta(from, sample_rate))),
            });
            done[i] = true;
        }
    }
    let mut features: Vec<TrackFeatures> = features.into_iter().flatten().collect();
    let mut reports: Vec<TrackReport> = reports.into_iter().flatten().collect();
    note_unnamed_audio_tracks(specs, &mut reports);
    check_consistent(&reports, options)?;
    // Tracks of unequal length (within the tolerance) are analysed over the longest, the
    // shorter ones silent after their end.
    let longest = features.iter().map(TrackFeatures::frames).max().unwrap_or(0);
    for f in &mut features {
        f.pad_to(longest)?;
    }
    Ok((features, reports))
}

/// How a track's samples are moved onto the common timeline ([`TrackSpec::offset`]), at its
/// own sample rate: `lead` samples of silence put before a track that starts late, or `skip`
/// samples dropped from the start of one that starts early (rounded to the nearest sample);
/// `kept` counts the samples after those dropped. [`detect`] and the live replay of
/// `overtalk live --track-offset` move tracks with it, so both put a sample at the same place.
///
/// ```text
/// offset +0.5 s at 16 kHz   lead 8000:  ░░░░[recording ──────)
/// offset −0.5 s at 16 kHz   skip 8000:  [××××|recording ─────)   × dropped
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TrackShift {
    lead: usize,
    /// Samples still to drop.
    skip: usize,
    /// Samples taken so far after the dropped ones.
    kept: u64,
}

impl TrackShift {
    /// The shift of a track starting at `offset` on the common timeline, sampled at `rate`.
    pub fn new(offset: Delta, rate: u32) -> TrackShift {
        let us = u128::from(offset.micros().unsigned_abs());
        let samples = (us * u128::from(rate) + 500_000) / 1_000_000;
        let samples = usize::try_from(samples).unwrap_or(usize::MAX);
        if offset.micros() >= 0 {
            TrackShift { lead: samples, skip: 0, kept: 0 }
        } else {
            TrackShift { lead: 0, skip: samples, kept: 0 }
        }
    }

    /// Samples of silence to put before the track (a positive offset).
    pub fn lead(&self) -> usize {
        self.lead
    }

    /// Samples still to drop from the track's start (a negative offset).
    pub fn skip(&self) -> usize {
        self.skip
    }

    /// Samples of the track taken so far, after those dropped.
    pub fn kept(&self) -> u64 {
        self.kept
    }

    /// How many of the next `frames` samples to drop (and drops them from what remains).
    pub fn take(&mut self, frames: usize) -> usize {
        let n = self.skip.min(frames);
        self.skip -= n;
        self.kept += (frames - n) as u64;
        n
    }
}

/// The error for channel `c` (0-based) of a recording of `channels`, asked for speaker
/// `name`: what the recording has and the way out. A recording of one channel holds every
/// speaker in it (a call recorded mixed), so they are told apart by voice, not by channel.
fn channel_beyond(c: usize, name: &str, channels: usize) -> Error {
    let way_out = if channels == 1 {
        ", which every speaker in it shares: read it as one mixed recording, without naming \
         channels, and its speakers are told apart by their voices (diarization, once the \
         speaker model is installed: `overtalk models install`)"
            .to_owned()
    } else {
        format!(": name one speaker per channel, at most {channels} (`_` skips a channel)")
    };
    Error::invalid(format!(
        "channel {} requested for {name:?}, but the recording has {channels} channel{}{way_out}",
        c + 1,
        if channels == 1 { "" } else { "s" }
    ))
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
        let end = |t: &TrackReport| t.offset.micros().saturating_add(t.duration.micros());
        let diff = Delta::from_micros(end(r).saturating_sub(end(first)).saturating_abs());
        if diff > options.max_length_diff {
            let lasts = |t: &TrackReport| {
                if t.offset == Delta::ZERO {
                    format!("lasts {} s", t.duration)
                } else {
                    format!(
                        "lasts {} s from {} s, to {} s",
                        t.duration,
                        t.offset,
                        Delta::from_micros(end(t))
                    )
                }
            };
            return Err(Error::invalid(format!(
                "tracks have different lengths: {} ({}) {}, {} ({}) {}; \
                 they must cover the same stretch of time (tolerance {} s, --max-length-diff)",
                first.name,
                first.path.display(),
                lasts(first),
                r.name,
                r.path.display(),
                lasts(r),
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
    let (annotation, multitrack, levels) = if features.len() == 1 {
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
        (annotation_from_regions([(f.name.as_str(), region)]), None, None)
    } else {
        let (ann, report) = multitrack::detect(features, &options.multitrack)?;
        let levels = multitrack::TrackExcess::new(features, &report);
        (ann, Some(report), Some(levels))
    };
    let durations = annotation.speaker_durations();
    for r in reports.iter_mut() {
        if let Some(id) = annotation.speakers().get(&r.name) {
            r.speech = durations[id.index()];
        }
    }
    let music = music_tracks(features, reports, &annotation);
    Ok(Detection { annotation, tracks: reports.to_vec(), multitrack, duration, levels, music })
}

/// The tracks whose detected speech in `annotation` sounds like music to the measures their
/// features carry ([`TrackFeatures::music`]), as warnings naming each track and its file.
fn music_tracks(
    features: &[TrackFeatures],
    reports: &[TrackReport],
    annotation: &Annotation,
) -> Vec<TrackWarning> {
    let alone = features.len() == 1;
    features
        .iter()
        .zip(reports)
        .filter_map(|(f, r)| {
            let measures = f.music.as_ref()?;
            let id = annotation.speakers().get(&f.name)?;
            let spans: Vec<(f64, f64)> = annotation
                .tracks()
                .iter()
                .filter(|t| t.speaker == id)
                .map(|t| (t.segment.start().as_secs_f64(), t.segment.end().as_secs_f64()))
                .collect();
            let v = measures.judge(&spans).filter(|v| v.music_like)?;
            Some(music_track_warning(&r.path, &f.name, &v, alone))
        })
        .collect()
}

/// The warning that the speech of `track` (a speaker's own track of `path`) sounds like music
/// by `verdict`: [`TrackWarning::MusicTrack`], as [`detect`] and the live monitor give it;
/// `alone` when the track is the recording's only one.
pub fn music_track_warning(
    path: &Path,
    track: &str,
    verdict: &MusicVerdict,
    alone: bool,
) -> TrackWarning {
    TrackWarning::MusicTrack {
        path: path.to_owned(),
        track: track.to_owned(),
        seconds: verdict.seconds,
        music_share: f64::from(verdict.music_share),
        beat_share: f64::from(verdict.beat_share),
        alone,
    }
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
            offset: Delta::ZERO,
            sample_rate: info.sample_rate,
            duration: frames_to_delta(stats.frames, info.sample_rate),
            speech: Delta::ZERO,
            stats,
            cancelled: None,
        })
        .collect();
    detect_features(&features, &mut reports, options)
}

/// Who spoke when in one recording, as every front end takes it (the CLI's `detect`,
/// `analyze`, `report`, `score` and `cut`, the Python `detect_files`): the transcript, its
/// recording id, how it was found, and what the user should be told about the input.
#[derive(Clone, Debug, PartialEq)]
pub struct DetectedRecording {
    /// The recording id (given, or derived from the file names: [`tracks_recording_id`]).
    pub recording_id: String,
    /// Who spoke when; its declared extent is the recording, `[0, duration)`.
    pub transcript: Transcript,
    /// The method and parameters that produced `transcript`.
    pub provenance: Provenance,
    /// Warnings about the input (a track lost to the bleed rule, replaced samples or packets),
    /// in the order they arose; each prints as one sentence. Never printed by the library.
    pub warnings: Vec<TrackWarning>,
    /// With two or more tracks, how far each stands above what the rule predicts there: what
    /// decides whose a word in overlapped speech is ([`overtalk::words::lay`]).
    pub levels: Option<multitrack::TrackExcess>,
}

impl Detection {
    /// The detected speech as a transcript: every track a speaker in the order given (a silent
    /// one too, so a speaker without speech is still listed), the extent the analysed duration.
    ///
    /// ```text
    /// tracks     Host, Guest, Silent
    /// speech     Host  [==)   [====)
    ///            Guest    [=====)
    /// extent     [0 ─────────────────── duration)
    /// speakers   Host, Guest, Silent
    /// ```
    pub fn transcript(&self) -> Transcript {
        let mut builder = TranscriptBuilder::new();
        for t in &self.tracks {
            builder.speaker(&t.name);
        }
        let ann = &self.annotation;
        for track in ann.tracks() {
            builder.add(track.segment, ann.speaker_name(track.speaker), None);
        }
        builder
            .extent(Segment::new(Time::from_micros(0), Time::from_micros(self.duration.micros())));
        builder.build()
    }

    /// What the user should be told about the input: the multitrack rule's warnings, then per
    /// track the non-finite samples and corrupt packets that were replaced by silence, then
    /// the tracks that sound like music ([`Detection::music`]).
    pub fn warnings(&self) -> Vec<TrackWarning> {
        let mut out: Vec<TrackWarning> =
            self.multitrack.iter().flat_map(|m| m.warnings.iter().cloned()).collect();
        for t in &self.tracks {
            if let Some((channel, from)) = t.cancelled {
                out.push(TrackWarning::ChannelsCancel {
                    path: t.path.clone(),
                    channel,
                    from: from.as_secs_f64(),
                });
            }
            // The channels of one decoded track share its decoder's notes: said once.
            for w in decode_warnings(&t.path, &t.stats, t.sample_rate) {
                if !out.contains(&w) {
                    out.push(w);
                }
            }
        }
        out.extend(self.music.iter().cloned());
        out
    }
}

/// Where audio tracks of a file were named ([`TrackSpec::audio_track`]) but not all of them,
/// as far as the last one named (a `_` names one), the file's first report counts the
/// others as unread, for [`TrackWarning::UnreadAudioTracks`]. `reports` are in `specs`' order.
fn note_unnamed_audio_tracks(specs: &[TrackSpec], reports: &mut [TrackReport]) {
    for (i, report) in reports.iter_mut().enumerate() {
        if let Some((unread, named)) = unnamed_audio_tracks(specs, i, report.stats.audio_tracks) {
            report.stats.unread_audio_tracks = unread;
            report.stats.named_audio_tracks = named;
        }
    }
}

/// For the first of `specs` naming an audio track of its file (`i`), when the file holds
/// `audio_tracks` and fewer were named: the unread ones and the named ones (as far as the
/// last one named).
fn unnamed_audio_tracks(
    specs: &[TrackSpec],
    i: usize,
    audio_tracks: usize,
) -> Option<(usize, usize)> {
    let spec = &specs[i];
    let of_file = |j: &usize| specs[*j].path == spec.path && specs[*j].audio_track.is_some();
    if spec.audio_track.is_none() || (0..i).any(|j| of_file(&j)) {
        return None;
    }
    let named = (i..specs.len())
        .filter(of_file)
        .filter_map(|j| specs[j].audio_track)
        .max()
        .map_or(0, |last| last + 1);
    (audio_tracks > named).then(|| (audio_tracks - named, named))
}

/// The audio tracks of the files of `specs` that are not read, as [`detect`] warns of them
/// ([`TrackWarning::UnreadAudioTracks`], once per file, in the order of `specs`), from each
/// spec's decoder as opened (`stats[i]` of `specs[i]`, [`DecodeStats::audio_tracks`]): for a
/// spec reading the default track, the others; where audio tracks are named, those past the
/// last one named. For a front end that decodes the specs itself (the live replay).
pub fn unread_audio_tracks(specs: &[TrackSpec], stats: &[DecodeStats]) -> Vec<TrackWarning> {
    let mut out = Vec::new();
    for (i, (spec, stats)) in specs.iter().zip(stats).enumerate() {
        let (unread, named) = match spec.audio_track {
            None => (stats.unread_audio_tracks, 0),
            Some(_) => unnamed_audio_tracks(specs, i, stats.audio_tracks).unwrap_or((0, 0)),
        };
        let w = TrackWarning::UnreadAudioTracks { path: spec.path.clone(), unread, named };
        if unread > 0 && !out.contains(&w) {
            out.push(w);
        }
    }
    out
}

/// What decoding `path` (at `rate` Hz) replaced, guessed or added, as warnings: non-finite
/// samples and corrupt packets replaced by silence, a large share of samples at full scale
/// (clipping throughout, or noise that is not audio), a WAV length read to the end of the file,
/// another WAV file joined after the end of the first (not read),
/// silence put before audio that starts late on the file's timeline or in the gaps of its
/// timestamps, and a file cut short that was read as far as it goes. For a front end that
/// decodes the file itself (the live replay), as [`Detection::warnings`] words them.
pub fn decode_warnings(path: &Path, stats: &DecodeStats, rate: u32) -> Vec<TrackWarning> {
    let mut out = Vec::new();
    if stats.leading_silence > 0 {
        out.push(TrackWarning::LateStart {
            path: path.to_owned(),
            seconds: frames_to_delta(stats.leading_silence, rate).as_secs_f64(),
        });
    }
    if stats.gaps > 0 || stats.clock_resets > 0 {
        out.push(TrackWarning::TimestampGaps {
            path: path.to_owned(),
            gaps: stats.gaps,
            seconds: frames_to_delta(stats.gap_frames, rate).as_secs_f64(),
            resets: stats.clock_resets,
        });
    }
    if stats.non_finite > 0 {
        out.push(TrackWarning::NonFinite { path: path.to_owned(), samples: stats.non_finite });
    }
    if stats.samples > 0
        && stats.full_scale as f64 >= crate::decode::FULL_SCALE_WARN_SHARE * stats.samples as f64
    {
        out.push(TrackWarning::FullScale {
            path: path.to_owned(),
            share: stats.full_scale as f64 / stats.samples as f64,
        });
    }
    if stats.bad_packets > 0 {
        out.push(TrackWarning::CorruptPackets {
            path: path.to_owned(),
            packets: stats.bad_packets,
        });
    }
    if let (Some(other), true) = (stats.other_rate, stats.other_rate_packets > 0) {
        out.push(TrackWarning::OtherRateFrames {
            path: path.to_owned(),
            packets: stats.other_rate_packets,
            rate,
            other,
            seconds: frames_to_delta(stats.other_rate_frames, rate).as_secs_f64(),
        });
    }
    if let (Some((channels, other)), true) =
        (stats.other_layout_channels, stats.other_layout_packets > 0)
    {
        out.push(TrackWarning::OtherChannelFrames {
            path: path.to_owned(),
            packets: stats.other_layout_packets,
            channels,
            other,
            seconds: frames_to_delta(stats.other_layout_frames, rate).as_secs_f64(),
        });
    }
    if stats.past_declared_frames > 0 {
        out.push(TrackWarning::PastDeclaredLength {
            path: path.to_owned(),
            seconds: frames_to_delta(stats.past_declared_frames, rate).as_secs_f64(),
        });
    }
    if stats.unread_audio_tracks > 0 {
        out.push(TrackWarning::UnreadAudioTracks {
            path: path.to_owned(),
            unread: stats.unread_audio_tracks,
            named: stats.named_audio_tracks,
        });
    }
    // With a file joined after the samples, they end where it starts, not at the end of the
    // file: the joined file's warning says so.
    if stats.placeholder_length && stats.appended_wav.is_none() {
        out.push(TrackWarning::PlaceholderLength { path: path.to_owned() });
    }
    if let Some(a) = stats.appended_wav {
        out.push(TrackWarning::AppendedWav {
            path: path.to_owned(),
            read: frames_to_delta(stats.frames, rate).as_secs_f64(),
            bytes: a.bytes,
            sample_rate: a.sample_rate,
            seconds: a.sample_rate.zip(a.frames).map(|(r, n)| frames_to_delta(n, r).as_secs_f64()),
            files: a.files,
            total: a.duration.map(Delta::as_secs_f64),
        });
    }
    if let Some(t) = stats.truncated {
        out.push(TrackWarning::Truncated {
            path: path.to_owned(),
            read: t.read.as_secs_f64(),
            declared: t.declared.map(|d| d.as_secs_f64()),
        });
    }
    out
}

/// The warnings about speech not found in a detection's `transcript`, as every front end
/// words them (so that an empty RTTM or a table of "0 speakers" is not taken for a result
/// about people): one per speaker of a transcript with speech who has none (a silent
/// microphone, or one whose speech the bleed rule gave to others), or one for a transcript
/// with no speech at all, naming `sources` (the recordings, as the front end names them) and
/// the length of audio searched.
pub fn silence_warnings(transcript: &Transcript, sources: &[String]) -> Vec<String> {
    let a = transcript.annotation();
    if !a.is_empty() {
        // One track per speaker: a participant who never spoke is a finding, but the
        // analysis lists speakers by their speech; say who is left out.
        let with_speech: std::collections::BTreeSet<_> =
            a.tracks().iter().map(|k| k.speaker).collect();
        return a
            .speakers()
            .iter()
            .filter(|(id, _)| !with_speech.contains(id))
            .map(|(_, name)| {
                format!(
                    "no speech found for {name:?} (silent, or below the detector's threshold): \
                     the analysis lists the speakers who spoke, without {name:?}"
                )
            })
            .collect();
    }
    let length = transcript
        .declared_extent()
        .map_or_else(String::new, |e| format!(" in {:.2} s of audio", e.duration().as_secs_f64()));
    vec![format!(
        "{}: no speech found{length}: the recording is silent or below the detector's \
         threshold, so the result has no speakers",
        {
            // The channels or audio tracks of one file name it once.
            let mut named: Vec<&str> = Vec::new();
            for s in sources {
                if !named.contains(&s.as_str()) {
                    named.push(s);
                }
            }
            named.join(", ")
        }
    )]
}

/// How speech was found in `tracks` (each track's name and its offset on the common timeline,
/// [`TrackSpec::offset`]) with `options`: [`Method::Tracks`] and the description every output
/// records beside its results (the detector, its thresholds and minimum durations, and the
/// offsets other than zero, without which the result could not be made again).
pub fn tracks_provenance(options: &DetectOptions, offsets: &[(&str, Delta)]) -> Provenance {
    let tracks = offsets.len();
    let vad = options.vad.map_or("none (energy only)", |v| v.name());
    let description = if tracks == 1 {
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
             min speech {} s, min silence {} s{}",
            m.min_speech,
            m.min_silence,
            if m.overlap_silence < m.min_silence {
                format!(" ({} s while another speaks)", m.overlap_silence)
            } else {
                String::new()
            }
        )
    };
    let description = match offsets_description(offsets) {
        Some(moved) => format!("{description}; offsets {moved}"),
        None => description,
    };
    Provenance::new(Method::Tracks { count: tracks }, description)
}

/// The offsets other than zero of `offsets` (each track's name and its offset on the common
/// timeline), as the description of a detection names them after `offsets`: `Host -1.000 s,
/// "Guest, left" +0.500 s`, a name quoted (JSON string syntax) when it could be read as more
/// than one name or not as the name itself. `None` when no track is moved.
/// [`tracks_provenance`] and the record of `overtalk live --track-offset` both describe the
/// tracks' places with it, so the two descriptions agree.
pub fn offsets_description(offsets: &[(&str, Delta)]) -> Option<String> {
    let moved: Vec<String> = offsets
        .iter()
        .filter(|(_, d)| *d != Delta::ZERO)
        .map(|(name, d)| {
            let sign = if d.micros() > 0 { "+" } else { "" };
            format!("{} {sign}{d} s", offset_name(name))
        })
        .collect();
    (!moved.is_empty()).then(|| moved.join(", "))
}

/// A track's name as the offsets list of [`offsets_description`] writes it: as it is, or
/// quoted (JSON string syntax) when it could be read as more than one name or not as the name
/// itself — a name with a comma, a semicolon, a quote, a backslash, a control character or an
/// edge space (`"Guest, left"`), or an empty one.
fn offset_name(name: &str) -> std::borrow::Cow<'_, str> {
    let plain = !name.is_empty()
        && name.trim() == name
        && !name.chars().any(|c| matches!(c, ',' | ';' | '"' | '\\') || c.is_control());
    if plain {
        std::borrow::Cow::Borrowed(name)
    } else {
        std::borrow::Cow::Owned(serde_json::to_string(name).unwrap_or_else(|_| format!("{name:?}")))
    }
}

/// The recording id of the tracks of one recording, when none is given: the file's name for
/// one file (its channels included); for one file per speaker, what the file names have in
/// common (`show-host.wav` and `show-guest.wav` make `show`, the id a reference of the show
/// would use), else the names joined with `+` (`host+guest`). Never the first track's name
/// alone, which would make the recording one speaker's.
pub fn tracks_recording_id(specs: &[TrackSpec]) -> String {
    let stems: Vec<String> =
        specs.iter().map(|s| overtalk::format::recording_id_from_path(&s.path)).collect();
    let Some(first) = stems.first() else { return "recording".to_owned() };
    if specs.iter().all(|s| s.path == specs[0].path) {
        return first.clone();
    }
    // The longest common prefix, in bytes at character boundaries.
    let mut len = first.len();
    for s in &stems[1..] {
        let same = first
            .char_indices()
            .zip(s.chars())
            .take_while(|((_, a), b)| a == b)
            .last()
            .map_or(0, |((i, a), _)| i + a.len_utf8());
        len = len.min(same);
    }
    let common = first[..len].trim_end_matches(['-', '_', '.', ' ', '+']).to_owned();
    if common.is_empty() {
        stems.join("+")
    } else {
        common
    }
}

/// Who spoke when in the given tracks, as one recording: [`detect`], then the transcript, the
/// recording id (`recording_id`, else [`tracks_recording_id`]), the provenance
/// ([`tracks_provenance`]) and the warnings.
pub fn detect_recording(
    specs: &[TrackSpec],
    options: &DetectOptions,
    recording_id: Option<&str>,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<DetectedRecording> {
    let detection = detect(specs, options, progress)?;
    Ok(DetectedRecording {
        recording_id: recording_id.map_or_else(|| tracks_recording_id(specs), str::to_owned),
        transcript: detection.transcript(),
        provenance: tracks_provenance(
            options,
            &specs.iter().map(|s| (s.name.as_str(), s.offset)).collect::<Vec<_>>(),
        ),
        warnings: detection.warnings(),
        levels: detection.levels,
    })
}

/// Who spoke when in samples held in memory: one `(speaker, samples)` per track, all at
/// `sample_rate` Hz and starting together (a NumPy array, one column per speaker). Non-finite
/// samples are taken as silence and counted in each track's [`DecodeStats::non_finite`].
pub fn detect_samples(
    tracks: &[(String, Vec<f32>)],
    sample_rate: u32,
    options: &DetectOptions,
) -> Result<Detection> {
    if tracks.is_empty() {
        return Err(Error::invalid("no tracks given"));
    }
    if sample_rate == 0 {
        return Err(Error::invalid("the sample rate must be positive"));
    }
    crate::decode::check_rate(sample_rate)?;
    distinct_names(tracks.iter().map(|(name, _)| name.as_str()))?;
    let mut features = Vec::with_capacity(tracks.len());
    let mut reports = Vec::with_capacity(tracks.len());
    for (name, samples) in tracks {
        let mut analyzer = TrackAnalyzer::new(name, sample_rate, options.vad.map(VadKind::build))?;
        analyzer.measure_music();
        let non_finite = samples.iter().filter(|s| !s.is_finite()).count() as u64;
        let full_scale = samples
            .iter()
            .filter(|s| s.is_finite() && s.abs() >= crate::decode::FULL_SCALE)
            .count() as u64;
        analyzer.push(samples.iter().map(|&s| if s.is_finite() { s } else { 0.0 }))?;
        features.push(analyzer.finish()?);
        let frames = samples.len() as u64;
        reports.push(TrackReport {
            name: name.clone(),
            path: PathBuf::new(),
            channel: None,
            offset: Delta::ZERO,
            sample_rate,
            duration: frames_to_delta(frames, sample_rate),
            speech: Delta::ZERO,
            stats: DecodeStats {
                frames,
                non_finite,
                samples: frames,
                full_scale,
                ..DecodeStats::default()
            },
            cancelled: None,
        });
    }
    // As for files: analysed over the longest track, the shorter ones silent after their end.
    let longest = features.iter().map(TrackFeatures::frames).max().unwrap_or(0);
    for f in &mut features {
        f.pad_to(longest)?;
    }
    detect_features(&features, &mut reports, options)
}

/// The diarization settings for one mixed recording given the detection settings:
/// `vad_chosen` says whether the user picked the voice activity detector. If so, the
/// diarizer uses it (energy rules when `None`) with the detection's binarization; if not, it
/// takes the best detector this build and installation offer ([`DiarizeOptions::preferred`])
/// with its own thresholds, keeping the detection's minimum speech and silence.
pub fn diarize_options(options: &DetectOptions, vad_chosen: bool) -> DiarizeOptions {
    if vad_chosen {
        DiarizeOptions {
            vad: options.vad.unwrap_or(VadKind::Energy),
            binarize: options.binarize,
            ..DiarizeOptions::default()
        }
    } else {
        let mut o = DiarizeOptions::preferred();
        o.binarize.min_speech = options.binarize.min_speech;
        o.binarize.min_silence = options.binarize.min_silence;
        o
    }
}

/// The warning when `requested` speakers were asked of the diarization of a mixed recording
/// (`source`) and another number came back (fewer stretches of speech than speakers asked
/// for). `None` when the count was met, when nothing was found, or when only voice activity
/// was found (`voice_activity_only`: the fallback's own warning says why).
pub fn count_warning(
    source: &str,
    requested: Option<usize>,
    found: usize,
    voice_activity_only: bool,
) -> Option<String> {
    let n = requested.filter(|&n| n != found && found > 0 && !voice_activity_only)?;
    Some(format!(
        "{source}: {n} speakers asked for, {found} found: the speech does not split into that many speakers"
    ))
}

/// Where [`diarize_recording`] failed: reading the recording, or telling its speakers apart.
#[derive(Debug)]
pub enum DiarizeFailure {
    /// Decoding or resampling the recording failed.
    Decoding(Error),
    /// The diarizer failed on the recording's features.
    Diarizing(Error),
}

impl DiarizeFailure {
    /// The library error, whichever stage it came from.
    pub fn into_error(self) -> Error {
        match self {
            DiarizeFailure::Decoding(e) | DiarizeFailure::Diarizing(e) => e,
        }
    }
}

/// Diarizes one mixed recording, already opened as `decoder` (so a file that is not a
/// recording is refused before any model is loaded): decodes it block by block into
/// `diarizer`'s feature stream as 16 kHz mono (the signal is never held whole, only the
/// features), tells the speakers apart, and returns who spoke when over `[0, duration)` of the
/// 16 kHz signal, under `recording_id` (default: the file name without its extension).
///
/// `progress` hears how far decoding is after every block; `diarizing` is called once, when
/// decoding is done and the diarizer starts; `share` then hears the share (0 to 1) of the
/// diarizer's costly part done, from any thread.
pub fn diarize_recording(
    mut decoder: Decoder,
    path: &Path,
    diarizer: &dyn Diarizer,
    recording_id: Option<&str>,
    progress: &mut dyn FnMut(Progress<'_>),
    diarizing: &mut dyn FnMut(),
    share: &(dyn Fn(f64) + Sync),
) -> std::result::Result<DetectedRecording, DiarizeFailure> {
    let mut stream = diarizer.stream();
    let total = decoder.info().declared_duration();
    let rate = decoder.info().sample_rate;
    let mut resampler = Resampler16k::new(rate).map_err(DiarizeFailure::Decoding)?;
    let mut samples = 0u64;
    // Music heard as speech is told apart on the same signal (see `crate::music`).
    let mut music = MusicMeter::default();
    let mut emit = |x: &[f32]| {
        samples += x.len() as u64;
        stream.push(x);
        music.push(x);
    };
    let mut decoded = 0u64;
    let mut downmix = Downmix::new();
    while let Some(block) =
        decoder.next_block().map_err(|e| DiarizeFailure::Decoding(e.with_path(path)))?
    {
        decoded += block.frames() as u64;
        resampler
            .push(downmix.mix(&block).iter().copied(), &mut emit)
            .map_err(DiarizeFailure::Decoding)?;
        progress(Progress { path, done: frames_to_delta(decoded, rate), total });
    }
    resampler.finish(&mut emit).map_err(DiarizeFailure::Decoding)?;
    diarizing();
    let d =
        diarizer.finish_with_progress(stream.finish(), share).map_err(DiarizeFailure::Diarizing)?;
    let mut builder = TranscriptBuilder::new();
    let ann = &d.annotation;
    let duration = frames_to_delta(samples, ANALYSIS_RATE);
    for track in ann.tracks() {
        builder.add(track.segment, ann.speaker_name(track.speaker), None);
    }
    builder.extent(Segment::new(Time::from_micros(0), Time::from_micros(duration.micros())));
    let music_warnings =
        music_like_speakers(&music, ann).into_iter().map(|(speaker, v)| TrackWarning::MusicLike {
            path: path.to_owned(),
            speaker,
            seconds: v.seconds,
            music_share: f64::from(v.music_share),
            beat_share: f64::from(v.beat_share),
        });
    Ok(DetectedRecording {
        recording_id: recording_id
            .map_or_else(|| overtalk::format::recording_id_from_path(path), str::to_owned),
        transcript: builder.build(),
        provenance: d.provenance(),
        warnings: downmix
            .fallback()
            .map(|(channel, from)| TrackWarning::ChannelsCancel {
                path: path.to_owned(),
                channel,
                from: frames_to_delta(from, rate).as_secs_f64(),
            })
            .into_iter()
            .chain(decode_warnings(path, &decoder.stats(), rate))
            .chain((d.dropped_windows > 0).then(|| TrackWarning::NonFiniteEmbeddings {
                path: path.to_owned(),
                windows: d.dropped_windows,
            }))
            .chain(music_warnings)
            .collect(),
        levels: None,
    })
}

/// The speakers of `annotation` whose speech sounds like music to `meter` (see
/// [`crate::music`]), in the annotation's speaker order, with the verdicts.
pub fn music_like_speakers(
    meter: &MusicMeter,
    annotation: &Annotation,
) -> Vec<(String, MusicVerdict)> {
    annotation
        .speakers()
        .iter()
        .filter_map(|(id, name)| {
            let spans: Vec<(f64, f64)> = annotation
                .tracks()
                .iter()
                .filter(|t| t.speaker == id)
                .map(|t| (t.segment.start().as_secs_f64(), t.segment.end().as_secs_f64()))
                .collect();
            let verdict = meter.judge(&spans)?;
            verdict.music_like.then(|| (name.to_owned(), verdict))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unread audio tracks a front end that decodes the specs itself is told of: those
    /// past the last one named (a `_` names one), said once per file; for a file read at its
    /// default track, the decoder's count; none when every track is named.
    #[test]
    fn unread_audio_tracks_are_those_past_the_last_named() {
        let stats = |audio_tracks, unread_audio_tracks| DecodeStats {
            audio_tracks,
            unread_audio_tracks,
            ..DecodeStats::default()
        };
        let part = |name: &str, track| TrackSpec {
            audio_track: Some(track),
            ..TrackSpec::file(name, "show.mkv")
        };
        let unread = |path: &str, unread, named| TrackWarning::UnreadAudioTracks {
            path: path.into(),
            unread,
            named,
        };
        let two = [part("Host", 0), part("Guest", 1)];
        assert_eq!(unread_audio_tracks(&two, &[stats(4, 0); 2]), [unread("show.mkv", 2, 2)]);
        assert_eq!(unread_audio_tracks(&two, &[stats(2, 0); 2]), []);
        // `_,Guest`: named as far as the second.
        assert_eq!(
            unread_audio_tracks(&[part("Guest", 1)], &[stats(3, 0)]),
            [unread("show.mkv", 1, 2)]
        );
        let files = [TrackSpec::file("A", "show.mkv"), TrackSpec::file("B", "b.wav")];
        assert_eq!(
            unread_audio_tracks(&files, &[stats(2, 1), stats(1, 0)]),
            [unread("show.mkv", 1, 0)]
        );
        assert_eq!(
            unread("show.mkv", 2, 2).to_string(),
            "show.mkv: it holds 4 audio tracks and `--audio-tracks` names the first 2; the other \
             2 were not read (name them too, or `_` to skip one)"
        );
    }

    /// A synthetic voice: glottal pulses at a gliding 100–140 Hz through three formant
    /// resonators that move every 180 ms syllable, shaped by a syllable envelope, in the turns
    /// `turns` (seconds), over white noise 40 dB under its peak; peak normalised to 1.
    fn voice(turns: &[(f32, f32)], seconds: f32, seed: u64) -> Vec<f32> {
        const RATE: f32 = 16_000.0;
        let n = (seconds * RATE) as usize;
        let vowels = [(700.0, 1200.0, 2500.0), (300.0, 2200.0, 2900.0), (500.0, 900.0, 2400.0)];
        let mut x = vec![0.0f32; n];
        let mut state = [[0.0f32; 2]; 3];
        let mut phase = 0.0f32;
        for (i, v) in x.iter_mut().enumerate() {
            let t = i as f32 / RATE;
            let Some(&(start, _)) = turns.iter().find(|(a, b)| (*a..*b).contains(&t)) else {
                continue;
            };
            let syllable = ((t - start) / 0.18) as usize;
            let within = (t - start) / 0.18 - syllable as f32;
            let envelope = (std::f32::consts::PI * within).sin().powi(2);
            let f0 = 120.0 + 20.0 * (t * 1.3).sin();
            phase += f0 / RATE;
            let pulse = if phase >= 1.0 {
                phase -= 1.0;
                1.0
            } else {
                0.0
            };
            let formants = vowels[(syllable + seed as usize) % vowels.len()];
            let mut y = 0.0;
            for (k, f) in [formants.0, formants.1, formants.2].into_iter().enumerate() {
                // A two-pole resonator, 80 Hz wide.
                let r = (-std::f32::consts::PI * 80.0 / RATE).exp();
                let c = 2.0 * r * (2.0 * std::f32::consts::PI * f / RATE).cos();
                let out = pulse + c * state[k][0] - r * r * state[k][1];
                state[k][1] = state[k][0];
                state[k][0] = out;
                y += out / (k + 1) as f32;
            }
            *v = y * envelope;
        }
        let peak = x.iter().fold(0f32, |m, s| m.max(s.abs()));
        let mut s = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        for v in &mut x {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let u = ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0;
            *v = *v / peak + u * 0.01;
        }
        let peak = x.iter().fold(0f32, |m, s| m.max(s.abs()));
        x.iter().map(|v| v / peak).collect()
    }

    fn segments(d: &Detection) -> Vec<(String, i64, i64)> {
        let a = &d.annotation;
        a.tracks()
            .iter()
            .map(|t| {
                let s = t.segment;
                (
                    a.speaker_name(t.speaker).to_owned(),
                    s.start().micros() / 1000,
                    s.end().micros() / 1000,
                )
            })
            .collect()
    }

    fn at(x: &[f32], peak_db: f32) -> Vec<f32> {
        let g = 10f32.powf(peak_db / 20.0);
        x.iter().map(|v| v * g).collect()
    }

    /// Segment edges closer than `frames` VAD frames (16 ms).
    fn within(a: &[(String, i64, i64)], b: &[(String, i64, i64)], frames: i64) -> bool {
        a.len() == b.len()
            && a.iter().zip(b).all(|(x, y)| {
                x.0 == y.0 && (x.1 - y.1).abs() <= 16 * frames && (x.2 - y.2).abs() <= 16 * frames
            })
    }

    #[test]
    fn the_same_speech_46_db_quieter_gives_the_same_segments() {
        // One track, the voice activity detector alone. Peaking at −26 and at −46 dBFS the
        // voice is raised to the detector's level, and what it hears is the same; at −6 dBFS
        // it is heard as it is, a few dB louder, and the edges stay within two frames.
        let x = voice(&[(0.5, 2.5), (3.5, 5.0), (6.5, 8.0)], 9.5, 1);
        let options = DetectOptions::default();
        let run = |peak_db: f32| {
            let tracks = [("A".to_owned(), at(&x, peak_db))];
            segments(&detect_samples(&tracks, 16_000, &options).unwrap())
        };
        let quiet = run(-46.0);
        let a = |s: i64, e: i64| ("A".to_owned(), s, e);
        assert_eq!(quiet, [a(528, 2752), a(3520, 5200), a(6528, 8224)]);
        assert_eq!(run(-26.0), quiet);
        let loud = run(-6.0);
        assert_eq!(loud, [a(528, 2720), a(3520, 5200), a(6528, 8224)]);
        assert!(within(&loud, &quiet, 2));
    }

    /// Writes 16-bit WAV, `channels` interleaved in `x`.
    fn write_wav(path: &Path, channels: u16, x: &[f32]) {
        let spec = hound::WavSpec {
            channels,
            sample_rate: 16_000,
            bits_per_sample: 16,
            sample_format: hound::SampleFormat::Int,
        };
        let mut w = hound::WavWriter::create(path, spec).unwrap();
        for v in x {
            w.write_sample((v * 32767.0).round() as i16).unwrap();
        }
        w.finalize().unwrap();
    }

    #[test]
    fn channels_that_cancel_out_are_heard_through_one_of_them() {
        // Right = −left: the mean of the channels is digital silence. The left channel alone
        // finds what the mono recording finds, with a warning; a plain stereo file (right at
        // half the left) is mixed down as before, without one.
        let dir = tempfile::tempdir().unwrap();
        let x = at(&voice(&[(0.5, 2.5), (3.5, 5.0), (6.5, 8.0)], 9.5, 1), -6.0);
        let stereo = |right: f32| -> Vec<f32> { x.iter().flat_map(|v| [*v, right * v]).collect() };
        write_wav(&dir.path().join("mono.wav"), 1, &x);
        write_wav(&dir.path().join("inverted.wav"), 2, &stereo(-1.0));
        write_wav(&dir.path().join("stereo.wav"), 2, &stereo(0.5));
        let run = |name: &str| {
            let spec = TrackSpec::file("A", dir.path().join(name));
            detect(&[spec], &DetectOptions::default(), &mut |_| {}).unwrap()
        };
        let mono = run("mono.wav");
        let inverted = run("inverted.wav");
        assert_eq!(segments(&inverted), segments(&mono));
        assert_eq!(segments(&mono).len(), 3);
        assert_eq!(inverted.tracks[0].cancelled, Some((0, Delta::ZERO)));
        assert_eq!(
            inverted.warnings(),
            [TrackWarning::ChannelsCancel {
                path: dir.path().join("inverted.wav"),
                channel: 0,
                from: 0.0
            }]
        );
        assert_eq!(
            inverted.warnings()[0].to_string(),
            format!(
                "{}: its channels cancel out when mixed down (one is the other inverted, so \
                 their mean is 20 dB or more below them); channel 1 alone was used",
                dir.path().join("inverted.wav").display()
            )
        );
        let plain = run("stereo.wav");
        assert_eq!(plain.tracks[0].cancelled, None);
        assert!(plain.warnings().is_empty());
        assert_eq!(segments(&plain).len(), 3);
    }

    /// Held chords ([`overtalk_testkit::chords`]), `seconds` long, peaking near `peak_db` dBFS.
    fn chords(seconds: f32, peak_db: f32) -> Vec<f32> {
        let x = overtalk_testkit::chords((seconds * 16_000.0) as usize);
        let x: Vec<f32> = x.into_iter().map(|v| v / 4.0).collect();
        at(&x, peak_db)
    }

    /// Plucked notes: a decaying tone every 400 ms (150 beats a minute), silent between,
    /// `seconds` long, peaking at `peak_db` dBFS.
    fn plucks(seconds: f32, peak_db: f32) -> Vec<f32> {
        let x: Vec<f32> = (0..(seconds * 16_000.0) as usize)
            .map(|i| {
                let (k, n) = (i / 6_400, i % 6_400);
                let f = [262.0, 330.0, 392.0, 523.0][k % 4];
                let t = n as f32 / 16_000.0;
                (-t * 12.0).exp() * (2.0 * std::f32::consts::PI * f * t).sin()
            })
            .collect();
        at(&x, peak_db)
    }

    #[test]
    fn a_music_track_is_named_in_a_warning_and_kept() {
        // A voice on its own track, a bed of held chords 20 dB down on another, a jingle of
        // plucked notes on a third. The jingle is taken for speech and named, with its steady
        // beat; the bed is heard as the others' bleed (no speech, nothing to name); the voice
        // is not named. Everything is kept.
        let host = at(&voice(&[(0.5, 6.0), (7.0, 13.0), (14.0, 19.5)], 20.0, 1), -6.0);
        let tracks = [
            ("Host".to_owned(), host),
            ("Bed".to_owned(), chords(20.0, -20.0)),
            ("Jingle".to_owned(), plucks(20.0, -12.0)),
        ];
        let options = DetectOptions::default();
        let d = detect_samples(&tracks, 16_000, &options).unwrap();
        let turn = |who: &str, s: i64, e: i64| (who.to_owned(), s, e);
        assert_eq!(
            segments(&d),
            [
                turn("Jingle", 0, 19710),
                turn("Host", 550, 6010),
                turn("Host", 7050, 12880),
                turn("Host", 14060, 19500)
            ]
        );
        assert_eq!(
            d.music,
            [TrackWarning::MusicTrack {
                path: PathBuf::new(),
                track: "Jingle".into(),
                seconds: 19.71,
                music_share: 0.0,
                beat_share: 1.0,
                alone: false
            }]
        );
        assert_eq!(d.warnings(), d.music);
        assert_eq!(
            d.music[0].to_string(),
            "track Jingle (19.7 s of speech) sounds like music, not a voice: 0 % of it holds its \
             level and its partials with no pauses between syllables, 100 % has a steady beat (a \
             music bed, a jingle or a music channel on a track of its own?); it is kept as a \
             speaker talking, and `--ignore-label Jingle` (or the name `--speakers` gives it) \
             leaves it out of the analysis"
        );
        let odd = TrackWarning::MusicTrack {
            path: PathBuf::new(),
            track: "Guest's, left".into(),
            seconds: 1.0,
            music_share: 1.0,
            beat_share: 0.0,
            alone: false,
        };
        assert!(odd.to_string().contains("`--ignore-label 'Guest'\\''s, left'` (or"), "{odd}");
        // One track alone (a recording detected without diarizing): the bed is all speech
        // to the voice activity detector, and named for its held chords; the voice is not.
        let bed = detect_samples(&tracks[1..2], 16_000, &options).unwrap();
        assert_eq!(segments(&bed), [turn("Bed", 32, 20000)]);
        let TrackWarning::MusicTrack { seconds, music_share, beat_share, .. } = &bed.music[0]
        else {
            panic!("{:?}", bed.music)
        };
        assert_eq!((*seconds, *music_share, *beat_share), (19.968, 1.0, 0.0));
        let voice = detect_samples(&tracks[0..1], 16_000, &options).unwrap();
        assert_eq!(segments(&voice).len(), 3);
        assert!(voice.music.is_empty() && voice.warnings().is_empty());
    }

    #[test]
    fn a_music_track_is_named_with_its_file() {
        // From files, the warning names the file; a late track is judged on the common
        // timeline (its speech there, the meter fed the silence put before it).
        let dir = tempfile::tempdir().unwrap();
        let host = at(&voice(&[(0.5, 6.0), (7.0, 13.0), (14.0, 19.5)], 20.0, 1), -6.0);
        write_wav(&dir.path().join("host.wav"), 1, &host);
        write_wav(&dir.path().join("jingle.wav"), 1, &plucks(18.0, -12.0));
        let spec = |name: &str, file: &str, offset_ms: i64| TrackSpec {
            name: name.into(),
            path: dir.path().join(file),
            channel: None,
            audio_track: None,
            offset: Delta::from_micros(offset_ms * 1000),
        };
        let tracks = [spec("Host", "host.wav", 0), spec("Jingle", "jingle.wav", 2000)];
        let found =
            detect_recording(&tracks, &DetectOptions::default(), None, &mut |_| {}).unwrap();
        let text: Vec<String> = found.warnings.iter().map(ToString::to_string).collect();
        assert_eq!(text.len(), 1, "{text:?}");
        let jingle = dir.path().join("jingle.wav");
        let TrackWarning::MusicTrack { seconds, .. } = &found.warnings[0] else {
            panic!("{text:?}")
        };
        assert!((15.0..18.0).contains(seconds), "{seconds}");
        assert_eq!(
            text[0],
            format!(
                "{}: track Jingle ({seconds:.1} s of speech) sounds like music, not a voice: 0 % \
                 of it holds its level and its partials with no pauses between syllables, 100 % \
                 has a steady beat (a music bed, a jingle or a music channel on a track of its \
                 own?); it is kept as a speaker talking, and `--ignore-label Jingle` (or the \
                 name `--speakers` gives it) leaves it out of the analysis",
                jingle.display()
            )
        );
    }

    #[test]
    fn quiet_tracks_give_the_same_segments_as_loud_ones() {
        // Two tracks, the multitrack rule: both at −6 dBFS, both at −46, and a loud host with
        // a guest 34 dB quieter find the same turns.
        let a = voice(&[(0.5, 2.5), (6.5, 8.0)], 9.5, 1);
        let b = voice(&[(3.0, 5.5), (8.2, 9.2)], 9.5, 2);
        let options = DetectOptions::default();
        let run = |ga: f32, gb: f32| {
            let tracks = [("A".to_owned(), at(&a, ga)), ("B".to_owned(), at(&b, gb))];
            segments(&detect_samples(&tracks, 16_000, &options).unwrap())
        };
        let loud = run(-6.0, -6.0);
        let turn = |who: &str, s: i64, e: i64| (who.to_owned(), s, e);
        assert_eq!(
            loud,
            [
                turn("A", 500, 2710),
                turn("B", 3000, 5510),
                turn("A", 6500, 8010),
                turn("B", 8200, 9210)
            ]
        );
        assert_eq!(run(-46.0, -46.0), loud);
        assert_eq!(run(-6.0, -40.0), loud);
        // Voices on their own tracks are not taken for music.
        let tracks = [("A".to_owned(), at(&a, -6.0)), ("B".to_owned(), at(&b, -6.0))];
        assert_eq!(detect_samples(&tracks, 16_000, &options).unwrap().music, []);
    }

    #[test]
    fn a_track_that_ends_early_leaves_the_others_speech_after_its_end() {
        // B's recording stops at 6 s, A's runs to 9.5 s with a turn at 6.5–8.0 s: analysed
        // over the longest track (B silent after its end), that turn is found, the extent is
        // A's length, and the levels measure it.
        use overtalk::words::SpeakerLevels;
        let a = at(&voice(&[(0.5, 2.5), (6.5, 8.0)], 9.5, 1), -6.0);
        let b = at(&voice(&[(3.0, 5.5)], 6.0, 2), -6.0);
        let tracks = [("A".to_owned(), a), ("B".to_owned(), b)];
        let d = detect_samples(&tracks, 16_000, &DetectOptions::default()).unwrap();
        let turn = |who: &str, s: i64, e: i64| (who.to_owned(), s, e);
        assert_eq!(
            segments(&d),
            [turn("A", 500, 2710), turn("B", 3000, 5510), turn("A", 6500, 8010)]
        );
        assert_eq!(d.duration, Delta::from_micros(9_500_000));
        let levels = d.levels.unwrap();
        let ms = |v: i64| Time::from_micros(v * 1000);
        assert_eq!(levels.excess_db("B", ms(7000), ms(7500)), Some(-30.0));
        // A's voice, to the hundredth of a dB (the mean of frames capped at +30).
        let a = levels.excess_db("A", ms(7000), ms(7500)).map(|e| (e * 100.0).round() / 100.0);
        assert_eq!(a, Some(22.3));
    }

    #[test]
    fn the_description_names_the_offsets_other_than_zero() {
        let o = DetectOptions::default();
        let plain = tracks_provenance(&o, &[("Host", Delta::ZERO), ("Guest", Delta::ZERO)]);
        assert!(!plain.description.contains("offsets"), "{}", plain.description);
        let moved = tracks_provenance(
            &o,
            &[
                ("Host", Delta::from_millis(-1000)),
                ("Guest", Delta::from_millis(250)),
                ("Cam", Delta::ZERO),
            ],
        );
        assert!(
            moved.description.starts_with("3 tracks, one per speaker"),
            "{}",
            moved.description
        );
        assert!(
            moved.description.ends_with("; offsets Host -1.000 s, Guest +0.250 s"),
            "{}",
            moved.description
        );
        // Names that would read as two names, or not as the name, are quoted.
        let odd = tracks_provenance(
            &o,
            &[("Guest, left", Delta::from_millis(500)), (" Host;1", Delta::from_millis(-20))],
        );
        assert!(
            odd.description.ends_with(r#"; offsets "Guest, left" +0.500 s, " Host;1" -0.020 s"#),
            "{}",
            odd.description
        );
    }

    #[test]
    fn the_offsets_are_described_with_their_names_quoted_when_odd() {
        let ms = Delta::from_millis;
        assert_eq!(offsets_description(&[]), None);
        assert_eq!(offsets_description(&[("Host", Delta::ZERO), ("Guest", Delta::ZERO)]), None);
        assert_eq!(
            offsets_description(&[
                ("Host", ms(-1000)),
                ("Cam", Delta::ZERO),
                ("Guest, left", ms(500)),
                ("", ms(1)),
                ("a\"b\\c", Delta::from_micros(-1)),
                ("Two words", ms(2)),
                ("tab\t", ms(3)),
            ])
            .as_deref(),
            Some(
                "Host -1.000 s, \"Guest, left\" +0.500 s, \"\" +0.001 s, \"a\\\"b\\\\c\" \
                 -0.000001 s, Two words +0.002 s, \"tab\\t\" +0.003 s"
            )
        );
    }

    #[test]
    fn track_offsets_put_recordings_of_separate_devices_on_one_timeline() {
        // On the common timeline A speaks at 0.5–2.5 and 6.5–8.0 s, B at 3.0–5.5 and
        // 8.2–9.2 s. B's device started 2 s late (its file is the last 7.5 s); A's started
        // 1.5 s early (its file has 1.5 s more in front, a voice the offset drops).
        let dir = tempfile::tempdir().unwrap();
        let a = at(&voice(&[(0.5, 2.5), (6.5, 8.0)], 9.5, 1), -6.0);
        let b = at(&voice(&[(3.0, 5.5), (8.2, 9.2)], 9.5, 2), -6.0);
        let early = at(&voice(&[(0.2, 1.2)], 1.5, 3), -6.0);
        let a_file: Vec<f32> = early.iter().chain(&a).copied().collect();
        write_wav(&dir.path().join("a.wav"), 1, &a_file);
        write_wav(&dir.path().join("b.wav"), 1, &b[32_000..]);
        let spec = |name: &str, file: &str, offset_ms: i64| TrackSpec {
            name: name.into(),
            path: dir.path().join(file),
            channel: None,
            audio_track: None,
            offset: Delta::from_micros(offset_ms * 1000),
        };
        let options = DetectOptions::default();
        let run = |specs: &[TrackSpec]| detect(specs, &options, &mut |_| {});
        let d = run(&[spec("A", "a.wav", -1500), spec("B", "b.wav", 2000)]).unwrap();
        let turn = |who: &str, s: i64, e: i64| (who.to_owned(), s, e);
        assert_eq!(
            segments(&d),
            [
                turn("A", 500, 2710),
                turn("B", 3000, 5510),
                turn("A", 6500, 8010),
                turn("B", 8200, 9210)
            ]
        );
        assert_eq!(d.duration, Delta::from_micros(9_500_000));
        assert_eq!(
            (d.tracks[0].offset, d.tracks[0].duration, d.tracks[1].offset, d.tracks[1].duration),
            (
                Delta::from_micros(-1_500_000),
                Delta::from_micros(11_000_000),
                Delta::from_micros(2_000_000),
                Delta::from_micros(7_500_000)
            )
        );
        // Without the offsets, the files' lengths differ by 3.5 s: refused.
        let e = run(&[spec("A", "a.wav", 0), spec("B", "b.wav", 0)]).unwrap_err().to_string();
        assert!(e.contains("A (") && e.contains(") lasts 11.000 s, B ("), "{e}");
        // With them, ends that differ are said on the common timeline.
        let e =
            run(&[spec("A", "a.wav", -1500), spec("B", "b.wav", 4000)]).unwrap_err().to_string();
        assert!(e.contains(") lasts 11.000 s from -1.500 s, to 9.500 s, B ("), "{e}");
        assert!(e.contains(") lasts 7.500 s from 4.000 s, to 11.500 s; they must cover"), "{e}");
        // An offset that puts the whole recording before the common start, or that is within
        // half a sample of its end (−7.49998 s: 119,999.68 samples at 16 kHz, rounded to all
        // 120,000).
        for offset_us in [-7_500_000, -20_000_000, -7_499_980] {
            let b = TrackSpec { offset: Delta::from_micros(offset_us), ..spec("B", "b.wav", 0) };
            let e = run(&[spec("A", "a.wav", 0), b]).unwrap_err().to_string();
            assert_eq!(
                e,
                format!(
                    "{}: the offset {} s of \"B\" puts the whole of its recording (7.500 s) before \
                     the common start of the tracks",
                    dir.path().join("b.wav").display(),
                    Delta::from_micros(offset_us)
                )
            );
        }
        // An offset longer than the longest recording accepted: refused before decoding.
        let e = run(&[spec("A", "a.wav", 0), spec("B", "missing.wav", 90_000_000)]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "limit exceeded: the offset 90000.000 s of \"B\" is longer than the longest recording \
             accepted (86400.000 s, --max-duration)"
        );
    }

    #[test]
    fn a_late_track_ends_within_the_longest_recording_accepted() {
        // A lasts 4 s, B 3 s; at most 4.5 s accepted. B 1 s late ends at 4 s on the common
        // timeline: accepted; 1.6 s late it would end at 4.6 s: refused, as a file whose own
        // audio starts that late is.
        let dir = tempfile::tempdir().unwrap();
        write_wav(&dir.path().join("a.wav"), 1, &at(&voice(&[(0.5, 2.5)], 4.0, 1), -6.0));
        write_wav(&dir.path().join("b.wav"), 1, &at(&voice(&[(0.5, 2.0)], 3.0, 2), -6.0));
        let mut options = DetectOptions::default();
        options.decode.max_duration = Delta::from_micros(4_500_000);
        let spec = |name: &str, offset_us: i64| TrackSpec {
            name: name.into(),
            path: dir.path().join(format!("{}.wav", name.to_lowercase())),
            channel: None,
            audio_track: None,
            offset: Delta::from_micros(offset_us),
        };
        let d = detect(&[spec("A", 0), spec("B", 1_000_000)], &options, &mut |_| {}).unwrap();
        assert_eq!(d.duration, Delta::from_micros(4_000_000));
        let e = detect(&[spec("A", 0), spec("B", 1_600_000)], &options, &mut |_| {})
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            format!(
                "{}: limit exceeded: the offset 1.600 s of \"B\" puts the end of its recording \
                 (3.000 s) at 4.600 s on the common timeline, later than the longest recording \
                 accepted (4.500 s, --max-duration)",
                dir.path().join("b.wav").display()
            )
        );
    }

    /// A phone line's silence at 8 kHz around the committed speech clip (12 dB quieter: peaks
    /// at −15 dBFS, as a call is often recorded): digital silence
    /// (`rest`) but for a sample at G.711's smallest step below it (−8 of 32,768) now and then,
    /// one in about 160, as dither leaves it: μ-law's silence is 0, A-law's has no 0 and rests
    /// at +8.
    fn phone_line_idle(silence_s: usize, rest: f32) -> (Vec<f32>, (i64, i64)) {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/speech.wav");
        let (_, ch) =
            crate::decode::decode_all(&path, &crate::decode::DecodeOptions::default()).unwrap();
        let speech: Vec<f32> = ch[0].iter().step_by(2).map(|v| v / 4.0).collect();
        let mut s = 7u64;
        let mut idle = || {
            s = s.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            if (s >> 33).is_multiple_of(160) {
                -8.0 / 32_768.0
            } else {
                rest
            }
        };
        let mut x: Vec<f32> = (0..silence_s * 8000).map(|_| idle()).collect();
        x.extend(speech.iter().map(|&v| if v == 0.0 { idle() } else { v }));
        x.extend((0..silence_s * 8000).map(|_| idle()));
        let first = speech.iter().position(|v| *v != 0.0).unwrap() + silence_s * 8000;
        let last = speech.iter().rposition(|v| *v != 0.0).unwrap() + silence_s * 8000;
        (x, (first as i64 / 8, last as i64 / 8))
    }

    #[test]
    fn a_phone_lines_idle_samples_are_not_speech() {
        // Speech 4.00–7.17 s: the resampled single steps read as speech from the first second
        // to the end.
        let found: Vec<_> = [0.0, 8.0 / 32_768.0]
            .into_iter()
            .map(|rest| {
                let (x, truth) = phone_line_idle(3, rest);
                assert_eq!(truth, (3997, 7170));
                let tracks = [("A".to_owned(), x)];
                segments(&detect_samples(&tracks, 8_000, &DetectOptions::default()).unwrap())
            })
            .collect();
        // The end: the first frames of the idle stretch keep earshot's answer
        // (`EARSHOT_FAINT_FRAMES`, 48 ms) before the gate takes the rest. The start: earshot
        // hears 16-bit PCM, whose rounding floor makes the first 50–70 ms of the faint onset
        // (speech 12 dB down, nothing above 4 kHz) too faint for speech (as floats: 4000 and
        // 3984 ms).
        let a = |s: i64, e: i64| vec![("A".to_owned(), s, e)];
        assert_eq!(found, [a(4064, 7232), a(4048, 7232)]);
    }
}
