//! NIST STM segment transcripts: `file channel speaker begin end [<label>] transcript`.
//!
//! ```text
//! ;; comment
//! sample 1 Diane 6.68 7.16 <o,f0,female> Hello?
//! sample 1 Sheila 7.634 8.155 Hello?
//! ```
//!
//! **Reading** (SCTK's `infmts` rules, leniently): blank lines and lines starting with `;` or `#`
//! are skipped; `begin` and `end` are seconds (an end, not a duration); the optional `<…>` label
//! after the times is dropped; the rest of the line is the text. Every line is a track of its file
//! (several recordings per file are kept apart); the channel is not kept, with one note when a
//! line is on another channel than 1 (see the `channel` module). Lines whose text is
//! `IGNORE_TIME_SEGMENT_IN_SCORING` mark regions excluded from scoring, not speech: they are
//! not read as turns, with one note per file that counts them (the format defines them, so
//! `--strict` reads them). Lines of the speaker `inter_segment_gap` (Transcriber's export of the
//! stretches between its segments) are not speech either, with one note. An sclite alternation in the text (`{ um / uh / @ }`) is read as its
//! first alternative (`@` is no word), as in CTM, with one note. Lines out of time order within their file and channel (SCTK sorts
//! by file, channel, then time) are sorted, with one [`WarningKind::Unsorted`] warning per file
//! that counts them. Lines with fewer than five fields are
//! skipped with a warning; a time that cannot be read is an error naming line and column.
//!
//! **Writing**: `file 1 speaker begin end text`, one line per track, sorted by file then time,
//! times exact to the microsecond. Spaces in file ids and speakers become `_` (STM fields are
//! whitespace separated) and line breaks in text become spaces, with warnings. A text that starts
//! with a `<…>` word gets the label `<o>` in front so that it is not read back as a label.

use std::collections::BTreeMap;
use std::io::Write;

use rustc_hash::FxHashMap;

use crate::error::{Result, Warning, WarningKind};
use crate::format::channel::Channels;
use crate::format::order::OutOfOrder;
use crate::format::webvtt::column_of;
use crate::format::{distinct_fields, ReadContext};
use crate::model::{Content, Corpus, TranscriptBuilder};
use crate::time::Time;

use crate::format::{is_seconds, FirstLine, Format, FormatSpec, Head, Sniff};

/// What the format registry knows of this format (see [`FormatSpec`]).
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Stm,
    name: "stm",
    aliases: &[],
    extension: "stm",
    detected_by: &["stm"],
    read: Ok(read),
    write: Some(write),
    json: false,
    many_recordings: true,
    paragraphs: false,
    sniff: &[Sniff::Line { rank: 30, test: sniff }],
};

/// `file channel speaker begin end …`, space separated (a tab means an Audacity label line).
fn sniff(_: &Head<'_>, first: &FirstLine<'_>) -> Option<Format> {
    let f = &first.fields;
    (f.len() >= 5
        && !first.line.contains('\t')
        && is_seconds(f[3])
        && is_seconds(f[4])
        && !is_seconds(f[2]))
    .then_some(Format::Stm)
}

/// Splits off the first `k` whitespace-separated fields of `line`; `None` when there are fewer.
pub(crate) fn fields<const K: usize>(line: &str) -> Option<([&str; K], &str)> {
    let mut out = [""; K];
    let mut rest = line;
    for slot in out.iter_mut() {
        rest = rest.trim_start();
        if rest.is_empty() {
            return None;
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        *slot = &rest[..end];
        rest = &rest[end..];
    }
    Some((out, rest.trim_start()))
}

/// The text with each sclite alternation `{ um / uh / @ }` replaced by its first alternative
/// (`@` is no word), as the CTM reader does; `None` when there is none.
///
/// ```text
/// { um / uh } hello there   →   um hello there
/// {@/uh} yes                →   yes
/// ```
fn first_alternatives(text: &str) -> Option<String> {
    if !text.contains('{') {
        return None;
    }
    // Braces and slashes may touch their words (`{um/uh}`): spaced out first.
    let spaced = text.replace('{', " { ").replace('}', " } ");
    let mut out: Vec<&str> = Vec::new();
    // Per open brace: whether its first alternative is being read. A word is kept when every
    // enclosing alternation is in its first alternative.
    let mut firsts: Vec<bool> = Vec::new();
    let mut found = false;
    for token in spaced.split_whitespace() {
        match token {
            "{" => {
                firsts.push(true);
                found = true;
            }
            "}" if !firsts.is_empty() => {
                firsts.pop();
            }
            _ if !firsts.is_empty() => {
                // `a/b` inside braces: each slash starts the next alternative.
                for (k, part) in token.split('/').enumerate() {
                    if k > 0 {
                        if let Some(f) = firsts.last_mut() {
                            *f = false;
                        }
                    }
                    if !part.is_empty() && part != "@" && firsts.iter().all(|&f| f) {
                        out.push(part);
                    }
                }
            }
            _ => out.push(token),
        }
    }
    found.then(|| out.join(" "))
}

/// The speaker Transcriber's STM export (`stm.tcl`) gives the stretches between its segments:
/// no speaker, or tags only (ESTER, ETAPE, REPERE corpora).
const INTER_SEGMENT_GAP: &str = "inter_segment_gap";

/// Reads STM text (see the module doc).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let mut per: BTreeMap<&str, TranscriptBuilder> = BTreeMap::new();
    // The latest start per (file, channel), and the IGNORE_TIME_SEGMENT_IN_SCORING lines
    // (first line, its column, count).
    let mut latest: FxHashMap<(&str, &str), Time> = FxHashMap::default();
    let mut ignored: Option<(usize, usize, usize)> = None;
    // The `inter_segment_gap` lines (first line, its column, count).
    let mut gaps: Option<(usize, usize, usize)> = None;
    // The first line (and column) with an sclite alternation `{ a / b }`.
    let mut alternations: Option<(usize, usize)> = None;
    let mut unsorted = OutOfOrder::lines();
    let mut channels = Channels::default();
    for item in ctx.lines(text) {
        let (n, line) = item?;
        let line = if n == 1 { line.trim_start_matches('\u{feff}') } else { line };
        let t = line.trim();
        if t.is_empty() || t.starts_with(';') || t.starts_with('#') {
            continue;
        }
        let Some(([file, channel, speaker, begin, end], rest)) = fields::<5>(t) else {
            ctx.warn_at(
                WarningKind::Skipped,
                n,
                Some(1),
                "an STM line needs `file channel speaker begin end`; line skipped",
            )?;
            continue;
        };
        channels.see(file, channel, n, column_of(line, channel));
        let mut transcript = rest.trim_end();
        if transcript.starts_with('<') {
            let first = transcript.split(char::is_whitespace).next().unwrap_or("");
            if first.ends_with('>') {
                transcript = transcript[first.len()..].trim_start();
            }
        }
        if transcript.eq_ignore_ascii_case("IGNORE_TIME_SEGMENT_IN_SCORING") {
            let (_, _, count) = ignored.get_or_insert((n, column_of(line, transcript), 0));
            *count += 1;
            continue;
        }
        if speaker.eq_ignore_ascii_case(INTER_SEGMENT_GAP) {
            let (_, _, count) = gaps.get_or_insert((n, column_of(line, speaker), 0));
            *count += 1;
            continue;
        }
        let Some(start) = ctx.seconds_or_skip(begin, "begin", "line", n, column_of(line, begin))?
        else {
            continue;
        };
        let Some(stop) = ctx.seconds_or_skip(end, "end", "line", n, column_of(line, end))? else {
            continue;
        };
        per.entry(file).or_default();
        // SCTK sorts by file, channel, then time: order is checked per channel.
        let latest = latest.entry((file, channel)).or_insert(Time::from_micros(i64::MIN));
        unsorted.check(ctx, file, latest, start, n, Some(column_of(line, begin)))?;
        let transcript = match first_alternatives(transcript) {
            Some(t) => {
                alternations.get_or_insert((n, column_of(line, transcript)));
                std::borrow::Cow::Owned(t)
            }
            None => std::borrow::Cow::Borrowed(transcript),
        };
        let content = (!transcript.is_empty()).then(|| Content::text(transcript.into_owned()));
        if let Some(seg) = ctx.segment(start, stop, n, Some(column_of(line, end)))? {
            if let Some(b) = per.get_mut(file) {
                b.add(seg, speaker, content);
            }
        }
    }
    unsorted.finish(ctx, per.len());
    channels.finish(ctx)?;
    if let Some((line, column, count)) = ignored {
        let lines = if count == 1 { "1 line".to_owned() } else { format!("{count} lines") };
        ctx.warn_at(
            WarningKind::Note,
            line,
            Some(column),
            format!("{lines} marked IGNORE_TIME_SEGMENT_IN_SCORING (first at line {line}): regions excluded from scoring, not speech; not read as turns"),
        )?;
    }
    if let Some((line, column, count)) = gaps {
        let lines = if count == 1 { "1 line".to_owned() } else { format!("{count} lines") };
        ctx.warn_at(
            WarningKind::Note,
            line,
            Some(column),
            format!("{lines} of the speaker `{INTER_SEGMENT_GAP}` (first at line {line}): Transcriber's export marks the stretches between segments with it (no one speaking, or sounds only); not speech, not read as turns"),
        )?;
    }
    if let Some((line, column)) = alternations {
        ctx.warn_at(
            WarningKind::Note,
            line,
            Some(column),
            "sclite alternations (`{ a / b }`): the first alternative of each is read, the others are left out",
        )?;
    }
    Ok(per.into_iter().map(|(k, b)| (k.to_owned(), b.build())).collect())
}

/// Writes STM lines (see the module doc).
pub fn write(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    use std::fmt::Write as _;
    let mut warnings = Vec::new();
    let mut buf = String::new();
    let files = distinct_fields(corpus.ids(), "recording id", "STM", "", &mut warnings);
    for ((id, t), file) in corpus.iter().zip(&files) {
        let names = distinct_fields(
            t.annotation().speakers().iter().map(|(_, name)| name),
            "speaker",
            "STM",
            &format!("{id}: "),
            &mut warnings,
        );
        let mut joined_warned = false;
        for u in t.utterances() {
            let text = u.content.map(|c| c.display_text()).unwrap_or_default();
            let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
            if text.contains(['\n', '\r']) && !joined_warned {
                joined_warned = true;
                warnings.push(Warning::new(
                    WarningKind::Repaired,
                    format!("{id}: line breaks in a text written as spaces (an STM line holds one segment)"),
                ));
            }
            let label = if one_line.starts_with('<') { "<o> " } else { "" };
            let _ = write!(
                buf,
                "{file} 1 {} {} {}",
                names[u.speaker.index()],
                u.segment.start(),
                u.segment.end()
            );
            if one_line.is_empty() {
                buf.push('\n');
            } else {
                let _ = writeln!(buf, " {label}{one_line}");
            }
            if buf.len() > 1 << 16 {
                out.write_all(buf.as_bytes())?;
                buf.clear();
            }
        }
    }
    out.write_all(buf.as_bytes())?;
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, Format, ReadOptions};
    use crate::model::Segment;

    fn read_text(text: &str) -> crate::format::ReadOutput {
        read_str(text, Format::Stm, &ReadOptions::default()).unwrap()
    }

    #[test]
    fn alternations_read_their_first_alternative() {
        assert_eq!(
            first_alternatives("{ um / uh } hello there").as_deref(),
            Some("um hello there")
        );
        assert_eq!(first_alternatives("{@/uh} yes").as_deref(), Some("yes"));
        assert_eq!(first_alternatives("a { b c / d } e").as_deref(), Some("a b c e"));
        // Nested: the inner alternation lies in the outer one's third alternative.
        assert_eq!(
            first_alternatives("OR NOT { je / e / { fr / sdg } }").as_deref(),
            Some("OR NOT je")
        );
        assert_eq!(first_alternatives("{ { a / b } c / d }").as_deref(), Some("a c"));
        assert_eq!(first_alternatives("plain text"), None);
        assert_eq!(first_alternatives("and/or { a / b }").as_deref(), Some("and/or a"));
        let out = read_text("f 1 A 0.0 2.0 <O> { um / uh } hello there\n");
        let t = out.corpus.get("f").unwrap();
        assert_eq!(t.contents()[0].as_ref().unwrap().text.as_deref(), Some("um hello there"));
        assert_eq!(out.warnings.len(), 1);
        assert_eq!(out.warnings[0].line, Some(1));
    }

    #[test]
    fn reads_labels_comments_and_ignored_regions() {
        let out = read_text(
            ";; comment\nb 1 Ann 2.0 3.5 <o,f0,female> Hello  there\na A Bob 0 1\nb 1 excluded_region 4 5 ignore_time_segment_in_scoring\nb 1 Ann 1.0 1.5 <unk>\n",
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::Unsorted, Some(5)),
                (WarningKind::Note, Some(3)),
                (WarningKind::Note, Some(4))
            ]
        );
        assert_eq!(
            out.warnings[2].message,
            "1 line marked IGNORE_TIME_SEGMENT_IN_SCORING (first at line 4): regions excluded from scoring, not speech; not read as turns"
        );
        let b = out.corpus.get("b").unwrap();
        let got: Vec<_> = b
            .utterances()
            .map(|u| (u.segment, u.speaker_name, u.content.and_then(|c| c.text.as_deref())))
            .collect();
        assert_eq!(
            got,
            vec![
                (Segment::from_millis(1000, 1500).unwrap(), "Ann", None),
                (Segment::from_millis(2000, 3500).unwrap(), "Ann", Some("Hello  there")),
            ]
        );
        assert_eq!(out.corpus.get("a").unwrap().annotation().len(), 1);
    }

    /// SCTK's order (file, channel, then time) is not out of order; the two channels of a file
    /// are one conversation, noted once; excluded regions are valid STM, read under `--strict`.
    #[test]
    fn sctk_order_and_excluded_regions_are_valid() {
        let text =
            "f A x 5 6 hi\nf A x 7 8 IGNORE_TIME_SEGMENT_IN_SCORING\nf B y 1 2 yo\nf B y 3 4 ok\n";
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        let out = read_str(text, Format::Stm, &strict).unwrap();
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![(WarningKind::Note, Some(1), Some(3)), (WarningKind::Note, Some(2), Some(11))]
        );
        assert!(out.warnings[0]
            .message
            .starts_with("1 recording(s) have lines on more than one channel (f: A, B)"));
        assert_eq!(out.corpus.get("f").unwrap().annotation().len(), 3);
        // Out of order within a channel is still found.
        let out = read_text("f A x 5 6\nf A x 1 2\n");
        assert_eq!(out.warnings[0].kind, WarningKind::Unsorted);
    }

    #[test]
    fn errors_name_line_and_column() {
        // An unreadable time skips its line with a warning; under --strict it is the error.
        let out = read_str("f 1 a 1.0 -x\n", Format::Stm, &ReadOptions::default()).unwrap();
        assert_eq!((out.warnings[0].line, out.warnings[0].column), (Some(1), Some(11)));
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        let e = read_str("f 1 a 1.0 -x\n", Format::Stm, &strict).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(11)));
    }

    #[test]
    fn writes_lines_that_read_back() {
        let out = read_text(
            "f 1 Diane 6.68 7.16 Hello?\nf 1 Sheila 7.634 8.155\ng 2 X 0 1 <o> <unk> yes\n",
        );
        let mut buf = Vec::new();
        assert!(write(&out.corpus, &mut buf).unwrap().is_empty());
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(
            text,
            "f 1 Diane 6.680 7.160 Hello?\nf 1 Sheila 7.634 8.155\ng 1 X 0.000 1.000 <o> <unk> yes\n"
        );
        assert_eq!(read_text(&text).corpus, out.corpus);
    }
}
