//! NIST UEM: scoring regions, `file-id channel onset offset` per line (offset is an end time).
//!
//! Comments start with `;` (dscore) or `#`. Three-field lines (`file onset offset`) are accepted
//! with a warning. Regions of one recording are merged into a [`Region`]. Recording ids keep
//! their dots here; md-eval's and dscore's handling of dotted ids is a scoring convention, not a
//! property of the file.

use std::collections::BTreeMap;
use std::io::Write;

use crate::error::{Result, Warning, WarningKind};
use crate::format::{no_spaces, Format, ReadContext, ReadOptions};
use crate::model::{Region, Segment};

use crate::format::{is_seconds, FirstLine, FormatSpec, Head, Sniff};

/// What the format registry knows of this format (see [`FormatSpec`]).
pub(crate) const SPEC: FormatSpec = FormatSpec {
    format: Format::Uem,
    name: "uem",
    aliases: &[],
    extension: "uem",
    detected_by: &["uem"],
    read: Err("a UEM file holds scoring regions, not speech; pass it with --uem"),
    write: Some(write_extents),
    json: false,
    many_recordings: true,
    paragraphs: false,
    sniff: &[Sniff::Line { rank: 20, test: sniff }],
};

/// `file channel onset offset`: four fields, the last two times, the first not.
fn sniff(_: &Head<'_>, first: &FirstLine<'_>) -> Option<Format> {
    let f = &first.fields;
    (f.len() == 4 && is_seconds(f[2]) && is_seconds(f[3]) && !is_seconds(f[0]))
        .then_some(Format::Uem)
}

/// Scoring regions by recording id.
pub type Uem = BTreeMap<String, Region>;

/// Reads UEM text.
///
/// A UEM of which no region is read (an empty file, comments alone, every line skipped or of
/// zero length) is an error: given with `--uem`, it would otherwise be no UEM at all, and
/// every recording scored over its default region without a word.
pub fn read(text: &str, ctx: &mut ReadContext<'_>) -> Result<Uem> {
    let mut per: BTreeMap<String, Vec<Segment>> = BTreeMap::new();
    // The first line that holds data and why it was not read, and how many lines hold data.
    let mut first: Option<(usize, String)> = None;
    let mut lines = 0usize;
    for item in ctx.lines(text) {
        let (n, line) = item?;
        let t = line.trim();
        if t.is_empty() || t.starts_with(';') || t.starts_with('#') {
            continue;
        }
        lines += 1;
        let fields: Vec<&str> = t.split_ascii_whitespace().collect();
        let (file, on, off) = match fields.len() {
            4 => (fields[0], fields[2], fields[3]),
            3 => {
                ctx.warn_at(
                    WarningKind::Note,
                    n,
                    None,
                    "3 fields (no channel); read as `file onset offset`",
                )?;
                (fields[0], fields[1], fields[2])
            }
            k => {
                let why = if fields[0].eq_ignore_ascii_case("SPEAKER") {
                    format!("{k} fields, UEM needs 4: an RTTM line (is this file a UEM?)")
                } else {
                    format!("{k} fields, UEM needs 4")
                };
                ctx.warn_at(WarningKind::Skipped, n, None, format!("{why}; line skipped"))?;
                first.get_or_insert((n, why));
                continue;
            }
        };
        let col = |f: &str| line.find(f).map_or(0, |i| line[..i].chars().count() + 1);
        let start = ctx.seconds(on, "onset", n, col(on))?;
        let end = ctx.seconds(off, "offset", n, col(off))?;
        match ctx.segment(start, end, n, Some(col(off)))? {
            Some(seg) => per.entry(file.to_owned()).or_default().push(seg),
            None => {
                first.get_or_insert((n, format!("the region {on}–{off} is empty")));
            }
        }
    }
    if per.is_empty() {
        return Err(match first {
            Some((n, why)) => ctx.error(
                n,
                1,
                format!("no scoring region: none of the {lines} line(s) could be read, the first for: {why}"),
            ),
            None => ctx.error(
                1,
                1,
                "no scoring region: the UEM is empty (no `file channel onset offset` line)",
            ),
        });
    }
    Ok(per.into_iter().map(|(k, v)| (k, Region::from_segments(v))).collect())
}

/// Reads UEM from bytes (any supported text encoding), returning regions and warnings.
pub fn read_bytes(bytes: &[u8], options: &ReadOptions) -> Result<(Uem, Vec<crate::Warning>)> {
    let text = crate::format::decode(bytes, "uem", &options.limits)?;
    let mut ctx = ReadContext::new(Format::Uem, options);
    let uem = read(&text, &mut ctx)?;
    Ok((uem, ctx.into_warnings()))
}

/// Writes the scoring region of each recording of `corpus`: its declared extent (a file's
/// stated duration), else the span of its speech, one line each (`convert ref.rttm -o
/// ref.uem` gives the UEM that scores every recording over its whole reference).
pub fn write_extents(corpus: &crate::model::Corpus, out: &mut dyn Write) -> Result<Vec<Warning>> {
    let mut uem = Uem::new();
    let mut warnings = Vec::new();
    for (id, t) in corpus.iter() {
        match t.declared_extent().or_else(|| t.annotation().extent()) {
            Some(extent) => {
                uem.insert(id.to_owned(), Region::from_segments([extent]));
            }
            None => warnings.push(Warning::new(
                WarningKind::Skipped,
                format!("recording {id:?} has no speech and no stated extent: no UEM line"),
            )),
        }
    }
    write(&uem, out)?;
    Ok(warnings)
}

/// Writes one line per region segment, channel 1.
pub fn write(uem: &Uem, out: &mut dyn Write) -> Result<()> {
    for (id, region) in uem {
        let (id, _) = no_spaces(id);
        for s in region {
            writeln!(out, "{id} 1 {} {}", s.start(), s.end())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_corpus_writes_the_extent_of_each_recording() {
        let text = "SPEAKER a 1 0.5 2 <NA> <NA> x <NA> <NA>\nSPEAKER a 1 3 1.25 <NA> <NA> y <NA> <NA>\nSPEAKER b 1 1 1 <NA> <NA> x <NA> <NA>\n";
        let read = crate::format::read_str(text, Format::Rttm, &ReadOptions::default()).unwrap();
        let mut out = Vec::new();
        assert!(write_extents(&read.corpus, &mut out).unwrap().is_empty());
        assert_eq!(String::from_utf8(out).unwrap(), "a 1 0.500 4.250\nb 1 1.000 2.000\n");
    }

    #[test]
    fn reads_merges_and_writes() {
        let (uem, w) = read_bytes(
            b";; c\nEN2002a.Mix-Headset 1 0.0 10.5\nEN2002a.Mix-Headset 1 10.5 20\nb 0 5\n",
            &ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(w.len(), 1);
        assert_eq!(
            uem["EN2002a.Mix-Headset"].segments(),
            &[Segment::from_micros(0, 20_000_000).unwrap()]
        );
        let mut out = Vec::new();
        write(&uem, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "EN2002a.Mix-Headset 1 0.000 20.000\nb 1 0.000 5.000\n"
        );
    }

    /// A UEM of which no region can be read is an error at its first line of data, not an
    /// empty UEM that leaves every recording to its default region.
    #[test]
    fn a_uem_without_a_region_is_an_error() {
        let opts = ReadOptions::default();
        for (text, shown) in [
            (&b""[..], "line 1, column 1: uem: no scoring region: the UEM is empty (no `file channel onset offset` line)"),
            (b";; only\n# comments\n\n", "line 1, column 1: uem: no scoring region: the UEM is empty (no `file channel onset offset` line)"),
            (
                b";; c\nSPEAKER rec 1 0 2 <NA> <NA> A <NA> <NA>\nSPEAKER rec 1 2 1 <NA> <NA> B <NA> <NA>\n",
                "line 2, column 1: uem: no scoring region: none of the 2 line(s) could be read, the first for: 10 fields, UEM needs 4: an RTTM line (is this file a UEM?)",
            ),
            (b"rec 1 5 5\n", "line 1, column 1: uem: no scoring region: none of the 1 line(s) could be read, the first for: the region 5–5 is empty"),
        ] {
            let e = read_bytes(text, &opts).unwrap_err();
            assert_eq!(e.to_string(), shown);
        }
        // One region read is enough: the rest are warnings.
        let (uem, w) = read_bytes(b"rec 1 5 5\nrec 1 0 4\n", &opts).unwrap();
        assert_eq!((uem.len(), w.len()), (1, 1));
    }

    #[test]
    fn errors_name_the_position() {
        let e = read_bytes(b"a 1 0 x\n", &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(1), Some(7)));
    }
}
