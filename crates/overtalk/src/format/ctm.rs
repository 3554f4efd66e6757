//! NIST CTM word transcripts: `file channel begin duration word [confidence]`.
//!
//! ```text
//! ;; comment
//! meeting A 0.50 0.25 hello 0.98
//! meeting B 0.60 0.30 hi
//! ```
//!
//! CTM has no speaker field. **Reading** makes the **channel the speaker**: speaker-attributed
//! CTM puts the speaker there, and two-channel telephone CTM (`A`/`B`, `1`/`2`) has one talker
//! per channel, so the label is the channel as written (`"A"`, `"1"`). NIST RT's CTM has eight
//! fields, `file channel begin duration word confidence type speaker` (the type one of `lex`,
//! `frag`, `fp`, `un-lex`, `for-lex`, `non-lex`, `misc`, `noscore`): on such a line the speaker
//! is the eighth field, with one note. Each word line is one track
//! with the word as its text and as one timed [`Word`] (with the confidence when given). Blank
//! lines and lines starting with `;` or `#` are skipped; lines with fewer than five fields are
//! skipped with a warning; lines out of time order within their file and channel (sclite sorts by file, channel, then time) are sorted, with one [`WarningKind::Unsorted`] warning per file that counts them; a time
//! that cannot be read is an error naming line and column. Words of zero duration are dropped
//! with the usual warning. A word `<NA>` means no text. sclite alternations
//! (`file A * * <ALT_BEGIN>`, words, `* * <ALT>`, words, `* * <ALT_END>`) are read as their
//! first alternative, with one note. A file of three lines or more whose second field is
//! never the same twice and whose fourth field is past its third on every line (five or six
//! fields) is read as turns, `recording segment begin end speaker [confidence]`, as
//! Speechmatics' `asr_metrics` writes a diarization under a `.ctm` name, with one note.
//!
//! **Writing**: `file speaker begin duration word [confidence]`, sorted by file then time. A track
//! whose words all carry times inside the track (and spell its text) gives one line per word, with
//! each word's confidence (a word of zero duration is left out, with a warning). Any other track gives one line: its text with whitespace joined by `_`
//! (CTM has one token per line; reported once), `<NA>` when there is none, and the confidence
//! when the track holds exactly one word that has one. Spaces in file ids and speakers become
//! `_`, with warnings.

use std::collections::BTreeMap;
use std::io::Write;

use crate::error::{Result, Warning, WarningKind};
use crate::format::order::OutOfOrder;
use crate::format::stm::fields;
use crate::format::webvtt::column_of;
use crate::format::{distinct_fields, no_spaces, ReadContext};
use crate::model::{Content, Corpus, Segment, TranscriptBuilder, Word};
use crate::time::Time;

use crate::format::{is_seconds, FirstLine, Format, FormatSpec, Head, Sniff};

/// What the format registry knows of this format (see [`FormatSpec`]).
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Ctm,
    name: "ctm",
    aliases: &[],
    extension: "ctm",
    detected_by: &["ctm"],
    read: Ok(read),
    write: Some(write),
    json: false,
    many_recordings: true,
    paragraphs: false,
    sniff: &[Sniff::Line { rank: 40, test: sniff }],
};

/// `file channel begin duration word …`, space separated (a tab means an Audacity label line).
fn sniff(_: &Head<'_>, first: &FirstLine<'_>) -> Option<Format> {
    let f = &first.fields;
    (f.len() >= 5
        && f.len() <= 7
        && !first.line.contains('\t')
        && is_seconds(f[2])
        && is_seconds(f[3])
        && !is_seconds(f[4]))
    .then_some(Format::Ctm)
}

/// The token types of NIST RT's CTM (SCTK `ctmValidator`): lexical, fragment, filled pause,
/// unintelligible, foreign, non-lexical, miscellaneous, not scored.
const RT_TYPES: [&str; 8] =
    ["lex", "frag", "fp", "un-lex", "for-lex", "non-lex", "misc", "noscore"];

/// Reads CTM text (see the module doc).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let mut per: BTreeMap<&str, TranscriptBuilder> = BTreeMap::new();
    // The latest start per (file, channel): sclite sorts by file, channel, then time.
    let mut latest: BTreeMap<(&str, &str), Time> = BTreeMap::new();
    let mut unsorted = OutOfOrder::lines();
    // sclite alternations: `* * <ALT_BEGIN>`, first alternative, `* * <ALT>`, … `* * <ALT_END>`.
    let mut alternation: Option<(usize, bool)> = None; // (line of ALT_BEGIN, in a later alternative)
    let mut alternations = 0usize;
    let mut rt_noted = false;
    let segment_layout = segment_lines(text);
    for item in ctx.lines(text) {
        let (n, line) = item?;
        let line = if n == 1 { line.trim_start_matches('\u{feff}') } else { line };
        let t = line.trim();
        if t.is_empty() || t.starts_with(';') || t.starts_with('#') {
            continue;
        }
        let Some(([file, channel, begin, dur, word], rest)) = fields::<5>(t) else {
            ctx.warn_at(
                WarningKind::Skipped,
                n,
                Some(1),
                "a CTM line needs `file channel begin duration word`; line skipped",
            )?;
            continue;
        };
        let marker = match word {
            "<ALT_BEGIN>" | "<ALT>" | "<ALT_END>" if begin == "*" && dur == "*" => Some(word),
            _ => None,
        };
        match (marker, alternation) {
            (Some("<ALT_BEGIN>"), None) => {
                alternation = Some((n, false));
                alternations += 1;
                if alternations == 1 {
                    ctx.warn_at(
                        WarningKind::Note,
                        n,
                        Some(column_of(line, word)),
                        "sclite alternations (`<ALT_BEGIN>` … `<ALT>` … `<ALT_END>`): the first alternative of each is read, the others are left out",
                    )?;
                }
                continue;
            }
            (Some("<ALT>"), Some((at, _))) => {
                alternation = Some((at, true));
                continue;
            }
            (Some("<ALT_END>"), Some(_)) => {
                alternation = None;
                continue;
            }
            (Some(m), _) => {
                ctx.warn_at(
                    WarningKind::Skipped,
                    n,
                    Some(column_of(line, word)),
                    format!("{m} out of place (alternations do not nest; `<ALT>` and `<ALT_END>` need an open `<ALT_BEGIN>`); line skipped"),
                )?;
                continue;
            }
            (None, Some((_, true))) => continue,
            (None, _) => {}
        }
        let Some(start) = ctx.seconds_or_skip(begin, "begin", "line", n, column_of(line, begin))?
        else {
            continue;
        };
        let Some(d) = ctx.seconds_or_skip(dur, "duration", "line", n, column_of(line, dur))? else {
            continue;
        };
        if segment_layout {
            // `recording segment begin end speaker [confidence]`: one turn per line.
            if !rt_noted {
                rt_noted = true;
                ctx.warn_at(
                    WarningKind::Note,
                    n,
                    Some(column_of(line, word)),
                    format!("every line has its own second field ({channel:?} here) and a fourth field past its third: read as `recording segment begin end speaker [confidence]` (Speechmatics asr_metrics' diarization CTM), {word:?} the speaker, not as `file channel begin duration word`"),
                )?;
            }
            per.entry(file).or_default();
            if let Some(seg) = ctx.segment(start, d, n, Some(column_of(line, dur)))? {
                if let Some(b) = per.get_mut(file) {
                    b.add(seg, word, None);
                }
            }
            continue;
        }
        let end = Time::from_micros(start.micros().saturating_add(d.micros()));
        let mut extra = rest.split_whitespace();
        let confidence = extra.next().and_then(|c| c.parse::<f64>().ok()).filter(|c| c.is_finite());
        // NIST RT's 8-field CTM (`… word confidence type speaker`, as SCTK's ctmValidator
        // checks it): the speaker is the 8th field, after a known token type.
        let speaker = match (extra.next(), extra.next()) {
            (Some(kind), Some(who)) if RT_TYPES.contains(&kind) => {
                if !rt_noted {
                    rt_noted = true;
                    ctx.warn_at(
                        WarningKind::Note,
                        n,
                        Some(column_of(line, who)),
                        format!("NIST RT CTM (`file channel begin duration word confidence type speaker`): the speaker is the field after the type ({kind:?}), {who:?} here, not the channel, on this and every such line"),
                    )?;
                }
                who
            }
            _ => channel,
        };
        per.entry(file).or_default();
        let latest = latest.entry((file, channel)).or_insert(Time::from_micros(i64::MIN));
        unsorted.check(ctx, file, latest, start, n, Some(column_of(line, begin)))?;
        let content = (word != "<NA>").then(|| Content {
            text: Some(word.to_owned()),
            words: vec![Word {
                text: word.to_owned(),
                start: Some(start),
                end: Some(end),
                confidence,
            }],
        });
        if let Some(seg) = ctx.segment(start, end, n, Some(column_of(line, dur)))? {
            if let Some(b) = per.get_mut(file) {
                b.add(seg, speaker, content);
            }
        }
    }
    if let Some((at, _)) = alternation {
        ctx.warn_at(
            WarningKind::Repaired,
            at,
            None,
            "`<ALT_BEGIN>` is never closed by `<ALT_END>`; its first alternative is read",
        )?;
    }
    unsorted.finish(ctx, per.len());
    Ok(per.into_iter().map(|(k, b)| (k.to_owned(), b.build())).collect())
}

/// Whether the lines are turns, `recording segment begin end speaker [confidence]`, rather
/// than CTM words (Speechmatics' `asr_metrics` writes its diarization so, with a `.ctm` name):
/// three lines or more, all of five or six fields, the second field never the same twice (a
/// CTM channel holds many words), the fourth a time past the third on every line, and the
/// sixth, when present, a number.
fn segment_lines(text: &str) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut count = 0usize;
    for line in text.lines() {
        let t = line.trim().trim_start_matches('\u{feff}');
        if t.is_empty() || t.starts_with(';') || t.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = t.split_whitespace().collect();
        if !(5..=6).contains(&f.len()) || !seen.insert(f[1]) {
            return false;
        }
        let (Ok(begin), Ok(end)) = (f[2].parse::<f64>(), f[3].parse::<f64>()) else {
            return false;
        };
        if !(begin.is_finite() && end.is_finite() && end > begin) {
            return false;
        }
        if f.len() == 6 && f[5].parse::<f64>().is_err() {
            return false;
        }
        count += 1;
    }
    count >= 3
}

/// The words of a track with their times, when every word has a start and an end inside the
/// track and the words spell the text (if any).
fn timed_words(c: &Content, seg: Segment) -> Option<Vec<(&Word, Time, Time)>> {
    if c.words.is_empty() {
        return None;
    }
    let joined = c.words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ");
    if c.text.as_deref().is_some_and(|t| t.split_whitespace().ne(joined.split_whitespace())) {
        return None;
    }
    c.words
        .iter()
        .map(|w| match (w.start, w.end) {
            (Some(s), Some(e)) if seg.start() <= s && s <= e && e <= seg.end() => Some((w, s, e)),
            _ => None,
        })
        .collect()
}

fn line(
    buf: &mut String,
    file: &str,
    speaker: &str,
    start: Time,
    end: Time,
    word: &str,
    confidence: Option<f64>,
) {
    use std::fmt::Write as _;
    // Writing into a String cannot fail.
    let _ = write!(buf, "{file} {speaker} {start} {} {word}", end - start);
    match confidence {
        Some(c) => {
            let _ = writeln!(buf, " {c}");
        }
        None => buf.push('\n'),
    }
}

/// Writes CTM lines (see the module doc).
pub fn write(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    let mut warnings = Vec::new();
    let mut buf = String::new();
    let files = distinct_fields(corpus.ids(), "recording id", "CTM", "", &mut warnings);
    for ((id, t), file) in corpus.iter().zip(&files) {
        let names = distinct_fields(
            t.annotation().speakers().iter().map(|(_, name)| name),
            "speaker",
            "CTM",
            &format!("{id}: "),
            &mut warnings,
        );
        let mut joined_warned = false;
        let mut zero_warned = false;
        for u in t.utterances() {
            let speaker = &names[u.speaker.index()];
            if let Some(words) = u.content.and_then(|c| timed_words(c, u.segment)) {
                for (w, start, end) in words {
                    if start == end {
                        if !zero_warned {
                            zero_warned = true;
                            warnings.push(Warning::new(
                                WarningKind::Repaired,
                                format!("{id}: word {:?} at {start} has no duration and is left out (a CTM reader drops it)", w.text),
                            ));
                        }
                        continue;
                    }
                    let (token, _) = no_spaces(&w.text);
                    line(&mut buf, file, speaker, start, end, &token, w.confidence);
                }
            } else {
                let text = u.content.map(|c| c.display_text()).unwrap_or_default();
                let tokens: Vec<&str> = text.split_whitespace().collect();
                let word = if tokens.is_empty() { "<NA>".to_owned() } else { tokens.join("_") };
                if tokens.len() > 1 && !joined_warned {
                    joined_warned = true;
                    warnings.push(Warning::new(
                        WarningKind::Repaired,
                        format!("{id}: texts of several words without word timings written as one token joined by `_` (a CTM line holds one word)"),
                    ));
                }
                let confidence = match u.content.map(|c| c.words.as_slice()) {
                    Some([w]) => w.confidence,
                    _ => None,
                };
                let s = u.segment;
                line(&mut buf, file, speaker, s.start(), s.end(), &word, confidence);
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

    /// NIST RT's 8-field CTM (SCTK's ctmValidator test suite): the speaker is the field after
    /// the type, not the channel that every line shares.
    #[test]
    fn rt_ctm_names_its_speaker_after_the_type() {
        let text = "AIT_20061020B_A 1 1.260 0.24 IT 0.988394 lex spk_a\nAIT_20061020B_A 1 1.560 0.51 uh 0.9 fp spk_b\nAIT_20061020B_A 1 2.070 0.40 SO\n";
        let out =
            crate::format::read_str(text, Format::Ctm, &crate::format::ReadOptions::default())
                .unwrap();
        let a = out.corpus.get("AIT_20061020B_A").unwrap().annotation();
        let got: Vec<_> =
            a.tracks().iter().map(|t| (t.segment, a.speaker_name(t.speaker))).collect();
        assert_eq!(
            got,
            [
                (Segment::from_millis(1260, 1500).unwrap(), "spk_a"),
                (Segment::from_millis(1560, 2070).unwrap(), "spk_b"),
                (Segment::from_millis(2070, 2470).unwrap(), "1"),
            ]
        );
        let w: Vec<_> =
            out.warnings.iter().map(|w| (w.kind, w.line, w.column, w.message.as_str())).collect();
        assert_eq!(
            w,
            [(WarningKind::Note, Some(1), Some(46), "NIST RT CTM (`file channel begin duration word confidence type speaker`): the speaker is the field after the type (\"lex\"), \"spk_a\" here, not the channel, on this and every such line")]
        );
    }
    use crate::format::{read_str, Format, ReadOptions};
    use crate::model::Segment;

    /// Speechmatics' `asr_metrics/examples/hypothesis-diarization.ctm`: `channel1 segment1 0.0
    /// 3.5 spk1 0.88`, the fourth field the end. Read as CTM words it gave 9 speakers named
    /// `segment1`… and turns as long as their end time (35.5 s in a 20 s file).
    #[test]
    fn turns_with_a_segment_id_and_an_end_are_read_as_turns() {
        let text = "channel1 segment1 0.0 3.5 spk1 0.88\nchannel1 segment2 3.5 8.0 spk2 0.78\nchannel1 segment3 7.5 11.5 spk1 0.92\nchannel2 segment6 0.0 6.0 spk3 0.90\n";
        let out = read_text(text);
        let got: Vec<_> = out
            .corpus
            .iter()
            .flat_map(|(id, t)| {
                t.utterances().map(move |u| (id.to_string(), u.speaker_name.to_owned(), u.segment))
            })
            .collect();
        let seg = |a, b| Segment::from_millis(a, b).unwrap();
        assert_eq!(
            got,
            [
                ("channel1".to_owned(), "spk1".to_owned(), seg(0, 3500)),
                ("channel1".to_owned(), "spk2".to_owned(), seg(3500, 8000)),
                ("channel1".to_owned(), "spk1".to_owned(), seg(7500, 11500)),
                ("channel2".to_owned(), "spk3".to_owned(), seg(0, 6000)),
            ]
        );
        assert_eq!(out.warnings.len(), 1, "{:?}", out.warnings);
        assert_eq!((out.warnings[0].line, out.warnings[0].column), (Some(1), Some(27)));
        // A CTM whose channel repeats, or whose fourth field is a duration shorter than the
        // begin, stays words on channels.
        assert!(!segment_lines("f A 0.5 0.25 hi\nf A 0.8 0.2 there\nf B 1.0 0.3 yes\n"));
        assert!(!segment_lines("f a 5.0 0.5 hi\nf b 6.0 0.5 x\nf c 7.0 0.5 y\n"));
        assert!(!segment_lines("f a 0 1 hi\nf b 1 2 x\n"));
    }

    fn read_text(text: &str) -> crate::format::ReadOutput {
        read_str(text, Format::Ctm, &ReadOptions::default()).unwrap()
    }

    /// sclite sorts a CTM by file, channel, then time: a later channel may start earlier.
    #[test]
    fn order_is_checked_within_each_channel() {
        let read = |t: &str| read_str(t, Format::Ctm, &ReadOptions::default()).unwrap();
        assert!(read("f A 5.0 1.0 x\nf A 6.0 1.0 y\nf B 1.0 1.0 z\n").warnings.is_empty());
        let out = read("f A 5.0 1.0 x\nf A 1.0 1.0 y\n");
        assert_eq!(out.warnings.len(), 1);
        assert_eq!(out.warnings[0].kind, WarningKind::Unsorted);
    }

    #[test]
    fn sclite_alternations_read_the_first_alternative() {
        let text = "f A 0.0 0.5 so\nf A * * <ALT_BEGIN>\nf A 0.5 0.5 gonna\nf A * * <ALT>\nf A 0.5 0.25 going\nf A 0.75 0.25 to\nf A * * <ALT_END>\nf A 1.0 0.5 go\n";
        let out = read_text(text);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::Note, Some(2), Some(9))]);
        let t = out.corpus.get("f").unwrap();
        let words: Vec<_> = t.utterances().map(|u| u.content.unwrap().display_text()).collect();
        assert_eq!(words, ["so", "gonna", "go"]);
        // Valid sclite input: strict reads it; a stray marker is a repair it rejects.
        let strict = ReadOptions { strict: true, ..Default::default() };
        read_str(text, Format::Ctm, &strict).unwrap();
        let stray = "f A 0.0 0.5 so\nf A * * <ALT_END>\n";
        let out = read_text(stray);
        assert_eq!(out.warnings[0].kind, WarningKind::Skipped);
        assert!(read_str(stray, Format::Ctm, &strict).is_err());
        let open = read_text("f A * * <ALT_BEGIN>\nf A 0.0 0.5 so\n");
        let w: Vec<_> = open.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(w, vec![(WarningKind::Note, Some(1)), (WarningKind::Repaired, Some(1))]);
    }

    #[test]
    fn channels_are_speakers() {
        let out = read_text(";; x\nm A 0.50 0.25 hello 0.98\nm B 0.60 0.30 hi\nm A 0.1 0.2\n");
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(w, vec![(WarningKind::Skipped, Some(4))]);
        let m = out.corpus.get("m").unwrap();
        let got: Vec<_> = m.utterances().map(|u| (u.segment, u.speaker_name)).collect();
        assert_eq!(
            got,
            vec![
                (Segment::from_millis(500, 750).unwrap(), "A"),
                (Segment::from_millis(600, 900).unwrap(), "B"),
            ]
        );
        assert_eq!(m.contents()[0].as_ref().unwrap().words[0].confidence, Some(0.98));
    }

    #[test]
    fn errors_name_line_and_column() {
        // An unreadable time skips its line with a warning; under --strict it is the error.
        let text = "m A 1e400 1 w\nm A 1 1 x\n";
        let out = read_str(text, Format::Ctm, &ReadOptions::default()).unwrap();
        assert_eq!((out.warnings[0].line, out.warnings[0].column), (Some(1), Some(5)));
        assert_eq!(out.corpus.get("m").unwrap().annotation().len(), 1);
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        let e = read_str(text, Format::Ctm, &strict).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(5)));
    }

    #[test]
    fn writes_lines_that_read_back() {
        let out = read_text("m A 0.50 0.25 hello 0.98\nm 1 0.6 0.3 hi\nm 1 1 1 <NA>\n");
        let mut buf = Vec::new();
        assert!(write(&out.corpus, &mut buf).unwrap().is_empty());
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(text, "m A 0.500 0.250 hello 0.98\nm 1 0.600 0.300 hi\nm 1 1.000 1.000 <NA>\n");
        assert_eq!(read_text(&text).corpus, out.corpus);
    }
}
