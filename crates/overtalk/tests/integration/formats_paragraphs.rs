//! Paragraph transcripts with start times only (Rev, Otter, Descript/Trint, Zoom, YouTube):
//! each dialect from a small sample written here in the shape the services document (the words
//! are invented), estimated ends, transcriber's notes, `.docx`, and hostile input.
// Helpers here are test code: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use overtalk::format::{
    detect, read_bytes, read_path, read_str, sniff, write, Format, ReadOptions,
};
use overtalk::model::{Corpus, MarkKind, Transcript};
use overtalk::{Time, WarningKind};

const S: i64 = 1_000_000;

fn read(text: &str) -> overtalk::format::ReadOutput {
    let format = sniff(text).unwrap_or_else(|| panic!("not detected:\n{text}"));
    read_str(text, format, &ReadOptions::default()).unwrap()
}

/// `(speaker, start µs, end µs, end estimated, text)` of every track.
fn tracks(t: &Transcript) -> Vec<(String, i64, i64, bool, String)> {
    t.utterances()
        .enumerate()
        .map(|(i, u)| {
            (
                u.speaker_name.to_owned(),
                u.segment.start().micros(),
                u.segment.end().micros(),
                t.end_estimated(i),
                u.content.and_then(|c| c.text.clone()).unwrap_or_default(),
            )
        })
        .collect()
}

fn one(c: &Corpus) -> &Transcript {
    c.get("recording").unwrap()
}

fn tr(name: &str, start: i64, end: i64, text: &str) -> (String, i64, i64, bool, String) {
    (name.to_owned(), start, end, true, text.to_owned())
}

const REV: &str = "Debate night, part one\n\
\n\
Moderator Ana Ruiz: (00:00)\n\
Good evening and welcome to the first debate. We begin now.\n\
\n\
Senator Bo Lind (00:12):\n\
Thank you, Ana. I want to say that the plan is—\n\
\n\
Governor Cy Marsh (00:15):\n\
That is not true. [crosstalk 00:00:16]\n\
\n\
Senator Bo Lind (00:18):\n\
Let me finish [crosstalk 00:00:19] please.\n\
\n\
Moderator Ana Ruiz: (01:00:00)\n\
We move on [laughter].\n";

#[test]
fn rev_names_before_and_after_times_with_crosstalk() {
    assert_eq!(sniff(REV), Some(Format::Rev));
    let out = read(REV);
    let w: Vec<_> = out.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(
        w,
        vec!["line 1, column 1: 1 line(s) above the first timestamped paragraph skipped (a title, a date): not speech (note)"],
    );
    let t = one(&out.corpus);
    // 11 words at 2 a second end at 5.5 s, before the next start (12 s); the second paragraph's
    // words (11, 5.5 s) would run past the next start (15 s), which ends it.
    assert_eq!(
        tracks(t),
        vec![
            tr(
                "Moderator Ana Ruiz",
                0,
                5_500_000,
                "Good evening and welcome to the first debate. We begin now."
            ),
            tr(
                "Senator Bo Lind",
                12 * S,
                15 * S,
                "Thank you, Ana. I want to say that the plan is—"
            ),
            tr("Governor Cy Marsh", 15 * S, 17 * S, "That is not true. [crosstalk 00:00:16]"),
            tr("Senator Bo Lind", 18 * S, 20 * S, "Let me finish [crosstalk 00:00:19] please."),
            tr("Moderator Ana Ruiz", 3600 * S, 3601 * S + 500_000, "We move on [laughter]."),
        ]
    );
    assert_eq!(t.estimated_ends(), 5);
    let marks: Vec<_> = t
        .marks()
        .iter()
        .map(|m| (m.kind, m.at.map(|x| x.micros()), m.speaker.clone().unwrap(), m.text.as_str()))
        .collect();
    assert_eq!(
        marks,
        vec![
            (
                MarkKind::Crosstalk,
                Some(16 * S),
                "Governor Cy Marsh".to_owned(),
                "crosstalk 00:00:16"
            ),
            (MarkKind::Crosstalk, Some(19 * S), "Senator Bo Lind".to_owned(), "crosstalk 00:00:19"),
            (MarkKind::Laughter, None, "Moderator Ana Ruiz".to_owned(), "laughter"),
        ]
    );
    // The title is the document's head, not a defect: --strict reads the same paragraphs.
    let strict = ReadOptions { strict: true, ..ReadOptions::default() };
    let strictly = read_str(REV, Format::Rev, &strict).unwrap();
    assert_eq!(tracks(one(&strictly.corpus)), tracks(t));
}

/// The lines above a timed transcript's first header: a title, a date and who attended are
/// its head, a note (`--strict` reads the file, as it reads an untimed transcript's head);
/// words someone said there (a cold open, a sentence, a turn by a speaker the headers name) or
/// more than six lines are text the headers left out, a repair (`--strict` refuses it there).
#[test]
fn a_timed_transcripts_head_is_a_note_and_words_above_the_first_time_a_repair() {
    let turns = "Ana Ruiz (00:00:01):\nWelcome everyone to the meeting tonight.\n\n\
                 Bob Lee (00:00:05):\nThank you, glad to be here.\n";
    let strict = ReadOptions { strict: true, ..ReadOptions::default() };
    for head in [
        "Town Hall Meeting Transcript\nMarch 3, 2024\n\n",
        "Weekly sync | 27 Jan 2026\nAttendees: Ana Ruiz, Bob Lee\nTranscript\n\n",
    ] {
        let text = format!("{head}{turns}");
        let out = read(&text);
        let lines = head.lines().filter(|l| !l.trim().is_empty()).count();
        let w: Vec<_> = out.warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(
            w,
            vec![format!("line 1, column 1: {lines} line(s) above the first timestamped paragraph skipped (a title, a date): not speech (note)")],
            "{text}"
        );
        let strictly = read_str(&text, Format::Rev, &strict).unwrap();
        assert_eq!(tracks(one(&strictly.corpus)), tracks(one(&out.corpus)));
    }
    let repaired = "line 1, column 1: 2 line(s) of text before the first timestamped paragraph skipped (skipped)";
    for head in [
        // A cold open: a sentence.
        "Town Hall\nWe are live from the town hall tonight.\n\n",
        // A turn by a speaker the headers name, without a time.
        "Town Hall\nAna Ruiz: Can everyone hear me\n\n",
    ] {
        let text = format!("{head}{turns}");
        let out = read(&text);
        let w: Vec<_> = out.warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(w, vec![repaired.to_owned()], "{text}");
        let e = read_str(&text, Format::Rev, &strict).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, column 1: rev: 2 line(s) of text before the first timestamped paragraph",
            "{text}"
        );
    }
    // Seven lines are more than a head.
    let long = format!("{}\n{turns}", "Item\n".repeat(7));
    let w: Vec<_> = read(&long).warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(
        w,
        vec!["line 1, column 1: 7 line(s) of text before the first timestamped paragraph skipped (skipped)"]
    );
}

#[test]
fn names_with_titles_and_colons_and_inline_text() {
    let text = "Senator Smith: Chair: (00:01:00) Thank you all.\n\
                President Donald J. Trump (00:01:03): Well [inaudible 00:01:04] the thing.\n";
    let out = read(text);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let t = one(&out.corpus);
    assert_eq!(
        tracks(t),
        vec![
            tr("Senator Smith: Chair", 60 * S, 61 * S + 500_000, "Thank you all."),
            tr(
                "President Donald J. Trump",
                63 * S,
                64 * S + 500_000,
                "Well [inaudible 00:01:04] the thing."
            ),
        ]
    );
    assert_eq!(t.marks()[0].kind, MarkKind::Inaudible);
    assert_eq!(t.marks()[0].at, Some(Time::from_micros(64 * S)));
}

#[test]
fn otter_name_and_time_then_text_with_a_continuation() {
    let text = "Speaker 1  0:04\nSo we start here with the first point.\n\n\
                and a continuation paragraph after a blank line.\n\n\
                Speaker 2  0:20\nRight\n\nSpeaker 1  1:02:03\nLater on.\n";
    assert_eq!(sniff(text), Some(Format::Otter));
    let out = read(text);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            // 16 words: 8 s, before the next start at 20 s.
            tr("Speaker 1", 4 * S, 12 * S, "So we start here with the first point.\nand a continuation paragraph after a blank line."),
            tr("Speaker 2", 20 * S, 20 * S + 500_000, "Right"),
            tr("Speaker 1", 3723 * S, 3724 * S, "Later on."),
        ]
    );
}

#[test]
fn bracketed_times_with_and_without_names() {
    let text =
        "[00:00:01] Ana Ruiz: hello there.\n[00:00:03] and more of it\n[00:00:05] Bo: yes -\n";
    assert_eq!(sniff(text), Some(Format::Paragraphs));
    let out = read(text);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            tr("Ana Ruiz", S, 2 * S, "hello there."),
            // No name: the speaker of the paragraph before; 4 words end at the next start.
            tr("Ana Ruiz", 3 * S, 5 * S, "and more of it"),
            tr("Bo", 5 * S, 5 * S + 500_000, "yes -"),
        ]
    );
}

#[test]
fn time_first_lines_and_markdown_emphasis() {
    let text = "# Call notes\n\n00:00:01 Ana: hi there\n**Bo** (00:00:04):\nyo\n";
    let out = read(text);
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![tr("Ana", S, 2 * S, "hi there"), tr("Bo", 4 * S, 4 * S + 500_000, "yo")]
    );
}

#[test]
fn youtube_times_on_their_own_lines() {
    let text = "0:04\nhello there everyone\n0:07\nwelcome back to the channel\n1:15\nbye\n";
    assert_eq!(sniff(text), Some(Format::Paragraphs));
    let out = read(text);
    let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
    assert_eq!(w, vec![(WarningKind::MissingSpeaker, Some(1))]);
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            tr("unknown", 4 * S, 5 * S + 500_000, "hello there everyone"),
            tr("unknown", 7 * S, 9 * S + 500_000, "welcome back to the channel"),
            tr("unknown", 75 * S, 75 * S + 500_000, "bye"),
        ]
    );
}

#[test]
fn times_going_backwards_are_kept_with_a_warning() {
    let text = "[00:00:10] A: one two\n[00:00:05] B: three four five six\n[00:00:06] A: seven\n";
    let out = read(text);
    let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
    assert_eq!(w, vec![(WarningKind::Unsorted, Some(2))], "{:?}", out.warnings);
    assert_eq!(
        out.warnings[0].message,
        "1 paragraph out of time order (line 2); each kept at its own time; every paragraph ends by the next start in time"
    );
    // Several: one warning for the file, with the count and the first.
    let many = read("[00:00:10] A: one\n[00:00:05] B: two\n[00:00:06] A: three\n[00:00:02] B: four\n[00:00:01] A: five\n");
    let w: Vec<_> = many.warnings.iter().map(|w| (w.kind, w.line)).collect();
    assert_eq!(w, vec![(WarningKind::Unsorted, Some(2))], "{:?}", many.warnings);
    assert!(
        many.warnings[0].message.starts_with("3 paragraphs out of time order (first at line 2); "),
        "{}",
        many.warnings[0]
    );
    // A's first paragraph ends by its words alone (1 s); B's by the next start (6 s).
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            tr("B", 5 * S, 6 * S, "three four five six"),
            tr("A", 6 * S, 6 * S + 500_000, "seven"),
            tr("A", 10 * S, 11 * S, "one two"),
        ]
    );
}

#[test]
fn a_paragraph_ends_by_the_next_start_in_time_not_in_the_file() {
    // B is followed in the file by C, which starts earlier: A must end at C's start (19 s),
    // not at B's (20 s), or A and C would overlap although nothing says they did.
    let out = read("[00:00:10] A: one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty\n[00:00:20] B: two words\n[00:00:19] C: one\n");
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            tr("A", 10 * S, 19 * S, "one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty"),
            tr("C", 19 * S, 19 * S + 500_000, "one"),
            tr("B", 20 * S, 21 * S, "two words"),
        ]
    );
}

#[test]
fn paragraphs_sharing_a_start_follow_each_other_in_file_order() {
    // Whole-second clocks: Henry and Jory both at 02:02 (a real podcast transcript). Jory
    // comes after Henry's two words; nothing overlaps.
    let text = "Henry: (02:02)\nA standard.\n\nJory: (02:02)\nYeah, a standard, what? That seems-\n\nAna: (02:10)\nRight.\n";
    let out = read(text);
    let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
    assert_eq!(w, vec![(WarningKind::Note, Some(4))], "{:?}", out.warnings);
    assert_eq!(
        out.warnings[0].message,
        "1 paragraph(s) start at the same time as the one above them; each is placed after it, by its words (start and end estimated)"
    );
    let t = tracks(one(&out.corpus));
    assert_eq!(
        t,
        vec![
            tr("Henry", 122 * S, 123 * S, "A standard."),
            tr("Jory", 123 * S, 126 * S, "Yeah, a standard, what? That seems-"),
            tr("Ana", 130 * S, 130 * S + 500_000, "Right."),
        ]
    );
    // When the next start leaves less room than their words need, they share it in proportion:
    // 2 and 6 words in the second before 02:03.
    let tight = read("Henry: (02:02)\nA standard.\n\nJory: (02:02)\nYeah, a standard, what? That seems-\n\nAna: (02:03)\nRight.\n");
    assert_eq!(
        tracks(one(&tight.corpus)),
        vec![
            tr("Henry", 122 * S, 122 * S + 250_000, "A standard."),
            tr("Jory", 122 * S + 250_000, 123 * S, "Yeah, a standard, what? That seems-"),
            tr("Ana", 123 * S, 123 * S + 500_000, "Right."),
        ]
    );
}

#[test]
fn zoom_saved_captions_with_the_time_after_a_bracketed_name() {
    // Zoom's "save captions" file: `[Name] HH:MM:SS` (a clock of day), then the text.
    let text = "[Ana Ruiz] 19:09:47\nYes. Okay, perfect.\n\n[ATL - Bo] 19:09:50\nSo the plan is this one.\n";
    assert_eq!(sniff(text), Some(Format::Paragraphs));
    let out = read(text);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let t0 = (19 * 3600 + 9 * 60 + 47) * S;
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            tr("Ana Ruiz", t0, t0 + 1_500_000, "Yes. Okay, perfect."),
            tr("ATL - Bo", t0 + 3 * S, t0 + 6 * S, "So the plan is this one."),
        ]
    );
}

#[test]
fn a_name_after_a_dash_is_the_speaker() {
    // Fathom (`M:SS - Name (Company)`, then indented text, before and after the first hour)
    // and Happy Scribe (`[HH:MM:SS.ff] - Speaker 1`).
    let fathom = "VIEW RECORDING - 31 mins: https://example.org/calls/1\n\n---\n\n0:55 - Mia Dallas (Suite)\n  Yeah, it's a big decision.\n\n1:00:27 - Cy Bowen\n  Right.\n";
    assert_eq!(sniff(fathom), Some(Format::Paragraphs));
    let out = read(fathom);
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            tr("Mia Dallas (Suite)", 55 * S, 57_500_000, "Yeah, it's a big decision."),
            tr("Cy Bowen", 3627 * S, 3627 * S + 500_000, "Right."),
        ]
    );
    let happy = "[00:00:00.00] - Speaker 1\nAll right. So in order to start.\n\n[00:01:02.02] - Speaker 2\nSo I do not.\n";
    let out = read(happy);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            tr("Speaker 1", 0, 3_500_000, "All right. So in order to start."),
            tr("Speaker 2", 62_020_000, 64_020_000, "So I do not."),
        ]
    );
    // Prose after a time and a dash stays text; so does a sentence.
    for line in ["1:30 - we left early", "1:30 - The end.", "1:30 - Note: later"] {
        let out = read(&format!("[00:00:01] Ana: hi\n{line}\n"));
        assert_eq!(tracks(one(&out.corpus)).len(), 1, "{line}");
    }
}

#[test]
fn headers_with_no_text_are_no_turns() {
    // A video's chapter list has the shape of Fathom's headers: alone, it is no transcript.
    let chapters = "0:00 - Intro\n1:23 - The Weather\n5:10 - Questions\n";
    let e = read_str(chapters, Format::Paragraphs, &ReadOptions::default()).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(1), Some(1)));
    assert!(e.to_string().contains("no paragraph has text under its header"), "{e}");
    // Above a transcript, it is skipped with one warning; so is a turn whose words were removed
    // (before, each became half a second of speech by a speaker called "Intro" or "Ben Ode").
    let text = "0:00 - Intro\n1:23 - The Weather\n\n0:00 - Ana Ruiz\nHello and welcome.\n\n0:05 - Ben Ode\n\n0:09 - Ana Ruiz\nSo.\n";
    let out = read(text);
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            tr("Ana Ruiz", 0, 1_500_000, "Hello and welcome."),
            tr("Ana Ruiz", 9 * S, 9_500_000, "So.")
        ]
    );
    let skipped: Vec<_> = out.warnings.iter().filter(|w| w.kind == WarningKind::Skipped).collect();
    assert_eq!(skipped.len(), 1, "{:?}", out.warnings);
    assert_eq!(skipped[0].line, Some(1));
    assert!(skipped[0].message.starts_with("3 header(s) with no text"), "{}", skipped[0].message);
    // Out of order against the paragraphs kept, not against a skipped chapter line.
    assert!(out.warnings.iter().all(|w| w.kind != WarningKind::Unsorted), "{:?}", out.warnings);
    // A Google Meet time line given way to its named turns is no empty header.
    let meet = "00:00:00\nAna Ruiz: Hello.\nBo Lind: Hi.\n";
    assert!(read(meet).warnings.iter().all(|w| w.kind != WarningKind::Skipped));
}

#[test]
fn character_references_of_a_web_page_are_decoded() {
    let out =
        read("**Emma** [0:00] Today we&#39;re here &amp; ready.\n\n**Zo&#235;** [0:05] Hi.\n");
    let t = tracks(one(&out.corpus));
    assert_eq!(t[0].4, "Today we're here & ready.");
    assert_eq!(t[1].0, "Zoë");
}

#[test]
fn google_meet_blocks_of_named_turns() {
    // A time on its own line, then one `Name: text` line per turn; the footer is no speech.
    // The turns of a block follow each other from its time by their words.
    let text = "Oct 2, 2025\nCall notes - Transcript\n00:00:00\n \nAna Ruiz: Okay so the goal is this.\nBo Lind: Hey,\nAna Ruiz: right.\n \n00:00:10\n \nBo Lind: Yes we could.\n \nTranscription ended after 00:00:30\n\nThis editable transcript was computer generated and might contain errors. People can also change the text after it was created.\n";
    assert_eq!(sniff(text), Some(Format::Paragraphs));
    let out = read(text);
    let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
    assert_eq!(
        w,
        vec![
            (WarningKind::Note, Some(1)),
            (WarningKind::Skipped, Some(13)),
            (WarningKind::Note, Some(6))
        ],
        "{:?}",
        out.warnings
    );
    // 6 + 1 + 1 words in the 10 s before the next block: 3, 0.5 and 0.5 s.
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            tr("Ana Ruiz", 0, 3 * S, "Okay so the goal is this."),
            tr("Bo Lind", 3 * S, 3_500_000, "Hey,"),
            tr("Ana Ruiz", 3_500_000, 4 * S, "right."),
            tr("Bo Lind", 10 * S, 11_500_000, "Yes we could."),
        ]
    );
    // Gemini's Markdown notes: a heading with an anchor, bold names.
    let gemini = "# Transcript\n\nFeb 19, 2026\n\n### 00:00:00 {#00:00:00}\n\n**Ana Ruiz:** Um there is one thing.  \n**Bo Lind:** Yeah, but the number  \n**Ana Ruiz:** okay.  \n";
    assert_eq!(sniff(gemini), Some(Format::Paragraphs));
    let t = tracks(one(&read(gemini).corpus));
    let who: Vec<_> = t.iter().map(|x| (x.0.as_str(), x.4.as_str())).collect();
    assert_eq!(
        who,
        [
            ("Ana Ruiz", "Um there is one thing."),
            ("Bo Lind", "Yeah, but the number"),
            ("Ana Ruiz", "okay.")
        ]
    );
    // A block whose first line names nobody stays one paragraph (YouTube), colons and all.
    let youtube = "0:04\nhello there\nSo: what now\n0:09\nbye\n";
    let t = tracks(one(&read(youtube).corpus));
    assert_eq!(t[0].4, "hello there\nSo: what now");
    assert_eq!(t[0].0, "unknown");
}

#[test]
fn text_without_any_timestamp_is_an_error_not_an_empty_result() {
    let e =
        read_str("just some prose\nwith no times\n", Format::Paragraphs, &ReadOptions::default())
            .unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(1), Some(1)));
    assert!(e.to_string().contains("no paragraph with a start time"), "{e}");
}

#[test]
fn plain_prose_and_csv_are_not_taken_for_paragraphs() {
    assert_eq!(sniff("We left at 10:30 and came back.\nIt was late.\n"), None);
    assert_eq!(sniff("start,end,speaker\n0,1,a\n"), Some(Format::Csv));
    assert_eq!(sniff("0.5,1.25,a,hello\n"), Some(Format::Csv));
    assert_eq!(sniff("00:00:01.5,00:00:02,a\n"), Some(Format::Csv));
    assert_eq!(sniff("Speaker,Start Time (s),End Time (s)\nA,1,2\n"), Some(Format::Csv));
    // Prose with a comma is no table (Gemini's notes open with a date).
    assert_eq!(sniff("# Notes\n\nFeb 19, 2026\n\nWe met, then left.\n"), None);
}

#[test]
fn converts_to_timed_formats_with_estimated_ends_flagged_in_json() {
    let out = read(REV);
    let mut json = Vec::new();
    write(&out.corpus, Format::Json, &mut json).unwrap();
    let json = String::from_utf8(json).unwrap();
    assert_eq!(json.matches("\"end_estimated\": true").count(), 5);
    assert_eq!(json.matches("\"kind\": \"crosstalk\"").count(), 2);
    let back = read_str(&json, Format::Json, &ReadOptions::default()).unwrap();
    assert_eq!(back.corpus, out.corpus);
    let mut rttm = Vec::new();
    write(&out.corpus, Format::Rttm, &mut rttm).unwrap();
    let rttm = String::from_utf8(rttm).unwrap();
    assert!(
        rttm.starts_with("SPEAKER recording 1 0.000 5.500 <NA> <NA> Moderator_Ana_Ruiz"),
        "{rttm}"
    );
    let mut vtt = Vec::new();
    write(&out.corpus, Format::WebVtt, &mut vtt).unwrap();
    assert!(String::from_utf8(vtt).unwrap().contains("00:00:12.000 --> 00:00:15.000"));
}

#[test]
fn docx_files_read_like_their_text() {
    let lines = REV.lines().collect::<Vec<_>>();
    let docx = docx_of(&lines);
    let out = read_bytes(&docx, Some("debate.docx"), None, &ReadOptions::default()).unwrap();
    assert_eq!(out.format, Some(Format::Rev));
    assert_eq!(out.corpus, read(REV).corpus);
    // Named by --from, a zip is read as .docx whatever its name.
    let out = read_bytes(&docx, Some("debate.bin"), Some(Format::Otter), &ReadOptions::default());
    assert_eq!(tracks(one(&out.unwrap().corpus)).len(), 5);
}

#[test]
fn a_docx_that_is_not_a_zip_is_a_clear_error_naming_the_file() {
    let dir = std::env::temp_dir().join(format!("overtalk-docx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("interview.docx");
    std::fs::write(&path, "Speaker 1  0:04\nhello\n").unwrap();
    let e = read_path(&path, None, &ReadOptions::default()).unwrap_err();
    let shown = e.to_string();
    assert!(shown.starts_with(&path.display().to_string()), "{shown}");
    assert!(shown.contains("not a .docx") && shown.contains("zip"), "{shown}");
    assert_eq!((e.line(), e.column()), (Some(1), Some(1)));
    std::fs::remove_dir_all(&dir).ok();
}

/// A paragraph file of about `bytes` bytes: two speakers alternating every 10 s, 40 words each.
fn big_file(bytes: usize) -> (String, usize) {
    let para = "word ".repeat(39) + "end.";
    let mut s = String::with_capacity(bytes + 4096);
    let mut n = 0usize;
    while s.len() < bytes {
        let secs = n * 10;
        let who = if n % 2 == 0 { "Ana Ruiz" } else { "Bo Lind" };
        s.push_str(&format!(
            "{who} ({:02}:{:02}:{:02}):\n{para}\n\n",
            secs / 3600,
            secs / 60 % 60,
            secs % 60
        ));
        n += 1;
    }
    (s, n)
}

/// Time and memory are linear in the input: 20 MB read here; the 100 MB file below is the
/// same loop five times longer (`cargo test -- --ignored` runs it).
#[test]
fn a_large_file_reads_in_linear_time() {
    read_big(20 << 20, Duration::from_secs(60));
}

#[test]
#[ignore = "100 MB input: run with --ignored"]
fn a_100_mb_file_reads_in_bounded_time() {
    read_big(100 << 20, Duration::from_secs(300));
}

fn read_big(bytes: usize, bound: Duration) {
    let (text, n) = big_file(bytes);
    let dir = std::env::temp_dir().join(format!("overtalk-big-{}-{bytes}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.txt");
    std::fs::write(&path, &text).unwrap();
    drop(text);
    let started = Instant::now();
    let out = read_path(&path, None, &ReadOptions::default()).unwrap();
    let took = started.elapsed();
    std::fs::remove_dir_all(&dir).ok();
    assert!(took < bound, "{bytes} bytes took {took:?}");
    assert_eq!(out.format, Some(Format::Rev));
    let t = out.corpus.get("big").unwrap();
    assert_eq!(t.annotation().len(), n);
    assert_eq!(t.estimated_ends(), n);
    // 40 words at 2 a second: 20 s, cut at the next start (10 s later).
    let first = t.annotation().tracks()[0].segment;
    assert_eq!((first.start().micros(), first.end().micros()), (0, 10 * S));
    assert!(!out.warnings.iter().any(|w| w.kind != WarningKind::Note), "{:?}", out.warnings);
}

/// A `.docx` (zip archive, stored member, written by the `zip` crate) whose paragraphs are `lines`.
fn docx_of(lines: &[&str]) -> Vec<u8> {
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?><w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>");
    for l in lines {
        let escaped = l.replace('&', "&amp;").replace('<', "&lt;");
        xml.push_str(&format!("<w:p><w:r><w:t xml:space=\"preserve\">{escaped}</w:t></w:r></w:p>"));
    }
    xml.push_str("</w:body></w:document>");
    use std::io::Write;
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    w.start_file("word/document.xml", options).unwrap();
    w.write_all(xml.as_bytes()).unwrap();
    w.finish().unwrap().into_inner()
}

/// Shapes met in public podcast and interview transcripts: Rev's nameless continuation header
/// `(01:10:19):`, a bare time after `Name:`, a name and a bracketed time, Markdown headings and
/// rules between paragraphs, and Otter's footer. None of them may end up inside the text.
#[test]
fn transcripts_as_published_keep_every_paragraph_apart() {
    let rev = "Lenny Rachitsky (01:10:00):\nBefore we started recording, you told me.\n\n\
               (01:10:19):\nOkay. Where can folks find you?\n\n\
               Michael Truell (01:10:25):\nOn the site.\n";
    let out = read(rev);
    assert_eq!(out.format, Some(Format::Rev));
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            tr(
                "Lenny Rachitsky",
                4200 * S,
                4203 * S + S / 2,
                "Before we started recording, you told me."
            ),
            tr("Lenny Rachitsky", 4219 * S, 4222 * S, "Okay. Where can folks find you?"),
            tr("Michael Truell", 4225 * S, 4226 * S + S / 2, "On the site."),
        ]
    );
    let bare =
        "Jon Krohn: 00:02:51\n\nAmy, welcome to the show.\n\nAmy Brand: 00:02:59\n\nThanks.\n";
    let got = tracks(one(&read(bare).corpus));
    assert_eq!(
        got.iter().map(|t| (t.0.as_str(), t.1 / S, t.4.as_str())).collect::<Vec<_>>(),
        vec![("Jon Krohn", 171, "Amy, welcome to the show."), ("Amy Brand", 179, "Thanks.")]
    );
    let site = "# Episode 5\n\n**Emma** [0:00] Today we talk about bugs.\n\n## Part 2\n\n---\n\n\
                **Ali** [0:09]: Sure thing.\n\nTranscribed by https://otter.ai\n";
    let out = read(site);
    assert_eq!(
        tracks(one(&out.corpus))
            .iter()
            .map(|t| (t.0.as_str(), t.1 / S, t.4.as_str()))
            .collect::<Vec<_>>(),
        vec![("Emma", 0, "Today we talk about bugs."), ("Ali", 9, "Sure thing.")]
    );
    assert!(out
        .warnings
        .iter()
        .any(|w| w.kind == WarningKind::Skipped && w.message.contains("4 line(s) of markup")));
}

/// A transcript with start times only is analysed in timing-only mode, its words set aside
/// for the timing; each speaker's `words` is still the number of words said (it was 0).
#[test]
fn start_times_only_keep_each_speakers_word_count() {
    let text = "Alice (00:00:01):\nHello there, how are you doing today?\n\n\
                Bob (00:00:05):\nI am fine, thanks for asking.\n\n\
                Alice (00:00:09):\nGood to hear.\n";
    let out = read(text);
    let t = out.corpus.iter().next().unwrap().1;
    assert!(t.estimated_ends() > 0);
    let a = overtalk::analysis::analyze(t, &overtalk::analysis::Params::default()).unwrap();
    let words: Vec<(&str, usize, Option<f64>)> =
        a.speakers.iter().map(|(n, s)| (n.as_str(), s.words, s.wpm)).collect();
    // Alice 7 + 3, Bob 6 (as text mode counts them); no words per minute of estimated talk.
    assert_eq!(words, vec![("Alice", 10, None), ("Bob", 6, None)]);
}

/// A fixture of `tests/data/paragraphs/`, detected from its content and read.
fn fixture(name: &str) -> overtalk::format::ReadOutput {
    let path = overtalk_testkit::fixtures().join("paragraphs").join(name);
    read_path(&path, None, &ReadOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// `(speaker, line)` of every untimed turn of a fixture's one recording, and its warnings.
fn untimed_turns(out: &overtalk::format::ReadOutput) -> (Vec<(String, usize)>, Vec<String>) {
    let (_, t) = out.corpus.iter().next().unwrap();
    assert!(t.is_untimed());
    assert!(t.annotation().is_empty());
    let turns = t
        .untimed()
        .iter()
        .map(|u| (t.annotation().speaker_name(u.speaker).to_owned(), u.line))
        .collect();
    (turns, out.warnings.iter().map(|w| w.to_string()).collect())
}

fn turns_of(pairs: &[(&str, usize)]) -> Vec<(String, usize)> {
    pairs.iter().map(|&(name, line)| (name.to_owned(), line)).collect()
}

/// The Australian Hansard until 2011: the label and the words on one line, a dash between
/// them (`Mr ALBANESE —because…`), the first label of a speech with the office or the time in
/// parentheses, the chair and the members (`The SPEAKER —Order!`, `Honourable members—Hear,
/// hear!`). Read before: no format at all.
#[test]
fn australian_hansard_labels_before_a_dash() {
    let (turns, warnings) = untimed_turns(&fixture("hansard_au_2009.txt"));
    assert_eq!(
        turns,
        turns_of(&[
            ("Mr PRICE", 5),
            ("Mr ALBANESE", 7),
            ("Mr ALBANESE", 11),
            ("Mr Abbott", 13),
            ("The SPEAKER", 15),
            ("Honourable members", 17),
            ("Mr ALBANESE", 19),
        ])
    );
    assert!(warnings.iter().any(|w| w.contains("7 utterance(s) by 5 speaker(s)")), "{warnings:?}");
}

/// The Australian Hansard since 2011: a speech's first label has the seat and the clock time
/// of day in parentheses (`Mr ALBANESE (Grayndler) (14:43):`), the turns inside it a bare
/// `The SPEAKER:`. Read before as a Rev transcript of three paragraphs, `14:43` taken for
/// 14 min 43 s and every untimed turn folded into the paragraph above; now the times, fewer
/// than the turns without one, are set aside with a warning, and one member's labels are one
/// speaker.
#[test]
fn australian_hansard_times_of_day_on_some_labels() {
    let (turns, warnings) = untimed_turns(&fixture("hansard_au_2014.txt"));
    let dutton = "Mr DUTTON (Dickson—Minister for Health)";
    assert_eq!(
        turns,
        turns_of(&[
            ("Mr ALBANESE", 5),
            ("The SPEAKER", 7),
            ("Mr ALBANESE", 9),
            ("Mr Pyne", 11),
            ("The SPEAKER", 13),
            (dutton, 15),
            ("Mr ALBANESE", 17),
        ])
    );
    let has = |s: &str| warnings.iter().any(|w| w.contains(s));
    assert!(
        has("line 5, column 1: 3 line(s) with a time among speakers' turns without times, the first here: 4 turn(s) have no time"),
        "{warnings:?}"
    );
    assert!(has("Mr ALBANESE (Grayndler) → Mr ALBANESE; Mr ALBANESE (Grayndler—Leader of the Opposition) → Mr ALBANESE"), "{warnings:?}");
}

/// UK Hansard copied with the label on the line of its words and no colon: the member's
/// name and parts in parentheses at the first turn, the name alone after, the Speaker and the
/// members' chorus. Read before: no format at all.
#[test]
fn uk_hansard_labels_on_the_line_of_the_words_without_a_colon() {
    let (turns, warnings) = untimed_turns(&fixture("hansard_uk_one_line.txt"));
    assert_eq!(
        turns,
        turns_of(&[
            ("Mr John Smith", 3),
            ("The Prime Minister", 5),
            ("Mr John Smith", 7),
            ("Hon. Members", 9),
            ("Mr Speaker", 11),
            ("The Prime Minister", 13),
        ])
    );
    assert!(warnings.iter().any(|w| w.contains("6 utterance(s) by 4 speaker(s)")), "{warnings:?}");
}

/// A deposition whose oath runs over two lines, and one whose witness is named in mixed
/// case: the answers and `THE WITNESS:` are the witness's, by name. Read before: the
/// answers as `THE WITNESS`'s, the oath not read as naming anyone.
#[test]
fn depositions_name_the_witness_sworn_over_two_lines_or_in_mixed_case() {
    let (turns, _) = untimed_turns(&fixture("deposition_two_line_oath.txt"));
    assert_eq!(
        turns,
        turns_of(&[
            ("MS. ORTIZ", 10),
            ("JOHN SMITH", 11),
            ("MS. ORTIZ", 12),
            ("JOHN SMITH", 13),
            ("MR. KLEIN", 14),
            ("JOHN SMITH", 15),
            ("MS. ORTIZ", 16),
            ("JOHN SMITH", 17),
        ])
    );
    let (turns, _) = untimed_turns(&fixture("deposition_mixed_case.txt"));
    assert_eq!(
        turns,
        turns_of(&[
            ("MR. LEE", 6),
            ("Mary Roe", 7),
            ("MR. LEE", 8),
            ("Mary Roe", 9),
            ("Mary Roe", 10),
            ("MR. LEE", 11),
        ])
    );
}

/// White House press briefings: the press secretary by name (`MS. LEAVITT:`, `MR.
/// McCLELLAN:`), the reporters' questions as `Q` followed by spaces, the times of day above
/// and after `END` no turns. Read before: no format at all (a `Q` line was no label).
#[test]
fn press_briefings_with_questions_as_q() {
    let (turns, warnings) = untimed_turns(&fixture("press_briefing_2025.txt"));
    let mut want = vec![("MS. LEAVITT", 10)];
    for k in 0..3 {
        want.push(("Q", 12 + 4 * k));
        want.push(("MS. LEAVITT", 14 + 4 * k));
    }
    assert_eq!(turns, turns_of(&want));
    assert!(warnings.iter().any(|w| w.contains("7 utterance(s) by 2 speaker(s)")), "{warnings:?}");
    let out = fixture("press_briefing_2003.txt");
    let (turns, _) = untimed_turns(&out);
    assert_eq!(
        turns,
        turns_of(&[
            ("MR. McCLELLAN", 9),
            ("Q", 11),
            ("MR. McCLELLAN", 12),
            ("Q", 13),
            ("MR. McCLELLAN", 15),
            ("Q", 16),
            ("MR. McCLELLAN", 17),
        ])
    );
    let (_, t) = out.corpus.iter().next().unwrap();
    assert_eq!(
        t.untimed()[3].content.display_text(),
        "Are you aware of anyone who has? And\nwill you tell us when they do?"
    );
}

/// UK select committee evidence: each question numbered before its label (`Q1 Chair:`), the
/// panel listed under `Witnesses:`. Read before: `Q1 Chair`, `Q2 Chair`, `Q3 Mr Jones` and
/// `Q4 Chair` as four speakers, and `Witnesses` as another.
#[test]
fn committee_evidence_numbers_its_questions() {
    let (turns, warnings) = untimed_turns(&fixture("committee_evidence.txt"));
    assert_eq!(
        turns,
        turns_of(&[
            ("Chair", 9),
            ("Sir John Smith", 11),
            ("Dr Ruiz", 13),
            ("Chair", 15),
            ("Sir John Smith", 17),
            ("Mr Jones", 19),
            ("Dr Ruiz", 21),
            ("Chair", 23),
        ])
    );
    assert!(warnings.iter().any(|w| w.contains("8 utterance(s) by 4 speaker(s)")), "{warnings:?}");
}

/// Microsoft Word's transcription: `00:00:06 Speaker 2` on a line, the words below. Read
/// before: every paragraph by `unknown`, the name the first line of its words.
#[test]
fn word_transcription_names_after_the_time() {
    let out = fixture("word_transcription.txt");
    let (_, t) = out.corpus.iter().next().unwrap();
    let got: Vec<(String, i64, i64, String)> =
        tracks(t).into_iter().map(|(name, start, end, _, text)| (name, start, end, text)).collect();
    let row = |n: &str, s: i64, e: i64, text: &str| (n.to_owned(), s, e, text.to_owned());
    assert_eq!(
        got,
        vec![
            row(
                "Speaker 1",
                0,
                6 * S,
                "Good morning and welcome to the show. Today we talk about rivers."
            ),
            row("Speaker 2", 6 * S, 8 * S, "Thanks for having me."),
            row(
                "Speaker 1",
                9 * S,
                14_500_000,
                "Let us begin with the floods of last spring.\nWhat happened?"
            ),
            row("Speaker 2", 15 * S, 15_500_000, "Okay"),
            row("Speaker 2", 21 * S, 24_500_000, "The water came up in two days."),
        ]
    );
    assert!(out
        .warnings
        .iter()
        .any(|w| w.to_string().contains("5 header(s) of a time and a name alone")));
}

/// A page copied as Markdown keeps its clickable times as links (InfoQ's podcast transcripts:
/// `[13:30](javascript:void(0);) Name: text`): the link's target is no part of the header, and
/// the name after it is the speaker. A note in parentheses after a time stays text.
#[test]
fn a_time_written_as_a_markdown_link() {
    let text = "[00:45](javascript:void(0);) Akhilesh Gupta: Thank you, Charles.\n\n[01:02](https://example.org/ep?t=62) Charles Humble: Can you tell us?\n\n[01:10](#t=70) Akhilesh Gupta: Yes.\n";
    assert_eq!(sniff(text), Some(Format::Paragraphs));
    let out = read(text);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            tr("Akhilesh Gupta", 45 * S, 46_500_000, "Thank you, Charles."),
            tr("Charles Humble", 62 * S, 64 * S, "Can you tell us?"),
            tr("Akhilesh Gupta", 70 * S, 70 * S + 500_000, "Yes."),
        ]
    );
    let noted = "[00:01] Ana: hi\n[00:03](laughs) and more\n[00:05] Bo: yes\n";
    let t = tracks(one(&read(noted).corpus));
    assert_eq!((t[1].0.as_str(), t[1].4.as_str()), ("Ana", "(laughs) and more"));
}

/// A page that times the guest's answers but not the host's questions (InfoQ's podcast
/// transcripts): a `Name: text` line by a speaker the headers name is a paragraph of its own,
/// after the one above by its words, with one warning; it is not folded into the answer above.
#[test]
fn a_turn_without_a_time_by_a_speaker_the_headers_name() {
    let text = "[00:45] Akhilesh Gupta: Thank you, Charles.\n\n[01:02] Charles Humble: Can you tell us?\n\n[01:10] Akhilesh Gupta: We are going for speed.\n\nCharles Humble: Why not Kafka then?\n\nAna: not a speaker of the headers.\n\n[13:30] Akhilesh Gupta: There are reasons.\n";
    let out = read(text);
    let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
    assert_eq!(
        w,
        vec![(WarningKind::MissingTime, Some(7)), (WarningKind::Note, Some(7))],
        "{:?}",
        out.warnings
    );
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            tr("Akhilesh Gupta", 45 * S, 46_500_000, "Thank you, Charles."),
            tr("Charles Humble", 62 * S, 64 * S, "Can you tell us?"),
            tr("Akhilesh Gupta", 70 * S, 72_500_000, "We are going for speed."),
            // Placed after the answer above by its words (5, then 11 at 2 a second); a name
            // no header gives stays text.
            tr(
                "Charles Humble",
                72_500_000,
                78 * S,
                "Why not Kafka then?\nAna: not a speaker of the headers."
            ),
            tr("Akhilesh Gupta", 810 * S, 811_500_000, "There are reasons."),
        ]
    );
    let strict = ReadOptions { strict: true, ..Default::default() };
    let e = read_str(text, Format::Paragraphs, &strict).unwrap_err().to_string();
    assert!(e.starts_with("line 7, column 1: paragraphs: 1 turn(s) by a speaker"), "{e}");
}

/// The podcast page fixture: times as links, the host's turns without a time, the title and
/// the cold open above the first time skipped.
#[test]
fn a_podcast_page_with_linked_times_and_untimed_questions() {
    let out = fixture("podcast_page_links.txt");
    let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
    assert_eq!(
        w,
        vec![
            (WarningKind::Skipped, Some(3)),
            (WarningKind::MissingTime, Some(11)),
            (WarningKind::Skipped, Some(1)),
            (WarningKind::Note, Some(11)),
        ],
        "{:?}",
        out.warnings
    );
    let t = tracks(out.corpus.iter().next().unwrap().1);
    let who: Vec<_> = t.iter().map(|x| (x.0.as_str(), x.1, x.2)).collect();
    assert_eq!(
        who,
        [
            // 9, 7, 15 (the crosstalk note is no words), then 7 words at 2 a second.
            ("Bo Lind", 45 * S, 49_500_000),
            ("Ana Ruiz", 62 * S, 65_500_000),
            ("Bo Lind", 70 * S, 77_500_000),
            ("Ana Ruiz", 77_500_000, 81 * S),
            ("Bo Lind", 810 * S, 812_500_000),
        ]
    );
}

/// A CNN rush transcript: the show's title (with a colon) and the air date above the rush
/// notice are no turn, the notice is no words, the bracketed time marks are set aside (one
/// inside a turn leaves the turn whole), and a host named in full, then by surname, is one
/// speaker. Read before: the title was a speaker, `CNN TOWN HALL`, with 17 words.
#[test]
fn a_cnn_rush_transcript_without_its_title_and_notice() {
    let out = fixture("rush_cnn.txt");
    let (turns, warnings) = untimed_turns(&out);
    assert_eq!(
        turns,
        turns_of(&[
            ("RUIZ", 9),
            ("LIND", 11),
            ("RUIZ", 13),
            ("UNIDENTIFIED MALE", 17),
            ("LIND", 21),
            ("RUIZ", 27),
        ])
    );
    let t = out.corpus.iter().next().unwrap().1;
    assert_eq!(
        t.untimed()[4].content.display_text(),
        "That is the question --\n-- the council has to answer tonight."
    );
    let has = |s: &str| warnings.iter().any(|w| w.contains(s));
    assert!(
        has("line 1, column 1: 2 line(s) above the first speaker's turn skipped"),
        "{warnings:?}"
    );
    assert!(
        has("line 5, column 1: 1 line(s) of markup, a service's footer, a broadcaster's notice"),
        "{warnings:?}"
    );
    assert!(
        has("line 7, column 1: 2 line(s) with a time among speakers' turns without times"),
        "{warnings:?}"
    );
}

/// Fox News and MSNBC rush transcripts: the notice (above the turns, or below them) and the
/// copyright paragraph under the last turn are no words of it; MSNBC's `Show:`/`Date:` fields
/// no longer hide the transcript from format detection ("cannot tell the format" before).
#[test]
fn fox_and_msnbc_rush_transcripts_without_notice_and_copyright() {
    let out = fixture("rush_fox.txt");
    let (turns, warnings) = untimed_turns(&out);
    assert_eq!(
        turns,
        turns_of(&[("RUIZ", 3), ("MARSH", 5), ("RUIZ", 9), ("MARSH", 11), ("RUIZ", 13)])
    );
    let t = out.corpus.iter().next().unwrap().1;
    assert_eq!(t.untimed()[4].content.display_text(), "That's it for tonight.");
    assert!(
        warnings.iter().any(|w| w.contains("line 1, column 1: 2 line(s) of markup")),
        "{warnings:?}"
    );
    let msnbc = overtalk_testkit::fixtures().join("paragraphs").join("rush_msnbc.txt");
    let text = std::fs::read_to_string(&msnbc).unwrap();
    assert_eq!(detect(Some("rush_msnbc.txt"), &text, None).unwrap(), Format::Paragraphs);
    let out = fixture("rush_msnbc.txt");
    let (turns, warnings) = untimed_turns(&out);
    assert_eq!(
        turns,
        turns_of(&[
            ("RUIZ", 5),
            ("LIND", 7),
            ("RUIZ", 9),
            ("MARSH", 11),
            ("RUIZ", 13),
            ("LIND", 15),
            ("MARSH", 17),
            ("RUIZ", 19),
        ])
    );
    let t = out.corpus.iter().next().unwrap().1;
    assert_eq!(t.untimed()[7].content.display_text(), "Thank you both.");
    let has = |s: &str| warnings.iter().any(|w| w.contains(s));
    assert!(
        has("line 1, column 1: 3 line(s) above the first speaker's turn skipped"),
        "{warnings:?}"
    );
    assert!(has("line 21, column 1: 2 line(s) of markup"), "{warnings:?}");
    // A notice near the top but below turns (a short transcript) leaves the turns above it.
    let short = "HAYES: Tonight.\n\nROE: It is a big day.\n\nHAYES: Thank you.\n\nTHIS IS A RUSH TRANSCRIPT. THIS COPY MAY NOT BE IN ITS FINAL FORM AND MAY BE UPDATED.\n";
    let out = read_str(short, Format::Paragraphs, &ReadOptions::default()).unwrap();
    let (turns, _) = untimed_turns(&out);
    assert_eq!(turns, turns_of(&[("HAYES", 1), ("ROE", 3), ("HAYES", 5)]));
    // A mail's header in capitals is still no transcript.
    let mail = "FROM: Ana Ruiz\nTO: Bo Lind\nFROM: Bo Lind\nANA: Fine, thanks.\n";
    assert!(detect(Some("mail.txt"), mail, None).is_err());
}

/// Labels alone on their line (Rev's export without timestamps, as pages paste it) or in
/// Markdown bold (`**Name:**` above the words or before them, `**Name**: text`): each opens a
/// turn with the words under or after it. Read before: "cannot tell the format", and no
/// paragraph with `--from paragraphs`.
#[test]
fn labels_alone_on_their_line_or_in_markdown_bold() {
    let out = fixture("labels_alone_markdown.txt");
    let (turns, warnings) = untimed_turns(&out);
    assert_eq!(
        turns,
        turns_of(&[
            ("Rebecca", 5),
            ("Rebecca", 7),
            ("Dana", 9),
            ("Rebecca", 12),
            ("Dana", 16),
            ("Rebecca", 18)
        ])
    );
    let t = out.corpus.iter().next().unwrap().1;
    let said: Vec<String> = t.untimed().iter().map(|u| u.content.display_text()).collect();
    assert_eq!(
        said,
        [
            "Hello and welcome to the podcast. My name is Rebecca.",
            "Hello, Dana. Thanks for coming.",
            "Thanks for having me.",
            "And it's like nope. [crosstalk 00:06:51]",
            "I think you're right.",
            "Thank you, Dana.",
        ]
    );
    assert_eq!(t.marks().len(), 1);
    assert!(
        warnings
            .iter()
            .any(|w| w
                .contains("line 3, column 1: 1 line(s) above the first speaker's turn skipped")),
        "{warnings:?}"
    );
    // A bold heading with a colon above prose is no transcript.
    let notes = "**Summary:**\nWe met.\n\n**Next steps:**\nShip it.\n";
    assert!(detect(Some("notes.txt"), notes, None).is_err());
}

/// Sonix's export and embedded player: the footer of a free account was words of the last
/// paragraph, the player's credit line on a page a speaker (`The Mystery of Metador.mp4`) and
/// its closing line words of the last turn. They are skipped as a service's credit.
#[test]
fn sonix_credit_lines_are_no_speech() {
    let out = fixture("sonix_free_account.txt");
    let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
    assert_eq!(w, vec![(WarningKind::Skipped, Some(11))], "{:?}", out.warnings);
    let t = tracks(out.corpus.iter().next().unwrap().1);
    let who: Vec<_> = t.iter().map(|x| (x.0.as_str(), x.1, x.2, x.4.as_str())).collect();
    assert_eq!(
        who,
        [
            ("Team mem. 2", 2 * S, 6_500_000, "Hello. Is it okay if we record this session?"),
            ("Customer", 9 * S, 10_500_000, "Yes, go ahead."),
            ("Team mem. 1", 12 * S, 15 * S, "Good day. Let's start our interview."),
            ("Customer", 21 * S, 21_500_000, "Green."),
            ("Customer", 25 * S, 27_500_000, "Okay. That's all for today."),
        ]
    );
    let embed = "The Talk.mp4: [this mp4 audio file](https://sonix.ai/x?utm_source=embed \"Sonix\") was [automatically transcribed by Sonix](https://sonix.ai/y?utm_source=embed \"Sonix\") with the [best speech-to-text algorithms.](https://sonix.ai/z) This transcript may contain errors.\n\n**Ana Ruiz:**\nSo who are we? A startup.\n\n**Bo Lind:**\nThank you.\n\n**Ana Ruiz:**\nThat is how it works.\n\nAutomatically convert your audio to text with Sonix. Sonix is the best online, automated transcription service.\n";
    let out = read_str(embed, Format::Paragraphs, &ReadOptions::default()).unwrap();
    let (turns, warnings) = untimed_turns(&out);
    assert_eq!(turns, turns_of(&[("Ana Ruiz", 3), ("Bo Lind", 6), ("Ana Ruiz", 9)]));
    let t = out.corpus.iter().next().unwrap().1;
    assert_eq!(t.untimed()[2].content.display_text(), "That is how it works.");
    assert!(
        warnings.iter().any(|w| w.contains("line 1, column 1: 2 line(s) of markup")),
        "{warnings:?}"
    );
}

/// A broadcaster's delivery note after the name (`COOPER (voice-over):`, `TUCHMAN (on
/// camera):`, `UNIDENTIFIED MALE (through translator):`) is no part of the speaker's name:
/// such a label opens a turn of that speaker. Read before: the labels were no names, their
/// turns folded into the turn above, and the text was "cannot tell the format".
#[test]
fn delivery_notes_after_a_broadcasters_label() {
    let text = "THIS IS A RUSH TRANSCRIPT. THIS COPY MAY NOT BE IN ITS FINAL FORM AND MAY BE UPDATED.\n\nANA RUIZ, CNN ANCHOR: Good evening.\n\nRUIZ (voice-over): The storm hit at dawn.\n\nBO LIND, CNN CORRESPONDENT (voice-over): Residents fled.\n\nUNIDENTIFIED MALE (through translator): We lost everything.\n\nLIND (on camera): Ana, back to you.\n\nRUIZ: Thanks, Bo.\n\nSEN. CY MARSH (I-VT): Let me be clear.\n\nRUIZ: Senator.\n";
    assert_eq!(detect(Some("storm.txt"), text, None).unwrap(), Format::Paragraphs);
    let out = read_str(text, Format::Paragraphs, &ReadOptions::default()).unwrap();
    let (turns, warnings) = untimed_turns(&out);
    assert_eq!(
        turns,
        turns_of(&[
            ("RUIZ", 3),
            ("RUIZ", 5),
            ("LIND", 7),
            ("UNIDENTIFIED MALE", 9),
            ("LIND", 11),
            ("RUIZ", 13),
            ("SEN. CY MARSH (I-VT)", 15),
            ("RUIZ", 17),
        ])
    );
    let t = out.corpus.iter().next().unwrap().1;
    assert_eq!(t.untimed()[1].content.display_text(), "The storm hit at dawn.");
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("ANA RUIZ, CNN ANCHOR → RUIZ; BO LIND, CNN CORRESPONDENT → LIND")),
        "{warnings:?}"
    );
}

/// A podcast site's transcript: each paragraph opens with a time and the speaker's name in
/// Markdown bold, no colon (`0:00:14.1 **Ana Ruiz** Welcome…`), two names joined by `&`
/// for laughter together. Read before: the bold removed, the name ran into the words and every
/// paragraph went to `unknown`.
#[test]
fn podcast_names_in_bold_after_the_time() {
    let out = fixture("podcast_bold_names.txt");
    let t = out.corpus.iter().next().unwrap().1;
    assert_eq!(
        tracks(t),
        vec![
            tr(
                "Ana Ruiz",
                14_100_000,
                20_100_000,
                "Welcome to the show, episode 5. My co-hosts are here, say hi."
            ),
            tr("Bo Lind", 21_400_000, 21_900_000, "Hey!"),
            tr("Ana Ruiz", 22_300_000, 25 * S, "And our guest today, Cy Marsh."),
            tr("Cy Marsh", 25 * S, 27 * S, "Thanks for having me."),
            tr("Bo Lind & Ana Ruiz", 27_200_000, 27_700_000, "(laughing)"),
            tr(
                "Cy Marsh",
                29 * S,
                35_500_000,
                "So it started with a blog post.\nIt took four years to finish."
            ),
        ]
    );
    let warnings: Vec<String> = out.warnings.iter().map(|w| w.to_string()).collect();
    assert!(!warnings.iter().any(|w| w.contains("missing-speaker")), "{warnings:?}");
}

/// An anonymised research interview: the participant's label is a placeholder in square
/// brackets (`[Int2]: About six.`), the interviewer's a plain `Interviewer:`. Read before:
/// one name only, so no transcript at all (and, forced, every answer folded into a
/// question).
#[test]
fn interview_participants_in_square_brackets() {
    let (turns, warnings) = untimed_turns(&fixture("interview_bracketed_ids.txt"));
    assert_eq!(
        turns,
        turns_of(&[
            ("Interviewer", 4),
            ("Int2", 6),
            ("Interviewer", 8),
            ("Int2", 10),
            ("Interviewer", 12),
            ("Int2", 14),
        ])
    );
    assert!(
        warnings.iter().any(|w| w.contains("2 line(s) above the first speaker's turn skipped")),
        "{warnings:?}"
    );
}

/// An interview kept in Markdown: each speaker's name a heading above their words (`###
/// Interviewer`), the same speaker twice in a row at times. Read before: the headings
/// skipped as markup, no transcript at all.
#[test]
fn interview_speakers_as_markdown_headings() {
    let out = fixture("interview_markdown_headings.txt");
    let (turns, _) = untimed_turns(&out);
    assert_eq!(
        turns,
        turns_of(&[
            ("Interviewer", 2),
            ("Systems Developer", 4),
            ("Interviewer", 6),
            ("Systems Developer", 9),
            ("Systems Developer", 11),
            ("Interviewer", 13),
        ])
    );
    let t = out.corpus.iter().next().unwrap().1;
    assert_eq!(
        t.untimed()[2].content.display_text(),
        "It is a way to structure the research in steps.\nIt is used a lot in information systems."
    );
}

/// Speaker labels in lower case (`dana:`, `interviewer:`), decided from the whole file: the
/// labels that recur and alternate are speakers; `note:` and a label that comes once
/// (`result:`) are words of the turn above, with a note; a time and `e.g.:` inside a turn
/// stay words. `--strict` reads it the same: the notes are about well-formed input.
#[test]
fn lower_case_labels_by_the_whole_file() {
    let out = fixture("lowercase_labels.txt");
    let (turns, warnings) = untimed_turns(&out);
    assert_eq!(
        turns,
        turns_of(&[("dana", 3), ("interviewer", 4), ("dana", 5), ("interviewer", 7), ("dana", 9)])
    );
    let t = out.corpus.iter().next().unwrap().1;
    assert_eq!(
        t.untimed()[2].content.display_text(),
        "around the second year, when everyone moved over.\nnote: the audio cut out here for a few seconds."
    );
    assert_eq!(
        t.untimed()[3].content.display_text(),
        "right. and after that?\nresult: nothing changed for a while."
    );
    assert_eq!(
        t.untimed()[4].content.display_text(),
        "we wrote it up at 10:30 that night, e.g.: the survey."
    );
    let has = |s: &str| warnings.iter().any(|w| w.contains(s));
    assert!(has("lower-case labels read as speakers' names, as they recur at the start of lines and alternate: `dana` (3), `interviewer` (2)"), "{warnings:?}");
    assert!(has("line 8, column 1: 1 line(s) open with a lower-case label that comes once, the first `result:`"), "{warnings:?}");
    let path = overtalk_testkit::fixtures().join("paragraphs").join("lowercase_labels.txt");
    let opts = ReadOptions { strict: true, ..ReadOptions::default() };
    // Under --strict the title above the first turn is a note (the document's head), and the
    // lower-case reading stands, with or without the title.
    let out = read_path(&path, None, &opts).unwrap();
    assert_eq!(out.corpus.iter().next().unwrap().1.untimed().len(), 5);
    let text = std::fs::read_to_string(&path).unwrap();
    let body = text.split_once("\n\n").unwrap().1;
    let out = read_str(body, Format::Paragraphs, &opts).unwrap();
    let t = out.corpus.iter().next().unwrap().1;
    assert_eq!(t.untimed().len(), 5);
}

/// A diarize-and-transcribe tool's Markdown: a summary above, then one line per segment with
/// its time range (`[00:00 → 00:15] SPEAKER_00: …`), a rule and the tool's italic footer
/// below. Read before: no format at all (the ranges were no times); now each segment keeps
/// its end as written (the overlap at 00:31 is the file's), and the footer under the rule is
/// no one's words.
#[test]
fn time_ranges_keep_their_ends_and_a_rule_ends_the_words() {
    let out = fixture("diarized_ranges_markdown.md");
    let t = out.corpus.iter().next().unwrap().1;
    let exact = |name: &str, start: i64, end: i64, text: &str| {
        (name.to_owned(), start * S, end * S, false, text.to_owned())
    };
    assert_eq!(
        tracks(t),
        vec![
            exact("SPEAKER_00", 0, 15, "Shall we begin? First, the progress on project X."),
            exact("SPEAKER_01", 15, 32, "Yes, the design phase finished on schedule."),
            exact("SPEAKER_00", 31, 34, "Good."),
            exact("SPEAKER_01", 34, 41, "We start building next week."),
        ]
    );
    assert_eq!(t.estimated_ends(), 0);
    let warnings: Vec<String> = out.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        warnings.iter().any(|w| w.contains(
            "line 1, column 1: 6 line(s) of markup (headings, rules, a footer under a rule)"
        )),
        "{warnings:?}"
    );
}

/// A council meeting's transcript without times: the clerk's certification under a rule at
/// the end (a heading, a sentence, a signature, `Approved:` and a date). Read before: all of
/// it was the mayor's last words; now the rule closes the turn above it.
#[test]
fn a_rule_closes_the_last_turn_of_an_untimed_transcript() {
    let out = fixture("council_certification.txt");
    let (turns, warnings) = untimed_turns(&out);
    assert_eq!(
        turns,
        turns_of(&[
            ("MAYOR OKAFOR", 7),
            ("COUNCILMEMBER LIND", 9),
            ("MAYOR OKAFOR", 11),
            ("COUNCIL", 13),
            ("MAYOR OKAFOR", 15),
        ])
    );
    let t = out.corpus.iter().next().unwrap().1;
    assert_eq!(
        t.untimed()[4].content.display_text(),
        "Motion carries. We are adjourned at 7:40 PM."
    );
    assert!(
        warnings.iter().any(|w| w.contains("line 5, column 1: 6 line(s) of markup")
            && w.contains("or a footer under a rule skipped")),
        "{warnings:?}"
    );
}

/// Microsoft Teams's transcript as text: the meeting's title, date and length, `Ana Ruiz
/// started transcription` above the first paragraph and `… stopped transcription` under the
/// last. Read before: the note at the end was the last speaker's words.
#[test]
fn teams_notes_that_the_transcription_started_and_stopped_are_no_words() {
    let out = fixture("teams_transcript.txt");
    let t = out.corpus.iter().next().unwrap().1;
    let said: Vec<(String, i64, String)> =
        tracks(t).into_iter().map(|(name, start, _, _, text)| (name, start, text)).collect();
    let turn = |name: &str, start: i64, text: &str| (name.to_owned(), start * S, text.to_owned());
    assert_eq!(
        said,
        vec![
            turn("Bo Lind", 3, "with you. And then the contract renews at the new amount."),
            turn("Ana Ruiz", 21, "That was."),
            turn("Bo Lind", 28, "term would be a year in this example."),
            turn("Ana Ruiz", 1864, "Have a good day."),
            turn("Cy Marsh", 1865, "Thanks, guys."),
        ]
    );
    let warnings: Vec<String> = out.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        warnings.iter().any(|w| w.contains("line 5, column 1: 2 line(s) of markup")),
        "{warnings:?}"
    );
}

/// Labels in lower case alone on their line, the words below (a qualitative-research export:
/// `interviewer`, then the question). Read before: "cannot tell the format". Now the labels
/// that recur and alternate open the turns (`interviewer:` with a colon too); a short line
/// that comes once (`yes`) stays words of the turn above.
#[test]
fn lower_case_labels_alone_on_their_line() {
    let out = fixture("lowercase_labels_alone.txt");
    let (turns, warnings) = untimed_turns(&out);
    assert_eq!(
        turns,
        turns_of(&[
            ("interviewer", 3),
            ("respondent", 6),
            ("interviewer", 10),
            ("respondent", 13),
            ("interviewer", 19),
        ])
    );
    let t = out.corpus.iter().next().unwrap().1;
    let said: Vec<String> = t.untimed().iter().map(|u| u.content.display_text()).collect();
    assert_eq!(
        said,
        [
            "so tell me how you first came to the garden.",
            "a neighbour brought me, the first spring after we moved here.\ni didn't know anyone.",
            "and what kept you coming back?",
            "the people, mostly.\nyes\nand the tomatoes, we had a very good year.",
            "thank you.",
        ]
    );
    let has = |s: &str| warnings.iter().any(|w| w.contains(s));
    assert!(has("lower-case labels read as speakers' names, as they recur at the start of lines and alternate: `interviewer` (3), `respondent` (2)"), "{warnings:?}");
    assert!(
        has("line 1, column 1: 1 line(s) above the first speaker's turn skipped"),
        "{warnings:?}"
    );
}

/// A flat Markdown document that repeats its sections (two recipes' `## Ingredients` and `##
/// Method`) is no transcript: read before as two speakers, `Ingredients` and `Method`; now
/// detection finds no speaker turns, and the paragraph reader, told to read it, says so.
#[test]
fn repeated_section_headings_are_no_transcript() {
    let path = overtalk_testkit::fixtures().join("paragraphs").join("recipe_sections.md");
    let e = read_path(&path, None, &ReadOptions::default()).unwrap_err().to_string();
    assert!(e.contains("recipe_sections.md"), "{e}");
    assert!(
        e.contains("cannot tell the format from the file name or content, and no speaker turns found in it as text"),
        "{e}"
    );
    let e = read_path(&path, Some(Format::Paragraphs), &ReadOptions::default()).unwrap_err();
    // The first line of text that is no heading: the first ingredient.
    assert_eq!((e.line(), e.column()), (Some(5), Some(1)));
    let e = e.to_string();
    assert!(e.contains("recipe_sections.md"), "{e}");
    assert!(e.contains("no speaker turns found: no paragraph with a start time"), "{e}");
}

/// An agenda's time ranges and item titles are a schedule, not a diarized transcript: read
/// before as the turns of `unknown` and `Keynote` with their ends kept (and so an overlap
/// measured); now a clear error at the first range. The ranges of a recording keep working.
#[test]
fn an_agenda_with_time_ranges_is_no_transcript() {
    let path = overtalk_testkit::fixtures().join("paragraphs").join("agenda_ranges.txt");
    let e = read_path(&path, None, &ReadOptions::default()).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(3), Some(1)));
    let e = e.to_string();
    assert!(e.contains("agenda_ranges.txt"), "{e}");
    assert!(
        e.contains("no speaker turns found: the 5 lines with a time range are a schedule, not a transcript"),
        "{e}"
    );
    let ranges = "[00:00:01.000 --> 00:00:03.000] SPEAKER_00: Hello there.\n\
                  [00:00:02.500 --> 00:00:05.000] SPEAKER_01: Welcome back.\n";
    let out = read(ranges);
    let exact = |name: &str, start: i64, end: i64, text: &str| {
        (name.to_owned(), start, end, false, text.to_owned())
    };
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            exact("SPEAKER_00", S, 3 * S, "Hello there."),
            exact("SPEAKER_01", 2_500_000, 5 * S, "Welcome back."),
        ]
    );
}

/// The Australian Hansard with the clock time of day on each speech's first label (`The
/// SPEAKER (14:01):`, `Mr DUTTON (Dickson—Leader of the Opposition) (14:02):`). Read before:
/// `(14:02)` was 14 min 2 s into a recording and the seat part of the speaker's name; now the
/// times are hours and minutes from the first, the speaker is the member's name, and a turn
/// without a time (`Mr ALBANESE:`) follows the one above by its words.
#[test]
fn australian_hansard_times_of_day_on_every_speech() {
    let out = fixture("hansard_au_times_of_day.txt");
    let t = out.corpus.iter().next().unwrap().1;
    let said: Vec<(String, i64, i64)> =
        tracks(t).into_iter().map(|(name, start, end, _, _)| (name, start, end)).collect();
    let turn = |name: &str, start: i64, end: i64| (name.to_owned(), start, end);
    assert_eq!(
        said,
        vec![
            turn("The SPEAKER", 0, 5_500_000),
            turn("Mr DUTTON", 60 * S, 66_500_000),
            turn("Mr ALBANESE", 120 * S, 126 * S),
            turn("The SPEAKER", 126 * S, 130_500_000),
            turn("Mr ALBANESE", 130_500_000, 136 * S),
            turn("Mr DUTTON", 300 * S, 304_500_000),
        ]
    );
    let warnings: Vec<String> = out.warnings.iter().map(|w| w.to_string()).collect();
    let has = |s: &str| warnings.iter().any(|w| w.contains(s));
    assert!(
        has("line 5, column 1: 4 label(s) give the clock time of day in parentheses"),
        "{warnings:?}"
    );
    assert!(has("read as hours and minutes from the first, 14:01 at 0:00"), "{warnings:?}");
    assert!(
        has("line 11, column 1: 2 turn(s) by a speaker the headers name have no time of their own"),
        "{warnings:?}"
    );
}

/// Times inside a paragraph's words, as InqScribe writes a transcript (`[00:00.00] Here is
/// some text. [00:15.00] Something happened.`, a time with nothing after it ending a record)
/// and pages of computer-generated text time every few words. Read before: one paragraph
/// from the first time, the later times kept as words; now each time starts a paragraph of
/// the same speaker, and a time last on its line with no words after it is the end.
#[test]
fn times_inside_the_words_start_paragraphs() {
    let inline = "[00:00.00] Here is some text. [00:15.00] Something happened. [01:00.00] Something else happened.\n";
    let out = read_str(inline, Format::Paragraphs, &ReadOptions::default()).unwrap();
    let said: Vec<(i64, i64, bool, String)> = tracks(one(&out.corpus))
        .into_iter()
        .map(|(_, start, end, estimated, text)| (start, end, estimated, text))
        .collect();
    assert_eq!(
        said,
        vec![
            (0, 2 * S, true, "Here is some text.".to_owned()),
            (15 * S, 16 * S, true, "Something happened.".to_owned()),
            (60 * S, 61_500_000, true, "Something else happened.".to_owned()),
        ]
    );
    let ends =
        "[00:00.00] Here is some text. [00:12.00]\n[00:15.00] Something happened. [00:55.00]\n";
    let out = read_str(ends, Format::Paragraphs, &ReadOptions::default()).unwrap();
    let said: Vec<(i64, i64, bool)> = tracks(one(&out.corpus))
        .into_iter()
        .map(|(_, start, end, estimated, _)| (start, end, estimated))
        .collect();
    assert_eq!(said, vec![(0, 12 * S, false), (15 * S, 55 * S, false)]);
    // A note with a time in it is no time of a paragraph.
    let note = "[00:00:05] Ana: We left [crosstalk 00:00:06] early.\n[00:00:09] Bo: Fine.\n";
    assert_eq!(tracks(one(&read(note).corpus)).len(), 2);
}

/// A transcript's lines as Markdown list items, each with its time (`- [00:02] Today we…`, as
/// notes made from a recording list them), and TurboScribe's line above a free account's
/// transcript. Read before: "cannot tell the format"; the credit line was words of the
/// transcript when it stood below the first time.
#[test]
fn times_after_list_bullets_and_the_turboscribe_credit() {
    let text = "## 00:00 Introduction\n\n**Spoken content:**\n\
                - [00:00] Hey, welcome to the show.\n\
                - [00:02] Today we look at a powerful\n\
                - [00:04] tool for the future.\n\
                (Transcribed by TurboScribe. Go Unlimited to remove this message.)\n";
    assert_eq!(sniff(text), Some(Format::Paragraphs));
    let out = read(text);
    let said: Vec<(i64, String)> =
        tracks(one(&out.corpus)).into_iter().map(|(_, start, _, _, text)| (start, text)).collect();
    assert_eq!(
        said,
        vec![
            (0, "Hey, welcome to the show.".to_owned()),
            (2 * S, "Today we look at a powerful".to_owned()),
            (4 * S, "tool for the future.".to_owned()),
        ]
    );
    let warnings: Vec<String> = out.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        warnings.iter().any(|w| w.contains("line 1, column 1: 2 line(s) of markup")),
        "{warnings:?}"
    );
    // A list of other items stays text.
    assert_eq!(sniff("- milk\n- 2 eggs\n- bread\n"), None);
    // TurboScribe's credit before the first words, on their line: no words of anyone's.
    let credited = "- [00:00] (Transcribed by TurboScribe.ai. Go Unlimited to remove this message.) Hey, welcome.\n\
                    - [00:02] Today we look at it.\n";
    let out = read(credited);
    let said: Vec<String> =
        tracks(one(&out.corpus)).into_iter().map(|(_, _, _, _, text)| text).collect();
    assert_eq!(said, ["Hey, welcome.", "Today we look at it."]);
    let warnings: Vec<String> = out.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        warnings.iter().any(|w| w.contains("line 1, column 1: 1 line(s) of markup")),
        "{warnings:?}"
    );
}

/// A transcript published as a Markdown table, a row per turn (`| Time | Speaker | Transcript
/// |`, as podcast transcript guides lay one out). Read before: "cannot tell the format". A
/// table of other columns stays text.
#[test]
fn a_transcript_in_a_markdown_table() {
    let text = "# Episode 12\n\n| Time | Speaker | Transcript |\n|---|---|---|\n\
                | 00:00:04 | Host | Welcome back to the show. |\n\
                | 00:00:14 | Maya, Guest | The transcript is the starting point. |\n\
                | 00:00:26 | Host | That is the piece many teams miss. |\n";
    assert_eq!(sniff(text), Some(Format::Paragraphs));
    let out = read(text);
    let said: Vec<(String, i64, String)> = tracks(one(&out.corpus))
        .into_iter()
        .map(|(name, start, _, _, text)| (name, start, text))
        .collect();
    let turn = |name: &str, start: i64, text: &str| (name.to_owned(), start * S, text.to_owned());
    assert_eq!(
        said,
        vec![
            turn("Host", 4, "Welcome back to the show."),
            turn("Maya, Guest", 14, "The transcript is the starting point."),
            turn("Host", 26, "That is the piece many teams miss."),
        ]
    );
    let prices = "| Item | Price |\n|---|---|\n| Tea | 2.50 |\n| Cake | 3.00 |\n";
    assert_eq!(sniff(prices), None);
    // A pipe escaped in the words (`\|`, as Markdown writes one inside a cell) is a pipe of
    // the words, not a cell's end.
    let escaped = "| Time | Speaker | Transcript |\n|---|---|---|\n\
                   | 00:00:04 | Host | Welcome back. |\n\
                   | 00:00:09 | Guest | Thanks \\| glad to be here. |\n";
    let texts: Vec<String> =
        tracks(one(&read(escaped).corpus)).into_iter().map(|(_, _, _, _, text)| text).collect();
    assert_eq!(texts, ["Welcome back.", "Thanks | glad to be here."]);
}

/// A table of more rows than the reader rewrites (100 000 lines) is not read in part: the
/// rows past the limit would have run into the last turn's words.
#[test]
fn a_markdown_table_too_long_to_rewrite_is_not_read_in_part() {
    let table = |rows: usize| {
        let mut text = String::from("| Time | Speaker | Transcript |\n|---|---|---|\n");
        for k in 0..rows {
            let (h, m, s) = (k / 3600, k / 60 % 60, k % 60);
            text.push_str(&format!("| {h}:{m:02}:{s:02} | Host | Turn {k}. |\n"));
        }
        text
    };
    // Two lines of header and 99 999 rows: one line past the limit.
    let err = read_str(&table(99_999), Format::Paragraphs, &ReadOptions::default())
        .expect_err("a table past the limit is not read");
    assert!(err.to_string().contains("no speaker turns found"), "{err}");
    // At the limit, every row is a turn.
    let out = read_str(&table(99_998), Format::Paragraphs, &ReadOptions::default()).unwrap();
    assert_eq!(tracks(one(&out.corpus)).len(), 99_998);
}

/// A transcript of tab-separated fields, the time, the name and the words
/// (`00:00:05<TAB>Ana Ruiz<TAB>Hello…`), as meeting tools export one. Read before: every line
/// the words of `unknown`, the name run into them. Prose after a time and a tab stays words.
#[test]
fn tab_separated_time_name_and_words() {
    let text = "00:00:05\tAna Ruiz\tHello there, everyone.\n00:00:09\tBo Lind\tHi Ana.\n\
                00:00:12\tAna Ruiz\tShall we start?\n";
    let out = read(text);
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let said: Vec<(String, i64, String)> = tracks(one(&out.corpus))
        .into_iter()
        .map(|(name, start, _, _, text)| (name, start, text))
        .collect();
    let turn = |name: &str, start: i64, text: &str| (name.to_owned(), start * S, text.to_owned());
    assert_eq!(
        said,
        vec![
            turn("Ana Ruiz", 5, "Hello there, everyone."),
            turn("Bo Lind", 9, "Hi Ana."),
            turn("Ana Ruiz", 12, "Shall we start?"),
        ]
    );
    let prose = read("00:00:05\tso we left\tearly.\n00:00:09\tThen it rained.\n");
    let speakers: Vec<String> =
        tracks(one(&prose.corpus)).into_iter().map(|(name, _, _, _, _)| name).collect();
    assert_eq!(speakers, ["unknown", "unknown"]);
}

/// Interviews kept in Markdown with each speaker's name a heading, in languages whose words
/// hold no English question mark or `I`: Japanese (`？`), Greek (`;`) and German. Read before
/// as turns; then refused for want of English evidence of speech ("no speaker turns found");
/// read as turns again, the names alternating over prose and none a section's.
#[test]
fn interviews_under_name_headings_in_any_language() {
    let japanese = "## Tanaka\n\nいつ始めましたか？\n\n## Sato\n\n十年前です。\n\n\
                    ## Tanaka\n\nなぜですか？\n\n## Sato\n\n父の店でした。\n";
    let greek = "## Maria\n\nΠότε ξεκινήσατε;\n\n## Nikos\n\nΠριν από δέκα χρόνια.\n\n\
                 ## Maria\n\nΓιατί;\n\n## Nikos\n\nΉταν το μαγαζί του πατέρα μου.\n";
    let german = "## Anna\n\nErzählen Sie von Ihrer Arbeit.\n\n## Jonas\n\nWir bauen Brücken.\n\n\
                  ## Anna\n\nSeit wann schon.\n\n## Jonas\n\nSeit zehn Jahren.\n";
    for (text, want) in [
        (
            japanese,
            vec![
                ("Tanaka", "いつ始めましたか？"),
                ("Sato", "十年前です。"),
                ("Tanaka", "なぜですか？"),
                ("Sato", "父の店でした。"),
            ],
        ),
        (
            greek,
            vec![
                ("Maria", "Πότε ξεκινήσατε;"),
                ("Nikos", "Πριν από δέκα χρόνια."),
                ("Maria", "Γιατί;"),
                ("Nikos", "Ήταν το μαγαζί του πατέρα μου."),
            ],
        ),
        (
            german,
            vec![
                ("Anna", "Erzählen Sie von Ihrer Arbeit."),
                ("Jonas", "Wir bauen Brücken."),
                ("Anna", "Seit wann schon."),
                ("Jonas", "Seit zehn Jahren."),
            ],
        ),
    ] {
        let out = read_str(text, Format::Paragraphs, &ReadOptions::default()).unwrap();
        let t = one(&out.corpus);
        assert!(t.is_untimed());
        let said: Vec<(String, String)> = t
            .untimed()
            .iter()
            .map(|u| {
                let name = t.annotation().speaker_name(u.speaker).to_owned();
                (name, u.content.display_text().to_string())
            })
            .collect();
        let want: Vec<(String, String)> =
            want.into_iter().map(|(n, t)| (n.to_owned(), t.to_owned())).collect();
        assert_eq!(said, want, "{text}");
    }
    // Detected by the content, Japanese too (its words counted by their letters).
    for text in [japanese, greek, german] {
        assert_eq!(detect(Some("interview.md"), text, None).unwrap(), Format::Paragraphs);
    }
}

/// Headings that recur and alternate over a document's sections stay refused, and the error
/// says the headings read as sections: a recipe's `Ingredients` and `Method`, a page's
/// `Morning` and `Evening` over prose.
#[test]
fn repeated_section_headings_are_named_in_the_error() {
    let path = overtalk_testkit::fixtures().join("paragraphs").join("recipe_sections.md");
    let e = read_path(&path, Some(Format::Paragraphs), &ReadOptions::default()).unwrap_err();
    let e = e.to_string();
    assert!(
        e.ends_with("no speaker turns found: no paragraph with a start time, and the repeated headings (Ingredients, Method) read as sections, not speakers (lists, tables or code under them, or headings that name sections, such as `Introduction` or `Method`, over words not spoken)"),
        "{e}"
    );
    let flat = "## Morning\nThe market opens.\n## Evening\nThe lights go on.\n\
                ## Morning\nThe bakery sells out.\n## Evening\nThe square empties.\n";
    let e = read_str(flat, Format::Paragraphs, &ReadOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 2, column 1: paragraphs: no speaker turns found: no paragraph with a start time, and the repeated headings (Morning, Evening) read as sections, not speakers (lists, tables or code under them, or headings that name sections, such as `Introduction` or `Method`, over words not spoken)"
    );
}

/// Diarized transcripts with coarse time ranges on five seconds (`[00:00 - 00:15]`), which
/// read as an agenda's hours and minutes: a speaker's number alone on the range's line that
/// comes back, the words below; and `Name: words` after each range, every name once. Read
/// before as transcripts, then refused as schedules; read as transcripts again.
#[test]
fn coarse_time_ranges_of_speech_are_no_schedule() {
    let below = "[00:00 - 00:15] Speaker 1\nWelcome to the show, everyone.\n\n\
                 [00:15 - 00:45] Speaker 2\nThanks for having me here.\n\n\
                 [00:45 - 01:30] Speaker 1\nLet us begin with your book.\n";
    let said: Vec<(String, i64, i64, String)> =
        tracks(one(&read(below).corpus)).into_iter().map(|(n, s, e, _, t)| (n, s, e, t)).collect();
    let turn = |n: &str, s: i64, e: i64, t: &str| (n.to_owned(), s, e, t.to_owned());
    assert_eq!(
        said,
        vec![
            turn("Speaker 1", 0, 15 * S, "Welcome to the show, everyone."),
            turn("Speaker 2", 15 * S, 45 * S, "Thanks for having me here."),
            turn("Speaker 1", 45 * S, 90 * S, "Let us begin with your book."),
        ]
    );
    let inline = "[00:00 - 00:05] Ana: Hello there\n[00:05 - 00:10] Bo: Hi Ana, how are you\n\
                  [00:10 - 00:20] Cy: Fine thanks\n";
    let said: Vec<(String, i64, i64, String)> =
        tracks(one(&read(inline).corpus)).into_iter().map(|(n, s, e, _, t)| (n, s, e, t)).collect();
    assert_eq!(
        said,
        vec![
            turn("Ana", 0, 5 * S, "Hello there"),
            turn("Bo", 5 * S, 10 * S, "Hi Ana, how are you"),
            turn("Cy", 10 * S, 20 * S, "Fine thanks"),
        ]
    );
}

/// The words of every paragraph of a recording read from `text` as `format`, with speakers.
fn said_by(out: &overtalk::format::ReadOutput) -> Vec<(String, String)> {
    let (_, t) = out.corpus.iter().next().unwrap();
    if t.is_untimed() {
        return t
            .untimed()
            .iter()
            .map(|u| {
                let name = t.annotation().speaker_name(u.speaker).to_owned();
                (name, u.content.display_text().to_string())
            })
            .collect();
    }
    tracks(t).into_iter().map(|(name, _, _, _, text)| (name, text)).collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|&(a, b)| (a.to_owned(), b.to_owned())).collect()
}

/// Tactiq's export of a Google Meet call: each line a bullet, the time, the mark of a
/// highlight (`✅`, `💡`, `✓`), a colon and the speaker's name in parentheses as the meeting
/// shows it (`(bo lind)`). Read before: no header at all ("no speaker turns found"); now a
/// paragraph a line, words that run on kept, a line without words skipped. Tactiq's later
/// export (`00:00 Ana Ruiz: …` under its head) reads as before; a label with letters before
/// the colon, or parentheses without the colon, stays words.
#[test]
fn tactiq_lines_with_a_mark_and_the_name_in_parentheses() {
    let out = fixture("tactiq_marks.txt");
    let (_, t) = out.corpus.iter().next().unwrap();
    assert_eq!(
        tracks(t),
        vec![
            tr("Ana Ruiz", 0, 3_500_000, "Good morning, thanks for joining so early."),
            tr("bo lind", 4 * S, 7_500_000, "Morning. Shall we start with the budget?"),
            tr(
                "Ana Ruiz",
                9 * S,
                16 * S,
                "Yes. The numbers came in on Friday,\nand they look better than we feared."
            ),
            tr("bo lind", 17 * S, 18_500_000, "Good to hear."),
            tr("Ana Ruiz", 21 * S, 24 * S, "Then let's move on to hiring."),
        ]
    );
    let warnings: Vec<String> = out.warnings.iter().map(|w| w.to_string()).collect();
    assert!(
        warnings.iter().any(|w| w.contains("3 line(s) of text before the first timestamped paragraph skipped")),
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("1 header(s) with no text under them skipped")),
        "{warnings:?}"
    );
    let later = "Transcript delivered by Tactiq.io - get it for your Google Meet today!\n\n\
                 27 Jan 2026 | Weekly sync\nAttendees: Ana Ruiz, Bo Lind\n\nTranscript\n\
                 00:00 Ana Ruiz: Hello, everyone.\n00:15 Bo Lind: Hi Ana.\n";
    assert_eq!(
        said_by(&read(later)),
        pairs(&[("Ana Ruiz", "Hello, everyone."), ("Bo Lind", "Hi Ana.")])
    );
    let near = "00:00 Ana: Hello there.\n00:05 Note: (see below) we left early.\n\
                00:09 ✅ (Bo) no colon here.\n00:12 Bo: Fine.\n";
    assert_eq!(
        said_by(&read(near)),
        pairs(&[
            ("Ana", "Hello there.\n00:05 Note: (see below) we left early.\n00:09 ✅ (Bo) no colon here."),
            ("Bo", "Fine."),
        ])
    );
}

/// An agenda or notes whose items open with a label and a description (`Budget: we review the
/// numbers for Q3.`), one label twice and a line of description between two items: read
/// before as the turns of speakers named `Budget`, `Hiring`, `Welcome`…; now refused, naming
/// the labels, by detection and by the reader. Items that each come once got the generic
/// error; now the same one. Transcripts whose guests speak once each, or whose words after
/// the labels start in lower case, still read.
#[test]
fn agendas_of_labelled_items_are_no_transcript() {
    let path = overtalk_testkit::fixtures().join("paragraphs").join("agenda_labels.txt");
    let why = "no speaker turns found: the 5 lines that open with a label (`Welcome:`, `Budget:`, `Hiring:`, …) are the items of an agenda or notes, not speakers' turns (most labels come once, where a speaker's comes back, and the words after them read as items)";
    let e = read_path(&path, None, &ReadOptions::default()).unwrap_err().to_string();
    assert!(e.contains("agenda_labels.txt"), "{e}");
    assert!(
        e.contains(&format!("cannot tell the format from the file name or content, and no speaker turns found in it as text: {}", &why["no speaker turns found: ".len()..])),
        "{e}"
    );
    let e = read_path(&path, Some(Format::Paragraphs), &ReadOptions::default()).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(3), Some(1)));
    assert!(e.to_string().ends_with(why), "{e}");
    let once =
        "Agenda\n\nBudget: review of Q3\nThe finance team presents the quarterly figures.\n\n\
                Hiring: open roles\nWe have two open positions.\n\nRoadmap: next year\n";
    let e = read_str(once, Format::Paragraphs, &ReadOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 3, column 1: paragraphs: no speaker turns found: the 3 lines that open with a label (`Budget:`, `Hiring:`, `Roadmap:`) are the items of an agenda or notes, not speakers' turns (most labels come once, where a speaker's comes back, and the words after them read as items)"
    );
    let panel =
        "Moderator: Welcome to the panel. Ana, what do you think?\nAna: I think it works well.\n\
                 Moderator: And you, Bo?\nBo: It is too early to say.\nModerator: Cy and Di?\n\
                 Cy: I agree with Ana.\nDi: So do I.\n";
    assert_eq!(detect(Some("panel.txt"), panel, None).unwrap(), Format::Paragraphs);
    let said = said_by(&read_str(panel, Format::Paragraphs, &ReadOptions::default()).unwrap());
    let names: Vec<&str> = said.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Moderator", "Ana", "Moderator", "Bo", "Moderator", "Cy", "Di"]);
    let lower = "Ana: yeah so we left early.\nBo: right, and then?\nAna: and then it rained.\n\
                 Bo: oh no.\n";
    let said = said_by(&read_str(lower, Format::Paragraphs, &ReadOptions::default()).unwrap());
    assert_eq!(said.len(), 4);
}

/// A comparison in Markdown whose `## Pros` and `## Cons` headings come back over prose: read
/// before as two speakers, `Pros` and `Cons`; now no transcript, the headings named as
/// sections. Names over prose that are no section's still read as speakers.
#[test]
fn pros_and_cons_headings_are_no_speakers() {
    let path = overtalk_testkit::fixtures().join("paragraphs").join("pros_cons.md");
    let e = read_path(&path, None, &ReadOptions::default()).unwrap_err().to_string();
    assert!(
        e.contains("cannot tell the format from the file name or content, and no speaker turns found in it as text"),
        "{e}"
    );
    let e = read_path(&path, Some(Format::Paragraphs), &ReadOptions::default()).unwrap_err();
    assert_eq!((e.line(), e.column()), (Some(5), Some(1)));
    assert!(
        e.to_string().ends_with("no speaker turns found: no paragraph with a start time, and the repeated headings (Pros, Cons) read as sections, not speakers (lists, tables or code under them, or headings that name sections, such as `Introduction` or `Method`, over words not spoken)"),
        "{e}"
    );
    let hosts =
        "## Host\n\nIt is fast and well documented.\n\n## Guest\n\nIt needs a lot of memory.\n\n\
                 ## Host\n\nThe second option is cheaper.\n\n## Guest\n\nIt is slower.\n";
    let said = said_by(&read_str(hosts, Format::Paragraphs, &ReadOptions::default()).unwrap());
    let names: Vec<&str> = said.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["Host", "Guest", "Host", "Guest"]);
}

/// Japanese minutes: section headings, the speakers' labels with the full-width colon
/// (`田中：…`) and once the ASCII one, words without spaces; and an interview whose names are
/// headings in Japanese script. Read before only with `--from paragraphs`, or not at all (a
/// name in a script without capitals was no name); now found from the content and read.
/// Japanese text that is no transcript is still refused.
#[test]
fn japanese_transcripts_are_found_and_read() {
    let (turns, warnings) = untimed_turns(&fixture("japanese_meeting.md"));
    assert_eq!(
        turns,
        turns_of(&[("田中", 5), ("鈴木", 6), ("田中", 7), ("鈴木", 11), ("田中", 12)])
    );
    assert!(warnings.iter().any(|w| w.contains("5 utterance(s) by 2 speaker(s)")), "{warnings:?}");
    let headings =
        "## 田中\n\nいつ始めましたか？\n\n## 佐藤\n\n十年前です。父の店を継ぎました。\n\n\
                    ## 田中\n\nなぜですか？\n\n## 佐藤\n\n家族のためです。\n";
    assert_eq!(detect(Some("interview.md"), headings, None).unwrap(), Format::Paragraphs);
    let out = read_str(headings, Format::Paragraphs, &ReadOptions::default()).unwrap();
    assert_eq!(
        said_by(&out),
        pairs(&[
            ("田中", "いつ始めましたか？"),
            ("佐藤", "十年前です。父の店を継ぎました。"),
            ("田中", "なぜですか？"),
            ("佐藤", "家族のためです。"),
        ])
    );
    let note = "注意：この資料は社外秘です。\n本文はここから始まります。\n";
    assert!(detect(Some("note.txt"), note, None).is_err());
    let fields = "会议纪要\n\n主题：预算\n时间：周一上午\n地点：三号会议室\n";
    let e = read_str(fields, Format::Paragraphs, &ReadOptions::default()).unwrap_err();
    assert!(e.to_string().contains("no speaker turns found"), "{e}");
}

/// The podcast namespace's HTML transcript (Buzzsprout's) read as text: the speaker's name
/// and a colon on a line (`<cite>Kevin:</cite>`, once `Alban :` with a space), the time alone
/// below (`<time>`), the words below that (`<p>`). Read before: every paragraph `unknown`'s,
/// each name words of the paragraph above. A name above a time once (a title, `Agenda:`) is no
/// such transcript, and Google Meet's time alone above `Name: text` lines reads as before.
#[test]
fn podcast_html_transcripts_name_the_speaker_above_the_time() {
    let text = "Kevin:\n0:00\nWe have an update planned for these videos.\n\
                Alban :\n0:09\nYou're triggering Tom right now.\nKevin:\n0:15\nWell, it is a cool feature.\n";
    assert_eq!(detect(Some("episode.txt"), text, None).unwrap(), Format::Paragraphs);
    let out = read_str(text, Format::Paragraphs, &ReadOptions::default()).unwrap();
    assert_eq!(
        tracks(one(&out.corpus)),
        vec![
            tr("Kevin", 0, 4 * S, "We have an update planned for these videos."),
            tr("Alban", 9 * S, 11_500_000, "You're triggering Tom right now."),
            tr("Kevin", 15 * S, 18 * S, "Well, it is a cool feature."),
        ]
    );
    assert!(out.warnings.is_empty(), "{:?}", out.warnings);
    let once = "Agenda:\n0:00\nWe begin with the news.\n0:30\nThen the weather.\n";
    let out = read_str(once, Format::Paragraphs, &ReadOptions::default()).unwrap();
    let names: Vec<String> = tracks(one(&out.corpus)).into_iter().map(|t| t.0).collect();
    assert_eq!(names, ["unknown", "unknown"]);
    let meet =
        "00:00:00\nAna Ruiz: Hello there.\nBo Lind: Hi Ana.\n00:01:00\nAna Ruiz: Shall we start?\n";
    let said = said_by(&read(meet));
    assert_eq!(
        said,
        pairs(&[
            ("Ana Ruiz", "Hello there."),
            ("Bo Lind", "Hi Ana."),
            ("Ana Ruiz", "Shall we start?")
        ])
    );
}

/// Diarized segments as WhisperX-based tools print them: the speaker's label in square
/// brackets after the time or the range (`[00:00:05] [SPEAKER_00]: …`, `[00:00:02.039 →
/// 00:00:17.412] [SPEAKER_01]: …`, a range in seconds, `[0.03s - 17.36s]`), or before the
/// time (`[SPEAKER_00]: [00:00:02.039] …`). Read before: every paragraph `unknown`'s with the
/// label in its words, the ranges in seconds no header, and the label before the time an
/// untimed turn with the time in its words. A note in brackets (`[Music]`) is no label, and a
/// bare time after a label's colon stays words.
#[test]
fn bracketed_labels_after_or_before_the_time() {
    let exact = |name: &str, start: i64, end: i64, text: &str| {
        (name.to_owned(), start, end, false, text.to_owned())
    };
    let timed = "[00:00:01] [Music]\n[00:00:05] [SPEAKER_00]: Hello and welcome.\n\
                 [00:00:09] [SPEAKER_01]: Thanks.\n";
    assert_eq!(
        tracks(one(&read(timed).corpus)),
        vec![
            tr("unknown", S, 1_500_000, "[Music]"),
            tr("SPEAKER_00", 5 * S, 6_500_000, "Hello and welcome."),
            tr("SPEAKER_01", 9 * S, 9_500_000, "Thanks."),
        ]
    );
    let ranges = "[00:00:02.039 → 00:00:17.412] [SPEAKER_00]: Hello there.\n\
                  [00:00:17.412 → 00:00:20.000] [SPEAKER_01]: Hi.\n";
    assert_eq!(
        tracks(one(&read(ranges).corpus)),
        vec![
            exact("SPEAKER_00", 2_039_000, 17_412_000, "Hello there."),
            exact("SPEAKER_01", 17_412_000, 20 * S, "Hi."),
        ]
    );
    let seconds =
        "[0.03s - 17.36s] [SPEAKER_00]: Hello there.\n[17.36s - 20.5s] [SPEAKER_01]: Hi.\n";
    assert_eq!(
        tracks(one(&read(seconds).corpus)),
        vec![
            exact("SPEAKER_00", 30_000, 17_360_000, "Hello there."),
            exact("SPEAKER_01", 17_360_000, 20_500_000, "Hi."),
        ]
    );
    let before = "[SPEAKER_00]: [00:00:02.039] Hello there.\n[SPEAKER_01]: [00:00:05] Hi.\n";
    assert_eq!(
        tracks(one(&read(before).corpus)),
        vec![
            tr("SPEAKER_00", 2_039_000, 3_039_000, "Hello there."),
            tr("SPEAKER_01", 5 * S, 5_500_000, "Hi.")
        ]
    );
    let bare = "[Int1]: When did you start?\n[Int2]: 10:30 is when we met, I think.\n\
                [Int1]: And then what happened?\n[Int2]: We talked for an hour.\n";
    let out = read_str(bare, Format::Paragraphs, &ReadOptions::default()).unwrap();
    assert_eq!(
        said_by(&out),
        pairs(&[
            ("Int1", "When did you start?"),
            ("Int2", "10:30 is when we met, I think."),
            ("Int1", "And then what happened?"),
            ("Int2", "We talked for an hour."),
        ])
    );
}

/// Two more places of the time: a range of full clocks without brackets before the name alone
/// (`00:00:05 - 00:00:12 Ana Ruiz`, the words below), and the time in parentheses before a
/// name and a colon (`(00:00:05) Ana Ruiz: …`). Read before: the range's end and the name were
/// words of `unknown`, and the name in parentheses' line words of the speaker above. Rev's
/// continuation (`(01:10:19):`) keeps the speaker above, and a range of hours and minutes in
/// the words stays words.
#[test]
fn bare_ranges_and_times_in_parentheses_before_the_name() {
    let ranges = "00:00:05 - 00:00:12 Ana Ruiz\nHello and welcome to the show.\n\n\
                  00:00:12 - 00:00:15 Bo Lind\nThanks for having me, Ana.\n\n\
                  00:00:15 - 00:00:18 Ana Ruiz\nLet us begin.\n";
    let exact = |name: &str, start: i64, end: i64, text: &str| {
        (name.to_owned(), start, end, false, text.to_owned())
    };
    assert_eq!(
        tracks(one(&read(ranges).corpus)),
        vec![
            exact("Ana Ruiz", 5 * S, 12 * S, "Hello and welcome to the show."),
            exact("Bo Lind", 12 * S, 15 * S, "Thanks for having me, Ana."),
            exact("Ana Ruiz", 15 * S, 18 * S, "Let us begin."),
        ]
    );
    let parens = "(00:00:05) Ana Ruiz: Hello and welcome to the show.\n\
                  (00:00:12) Bo Lind: Thanks for having me, Ana.\n(00:00:15): And we begin.\n";
    assert_eq!(
        said_by(&read(parens)),
        pairs(&[
            ("Ana Ruiz", "Hello and welcome to the show."),
            ("Bo Lind", "Thanks for having me, Ana."),
            ("Bo Lind", "And we begin."),
        ])
    );
    let words = "00:00:05 Ana Ruiz: We met from 10:30 - 11:00 that day.\n\
                 10:30 - 11:00 was the time.\n00:00:12 Bo Lind: Right.\n";
    assert_eq!(
        said_by(&read(words)),
        pairs(&[
            ("Ana Ruiz", "We met from 10:30 - 11:00 that day.\n10:30 - 11:00 was the time."),
            ("Bo Lind", "Right."),
        ])
    );
}

/// A title and a date above the first speaker's turn are the head of a well-formed rush
/// transcript, not a defect: a note, read under `--strict`; unlabelled lines between the turns
/// stay part of the turn above them.
#[test]
fn a_title_above_the_first_untimed_turn_is_a_note() {
    let text = "TOWN HALL DEBATE, TRANSCRIPT\nMarch 3\n\nMODERATOR: Senator, two minutes.\n\nSMITH: Thank you. The plan --\n\nJONES: Never. (CROSSTALK)\n\nSMITH: Listen.\n\nMODERATOR: Move on.\n\nJONES: Let me finish.\n";
    let strict = ReadOptions { strict: true, ..ReadOptions::default() };
    let out = read_str(text, Format::Paragraphs, &strict).unwrap();
    let (turns, _) = untimed_turns(&out);
    assert_eq!(
        turns,
        turns_of(&[
            ("MODERATOR", 4),
            ("SMITH", 6),
            ("JONES", 8),
            ("SMITH", 10),
            ("MODERATOR", 12),
            ("JONES", 14),
        ])
    );
    let title: Vec<_> = out
        .warnings
        .iter()
        .filter(|w| w.message.contains("above the first speaker's turn"))
        .map(|w| (w.kind, w.line, w.kind.severity(), w.message.as_str()))
        .collect();
    assert_eq!(
        title,
        [(
            WarningKind::Note,
            Some(1),
            overtalk::Severity::Note,
            "2 line(s) above the first speaker's turn skipped (a title, a date): not speech"
        )]
    );
}

/// A short transcript without times whose title has a date line under it in a field
/// (`Date: March 3, 2024`): told from its content as speakers' turns, the date set aside as
/// the transcript's field, not read as a speaker who said "March 3, 2024". Before, the one
/// `Date:` line made the text look like a mail's header ("cannot tell the format"), and
/// `--from paragraphs` read `Date` as a third speaker.
#[test]
fn a_date_field_under_the_title_of_an_untimed_transcript() {
    let text = "Interview\nDate: March 3, 2024\n\nAna: Welcome to the town hall tonight.\n\
                Bo: Thank you for having me.\nAna: Let us begin with the economy.\n";
    assert_eq!(detect(Some("interview.txt"), text, None).unwrap(), Format::Paragraphs);
    let strict = ReadOptions { strict: true, ..ReadOptions::default() };
    let out = read_str(text, Format::Paragraphs, &strict).unwrap();
    let t = one(&out.corpus);
    let turns: Vec<(&str, String)> = t
        .untimed()
        .iter()
        .map(|u| (t.annotation().speaker_name(u.speaker), u.content.display_text()))
        .collect();
    assert_eq!(
        turns,
        vec![
            ("Ana", "Welcome to the town hall tonight.".to_owned()),
            ("Bo", "Thank you for having me.".to_owned()),
            ("Ana", "Let us begin with the economy.".to_owned()),
        ]
    );
    let w: Vec<_> = out.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(
        &w[..2],
        [
            "line 2, column 1: 1 line(s) at the top are the transcript's fields (`Date:`), not speakers' turns: set aside (the turns below come back to their speakers; a field's key comes once, or names a speaker) (note)",
            "line 1, column 1: 1 line(s) above the first speaker's turn skipped (a title, a date): not speech (note)",
        ]
    );
    // A mail's one `Date:` line above lines of `Key: value` that do not come back stays no
    // transcript; nor is a `Date:` whose key comes back a field.
    let mail = "Date: March 3, 2024\nBudget: we review the numbers.\nHiring: two open roles.\nTravel: none.\n";
    assert!(detect(Some("notes.txt"), mail, None).is_err());
    let twice = "Date: March 3, 2024\nAna: Hello there, everyone.\nDate: March 4, 2024\nAna: And again today.\nBo: Good to see you.\n";
    assert!(detect(Some("log.txt"), twice, None).is_err());
    // A speaker whose key is a document's (`Host:`) and who speaks once, at the top, says a
    // sentence: a turn, not a field.
    let host = "Show\nHost: Welcome to the show tonight.\n\nAna: Thank you for having me.\n\
                Bo: Hello there.\nAna: Glad to be here.\n";
    let out = read_str(host, Format::Paragraphs, &ReadOptions::default()).unwrap();
    let t = one(&out.corpus);
    let speakers: Vec<&str> =
        t.untimed().iter().map(|u| t.annotation().speaker_name(u.speaker)).collect();
    assert_eq!(speakers, ["Host", "Ana", "Bo", "Ana"]);
}
