//! The multitrack rule online: blocks of samples per channel in, speech starts and ends per
//! speaker out, each with the audio time it happened and the audio time it was decided.
//!
//! The offline rule ([`crate::multitrack`]) estimates noise floors, crosstalk couplings and
//! band thresholds from the whole recording, then decides every frame, closes short gaps and
//! drops short runs. Online, it runs on a trailing window of the recording so far (`window`,
//! 30 s by default), again every `redecide` (100 ms), and a frame is *committed* once it lies
//! `lookahead` (600 ms, more than the gap closing's 400 ms and the voice-activity dilation's
//! 100 ms together) behind the newest frame; newer frames are decided *provisionally*:
//!
//! ```text
//! audio so far      ├──────────────── window ────────────────┤ now
//! decided by a run                                ├ lookahead ┤
//! frames            committed ..................│ provisional │
//! A                 ████████████▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁▁████
//! edges out         A end @t (committed, decided at t + lookahead + ≤ redecide)
//!                   A start @u (provisional, decided at u + ≤ redecide)
//! ```
//!
//! The committed frames, put together, are the online detection; with a window as long as the
//! recording and the lookahead to its end it is the offline one.
//!
//! Only the window is kept: features older than it are dropped [`FORGET_FRAMES`] at a time,
//! so a channel holds at most the window plus 10 s of 10 ms frames (about 27 bytes each:
//! energy, band energies in RAM, voice activity) however long the session
//! ([`OnlineMultitrack::held_frames`]). [`OnlineOptions::lookahead`] is the rule on the last
//! 10 minutes, committed 2 s behind.

use overtalk::{Delta, Error, Region, Result, Rounding, Time};

use crate::features::{TrackAnalyzer, TrackFeatures};
use crate::frames::{runs_to_region, GRID};
use crate::multitrack::{detect_regions, MultitrackOptions};
use crate::vad::VadKind;

/// How the online detector decides.
#[derive(Clone, Debug, PartialEq)]
pub struct OnlineOptions {
    /// The thresholds of the multitrack rule.
    pub multitrack: MultitrackOptions,
    /// The voice activity detector run on each channel (none: energy and couplings only).
    pub vad: Option<VadKind>,
    /// How much of the past each decision sees.
    pub window: Delta,
    /// How far behind the newest frame a frame is committed.
    pub lookahead: Delta,
    /// How often the window is decided again.
    pub redecide: Delta,
}

impl Default for OnlineOptions {
    fn default() -> OnlineOptions {
        OnlineOptions {
            multitrack: MultitrackOptions::default(),
            vad: Some(VadKind::default()),
            window: Delta::from_micros(30_000_000),
            lookahead: Delta::from_micros(600_000),
            redecide: Delta::from_micros(100_000),
        }
    }
}

impl OnlineOptions {
    /// The options of the look-ahead detector (`overtalk live --detector lookahead`): the
    /// offline rule re-decided every 500 ms on everything heard so far, up to the last 10
    /// minutes (the history it keeps), a frame committed 2 s behind the newest one. The
    /// statistics (floors, couplings, band noise, the band rule's need) are those of the
    /// whole session so far, as the offline rule takes them from the whole recording, and 2 s
    /// of look-ahead are more than the gap closing, the dilation and the run tests need, so
    /// the committed speech converges on the offline detection.
    pub fn lookahead() -> OnlineOptions {
        OnlineOptions {
            window: Delta::from_micros(600_000_000),
            lookahead: Delta::from_micros(2_000_000),
            redecide: Delta::from_micros(500_000),
            ..OnlineOptions::default()
        }
    }
}

/// Whether an edge is final.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeState {
    /// From frames newer than the lookahead: a later decision may reverse it.
    Provisional,
    /// From committed frames: final.
    Committed,
}

/// A speaker started or stopped talking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpeechEdge {
    /// The channel (speaker) index.
    pub track: usize,
    /// Started (true) or stopped talking.
    pub speaking: bool,
    /// When, in audio time from the first sample.
    pub time: Time,
    /// The audio clock (samples pushed) when it was decided.
    pub decided: Time,
    /// Final or not.
    pub state: EdgeState,
}

/// The online multitrack detector. `Send`, so a capture callback may own it.
#[derive(Debug)]
pub struct OnlineMultitrack {
    options: OnlineOptions,
    rate: u32,
    analyzers: Vec<TrackAnalyzer>,
    /// Samples pushed per channel.
    samples: u64,
    /// The frame the analyzers' features start at: the frames before it (older than the
    /// window) have been forgotten.
    offset: usize,
    /// Frames committed (all channels).
    committed: usize,
    /// Per channel: committed runs `(start, end)` in frames, the open run's start.
    runs: Vec<Vec<(usize, usize)>>,
    open: Vec<Option<usize>>,
    /// Per channel: the state last reported (committed or provisional).
    reported: Vec<bool>,
    /// Frames available at the last decision.
    decided_at: usize,
    out: Vec<SpeechEdge>,
}

impl OnlineMultitrack {
    /// A detector for `names.len()` channels (two or more) at `rate` Hz.
    pub fn new(names: &[String], rate: u32, options: &OnlineOptions) -> Result<OnlineMultitrack> {
        if names.len() < 2 {
            return Err(Error::invalid(
                "the online multitrack rule needs two or more channels (one per speaker)",
            ));
        }
        if options.window <= options.lookahead || options.redecide <= Delta::ZERO {
            return Err(Error::invalid(
                "online detection: the window must be longer than the lookahead, and redecide positive",
            ));
        }
        let analyzers = names
            .iter()
            .map(|n| {
                let mut a = TrackAnalyzer::new(n, rate, options.vad.map(VadKind::build))?;
                // The history is bounded by the window (frames older than it are dropped),
                // so the band energies stay in RAM, where they can be dropped.
                a.set_band_spill(usize::MAX);
                // Decisions every 100 ms cannot wait for the level's look-ahead.
                a.without_level_gain();
                Ok(a)
            })
            .collect::<Result<Vec<_>>>()?;
        let k = names.len();
        Ok(OnlineMultitrack {
            options: options.clone(),
            rate,
            analyzers,
            samples: 0,
            offset: 0,
            committed: 0,
            runs: vec![Vec::new(); k],
            open: vec![None; k],
            reported: vec![false; k],
            decided_at: 0,
            out: Vec::new(),
        })
    }

    /// The number of channels.
    pub fn channels(&self) -> usize {
        self.analyzers.len()
    }

    /// The audio clock: the duration of the samples pushed per channel.
    pub fn clock(&self) -> Time {
        Time::from_micros(crate::decode::frames_to_delta(self.samples, self.rate).micros())
    }

    /// The audio time up to which frames are committed: every committed edge before it has
    /// been returned.
    pub fn committed(&self) -> Time {
        GRID.start_of(self.committed)
    }

    /// Feeds one block: the same number of samples for every channel, at the detector's rate.
    /// Returns the edges decided.
    pub fn push(&mut self, block: &[&[f32]]) -> Result<Vec<SpeechEdge>> {
        if block.len() != self.analyzers.len() {
            return Err(Error::invalid(format!(
                "online detection: a block of {} channels for {} speakers",
                block.len(),
                self.analyzers.len()
            )));
        }
        let n = block.first().map_or(0, |c| c.len());
        if block.iter().any(|c| c.len() != n) {
            return Err(Error::invalid("online detection: channels of unequal length in a block"));
        }
        for (a, c) in self.analyzers.iter_mut().zip(block) {
            a.push(c.iter().copied())?;
        }
        self.samples += n as u64;
        let frames = self.frames();
        let every = frames_of(self.options.redecide).max(1);
        if frames >= self.decided_at + every {
            self.decide(frames, frames_of(self.options.lookahead))?;
            self.forget(frames)?;
        }
        Ok(std::mem::take(&mut self.out))
    }

    /// Frames available on every channel (from the first sample).
    fn frames(&self) -> usize {
        self.offset + self.analyzers.iter().map(|a| a.features().frames()).min().unwrap_or(0)
    }

    /// The 10 ms frames of features held per channel: at most the window plus
    /// [`FORGET_FRAMES`] and the voice-activity step, however long the session.
    pub fn held_frames(&self) -> usize {
        self.analyzers.iter().map(|a| a.features().frames()).max().unwrap_or(0)
    }

    /// Drops the frames no later decision can see (those before the window of the newest
    /// frame), [`FORGET_FRAMES`] or more at a time.
    fn forget(&mut self, frames: usize) -> Result<()> {
        let features: Vec<&TrackFeatures> = self.analyzers.iter().map(|a| a.features()).collect();
        let step = features.iter().map(|f| f.window_step()).max().unwrap_or(1);
        let from = (frames - self.offset).saturating_sub(frames_of(self.options.window));
        let drop = from / step * step;
        if drop < FORGET_FRAMES {
            return Ok(());
        }
        for a in &mut self.analyzers {
            a.drop_front(drop)?;
        }
        self.offset += drop;
        Ok(())
    }

    /// Ends the input: decides and commits everything, and returns the last edges and the
    /// speech found per channel.
    pub fn finish(self) -> Result<(Vec<SpeechEdge>, Vec<Region>)> {
        let f = self.end(false)?;
        Ok((f.edges, f.regions))
    }

    /// [`finish`](Self::finish), and the *revision*: the rule decided once more, now on every
    /// frame held, the way offline `detect` decides them. A frame was committed on the
    /// statistics of the audio up to its look-ahead (the noise floors, couplings and band
    /// need of the first minute differ from the whole session's); the revision takes them
    /// from everything held. When the whole session is held (it is shorter than the window)
    /// the revision is offline `detect` of the same audio, frame for frame; frames forgotten
    /// before the window keep their committed state:
    ///
    /// ```text
    /// session      ├── forgotten ──┼──────────── held (window) ────────────┤ end
    /// committed    ███▁▁▁▁██▁▁▁▁▁▁▁▁██▁▁▁▁▁▁▁▁▁▁████▁▁▁▁█▁▁██████▁▁▁▁▁▁▁▁▁
    /// revised      ███▁▁▁▁██▁▁▁▁▁▁▁▁█████████▁▁▁████▁▁▁▁███████████▁▁▁▁▁▁▁▁
    ///              committed runs   the rule on every held frame
    /// ```
    pub fn finish_revised(self) -> Result<Finished> {
        self.end(true)
    }

    /// Decides and commits everything; the revision only with `revise` (else `revised` is
    /// empty), so [`finish`](Self::finish) runs the rule no more than it needs.
    fn end(mut self, revise: bool) -> Result<Finished> {
        let analyzers = std::mem::take(&mut self.analyzers);
        let mut features =
            analyzers.into_iter().map(TrackAnalyzer::finish).collect::<Result<Vec<_>>>()?;
        let longest = features.iter().map(TrackFeatures::frames).max().unwrap_or(0);
        for f in &mut features {
            f.pad_to(longest)?;
        }
        self.decide_on(&features, self.offset + longest, 0)?;
        let end = self.committed;
        let mut regions = Vec::with_capacity(self.runs.len());
        for (runs, open) in self.runs.iter_mut().zip(&mut self.open) {
            if let Some(s) = open.take() {
                runs.push((s, end));
            }
            regions.push(runs_to_region(runs, GRID));
        }
        let revised = if revise { self.revise(&features, longest)? } else { Vec::new() };
        Ok(Finished {
            edges: std::mem::take(&mut self.out),
            regions,
            revised,
            revised_from: GRID.start_of(self.offset),
        })
    }

    /// The revision of [`finish_revised`](Self::finish_revised): the committed runs before
    /// the held frames, then the rule's kept runs on all `frames` held (from `self.offset`).
    fn revise(&self, held: &[TrackFeatures], frames: usize) -> Result<Vec<Region>> {
        // The rule as offline `detect` runs it, run filters included.
        let rule = if frames == 0 {
            vec![Region::default(); held.len()]
        } else {
            detect_regions(held, &self.options.multitrack)?.0
        };
        let cut = self.offset;
        let mut revised = Vec::with_capacity(held.len());
        for (region, committed) in rule.iter().zip(&self.runs) {
            let mut runs: Vec<(usize, usize)> = committed
                .iter()
                .filter(|&&(s, _)| s < cut)
                .map(|&(s, e)| (s, e.min(cut)))
                .collect();
            for (s, e) in frame_runs(region, frames) {
                let (s, e) = (s + cut, e + cut);
                match runs.last_mut() {
                    Some(last) if last.1 >= s => last.1 = last.1.max(e),
                    _ => runs.push((s, e)),
                }
            }
            revised.push(runs_to_region(&runs, GRID));
        }
        Ok(revised)
    }

    fn decide(&mut self, frames: usize, lookahead: usize) -> Result<()> {
        let features: Vec<&TrackFeatures> = self.analyzers.iter().map(|a| a.features()).collect();
        let (from, window) = window_of(&features, frames - self.offset, self.options.window)?;
        self.apply(&window, self.offset + from, frames, lookahead)
    }

    fn decide_on(
        &mut self,
        features: &[TrackFeatures],
        frames: usize,
        lookahead: usize,
    ) -> Result<()> {
        let features: Vec<&TrackFeatures> = features.iter().collect();
        let (from, window) = window_of(&features, frames - self.offset, self.options.window)?;
        self.apply(&window, self.offset + from, frames, lookahead)
    }

    /// Runs the rule on the window `[from, frames)` and commits the frames `lookahead` behind.
    fn apply(
        &mut self,
        window: &[TrackFeatures],
        from: usize,
        frames: usize,
        lookahead: usize,
    ) -> Result<()> {
        self.decided_at = frames;
        let decided = self.clock();
        // The rule without its run filters, which need the end of a run: its runs (gaps
        // already closed) show the newest frames at once; filtered as the rule filters them
        // (too short, or no confident voice-activity frame), they are the committed speech.
        let o = self.options.multitrack;
        let relaxed = MultitrackOptions { min_speech: Delta::ZERO, vad_peak_frames: 0, ..o };
        let (regions, report) = detect_regions(window, &relaxed)?;
        let commit_to = frames.saturating_sub(lookahead).max(self.committed);
        let at = |f: usize| GRID.start_of(f);
        for (track, region) in regions.iter().enumerate() {
            let n = frames - from;
            let runs = frame_runs(region, n);
            let mut active = vec![false; n];
            let mut raw = vec![false; n];
            for &(s, e) in &runs {
                raw[s..e].iter_mut().for_each(|f| *f = true);
            }
            let peak = report.vad_peak.get(track).copied().unwrap_or(o.vad_peak);
            for (s, e) in kept_runs(&runs, &window[track], &o, peak) {
                active[s..e].iter_mut().for_each(|f| *f = true);
            }
            let flag = |f: usize| f >= from && active.get(f - from).copied().unwrap_or(false);
            let newest = |f: usize| f >= from && raw.get(f - from).copied().unwrap_or(false);
            // Committed frames.
            for f in self.committed..commit_to {
                let on = flag(f);
                match (self.open[track], on) {
                    (None, true) => {
                        self.open[track] = Some(f);
                        self.edge(track, true, at(f), decided, EdgeState::Committed);
                    }
                    (Some(s), false) => {
                        self.runs[track].push((s, f));
                        self.open[track] = None;
                        self.edge(track, false, at(f), decided, EdgeState::Committed);
                    }
                    _ => {}
                }
            }
            // The newest frames, provisionally: the state at the last frame, dated from the
            // start of its run.
            if commit_to < frames {
                let last = newest(frames - 1);
                if last != self.reported[track] {
                    let mut f = frames - 1;
                    while f > commit_to && newest(f - 1) == last {
                        f -= 1;
                    }
                    self.edge(track, last, at(f), decided, EdgeState::Provisional);
                }
            }
        }
        self.committed = commit_to;
        Ok(())
    }

    fn edge(&mut self, track: usize, speaking: bool, time: Time, decided: Time, state: EdgeState) {
        self.reported[track] = speaking;
        self.out.push(SpeechEdge { track, speaking, time, decided, state });
    }
}

/// The frames forgotten at a time once they are older than the window (10 s): fewer, larger
/// moves of the history.
pub const FORGET_FRAMES: usize = 1000;

/// The trailing window of `window` before frame `frames`, starting on a frame where every
/// track's voice-activity frames line up; returns its first frame and its features.
fn window_of(
    features: &[&TrackFeatures],
    frames: usize,
    window: Delta,
) -> Result<(usize, Vec<TrackFeatures>)> {
    let step = features.iter().map(|f| f.window_step()).max().unwrap_or(1);
    let from = frames.saturating_sub(frames_of(window)) / step * step;
    let copies = features.iter().map(|f| f.window(from, frames)).collect::<Result<Vec<_>>>()?;
    Ok((from, copies))
}

/// The runs of `runs` (frames of `track`'s features) that the rule keeps once each has
/// ended: at least `min_speech` long and, with voice activity, holding `vad_peak_frames`
/// confident frames (at the track's confident probability `peak`). The rule without these
/// filters, then these filters, is the rule.
fn kept_runs(
    runs: &[(usize, usize)],
    track: &TrackFeatures,
    o: &MultitrackOptions,
    peak: f32,
) -> Vec<(usize, usize)> {
    let keep = GRID.frames_in(o.min_speech, Rounding::Ceil);
    let peaks = o.use_vad && !track.vad.is_empty() && o.vad_peak_frames > 0;
    runs.iter()
        .copied()
        .filter(|&(s, e)| {
            e - s >= keep
                && (!peaks
                    || (s..e).filter(|&t| track.vad_at(t) >= peak).count() >= o.vad_peak_frames)
        })
        .collect()
}

/// What [`OnlineMultitrack::finish_revised`] returns.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// The last edges decided.
    pub edges: Vec<SpeechEdge>,
    /// The committed speech per channel: what was decided behind the look-ahead.
    pub regions: Vec<Region>,
    /// The revised speech per channel: the rule on every frame held.
    pub revised: Vec<Region>,
    /// Where the revision starts: before it, frames older than the window keep their
    /// committed state (zero when the whole session was held).
    pub revised_from: Time,
}

/// The number of whole 10 ms frames in `d`.
fn frames_of(d: Delta) -> usize {
    GRID.frames_in(d, Rounding::Floor)
}

/// The frame runs `[start, end)` of `region` within `[0, frames)` (regions of the rule lie on
/// frame boundaries).
fn frame_runs(region: &Region, frames: usize) -> Vec<(usize, usize)> {
    region
        .iter()
        .map(|s| {
            let a = GRID.index_of(s.start(), Rounding::Floor);
            let z = GRID.index_of(s.end(), Rounding::Ceil);
            (a.min(frames), z.min(frames))
        })
        .filter(|(a, z)| a < z)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send>() {}

    #[test]
    fn the_detector_is_send() {
        assert_send::<OnlineMultitrack>();
    }

    #[test]
    fn one_channel_and_bad_windows_are_errors() {
        let names = ["A".to_owned()];
        assert!(OnlineMultitrack::new(&names, 16_000, &OnlineOptions::default()).is_err());
        let names = ["A".to_owned(), "B".to_owned()];
        let o = OnlineOptions { window: Delta::from_micros(100_000), ..OnlineOptions::default() };
        assert!(OnlineMultitrack::new(&names, 16_000, &o).is_err());
    }

    #[test]
    fn alternating_tones_give_committed_edges_in_order() {
        // A 150 Hz–3 kHz buzz on one channel at a time, the other at −20 dB (bleed), noise.
        let rate = 16_000;
        let names = ["A".to_owned(), "B".to_owned()];
        let o = OnlineOptions { vad: None, ..OnlineOptions::default() };
        let mut d = OnlineMultitrack::new(&names, rate, &o).unwrap();
        let mut seed = 1u32;
        let mut noise = move || {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (seed >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        };
        let mut edges = Vec::new();
        let secs = 12;
        let block = 480;
        let mut t = 0usize;
        while t < rate as usize * secs {
            let mut a = vec![0.0f32; block];
            let mut b = vec![0.0f32; block];
            for i in 0..block {
                let s = (t + i) as f32 / rate as f32;
                let who = (s as usize / 2) % 2; // A 0–2 s, B 2–4 s, …
                let v = 0.3
                    * (2.0 * std::f32::consts::PI * 220.0 * s).sin().signum()
                    * (1.0 + 0.5 * (2.0 * std::f32::consts::PI * 3.0 * s).sin());
                let (own, other) = if who == 0 { (&mut a, &mut b) } else { (&mut b, &mut a) };
                own[i] = v + 0.001 * noise();
                other[i] = 0.1 * v + 0.001 * noise();
            }
            edges.extend(d.push(&[&a, &b]).unwrap());
            t += block;
        }
        let (last, regions) = d.finish().unwrap();
        edges.extend(last);
        let committed: Vec<_> = edges.iter().filter(|e| e.state == EdgeState::Committed).collect();
        assert!(!committed.is_empty());
        for e in &committed {
            assert!(e.decided >= e.time, "{e:?}");
        }
        for w in committed.windows(2) {
            assert!(w[0].decided <= w[1].decided);
        }
        // Each speaker talks in 3 stretches of 2 s.
        for r in &regions {
            assert_eq!(r.len(), 3, "{r:?}");
        }
    }
}
