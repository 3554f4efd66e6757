//! The outputs of `validate`: per RTTM or UEM file, what md-eval-22, dscore and
//! pyannote.metrics would each do with it ([`crate::score::validate`] finds it), as text or as
//! the JSON object `{schema_version, files}`.

use std::io::{self, Write};

use serde_json::json;

use crate::score::validate::{Consumer, Effect, Finding, Validation};

/// The consumers every output speaks of, in their order.
pub const CONSUMERS: [Consumer; 3] = [Consumer::MdEval, Consumer::Dscore, Consumer::Pyannote];

/// One checked input: its name as the front end shows it, what it was read as, and its
/// validation (`None` when the input is neither RTTM nor UEM, which have nothing to check).
#[derive(Debug, Clone, PartialEq)]
pub struct Validated {
    /// The input's name.
    pub name: String,
    /// The format it was detected as (`rttm`, `uem`, or another format's name), if any.
    pub format: Option<&'static str>,
    /// The findings, for an RTTM or UEM input.
    pub validation: Option<Validation>,
}

/// What `c` does with the file, by its worst finding.
pub fn verdict(v: &Validation, c: Consumer) -> &'static str {
    let worst = v.findings.iter().filter(|f| f.consumer == c).map(|f| f.effect).max();
    match worst {
        Some(Effect::Rejects) => "rejects",
        Some(Effect::Changes) => "accepts with changes",
        Some(Effect::Note) | None => "accepts",
    }
}

/// Whether any consumer rejects any of `results`.
pub fn any_rejected(results: &[Validated]) -> bool {
    results
        .iter()
        .any(|r| r.validation.as_ref().is_some_and(|v| CONSUMERS.iter().any(|&c| v.rejected_by(c))))
}

/// Writes the pretty-printed JSON object and a newline.
pub fn write_json(results: &[Validated], out: &mut dyn Write) -> io::Result<()> {
    let files: Vec<serde_json::Value> = results
        .iter()
        .map(|Validated { name, format, validation }| {
            let Some(v) = validation else {
                return json!({"file": name, "format": format, "rttm": false});
            };
            let verdicts: serde_json::Map<_, _> =
                CONSUMERS.iter().map(|&c| (c.name().to_owned(), json!(verdict(v, c)))).collect();
            // A UEM counts its regions, an RTTM its turns.
            let (rttm, count, n) = match format {
                Some("uem") => (false, "regions", v.regions),
                _ => (true, "turns", v.turns),
            };
            json!({
                "file": name,
                "format": format,
                "rttm": rttm,
                count: n,
                "verdicts": verdicts,
                "findings": v.findings,
            })
        })
        .collect();
    serde_json::to_writer_pretty(&mut *out, &json!({"schema_version": 1, "files": files}))?;
    writeln!(out)
}

/// Writes the text report: per file, each consumer's verdict and findings.
pub fn write_text(results: &[Validated], out: &mut dyn Write) -> io::Result<()> {
    for Validated { name, format, validation } in results {
        let Some(v) = validation else {
            match format {
                Some(f) => writeln!(out, "{name}: {f}, not RTTM or UEM; nothing to check")?,
                None => writeln!(out, "{name}: not RTTM or UEM; nothing to check")?,
            }
            continue;
        };
        if *format == Some("uem") {
            writeln!(out, "{name}: UEM, {} regions", v.regions)?;
        } else {
            writeln!(out, "{name}: {} turns", v.turns)?;
        }
        for c in CONSUMERS {
            writeln!(out, "  {}: {}", c.name(), verdict(v, c))?;
            // The same finding on many lines is one line of the report: the first, and how
            // many more (the JSON report lists every line).
            let mine: Vec<&Finding> = v.findings.iter().filter(|f| f.consumer == c).collect();
            let mut seen: Vec<(Effect, &str)> = Vec::new();
            for f in &mine {
                if seen.contains(&(f.effect, f.message.as_str())) {
                    continue;
                }
                seen.push((f.effect, f.message.as_str()));
                let effect = match f.effect {
                    Effect::Rejects => "rejects",
                    Effect::Changes => "changes",
                    Effect::Note => "note",
                };
                let alike: Vec<Option<usize>> = mine
                    .iter()
                    .filter(|g| g.effect == f.effect && g.message == f.message)
                    .map(|g| g.line)
                    .collect();
                let more = match (alike.len() - 1, alike.last().copied().flatten()) {
                    (0, _) => String::new(),
                    (n, Some(last)) => format!(" (and {n} more line(s) like it, the last {last})"),
                    (n, None) => format!(" (and {n} more like it)"),
                };
                match f.line {
                    Some(l) => writeln!(out, "    line {l}: {effect}: {}{more}", f.message)?,
                    None => writeln!(out, "    {effect}: {}{more}", f.message)?,
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::validate::validate_rttm;
    use crate::score::Side;

    #[test]
    fn a_zero_length_turn_is_rejected_by_dscore_only() {
        let text = "SPEAKER f 1 0.00 1.00 <NA> <NA> A <NA> <NA>\n\
                    SPEAKER f 1 2.00 0.00 <NA> <NA> B <NA> <NA>\n";
        let v = validate_rttm(text, None, Side::Reference);
        assert_eq!(verdict(&v, Consumer::Dscore), "rejects");
        assert_eq!(verdict(&v, Consumer::MdEval), "accepts with changes");
        let results =
            [Validated { name: "f.rttm".into(), format: Some("rttm"), validation: Some(v) }];
        assert!(any_rejected(&results));
        let mut out = Vec::new();
        write_text(&results, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("f.rttm: 2 turns\n  md-eval: accepts with changes\n"), "{text}");
        assert!(text.contains("  dscore: rejects\n    line 2: rejects: "), "{text}");
    }

    #[test]
    fn a_finding_on_many_lines_is_reported_once_with_the_count() {
        let text = "SPEAKER f 1 0.00 1.00 <NA> <NA> A <NA>\n\
                    SPEAKER f 1 2.00 1.00 <NA> <NA> B <NA>\n\
                    SPEAKER f 1 4.00 1.00 <NA> <NA> A <NA>\n";
        let v = validate_rttm(text, None, Side::Reference);
        let notes = v.findings.iter().filter(|f| f.consumer == Consumer::Pyannote).count();
        assert_eq!(notes, 3);
        let mut out = Vec::new();
        let results =
            [Validated { name: "f.rttm".into(), format: Some("rttm"), validation: Some(v) }];
        write_text(&results, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains("    line 1: note: 9 fields: fine for md-eval and dscore; pyannote reads the missing slat as NaN (and 2 more line(s) like it, the last 3)\n"),
            "{text}"
        );
        assert_eq!(text.matches("9 fields").count(), 1, "{text}");
    }

    /// A UEM says it is one and counts its regions; an input of another format names it.
    #[test]
    fn a_uem_and_another_format_say_what_they_are() {
        let v = crate::score::validate::validate_uem("rec 1 0 10\nrec 1 5 20\n");
        let results = [
            Validated { name: "all.uem".into(), format: Some("uem"), validation: Some(v) },
            Validated { name: "a.stm".into(), format: Some("stm"), validation: None },
            Validated { name: "x.bin".into(), format: None, validation: None },
        ];
        assert!(any_rejected(&results));
        let mut out = Vec::new();
        write_text(&results, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "all.uem: UEM, 2 regions\n  md-eval: rejects\n    line 2: rejects: rec, channel 1: the region of line 2 overlaps the region of line 1: \"UEM file has overlapping evaluation segments\"\n  dscore: accepts\n    line 2: note: rec, channel 1: the region of line 2 overlaps the region of line 1: merged\n  pyannote.metrics: accepts\n    line 2: note: rec, channel 1: the region of line 2 overlaps the region of line 1: the support of the timeline merges them\na.stm: stm, not RTTM or UEM; nothing to check\nx.bin: not RTTM or UEM; nothing to check\n"
        );
        let mut out = Vec::new();
        write_json(&results, &mut out).unwrap();
        let j: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(j["files"][0]["format"], "uem");
        assert_eq!(j["files"][0]["regions"], 2);
        assert_eq!(j["files"][0]["verdicts"]["md-eval"], "rejects");
        assert_eq!(j["files"][1], json!({"file": "a.stm", "format": "stm", "rttm": false}));
        assert_eq!(j["files"][2], json!({"file": "x.bin", "format": null, "rttm": false}));
    }
}
