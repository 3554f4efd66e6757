//! EXMARaLDA basic transcriptions (`.exb`, the Partitur-Editor's XML; FOLKER and the
//! converters from ELAN and CHAT write them too), read only.
//!
//! ```text
//! <speakertable> <speaker id="SPK0"><abbreviation>MAX</abbreviation>…     speaker MAX
//! <common-timeline> T0 0.0   T1 (no time)   T2 1.5   T3 2.4               the time axis
//! <tier speaker="SPK0" type="t" category="v">  [T0 Hello ][T1 there.]       tracks of MAX
//! <tier speaker="SPK1" type="t" category="v">             [T1 Hi!     ]   tracks of EVA
//! <tier speaker="SPK0" type="a" category="en">  [T0 greeting          ]   annotation: left out
//! ```
//!
//! - **A speaker** is an entry of the speaker table, named by its `abbreviation` (the label
//!   the partitur shows), else by its `id`. Every declared speaker is a speaker, also one
//!   without events.
//! - **Speech** is the events of the transcription tiers (`type="t"`): one track per event,
//!   over the times of its `start` and `end` timeline points, with the event's text exactly as
//!   written (EXMARaLDA cuts an utterance into events wherever another speaker's event starts
//!   or ends, so consecutive events of one speaker abut; the analysis joins them, §5.1). A
//!   transcription tier without a speaker is read under its display name, with a note.
//! - **A word cut by a timeline point** (`[T1 Hel][T2 lo ]`: an event's text that ends in a
//!   letter or digit, without a space, continues in the next event, which starts where it ends
//!   with a letter or digit) is one word: the two events are read as one, over both, with one
//!   note that counts such words. An event ending in punctuation (`it?`) ends its word, and so
//!   does every event of a tier none of whose events ends in a space (a tier that does not
//!   write a word's end so: `[T1 Ja][T2 genau]` stays two events).
//! - An event of **transcription notation alone** — HIAT's pause dots (`•`), GAT's pauses
//!   (`(.)`, `(0.5)`), a pause or breathing described in double parentheses (`((1,2s))`,
//!   `((atmet ein))`) — is no speech: left out, with one warning that counts them. Laughter
//!   notes (`((lacht))`, `((laughing))`) stay: the analysis knows laughter (§5.1).
//! - **Annotation** (`type="a"`) and **description** (`type="d"`) tiers are not speech (a
//!   translation, a gloss, a comment on the situation): they are left out, with one note that
//!   names them; `--tiers` and `--ignore-tiers` choose tiers by display name (else id).
//! - **Times** are the `time` attributes of the timeline points (seconds). A point without a
//!   time (EXMARaLDA's untimed points inside an utterance) takes one by linear interpolation,
//!   by position in the timeline, between the nearest timed points before and after it (or the
//!   only timed neighbour it has), and one `missing-time` warning per file counts the events
//!   that use such a point. An event that names a point the timeline does not have is skipped
//!   with a warning naming its line and column.
//! - A timeline with fewer than two distinct times (a transcript typed without media) is an
//!   **untimed transcript**: its events are kept in timeline order, with their text and
//!   speakers, and left out of every time measure (as a CHAT file without bullets), with one
//!   note.
//! - Corpus converters (Pepper, annatto) write token, part-of-speech and lemma layers as
//!   transcription tiers without a speaker: the first such tier is read (under its display
//!   name, with a note), the others are left out as annotation layers of it.
//! - XML errors, nesting deeper than the limit, and a root other than `<basic-transcription>`
//!   are errors naming line and column. Segmented transcriptions (`.exs`) are refused with a
//!   message that says to export the basic transcription.
//!
//! overtalk does not write EXMARaLDA: ELAN EAF and TextGrid, which EXMARaLDA imports, are.

use std::collections::HashMap;

use quick_xml::events::Event;
use quick_xml::Reader;

use crate::error::{Error, Result, WarningKind};
use crate::format::textgrid::segment_at;
use crate::format::tiers::left_out_note;
use crate::format::xml::{attr, attributes, interpolate, XmlDoc};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, TranscriptBuilder};
use crate::time::{parse_seconds, Time};

use crate::format::{Format, FormatSpec, Head, Sniff, Verdict};

/// What the format registry knows of this format (see [`FormatSpec`]).
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Exmaralda,
    name: "exmaralda",
    aliases: &["exb"],
    extension: "exb",
    detected_by: &["exb"],
    read: Ok(read),
    write: None,
    json: false,
    many_recordings: false,
    paragraphs: false,
    // Before EAF, which calls any other XML unknown.
    sniff: &[Sniff::Start { rank: 29, test: sniff }],
};

/// An XML text is EXMARaLDA when it has a `basic-transcription` element.
fn sniff(head: &Head<'_>) -> Verdict {
    if !head.trimmed.starts_with('<') {
        return Verdict::Pass;
    }
    if head.head.contains("<basic-transcription") {
        Verdict::Is(Format::Exmaralda)
    } else {
        Verdict::Pass
    }
}

/// One `tier` as read.
#[derive(Debug, Default)]
struct Tier {
    id: String,
    speaker: Option<String>,
    kind: String,
    display: Option<String>,
    at: usize,
    events: Vec<Ev>,
}

/// One `event`: its timeline point ids and its text. `at` is the offset of the event whose
/// `start` this is, `end_at` of the one whose `end` this is: the same event, unless a word cut
/// by a timeline point joined events ([`join_split_words`]), so that a message about the end
/// point names the event that wrote it.
#[derive(Debug, Default)]
struct Ev {
    start: String,
    end: String,
    text: String,
    at: usize,
    end_at: usize,
}

/// The element being read, for the few whose content matters.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Elem {
    Other,
    Speaker,
    Abbreviation,
    Tier,
    Event,
}

/// Reads an EXMARaLDA basic transcription: one recording, named by
/// [`ReadContext::recording_id`].
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let doc = XmlDoc::new(text, "exmaralda", ctx);
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;

    let mut stack: Vec<Elem> = Vec::new();
    // Speakers: (id, abbreviation).
    let mut speakers: Vec<(String, String)> = Vec::new();
    // Timeline points: (id, time if given, offset).
    let mut points: Vec<(String, Option<Time>, usize)> = Vec::new();
    let mut tiers: Vec<Tier> = Vec::new();
    let mut tier: Option<Tier> = None;
    let mut event: Option<Ev> = None;

    loop {
        let (at, ev) = doc.next(&mut reader, ctx)?;
        let (start, empty) = match &ev {
            Event::Start(e) => (Some(e), false),
            Event::Empty(e) => (Some(e), true),
            _ => (None, false),
        };
        if let Some(e) = start {
            let name = e.name();
            let name = name.as_ref();
            if stack.is_empty() && name == b"segmented-transcription" {
                return Err(Error::unsupported(
                    "exmaralda: a segmented transcription (.exs); open it in the Partitur-Editor and save the basic transcription (.exb), which overtalk reads",
                ));
            }
            let root = ("basic-transcription", "an EXMARaLDA basic transcription");
            doc.opening(ctx, e, empty, at, stack.len(), root)?;
            let mut elem = Elem::Other;
            match name {
                b"speaker" if stack.last() != Some(&Elem::Tier) => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    speakers.push((attr(&attrs, "id").unwrap_or_default(), String::new()));
                    elem = Elem::Speaker;
                }
                b"abbreviation" if stack.last() == Some(&Elem::Speaker) => {
                    elem = Elem::Abbreviation;
                }
                b"tli" => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    let Some(id) = attr(&attrs, "id") else {
                        return Err(doc.error(ctx, at, "timeline point <tli> without id"));
                    };
                    let time = match attr(&attrs, "time") {
                        None => None,
                        Some(v) => Some(parse_seconds(v.trim()).map_err(|m| {
                            doc.error(
                                ctx,
                                at,
                                format!(
                                    "tli time {:?}: {m}",
                                    v.chars().take(40).collect::<String>()
                                ),
                            )
                        })?),
                    };
                    points.push((id, time, at));
                }
                b"tier" => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    let t = Tier {
                        id: attr(&attrs, "id").unwrap_or_default(),
                        speaker: attr(&attrs, "speaker").filter(|s| !s.trim().is_empty()),
                        kind: attr(&attrs, "type").unwrap_or_default(),
                        display: attr(&attrs, "display-name").filter(|s| !s.trim().is_empty()),
                        at,
                        events: Vec::new(),
                    };
                    if empty {
                        tiers.push(t);
                    } else {
                        tier = Some(t);
                        elem = Elem::Tier;
                    }
                }
                b"event" if tier.is_some() => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    let v = Ev {
                        start: attr(&attrs, "start").unwrap_or_default(),
                        end: attr(&attrs, "end").unwrap_or_default(),
                        text: String::new(),
                        at,
                        end_at: at,
                    };
                    if empty {
                        if let Some(t) = tier.as_mut() {
                            t.events.push(v);
                        }
                    } else {
                        event = Some(v);
                        elem = Elem::Event;
                    }
                }
                _ => {}
            }
            if !empty {
                stack.push(elem);
            }
            continue;
        }
        match ev {
            Event::End(_) => match stack.pop() {
                Some(Elem::Tier) => {
                    if let Some(t) = tier.take() {
                        tiers.push(t);
                    }
                }
                Some(Elem::Event) => {
                    if let (Some(v), Some(t)) = (event.take(), tier.as_mut()) {
                        t.events.push(v);
                    }
                }
                _ => {}
            },
            Event::Text(t) if matches!(stack.last(), Some(Elem::Event | Elem::Abbreviation)) => {
                let s =
                    t.unescape().map_err(|err| doc.error(ctx, at, format!("bad text: {err}")))?;
                match stack.last() {
                    Some(Elem::Event) => {
                        if let Some(v) = event.as_mut() {
                            v.text.push_str(&s);
                        }
                    }
                    _ => {
                        if let Some(sp) = speakers.last_mut() {
                            sp.1.push_str(s.trim());
                        }
                    }
                }
            }
            Event::CData(t) if stack.last() == Some(&Elem::Event) => {
                if let Some(v) = event.as_mut() {
                    v.text.push_str(&String::from_utf8_lossy(&t));
                }
            }
            Event::Text(t) if stack.is_empty() && !t.iter().all(u8::is_ascii_whitespace) => {
                return Err(doc.error(ctx, at, "text outside the root element"));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    doc.finish(ctx, stack.len(), "no <basic-transcription> element: not an EXMARaLDA file")?;
    build(&doc, speakers, &points, tiers, ctx)
}

fn build(
    doc: &XmlDoc<'_>,
    speakers: Vec<(String, String)>,
    points: &[(String, Option<Time>, usize)],
    tiers: Vec<Tier>,
    ctx: &mut ReadContext<'_>,
) -> Result<Corpus> {
    let known: Vec<Option<i64>> = points.iter().map(|p| p.1.map(|t| t.micros())).collect();
    let times: Vec<Option<Time>> =
        interpolate(&known).into_iter().map(|t| t.map(Time::from_micros)).collect();
    let at: HashMap<&str, usize> =
        points.iter().enumerate().map(|(i, p)| (p.0.as_str(), i)).collect();
    let names: HashMap<&str, &str> = speakers
        .iter()
        .map(|(id, abbr)| (id.as_str(), if abbr.is_empty() { id.as_str() } else { abbr.as_str() }))
        .collect();
    let mut b = TranscriptBuilder::new();
    for (id, abbr) in &speakers {
        b.speaker(if abbr.is_empty() { id } else { abbr });
    }
    // A timeline with fewer than two distinct times gives no durations: the transcript is
    // untimed, read in timeline order.
    let mut distinct: Vec<Time> = points.iter().filter_map(|p| p.1).collect();
    distinct.sort_unstable();
    distinct.dedup();
    let untimed = distinct.len() < 2;
    let mut in_order: Vec<(usize, usize, crate::model::SpeakerId, Content)> = Vec::new();
    let mut left_out: Vec<(String, String)> = Vec::new();
    let mut first_left_out = (0, 0);
    let mut interpolated: Option<((usize, usize), usize)> = None;
    // Events of notation alone (pauses, breathing): the first one, and how many.
    let mut notation: Option<((usize, usize), usize)> = None;
    let mut speakerless_read = false;
    // Words continued across events: the first such event, and how many.
    let mut split_words: Option<((usize, usize), usize)> = None;
    for tier in tiers {
        let label = tier.display.clone().unwrap_or_else(|| tier.id.clone());
        let default = match tier.kind.as_str() {
            // Corpus converters (Pepper, annatto) write token, part-of-speech and lemma layers
            // as transcription tiers without a speaker: the first is the text, the others
            // annotate it.
            "t" if tier.speaker.is_none() && speakerless_read => Some(
                "a further transcription tier without a speaker (an annotation layer of the first)",
            ),
            "t" => None,
            "a" => Some("an annotation tier (type a), not speech"),
            "d" => Some("a description tier (type d), not speech"),
            _ => Some("a tier of no known type, not speech"),
        };
        if let Some(why) = ctx.options().tiers.left_out(&label, default) {
            if left_out.is_empty() {
                first_left_out = doc.pos(tier.at);
            }
            left_out.push((label, why));
            continue;
        }
        let speaker = match tier.speaker.as_deref() {
            Some(s) => names.get(s).map_or_else(|| s.to_owned(), |n| (*n).to_owned()),
            None => {
                speakerless_read = true;
                let (line, column) = doc.pos(tier.at);
                ctx.warn_at(
                    WarningKind::Note,
                    line,
                    Some(column),
                    format!("tier {label:?} has no speaker; read as the speaker {label:?}"),
                )?;
                label.clone()
            }
        };
        let speaker_id = b.speaker(&speaker);
        let (events, joined, first) = join_split_words(tier.events);
        if let Some(first) = first {
            split_words.get_or_insert((doc.pos(first), 0)).1 += joined;
        }
        for e in events {
            let position = || doc.pos(e.at);
            // Where a message about the end point belongs: the event that wrote it.
            let end_position = || doc.pos(e.end_at);
            let (Some(&i), Some(&j)) = (at.get(e.start.as_str()), at.get(e.end.as_str())) else {
                let start_known = at.contains_key(e.start.as_str());
                let (line, column) = if start_known { end_position() } else { position() };
                ctx.warn_at(
                    WarningKind::Skipped,
                    line,
                    Some(column),
                    format!(
                        "event refers to a timeline point the timeline does not have ({:?}, {:?}); skipped",
                        e.start, e.end
                    ),
                )?;
                continue;
            };
            if untimed {
                let text = e.text.trim();
                if !text.is_empty() {
                    in_order.push((i, doc.pos(e.at).0, speaker_id, Content::text(text)));
                }
                continue;
            }
            let (Some(start), Some(end)) = (times[i], times[j]) else {
                let (line, column) = if times[i].is_some() { end_position() } else { position() };
                ctx.warn_at(
                    WarningKind::MissingTime,
                    line,
                    Some(column),
                    "event has no time (no point of the timeline has one); skipped",
                )?;
                continue;
            };
            if points[i].1.is_none() || points[j].1.is_none() {
                let first = if points[i].1.is_none() { position() } else { end_position() };
                interpolated.get_or_insert((first, 0)).1 += 1;
            }
            if notation_only(&e.text) {
                notation.get_or_insert((position(), 0)).1 += 1;
                continue;
            }
            // A negative start is the first event's; a span that ends before it starts is the
            // end point's, of the last event when a word joined events.
            let span_position = if start.micros() < 0 { position() } else { end_position() };
            if let Some(seg) = segment_at(ctx, start, end, || span_position)? {
                let text = e.text.trim();
                let content = (!text.is_empty()).then(|| Content::text(text));
                b.push(seg, speaker_id, content);
            }
        }
    }
    if untimed && !in_order.is_empty() {
        // Timeline order; within one point, the order of the file.
        in_order.sort_by_key(|e| (e.0, e.1));
        let count = in_order.len();
        for (_, line, speaker, content) in in_order {
            b.push_untimed(speaker, content, line);
        }
        ctx.warn_at(
            WarningKind::Note,
            1,
            Some(1),
            format!("the timeline has fewer than two distinct times: read as an untimed transcript of {count} event(s) in timeline order; measures that need times cannot be made"),
        )?;
    }
    if let Some(((line, column), count)) = notation {
        ctx.warn_at(
            WarningKind::Skipped,
            line,
            Some(column),
            format!("{count} event(s) of transcription notation alone (pauses such as `•` or `((1,2s))`, breathing) left out: not speech"),
        )?;
    }
    if let Some(((line, column), count)) = split_words {
        ctx.warn_at(
            WarningKind::Note,
            line,
            Some(column),
            format!("{count} word(s) continue from one event into the next (an event's text ends in a letter or digit, without a space, as HIAT writes a word cut by a timeline point): each read as one word over both events"),
        )?;
    }
    if let Some(((line, column), count)) = interpolated {
        ctx.warn_at(
            WarningKind::MissingTime,
            line,
            Some(column),
            format!("{count} event(s) start or end at a timeline point without a time; interpolated between the timed points around it"),
        )?;
    }
    if let Some(note) = left_out_note(&left_out, first_left_out) {
        ctx.warn(note)?;
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

/// Joins the events of one tier through which a word runs. EXMARaLDA ends an event's text
/// with a space where a word ends; a timeline point inside a word (another speaker starts
/// there, or a pause is timed) cuts the word in two events, the first ending without a space:
/// `[T1 Hel][T2 lo ]` is the word `Hello`. An event whose text ends in a letter or digit (no
/// space after it) and the next event, which starts at the point where it ends with a letter
/// or digit, are one event from the first's start to the second's end, their texts joined (a
/// chain of such events is one). An event that ends in punctuation (`isn't it?` before `It's`,
/// as the EXMARaLDA demo corpus has it, a transcriber's missing space) ends its word there;
/// events of notation alone (a pause `•`) are never joined. A tier none of whose events ends
/// in a space does not write that convention (one utterance an event, as converters from other
/// tools write it): a missing space there ends nothing, and its events are never joined. Gives
/// the events, how many joins were made, and the offset of the first event joined to the next.
fn join_split_words(events: Vec<Ev>) -> (Vec<Ev>, usize, Option<usize>) {
    if !events.iter().any(|e| e.text.ends_with(char::is_whitespace)) {
        return (events, 0, None);
    }
    let mut out: Vec<Ev> = Vec::with_capacity(events.len());
    let mut joined = 0;
    let mut first = None;
    for e in events {
        if let Some(prev) = out.last_mut() {
            let continues = prev.end == e.start
                && prev.text.ends_with(char::is_alphanumeric)
                && e.text.starts_with(char::is_alphanumeric)
                && !notation_only(&prev.text)
                && !notation_only(&e.text);
            if continues {
                prev.text.push_str(&e.text);
                prev.end = e.end;
                prev.end_at = e.end_at;
                joined += 1;
                first.get_or_insert(prev.at);
                continue;
            }
        }
        out.push(e);
    }
    (out, joined, first)
}

/// Whether an event's text is transcription notation alone, no speech: HIAT's pause dots
/// (`•`, `• • •`), GAT's pauses (`(.)`, `(-)`, `(--)`, `(0.5)`), and pauses or breathing
/// described in double parentheses (`((1,2s))`, `((0.4))`, `((atmet ein))`, `((breathes))`).
/// Laughter (`((lacht))`) is not left out: the analysis knows it (§5.1).
fn notation_only(text: &str) -> bool {
    let mut rest = text.to_owned();
    // `((…))` groups of a pause length or breathing.
    while let Some(open) = rest.find("((") {
        let Some(close) = rest[open..].find("))").map(|c| open + c) else { break };
        let inner = rest[open + 2..close].trim().to_lowercase();
        // A length (`((0,4s))`, `((2))`): digits, with a unit and separators at most.
        let pause = inner.chars().any(|c| c.is_ascii_digit())
            && inner.chars().all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | 's' | ' '));
        let breath =
            ["atm", "einatm", "ausatm", "breath", "inhal", "exhal", "räusper", "hustet", "cough"]
                .iter()
                .any(|w| inner.starts_with(w));
        if !(pause || breath) {
            return false;
        }
        rest.replace_range(open..close + 2, " ");
    }
    // `(…)` groups of a GAT pause.
    while let Some(open) = rest.find('(') {
        let Some(close) = rest[open..].find(')').map(|c| open + c) else { break };
        let inner = rest[open + 1..close].trim();
        let pause = !inner.is_empty()
            && inner.chars().all(|c| c.is_ascii_digit() || matches!(c, ',' | '.' | '-' | '–'));
        if !pause {
            return false;
        }
        rest.replace_range(open..=close, " ");
    }
    let marked = text.contains('(') || rest.chars().any(|c| matches!(c, '•' | '·' | '…'));
    marked && !rest.chars().any(char::is_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word cut by a timeline point joins two events; a message about the joined span's end
    /// point names the event that wrote it, not the first one.
    #[test]
    fn errors_after_a_joined_word_point_at_their_event() {
        let doc = |second_end: &str| {
            format!(
                r#"<basic-transcription><basic-body><common-timeline>
<tli id="T0" time="1.0"/>
<tli id="T1" time="1.5"/>
<tli id="T2" time="0.5"/>
<tli id="T3"/>
</common-timeline>
<tier id="A" speaker="S" type="t">
<event start="T0" end="T1">Hel</event>
<event start="T1" end="{second_end}">lo </event>
</tier></basic-body></basic-transcription>"#
            )
        };
        let warnings = |text: &str| {
            let out = read_str(text, Format::Exmaralda, &ReadOptions::default()).unwrap();
            out.warnings
                .iter()
                .map(|w| (w.kind, w.line, w.column, w.message.clone()))
                .collect::<Vec<_>>()
        };
        let joined = (
            WarningKind::Note,
            Some(8),
            Some(1),
            "1 word(s) continue from one event into the next (an event's text ends in a letter or digit, without a space, as HIAT writes a word cut by a timeline point): each read as one word over both events".to_owned(),
        );
        let no_speech = (
            WarningKind::Note,
            None,
            None,
            "the input holds no speech (no segment, turn or word): an empty file or an empty result, so what is made from it has no speakers".to_owned(),
        );
        assert_eq!(
            warnings(&doc("T9")),
            [
                (
                    WarningKind::Skipped,
                    Some(9),
                    Some(1),
                    "event refers to a timeline point the timeline does not have (\"T0\", \"T9\"); skipped".to_owned()
                ),
                joined.clone(),
                no_speech.clone(),
            ]
        );
        assert_eq!(
            warnings(&doc("T2")),
            [
                (
                    WarningKind::NegativeDuration,
                    Some(9),
                    Some(1),
                    "segment ends (0.500) before it starts (1.000); dropped".to_owned()
                ),
                joined.clone(),
                no_speech.clone(),
            ]
        );
        // The untimed end point: its interpolation is counted at the event that names it.
        let out = warnings(&doc("T3"));
        let interpolated: Vec<_> =
            out.iter().filter(|w| w.0 == WarningKind::MissingTime).map(|w| (w.1, w.2)).collect();
        assert_eq!(interpolated, [(Some(9), Some(1))], "{out:?}");
    }

    #[test]
    fn transcription_notation_alone_is_no_speech() {
        for t in [
            "•",
            "• • •",
            "((0,4s))",
            "((1.7))",
            "(.)",
            "(--)",
            "(0.5)",
            "((atmet ein))",
            " ((breathes)) • ",
        ] {
            assert!(notation_only(t), "{t}");
        }
        for t in [
            "((laughing))",
            "((lacht))",
            "((s))",
            "((...))",
            "ja.",
            "Du sitzt hier • locker",
            "(.) ja",
            "",
            ".",
        ] {
            assert!(!notation_only(t), "{t}");
        }
    }
    use crate::format::{read_str, sniff as sniff_text, ReadOptions};
    use crate::model::Segment;

    const SAMPLE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<basic-transcription>
<head>
<meta-information><project-name/><transcription-name>demo</transcription-name><referenced-file url="demo.wav"/><ud-meta-information/><comment/><transcription-convention/></meta-information>
<speakertable>
<speaker id="SPK0"><abbreviation>MAX</abbreviation><sex value="m"/><languages-used/><l1/><l2/><ud-speaker-information/><comment/></speaker>
<speaker id="SPK1"><abbreviation>EVA</abbreviation><sex value="f"/><languages-used/><l1/><l2/><ud-speaker-information/><comment/></speaker>
<speaker id="SPK2"><abbreviation></abbreviation><sex value="u"/><languages-used/><l1/><l2/><ud-speaker-information/><comment/></speaker>
</speakertable>
</head>
<basic-body>
<common-timeline>
<tli id="T0" time="0.0"/>
<tli id="T1"/>
<tli id="T2" time="1.5"/>
<tli id="T3" time="2.4"/>
</common-timeline>
<tier id="TIE0" speaker="SPK0" category="v" type="t" display-name="MAX [v]">
<event start="T0" end="T1">Hello </event>
<event start="T1" end="T2">there &amp; then. </event>
</tier>
<tier id="TIE1" speaker="SPK1" category="v" type="t" display-name="EVA [v]">
<event start="T1" end="T3">Hi! </event>
<event start="T3" end="T9">lost</event>
</tier>
<tier id="TIE2" speaker="SPK0" category="en" type="a" display-name="MAX [en]">
<event start="T0" end="T2">greeting</event>
</tier>
</basic-body>
</basic-transcription>"#;

    #[test]
    fn transcription_tiers_are_speech_and_untimed_points_are_interpolated() {
        assert_eq!(sniff_text(SAMPLE), Some(Format::Exmaralda));
        let out = read_str(SAMPLE, Format::Exmaralda, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let got: Vec<_> = t
            .utterances()
            .map(|u| (u.speaker_name.to_owned(), u.segment, u.content.and_then(|c| c.text.clone())))
            .collect();
        assert_eq!(
            got,
            vec![
                ("MAX".to_owned(), Segment::from_millis(0, 750).unwrap(), Some("Hello".to_owned())),
                (
                    "MAX".to_owned(),
                    Segment::from_millis(750, 1500).unwrap(),
                    Some("there & then.".to_owned())
                ),
                (
                    "EVA".to_owned(),
                    Segment::from_millis(750, 2400).unwrap(),
                    Some("Hi!".to_owned())
                ),
            ]
        );
        assert_eq!(t.annotation().speakers().len(), 3);
        let kinds: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(
            kinds,
            vec![
                (WarningKind::Skipped, Some(24)),
                (WarningKind::MissingTime, Some(19)),
                (WarningKind::Note, Some(26)),
            ]
        );
        assert!(out.warnings[2]
            .message
            .contains("\"MAX [en]\" (an annotation tier (type a), not speech)"));
    }

    /// A transcript typed without media (every point at 0 or untimed) is untimed, in timeline
    /// order; a converter's token, part-of-speech and lemma layers are one speaker's text.
    #[test]
    fn an_untimed_timeline_and_speakerless_layers() {
        let text = r#"<basic-transcription><head><speakertable>
<speaker id="SPK0"><abbreviation>A</abbreviation></speaker>
<speaker id="SPK1"><abbreviation>B</abbreviation></speaker>
</speakertable></head><basic-body><common-timeline>
<tli id="T0" time="0.0"/><tli id="T2"/><tli id="T1"/><tli id="T3"/>
</common-timeline>
<tier id="TIE1" speaker="SPK1" category="v" type="t"><event start="T2" end="T3">yes</event></tier>
<tier id="TIE0" speaker="SPK0" category="v" type="t"><event start="T0" end="T2">so then</event><event start="T1" end="T3"></event></tier>
</basic-body></basic-transcription>"#;
        let out = read_str(text, Format::Exmaralda, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        assert!(t.is_untimed());
        let order: Vec<_> =
            t.untimed().iter().map(|u| (u.content.text.clone().unwrap(), u.line)).collect();
        assert_eq!(order, [("so then".to_owned(), 8), ("yes".to_owned(), 7)]);
        assert!(out.warnings[0]
            .message
            .starts_with("the timeline has fewer than two distinct times"));

        let layers = r#"<basic-transcription><basic-body><common-timeline>
<tli id="T0" time="0.0"/><tli id="T1" time="1.0"/></common-timeline>
<tier id="TIE0" category="tok" type="t" display-name="[tok]"><event start="T0" end="T1">Is</event></tier>
<tier id="TIE1" category="POS" type="t" display-name="[POS]"><event start="T0" end="T1">VBZ</event></tier>
</basic-body></basic-transcription>"#;
        let out = read_str(layers, Format::Exmaralda, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let names: Vec<_> = t.utterances().map(|u| u.speaker_name.to_owned()).collect();
        assert_eq!(names, ["[tok]"]);
        assert!(out.warnings[1]
            .message
            .contains("\"[POS]\" (a further transcription tier without a speaker"));
    }

    /// HIAT cuts a word where a timeline point falls inside it (here EVA's `Ja` starts in
    /// the middle of `locker`): the event ending without a space continues into the next, and
    /// the two are one word over both events. An event ending in punctuation without a space
    /// (`Ja?` before `Ja`) is no cut word, and neither is any event of a tier none of whose
    /// events ends in a space (ANN's `Ja` before `genau`).
    #[test]
    fn a_word_cut_by_a_timeline_point_is_one_word() {
        let text = r#"<basic-transcription><head><speakertable>
<speaker id="SPK0"><abbreviation>MAX</abbreviation></speaker>
<speaker id="SPK1"><abbreviation>EVA</abbreviation></speaker>
<speaker id="SPK2"><abbreviation>ANN</abbreviation></speaker>
</speakertable></head><basic-body><common-timeline>
<tli id="T0" time="0.0"/><tli id="T1" time="1.0"/><tli id="T2" time="1.5"/><tli id="T3" time="2.0"/><tli id="T4" time="3.0"/><tli id="T5" time="4.0"/>
</common-timeline>
<tier id="TIE0" speaker="SPK0" category="v" type="t">
<event start="T0" end="T1">Du sitzt hier lo</event><event start="T1" end="T2">cker </event><event start="T2" end="T3">da. </event>
<event start="T3" end="T4">Unglaub</event><event start="T4" end="T5">lich</event>
</tier>
<tier id="TIE1" speaker="SPK1" category="v" type="t">
<event start="T0" end="T1">Ja?</event><event start="T1" end="T2">Ja </event><event start="T3" end="T4">• </event><event start="T4" end="T5">Wa</event>
</tier>
<tier id="TIE2" speaker="SPK2" category="v" type="t">
<event start="T3" end="T4">Ja</event><event start="T4" end="T5">genau</event>
</tier>
</basic-body></basic-transcription>"#;
        let out = read_str(text, Format::Exmaralda, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let got: Vec<_> = t
            .utterances()
            .map(|u| (u.speaker_name.to_owned(), u.segment, u.content.and_then(|c| c.text.clone())))
            .collect();
        let at = |a, b| Segment::from_millis(a, b).unwrap();
        assert_eq!(
            got,
            vec![
                ("EVA".to_owned(), at(0, 1000), Some("Ja?".to_owned())),
                ("MAX".to_owned(), at(0, 1500), Some("Du sitzt hier locker".to_owned())),
                ("EVA".to_owned(), at(1000, 1500), Some("Ja".to_owned())),
                ("MAX".to_owned(), at(1500, 2000), Some("da.".to_owned())),
                ("ANN".to_owned(), at(2000, 3000), Some("Ja".to_owned())),
                ("MAX".to_owned(), at(2000, 4000), Some("Unglaublich".to_owned())),
                ("ANN".to_owned(), at(3000, 4000), Some("genau".to_owned())),
                ("EVA".to_owned(), at(3000, 4000), Some("Wa".to_owned())),
            ]
        );
        let w: Vec<_> =
            out.warnings.iter().map(|w| (w.kind, w.line, w.column, w.message.as_str())).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::Skipped, Some(13), Some(77), "1 event(s) of transcription notation alone (pauses such as `•` or `((1,2s))`, breathing) left out: not speech"),
                (WarningKind::Note, Some(9), Some(1), "2 word(s) continue from one event into the next (an event's text ends in a letter or digit, without a space, as HIAT writes a word cut by a timeline point): each read as one word over both events"),
            ]
        );
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = read_str(
            "<basic-transcription>\n<basic-body>\n</basic-transcription>",
            Format::Exmaralda,
            &ReadOptions::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("line 3, column 1"), "{e}");
        let e = read_str("<segmented-transcription/>", Format::Exmaralda, &ReadOptions::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("(.exb)"), "{e}");
        let deep = format!("<basic-transcription>{}", "<x>".repeat(10_000));
        let e =
            read_str(&deep, Format::Exmaralda, &ReadOptions::default()).unwrap_err().to_string();
        assert!(
            e.contains("exmaralda: line 1, column ")
                && e.contains("XML nested deeper than the limit"),
            "{e}"
        );
        let e = read_str(
            "<basic-transcription><basic-body><common-timeline>\n<tli id=\"T0\" time=\"asdads\"/>",
            Format::Exmaralda,
            &ReadOptions::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("line 2, column 1") && e.contains("tli time \"asdads\""), "{e}");
        let e = read_str("<ANNOTATION_DOCUMENT/>", Format::Exmaralda, &ReadOptions::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains("root element <ANNOTATION_DOCUMENT>; an EXMARaLDA basic transcription's root is <basic-transcription>"), "{e}");
    }
}
