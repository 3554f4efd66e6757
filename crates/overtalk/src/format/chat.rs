//! TalkBank CHAT (`.cha`, the CLAN format).
//!
//! A CHAT file is a sequence of tiers, one per line, a tab after the tier name; a line that
//! starts with a tab continues the tier above it (joined with one space). A continuation
//! indented with spaces instead (an editor replaced the tab) is read the same way, with one
//! `repaired` warning per file that counts such lines:
//!
//! ```text
//! @Participants:  FAT Father, CHI Target_Child      headers: @Participants declares the codes
//! *FAT:   that's the &-uh [>] +/. •12249_13198•     main tier: speaker code, text, time bullet
//! %mor:   pro:dem|that~cop|be&3S …                  dependent tier: ignored
//! *CHI:   <what's> [<] that ? •13198_13514•
//!
//! FAT  [that's the &-uh [>] +/.)
//! CHI                     [<what's> [<] that ?)     12.249 s → 13.198 s, 13.198 s → 13.514 s
//! ```
//!
//! - The **speaker** of a track is the participant **code** (`CHI`, `MOT`), not the name or role
//!   of `@Participants`: codes are what every tier uses and are unique within a file; names and
//!   roles can be mapped later with a speaker map. Every declared code is a speaker, even one
//!   without timed utterances.
//! - The **time** is the media bullet `U+0015 start_end U+0015` (milliseconds); with several
//!   bullets on one tier the track runs from the first start to the last end. Older bullets
//!   naming a sound file (`%snd:"file"_start_end`) are read by their last two numbers. A main
//!   tier without a bullet has no time: it is kept as an [`crate::model::Untimed`] utterance
//!   (in order, with its text and words) and left out of every time measure; CHAT allows a
//!   partly aligned transcript, so one note per file counts these utterances. Bullets out of
//!   time order are read in time order, with one `unsorted` note. A file with **no bullet at all** (most of CHILDES) is an untimed
//!   transcript: one note counts its utterances and its overlap (`[>]`, `[<]`) and interruption
//!   (`+/.`, `+//.`) markers ([`Markers`]), and commands that need times refuse it. Where
//!   bullets exist, [`crate::analysis::markers`] compares the markers with the timing.
//! - The **text** is the main tier without its bullets, trimmed, markers kept exactly as
//!   written — overlap `[<]` `[>]`, linkers `+<` `+,`, terminators `+/.` `+//.` `+/?` — because
//!   the conversation analysis reads them.
//! - Dependent tiers (`%mor`, `%gra`, `%wor`, …) and other headers are ignored; a code that
//!   `@Participants` does not declare is read with a note; a missing `@Begin` or `@End` is a
//!   note; lines after `@End` and lines that are no tier are skipped with a warning.
//!
//! Writing gives a minimal valid file: `@UTF8`, `@Begin`, `@Languages: und` (the language is
//! not known), `@Participants` and one `@ID` per speaker (role `Unidentified`), one main tier per
//! track in time order with its bullet, `@End`. Times are rounded half away from zero to the
//! millisecond and negative times clipped to 0, with a warning when that moves a boundary (a
//! track that rounding empties is not written). A speaker label that is not a valid code (1–7
//! ASCII letters, digits or `_`) gets a code `SP1`, `SP2`, … and keeps its label as the
//! participant's name, with a warning. A track without text is written `www .` (untranscribed
//! speech); a text without a terminator (`.`, `?`, `!`) gets ` .` with a warning; line breaks
//! and tabs become spaces and bullet characters are removed.

use std::collections::{BTreeSet, HashSet};
use std::io::Write;

use crate::error::{Result, Warning, WarningKind};
use crate::format::order::OutOfOrder;
use crate::format::ReadContext;
use crate::model::{Content, Corpus, Transcript, TranscriptBuilder, Word};
use crate::time::{round_div, Time, MAX_MICROS};

use crate::format::{Format, FormatSpec, Head, Sniff, Verdict};

/// What the format registry knows of this format (see [`FormatSpec`]).
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Chat,
    name: "chat",
    aliases: &["cha"],
    extension: "cha",
    detected_by: &["cha"],
    read: Ok(read),
    write: Some(write),
    json: false,
    many_recordings: false,
    paragraphs: false,
    sniff: &[Sniff::Start { rank: 40, test: sniff }],
};

/// `@UTF8` first; older CLAN files start with `@Font:` or `@Window:` headers.
fn sniff(head: &Head<'_>) -> Verdict {
    if ["@UTF8", "@Begin", "@Font:", "@Window:"].iter().any(|h| head.trimmed.starts_with(h)) {
        Verdict::Is(Format::Chat)
    } else {
        Verdict::Pass
    }
}

/// The bullet delimiter, NAK.
const NAK: char = '\u{15}';

/// A logical line (a tier with its continuation lines joined) and where each piece came from.
struct Entry<'t> {
    text: String,
    /// (offset in `text`, line number, the physical line, byte offset in it where the piece starts)
    pieces: Vec<(usize, usize, &'t str, usize)>,
}

impl Entry<'_> {
    fn line(&self) -> usize {
        self.pieces.first().map_or(0, |p| p.1)
    }

    /// Line and column (1-based, in characters) of byte `at` of the joined text.
    fn position(&self, at: usize) -> (usize, usize) {
        let piece = self.pieces.iter().rev().find(|p| p.0 <= at).or(self.pieces.first());
        match piece {
            Some(&(off, line, physical, start)) => {
                let mut byte = start + (at - off.min(at));
                byte = byte.min(physical.len());
                while !physical.is_char_boundary(byte) {
                    byte -= 1;
                }
                (line, physical[..byte].chars().count() + 1)
            }
            None => (0, 0),
        }
    }
}

/// Reads a CHAT file: one recording, named by [`ReadContext::recording_id`].
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    // Join continuation lines.
    // A line indented with spaces instead of the tab is read as a continuation too (editors and
    // converters replace tabs); the file breaks the format, so this is one repair per file.
    let mut entries: Vec<Entry<'_>> = Vec::new();
    let mut space_indented: Option<(usize, usize)> = None;
    for item in ctx.lines(text) {
        let (n, line) = item?;
        let indent = if line.starts_with('\t') {
            Some(1)
        } else if line.starts_with(' ') && !line.trim().is_empty() {
            Some(line.len() - line.trim_start_matches(' ').len())
        } else {
            None
        };
        if let (Some(width), Some(e)) = (indent, entries.last_mut()) {
            if line.starts_with(' ') {
                space_indented.get_or_insert((n, 0)).1 += 1;
            }
            e.text.push(' ');
            let off = e.text.len();
            e.text.push_str(&line[width..]);
            e.pieces.push((off, n, line, width));
            continue;
        }
        let trimmed = line.trim_start_matches('\u{feff}');
        let skipped = line.len() - trimmed.len();
        entries.push(Entry { text: trimmed.to_owned(), pieces: vec![(0, n, line, skipped)] });
    }

    if let Some((first, count)) = space_indented {
        let lines = if count == 1 { "1 line".to_owned() } else { format!("{count} lines") };
        ctx.warn_at(
            WarningKind::Repaired,
            first,
            Some(1),
            format!("{lines} indented with spaces instead of a tab (first at line {first}); read as continuations of the tier above"),
        )?;
    }

    // A file without any bullet is an untimed transcript (most of CHILDES): its utterances are
    // kept in order, without times, with one note instead of one warning per line.
    let untimed_file = !entries.iter().any(|e| e.text.starts_with('*') && e.text.contains(NAK));
    let mut untimed = Markers::default();
    let mut b = TranscriptBuilder::new();
    let mut declared: HashSet<String> = HashSet::new();
    let mut undeclared_noted: HashSet<String> = HashSet::new();
    let (mut begun, mut ended) = (false, false);
    // Main tiers without a bullet in a file that has bullets: (first line, count).
    let mut unbulleted: Option<(usize, usize)> = None;
    let mut timed = 0usize;
    // Main tiers of pause notation alone: (first line, count).
    let mut pauses: Option<(usize, usize)> = None;
    let recording = ctx.recording_id();
    let mut order = OutOfOrder::new("utterance", "read in time order");
    let mut latest = Time::from_micros(i64::MIN);
    for e in &entries {
        let n = e.line();
        let body = e.text.as_str();
        if body.trim().is_empty() {
            continue;
        }
        if ended {
            ctx.warn_at(
                WarningKind::Skipped,
                n,
                Some(1),
                "text after @End, which ends a CHAT transcript; line skipped",
            )?;
            continue;
        }
        if let Some(header) = body.strip_prefix('@') {
            let (name, value) = match header.find(':') {
                Some(i) => (&header[..i], header[i + 1..].trim()),
                None => (header.trim_end(), ""),
            };
            match name {
                "Begin" => begun = true,
                "End" => ended = true,
                "Participants" => {
                    for p in value.split(',') {
                        if let Some(code) = p.split_whitespace().next() {
                            b.speaker(code);
                            declared.insert(code.to_owned());
                        }
                    }
                }
                _ => {}
            }
            continue;
        }
        if body.starts_with('%') {
            continue;
        }
        let Some(main) = body.strip_prefix('*') else {
            ctx.warn_at(
                WarningKind::Skipped,
                n,
                Some(1),
                "line is not a header (@), a main tier (*) or a dependent tier (%); skipped",
            )?;
            continue;
        };
        let Some(colon) = main.find(':') else {
            ctx.warn_at(
                WarningKind::Skipped,
                n,
                Some(1),
                "main tier without `:` after the speaker code; skipped",
            )?;
            continue;
        };
        let code = main[..colon].trim();
        if code.is_empty() {
            ctx.warn_at(
                WarningKind::MissingSpeaker,
                n,
                Some(2),
                "main tier without a speaker code; skipped",
            )?;
            continue;
        }
        if !declared.contains(code) && undeclared_noted.insert(code.to_owned()) {
            ctx.warn_at(
                WarningKind::Note,
                n,
                Some(2),
                format!("speaker code {code:?} is not declared in @Participants"),
            )?;
        }
        let content_start = 1 + colon + 1;
        let (utterance, times) = split_bullets(&e.text, content_start, e, ctx)?;
        if pause_only(&utterance) {
            // `*PPP: (0.2)`: a pause (or applause timed as one) is nobody's speech.
            pauses.get_or_insert((n, 0)).1 += 1;
            continue;
        }
        let speaker = b.speaker(code);
        let Some((start, end, at)) = times else {
            if !untimed_file {
                unbulleted.get_or_insert((n, 0)).1 += 1;
            }
            let utterance = utterance.trim();
            untimed.add(utterance);
            b.push_untimed(speaker, main_tier_content(utterance), n);
            continue;
        };
        let (line, column) = e.position(at);
        timed += 1;
        order.check(ctx, &recording, &mut latest, start, line, Some(column))?;
        if let Some(seg) = ctx.segment(start, end, line, Some(column))? {
            let utterance = utterance.trim();
            let content = (!utterance.is_empty()).then(|| main_tier_content(utterance));
            b.push(seg, speaker, content);
        }
    }
    if let Some((first, count)) = pauses {
        ctx.warn_at(
            WarningKind::Note,
            first,
            None,
            format!("{count} utterance(s) hold pause notation alone, such as `(0.5)` or `(.)` (first at line {first}); not speech, left out"),
        )?;
    }
    if let Some((first, count)) = unbulleted {
        // CHAT lets any utterance go without a bullet (partly aligned transcripts are common),
        // so this is a note, not a repair.
        let of = count + timed;
        ctx.warn_at(
            WarningKind::Note,
            first,
            None,
            format!("{count} of {of} utterance(s) have no time bullet (first at line {first}); kept in order without time, left out of every time measure"),
        )?;
    }
    order.finish(ctx, 1);
    let last = entries.last().map_or(1, Entry::line);
    if untimed_file && untimed.utterances > 0 {
        ctx.warn(Warning::new(
            WarningKind::Note,
            format!(
                "no time bullets: read as an untimed transcript of {} utterance(s) in order, with {} overlap marker(s) ([>] {}, [<] {}) and {} interruption(s) (+/. {}, +//. {}); measures that need times cannot be made",
                untimed.utterances,
                untimed.overlap_follows + untimed.overlap_precedes,
                untimed.overlap_follows,
                untimed.overlap_precedes,
                untimed.interrupted + untimed.self_interrupted,
                untimed.interrupted,
                untimed.self_interrupted,
            ),
        ))?;
    }
    if !begun {
        ctx.warn_at(WarningKind::Note, 1, Some(1), "no @Begin header")?;
    }
    if !ended {
        ctx.warn_at(WarningKind::Note, last, None, "no @End header (truncated file?)")?;
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

/// Counts of the transcriber's overlap and interruption markers in main tiers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Markers {
    /// Main tiers counted.
    pub utterances: usize,
    /// `[>]` (and `[>N]`, CA `⌈`): this stretch is overlapped by what follows.
    pub overlap_follows: usize,
    /// `[<]` (and `[<N]`, CA `⌊`): this stretch overlaps what precedes.
    pub overlap_precedes: usize,
    /// `+/.` (and `+/?`): interrupted by another speaker.
    pub interrupted: usize,
    /// `+//.` (and `+//?`): the speaker breaks off.
    pub self_interrupted: usize,
}

impl Markers {
    /// Counts the markers of one main tier's text (read as
    /// [`crate::analysis::markers::Marked::scan`] reads them).
    pub fn add(&mut self, text: &str) {
        let m = crate::analysis::markers::Marked::scan(text);
        self.utterances += 1;
        self.overlap_follows += m.overlap_follows;
        self.overlap_precedes += m.overlap_precedes;
        self.interrupted += m.interrupted;
        self.self_interrupted += m.self_interrupted;
    }
}

/// CA overlap brackets (`⌈2`, `b⌉`): where an overlap starts and ends, numbered; no words.
const CA_OVERLAP: [char; 4] = ['⌈', '⌉', '⌊', '⌋'];

/// Whether a token is a CHAT pause: `(.)`, `(..)`, `(...)`, or a length `(0.5)`, `(1:30.5)`.
fn is_pause(token: &str) -> bool {
    token.strip_prefix('(').and_then(|t| t.strip_suffix(')')).is_some_and(|inner| {
        !inner.is_empty()
            && inner.bytes().all(|b| b.is_ascii_digit() || b == b'.' || b == b':')
            && (inner.bytes().all(|b| b == b'.') || inner.bytes().any(|b| b.is_ascii_digit()))
    })
}

/// Whether a main tier holds pause notation and nothing said: pauses, with at most CA overlap
/// brackets, codes in square brackets, linkers and a terminator around them (`(3.1)`,
/// `⌈ (6.0) ⌉`, `(.) .`). Events (`&=laughs`), fillers and unintelligible speech (`xxx`) are
/// sounds of the speaker and keep the tier.
fn pause_only(text: &str) -> bool {
    let mut pauses = 0;
    let mut in_code = false;
    for token in text.split_whitespace() {
        if in_code || token.starts_with('[') {
            in_code = !token.ends_with(']');
            continue;
        }
        // `⌈`, `⌉2`: an overlap bracket, numbered or not.
        let bracket = token.contains(CA_OVERLAP)
            && token
                .trim_matches(|c: char| CA_OVERLAP.contains(&c) || c.is_ascii_digit())
                .is_empty();
        if is_pause(token.trim_matches(CA_OVERLAP)) {
            pauses += 1;
        } else if !(bracket
            || matches!(token, "." | "?" | "!" | ",")
            || token.starts_with('+') && !token[1..].chars().any(char::is_alphanumeric))
        {
            return false;
        }
    }
    pauses > 0
}

/// The content of a main tier: its text as written, and its spoken words as CLAN counts them
/// (FREQ, MLU): tokens without the `<`…`>` scope brackets, a `@` form marker (`mama@f`) or the
/// parentheses of an incomplete word (`(be)cause`), leaving out bracketed codes (`[>]`,
/// `[+ id]`, `[=! whispers]`), linkers (`+<`), punctuation, events, fillers and fragments
/// (`&=vocalizes`, `&-uh`, `&+fr`), untranscribed and unintelligible material (`xxx`, `yyy`,
/// `www`), omitted words (`0is`) and `0` alone, the code of an action without speech
/// (`0 [=! laughs] .`), which CLAN does not count either. The terminator stays on the last
/// word, so that a completion point (`.`, `?`, `!`) is one and a trailing off (`+...`) or an
/// interruption (`+/.`, `+//.`) is not; a tier of events only (`&=vocalizes .`) keeps its
/// terminator alone, a token that is no word.
fn main_tier_content(text: &str) -> Content {
    let mut words: Vec<String> = Vec::new();
    let mut terminator: Option<&str> = None;
    let mut in_code = false;
    for token in text.split_whitespace() {
        if in_code || token.starts_with('[') {
            in_code = !token.ends_with(']');
            continue;
        }
        match token {
            "." | "?" | "!" => {
                terminator = Some(token);
                continue;
            }
            "+..." | "+..?" | "+.." => {
                terminator = Some("...");
                continue;
            }
            _ if token.starts_with('+') => {
                // `+/.`, `+//.`, `+/?`, `+"/.`: interrupted or broken off; `+<`, `+,`: linkers.
                if token.ends_with(['.', '?', '!']) {
                    terminator = Some("\u{2014}");
                }
                continue;
            }
            _ => {}
        }
        let word = token.trim_start_matches('<').trim_end_matches('>');
        if is_pause(word.trim_matches(CA_OVERLAP)) {
            continue;
        }
        let word = word.split_once('@').map_or(word, |(w, _)| w);
        if word.starts_with(CA_OVERLAP)
            && word.trim_matches(CA_OVERLAP).bytes().all(|b| b.is_ascii_digit())
        {
            continue;
        }
        let word: String =
            word.chars().filter(|&c| c != '(' && c != ')' && !CA_OVERLAP.contains(&c)).collect();
        // `0is`: a word the speaker left out; `0`: an action without speech (also with its
        // terminator attached, `0.`).
        let omitted = word.trim_end_matches(['.', '?', '!']) == "0"
            || word.starts_with('0') && word[1..].starts_with(char::is_alphabetic);
        if word.is_empty()
            || word.starts_with('&')
            || omitted
            || matches!(word.as_str(), "," | "„" | "‡" | "xxx" | "yyy" | "www")
            || !word.chars().any(char::is_alphanumeric)
        {
            continue;
        }
        words.push(word);
    }
    match (words.last_mut(), terminator) {
        (Some(last), Some(t)) => last.push_str(t),
        (None, Some(t)) => words.push(t.to_owned()),
        _ => {}
    }
    let words = words.into_iter().map(Word::untimed).collect();
    Content { text: (!text.is_empty()).then(|| text.to_owned()), words }
}

/// The time of a main tier: first start, last end, and the byte offset of the first bullet.
type Bullet = (Time, Time, usize);

/// The text of a main tier without its bullets, and the time the bullets give (first start,
/// last end, and the offset of the first bullet).
fn split_bullets(
    text: &str,
    from: usize,
    e: &Entry<'_>,
    ctx: &ReadContext<'_>,
) -> Result<(String, Option<Bullet>)> {
    let mut out = String::new();
    let mut times: Option<Bullet> = None;
    let mut rest = from.min(text.len());
    while let Some(i) = text[rest..].find(NAK) {
        let open = rest + i;
        out.push_str(&text[rest..open]);
        let Some(j) = text[open + 1..].find(NAK) else {
            let (line, column) = e.position(open);
            return Err(ctx.error(line, column, "time bullet is never closed (a second U+0015)"));
        };
        let close = open + 1 + j;
        let inner = &text[open + 1..close];
        let (s, t) = parse_bullet(inner).ok_or_else(|| {
            let (line, column) = e.position(open);
            let shown: String = inner.chars().take(40).collect();
            ctx.error(
                line,
                column,
                format!("time bullet {shown:?} is not `start_end` in whole milliseconds"),
            )
        })?;
        times = Some(match times {
            None => (s, t, open),
            Some((s0, _, at)) => (s0, t, at),
        });
        rest = close + NAK.len_utf8();
    }
    out.push_str(&text[rest..]);
    Ok((out, times))
}

/// `start_end` (or `…_start_end`, with an optional trailing `-`) in milliseconds.
fn parse_bullet(inner: &str) -> Option<(Time, Time)> {
    let inner = inner.trim().trim_end_matches('-');
    let mut parts = inner.rsplit('_');
    let end = parts.next()?;
    let start = parts.next()?;
    let ms = |s: &str| -> Option<Time> {
        if s.is_empty() || s.len() > 15 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let v: i64 = s.parse().ok()?;
        (v <= MAX_MICROS / 1000).then(|| Time::from_millis(v))
    };
    Some((ms(start)?, ms(end)?))
}

/// CLAN's own control characters (U+0001, U+0002: underline and italic marks) are CHAT text and
/// are written as they are.
fn is_clan_control(c: char) -> bool {
    matches!(c, '\u{1}' | '\u{2}')
}

/// A main tier's text on one line: line breaks and tabs become single spaces, bullet and other
/// control characters are removed (without adding a space: a control character sits inside a
/// word), CLAN's control characters are kept; `www .` for no text; ` .` added when there is no
/// terminator (` +/.`, interrupted, after a cut-off dash). Also whether the text changed and whether a terminator was added.
fn main_tier_text(raw: &str) -> (String, bool, bool) {
    let kept: String = raw
        .chars()
        .filter(|&c| c != NAK && (!c.is_control() || c.is_whitespace() || is_clan_control(c)))
        .collect();
    let mut text = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    let cleaned = text != raw.trim();
    let mut terminated = false;
    if text.is_empty() {
        text = "www .".to_owned();
    } else if text.ends_with(['-', '–', '—']) {
        // A transcriber's cut-off dash (`The plan we passed --`): CHAT's terminator of an
        // utterance interrupted by another speaker.
        text.push_str(" +/.");
        terminated = true;
    } else if !text.ends_with(['.', '?', '!']) {
        text.push_str(" .");
        terminated = true;
    }
    (text, cleaned, terminated)
}

fn valid_code(s: &str) -> bool {
    (1..=7).contains(&s.len()) && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Writes a minimal CHAT file with one main tier per track, in time order.
pub fn write(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    let mut warnings = Vec::new();
    let empty = Transcript::default();
    let t = corpus.iter().next().map_or(&empty, |(_, t)| t);
    let a = t.annotation();

    // Codes: the label when it is a valid code, else SP1, SP2, … (not already used).
    let mut used: BTreeSet<String> =
        a.speakers().iter().map(|(_, n)| n.to_owned()).filter(|n| valid_code(n)).collect();
    let mut next = 1usize;
    let mut codes: Vec<(String, Option<String>)> = Vec::new();
    for (_, name) in a.speakers().iter() {
        if valid_code(name) {
            codes.push((name.to_owned(), None));
            continue;
        }
        let code = loop {
            let c = format!("SP{next}");
            next += 1;
            if used.insert(c.clone()) {
                break c;
            }
        };
        let shown: String = name
            .chars()
            .map(|c| if c.is_whitespace() || c == ',' || c == '|' || c == NAK { '_' } else { c })
            .collect();
        let shown = if shown.is_empty() { "Unnamed".to_owned() } else { shown };
        warnings.push(Warning::new(
            WarningKind::Repaired,
            format!("speaker {name:?} is not a CHAT code (1-7 letters, digits or _); written as {code} named {shown:?}"),
        ));
        codes.push((code, Some(shown)));
    }

    let mut s = String::from("@UTF8\n@Begin\n@Languages:\tund\n");
    use std::fmt::Write as _;
    let participants: Vec<String> = codes
        .iter()
        .map(|(c, n)| match n {
            Some(n) => format!("{c} {n} Unidentified"),
            None => format!("{c} Unidentified"),
        })
        .collect();
    if !participants.is_empty() {
        let _ = writeln!(s, "@Participants:\t{}", participants.join(", "));
    }
    for (c, _) in &codes {
        let _ = writeln!(s, "@ID:\tund|overtalk|{c}|||||Unidentified|||");
    }
    let (mut moved, mut dropped, mut terminated, mut cleaned) = (0usize, 0usize, 0usize, 0usize);
    for u in t.utterances() {
        let seg = u.segment;
        // Whole ms, never negative (EAF and CHAT have no negative times).
        let (m1, m2) = (
            round_div(seg.start().micros(), 1000).max(0),
            round_div(seg.end().micros(), 1000).max(0),
        );
        if m1.checked_mul(1000) != Some(seg.start().micros())
            || m2.checked_mul(1000) != Some(seg.end().micros())
        {
            moved += 1;
        }
        if m2 <= m1 {
            dropped += 1;
            continue;
        }
        let raw = u.content.map(Content::display_text).unwrap_or_default();
        let (text, was_cleaned, was_terminated) = main_tier_text(&raw);
        cleaned += usize::from(was_cleaned);
        terminated += usize::from(was_terminated);
        let code = &codes[u.speaker.index()].0;
        let _ = writeln!(s, "*{code}:\t{text} {NAK}{m1}_{m2}{NAK}");
        if s.len() > 1 << 16 {
            out.write_all(s.as_bytes())?;
            s.clear();
        }
    }
    // Untimed utterances keep their order when nothing is timed; beside timed tracks they have
    // no place in time order and are left out (with a warning).
    let mut untimed_left_out = 0usize;
    for u in t.untimed() {
        if !a.is_empty() {
            untimed_left_out += 1;
            continue;
        }
        let (text, was_cleaned, was_terminated) = main_tier_text(&u.content.display_text());
        cleaned += usize::from(was_cleaned);
        terminated += usize::from(was_terminated);
        let code = &codes[u.speaker.index()].0;
        let _ = writeln!(s, "*{code}:\t{text}");
    }
    if untimed_left_out > 0 {
        warnings.push(Warning::new(
            WarningKind::MissingTime,
            format!("{untimed_left_out} utterance(s) without time not written: they have no place among the timed ones"),
        ));
    }
    s.push_str("@End\n");
    out.write_all(s.as_bytes())?;
    let notes = [
        (moved, "track(s) have times finer than a millisecond or negative; rounded to the millisecond and clipped to 0"),
        (dropped, "track(s) shorter than a millisecond after rounding; not written"),
        (terminated, "text(s) without a terminator got \" .\" (\" +/.\" after a cut-off dash)"),
        (cleaned, "text(s) had line breaks, tabs, control or bullet characters; written on one line without them"),
    ];
    for (n, what) in notes {
        if n > 0 {
            let kind = if what.contains("not written") {
                WarningKind::ZeroDuration
            } else {
                WarningKind::Repaired
            };
            warnings.push(Warning::new(kind, format!("{n} {what}")));
        }
    }
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Spoken words as CLAN's FREQ and MLU count them (the HomeBank VanDam excerpt: the child
    /// says 2 words, the mother 11, pylangacq's `words()` agrees).
    #[test]
    fn main_tier_words_leave_out_events_codes_and_unintelligible_material() {
        let words = |text: &str| -> Vec<String> {
            main_tier_content(text).words.into_iter().map(|w| w.text).collect()
        };
        assert_eq!(words("&=vocalizes . [+ nc]"), ["."]);
        assert_eq!(words("yyy a mama [=! babbles] . [+ c]"), ["a", "mama."]);
        assert_eq!(words("xxx girl [=! whispers] . [+ id]"), ["girl."]);
        assert_eq!(
            words("let's change your diaper . [+ id]"),
            ["let's", "change", "your", "diaper."]
        );
        assert_eq!(
            words("<I want> [/] I want &-uh (be)cause 0is mama@f ?"),
            ["I", "want", "I", "want", "because", "mama?"]
        );
        // A trailing off and an interruption are no completion points.
        assert_eq!(words("so then +..."), ["so", "then..."]);
        assert_eq!(words("⌈ a b⌉ ⌈2 two ⌉2 ."), ["a", "b", "two."]);
        assert_eq!(words("I was going +/."), ["I", "was", "going\u{2014}"]);
        // Pauses are no words: `(.)`, `(0.5)`, `(1:30.5)`; `(be)cause` is one.
        assert_eq!(words("well (.) I (0.5) think (1:30.5) ."), ["well", "I", "think."]);
        // `0` is an action without speech: no word, as `&=laughs` is none.
        assert_eq!(words("0 [=! laughs] ."), ["."]);
        assert_eq!(words("0 ."), ["."]);
        assert_eq!(words("0 [% points] yes ."), ["yes."]);
    }

    #[test]
    fn pause_notation_alone_is_no_speech() {
        for t in
            ["(3.1)", "(.)", "(..) .", "⌈ (6.0) ⌉", "⌈2 (0.4) ⌉2", "(1:30.5) [+ bch]", "+, (0.2)"]
        {
            assert!(pause_only(t), "{t}");
        }
        for t in [
            "",
            ".",
            "&=laughs",
            "xxx .",
            "(be)cause",
            "(0.2) yes",
            "&=applause (3.0)",
            "(s)",
            "(0.5) 2 .",
        ] {
            assert!(!pause_only(t), "{t}");
        }
        // `*PPP: (0.2)` gives PPP no speech; one note says how many tiers were left out.
        let out = read_text("@Begin\n@Participants:\tA Ann, B Bob, PPP Pause\n*A:\tso then . \u{15}0_1000\u{15}\n*PPP:\t(0.2) \u{15}1000_1200\u{15}\n*PPP:\t(0.6) \u{15}2000_2600\u{15}\n*B:\tyes (.) right . \u{15}1200_2000\u{15}\n@End\n");
        let t = out.corpus.get("recording").unwrap();
        let spoken: Vec<_> = t.annotation().tracks().iter().map(|tr| tr.speaker).collect();
        assert_eq!(spoken.len(), 2, "{spoken:?}");
        let notes: Vec<_> = out.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].starts_with("2 utterance(s) hold pause notation alone"), "{notes:?}");
    }
    use crate::format::{read_str, Format, ReadOptions};
    use crate::model::Segment;

    fn read_text(text: &str) -> crate::format::ReadOutput {
        read_str(text, Format::Chat, &ReadOptions::default()).unwrap()
    }

    const EXAMPLE: &str = "@UTF8\n@Begin\n@Languages:\teng\n@Participants:\tALI Alice Adult, BOB Bob Adult\n@ID:\teng|demo|ALI|||||Adult|||\n*ALI:\tso the plan is to ship on <Friday> [>] +/. \u{15}0_4210\u{15}\n%com:\tignored\n*BOB:\t<Friday> [<] won't work\n\tfor us . \u{15}3950_6250\u{15}\n*ALI:\t+, unless we cut scope .\n@End\n";

    #[test]
    fn reads_bullets_continuations_and_markers() {
        let out = read_text(EXAMPLE);
        let kinds: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(kinds, vec![(WarningKind::Note, Some(10))]);
        assert_eq!(
            out.warnings[0].message,
            "1 of 3 utterance(s) have no time bullet (first at line 10); kept in order without time, left out of every time measure"
        );
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
                    "ALI",
                    Some("so the plan is to ship on <Friday> [>] +/.".to_owned())
                ),
                (
                    Segment::from_millis(3950, 6250).unwrap(),
                    "BOB",
                    Some("<Friday> [<] won't work for us .".to_owned())
                ),
            ]
        );
    }

    /// A continuation indented with spaces keeps the bullet it holds (one repair per file,
    /// which `--strict` refuses); a tab-indented one needs no warning.
    #[test]
    fn space_indented_continuations_are_joined() {
        let text = "@Begin\n@Participants:\tA Adult, B Adult\n*A:\tla gente <los trainees> [//]\n    the police trainees . \u{15}4293_7486\u{15}\n%mor:\tn|gente\n    n|trainee-PL .\n*B:\tyes\n  indeed . \u{15}7500_8000\u{15}\n@End\n";
        let out = read_text(text);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::Repaired, Some(4), Some(1))]);
        assert_eq!(
            out.warnings[0].message,
            "3 lines indented with spaces instead of a tab (first at line 4); read as continuations of the tier above"
        );
        let t = out.corpus.get("recording").unwrap();
        let u: Vec<_> =
            t.utterances().map(|u| (u.segment, u.content.and_then(|c| c.text.clone()))).collect();
        assert_eq!(
            u,
            vec![
                (
                    Segment::from_millis(4293, 7486).unwrap(),
                    Some("la gente <los trainees> [//] the police trainees .".to_owned())
                ),
                (Segment::from_millis(7500, 8000).unwrap(), Some("yes indeed .".to_owned())),
            ]
        );
        // A bad bullet on a space-indented line is placed on that line, past the spaces.
        let e = read_str(
            "*A:\thi\n    there . \u{15}12_x\u{15}\n",
            Format::Chat,
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(13)), "{e}");
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        assert!(read_str(text, Format::Chat, &strict).is_err());
        let e =
            read_str("@Begin\n*A:\thi .\n@End\n*B:\tmore .\n", Format::Chat, &strict).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 4, column 1: chat: text after @End, which ends a CHAT transcript"
        );
    }

    #[test]
    fn bullets_out_of_order_are_noted_once() {
        let text = "@Begin\n@Participants:\tA Adult, B Adult\n*A:\ta . \u{15}5000_6000\u{15}\n*B:\tb . \u{15}1000_2000\u{15}\n*A:\tc . \u{15}500_700\u{15}\n@End\n";
        let out = read_text(text);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::Unsorted, Some(4), Some(9))]);
        assert_eq!(
            out.warnings[0].message,
            "2 utterances out of time order (first at line 4); read in time order"
        );
        let t = out.corpus.get("recording").unwrap();
        let starts: Vec<i64> = t.utterances().map(|u| u.segment.start().micros()).collect();
        assert_eq!(starts, [500_000, 1_000_000, 5_000_000]);
    }

    #[test]
    fn clan_control_characters_are_written_without_spaces() {
        // CLAN marks underlining with U+0002 U+0001 … U+0002 U+0002, inside words.
        let text = "@Begin\n*A:\tpre\u{2}\u{1}fix\u{2}\u{2}ed word . \u{15}0_1000\u{15}\n@End\n";
        let out = read_text(text);
        let mut buf = Vec::new();
        assert!(write(&out.corpus, &mut buf).unwrap().is_empty());
        let written = String::from_utf8(buf).unwrap();
        assert!(
            written.contains("*A:\tpre\u{2}\u{1}fix\u{2}\u{2}ed word . \u{15}0_1000\u{15}\n"),
            "{written:?}"
        );
        // Other control characters are removed, not turned into spaces.
        assert_eq!(main_tier_text("a\u{7}b c"), ("ab c .".to_owned(), true, true));
        // A cut-off dash is CHAT's interruption, which the readers count as a cut-off.
        assert_eq!(main_tier_text("we passed --"), ("we passed -- +/.".to_owned(), false, true));
        assert_eq!(main_tier_text("so—"), ("so— +/.".to_owned(), false, true));
    }

    #[test]
    fn bad_bullets_name_line_and_column() {
        let e =
            read_str("@Begin\n*A:\thi . \u{15}12_x\u{15}\n", Format::Chat, &ReadOptions::default())
                .unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(10)), "{e}");
        let e = read_str(
            "@Begin\n*A:\thi\n\tthere . \u{15}12_13\n",
            Format::Chat,
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(3), Some(10)), "{e}");
        let e = read_str(
            "*A:\thi . \u{15}1_99999999999999999\u{15}\n",
            Format::Chat,
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(10)), "{e}");
    }

    #[test]
    fn notes_and_skips() {
        let out = read_text("*XY:\ta . \u{15}5_2\u{15}\nstray\n@End\n*XY:\tb .\n");
        let kinds: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(
            kinds,
            vec![
                (WarningKind::Note, Some(1)),
                (WarningKind::NegativeDuration, Some(1)),
                (WarningKind::Skipped, Some(2)),
                (WarningKind::Skipped, Some(4)),
                (WarningKind::Note, Some(1)),
                // Nothing was left to read.
                (WarningKind::Note, None),
            ]
        );
    }

    #[test]
    fn writer_renames_invalid_codes_and_terminates() {
        let mut b = TranscriptBuilder::new();
        b.add(
            Segment::from_micros(0, 1_000_400).unwrap(),
            "SPEAKER_00",
            Some(Content::text("hi\nthere")),
        );
        b.add(Segment::from_millis(500, 2000).unwrap(), "CHI", None);
        let corpus = Corpus::single("r", b.build());
        let mut buf = Vec::new();
        let w = write(&corpus, &mut buf).unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(
            text,
            "@UTF8\n@Begin\n@Languages:\tund\n@Participants:\tCHI Unidentified, SP1 SPEAKER_00 Unidentified\n@ID:\tund|overtalk|CHI|||||Unidentified|||\n@ID:\tund|overtalk|SP1|||||Unidentified|||\n*SP1:\thi there . \u{15}0_1000\u{15}\n*CHI:\twww . \u{15}500_2000\u{15}\n@End\n"
        );
        assert_eq!(w.len(), 4, "{w:?}");
        let back = read_text(&text);
        assert!(back.warnings.is_empty(), "{:?}", back.warnings);
        assert_eq!(back.corpus.get("recording").unwrap().annotation().len(), 2);
    }
}
