//! Conversation dynamics: talkspurts, Heldner & Edlund intervals, backchannels, the floor,
//! turns, onsets and interruptions — the staged algorithm of conversation-metrics.md §5.
//!
//! ```text
//! S1 normalise ─ S2 talkspurt ─ S3 joint ─ S4 intervals (acoustic)
//!   ─ S5 backchannel ─ S4' intervals (floor) ─ S6 floor ─ S7 turns ─ S8 onsets ─ S9 metrics
//! ```
//!
//! Two layers are always reported: *acoustic* (everything said) and *floor* (backchannels and
//! non-floor laughter removed; used for turns and interruptions). All times inside the
//! analysis are integer milliseconds ([`Millis`]), converted from the model's microseconds by
//! rounding half away from zero ([`Millis::from_time`], [`normalise::to_ms`]); speakers are
//! positions in the analysis' own speaker list ([`SpeakerIndex`]).
//!
//! ```
//! use overtalk::analysis::{analyze, Params};
//! use overtalk::{Segment, TranscriptBuilder};
//!
//! let mut b = TranscriptBuilder::new();
//! let ms = |a, z| Segment::from_millis(a, z).unwrap();
//! b.add(ms(0, 5000), "A", None).add(ms(4000, 6000), "B", None).add(ms(6500, 9000), "A", None);
//! let r = analyze(&b.build(), &Params::default()).unwrap();
//! assert_eq!(r.turns.len(), 3);
//! assert_eq!(r.speakers["B"].interruptions_made.map(|c| c.successful), Some(1));
//! ```

pub(crate) mod backchannel;
pub mod calibrated;
pub(crate) mod claims;
pub mod dyad;
pub mod floor;
pub mod intervals;
pub mod joint;
pub mod markers;
pub mod metrics;
pub mod normalise;
pub mod onsets;
pub mod params;
pub mod result;
pub mod rules;
pub(crate) mod shared;
pub mod stream;
pub mod talkspurt;
pub mod turn_order;
pub(crate) mod turns;
pub mod units;
pub mod warning;

pub use params::{AnalysisPreset, Classifier, Params};
pub use result::{Analysis, SCHEMA_VERSION};
pub use units::{Millis, SpeakerIndex};
pub use warning::AnalysisWarning;

use crate::error::Result;
use crate::model::Transcript;

/// `slice.partition_point(pred)`, found by stepping from `*pos` (the answer of the previous
/// call), which is then set to the answer. Stages that ask about instants in time order move a
/// few places per call instead of searching the whole list; after a few steps without reaching
/// the answer the rest is searched by bisection, so a jump costs no more than a search.
///
/// ```text
/// pred     T T T T T F F F
/// pos            ^ → → ^      previous answer 4, new answer 5
/// ```
pub(crate) fn seek<T>(slice: &[T], pos: &mut usize, pred: impl Fn(&T) -> bool) -> usize {
    const STEPS: usize = 8;
    let mut p = (*pos).min(slice.len());
    let mut steps = 0;
    while slice.get(p).is_some_and(&pred) {
        p += 1;
        steps += 1;
        if steps == STEPS {
            p += slice.get(p..).map_or(0, |rest| rest.partition_point(&pred));
            break;
        }
    }
    while p > 0 && !slice.get(p - 1).is_some_and(&pred) {
        p -= 1;
        steps += 1;
        if steps >= STEPS {
            p = slice.get(..p).map_or(0, |head| head.partition_point(&pred));
            break;
        }
    }
    *pos = p;
    p
}

/// Runs every stage on one conversation.
///
/// A transcript with estimated ends (start times only, [`crate::format::paragraphs`]) is
/// analysed in timing-only mode, since its words have no times, and the result says what rests
/// on the estimates ([`rules::assess`]).
pub fn analyze(transcript: &Transcript, params: &Params) -> Result<Analysis> {
    let mut a = if transcript.estimated_ends() > 0 {
        let mut a = analyze_times(&rules::without_text(transcript), params)?;
        annotate_estimated_times(transcript, params, &mut a);
        a
    } else {
        analyze_times(transcript, params)?
    };
    // Speech in the input, none after the parameters: said, not an empty result.
    let segments = transcript.annotation().len();
    if segments > 0 && a.talkspurts.is_empty() {
        a.diagnostics.warnings.push(AnalysisWarning::NothingLeft { segments });
    }
    Ok(a)
}

fn analyze_times(transcript: &Transcript, params: &Params) -> Result<Analysis> {
    params.validate()?;
    // S1
    let norm = normalise::normalise(transcript, &params.ignore_labels, params.min_segment);
    let n = norm.speakers.len();
    // S2
    let mut sp = talkspurt::talkspurts(&norm.segments, n, params.bridge_pause);
    // S3, S4 (acoustic)
    let joint = joint::joint_timeline(&sp.spurts, |_| true);
    // Both layers in one vector, acoustic first (a layer has at most one interval per piece of
    // its timeline; the floor layer usually has fewer pieces than the acoustic one).
    let mut he = Vec::with_capacity(joint.len() + 2);
    intervals::he_intervals_into(
        &joint,
        intervals::Layer::Acoustic,
        params.latch_tolerance,
        &mut he,
    );
    // S5 (rules) or S5′ (calibrated, §5.8)
    let calibrated = match params.classifier {
        Classifier::Rules => None,
        c => Some(calibrated::Calibrated::load(c, params.decision_horizon)?),
    };
    let mut decisions = calibrated::Decisions::default();
    // One timing index for S5′ and S8′ (it depends on the talkspurts' times, which S5′ keeps).
    let mut index = calibrated.map(|c| c.index(&sp.spurts, n));
    match (&calibrated, &mut index) {
        (Some(c), Some(ix)) => {
            decisions.p_backchannel = c.tag_backchannels(ix, &mut sp.spurts, params)
        }
        _ => backchannel::tag(&mut sp.spurts, n, params),
    }
    let spurts = &sp.spurts;
    // S4' (floor layer)
    let floor_joint = joint::joint_timeline(spurts, |s| s.floor);
    intervals::he_intervals_into(
        &floor_joint,
        intervals::Layer::Floor,
        params.latch_tolerance,
        &mut he,
    );
    // S6
    let floor_order: Vec<usize> = (0..spurts.len()).filter(|&i| spurts[i].floor).collect();
    let floor_by = backchannel::by_speaker(spurts, n, true);
    let claims = floor::claims(
        floor_order.iter().map(|&i| (i, spurts[i].speaker, spurts[i].start, spurts[i].end)),
        params.min_floor_solo,
    )?;
    // S7
    let span_end = spurts.iter().map(|s| s.end).max().unwrap_or(Millis::ZERO);
    let (turns, transfers) = turns::turns(spurts, &floor_by, &claims, span_end);
    // S8
    let mut onsets = onsets::classify(spurts, &floor_by, &floor_order, &claims, params);
    // S8′ (calibrated, §5.8)
    if let (Some(c), Some(ix)) = (&calibrated, &index) {
        decisions.p_onset = c.relabel_onsets(ix, spurts, params, &mut onsets);
    }
    let verbal =
        claims::find(spurts, &onsets, &params.verbal_claim_phrases, params.verbal_claim_window);
    // S9
    Ok(metrics::assemble(metrics::Stages {
        params,
        names: &norm.speakers,
        spurts,
        joint: &joint,
        he: &he,
        turns: &turns,
        transfers: &transfers,
        onsets: &onsets,
        verbal: &verbal,
        dropped_segments: norm.dropped_segments,
        same_speaker_overlaps: sp.same_speaker_overlaps,
        clamped_words: norm.clamped_words,
        talk_unbridged: &sp.talk_unbridged,
        calibrated: calibrated.is_some().then_some(&decisions),
    }))
}

/// Feature rows for fitting the calibrated classifier (`scripts/calibrate/train.py`): the
/// talkspurts and onsets as [`analyze`] makes them under `params` (a backchannel model already
/// in the model file is applied when `params.classifier` is calibrated; onsets keep the rule
/// classes), each with its feature vector at `params.decision_horizon`. Not a stable API.
#[doc(hidden)]
pub fn calibration_rows(transcript: &Transcript, params: &Params) -> Result<CalibrationRows> {
    params.validate()?;
    let norm = normalise::normalise(transcript, &params.ignore_labels, params.min_segment);
    let n = norm.speakers.len();
    let mut sp = talkspurt::talkspurts(&norm.segments, n, params.bridge_pause);
    let c = calibrated::Calibrated::load_partial(params.classifier, params.decision_horizon)?;
    let mut index = c.index(&sp.spurts, n);
    if params.classifier.is_calibrated() && c.has_backchannel_model() {
        c.tag_backchannels(&mut index, &mut sp.spurts, params);
    } else {
        backchannel::tag(&mut sp.spurts, n, params);
    }
    let spurts = &sp.spurts;
    let floor_order: Vec<usize> = (0..spurts.len()).filter(|&i| spurts[i].floor).collect();
    let floor_by = backchannel::by_speaker(spurts, n, true);
    let claims = floor::claims(
        floor_order.iter().map(|&i| (i, spurts[i].speaker, spurts[i].start, spurts[i].end)),
        params.min_floor_solo,
    )?;
    let onsets = onsets::classify(spurts, &floor_by, &floor_order, &claims, params);
    let (spurt_x, onset_x) = calibrated::training_rows(&index, spurts, params, &onsets);
    Ok(CalibrationRows {
        speakers: norm.speakers,
        spurts: spurts
            .iter()
            .zip(spurt_x)
            .map(|(s, x)| (s.speaker, s.start, s.end, s.backchannel, s.has_tokens, x))
            .collect(),
        onsets: onsets
            .into_iter()
            .zip(onset_x)
            .map(|(o, x)| (o.speaker, o.time, o.class, o.outcome, spurts[o.spurt].has_tokens, x))
            .collect(),
    })
}

/// What [`calibration_rows`] returns.
#[doc(hidden)]
#[derive(Debug)]
pub struct CalibrationRows {
    /// Speaker names (indices below).
    pub speakers: Vec<String>,
    /// Per talkspurt: speaker, start, end, tagged backchannel, has words, features.
    pub spurts: Vec<(SpeakerIndex, Millis, Millis, bool, bool, Vec<f64>)>,
    /// Per onset: speaker, time, class, outcome, has words, features (empty for an opening).
    pub onsets: Vec<(SpeakerIndex, Millis, onsets::OnsetClass, onsets::Outcome, bool, Vec<f64>)>,
}

/// Adds [`rules::assess`]'s findings to an analysis: the block itself, and notes in the diagnostics.
fn annotate_estimated_times(t: &Transcript, params: &Params, a: &mut Analysis) {
    // The words were set aside for the timing-only run, not lost: each speaker's count is
    // the one text mode makes (S1's tokens that are words), so `words` is what was said.
    let norm = normalise::normalise(t, &params.ignore_labels, params.min_segment);
    let mut words = vec![0usize; norm.speakers.len()];
    for seg in &norm.segments {
        words[seg.speaker.index()] += seg.tokens.iter().filter(|w| w.is_word()).count();
    }
    for (name, n) in norm.speakers.iter().zip(words) {
        if let Some(s) = a.speakers.get_mut(name) {
            s.words = n;
        }
    }
    let Some(e) = rules::assess(t) else { return };
    // Estimated ends meet the next start by construction: that is said once, as estimated
    // ends, not again as turns that touch.
    a.diagnostics.warnings.retain(|w| !matches!(w, AnalysisWarning::TouchingTurns { .. }));
    a.diagnostics.warnings.push(AnalysisWarning::EstimatedEnds {
        estimated_ends: e.estimated_ends,
        tracks: e.tracks,
        words_per_second: e.words_per_second,
        rest_on_estimated_ends: e.rest_on_estimated_ends.clone(),
    });
    a.diagnostics
        .warnings
        .push(AnalysisWarning::OverlapFromMarks { marked_overlaps: e.marked_overlaps.len() });
    // An overlap that cannot be measured is not zero: it is unknown, and so are its shares
    // and the counts of the onsets it decides (the interruptions, rule by rule, are in `e`).
    a.conversation.forget_overlap();
    a.conversation.counts.events.forget_timing();
    for s in a.speakers.values_mut() {
        s.forget_overlap();
        s.interruptions_made = None;
        s.interruptions_received = None;
    }
    a.pairs.clear();
    a.estimated_times = Some(e);
}
