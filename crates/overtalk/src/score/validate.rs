//! What md-eval-22, dscore and pyannote.metrics would each reject or silently change in an
//! RTTM file (and its UEM), and in a UEM file on its own ([`validate_uem`]) — checked on the
//! raw lines, before any reader repairs them.
//!
//! | finding | md-eval-22 | dscore | pyannote.metrics |
//! | --- | --- | --- | --- |
//! | fewer than 9 fields | rejects | rejects | misreads |
//! | more than 10 fields (spaces in a field) | truncates | truncates | misreads (columns shift) |
//! | 9 fields | fine | fine | fine (slat read as missing) |
//! | zero duration | ignores | **rejects** | ignores |
//! | negative duration | rejects | rejects | ignores |
//! | negative onset | fine | rejects | fine |
//! | non-numeric or `<NA>` time | reads 0 | rejects | rejects |
//! | blank line | skips | rejects | skips |
//! | comment line (`;;`, `#`) | skips | rejects | **rejects** (a word in the time columns, or more than 10 words); else adds an empty recording |
//! | type other than SPEAKER / SPKR-INFO | uses the type | **reads as a turn** | skips |
//! | speaker overlapping themselves | warns, counts once | merges | **counts twice** |
//! | unsorted lines | sorts | sorts | sorts |
//! | UEM id with a `.` | **ignores the UEM line** | **drops the recording** | fine |
//! | UEM time `nan`, `inf` | reads 0 | NaN passes its check (undefined region); **fails** on an `inf` or NaN offset | drops the region (NaN); keeps an infinite one |
//! | UEM time `1e3`, `+5`, `1_000` | keeps digits and dots (`13`, `5`, `1000`) | Python `float()` | pandas float (**fails** on `1_000`) |
//! | UEM line of more than 4 fields | reads the first 4 | reads the first 4 | first line: **shifts every line's columns**; later line: **fails** |
//! | UEM regions of two channels of one file overlapping | fine | merges (ignores the channel) | merges (ignores the channel) |

use serde::{Deserialize, Serialize};

use crate::time::{parse_seconds, Time};

use super::{Side, ZeroLengthTurn};

/// A scoring tool that reads RTTM.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Consumer {
    /// NIST `md-eval-22.pl`.
    MdEval,
    /// `nryant/dscore`.
    Dscore,
    /// `pyannote.metrics` with `pyannote.database.util.load_rttm`.
    Pyannote,
}

crate::named::named_enum!(Consumer, "RTTM consumer");

impl Consumer {
    /// Every consumer, in the order `overtalk validate` reports them.
    pub const ALL: [Consumer; 3] = [Consumer::MdEval, Consumer::Dscore, Consumer::Pyannote];

    /// Display name.
    pub fn name(self) -> &'static str {
        match self {
            Consumer::MdEval => "md-eval",
            Consumer::Dscore => "dscore",
            Consumer::Pyannote => "pyannote.metrics",
        }
    }
}

/// How bad a finding is for a consumer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Effect {
    /// Worth knowing; the result is unchanged.
    Note,
    /// The file is accepted but the score silently changes.
    Changes,
    /// The tool refuses the file (or crashes).
    Rejects,
}

/// One thing a consumer would do with a line of the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    /// Which tool.
    pub consumer: Consumer,
    /// What it does.
    pub effect: Effect,
    /// 1-based line (none for file-level findings).
    pub line: Option<usize>,
    /// What and why.
    pub message: String,
}

/// The result of checking one RTTM text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Validation {
    /// Findings in line order, per consumer.
    pub findings: Vec<Finding>,
    /// Zero-length turns as `(recording id, turn)`.
    pub zero_length: Vec<(String, ZeroLengthTurn)>,
    /// Number of SPEAKER lines (RTTM).
    pub turns: usize,
    /// Number of region lines (UEM).
    #[serde(default)]
    pub regions: usize,
}

impl Validation {
    /// Whether a consumer would refuse the file.
    pub fn rejected_by(&self, c: Consumer) -> bool {
        self.findings.iter().any(|f| f.consumer == c && f.effect == Effect::Rejects)
    }
}

/// What `pyannote.database.util.load_rttm` does with a comment line (`;;` or `#`), given its
/// whitespace-separated fields: it reads every line with pandas as ten columns named `type uri
/// NA1 start duration NA2 NA3 speaker NA4 NA5`, `start` and `duration` as floats, and no comment
/// character. So a comment of more than ten words, or whose fourth or fifth word is not a
/// number, makes it raise; a shorter one adds an empty recording named by its second word. A
/// blank line is skipped by pandas (`None`).
fn pyannote_comment(fields: &[&str]) -> Option<(Effect, String)> {
    if fields.is_empty() {
        return None;
    }
    if fields.len() > 10 {
        return Some((
            Effect::Rejects,
            format!("load_rttm raises: pandas expects 10 fields and finds {}", fields.len()),
        ));
    }
    for (k, column) in [(3, "start"), (4, "duration")] {
        if let Some(f) = fields.get(k) {
            if f.parse::<f64>().is_err() {
                return Some((
                    Effect::Rejects,
                    format!("load_rttm raises: its {column} column {f:?} is not a number"),
                ));
            }
        }
    }
    match fields.get(1) {
        Some(uri) => Some((
            Effect::Changes,
            format!("load_rttm reads it as a row: an empty recording {uri:?} appears"),
        )),
        None => Some((Effect::Note, "load_rttm reads it as a row and then drops it".to_owned())),
    }
}

/// A field as a finding quotes it: debug-quoted, and cut after 40 characters (a line of binary
/// data is no label to print whole).
fn shown(field: &str) -> String {
    let mut chars = field.chars();
    let head: String = chars.by_ref().take(40).collect();
    if chars.next().is_some() {
        format!("{head:?}…")
    } else {
        format!("{head:?}")
    }
}

/// Checks RTTM text. `uem_ids` are the recording ids of the UEM that goes with it, if any.
/// `side` tags the zero-length turns found.
pub fn validate_rttm(text: &str, uem_ids: Option<&[String]>, side: Side) -> Validation {
    use Consumer::*;
    use Effect::*;
    let mut v = Validation::default();
    let push = |v: &mut Validation, c: Consumer, e: Effect, line: Option<usize>, m: String| {
        v.findings.push(Finding { consumer: c, effect: e, line, message: m });
    };
    let mut last_onset: std::collections::HashMap<String, Time> = Default::default();
    let mut unsorted_seen = false;
    let mut turns: Vec<(String, String, Time, Time, usize)> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() || line.starts_with('#') || line.starts_with(';') {
            let what = if fields.is_empty() { "blank line" } else { "comment line" };
            push(
                &mut v,
                Dscore,
                Rejects,
                Some(n),
                format!("{what}: dscore parses every line as a turn (\"Number of fields < 9\")"),
            );
            if let Some((effect, why)) = pyannote_comment(&fields) {
                push(&mut v, Pyannote, effect, Some(n), format!("{what}: {why}"));
            }
            continue;
        }
        let kind = fields[0];
        if kind == "SPKR-INFO" {
            continue;
        }
        if !kind.eq_ignore_ascii_case("SPEAKER") {
            // dscore's `_parse_rttm_line` splits every line but SPKR-INFO into at least nine
            // fields, or raises.
            let kind = shown(kind);
            let (effect, message) = if fields.len() < 9 {
                (Rejects, format!("type {kind}, {} fields: dscore parses every line but SPKR-INFO as a turn (\"Number of fields < 9\")", fields.len()))
            } else {
                (
                    Changes,
                    format!("type {kind}: dscore reads every non-SPKR-INFO line as a speaker turn"),
                )
            };
            push(&mut v, Dscore, effect, Some(n), message);
            continue;
        }
        v.turns += 1;
        if fields.len() < 9 {
            for c in [MdEval, Dscore] {
                push(
                    &mut v,
                    c,
                    Rejects,
                    Some(n),
                    format!("{} fields; RTTM needs 9 or 10", fields.len()),
                );
            }
            push(
                &mut v,
                Pyannote,
                Changes,
                Some(n),
                format!("{} fields: missing columns are read as NaN", fields.len()),
            );
            continue;
        }
        if fields.len() > 10 {
            for c in [MdEval, Dscore] {
                push(&mut v, c, Changes, Some(n), format!("{} fields (a space inside a field?): the extra fields are ignored, so a label with spaces is cut", fields.len()));
            }
            push(
                &mut v,
                Pyannote,
                Rejects,
                Some(n),
                format!(
                    "{} fields: pandas expects 10 columns (a space inside a field?)",
                    fields.len()
                ),
            );
        } else if fields.len() == 9 {
            push(
                &mut v,
                Pyannote,
                Note,
                Some(n),
                "9 fields: fine for md-eval and dscore; pyannote reads the missing slat as NaN"
                    .to_owned(),
            );
        }
        let (id, speaker) = (fields[1].to_owned(), fields[7].to_owned());
        let onset = parse_seconds(fields[3]).ok();
        let duration = parse_seconds(fields[4]).ok();
        let (Some(onset), Some(duration)) = (onset, duration) else {
            push(
                &mut v,
                MdEval,
                Changes,
                Some(n),
                format!(
                    "onset {:?} / duration {:?} not a number: perl reads 0",
                    fields[3], fields[4]
                ),
            );
            for c in [Dscore, Pyannote] {
                push(
                    &mut v,
                    c,
                    Rejects,
                    Some(n),
                    format!("onset {:?} / duration {:?} is not a number", fields[3], fields[4]),
                );
            }
            continue;
        };
        if onset < Time::ZERO {
            push(&mut v, Dscore, Rejects, Some(n), format!("onset {} s < 0", onset));
        }
        if duration == Time::ZERO {
            push(
                &mut v,
                MdEval,
                Changes,
                Some(n),
                format!("zero-length turn of {speaker:?}: skipped"),
            );
            push(
                &mut v,
                Dscore,
                Rejects,
                Some(n),
                format!("zero-length turn of {speaker:?}: \"Turn duration <= 0\""),
            );
            push(
                &mut v,
                Pyannote,
                Changes,
                Some(n),
                format!("zero-length turn of {speaker:?}: dropped as an empty segment"),
            );
            v.zero_length
                .push((id.clone(), ZeroLengthTurn { side, speaker: speaker.clone(), at: onset }));
        } else if duration < Time::ZERO {
            for c in [MdEval, Dscore] {
                push(&mut v, c, Rejects, Some(n), format!("negative duration {duration} s"));
            }
            push(
                &mut v,
                Pyannote,
                Changes,
                Some(n),
                format!("negative duration {duration} s: dropped as an empty segment"),
            );
        } else {
            turns.push((
                id.clone(),
                speaker,
                onset,
                Time::from_micros(onset.micros().saturating_add(duration.micros())),
                n,
            ));
        }
        let prev = last_onset.entry(id.clone()).or_insert(onset);
        if onset < *prev && !unsorted_seen {
            unsorted_seen = true;
            for c in [MdEval, Dscore, Pyannote] {
                push(
                    &mut v,
                    c,
                    Note,
                    Some(n),
                    format!("{id}: lines not sorted by onset (sorted on reading; no effect)"),
                );
            }
        }
        *prev = (*prev).max(onset);
    }
    // Self-overlap: same recording and speaker, strictly overlapping turns.
    turns.sort_by(|a, b| (&a.0, &a.1, a.2).cmp(&(&b.0, &b.1, b.2)));
    let mut reported = std::collections::HashSet::new();
    for w in turns.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if a.0 == b.0 && a.1 == b.1 && b.2 < a.3 && reported.insert((a.0.clone(), a.1.clone())) {
            let what = format!(
                "{}: speaker {:?} overlaps themselves (lines {} and {})",
                a.0, a.1, a.4, b.4
            );
            push(&mut v, MdEval, Note, Some(b.4), format!("{what}: warns, counts the union"));
            push(&mut v, Dscore, Note, Some(b.4), format!("{what}: merged first"));
            push(
                &mut v,
                Pyannote,
                Changes,
                Some(b.4),
                format!("{what}: the overlapped time counts twice"),
            );
        }
    }
    if let Some(ids) = uem_ids {
        let seen: std::collections::HashSet<&str> = last_onset.keys().map(String::as_str).collect();
        for id in ids.iter().filter(|id| id.contains('.') && seen.contains(id.as_str())) {
            let key = crate::score::uem_key(id, crate::score::UemIds::MdEval);
            let whose = if seen.contains(key.as_str()) {
                format!("applies the line to the recording {key:?} instead")
            } else {
                "ignores the line (reference extent scored instead)".to_owned()
            };
            push(&mut v, MdEval, Changes, None, format!("UEM id {id:?} has a '.': md-eval drops its first dot and what follows up to the next one ({key:?}) and {whose}"));
            push(&mut v, Dscore, Changes, None, format!("UEM id {id:?} has a '.': dscore strips the last extension, its turns are dropped (no result at all if nothing else remains)"));
        }
    }
    v.findings.sort_by_key(|f| (f.consumer, f.line));
    v
}

/// Readable UEM regions by recording and channel: onset and offset in seconds, and the line.
type UemRegions = std::collections::BTreeMap<(String, String), Vec<(f64, f64, usize)>>;

/// A UEM time as md-eval-22 reads it: only its digits and dots kept (`-1.5` → `1.5`, `x` →
/// empty), then read as perl reads a string as a number: its leading `digits.digits`, 0 when
/// there is none. Gives the kept text and the number.
fn md_eval_time(field: &str) -> (String, f64) {
    let kept: String = field.chars().filter(|c| c.is_ascii_digit() || *c == '.').collect();
    let int = kept.chars().take_while(char::is_ascii_digit).count();
    let frac = kept[int..]
        .strip_prefix('.')
        .map_or(0, |rest| 1 + rest.chars().take_while(char::is_ascii_digit).count());
    let number = kept[..int + frac].parse::<f64>().unwrap_or(0.0);
    (kept, number)
}

/// A string as Python's `float()` reads it (dscore reads UEM times so): an optional sign, then
/// `nan`, `inf` or `infinity` in any case, or decimal digits (single `_` between digits
/// allowed) with an optional fraction and exponent. `None` where `float()` raises ValueError.
fn python_float(field: &str) -> Option<f64> {
    let (negative, body) = match field.as_bytes().first() {
        Some(b'-') => (true, &field[1..]),
        Some(b'+') => (false, &field[1..]),
        _ => (false, field),
    };
    let signed = |x: f64| if negative { -x } else { x };
    match body.to_ascii_lowercase().as_str() {
        "nan" => return Some(f64::NAN),
        "inf" | "infinity" => return Some(signed(f64::INFINITY)),
        _ => {}
    }
    // Digits with single underscores between them; the digits alone when valid.
    let digits = |s: &str| -> Option<String> {
        let ok = !s.is_empty()
            && !s.starts_with('_')
            && !s.ends_with('_')
            && !s.contains("__")
            && s.bytes().all(|b| b.is_ascii_digit() || b == b'_');
        ok.then(|| s.replace('_', ""))
    };
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let (whole, fraction) = match mantissa.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (mantissa, None),
    };
    let whole = if whole.is_empty() { Some(String::new()) } else { digits(whole) }?;
    let fraction = match fraction {
        Some("") => Some(String::new()),
        Some(f) => Some(digits(f)?),
        None => None,
    };
    if whole.is_empty() && fraction.as_deref().is_none_or(str::is_empty) {
        return None;
    }
    let exponent = match exponent {
        Some(e) => {
            let (sign, e) = match e.as_bytes().first() {
                Some(b'-') => ("-", &e[1..]),
                Some(b'+') => ("", &e[1..]),
                _ => ("", e),
            };
            format!("e{sign}{}", digits(e)?)
        }
        None => String::new(),
    };
    let text = format!("{whole}.{}{exponent}", fraction.unwrap_or_default());
    let text = if text.starts_with('.') { format!("0{text}") } else { text };
    text.parse::<f64>().ok().map(signed)
}

/// A field as pandas reads a float column (pyannote's `load_uem` reads UEM times so).
#[derive(Clone, Copy, Debug, PartialEq)]
enum PandasFloat {
    /// A number, infinite ones included.
    Number(f64),
    /// One of pandas' default missing-value markers (`nan`, `NA`, `None`, `null`, …): NaN.
    Missing,
    /// No number: `read_csv` raises ValueError.
    Fails,
}

/// How pandas' `read_csv` (default `na_values`, C parser) reads `field` in a float column: its
/// missing-value markers are NaN; otherwise an optional sign, then `inf` or `infinity` in any
/// case, or digits with an optional fraction and an exponent (no `_`, no `nan` in capitals).
fn pandas_float(field: &str) -> PandasFloat {
    const NA: [&str; 17] = [
        "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A", "NA", "NULL",
        "NaN", "None", "n/a", "nan", "null", "#N/A", "#NA",
    ];
    if NA.contains(&field) {
        return PandasFloat::Missing;
    }
    let body = field.strip_prefix(['-', '+']).unwrap_or(field);
    let lower = body.to_ascii_lowercase();
    if lower == "nan" || field.contains('_') {
        return PandasFloat::Fails;
    }
    match python_float(field) {
        Some(x) if !x.is_nan() => PandasFloat::Number(x),
        _ => PandasFloat::Fails,
    }
}

/// dscore's reading of a UEM region's onset and offset (`scorelib/uem.py`: `float()`, then
/// `onset >= offset or onset < 0` refused as "Invalid interval"; `score.py` then sizes each
/// file's frames from its largest offset with `int(offset / step)`). Reports through `push` and
/// gives the region when dscore keeps a finite one.
fn dscore_times(fields: [&str; 2], push: &mut dyn FnMut(Effect, String)) -> Option<[f64; 2]> {
    let mut times = [0.0f64; 2];
    for (k, (field, what)) in fields.into_iter().zip(["onset", "offset"]).enumerate() {
        match python_float(field) {
            None => {
                push(
                    Effect::Rejects,
                    format!("{what} {} is no time: dscore fails (ValueError)", shown(field)),
                );
                return None;
            }
            Some(x) => {
                if parse_seconds(field).is_err() && x.is_finite() {
                    push(
                        Effect::Note,
                        format!("{what} {}: dscore reads {x} (Python's float)", shown(field)),
                    );
                }
                times[k] = x;
            }
        }
    }
    let [onset, offset] = times;
    let [on, off] = fields;
    if onset.is_nan() || offset.is_nan() {
        let what = if onset.is_nan() { format!("onset {on}") } else { format!("offset {off}") };
        let (effect, what_then) = if offset.is_nan() {
            (Effect::Rejects, "then sizing the file's frames from its largest offset fails (`int(nan)`, ValueError) when NaN is taken as the largest, and the region is dropped when it is not")
        } else {
            (Effect::Changes, "then no frame falls in the region (NaN sorts after every time), while the DER run of md-eval it writes the region for reads the onset as 0")
        };
        push(effect, format!("{what} is NaN to dscore: it passes the interval check (a comparison with NaN is false), {what_then}"));
        return None;
    }
    if onset < 0.0 {
        push(
            Effect::Rejects,
            format!("negative onset {on}: dscore refuses the region (\"Invalid interval\")"),
        );
        return None;
    }
    if offset <= onset {
        let what = if offset == onset { "zero length" } else { "negative length" };
        push(
            Effect::Rejects,
            format!("region {on}–{off} has {what}: dscore refuses it (\"Invalid interval\")"),
        );
        return None;
    }
    if offset.is_infinite() {
        push(Effect::Rejects, format!("offset {off} is infinite to dscore: sizing the file's frames from its largest offset fails (`int(inf)`, OverflowError)"));
        return None;
    }
    Some([onset, offset])
}

/// pyannote's reading of a UEM region (`pyannote.database.util.load_uem`: pandas float
/// columns, then `Segment(start, end)` in a `Timeline`, which drops empty segments; a NaN time
/// makes the segment empty). `None` fields are past the end of the line (NaN to pandas).
/// Reports through `push` and gives the region when the timeline keeps a finite one.
fn pyannote_times(
    fields: [Option<&str>; 2],
    push: &mut dyn FnMut(Effect, String),
) -> Option<[f64; 2]> {
    let mut times = [f64::NAN; 2];
    for (k, (field, what)) in fields.into_iter().zip(["onset", "offset"]).enumerate() {
        let Some(field) = field else { continue };
        match pandas_float(field) {
            PandasFloat::Fails => {
                push(
                    Effect::Rejects,
                    format!(
                        "{what} {} is no time: load_uem fails (pandas reads the column as float)",
                        shown(field)
                    ),
                );
                return None;
            }
            PandasFloat::Missing => {}
            PandasFloat::Number(x) => {
                if parse_seconds(field).is_err() && x.is_finite() {
                    push(
                        Effect::Note,
                        format!("{what} {}: load_uem reads {x} (pandas float)", shown(field)),
                    );
                }
                times[k] = x;
            }
        }
    }
    let [onset, offset] = times;
    let shown_field = |f: Option<&str>| f.map_or_else(|| "(none)".to_owned(), shown);
    let [on, off] = fields;
    if onset.is_nan() || offset.is_nan() {
        let (what, field) =
            if onset.is_nan() { ("onset", shown_field(on)) } else { ("offset", shown_field(off)) };
        push(Effect::Changes, format!("{what} {field} is missing to pandas (NaN): the segment is empty and the timeline drops the region"));
        return None;
    }
    if offset <= onset {
        let what = if offset == onset { "zero length" } else { "negative length" };
        let (on, off) = (on.unwrap_or(""), off.unwrap_or(""));
        push(
            Effect::Changes,
            format!("region {on}–{off} has {what}: an empty segment, which the timeline drops"),
        );
        return None;
    }
    if onset.is_infinite() || offset.is_infinite() {
        let (on, off) = (on.unwrap_or(""), off.unwrap_or(""));
        push(Effect::Changes, format!("region {on}–{off} is unbounded to pandas: the timeline keeps a segment of infinite length"));
        return None;
    }
    Some([onset, offset])
}

/// The overlapping regions of each recording and channel, as `(later line, line it
/// overlaps)`: each region, in onset order, against the furthest-reaching one before it.
fn overlaps(regions: UemRegions) -> Vec<((String, String), (usize, usize))> {
    let mut out = Vec::new();
    for (key, mut list) in regions {
        list.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.2.cmp(&b.2)));
        let mut reach: Option<(f64, usize)> = None;
        for &(onset, offset, n) in &list {
            if let Some((end, m)) = reach {
                if onset < end {
                    out.push((key.clone(), (n, m)));
                }
            }
            if reach.is_none_or(|(end, _)| offset > end) {
                reach = Some((offset, n));
            }
        }
    }
    out
}

/// Checks UEM text (`file channel onset offset` per line) the way each scoring tool reads a
/// UEM given with the RTTM:
///
/// | finding | md-eval-22 | dscore | pyannote.metrics |
/// | --- | --- | --- | --- |
/// | blank line | skips | **rejects** | skips |
/// | comment line (`;`) | skips | skips (only at the very start of the line) | reads it as a row (**rejects** it with words in the time columns) |
/// | comment line (`#`) | skips | **rejects** | reads it as a row (**rejects** it with words in the time columns) |
/// | fewer than 4 fields | **rejects** | **rejects** | reads the missing time as NaN |
/// | non-numeric time | keeps its digits and dots only | **rejects** | **rejects** |
/// | negative onset | drops the `-` (and checks the length and overlaps so) | **rejects** | fine |
/// | zero or negative length | **rejects** | **rejects** | drops the region |
/// | regions overlapping on one recording and channel | **rejects** | merges | merges |
/// | id with a `.` | drops the first `.` and what follows up to the next | drops the last extension | fine |
///
/// md-eval: `get_uem_data` of md-eval-22.pl; dscore: `scorelib/uem.py`; pyannote:
/// `pyannote.database.util.load_uem` (pandas, four columns, no comment character) and
/// `Timeline`, which drops empty segments and whose support crops the annotations.
pub fn validate_uem(text: &str) -> Validation {
    use Consumer::*;
    use Effect::*;
    let mut v = Validation::default();
    let push = |v: &mut Validation, c: Consumer, e: Effect, line: Option<usize>, m: String| {
        v.findings.push(Finding { consumer: c, effect: e, line, message: m });
    };
    // Regions as md-eval reads them, by (file, channel), for its overlap check: (onset,
    // offset, line). dscore's and pyannote's by recording alone: both ignore the channel.
    let mut md_regions: UemRegions = Default::default();
    let mut ds_regions: UemRegions = Default::default();
    let mut pa_regions: UemRegions = Default::default();
    let mut channels: std::collections::HashMap<usize, String> = Default::default();
    let mut dotted: Vec<String> = Vec::new();
    // pandas gives the table as many columns as load_uem names (4) or as its first line has,
    // whichever is more; the first line's fields past the fourth become the row index, so
    // every line's columns are read that many places to the right.
    let (pd_width, pd_first) = text
        .lines()
        .enumerate()
        .find_map(|(i, l)| {
            let k = l.split_whitespace().count();
            (k > 0).then_some((k.max(4), i + 1))
        })
        .unwrap_or((4, 1));
    if pd_width > 4 {
        let shift = pd_width - 4;
        push(
            &mut v,
            Pyannote,
            Changes,
            Some(pd_first),
            format!("the first line has {pd_width} fields: pandas takes the first {shift} field(s) of every line as its row index, so load_uem reads each line {shift} column(s) to the right (the recording from field {}, the onset and offset from fields {} and {})", shift + 1, shift + 3, shift + 4),
        );
    }
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.is_empty() {
            push(
                &mut v,
                Dscore,
                Rejects,
                Some(n),
                "blank line: dscore reads every line not starting with `;` as a region (IndexError)"
                    .to_owned(),
            );
            continue;
        }
        if line.starts_with(';') || line.starts_with('#') {
            if !raw.starts_with(';') {
                push(&mut v, Dscore, Rejects, Some(n), "comment line: dscore skips only lines whose first character is `;`, and fails on this one".to_owned());
            }
            if fields.len() > pd_width {
                push(&mut v, Pyannote, Rejects, Some(n), format!("comment line: load_uem has no comment character and fails on its {} fields, the first line {pd_width} (pandas: \"Expected {pd_width} fields in line {n}, saw {}\")", fields.len(), fields.len()));
                continue;
            }
            // pandas reads the third and fourth columns as floats: words there fail it.
            let words = fields
                .iter()
                .skip(pd_width - 4 + 2)
                .take(2)
                .find(|f| matches!(pandas_float(f), PandasFloat::Fails));
            let message = match words {
                Some(w) => format!("comment line: load_uem has no comment character, reads it as a row and fails on {} in a time column (pandas reads the column as float)", shown(w)),
                None => format!(
                    "comment line: load_uem has no comment character and reads it as a row of the recording {}",
                    shown(fields[0])
                ),
            };
            push(
                &mut v,
                Pyannote,
                if words.is_some() { Rejects } else { Changes },
                Some(n),
                message,
            );
            continue;
        }
        v.regions += 1;
        if fields.len() < 4 {
            let what = format!("{} fields, UEM has 4 (`file channel onset offset`)", fields.len());
            push(
                &mut v,
                MdEval,
                Rejects,
                Some(n),
                format!("{what}: \"insufficient number of fields in UEM record\""),
            );
            push(&mut v, Dscore, Rejects, Some(n), format!("{what}: dscore fails (IndexError)"));
            push(
                &mut v,
                Pyannote,
                Changes,
                Some(n),
                format!("{what}: load_uem reads the missing columns as NaN"),
            );
            continue;
        }
        let (file, channel, on, off) = (fields[0], fields[1], fields[2], fields[3]);
        if fields.len() > 4 {
            let what = format!("{} fields, UEM has 4", fields.len());
            push(&mut v, MdEval, Note, Some(n), format!("{what}: md-eval reads the first 4"));
            push(&mut v, Dscore, Note, Some(n), format!("{what}: dscore reads the first 4"));
        }
        if file.contains('.') {
            dotted.push(file.to_owned());
        }
        let key = (file.to_owned(), channel.to_lowercase());
        // md-eval keeps only the digits and dots of a time before any check, so its length
        // and overlap checks see `-5` as 5 and `x` as 0.
        let md = [on, off].map(md_eval_time);
        for (field, (kept, number), what) in [(on, &md[0], "onset"), (off, &md[1], "offset")] {
            if parse_seconds(field).is_err() && python_float(field).is_some() {
                // `1_000` and `+5` are the same number to both; `1e3` and `nan` are not.
                let same = python_float(field).is_some_and(|x| x == *number);
                let message = if same {
                    format!(
                        "{what} {} is not written as a plain time: md-eval keeps its digits and dots ({}) and reads {number}, as Python's float() does",
                        shown(field),
                        shown(kept)
                    )
                } else {
                    format!(
                        "{what} {} is a number to Python, not to md-eval: it keeps the digits and dots ({}) and reads {number}",
                        shown(field),
                        shown(kept)
                    )
                };
                push(&mut v, MdEval, if same { Note } else { Changes }, Some(n), message);
            } else if parse_seconds(field).is_err() {
                let message = format!(
                    "{what} {} is no time: md-eval keeps its digits and dots ({})",
                    shown(field),
                    shown(kept)
                );
                push(&mut v, MdEval, Changes, Some(n), message);
            } else if field.strip_prefix('-') == Some(kept.as_str()) {
                let message =
                    format!("negative {what} {field}: md-eval drops the `-` (reads {kept})");
                push(&mut v, MdEval, Changes, Some(n), message);
            } else if kept != field {
                let message = format!("{what} {field}: md-eval keeps its digits and dots ({kept})");
                push(&mut v, MdEval, Changes, Some(n), message);
            }
        }
        let [(md_on, md_onset), (md_off, md_offset)] = md;
        if md_offset <= md_onset {
            let what = if md_offset == md_onset { "zero length" } else { "negative length" };
            let read = if (md_on.as_str(), md_off.as_str()) == (on, off) {
                String::new()
            } else {
                format!(" as md-eval reads it ({md_onset}–{md_offset})")
            };
            push(
                &mut v,
                MdEval,
                Rejects,
                Some(n),
                format!("region {on}–{off} has {what}{read}: \"non-positive evaluation segment length in UEM data\""),
            );
        } else {
            // md-eval files the region under its id without the first extension.
            let md_key = (crate::score::uem_key(file, crate::score::UemIds::MdEval), key.1.clone());
            md_regions.entry(md_key).or_default().push((md_onset, md_offset, n));
        }
        // dscore reads the times with Python's `float()`, and ignores the channel.
        let ds_id = crate::score::uem_key(file, crate::score::UemIds::Dscore);
        if let Some([onset, offset]) =
            dscore_times([on, off], &mut |e, m| push(&mut v, Dscore, e, Some(n), m))
        {
            ds_regions.entry((ds_id, String::new())).or_default().push((onset, offset, n));
        }
        // pyannote reads the columns as pandas lays them out: the first line's field count
        // sets them.
        if fields.len() > pd_width {
            push(&mut v, Pyannote, Rejects, Some(n), format!("{} fields, the first line {pd_width}: load_uem fails (pandas: \"Expected {pd_width} fields in line {n}, saw {}\")", fields.len(), fields.len()));
            continue;
        }
        let shift = pd_width - 4;
        let uri = fields.get(shift).copied().unwrap_or("");
        let (p_on, p_off) = (fields.get(shift + 2).copied(), fields.get(shift + 3).copied());
        if let Some([onset, offset]) =
            pyannote_times([p_on, p_off], &mut |e, m| push(&mut v, Pyannote, e, Some(n), m))
        {
            pa_regions.entry((uri.to_owned(), String::new())).or_default().push((onset, offset, n));
        }
        channels.insert(n, channel.to_owned());
    }
    for ((file, channel), (n, m)) in overlaps(md_regions) {
        let what = format!(
            "{file}, channel {channel}: the region of line {n} overlaps the region of line {m}"
        );
        push(
            &mut v,
            MdEval,
            Rejects,
            Some(n),
            format!("{what}: \"UEM file has overlapping evaluation segments\""),
        );
    }
    let overlap = |file: &str, n: usize, m: usize| {
        match (channels.get(&n), channels.get(&m)) {
        (Some(a), Some(b)) if a.to_lowercase() != b.to_lowercase() => format!(
            "{file}: the region of line {n} (channel {a}) overlaps the region of line {m} (channel {b})"
        ),
        (Some(a), _) => format!(
            "{file}, channel {a}: the region of line {n} overlaps the region of line {m}"
        ),
        _ => format!("{file}: the region of line {n} overlaps the region of line {m}"),
    }
    };
    for ((file, _), (n, m)) in overlaps(ds_regions) {
        let what = overlap(&file, n, m);
        let ignored =
            if what.contains(") overlaps") { " (dscore ignores the channel)" } else { "" };
        push(&mut v, Dscore, Note, Some(n), format!("{what}: merged{ignored}"));
    }
    for ((file, _), (n, m)) in overlaps(pa_regions) {
        let what = overlap(&file, n, m);
        let ignored =
            if what.contains(") overlaps") { " (load_uem ignores the channel)" } else { "" };
        push(
            &mut v,
            Pyannote,
            Note,
            Some(n),
            format!("{what}: the support of the timeline merges them{ignored}"),
        );
    }
    dotted.sort();
    dotted.dedup();
    for id in dotted {
        let md = crate::score::uem_key(&id, crate::score::UemIds::MdEval);
        let ds = crate::score::uem_key(&id, crate::score::UemIds::Dscore);
        push(&mut v, MdEval, Changes, None, format!("UEM id {id:?} has a '.': md-eval matches it as {md:?}, so an RTTM recording {id:?} is scored without it"));
        if ds != id {
            push(&mut v, Dscore, Changes, None, format!("UEM id {id:?} has a '.': dscore matches it as {ds:?}, so an RTTM recording {id:?} is scored without it"));
        }
    }
    v.findings.sort_by_key(|f| (f.consumer, f.line));
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each tool's reading of a UEM: md-eval rejects overlapping and empty regions (as it reads
    /// them: `-5 2` is 5–2), dscore blank lines and negative onsets, pyannote words in the time
    /// columns, of a comment line too.
    #[test]
    fn a_uem_is_checked_as_each_tool_reads_it() {
        let text = ";; regions\nrec 1 0.0 10.0\nrec 1 5.0 20.0\n\nrec 1 30 30\nrec2 1 -1.5 2.0\n  # note\nrec4 1 x 40\nother 1 0 5\nrec3 1 -5 2\n;; from here on\n";
        let v = validate_uem(text);
        assert_eq!(v.regions, 7);
        let got: Vec<(Consumer, Effect, Option<usize>, &str)> =
            v.findings.iter().map(|f| (f.consumer, f.effect, f.line, f.message.as_str())).collect();
        use Consumer::*;
        use Effect::*;
        assert_eq!(
            got,
            vec![
                (MdEval, Rejects, Some(3), "rec, channel 1: the region of line 3 overlaps the region of line 2: \"UEM file has overlapping evaluation segments\""),
                (MdEval, Rejects, Some(5), "region 30–30 has zero length: \"non-positive evaluation segment length in UEM data\""),
                (MdEval, Changes, Some(6), "negative onset -1.5: md-eval drops the `-` (reads 1.5)"),
                (MdEval, Changes, Some(8), "onset \"x\" is no time: md-eval keeps its digits and dots (\"\")"),
                (MdEval, Changes, Some(10), "negative onset -5: md-eval drops the `-` (reads 5)"),
                (MdEval, Rejects, Some(10), "region -5–2 has negative length as md-eval reads it (5–2): \"non-positive evaluation segment length in UEM data\""),
                (Dscore, Note, Some(3), "rec, channel 1: the region of line 3 overlaps the region of line 2: merged"),
                (Dscore, Rejects, Some(4), "blank line: dscore reads every line not starting with `;` as a region (IndexError)"),
                (Dscore, Rejects, Some(5), "region 30–30 has zero length: dscore refuses it (\"Invalid interval\")"),
                (Dscore, Rejects, Some(6), "negative onset -1.5: dscore refuses the region (\"Invalid interval\")"),
                (Dscore, Rejects, Some(7), "comment line: dscore skips only lines whose first character is `;`, and fails on this one"),
                (Dscore, Rejects, Some(8), "onset \"x\" is no time: dscore fails (ValueError)"),
                (Dscore, Rejects, Some(10), "negative onset -5: dscore refuses the region (\"Invalid interval\")"),
                (Pyannote, Changes, Some(1), "comment line: load_uem has no comment character and reads it as a row of the recording \";;\""),
                (Pyannote, Note, Some(3), "rec, channel 1: the region of line 3 overlaps the region of line 2: the support of the timeline merges them"),
                (Pyannote, Changes, Some(5), "region 30–30 has zero length: an empty segment, which the timeline drops"),
                (Pyannote, Changes, Some(7), "comment line: load_uem has no comment character and reads it as a row of the recording \"#\""),
                (Pyannote, Rejects, Some(8), "onset \"x\" is no time: load_uem fails (pandas reads the column as float)"),
                (Pyannote, Rejects, Some(11), "comment line: load_uem has no comment character, reads it as a row and fails on \"here\" in a time column (pandas reads the column as float)"),
            ]
        );
        // A clean UEM: nothing to say but its dotted id.
        let v = validate_uem("rec.a 1 0 10\nrec.a 1 10 20\n");
        assert_eq!(v.regions, 2);
        let got: Vec<_> = v.findings.iter().map(|f| (f.consumer, f.message.as_str())).collect();
        assert_eq!(
            got,
            [
                (MdEval, "UEM id \"rec.a\" has a '.': md-eval matches it as \"rec\", so an RTTM recording \"rec.a\" is scored without it"),
                (Dscore, "UEM id \"rec.a\" has a '.': dscore matches it as \"rec\", so an RTTM recording \"rec.a\" is scored without it"),
            ]
        );
        assert!(validate_uem("rec 1 0 10\nrec 1 10 20\n").findings.is_empty());
    }

    /// Each finding as (consumer, effect, line, message).
    fn findings(v: &Validation) -> Vec<(Consumer, Effect, Option<usize>, &str)> {
        v.findings.iter().map(|f| (f.consumer, f.effect, f.line, f.message.as_str())).collect()
    }

    /// Times written `nan`, `inf`, `1e3`, `+5`, `1_000`, `NA`: md-eval keeps their digits and
    /// dots, dscore reads them with Python's `float()`, pyannote with pandas (checked against
    /// dscore's `UEM` class and pyannote.database's `load_uem` run on the same lines).
    #[test]
    fn uem_times_as_python_pandas_and_perl_read_them() {
        let v = validate_uem(
            "a 1 nan 10\nb 1 0 inf\nc 1 0 1e3\nd 1 +5 10\ne 1 0 NaN\nf 1 0 1_000\ng 1 NA 5\nh 1 -inf 3\n",
        );
        use Consumer::*;
        use Effect::*;
        assert_eq!(
            findings(&v),
            vec![
                (MdEval, Changes, Some(1), "onset \"nan\" is a number to Python, not to md-eval: it keeps the digits and dots (\"\") and reads 0"),
                (MdEval, Changes, Some(2), "offset \"inf\" is a number to Python, not to md-eval: it keeps the digits and dots (\"\") and reads 0"),
                (MdEval, Rejects, Some(2), "region 0–inf has zero length as md-eval reads it (0–0): \"non-positive evaluation segment length in UEM data\""),
                (MdEval, Changes, Some(3), "offset 1e3: md-eval keeps its digits and dots (13)"),
                (MdEval, Changes, Some(4), "onset +5: md-eval keeps its digits and dots (5)"),
                (MdEval, Changes, Some(5), "offset \"NaN\" is a number to Python, not to md-eval: it keeps the digits and dots (\"\") and reads 0"),
                (MdEval, Rejects, Some(5), "region 0–NaN has zero length as md-eval reads it (0–0): \"non-positive evaluation segment length in UEM data\""),
                (MdEval, Note, Some(6), "offset \"1_000\" is not written as a plain time: md-eval keeps its digits and dots (\"1000\") and reads 1000, as Python's float() does"),
                (MdEval, Changes, Some(7), "onset \"NA\" is no time: md-eval keeps its digits and dots (\"\")"),
                (MdEval, Changes, Some(8), "onset \"-inf\" is a number to Python, not to md-eval: it keeps the digits and dots (\"\") and reads 0"),
                (Dscore, Changes, Some(1), "onset nan is NaN to dscore: it passes the interval check (a comparison with NaN is false), then no frame falls in the region (NaN sorts after every time), while the DER run of md-eval it writes the region for reads the onset as 0"),
                (Dscore, Rejects, Some(2), "offset inf is infinite to dscore: sizing the file's frames from its largest offset fails (`int(inf)`, OverflowError)"),
                (Dscore, Rejects, Some(5), "offset NaN is NaN to dscore: it passes the interval check (a comparison with NaN is false), then sizing the file's frames from its largest offset fails (`int(nan)`, ValueError) when NaN is taken as the largest, and the region is dropped when it is not"),
                (Dscore, Note, Some(6), "offset \"1_000\": dscore reads 1000 (Python's float)"),
                (Dscore, Rejects, Some(7), "onset \"NA\" is no time: dscore fails (ValueError)"),
                (Dscore, Rejects, Some(8), "negative onset -inf: dscore refuses the region (\"Invalid interval\")"),
                (Pyannote, Changes, Some(1), "onset \"nan\" is missing to pandas (NaN): the segment is empty and the timeline drops the region"),
                (Pyannote, Changes, Some(2), "region 0–inf is unbounded to pandas: the timeline keeps a segment of infinite length"),
                (Pyannote, Changes, Some(5), "offset \"NaN\" is missing to pandas (NaN): the segment is empty and the timeline drops the region"),
                (Pyannote, Rejects, Some(6), "offset \"1_000\" is no time: load_uem fails (pandas reads the column as float)"),
                (Pyannote, Changes, Some(7), "onset \"NA\" is missing to pandas (NaN): the segment is empty and the timeline drops the region"),
                (Pyannote, Changes, Some(8), "region -inf–3 is unbounded to pandas: the timeline keeps a segment of infinite length"),
            ]
        );
    }

    /// pandas sizes load_uem's table from its first line: extra fields there shift every
    /// line's columns; extra fields on a later line make it raise. md-eval and dscore read
    /// the first four. dscore and pyannote ignore the channel, so regions of two channels of
    /// one recording overlap for them.
    #[test]
    fn uem_extra_fields_and_channels() {
        use Consumer::*;
        use Effect::*;
        assert_eq!(
            findings(&validate_uem("a 1 0 10 x\nb 1 0 5\n")),
            vec![
                (MdEval, Note, Some(1), "5 fields, UEM has 4: md-eval reads the first 4"),
                (Dscore, Note, Some(1), "5 fields, UEM has 4: dscore reads the first 4"),
                (Pyannote, Changes, Some(1), "the first line has 5 fields: pandas takes the first 1 field(s) of every line as its row index, so load_uem reads each line 1 column(s) to the right (the recording from field 2, the onset and offset from fields 4 and 5)"),
                (Pyannote, Rejects, Some(1), "offset \"x\" is no time: load_uem fails (pandas reads the column as float)"),
                (Pyannote, Changes, Some(2), "offset (none) is missing to pandas (NaN): the segment is empty and the timeline drops the region"),
            ]
        );
        assert_eq!(
            findings(&validate_uem("a 1 0 10 7\nb 1 0 5 8\n")),
            vec![
                (MdEval, Note, Some(1), "5 fields, UEM has 4: md-eval reads the first 4"),
                (MdEval, Note, Some(2), "5 fields, UEM has 4: md-eval reads the first 4"),
                (Dscore, Note, Some(1), "5 fields, UEM has 4: dscore reads the first 4"),
                (Dscore, Note, Some(2), "5 fields, UEM has 4: dscore reads the first 4"),
                (Pyannote, Changes, Some(1), "the first line has 5 fields: pandas takes the first 1 field(s) of every line as its row index, so load_uem reads each line 1 column(s) to the right (the recording from field 2, the onset and offset from fields 4 and 5)"),
                (Pyannote, Changes, Some(1), "region 10–7 has negative length: an empty segment, which the timeline drops"),
            ]
        );
        assert_eq!(
            findings(&validate_uem("a 1 0 10\nb 1 0 5 y\n")),
            vec![
                (MdEval, Note, Some(2), "5 fields, UEM has 4: md-eval reads the first 4"),
                (Dscore, Note, Some(2), "5 fields, UEM has 4: dscore reads the first 4"),
                (Pyannote, Rejects, Some(2), "5 fields, the first line 4: load_uem fails (pandas: \"Expected 4 fields in line 2, saw 5\")"),
            ]
        );
        assert_eq!(
            findings(&validate_uem("a 1 0 10\na 2 5 20\nb.x 1 0 4\nb.y 1 2 6\n")),
            vec![
                (MdEval, Changes, None, "UEM id \"b.x\" has a '.': md-eval matches it as \"b\", so an RTTM recording \"b.x\" is scored without it"),
                (MdEval, Changes, None, "UEM id \"b.y\" has a '.': md-eval matches it as \"b\", so an RTTM recording \"b.y\" is scored without it"),
                (MdEval, Rejects, Some(4), "b, channel 1: the region of line 4 overlaps the region of line 3: \"UEM file has overlapping evaluation segments\""),
                (Dscore, Changes, None, "UEM id \"b.x\" has a '.': dscore matches it as \"b\", so an RTTM recording \"b.x\" is scored without it"),
                (Dscore, Changes, None, "UEM id \"b.y\" has a '.': dscore matches it as \"b\", so an RTTM recording \"b.y\" is scored without it"),
                (Dscore, Note, Some(2), "a: the region of line 2 (channel 2) overlaps the region of line 1 (channel 1): merged (dscore ignores the channel)"),
                (Dscore, Note, Some(4), "b, channel 1: the region of line 4 overlaps the region of line 3: merged"),
                (Pyannote, Note, Some(2), "a: the region of line 2 (channel 2) overlaps the region of line 1 (channel 1): the support of the timeline merges them (load_uem ignores the channel)"),
            ]
        );
    }

    /// md-eval keeps a UEM time's digits and dots and reads their leading number.
    #[test]
    fn md_eval_reads_the_digits_and_dots_of_a_uem_time() {
        let got: Vec<_> = ["12.5", "-1.5", "1,000.5", "1.2.3", ".5", "x", "", "1e3"]
            .into_iter()
            .map(md_eval_time)
            .collect();
        let want = [
            ("12.5", 12.5),
            ("1.5", 1.5),
            ("1000.5", 1000.5),
            ("1.2.3", 1.2),
            (".5", 0.5),
            ("", 0.0),
            ("", 0.0),
            ("13", 13.0),
        ];
        assert_eq!(got, want.map(|(k, t)| (k.to_owned(), t)));
    }

    #[test]
    fn zero_length_turn_is_rejected_by_dscore_only() {
        let text = "SPEAKER f1 1 0.000 5.000 <NA> <NA> A <NA> <NA>\nSPEAKER f1 1 5.000 0.000 <NA> <NA> C <NA> <NA>\n";
        let v = validate_rttm(text, None, Side::Reference);
        assert!(v.rejected_by(Consumer::Dscore));
        assert!(!v.rejected_by(Consumer::MdEval));
        assert!(!v.rejected_by(Consumer::Pyannote));
        assert_eq!(v.zero_length.len(), 1);
        assert_eq!(v.zero_length[0].1.at, Time::from_millis(5000));
        assert_eq!(v.turns, 2);
    }

    #[test]
    fn spaces_dots_and_self_overlap() {
        let text = "SPEAKER rec.a 1 0.0 6.0 <NA> <NA> Mary Ann <NA> <NA>\nSPEAKER rec.a 1 4.0 6.0 <NA> <NA> Mary Ann <NA> <NA>\n";
        let v = validate_rttm(text, Some(&["rec.a".to_owned()]), Side::Reference);
        assert!(v.rejected_by(Consumer::Pyannote));
        assert!(!v.rejected_by(Consumer::MdEval));
        let md: Vec<&Finding> =
            v.findings.iter().filter(|f| f.consumer == Consumer::MdEval).collect();
        assert_eq!(md.len(), 4, "{md:#?}");
        assert!(md.iter().any(|f| f.message.contains("drops its first dot")));
        assert!(v
            .findings
            .iter()
            .any(|f| f.consumer == Consumer::Pyannote && f.message.contains("twice")));
    }

    #[test]
    fn each_rule_of_the_table() {
        let text = "; a comment\n\
                    SPEAKER f 1 5.0 1.0 <NA> <NA> A <NA>\n\
                    SPEAKER f 1 1.0 -1.0 <NA> <NA> B <NA> <NA>\n\
                    SPEAKER f 1 -0.5 1.0 <NA> <NA> B <NA> <NA>\n\
                    SPEAKER f 1 x 1.0 <NA> <NA> B <NA> <NA>\n\
                    SPEAKER f 1 2.0\n\
                    LEXEME f 1 2.0 0.5 hello lex A <NA> <NA>\n\
                    garbage\n";
        let v = validate_rttm(text, None, Side::Reference);
        let at = |c: Consumer, line: usize| -> Vec<Effect> {
            v.findings
                .iter()
                .filter(|f| f.consumer == c && f.line == Some(line))
                .map(|f| f.effect)
                .collect()
        };
        assert_eq!(at(Consumer::Dscore, 1), vec![Effect::Rejects]);
        assert_eq!(at(Consumer::MdEval, 1), vec![]);
        assert_eq!(at(Consumer::Pyannote, 2), vec![Effect::Note]);
        // Line 3 is also the first out of order (a note, once per file).
        assert_eq!(at(Consumer::MdEval, 3), vec![Effect::Rejects, Effect::Note]);
        assert_eq!(at(Consumer::Pyannote, 3), vec![Effect::Changes, Effect::Note]);
        assert_eq!(at(Consumer::Dscore, 4), vec![Effect::Rejects]);
        assert_eq!(at(Consumer::MdEval, 4), vec![]);
        assert_eq!(at(Consumer::MdEval, 5), vec![Effect::Changes]);
        assert_eq!(at(Consumer::Pyannote, 5), vec![Effect::Rejects]);
        assert_eq!(at(Consumer::MdEval, 6), vec![Effect::Rejects]);
        assert_eq!(at(Consumer::Dscore, 7), vec![Effect::Changes]);
        assert_eq!(at(Consumer::MdEval, 7), vec![]);
        // Fewer than nine fields on a line of another type: dscore raises.
        assert_eq!(at(Consumer::Dscore, 8), vec![Effect::Rejects]);
        let long = format!("{}\n", "\0".repeat(10_000));
        let v2 = validate_rttm(&long, None, Side::Reference);
        assert!(v2.findings[0].message.len() < 400, "{}", v2.findings[0].message);
        assert_eq!(v.turns, 5);
    }

    #[test]
    fn comment_lines_are_rejected_by_pyannote_load_rttm() {
        let text = ";; this file was made by hand\n\
                    ;; rec\n\
                    \n\
                    # 1 2 3.0 4.0\n\
                    SPEAKER f 1 0.0 1.0 <NA> <NA> A <NA> <NA>\n";
        let v = validate_rttm(text, None, Side::Reference);
        let pyannote: Vec<(Option<usize>, Effect)> = v
            .findings
            .iter()
            .filter(|f| f.consumer == Consumer::Pyannote)
            .map(|f| (f.line, f.effect))
            .collect();
        assert_eq!(
            pyannote,
            vec![
                (Some(1), Effect::Rejects),
                (Some(2), Effect::Changes),
                (Some(4), Effect::Changes)
            ]
        );
        assert!(v.rejected_by(Consumer::Pyannote));
        assert!(!v.rejected_by(Consumer::MdEval));
        let clean = "SPEAKER f 1 0.0 1.0 <NA> <NA> A <NA> <NA>\n\n";
        assert!(!validate_rttm(clean, None, Side::Reference).rejected_by(Consumer::Pyannote));
    }

    #[test]
    fn clean_file_has_no_findings() {
        let text = "SPEAKER f1 1 0.000 5.000 <NA> <NA> A <NA> <NA>\n";
        assert!(validate_rttm(text, None, Side::Hypothesis).findings.is_empty());
    }
}
