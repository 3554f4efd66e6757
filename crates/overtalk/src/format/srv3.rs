//! YouTube's timed text, format 3 (srv3): the XML YouTube's player reads, as `yt-dlp
//! --sub-format srv3` downloads it, manual and automatic captions alike. The older formats 1
//! and 2 (`<transcript>`, `<timedtext>` of `<text>`) are read by [`super::timedtext`].
//!
//! ```text
//! <timedtext format="3">
//!  <head><pen id="1" fc="#E5E5E5"/><ws id="1" mh="2" ju="0" sd="3"/><wp id="1" …/></head>
//!  <body>
//!   <w t="0" id="1" wp="1" ws="1"/>                     window: no text
//!   <p t="1040" d="3360" w="1"><s ac="0">welcome</s><s t="320" ac="0"> to</s></p>
//!   <p t="2710" d="1690" w="1" a="1">                   appended line break: no caption
//!   </p>
//!   <p t="9870" d="6240">&gt;&gt; ANA: So we<br/>start.</p>   manual caption, speaker marked
//!  </body>
//! </timedtext>
//! ```
//!
//! **Reading.** Each `<p>` with text is a caption over `[t, t + d)` in milliseconds; its text
//! is the text of its `<s>` pieces and its own, `<br/>` and line breaks separating lines.
//! Speakers are read from the text as in SRT ([`super::srt`]): `>>` marks a new speaker, and
//! `NAME:` names one (`&gt;&gt; ANA: So`); a caption without a speaker gets `unknown`, with one
//! warning. Pieces with offsets (`<s t="320">`) or recogniser scores (`ac`) are the words of
//! automatic captions: they keep their times, a piece that does not open with a space
//! continuing the word before it, and a line ends where the next one starts, since automatic
//! captions roll up and show a line while the next is said (its display time would make each
//! change of speaker an overlap). A `<p>` with `a="1"` appends to the line before: a line
//! break (no caption) or text joining it. `<head>` styles and `<w>` windows are ignored. Malformed XML is an error naming line and column; a
//! `<p>` without a readable `t` or `d` is skipped with a warning naming its place (`--strict`
//! rejects it).

use quick_xml::events::Event as XmlEvent;
use quick_xml::Reader;

use crate::error::{Result, WarningKind};
use crate::format::xml::{attr, attributes, timed_element, TimeAttr, XmlDoc};
use crate::format::youtube::{read_events, Event, Piece};
use crate::format::ReadContext;
use crate::model::Corpus;

use crate::format::{Format, FormatSpec, Head, Sniff, Verdict};

/// What the format registry knows of this format (see [`FormatSpec`]).
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Srv3,
    name: "srv3",
    aliases: &["youtube-srv3", "timedtext"],
    extension: "srv3",
    detected_by: &["srv3"],
    read: Ok(read),
    write: None,
    json: false,
    many_recordings: false,
    paragraphs: false,
    // Before EAF, which calls any other XML unknown.
    sniff: &[Sniff::Start { rank: 27, test: sniff }],
};

/// An XML text whose root is `<timedtext format="3">`.
fn sniff(head: &Head<'_>) -> Verdict {
    if !head.trimmed.starts_with('<') {
        return Verdict::Pass;
    }
    if head.head.contains("<timedtext format=\"3\"") || head.head.contains("<timedtext format='3'")
    {
        Verdict::Is(Format::Srv3)
    } else {
        Verdict::Pass
    }
}

/// A time attribute of `<p>` or `<s>`: whole milliseconds.
fn millis(value: &str) -> Option<i64> {
    let v = value.trim();
    (!v.is_empty() && v.bytes().all(|b| b.is_ascii_digit())).then(|| v.parse().ok()).flatten()
}

/// Reads srv3 captions as one recording (see the module doc).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let doc = XmlDoc::new(text, "srv3", ctx);
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut depth = 0usize;
    let mut events: Vec<Event> = Vec::new();
    // The `<p>` being read (and whether it is kept), and the depth of the `<s>` inside it.
    let mut current: Option<(Event, bool)> = None;
    let mut in_piece: Option<usize> = None;
    loop {
        let (at, ev) = doc.next(&mut reader, ctx)?;
        let (start, empty) = match &ev {
            XmlEvent::Start(e) => (Some(e), false),
            XmlEvent::Empty(e) => (Some(e), true),
            _ => (None, false),
        };
        if let Some(e) = start {
            doc.opening(ctx, e, empty, at, depth, ("timedtext", "a YouTube srv3 file"))?;
            match e.name().as_ref() {
                b"p" if current.is_none() => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    let (line, column) = doc.pos(at);
                    let t = attr(&attrs, "t");
                    let start = t.as_deref().and_then(millis);
                    let d = attr(&attrs, "d");
                    let duration = d.as_deref().and_then(millis);
                    let append = attr(&attrs, "a").is_some_and(|a| a.trim() == "1");
                    // A line break without a time is no caption: no warning for it.
                    let keep = timed_element(
                        ctx,
                        (line, column),
                        "<p>",
                        TimeAttr { name: "t", value: t.as_deref(), read: start.is_some() },
                        TimeAttr { name: "d", value: d.as_deref(), read: duration.is_some() },
                        "whole milliseconds",
                        append,
                    )?;
                    let event = Event {
                        line,
                        column,
                        start: start.unwrap_or(0),
                        duration,
                        append,
                        pieces: Vec::new(),
                    };
                    if empty {
                        if keep {
                            events.push(event);
                        }
                    } else {
                        current = Some((event, keep));
                    }
                }
                b"s" if current.is_some() && in_piece.is_none() => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    let offset = attr(&attrs, "t");
                    let parsed = offset.as_deref().and_then(millis);
                    if let (Some(v), None) = (&offset, parsed) {
                        let (line, column) = doc.pos(at);
                        ctx.warn_at(
                            WarningKind::Repaired,
                            line,
                            Some(column),
                            format!("<s> with t = {:?}, not whole milliseconds; its word is read untimed", v.chars().take(30).collect::<String>()),
                        )?;
                    }
                    let scored = attr(&attrs, "ac").is_some();
                    if let Some((p, _)) = current.as_mut() {
                        p.pieces.push(Piece { text: String::new(), offset: parsed, scored });
                    }
                    if !empty {
                        in_piece = Some(depth);
                    }
                }
                b"br" => {
                    if let Some((p, _)) = current.as_mut() {
                        push_text(p, "\n", in_piece.is_some());
                    }
                }
                _ => {}
            }
            if !empty {
                depth += 1;
            }
            continue;
        }
        match ev {
            XmlEvent::End(e) => {
                depth = depth.saturating_sub(1);
                if in_piece == Some(depth) {
                    in_piece = None;
                } else if e.name().as_ref() == b"p" && in_piece.is_none() {
                    if let Some((p, keep)) = current.take() {
                        if keep {
                            events.push(p);
                        }
                    }
                }
            }
            XmlEvent::Text(x) => {
                if let Some((p, _)) = current.as_mut() {
                    let s = x
                        .unescape()
                        .map_err(|err| doc.error(ctx, at, format!("bad text: {err}")))?;
                    push_text(p, &s, in_piece.is_some());
                } else if depth == 0 && !x.iter().all(u8::is_ascii_whitespace) {
                    return Err(doc.error(ctx, at, "text outside the root element"));
                }
            }
            XmlEvent::CData(x) => {
                if let Some((p, _)) = current.as_mut() {
                    push_text(p, &String::from_utf8_lossy(&x), in_piece.is_some());
                }
            }
            XmlEvent::Eof => break,
            _ => {}
        }
    }
    doc.finish(ctx, depth, "no <timedtext> element: not a YouTube srv3 file")?;
    read_events(events, ctx)
}

/// Adds text to the `<p>` being read: to its current `<s>` piece, or as a piece of its own
/// (untimed) when it lies outside any.
fn push_text(p: &mut Event, text: &str, in_piece: bool) {
    match p.pieces.last_mut() {
        Some(last) if in_piece => last.text.push_str(text),
        Some(last) if last.offset.is_none() && !last.scored => last.text.push_str(text),
        _ => p.pieces.push(Piece { text: text.to_owned(), offset: None, scored: false }),
    }
}
