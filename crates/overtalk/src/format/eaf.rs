//! ELAN annotation format (EAF 2.x/3.0 XML).
//!
//! The mapping to the model: **a speaker is a top-level tier** (a `TIER` without `PARENT_REF`),
//! named by its `PARTICIPANT` attribute when present and non-empty, else by its `TIER_ID`; each
//! `ALIGNABLE_ANNOTATION` of such a tier is a track whose content is its `ANNOTATION_VALUE`
//! exactly as written (an empty value gives a track without text).
//!
//! ```text
//! TIER "Person1 (Utterance)" PARTICIPANT=P001   [How do you read this?]  [この…]   speaker P001
//!   TIER "Person1 (Chunk)" PARENT_REF=…          [How do you…]           [この…]   skipped (child)
//!     TIER "… (ChunkLanguage)" REF_ANNOTATION     [en]                    [jp]      skipped (child)
//! TIER "marker" (no PARTICIPANT)                 [convo start      ]                speaker marker
//! ```
//!
//! - **Child tiers** (with `PARENT_REF`) are never speech, whatever their participant: they
//!   subdivide, annotate or translate their parent (words, chunks, language codes), so counting
//!   them would count the parent's time twice. The first child tier of a speaker tier whose
//!   linguistic type is a subdivision (`Time_Subdivision`, `Symbolic_Subdivision`) gives the
//!   **words** of the parent's tracks, in document order — a time-aligned word belongs to the
//!   parent annotation containing its middle, a reference word to the annotation it refers to;
//!   a word is timed when both its slots are aligned. A speaker tier whose annotations are all
//!   empty, or all segment ids (`DS_2011.001`, as INEL and HZSK corpora keep them), takes its
//!   text from its first one-to-one child tier (`Symbolic_Association`), as
//!   interlinear templates keep it (FLEx and ELAN's `ref` → `tx`: pympi's
//!   `get_ref_annotation_data_for_tier` and ELAN's transcript export read it the same way).
//!   Every other child tier (`Included_In` chunks, `Symbolic_Association` translations or
//!   codes, deeper tiers) is skipped, with one note per file that names them.
//! - **Reference annotations** (`REF_ANNOTATION`) have no time of their own (they inherit their
//!   parent's); they only occur on child tiers, and a top-level one is skipped with a warning.
//! - A top-level tier without `PARTICIPANT` and without dependent tiers, in a file whose other
//!   speaker tiers name their participant (a `marker` or `noise` tier), is not a speaker: it is
//!   left out (one with dependent tiers is read as a speaker, with a note). So is a top-level
//!   tier whose linguistic type is a translation, comment or note (`translation`, `ft`,
//!   `comments`) when its participant has another top-level tier of another type: it renders
//!   their speech, it is not more of it (Corpus NGT's `Interpreter S1` beside the glosses of
//!   S1). So is a top-level tier without `PARTICIPANT` whose id or linguistic type names notes,
//!   comments, remarks, errors, a translation, gestures, glosses, morphemes or parts of speech
//!   (the one list of [`crate::format::tiers`], which the TextGrid reader shares: `notes`, `misc`,
//!   `Comments`, pympi's sample `gestures` of type `gesture`) beside tiers that do not: it
//!   annotates the speech or the body, and is left out with the note that names it. The words
//!   are matched whole, the id split at every character that is not a letter or digit and
//!   compared without case: `Posy`, `Morphy`, `Glossop` or `Notebaert` stay speakers, but a
//!   speaker whose id is such a word on its own (`POS`, `pos-1`, `Gloss`, `FT` as someone's
//!   initials) is left out when their tier names no participant; the note names the tier, and
//!   `--tiers` reads it back. When no top-level tier names
//!   its participant, one note lists the tiers read as speakers by their ids. And so are tiers that
//!   `--tiers`/`--ignore-tiers` exclude (by tier id; see [`crate::format::tiers`]), with one note
//!   naming them all.
//! - **Time slots** (`TIME_ORDER`) are integer milliseconds. A slot without `TIME_VALUE` is
//!   unaligned: its time is interpolated linearly, by position in `TIME_ORDER`, between the
//!   nearest aligned slots before and after it (rounded half away from zero to the millisecond),
//!   or taken from the only aligned neighbour when it has one side only; every speech
//!   annotation that uses such a slot gets a `missing-time` warning. `TIME_UNITS` other than
//!   milliseconds are unsupported. A `TIME_ORIGIN` (media offset) is reported and not applied.
//! - Nesting deeper than [`Limits::max_depth`](crate::format::Limits) is a limit error, and XML
//!   errors name the line and column. No DTD entity is expanded.
//!
//! Writing gives EAF 3.0: one top-level tier per speaker with `PARTICIPANT` set to the speaker,
//! one linguistic type `utterance`, times rounded half away from zero to the millisecond and
//! negative times clipped to 0 (with a warning when that moves a boundary; a track that rounding
//! empties is not written). ELAN does not allow overlapping annotations on one
//! tier, so a speaker who overlaps themselves gets extra tiers `Name (2)`, … with the **same**
//! `PARTICIPANT`: reading the file back gives the same speaker. `DATE` is fixed
//! (`1970-01-01T00:00:00+00:00`) so the output is reproducible.

use std::collections::{HashMap, HashSet};
use std::io::Write;

use quick_xml::events::Event;
use quick_xml::Reader;

use crate::error::{Error, Result, Warning, WarningKind};
use crate::format::textgrid::{layer_names, layers, segment_at, tracks_by_speaker};
use crate::format::tiers::{left_out_note, names_notes};
use crate::format::xml::{attr, attributes, interpolate, XmlDoc};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, Segment, Transcript, TranscriptBuilder, Word};
use crate::time::{round_div, Time};

use crate::format::{Format, FormatSpec, Head, Sniff, Verdict};

/// What the format registry knows of this format (see [`FormatSpec`]).
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Eaf,
    name: "eaf",
    aliases: &["elan"],
    extension: "eaf",
    detected_by: &["eaf"],
    read: Ok(read),
    write: Some(write),
    json: false,
    many_recordings: false,
    paragraphs: false,
    sniff: &[Sniff::Start { rank: 30, test: sniff }],
};

/// An XML text is EAF when it has an `ANNOTATION_DOCUMENT`, and no known format otherwise.
fn sniff(head: &Head<'_>) -> Verdict {
    if !(head.trimmed.starts_with("<?xml") || head.trimmed.starts_with("<ANNOTATION_DOCUMENT")) {
        return Verdict::Pass;
    }
    if head.head.contains("<ANNOTATION_DOCUMENT") {
        Verdict::Is(Format::Eaf)
    } else {
        Verdict::Unknown
    }
}

/// One `TIER` as read.
#[derive(Debug, Default)]
struct Tier {
    id: String,
    participant: Option<String>,
    parent: Option<String>,
    linguistic_type: String,
    at: usize,
    annotations: Vec<Ann>,
}

/// One annotation as read: alignable (two slot ids) or a reference (no time of its own).
#[derive(Debug, Default)]
struct Ann {
    id: String,
    slots: Option<(String, String)>,
    /// `ANNOTATION_REF` of a reference annotation.
    parent: Option<String>,
    value: String,
    at: usize,
}

/// What the element being read is, for the few elements whose content matters.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Elem {
    Other,
    Tier,
    Annotation,
    Value,
}

/// Reads an EAF document: one recording, named by [`ReadContext::recording_id`].
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let doc = XmlDoc::new(text, "eaf", ctx);
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;

    let mut stack: Vec<Elem> = Vec::new();
    // (id, value in ms, offset)
    let mut slots: Vec<(String, Option<i64>, usize)> = Vec::new();
    let mut tiers: Vec<Tier> = Vec::new();
    let mut constraints: HashMap<String, String> = HashMap::new();
    let mut tier: Option<Tier> = None;
    let mut ann: Option<Ann> = None;

    loop {
        let (at, event) = doc.next(&mut reader, ctx)?;
        let (start, empty) = match &event {
            Event::Start(e) => (Some(e), false),
            Event::Empty(e) => (Some(e), true),
            _ => (None, false),
        };
        if let Some(e) = start {
            let root = ("ANNOTATION_DOCUMENT", "an EAF file");
            doc.opening(ctx, e, empty, at, stack.len(), root)?;
            let name = e.name();
            let name = name.as_ref();
            let mut elem = Elem::Other;
            match name {
                b"HEADER" => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    if let Some(units) = attr(&attrs, "TIME_UNITS") {
                        if units != "milliseconds" {
                            return Err(Error::unsupported(format!(
                                "eaf: TIME_UNITS {units:?}; only milliseconds are supported"
                            )));
                        }
                    }
                }
                b"MEDIA_DESCRIPTOR" => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    if let Some(origin) = attr(&attrs, "TIME_ORIGIN").filter(|o| o.trim() != "0") {
                        let (line, column) = doc.pos(at);
                        ctx.warn_at(
                            WarningKind::Note,
                            line,
                            Some(column),
                            format!("media TIME_ORIGIN {origin} ms not applied: times are relative to the annotation timeline"),
                        )?;
                    }
                }
                b"TIME_SLOT" => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    let Some(id) = attr(&attrs, "TIME_SLOT_ID") else {
                        return Err(doc.error(ctx, at, "TIME_SLOT without TIME_SLOT_ID"));
                    };
                    let value = match attr(&attrs, "TIME_VALUE") {
                        None => None,
                        Some(v) => Some(parse_ms(&v).map_err(|m| {
                            doc.error(ctx, at, format!("TIME_VALUE {:?}: {m}", short(&v)))
                        })?),
                    };
                    slots.push((id, value, at));
                }
                b"TIER" => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    let t = Tier {
                        id: attr(&attrs, "TIER_ID").unwrap_or_default(),
                        participant: attr(&attrs, "PARTICIPANT").filter(|p| !p.trim().is_empty()),
                        parent: attr(&attrs, "PARENT_REF").filter(|p| !p.is_empty()),
                        linguistic_type: attr(&attrs, "LINGUISTIC_TYPE_REF").unwrap_or_default(),
                        at,
                        annotations: Vec::new(),
                    };
                    if empty {
                        tiers.push(t);
                    } else {
                        tier = Some(t);
                        elem = Elem::Tier;
                    }
                }
                b"ALIGNABLE_ANNOTATION" | b"REF_ANNOTATION" if tier.is_some() => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    let slots = if name == b"ALIGNABLE_ANNOTATION" {
                        Some((
                            attr(&attrs, "TIME_SLOT_REF1").unwrap_or_default(),
                            attr(&attrs, "TIME_SLOT_REF2").unwrap_or_default(),
                        ))
                    } else {
                        None
                    };
                    let a = Ann {
                        id: attr(&attrs, "ANNOTATION_ID").unwrap_or_default(),
                        slots,
                        parent: attr(&attrs, "ANNOTATION_REF"),
                        value: String::new(),
                        at,
                    };
                    if empty {
                        if let Some(t) = tier.as_mut() {
                            t.annotations.push(a);
                        }
                    } else {
                        ann = Some(a);
                        elem = Elem::Annotation;
                    }
                }
                b"ANNOTATION_VALUE" if ann.is_some() => elem = Elem::Value,
                b"LINGUISTIC_TYPE" => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    if let (Some(id), Some(c)) =
                        (attr(&attrs, "LINGUISTIC_TYPE_ID"), attr(&attrs, "CONSTRAINTS"))
                    {
                        constraints.insert(id, c);
                    }
                }
                _ => {}
            }
            if !empty {
                stack.push(elem);
            }
            continue;
        }
        match event {
            Event::End(_) => match stack.pop() {
                Some(Elem::Tier) => {
                    if let Some(t) = tier.take() {
                        tiers.push(t);
                    }
                }
                Some(Elem::Annotation) => {
                    if let (Some(a), Some(t)) = (ann.take(), tier.as_mut()) {
                        t.annotations.push(a);
                    }
                }
                _ => {}
            },
            Event::Text(t) if stack.last() == Some(&Elem::Value) => {
                let s =
                    t.unescape().map_err(|err| doc.error(ctx, at, format!("bad text: {err}")))?;
                if let Some(a) = ann.as_mut() {
                    a.value.push_str(&s);
                }
            }
            Event::CData(t) if stack.last() == Some(&Elem::Value) => {
                if let Some(a) = ann.as_mut() {
                    a.value.push_str(&String::from_utf8_lossy(&t));
                }
            }
            Event::Text(t) if stack.is_empty() && !t.iter().all(u8::is_ascii_whitespace) => {
                return Err(doc.error(ctx, at, "text outside the root element"));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    doc.finish(ctx, stack.len(), "no <ANNOTATION_DOCUMENT> element: not an EAF file")?;
    build(&doc, slots, tiers, &constraints, ctx)
}

fn short(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Parses a `TIME_VALUE`: milliseconds (a fraction is tolerated and rounded half away from
/// zero), at most [`MAX_MICROS`](crate::time::MAX_MICROS) / 1000.
fn parse_ms(v: &str) -> std::result::Result<i64, String> {
    let v = v.trim();
    if v.contains(['e', 'E']) || v.is_empty() {
        let e = if v.eq_ignore_ascii_case("nan") {
            crate::time::TimeError::NotANumber
        } else {
            crate::time::TimeError::Syntax
        };
        return Err(e.to_string());
    }
    // `v` ms = `v`e-3 s, read exactly to the microsecond, then rounded to the millisecond.
    let t = crate::time::parse_seconds(&format!("{v}e-3")).map_err(|e| e.to_string())?;
    Ok(round_div(t.micros(), 1000))
}

fn build(
    doc: &XmlDoc<'_>,
    slots: Vec<(String, Option<i64>, usize)>,
    tiers: Vec<Tier>,
    constraints: &HashMap<String, String>,
    ctx: &mut ReadContext<'_>,
) -> Result<Corpus> {
    // Unaligned slots are interpolated between the aligned ones.
    let known: Vec<Option<i64>> = slots.iter().map(|s| s.1).collect();
    let resolved = interpolate(&known);
    let index: HashMap<&str, usize> =
        slots.iter().enumerate().map(|(i, s)| (s.0.as_str(), i)).collect();

    // The words tier of each speaker tier: its first child tier that subdivides it.
    let subdivides = |t: &Tier| {
        constraints
            .get(&t.linguistic_type)
            .is_some_and(|c| c == "Time_Subdivision" || c == "Symbolic_Subdivision")
    };
    let mut word_tier_of: HashMap<&str, usize> = HashMap::new();
    for (k, t) in tiers.iter().enumerate() {
        if let Some(parent) = &t.parent {
            if subdivides(t) && tiers.iter().any(|p| &p.id == parent && p.parent.is_none()) {
                word_tier_of.entry(parent.as_str()).or_insert(k);
            }
        }
    }
    let word_tiers: HashSet<usize> = word_tier_of.values().copied().collect();
    // The text tier of each speaker tier whose annotations are empty: its first one-to-one
    // child (`Symbolic_Association`), as interlinear templates keep the text (FLEx `ref` → `tx`).
    let mut text_tier_of: HashMap<&str, usize> = HashMap::new();
    for (k, t) in tiers.iter().enumerate() {
        let associates =
            constraints.get(&t.linguistic_type).is_some_and(|c| c == "Symbolic_Association");
        if let Some(parent) = t.parent.as_deref().filter(|_| associates) {
            let empty_parent = tiers.iter().any(|p| {
                p.id == parent
                    && p.parent.is_none()
                    && !p.annotations.is_empty()
                    && (p.annotations.iter().all(|a| a.value.trim().is_empty())
                        || p.annotations.iter().all(|a| is_reference_id(&a.value)))
            });
            if empty_parent {
                text_tier_of.entry(parent).or_insert(k);
            }
        }
    }
    let text_tiers: HashSet<usize> = text_tier_of.values().copied().collect();

    let mut b = TranscriptBuilder::new();
    let some_participant = tiers.iter().any(|t| t.parent.is_none() && t.participant.is_some());
    let mut left_out: Vec<(String, String)> = Vec::new();
    let mut first_left_out = (0, 0);
    // Dependent tiers other than the word tiers, noted once: (tier (of parent)), first position.
    let mut children: Vec<String> = Vec::new();
    let mut first_child = (0, 0);
    // Tiers read as speakers by their ids when no tier names its participant.
    let mut by_id: Vec<String> = Vec::new();
    for (k, tier) in tiers.iter().enumerate() {
        let (line, column) = if tier.parent.is_some() || tier.participant.is_none() {
            doc.pos(tier.at)
        } else {
            (0, 0)
        };
        if let Some(parent) = &tier.parent {
            if word_tiers.contains(&k) || text_tiers.contains(&k) {
                continue;
            }
            if children.is_empty() {
                first_child = (line, column);
            }
            children.push(format!("{:?} (of {parent:?})", tier.id));
            continue;
        }
        let speaker_name = tier.participant.clone().unwrap_or_else(|| tier.id.clone());
        let unnamed = tier.participant.is_none() && some_participant;
        let has_children = tiers.iter().any(|c| c.parent.as_deref() == Some(tier.id.as_str()));
        // A translation or a comment of a participant who has a tier of their own words is
        // not more of their speech (Corpus NGT: `Tolk S1` and `Interpreter S1` beside the
        // glosses of S1).
        let rendering = is_rendering(&tier.linguistic_type)
            && tiers.iter().any(|o| {
                o.parent.is_none()
                    && o.participant.is_some()
                    && o.participant == tier.participant
                    && !is_rendering(&o.linguistic_type)
            });
        // A top-level tier without participant whose id or linguistic type names notes,
        // comments, a translation, gestures, glosses, morphemes or parts of speech (`notes`,
        // `Comments`, pympi's `gestures` of type `gesture`) beside tiers that are not: it
        // annotates the speech or the body, it is no one's speech.
        let not_speech = |t: &Tier| names_notes(&t.id) || names_notes(&t.linguistic_type);
        let named_notes = tier.participant.is_none()
            && not_speech(tier)
            && tiers.iter().any(|o| o.parent.is_none() && o.id != tier.id && !not_speech(o));
        let default = if unnamed && !has_children {
            Some("no PARTICIPANT and no dependent tiers, while other tiers name theirs")
        } else if rendering {
            Some("a translation or comment of a participant who has a tier of their own words")
        } else if named_notes {
            Some("no PARTICIPANT, and its name or linguistic type says it holds notes, comments, remarks, errors, metadata, a translation, gestures, glosses, morphemes or parts of speech")
        } else {
            None
        };
        if let Some(why) = ctx.options().tiers.left_out(&tier.id, default) {
            if left_out.is_empty() {
                first_left_out = doc.pos(tier.at);
            }
            left_out.push((tier.id.clone(), why));
            continue;
        }
        if unnamed {
            ctx.warn_at(
                WarningKind::Note,
                line,
                Some(column),
                format!(
                    "tier {:?} has no PARTICIPANT but dependent tiers; read as the speaker {speaker_name:?}",
                    tier.id
                ),
            )?;
        }
        if !some_participant {
            by_id.push(format!("{:?}", tier.id));
        }
        let speaker = b.speaker(&speaker_name);
        let mut words = match word_tier_of.get(tier.id.as_str()) {
            Some(&w) => words_of(tier, &tiers[w], &index, &known, &resolved),
            None => HashMap::new(),
        };
        let associated: HashMap<&str, &str> = match text_tier_of.get(tier.id.as_str()) {
            Some(&t) => tiers[t]
                .annotations
                .iter()
                .filter_map(|a| Some((a.parent.as_deref()?, a.value.as_str())))
                .collect(),
            None => HashMap::new(),
        };
        for a in &tier.annotations {
            let position = || doc.pos(a.at);
            let Some((r1, r2)) = &a.slots else {
                let (line, column) = position();
                ctx.warn_at(
                    WarningKind::Skipped,
                    line,
                    Some(column),
                    format!(
                        "reference annotation on the top-level tier {:?} skipped (it has no time)",
                        tier.id
                    ),
                )?;
                continue;
            };
            let i1 = index.get(r1.as_str()).copied();
            let i2 = index.get(r2.as_str()).copied();
            let (Some(i1), Some(i2)) = (i1, i2) else {
                let (line, column) = position();
                ctx.warn_at(
                    WarningKind::Skipped,
                    line,
                    Some(column),
                    format!("annotation refers to an unknown time slot ({r1:?}, {r2:?}); skipped"),
                )?;
                continue;
            };
            let (Some(t1), Some(t2)) = (resolved[i1], resolved[i2]) else {
                let (line, column) = position();
                ctx.warn_at(
                    WarningKind::MissingTime,
                    line,
                    Some(column),
                    "annotation has no time (no time slot of the document is aligned); skipped",
                )?;
                continue;
            };
            let start = Time::from_micros(t1.saturating_mul(1000));
            let end = Time::from_micros(t2.saturating_mul(1000));
            if known[i1].is_none() || known[i2].is_none() {
                let (line, column) = position();
                ctx.warn_at(
                    WarningKind::MissingTime,
                    line,
                    Some(column),
                    format!("time slot without TIME_VALUE; interpolated as {start}–{end} s"),
                )?;
            }
            if let Some(seg) = segment_at(ctx, start, end, position)? {
                let words = words.remove(a.id.as_str()).unwrap_or_default();
                // The text of the associated tier, where the speaker tier holds none (empty
                // values or segment ids).
                let value = associated.get(a.id.as_str()).copied().unwrap_or(a.value.as_str());
                let text = (!value.is_empty()).then(|| value.to_owned());
                let content =
                    (text.is_some() || !words.is_empty()).then_some(Content { text, words });
                b.push(seg, speaker, content);
            }
        }
    }
    if !children.is_empty() {
        const LISTED: usize = 6;
        let more = if children.len() > LISTED { ", …" } else { "" };
        let shown = children.iter().take(LISTED).cloned().collect::<Vec<_>>().join(", ");
        ctx.warn_at(
            WarningKind::Note,
            first_child.0,
            Some(first_child.1),
            format!(
                "{} child tier(s) skipped: {shown}{more}; they annotate their parent's time, which is counted once",
                children.len()
            ),
        )?;
    }
    if let Some(note) = left_out_note(&left_out, first_left_out) {
        ctx.warn(note)?;
    }
    if !by_id.is_empty() {
        ctx.warn(Warning::new(
            WarningKind::Note,
            format!(
                "no top-level tier names its PARTICIPANT: each is read as a speaker named by its tier id ({}); `--ignore-tiers` leaves out one that is not",
                by_id.join(", ")
            ),
        ))?;
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

/// The words of each annotation of `parent` (by annotation id) from its subdivision tier
/// `child`: reference annotations by their `ANNOTATION_REF`, time-aligned ones by the parent
/// annotation that contains their middle. A word is timed when both its slots are aligned.
fn words_of<'a>(
    parent: &'a Tier,
    child: &Tier,
    index: &HashMap<&str, usize>,
    known: &[Option<i64>],
    resolved: &[Option<i64>],
) -> HashMap<&'a str, Vec<Word>> {
    let span = |a: &Ann| -> Option<(usize, usize)> {
        let (r1, r2) = a.slots.as_ref()?;
        Some((*index.get(r1.as_str())?, *index.get(r2.as_str())?))
    };
    let ids: HashMap<&str, &'a str> =
        parent.annotations.iter().map(|a| (a.id.as_str(), a.id.as_str())).collect();
    // Parent annotations by start, for containment.
    let mut timed: Vec<(i64, i64, &'a str)> = parent
        .annotations
        .iter()
        .filter_map(|a| {
            let (i1, i2) = span(a)?;
            Some((resolved[i1]?, resolved[i2]?, a.id.as_str()))
        })
        .collect();
    timed.sort_unstable();
    let mut out: HashMap<&'a str, Vec<Word>> = HashMap::new();
    for w in &child.annotations {
        let (owner, word) = match (&w.parent, span(w)) {
            (Some(r), _) => (ids.get(r.as_str()).copied(), Word::untimed(w.value.clone())),
            (None, Some((i1, i2))) => {
                let (Some(s), Some(e)) = (resolved[i1], resolved[i2]) else { continue };
                let mid = s + (e - s) / 2;
                let k = timed.partition_point(|p| p.0 <= mid);
                let owner = k
                    .checked_sub(1)
                    .and_then(|k| timed.get(k))
                    .filter(|p| mid < p.1 || (s == e && mid == p.1))
                    .map(|p| p.2);
                let word = match (known[i1], known[i2]) {
                    (Some(a), Some(b)) if a < b => Word::timed(
                        w.value.clone(),
                        Time::from_micros(a.saturating_mul(1000)),
                        Time::from_micros(b.saturating_mul(1000)),
                    ),
                    _ => Word::untimed(w.value.clone()),
                };
                (owner, word)
            }
            (None, None) => continue,
        };
        if let Some(owner) = owner {
            out.entry(owner).or_default().push(word);
        }
    }
    out
}

/// Escapes text for XML content or a double-quoted attribute; characters XML 1.0 cannot hold
/// become U+FFFD (reported by the caller). Tabs and line breaks are written as character
/// references so attribute normalisation and line-end normalisation cannot change them.
fn escape(s: &str, replaced: &mut bool) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {
                *replaced = true;
                out.push('\u{FFFD}');
            }
            c => out.push(c),
        }
    }
    out
}

/// Writes EAF 3.0: one tier per speaker (more for self-overlap, same `PARTICIPANT`).
pub fn write(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    let mut warnings = Vec::new();
    let empty = Transcript::default();
    let t = corpus.iter().next().map_or(&empty, |(_, t)| t);
    let a = t.annotation();

    // Times in ms; drop what rounding empties.
    let mut moved = 0usize;
    let mut dropped = 0usize;
    let ms: Vec<Option<(i64, i64)>> = a
        .tracks()
        .iter()
        .map(|track| {
            let s = track.segment;
            // Whole ms, never negative (EAF and CHAT have no negative times).
            let (m1, m2) = (
                round_div(s.start().micros(), 1000).max(0),
                round_div(s.end().micros(), 1000).max(0),
            );
            if m1.checked_mul(1000) != Some(s.start().micros())
                || m2.checked_mul(1000) != Some(s.end().micros())
            {
                moved += 1;
            }
            if m2 <= m1 {
                dropped += 1;
                None
            } else {
                Some((m1, m2))
            }
        })
        .collect();
    if moved > 0 {
        warnings.push(Warning::new(
            WarningKind::Repaired,
            format!("{moved} track(s) have times finer than a millisecond or negative; rounded to the millisecond and clipped to 0 (EAF times are whole, non-negative milliseconds)"),
        ));
    }
    if dropped > 0 {
        warnings.push(Warning::new(
            WarningKind::ZeroDuration,
            format!("{dropped} track(s) shorter than a millisecond after rounding; not written"),
        ));
    }

    // Tiers: (tier id, participant, track indices).
    let mut tiers: Vec<(String, String, Vec<usize>)> = Vec::new();
    let mut taken: HashSet<String> = a.speakers().iter().map(|(_, n)| n.to_owned()).collect();
    for (speaker, tracks) in tracks_by_speaker(t) {
        let name = a.speaker_name(speaker);
        let kept = tracks
            .iter()
            .filter_map(|&i| ms[i].and_then(|(m1, m2)| Some((Segment::from_millis(m1, m2)?, i))));
        let split = layers(kept);
        if split.len() > 1 {
            warnings.push(Warning::new(
                WarningKind::Repaired,
                format!(
                    "speaker {name:?} overlaps themselves; written as {} tiers with PARTICIPANT {name:?} because annotations of one ELAN tier cannot overlap",
                    split.len()
                ),
            ));
        }
        if split.is_empty() {
            tiers.push((name.to_owned(), name.to_owned(), Vec::new()));
        }
        for (id, l) in layer_names(name, split.len(), &mut taken).into_iter().zip(split) {
            tiers.push((id, name.to_owned(), l));
        }
    }

    // Slots: two per written track, numbered in time order.
    let mut slot_list: Vec<(i64, usize, bool)> = Vec::new();
    for (_, _, l) in &tiers {
        for &i in l {
            if let Some((m1, m2)) = ms[i] {
                slot_list.push((m1, i, false));
                slot_list.push((m2, i, true));
            }
        }
    }
    slot_list.sort();
    let mut slot_of: HashMap<(usize, bool), usize> = HashMap::new();
    let mut s = String::new();
    use std::fmt::Write as _;
    s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ANNOTATION_DOCUMENT AUTHOR=\"\" DATE=\"1970-01-01T00:00:00+00:00\" FORMAT=\"3.0\" VERSION=\"3.0\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:noNamespaceSchemaLocation=\"http://www.mpi.nl/tools/elan/EAFv3.0.xsd\">\n    <HEADER MEDIA_FILE=\"\" TIME_UNITS=\"milliseconds\"/>\n");
    if slot_list.is_empty() {
        s.push_str("    <TIME_ORDER/>\n");
    } else {
        s.push_str("    <TIME_ORDER>\n");
        for (k, (v, i, is_end)) in slot_list.iter().enumerate() {
            slot_of.insert((*i, *is_end), k + 1);
            let _ =
                writeln!(s, "        <TIME_SLOT TIME_SLOT_ID=\"ts{}\" TIME_VALUE=\"{v}\"/>", k + 1);
        }
        s.push_str("    </TIME_ORDER>\n");
    }
    let mut replaced = false;
    let mut next_id = 1usize;
    for (id, participant, l) in &tiers {
        let head = format!(
            "    <TIER LINGUISTIC_TYPE_REF=\"utterance\" PARTICIPANT=\"{}\" TIER_ID=\"{}\"",
            escape(participant, &mut replaced),
            escape(id, &mut replaced)
        );
        if l.is_empty() {
            let _ = writeln!(s, "{head}/>");
            continue;
        }
        let _ = writeln!(s, "{head}>");
        for &i in l {
            let (Some(s1), Some(s2)) = (slot_of.get(&(i, false)), slot_of.get(&(i, true))) else {
                continue;
            };
            let value = t.contents()[i].as_ref().map(Content::display_text).unwrap_or_default();
            let _ = write!(
                s,
                "        <ANNOTATION>\n            <ALIGNABLE_ANNOTATION ANNOTATION_ID=\"a{next_id}\" TIME_SLOT_REF1=\"ts{s1}\" TIME_SLOT_REF2=\"ts{s2}\">\n                <ANNOTATION_VALUE>{}</ANNOTATION_VALUE>\n            </ALIGNABLE_ANNOTATION>\n        </ANNOTATION>\n",
                escape(&value, &mut replaced)
            );
            next_id += 1;
            if s.len() > 1 << 16 {
                out.write_all(s.as_bytes())?;
                s.clear();
            }
        }
        s.push_str("    </TIER>\n");
    }
    s.push_str("    <LINGUISTIC_TYPE GRAPHIC_REFERENCES=\"false\" LINGUISTIC_TYPE_ID=\"utterance\" TIME_ALIGNABLE=\"true\"/>\n</ANNOTATION_DOCUMENT>\n");
    out.write_all(s.as_bytes())?;
    if replaced {
        warnings.push(Warning::new(
            WarningKind::Repaired,
            "control characters that XML cannot hold were written as U+FFFD",
        ));
    }
    Ok(warnings)
}

/// Whether a linguistic type names a rendering of the speech rather than the speech itself:
/// a translation (`translation`, `transl`, `ft`, `free translation`), a comment or a note.
fn is_rendering(linguistic_type: &str) -> bool {
    let t = linguistic_type.to_lowercase();
    let translation = t.contains("transl") && !t.contains("translit");
    t == "ft" || translation || ["comment", "note"].iter().any(|w| t.contains(w))
}

/// Whether an annotation value is a segment's reference id, as interlinear `ref` tiers hold
/// them (INEL and HZSK corpora: `110704_ngg_DetskijSad.001`, `KA_1960_Xyz_flks.017`): one
/// token, not empty, ending in digits after a `.`, `_` or `#`.
fn is_reference_id(value: &str) -> bool {
    let v = value.trim();
    let digits = v.trim_end_matches(|c: char| c.is_ascii_digit());
    !v.is_empty()
        && !v.contains(char::is_whitespace)
        && digits.len() < v.len()
        && digits.ends_with(['.', '_', '#'])
        && v.chars().any(char::is_alphabetic)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use crate::format::{read_str, Format, Limits, ReadOptions};
    use crate::model::Word;

    fn read_text(text: &str) -> crate::format::ReadOutput {
        read_str(text, Format::Eaf, &ReadOptions::default()).unwrap()
    }

    const MINIMAL: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<ANNOTATION_DOCUMENT AUTHOR="" DATE="2026-01-01T00:00:00+00:00" FORMAT="3.0" VERSION="3.0">
  <HEADER MEDIA_FILE="" TIME_UNITS="milliseconds"/>
  <TIME_ORDER>
    <TIME_SLOT TIME_SLOT_ID="ts1" TIME_VALUE="0"/>
    <TIME_SLOT TIME_SLOT_ID="ts2" TIME_VALUE="4210"/>
    <TIME_SLOT TIME_SLOT_ID="ts3" TIME_VALUE="3950"/>
    <TIME_SLOT TIME_SLOT_ID="ts4" TIME_VALUE="6250"/>
  </TIME_ORDER>
  <TIER TIER_ID="A" PARTICIPANT="Alice" LINGUISTIC_TYPE_REF="utt">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="ts1" TIME_SLOT_REF2="ts2">
      <ANNOTATION_VALUE>So the plan is to ship on Friday &amp; more</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <TIER TIER_ID="B" PARTICIPANT="Bob" LINGUISTIC_TYPE_REF="utt">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a2" TIME_SLOT_REF1="ts3" TIME_SLOT_REF2="ts4">
      <ANNOTATION_VALUE>Friday won't work for us.</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="utt" TIME_ALIGNABLE="true"/>
</ANNOTATION_DOCUMENT>
"#;

    #[test]
    fn reads_the_minimal_example() {
        let out = read_text(MINIMAL);
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let t = out.corpus.get("recording").unwrap();
        let u: Vec<_> = t
            .utterances()
            .map(|u| (u.segment, u.speaker_name, u.content.and_then(|c| c.text.clone())))
            .collect();
        assert_eq!(
            u,
            vec![
                (
                    Segment::from_millis(0, 4210).unwrap(),
                    "Alice",
                    Some("So the plan is to ship on Friday & more".to_owned())
                ),
                (
                    Segment::from_millis(3950, 6250).unwrap(),
                    "Bob",
                    Some("Friday won't work for us.".to_owned())
                ),
            ]
        );
    }

    #[test]
    fn unaligned_slots_are_interpolated_with_a_warning() {
        let text = MINIMAL
            .replace(r#"TIME_SLOT_ID="ts2" TIME_VALUE="4210""#, r#"TIME_SLOT_ID="ts2""#)
            .replace(r#"TIME_SLOT_ID="ts3" TIME_VALUE="3950""#, r#"TIME_SLOT_ID="ts3""#);
        let out = read_text(&text);
        // ts2 and ts3 sit between 0 (ts1) and 6250 (ts4): one third and two thirds.
        let t = out.corpus.get("recording").unwrap();
        let segs: Vec<_> = t.annotation().tracks().iter().map(|t| t.segment).collect();
        assert_eq!(
            segs,
            vec![Segment::from_millis(0, 2083).unwrap(), Segment::from_millis(4167, 6250).unwrap()]
        );
        let kinds: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(
            kinds,
            vec![(WarningKind::MissingTime, Some(11)), (WarningKind::MissingTime, Some(15))]
        );
        // In seconds, as every message gives times.
        assert_eq!(
            out.warnings[0].message,
            "time slot without TIME_VALUE; interpolated as 0.000–2.083 s"
        );
    }

    /// Interlinear templates (FLEx, ELAN's `ref` → `tx` → `ft`) leave the time-aligned tier
    /// empty and keep the text on its first one-to-one child; the translation stays skipped.
    #[test]
    fn empty_speaker_tiers_take_the_text_of_their_first_association() {
        let text = r#"<ANNOTATION_DOCUMENT>
  <TIME_ORDER>
    <TIME_SLOT TIME_SLOT_ID="t1" TIME_VALUE="1000"/>
    <TIME_SLOT TIME_SLOT_ID="t2" TIME_VALUE="2000"/>
    <TIME_SLOT TIME_SLOT_ID="t3" TIME_VALUE="3000"/>
  </TIME_ORDER>
  <TIER TIER_ID="ref@SP" PARTICIPANT="SP" LINGUISTIC_TYPE_REF="ref">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="t1" TIME_SLOT_REF2="t2"><ANNOTATION_VALUE></ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a2" TIME_SLOT_REF1="t2" TIME_SLOT_REF2="t3"><ANNOTATION_VALUE> </ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <TIER TIER_ID="tx@SP" PARTICIPANT="SP" PARENT_REF="ref@SP" LINGUISTIC_TYPE_REF="tx">
    <ANNOTATION><REF_ANNOTATION ANNOTATION_ID="b1" ANNOTATION_REF="a1"><ANNOTATION_VALUE>борон заманда</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>
    <ANNOTATION><REF_ANNOTATION ANNOTATION_ID="b2" ANNOTATION_REF="a2"><ANNOTATION_VALUE>ике ҡуяш</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>
  </TIER>
  <TIER TIER_ID="ft@SP" PARTICIPANT="SP" PARENT_REF="ref@SP" LINGUISTIC_TYPE_REF="ft">
    <ANNOTATION><REF_ANNOTATION ANNOTATION_ID="c1" ANNOTATION_REF="a1"><ANNOTATION_VALUE>once upon a time</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>
  </TIER>
  <LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="ref" TIME_ALIGNABLE="true"/>
  <LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="tx" CONSTRAINTS="Symbolic_Association" TIME_ALIGNABLE="false"/>
  <LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="ft" CONSTRAINTS="Symbolic_Association" TIME_ALIGNABLE="false"/>
</ANNOTATION_DOCUMENT>"#;
        let out = read_text(text);
        let t = out.corpus.get("recording").unwrap();
        let texts: Vec<_> =
            t.contents().iter().map(|c| c.as_ref().and_then(|c| c.text.clone())).collect();
        assert_eq!(texts, vec![Some("борон заманда".to_owned()), Some("ике ҡуяш".to_owned())]);
        assert_eq!(out.warnings.len(), 1);
        assert!(out.warnings[0].message.starts_with("1 child tier(s) skipped: \"ft@SP\""));
        // INEL and HZSK corpora keep the segment ids on the `ref` tier: the same text.
        let ids = text
            .replace(
                "<ANNOTATION_VALUE></ANNOTATION_VALUE>",
                "<ANNOTATION_VALUE>DS_2011.001</ANNOTATION_VALUE>",
            )
            .replace(
                "<ANNOTATION_VALUE> </ANNOTATION_VALUE>",
                "<ANNOTATION_VALUE>DS_2011.002</ANNOTATION_VALUE>",
            );
        let out = read_text(&ids);
        let t = out.corpus.get("recording").unwrap();
        let texts: Vec<_> =
            t.contents().iter().map(|c| c.as_ref().and_then(|c| c.text.clone())).collect();
        assert_eq!(texts, vec![Some("борон заманда".to_owned()), Some("ике ҡуяш".to_owned())]);
        // Words in the speaker tier stay its text.
        let words = ids.replace("DS_2011.002", "hello 2");
        let t = read_text(&words).corpus.get("recording").unwrap().clone();
        assert_eq!(t.contents()[1].as_ref().and_then(|c| c.text.as_deref()), Some("hello 2"));
    }

    /// pympi's sample files: a `text` tier and, beside it, a `gestures` tier of linguistic type
    /// `gesture`, neither naming its participant. The gestures are no one's speech: left out,
    /// with the note naming the tier; the text tier stays the one speaker, and its dependent
    /// tiers (words, parts of speech, included gestures) stay no speakers.
    #[test]
    fn a_gesture_tier_without_participant_is_no_speaker() {
        let text = r#"<ANNOTATION_DOCUMENT>
  <TIME_ORDER>
    <TIME_SLOT TIME_SLOT_ID="t1" TIME_VALUE="1000"/>
    <TIME_SLOT TIME_SLOT_ID="t2" TIME_VALUE="2000"/>
    <TIME_SLOT TIME_SLOT_ID="t3" TIME_VALUE="1200"/>
    <TIME_SLOT TIME_SLOT_ID="t4" TIME_VALUE="1800"/>
  </TIME_ORDER>
  <TIER TIER_ID="text" LINGUISTIC_TYPE_REF="text">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="t1" TIME_SLOT_REF2="t2"><ANNOTATION_VALUE>so it was</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <TIER TIER_ID="gestures" LINGUISTIC_TYPE_REF="gesture">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a2" TIME_SLOT_REF1="t3" TIME_SLOT_REF2="t4"><ANNOTATION_VALUE>point</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <TIER TIER_ID="gest_included" PARENT_REF="text" LINGUISTIC_TYPE_REF="gest_included">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a3" TIME_SLOT_REF1="t3" TIME_SLOT_REF2="t4"><ANNOTATION_VALUE>nod</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <TIER TIER_ID="notes" LINGUISTIC_TYPE_REF="text">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a4" TIME_SLOT_REF1="t1" TIME_SLOT_REF2="t3"><ANNOTATION_VALUE>noisy</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <TIER TIER_ID="Suggestion" LINGUISTIC_TYPE_REF="text">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a5" TIME_SLOT_REF1="t4" TIME_SLOT_REF2="t2"><ANNOTATION_VALUE>yes</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="text" TIME_ALIGNABLE="true"/>
  <LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="gesture" TIME_ALIGNABLE="true"/>
  <LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="gest_included" CONSTRAINTS="Included_In" TIME_ALIGNABLE="true"/>
</ANNOTATION_DOCUMENT>"#;
        let out = read_text(text);
        assert_eq!(
            crate::format::test_support::tracks_with_text(&out, "recording"),
            vec![
                (1_000_000, 2_000_000, "text".to_owned(), "so it was".to_owned()),
                (1_800_000, 2_000_000, "Suggestion".to_owned(), "yes".to_owned()),
            ]
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.line, w.message.as_str())).collect();
        assert_eq!(
            w,
            vec![
                (Some(14), "1 child tier(s) skipped: \"gest_included\" (of \"text\"); they annotate their parent's time, which is counted once"),
                (Some(11), "2 tier(s) left out as not speakers: \"gestures\" (no PARTICIPANT, and its name or linguistic type says it holds notes, comments, remarks, errors, metadata, a translation, gestures, glosses, morphemes or parts of speech), \"notes\" (no PARTICIPANT, and its name or linguistic type says it holds notes, comments, remarks, errors, metadata, a translation, gestures, glosses, morphemes or parts of speech); choose with --tiers or --ignore-tiers"),
                (None, "no top-level tier names its PARTICIPANT: each is read as a speaker named by its tier id (\"text\", \"Suggestion\"); `--ignore-tiers` leaves out one that is not"),
            ]
        );
        // `--tiers` still reads the gestures when asked.
        let opts = ReadOptions {
            tiers: crate::format::tiers::TierSelection {
                only: vec!["gestures".to_owned()],
                ignore: Vec::new(),
            },
            ..Default::default()
        };
        let out = read_str(text, Format::Eaf, &opts).unwrap();
        assert_eq!(
            crate::format::test_support::tracks_with_text(&out, "recording"),
            vec![(1_200_000, 1_800_000, "gestures".to_owned(), "point".to_owned())]
        );
    }

    /// The words are matched whole: ids that only contain one (`Posy`, `Morphy`, `Glossop`) are
    /// no notes; an id that is one on its own (`POS-1`) is, as the module doc says.
    #[test]
    fn not_speech_words_are_whole_words() {
        for id in ["Posy", "Morphy", "Glossop", "Notebaert", "Gesturer", "Suggestion", "SPK1"] {
            assert!(!names_notes(id), "{id}");
        }
        for id in ["POS-1", "pos", "words-pos", "Gloss", "gest_included", "MA-translation", "ft"] {
            assert!(names_notes(id), "{id}");
        }
    }

    #[test]
    fn a_participants_translation_tier_is_not_more_of_their_speech() {
        let text = r#"<ANNOTATION_DOCUMENT>
  <TIME_ORDER>
    <TIME_SLOT TIME_SLOT_ID="t1" TIME_VALUE="1000"/>
    <TIME_SLOT TIME_SLOT_ID="t2" TIME_VALUE="2000"/>
  </TIME_ORDER>
  <TIER TIER_ID="GlosR S1" PARTICIPANT="S034" LINGUISTIC_TYPE_REF="gloss">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a1" TIME_SLOT_REF1="t1" TIME_SLOT_REF2="t2"><ANNOTATION_VALUE>DIFFICULT</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <TIER TIER_ID="Interpreter S1" PARTICIPANT="S034" LINGUISTIC_TYPE_REF="translation">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a2" TIME_SLOT_REF1="t1" TIME_SLOT_REF2="t2"><ANNOTATION_VALUE>I find it quite difficult</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <TIER TIER_ID="Interpreter S2" PARTICIPANT="S033" LINGUISTIC_TYPE_REF="translation">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="a3" TIME_SLOT_REF1="t1" TIME_SLOT_REF2="t2"><ANNOTATION_VALUE>only this</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="gloss" TIME_ALIGNABLE="true"/>
  <LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="translation" TIME_ALIGNABLE="true"/>
</ANNOTATION_DOCUMENT>"#;
        let out = read_text(text);
        let t = out.corpus.get("recording").unwrap();
        let texts: Vec<_> =
            t.contents().iter().map(|c| c.as_ref().and_then(|c| c.text.clone())).collect();
        // S033 has nothing but the translation: it stays, as the only record of them.
        assert_eq!(texts, vec![Some("only this".to_owned()), Some("DIFFICULT".to_owned())]);
        assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
        assert_eq!(
            out.warnings[0].message,
            "1 tier(s) left out as not speakers: \"Interpreter S1\" (a translation or comment of a participant who has a tier of their own words); choose with --tiers or --ignore-tiers"
        );
    }

    #[test]
    fn reference_ids_look_like_segment_numbers() {
        for v in ["110704_ngg_DetskijSad.001", "KA_1960_Xyz_flks.017", "seg#3", " a.1 "] {
            assert!(is_reference_id(v), "{v}");
        }
        for v in ["", "hello", "covid 19", "123", "version2", "a.b", "1.5", "2.25"] {
            assert!(!is_reference_id(v), "{v}");
        }
    }

    #[test]
    fn subdivision_tiers_give_words() {
        let text = r#"<ANNOTATION_DOCUMENT>
  <TIME_ORDER>
    <TIME_SLOT TIME_SLOT_ID="t1" TIME_VALUE="1000"/>
    <TIME_SLOT TIME_SLOT_ID="t2"/>
    <TIME_SLOT TIME_SLOT_ID="t3" TIME_VALUE="1600"/>
    <TIME_SLOT TIME_SLOT_ID="t4" TIME_VALUE="2000"/>
    <TIME_SLOT TIME_SLOT_ID="t5" TIME_VALUE="3000"/>
  </TIME_ORDER>
  <TIER TIER_ID="A" PARTICIPANT="Ann" LINGUISTIC_TYPE_REF="utt">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="u1" TIME_SLOT_REF1="t1" TIME_SLOT_REF2="t4"><ANNOTATION_VALUE>hello there</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="u2" TIME_SLOT_REF1="t4" TIME_SLOT_REF2="t5"><ANNOTATION_VALUE></ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <TIER TIER_ID="A words" PARTICIPANT="Ann" PARENT_REF="A" LINGUISTIC_TYPE_REF="words">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="w1" TIME_SLOT_REF1="t1" TIME_SLOT_REF2="t2"><ANNOTATION_VALUE>hello</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="w2" TIME_SLOT_REF1="t2" TIME_SLOT_REF2="t3"><ANNOTATION_VALUE>there</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="w3" TIME_SLOT_REF1="t4" TIME_SLOT_REF2="t5"><ANNOTATION_VALUE>mm</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <TIER TIER_ID="A gloss" PARENT_REF="A words" LINGUISTIC_TYPE_REF="gloss">
    <ANNOTATION><REF_ANNOTATION ANNOTATION_ID="g1" ANNOTATION_REF="w1"><ANNOTATION_VALUE>greeting</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>
  </TIER>
  <TIER TIER_ID="B" LINGUISTIC_TYPE_REF="utt">
    <ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID="v1" TIME_SLOT_REF1="t3" TIME_SLOT_REF2="t5"><ANNOTATION_VALUE>yes</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION>
  </TIER>
  <TIER TIER_ID="B morphs" PARENT_REF="B" LINGUISTIC_TYPE_REF="morphs">
    <ANNOTATION><REF_ANNOTATION ANNOTATION_ID="m1" ANNOTATION_REF="v1"><ANNOTATION_VALUE>ye</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>
    <ANNOTATION><REF_ANNOTATION ANNOTATION_ID="m2" ANNOTATION_REF="v1" PREVIOUS_ANNOTATION="m1"><ANNOTATION_VALUE>-s</ANNOTATION_VALUE></REF_ANNOTATION></ANNOTATION>
  </TIER>
  <LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="utt" TIME_ALIGNABLE="true"/>
  <LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="words" CONSTRAINTS="Time_Subdivision" TIME_ALIGNABLE="true"/>
  <LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="morphs" CONSTRAINTS="Symbolic_Subdivision" TIME_ALIGNABLE="false"/>
  <LINGUISTIC_TYPE LINGUISTIC_TYPE_ID="gloss" CONSTRAINTS="Symbolic_Association" TIME_ALIGNABLE="false"/>
</ANNOTATION_DOCUMENT>"#;
        let out = read_text(text);
        // Only the association tier is skipped; B has no PARTICIPANT while A has one.
        let kinds: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(kinds, vec![(WarningKind::Note, Some(21)), (WarningKind::Note, Some(18))]);
        assert!(
            out.warnings[1].message.starts_with("1 child tier(s) skipped: "),
            "{}",
            out.warnings[1]
        );
        let t = out.corpus.get("recording").unwrap();
        let u: Vec<_> = t.utterances().collect();
        assert_eq!(u.len(), 3);
        assert_eq!(
            (u[0].speaker_name, u[0].segment),
            ("Ann", Segment::from_millis(1000, 2000).unwrap())
        );
        let words = &u[0].content.unwrap().words;
        // t2 has no TIME_VALUE: the words touching it are untimed.
        assert_eq!(words, &vec![Word::untimed("hello"), Word::untimed("there")]);
        let ann2 = u
            .iter()
            .find(|x| {
                x.segment == Segment::from_millis(2000, 3000).unwrap() && x.speaker_name == "Ann"
            })
            .unwrap();
        assert_eq!(ann2.content.unwrap().text, None);
        assert_eq!(
            ann2.content.unwrap().words,
            vec![Word::timed("mm", Time::from_micros(2_000_000), Time::from_micros(3_000_000))]
        );
        let b = u.iter().find(|x| x.speaker_name == "B").unwrap();
        assert_eq!(b.content.unwrap().text.as_deref(), Some("yes"));
        assert_eq!(b.content.unwrap().words, vec![Word::untimed("ye"), Word::untimed("-s")]);
    }

    #[test]
    fn deep_nesting_is_a_limit_error() {
        let mut text = String::from("<ANNOTATION_DOCUMENT>");
        for _ in 0..10_000 {
            text.push_str("<a>");
        }
        let e = read_str(&text, Format::Eaf, &ReadOptions::default()).unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Limit(_)), "{e}");
        assert!(e.to_string().contains("line 1, column 787"), "{e}");
        let opts = ReadOptions {
            limits: Limits { max_depth: 3, ..Limits::default() },
            ..Default::default()
        };
        assert!(read_str(MINIMAL, Format::Eaf, &opts).is_err());
    }

    #[test]
    fn xml_errors_name_line_and_column() {
        let e = read_str(
            "<ANNOTATION_DOCUMENT>\n  <TIER></TIRE>\n</ANNOTATION_DOCUMENT>",
            Format::Eaf,
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(9)), "{e}");
        // Cut off after an opening tag: read as far as it goes with a repair at the end, which
        // --strict makes the error.
        let cut = "<ANNOTATION_DOCUMENT>\n  <TIER>";
        let out = read_str(cut, Format::Eaf, &ReadOptions::default()).unwrap();
        let w = &out.warnings[0];
        assert_eq!((w.kind, w.line, w.column), (WarningKind::Repaired, Some(2), Some(9)));
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        let e = read_str(cut, Format::Eaf, &strict).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(9)), "{e}");
        let e =
            read_str(&MINIMAL.replace("\"4210\"", "\"NaN\""), Format::Eaf, &ReadOptions::default())
                .unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(6), Some(5)), "{e}");
    }

    #[test]
    fn writer_rounds_to_ms_and_keeps_participant_across_split_tiers() {
        let mut b = TranscriptBuilder::new();
        b.add(
            Segment::from_micros(1_000_400, 3_000_000).unwrap(),
            "a<&>",
            Some(Content::text("x \"y\"\tz")),
        );
        b.add(Segment::from_micros(2_000_000, 4_000_000).unwrap(), "a<&>", None);
        b.add(Segment::from_micros(5_000_000, 5_000_400).unwrap(), "b", None);
        let corpus = Corpus::single("r", b.build());
        let mut buf = Vec::new();
        let w = write(&corpus, &mut buf).unwrap();
        let kinds: Vec<_> = w.iter().map(|w| w.kind).collect();
        assert_eq!(
            kinds,
            vec![WarningKind::Repaired, WarningKind::ZeroDuration, WarningKind::Repaired]
        );
        let text = String::from_utf8(buf).unwrap();
        assert!(text.contains("TIER_ID=\"a&lt;&amp;&gt; (2)\""), "{text}");
        let back = read_text(&text);
        assert!(
            back.warnings.iter().all(|w| w.kind == WarningKind::SelfOverlap),
            "{:?}",
            back.warnings
        );
        let t = back.corpus.get("recording").unwrap();
        let got: Vec<_> = t
            .utterances()
            .map(|u| (u.segment, u.speaker_name.to_owned(), u.content.and_then(|c| c.text.clone())))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    Segment::from_millis(1000, 3000).unwrap(),
                    "a<&>".to_owned(),
                    Some("x \"y\"\tz".to_owned())
                ),
                (Segment::from_millis(2000, 4000).unwrap(), "a<&>".to_owned(), None),
            ]
        );
        assert_eq!(t.annotation().speakers().len(), 2);
    }
}
