//! NIST RTTM: `SPEAKER file chnl tbeg tdur ortho stype name conf slat`, one turn per line.
//!
//! Reading follows md-eval's tolerance: blank lines and lines starting with `#` or `;` are
//! skipped, the type is case-insensitive, 9 or 10 fields are accepted and only `SPEAKER` lines
//! make turns (`SPKR-INFO`, `LEXEME` and the other types are skipped). Repairs are warnings:
//! unsorted lines (VoxConverse), zero or `<NA>` durations (dscore rejects them), negative
//! durations, wrong field counts. Recording ids are kept whole (`EN2002a.Mix-Headset`).
//!
//! Writing is canonical: 10 fields, `<NA>` where unknown, channel 1, times in seconds exact to
//! the microsecond with at least three decimals, lines sorted by recording then time. Spaces in
//! ids and labels would split fields, so they become `_` with a warning.

use rustc_hash::FxHashMap;
use std::io::Write;

use crate::error::{Result, Warning, WarningKind};
use crate::format::{no_spaces, ReadContext};
use crate::model::{Corpus, Segment, TranscriptBuilder};
use crate::time::{parse_seconds, Time};

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

type Builders<'t> = FxHashMap<&'t str, (TranscriptBuilder, Time, bool)>;

fn entry_of<'m, 't>(
    builders: &'m mut Builders<'t>,
    file: &'t str,
) -> &'m mut (TranscriptBuilder, Time, bool) {
    builders.entry(file).or_insert_with(|| (TranscriptBuilder::new(), Time(i64::MIN), false))
}

/// Reads RTTM text: every `SPEAKER` line becomes a track of its recording.
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Corpus> {
    let mut builders: Builders<'_> = FxHashMap::default();
    let mut extra_fields_warned = false;
    for item in ctx.lines(text) {
        let (n, line) = item?;
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        let mut fields = [""; 10];
        let mut count = 0;
        for f in trimmed.split_ascii_whitespace() {
            if count < 10 {
                fields[count] = f;
            }
            count += 1;
        }
        let kind = fields[0];
        if !kind.eq_ignore_ascii_case("SPEAKER") {
            if kind.eq_ignore_ascii_case("END") {
                return Err(ctx.error(n, 1, "an `END` line: this is ESPnet's RTTM-like format (sample units), not NIST RTTM"));
            }
            if !KNOWN_TYPES.iter().any(|t| t.eq_ignore_ascii_case(kind)) {
                ctx.warn_at(
                    WarningKind::Skipped,
                    n,
                    Some(column_of(line, kind)),
                    format!("unknown RTTM type {kind:?}; line skipped"),
                )?;
            }
            continue;
        }
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
        let start = match parse_seconds(tbeg.trim_matches('*')) {
            Ok(t) => t,
            Err(e) => return Err(ctx.time_error(e, tbeg, "onset", n, column_of(line, tbeg))),
        };
        let duration = if tdur.eq_ignore_ascii_case("<NA>") {
            Time::ZERO
        } else {
            match parse_seconds(tdur.trim_matches('*')) {
                Ok(t) => t,
                Err(e) => {
                    return Err(ctx.time_error(e, tdur, "duration", n, column_of(line, tdur)))
                }
            }
        };
        let end = Time(start.0.saturating_add(duration.0));
        let entry = entry_of(&mut builders, file);
        if start < entry.1 && !entry.2 {
            entry.2 = true;
            ctx.warn_at(
                WarningKind::Unsorted,
                n,
                Some(column_of(line, tbeg)),
                format!("{file}: lines are not sorted by onset (sorted on reading)"),
            )?;
        }
        entry.1 = entry.1.max(start);
        if name.eq_ignore_ascii_case("<NA>") {
            ctx.warn_at(
                WarningKind::MissingSpeaker,
                n,
                Some(column_of(line, name)),
                "speaker is <NA>; kept as the label \"<NA>\"",
            )?;
        }
        let segment = match Segment::new(start, end) {
            Some(s) if start.0 >= 0 => Some(s),
            _ => ctx.segment(start, end, n, Some(column_of(line, tdur)))?,
        };
        let builder = &mut entry.0;
        match segment {
            Some(seg) => {
                builder.add(seg, name, None);
            }
            // Keep the speaker known even when every turn is dropped.
            None => {
                builder.speaker(name);
            }
        }
    }
    Ok(builders.into_iter().map(|(k, (b, _, _))| (k.to_owned(), b.build())).collect())
}

/// Writes canonical RTTM (10 fields, `<NA>` where unknown, sorted by recording then time).
pub fn write(corpus: &Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    let mut warnings = Vec::new();
    let mut buf = String::new();
    for (id, t) in corpus.iter() {
        let (file, changed) = no_spaces(id);
        if changed {
            warnings.push(Warning::new(
                WarningKind::Repaired,
                format!("recording id {id:?} written as {file:?} (RTTM fields cannot hold spaces)"),
            ));
        }
        let a = t.annotation();
        let names: Vec<String> = a
            .speakers()
            .iter()
            .map(|(_, name)| {
                let (n, changed) = no_spaces(name);
                if changed {
                    warnings.push(Warning::new(
                        WarningKind::Repaired,
                        format!(
                            "speaker {name:?} written as {n:?} (RTTM fields cannot hold spaces)"
                        ),
                    ));
                }
                n
            })
            .collect();
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
    use crate::model::Segment;

    fn read_text(text: &str) -> crate::format::ReadOutput {
        read_str(text, Format::Rttm, &ReadOptions::default()).unwrap()
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
        let strict = ReadOptions { strict: true, ..Default::default() };
        let e = read_str(text, Format::Rttm, &strict).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(13)));
    }

    #[test]
    fn bad_numbers_name_line_and_column() {
        let e = read_str(
            "SPEAKER f 1 abc 1.0 <NA> <NA> a <NA> <NA>\n",
            Format::Rttm,
            &ReadOptions::default(),
        )
        .unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(13)));
        let e = read_str(
            "SPEAKER f 1 1.0 NaN <NA> <NA> a <NA> <NA>\n",
            Format::Rttm,
            &ReadOptions::default(),
        )
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
}
