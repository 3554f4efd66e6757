//! The recording a cut plays, decoded, and the cut rendered from it to WAV bytes: the
//! channels of one mixed recording cut alike, or one mono track per speaker with the dropped
//! speakers' tracks left out and their bleed in the others ducked.
//!
//! ```text
//! one recording     ch 1 ──► render ──┐
//!                   ch 2 ──► render ──┴──► WAV, the recording's channels
//! one per speaker   Host  ─╳ (dropped)
//!                   Guest ──► × duck gain ──► mix ──► render ──► WAV, mono
//! ```

use std::borrow::Cow;
use std::path::Path;

use overtalk::cut::request::{dropped_speakers, solo_speech};
use overtalk::cut::{CutList, Selection};
use overtalk::{Annotation, Delta, Error, Result};

use super::{duck_gain, mix_tracks, render, RenderOptions};
use crate::decode::{decode_all, frames_to_delta, DecodeOptions};
use crate::pipeline::{TrackShift, TrackSpec};

/// A decoded recording for a cut: its sample rate and its tracks.
#[derive(Clone, Debug, PartialEq)]
pub struct CutRecording {
    /// The sample rate of every track.
    pub rate: u32,
    /// `(speaker, samples)`: the speaker is `None` for the channels of one mixed recording,
    /// `Some` for a speaker's own track (mixed down to mono).
    pub tracks: Vec<(Option<String>, Vec<f32>)>,
}

/// Decodes a whole file, naming it in the error. Strictly: a cut rendered from a file that
/// ends early would be silently short, so a truncated recording is an error here.
fn decode_file(path: &Path) -> Result<(u32, Vec<Vec<f32>>)> {
    let options = DecodeOptions { strict: true, ..DecodeOptions::default() };
    // An error that names the file already (a missing file) is not prefixed with it again.
    let (info, channels) = decode_all(path, &options).map_err(|e| match e.path() {
        Some(_) => e,
        None => Error::invalid(format!("decoding {}", path.display())).with_source(e),
    })?;
    Ok((info.sample_rate, channels))
}

impl CutRecording {
    /// One mixed recording, every channel kept.
    pub fn decode_mixed(path: &Path) -> Result<CutRecording> {
        let (rate, channels) = decode_file(path)?;
        Ok(CutRecording { rate, tracks: channels.into_iter().map(|c| (None, c)).collect() })
    }

    /// One track per speaker, each mixed down to mono and placed on the common timeline at its
    /// [`TrackSpec::offset`] as detection places it ([`TrackShift`]: silence before a track
    /// that starts late, its first samples dropped when it starts early; a track that ends
    /// early is silent after its end); the tracks must share a sample rate. `None` when there
    /// are no tracks.
    ///
    /// ```text
    /// common timeline  0 ────────────────────────────►
    /// Host, +0         [host.wav ───────────────)
    /// Guest, +2 s      ░░░░[guest.wav ────────────)    samples 0 … 2·rate − 1 silent
    /// Cam, −1 s       [×|cam.wav ──────────)           its first second dropped
    /// ```
    ///
    /// Errors name the file: an offset that puts the whole recording before the common zero,
    /// or the track's end past the longest recording accepted (24 hours, as decoding caps it).
    pub fn decode_tracks(specs: &[TrackSpec]) -> Result<Option<CutRecording>> {
        let mut rate = None;
        let mut tracks = Vec::new();
        let limit = DecodeOptions::default().max_duration;
        for spec in specs {
            if spec.offset > limit {
                return Err(Error::limit(format!(
                    "the offset {} s of {:?} is longer than the longest recording accepted ({} s)",
                    spec.offset, spec.name, limit
                ))
                .with_path(&spec.path));
            }
            let (r, channels) = decode_file(&spec.path)?;
            let n = channels.len().max(1);
            let len = channels.iter().map(Vec::len).max().unwrap_or(0);
            let duration = frames_to_delta(len as u64, r);
            let end = spec.offset.micros().saturating_add(duration.micros());
            if end > limit.micros() {
                return Err(Error::limit(format!(
                    "the offset {} s of {:?} puts the end of its recording ({duration} s) at {} s \
                     on the common timeline, later than the longest recording accepted ({} s)",
                    spec.offset,
                    spec.name,
                    Delta::from_micros(end),
                    limit
                ))
                .with_path(&spec.path));
            }
            let mut shift = TrackShift::new(spec.offset, r);
            let skip = shift.take(len);
            if spec.offset < Delta::ZERO && shift.kept() == 0 {
                return Err(Error::invalid(format!(
                    "the offset {} s of {:?} puts the whole of its recording ({duration} s) \
                     before the common start of the tracks",
                    spec.offset, spec.name
                ))
                .with_path(&spec.path));
            }
            let total = shift.lead() + (len - skip);
            let mut mono: Vec<f32> = Vec::new();
            mono.try_reserve_exact(total).map_err(|_| {
                Error::limit(format!(
                    "{:?} on the common timeline ({} s at {r} Hz) does not fit in memory",
                    spec.name,
                    frames_to_delta(total as u64, r)
                ))
                .with_path(&spec.path)
            })?;
            mono.resize(total, 0.0);
            for c in &channels {
                for (m, v) in mono[shift.lead()..].iter_mut().zip(c.iter().skip(skip)) {
                    *m += v / n as f32;
                }
            }
            if let Some((first, x)) = rate.filter(|&(_, x)| x != r) {
                let first: &TrackSpec = &specs[first];
                return Err(Error::invalid(format!(
                    "tracks have different sample rates: {} ({}) is {x} Hz, {} ({}) is {r} Hz; \
                     a cut mixes the tracks sample by sample, so resample them to one rate first",
                    first.name,
                    first.path.display(),
                    spec.name,
                    spec.path.display()
                )));
            }
            rate = rate.or(Some((tracks.len(), r)));
            tracks.push((Some(spec.name.clone()), mono));
        }
        Ok(rate.map(|(_, rate)| CutRecording { rate, tracks }))
    }

    /// Whether the tracks are the speakers' own (not the channels of one recording).
    pub fn is_per_speaker(&self) -> bool {
        self.tracks.iter().any(|(s, _)| s.is_some())
    }

    /// The length of the longest track.
    pub fn duration(&self) -> Delta {
        let frames = self.tracks.iter().map(|(_, x)| x.len()).max().unwrap_or(0) as u64;
        frames_to_delta(frames, self.rate)
    }

    /// The sample rate, and the channel count when this is one mixed recording: what the
    /// edit's media records.
    pub fn media_format(&self) -> (u32, Option<u32>) {
        let channels = (!self.is_per_speaker()).then_some(self.tracks.len() as u32);
        (self.rate, channels)
    }
}

/// How a cut is rendered to WAV.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CutRenderOptions {
    /// The crossfades and fades at cuts, in milliseconds.
    pub crossfade_ms: u32,
    /// From one track per speaker: the gain of the kept tracks during a removed speaker's solo
    /// speech, in dB (ducks that speaker's bleed).
    pub duck_db: f64,
}

/// Renders `cut` of `recording` to a 32-bit float WAV: the channels of one mixed recording,
/// or the kept speakers' tracks (all but [`dropped_speakers`]) ducked during the dropped
/// speakers' solo speech and mixed to mono. A cut in place ([`Selection::in_place`]: `--mute`)
/// keeps the timing, so its WAV has exactly the recording's length.
pub fn render_wav(
    cut: &CutList,
    recording: &CutRecording,
    annotation: &Annotation,
    selection: &Selection,
    options: &CutRenderOptions,
) -> Result<Vec<u8>> {
    let rate = recording.rate;
    let render_options = RenderOptions {
        crossfade: (u64::from(rate) * u64::from(options.crossfade_ms) / 1000).max(1) as usize,
    };
    // The signals the cut is taken from: the kept tracks ducked and mixed, or each channel.
    let sources: Vec<Cow<'_, [f32]>> = if recording.is_per_speaker() {
        let drop = dropped_speakers(selection, annotation);
        let kept: Vec<&[f32]> = recording
            .tracks
            .iter()
            .filter(|(s, _)| !s.as_ref().is_some_and(|s| drop.contains(s)))
            .map(|(_, x)| x.as_slice())
            .collect();
        if kept.is_empty() {
            return Err(Error::invalid(
                "no --track is left once the removed speakers' tracks are dropped",
            ));
        }
        let len = kept.iter().map(|x| x.len()).max().unwrap_or(0);
        let duck = 10f64.powf(options.duck_db / 20.0) as f32;
        let gain =
            duck_gain(len, &solo_speech(annotation, &drop), rate, duck, render_options.crossfade);
        vec![Cow::Owned(mix_tracks(&kept, Some(&gain)))]
    } else {
        recording.tracks.iter().map(|(_, x)| Cow::Borrowed(x.as_slice())).collect()
    };
    let mut channels: Vec<Vec<f32>> =
        sources.iter().map(|x| render(cut, x, rate, &render_options)).collect();
    if selection.in_place() {
        // A cut in place (`--mute`, following the speaker) keeps the timing, but its clips
        // lie on whole frames of the cut's rate, the recording's end rounded to the nearest
        // frame: the render ends up to half a frame past the recording or short of it. The
        // WAV ends where the recording does, sample for sample, so it lines up with (and can
        // replace) the original; a last clip that reaches the recording's last frame plays
        // on to its last sample.
        //
        // ```text
        // recording  [0 ───────────────────── len)
        // clips      [0 ─────)   [─────────── end )    end: len rounded to a frame
        // WAV        [0 ─────)   [──────────── len)    cut at len, or played on to it
        // ```
        let len = recording.tracks.iter().map(|(_, x)| x.len()).max().unwrap_or(0);
        let to_the_end = cut.clips.last().is_some_and(|c| c.record_out() >= cut.media_frames);
        for (c, x) in channels.iter_mut().zip(&sources) {
            let rendered = c.len().min(len);
            c.resize(len, 0.0);
            if to_the_end {
                for (o, v) in c[rendered..].iter_mut().zip(x.get(rendered..).unwrap_or(&[])) {
                    *o = *v;
                }
            }
        }
    }
    let spec = hound::WavSpec {
        channels: channels.len().max(1) as u16,
        sample_rate: rate,
        bits_per_sample: 32,
        sample_format: hound::SampleFormat::Float,
    };
    let wav_error = |e: hound::Error| Error::invalid("writing WAV").with_source(e);
    let mut bytes = std::io::Cursor::new(Vec::new());
    {
        let mut w = hound::WavWriter::new(&mut bytes, spec).map_err(wav_error)?;
        let len = channels.first().map_or(0, Vec::len);
        for i in 0..len {
            for c in &channels {
                w.write_sample(c.get(i).copied().unwrap_or(0.0)).map_err(wav_error)?;
            }
        }
        w.finalize().map_err(wav_error)?;
    }
    Ok(bytes.into_inner())
}
