//! Paragraph transcripts with start times only: the text exports of Rev, Otter.ai, Trint, Temi,
//! Sonix, Descript, Zoom, Fathom, Happy Scribe, Google Meet and YouTube's transcript panel
//! (`--from rev|otter|paragraphs`).
//!
//! # What is read
//!
//! A *header* starts a paragraph: it gives when the paragraph began and usually who spoke. The
//! header shapes recognised, on a line of their own or followed by the paragraph's first words:
//!
//! ```text
//! Chris Wallace: (01:09:00)            Rev: name, colon, time in parentheses
//! President Donald J. Trump (01:09:00): Rev: name, time in parentheses, colon
//! Speaker 1  0:04                      Otter, Zoom: name, spaces, time (text on the next lines)
//! [00:01:02] Ana Ruiz: text            Descript, Trint, Temi: time in brackets, name, colon
//! [00:01:02] text                      the same without a name
//! [00:00 - 00:05] SPEAKER_00: text      diarize-and-transcribe tools: a time range (the end kept)
//! [0.03s - 17.36s] [SPEAKER_00]: text   WhisperX-based tools: a range in seconds, a name in
//! [SPEAKER_00]: [00:00:02.039] text       brackets after the time or before it
//! [13:30](link) Ana Ruiz: text         a page's clickable time (a Markdown link), then as above
//! 00:01:02 Ana Ruiz: text              time first, then name and colon
//! (00:01:02) Ana Ruiz: text            the same, the time in parentheses
//! 00:00:05 - 00:00:12 Ana Ruiz         a range of full clocks, the name (text below)
//! 0:04                                 YouTube: the time alone on its line (text follows)
//! (01:10:19):                          Rev: a paragraph that continues the speaker above
//! Jon Krohn: 00:02:51                  Rev: name, colon, a bare time (text on the next lines)
//! **Ana:**: [00:00:00] text            Descript: name, colon, time in brackets
//! **Emma** [0:00] text                 podcast sites: a capitalised name, the time, text
//! 0:00:14.1 **Ana Ruiz** text           podcast sites: the time, a name in bold, text
//! [Speaker 1] [00:00] text             a bracketed name, then the time
//! 00:00:05 text                        Talk Python: a full H:MM:SS clock, then text
//! 00:00:05<TAB>Ana Ruiz<TAB>text       meeting tools: time, name and words split by tabs
//! * 00:00 ✅ : (Ana Ruiz) text          Tactiq: time, a highlight's mark, colon, (name)
//! Ana Ruiz:                            podcast HTML transcripts as text: the name above
//! 0:00                                   the time alone, the words below (`cited_names`)
//! [Ana Ruiz] 19:09:47                  Zoom's saved captions: a bracketed name, a bare time
//! 0:55 - Ana Ruiz (Company)            Fathom: time, dash, the name alone (text below)
//! [00:01:02.02] - Speaker 1            Happy Scribe: time in brackets, dash, the name alone
//! 00:00:06 Speaker 2                   Word's transcription: time, a name alone (text below)
//! 00:00:06                             text exports: the time alone, the name alone on the
//! Speaker 2                              line below, the words under it (`names_below_times`)
//! 00:05:00                             Google Meet: the time alone, then one `Name: text`
//! Ana Ruiz: text                         line per turn (Gemini: `### 00:05:00 {#00:05:00}`,
//! Bo Lind: text                          `**Ana Ruiz:** text`)
//! ```
//!
//! A name is a few words with a letter (capitalised, or in a script without capitals: `田中：…`,
//! the full-width colon a colon too); before a colon it is no label that opens a sentence
//! (`Note:`, `Source:`), no phrase of three words or more in lower case (`Here is the plan:`)
//! and no link (`see https://…`). A name after a dash is a capitalised name and nothing else
//! on the line (`1:30 - we left` stays text). When the first line under a time alone is
//! `Name: text`, every such line of that block is a turn of its own from the block's time
//! (laid out one after another by their words; see "Ends are estimated"); a block whose first
//! line names nobody stays one paragraph (YouTube). A time and a capitalised name alone, the
//! words below (`00:00:06 Speaker 2`), names the speaker only when the file's headers are so
//! (`names_after_times`), and so does a name alone on the line below a time alone
//! (`names_below_times`): line by line, `00:00:06 Okay` is a header and its words. Lines that are markup around the
//! transcript — Markdown headings and rules, Otter's `Transcribed by https://otter.ai` footer,
//! Sonix's `(Transcribed by Sonix.ai - Remove this message…)` and its player's credit lines,
//! Google Meet's `Transcription ended after …` and its note that the transcript was computer
//! generated, Microsoft Teams's `Ana Ruiz started transcription` and `… stopped transcription`
//! — are skipped with one [`WarningKind::Skipped`] warning. A rule closes the
//! paragraph above it: lines under it up to the next header (a page's footer, `*Processed
//! by …*`) are skipped with them, not read as that paragraph's words.
//!
//! - Times are `H:MM:SS` or `M:SS` (the fields after the first have two digits below 60), with
//!   an optional `.fff` or `,fff` fraction.
//! - A name may hold titles, initials and colons (`Senator Smith: Chair: (00:01:00)` is the
//!   speaker `Senator Smith: Chair`): in the Rev shapes the time anchors the header, so
//!   everything before it is the name. In the `[time] name: text` shape the name ends at the
//!   first colon. Markdown emphasis around a header (`**Speaker 1** (00:00):`, `## …`) is
//!   removed; a name in emphasis right after the time, without a colon (`0:00:14.1 **Ana
//!   Ruiz** Welcome…`), is the speaker's when the file's such names come back (a name twice
//!   or more, and half of such lines by names that come back; `emphasised_names`: a chapter
//!   list, `0:00 **Intro** welcome`, names each chapter once), and `&` may join two names in
//!   one label (`**Jen Luker & Safia Abdalla** (laughing)`).
//! - A header with a time range (`[00:00 - 00:05]`, `[0:00:00 --> 0:00:05]`, `[00:00 →
//!   00:15]`) gives its paragraph's end too: that end is kept as written, not estimated, so
//!   overlaps between such paragraphs are measured. Lines of ranges in hours and minutes, each
//!   followed by an item's title and one after another, are an agenda, not a transcript: an
//!   error (`schedule`).
//! - A record that gives each speech's first label the clock time of day (the Australian
//!   Hansard's `Mr DUTTON (Dickson—Leader of the Opposition) (14:02):`) is read by those times,
//!   in hours and minutes from the first, the speaker named without the parts in parentheses
//!   (`times_of_day`).
//! - A header without a name continues with the speaker of the paragraph before (Descript and
//!   YouTube repeat times, not names); before any name the speaker is `unknown`, with one
//!   [`WarningKind::MissingSpeaker`] warning.
//! - Lines that are not headers are the paragraph's text; a paragraph without a header after a
//!   blank line (a continuation) is part of the paragraph before. A `Name: text` line whose
//!   name a header of the file gives (a page that times the guest's answers and not the host's
//!   questions) is a paragraph of its own after the one above, placed by its words, with one
//!   [`WarningKind::MissingTime`] warning. Text before the first header is skipped: a head
//!   of six lines or fewer none of which reads as speech (a title, a date, who attended; no
//!   sentence, no `Name:` turn of a speaker the headers name) with a [`WarningKind::Note`],
//!   as an untimed transcript's head is, so that `--strict` reads a well-formed transcript;
//!   other text (a cold open, a turn with no time) with a [`WarningKind::Skipped`] warning.
//! - A header with no text under it is no turn: nothing says who spoke then, or for how long.
//!   Such headers (a video's chapter list `0:00 - Intro`, a turn whose words were removed) are
//!   skipped with one [`WarningKind::Skipped`] warning; a file of nothing else is an error.
//! - A time alone in brackets inside a paragraph's words (InqScribe's `[00:00.00] Some text.
//!   [00:15.00] More.`) starts a paragraph of the same speaker; one with no words after it, last
//!   on its line, is the paragraph's end (`inline_times`). Times before the paragraph's start or
//!   out of order (`Ana (20:00): As the clip shows [05:10] he…`, a time cited) are words. A
//!   Markdown bullet before a header's time (`- [00:02] …`) is no part of it.
//! - A transcript laid out as a Markdown table (`| Time | Speaker | Transcript |`, a row per
//!   turn) is read a row per paragraph (`table_rows`).
//! - HTML character references left by a web page (`we&#39;re`, `&amp;`) are decoded.
//! - Bracketed notes in the text are kept in the text as written and also as [`Mark`]s:
//!   `[crosstalk 00:13:22]`, `[inaudible 00:01:02]`, `[laughter]`, … with the time they hold.
//!
//! # Transcripts without times
//!
//! A text of speakers' turns with no time header (a rush transcript, a hearing, a court
//! transcript) is read as an untimed transcript (`read_untimed`; rule book §5.10): `Name:`
//! labels, GPO's period labels (`Mr. JORDAN. Did you--`), an examination's `Q.` and `A.`
//! under `BY MR. SMITH:` (the answers by the witness a swearing-in line names,
//! `witness_line`), a court reporter's line numbers and page furniture taken off first
//! (`numbered_lines`), Hansard's labels on lines of their own joined to the words under
//! them (`stacked_labels`; also on the line of the words without a colon, `Mr Lee (Bath) (LD)
//! I rise…`, or before a dash, the Australian `Mr ALBANESE —because…`), `Name:` labels in
//! Markdown bold or alone on their line above the words (a web page's transcript, Rev's
//! export without times; `colon_labels`) or as Markdown headings that recur (`### Interviewer`
//! above the words, when the words under them read as turns; `heading_labels`), an anonymised
//! participant's label in square brackets
//! (`[Int2]: …`; `bracketed_label`), a witness sworn in mixed case, over two lines or in a `Witness:` field, a press briefing's `Q` lines
//! (`press_question`), a committee's `Q12 Chair:` numbers taken off, headings in capitals and
//! Hansard's column marks skipped. Lines of `Label: words` whose labels mostly come once
//! and whose words read as items (`Budget: we review the numbers for Q3`) are an agenda or
//! notes, not turns: an error naming the labels (`agenda_items`). A transcript's
//! fields above its turns (`Interviewer: Jane Smith`, `Date: 3/3/1998`) are set aside with a note
//! (`field_block`). Times too few to place the
//! turns (a stray time stamp; the Australian Hansard's time of day on a speech's first label
//! only) are set aside with a warning (`late_times`). A Markdown rule closes the turn above it, as it closes a timed
//! paragraph: the lines under it up to the next turn (a clerk's certification at the end) are
//! skipped with the markup.
//!
//! # Labels in lower case
//!
//! A label in lower case (`danah: so what I meant…`, `interviewer: and then?`; a podcast or
//! interview transcript written so) opens a turn only by the evidence of the whole file
//! (`LowerLabels`), since one line cannot tell it from prose (`result: nothing`):
//!
//! - its shape (`lower_label`): one or two words starting in lower case, of letters, digits,
//!   `-`, `'` and `_`, a colon, then whitespace; no period (`e.g.:`, `i.e.:`), no link or
//!   scheme (`http://…`, `mailto:x`), no time (`10:30`), no word that opens a note, a field or
//!   a mail or a meeting's notes (`note:`, `update:`, `source:`, `from:`, `re:`, `todo:`,
//!   `action:`, `decision:`);
//! - the name opens two lines or more: a name that comes once is words of the turn above,
//!   with a note (`1 line(s) open with a lower-case label that comes once…`);
//! - the turns change speaker to or from such a name at least twice (`danah`, `interviewer`,
//!   `danah`; or alternating with a capitalised label, `Interviewer:` and `danah:`);
//! - those lines are more than a third of the lines that open with a label, so that lower-case
//!   prose that recurs in a transcript named with capitals stays words (with a note naming
//!   it), and the lower-case labels that come once are no more than those lines (a glossary of
//!   `term: meaning` lines is no transcript).
//!
//! The names read so are listed in a note. These are notes, not repairs: the text is well
//! formed and only its reading is chosen, so `--strict` reads the file the same. The same
//! names open the turns under a time on its own line (Google Meet's blocks). A lower-case label
//! alone on its line, the words below (`interviewer`, then the question), is read as `name:
//! words` by the same evidence and more: the labels open half or more of the text's
//! paragraphs (`lower_alone_labels`).
//!
//! # Ends are estimated
//!
//! The files give no end times, and overtalk does not invent them silently: a paragraph ends at
//! the next later start in time, or earlier, at its start plus its words spoken at
//! [`WORDS_PER_SECOND`] (at least one word's worth), whichever comes first; the last paragraph
//! ends by its words alone. Paragraphs that share a start time (clocks in whole seconds) follow
//! each other in file order from that time, each by its words, squeezed in proportion when the
//! next start leaves less room (one note counts them). Every such end is marked estimated
//! ([`Transcript::end_estimated`](crate::model::Transcript::end_estimated)), and the JSON writer
//! keeps the flag.
//!
//! ```text
//! file      A (0:00) 8 words      B (0:10) 30 words       A (0:20)
//! by words  A [0 ─── 4)           B [10 ──────────── 25)
//! next      A [0 ──────────── 10) B [10 ──────── 20)
//! estimated A [0 ─── 4)           B [10 ──────── 20)      A [20 …
//! ```
//!
//! The rate is slow on purpose (120 words a minute; conversation runs at 150 to 200), so that the
//! estimate rarely cuts a paragraph short; a long pause or an untranscribed stretch before the
//! next paragraph is not counted as speech. Overlap cannot be measured from such times: each
//! paragraph ends no later than the next begins. Only the transcriber's `[crosstalk]` notes say
//! people talked over each other (see `overtalk::analysis::rules`).
//!
//! # Times going backwards
//!
//! A paragraph that starts before the one above it (an edited file, pasted parts) is kept at its
//! own time; one [`WarningKind::Unsorted`] warning per file counts such paragraphs; tracks are
//! sorted by time as in every reader. Ends are bounded by the next start in time, not in the
//! file, so such a file gets no overlap either.
//!
//! # Bounds
//!
//! One pass over the lines ([`ReadContext::lines`] caps their length), then one sort of the
//! paragraphs by start to place them; time is O(n log n) and memory linear in the input (a
//! 100 MB file is read in a few seconds, tested with a generated file).

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::error::{Result, Warning, WarningKind};
use crate::format::order::OutOfOrder;
use crate::format::webvtt::{decode_entities, NOT_SPEAKERS, UNKNOWN_SPEAKER};
use crate::format::{Format, ReadContext};
use crate::model::{Content, Corpus, Mark, Segment, TranscriptBuilder};
use crate::time::{Time, MAX_MICROS, MICROS_PER_SECOND};

use crate::format::{FirstLine, FormatSpec, Head, Sniff, Verdict};

/// What the format registry knows of Rev transcripts (see [`FormatSpec`]); [`PARAGRAPHS_SPEC`]
/// tells the dialects apart.
pub(crate) const REV_SPEC: FormatSpec = FormatSpec {
    format: Format::Rev,
    name: "rev",
    aliases: &[],
    extension: "txt",
    detected_by: &[],
    read: Ok(read),
    write: None,
    json: false,
    many_recordings: false,
    paragraphs: true,
    sniff: &[],
};

/// What the format registry knows of Otter.ai transcripts (see [`FormatSpec`]); [`PARAGRAPHS_SPEC`]
/// tells the dialects apart.
pub(crate) const OTTER_SPEC: FormatSpec = FormatSpec {
    format: Format::Otter,
    name: "otter",
    aliases: &[],
    extension: "txt",
    detected_by: &[],
    read: Ok(read),
    write: None,
    json: false,
    many_recordings: false,
    paragraphs: true,
    sniff: &[],
};

/// What the format registry knows of the other paragraph transcripts (see [`FormatSpec`]); its
/// content tests name any of the three dialects ([`sniff`]).
pub(crate) const PARAGRAPHS_SPEC: FormatSpec = FormatSpec {
    format: Format::Paragraphs,
    name: "paragraphs",
    aliases: &["trint", "descript", "zoom", "youtube", "temi", "sonix"],
    extension: "txt",
    detected_by: &[],
    read: Ok(read),
    write: None,
    json: false,
    many_recordings: false,
    paragraphs: true,
    sniff: &[
        // `[00:01:02] Name: text` paragraphs start like a JSON array: before JSON.
        Sniff::Start { rank: 50, test: sniff_bracketed },
        // Before CSV: their text has commas.
        Sniff::Line { rank: 70, test: sniff_line },
    ],
};

/// Bracketed headers (`[00:01:02] Name: text`), which start like a JSON array.
fn sniff_bracketed(head: &Head<'_>) -> Verdict {
    if head.trimmed.starts_with('[') {
        if let Some(f) = sniff(head.trimmed) {
            return Verdict::Is(f);
        }
    }
    Verdict::Pass
}

/// Headers with start times.
fn sniff_line(head: &Head<'_>, _: &FirstLine<'_>) -> Option<Format> {
    sniff(head.trimmed)
}

/// The speaking rate that bounds an estimated end: 2 words a second (120 a minute).
pub const WORDS_PER_SECOND: i64 = 2;

/// Longest speaker name accepted in a header, in characters.
const MAX_NAME_CHARS: usize = 80;
/// Most words in a speaker name.
const MAX_NAME_WORDS: usize = 10;
/// Longest `(time)` looked for in a header, in bytes.
const PAREN_WINDOW: usize = 24;

/// The shape of a header, which also names the dialect in detection.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    /// `Name (01:09:00):` or `Name: (01:09:00)`.
    Rev,
    /// `Speaker 1  0:04`.
    NameTime,
    /// `[00:01:02] Name: text`.
    Bracket,
    /// `00:01:02 Name: text`.
    TimeName,
    /// `0:04` alone.
    TimeOnly,
}

/// A header line, read.
#[derive(Debug, PartialEq)]
struct Header<'a> {
    shape: Shape,
    speaker: Option<&'a str>,
    time: Time,
    /// The end a time range gives (`[00:00 - 00:05]`), when it is later than `time`.
    end: Option<Time>,
    /// The paragraph's first words, when on the header line.
    text: &'a str,
}

/// A clock time `H:MM:SS(.fff)` or `M:SS(.fff)`, strictly: other text is not a time.
fn clock(s: &str) -> Option<Time> {
    let (main, frac) = match s.find(['.', ',']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let parts: Vec<&str> = main.split(':').collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let mut total: i64 = 0;
    for (k, p) in parts.iter().enumerate() {
        // Hours up to five digits (the model's range); minutes of `M:SS` up to three.
        let first_max = if parts.len() == 3 { 5 } else { 3 };
        let ok_len = if k == 0 { (1..=first_max).contains(&p.len()) } else { p.len() == 2 };
        if !ok_len || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let v: i64 = p.parse().ok()?;
        if k > 0 && v >= 60 {
            return None;
        }
        total = total * 60 + v;
    }
    let mut us = total * MICROS_PER_SECOND;
    if let Some(f) = frac {
        if f.is_empty() || f.len() > 6 || !f.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let v: i64 = f.parse().ok()?;
        us += v * 10i64.pow(6 - f.len() as u32);
    }
    Some(Time::from_micros(us))
}

/// Whether `s` can be a speaker name: a few words with a letter, no sentence punctuation at the
/// end, no brackets or quotes.
fn is_name(s: &str) -> bool {
    let s = s.trim();
    !s.is_empty()
        && s.chars().count() <= MAX_NAME_CHARS
        && s.split_whitespace().count() <= MAX_NAME_WORDS
        && s.chars().any(char::is_alphabetic)
        && !s.ends_with(['?', '!', ',', ';'])
        && !s.contains(['[', ']', '"', '“', '”', '{', '}', '<', '>'])
}

/// Removes markdown heading marks and emphasis from a candidate header. A name in emphasis
/// right after a leading time (`0:00:36.2 **Ana Ruiz** Hello.`) is given its colon before,
/// by the whole text ([`emphasised_names`]).
fn unmark(line: &str) -> std::borrow::Cow<'_, str> {
    let t = unbulleted(unheading(line));
    if t.contains("**") || t.contains("__") {
        std::borrow::Cow::Owned(t.replace("**", "").replace("__", "").trim().to_owned())
    } else {
        std::borrow::Cow::Borrowed(t)
    }
}

/// A line without the Markdown list bullet (`- `, `* `, `+ `) before a time that opens it:
/// notes that list a transcript's lines as bullets (`- [00:02] Today we look at…`) keep each
/// line's time after the bullet. Other list items stay as they are.
fn unbulleted(t: &str) -> &str {
    match t.strip_prefix(['-', '*', '+']).and_then(|r| r.strip_prefix(' ')) {
        Some(rest) if rest.trim_start().starts_with(|c: char| c == '[' || c.is_ascii_digit()) => {
            rest.trim_start()
        }
        _ => t,
    }
}

/// A line without its Markdown heading marks and heading anchor (`### 00:00:00 {#00:00:00}`,
/// Gemini's notes), trimmed.
fn unheading(line: &str) -> &str {
    let t = line.trim();
    let t = t.trim_start_matches('#').trim_start();
    match t.rfind(" {#") {
        Some(i) if t.ends_with('}') => t[..i].trim_end(),
        _ => t,
    }
}

/// `text` with each name in emphasis after a leading time given the colon a name in plain
/// text needs (`0:00:36.2 **Ana Ruiz** Hello.` -> `0:00:36.2 Ana Ruiz: Hello.`, as podcast
/// sites write their transcripts; [`emphasised_name_after_time`]), when the whole text shows
/// them to be speakers: a name comes twice or more, and the lines of the names that come
/// back are half of such lines or more. A chapter list (`0:00 **Intro** welcome`, `1:30
/// **Setup** the tools`) names each chapter once: `None`, and its lines stay as they are.
fn emphasised_names(text: &str) -> Option<String> {
    let mut names: HashMap<String, usize> = HashMap::new();
    let mut total = 0usize;
    for line in text.lines().take(100_000) {
        if let Some((name, _)) = emphasised_name_after_time(unheading(line)) {
            *names.entry(name).or_default() += 1;
            total += 1;
        }
    }
    let recurring: usize = names.values().filter(|&&n| n >= 2).sum();
    if recurring < 2 || 2 * recurring < total {
        return None;
    }
    let mut out = String::with_capacity(text.len() + total);
    for line in text.split_inclusive('\n') {
        match emphasised_name_after_time(unheading(line)) {
            Some((_, named)) => {
                out.push_str(&named);
                let body = line.trim_end_matches(['\r', '\n']);
                out.push_str(&line[body.len()..]);
            }
            None => out.push_str(line),
        }
    }
    Some(out)
}

/// Names of a Markdown table's columns that hold a transcript ([`table_rows`]), compared in
/// lower case: the time's, the speaker's ([`SPEAKER_COLUMNS`]) and the words'
/// ([`TEXT_COLUMNS`]).
const TIME_COLUMNS: &[&str] =
    &["time", "timestamp", "start", "start time", "timecode", "time code"];
/// Names of the speaker's column ([`TIME_COLUMNS`]).
const SPEAKER_COLUMNS: &[&str] = &["speaker", "name", "who", "speaker name"];
/// Names of the column of the words ([`TIME_COLUMNS`]).
const TEXT_COLUMNS: &[&str] =
    &["text", "transcript", "content", "words", "utterance", "dialogue", "said", "speech"];

/// The longest line read as a Markdown table row: a turn of a few minutes' words.
const MAX_TABLE_ROW: usize = 64 * 1024;

/// The most lines the whole-file rewrites of this module look at ([`table_rows`],
/// [`lower_alone_labels`]); a longer text is not rewritten (read as it is, never in part).
const MAX_REWRITE_LINES: usize = 100_000;

/// The cells of a Markdown table row (`| 00:00:04 | Host | Welcome… |`), trimmed, or `None`
/// for a line that is no row (or longer than [`MAX_TABLE_ROW`]). A pipe escaped in a cell
/// (`Thanks \| glad`) does not part it; [`unescape_cell`] gives its words.
fn table_cells(line: &str) -> Option<Vec<&str>> {
    if line.len() > MAX_TABLE_ROW {
        return None;
    }
    let t = line.trim();
    let inner = t.strip_prefix('|')?.strip_suffix('|')?;
    let mut cells = Vec::new();
    let mut from = 0;
    let mut escaped = false;
    for (i, c) in inner.char_indices() {
        match c {
            '|' if !escaped => {
                cells.push(inner[from..i].trim());
                from = i + 1;
            }
            _ => {}
        }
        escaped = c == '\\' && !escaped;
    }
    cells.push(inner[from..].trim());
    Some(cells)
}

/// A cell's words with its escaped pipes (`\|`) unescaped.
fn unescape_cell(cell: &str) -> std::borrow::Cow<'_, str> {
    if cell.contains("\\|") {
        cell.replace("\\|", "|").into()
    } else {
        cell.into()
    }
}

/// The text of a transcript laid out as a Markdown table, as podcast sites and notes apps
/// publish one (`| Time | Speaker | Transcript |`, a row per turn), with each row written as
/// the header it stands for: `00:00:04 Host: Welcome back…` (the header row and the rule
/// under it left blank, so line numbers stay the file's). A table is a transcript's when its
/// header row names a time column, a speaker column and a text column ([`TIME_COLUMNS`],
/// [`SPEAKER_COLUMNS`], [`TEXT_COLUMNS`]), the next line is its rule (`|---|---|---|`), and
/// the rows' times are clock times ([`clock`]); a row whose time is no clock time ends the
/// table. `None` when the text has no such table. Read as text, every row was skipped: no
/// paragraph had a time at the start of its line.
///
/// ```text
/// | Time | Speaker | Transcript |      (blank)
/// |---|---|---|                       (blank)
/// | 00:00:04 | Host | Welcome back. | -> 00:00:04 Host: Welcome back.
/// ```
fn table_rows(text: &str) -> Option<String> {
    let all: Vec<(&str, &str)> = split_lines(text).take(MAX_REWRITE_LINES + 1).collect();
    if all.len() > MAX_REWRITE_LINES {
        return None;
    }
    let mut out: Vec<Option<String>> = vec![None; all.len()];
    let mut found = false;
    let mut k = 0;
    while k + 1 < all.len() {
        // A header row is short; its rule holds only `|`, `-`, `:` and spaces.
        let columns = if all[k].0.len() < 300 { table_cells(all[k].0) } else { None };
        let rule = all[k + 1].0.len() < 300
            && table_cells(all[k + 1].0).is_some_and(|c| {
                c.iter().all(|cell| !cell.is_empty() && cell.chars().all(|c| "-: ".contains(c)))
            });
        let Some(columns) = columns.filter(|_| rule) else {
            k += 1;
            continue;
        };
        let find = |names: &[&str]| {
            columns.iter().position(|c| names.contains(&c.to_lowercase().as_str()))
        };
        let (Some(time), Some(who), Some(said)) =
            (find(TIME_COLUMNS), find(SPEAKER_COLUMNS), find(TEXT_COLUMNS))
        else {
            k += 1;
            continue;
        };
        out[k] = Some(String::new());
        out[k + 1] = Some(String::new());
        k += 2;
        while let Some(cells) = all.get(k).and_then(|(l, _)| table_cells(l)) {
            let (Some(t), Some(name), Some(words)) =
                (cells.get(time), cells.get(who), cells.get(said))
            else {
                break;
            };
            if clock(t).is_none() {
                break;
            }
            let words = unescape_cell(words);
            let line = match *name {
                "" => format!("{t} {words}"),
                name => format!("{t} {name}: {words}"),
            };
            out[k] = Some(line);
            found = true;
            k += 1;
        }
    }
    if !found {
        return None;
    }
    let mut joined = String::with_capacity(text.len());
    for ((line, ending), new) in all.iter().zip(out) {
        joined.push_str(new.as_deref().unwrap_or(line));
        joined.push_str(ending);
    }
    Some(joined)
}

/// `TIME Name: text` from `TIME **Name** text` (or `__Name__`), and the name: a leading time (`0:00:36.2`,
/// `[00:01:02]`, `(01:02)`), then a name in emphasis without a colon, then words. `None` for
/// any other line, and when the emphasis holds no name ([`is_name`]) or a colon (`**Ana:**`
/// is read as it is), or nothing follows it.
///
/// ```text
/// 0:00:14.1 **Adam Garrett-Harris** Welcome to the show.   -> 0:00:14.1 Adam Garrett-Harris: Welcome to the show.
/// 0:04:09.7 **All** (laughing)                             -> 0:04:09.7 All: (laughing)
/// 0:05:00 **Note** this is bold                            -> (unchanged: `Note` labels no one)
/// ```
fn emphasised_name_after_time(t: &str) -> Option<(String, String)> {
    let time = t.split_whitespace().next()?;
    let timed =
        clock(time).is_some() || enclosed_time(time).is_some_and(|(_, rest)| rest.is_empty());
    if !timed {
        return None;
    }
    let rest = t[time.len()..].trim_start();
    let mark = ["**", "__"].into_iter().find(|m| rest.starts_with(m))?;
    let inner = &rest[mark.len()..];
    let close = inner.find(mark)?;
    let (name, after) = (inner[..close].trim(), inner[close + mark.len()..].trim());
    let plain = !name.contains(':') && !after.starts_with(':') && !after.is_empty();
    let named = plain && is_name(name) && !NOT_SPEAKERS.contains(&name.to_lowercase().as_str());
    named.then(|| {
        let line = format!("{time} {name}: {}", after.replace("**", "").replace("__", ""));
        (name.to_owned(), line)
    })
}

/// Words that may stay in lower case inside a name (`Ana de la Cruz`, `Ludwig van Beethoven`), and
/// the `&` between two names of one label (`Jen Luker & Safia Abdalla`).
const NAME_PARTICLES: &[&str] = &[
    "&", "al", "bin", "da", "das", "de", "del", "della", "der", "di", "do", "dos", "du", "el",
    "la", "le", "of", "van", "von", "y", "zu",
];

/// Whether every word of `name` starts with a capital or a digit (`Ana Ruiz`, `Speaker 1`),
/// name particles aside. Words inside parentheses after a name are its constituency, party or
/// company, written as such (`Sir Keir Starmer (Holborn and St Pancras) (Lab)`, Hansard's
/// label): only their first word counts.
fn capitalised(name: &str) -> bool {
    let mut depth = 0usize;
    name.split_whitespace().all(|w| {
        let inside = depth > 0;
        depth += w.matches('(').count();
        depth = depth.saturating_sub(w.matches(')').count());
        if inside {
            return true;
        }
        // A word in parentheses (`(I-VT)`, `(Company)`) by its first letter.
        w.trim_start_matches('(')
            .starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit() || caseless(c))
            || NAME_PARTICLES.contains(&w)
    })
}

/// Whether `c` is a letter of a script without capitals (Chinese, Japanese, Korean, Arabic,
/// Hebrew, Thai, Devanagari): a name written in one is capitalised as far as its script can
/// say ([`capitalised`]), so that `田中: …` and `## 田中` name a speaker as `Tanaka: …` does.
fn caseless(c: char) -> bool {
    c.is_alphabetic() && !c.is_lowercase() && !c.is_uppercase()
}

/// Whether `c` is a letter of a script written without spaces between words (Chinese
/// ideographs, Japanese kana, Thai): such words are counted by their letters
/// ([`spoken_words`]).
fn unspaced(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0E7F       // Thai
        | 0x3040..=0x30FF     // Hiragana, Katakana
        | 0x3400..=0x4DBF     // CJK Extension A
        | 0x4E00..=0x9FFF     // CJK Unified Ideographs
        | 0xF900..=0xFAFF     // CJK Compatibility Ideographs
        | 0xFF66..=0xFF9F     // half-width Katakana
        | 0x20000..=0x2FA1F) // CJK Extensions B and after
}

/// The words of a turn for the test of speech ([`speech_turns`]): the words split by spaces
/// ([`word_count`](super::notes::word_count)), and in a script written without spaces one more
/// for each two letters (`十年前です。` is about three words, not one), so that a Japanese or
/// Chinese transcript is judged by its length as an English one is.
fn spoken_words(said: &str) -> usize {
    super::notes::word_count(said) + said.chars().filter(|&c| unspaced(c)).count() / 2
}

/// `(name, text)` from `name: text` when the part before the first colon is a name: not a
/// label that opens a sentence (`Note:`), not a phrase of three words or more with words in
/// lower case (`Here is the plan:`), not the scheme of a link (`see https://…`).
fn name_colon(rest: &str) -> Option<(&str, &str)> {
    // The full-width colon of Chinese and Japanese text (`田中：はい。`) is a colon too.
    let i = rest.find([':', '：'])?;
    let colon = rest[i..].chars().next().map_or(1, char::len_utf8);
    let (name, text) = (rest[..i].trim(), rest[i + colon..].trim());
    // `1:30` inside text is not a name and a colon.
    if text.starts_with(|c: char| c.is_ascii_digit())
        && name.ends_with(|c: char| c.is_ascii_digit())
    {
        return None;
    }
    if text.starts_with("//") || NOT_SPEAKERS.contains(&name.to_lowercase().as_str()) {
        return None;
    }
    if name.split_whitespace().count() >= 3 && !capitalised(name) {
        return None;
    }
    is_name(name).then_some((name, text))
}

/// Where `text` is a transcript of speakers' turns with no times at all (a debate's rush
/// transcript, a hearing: `COOPER: Welcome…`, `CLINTON: Thank you`): at least three lines
/// open with a capitalised `Name:` (or the text's other labels, [`Labels`]: `Mr. JORDAN.`,
/// `Q.`), two names or more, one of them twice (a name's parts in parentheses aside). The
/// line (1-based) and its start, for an error that says why nothing can be measured.
///
/// ```text
/// COOPER: Welcome to the debate.      named turn 1      names: COOPER ×2, CHAFEE ×1
/// CHAFEE: Thank you, Anderson.        named turn 2      -> untimed turns, from line 1
/// COOPER: Governor, you were…         named turn 3
/// ```
pub(crate) fn untimed_turns(text: &str) -> Option<(usize, String)> {
    // A name with its parts in parentheses is the name without them (Hansard's `Sir Keir
    // Starmer (Holborn and St Pancras) (Lab):`, then `Sir Keir Starmer:`).
    let mut names: HashMap<String, usize> = HashMap::new();
    let mut first = None;
    let labels = Labels::of(text);
    let colons_only = !(labels.period || labels.examination || labels.press);
    if colons_only && agenda_items(text).is_some() {
        return None;
    }
    for (n, line) in text.lines().enumerate().take(2000) {
        let Some((name, said)) = untimed_turn_start(line.trim(), &labels) else { continue };
        if said.is_empty() {
            continue;
        }
        *names.entry(without_parenthesised(name).trim().to_owned()).or_default() += 1;
        first.get_or_insert((n + 1, line.trim().chars().take(40).collect::<String>()));
    }
    let turns: usize = names.values().sum();
    (turns >= 3 && names.len() >= 2 && names.values().any(|&k| k >= 2)).then_some(first).flatten()
}

/// Whether `text` is nothing but a two-line exchange (`Ana: Are you coming?`, `Bo: Yes, in a
/// minute.`): exactly two non-blank lines, each a turn ([`untimed_turn_start`]) of two
/// different speakers, both said as sentences ([`turn_said`]). A shorter transcript than
/// [`untimed_turns`] otherwise takes (three turns, a name that comes back), kept to a text of
/// those two lines alone, so that two labelled lines in prose (`Note: …`, `The plan: …`) are
/// no exchange. Read so only given `--from paragraphs`: two labelled sentences are as often
/// notes (`Pros: Cheap.`, `Cons: Slow.`) or a mail's head as a dialogue, so format detection
/// ([`speech_turns`]) does not take them, nor does a file with a few times below them
/// ([`late_times`]).
fn two_turn_exchange(text: &str) -> bool {
    let labels = Labels::of(text);
    let labels = &labels;
    let mut lines = text.lines().map(|l| l.trim().trim_start_matches('\u{feff}').trim());
    let mut turns = lines.by_ref().filter(|l| !l.is_empty()).take(3);
    let (Some(a), Some(b), None) = (turns.next(), turns.next(), turns.next()) else {
        return false;
    };
    let turn = |line: &str| {
        untimed_turn_start(line, labels)
            .filter(|(name, said)| {
                !said.is_empty()
                    && turn_said(said)
                    && !FIELD_NAMES.contains(&name.to_lowercase().as_str())
            })
            .map(|(name, _)| without_parenthesised(name).trim().to_owned())
    };
    matches!((turn(a), turn(b)), (Some(x), Some(y)) if x != y)
}

/// Whether the words after a label read as something said, not an item's title: a sentence
/// ([`sentence_line`]), or one that breaks off (`going to—`, `so…`) or ends in a closing quote,
/// a bracket or a note (`…he said."`, `Right. [laughter]`).
fn turn_said(said: &str) -> bool {
    let mut t = said.trim();
    // A note at the end (`[laughter]`, `(laughs)`) says nothing of the sentence before it.
    while let Some(open) = t.ends_with([']', ')']).then(|| t.rfind(['[', '('])).flatten() {
        if open == 0 {
            break;
        }
        t = t[..open].trim_end();
    }
    let t = t.trim_end_matches(['"', '\'', '”', '’', ')', ']', '»']);
    sentence_line(t) || t.ends_with(SENTENCE_ENDS)
}

/// Where `text` is an agenda or notes whose items open with a label, not a transcript: lines
/// of `Label: words` (`Budget: we review the numbers for Q3`, `Hiring: open roles`), with or
/// without lines of description between them. A speaker's label comes back; an item's does
/// not. Lines that open with a capitalised label ([`name_colon`], [`capitalised`]) and words,
/// at least three, and either
///
/// - no label comes twice, or
/// - most of those lines have a label that comes once, and half of them or more read as an
///   item's words, not a speaker's: they start in lower case (`we review…`) or are a title
///   (no sentence's end, twelve words or fewer; [`turn_said`]).
///
/// Read as turns, a label that came back made the items speakers (`Budget` and `Hiring`, one of
/// them twice); a transcript whose guests speak once each keeps the host's label coming back
/// and its guests' answers as sentences. Fields of a mail or a request ([`FIELD_NAMES`]) are
/// none. The first such line (1-based), how many, and the first labels, for an error that says
/// why.
pub(crate) fn agenda_items(text: &str) -> Option<(usize, usize, Vec<&str>)> {
    let mut items: Vec<(usize, &str, &str)> = Vec::new();
    for (k, line) in text.lines().enumerate().take(LATE_TIMES_LINES) {
        let t = line.trim().trim_start_matches('\u{feff}');
        if is_markup(t) || header(&unmark(t)).is_some() {
            continue;
        }
        let labelled = name_colon(t).filter(|(name, said)| {
            capitalised(name) && name.starts_with(char::is_alphabetic) && !said.is_empty()
        });
        if let Some((name, said)) = labelled {
            items.push((k + 1, name, said));
        }
    }
    // A name with its parts in parentheses is the name without them, as [`untimed_turns`]
    // counts it (Hansard's `Mr John Smith (Brighton, Kemptown) (Lab)`, then `Mr John Smith`).
    let bare: Vec<String> =
        items.iter().map(|(_, name, _)| without_parenthesised(name).trim().to_owned()).collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for name in &bare {
        *counts.entry(name.as_str()).or_default() += 1;
    }
    // A mail's or a request's header (`From:`, `Subject:`, `Host:`) is no agenda: the generic
    // refusal says enough.
    if bare.iter().any(|name| FIELD_NAMES.contains(&name.to_lowercase().as_str())) {
        return None;
    }
    let once = bare.iter().filter(|name| counts[name.as_str()] == 1).count();
    let worded = items
        .iter()
        .filter(|(_, _, said)| said.starts_with(char::is_lowercase) || !turn_said(said))
        .count();
    let agenda = items.len() >= 3
        && (once == items.len() || (2 * once > items.len() && 2 * worded >= items.len()));
    agenda.then(|| {
        let mut labels: Vec<&str> = Vec::new();
        for &(_, name, _) in &items {
            if labels.len() < 3 && !labels.contains(&name) {
                labels.push(name);
            }
        }
        (items[0].0, items.len(), labels)
    })
}

/// Why a text of `Label: words` lines is no transcript ([`agenda_items`]), for an error.
pub(crate) fn agenda_reason(count: usize, labels: &[&str]) -> String {
    let shown: Vec<String> = labels.iter().map(|l| format!("`{l}:`")).collect();
    let more = if count > labels.len() { ", …" } else { "" };
    format!("the {count} lines that open with a label ({}{more}) are the items of an agenda or notes, not speakers' turns (most labels come once, where a speaker's comes back, and the words after them read as items)", shown.join(", "))
}

/// Keys of headers, fields and change logs (`From:`, `Host:`, `Added:`): a text of them is no
/// transcript of turns.
const FIELD_NAMES: &[&str] = &[
    "from",
    "to",
    "cc",
    "bcc",
    "subject",
    "date",
    "sent",
    "reply-to",
    "host",
    "accept",
    "user-agent",
    "content-type",
    "added",
    "fixed",
    "changed",
    "removed",
    "deprecated",
    "security",
    "version",
    "author",
    "title",
    "status",
    "type",
    "description",
    "name",
    "id",
];

/// The labels of notes, minutes, lists and documents (`Pros:`, `Agenda:`, `Action:`, `Note:`),
/// in lower case: common nouns, no speakers' names. Short lines that alternate between them
/// read like a rush exchange (`Pros: Cheap.`, `Cons: Slow.`, `Pros: Fast.`), so
/// [`speech_turns`] takes no rush exchange with one of them.
const NOTE_LABELS: &[&str] = &[
    "pros",
    "cons",
    "pro",
    "con",
    "note",
    "notes",
    "nb",
    "tip",
    "hint",
    "warning",
    "caution",
    "important",
    "reminder",
    "todo",
    "agenda",
    "item",
    "topic",
    "action",
    "actions",
    "action item",
    "decision",
    "owner",
    "outcome",
    "result",
    "summary",
    "next steps",
    "attendees",
    "location",
    "goal",
    "problem",
    "solution",
    "reason",
    "example",
    "step",
    "usage",
    "install",
    "update",
    "fix",
    "issue",
    "done",
];

/// Whether a text found by [`untimed_turns`] reads as speakers' turns when nothing names its
/// format (format detection): no turn under a header or field key (`From:`, `Host:`), and
/// either at least two and a half words a turn on average and a third of the turns ending as
/// sentences do (or cut off), or a fast exchange of shorter turns (`A: Yes.`, `B: No.`): every
/// turn another speaker's than the one before, two turns in three ending as sentences, and no
/// label a note's ([`NOTE_LABELS`]: `Pros: Cheap.`, `Cons: Slow.`). Email and HTTP headers,
/// configuration files and change logs have `Key: value` lines too; given `--from
/// paragraphs`, [`untimed_turns`] alone decides (or a two-line exchange,
/// [`two_turn_exchange`]). When two turns in
/// three are named in capitals, only those count: the fields of a broadcaster's heading
/// (`Show: ALL IN with CHRIS HAYES`, `Date: March 1, 2018`) are no turns.
pub(crate) fn speech_turns(text: &str) -> bool {
    let numbered = numbered_lines(text);
    let text = numbered.as_ref().map_or(text, |(t, _)| t.as_str());
    let stacked = stacked_labels(text);
    let text = stacked.as_deref().unwrap_or(text);
    let colons = colon_labels(text);
    let text = colons.as_deref().unwrap_or(text);
    let alone = lower_alone_labels(text);
    let text = alone.as_deref().unwrap_or(text);
    let fields = field_block(text);
    let text = fields.as_ref().map_or(text, |(t, _, _)| t.as_str());
    let (mut turns, mut words, mut ended) = (0usize, 0usize, 0usize);
    let labels = Labels::of(text);
    let starts: Vec<(&str, &str)> = text
        .lines()
        .take(2000)
        .filter(|line| !is_markup(line))
        .filter_map(|line| untimed_turn_start(line.trim(), &labels))
        .filter(|(_, said)| !said.is_empty())
        .collect();
    // Names in capitals open the turns when two in three are so (`HAYES:`, as
    // [`read_untimed`] reads them): a broadcaster's fields above them (MSNBC's `Show:`,
    // `Date:`, `Guest:`) are no turns, so no header of a mail or a request either.
    let upper = starts.iter().filter(|(name, _)| in_capitals(name)).count();
    let capitals_only = 3 * upper >= 2 * starts.len();
    // Whether every turn is another speaker's than the one before: a fast exchange.
    let (mut alternating, mut previous, mut noted) = (true, None, false);
    for (name, said) in starts {
        if capitals_only && !in_capitals(name) {
            continue;
        }
        if FIELD_NAMES.contains(&name.to_lowercase().as_str()) {
            return false;
        }
        let bare = without_parenthesised(name);
        noted |= NOTE_LABELS.contains(&bare.trim().to_lowercase().as_str());
        alternating &= previous.as_deref() != Some(bare.trim());
        previous = Some(bare.trim().to_owned());
        turns += 1;
        words += spoken_words(said);
        let tail = crate::analysis::rules::sentence_tail(said);
        ended += usize::from(tail.ends_with(SENTENCE_ENDS));
    }
    // A rush exchange (`A: Yes.`, `B: No.`, `A: Why?`) has fewer words a turn: its speakers
    // take every other turn and two turns in three end as sentences, which a list of keys and
    // values (`Key: value`) does not; notes that alternate their labels (`Pros: Cheap.`,
    // `Cons: Slow.`) are no exchange.
    let worded = 2 * words >= 5 * turns && 3 * ended >= turns;
    let rush = alternating && !noted && 3 * ended >= 2 * turns;
    untimed_turns(text).is_some() && (worded || rush)
}

/// The marks a turn that ends as a sentence, or cut off, ends with ([`speech_turns`]), the
/// full-width forms of Chinese and Japanese text among them (`。`, `？`, `！`).
const SENTENCE_ENDS: &[char] = &['.', '?', '!', '-', '–', '—', '…', '。', '？', '！', '．'];

/// The name in `- Name` or `- Name (Company)`, the whole rest of a header line after its time
/// (Fathom `0:55 - Marcus Dallacqua (SuiteCentric)`, Happy Scribe `[00:01:02.02] - Speaker 1`):
/// a dash, then a capitalised name and nothing else, so that `1:30 - we left` stays text.
fn dash_name(rest: &str) -> Option<&str> {
    let name = rest.trim().strip_prefix(['-', '–', '—'])?.trim();
    // A company or role in parentheses after the name is part of the label.
    let bare = match name.find(" (") {
        Some(i) if name.ends_with(')') => name[..i].trim_end(),
        _ => name,
    };
    let plain = !name.contains(':') && !bare.contains(['(', ')']) && !bare.ends_with('.');
    (plain && is_name(bare) && capitalised(bare) && is_name(name)).then_some(name)
}

/// A time in parentheses or brackets at the start of `s`: the time and the rest after it.
fn enclosed_time(s: &str) -> Option<(Time, &str)> {
    let close = match s.as_bytes().first()? {
        b'(' => ')',
        b'[' => ']',
        _ => return None,
    };
    let mut w = s.len().min(PAREN_WINDOW);
    while !s.is_char_boundary(w) {
        w -= 1;
    }
    let window = &s[..w];
    let end = window.find(close)?;
    Some((clock(s[1..end].trim())?, &s[end + 1..]))
}

/// A time range in brackets at the start of `s` (`[00:00 - 00:05]`, `[0:00:00 --> 0:00:05]`,
/// `[00:00 → 00:15]`, as diarize-and-transcribe tools write each segment): the start, the
/// end and the rest after it. `None` unless both are clock times ([`clock`]) joined by `-`,
/// `–`, `—`, `->`, `-->`, `→` or `to`, and the end is not before the start.
fn enclosed_range(s: &str) -> Option<(Time, Time, &str)> {
    let inner = s.strip_prefix('[')?;
    let close = inner.char_indices().take(RANGE_WINDOW).find(|&(_, c)| c == ']')?.0;
    let (range, rest) = (&inner[..close], &inner[close + 1..]);
    let (from, to) =
        ["-->", "->", "→", " to ", "–", "—", "-"].iter().find_map(|sep| range.split_once(sep))?;
    let time = |t: &str| clock(t).or_else(|| seconds(t));
    let (start, end) = (time(from.trim())?, time(to.trim())?);
    (end >= start).then_some((start, end, rest))
}

/// A time in seconds with its unit (`17.36s`, `5s`), as transcription scripts print a
/// segment's range (`[0.03s - 17.36s] [SPEAKER_00]: …`); only in a range ([`enclosed_range`]).
fn seconds(t: &str) -> Option<Time> {
    let number = t.strip_suffix('s')?;
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    let digits = |d: &str| d.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || whole.len() > 9 || frac.len() > 6 || !digits(whole) || !digits(frac) {
        return None;
    }
    let mut us = whole.parse::<i64>().ok()? * MICROS_PER_SECOND;
    if !frac.is_empty() {
        us += frac.parse::<i64>().ok()? * 10i64.pow(6 - frac.len() as u32);
    }
    (us <= MAX_MICROS).then(|| Time::from_micros(us))
}

/// A time range that opens a line without brackets (`09:00–09:30 Welcome`, `09:30 - 10:15
/// Keynote`): the start, the end and the rest after it, as [`enclosed_range`] reads the range
/// in brackets.
fn bare_range(l: &str) -> Option<(Time, Time, &str)> {
    let time_len = |s: &str| s.bytes().take_while(|b| b.is_ascii_digit() || *b == b':').count();
    let first = time_len(l);
    let start = clock(&l[..first])?;
    let after = l[first..].trim_start();
    let sep = ["–", "—", "-", "to "].into_iter().find(|s| after.starts_with(s))?;
    let second = after[sep.len()..].trim_start();
    let len = time_len(second);
    let end = clock(&second[..len])?;
    let rest = &second[len..];
    (rest.is_empty() || rest.starts_with(char::is_whitespace))
        .then_some((start, end, rest))
        .filter(|_| end >= start)
}

/// Where `text` is a schedule, not a transcript: an agenda's lines, each a time range and an
/// item's title (`[09:00–09:30] Welcome and introductions`, `09:30-10:15 Keynote: Jane
/// Doe`). Read as the time ranges of a diarized transcript (`[00:00 - 00:05] SPEAKER_00:
/// …`), its items were turns of speakers named `Keynote` or `unknown`, with ends kept and
/// overlap measured. A schedule, line by line:
///
/// - its ranges are clock times of day in hours and minutes (`H:MM` or `HH:MM`, no seconds
///   or fraction, hours below 24) on five minutes (`09:00`, `10:15`), where a recording's
///   ranges fall on any second and often carry a fraction (`[00:00:01.000 -->
///   00:00:03.000]`);
/// - each item's text is a title: twelve words or fewer, no sentence's end (`.`, `?`, `!`),
///   and no label before a colon comes twice (a speaker's label comes back; `Keynote:` does
///   not), nor a whole title that names a speaker (`Speaker 1` over the words below, twice);
/// - the ranges follow one another, each starting no earlier than the one above ends (they
///   tile the day, with breaks between);
///
/// and the text has at least three such lines, no lines of sentences between them (the words
/// of a turn below its range), no other header with a time, no more than half of the titles a
/// label and words (`Ana: Hello there`, where `Keynote: Jane Doe` is an item and its
/// speaker's name) and no speakers' turns without times ([`untimed_turns`]). `MM:SS` on five
/// seconds reads as `H:MM` on five minutes, so the ranges alone tell nothing. The first such
/// line (1-based) and how many.
fn schedule(text: &str) -> Option<(usize, usize)> {
    let mut items: Vec<(usize, Time, Time, &str)> = Vec::new();
    // A line of sentences seen since the first range, and one between two ranges.
    let (mut prose, mut between) = (false, false);
    for (k, (line, _)) in split_lines(text).enumerate().take(LATE_TIMES_LINES) {
        let l = unheading(line.trim_start_matches('\u{feff}'));
        if let Some((start, end, rest)) = enclosed_range(l).or_else(|| bare_range(l)) {
            between |= prose;
            // The range as written, without the title after it.
            let inner = &l[..l.len() - rest.len()];
            items.push((k + 1, start, end, rest));
            // Hours and minutes on five minutes, nothing finer.
            let minutes = inner
                .split(|c: char| !(c.is_ascii_digit() || c == ':' || c == '.' || c == ','))
                .filter(|t| !t.is_empty());
            for t in minutes {
                let fields: Vec<&str> = t.split(':').collect();
                let on_five = fields.len() == 2
                    && fields[0].parse::<u32>().is_ok_and(|h| h < 24)
                    && fields[1].len() == 2
                    && fields[1].parse::<u32>().is_ok_and(|m| m % 5 == 0);
                if !on_five {
                    return None;
                }
            }
        } else if header(&unmark(line)).is_some() {
            return None;
        } else if !items.is_empty() && sentence_line(l) {
            prose = true;
        }
    }
    if items.len() < 3 || between || untimed_turns(text).is_some() {
        return None;
    }
    let mut labels: HashSet<&str> = HashSet::new();
    let mut titles: HashSet<&str> = HashSet::new();
    let mut turns = 0usize;
    for (i, &(_, start, _, rest)) in items.iter().enumerate() {
        let title = rest.trim().trim_start_matches(['-', '–', '—', '|']).trim();
        let sentence = sentence_line(title);
        let label = name_colon(title);
        // A label and words, not a name (`Ana: Hello there`; `Keynote: Jane Doe` is an item).
        turns += usize::from(label.is_some_and(|(_, words)| !capitalised(words)));
        let repeated = label.is_some_and(|(name, _)| !labels.insert(name))
            || (!titles.insert(title) && speaker_role(title));
        let follows = i == 0 || start >= items[i - 1].2;
        if title.is_empty() || sentence || repeated || !follows {
            return None;
        }
    }
    (2 * turns <= items.len()).then_some((items[0].0, items.len()))
}

/// Whether a line reads as sentences, not a title: it ends as a sentence does (`.`, `?`, `!`,
/// or their full-width forms) or has more than twelve words ([`schedule`]).
fn sentence_line(l: &str) -> bool {
    let t = l.trim();
    t.ends_with(['.', '?', '!', '。', '？', '！']) || t.split_whitespace().count() > 12
}

/// Longest time range looked for in a header ([`enclosed_range`]), in characters.
const RANGE_WINDOW: usize = 48;

/// The rest of a line after a Markdown link's target that opens it (`(javascript:void(0);)
/// Name: text` after `[13:30]`, `(https://youtu.be/x?t=810) Name: text`): `None` unless `rest`
/// starts with `(` right after the `]`, the parentheses close within [`MAX_LINK_TARGET`]
/// bytes and what they hold has a `:`, `/` or `#` (a note, `[0:01](laughs)`, stays text).
/// Pages copied as Markdown keep their clickable times so (InfoQ's podcast transcripts); read
/// as the rest of a `[time]` header, the target would be taken for the speaker's name.
///
/// ```text
/// [13:30](javascript:void(0);) Ana Ruiz: So there are…   -> [13:30] Ana Ruiz: So there are…
/// ```
fn link_target(rest: &str) -> Option<&str> {
    if !rest.starts_with('(') {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in rest.char_indices().take_while(|&(i, _)| i < MAX_LINK_TARGET) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                // A link's target has a scheme, a path or an anchor; `(laughs)` is a note.
                let target = &rest[1..i];
                if depth == 0 {
                    return target.contains([':', '/', '#']).then_some(&rest[i + 1..]);
                }
            }
            c if c.is_whitespace() => return None,
            _ => {}
        }
    }
    None
}

/// Longest Markdown link target after a `[time]` ([`link_target`]), in bytes.
const MAX_LINK_TARGET: usize = 2048;

/// Reads a header line, or `None` for a line of text.
fn header(line: &str) -> Option<Header<'_>> {
    let l = line.trim();
    if l.is_empty() {
        return None;
    }
    // `[00:01:02] …`; a page's clickable time is a Markdown link, `[13:30](target) …`; a
    // time range gives the end too (`[00:00 - 00:05] SPEAKER_00: …`).
    let timed = enclosed_time(l)
        .map(|(time, rest)| (time, None, rest))
        .or_else(|| enclosed_range(l).map(|(time, end, rest)| (time, Some(end), rest)));
    if let Some((time, end, rest)) = timed.filter(|_| l.starts_with('[')) {
        let rest = link_target(rest).unwrap_or(rest);
        if let Some(name) = dash_name(rest) {
            return Some(Header {
                shape: Shape::Bracket,
                speaker: Some(name),
                time,
                end,
                text: "",
            });
        }
        let rest = rest.trim().trim_start_matches(['-', '–', '—']).trim();
        // `[00:00:05] [SPEAKER_00]: text`: the label in brackets, as WhisperX's diarized
        // segments are printed.
        if let Some((name, text)) = bracketed_label(rest) {
            return Some(Header { shape: Shape::Bracket, speaker: Some(name), time, end, text });
        }
        return Some(match name_colon(rest) {
            Some((name, text)) => {
                Header { shape: Shape::Bracket, speaker: Some(name), time, end, text }
            }
            None => Header { shape: Shape::Bracket, speaker: None, time, end, text: rest },
        });
    }
    // `[Speaker 1] [00:00] text`: a bracketed name, then the time; Zoom's saved captions
    // write the time bare (`[Ana Ruiz] 19:09:47`).
    if let Some(rest) = l.strip_prefix('[') {
        let close = rest.find(']')?;
        let name = rest[..close].trim();
        let after = rest[close + 1..].trim_start();
        let bare = || {
            let first = after.split_whitespace().next()?;
            Some((clock(first)?, &after[first.len()..]))
        };
        // `[SPEAKER_00]: [00:00:02.039] text`: a colon, then the time in brackets (a bare time
        // after a label's colon is words, `[Int2]: 10:30 is when…`).
        let (time, text) = match after.strip_prefix(':') {
            Some(said) => enclosed_time(said.trim_start())?,
            None => enclosed_time(after).or_else(bare)?,
        };
        let text = text.trim_start();
        let text = text.strip_prefix(':').unwrap_or(text).trim();
        return is_name(name).then_some(Header {
            shape: Shape::Bracket,
            speaker: Some(name),
            time,
            end: None,
            text,
        });
    }
    // `(01:10:19):` — Rev's header of a paragraph that continues the speaker above.
    if let Some((time, rest)) = enclosed_time(l) {
        let rest = rest.trim_start();
        // `(00:00:05) Ana Ruiz: text`: the time in parentheses, then a name and a colon, as
        // `[00:00:05] Ana Ruiz: text` (Rev's continuation has its colon right after the time).
        let named = (!rest.starts_with(':')).then(|| name_colon(rest)).flatten();
        if let Some((name, text)) = named.filter(|(name, _)| capitalised(name)) {
            return Some(Header {
                shape: Shape::Bracket,
                speaker: Some(name),
                time,
                end: None,
                text,
            });
        }
        let text = rest.strip_prefix(':').unwrap_or(rest).trim();
        return Some(Header { shape: Shape::Rev, speaker: None, time, end: None, text });
    }
    // `0:04` alone, `00:01:02 Name: text`, or `00:01:02 text` (a full `H:MM:SS` clock).
    let first = l.split_whitespace().next().unwrap_or("");
    // `00:00:05 - 00:00:12 Ana Ruiz`: a bare range of two full clocks (an agenda's `09:00 -
    // 09:30` has none), the end kept as a bracketed range's is.
    let ranged =
        bare_range(l).filter(|(_, _, rest)| l[..l.len() - rest.len()].matches(':').count() >= 4);
    let (timed, end, after) = match ranged {
        Some((start, end, rest)) => (Some(start), Some(end), rest),
        None => (clock(first), None, &l[first.len()..]),
    };
    if let Some(time) = timed {
        if let Some(name) = dash_name(after) {
            return Some(Header {
                shape: Shape::TimeName,
                speaker: Some(name),
                time,
                end,
                text: "",
            });
        }
        let rest = after.trim().trim_start_matches(['-', '–', '—', '|']).trim();
        // `00:00:05<TAB>Ana Ruiz<TAB>text`: fields split by tabs, as meeting tools export a
        // transcript, the name a capitalised name alone in its field.
        let tabbed = after.starts_with('\t').then(|| rest.split_once('\t')).flatten();
        if let Some((name, text)) = tabbed.map(|(n, t)| (n.trim(), t.trim())) {
            if is_name(name) && capitalised(name) && !name.contains(':') && !text.is_empty() {
                return Some(Header {
                    shape: Shape::TimeName,
                    speaker: Some(name),
                    time,
                    end,
                    text,
                });
            }
        }
        // `00:00 ✅ : (Jane Doe) text`: Tactiq's line, the name in parentheses after a mark.
        if let Some((name, text)) = marked_name(rest) {
            return Some(Header { shape: Shape::TimeName, speaker: Some(name), time, end, text });
        }
        if rest.is_empty() {
            return Some(Header { shape: Shape::TimeOnly, speaker: None, time, end, text: "" });
        }
        return match name_colon(rest) {
            Some((name, text)) => {
                Some(Header { shape: Shape::TimeName, speaker: Some(name), time, end, text })
            }
            // `10:30 is when we meet` stays text: only an hours clock starts nameless text.
            None if first.matches(':').count() == 2 => {
                Some(Header { shape: Shape::TimeName, speaker: None, time, end, text: rest })
            }
            None => None,
        };
    }
    // `Name (01:09:00):`, `Name: (01:09:00)`, `Name [01:02]: text`, `Name [0:00] text`.
    let mut from = 0;
    while let Some(i) = l[from..].find(['(', '[']).map(|i| i + from) {
        from = i + 1;
        // A time in parentheses is short: looking a little ahead keeps a line of `((((…` linear.
        let Some((time, after)) = enclosed_time(&l[i..]) else { continue };
        let before = l[..i].trim_end();
        let after = after.trim_start();
        let name_colon = before.ends_with(':');
        let name = before.trim_end_matches(':').trim_end();
        // Text right after the time, with no colon anywhere: only after a capitalised name
        // (`Emma [0:00] Today we…`), so that prose with a time in it stays text.
        let bare_text = !(name_colon || after.is_empty() || after.starts_with(':'));
        if (bare_text && !capitalised(name)) || !is_name(name) {
            return None;
        }
        let text = after.strip_prefix(':').unwrap_or(after).trim();
        return Some(Header { shape: Shape::Rev, speaker: Some(name), time, end: None, text });
    }
    // `Speaker 1  0:04`, `Jon Krohn: 00:02:51`: a name, whitespace, a time, and nothing after.
    let last = l.split_whitespace().next_back()?;
    let time = clock(last)?;
    let before = &l[..l.len() - last.len()];
    let name = before.trim_end();
    let wide = before.len() - name.len() >= 2 || before.ends_with('\t');
    let name = name.trim_end_matches(['-', '–', '—', '|', '·']).trim_end();
    // `Name: 00:02:51`: a capitalised name and a colon.
    let name = match name.strip_suffix(':') {
        Some(n) if capitalised(n) => n.trim_end(),
        _ => name,
    };
    if name.contains(',') || name.ends_with(['.', ':']) || !is_name(name) {
        return None;
    }
    // One space before the time: only a name in capitals (`Ana Ruiz 00:01:02`), so that prose
    // ending in a time (`we left at 10:30`) stays text.
    if !wide && !capitalised(name) {
        return None;
    }
    Some(Header { shape: Shape::NameTime, speaker: Some(name), time, end: None, text: "" })
}

/// The name and words after a header's time in Tactiq's lines (`* 00:00 ✅ : (Jane Doe) Good
/// morning.`): a mark of symbols or none (the highlight Tactiq sets on a line, `✅`, `💡`,
/// `✓`), a colon, the name in parentheses ([`is_name`], in any case: Tactiq writes the name as
/// the meeting shows it, `(rachel xie)`), then the words. Read as a time and text, each line
/// was one speaker's words, its name in them; the mark holds no letter or digit, so
/// `10:30 Note: (see below)` stays text.
fn marked_name(rest: &str) -> Option<(&str, &str)> {
    let (mark, after) = rest.split_once(':')?;
    let plain_mark = mark.chars().count() <= MAX_MARK_CHARS
        && mark.chars().all(|c| !(c.is_alphanumeric() || "()[]{}<>\"'".contains(c)));
    let inner = after.trim_start().strip_prefix('(')?;
    let close = inner.char_indices().take(MAX_NAME_CHARS + 1).find(|&(_, c)| c == ')')?.0;
    let name = inner[..close].trim();
    // `00:01 : (laughs) yes` is a note in the words, not a speaker.
    let named = is_name(name)
        && !name.contains([':', '('])
        && super::notes::kind_of(name) == crate::model::MarkKind::Other
        && !NOT_SPEAKERS.contains(&name.to_lowercase().as_str());
    (plain_mark && named).then(|| (name, inner[close + 1..].trim()))
}

/// Longest mark before the colon of a Tactiq line ([`marked_name`]), in characters: a few
/// emoji, each with its variation selector.
const MAX_MARK_CHARS: usize = 8;

/// A paragraph header whose time is no clock time (`[00:01:60] Bob: …`, `Bob (00:0:60):`,
/// `[00:00.07.]`: digits, a colon, two separators or more): the time as written, its column (1-based, in the trimmed line), and the
/// speaker and first words the header gives. Read as text, the line would fold another
/// speaker's words into the paragraph above.
///
/// ```text
/// [00:00:05] Ann: Hi there.     a header
/// [00:01:60] Bob: Fine.         seconds 60: no time, but a header's shape -> Bob, "Fine."
/// ```
fn mistimed_header(line: &str) -> Option<(String, usize, Option<String>, String)> {
    let l = line.trim();
    let shaped = |s: &str| {
        let s = s.trim();
        let seps = s.chars().filter(|c| matches!(c, ':' | '.' | ',' | ';')).count();
        !s.is_empty()
            && s.chars().all(|c| c.is_ascii_digit() || matches!(c, ':' | '.' | ',' | ';'))
            && s.chars().filter(char::is_ascii_digit).count() >= 3
            && s.contains(':')
            && seps >= 2
            && s.starts_with(|c: char| c.is_ascii_digit())
    };
    for (i, open) in l.char_indices().take(MAX_NAME_CHARS + 2) {
        let close = match open {
            '(' => ')',
            '[' => ']',
            _ => continue,
        };
        let Some(len) =
            l[i + 1..].char_indices().take(PAREN_WINDOW).find(|&(_, c)| c == close).map(|(j, _)| j)
        else {
            continue;
        };
        let inner = &l[i + 1..i + 1 + len];
        if !shaped(inner) || clock(inner.trim()).is_some() {
            continue;
        }
        let fixed = format!("{}0:00{}", &l[..i + 1], &l[i + 1 + len..]);
        let h = header(&fixed)?;
        let column = l[..i + 1].chars().count() + 1;
        return Some((inner.to_owned(), column, h.speaker.map(str::to_owned), h.text.to_owned()));
    }
    None
}

/// Which paragraph dialect a text looks like, from its first 64 KiB: Rev when a header has the
/// time in parentheses, Otter when a header is a name and a time, the generic dialect when the
/// headers are bracketed or bare times. `None` unless headers start the paragraphs.
pub(crate) fn sniff(head: &str) -> Option<Format> {
    let (mut rev, mut name_time, mut bracket, mut time_only, mut text) = (0, 0, 0, 0, 0usize);
    let mut first_header_at = None;
    // Inside a block opened by a time alone: whether its lines are `Name: text` turns.
    let mut block: Option<bool> = None;
    let table = table_rows(head);
    let head = table.as_deref().unwrap_or(head);
    let bold = emphasised_names(head);
    let head = bold.as_deref().unwrap_or(head);
    let lower = LowerLabels::of(head).names;
    for (k, line) in head.lines().take(400).enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let candidate = unmark(line);
        match header(&candidate).map(|h| h.shape) {
            Some(s) => {
                first_header_at.get_or_insert(k);
                block = (s == Shape::TimeOnly).then_some(true);
                match s {
                    Shape::Rev => rev += 1,
                    Shape::NameTime => name_time += 1,
                    Shape::Bracket | Shape::TimeName => bracket += 1,
                    Shape::TimeOnly => time_only += 1,
                }
            }
            None => {
                // A turn of a block whose first line names its speaker counts as a header.
                let turn = name_colon(&candidate).is_some_and(|(name, _)| capitalised(name))
                    || lower_label(&candidate).is_some_and(|(name, _)| lower.contains(name));
                match block {
                    Some(true) if turn => bracket += 1,
                    _ => {
                        block = None;
                        text += 1;
                    }
                }
            }
        }
    }
    let headers = rev + name_time + bracket + time_only;
    // Headers must start early and be a fair part of the lines (at least one in ten).
    if first_header_at? > 30 || headers * 10 < text || headers == 0 {
        return None;
    }
    if rev > 0 && rev >= name_time {
        Some(Format::Rev)
    } else if name_time > 0 {
        Some(Format::Otter)
    } else if bracket > 0 || time_only >= 2 {
        Some(Format::Paragraphs)
    } else {
        None
    }
}

/// Whether a line that is no header is markup around the transcript, not speech: a Markdown
/// heading (`## Part 2`), a rule (`---`, `***`), or a service's footer (`Transcribed by
/// https://otter.ai`; Google Meet's `Transcription ended after 00:30:30` and its note that the
/// transcript was computer generated; a publisher's copyright line).
fn is_markup(line: &str) -> bool {
    let t = line.trim();
    let heading = t.starts_with('#') && t.trim_start_matches('#').starts_with(' ');
    let footer = t.len() < 300 && {
        let l = t.to_lowercase();
        (l.starts_with("transcribed by") && l.contains("otter.ai") && t.len() < 80)
            || (l.starts_with("transcription ended after ") && t.len() < 60)
            || l.starts_with("this editable transcript was computer generated")
            // A publisher's line under the transcript (`Copyright © 2024 NPR. All rights
            // reserved.`).
            || ((l.starts_with("copyright") || l.starts_with('©')) && t.len() < 200)
    };
    heading
        || is_rule(t)
        || footer
        || transcription_event(t)
        || page_mark(t)
        || rush_notice(t)
        || service_credit(t)
}

/// Whether a line is a meeting service's note that someone started or stopped the
/// transcription (Microsoft Teams writes `Ana Ruiz started transcription` above the first
/// paragraph and `Ana Ruiz stopped transcription` under the last, and again where it was
/// restarted): a name ([`is_name`]) and the event, nothing else. Read as text, the note at the
/// end was words of the last speaker.
fn transcription_event(t: &str) -> bool {
    ["started transcription", "stopped transcription"].iter().any(|event| {
        t.len() < MAX_NAME_CHARS + 32
            && t.strip_suffix(event)
                .and_then(|name| name.strip_suffix(' '))
                .is_some_and(|name| is_name(name) && capitalised(name))
    })
}

/// Whether a line is a Markdown rule (`---`, `***`, `___`, spaces allowed between).
fn is_rule(line: &str) -> bool {
    let t = line.trim();
    ['-', '*', '_'].into_iter().any(|c| {
        t.chars().filter(|&x| x == c).count() >= 3 && t.chars().all(|x| x == c || x == ' ')
    })
}

/// Transcription services whose credit line a transcript carries ([`service_credit`]).
const SERVICES: &[&str] = &[
    "sonix",
    "otter.ai",
    "temi",
    "trint",
    "rev.com",
    "happy scribe",
    "happyscribe",
    "descript",
    "turboscribe",
];

/// Whether a line is a transcription service's credit, not speech: Sonix's footer of a free
/// account (`(Transcribed by Sonix.ai - Remove this message by upgrading your Sonix account
/// today!)`), the lines of its embedded player on a page (`The Mystery of Metador.mp4: [this
/// mp4 audio file](…) was [automatically transcribed by Sonix](…) with the [best
/// speech-to-text algorithms.](…) This transcript may contain errors.`, `Automatically
/// convert your audio to text with Sonix. …`), TurboScribe's line above a free account's
/// transcript (`(Transcribed by TurboScribe. Go Unlimited to remove this message.)`), and the
/// like of the other services. Read as
/// text, the footer was words of the last paragraph and the player's line a speaker
/// (`The Mystery of Metador.mp4`). At most [`MAX_NOTICE_BYTES`] bytes.
fn service_credit(t: &str) -> bool {
    if t.len() > MAX_NOTICE_BYTES {
        return false;
    }
    let l = t.to_lowercase();
    let named = SERVICES.iter().any(|s| l.contains(s));
    named
        && (l.contains("transcribed by ")
            || l.starts_with("automatically convert your audio to text with "))
}

/// `text` without a transcription service's credit in parentheses at its start
/// ([`service_credit`]): TurboScribe writes `(Transcribed by TurboScribe.ai. Go Unlimited to
/// remove this message.)` before the first words of a free account's transcript, on their
/// line. Read as words, the credit was the first speaker's.
fn without_credit(text: &str) -> &str {
    let close = text.strip_prefix('(').and_then(|inner| inner.find(')'));
    match close {
        Some(close) if service_credit(&text[..close + 2]) => text[close + 2..].trim_start(),
        _ => text,
    }
}

/// Whether a line is a broadcaster's notice about the transcript, not speech: the rush
/// transcript's warning (CNN's `THIS IS A RUSH TRANSCRIPT. THIS COPY MAY NOT BE IN ITS FINAL
/// FORM AND MAY BE UPDATED.` under the title, Fox News's `This is a rush transcript from
/// "Special Report," September 30, 2019. This copy may not…` above the first turn, MSNBC's
/// at the end) and the copyright paragraph below Fox News's and MSNBC's transcripts (`Content
/// and Programming Copyright 2019 Fox News Network, LLC. ALL RIGHTS RESERVED. …`, `Copy:
/// Content and programming copyright 2018 MSNBC. …`), which runs to several hundred
/// characters. Read as words, they were the last speaker's.
fn rush_notice(t: &str) -> bool {
    if t.len() > MAX_NOTICE_BYTES {
        return false;
    }
    let l = t.to_lowercase();
    let l = l.strip_prefix("copy:").map_or(l.as_str(), str::trim_start);
    l.starts_with("this is a rush transcript")
        || l.starts_with("this copy may not be in its final form")
        || (l.starts_with("content and programming copyright") && l.contains("rights reserved"))
}

/// Longest broadcaster's notice ([`rush_notice`]), in bytes.
const MAX_NOTICE_BYTES: usize = 1000;

/// The line (1-based) of a rush transcript's notice among the first [`FRONT_MATTER_LINES`]
/// lines with text: it ends the front matter (CNN prints the show and the story, `CNN GLOBAL
/// TOWN HALL: CORONAVIRUS FACTS AND FEARS. Aired 8-9p ET`, and the air date above it), so
/// the lines above it are no turns even with a colon in them — unless two lines or more above
/// it open with a `Name:` and words: the notice then closes a short transcript (MSNBC's).
///
/// ```text
/// CNN GLOBAL TOWN HALL: CORONAVIRUS FACTS AND FEARS. Aired 8-9p ET   front matter, skipped
/// Aired March 26, 2020 - 20:00   ET                                  front matter, skipped
/// THIS IS A RUSH TRANSCRIPT. THIS COPY MAY NOT BE IN ITS FINAL …     the notice, skipped
/// ERIN BURNETT, CNN HOST: Well we are rooting for you…               the first turn
/// ```
fn front_matter_end(text: &str) -> Option<usize> {
    let (n, _) = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .take(FRONT_MATTER_LINES)
        .find(|(_, l)| rush_notice(l.trim().trim_start_matches('\u{feff}')))?;
    // A notice below turns (MSNBC's, at the end of a short transcript) ends no front matter.
    let turns = text
        .lines()
        .take(n)
        .filter(|l| {
            untimed_colon_turn(l.trim(), false, &HashSet::new())
                .is_some_and(|(_, said)| !said.is_empty())
        })
        .count();
    (turns <= 1).then_some(n + 1)
}

/// How many lines with text [`front_matter_end`] looks for the notice in.
const FRONT_MATTER_LINES: usize = 10;

/// Whether a line marks a place in the printed record, not speech: Hansard's column number
/// (`Column 812`, `15 Mar 2023 : Column 812`, `Column 45WH` in Westminster Hall) and the
/// Government Publishing Office's stand-in for a page printed as an image (`[GRAPHIC] [TIFF
/// OMITTED] T4512.001`, `[GRAPHIC(S) NOT AVAILABLE IN TIFF FORMAT]`).
fn page_mark(t: &str) -> bool {
    let column = t.rsplit_once(" : ").map_or(t, |(_, c)| c);
    let column = column.strip_prefix("Column ").is_some_and(|n| {
        let digits = n.bytes().take_while(u8::is_ascii_digit).count();
        (1..=5).contains(&digits) && n[digits..].bytes().all(|b| b.is_ascii_uppercase())
    });
    column || (t.starts_with("[GRAPHIC") && t.len() < 120)
}

/// The marks (the transcriber's notes, [`notes`](super::notes)) of a paragraph's text;
/// `start` is the paragraph's (none in an untimed transcript).
fn marks_in(text: &str, speaker: &str, start: Option<Time>, out: &mut TranscriptBuilder) {
    for note in super::notes::notes(text) {
        out.mark(Mark {
            kind: note.kind,
            at: note.inner.split_whitespace().rev().find_map(clock),
            speaker: Some(speaker.to_owned()),
            paragraph_start: start,
            text: note.inner.to_owned(),
        });
    }
}

/// Words of a paragraph for the speaking-rate bound: tokens with a letter or digit, outside
/// the transcriber's notes.
fn word_count(text: &str) -> i64 {
    i64::try_from(super::notes::word_count(text)).unwrap_or(i64::MAX)
}

/// One paragraph being read.
struct Paragraph {
    line: usize,
    column: usize,
    speaker: String,
    start: Time,
    /// The end its header's time range gives (`[00:00 - 00:05]`): kept, not estimated.
    end: Option<Time>,
    text: String,
    /// No name on it or above it: the placeholder speaker.
    defaulted: bool,
}

/// The block a time on its own line opens.
struct Block {
    time: Time,
    /// Whether a line of the block has been read.
    seen: bool,
    /// Whether its first line was `Name: text`, so that every such line is a turn.
    turns: bool,
}

/// The paragraphs read so far, and what was set aside on the way.
struct Kept {
    done: Vec<Paragraph>,
    /// Kept paragraphs that start before the one kept above them.
    unsorted: OutOfOrder<'static>,
    /// Whether the first paragraph without a speaker has been warned about.
    missing_warned: bool,
    /// Headers with no text under them: the first one's line and how many.
    empty: Option<(usize, usize)>,
}

impl Kept {
    fn new() -> Kept {
        Kept {
            done: Vec::new(),
            unsorted: OutOfOrder::new(
                "paragraph",
                "each kept at its own time; every paragraph ends by the next start in time",
            ),
            missing_warned: false,
            empty: None,
        }
    }

    /// Keeps a finished paragraph; the first one without a speaker is warned about (here, so
    /// that a time line whose block turns out to name every turn is not).
    ///
    /// A header with no text under it is set aside: nothing says that anyone spoke then, or
    /// for how long (a chapter list `0:00 - Intro`, `1:23 - The Weather` has the shape of
    /// Fathom's headers, and a timestamp with its text removed has the shape of a turn).
    fn keep(&mut self, p: Paragraph, ctx: &mut ReadContext<'_>) -> Result<()> {
        if p.text.trim().is_empty() {
            self.empty.get_or_insert((p.line, 0)).1 += 1;
            return Ok(());
        }
        if p.defaulted && !self.missing_warned {
            self.missing_warned = true;
            ctx.warn_at(
                WarningKind::MissingSpeaker,
                p.line,
                Some(1),
                format!("paragraph without a speaker name; it and the paragraphs after it until a name get the speaker {UNKNOWN_SPEAKER:?}"),
            )?;
        }
        if self.done.last().is_some_and(|last| p.start < last.start) {
            self.unsorted.found(ctx, "", p.line, None)?;
        }
        self.done.push(p);
        Ok(())
    }
}

/// Most lines above a timed transcript's first header that are its head (a title, a date,
/// who attended, the service's name): more are text the headers left out, a repair.
const HEAD_LINES: usize = 6;

/// Reads a paragraph transcript (any dialect; see the module doc) as one recording.
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    // Names in emphasis after the times (`0:00:14.1 **Ana Ruiz** Welcome…`): `Name:` labels.
    // A transcript laid out as a Markdown table (`| 00:00:04 | Host | Welcome… |`): headers.
    let table = table_rows(text);
    let text = table.as_deref().unwrap_or(text);
    let bold = emphasised_names(text);
    let text = bold.as_deref().unwrap_or(text);
    // A court reporter's numbered lines: read without their numbers and page furniture.
    let numbered = numbered_lines(text);
    if let Some((_, Some((line, count)))) = numbered {
        ctx.warn_at(
            WarningKind::Skipped,
            line,
            Some(1),
            format!("{count} line(s) outside the transcript's numbered lines skipped (page numbers, running heads, the reporter's footer): not speech; the line numbers are taken off the others"),
        )?;
    }
    let text = numbered.as_ref().map_or(text, |(t, _)| t.as_str());
    // Labels on lines of their own (Hansard's web pages): read as `Name:` labels.
    let stacked = stacked_labels(text);
    let text = stacked.as_deref().unwrap_or(text);
    // `Name:` labels in emphasis or alone on their line (web pages): read as `Name: text`.
    let colons = colon_labels(text);
    let text = colons.as_deref().unwrap_or(text);
    // Lower-case labels alone on their line (`interviewer`, the words below): `name: words`.
    let alone = lower_alone_labels(text);
    let text = alone.as_deref().unwrap_or(text);
    // `Name:` on the line above a time alone (podcast HTML transcripts as text): a header.
    let cited = cited_names(text);
    let text = cited.as_deref().unwrap_or(text);
    // A time alone, the name alone on the line below, then the words: `time name` headers.
    let below = names_below_times(text);
    let text = below.as_deref().unwrap_or(text);
    // The transcript's fields above its turns (`Interviewer: Jane Smith`): no turns.
    let fields = field_block(text);
    if let Some((_, line, keys)) = &fields {
        let shown: Vec<String> = keys.iter().take(4).map(|k| format!("`{k}:`")).collect();
        let more = if keys.len() > shown.len() { ", …" } else { "" };
        ctx.warn_at(
            WarningKind::Note,
            *line,
            Some(1),
            format!("{} line(s) at the top are the transcript's fields ({}{more}), not speakers' turns: set aside (the turns below come back to their speakers; a field's key comes once, or names a speaker)", keys.len(), shown.join(", ")),
        )?;
    }
    let text = fields.as_ref().map_or(text, |(t, _, _)| t.as_str());
    if let Some((line, count)) = schedule(text) {
        return Err(ctx.error(
            line,
            1,
            format!("no speaker turns found: the {count} lines with a time range are a schedule, not a transcript (each a range of hours and minutes, then an item's title; no label comes back as a speaker's does, and the ranges follow one another)"),
        ));
    }
    if let Some(late) = late_times(text) {
        return read_untimed(text, Some(late), ctx);
    }
    let names_after = names_after_times(text);
    let mut named_after = 0usize;
    // Lower-case labels of the turns under a time alone (`danah: text`), by the whole text.
    let lower = LowerLabels::of(text);
    let mut lower_turns = false;
    // A record's labels timed by the clock of the day (`Mr DUTTON (Dickson) (14:02):`).
    let day = times_of_day(text);
    let mut speakers = header_speakers(text);
    if let Some(d) = &day {
        speakers.extend(d.names.iter().cloned());
    }
    // Turns by a speaker of the headers without a time of their own: the first and how many.
    let mut untimed_named: Option<(usize, usize)> = None;
    let mut b = TranscriptBuilder::new();
    let mut current: Option<Paragraph> = None;
    let mut kept = Kept::new();
    let mut last_speaker: Option<String> = None;
    let mut skipped: Option<(usize, usize)> = None;
    // Whether the lines skipped above the first header read as a document's head ([`HEAD_LINES`]).
    let mut head = true;
    let mut markup: Option<(usize, usize)> = None;
    // The line of the paragraph a Markdown rule closed (the lines under it are a footer).
    let mut closed: Option<usize> = None;
    let mut any_text = false;
    // A time on its own line (Google Meet, YouTube): the block it opens, and whether its lines
    // are `Name: text` turns (decided by its first line).
    let mut block: Option<Block> = None;
    for item in ctx.lines(text) {
        let (n, raw) = item?;
        let raw = if n == 1 { raw.trim_start_matches('\u{feff}') } else { raw };
        // Transcripts copied from web pages keep the page's character references
        // (`we&#39;re`): they are the characters they stand for.
        let decoded;
        let raw = if raw.contains('&') {
            decoded = decode_entities(raw);
            decoded.as_str()
        } else {
            raw
        };
        if raw.trim().is_empty() {
            continue;
        }
        any_text = true;
        let candidate = unmark(raw);
        let dated = day.as_ref().and_then(|d| d.labels.get(&n)).map(|(speaker, time)| Header {
            shape: Shape::Rev,
            speaker: Some(speaker.as_str()),
            time: *time,
            end: None,
            text: day_label(raw).or_else(|| day_label(&candidate)).map_or("", |l| l.3),
        });
        let Some(h) = dated.or_else(|| header(&candidate)) else {
            // A header whose time is no time: kept as the header it is, after the paragraph
            // above (placed by its words, start and end estimated).
            let above = current.as_ref().or(kept.done.last()).map(|p| p.start);
            if let (Some(start), Some((shown, column, speaker, said))) =
                (above, mistimed_header(&candidate))
            {
                let indent = raw.find(|c: char| !c.is_whitespace()).unwrap_or(0);
                let indent = raw[..indent].chars().count();
                ctx.warn_at(
                    WarningKind::Repaired,
                    n,
                    Some(indent + column),
                    format!("{shown:?} has a header's place but is no time (H:MM:SS or M:SS, minutes and seconds below 60); the paragraph is kept and placed after the one above, by its words (start and end estimated)"),
                )?;
                let speaker = speaker.or_else(|| last_speaker.clone());
                let (speaker, defaulted) = match speaker {
                    Some(s) => (s, false),
                    None => (UNKNOWN_SPEAKER.to_owned(), true),
                };
                if let Some(p) = current.take() {
                    kept.keep(p, ctx)?;
                }
                block = None;
                last_speaker = Some(speaker.clone());
                current = Some(Paragraph {
                    line: n,
                    column: indent + 1,
                    speaker,
                    start,
                    end: None,
                    text: said,
                    defaulted,
                });
                continue;
            }
            if is_markup(raw) {
                markup.get_or_insert((n, 0)).1 += 1;
                // A rule closes the paragraph above it: the lines under the rule up to the
                // next header are a page's footer, not its words.
                if is_rule(raw) {
                    closed = current.as_ref().map(|p| p.line);
                }
                continue;
            }
            // In a block whose first line is `Name: text`, every such line is a turn of its
            // own from the block's time (they are laid out by their words when placed).
            if let Some(bl) = block.as_mut() {
                let turn = name_colon(&candidate)
                    .filter(|(name, _)| capitalised(name))
                    .or_else(|| lower_label(&candidate).filter(|(n, _)| lower.names.contains(*n)));
                lower_turns |= turn.is_some_and(|(name, _)| lower.names.contains(name));
                let first = !bl.seen;
                bl.seen = true;
                bl.turns |= first && turn.is_some();
                if let (true, Some((name, said))) = (bl.turns, turn) {
                    let column = raw.find(|c: char| !c.is_whitespace()).unwrap_or(0) + 1;
                    let next = Paragraph {
                        line: n,
                        column,
                        speaker: name.to_owned(),
                        start: bl.time,
                        end: None,
                        text: said.to_owned(),
                        defaulted: false,
                    };
                    // The time line's own paragraph, still empty, gives way to the turns.
                    if let Some(p) = current.take().filter(|p| !(first && p.text.is_empty())) {
                        kept.keep(p, ctx)?;
                    }
                    last_speaker = Some(next.speaker.clone());
                    current = Some(next);
                    continue;
                }
            }
            // `Name: text` by a speaker the headers name, without a time (a page that times
            // the guest's answers but not the host's questions): a paragraph of its own after
            // the one above, placed by its words.
            let named = name_colon(&candidate).filter(|(name, _)| speakers.contains(*name));
            if let (Some((name, said)), Some(above)) = (named, current.as_ref()) {
                let column = raw.find(|c: char| !c.is_whitespace()).unwrap_or(0) + 1;
                let next = Paragraph {
                    line: n,
                    column,
                    speaker: name.to_owned(),
                    start: above.start,
                    end: None,
                    text: said.to_owned(),
                    defaulted: false,
                };
                untimed_named.get_or_insert((n, 0)).1 += 1;
                if let Some(p) = current.take() {
                    kept.keep(p, ctx)?;
                }
                last_speaker = Some(next.speaker.clone());
                current = Some(next);
                continue;
            }
            match current.as_mut() {
                Some(p) if closed == Some(p.line) => {
                    markup.get_or_insert((n, 0)).1 += 1;
                }
                Some(p) => {
                    let (first, later) = inline_times(raw.trim(), p.start);
                    if !p.text.is_empty() && !first.is_empty() {
                        p.text.push('\n');
                    }
                    p.text.push_str(first);
                    split_at_times(&mut current, &later, &mut kept, n, ctx)?;
                }
                None => {
                    let s = skipped.get_or_insert((n, 0));
                    s.1 += 1;
                    // Words a speaker could have said (a sentence, a turn by a speaker the
                    // headers name) make the lines above the first header more than a head.
                    let said = sentence_line(&candidate)
                        || name_colon(&candidate).is_some_and(|(name, _)| speakers.contains(name));
                    head &= !said && s.1 <= HEAD_LINES;
                }
            }
            continue;
        };
        // `00:00:03 Speaker 1` with the words below (Word's transcription): the name.
        let h = match h {
            Header { speaker: None, text, .. } if names_after && bare_name(text) => {
                named_after += 1;
                Header { speaker: Some(text), text: "", ..h }
            }
            h => h,
        };
        block = (h.speaker.is_none() && h.text.is_empty()).then_some(Block {
            time: h.time,
            seen: false,
            turns: false,
        });
        let (speaker, defaulted) = match (h.speaker, &last_speaker) {
            (Some(s), _) => (s.to_owned(), false),
            (None, Some(s)) => (s.clone(), false),
            (None, None) => (UNKNOWN_SPEAKER.to_owned(), true),
        };
        let column = raw.find(|c: char| !c.is_whitespace()).unwrap_or(0) + 1;
        let next = Paragraph {
            line: n,
            column,
            speaker,
            start: h.time,
            end: h.end.filter(|&e| e > h.time),
            text: String::new(),
            defaulted,
        };
        if let Some(p) = current.take() {
            kept.keep(p, ctx)?;
        }
        last_speaker = Some(next.speaker.clone());
        current = Some(next);
        // A service's credit before the first words (TurboScribe's): markup, not words.
        let said = without_credit(h.text);
        if said.len() < h.text.len() {
            markup.get_or_insert((n, 0)).1 += 1;
        }
        // Times inside the words (`[00:00.00] Some text. [00:15.00] More.`): paragraphs.
        let (first, later) = inline_times(said, h.time);
        if let Some(p) = current.as_mut() {
            p.text.push_str(first);
        }
        split_at_times(&mut current, &later, &mut kept, n, ctx)?;
    }
    // No header at all, and speakers' turns by name: an untimed transcript, read on its own
    // (nothing of the reading above applies to it).
    if current.is_none()
        && kept.done.is_empty()
        && kept.empty.is_none()
        && any_text
        && (untimed_turns(text).is_some() || two_turn_exchange(text))
    {
        return read_untimed(text, None, ctx);
    }
    // The lines above the first header are the document's own head (a title, a date), which
    // a well-formed transcript has, when they are few and none reads as speech: a note, as
    // an untimed transcript's head is ([`read_untimed`]), so that `--strict` reads the file.
    // Words above the first header (a cold open, a turn with no time) are a repair.
    if let Some((line, count)) = skipped {
        if head {
            ctx.warn_at(
                WarningKind::Note,
                line,
                Some(1),
                format!("{count} line(s) above the first timestamped paragraph skipped (a title, a date): not speech"),
            )?;
        } else {
            ctx.warn_at(
                WarningKind::Skipped,
                line,
                Some(1),
                format!("{count} line(s) of text before the first timestamped paragraph skipped"),
            )?;
        }
    }
    if let Some((line, count)) = untimed_named {
        ctx.warn_at(
            WarningKind::MissingTime,
            line,
            Some(1),
            format!("{count} turn(s) by a speaker the headers name have no time of their own, the first here: each is a paragraph of its own after the one above, placed by its words (start and end estimated)"),
        )?;
    }
    if let Some((line, count)) = markup {
        ctx.warn_at(
            WarningKind::Skipped,
            line,
            Some(1),
            format!("{count} line(s) of markup (headings, rules, a footer under a rule) or a transcription service's footer skipped: not speech"),
        )?;
    }
    if lower_turns {
        lower.warn(ctx)?;
    }
    if let Some((line, first)) = day.as_ref().and_then(|d| d.first.as_ref()) {
        ctx.warn_at(
            WarningKind::Note,
            *line,
            Some(1),
            format!("{} label(s) give the clock time of day in parentheses (`Name (Seat) (14:02):`, as the Australian Hansard times the first turn of a speech): read as hours and minutes from the first, {first} at 0:00, and the speaker named without the parts in parentheses", day.as_ref().map_or(0, |d| d.labels.len())),
        )?;
    }
    if named_after > 0 {
        ctx.warn(Warning::new(
            WarningKind::Note,
            format!("{named_after} header(s) of a time and a name alone, the words on the lines below (`00:00:03 Speaker 1`, as Microsoft Word's transcription writes them, or `[00:00:03] Speaker 1`): the name read as the speaker's, as the file's headers are all so"),
        ))?;
    }
    if let Some(p) = current {
        kept.keep(p, ctx)?;
    }
    kept.unsorted.finish(ctx, 1);
    if let Some((line, count)) = kept.empty {
        ctx.warn_at(
            WarningKind::Skipped,
            line,
            Some(1),
            format!("{count} header(s) with no text under them skipped (a chapter list, or a turn whose words were removed): nothing says who spoke then, or for how long"),
        )?;
    }
    if !kept.done.is_empty() {
        place(kept.done, &mut b, ctx)?;
    } else if let Some((line, _)) = kept.empty {
        return Err(ctx.error(
            line,
            1,
            "no paragraph has text under its header (a list of times and titles, such as a video's chapters, is no transcript)",
        ));
    } else if any_text {
        let agenda = agenda_items(text);
        return Err(ctx.error(
            agenda.as_ref().map_or(skipped.map_or(1, |s| s.0), |a| a.0),
            1,
            match (&agenda, section_headings(text)) {
                (Some((_, count, labels)), _) => {
                    format!("no speaker turns found: {}", agenda_reason(*count, labels))
                }
                (None, Some(names)) => format!("no speaker turns found: no paragraph with a start time, and the repeated headings ({}) read as sections, not speakers (lists, tables or code under them, or headings that name sections, such as `Introduction` or `Method`, over words not spoken)", names.join(", ")),
                (None, None) => "no speaker turns found: no paragraph with a start time (expected a header such as `Name (00:01:02):`, `Name: (01:02)`, `Speaker 1  0:04`, `[00:01:02] Name: text` or a time on its own line; or speakers' labels without times, `Name: text`, by two names or more, one of them twice)".to_owned(),
            },
        ));
    } else {
        ctx.warn(Warning::new(WarningKind::Note, "no paragraphs in the input"))?;
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

/// A record's label with the clock time of day in parentheses before its colon, as the
/// Australian Hansard labels the first turn of a speech: `The SPEAKER (14:01):`, `Mr DUTTON
/// (Dickson—Leader of the Opposition) (14:02):`. The name (a label's name or a presiding
/// officer's, [`label_name`], [`chair_label`]), its parts in parentheses (`""` for none), the
/// time of day in minutes (`H:MM` or `HH:MM`, hours below 24) and the words after the colon.
fn day_label(line: &str) -> Option<(&str, &str, i64, &str)> {
    let l = line.trim();
    for (i, _) in l.char_indices().filter(|&(_, c)| c == '(').take_while(|&(i, _)| i < 400) {
        let inner = &l[i + 1..];
        let Some(close) = inner.char_indices().take(8).find(|&(_, c)| c == ')').map(|(j, _)| j)
        else {
            continue;
        };
        let Some((h, m)) = inner[..close].trim().split_once(':') else { continue };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !(digits(h) && h.len() <= 2 && digits(m) && m.len() == 2) {
            continue;
        }
        let (h, m): (i64, i64) = (h.parse().ok()?, m.parse().ok()?);
        let Some(text) = inner[close + 1..].trim_start().strip_prefix(':') else { continue };
        if h >= 24 || m >= 60 {
            return None;
        }
        let before = l[..i].trim_end();
        let (name, parts) = match before.find('(') {
            Some(open) => (before[..open].trim(), before[open..].trim()),
            None => (before, ""),
        };
        let named = label_name(name) || chair_label(name);
        return (named && (parts.is_empty() || label_parts(parts))).then_some((
            name,
            parts,
            h * 60 + m,
            text.trim(),
        ));
    }
    None
}

/// The speakers' labels of a record that times the first turn of each speech by the clock of
/// the day, read as such ([`times_of_day`]): per line (1-based), the speaker and the start.
#[derive(Debug, Default)]
struct DayClock {
    labels: HashMap<usize, (String, Time)>,
    /// The speakers the labels name, for the turns without a time ([`header_speakers`]).
    names: HashSet<String>,
    /// The first label's line and its time as written.
    first: Option<(usize, String)>,
}

/// Where the times of `text`'s labels are clock times of day, as the Australian Hansard
/// writes them (`Mr DUTTON (Dickson—Leader of the Opposition) (14:02):`): every line that is
/// a header with its time in parentheses ([`Shape::Rev`]) is a [`day_label`], one of them
/// at least has a part in parentheses before the time (a seat, an office), and most of them
/// are written as Hansard writes them ([`hansard_label`]: `Mr DUTTON`, `The SPEAKER`, a
/// seat and an office). Read as `M:SS`, `(14:02)` was 14 min 2 s into a recording and the
/// seat a part of the name; a Rev file's `Jane Doe (Host) (00:05):` keeps that reading.
///
/// Each label's start is its time of day less the first label's (`14:01` is 0:00, `14:02`
/// is 1:00); a time more than twelve hours before the one above is on the next day (a sitting
/// past midnight), and a time before the first is at 0:00. The speaker is the name without
/// its parts, unless the name comes with two seats (`Mr SMITH (Hove)`, `Mr SMITH (Bath)`):
/// then the whole label, as two members.
///
/// ```text
/// The SPEAKER (14:01): Order!                               -> The SPEAKER, 0:00
/// Mr DUTTON (Dickson—Leader of the Opposition) (14:02): My…  -> Mr DUTTON, 1:00
/// ```
fn times_of_day(text: &str) -> Option<DayClock> {
    let (mut rev, mut parted) = (0usize, 0usize);
    let mut found: Vec<(usize, &str, &str, i64)> = Vec::new();
    for (k, (line, _)) in split_lines(text).enumerate() {
        // No parenthesis or bracket: no header with a time in them (a quick test first).
        if !(line.contains('(') || line.contains('[')) {
            continue;
        }
        let candidate = unmark(line);
        let rev_header =
            header(&candidate).is_some_and(|h| h.shape == Shape::Rev && h.speaker.is_some());
        let day = day_label(line.trim_start_matches('\u{feff}'));
        if k < LATE_TIMES_LINES {
            rev += usize::from(rev_header || day.is_some());
            if rev_header && day.is_none() {
                return None;
            }
        }
        if let Some((name, parts, minutes, _)) = day {
            parted += usize::from(!parts.is_empty() && !role_part(parts));
            found.push((k + 1, name, parts, minutes));
        }
    }
    let hansard = found.iter().filter(|f| hansard_label(f.1, f.2)).count();
    if rev == 0 || parted == 0 || hansard * 2 <= found.len() {
        return None;
    }
    let mut seats: HashMap<&str, HashSet<&str>> = HashMap::new();
    for &(_, name, parts, _) in &found {
        if !parts.is_empty() {
            seats.entry(name).or_default().insert(constituency(parts));
        }
    }
    let mut clock = DayClock::default();
    let (mut days, mut previous) = (0i64, None::<i64>);
    let first = found.first().map_or(0, |f| f.3);
    for &(line, name, parts, minutes) in &found {
        if previous.is_some_and(|p| minutes + 12 * 60 < p) {
            days += 1;
        }
        previous = Some(minutes);
        let at = (days * 24 * 60 + minutes - first).max(0);
        let speaker = match seats.get(name) {
            Some(s) if s.len() > 1 => format!("{name} {parts}"),
            _ => name.to_owned(),
        };
        clock.names.insert(speaker.clone());
        let time = Time::from_micros(at * 60 * MICROS_PER_SECOND);
        clock.labels.insert(line, (speaker, time));
        clock.first.get_or_insert((line, format!("{:02}:{:02}", minutes / 60, minutes % 60)));
    }
    Some(clock)
}

/// Titles before a name in capitals in the Australian Hansard's labels ([`hansard_label`]).
const HANSARD_TITLES: &[&str] =
    &["Mr", "Mrs", "Ms", "Miss", "Dr", "Senator", "Hon", "The", "Sir", "Dame"];

/// Whether a label of the time of day ([`day_label`]) is written as the Australian Hansard
/// writes one: a title, then a word of two letters or more in capitals (`Mr DUTTON`, `Senator
/// WONG`, `The DEPUTY SPEAKER`), or a seat and an office joined by an em dash
/// (`(Dickson—Leader of the Opposition)`). `Jane Doe (Host)`, `JANE DOE (Host)` and `Mr SMITH
/// (Host)` (a role in the parentheses, [`role_part`]) are not.
fn hansard_label(name: &str, parts: &str) -> bool {
    let mut words = name.split_whitespace();
    let titled = words.next().is_some_and(|w| HANSARD_TITLES.contains(&w.trim_end_matches('.')));
    let capitals = |w: &str| {
        let letters = w.chars().filter(|c| c.is_alphabetic());
        letters.clone().count() >= 2 && letters.clone().all(char::is_uppercase)
    };
    (titled && words.any(capitals) && !role_part(parts)) || parts.contains('—')
}

/// Whether the parenthesised part of a label names a speaker's role (`(Host)`, `(Guest)`,
/// [`speaker_role`]), as a Rev transcript writes one, not a seat or an office.
fn role_part(parts: &str) -> bool {
    let inner = parts.trim().trim_start_matches('(').trim_end_matches(')').trim();
    !inner.is_empty() && speaker_role(inner)
}

/// A paragraph's line split at the times in brackets inside it, as InqScribe writes a
/// transcript (`[00:00.00] Here is some text. [00:15.00] Something happened.`, a time where
/// each record starts, and a time with no words after it where one ends) and as pages of
/// computer-generated text time every few words: the words before the first such time, then
/// each time and the words after it. A time is a clock alone in brackets ([`enclosed_time`])
/// after whitespace; a note with a time (`[crosstalk 00:13:22]`) is none. Read as words, the
/// times were text and the paragraph one record from its first time to its last words.
///
/// The times split the line only when the first is at or after `start`, the start of the
/// paragraph the line is in, and each is after the one before: otherwise they are times the
/// words cite (`Ana (20:00): As the clip shows [05:10] he never said that.`) and kept as words.
///
/// ```text
/// Here is some text. [00:15.00] Something happened. [01:00.00]
/// -> "Here is some text.", [(0:15, "Something happened."), (1:00, "")]
/// ```
fn inline_times(text: &str, start: Time) -> (&str, Vec<(Time, &str)>) {
    // Each time: where its bracket opens, where the words after it start, the time.
    let mut cuts: Vec<(usize, usize, Time)> = Vec::new();
    for (i, _) in text.match_indices('[') {
        if i == 0 || !text[..i].ends_with(char::is_whitespace) {
            continue;
        }
        if let Some((time, rest)) = enclosed_time(&text[i..]) {
            cuts.push((i, text.len() - rest.len(), time));
        }
    }
    let Some(&(at, _, _)) = cuts.first() else { return (text, Vec::new()) };
    let mut previous = None;
    let rising = cuts.iter().all(|&(_, _, time)| {
        let after = previous.map_or(time >= start, |p| time > p);
        previous = Some(time);
        after
    });
    if !rising {
        return (text, Vec::new());
    }
    let later = cuts
        .iter()
        .enumerate()
        .map(|(k, &(_, after, time))| {
            let until = cuts.get(k + 1).map_or(text.len(), |c| c.0);
            (time, text[after..until].trim())
        })
        .collect();
    (text[..at].trim_end(), later)
}

/// Goes on from the paragraph being read with the times inside one of its lines
/// ([`inline_times`]): each time with words after it starts a paragraph of the same speaker
/// at that time, the one above kept; a time with no words after it, last on its line, ends
/// the paragraph being read (InqScribe's explicit end), when it is after its start.
fn split_at_times(
    current: &mut Option<Paragraph>,
    later: &[(Time, &str)],
    kept: &mut Kept,
    line: usize,
    ctx: &mut ReadContext<'_>,
) -> Result<()> {
    for (k, &(time, words)) in later.iter().enumerate() {
        let Some(p) = current.as_mut() else { break };
        if words.is_empty() {
            if k + 1 == later.len() && time > p.start {
                p.end = Some(time);
            }
            continue;
        }
        let next = Paragraph {
            line,
            column: 1,
            speaker: p.speaker.clone(),
            start: time,
            end: None,
            text: words.to_owned(),
            defaulted: p.defaulted,
        };
        if let Some(done) = current.take() {
            kept.keep(done, ctx)?;
        }
        *current = Some(next);
    }
    Ok(())
}

/// Whether the text after a time on a header line can be a speaker's name alone: a
/// capitalised name of up to four words, no colon, no sentence's end (`Speaker 1`, `Ana
/// Ruiz`).
fn bare_name(s: &str) -> bool {
    let s = s.trim();
    is_name(s)
        && capitalised(s)
        && s.split_whitespace().count() <= 4
        && !s.contains([':', '(', ')'])
        && !s.ends_with(['.', '…', '-', '—'])
        && s.starts_with(char::is_alphabetic)
}

/// `text` with each time alone whose next line is a speaker's name alone, the words below it
/// (`00:00:03`, `Speaker 1`, `Hello there.`, as some services' text exports lay a turn out),
/// written as one header of the time and the name (`00:00:03 Speaker 1`), the name's line left
/// empty so that every line keeps its number; read then as Word's transcription is
/// ([`names_after_times`]). `None` unless the file's turns are so: in the first
/// [`LATE_TIMES_LINES`] lines, at least two times alone with a name ([`bare_name`]) and words
/// below, two in three of the times alone so, and a name that comes twice. A time alone above
/// a line of words (`00:00:03`, `Okay then`) is kept as it was.
///
/// ```text
/// 00:00:03                  ->  00:00:03 Speaker 1
/// Speaker 1                 ->  (empty)
/// Hello there.              ->  Hello there.
/// ```
fn names_below_times(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let time_alone = |l: &str| {
        header(&unmark(l)).is_some_and(|h| h.speaker.is_none() && h.text.trim().is_empty())
    };
    let next_line = |from: usize| (from..lines.len()).find(|&j| !lines[j].trim().is_empty());
    let (mut total, mut pairs) = (0usize, Vec::new());
    let mut names: HashMap<&str, usize> = HashMap::new();
    for k in 0..lines.len().min(LATE_TIMES_LINES) {
        if !time_alone(lines[k]) {
            continue;
        }
        total += 1;
        let Some(j) = next_line(k + 1) else { continue };
        let name = lines[j].trim();
        let words = next_line(j + 1).is_some_and(|w| header(&unmark(lines[w])).is_none());
        if header(&unmark(lines[j])).is_none() && bare_name(name) && words {
            pairs.push((k, j));
            *names.entry(name).or_default() += 1;
        }
    }
    let named = pairs.len();
    if named < 2 || 3 * named < 2 * total || !names.values().any(|&n| n >= 2) {
        return None;
    }
    let mut out: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
    for (k, j) in pairs {
        let cr = if lines[j].ends_with('\r') { "\r" } else { "" };
        let time = lines[k].trim_end();
        out[k] = format!("{time} {}{cr}", lines[j].trim());
        out[j] = cr.to_owned();
    }
    Some(out.join("\n"))
}

/// Whether the headers of `text` are a time and a speaker's name alone, the words on the
/// lines below, as Microsoft Word's transcription writes them (`00:00:03 Speaker 1`, then the
/// words): in the first [`LATE_TIMES_LINES`] lines, at least two headers whose text is a
/// name alone ([`bare_name`]) with words below, two in three of the headers with text and no
/// name, and a name that comes twice. Line by line, `00:00:03 Okay` is a header whose words
/// are `Okay`; only the file's headers together say it names the speaker.
///
/// ```text
/// 00:00:03 Speaker 1        a name alone: speaker `Speaker 1`
/// Good morning, everyone.   the words
/// 00:00:09 Speaker 2        a name alone: speaker `Speaker 2`
/// ```
fn names_after_times(text: &str) -> bool {
    let lines: Vec<&str> =
        text.lines().take(LATE_TIMES_LINES).filter(|l| !l.trim().is_empty()).collect();
    let (mut total, mut named) = (0usize, 0usize);
    let mut names: HashMap<String, usize> = HashMap::new();
    for (k, line) in lines.iter().enumerate() {
        let candidate = unmark(line);
        let Some(h) = header(&candidate) else { continue };
        if h.speaker.is_some() || h.text.is_empty() {
            continue;
        }
        total += 1;
        let below = lines.get(k + 1).is_some_and(|l| header(&unmark(l)).is_none());
        if below && bare_name(h.text) {
            named += 1;
            *names.entry(h.text.trim().to_owned()).or_default() += 1;
        }
    }
    named >= 2 && 3 * named >= 2 * total && names.values().any(|&k| k >= 2)
}

/// The speakers that the headers of `text` name (`[00:45] Ana Ruiz: …`, `Bo Lind (01:02):`), in
/// its first [`LATE_TIMES_LINES`] lines: a `Name: text` line without a time by one of them is
/// a turn of its own, not words of the paragraph above ([`read`]).
///
/// ```text
/// [00:45] Akhilesh Gupta: Thank you, Charles.    header: Akhilesh Gupta
/// Charles Humble: Why not Kafka?                 no time, but a header names him elsewhere
/// [13:30] Akhilesh Gupta: There are reasons.     -> three paragraphs, the second placed by words
/// [01:02] Charles Humble: Can you tell us…       header: Charles Humble
/// ```
fn header_speakers(text: &str) -> HashSet<String> {
    text.lines()
        .take(LATE_TIMES_LINES)
        .filter_map(|l| header(&unmark(l)).and_then(|h| h.speaker).map(str::to_owned))
        .collect()
}

/// Where the times of `text` are too few to place its turns: the speakers' turns on lines
/// without a time make an untimed transcript by themselves ([`untimed_turns`]), and there are
/// no more lines with a time than such turns — a rush transcript with a stray time stamp
/// (`[21:04:37]` where a tape was changed) or the time it ended at the bottom, or a record
/// that times only some turns (the Australian Hansard's `Mr ALBANESE (Grayndler) (14:43):` at
/// a member's first turn, a clock time of day, then `The SPEAKER:` and `Mr ALBANESE:`
/// without one). Read by the times, the turns without one would be folded into the paragraph
/// above them, or skipped above the first time. The first time line's number (1-based) and
/// the number of turns without a time; the lines are counted in the first
/// [`LATE_TIMES_LINES`] lines.
///
/// ```text
/// MODERATOR: Good evening.        turn without a time  \
/// SMITH: Thank you.               turn without a time   } 3 turns, a name twice: untimed
/// MODERATOR: Senator?             turn without a time  /
/// [21:04:37]                      the only time line: 1 <= 3 -> read without times
/// SMITH: Yes.
/// ```
///
/// A podcast whose cold open has no times, above two hundred timed paragraphs, is read by its
/// times (the open is skipped with a warning). Under a time on its own line (Google Meet),
/// `Name: text` lines are the turns of that time's block: only the turns above the first time
/// count then.
fn late_times(text: &str) -> Option<(usize, usize)> {
    let mut first = None;
    let (mut times, mut blocks) = (0usize, false);
    // The text above the first time, and the lines without a time.
    let (mut above, mut untimed) = (0usize, String::new());
    for (n, l) in text.split_inclusive('\n').enumerate().take(LATE_TIMES_LINES) {
        match header(&unmark(l)) {
            Some(h) => {
                first.get_or_insert(n + 1);
                times += 1;
                blocks |= h.shape == Shape::TimeOnly;
            }
            None => {
                if first.is_none() {
                    above += l.len();
                }
                untimed.push_str(l);
            }
        }
    }
    let line = first?;
    let pool = if blocks { &text[..above] } else { untimed.as_str() };
    untimed_turns(pool)?;
    let labels = Labels::of(pool);
    let turns = pool
        .lines()
        .filter(|l| untimed_turn_start(l.trim(), &labels).is_some_and(|(_, s)| !s.is_empty()))
        .count();
    (times <= turns).then_some((line, turns))
}

/// How many lines [`late_times`] counts times and turns in.
const LATE_TIMES_LINES: usize = 2000;

/// Speakers' turns with no times at all ([`untimed_turns`]: a debate's rush transcript, a
/// hearing), read as an untimed transcript: each line that opens with a speaker's `Name:` starts
/// a turn, the lines under it continue it, and the text above the first turn (a title, a date)
/// is skipped with a warning — and so is all above a rush transcript's notice near the top,
/// a title with a colon included ([`front_matter_end`]); the broadcasters' notices and
/// copyright paragraphs are no words ([`rush_notice`]). When two turns in three or more are named in capitals (`COOPER:`, the
/// broadcasters' style), only names in capitals open a turn, so that `Look: here is the
/// thing` inside a turn stays text. The transcriber's notes (`(CROSSTALK)`, `[crosstalk]`)
/// are kept as marks. One note says what cannot be measured.
///
/// ```text
/// CNN DEBATE, TRANSCRIPT          skipped (above the first turn)
/// COOPER: Welcome to the debate.  turn 1 COOPER
/// CHAFEE: Thank you. I want --    turn 2 CHAFEE
/// (CROSSTALK)                     turn 2 continues; a crosstalk mark
/// COOPER: Governor --             turn 3 COOPER
/// ```
///
/// `late` is set when the text has lines with a time too few to place its turns
/// ([`late_times`]): the first one's line and the turns without a time. Those lines are read for their
/// speaker and words, and their times are set aside with a warning.
fn read_untimed(
    text: &str,
    late: Option<(usize, usize)>,
    ctx: &mut ReadContext<'_>,
) -> Result<Corpus> {
    // Which names open turns: those in capitals only, when most turns are named so; and the
    // names that open a turn with words on its line (a `Name:` line without words opens a
    // turn only under such a name: `FULL TRANSCRIPT:` above the debate does not).
    let mut labels = Labels::of(text);
    let (mut turns, mut upper) = (0usize, 0usize);
    for line in text.lines().filter(|l| !is_markup(l)) {
        if let Some((name, said)) = untimed_turn_start(line.trim(), &labels) {
            if !said.is_empty() {
                turns += 1;
                upper += usize::from(in_capitals(name));
            }
        }
    }
    labels.capitals_only = upper * 3 >= turns * 2;
    LowerLabels::of(text).warn(ctx)?;
    // A `Name:` line without words opens a turn under a name that speaks elsewhere, that is
    // introduced so (`RACHEL MARTIN, BYLINE:` alone on its line, then `MARTIN:`, as NPR's
    // transcripts read), or that labels two lines or more.
    let mut speaking: HashSet<&str> = HashSet::new();
    let mut labelled: HashMap<&str, usize> = HashMap::new();
    for line in text.lines() {
        if let Some((name, said)) = untimed_turn_start(line.trim(), &labels) {
            *labelled.entry(name).or_default() += 1;
            if !said.is_empty() {
                speaking.insert(name);
            }
        }
    }
    let introduced = introduced_names(&labelled.keys().copied().collect());
    let opens: HashSet<&str> = labelled
        .iter()
        .filter(|&(name, &count)| {
            speaking.contains(name)
                || introduced.get(name).is_some_and(|short| speaking.contains(short))
                || count >= 2
        })
        .map(|(name, _)| *name)
        .collect();
    let mut read: Vec<(usize, String, String)> = Vec::new();
    let mut skipped: Option<(usize, usize)> = None;
    let mut times = 0usize;
    let mut examiner: Option<String> = None;
    // The witness the last swearing-in line names (`JOHN JONES, called as a witness, …`).
    let mut witness: Option<String> = None;
    let (sworn_first, sworn_second) = sworn_over_two_lines(text);
    // `Witness: Ana Ruiz` names the witness unless `Witness:` labels words elsewhere.
    let fields_only = text.lines().all(|l| {
        witness_field(l).is_some()
            || name_colon(l.trim()).is_none_or(|(name, _)| !WITNESS_FIELDS.contains(&name))
    });
    // Whether the text names an examiner anywhere: the answers are the witness's from its
    // first line (a page that starts in the middle of an examination), the questions by
    // whoever the `BY` line names from there on.
    let examined = labels.examination && text.lines().any(|l| examiner_line(l).is_some());
    let mut headings: Option<(usize, usize)> = None;
    // Markup, footers and page marks (`15 Mar 2023 : Column 812`): the first and how many.
    let mut markup: Option<(usize, usize)> = None;
    // The number of turns read when a Markdown rule closed the last of them.
    let mut closed: Option<usize> = None;
    // Material inserted into the record (below GPO's `[… follows:]`): the first line and how
    // many, and whether the lines read are such material.
    let mut inserted: Option<(usize, usize)> = None;
    let mut inserting = false;
    // Whether the words are written in mixed case, so that a line in capitals is a heading.
    let (mut lower, mut lines) = (0usize, 0usize);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        lines += 1;
        lower += usize::from(line.chars().any(char::is_lowercase));
    }
    let mixed_case = 3 * lower >= 2 * lines;
    // A rush transcript's title and air date, above its notice.
    let front = front_matter_end(text).unwrap_or(0);
    for item in ctx.lines(text) {
        let (n, raw) = item?;
        let raw = if n == 1 { raw.trim_start_matches('\u{feff}') } else { raw };
        let decoded = decode_entities(raw);
        let line = decoded.trim();
        if line.is_empty() {
            continue;
        }
        if n < front {
            skipped.get_or_insert((n, 0)).1 += 1;
            continue;
        }
        if is_markup(line) {
            markup.get_or_insert((n, 0)).1 += 1;
            // A rule closes the turn above it: the lines under it up to the next turn are a
            // footer (a clerk's certification, a tool's credits), not that speaker's words.
            if is_rule(line) && !read.is_empty() {
                closed = Some(read.len());
            }
            continue;
        }
        let unmarked = unmark(line);
        if let Some(h) = late.and_then(|_| header(&unmarked)) {
            times += 1;
            match (h.speaker, read.last_mut()) {
                (Some(name), _) => read.push((n, name.to_owned(), h.text.to_owned())),
                (None, Some((_, _, said))) if !h.text.is_empty() => {
                    if !said.is_empty() {
                        said.push('\n');
                    }
                    said.push_str(h.text);
                }
                _ => {}
            }
            continue;
        }
        // A witness sworn in by name (on this line and the next, or named in a `Witness:`
        // field): the answers and `THE WITNESS:` below are theirs.
        if sworn_second.contains(&n) || witness_list(line) {
            headings.get_or_insert((n, 0)).1 += 1;
            continue;
        }
        let named_witness = witness_line(line)
            .map(str::to_owned)
            .or_else(|| sworn_first.get(&n).cloned())
            .or_else(|| witness_field(line).filter(|_| fields_only).map(str::to_owned));
        if let Some(name) = named_witness {
            witness = Some(name);
            headings.get_or_insert((n, 0)).1 += 1;
            continue;
        }
        // An examination: `BY MR. SMITH:` names who asks the questions below it; the answers
        // are the witness's.
        if labels.examination {
            if let Some(by) = examiner_line(line) {
                examiner = Some(by.to_owned());
                continue;
            }
            if let Some((letter, said)) = qa_line(line) {
                let name = match (letter, &examiner) {
                    ('Q', Some(by)) => by.as_str(),
                    ('Q', None) => "Q",
                    (_, _) if witness.is_some() => witness.as_deref().unwrap_or(WITNESS),
                    (_, _) if examined => WITNESS,
                    (_, _) => "A",
                };
                inserting = false;
                read.push((n, name.to_owned(), said.to_owned()));
                continue;
            }
        }
        let start = untimed_turn_start(line, &labels)
            .filter(|(name, said)| !said.is_empty() || opens.contains(name));
        if let Some((name, said)) = start {
            inserting = false;
            let name = match &witness {
                Some(sworn) if name == WITNESS => sworn.as_str(),
                _ => name,
            };
            read.push((n, name.to_owned(), said.to_owned()));
            continue;
        }
        if mixed_case && !read.is_empty() && heading(line) {
            headings.get_or_insert((n, 0)).1 += 1;
            continue;
        }
        if inserting && !read.is_empty() {
            inserted.get_or_insert((n, 0)).1 += 1;
            continue;
        }
        inserting = insertion_note(line);
        let under_rule = closed == Some(read.len());
        match read.last_mut() {
            Some(_) if under_rule => markup.get_or_insert((n, 0)).1 += 1,
            Some((_, _, said)) => {
                if !said.is_empty() {
                    said.push('\n');
                }
                said.push_str(line);
            }
            None => skipped.get_or_insert((n, 0)).1 += 1,
        }
    }
    // The lines above the first speaker's turn are the document's own head (a title, a date,
    // the broadcaster's header), which a well-formed transcript has: a note, so that `--strict`
    // reads such a file. They come before any speaker's label, so no speaker could be given
    // them; the note says how many lines were left out.
    if let Some((line, lines)) = skipped {
        ctx.warn_at(
            WarningKind::Note,
            line,
            Some(1),
            format!("{lines} line(s) above the first speaker's turn skipped (a title, a date): not speech"),
        )?;
    }
    if let Some((line, count)) = headings {
        ctx.warn_at(
            WarningKind::Skipped,
            line,
            Some(1),
            format!("{count} heading(s) in capitals between the turns skipped (`CROSS-EXAMINATION`, `ORAL ARGUMENT OF …`; or lines naming a witness, `JOHN SMITH, having been duly sworn, …`, `Witnesses: …`): not speech"),
        )?;
    }
    if let Some((line, count)) = markup {
        ctx.warn_at(
            WarningKind::Skipped,
            line,
            Some(1),
            format!("{count} line(s) of markup, a service's footer, a broadcaster's notice or copyright, a page mark of the printed record (`Column 812`, `[GRAPHIC] [TIFF OMITTED] …`) or a footer under a rule skipped: not speech"),
        )?;
    }
    if let Some((line, count)) = inserted {
        ctx.warn_at(
            WarningKind::Skipped,
            line,
            Some(1),
            format!("{count} line(s) inserted into the record (below a note such as `[Prepared statement of … follows:]`, up to the next speaker's label) skipped: not spoken"),
        )?;
    }
    if let Some((line, turns)) = late {
        ctx.warn_at(
            WarningKind::Skipped,
            line,
            Some(1),
            format!("{times} line(s) with a time among speakers' turns without times, the first here: {turns} turn(s) have no time, so the times cannot place the transcript; read as an untimed transcript, the times set aside"),
        )?;
    }
    // The names of the lines with a time set aside are labels too (`Mr ALBANESE (Grayndler)
    // (14:43):`, then `Mr ALBANESE:`).
    let timed: Vec<String> = match late {
        Some(_) => read.iter().map(|(_, name, _)| name.clone()).collect(),
        None => Vec::new(),
    };
    let mut known = opens.clone();
    known.extend(timed.iter().map(String::as_str));
    let aliases: BTreeMap<String, String> = introduced_names(&known)
        .into_iter()
        .map(|(long, short)| (long.to_owned(), short.to_owned()))
        .collect();
    if !aliases.is_empty() {
        let list: Vec<String> =
            aliases.iter().map(|(long, short)| format!("{long} → {short}")).collect();
        ctx.warn(Warning::new(
            WarningKind::Note,
            format!("speakers introduced by full name and title, then by surname, are one speaker each: {}", list.join("; ")),
        ))?;
    }
    let mut b = TranscriptBuilder::new();
    let count = read.len();
    for (line, name, said) in read {
        let speaker = aliases.get(name.as_str()).map_or(name.as_str(), String::as_str);
        let id = b.speaker(speaker);
        marks_in(&said, speaker, None, &mut b);
        b.push_untimed(id, Content::text(said), line);
    }
    let built = b.build();
    let speakers = built.annotation().speakers().len();
    ctx.warn(Warning::new(
        WarningKind::Note,
        format!("the speakers' turns have no times: read as an untimed transcript of {count} utterance(s) by {speakers} speaker(s) in file order; the turn-order analysis (`overtalk analyze`; `overtalk.turn_order` in Python) counts turns, words and interruptions by the transcriber's punctuation and notes, and measures that need times cannot be made"),
    ))?;
    Ok(Corpus::single(ctx.recording_id(), built))
}

/// The broadcasters' convention of naming a speaker in full at their first turn and by surname
/// after (`ANDERSON COOPER, CNN ANCHOR:`, then `COOPER:`; `FORMER GOVERNOR LINCOLN CHAFEE:`,
/// then `CHAFEE:`): each long name whose last word, before any comma and without parenthesised
/// parts, is another speaker's whole name, mapped to that name — unless two long names end with
/// the same one.
fn introduced_names<'a>(names: &HashSet<&'a str>) -> BTreeMap<&'a str, &'a str> {
    let mut out = BTreeMap::new();
    // Labels with parts in parentheses, each mapped to the label without them.
    let mut parted: BTreeMap<&str, &str> = BTreeMap::new();
    for &name in names {
        let outer = without_parenthesised(name);
        let plain = outer.split(',').next().unwrap_or(&outer).to_owned();
        let words: Vec<&str> = plain.split_whitespace().collect();
        let Some(last) =
            words.last().map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\''))
        else {
            continue;
        };
        // Hansard's `The Prime Minister (Rishi Sunak):` at a member's first turn, then `The
        // Prime Minister:`; `Sir Keir Starmer (Holborn and St Pancras) (Lab):`, then `Sir Keir
        // Starmer:`: the label without its parts in parentheses.
        let bare = plain.trim();
        if bare != name && !outer.contains(',') {
            if let Some(&short) = names.get(bare) {
                parted.insert(name, short);
                continue;
            }
        }
        if (words.len() >= 2 || name.contains(',')) && last != name {
            if let Some(&short) = names.get(last) {
                out.insert(name, short);
            }
        }
    }
    // Two people with one surname (`BILL CLINTON`, `HILLARY CLINTON`): the surname alone says
    // neither, so each keeps their full name.
    let mut per_short: BTreeMap<&str, usize> = BTreeMap::new();
    for short in out.values() {
        *per_short.entry(short).or_default() += 1;
    }
    out.retain(|_, short| per_short[short] == 1);
    // One name with parts that differ only after the constituency (`Mr ALBANESE (Grayndler)`,
    // then `Mr ALBANESE (Grayndler—Prime Minister)` once he holds an office) is one member;
    // two constituencies are two members (`Mr SMITH (Hove)`, `Mr SMITH (Bath)`), whom the
    // name alone does not tell apart.
    let mut seats: BTreeMap<&str, HashSet<&str>> = BTreeMap::new();
    for (&long, &short) in &parted {
        seats.entry(short).or_default().insert(constituency(long));
    }
    parted.retain(|_, short| seats[short].len() == 1);
    out.extend(parted);
    out
}

/// The first part in parentheses of a label, up to a dash or comma that starts an office
/// (`Grayndler` in `Mr ALBANESE (Grayndler—Prime Minister) (14:53)`), or `""`.
fn constituency(label: &str) -> &str {
    let Some(open) = label.find('(') else { return "" };
    let part = &label[open + 1..];
    let end = part.find([')', '—', '–', ',']).unwrap_or(part.len());
    part[..end].trim()
}

/// `s` without its parts in parentheses.
fn without_parenthesised(s: &str) -> String {
    let mut plain = String::with_capacity(s.len());
    let mut depth = 0usize;
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    plain
}

/// Whether a name is written in capitals: no lower case but in a `Mc` or `Mac` that starts a
/// surname (`MR. McCLELLAN`, as the White House prints its press secretaries).
fn in_capitals(name: &str) -> bool {
    name.split_whitespace().all(|w| {
        let w = w.strip_prefix("Mc").or_else(|| w.strip_prefix("Mac")).unwrap_or(w);
        !w.chars().any(char::is_lowercase)
    })
}

/// The speaker of a press briefing's questions: the White House prints the reporters' turns as
/// `Q` (`Q    Thank you, Karoline.`, `Q Scott, on the leak…`), the answers by name.
const PRESS_QUESTION: &str = "Q";

/// The words of a press briefing's question line (`Q` then whitespace or a period, or alone).
fn press_question(line: &str) -> Option<&str> {
    let rest = line.trim().strip_prefix('Q')?;
    let rest = rest.strip_prefix('.').unwrap_or(rest);
    (rest.is_empty() || rest.starts_with(char::is_whitespace)).then(|| rest.trim())
}

/// `(name, text)` when `line` opens a turn of an untimed transcript with `labels`: GPO's
/// period label ([`period_label`]) in a text of them, else a capitalised `Name:` that is not a
/// header with a time (as [`untimed_turns`] counts them); with `capitals_only`, a name without
/// lower case. In an examination a `Q.` or `A.` line is a turn of `Q` or `A`
/// ([`read_untimed`] names them).
fn untimed_turn_start<'a>(line: &'a str, labels: &Labels) -> Option<(&'a str, &'a str)> {
    if labels.examination {
        if let Some((letter, said)) = qa_line(line) {
            return Some((if letter == 'Q' { "Q" } else { "A" }, said));
        }
    }
    if labels.press {
        if let Some(said) = press_question(line) {
            return Some((PRESS_QUESTION, said));
        }
    }
    if labels.period {
        return period_label(line);
    }
    untimed_colon_turn(line, labels.capitals_only, &labels.lower)
}

/// `(name, text)` when `line` opens with a capitalised `Name:` that is not a header with a
/// time and whose name starts with a letter (`15 Mar 2023 : Column 812`, a page's running
/// head in Hansard, names nobody), or with one of the file's lower-case labels (`lower`,
/// [`LowerLabels`]); with `capitals_only`, a name without lower case.
fn untimed_colon_turn<'a>(
    line: &'a str,
    capitals_only: bool,
    lower: &HashSet<String>,
) -> Option<(&'a str, &'a str)> {
    let line = question_number(line);
    let named = noted_label(line)
        .or_else(|| {
            name_colon(line).filter(|(name, _)| {
                (capitalised(name) || chair_label(name)) && name.starts_with(char::is_alphabetic)
            })
        })
        .or_else(|| lower_label(line).filter(|(name, _)| lower.contains(*name)))
        .or_else(|| bracketed_label(line))
        .or_else(|| office_label(line).filter(|_| !capitals_only))?;
    let (name, said) = named;
    let ok = header(line).is_none() && (!capitals_only || in_capitals(name));
    ok.then_some((name, said))
}

/// `(name, text)` when `line` opens with a label in square brackets and a colon, as
/// anonymised interview transcripts write their participants (`[Int2]: About eight years.`,
/// `[P1]: …`, `[Respondent 3]: …`; the brackets say the name was replaced): the name
/// without its brackets, capitalised ([`is_name`], [`capitalised`]), starting with a letter,
/// and no transcriber's note (`[Crosstalk]: …`, `[Laughter]:`). A header with a time
/// (`[00:01:02] Ana: text`) has no colon right after its bracket and names no one so.
///
/// ```text
/// Interviewer: How many years have you worked?   -> Interviewer
/// [Int2]: About 8.                               -> Int2
/// ```
fn bracketed_label(line: &str) -> Option<(&str, &str)> {
    let inner = line.strip_prefix('[')?;
    let close = inner.find(']')?;
    let name = inner[..close].trim();
    let said = inner[close + 1..].trim_start().strip_prefix(':')?;
    let named = is_name(name)
        && capitalised(name)
        && name.starts_with(char::is_alphabetic)
        && !name.contains(':')
        && super::notes::kind_of(name) == crate::model::MarkKind::Other
        && !NOT_SPEAKERS.contains(&name.to_lowercase().as_str());
    let said_ok = said.is_empty() || said.starts_with(char::is_whitespace);
    (named && said_ok && !link_destination(said)).then(|| (name, said.trim()))
}

/// Whether `said` opens with a link's destination (`https://…`, `<…>`, `/docs/…`, `#usage`,
/// `mailto:…`, `www.…`): the line is a Markdown link reference definition
/// (`[Docs]: https://example.com/docs "Title"`), as a document's last lines list its links,
/// not a participant's words.
fn link_destination(said: &str) -> bool {
    let first = said.split_whitespace().next().unwrap_or("");
    first.contains("://")
        || first.starts_with(['<', '/', '#'])
        || first.starts_with("./")
        || first.starts_with("../")
        || first.to_lowercase().starts_with("mailto:")
        || first.to_lowercase().starts_with("www.")
}

/// `(name, text)` when `line` opens with a broadcaster's label and a colon, the label without
/// the note on how the words were delivered that follows the name in parentheses, in lower
/// case (CNN's and Fox News's `COOPER (voice-over):`, `TUCHMAN (on camera):`, `UNIDENTIFIED
/// MALE (through translator):`, `KING (via telephone):`): the speaker is the name. `None`
/// unless the name before the note is in capitals and the note has no capital, so that a
/// party or a seat (`SANDERS (I-VT)`, `Mr ALBANESE (Grayndler)`) stays part of the label.
/// Read with its note, the label was no name at all: its turn was folded into the turn above.
///
/// ```text
/// COOPER (voice-over): The storm hit.          -> COOPER
/// GARY TUCHMAN, CNN CORRESPONDENT (on camera):  -> GARY TUCHMAN, CNN CORRESPONDENT
/// SEN. BERNIE SANDERS (I-VT):                   -> (no note: read as any label)
/// ```
fn noted_label(line: &str) -> Option<(&str, &str)> {
    let colon = line.find(':')?;
    let name = without_delivery_note(line[..colon].trim())?;
    (is_name(name) && name.starts_with(char::is_alphabetic))
        .then(|| (name, line[colon + 1..].trim()))
}

/// The name of a label with a delivery note ([`noted_label`]), without the note.
fn without_delivery_note(name: &str) -> Option<&str> {
    let open = name.strip_suffix(')')?.rfind('(')?;
    let (before, note) = (name[..open].trim_end(), &name[open + 1..name.len() - 1]);
    let lower = note.chars().any(char::is_alphabetic) && !note.chars().any(char::is_uppercase);
    (lower && !before.is_empty() && in_capitals(before) && before.chars().any(char::is_alphabetic))
        .then_some(before)
}

/// Lower-case words inside the title of an office.
const OFFICE_WORDS: &[&str] = &["and", "for", "of", "the", "in", "on", "to"];

/// Longest office label, in bytes, and most words in it (its parts in parentheses aside).
const MAX_OFFICE_BYTES: usize = 160;
const MAX_OFFICE_WORDS: usize = 16;

/// `(name, text)` when `line` opens with the title of an office and a colon, as Hansard labels
/// ministers: `The` and capitalised words, the lower-case ones only `and`, `for`, `of`, `the`,
/// `in`, `on`, `to`, up to [`MAX_OFFICE_WORDS`] words, and a name in parentheses after it
/// (`The Chancellor of the Exchequer (Jeremy Hunt):`, `The Parliamentary Under-Secretary of
/// State for Health and Social Care (Maria Caulfield):`). Such labels are longer than a
/// name ([`name_colon`]) and have words in lower case, so they were taken for text.
fn office_label(line: &str) -> Option<(&str, &str)> {
    let (colon, _) =
        line.char_indices().take_while(|&(i, _)| i < MAX_OFFICE_BYTES).find(|&(_, c)| c == ':')?;
    let (name, said) = (line[..colon].trim(), line[colon + 1..].trim());
    let plain = without_parenthesised(name);
    let words: Vec<&str> = plain.split_whitespace().collect();
    let office = name.starts_with("The ")
        && (3..=MAX_OFFICE_WORDS).contains(&words.len())
        && !name.contains(['[', ']', '"', '“', '”', '{', '}', '<', '>'])
        && !name.ends_with(['?', '!', ',', ';'])
        && words.iter().all(|w| {
            w.starts_with(char::is_uppercase)
                || OFFICE_WORDS.contains(w)
                || NAME_PARTICLES.contains(w)
        });
    office.then_some((name, said))
}

/// The speakers GPO names by no name (`Voice.`, `Voices.`): someone in the room.
const UNNAMED_VOICES: &[&str] = &["Voice", "Voices", "A Voice", "Several Voices"];

/// A speaker's label that ends with a period, as the US Government Publishing Office prints
/// hearings and the Congressional Record: mixed-case titles, then the name in capitals, a
/// period and the words (`Mr. JORDAN. Did you--`, `Chairman COMER. The committee will come to
/// order.`, `The CHAIRMAN.`, `Ms. OCASIO-CORTEZ [continuing].`, `Mr. GARCIA of Texas.`,
/// `The SPEAKER pro tempore.`, `Voice.`). The label (without `[continuing]`) and the words after it.
///
/// ```text
/// Mr.  JORDAN.  Did you--
/// └title┘└name in capitals, then ". "┘ -> ("Mr. JORDAN", "Did you--")
/// ```
///
/// One to four title words, and one to three words in capitals of two letters or more, so
/// that a sentence (`The FBI said so.` has no period after `FBI`) and a court reporter's
/// `MR. SMITH:` (no title in mixed case) stay what they are.
fn period_label(line: &str) -> Option<(&str, &str)> {
    let line = line.trim();
    for voice in UNNAMED_VOICES {
        if let Some(rest) = line.strip_prefix(voice).and_then(|r| r.strip_prefix('.')) {
            if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                return Some((voice, rest.trim()));
            }
        }
    }
    let caps = |w: &str| {
        let w = w.trim_end_matches('.');
        w.chars().filter(|c| c.is_alphabetic()).count() >= 2
            && w.chars().all(|c| c.is_uppercase() || matches!(c, '-' | '\'' | '’'))
    };
    let title = |w: &str| {
        w.starts_with(char::is_uppercase)
            && w.chars().any(char::is_lowercase)
            && w.chars().all(|c| c.is_alphabetic() || c == '.' || c == '-')
    };
    // The words and where each starts.
    let words: Vec<(usize, &str)> = line
        .split(' ')
        .scan(0usize, |at, w| {
            let start = *at;
            *at += w.len() + 1;
            Some((start, w))
        })
        .filter(|(_, w)| !w.is_empty())
        .take(12)
        .collect();
    let titles = words.iter().take_while(|(_, w)| title(w) && !caps(w)).count();
    let names = words[titles..].iter().take_while(|(_, w)| caps(w)).count();
    if !(1..=4).contains(&titles) || !(1..=3).contains(&names) {
        return None;
    }
    // The word that ends the label with its period: the last name in capitals, or after it
    // `of Texas.` (a state that tells two members apart) or `[continuing].`; the label is the
    // words before `[continuing]`.
    let mut k = titles + names - 1;
    let mut label_end = words[k].0 + words[k].1.len();
    if !words[k].1.ends_with('.') {
        k += 1;
        match words.get(k).map(|(_, w)| *w) {
            Some("[continuing].") => {}
            // The Congressional Record's `The SPEAKER pro tempore.`
            Some("pro") if words.get(k + 1).is_some_and(|(_, w)| *w == "tempore.") => {
                k += 1;
                label_end = words[k].0 + words[k].1.len();
            }
            Some("of") => {
                k += words[k + 1..]
                    .iter()
                    .take_while(|(_, w)| title(w) && !w.ends_with('.'))
                    .count()
                    + 1;
                let (_, w) = words.get(k)?;
                if !(title(w) && w.ends_with('.')) {
                    return None;
                }
                label_end = words[k].0 + w.len();
            }
            _ => return None,
        }
    } else if words.get(k + 1).is_some_and(|(_, w)| *w == "[continuing].") {
        k += 1;
    }
    let (at, w) = words[k];
    if !w.ends_with('.') || w.ends_with("..") {
        return None;
    }
    let label = line[..label_end].trim_end_matches('.');
    Some((label, line[at + w.len()..].trim()))
}

/// How a line opens an examination's question or answer (`Q.   Where were you?`, `A.  At
/// home.`; `Q` and `A` followed by a tab or two spaces, as some reporters write them):
/// `'Q'` or `'A'` and the words.
fn qa_line(line: &str) -> Option<(char, &str)> {
    let line = line.trim();
    let mut chars = line.chars();
    let letter = chars.next().filter(|c| matches!(c, 'Q' | 'A'))?;
    let rest = chars.as_str();
    let said = match rest.strip_prefix('.') {
        Some(r) if r.is_empty() || r.starts_with(char::is_whitespace) => r,
        _ if rest.starts_with("  ") || rest.starts_with('\t') => rest,
        _ => return None,
    };
    Some((letter, said.trim()))
}

/// How turns open in an untimed transcript, decided once from the whole text
/// ([`Labels::of`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Labels {
    /// The lower-case names that label turns (`danah:`, `interviewer:`; [`LowerLabels`]).
    lower: HashSet<String>,
    /// Only names without lower case open turns (`COOPER:`; see [`read_untimed`]).
    capitals_only: bool,
    /// Labels end with a period (`Mr. JORDAN.`, GPO's hearings), not a colon.
    period: bool,
    /// `Q.` and `A.` lines are an examination's questions and answers.
    examination: bool,
    /// `Q` lines are a press briefing's questions, answered under `Name:` labels.
    press: bool,
}

impl Labels {
    /// The labels of `text`: GPO's period labels when at least three lines open with one,
    /// naming two speakers or more, and more lines open so than with a `Name:`; an examination
    /// when at least two lines open with `Q.` and two with `A.` (a court or deposition
    /// transcript; `Q:` and `A:` are names with a colon, as oral histories write them); a press
    /// briefing when at least two lines open with a question's `Q` ([`press_question`]), none
    /// with an answer's `A.`, and two with a `Name:`.
    fn of(text: &str) -> Labels {
        let (mut period, mut colon, mut q, mut a) = (0usize, 0usize, 0usize, 0usize);
        let mut asked = 0usize;
        let mut names: HashMap<&str, usize> = HashMap::new();
        let lower = LowerLabels::of(text).names;
        for line in text.lines().take(100_000) {
            let line = line.trim().trim_start_matches('\u{feff}');
            if let Some((name, said)) = period_label(line) {
                if !said.is_empty() {
                    period += 1;
                    *names.entry(name).or_default() += 1;
                }
            }
            if untimed_colon_turn(line, false, &lower).is_some_and(|(_, said)| !said.is_empty()) {
                colon += 1;
            }
            if let Some((letter, _)) = qa_line(line) {
                q += usize::from(letter == 'Q');
                a += usize::from(letter == 'A');
            }
            asked += usize::from(press_question(line).is_some_and(|said| !said.is_empty()));
        }
        Labels {
            lower,
            capitals_only: false,
            period: period >= 3
                && period > colon
                && names.len() >= 2
                && names.values().any(|&k| k >= 2),
            examination: q >= 2 && a >= 2,
            press: asked >= 2 && a == 0 && colon >= 2,
        }
    }
}

/// Words that open a line with a colon in lower case and label no one (`re: your mail`,
/// `todo: call back`, `vs: …`; a meeting's notes, `action: Bo to call`, `decision: …`; a
/// list's `first:` and `second:`), beside [`NOT_SPEAKERS`] and [`FIELD_NAMES`].
const NOT_LOWER_LABELS: &[&str] = &[
    "re",
    "fwd",
    "fw",
    "todo",
    "fixme",
    "cf",
    "vs",
    "aka",
    "etc",
    "eg",
    "ie",
    "ps",
    "nb",
    "action",
    "actions",
    "decision",
    "decisions",
    "goal",
    "goals",
    "risk",
    "risks",
    "issue",
    "issues",
    "next",
    "owner",
    "done",
    "pros",
    "cons",
    "first",
    "second",
    "third",
    "finally",
];

/// `(name, text)` when `line` opens with a label in lower case (`danah: so what I meant…`,
/// `interviewer: ok`, `speaker 1: hi`): one or two words starting with a lower-case letter,
/// made of letters, digits, `-`, `'` and `_` (no period: `e.g.:`, `i.e.:` are no labels), a
/// colon, then whitespace or the line's end (`http://…`, `mailto:x`, `localhost:8080` and
/// times such as `10:30` are no labels), and no word that opens a note, a field or a mail
/// (`note:`, `update:`, `from:`, `re:`; [`NOT_SPEAKERS`], [`FIELD_NAMES`],
/// [`NOT_LOWER_LABELS`]). Only the shape: whether the file's lower-case labels are labels at
/// all is decided from the whole text ([`LowerLabels`]).
fn lower_label(line: &str) -> Option<(&str, &str)> {
    let line = line.trim();
    let colon = line.find(':')?;
    let (name, after) = (line[..colon].trim(), &line[colon + 1..]);
    if !(after.is_empty() || after.starts_with(char::is_whitespace)) {
        return None;
    }
    let key = name.to_lowercase();
    let plain = name.chars().all(|c| c.is_alphanumeric() || c == ' ' || "-'’_".contains(c));
    let ok = plain
        && (1..=2).contains(&name.split_whitespace().count())
        && name.starts_with(char::is_lowercase)
        && !NOT_SPEAKERS.contains(&key.as_str())
        && !FIELD_NAMES.contains(&key.as_str())
        && !NOT_LOWER_LABELS.contains(&key.as_str());
    ok.then(|| (name, after.trim()))
}

/// The lower-case speaker labels of a text (podcast and interview transcripts written
/// `danah: so what I meant…`, `interviewer: and then?`), decided from the whole text, since
/// one line cannot tell a label from prose (`result: nothing`). A lower-case name
/// ([`lower_label`], with words after it) labels turns when
///
/// - it opens two lines or more (a name that comes once is words: `audience: yes`);
/// - the turns change speaker to or from such a name at least twice (alternation with another
///   lower-case or capitalised label: `danah`, `interviewer`, `danah`);
/// - the lines such names open are more than a third of the lines that open with a label
///   (capitalised `Name:` labels too), so that recurring prose in a transcript named in
///   capitals stays words;
/// - and the lower-case labels that come once are no more than those lines (a glossary of
///   `term: meaning` lines is no transcript).
///
/// ```text
/// danah: so what I meant was…      label (3 lines)
/// interviewer: and then?            label (2 lines)   -> danah, interviewer, danah, …
/// danah: we moved on.
/// result: nothing.                  once: words of danah's turn, with a note
/// ```
#[derive(Debug, Default)]
struct LowerLabels {
    /// The lower-case names that label turns.
    names: HashSet<String>,
    /// How many lines each of `names` opens.
    lines: BTreeMap<String, usize>,
    /// Lines that open as the labels do with a name that comes once, when `names` is not
    /// empty: the first one's line (1-based) and name, and how many.
    once: Option<(usize, String, usize)>,
    /// Lower-case names that recur and alternate but open a third of the labelled lines or
    /// fewer (read as words): the first one's line and the names.
    outvoted: Option<(usize, Vec<String>)>,
}

impl LowerLabels {
    fn of(text: &str) -> LowerLabels {
        // Each line that opens with a label: its line, its name, whether in lower case.
        let mut seq: Vec<(usize, &str, bool)> = Vec::new();
        let mut counts: HashMap<&str, usize> = HashMap::new();
        let none = HashSet::new();
        for (k, line) in text.lines().take(100_000).enumerate() {
            let line = line.trim().trim_start_matches('\u{feff}');
            if let Some((name, said)) = lower_label(line) {
                if !said.is_empty() {
                    seq.push((k + 1, name, true));
                    *counts.entry(name).or_default() += 1;
                }
            } else if let Some((name, said)) = untimed_colon_turn(line, false, &none) {
                if !said.is_empty() {
                    seq.push((k + 1, name, false));
                }
            }
        }
        let recurs = |name: &str| counts.get(name).is_some_and(|&c| c >= 2);
        let once: Vec<(usize, &str)> = seq
            .iter()
            .filter(|&&(_, name, lower)| lower && !recurs(name))
            .map(|&(n, name, _)| (n, name))
            .collect();
        seq.retain(|&(_, name, lower)| !lower || recurs(name));
        let lower_lines = seq.iter().filter(|&&(_, _, lower)| lower).count();
        let changes = seq.windows(2).filter(|w| w[0].1 != w[1].1 && (w[0].2 || w[1].2)).count();
        let mut out = LowerLabels::default();
        if lower_lines == 0 || changes < 2 || once.len() > lower_lines {
            return out;
        }
        if 3 * lower_lines <= seq.len() {
            let mut names: Vec<String> =
                seq.iter().filter(|s| s.2).map(|s| s.1.to_owned()).collect();
            names.sort();
            names.dedup();
            out.outvoted = seq.iter().find(|s| s.2).map(|s| (s.0, names));
            return out;
        }
        for &(_, name, lower) in &seq {
            if lower {
                out.names.insert(name.to_owned());
                *out.lines.entry(name.to_owned()).or_default() += 1;
            }
        }
        out.once = once.first().map(|&(n, name)| (n, name.to_owned(), once.len()));
        out
    }

    /// The notes that say how the lower-case labels were read: which names label turns, the
    /// names that come once (kept as words), the names outvoted by labels in capitals. Notes,
    /// not repairs: the text is well formed, only its reading is chosen, so `--strict` keeps
    /// them warnings.
    fn warn(&self, ctx: &mut ReadContext<'_>) -> Result<()> {
        if !self.lines.is_empty() {
            let list: Vec<String> =
                self.lines.iter().map(|(name, n)| format!("`{name}` ({n})")).collect();
            ctx.warn(Warning::new(
                WarningKind::Note,
                format!("lower-case labels read as speakers' names, as they recur at the start of lines and alternate: {} (lines each opens)", list.join(", ")),
            ))?;
        }
        if let Some((line, name, count)) = &self.once {
            ctx.warn_at(
                WarningKind::Note,
                *line,
                Some(1),
                format!("{count} line(s) open with a lower-case label that comes once, the first `{name}:`: read as words of the turn above, not as a speaker (a lower-case label counts when it recurs)"),
            )?;
        }
        if let Some((line, names)) = &self.outvoted {
            ctx.warn_at(
                WarningKind::Note,
                *line,
                Some(1),
                format!("lower-case labels recur at the start of lines ({}), but most turns are named with capitals: read as words, not as speakers", names.iter().map(|n| format!("`{n}:`")).collect::<Vec<_>>().join(", ")),
            )?;
        }
        Ok(())
    }
}

/// Fewest numbered lines that make a text a line-numbered transcript ([`numbered_lines`]).
const MIN_NUMBERED_LINES: usize = 10;
/// Highest line number on a transcript's page (court reporters number 25 lines a page, some
/// 26 to 28).
const MAX_LINE_NUMBER: usize = 30;
/// Widest indentation before a line number: a page number further right is no line number.
const MAX_NUMBER_INDENT: usize = 8;

/// A line's own number in a line-numbered transcript: 1 to [`MAX_LINE_NUMBER`] at the left
/// margin (at most [`MAX_NUMBER_INDENT`] characters in), then whitespace or the line's end.
/// The number and the byte where the text after it starts.
fn line_number(line: &str) -> Option<(usize, usize)> {
    let body = line.trim_start();
    let indent = line.len() - body.len();
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    if indent > MAX_NUMBER_INDENT || !(1..=2).contains(&digits) {
        return None;
    }
    let rest = &body[digits..];
    if !(rest.is_empty() || rest.starts_with(char::is_whitespace)) {
        return None;
    }
    let n: usize = body[..digits].parse().ok()?;
    (1..=MAX_LINE_NUMBER).contains(&n).then_some((n, indent + digits))
}

/// The text of a line-numbered transcript (court and deposition transcripts, US Supreme Court
/// oral arguments: every line of a page numbered 1 to 25 at the left margin), with the
/// numbers taken off and the lines outside the numbering blanked, or `None` for another text.
/// The lines keep their places, so warnings name the lines of the file. With it, the first
/// line outside the numbering and how many there are.
///
/// A text is line-numbered when at least [`MIN_NUMBERED_LINES`] lines and half its non-blank
/// lines carry a line number, and nine in ten of those numbers follow the one before (or
/// restart a page at 1). Lines without a number are the page's furniture, not speech: the page
/// number at the right, a running header (`N7J3SMIC  Jones - Cross`), the reporting company's
/// footer (`Heritage Reporting Corporation`).
///
/// ```text
///                                              45   page number: blanked
///  1             THE COURT:  Please be seated.      -> "THE COURT:  Please be seated."
///  2   proceed.                                      -> "proceed."
///          SOUTHERN DISTRICT REPORTERS, P.C.        footer: blanked
/// ```
fn numbered_lines(text: &str) -> Option<(String, Option<(usize, usize)>)> {
    let (mut nonblank, mut numbered, mut in_sequence) = (0usize, 0usize, 0usize);
    let mut previous = 0usize;
    for (line, _) in split_lines(text).take(100_000) {
        if line.trim().is_empty() {
            continue;
        }
        nonblank += 1;
        if let Some((n, _)) = line_number(line.trim_start_matches('\u{feff}')) {
            numbered += 1;
            in_sequence += usize::from(n == previous + 1 || n == 1);
            previous = n;
        }
    }
    if numbered < MIN_NUMBERED_LINES || 2 * numbered < nonblank || 10 * in_sequence < 9 * numbered {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut furniture: Option<(usize, usize)> = None;
    for (k, (line, ending)) in split_lines(text).enumerate() {
        let body = line.trim_start_matches('\u{feff}');
        match line_number(body) {
            Some((_, at)) => out.push_str(body[at..].trim()),
            None if body.trim().is_empty() => {}
            None => furniture.get_or_insert((k + 1, 0)).1 += 1,
        }
        out.push_str(ending);
    }
    Some((out, furniture))
}

/// Longest part in parentheses of a stacked label ([`stacked_labels`]), in characters.
const MAX_PART_CHARS: usize = 160;

/// The parts in parentheses that make up the whole of `s` (`(Holborn and St Pancras) (Lab)`,
/// `(Rishi Sunak)`): one or more groups without nesting, each non-empty, at most
/// [`MAX_PART_CHARS`] long and starting with a capital or a digit, as a constituency, a party
/// or a name is written; `(see below)` is no such part.
fn label_parts(s: &str) -> bool {
    let mut rest = s.trim();
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let Some(after) = rest.strip_prefix('(') else { return false };
        let Some(close) = after.find(')') else { return false };
        let part = after[..close].trim();
        if part.is_empty()
            || part.contains('(')
            || part.chars().count() > MAX_PART_CHARS
            || !part.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())
        {
            return false;
        }
        rest = after[close + 1..].trim_start();
    }
    true
}

/// Whether `s` alone on its line can be the name in a stacked label: a capitalised name
/// ([`is_name`], [`capitalised`]) or an office's title (`The Parliamentary Under-Secretary of
/// State for Health and Social Care`: capitalised words and [`OFFICE_WORDS`], up to
/// [`MAX_OFFICE_WORDS`]), starting with a letter, with no colon and no sentence's end.
fn label_name(s: &str) -> bool {
    let s = s.trim();
    let words: Vec<&str> = s.split_whitespace().collect();
    let office = s.starts_with("The ")
        && words.len() <= MAX_OFFICE_WORDS
        && words.iter().all(|w| {
            w.starts_with(char::is_uppercase)
                || OFFICE_WORDS.contains(w)
                || NAME_PARTICLES.contains(w)
        });
    s.starts_with(char::is_uppercase)
        && !s.contains([':', '(', ')'])
        && !s.ends_with(['.', '?', '!', ',', ';'])
        && ((is_name(s) && capitalised(s)) || office)
}

/// A stacked label at `lines[at]` (blank lines left out): the name and its parts in
/// parentheses, and how many lines they take. `Name (Part) (Part)` on one line, or `Name` on
/// one line and `(Part) (Part)` on the next.
fn stacked_label(lines: &[&str], at: usize) -> Option<(String, String, usize)> {
    let line = lines[at].trim();
    if let Some(open) = line.find('(') {
        let (name, parts) = (line[..open].trim(), &line[open..]);
        return (label_name(name) && label_parts(parts))
            .then(|| (name.to_owned(), parts.trim().to_owned(), 1));
    }
    let next = lines.get(at + 1)?.trim();
    (label_name(line) && label_parts(next)).then(|| (line.to_owned(), next.to_owned(), 2))
}

/// The text of a transcript whose `Name:` labels are in Markdown emphasis or alone on their
/// line, as transcripts published on web pages lay them out (Rev's export without times
/// pasted into a page, `Rebecca:` above the words; a podcast page's `**Daniel Filan:**`
/// before the words or above them): each label without its emphasis (`**Ana Ruiz:** text` and
/// `**Ana Ruiz**: text` -> `Ana Ruiz: text`), and a label alone on its line joined to the
/// first line of words under it (that line left blank, so line numbers stay the file's).
///
/// ```text
/// **Daniel Filan:**        -> Daniel Filan: Hello and welcome.
/// Hello and welcome.          (blank)
/// **Andrew Critch:** Hi.   -> Andrew Critch: Hi.
/// ```
///
/// A label is a capitalised name ([`name_colon`], [`capitalised`]); a line with a time
/// ([`header`]) is left as it is, and so is a label alone whose next line is another label or
/// has a time. `None` unless [`MIN_STACKED_LABELS`] + 1 labels or more are so, by two names or
/// more, one of them twice: a heading in bold with a colon (`**Summary:**`) is no transcript.
fn colon_labels(text: &str) -> Option<String> {
    let all: Vec<(&str, &str)> = split_lines(text).take(100_000).collect();
    let headed = heading_labels(all.iter().map(|(l, _)| *l));
    // Each line's label, without emphasis, and the words after it (empty when alone).
    let label = |line: &str| -> Option<(String, String)> {
        let t = line.trim().trim_start_matches('\u{feff}');
        if let Some(name) = heading_name(t).filter(|n| headed.contains(*n)) {
            return Some((name.to_owned(), String::new()));
        }
        if header(&unmark(t)).is_some() {
            return None;
        }
        let plain = emphasised_label(t);
        let (name, said) = name_colon(plain.as_deref().unwrap_or(t))?;
        let ok = capitalised(name) && name.starts_with(char::is_alphabetic);
        (ok && (plain.is_some() || said.is_empty())).then(|| (name.to_owned(), said.to_owned()))
    };
    let mut out: Vec<Option<String>> = vec![None; all.len()];
    let mut names: HashMap<String, usize> = HashMap::new();
    let mut k = 0;
    while k < all.len() {
        let Some((name, said)) = label(all[k].0) else {
            k += 1;
            continue;
        };
        if !said.is_empty() {
            out[k] = Some(format!("{name}: {said}"));
            *names.entry(name).or_default() += 1;
            k += 1;
            continue;
        }
        // Alone: the first line with text below is its words, unless it is a label or a time.
        let Some(below) = (k + 1..all.len()).find(|&j| !all[j].0.trim().is_empty()) else {
            break;
        };
        let words = all[below].0.trim();
        let labelled =
            label(words).is_some() || name_colon(words).is_some_and(|(n, _)| capitalised(n));
        if labelled || header(&unmark(words)).is_some() {
            k = below;
            continue;
        }
        out[k] = Some(format!("{name}: {words}"));
        out[below] = Some(String::new());
        *names.entry(name).or_default() += 1;
        k = below + 1;
    }
    let turns: usize = names.values().sum();
    if turns <= MIN_STACKED_LABELS || names.len() < 2 || !names.values().any(|&c| c >= 2) {
        return None;
    }
    let mut joined = String::with_capacity(text.len());
    for ((line, ending), new) in all.iter().zip(out) {
        joined.push_str(new.as_deref().unwrap_or(line));
        joined.push_str(ending);
    }
    // Lines past the first 100 000 are kept as they are.
    let kept: usize = all.iter().map(|(l, e)| l.len() + e.len()).sum();
    joined.push_str(&text[kept..]);
    Some(joined)
}

/// The name of a lower-case label alone on its line (`interviewer`, `respondent 2`, also
/// `interviewer:`): the shape of [`lower_label`] without words after it, or `None`.
fn lower_alone(line: &str) -> Option<&str> {
    let t = line.trim().trim_start_matches('\u{feff}');
    let name = t.strip_suffix(':').unwrap_or(t).trim_end();
    if name.is_empty() || name.contains(':') || name.len() > MAX_NAME_CHARS {
        return None;
    }
    lower_label(&format!("{name}:")).is_some().then_some(name)
}

/// The text of a transcript whose labels are in lower case and alone on their line, the words
/// under them (qualitative-research exports and interview notes: `interviewer`, then the
/// question; `respondent`, then the answer), with each such label joined to its first line of
/// words as `name: words` (that line left blank, so line numbers stay the file's), to be read
/// as the file's lower-case labels ([`LowerLabels`]). One line cannot tell such a label from
/// a short line of prose (`yes`, `well`), so the whole file decides, as for `name: text`:
///
/// - a label is a [`lower_label`] name alone on its line (a colon after it allowed), with a
///   line of words below it that is no such name, no `Name:` label and no header with a time;
/// - only names that label two lines or more count, two names or more, and the turns change
///   speaker between them at least twice;
/// - the labels open half or more of the text's parts (its paragraphs, and the turns that
///   start inside one), and the names that come once are no more than the labels that
///   recur: prose with a few short lines of its own stays prose.
///
/// ```text
/// interviewer                       -> interviewer: so how did you come to the garden?
/// so how did you come to the garden?   (blank)
///
/// respondent                        -> respondent: a neighbour brought me.
/// a neighbour brought me.              (blank)
/// ```
///
/// `None` when the text has no such labels.
fn lower_alone_labels(text: &str) -> Option<String> {
    let all: Vec<(&str, &str)> = split_lines(text).take(MAX_REWRITE_LINES + 1).collect();
    if all.len() > MAX_REWRITE_LINES {
        return None;
    }
    let blank = |k: usize| all[k].0.trim().is_empty();
    // Each label: its line, the line of its words, its name.
    let mut found: Vec<(usize, usize, &str)> = Vec::new();
    let mut k = 0;
    while k < all.len() {
        let Some(name) = lower_alone(all[k].0) else {
            k += 1;
            continue;
        };
        let below = (k + 1..all.len()).find(|&j| !blank(j));
        let words = below.map(|j| unmark(all[j].0.trim()));
        let said = words.as_deref().is_some_and(|w| {
            lower_alone(w).is_none()
                && name_colon(w).is_none_or(|(n, _)| !capitalised(n))
                && header(w).is_none()
        });
        match below {
            Some(j) if said => {
                found.push((k, j, name));
                k = j + 1;
            }
            _ => k += 1,
        }
    }
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for &(_, _, name) in &found {
        *counts.entry(name).or_default() += 1;
    }
    let recurs = |name: &str| counts.get(name).is_some_and(|&c| c >= 2);
    let labels: Vec<&(usize, usize, &str)> = found.iter().filter(|f| recurs(f.2)).collect();
    let once = found.len() - labels.len();
    let names = counts.values().filter(|&&c| c >= 2).count();
    let changes = labels.windows(2).filter(|w| w[0].2 != w[1].2).count();
    if names < 2 || changes < 2 || once > labels.len() {
        return None;
    }
    // The text's parts: each paragraph (after a blank line or at the start), but the words
    // of a label written a blank line below it, and each label inside a paragraph.
    let starts: HashSet<usize> = labels.iter().map(|l| l.0).collect();
    let words: HashSet<usize> = labels.iter().map(|l| l.1).collect();
    let parts = (0..all.len())
        .filter(|&k| !blank(k))
        .filter(|&k| {
            let opens = k == 0 || blank(k - 1);
            (opens && !words.contains(&k)) || starts.contains(&k)
        })
        .count();
    if 2 * labels.len() < parts {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut joined: HashMap<usize, String> = HashMap::new();
    for &&(at, below, name) in &labels {
        joined.insert(at, format!("{name}: {}", all[below].0.trim()));
        joined.insert(below, String::new());
    }
    for (k, (line, ending)) in all.iter().enumerate() {
        out.push_str(joined.get(&k).map_or(*line, String::as_str));
        out.push_str(ending);
    }
    Some(out)
}

/// The text of a transcript that names each paragraph's speaker on the line above its time,
/// as the podcast namespace's HTML transcripts (Buzzsprout's, `<cite>Kevin:</cite>`,
/// `<time>0:00</time>`, `<p>…</p>`) read as text: each `Name:` alone on its line joined to
/// the time alone on the next line with words (`0:00 Kevin:`, a header of that speaker), the
/// name's line left blank so line numbers stay the file's.
///
/// ```text
/// Kevin:                    (blank)
/// 0:00                   -> 0:00 Kevin:
/// We have an update…        We have an update…
/// Alban :                   (blank)
/// 0:09                   -> 0:09 Alban:
/// ```
///
/// A label is a capitalised name ([`name_colon`], [`capitalised`]) and a colon, nothing after
/// it (a space before the colon, `Alban :`, as the spec's example writes it); the time is a
/// time alone ([`Shape::TimeOnly`]). `None` unless two such pairs or more: read as they were,
/// every paragraph was `unknown`'s and each name words of the paragraph above.
fn cited_names(text: &str) -> Option<String> {
    let lines: Vec<(&str, &str)> = split_lines(text).take(MAX_REWRITE_LINES + 1).collect();
    if lines.len() > MAX_REWRITE_LINES {
        return None;
    }
    let cited = |k: usize| {
        let (label, _) = lines[k];
        let (time_line, _) = *lines.get(k + 1)?;
        header(time_line).filter(|h| h.shape == Shape::TimeOnly)?;
        let (name, said) = name_colon(label.trim())?;
        let named = said.is_empty() && label.trim_end().ends_with([':', '：']) && capitalised(name);
        named.then(|| (name, time_line.trim()))
    };
    let mut joined: HashMap<usize, String> = HashMap::new();
    for k in 0..lines.len() {
        if let Some((name, time)) = cited(k) {
            joined.insert(k, String::new());
            joined.insert(k + 1, format!("{time} {name}:"));
        }
    }
    if joined.len() < 4 {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    for (k, (line, ending)) in lines.iter().enumerate() {
        out.push_str(joined.get(&k).map_or(*line, String::as_str));
        out.push_str(ending);
    }
    Some(out)
}

/// The name a Markdown heading holds when it is a name alone (`### Interviewer`, `## Ana
/// Ruiz`: [`bare_name`]), or `None`.
fn heading_name(t: &str) -> Option<&str> {
    let t = t.trim();
    let rest = t.trim_start_matches('#');
    let level = t.len() - rest.len();
    let name = rest.strip_prefix([' ', '\t'])?.trim();
    ((1..=6).contains(&level) && bare_name(name)).then_some(name)
}

/// The speakers' names that a transcript writes as Markdown headings above their words, as
/// interview transcripts kept in Markdown do (`### Interviewer`, then the words, `### Systems
/// Developer`, then theirs): the names of headings that are a name alone ([`heading_name`])
/// and come twice or more, when two such names or more change places at least twice and make
/// two headings in three of the text, with no other heading of a higher level between them.
/// A document's section headings (`## Introduction`, `## Methods`) do not come back, so they
/// name no one; a heading that comes once is a heading; sections that come back under a
/// higher heading (`## Monday` under each `# Week …`) are an outline.
/// Read as markup, every such heading was skipped and the whole interview was one turn, or
/// no transcript at all.
///
/// Headings that recur and alternate are not yet speakers: a flat document repeats its
/// sections too (a page of two recipes, `## Ingredients` and `## Method` twice). The text
/// under them must also read as turns ([`heading_turns`]): few of those blocks are lists,
/// tables or code (a recipe's ingredients), and no name is a section's (`Method`, `Summary`,
/// `Chapter 2`) unless a name is a speaker's role (`Interviewer`, `Speaker 1`, `P2`;
/// [`SPEAKER_ROLES`]) or a quarter of the blocks read as speech (a question, the first
/// person, an answer's first word such as `yes` or `well`). Other names over prose are
/// speakers, whatever the language of their words.
///
/// ```text
/// ### Interviewer            -> Interviewer: Het is eigenlijk goed om…
/// Het is eigenlijk goed om…     (joined to the label, [`colon_labels`])
/// ### Systems Developer      -> Systems Developer: Wat maakt dat…
/// ```
fn heading_labels<'a>(lines: impl Iterator<Item = &'a str>) -> HashSet<String> {
    match repeated_headings(lines) {
        Some((names, true)) => names.into_iter().collect(),
        _ => HashSet::new(),
    }
}

/// The names of headings that recur and alternate as [`heading_labels`] reads them, in the
/// order they first come, and whether the blocks under them read as turns ([`heading_turns`]);
/// `None` when no such headings.
fn repeated_headings<'a>(lines: impl Iterator<Item = &'a str>) -> Option<(Vec<String>, bool)> {
    let lines: Vec<&str> = lines.collect();
    // Each heading's level, the name it holds and its line.
    let mut seq: Vec<(usize, Option<&str>)> = Vec::new();
    let mut at: Vec<usize> = Vec::new();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for (k, line) in lines.iter().enumerate() {
        let t = line.trim().trim_start_matches('\u{feff}');
        if !(t.starts_with('#') && t.trim_start_matches('#').starts_with([' ', '\t'])) {
            continue;
        }
        let name = heading_name(t);
        if let Some(n) = name {
            *counts.entry(n).or_default() += 1;
        }
        seq.push((t.len() - t.trim_start_matches('#').len(), name));
        at.push(k);
    }
    let recurs = |n: &Option<&str>| n.is_some_and(|n| counts[n] >= 2);
    let named: Vec<&str> = seq.iter().filter(|(_, n)| recurs(n)).flat_map(|(_, n)| *n).collect();
    let changes = named.windows(2).filter(|w| w[0] != w[1]).count();
    let names: HashSet<String> = named.iter().map(|n| (*n).to_owned()).collect();
    if names.len() < 2 || changes < 2 || 3 * named.len() < 2 * seq.len() {
        return None;
    }
    // A heading above the names' level between them makes them sections of sections (`#
    // Week 2` over `## Monday`, `## Tuesday` again): a document's outline, not turns.
    let labels: Vec<usize> = (0..seq.len()).filter(|&i| recurs(&seq[i].1)).collect();
    let level = labels.iter().map(|&i| seq[i].0).min().unwrap_or(0);
    let (first, last) = (labels[0], labels[labels.len() - 1]);
    if seq[first..last].iter().any(|(l, n)| *l < level && !recurs(n)) {
        return None;
    }
    // The lines under each label, up to the next heading.
    let blocks: Vec<&[&str]> = labels
        .iter()
        .map(|&i| &lines[at[i] + 1..at.get(i + 1).copied().unwrap_or(lines.len())])
        .collect();
    let turns = heading_turns(&names, &blocks);
    let mut ordered: Vec<String> = Vec::new();
    for n in named {
        if !ordered.iter().any(|o| o == n) {
            ordered.push(n.to_owned());
        }
    }
    Some((ordered, turns))
}

/// Headings that name a document's sections, not speakers (`Introduction`, `Method`,
/// `Ingredients`, `Morning`, `Chapter 2`), lower case: a heading that is one, and recurs and
/// alternates with the text under it not spoken, is a section ([`heading_turns`]).
const SECTION_WORDS: &[&str] = &[
    "introduction",
    "overview",
    "summary",
    "background",
    "method",
    "methods",
    "methodology",
    "ingredients",
    "instructions",
    "directions",
    "preparation",
    "steps",
    "notes",
    "note",
    "conclusion",
    "conclusions",
    "results",
    "discussion",
    "abstract",
    "references",
    "appendix",
    "contents",
    "agenda",
    "faq",
    "example",
    "examples",
    "exercise",
    "exercises",
    "problem",
    "solution",
    "description",
    "usage",
    "installation",
    "morning",
    "afternoon",
    "evening",
    "night",
    // A comparison's or an assessment's sides (`## Pros`, `## Cons` over each option).
    "pros",
    "cons",
    "advantages",
    "disadvantages",
    "benefits",
    "drawbacks",
    "strengths",
    "weaknesses",
    "opportunities",
    "threats",
    "risks",
    "limitations",
    "before",
    "after",
];

/// Words that open a numbered section's heading (`Chapter 2`, `Part II`, `Step 3`).
const NUMBERED_SECTIONS: &[&str] =
    &["chapter", "part", "step", "section", "lesson", "week", "day", "appendix"];

/// Whether a heading's name is a section's ([`SECTION_WORDS`], [`NUMBERED_SECTIONS`] and a
/// number, in Arabic or Roman numerals).
fn section_heading(name: &str) -> bool {
    let lower = name.trim().to_lowercase();
    if SECTION_WORDS.contains(&lower.as_str()) {
        return true;
    }
    match lower.split_whitespace().collect::<Vec<_>>()[..] {
        [word, number] => {
            NUMBERED_SECTIONS.contains(&word)
                && (number.bytes().all(|b| b.is_ascii_digit())
                    || number.bytes().all(|b| b"ivxlc".contains(&b)))
        }
        _ => false,
    }
}

/// The names of headings that recur and alternate but read as a document's sections, not
/// speakers ([`repeated_headings`]), for an error that says why: `None` when there are none, or
/// they read as speakers.
fn section_headings(text: &str) -> Option<Vec<String>> {
    match repeated_headings(split_lines(text).take(100_000).map(|(l, _)| l)) {
        Some((names, false)) => Some(names),
        _ => None,
    }
}

/// Last words of a speaker's role in an interview, a meeting or a hearing (`Interviewer`,
/// `Respondent`, `Speaker 1`, `Systems Developer`): a heading that names one is a speaker's
/// label ([`heading_turns`]).
const SPEAKER_ROLES: &[&str] = &[
    "interviewer",
    "interviewee",
    "respondent",
    "participant",
    "speaker",
    "host",
    "co-host",
    "cohost",
    "guest",
    "moderator",
    "narrator",
    "panelist",
    "panellist",
    "caller",
    "reporter",
    "presenter",
    "facilitator",
    "researcher",
    "student",
    "teacher",
    "chair",
    "witness",
    "counsel",
    "judge",
    "doctor",
    "patient",
    "client",
    "therapist",
    "developer",
    "manager",
    "engineer",
    "designer",
    "audience",
];

/// First words of an answer or a backchannel (`Yes.`, `Well, …`, `Hi.`): a block under a
/// heading that opens with one reads as speech ([`heading_turns`]).
const SPOKEN_OPENERS: &[&str] = &[
    "yes",
    "no",
    "yeah",
    "yep",
    "nope",
    "hi",
    "hello",
    "hey",
    "okay",
    "ok",
    "right",
    "sure",
    "thanks",
    "mhm",
    "mm",
    "hm",
    "um",
    "uh",
    "well",
    "so",
    "oh",
    "exactly",
    "absolutely",
];

/// Words of the first person: a block under a heading with one reads as speech.
const FIRST_PERSON: &[&str] = &["i", "i'm", "i've", "i'd", "i'll", "me", "my", "i’m", "i’ve"];

/// Whether the blocks under headings that recur and alternate ([`heading_labels`]) read as
/// speakers' turns: no more than a third of them mostly lists, tables or code (a recipe's
/// ingredients, a changelog's entries), and no name a section's ([`section_heading`]:
/// `Method`, `Morning`, `Chapter 2`) unless a name is a speaker's role or numbered (`Speaker
/// 1`, `P2`; [`SPEAKER_ROLES`]) or a quarter of the blocks spoken: a question (`?`, `？`, `¿`,
/// `؟`), a word of the first person ([`FIRST_PERSON`]), or an answer's first word
/// ([`SPOKEN_OPENERS`]). Names over prose are speakers otherwise, in any language: an
/// interview in German without a question mark, in Greek (whose question mark is `;`) or in
/// Japanese reads so.
fn heading_turns(names: &HashSet<String>, blocks: &[&[&str]]) -> bool {
    let item = |l: &str| {
        let t = l.trim();
        let digits = t.bytes().take_while(u8::is_ascii_digit).count();
        let numbered =
            digits > 0 && (t[digits..].starts_with(". ") || t[digits..].starts_with(") "));
        numbered
            || ["- ", "* ", "+ ", "|", "```", "~~~", "![", "    "]
                .iter()
                .any(|p| l.starts_with(p) || t.starts_with(p))
    };
    let listed = blocks
        .iter()
        .filter(|b| {
            let text: Vec<&&str> = b.iter().filter(|l| !l.trim().is_empty()).collect();
            let items = text.iter().filter(|l| item(l)).count();
            !text.is_empty() && 2 * items > text.len()
        })
        .count();
    if 3 * listed > blocks.len() {
        return false;
    }
    let role = names.iter().any(|n| speaker_role(n));
    let spoken = blocks
        .iter()
        .filter(|b| {
            let text = b.join(" ");
            let words: Vec<String> = text
                .split_whitespace()
                .map(|w| {
                    w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’')
                        .to_lowercase()
                })
                .collect();
            text.contains(['?', '？', '¿', '؟'])
                || words.iter().any(|w| FIRST_PERSON.contains(&w.as_str()))
                || words.first().is_some_and(|w| SPOKEN_OPENERS.contains(&w.as_str()))
        })
        .count();
    role || 4 * spoken >= blocks.len() || !names.iter().any(|n| section_heading(n))
}

/// Whether `n` names a speaker by a role ([`SPEAKER_ROLES`]: `Interviewer`, `Speaker 1`) or
/// a code (`P2`, `R1`, `Int3`, as anonymised interviews name people).
fn speaker_role(n: &str) -> bool {
    let words: Vec<String> = n.split_whitespace().map(str::to_lowercase).collect();
    let Some(last) = words.last() else {
        return false;
    };
    let numbered = last.bytes().all(|b| b.is_ascii_digit());
    let word = if numbered && words.len() >= 2 { &words[words.len() - 2] } else { last };
    let letters = word.bytes().take_while(u8::is_ascii_alphabetic).count();
    let coded = (1..=3).contains(&letters)
        && word.len() > letters
        && word.bytes().skip(letters).all(|b| b.is_ascii_digit());
    SPEAKER_ROLES.contains(&word.as_str()) || coded
}

/// A label in Markdown emphasis at the start of `t`, without it: `**Ana Ruiz:** text` and
/// `**Ana Ruiz**: text` (`__` too) -> `Ana Ruiz: text`; `None` when `t` opens with no
/// emphasis closed after a colon.
fn emphasised_label(t: &str) -> Option<String> {
    let mark = ["**", "__"].into_iter().find(|m| t.starts_with(m))?;
    let inner = &t[mark.len()..];
    let close = inner.find(mark)?;
    let (label, after) = (inner[..close].trim(), &inner[close + mark.len()..]);
    match (label.strip_suffix(':'), after.strip_prefix(':')) {
        (Some(name), _) => Some(format!("{}: {}", name.trim(), after.trim())),
        (None, Some(rest)) => Some(format!("{label}: {}", rest.trim())),
        (None, None) => None,
    }
}

/// Fewest stacked labels with parts in parentheses that make a text one of them
/// ([`stacked_labels`]).
const MIN_STACKED_LABELS: usize = 2;

/// Fewest labels before a dash (`Mr ALBANESE —because…`) that make a text one of them
/// ([`stacked_labels`]); two names or more, one of them twice.
const MIN_DASH_LABELS: usize = 3;

/// Last words of a presiding officer's or the members' collective label (`The SPEAKER`, `Mr
/// Deputy Speaker`, `Hon. Members`, `Honourable members`, `Opposition members`), which a
/// parliament's record writes at the start of a line without naming them elsewhere.
const CHAIR_WORDS: &[&str] = &[
    "speaker",
    "president",
    "chair",
    "chairman",
    "chairwoman",
    "chairperson",
    "members",
    "member",
];

/// Whether `s` is a presiding officer's or the members' label ([`CHAIR_WORDS`]): two to four
/// words, the first capitalised, the last one of those words.
fn chair_label(s: &str) -> bool {
    let words: Vec<&str> = s.split_whitespace().collect();
    (2..=4).contains(&words.len())
        && s.starts_with(char::is_uppercase)
        && !s.contains([':', '(', ')', ',', ';', '!', '?'])
        && words.last().is_some_and(|w| CHAIR_WORDS.contains(&w.to_lowercase().as_str()))
}

/// Whether a part in parentheses is the time a record gives a speech (`(14:43)`, `(2:52 PM)`,
/// `(2.01 p.m.)`), not part of who spoke.
fn time_part(part: &str) -> bool {
    let p = part.trim().trim_start_matches('(').trim_end_matches(')').trim();
    p.starts_with(|c: char| c.is_ascii_digit())
        && p.contains([':', '.'])
        && p.chars().all(|c| c.is_ascii_digit() || " :.apmAPM".contains(c))
}

/// The dash after a label (`Mr ALBANESE —because…`), as the Australian Hansard printed them
/// until 2011: the text after it; `None` when the text after it closes an aside with another
/// dash within [`ASIDE_WORDS`] words and goes on (`Mr Smith—who spoke first—said…`: prose).
fn after_dash(s: &str) -> Option<&str> {
    let words =
        s.strip_prefix('—').or_else(|| s.strip_prefix('–')).or_else(|| s.strip_prefix("--"))?;
    let aside = words.find(['—', '–']).is_some_and(|d| {
        words[..d].split_whitespace().count() < ASIDE_WORDS
            && !words[d..].trim_start_matches(['—', '–']).trim().is_empty()
    });
    (!aside).then_some(words)
}

/// Words after a label's dash within which a second dash that goes on closes an aside
/// ([`after_dash`]).
const ASIDE_WORDS: usize = 5;

/// A label on the line of its words, without a colon: a name and its parts in parentheses
/// (`Mr John Smith (Brighton, Kemptown) (Lab) I rise…`, `Mr PRICE (2:52 PM) —My question…`),
/// or a name before a dash (`Mr ALBANESE —because…`, `Honourable members—Hear, hear!`). The
/// name, its parts (`""` for none; a time among them left out, [`time_part`]) and the words.
/// Without a dash, the words start as a sentence does (a capital, a digit, a quote), so that
/// `Jane Smith (Reuters) said today…` stays text.
fn inline_label(line: &str) -> Option<(&str, String, &str)> {
    let dash = line.find(['—', '–']).into_iter().chain(line.find("--")).min();
    let open = line.find('(');
    if let Some(open) = open.filter(|&o| dash.is_none_or(|d| o < d)) {
        let name = line[..open].trim();
        if !(label_name(name) || chair_label(name)) {
            return None;
        }
        // The groups in parentheses, one after another.
        let mut rest = &line[open..];
        let mut parts: Vec<&str> = Vec::new();
        while let Some(after) = rest.strip_prefix('(') {
            let close = after.find(')')?;
            parts.push(&rest[..close + 2]);
            rest = after[close + 1..].trim_start();
        }
        if !label_parts(&parts.concat()) {
            return None;
        }
        let (words, dashed) = match after_dash(rest) {
            Some(w) => (w.trim(), true),
            None => (rest.trim(), false),
        };
        let sentence = words
            .starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit() || "\"'‘“[".contains(c));
        if words.is_empty() || words.starts_with(':') || !(dashed || sentence) {
            return None;
        }
        let kept: Vec<&str> = parts.into_iter().filter(|p| !time_part(p)).collect();
        return Some((name, kept.join(" "), words));
    }
    let d = dash?;
    let name = line[..d].trim();
    let words = after_dash(&line[d..])?.trim();
    let plain = label_name(name) && name.split_whitespace().count() >= 2;
    (!words.is_empty() && (plain || chair_label(name))).then_some((name, String::new(), words))
}

/// The label a known name, a presiding officer's or the members' label opens `line` with,
/// followed by words that start as a sentence does (`The SPEAKER Order!`, `Hon. Members Hear,
/// hear!`, `Mr John Smith Will he answer?` once `Mr John Smith (Brighton) (Lab)` has spoken):
/// the label and the words.
fn known_label<'a>(line: &'a str, known: &HashSet<String>) -> Option<(&'a str, &'a str)> {
    let ends = line.match_indices(' ').map(|(i, _)| i).take(MAX_NAME_WORDS);
    let mut found = None;
    for end in ends {
        let (name, words) = (&line[..end], line[end..].trim_start());
        let words = after_dash(words).map_or(words, str::trim_start);
        let sentence = words
            .starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit() || "\"'‘“[".contains(c));
        if sentence && (known.contains(name) || chair_label(name)) {
            found = Some((name, words));
        }
    }
    found
}

/// The text of a transcript whose labels have no colon, as parliaments' records lay out a
/// debate: on lines of their own (the UK Parliament's Hansard web pages: the member's name,
/// then the constituency and party in parentheses on the next line or the same one, then the
/// words; a minister's office, then the name in parentheses), or on the line of the words
/// ([`inline_label`]: a name with its parts, or a name before a dash, as the Australian
/// Hansard printed them until 2011).
///
/// ```text
/// Sir Keir Starmer                     -> Sir Keir Starmer (Holborn and St Pancras) (Lab): Does…
/// (Holborn and St Pancras) (Lab)          (blank)
/// Does the Prime Minister agree…          (blank)
/// The Prime Minister (Rishi Sunak)     -> The Prime Minister (Rishi Sunak): I will tell him…
/// I will tell him what…                   (blank)
/// Sir Keir Starmer                     -> Sir Keir Starmer: He has not…
/// He has not…                             (blank)
/// Mr Lee (Bath) (LD) I rise to…        -> Mr Lee (Bath) (LD): I rise to…
/// The SPEAKER Order!                   -> The SPEAKER: Order!
/// Mr PRICE (2:52 PM) —My question…     -> Mr PRICE: My question…
/// Mr ALBANESE —because they know…      -> Mr ALBANESE: because they know…
/// ```
///
/// Each such label is joined to the first line of words under it as `Label: words` on the
/// label's line (the lines it took are left blank, so line numbers stay those of the file),
/// and is then read as a `Name:` label ([`read_untimed`]); a time in the parentheses is left
/// out. A name alone on its line, or at the start of a line without its parts, opens a turn
/// only when the text gives that name with parts in parentheses elsewhere (a member's later
/// turns), or is a presiding officer's or the members' label ([`chair_label`]) at the start
/// of a line; the parts are what tell a label from a title or a heading, so an article's
/// short capitalised lines (`Wind Power`, `By Jane Smith`) stay text. `None` unless at least
/// [`MIN_STACKED_LABELS`] labels have parts in parentheses, or [`MIN_DASH_LABELS`] stand
/// before a dash. A label too long to be read as a name is written without its parts.
fn stacked_labels(text: &str) -> Option<String> {
    let all: Vec<(&str, &str)> = split_lines(text).take(100_000).collect();
    // The non-blank lines and their index in `all`.
    let (index, lines): (Vec<usize>, Vec<&str>) = all
        .iter()
        .enumerate()
        .filter(|(_, (l, _))| !l.trim().is_empty())
        .map(|(k, (l, _))| (k, l.trim().trim_start_matches('\u{feff}')))
        .unzip();
    // Labels with parts, each with a line of words under it that is no label itself.
    let words_under = |at: usize| {
        lines.get(at).is_some_and(|l| !label_parts(l) && stacked_label(&lines, at).is_none())
    };
    // Each label: its line, the label, the lines it takes above its words, and the words.
    let mut found: Vec<(usize, String, String, usize, &str)> = Vec::new();
    let mut named: HashSet<String> = HashSet::new();
    let (mut parted, mut dashes) = (0usize, HashMap::<&str, usize>::new());
    let mut at = 0;
    while at < lines.len() {
        if let Some((name, parts, taken)) =
            stacked_label(&lines, at).filter(|(_, _, taken)| words_under(at + taken))
        {
            named.insert(name.clone());
            parted += 1;
            found.push((at, name, parts, taken, lines[at + taken]));
            at += taken + 1;
            continue;
        }
        if let Some((name, parts, words)) = inline_label(lines[at]) {
            let dashed = lines[at][name.len()..].contains(['—', '–']);
            if parts.is_empty() || dashed {
                *dashes.entry(name).or_default() += 1;
            }
            if !parts.is_empty() {
                named.insert(name.to_owned());
                parted += 1;
            }
            found.push((at, name.to_owned(), parts, 0, words));
        }
        at += 1;
    }
    let dash_turns: usize = dashes.values().sum();
    let dashed =
        dash_turns >= MIN_DASH_LABELS && dashes.len() >= 2 && dashes.values().any(|&k| k >= 2);
    if parted < MIN_STACKED_LABELS && !dashed {
        return None;
    }
    if dashed {
        named.extend(dashes.keys().map(|k| (*k).to_owned()));
    }
    let mut labels: BTreeMap<usize, (String, usize, &str)> = found
        .into_iter()
        .map(|(at, name, parts, taken, words)| {
            let full = if parts.is_empty() { name.clone() } else { format!("{name} {parts}") };
            let label = if is_name(&full) || office_label(&format!("{full}:")).is_some() {
                full
            } else {
                name
            };
            (at, (label, taken, words))
        })
        .collect();
    // Then the names alone on their line, of members named with parts, and the names at the
    // start of a line (known ones, the chair, the members).
    let mut at = 0;
    while at < lines.len() {
        if let Some((_, taken, _)) = labels.get(&at) {
            at += taken + 1;
            continue;
        }
        let line = lines[at];
        if named.contains(line) && words_under(at + 1) && !labels.contains_key(&(at + 1)) {
            labels.insert(at, (line.to_owned(), 1, lines[at + 1]));
            at += 2;
        } else if let Some((name, words)) = known_label(line, &named) {
            labels.insert(at, (name.to_owned(), 0, words));
            at += 1;
        } else {
            at += 1;
        }
    }
    // The rewritten text: a label's line gets `Label: words`, the lines it joined are blank.
    let mut blank: HashSet<usize> = HashSet::new();
    let mut joined: HashMap<usize, String> = HashMap::new();
    for (&at, (label, taken, words)) in &labels {
        joined.insert(index[at], format!("{label}: {words}"));
        blank.extend((1..=*taken).map(|k| index[at + k]));
    }
    let mut out = String::with_capacity(text.len() + 64 * labels.len());
    for (k, (line, ending)) in all.iter().enumerate() {
        match joined.get(&k) {
            Some(j) => out.push_str(j),
            None if blank.contains(&k) => {}
            None => out.push_str(line),
        }
        out.push_str(ending);
    }
    // Lines past the cap, as they are.
    let kept: usize = all.iter().map(|(l, e)| l.len() + e.len()).sum();
    out.push_str(&text[kept..]);
    Some(out)
}

/// Longest value of a transcript's field ([`field_block`]), in words.
const FIELD_WORDS: usize = 20;

/// `(key, value)` of a `Key: value` line that may be a transcript's field or a speaker's
/// label: one to three words before the first colon, the first capitalised, of letters,
/// digits, spaces, `.`, `-`, `'` and `_`; then a value. Looser than [`name_colon`] on the value
/// (`Date: 12/03/1998`, `Length: 1:02:03`) and stricter on the key.
fn field_line(line: &str) -> Option<(&str, &str)> {
    let t = line.trim().trim_start_matches('\u{feff}');
    let i = t.find([':', '：'])?;
    let colon = t[i..].chars().next().map_or(1, char::len_utf8);
    let (key, value) = (t[..i].trim(), t[i + colon..].trim());
    let words = key.split_whitespace().count();
    let shaped = key.chars().next().is_some_and(char::is_uppercase)
        && key.chars().all(|c| c.is_alphanumeric() || " .-'_".contains(c))
        && (1..=3).contains(&words);
    (shaped && !value.is_empty()).then_some((key, value))
}

/// A transcript's fields above its turns (an oral history's `Project:`, `Interviewer:`,
/// `Narrator:`, `Date:`; a debate's `PARTICIPANTS:` and `MODERATOR:`), which would otherwise
/// be read as speakers who say one thing each (or make the file look like a mail's header,
/// refused as no transcript). The block is the first run of two or more `Key: value` lines
/// ([`field_line`]; or one whose key is a document's, `Date:`, `Title:`) near the top (after at most a title or two: the first
/// [`FIELD_SEARCH_LINES`] lines), each value short (at most [`FIELD_WORDS`] words) and each
/// key coming once in the whole text, or labelling turns below but with a name for its value
/// (two to five capitalised words, no sentence end: `Interviewer: Jane Smith`), one key at
/// least coming once; it ends at a blank line or at a turn whose label comes back, and below it
/// at least two labels come back as speakers' do. Returns the text
/// with the block's lines blanked (line numbers kept), the block's first line and its keys.
///
/// ```text
/// Project: Valley Voices          ┐
/// Interviewer: Jane Smith         │ fields: each key once, short values → blanked
/// Date: 3/3/1998                  ┘
///
/// SMITH: Where were you born?     ┐ turns: SMITH and BROWN come back
/// BROWN: In Fresno.               │
/// SMITH: And your father?         │
/// BROWN: He farmed.               ┘
/// ```
fn field_block(text: &str) -> Option<(String, usize, Vec<String>)> {
    let all: Vec<(&str, &str)> = split_lines(text).take(100_000).collect();
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for (line, _) in &all {
        if let Some((key, _)) = field_line(line) {
            *counts.entry(key).or_default() += 1;
        }
    }
    let start =
        all.iter().take(FIELD_SEARCH_LINES).position(|(line, _)| field_line(line).is_some())?;
    // A key that labels turns below is a field here only when its value is a name
    // (`Interviewer: Jane Smith` above `Interviewer: Where were you born?`).
    let name_like = |value: &str| {
        let words: Vec<&str> = value.split_whitespace().collect();
        (2..=5).contains(&words.len())
            && words.iter().all(|w| w.chars().next().is_some_and(char::is_uppercase))
            && !value.ends_with(SENTENCE_ENDS)
    };
    let (mut end, mut once) = (start, 0usize);
    while let Some((key, value)) = all.get(end).and_then(|(line, _)| field_line(line)) {
        let short = value.split_whitespace().count() <= FIELD_WORDS;
        if !(short && (counts[key] == 1 || name_like(value))) {
            break;
        }
        once += usize::from(counts[key] == 1);
        end += 1;
    }
    let stop_fits = all.get(end).is_none_or(|(line, _)| {
        line.trim().is_empty() || field_line(line).is_some_and(|(key, _)| counts[key] >= 2)
    });
    // One field alone is a field when its key is a document's (`Date:`, `Title:`; a
    // [`FIELD_NAMES`] key that comes once) and its value no sentence: a rush transcript's air
    // date under its title, not a `Host: Welcome to the show.` turn said once at the top.
    let single = end - start == 1
        && field_line(all[start].0).is_some_and(|(key, value)| {
            counts[key] == 1
                && FIELD_NAMES.contains(&key.to_lowercase().as_str())
                && !value.ends_with(SENTENCE_ENDS)
        });
    if (end - start < 2 && !single) || once == 0 || !stop_fits {
        return None;
    }
    let mut below: HashMap<&str, usize> = HashMap::new();
    for (line, _) in &all[end..] {
        if let Some((key, _)) = field_line(line) {
            *below.entry(key).or_default() += 1;
        }
    }
    // Below a block, two labels come back; below a document's one field, turns as
    // [`untimed_turns`] counts them (two labels or more, one of them back).
    let back = below.values().filter(|&&n| n >= 2).count();
    if back < 2 && !(single && back >= 1 && below.len() >= 2) {
        return None;
    }
    let keys = all[start..end].iter().filter_map(|(l, _)| field_line(l)).map(|(k, _)| k.to_owned());
    let mut out = String::with_capacity(text.len());
    for (i, (line, ending)) in all.iter().enumerate() {
        if !(start..end).contains(&i) {
            out.push_str(line);
        }
        out.push_str(ending);
    }
    let kept: usize = all.iter().map(|(l, e)| l.len() + e.len()).sum();
    out.push_str(&text[kept..]);
    Some((out, start + 1, keys.collect()))
}

/// How far from the top a transcript's fields may begin ([`field_block`]), in lines.
const FIELD_SEARCH_LINES: usize = 12;

/// The lines of `text` with their terminators (`\n`, `\r\n` or `\r`, as
/// [`ReadContext::lines`] splits them).
fn split_lines(text: &str) -> impl Iterator<Item = (&str, &str)> {
    // Where the rest of the text starts, and the next `\n` at or after it once looked for
    // (`Some(None)`: none is left), so that no byte is searched twice: single-byte searches,
    // fast even in a debug build, in linear time whatever the line endings.
    let mut at = 0usize;
    let mut feed: Option<Option<usize>> = None;
    std::iter::from_fn(move || {
        if at >= text.len() {
            return None;
        }
        let rest = &text[at..];
        let lf = match feed {
            Some(Some(i)) if i >= at => Some(i),
            Some(None) => None,
            _ => {
                let found = rest.find('\n').map(|i| at + i);
                feed = Some(found);
                found
            }
        };
        let cut = match lf {
            Some(i) => text[at..i].find('\r').map(|j| at + j).or(Some(i)),
            None => rest.find('\r').map(|j| at + j),
        };
        let (line, ending, next) = match cut {
            Some(i) => {
                let len = if text[i..].starts_with("\r\n") { 2 } else { 1 };
                (&text[at..i], &text[i..i + len], i + len)
            }
            None => (rest, "", text.len()),
        };
        at = next;
        Some((line, ending))
    })
}

/// `line` without the number Hansard puts before a member's question (`1. Name (Constituency)
/// (Party): text`; at Prime Minister's Questions `Q1. [901234] Name (Constituency) (Party):`,
/// with the question's reference in brackets). Only before a label with a part in
/// parentheses, so that a numbered point in a turn (`1. First: we cut taxes`) stays text; a
/// select committee's `Q123 Chair:` (a `Q`, no period) before any capitalised label.
fn question_number(line: &str) -> &str {
    let t = line.trim_start();
    let digits = t.strip_prefix('Q').unwrap_or(t);
    let n = digits.bytes().take_while(u8::is_ascii_digit).count();
    // A select committee's evidence numbers its questions `Q123 Chair:`: a `Q`, the number,
    // whitespace, then a capitalised `Name:` label.
    if digits.len() < t.len() && (1..=4).contains(&n) {
        if let Some(rest) = digits[n..].strip_prefix([' ', '\t']).map(str::trim_start) {
            if name_colon(rest).is_some_and(|(name, _)| capitalised(name)) {
                return rest;
            }
        }
    }
    let Some(rest) = digits[n..].strip_prefix(". ").filter(|_| (1..=3).contains(&n)) else {
        return line;
    };
    let mut rest = rest.trim_start();
    if let Some(after) = rest.strip_prefix('[') {
        let close = after.find(']').unwrap_or(0);
        if close == 0 || !after[..close].bytes().all(|b| b.is_ascii_digit()) {
            return line;
        }
        rest = after[close + 1..].trim_start();
    }
    let labelled = rest.find(':').is_some_and(|colon| {
        rest[..colon].contains('(') && rest[..colon].trim_end().ends_with(')')
    });
    if labelled {
        rest
    } else {
        line
    }
}

/// The speaker of an examination's answers (`A.`): court reporters label the witness so when
/// they speak outside the questions and answers (`THE WITNESS:  May I explain?`).
const WITNESS: &str = "THE WITNESS";

/// The examiner a court transcript names before the questions (`BY MR. SMITH:` on its own
/// line): the name.
fn examiner_line(line: &str) -> Option<&str> {
    let line = line.trim().strip_suffix(':')?;
    // `BY MR. SMITH:`, or after the heading on one line (`CROSS-EXAMINATION BY MS. DOE:`).
    let name = match line.strip_prefix("BY ") {
        Some(name) => name,
        None => {
            let (heading, name) = line.split_once(" BY ")?;
            if !heading.contains("EXAMINATION") || heading.chars().any(char::is_lowercase) {
                return None;
            }
            name
        }
    }
    .trim();
    (is_name(name) && capitalised(name)).then_some(name)
}

/// Words of a swearing-in line after the witness's name: one of them says who the name is.
const SWORN_WORDS: &[&str] = &["witness", "sworn", "affirmed"];

/// The witness a court or deposition transcript names as it swears them in, on a line of its
/// own before the examination: `JOHN JONES, called as a witness, having been duly sworn,
/// testified as follows:` (or `…, having been first duly sworn, was examined and testified as
/// follows:`). A name of two words or more in capitals, a comma, then words with `witness`,
/// `sworn` or `affirmed`, ending with `follows:` or `follows.`. A name in mixed case (`John
/// Smith, having been first duly sworn, testified as follows:`) needs `sworn` or `affirmed`,
/// so that `Ana Ruiz, the witness, said as follows:` stays text. The name: the `A.` answers
/// and `THE WITNESS:` turns below it, up to the next such line, are that witness's.
fn witness_line(line: &str) -> Option<&str> {
    let (name, rest) = line.trim().split_once(',')?;
    let rest = rest.trim().to_lowercase();
    let name = name.trim();
    let ends = rest.ends_with("follows:") || rest.ends_with("follows.");
    let sworn = ends && SWORN_WORDS.iter().any(|w| rest.contains(w));
    let oath = ends && SWORN_WORDS[1..].iter().any(|w| rest.contains(w));
    let words = name.split_whitespace().count() >= 2;
    let capitals = words && !name.chars().any(char::is_lowercase);
    let mixed = words && capitalised(name) && oath;
    (((sworn && capitals) || mixed) && is_name(name) && name.starts_with(char::is_alphabetic))
        .then_some(name)
}

/// The swearing-in lines that run over two lines (`JOHN SMITH, called as a witness by the
/// Plaintiff, having been` / `first duly sworn, testified as follows:`): the first line's
/// number (1-based) with the witness's name, and the second lines' numbers.
fn sworn_over_two_lines(text: &str) -> (HashMap<usize, String>, HashSet<usize>) {
    let (mut first, mut second) = (HashMap::new(), HashSet::new());
    let lines: Vec<(usize, &str)> = split_lines(text)
        .take(100_000)
        .enumerate()
        .map(|(k, (l, _))| (k + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty())
        .collect();
    for pair in lines.windows(2) {
        let ((n, a), (m, b)) = (pair[0], pair[1]);
        if a.len() > 300 || b.len() > 300 || witness_line(a).is_some() || !a.contains(',') {
            continue;
        }
        let b_ends = b.to_lowercase();
        if !(b_ends.ends_with("follows:") || b_ends.ends_with("follows.")) {
            continue;
        }
        if let Some(name) = witness_line(&format!("{a} {b}")) {
            first.insert(n, name.to_owned());
            second.insert(m);
        }
    }
    (first, second)
}

/// Whether a line lists the witnesses of a hearing (`Witnesses: Sir John Smith, Chief
/// Executive, and Dr Ana Ruiz.`, as committee evidence opens each panel): no one's words.
fn witness_list(line: &str) -> bool {
    name_colon(line.trim()).is_some_and(|(label, _)| matches!(label, "Witnesses" | "WITNESSES"))
}

/// Labels of a field that names the witness of a deposition or hearing (`Witness: Ana Ruiz`,
/// `DEPONENT: JOHN SMITH`).
const WITNESS_FIELDS: &[&str] = &["Witness", "WITNESS", "Deponent", "DEPONENT"];

/// The witness a `Witness:` field names ([`WITNESS_FIELDS`]): a capitalised name of two to
/// five words and nothing else (`Witness: I do.` is an answer).
fn witness_field(line: &str) -> Option<&str> {
    let (label, name) = name_colon(line.trim())?;
    let words = name.split_whitespace().count();
    let plain = !name.ends_with(['.', '?', '!', ',', ';', ':']) && !name.contains(['(', ')']);
    (WITNESS_FIELDS.contains(&label)
        && (2..=5).contains(&words)
        && plain
        && capitalised(name)
        && name.starts_with(char::is_alphabetic))
    .then_some(name)
}

/// Whether a line is the Government Publishing Office's note that material inserted into the
/// record follows (`[Prepared statement of Chairman Comer follows:]`, `[The information
/// follows:]`): what follows it, up to the next speaker's label, was never spoken.
fn insertion_note(line: &str) -> bool {
    let t = line.trim();
    t.starts_with('[')
        && t.len() < 300
        && t.to_lowercase().ends_with("follows:]")
        && !t[1..].contains('[')
}

/// Whether a line between the turns of a mixed-case transcript is a heading: three letters or
/// more, none in lower case, no transcriber's note (`(CROSSTALK)`, `[LAUGHTER]`) and no
/// sentence's end or cut-off (`CROSS-EXAMINATION`, `ORAL ARGUMENT OF PAUL D. CLEMENT`,
/// `P R O C E E D I N G S`; `NO!` and `WAIT --` are speech).
fn heading(line: &str) -> bool {
    let t = line.trim();
    t.chars().filter(|c| c.is_alphabetic()).count() >= 3
        && !t.chars().any(char::is_lowercase)
        && !t.starts_with(['(', '['])
        && !t.ends_with(['.', '?', '!', ',', ';', ':', '-', '–', '—', '…', ')', ']', '"', '”'])
}

/// The time `words` words take at [`WORDS_PER_SECOND`] (at least one word's worth), in µs.
fn words_time(words: i64) -> i64 {
    words.max(1).saturating_mul(MICROS_PER_SECOND) / WORDS_PER_SECOND
}

/// A turn another reader found with its start and perhaps its end (a Podcasting 2.0 segment
/// without `endTime`), placed by [`place_turns`].
pub(crate) struct StartTurn {
    /// Where the turn is in its file (line and column, 1-based).
    pub(crate) at: (usize, usize),
    pub(crate) speaker: String,
    pub(crate) start: Time,
    /// The end the file gives: kept, not estimated.
    pub(crate) end: Option<Time>,
    pub(crate) text: String,
}

/// Places turns whose ends are missing as paragraphs are placed (see the module doc: ends are
/// estimated): each ends at the next later start, or earlier by its words, and is marked
/// estimated; a turn with an end keeps it.
pub(crate) fn place_turns(
    turns: Vec<StartTurn>,
    b: &mut TranscriptBuilder,
    ctx: &mut ReadContext<'_>,
) -> Result<()> {
    let paragraphs = turns
        .into_iter()
        .map(|t| Paragraph {
            line: t.at.0,
            column: t.at.1,
            speaker: t.speaker,
            start: t.start,
            end: t.end,
            text: t.text,
            defaulted: false,
        })
        .collect();
    place(paragraphs, b, ctx)
}

/// Places every paragraph (see the module doc: ends are estimated), in time order, and adds
/// its track and marks.
///
/// A paragraph ends by its words, and no later than the next *later* start in time (not the
/// next paragraph in the file, which may start earlier in an edited file). Paragraphs that
/// share a start time (a file whose clock counts whole seconds: `Henry (02:02)` then
/// `Jory (02:02)`) are laid one after another in file order from that time, each by its
/// words, and squeezed in proportion to them when they would run past the next later start:
///
/// ```text
/// file       Henry (02:02) 2 words   Jory (02:02) 6 words   Ana (02:10)
/// placed     Henry [122 ─ 123)       Jory [123 ─── 126)     Ana [130 …
/// next 02:03 Henry [122 ┤122.25)     Jory [122.25 ─ 123)    Ana [123 …
/// ```
///
/// so no two paragraphs overlap (nothing in such a file says they did). One
/// [`WarningKind::Note`] counts the paragraphs moved after a shared start.
fn place(
    paragraphs: Vec<Paragraph>,
    b: &mut TranscriptBuilder,
    ctx: &mut ReadContext<'_>,
) -> Result<()> {
    // File order within each start time: a stable sort by start.
    let mut order: Vec<usize> = (0..paragraphs.len()).collect();
    order.sort_by_key(|&i| paragraphs[i].start);
    let mut starts = vec![Time::ZERO; paragraphs.len()];
    let mut ends = vec![Time::ZERO; paragraphs.len()];
    let mut moved: Option<(usize, usize)> = None;
    let mut g = 0;
    while g < order.len() {
        let t = paragraphs[order[g]].start;
        let h = g + order[g..].iter().take_while(|&&i| paragraphs[i].start == t).count();
        // Paragraphs with an end of their own (a time range) keep it; the others are laid
        // out after each other from the shared start.
        for &i in &order[g..h] {
            if let Some(end) = paragraphs[i].end {
                starts[i] = t;
                ends[i] = end;
            }
        }
        let group: Vec<usize> =
            order[g..h].iter().copied().filter(|&i| paragraphs[i].end.is_none()).collect();
        let group = &group[..];
        let bound = order.get(h).map(|&i| paragraphs[i].start);
        let needs: Vec<i64> =
            group.iter().map(|&i| words_time(word_count(&paragraphs[i].text))).collect();
        let total = needs.iter().fold(0i64, |a, &n| a.saturating_add(n));
        let room = bound.map_or(total, |u| u.micros().saturating_sub(t.micros()).min(total));
        // Offsets from t: the running sum of the needs, scaled to the room when it is short.
        let mut before = 0i64;
        for (&i, &need) in group.iter().zip(&needs) {
            let offset = |sum: i64| -> i64 {
                if room == total {
                    sum
                } else {
                    (i128::from(sum) * i128::from(room) / i128::from(total.max(1))) as i64
                }
            };
            let (from, to) = (offset(before), offset(before.saturating_add(need)));
            before = before.saturating_add(need);
            let cap = |us: i64| Time::from_micros(t.micros().saturating_add(us).min(MAX_MICROS));
            starts[i] = cap(from);
            ends[i] = cap(to);
        }
        if group.len() > 1 {
            let first_moved = group[1..].iter().map(|&i| paragraphs[i].line).min().unwrap_or(0);
            let m = moved.get_or_insert((first_moved, 0));
            m.0 = m.0.min(first_moved);
            m.1 += group.len() - 1;
        }
        g = h;
    }
    if let Some((line, count)) = moved {
        ctx.warn_at(
            WarningKind::Note,
            line,
            Some(1),
            format!("{count} paragraph(s) start at the same time as the one above them; each is placed after it, by its words (start and end estimated)"),
        )?;
    }
    for (i, p) in paragraphs.into_iter().enumerate() {
        let (start, end) = (starts[i], ends[i]);
        marks_in(&p.text, &p.speaker, Some(start), b);
        let content = (!p.text.is_empty()).then(|| Content::text(p.text));
        if let Some(seg) = Segment::new(start, end) {
            b.add(seg, &p.speaker, content);
            if p.end.is_none() {
                b.end_estimated();
            }
        } else {
            ctx.warn_at(
                WarningKind::ZeroDuration,
                p.line,
                Some(p.column),
                format!("paragraph at {} has no duration; dropped", p.start),
            )?;
            b.speaker(&p.speaker);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MarkKind;

    /// The turns of an untimed transcript read from `text` (format found from the content):
    /// speaker and words, and the warnings.
    fn untimed_turns_of(text: &str) -> (Vec<(String, String)>, Vec<String>) {
        // A field `Length: 1:02:03` reads as Otter's `Name 0:00` header: that dialect's reader
        // is this one.
        let format = crate::format::detect(Some("t.txt"), text, None).unwrap();
        assert!(matches!(format, Format::Paragraphs | Format::Otter), "{format:?}");
        let opts = crate::format::ReadOptions::default();
        let out = crate::format::read_str(text, format, &opts).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        let turns = t
            .untimed()
            .iter()
            .map(|u| (t.annotation().speaker_name(u.speaker).to_owned(), u.content.display_text()))
            .collect();
        (turns, out.warnings.iter().map(ToString::to_string).collect())
    }

    /// An oral history's fields above its turns are set aside with a note, not read as speakers
    /// who say one thing each (nor, as a mail's header, refused); so are a debate's
    /// `PARTICIPANTS:` and `MODERATOR:`, and a field whose key labels turns below when its value
    /// is a name.
    #[test]
    fn a_transcripts_fields_are_no_turns() {
        let turns = "SMITH: Where were you born?\nBROWN: In Fresno, in 1921.\nSMITH: And your father?\nBROWN: He grew grapes.\n";
        let text = format!("Valley Voices Oral History\n\nProject: Valley Voices\nInterviewer: Jane Smith\nDate: 3/3/1998\nLength: 1:02:03\n\n{turns}");
        let (read, warnings) = untimed_turns_of(&text);
        let names: Vec<&str> = read.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["SMITH", "BROWN", "SMITH", "BROWN"]);
        assert_eq!(read[0].1, "Where were you born?");
        assert!(
            warnings.contains(&"line 3, column 1: 4 line(s) at the top are the transcript's fields (`Project:`, `Interviewer:`, `Date:`, `Length:`), not speakers' turns: set aside (the turns below come back to their speakers; a field's key comes once, or names a speaker) (note)".to_string()),
            "{warnings:?}"
        );
        // Without a blank line below them: they end at the first turn whose label comes back.
        let (read, _) = untimed_turns_of(&format!(
            "PARTICIPANTS: Ann Lee and Bo Park\nMODERATOR: Cy Diaz\n{turns}"
        ));
        assert_eq!(read.len(), 4);
        // A key that labels turns below, with a name for its value: a field.
        let labelled = "Project: Valley Voices\nInterviewer: Jane Smith\nNarrator: Robert Brown\n\nInterviewer: Where were you born?\nNarrator: In Fresno.\nInterviewer: And your father?\nNarrator: He grew grapes.\n";
        let (read, _) = untimed_turns_of(labelled);
        assert_eq!(read[0], ("Interviewer".to_string(), "Where were you born?".to_string()));
        assert_eq!(read.len(), 4);
    }

    /// What is no field block: turns whose speakers come back (`HOST: Hi there`), a single
    /// field, lines whose values are sentences of a speaker who speaks once, and fields with no
    /// turns below whose labels come back.
    #[test]
    fn field_blocks_need_keys_that_come_once_and_turns_below() {
        let below = "\nANA: One.\nBO: Two.\nANA: Three.\nBO: Four.\n";
        assert!(field_block(&format!("ANA: Hi there\nBO: Hello you{below}")).is_none());
        assert!(field_block(&format!("Project: Valley Voices{below}")).is_none());
        // A value with more words than a field's is a turn.
        let long = "CY: I want to say a few words before we start, because this matters a great deal to all of us here tonight.";
        assert!(field_block(&format!("Date: today\n{long}\n{below}")).is_none());
        assert!(
            field_block("From: ann@example.com\nTo: bo@example.com\n\nHi Bo, see you.\n").is_none()
        );
        let (text, line, keys) =
            field_block(&format!("Date: today\nPlace: here\n{below}")).unwrap();
        assert_eq!((line, keys), (1, vec!["Date".to_string(), "Place".to_string()]));
        assert_eq!(text, format!("\n\n{below}"));
    }

    /// A debate's rush transcript: turns by name, no times. Found from the content or forced
    /// with `--from paragraphs`, it is read as an untimed transcript: one utterance per turn in
    /// file order, the lines under a name its continuation, the title skipped, the notes kept.
    #[test]
    fn turns_without_times_are_an_untimed_transcript() {
        let text = "CNN DEMOCRATIC DEBATE\nOctober 13, 2015\n\nCOOPER: Welcome to the debate.\n\nCHAFEE: Thank you, Anderson. I want --\n\n(CROSSTALK)\n\nCOOPER: Governor, you were a Republican.\nLook: it matters.\n";
        assert_eq!(
            crate::format::detect(Some("debate.txt"), text, None).unwrap(),
            Format::Paragraphs
        );
        let opts = crate::format::ReadOptions::default();
        let out = crate::format::read_str(text, Format::Paragraphs, &opts).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        assert!(t.is_untimed());
        let turns: Vec<(String, String, usize)> = t
            .untimed()
            .iter()
            .map(|u| {
                let name = t.annotation().speaker_name(u.speaker).to_owned();
                (name, u.content.display_text(), u.line)
            })
            .collect();
        assert_eq!(
            turns,
            vec![
                ("COOPER".into(), "Welcome to the debate.".into(), 4),
                ("CHAFEE".into(), "Thank you, Anderson. I want --\n(CROSSTALK)".into(), 6),
                // Names in capitals open the turns here, so `Look:` is text.
                ("COOPER".into(), "Governor, you were a Republican.\nLook: it matters.".into(), 10),
            ]
        );
        let marks: Vec<(MarkKind, Option<&str>)> =
            t.marks().iter().map(|m| (m.kind, m.speaker.as_deref())).collect();
        assert_eq!(marks, vec![(MarkKind::Crosstalk, Some("CHAFEE"))]);
        let said: Vec<String> = out.warnings.iter().map(|w| w.to_string()).collect();
        assert!(
            said.iter().any(|w| w.contains("2 line(s) above the first speaker's turn skipped")),
            "{said:?}"
        );
        assert!(
            said.iter().any(|w| w.contains("untimed transcript of 3 utterance(s) by 2 speaker(s)")),
            "{said:?}"
        );
        // The title is the document's head, not a defect: --strict reads the same turns.
        let strict = crate::format::ReadOptions { strict: true, ..Default::default() };
        let strictly = crate::format::read_str(text, Format::Paragraphs, &strict).unwrap();
        assert_eq!(strictly.corpus.iter().next().unwrap().1.untimed().len(), 3);
        // Two people with one surname keep their full names.
        let two =
            "BILL CLINTON: Hello.\nHILLARY CLINTON: Hi.\nCLINTON: Well.\nBILL CLINTON: Yes.\n";
        let out = crate::format::read_str(two, Format::Paragraphs, &opts).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        assert_eq!(t.annotation().speakers().len(), 3);
        // A speaker named in full at the first turn and by surname after is one speaker; a
        // `Name:` line without words opens a turn only under a name that speaks elsewhere.
        let introduced = "FULL TRANSCRIPT:\nANDERSON COOPER, CNN ANCHOR: Good evening.\nSEN. BERNIE SANDERS (I-VT): Thanks.\nCOOPER: Senator --\nSANDERS:\nNo.\nCOOPER: Fine.\nSANDERS: Good.\n";
        let out = crate::format::read_str(introduced, Format::Paragraphs, &opts).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        let names: Vec<&str> =
            t.untimed().iter().map(|u| t.annotation().speaker_name(u.speaker)).collect();
        assert_eq!(names, ["COOPER", "SANDERS", "COOPER", "SANDERS", "COOPER", "SANDERS"]);
        assert_eq!(t.untimed()[3].content.display_text(), "No.");
        let said: Vec<String> = out.warnings.iter().map(|w| w.to_string()).collect();
        assert!(
            said.iter().any(|w| w.contains(
                "ANDERSON COOPER, CNN ANCHOR → COOPER; SEN. BERNIE SANDERS (I-VT) → SANDERS"
            )),
            "{said:?}"
        );
        assert!(
            said.iter().any(|w| w.contains("1 line(s) above the first speaker's turn skipped")),
            "{said:?}"
        );
        // Names in mixed case open turns when most names are so.
        let mixed = "Ana Ruiz: Hello there.\nBo: Hi.\nAna Ruiz: Shall we?\n";
        let out = crate::format::read_str(mixed, Format::Paragraphs, &opts).unwrap();
        assert_eq!(out.corpus.iter().next().unwrap().1.untimed().len(), 3);
        // Headers and fields are no turns when nothing names the format.
        let mail = "From: Ana Ruiz <ana@example.org>\nTo: Bo Lind <bo@example.org>\nSubject: Re: the plan\nFrom: Bo Lind <bo@example.org>\n";
        assert!(crate::format::detect(Some("mail.txt"), mail, None).is_err());
        let fields = "Host: example.org\nAccept: text/html\nHost: example.com\nAccept: */*\n";
        assert!(crate::format::detect(Some("req.txt"), fields, None).is_err());
        let terse = "Key: value\nOther: thing\nKey: more\nOther: stuff\n";
        assert!(crate::format::detect(Some("conf.txt"), terse, None).is_err());
        // A title with a comma is no CSV header.
        let titled = format!("TOWN HALL DEBATE, TRANSCRIPT\n\n{text}");
        assert_eq!(
            crate::format::detect(Some("rush.txt"), &titled, None).unwrap(),
            Format::Paragraphs
        );
        // Prose with a colon or two is no transcript of turns.
        assert_eq!(untimed_turns("Note: this is it.\nThe plan: ship it.\nAna: hi\n"), None);
        let e = crate::format::detect(Some("notes.txt"), "Note: this is it.\n", None).unwrap_err();
        assert!(e.to_string().contains("cannot tell the format"), "{e}");
    }

    /// Fast exchanges are transcripts too: turns of a word or two (under two and a half words a
    /// turn) when the speakers alternate and most turns end as sentences; before, they were
    /// not found from the content ("cannot tell the format"). An exchange of two lines alone
    /// is read as two turns given `--from paragraphs` (before, it was no turns), but is not
    /// told from the content: two labelled sentences are as often notes. Prose with a colon,
    /// a list of keys, notes, a README, a mail's head and two labelled lines stay no
    /// transcript.
    #[test]
    fn rush_exchanges_are_turns_and_prose_with_a_colon_is_not() {
        let detect = |text: &str| crate::format::detect(Some("t.txt"), text, None);
        let opts = crate::format::ReadOptions::default();
        let names_of = |text: &str| -> Vec<(String, String)> {
            let out = crate::format::read_str(text, Format::Paragraphs, &opts).unwrap();
            let t = out.corpus.iter().next().unwrap().1;
            t.untimed()
                .iter()
                .map(|u| {
                    (t.annotation().speaker_name(u.speaker).to_owned(), u.content.display_text())
                })
                .collect()
        };
        let pair = |a: &str, b: &str| (a.to_owned(), b.to_owned());
        let rush = "ANA: Yes.\nBO: No.\nANA: Why?\nBO: Because.\n";
        assert_eq!(detect(rush).unwrap(), Format::Paragraphs);
        assert_eq!(
            names_of(rush),
            [pair("ANA", "Yes."), pair("BO", "No."), pair("ANA", "Why?"), pair("BO", "Because.")]
        );
        let two = "Ana: Are you coming tonight?\nBo: Yes, in a minute.\n";
        assert_eq!(
            names_of(&format!("\u{feff}\n{two}\n")),
            [pair("Ana", "Are you coming tonight?"), pair("Bo", "Yes, in a minute.")]
        );
        assert_eq!(
            names_of(two),
            [pair("Ana", "Are you coming tonight?"), pair("Bo", "Yes, in a minute.")]
        );
        // Short turns of one speaker after another without sentences, or one speaker twice
        // running, are no rush exchange.
        for text in [
            "Key: value\nOther: thing\nKey: more\nOther: stuff\n",
            "Ana: Yes.\nAna: No.\nBo: Why?\nBo: Because.\n",
            "Note: this is it.\nThe plan: ship it.\n",
            "Ana: Are you coming?\nAna: Yes, I am.\n",
            "We met at noon. Ana: late again.\nBo: here.\n",
            "Ana: Are you coming tonight?\nBo: Yes, in a minute.\nThe rest of the day was quiet.\n",
            "Subject: the plan.\nFrom: Ana.\n",
            two,
            "Pros: Cheap.\nCons: Slow.\n",
            "Pros: Cheap.\nCons: Slow.\nPros: Fast.\nCons: Ugly.\n",
            "Agenda: Budget review.\nAction: Ana sends the draft by Friday.\n",
            "Agenda: Budget.\nAction: Send it.\nAgenda: Hiring.\nAction: Post it.\n",
            "Note: The server restarts at noon.\nWarning: Save your work first.\n",
            "Install: Run cargo install overtalk.\nUsage: Run overtalk stats on a file.\n",
            "Subject: Lunch on Friday?\nFrom: Ana Ruiz <ana@example.org>\n",
            "Decision: We ship on Monday.\nOwner: Bo tells the team.\n",
        ] {
            let e = detect(text).unwrap_err().to_string();
            assert!(e.contains("cannot tell the format"), "{text:?}: {e}");
        }
        assert_eq!(untimed_turns("Note: this is it.\nThe plan: ship it.\n"), None);
        assert_eq!(untimed_turns("Ana: Yes, I will.\nAna: Later.\n"), None);
        assert_eq!(untimed_turns(two), None);
        assert!(two_turn_exchange(two) && !two_turn_exchange("Note: Yes.\nNote: No.\n"));
        // Two untimed turns above two timed ones: the file is read by its times, the two
        // turns above the first time skipped (with a warning), not laid out without times.
        let timed = "Ana: Hi there.\nBo: Hello.\n00:00:05 Ana: Let's begin.\n00:00:09 Bo: Sure.\n";
        assert_eq!(late_times(timed), None);
        let out = crate::format::read_str(timed, Format::Paragraphs, &opts).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        let starts: Vec<i64> = t.utterances().map(|u| u.segment.start().micros()).collect();
        assert_eq!(starts, [5_000_000, 9_000_000]);
    }

    /// A rush transcript with a stray time stamp is still read without times: every turn is
    /// kept (read by the time, the four above it were skipped and the rest laid out from one
    /// time), a timed line's speaker and words are kept, and the time lines are warned about.
    /// A cold open above more timed paragraphs than its turns stays a timed transcript.
    #[test]
    fn a_stray_time_does_not_make_turns_timed() {
        let text = "TOWN HALL\nMODERATOR: Good evening.\nSMITH: Thank you.\nJONES: I want to say --\nSMITH: Let me finish.\n[21:04:37]\nMODERATOR: Senator Jones?\n[21:05:10] JONES: We will cut taxes.\nSMITH: Not true.\n";
        let opts = crate::format::ReadOptions::default();
        let out = crate::format::read_str(text, Format::Paragraphs, &opts).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        assert!(t.is_untimed());
        let turns: Vec<(&str, String, usize)> = t
            .untimed()
            .iter()
            .map(|u| (t.annotation().speaker_name(u.speaker), u.content.display_text(), u.line))
            .collect();
        assert_eq!(
            turns,
            vec![
                ("MODERATOR", "Good evening.".to_owned(), 2),
                ("SMITH", "Thank you.".to_owned(), 3),
                ("JONES", "I want to say --".to_owned(), 4),
                ("SMITH", "Let me finish.".to_owned(), 5),
                ("MODERATOR", "Senator Jones?".to_owned(), 7),
                ("JONES", "We will cut taxes.".to_owned(), 8),
                ("SMITH", "Not true.".to_owned(), 9),
            ]
        );
        let said: Vec<String> = out.warnings.iter().map(|w| w.to_string()).collect();
        assert!(
            said.iter().any(|w| w.contains("line 6, column 1: 2 line(s) with a time among speakers' turns without times, the first here: 6 turn(s) have no time")),
            "{said:?}"
        );
        let cold_open = "HOST: Previously on the show.\nGUEST: It was wild.\nHOST: Indeed.\n[00:00:05] HOST: Welcome back.\n[00:00:09] GUEST: Thanks.\n[00:00:12] HOST: So.\n[00:00:15] GUEST: Yes.\n";
        let out = crate::format::read_str(cold_open, Format::Paragraphs, &opts).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        assert!(!t.is_untimed());
        assert_eq!(t.annotation().len(), 4);
    }

    /// A header whose time is no time (seconds 60, a missing digit) keeps its speaker: the
    /// paragraph is placed after the one above by its words, with a warning naming the line
    /// and column (an error under `--strict`), never folded into the paragraph above.
    #[test]
    fn a_header_with_a_mistyped_time_keeps_its_speaker() {
        let text = "[00:00:05] Ann: Hi there, how are you doing today?\n[00:01:60] Bob: Fine, thanks, and you?\n[00:02:12] Ann: Good.\n";
        let opts = crate::format::ReadOptions::default();
        let out = crate::format::read_str(text, Format::Paragraphs, &opts).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        let a = t.annotation();
        let turns: Vec<(&str, i64)> = a
            .tracks()
            .iter()
            .map(|tr| (a.speaker_name(tr.speaker), tr.segment.start().micros() / 1000))
            .collect();
        // Ann's 7 words take 3.5 s at 2 words a second: Bob follows at 8.5 s.
        assert_eq!(turns, vec![("Ann", 5000), ("Bob", 8500), ("Ann", 132_000)]);
        let said: Vec<String> = out.warnings.iter().map(|w| w.to_string()).collect();
        assert!(
            said.iter().any(|w| w
                .contains("line 2, column 2: \"00:01:60\" has a header's place but is no time")),
            "{said:?}"
        );
        let strict = crate::format::ReadOptions { strict: true, ..Default::default() };
        assert!(crate::format::read_str(text, Format::Paragraphs, &strict).is_err());
        assert_eq!(
            mistimed_header("Bob (00:0:60): Fine."),
            Some(("00:0:60".to_owned(), 6, Some("Bob".to_owned()), "Fine.".to_owned()))
        );
        for text in [
            "We met in (2024) again.",
            "[1.5] is the ratio",
            "Bob (00:01:02): ok",
            "[3.1.2] Scope",
            "(12.03.2024) minutes",
            "Interview (Zoë)",
            "Well (—) I said.",
            "[é] Bob: Fine.",
        ] {
            assert_eq!(mistimed_header(text), None, "{text}");
        }
    }

    /// NPR's layout: a speaker named in full with a role alone on a line, the words below, then
    /// the surname; and the copyright line under the transcript is no one's words.
    #[test]
    fn a_name_alone_on_its_line_opens_a_turn_when_introduced() {
        let text = "STEVE INSKEEP, HOST:\n\nGood morning.\n\nINSKEEP: What did you see?\n\nRACHEL MARTIN, BYLINE:\n\nWell, Steve, the water rose.\n\nINSKEEP: Thanks.\n\nMARTIN: Welcome.\n\nCopyright © 2024 NPR. All rights reserved.\n";
        let opts = crate::format::ReadOptions::default();
        let out = crate::format::read_str(text, Format::Paragraphs, &opts).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        let turns: Vec<(&str, String)> = t
            .untimed()
            .iter()
            .map(|u| (t.annotation().speaker_name(u.speaker), u.content.display_text()))
            .collect();
        assert_eq!(
            turns,
            vec![
                ("INSKEEP", "Good morning.".to_owned()),
                ("INSKEEP", "What did you see?".to_owned()),
                ("MARTIN", "Well, Steve, the water rose.".to_owned()),
                ("INSKEEP", "Thanks.".to_owned()),
                ("MARTIN", "Welcome.".to_owned()),
            ]
        );
    }

    #[test]
    fn clocks_are_strict() {
        assert_eq!(clock("0:04"), Some(Time::from_micros(4_000_000)));
        assert_eq!(clock("01:09:00"), Some(Time::from_micros(4_140_000_000)));
        assert_eq!(clock("1:02:03.5"), Some(Time::from_micros(3_723_500_000)));
        assert_eq!(clock("00:00:01,250"), Some(Time::from_micros(1_250_000)));
        for bad in ["4", "0:4", "0:60", "1:2:3", "a:00", "00:00:00:00", "0:04.", "1234:00", ""] {
            assert_eq!(clock(bad), None, "{bad}");
        }
    }

    #[test]
    fn header_shapes() {
        let h = |l| {
            header(l).map(|h| (h.shape, h.speaker, h.time.micros() / MICROS_PER_SECOND, h.text))
        };
        assert_eq!(
            h("President Donald J. Trump (01:09:00):"),
            Some((Shape::Rev, Some("President Donald J. Trump"), 4140, ""))
        );
        assert_eq!(h("Chris Wallace: (01:20)"), Some((Shape::Rev, Some("Chris Wallace"), 80, "")));
        assert_eq!(
            h("Senator Smith: Chair: (00:01:00) Thank you."),
            Some((Shape::Rev, Some("Senator Smith: Chair"), 60, "Thank you."))
        );
        assert_eq!(h("Ana (SL) (00:05): hola"), Some((Shape::Rev, Some("Ana (SL)"), 5, "hola")));
        assert_eq!(h("Speaker 1  0:04"), Some((Shape::NameTime, Some("Speaker 1"), 4, "")));
        assert_eq!(h("Ana Ruiz 00:01:02"), Some((Shape::NameTime, Some("Ana Ruiz"), 62, "")));
        assert_eq!(h("dr. ana\t1:00"), Some((Shape::NameTime, Some("dr. ana"), 60, "")));
        assert_eq!(
            h("[00:01:02] Ana Ruiz: so then"),
            Some((Shape::Bracket, Some("Ana Ruiz"), 62, "so then"))
        );
        assert_eq!(h("[00:01:02] so then"), Some((Shape::Bracket, None, 62, "so then")));
        assert_eq!(h("0:04"), Some((Shape::TimeOnly, None, 4, "")));
        assert_eq!(h("00:01:02 Bo: right"), Some((Shape::TimeName, Some("Bo"), 62, "right")));
        // Rev exports seen in public transcripts.
        assert_eq!(h("Jon Krohn: 00:02:51"), Some((Shape::NameTime, Some("Jon Krohn"), 171, "")));
        assert_eq!(
            h("Michaela:: [00:00:00] Hello, and welcome"),
            Some((Shape::Rev, Some("Michaela"), 0, "Hello, and welcome"))
        );
        assert_eq!(h("(01:10:19):"), Some((Shape::Rev, None, 4219, "")));
        assert_eq!(
            h("(00:00:25) Anyone you meet"),
            Some((Shape::Rev, None, 25, "Anyone you meet"))
        );
        // Podcast sites: a name, then the time in brackets, with or without a colon.
        assert_eq!(
            h("Alessio [00:00:00]: Hey everyone"),
            Some((Shape::Rev, Some("Alessio"), 0, "Hey everyone"))
        );
        assert_eq!(h("Emma [0:00] Today we"), Some((Shape::Rev, Some("Emma"), 0, "Today we")));
        assert_eq!(h("Emma (0:00) Today we"), Some((Shape::Rev, Some("Emma"), 0, "Today we")));
        assert_eq!(
            h("[Speaker 1] [00:00] Yeah. I was"),
            Some((Shape::Bracket, Some("Speaker 1"), 0, "Yeah. I was"))
        );
        // A full clock before text: a nameless paragraph (Talk Python).
        assert_eq!(
            h("00:00:05 is taking it to a whole new level"),
            Some((Shape::TimeName, None, 5, "is taking it to a whole new level"))
        );
        // Labels and sentences before a colon are not speakers.
        assert_eq!(
            h("[00:00:09] Note: this was recorded remotely."),
            Some((Shape::Bracket, None, 9, "Note: this was recorded remotely."))
        );
        assert_eq!(
            h("[00:00:05] Here is the plan: we ship Friday."),
            Some((Shape::Bracket, None, 5, "Here is the plan: we ship Friday."))
        );
        assert_eq!(
            h("[00:00:05] see https://example.com"),
            Some((Shape::Bracket, None, 5, "see https://example.com"))
        );
        assert_eq!(
            h("[00:00:05] Ana de la Cruz: hola"),
            Some((Shape::Bracket, Some("Ana de la Cruz"), 5, "hola"))
        );
        for text in [
            "we met (10:30) yesterday",
            "[inaudible 00:01:02] and so",
            "10:30 is when we meet",
            "The meeting ended at 10:30",
            "we left at 10:30",
            "Well, we left at 9:15",
            "So as I said [00:10:02] we",
            "we met [10:30] yesterday",
            "The meeting starts: 10:30",
        ] {
            assert_eq!(header(text).map(|h| h.shape), None, "{text}");
        }
    }

    #[test]
    fn hostile_lines_stay_linear() {
        let started = std::time::Instant::now();
        let parens = "(".repeat(1 << 20) + "0:00)";
        assert_eq!(header(&parens), None);
        // A window that would end inside a character (found by the garbage test).
        assert_eq!(header("[-Èôq†#§q·dÎP»…7"), None);
        let brackets = "[".repeat(1 << 20);
        let mut b = TranscriptBuilder::new();
        marks_in(&brackets, "a", Some(Time::ZERO), &mut b);
        // A note window that would end inside a character (found by fuzzing).
        marks_in(&format!("[{}]", "€".repeat(100)), "a", Some(Time::ZERO), &mut b);
        assert!(b.build().marks().is_empty());
        // Not a speed measurement: a quadratic scan of these 2^20-character lines takes hours,
        // a linear one well under a second, so a generous guard separates them on any machine.
        assert!(started.elapsed() < std::time::Duration::from_secs(120));
    }

    #[test]
    fn markup_is_not_speech() {
        for line in ["## Contribution 2", "---", "* * *", "Transcribed by https://otter.ai"] {
            assert!(is_markup(line), "{line}");
        }
        for line in ["#blessed", "-- so", "I said --- no", "Transcribed by hand"] {
            assert!(!is_markup(line), "{line}");
        }
    }

    #[test]
    fn word_counts_skip_notes() {
        assert_eq!(word_count("I think [crosstalk 00:13:22] so -- yes."), 4);
        assert_eq!(word_count("[laughter]"), 0);
    }

    /// The turns of an untimed transcript read with `--from paragraphs` (speaker, text, line)
    /// and the warnings; also checks that the content alone names the format.
    fn untimed_read(text: &str) -> (Vec<(String, String, usize)>, Vec<String>) {
        assert_eq!(crate::format::detect(None, text, None).unwrap(), Format::Paragraphs);
        let opts = crate::format::ReadOptions::default();
        let out = crate::format::read_str(text, Format::Paragraphs, &opts).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        assert!(t.is_untimed());
        let turns = t
            .untimed()
            .iter()
            .map(|u| {
                let name = t.annotation().speaker_name(u.speaker).to_owned();
                (name, u.content.display_text(), u.line)
            })
            .collect();
        (turns, out.warnings.iter().map(|w| w.to_string()).collect())
    }

    fn turn(name: &str, text: &str, line: usize) -> (String, String, usize) {
        (name.to_owned(), text.to_owned(), line)
    }

    /// A hearing as the Government Publishing Office prints it: the label ends with a period
    /// (`Mr. JORDAN.`), titles in mixed case and the name in capitals; `[continuing]`,
    /// `of Texas` and `Voice.` are labels too, and the image stand-in is no speech. Read by
    /// colons, it was no transcript at all ("cannot tell the format").
    #[test]
    fn hearing_labels_end_with_a_period() {
        let text = "    [House Hearing, 118 Congress]\n\n    The committee met at 10:02 a.m.\n    Present: Representatives Comer and Raskin.\n    Chairman COMER. The committee will come to order. The\nChair may declare a recess.\n    [GRAPHIC] [TIFF OMITTED] T4512.001\n    Mr. RASKIN. Thank you, Mr. Chairman.\n    Mr. JORDAN. Did you--\n    Ms. OCASIO-CORTEZ [continuing]. Point of order.\n    Mr. GARCIA of Texas. The U.S. Attorney said_\n    The CHAIRMAN. Order.\n    [Laughter.]\n    Voice. No!\n    Chairman COMER. So ordered.\n";
        let (turns, warnings) = untimed_read(text);
        assert_eq!(
            turns,
            vec![
                turn(
                    "Chairman COMER",
                    "The committee will come to order. The\nChair may declare a recess.",
                    5
                ),
                turn("Mr. RASKIN", "Thank you, Mr. Chairman.", 8),
                turn("Mr. JORDAN", "Did you--", 9),
                turn("Ms. OCASIO-CORTEZ", "Point of order.", 10),
                turn("Mr. GARCIA of Texas", "The U.S. Attorney said_", 11),
                turn("The CHAIRMAN", "Order.\n[Laughter.]", 12),
                turn("Voice", "No!", 14),
                turn("Chairman COMER", "So ordered.", 15),
            ]
        );
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("line 1, column 1: 3 line(s) above the first speaker's turn")),
            "{warnings:?}"
        );
        // A prepared statement inserted into the record was never spoken: its lines are
        // skipped up to the next label.
        let statement = "    Chairman COMER. I recognize myself.\n    [Prepared statement of Chairman Comer follows:]\n    Today we examine\nthe budget.\n    Mr. RASKIN. Thank you, Mr. Chairman.\n    Mr. JORDAN. Will the gentleman yield--\n    Mr. RASKIN. I will not yield.\n";
        let (turns, warnings) = untimed_read(statement);
        assert_eq!(
            turns,
            vec![
                turn(
                    "Chairman COMER",
                    "I recognize myself.\n[Prepared statement of Chairman Comer follows:]",
                    1
                ),
                turn("Mr. RASKIN", "Thank you, Mr. Chairman.", 5),
                turn("Mr. JORDAN", "Will the gentleman yield--", 6),
                turn("Mr. RASKIN", "I will not yield.", 7),
            ]
        );
        assert!(
            warnings
                .iter()
                .any(|w| w.contains("line 3, column 1: 2 line(s) inserted into the record")),
            "{warnings:?}"
        );
        // The labels, one by one.
        assert_eq!(period_label("Mr. JORDAN. Did you--"), Some(("Mr. JORDAN", "Did you--")));
        assert_eq!(period_label("Mr. VAN HOLLEN. Yes."), Some(("Mr. VAN HOLLEN", "Yes.")));
        assert_eq!(period_label("Secretary BLINKEN."), Some(("Secretary BLINKEN", "")));
        assert_eq!(
            period_label("The SPEAKER pro tempore. The gentleman is recognized."),
            Some(("The SPEAKER pro tempore", "The gentleman is recognized."))
        );
        assert_eq!(
            period_label("Mr. SMITH of New Jersey. I yield."),
            Some(("Mr. SMITH of New Jersey", "I yield."))
        );
        // A sentence, an initialism, a court reporter's `MR. SMITH:` and a heading are no labels.
        assert_eq!(period_label("The FBI said so."), None);
        assert_eq!(period_label("The U.S. said so."), None);
        assert_eq!(period_label("MR. SMITH:  Thank you."), None);
        assert_eq!(period_label("I. INTRODUCTION."), None);
    }

    /// A court transcript: every line numbered 1 to 25 at the left margin, a page number, a
    /// running head and the reporter's footer outside the numbering, `Q.` and `A.` under a
    /// `BY MR. SMITH:` line, headings in capitals and notes in parentheses on their own lines.
    /// Read before, the line numbers were part of the names (`1 THE COURT`), so nothing was a
    /// transcript.
    #[test]
    fn court_transcripts_lose_their_line_numbers_and_name_the_examination() {
        let text = "                                                   45\n     N7J3SMIC            Jones - Cross\n 1             THE COURT:  Please be seated.  You may\n 2   proceed.\n 3             MR. SMITH:  Thank you, Your Honor.\n 4                    CROSS-EXAMINATION\n 5   BY MR. SMITH:\n 6        Q.   Where were you on the night of --\n 7        A.   At home.\n 8        Q.   Alone?\n 9        A.   Yes.  Well --\n10             MS. DOE:  Objection.\n11             THE COURT:  Overruled.\n12        A.   My brother was\n13   there too.\n14             (Pause)\n15             THE WITNESS:  May I add something?\n16             THE COURT:  No.\n17             (Whereupon, a recess was\n18   taken)\n         SOUTHERN DISTRICT REPORTERS, P.C.\n";
        let (turns, warnings) = untimed_read(text);
        assert_eq!(
            turns,
            vec![
                turn("THE COURT", "Please be seated.  You may\nproceed.", 3),
                turn("MR. SMITH", "Thank you, Your Honor.", 5),
                turn("MR. SMITH", "Where were you on the night of --", 8),
                turn("THE WITNESS", "At home.", 9),
                turn("MR. SMITH", "Alone?", 10),
                turn("THE WITNESS", "Yes.  Well --", 11),
                turn("MS. DOE", "Objection.", 12),
                turn("THE COURT", "Overruled.", 13),
                turn("THE WITNESS", "My brother was\nthere too.\n(Pause)", 14),
                turn("THE WITNESS", "May I add something?", 17),
                turn("THE COURT", "No.\n(Whereupon, a recess was\ntaken)", 18),
            ]
        );
        let has = |s: &str| warnings.iter().any(|w| w.contains(s));
        assert!(
            has("line 1, column 1: 3 line(s) outside the transcript's numbered lines"),
            "{warnings:?}"
        );
        assert!(has("line 6, column 1: 1 heading(s) in capitals"), "{warnings:?}");
        // The notes on their own lines are no words, and the answer ends a sentence.
        let opts = crate::format::ReadOptions::default();
        let out = crate::format::read_str(text, Format::Paragraphs, &opts).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        let marks: Vec<&str> = t.marks().iter().map(|m| m.text.as_str()).collect();
        assert_eq!(marks, vec!["Pause", "Whereupon, a recess was\ntaken"]);
        assert_eq!(crate::format::notes::word_count("My brother was\nthere too.\n(Pause)"), 5);
        // Numbers that do not run 1, 2, 3 … are no line numbers.
        assert!(numbered_lines("3 things\n1 more\n7 days\n").is_none());
        // The examiner named after the heading on one line, as depositions print it.
        assert_eq!(examiner_line("CROSS-EXAMINATION BY MS. DOE:"), Some("MS. DOE"));
        assert_eq!(examiner_line("BY MR. SMITH:"), Some("MR. SMITH"));
        assert_eq!(examiner_line("Stand by me:"), None);
        // A page that starts mid-examination: the answers above the `BY` line are the
        // witness's already; a `Q` without period, then spaces, is a question too.
        let page = "A.   I do not recall that.\nQ.   Did you speak with her?\nMR. KLEIN:  Objection to form.\nBY MS. ORTIZ:\nQ    What did she say to you?\nA    She said the shipment was late.\n";
        let (turns, _) = untimed_read(page);
        let names: Vec<&str> = turns.iter().map(|t| t.0.as_str()).collect();
        assert_eq!(names, vec!["THE WITNESS", "Q", "MR. KLEIN", "MS. ORTIZ", "THE WITNESS"]);
        // A witness sworn in by name: the answers and `THE WITNESS:` turns are theirs.
        let sworn = "THE COURT:  Call your next witness.\nMR. SMITH:  The people call John Jones.\nJOHN JONES, called as a witness, having been duly sworn, testified as follows:\nDIRECT EXAMINATION\nBY MR. SMITH:\nQ.  Please state your name.\nA.  John Jones.\nQ.  Where do you live?\nA.  In Dayton.\nTHE WITNESS:  May I add something?\nTHE COURT:  Go ahead.\n";
        let (turns, warnings) = untimed_read(sworn);
        assert_eq!(
            turns,
            vec![
                turn("THE COURT", "Call your next witness.", 1),
                turn("MR. SMITH", "The people call John Jones.", 2),
                turn("MR. SMITH", "Please state your name.", 6),
                turn("JOHN JONES", "John Jones.", 7),
                turn("MR. SMITH", "Where do you live?", 8),
                turn("JOHN JONES", "In Dayton.", 9),
                turn("JOHN JONES", "May I add something?", 10),
                turn("THE COURT", "Go ahead.", 11),
            ]
        );
        assert!(
            warnings.iter().any(|w| w.contains("line 3, column 1: 2 heading(s) in capitals")),
            "{warnings:?}"
        );
        assert_eq!(
            witness_line(
                "MARY ROE, having been first duly sworn, was examined and testified as follows:"
            ),
            Some("MARY ROE")
        );
        assert_eq!(witness_line("MR. SMITH, as follows:"), None);
        assert_eq!(witness_line("Yes, the witness said as follows:"), None);
        assert_eq!(witness_line("Ana Ruiz, the witness, said as follows:"), None);
        // Without an examiner, `Q.` and `A.` are who they are.
        let bare = "Q.  What is your name?\nA.  John Jones.\nQ.  Where do you live?\nA.  Here in Dayton.\n";
        let (turns, _) = untimed_read(bare);
        let names: Vec<&str> = turns.iter().map(|t| t.0.as_str()).collect();
        assert_eq!(names, vec!["Q", "A", "Q", "A"]);
    }

    /// Hansard's web pages: the member's name on a line of its own, the constituency and
    /// party in parentheses below it (or beside it), the words under them, no colon; a
    /// minister's office with the name in parentheses; a name alone for a later turn.
    #[test]
    fn hansard_web_labels_on_their_own_lines() {
        let text = "Engagements\nSir Keir Starmer\n(Holborn and St Pancras) (Lab)\nDoes the Prime Minister agree that the cost of living is rising?\nThe Prime Minister\n(Rishi Sunak)\nI will tell him what we are doing.\nIt is working.\nSir Keir Starmer (Holborn and St Pancras) (Lab)\nHe has not answered the question.\nThe Prime Minister\nI have answered it.\n";
        let (turns, warnings) = untimed_read(text);
        let starmer = "Sir Keir Starmer (Holborn and St Pancras) (Lab)";
        assert_eq!(
            turns,
            vec![
                turn(
                    starmer,
                    "Does the Prime Minister agree that the cost of living is rising?",
                    2
                ),
                turn("The Prime Minister", "I will tell him what we are doing.\nIt is working.", 5),
                turn(starmer, "He has not answered the question.", 9),
                turn("The Prime Minister", "I have answered it.", 11),
            ]
        );
        assert!(
            warnings.iter().any(|w| w.contains("line 1, column 1: 1 line(s) above the first")),
            "{warnings:?}"
        );
    }

    /// An article's short capitalised lines (a title, a byline, subheadings, a credit in
    /// parentheses) are no stacked labels: the text is no transcript.
    #[test]
    fn title_case_lines_of_prose_are_no_labels() {
        let text = "The Future of Energy\nBy Jane Smith\nRenewable power is growing fast across Europe.\nWind Power\nWind farms now supply a fifth of the grid.\nSolar Power\nPanels have never been cheaper.\nJane Smith\n(Reuters)\nPrices fell again this year.\nGrid Storage\nBatteries are next.\n";
        assert_eq!(stacked_labels(text), None);
        let e = crate::format::detect(None, text, None).unwrap_err();
        assert!(e.to_string().contains("cannot tell the format"), "{e}");
        // Two labels in parentheses make a text of them; a name alone then opens a turn only
        // when it was given with its parts.
        let two = "Ana Ruiz\n(Lab)\nWe agree.\nWind Power\nIt is cheap.\nBo Lind (Con)\nWe do not.\nAna Ruiz\nWhy not?\n";
        assert_eq!(
            stacked_labels(two).unwrap(),
            "Ana Ruiz (Lab): We agree.\n\n\nWind Power\nIt is cheap.\nBo Lind (Con): We do not.\n\nAna Ruiz: Why not?\n\n"
        );
    }

    /// Hansard: `Name (Constituency) (Party):` at a member's first turn and `Name:` after,
    /// `The Prime Minister (Rishi Sunak):` then `The Prime Minister:`, a question's number
    /// before the label, and the column numbers of the printed report between the turns.
    #[test]
    fn hansard_labels_and_column_numbers() {
        let text = "Engagements\n\nQ1. [901234] Sir Peter Bottomley (Worthing West) (Con): If he will list his engagements.\n\nThe Prime Minister (Rishi Sunak): I refer my hon. Friend to the answer I gave.\n\nSir Keir Starmer (Holborn and St Pancras) (Lab): The Prime Minister said that—\n\nHon. Members: Hear, hear!\n\n[Interruption.]\n\n15 Mar 2023 : Column 812\n\nSir Keir Starmer: Will he answer?\n\nThe Prime Minister: Let me finish.\n";
        let (turns, warnings) = untimed_read(text);
        assert_eq!(
            turns,
            vec![
                turn(
                    "Sir Peter Bottomley (Worthing West) (Con)",
                    "If he will list his engagements.",
                    3
                ),
                turn("The Prime Minister", "I refer my hon. Friend to the answer I gave.", 5),
                turn("Sir Keir Starmer", "The Prime Minister said that—", 7),
                turn("Hon. Members", "Hear, hear!\n[Interruption.]", 9),
                turn("Sir Keir Starmer", "Will he answer?", 15),
                turn("The Prime Minister", "Let me finish.", 17),
            ]
        );
        assert!(
            warnings.iter().any(|w| {
                w.contains(
                "line 13, column 1: 1 line(s) of markup, a service's footer, a broadcaster's notice"
            )
            }),
            "{warnings:?}"
        );
        assert!(
            warnings.iter().any(|w| w.contains("Sir Keir Starmer (Holborn and St Pancras) (Lab) → Sir Keir Starmer; The Prime Minister (Rishi Sunak) → The Prime Minister")),
            "{warnings:?}"
        );
        // A minister's office, longer than a name and with words in lower case.
        let office = "Jim Shannon (Strangford) (DUP): Will the Minister meet me?\n\nThe Parliamentary Under-Secretary of State for Health and Social Care (Maria Caulfield): I would be happy to.\n\nJim Shannon: I thank the Minister for that answer—\n\nThe Parliamentary Under-Secretary of State for Health and Social Care: Let me be clear.\n\nThe Chancellor of the Exchequer (Jeremy Hunt): Growth is up.\n";
        let (turns, _) = untimed_read(office);
        let minister = "The Parliamentary Under-Secretary of State for Health and Social Care";
        assert_eq!(
            turns,
            vec![
                turn("Jim Shannon", "Will the Minister meet me?", 1),
                turn(minister, "I would be happy to.", 3),
                turn("Jim Shannon", "I thank the Minister for that answer—", 5),
                turn(minister, "Let me be clear.", 7),
                turn("The Chancellor of the Exchequer (Jeremy Hunt)", "Growth is up.", 9),
            ]
        );
        assert_eq!(office_label("The plan is simple: we win"), None);
        // A numbered point inside a turn stays text.
        assert_eq!(question_number("1. First: we cut taxes"), "1. First: we cut taxes");
        assert_eq!(question_number("2. Ann Lee (Bath) (LD): What"), "Ann Lee (Bath) (LD): What");
        // A committee's numbered questions; a quarter or a sentence stays text.
        assert_eq!(question_number("Q123 Chair: Good morning."), "Chair: Good morning.");
        assert_eq!(question_number("Q12\tMr Jones: Why?"), "Mr Jones: Why?");
        assert_eq!(question_number("Q1 results: strong"), "Q1 results: strong");
        assert_eq!(question_number("Q12345 Chair: No"), "Q12345 Chair: No");
        assert!(witness_list("Witnesses: Sir John Smith and Dr Ana Ruiz."));
        assert!(!witness_list("Witness: Ana Ruiz"));
    }

    /// Labels on the line of their words without a colon: a name with parts, a name before a
    /// dash, a known name or the chair at the start of a line; prose with names in it stays
    /// text.
    #[test]
    fn hansard_labels_on_the_line_of_their_words() {
        assert_eq!(
            inline_label("Mr Lee (Bath) (LD) I rise to speak."),
            Some(("Mr Lee", "(Bath) (LD)".to_owned(), "I rise to speak."))
        );
        assert_eq!(
            inline_label("Mr PRICE (2:52 PM) —My question is this."),
            Some(("Mr PRICE", String::new(), "My question is this."))
        );
        assert_eq!(
            inline_label("Mr ALBANESE —because they know."),
            Some(("Mr ALBANESE", String::new(), "because they know."))
        );
        assert_eq!(
            inline_label("Honourable members—Hear, hear!"),
            Some(("Honourable members", String::new(), "Hear, hear!"))
        );
        // Prose: a lower-case word after the parts, one word before a dash, an unclosed part.
        assert_eq!(inline_label("Jane Smith (Reuters) said today that prices fell."), None);
        assert_eq!(inline_label("Then—suddenly—it rained."), None);
        // An aside between dashes is prose; a cut-off at the end is a turn's.
        assert_eq!(inline_label("Mr Albanese—who spoke first—said the plan would pass."), None);
        assert_eq!(inline_label("Mr Dutton —the opposition leader— disagreed."), None);
        assert_eq!(
            inline_label("Mr Abbott —Mr Speaker—"),
            Some(("Mr Abbott", String::new(), "Mr Speaker—"))
        );
        assert_eq!(inline_label("Mr Lee (Bath I rise"), None);
        assert_eq!(inline_label("Mr Lee (Bath) (LD): I rise."), None);
        assert!(time_part("(14:43)") && time_part("(2.01 p.m.)") && !time_part("(Lab)"));
        assert!(chair_label("The SPEAKER") && chair_label("Hon. Members"));
        assert!(chair_label("Madam Deputy Speaker") && !chair_label("The Prime Minister"));
        let known: HashSet<String> = ["Mr John Smith".to_owned()].into();
        assert_eq!(
            known_label("Mr John Smith Will he answer?", &known),
            Some(("Mr John Smith", "Will he answer?"))
        );
        assert_eq!(known_label("Mr John Smith said no.", &known), None);
        assert_eq!(known_label("The SPEAKER Order!", &known), Some(("The SPEAKER", "Order!")));
        assert_eq!(known_label("Mr Speaker, I rise.", &known), None);
        // Two dash labels, or one name only, make no text of them.
        assert_eq!(stacked_labels("Mr Ho —Yes.\nMr Ho —No.\nMr Ho —Maybe.\n"), None);
        assert_eq!(stacked_labels("Mr Ho —Yes.\nMs Li —No.\n"), None);
        assert_eq!(
            stacked_labels("Mr Ho —Yes.\nMs Li —No.\nMr Ho —Why?\n").unwrap(),
            "Mr Ho: Yes.\nMs Li: No.\nMr Ho: Why?\n"
        );
    }

    /// A witness named in mixed case, sworn over two lines, or in a `Witness:` field.
    #[test]
    fn witnesses_named_in_mixed_case_over_two_lines_or_in_a_field() {
        assert_eq!(
            witness_line("John Smith, having been first duly sworn, testified as follows:"),
            Some("John Smith")
        );
        assert_eq!(witness_line("Ana Ruiz, the witness, said as follows:"), None);
        let (first, second) = sworn_over_two_lines(
            "JOHN SMITH, called as a witness by the Plaintiff, having been\n\nfirst duly sworn, testified as follows:\n",
        );
        assert_eq!(first.get(&1).map(String::as_str), Some("JOHN SMITH"));
        assert_eq!(second, HashSet::from([3]));
        assert_eq!(witness_field("Witness: Ana Ruiz"), Some("Ana Ruiz"));
        assert_eq!(witness_field("WITNESS: JOHN SMITH"), Some("JOHN SMITH"));
        assert_eq!(witness_field("Witness: I do."), None);
        assert_eq!(witness_field("Witness: Yes"), None);
        // Under `--from paragraphs` (a `Date:` field keeps detection off), the field names
        // the witness of the answers.
        let text = "Witness: Ana Ruiz\nDate: May 4, 2023\nBY MR. LEE:\nQ.  Your name?\nA.  Ana Ruiz.\nQ.  Your address?\nA.  12 Elm Street.\nTHE WITNESS:  Should I spell it?\n";
        let opts = crate::format::ReadOptions::default();
        let out = crate::format::read_str(text, Format::Paragraphs, &opts).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        let names: Vec<&str> =
            t.untimed().iter().map(|u| t.annotation().speaker_name(u.speaker)).collect();
        assert_eq!(names, vec!["MR. LEE", "Ana Ruiz", "MR. LEE", "Ana Ruiz", "Ana Ruiz"]);
        // `Witness:` labelling words is a speaker, not a field.
        let labelled = "Counsel: State your name.\nWitness: Ana Ruiz\nCounsel: Your address?\nWitness: It is 12 Elm Street.\n";
        let out = crate::format::read_str(labelled, Format::Paragraphs, &opts).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        let names: Vec<&str> =
            t.untimed().iter().map(|u| t.annotation().speaker_name(u.speaker)).collect();
        assert_eq!(names, vec!["Counsel", "Witness", "Counsel", "Witness"]);
    }

    /// A press briefing's `Q` lines are the reporters' questions only beside `Name:` answers
    /// and without an examination's `A.`; a name in capitals keeps its `Mc`.
    #[test]
    fn press_questions_and_names_in_capitals() {
        assert_eq!(press_question("Q    Thank you."), Some("Thank you."));
        assert_eq!(press_question("Q Scott, one more."), Some("Scott, one more."));
        assert_eq!(press_question("Q"), Some(""));
        assert_eq!(press_question("Q: Where were you?"), None);
        assert_eq!(press_question("Quite so."), None);
        let briefing = "MR. McCLELLAN: Good afternoon.\nQ Scott, one question.\nMR. McCLELLAN: Go ahead.\nQ Thank you.\n";
        let labels = Labels::of(briefing);
        assert!(labels.press && !labels.examination);
        // Questions with answers are an examination; without `Name:` turns, nothing.
        assert!(!Labels::of("Q.  Your name?\nA.  Ana.\nQ.  Where?\nA.  Here.\n").press);
        assert!(!Labels::of("Q Scott, one.\nQ Two.\n").press);
        assert!(
            in_capitals("MR. McCLELLAN") && in_capitals("MACDONALD") && !in_capitals("Mr. Lee")
        );
    }

    /// A time and a name alone are a speaker's header only when the file's headers are so:
    /// one-word turns, sentences and names without words below stay words.
    #[test]
    fn names_alone_after_times_by_the_whole_file() {
        let word = "00:00:00 Speaker 1\nHello.\n00:00:04 Speaker 2\nHi.\n00:00:07 Speaker 1\nSo.\n";
        assert!(names_after_times(word));
        // One-word turns on the header line, the next line another header.
        let short = "00:00:01 Okay\n00:00:02 Thanks\n00:00:03 Okay\n00:00:04 Right\n";
        assert!(!names_after_times(short));
        // Sentences, and a name that never comes back.
        assert!(!names_after_times("00:00:01 We left.\nThen.\n00:00:05 It rained.\nMore.\n"));
        // The name alone on the line below a time alone: the same headers, every line kept.
        let below = "00:00:03\nSpeaker 1\nHello there, how are you?\n\n00:00:07\nSpeaker 2\nFine thanks.\n\n00:00:11\nSpeaker 1\nGood.\n";
        assert_eq!(
            names_below_times(below).unwrap(),
            "00:00:03 Speaker 1\n\nHello there, how are you?\n\n00:00:07 Speaker 2\n\nFine thanks.\n\n00:00:11 Speaker 1\n\nGood.\n"
        );
        // Words below a time alone are no name; names that never come back settle nothing.
        assert_eq!(
            names_below_times("00:00:03\nOkay then\nwe start.\n00:00:07\nRight\nso.\n"),
            None
        );
        assert_eq!(names_below_times("00:00:03\nAna Ruiz\nHello.\n00:00:07\nBo Lind\nHi.\n"), None);
        // Read so: the names are the speakers, the words theirs; before, every turn was
        // `unknown`'s with the name run into its words.
        let out = crate::format::read_str(
            &below.replace('\n', "\r\n"),
            Format::Paragraphs,
            &crate::format::ReadOptions::default(),
        )
        .unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        let turns: Vec<(String, i64, String)> = t
            .utterances()
            .map(|u| {
                let text = u.content.and_then(|c| c.text.clone()).unwrap_or_default();
                (u.speaker_name.to_owned(), u.segment.start().micros() / 1_000_000, text)
            })
            .collect();
        let turn = |name: &str, at: i64, text: &str| (name.to_owned(), at, text.to_owned());
        assert_eq!(
            turns,
            [
                turn("Speaker 1", 3, "Hello there, how are you?"),
                turn("Speaker 2", 7, "Fine thanks."),
                turn("Speaker 1", 11, "Good."),
            ]
        );
        assert!(!names_after_times("00:00:00 Ana Ruiz\nHi.\n00:00:04 Bo Lind\nHello.\n"));
        assert!(bare_name("Speaker 1") && bare_name("Ana de la Cruz") && !bare_name("so we left"));
    }

    /// A lower-case label by its shape: no period, no link, no time, no note's or field's
    /// word, whitespace after the colon; whether it labels turns is the whole file's call.
    #[test]
    fn lower_case_labels_by_shape_and_by_the_file() {
        assert_eq!(lower_label("danah: so what I meant"), Some(("danah", "so what I meant")));
        assert_eq!(lower_label("speaker 1: hi"), Some(("speaker 1", "hi")));
        for prose in [
            "note: the audio cut out",
            "update: we moved",
            "http://example.com",
            "mailto:ana@example.com",
            "e.g.: this one",
            "10:30 we met",
            "re: your mail",
            "from: Ana",
            "and then it was: over",
            "Ana: hi",
        ] {
            assert_eq!(lower_label(prose), None, "{prose}");
        }
        let two = "ana: one thing.\nbo: and another?\nana: yes.\nbo: ok.\n";
        let names: BTreeMap<String, usize> = LowerLabels::of(two).lines;
        assert_eq!(names, BTreeMap::from([("ana".into(), 2), ("bo".into(), 2)]));
        // One name that never changes hands, or names that come once, label no one.
        assert!(LowerLabels::of("ana: one.\nana: two.\nana: three.\n").names.is_empty());
        assert!(LowerLabels::of("ana: one.\nbo: two.\ncy: three.\n").names.is_empty());
        // A glossary: more one-off labels than recurring ones.
        let glossary = "term: a word.\nrule: a law.\nterm: again.\nrule: again.\nfoo: x.\nbar: y.\nbaz: z.\nqux: w.\nquux: v.\n";
        assert!(LowerLabels::of(glossary).names.is_empty());
        // A meeting's notes: the people's lines are turns, the actions and decisions are not.
        let notes = "ana: budget is on track.\nbo: hiring is paused.\naction: bo to post the \
                     job.\nana: will check with finance.\ndecision: freeze until May.\nbo: ok.\n\
                     action: ana to email finance.\n";
        let lower = LowerLabels::of(notes);
        assert_eq!(lower.lines, BTreeMap::from([("ana".into(), 2), ("bo".into(), 2)]));
        assert_eq!(lower.once, None);
        // A list's `first:` and `second:` are no speakers.
        let list = "first: never deploy on a Friday.\nsecond: write the tests.\n\
                    first: again.\nsecond: sleep.\n";
        assert!(LowerLabels::of(list).names.is_empty());
        // Recurring lower-case prose inside a transcript named in capitals: outvoted, noted.
        let capitals =
            "Ana: We start.\nso: prose.\nBo: Fine.\nAna: On.\nso: more.\nBo: Right.\nAna: Done.\n";
        let lower = LowerLabels::of(capitals);
        assert!(lower.names.is_empty());
        assert_eq!(lower.outvoted, Some((2, vec!["so".to_owned()])));
        // Beside one capitalised label, one lower-case name that alternates with it.
        let mixed =
            "Interviewer: Your role?\ndanah: I study media.\nInterviewer: Since?\ndanah: Years.\n";
        assert_eq!(LowerLabels::of(mixed).names, HashSet::from(["danah".to_owned()]));
    }

    /// A name in emphasis after a leading time is the speaker's; a colon in it, a word that
    /// labels no one or nothing after it leave the line as it is.
    #[test]
    fn names_in_emphasis_after_a_time() {
        let named = |name: &str, line: &str| Some((name.to_owned(), line.to_owned()));
        assert_eq!(
            emphasised_name_after_time("0:00:36.2 **Ana Ruiz** Hello there."),
            named("Ana Ruiz", "0:00:36.2 Ana Ruiz: Hello there.")
        );
        assert_eq!(
            emphasised_name_after_time("[00:01:02] __Bo__ (laughing)"),
            named("Bo", "[00:01:02] Bo: (laughing)")
        );
        assert_eq!(emphasised_name_after_time("0:00:36 **Ana:** Hello."), None);
        assert_eq!(emphasised_name_after_time("0:00:36 **Note** bold text."), None);
        assert_eq!(emphasised_name_after_time("0:00:36 **Ana Ruiz**"), None);
        assert_eq!(emphasised_name_after_time("We met **Ana** at 0:00:36."), None);
        let (_, line) =
            emphasised_name_after_time("0:00:36.2 **Jen Luker & Safia Abdalla** (laughing)")
                .unwrap();
        let h = header(&line).unwrap();
        assert_eq!((h.speaker, h.text), (Some("Jen Luker & Safia Abdalla"), "(laughing)"));
    }

    /// Names in emphasis after the times are speakers' when they come back; a chapter list's
    /// titles, each once, are not.
    #[test]
    fn names_in_emphasis_by_the_whole_text() {
        let podcast = "0:00 **Ana** Hi.\r\n0:04 **Bo** Hello.\r\n0:09 **Ana** So.\r\n\
                       0:12 **Cy & Ana** (laughing)\r\n0:15 **Bo** Yes.";
        assert_eq!(
            emphasised_names(podcast).as_deref(),
            Some(
                "0:00 Ana: Hi.\r\n0:04 Bo: Hello.\r\n0:09 Ana: So.\r\n0:12 Cy & Ana: \
                 (laughing)\r\n0:15 Bo: Yes."
            )
        );
        let chapters = "Chapters\n0:00 **Intro** welcome\n1:30 **Setup** the tools\n\
                        5:00 **Demo** building it\n9:45 **Outro** what next\n";
        assert_eq!(emphasised_names(chapters), None);
        assert_eq!(sniff(chapters), None);
        // One title that comes back among many chapters: still a chapter list.
        let qa = "0:00 **Intro** hi\n1:00 **Q&A** one\n2:00 **Setup** x\n3:00 **Demo** y\n\
                  4:00 **Q&A** two\n5:00 **Outro** bye\n";
        assert_eq!(emphasised_names(qa), None);
    }

    /// Bracketed labels with a colon name participants; times and notes in brackets do not.
    #[test]
    fn bracketed_labels_of_anonymised_interviews() {
        assert_eq!(bracketed_label("[Int2]: About six."), Some(("Int2", "About six.")));
        assert_eq!(bracketed_label("[Respondent 3]:"), Some(("Respondent 3", "")));
        assert_eq!(bracketed_label("[00:01:02] Ana: Hi."), None);
        assert_eq!(bracketed_label("[Crosstalk]: hm"), None);
        assert_eq!(bracketed_label("[Int2] said so."), None);
        assert_eq!(bracketed_label("[Int2]:x"), None);
        // Markdown link reference definitions, as a document's last lines list its links.
        assert_eq!(bracketed_label("[Rust]: https://www.rust-lang.org/"), None);
        assert_eq!(bracketed_label("[Docs]: <https://docs.rs> \"Docs\""), None);
        assert_eq!(bracketed_label("[Guide]: ./docs/guide.md"), None);
        assert_eq!(bracketed_label("[Usage]: #usage"), None);
        assert_eq!(bracketed_label("[Mail]: mailto:ana@example.com"), None);
        assert_eq!(
            bracketed_label("[Int2]: see www.example.com"),
            Some(("Int2", "see www.example.com"))
        );
    }

    /// Headings that are names, recur and alternate are speakers' labels; a document's
    /// section headings are not.
    #[test]
    fn markdown_headings_as_speakers_labels() {
        let interview = "### Ana\nHi.\n### Bo\nHello.\n### Ana\nSo.\n### Bo\nYes.\n";
        let names = heading_labels(interview.lines());
        assert_eq!(names, HashSet::from(["Ana".to_owned(), "Bo".to_owned()]));
        let document = "## Introduction\nText.\n## Methods\nText.\n## Results\nText.\n";
        assert!(heading_labels(document.lines()).is_empty());
        // Two recurring headings among many sections: too few of the headings.
        let sections = "## Ana\nx\n## Bo\nx\n## Ana\nx\n## Bo\nx\n## One\n## Two\n## Three\n## Four\n## Five\n";
        assert!(heading_labels(sections.lines()).is_empty());
        // Days that come back under each week's heading: an outline, not turns.
        let weeks =
            "# Week 1\n## Monday\nx\n## Tuesday\nx\n# Week 2\n## Monday\nx\n## Tuesday\nx\n\
                     # Week 3\n## Monday\nx\n## Tuesday\nx\n";
        assert!(heading_labels(weeks.lines()).is_empty());
        // A title above the first label is no part of the turns.
        let titled = format!("# Interview 3\n{interview}");
        let names = heading_labels(titled.lines());
        assert_eq!(names, HashSet::from(["Ana".to_owned(), "Bo".to_owned()]));
    }

    /// A time range in brackets gives a start and an end; anything else in brackets does not.
    #[test]
    fn time_ranges_in_brackets() {
        let t = |s: i64| Time::from_micros(s * MICROS_PER_SECOND);
        assert_eq!(enclosed_range("[00:00 - 00:05] A: x"), Some((t(0), t(5), " A: x")));
        assert_eq!(enclosed_range("[0:00:05 --> 0:00:10] x"), Some((t(5), t(10), " x")));
        assert_eq!(enclosed_range("[00:15 → 00:32]"), Some((t(15), t(32), "")));
        assert_eq!(enclosed_range("[01:00 to 01:30] x"), Some((t(60), t(90), " x")));
        // An end before the start, a single time, a word: no range.
        assert_eq!(enclosed_range("[00:10 - 00:05] x"), None);
        assert_eq!(enclosed_range("[00:10] x"), None);
        assert_eq!(enclosed_range("[Speaker 1 - Host] x"), None);
        let h = header("[00:00 - 00:05] SPEAKER_00: Hello.").unwrap();
        assert_eq!(
            (h.speaker, h.time, h.end, h.text),
            (Some("SPEAKER_00"), t(0), Some(t(5)), "Hello.")
        );
        assert!(is_rule("---") && is_rule("* * *") && !is_rule("--") && !is_rule("- item"));
    }

    /// Teams's notes that someone started or stopped the transcription are markup; a sentence
    /// that ends so is not.
    #[test]
    fn transcription_events_are_markup() {
        assert!(is_markup("Ana Ruiz started transcription"));
        assert!(is_markup("Marcelo Torres stopped transcription"));
        assert!(!is_markup("We all stopped transcription"));
        assert!(!is_markup("So then the team that was paid for it stopped transcription"));
        assert!(!is_markup("started transcription"));
    }

    /// Lower-case labels alone on their line, the words below, are labels when the whole file
    /// says so: names that recur, two of them alternating, opening half the text's parts.
    #[test]
    fn lower_case_labels_alone_on_their_line() {
        let interview = "interviewer\nhow did it start?\n\nrespondent\nslowly.\n\n\
                         interviewer:\nand then?\n\nrespondent\nit grew.\n";
        assert_eq!(
            lower_alone_labels(interview).as_deref(),
            Some(
                "interviewer: how did it start?\n\n\nrespondent: slowly.\n\n\n\
                 interviewer: and then?\n\n\nrespondent: it grew.\n\n"
            )
        );
        assert_eq!(lower_alone("respondent 2"), Some("respondent 2"));
        assert_eq!(lower_alone("interviewer:"), Some("interviewer"));
        for not in ["Interviewer", "note", "so we left", "e.g.", "10:30", "a b c"] {
            assert_eq!(lower_alone(not), None, "{not}");
        }
        // Short lines of prose that recur: most paragraphs open with no such line.
        let prose =
            "It rained all week, and the river rose.\n\nyes\nit did.\n\nThe town waited.\n\n\
                     no\nnot yet.\n\nThe water came on Sunday.\n\nyes\nit came.\n\n\
                     Nobody slept.\n\nno\nnobody.\n\nThen it fell.\n\nIt was over.\n";
        assert_eq!(lower_alone_labels(prose), None);
        // One name alone, or names that never change hands, label no one.
        assert_eq!(lower_alone_labels("ana\nhi.\n\nana\nso.\n\nana\nbye.\n"), None);
        assert_eq!(lower_alone_labels("ana\nhi.\n\nbo\nhello.\n"), None);
        // A label whose next line is another label or a `Name:` line has no words.
        assert_eq!(lower_alone_labels("ana\nbo\nhi.\n\nana\nBo: no.\n\nbo\nyes.\n"), None);
    }

    /// Headings that recur and alternate name speakers only when the text under them reads
    /// as turns: a recipe's sections, lists under them, are no speakers.
    #[test]
    fn repeated_section_headings_are_no_speakers() {
        let recipe = "# Two breads\n## Ingredients\n- 500 g flour\n- 10 g salt\n## Method\n\
                      Mix and knead.\n## Ingredients\n- 400 g rye\n## Method\nBake it.\n";
        assert!(heading_labels(recipe.lines()).is_empty());
        // Prose under each, no role and nothing spoken: still sections.
        let flat = "## Morning\nThe market opens.\n## Evening\nThe lights go on.\n\
                    ## Morning\nThe bakery sells out.\n## Evening\nThe square empties.\n";
        assert!(heading_labels(flat.lines()).is_empty());
        // The same headings over a conversation: a question and the first person.
        let spoken = "## Morning\nDid you sleep?\n## Evening\nI did not.\n\
                      ## Morning\nWhy not?\n## Evening\nThe noise.\n";
        assert_eq!(
            heading_labels(spoken.lines()),
            HashSet::from(["Morning".to_owned(), "Evening".to_owned()])
        );
        // Roles name speakers whatever the words; an anonymised `P2` too.
        let roles = "### Interviewer\nThe background.\n### P2\nThe project.\n\
                     ### Interviewer\nThe method.\n### P2\nThe results.\n";
        assert_eq!(
            heading_labels(roles.lines()),
            HashSet::from(["Interviewer".to_owned(), "P2".to_owned()])
        );
        // Names over prose in any language: no section's name among them.
        let german = "## Anna\nErzählen Sie.\n## Jonas\nWir bauen Brücken.\n\
                      ## Anna\nSeit wann.\n## Jonas\nSeit zehn Jahren.\n";
        let names = HashSet::from(["Anna".to_owned(), "Jonas".to_owned()]);
        assert_eq!(heading_labels(german.lines()), names);
        let japanese = "## Tanaka\nいつですか？\n## Sato\n十年前です。\n\
                        ## Tanaka\nなぜ？\n## Sato\n父の店でした。\n";
        assert_eq!(heading_labels(japanese.lines()).len(), 2);
        // Refused headings are named for the error, in the order they come.
        assert_eq!(section_headings(recipe), Some(vec!["Ingredients".into(), "Method".into()]));
        assert_eq!(section_headings(flat), Some(vec!["Morning".into(), "Evening".into()]));
        assert_eq!(section_headings(german), None);
        assert_eq!(section_headings("## Anna\nHallo.\n"), None);
        for section in ["Introduction", "METHODS", "faq", "Chapter 2", "Part IV", "Step 10"] {
            assert!(section_heading(section), "{section}");
        }
        for name in ["Anna", "Maria Lopez", "Chapter Two Smith", "Partner 2"] {
            assert!(!section_heading(name), "{name}");
        }
    }

    /// A schedule's time ranges and titles are no transcript; a recording's ranges are.
    #[test]
    fn schedules_are_told_from_time_ranges_of_speech() {
        let agenda = "Day one\n\n[09:00–09:30] Welcome\n[09:30-10:15] Keynote: Jane Doe\n\
                      [10:30–12:00] Workshops\n";
        assert_eq!(schedule(agenda), Some((3, 3)));
        let bare = "09:00–09:30 Welcome\n09:30 - 10:15 Keynote: Jane Doe\n10:15 to 10:30 Break\n";
        assert_eq!(schedule(bare), Some((1, 3)));
        // A break twice and a line under an item that is no sentence: still a schedule.
        let breaks = "[09:00–09:30] Coffee break\n[09:30–10:00] Talks\nRoom 2, Jane Doe\n\
                      [10:00–10:15] Coffee break\n";
        assert_eq!(schedule(breaks), Some((1, 3)));
        for speech in [
            // Speakers' labels that come back.
            "[00:00 - 00:05] SPEAKER_00: Hi\n[00:05 - 00:10] SPEAKER_01: Hello\n[00:10 - 00:15] SPEAKER_00: So\n",
            // Seconds and fractions.
            "[00:00:01.000 --> 00:00:03.000] Hello there\n[00:00:03.000 --> 00:00:05.000] Welcome\n",
            // Times off the five minutes.
            "[00:00 - 00:07] Welcome\n[00:07 - 00:12] Thanks\n",
            // Sentences.
            "[09:00 - 09:30] We begin.\n[09:30 - 10:00] Then we talk.\n",
            // Ranges that overlap.
            "[09:00 - 10:00] Track A\n[09:30 - 10:30] Track B\n",
            // `MM:SS` on five seconds, a speaker's number alone that comes back, words below.
            "[00:00 - 00:15] Speaker 1\nWelcome, everyone.\n[00:15 - 00:45] Speaker 2\n\
             Thanks.\n[00:45 - 01:30] Speaker 1\nSo.\n",
            // The same without the words: the speaker's number comes back.
            "[00:00 - 00:15] Speaker 1\n[00:15 - 00:45] Speaker 2\n[00:45 - 01:30] Speaker 1\n",
            // Sentences below titles that never come back.
            "[09:00 - 09:30] Welcome\nWe begin on time.\n[09:30 - 10:00] Talks\n\
             [10:00 - 10:30] Lunch\n",
            // Labels and words, each name once.
            "[00:00 - 00:05] Ana: Hello there\n[00:05 - 00:10] Bo: Hi Ana, how are you\n\
             [00:10 - 00:20] Cy: Fine thanks\n",
            // Two items are too few.
            "[09:00-09:30] Welcome\n[09:30-10:15] Keynote\n",
        ] {
            assert_eq!(schedule(speech), None, "{speech}");
        }
        assert_eq!(bare_range("09:00–09:30 Welcome").map(|r| r.2), Some(" Welcome"));
        assert_eq!(bare_range("09:00 we left"), None);
        assert_eq!(bare_range("10:00-09:00 Back"), None);
    }

    /// Labels with the clock time of day in parentheses (the Australian Hansard): times from
    /// the first, names without their seat; a Rev header elsewhere keeps its `M:SS`.
    #[test]
    fn labels_with_the_time_of_day() {
        assert_eq!(
            day_label("Mr DUTTON (Dickson—Leader of the Opposition) (14:02): My question"),
            Some(("Mr DUTTON", "(Dickson—Leader of the Opposition)", 14 * 60 + 2, "My question"))
        );
        assert_eq!(
            day_label("The SPEAKER (14:01): Order!"),
            Some(("The SPEAKER", "", 841, "Order!"))
        );
        assert_eq!(day_label("Ana Ruiz (24:10): Hello."), None);
        assert_eq!(day_label("Ana Ruiz (00:01:02): Hello."), None);
        assert_eq!(day_label("we met (at 14:01): then"), None);
        let text = "The SPEAKER (23:58): Order!\nMr SMITH (Hove) (23:59): Yes.\n\
                    Mr SMITH (Bath) (00:01): No.\n";
        let clock = times_of_day(text).unwrap();
        let got: BTreeMap<usize, (String, i64)> = clock
            .labels
            .iter()
            .map(|(&n, (s, t))| (n, (s.clone(), t.micros() / MICROS_PER_SECOND)))
            .collect();
        assert_eq!(
            got,
            BTreeMap::from([
                (1, ("The SPEAKER".to_owned(), 0)),
                (2, ("Mr SMITH (Hove)".to_owned(), 60)),
                (3, ("Mr SMITH (Bath)".to_owned(), 180)),
            ])
        );
        // Without a seat or an office before a time, `(14:01)` is a Rev header's M:SS.
        assert!(times_of_day("Ana Ruiz (14:01): Hi.\nBo Lind (14:05): Hello.\n").is_none());
        // A Rev header of another shape in the file: not a record of times of day.
        assert!(times_of_day("Mr A (Hove) (14:01): Hi.\nBo Lind (01:14:05): Hello.\n").is_none());
    }

    /// The starts (whole seconds), speakers and words of a timed transcript read with `--from
    /// paragraphs`.
    fn timed_read(text: &str) -> Vec<(i64, String, String)> {
        let opts = crate::format::ReadOptions::default();
        let out = crate::format::read_str(text, Format::Paragraphs, &opts).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        t.utterances()
            .map(|u| {
                let words = u.content.map(|c| c.display_text()).unwrap_or_default();
                (u.segment.start().micros() / MICROS_PER_SECOND, u.speaker_name.to_owned(), words)
            })
            .collect()
    }

    /// A Rev file whose names carry a role in parentheses (`Jane Doe (Host) (00:05):`) is no
    /// record of times of day: no title before a name in capitals, no seat and office. Its
    /// times are `M:SS` and the role is part of the name.
    #[test]
    fn rev_labels_with_a_role_keep_minutes_and_seconds() {
        let text = "Jane Doe (Host) (00:05): Welcome to the show.\n\n\
                    John Smith (Guest) (00:12): Thanks for having me.\n\n\
                    (01:30) So the plan worked.\n\n(02:10) And then we left.\n";
        assert!(times_of_day(text).is_none());
        let starts: Vec<(i64, String)> =
            timed_read(text).into_iter().map(|(start, name, _)| (start, name)).collect();
        let turn = |start: i64, name: &str| (start, name.to_owned());
        assert_eq!(
            starts,
            vec![
                turn(5, "Jane Doe (Host)"),
                turn(12, "John Smith (Guest)"),
                turn(90, "John Smith (Guest)"),
                turn(130, "John Smith (Guest)"),
            ]
        );
        // Names in capitals without a title are no evidence of Hansard either.
        let caps = "JANE DOE (Host) (00:05): Welcome.\nJOHN SMITH (Guest) (00:12): Thanks.\n";
        assert!(times_of_day(caps).is_none());
        assert!(hansard_label("Senator WONG", ""));
        assert!(hansard_label("The DEPUTY SPEAKER", ""));
        assert!(hansard_label("Ms Plibersek", "(Sydney—Minister for Education)"));
        assert!(!hansard_label("Jane Doe", "(Host)"));
        assert!(!hansard_label("JANE DOE", "(Host)"));
        // A title and a name in capitals, with a role in the parentheses: a Rev label.
        assert!(!hansard_label("Mr SMITH", "(Host)"));
        let titled = "Mr SMITH (Host) (00:05): Welcome to the show.\n\n\
                      Ms JONES (Guest) (00:12): Thanks for having me.\n\n\
                      Mr SMITH (Host) (01:30): So tell me.\n\nMs JONES (Guest) (02:10): Well.\n";
        assert!(times_of_day(titled).is_none());
        let starts: Vec<i64> = timed_read(titled).into_iter().map(|(start, _, _)| start).collect();
        assert_eq!(starts, [5, 12, 90, 130]);
    }

    /// A time the words cite, before the paragraph's own start (`Ana (20:00): As the clip
    /// shows [05:10] he…`), is words, no turn at that time.
    #[test]
    fn a_time_cited_in_the_words_is_no_turn() {
        let text = "Ana (20:00): As the clip shows [05:10] he never said that.\nBo (20:30): Yes.\n";
        let turn = |start: i64, name: &str, words: &str| (start, name.to_owned(), words.to_owned());
        assert_eq!(
            timed_read(text),
            vec![
                turn(1200, "Ana", "As the clip shows [05:10] he never said that."),
                turn(1230, "Bo", "Yes."),
            ]
        );
        // Times out of order are words too; times that rise from the start split the line.
        assert!(inline_times("a [00:20] b [00:15] c", Time::ZERO).1.is_empty());
        assert_eq!(inline_times("a [00:15] b", Time::ZERO).1.len(), 1);
    }

    /// Lines split at `\n`, `\r\n` and `\r`, each with its ending, the text kept whole.
    #[test]
    fn lines_split_at_every_ending() {
        let text = "a\r\nb\rc\nd\r\r\ne";
        let lines: Vec<(&str, &str)> = split_lines(text).collect();
        assert_eq!(
            lines,
            [("a", "\r\n"), ("b", "\r"), ("c", "\n"), ("d", "\r"), ("", "\r\n"), ("e", "")]
        );
        assert_eq!(
            split_lines("x\r\ry\n").collect::<Vec<_>>(),
            [("x", "\r"), ("", "\r"), ("y", "\n")]
        );
        assert_eq!(split_lines("").count(), 0);
    }
}
