//! SubRip (SRT) captions: numbered blocks with `HH:MM:SS,mmm --> HH:MM:SS,mmm` and text.
//!
//! ```text
//! 1                                   index (optional when reading)
//! 00:00:00,000 --> 00:00:04,210       timing line (`.` accepted for `,`; X1:… coordinates ignored)
//! [SPEAKER_00]: So the plan is        text, speaker as a prefix
//!                                     blank line ends the block
//! ```
//!
//! SRT has no speaker field; speakers travel in the text. **Reading** follows the same rules as
//! WebVTT cues without voice spans ([`super::webvtt`]): `[Name]: text` (WhisperX) is always a
//! speaker, `Name: text` (Zoom, Otter, Descript) is one when at least half of the blocks start that
//! way or names recur at the starts of turns (then a block without a name continues the speaker
//! named before it, with one note), a line of a block may switch speaker (also after a dialogue dash, `- JOHN: Hi.`, as
//! hard-of-hearing subtitles write two speakers in one block, and after `>>`, broadcast captions'
//! mark of a new speaker, `>> JOHN: Hi.`; a block opened by `>>` without a name does not continue
//! the speaker named before, lines of a block before a `>> NAME:` line are the previous
//! speaker's, and `>>>`, a change of story, is text), and a block without speaker gets
//! [`UNKNOWN_SPEAKER`] with one [`WarningKind::MissingSpeaker`] warning; a block of sound
//! descriptions only (`[Music]`, `♪`) is skipped as no one's speech, with one warning, and so is
//! a block with no text at all (its time marks no speech). A block with two speakers
//! on separate lines divides its time among them in order, by their words (they spoke in turn;
//! one note counts such blocks). A line that opens with a WebVTT voice span
//! (`<v Ann>Hello</v>`, left by converters of Teams captions) names its speaker as a bracket
//! prefix does. Microsoft Teams' Word transcript saved as text has SRT's shape without indexes
//! or blank lines, with the speaker's name on its own line under the times (`0:0:4.560 -->
//! 0:0:5.180`, `Ana Ruiz`, `So.`): when the first line of every block can be a name and those
//! lines recur, each names its block's speaker. Teams writes no leading zeros, in the
//! milliseconds either (`0:0:6.90` is 6.090 s); a file whose unpadded times show it (a
//! two-digit fraction ending in 0, none starting with 0) reads a fraction of one or two digits
//! as milliseconds, with one warning ([`super::webvtt`] does the same). Formatting tags (`<i>`, `<b>`, `<u>`,
//! `<font …>`) and ASS position codes (`{\an8}`) are removed from the text. A missing blank line
//! before the next block is tolerated (a valid timing line starts a new block). Times that read
//! but are not `hh:mm:ss,mmm` (`0:00:01,000`, `00:01,000`, `00:00:01`, a `.` before the
//! milliseconds) are kept with one [`WarningKind::Repaired`] warning; so are times with a `:`
//! before the milliseconds (`00:00:11:890`, written by some tools, and `00:11:890`, minutes,
//! seconds and milliseconds), with one warning that says the separator was taken as
//! milliseconds (two digits there, `00:00:11:22`, may count frames: not read). Three digits
//! after the last `:` are never seconds: when the seconds before them are 60 or more
//! (`00:75:890`) or no seconds stand before them (`11:890`), the block is skipped. Spaces around the times, `-->` without spaces and `X1:…` coordinates after the end are
//! read as they are. A block whose times cannot be read is skipped with a [`WarningKind::Skipped`]
//! warning naming line, column and why, and so is a block without a timing line (naming a line of
//! two times joined otherwise than by `-->`, `00:00:01,000 -> 00:00:02,000`); the rest is kept.
//! No block is dropped without a warning. `--strict` rejects both.
//!
//! **Writing** uses the bracket convention, `[Name]: text`: it is what WhisperX writes (the most
//! common source of diarized SRT), and unlike `Name: text` it cannot be confused with text that
//! happens to contain a colon, so names with spaces and colons read back unchanged. Blocks are
//! numbered from 1 in time order, times rounded to the millisecond. `[`, `]` and line breaks in a
//! name become `_`/space, and empty text lines (which would end the block) are removed, each with
//! a warning. A track without text is written as the prefix alone (`[Name]:`). A text line after
//! the first that itself starts with `[Word]:` would read back as a speaker change; SRT cannot
//! escape it.
//!
//! **YouTube's SubViewer captions** (`.sbv`, what YouTube Studio downloads; format `sbv`) are
//! read here too: blocks without indexes whose timing line is `0:00:01.500,0:00:04.000`
//! (`h:mm:ss.mmm`, the two times joined by a comma). A file is SBV by its `.sbv` name or when its
//! first line is such a timing line (also when read with `--from srt`); its messages name SBV
//! and its syntax. SBV is read only: the writer writes SRT.

use std::io::Write;

use crate::error::{Result, Warning, WarningKind};
use crate::format::webvtt::{
    after_speaker_mark, caption_lines, choose_prefixes, group_by_prefix, is_blank,
    is_caption_clock, is_sound_only, join_lines, names_every_caption, opens_with_speaker_mark,
    shares_of_caption, shown, unnamed_dialogue, CaptionNotes, Carried, Clock, TimingReader,
    UNKNOWN_SPEAKER,
};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, TranscriptBuilder, Word};
use crate::time::{format_clock, Time};

use crate::format::{FirstLine, Format, FormatSpec, Head, Sniff};

/// What the format registry knows of this format (see [`FormatSpec`]).
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Srt,
    name: "srt",
    aliases: &[],
    extension: "srt",
    detected_by: &["srt"],
    read: Ok(read),
    write: Some(write),
    json: false,
    many_recordings: false,
    paragraphs: false,
    sniff: &[Sniff::Line { rank: 60, test: sniff }],
};

/// What the format registry knows of YouTube's SubViewer captions (`.sbv`), read here.
pub(crate) const SBV_SPEC: FormatSpec = FormatSpec {
    format: Format::Sbv,
    name: "sbv",
    aliases: &["subviewer"],
    extension: "sbv",
    detected_by: &["sbv"],
    read: Ok(read_sbv),
    write: None,
    json: false,
    many_recordings: false,
    paragraphs: false,
    // Told apart from SRT by [`sniff`].
    sniff: &[],
};

/// A first line with ` --> `, or a cue number followed by a line with `-->` (SRT); a first
/// line that is a YouTube SBV timing line (SBV).
fn sniff(head: &Head<'_>, first: &FirstLine<'_>) -> Option<Format> {
    if first.line.contains(" --> ") {
        return Some(Format::Srt);
    }
    if is_sbv_timing(first.line) {
        return Some(Format::Sbv);
    }
    if first.fields.first().is_some_and(|f| f.chars().all(|c| c.is_ascii_digit())) {
        if let Some(second) = head.trimmed.lines().nth(1) {
            if second.contains("-->") {
                return Some(Format::Srt);
            }
        }
    }
    None
}

/// Whether `line` is a timing line whose times read.
fn is_timing(line: &str) -> bool {
    let Some(arrow) = line.find("-->") else { return false };
    let end = line[arrow + 3..].split_ascii_whitespace().next().unwrap_or("");
    is_caption_clock(line[..arrow].trim()) && is_caption_clock(end)
}

/// Whether `line` is a timing line of YouTube's SubViewer captions (`.sbv`): two clock times
/// joined by a comma, `0:00:01.500,0:00:04.000`.
fn is_sbv_timing(line: &str) -> bool {
    let Some((start, end)) = line.trim().split_once(',') else { return false };
    let clock = |t: &str| t.contains(':') && is_caption_clock(t);
    clock(start) && clock(end)
}

/// Whether `line` holds two clock times (`00:00:01,000 -> 00:00:02,000`) among its words.
fn two_times(line: &str) -> bool {
    let times = line
        .split(|c: char| c.is_whitespace() || c == '>' || c == '\u{2014}' || c == '\u{2013}')
        .map(|w| w.trim_matches(['-', '=']))
        .filter(|w| w.contains(':') && is_caption_clock(w))
        .take(2)
        .count();
    times == 2
}

/// Longest formatting tag recognised, in bytes (`<font color="#rrggbb" face="…">`).
const TAG_WINDOW: usize = 256;

/// Removes SRT formatting tags and ASS override codes.
pub(crate) fn strip_tags(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find(['<', '{']) {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        let (open, close) = if rest.starts_with('<') { ('<', '>') } else { ('{', '}') };
        // Tags are short: looking only a little ahead keeps a line of `<<<<…` linear.
        let window = &rest.as_bytes()[..rest.len().min(TAG_WINDOW)];
        let inner_end = window.iter().position(|&b| b == close as u8);
        let is_tag = inner_end.is_some_and(|e| {
            let inner = &rest[1..e];
            if open == '{' {
                inner.starts_with('\\')
            } else {
                let name = inner.strip_prefix('/').unwrap_or(inner);
                let name = name.split([' ', '=']).next().unwrap_or("").to_ascii_lowercase();
                matches!(name.as_str(), "i" | "b" | "u" | "s" | "font")
            }
        });
        match (is_tag, inner_end) {
            (true, Some(e)) => rest = &rest[e + 1..],
            _ => {
                out.push(open);
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A line that opens with a WebVTT voice span (`<v Ann>Hello</v>`, as captions converted from
/// Teams' WebVTT keep it) as the bracket prefix that names its speaker (`[Ann]: Hello`); other
/// lines unchanged but for a stray `</v>`.
///
/// ```text
/// "<v Ann>Hello</v>"      → "[Ann]: Hello"
/// "- <v.loud Bob>Hi"      → "[Bob]: Hi"
/// "so <v Ann>mid-line"    → "so <v Ann>mid-line"   (not a speaker prefix: left as text)
/// ```
fn voice_as_prefix(line: &str) -> String {
    let t = line.trim_start();
    let t = t.strip_prefix(['-', '\u{2013}', '\u{2014}']).map_or(t, str::trim_start);
    let opened = t
        .strip_prefix("<v")
        .filter(|r| r.starts_with([' ', '.']))
        .and_then(|r| r.find('>').map(|e| (&r[..e], &r[e + 1..])));
    match opened {
        Some((inner, rest)) => {
            let name = crate::format::webvtt::voice_name(inner);
            let rest = rest.replace("</v>", "");
            if name.is_empty() || name.contains(['[', ']']) {
                rest.trim_start().to_owned()
            } else {
                format!("[{name}]: {}", rest.trim_start())
            }
        }
        None => line.replace("</v>", ""),
    }
}

/// Reads SRT text as one recording (see the module doc); a text whose first line is an SBV
/// timing line is read as SBV, as [`read_sbv`] does.
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    read_blocks(text, None, ctx)
}

/// Reads YouTube's SubViewer captions (`.sbv`) as one recording (see the module doc).
pub fn read_sbv(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    read_blocks(text, Some(true), ctx)
}

/// Reads caption blocks, SBV ones when `sbv` says so (`None`: when the first line is an SBV
/// timing line).
fn read_blocks(text: &str, sbv: Option<bool>, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let mut lines: Vec<(usize, &str)> = Vec::new();
    for item in ctx.lines(text) {
        let (n, l) = item?;
        lines.push((n, if n == 1 { l.trim_start_matches('\u{feff}') } else { l }));
    }
    let mut blocks: Vec<Caption> = Vec::new();
    // YouTube's SubViewer captions (`.sbv`) are SRT blocks without indexes whose timing line is
    // `0:00:01.500,0:00:04.000`: the file is read as such when its first line is one.
    let sbv = sbv.unwrap_or_else(|| {
        lines.iter().find(|(_, l)| !l.trim().is_empty()).is_some_and(|(_, l)| is_sbv_timing(l))
    });
    let is_timing = |line: &str| if sbv { is_sbv_timing(line) } else { is_timing(line) };
    // A line meant as timing (its times are checked when read): `-->`, or in SBV a clock time
    // before the first comma.
    let has_arrow = |line: &str| {
        if sbv {
            line.split_once(',')
                .is_some_and(|(start, _)| start.contains(':') && is_caption_clock(start.trim()))
        } else {
            line.contains("-->")
        }
    };
    let mut timing = TimingReader::new(if sbv { Clock::Sbv } else { Clock::Srt }, text);
    let mut i = 0;
    while i < lines.len() {
        let (n, line) = lines[i];
        if line.trim().is_empty() {
            i += 1;
            continue;
        }
        let timing_at = if has_arrow(line) {
            i
        } else if i + 1 < lines.len() && has_arrow(lines[i + 1].1) {
            i + 1
        } else {
            // A line of two times joined otherwise (`->`, `—>`) is named: its block is
            // dropped for want of the format's separator, not for want of times.
            let near =
                lines[i..(i + 2).min(lines.len())].iter().find(|(_, l)| two_times(l)).copied();
            let message = match near {
                Some((m, l)) => format!(
                    "block without a timing line: line {m} ({:?}) holds two times but not joined by {}; skipped",
                    shown(l.trim(), 40),
                    if sbv { "a comma (`0:00:01.000,0:00:04.000`)" } else { "`-->`" }
                ),
                None => format!("block without a timing line ({:?}); skipped", shown(line, 30)),
            };
            ctx.warn_at(WarningKind::Skipped, n, Some(1), message)?;
            while i < lines.len() && !lines[i].1.trim().is_empty() {
                i += 1;
            }
            continue;
        };
        let (tn, tline) = lines[timing_at];
        i = timing_at + 1;
        let Some((start, end, end_col)) = timing.parse(tline, tn, ctx)? else {
            // A block whose times cannot be read is skipped whole, text included.
            while i < lines.len() && !lines[i].1.trim().is_empty() && !is_timing(lines[i].1) {
                i += 1;
            }
            continue;
        };
        let mut text: Vec<String> = Vec::new();
        while i < lines.len() && !lines[i].1.trim().is_empty() {
            if is_timing(lines[i].1) {
                // The blank line before this block is missing; drop its index from our text.
                if text.last().is_some_and(|l| l.trim().bytes().all(|b| b.is_ascii_digit())) {
                    text.pop();
                }
                break;
            }
            text.push(voice_as_prefix(&strip_tags(lines[i].1)));
            i += 1;
        }
        let text_line = tn + usize::from(!text.is_empty());
        blocks.push(Caption { line: tn, end_col, text_line, start, end, text, words: Vec::new() });
    }
    if blocks.is_empty() {
        // Text without a single timing line is no SRT at all (a transcript saved as `.srt`).
        if let Some((n, line)) = text.lines().enumerate().find(|(_, l)| !l.trim().is_empty()) {
            let hint = match crate::format::paragraphs::sniff(text) {
                Some(_) => "; it reads as a paragraph transcript with start times: read it with `--from paragraphs`",
                None => "",
            };
            let (format, example) = if sbv {
                ("a YouTube SBV", "`0:00:01.000,0:00:04.000`")
            } else {
                ("an SRT", "`00:00:01,000 --> 00:00:04,000`")
            };
            return Err(ctx.error(
                n + 1,
                1,
                format!(
                    "no subtitle block: no line is {format} timing line such as {example} (found `{}`){hint}",
                    shown(line.trim(), 40)
                ),
            ));
        }
        ctx.warn(Warning::new(WarningKind::Note, "no subtitle blocks in the input"))?;
    }
    let transcript = read_captions(&blocks, "block", false, ctx)?;
    Ok(Corpus::single(ctx.recording_id(), transcript))
}

/// One caption as a caption reader found it: where it is (for messages), its time, its text
/// lines as written (speaker markers included) and, when the source times its words
/// (YouTube's automatic captions), those words in order, spelling the text.
#[derive(Debug)]
pub(crate) struct Caption {
    /// The line (and the column after the end time) that messages about the caption name.
    pub(crate) line: usize,
    pub(crate) end_col: usize,
    /// The line of the caption's first text line, named by notes on its text.
    pub(crate) text_line: usize,
    pub(crate) start: Time,
    pub(crate) end: Time,
    pub(crate) text: Vec<String>,
    /// The caption's words with their times; empty when the source has none.
    pub(crate) words: Vec<Word>,
}

/// How far ahead of the last matched word a text's word is looked for among the caption's
/// words: past a speaker marker (`>>`, a name of up to six words and its colon), no further,
/// so that a caption of words that never match stays linear.
const WORD_LOOKAHEAD: usize = 8;

/// The caption's words that spell each speaker's text: each word of a group's text takes the
/// time of the next caption word written the same, speaker markers (`>>`, `NAME:`) being
/// caption words that no text keeps; a word not found stays untimed.
///
/// ```text
/// caption words  >>  JOHN:  Where  were  you?  >>  MARY:  Out.
/// groups         JOHN "Where were you?"            MARY "Out."
/// ```
fn words_of_groups(words: &[Word], groups: &[(Option<String>, String)]) -> Vec<Vec<Word>> {
    let mut next = 0usize;
    groups
        .iter()
        .map(|(_, text)| {
            text.split_whitespace()
                .map(|token| {
                    let window =
                        &words[next.min(words.len())..(next + WORD_LOOKAHEAD).min(words.len())];
                    match window.iter().position(|w| w.text == token) {
                        Some(k) => {
                            next += k + 1;
                            words[next - 1].clone()
                        }
                        None => Word::untimed(token),
                    }
                })
                .collect()
        })
        .collect()
}

/// The speakers of caption text, for the caption readers (SRT, SBV, YouTube's srv3 and
/// json3): the prefix convention is chosen over all captions, each caption gives one track
/// per speaker found in it, captions of sound descriptions only are skipped, and a caption
/// without speaker gets [`UNKNOWN_SPEAKER`] with one warning (see the module doc). A caption
/// whose words are timed keeps them, and where it holds several speakers their changes are
/// read from the first word of each (the caption's time is divided by words otherwise). `what`
/// names a caption in messages (`block`, `caption`). With `chevrons_are_marks`, a `>>` that
/// opens a line is a mark, not text (YouTube's captions; in SRT it stays, so that any text
/// written reads back the same).
pub(crate) fn read_captions(
    blocks: &[Caption],
    what: &str,
    chevrons_are_marks: bool,
    ctx: &mut ReadContext<'_>,
) -> Result<crate::model::Transcript> {
    let prefixes = choose_prefixes(blocks.iter().map(|b| b.text.iter().map(String::as_str)));
    let mut b = TranscriptBuilder::new();
    let mut missing_warned = false;
    let speech = |b: &&Caption| {
        let text = b.text.join(" ");
        !is_blank(&text) && !is_sound_only(&text)
    };
    let names = blocks.iter().filter(speech).map(|b| {
        let lines: Vec<&str> = b.text.iter().map(String::as_str).collect();
        group_by_prefix(&lines, prefixes).into_iter().next().and_then(|(who, _)| who)
    });
    let names: Vec<Option<String>> = names.collect();
    let mut carried =
        Carried::for_prefixes(prefixes, names_every_caption(names.iter().map(Option::as_deref)));
    let mut notes = CaptionNotes::default();
    for block in blocks {
        if is_blank(&block.text.join(" ")) {
            notes.blank(block.text_line);
            continue;
        }
        if is_sound_only(&block.text.join(" ")) {
            notes.sound(block.text_line);
            continue;
        }
        let lines: Vec<&str> = block.text.iter().map(String::as_str).collect();
        let mut groups = group_by_prefix(&lines, prefixes);
        if groups.is_empty() {
            groups.push((None, String::new()));
        }
        if groups.len() == 1 && groups[0].0.is_none() && unnamed_dialogue(&lines) {
            notes.unnamed(block.text_line);
        }
        if chevrons_are_marks {
            for g in &mut groups {
                // The mark of a new speaker is no one's words.
                g.1 =
                    g.1.split('\n')
                        .map(|l| after_speaker_mark(l).unwrap_or(l))
                        .collect::<Vec<_>>()
                        .join("\n");
            }
        }
        let timed_words = (!block.words.is_empty()).then(|| words_of_groups(&block.words, &groups));
        // Speakers on separate lines of one block spoke in turn: its time is divided, at the
        // first word of each when the words are timed, else by their words.
        let shares = (groups.len() >= 2).then(|| {
            notes.shared(block.text_line);
            timed_words
                .as_deref()
                .and_then(|w| shares_at_words(block.start, block.end, w))
                .unwrap_or_else(|| {
                    let words: Vec<usize> =
                        groups.iter().map(|g| crate::format::notes::word_count(&g.1)).collect();
                    shares_of_caption(block.start, block.end, &words)
                })
        });
        for (k, (who, text)) in groups.into_iter().enumerate() {
            let (start, end) = shares.as_ref().map_or((block.start, block.end), |s| s[k]);
            if k == 0
                && who.is_none()
                && opens_with_speaker_mark(block.text.iter().map(String::as_str))
            {
                // `>>` says the speaker changed: the one named before is not carried on.
                carried.forget();
                notes.unnamed_speaker(block.text_line);
            }
            let who = carried.speaker(who, block.text_line);
            let speaker = match who {
                Some(s) => s,
                None => {
                    if !missing_warned {
                        missing_warned = true;
                        ctx.warn_at(
                            WarningKind::MissingSpeaker,
                            block.text_line,
                            Some(1),
                            format!("{what} has no speaker prefix; it and every later {what} like it get the speaker {UNKNOWN_SPEAKER:?}"),
                        )?;
                    }
                    UNKNOWN_SPEAKER.to_owned()
                }
            };
            let mut content = join_lines(text.split('\n')).map(Content::text);
            if let (Some(c), Some(words)) = (content.as_mut(), timed_words.as_ref()) {
                c.words = words[k].clone();
            }
            if let Some(seg) = ctx.segment(start, end, block.line, Some(block.end_col))? {
                b.add(seg, &speaker, content);
            }
        }
    }
    carried.finish(what, ctx)?;
    notes.finish(what, ctx)?;
    Ok(b.build())
}

/// The times of a caption's speakers from the first timed word of each after the first: they
/// change where the next one's words begin. `None` when a speaker has no timed word, or the
/// words' times do not rise inside the caption (the caption is divided by words then).
///
/// ```text
/// caption  |--------------------------|     words  JOHN 1.0 1.4 | MARY 2.2
/// JOHN     |-----------|                    1.0 → 2.2
/// MARY                 |--------------|     2.2 → end
/// ```
fn shares_at_words(start: Time, end: Time, groups: &[Vec<Word>]) -> Option<Vec<(Time, Time)>> {
    let mut cuts = vec![start];
    for g in &groups[1..] {
        let at = g.iter().find_map(|w| w.start)?;
        if at <= *cuts.last()? || at >= end {
            return None;
        }
        cuts.push(at);
    }
    cuts.push(end);
    Some(cuts.windows(2).map(|w| (w[0], w[1])).collect())
}

/// A speaker name that reads back from `[name]:`: one line, no brackets, trimmed, not empty.
fn bracket_name(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| match c {
            '[' | ']' => '_',
            '\n' | '\r' => ' ',
            c => c,
        })
        .collect();
    let s = s.trim();
    if s.is_empty() {
        UNKNOWN_SPEAKER.to_owned()
    } else {
        s.to_owned()
    }
}

/// Writes one recording as numbered SRT blocks with `[Name]: text` (see the module doc);
/// several recordings are an error.
pub fn write(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    crate::format::webvtt::one_recording(corpus, "srt")?;
    use std::fmt::Write as _;
    let mut warnings = Vec::new();
    let mut buf = String::new();
    let mut index = 0usize;
    for (id, t) in corpus.iter() {
        let a = t.annotation();
        let names: Vec<String> = a
            .speakers()
            .iter()
            .map(|(_, name)| {
                let clean = bracket_name(name);
                if clean != name {
                    warnings.push(Warning::new(
                        WarningKind::Repaired,
                        format!("{id}: speaker {name:?} written as {clean:?} (an SRT speaker prefix is `[Name]:` on one line)"),
                    ));
                }
                clean
            })
            .collect();
        let mut removed_warned = false;
        for u in t.utterances() {
            let (mut lines, removed) = caption_lines(u.content);
            if removed && !removed_warned {
                removed_warned = true;
                warnings.push(Warning::new(
                    WarningKind::Repaired,
                    format!("{id}: empty lines inside a text removed (they would end the block)"),
                ));
            }
            for l in &mut lines {
                if is_timing(l) {
                    *l = l.replace("-->", "->");
                }
            }
            index += 1;
            let prefix = format!("[{}]:", names[u.speaker.index()]);
            let first = match lines.first() {
                Some(l) => format!("{prefix} {l}"),
                None => prefix,
            };
            // Writing into a String cannot fail.
            let _ = write!(
                buf,
                "{}{index}\n{} --> {}\n{first}\n",
                if index > 1 { "\n" } else { "" },
                format_clock(u.segment.start(), ','),
                format_clock(u.segment.end(), ','),
            );
            for l in lines.iter().skip(1) {
                let _ = writeln!(buf, "{l}");
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
    use crate::model::{Segment, Transcript};

    fn read_text(text: &str) -> crate::format::ReadOutput {
        read_str(text, Format::Srt, &ReadOptions::default()).unwrap()
    }

    fn texts(t: &Transcript) -> Vec<(String, Option<String>)> {
        t.utterances()
            .map(|u| (u.speaker_name.to_owned(), u.content.and_then(|c| c.text.clone())))
            .collect()
    }

    /// Blocks with no text (pysrt's test file leaves two so) show nothing: their time is no
    /// one's speech, and they are skipped with one warning, not given to "unknown".
    #[test]
    fn blocks_without_text_are_no_speech() {
        let srt = "1\n00:00:06,500 --> 00:00:09,000\nAbout two months ago\n\n2\n00:00:19,000 --> 00:00:24,000\n\n\n3\n00:00:25,000 --> 00:00:31,000\n<i> </i>\n\n4\n00:00:31,000 --> 00:00:36,000\n[Ann]: and hinder progress\n";
        let out = read_text(srt);
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(
            texts(t),
            vec![
                ("unknown".to_owned(), Some("About two months ago".to_owned())),
                ("Ann".to_owned(), Some("and hinder progress".to_owned())),
            ]
        );
        let skipped: Vec<_> =
            out.warnings.iter().filter(|w| w.kind == WarningKind::Skipped).collect();
        assert_eq!(skipped.len(), 1, "{:?}", out.warnings);
        assert_eq!(skipped[0].line, Some(6));
        assert_eq!(
            skipped[0].message,
            "2 block(s) with no text skipped: a caption that shows nothing marks no one's speech"
        );
    }

    #[test]
    fn whisperx_prefixes_tags_and_missing_blank_lines() {
        let out = read_text(
            "1\r\n00:00:00,000 --> 00:00:04,210\r\n[SPEAKER_00]: So the <i>plan</i> {\\an8}is\r\n2\r\n00:00:03.950 --> 00:00:06.250 X1:10 X2:20\r\n[SPEAKER_01]: Friday\r\nwon't work.\r\n",
        );
        // `.` before the milliseconds is read, once noted as not SRT.
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::Repaired, Some(5), Some(1))]);
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(
            texts(t),
            vec![
                ("SPEAKER_00".to_owned(), Some("So the plan is".to_owned())),
                ("SPEAKER_01".to_owned(), Some("Friday\nwon't work.".to_owned())),
            ]
        );
        assert_eq!(t.annotation().tracks()[1].segment, Segment::from_millis(3950, 6250).unwrap());
    }

    /// A transcript saved as `.srt` (YouTube's "Show transcript" copied) is no SRT: an error
    /// naming what was found and the reader that fits, never an empty result.
    #[test]
    fn text_without_timing_lines_is_an_error_that_names_the_right_reader() {
        let e = read_str(
            "\n00:02\nhello there\n00:05\nsure thing\n",
            Format::Srt,
            &ReadOptions::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("line 2, column 1: srt: no subtitle block"), "{e}");
        assert!(e.contains("(found `00:02`)"), "{e}");
        assert!(e.ends_with("read it with `--from paragraphs`"), "{e}");
        // An empty file stays a note.
        assert!(read_str("", Format::Srt, &ReadOptions::default()).is_ok());
    }

    #[test]
    fn names_with_colons_and_a_block_without_speaker() {
        let out = read_text(
            "1\n00:00:01,000 --> 00:00:02,000\nAna (SL): hi\n\n2\n00:00:02,000 --> 00:00:03,000\nBo: a: b\n\n3\n00:00:03,000 --> 00:00:04,000\nplain\n",
        );
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(
            texts(t),
            vec![
                ("Ana (SL)".to_owned(), Some("hi".to_owned())),
                ("Bo".to_owned(), Some("a: b".to_owned())),
                ("Bo".to_owned(), Some("plain".to_owned())),
            ]
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(w, vec![(WarningKind::Note, Some(11))]);
    }

    #[test]
    fn hard_of_hearing_subtitles_name_speakers_after_the_dialogue_dash() {
        // Two speakers in one block, each line opened by a dialogue dash; a dash line without
        // a name continues the speaker before it; a double dash is text (so that block has no
        // name, and continues the speaker named last).
        let out = read_text(
            "1\n00:00:01,000 --> 00:00:03,000\n- JOHN: Where were you?\n- MARY: Out.\n\n2\n00:00:03,000 --> 00:00:05,000\n\u{2013}John: Again?\n- Yes.\n\n3\n00:00:05,000 --> 00:00:06,000\n-- MARY: no\n",
        );
        // Block 1 holds two speakers, who spoke in turn: its time is divided by their words
        // (3 and 1: JOHN 1.0–2.5 s, MARY 2.5–3.0 s), with a note.
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(w, vec![(WarningKind::Note, Some(13)), (WarningKind::Note, Some(3))]);
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(
            texts(t),
            vec![
                ("JOHN".to_owned(), Some("Where were you?".to_owned())),
                ("MARY".to_owned(), Some("Out.".to_owned())),
                ("John".to_owned(), Some("Again?\n- Yes.".to_owned())),
                ("John".to_owned(), Some("-- MARY: no".to_owned())),
            ]
        );
        let segments: Vec<Segment> = t.annotation().tracks().iter().map(|tr| tr.segment).collect();
        assert_eq!(
            segments[..2],
            [Segment::from_millis(1000, 2500).unwrap(), Segment::from_millis(2500, 3000).unwrap()]
        );
    }

    /// Broadcast captions mark a new speaker with `>>`: a name after it is the speaker's, and
    /// a caption opened by `>>` without one does not continue the speaker named before.
    #[test]
    fn chevrons_mark_a_new_speaker() {
        let out = read_text(
            "1\n00:00:01,000 --> 00:00:03,000\n>> JOHN: Where were you?\n>> MARY: Out.\n\n2\n00:00:03,000 --> 00:00:04,000\n>> JOHN: Again?\n\n3\n00:00:04,000 --> 00:00:05,000\nYes.\n\n4\n00:00:05,000 --> 00:00:06,000\n>> Who's there?\n",
        );
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(
            texts(t),
            vec![
                ("JOHN".to_owned(), Some("Where were you?".to_owned())),
                ("MARY".to_owned(), Some("Out.".to_owned())),
                ("JOHN".to_owned(), Some("Again?".to_owned())),
                ("JOHN".to_owned(), Some("Yes.".to_owned())),
                ("unknown".to_owned(), Some(">> Who's there?".to_owned())),
            ]
        );
    }

    #[test]
    fn webvtt_voice_spans_left_in_srt_name_the_speaker() {
        let out = read_text(
            "1\n00:00:01,000 --> 00:00:02,000\n<v Ann>Hello</v>\n\n2\n00:00:01,500 --> 00:00:03,000\n- <v.loud Bob>Hi <i>there</i>\n",
        );
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(
            texts(t),
            vec![
                ("Ann".to_owned(), Some("Hello".to_owned())),
                ("Bob".to_owned(), Some("Hi there".to_owned()))
            ]
        );
        assert_eq!(voice_as_prefix("so <v Ann>mid</v>"), "so <v Ann>mid");
        assert_eq!(voice_as_prefix("<v.speaker1>x"), "[speaker1]: x");
        assert_eq!(voice_as_prefix("<vacation> x"), "<vacation> x");
    }

    #[test]
    fn a_bracket_prefix_on_any_line_names_the_speaker() {
        // Lines before the first prefix of a block belong to the block's first speaker.
        let out = read_text("1\n00:00:00,000 --> 00:00:01,000\n<i>music</i>\n[SPEAKER_00]: hi\n");
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(texts(t), vec![("SPEAKER_00".to_owned(), Some("music\nhi".to_owned()))]);
    }

    #[test]
    fn a_bad_time_skips_its_block_and_keeps_the_rest() {
        let text = "1\n00:00:01,000 --> NaN\nx\n\n2\n00:00:02,000 --> 00:00:03,000\ny\n";
        let out = read_text(text);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::Skipped, Some(2), Some(18)),
                (WarningKind::MissingSpeaker, Some(7), Some(1))
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(texts(t), vec![("unknown".to_owned(), Some("y".to_owned()))]);
        let strict = ReadOptions { strict: true, ..Default::default() };
        let e = read_str(text, Format::Srt, &strict).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(18)));
    }

    #[test]
    fn strict_rejects_malformed_times_that_lenient_reads() {
        let strict = ReadOptions { strict: true, ..Default::default() };
        for (text, column, value) in [
            ("1\n00:00.00 --> 00:00:01,000\nx\n", 1, 0),
            ("1\n00:00:01 --> 00:00:02,000\nx\n", 1, 1_000_000),
            ("1\n00:00:00,000 --> 00:00:02.5\nx\n", 18, 0),
            ("1\n00:00:00,000 --> 00:61:00,000\nx\n", 18, 0),
            // A one-digit seconds or minutes field (`00:01:2,000`) is read, with a note.
            ("1\n00:01:2,000 --> 00:01:03,000\nx\n", 1, 62_000_000),
            ("1\n00:00:01,000 --> 00:1:03,000\nx\n", 18, 1_000_000),
        ] {
            let out = read_text(text);
            let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
            assert_eq!(w[0], (WarningKind::Repaired, Some(2), Some(column)), "{text:?}");
            let t = out.corpus.get("recording").unwrap();
            assert_eq!(t.annotation().tracks()[0].segment.start().micros(), value, "{text:?}");
            let e = read_str(text, Format::Srt, &strict).unwrap_err();
            assert_eq!((e.line(), e.column()), (Some(2), Some(column)), "{text:?}");
        }
        let out = read_text("1\n00:01:2,000 --> 00:01:03,000\nx\n");
        assert_eq!(
            out.warnings[0].to_string(),
            "line 2, column 1: cue start \"00:01:2,000\" breaks the SRT syntax hh:mm:ss,mmm (seconds need two digits); read as 62.000, and every later one like it too (repaired)"
        );
        let e = read_str("1\n00:01:2,000 --> 00:01:03,000\nx\n", Format::Srt, &strict).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 1: srt: cue start \"00:01:2,000\" breaks the SRT syntax hh:mm:ss,mmm (seconds need two digits)"
        );
        let fine = "1\n00:00:00,000 --> 00:00:02,500\n[A]: x\n";
        assert!(read_str(fine, Format::Srt, &strict).unwrap().warnings.is_empty());
    }

    #[test]
    fn writes_brackets_that_read_back() {
        let out = read_text("1\n00:00:00,500 --> 00:00:01,000\n[Ana María: 2]: x --> y\n\n2\n00:00:00,600 --> 00:00:02,000\n[B]:\n");
        let mut buf = Vec::new();
        assert!(write(&out.corpus, &mut buf).unwrap().is_empty());
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(
            text,
            "1\n00:00:00,500 --> 00:00:01,000\n[Ana María: 2]: x --> y\n\n2\n00:00:00,600 --> 00:00:02,000\n[B]:\n"
        );
        assert_eq!(read_text(&text).corpus, out.corpus);
    }

    /// YouTube's SubViewer captions (`.sbv`, as YouTube Studio downloads them): detected by
    /// their first line, read as caption blocks with the text kept, past an hour too, and with
    /// no complaint about their clock.
    #[test]
    fn youtube_sbv_captions_are_read() {
        let text = "0:00:00.100,0:00:00.900\r\nHello there,\r\nfriend.\r\n\r\n0:00:01.100,0:00:01.400\r\nHi.\r\n\r\n1:00:01.100,1:00:02.400\r\nLater, then.\r\n";
        assert_eq!(crate::format::sniff(text), Some(Format::Sbv));
        assert_eq!(crate::format::detect_by_name("captions.sbv"), Some(Format::Sbv));
        let sbv = |text: &str| read_str(text, Format::Sbv, &ReadOptions::default());
        let out = sbv(text).unwrap();
        // Read as SRT (`--from srt`), the first line still tells SBV.
        assert_eq!(read_text(text).corpus, out.corpus);
        assert_eq!(
            crate::format::test_support::tracks_with_text(&out, "recording"),
            vec![
                (100_000, 900_000, "unknown".to_owned(), "Hello there,\nfriend.".to_owned()),
                (1_100_000, 1_400_000, "unknown".to_owned(), "Hi.".to_owned()),
                (3_601_100_000, 3_602_400_000, "unknown".to_owned(), "Later, then.".to_owned()),
            ]
        );
        assert_eq!(
            out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect::<Vec<_>>(),
            vec![(WarningKind::MissingSpeaker, Some(2), Some(1))]
        );
        // A malformed time is named with its line and column, as in SRT.
        let out = sbv("0:00:00.100,0:00:00.900\nA.\n\n0:00:01.100,0:0x:01.400\nB.\n").unwrap();
        let skipped: Vec<_> = out
            .warnings
            .iter()
            .filter(|w| w.kind == WarningKind::Skipped)
            .map(|w| (w.line, w.column))
            .collect();
        assert_eq!(skipped, vec![(Some(4), Some(13))]);
        // Messages about an SBV file name SBV, even when no line reads as its timing.
        let e = sbv("Captions\nA.\n").unwrap_err().to_string();
        assert_eq!(
            e,
            "line 1, column 1: sbv: no subtitle block: no line is a YouTube SBV timing line such as `0:00:01.000,0:00:04.000` (found `Captions`)"
        );
        let out = sbv("0:00:00.100,0:00:00.900\nA.\n\n0:00:01.100 --> 0:00:01.400\nB.\n\n0:00:02,0:00:03.5\nC.\n").unwrap();
        let w: Vec<_> = out.warnings.iter().map(|w| (w.line, w.message.as_str())).collect();
        assert_eq!(
            w,
            vec![
                (Some(4), "block without a timing line: line 4 (\"0:00:01.100 --> 0:00:01.400\") holds two times but not joined by a comma (`0:00:01.000,0:00:04.000`); skipped"),
                (Some(7), "cue start \"0:00:02\" breaks the SBV syntax h:mm:ss.mmm (no milliseconds); read as 2.000, and every later one like it too"),
                (Some(2), "block has no speaker prefix; it and every later block like it get the speaker \"unknown\""),
            ]
        );
    }

    /// `hh:mm:ss:mmm`, a `:` before the milliseconds, as some tools write SRT: read, with one
    /// warning naming where and what was taken as milliseconds; `--strict` refuses it. Four
    /// fields whose last has two digits (a frame count?) are not read: the block is skipped with
    /// a warning.
    #[test]
    fn a_colon_before_the_milliseconds_is_read_as_milliseconds() {
        let text = "1\n00:00:11:890 --> 00:00:14:020\n[A]: Hello.\n\n2\n00:00:14:500 --> 00:00:15:000\n[A]: Again.\n\n3\n00:00:16:20 --> 00:00:17:00\n[A]: Frames.\n";
        let out = read_text(text);
        assert_eq!(
            crate::format::test_support::tracks_with_text(&out, "recording"),
            vec![
                (11_890_000, 14_020_000, "A".to_owned(), "Hello.".to_owned()),
                (14_500_000, 15_000_000, "A".to_owned(), "Again.".to_owned()),
            ]
        );
        let w: Vec<_> =
            out.warnings.iter().map(|w| (w.kind, w.line, w.column, w.message.as_str())).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::Repaired, Some(2), Some(1), "cue start \"00:00:11:890\" has a `:` before the milliseconds, not the SRT `,`; the separator was taken as the milliseconds' (11.890), and in every later time like it too"),
                (WarningKind::Skipped, Some(10), Some(1), "cue start \"00:00:16:20\": four clock fields whose last is not three digits of milliseconds (a frame count is not read); cue skipped"),
            ]
        );
        let strict = ReadOptions { strict: true, ..Default::default() };
        let e = read_str(text, Format::Srt, &strict).unwrap_err().to_string();
        assert_eq!(e, "line 2, column 1: srt: cue start \"00:00:11:890\" has a `:` before the milliseconds, not the SRT `,`");
    }

    /// `mm:ss:mmm` (two fields before three digits): minutes, seconds and milliseconds when the
    /// seconds are below 60, with the colon warning (and, once, the missing hours); a seconds
    /// field of 60 or more is never read as seconds, nor three digits after one field: the cue
    /// is skipped with a warning naming line and column.
    #[test]
    fn minutes_seconds_and_colon_milliseconds() {
        let text = "1\n00:11:890 --> 00:12:100\n[A]: Hello.\n\n2\n00:59:500 --> 00:75:000\n[A]: Bad.\n\n3\n13:000 --> 14:000\n[B]: Bad too.\n\n4\n01:13:000 --> 01:14:500\n[B]: Later.\n";
        let out = read_text(text);
        assert_eq!(
            crate::format::test_support::tracks_with_text(&out, "recording"),
            vec![
                (11_890_000, 12_100_000, "A".to_owned(), "Hello.".to_owned()),
                (73_000_000, 74_500_000, "B".to_owned(), "Later.".to_owned()),
            ]
        );
        let w: Vec<_> =
            out.warnings.iter().map(|w| (w.kind, w.line, w.column, w.message.as_str())).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::Repaired, Some(2), Some(1), "cue start \"00:11:890\" has a `:` before the milliseconds, not the SRT `,`; the separator was taken as the milliseconds' (11.890), and in every later time like it too"),
                (WarningKind::Repaired, Some(2), Some(1), "cue start \"00:11:890\" breaks the SRT syntax hh:mm:ss,mmm (no hours); read as 11.890, and every later one like it too"),
                (WarningKind::Skipped, Some(6), Some(15), "cue end \"00:75:000\": three digits after the last `:` are milliseconds, and the seconds before them (75) are 60 or more: not a time; cue skipped"),
                (WarningKind::Skipped, Some(10), Some(1), "cue start \"13:000\": three digits after the last `:` are milliseconds, not seconds, and no minutes and seconds stand before them (`mm:ss:mmm`); cue skipped"),
            ]
        );
        let strict = ReadOptions { strict: true, ..Default::default() };
        let e = read_str("1\n00:00:59,500 --> 00:75:000\n[A]: Bad.\n", Format::Srt, &strict)
            .unwrap_err()
            .to_string();
        // Refused, nothing skipped: the message does not say a cue was.
        assert_eq!(e, "line 2, column 18: srt: cue end \"00:75:000\": three digits after the last `:` are milliseconds, and the seconds before them (75) are 60 or more: not a time");
    }

    /// The timing variants of SRT files in the wild: each is read (noted when it breaks the
    /// syntax) or its block is skipped with a warning that says why, never dropped silently.
    #[test]
    fn timing_variants_are_read_or_refused_with_a_reason() {
        let block = |timing: &str| {
            format!("1\n{timing}\n[A]: x\n\n2\n00:00:05,000 --> 00:00:06,000\n[A]: y\n")
        };
        for (timing, start, warning) in [
            ("0:00:01,000 --> 0:00:02,000", Some(1_000_000), Some("cue start \"0:00:01,000\" breaks the SRT syntax hh:mm:ss,mmm (hours need two digits); read as 1.000, and every later one like it too")),
            ("00:00:01.000 --> 00:00:02.000", Some(1_000_000), Some("cue start \"00:00:01.000\" breaks the SRT syntax hh:mm:ss,mmm (`.` before the milliseconds); read as 1.000, and every later one like it too")),
            ("00:01,000 --> 00:02,000", Some(1_000_000), Some("cue start \"00:01,000\" breaks the SRT syntax hh:mm:ss,mmm (no hours); read as 1.000, and every later one like it too")),
            ("  00:00:01,000   -->   00:00:02,000  ", Some(1_000_000), None),
            ("00:00:01,000-->00:00:02,000", Some(1_000_000), None),
            ("00:00:01,000 --> 00:00:02,000 X1:100 X2:200 Y1:1 Y2:2", Some(1_000_000), None),
            ("00:00:01:000 --> 00:00:02:000", Some(1_000_000), Some("cue start \"00:00:01:000\" has a `:` before the milliseconds, not the SRT `,`; the separator was taken as the milliseconds' (1.000), and in every later time like it too")),
            ("00:00:01,000 -> 00:00:02,000", None, Some("block without a timing line: line 2 (\"00:00:01,000 -> 00:00:02,000\") holds two times but not joined by `-->`; skipped")),
            ("00:00:01;000 --> 00:00:02;000", None, Some("cue start \"00:00:01;000\": not a time; cue skipped")),
        ] {
            let out = read_text(&block(timing));
            let got = crate::format::test_support::tracks_with_text(&out, "recording");
            let starts: Vec<i64> = got.iter().map(|t| t.0).collect();
            let expected: Vec<i64> = start.into_iter().chain([5_000_000]).collect();
            assert_eq!(starts, expected, "{timing:?}");
            let first = out.warnings.first().map(|w| w.message.as_str());
            assert_eq!(first, warning, "{timing:?}");
        }
    }
}
