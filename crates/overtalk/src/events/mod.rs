//! Event-level scoring: does diarization error distort the dynamics?
//!
//! The reference and the hypothesis are both analysed ([`crate::analysis::analyze`], the same
//! [`Params`]), the hypothesis speakers are renamed to their reference speakers with the DER
//! mapping ([`crate::score::prepare_and_map`], the very mapping `overtalk score` reports), and
//! the events of the two analyses are matched class by class, one to one, with an onset
//! tolerance (`matching`):
//!
//! ```text
//! reference  A [██████████████)      A [██████)
//!            B          [███████████████)          B interrupts A at 1100 (floor taken)
//! hypothesis x [█████████████)       x [██████)    x → A, y → B (DER mapping)
//!            y            [█████████████)          y interrupts x at 1250: matched (|Δ| ≤ 200)
//!                      1100 1250
//! ```
//!
//! This module sits above [`crate::analysis`] and [`crate::score`] (which do not know each
//! other) and below nothing: it takes model values and returns plain values.
//!
//! Per class and recording it gives true positives, false positives and false negatives,
//! precision, recall, F1 and sed_eval's class-wise error rate `(FN + FP) / N_ref`; per
//! recording and over the corpus the distortion of the aggregates the analysis reports (signed
//! count error per class, the who-interrupts-whom matrix, talk and floor shares, the FTO
//! distribution), with bootstrap confidence intervals over recordings; and for every unmatched
//! event the cause ([`blame`]).

pub mod blame;
pub mod distortion;
pub(crate) mod matching;
pub mod render;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::analysis::onsets::{OnsetClass, Outcome};
use crate::analysis::{analyze, Analysis, Params};
use crate::error::Result;
use crate::model::{AnnotationBuilder, Region, Transcript};
use crate::score::{self, prepare::normalise_uem, RecordingInput, ScoreOptions, Side};

pub use blame::{Blame, Cause};
pub use distortion::{Aggregate, Distortion, TotalDistortion};

/// Options of event scoring.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventOptions {
    /// Onset tolerance (ms): events match when their onsets differ by at most this much.
    /// Default 200 ms, sed_eval's `t_collar` for onset-only event-based evaluation.
    pub tolerance: i64,
    /// An unmatched event whose twin (same class and speakers) is unmatched on the other side
    /// within this distance (ms) is blamed on a boundary shift; so is a miss or false alarm no
    /// longer than this that touches correctly attributed speech of the same speaker. Default
    /// 1000 ms.
    pub shift_window: i64,
    /// Bootstrap resamples of the recordings for the confidence intervals (0: none).
    pub bootstrap: usize,
    /// Seed of the bootstrap (the intervals are the same on every run).
    pub seed: u64,
    /// Two-sided confidence level of the intervals.
    pub confidence: f64,
}

impl Default for EventOptions {
    fn default() -> EventOptions {
        EventOptions {
            tolerance: 200,
            shift_window: 1000,
            bootstrap: 1000,
            seed: 17,
            confidence: 0.95,
        }
    }
}

/// A class of events.
///
/// An interruption attempt (rule-2 interruption or silent interruption) is counted twice: by
/// its onset class and by its outcome; the totals therefore add overlapping classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EventClass {
    /// An onset of one class (§5.4 S8), speaker and floor holder.
    Onset(OnsetClassKey),
    /// An interruption attempt by outcome, interrupter and interruptee.
    Interruption(OutcomeKey),
    /// A backchannel talkspurt (its start), speaker.
    Backchannel,
    /// A floor transfer (claim time), new and previous holder.
    Transfer,
    /// A turn (extent start), holder.
    Turn,
    /// A turn at least `monologue_min` long (extent start), holder.
    Monologue,
}

/// [`OnsetClass`] with an order, for use as a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OnsetClassKey {
    /// [`OnsetClass::Opening`].
    Opening,
    /// [`OnsetClass::SmoothSwitch`].
    SmoothSwitch,
    /// [`OnsetClass::SilentInterruption`].
    SilentInterruption,
    /// [`OnsetClass::PauseCompetition`].
    PauseCompetition,
    /// [`OnsetClass::SimultaneousStart`].
    SimultaneousStart,
    /// [`OnsetClass::TerminalOverlap`].
    TerminalOverlap,
    /// [`OnsetClass::Interruption`].
    Interruption,
}

/// [`Outcome`] with an order, for use as a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OutcomeKey {
    /// [`Outcome::FloorTaken`].
    FloorTaken,
    /// [`Outcome::FloorToThird`].
    FloorToThird,
    /// [`Outcome::FloorKept`].
    FloorKept,
}

impl From<OnsetClass> for OnsetClassKey {
    fn from(c: OnsetClass) -> OnsetClassKey {
        match c {
            OnsetClass::Opening => OnsetClassKey::Opening,
            OnsetClass::SmoothSwitch => OnsetClassKey::SmoothSwitch,
            OnsetClass::SilentInterruption => OnsetClassKey::SilentInterruption,
            OnsetClass::PauseCompetition => OnsetClassKey::PauseCompetition,
            OnsetClass::SimultaneousStart => OnsetClassKey::SimultaneousStart,
            OnsetClass::TerminalOverlap => OnsetClassKey::TerminalOverlap,
            OnsetClass::Interruption => OnsetClassKey::Interruption,
        }
    }
}

impl From<Outcome> for OutcomeKey {
    fn from(o: Outcome) -> OutcomeKey {
        match o {
            Outcome::FloorTaken => OutcomeKey::FloorTaken,
            Outcome::FloorToThird => OutcomeKey::FloorToThird,
            Outcome::FloorKept => OutcomeKey::FloorKept,
        }
    }
}

crate::named::named_enum!(EventClass, "event class");

impl EventClass {
    /// Every class, in report order.
    pub const ALL: [EventClass; 14] = [
        EventClass::Onset(OnsetClassKey::Opening),
        EventClass::Onset(OnsetClassKey::SmoothSwitch),
        EventClass::Onset(OnsetClassKey::SilentInterruption),
        EventClass::Onset(OnsetClassKey::PauseCompetition),
        EventClass::Onset(OnsetClassKey::SimultaneousStart),
        EventClass::Onset(OnsetClassKey::TerminalOverlap),
        EventClass::Onset(OnsetClassKey::Interruption),
        EventClass::Interruption(OutcomeKey::FloorTaken),
        EventClass::Interruption(OutcomeKey::FloorToThird),
        EventClass::Interruption(OutcomeKey::FloorKept),
        EventClass::Backchannel,
        EventClass::Transfer,
        EventClass::Turn,
        EventClass::Monologue,
    ];

    /// The name in every output: `onset:smooth_switch`, `interruption:floor_taken`,
    /// `backchannel`, `transfer`, `turn`, `monologue`.
    pub fn name(self) -> &'static str {
        match self {
            EventClass::Onset(c) => match c {
                OnsetClassKey::Opening => "onset:opening",
                OnsetClassKey::SmoothSwitch => "onset:smooth_switch",
                OnsetClassKey::SilentInterruption => "onset:silent_interruption",
                OnsetClassKey::PauseCompetition => "onset:pause_competition",
                OnsetClassKey::SimultaneousStart => "onset:simultaneous_start",
                OnsetClassKey::TerminalOverlap => "onset:terminal_overlap",
                OnsetClassKey::Interruption => "onset:interruption",
            },
            EventClass::Interruption(o) => match o {
                OutcomeKey::FloorTaken => "interruption:floor_taken",
                OutcomeKey::FloorToThird => "interruption:floor_to_third",
                OutcomeKey::FloorKept => "interruption:floor_kept",
            },
            EventClass::Backchannel => "backchannel",
            EventClass::Transfer => "transfer",
            EventClass::Turn => "turn",
            EventClass::Monologue => "monologue",
        }
    }

    /// The class of a name given by [`EventClass::name`].
    pub fn from_name(name: &str) -> Option<EventClass> {
        EventClass::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl Serialize for EventClass {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for EventClass {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        EventClass::from_name(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown event class {s:?}")))
    }
}

/// One event of one side, speakers named by reference speakers (a hypothesis speaker the
/// mapping leaves alone is `unmapped-1`, `unmapped-2`, … in the order of their first turn).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    /// Class.
    pub class: EventClass,
    /// Onset (ms).
    pub time: i64,
    /// The speaker of the event (onset speaker, interrupter, backchanneller, new holder).
    pub speaker: String,
    /// The other speaker of the event, when the class has one (floor holder, interruptee,
    /// previous holder).
    pub other: Option<String>,
}

/// The events of one analysis, by class.
pub fn events_of(a: &Analysis) -> Vec<Event> {
    let mut out = Vec::new();
    for o in &a.onsets {
        let other = o.holder.as_deref().map(str::to_owned);
        out.push(Event {
            class: EventClass::Onset(o.class.into()),
            time: o.time.get(),
            speaker: o.speaker.to_string(),
            other: other.clone(),
        });
        let attempt = matches!(o.class, OnsetClass::Interruption | OnsetClass::SilentInterruption);
        if attempt && other.is_some() {
            out.push(Event {
                class: EventClass::Interruption(o.outcome.into()),
                time: o.time.get(),
                speaker: o.speaker.to_string(),
                other,
            });
        }
    }
    for t in a.talkspurts.iter().filter(|t| t.is_backchannel) {
        out.push(Event {
            class: EventClass::Backchannel,
            time: t.start.get(),
            speaker: t.speaker.to_string(),
            other: None,
        });
    }
    for t in &a.transfers {
        out.push(Event {
            class: EventClass::Transfer,
            time: t.time.get(),
            speaker: t.to.to_string(),
            other: Some(t.from.to_string()),
        });
    }
    for t in &a.turns {
        let turn = |class| Event {
            class,
            time: t.start.get(),
            speaker: t.speaker.to_string(),
            other: None,
        };
        out.push(turn(EventClass::Turn));
        if t.end - t.start >= a.params.monologue_min {
            out.push(turn(EventClass::Monologue));
        }
    }
    out.sort_by(|a, b| {
        (a.class, a.time, &a.speaker, &a.other).cmp(&(b.class, b.time, &b.speaker, &b.other))
    });
    out
}

/// Counts and rates of one class.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ClassScore {
    /// Class.
    pub class: Option<EventClass>,
    /// Reference events.
    pub reference: usize,
    /// Hypothesis events.
    pub hypothesis: usize,
    /// Matched pairs.
    pub tp: usize,
    /// Hypothesis events left unmatched.
    pub fp: usize,
    /// Reference events left unmatched.
    #[serde(rename = "fn")]
    pub fn_: usize,
    /// `tp / hypothesis` (`null` without hypothesis events).
    pub precision: Option<f64>,
    /// `tp / reference` (`null` without reference events).
    pub recall: Option<f64>,
    /// `2 tp / (reference + hypothesis)` (`null` when both are empty).
    pub f1: Option<f64>,
    /// sed_eval's class-wise error rate `(fn + fp) / reference` (`null` without reference
    /// events).
    pub error_rate: Option<f64>,
    /// Signed count error `hypothesis − reference`.
    pub count_error: i64,
    /// `count_error / reference` (`null` without reference events).
    pub relative_count_error: Option<f64>,
    /// Sum of the signed onset offsets of the matched pairs, hypothesis minus reference (ms).
    pub offset_sum: i64,
    /// `offset_sum / tp` (ms; `null` without matches).
    pub mean_offset: Option<f64>,
    /// The causes of the unmatched events.
    pub blame: Blame,
}

impl ClassScore {
    fn from_counts(class: EventClass, reference: usize, hypothesis: usize, tp: usize) -> Self {
        let mut c = ClassScore { class: Some(class), reference, hypothesis, tp, ..Self::default() };
        c.finish();
        c
    }

    /// Recomputes the rates from the counts.
    fn finish(&mut self) {
        let ratio = |a: usize, b: usize| (b > 0).then(|| a as f64 / b as f64);
        self.fp = self.hypothesis - self.tp;
        self.fn_ = self.reference - self.tp;
        self.precision = ratio(self.tp, self.hypothesis);
        self.recall = ratio(self.tp, self.reference);
        self.f1 = ratio(2 * self.tp, self.reference + self.hypothesis);
        self.error_rate = ratio(self.fn_ + self.fp, self.reference);
        self.count_error = self.hypothesis as i64 - self.reference as i64;
        self.relative_count_error =
            (self.reference > 0).then(|| self.count_error as f64 / self.reference as f64);
        self.mean_offset = (self.tp > 0).then(|| self.offset_sum as f64 / self.tp as f64);
    }

    fn add(&mut self, other: &ClassScore) {
        self.reference += other.reference;
        self.hypothesis += other.hypothesis;
        self.offset_sum += other.offset_sum;
        self.tp += other.tp;
        self.blame += other.blame;
        self.finish();
    }
}

/// An event left unmatched, with its cause.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unmatched {
    /// Which side it is on (a reference event is a miss of the hypothesis, a hypothesis event a
    /// false event).
    pub side: Side,
    /// The event.
    #[serde(flatten)]
    pub event: Event,
    /// What caused it.
    pub cause: Cause,
}

/// A matched pair of events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Matched {
    /// Class.
    pub class: EventClass,
    /// Speaker (as in [`Event`]).
    pub speaker: String,
    /// Other speaker (as in [`Event`]).
    pub other: Option<String>,
    /// Reference onset (ms).
    pub reference: i64,
    /// Hypothesis onset (ms).
    pub hypothesis: i64,
}

/// The event score of one recording.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordingEvents {
    /// Recording id.
    pub id: String,
    /// The recording's DER under the scoring options (`null` without scored reference time).
    pub der: Option<f64>,
    /// Reference speaker → hypothesis speaker (the DER mapping).
    pub mapping: Vec<(String, String)>,
    /// Hypothesis speakers the mapping leaves alone, as named in the events.
    pub unmapped: Vec<(String, String)>,
    /// One row per class, in [`EventClass::ALL`] order.
    pub classes: Vec<ClassScore>,
    /// Distortion of the aggregates.
    pub distortion: Distortion,
    /// Every matched pair, by class and reference onset.
    pub matched: Vec<Matched>,
    /// Every unmatched event, in time order.
    pub unmatched: Vec<Unmatched>,
    /// The speech both sides were analysed from and the error timeline, for drawings (not in
    /// the JSON: the inputs hold it).
    #[serde(skip)]
    pub lanes: Lanes,
}

/// The speech of both sides of a recording as the analysis saw it (prepared and mapped), and
/// the error timeline the blame reads: what [`crate::report::event_score_report`] draws.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lanes {
    /// One lane per reference speaker, in the order of the prepared recording.
    pub reference: Vec<Lane>,
    /// One lane per hypothesis speaker with any speech, in the order of the prepared
    /// recording.
    pub hypothesis: Vec<Lane>,
    /// The error pieces (not correct) of the whole evaluation region: `[start, end)` ms and
    /// kind.
    pub errors: Vec<(i64, i64, score::ErrorType)>,
}

/// The speech of one speaker of one side.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lane {
    /// The speaker as the events name it (a reference speaker, or `unmapped-k`).
    pub speaker: String,
    /// The speaker's label in the input.
    pub label: String,
    /// `[start, end)` ms, in time order.
    pub segments: Vec<(i64, i64)>,
}

/// The lanes of one side: segments of `tokens` per speaker, named by `name` (events) and
/// `labels` (input).
fn lanes_of(
    tokens: &[score::prepare::ScoredTurn],
    labels: &[String],
    name: impl Fn(usize) -> String,
) -> Vec<Lane> {
    use crate::analysis::normalise::to_ms;
    let mut per: Vec<Vec<(i64, i64)>> = vec![Vec::new(); labels.len()];
    for &(seg, k) in tokens {
        if let Some(v) = per.get_mut(k as usize) {
            v.push((to_ms(seg.start().micros()).get(), to_ms(seg.end().micros()).get()));
        }
    }
    per.into_iter()
        .enumerate()
        .filter(|(_, segs)| !segs.is_empty())
        .map(|(k, mut segments)| {
            segments.sort_unstable();
            Lane { speaker: name(k), label: labels[k].clone(), segments }
        })
        .collect()
}

/// The event score of a corpus.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventReport {
    /// Version of this layout.
    pub schema_version: u32,
    /// Event options.
    pub options: EventOptions,
    /// The analysis parameters both sides were analysed with (as `overtalk analyze` writes
    /// them under `params`).
    pub params: Params,
    /// Collar of the DER and its mapping (s, per side).
    pub collar: f64,
    /// The corpus DER under the scoring options.
    pub der: Option<f64>,
    /// Per recording, sorted by id.
    pub recordings: Vec<RecordingEvents>,
    /// Per class over all recordings (sums of counts; rates from the sums).
    pub classes: Vec<ClassScore>,
    /// All classes together (the classes overlap: an interruption attempt is in its onset
    /// class and in its outcome class).
    pub total: ClassScore,
    /// Distortion over the corpus with bootstrap intervals.
    pub distortion: TotalDistortion,
}

/// Version of [`EventReport`]'s layout.
pub const EVENTS_SCHEMA_VERSION: u32 = 1;

/// The annotation of one side of a prepared recording, speakers renamed by `name`.
fn transcript_of(
    tokens: &[score::prepare::ScoredTurn],
    name: impl Fn(u32) -> String,
) -> Transcript {
    let mut b = AnnotationBuilder::new();
    for &(seg, k) in tokens {
        b.add(seg, &name(k));
    }
    Transcript::from_annotation(b.build())
}

/// A group of events: class, speaker, other speaker.
type Key<'a> = (EventClass, &'a str, Option<&'a str>);

/// Indices of the events of each group, in time order.
fn group(events: &[Event]) -> BTreeMap<Key<'_>, Vec<usize>> {
    let mut g: BTreeMap<Key<'_>, Vec<usize>> = BTreeMap::new();
    for (i, e) in events.iter().enumerate() {
        g.entry((e.class, e.speaker.as_str(), e.other.as_deref())).or_default().push(i);
    }
    g
}

/// Scores the events of one recording. `None` when the scoring options skip it.
pub fn score_recording(
    input: &RecordingInput,
    uem: Option<&Region>,
    uem_given: bool,
    opts: &ScoreOptions,
    params: &Params,
    ev: &EventOptions,
) -> Result<Option<RecordingEvents>> {
    let Some((p, mapping)) = score::prepare_and_map(input, uem, uem_given, opts)? else {
        return Ok(None);
    };
    let count_each = opts.self_overlap == score::SelfOverlap::CountEach;
    // The DER of the recording, as `overtalk score` computes it.
    let der = {
        let turns = score::der::TurnEvents::new(&p.reference, &p.hypothesis);
        score::der::components_of(&turns, &p.scored, &mapping, count_each)
            .der_with(opts.zero_scored)
    };
    // Hypothesis names: the mapped reference name, else unmapped-k by first turn.
    let mut hyp_name: Vec<Option<String>> = vec![None; p.hypothesis_names.len()];
    let mut pairs = Vec::new();
    for (r, h) in mapping.iter().enumerate() {
        if let Some(h) = *h {
            hyp_name[h] = Some(p.reference_names[r].clone());
            pairs.push((p.reference_names[r].clone(), p.hypothesis_names[h].clone()));
        }
    }
    let mut first: Vec<(crate::time::Time, usize)> = Vec::new();
    for &(seg, k) in &p.hypothesis {
        let k = k as usize;
        if hyp_name[k].is_none() && !first.iter().any(|&(_, j)| j == k) {
            first.push((seg.start(), k));
        }
    }
    first.sort();
    let mut unmapped = Vec::new();
    for (i, &(_, k)) in first.iter().enumerate() {
        let n = format!("unmapped-{}", i + 1);
        unmapped.push((n.clone(), p.hypothesis_names[k].clone()));
        hyp_name[k] = Some(n);
    }
    let hyp_name: Vec<String> = hyp_name.into_iter().map(Option::unwrap_or_default).collect();
    let ra =
        analyze(&transcript_of(&p.reference, |k| p.reference_names[k as usize].clone()), params)?;
    let ha = analyze(&transcript_of(&p.hypothesis, |k| hyp_name[k as usize].clone()), params)?;
    // With a UEM, what is scored is what happens inside it: the events whose time lies in the
    // evaluation region. Both sides are analysed whole, so an event near the region's edge keeps
    // the context that classifies it, and the edge itself makes no event (no opening, no turn
    // cut in two). Without a UEM the default region holds every event.
    //
    // ```text
    // UEM          [=================)
    // turns     ███████    ████   ██████████
    // events    ^          ^      ^            scored: the 2nd and 3rd; the 1st lies before it
    // ```
    let in_region =
        |ms: i64| !p.from_uem || p.evaluation.contains(crate::time::Time::from_millis(ms));
    let re: Vec<Event> = events_of(&ra).into_iter().filter(|e| in_region(e.time)).collect();
    let he: Vec<Event> = events_of(&ha).into_iter().filter(|e| in_region(e.time)).collect();
    // Group by (class, speaker, other); the events are sorted by class, then time.
    let (rg, hg) = (group(&re), group(&he));
    let mut r_matched = vec![false; re.len()];
    let mut h_matched = vec![false; he.len()];
    let mut offsets: BTreeMap<EventClass, (i64, usize)> = BTreeMap::new();
    let mut matched = Vec::new();
    for (key, ri) in &rg {
        let Some(hi) = hg.get(key) else { continue };
        let rt: Vec<i64> = ri.iter().map(|&i| re[i].time).collect();
        let ht: Vec<i64> = hi.iter().map(|&i| he[i].time).collect();
        for (a, b) in matching::match_sorted(&rt, &ht, ev.tolerance) {
            r_matched[ri[a]] = true;
            h_matched[hi[b]] = true;
            let o = offsets.entry(key.0).or_default();
            o.0 += ht[b] - rt[a];
            o.1 += 1;
            matched.push(Matched {
                class: key.0,
                speaker: key.1.to_owned(),
                other: key.2.map(str::to_owned),
                reference: rt[a],
                hypothesis: ht[b],
            });
        }
    }
    // Blame.
    let timeline = blame::ErrorIndex::new(&p, &mapping, count_each, &hyp_name);
    let mut unmatched = Vec::new();
    for (side, events, matched, others, other_groups, other_matched) in [
        (Side::Reference, &re, &r_matched, &he, &hg, &h_matched),
        (Side::Hypothesis, &he, &h_matched, &re, &rg, &r_matched),
    ] {
        for (i, e) in events.iter().enumerate() {
            if matched[i] {
                continue;
            }
            let key = (e.class, e.speaker.as_str(), e.other.as_deref());
            let twin = other_groups.get(&key).is_some_and(|idx| {
                let from = idx.partition_point(|&j| others[j].time < e.time - ev.shift_window);
                idx[from..]
                    .iter()
                    .take_while(|&&j| others[j].time <= e.time + ev.shift_window)
                    .any(|&j| !other_matched[j])
            });
            let cause = if twin { Cause::BoundaryShift } else { timeline.cause(e, ev) };
            unmatched.push(Unmatched { side, event: e.clone(), cause });
        }
    }
    unmatched.sort_by(|a, b| {
        (a.event.time, a.event.class, a.side == Side::Hypothesis, &a.event.speaker).cmp(&(
            b.event.time,
            b.event.class,
            b.side == Side::Hypothesis,
            &b.event.speaker,
        ))
    });
    let mut classes = Vec::new();
    for class in EventClass::ALL {
        let nr = re.iter().filter(|e| e.class == class).count();
        let nh = he.iter().filter(|e| e.class == class).count();
        let (sum, tp) = offsets.get(&class).copied().unwrap_or((0, 0));
        let mut c = ClassScore::from_counts(class, nr, nh, tp);
        c.offset_sum = sum;
        c.finish();
        for u in unmatched.iter().filter(|u| u.event.class == class) {
            c.blame.add(u.cause);
        }
        classes.push(c);
    }
    matched.sort_by(|a, b| {
        (a.class, a.reference, a.hypothesis).cmp(&(b.class, b.reference, b.hypothesis))
    });
    // The shares are those of the evaluated talk: with a UEM, of both sides' turns cut to it.
    let clipped = |tokens: &[score::prepare::ScoredTurn]| -> Vec<score::prepare::ScoredTurn> {
        tokens
            .iter()
            .flat_map(|&(s, k)| {
                score::prepare::crop_pieces(&p.evaluation, s).map(move |piece| (piece, k))
            })
            .collect()
    };
    let (rs, hs) = if p.from_uem {
        let names = |k: u32| p.reference_names[k as usize].clone();
        (
            Some(analyze(&transcript_of(&clipped(&p.reference), names), params)?),
            Some(analyze(
                &transcript_of(&clipped(&p.hypothesis), |k| hyp_name[k as usize].clone()),
                params,
            )?),
        )
    } else {
        (None, None)
    };
    let shares = (rs.as_ref().unwrap_or(&ra), hs.as_ref().unwrap_or(&ha));
    let distortion = distortion::of_recording(&ra, &ha, in_region, shares);
    let lanes = Lanes {
        reference: lanes_of(&p.reference, &p.reference_names, |k| p.reference_names[k].clone()),
        hypothesis: lanes_of(&p.hypothesis, &p.hypothesis_names, |k| hyp_name[k].clone()),
        errors: timeline.spans(),
    };
    Ok(Some(RecordingEvents {
        id: p.id.clone(),
        der,
        mapping: pairs,
        unmapped,
        classes,
        distortion,
        matched,
        unmatched,
        lanes,
    }))
}

/// Scores the events of recordings: each recording's reference and hypothesis analysed with
/// `params`, matched under `ev`, the DER mapping and region under `opts`.
pub fn score_events(
    inputs: &[RecordingInput],
    uem: Option<&BTreeMap<String, Region>>,
    opts: &ScoreOptions,
    params: &Params,
    ev: &EventOptions,
) -> Result<EventReport> {
    use rayon::prelude::*;
    params.validate()?;
    let uem_norm = uem.map(|u| normalise_uem(u, opts.uem_ids));
    let mut sorted: Vec<&RecordingInput> = inputs.iter().collect();
    sorted.sort_by(|a, b| a.id.cmp(&b.id));
    let scored: Vec<Result<Option<RecordingEvents>>> = sorted
        .par_iter()
        .map(|input| {
            let entry = uem_norm.as_ref().and_then(|u| u.get(&input.id));
            score_recording(input, entry, uem.is_some(), opts, params, ev)
        })
        .collect();
    let mut recordings = Vec::new();
    for r in scored {
        recordings.extend(r?);
    }
    let der = score::score_with(inputs, uem, opts, score::Metrics::DER_ONLY)?.der();
    Ok(assemble(recordings, ev, params, opts.collar.micros() as f64 / 1e6, der))
}

/// The corpus totals of per-recording event scores.
pub fn assemble(
    recordings: Vec<RecordingEvents>,
    ev: &EventOptions,
    params: &Params,
    collar: f64,
    der: Option<f64>,
) -> EventReport {
    let mut classes: Vec<ClassScore> =
        EventClass::ALL.iter().map(|&c| ClassScore::from_counts(c, 0, 0, 0)).collect();
    for r in &recordings {
        for (mine, theirs) in classes.iter_mut().zip(&r.classes) {
            mine.add(theirs);
        }
    }
    let mut total = ClassScore::default();
    for c in &classes {
        total.add(c);
    }
    let distortion = distortion::of_corpus(&recordings, ev);
    EventReport {
        schema_version: EVENTS_SCHEMA_VERSION,
        options: ev.clone(),
        params: params.clone(),
        collar,
        der,
        recordings,
        classes,
        total,
        distortion,
    }
}
