//! Label files: Audacity label tracks, pyannote `.lab`, HTK `.lab` — `start end label` per line.
//!
//! ```text
//! 34.27<TAB>44.39<TAB>Alice       Audacity: tab separated, the label may hold spaces
//! \<TAB>1200.0<TAB>3400.0     Audacity spectral selection line (frequencies): skipped
//! 46.43 56.85 speech               pyannote: space separated
//! 0 23000000 sil                   HTK: integer times in 100 ns units
//! ```
//!
//! **Reading.** The label is the speaker. With a tab on the line the fields are tab separated
//! (so `Ana María` stays one label); otherwise they are split at whitespace and the label is the
//! rest of the line. A space-separated file whose labels are a speaker and a sentence
//! (`0.00 10.34 SPEAKER_00  So the plan for Friday…`, the `.txt` pyannote-whisper writes: most
//! labels three words or more after the first, and a first word that begins two different
//! labels) is read as such, with one note: the first word is the speaker (a `:` after it left
//! out), the rest the words said. Lines starting with `\` (Audacity's frequency range of the label above) are
//! skipped. A line without a label gets [`UNKNOWN_SPEAKER`] with
//! one [`WarningKind::MissingSpeaker`] warning; a line without two times is skipped with a
//! warning. When every time in the file is an integer and the largest is at least 1 000 000 the
//! file is read as **HTK 100-ns units** (1 000 000 units = 0.1 s; as seconds it would be 11 days),
//! with a [`WarningKind::Note`]; on HTK lines the speaker is the name alone, and the fields after
//! it (score, auxiliary labels, comment) are left out with one note. Point labels (start = end)
//! are dropped with the usual zero-duration warning, and a label that names only dropped
//! segments is no speaker (it has no speech to count or write). A label that says no speech (`nonspeech`,
//! `non-speech`: a voice activity detector's mark of the rest, as aeneas writes beside `speech`;
//! `sil`, `SIL`, `silence`: HTK's silence, and the gaps an Audacity track labels between calls)
//! is silence, with one note (a silence label is well-formed, so `--strict` reads it). A file in which no line starts with two
//! times (the text-only `.lab` of a Montreal Forced Aligner corpus) is an error that says so.
//!
//! **Writing** gives Audacity's form: `start<TAB>end<TAB>label`, times in seconds exact to the
//! microsecond, one line per track in time order. Text is not kept (the label is the speaker).
//! Tabs and line breaks in a label become spaces, with a warning.

use std::io::Write;

use crate::error::{Result, Warning, WarningKind};
use crate::format::webvtt::{column_of, shown, UNKNOWN_SPEAKER};
use crate::format::ReadContext;
use crate::model::{Content, Corpus, TranscriptBuilder};
use crate::time::{parse_seconds, Time, TimeError, MAX_MICROS};

use crate::format::{is_seconds, FirstLine, Format, FormatSpec, Head, Sniff};

/// What the format registry knows of this format (see [`FormatSpec`]).
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Lab,
    name: "lab",
    aliases: &["audacity", "htk"],
    extension: "lab",
    detected_by: &["lab", "aud"],
    read: Ok(read),
    write: Some(write),
    json: false,
    many_recordings: false,
    paragraphs: false,
    sniff: &[Sniff::Line { rank: 50, test: sniff }],
};

/// A first line that starts with two times, or with two tab-separated times written with a
/// decimal comma (Audacity under a locale that writes one).
fn sniff(_: &Head<'_>, first: &FirstLine<'_>) -> Option<Format> {
    let f = &first.fields;
    let tabbed: Vec<&str> = first.line.trim().splitn(3, '\t').collect();
    ((f.len() >= 2 && is_seconds(f[0]) && is_seconds(f[1]))
        || (tabbed.len() >= 2
            && decimal_comma(tabbed[0].trim()).is_some()
            && decimal_comma(tabbed[1].trim()).is_some()))
    .then_some(Format::Lab)
}

/// The seconds of a time written with a decimal comma (`1,500000`: digits, one comma, digits),
/// as decimal-point text; `None` for anything else.
fn decimal_comma(field: &str) -> Option<String> {
    let (whole, fraction) = field.split_once(',')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits(whole) && digits(fraction)).then(|| format!("{whole}.{fraction}"))
}

/// Whether the file writes its times with a decimal comma: some line has a comma time, and then
/// every line must be tab separated with both times written that way (or as whole numbers).
/// `Ok(None)` for a file of decimal points; `Ok(Some(line))` names the first line with a comma
/// time; a line that breaks the rule is an error at its field, since reading it either way would
/// be a guess.
fn decimal_comma_file(rows: &[Row<'_>], ctx: &ReadContext<'_>) -> Result<Option<usize>> {
    let Some(first) = rows.iter().find(|r| {
        r.line.contains('\t')
            && (decimal_comma(r.start).is_some() || decimal_comma(r.end).is_some())
    }) else {
        return Ok(None);
    };
    let whole = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    for r in rows {
        for (field, what) in [(r.start, "start"), (r.end, "end")] {
            if !r.line.contains('\t') {
                return Err(ctx.error(
                    r.n,
                    1,
                    format!(
                        "line {} writes its times with a decimal comma and tabs between the fields; this line has no tab, so its commas cannot be told from field separators",
                        first.n
                    ),
                ));
            }
            if decimal_comma(field).is_none() && !whole(field) {
                return Err(ctx.error(
                    r.n,
                    column_of(r.line, field),
                    format!(
                        "{what} {:?} is not written with a decimal comma as line {} writes its times (`1,500000`); a file must write every time one way",
                        shown(field, 40),
                        first.n
                    ),
                ));
            }
        }
    }
    Ok(Some(first.n))
}

struct Row<'t> {
    n: usize,
    line: &'t str,
    start: &'t str,
    end: &'t str,
    label: &'t str,
}

/// Reads label text as one recording (see the module doc).
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let mut rows: Vec<Row<'_>> = Vec::new();
    let mut skipped_first: Option<(usize, &str)> = None;
    for item in ctx.lines(text) {
        let (n, line) = item?;
        let line = if n == 1 { line.trim_start_matches('\u{feff}') } else { line };
        let t = line.trim();
        if t.is_empty() || t.starts_with('\\') {
            continue;
        }
        let (start, end, label) = if line.contains('\t') {
            let mut f = t.splitn(3, '\t');
            (f.next().unwrap_or(""), f.next().unwrap_or(""), f.next().unwrap_or(""))
        } else {
            let mut f = t.splitn(2, char::is_whitespace);
            let start = f.next().unwrap_or("");
            let rest = f.next().unwrap_or("").trim_start();
            let mut g = rest.splitn(2, char::is_whitespace);
            (start, g.next().unwrap_or(""), g.next().unwrap_or(""))
        };
        if end.trim().is_empty() {
            skipped_first.get_or_insert((n, line));
            ctx.warn_at(
                WarningKind::Skipped,
                n,
                Some(1),
                "a label line needs `start end label`; line skipped",
            )?;
            continue;
        }
        rows.push(Row { n, line, start: start.trim(), end: end.trim(), label: label.trim() });
    }
    let comma = decimal_comma_file(&rows, ctx)?;
    if (skipped_first.is_some() || !rows.is_empty())
        && comma.is_none()
        && !rows.iter().any(|r| parse_seconds(r.start).is_ok())
    {
        let (n, line) = match (skipped_first, rows.first()) {
            (Some(first), _) => first,
            (None, Some(r)) => (r.n, r.line),
            (None, None) => (1, ""),
        };
        return Err(ctx.error(
            n,
            1,
            format!(
                "no line starts with a time (found {:?}): this looks like a text-only transcript, such as the `.lab` a Montreal Forced Aligner corpus holds for each recording; align it (`mfa align`) and read the TextGrid it writes, or give labels as `start end label`",
                shown(line.trim(), 40)
            ),
        ));
    }
    let integral = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if let Some(line) = comma {
        ctx.warn_at(
            WarningKind::Note,
            line,
            Some(1),
            "times are written with a decimal comma (`1,500000`, as Audacity writes them under a locale that uses one): read as seconds",
        )?;
    }
    let htk = comma.is_none()
        && !rows.is_empty()
        && rows.iter().all(|r| integral(r.start) && integral(r.end))
        && rows
            .iter()
            .any(|r| r.end.len() > 7 || r.end.parse::<u64>().is_ok_and(|v| v >= 1_000_000));
    if htk {
        ctx.warn(Warning::new(
            WarningKind::Note,
            "every time is an integer and they reach 1000000: read as HTK 100-ns units",
        ))?;
    }
    let spoken = !htk && speaker_and_text(&rows);
    if spoken {
        let first = rows.iter().find(|r| r.label.contains(char::is_whitespace)).map_or(1, |r| r.n);
        ctx.warn_at(
            WarningKind::Note,
            first,
            Some(1),
            "the labels are a speaker and the words said (`0.00 10.34 SPEAKER_00 So the plan…`, as pyannote-whisper writes its transcripts): the first word of each label is the speaker, the rest its text",
        )?;
    }
    let mut b = TranscriptBuilder::new();
    let mut missing_warned = false;
    let mut extras_warned = false;
    // The first line labelled as no speech, its label, and how many are.
    let mut non_speech: Option<(usize, &str, usize)> = None;
    for r in &rows {
        let time = |field: &str, what: &str, ctx: &ReadContext<'_>| -> Result<Time> {
            let col = column_of(r.line, field);
            if htk {
                let units: u64 = field
                    .parse()
                    .map_err(|_| ctx.time_error(TimeError::OutOfRange, field, what, r.n, col))?;
                let us = units / 10 + u64::from(units % 10 >= 5);
                if us > MAX_MICROS as u64 {
                    return Err(ctx.time_error(TimeError::OutOfRange, field, what, r.n, col));
                }
                Ok(Time::from_micros(us as i64))
            } else if let (Some(_), Some(point)) = (comma, decimal_comma(field)) {
                ctx.seconds(&point, what, r.n, col)
            } else {
                ctx.seconds(field, what, r.n, col)
            }
        };
        let start = time(r.start, "start", ctx)?;
        let end = time(r.end, "end", ctx)?;
        // HTK: `start end name [score] {auxname [auxscore]} [comment]`: the name is the speaker.
        let mut label = r.label;
        if htk && !r.line.contains('\t') {
            if let Some((name, extra)) = r.label.split_once(char::is_whitespace) {
                label = name;
                if !extras_warned {
                    extras_warned = true;
                    ctx.warn_at(
                        WarningKind::Note,
                        r.n,
                        Some(column_of(r.line, extra.trim_start())),
                        format!("HTK label fields after the name ({:?}: scores, auxiliary labels, comments) are not part of the speaker; left out here and on every later line", shown(extra.trim(), 30)),
                    )?;
                }
            }
        }
        let mut said = None;
        if spoken {
            if let Some((name, words)) = label.split_once(char::is_whitespace) {
                label = name.strip_suffix(':').filter(|n| !n.is_empty()).unwrap_or(name);
                said = Some(Content::text(words.trim().to_owned()));
            }
        }
        if is_non_speech(label) {
            non_speech.get_or_insert((r.n, label, 0)).2 += 1;
            continue;
        }
        let label = if label.is_empty() {
            if !missing_warned {
                missing_warned = true;
                ctx.warn_at(
                    WarningKind::MissingSpeaker,
                    r.n,
                    Some(r.line.trim_end().chars().count() + 1),
                    format!("label is empty; it and every later empty label get the speaker {UNKNOWN_SPEAKER:?}"),
                )?;
            }
            UNKNOWN_SPEAKER
        } else {
            label
        };
        if let Some(seg) = ctx.segment(start, end, r.n, Some(column_of(r.line, r.end)))? {
            b.add(seg, label, said);
        }
    }
    // A note, not a repair: a silence label is well-formed (HTK writes `sil` between words),
    // so `--strict` reads such a file too.
    if let Some((line, label, count)) = non_speech {
        ctx.warn_at(
            WarningKind::Note,
            line,
            Some(1),
            format!("{count} label(s) {label:?} (silence, as HTK writes `sil` and a voice activity detector such as aeneas `nonspeech`) read as silence, not as a speaker"),
        )?;
    }
    if rows.is_empty() {
        ctx.warn(Warning::new(WarningKind::Note, "no labels in the input"))?;
    }
    Ok(Corpus::single(ctx.recording_id(), b.build()))
}

/// Whether the labels of a space-separated file are a speaker followed by the words said
/// (`0.00 10.34 SPEAKER_00  So the plan for Friday…`, what pyannote-whisper writes for each
/// sentence): no line has a tab, at least two labels hold words after their first, most of those
/// three words or more, and some first word begins two different labels (a speaker who speaks
/// twice). A label of one word (`speech`, `SPEAKER_00`) or a name of two words that recurs whole
/// (`Ana María`) keeps the whole label as the speaker.
fn speaker_and_text(rows: &[Row<'_>]) -> bool {
    if rows.iter().any(|r| r.line.contains('\t')) {
        return false;
    }
    let split: Vec<(&str, &str)> = rows
        .iter()
        .filter_map(|r| r.label.split_once(char::is_whitespace))
        .map(|(name, words)| (name, words.trim()))
        .collect();
    if split.len() < 2 {
        return false;
    }
    let sentences = split.iter().filter(|(_, words)| words.split_whitespace().count() >= 3).count();
    if sentences * 2 < split.len() {
        return false;
    }
    let mut labels: std::collections::HashMap<&str, std::collections::HashSet<&str>> =
        std::collections::HashMap::new();
    for (name, words) in &split {
        labels.entry(name).or_default().insert(words);
    }
    labels.values().any(|said| said.len() >= 2)
}

/// Whether a label says that its span holds no speech (`nonspeech`, `non-speech`,
/// `no_speech`: a voice activity detector's mark of the rest; `sil`, `SIL`, `silence`: HTK's
/// and the aligners' silence, also between the labelled calls of an Audacity track), never a
/// speaker.
fn is_non_speech(label: &str) -> bool {
    let plain: String =
        label.chars().filter(|c| !matches!(c, '-' | '_' | ' ')).collect::<String>().to_lowercase();
    matches!(plain.as_str(), "nonspeech" | "nospeech" | "sil" | "silence")
}

/// Writes one recording as an Audacity label track (see the module doc);
/// several recordings are an error.
pub fn write(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    crate::format::webvtt::one_recording(corpus, "lab")?;
    use std::fmt::Write as _;
    let mut warnings = Vec::new();
    let mut buf = String::new();
    for (id, t) in corpus.iter() {
        let a = t.annotation();
        let names: Vec<String> = a
            .speakers()
            .iter()
            .map(|(_, name)| {
                let s: String =
                    name.chars().map(|c| if matches!(c, '\t' | '\n' | '\r') { ' ' } else { c }).collect();
                let s = s.trim();
                let s = if s.is_empty() { UNKNOWN_SPEAKER.to_owned() } else { s.to_owned() };
                if s != name {
                    warnings.push(Warning::new(
                        WarningKind::Repaired,
                        format!("{id}: label {name:?} written as {s:?} (a label is one line without tabs)"),
                    ));
                }
                s
            })
            .collect();
        for track in a.tracks() {
            let s = track.segment;
            // Writing into a String cannot fail.
            let _ = writeln!(buf, "{}\t{}\t{}", s.start(), s.end(), names[track.speaker.index()]);
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
        read_str(text, Format::Lab, &ReadOptions::default()).unwrap()
    }

    /// Each track of the one recording as its span and its speaker's label.
    fn spans_and_speakers(out: &crate::format::ReadOutput) -> Vec<(Segment, &str)> {
        let a = out.corpus.get("recording").unwrap().annotation();
        a.tracks().iter().map(|tr| (tr.segment, a.speaker_name(tr.speaker))).collect()
    }

    /// pyannote-whisper's `.txt`: `start end SPEAKER  sentence`. The first word is the speaker
    /// and the rest the words said; each sentence was its own speaker before.
    #[test]
    fn labels_of_a_speaker_and_a_sentence_are_read_as_both() {
        let text = "0.00 10.34 SPEAKER_00  So the plan for Friday is to meet at the depot.\n\
                    10.34 16.24 SPEAKER_00  Then we drive north before the roads close.\n\
                    41.04 44.92 SPEAKER_01  That works for me, thanks.\n";
        let out = read_text(text);
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(w, vec![(WarningKind::Note, Some(1))]);
        let t = out.corpus.get("recording").unwrap();
        let u: Vec<_> = t
            .utterances()
            .map(|u| (u.segment, u.speaker_name, u.content.and_then(|c| c.text.as_deref())))
            .collect();
        assert_eq!(
            u,
            vec![
                (
                    Segment::from_millis(0, 10_340).unwrap(),
                    "SPEAKER_00",
                    Some("So the plan for Friday is to meet at the depot.")
                ),
                (
                    Segment::from_millis(10_340, 16_240).unwrap(),
                    "SPEAKER_00",
                    Some("Then we drive north before the roads close.")
                ),
                (
                    Segment::from_millis(41_040, 44_920).unwrap(),
                    "SPEAKER_01",
                    Some("That works for me, thanks.")
                ),
            ]
        );
        // A name of two words that comes back whole, a one-word label, and tab-separated
        // labels stay whole labels, with no note.
        for text in [
            "0 1 Ana María\n1 2 Bo\n2 3 Ana María\n",
            "0 1 speech\n2 3 speech\n",
            "0\t1\tAna said hello there today\n1\t2\tAna said goodbye to them\n",
        ] {
            let out = read_text(text);
            assert!(out.warnings.is_empty(), "{text:?}: {:?}", out.warnings);
            let t = out.corpus.get("recording").unwrap();
            assert!(t.utterances().all(|u| u.content.is_none()), "{text:?}");
        }
        let out = read_text("0 1 Ana María\n1 2 Bo\n2 3 Ana María\n");
        let names: Vec<_> = spans_and_speakers(&out).into_iter().map(|(_, n)| n).collect();
        assert_eq!(names, vec!["Ana María", "Bo", "Ana María"]);
    }

    /// A point label (start = end) is dropped, and so is its label as a speaker when it has no
    /// other: two segments are two speakers, and writing them renames no one it never writes.
    #[test]
    fn a_point_label_declares_no_speaker() {
        let out = read_text("0.5\t1.5\tAlice\n2\t3\tBob\n4.25\t4.25\tAna María\n5\t5\tBob\n");
        let a = out.corpus.get("recording").unwrap().annotation();
        let names: Vec<&str> = a.speakers().iter().map(|(_, n)| n).collect();
        assert_eq!(names, ["Alice", "Bob"]);
        assert_eq!(a.tracks().len(), 2);
        let warnings: Vec<_> =
            out.warnings.iter().map(|w| (w.kind, w.line, w.column, w.message.as_str())).collect();
        assert_eq!(
            warnings,
            [(
                WarningKind::ZeroDuration,
                Some(3),
                Some(6),
                "zero-length segment at 4.250 dropped; and 1 more zero-length item(s) after it, dropped"
            )]
        );
        let mut rttm = Vec::new();
        let renamed = crate::format::rttm::write(&out.corpus, &mut rttm).unwrap();
        assert_eq!(renamed, []);
        assert_eq!(
            String::from_utf8(rttm).unwrap(),
            "SPEAKER recording 1 0.500 1.000 <NA> <NA> Alice <NA> <NA>\nSPEAKER recording 1 2.000 1.000 <NA> <NA> Bob <NA> <NA>\n"
        );
    }

    #[test]
    fn htk_scores_and_comments_are_not_the_speaker() {
        let out = read_text("0 23000000 sil -512.3 ; silence\n23000000 46000000 ana -87.5\n");
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            w,
            vec![
                (WarningKind::Note, None, None),
                (WarningKind::Note, Some(1), Some(16)),
                (WarningKind::Note, Some(1), Some(1))
            ]
        );
        // HTK's `sil` is silence, not a speaker.
        let a = out.corpus.get("recording").unwrap().annotation();
        let names: Vec<&str> = a.speakers().iter().map(|(_, n)| n).collect();
        assert_eq!(names, ["ana"]);
        assert_eq!(a.tracks()[0].segment, Segment::from_micros(2_300_000, 4_600_000).unwrap());
    }

    /// aeneas's VAD output (`sonnet.vad`): `speech` and `nonspeech` spans; `nonspeech` was read
    /// as a second speaker taking every turn between the first's.
    #[test]
    fn non_speech_labels_are_silence() {
        let out = read_text("0.000\t0.440\tnonspeech\n0.440\t0.720\tspeech\n0.720\t2.680\tnonspeech\n2.680\t3.200\tspeech\n3.2 4 Non-Speech\n");
        let a = out.corpus.get("recording").unwrap().annotation();
        let names: Vec<&str> = a.speakers().iter().map(|(_, n)| n).collect();
        assert_eq!(names, ["speech"]);
        let spans: Vec<_> = a.tracks().iter().map(|t| t.segment).collect();
        assert_eq!(
            spans,
            [Segment::from_millis(440, 720).unwrap(), Segment::from_millis(2680, 3200).unwrap()]
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.message.as_str())).collect();
        assert_eq!(
            w,
            [(WarningKind::Note, Some(1), "3 label(s) \"nonspeech\" (silence, as HTK writes `sil` and a voice activity detector such as aeneas `nonspeech`) read as silence, not as a speaker")]
        );
        assert!(!is_non_speech("speech") && !is_non_speech("Nona") && is_non_speech("no_speech"));
        assert!(is_non_speech("SIL") && is_non_speech("silence") && !is_non_speech("silas"));
        // Silence labels are well-formed: `--strict` reads the file, with the same note.
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        let text = "0 2300000 sil\n2300000 5000005 a\n5000005 6000000 SIL\n";
        let out = read_str(text, Format::Lab, &strict).unwrap();
        assert_eq!(out.warnings.last().map(|w| w.kind), Some(WarningKind::Note));
        assert_eq!(out.corpus.get("recording").unwrap().annotation().tracks().len(), 1);
    }

    #[test]
    fn a_text_only_mfa_lab_is_an_error_that_says_so() {
        for text in ["hello world how are you\n", "hello\n"] {
            let e = read_str(text, Format::Lab, &ReadOptions::default()).unwrap_err();
            assert_eq!((e.line(), e.column()), (Some(1), Some(1)), "{e}");
            assert!(e.to_string().contains("Montreal Forced Aligner"), "{e}");
        }
    }

    #[test]
    fn audacity_tabs_frequency_lines_and_spaces() {
        let out = read_text(
            "0.5\t1.25\tAna María\n\\\t100.0\t2000.0\n1.000000\t2.000000\t\n3 4.5 speech\n",
        );
        assert_eq!(
            spans_and_speakers(&out),
            vec![
                (Segment::from_millis(500, 1250).unwrap(), "Ana María"),
                (Segment::from_millis(1000, 2000).unwrap(), "unknown"),
                (Segment::from_millis(3000, 4500).unwrap(), "speech"),
            ]
        );
        let w: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(w, vec![(WarningKind::MissingSpeaker, Some(3))]);
    }

    /// Audacity under a locale with a decimal comma writes `1,500000`: read as seconds, with
    /// one note, whether the format is named or sniffed.
    #[test]
    fn audacity_decimal_comma() {
        let text = "1,500000\t2,300000\tAlice\n\\\t100,0\t2000,0\n3\t4,250000\tBob\n";
        assert_eq!(crate::format::sniff(text), Some(Format::Lab));
        let out = read_text(text);
        assert_eq!(
            spans_and_speakers(&out),
            vec![
                (Segment::from_millis(1500, 2300).unwrap(), "Alice"),
                (Segment::from_millis(3000, 4250).unwrap(), "Bob"),
            ]
        );
        let w: Vec<_> =
            out.warnings.iter().map(|w| (w.kind, w.line, w.column, w.message.as_str())).collect();
        assert_eq!(
            w,
            [(WarningKind::Note, Some(1), Some(1), "times are written with a decimal comma (`1,500000`, as Audacity writes them under a locale that uses one): read as seconds")]
        );
        // A note, so `--strict` reads it too.
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        assert!(read_str(text, Format::Lab, &strict).is_ok());
    }

    /// A file that mixes decimal commas with decimal points, or puts comma times on a line
    /// without tabs, is refused at the line that breaks the file's rule.
    #[test]
    fn ambiguous_decimal_commas_are_errors() {
        let e = read_str("1,5\t2,5\ta\n3.5\t4,0\tb\n", Format::Lab, &ReadOptions::default())
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 1: lab: start \"3.5\" is not written with a decimal comma as line 1 writes its times (`1,500000`); a file must write every time one way"
        );
        let e =
            read_str("1,5\t2,5\ta\n3,5 4,0 b\n", Format::Lab, &ReadOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 2, column 1: lab: line 1 writes its times with a decimal comma and tabs between the fields; this line has no tab, so its commas cannot be told from field separators"
        );
        let e = read_str("1,5\t2,500,1\ta\n", Format::Lab, &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(5)), "{e}");
    }

    #[test]
    fn htk_units() {
        let out = read_text("0 2300000 sil\n2300000 5000005 a\n");
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(
            t.annotation().tracks()[0].segment,
            Segment::from_micros(230_000, 500_001).unwrap()
        );
        assert_eq!(out.warnings[0].kind, WarningKind::Note);
        // Integer seconds below the threshold stay seconds.
        let out = read_text("0 23 a\n");
        let t = out.corpus.get("recording").unwrap();
        assert_eq!(t.annotation().tracks()[0].segment, Segment::from_millis(0, 23_000).unwrap());
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = read_str("1 2 a\n1 NaN b\n", Format::Lab, &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(3)));
        let e = read_str("0 99999999999999999999999 a\n", Format::Lab, &ReadOptions::default())
            .unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(3)));
    }

    #[test]
    fn writes_audacity_lines() {
        let out = read_text("0.5\t1.000001\tAna María\n0\t2\tb\n");
        let mut buf = Vec::new();
        assert!(write(&out.corpus, &mut buf).unwrap().is_empty());
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(text, "0.000\t2.000\tb\n0.500\t1.000001\tAna María\n");
        assert_eq!(read_text(&text).corpus, out.corpus);
    }
}
