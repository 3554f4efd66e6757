//! Replay of recordings (`--track NAME=FILE`) through the source callback path, paced by the
//! audio clock: block `n` (from 0) is delivered when the wall clock reaches
//! `(n + 1) · block / speed` after the start, when its last sample would have been captured (as
//! a capture device delivers it), or at once when unpaced (tests, measurements).
//!
//! Tracks recorded on separate devices are put on the session's one clock by their offsets
//! ([`Replay::with_offsets`], `overtalk live --track-offset NAME=TIME`), as `overtalk
//! detect` puts them on its timeline ([`TrackShift`]): a track that starts late is silent until
//! its offset, one that starts early loses its first seconds.
//!
//! ```text
//! session clock     0 ─────────────────────────────────────────►
//! Host, offset 0    [host.wav ─────────────────────────)
//! Guest, offset +2  ░░[guest.wav ─────────────────────)       silent for its first 2 s
//! Cam, offset −1   [×|cam.wav ─────────────────────────)      its first second not played
//! ```
//!
//! A file with one audio track per microphone (an OBS recording) is replayed as one speaker's
//! own track per audio track ([`Replay::open_specs`] with [`TrackSpec::audio_track`], `overtalk
//! live REC --audio-tracks NAME,…`), as `overtalk detect` reads it.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{bail, Result};
use overtalk::Delta;
use overtalk_audio::decode::{DecodeOptions, Decoder};
use overtalk_audio::multitrack::TrackWarning;
use overtalk_audio::pipeline::{TrackShift, TrackSpec};

use crate::source::{BlockCutter, BlockSink, JoinOnStop, Running, Source, SourceEnd};

/// How fast a replay runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Pacing {
    /// `K` seconds of audio per second of wall clock (1 = real time).
    Speed(f64),
    /// As fast as the session takes it.
    Unpaced,
}

/// One recording per speaker, replayed in blocks.
#[derive(Debug)]
pub struct Replay {
    names: Vec<String>,
    paths: Vec<PathBuf>,
    /// Per track, the audio track of its file and the channel read (`None`: the default
    /// audio track, every channel mixed down).
    parts: Vec<(Option<usize>, Option<usize>)>,
    /// What opening the files found to warn of (audio tracks left unread).
    warnings: Vec<TrackWarning>,
    /// Each track's start on the session clock ([`Replay::with_offsets`]).
    offsets: Vec<Delta>,
    /// Frames each file declares, when its container does (after priming), for the checks of
    /// [`Replay::with_offsets`].
    declared: Vec<Option<u64>>,
    rate: u32,
    block_frames: usize,
    pacing: Pacing,
}

impl Replay {
    /// Opens the recordings (one mono track per speaker; a multichannel file is mixed to mono)
    /// and checks they share a sample rate.
    pub fn open(
        tracks: &[(String, PathBuf)],
        block_frames: usize,
        pacing: Pacing,
    ) -> Result<Replay> {
        let specs: Vec<TrackSpec> =
            tracks.iter().map(|(name, path)| TrackSpec::file(name.clone(), path.clone())).collect();
        Replay::open_specs(&specs, block_frames, pacing)
    }

    /// Opens the tracks as `overtalk detect` reads them: each spec's file, its audio track
    /// ([`TrackSpec::audio_track`]; the default one when `None`) and channel (mixed down when
    /// `None`), and checks they share a sample rate. The specs' offsets are not read: see
    /// [`Replay::with_offsets`]. Audio tracks left unread are noted ([`Replay::warnings`]).
    pub fn open_specs(specs: &[TrackSpec], block_frames: usize, pacing: Pacing) -> Result<Replay> {
        let tracks: Vec<(String, PathBuf)> =
            specs.iter().map(|s| (s.name.clone(), s.path.clone())).collect();
        if tracks.is_empty() {
            bail!("no tracks to replay");
        }
        if let Pacing::Speed(k) = pacing {
            if !(k.is_finite() && k > 0.0) {
                bail!("--speed must be a positive number, not {k}");
            }
        }
        if block_frames == 0 {
            bail!("the block size must be at least one sample");
        }
        let mut rate = None;
        let mut declared = Vec::with_capacity(tracks.len());
        let mut stats = Vec::with_capacity(tracks.len());
        for (i, (name, path)) in tracks.iter().enumerate() {
            if tracks[..i].iter().any(|(n, _)| n == name) {
                bail!("the speaker name {name:?} is given twice");
            }
            let d = open_part(path, specs[i].audio_track)?;
            let r = d.info().sample_rate;
            let info = d.info();
            if let Some(c) = specs[i].channel.filter(|&c| c >= info.channels) {
                bail!(
                    "{}: channel {} requested for {name:?}, but the recording has {} channel{}",
                    path.display(),
                    c + 1,
                    info.channels,
                    if info.channels == 1 { "" } else { "s" }
                );
            }
            stats.push(d.stats());
            declared.push(
                info.declared_frames
                    .map(|f| f.saturating_sub(info.priming).saturating_add(info.lead)),
            );
            match rate {
                None => rate = Some(r),
                Some(first) if first != r => bail!(
                    "{} is {r} Hz but the first track is {first} Hz; replayed tracks share one clock",
                    path.display()
                ),
                _ => {}
            }
        }
        Ok(Replay {
            names: tracks.iter().map(|(n, _)| n.clone()).collect(),
            paths: tracks.iter().map(|(_, p)| p.clone()).collect(),
            parts: specs.iter().map(|s| (s.audio_track, s.channel)).collect(),
            warnings: overtalk_audio::pipeline::unread_audio_tracks(specs, &stats),
            offsets: vec![Delta::ZERO; tracks.len()],
            declared,
            rate: rate.unwrap_or(16_000),
            block_frames,
            pacing,
        })
    }

    /// Places tracks on the session clock: `(name, offset)` for each track that does not start
    /// at 0 (the others keep 0). Positive, the track's audio starts that far into the session
    /// (silence before it); negative, its first seconds are not played. The samples moved are
    /// those `overtalk detect --track-offset` moves ([`TrackShift`]: rounded to the nearest
    /// sample). Refused as `detect` refuses them: a name that is no track, an offset longer
    /// than the longest recording accepted, one that puts the whole of a recording (as its
    /// container declares it) before the session's start.
    pub fn with_offsets(mut self, offsets: &[(String, Delta)]) -> Result<Replay> {
        let limit = DecodeOptions::default().max_duration;
        for (name, offset) in offsets {
            let Some(i) = self.names.iter().position(|n| n == name) else {
                bail!("{name:?} is not a track of the replay (the tracks are {})", {
                    let names: Vec<String> = self.names.iter().map(|n| format!("{n:?}")).collect();
                    names.join(", ")
                });
            };
            if *offset > limit {
                bail!(
                    "the offset {offset} s of {name:?} is longer than the longest recording \
                     accepted ({limit} s)"
                );
            }
            if *offset < Delta::ZERO {
                let skip = TrackShift::new(*offset, self.rate).skip() as u64;
                if let Some(frames) = self.declared[i].filter(|&f| f <= skip) {
                    bail!(
                        "{}: the offset {offset} s of {name:?} puts the whole of its recording \
                         ({} s) before the common start of the tracks",
                        self.paths[i].display(),
                        overtalk_audio::decode::frames_to_delta(frames, self.rate)
                    );
                }
            }
            self.offsets[i] = *offset;
        }
        Ok(self)
    }

    /// Each track's start on the session clock, in track order.
    pub fn offsets(&self) -> &[Delta] {
        &self.offsets
    }

    /// What opening the recordings found to warn of, as `overtalk detect` warns of it: the
    /// audio tracks of a file that are not read ([`TrackWarning::UnreadAudioTracks`]).
    pub fn warnings(&self) -> &[TrackWarning] {
        &self.warnings
    }
}

/// Opens `path` at its audio track `audio_track` (the default one when `None`); the
/// decoder's errors name the file.
fn open_part(path: &Path, audio_track: Option<usize>) -> Result<Decoder> {
    let options = DecodeOptions { audio_track, ..DecodeOptions::default() };
    Ok(Decoder::open(path, &options)?)
}

impl Source for Replay {
    fn names(&self) -> &[String] {
        &self.names
    }

    fn rate(&self) -> u32 {
        self.rate
    }

    fn block_frames(&self) -> usize {
        self.block_frames
    }

    fn lossless(&self) -> bool {
        true
    }

    fn offsets(&self) -> Vec<Delta> {
        self.offsets.clone()
    }

    fn files(&self) -> Vec<PathBuf> {
        self.paths.clone()
    }

    fn start(self: Box<Self>, sink: BlockSink) -> Result<Box<dyn Running>> {
        let mut decoders = self
            .paths
            .iter()
            .zip(&self.parts)
            .map(|(p, &(audio_track, _))| open_part(p, audio_track))
            .collect::<Result<Vec<_>>>()?;
        let handle =
            std::thread::Builder::new().name("overtalk-replay".into()).spawn(move || {
                let why = replay(&mut decoders, &self, &sink);
                sink.warn(decoded_warnings(&decoders, &self.paths));
                sink.end(why);
            })?;
        Ok(Box::new(JoinOnStop(Some(handle))))
    }
}

/// What decoding the tracks (as far as they were read) found to warn of, in `overtalk
/// detect`'s words ([`overtalk_audio::pipeline::decode_warnings`]); a file read for two
/// tracks is named once. The audio tracks left unread are not among them: opening said those
/// ([`Replay::warnings`], counted over the tracks named as `detect` counts them).
fn decoded_warnings(decoders: &[Decoder], paths: &[PathBuf]) -> Vec<TrackWarning> {
    let mut out = Vec::new();
    for (d, path) in decoders.iter().zip(paths) {
        let rate = d.info().sample_rate;
        for w in overtalk_audio::pipeline::decode_warnings(path, &d.stats(), rate) {
            if !matches!(w, TrackWarning::UnreadAudioTracks { .. }) && !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

/// Reads every track block by block and delivers them, each moved by its offset: the silence
/// before a late track is put in as it is due (never held whole), the samples before an early
/// track's start are dropped as they are decoded. Tracks that end early are silent until the
/// longest ends.
fn replay(decoders: &mut [Decoder], r: &Replay, sink: &BlockSink) -> SourceEnd {
    let k = decoders.len();
    let n = r.block_frames;
    let mut cutter = BlockCutter::new(k, n);
    let mut ended = vec![false; k];
    let mut shifts: Vec<TrackShift> =
        r.offsets.iter().map(|&o| TrackShift::new(o, r.rate)).collect();
    let mut lead: Vec<usize> = shifts.iter().map(TrackShift::lead).collect();
    let start = Instant::now();
    let mut delivered = 0u64;
    loop {
        for (i, d) in decoders.iter_mut().enumerate() {
            while !ended[i] && !cutter.has_block(i) {
                if lead[i] > 0 {
                    let room = n.saturating_sub(cutter.channel(i).len()).max(1);
                    let zeros = lead[i].min(room);
                    let pending = cutter.channel(i);
                    pending.resize(pending.len() + zeros, 0.0);
                    lead[i] -= zeros;
                    continue;
                }
                match d.next_block() {
                    Ok(Some(b)) => {
                        let skip = shifts[i].take(b.frames());
                        match r.parts[i].1 {
                            Some(c) => cutter.channel(i).extend(b.channel(c).skip(skip)),
                            None => cutter.channel(i).extend(b.mono().skip(skip)),
                        }
                    }
                    Ok(None) => ended[i] = true,
                    Err(e) => return SourceEnd::Vanished(format!("{}: {e}", r.paths[i].display())),
                }
            }
        }
        if ended.iter().all(|&e| e) && cutter.is_empty() {
            return SourceEnd::Finished;
        }
        if let Pacing::Speed(speed) = r.pacing {
            // A block is complete when its last sample has been played.
            let due = (delivered + 1) as f64 * n as f64 / f64::from(r.rate) / speed;
            let now = start.elapsed().as_secs_f64();
            if due > now {
                std::thread::sleep(Duration::from_secs_f64(due - now));
            }
        }
        // Every channel holds a block or has ended (tracks that end early are padded).
        let Some(slices) = cutter.next_block(true) else { return SourceEnd::Finished };
        if !sink.push(&slices) {
            return SourceEnd::Stopped;
        }
        delivered += 1;
    }
}
