//! Music heard as speech: which detected speakers sound like music rather than a voice.
//!
//! Voice activity detectors and speaker embeddings take sustained music for speech: a podcast's
//! intro, a jingle or a music bed comes out as a speaker of its own, with tens of seconds of
//! "talk". This module measures three properties of the signal that tell the two apart
//! (Scheirer and Slaney 1997; Saunders 1996), the first two over windows of 2 s, every 100 ms:
//!
//! - **the low-energy frame ratio**: the share of the window's 25 ms frames whose level (the
//!   RMS of the frame's 125 Hz – 7.6 kHz band: rumble and mains hum below it are left out)
//!   is under half the window's mean. Speech stops between syllables and words: 0.12–0.75 of
//!   its frames are low (5th–95th percentile on the real recordings measured below), music
//!   fills the gaps (median 0.03).
//! - **spectral stationarity**: the median correlation of each frame's log spectrum (125 Hz –
//!   6.25 kHz, mean removed) with the one 100 ms before. Held notes and chords keep their
//!   partials (median 0.78); a voice moves its formants and pitch from one syllable to the next
//!   (median 0.59, 95th percentile 0.71).
//!
//! ```text
//! speech  ▆█▅▁▂█▇▁▁▆█▃▁▇█▆▂▁▁▅█▇   frames low between syllables; spectra change
//! music   ▆▇▇▆▇▇▇▆▆▇▇▇▆▇▇▇▆▆▇▇▇▆   level held; partials held from frame to frame
//! window  ├──────── 2 s ────────┤   music-like: low-frame ratio < 0.1 and stationarity > 0.7
//!                                   speech-like: low-frame ratio > 0.3 and stationarity < 0.65
//! ```
//!
//! Percussive and plucked music has neither held notes nor a held level; what it has is a
//! **steady beat**, measured over windows of 6 s every second: the onset envelope (the rise of
//! the log-mel spectrum from frame to frame, summed over 24 bands) correlated with itself one
//! beat later and two beats later, at the best beat between 0.25 and 1.5 s. Speech's syllables
//! come at no steady rate (at most 0.16 on the real recordings below, 90th percentile);
//! drums, bass lines and arpeggios repeat (above 0.3 in most windows of 41 of 79 tracks).
//!
//! A speaker sounds like music ([`MusicMeter::judge`]) when its windows are music-like in 30 %
//! or more of its speech and speech-like in at most 15 %, or its beat windows have a steady
//! beat in half or more, its windows are speech-like in at most 10 % (a beat under a voice
//! survives where held notes do not) and at least 10 % of them hold their partials
//! (stationarity above 0.7, whatever the level) or 10 % fill their gaps (low-energy frame
//! ratio under 0.1, whatever the spectrum). A beat alone is no proof: a voice saying
//! syllables at a steady rate (espeak-ng's "la" four times a second) has it in every window,
//! and its short gaps keep its windows from looking speech-like, but it moves its spectrum
//! within every syllable and its level drops between them (no such window), where a tune
//! holds a note or a level now and then (the beat tracks of the soundtracks measured in
//! `docs/diarization.md`: 14 % of their windows or more, one way or the other). The front ends warn about it and keep the speaker (music
//! under a voice can be part of a real speaker's turns, and no rule on these measures tells a
//! loud music bed from the voice over it). Measured in `docs/diarization.md` ("Music taken
//! for a speaker (mixed track)"): no speaker of the speech-only recordings comes near; under a
//! bed 18 dB down no speaker is named, under one 12 dB down only a third "speaker" the bed
//! split off the voices; most music "speakers" of podcast-like clips are named.

use rustfft::num_complex::Complex;
use rustfft::{Fft, FftPlanner};
use std::collections::VecDeque;
use std::sync::Arc;

/// Samples per second the meter expects (the analysis rate).
const RATE: usize = 16_000;
/// Frame length (25 ms) and hop (10 ms), in samples.
const FRAME: usize = 400;
const HOP: usize = 160;
const N_FFT: usize = 512;
/// Spectrum bins of the frame power (125 Hz – 7.6 kHz) and of the stationarity (125 Hz –
/// 6.25 kHz) at 31.25 Hz per bin.
const POWER_BINS: std::ops::Range<usize> = 4..244;
const SHAPE_BINS: std::ops::Range<usize> = 4..200;
/// Frames between the two spectra compared for stationarity (100 ms).
const LAG: usize = 10;
/// Window length (2 s) and step (100 ms), in frames.
const WINDOW: usize = 200;
const STEP: usize = 10;
/// Beat window length (6 s) and step (1 s), in frames.
const BEAT_WINDOW: usize = 600;
const BEAT_STEP: usize = 100;
/// The beat periods tried (0.25–1.5 s), in frames.
const BEAT_LAGS: std::ops::Range<usize> = 25..150;
/// Mel bands of the onset envelope, 100 Hz – 7.6 kHz.
const MEL_BANDS: usize = 24;

/// The thresholds of the music-like and speech-like windows and of a music-like speaker.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MusicRule {
    /// A window is music-like when its low-energy frame ratio is under this …
    pub music_low_ratio: f32,
    /// … and its stationarity above this.
    pub music_stationarity: f32,
    /// A window is speech-like when its low-energy frame ratio is above this …
    pub speech_low_ratio: f32,
    /// … and its stationarity under this.
    pub speech_stationarity: f32,
    /// A speaker sounds like music when at least this share of its windows is music-like …
    pub min_music_share: f32,
    /// … at most this share is speech-like …
    pub max_speech_share: f32,
    /// A beat window is beat-like when its onset envelope's periodicity (see
    /// [`MusicMeter`]) is above this.
    pub beat_periodicity: f32,
    /// Or: a speaker sounds like music when at least this share of its beat windows is
    /// beat-like …
    pub min_beat_share: f32,
    /// … and at most this share of its windows is speech-like (stricter than
    /// `max_speech_share`: a beat under a voice survives where held notes do not) …
    pub max_speech_share_beat: f32,
    /// … and at least this share of its windows holds its partials (stationarity above
    /// `music_stationarity`, whatever the level does) or at least `min_filled_share_beat`
    /// fills its gaps (low-energy frame ratio under `music_low_ratio`, whatever the spectrum
    /// does): a voice saying syllables at a steady rate has the beat, but moves its spectrum
    /// within each syllable and stops between them (espeak-ng's "la" four times a second: no
    /// such window), where a tune holds a note or a level now and then …
    pub min_held_share_beat: f32,
    /// … (see `min_held_share_beat`) …
    pub min_filled_share_beat: f32,
    /// Either way, it has at least this many seconds of speech.
    pub min_seconds: f64,
}

impl Default for MusicRule {
    fn default() -> MusicRule {
        MusicRule {
            music_low_ratio: 0.1,
            music_stationarity: 0.7,
            speech_low_ratio: 0.3,
            speech_stationarity: 0.65,
            min_music_share: 0.3,
            max_speech_share: 0.15,
            beat_periodicity: 0.3,
            min_beat_share: 0.5,
            max_speech_share_beat: 0.10,
            min_held_share_beat: 0.1,
            min_filled_share_beat: 0.1,
            min_seconds: 5.0,
        }
    }
}

/// How one window sounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowSound {
    /// Held level and held partials.
    MusicLike,
    /// Pauses between syllables and a moving spectrum.
    SpeechLike,
    /// Neither clearly.
    Unclear,
}

/// What [`MusicMeter::judge`] found for one speaker's speech.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MusicVerdict {
    /// Seconds of speech judged.
    pub seconds: f64,
    /// Share of its windows (by centre) that are music-like.
    pub music_share: f32,
    /// Share that are speech-like.
    pub speech_share: f32,
    /// Share of its beat windows (6 s, by centre) with a steady beat.
    pub beat_share: f32,
    /// Share of its windows whose partials are held (stationarity above the rule's
    /// `music_stationarity`, whatever their level).
    pub held_share: f32,
    /// Share of its windows whose level fills the gaps (low-energy frame ratio under the
    /// rule's `music_low_ratio`, whatever their spectrum).
    pub filled_share: f32,
    /// Whether the rule takes it for music.
    pub music_like: bool,
}

/// Measures a 16 kHz signal pushed in blocks of any length; [`MusicMeter::judge`] then tells,
/// for a speaker's speech, how much of it sounds like music. It keeps the last 2 s of frame
/// measures and one byte per 100 ms window, so it runs alongside a detector on input of any
/// length.
pub struct MusicMeter {
    fft: Arc<dyn Fft<f32>>,
    window: Vec<f32>,
    /// The FFT's buffer and scratch space, kept from frame to frame.
    buf: Vec<Complex<f32>>,
    scratch: Vec<Complex<f32>>,
    /// Samples not yet framed (fewer than a frame past the last hop).
    pending: Vec<f32>,
    /// Frames measured so far.
    frames: usize,
    /// The last `WINDOW` frames: each one's power (125 Hz – 7.6 kHz) and stationarity (the
    /// correlation with the frame `LAG` before; 0 for the first frames).
    power: VecDeque<f32>,
    stationarity: VecDeque<f32>,
    /// The last `LAG` frames' log spectra (mean removed), oldest first.
    recent: VecDeque<Vec<f32>>,
    /// How each window and each beat window sounded, and the rule that judges them.
    measures: MusicMeasures,
    /// The mel filters of the onset envelope: per band, `(bin, weight)` pairs.
    mel: Vec<Vec<(usize, f32)>>,
    /// The previous frame's log-mel energies.
    last_mel: Option<[f32; MEL_BANDS]>,
    /// The last `BEAT_WINDOW` frames' onset envelope.
    onsets: VecDeque<f32>,
}

/// What a [`MusicMeter`] measured, without its working state (the FFT, the last 6 s of frame
/// measures): one byte per 100 ms window and per 1 s beat window, which
/// [`MusicMeasures::judge`] looks up for a speaker's speech. Kept with a track's features
/// ([`crate::features::TrackFeatures::music`]) until the speech is known.
#[derive(Clone, Debug, PartialEq)]
pub struct MusicMeasures {
    /// How each window sounds, whether it holds its partials and whether it fills its gaps,
    /// window `first_window + k`
    /// covering frames `[k·STEP, k·STEP + WINDOW)`.
    windows: Vec<(WindowSound, bool, bool)>,
    /// Whether each beat window has a steady beat, window `first_beat + k` covering frames
    /// `[k·BEAT_STEP, k·BEAT_STEP + BEAT_WINDOW)`.
    beats: Vec<bool>,
    /// Windows and beat windows already judged and forgotten ([`MusicMeter::tally`]; 0 when
    /// the speech is judged at the end).
    first_window: usize,
    first_beat: usize,
    rule: MusicRule,
}

/// One speaker's speech judged as it is decided, for a meter that runs for hours
/// ([`MusicMeter::tally`]): the counts [`MusicMeasures::judge`] makes, kept as counts so the
/// meter forgets the windows it has judged.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MusicTally {
    /// Windows centred in the speech, and of those the music-like, the speech-like and the
    /// held ones.
    windows: usize,
    music: usize,
    speech: usize,
    held: usize,
    filled: usize,
    /// Beat windows centred in the speech, and of those the ones with a steady beat.
    beats: usize,
    steady: usize,
}

impl std::fmt::Debug for MusicMeter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MusicMeter")
            .field("frames", &self.frames)
            .field("windows", &self.measures.windows.len())
            .field("beats", &self.measures.beats.len())
            .finish()
    }
}

impl Default for MusicMeter {
    fn default() -> MusicMeter {
        MusicMeter::new(MusicRule::default())
    }
}

impl MusicMeter {
    /// A meter judging by `rule`.
    pub fn new(rule: MusicRule) -> MusicMeter {
        // The symmetric Hann window of the measurements above.
        let window = (0..FRAME)
            .map(|n| {
                let x = 2.0 * std::f64::consts::PI * n as f64 / (FRAME - 1) as f64;
                (0.5 - 0.5 * x.cos()) as f32
            })
            .collect();
        let fft = FftPlanner::new().plan_fft_forward(N_FFT);
        let scratch = vec![Complex::new(0.0f32, 0.0); fft.get_inplace_scratch_len()];
        MusicMeter {
            fft,
            window,
            buf: vec![Complex::new(0.0f32, 0.0); N_FFT],
            scratch,
            pending: Vec::new(),
            frames: 0,
            power: VecDeque::with_capacity(WINDOW + 1),
            stationarity: VecDeque::with_capacity(WINDOW + 1),
            recent: VecDeque::with_capacity(LAG + 1),
            measures: MusicMeasures {
                windows: Vec::new(),
                beats: Vec::new(),
                first_window: 0,
                first_beat: 0,
                rule,
            },
            mel: mel_filters(),
            last_mel: None,
            onsets: VecDeque::with_capacity(BEAT_WINDOW + 1),
        }
    }

    /// Takes the next samples (16 kHz, mono; non-finite samples count as silence).
    pub fn push(&mut self, samples: &[f32]) {
        self.pending.extend(samples.iter().map(|&s| if s.is_finite() { s } else { 0.0 }));
        let mut buf = std::mem::take(&mut self.buf);
        let mut used = 0;
        while self.pending.len() - used >= FRAME {
            let frame = &self.pending[used..used + FRAME];
            for (b, (s, w)) in buf.iter_mut().zip(frame.iter().zip(&self.window)) {
                *b = Complex::new(s * w, 0.0);
            }
            for b in &mut buf[FRAME..] {
                *b = Complex::new(0.0, 0.0);
            }
            // Digital silence (a track's silence put before its start, a line input between
            // its music) transforms to zeros: the transform is left out, not its result.
            if frame.iter().any(|&s| s != 0.0) {
                self.fft.process_with_scratch(&mut buf, &mut self.scratch);
            }
            self.frame(&buf);
            used += HOP;
        }
        self.buf = buf;
        self.pending.drain(..used);
    }

    /// Records one frame's power and stationarity from its spectrum, and judges the window
    /// that ends with it when one does.
    fn frame(&mut self, spectrum: &[Complex<f32>]) {
        let power: f32 = spectrum[POWER_BINS].iter().map(|c| c.norm_sqr()).sum();
        let mut shape: Vec<f32> =
            spectrum[SHAPE_BINS].iter().map(|c| (c.norm_sqr() + 1e-10).ln()).collect();
        let mean = shape.iter().sum::<f32>() / shape.len() as f32;
        shape.iter_mut().for_each(|v| *v -= mean);
        let corr = match self.recent.len() {
            LAG => correlation(&self.recent[0], &shape),
            _ => 0.0,
        };
        if self.recent.len() == LAG {
            self.recent.pop_front();
        }
        self.recent.push_back(shape);
        if self.power.len() == WINDOW {
            self.power.pop_front();
            self.stationarity.pop_front();
        }
        self.power.push_back(power);
        self.stationarity.push_back(corr);
        // The onset envelope: how much the log-mel spectrum rose since the frame before.
        let mut mel = [0.0f32; MEL_BANDS];
        for (m, band) in mel.iter_mut().zip(&self.mel) {
            let e: f32 = band.iter().map(|&(k, w)| w * spectrum[k].norm_sqr()).sum();
            *m = (e + 1e-10).ln();
        }
        let onset = self.last_mel.map_or(0.0, |last| {
            mel.iter().zip(&last).map(|(now, before)| (now - before).max(0.0)).sum()
        });
        self.last_mel = Some(mel);
        if self.onsets.len() == BEAT_WINDOW {
            self.onsets.pop_front();
        }
        self.onsets.push_back(onset);
        self.frames += 1;
        if self.frames >= WINDOW && (self.frames - WINDOW).is_multiple_of(STEP) {
            let sound = self.window_sound();
            self.measures.windows.push(sound);
        }
        if self.frames >= BEAT_WINDOW && (self.frames - BEAT_WINDOW).is_multiple_of(BEAT_STEP) {
            let steady = beat_periodicity(self.onsets.make_contiguous())
                > self.measures.rule.beat_periodicity;
            self.measures.beats.push(steady);
        }
    }

    /// How the window of the last `WINDOW` frames sounds, whether it holds its partials and
    /// whether it fills its gaps.
    fn window_sound(&self) -> (WindowSound, bool, bool) {
        let rms: Vec<f32> = self.power.iter().map(|p| p.sqrt()).collect();
        let mean = rms.iter().sum::<f32>() / WINDOW as f32;
        let low = rms.iter().filter(|&&r| r < 0.5 * mean).count() as f32 / WINDOW as f32;
        // The first LAG frames' correlations reach before the window.
        let mut corr: Vec<f32> = self.stationarity.iter().skip(LAG).copied().collect();
        let stationarity = median(&mut corr);
        let r = &self.measures.rule;
        let sound = if low < r.music_low_ratio && stationarity > r.music_stationarity {
            WindowSound::MusicLike
        } else if low > r.speech_low_ratio && stationarity < r.speech_stationarity {
            WindowSound::SpeechLike
        } else {
            WindowSound::Unclear
        };
        (sound, stationarity > r.music_stationarity, low < r.music_low_ratio)
    }

    /// Judges the speech in `spans`: [`MusicMeasures::judge`] on what was measured so far.
    pub fn judge(&self, spans: &[(f64, f64)]) -> Option<MusicVerdict> {
        self.measures.judge(spans)
    }

    /// What was measured so far ([`MusicMeter::judge`] looks it up).
    pub fn measures(&self) -> &MusicMeasures {
        &self.measures
    }

    /// What was measured, the working state dropped.
    pub fn into_measures(self) -> MusicMeasures {
        self.measures
    }

    /// The time (seconds) before which every window and beat window centred there has been
    /// measured: [`MusicMeter::tally`] may judge up to it.
    pub fn measured_until(&self) -> f64 {
        let next = |step: usize, len: usize| {
            let k = if self.frames >= len { (self.frames - len) / step + 1 } else { 0 };
            centre(k, step, len)
        };
        next(STEP, WINDOW).min(next(BEAT_STEP, BEAT_WINDOW))
    }

    /// Judges the windows and beat windows measured so far whose centre lies before `until`
    /// (seconds, at most [`MusicMeter::measured_until`]) against the speaker's speech
    /// `spans` (seconds, `[start, end)`: all of it before `until`, in any order), adds them to
    /// `tally`, and forgets them. What [`MusicMeasures::judge`] counts on the whole speech,
    /// counted as the speech is decided, so a meter that runs for hours holds only the
    /// windows not yet judged; [`MusicMeter::verdict`] then judges the tally.
    pub fn tally(&mut self, spans: &[(f64, f64)], until: f64, tally: &mut MusicTally) {
        let merged = merge_spans(spans);
        let m = &mut self.measures;
        let due = |first: usize, n: usize, step: usize, len: usize| {
            (0..n).take_while(|&k| centre(first + k, step, len) < until).count()
        };
        let n = due(m.first_window, m.windows.len(), STEP, WINDOW);
        let windows = in_spans(&merged, &m.windows[..n], m.first_window, STEP, WINDOW);
        for (sound, held, filled) in windows {
            tally.windows += 1;
            tally.held += usize::from(held);
            tally.filled += usize::from(filled);
            match sound {
                WindowSound::MusicLike => tally.music += 1,
                WindowSound::SpeechLike => tally.speech += 1,
                WindowSound::Unclear => {}
            }
        }
        m.windows.drain(..n);
        m.first_window += n;
        let n = due(m.first_beat, m.beats.len(), BEAT_STEP, BEAT_WINDOW);
        for steady in in_spans(&merged, &m.beats[..n], m.first_beat, BEAT_STEP, BEAT_WINDOW) {
            tally.beats += 1;
            tally.steady += usize::from(steady);
        }
        m.beats.drain(..n);
        m.first_beat += n;
    }

    /// The verdict on a speaker's speech of `seconds` whose windows are counted in `tally`
    /// ([`MusicMeter::tally`]), by the rule of [`MusicMeasures::judge`]; `None` when no
    /// window is centred in it.
    pub fn verdict(&self, tally: &MusicTally, seconds: f64) -> Option<MusicVerdict> {
        verdict(tally, seconds, &self.measures.rule)
    }
}

/// The verdict of `rule` on speech of `seconds` whose windows are counted in `t`.
fn verdict(t: &MusicTally, seconds: f64, r: &MusicRule) -> Option<MusicVerdict> {
    if t.windows == 0 {
        return None;
    }
    let music_share = t.music as f32 / t.windows as f32;
    let speech_share = t.speech as f32 / t.windows as f32;
    let beat_share = if t.beats == 0 { 0.0 } else { t.steady as f32 / t.beats as f32 };
    let held = music_share >= r.min_music_share && speech_share <= r.max_speech_share;
    let held_share = t.held as f32 / t.windows as f32;
    let filled_share = t.filled as f32 / t.windows as f32;
    let beat = beat_share >= r.min_beat_share
        && speech_share <= r.max_speech_share_beat
        && (held_share >= r.min_held_share_beat || filled_share >= r.min_filled_share_beat);
    Some(MusicVerdict {
        seconds,
        music_share,
        speech_share,
        beat_share,
        held_share,
        filled_share,
        music_like: seconds >= r.min_seconds && (held || beat),
    })
}

/// The centre (seconds) of window `k` of `len` frames, windows `step` frames apart: the middle
/// of its frames' samples.
fn centre(k: usize, step: usize, len: usize) -> f64 {
    let first = (k * step * HOP) as f64;
    (first + ((len - 1) * HOP + FRAME) as f64 / 2.0) / RATE as f64
}

impl MusicMeasures {
    /// Judges the speech in `spans` (seconds, `[start, end)`, in any order; where they overlap
    /// counted once): the windows whose centre lies in one of them. `None` when no window's
    /// centre does (speech only in the signal's first or last second, or no speech).
    ///
    /// The spans are sorted and merged first, so one pass over the windows judges them all: a
    /// speaker of a long recording has thousands of turns, and looking each window up in all
    /// of them would take windows × turns steps.
    pub fn judge(&self, spans: &[(f64, f64)]) -> Option<MusicVerdict> {
        let merged = merge_spans(spans);
        let seconds: f64 = merged.iter().map(|(s, e)| e - s).sum();
        let sounds = in_spans(&merged, &self.windows, self.first_window, STEP, WINDOW);
        let beats = in_spans(&merged, &self.beats, self.first_beat, BEAT_STEP, BEAT_WINDOW);
        let tally = MusicTally {
            windows: sounds.len(),
            music: sounds.iter().filter(|&&(s, _, _)| s == WindowSound::MusicLike).count(),
            speech: sounds.iter().filter(|&&(s, _, _)| s == WindowSound::SpeechLike).count(),
            held: sounds.iter().filter(|&&(_, held, _)| held).count(),
            filled: sounds.iter().filter(|&&(_, _, filled)| filled).count(),
            beats: beats.len(),
            steady: beats.iter().filter(|&&b| b).count(),
        };
        verdict(&tally, seconds, &self.rule)
    }
}

/// The periodicity of an onset envelope: its autocorrelation (mean removed, 1 at lag 0) at a
/// beat period and at twice it, averaged, at the best period of [`BEAT_LAGS`]; 0 for a flat
/// envelope.
fn beat_periodicity(onsets: &[f32]) -> f32 {
    let mean = onsets.iter().sum::<f32>() / onsets.len().max(1) as f32;
    let e: Vec<f64> = onsets.iter().map(|&v| f64::from(v - mean)).collect();
    // Four running sums, so the products of a lag are summed in parallel lanes (a single sum
    // waits on each addition: this was most of the meter's time).
    let ac = |lag: usize| -> f64 {
        let (a, b) = (&e[..e.len() - lag.min(e.len())], &e[lag.min(e.len())..]);
        let mut sums = [0.0f64; 4];
        let (a4, b4) = (a.chunks_exact(4), b.chunks_exact(4));
        let (ra, rb) = (a4.remainder(), b4.remainder());
        for (x, y) in a4.zip(b4) {
            for (sum, (x, y)) in sums.iter_mut().zip(x.iter().zip(y)) {
                *sum += x * y;
            }
        }
        let tail: f64 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
        (sums[0] + sums[1]) + (sums[2] + sums[3]) + tail
    };
    let zero = ac(0);
    if zero <= 1e-12 {
        return 0.0;
    }
    BEAT_LAGS.map(|l| ((ac(l) + ac(2 * l)) / 2.0 / zero) as f32).fold(0.0f32, f32::max)
}

/// Triangular filters on the mel scale (HTK), [`MEL_BANDS`] of them from 100 Hz to 7.6 kHz, over
/// the bins of an [`N_FFT`]-point spectrum at 16 kHz.
fn mel_filters() -> Vec<Vec<(usize, f32)>> {
    let hz_to_mel = |f: f64| 2595.0 * (1.0 + f / 700.0).log10();
    let mel_to_hz = |m: f64| 700.0 * (10f64.powf(m / 2595.0) - 1.0);
    let (lo, hi) = (hz_to_mel(100.0), hz_to_mel(7600.0));
    let bins: Vec<usize> = (0..MEL_BANDS + 2)
        .map(|i| {
            let f = mel_to_hz(lo + (hi - lo) * i as f64 / (MEL_BANDS + 1) as f64);
            ((N_FFT + 1) as f64 * f / RATE as f64).floor() as usize
        })
        .collect();
    (0..MEL_BANDS)
        .map(|i| {
            let (a, b, c) = (bins[i], bins[i + 1], bins[i + 2]);
            let rise = (a..b).map(move |k| (k, (k - a) as f32 / (b - a).max(1) as f32));
            let fall = (b..c).map(move |k| (k, (c - k) as f32 / (c - b).max(1) as f32));
            rise.chain(fall).filter(|&(_, w)| w > 0.0).collect()
        })
        .collect()
}

/// The values of the windows (window `first + k` covering frames `[k·step, k·step + len)`)
/// whose centre lies in one of the `merged` spans (disjoint, in order, seconds), in one pass.
fn in_spans<T: Copy>(
    merged: &[(f64, f64)],
    windows: &[T],
    first: usize,
    step: usize,
    len: usize,
) -> Vec<T> {
    let mut out = Vec::new();
    // The first merged span not yet wholly before the window's centre.
    let mut next = 0;
    for (k, &value) in windows.iter().enumerate() {
        let centre = centre(first + k, step, len);
        while next < merged.len() && merged[next].1 <= centre {
            next += 1;
        }
        let Some(&(start, _)) = merged.get(next) else { break };
        if start <= centre {
            out.push(value);
        }
    }
    out
}

/// `spans` sorted by start, empty (or not numbers) left out, and those that overlap or touch
/// joined: disjoint `[start, end)` spans in order.
fn merge_spans(spans: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut sorted: Vec<(f64, f64)> = spans.iter().copied().filter(|(s, e)| e > s).collect();
    sorted.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut merged: Vec<(f64, f64)> = Vec::with_capacity(sorted.len());
    for (s, e) in sorted {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    merged
}

/// The correlation of two mean-removed vectors (0 when either is flat).
fn correlation(a: &[f32], b: &[f32]) -> f32 {
    let (mut ab, mut aa, mut bb) = (0.0f64, 0.0f64, 0.0f64);
    for (&x, &y) in a.iter().zip(b) {
        ab += f64::from(x) * f64::from(y);
        aa += f64::from(x) * f64::from(x);
        bb += f64::from(y) * f64::from(y);
    }
    (ab / (aa * bb + 1e-9).sqrt()) as f32
}

/// The median (the mean of the two middle values for an even count); 0 for none.
fn median(v: &mut [f32]) -> f32 {
    if v.is_empty() {
        return 0.0;
    }
    // The middle value(s) selected, not the whole sorted (one median per 100 ms window).
    let m = v.len() / 2;
    let odd = v.len() % 2 == 1;
    let (below, &mut middle, _) = v.select_nth_unstable_by(m, f32::total_cmp);
    if odd {
        middle
    } else {
        let lower = below.iter().copied().max_by(f32::total_cmp).unwrap_or(middle);
        (lower + middle) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A chord of three held notes with their partials: 4 s per chord.
    fn chords(seconds: usize) -> Vec<f32> {
        let notes = [[220.0, 277.2, 329.6], [196.0, 246.9, 293.7], [174.6, 220.0, 261.6]];
        (0..seconds * RATE)
            .map(|i| {
                let t = i as f32 / RATE as f32;
                let chord = notes[(i / (4 * RATE)) % notes.len()];
                let mut v = 0.0;
                for f in chord {
                    for h in 1..=4 {
                        v += (2.0 * std::f32::consts::PI * f * h as f32 * t).sin() / h as f32;
                    }
                }
                0.05 * v
            })
            .collect()
    }

    /// A voice-like signal ([`overtalk_testkit::talk`]), `seconds` long at 16 kHz.
    fn talk(seconds: usize) -> Vec<f32> {
        overtalk_testkit::talk(seconds)
    }

    fn meter(signal: &[f32]) -> MusicMeter {
        let mut m = MusicMeter::default();
        // Blocks of an odd length: the framing carries over.
        for block in signal.chunks(1234) {
            m.push(block);
        }
        m
    }

    #[test]
    fn held_chords_sound_like_music_and_syllables_like_speech() {
        let music = meter(&chords(12));
        let verdict = music.judge(&[(0.0, 12.0)]).unwrap();
        assert_eq!((verdict.music_share, verdict.speech_share), (1.0, 0.0));
        assert!(verdict.music_like);
        let speech = meter(&talk(12));
        let verdict = speech.judge(&[(0.0, 12.0)]).unwrap();
        assert_eq!(verdict.music_share, 0.0);
        assert!(verdict.speech_share > 0.9, "{verdict:?}");
        assert!(!verdict.music_like);
    }

    /// Plucked notes: a decaying tone every 400 ms (150 beats a minute), silent between.
    fn plucks(seconds: usize) -> Vec<f32> {
        let period = RATE * 400 / 1000;
        (0..seconds * RATE)
            .map(|i| {
                let (k, n) = (i / period, i % period);
                let f = [262.0, 330.0, 392.0, 523.0][k % 4];
                let t = n as f32 / RATE as f32;
                0.2 * (-t * 12.0).exp() * (2.0 * std::f32::consts::PI * f * t).sin()
            })
            .collect()
    }

    #[test]
    fn a_steady_beat_sounds_like_music_where_held_notes_are_missing() {
        let m = meter(&plucks(12));
        let verdict = m.judge(&[(0.0, 12.0)]).unwrap();
        // Level dips between the notes: not held, but the beat is steady.
        assert_eq!(verdict.music_share, 0.0, "{verdict:?}");
        assert_eq!(verdict.beat_share, 1.0, "{verdict:?}");
        // Each note holds its partials while it decays.
        assert_eq!(verdict.held_share, 1.0, "{verdict:?}");
        assert!(verdict.speech_share <= 0.1, "{verdict:?}");
        assert!(verdict.music_like);
        // Syllables come at no steady rate.
        assert_eq!(meter(&talk(12)).judge(&[(0.0, 12.0)]).unwrap().beat_share, 0.0);
        // A flat envelope has no period.
        assert_eq!(beat_periodicity(&[0.5; BEAT_WINDOW]), 0.0);
        assert_eq!(m.measures.beats.len(), (m.frames - BEAT_WINDOW) / BEAT_STEP + 1);
    }

    /// A voice saying "la" four times a second for 15 s, as regular as a metronome (espeak-ng's
    /// syllable, its first 200 ms faded out over 30 ms, then 50 ms of silence): the beat test
    /// finds the beat in every window, and the windows are not speech-like (the gaps are too
    /// short), but the voice moves its spectrum within each syllable and its level drops
    /// between them, so it is not music.
    /// Skipped, with the reason printed, without espeak-ng.
    #[test]
    fn a_perfectly_regular_voice_is_not_music() {
        let dir = tempfile::tempdir().unwrap();
        let wav = dir.path().join("la.wav");
        let made = std::process::Command::new("espeak-ng").arg("-w").arg(&wav).arg("la").status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!("skipping a_perfectly_regular_voice_is_not_music: espeak-ng not found");
            return;
        }
        let (info, ch) =
            crate::decode::decode_all(&wav, &crate::decode::DecodeOptions::default()).unwrap();
        let x = crate::resample::resample_to_16k(&ch[0], info.sample_rate).unwrap();
        let start = x.iter().position(|s| s.abs() > 0.01).unwrap();
        let syllable: Vec<f32> = (0..RATE / 4)
            .map(|n| {
                let fade = (RATE * 200 / 1000).saturating_sub(n) as f32 / (RATE * 30 / 1000) as f32;
                x.get(start + n).copied().unwrap_or(0.0) * fade.min(1.0)
            })
            .collect();
        let voice: Vec<f32> = syllable.iter().copied().cycle().take(15 * RATE).collect();
        let verdict = meter(&voice).judge(&[(0.0, 15.0)]).unwrap();
        assert_eq!(
            (verdict.speech_share, verdict.beat_share, verdict.held_share, verdict.filled_share),
            (0.0, 1.0, 0.0, 0.0),
            "{verdict:?}"
        );
        assert!(!verdict.music_like);
        // Before the rule asked for held partials beside the beat, this voice was music.
        let beat_alone = MusicRule {
            min_held_share_beat: 0.0,
            min_filled_share_beat: 0.0,
            ..MusicRule::default()
        };
        let mut m = MusicMeter::new(beat_alone);
        m.push(&voice);
        assert!(m.judge(&[(0.0, 15.0)]).unwrap().music_like);
    }

    #[test]
    fn a_speaker_is_judged_on_its_own_spans() {
        // 10 s of music, then 10 s of talk: the windows centred in each part.
        let mut signal = chords(10);
        signal.extend(talk(10));
        let m = meter(&signal);
        let frames = (20 * RATE - FRAME) / HOP + 1;
        assert_eq!(m.frames, frames);
        assert_eq!(m.measures.windows.len(), (frames - WINDOW) / STEP + 1);
        let intro = m.judge(&[(0.0, 10.0)]).unwrap();
        assert!(intro.music_like, "{intro:?}");
        assert_eq!(intro.seconds, 10.0);
        let voice = m.judge(&[(10.0, 20.0)]).unwrap();
        assert!(!voice.music_like, "{voice:?}");
        // Too little of it to judge: under 5 s, or no window centred in it.
        assert!(!m.judge(&[(2.0, 6.0)]).unwrap().music_like);
        assert_eq!(m.judge(&[(19.5, 20.0)]), None);
        assert_eq!(m.judge(&[]), None);
        // Spans in any order, overlapping or touching, are judged as their union.
        let whole = m.judge(&[(0.0, 20.0)]).unwrap();
        let pieces = m.judge(&[(10.0, 20.0), (0.0, 6.0), (4.0, 10.0), (5.0, 5.0)]).unwrap();
        assert_eq!(pieces, whole);
        assert_eq!(whole.seconds, 20.0);
        // A window counts when its centre is in a span: the first is centred at 1.0075 s
        // (samples 0 to 32 239), the next 0.1 s later.
        let window = |spans: &[(f64, f64)]| m.judge(spans).map(|v| (v.music_share, v.speech_share));
        assert_eq!(window(&[(1.0, 1.0075)]), None);
        assert_eq!(window(&[(1.0075, 1.0076)]), Some((1.0, 0.0)));
        assert_eq!(window(&[(1.0, 1.0075), (1.0075, 1.1)]), Some((1.0, 0.0)));
        assert_eq!(window(&[(1.0, 1.2)]), Some((1.0, 0.0)));
    }

    /// Judged as the speech is decided, second by second, the tally gives the verdict of
    /// the whole speech judged at the end, and the meter holds only the windows not yet
    /// judged.
    #[test]
    fn a_tally_as_the_speech_is_decided_is_the_judgement_at_the_end() {
        let mut signal = plucks(10);
        signal.extend(talk(10));
        signal.extend(chords(10));
        let whole = meter(&signal);
        for speech in [&[(0.5, 9.5), (12.0, 14.0), (21.0, 30.0)][..], &[(10.0, 20.0)], &[]] {
            let mut m = MusicMeter::default();
            let mut tally = MusicTally::default();
            let mut held = 0;
            for (i, block) in signal.chunks(RATE).enumerate() {
                m.push(block);
                // The speech decided up to 1.5 s behind the audio.
                let until = (i as f64 - 0.5).min(m.measured_until());
                let spans: Vec<(f64, f64)> =
                    speech.iter().map(|&(s, e)| (s, f64::min(e, until))).collect();
                m.tally(&spans, until, &mut tally);
                held = held.max(m.measures.windows.len() + m.measures.beats.len());
            }
            m.tally(speech, f64::INFINITY, &mut tally);
            let seconds: f64 = speech.iter().map(|(s, e)| e - s).sum();
            assert_eq!(m.verdict(&tally, seconds), whole.judge(speech), "{speech:?}");
            assert!(m.measures.windows.is_empty() && m.measures.beats.is_empty());
            // 6 s of beat windows at most, and 3.5 s of windows: the 1.5 s behind, the window's
            // second after its centre and the 1 s step.
            assert!(held <= 35 + 6, "{held}");
        }
        assert!(whole.judge(&[(0.5, 9.5)]).unwrap().music_like);
        assert!(!whole.judge(&[(10.0, 20.0)]).unwrap().music_like);
    }

    #[test]
    fn spans_are_merged_in_order() {
        assert_eq!(
            merge_spans(&[
                (5.0, 6.0),
                (1.0, 2.0),
                (2.0, 3.0),
                (1.5, 1.8),
                (4.0, 4.0),
                (7.0, f64::NAN)
            ]),
            [(1.0, 3.0), (5.0, 6.0)]
        );
        assert_eq!(merge_spans(&[]), []);
    }

    #[test]
    fn silence_and_noise_are_no_music() {
        let m = meter(&vec![0.0; 8 * RATE]);
        let verdict = m.judge(&[(0.0, 8.0)]).unwrap();
        assert!(!verdict.music_like, "{verdict:?}");
        // Steady noise (a fan, a line's hiss) keeps its level but not its spectrum.
        let mut seed = 12_345u32;
        let noise: Vec<f32> = (0..8 * RATE)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                (f32::from((seed >> 16) as u16) / 65_535.0 - 0.5) * 0.1
            })
            .collect();
        let verdict = meter(&noise).judge(&[(0.0, 8.0)]).unwrap();
        assert_eq!(verdict.music_share, 0.0, "{verdict:?}");
        // Non-finite samples are silence: measured exactly as zeros there (one of them in the
        // last 2 s, whose frame measures the meter still holds), not a panic.
        let (mut bad, mut zeroed) = (chords(8), chords(8));
        for (i, v) in [(1000, f32::NAN), (2000, f32::INFINITY), (7 * RATE, f32::NEG_INFINITY)] {
            bad[i] = v;
            zeroed[i] = 0.0;
        }
        let (bad, zeroed) = (meter(&bad), meter(&zeroed));
        assert!(bad.power.iter().chain(&bad.stationarity).all(|v| v.is_finite()));
        assert_eq!((&bad.power, &bad.stationarity), (&zeroed.power, &zeroed.stationarity));
        assert_eq!(bad.measures, zeroed.measures);
        assert!(bad.judge(&[(0.0, 8.0)]).unwrap().music_like);
    }

    #[test]
    fn the_median_and_the_correlation() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(median(&mut []), 0.0);
        assert!((correlation(&[1.0, -1.0], &[2.0, -2.0]) - 1.0).abs() < 1e-6);
        assert_eq!(correlation(&[0.0, 0.0], &[1.0, -1.0]), 0.0);
    }
}
