//! Praat TextGrid: one IntervalTier per speaker, long ("full") and short text forms.
//!
//! Reading follows what Praat itself accepts rather than the layout it writes: the text is a
//! flat sequence of **numbers**, **quoted strings** (`""` inside a string is one `"`; strings
//! may span lines) and **flags** (`<exists>`); everything else — the `xmin =` and
//! `item [1]:` labels, ELAN's `item[1]:` and `intervals [1]` variants — is skipped, and `!`
//! starts a comment to the end of the line. So long, short and hand-edited files read alike.
//! Numbers are read as Praat reads them: decimals exactly, and also fractions (`1/2`),
//! percentages (`50%`) and hexadecimal floats (`0x1.8p+0`), up to the first character that is no
//! part of the number.
//! UTF-16 files are decoded before they reach this reader ([`crate::format::decode`]).
//!
//! The mapping to the model:
//!
//! ```text
//! tier "alice"  |   ""   | "So the plan…" |      ""      |     IntervalTier name = speaker
//! tier "bob"    |        ""        | "Friday won't…"    |     non-empty text    = speech
//!               0                 3.95   4.21         6.25    empty text        = silence
//! ```
//!
//! - every IntervalTier is a speaker (its name); tiers with the same name are one speaker;
//!   forced-alignment tiers (`phones`, `words`, MFA's `X - phones`/`X - words`) are left out by
//!   the rules of [`crate::format::tiers`], as are tiers named for notes, a translation,
//!   glosses, morphemes or parts of speech at least half of whose intervals are a speaker
//!   tier's, start and end each within 20 ms (`Samoan` and its `Gloss`, one gloss per word:
//!   one speaker), tiers of remarks over the recording (named only for notes, comments,
//!   remarks or errors — `Errors`, `Comments`, `misc` — or a few wordless labels over nearly the
//!   whole grid beside a speaker's many turns; kept when no other tier has speech) and tiers
//!   `--tiers`/`--ignore-tiers` exclude, with one note naming them;
//! - an interval whose text is empty or only whitespace is silence, any other is a track whose
//!   content is the text exactly as written;
//! - TextTiers (point tiers) hold no durations and are skipped with a note;
//! - the grid's `xmin`/`xmax` become the transcript's declared extent.
//!
//! Writing gives the long form, one IntervalTier per speaker, silence intervals filling every
//! gap so each tier covers the grid exactly, times printed exact to the microsecond (reading
//! back gives the same microseconds). A track without text is labelled with its speaker's name,
//! since an empty label would read back as silence. A speaker whose tracks overlap each other
//! cannot be one tier (intervals of a tier are disjoint): such a speaker is split into several
//! tiers all named `Name` (each track in the first tier where it fits) with a warning; reading
//! that file back merges them into the one speaker again, overlap included.

use std::io::Write;

use crate::error::{Error, Result, Warning, WarningKind};
use crate::format::tiers::{
    alignment_level, left_out_note, names_notes, names_only_notes, webmaus_grid, word_tier_speaker,
    Level,
};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, Segment, SpeakerId, Transcript, TranscriptBuilder};
use crate::time::{parse_seconds, Delta, Time, TimeError};

use crate::format::{is_dash_pause, Format, FormatSpec, Head, Sniff, Verdict};

/// What the format registry knows of this format (see [`FormatSpec`]).
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::TextGrid,
    name: "textgrid",
    aliases: &["tg", "praat"],
    extension: "TextGrid",
    detected_by: &["textgrid"],
    read: Ok(read),
    write: Some(write),
    json: false,
    many_recordings: false,
    paragraphs: false,
    sniff: &[Sniff::Start { rank: 20, test: sniff }],
};

/// The `ooTextFile` header; Praat accepts any spacing around `=`, and the older short-form header.
fn sniff(head: &Head<'_>) -> Verdict {
    let first_line = head.trimmed.lines().next().unwrap_or("");
    if first_line.starts_with("File type") && first_line.contains("\"ooTextFile")
        || first_line.starts_with("\"ooTextFile")
    {
        Verdict::Is(Format::TextGrid)
    } else {
        Verdict::Pass
    }
}

/// Line starts of a text, so that a byte offset becomes a line and column in `O(log n)` plus
/// the length of its line (computing it from the start of the text each time would make reading
/// quadratic).
pub(crate) struct LineIndex<'t> {
    text: &'t str,
    starts: Vec<usize>,
}

impl<'t> LineIndex<'t> {
    /// Indexes `text`; lines end at `\n`, as in [`crate::format::position_of`].
    pub(crate) fn new(text: &'t str) -> LineIndex<'t> {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { text, starts }
    }

    /// 1-based line and column (in characters) of byte offset `at` (clamped to the text and
    /// moved back to a character boundary).
    pub(crate) fn position(&self, at: usize) -> (usize, usize) {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= at).max(1);
        let start = self.starts[line - 1];
        (line, self.text[start..at].chars().count() + 1)
    }
}

/// A segment from `start` and `end`: directly when valid, else through
/// [`ReadContext::segment`] (which warns) with the position computed only then.
pub(crate) fn segment_at(
    ctx: &mut ReadContext<'_>,
    start: Time,
    end: Time,
    position: impl FnOnce() -> (usize, usize),
) -> Result<Option<Segment>> {
    if start.micros() >= 0 {
        if let Some(seg) = Segment::new(start, end) {
            return Ok(Some(seg));
        }
    }
    let (line, column) = position();
    ctx.segment(start, end, line, Some(column))
}

/// One lexical item of a TextGrid text file.
#[derive(Debug, PartialEq)]
enum Tok<'t> {
    /// The text of a number as written (only its numeric prefix: Praat reads `100ms` as 100).
    Num(&'t str),
    /// A string with `""` already turned into `"`.
    Str(String),
    /// A flag such as `<exists>` (without the angle brackets).
    Flag(&'t str),
}

/// A token with the byte offset where it starts.
struct Token<'t> {
    tok: Tok<'t>,
    at: usize,
}

/// Praat's text reader as a lazy tokenizer over the whole text.
struct Lexer<'t> {
    text: &'t str,
    pos: usize,
    /// Where text follows a closing quote with no space (`"ad"x`), since the last check: Praat
    /// writes a space or a line break there, so the string is malformed.
    glued: Option<usize>,
}

fn starts_number(word: &str) -> bool {
    let b = word.as_bytes();
    match b.first() {
        Some(c) if c.is_ascii_digit() => true,
        Some(b'+' | b'-') => {
            matches!(b.get(1), Some(c) if c.is_ascii_digit())
                || (b.get(1) == Some(&b'.') && matches!(b.get(2), Some(c) if c.is_ascii_digit()))
                || is_special_number(&word[1..])
        }
        Some(b'.') => matches!(b.get(1), Some(c) if c.is_ascii_digit()),
        _ => is_special_number(word),
    }
}

/// `NaN` and `inf` are read as (invalid) numbers so the error names them instead of silently
/// skipping them as labels.
fn is_special_number(word: &str) -> bool {
    let w = word.trim_end_matches([',', ';']);
    ["nan", "inf", "infinity"].iter().any(|s| w.eq_ignore_ascii_case(s))
}

/// The longest prefix of `word` that looks like a decimal number `[+-]digits[.digits][e±digits]`.
fn numeric_prefix(word: &str) -> &str {
    if is_special_number(word.trim_start_matches(['+', '-'])) {
        return word;
    }
    let b = word.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    while i < b.len() && b[i].is_ascii_digit() {
        i += 1;
    }
    if i < b.len() && b[i] == b'.' {
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        let digits = j;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
        if j > digits {
            i = j;
        }
    }
    &word[..i]
}

/// Seconds as Praat reads a number from a text file: a decimal read exactly
/// ([`parse_seconds`]), and what Praat also accepts — a fraction `a/b` (`1/2`, `-5/-2`), a
/// percentage `50%`, a C99 hexadecimal float `0x1.8p+0` — each read as `strtod` reads it, up
/// to the first character that is no part of the number (`2e1ignored` is 20). Fractions,
/// percentages and hexadecimal floats go through a float rounded to the microsecond.
fn praat_seconds(word: &str) -> std::result::Result<Time, TimeError> {
    let plain = numeric_prefix(word);
    let rest = &word[plain.len()..];
    let hex = is_hex_float(word);
    if !hex && !rest.starts_with(['/', '%']) {
        return parse_seconds(plain);
    }
    let value = match word.split_once('/') {
        Some((numerator, denominator)) => praat_term(numerator)? / praat_term(denominator)?,
        None => praat_term(word)?,
    };
    if value.is_nan() {
        return Err(TimeError::NotANumber);
    }
    Time::from_secs_f64(value).ok_or(TimeError::OutOfRange)
}

/// `0x…` or `[+-]0x…`.
fn is_hex_float(word: &str) -> bool {
    let w = word.trim_start_matches(['+', '-']);
    w.len() > 2 && (w.starts_with("0x") || w.starts_with("0X"))
}

/// One side of a fraction: a decimal or hexadecimal number, divided by 100 when a `%` follows.
fn praat_term(word: &str) -> std::result::Result<f64, TimeError> {
    let (value, rest) = if is_hex_float(word) {
        hex_float(word).ok_or(TimeError::Syntax)?
    } else {
        let n = numeric_prefix(word);
        if n.is_empty() || n == "+" || n == "-" {
            return Err(TimeError::Syntax);
        }
        let v: f64 = n.parse().map_err(|_| TimeError::Syntax)?;
        (v, &word[n.len()..])
    };
    Ok(if rest.starts_with('%') { value / 100.0 } else { value })
}

/// A C99 hexadecimal float `[+-]0x h* [. h*] [p [+-] d+]` at the start of `word`, and the rest.
fn hex_float(word: &str) -> Option<(f64, &str)> {
    let (sign, w) = match word.as_bytes().first() {
        Some(b'-') => (-1.0, &word[1..]),
        Some(b'+') => (1.0, &word[1..]),
        _ => (1.0, word),
    };
    let digits = w.get(2..)?;
    let b = digits.as_bytes();
    let (mut mantissa, mut exponent, mut i, mut any) = (0f64, 0i32, 0usize, false);
    let mut fraction = false;
    while i < b.len() {
        match (b[i] as char).to_digit(16) {
            Some(d) => {
                mantissa = mantissa * 16.0 + f64::from(d);
                any = true;
                if fraction {
                    exponent = exponent.saturating_sub(4);
                }
            }
            None if b[i] == b'.' && !fraction => fraction = true,
            None => break,
        }
        i += 1;
    }
    if !any {
        return None;
    }
    if i < b.len() && (b[i] == b'p' || b[i] == b'P') {
        let mut j = i + 1;
        let negative = b.get(j) == Some(&b'-');
        if matches!(b.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        let start = j;
        let mut e = 0i32;
        while j < b.len() && b[j].is_ascii_digit() {
            e = e.saturating_mul(10).saturating_add(i32::from(b[j] - b'0'));
            j += 1;
        }
        if j > start {
            exponent = exponent.saturating_add(if negative { -e } else { e });
            i = j;
        }
    }
    let value = sign * mantissa * 2f64.powi(exponent.clamp(-2000, 2000));
    Some((value, &digits[i..]))
}

impl<'t> Lexer<'t> {
    fn new(text: &'t str) -> Lexer<'t> {
        Lexer { text, pos: 0, glued: None }
    }

    /// The next token, `None` at the end, or an error for an unterminated string or flag.
    fn next_token(&mut self) -> std::result::Result<Option<Token<'t>>, (usize, String)> {
        let text = self.text;
        loop {
            let rest = &text[self.pos..];
            let Some(c) = rest.chars().next() else { return Ok(None) };
            if c.is_whitespace() || c == '\u{feff}' {
                self.pos += c.len_utf8();
                continue;
            }
            let at = self.pos;
            match c {
                '!' => {
                    self.pos += rest.find('\n').unwrap_or(rest.len());
                }
                '"' => {
                    let mut s = String::new();
                    let mut i = 1;
                    loop {
                        let Some(j) = rest[i..].find('"') else {
                            return Err((at, "string is never closed".to_owned()));
                        };
                        s.push_str(&rest[i..i + j]);
                        i += j + 1;
                        if rest[i..].starts_with('"') {
                            s.push('"');
                            i += 1;
                        } else {
                            break;
                        }
                    }
                    self.pos += i;
                    if rest[i..].starts_with(|ch: char| !ch.is_whitespace() && ch != '!') {
                        self.glued.get_or_insert(self.pos);
                    }
                    return Ok(Some(Token { tok: Tok::Str(s), at }));
                }
                '<' => {
                    let end = rest.find(['>', '\n', '"']);
                    match end {
                        Some(j) if rest.as_bytes()[j] == b'>' => {
                            self.pos += j + 1;
                            return Ok(Some(Token { tok: Tok::Flag(&rest[1..j]), at }));
                        }
                        _ => return Err((at, "flag `<` is never closed by `>`".to_owned())),
                    }
                }
                _ => {
                    let len = rest
                        .find(|ch: char| ch.is_whitespace() || ch == '"' || ch == '!')
                        .unwrap_or(rest.len());
                    let word = &rest[..len];
                    self.pos += len;
                    if starts_number(word) {
                        return Ok(Some(Token { tok: Tok::Num(word), at }));
                    }
                    // A label (`xmin`, `=`, `item`, `[1]:`, `tiers?`): skipped.
                }
            }
        }
    }
}

/// The reader's state: the lexer plus the context, with helpers that expect one kind of token.
struct Parser<'t, 'c, 'o> {
    lex: Lexer<'t>,
    index: LineIndex<'t>,
    ctx: &'c mut ReadContext<'o>,
    /// Position of the last token read, for errors at the end of the input.
    last: usize,
}

impl<'t> Parser<'t, '_, '_> {
    fn pos(&self, at: usize) -> (usize, usize) {
        self.index.position(at)
    }

    fn error_at(&self, at: usize, message: impl Into<String>) -> Error {
        let (line, column) = self.pos(at);
        self.ctx.error(line, column, message)
    }

    fn next(&mut self, what: &str) -> Result<Token<'t>> {
        match self.lex.next_token() {
            Ok(Some(t)) => {
                self.last = t.at;
                if let Some(at) = self.lex.glued.take() {
                    let (line, column) = self.pos(at);
                    self.ctx.warn_at(
                        WarningKind::Repaired,
                        line,
                        Some(column),
                        "text right after a closing quote (a `\"` inside a string is written `\"\"`); the string ends at the quote and the text is ignored",
                    )?;
                }
                Ok(t)
            }
            Ok(None) => {
                let end = self.lex.text.len();
                Err(self
                    .error_at(end, format!("the file ends where {what} was expected (truncated?)")))
            }
            Err((at, message)) => Err(self.error_at(at, message)),
        }
    }

    fn number_token(&mut self, what: &str) -> Result<(&'t str, usize)> {
        let t = self.next(what)?;
        match t.tok {
            Tok::Num(n) => Ok((n, t.at)),
            other => Err(self
                .error_at(t.at, format!("expected {what} (a number), found {}", describe(&other)))),
        }
    }

    fn time(&mut self, what: &str) -> Result<(Time, usize)> {
        let (n, at) = self.number_token(what)?;
        match praat_seconds(n) {
            Ok(t) => Ok((t, at)),
            Err(e) => {
                let (line, column) = self.pos(at);
                Err(self.ctx.time_error(e, n, what, line, column))
            }
        }
    }

    fn count(&mut self, what: &str) -> Result<(u64, usize)> {
        let (word, at) = self.number_token(what)?;
        let n = numeric_prefix(word);
        match n.parse::<u64>() {
            Ok(v) => Ok((v, at)),
            // Praat reads a negative count as none; so does this reader, as a repair.
            Err(_) if n.strip_prefix('-').is_some_and(|d| d.parse::<u64>().is_ok()) => {
                let (line, column) = self.pos(at);
                self.ctx.warn_at(
                    WarningKind::Repaired,
                    line,
                    Some(column),
                    format!("{what} is {n}; read as 0, as Praat reads it"),
                )?;
                Ok((0, at))
            }
            Err(_) => {
                Err(self.error_at(at, format!("expected {what} (a whole number ≥ 0), found {n:?}")))
            }
        }
    }

    fn string(&mut self, what: &str) -> Result<(String, usize)> {
        let t = self.next(what)?;
        match t.tok {
            Tok::Str(s) => Ok((s, t.at)),
            other => Err(self.error_at(
                t.at,
                format!("expected {what} (a quoted string), found {}", describe(&other)),
            )),
        }
    }
}

fn describe(t: &Tok<'_>) -> String {
    match t {
        Tok::Num(n) => format!("the number {n}"),
        Tok::Str(s) => format!("the string {:?}", s.chars().take(40).collect::<String>()),
        Tok::Flag(f) => format!("the flag <{f}>"),
    }
}

/// Reads a TextGrid (long or short text form): one recording, named by
/// [`ReadContext::recording_id`].
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    // Line-length cap: a TextGrid is read as tokens, but a hostile single line is still refused.
    for line in ctx.lines(text) {
        line?;
    }
    let id = ctx.recording_id();
    let mut p = Parser { lex: Lexer::new(text), index: LineIndex::new(text), ctx, last: 0 };
    let (file_type, at) = p.string("the file type `\"ooTextFile\"`")?;
    match file_type.as_str() {
        "ooTextFile" | "ooTextFile short" => {}
        chrono if chrono.contains("chronological") => {
            return Err(Error::unsupported(
                "chronological TextGrid; save it from Praat as a text file (long or short)",
            ))
        }
        "ooBinaryFile" => {
            return Err(Error::unsupported(
                "binary TextGrid (ooBinaryFile); save it from Praat as a text file",
            ))
        }
        other => {
            return Err(p.error_at(
                at,
                format!("file type {other:?}; a TextGrid text file starts with \"ooTextFile\""),
            ))
        }
    }
    let (class, at) = p.string("the object class `\"TextGrid\"`")?;
    if class != "TextGrid" {
        return Err(p.error_at(at, format!("object class {class:?}; expected \"TextGrid\"")));
    }
    let (xmin, _) = p.time("the grid's xmin")?;
    let (xmax, xmax_at) = p.time("the grid's xmax")?;
    let mut b = TranscriptBuilder::new();
    if xmin.micros() < 0 || xmax < xmin {
        let (line, column) = p.pos(xmax_at);
        p.ctx.warn_at(
            WarningKind::Repaired,
            line,
            Some(column),
            format!("grid extent {xmin}–{xmax} is not a valid span; not kept"),
        )?;
    } else {
        b.extent(Segment::new(xmin, xmax));
    }
    // `tiers? <exists>` (or `<absent>`: no tiers). Tolerate files that omit the flag.
    let t = p.next("`<exists>`")?;
    let tiers = match t.tok {
        Tok::Flag(f) if f.eq_ignore_ascii_case("exists") => p.count("the number of tiers")?.0,
        Tok::Flag(f) if f.eq_ignore_ascii_case("absent") => 0,
        Tok::Num(n) => {
            let (line, column) = p.pos(t.at);
            p.ctx.warn_at(
                WarningKind::Repaired,
                line,
                Some(column),
                "no `<exists>` flag before the tier count; read as if present",
            )?;
            numeric_prefix(n).parse::<u64>().map_err(|_| {
                p.error_at(t.at, format!("expected the number of tiers, found {n:?}"))
            })?
        }
        other => {
            return Err(p.error_at(t.at, format!("expected `<exists>`, found {}", describe(&other))))
        }
    };
    let mut read: Vec<IntervalTier> = Vec::new();
    for _ in 0..tiers {
        if let Some(tier) = read_tier(&mut p)? {
            read.push(tier);
        }
    }
    if let Ok(Some(t)) = p.lex.next_token() {
        let (line, column) = p.pos(t.at);
        p.ctx.warn_at(
            WarningKind::Skipped,
            line,
            Some(column),
            format!("{} after the last declared tier ignored", describe(&t.tok)),
        )?;
    }
    // Which tiers are speakers (see `tiers`): phone- and syllable-level tiers never, word-level
    // ones only when nothing else is there, and the reader's --tiers / --ignore-tiers.
    let webmaus = webmaus_grid(read.iter().map(|t| t.name.as_str()));
    let level = |name: &str| alignment_level(name, webmaus);
    for tier in &mut read {
        // A label that is the tier's own name is the writer's mark of speech without words
        // (see the writer): speech, even when the name is also a pause label (a speaker
        // called `sp` or `Sil`).
        let name = tier.name.trim().to_owned();
        let pause = |label: &str| label.trim() != name && is_pause_label(label);
        // Pause labels besides SPPAS's `#` (below).
        let pauses =
            tier.intervals.iter().filter(|(_, label)| pause(label) && label.trim() != "#").count();
        if level(&tier.name).is_some() {
            tier.intervals.retain(|(_, label)| !pause(label));
        } else if pauses >= 2 && pauses * 10 >= tier.intervals.len() {
            // An utterance tier written by an aligner's conventions (SPPAS, MAUS, HTK: `sil`
            // between the utterances): its pause labels are silence too. One `sil` alone may
            // be a word.
            tier.intervals.retain(|(_, label)| !pause(label));
            let (line, column) = p.pos(tier.at);
            p.ctx.warn_at(
                WarningKind::Note,
                line,
                Some(column),
                format!("tier {:?}: {pauses} intervals labelled as an aligner's pause (`sil`, `sp`, `<p:>`…) read as silence", tier.name),
            )?;
        } else {
            // SPPAS marks the silences of every tier, its IPU tier too, with `#`.
            tier.intervals.retain(|(_, label)| label.trim() == name || label.trim() != "#");
        }
        // A transcriber's pause notation (`--`) alone is silence in any tier.
        tier.intervals.retain(|(_, label)| label.trim() == name || !is_dash_pause(label));
        // Praat's `To TextGrid (silences)`: `silent` and one label for the rest.
        if let Some((silent, sounding)) = silence_detection(&tier.intervals) {
            tier.intervals.retain(|(_, label)| label != "silent");
            tier.marks = true;
            let (line, column) = p.pos(tier.at);
            p.ctx.warn_at(
                WarningKind::Note,
                line,
                Some(column),
                format!("tier {:?} is a silence detection (Praat's `To TextGrid (silences)`): its {silent} `silent` interval(s) read as silence, its {sounding:?} ones as speech without words", tier.name),
            )?;
        }
    }
    // FAVE's aligned-TextGrid layout: `X - turns` marks X's turns (every label `X`) beside the
    // `X - words` tier; the words are the speech, the marks only bracket it.
    let has_word_tier = |speaker: &str| {
        read.iter()
            .any(|t| level(&t.name) == Some(Level::Word) && word_tier_speaker(&t.name) == speaker)
    };
    let marks_beside_words: Vec<bool> =
        read.iter().map(|t| turn_marks_speaker(t).is_some_and(&has_word_tier)).collect();
    let speaker_tiers: Vec<&IntervalTier> = read
        .iter()
        .zip(&marks_beside_words)
        .filter(|(t, beside)| level(&t.name).is_none() && !**beside)
        .map(|(t, _)| t)
        .collect();
    let aligned: Vec<bool> = read
        .iter()
        .map(|t| level(&t.name) == Some(Level::Word) && aligns_with_speakers(t, &speaker_tiers))
        .collect();
    let (mains, parallel) = participant_tiers(&read, &marks_beside_words, webmaus);
    let parallel: Vec<Option<String>> = parallel
        .into_iter()
        .map(|of| {
            of.map(|j| {
                format!(
                    "another annotation of the intervals of {:?} (ELAN's `tier@participant`)",
                    read[j].name
                )
            })
        })
        .collect();
    // A tier named for notes, a translation or glosses, at least half of whose labelled
    // intervals are intervals of another speaker tier (the same start and end within
    // [`GLOSS_TOLERANCE`]: one gloss per word, its boundaries drawn again by hand or rounded
    // by an export), annotates that speech: left out.
    // The spans of the other speaker tiers, sorted by start: a lookup per interval visits the
    // spans that start within the tolerance, at most [`GLOSS_CANDIDATES`] of them, which keeps
    // this linear in the grid's size however many intervals the tiers hold.
    let mut speaker_spans: Vec<Segment> = speaker_tiers
        .iter()
        .filter(|t| !names_notes(&t.name))
        .flat_map(|t| t.intervals.iter().map(|(s, _)| *s))
        .collect();
    speaker_spans.sort_unstable_by_key(|s| (s.start(), s.end()));
    let annotates: Vec<bool> = read
        .iter()
        .map(|t| {
            let shared =
                t.intervals.iter().filter(|(seg, _)| same_span(&speaker_spans, *seg)).count();
            level(&t.name).is_none()
                && names_notes(&t.name)
                && !t.intervals.is_empty()
                && 2 * shared >= t.intervals.len()
        })
        .collect();
    let defaults: Vec<Option<String>> = read
        .iter()
        .zip(aligned.iter().zip(&annotates))
        .zip(&marks_beside_words)
        .zip(&parallel)
        .map(|(((tier, (&aligned, &annotates)), &beside_words), parallel)| {
            let default = match level(&tier.name) {
                Some(Level::Phone) => Some("phone- or syllable-level alignment"),
                Some(Level::Annotation) => {
                    Some("an aligner's annotation of the signal, not speech")
                }
                Some(Level::Word) if aligned => {
                    Some("word-level alignment of a speaker tier already read")
                }
                _ if beside_words => Some("turn marks of a speaker whose word tier is read"),
                _ if annotates => Some(
                    "its name says it holds notes, a translation, glosses, morphemes or parts of speech: an annotation of the speech, not a speaker",
                ),
                _ => parallel.as_deref(),
            };
            p.ctx.options().tiers.left_out(&tier.name, default)
        })
        .collect();
    let span = (xmin.micros() >= 0).then(|| Segment::new(xmin, xmax)).flatten();
    let remarks = remark_tiers(&read, &defaults, span, p.ctx.options().tiers.only.is_empty());
    let mut left_out: Vec<(String, String)> = Vec::new();
    let mut first_left_out = (0, 0);
    // Tiers whose labels are only the speaker's name: the first's position, their names.
    let mut labels_are_names: Option<((usize, usize), Vec<String>)> = None;
    let tiers = read.into_iter().zip(defaults.into_iter().zip(remarks)).zip(mains);
    for ((tier, (default, remark)), main) in tiers {
        if let Some(why) = default.or(remark) {
            if left_out.is_empty() {
                first_left_out = p.pos(tier.at);
            }
            left_out.push((tier.name, why));
            continue;
        }
        let name = match level(&tier.name) {
            Some(Level::Word) => word_tier_speaker(&tier.name),
            _ => match participant(&tier.name).filter(|_| main) {
                Some(p) => p,
                None => turn_marks_speaker(&tier).unwrap_or(&tier.name),
            },
        };
        let speaker = b.speaker(name);
        // Every interval labelled with the speaker's name marks speech without words: how
        // this module writes a diarization (a blank interval is silence), and how other tools
        // export one. Read as words, the names would turn a timing analysis into text mode.
        let named = !tier.intervals.is_empty()
            && tier.intervals.iter().all(|(_, l)| l.trim() == name || l.trim() == tier.name);
        if named {
            labels_are_names.get_or_insert((p.pos(tier.at), Vec::new())).1.push(tier.name.clone());
        }
        for (seg, label) in tier.intervals {
            b.push(seg, speaker, (!named && !tier.marks).then(|| Content::text(label)));
        }
    }
    if let Some(((line, column), tiers)) = labels_are_names {
        p.ctx.warn_at(
            WarningKind::Note,
            line,
            Some(column),
            format!(
                "{} tier(s) whose every interval is labelled with the speaker's name ({}): read as speech without words",
                tiers.len(),
                tiers.iter().map(|t| format!("{t:?}")).collect::<Vec<_>>().join(", ")
            ),
        )?;
    }
    if let Some(note) = left_out_note(&left_out, first_left_out) {
        p.ctx.warn(note)?;
    }
    Ok(Corpus::single(id, b.build()))
}

/// Fewest labelled intervals a speaker tier has beside a tier of remarks over the whole grid
/// ([`remark_tiers`]).
const REMARKS_BESIDE: usize = 10;

/// Most labelled intervals a tier of remarks over the whole grid has ([`remark_tiers`]).
const REMARKS_MOST: usize = 3;

/// Why each tier still read as a speaker after the other rules (`defaults[i]` is `None`) holds
/// remarks on the recording rather than speech, or `None` to read it:
///
/// - its name is nothing but words of the note list, one of them a remark's
///   ([`names_only_notes`]: `Errors`, `Comments`, `notes`, `misc`), whatever it holds; or
/// - its labelled intervals are few (at most [`REMARKS_MOST`]), cover at least nine tenths of
///   the grid (`span`), hold fewer words than one every two seconds they cover, and one of
///   them is a phrase (two words or more), while another tier read carries at least
///   [`REMARKS_BESIDE`]: one remark over the whole recording beside a speaker's many turns,
///   which read as speech would make a speaker who talks over everyone all the time. Speech
///   that long holds more words (people say two or three a second); a tier whose labels are
///   single tokens (`speech`, `sounding`, `x`, its own name: speech without words, as a
///   speech/no-speech grid or this module's diarization writes it) is a speaker whatever it
///   covers: an interviewee who talks through nearly the whole grid beside the interviewer's
///   ten short turns.
///
/// A tier is set aside so only while another tier with speech is read that is not set aside:
/// the only tier of a grid stays its speaker. `defaults_apply` is false under `--tiers`, which
/// reads exactly the tiers it names.
fn remark_tiers(
    read: &[IntervalTier],
    defaults: &[Option<String>],
    span: Option<Segment>,
    defaults_apply: bool,
) -> Vec<Option<String>> {
    let mut out = vec![None; read.len()];
    if !defaults_apply {
        return out;
    }
    let kept: Vec<usize> = (0..read.len()).filter(|&i| defaults[i].is_none()).collect();
    let most = kept
        .iter()
        .filter(|&&i| !names_only_notes(&read[i].name))
        .map(|&i| read[i].intervals.len())
        .max()
        .unwrap_or(0);
    for &i in &kept {
        let tier = &read[i];
        if names_only_notes(&tier.name) {
            out[i] = Some(
                "its name says it holds notes, comments, remarks or errors, not a speaker's speech"
                    .to_owned(),
            );
            continue;
        }
        let n = tier.intervals.len();
        let (Some(span), true) = (span, (1..=REMARKS_MOST).contains(&n)) else { continue };
        let covered: i64 = tier.intervals.iter().map(|(s, _)| s.duration().micros()).sum();
        let words: i64 =
            tier.intervals.iter().map(|(_, l)| l.split_whitespace().count() as i64).sum();
        // A remark is a phrase ("door slams"); a label of one token is a mark of speech
        // ("speech", "sounding", "x", "1", the tier's name), as a speech/no-speech grid
        // writes a speaker who talks through nearly all of it.
        let phrase = tier.intervals.iter().any(|(_, l)| l.split_whitespace().nth(1).is_some());
        let sparse = words * 2_000_000 < covered;
        if most >= REMARKS_BESIDE
            && 10 * covered >= 9 * span.duration().micros()
            && sparse
            && phrase
            && !tier.marks
        {
            out[i] = Some(format!(
                "{n} labelled interval(s) over {}% of the grid beside a tier of {most}: remarks on the recording, not a speaker's speech",
                100 * covered / span.duration().micros().max(1)
            ));
        }
    }
    // The only tier with speech stays a speaker.
    let speech_left = kept.iter().any(|&i| out[i].is_none() && !read[i].intervals.is_empty());
    if !speech_left {
        out.iter_mut().for_each(|o| *o = None);
    }
    out
}

/// The participant `P` of a tier named `type@P`, as ELAN names the tiers of a Toolbox or FLEx
/// layout (`ref@RLP`, `trs@RLP`, `eng@RLP`), which its TextGrid export keeps.
fn participant(name: &str) -> Option<&str> {
    let (kind, who) = name.trim().rsplit_once('@')?;
    // Not an e-mail address (`ann@example.com`), which names a speaker whole.
    let code = !who.is_empty() && !who.contains(|c: char| c.is_whitespace() || c == '.');
    (!kind.trim().is_empty() && code).then_some(who)
}

/// ELAN's `type@participant` tiers exported to a TextGrid: one participant's transcription
/// and its translations on the same intervals are one speaker, not several talking at once.
/// Gives for each tier whether it is the main tier of its participant's others (its speaker
/// is then the participant), and the tier it annotates, if any. A participant's main tier is
/// its first tier with speech whose type names a transcription ([`transcription_type`]),
/// else its first whose labels are not all segment ids such as a `ref` tier's `RLP_001`, else
/// its first with speech. Another of its tiers annotates the main tier when nine tenths of its
/// intervals or more start and end with one of the main tier's, within 10 ms, as ELAN's
/// dependent tiers share their parent's boundaries; those are left out. Tiers that do not
/// (`host@studio` and `guest@studio`, two people talking in turns) keep their own names.
///
/// ```text
/// ref@RLP  | RLP_001      |      | RLP_002 |    ids: left out
/// trs@RLP  | tsa' a-kaj … |      | …       |    speaker RLP, its words
/// eng@RLP  | they began … |      | …       |    the same intervals: left out
/// ```
fn participant_tiers(
    read: &[IntervalTier],
    beside_words: &[bool],
    webmaus: bool,
) -> (Vec<bool>, Vec<Option<usize>>) {
    let candidate =
        |k: usize| alignment_level(&read[k].name, webmaus).is_none() && !beside_words[k];
    let mut shared: Vec<(&str, Vec<usize>)> = Vec::new();
    for (k, t) in read.iter().enumerate() {
        let Some(p) = participant(&t.name).filter(|_| candidate(k)) else { continue };
        match shared.iter_mut().find(|(q, _)| *q == p) {
            Some((_, tiers)) => tiers.push(k),
            None => shared.push((p, vec![k])),
        }
    }
    shared.retain(|(_, tiers)| tiers.len() >= 2);
    let sorted = |t: &IntervalTier| {
        let mut v: Vec<Segment> = t.intervals.iter().map(|(s, _)| *s).collect();
        v.sort_unstable();
        v
    };
    // A segment id (`RLP_001`, `12`): one token with a digit.
    let ids = |t: &IntervalTier| {
        t.intervals.iter().all(|(_, l)| {
            let l = l.trim();
            !l.contains(char::is_whitespace) && l.contains(|c: char| c.is_ascii_digit())
        })
    };
    let mut parallel = vec![None; read.len()];
    for (_, tiers) in &shared {
        let spoken = tiers.iter().copied().filter(|&k| !read[k].intervals.is_empty());
        let words = spoken.clone().filter(|&k| !ids(&read[k]));
        let main = words
            .clone()
            .find(|&k| transcription_type(&read[k].name))
            .or_else(|| words.clone().next())
            .or_else(|| spoken.clone().next());
        let Some(main) = main else { continue };
        let cover = sorted(&read[main]);
        for &k in tiers.iter().filter(|&&k| k != main) {
            let own = sorted(&read[k]);
            // ELAN's dependent tiers share their parent's boundaries (an empty one, such as a
            // `ref` tier exported without its ids, annotates nothing of its own).
            let shared = own.iter().filter(|s| same_boundaries(&cover, s)).count();
            if 10 * shared >= 9 * own.len() {
                parallel[k] = Some(main);
            }
        }
    }
    // Only a main tier that others annotate is named by its participant.
    let mains = (0..read.len()).map(|k| parallel.contains(&Some(k))).collect();
    (mains, parallel)
}

/// Whether a tier `type@P`'s type names a transcription (`trs@RLP`, `tx@A`, `utterance@B`),
/// not a translation or gloss: such a tier is its participant's main tier before file order.
fn transcription_type(name: &str) -> bool {
    let Some((kind, _)) = name.trim().rsplit_once('@') else { return false };
    ["trs", "tx", "transcription", "utterance", "orth", "ortho", "words"]
        .iter()
        .any(|t| kind.trim().eq_ignore_ascii_case(t))
}

/// Whether `sorted` (segments in order) holds one with the start and the end of `seg`, each
/// within 10 ms (ELAN's export rounds its milliseconds).
fn same_boundaries(sorted: &[Segment], seg: &Segment) -> bool {
    let near = |a: Time, b: Time| (a.micros() - b.micros()).abs() <= 10_000;
    let from = sorted.partition_point(|s| s.start().micros() < seg.start().micros() - 10_000);
    sorted[from..]
        .iter()
        .take_while(|s| s.start().micros() <= seg.start().micros() + 10_000)
        .any(|s| near(s.start(), seg.start()) && near(s.end(), seg.end()))
}

/// An interval tier as read: its name, where it starts, and its non-empty intervals.
struct IntervalTier {
    name: String,
    at: usize,
    intervals: Vec<(Segment, String)>,
    /// Whether its labels mark speech without being words (Praat's `sounding`).
    marks: bool,
}

/// The speaker `X` of a tier of turn marks: named `X - turns` or `X-turns` (FAVE, the
/// aligned-TextGrid layout), every interval labelled `X`.
///
/// ```text
/// KY25A - words  | yeah |     | well | i  | think |
/// KY25A - turns         |=========== KY25A ========|   marks: speaker KY25A, no words
/// ```
fn turn_marks_speaker(tier: &IntervalTier) -> Option<&str> {
    let (speaker, level) = tier.name.rsplit_once('-')?;
    let (speaker, level) = (speaker.trim(), level.trim());
    let turns = level.eq_ignore_ascii_case("turns") || level.eq_ignore_ascii_case("turn");
    (turns
        && !speaker.is_empty()
        && !tier.intervals.is_empty()
        && tier.intervals.iter().all(|(_, label)| label.trim() == speaker))
    .then_some(speaker)
}

/// The intervals of Praat's `To TextGrid (silences)`: labelled `silent` (its default, which
/// users keep, written in lower case) and one other label for the rest (`sounding` by default,
/// or the user's own, such as `utterance`), each at least twice, the two alternating and each
/// interval ending where the next starts, as Praat writes them: the labels tile the tier. Gives
/// how many are `silent` and the other label. A speaker tier whose words happen to include
/// `Silent` (a name) or `silent` beside different words is not one.
///
/// ```text
/// silences | sounding | silent | sounding | silent | sounding |
///            speech     silence  speech     silence  speech
/// ```
fn silence_detection(intervals: &[(Segment, String)]) -> Option<(usize, String)> {
    let is_silent = |label: &str| label == "silent";
    let silent = intervals.iter().filter(|(_, l)| is_silent(l)).count();
    let mut others = intervals.iter().map(|(_, l)| l.as_str()).filter(|l| !is_silent(l));
    let other = others.next()?;
    let sounding = 1 + others.clone().count();
    if silent < 2 || sounding < 2 || !others.all(|l| l == other) {
        return None;
    }
    let mut sorted: Vec<&(Segment, String)> = intervals.iter().collect();
    sorted.sort_by_key(|(seg, _)| *seg);
    let tiled = sorted.windows(2).all(|w| {
        let ((a, la), (b, lb)) = (w[0], w[1]);
        a.end() == b.start() && is_silent(la) != is_silent(lb)
    });
    tiled.then(|| (silent, other.to_owned()))
}

/// Labels aligners write for a pause inside an alignment tier (HTK/MFA `sil`, `sp`; MAUS
/// `<p:>`; CMU `SIL`, `<sil>`, `pau`): silence, not speech.
fn is_pause_label(label: &str) -> bool {
    let l = label.trim();
    ["sil", "sp", "<sil>", "<p:>", "<p>", "pau", "{sl}", "#"]
        .iter()
        .any(|p| l.eq_ignore_ascii_case(p))
}

/// Whether the word tier `words` is the word-level alignment of speaker tiers already read:
/// at least half of its words' time lies inside tiers that are themselves largely words of it
/// (at least a third of their speech under its words; an utterance interval includes its
/// pauses, and is often padded with silence at both ends). A tier of labels that spans the
/// whole grid (a quality-control or `Errors` tier, `.` everywhere) covers the words but is
/// mostly not under them, so it does not make the word tier redundant:
///
/// ```text
/// words   |  right  |      | then |        |  i'll  |        words: 3 s of speech
/// speaker |=== utterance ===|=== utterance ========|   mostly under words: aligned
/// Errors  |..................loud silence...........|  not: the words stay a speaker
/// ```
fn aligns_with_speakers(words: &IntervalTier, speakers: &[&IntervalTier]) -> bool {
    let sorted = |t: &IntervalTier| {
        let mut v: Vec<Segment> = t.intervals.iter().map(|(s, _)| *s).collect();
        v.sort_unstable();
        v
    };
    let spoken_words = sorted(words);
    let spoken = total(&spoken_words);
    if spoken == 0 {
        return !speakers.is_empty();
    }
    let mut covering: Vec<Segment> = Vec::new();
    for tier in speakers {
        let speech = sorted(tier);
        let own = total(&speech);
        if own > 0 && 3 * overlap(&spoken_words, &speech) >= own {
            covering.extend(speech);
        }
    }
    covering.sort_unstable();
    2 * overlap(&covering, &spoken_words) >= spoken
}

/// Microseconds covered by `segments` (sorted by start; counted once where they overlap).
fn total(segments: &[Segment]) -> i64 {
    let (mut sum, mut reach) = (0i64, i64::MIN);
    for s in segments {
        let (a, b) = (s.start().micros().max(reach), s.end().micros());
        if b > a {
            sum += b - a;
            reach = b;
        }
    }
    sum
}

/// Microseconds of `intervals` that lie inside `cover` (both sorted by start; `intervals`
/// disjoint, as the intervals of one tier are).
fn overlap(cover: &[Segment], intervals: &[Segment]) -> i64 {
    let mut sum = 0i64;
    let mut j = 0usize;
    for s in intervals {
        let (a, b) = (s.start().micros(), s.end().micros());
        while j < cover.len() && cover[j].end().micros() <= a {
            j += 1;
        }
        let mut reach = a;
        for c in &cover[j..] {
            if c.start().micros() >= b {
                break;
            }
            let (from, to) = (c.start().micros().max(reach), c.end().micros().min(b));
            if to > from {
                sum += to - from;
                reach = to;
            }
        }
    }
    sum
}

/// Reads one tier: an interval tier, or `None` for a point tier (skipped with a note).
fn read_tier(p: &mut Parser<'_, '_, '_>) -> Result<Option<IntervalTier>> {
    let (class, class_at) = p.string("the tier class (\"IntervalTier\" or \"TextTier\")")?;
    let (name, _) = p.string("the tier name")?;
    let _ = p.time("the tier's xmin")?;
    let _ = p.time("the tier's xmax")?;
    let (n, _) = p.count("the number of intervals or points")?;
    match class.as_str() {
        "IntervalTier" => {
            let mut intervals = Vec::new();
            for _ in 0..n {
                let (start, _) = p.time("an interval's xmin")?;
                let (end, end_at) = p.time("an interval's xmax")?;
                let (label, _) = p.string("an interval's text")?;
                if label.trim().is_empty() {
                    continue;
                }
                let index = &p.index;
                if let Some(seg) = segment_at(p.ctx, start, end, || index.position(end_at))? {
                    intervals.push((seg, label));
                }
            }
            // Declared even without intervals (an empty tier is a silent speaker).
            return Ok(Some(IntervalTier { name, at: class_at, intervals, marks: false }));
        }
        "TextTier" | "PointTier" => {
            let (line, column) = p.pos(class_at);
            p.ctx.warn_at(
                WarningKind::Note,
                line,
                Some(column),
                format!("point tier {name:?} skipped (points have no duration)"),
            )?;
            for _ in 0..n {
                let _ = p.time("a point's time")?;
                let _ = p.string("a point's mark")?;
            }
        }
        other => {
            return Err(p.error_at(
                class_at,
                format!("unknown tier class {other:?}; expected \"IntervalTier\" or \"TextTier\""),
            ))
        }
    }
    Ok(None)
}

/// Splits tracks into layers whose tracks do not overlap: each track goes to the first layer
/// whose last track ends at or before its start (tracks are in start order).
///
/// ```text
/// tracks   [a----)  [c--)
///             [b-----)
/// layer 1  [a----)  [c--)
/// layer 2     [b-----)
/// ```
pub(crate) fn layers(segments: impl IntoIterator<Item = (Segment, usize)>) -> Vec<Vec<usize>> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    // First fit in O(n log n): layers that are free at the current start (their last track has
    // ended; starts only grow, so they stay free) by index, busy layers by end.
    let mut layers: Vec<Vec<usize>> = Vec::new();
    let mut free: BinaryHeap<Reverse<usize>> = BinaryHeap::new();
    let mut busy: BinaryHeap<Reverse<(Time, usize)>> = BinaryHeap::new();
    for (seg, i) in segments {
        while let Some(&Reverse((end, k))) = busy.peek() {
            if end > seg.start() {
                break;
            }
            busy.pop();
            free.push(Reverse(k));
        }
        let k = match free.pop() {
            Some(Reverse(k)) => k,
            None => {
                layers.push(Vec::new());
                layers.len() - 1
            }
        };
        layers[k].push(i);
        busy.push(Reverse((seg.end(), k)));
    }
    layers
}

/// Tier names for a speaker split into `n` layers: `Name`, `Name (2)`, …, skipping names
/// already taken.
pub(crate) fn layer_names(
    name: &str,
    n: usize,
    taken: &mut std::collections::HashSet<String>,
) -> Vec<String> {
    let mut out = Vec::with_capacity(n);
    let mut k = 1;
    while out.len() < n {
        let candidate = if k == 1 { name.to_owned() } else { format!("{name} ({k})") };
        k += 1;
        if out.is_empty() || taken.insert(candidate.clone()) {
            out.push(candidate);
        }
    }
    out
}

/// The tracks of each speaker, in time order, as indices into the annotation's tracks.
pub(crate) fn tracks_by_speaker(t: &Transcript) -> Vec<(SpeakerId, Vec<usize>)> {
    let a = t.annotation();
    let mut per: Vec<Vec<usize>> = vec![Vec::new(); a.speakers().len()];
    for (i, track) in a.tracks().iter().enumerate() {
        if let Some(v) = per.get_mut(track.speaker.index()) {
            v.push(i);
        }
    }
    a.speakers().ids().zip(per).collect()
}

fn quote(s: &str) -> String {
    format!("\"{}\"", s.replace('"', "\"\""))
}

/// Writes the long text form: one IntervalTier per speaker (more for a speaker who overlaps
/// themselves, with a warning), silence filling the gaps.
pub fn write(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    let mut warnings = Vec::new();
    let empty = Transcript::default();
    let t = corpus.iter().next().map_or(&empty, |(_, t)| t);
    let a = t.annotation();
    let start = t.declared_extent().map_or(Time::ZERO, |e| e.start());
    let start = a.extent().map_or(start, |e| start.min(e.start()));
    let end = t.span().map_or(start, |s| s.end()).max(start);

    // Tiers: (name, track indices in time order).
    let mut tiers: Vec<(String, Vec<usize>)> = Vec::new();
    for (speaker, tracks) in tracks_by_speaker(t) {
        let name = a.speaker_name(speaker);
        let split = layers(tracks.iter().map(|&i| (a.tracks()[i].segment, i)));
        if split.len() > 1 {
            warnings.push(Warning::new(
                WarningKind::Repaired,
                format!(
                    "speaker {name:?} overlaps themselves; written as {} tiers all named {name:?} (the intervals of one tier cannot overlap; tiers of one name read back as one speaker)",
                    split.len(),
                ),
            ));
        }
        if split.is_empty() {
            tiers.push((name.to_owned(), Vec::new()));
        }
        // Every layer keeps the speaker's name: Praat allows tiers of the same name, and
        // reading merges them into one speaker, so no second person is invented.
        tiers.extend(split.into_iter().map(|layer| (name.to_owned(), layer)));
    }

    let mut s = String::new();
    use std::fmt::Write as _;
    let _ = write!(
        s,
        "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n\nxmin = {start} \nxmax = {end} \ntiers? <exists> \nsize = {} \nitem []: \n",
        tiers.len()
    );
    for (k, (name, tracks)) in tiers.iter().enumerate() {
        // Intervals: speech, and silence for every gap.
        let mut intervals: Vec<(Time, Time, String)> = Vec::new();
        let mut cursor = start;
        for &i in tracks {
            let seg = a.tracks()[i].segment;
            if seg.start() > cursor {
                intervals.push((cursor, seg.start(), String::new()));
            }
            let mut label = t.contents()[i].as_ref().map(Content::display_text).unwrap_or_default();
            if label.trim().is_empty() {
                label = if name.trim().is_empty() { "speech".to_owned() } else { name.clone() };
                if t.contents()[i].as_ref().is_some_and(|c| !c.is_empty()) {
                    warnings.push(Warning::new(
                        WarningKind::Repaired,
                        "blank text written as the speaker's name (a blank interval is silence)",
                    ));
                }
            }
            intervals.push((seg.start(), seg.end(), label));
            cursor = seg.end();
        }
        if cursor < end || intervals.is_empty() {
            intervals.push((cursor, end, String::new()));
        }
        let _ = write!(
            s,
            "    item [{}]:\n        class = \"IntervalTier\" \n        name = {} \n        xmin = {start} \n        xmax = {end} \n        intervals: size = {} \n",
            k + 1,
            quote(name),
            intervals.len()
        );
        for (j, (x0, x1, label)) in intervals.iter().enumerate() {
            let _ = write!(
                s,
                "        intervals [{}]:\n            xmin = {x0} \n            xmax = {x1} \n            text = {} \n",
                j + 1,
                quote(label)
            );
        }
        if s.len() > 1 << 16 {
            out.write_all(s.as_bytes())?;
            s.clear();
        }
    }
    out.write_all(s.as_bytes())?;
    Ok(warnings)
}

/// How far apart the boundaries of a gloss or notes tier's interval and a speaker tier's may be
/// for the one to annotate the other (each of start and end): 20 ms, two frames of Praat's
/// usual 10 ms analysis step. A gloss drawn again by hand under a word, or a speaker tier and
/// its notes exported separately with times rounded, differ by a few milliseconds; two
/// speakers' turns that share both boundaries within 20 ms are not what such a tier holds.
const GLOSS_TOLERANCE: Delta = Delta::from_micros(20_000);

/// The most spans [`same_span`] compares an interval with: the spans of the speaker tiers
/// that start within [`GLOSS_TOLERANCE`] of it are few (one a tier, in well-formed tiers), and
/// a hostile grid of many spans at one start is not compared pair by pair.
const GLOSS_CANDIDATES: usize = 64;

/// Whether `spans` (sorted by start, then end) holds one whose start and end are both within
/// [`GLOSS_TOLERANCE`] of `seg`'s.
fn same_span(spans: &[Segment], seg: Segment) -> bool {
    let near = |a: Time, b: Time| (a - b).abs() <= GLOSS_TOLERANCE;
    let from = spans.partition_point(|s| s.start() < seg.start().saturating_sub(GLOSS_TOLERANCE));
    spans[from..]
        .iter()
        .take(GLOSS_CANDIDATES)
        .take_while(|s| s.start() <= seg.start().saturating_add(GLOSS_TOLERANCE))
        .any(|s| near(s.start(), seg.start()) && near(s.end(), seg.end()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Speech without words is written under the speaker's name; a speaker whose name is also a
    /// pause label (`sp`, `Sil`, `#`, `--`) still reads back as speech.
    #[test]
    fn speakers_named_like_pauses_round_trip() {
        use crate::model::{Segment, TranscriptBuilder};
        use crate::time::Time;
        let mut b = TranscriptBuilder::new();
        let at = |a: i64, z: i64| Segment::new(Time::from_micros(a), Time::from_micros(z)).unwrap();
        for (i, name) in ["sp", "Sil", "#", "--", "pau"].iter().enumerate() {
            let start = i as i64 * 1_000_000;
            b.add(at(start, start + 1), name, None);
            b.add(at(start + 1, start + 2), name, None);
        }
        let t = b.build();
        let corpus = Corpus::single("r", t.clone());
        let mut out = Vec::new();
        write(&corpus, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let back = crate::format::read_str(&text, Format::TextGrid, &Default::default()).unwrap();
        assert_eq!(back.corpus.iter().next().unwrap().1.annotation(), t.annotation());
    }
    use crate::format::{read_str, Format, ReadOptions};

    fn read_text(text: &str) -> crate::format::ReadOutput {
        read_str(text, Format::TextGrid, &ReadOptions::default()).unwrap()
    }

    #[test]
    fn a_negative_count_is_none_as_praat_reads_it() {
        // Praat's own reader (readtextgrid's "hard to parse" test file): -10 points are 0.
        let grid = "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0\n2\n<exists>\n2\n\"TextTier\"\n\"marks\"\n0\n2\n-10\n\"IntervalTier\"\n\"A\"\n0\n2\n1\n0\n2\n\"hi\"\n";
        let out = read_text(grid);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w[0], (WarningKind::Repaired, Some(11), Some(1)), "{:?}", out.warnings);
        assert_eq!(out.corpus.get("recording").unwrap().annotation().len(), 1);
        let strict = ReadOptions { strict: true, ..Default::default() };
        assert!(read_str(grid, Format::TextGrid, &strict).is_err());
    }

    #[test]
    fn text_glued_to_a_closing_quote_is_a_repair() {
        let grid = "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0\n2\n<exists>\n1\n\"IntervalTier\"\n\"A\"\n0\n2\n1\n0\n2\n\"ad\"x\n";
        let out = read_text(grid);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::Repaired, Some(14), Some(5))]);
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.contents()[0].as_ref().and_then(|c| c.text.as_deref()), Some("ad"));
        let strict = ReadOptions { strict: true, ..Default::default() };
        let e = read_str(grid, Format::TextGrid, &strict).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(14), Some(5)));
        // `""` inside a string is a quote, not glued text.
        let fine = grid.replace("\"ad\"x", "\"a\"\"d\"");
        assert!(read_str(&fine, Format::TextGrid, &strict).unwrap().warnings.is_empty());
    }

    /// A grid with one interval tier per name, each with one interval 0–1 s labelled `x`.
    fn grid(names: &[&str]) -> String {
        let mut g = format!(
            "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0\n1\n<exists>\n{}\n",
            names.len()
        );
        for n in names {
            g.push_str(&format!("\"IntervalTier\"\n\"{n}\"\n0\n1\n1\n0\n1\n\"x\"\n"));
        }
        g
    }

    fn speakers_of(out: &crate::format::ReadOutput) -> Vec<String> {
        let a = out.corpus.get("recording").unwrap().annotation();
        a.speakers().iter().map(|(_, n)| n.to_owned()).collect()
    }

    #[test]
    fn an_utterance_tier_with_aligner_pauses_reads_them_as_silence() {
        // SPPAS: `sil` between the utterances of an ordinary tier.
        let labels = ["sil", "1 + metre", "sil", "2 metres", "sil", "3 metres"];
        let mut g = format!(
            "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0\n6\n<exists>\n1\n\"IntervalTier\"\n\"Transcription\"\n0\n6\n{}\n",
            labels.len()
        );
        for (i, l) in labels.iter().enumerate() {
            g.push_str(&format!("{i}\n{}\n\"{l}\"\n", i + 1));
        }
        let out = read_text(&g);
        let t = out.corpus.get("recording").unwrap();
        let texts: Vec<_> =
            t.contents().iter().map(|c| c.as_ref().and_then(|c| c.text.clone())).collect();
        assert_eq!(texts.len(), 3, "{texts:?}");
        assert!(texts.iter().all(|x| x.as_deref().is_some_and(|x| x.contains("metre"))));
        let notes: Vec<_> = out.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            notes,
            ["tier \"Transcription\": 3 intervals labelled as an aligner's pause (`sil`, `sp`, `<p:>`…) read as silence"]
        );
        // One `sil` among many utterances is left as it is.
        let one = g.replacen("\"sil\"", "\"a\"", 2);
        assert_eq!(read_text(&one).corpus.get("recording").unwrap().contents().len(), 6);
    }

    /// Praat's `To TextGrid (silences)` (the textgrid package's `sampleUtterances.TextGrid`
    /// labels the rest `utterance`): `silent` is silence, the other label speech without words.
    #[test]
    fn a_silence_detection_tier_reads_silent_as_silence() {
        let labels = ["utterance", "silent", "utterance", "silent", "utterance"];
        let mut g = format!(
            "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0\n5\n<exists>\n1\n\"IntervalTier\"\n\"silences\"\n0\n5\n{}\n",
            labels.len()
        );
        for (i, l) in labels.iter().enumerate() {
            g.push_str(&format!("{i}\n{}\n\"{l}\"\n", i + 1));
        }
        let out = read_text(&g);
        let t = out.corpus.get("recording").unwrap();
        let spans: Vec<_> = t.utterances().map(|u| u.segment).collect();
        let at = |a, b| Segment::from_millis(a, b).unwrap();
        assert_eq!(spans, [at(0, 1000), at(2000, 3000), at(4000, 5000)]);
        assert!(t.contents().iter().all(Option::is_none), "{:?}", t.contents());
        let notes: Vec<_> = out.warnings.iter().map(|w| (w.line, w.message.as_str())).collect();
        assert_eq!(
            notes,
            [(Some(7), "tier \"silences\" is a silence detection (Praat's `To TextGrid (silences)`): its 2 `silent` interval(s) read as silence, its \"utterance\" ones as speech without words")]
        );
        // Words that are not two labels alone stay words.
        let words = g.replacen("\"utterance\"", "\"so\"", 1);
        assert_eq!(read_text(&words).corpus.get("recording").unwrap().contents().len(), 5);
    }

    /// Only Praat's own tiling of `silent` (in lower case) and one other label, alternating, is
    /// a silence detection: a speaker tier of `Silent` and `Bob` keeps its words, and so do
    /// labels that repeat or leave gaps.
    #[test]
    fn a_silence_detection_is_praats_tiling_alone() {
        let words = |intervals: Intervals<'_>| {
            let out = read_text(&grid_of(&[("speaker", intervals)]));
            assert!(out.warnings.is_empty(), "{:?}", out.warnings);
            said(&out).into_iter().map(|(_, _, text)| text).collect::<Vec<_>>()
        };
        assert_eq!(
            words(&[(0, 1, "Silent"), (1, 2, "Bob"), (2, 3, "Silent"), (3, 4, "Bob")]),
            ["Silent", "Bob", "Silent", "Bob"]
        );
        assert_eq!(
            words(&[(0, 1, "silent"), (1, 2, "sounding"), (2, 3, "sounding"), (3, 4, "silent")]),
            ["silent", "sounding", "sounding", "silent"]
        );
        assert_eq!(
            words(&[(0, 1, "silent"), (1, 2, "sounding"), (3, 4, "silent"), (4, 5, "sounding")]),
            ["silent", "sounding", "silent", "sounding"]
        );
        let out = read_text(&grid_of(&[(
            "speaker",
            &[(0, 1, "silent"), (1, 2, "sounding"), (2, 3, "silent"), (3, 4, "sounding")],
        )]));
        assert_eq!(
            said(&out),
            [(1, "speaker".to_owned(), String::new()), (3, "speaker".to_owned(), String::new())]
        );
    }

    /// ELAN's export of a Toolbox layout (PraatTextGridJS's `sample_elan.TextGrid`: `ref@RLP`,
    /// `trs@RLP`, `trad@RLP`, `eng@RLP`, then NAL's): each participant is one speaker, read
    /// from the transcription; the ids and translations on its intervals are left out. They
    /// were six speakers, overlapping for 99 % of the speech. A tier of a participant that no
    /// other annotates keeps its own name, as e-mail addresses do.
    #[test]
    fn elan_participant_tiers_are_one_speaker() {
        let tier = |name: &str, labels: &[(u32, u32, &str)]| {
            let mut t = format!("\"IntervalTier\"\n\"{name}\"\n0\n10\n{}\n", labels.len());
            for (a, b, l) in labels {
                t.push_str(&format!("{a}\n{b}\n\"{l}\"\n"));
            }
            t
        };
        let tiers = [
            tier("ref@RLP", &[(0, 2, "RLP_001"), (4, 6, "RLP_002")]),
            tier("trs@RLP", &[(0, 2, "tsa' a-kaj"), (4, 6, "i-su' tye")]),
            tier("eng@RLP", &[(0, 2, "they began"), (4, 6, "to say")]),
            tier("trs@NAL", &[(2, 4, "jiñi")]),
            tier("eng@NAL", &[(2, 4, "that one")]),
            tier("gloss@NAL", &[(7, 9, "PERF A2-begin")]),
            tier("notes@home", &[(8, 10, "a b")]),
            tier("ann@example.com", &[(8, 9, "yes")]),
            tier("bo@example.com", &[(8, 9, "no")]),
        ];
        let g = format!(
            "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0\n10\n<exists>\n{}\n{}",
            tiers.len(),
            tiers.concat()
        );
        let out = read_text(&g);
        let t = out.corpus.get("recording").unwrap();
        let got: Vec<_> = t
            .utterances()
            .map(|u| {
                (
                    u.segment.start().micros() / 1_000_000,
                    u.speaker_name,
                    u.content.unwrap().display_text(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (0, "RLP", "tsa' a-kaj".to_owned()),
                (2, "NAL", "jiñi".to_owned()),
                (4, "RLP", "i-su' tye".to_owned()),
                (7, "gloss@NAL", "PERF A2-begin".to_owned()),
                (8, "ann@example.com", "yes".to_owned()),
                (8, "bo@example.com", "no".to_owned()),
                (8, "notes@home", "a b".to_owned()),
            ]
        );
        let notes: Vec<_> = out.warnings.iter().map(|w| (w.line, w.message.as_str())).collect();
        assert_eq!(
            notes,
            [(Some(7), "3 tier(s) left out as not speakers: \"ref@RLP\" (another annotation of the intervals of \"trs@RLP\" (ELAN's `tier@participant`)), \"eng@RLP\" (another annotation of the intervals of \"trs@RLP\" (ELAN's `tier@participant`)), \"eng@NAL\" (another annotation of the intervals of \"trs@NAL\" (ELAN's `tier@participant`)); choose with --tiers or --ignore-tiers")]
        );
    }

    /// `(start s, speaker, text)` of each utterance.
    fn said(out: &crate::format::ReadOutput) -> Vec<(i64, String, String)> {
        let t = out.corpus.get("recording").unwrap();
        t.utterances()
            .map(|u| {
                let text = u.content.map(|c| c.display_text()).unwrap_or_default();
                (u.segment.start().micros() / 1_000_000, u.speaker_name.to_owned(), text)
            })
            .collect()
    }

    /// Two speakers of one studio (`host@studio`, `guest@studio`): the guest's backchannels
    /// inside the host's turns do not share its boundaries, so the guest is no annotation of
    /// the host; both stay speakers under their tier names (only a main tier that others
    /// annotate is named by its participant).
    #[test]
    fn participant_tiers_without_shared_boundaries_are_speakers() {
        let g = grid_of(&[
            ("host@studio", &[(0, 4, "so tell me about it"), (5, 9, "and then what")]),
            ("guest@studio", &[(1, 2, "yeah"), (6, 7, "right"), (8, 9, "mm hm")]),
        ]);
        let out = read_text(&g);
        let s = |t: i64, who: &str, text: &str| (t, who.to_owned(), text.to_owned());
        assert_eq!(
            said(&out),
            [
                s(0, "host@studio", "so tell me about it"),
                s(1, "guest@studio", "yeah"),
                s(5, "host@studio", "and then what"),
                s(6, "guest@studio", "right"),
                s(8, "guest@studio", "mm hm"),
            ]
        );
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        // Nine tenths of the other tier's intervals must share a main tier's interval's start
        // and end, within 10 ms.
        let tiers = |eng: &[(f64, f64)]| {
            let mut g = String::from(
                "File type = \"ooTextFile short\"\n\"TextGrid\"\n0\n10\n<exists>\n2\n",
            );
            let main: Vec<(f64, f64)> =
                (0..20).map(|k| (k as f64 / 2.0, (k + 1) as f64 / 2.0)).collect();
            for (name, intervals) in [("trs@A", &main[..]), ("eng@A", eng)] {
                g.push_str(&format!("\"IntervalTier\"\n\"{name}\"\n0\n10\n{}\n", intervals.len()));
                for (a, b) in intervals {
                    g.push_str(&format!("{a}\n{b}\n\"w\"\n"));
                }
            }
            speakers_of(&read_text(&g))
        };
        let halves = |from: usize| (from..20).map(|k| (k as f64 / 2.0, (k + 1) as f64 / 2.0));
        // 18 of 19 share their boundaries (the first spans two of the main tier's).
        let one_off: Vec<_> = [(0.0, 1.0)].into_iter().chain(halves(2)).collect();
        assert_eq!(tiers(&one_off), ["A"]);
        // 16 of 18.
        let two_off: Vec<_> = [(0.0, 1.0), (1.0, 2.0)].into_iter().chain(halves(4)).collect();
        assert_eq!(tiers(&two_off), ["eng@A", "trs@A"]);
        let shifted = |by: f64| halves(0).map(|(a, b)| (a + by, b + by)).collect::<Vec<_>>();
        assert_eq!(tiers(&shifted(0.005)), ["A"]);
        assert_eq!(tiers(&shifted(0.02)), ["eng@A", "trs@A"]);
    }

    /// A translation before the transcription (`eng@RLP`, then `trs@RLP`): the tier whose type
    /// names a transcription is the participant's words.
    #[test]
    fn the_transcription_is_the_main_tier_whatever_the_order() {
        let g = grid_of(&[
            ("eng@RLP", &[(0, 2, "they began"), (4, 6, "to say")]),
            ("trs@RLP", &[(0, 2, "tsa a-kaj"), (4, 6, "i-su tye")]),
        ]);
        let out = read_text(&g);
        let s = |t: i64, text: &str| (t, "RLP".to_owned(), text.to_owned());
        assert_eq!(said(&out), [s(0, "tsa a-kaj"), s(4, "i-su tye")]);
        let notes: Vec<_> = out.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            notes,
            ["1 tier(s) left out as not speakers: \"eng@RLP\" (another annotation of the intervals of \"trs@RLP\" (ELAN's `tier@participant`)); choose with --tiers or --ignore-tiers"]
        );
        // Without a transcription type, file order decides.
        let g = grid_of(&[
            ("eng@RLP", &[(0, 2, "they began")]),
            ("fr@RLP", &[(0, 2, "ils ont commencé")]),
        ]);
        assert_eq!(said(&read_text(&g)), [(0, "RLP".to_owned(), "they began".to_owned())]);
    }

    /// A gloss tier under a transcription tier (crowsetta's example `AVO-maea-basic.TextGrid`
    /// of Samoan speech: `Tones`, `Samoan`, `Gloss`) is an annotation of the speech, not a
    /// second speaker who overlaps the first all the time; alone, or on intervals of its own,
    /// a tier so named is read.
    #[test]
    fn a_gloss_tier_beside_a_speaker_is_not_a_speaker() {
        let out = read_text(&grid(&["Samoan", "Gloss"]));
        assert_eq!(speakers_of(&out), ["Samoan"]);
        let notes: Vec<_> = out.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            notes,
            ["1 tier(s) left out as not speakers: \"Gloss\" (its name says it holds notes, a translation, glosses, morphemes or parts of speech: an annotation of the speech, not a speaker); choose with --tiers or --ignore-tiers"]
        );
        let out = read_text(&grid(&["Gloss"]));
        assert_eq!(speakers_of(&out), ["Gloss"]);
    }

    /// A gloss tier whose boundaries were drawn again under the words, a few milliseconds
    /// off (within 20 ms), annotates them as one on the same boundaries does; one whose
    /// intervals are a turn apart from the speaker's is read as a speaker.
    #[test]
    fn a_gloss_tier_a_few_milliseconds_off_is_not_a_speaker() {
        let two = |gloss: [(&str, &str); 2]| {
            let mut g = "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0\n1\n<exists>\n2\n\"IntervalTier\"\n\"Samoan\"\n0\n1\n2\n0\n0.5\n\"ua\"\n0.5\n1\n\"tele\"\n\"IntervalTier\"\n\"Gloss\"\n0\n1\n2\n".to_owned();
            for (k, (start, end)) in gloss.iter().enumerate() {
                g.push_str(&format!("{start}\n{end}\n\"g{k}\"\n"));
            }
            g
        };
        for gloss in [[("0", "0.5"), ("0.5", "1")], [("0.003", "0.498"), ("0.52", "0.98")]] {
            assert_eq!(speakers_of(&read_text(&two(gloss))), ["Samoan"], "{gloss:?}");
        }
        for gloss in [[("0", "0.479"), ("0.479", "1")], [("0.021", "0.5"), ("0.521", "1")]] {
            let mut speakers = speakers_of(&read_text(&two(gloss)));
            speakers.sort();
            assert_eq!(speakers, ["Gloss", "Samoan"], "{gloss:?}");
        }
        let spans =
            [Segment::from_millis(0, 500).unwrap(), Segment::from_millis(500, 1000).unwrap()];
        assert!(same_span(&spans, Segment::from_millis(480, 1020).unwrap()));
        assert!(!same_span(&spans, Segment::from_millis(479, 1000).unwrap()));
        assert!(!same_span(&spans, Segment::from_millis(500, 1021).unwrap()));
        assert!(!same_span(&[], Segment::from_millis(0, 1).unwrap()));
    }

    #[test]
    fn alignment_tiers_are_not_speakers() {
        let out = read_text(&grid(&["bob", "words", "phones"]));
        assert_eq!(speakers_of(&out), ["bob"]);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::Note, Some(15), Some(1))]);
        assert_eq!(
            out.warnings[0].message,
            "2 tier(s) left out as not speakers: \"words\" (word-level alignment of a speaker tier already read), \"phones\" (phone- or syllable-level alignment); choose with --tiers or --ignore-tiers"
        );
        // Montreal Forced Aligner: `X - words` is the speaker X when only alignment is there.
        let out = read_text(&grid(&["A - words", "A - phones", "B - words", "B - phones"]));
        assert_eq!(speakers_of(&out), ["A", "B"]);
        // --tiers and --ignore-tiers, by name or pattern, override the rules.
        let only = ReadOptions {
            tiers: crate::format::tiers::TierSelection { only: vec!["*s".into()], ignore: vec![] },
            ..Default::default()
        };
        let out = read_str(&grid(&["bob", "words", "phones"]), Format::TextGrid, &only).unwrap();
        assert_eq!(speakers_of(&out), ["phones", "words"]);
        let ignore = ReadOptions {
            tiers: crate::format::tiers::TierSelection { only: vec![], ignore: vec!["BOB".into()] },
            ..Default::default()
        };
        let out = read_str(&grid(&["bob", "ann"]), Format::TextGrid, &ignore).unwrap();
        assert_eq!(speakers_of(&out), ["ann"]);
        assert!(out.warnings[0].message.contains("\"bob\" (matched by --ignore-tiers)"));
    }

    /// Intervals of a test tier: `(start s, end s, label)`.
    type Intervals<'a> = &'a [(u32, u32, &'a str)];

    /// `(name, intervals)` tiers on a 0–10 s grid, in the short form.
    fn grid_of(tiers: &[(&str, Intervals<'_>)]) -> String {
        let mut g = format!(
            "File type = \"ooTextFile short\"\n\"TextGrid\"\n0\n10\n<exists>\n{}\n",
            tiers.len()
        );
        for (name, intervals) in tiers {
            g.push_str(&format!("\"IntervalTier\"\n\"{name}\"\n0\n10\n{}\n", intervals.len()));
            for (a, b, label) in *intervals {
                g.push_str(&format!("{a}\n{b}\n\"{label}\"\n"));
            }
        }
        g
    }

    /// WebMAUS's TextGrid (`ORT-MAU` words, `KAN-MAU` canonical pronunciations of the same
    /// intervals, `MAU` phones with `<p:>` pauses) is one speaker: the words, not three tiers
    /// that overlap each other all the time.
    #[test]
    fn a_webmaus_grid_is_one_speaker() {
        let g = grid_of(&[
            ("ORT-MAU", &[(0, 1, ""), (1, 2, "guten"), (2, 3, "Morgen"), (3, 10, "")]),
            ("KAN-MAU", &[(0, 1, ""), (1, 2, "gu:t@n"), (2, 3, "mO6g@n"), (3, 10, "")]),
            ("MAU", &[(0, 1, "<p:>"), (1, 2, "gu:t@n"), (2, 3, "mO6g@n"), (3, 10, "<p:>")]),
        ]);
        let out = read_text(&g);
        let s = |t: i64, text: &str| (t, "ORT-MAU".to_owned(), text.to_owned());
        assert_eq!(said(&out), [s(1, "guten"), s(2, "Morgen")]);
        let notes: Vec<_> = out.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            notes,
            ["2 tier(s) left out as not speakers: \"KAN-MAU\" (phone- or syllable-level alignment), \"MAU\" (phone- or syllable-level alignment); choose with --tiers or --ignore-tiers"]
        );
    }

    /// `MAS` is WebMAUS's syllable tier only in WebMAUS output: beside `ORT-MAU` and `MAU` it
    /// is left out; in a grid of speakers it is a speaker (initials M. A. S.).
    #[test]
    fn mas_is_a_syllable_tier_only_in_webmaus_output() {
        let g = grid_of(&[
            ("ORT-MAU", &[(0, 1, ""), (1, 2, "guten"), (2, 10, "")]),
            ("MAU", &[(0, 1, "<p:>"), (1, 2, "gu:t@n"), (2, 10, "<p:>")]),
            ("MAS", &[(1, 2, "gu:.t@n")]),
        ]);
        let out = read_text(&g);
        assert_eq!(said(&out), [(1, "ORT-MAU".to_owned(), "guten".to_owned())]);
        assert_eq!(
            out.warnings.iter().map(|w| w.message.as_str()).collect::<Vec<_>>(),
            ["2 tier(s) left out as not speakers: \"MAU\" (phone- or syllable-level alignment), \"MAS\" (phone- or syllable-level alignment); choose with --tiers or --ignore-tiers"]
        );
        let g = grid_of(&[
            ("JOE", &[(0, 2, "so how was it"), (5, 6, "right")]),
            ("MAS", &[(2, 5, "long story")]),
        ]);
        let out = read_text(&g);
        assert_eq!(
            said(&out),
            [
                (0, "JOE".to_owned(), "so how was it".to_owned()),
                (2, "MAS".to_owned(), "long story".to_owned()),
                (5, "JOE".to_owned(), "right".to_owned()),
            ]
        );
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    }

    /// A word tier is left out only when speaker tiers mostly under its words cover it: a tier
    /// of labels over the whole grid (kylebgorman/textgrid's `Errors`) does not, and aligner
    /// pauses (`sp`, `sil`) are silence.
    #[test]
    fn a_word_tier_stays_unless_speaker_tiers_cover_it() {
        let words: Intervals<'_> =
            &[(0, 1, "sil"), (1, 2, "right"), (2, 3, "sp"), (3, 4, "then"), (4, 10, "")];
        let phones: Intervals<'_> = &[(1, 2, "R AY1 T"), (3, 4, "DH EH1 N")];
        let errors: Intervals<'_> = &[(0, 3, "."), (3, 6, "loud silence"), (6, 10, ".")];
        let out = read_text(&grid_of(&[
            ("phone", phones),
            ("word", words),
            ("mute", &[]),
            ("Errors", errors),
        ]));
        // The `Errors` tier itself holds remarks, not speech: set aside too.
        assert_eq!(speakers_of(&out), ["mute", "word"]);
        assert!(out.warnings.iter().any(|w| w
            .message
            .contains("\"Errors\" (its name says it holds notes, comments, remarks or errors")));
        let t = out.corpus.get("recording").unwrap();
        let spoken: Vec<(Segment, &str)> = t
            .utterances()
            .filter(|u| u.speaker_name == "word")
            .map(|u| (u.segment, u.speaker_name))
            .collect();
        assert_eq!(
            spoken,
            [
                (Segment::from_millis(1000, 2000).unwrap(), "word"),
                (Segment::from_millis(3000, 4000).unwrap(), "word")
            ]
        );
        // An utterance tier over the same words, padded with silence (readtextgrid's
        // `nested-intervals`), makes the word tier its alignment again.
        let utterance: Intervals<'_> = &[(0, 5, "right then")];
        let out = read_text(&grid_of(&[("word", words), ("Errors", errors), ("ann", utterance)]));
        assert_eq!(speakers_of(&out), ["ann"]);
        assert!(out.warnings[0]
            .message
            .contains("\"word\" (word-level alignment of a speaker tier already read)"));
    }

    /// FAVE's aligned-TextGrid layout: `X - words`, `X - phones` and `X - turns` (every label
    /// `X`). The words are X's speech (a word before the turn mark too); the marks are left
    /// out; a speaker with marks and no word tier keeps the marks as speech without words.
    #[test]
    fn turn_marks_beside_a_word_tier_leave_the_words_as_the_speech() {
        let words: Intervals<'_> = &[(1, 2, "yeah"), (3, 4, "well"), (4, 5, "sure")];
        let phones: Intervals<'_> = &[(1, 2, "Y AE1"), (3, 4, "W EH1 L")];
        let out = read_text(&grid_of(&[
            ("KY25A - words", words),
            ("KY25A - phones", phones),
            ("KY25A - turns", &[(3, 5, "KY25A")]),
            ("IVR-turns", &[(6, 8, "IVR")]),
        ]));
        assert_eq!(speakers_of(&out), ["IVR", "KY25A"]);
        let t = out.corpus.get("recording").unwrap();
        let spoken: Vec<(Segment, &str, Option<&str>)> = t
            .utterances()
            .map(|u| (u.segment, u.speaker_name, u.content.and_then(|c| c.text.as_deref())))
            .collect();
        let s = |a, b| Segment::from_millis(a, b).unwrap();
        assert_eq!(
            spoken,
            [
                (s(1000, 2000), "KY25A", Some("yeah")),
                (s(3000, 4000), "KY25A", Some("well")),
                (s(4000, 5000), "KY25A", Some("sure")),
                (s(6000, 8000), "IVR", None),
            ]
        );
        let notes: Vec<_> = out.warnings.iter().map(|w| w.message.as_str()).collect();
        assert!(
            notes.iter().any(|n| n
                .contains("\"KY25A - turns\" (turn marks of a speaker whose word tier is read)")),
            "{notes:?}"
        );
        // The pause notation `--` is silence in any tier.
        let out = read_text(&grid_of(&[("Ana", &[(0, 2, "so"), (2, 4, "--"), (4, 5, "then")])]));
        assert_eq!(out.corpus.get("recording").unwrap().annotation().len(), 2);
        // A tier named like marks whose labels are words is an ordinary speaker tier.
        let out = read_text(&grid_of(&[("Ana - turns", &[(0, 2, "hello there")])]));
        assert_eq!(speakers_of(&out), ["Ana - turns"]);
    }

    #[test]
    fn point_tiers_are_notes_that_strict_keeps() {
        let grid = "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0\n2\n<exists>\n1\n\"TextTier\"\n\"pitch\"\n0\n2\n1\n1.5\n\"H*\"\n";
        let strict = ReadOptions { strict: true, ..Default::default() };
        let out = read_str(grid, Format::TextGrid, &strict).unwrap();
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        // The point tier, and that no speech is left (both notes: strict keeps them).
        assert_eq!(w, vec![(WarningKind::Note, Some(7)), (WarningKind::Note, None)]);
        assert_eq!(out.warnings[1].message, crate::format::EMPTY_INPUT);
    }

    /// Whether `e` is what hostile input may produce: a parse, limit or unsupported error.
    fn is_clean_error(e: &Error) -> bool {
        use crate::error::ErrorKind;
        matches!(
            e.kind(),
            ErrorKind::Parse { .. } | ErrorKind::Limit(_) | ErrorKind::Unsupported(_)
        )
    }

    #[test]
    fn layers_are_first_fit() {
        let s = |a: i64, b: i64| Segment::from_micros(a, b).unwrap();
        //   0 [----)            layer 0: 0, 2, 4
        //   1   [------)        layer 1: 1, 3
        //   2      [--)
        //   4         [-------) (starts when 2 ends, before 1 ends: layer 0)
        //   3          [--)     (starts when 1 ends: layer 1)
        let got = layers([(s(0, 4), 0), (s(2, 9), 1), (s(5, 8), 2), (s(8, 20), 4), (s(9, 12), 3)]);
        assert_eq!(got, vec![vec![0, 2, 4], vec![1, 3]]);
        let all_at_once = layers((0..5).map(|i| (s(0, 10), i)));
        assert_eq!(all_at_once.len(), 5);
    }

    const SHORT: &str = "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n\n0\n6.25\n<exists>\n2\n\"IntervalTier\"\n\"alice\"\n0\n6.25\n2\n0\n4.21\n\"So the plan is to ship on Friday\"\n4.21\n6.25\n\"\"\n\"IntervalTier\"\n\"bob\"\n0\n6.25\n2\n0\n3.95\n\"\"\n3.95\n6.25\n\"Friday won't work for us.\"\n";

    /// The numbers of readtextgrid's `praat-test` grids, which Praat opens: fractions,
    /// percentages, hexadecimal floats and trailing characters.
    #[test]
    fn numbers_are_read_as_praat_reads_them() {
        let cases = [
            ("0/1", 0),
            ("1/2", 500_000),
            ("6/4", 1_500_000),
            ("+3/2", 1_500_000),
            ("5.0/+2.0", 2_500_000),
            ("-5/-2", 2_500_000),
            ("-3e0/-1e0", 3_000_000),
            ("1/3", 333_333),
            ("2/200%", 1_000_000),
            ("300%/2", 1_500_000),
            ("400%/200%", 2_000_000),
            ("50%", 500_000),
            ("0x3", 3_000_000),
            ("+0x3.", 3_000_000),
            ("0x0.8", 500_000),
            ("0x1P-1", 500_000),
            ("0x1.8p+0", 1_500_000),
            ("+0x1.8P0", 1_500_000),
            ("0x1.4p+1", 2_500_000),
            ("-0x1p1", -2_000_000),
            ("2e1ignored", 20_000_000),
            ("14eignored", 14_000_000),
            ("0.1234565", 123_457),
        ];
        for (word, micros) in cases {
            assert_eq!(praat_seconds(word), Ok(Time::from_micros(micros)), "{word}");
        }
        assert_eq!(praat_seconds("1/0"), Err(TimeError::OutOfRange));
        assert_eq!(praat_seconds("0/0"), Err(TimeError::NotANumber));
        assert_eq!(praat_seconds("1/x"), Err(TimeError::Syntax));
        // `strtod` reads `0x` as `0` followed by a letter.
        assert_eq!(praat_seconds("0x"), Ok(Time::ZERO));
        let grid = "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0 0x3 <exists> 1\n\"IntervalTier\" \"Mary\" 0 3 3\n0 1/2 \"a\"\n0x1P-1 6/4 \"\"\n1.5 0x3 \"b\"\n";
        let out = read_text(grid);
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let t = out.corpus.get("recording").unwrap();
        let segments: Vec<Segment> = t.utterances().map(|u| u.segment).collect();
        assert_eq!(
            segments,
            [
                Segment::from_micros(0, 500_000).unwrap(),
                Segment::from_micros(1_500_000, 3_000_000).unwrap()
            ]
        );
    }

    #[test]
    fn reads_the_short_form() {
        let out = read_text(SHORT);
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
                    Segment::from_micros(0, 4_210_000).unwrap(),
                    "alice",
                    Some("So the plan is to ship on Friday".to_owned())
                ),
                (
                    Segment::from_micros(3_950_000, 6_250_000).unwrap(),
                    "bob",
                    Some("Friday won't work for us.".to_owned())
                ),
            ]
        );
        assert_eq!(t.declared_extent(), Segment::from_micros(0, 6_250_000));
    }

    #[test]
    fn tolerates_comments_labels_and_units() {
        let text = "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n! info\n0s 1s <exists> 1\n\"IntervalTier\" \"Ma\"\"ry\" 0s 1s 2 ! type, name\n0s 0.5s \"hi\nthere\" 0.5 1 \"\"\n";
        let out = read_text(text);
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.annotation().speaker_name(t.annotation().tracks()[0].speaker), "Ma\"ry");
        assert_eq!(t.contents()[0].as_ref().unwrap().text.as_deref(), Some("hi\nthere"));
        assert_eq!(t.annotation().tracks()[0].segment, Segment::from_micros(0, 500_000).unwrap());
    }

    #[test]
    fn point_tiers_are_noted_and_skipped() {
        let text = "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0 2 <exists> 2\n\"TextTier\" \"pitch\" 0 2 1\n1.0 \"H*\"\n\"IntervalTier\" \"a\" 0 2 1 0 2 \"x\"\n";
        let out = read_text(text);
        assert_eq!(out.warnings.len(), 1);
        assert_eq!(
            (out.warnings[0].kind, out.warnings[0].line, out.warnings[0].column),
            (WarningKind::Note, Some(4), Some(1))
        );
        assert_eq!(out.corpus.get("recording").unwrap().annotation().len(), 1);
    }

    #[test]
    fn errors_name_line_and_column() {
        let cases: [(&str, (usize, usize)); 4] = [
            ("File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0 NaN <exists> 0\n", (3, 3)),
            ("File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0 1e30 <exists> 0\n", (3, 3)),
            ("File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0 1 <exists> 1\n\"IntervalTier\" \"a\" 0 1 1 0 1 \"open\n", (4, 30)),
            ("File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0 1 <exists> 1\n\"IntervalTier\" \"a\" 0 1 5 0 1 \"x\"\n", (5, 1)),
        ];
        for (text, pos) in cases {
            let e = read_str(text, Format::TextGrid, &ReadOptions::default()).unwrap_err();
            assert!(is_clean_error(&e), "{e}");
            assert_eq!((e.line(), e.column()), (Some(pos.0), Some(pos.1)), "{e}");
        }
    }

    #[test]
    fn negative_and_reversed_intervals_are_warnings() {
        let text = "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0 3 <exists> 1\n\"IntervalTier\" \"a\" 0 3 3\n-1 1 \"x\"\n2 1.5 \"y\"\n2 2 \"z\"\n";
        let out = read_text(text);
        let kinds: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(
            kinds,
            vec![
                (WarningKind::Repaired, Some(5)),
                (WarningKind::NegativeDuration, Some(6)),
                (WarningKind::ZeroDuration, Some(7))
            ]
        );
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.annotation().tracks()[0].segment, Segment::from_micros(0, 1_000_000).unwrap());
    }

    proptest::proptest! {
        /// The line index agrees with the reference `position_of` at every character boundary.
        #[test]
        fn line_index_agrees_with_position_of(text in "[a\n\r\u{e9}\u{65e5}]{0,40}", at in 0usize..50) {
            let mut at = at.min(text.len());
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            proptest::prop_assert_eq!(LineIndex::new(&text).position(at), crate::format::position_of(&text, at));
        }
    }

    #[test]
    fn large_files_read_in_linear_time() {
        // 100 000 intervals: quadratic position bookkeeping would take minutes here.
        let mut text = String::from("File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0 100000 <exists> 1\n\"IntervalTier\" \"a\" 0 100000 100000\n");
        for i in 0..100_000 {
            text.push_str(&format!("{i} {} \"{}\"\n", i + 1, if i % 2 == 0 { "w" } else { "" }));
        }
        let started = std::time::Instant::now();
        let out = read_text(&text);
        assert_eq!(out.corpus.get("recording").unwrap().annotation().len(), 50_000);
        assert!(started.elapsed() < std::time::Duration::from_secs(20), "{:?}", started.elapsed());
    }

    #[test]
    fn a_written_diarization_reads_back_without_words() {
        // No text: the writer labels speech with the speaker's name; read back, the names
        // are no words, so the analysis stays in timing mode.
        let mut b = TranscriptBuilder::new();
        b.add(Segment::from_micros(0, 1_000_000).unwrap(), "Host", None);
        b.add(Segment::from_micros(2_000_000, 3_000_000).unwrap(), "Host", None);
        b.add(Segment::from_micros(1_000_000, 2_000_000).unwrap(), "Guest", None);
        let mut buf = Vec::new();
        write(&Corpus::single("r", b.build()), &mut buf).unwrap();
        let back = read_text(&String::from_utf8(buf).unwrap());
        let t = back.corpus.get("recording").unwrap();
        assert_eq!(t.annotation().len(), 3);
        assert!(t.contents().iter().all(Option::is_none), "{:?}", t.contents());
        let notes: Vec<_> = back.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            notes,
            ["2 tier(s) whose every interval is labelled with the speaker's name (\"Guest\", \"Host\"): read as speech without words"]
        );
        // Labels other than the name are words.
        let out = read_text(&grid(&["bob"]));
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.contents()[0].as_ref().and_then(|c| c.text.as_deref()), Some("x"));
    }

    #[test]
    fn writer_fills_silence_and_splits_self_overlap() {
        let mut b = TranscriptBuilder::new();
        b.add(
            Segment::from_micros(1_000_000, 3_000_000).unwrap(),
            "a",
            Some(Content::text("one \"q\"")),
        );
        b.add(Segment::from_micros(2_000_000, 4_000_001).unwrap(), "a", None);
        b.add(Segment::from_micros(5_000_000, 6_000_000).unwrap(), "a", None);
        b.extent(Segment::from_micros(0, 10_000_000));
        let corpus = Corpus::single("r", b.build());
        let mut buf = Vec::new();
        let w = write(&corpus, &mut buf).unwrap();
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].kind, WarningKind::Repaired);
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(text.matches("name = \"a\"").count(), 2, "{text}");
        assert!(text.contains("text = \"one \"\"q\"\"\""), "{text}");
        assert!(text.contains("xmax = 4.000001 "), "{text}");
        let back = read_text(&text);
        let t = back.corpus.get("recording").unwrap();
        let got: Vec<_> = t
            .utterances()
            .map(|u| {
                (u.segment.start().micros(), u.segment.end().micros(), u.speaker_name.to_owned())
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (1_000_000, 3_000_000, "a".to_owned()),
                (2_000_000, 4_000_001, "a".to_owned()),
                (5_000_000, 6_000_000, "a".to_owned())
            ]
        );
        assert_eq!(t.declared_extent(), Segment::from_micros(0, 10_000_000));
        // One speaker, who overlaps themselves, as before writing: no second person.
        assert_eq!(t.annotation().speakers().len(), 1);
        // The second tier holds the overlapping stretch, without text: labelled with the name.
        let kinds: Vec<_> = back.warnings.iter().map(|w| w.kind).collect();
        assert_eq!(kinds, [WarningKind::Note, WarningKind::SelfOverlap]);
        assert!(t.contents()[0].is_some() && t.contents()[1].is_none());
    }

    /// A tier of remarks over the whole grid (`Errors`, `Comments`, `misc`, or any tier of a few
    /// wordless-looking labels over nearly all of it beside a speaker's many turns) is set aside
    /// with a note naming it and why; the only tier with speech stays a speaker, `--tiers`
    /// reads it, and a speaker whose one long interval is full of words stays one.
    #[test]
    fn remark_tiers_over_the_grid_are_set_aside() {
        let turns: Vec<(u32, u32, &str)> = (0..10).map(|i| (i, i + 1, "well yes")).collect();
        // The class line of the third tier: 7, then 5 + 3 × 10 for Ana, 5 + 3 for Bo.
        let out = read_text(&grid_of(&[
            ("Ana", &turns),
            ("Bo", &[(2, 3, "no")]),
            ("Errors", &[(0, 10, "mispronounced Friday twice")]),
        ]));
        assert_eq!(speakers_of(&out), ["Ana", "Bo"]);
        let notes: Vec<_> =
            out.warnings.iter().map(|w| (w.line, w.column, w.message.as_str())).collect();
        assert_eq!(
            notes,
            [(Some(50), Some(1), "1 tier(s) left out as not speakers: \"Errors\" (its name says it holds notes, comments, remarks or errors, not a speaker's speech); choose with --tiers or --ignore-tiers")]
        );
        // Any name, by its shape: two short remarks over 95 % of the grid beside ten turns.
        let out = read_text(&grid_of(&[
            ("Ana", &turns),
            ("Tier 3", &[(0, 5, "hum"), (5, 10, "door slams")]),
        ]));
        assert_eq!(speakers_of(&out), ["Ana"]);
        assert_eq!(
            out.warnings[0].message,
            "1 tier(s) left out as not speakers: \"Tier 3\" (2 labelled interval(s) over 100% of the grid beside a tier of 10: remarks on the recording, not a speaker's speech); choose with --tiers or --ignore-tiers"
        );
        assert_eq!(out.warnings[0].line, Some(42));
        // A speaker's one long turn with words in it, or labelled with its name, stays.
        let lecture = "so today we look at how turns are taken and how often people overlap";
        // So does one whose labels are single tokens: a speech/no-speech grid of an interview,
        // the interviewee talking through nearly all of it beside the interviewer's ten turns.
        for label in [lecture, "Lee", "speech", "sounding", "x"] {
            let out = read_text(&grid_of(&[("Ana", &turns), ("Lee", &[(0, 10, label)])]));
            assert_eq!(speakers_of(&out), ["Ana", "Lee"], "{label}");
            let why: Vec<&str> = out.warnings.iter().map(|w| w.message.as_str()).collect();
            assert!(!why.iter().any(|m| m.contains("left out")), "{label}: {why:?}");
        }
        // Fewer than ten turns beside it: no evidence, the tier stays.
        let out =
            read_text(&grid_of(&[("Ana", &turns[..9]), ("Tier 3", &[(0, 10, "door slams")])]));
        assert_eq!(speakers_of(&out), ["Ana", "Tier 3"]);
        // The only tier with speech stays a speaker, however it is named.
        let out = read_text(&grid_of(&[("Comments", &[(0, 10, "recorded at home")])]));
        assert_eq!((speakers_of(&out), out.warnings.len()), (vec!["Comments".to_owned()], 0));
        let out = read_text(&grid_of(&[("Ana", &[]), ("notes", &[(0, 10, "x")])]));
        assert_eq!(speakers_of(&out), ["Ana", "notes"]);
        // Two note tiers and nothing else: both stay.
        let out = read_text(&grid_of(&[("misc", &[(0, 4, "a")]), ("Remarks", &[(4, 9, "b")])]));
        assert_eq!(speakers_of(&out), ["Remarks", "misc"]);
        // A gloss or translation tier is not a remark by its name alone: it is left out when
        // it glosses a speaker's intervals (see the gloss tests), read otherwise.
        let out = read_text(&grid_of(&[("Ana", &turns[..5]), ("Gloss", &[(6, 8, "3SG-go")])]));
        assert_eq!(speakers_of(&out), ["Ana", "Gloss"]);
        // --tiers reads exactly what it names.
        let only = ReadOptions {
            tiers: crate::format::tiers::TierSelection {
                only: vec!["err*".into()],
                ignore: vec![],
            },
            ..Default::default()
        };
        let g = grid_of(&[("Ana", &turns), ("Errors", &[(0, 10, "x")])]);
        let out = read_str(&g, Format::TextGrid, &only).unwrap();
        assert_eq!(speakers_of(&out), ["Errors"]);
        // Names with another word in them, or only short codes, are not remarks by name.
        let out = read_text(&grid_of(&[
            ("Ana", &turns[..5]),
            ("Ann notes", &[(6, 7, "I agree")]),
            ("FT", &[(8, 9, "sure")]),
        ]));
        assert_eq!(speakers_of(&out), ["Ana", "Ann notes", "FT"]);
    }
}
