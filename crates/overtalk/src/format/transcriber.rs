//! Transcriber files (`.trs`, the XML of the Transcriber tool and of TranscriberAG; LDC and
//! broadcast-news corpora ship them, ELAN and TEI-CORPO convert to them), read only.
//!
//! ```text
//! <Speakers> <Speaker id="spk1" name="Ana"/> <Speaker id="spk2" name="Bo"/>
//! <Turn speaker="spk1" startTime="0" endTime="5.2">
//!   <Sync time="0"/> hello there <Sync time="2.1"/> and then          Ana [0, 2.1) [2.1, 5.2)
//! <Turn speaker="spk1 spk2" startTime="5.2" endTime="6.0">
//!   <Sync time="5.2"/> <Who nb="1"/> no <Who nb="2"/> yes             Ana and Bo [5.2, 6.0)
//! ```
//!
//! - **A speaker** is a `Speaker` of the `Speakers` list, named by its `name` (by its `id` when
//!   the name is empty, or shared with another speaker, then `name (id)`). Every declared
//!   speaker is a speaker, also one who never speaks. A turn's `speaker` attribute lists ids
//!   separated by spaces; an id the list does not declare is a speaker of that name.
//! - **Times.** A turn runs from `startTime` to `endTime` (seconds); its `Sync` points cut it
//!   into stretches, and each stretch where a speaker says something is one track of that
//!   speaker, with the stretch's text. In an overlapping turn (two speaker ids), `Who nb="k"`
//!   hands the text that follows to the `k`-th speaker of the turn: each speaker gets a track
//!   over the whole stretch, as the file says both spoke in it.
//! - **Not speech**: `Event` (noise, pronunciation and language notes), `Comment` and
//!   `Background` elements give no text; a turn without a speaker and without text (music,
//!   silence, non-transcribed sections) gives no track. A turn with text but no speaker goes to
//!   the placeholder [`UNKNOWN_SPEAKER`], with one `missing-speaker` warning.
//! - Text is kept as written (`{rire}`, `%e`), its lines and spaces joined into single spaces.
//!   A `Sync` or `Who` written as a container (`<Sync time="1">text</Sync>`, as converters that
//!   rewrite the file for an XML-to-dict parser do; the DTD makes both empty) holds text of its
//!   turn, read as if the mark were empty and the text followed it.
//! - XML errors, nesting deeper than the limit, a root other than `<Trans>` and times that are
//!   not numbers are errors naming line and column.
//!
//! overtalk does not write Transcriber files: ELAN EAF and TextGrid carry the same content.

use std::collections::HashMap;

use quick_xml::events::Event;
use quick_xml::Reader;

use crate::error::{Result, WarningKind};
use crate::format::textgrid::segment_at;
use crate::format::webvtt::UNKNOWN_SPEAKER;
use crate::format::xml::{attr, attributes, XmlDoc};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, TranscriptBuilder};
use crate::time::{parse_seconds, Time};

use crate::format::{is_dash_pause, Format, FormatSpec, Head, Sniff, Verdict};

/// What the format registry knows of this format (see [`FormatSpec`]).
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Transcriber,
    name: "transcriber",
    aliases: &["trs"],
    extension: "trs",
    detected_by: &["trs"],
    read: Ok(read),
    write: None,
    json: false,
    many_recordings: false,
    paragraphs: false,
    // Before EAF, which calls any other XML unknown.
    sniff: &[Sniff::Start { rank: 28, test: sniff }],
};

/// An XML text is a Transcriber file when it has a `<Trans` root (or its DOCTYPE).
fn sniff(head: &Head<'_>) -> Verdict {
    if !head.trimmed.starts_with('<') {
        return Verdict::Pass;
    }
    if head.head.contains("<Trans ")
        || head.head.contains("<Trans>")
        || head.head.contains("DOCTYPE Trans")
    {
        Verdict::Is(Format::Transcriber)
    } else {
        Verdict::Pass
    }
}

/// The element being read, for the few whose content matters.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Elem {
    Other,
    Turn,
    /// A `Sync` or `Who` written as a container (`<Sync time="1">text</Sync>`, as some
    /// converters write it; Transcriber's DTD makes both empty): its text is the turn's.
    Mark,
}

/// One turn being read: its speakers (ids), its stretches so far and the current one.
struct Turn {
    speakers: Vec<String>,
    end: Time,
    at: usize,
    /// The current stretch: its start, and the text of each speaker of the turn (by index;
    /// text before any `Who` goes to the turn's first speaker).
    from: Time,
    texts: Vec<String>,
    current: usize,
    /// Finished stretches: (start, end, speaker index, text).
    done: Vec<(Time, Time, usize, String)>,
}

impl Turn {
    /// Closes the current stretch at `to`.
    fn close(&mut self, to: Time) {
        for (k, text) in self.texts.iter_mut().enumerate() {
            let t = text.split_whitespace().collect::<Vec<_>>().join(" ");
            if !t.is_empty() && !is_dash_pause(&t) {
                self.done.push((self.from, to, k, t));
            }
            text.clear();
        }
        self.from = to;
    }
}

/// Reads a Transcriber file: one recording, named by [`ReadContext::recording_id`].
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let doc = XmlDoc::new(text, "transcriber", ctx);
    let time = |ctx: &ReadContext<'_>, attrs: &[(String, String)], name: &str, at: usize| match attr(
        attrs, name,
    ) {
        None => Ok(None),
        Some(v) => parse_seconds(v.trim()).map(Some).map_err(|m| {
            doc.error(ctx, at, format!("{name} {:?}: {m}", v.chars().take(40).collect::<String>()))
        }),
    };
    let mut reader = Reader::from_str(text);
    reader.config_mut().check_end_names = true;

    let mut stack: Vec<Elem> = Vec::new();
    // Declared speakers: (id, name).
    let mut declared: Vec<(String, String)> = Vec::new();
    // Tracks: (start, end, speaker id or None, text, offset of the turn).
    let mut tracks: Vec<(Time, Time, Option<String>, String, usize)> = Vec::new();
    let mut turn: Option<Turn> = None;

    loop {
        let (at, ev) = doc.next(&mut reader, ctx)?;
        let (start, empty) = match &ev {
            Event::Start(e) => (Some(e), false),
            Event::Empty(e) => (Some(e), true),
            _ => (None, false),
        };
        if let Some(e) = start {
            doc.opening(ctx, e, empty, at, stack.len(), ("Trans", "a Transcriber file"))?;
            let name = e.name();
            let name = name.as_ref();
            let mut elem = Elem::Other;
            match name {
                b"Speaker" => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    let id = attr(&attrs, "id").unwrap_or_default();
                    let label =
                        attr(&attrs, "name").map(|n| n.trim().to_owned()).unwrap_or_default();
                    declared.push((id, label));
                }
                b"Turn" => {
                    let attrs = attributes(e, &doc, ctx, at)?;
                    let start = time(ctx, &attrs, "startTime", at)?.unwrap_or(Time::ZERO);
                    let end = time(ctx, &attrs, "endTime", at)?.unwrap_or(start);
                    let speakers: Vec<String> = attr(&attrs, "speaker")
                        .unwrap_or_default()
                        .split_whitespace()
                        .map(str::to_owned)
                        .collect();
                    let slots = speakers.len().max(1);
                    let t = Turn {
                        speakers,
                        end,
                        at,
                        from: start,
                        texts: vec![String::new(); slots],
                        current: 0,
                        done: Vec::new(),
                    };
                    if !empty {
                        turn = Some(t);
                        elem = Elem::Turn;
                    }
                }
                b"Sync" => {
                    if let Some(t) = turn.as_mut() {
                        elem = Elem::Mark;
                        let attrs = attributes(e, &doc, ctx, at)?;
                        if let Some(s) = time(ctx, &attrs, "time", at)? {
                            t.close(s);
                        }
                    }
                }
                b"Who" => {
                    if let Some(t) = turn.as_mut() {
                        elem = Elem::Mark;
                        let attrs = attributes(e, &doc, ctx, at)?;
                        let nb = attr(&attrs, "nb").and_then(|n| n.trim().parse::<usize>().ok());
                        // `nb` counts the turn's speakers from 1; a number past them keeps the
                        // text with the turn's last speaker.
                        if let Some(k) = nb.filter(|&k| k >= 1) {
                            t.current = (k - 1).min(t.speakers.len().saturating_sub(1));
                        }
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
            Event::End(_) => {
                let closes_turn = stack.pop() == Some(Elem::Turn);
                if let Some(mut t) = turn.take_if(|_| closes_turn) {
                    let end = t.end.max(t.from);
                    t.close(end);
                    for (s, e, k, text) in t.done {
                        tracks.push((s, e, t.speakers.get(k).cloned(), text, t.at));
                    }
                }
            }
            Event::Text(x) if in_turn_text(&stack) => {
                let s =
                    x.unescape().map_err(|err| doc.error(ctx, at, format!("bad text: {err}")))?;
                if let Some(t) = turn.as_mut() {
                    let k = t.current;
                    t.texts[k].push(' ');
                    t.texts[k].push_str(&s);
                }
            }
            Event::CData(x) if in_turn_text(&stack) => {
                if let Some(t) = turn.as_mut() {
                    let k = t.current;
                    t.texts[k].push(' ');
                    t.texts[k].push_str(&String::from_utf8_lossy(&x));
                }
            }
            Event::Text(x) if stack.is_empty() && !x.iter().all(u8::is_ascii_whitespace) => {
                return Err(doc.error(ctx, at, "text outside the root element"));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    // Cut off inside a turn: the stretches a later `<Sync>` closed are whole and kept; the
    // stretch still open at the cut (its text may be cut too) is not read.
    if let Some(t) = turn.take() {
        for (s, e, k, text) in t.done {
            tracks.push((s, e, t.speakers.get(k).cloned(), text, t.at));
        }
    }
    doc.finish(ctx, stack.len(), "no <Trans> element: not a Transcriber file")?;
    // Speaker names: the name, else the id; a name two ids share gets its id.
    let mut uses: HashMap<&str, usize> = HashMap::new();
    for (_, n) in &declared {
        *uses.entry(n.as_str()).or_default() += 1;
    }
    let names: HashMap<&str, String> = declared
        .iter()
        .map(|(id, n)| {
            let shown = match uses.get(n.as_str()) {
                _ if n.is_empty() => id.clone(),
                Some(&u) if u > 1 => format!("{n} ({id})"),
                _ => n.clone(),
            };
            (id.as_str(), shown)
        })
        .collect();
    let mut b = TranscriptBuilder::new();
    for (id, _) in &declared {
        b.speaker(&names[id.as_str()]);
    }
    let mut missing_warned = false;
    for (start, end, id, text, at) in tracks {
        let speaker = match id {
            Some(id) => names.get(id.as_str()).cloned().unwrap_or(id),
            None => {
                if !missing_warned {
                    missing_warned = true;
                    let (line, column) = doc.pos(at);
                    ctx.warn_at(
                        WarningKind::MissingSpeaker,
                        line,
                        Some(column),
                        format!("turn with text but no speaker; it and every later one like it go to the placeholder speaker {UNKNOWN_SPEAKER:?}"),
                    )?;
                }
                UNKNOWN_SPEAKER.to_owned()
            }
        };
        let speaker_id = b.speaker(&speaker);
        if let Some(seg) = segment_at(ctx, start, end, || doc.pos(at))? {
            b.push(seg, speaker_id, Some(Content::text(text)));
        }
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

/// Whether text at this point of the document is a turn's: directly in a `Turn`, or in a
/// `Sync` or `Who` written as a container inside one.
fn in_turn_text(stack: &[Elem]) -> bool {
    stack.iter().rev().find(|e| **e != Elem::Mark) == Some(&Elem::Turn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, sniff as sniff_text, ReadOptions};
    use crate::model::Segment;

    const SAMPLE: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE Trans SYSTEM "trans-14.dtd">
<Trans scribe="YM" audio_filename="demo" version="2" version_date="060717">
<Topics><Topic id="to1" desc="news"/></Topics>
<Speakers>
<Speaker id="spk1" name="Ana" check="no" dialect="native" accent="" scope="local"/>
<Speaker id="spk2" name="Bo" check="no" dialect="native" accent="" scope="local"/>
<Speaker id="spk3" name="" check="no"/>
</Speakers>
<Episode>
<Section type="nontrans" startTime="0" endTime="1.5">
<Turn startTime="0" endTime="1.5">
<Background time="0" type="music" level="high"/>
</Turn>
</Section>
<Section type="report" topic="to1" startTime="1.5" endTime="8">
<Turn speaker="spk1" startTime="1.5" endTime="5.2">
<Sync time="1.5"/>
hello <Event desc="rire" type="noise" extent="instantaneous"/> there
<Sync time=" 3.25"/>
and &lt;then&gt;
<Sync time="4.5"/>
<Comment desc="sits down"/> --
</Turn>
<Turn speaker="spk2 spk1" startTime="5.2" endTime="6">
<Sync time="5.2"/>
<Who nb="2"/>
no
<Who nb="1"/>
yes
</Turn>
<Turn startTime="6" endTime="8">
<Sync time="6"/>
who said this
</Turn>
</Section>
</Episode>
</Trans>"#;

    #[test]
    fn turns_syncs_and_overlapping_speakers() {
        assert_eq!(sniff_text(SAMPLE), Some(Format::Transcriber));
        let out = read_str(SAMPLE, Format::Transcriber, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let got: Vec<_> = t
            .utterances()
            .map(|u| (u.speaker_name.to_owned(), u.segment, u.content.and_then(|c| c.text.clone())))
            .collect();
        let seg = |a, b| Segment::from_millis(a, b).unwrap();
        assert_eq!(
            got,
            vec![
                ("Ana".to_owned(), seg(1500, 3250), Some("hello there".to_owned())),
                // The pause notation `--` after the last Sync is silence.
                ("Ana".to_owned(), seg(3250, 4500), Some("and <then>".to_owned())),
                ("Ana".to_owned(), seg(5200, 6000), Some("no".to_owned())),
                ("Bo".to_owned(), seg(5200, 6000), Some("yes".to_owned())),
                ("unknown".to_owned(), seg(6000, 8000), Some("who said this".to_owned())),
            ]
        );
        let names: Vec<_> = t.annotation().speakers().iter().map(|s| s.1.to_owned()).collect();
        assert_eq!(names, ["Ana", "Bo", "spk3", "unknown"]);
        let kinds: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(kinds, vec![(WarningKind::MissingSpeaker, Some(32))]);
    }

    /// `Sync` and `Who` written as containers of the text that follows them (the shape
    /// linto's Transcriber-to-Kaldi preprocessing makes) give the same tracks as the empty
    /// marks; the text was dropped, and a file of such turns read as holding no speech.
    #[test]
    fn sync_and_who_written_as_containers_hold_turn_text() {
        let text = r#"<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE Trans SYSTEM "trans-14.dtd">
<Trans scribe="Authot" audio_filename="Linagora_A1" version="3" version_date="200114">
<Episode>
<Section type="report" startTime="0" endTime="797.718">
<Turn speaker="spk1 spk4" startTime="105.576" endTime="112.150">
<Sync time="105.576">
</Sync>
<Sync time="105.576">
<Who nb="1"/>
Speaker 1
<Who nb="2">and four</Who>
</Sync>
</Turn>
</Section>
</Episode>
</Trans>"#;
        let out = read_str(text, Format::Transcriber, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let got: Vec<_> = t
            .utterances()
            .map(|u| (u.speaker_name.to_owned(), u.segment, u.content.and_then(|c| c.text.clone())))
            .collect();
        let seg = Segment::from_millis(105_576, 112_150).unwrap();
        assert_eq!(
            got,
            vec![
                ("spk1".to_owned(), seg, Some("Speaker 1".to_owned())),
                ("spk4".to_owned(), seg, Some("and four".to_owned())),
            ]
        );
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = read_str(
            "<Trans>\n<Episode>\n<Turn startTime=\"x\"/>",
            Format::Transcriber,
            &ReadOptions::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("line 3, column 1"), "{e}");
        let e =
            read_str("<Trans>\n<Episode>\n</Trans>", Format::Transcriber, &ReadOptions::default())
                .unwrap_err()
                .to_string();
        assert!(e.starts_with("line 3, column 1"), "{e}");
        let deep = format!("<Trans>{}", "<x>".repeat(10_000));
        let e =
            read_str(&deep, Format::Transcriber, &ReadOptions::default()).unwrap_err().to_string();
        assert!(
            e.contains("transcriber: line 1, column ")
                && e.contains("XML nested deeper than the limit"),
            "{e}"
        );
        let e = read_str(
            "<?xml version=\"1.0\"?>\n<basic-transcription/>",
            Format::Transcriber,
            &ReadOptions::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.starts_with("line 2, column 1") && e.contains("a Transcriber file's root is <Trans>"),
            "{e}"
        );
    }

    /// A file saved without its closing `</Trans>` (as a Taiwanese corpus's test data is) is
    /// read with one repair warning at its end; `--strict` refuses it.
    #[test]
    fn a_file_without_its_closing_tags_is_read_as_far_as_it_goes() {
        let text = "<Trans>\n<Speakers><Speaker id=\"spk1\" name=\"張素華\"/></Speakers>\n<Episode>\n<Section type=\"report\" startTime=\"0\" endTime=\"88.204\">\n<Turn speaker=\"spk1\" startTime=\"0.000000\" endTime=\"88.204\">\n<Sync time=\"0.000000\"/>\n各位 親愛\n</Turn>\n</Section>\n</Episode>\n";
        let out = read_str(text, Format::Transcriber, &ReadOptions::default()).unwrap();
        assert_eq!(
            crate::format::test_support::tracks_with_text(&out, "recording"),
            vec![(0, 88_204_000, "張素華".to_owned(), "各位 親愛".to_owned())]
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.line, w.column)).collect();
        assert_eq!(w, [(Some(11), Some(1))]);
        assert!(out.warnings[0]
            .message
            .starts_with("the document ends with 1 element(s) still open"));
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        let e = read_str(text, Format::Transcriber, &strict).unwrap_err().to_string();
        assert_eq!(
            e,
            "line 11, column 1: transcriber: the document ends with 1 element(s) still open (truncated?)"
        );
        // Cut inside a long turn: the stretches its later `<Sync>`s closed are kept, the one
        // open at the cut is not.
        let text = "<Trans>\n<Speakers><Speaker id=\"s1\" name=\"Ana\"/></Speakers>\n<Episode>\n<Section type=\"report\" startTime=\"0\" endTime=\"600\">\n<Turn speaker=\"s1\" startTime=\"0\" endTime=\"600\">\n<Sync time=\"0\"/>\none\n<Sync time=\"100\"/>\ntwo\n<Sync time=\"200\"/>\nthree and";
        let out = read_str(text, Format::Transcriber, &ReadOptions::default()).unwrap();
        assert_eq!(
            crate::format::test_support::tracks_with_text(&out, "recording"),
            vec![
                (0, 100_000_000, "Ana".to_owned(), "one".to_owned()),
                (100_000_000, 200_000_000, "Ana".to_owned(), "two".to_owned())
            ]
        );
        assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
    }
}
