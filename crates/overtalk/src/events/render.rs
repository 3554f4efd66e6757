//! Text renderings of an [`EventReport`]: a terminal table, CSV/TSV (one row per recording and
//! class, then the corpus rows under `ALL`) and Markdown. JSON is the report serialised as is.
//! An undefined figure prints as `n/a` (text) or an empty cell (CSV).

use std::fmt::Write as _;

use super::{Aggregate, Cause, ClassScore, EventReport, TotalDistortion};

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_owned(), |v| crate::output::number::percent(v, 1))
}

fn num(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "n/a".to_owned(), |v| format!("{v:.digits$}"))
}

fn signed_pct(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_owned(), |v| crate::output::number::signed_percent(v, 1))
}

fn interval(a: &Aggregate, f: impl Fn(Option<f64>) -> String) -> String {
    match (a.low, a.high) {
        (Some(l), Some(h)) => format!("{} [{}, {}]", f(a.value), f(Some(l)), f(Some(h))),
        _ => f(a.value),
    }
}

fn class_cells(c: &ClassScore) -> Vec<String> {
    vec![
        c.class.map_or("ALL", |c| c.name()).to_owned(),
        c.reference.to_string(),
        c.hypothesis.to_string(),
        c.tp.to_string(),
        c.fp.to_string(),
        c.fn_.to_string(),
        pct(c.precision),
        pct(c.recall),
        pct(c.f1),
        pct(c.error_rate),
        format!("{:+}", c.count_error),
        signed_pct(c.relative_count_error),
    ]
}

const CLASS_HEAD: [&str; 12] =
    ["class", "ref", "hyp", "TP", "FP", "FN", "P %", "R %", "F1 %", "ER %", "count", "count %"];

fn table(out: &mut String, head: &[&str], rows: &[Vec<String>]) {
    let mut w: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |out: &mut String, cells: &[String]| {
        for (i, c) in cells.iter().enumerate() {
            let pad = w[i] - c.chars().count();
            if i == 0 {
                let _ = write!(out, "{c}{}", " ".repeat(pad));
            } else {
                let _ = write!(out, "  {}{c}", " ".repeat(pad));
            }
        }
        out.push('\n');
    };
    line(out, &head.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    for r in rows {
        line(out, r);
    }
}

fn blame_rows(classes: &[ClassScore]) -> Vec<Vec<String>> {
    classes
        .iter()
        .filter(|c| c.blame.total() > 0)
        .map(|c| {
            let mut row = vec![c.class.map_or("ALL", |c| c.name()).to_owned()];
            row.extend(Cause::ALL.iter().map(|&k| c.blame.get(k).to_string()));
            row
        })
        .collect()
}

const BLAME_HEAD: [&str; 6] =
    ["class", "missed speech", "false alarm", "confusion", "boundary shift", "rule"];

/// Which rendering the rows are for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rows {
    /// The terminal lists the count error of the interruption classes only, with short labels.
    Terminal,
    /// Markdown lists every class, with the labels in full.
    Markdown,
}

/// The distortion of the aggregates as `(label, value [interval])` rows.
fn distortion_rows(d: &TotalDistortion, rows: Rows) -> Vec<(String, String)> {
    let mut lines: Vec<(String, String)> = Vec::new();
    for (class, a) in &d.relative_count_error {
        let interruption = matches!(
            class,
            super::EventClass::Interruption(_)
                | super::EventClass::Onset(super::OnsetClassKey::Interruption)
        );
        if interruption || rows == Rows::Markdown {
            lines.push((format!("count error {} (%)", class.name()), interval(a, signed_pct)));
        }
    }
    let over = if rows == Rows::Markdown { " over speakers" } else { "" };
    lines.push((
        "count error, all interruption attempts (%)".into(),
        interval(&d.interruption_count_error, signed_pct),
    ));
    lines.push((
        "who-interrupts-whom L1 / attempts (%)".into(),
        interval(&d.interruption_matrix_relative, pct),
    ));
    lines.push((
        format!("talk-share error, max{over} (pp)"),
        interval(&d.talk_share_pp, |x| num(x, 2)),
    ));
    lines.push((
        format!("floor-share error, max{over} (pp)"),
        interval(&d.floor_share_pp, |x| num(x, 2)),
    ));
    lines.push(("FTO Wasserstein-1 (ms)".into(), interval(&d.fto_w1_ms, |x| num(x, 1))));
    lines
}

/// The terminal table.
pub fn to_table(r: &EventReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Event scoring: onset tolerance {} ms, DER collar {} s per side, {} recording(s), DER {} %",
        r.options.tolerance,
        r.collar,
        r.recordings.len(),
        pct(r.der)
    );
    s.push('\n');
    let mut rows: Vec<Vec<String>> = r.classes.iter().map(class_cells).collect();
    rows.push(class_cells(&r.total));
    table(&mut s, &CLASS_HEAD, &rows);
    let d = &r.distortion;
    let ci = if d.recordings >= 2 && r.options.bootstrap > 0 {
        format!(
            " [{:.0} % bootstrap interval over recordings, {} resamples, seed {}]",
            r.options.confidence * 100.0,
            r.options.bootstrap,
            r.options.seed
        )
    } else {
        " (no interval: fewer than 2 recordings)".to_owned()
    };
    let _ = writeln!(s, "\nDistortion of the aggregates{ci}");
    let lines = distortion_rows(d, Rows::Terminal);
    let width = lines.iter().map(|(l, _)| l.chars().count()).max().unwrap_or(0);
    for (label, value) in lines {
        let _ = writeln!(s, "  {label:<width$}  {value}");
    }
    let blame = blame_rows(&r.classes);
    if !blame.is_empty() {
        s.push_str("\nUnmatched events by cause (reference and hypothesis side together)\n");
        table(&mut s, &BLAME_HEAD, &blame);
    }
    s.push_str("\nPer recording\n");
    let rows: Vec<Vec<String>> = r
        .recordings
        .iter()
        .map(|f| {
            let total = f
                .classes
                .iter()
                .fold((0, 0, 0), |a, c| (a.0 + c.tp, a.1 + c.reference, a.2 + c.hypothesis));
            let f1 =
                (total.1 + total.2 > 0).then(|| 2.0 * total.0 as f64 / (total.1 + total.2) as f64);
            let d = &f.distortion;
            vec![
                f.id.clone(),
                pct(f.der),
                pct(f1),
                d.reference_attempts.to_string(),
                d.hypothesis_attempts.to_string(),
                pct(d.interruption_matrix_relative),
                num(d.talk_share_pp, 2),
                num(d.floor_share_pp, 2),
                num(d.fto_w1_ms, 1),
                f.unmatched.len().to_string(),
            ]
        })
        .collect();
    table(
        &mut s,
        &[
            "recording",
            "DER %",
            "F1 %",
            "ref att.",
            "hyp att.",
            "matrix %",
            "talk pp",
            "floor pp",
            "FTO W1 ms",
            "unmatched",
        ],
        &rows,
    );
    for f in &r.recordings {
        let blame = blame_rows(&f.classes);
        if !blame.is_empty() {
            let _ = writeln!(s, "\n{}: unmatched events by cause", f.id);
            table(&mut s, &BLAME_HEAD, &blame);
        }
    }
    s
}

/// CSV (`sep = ','`) or TSV (`sep = '\t'`): one row per recording and class, then `ALL` rows.
pub fn to_delimited(r: &EventReport, sep: char) -> String {
    let head = [
        "recording",
        "class",
        "reference",
        "hypothesis",
        "tp",
        "fp",
        "fn",
        "precision",
        "recall",
        "f1",
        "error_rate",
        "count_error",
        "relative_count_error",
        "mean_offset_ms",
        "missed_speech",
        "false_alarm",
        "speaker_confusion",
        "boundary_shift",
        "rule",
    ];
    let mut s = head.join(&sep.to_string());
    s.push('\n');
    let opt = |x: Option<f64>| x.map_or_else(String::new, |v| v.to_string());
    let mut row = |id: &str, c: &ClassScore| {
        let mut cells = vec![
            id.to_owned(),
            c.class.map_or("ALL", |c| c.name()).to_owned(),
            c.reference.to_string(),
            c.hypothesis.to_string(),
            c.tp.to_string(),
            c.fp.to_string(),
            c.fn_.to_string(),
            opt(c.precision),
            opt(c.recall),
            opt(c.f1),
            opt(c.error_rate),
            c.count_error.to_string(),
            opt(c.relative_count_error),
            opt(c.mean_offset),
        ];
        cells.extend(Cause::ALL.iter().map(|&k| c.blame.get(k).to_string()));
        s.push_str(&cells.join(&sep.to_string()));
        s.push('\n');
    };
    for f in &r.recordings {
        for c in &f.classes {
            row(&f.id, c);
        }
    }
    for c in &r.classes {
        row("ALL", c);
    }
    row("ALL", &r.total);
    s
}

/// Markdown: the class table, the distortion and the blame table.
pub fn to_markdown(r: &EventReport) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Event scoring\n\nOnset tolerance {} ms; DER collar {} s per side; {} recording(s); DER {} %.\n",
        r.options.tolerance,
        r.collar,
        r.recordings.len(),
        pct(r.der)
    );
    let md = |s: &mut String, head: &[&str], rows: &[Vec<String>]| {
        let _ = writeln!(s, "| {} |", head.join(" | "));
        let _ = writeln!(s, "|{}", " --- |".repeat(head.len()));
        for r in rows {
            let _ = writeln!(s, "| {} |", r.join(" | "));
        }
        s.push('\n');
    };
    let mut rows: Vec<Vec<String>> = r.classes.iter().map(class_cells).collect();
    rows.push(class_cells(&r.total));
    md(&mut s, &CLASS_HEAD, &rows);
    let d = &r.distortion;
    s.push_str("## Distortion of the aggregates\n\n");
    let rows: Vec<Vec<String>> =
        distortion_rows(d, Rows::Markdown).into_iter().map(|(l, v)| vec![l, v]).collect();
    md(&mut s, &["figure", "value [interval]"], &rows);
    let blame = blame_rows(&r.classes);
    if !blame.is_empty() {
        s.push_str("## Unmatched events by cause\n\n");
        md(&mut s, &BLAME_HEAD, &blame);
    }
    s
}
