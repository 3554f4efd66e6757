//! YouTube's older timed-text XML, formats 1 and 2 (srv1, srv2): what `yt-dlp --sub-format
//! srv1|srv2` downloads, and what transcript tools (youtube-transcript-api, pytube) fetch from
//! YouTube's `timedtext` endpoint. Format 3 is [`super::srv3`].
//!
//! ```text
//! srv1  <?xml version="1.0" encoding="utf-8" ?>
//!       <transcript>
//!         <text start="1.23" dur="2.1">Hello &amp;#39;world&amp;#39;</text>   seconds
//!       </transcript>
//!
//! srv2  <timedtext>
//!         <text t="1230" d="2100" w="1">&gt;&gt; ANA: Hello</text>             milliseconds
//!         <text t="3330" d="900" w="1" append="1"> again</text>
//!       </timedtext>
//! ```
//!
//! **Reading.** Each `<text>` with text is a caption over `[start, start + dur)` (seconds, srv1)
//! or `[t, t + d)` (milliseconds, srv2). Its text is read twice over: the XML's escapes, then
//! the HTML character references YouTube escaped once more (`&amp;#39;` is `'`, `&amp;quot;`
//! is `"`), and formatting tags (`<i>`, `<b>`, `<font …>`, escaped as `&lt;i&gt;`) are removed.
//! Speakers are read from the text as in SRT ([`super::srt`]): `>>` marks a new speaker and
//! `NAME:` or `[NAME]:` names one; a caption without a speaker gets `unknown`, with one warning.
//! A srv2 `<text>` with `append="1"` adds to the caption before it (as srv3's `a="1"`); `w`
//! (the window) is ignored. A `<text>` without text is skipped (it shows nothing); one without a
//! readable start or duration is skipped with a warning naming its line and column
//! (`--strict` rejects it). Malformed XML is an error naming line and column, and so is a root
//! element other than `<transcript>` (srv1) or `<timedtext>` (srv2).

use quick_xml::events::Event as XmlEvent;
use quick_xml::Reader;

use crate::error::Result;
use crate::format::srt::strip_tags;
use crate::format::webvtt::decode_entities;
use crate::format::xml::{attr, attributes, timed_element, TimeAttr, XmlDoc};
use crate::format::youtube::{read_events, Event, Piece};
use crate::format::ReadContext;
use crate::model::Corpus;
use crate::time::parse_seconds;

use crate::format::{Format, FormatSpec, Head, Sniff, Verdict};

/// What the format registry knows of srv1 (see [`FormatSpec`]).
pub(crate) const SRV1_SPEC: FormatSpec = FormatSpec {
    format: Format::Srv1,
    name: "srv1",
    aliases: &["youtube-srv1"],
    extension: "srv1",
    detected_by: &["srv1"],
    read: Ok(read_srv1),
    write: None,
    json: false,
    many_recordings: false,
    paragraphs: false,
    // Before EAF, which calls any other XML unknown.
    sniff: &[Sniff::Start { rank: 27, test: sniff }],
};

/// What the format registry knows of srv2 (see [`FormatSpec`]); told from XML by [`sniff`].
pub(crate) const SRV2_SPEC: FormatSpec = FormatSpec {
    format: Format::Srv2,
    name: "srv2",
    aliases: &["youtube-srv2"],
    extension: "srv2",
    detected_by: &["srv2"],
    read: Ok(read_srv2),
    write: None,
    json: false,
    many_recordings: false,
    paragraphs: false,
    sniff: &[],
};

/// The two formats read here: their root element, the attributes of a caption's start and
/// duration, and the unit of those.
#[derive(Clone, Copy)]
struct Shape {
    name: &'static str,
    root: &'static str,
    what: &'static str,
    start: &'static str,
    duration: &'static str,
    seconds: bool,
}

const SRV1: Shape = Shape {
    name: "srv1",
    root: "transcript",
    what: "a YouTube srv1 transcript",
    start: "start",
    duration: "dur",
    seconds: true,
};

const SRV2: Shape = Shape {
    name: "srv2",
    root: "timedtext",
    what: "a YouTube srv2 file",
    start: "t",
    duration: "d",
    seconds: false,
};

/// An XML text whose root is `<transcript>` with a `<text start=…>` (srv1), or a `<timedtext>`
/// that is not format 3 with a `<text t=…>` (srv2).
fn sniff(head: &Head<'_>) -> Verdict {
    if !head.trimmed.starts_with('<') {
        return Verdict::Pass;
    }
    let h = head.head;
    // Past the XML declaration and comments: the root's name.
    let root = h
        .match_indices('<')
        .map(|(i, _)| &h[i + 1..])
        .find(|r| !r.starts_with(['?', '!']))
        .and_then(|r| r.split('>').next())
        .unwrap_or("");
    let named = |name: &str| {
        root.strip_prefix(name)
            .is_some_and(|r| r.is_empty() || r.starts_with(|c: char| c == '/' || c.is_whitespace()))
    };
    // A `<text>` with the format's start attribute, among the first ones.
    let text_with = |name: &str| {
        h.match_indices("<text")
            .take(8)
            .any(|(i, _)| h[i..].split('>').next().is_some_and(|tag| tag.contains(name)))
    };
    if named("transcript") && (text_with(" start=") || text_with("\tstart=")) {
        Verdict::Is(Format::Srv1)
    } else if named("timedtext")
        && !root.contains("format=\"3\"")
        && !root.contains("format='3'")
        && (text_with(" t=") || text_with("\tt="))
    {
        Verdict::Is(Format::Srv2)
    } else {
        Verdict::Pass
    }
}

/// Reads srv1 (`<transcript>`) captions as one recording (see the module doc).
pub fn read_srv1(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    read(text, SRV1, ctx)
}

/// Reads srv2 (`<timedtext>`) captions as one recording (see the module doc).
pub fn read_srv2(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    read(text, SRV2, ctx)
}

/// A time attribute: milliseconds from decimal seconds (srv1, rounded to the millisecond) or
/// whole milliseconds (srv2); `None` when it is neither or negative.
fn millis(value: &str, seconds: bool) -> Option<i64> {
    let v = value.trim();
    if seconds {
        if v.starts_with(['-', '+']) || v.contains(['e', 'E']) {
            return None;
        }
        let t = parse_seconds(v).ok()?;
        Some(crate::time::round_div(t.micros(), 1000))
    } else {
        (!v.is_empty() && v.len() <= 15 && v.bytes().all(|b| b.is_ascii_digit()))
            .then(|| v.parse().ok())
            .flatten()
    }
}

/// The `<text>` being read: its event, whether it is kept, and its raw text.
struct Open {
    event: Event,
    keep: bool,
    text: String,
}

fn read(text: &str, shape: Shape, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let doc = XmlDoc::new(text, shape.name, ctx);
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;
    let mut depth = 0usize;
    let mut events: Vec<Event> = Vec::new();
    let mut current: Option<Open> = None;
    loop {
        let (at, ev) = doc.next(&mut reader, ctx)?;
        let (start, empty) = match &ev {
            XmlEvent::Start(e) => (Some(e), false),
            XmlEvent::Empty(e) => (Some(e), true),
            _ => (None, false),
        };
        if let Some(e) = start {
            doc.opening(ctx, e, empty, at, depth, (shape.root, shape.what))?;
            match e.name().as_ref() {
                b"text" if depth == 1 && current.is_none() => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    let (line, column) = doc.pos(at);
                    let t = attr(&attrs, shape.start);
                    let begin = t.as_deref().and_then(|v| millis(v, shape.seconds));
                    let d = attr(&attrs, shape.duration);
                    let duration = d.as_deref().and_then(|v| millis(v, shape.seconds));
                    let append = attr(&attrs, "append").is_some_and(|a| a.trim() == "1");
                    let unit = if shape.seconds { "seconds" } else { "whole milliseconds" };
                    let keep = timed_element(
                        ctx,
                        (line, column),
                        "<text>",
                        TimeAttr { name: shape.start, value: t.as_deref(), read: begin.is_some() },
                        TimeAttr {
                            name: shape.duration,
                            value: d.as_deref(),
                            read: duration.is_some(),
                        },
                        unit,
                        false,
                    )?;
                    let event = Event {
                        line,
                        column,
                        start: begin.unwrap_or(0),
                        duration,
                        append,
                        pieces: Vec::new(),
                    };
                    // An empty `<text/>` shows nothing: no caption.
                    if !empty {
                        current = Some(Open { event, keep, text: String::new() });
                    }
                }
                b"br" => {
                    if let Some(open) = current.as_mut() {
                        open.text.push('\n');
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
                if depth == 1 && e.name().as_ref() == b"text" {
                    if let Some(open) = current.take() {
                        if open.keep {
                            let mut event = open.event;
                            event.pieces.push(Piece {
                                text: caption_text(&open.text),
                                offset: None,
                                scored: false,
                            });
                            events.push(event);
                        }
                    }
                }
            }
            XmlEvent::Text(x) => {
                if let Some(open) = current.as_mut() {
                    let s = x
                        .unescape()
                        .map_err(|err| doc.error(ctx, at, format!("bad text: {err}")))?;
                    open.text.push_str(&s);
                } else if depth == 0 && !x.iter().all(u8::is_ascii_whitespace) {
                    return Err(doc.error(ctx, at, "text outside the root element"));
                }
            }
            XmlEvent::CData(x) => {
                if let Some(open) = current.as_mut() {
                    open.text.push_str(&String::from_utf8_lossy(&x));
                }
            }
            XmlEvent::Eof => break,
            _ => {}
        }
    }
    doc.finish(ctx, depth, &format!("no <{}> element: not {}", shape.root, shape.what))?;
    read_events(events, ctx)
}

/// A caption's text as shown: HTML character references that survived the XML's own escapes
/// decoded (YouTube escapes its text twice: `&amp;#39;`), then formatting tags removed.
fn caption_text(raw: &str) -> String {
    strip_tags(&decode_entities(raw))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::test_support::tracks_with_text;
    use crate::format::{read_str, ReadOptions};
    use crate::WarningKind;

    #[test]
    fn seconds_and_milliseconds() {
        assert_eq!(millis("1.54", true), Some(1540));
        assert_eq!(millis(" 3.2395 ", true), Some(3240));
        assert_eq!(millis("-1", true), None);
        assert_eq!(millis("1e3", true), None);
        assert_eq!(millis("1230", false), Some(1230));
        assert_eq!(millis("1.5", false), None);
        assert_eq!(millis("9999999999999999", false), None);
    }

    #[test]
    fn srv1_double_escapes_and_tags() {
        let text = "<?xml version=\"1.0\" encoding=\"utf-8\" ?><transcript><text start=\"1.23\" dur=\"2.1\">Hello &amp;#39;world&amp;#39; &amp;amp; &amp;quot;you&amp;quot;</text><text start=\"3.5\" dur=\"1\">&lt;i&gt;so&lt;/i&gt;\nthere</text><text start=\"5\" dur=\"0.5\"></text><text start=\"6\" dur=\"1\"/></transcript>";
        assert_eq!(crate::format::sniff(text), Some(Format::Srv1));
        let out = read_str(text, Format::Srv1, &ReadOptions::default()).unwrap();
        assert_eq!(
            tracks_with_text(&out, "recording"),
            vec![
                (1_230_000, 3_330_000, "unknown".to_owned(), "Hello 'world' & \"you\"".to_owned()),
                (3_500_000, 4_500_000, "unknown".to_owned(), "so\nthere".to_owned()),
            ]
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::MissingSpeaker, Some(1), Some(1))]);
    }

    #[test]
    fn srv2_speakers_appends_and_a_bad_time() {
        let text = "<?xml version=\"1.0\" encoding=\"utf-8\" ?>\n<timedtext>\n<text t=\"1230\" d=\"2100\" w=\"1\">&gt;&gt; ANA: Hello</text>\n<text t=\"3330\" d=\"900\" w=\"1\" append=\"1\"> again</text>\n<text t=\"4300\" d=\"1000\">&gt;&gt; BEN: Hi</text>\n<text t=\"soon\" d=\"10\">lost</text>\n</timedtext>\n";
        assert_eq!(crate::format::sniff(text), Some(Format::Srv2));
        let out = read_str(text, Format::Srv2, &ReadOptions::default()).unwrap();
        assert_eq!(
            tracks_with_text(&out, "recording"),
            vec![
                (1_230_000, 3_330_000, "ANA".to_owned(), "Hello again".to_owned()),
                (4_300_000, 5_300_000, "BEN".to_owned(), "Hi".to_owned()),
            ]
        );
        let w: Vec<_> =
            out.warnings.iter().map(|w| (w.kind, w.line, w.column, w.message.as_str())).collect();
        assert_eq!(
            w,
            vec![(
                WarningKind::Skipped,
                Some(6),
                Some(1),
                "<text> with t = \"soon\", not whole milliseconds; skipped"
            )]
        );
        let strict = ReadOptions { strict: true, ..Default::default() };
        let e = read_str(text, Format::Srv2, &strict).unwrap_err().to_string();
        assert_eq!(e, "line 6, column 1: srv2: <text> with t = \"soon\", not whole milliseconds");
    }

    /// Other XML is not taken for srv1 or srv2: the root must be `<transcript>` or `<timedtext>`
    /// and a `<text>` must carry the format's start attribute.
    #[test]
    fn other_xml_is_not_srv1_or_srv2() {
        let trs = "<?xml version=\"1.0\"?>\n<Trans><Episode><Section type=\"report\" startTime=\"0\" endTime=\"2\"><Turn speaker=\"spk1\" startTime=\"0\" endTime=\"2\"><Sync time=\"0\"/>hi</Turn></Section></Episode></Trans>";
        assert_eq!(crate::format::sniff(trs), Some(Format::Transcriber));
        let eaf = "<ANNOTATION_DOCUMENT><TIME_ORDER/><TIER TIER_ID=\"A\"/></ANNOTATION_DOCUMENT>";
        assert_eq!(crate::format::sniff(eaf), Some(Format::Eaf));
        for other in [
            // An RSS feed whose items hold `<text start=…>`: its root is no transcript.
            "<?xml version=\"1.0\"?><rss><channel><item><text start=\"1\" dur=\"2\">x</text></item></channel></rss>",
            // A `<transcript>` whose `<text>` has no start, a `<timedtext>` whose has no `t`.
            "<transcript><text speaker=\"A\">hello</text></transcript>",
            "<timedtext><text start=\"0\">hi</text></timedtext>",
            // A root named alike is another element.
            "<transcripts><text start=\"1\" dur=\"2\">x</text></transcripts>",
        ] {
            assert_eq!(crate::format::sniff(other), None, "{other}");
        }
    }

    #[test]
    fn other_roots_are_errors_and_srv3_is_not_srv2() {
        let e = read_str(
            "<tt><text t=\"1\" d=\"1\">x</text></tt>",
            Format::Srv2,
            &ReadOptions::default(),
        )
        .unwrap_err()
        .to_string();
        assert_eq!(
            e,
            "line 1, column 1: srv2: root element <tt>; a YouTube srv2 file's root is <timedtext>"
        );
        assert_eq!(
            crate::format::sniff(
                "<timedtext format=\"3\"><body><p t=\"1\" d=\"2\">x</p></body></timedtext>"
            ),
            Some(Format::Srv3)
        );
        // A document cut off is read as far as it goes (the element cut off is not read),
        // with a repair warning; under --strict that is the error.
        let cut =
            "<transcript>\n<text start=\"0\" dur=\"1\">a</text>\n<text start=\"1\" dur=\"1\">x";
        let out = read_str(cut, Format::Srv1, &ReadOptions::default()).unwrap();
        assert_eq!(tracks_with_text(&out, "recording").len(), 1);
        let w: Vec<_> =
            out.warnings.iter().map(|w| (w.kind, w.line, w.column, w.message.as_str())).collect();
        assert_eq!(
            w,
            [(
                WarningKind::Repaired,
                Some(3),
                Some(26),
                "the document ends with 2 element(s) still open (truncated?); read as far as it goes, an element cut off at the end not read"
            ), (
                WarningKind::MissingSpeaker,
                Some(2),
                Some(1),
                "caption has no speaker prefix; it and every later caption like it get the speaker \"unknown\""
            )]
        );
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        let e = read_str(cut, Format::Srv1, &strict).unwrap_err().to_string();
        assert_eq!(
            e,
            "line 3, column 26: srv1: the document ends with 2 element(s) still open (truncated?)"
        );
    }
}
