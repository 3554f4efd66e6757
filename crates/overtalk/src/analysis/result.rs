//! Plain result values of the analysis, serialised with the field names of
//! conversation-metrics.md §5.7 (all times integer milliseconds; shares unrounded fractions;
//! an undefined value is `null`, never omitted). A few fields beyond §5.7 are marked
//! "extension"; they never replace a §5.7 field.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::intervals::{HeKind, Layer};
use super::onsets::{Ferguson, OnsetClass, Outcome};
use super::params::Params;
use super::units::Millis;
use super::warning::AnalysisWarning;

/// A speaker name in the result: made once per speaker and shared by every talkspurt, piece,
/// interval, turn and onset that names the speaker (cloning bumps a reference count, it does
/// not copy the text). Serialises as a plain JSON string.
pub type Name = Arc<str>;

/// Version of this JSON layout; bumped on any incompatible change.
///
/// 2: `overtalk analyze --format json` writes `{schema_version, conversations, corpus}` for one
/// conversation as for many (version 1 wrote a lone conversation as the top-level object).
/// A conversation object and a `--format jsonl` line are unchanged.
///
/// 3: a number the input cannot measure is `null`, not 0: `conversation.overlap` and the
/// counts of talk-over events, terminal overlaps and simultaneous starts (speakers found one
/// per frame, or ends estimated) and, when ends are estimated, the interruption counts and
/// each speaker's `interruptions_made` / `interruptions_received`; the corpus totals of any
/// of them are `null` when one conversation's is.
pub const SCHEMA_VERSION: u32 = 3;

/// How completion points and backchannels were judged for a speaker (§5.1 Modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// At least one talkspurt of the speaker has tokens.
    Text,
    /// No tokens: talkspurt ends are the only completion proxy.
    Timing,
}

/// The whole analysis of one conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// [`SCHEMA_VERSION`].
    pub schema_version: u32,
    /// The parameters used.
    pub params: Params,
    /// Mode per speaker.
    pub mode: BTreeMap<String, Mode>,
    /// What was dropped, merged or flagged.
    pub diagnostics: Diagnostics,
    /// S2/S5 talkspurts, sorted by `(start, end, speaker)`.
    pub talkspurts: Vec<TalkspurtOut>,
    /// S3 acoustic joint timeline.
    pub joint: Vec<JointOut>,
    /// S4 and S4' intervals, acoustic layer first.
    pub he: Vec<HeOut>,
    /// Floor transfers (claims 1, 2, …).
    pub transfers: Vec<TransferOut>,
    /// Turns (one per claim).
    pub turns: Vec<TurnOut>,
    /// Onset events (S8).
    pub onsets: Vec<OnsetOut>,
    /// Per-speaker metrics.
    pub speakers: BTreeMap<String, SpeakerOut>,
    /// Interrupter/interruptee pairs with any attempt or talk-over event (none listed when
    /// ends are estimated: the counts are not measurable then, see `estimated_times`).
    pub pairs: Vec<PairOut>,
    /// Conversation-level metrics.
    pub conversation: ConversationOut,
    /// Extension: floor claims made in words ("let me finish").
    pub verbal_claims: Vec<VerbalClaimOut>,
    /// Extension, present only when some ends were estimated (paragraph transcripts): what
    /// rests on the estimates, marked overlaps and the rule-by-rule interruption counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub estimated_times: Option<super::rules::EstimatedTimes>,
    /// Extension, present only for CHAT files with time bullets (set by the caller that knows
    /// the format, from the transcript as read): the transcriber's overlap and interruption
    /// markers against the timing ([`super::markers::compare`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chat_markers_vs_timing: Option<super::markers::MarkersVsTiming>,
}

impl Analysis {
    /// Marks the speech of one mixed track as found by voice activity alone, all one speaker:
    /// the first warning says the speakers were not told apart
    /// ([`AnalysisWarning::SpeakersNotSeparated`](super::AnalysisWarning)).
    pub fn mark_speakers_not_separated(&mut self) {
        self.diagnostics.warnings.insert(0, super::AnalysisWarning::SpeakersNotSeparated);
    }

    /// Marks the speakers as found one per frame in one mixed track: the first warning says
    /// so ([`AnalysisWarning::OverlapNotMeasurable`](super::AnalysisWarning)), replacing the
    /// "no overlap in long speech" one; the overlap, its shares and the counts of the onsets
    /// that need it (talk-over events, terminal overlaps, simultaneous starts), zero by
    /// construction, become unknown (`null`). Interruptions in the holder's pauses stay counted.
    pub fn mark_one_speaker_per_frame(&mut self) {
        use super::AnalysisWarning;
        self.diagnostics.warnings.retain(|w| !matches!(w, AnalysisWarning::NoOverlap { .. }));
        self.diagnostics.warnings.insert(0, AnalysisWarning::OverlapNotMeasurable);
        self.conversation.forget_overlap();
        self.speakers.values_mut().for_each(SpeakerOut::forget_overlap);
        for p in &mut self.pairs {
            p.talk_over_events = None;
        }
        let counts = &mut self.conversation.counts.events;
        counts.talk_over_events = None;
        counts.terminal_overlaps = None;
        counts.simultaneous_starts = None;
    }

    /// Why the overlap between speakers cannot be measured from this input, if it cannot:
    /// `"one speaker per frame"` when the speakers were diarized from one mixed track that way
    /// ([`AnalysisWarning::OverlapNotMeasurable`](super::AnalysisWarning)), `"ends estimated"`
    /// when some ends were estimated (paragraph transcripts). Every output that shows the
    /// overlap shows this instead of a zero it did not measure.
    pub fn overlap_unmeasurable(&self) -> Option<&'static str> {
        let one_per_frame = self
            .diagnostics
            .warnings
            .iter()
            .any(|w| matches!(w, super::AnalysisWarning::OverlapNotMeasurable));
        if one_per_frame {
            Some("one speaker per frame")
        } else if self.estimated_times.is_some() {
            Some("ends estimated")
        } else {
            None
        }
    }
}

/// Diagnostics.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Diagnostics {
    /// Segments dropped in S1 (too short after ms conversion, or exact duplicates).
    pub dropped_segments: usize,
    /// Same-speaker overlapping segments unioned in S2.
    pub same_speaker_overlaps: usize,
    /// Per speaker: union of the raw segments, without bridging (ms).
    pub talk_time_unbridged: BTreeMap<String, Millis>,
    /// Extension: word timings clamped into their segment (Q6).
    pub clamped_words: usize,
    /// Caveats about the numbers (no overlap in long multi-speaker input, schisms, estimated
    /// ends): typed, written in JSON as their sentences.
    pub warnings: Vec<AnalysisWarning>,
}

/// One talkspurt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TalkspurtOut {
    /// Speaker.
    pub speaker: Name,
    /// Start (ms).
    pub start: Millis,
    /// End (ms).
    pub end: Millis,
    /// Words (punctuation-only and laughter tokens excluded).
    pub n_tokens: usize,
    /// Tagged as a backchannel.
    pub is_backchannel: bool,
    /// Extension: the calibrated classifier's probability that this is a backchannel
    /// (`null` under the rules, §5.8).
    pub p_backchannel: Option<f64>,
}

/// One joint-timeline piece.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JointOut {
    /// Start (ms).
    pub start: Millis,
    /// End (ms).
    pub end: Millis,
    /// Active speakers (empty = silence). Pieces with the same set share one list.
    pub active: Arc<[Name]>,
}

/// One Heldner & Edlund interval.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeOut {
    /// `acoustic` or `floor`.
    pub layer: Layer,
    /// Class.
    pub kind: HeKind,
    /// Start (ms).
    pub start: Millis,
    /// End (ms).
    pub end: Millis,
    /// Solo speaker before.
    pub prev: Option<Name>,
    /// Solo speaker after.
    pub next: Option<Name>,
}

/// One floor transfer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TransferOut {
    /// Claim time (ms).
    pub time: Millis,
    /// Previous holder.
    pub from: Name,
    /// New holder.
    pub to: Name,
    /// Floor-transfer offset (ms).
    pub fto: Option<Millis>,
}

/// One turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnOut {
    /// Holder.
    pub speaker: Name,
    /// Extent start (ms).
    pub start: Millis,
    /// Extent end (ms).
    pub end: Millis,
    /// Claim time (ms).
    pub claim: Millis,
    /// Talkspurts in the turn.
    pub n_talkspurts: usize,
    /// Words in the turn.
    pub n_tokens: usize,
}

/// One onset event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OnsetOut {
    /// Onset speaker.
    pub speaker: Name,
    /// Onset time (ms).
    pub time: Millis,
    /// Floor holder (`null` for `opening`).
    pub holder: Option<Name>,
    /// Class.
    pub class: OnsetClass,
    /// Outcome.
    pub outcome: Outcome,
    /// Ferguson/Beattie label.
    pub ferguson: Option<Ferguson>,
    /// Simultaneous-start partner.
    pub partner: Option<Name>,
    /// Distance to the holder's nearest completion point (rule 2; `null` when none).
    pub dist_to_completion: Option<Millis>,
    /// Holder's talkspurt end minus onset (rule 2).
    pub holder_remaining: Option<Millis>,
    /// Extension: the calibrated classifier's probability that the onset stops the holder
    /// (`null` under the rules or for an opening, §5.8).
    pub p_interruption: Option<f64>,
    /// Extension: the calibrated classifier's probability that the onset is a failed attempt
    /// (`null` under the rules or for an opening, §5.8).
    pub p_failed_attempt: Option<f64>,
}

/// Interruption counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counts {
    /// Attempts (rule-2 interruptions + silent interruptions).
    pub attempts: usize,
    /// Successful attempts.
    pub successful: usize,
}

/// Per-speaker metrics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpeakerOut {
    /// Talk time (ms).
    pub talk: Millis,
    /// Share of all talk.
    pub talk_share: Option<f64>,
    /// Solo time (ms): talk with nobody else talking. `null` when overlap is not measurable
    /// (speakers found one per frame, ends estimated), where it would equal the talk time by
    /// construction.
    pub solo: Option<Millis>,
    /// Floor time (ms).
    pub floor: Millis,
    /// Share of all floor time.
    pub floor_share: Option<f64>,
    /// Turns.
    pub turns: usize,
    /// Longest turn extent (ms).
    pub longest_turn: Option<Millis>,
    /// Words per minute of talk time (`null` without tokens).
    pub wpm: Option<f64>,
    /// Backchannels produced.
    pub backchannels: usize,
    /// Interruptions made (`null` when ends are estimated: not measurable from the times).
    pub interruptions_made: Option<Counts>,
    /// Interruptions received (`null` when ends are estimated).
    pub interruptions_received: Option<Counts>,
    /// Median FTO of transfers into the speaker (ms; may end in .5).
    pub median_fto_in: Option<f64>,
    /// Extension: words.
    pub words: usize,
    /// Extension: turns at least `monologue_min` long.
    pub monologues: usize,
    /// Extension: floor-relevant talkspurts outside any turn.
    pub non_floor_contributions: usize,
    /// Extension: longest stretch of the speaker's tenure with nobody else vocalising, from a
    /// start to an end of the speaker's own talk (§5.5.6, Q8; ms).
    pub longest_unbroken: Option<Millis>,
    /// Extension: inter-quartile range of the FTOs into the speaker (ms, §5.5.7).
    pub fto_in_iqr: Option<f64>,
    /// Extension: share of the FTOs into the speaker that are negative (entered in overlap).
    pub fto_in_negative_share: Option<f64>,
    /// Extension: share of the FTOs into the speaker that are ≥ `long_silence`.
    pub fto_in_long_share: Option<f64>,
    /// Extension: median FTO into the speaker after a talkspurt ending with `?` (Q11; ms).
    pub question_fto_median: Option<f64>,
    /// Extension: backchannels per minute of the other speakers' floor time (§5.5.9).
    pub bc_rate_per_min_of_others_floor: Option<f64>,
    /// Extension: share of the speaker's backchannels whose onset is covered by another
    /// speaker's talkspurt (Q12).
    pub bc_in_overlap_share: Option<f64>,
}

impl SpeakerOut {
    /// Forgets what depends on overlap the input cannot show ([`ConversationOut::forget_overlap`]):
    /// the solo time (it would equal the talk time), the floor-transfer offsets into the
    /// speaker (every hidden overlap would count as a transfer at 0 ms, so no offset is
    /// negative and the median and spread are biased), and the share of backchannels made in
    /// overlap.
    pub(crate) fn forget_overlap(&mut self) {
        self.solo = None;
        self.median_fto_in = None;
        self.fto_in_iqr = None;
        self.fto_in_negative_share = None;
        self.question_fto_median = None;
        self.bc_in_overlap_share = None;
    }
}

/// One interrupter → interruptee pair.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairOut {
    /// Onset speaker.
    pub interrupter: Name,
    /// Floor holder at the onset.
    pub interruptee: Name,
    /// Interruption attempts.
    pub attempts: usize,
    /// Successful attempts.
    pub successful: usize,
    /// Rule-2 onsets (terminal overlaps + interruptions); `null` when the speakers were found
    /// one per frame (none can be found: [`Analysis::mark_one_speaker_per_frame`]).
    pub talk_over_events: Option<usize>,
    /// Attempts per minute of the interruptee's floor time.
    pub rate_per_min_of_interruptee_floor: Option<f64>,
}

/// Conversation-level metrics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ConversationOut {
    /// First talkspurt start to last end (ms).
    pub span: Millis,
    /// Span minus silence (ms).
    pub speech: Millis,
    /// Silence inside the span (ms).
    pub silence: Millis,
    /// Time with ≥ 2 speakers (ms); `null` when overlap is not measurable from the input
    /// (speakers found one per frame, or ends estimated: [`Analysis::overlap_unmeasurable`]).
    pub overlap: Option<Millis>,
    /// Overlap / speech.
    pub overlap_ratio: Option<f64>,
    /// Transfers per minute of span.
    pub transfers_per_min: Option<f64>,
    /// Interval counts per layer and kind; the overlap kinds are `null` when overlap is not
    /// measurable from the input ([`Analysis::overlap_unmeasurable`]).
    pub he_counts: BTreeMap<Layer, BTreeMap<HeKind, Option<usize>>>,
    /// Acoustic gaps and pauses ≥ `long_silence`.
    pub long_silences: usize,
    /// Extension: span start (ms; `null` when empty).
    pub start: Option<Millis>,
    /// Extension: headline counts.
    pub counts: HeadlineCounts,
    /// Extension: share of overlaps among acoustic between-speaker intervals.
    pub overlap_between_share: Option<f64>,
    /// Extension: share of NGNO among acoustic between-speaker intervals.
    pub ngno_share: Option<f64>,
    /// Extension: talk balance (max share; normalised entropy and Gini of the talk shares).
    pub balance: Balance,
    /// Extension: median turn extent (ms).
    pub turn_median: Option<f64>,
    /// Extension: mean words per turn (text mode only).
    pub words_per_turn: Option<f64>,
    /// Extension: median signed between-speaker interval (acoustic; gap +, overlap −, NGNO 0).
    pub between_median: Option<f64>,
    /// Extension: duration statistics per layer and H&E class (§5.5.4); the overlap kinds are
    /// `null` when overlap is not measurable from the input.
    pub he_durations: BTreeMap<Layer, BTreeMap<HeKind, Option<HeStats>>>,
}

impl ConversationOut {
    /// Forgets what the input cannot measure when it cannot show two speakers at once
    /// (speakers found one per frame, or ends estimated): the overlap and its ratio, the
    /// overlap intervals' counts and durations, and the statistics over all between-speaker
    /// intervals (the overlap and NGNO shares, the median), which the missing overlaps would
    /// bias. A zero there would read as a measurement.
    pub(crate) fn forget_overlap(&mut self) {
        self.overlap = None;
        self.overlap_ratio = None;
        self.overlap_between_share = None;
        self.ngno_share = None;
        self.between_median = None;
        let unknown = |k: &HeKind| k.is_overlap_dependent();
        for kinds in self.he_counts.values_mut() {
            kinds.iter_mut().filter(|(k, _)| unknown(k)).for_each(|(_, n)| *n = None);
        }
        for kinds in self.he_durations.values_mut() {
            kinds.iter_mut().filter(|(k, _)| unknown(k)).for_each(|(_, s)| *s = None);
        }
    }
}

/// Duration statistics of one H&E class (extension, §5.5.4).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HeStats {
    /// Intervals.
    pub n: usize,
    /// Summed duration (ms).
    pub total: Millis,
    /// Median duration (ms).
    pub median: Option<f64>,
    /// Inter-quartile range of the durations (ms).
    pub iqr: Option<f64>,
    /// Intervals shorter than `pause_report_min` (the "micro" bin).
    pub micro: usize,
    /// Intervals at least `long_silence` long.
    pub long: usize,
}

/// Headline counts (extension).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeadlineCounts {
    /// Speakers with talk.
    pub speakers: usize,
    /// Talkspurts.
    pub talkspurts: usize,
    /// The counted events, written beside `speakers` and `talkspurts`.
    #[serde(flatten)]
    pub events: EventCounts,
}

/// The events of a conversation counted: turns, transfers, interruptions, overlaps,
/// backchannels and claims. Counts over many conversations add ([`EventCounts::add`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventCounts {
    /// Turns.
    pub turns: usize,
    /// Floor transfers.
    pub transfers: usize,
    /// Interruption attempts. This and the next five are `null` when ends are estimated
    /// (paragraph transcripts): the times cannot tell them, `estimated_times` counts them
    /// rule by rule instead. The last three are `null` too when the speakers were found one
    /// per frame ([`Analysis::mark_one_speaker_per_frame`]).
    pub interruptions: Option<usize>,
    /// Successful interruptions.
    pub successful: Option<usize>,
    /// Unsuccessful interruptions.
    pub unsuccessful: Option<usize>,
    /// Talk-over events (rule-2 onsets).
    pub talk_over_events: Option<usize>,
    /// Terminal overlaps.
    pub terminal_overlaps: Option<usize>,
    /// Simultaneous starts.
    pub simultaneous_starts: Option<usize>,
    /// Backchannels.
    pub backchannels: usize,
    /// Verbal floor claims.
    pub verbal_claims: usize,
}

impl Default for EventCounts {
    /// Nothing counted yet: every count zero (measured), the start of a total.
    fn default() -> Self {
        EventCounts {
            turns: 0,
            transfers: 0,
            interruptions: Some(0),
            successful: Some(0),
            unsuccessful: Some(0),
            talk_over_events: Some(0),
            terminal_overlaps: Some(0),
            simultaneous_starts: Some(0),
            backchannels: 0,
            verbal_claims: 0,
        }
    }
}

impl EventCounts {
    /// The counts the times cannot tell when ends are estimated, set to `null`.
    pub fn forget_timing(&mut self) {
        self.interruptions = None;
        self.successful = None;
        self.unsuccessful = None;
        self.talk_over_events = None;
        self.terminal_overlaps = None;
        self.simultaneous_starts = None;
    }

    /// Adds `other`'s counts to these, field by field.
    pub fn add(&mut self, other: &EventCounts) {
        self.turns += other.turns;
        self.transfers += other.transfers;
        // A total with an unknown part is unknown.
        let add = |a: &mut Option<usize>, b: Option<usize>| *a = a.zip(b).map(|(a, b)| a + b);
        add(&mut self.interruptions, other.interruptions);
        add(&mut self.successful, other.successful);
        add(&mut self.unsuccessful, other.unsuccessful);
        add(&mut self.talk_over_events, other.talk_over_events);
        add(&mut self.terminal_overlaps, other.terminal_overlaps);
        add(&mut self.simultaneous_starts, other.simultaneous_starts);
        self.backchannels += other.backchannels;
        self.verbal_claims += other.verbal_claims;
    }
}

/// Talk balance (extension, §5.5.3).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Balance {
    /// The largest talk share (ConvoKit's dyad balance).
    pub max_share: Option<f64>,
    /// Entropy of the shares / ln N (1 = equal); `null` below 2 speakers.
    pub entropy: Option<f64>,
    /// Gini coefficient of the shares.
    pub gini: Option<f64>,
    /// Dyads only: the speaker with more talk (ConvoKit's primary group).
    pub primary: Option<Name>,
    /// Dyads only: `high_balance` (max share ≥ 0.5), `mid_balance` (≥ 0.55), `low_balance`
    /// (≥ 0.65), as ConvoKit's `summarize`.
    pub balance_type: Option<String>,
    /// Dyads only: one label per window of `balance_window` every `balance_step`: 1 primary
    /// dominates, −1 secondary dominates, 0 balanced; windows without talk are skipped.
    pub windows: Vec<i8>,
    /// Dyads only: `dominating_throughout`, `back_and_forth`, `alter_dominance` or `no_label`
    /// (ConvoKit's thresholds 75 %, 60 %, 25 %); `null` without windows.
    pub pattern: Option<String>,
}

/// A floor claim made in words (extension).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VerbalClaimOut {
    /// Who said it.
    pub speaker: Name,
    /// The lexicon phrase matched.
    pub phrase: String,
    /// Start of its first token (ms).
    pub start: Millis,
    /// End of its last token (ms).
    pub end: Millis,
    /// Index into `onsets` of the onset it answers.
    pub answers: Option<usize>,
    /// Speaker of that onset.
    pub answers_speaker: Option<Name>,
    /// Time of that onset (ms).
    pub answers_time: Option<Millis>,
    /// Class of that onset.
    pub answers_class: Option<OnsetClass>,
}
