//! NIST RTTM: `SPEAKER file chnl tbeg tdur ortho stype name conf slat`, one turn per line.
//!
//! Reading follows md-eval's tolerance: blank lines and lines starting with `#` or `;` are
//! skipped, the type is case-insensitive, 9 or 10 fields are accepted and only `SPEAKER` lines
//! make turns (`SPKR-INFO`, `LEXEME` and the other types are skipped). Repairs are warnings:
//! unsorted lines (VoxConverse), zero or `<NA>` durations (dscore rejects them), negative
//! durations, wrong field counts. Recording ids are kept whole (`EN2002a.Mix-Headset`). The
//! channel is not kept: a recording is read per file, as dscore and pyannote.metrics read it, with
//! one note when a line is on another channel than 1 (see the `channel` module).
//!
//! Writing is canonical: 10 fields, `<NA>` where unknown, channel 1, times in seconds exact to
//! the microsecond with at least three decimals, lines sorted by recording then time. Spaces in
//! ids and labels would split fields, so they become `_` with a warning.

use rustc_hash::FxHashMap;
use std::io::Write;

use crate::error::{Result, Warning, WarningKind};
use crate::format::channel::Channels;
use crate::format::order::OutOfOrder;
use crate::format::{distinct_fields, ReadContext, ZeroLengthSegment};
use crate::model::{Corpus, Segment, SpeakerId, TranscriptBuilder};
use crate::time::Time;

use crate::format::{FirstLine, Format, FormatSpec, Head, Sniff};

/// What the format registry knows of this format (see [`FormatSpec`]).
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Rttm,
    name: "rttm",
    aliases: &[],
    extension: "rttm",
    detected_by: &["rttm"],
    read: Ok(read),
    write: Some(write),
    json: false,
    many_recordings: true,
    paragraphs: false,
    sniff: &[Sniff::Line { rank: 10, test: sniff }],
};

/// A first line of at least nine fields that starts with an RTTM type.
fn sniff(_: &Head<'_>, first: &FirstLine<'_>) -> Option<Format> {
    let upper = first.fields.first().map(|f| f.to_ascii_uppercase());
    // The onset and duration fields are numbers (or `<NA>`, as SPKR-INFO lines have them):
    // a transcript whose first line is `Speaker 1: Welcome back to the program…` has nine
    // words too, and is no RTTM.
    let timing = |i: usize| {
        first
            .fields
            .get(i)
            .is_some_and(|f| *f == "<NA>" || f.parse::<f64>().is_ok_and(f64::is_finite))
    };
    (matches!(
        upper.as_deref(),
        Some("SPEAKER" | "SPKR-INFO" | "LEXEME" | "NON-SPEECH" | "NON-LEX" | "SEGMENT")
    ) && first.fields.len() >= 9
        && timing(3)
        && timing(4))
    .then_some(Format::Rttm)
}

/// Types md-eval accepts; lines of other types are skipped with a warning.
const KNOWN_TYPES: &[&str] = &[
    "SEGMENT",
    "NOSCORE",
    "NO_RT_METADATA",
    "LEXEME",
    "NON-LEX",
    "NON-SPEECH",
    "FILLER",
    "EDIT",
    "IP",
    "SU",
    "CB",
    "A/P",
    "SPEAKER",
    "SPKR-INFO",
];

fn column_of(line: &str, field: &str) -> usize {
    let offset = (field.as_ptr() as usize).saturating_sub(line.as_ptr() as usize).min(line.len());
    line[..offset].chars().count() + 1
}

/// One recording being read: its id, builder, latest onset, and the ids of the speaker labels met so far (a few per recording, searched linearly before the
/// builder's table is asked).
struct Recording<'t> {
    id: &'t str,
    builder: TranscriptBuilder,
    latest: Time,
    speakers: Vec<(&'t str, SpeakerId)>,
}

/// How many labels a recording remembers for the linear search.
const RECENT_SPEAKERS: usize = 16;

impl<'t> Recording<'t> {
    fn speaker(&mut self, name: &'t str) -> SpeakerId {
        if let Some(&(_, id)) = self.speakers.iter().find(|(n, _)| *n == name) {
            return id;
        }
        let id = self.builder.speaker(name);
        if self.speakers.len() < RECENT_SPEAKERS {
            self.speakers.push((name, id));
        }
        id
    }
}

/// Splits `line` at ASCII whitespace into the first ten fields (the rest are counted only);
/// returns the number of fields. Same fields as `str::split_ascii_whitespace`.
fn split_fields<'l>(line: &'l str, fields: &mut [&'l str; 10]) -> usize {
    match space_mask(line.as_bytes()) {
        Some(spaces) => split_by_mask(line, spaces, fields),
        None => split_bytewise(line, fields),
    }
}

/// For a line of at most 64 bytes whose only bytes at or below `b' '` are spaces: bit `i` set
/// when byte `i` is a space, and every bit past the end set. `None` otherwise (tabs, other
/// control bytes, long lines: [`split_bytewise`] handles them).
///
/// Eight bytes at a time: a byte is below `0x21` when its top bit is clear and its low seven
/// bits plus `0x5f` do not reach `0x80` (no carry crosses bytes); it is a space when it XORs
/// with `0x20` to zero. The top bits are then gathered into one byte by a multiplication.
fn space_mask(bytes: &[u8]) -> Option<u64> {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const BELOW_21: u64 = 0x5f5f_5f5f_5f5f_5f5f;
    const SPACES: u64 = 0x2020_2020_2020_2020;
    const GATHER: u64 = 0x0102_0408_1020_4080;
    if bytes.len() > 64 {
        return None;
    }
    // The space bits of one word (eight bytes, little-endian), or `None` for another byte at or
    // below `b' '`.
    let spaces_of = |x: u64| {
        let low = !(((x & LOW7) + BELOW_21) | x) & HIGH;
        let y = x ^ SPACES;
        let space = !(((y & LOW7) + LOW7) | y) & HIGH;
        (low == space).then(|| (space >> 7).wrapping_mul(GATHER) >> 56)
    };
    let mut mask = 0u64;
    // Whole words are loaded directly (a byte copy into a padded word, then a load, makes the
    // processor wait for the copy to reach the load); the last bytes are shifted into a word of
    // spaces.
    let mut chunks = bytes.chunks_exact(8);
    let mut k = 0;
    for chunk in chunks.by_ref() {
        let word: [u8; 8] = chunk.try_into().unwrap_or([b' '; 8]);
        mask |= spaces_of(u64::from_le_bytes(word))? << (8 * k);
        k += 1;
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut x = SPACES;
        for (i, &b) in rest.iter().enumerate() {
            x = (x & !(0xff << (8 * i))) | (u64::from(b) << (8 * i));
        }
        mask |= spaces_of(x)? << (8 * k);
    }
    if bytes.len() < 64 {
        mask |= !0u64 << bytes.len();
    }
    Some(mask)
}

/// The fields of a line from its space mask (see [`space_mask`]): a field starts at a non-space
/// bit after a space bit (or bit 0) and ends before the next space bit.
fn split_by_mask<'l>(line: &'l str, spaces: u64, fields: &mut [&'l str; 10]) -> usize {
    let text = !spaces;
    let mut starts = text & !(text << 1);
    let mut lasts = text & !(text >> 1);
    let count = starts.count_ones() as usize;
    for slot in fields.iter_mut() {
        if starts == 0 {
            break;
        }
        let (from, last) = (starts.trailing_zeros() as usize, lasts.trailing_zeros() as usize);
        starts &= starts - 1;
        lasts &= lasts - 1;
        // Both ends are at spaces or the ends of the line, so they are char boundaries.
        if let Some(f) = line.get(from..last + 1) {
            *slot = f;
        }
    }
    count
}

/// [`split_fields`] one byte at a time, for any line.
fn split_bytewise<'l>(line: &'l str, fields: &mut [&'l str; 10]) -> usize {
    let mut count = 0;
    for (slot, f) in fields.iter_mut().zip(line.split_ascii_whitespace()) {
        *slot = f;
        count += 1;
    }
    count + line.split_ascii_whitespace().skip(count).count()
}

/// `a` equals `b` ignoring ASCII case; the exact spelling (the usual one) is checked first.
fn is(a: &str, b: &str) -> bool {
    a == b || a.eq_ignore_ascii_case(b)
}

/// `field` without the `*` that some tools put around times; no work when there is none.
fn strip_stars(field: &str) -> &str {
    if field.starts_with('*') || field.ends_with('*') {
        field.trim_matches('*')
    } else {
        field
    }
}

/// Reads RTTM text: every `SPEAKER` line becomes a track of its recording.
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let mut recordings: Vec<Recording<'_>> = Vec::new();
    let mut index: FxHashMap<&str, usize> = FxHashMap::default();
    // The recording of the previous line: files usually hold one recording, or runs of one.
    let mut last: Option<usize> = None;
    let mut extra_fields_warned = false;
    // Lines out of order: one warning per file, with the count.
    let mut unsorted = OutOfOrder::lines();
    let mut channels = Channels::default();
    // Lines of no RTTM type: the first one, and whether any RTTM line was seen at all.
    let mut first_unknown: Option<(usize, usize)> = None;
    let mut any_rttm = false;
    for item in ctx.lines(text) {
        let (n, line) = item?;
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        let mut fields = [""; 10];
        let count = split_fields(trimmed, &mut fields);
        let kind = fields[0];
        if !is(kind, "SPEAKER") {
            if kind.eq_ignore_ascii_case("END") {
                return Err(ctx.error(n, 1, "an `END` line: this is ESPnet's RTTM-like format (sample units), not NIST RTTM"));
            }
            if KNOWN_TYPES.iter().any(|t| t.eq_ignore_ascii_case(kind)) {
                any_rttm = true;
            } else {
                if !any_rttm && first_unknown.is_none() {
                    // Text of another format named `.rttm` (or `--from rttm`): said at once.
                    first_unknown = Some((n, column_of(line, kind)));
                    if let Some(f) = crate::format::sniff(text).filter(|f| *f != Format::Rttm) {
                        return Err(ctx.error(
                            n,
                            column_of(line, kind),
                            format!(
                                "not RTTM: no line has an RTTM type, and the text reads as {} (name it with --from {}, or give the file its extension)",
                                f.name(),
                                f.name()
                            ),
                        ));
                    }
                }
                ctx.warn_at(
                    WarningKind::Skipped,
                    n,
                    Some(column_of(line, kind)),
                    format!("unknown RTTM type {kind:?}; line skipped"),
                )?;
            }
            continue;
        }
        any_rttm = true;
        if count < 9 {
            ctx.warn_at(
                WarningKind::Skipped,
                n,
                None,
                format!("{count} fields, RTTM needs 9 or 10; line skipped"),
            )?;
            continue;
        }
        if count > 10 && !extra_fields_warned {
            extra_fields_warned = true;
            ctx.warn_at(WarningKind::Note, n, None, format!("{count} fields, RTTM has 10; the extra fields are ignored (pyannote would misread this file)"))?;
        }
        let (file, tbeg, tdur, name) = (fields[1], fields[3], fields[4], fields[7]);
        channels.see(file, fields[2], n, column_of(line, fields[2]));
        let Some(start) =
            ctx.seconds_or_skip(strip_stars(tbeg), "onset", "line", n, column_of(line, tbeg))?
        else {
            continue;
        };
        let duration = if is(tdur, "<NA>") {
            Time::ZERO
        } else {
            match ctx.seconds_or_skip(
                strip_stars(tdur),
                "duration",
                "line",
                n,
                column_of(line, tdur),
            )? {
                Some(t) => t,
                None => continue,
            }
        };
        let end = Time::from_micros(start.micros().saturating_add(duration.micros()));
        // A written duration of zero (not `<NA>`, not starred), as dscore and spyder see it.
        if duration == Time::ZERO
            && !is(tdur, "<NA>")
            && strip_stars(tdur) == tdur
            && strip_stars(tbeg) == tbeg
        {
            ctx.zero_length(ZeroLengthSegment {
                recording: file.to_owned(),
                speaker: name.to_owned(),
                at: start,
                line: n,
            });
        }
        let k = match last {
            Some(k) if recordings.get(k).is_some_and(|r| r.id == file) => k,
            _ => *index.entry(file).or_insert_with(|| {
                let mut builder = TranscriptBuilder::new();
                if recordings.is_empty() {
                    // Most files hold one recording: room for every line at once.
                    builder.reserve(memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1);
                }
                recordings.push(Recording {
                    id: file,
                    builder,
                    latest: Time::from_micros(i64::MIN),
                    speakers: Vec::new(),
                });
                recordings.len() - 1
            }),
        };
        last = Some(k);
        let Some(rec) = recordings.get_mut(k) else { continue };
        unsorted.check(ctx, file, &mut rec.latest, start, n, Some(column_of(line, tbeg)))?;
        if is(name, "<NA>") {
            ctx.warn_at(
                WarningKind::MissingSpeaker,
                n,
                Some(column_of(line, name)),
                "speaker is <NA>; kept as the label \"<NA>\"",
            )?;
        }
        let segment = match Segment::new(start, end) {
            Some(s) if start.micros() >= 0 => Some(s),
            _ => ctx.segment(start, end, n, Some(column_of(line, tdur)))?,
        };
        // A speaker is declared by a turn that is kept: one whose every turn is dropped
        // (zero-length) has no speech to score or write.
        if let Some(seg) = segment {
            let id = rec.speaker(name);
            rec.builder.push(seg, id, None);
        }
    }
    if let (Some((n, column)), false) = (first_unknown, any_rttm) {
        return Err(ctx.error(n, column, "not RTTM: no line has an RTTM type (`SPEAKER …`)"));
    }
    unsorted.finish(ctx, recordings.len());
    channels.finish(ctx)?;
    Ok(recordings.into_iter().map(|r| (r.id.to_owned(), r.builder.build())).collect())
}

/// Writes canonical RTTM (10 fields, `<NA>` where unknown, sorted by recording then time).
pub fn write(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    let mut warnings = Vec::new();
    let mut buf = String::new();
    let files = distinct_fields(corpus.ids(), "recording id", "RTTM", "", &mut warnings);
    for ((_, t), file) in corpus.iter().zip(&files) {
        let a = t.annotation();
        let names = distinct_fields(
            t.annotation().speakers().iter().map(|(_, name)| name),
            "speaker",
            "RTTM",
            "",
            &mut warnings,
        );
        for track in a.tracks() {
            use std::fmt::Write as _;
            let s = track.segment;
            // Writing into a String cannot fail.
            let _ = writeln!(
                buf,
                "SPEAKER {file} 1 {} {} <NA> <NA> {} <NA> <NA>",
                s.start(),
                s.duration(),
                names[track.speaker.index()]
            );
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

    /// A text is RTTM when its first line's onset and duration are numbers (or `<NA>`): a
    /// transcript that opens with `Speaker 1: …` of nine words is not, nor is a Rev paragraph
    /// header followed by text.
    #[test]
    fn sniffed_only_with_numbers_where_the_times_go() {
        let rttm = "SPEAKER rec 1 0.50 1.25 <NA> <NA> A <NA> <NA>\n";
        let info = "SPKR-INFO rec 1 <NA> <NA> <NA> adult_male A <NA>\n";
        for text in [rttm, info] {
            assert_eq!(crate::format::detect(Some("x.txt"), text, None).unwrap(), Format::Rttm);
        }
        for text in [
            "Speaker 1: Welcome back to the program. Today we are talking about the budget.\n\nSpeaker 2: Thank you for having me.\n\nSpeaker 1: Let's begin.\n",
            "Speaker 1 (00:00:03): Welcome back to the program. Today we are talking about it.\n",
        ] {
            let found = crate::format::detect(Some("x.txt"), text, None);
            assert!(!matches!(found, Ok(Format::Rttm)), "{text}: {found:?}");
        }
    }

    /// Spaces become `_`, and a name that would then be another speaker's (or recording's)
    /// gets a suffix: the writing never merges two speakers.
    #[test]
    fn names_with_spaces_stay_distinct() {
        use crate::model::TranscriptBuilder;
        use crate::Segment;
        let mut b = TranscriptBuilder::new();
        b.add(Segment::from_millis(0, 1000).unwrap(), "Mary Ann", None);
        b.add(Segment::from_millis(500, 2500).unwrap(), "Mary_Ann", None);
        let mut corpus = Corpus::new();
        corpus.insert("a b".to_owned(), b.build());
        corpus.insert("a_b".to_owned(), crate::Transcript::default());
        let mut out = Vec::new();
        let warnings = write(&corpus, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "SPEAKER a_b_2 1 0.000 1.000 <NA> <NA> Mary_Ann_2 <NA> <NA>\nSPEAKER a_b_2 1 0.500 2.000 <NA> <NA> Mary_Ann <NA> <NA>\n"
        );
        let messages: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "recording id \"a b\" written as \"a_b_2\" (RTTM fields cannot hold spaces, since \"a_b\" is another recording id's)",
                "speaker \"Mary Ann\" written as \"Mary_Ann_2\" (RTTM fields cannot hold spaces, since \"Mary_Ann\" is another speaker's)",
            ]
        );
        let back = read_str(&text, Format::Rttm, &ReadOptions::default()).unwrap();
        assert_eq!(back.corpus.get("a_b_2").unwrap().annotation().speakers().len(), 2);
    }
    use crate::model::Segment;

    #[test]
    fn fields_split_like_split_ascii_whitespace() {
        let long = format!("SPEAKER a 1 0 1 <NA> <NA> {} <NA> <NA>", "x".repeat(40));
        let (at63, at64, at65) =
            ("ab ".repeat(21), "a  ".repeat(21) + "b", "ab ".repeat(21) + "cd");
        let lines = [
            "SPEAKER ES2011a 1 34.27 10.12 <NA> <NA> FEE041 <NA> <NA>",
            "SPEAKER  a   1 2\t3 x y z w v u t s",
            "SPEAKER a 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27",
            "a\u{b}b c\u{1f}d é\u{a0}f \u{7f}  g\x0ch\ri",
            at63.as_str(),
            at64.as_str(),
            at65.as_str(),
            "x",
            "x ",
            "",
            long.as_str(),
        ];
        // Every length of the last partial word, with a tab or a control byte in it or not.
        let plain = "SPEAKER ES2011a 1 34.27 10.12 <NA> <NA> FEE041 <NA> <NA> a b\tc\u{1}d e";
        let prefixes = (0..=plain.len()).map(|n| &plain[..n]);
        for line in lines.into_iter().chain(prefixes) {
            let mut fields = [""; 10];
            let count = split_fields(line, &mut fields);
            let expected: Vec<&str> = line.split_ascii_whitespace().collect();
            assert_eq!(count, expected.len(), "{line:?}");
            let n = count.min(10);
            assert_eq!(&fields[..n], &expected[..n], "{line:?}");
        }
        // The mask path is taken for plain lines (and only for them).
        assert!(space_mask(lines[0].as_bytes()).is_some());
        assert!(space_mask(lines[1].as_bytes()).is_none());
        assert!(space_mask(lines[5].as_bytes()).is_some());
        assert!(space_mask(lines[6].as_bytes()).is_none());
    }

    fn read_text(text: &str) -> crate::format::ReadOutput {
        read_str(text, Format::Rttm, &ReadOptions::default()).unwrap()
    }

    /// A speaker whose every turn is zero-length is not declared: it has no speech to score.
    #[test]
    fn a_speaker_of_only_dropped_turns_is_not_declared() {
        let out = read_text("SPEAKER f 1 0.0 1.0 <NA> <NA> a <NA> <NA>\nSPEAKER f 1 1.0 0.0 <NA> <NA> b <NA> <NA>\nSPEAKER f 1 2.0 1.0 <NA> <NA> c <NA> <NA>\n");
        let a = out.corpus.get("f").unwrap().annotation();
        let names: Vec<&str> = a.speakers().iter().map(|(_, n)| n).collect();
        assert_eq!(names, ["a", "c"]);
        let warnings: Vec<_> =
            out.warnings.iter().map(|w| (w.kind, w.line, w.column, w.message.as_str())).collect();
        assert_eq!(
            warnings,
            [(
                WarningKind::ZeroDuration,
                Some(2),
                Some(17),
                "zero-length segment at 1.000 dropped"
            )]
        );
    }

    #[test]
    fn zero_length_turns_are_carried_beside_the_corpus() {
        let out = read_text(
            "SPEAKER f 1 1.00 2.00 <NA> <NA> A <NA> <NA>\n\
             SPEAKER f 1 5.00 0.00 <NA> <NA> B <NA> <NA>\n\
             SPEAKER f 1 6.00 <NA> <NA> <NA> C <NA> <NA>\n\
             SPEAKER g 1 -1.00 0 <NA> <NA> D <NA> <NA>\n",
        );
        let zero: Vec<(&str, &str, i64, usize)> = out
            .zero_length
            .iter()
            .map(|z| (z.recording.as_str(), z.speaker.as_str(), z.at.micros(), z.line))
            .collect();
        // `<NA>` is no written duration; a negative onset is kept as written.
        assert_eq!(zero, [("f", "B", 5_000_000, 2), ("g", "D", -1_000_000, 4)]);
        assert_eq!(out.corpus.get("f").unwrap().annotation().len(), 1);
    }

    #[test]
    fn reads_turns_and_keeps_dotted_ids() {
        let out = read_text(
            "SPEAKER EN2002a.Mix-Headset 1 0.00 4.21 <NA> <NA> alice <NA> <NA>\n\
             ;; comment\n\
             SPKR-INFO EN2002a.Mix-Headset 1 <NA> <NA> <NA> adult_female alice <NA> <NA>\n\
             speaker EN2002a.Mix-Headset 1 3.950 2.300 <NA> <NA> bob <NA>\n",
        );
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        let t = out.corpus.get("EN2002a.Mix-Headset").unwrap();
        assert_eq!(t.annotation().len(), 2);
        assert_eq!(
            t.annotation().tracks()[1].segment,
            Segment::from_micros(3_950_000, 6_250_000).unwrap()
        );
    }

    #[test]
    fn repairs_are_warnings_and_strict_errors() {
        let text = "SPEAKER f 1 5.0 1.0 <NA> <NA> a <NA> <NA>\nSPEAKER f 1 1.0 0.0 <NA> <NA> b <NA> <NA>\nSPEAKER f 1 2.0 1.0 <NA> <NA>\n";
        let out = read_text(text);
        let kinds: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line)).collect();
        assert_eq!(
            kinds,
            vec![
                (WarningKind::Unsorted, Some(2)),
                (WarningKind::ZeroDuration, Some(2)),
                (WarningKind::Skipped, Some(3))
            ]
        );
        // Unsorted lines and a zero-length turn are notes (valid RTTM); the short line is the
        // first repair.
        let strict = ReadOptions { strict: true, ..Default::default() };
        let e = read_str(text, Format::Rttm, &strict).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(3), None));
        let unsorted = "SPEAKER f 1 5.0 1.0 <NA> <NA> a <NA> <NA>\nSPEAKER f 1 1.0 1.0 <NA> <NA> b <NA> <NA>\n";
        let out = read_str(unsorted, Format::Rttm, &strict).unwrap();
        assert_eq!(
            out.warnings.iter().map(|w| w.kind).collect::<Vec<_>>(),
            [WarningKind::Unsorted]
        );
    }

    #[test]
    fn unsorted_lines_get_one_warning_per_file_with_a_count() {
        // Three lines out of order in one recording, one in another, among other warnings.
        let text = "SPEAKER f 1 5.0 1.0 <NA> <NA> a <NA> <NA>\nSPEAKER f 1 1.0 1.0 <NA> <NA> b <NA> <NA>\n\
            SPEAKER f 1 2.0 0.0 <NA> <NA> b <NA> <NA>\nSPEAKER f 1 3.0 1.0 <NA> <NA> a <NA> <NA>\n\
            SPEAKER g 1 4.0 1.0 <NA> <NA> a <NA> <NA>\nSPEAKER g 1 0.5 1.0 <NA> <NA> a <NA> <NA>\n";
        let out = read_text(text);
        let kinds: Vec<_> = out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect();
        assert_eq!(
            kinds,
            vec![
                (WarningKind::Unsorted, Some(2), Some(13)),
                (WarningKind::ZeroDuration, Some(3), Some(17))
            ]
        );
        assert_eq!(
            out.warnings[0].message,
            "4 lines out of time order (first at line 2), in 2 of 2 recordings (f, g); sorted on reading"
        );
        let f = out.corpus.get("f").unwrap();
        let starts: Vec<i64> = f.utterances().map(|u| u.segment.start().micros()).collect();
        assert_eq!(starts, [1_000_000, 3_000_000, 5_000_000]);
    }

    #[test]
    fn bad_numbers_name_line_and_column() {
        // Lenient: the line is skipped with a located warning, the rest is read.
        let text =
            "SPEAKER f 1 abc 1.0 <NA> <NA> a <NA> <NA>\nSPEAKER f 1 2 1.0 <NA> <NA> b <NA> <NA>\n";
        let out = read_str(text, Format::Rttm, &ReadOptions::default()).unwrap();
        assert_eq!(out.warnings[0].kind, WarningKind::MissingTime);
        assert_eq!((out.warnings[0].line, out.warnings[0].column), (Some(1), Some(13)));
        assert_eq!(out.corpus.get("f").unwrap().annotation().len(), 1);
        // Strict: the error, at the same place.
        let strict = ReadOptions { strict: true, ..ReadOptions::default() };
        let e = read_str(text, Format::Rttm, &strict).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(13)));
        let e = read_str("SPEAKER f 1 1.0 NaN <NA> <NA> a <NA> <NA>\n", Format::Rttm, &strict)
            .unwrap_err();
        assert!(e.to_string().contains("NaN"), "{e}");
        assert!(read_str("END f 1 0 10\n", Format::Rttm, &ReadOptions::default()).is_err());
    }

    #[test]
    fn writes_canonical_lines_that_read_back() {
        let out = read_text(
            "SPEAKER r 1 0.5 1.25 <NA> <NA> b <NA> <NA>\nSPEAKER r 1 0.000001 2 x y a 0.9 <NA>\n",
        );
        let mut buf = Vec::new();
        assert!(write(&out.corpus, &mut buf).unwrap().is_empty());
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(text, "SPEAKER r 1 0.000001 2.000 <NA> <NA> a <NA> <NA>\nSPEAKER r 1 0.500 1.250 <NA> <NA> b <NA> <NA>\n");
        assert_eq!(read_text(&text).corpus, out.corpus);
    }

    proptest::proptest! {
        #[test]
        fn fields_split_as_split_ascii_whitespace(line in "[ \t\x0Ca-zé*<>.0-9]{0,80}") {
            let mut fields = [""; 10];
            let count = split_fields(&line, &mut fields);
            let want: Vec<&str> = line.split_ascii_whitespace().collect();
            proptest::prop_assert_eq!(count, want.len());
            proptest::prop_assert_eq!(&fields[..count.min(10)], &want[..count.min(10)]);
            let stripped = strip_stars(&line);
            proptest::prop_assert_eq!(stripped, line.trim_matches('*'));
        }
    }

    #[test]
    fn recordings_interleaved_and_many_speakers() {
        // Lines of two recordings alternate; one recording has more labels than the linear
        // search remembers.
        let mut text = String::new();
        for k in 0..40 {
            let file = if k % 2 == 0 { "r1" } else { "r2" };
            text += &format!("SPEAKER {file} 1 {k}.0 0.5 <NA> <NA> s{k:02} <NA> <NA>\n");
        }
        let out = read_text(&text);
        let r1 = out.corpus.get("r1").unwrap().annotation();
        let r2 = out.corpus.get("r2").unwrap().annotation();
        assert_eq!((r1.len(), r2.len()), (20, 20));
        assert_eq!((r1.speakers().len(), r2.speakers().len()), (20, 20));
        let mut b = crate::model::TranscriptBuilder::new();
        for k in (0..40).filter(|k| k % 2 == 1) {
            let seg = Segment::from_millis(k * 1000, k * 1000 + 500).unwrap();
            b.add(seg, &format!("s{k:02}"), None);
        }
        assert_eq!(out.corpus.get("r2").unwrap(), &b.build());
    }
}
