//! S5′ and S8′ — the classifier calibrated on human labels (§5.8, extension).
//!
//! The structural rules (S5 conditions 1–5, S8 rules 1–3) are the published definitions; people
//! labelling real meetings disagree with them (docs/agreement.md). With
//! [`Classifier::Calibrated`](super::params::Classifier) two logistic regressions, fitted on the
//! ICSI MRDA train split by `scripts/calibrate/train.py`, replace two decisions:
//!
//! ```text
//! S5′  every talkspurt      → p(backchannel)             ≥ threshold ⇒ backchannel (non-floor)
//! S6–S8 the rules build the floor, the turns and the onsets from the floor talkspurts
//! S8′  every onset (holder) → p(interruption), p(failed attempt), p(other)
//!        interruption: `interruption` (holder talking) or `silent_interruption` (in silence)
//!        failed attempt: `interruption` with outcome `floor_kept`
//!        other: the rules' class, an `interruption` becoming `terminal_overlap` and a
//!        `silent_interruption` becoming `smooth_switch`
//! ```
//!
//! [`Classifier::Joint`](super::params::Classifier) makes S5′ a three-way decision, one model
//! over the same talkspurts: floor talk, backchannel, or a floor-taking attempt (a talkspurt
//! that starts an interruption or a failed attempt). Only a backchannel leaves the floor, so a
//! short attempt becomes an onset, which that variant's S8′ model (fitted on the onsets this
//! decision leaves) scores for its outcome:
//!
//! ```text
//! B's talkspurt   A ████████████████████████    A talking
//!                 B      ██                     400 ms, "but"
//! two-way S5′     p(bc) 0.55 ≥ 0.30             backchannel: no onset, no attempt
//! three-way S5′   p(bc) 0.40, p(attempt) 0.45   attempt beats backchannel: floor talkspurt,
//!                                               S8 makes an onset, S8′ scores it
//! ```
//!
//! Features come from timing alone (durations, gaps, what the reference speaker — the floor
//! holder for onsets — does after the onset, the last minute of talk) and, for talkspurts with
//! words, from the words (count, cue share, first word, the holder's completion points, and
//! how cut off the holder's and the talkspurt's own utterances sound where they end). A
//! trailing dash or em dash is never a feature (it encodes the human cut-off label): the
//! cut-off lexicon reads the last *word* of an utterance, fitted on train. Every
//! feature sees only evidence up to `decision_horizon` after the event's onset, so a live
//! monitor can decide that long after an onset; one model is fitted per horizon in
//! [`HORIZONS`]. Inference is a dot product and a softmax: deterministic, no allocation per
//! event beyond the feature vector.

use std::sync::OnceLock;

use rustc_hash::{FxHashMap, FxHashSet};
use serde::Deserialize;

use super::backchannel::by_speaker;
use super::normalise::WordToken;
use super::onsets::{OnsetClass, OnsetRec, Outcome};
use super::params::{Classifier, Params};
use super::talkspurt::Talkspurt;
use super::units::{Millis, SpeakerIndex};
use crate::error::{Error, Result};

pub use super::params::HORIZONS;

/// The fitted parameters (written by `scripts/calibrate/train.py`).
const MODEL_JSON: &str = include_str!("calibrated_model.json");

/// Features available from timing alone, in vector order.
pub const TIMING_FEATURES: &[&str] = &[
    "dur",
    "ended",
    "pre_gap",
    "post_gap",
    "prev_own_dur",
    "ref_talking",
    "ref_elapsed",
    "ref_gap",
    "ref_remaining",
    "ref_stops",
    "ref_stops_early",
    "ref_resumes",
    "ref_overlap_share",
    "others_talking",
    "own_recent_count",
    "own_recent_share",
    "ref_recent_share",
    "dur_sq",
    "ref_remaining_sq",
    "ref_prev_gap",
    "ref_talk_1s",
    "outlasts_ref",
    "stops_first",
    "own_since_long",
    "ref_mean_spurt",
];

/// Word features, appended to the timing features for talkspurts with words.
pub const WORD_FEATURES: &[&str] = &[
    "n_words",
    "cue_share",
    "first_cue",
    "first_forbidden",
    "all_cues",
    "ref_terminal_before",
    "ref_terminal_after",
    "ref_cut_before",
    "ref_cut_after",
    "own_cut",
    "ref_cut_met",
    "w_yeah",
    "w_uh_huh",
    "w_right",
    "w_okay",
    "w_oh",
    "w_so",
    "w_and",
    "w_but",
    "w_well",
    "w_i",
    "w_no",
    "w_um_uh",
    "w_what",
    "ref_question_before",
    "own_question",
    "second_cue",
    "first_utt_words",
    "ref_words_since_end",
    "ref_words_after_1s",
    "w_wait_sorry",
    "w_that_its",
    "w_exactly_sure",
    "w_huh_wow",
    "w_you_we",
    "w_question_word",
];

/// First words with their own feature (after `w_`), each a list of normalised spellings.
const FIRST_WORDS: &[&[&str]] = &[
    &["yeah", "yep", "yes", "yup"],
    &["uh-huh", "mm-hmm", "mm-hm", "mhm", "mhmm", "mmhmm", "uhhuh", "hmm", "mm"],
    &["right"],
    &["okay", "ok"],
    &["oh"],
    &["so"],
    &["and"],
    &["but"],
    &["well"],
    &["i", "i'm"],
    &["no"],
    &["um", "uh"],
    &["what"],
];

/// More first-word classes (after the scalar word features, `w_wait_sorry` to
/// `w_question_word`): words that open a floor-taking attempt or an answer rather than a
/// continuer.
const MORE_FIRST_WORDS: &[&[&str]] = &[
    &["wait", "sorry", "hold", "hang"],
    &["that", "it's", "that's", "it"],
    &["exactly", "sure", "true", "absolutely", "definitely", "totally"],
    &["huh", "wow", "whoa", "ah"],
    &["you", "we", "they"],
    &["why", "how", "where", "when", "who", "is", "do", "does", "did", "can", "are"],
];

/// The number of timing features and of word features.
const N_TIMING: usize = TIMING_FEATURES.len();
const N_WORDS: usize = WORD_FEATURES.len();

/// A feature vector of `N` values being filled in order: a fixed array, so a feature costs a
/// store (no capacity check per value, as a `Vec` push has).
struct Row<const N: usize> {
    values: [f64; N],
    filled: usize,
}

impl<const N: usize> Row<N> {
    fn new() -> Self {
        Row { values: [0.0; N], filled: 0 }
    }

    /// Sets the next feature.
    #[inline]
    fn push(&mut self, v: f64) {
        self.values[self.filled] = v;
        self.filled += 1;
    }

    /// The whole vector; every feature must have been set.
    fn full(&self) -> &[f64; N] {
        debug_assert_eq!(self.filled, N, "feature vector incomplete");
        &self.values
    }
}

/// The most classes a fitted model may have.
const MAX_CLASSES: usize = 3;
/// Look-back of the floor history features (ms).
const RECENT: i64 = 60_000;
/// Cap on every duration feature (ms): longer is "long".
const CAP: i64 = 30_000;
/// Tokens searched either side of the onset for the holder's completion points and utterance
/// ends, and from its start for the incoming talkspurt's first utterance end.
const TOKEN_REACH: usize = 64;

/// One fitted model: standardisation, then a softmax over `classes`.
#[derive(Debug, Deserialize)]
struct Fitted {
    task: String,
    mode: String,
    horizon_ms: Option<i64>,
    features: Vec<String>,
    mean: Vec<f64>,
    scale: Vec<f64>,
    classes: Vec<String>,
    coef: Vec<Vec<f64>>,
    intercept: Vec<f64>,
    /// Per class after the first: the probability at or above which the class is chosen.
    thresholds: Vec<f64>,
    /// The logits with the standardisation folded in and the first class's logit subtracted
    /// (the softmax is the same): class `c ≥ 1` has logit `folded_intercept[c − 1] +
    /// folded[c − 1] · x`, class 0 has logit 0. Set by [`Fitted::fold`].
    #[serde(skip)]
    folded: Vec<Vec<f64>>,
    #[serde(skip)]
    folded_intercept: Vec<f64>,
    /// Per feature of the model: its position in this build's vector, set by
    /// [`Fitted::check`] (empty before it: [`Fitted::fold`] then takes the weights in the
    /// build's order as they are). A model may read a subset of the features the build
    /// computes: its weights are scattered to those positions and the others get weight 0.
    #[serde(skip)]
    positions: Vec<usize>,
    /// The length of this build's feature vector for the model's task and mode.
    #[serde(skip)]
    width: usize,
}

/// How strongly the last word of an utterance says it was cut off, fitted on the train split
/// (`train.py words`): the smoothed log-odds that an utterance ending in that word carries the
/// human cut-off label. On train, utterances ending in "the", "it's", "a", "we" or "because"
/// are labelled cut off 30–45 % of the time and a word broken off with a hyphen 52 %, against
/// a base rate of 5.5 %; "idea", "sure", "stuff" almost never. Only the words are read, never
/// the mark itself.
#[derive(Debug, Default, Deserialize)]
struct CutWords {
    /// The log-odds of a word not in the table (the train split's base rate).
    prior: f64,
    /// Normalised word (§5.1) → log-odds.
    words: FxHashMap<String, f64>,
}

impl CutWords {
    /// The log-odds of an utterance ending in `word`.
    fn log_odds(&self, word: &str) -> f64 {
        self.words.get(word).copied().unwrap_or(self.prior)
    }
}

/// The cut-off lexicon's key of a word fragment ("w-", "the-"): never a normalised word,
/// whose edges are stripped of hyphens.
const FRAGMENT: &str = "-";

/// The lexicon key of `t` when an utterance ends with it: its normalised word when it is a
/// completion point (§5.1), [`FRAGMENT`] when a word broken off with a hyphen ends the
/// sentence ("w-.", "the-?"); `None` inside an utterance (a repair such as "go- going" is
/// not an end). The only dash read is a hyphen right after a letter or digit: never an em
/// dash, an en dash or `--`, the transcriber's own cut-off mark (which encodes the human
/// label the model learns).
fn utterance_end(t: &WordToken) -> Option<&str> {
    if t.terminal {
        return Some(t.norm.as_str());
    }
    let bare = t.raw.trim_end_matches(['.', '?', '!']);
    (bare.len() < t.raw.len() && broken_off(bare)).then_some(FRAGMENT)
}

/// Whether a completion point is a question: its token ends in `?`, the closing quotes and
/// brackets that [`is_terminal`](crate::analysis::normalise::is_terminal) allows after it
/// allowed too (`why?’`, `«why?»`).
fn is_question(t: &WordToken) -> bool {
    crate::analysis::normalise::without_closers(&t.raw).ends_with('?')
}

/// Whether `raw` is a word broken off with a hyphen ("w-", "the-"): a hyphen right after a
/// letter or digit.
fn broken_off(raw: &str) -> bool {
    raw.strip_suffix('-').and_then(|w| w.chars().next_back()).is_some_and(char::is_alphanumeric)
}

/// The lexicon key of the last token of a talkspurt that has stopped and is no
/// [`utterance_end`]: a word broken off ("w-" without punctuation is [`FRAGMENT`]), else the
/// word itself; `None` for a token that is not a word (laughter).
fn stopped_at(t: &WordToken) -> Option<&str> {
    if broken_off(&t.raw) {
        Some(FRAGMENT)
    } else {
        t.is_word().then_some(t.norm.as_str())
    }
}

/// The lexicon key of the first utterance end among `q`'s tokens from `from` that a decision
/// at `lim` can see: a completion point or fragment ([`utterance_end`]), or the last word of
/// the talkspurt once it has ended by `lim` (unpunctuated captions end an utterance only by
/// stopping). At most [`TOKEN_REACH`] tokens are searched.
///
/// ```text
/// q's tokens   so  the  plan  is  that  we  leave  early  and ]   talkspurt ends, no "."
///                                            from ─┘           └─ end: "and" (cut-prone)
/// ```
fn first_end(q: &Talkspurt, from: usize, lim: i64) -> Option<&str> {
    let last = q.tokens.len().checked_sub(1)?;
    for (k, t) in q.tokens.iter().enumerate().skip(from).take(TOKEN_REACH) {
        if t.end.get() > lim {
            return None;
        }
        if let Some(key) = utterance_end(t) {
            return Some(key);
        }
        if k == last && q.end.get() <= lim {
            return stopped_at(t);
        }
    }
    None
}

/// The lexicon key of the last utterance end among `q`'s first `to` tokens (those ended by
/// the onset): a completion point or fragment, or the talkspurt's last word when it had
/// `stopped` by the onset (a last token that is no word, such as laughter, is passed over).
fn last_end(q: &Talkspurt, to: usize, stopped: bool) -> Option<&str> {
    let seen = &q.tokens[..to.min(q.tokens.len())];
    if stopped && seen.len() == q.tokens.len() {
        if let Some(key) = seen.last().and_then(|t| utterance_end(t).or_else(|| stopped_at(t))) {
            return Some(key);
        }
    }
    seen.iter().rev().take(TOKEN_REACH).find_map(utterance_end)
}

/// The model file.
#[derive(Debug, Deserialize)]
struct ModelFile {
    models: Vec<Fitted>,
    /// The cut-off lexicon the text features read (required with text-mode models).
    #[serde(default)]
    cut_words: CutWords,
}

impl Fitted {
    /// Checks the shapes against the features this build computes, and finds where each of
    /// the model's features is in this build's vector: a model reads any subset of them (each
    /// at most once), so a model fitted before a feature was added keeps its decisions.
    fn check(&mut self) -> Result<()> {
        let want = feature_names(self.task.ends_with("onset"), self.mode == "text");
        let k = self.classes.len();
        let n = self.features.len();
        let positions: Option<Vec<usize>> =
            self.features.iter().map(|f| want.iter().position(|w| w == f)).collect();
        let unique = positions.as_ref().is_some_and(|p| {
            let mut seen = vec![false; want.len()];
            p.iter().all(|&i| !std::mem::replace(&mut seen[i], true))
        });
        let ok = unique
            && n > 0
            && self.mean.len() == n
            && self.scale.len() == n
            && self.scale.iter().all(|s| s.is_finite() && *s > 0.0)
            && self.coef.len() == k
            && self.coef.iter().all(|r| r.len() == n)
            && self.intercept.len() == k
            && (2..=MAX_CLASSES).contains(&k)
            && self.thresholds.len() + 1 == k;
        if ok {
            self.positions = positions.unwrap_or_default();
            self.width = want.len();
            Ok(())
        } else {
            Err(Error::invalid(format!(
                "calibrated model {}/{} (horizon {:?}) does not match this build's features",
                self.task, self.mode, self.horizon_ms
            )))
        }
    }

    /// Folds the standardisation into the weights and subtracts the first class's logit:
    ///
    /// ```text
    /// z_c = b_c + Σ w_ci (x_i − m_i) / s_i
    /// z_c − z_0 = (b_c − b_0 − Σ (w_ci − w_0i) m_i / s_i) + Σ ((w_ci − w_0i) / s_i) x_i
    /// ```
    ///
    /// so a probability costs one multiply-add per feature and class after the first.
    fn fold(&mut self) {
        let k = self.coef.len();
        let w0 = &self.coef[0];
        self.folded = Vec::with_capacity(k - 1);
        self.folded_intercept = Vec::with_capacity(k - 1);
        for c in 1..k {
            let w: Vec<f64> = self.coef[c]
                .iter()
                .zip(w0)
                .zip(&self.scale)
                .map(|((wc, w0), s)| (wc - w0) / s)
                .collect();
            let shift: f64 = w.iter().zip(&self.mean).map(|(w, m)| w * m).sum();
            self.folded_intercept.push(self.intercept[c] - self.intercept[0] - shift);
            if self.positions.is_empty() {
                self.folded.push(w);
            } else {
                // Scattered to this build's positions; a feature the model does not read
                // gets weight 0 (its term adds nothing: every feature is finite).
                let mut full = vec![0.0; self.width];
                for (v, &i) in w.into_iter().zip(&self.positions) {
                    full[i] = v;
                }
                self.folded.push(full);
            }
        }
    }

    /// Class probabilities of one feature vector (the first `classes.len()` entries; the
    /// model file is checked to have at most [`MAX_CLASSES`]), without allocating.
    fn probabilities(&self, x: &[f64]) -> [f64; MAX_CLASSES] {
        self.probabilities_of(x, &[])
    }

    /// Class probabilities of the feature vector `head` followed by `tail`, so S8′ can score
    /// the row S5′ computed followed by the onset's rule facts without copying the row.
    ///
    /// The softmax of the logits `(0, z_1, …)`: each term `exp(z_c − max z)`, the largest one
    /// exactly 1 (one `exp` fewer), over their sum. The two- and three-class models (all a
    /// model file may hold) have it spelled out; every path does the same operations in the
    /// same order, so the results are the same to the bit.
    #[inline(always)]
    fn probabilities_of(&self, head: &[f64], tail: &[f64]) -> [f64; MAX_CLASSES] {
        // One sum in feature order over the two parts: the additions `Sum` makes over one
        // vector (from −0.0), in the same order.
        let logit = |w: &[f64], b: f64| {
            let (w_head, w_tail) = w.split_at(head.len().min(w.len()));
            b + dot(w_tail, tail, dot(w_head, head, -0.0))
        };
        let term = |l: f64, top: f64| if l == top { 1.0 } else { (l - top).exp() };
        match (self.folded.as_slice(), self.folded_intercept.as_slice()) {
            ([w], [b]) => {
                let z = logit(w, *b);
                let top = f64::NEG_INFINITY.max(0.0).max(z);
                let (p0, p1) = (term(0.0, top), term(z, top));
                let sum = 0.0 + p0 + p1;
                [p0 / sum, p1 / sum, 0.0]
            }
            ([w1, w2], [b1, b2]) => {
                let (z1, z2) = (logit(w1, *b1), logit(w2, *b2));
                let top = f64::NEG_INFINITY.max(0.0).max(z1).max(z2);
                let (p0, p1, p2) = (term(0.0, top), term(z1, top), term(z2, top));
                let sum = 0.0 + p0 + p1 + p2;
                [p0 / sum, p1 / sum, p2 / sum]
            }
            _ => self.probabilities_general(head, tail),
        }
    }

    /// [`Fitted::probabilities_of`] for any number of classes up to [`MAX_CLASSES`].
    fn probabilities_general(&self, head: &[f64], tail: &[f64]) -> [f64; MAX_CLASSES] {
        let k = self.folded.len() + 1;
        let mut p = [0.0; MAX_CLASSES];
        for (c, (w, b)) in self.folded.iter().zip(&self.folded_intercept).enumerate() {
            // One sum in feature order over the two parts: the additions `Sum` makes over one
            // vector (from −0.0), in the same order, so the result is the same to the bit.
            let (w_head, w_tail) = w.split_at(head.len().min(w.len()));
            p[c + 1] = b + dot(w_tail, tail, dot(w_head, head, -0.0));
        }
        let p = &mut p[..k.min(MAX_CLASSES)];
        let mut top = f64::NEG_INFINITY;
        for &l in p.iter() {
            top = top.max(l);
        }
        // The class whose logit is the largest has `exp(0) = 1` exactly: one `exp` fewer.
        let mut z = 0.0;
        for l in p.iter_mut() {
            *l = if *l == top { 1.0 } else { (*l - top).exp() };
            z += *l;
        }
        let mut out = [0.0; MAX_CLASSES];
        for (o, v) in out.iter_mut().zip(p.iter()) {
            *o = v / z;
        }
        out
    }

    /// The chosen class index: the most probable class after the first whose probability
    /// reaches its threshold, else 0.
    fn decide(&self, p: &[f64]) -> usize {
        let mut best = 0;
        for (c, thr) in self.thresholds.iter().enumerate() {
            let c = c + 1;
            if p[c] >= *thr && (best == 0 || p[c] > p[best]) {
                best = c;
            }
        }
        best
    }
}

/// `sum + Σ w_i x_i`, added one term at a time in index order (the order, and so the bits, of
/// an iterator's sum).
#[inline]
fn dot(w: &[f64], x: &[f64], mut sum: f64) -> f64 {
    let n = w.len().min(x.len());
    let (w, x) = (&w[..n], &x[..n]);
    for i in 0..n {
        sum += w[i] * x[i];
    }
    sum
}

/// The feature names of a model: timing, then words (text mode), for talkspurts or onsets.
pub fn feature_names(onset: bool, words: bool) -> Vec<&'static str> {
    let mut v: Vec<&'static str> = TIMING_FEATURES.to_vec();
    if words {
        v.extend_from_slice(WORD_FEATURES);
    }
    if onset {
        v.extend_from_slice(&["simultaneous", "opening_like"]);
    }
    v
}

/// The model file in use: the one compiled in, unless [`use_model_file`] was called first.
static MODELS: OnceLock<std::result::Result<ModelFile, String>> = OnceLock::new();

fn parse_models(json: &str) -> std::result::Result<ModelFile, String> {
    let mut f: ModelFile =
        serde_json::from_str(json).map_err(|e| format!("calibrated model file: {e}"))?;
    for m in &mut f.models {
        m.check().map_err(|e| e.to_string())?;
        m.fold();
    }
    // Text models were fitted on the lexicon's values: without it every word would read 0,
    // far from the base rate they learned, and shift every text decision silently.
    if f.cut_words.words.is_empty() && f.models.iter().any(|m| m.mode == "text") {
        return Err("calibrated model file: text-mode models without the cut-off lexicon \
                    (`cut_words`, written by train.py words)"
            .to_owned());
    }
    Ok(f)
}

/// Uses `json` instead of the compiled-in model file for the rest of the process, so that
/// fitting (`scripts/calibrate/train.py`, through `examples/calibration_rows --model FILE`)
/// can apply a model it has just written without rebuilding. An error when the file does not
/// match this build's features or a model is already in use. Not part of the stable API.
#[doc(hidden)]
pub fn use_model_file(json: &str) -> Result<()> {
    let parsed = parse_models(json).map_err(Error::invalid)?;
    MODELS
        .set(Ok(parsed))
        .map_err(|_| Error::invalid("a calibrated model file is already in use".to_owned()))
}

fn model_file() -> Result<&'static ModelFile> {
    let file = MODELS.get_or_init(|| parse_models(MODEL_JSON));
    file.as_ref().map_err(|e| Error::invalid(e.clone()))
}

fn models() -> Result<&'static [Fitted]> {
    model_file().map(|f| f.models.as_slice())
}

/// The cut-off lexicon of the model file in use (empty when the file cannot be read: the
/// models, which fail then too, report why).
fn cut_words() -> &'static CutWords {
    static EMPTY: OnceLock<CutWords> = OnceLock::new();
    model_file().map_or_else(|_| EMPTY.get_or_init(CutWords::default), |f| &f.cut_words)
}

/// The model file's task names of a calibrated classifier: its talkspurt model and its onset
/// model. The joint variant's talkspurt model has three classes (other, backchannel, attempt)
/// and its onset model is fitted on the onsets that model leaves.
fn tasks(classifier: Classifier) -> (&'static str, &'static str) {
    match classifier {
        Classifier::Joint => ("joint_backchannel", "joint_onset"),
        _ => ("backchannel", "onset"),
    }
}

/// The four models of one classifier and horizon (talkspurt and onset, timing and text).
#[derive(Clone, Copy, Debug)]
pub struct Calibrated {
    horizon: Option<i64>,
    bc: [Option<&'static Fitted>; 2],
    onset: [Option<&'static Fitted>; 2],
}

/// The calibrated decisions, for the result (`p_backchannel`, `p_interruption`,
/// `p_failed_attempt`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decisions {
    /// Per talkspurt: the probability that it is a backchannel.
    pub p_backchannel: Vec<f64>,
    /// Per onset: the probabilities of an interruption and of a failed attempt.
    pub p_onset: Vec<Option<[f64; 2]>>,
}

impl Calibrated {
    /// The models of `classifier` (calibrated or joint) fitted for `horizon`; an error when
    /// the model file lacks any of them.
    pub fn load(classifier: Classifier, horizon: Option<Millis>) -> Result<Calibrated> {
        let c = Calibrated::load_partial(classifier, horizon)?;
        if c.bc.iter().chain(&c.onset).any(Option::is_none) {
            return Err(Error::invalid(format!(
                "no calibrated classifier fitted for decision horizon {}",
                horizon.map_or("unbounded".to_owned(), |h| format!("{h} ms"))
            )));
        }
        Ok(c)
    }

    /// Whatever the model file has for `horizon` (training extracts features before the onset
    /// models exist).
    pub fn load_partial(classifier: Classifier, horizon: Option<Millis>) -> Result<Calibrated> {
        let horizon = horizon.map(Millis::get);
        let all = models()?;
        let find = |task: &str, mode: &str| {
            all.iter().find(|m| m.task == task && m.mode == mode && m.horizon_ms == horizon)
        };
        let (bc, onset) = tasks(classifier);
        Ok(Calibrated {
            horizon,
            bc: [find(bc, "timing"), find(bc, "text")],
            onset: [find(onset, "timing"), find(onset, "text")],
        })
    }

    /// The timing index of `spurts` (sorted by start, `n_speakers` speakers) for this
    /// classifier's decision horizon, to hand to [`Calibrated::tag_backchannels`] and
    /// [`Calibrated::relabel_onsets`].
    pub fn index(&self, spurts: &[Talkspurt], n_speakers: usize) -> Index {
        Index::new(spurts, n_speakers, self.horizon.map(Millis::new))
    }

    /// Whether a backchannel model is present (else S5 keeps the rules).
    pub fn has_backchannel_model(&self) -> bool {
        self.bc.iter().all(Option::is_some)
    }

    /// Whether an onset model is present (else S8 keeps the rules).
    pub fn has_onset_model(&self) -> bool {
        self.onset.iter().all(Option::is_some)
    }

    /// S5′: sets `backchannel` and `floor` on every talkspurt from the backchannel model;
    /// returns the probabilities.
    ///
    /// The feature rows are kept in `ix` for S8′, which reuses a row when the onset's floor
    /// holder is the reference speaker found by timing (the same vector, computed once).
    pub fn tag_backchannels(
        &self,
        ix: &mut Index,
        spurts: &mut [Talkspurt],
        p: &Params,
    ) -> Vec<f64> {
        let ctx = Context::new(spurts, ix, p);
        let mut probs = Vec::with_capacity(spurts.len());
        let mut tags = Vec::with_capacity(spurts.len());
        // The rows kept for S8′, allocated once at their final size.
        let dim = |m: Option<&Fitted>| m.map_or(0, |m| m.width);
        let (timing, text) = (dim(self.bc[0]), dim(self.bc[1]));
        let mut rows = Vec::with_capacity(
            spurts.iter().map(|s| if s.has_tokens { text } else { timing }).sum(),
        );
        let mut row_at = Vec::with_capacity(spurts.len() + 1);
        for (i, s) in spurts.iter().enumerate() {
            row_at.push(rows.len());
            let words = s.has_tokens;
            let Some(m) = self.bc[usize::from(words)] else {
                probs.push(0.0);
                tags.push(false);
                continue;
            };
            let at = rows.len();
            ctx.features(i, None, words, &mut rows);
            let pr = m.probabilities(&rows[at..]);
            tags.push(m.decide(&pr) == 1);
            probs.push(pr[1]);
        }
        row_at.push(rows.len());
        ix.rows = rows;
        ix.row_at = row_at;
        // A backchannel answers someone: before anyone else has spoken there is nothing to
        // answer (the opening words, a recording of one speaker), whatever the model says.
        // And it is brief: the model, which reads durations through its features, may
        // extrapolate to long talkspurts (a 21 s stretch of a child's whining); none longer
        // than BC_CEILING × `bc_max_duration`, as far as the decision horizon lets it be
        // seen, is one.
        let ceiling = p.bc_max_duration.get().saturating_mul(BC_CEILING);
        let tagged = tags.iter_mut().zip(&mut probs).zip(someone_spoke(spurts)).zip(spurts.iter());
        for (((tag, pr), answers), s) in tagged {
            let seen = s.end.get().min(decision_time(s.start.get(), self.horizon)) - s.start.get();
            if !answers || seen > ceiling {
                *tag = false;
                *pr = 0.0;
            }
        }
        for (s, bc) in spurts.iter_mut().zip(tags) {
            s.backchannel = bc;
            s.floor = !(bc || (s.laughter && !p.laughter_is_floor));
        }
        probs
    }

    /// S8′: relabels the onsets from the onset model; returns per onset the probabilities of
    /// an interruption and of a failed attempt.
    pub fn relabel_onsets(
        &self,
        ix: &Index,
        spurts: &[Talkspurt],
        p: &Params,
        onsets: &mut [OnsetRec],
    ) -> Vec<Option<[f64; 2]>> {
        let ctx = Context::new(spurts, ix, p);
        let mut x = Vec::new();
        let mut out = Vec::with_capacity(onsets.len());
        for o in onsets.iter_mut() {
            let words = spurts[o.spurt].has_tokens;
            let (Some(m), Some(_)) = (self.onset[usize::from(words)], o.holder) else {
                out.push(None);
                continue;
            };
            let (head, tail) = ctx.onset_features(o, words, &mut x);
            let pr = m.probabilities_of(head, &tail);
            out.push(Some([pr[1], pr[2]]));
            let holder_talking = head[5] > 0.5;
            match m.decide(&pr) {
                1 => {
                    o.class = if holder_talking {
                        OnsetClass::Interruption
                    } else {
                        OnsetClass::SilentInterruption
                    };
                }
                2 => {
                    o.class = OnsetClass::Interruption;
                    o.outcome = Outcome::FloorKept;
                }
                _ => {
                    o.class = match o.class {
                        OnsetClass::Interruption => OnsetClass::TerminalOverlap,
                        OnsetClass::SilentInterruption => OnsetClass::SmoothSwitch,
                        c => c,
                    };
                }
            }
            // `partner` belongs to a simultaneous start only (§5.7): a simultaneous start the
            // model calls an interruption or a failed attempt no longer has one.
            if o.class != OnsetClass::SimultaneousStart {
                o.partner = None;
            }
        }
        out
    }
}

/// Feature vectors of one conversation for training (`scripts/calibrate/train.py`): per
/// talkspurt and per onset, with the onset's rule class. Not part of the stable API.
#[doc(hidden)]
pub fn training_rows(
    ix: &Index,
    spurts: &[Talkspurt],
    p: &Params,
    onsets: &[OnsetRec],
) -> (Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let ctx = Context::new(spurts, ix, p);
    let mut spurt_rows = Vec::with_capacity(spurts.len());
    for (i, s) in spurts.iter().enumerate() {
        let mut x = Vec::new();
        ctx.features(i, None, s.has_tokens, &mut x);
        spurt_rows.push(x);
    }
    let mut onset_rows = Vec::with_capacity(onsets.len());
    for o in onsets {
        let mut x = Vec::new();
        if o.holder.is_some() {
            let mut row = Vec::new();
            let (head, tail) = ctx.onset_features(o, spurts[o.spurt].has_tokens, &mut row);
            x.extend_from_slice(head);
            x.extend_from_slice(&tail);
        }
        onset_rows.push(x);
    }
    (spurt_rows, onset_rows)
}

/// The timing index the features need, built once per conversation and decision horizon and
/// shared by S5′ and S8′: the talkspurts per speaker, prefix sums of their durations, and per
/// talkspurt the facts of its onset that do not depend on a chosen reference speaker. It reads
/// the talkspurts' times only (not the backchannel tags S5′ sets), so S8′ reuses it.
#[derive(Debug)]
pub struct Index {
    /// The decision horizon the features are computed for (`None`: unbounded).
    horizon: Option<i64>,
    by: Vec<Vec<usize>>,
    /// Per speaker: the starts and the ends of its talkspurts (in `by` order).
    starts: Vec<Vec<i64>>,
    ends: Vec<Vec<i64>>,
    /// Per speaker: prefix sums of the durations of its talkspurts (in `by` order).
    own_sum: Vec<Vec<i64>>,
    /// Position of each talkspurt in its speaker's list.
    pos: Vec<usize>,
    /// Per talkspurt: what the other speakers are doing at its onset.
    at: Vec<Onset>,
    /// The feature rows of S5′ (no holder given), one after the other; talkspurt `i`'s is
    /// `rows[row_at[i]..row_at[i + 1]]` (empty before S5′ has run).
    rows: Vec<f64>,
    row_at: Vec<usize>,
}

/// The onset facts of one talkspurt, found in one sweep over the talkspurts.
#[derive(Clone, Copy, Debug, Default)]
struct Onset {
    /// The reference speaker found by timing ([`Index::new`]) and its latest talkspurt starting
    /// at or before the onset (index into `by`).
    reference: Option<(usize, Option<usize>)>,
    /// Other speakers talking at the onset.
    others: usize,
    /// The speaker's own talkspurts starting before the onset minus [`RECENT`].
    own_old: usize,
    /// Talk of the talkspurts starting in `[onset − RECENT, onset)`, each counted up to the
    /// decision time ([`after_lim`]): the speaker's own, everyone's, the reference's.
    own_recent: i64,
    all_recent: i64,
    ref_recent: i64,
}

/// Per-speaker cursors over the talkspurt starts for the last minute's talk at a time that
/// never decreases: `before[y]` and `old[y]` count speaker y's talkspurts starting before `t`
/// and before `t − RECENT`, moved forward only when y is asked about (so each moves at most
/// n places in all).
struct Window<'s> {
    starts: &'s [Vec<i64>],
    own_sum: &'s [Vec<i64>],
    before: Vec<usize>,
    old: Vec<usize>,
}

impl Window<'_> {
    /// Talk of y's talkspurts starting in `[t − RECENT, t)`, and how many start earlier.
    #[inline]
    fn talk(&mut self, y: usize, t: i64) -> (i64, usize) {
        let st = &self.starts[y];
        let (mut b, mut o) = (self.before[y], self.old[y]);
        while b < st.len() && st[b] < t {
            b += 1;
        }
        while o < st.len() && st[o] < t - RECENT {
            o += 1;
        }
        (self.before[y], self.old[y]) = (b, o);
        let sum = &self.own_sum[y];
        (sum[b] - sum[o.min(b)], o)
    }
}

/// How much of a talkspurt's length the floor-history sums leave out for a decision at `lim`:
/// the part after `lim` of a talkspurt that started in the look-back window but is still
/// running then.
///
/// ```text
/// onset t0, horizon h      t0 − RECENT        t0     lim = t0 + h
/// holder A                      [─────────────┼────────┼───────)   counted: [start, lim)
/// left out                                             ├───────┤   (A's end is not known live)
/// ```
///
/// With the unbounded horizon `lim` is `i64::MAX` and nothing is left out: that decision is
/// taken offline, where every other feature reads the whole conversation too (the holder's
/// remaining talk, its stop, its resumption), so the whole talkspurts are the evidence.
fn after_lim(end: i64, lim: i64) -> i64 {
    end.saturating_sub(lim).max(0)
}

/// The decision time of an event starting at `t0`: `t0` + horizon, or never (unbounded).
fn decision_time(t0: i64, horizon: Option<i64>) -> i64 {
    horizon.map_or(i64::MAX, |h| t0.saturating_add(h))
}

impl Index {
    /// The index of `spurts` (sorted by start) spoken by `n_speakers` speakers for decisions at
    /// `horizon` after each onset: one sweep in time order with per-speaker cursors,
    /// O(n · speakers).
    ///
    /// The reference speaker of a talkspurt (used when no floor holder is given) is the other
    /// speaker talking at its onset for the longest, else the one who stopped last before it.
    /// The last minute's talk counts each talkspurt up to the decision time only, so a
    /// decision reads nothing a live monitor cannot know at that time (`after_lim`).
    pub fn new(spurts: &[Talkspurt], n_speakers: usize, horizon: Option<Millis>) -> Index {
        let horizon = horizon.map(Millis::get);
        let by = by_speaker(spurts, n_speakers, false);
        let mut pos = vec![0; spurts.len()];
        // Per speaker, in `by` order: the starts and ends (compact, so the cursors below read
        // two arrays instead of the talkspurts) and the prefix sums of the durations.
        let mut starts = Vec::with_capacity(n_speakers);
        let mut ends = Vec::with_capacity(n_speakers);
        let mut own_sum = Vec::with_capacity(n_speakers);
        for own in &by {
            let (mut st, mut en) = (Vec::with_capacity(own.len()), Vec::with_capacity(own.len()));
            let mut acc = Vec::with_capacity(own.len() + 1);
            acc.push(0i64);
            let mut total = 0i64;
            for (k, &i) in own.iter().enumerate() {
                pos[i] = k;
                let q = &spurts[i];
                st.push(q.start.get());
                en.push(q.end.get());
                total = total.saturating_add(q.dur().get());
                acc.push(total);
            }
            starts.push(st);
            ends.push(en);
            own_sum.push(acc);
        }
        let all_starts: Vec<i64> = spurts.iter().map(|s| s.start.get()).collect();
        let mut all_sum = Vec::with_capacity(spurts.len() + 1);
        all_sum.push(0i64);
        let mut total = 0i64;
        for s in spurts {
            total = total.saturating_add(s.dur().get());
            all_sum.push(total);
        }
        // latest[y]: speaker y's latest talkspurt starting at or before t (index into `by`),
        // kept by walking the talkspurts in start order; the window's cursors likewise (t
        // never decreases, so every cursor moves at most n places in all).
        let mut latest: Vec<Option<usize>> = vec![None; n_speakers];
        let mut window = Window {
            starts: &starts,
            own_sum: &own_sum,
            before: vec![0; n_speakers],
            old: vec![0; n_speakers],
        };
        let (mut walked, mut all_before, mut all_old) = (0, 0, 0);
        let mut at = Vec::with_capacity(spurts.len());
        let bounded = horizon.is_some();
        for s in spurts {
            let (t, me) = (s.start.get(), s.speaker.index());
            let lim = decision_time(t, horizon);
            while walked < spurts.len() && all_starts[walked] <= t {
                latest[spurts[walked].speaker.index()] = Some(pos[walked]);
                walked += 1;
            }
            while all_before < spurts.len() && all_starts[all_before] < t {
                all_before += 1;
            }
            while all_old < spurts.len() && all_starts[all_old] < t - RECENT {
                all_old += 1;
            }
            // The talk after the decision time of speaker y's talkspurts in the window: only
            // the latest one starting before t can still be running at t (a speaker's
            // talkspurts do not overlap), so only that one can run past the decision time.
            let late = |y: usize, k: usize| {
                let start = starts[y][k];
                if start < t && start >= t - RECENT {
                    after_lim(ends[y][k], lim)
                } else {
                    0
                }
            };
            let mut talking: Option<(i64, usize)> = None;
            let mut ended: Option<(i64, usize)> = None;
            let (mut others, mut all_late) = (0, 0);
            for (y, k) in latest.iter().enumerate() {
                let Some(k) = *k else { continue };
                if bounded {
                    all_late += late(y, k);
                }
                if y == me {
                    continue;
                }
                let (start, end) = (starts[y][k], ends[y][k]);
                if end > t {
                    others += 1;
                    if talking.is_none_or(|(st, _)| start < st) {
                        talking = Some((start, y));
                    }
                } else if ended.is_none_or(|(e, _)| end > e) {
                    ended = Some((end, y));
                }
            }
            let mut recent = |y: usize| window.talk(y, t);
            let reference = talking.or(ended).map(|(_, y)| y);
            // The speaker's own talkspurts before t have ended by t: nothing of them is late.
            let (own_recent, own_old) = recent(me);
            let ref_recent = reference.map_or(0, |y| {
                let talk = recent(y).0;
                match latest[y] {
                    Some(k) if bounded => talk - late(y, k),
                    _ => talk,
                }
            });
            at.push(Onset {
                reference: reference.map(|y| (y, latest[y])),
                others,
                own_old,
                own_recent,
                all_recent: all_sum[all_before] - all_sum[all_old.min(all_before)] - all_late,
                ref_recent,
            });
        }
        Index { horizon, by, starts, ends, own_sum, pos, at, rows: Vec::new(), row_at: Vec::new() }
    }

    /// The latest talkspurt of speaker `y` starting at or before `t` (index into `by[y]`).
    fn latest(&self, y: usize, t: i64) -> Option<usize> {
        self.starts[y].partition_point(|&start| start <= t).checked_sub(1)
    }

    /// Talk of the talkspurts of speaker `y` starting in `[t − RECENT, t)`, up to the
    /// decision time `lim` (only the latest can run past it).
    fn recent_talk(&self, y: usize, t: i64, lim: i64) -> i64 {
        let starts = &self.starts[y];
        let lo = starts.partition_point(|&start| start < t - RECENT);
        let hi = starts.partition_point(|&start| start < t);
        let late = if hi > lo { after_lim(self.ends[y][hi - 1], lim) } else { 0 };
        self.own_sum[y][hi] - self.own_sum[y][lo.min(hi)] - late
    }
}

/// What the features of one stage read: the shared [`Index`] and the talkspurts.
struct Context<'a> {
    spurts: &'a [Talkspurt],
    ix: &'a Index,
    /// The backchannel cue words and the forbidden first words (`Params`), as sets: a word
    /// feature looks every visible word up.
    lexicon: FxHashSet<&'a str>,
    forbidden: FxHashSet<&'a str>,
    cut_words: &'a CutWords,
    /// The table [`secs`] reads, fetched once per stage.
    secs: &'static [f64],
    horizon: Option<i64>,
}

/// `ln(1 + ms / 1000)` of a duration capped at [`CAP`], from a table of every whole
/// millisecond (the features take it about ten times per event; the table holds the very
/// values `ln_1p` gives).
fn secs(ms: i64) -> f64 {
    secs_table()[ms.clamp(0, CAP) as usize]
}

/// The table of [`secs`], indexed by whole milliseconds `0..=CAP`.
fn secs_table() -> &'static [f64] {
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    TABLE.get_or_init(|| (0..=CAP).map(|ms| (ms as f64 / 1000.0).ln_1p()).collect())
}

/// `ln(1 + n)` of a count, from a table of the counts a minute of talk usually holds (the
/// very values `ln_1p` gives; larger counts are computed).
fn ln_1p_count(n: usize) -> f64 {
    const SMALL: usize = 256;
    static TABLE: OnceLock<Vec<f64>> = OnceLock::new();
    let table = TABLE.get_or_init(|| (0..SMALL).map(|n| (n as f64).ln_1p()).collect());
    table.get(n).copied().unwrap_or_else(|| (n as f64).ln_1p())
}

fn flag(b: bool) -> f64 {
    if b {
        1.0
    } else {
        0.0
    }
}

impl<'a> Context<'a> {
    /// The context of `ix` (its talkspurts and decision horizon) under `p`'s word lists.
    fn new(spurts: &'a [Talkspurt], ix: &'a Index, p: &'a Params) -> Context<'a> {
        let set = |words: &'a [String]| words.iter().map(String::as_str).collect();
        let (lexicon, forbidden) = (set(&p.bc_lexicon), set(&p.bc_forbidden_first));
        let (cut_words, secs, horizon) = (cut_words(), secs_table(), ix.horizon);
        Context { spurts, ix, lexicon, forbidden, cut_words, secs, horizon }
    }

    /// The feature vector of talkspurt `i` against reference speaker `r` (`None`: found by
    /// timing), appended to `out`.
    fn features(&self, i: usize, r: Option<usize>, words: bool, out: &mut Vec<f64>) {
        let secs = |ms: i64| self.secs[ms.clamp(0, CAP) as usize];
        let spurts = self.spurts;
        let ix = self.ix;
        let s = &spurts[i];
        let (me, t0, end) = (s.speaker.index(), s.start.get(), s.end.get());
        let lim = decision_time(t0, self.horizon);
        let vis_end = end.min(lim);
        let ended = end <= lim;
        // The speaker's own talkspurts before and after (times from the index's compact lists).
        let (starts, ends) = (&ix.starts[me], &ix.ends[me]);
        let k = ix.pos[i];
        let prev = k.checked_sub(1).map(|j| (starts[j], ends[j]));
        let next_start = starts.get(k + 1).copied();
        let dur = secs(vis_end - t0);
        let pre_gap = secs(prev.map_or(CAP, |(_, e)| t0 - e));
        let post_gap = if ended {
            secs(next_start.map_or(CAP, |n| n - end).min(lim.saturating_sub(end)))
        } else {
            0.0
        };
        let prev_own_dur = prev.map_or(0.0, |(a, e)| secs(e - a));
        // The reference speaker: the one given, else the one found by timing.
        let at = &ix.at[i];
        let (r, latest, ref_recent) = match (r, at.reference) {
            (Some(y), Some((found, k))) if y == found => (Some(y), k, at.ref_recent),
            (Some(y), _) => (Some(y), ix.latest(y, t0), ix.recent_talk(y, t0, lim)),
            (None, Some((y, k))) => (Some(y), k, at.ref_recent),
            (None, None) => (None, None, 0),
        };
        let rk = r.and_then(|y| latest.map(|k| (y, k)));
        // The reference speaker's latest talkspurt starting by the onset: its start and end.
        let rq = rk.map(|(y, k)| (ix.starts[y][k], ix.ends[y][k]));
        let talking = rq.is_some_and(|(_, e)| e > t0);
        let r_end = rq.map_or(t0, |(_, e)| e);
        let (ref_elapsed, ref_gap, remaining) = match rq {
            Some((a, _)) if talking => (secs(t0 - a), 0.0, secs(r_end.min(lim) - t0)),
            _ => (0.0, secs(rq.map_or(CAP, |(_, e)| t0 - e)), 0.0),
        };
        let ref_stops = talking && r_end <= lim;
        // Does the reference speaker start again during the talkspurt or within 1 s after it,
        // as far as the horizon shows?
        let resume_by = end.saturating_add(1000).min(lim);
        let (resumes, overlap) = match rk {
            Some((y, k)) => {
                let mut overlap = 0i64;
                let mut resumes = false;
                let theirs = ix.starts[y][k..].iter().zip(&ix.ends[y][k..]);
                for (&start, &end) in theirs.take(TOKEN_REACH) {
                    if start >= resume_by.max(vis_end) {
                        break;
                    }
                    if start > t0 && start < resume_by {
                        resumes = true;
                    }
                    overlap += (end.min(vis_end) - start.max(t0)).max(0);
                }
                (resumes, overlap)
            }
            None => (false, 0),
        };
        let all = at.all_recent.max(1) as f64;
        // What tells a short floor-taking attempt from a backchannel by timing: the holder's
        // pause before its latest talkspurt (read only when that talkspurt is in the last
        // minute, the reach of the live monitor's window), how much the holder talks in the
        // second after the onset, who stops first, how long since the incoming speaker last
        // held the floor (a talkspurt of 1 s or more in the last minute), and the holder's
        // mean talkspurt: its talk in the last minute up to the decision time over its
        // talkspurts started in that minute before the onset (0 with none).
        let ref_prev_gap = match rk {
            Some((y, k)) if k >= 1 && ix.starts[y][k] >= t0 - RECENT => {
                secs(ix.starts[y][k] - ix.ends[y][k - 1])
            }
            _ => secs(CAP),
        };
        let first_second = t0.saturating_add(1000).min(lim);
        let ref_talk_1s = match rk {
            Some((y, k)) if first_second > t0 => {
                let theirs = ix.starts[y][k..].iter().zip(&ix.ends[y][k..]);
                let mut talk = 0i64;
                for (&start, &end) in theirs.take(TOKEN_REACH) {
                    if start >= first_second {
                        break;
                    }
                    talk += (end.min(first_second) - start.max(t0)).max(0);
                }
                talk as f64 / (first_second - t0) as f64
            }
            _ => 0.0,
        };
        let outlasts = talking && r_end <= lim && end > r_end;
        let stops_first = talking && ended && end < r_end;
        let mut since_long = CAP;
        for j in (0..k).rev().take(TOKEN_REACH) {
            if starts[j] < t0 - RECENT {
                break;
            }
            if ends[j] - starts[j] >= 1000 {
                since_long = t0 - ends[j];
                break;
            }
        }
        let ref_mean = r.map_or(0.0, |y| {
            let theirs = &ix.starts[y];
            let n =
                theirs.partition_point(|&a| a < t0) - theirs.partition_point(|&a| a < t0 - RECENT);
            if n == 0 {
                0.0
            } else {
                secs(ref_recent / n as i64)
            }
        });
        // In the order of `TIMING_FEATURES`.
        let x: [f64; N_TIMING] = [
            dur,
            flag(ended),
            pre_gap,
            post_gap,
            prev_own_dur,
            flag(talking),
            ref_elapsed,
            ref_gap,
            remaining,
            flag(ref_stops),
            flag(ref_stops && r_end - t0 <= 1000),
            flag(resumes),
            overlap as f64 / (vis_end - t0).max(1) as f64,
            at.others.min(3) as f64,
            ln_1p_count(k - at.own_old.min(k)),
            at.own_recent as f64 / all,
            r.map_or(0.0, |_| ref_recent as f64 / all),
            // The talkspurt's length and the holder's remaining talk act both ways, which a
            // linear model sees only through their squares: a holder who stops at once was
            // cut off, one who finishes shortly after is ending a turn, one who talks on has
            // kept the floor (the attempt failed).
            dur * dur,
            remaining * remaining,
            ref_prev_gap,
            ref_talk_1s,
            flag(outlasts),
            flag(stops_first),
            secs(since_long),
            ref_mean,
        ];
        out.extend_from_slice(&x);
        if words {
            let rs = rk.map(|(y, k)| &spurts[ix.by[y][k]]);
            let mut w = Row::<N_WORDS>::new();
            self.word_features(s, lim, rs, talking, &mut w);
            out.extend_from_slice(w.full());
        }
    }

    /// Word features of `s` (its words starting before `lim`; its first utterance end among
    /// the tokens ended by `lim`) and of the reference speaker's completion points and
    /// utterance ends near the onset, with how cut off each utterance end sounds.
    fn word_features(
        &self,
        s: &Talkspurt,
        lim: i64,
        rs: Option<&Talkspurt>,
        talking: bool,
        x: &mut Row<N_WORDS>,
    ) {
        // One pass over the visible words, without collecting them; with the second word and
        // the words of the first utterance (up to its first completion point).
        let (mut n, mut cues, mut first) = (0usize, 0usize, None::<&str>);
        let (mut second, mut first_utt, mut utt_open) = (None::<&str>, 0usize, true);
        for t in s.tokens.iter().take_while(|t| t.start.get() < lim) {
            if t.is_word() {
                let w = t.norm.as_str();
                n += 1;
                cues += usize::from(self.lexicon.contains(w));
                if first.is_some() && second.is_none() {
                    second = Some(w);
                }
                first = first.or(Some(w));
                first_utt += usize::from(utt_open);
            }
            utt_open &= !t.terminal;
        }
        x.push(ln_1p_count(n));
        x.push(if n == 0 { 0.0 } else { cues as f64 / n as f64 });
        x.push(flag(first.is_some_and(|f| self.lexicon.contains(f))));
        x.push(flag(first.is_some_and(|f| self.forbidden.contains(f))));
        x.push(flag(n > 0 && cues == n));
        // The reference speaker's completion points: the last before the onset, the first
        // after it that the horizon shows.
        let t0 = s.start.get();
        let (mut before, mut after) = (CAP, CAP);
        // And how cut off the reference speaker's utterance sounds where it ends (a
        // completion point, a word fragment "w-.", or the last word before it stops talking),
        // before and after the onset: an utterance ending in "the" was stopped, not finished.
        let cut = self.cut_words;
        let (mut cut_before, mut cut_after) = (cut.prior, cut.prior);
        // Question and answer: the holder's last completion point before the onset is a
        // question; the holder's words since it (how far into an utterance the onset lands)
        // and in the second after the onset (a holder who talks on has kept the floor).
        let (mut question_before, mut since_end, mut after_1s) = (false, 0usize, 0usize);
        if let Some(q) = rs.filter(|q| q.has_tokens) {
            let at = q.tokens.partition_point(|t| t.end.get() <= t0);
            let earlier = || q.tokens[..at].iter().rev().take(TOKEN_REACH);
            if let Some(t) = earlier().find(|t| t.terminal && t.end.get() <= t0) {
                before = t0 - t.end.get();
                question_before = is_question(t);
            }
            since_end = earlier().take_while(|t| !t.terminal).filter(|t| t.is_word()).count();
            let first_second = t0.saturating_add(1000).min(lim);
            after_1s = q.tokens[at..]
                .iter()
                .take(TOKEN_REACH)
                .take_while(|t| t.end.get() <= first_second)
                .filter(|t| t.is_word() && t.start.get() >= t0)
                .count();
            // The holder's talkspurt has visibly stopped at the onset when it ended by then.
            let stopped = q.end.get() <= t0;
            if let Some(key) = last_end(q, at, stopped) {
                cut_before = cut.log_odds(key);
            }
            if talking {
                let later =
                    || q.tokens[at..].iter().take(TOKEN_REACH).take_while(|t| t.end.get() <= lim);
                if let Some(t) = later().find(|t| t.terminal) {
                    after = t.end.get() - t0;
                }
                if let Some(key) = first_end(q, at, lim) {
                    cut_after = cut.log_odds(key);
                }
            }
        }
        // The talkspurt's own first utterance end the horizon shows: an attempt that is
        // itself cut off has failed.
        let own_cut = first_end(s, 0, lim).map_or(cut.prior, |key| cut.log_odds(key));
        x.push(secs(before));
        x.push(secs(after));
        x.push(cut_before);
        x.push(cut_after);
        x.push(own_cut);
        // The holder's utterance the onset meets: the one it overlaps while the holder talks,
        // else the one that has just ended (people label either as cut off by the onset).
        x.push(if talking { cut_after } else { cut_before });
        for spellings in FIRST_WORDS {
            x.push(flag(first.is_some_and(|f| spellings.contains(&f))));
        }
        // The talkspurt's own first utterance a question, as far as the horizon shows.
        let own_question = s
            .tokens
            .iter()
            .take(TOKEN_REACH)
            .take_while(|t| t.end.get() <= lim)
            .find(|t| t.terminal)
            .is_some_and(is_question);
        x.push(flag(question_before));
        x.push(flag(own_question));
        x.push(flag(second.is_some_and(|w| self.lexicon.contains(w))));
        x.push(ln_1p_count(first_utt));
        x.push(ln_1p_count(since_end));
        x.push(ln_1p_count(after_1s));
        for spellings in MORE_FIRST_WORDS {
            x.push(flag(first.is_some_and(|f| spellings.contains(&f))));
        }
    }

    /// The feature vector of an onset, in two parts: its talkspurt against the floor holder
    /// (the row S5′ computed when the holder is the reference speaker it found, else computed
    /// into `x`), then the rule facts known at the onset (a simultaneous start is decided
    /// within `simul_start_tol`).
    fn onset_features<'x>(
        &'x self,
        o: &OnsetRec,
        words: bool,
        x: &'x mut Vec<f64>,
    ) -> (&'x [f64], [f64; 2]) {
        let ix = self.ix;
        let found = ix.at[o.spurt].reference.map(|(y, _)| SpeakerIndex::new(y));
        let row = ix.row_at.get(o.spurt).zip(ix.row_at.get(o.spurt + 1));
        let facts =
            [flag(o.class == OnsetClass::SimultaneousStart), flag(o.class == OnsetClass::Opening)];
        match row {
            // S5′ computed this vector against the same reference speaker.
            Some((&a, &z)) if o.holder.is_some() && o.holder == found && a < z => {
                (&ix.rows[a..z], facts)
            }
            _ => {
                x.clear();
                self.features(o.spurt, o.holder.map(SpeakerIndex::index), words, x);
                (&x[..], facts)
            }
        }
    }
}

/// How many times `bc_max_duration` the longest backchannel of S5′ may last. Chosen on the
/// MRDA train split: a ceiling of 2 s (twice the default) keeps the backchannel F1 (text
/// 0.786 → 0.785, timing 0.642 unchanged); 1 s costs 0.008 in text (docs/conversation-metrics.md).
const BC_CEILING: i64 = 2;

/// Per talkspurt: whether a talkspurt of another speaker starts no later than it does.
///
/// ```text
/// A  [──────]         [─]          A's first talkspurt: no (nobody else yet)
/// B          [─]   [──────]        B's: yes (A started before); A's second: yes
/// ```
fn someone_spoke(spurts: &[Talkspurt]) -> Vec<bool> {
    // The earliest start of each speaker; a talkspurt answers someone when the earliest start
    // of the speakers other than its own is not after it.
    let n = spurts.iter().map(|s| s.speaker.index() + 1).max().unwrap_or(0);
    let mut first = vec![Millis::MAX; n];
    for s in spurts {
        let f = &mut first[s.speaker.index()];
        *f = (*f).min(s.start);
    }
    // The earliest and the second earliest speaker's first start.
    let mut by_first: Vec<usize> = (0..n).filter(|&x| first[x] < Millis::MAX).collect();
    by_first.sort_by_key(|&x| first[x]);
    spurts
        .iter()
        .map(|s| {
            let x = s.speaker.index();
            let other = by_first.iter().find(|&&y| y != x);
            other.is_some_and(|&y| first[y] <= s.start)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed(speaker: usize, start: i64, end: i64) -> Talkspurt {
        Talkspurt::timed(SpeakerIndex::new(speaker), Millis::new(start), Millis::new(end))
    }

    /// The horizons the joint classifier is fitted for (`train.py --joint --horizons
    /// unbounded`): at any other, `--classifier joint` is an error naming the horizon
    /// (docs/agreement.md).
    const JOINT_HORIZONS: &[Option<Millis>] = &[None];

    #[test]
    fn every_fitted_model_matches_the_features_of_this_build() {
        let all = models().unwrap();
        for h in HORIZONS {
            for classifier in [Classifier::Calibrated, Classifier::Joint] {
                let fitted = classifier == Classifier::Calibrated || JOINT_HORIZONS.contains(&h);
                let (bc, onset) = tasks(classifier);
                for (task, mode) in
                    [(bc, "timing"), (bc, "text"), (onset, "timing"), (onset, "text")]
                {
                    let m = all.iter().find(|m| {
                        m.task == task && m.mode == mode && m.horizon_ms == h.map(Millis::get)
                    });
                    let classes = m.map(|m| m.classes.len());
                    let want = if task == "backchannel" { 2 } else { 3 };
                    assert_eq!(classes, fitted.then_some(want), "{task}/{mode} at {h:?}");
                }
                assert_eq!(
                    Calibrated::load(classifier, h).is_ok(),
                    fitted,
                    "{classifier} at {h:?}"
                );
            }
        }
        assert!(Calibrated::load(Classifier::Calibrated, Some(Millis::new(750))).is_err());
        assert!(Calibrated::load(Classifier::Joint, Some(Millis::new(750))).is_err());
    }

    fn model(classes: &[&str], coef: Vec<Vec<f64>>, intercept: Vec<f64>, thr: Vec<f64>) -> Fitted {
        let mut m = Fitted {
            task: "joint_backchannel".into(),
            mode: "timing".into(),
            horizon_ms: None,
            features: vec![],
            mean: vec![1.0],
            scale: vec![2.0],
            classes: classes.iter().map(|c| c.to_string()).collect(),
            coef,
            intercept,
            thresholds: thr,
            folded: vec![],
            folded_intercept: vec![],
            positions: vec![],
            width: 1,
        };
        m.fold();
        m
    }

    #[test]
    fn three_way_decision_attempt_overrides_backchannel() {
        // z = (x − 1) / 2; logits: other 0, backchannel 1 + z, attempt 3z − 1.
        let m = model(
            &["other", "backchannel", "attempt"],
            vec![vec![0.0], vec![1.0], vec![3.0]],
            vec![0.0, 1.0, -1.0],
            vec![0.4, 0.3],
        );
        // x = 1: z = 0; logits 0, 1, −1.
        let p = m.probabilities(&[1.0]);
        let e = 1f64.exp();
        let z = 1.0 + e + 1.0 / e;
        assert!((p[0] - 1.0 / z).abs() < 1e-12);
        assert!((p[1] - e / z).abs() < 1e-12);
        assert!((p[2] - 1.0 / e / z).abs() < 1e-12);
        // p = 0.245, 0.665, 0.090: a backchannel.
        assert_eq!(m.decide(&p), 1);
        // x = 5: z = 2; logits 0, 3, 5: the attempt is more probable and above its threshold,
        // so the talkspurt stays on the floor.
        let p = m.probabilities(&[5.0]);
        assert!(p[2] > 0.3 && p[2] > p[1]);
        assert_eq!(m.decide(&p), 2);
        // An attempt below its threshold does not override a backchannel above its own.
        assert_eq!(m.decide(&[0.1, 0.62, 0.28]), 1);
        // Neither reaches its threshold: floor talk.
        assert_eq!(m.decide(&[0.35, 0.38, 0.27]), 0);
    }

    #[test]
    fn the_spelled_out_softmax_is_the_general_one_to_the_bit() {
        // Logits of every sign, equal to each other, zero and large: the two- and three-class
        // paths give exactly the general path's numbers.
        let xs = [-40.0, -3.5, -1.0, -0.0, 0.0, 0.25, 1.0, 3.0, 7.5, 40.0];
        for b in [-2.0, 0.0, 0.5] {
            let two = model(&["a", "b"], vec![vec![0.0], vec![1.5]], vec![0.0, b], vec![0.5]);
            let three = model(
                &["a", "b", "c"],
                vec![vec![0.0], vec![1.5], vec![-0.75]],
                vec![0.0, b, 1.0],
                vec![0.5, 0.5],
            );
            for x in xs {
                for m in [&two, &three] {
                    let bits = |p: [f64; MAX_CLASSES]| p.map(f64::to_bits);
                    assert_eq!(
                        bits(m.probabilities_of(&[x], &[])),
                        bits(m.probabilities_general(&[x], &[])),
                        "x = {x}, b = {b}, {} classes",
                        m.classes.len()
                    );
                    // The tail is the same sum continued.
                    assert_eq!(
                        bits(m.probabilities_of(&[], &[x])),
                        bits(m.probabilities_general(&[x], &[]))
                    );
                }
            }
        }
    }

    #[test]
    fn softmax_and_thresholds() {
        let m = model(
            &["other", "backchannel"],
            vec![vec![0.0], vec![2.0]],
            vec![0.0, -1.0],
            vec![0.5],
        );
        // z = (3 - 1) / 2 = 1; logits 0 and 2·1 − 1 = 1: p = e / (1 + e).
        let p = m.probabilities(&[3.0]);
        let want = 1f64.exp() / (1.0 + 1f64.exp());
        assert!((p[1] - want).abs() < 1e-12 && (p[0] + p[1] - 1.0).abs() < 1e-12);
        assert_eq!(m.decide(&p), 1);
        assert_eq!(m.decide(&[0.6, 0.4]), 0);
    }

    #[test]
    fn a_model_reads_a_subset_of_the_features_at_their_positions() {
        // A model fitted on `dur` and `ended` only: the build's other features get weight 0.
        let names = feature_names(false, false);
        let mut m = model(
            &["other", "backchannel"],
            vec![vec![0.0, 0.0], vec![1.0, -2.0]],
            vec![0.0, 0.5],
            vec![0.5],
        );
        m.features = vec!["ended".into(), "dur".into()];
        m.mean = vec![0.0, 1.0];
        m.scale = vec![1.0, 2.0];
        m.check().unwrap();
        m.fold();
        assert_eq!(m.folded[0].len(), names.len());
        let mut x = vec![7.0; names.len()];
        x[0] = 3.0; // dur
        x[1] = 1.0; // ended
                    // logit = 0.5 + 1 · 1 − 2 · (3 − 1) / 2 = −0.5, whatever the other features are.
        let p = m.probabilities(&x);
        let want = 1.0 / (1.0 + 0.5f64.exp());
        assert!((p[1] - want).abs() < 1e-12, "{p:?}");
        // A feature this build does not compute, or one read twice, is an error.
        for features in [vec!["ended", "nonsense"], vec!["dur", "dur"]] {
            m.features = features.into_iter().map(String::from).collect();
            let err = m.check().err().unwrap().to_string();
            assert!(err.contains("does not match this build's features"), "{err}");
        }
    }

    #[test]
    fn attempt_timing_features() {
        let at = |name: &str| TIMING_FEATURES.iter().position(|f| *f == name).unwrap();
        let get = |spurts: &[Talkspurt], i: usize, h: Option<i64>| {
            let ix = Index::new(spurts, 2, h.map(Millis::new));
            let (mut x, p) = (Vec::new(), Params::default());
            Context::new(spurts, &ix, &p).features(i, None, false, &mut x);
            let names = [
                "ref_prev_gap",
                "ref_talk_1s",
                "outlasts_ref",
                "stops_first",
                "own_since_long",
                "ref_mean_spurt",
            ];
            names.map(|n| x[at(n)])
        };
        // A talks 0–1000 and, after 300 ms, 1300–5000; B held the floor 1000–2100 and says
        // 400 ms at 3000, stopping first.
        let spurts = vec![
            timed(0, 0, 1000),
            timed(1, 1000, 2100),
            timed(0, 1300, 5000),
            timed(1, 3000, 3400),
        ];
        assert_eq!(get(&spurts, 3, None), [secs(300), 1.0, 0.0, 1.0, secs(900), secs(2350)]);
        // At 500 ms A's talk counts up to 3500: (1000 + 2200) / 2.
        assert_eq!(get(&spurts, 3, Some(500)), [secs(300), 1.0, 0.0, 1.0, secs(900), secs(1600)]);
        // A stops at 3200 while B talks on to 3800: B outlasts A.
        let spurts = vec![
            timed(0, 0, 1000),
            timed(1, 1000, 2100),
            timed(0, 1300, 3200),
            timed(1, 3000, 3800),
        ];
        assert_eq!(get(&spurts, 3, None), [secs(300), 0.2, 1.0, 0.0, secs(900), secs(1450)]);
        // Within 250 ms: A's 200 ms of the 250 seen, and A has stopped.
        assert_eq!(get(&spurts, 3, Some(250)), [secs(300), 0.8, 1.0, 0.0, secs(900), secs(1450)]);
        // B's only earlier talkspurt shorter than 1 s: no floor held in the last minute.
        let spurts = vec![
            timed(0, 0, 1000),
            timed(1, 1000, 1900),
            timed(0, 1300, 3200),
            timed(1, 3000, 3800),
        ];
        assert_eq!(get(&spurts, 3, None)[4], secs(CAP));
    }

    #[test]
    fn no_feature_sees_past_the_decision_time() {
        // A asks "is it ready?" and talks on; B comes in at 1300. The two worlds differ only
        // in what starts at or after 1800 (the decision time at 500 ms): the words said from
        // then on, when A stops and when A talks again.
        let world = |a: &[&str], b: &[&str], later: i64| {
            let mut b = spoken(1300, b);
            b.speaker = SpeakerIndex::new(1);
            vec![spoken(0, a), b, timed(0, later, later + 2000)]
        };
        let one = world(
            &["is", "it", "ready?", "well", "i", "think", "so"],
            &["sure", "yeah", "it", "is."],
            3_000,
        );
        let two = world(
            &["is", "it", "ready?", "well", "i", "think", "maybe", "we", "go."],
            &["sure", "yeah", "no?"],
            9_000,
        );
        let p = Params::default();
        for h in [0, 250, 500] {
            let x = |spurts: &[Talkspurt]| {
                let ix = Index::new(spurts, 2, Some(Millis::new(h)));
                let mut x = Vec::new();
                Context::new(spurts, &ix, &p).features(1, None, true, &mut x);
                x
            };
            let (a, b) = (x(&one), x(&two));
            for ((name, a), b) in feature_names(false, true).iter().zip(&a).zip(&b) {
                assert_eq!(a, b, "{name} at {h} ms");
            }
        }
        // Unbounded, they differ (the test can tell them apart).
        let ix = |s| Index::new(s, 2, None);
        let (ia, ib) = (ix(&one), ix(&two));
        let (mut a, mut b) = (Vec::new(), Vec::new());
        Context::new(&one, &ia, &p).features(1, None, true, &mut a);
        Context::new(&two, &ib, &p).features(1, None, true, &mut b);
        assert_ne!(a, b);
    }

    #[test]
    fn every_feature_is_finite_on_degenerate_input() {
        // A model reads a subset of the features and gives the others weight 0: one NaN or
        // infinity among them would still make every probability NaN. Zero-length and
        // wordless talkspurts, talk at time 0, a lone speaker and times near the end of the
        // representable range, at every horizon.
        let huge = 1i64 << 52;
        let mut wordless = timed(1, 0, 0);
        wordless.has_tokens = true;
        let mut question = spoken(huge - 3_000, &["why?", "\u{2014}", "?", "ok."]);
        question.speaker = SpeakerIndex::new(1);
        let cases = vec![
            vec![timed(0, 0, 0)],
            vec![spoken(0, &["right?"])],
            vec![timed(0, 0, 0), wordless, timed(0, 200, 500), timed(1, 600, 601)],
            vec![spoken(huge - 5_000, &["is", "it?"]), question, timed(0, huge - 1, huge)],
        ];
        for spurts in &cases {
            for h in [None, Some(0), Some(250), Some(500), Some(1000)] {
                let ix = Index::new(spurts, 2, h.map(Millis::new));
                let p = Params::default();
                let ctx = Context::new(spurts, &ix, &p);
                for i in 0..spurts.len() {
                    for r in [None, Some(0), Some(1)] {
                        for words in [false, true] {
                            let mut x = Vec::new();
                            ctx.features(i, r, words, &mut x);
                            let names = feature_names(false, words);
                            assert_eq!(x.len(), names.len());
                            for (name, v) in names.iter().zip(&x) {
                                assert!(v.is_finite(), "{name} = {v} ({i}, {r:?}, {h:?})");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn question_answer_and_first_utterance_features() {
        let at = |name: &str| feature_names(false, true).iter().position(|f| *f == name).unwrap();
        let names = [
            "ref_question_before",
            "own_question",
            "second_cue",
            "first_utt_words",
            "ref_words_since_end",
            "ref_words_after_1s",
            "w_exactly_sure",
            "w_question_word",
        ];
        let get = |b: &[&str], h: Option<i64>| {
            // A asks "is it ready?" and goes on "well i think" (0–1800); B starts at 1300.
            let a = spoken(0, &["is", "it", "ready?", "well", "i", "think"]);
            let mut b = spoken(1300, b);
            b.speaker = SpeakerIndex::new(1);
            let spurts = vec![a, b];
            let ix = Index::new(&spurts, 2, h.map(Millis::new));
            let (mut x, p) = (Vec::new(), Params::default());
            Context::new(&spurts, &ix, &p).features(1, None, true, &mut x);
            names.map(|n| x[at(n)])
        };
        let ln = |n: f64| n.ln_1p();
        // "well" since the question; "think" (1500–1800) in the second after the onset.
        let answer = ["sure", "yeah", "it", "is."];
        assert_eq!(get(&answer, None), [1.0, 0.0, 1.0, ln(4.0), ln(1.0), ln(1.0), 1.0, 0.0]);
        // By 1800 B's first utterance has two words and no end yet.
        assert_eq!(get(&answer, Some(500)), [1.0, 0.0, 1.0, ln(2.0), ln(1.0), ln(1.0), 1.0, 0.0]);
        // By 1550 "think" has not ended.
        assert_eq!(get(&answer, Some(250)), [1.0, 0.0, 0.0, ln(1.0), ln(1.0), 0.0, 1.0, 0.0]);
        assert_eq!(
            get(&["why?", "no"], None),
            [1.0, 1.0, 0.0, ln(1.0), ln(1.0), ln(1.0), 0.0, 1.0]
        );
        // A question in closing quotes or brackets is a question; one cut off with a dash is
        // no completion point, so no question.
        for raw in ["why?\u{2019}", "why?\u{bb}", "(why?)", "why?\""] {
            assert_eq!(get(&[raw, "no"], None)[1], 1.0, "{raw}");
        }
        assert_eq!(get(&["why?\u{2014}", "no"], None)[1], 0.0);
    }

    #[test]
    fn features_see_nothing_beyond_the_horizon() {
        // B starts at 2000 over A; A stops at 2600 (600 ms after the onset).
        let spurts = vec![timed(0, 0, 2600), timed(1, 2000, 5000), timed(0, 7000, 9000)];
        let p = Params::default();
        let (ix_near, ix_far) = (
            Index::new(&spurts, 2, Some(Millis::new(500))),
            Index::new(&spurts, 2, Some(Millis::new(1000))),
        );
        let near = Context::new(&spurts, &ix_near, &p);
        let far = Context::new(&spurts, &ix_far, &p);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        near.features(1, None, false, &mut a);
        far.features(1, None, false, &mut b);
        let at = |name: &str| TIMING_FEATURES.iter().position(|f| *f == name).unwrap();
        // Within 500 ms A is still talking; within 1000 ms A has stopped.
        assert_eq!((a[at("ref_stops")], b[at("ref_stops")]), (0.0, 1.0));
        assert_eq!(a[at("dur")], secs(500));
        assert_eq!(b[at("dur")], secs(1000));
        assert_eq!(a[at("ref_talking")], 1.0);
        assert_eq!(a[at("ref_elapsed")], secs(2000));
        assert_eq!(b[at("ref_remaining")], secs(600));
    }

    #[test]
    fn floor_history_counts_talk_up_to_the_decision_time() {
        // B says 300 ms at 500 and starts again at 2000 over A, who talks from 0 to `a_end`.
        let rows = |a_end: i64, horizon: Option<i64>| {
            let spurts = vec![timed(0, 0, a_end), timed(1, 500, 800), timed(1, 2000, 2400)];
            let ix = Index::new(&spurts, 2, horizon.map(Millis::new));
            let (mut x, p) = (Vec::new(), Params::default());
            Context::new(&spurts, &ix, &p).features(2, None, false, &mut x);
            x
        };
        let at = |name: &str| TIMING_FEATURES.iter().position(|f| *f == name).unwrap();
        let shares = |x: &[f64]| (x[at("own_recent_share")], x[at("ref_recent_share")]);
        // At 500 ms A's talk counts up to 2500: 300 ms of B's and 2500 ms of A's.
        let near = rows(10_000, Some(500));
        assert_eq!(shares(&near), (300.0 / 2800.0, 2500.0 / 2800.0));
        // How long A goes on after the decision time changes nothing.
        assert_eq!(rows(2600, Some(500)), near);
        // A stopping before it counts as it is: 2400 ms.
        assert_eq!(shares(&rows(2400, Some(500))), (300.0 / 2700.0, 2400.0 / 2700.0));
        // Unbounded, the whole talkspurt counts.
        assert_eq!(shares(&rows(10_000, None)), (300.0 / 10_300.0, 10_000.0 / 10_300.0));
        // The holder given (S8′) is counted the same way as the one found by timing.
        let spurts = vec![timed(0, 0, 10_000), timed(1, 500, 800), timed(1, 2000, 2400)];
        let ix = Index::new(&spurts, 2, Some(Millis::new(500)));
        let p = Params::default();
        assert_eq!(ix.recent_talk(0, 2000, 2500), 2500);
        let (mut given, mut found) = (Vec::new(), Vec::new());
        let ctx = Context::new(&spurts, &ix, &p);
        ctx.features(2, Some(0), false, &mut given);
        ctx.features(2, None, false, &mut found);
        assert_eq!(given, found);
    }

    /// A talkspurt of `words`, 300 ms each from `start`, ending with the last word (raw text,
    /// normalised and marked terminal as S1 does).
    fn spoken(start: i64, words: &[&str]) -> Talkspurt {
        use crate::analysis::normalise::{is_terminal, normalise_token};
        let mut s = timed(0, start, start + 300 * words.len() as i64);
        s.tokens = words
            .iter()
            .enumerate()
            .map(|(k, w)| WordToken {
                raw: (*w).to_owned(),
                norm: normalise_token(w),
                start: Millis::new(start + 300 * k as i64),
                end: Millis::new(start + 300 * (k as i64 + 1)),
                terminal: is_terminal(w),
                laughter: false,
            })
            .collect();
        s.has_tokens = true;
        s
    }

    #[test]
    fn an_utterance_ends_at_a_completion_point_a_broken_word_or_the_last_word_spoken() {
        // so we should go to the-.  |  right.  |  we leave early and ]
        let broken = spoken(0, &["so", "we", "should", "go", "to", "the-."]);
        assert_eq!(first_end(&broken, 0, i64::MAX), Some(FRAGMENT));
        assert_eq!(first_end(&broken, 0, 1_500), None, "the fragment ends at 1.8 s");
        // A repair inside the utterance is not its end.
        let repair = spoken(0, &["i", "was", "go-", "going", "home."]);
        assert_eq!(first_end(&repair, 0, i64::MAX), Some("home"));
        // Unpunctuated captions: the last word before the talkspurt stops, once it has.
        let open = spoken(0, &["we", "leave", "early", "and"]);
        assert_eq!(first_end(&open, 0, i64::MAX), Some("and"));
        assert_eq!(first_end(&open, 0, 1_199), None, "not yet known to have stopped");
        assert_eq!(first_end(&open, 2, 1_200), Some("and"));
        // Before the onset: the last end among the tokens heard by then.
        let two = spoken(0, &["right.", "so", "the"]);
        assert_eq!(last_end(&two, 3, true), Some("the"));
        assert_eq!(last_end(&two, 3, false), Some("right"));
        assert_eq!(last_end(&two, 1, false), Some("right"));
        assert_eq!(last_end(&two, 0, false), None);
        // A dash or em dash is the transcriber's cut-off mark, never read.
        for marked in ["to\u{2014}", "to--", "to -"] {
            let t = &spoken(0, &[marked]).tokens[0];
            assert_eq!(utterance_end(t), None, "{marked}");
        }
    }

    #[test]
    fn a_stopped_talkspurt_ends_at_its_last_word_a_broken_one_included() {
        // Captions without punctuation: "w-" ends the utterance as a broken word.
        let broken = spoken(0, &["we", "should", "w-"]);
        assert_eq!(first_end(&broken, 0, i64::MAX), Some(FRAGMENT));
        assert_eq!(last_end(&broken, 3, true), Some(FRAGMENT));
        // Laughter last: passed over for the last utterance end before it.
        let mut laughed = spoken(0, &["right.", "so", "the", "[laughs]"]);
        laughed.tokens[3].laughter = true;
        assert_eq!(last_end(&laughed, 4, true), Some("right"));
        assert_eq!(first_end(&laughed, 1, i64::MAX), None);
    }

    #[test]
    fn a_model_file_with_text_models_needs_the_lexicon() {
        let mut doc: serde_json::Value = serde_json::from_str(MODEL_JSON).unwrap();
        assert!(parse_models(&doc.to_string()).is_ok());
        doc.as_object_mut().unwrap().remove("cut_words");
        let err = parse_models(&doc.to_string()).err().unwrap();
        assert!(err.contains("without the cut-off lexicon"), "{err}");
        // Timing models alone do not read it.
        let models = doc["models"].as_array_mut().unwrap();
        models.retain(|m| m["mode"] == "timing");
        assert!(parse_models(&doc.to_string()).is_ok());
    }

    #[test]
    fn the_cut_off_lexicon_reads_the_last_word_and_falls_back_to_the_base_rate() {
        let words = [("the".to_owned(), -0.4), (FRAGMENT.to_owned(), 0.1)].into_iter().collect();
        let cut = CutWords { prior: -2.85, words };
        assert_eq!(cut.log_odds("the"), -0.4);
        assert_eq!(cut.log_odds(FRAGMENT), 0.1);
        assert_eq!(cut.log_odds("idea"), -2.85);
        // The compiled-in file has a fitted lexicon: "the" ends cut-off utterances far more
        // often than "yeah".
        let fitted = cut_words();
        assert!(fitted.log_odds("the") > fitted.prior + 1.0);
        assert!(fitted.log_odds("yeah") < fitted.prior - 1.0);
    }
}
