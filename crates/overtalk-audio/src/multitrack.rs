//! One microphone per speaker: who is talking on each track, with the other speakers' bleed
//! rejected, overlaps kept.
//!
//! ## The rule
//!
//! Every 10 ms frame `t`, with `E_i` the energy of mic `i` in dB and `P_i` its power:
//!
//! ```text
//! floor_i      = 2nd percentile of E_i over the recording's frames  (the mic's own noise;
//!                that hold noise: not digital silence, nor within  see `noise_frame`)
//!                30 ms of it
//! c_ij         = median of P_i / P_j over frames where mic j is     (how much of speaker j
//!                the loudest and 20 dB above its floor                leaks into mic i)
//! S            = the source powers solving P = C·S, S ≥ 0          (C: 1 on the diagonal,
//!                                                                     c_ij elsewhere)
//! bleed_i(t)   = Σ_{j≠i} c_ij · S_j(t)                             (what mic i hears of
//!                                                                     the others)
//! ```
//!
//! A coupling is trusted only from at least 20 frames and at least 1 % of the frames where the
//! speaker dominates (`coupling_min_share`): a share, not only a count, so that the estimate
//! does not change with the length of the recording. With a count alone, a three-hour recording
//! took a band's coupling from the one atypical frame per four minutes that a four-minute one
//! ignored (an overlap where the other speaker's voice fills a band the dominant speaker rarely
//! reaches: a coupling of +6 dB instead of −6), and the quiet speaker got false alarms
//! throughout (3.84 % DER instead of 0.95 % on a conversation repeated 40 times; now 1.01 %).
//!
//! A speaker who never stands 20 dB above their mic's floor (a quiet voice in a noisy room)
//! gets their couplings from frames at 14 or 8 dB, with the listener's noise floor taken off
//! the listener's power so that noise does not pass for bleed.
//!
//! ### Per band (the default, when the features carry band energies)
//!
//! The same unmixing runs separately in each of the [`BANDS`] frequency bands of every frame
//! (`P_i(b)`, see [`crate::frames::BandAnalyzer`]), with couplings `c_ij(b)` estimated per band
//! from frames where mic `j` dominates and the bleed in mic `i`'s band stands well above its
//! noise (the broadband coupling where there are too few such frames), and each band's noise
//! `N_i(b)` measured as its mean power over the frames at the mic's broadband floor:
//!
//! ```text
//! counts_i(t, b) ⇔  S_i(b) ≥ band_margin · (bleed_i(b) + N_i(b))
//! speaking_i(t)  ⇔  at least band_on of the bands count (band_off to continue a run)
//!                ∧  the voice activity detector hears speech on mic i near t
//! ```
//!
//! Why bands: a quiet speaker talking over a loud one is, on their own mic, often quieter than
//! the loud one's bleed, and broadband powers cannot tell a small own voice from an error in the
//! predicted bleed. Two voices rarely fill the same bands at the same moment (different pitch,
//! different formants), so in a few bands the quiet voice stands far above the bleed predicted
//! there; and white noise spread over 8 kHz weighs little in the narrow low bands where a quiet
//! voice's energy sits. On the synthetic suite this took overlap recall from 0.76 to 0.95.
//!
//! ### Broadband (features without bands, or `bands: false`)
//!
//! ```text
//! speaking_i(t) ⇔  E_i(t) ≥ floor_i + above_floor_db
//!              ∧  10·log10(S_i(t) / bleed_i(t)) ≥ above_bleed_db
//!              ∧  the voice activity detector hears speech on mic i near t
//! ```
//!
//! The couplings are re-estimated every 10 s (`coupling_block`) when the block has enough
//! frames where each speaker dominates, so a gain turned up mid-recording is followed; the
//! whole recording's estimate fills in otherwise. (Per band, the whole recording's band
//! couplings are scaled by how much the block's broadband coupling differs from the whole
//! recording's.) The bleed predicted from a speaker fades by
//! at most `bleed_decay_db` per frame after they stop, so the reverberation tail of their voice
//! in a roomy recording is not taken for the listener's speech (per band too).
//!
//! Unmixing matters when levels differ: a quiet speaker overlapping a loud one is, on their own
//! mic, quieter than the loud one's bleed; their own power `S_i` still stands out from the
//! bleed the couplings predict.
//!
//! The couplings `c_ij` are estimated from the recording itself, so unequal speaker levels,
//! unequal mic gains and bleed anywhere from −40 to −6 dB are handled without tuning. The
//! thresholds have hysteresis (a run starts at the `_on` margins and continues down to the
//! `_off` margins), then gaps shorter than `min_silence` are closed and runs shorter than
//! `min_speech` dropped, per track. Tracks are decided independently, so two people talking at
//! once both come out: overlap is preserved.
//!
//! ```text
//! mic A   ▁▁▇█▇▇▃▃▃▁▁▁▃▃▃▁       (A speaks, then B's bleed at −15 dB)
//! mic B   ▁▁▂▂▂▂▇█▇█▁▁▇█▇▁
//! bleed_A ▁▁▁▁▁▁▃▃▃▃▁▁▃▃▃▁       predicted from B with c_AB
//! A         [████)               B's bleed on A is at its prediction, so it is rejected
//! B               [██)   [██)
//! ```
//!
//! The voice-activity conditions reject loud non-speech sounds on a speaker's own mic (breath,
//! handling noise, coughs, a door): frame by frame, the detector must hear speech within
//! `vad_dilate` (so word edges are not clipped); and a whole run, once short gaps are closed, is
//! kept only if the detector is confident (`vad_peak`, 0.85) on at least `vad_peak_frames` (3) of
//! its frames. On a close-talk mic the detector is confident on its own speaker's words and
//! rarely on the bleed or on noise, which is what the run test relies on. "Confident" is
//! relative to how sure the detector is of that mic's own clear speech (`vad_peak_share` of its
//! 90th percentile there, when below 0.85): it hears narrowband (8 kHz) speech less surely, and
//! a fixed bar dropped the short turns of telephone-band tracks.
//!
//! ## Memory
//!
//! Per 10 ms frame and track:
//!
//! ```text
//!                        RAM                          disk (temporary file)
//! features               2 B energy + ≤ 1 B speech    24 B band energies, past 4 MiB per track
//!                        (+ 24 B bands while short)   (see crate::features)
//! deciding               1 B band count, 1 B voice    –
//!                        activity near t, 1 B active
//! statistics             fixed: histograms of 3001 bins per pair of mics and per band,
//!                        one 10 s block of energies, one block of band frames per track
//! ```
//!
//! So about 6 bytes per frame per track stay in RAM (2.2 MB per track-hour; a 10-hour
//! two-track recording peaks at 49 MB), and the band energies, which the band rule reads three
//! times in order (band noise, band couplings, the decision), are read back block by block
//! ([`crate::features::BandReader`]): 8.6 MB of disk per track-hour. Every statistic is a
//! histogram or is computed over one 10 s block; what else grows with the duration is one
//! `k × k` coupling matrix per 10 s block (a few kB per track-hour).

use std::fmt;
use std::path::PathBuf;

use overtalk::{Annotation, AnnotationBuilder, Delta, Error, Region, Result, Rounding};

use crate::features::{BandReader, TrackFeatures, BAND_BASE_DB};
use crate::frames::{
    drop_dangling_runs, runs_to_region, smooth_runs_in_overlap, BANDS, GRID, HOP, SILENCE_DB,
    WINDOW,
};

/// Thresholds of the multitrack rule (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MultitrackOptions {
    /// A run starts when a mic is this far above its own noise floor (dB).
    pub above_floor_on_db: f32,
    /// A run continues while a mic stays this far above its noise floor (dB).
    pub above_floor_off_db: f32,
    /// A run starts when a mic is this far above the bleed predicted from the others (dB).
    pub above_bleed_on_db: f32,
    /// A run continues while a mic stays this far above the predicted bleed (dB).
    pub above_bleed_off_db: f32,
    /// Percentile of a mic's frame energies taken as its noise floor (0–100).
    pub floor_percentile: f32,
    /// Frames used to estimate coupling `c_ij`: mic `j` loudest and this far above its floor.
    pub coupling_min_db: f32,
    /// A coupling estimate (broadband or per band) is trusted only when its histogram holds at
    /// least 20 frames and at least this fraction of the frames where the speaker dominates, so
    /// that it does not depend on the length of the recording: a band that a speaker excites
    /// only in a few atypical frames keeps the broadband coupling however long the recording.
    pub coupling_min_share: f32,
    /// Require the voice activity detector (when one ran) to hear speech near the frame.
    pub use_vad: bool,
    /// The speech probability the voice activity detector must reach.
    pub vad_threshold: f32,
    /// How far around a frame the voice activity detector may hear the speech.
    pub vad_dilate: Delta,
    /// A run (before gap closing) is dropped when the detector's mean speech probability over
    /// it is below this (0 switches the test off).
    pub vad_run_mean: f32,
    /// A run (after gap closing) is kept only if at least this many of its 10 ms frames reach
    /// [`vad_peak`](MultitrackOptions::vad_peak) (0 switches the test off).
    pub vad_peak_frames: usize,
    /// The confident speech probability that [`vad_peak_frames`](MultitrackOptions::vad_peak_frames)
    /// counts, at most: see [`vad_peak_share`](MultitrackOptions::vad_peak_share).
    pub vad_peak: f32,
    /// On a track where the detector is less sure of speech than on wideband close-talk
    /// speech, the confident probability is this share of the detector's 90th percentile over
    /// the track's own clear speech (frames where it is the loudest mic, `coupling_min_db`
    /// above its floor, and the detector hears speech, at `vad_threshold` or more), when that
    /// is below [`vad_peak`](MultitrackOptions::vad_peak), and never below
    /// [`vad_peak_min`](MultitrackOptions::vad_peak_min). The detector hears narrowband
    /// speech (telephone, 8 kHz) less surely: its 90th percentile there is about 0.90 where it
    /// is 0.95 on 16 kHz speech, and a bar fixed at 0.85 dropped most short backchannels (5 of
    /// 15 on the synthetic 8 kHz check of BENCHMARKS.md).
    pub vad_peak_share: f32,
    /// The lowest confident probability a track's bar may fall to: loud noise on a mic
    /// (handling, breath) that the detector half-believes must not lower its own bar.
    pub vad_peak_min: f32,
    /// Couplings are re-estimated over blocks of this many 10 ms frames (falling back to the
    /// whole recording's when a block has too few frames where a speaker dominates).
    pub coupling_block: usize,
    /// Frames where a speaker dominates that a block needs before its own coupling estimate is
    /// trusted over the whole recording's.
    pub coupling_block_min: usize,
    /// The bleed predicted from a speaker may fade by at most this many dB per 10 ms frame,
    /// so reverberation tails of another speaker are not taken for speech.
    pub bleed_decay_db: f32,
    /// Compare each speaker's estimated own power (the mic powers unmixed with the couplings)
    /// with the bleed, instead of the raw mic power.
    pub unmix: bool,
    /// Decide per frequency band when every track has band energies (see the module
    /// documentation); otherwise, or when false, the broadband rule decides.
    pub bands: bool,
    /// A band counts for a speaker when their own power in it (unmixed) is this far above the
    /// bleed predicted from the others plus the band's noise (dB).
    pub band_margin_db: f32,
    /// A run starts when at least this fraction of the bands count for the speaker.
    pub band_on: f32,
    /// A run continues while at least this fraction of the bands count.
    pub band_off: f32,
    /// Quantile of a mic's band counts over frames where another mic dominates (mostly bleed
    /// alone); a speaker needs one band more than it (and at least `band_on`).
    pub band_bleed_quantile: f32,
    /// A frame where another mic dominates counts as bleed alone on mic `i`, for
    /// `band_bleed_quantile`, only when mic `i`'s power is at most this far (dB) above the bleed
    /// predicted from the others plus its noise floor: the listener's own speech in an overlap
    /// says nothing about how reliable the residual of the bleed is.
    pub bleed_alone_db: f32,
    /// Band couplings are estimated from bands at least this far above the dominant mic's band
    /// noise (dB).
    pub band_coupling_min_db: f32,
    /// Runs shorter than this (before gap closing) may only bridge a pause: one that the gap
    /// closing would join to speech on one side only, or on neither, and that is not within
    /// [`bridge_only_near`](MultitrackOptions::bridge_only_near) of speech, is dropped
    /// ([`crate::frames::drop_dangling_runs`]). Zero switches this off.
    pub bridge_only: Delta,
    /// A short run this close to speech is the edge of that speech's word and stays.
    pub bridge_only_near: Delta,
    /// Runs shorter than this are dropped.
    pub min_speech: Delta,
    /// Gaps shorter than this within a track are closed …
    pub min_silence: Delta,
    /// … except a gap in which another track speaks (its frames before gap closing) at a
    /// frame this far or more into the gap: the track's run ends there. The silence of a
    /// speaker while another talks is most often the floor given up or a backchannel over,
    /// not a pause within one utterance, and the causal detector confirms it sooner by the
    /// same rule ([`crate::frames::smooth_runs_in_overlap`]). At `min_silence` or above (the
    /// default): off. Measured at 200 ms and not adopted (BENCHMARKS.md, "Live: ends
    /// confirmed sooner in overlap").
    pub overlap_silence: Delta,
    /// … when another track also spoke at the stop: within this long before the gap's first
    /// frame. A pause that another speaker fills only after it began (a backchannel in the
    /// holder's pause) is bridged as any other.
    pub overlap_since: Delta,
}

impl Default for MultitrackOptions {
    /// Chosen on the synthetic suite (`bench/make_synth.sh`) and the AMI ES2004a headsets; see
    /// BENCHMARKS.md for what they give.
    fn default() -> MultitrackOptions {
        MultitrackOptions {
            above_floor_on_db: 8.0,
            above_floor_off_db: 5.0,
            above_bleed_on_db: 3.0,
            above_bleed_off_db: 0.0,
            floor_percentile: 2.0,
            coupling_min_db: 20.0,
            coupling_min_share: 0.01,
            use_vad: true,
            vad_threshold: 0.5,
            vad_dilate: Delta::from_micros(100_000),
            vad_run_mean: 0.0,
            unmix: true,
            coupling_block: 1000,
            coupling_block_min: 50,
            bleed_decay_db: 1.5,
            vad_peak_frames: 3,
            vad_peak: 0.85,
            vad_peak_share: 0.9,
            vad_peak_min: 0.75,
            bands: true,
            band_margin_db: 5.0,
            band_on: 0.08,
            band_off: 0.06,
            band_coupling_min_db: 15.0,
            band_bleed_quantile: 0.9,
            bleed_alone_db: 10.0,
            bridge_only: Delta::from_micros(30_000),
            bridge_only_near: Delta::from_micros(50_000),
            min_speech: Delta::from_micros(100_000),
            min_silence: Delta::from_micros(400_000),
            overlap_silence: Delta::from_micros(400_000),
            overlap_since: Delta::from_micros(50_000),
        }
    }
}

/// What the detector estimated about the recording (for reports and debugging).
#[derive(Clone, Debug, PartialEq)]
pub struct MultitrackReport {
    /// Noise floor per track, dBFS.
    pub floors_db: Vec<f32>,
    /// `coupling_db[i][j]`: level of speaker `j` in mic `i` relative to mic `j`, in dB
    /// (`None` when speaker `j` never clearly spoke, and on the diagonal).
    pub coupling_db: Vec<Vec<Option<f32>>>,
    /// `band_coupling_db[i][j][b]`: the same per band `b` (see [`crate::frames::BANDS`]), where
    /// the whole recording's broadband coupling stands in for a band with too few frames to
    /// estimate (0 on the diagonal; empty when the band rule did not run).
    pub band_coupling_db: Vec<Vec<Vec<f32>>>,
    /// `band_need[i]`: how many of the [`crate::frames::BANDS`] bands must count for speaker
    /// `i` to start a run (`band_on`, raised by the `band_bleed_quantile` of the counts where
    /// another mic dominates; empty when the band rule did not run). A statistic of the whole
    /// recording: on a prefix of it (what the look-ahead detector decides on) it may differ.
    pub band_need: Vec<usize>,
    /// `vad_peak[i]`: the speech probability a run of track `i` must reach on
    /// `vad_peak_frames` frames to be kept ([`MultitrackOptions::vad_peak_share`]).
    pub vad_peak: Vec<f32>,
    /// Tracks whose speech (as the voice activity detector hears it) was mostly rejected,
    /// saying which track and why ([`TrackWarning::SpeechMostlyRejected`]); shown to the user
    /// so a speaker is never lost without a word.
    pub warnings: Vec<TrackWarning>,
}

/// What the user should be told about a track, one sentence each ([`Display`](fmt::Display)).
/// Never printed by the library.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TrackWarning {
    /// The voice activity detector is confident of `heard` seconds of speech on the track, but
    /// the multitrack rule kept only `kept` of them as its speaker's (less than a quarter).
    SpeechMostlyRejected {
        /// The track's speaker label.
        track: String,
        /// Seconds of confident speech on the track.
        heard: f64,
        /// Seconds of them kept as the track's speech.
        kept: f64,
        /// Why most of the rest was rejected.
        why: LostBecause,
    },
    /// The speaker model gave no usable embedding (NaN or infinite values, or all zeros) for
    /// some windows of a mixed recording: they were left out of the speaker clustering
    /// ([`crate::diarize::Diarization::dropped_windows`]), and the speech they covered took
    /// its speaker from the windows around it.
    NonFiniteEmbeddings {
        /// The recording.
        path: PathBuf,
        /// How many windows.
        windows: usize,
    },
    /// Samples that were NaN or infinite were replaced by silence.
    NonFinite {
        /// The recording.
        path: PathBuf,
        /// How many samples.
        samples: u64,
    },
    /// At least [`crate::decode::FULL_SCALE_WARN_SHARE`] of the samples are at full scale:
    /// the recording is clipped throughout or is not audio (full-scale noise, data), and what
    /// the detector found in it may not be speech.
    FullScale {
        /// The recording.
        path: PathBuf,
        /// The share of the samples at full scale, 0–1.
        share: f64,
    },
    /// Packets the decoder could not decode were replaced by silence.
    CorruptPackets {
        /// The recording.
        path: PathBuf,
        /// How many packets.
        packets: u64,
    },
    /// The WAV header's data size was a placeholder; the samples were read to the end of the
    /// file ([`crate::decode::DecodeStats::placeholder_length`]).
    PlaceholderLength {
        /// The recording.
        path: PathBuf,
    },
    /// MPEG audio frames at another sample rate than the stream's first (MP3 files of two
    /// rates joined byte for byte) could not be decoded and were replaced by silence as long as
    /// they play ([`crate::decode::DecodeStats::other_rate_packets`]).
    OtherRateFrames {
        /// The recording.
        path: PathBuf,
        /// How many frames.
        packets: u64,
        /// The stream's rate, from its first frame.
        rate: u32,
        /// The other rate.
        other: u32,
        /// Seconds of silence they became.
        seconds: f64,
    },
    /// The MPEG audio goes on past the length its LAME/Xing header declares, by more than
    /// encoder padding (MP3 files joined byte for byte); it was decoded
    /// ([`crate::decode::DecodeStats::past_declared_frames`]).
    PastDeclaredLength {
        /// The recording.
        path: PathBuf,
        /// Seconds of audio past the declared length.
        seconds: f64,
    },
    /// MPEG audio frames at the stream's rate but with another channel count than its first
    /// (a mono and a stereo MP3 joined byte for byte) were decoded on their own and mixed to
    /// the stream's channels ([`crate::decode::DecodeStats::other_layout_packets`]).
    OtherChannelFrames {
        /// The recording.
        path: PathBuf,
        /// How many frames.
        packets: u64,
        /// The stream's channels, from its first frame.
        channels: usize,
        /// The other frames' channels.
        other: usize,
        /// Seconds of audio they hold.
        seconds: f64,
    },
    /// Other WAV files were joined to the end of this one byte for byte (`cat a.wav b.wav`) and
    /// were not read: only the first file's recording was heard
    /// ([`crate::decode::DecodeStats::appended_wav`]).
    AppendedWav {
        /// The recording.
        path: PathBuf,
        /// Seconds of the first file's audio, which were read.
        read: f64,
        /// Bytes from the appended file's header to the end of the file, not read.
        bytes: u64,
        /// The appended file's sample rate, when its header says.
        sample_rate: Option<u32>,
        /// The appended file's seconds, when its header says.
        seconds: Option<f64>,
        /// How many WAV files are joined after the first (1 for two files).
        files: u64,
        /// Seconds of all the joined files together, when every header says.
        total: Option<f64>,
    },
    /// The container holds more audio tracks than the one read (a recorder such as OBS writes
    /// one per microphone): the others were not heard
    /// ([`crate::decode::DecodeStats::unread_audio_tracks`]).
    UnreadAudioTracks {
        /// The recording.
        path: PathBuf,
        /// Audio tracks not read.
        unread: usize,
        /// Audio tracks `--audio-tracks` named (a `_` counts); 0 when it was not given and
        /// the default track was read.
        named: usize,
    },
    /// The recording's channels cancel out when mixed down (one is the other inverted), so
    /// one channel was used alone ([`crate::channels::Downmix`]).
    ChannelsCancel {
        /// The recording.
        path: PathBuf,
        /// The channel used alone (0-based).
        channel: usize,
        /// Seconds into the recording from which it was.
        from: f64,
    },
    /// The container starts the audio late on the file's timeline (after its video, say): that
    /// much silence was put before it ([`crate::decode::AudioInfo::lead`]), so times are the
    /// file's, as players and editors show them.
    LateStart {
        /// The recording.
        path: PathBuf,
        /// Where the audio starts, in seconds.
        seconds: f64,
    },
    /// The track's timestamps skip time (audio a recorder dropped or paused): the gaps were
    /// filled with silence, so later times stay on the file's timeline
    /// ([`crate::decode::DecodeStats::gaps`]); or they went back (files joined with their
    /// clocks restarted) or jumped too far to fill, and the audio was kept in file order.
    TimestampGaps {
        /// The recording.
        path: PathBuf,
        /// Gaps filled.
        gaps: u64,
        /// Seconds of silence they were filled with.
        seconds: f64,
        /// Times the timestamps went back or jumped too far to fill.
        resets: u64,
    },
    /// A speaker found in a mixed recording sounds like music rather than a voice
    /// ([`crate::music`]): an intro, a jingle or a music bed taken for a speaker. It is kept.
    MusicLike {
        /// The recording.
        path: PathBuf,
        /// The speaker's label.
        speaker: String,
        /// Seconds of its speech.
        seconds: f64,
        /// Share of its speech (2 s windows by centre) with the level and partials of music.
        music_share: f64,
        /// Share of its speech (6 s windows by centre) with a steady beat.
        beat_share: f64,
    },
    /// A speaker's own track (`--track`, a channel of `--channels`, or one recording detected
    /// without diarizing) sounds like music rather than a voice ([`crate::music`]): a music
    /// bed, a jingle or a stream's music channel on a track of its own, counted as a speaker
    /// talking. It is kept.
    MusicTrack {
        /// The recording (empty for samples given in memory).
        path: PathBuf,
        /// The track's speaker name.
        track: String,
        /// Seconds of speech detected on it.
        seconds: f64,
        /// Share of that speech (2 s windows by centre) with the level and partials of music.
        music_share: f64,
        /// Share of that speech (6 s windows by centre) with a steady beat.
        beat_share: f64,
        /// The track is the recording's only one (a recording detected without diarizing):
        /// leaving it out would leave nothing, so the warning does not suggest it.
        alone: bool,
    },
    /// The file ends early (a download or recording cut short); the audio present was read
    /// ([`crate::decode::DecodeStats::truncated`]).
    Truncated {
        /// The recording.
        path: PathBuf,
        /// Seconds of audio read.
        read: f64,
        /// Seconds the header declares, when it declares a length.
        declared: Option<f64>,
    },
}

/// `name` as one word of a shell command: as it is when it holds only letters, digits and
/// `-_.:+@/`, else in single quotes (a quote inside as `'\''`), so that the flag a warning
/// suggests can be pasted as it is (`--ignore-label 'Guest, left'`).
fn shell_word(name: &str) -> String {
    let plain =
        !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || "-_.:+@/".contains(c));
    if plain {
        name.to_owned()
    } else {
        format!("'{}'", name.replace('\'', "'\\''"))
    }
}

/// Why most of a track's rejected speech was rejected: the most common reason among its
/// rejected frames.
#[derive(Clone, Debug, PartialEq)]
pub enum LostBecause {
    /// Another mic was louder, and its bleed (as the couplings predict it) covers the track.
    Bleed {
        /// Seconds rejected for this reason.
        seconds: f64,
        /// The louder track's speaker label.
        louder: String,
        /// The coupling of the louder speaker into this track, dB (`None`: not estimated).
        coupling_db: Option<f32>,
    },
    /// The track did not stand out from its own noise and the bleed predicted in it.
    Noise {
        /// Seconds rejected for this reason.
        seconds: f64,
        /// The track's noise floor, dBFS.
        floor_db: f32,
    },
}

impl fmt::Display for TrackWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrackWarning::SpeechMostlyRejected { track, heard, kept, why } => {
                write!(
                    f,
                    "track {track}: the voice detector hears {heard:.1} s of speech on it but \
                     only {kept:.1} s of it was kept as {track}'s speech: "
                )?;
                match why {
                    LostBecause::Bleed { seconds, louder, coupling_db } => {
                        let c = coupling_db
                            .map_or_else(|| "unknown".to_owned(), |c| format!("{c:.0} dB"));
                        write!(
                            f,
                            "most of the rest ({seconds:.1} s) comes while {louder} is louder \
                             and is taken for {louder}'s bleed into this track (coupling {c}); \
                             if both tracks really carry this speech, they may share one \
                             microphone or be copies of one recording"
                        )
                    }
                    LostBecause::Noise { seconds, floor_db } => write!(
                        f,
                        "most of the rest ({seconds:.1} s) does not stand out from the track's \
                         own noise and the bleed predicted in it (floor {floor_db:.0} dBFS)"
                    ),
                }
            }
            TrackWarning::NonFiniteEmbeddings { path, windows } => write!(
                f,
                "{}: the speaker model gave no usable embedding (NaN, infinite or all-zero \
                 values) for {windows} of its windows; they were left out of telling the speakers \
                 apart",
                path.display()
            ),
            TrackWarning::NonFinite { path, samples } => write!(
                f,
                "{}: {samples} non-finite samples (NaN or infinity) were replaced by silence",
                path.display()
            ),
            TrackWarning::FullScale { path, share } => write!(
                f,
                "{}: {:.1} % of the samples are at full scale: the recording is clipped \
                 throughout or is not audio (noise, data), so the speech found in it may not be \
                 speech",
                path.display(),
                share * 100.0
            ),
            TrackWarning::CorruptPackets { path, packets } => {
                write!(f, "{}: {packets} corrupt packets were replaced by silence", path.display())
            }
            TrackWarning::ChannelsCancel { path, channel, from } => write!(
                f,
                "{}: its channels cancel out when mixed down (one is the other inverted, so \
                 their mean is {:.0} dB or more below them); channel {} alone was used{}",
                path.display(),
                crate::channels::CANCEL_DB,
                channel + 1,
                if *from > 0.0 { format!(" from {from:.2} s on") } else { String::new() }
            ),
            TrackWarning::Truncated { path, read, declared } => {
                write!(f, "{}: the file is truncated: {read:.3} s of audio read", path.display())?;
                match declared {
                    Some(d) => write!(f, " of the {d:.3} s its header declares")?,
                    None => write!(f, " (its header declares no length)")?,
                }
                write!(f, "; the rest is missing (--strict refuses it)")
            }
            TrackWarning::MusicLike { path, speaker, seconds, music_share, beat_share } => write!(
                f,
                "{}: speaker {speaker} ({seconds:.1} s) sounds like music, not a voice: {:.0} % \
                 of it holds its level and its partials with no pauses between syllables, \
                 {:.0} % has a steady beat (an intro, a jingle or a music bed taken for a \
                 speaker?); it is kept, and `--ignore-label {speaker}` (or the name \
                 `--speakers` gives it) leaves it out of the analysis",
                path.display(),
                music_share * 100.0,
                beat_share * 100.0
            ),
            TrackWarning::TimestampGaps { path, gaps, seconds, resets } => {
                write!(f, "{}: ", path.display())?;
                if *gaps > 0 {
                    let n = if *gaps == 1 { "1 gap" } else { &format!("{gaps} gaps") };
                    write!(
                        f,
                        "its audio has {n} in its timestamps ({seconds:.3} s in all: audio the \
                         recorder dropped or paused), filled with silence so that later times \
                         stay on the file's timeline"
                    )?;
                }
                if *resets > 0 {
                    let n = if *resets == 1 { "once" } else { &format!("{resets} times") };
                    let and = if *gaps > 0 { "; its timestamps also" } else { "its timestamps" };
                    write!(
                        f,
                        "{and} go back, or jump too far to fill, {n} (recordings joined with \
                         their clocks restarted, or a damaged file?); the audio is kept in file \
                         order"
                    )?;
                }
                Ok(())
            }
            TrackWarning::MusicTrack { path, track, seconds, music_share, beat_share, alone } => {
                if !path.as_os_str().is_empty() {
                    write!(f, "{}: ", path.display())?;
                }
                write!(
                    f,
                    "track {track} ({seconds:.1} s of speech) sounds like music, not a voice: \
                     {:.0} % of it holds its level and its partials with no pauses between \
                     syllables, {:.0} % has a steady beat (a music bed, a jingle or a music \
                     channel on a track of its own?); it is kept as a speaker talking",
                    music_share * 100.0,
                    beat_share * 100.0
                )?;
                if *alone {
                    return Ok(());
                }
                write!(
                    f,
                    ", and `--ignore-label {}` (or the name `--speakers` gives it) leaves it out \
                     of the analysis",
                    shell_word(track)
                )
            }
            TrackWarning::LateStart { path, seconds } => write!(
                f,
                "{}: its audio starts {seconds:.3} s into the file's timeline; times are on that \
                 timeline (silence before it), so they match the video, captions and editors",
                path.display()
            ),
            TrackWarning::UnreadAudioTracks { path, unread, named } if *named > 0 => write!(
                f,
                "{}: it holds {} audio tracks and `--audio-tracks` names the first {named}; the \
                 other {unread} {} not read (name {} too, or `_` to skip {})",
                path.display(),
                named + unread,
                if *unread == 1 { "was" } else { "were" },
                if *unread == 1 { "it" } else { "them" },
                if *unread == 1 { "it" } else { "one" },
            ),
            TrackWarning::UnreadAudioTracks { path, unread, .. } => {
                let names = vec!["NAME"; unread + 1].join(",");
                write!(
                    f,
                    "{}: it holds {} audio tracks and only its default one was read; if each \
                     holds one microphone (as OBS records them), `--audio-tracks {names}` reads \
                     each as a speaker's own track",
                    path.display(),
                    unread + 1
                )
            }
            TrackWarning::OtherRateFrames { path, packets, rate, other, seconds } => write!(
                f,
                "{}: {packets} MPEG audio frames at {other} Hz, where the stream starts at \
                 {rate} Hz (MP3 files of two rates joined byte for byte?), cannot be decoded in \
                 one stream and were replaced by {seconds:.3} s of silence, as long as they \
                 play; convert the file to one rate (`{}` decodes each part at its own) to \
                 hear them",
                path.display(),
                crate::decode::convert_command(Some(path), false, *rate)
            ),
            TrackWarning::PastDeclaredLength { path, seconds } => write!(
                f,
                "{}: the MP3 goes on {seconds:.3} s past the length its header declares (MP3 \
                 files joined byte for byte?); all of it was decoded, as ffmpeg plays it",
                path.display()
            ),
            TrackWarning::OtherChannelFrames { path, packets, channels, other, seconds } => {
                let count = |n: usize| match n {
                    1 => "mono".to_owned(),
                    2 => "stereo".to_owned(),
                    n => format!("{n} channels"),
                };
                write!(
                    f,
                    "{}: {packets} MPEG audio frames ({seconds:.3} s) are in {}, where the stream \
                     starts in {} (MP3 files joined byte for byte?); they were decoded on their \
                     own and {} to {}, in place",
                    path.display(),
                    count(*other),
                    count(*channels),
                    if other > channels { "mixed down" } else { "spread" },
                    count(*channels),
                )
            }
            TrackWarning::AppendedWav { path, read, bytes, sample_rate, seconds, files, total }
                if *files > 1 =>
            {
                write!(
                    f,
                    "{}: {files} more WAV files are joined to its end byte for byte (at {read:.3} \
                     s, {bytes} bytes",
                    path.display()
                )?;
                if let Some(t) = total {
                    write!(f, ": {t:.3} s in all")?;
                }
                match (seconds, sample_rate) {
                    (Some(s), Some(r)) => write!(f, "; the first {s:.3} s at {r} Hz")?,
                    (None, Some(r)) => write!(f, "; the first at {r} Hz")?,
                    _ => {}
                }
                write!(
                    f,
                    ") and were not read: the first header ends the recording there, so only \
                     the first file was heard; join the files with a tool that writes one header \
                     and one sample rate (sox, or ffmpeg's concat filter), or give each on its own"
                )
            }
            TrackWarning::AppendedWav { path, read, bytes, sample_rate, seconds, .. } => {
                write!(
                    f,
                    "{}: another WAV file is joined to its end byte for byte (at {read:.3} s, \
                     {bytes} bytes",
                    path.display()
                )?;
                match (seconds, sample_rate) {
                    (Some(s), Some(r)) => write!(f, ": {s:.3} s at {r} Hz")?,
                    (None, Some(r)) => write!(f, " at {r} Hz")?,
                    _ => {}
                }
                write!(
                    f,
                    ") and was not read: its header ends the recording there, so only the first \
                     file was heard; join the files with a tool that writes one header and one \
                     sample rate (sox, or ffmpeg's concat filter), or give each on its own"
                )
            }
            TrackWarning::PlaceholderLength { path } => write!(
                f,
                "{}: the WAV header gives no length (written to a pipe, or by a recorder that did \
                 not finish the file); the audio was read to the end of the file",
                path.display()
            ),
        }
    }
}

/// Speech per track, in track order, plus what was estimated.
pub fn detect_regions(
    tracks: &[TrackFeatures],
    options: &MultitrackOptions,
) -> Result<(Vec<Region>, MultitrackReport)> {
    if tracks.is_empty() {
        return Err(Error::invalid("no tracks to analyse"));
    }
    let k = tracks.len();
    let n = tracks.iter().map(TrackFeatures::frames).min().unwrap_or(0);
    let db = |i: usize, t: usize| tracks[i].energy_db(t);
    let floors: Vec<f32> = tracks
        .iter()
        .map(|tr| percentile_cdb(&tr.energy_cdb[..n], options.floor_percentile))
        .collect();

    // Couplings from frames where mic j clearly dominates: over the whole recording (reported,
    // and the fallback), and per block so gain changes mid-recording are followed.
    let dominant = |t: usize| -> Option<(usize, f32)> {
        let (j, ej) =
            (0..k).map(|j| (j, db(j, t))).fold((0, f32::MIN), |a, b| if b.1 > a.1 { b } else { a });
        (ej >= floors[j] + options.coupling_min_db).then_some((j, ej))
    };
    let mut coupling_db = vec![vec![None; k]; k];
    let mut coupling = vec![vec![0.0f32; k]; k];
    if k > 1 {
        // A quiet speaker may never stand `coupling_min_db` above their mic's floor: their
        // couplings come from frames at lower margins (6 and 12 dB less), with the listener's
        // noise floor taken off the listener's power so the noise does not pass for bleed.
        // A pass's estimate is trusted only from enough of the frames where the speaker is the
        // loudest at the most relaxed margin (`coupling_min_count`), so a long recording does
        // not take a coupling from a few unusually loud frames that a short one would ignore.
        let floor_power: Vec<f32> = floors.iter().map(|f| 10f32.powf(f / 10.0)).collect();
        let relaxes = [0.0f32, 6.0, 12.0];
        let mut loudest = vec![0u64; k];
        for t in 0..n {
            let (j, ej) =
                (0..k)
                    .map(|j| (j, db(j, t)))
                    .fold((0, f32::MIN), |a, b| if b.1 > a.1 { b } else { a });
            if ej >= floors[j] + options.coupling_min_db - relaxes[relaxes.len() - 1] {
                loudest[j] += 1;
            }
        }
        for (pass, relax) in relaxes.into_iter().enumerate() {
            let missing = (0..k)
                .flat_map(|i| (0..k).map(move |j| (i, j)))
                .any(|(i, j)| i != j && coupling_db[i][j].is_none());
            if !missing {
                break;
            }
            let mut hists = vec![vec![Hist::new(); k]; k];
            for t in 0..n {
                let (j, ej) = (0..k).map(|j| (j, db(j, t))).fold((0, f32::MIN), |a, b| {
                    if b.1 > a.1 {
                        b
                    } else {
                        a
                    }
                });
                if ej < floors[j] + options.coupling_min_db - relax {
                    continue;
                }
                for (i, row) in hists.iter_mut().enumerate() {
                    if i != j && coupling_db[i][j].is_none() {
                        let d = if pass == 0 {
                            db(i, t)
                        } else {
                            let p = 10f32.powf(db(i, t) / 10.0) - floor_power[i];
                            if p > 1e-13 {
                                10.0 * p.log10()
                            } else {
                                -130.0
                            }
                        };
                        row[j].add(d - ej);
                    }
                }
            }
            for i in 0..k {
                for j in 0..k {
                    if i != j
                        && coupling_db[i][j].is_none()
                        && hists[i][j].count >= coupling_min_count(loudest[j], options)
                    {
                        let m = hists[i][j].median();
                        coupling_db[i][j] = Some(m);
                        coupling[i][j] = 10f32.powf(m / 10.0);
                    }
                }
            }
        }
    }
    let block = options.coupling_block.max(1);
    let blocks = n.div_ceil(block);
    let mut block_coupling: Vec<Vec<Vec<f32>>> = Vec::with_capacity(blocks);
    let mut diffs: Vec<Vec<Vec<f32>>> = vec![vec![Vec::new(); k]; k];
    for b in 0..blocks {
        diffs.iter_mut().flatten().for_each(Vec::clear);
        for t in b * block..((b + 1) * block).min(n) {
            let Some((j, ej)) = dominant(t) else { continue };
            for (i, row) in diffs.iter_mut().enumerate() {
                if i != j {
                    row[j].push(db(i, t) - ej);
                }
            }
        }
        let mut c = coupling.clone();
        for i in 0..k {
            for j in 0..k {
                let d = &mut diffs[i][j];
                if i != j && d.len() >= options.coupling_block_min {
                    let mid = (d.len() - 1) / 2; // the lower median, as Hist::median
                    let (_, m, _) = d.select_nth_unstable_by(mid, f32::total_cmp);
                    c[i][j] = 10f32.powf(*m / 10.0);
                }
            }
        }
        block_coupling.push(c);
    }
    // How fast the bleed a mic hears may die away (reverberation), per 10 ms frame.
    let tail = 10f32.powf(-options.bleed_decay_db / 10.0);

    let dilate = GRID.frames_in(options.vad_dilate, Rounding::Floor);
    // Voice activity near each frame (dilated), per track.
    let mut vad_ok = vec![vec![true; n]; k];
    let mut has_vad = vec![false; k];
    for i in 0..k {
        has_vad[i] = options.use_vad && !tracks[i].vad.is_empty();
        if !has_vad[i] {
            continue;
        }
        let ok = &mut vad_ok[i];
        let mut last_speech: Option<usize> = None;
        for (t, o) in ok.iter_mut().enumerate() {
            if tracks[i].vad_at(t) >= options.vad_threshold {
                last_speech = Some(t);
            }
            *o = last_speech.is_some_and(|s| t - s <= dilate);
        }
        let mut next_speech: Option<usize> = None;
        for t in (0..n).rev() {
            if tracks[i].vad_at(t) >= options.vad_threshold {
                next_speech = Some(t);
            }
            if next_speech.is_some_and(|s| s - t <= dilate) {
                ok[t] = true;
            }
        }
    }

    let use_bands = options.bands && k > 1 && tracks.iter().all(TrackFeatures::has_bands);
    let bands = if use_bands {
        Some(BandModel::estimate(tracks, n, &floors, &coupling, options, &dominant)?)
    } else {
        None
    };
    let mut band_state = bands.as_ref().map(|_| BandState::new(tracks));

    let mut active = vec![vec![false; n]; k];
    let mut on = vec![false; k];
    let mut power = vec![0.0f32; k];
    let mut source = vec![0.0f32; k];
    let mut envelope = vec![0.0f32; k];
    let mut matrices: (Vec<f32>, Vec<f32>) = (Vec::new(), Vec::new());
    let mut noise_scale = vec![1.0f32; k];
    // Per band, the bands counting for each speaker in each frame, decided after the pass.
    let mut counts: Vec<Vec<u8>> = if bands.is_some() { vec![vec![0; n]; k] } else { Vec::new() };
    let mut block_energy: Vec<f32> = Vec::with_capacity(block);
    for t in 0..n {
        if let (Some(model), Some(state)) = (&bands, &mut band_state) {
            if t % block == 0 {
                // The band noise follows the mic's floor within the block (a gain change).
                for (i, ns) in noise_scale.iter_mut().enumerate() {
                    // Digital silence says nothing about the noise (as for the floor); a
                    // block of nothing else keeps the whole recording's noise.
                    block_energy.clear();
                    let energy = &tracks[i].energy_cdb[..n];
                    block_energy.extend(
                        (t..(t + block).min(n))
                            .filter(|&u| noise_frame(energy, u))
                            .map(|u| db(i, u)),
                    );
                    if block_energy.is_empty() {
                        *ns = 1.0;
                        continue;
                    }
                    let q = ((block_energy.len() as f32 * options.floor_percentile / 100.0)
                        as usize)
                        .min(block_energy.len() - 1);
                    let (_, f, _) = block_energy.select_nth_unstable_by(q, f32::total_cmp);
                    *ns = 10f32.powf((*f - floors[i]) / 10.0);
                }
                let scale = block_scale(&block_coupling[t / block], &model.broadband);
                matrices = model.block_matrices(&scale, &noise_scale);
            }
            model.count_bands(t, (&matrices.0, &matrices.1), tail, state)?;
            for (c, &s) in counts.iter_mut().zip(&state.counts) {
                c[t] = s.min(255) as u8;
            }
            continue;
        }
        let coupling = &block_coupling[t / block];
        for (j, p) in power.iter_mut().enumerate() {
            *p = 10f32.powf(db(j, t) / 10.0);
        }
        if options.unmix && k > 1 {
            unmix(&power, coupling, &mut source);
        } else {
            source.copy_from_slice(&power);
        }
        for (e, &s) in envelope.iter_mut().zip(&source) {
            *e = s.max(*e * tail);
        }
        for i in 0..k {
            let bleed: f32 = (0..k).filter(|&j| j != i).map(|j| coupling[i][j] * envelope[j]).sum();
            let own = if options.unmix { source[i] } else { power[i] };
            let above_bleed =
                if bleed > 1e-12 { 10.0 * (own.max(1e-12) / bleed).log10() } else { 120.0 };
            let above_floor = db(i, t) - floors[i];
            on[i] = if on[i] {
                above_floor >= options.above_floor_off_db
                    && above_bleed >= options.above_bleed_off_db
            } else {
                above_floor >= options.above_floor_on_db && above_bleed >= options.above_bleed_on_db
            };
            active[i][t] = on[i] && vad_ok[i][t];
        }
    }

    // Whether mic `i` holds, broadband, no more than the bleed the couplings predict from the
    // others plus its own noise (within `bleed_alone_db`): a frame of bleed alone, not one where
    // the listener talks over the dominant speaker. On clean tracks (no bleed, digital silence
    // between turns) the frames where another mic dominates are either exact silence on mic
    // `i` or its own speech in an overlap; counted all together, the overlaps (often more than
    // a tenth of them) set the quantile below at all the bands, a need no frame can meet, and
    // the speaker vanished.
    let explained = 10f32.powf(options.bleed_alone_db / 10.0);
    let floor_power: Vec<f32> = floors.iter().map(|f| 10f32.powf(f / 10.0)).collect();
    let bleed_alone = |i: usize, t: usize, c: &[Vec<f32>]| -> bool {
        let bleed: f32 =
            (0..k).filter(|&j| j != i).map(|j| c[i][j] * 10f32.powf(db(j, t) / 10.0)).sum();
        10f32.powf(db(i, t) / 10.0) <= explained * (bleed + floor_power[i])
    };
    let mut band_need = Vec::new();
    if bands.is_some() {
        // How many bands a speaker needs: at least `band_on` of them, and more on a mic whose
        // residual is unreliable (reverberant or time-varying bleed): one more than the
        // `band_bleed_quantile` of the counts seen while another mic clearly dominates, which
        // are mostly frames of bleed alone.
        for i in 0..k {
            let mut hist = [0u64; BANDS + 2];
            for t in 0..n {
                if dominant(t).is_some_and(|(j, _)| j != i)
                    && bleed_alone(i, t, &block_coupling[t / block])
                {
                    hist[usize::from(counts[i][t]).min(BANDS + 1)] += 1;
                }
            }
            let total: u64 = hist.iter().sum();
            let mut need = (options.band_on * BANDS as f32).ceil() as usize;
            let keep = (options.band_off * BANDS as f32).ceil() as usize;
            let mut extra = 0usize;
            if total >= 100 {
                let target = (total as f64 * f64::from(options.band_bleed_quantile)).ceil() as u64;
                let mut acc = 0u64;
                for (c, &h) in hist.iter().enumerate() {
                    acc += h;
                    if acc >= target {
                        // Never more than all the bands: a need no frame can meet silences
                        // the speaker whatever they say.
                        let c = c.min(BANDS - 1);
                        extra = (c + 1).saturating_sub(need);
                        need = need.max(c + 1);
                        break;
                    }
                }
            }
            let keep = keep + extra;
            band_need.push(need);
            let mut on = false;
            for t in 0..n {
                let c = usize::from(counts[i][t]);
                on = if on { c >= keep } else { c >= need };
                active[i][t] = on && vad_ok[i][t];
            }
        }
    }

    let peaks: Vec<f32> = (0..k)
        .map(|i| {
            confident_probability(&tracks[i], n, options, |t| {
                dominant(t).is_some_and(|(j, _)| j == i)
            })
        })
        .collect();
    for (i, active) in active.iter_mut().enumerate() {
        if has_vad[i] && options.vad_run_mean > 0.0 {
            let mut t = 0;
            while t < n {
                if !active[t] {
                    t += 1;
                    continue;
                }
                let s = t;
                let mut sum = 0.0f32;
                while t < n && active[t] {
                    sum += tracks[i].vad_at(t);
                    t += 1;
                }
                if sum / ((t - s) as f32) < options.vad_run_mean {
                    active[s..t].iter_mut().for_each(|a| *a = false);
                }
            }
        }
        drop_dangling_runs(
            active,
            GRID,
            options.bridge_only,
            options.bridge_only_near,
            options.min_silence,
        );
    }
    // For the gap closing in overlap: how many tracks speak at each frame, and how many spoke
    // at a frame of [t − overlap_since, t].
    let since = GRID.frames_in(options.overlap_since, Rounding::Floor);
    let (mut speaking, mut recent) = (vec![0u8; n], vec![0u8; n]);
    for a in &active {
        let mut last: Option<usize> = None;
        for (t, &on) in a.iter().enumerate() {
            if on {
                last = Some(t);
                speaking[t] = speaking[t].saturating_add(1);
            }
            if last.is_some_and(|l| t - l <= since) {
                recent[t] = recent[t].saturating_add(1);
            }
        }
    }
    let mut regions = Vec::with_capacity(k);
    for (i, active) in active.iter().enumerate() {
        let mut runs = smooth_runs_in_overlap(
            active,
            GRID,
            (options.min_speech, options.min_silence, options.overlap_silence),
            // Asked at the track's silent frames only: every track speaking there is another;
            // at the gap's first frame `g`, `recent` counts the track itself when it spoke
            // within `overlap_since` before (it did, the frame before, unless that is zero).
            |g, t| {
                let own = active[g.saturating_sub(since)..=g].iter().any(|&a| a);
                !active[t] && speaking[t] > 0 && recent[g] > u8::from(own)
            },
        );
        if has_vad[i] && options.vad_peak_frames > 0 {
            // Keep a run only if the detector is confident somewhere inside it.
            runs.retain(|&(s, e)| {
                (s..e).filter(|&t| tracks[i].vad_at(t) >= peaks[i]).count()
                    >= options.vad_peak_frames
            });
        }
        regions.push(runs_to_region(&runs, GRID));
    }
    let levels = TrackLevels { floors: &floors, peaks: &peaks };
    let warnings = lost_speech(tracks, n, levels, &regions, &coupling_db, options, &dominant);
    let band_coupling_db = bands.as_ref().map_or_else(Vec::new, |m| {
        m.coupling
            .iter()
            .map(|row| {
                row.iter()
                    .map(|c| {
                        c.iter().map(|&v| if v > 0.0 { 10.0 * v.log10() } else { 0.0 }).collect()
                    })
                    .collect()
            })
            .collect()
    });
    Ok((
        regions,
        MultitrackReport {
            floors_db: floors,
            coupling_db,
            band_coupling_db,
            band_need,
            vad_peak: peaks,
            warnings,
        },
    ))
}

/// The speech probability a run of `track` must reach to be kept: `vad_peak`, or less on a
/// track whose detector is less sure of its own clear speech (`own(t)`: the track is the
/// loudest mic at frame `t`, well above its floor; and the detector hears speech there, at
/// `vad_threshold` or more, so that loud noise does not count) — `vad_peak_share` of the 90th
/// percentile of the probability over those frames, from at least 1 s of them, and never
/// below `vad_peak_min` nor above `vad_peak`.
///
/// ```text
/// probability on own clear speech   16 kHz: q90 0.95 → min(0.85, 0.9·0.95) = 0.85
///                                    8 kHz: q90 0.90 → min(0.85, 0.9·0.90) = 0.81
///                      a noisy, unsure mic: q90 0.70 → max(0.75, 0.9·0.70) = 0.75
/// ```
pub(crate) fn confident_probability(
    track: &TrackFeatures,
    n: usize,
    options: &MultitrackOptions,
    own: impl Fn(usize) -> bool,
) -> f32 {
    if track.vad.is_empty() {
        return options.vad_peak;
    }
    // The probabilities are bytes (k/255): a histogram holds them exactly.
    let mut hist = [0u32; 256];
    let mut total = 0u32;
    for t in (0..n).filter(|&t| own(t)) {
        let p = track.vad_at(t);
        if p >= options.vad_threshold {
            hist[(p * 255.0).round().clamp(0.0, 255.0) as usize] += 1;
            total += 1;
        }
    }
    if total < 100 {
        return options.vad_peak;
    }
    let target = (f64::from(total) * 0.9).ceil() as u32;
    let mut acc = 0u32;
    let q90 = hist
        .iter()
        .enumerate()
        .find_map(|(b, &h)| {
            acc += h;
            (acc >= target).then_some(b as f32 / 255.0)
        })
        .unwrap_or(1.0);
    (options.vad_peak_share * q90).max(options.vad_peak_min).min(options.vad_peak)
}

/// Seconds of 10 ms frames.
fn frame_secs(frames: usize) -> f64 {
    GRID.start_of(frames).as_secs_f64()
}

/// Per track: the noise floor (dBFS) and the confident speech probability
/// ([`confident_probability`]).
#[derive(Clone, Copy)]
struct TrackLevels<'a> {
    floors: &'a [f32],
    peaks: &'a [f32],
}

/// A warning for each track whose speech the voice activity detector is confident of but the
/// rule mostly rejected, saying why: a speaker is never dropped in silence.
///
/// Confident speech: frames at the track's confident probability (`peaks`, see
/// [`vad_peak_share`](MultitrackOptions::vad_peak_share)) or more, at least
/// `above_floor_on_db` above the track's floor, and within 3 dB of the loudest track (the
/// detector also hears the others' bleed, which is not this track's speech to lose). A track warns when it has 1 s or more of them
/// and fewer than a quarter lie in its detected speech. The reason is the most common among
/// the rejected frames: another mic was louder (its bleed, as the couplings predict it, covers
/// the track), or the track was not louder than that.
fn lost_speech(
    tracks: &[TrackFeatures],
    n: usize,
    levels: TrackLevels<'_>,
    regions: &[Region],
    coupling_db: &[Vec<Option<f32>>],
    options: &MultitrackOptions,
    dominant: &dyn Fn(usize) -> Option<(usize, f32)>,
) -> Vec<TrackWarning> {
    let TrackLevels { floors, peaks } = levels;
    let k = tracks.len();
    let mut out = Vec::new();
    for (i, tr) in tracks.iter().enumerate() {
        if tr.vad.is_empty() || !options.use_vad {
            continue;
        }
        let mut confident = 0usize;
        let mut kept = 0usize;
        let mut louder = vec![0usize; k];
        let mut quiet = 0usize;
        let region = &regions[i];
        let mut segs = region.iter().peekable();
        for t in 0..n {
            let e = tr.energy_db(t);
            let loudest = (0..k).map(|j| tracks[j].energy_db(t)).fold(f32::MIN, f32::max);
            if tr.vad_at(t) < peaks[i]
                || e < floors[i] + options.above_floor_on_db
                || e < loudest - 3.0
            {
                continue;
            }
            confident += 1;
            let mid = GRID.centre_of(t);
            while segs.peek().is_some_and(|s| s.end() <= mid) {
                segs.next();
            }
            if segs.peek().is_some_and(|s| s.start() <= mid) {
                kept += 1;
            } else {
                match dominant(t) {
                    Some((j, _)) if j != i => louder[j] += 1,
                    _ => quiet += 1,
                }
            }
        }
        if confident < 100 || kept * 4 >= confident {
            continue;
        }
        let (j, by_j) =
            louder.iter().copied().enumerate().max_by_key(|&(_, c)| c).unwrap_or((0, 0));
        let why = if by_j >= quiet {
            LostBecause::Bleed {
                seconds: frame_secs(by_j),
                louder: tracks[j].name.clone(),
                coupling_db: coupling_db[i][j],
            }
        } else {
            LostBecause::Noise { seconds: frame_secs(quiet), floor_db: floors[i] }
        };
        out.push(TrackWarning::SpeechMostlyRejected {
            track: tr.name.clone(),
            heard: frame_secs(confident),
            kept: frame_secs(kept),
            why,
        });
    }
    out
}

/// `block[i][j] / whole[i][j]`: how much a block's broadband coupling differs from the whole
/// recording's (1 where either is unknown).
fn block_scale(block: &[Vec<f32>], whole: &[Vec<f32>]) -> Vec<Vec<f32>> {
    block
        .iter()
        .zip(whole)
        .map(|(b, w)| {
            b.iter().zip(w).map(|(&b, &w)| if b > 0.0 && w > 0.0 { b / w } else { 1.0 }).collect()
        })
        .collect()
}

/// How many frames a coupling histogram needs before its median is trusted, when the speaker
/// dominates `frames` frames of the recording: 20, and at least
/// [`coupling_min_share`](MultitrackOptions::coupling_min_share) of them.
///
/// A fixed count alone makes the estimate depend on the length of the recording: a band that a
/// speaker excites in a handful of atypical frames (a fricative of the other speaker in an
/// overlap, say) stays below 20 in four minutes and falls back to the broadband coupling, but
/// passes 20 in three hours, where its median, taken from those same atypical frames, is wrong.
/// A share of the speaker's frames is the same for a recording and for the recording repeated.
fn coupling_min_count(frames: u64, options: &MultitrackOptions) -> u64 {
    let share = (frames as f64 * f64::from(options.coupling_min_share.max(0.0))).ceil();
    20u64.max(share as u64)
}

/// Linear power of each band value.
fn band_power_table() -> [f32; 256] {
    let mut t = [0.0f32; 256];
    for (q, p) in t.iter_mut().enumerate() {
        // A band at or below SILENCE_DB is empty: no power, rather than the 1e-12 of a floor
        // value that would stand above a quiet mic's band noise.
        let db = BAND_BASE_DB + q as f32 / 2.0;
        *p = if db <= SILENCE_DB { 0.0 } else { 10f32.powf(db / 10.0) };
    }
    t
}

/// What the band rule estimates from the whole recording: each band's noise power per mic and
/// the couplings per band.
struct BandModel {
    k: usize,
    /// `noise[i][b]`: mean power of band `b` on mic `i` while the mic is at its noise floor.
    noise: Vec<[f32; BANDS]>,
    /// `coupling[i][j][b]`: power ratio of speaker `j` in mic `i` to mic `j`, in band `b`.
    coupling: Vec<Vec<[f32; BANDS]>>,
    /// The whole recording's broadband couplings (the reference for the per-block scale).
    broadband: Vec<Vec<f32>>,
    margin: f32,
    power: [f32; 256],
}

/// Per-frame working state of the band rule.
struct BandState<'a> {
    /// One reader per track over its band energies, and the current frame's values, flat
    /// `[mic][band]`.
    readers: Vec<BandReader<'a>>,
    frame: Vec<u8>,
    /// Per band and mic (flat `[band][mic]`): the source power, fading by at most `tail`.
    envelope: Vec<f32>,
    source: Vec<f32>,
    power: Vec<f32>,
    /// Bands that count for each speaker in the current frame.
    counts: Vec<u32>,
}

impl BandState<'_> {
    fn new(tracks: &[TrackFeatures]) -> BandState<'_> {
        let k = tracks.len();
        BandState {
            readers: tracks.iter().map(|tr| tr.bands.reader()).collect(),
            frame: vec![0; BANDS * k],
            envelope: vec![0.0; BANDS * k],
            source: vec![0.0; k],
            power: vec![0.0; k],
            counts: vec![0; k],
        }
    }
}

impl BandModel {
    fn estimate(
        tracks: &[TrackFeatures],
        n: usize,
        floors: &[f32],
        broadband: &[Vec<f32>],
        options: &MultitrackOptions,
        dominant: &dyn Fn(usize) -> Option<(usize, f32)>,
    ) -> Result<BandModel> {
        let k = tracks.len();
        let power = band_power_table();
        let mut readers: Vec<BandReader<'_>> = tracks.iter().map(|tr| tr.bands.reader()).collect();
        // Noise: mean band power over the frames near the broadband floor.
        let mut sum = vec![[0.0f64; BANDS]; k];
        let mut count = vec![0u64; k];
        for t in 0..n {
            for (i, r) in readers.iter_mut().enumerate() {
                let e = tracks[i].energy_db(t);
                if e <= floors[i] + 3.0 && noise_frame(&tracks[i].energy_cdb[..n], t) {
                    count[i] += 1;
                    r.load(t)?;
                    for (s, &q) in sum[i].iter_mut().zip(r.frame(t)) {
                        *s += f64::from(power[usize::from(q)]);
                    }
                }
            }
        }
        let noise: Vec<[f32; BANDS]> = sum
            .iter()
            .zip(&count)
            .map(|(s, &c)| {
                let mut out = [1e-13f32; BANDS];
                for (o, &v) in out.iter_mut().zip(s) {
                    *o = ((v / c.max(1) as f64) as f32).max(1e-13);
                }
                out
            })
            .collect();
        // Couplings per band from frames where one mic dominates, the band is well above that
        // mic's band noise, and the bleed the broadband coupling predicts in the listener's band
        // is well above the listener's own band noise (so the median ratio is not pulled up
        // by noise, nor down by subtracting it).
        let mut hists: Vec<Vec<Vec<Hist>>> = vec![vec![Vec::new(); k]; k];
        for (i, row) in hists.iter_mut().enumerate() {
            for (j, h) in row.iter_mut().enumerate() {
                if i != j {
                    *h = vec![Hist::new(); BANDS];
                }
            }
        }
        let min_ratio = 10f32.powf(options.band_coupling_min_db / 10.0);
        let mut dominated = vec![0u64; k];
        let mut readers: Vec<BandReader<'_>> = tracks.iter().map(|tr| tr.bands.reader()).collect();
        for t in 0..n {
            let Some((j, _)) = dominant(t) else { continue };
            dominated[j] += 1;
            for r in &mut readers {
                r.load(t)?;
            }
            let band = |i: usize, b: usize| readers[i].frame(t).get(b).copied().unwrap_or(0);
            for b in 0..BANDS {
                let qj = band(j, b);
                let pj = power[usize::from(qj)];
                if pj < noise[j][b] * min_ratio {
                    continue;
                }
                let dj = BAND_BASE_DB + f32::from(qj) / 2.0;
                for i in (0..k).filter(|&i| i != j) {
                    if broadband[i][j] * pj < noise[i][b] * min_ratio {
                        continue;
                    }
                    let di = BAND_BASE_DB + f32::from(band(i, b)) / 2.0;
                    hists[i][j][b].add(di - dj);
                }
            }
        }
        let mut coupling = vec![vec![[0.0f32; BANDS]; k]; k];
        for i in 0..k {
            for j in (0..k).filter(|&j| j != i) {
                for b in 0..BANDS {
                    let h = &hists[i][j][b];
                    let enough = h.count >= coupling_min_count(dominated[j], options);
                    coupling[i][j][b] =
                        if enough { 10f32.powf(h.median() / 10.0) } else { broadband[i][j] };
                }
            }
        }
        Ok(BandModel {
            k,
            noise,
            coupling,
            broadband: broadband.to_vec(),
            margin: 10f32.powf(options.band_margin_db / 10.0),
            power,
        })
    }

    /// The couplings of one block, flat `[band][listener][speaker]` (0 on the diagonal), and
    /// `margin · noise`, flat `[band][mic]`, with the block's scales applied.
    fn block_matrices(&self, scale: &[Vec<f32>], noise_scale: &[f32]) -> (Vec<f32>, Vec<f32>) {
        let k = self.k;
        let mut m = vec![0.0f32; BANDS * k * k];
        let mut floor = vec![0.0f32; BANDS * k];
        for b in 0..BANDS {
            for i in 0..k {
                for j in (0..k).filter(|&j| j != i) {
                    m[(b * k + i) * k + j] = self.coupling[i][j][b] * scale[i][j];
                }
                floor[b * k + i] = self.margin * self.noise[i][b] * noise_scale[i];
            }
        }
        (m, floor)
    }

    /// Unmixes frame `t` band by band with the block's matrices ([`BandModel::block_matrices`])
    /// and stores in `state.counts` the number of bands where each speaker's own power stands
    /// `margin` above the predicted bleed plus noise.
    fn count_bands(
        &self,
        t: usize,
        (m, floor): (&[f32], &[f32]),
        tail: f32,
        state: &mut BandState<'_>,
    ) -> Result<()> {
        let k = self.k;
        state.counts.iter_mut().for_each(|c| *c = 0);
        for (r, out) in state.readers.iter_mut().zip(state.frame.chunks_exact_mut(BANDS)) {
            r.load(t)?;
            let f = r.frame(t);
            if f.len() == BANDS {
                out.copy_from_slice(f);
            } else {
                out.fill(0);
            }
        }
        for b in 0..BANDS {
            let mb = &m[b * k * k..(b + 1) * k * k];
            for (j, p) in state.power.iter_mut().enumerate() {
                *p = self.power[usize::from(state.frame[j * BANDS + b])];
            }
            state.source.copy_from_slice(&state.power);
            for _ in 0..4 {
                for (i, row) in mb.chunks_exact(k).enumerate() {
                    let leak: f32 = row.iter().zip(&state.source).map(|(c, s)| c * s).sum();
                    state.source[i] = (state.power[i] - leak).max(0.0);
                }
            }
            let env = &mut state.envelope[b * k..(b + 1) * k];
            for (e, &s) in env.iter_mut().zip(&state.source) {
                *e = s.max(*e * tail);
            }
            for (i, row) in mb.chunks_exact(k).enumerate() {
                let bleed: f32 = row.iter().zip(env.iter()).map(|(c, e)| c * e).sum();
                if state.source[i] >= self.margin * bleed + floor[b * k + i] {
                    state.counts[i] += 1;
                }
            }
        }
        Ok(())
    }
}

/// Source powers `S` from mic powers `P = C·S` (`C` has 1 on the diagonal and the couplings
/// elsewhere), by a few Gauss–Seidel sweeps with `S ≥ 0`.
fn unmix(power: &[f32], coupling: &[Vec<f32>], source: &mut [f32]) {
    let k = power.len();
    source.copy_from_slice(power);
    for _ in 0..4 {
        for i in 0..k {
            let leak: f32 = (0..k).filter(|&j| j != i).map(|j| coupling[i][j] * source[j]).sum();
            source[i] = (power[i] - leak).max(0.0);
        }
    }
}

/// The most a frame's excess counts for, either way, in [`TrackExcess`] (dB): a voice on a
/// quiet microphone stands 60 dB above its noise, on a noisy one 30; capped, two voices that
/// both stand out count alike, and a word's few frames of a loud voice do not outweigh the
/// rest of it.
pub const EXCESS_CAP_DB: f32 = 30.0;

/// How far each track's own signal stands above what the multitrack rule predicts there
/// without its speaker, over a stretch of time: the evidence that gives a word in the speech
/// of several speakers to one of them ([`overtalk::words::SpeakerLevels`], used by
/// [`overtalk::words::lay`]).
///
/// Per 10 ms frame `t` of the stretch, with the recording's noise floors `N_i` and broadband
/// couplings `c_ij` ([`MultitrackReport`]; an unknown coupling counts as none):
///
/// ```text
/// S          = the source powers solving P = C·S, S ≥ 0       (as the rule unmixes them)
/// excess_i(t) = 10·log10( S_i / (Σ_{j≠i} c_ij·S_j + N_i) )     capped at ±EXCESS_CAP_DB
/// excess_i    = the mean of excess_i(t) over the stretch's frames
///
/// mic A  ▇▇▇▇▂▂▂▂▇▇▇▇      a word of B in an overlap where A pauses between words:
/// mic B  ▂▂▂▂▇▇▇▇▂▂▂▂          over its frames B stands +28 dB, A about 0 dB
/// word             [────)   → B's
/// ```
///
/// Tracks of unequal length are measured over the longest: a track that ends early is
/// digital silence after its end (as [`TrackFeatures::pad_to`] makes it for the detection),
/// so the others' later frames still count.
///
/// ```text
/// mic A  ▇▇▇▇▂▂▂▂▇▇▇▇      A's file ends at 0.8 s, B's at 1.2 s
/// mic B  ▂▂▂▂▇▇▇▇····      after A's end: A is silence (−30, the cap), B its own level
/// ```
///
/// A speaker name shared by several tracks (one person on two microphones, or two tracks
/// given one name by a rename) is measured on all of them: per frame, the highest of their
/// tracks' excesses, then the mean over the stretch.
///
/// ```text
/// Host (desk mic)   ▇▇▇▇▂▂▂▂      excess +30 +30 +30 +30   0   0   0   0
/// Host (lavalier)   ▂▂▂▂▇▇▇▇      excess   0   0   0   0 +30 +30 +30 +30
/// Host              ────────      per frame the higher: +30 throughout → +30
/// ```
///
/// The higher of them, not the sum of their energies: the speaker's detected speech is the
/// union of their tracks' speech, and its counterpart per frame is the track that carries
/// their voice best. A sum would add each microphone's noise and its bleed of the others to
/// the evidence, and a microphone that is far from the speaker at that moment (or silent: a
/// file that ended, a microphone switched off) would pull down the evidence of the one they
/// speak into; taking the first track alone (as before) lost every word said into the other.
///
/// Broadband, with the whole recording's couplings and without the reverberation tail the
/// rule allows the bleed: a coarser look than the detection's, enough to tell whose voice a
/// word's frames carry.
#[derive(Clone, Debug, PartialEq)]
pub struct TrackExcess {
    names: Vec<String>,
    /// Per track, its frame energies (0.01 dB) over the longest track, digital silence past
    /// its own end.
    energy_cdb: Vec<Vec<i16>>,
    floor_power: Vec<f32>,
    /// Linear couplings, 0 where unknown and on the diagonal.
    coupling: Vec<Vec<f32>>,
}

/// [`SILENCE_DB`] in the features' 0.01 dB: a frame past the end of a track.
const SILENCE_CDB: i16 = (SILENCE_DB * 100.0) as i16;

impl TrackExcess {
    /// The excess of the `tracks` the multitrack rule analysed, with what it estimated
    /// (`report`, from [`detect`] on the same tracks).
    pub fn new(tracks: &[TrackFeatures], report: &MultitrackReport) -> TrackExcess {
        let n = tracks.iter().map(TrackFeatures::frames).max().unwrap_or(0);
        let k = tracks.len();
        let coupling = (0..k)
            .map(|i| {
                (0..k)
                    .map(|j| {
                        let c = report.coupling_db.get(i).and_then(|r| r.get(j)).copied();
                        match c.flatten() {
                            Some(db) if i != j => 10f32.powf(db / 10.0),
                            _ => 0.0,
                        }
                    })
                    .collect()
            })
            .collect();
        let padded = |t: &TrackFeatures| {
            let mut e = t.energy_cdb.clone();
            e.resize(n, SILENCE_CDB);
            e
        };
        TrackExcess {
            names: tracks.iter().map(|t| t.name.clone()).collect(),
            energy_cdb: tracks.iter().map(padded).collect(),
            floor_power: (0..k)
                .map(|i| 10f32.powf(report.floors_db.get(i).copied().unwrap_or(SILENCE_DB) / 10.0))
                .collect(),
            coupling,
        }
    }

    /// The tracks' speaker names, in order.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Renames the tracks' speakers (as a front end renames the detected speakers); tracks
    /// renamed to one name are that speaker's together ([`SpeakerLevels`] of the type's doc).
    ///
    /// [`SpeakerLevels`]: overtalk::words::SpeakerLevels
    pub fn rename(&mut self, rename: impl Fn(&str) -> String) {
        for name in &mut self.names {
            *name = rename(name);
        }
    }

    /// The excess of track `track` over `[start, end)` in dB (see the type's doc): `None` for
    /// a track that does not exist or a stretch outside the recording. A stretch shorter than
    /// a frame (a zero-length word) is the frame that holds its start.
    pub fn track_excess_db(
        &self,
        track: usize,
        start: overtalk::Time,
        end: overtalk::Time,
    ) -> Option<f64> {
        self.excess_of(&[track], start, end)
    }

    /// The excess of the tracks `of` (one speaker's) over `[start, end)`: per frame the highest
    /// of theirs, averaged (see the type's doc); `None` when `of` is empty or names a track
    /// that does not exist, or for a stretch outside the recording.
    fn excess_of(&self, of: &[usize], start: overtalk::Time, end: overtalk::Time) -> Option<f64> {
        let k = self.names.len();
        let n = self.energy_cdb.first().map_or(0, Vec::len);
        if of.is_empty() || of.iter().any(|&i| i >= k) || (start.micros() < 0 && end.micros() <= 0)
        {
            return None;
        }
        let from = GRID.index_of(start.max(overtalk::Time::from_micros(0)), Rounding::Floor);
        let to = GRID.index_of(end, Rounding::Ceil).max(from + 1).min(n);
        if from >= to {
            return None;
        }
        let (mut power, mut source) = (vec![0.0f32; k], vec![0.0f32; k]);
        let mut sum = 0.0f64;
        for t in from..to {
            for (j, p) in power.iter_mut().enumerate() {
                let cdb = self.energy_cdb[j].get(t).copied().unwrap_or(SILENCE_CDB);
                *p = 10f32.powf(f32::from(cdb) / 1000.0);
            }
            unmix(&power, &self.coupling, &mut source);
            let best = of
                .iter()
                .map(|&track| {
                    let bleed: f32 = (0..k)
                        .filter(|&j| j != track)
                        .map(|j| self.coupling[track][j] * source[j])
                        .sum();
                    let predicted = (bleed + self.floor_power[track]).max(1e-15);
                    let e = 10.0 * (source[track].max(1e-15) / predicted).log10();
                    e.clamp(-EXCESS_CAP_DB, EXCESS_CAP_DB)
                })
                .fold(-EXCESS_CAP_DB, f32::max);
            sum += f64::from(best);
        }
        Some(sum / (to - from) as f64)
    }
}

impl overtalk::words::SpeakerLevels for TrackExcess {
    /// The excess of every track named `speaker`, together (see [`TrackExcess`]).
    fn excess_db(&self, speaker: &str, start: overtalk::Time, end: overtalk::Time) -> Option<f64> {
        let tracks: Vec<usize> =
            (0..self.names.len()).filter(|&i| self.names[i] == speaker).collect();
        self.excess_of(&tracks, start, end)
    }
}

/// Speech per track as an annotation labelled with the track names; overlaps are kept.
pub fn detect(
    tracks: &[TrackFeatures],
    options: &MultitrackOptions,
) -> Result<(Annotation, MultitrackReport)> {
    let (regions, report) = detect_regions(tracks, options)?;
    Ok((annotation_from_regions(tracks.iter().map(|t| t.name.as_str()).zip(regions)), report))
}

/// An annotation from one region per named speaker (speakers without speech are kept).
pub fn annotation_from_regions<'a>(
    per_speaker: impl IntoIterator<Item = (&'a str, Region)>,
) -> Annotation {
    let mut b = AnnotationBuilder::new();
    for (name, region) in per_speaker {
        let id = b.speaker(name);
        for s in region.iter() {
            b.push(*s, id);
        }
    }
    b.build()
}

/// A histogram of dB values in 0.1 dB bins from −150 to +150 dB, for medians without storing
/// every frame.
#[derive(Clone, Debug)]
struct Hist {
    bins: Vec<u32>,
    count: u64,
}

const HIST_MIN: f32 = -150.0;
const HIST_BINS: usize = 3001;

impl Hist {
    fn new() -> Hist {
        Hist { bins: vec![0; HIST_BINS], count: 0 }
    }

    fn add(&mut self, v: f32) {
        let b = ((v - HIST_MIN) * 10.0).round().clamp(0.0, (HIST_BINS - 1) as f32) as usize;
        self.bins[b] += 1;
        self.count += 1;
    }

    fn quantile(&self, q: f32) -> f32 {
        let target = ((self.count as f64) * f64::from(q) - 1e-6).ceil().max(1.0) as u64;
        let mut acc = 0u64;
        for (b, &c) in self.bins.iter().enumerate() {
            acc += u64::from(c);
            if acc >= target {
                return HIST_MIN + b as f32 / 10.0;
            }
        }
        HIST_MIN
    }

    fn median(&self) -> f32 {
        self.quantile(0.5)
    }
}

/// Frames on either side of a digital-silence frame whose energy windows may hold some of
/// its zeros: a 25 ms window moved by 10 ms reaches 3 frames past the last all-zero one.
const SILENCE_REACH: usize = WINDOW.div_ceil(HOP);

/// Whether frame `t` of a track (energies in 0.01 dB) can say what the track's noise is: it is
/// not digital silence and no digital-silence frame lies within [`SILENCE_REACH`] of it.
///
/// Digital silence is not a noise floor: a track with exact zeros between turns (a gated
/// export, a per-participant call recording, synthetic speech) and dither or room noise
/// elsewhere had its floor at the zeros, 20–30 dB under its real noise. Nor is the edge of
/// such a stretch: a frame whose window is partly zeros measures the noise diluted by them, up
/// to 10 dB under it. A noise gate makes every opening such an edge, so the 2nd percentile
/// landed on them: on the clean-track matrix's cell c37 (−40 dBFS noise, −12 dB bleed, gate
/// on) the floors came out at −45 to −47 dBFS and the band noise 5–15 dB under the real noise,
/// the noise that the gate let through with the bleed counted as the listener's speech in most
/// bands, and each track got ~8 s of false alarm (57.5 % DER).
fn noise_frame(energy_cdb: &[i16], t: usize) -> bool {
    let silent = |u: usize| f32::from(energy_cdb[u]) / 100.0 <= SILENCE_DB;
    let lo = t.saturating_sub(SILENCE_REACH);
    let hi = (t + SILENCE_REACH + 1).min(energy_cdb.len());
    t < energy_cdb.len() && !(lo..hi).any(silent)
}

/// The `p`-th percentile of the energies (0.01 dB) of the frames that can say what the noise
/// is ([`noise_frame`]); of all the frames that are not digital silence when there are none
/// such (speech in bursts shorter than the silence's reach); [`SILENCE_DB`] when every frame
/// is digital silence.
fn percentile_cdb(values: &[i16], p: f32) -> f32 {
    let mut h = Hist::new();
    for (t, &v) in values.iter().enumerate() {
        if noise_frame(values, t) {
            h.add(f32::from(v) / 100.0);
        }
    }
    if h.count == 0 {
        for &v in values {
            let e = f32::from(v) / 100.0;
            if e > SILENCE_DB {
                h.add(e);
            }
        }
    }
    if h.count == 0 {
        return SILENCE_DB;
    }
    h.quantile(p / 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::BandStore;

    fn features(name: &str, energy_db: &[f32]) -> TrackFeatures {
        TrackFeatures {
            name: name.into(),
            energy_cdb: energy_db.iter().map(|e| (e * 100.0) as i16).collect(),
            bands: BandStore::default(),
            vad: Vec::new(),
            vad_hop: Delta::ZERO,
            samples: (energy_db.len() * HOP) as u64,
            music: None,
        }
    }

    #[test]
    fn the_floor_of_a_gated_track_skips_the_gate_edges() {
        // A gate that opens on −40 dB noise ten times: each opening has three frames whose
        // windows are partly zeros (−52, −46, −42 dB) at both ends. The floor is the noise,
        // not the diluted edges; a track of zeros only has no floor.
        let mut cdb: Vec<i16> = Vec::new();
        for _ in 0..10 {
            cdb.extend([-12_000i16; 20]);
            cdb.extend([-5_200i16, -4_600, -4_200]);
            cdb.extend([-4_000i16; 30]);
            cdb.extend([-4_200i16, -4_600, -5_200]);
        }
        cdb.extend([-12_000i16; 20]);
        assert_eq!(percentile_cdb(&cdb, 2.0), -40.0);
        assert!(!noise_frame(&cdb, 19) && !noise_frame(&cdb, 22) && noise_frame(&cdb, 23));
        // Bursts shorter than the silence's reach: every non-silent frame counts.
        let bursts = [-12_000i16, -5_000, -12_000, -4_000, -12_000];
        assert_eq!(percentile_cdb(&bursts, 2.0), -50.0);
        assert_eq!(percentile_cdb(&[-12_000i16; 8], 2.0), SILENCE_DB);
    }

    #[test]
    fn histogram_quantiles() {
        let mut h = Hist::new();
        for v in [-10.0, -20.0, -30.0, -40.0, -50.0] {
            h.add(v);
        }
        assert_eq!(h.median(), -30.0);
        assert_eq!(h.quantile(0.2), -50.0);
    }

    #[test]
    fn bleed_is_rejected_and_overlap_kept() {
        // 3 s at 10 ms: A speaks 0.5–1.5 s, B speaks 1.0–2.5 s; each mic hears the other at
        // −12 dB; noise floor −70 dB.
        let n = 300;
        let (mut a, mut b) = (vec![-70.0f32; n], vec![-70.0f32; n]);
        for t in 0..n {
            let sa = (50..150).contains(&t);
            let sb = (100..250).contains(&t);
            let pa = if sa { 10f32.powf(-2.0) } else { 0.0 };
            let pb = if sb { 10f32.powf(-2.5) } else { 0.0 };
            let noise = 10f32.powf(-7.0);
            a[t] = 10.0 * (pa + pb * 10f32.powf(-1.2) + noise).log10();
            b[t] = 10.0 * (pb + pa * 10f32.powf(-1.2) + noise).log10();
        }
        let tracks = [features("A", &a), features("B", &b)];
        let (ann, report) = detect(&tracks, &MultitrackOptions::default()).unwrap();
        let c = report.coupling_db[0][1].unwrap();
        assert!((c + 12.0).abs() < 0.6, "{c}");
        let got: Vec<_> = ann
            .tracks()
            .iter()
            .map(|t| {
                (ann.speaker_name(t.speaker), t.segment.start().micros(), t.segment.end().micros())
            })
            .collect();
        assert_eq!(got, [("A", 500_000, 1_500_000), ("B", 1_000_000, 2_500_000)]);
        assert_eq!(ann.overlap().duration(), Delta::from_micros(500_000));
        // Energies alone: the band rule did not run, so there is no band need to report.
        assert!(report.band_need.is_empty(), "{:?}", report.band_need);
    }

    /// A report of `k` tracks with noise floors at −70 dBFS and no couplings: each track's
    /// excess is its level above −70 dB, capped.
    fn quiet_report(k: usize) -> MultitrackReport {
        MultitrackReport {
            floors_db: vec![-70.0; k],
            coupling_db: vec![vec![None; k]; k],
            band_coupling_db: Vec::new(),
            band_need: Vec::new(),
            vad_peak: Vec::new(),
            warnings: Vec::new(),
        }
    }

    #[test]
    fn a_speaker_on_two_tracks_is_measured_on_both() {
        use overtalk::words::SpeakerLevels;
        use overtalk::Time;
        // Host speaks into the desk mic for 0–100 ms, then into the lavalier for 100–200 ms
        // (−20 dB: 50 dB above the noise, the cap, +30); the other mic rests at its noise
        // (exactly 0). Guest is silent throughout (0).
        let (mut desk, mut lav) = (vec![-70.0f32; 20], vec![-70.0f32; 20]);
        desk[..10].fill(-20.0);
        lav[10..].fill(-20.0);
        let tracks =
            [features("Host", &desk), features("Guest", &[-70.0; 20]), features("Host", &lav)];
        let levels = TrackExcess::new(&tracks, &quiet_report(3));
        let ms = |v: i64| Time::from_micros(v * 1000);
        // Per frame the higher of the two: +30 throughout (the first track alone gave +15).
        assert_eq!(levels.excess_db("Host", ms(0), ms(200)), Some(30.0));
        assert_eq!(levels.excess_db("Host", ms(150), ms(200)), Some(30.0));
        assert_eq!(levels.track_excess_db(0, ms(0), ms(200)), Some(15.0));
        assert_eq!(levels.track_excess_db(2, ms(0), ms(200)), Some(15.0));
        assert_eq!(levels.excess_db("Guest", ms(0), ms(200)), Some(0.0));
        // Two names renamed to one: the same.
        let tracks = [features("Desk", &desk), features("Lav", &lav)];
        let mut renamed = TrackExcess::new(&tracks, &quiet_report(2));
        assert_eq!(renamed.excess_db("Desk", ms(0), ms(200)), Some(15.0));
        renamed.rename(|_| "Host".to_owned());
        assert_eq!(renamed.excess_db("Host", ms(0), ms(200)), Some(30.0));
        assert_eq!(renamed.excess_db("Desk", ms(0), ms(200)), None);
    }

    #[test]
    fn a_track_that_ends_early_is_silent_after_its_end() {
        use overtalk::words::SpeakerLevels;
        use overtalk::Time;
        // A lasts 200 ms at −20 dB, B 100 ms at its noise. From 100 ms on, B is digital
        // silence (−120 dB: 50 under its noise, the cap, −30) and A still counts.
        let tracks = [features("A", &[-20.0; 20]), features("B", &[-70.0; 10])];
        let levels = TrackExcess::new(&tracks, &quiet_report(2));
        let ms = |v: i64| Time::from_micros(v * 1000);
        assert_eq!(levels.excess_db("A", ms(100), ms(200)), Some(30.0));
        assert_eq!(levels.excess_db("A", ms(150), ms(150)), Some(30.0));
        assert_eq!(levels.excess_db("B", ms(100), ms(200)), Some(-30.0));
        // Half in B's file, half past its end.
        assert_eq!(levels.excess_db("B", ms(50), ms(150)), Some(-15.0));
        // Past the longest track: outside the recording.
        assert_eq!(levels.excess_db("A", ms(200), ms(300)), None);
    }

    #[test]
    fn the_excess_over_a_word_says_whose_voice_it_carries() {
        use overtalk::words::{lay, LayOptions, SpeakerLevels, TimedWord, Words};
        use overtalk::{Time, TranscriptBuilder};
        // The tracks of `bleed_is_rejected_and_overlap_kept`: A at −20 dB from 0.5 to 1.5 s,
        // B at −25 dB from 1.0 to 2.5 s, each heard on the other's mic 12 dB down, noise at
        // −70 dB. Where both speak, A stands 17 dB above B's bleed on A's mic (−20 against
        // −25 − 12), B 7 dB above A's on B's mic (−25 against −20 − 12).
        let n = 300;
        let (mut a, mut b) = (vec![-70.0f32; n], vec![-70.0f32; n]);
        for t in 0..n {
            let pa = if (50..150).contains(&t) { 10f32.powf(-2.0) } else { 0.0 };
            let pb = if (100..250).contains(&t) { 10f32.powf(-2.5) } else { 0.0 };
            let noise = 10f32.powf(-7.0);
            a[t] = 10.0 * (pa + pb * 10f32.powf(-1.2) + noise).log10();
            b[t] = 10.0 * (pb + pa * 10f32.powf(-1.2) + noise).log10();
        }
        let tracks = [features("A", &a), features("B", &b)];
        let (ann, report) = detect(&tracks, &MultitrackOptions::default()).unwrap();
        let levels = TrackExcess::new(&tracks, &report);
        let ms = |v: i64| Time::from_micros(v * 1000);
        let excess =
            |who: &str, from: i64, to: i64| levels.excess_db(who, ms(from), ms(to)).unwrap();
        let near = |got: f64, want: f64| assert!((got - want).abs() < 0.7, "{got} for {want}");
        near(excess("A", 1100, 1400), 17.0);
        near(excess("B", 1100, 1400), 7.0);
        // Alone, A's voice stands 50 dB above the noise: counted as the cap, 30.
        assert_eq!(excess("A", 600, 900), f64::from(EXCESS_CAP_DB));
        near(excess("B", 1600, 1900), 30.0);
        // The other mic, hearing only the bleed, stands at its noise or below.
        assert!(excess("B", 600, 900) < 0.5, "{}", excess("B", 600, 900));
        // No such track, or outside the recording: unknown.
        assert_eq!(levels.excess_db("C", ms(0), ms(100)), None);
        assert_eq!(levels.excess_db("A", ms(5000), ms(5100)), None);
        // A word in both speakers' speech goes to A (10 dB clear): by the levels, not the tie
        // rule, which gives it to the speaker whose speech started first, here A too; a word
        // where B alone speaks is B's.
        let mut t = TranscriptBuilder::new();
        for track in ann.tracks() {
            t.add(track.segment, ann.speaker_name(track.speaker), None);
        }
        let word = |text: &str, from: i64, to: i64| TimedWord {
            text: text.to_owned(),
            start: ms(from),
            end: ms(to),
            confidence: None,
        };
        let words = Words {
            words: vec![word("yes", 1100, 1400), word("so", 1600, 1900)],
            spread: 0,
            duplicates: 0,
        };
        let laid = lay(&t.build(), &words, &LayOptions::default(), Some(&levels)).unwrap();
        assert_eq!((laid.stats.by_level, laid.stats.tied, laid.stats.by_overlap), (1, 0, 2));
        let said: Vec<(String, usize)> = laid
            .transcript
            .utterances()
            .map(|u| (u.speaker_name.to_owned(), u.content.map_or(0, |c| c.words.len())))
            .collect();
        assert_eq!(said, [("A".to_owned(), 1), ("B".to_owned(), 1)]);
    }
}
