//! WebVTT captions: cues with times, speakers from `<v Name>` voice spans or text prefixes.
//!
//! ```text
//! WEBVTT - two-person call          header (Kind:/Language: lines of YouTube are skipped)
//!
//! NOTE produced by hand             NOTE, STYLE and REGION blocks are skipped
//!
//! 1                                 optional cue id
//! 00:00:00.000 --> 00:00:04.210     timing line; cue settings after the end are ignored
//! <v Alice>So the plan is</v>       payload: voice span = speaker
//! ```
//!
//! **Reading.** Each cue becomes one track per speaker found in it:
//!
//! - `<v Name>` (also `<v.class Name>`, with or without `</v>`) names the speaker; a voice with
//!   classes only (`<v.speaker1>`) is named by its classes (`speaker1`). A cue with
//!   several voices gives **one track per distinct voice**, with its own text. Captions write
//!   a dialogue so (`<v Mary>Why?</v>` / `<v Esme>Because.</v>`): the speakers spoke in turn,
//!   not at once, so the cue's time is divided among them in order, each share as long as its
//!   words (one note counts such cues), and no overlap is read there;
//!   a cue whose words carry inline timestamps keeps its whole time for each voice. Text
//!   outside any voice span in such a cue goes to the voice before it (or
//!   the first voice when it comes before every voice). Speakers named by prefixes on
//!   separate lines (below) are divided the same way.
//! - Cues without `<v>` may carry a text prefix. `[SPEAKER_00]: text` (WhisperX) is always read as
//!   a speaker. `Name: text` (Zoom, Otter) is read as a speaker when at least half of the
//!   cues with text start that way, or when names recur at the starts of turns (three such cues
//!   or more, two names or more, one of them twice: Descript and podcast captions name the
//!   speaker on a turn's first cue only; a cue without a name then continues the speaker named
//!   before it, with one note). So a caption such as `Note: bring snacks` in an ordinary file
//!   stays text, and `Note:`, `Edit:`, `Source:` and the like are never names. Every line of a cue may switch speaker, also after a dialogue dash (`- JOHN: Hi.`,
//!   as hard-of-hearing captions write two speakers in one cue); a name is split at the first
//!   `": "` only (Zoom names hold parentheses: `Ana (SL): hi`).
//! - `>>` at the start of a line marks a new speaker, as broadcast, council-meeting and
//!   YouTube captions write it: a name may follow it (`>> Mayor Gorton: welcome`); a cue it
//!   opens without a name does not continue the speaker named before (it is `unknown`); the
//!   lines of a cue before a `>> NAME:` line are the previous speaker's, not that name's.
//!   `>>>`, news captions' change of story, is text.
//! - A cue without a voice that holds only sound descriptions and music notes (`[Music]`,
//!   `[Applause] ♪`, `(music playing)`, as YouTube's and broadcast captions write them; the
//!   hard-of-hearing subtitles' `[DOOR SLAMS]` and `(phone ringing)`; lyrics between music
//!   notes) is skipped, with one warning that counts them: it is no one's speech. Laughter and
//!   notes of speech (`[inaudible]`, `[speaking Spanish]`) stay. A manner note after a name
//!   (`MARY (whispering):`) is not part of it; a caller named by a telephone number
//!   (`+1 555-123-4567:`, as Zoom names one who dialled in) is a speaker.
//! - A cue without a voice and with no text (nothing, or only empty tags) is skipped, with one
//!   warning that counts them: it shows nothing, so its time is no one's speech.
//! - A cue with no speaker at all gets the speaker [`UNKNOWN_SPEAKER`] (`"unknown"`), with one
//!   [`WarningKind::MissingSpeaker`] warning at the first such cue.
//! - Timestamps are `[hh:]mm:ss.ttt`. Malformed ones that still read — Microsoft Teams' unpadded
//!   `0:0:0.0`, a `,` before the milliseconds, no milliseconds, minutes or seconds above 59 —
//!   are kept with one [`WarningKind::Repaired`] warning, and so are times with a `:` before
//!   three digits of milliseconds (`00:00:11:890` and `00:11:890`, read as 11.890 s, with a
//!   warning that says so; the caption readers share this: those three digits are never seconds,
//!   and `00:75:890` or `11:890` is refused); a time that cannot be read skips its
//!   cue with a [`WarningKind::Skipped`] warning naming line and column, keeping the rest of the
//!   file (as the WebVTT parsing rules and webvtt-py do). `--strict` rejects both.
//! - Inline tags (`<c.class>`, `<i>`, `<b>`, `<u>`, `<ruby>`, `<lang>`) are removed from the text
//!   and HTML character references (`&amp;`, `&lt;`, `&nbsp;`, `&#233;` …) decoded.
//! - Inline timestamps (`<00:00:01.000>`, YouTube karaoke captions) become word timings: the word
//!   right after a timestamp starts there, the first word starts with the cue, a word ends where
//!   the next timed word starts (the last one with the cue); other words stay untimed.
//! - YouTube's rolling captions (files whose header has a `Kind:` line) repeat the previous cue's
//!   last line at the top of the next cue; those repeated lines are removed from the text (the
//!   cue's time is kept, so the speech activity is unchanged). So each word of an auto-caption
//!   file is read once, with its time.
//! - A cue ends at an empty line; a line of spaces only ends it when no cue text follows
//!   (YouTube puts a line of one space above the timed text of each cue).
//!
//! **Writing** is canonical WebVTT: a `WEBVTT` line, then one cue per track in time order,
//! `HH:MM:SS.mmm --> HH:MM:SS.mmm` (times rounded to the millisecond, half away from zero) and the
//! payload `<v Name>text</v>`; timed words that spell the text are written with inline timestamps
//! (`<v Ann>so <00:00:01.250>then</v>`). `&`, `<` and `>` are escaped in names and text; line breaks in a
//! name and empty text lines (which would end the cue) are removed with a warning.

use std::collections::HashMap;
use std::io::Write;

use crate::error::{Result, Warning, WarningKind};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, Transcript, TranscriptBuilder, Word};
use crate::time::{format_clock, parse_clock, Time};

use crate::format::{Format, FormatSpec, Head, Sniff, Verdict};

/// What the format registry knows of this format (see [`FormatSpec`]).
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::WebVtt,
    name: "webvtt",
    aliases: &["vtt"],
    extension: "vtt",
    detected_by: &["vtt"],
    read: Ok(read),
    write: Some(write),
    json: false,
    many_recordings: false,
    paragraphs: false,
    sniff: &[Sniff::Start { rank: 10, test: sniff }],
};

/// The `WEBVTT` signature.
fn sniff(head: &Head<'_>) -> Verdict {
    if head.trimmed.starts_with("WEBVTT") {
        Verdict::Is(Format::WebVtt)
    } else {
        Verdict::Pass
    }
}

/// Most lines a rolling caption repeats from the cue before (YouTube repeats one).
const ROLLING_LINES: usize = 3;

/// The speaker given to a cue (or caption, or label) that names no speaker.
pub const UNKNOWN_SPEAKER: &str = "unknown";

// ---------------------------------------------------------------------------------------------
// Helpers shared by the line-based text formats (SRT, LAB, CSV, STM, CTM use them too).

/// 1-based column (in characters) of `field`, a sub-slice of `line`; 1 when it is not one.
pub(crate) fn column_of(line: &str, field: &str) -> usize {
    let base = line.as_ptr() as usize;
    let at = field.as_ptr() as usize;
    if at < base || at > base + line.len() {
        return 1;
    }
    let offset = at - base;
    if !line.is_char_boundary(offset) {
        return 1;
    }
    line[..offset].chars().count() + 1
}

/// The first `max` characters of `s`, for messages.
pub(crate) fn shown(s: &str, max: usize) -> String {
    let mut out: String = s.chars().take(max).collect();
    if s.chars().nth(max).is_some() {
        out.push('…');
    }
    out
}

/// Which text prefix carries the speaker in a caption file without voice spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Prefixes {
    /// No prefix: text is text.
    None,
    /// `[SPEAKER_00]: text` (WhisperX).
    Bracket,
    /// `Name: text` (Zoom, Otter).
    Colon,
    /// The caption's first line is the speaker's name alone, the text below it (Microsoft
    /// Teams' Word transcript saved as text: `0:0:4.560 --> 0:0:5.180`, `Ana Ruiz`, `So.`).
    NameLine,
}

/// Whether a caption's first line can be a speaker's name on its own: a display name of one
/// to four words, each capitalised, a number (`Speaker 1`), a name particle (`ter`, `van`), an
/// e-mail address or in a script without capitals (`王伟`), maybe followed by a role in
/// parentheses (`Bo Lind (Guest)`, as Teams adds), with no sentence punctuation.
fn name_line(line: &str) -> bool {
    let t = line.trim();
    // A role or organisation in parentheses at the end is part of the label.
    let bare = match t.find(" (") {
        Some(i) if t.ends_with(')') => t[..i].trim_end(),
        _ => t,
    };
    let words: Vec<&str> = bare.split_whitespace().collect();
    let name_word = |w: &&str| {
        let first = w.chars().next().unwrap_or(' ');
        first.is_uppercase()
            || first.is_ascii_digit()
            || (first.is_alphabetic() && !first.is_lowercase())
            || w.contains('@')
            || NAME_PARTICLES.contains(w)
    };
    !words.is_empty()
        && words.len() <= 4
        && t.chars().count() <= 64
        && bare.chars().any(char::is_alphabetic)
        && !bare.ends_with(['.', '?', '!', ',', ';', ':', '…'])
        && !bare.contains(['"', '<', '>', '[', ']', '{', '}', '(', ')', '♪'])
        && words.iter().all(name_word)
}

/// The name of a line that is a speaker's name in parentheses and nothing else, as Google
/// Meet's captions write it (`(Dana Bettinger)`, text on the lines below); a sound
/// (`(Laughter)`, `(Applause)`) is none.
fn paren_name(line: &str) -> Option<&str> {
    let inner = line.trim().strip_prefix('(')?.strip_suffix(')')?.trim();
    let sound = sound_only(line, false) || crate::analysis::normalise::is_laughter(line);
    (name_line(inner) && !sound).then_some(inner)
}

/// Words that may stay in lower case inside a name (`Ana de la Cruz`, `Jan ter Horst`).
const NAME_PARTICLES: &[&str] = &[
    "al", "bin", "da", "das", "de", "del", "della", "den", "der", "di", "do", "dos", "du", "el",
    "ibn", "la", "le", "of", "op", "te", "ten", "ter", "van", "von", "y", "zu",
];

/// The rest of a line that opens with `>>`, broadcast and YouTube captions' mark of a new
/// speaker (`>> JOHN: Hi.`, or `>>` alone when the captioner names no one); `None` for any
/// other line. `>>>`, news captions' mark of a new story, says nothing of the speaker (the
/// anchor who spoke goes on, or another): it is no speaker mark, and stays text.
///
/// ```text
/// ">> JOHN: Hi."   → Some("JOHN: Hi.")
/// ">>Who's there?" → Some("Who's there?")
/// ">>> Tonight."   → None               (a new story)
/// "so >> yes"      → None               (only a mark that opens the line)
/// ```
pub(crate) fn after_speaker_mark(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix(">>")?;
    (!rest.starts_with('>')).then(|| rest.trim_start())
}

/// Whether the first non-empty line of a caption opens with `>>` ([`after_speaker_mark`]):
/// the caption starts with a new speaker, so one named before it does not go on into it.
pub(crate) fn opens_with_speaker_mark<'a>(mut lines: impl Iterator<Item = &'a str>) -> bool {
    lines.find(|l| !l.trim().is_empty()).is_some_and(|l| after_speaker_mark(l).is_some())
}

/// A line without its dialogue dash: subtitles that hold two speakers in one block start
/// each speaker's line with one (`- JOHN: Hi.` / `- MARY: Hello.`, as hard-of-hearing
/// subtitles name them), so a name prefix may follow the dash. Broadcast and YouTube captions
/// mark a new speaker with `>>` instead ([`after_speaker_mark`]).
///
/// ```text
/// "- JOHN: Hi."   → "JOHN: Hi."
/// "–Mary: Hello." → "Mary: Hello."     (`-`, `–` or `—`, spaces optional)
/// "-- so"         → "-- so"            (only one dash is a dialogue dash)
/// ">> JOHN: Hi."  → "JOHN: Hi."        (`>>`, YouTube's and broadcast captions' new speaker)
/// ```
fn without_dialogue_dash(line: &str) -> &str {
    let t = line.trim_start();
    if let Some(rest) = after_speaker_mark(t) {
        return rest;
    }
    match t.strip_prefix(['-', '\u{2013}', '\u{2014}']) {
        Some(rest) if !rest.starts_with(['-', '\u{2013}', '\u{2014}']) => rest.trim_start(),
        _ => t,
    }
}

/// `[Name]: rest` → `(Name, rest)`, also after a dialogue dash (`- [Name]: rest`).
pub(crate) fn bracket_prefix(line: &str) -> Option<(&str, &str)> {
    let t = without_dialogue_dash(line);
    let inner = t.strip_prefix('[')?;
    let close = inner.find("]:")?;
    let name = inner[..close].trim();
    if name.is_empty() || name.contains(['[', ']']) {
        return None;
    }
    Some((name, inner[close + 2..].trim_start()))
}

/// `Name: rest` → `(Name, rest)`, for names that look like display names: 1 to 64 characters,
/// at most six words, a letter, no sentence punctuation; a dialogue dash before the name is
/// not part of it (`- JOHN: Hi.` → `JOHN`).
pub(crate) fn colon_prefix(line: &str) -> Option<(&str, &str)> {
    let t = without_dialogue_dash(line);
    let (name, rest) = match t.find(": ") {
        Some(i) => (&t[..i], &t[i + 2..]),
        None => (t.strip_suffix(':')?, ""),
    };
    let name = without_manner_note(name.trim());
    let chars = name.chars().count();
    if chars == 0
        || chars > 64
        || name.split_whitespace().count() > 6
        || !(name.chars().any(char::is_alphabetic) || phone_number(name))
        || name.starts_with('-')
        || name.contains(['?', '!', ';', '"', '<', '>', '[', ']', '{', '}', ':'])
        || NOT_SPEAKERS.contains(&name.to_lowercase().as_str())
        || rest.starts_with("//")
    {
        return None;
    }
    Some((name, rest.trim_start()))
}

/// A name without the manner note subtitles put after it (`MARY (whispering)`, `JOHN (on
/// phone)`, `NARRATOR (V.O.)`): the same speaker. A note in lower case, or a screenplay's
/// voice-over and off-screen marks; `Ana (SL)`, `Kim (she/her)` and `Smith, John (Contoso)`
/// keep theirs, which are part of a display name.
fn without_manner_note(name: &str) -> &str {
    let Some(open) = name.rfind(" (").filter(|_| name.ends_with(')')) else { return name };
    let note = &name[open + 2..name.len() - 1];
    let lower = note.chars().any(char::is_alphabetic)
        && note.chars().all(|c| c.is_lowercase() || " '’-".contains(c));
    let screenplay = matches!(
        note.to_ascii_uppercase().as_str(),
        "V.O." | "VO" | "O.S." | "OS" | "O.C." | "OC" | "CONT'D" | "CONT’D"
    );
    if lower || screenplay {
        name[..open].trim_end()
    } else {
        name
    }
}

/// Whether a caption's speaker is a telephone number, as Zoom names a caller who dialled in
/// (`+1 555-123-4567`, `(555) 123-4567`): digits with the usual separators, ten or more, or
/// seven after a `+`.
fn phone_number(name: &str) -> bool {
    let digits = name.chars().filter(char::is_ascii_digit).count();
    name.starts_with(|c: char| c == '+' || c == '(' || c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_digit() || " +-().".contains(c))
        // Ten digits with a national number, seven after a `+` (not a year range `2023-2024`).
        && (digits >= 10 || (name.starts_with('+') && digits >= 7))
}

/// Words of a caption's sound description that is no speech (`[Music]`, `(applause)`).
const SOUNDS: &[&str] = &[
    "music",
    "applause",
    "cheering",
    "cheers",
    "clapping",
    "instrumental",
    "noise",
    "background noise",
    "silence",
    "no audio",
    "static",
    "bell",
    "beep",
    "beeping",
    "sound",
    "sounds",
    "music playing",
    "upbeat music",
    "soft music",
    "dramatic music",
    "intro music",
    "outro music",
    "theme music",
    "gentle music",
    "ambient music",
    "singing",
];

/// Whether a caption's text is only sound descriptions and music notes (`[Music]`,
/// `[Applause] ♪`, `(music playing)`): captions mark these sounds, which are no one's speech.
/// Laughter is speech-like and stays (the analysis knows it, §5.1).
pub(crate) fn is_sound_only(text: &str) -> bool {
    sound_only(text, true)
}

/// Whether a caption shows no text at all (nothing, or only inline tags such as `<i></i>`):
/// it marks no speech, and has no speaker.
pub(crate) fn is_blank(text: &str) -> bool {
    without_inline_markup(text).trim().is_empty()
}

/// [`is_sound_only`]; with `descriptions` false, only the listed sounds (`[Music]`,
/// `(Applause)`) count, not described ones: a line in parentheses that may be a speaker's name
/// (`(CHRIS EVANS)`) is tested so.
fn sound_only(text: &str, descriptions: bool) -> bool {
    let plain = without_inline_markup(text);
    let mut rest = plain.trim();
    // A caption sung: lyrics between music notes (`♪ Never gonna give you up ♪`).
    let notes = ['♪', '♫', '♬'];
    if rest.chars().count() > 1 && rest.starts_with(notes) && rest.ends_with(notes) {
        return true;
    }
    let mut any = false;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix(['♪', '♫', '♬', '#']) {
            rest = r.trim_start();
            any = true;
            continue;
        }
        let close = match rest.as_bytes()[0] {
            b'[' => ']',
            b'(' => ')',
            _ => return false,
        };
        let Some(end) = rest.find(close) else { return false };
        let raw = rest[1..end].trim();
        let inner = raw.to_lowercase();
        let listed = SOUNDS.contains(&inner.as_str());
        if !(listed || descriptions && sound_description(raw)) {
            return false;
        }
        any = true;
        rest = rest[end + 1..].trim_start();
    }
    any
}

/// Text without inline tags (`<i>`, `<font …>`) and ASS override codes (`{\an8}`), which
/// subtitles wrap around sound descriptions as around speech.
fn without_inline_markup(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains(['<', '{']) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find(['<', '{']) {
        out.push_str(&rest[..i]);
        let tag = if rest[i..].starts_with('<') {
            rest[i..].find('>')
        } else if rest[i..].starts_with("{\\") {
            rest[i..].find('}')
        } else {
            None
        };
        match tag {
            Some(j) => rest = &rest[i + j + 1..],
            // An opening never closed: the rest is text (searching on from each one would
            // take quadratic time on a line of them).
            None => {
                rest = &rest[i..];
                break;
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// Word stems of bracketed notes that describe speech (`[laughs]`, `[inaudible]`,
/// `(whispering)`, `[speaking Spanish]`, `[crosstalk]`): a person spoke, so the caption is
/// theirs. `sing` keeps `[man singing]` (a person's voice) apart from `[music]`.
const SPEECH_NOTES: &[&str] = &[
    "laugh",
    "chuckl",
    "giggl",
    "inaudib",
    "indistinct",
    "unintellig",
    "crosstalk",
    "cross-talk",
    "overlap",
    "speak",
    "talk",
    "whisper",
    "mumbl",
    "stammer",
    "stutter",
    "shout",
    "yell",
    "scream",
    "sing",
    "chant",
    "murmur",
    "exclaim",
];

/// Whether the inside of a bracket describes a sound, as hard-of-hearing
/// subtitles write them (`[DOOR SLAMS]`, `(phone ringing)`, `[TIRES SCREECHING]`): a verb in the
/// third person or a participle (`slams`, `ringing`, `closed`) at the end, after a noun, or one
/// word ending in `-ing`. A name in brackets (`[JOHN]`, `(MARY JANE)`) and a note of speech
/// (`[laughs]`, `[inaudible]`, `[speaking Spanish]`) are no sound.
///
/// ```text
/// [DOOR SLAMS]        door + slams       a sound
/// (PHONE RINGING)     phone + ringing    a sound
/// [BEEPING]           -ing alone         a sound
/// [MARY JANE]         no verb            a name
/// [laughs]            a note of speech   speech
/// ```
fn sound_description(inner: &str) -> bool {
    // Descriptions are written in one case (`[DOOR SLAMS]`, `(phone ringing)`); a name in
    // brackets is capitalised word by word (`(Chris Evans)`, Google Meet's speaker lines).
    let upper = inner.chars().any(char::is_uppercase);
    let lower = inner.chars().any(char::is_lowercase);
    if upper && lower {
        return false;
    }
    let inner = inner.to_lowercase();
    let inner = inner.as_str();
    let words: Vec<&str> = inner.split_whitespace().collect();
    if words.is_empty()
        || words.len() > 6
        || !inner.chars().all(|c| c.is_alphabetic() || " '-".contains(c))
        || words.iter().any(|w| SPEECH_NOTES.iter().any(|n| w.starts_with(n)))
        // `[in Spanish]`, `(in French)`: speech in another language.
        || words[0] == "in"
    {
        return false;
    }
    let last = words[words.len() - 1];
    let verb = |w: &str| {
        w.len() > 3
            && (w.ends_with("ing") || w.ends_with("ed") || (w.ends_with('s') && !w.ends_with("ss")))
    };
    match words.len() {
        1 => last.len() > 4 && last.ends_with("ing"),
        _ => verb(last),
    }
}

/// Labels that open a line of text, not a speaker's turn (`Note: bring snacks`).
pub(crate) const NOT_SPEAKERS: &[&str] = &[
    "note",
    "notes",
    "nb",
    "n.b.",
    "ps",
    "p.s.",
    "edit",
    "update",
    "disclaimer",
    "warning",
    "tip",
    "example",
    "source",
    "sources",
    "link",
    "links",
    "chapter",
    "chapters",
    "summary",
    "transcript",
    "agenda",
    "step",
    "http",
    "https",
];

/// Picks the prefix convention from the text lines of every caption: brackets when any line
/// starts with one (so that a `[Name]:` line is never left inside a text); `Name:` when the first
/// line of at least half of the captions does (Zoom, Otter), or when names recur at the starts
/// of turns only (Descript, Buzzsprout and podcast captions name a speaker on the first caption
/// of each turn): at least three such captions, two names or more, one of them twice or more.
/// Otherwise a name on a line of its own when nine captions in ten (sound descriptions aside)
/// have text below a first line that can be a name, and those first lines recur (at most half
/// as many names as such captions, at least two): subtitles, whose first lines are speech,
/// almost never repeat like that. A caption whose first line is no name then has no speaker.
pub(crate) fn choose_prefixes<'a, C, L>(captions: C) -> Prefixes
where
    C: Iterator<Item = L>,
    L: Iterator<Item = &'a str>,
{
    let (mut total, mut bracket, mut colon) = (0usize, 0usize, 0usize);
    let mut names: HashMap<&str, usize> = HashMap::new();
    // Captions whose first line can be a name with text below it, and those lines.
    let (mut name_lines, mut sounds) = (0usize, 0usize);
    let mut first_lines: HashMap<&str, usize> = HashMap::new();
    for lines in captions {
        let mut first = true;
        let mut count = 0usize;
        let mut head = "";
        for line in lines.filter(|l| !l.trim().is_empty()) {
            if bracket_prefix(line).is_some() {
                bracket += 1;
            } else if let Some((name, _)) = colon_prefix(line).filter(|_| first) {
                colon += 1;
                *names.entry(name).or_default() += 1;
            }
            if first {
                total += 1;
                first = false;
                head = line.trim();
            }
            count += 1;
        }
        if count >= 2 && (name_line(head) || paren_name(head).is_some()) {
            name_lines += 1;
            *first_lines.entry(head).or_default() += 1;
        } else if is_sound_only(head) {
            // `[Music]` is no caption of anyone's: it counts for no convention.
            sounds += 1;
        }
    }
    if bracket > 0 {
        Prefixes::Bracket
    } else if (colon > 0 && colon * 2 >= total) || names_mark_turns(&names) {
        Prefixes::Colon
    } else if name_lines >= 2
        && name_lines * 10 >= total.saturating_sub(sounds) * 9
        && first_lines.len() * 2 <= name_lines
    {
        Prefixes::NameLine
    } else {
        Prefixes::None
    }
}

/// One speaker's piece of a caption: their name (none for the lines before the first
/// prefix), their text lines, and whether `>>` opened the line that names them.
type PrefixPiece<'a> = (Option<&'a str>, Vec<&'a str>, bool);

/// Splits caption text into pieces by the prefix convention; lines before the first prefix
/// have no speaker.
fn split_by_prefix<'a>(lines: &[&'a str], prefixes: Prefixes) -> Vec<PrefixPiece<'a>> {
    let mut out: Vec<PrefixPiece<'a>> = Vec::new();
    // After a line of a dash alone (and blank lines), a name in parentheses starts a second
    // speaker's lines in the caption (Google Meet: `(Ann)`, text, `-`, `(Bo)`, text); anywhere
    // else a parenthesised line is text (`(Laughter)` in a Teams caption).
    let mut after_dash = false;
    for &line in lines {
        let found = match prefixes {
            Prefixes::None => None,
            Prefixes::Bracket => bracket_prefix(line),
            Prefixes::Colon => colon_prefix(line),
            Prefixes::NameLine if out.is_empty() || after_dash => paren_name(line)
                .or_else(|| (out.is_empty() && name_line(line)).then(|| line.trim()))
                .map(|name| (name, "")),
            Prefixes::NameLine => None,
        };
        // Google Meet separates the speakers of one caption with a line holding a dash alone.
        if prefixes == Prefixes::NameLine && line.trim().trim_matches(['-', '–', '—']).is_empty()
        {
            after_dash |= !line.trim().is_empty();
            continue;
        }
        after_dash = false;
        match (found, out.last_mut()) {
            (Some((name, rest)), _) => {
                let mut v = Vec::new();
                if !rest.trim().is_empty() {
                    v.push(rest);
                }
                out.push((Some(name), v, after_speaker_mark(line).is_some()));
            }
            (None, Some(last)) => last.1.push(line),
            (None, None) => out.push((None, vec![line], false)),
        }
    }
    out
}

/// Splits caption lines by the prefix convention into the speakers' turns, in order:
/// `(speaker, text)`, consecutive lines of one speaker joined (`JOHN`, `MARY`, `JOHN` are three
/// turns); lines before the first prefix go to the first speaker, or have none when no line
/// has a prefix, or when `>>` opens the first prefix's line: it marks the change of speaker
/// there, so the lines before it are the previous speaker's (a caption that ends one turn and
/// starts the next, as broadcast captions run on).
///
/// ```text
/// "to order" / ">> HALE: Present."   → (none, "to order"), (HALE, "Present.")
/// "I will" / "- JOHN: Hi."          → (JOHN, "I will\nHi.")
/// ```
pub(crate) fn group_by_prefix(lines: &[&str], prefixes: Prefixes) -> Vec<(Option<String>, String)> {
    let split = split_by_prefix(lines, prefixes);
    let mut current = split.iter().find(|p| p.0.is_some()).filter(|p| !p.2).and_then(|p| p.0);
    let mut groups: Vec<(Option<String>, String)> = Vec::new();
    for (who, text, _) in split {
        if who.is_some() {
            current = who;
        }
        let name = current.map(str::to_owned);
        if groups.last().is_none_or(|g| g.0 != name) {
            groups.push((name, String::new()));
        }
        let Some(g) = groups.last_mut() else { continue };
        for l in text {
            if !g.1.is_empty() {
                g.1.push('\n');
            }
            g.1.push_str(l);
        }
    }
    groups
}

/// The times of the speakers of one caption that holds several on separate lines (`- MARY:
/// Out.` / `- JOHN: Out where?`, two `<v>` voices): they spoke in turn, not at once, so the
/// caption's time is divided among them in the order given, each share as long as its words
/// (at least one), the boundaries rounded to the millisecond. Where a word's share would be
/// under a millisecond, each keeps the whole caption.
///
/// ```text
/// caption  |-----------------------------|   3.5 → 6.0 s, 3 words
/// MARY     |---------|                       "Out."        1 word:  3.500 → 4.333
/// JOHN               |-------------------|   "Out where?"  2 words: 4.333 → 6.000
/// ```
pub(crate) fn shares_of_caption(start: Time, end: Time, words: &[usize]) -> Vec<(Time, Time)> {
    let weights: Vec<i64> = words.iter().map(|&w| w.max(1) as i64).collect();
    let total: i64 = weights.iter().sum::<i64>().max(1);
    let span = end.micros() - start.micros();
    // A word's share under a millisecond (a cue of thousands of voices, a cue of 1 ms) cannot
    // be written in any caption format: each speaker keeps the whole cue.
    if span < total * 1000 {
        return vec![(start, end); weights.len()];
    }
    let at_share =
        |at: i64| start.micros() + crate::time::round_div(span * at, total * 1000) * 1000;
    let mut at = 0i64;
    let mut out = Vec::with_capacity(weights.len());
    for (k, w) in weights.iter().enumerate() {
        let from = at_share(at);
        at += w;
        let to = if k + 1 == weights.len() { end.micros() } else { at_share(at) };
        out.push((Time::from_micros(from), Time::from_micros(to)));
    }
    if let Some(first) = out.first_mut() {
        first.0 = start;
    }
    out
}

/// A caption of two lines or more that each open with a dialogue dash and name no speaker
/// (`- Until midnight?` / `- Yes, until midnight.`), or with a line after its first opened by
/// `>>` ([`after_speaker_mark`]): captions mark a change of speaker inside them so, but say
/// not who. A `>>` on the first line marks a change from the caption before, not inside this
/// one (`>> Who's there?` is one speaker's).
pub(crate) fn unnamed_dialogue(lines: &[&str]) -> bool {
    let dashed = lines
        .iter()
        .filter(|l| {
            let t = l.trim_start();
            t.starts_with(['-', '\u{2013}', '\u{2014}']) && without_dialogue_dash(t) != t
        })
        .count();
    let marked_after_first = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .skip(1)
        .any(|l| after_speaker_mark(l).is_some());
    dashed >= 2 || marked_after_first
}

/// Joins text lines, trimmed, without empty ones; `None` when nothing is left.
pub(crate) fn join_lines<'a>(lines: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let mut s = String::new();
    for l in lines {
        let l = l.trim();
        if l.is_empty() {
            continue;
        }
        if !s.is_empty() {
            s.push('\n');
        }
        s.push_str(l);
    }
    (!s.is_empty()).then_some(s)
}

/// The caption format whose timestamp syntax a timing line is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Clock {
    /// WebVTT: `[hh:]mm:ss.ttt`, hours of two or more digits.
    WebVtt,
    /// SubRip: `hh:mm:ss,mmm`.
    Srt,
    /// YouTube's SubViewer (`.sbv`): `h:mm:ss.mmm`, the two times of a caption joined by a comma
    /// (`0:00:01.500,0:00:04.000`).
    Sbv,
}

impl Clock {
    fn name(self) -> &'static str {
        match self {
            Clock::WebVtt => "WebVTT",
            Clock::Srt => "SRT",
            Clock::Sbv => "SBV",
        }
    }

    fn syntax(self) -> &'static str {
        match self {
            Clock::WebVtt => "[hh:]mm:ss.ttt",
            Clock::Srt => "hh:mm:ss,mmm",
            Clock::Sbv => "h:mm:ss.mmm",
        }
    }

    /// What separates the seconds from the milliseconds.
    fn millis_separator(self) -> char {
        match self {
            Clock::Srt => ',',
            Clock::WebVtt | Clock::Sbv => '.',
        }
    }

    /// What separates the two times of a timing line.
    fn arrow(self) -> &'static str {
        match self {
            Clock::WebVtt | Clock::Srt => "-->",
            Clock::Sbv => ",",
        }
    }
}

/// What makes `field`, a time [`parse_clock`] reads, malformed in `clock`'s syntax (minutes and
/// seconds of two digits from 00 to 59, exactly three digits of milliseconds after `.` in WebVTT
/// or `,` in SRT, hours required in SRT and SBV and of two or more digits but in SBV); `None` when
/// it is well formed.
pub(crate) fn clock_problem(field: &str, clock: Clock) -> Option<&'static str> {
    let parts: Vec<&str> = field.split(':').collect();
    let (hours, minutes, seconds) = match parts[..] {
        [h, m, s] => (Some(h), m, s),
        [m, s] => (None, m, s),
        _ => return Some("not a clock time"),
    };
    let two_digits = |p: &str| p.len() == 2 && p.bytes().all(|b| b.is_ascii_digit());
    let separator = if clock == Clock::Srt { ',' } else { '.' };
    let Some((whole, millis)) = seconds.split_once(['.', ',']) else {
        return Some("no milliseconds");
    };
    match hours {
        None if clock != Clock::WebVtt => return Some("no hours"),
        Some(h) if h.len() < 2 && clock != Clock::Sbv => return Some("hours need two digits"),
        _ => {}
    }
    if !two_digits(minutes) {
        return Some("minutes need two digits");
    }
    if minutes > "59" {
        return Some("minutes above 59");
    }
    if !two_digits(whole) {
        return Some("seconds need two digits");
    }
    if whole > "59" {
        return Some("seconds above 59");
    }
    if millis.len() != 3 {
        return Some("milliseconds need three digits");
    }
    if !seconds[whole.len()..].starts_with(separator) {
        return Some(if clock == Clock::Srt {
            "`.` before the milliseconds"
        } else {
            "`,` before the milliseconds"
        });
    }
    None
}

/// Reads caption timing lines `start --> end [settings]` of one file, warning about times that
/// read but break the format's syntax (once per file: exporters repeat their quirk on every cue).
pub(crate) struct TimingReader {
    clock: Clock,
    malformed_warned: bool,
    colon_warned: bool,
    /// The file writes its clock fields unpadded (see [`TimingReader::new`]): a fraction of
    /// fewer than three digits counts milliseconds.
    unpadded: bool,
    unpadded_warned: bool,
}

/// Whether a timing field is an `h:m:s` clock whose minutes or seconds are written without
/// their leading zero (`0:0:6.90`, `0:1:27.820`).
fn unpadded_field(field: &str) -> bool {
    let mut parts = field.split(':');
    let (Some(_), Some(m), Some(s), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let whole = s.split(['.', ',']).next().unwrap_or("");
    let digit = |p: &str| p.len() == 1 && p.bytes().all(|b| b.is_ascii_digit());
    digit(m) || digit(whole)
}

/// In an unpadded file, the time `field` means when its fraction has one or two digits: the
/// fraction counts milliseconds (`6.90` is 6 s 90 ms); `None` for any other field.
fn unpadded_millis(field: &str, read: Time) -> Option<Time> {
    let (_, fraction) = field.rsplit_once(['.', ','])?;
    if fraction.is_empty() || fraction.len() > 2 || !fraction.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits: i64 = fraction.parse().ok()?;
    // Read as a decimal fraction, `.90` added 900 000 µs (away from zero); it means 90 000.
    let decimal = digits * if fraction.len() == 1 { 100_000 } else { 10_000 };
    let sign = if field.trim_start().starts_with('-') { -1 } else { 1 };
    Some(Time::from_micros(read.micros() - sign * (decimal - digits * 1000)))
}

impl TimingReader {
    /// A reader for the timing lines of `text`, a file in `clock`'s format.
    ///
    /// Microsoft Teams (its `.vtt` from Microsoft Graph and its Word transcript) writes every
    /// clock field without leading zeros, the milliseconds too: `0:0:6.90 --> 0:0:6.500` is
    /// 6.090 to 6.500 s, not 6.9 to 6.5. A file is read that way only on evidence that its
    /// fractions count milliseconds: among its times that write minutes or seconds with one
    /// digit, a two-digit fraction ending in 0 (`0:0:6.90`: a writer of decimal seconds would
    /// write `6.9`), and no fraction of two or more digits starting with 0 (`1.05`: that is a
    /// decimal). There a fraction of one or two digits counts milliseconds (three digits read
    /// the same either way), with one warning; `0:0:1.5 --> 0:0:2.25` keeps its decimals.
    pub(crate) fn new(clock: Clock, text: &str) -> TimingReader {
        let (mut ms_evidence, mut decimal_evidence) = (false, false);
        let fields = text
            .lines()
            .filter_map(|l| l.split_once("-->"))
            .flat_map(|(a, b)| [a.trim(), b.split_ascii_whitespace().next().unwrap_or("")]);
        for field in fields.filter(|f| unpadded_field(f)) {
            let Some((_, f)) = field.rsplit_once(['.', ',']) else { continue };
            if !f.bytes().all(|b| b.is_ascii_digit()) {
                continue;
            }
            ms_evidence |= f.len() == 2 && f.ends_with('0');
            decimal_evidence |= f.len() >= 2 && f.starts_with('0');
        }
        let unpadded = ms_evidence && !decimal_evidence;
        TimingReader {
            clock,
            malformed_warned: false,
            colon_warned: false,
            unpadded,
            unpadded_warned: false,
        }
    }

    /// The two times of timing line `n` and the column of the end time. `None` when the line
    /// has no `-->` (in SBV, no comma), or when a time cannot be read at all: that cue is skipped with a
    /// [`WarningKind::Skipped`] warning and the rest of the file is kept, as the WebVTT parsing
    /// rules and webvtt-py do. A time that reads but is malformed (`00:00.000` in SRT,
    /// `00:00:01` without milliseconds, minutes above 59) is kept with one
    /// [`WarningKind::Repaired`] warning. Both are repairs, so `--strict` rejects them.
    pub(crate) fn parse(
        &mut self,
        line: &str,
        n: usize,
        ctx: &mut ReadContext<'_>,
    ) -> Result<Option<(Time, Time, usize)>> {
        let Some(arrow) = line.find(self.clock.arrow()) else { return Ok(None) };
        let start_field = line[..arrow].trim();
        let after = &line[arrow + self.clock.arrow().len()..];
        let after_trimmed = after.trim_start();
        let end_field = after_trimmed.split_ascii_whitespace().next().unwrap_or("");
        let start_col = column_of(line, start_field);
        let end_col = column_of(line, after_trimmed);
        let mut times = [Time::ZERO; 2];
        for (k, (field, col, what)) in
            [(start_field, start_col, "cue start"), (end_field, end_col, "cue end")]
                .into_iter()
                .enumerate()
        {
            // A `:` before three digits of milliseconds (`00:00:11:890`, `00:11:890`) is read
            // before the clock: those three digits are never seconds.
            match colon_millis(field) {
                Some(Ok(t)) => {
                    if !std::mem::replace(&mut self.colon_warned, true) {
                        ctx.warn_at(
                            WarningKind::Repaired,
                            n,
                            Some(col),
                            format!(
                                "{what} {:?} has a `:` before the milliseconds, not the {} `{}`; the separator was taken as the milliseconds' ({t}), and in every later time like it too",
                                shown(field, 40),
                                self.clock.name(),
                                self.clock.millis_separator(),
                            ),
                        )?;
                    }
                    // A malformed field besides the colon is noted as any other.
                    let (head, _) = field.trim().rsplit_once(':').unwrap_or((field, ""));
                    self.check_syntax(
                        &format!("{head}{}000", self.clock.millis_separator()),
                        field,
                        what,
                        t,
                        n,
                        col,
                        ctx,
                    )?;
                    times[k] = t;
                    continue;
                }
                Some(Err(why)) => {
                    ctx.warn_at(
                        WarningKind::Skipped,
                        n,
                        Some(col),
                        format!("{what} {:?}: {why}; cue skipped", shown(field, 40)),
                    )?;
                    return Ok(None);
                }
                None => {}
            }
            let t = match parse_clock(field) {
                Ok(t) => t,
                Err(e) => {
                    let why = if field.split(':').count() == 4 {
                        "four clock fields whose last is not three digits of milliseconds (a frame count is not read)".to_owned()
                    } else {
                        e.to_string()
                    };
                    ctx.warn_at(
                        WarningKind::Skipped,
                        n,
                        Some(col),
                        format!("{what} {:?}: {why}; cue skipped", shown(field, 40)),
                    )?;
                    return Ok(None);
                }
            };
            // In a file of Teams' unpadded clock, a short fraction counts milliseconds.
            times[k] = unpadded_millis(field, t).filter(|_| self.unpadded).unwrap_or(t);
            if times[k] != t && !std::mem::replace(&mut self.unpadded_warned, true) {
                ctx.warn_at(
                    WarningKind::Repaired,
                    n,
                    Some(col),
                    format!(
                        "{what} {:?}: this file writes its times without leading zeros (as Microsoft Teams does), so a fraction of one or two digits counts milliseconds; read as {}, not {t}, and every later one like it too",
                        shown(field, 40),
                        times[k]
                    ),
                )?;
            }
            self.check_syntax(field, field, what, times[k], n, col, ctx)?;
        }
        Ok(Some((times[0], times[1], end_col)))
    }

    /// Warns, once per file, when `checked` (the field as read, `field` as written) breaks the
    /// clock's syntax.
    #[allow(clippy::too_many_arguments)]
    fn check_syntax(
        &mut self,
        checked: &str,
        field: &str,
        what: &str,
        time: Time,
        n: usize,
        col: usize,
        ctx: &mut ReadContext<'_>,
    ) -> Result<()> {
        if let Some(problem) = clock_problem(checked, self.clock) {
            if !self.malformed_warned {
                self.malformed_warned = true;
                ctx.warn_at(
                    WarningKind::Repaired,
                    n,
                    Some(col),
                    format!(
                        "{what} {:?} breaks the {} syntax {} ({problem}); read as {time}, and every later one like it too",
                        shown(field, 40),
                        self.clock.name(),
                        self.clock.syntax(),
                    ),
                )?;
            }
        }
        Ok(())
    }
}

/// A caption time written with a `:` before its milliseconds (seen in SRT files in the wild:
/// `00:00:11:890`, `00:11:890`): clock fields of digits without `.` or `,`, the last of exactly
/// three digits. Those three digits are milliseconds, never seconds: `hh:mm:ss:mmm` and
/// `mm:ss:mmm` are read when their seconds are below 60; `Err` says why any other such field
/// (`00:75:890`, `11:890`) is refused. `None` for a field of any other shape (two digits after
/// the last `:`, `00:00:11:22`, may count frames, SMPTE timecode: not read here).
pub(crate) fn colon_millis(field: &str) -> Option<std::result::Result<Time, String>> {
    let field = field.trim();
    let parts: Vec<&str> = field.split(':').collect();
    let digits = |p: &str| !p.is_empty() && p.len() <= 12 && p.bytes().all(|b| b.is_ascii_digit());
    if !(2..=4).contains(&parts.len()) || !parts.iter().all(|p| digits(p)) {
        return None;
    }
    let (clock, millis) = parts.split_at(parts.len() - 1);
    if millis[0].len() != 3 {
        return None;
    }
    let number = |p: &str| p.parse::<i64>().unwrap_or(i64::MAX);
    let (hours, minutes, seconds) = match clock {
        [h, m, s] => (number(h), number(m), *s),
        [m, s] => (0, number(m), *s),
        _ => {
            return Some(Err("three digits after the last `:` are milliseconds, not seconds, and no minutes and seconds stand before them (`mm:ss:mmm`)".to_owned()))
        }
    };
    if number(seconds) >= 60 {
        return Some(Err(format!(
            "three digits after the last `:` are milliseconds, and the seconds before them ({seconds}) are 60 or more: not a time"
        )));
    }
    let micros = hours
        .checked_mul(3600)
        .and_then(|x| x.checked_add(minutes.checked_mul(60)?))
        .and_then(|x| x.checked_add(number(seconds)))
        .and_then(|x| x.checked_mul(1000))
        .and_then(|x| x.checked_add(number(millis[0])))
        .and_then(|x| x.checked_mul(1000))
        .filter(|&x| x <= crate::time::MAX_MICROS);
    Some(micros.map(Time::from_micros).ok_or_else(|| "time out of range".to_owned()))
}

/// Whether `field` is a caption time as the caption readers take it, to tell timing lines
/// (its value, or why it is refused, is [`TimingReader::parse`]'s): [`parse_clock`]'s clock,
/// or one with a `:` before the milliseconds ([`colon_millis`]).
pub(crate) fn is_caption_clock(field: &str) -> bool {
    colon_millis(field).is_some() || parse_clock(field).is_ok()
}

/// Decodes one HTML character reference at the start of `s` (which starts with `&`): the text
/// and the bytes consumed, or `None` when it is not one.
fn entity(s: &str) -> Option<(String, usize)> {
    let end = s.char_indices().take(12).find(|&(_, c)| c == ';').map(|(i, _)| i)?;
    let name = &s[1..end];
    let text = match name {
        "amp" => "&".to_owned(),
        "lt" => "<".to_owned(),
        "gt" => ">".to_owned(),
        "quot" => "\"".to_owned(),
        "apos" => "'".to_owned(),
        "nbsp" => "\u{a0}".to_owned(),
        "lrm" => "\u{200e}".to_owned(),
        "rlm" => "\u{200f}".to_owned(),
        _ => {
            let num = name.strip_prefix('#')?;
            let code = match num.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => num.parse::<u32>().ok()?,
            };
            char::from_u32(code)?.to_string()
        }
    };
    Some((text, end + 1))
}

/// Decodes HTML character references in `s`; unknown ones stay as written.
pub(crate) fn decode_entities(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(&rest[..i]);
        rest = &rest[i..];
        match entity(rest) {
            Some((text, used)) => {
                out.push_str(&text);
                rest = &rest[used..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

// ---------------------------------------------------------------------------------------------
// Reading.

/// One cue as found in the file.
struct RawCue<'t> {
    line: usize,
    end_col: usize,
    start: Time,
    end: Time,
    payload: Vec<&'t str>,
}

/// Text of one speaker within a cue, before words are split.
#[derive(Default)]
struct Piece {
    voice: Option<String>,
    raw: String,
    /// Inline timestamps: byte offset in `raw` and time.
    marks: Vec<(usize, Time)>,
}

/// The text of one speaker in a cue: speaker, raw text, inline timestamps.
type Group = (Option<String>, String, Vec<(usize, Time)>);

fn is_block_keyword(line: &str, keyword: &str) -> bool {
    line.strip_prefix(keyword).is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t']))
}

/// The speaker of a voice span from what follows `<v`: its annotation (`<v.loud Ann>` → `Ann`),
/// or, for a span with classes only (`<v.speaker1>`, as some exporters write), the classes, so
/// that class-only voices stay apart instead of all becoming [`UNKNOWN_SPEAKER`].
pub(crate) fn voice_name(after_v: &str) -> String {
    let annotation = after_v
        .trim_start_matches(|c: char| !c.is_whitespace())
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if !annotation.is_empty() {
        return decode_entities(&annotation);
    }
    let classes = after_v.split_whitespace().next().unwrap_or("");
    let classes: Vec<&str> = classes.split('.').filter(|c| !c.is_empty()).collect();
    decode_entities(&classes.join("."))
}

/// Splits a cue payload into pieces at voice spans, dropping other tags, decoding entities and
/// noting inline timestamps.
fn tokenize(payload: &str) -> Vec<Piece> {
    let mut pieces = vec![Piece::default()];
    let mut rest = payload;
    while !rest.is_empty() {
        let next = rest.find(['<', '&']).unwrap_or(rest.len());
        if let Some(p) = pieces.last_mut() {
            p.raw.push_str(&rest[..next]);
        }
        rest = &rest[next..];
        if rest.starts_with('&') {
            match entity(rest) {
                Some((text, used)) => {
                    if let Some(p) = pieces.last_mut() {
                        p.raw.push_str(&text);
                    }
                    rest = &rest[used..];
                }
                None => {
                    if let Some(p) = pieces.last_mut() {
                        p.raw.push('&');
                    }
                    rest = &rest[1..];
                }
            }
            continue;
        }
        if rest.starts_with('<') {
            let close = rest.find('>').unwrap_or(rest.len());
            let tag = &rest[1..close];
            rest = rest.get(close + 1..).unwrap_or("");
            let tag_name_end = tag.find(['.', ' ', '\t', '\n']).unwrap_or(tag.len());
            let name = &tag[..tag_name_end];
            if name == "v" {
                let annotation = voice_name(&tag[tag_name_end..]);
                pieces.push(Piece {
                    voice: (!annotation.is_empty()).then_some(annotation),
                    ..Piece::default()
                });
            } else if name == "/v" {
                pieces.push(Piece::default());
            } else if tag.starts_with(|c: char| c.is_ascii_digit()) {
                if let Ok(t) = parse_clock(tag) {
                    if let Some(p) = pieces.last_mut() {
                        p.marks.push((p.raw.len(), t));
                    }
                }
            }
        }
    }
    pieces
}

/// The words of `raw` from byte `cut` on, timed by the inline timestamps (see the module doc).
fn timed_words(
    raw: &str,
    cut: usize,
    marks: &[(usize, Time)],
    start: Time,
    end: Time,
) -> Vec<Word> {
    let mut words: Vec<(usize, Word)> = Vec::new();
    let mut token_start: Option<usize> = None;
    for (i, c) in raw.char_indices().chain(std::iter::once((raw.len(), ' '))) {
        match (c.is_whitespace(), token_start) {
            (true, Some(s)) => {
                if s >= cut {
                    words.push((s, Word::untimed(&raw[s..i])));
                }
                token_start = None;
            }
            (false, None) => token_start = Some(i),
            _ => {}
        }
    }
    let mut k = 0;
    for &(mark, t) in marks.iter().filter(|m| m.0 >= cut) {
        while k < words.len() && words[k].0 < mark {
            k += 1;
        }
        if let Some(w) = words.get_mut(k) {
            if w.1.start.is_none() {
                w.1.start = Some(t);
            }
        }
    }
    if let Some(first) = words.first_mut() {
        if first.1.start.is_none() {
            first.1.start = Some(start);
        }
    }
    let n = words.len();
    for i in 0..n {
        if words[i].1.start.is_none() {
            continue;
        }
        let next = words.get(i + 1).map(|w| w.1.start);
        words[i].1.end = match next {
            Some(Some(t)) => Some(t),
            Some(None) => None,
            None => Some(end),
        };
    }
    words.into_iter().map(|(_, w)| w).collect()
}

/// Whether line `i` ends a cue's payload. An empty line or a timing line always does. A line of
/// spaces only ends it when no cue text follows (the end of the input, another blank line, a
/// timing line, or a cue id before one): YouTube's auto-captions put a line of one space above
/// the text of each cue and below the text of each 10 ms rolling cue.
///
/// ```text
/// 00:00:00.000 --> 00:00:02.310      timing
/// ␠                                  spaces, text follows: part of the payload
/// so<00:00:00.480><c> today</c>      payload
/// ␠                                  spaces, then an empty line: the end of the cue
/// ```
///
/// Before the cue has any text (`has_text` false), several lines of spaces in a row are part
/// of the payload too when text follows them (`␠`, `␠`, then the words with their inline
/// times, as YouTube's automatic captions saved by youtube-dl open a cue). Once the cue has
/// text, only the single line of spaces above is looked past: two in a row end the cue, so a
/// `NOTE` block or stray words after them are not read into it.
fn ends_payload(lines: &[(usize, &str)], i: usize, has_text: bool) -> bool {
    let line = lines[i].1;
    if line.is_empty() || line.contains("-->") {
        return true;
    }
    if !line.trim().is_empty() {
        return false;
    }
    let mut j = i + 1;
    if !has_text {
        // Past every line of spaces (YouTube's automatic captions open cues with two).
        while lines.get(j).is_some_and(|(_, l)| !l.is_empty() && l.trim().is_empty()) {
            j += 1;
        }
    }
    lines.get(j).is_none_or(|(_, next)| {
        next.trim().is_empty()
            || next.contains("-->")
            || lines.get(j + 1).is_some_and(|(_, l)| l.contains("-->"))
    })
}

/// Reads WebVTT text as one recording (see the module doc).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let mut lines: Vec<(usize, &str)> = Vec::new();
    for item in ctx.lines(text) {
        lines.push(item?);
    }
    if lines.iter().all(|(_, l)| l.trim().is_empty()) {
        return Err(ctx.error(1, 1, "empty input: a WebVTT file starts with `WEBVTT`"));
    }
    let mut i = 0;
    let mut youtube = false;
    let first = lines[0].1.trim_start_matches('\u{feff}');
    let header = is_block_keyword(first, "WEBVTT");
    if header {
        i = 1;
        while i < lines.len() && !lines[i].1.trim().is_empty() && !lines[i].1.contains("-->") {
            if lines[i].1.starts_with("Kind:") {
                youtube = true;
            }
            i += 1;
        }
    } else {
        ctx.warn_at(
            WarningKind::Note,
            lines[0].0,
            Some(1),
            format!("no `WEBVTT` header (found {:?}); read as WebVTT anyway", shown(first, 30)),
        )?;
    }
    let mut cues: Vec<RawCue<'_>> = Vec::new();
    // Cues whose payload is JSON data, with the line of the first.
    let mut metadata: Option<(usize, usize)> = None;
    let mut timing = TimingReader::new(Clock::WebVtt, text);
    while i < lines.len() {
        let (n, line) = lines[i];
        if line.trim().is_empty() {
            i += 1;
            continue;
        }
        if is_block_keyword(line, "NOTE")
            || is_block_keyword(line, "STYLE")
            || is_block_keyword(line, "REGION")
        {
            while i < lines.len() && !lines[i].1.trim().is_empty() {
                i += 1;
            }
            continue;
        }
        let timing_at = if line.contains("-->") {
            i
        } else if i + 1 < lines.len() && lines[i + 1].1.contains("-->") {
            i + 1 // `line` is a cue id
        } else {
            ctx.warn_at(
                WarningKind::Skipped,
                n,
                Some(1),
                format!("block without a timing line ({:?}); skipped", shown(line, 30)),
            )?;
            while i < lines.len() && !lines[i].1.trim().is_empty() {
                i += 1;
            }
            continue;
        };
        let (tn, tline) = lines[timing_at];
        i = timing_at + 1;
        let Some((start, end, end_col)) = timing.parse(tline, tn, ctx)? else {
            // A cue whose times cannot be read is skipped whole, payload included.
            while i < lines.len() && !lines[i].1.trim().is_empty() && !lines[i].1.contains("-->") {
                i += 1;
            }
            continue;
        };
        let mut payload = Vec::new();
        let mut has_text = false;
        while i < lines.len() && !ends_payload(&lines, i, has_text) {
            has_text |= !lines[i].1.trim().is_empty();
            payload.push(lines[i].1);
            i += 1;
        }
        if metadata_payload(&payload) {
            metadata.get_or_insert((tn, 0)).1 += 1;
            continue;
        }
        cues.push(RawCue { line: tn, end_col, start, end, payload });
    }
    if let Some((line, count)) = metadata {
        ctx.warn_at(
            WarningKind::Skipped,
            line,
            Some(1),
            format!("{count} cue(s) holding JSON data skipped: a metadata cue (chapters, timed data) is no one's speech"),
        )?;
    }
    if cues.is_empty() && !header && !lines.iter().any(|(_, l)| l.contains("-->")) {
        // Text with neither the header nor a timing line is no WebVTT (a subtitle file of
        // another kind named with --from webvtt): an error, as the SRT reader gives.
        let (n, line) =
            lines.iter().find(|(_, l)| !l.trim().is_empty()).copied().unwrap_or((1, ""));
        return Err(ctx.error(
            n,
            1,
            format!(
                "no `WEBVTT` header and no cue timing line such as `00:00:01.000 --> 00:00:04.000` (found `{}`): this is not WebVTT",
                shown(line.trim(), 40)
            ),
        ));
    }
    build(cues, youtube, ctx)
}

/// Whether a cue's payload is JSON data rather than text: a WebVTT metadata track (the
/// `kind="metadata"` tracks of HTML video, chapters with JSON payloads) times objects, not
/// words. Only an object, or an array of objects, counts: a caption such as `[Music]` or `[2]`
/// stays text.
fn metadata_payload(payload: &[&str]) -> bool {
    let joined = payload.join("\n");
    let body = joined.trim();
    if !(body.starts_with('{') && body.ends_with('}')
        || body.starts_with('[') && body.ends_with(']'))
    {
        return false;
    }
    match serde_json::from_str::<serde_json::Value>(body) {
        Ok(serde_json::Value::Object(_)) => true,
        Ok(serde_json::Value::Array(items)) => {
            !items.is_empty() && items.iter().all(serde_json::Value::is_object)
        }
        _ => false,
    }
}

/// The captions a file's reading notes once each, by the line of the first and a count:
/// those skipped as sound descriptions, those whose time was divided among their speakers
/// ([`shares_of_caption`]), dialogues of dashes that name no one ([`unnamed_dialogue`]), and
/// captions opened by `>>` without a name ([`after_speaker_mark`]).
#[derive(Debug, Default)]
pub(crate) struct CaptionNotes {
    blank: Option<(usize, usize)>,
    sounds: Option<(usize, usize)>,
    shared: Option<(usize, usize)>,
    unnamed: Option<(usize, usize)>,
    marked: Option<(usize, usize)>,
}

impl CaptionNotes {
    /// A caption at `line` skipped as showing no text.
    pub(crate) fn blank(&mut self, line: usize) {
        self.blank.get_or_insert((line, 0)).1 += 1;
    }

    /// A caption at `line` skipped as sound.
    pub(crate) fn sound(&mut self, line: usize) {
        self.sounds.get_or_insert((line, 0)).1 += 1;
    }

    /// A caption at `line` whose time was divided among its speakers.
    pub(crate) fn shared(&mut self, line: usize) {
        self.shared.get_or_insert((line, 0)).1 += 1;
    }

    /// A caption at `line` of a dialogue that names no one.
    pub(crate) fn unnamed(&mut self, line: usize) {
        self.unnamed.get_or_insert((line, 0)).1 += 1;
    }

    /// A caption at `line` that `>>` opens without a name: a new speaker, not named.
    pub(crate) fn unnamed_speaker(&mut self, line: usize) {
        self.marked.get_or_insert((line, 0)).1 += 1;
    }

    /// The notes, for captions called `what` (`cue`, `block`).
    pub(crate) fn finish(self, what: &str, ctx: &mut ReadContext<'_>) -> Result<()> {
        let notes = [
            (self.blank, WarningKind::Skipped, format!("{what}(s) with no text skipped: a caption that shows nothing marks no one's speech")),
            (self.sounds, WarningKind::Skipped, format!("{what}(s) holding only a sound description (`[Music]`, `[Applause]`, `♪`) skipped: no one's speech")),
            (self.shared, WarningKind::Note, format!("{what}(s) hold two speakers or more on separate lines, who spoke in turn: each {what}'s time is divided among them in order, by their words (the changes of speaker inside them are estimated, and no overlap is read there)")),
            // Whose the lines are is what is missing: speakers' warnings, which `--words`
            // (whose file's speakers are replaced by the detected ones) leaves out.
            (self.unnamed, WarningKind::MissingSpeaker, format!("{what}(s) hold a dialogue of lines opened by dashes without names, or a line after the first opened by `>>` (a new speaker) without one: two speakers or more, but the {what} says not who; each is read as one speaker's, so turns inside them are lost")),
            (self.marked, WarningKind::MissingSpeaker, format!("{what}(s) open with `>>` (a new speaker) without a name: each is read as the speaker {UNKNOWN_SPEAKER:?}, as is every {what} without a name, so the changes of speaker they mark are lost")),
        ];
        for (found, kind, message) in notes {
            if let Some((line, count)) = found {
                ctx.warn_at(kind, line, Some(1), format!("{count} {message}"))?;
            }
        }
        Ok(())
    }
}

/// Captions named only at the start of each turn (`Name: text` or `<v Name>`, then captions
/// without a name): those without a name continue the speaker named last; counted for one note.
#[derive(Debug)]
pub(crate) struct Carried {
    /// Whether the file names its speakers at the starts of turns (else a caption without a
    /// name has no speaker).
    carries: bool,
    /// How a caption names its speaker, for the note.
    marker: &'static str,
    last: Option<String>,
    /// Captions given to the speaker before them, and the line of the first.
    count: usize,
    first_line: usize,
}

impl Carried {
    /// For a file whose convention is `prefixes`: only `Name:` prefixes mark turns, and only
    /// when they are not on every caption ([`names_every_caption`]).
    pub(crate) fn for_prefixes(prefixes: Prefixes, names_every_caption: bool) -> Self {
        Self::new(prefixes == Prefixes::Colon && !names_every_caption, "a `Name:` prefix")
    }

    /// Carrying the last name forward when `carries`; `marker` says how captions name a
    /// speaker (in the note).
    pub(crate) fn new(carries: bool, marker: &'static str) -> Self {
        Carried { carries, marker, last: None, count: 0, first_line: 0 }
    }

    /// The speaker of a caption piece: its own name, else (names at the starts of turns) the
    /// last name.
    pub(crate) fn speaker(&mut self, who: Option<String>, line: usize) -> Option<String> {
        match who {
            Some(s) => {
                self.last = Some(s.clone());
                Some(s)
            }
            None if self.carries && self.last.is_some() => {
                if self.count == 0 {
                    self.first_line = line;
                }
                self.count += 1;
                self.last.clone()
            }
            None => None,
        }
    }

    /// Forgets the speaker named last: the caption marks a new speaker (`>>`) without naming
    /// them, so the one before is not carried on.
    pub(crate) fn forget(&mut self) {
        self.last = None;
    }

    /// The note saying how many captions continued the speaker before them.
    pub(crate) fn finish(self, what: &str, ctx: &mut ReadContext<'_>) -> Result<()> {
        if self.count > 0 {
            ctx.warn_at(
                WarningKind::Note,
                self.first_line,
                Some(1),
                format!(
                    "{} {what}(s) without {} continue the speaker named before them (the names mark the starts of turns)",
                    self.count, self.marker
                ),
            )?;
        }
        Ok(())
    }
}

/// Whether a caption file names the speaker of every caption it can, as Zoom does, rather than
/// at the starts of turns, as podcast captions do: the same name on two captions in a row at
/// least as often as a caption without a name. A caption without a name then has no known
/// speaker: carrying the last name forward would give one person's question and the next
/// person's answer to the same speaker. `names` holds each caption's name, in order (sounds
/// left out).
///
/// ```text
/// Zoom     Ana: so were you | Ana: the one | yes okay | Bo: sure  repeats 1 >= unnamed 1: unknown
/// podcast  Ana: so were you | the one      | Bo: yes  | sure      repeats 0 <  unnamed 2: carried
/// ```
pub(crate) fn names_every_caption<'a>(names: impl IntoIterator<Item = Option<&'a str>>) -> bool {
    let (mut repeats, mut unnamed, mut last) = (0usize, 0usize, None);
    for name in names {
        if name.is_some() && name == last {
            repeats += 1;
        }
        unnamed += usize::from(name.is_none());
        last = name;
    }
    repeats > 0 && repeats >= unnamed
}

/// Whether the names of a caption file mark the starts of turns, by the rule of
/// [`choose_prefixes`] for recurring names: at least three named captions, two names or more,
/// one of them twice or more. `names` counts each caption's name (its first voice span, or its
/// `Name:` prefix).
fn names_mark_turns(names: &HashMap<&str, usize>) -> bool {
    names.values().sum::<usize>() >= 3 && names.len() >= 2 && names.values().any(|&n| n >= 2)
}

fn build(cues: Vec<RawCue<'_>>, youtube: bool, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    if cues.is_empty() {
        ctx.warn(Warning::new(WarningKind::Note, "no cues in the input"))?;
    }
    // Tokenize every cue first: the prefix convention is chosen for the whole file.
    let tokenized: Vec<Vec<Piece>> = cues.iter().map(|c| tokenize(&c.payload.join("\n"))).collect();
    let has_voice = |p: &[Piece]| p.iter().any(|x| x.voice.is_some());
    let mut prefixes = choose_prefixes(
        tokenized
            .iter()
            .filter(|p| !has_voice(p))
            .map(|p| p.iter().flat_map(|x| x.raw.split('\n'))),
    );
    // Voice spans on some cues only: podcast captions name the speaker on the first cue of
    // each turn, with `<v Name>` (and sometimes `Name:` on others). When those names recur as
    // turn starts do, the cues without a name continue the speaker named before them.
    let mut carries = prefixes == Prefixes::Colon;
    let mut marker = "a `Name:` prefix";
    if tokenized.iter().any(|p| has_voice(p)) && tokenized.iter().any(|p| !has_voice(p)) {
        let mut names: HashMap<&str, usize> = HashMap::new();
        let mut colon = 0;
        for pieces in &tokenized {
            let first_voice = pieces.iter().find_map(|x| x.voice.as_deref());
            let first_line =
                || pieces.iter().flat_map(|x| x.raw.split('\n')).find(|l| !l.trim().is_empty());
            let name = match first_voice {
                Some(v) => Some(v),
                None => first_line().and_then(colon_prefix).map(|(name, _)| name),
            };
            if let Some(name) = name {
                colon += usize::from(first_voice.is_none());
                *names.entry(name).or_default() += 1;
            }
        }
        if names_mark_turns(&names) {
            carries = true;
            marker = "a `<v Name>` span or `Name:` prefix";
            if colon > 0 && prefixes == Prefixes::None {
                prefixes = Prefixes::Colon;
            }
        }
    }
    // Names on every caption (Zoom): a caption without one is not the last speaker's.
    let caption_names = cues.iter().zip(&tokenized).filter_map(|(_, pieces)| {
        let plain: String = pieces.iter().map(|p| p.raw.as_str()).collect();
        let first_voice = pieces.iter().find_map(|x| x.voice.as_deref());
        let first_line =
            || pieces.iter().flat_map(|x| x.raw.split('\n')).find(|l| !l.trim().is_empty());
        (first_voice.is_some() || !is_sound_only(&plain) && !is_blank(&plain)).then(|| {
            first_voice.or_else(|| first_line().and_then(colon_prefix).map(|(name, _)| name))
        })
    });
    let carries = carries && !names_every_caption(caption_names);
    let mut b = TranscriptBuilder::new();
    let mut missing_warned = false;
    let mut carried = Carried::new(carries, marker);
    let mut previous: Vec<(String, Vec<String>)> = Vec::new();
    let mut notes = CaptionNotes::default();
    for (cue, pieces) in cues.iter().zip(tokenized) {
        if !has_voice(&pieces) {
            let plain: String = pieces.iter().map(|p| p.raw.as_str()).collect();
            if is_blank(&plain) {
                // Named by its timing line: it has no text line.
                notes.blank(cue.line);
                continue;
            }
            if is_sound_only(&plain) {
                notes.sound(cue.line + 1);
                continue;
            }
        }
        // `>>` opening a cue without voices: a new speaker, not the one named before.
        let speaker_mark = !has_voice(&pieces)
            && opens_with_speaker_mark(pieces.iter().flat_map(|x| x.raw.split('\n')));
        // (speaker, raw text, marks), one per distinct speaker of the cue.
        let mut groups: Vec<Group> = Vec::new();
        if has_voice(&pieces) {
            // Text outside voice spans goes to the next voice, or to the last one at the end
            // (one backward pass, so a cue of many spans stays linear).
            let mut targets: Vec<Option<usize>> = vec![None; pieces.len()];
            let mut next = None;
            for k in (0..pieces.len()).rev() {
                if pieces[k].voice.is_some() {
                    next = Some(k);
                }
                targets[k] = next;
            }
            let mut last = None;
            for (k, t) in targets.iter_mut().enumerate() {
                if pieces[k].voice.is_some() {
                    last = Some(k);
                }
                if t.is_none() {
                    *t = last;
                }
            }
            // Consecutive spans of one voice are one turn; `A`, `B`, `A` are three.
            for k in 0..pieces.len() {
                let p = &pieces[k];
                let target = targets[k].and_then(|j| pieces[j].voice.clone());
                if groups.last().is_none_or(|g| g.0 != target) {
                    groups.push((target, String::new(), Vec::new()));
                }
                let Some(g) = groups.last_mut() else { continue };
                let joined = g.1.ends_with(char::is_whitespace)
                    || p.raw.starts_with(char::is_whitespace)
                    || g.1.is_empty()
                    || p.raw.is_empty();
                if !joined {
                    g.1.push(' ');
                }
                let base = g.1.len();
                g.2.extend(p.marks.iter().map(|&(o, t)| (o + base, t)));
                g.1.push_str(&p.raw);
            }
        } else {
            let mut raw = String::new();
            let mut marks = Vec::new();
            for p in pieces {
                let base = raw.len();
                marks.extend(p.marks.iter().map(|&(o, t)| (o + base, t)));
                raw.push_str(&p.raw);
            }
            let lines: Vec<&str> = raw.split('\n').collect();
            let split = group_by_prefix(&lines, prefixes);
            if split.iter().any(|(who, _)| who.is_some()) {
                groups.extend(split.into_iter().map(|(who, text)| (who, text, Vec::new())));
            } else {
                if unnamed_dialogue(&lines) {
                    notes.unnamed(cue.line + 1);
                }
                groups.push((None, raw, marks));
            }
        }
        // Speakers on separate lines of one cue spoke in turn: the cue's time is divided
        // among them (not when inline timestamps time the words themselves).
        let shares = (groups.len() >= 2 && groups.iter().all(|g| g.2.is_empty())).then(|| {
            notes.shared(cue.line + 1);
            let words: Vec<usize> = groups.iter().map(|g| super::notes::word_count(&g.1)).collect();
            shares_of_caption(cue.start, cue.end, &words)
        });
        let mut this: Vec<(String, Vec<String>)> = Vec::new();
        for (k, (who, raw, marks)) in groups.into_iter().enumerate() {
            let (start, end) = shares.as_ref().map_or((cue.start, cue.end), |s| s[k]);
            if k == 0 && who.is_none() && speaker_mark {
                carried.forget();
                notes.unnamed_speaker(cue.line + 1);
            }
            let who = carried.speaker(who, cue.line + usize::from(!cue.payload.is_empty()));
            let speaker = match who {
                Some(s) => s,
                None => {
                    if !missing_warned {
                        missing_warned = true;
                        ctx.warn_at(
                            WarningKind::MissingSpeaker,
                            cue.line + usize::from(!cue.payload.is_empty()),
                            Some(1),
                            format!("cue has no speaker (no `<v Name>` span or speaker prefix); it and every later cue like it get the speaker {UNKNOWN_SPEAKER:?}"),
                        )?;
                    }
                    UNKNOWN_SPEAKER.to_owned()
                }
            };
            // Line offsets in `raw`, to cut repeated rolling-caption lines.
            let mut offsets = Vec::new();
            let mut at = 0;
            for l in raw.split('\n') {
                offsets.push((at, l));
                at += l.len() + 1;
            }
            let kept: Vec<(usize, &str)> =
                offsets.iter().filter(|(_, l)| !l.trim().is_empty()).copied().collect();
            let mut skip = 0;
            if youtube {
                if let Some((_, prev)) = previous.iter().find(|(s, _)| *s == speaker) {
                    for k in (1..=kept.len().min(prev.len()).min(ROLLING_LINES)).rev() {
                        let head = kept[..k].iter().map(|(_, l)| l.trim());
                        if head.eq(prev[prev.len() - k..].iter().map(String::as_str)) {
                            skip = k;
                            break;
                        }
                    }
                }
            }
            let cut = kept.get(skip).map_or(raw.len(), |(o, _)| *o);
            let text = join_lines(kept[skip..].iter().map(|(_, l)| *l));
            let words = if marks.is_empty() {
                Vec::new()
            } else {
                timed_words(&raw, cut, &marks, cue.start, cue.end)
            };
            this.push((speaker.clone(), kept.iter().map(|(_, l)| l.trim().to_owned()).collect()));
            let content = match (text, words.is_empty()) {
                (None, true) => None,
                (text, _) => Some(Content { text, words }),
            };
            if let Some(seg) = ctx.segment(start, end, cue.line, Some(cue.end_col))? {
                b.add(seg, &speaker, content);
            }
        }
        if !this.is_empty() {
            previous = this;
        }
    }
    carried.finish("cue", ctx)?;
    notes.finish("cue", ctx)?;
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

// ---------------------------------------------------------------------------------------------
// Writing.

/// The error for a corpus of several recordings given to a writer of a one-recording format.
pub(crate) fn one_recording(corpus: &Corpus, format: &str) -> Result<()> {
    if corpus.len() > 1 {
        return Err(crate::error::Error::unsupported(format!(
            "{format} holds one recording and the input has {}; write one file per recording",
            corpus.len()
        )));
    }
    Ok(())
}

/// Escapes `&`, `<` and `>` for a cue payload.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// The text lines of a track for a caption payload: the text (or the words), without empty
/// lines; whether empty lines had to be removed.
pub(crate) fn caption_lines(content: Option<&Content>) -> (Vec<String>, bool) {
    let Some(c) = content else { return (Vec::new(), false) };
    let text = c.display_text();
    let mut removed = false;
    let lines: Vec<String> = text
        .split(['\n', '\r'])
        .filter(|l| {
            let keep = !l.trim().is_empty();
            removed |= !keep;
            keep
        })
        .map(|l| l.trim().to_owned())
        .collect();
    // A single trailing newline is not a change worth reporting.
    let removed = removed && lines.len() + 1 < text.split(['\n', '\r']).count();
    (lines, removed)
}

/// The payload with inline timestamps, when the words carry timings that WebVTT can hold and
/// spell the text: every word starts inside the cue or is untimed, the first one is timed, and
/// the text is the words joined by single spaces. A timestamp is written before every timed word
/// except a first word that starts with the cue; word ends are not written (a reader takes them
/// from the next word).
fn karaoke(c: &Content, seg: crate::model::Segment) -> Option<String> {
    c.words.first()?.start?;
    let inside = |t: Option<Time>| t.is_none_or(|t| seg.start() <= t && t <= seg.end());
    if !c
        .words
        .iter()
        .all(|w| inside(w.start) && !w.text.is_empty() && !w.text.contains(char::is_whitespace))
    {
        return None;
    }
    let joined = c.words.iter().map(|w| w.text.as_str()).collect::<Vec<_>>().join(" ");
    if c.text.as_deref().is_some_and(|t| t != joined) {
        return None;
    }
    let mut body = String::new();
    for (k, w) in c.words.iter().enumerate() {
        if k > 0 {
            body.push(' ');
        }
        if let Some(t) = w.start.filter(|&t| k > 0 || t != seg.start()) {
            body.push('<');
            body.push_str(&format_clock(t, '.'));
            body.push('>');
        }
        body.push_str(&escape(&w.text));
    }
    Some(body)
}

/// Writes one recording as canonical WebVTT (see the module doc); several recordings are an
/// error.
pub fn write(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    one_recording(corpus, "webvtt")?;
    let mut warnings = Vec::new();
    let mut buf = String::from("WEBVTT\n");
    for (id, t) in corpus.iter() {
        write_transcript(id, t, &mut buf, &mut warnings);
        if buf.len() > 1 << 16 {
            out.write_all(buf.as_bytes())?;
            buf.clear();
        }
    }
    out.write_all(buf.as_bytes())?;
    Ok(warnings)
}

fn write_transcript(id: &str, t: &Transcript, buf: &mut String, warnings: &mut Vec<Warning>) {
    use std::fmt::Write as _;
    let a = t.annotation();
    let names: Vec<String> = a
        .speakers()
        .iter()
        .map(|(_, name)| {
            let clean = name.split_whitespace().collect::<Vec<_>>().join(" ");
            let clean = if clean.is_empty() { UNKNOWN_SPEAKER.to_owned() } else { clean };
            if clean != name {
                warnings.push(Warning::new(
                    WarningKind::Repaired,
                    format!("{id}: speaker {name:?} written as {clean:?} (a WebVTT voice name is one line of single-spaced words)"),
                ));
            }
            escape(&clean)
        })
        .collect();
    let mut removed_warned = false;
    for u in t.utterances() {
        let (lines, removed) = caption_lines(u.content);
        if removed && !removed_warned {
            removed_warned = true;
            warnings.push(Warning::new(
                WarningKind::Repaired,
                format!("{id}: empty lines inside a text removed (they would end the cue)"),
            ));
        }
        let body = match u.content.and_then(|c| karaoke(c, u.segment)) {
            Some(body) => body,
            None => lines.iter().map(|l| escape(l)).collect::<Vec<_>>().join("\n"),
        };
        // Writing into a String cannot fail.
        let _ = write!(
            buf,
            "\n{} --> {}\n<v {}>{}</v>\n",
            format_clock(u.segment.start(), '.'),
            format_clock(u.segment.end(), '.'),
            names[u.speaker.index()],
            body
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{read_str, Format, ReadOptions};
    use crate::model::Segment;

    /// `hh:mm:ss:mmm`: three digits after a fourth field are milliseconds; anything else is not
    /// this shape (two digits may count frames).
    #[test]
    fn a_colon_before_three_digits_reads_as_milliseconds() {
        let ms = |f: &str| colon_millis(f).map(|r| r.map(Time::micros));
        assert_eq!(ms("00:00:11:890"), Some(Ok(11_890_000)));
        assert_eq!(ms(" 01:02:03:004 "), Some(Ok(3_723_004_000)));
        // `mm:ss:mmm`: minutes, seconds below 60, milliseconds.
        assert_eq!(ms("00:11:890"), Some(Ok(11_890_000)));
        assert_eq!(ms("75:05:001"), Some(Ok(4_505_001_000)));
        // Three digits after the last `:` are never seconds: seconds of 60 or more, or no
        // seconds before them, refuse the time.
        let refused = |why: &str| Some(Err(why.to_owned()));
        let above = |s: &str| {
            refused(&format!("three digits after the last `:` are milliseconds, and the seconds before them ({s}) are 60 or more: not a time"))
        };
        assert_eq!(ms("00:75:890"), above("75"));
        assert_eq!(ms("00:00:60:000"), above("60"));
        assert_eq!(ms("11:890"), refused("three digits after the last `:` are milliseconds, not seconds, and no minutes and seconds stand before them (`mm:ss:mmm`)"));
        assert_eq!(ms("99999999999:00:00:000"), refused("time out of range"));
        assert_eq!(ms("00:00:11:89"), None);
        assert_eq!(ms("00:00:11:8900"), None);
        assert_eq!(ms("00:00:11.5:890"), None);
        assert_eq!(ms("00:00:1x:890"), None);
        assert_eq!(ms("00:00:11,890"), None);
        assert!(is_caption_clock("00:75:890") && is_caption_clock("00:00:11:890"));
        assert!(!is_caption_clock("00:00:11:89"));
        // In WebVTT as in SRT: read, with the warning naming the format's own separator.
        let out = read_str(
            "WEBVTT\n\n00:00:01:500 --> 00:00:02:000\nhi\n",
            Format::WebVtt,
            &ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(
            out.warnings[0].message,
            "cue start \"00:00:01:500\" has a `:` before the milliseconds, not the WebVTT `.`; the separator was taken as the milliseconds' (1.500), and in every later time like it too"
        );
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.annotation().tracks()[0].segment, Segment::from_millis(1500, 2000).unwrap());
    }

    fn read_text(text: &str) -> crate::format::ReadOutput {
        read_str(text, Format::WebVtt, &ReadOptions::default()).unwrap()
    }

    fn texts(t: &Transcript) -> Vec<(String, Option<String>)> {
        t.utterances()
            .map(|u| (u.speaker_name.to_owned(), u.content.and_then(|c| c.text.clone())))
            .collect()
    }

    #[test]
    fn voices_ids_settings_and_notes() {
        let out = read_text(
            "\u{feff}WEBVTT - call\n\nNOTE a\nnote\n\nSTYLE\n::cue { color: red }\n\n1\n00:00:00.000 --> 00:00:04.210 align:start\n<v.loud Alice>So the plan &amp; the <i>date</i>\n\n2\n00:03.950 --> 00:06.250\n<v Bob>Friday won't work.</v>\n",
        );
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(
            texts(t),
            vec![
                ("Alice".to_owned(), Some("So the plan & the date".to_owned())),
                ("Bob".to_owned(), Some("Friday won't work.".to_owned())),
            ]
        );
        assert_eq!(t.annotation().tracks()[1].segment, Segment::from_millis(3950, 6250).unwrap());
    }

    /// A cue of several voices gives one track per turn; they spoke in turn, so the cue's time
    /// is divided among them in order, by their words (A, B, A one word each: 1.000–1.667,
    /// 1.667–2.333, 2.333–3.000 s), with a note. Voices whose words carry inline timestamps
    /// keep the whole cue.
    #[test]
    fn several_voices_give_one_track_each_and_share_the_cue() {
        let out = read_text(
            "WEBVTT\n\n00:01.000 --> 00:03.000\n- <v A>Hi</v>\n- <v B>Hello</v>\n<v A>again\n",
        );
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(
            texts(t),
            vec![
                ("A".to_owned(), Some("- Hi".to_owned())),
                ("B".to_owned(), Some("- Hello".to_owned())),
                ("A".to_owned(), Some("again".to_owned())),
            ]
        );
        let segments: Vec<Segment> = t.annotation().tracks().iter().map(|tr| tr.segment).collect();
        let ms = |a, z| Segment::from_millis(a, z).unwrap();
        assert_eq!(segments, [ms(1000, 1667), ms(1667, 2333), ms(2333, 3000)]);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(w, vec![(WarningKind::Note, Some(4))]);
        let timed = read_text(
            "WEBVTT\n\n00:01.000 --> 00:03.000\n<v A>Hi <00:01.500>there</v>\n<v B>Hello\n",
        );
        let t = timed.corpus.get("recording").unwrap();
        assert!(t
            .annotation()
            .tracks()
            .iter()
            .all(|tr| tr.segment == Segment::from_millis(1000, 3000).unwrap()));
    }

    /// Hard-of-hearing captions: sound descriptions in capitals or as a noun and a verb are no
    /// one's speech, lyrics between music notes neither; notes of speech stay; a manner note
    /// after a name is no part of it; a caller named by a telephone number is a speaker; a
    /// dialogue of dashes without names gets a note.
    #[test]
    fn hard_of_hearing_sounds_manner_notes_and_callers() {
        for sound in [
            "[DOOR SLAMS]",
            "(phone ringing)",
            "<i>[TIRES SCREECHING]</i>",
            "{\\an8}[BEEPING]",
            "♪ Never gonna give you up ♪",
        ] {
            assert!(is_sound_only(sound), "{sound}");
        }
        for speech in [
            "[laughs]",
            "[inaudible]",
            "[speaking Spanish]",
            "[JOHN]",
            "(MARY JANE)",
            "[in French]",
            "Doors close.",
        ] {
            assert!(!is_sound_only(speech), "{speech}");
        }
        assert_eq!(colon_prefix("MARY (whispering): Nowhere."), Some(("MARY", "Nowhere.")));
        assert_eq!(colon_prefix("NARRATOR (V.O.): Once."), Some(("NARRATOR", "Once.")));
        assert_eq!(colon_prefix("Kim (she/her): hi"), Some(("Kim (she/her)", "hi")));
        assert_eq!(colon_prefix("+1 555-123-4567: Hello?"), Some(("+1 555-123-4567", "Hello?")));
        assert_eq!(colon_prefix("2024: a year"), None);
        assert_eq!(colon_prefix("2023-2024: a season"), None);
        // Names in parentheses (Google Meet's speaker lines) are no sounds, whatever their ends.
        for name in ["(Chris Evans)", "(Stephen King)", "(CHRIS EVANS)"] {
            assert_eq!(paren_name(name), Some(&name[1..name.len() - 1]), "{name}");
        }
        // An unclosed tag leaves the rest as text, in linear time.
        assert_eq!(without_inline_markup("a <i>b</i> <c"), "a b <c");
        let long = "{\\".repeat(100_000);
        assert!(!is_sound_only(&long));
        // A, B, A in one cue: three turns in order, each with its share of the time.
        let out = read_text(
            "WEBVTT\n\n00:01.000 --> 00:04.000\n- JOHN: Where were you?\n- MARY: Out.\n- JOHN: Bye now.\n\n00:04.000 --> 00:05.000\nMARY: Fine.\n",
        );
        let t = out.corpus.get("recording").unwrap();
        let a = t.annotation();
        let turns: Vec<(&str, Segment)> =
            a.tracks().iter().map(|tr| (a.speaker_name(tr.speaker), tr.segment)).collect();
        let ms = |x, y| Segment::from_millis(x, y).unwrap();
        assert_eq!(
            turns,
            vec![
                ("JOHN", ms(1000, 2500)),
                ("MARY", ms(2500, 3000)),
                ("JOHN", ms(3000, 4000)),
                ("MARY", ms(4000, 5000)),
            ]
        );
        let out = read_text(
            "WEBVTT\n\n00:01.000 --> 00:03.000\nMARY: At the office.\n\n00:03.000 --> 00:05.000\n- Until midnight?\n- Yes, until midnight.\n\n00:05.000 --> 00:06.000\nJOHN: Fine.\n\n00:06.000 --> 00:07.000\nMARY: Good.\n",
        );
        let said: Vec<String> = out.warnings.iter().map(|w| w.to_string()).collect();
        assert!(
            said.iter().any(|w| w.contains("line 7, column 1: 1 cue(s) hold a dialogue of lines opened by dashes without names")),
            "{said:?}"
        );
    }

    #[test]
    fn voice_spans_at_the_starts_of_turns_carry_to_the_cues_after_them() {
        // As the Podcasting 2.0 example: `<v Name>` on a turn's first cue only, and one
        // speaker named by a `Name:` prefix instead.
        let out = read_text(
            "WEBVTT\n\n00:00.000 --> 00:02.000\n<v Travis> When you first get\n\n00:02.000 --> 00:04.000\nstarted in podcasting\n\n00:04.000 --> 00:06.000\n<v Sarah> Right.\n\n00:06.000 --> 00:08.000\nGilon: So is there an ideal\n\n00:08.000 --> 00:10.000\npodcast length?\n\n00:10.000 --> 00:12.000\n<v Travis> It depends.\n\n00:12.000 --> 00:14.000\nOn the show.\n",
        );
        let t = out.corpus.get("recording").unwrap();
        let names: Vec<_> = texts(t).into_iter().map(|x| x.0).collect();
        assert_eq!(names, vec!["Travis", "Travis", "Sarah", "Gilon", "Gilon", "Travis", "Travis"]);
        assert_eq!(texts(t)[3].1.as_deref(), Some("So is there an ideal"));
        let notes: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.message.as_str())).collect();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].1.starts_with("3 cue(s) without a `<v Name>` span or `Name:` prefix"));
        // One voice named once is no convention: the cue after it has no speaker.
        let out = read_text(
            "WEBVTT\n\n00:00.000 --> 00:02.000\n<v Narrator> Once upon a time\n\n00:02.000 --> 00:04.000\nthere was a king\n",
        );
        let names: Vec<_> =
            texts(out.corpus.get("recording").unwrap()).into_iter().map(|x| x.0).collect();
        assert_eq!(names, vec!["Narrator", "unknown"]);
    }

    #[test]
    fn google_meet_names_in_parentheses_and_two_speakers_in_a_caption() {
        let out = read_text(
            "WEBVTT\n\n00:00:08.000 --> 00:00:12.000\n(Danyel Fisher)\nI wanted to start\n\n00:00:12.000 --> 00:00:16.000\n(Danyel Fisher)\nwith your\n\n00:00:16.000 --> 00:00:20.000\n(Danyel Fisher)\nbackground?\n-\n \n(Dana Bettinger)\nSafaria wise or lifewise\n",
        );
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(
            texts(t),
            vec![
                ("Danyel Fisher".to_owned(), Some("I wanted to start".to_owned())),
                ("Danyel Fisher".to_owned(), Some("with your".to_owned())),
                ("Danyel Fisher".to_owned(), Some("background?".to_owned())),
                ("Dana Bettinger".to_owned(), Some("Safaria wise or lifewise".to_owned())),
            ]
        );
        // The third caption's two speakers share its time in turn (1 word, then 4).
        let segments: Vec<Segment> = t.annotation().tracks().iter().map(|tr| tr.segment).collect();
        assert_eq!(
            segments[2..],
            [
                Segment::from_millis(16000, 16800).unwrap(),
                Segment::from_millis(16800, 20000).unwrap()
            ]
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(w, vec![(WarningKind::Note, Some(12))]);
    }

    #[test]
    fn a_sound_in_parentheses_inside_a_caption_is_no_speaker() {
        // Teams' name lines: "(Laughter)" or "(Applause)" under a name is text, not a third
        // person; in Google Meet's layout a name in parentheses follows a dash line.
        for sound in ["(Laughter)", "(Applause)", "(Crosstalk)"] {
            let text = format!(
                "WEBVTT\n\n00:00.000 --> 00:04.000\nAna Ruiz\nSo here we are.\n\n00:04.000 --> 00:07.000\nBo Lind\nRight.\n{sound}\n\n00:07.000 --> 00:11.000\nAna Ruiz\nYes.\n\n00:11.000 --> 00:12.000\nBo Lind\nGood.\n"
            );
            let out = read_text(&text);
            let names: Vec<_> =
                texts(out.corpus.get("recording").unwrap()).into_iter().map(|x| x.0).collect();
            assert_eq!(names, ["Ana Ruiz", "Bo Lind", "Ana Ruiz", "Bo Lind"], "{sound}");
        }
    }

    #[test]
    fn zoom_prefixes_and_missing_speakers() {
        let out = read_text(
            "WEBVTT\n\n1\n00:00:01.000 --> 00:00:02.000\nAna (SL): hi: there\n\n2\n00:00:02.000 --> 00:00:03.000\nBo: yes\n\n3\n00:00:03.000 --> 00:00:04.000\nunattributed words\n\n4\n00:00:04.000 --> 00:00:05.000\nmore\n",
        );
        let t = out.corpus.get("recording").unwrap();
        let names: Vec<_> = texts(t).into_iter().map(|x| x.0).collect();
        // Names mark the starts of turns: the cues after Bo's continue Bo, with one note.
        assert_eq!(names, vec!["Ana (SL)", "Bo", "Bo", "Bo"]);
        assert_eq!(texts(t)[0].1.as_deref(), Some("hi: there"));
        let kinds: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(kinds, vec![(WarningKind::Note, Some(13))]);
        assert!(out.warnings[0].message.starts_with("2 cue(s) without a `Name:` prefix"));
        // Before the first name there is nobody to continue.
        let out = read_text("WEBVTT\n\n00:01.000 --> 00:02.000\nwelcome\n\n00:02.000 --> 00:03.000\nAna: hi\n\n00:03.000 --> 00:04.000\nBo: yes\n");
        let names: Vec<_> =
            texts(out.corpus.get("recording").unwrap()).into_iter().map(|x| x.0).collect();
        assert_eq!(names, vec!["unknown", "Ana", "Bo"]);
        // One `Note:` line among ordinary captions is text, not a speaker.
        let out = read_text("WEBVTT\n\n00:01.000 --> 00:02.000\nNote: snacks\n\n00:02.000 --> 00:03.000\nok then\n\n00:03.000 --> 00:04.000\nbye\n");
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(texts(t)[0], ("unknown".to_owned(), Some("Note: snacks".to_owned())));
    }

    #[test]
    fn sound_descriptions_are_no_speech() {
        for t in ["[Music]", "[Applause] ♪", "♪♪", "(music playing)", "[MUSIC] [Cheering]"] {
            assert!(is_sound_only(t), "{t}");
        }
        for t in ["[Laughter]", "[Music] so we begin", "[inaudible]", "", "music"] {
            assert!(!is_sound_only(t), "{t}");
        }
        let out = read_text("WEBVTT\n\n00:01.000 --> 00:05.000\n[Music]\n\n00:05.000 --> 00:06.000\nhello\n\n00:06.000 --> 00:09.000\n♪ [Applause]\n");
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(texts(t), vec![("unknown".to_owned(), Some("hello".to_owned()))]);
        let skipped = out.warnings.iter().find(|w| w.kind == WarningKind::Skipped).unwrap();
        assert_eq!(skipped.line, Some(4));
        assert!(skipped.message.starts_with("2 cue(s) holding only a sound description"));
    }

    /// YouTube's automatic captions (vtt-to-json's `meow.en.vtt`): a cue opens with two lines
    /// of spaces, then its words. The words were cut off as a block without a timing line.
    #[test]
    fn lines_of_spaces_before_the_words_are_part_of_the_cue() {
        let out = read_text("WEBVTT\n\n00:00:00.000 --> 00:00:00.820 align:start position:0%\n \n \nthe<00:00:00.240><c> man</c>\n\n00:00:00.820 --> 00:00:01.220\n \n \n\n00:00:01.220 --> 00:00:02.000\nhi\n");
        let t = out.corpus.get("recording").unwrap();
        let got: Vec<_> = texts(t).into_iter().map(|(_, text)| text).collect();
        assert_eq!(got, [Some("the man".to_owned()), Some("hi".to_owned())]);
        assert!(!out.warnings.iter().any(|w| w.message.contains("without a timing line")));
    }

    /// Lines of spaces after a cue's text end it: a `NOTE` block or stray words after two of
    /// them are not read into the cue (the stray words are a block without a timing line).
    #[test]
    fn lines_of_spaces_after_the_text_end_the_cue() {
        let note = read_text("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello there\n \n \nNOTE a reviewer comment here\n\n00:00:03.000 --> 00:00:04.000\nbye now\n");
        let t = note.corpus.get("recording").unwrap();
        let got: Vec<_> = texts(t).into_iter().map(|(_, text)| text).collect();
        assert_eq!(got, [Some("hello there".to_owned()), Some("bye now".to_owned())]);
        let others = |w: &&Warning| w.kind != WarningKind::MissingSpeaker;
        assert!(!note.warnings.iter().any(|w| others(&w)), "{:?}", note.warnings);
        let stray = read_text("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nhello there\n \n \n2\n00:00:03.000 --> 00:00:04.000\nbye now\n \n \nstray words\n \n");
        let t = stray.corpus.get("recording").unwrap();
        let got: Vec<_> = texts(t).into_iter().map(|(_, text)| text).collect();
        assert_eq!(got, [Some("hello there".to_owned()), Some("bye now".to_owned())]);
        let warnings: Vec<_> = stray
            .warnings
            .iter()
            .filter(others)
            .map(|w| (w.kind, w.line, w.message.as_str()))
            .collect();
        assert_eq!(
            warnings,
            [(
                WarningKind::Skipped,
                Some(12),
                "block without a timing line (\"stray words\"); skipped"
            )]
        );
    }

    /// A cue with no text (or only empty tags) shows nothing: it is skipped with one warning,
    /// while a voice span with no words (overtalk's own output of a diarization) stays speech.
    #[test]
    fn cues_without_text_are_no_speech() {
        assert!(is_blank("") && is_blank(" \n") && is_blank("<i></i>"));
        assert!(!is_blank("hi") && !is_blank("<i>hi</i>") && !is_blank("-"));
        let out = read_text("WEBVTT\n\n00:01.000 --> 00:04.000\n<v A>Hello there\n\n00:05.000 --> 00:09.000\n\n00:10.000 --> 00:12.000\n<v B></v>\n\n00:12.000 --> 00:13.000\n<b></b>\n");
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(
            texts(t),
            vec![("A".to_owned(), Some("Hello there".to_owned())), ("B".to_owned(), None)]
        );
        let skipped: Vec<_> =
            out.warnings.iter().filter(|w| w.kind == WarningKind::Skipped).collect();
        assert_eq!(skipped.len(), 1, "{:?}", out.warnings);
        assert_eq!(skipped[0].line, Some(6));
        assert_eq!(
            skipped[0].message,
            "2 cue(s) with no text skipped: a caption that shows nothing marks no one's speech"
        );
        assert!(!out.warnings.iter().any(|w| w.kind == WarningKind::MissingSpeaker));
    }

    /// A cue whose payload is a JSON object (a metadata track's) is no speech: pysubs2's
    /// `vtt_example.vtt` ends with one, which was read as 7.2 s of an "unknown" speaker.
    /// Captions in brackets stay text.
    #[test]
    fn cues_of_json_data_are_no_speech() {
        assert!(metadata_payload(&["{", " \"type\": \"WikipediaPage\"", "}"]));
        assert!(metadata_payload(&["[{\"a\": 1}, {\"b\": 2}]"]));
        assert!(!metadata_payload(&["[Music]"]) && !metadata_payload(&["[2]"]));
        assert!(!metadata_payload(&["[]"]) && !metadata_payload(&["{not json}"]));
        let out = read_text("WEBVTT\n\n00:01.000 --> 00:04.000\n<v A>Hello\n\n00:05.000 --> 00:07.000\n[Music]\n\n00:08.000 --> 00:09.000\n<v B>[2] items\n\n02:00.100 --> 02:07.342\n{\n \"type\": \"WikipediaPage\",\n \"url\": \"https://example.org\"\n}\n");
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(
            texts(t),
            vec![
                ("A".to_owned(), Some("Hello".to_owned())),
                ("B".to_owned(), Some("[2] items".to_owned()))
            ]
        );
        let skipped: Vec<_> = out
            .warnings
            .iter()
            .filter(|w| w.kind == WarningKind::Skipped)
            .map(|w| (w.line, w.message.as_str()))
            .collect();
        assert_eq!(
            skipped,
            vec![
                (Some(12), "1 cue(s) holding JSON data skipped: a metadata cue (chapters, timed data) is no one's speech"),
                (Some(7), "1 cue(s) holding only a sound description (`[Music]`, `[Applause]`, `♪`) skipped: no one's speech"),
            ]
        );
    }

    /// Podcast captions name the speaker on the first caption of a turn only: fewer than half
    /// of the cues carry a name, but the names recur.
    #[test]
    fn names_at_the_starts_of_turns_are_speakers() {
        let cue = |k: usize, text: &str| {
            format!(
                "{:02}:{:02}.000 --> {:02}:{:02}.900\n{text}\n\n",
                k / 60,
                k % 60,
                k / 60,
                k % 60
            )
        };
        let lines = [
            "Sarah: Creating good audio",
            "is key",
            "to keeping",
            "Travis: Now, when you",
            "record",
            "the room",
            "matters",
            "Sarah: Yes",
            "and",
            "Travis: Right",
        ];
        let text: String = std::iter::once("WEBVTT\n\n".to_owned())
            .chain(lines.iter().enumerate().map(|(k, l)| cue(k, l)))
            .collect();
        let out = read_text(&text);
        let names: Vec<_> =
            texts(out.corpus.get("recording").unwrap()).into_iter().map(|x| x.0).collect();
        assert_eq!(
            names,
            [
                "Sarah", "Sarah", "Sarah", "Travis", "Travis", "Travis", "Travis", "Sarah",
                "Sarah", "Travis"
            ]
        );
        // Two names once each are no convention; labels are never names.
        let out = read_text("WEBVTT\n\n00:01.000 --> 00:02.000\nSarah: hi\n\n00:02.000 --> 00:03.000\nso\n\n00:03.000 --> 00:04.000\nTravis: yes\n\n00:04.000 --> 00:05.000\nand\n\n00:05.000 --> 00:06.000\nmore\n");
        let names: Vec<_> =
            texts(out.corpus.get("recording").unwrap()).into_iter().map(|x| x.0).collect();
        assert_eq!(names, ["unknown"; 5]);
        // Zoom names the speaker on every caption it can attribute, the same name on captions
        // in a row: a caption without a name is an unidentified speaker, not the last one (the
        // answer to Andrew's question is not his). The same layout as SRT.
        let zoom = [
            "Andrew Knight: Okay, so",
            "Andrew Knight: let me ask",
            "Andrew Knight: So were you the 917",
            "Yes. Okay.",
            "Andrew Knight: Great.",
            "Maria Lopez: Thanks",
        ];
        let text: String = std::iter::once("WEBVTT\n\n".to_owned())
            .chain(zoom.iter().enumerate().map(|(k, l)| cue(k, l)))
            .collect();
        let names: Vec<_> = texts(read_text(&text).corpus.get("recording").unwrap())
            .into_iter()
            .map(|x| x.0)
            .collect();
        let expected = [
            "Andrew Knight",
            "Andrew Knight",
            "Andrew Knight",
            "unknown",
            "Andrew Knight",
            "Maria Lopez",
        ];
        assert_eq!(names, expected);
        let srt: String = zoom
            .iter()
            .enumerate()
            .map(|(k, l)| format!("{}\n00:00:{k:02},000 --> 00:00:{k:02},900\n{l}\n\n", k + 1))
            .collect();
        let out = crate::format::read_str(&srt, Format::Srt, &ReadOptions::default()).unwrap();
        let t = out.corpus.get("recording").unwrap();
        let names: Vec<&str> = t.utterances().map(|u| u.speaker_name).collect();
        assert_eq!(names, expected);
        assert_eq!(colon_prefix("Note: bring snacks"), None);
        assert_eq!(colon_prefix("Source: https://example.com"), None);
        assert_eq!(colon_prefix("Bekah: hi"), Some(("Bekah", "hi")));
    }

    #[test]
    fn inline_timestamps_become_word_timings() {
        let out = read_text(
            "WEBVTT\n\n00:16.500 --> 00:18.500\nWhen the moon <00:17.500>hits your eye\n",
        );
        let t = out.corpus.get("recording").unwrap();
        let words = &t.contents()[0].as_ref().unwrap().words;
        let got: Vec<_> = words.iter().map(|w| (w.text.as_str(), w.start, w.end)).collect();
        let ms = |x| Some(Time::from_millis(x));
        assert_eq!(
            got,
            vec![
                ("When", ms(16_500), None),
                ("the", None, None),
                ("moon", None, None),
                ("hits", ms(17_500), None),
                ("your", None, None),
                ("eye", None, None),
            ]
        );
        let out =
            read_text("WEBVTT\n\n00:01.000 --> 00:03.000\na<00:01.500><c> b</c><00:02.000> c\n");
        let words = &out.corpus.get("recording").unwrap().contents()[0].as_ref().unwrap().words;
        let got: Vec<_> = words.iter().map(|w| (w.start, w.end)).collect();
        assert_eq!(got, vec![(ms(1000), ms(1500)), (ms(1500), ms(2000)), (ms(2000), ms(3000))]);
    }

    /// The shape of a YouTube auto-caption file (as `yt-dlp --write-auto-subs` saves it): a
    /// line of one space above the timed line, each cue repeating the line before, and a 10 ms
    /// cue in between that only repeats.
    pub(crate) const YOUTUBE: &str = "WEBVTT\nKind: captions\nLanguage: en\n\n\
        00:00:00.500 --> 00:00:02.000 align:start position:0%\n \n\
        so<00:00:00.900><c> the</c><00:00:01.200><c> plan</c>\n\n\
        00:00:02.000 --> 00:00:02.010 align:start position:0%\nso the plan\n \n\n\
        00:00:02.010 --> 00:00:03.500 align:start position:0%\nso the plan\n\
        is<00:00:02.400><c> friday</c>\n";

    #[test]
    fn youtube_auto_captions_give_each_word_once_with_its_time() {
        let out = read_text(YOUTUBE);
        let kinds: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(kinds, vec![(WarningKind::MissingSpeaker, Some(6))]);
        let t = out.corpus.get("recording").unwrap();
        let words: Vec<(String, Option<i64>, Option<i64>)> = t
            .contents()
            .iter()
            .flatten()
            .flat_map(|c| &c.words)
            .map(|w| {
                (
                    w.text.clone(),
                    w.start.map(|t| t.micros() / 1000),
                    w.end.map(|t| t.micros() / 1000),
                )
            })
            .collect();
        let w = |s: &str, a, z| (s.to_owned(), Some(a), Some(z));
        assert_eq!(
            words,
            vec![
                w("so", 500, 900),
                w("the", 900, 1200),
                w("plan", 1200, 2000),
                w("is", 2010, 2400),
                w("friday", 2400, 3500),
            ]
        );
        let text: Vec<_> = texts(t).into_iter().map(|x| x.1).collect();
        assert_eq!(text, vec![Some("so the plan".to_owned()), None, Some("is friday".to_owned())]);
        // A line of spaces before a cue id or a timing line still ends the cue.
        let out = read_text(
            "WEBVTT\n\n00:01.000 --> 00:02.000\nhi\n  \n2\n00:02.000 --> 00:03.000\nyo\n",
        );
        assert!(out.warnings.iter().all(|w| w.kind == WarningKind::MissingSpeaker));
        let text: Vec<_> =
            texts(out.corpus.get("recording").unwrap()).into_iter().map(|x| x.1).collect();
        assert_eq!(text, vec![Some("hi".to_owned()), Some("yo".to_owned())]);
    }

    #[test]
    fn a_bad_time_skips_its_cue_and_keeps_the_rest() {
        let text = "WEBVTT\n\n00:01.000 --> 00:0x.000\nhi\n\n00:02.000 --> 00:03.000\n<v A>yes\n";
        let out = read_text(text);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(w, vec![(WarningKind::Skipped, Some(3), Some(15))]);
        let t = out.corpus.get("recording").unwrap();
        let a = t.annotation();
        assert_eq!(a.len(), 1);
        assert_eq!(a.tracks()[0].segment, Segment::from_micros(2_000_000, 3_000_000).unwrap());
        let strict = ReadOptions { strict: true, ..Default::default() };
        let e = read_str(text, Format::WebVtt, &strict).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(3), Some(15)));
        let e = read_str("", Format::WebVtt, &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(1)));
    }

    #[test]
    fn malformed_times_are_read_with_one_warning_and_rejected_by_strict() {
        let strict = ReadOptions { strict: true, ..Default::default() };
        // Minutes above 59, no milliseconds, unpadded (Teams), `,` before the milliseconds.
        for (text, column, start) in [
            ("WEBVTT\n\n75:00.000 --> 76:00.000\n<v A>x\n", 1, 4_500_000_000),
            ("WEBVTT\n\n00:00:01 --> 00:00:02.000\n<v A>x\n", 1, 1_000_000),
            ("WEBVTT\n\n0:0:0.0 --> 0:0:0.570\n<v A>x\n", 1, 0),
            ("WEBVTT\n\n00:01.000 --> 00:02,000\n<v A>x\n", 15, 1_000_000),
        ] {
            let out = read_text(text);
            let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
            assert_eq!(w, vec![(WarningKind::Repaired, Some(3), Some(column))], "{text:?}");
            let a = out.corpus.get("recording").unwrap().annotation();
            assert_eq!(a.tracks()[0].segment.start().micros(), start, "{text:?}");
            let e = read_str(text, Format::WebVtt, &strict).unwrap_err();
            assert_eq!((e.line(), e.column()), (Some(3), Some(column)), "{text:?}");
        }
        for fine in ["00:01.000 --> 01:02.000", "01:00:01.000 --> 100:00:02.000"] {
            let text = format!("WEBVTT\n\n{fine}\n<v A>x\n");
            assert!(read_str(&text, Format::WebVtt, &strict).unwrap().warnings.is_empty());
        }
    }

    /// A caption whose time is no time is skipped with a warning that says so; under `--strict`
    /// the file is refused and the error does not claim a cue was skipped (WebVTT, SBV, and a
    /// block with no timing line).
    #[test]
    fn strict_errors_do_not_claim_a_cue_was_skipped() {
        let strict = ReadOptions { strict: true, ..Default::default() };
        for (text, format, lenient, refused) in [
            (
                "WEBVTT\n\n00:01.000 --> 00:02;000\n<v A>x\n",
                Format::WebVtt,
                "cue end \"00:02;000\": not a time; cue skipped",
                "line 3, column 15: webvtt: cue end \"00:02;000\": not a time",
            ),
            (
                "0:00:01.000,0:00:02:00:00\nx\n\n0:00:03.000,0:00:04.000\ny\n",
                Format::Sbv,
                "cue end \"0:00:02:00:00\": not a time; cue skipped",
                "line 1, column 13: sbv: cue end \"0:00:02:00:00\": not a time",
            ),
            (
                "WEBVTT\n\nstray words\n\n00:01.000 --> 00:02.000\n<v A>x\n",
                Format::WebVtt,
                "block without a timing line (\"stray words\"); skipped",
                "line 3, column 1: webvtt: block without a timing line (\"stray words\")",
            ),
        ] {
            let out = read_str(text, format, &ReadOptions::default()).unwrap();
            assert_eq!(out.warnings[0].message, lenient, "{text:?}");
            let e = read_str(text, format, &strict).unwrap_err().to_string();
            assert_eq!(e, refused, "{text:?}");
        }
    }

    #[test]
    fn class_only_voices_stay_apart() {
        let out = read_text("WEBVTT\n\n00:01.000 --> 00:02.000\n<v.speaker1>hi\n\n00:02.000 --> 00:03.000\n<v.speaker2>ho\n\n00:03.000 --> 00:04.000\n<v.loud Ann>yes\n");
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let a = out.corpus.get("recording").unwrap().annotation();
        let names: Vec<&str> = a.speakers().iter().map(|(_, n)| n).collect();
        assert_eq!(names, ["Ann", "speaker1", "speaker2"]);
    }

    #[test]
    fn whisperx_brackets_in_cues() {
        let out = read_text("WEBVTT\n\n00:00.000 --> 00:01.000\n[SPEAKER_00]: Hi there\n\n00:01.000 --> 00:02.000\n[SPEAKER_01]: Hello\n");
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(
            texts(t),
            vec![
                ("SPEAKER_00".to_owned(), Some("Hi there".to_owned())),
                ("SPEAKER_01".to_owned(), Some("Hello".to_owned())),
            ]
        );
    }

    /// `>>` opens a new speaker's line; `>>>` (a new story) and a `>>` inside a line do not.
    #[test]
    fn speaker_marks_open_lines() {
        assert_eq!(after_speaker_mark(">> JOHN: Hi."), Some("JOHN: Hi."));
        assert_eq!(after_speaker_mark("  >>Who's there?"), Some("Who's there?"));
        assert_eq!(after_speaker_mark(">>"), Some(""));
        assert_eq!(after_speaker_mark(">>> Tonight."), None);
        assert_eq!(after_speaker_mark(">>>> x"), None);
        assert_eq!(after_speaker_mark("so >> yes"), None);
        assert!(opens_with_speaker_mark(["", " >> here."].into_iter()));
        assert!(!opens_with_speaker_mark([">>> News.", ">> here."].into_iter()));
        // A `>>` on the first line is a change from the caption before; after it, a change
        // inside the caption.
        assert!(!unnamed_dialogue(&[">> IT CAME UP IN AN HOUR. WE", "WERE NOT READY."]));
        assert!(!unnamed_dialogue(&[">>> IN OTHER NEWS", "MET TODAY."]));
        assert!(unnamed_dialogue(&["so that's it", ">> yes"]));
        assert!(unnamed_dialogue(&["", ">> so", ">> yes"]));
        // The lines before a `>> NAME:` line are not that name's; before `- NAME:` they are.
        let groups = |lines: &[&str]| group_by_prefix(lines, Prefixes::Colon);
        let named = |who: Option<&str>, text: &str| (who.map(str::to_owned), text.to_owned());
        assert_eq!(
            groups(&["to order.", ">> HALE: Present.", "Thanks."]),
            vec![named(None, "to order."), named(Some("HALE"), "Present.\nThanks.")]
        );
        assert_eq!(
            groups(&["to order.", "- HALE: Present."]),
            vec![named(Some("HALE"), "to order.\nPresent.")]
        );
        assert_eq!(
            groups(&[">> VANCE:", ">> present."]),
            vec![named(Some("VANCE"), ">> present.")]
        );
    }

    #[test]
    fn timed_words_are_written_as_inline_timestamps() {
        let text = "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n<v A>a <00:00:01.500>b&amp; c <00:00:02.000>d</v>\n";
        let out = read_text(text);
        let mut buf = Vec::new();
        assert!(write(&out.corpus, &mut buf).unwrap().is_empty());
        assert_eq!(String::from_utf8(buf).unwrap(), text);
    }

    #[test]
    fn writes_canonical_cues_that_read_back() {
        let out = read_text("WEBVTT\n\n00:00.000 --> 00:01.000\n<v A &amp; B>x &lt; y\n\n0:0:0.5 --> 0:0:2.0\n<v C>z</v>\n");
        let mut buf = Vec::new();
        assert!(write(&out.corpus, &mut buf).unwrap().is_empty());
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(
            text,
            "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n<v A &amp; B>x &lt; y</v>\n\n00:00:00.500 --> 00:00:02.000\n<v C>z</v>\n"
        );
        assert_eq!(read_text(&text).corpus, out.corpus);
    }
}
