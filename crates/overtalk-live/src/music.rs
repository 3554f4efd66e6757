//! Music on a speaker's track, metered while the session runs: the meter of offline `overtalk
//! detect` ([`overtalk_audio::music`]: the same measures, windows and thresholds, on the
//! track resampled to 16 kHz as `detect` resamples it), judged on the speech the detector has
//! committed so far, on a thread of its own so the detector and the events never wait for it.
//!
//! ```text
//! session thread   block ─► detector ─► events published ─► block, committed edges ──┐
//!                    ▲                                                   (moved, no copy)
//!                    └──── found: track 2 sounds like music ◄── meter thread ◄─────────┘
//!                          (a `warning` event in the next batch)   resample, MusicMeter,
//!                                                                  MusicTally per track
//! ```
//!
//! Bounded for sessions of hours: each track's meter holds the last seconds of frame
//! measures and only the windows not yet judged (those after the committed clock), its tally
//! five counts, and the speech spans those windows still need. The queue to the thread holds
//! at most [`QUEUE_BLOCKS`] blocks: a replay waits for room (it is exact), a device's blocks
//! that find it full are counted as silence for the meter (the meter keeps the session's
//! clock; what it measured is still what it heard).

use std::path::PathBuf;
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::thread::JoinHandle;

use anyhow::{anyhow, Result};
use overtalk_audio::multitrack::TrackWarning;
use overtalk_audio::music::{MusicMeter, MusicTally, MusicVerdict};
use overtalk_audio::pipeline::music_track_warning;
use overtalk_audio::resample::Resampler16k;

use crate::source::Block;

/// Blocks the meter's thread may fall behind the session (about 10 s of 10 ms blocks).
pub const QUEUE_BLOCKS: usize = 1024;

/// Seconds of committed speech between two judgements of a track.
const JUDGE_EVERY_S: f64 = 1.0;

/// A committed edge of a track's speech (seconds on the session clock).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Edge {
    pub(crate) track: usize,
    pub(crate) t_s: f64,
    pub(crate) speaking: bool,
}

/// A track whose speech so far sounds like music.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Found {
    /// The track (channel) index.
    pub(crate) track: usize,
    /// The speech was judged up to here (seconds: the committed clock, or less where the
    /// meter had not measured the windows centred before it).
    pub(crate) until_s: f64,
    /// The warning, as offline `detect` words it.
    pub(crate) warning: TrackWarning,
}

/// What the session sends the meter's thread.
enum Feed {
    /// `gap` frames per channel the session could not hand over (silence to the meter), then
    /// the block, the committed edges since the last feed, and the committed clock.
    Audio { gap: usize, block: Option<Block>, edges: Vec<Edge>, committed_s: f64 },
    /// The session ended at `end_s`: every span closes there and everything is judged.
    End { end_s: f64 },
}

/// The session's end of the meter: feeds it, collects what it found.
pub(crate) struct MusicWatch {
    tx: SyncSender<Feed>,
    found: Receiver<Found>,
    thread: Option<JoinHandle<Result<Vec<Option<MusicVerdict>>>>>,
    lossless: bool,
    /// Frames of blocks not handed over (the queue was full), and the edges not yet sent.
    gap: usize,
    edges: Vec<Edge>,
    names: Vec<String>,
    files: Vec<PathBuf>,
}

impl MusicWatch {
    /// Starts the meter's thread for tracks `names` at `rate` Hz, read from `files` (empty
    /// for a device); `lossless`: the session's source is a replay, whose blocks wait for room.
    pub(crate) fn start(
        names: &[String],
        rate: u32,
        files: Vec<PathBuf>,
        lossless: bool,
    ) -> Result<MusicWatch> {
        let mut tracks = names
            .iter()
            .map(|_| {
                Ok(Track {
                    resampler: Resampler16k::new(rate)?,
                    meter: MusicMeter::default(),
                    tally: MusicTally::default(),
                    spans: Vec::new(),
                    open: None,
                    seconds: 0.0,
                    judged_s: 0.0,
                    reported: false,
                })
            })
            .collect::<Result<Vec<Track>>>()?;
        let (tx, rx) = sync_channel::<Feed>(QUEUE_BLOCKS);
        let (found_tx, found) = std::sync::mpsc::channel();
        let (thread_names, thread_files) = (names.to_vec(), files.clone());
        let thread = std::thread::Builder::new()
            .name("overtalk-music".into())
            .spawn(move || meter(&mut tracks, &rx, &found_tx, &thread_names, &thread_files))?;
        Ok(MusicWatch {
            tx,
            found,
            thread: Some(thread),
            lossless,
            gap: 0,
            edges: Vec::new(),
            names: names.to_vec(),
            files,
        })
    }

    /// Hands over a block the detector is done with, the committed edges it gave, and the
    /// committed clock. Never waits for a live device's meter (a full queue: the block counts
    /// as silence to the meter).
    pub(crate) fn feed(&mut self, block: Block, edges: &[Edge], committed_s: f64) {
        self.edges.extend_from_slice(edges);
        let frames = block.channels.first().map_or(0, Vec::len);
        let feed = Feed::Audio {
            gap: self.gap,
            block: Some(block),
            edges: std::mem::take(&mut self.edges),
            committed_s,
        };
        if self.lossless {
            // The thread ends only when the session drops its end of the queue, or on an
            // error it reports at the end.
            let _ = self.tx.send(feed);
            return;
        }
        match self.tx.try_send(feed) {
            Ok(()) => self.gap = 0,
            Err(TrySendError::Full(Feed::Audio { edges, .. })) => {
                self.gap += frames;
                self.edges = edges;
            }
            Err(_) => {}
        }
    }

    /// What the meter found since the last call.
    pub(crate) fn found(&self) -> Vec<Found> {
        self.found.try_iter().collect()
    }

    /// Ends the meter at `end_s` (every edge committed before) and returns what it found
    /// since the last [`MusicWatch::found`], with the verdict on each track's whole speech
    /// as committed: the warning of each track that sounds like music, in track order.
    pub(crate) fn finish(
        mut self,
        edges: &[Edge],
        end_s: f64,
    ) -> Result<(Vec<Found>, Vec<TrackWarning>)> {
        self.edges.extend_from_slice(edges);
        let last = Feed::Audio {
            gap: self.gap,
            block: None,
            edges: std::mem::take(&mut self.edges),
            committed_s: end_s,
        };
        for feed in [last, Feed::End { end_s }] {
            self.tx.send(feed).map_err(|_| anyhow!("the music meter stopped early"))?;
        }
        let verdicts = self
            .thread
            .take()
            .map(JoinHandle::join)
            .transpose()
            .map_err(|_| anyhow!("the music meter's thread panicked"))?
            .transpose()?
            .unwrap_or_default();
        let found = self.found();
        let alone = self.names.len() == 1;
        let warnings = verdicts
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                let v = v.as_ref().filter(|v| v.music_like)?;
                let path = self.files.get(i).cloned().unwrap_or_default();
                Some(music_track_warning(&path, &self.names[i], v, alone))
            })
            .collect();
        Ok((found, warnings))
    }
}

/// One track on the meter's thread.
struct Track {
    resampler: Resampler16k,
    meter: MusicMeter,
    tally: MusicTally,
    /// The committed speech not yet wholly judged (`[start, end)`, seconds, in order).
    spans: Vec<(f64, f64)>,
    /// The start of the speech still open.
    open: Option<f64>,
    /// Seconds of speech committed and closed so far.
    seconds: f64,
    /// The committed clock of the last judgement.
    judged_s: f64,
    reported: bool,
}

impl Track {
    fn push(&mut self, samples: impl Iterator<Item = f32>) -> Result<()> {
        let meter = &mut self.meter;
        Ok(self.resampler.push(samples, &mut |s| meter.push(s))?)
    }

    fn edge(&mut self, t_s: f64, speaking: bool) {
        match (speaking, self.open) {
            (true, None) => self.open = Some(t_s),
            (false, Some(start)) => {
                self.open = None;
                if t_s > start {
                    self.spans.push((start, t_s));
                    self.seconds += t_s - start;
                }
            }
            _ => {}
        }
    }

    /// Judges the windows before `committed` (the committed clock) that the meter has
    /// measured, forgets the spans wholly before them, and gives the time judged up to and
    /// the verdict on the speech up to there.
    fn judge(&mut self, committed: f64) -> (f64, Option<MusicVerdict>) {
        let until = committed.min(self.meter.measured_until());
        let mut spans = self.spans.clone();
        spans.extend(self.open.map(|s| (s, until.max(s))));
        self.meter.tally(&spans, until, &mut self.tally);
        self.spans.retain(|&(_, end)| end > until);
        // The speech judged: up to `until`, as the windows.
        let after: f64 = self.spans.iter().map(|&(start, end)| end - start.max(until)).sum();
        let open = self.open.map_or(0.0, |s| (until - s).max(0.0));
        (until, self.meter.verdict(&self.tally, self.seconds - after + open))
    }
}

/// The meter's thread: feeds, edges and judgements until the end; then the verdict on each
/// track's whole committed speech.
fn meter(
    tracks: &mut [Track],
    rx: &Receiver<Feed>,
    found: &std::sync::mpsc::Sender<Found>,
    names: &[String],
    files: &[PathBuf],
) -> Result<Vec<Option<MusicVerdict>>> {
    let alone = tracks.len() == 1;
    let report = |i: usize, t: &mut Track, until_s: f64, v: &MusicVerdict| {
        if v.music_like && !t.reported {
            t.reported = true;
            let path = files.get(i).cloned().unwrap_or_default();
            let warning = music_track_warning(&path, &names[i], v, alone);
            let _ = found.send(Found { track: i, until_s, warning });
        }
    };
    while let Ok(feed) = rx.recv() {
        match feed {
            Feed::Audio { gap, block, edges, committed_s } => {
                for t in tracks.iter_mut() {
                    t.push(std::iter::repeat_n(0.0, gap))?;
                }
                if let Some(b) = block {
                    for (t, samples) in tracks.iter_mut().zip(&b.channels) {
                        t.push(samples.iter().copied())?;
                    }
                }
                for e in edges {
                    if let Some(t) = tracks.get_mut(e.track) {
                        t.edge(e.t_s, e.speaking);
                    }
                }
                for (i, t) in tracks.iter_mut().enumerate() {
                    if committed_s >= t.judged_s + JUDGE_EVERY_S {
                        t.judged_s = committed_s;
                        if let (until, Some(v)) = t.judge(committed_s) {
                            report(i, t, until, &v);
                        }
                    }
                }
            }
            Feed::End { end_s } => {
                let mut verdicts = Vec::with_capacity(tracks.len());
                for (i, t) in tracks.iter_mut().enumerate() {
                    let meter = &mut t.meter;
                    t.resampler.finish(&mut |s| meter.push(s))?;
                    t.edge(end_s, false);
                    // Every window measured is judged: the speech has ended.
                    let v = {
                        let spans = t.spans.clone();
                        t.meter.tally(&spans, f64::INFINITY, &mut t.tally);
                        t.spans.clear();
                        t.meter.verdict(&t.tally, t.seconds)
                    };
                    if let Some(v) = &v {
                        report(i, t, end_s, v);
                    }
                    verdicts.push(v);
                }
                return Ok(verdicts);
            }
        }
    }
    Ok(Vec::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Held chords (three notes with their partials, 4 s per chord) at 16 kHz.
    fn chords(seconds: usize) -> Vec<f32> {
        let notes = [[220.0, 277.2, 329.6], [196.0, 246.9, 293.7], [174.6, 220.0, 261.6]];
        (0..seconds * 16_000)
            .map(|i| {
                let t = i as f32 / 16_000.0;
                let mut v = 0.0;
                for f in notes[(i / 64_000) % 3] {
                    for h in 1..=4 {
                        v += (2.0 * std::f32::consts::PI * f * h as f32 * t).sin() / h as f32;
                    }
                }
                0.05 * v
            })
            .collect()
    }

    /// A track of music whose speech is committed 1.5 s behind the audio is found once, as
    /// soon as 5 s of it are judged, and named at the end with the verdict offline `detect`
    /// gives on the same speech; a silent track beside it is not.
    #[test]
    fn music_is_found_once_as_the_speech_is_committed() {
        let names = ["Bed".to_owned(), "Quiet".to_owned()];
        let mut watch = MusicWatch::start(&names, 16_000, vec!["bed.wav".into()], true).unwrap();
        let signal = chords(12);
        let mut found = Vec::new();
        for (i, chunk) in signal.chunks(160).enumerate() {
            let block = Block { channels: vec![chunk.to_vec(), vec![0.0; chunk.len()]] };
            let now = (i + 1) as f64 * 0.01;
            let committed = (now - 1.5).max(0.0);
            let edges: Vec<Edge> = if i == 150 {
                vec![Edge { track: 0, t_s: 0.0, speaking: true }]
            } else {
                Vec::new()
            };
            watch.feed(block, &edges, committed);
            if i % 100 == 0 {
                // Let the thread catch up now and then: the found message comes in order.
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            found.extend(watch.found());
        }
        let (last, warnings) =
            watch.finish(&[Edge { track: 0, t_s: 12.0, speaking: false }], 12.0).unwrap();
        found.extend(last);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].track, 0);
        // The first judgement with 5 s of speech (the rule's least) whose windows are music.
        assert!(found[0].until_s >= 5.0 && found[0].until_s <= 7.0, "{found:?}");
        let text = warnings.iter().map(ToString::to_string).collect::<Vec<_>>();
        assert_eq!(
            text,
            ["bed.wav: track Bed (12.0 s of speech) sounds like music, not a voice: 100 % of it \
              holds its level and its partials with no pauses between syllables, 0 % has a \
              steady beat (a music bed, a jingle or a music channel on a track of its own?); it \
              is kept as a speaker talking, and `--ignore-label Bed` (or the name `--speakers` \
              gives it) leaves it out of the analysis"]
        );
        let mut offline = MusicMeter::default();
        offline.push(&signal);
        let v = offline.judge(&[(0.0, 12.0)]).unwrap();
        assert_eq!(
            warnings[0],
            music_track_warning(std::path::Path::new("bed.wav"), "Bed", &v, false)
        );
    }
}
