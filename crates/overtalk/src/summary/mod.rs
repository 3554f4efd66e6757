//! The plain-language summary of an analysis: a few sentences saying what the numbers show,
//! each carrying the JSON paths of the numbers it states, so a reader (or a test) can trace
//! every figure in the words back to the output it came from.
//!
//! The summary is generated, never written by hand: the wording comes from a template file
//! (`en.toml`, English; a translation is a copy with the texts changed), the numbers from the
//! [`Analysis`]. It says how the counts were made (text or timing-only mode, which classifier)
//! and what could not be measured, and it leaves out every sentence the method cannot back:
//!
//! ```text
//! one mixed track, one speaker per frame  → no overlap, interruption or pair sentences
//! ends estimated (paragraph transcripts)  → no overlap, interruption or pair sentences
//! no words (timing mode)                  → no floor claims in words, no speaking rates
//! ```
//!
//! A cited path is a JSON Pointer (RFC 6901) into the conversation object of `overtalk analyze
//! --format json` (`/speakers/Wife/floor_share`), the object that also holds the summary.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::analysis::result::Mode;
use crate::analysis::AnalysisWarning;
use crate::analysis::{Analysis, Classifier};
use crate::error::{Error, Result};
use crate::output::Conversation;

/// The English templates.
const ENGLISH: &str = include_str!("en.toml");

/// Most interrupter → interruptee pairs the summary names one by one.
const MAX_PAIRS: usize = 4;

/// Most speakers the floor sentence lists by share.
const MAX_FLOOR_SPEAKERS: usize = 6;

/// A duration of at least this many ms is written in minutes, below it in seconds.
const MINUTES_FROM_MS: i64 = 600_000;

/// One sentence of the summary.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sentence {
    /// Which template made it (`floor`, `pair`, `not_measurable_one_track`, …).
    pub key: String,
    /// The sentence.
    pub text: String,
    /// The numbers the sentence shows, in the order they appear in it.
    pub numbers: Vec<Cited>,
}

/// One number of a sentence and where it comes from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Cited {
    /// JSON Pointer into the conversation object (`/conversation/counts/interruptions`).
    pub path: String,
    /// The value at `path`, as the JSON output holds it.
    pub value: Value,
    /// How the value is written in the sentence.
    pub unit: Unit,
    /// The number as the sentence writes it (`67 %`, `31.4 s`, `2`).
    pub shown: String,
}

/// How a cited value is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    /// An integer, as it is.
    Count,
    /// A fraction, in whole percent (rounded half away from zero).
    SharePercent,
    /// Milliseconds, in seconds with one decimal (rounded half away from zero).
    MsSeconds,
    /// Milliseconds, in minutes with one decimal (rounded half away from zero).
    MsMinutes,
}

/// How the plural form of a sentence is chosen from its count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
enum PluralRule {
    OneIsSingular,
    ZeroAndOneSingular,
    NoPlural,
}

#[derive(Clone, Debug, Deserialize)]
struct NumberWords {
    decimal_separator: String,
    percent: String,
    seconds: String,
    minutes: String,
}

#[derive(Clone, Debug, Deserialize)]
struct ListWords {
    separator: String,
    last: String,
}

/// The forms of one sentence.
#[derive(Clone, Debug, Deserialize)]
struct Forms {
    /// The placeholder whose count chooses the form.
    count: Option<String>,
    zero: Option<String>,
    one: Option<String>,
    other: String,
    /// Floor sentence: the form without other speakers.
    alone: Option<String>,
    /// Floor sentence: one other speaker.
    item: Option<String>,
}

/// The wording of the summary in one language, read from a template file.
#[derive(Clone, Debug, Deserialize)]
pub struct Templates {
    /// The language tag (`en`).
    pub language: String,
    plural_rule: PluralRule,
    numbers: NumberWords,
    lists: ListWords,
    words: BTreeMap<String, String>,
    sentences: BTreeMap<String, Forms>,
}

/// The sentence keys every template file must have, with the placeholders each form may use.
const REQUIRED: &[&str] = &[
    "empty",
    "basis",
    "floor",
    "turns",
    "overlap",
    "interruptions",
    "pair",
    "pairs_rest",
    "backchannels",
    "verbal_claims",
    "not_measurable_one_track",
    "not_measurable_estimated",
    "not_measurable_words",
    "basis_estimated",
    "not_measurable_words_estimated",
];

const REQUIRED_WORDS: &[&str] = &[
    "mode_text",
    "mode_timing",
    "mode_mixed",
    "mode_estimated",
    "classifier_rules",
    "classifier_calibrated",
    "classifier_joint",
];

impl Templates {
    /// The English templates (`en.toml`).
    pub fn english() -> Templates {
        // The file is part of the crate and its test parses it; failing here is a build bug.
        Self::from_toml(ENGLISH).unwrap_or_else(|e| panic!("summary/en.toml: {e}"))
    }

    /// Templates from the text of a template file (the layout of `en.toml`); an error names
    /// what is missing or malformed.
    pub fn from_toml(text: &str) -> Result<Templates> {
        let t: Templates =
            toml::from_str(text).map_err(|e| Error::invalid(format!("summary templates: {e}")))?;
        for key in REQUIRED {
            if !t.sentences.contains_key(*key) {
                return Err(Error::invalid(format!("summary templates: no [sentences.{key}]")));
            }
        }
        for key in REQUIRED_WORDS {
            if !t.words.contains_key(*key) {
                return Err(Error::invalid(format!("summary templates: no words.{key}")));
            }
        }
        let floor = &t.sentences["floor"];
        if floor.alone.is_none() || floor.item.is_none() {
            return Err(Error::invalid(
                "summary templates: [sentences.floor] needs alone and item",
            ));
        }
        Ok(t)
    }

    fn word(&self, key: &str) -> &str {
        self.words.get(key).map_or("", String::as_str)
    }

    fn form(&self, key: &str, count: Option<u64>) -> &str {
        let f = &self.sentences[key];
        let Some(n) = count else { return &f.other };
        let singular = match self.plural_rule {
            PluralRule::OneIsSingular => n == 1,
            PluralRule::ZeroAndOneSingular => n <= 1,
            PluralRule::NoPlural => false,
        };
        if n == 0 {
            if let Some(z) = &f.zero {
                return z;
            }
        }
        match (&f.one, singular) {
            (Some(one), true) => one,
            _ => &f.other,
        }
    }

    /// `value` with the template's decimal separator.
    fn decimal(&self, value: String) -> String {
        if self.numbers.decimal_separator == "." {
            value
        } else {
            value.replace('.', &self.numbers.decimal_separator)
        }
    }

    /// A number as the sentence writes it.
    fn show(&self, value: &Value, unit: Unit) -> String {
        let x = value.as_f64().unwrap_or(0.0);
        match unit {
            Unit::Count => value.to_string(),
            Unit::SharePercent => {
                self.numbers.percent.replace("{value}", &crate::output::number::percent(x, 0))
            }
            Unit::MsSeconds => {
                self.numbers.seconds.replace("{value}", &self.decimal(tenths(x, 1e3)))
            }
            Unit::MsMinutes => {
                self.numbers.minutes.replace("{value}", &self.decimal(tenths(x, 6e4)))
            }
        }
    }

    /// `items` joined as a list (`a, b and c`).
    fn list(&self, items: &[String]) -> String {
        match items {
            [] => String::new(),
            [one] => one.clone(),
            [init @ .., last] => {
                format!("{}{}{last}", init.join(&self.lists.separator), self.lists.last)
            }
        }
    }
}

/// `ms` milliseconds in units of `unit_ms` with one decimal, rounded half away from zero on the
/// milliseconds as the tables round them (`431250` ms is `431.3` s; formatting the `f64`
/// `431.25` with `{:.1}` would give `431.2`, a tenth below the table's `431.25`).
fn tenths(ms: f64, unit_ms: f64) -> String {
    let n = (ms / (unit_ms / 10.0)).round();
    let sign = if n < 0.0 { "-" } else { "" };
    let a = n.abs() as u64;
    format!("{sign}{}.{}", a / 10, a % 10)
}

/// A value put into a template: words as they are, or a number with its citation.
enum Fill {
    Words(String),
    Number(Cited),
}

/// The fill of a placeholder: `(name, fill)`.
type Fills = Vec<(&'static str, Fill)>;

/// A JSON Pointer from its reference tokens (escaping `~` and `/`).
fn pointer(tokens: &[&str]) -> String {
    tokens.iter().map(|t| format!("/{}", t.replace('~', "~0").replace('/', "~1"))).collect()
}

/// Builds the sentences of one conversation.
struct Writer<'t> {
    templates: &'t Templates,
    sentences: Vec<Sentence>,
}

impl Writer<'_> {
    fn cite(&self, tokens: &[&str], value: Value, unit: Unit) -> Fill {
        let shown = self.templates.show(&value, unit);
        Fill::Number(Cited { path: pointer(tokens), value, unit, shown })
    }

    fn count(&self, tokens: &[&str], n: usize) -> Fill {
        self.cite(tokens, Value::from(n), Unit::Count)
    }

    fn duration(&self, tokens: &[&str], ms: i64) -> Fill {
        let unit = if ms >= MINUTES_FROM_MS { Unit::MsMinutes } else { Unit::MsSeconds };
        self.cite(tokens, Value::from(ms), unit)
    }

    fn share(&self, tokens: &[&str], x: f64) -> Fill {
        self.cite(tokens, Value::from(x), Unit::SharePercent)
    }

    /// Fills `template` and adds the sentence.
    fn push(&mut self, key: &str, template: &str, fills: Fills) {
        let (text, numbers) = fill(template, fills);
        self.sentences.push(Sentence { key: key.to_owned(), text, numbers });
    }

    /// The sentence `key` in the form chosen by the count its template names.
    fn sentence(&mut self, key: &str, fills: Fills) {
        let forms = &self.templates.sentences[key];
        let count = forms.count.as_deref().and_then(|name| {
            fills.iter().find(|(n, _)| *n == name).and_then(|(_, f)| match f {
                Fill::Number(c) => c.value.as_u64(),
                Fill::Words(_) => None,
            })
        });
        let template = self.templates.form(key, count).to_owned();
        self.push(key, &template, fills);
    }
}

/// `template` with its `{name}` placeholders replaced; the numbers cited in the order they
/// appear. An unknown placeholder is left as written.
fn fill(template: &str, mut fills: Fills) -> (String, Vec<Cited>) {
    let mut text = String::with_capacity(template.len() + 32);
    let mut numbers = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        text.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            text.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let name = &after[..close];
        match fills.iter().position(|(n, _)| *n == name) {
            Some(i) => match &mut fills[i].1 {
                Fill::Words(w) => text.push_str(w),
                Fill::Number(c) => {
                    text.push_str(&c.shown);
                    numbers.push(c.clone());
                }
            },
            None => {
                text.push('{');
                text.push_str(name);
                text.push('}');
            }
        }
        rest = &after[close + 1..];
    }
    text.push_str(rest);
    (text, numbers)
}

/// The English summary of `analysis`.
pub fn summarise(analysis: &Analysis) -> Vec<Sentence> {
    summarise_in(analysis, &Templates::english())
}

/// The summary of `analysis` in the language of `templates`.
pub fn summarise_in(a: &Analysis, templates: &Templates) -> Vec<Sentence> {
    let mut w = Writer { templates, sentences: Vec::new() };
    let c = &a.conversation;
    let n = &c.counts;
    if n.speakers == 0 {
        let f = vec![("speakers", w.count(&["conversation", "counts", "speakers"], 0))];
        w.sentence("empty", f);
        return w.sentences;
    }
    // How the counts were made.
    let texts = a.mode.values().filter(|m| **m == Mode::Text).count();
    let estimated = a.estimated_times.is_some();
    let mode = match texts {
        _ if estimated => "mode_estimated",
        0 => "mode_timing",
        t if t == a.mode.len() => "mode_text",
        _ => "mode_mixed",
    };
    let classifier = match a.params.classifier {
        Classifier::Rules => "classifier_rules",
        Classifier::Calibrated => "classifier_calibrated",
        Classifier::Joint => "classifier_joint",
    };
    let f = vec![
        ("speakers", w.count(&["conversation", "counts", "speakers"], n.speakers)),
        ("span", w.duration(&["conversation", "span"], c.span.get())),
        ("mode", Fill::Words(templates.word(mode).to_owned())),
        ("classifier", Fill::Words(templates.word(classifier).to_owned())),
    ];
    w.sentence(if estimated { "basis_estimated" } else { "basis" }, f);

    // What cannot be measured, said before anything that could be read as measured.
    // Optional, as `talk_over`: a template file written before it still works.
    let not_separated =
        a.diagnostics.warnings.iter().any(|x| matches!(x, AnalysisWarning::SpeakersNotSeparated));
    let not_separated = not_separated && w.templates.sentences.contains_key("not_separated");
    if not_separated {
        w.sentence("not_separated", Vec::new());
    }
    let one_track =
        a.diagnostics.warnings.iter().any(|x| matches!(x, AnalysisWarning::OverlapNotMeasurable));
    if one_track && !not_separated {
        w.sentence("not_measurable_one_track", Vec::new());
    } else if estimated {
        w.sentence("not_measurable_estimated", Vec::new());
    }
    if estimated {
        w.sentence("not_measurable_words_estimated", Vec::new());
    } else if texts == 0 {
        w.sentence("not_measurable_words", Vec::new());
    }

    // The floor, largest share first (none to tell when the speakers were not told apart:
    // one label holds everyone's speech).
    let mut floor: Vec<(&String, f64)> = a
        .speakers
        .iter()
        .filter(|_| !not_separated)
        .filter_map(|(name, s)| s.floor_share.map(|x| (name, x)))
        .collect();
    floor.sort_by(|x, y| y.1.total_cmp(&x.1).then(x.0.cmp(y.0)));
    let more_speakers = floor.len() > MAX_FLOOR_SPEAKERS;
    floor.truncate(MAX_FLOOR_SPEAKERS);
    if let Some(((top, share), others)) = floor.split_first() {
        let forms = &templates.sentences["floor"];
        let item = forms.item.clone().unwrap_or_default();
        let mut items = Vec::new();
        let mut cited = Vec::new();
        for (name, x) in others {
            let f = vec![
                ("speaker", Fill::Words((*name).clone())),
                ("share", w.share(&["speakers", name, "floor_share"], *x)),
            ];
            let (text, numbers) = fill(&item, f);
            items.push(text);
            cited.extend(numbers);
        }
        let f = vec![
            ("speaker", Fill::Words((*top).clone())),
            ("share", w.share(&["speakers", top, "floor_share"], *share)),
            ("items", Fill::Words(templates.list(&items))),
        ];
        let template =
            if others.is_empty() { forms.alone.clone() } else { Some(forms.other.clone()) };
        let (text, mut numbers) = fill(&template.unwrap_or_default(), f);
        numbers.extend(cited);
        w.sentences.push(Sentence { key: "floor".to_owned(), text, numbers });
        // Optional, as `talk_over`: a template file written before it still works.
        if more_speakers && w.templates.sentences.contains_key("floor_rest") {
            w.sentence("floor_rest", Vec::new());
        }
    }

    if !not_separated {
        let f = vec![
            ("transfers", w.count(&["conversation", "counts", "transfers"], n.events.transfers)),
            ("turns", w.count(&["conversation", "counts", "turns"], n.events.turns)),
        ];
        w.sentence("turns", f);
    }

    // Measured from the times: neither the speakers found one per frame nor the ends estimated.
    let timing = (n.events.interruptions, n.events.successful, n.events.talk_over_events);
    if let (false, false, (Some(interruptions), Some(successful), Some(talk_over))) =
        (one_track, estimated, timing)
    {
        if let (Some(ratio), Some(overlap)) = (c.overlap_ratio, c.overlap) {
            let f = vec![
                ("overlap", w.duration(&["conversation", "overlap"], overlap.get())),
                ("ratio", w.share(&["conversation", "overlap_ratio"], ratio)),
            ];
            w.sentence("overlap", f);
        }
        let f = vec![
            ("interruptions", w.count(&["conversation", "counts", "interruptions"], interruptions)),
            ("successful", w.count(&["conversation", "counts", "successful"], successful)),
        ];
        w.sentence("interruptions", f);
        // Talk-over does not depend on which onsets are judged interruptions (only on which
        // talkspurts are backchannels): starting while the holder is still talking is a fact
        // of the timing, an interruption a judgement about it. An optional sentence (a
        // template file without it skips it).
        if w.templates.sentences.contains_key("talk_over") {
            let f = vec![(
                "talk_over",
                w.count(&["conversation", "counts", "talk_over_events"], talk_over),
            )];
            w.sentence("talk_over", f);
        }
        let mut pairs: Vec<(usize, &crate::analysis::result::PairOut)> =
            a.pairs.iter().enumerate().filter(|(_, p)| p.attempts > 0).collect();
        pairs.sort_by(|x, y| {
            y.1.attempts
                .cmp(&x.1.attempts)
                .then(y.1.successful.cmp(&x.1.successful))
                .then(x.0.cmp(&y.0))
        });
        for (i, p) in pairs.iter().take(MAX_PAIRS) {
            let index = i.to_string();
            let f = vec![
                ("interrupter", Fill::Words(p.interrupter.to_string())),
                ("interruptee", Fill::Words(p.interruptee.to_string())),
                ("attempts", w.count(&["pairs", &index, "attempts"], p.attempts)),
                ("successful", w.count(&["pairs", &index, "successful"], p.successful)),
            ];
            w.sentence("pair", f);
        }
        if pairs.len() > MAX_PAIRS {
            w.sentence("pairs_rest", Vec::new());
        }
    }

    let f = vec![(
        "backchannels",
        w.count(&["conversation", "counts", "backchannels"], n.events.backchannels),
    )];
    w.sentence("backchannels", f);
    if texts > 0 {
        let f = vec![(
            "claims",
            w.count(&["conversation", "counts", "verbal_claims"], n.events.verbal_claims),
        )];
        w.sentence("verbal_claims", f);
    }
    w.sentences
}

/// A conversation object of the JSON output with its summary: the [`Conversation`]'s fields
/// and `summary`, the sentences of [`summarise`].
#[derive(Debug, Clone, Serialize)]
pub struct Summarised<'a> {
    /// The conversation, its fields written beside `summary`.
    #[serde(flatten)]
    pub conversation: &'a Conversation<'a>,
    /// The summary sentences.
    pub summary: Vec<Sentence>,
}

impl<'a> Summarised<'a> {
    /// `conversation` with its English summary.
    pub fn new(conversation: &'a Conversation<'a>) -> Self {
        Summarised { conversation, summary: summarise(conversation.analysis) }
    }
}

/// Serialises conversations each with its summary (for `serialize_with`).
pub fn serialize_summarised<S: serde::Serializer>(
    conversations: &[Conversation<'_>],
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    serializer.collect_seq(conversations.iter().map(Summarised::new))
}

#[cfg(test)]
mod tests;
