//! Music on a speaker's track, metered while the session runs: the meter of offline `overtalk
//! detect` ([`overtalk_audio::music`]: the same measures, windows and thresholds, on the
//! track resampled to 16 kHz as `detect` resamples it), judged on the speech the detector has
//! committed so far.
//!
//! The meter runs in the session's own path, block by block after the detector (its cost is
//! about 0.1–0.5 % of a core, BENCHMARKS.md), so what it finds depends only on the audio and
//! the committed speech: a replay gives the same warnings at the same places in the event
//! stream, run after run.
//!
//! ```text
//! session thread   block ─► detector ─► committed edges ─► meter (resample, MusicMeter,
//!                                                          MusicTally per track)
//!                                 events of the block ◄─── found: track 2 sounds like music
//!                                                          (a provisional `warning` event)
//! end of session   verdict on each track's whole committed speech ─► the warning committed,
//!                  or retracted where the whole speech does not sound like music
//! ```
//!
//! Bounded for sessions of hours: each track's meter holds the last seconds of frame
//! measures and only the windows not yet judged (those after the committed clock), its tally
//! five counts, and the speech spans those windows still need.

use std::path::PathBuf;

use anyhow::Result;
use overtalk_audio::multitrack::TrackWarning;
use overtalk_audio::music::{MusicMeter, MusicTally, MusicVerdict};
use overtalk_audio::pipeline::music_track_warning;
use overtalk_audio::resample::Resampler16k;

use crate::source::Block;

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

/// The meter of every track of a session, fed in the session's path.
pub(crate) struct MusicWatch {
    tracks: Vec<Track>,
    names: Vec<String>,
    files: Vec<PathBuf>,
}

impl MusicWatch {
    /// A meter for tracks `names` at `rate` Hz, read from `files` (empty for a device).
    pub(crate) fn start(names: &[String], rate: u32, files: Vec<PathBuf>) -> Result<MusicWatch> {
        let tracks = names
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
        Ok(MusicWatch { tracks, names: names.to_vec(), files })
    }

    /// The warning of track `i` for verdict `v`, as `detect` words it.
    fn warning(&self, i: usize, v: &MusicVerdict) -> TrackWarning {
        let path = self.files.get(i).cloned().unwrap_or_default();
        music_track_warning(&path, &self.names[i], v, self.tracks.len() == 1)
    }

    /// Meters a block the detector is done with, the committed edges it gave, and the
    /// committed clock; gives each track whose speech so far first sounds like music (once a
    /// track: at the first judgement whose verdict names it).
    pub(crate) fn feed(
        &mut self,
        block: &Block,
        edges: &[Edge],
        committed_s: f64,
    ) -> Result<Vec<Found>> {
        for (t, samples) in self.tracks.iter_mut().zip(&block.channels) {
            t.push(samples.iter().copied())?;
        }
        for e in edges {
            if let Some(t) = self.tracks.get_mut(e.track) {
                t.edge(e.t_s, e.speaking);
            }
        }
        let mut found = Vec::new();
        for i in 0..self.tracks.len() {
            let t = &mut self.tracks[i];
            if committed_s < t.judged_s + JUDGE_EVERY_S {
                continue;
            }
            t.judged_s = committed_s;
            if let (until_s, Some(v)) = t.judge(committed_s) {
                if v.music_like && !t.reported {
                    t.reported = true;
                    found.push(Found { track: i, until_s, warning: self.warning(i, &v) });
                }
            }
        }
        Ok(found)
    }

    /// Ends the meter at `end_s` after the last committed `edges`: the verdict on each
    /// track's whole committed speech, in track order — its warning where it sounds like
    /// music (offline `detect`'s verdict on the same speech), `None` where it does not.
    pub(crate) fn finish(
        mut self,
        edges: &[Edge],
        end_s: f64,
    ) -> Result<Vec<Option<TrackWarning>>> {
        for e in edges {
            if let Some(t) = self.tracks.get_mut(e.track) {
                t.edge(e.t_s, e.speaking);
            }
        }
        let mut out = Vec::with_capacity(self.tracks.len());
        for i in 0..self.tracks.len() {
            let t = &mut self.tracks[i];
            let meter = &mut t.meter;
            t.resampler.finish(&mut |s| meter.push(s))?;
            t.edge(end_s, false);
            // Every window measured is judged: the speech has ended.
            let spans = std::mem::take(&mut t.spans);
            t.meter.tally(&spans, f64::INFINITY, &mut t.tally);
            let v = t.meter.verdict(&t.tally, t.seconds).filter(|v| v.music_like);
            out.push(v.map(|v| self.warning(i, &v)));
        }
        Ok(out)
    }
}

/// One track's meter.
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
    /// Found to sound like music at a judgement already.
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Held chords ([`overtalk_testkit::chords`]) at 16 kHz, `seconds` long.
    fn chords(seconds: usize) -> Vec<f32> {
        overtalk_testkit::chords(seconds * 16_000).into_iter().map(|v| 0.05 * v).collect()
    }

    /// A track of music whose speech is committed 1.5 s behind the audio is found once, as
    /// soon as 5 s of it are judged, and named at the end with the verdict offline `detect`
    /// gives on the same speech; a silent track beside it is not.
    #[test]
    fn music_is_found_once_as_the_speech_is_committed() {
        let names = ["Bed".to_owned(), "Quiet".to_owned()];
        let mut watch = MusicWatch::start(&names, 16_000, vec!["bed.wav".into()]).unwrap();
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
            found.extend(watch.feed(&block, &edges, committed).unwrap());
        }
        let end = watch.finish(&[Edge { track: 0, t_s: 12.0, speaking: false }], 12.0).unwrap();
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].track, 0);
        // The first judgement with 5 s of speech (the rule's least) whose windows are music:
        // the speech judged up to the last window the meter had measured, 5.0075 s.
        assert_eq!(
            (found[0].until_s, found[0].warning.to_string().contains("(5.0 s of")),
            (5.0075, true)
        );
        assert!(end[1].is_none());
        let warnings: Vec<TrackWarning> = end.into_iter().flatten().collect();
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

    /// A track whose first seconds are music and the rest a voice: found at a judgement while
    /// the speech so far is mostly music, and not named by the verdict on its whole speech
    /// (the session retracts the warning).
    #[test]
    fn music_found_early_is_not_named_by_the_whole_speech() {
        let names = ["Intro".to_owned(), "Quiet".to_owned()];
        let mut watch = MusicWatch::start(&names, 16_000, Vec::new()).unwrap();
        let mut signal = chords(8);
        signal.extend(overtalk_testkit::talk(40));
        let mut found = Vec::new();
        for (i, chunk) in signal.chunks(160).enumerate() {
            let block = Block { channels: vec![chunk.to_vec(), vec![0.0; chunk.len()]] };
            let committed = ((i + 1) as f64 * 0.01 - 1.5).max(0.0);
            let edges: Vec<Edge> = if i == 150 {
                vec![Edge { track: 0, t_s: 0.0, speaking: true }]
            } else {
                Vec::new()
            };
            found.extend(watch.feed(&block, &edges, committed).unwrap());
        }
        let end = watch.finish(&[Edge { track: 0, t_s: 48.0, speaking: false }], 48.0).unwrap();
        let at: Vec<(usize, f64)> = found.iter().map(|f| (f.track, f.until_s)).collect();
        assert_eq!(at, [(0, 5.0075)]);
        assert_eq!(end, [None, None]);
        // The whole speech, judged offline, is not music either.
        let mut offline = MusicMeter::default();
        offline.push(&signal);
        let v = offline.judge(&[(0.0, 48.0)]).unwrap();
        assert!(!v.music_like, "{v:?}");
    }
}
