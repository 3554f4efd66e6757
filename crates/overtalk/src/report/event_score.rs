//! The HTML page of an event score (`overtalk score --events --format html`): the class table,
//! the distortion of the aggregates with their intervals, and per recording the blame table and
//! a drawing of both sides on one time axis.
//!
//! The drawing is static SVG, written here, so it reads without a script and in print. Every
//! horizontal position is a percentage of the recording's span, so widening the SVG (the zoom
//! of the small script `assets/events.js`) spreads the drawing without redrawing it, and the
//! scroll box around it pans:
//!
//! ```text
//! ref A      ████████████      █████           speech of reference speaker A
//!            ▏         ▍                        events on their class rows:
//! hyp A      ██████████████    ████               ▏ matched (black)
//!            ▏            ▍                       ▍ unmatched, coloured by its cause
//! ref B              ███████████████
//! hyp B (y)             ████████████
//! errors             ▒▒▒                       miss / false alarm / confusion pieces
//!            0:00      0:05       0:10
//! ```
//!
//! Each lane is one speaker of one side: a reference speaker, then the hypothesis speaker the
//! DER mapping gives it (named as the events name it), then the next reference speaker;
//! unmapped hypothesis speakers last; the error timeline the blame reads at the bottom. In a
//! lane, the speech bar sits on top and below it one row per class family (onsets,
//! interruptions, backchannels, transfers, turns, monologues). Every mark is a
//! `<line class="ev m|u …">` with its class, side, time and cause in data attributes and a
//! `<title>`, so the counts on the page can be checked against the JSON output.

use std::fmt::Write as _;

use super::encode::escape;
use super::html::{page_with, ReportOptions};
use crate::error::Result;
use crate::events::{
    Aggregate, Cause, ClassScore, EventClass, EventReport, Lane, RecordingEvents, TotalDistortion,
};
use crate::score::{ErrorType, Side};

const STYLE: &str = include_str!("assets/report.css");
const EVENT_STYLE: &str = include_str!("assets/events.css");
const SCRIPT: &str = include_str!("assets/events.js");

/// Height of one lane (px): the speech bar and the six class rows.
const LANE_H: usize = 50;
/// Top of the speech bar in a lane, and its height.
const BAR_Y: usize = 3;
const BAR_H: usize = 8;
/// Top of the first class row, and the height of a row.
const ROW_Y: usize = 13;
const ROW_H: usize = 6;
/// Height of the error lane and of the time axis.
const ERR_H: usize = 16;
const AXIS_H: usize = 22;

/// The row of a class in a lane (0: onsets … 5: monologues).
fn row_of(class: EventClass) -> usize {
    match class {
        EventClass::Onset(_) => 0,
        EventClass::Interruption(_) => 1,
        EventClass::Backchannel => 2,
        EventClass::Transfer => 3,
        EventClass::Turn => 4,
        EventClass::Monologue => 5,
    }
}

const ROW_NAMES: [&str; 6] =
    ["onsets", "interruptions", "backchannels", "transfers", "turns", "monologues"];

/// The words of a cause on the page.
fn cause_words(c: Cause) -> &'static str {
    match c {
        Cause::MissedSpeech => "missed speech",
        Cause::FalseAlarm => "false alarm",
        Cause::SpeakerConfusion => "speaker confusion",
        Cause::BoundaryShift => "boundary shift",
        Cause::Rule => "rule",
    }
}

fn pct(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_owned(), |v| crate::output::number::percent(v, 1))
}

fn signed_pct(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_owned(), |v| crate::output::number::signed_percent(v, 1))
}

fn num(x: Option<f64>, digits: usize) -> String {
    x.map_or_else(|| "n/a".to_owned(), |v| format!("{v:.digits$}"))
}

/// The JSON text of a value, as `data-v` carries it (the number of the JSON output).
fn jv<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "null".to_owned())
}

/// Seconds with three decimals, for titles.
fn secs(ms: i64) -> String {
    format!("{:.3} s", ms as f64 / 1000.0)
}

/// Milliseconds as `m:ss` (or `h:mm:ss`), for the axis.
fn clock(ms: i64) -> String {
    let s = ms.max(0) / 1000;
    let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

fn class_name(c: &ClassScore) -> &'static str {
    c.class.map_or("ALL", |c| c.name())
}

/// One row of the class table.
fn class_row(b: &mut String, c: &ClassScore, total: bool) {
    let cell = |field: &str, text: String, v: String| {
        format!("<td data-field=\"{field}\" data-v=\"{}\">{text}</td>", escape(&v))
    };
    let _ = write!(
        b,
        "<tr{} data-class=\"{name}\"><th scope=\"row\">{name}</th>{}{}{}{}{}{}{}{}{}{}{}</tr>",
        if total { " class=\"total\"" } else { "" },
        cell("reference", c.reference.to_string(), jv(&c.reference)),
        cell("hypothesis", c.hypothesis.to_string(), jv(&c.hypothesis)),
        cell("tp", c.tp.to_string(), jv(&c.tp)),
        cell("fp", c.fp.to_string(), jv(&c.fp)),
        cell("fn", c.fn_.to_string(), jv(&c.fn_)),
        cell("precision", pct(c.precision), jv(&c.precision)),
        cell("recall", pct(c.recall), jv(&c.recall)),
        cell("f1", pct(c.f1), jv(&c.f1)),
        cell("error_rate", pct(c.error_rate), jv(&c.error_rate)),
        cell("count_error", format!("{:+}", c.count_error), jv(&c.count_error)),
        cell(
            "relative_count_error",
            signed_pct(c.relative_count_error),
            jv(&c.relative_count_error)
        ),
        name = escape(class_name(c)),
    );
}

fn class_table(b: &mut String, classes: &[ClassScore], total: &ClassScore) {
    b.push_str("<table class=\"score events\"><thead><tr><th scope=\"col\">class</th><th scope=\"col\">ref</th><th scope=\"col\">hyp</th><th scope=\"col\">TP</th><th scope=\"col\">FP</th><th scope=\"col\">FN</th><th scope=\"col\">P %</th><th scope=\"col\">R %</th><th scope=\"col\">F1 %</th><th scope=\"col\">error rate %</th><th scope=\"col\">count error</th><th scope=\"col\">count error %</th></tr></thead><tbody>");
    for c in classes {
        class_row(b, c, false);
    }
    class_row(b, total, true);
    b.push_str("</tbody></table>");
}

/// The blame table of `classes` (classes without unmatched events left out); `false` (and
/// nothing written) when no event is unmatched.
fn blame_table(b: &mut String, classes: &[ClassScore]) -> bool {
    let rows: Vec<&ClassScore> = classes.iter().filter(|c| c.blame.total() > 0).collect();
    if rows.is_empty() {
        return false;
    }
    b.push_str("<table class=\"score blame\"><thead><tr><th scope=\"col\">class</th>");
    for c in Cause::ALL {
        let _ = write!(
            b,
            "<th scope=\"col\"><span class=\"k cause {}\"></span>{}</th>",
            c.name(),
            cause_words(c)
        );
    }
    b.push_str("<th scope=\"col\">all</th></tr></thead><tbody>");
    for c in rows {
        let _ = write!(b, "<tr data-class=\"{0}\"><th scope=\"row\">{0}</th>", class_name(c));
        for k in Cause::ALL {
            let n = c.blame.get(k);
            let _ = write!(b, "<td data-field=\"{}\" data-v=\"{n}\">{n}</td>", k.name());
        }
        let _ = write!(b, "<td data-field=\"all\">{}</td></tr>", c.blame.total());
    }
    b.push_str("</tbody></table>");
    true
}

/// One distortion row: label, value, interval.
fn distortion_row(
    b: &mut String,
    field: &str,
    label: &str,
    a: &Aggregate,
    f: &dyn Fn(Option<f64>) -> String,
) {
    let interval = match (a.low, a.high) {
        (Some(l), Some(h)) => format!("[{}, {}]", f(Some(l)), f(Some(h))),
        _ => "not measurable".to_owned(),
    };
    let _ = write!(
        b,
        "<tr data-field=\"{}\"><th scope=\"row\">{}</th><td data-v=\"{}\">{}</td><td class=\"ci\" data-low=\"{}\" data-high=\"{}\">{interval}</td></tr>",
        escape(field),
        escape(label),
        jv(&a.value),
        f(a.value),
        jv(&a.low),
        jv(&a.high),
    );
}

fn distortion_table(b: &mut String, d: &TotalDistortion, r: &EventReport) {
    let why = if d.recordings >= 2 && r.options.bootstrap > 0 {
        format!(
            "{:.0} % percentile bootstrap interval over the {} recordings ({} resamples, seed {}).",
            r.options.confidence * 100.0,
            d.recordings,
            r.options.bootstrap,
            r.options.seed
        )
    } else {
        "An interval over recordings needs at least two recordings (and bootstrap resamples): it is not measurable here.".to_owned()
    };
    let _ = write!(
        b,
        "<h2>Distortion of the aggregates</h2><p class=\"note\">Over the corpus: count errors are Σ(hyp − ref) / Σ ref; the share errors are the largest over speakers; the FTO distance is Wasserstein-1 between the floor-transfer-offset distributions. {why}</p>"
    );
    b.push_str("<table class=\"score distortion\"><thead><tr><th scope=\"col\">figure</th><th scope=\"col\">value</th><th scope=\"col\">interval</th></tr></thead><tbody>");
    for (class, a) in &d.relative_count_error {
        distortion_row(
            b,
            &format!("relative_count_error.{}", class.name()),
            &format!("count error {} (%)", class.name()),
            a,
            &signed_pct,
        );
    }
    distortion_row(
        b,
        "interruption_count_error",
        "count error, all interruption attempts (%)",
        &d.interruption_count_error,
        &signed_pct,
    );
    distortion_row(
        b,
        "interruption_matrix_relative",
        "who-interrupts-whom L1 / reference attempts (%)",
        &d.interruption_matrix_relative,
        &pct,
    );
    distortion_row(
        b,
        "talk_share_pp",
        "talk-share error, largest over speakers (pp)",
        &d.talk_share_pp,
        &|x| num(x, 2),
    );
    distortion_row(
        b,
        "floor_share_pp",
        "floor-share error, largest over speakers (pp)",
        &d.floor_share_pp,
        &|x| num(x, 2),
    );
    distortion_row(b, "fto_w1_ms", "FTO Wasserstein-1 (ms)", &d.fto_w1_ms, &|x| num(x, 1));
    b.push_str("</tbody></table>");
}

/// One lane of the drawing.
struct DrawLane<'a> {
    side: Side,
    /// The name the events use (`None`: a reference speaker nobody maps to).
    speaker: Option<&'a str>,
    label: String,
    segments: &'a [(i64, i64)],
}

/// The lanes in drawing order: each reference speaker, then its mapped hypothesis speaker;
/// unmapped hypothesis speakers last.
fn draw_lanes(r: &RecordingEvents) -> Vec<DrawLane<'_>> {
    let l = &r.lanes;
    let mut out = Vec::new();
    let hyp_of = |name: &str| l.hypothesis.iter().find(|h| h.speaker == name);
    for lane in &l.reference {
        out.push(DrawLane {
            side: Side::Reference,
            speaker: Some(&lane.speaker),
            label: format!("ref {}", lane.label),
            segments: &lane.segments,
        });
        match hyp_of(&lane.speaker) {
            Some(h) => out.push(hyp_lane(h)),
            None => out.push(DrawLane {
                side: Side::Hypothesis,
                speaker: None,
                label: "hyp – (none mapped)".to_owned(),
                segments: &[],
            }),
        }
    }
    for h in &l.hypothesis {
        if !l.reference.iter().any(|r| r.speaker == h.speaker) {
            out.push(hyp_lane(h));
        }
    }
    out
}

fn hyp_lane(h: &Lane) -> DrawLane<'_> {
    let label = if h.label == h.speaker {
        format!("hyp {}", h.label)
    } else {
        format!("hyp {} → {}", h.label, h.speaker)
    };
    DrawLane { side: Side::Hypothesis, speaker: Some(&h.speaker), label, segments: &h.segments }
}

/// A position on the axis as a percentage of the span (5 decimals: 36 ms on a 2-hour span at
/// the narrowest).
struct Axis {
    t0: i64,
    span: i64,
}

impl Axis {
    fn x(&self, t: i64) -> String {
        format!("{:.5}%", (t - self.t0) as f64 * 100.0 / self.span as f64)
    }

    fn w(&self, a: i64, b: i64) -> String {
        format!("{:.5}%", (b - a).max(0) as f64 * 100.0 / self.span as f64)
    }
}

/// The drawing of one recording.
fn drawing(b: &mut String, k: usize, r: &RecordingEvents) {
    let lanes = draw_lanes(r);
    // The span: every segment, error and event.
    let mut lo = i64::MAX;
    let mut hi = i64::MIN;
    let mut see = |a: i64, z: i64| {
        lo = lo.min(a);
        hi = hi.max(z);
    };
    for l in &lanes {
        for &(a, z) in l.segments {
            see(a, z);
        }
    }
    for &(a, z, _) in &r.lanes.errors {
        see(a, z);
    }
    for m in &r.matched {
        see(m.reference.min(m.hypothesis), m.reference.max(m.hypothesis));
    }
    for u in &r.unmatched {
        see(u.event.time, u.event.time);
    }
    if lo > hi {
        let _ = write!(b, "<p class=\"note\">Nothing to draw: neither side has speech.</p>");
        return;
    }
    // From 0 (or the first thing drawn, if earlier) to the last, with 1 % to spare on each
    // side so a mark at either end is not cut in half.
    let first = lo.min(0);
    let pad = ((hi - first).max(1000) + 99) / 100;
    let t0 = first - pad;
    let axis = Axis { t0, span: hi + pad - t0 };
    let lane_index = |side: Side, speaker: &str| {
        lanes.iter().position(|l| l.side == side && l.speaker == Some(speaker))
    };
    let height = lanes.len() * LANE_H + ERR_H + AXIS_H;
    // Labels.
    let _ = write!(b, "<div class=\"ev-draw\" id=\"draw-{k}\" data-index=\"{k}\"><div class=\"toolbar\" role=\"toolbar\" aria-label=\"Drawing controls\"><button type=\"button\" data-zoom=\"in\" aria-label=\"Zoom in (+)\" title=\"Zoom in (+)\">+</button><button type=\"button\" data-zoom=\"out\" aria-label=\"Zoom out (−)\" title=\"Zoom out (−)\">−</button><button type=\"button\" data-zoom=\"reset\" aria-label=\"Show everything (0)\" title=\"Show everything (0)\">⟲</button><label>class <select class=\"ev-filter\"><option value=\"\">all</option>");
    for c in EventClass::ALL {
        let _ = write!(b, "<option value=\"{0}\">{0}</option>", c.name());
    }
    let _ = write!(b, "</select></label><label><input type=\"checkbox\" class=\"ev-unmatched\"> unmatched only</label><span class=\"range\"></span></div><div class=\"tl-wrap\"><div class=\"tl-labels ev-labels\">");
    for l in &lanes {
        let cls = if l.side == Side::Reference { "ref" } else { "hyp" };
        let _ = write!(
            b,
            "<div class=\"tl-label ev-lane {cls}\" title=\"{0}\">{0}</div>",
            escape(&l.label)
        );
    }
    b.push_str("<div class=\"tl-label ev-lane err\">errors</div></div>");
    let _ = write!(
        b,
        "<div class=\"ev-scroll\" tabindex=\"0\" role=\"region\" aria-label=\"Events of {} on one time axis. + and − zoom, 0 resets, the arrow keys scroll.\"><svg class=\"ev-svg\" width=\"100%\" height=\"{height}\" data-t0=\"{t0}\" data-span=\"{}\" role=\"img\" aria-label=\"Reference and hypothesis lanes of {}\">",
        escape(&r.id),
        axis.span,
        escape(&r.id)
    );
    // Lane backgrounds and speech.
    for (i, l) in lanes.iter().enumerate() {
        let y = i * LANE_H;
        let cls = if l.side == Side::Reference { "ref" } else { "hyp" };
        let _ = write!(
            b,
            "<rect class=\"lane {cls}{}\" x=\"0\" y=\"{y}\" width=\"100%\" height=\"{LANE_H}\"/>",
            if i % 4 < 2 { "" } else { " alt" }
        );
        for &(a, z) in l.segments {
            let _ = write!(
                b,
                "<rect class=\"sp {cls}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{BAR_H}\"/>",
                axis.x(a),
                y + BAR_Y,
                axis.w(a, z)
            );
        }
    }
    // Errors.
    let ey = lanes.len() * LANE_H;
    let _ = write!(
        b,
        "<rect class=\"lane err\" x=\"0\" y=\"{ey}\" width=\"100%\" height=\"{ERR_H}\"/>"
    );
    for &(a, z, kind) in &r.lanes.errors {
        let (cls, words) = match kind {
            ErrorType::Miss => ("miss", "miss"),
            ErrorType::FalseAlarm => ("fa", "false alarm"),
            ErrorType::Confusion => ("conf", "confusion"),
            ErrorType::Correct => continue,
        };
        let _ = write!(
            b,
            "<rect class=\"er {cls}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{words} {} – {}</title></rect>",
            axis.x(a),
            ey + 3,
            axis.w(a, z),
            ERR_H - 6,
            secs(a),
            secs(z)
        );
    }
    // Axis: a tick step giving about ten ticks; the minor ticks show when zoomed in.
    let ay = ey + ERR_H;
    let steps = [
        1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 900_000,
        1_800_000, 3_600_000,
    ];
    let step = steps.iter().copied().find(|&s| axis.span / s <= 10).unwrap_or(3_600_000);
    let minor = steps.iter().rev().copied().find(|&s| s * 5 <= step).unwrap_or(step);
    let _ = write!(b, "<g class=\"axis\"><line x1=\"0\" y1=\"{ay}\" x2=\"100%\" y2=\"{ay}\"/>");
    let mut t = (first + minor - 1).div_euclid(minor) * minor;
    while t <= t0 + axis.span {
        let x = axis.x(t);
        if t % step == 0 {
            let _ = write!(
                b,
                "<line x1=\"{x}\" y1=\"{ay}\" x2=\"{x}\" y2=\"{}\"/><text x=\"{x}\" y=\"{}\">{}</text>",
                ay + 6,
                ay + 17,
                clock(t)
            );
        } else {
            let _ = write!(
                b,
                "<g class=\"minor\"><line x1=\"{x}\" y1=\"{ay}\" x2=\"{x}\" y2=\"{}\"/><text x=\"{x}\" y=\"{}\">{}</text></g>",
                ay + 4,
                ay + 17,
                clock(t)
            );
        }
        t += minor;
    }
    b.push_str("</g>");
    // Events: matched pairs first (both sides), then the unmatched, each on its lane and row.
    let mark = |b: &mut String,
                lane: usize,
                class: EventClass,
                time: i64,
                cls: &str,
                data: &str,
                title: &str| {
        let y = lane * LANE_H + ROW_Y + row_of(class) * ROW_H;
        let x = axis.x(time);
        let _ = write!(
            b,
            "<line class=\"ev {cls}\" x1=\"{x}\" y1=\"{y}\" x2=\"{x}\" y2=\"{}\" data-class=\"{}\" data-t=\"{time}\"{data}><title>{}</title></line>",
            y + ROW_H - 1,
            class.name(),
            escape(title)
        );
    };
    let who = |speaker: &str, other: Option<&str>| match other {
        Some(o) => format!("{speaker} on {o}"),
        None => speaker.to_owned(),
    };
    let mut unplaced = 0usize;
    for (i, m) in r.matched.iter().enumerate() {
        let w = who(&m.speaker, m.other.as_deref());
        let d = m.hypothesis - m.reference;
        for (side, time, words) in [
            (Side::Reference, m.reference, "reference"),
            (Side::Hypothesis, m.hypothesis, "hypothesis"),
        ] {
            let Some(lane) = lane_index(side, &m.speaker) else {
                unplaced += 1;
                continue;
            };
            let title = format!(
                "{} by {w} at {} ({words}): matched, hypothesis {:+} ms from the reference",
                m.class.name(),
                secs(time),
                d
            );
            let data = format!(" data-side=\"{}\" data-pair=\"p{i}\"", words);
            mark(b, lane, m.class, time, "m", &data, &title);
        }
    }
    for u in &r.unmatched {
        let e = &u.event;
        let Some(lane) = lane_index(u.side, &e.speaker) else {
            unplaced += 1;
            continue;
        };
        let (side, what) = match u.side {
            Side::Reference => ("reference", "missed by the hypothesis"),
            Side::Hypothesis => ("hypothesis", "not in the reference"),
        };
        let title = format!(
            "{} by {} at {} ({side}): {what}; cause: {}",
            e.class.name(),
            who(&e.speaker, e.other.as_deref()),
            secs(e.time),
            cause_words(u.cause)
        );
        let data = format!(" data-side=\"{side}\" data-cause=\"{}\"", u.cause.name());
        mark(b, lane, e.class, e.time, &format!("u {}", u.cause.name()), &data, &title);
    }
    b.push_str("</svg></div></div>");
    if unplaced > 0 {
        // Cannot happen for a report of score_events (every event's speaker has speech); said
        // rather than dropped silently.
        let _ = write!(
            b,
            "<p class=\"note warn\">{unplaced} event(s) have a speaker with no lane and are not drawn.</p>"
        );
    }
    b.push_str(
        "<ul class=\"legend\" aria-label=\"Legend\"><li><span class=\"k ev-m\"></span>matched</li>",
    );
    for c in Cause::ALL {
        let _ = write!(
            b,
            "<li><span class=\"k cause {}\"></span>unmatched: {}</li>",
            c.name(),
            cause_words(c)
        );
    }
    let _ = write!(
        b,
        "<li>rows in a lane, top to bottom: speech, {}</li><li><span class=\"k miss\"></span>miss <span class=\"k fa\"></span>false alarm <span class=\"k conf\"></span>confusion (error lane)</li></ul>",
        ROW_NAMES.join(", ")
    );
    b.push_str("<div class=\"details\" role=\"status\" aria-live=\"polite\"><p class=\"note\">Point at or focus a mark for its class, speakers, time and cause; a matched mark lights its partner. Ctrl + wheel or + and − zoom; the scroll bar pans.</p></div></div>");
}

/// The self-contained HTML page of an event score: the per-class table (P/R/F1, error rate,
/// count error), the distortion of the aggregates with their intervals, a table per recording,
/// and per recording the blame table and the drawing of both sides (see the module docs).
/// Nothing on the page comes from the network; every name from the input is escaped.
pub fn event_score_report(report: &EventReport, opts: &ReportOptions) -> Result<String> {
    let title = opts.title.clone().unwrap_or_else(|| "overtalk event score".to_owned());
    let mut b = String::new();
    let _ = write!(b, "<header class=\"top\"><h1>{}</h1>", escape(&title));
    if !opts.sources.is_empty() {
        let _ = write!(b, "<p>Input: {}</p>", escape(&opts.sources.join(", ")));
    }
    for line in &opts.detection {
        let _ = write!(b, "<p>Detected: {}</p>", escape(line));
    }
    let _ = write!(
        b,
        "<p>Computed by <code>overtalk score --events</code> (docs/events.md): both sides analysed with the same parameters ({}classifier {}; the JSON output holds every parameter under <code>params</code>), hypothesis speakers mapped with the DER mapping, events matched one to one per class and speakers with an onset tolerance of {} ms. DER collar {} s per side; {} recording(s); DER {} %.</p>",
        opts.preset.as_deref().map(|p| format!("preset {}, ", escape(p))).unwrap_or_default(),
        report.params.classifier.name(),
        report.options.tolerance,
        report.collar,
        report.recordings.len(),
        pct(report.der)
    );
    if report.recordings.len() > 1 {
        b.push_str("<nav class=\"toc\" aria-label=\"Recordings\"><ul>");
        for (k, r) in report.recordings.iter().enumerate() {
            let _ = write!(b, "<li><a href=\"#rec-{k}\">{}</a></li>", escape(&r.id));
        }
        b.push_str("</ul></nav>");
    }
    b.push_str("</header>\n<main id=\"main\"><h2>Events per class</h2><p class=\"note\">Over all recordings: sums of the counts, rates from the sums. The total adds classes that overlap (an interruption attempt is in its onset class and in its outcome class). Error rate is sed_eval's (FN + FP) / reference.</p>");
    class_table(&mut b, &report.classes, &report.total);
    distortion_table(&mut b, &report.distortion, report);
    b.push_str("<h2>Unmatched events by cause</h2>");
    if !blame_table(&mut b, &report.classes) {
        b.push_str("<p>Every event is matched.</p>");
    }
    b.push_str("<h2>Per recording</h2><table class=\"score recordings\"><thead><tr><th scope=\"col\">recording</th><th scope=\"col\">DER %</th><th scope=\"col\">F1 %</th><th scope=\"col\">ref attempts</th><th scope=\"col\">hyp attempts</th><th scope=\"col\">matrix L1 %</th><th scope=\"col\">talk pp</th><th scope=\"col\">floor pp</th><th scope=\"col\">FTO W1 ms</th><th scope=\"col\">matched</th><th scope=\"col\">unmatched</th></tr></thead><tbody>");
    for (k, r) in report.recordings.iter().enumerate() {
        let (tp, nr, nh) = r
            .classes
            .iter()
            .fold((0, 0, 0), |a, c| (a.0 + c.tp, a.1 + c.reference, a.2 + c.hypothesis));
        let f1 = (nr + nh > 0).then(|| 2.0 * tp as f64 / (nr + nh) as f64);
        let d = &r.distortion;
        let _ = write!(
            b,
            "<tr data-recording=\"{id}\"><th scope=\"row\"><a href=\"#rec-{k}\">{id}</a></th><td data-field=\"der\" data-v=\"{}\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td data-field=\"matched\">{}</td><td data-field=\"unmatched\">{}</td></tr>",
            jv(&r.der),
            pct(r.der),
            pct(f1),
            d.reference_attempts,
            d.hypothesis_attempts,
            pct(d.interruption_matrix_relative),
            num(d.talk_share_pp, 2),
            num(d.floor_share_pp, 2),
            num(d.fto_w1_ms, 1),
            r.matched.len(),
            r.unmatched.len(),
            id = escape(&r.id),
        );
    }
    b.push_str("</tbody></table>");
    if report.recordings.is_empty() {
        b.push_str("<p>No recording was scored.</p>");
    }
    for (k, r) in report.recordings.iter().enumerate() {
        let mapping: Vec<String> = r
            .mapping
            .iter()
            .map(|(re, h)| format!("{re} = {h}"))
            .chain(r.unmapped.iter().map(|(n, h)| format!("{n} = {h}")))
            .collect();
        let _ = write!(
            b,
            "<section class=\"file ev-rec\" id=\"rec-{k}\" data-recording=\"{}\"><h2>{}</h2><p class=\"note\">DER {} %; mapping (reference = hypothesis): {}; {} matched pair(s), {} unmatched event(s).</p>",
            escape(&r.id),
            escape(&r.id),
            pct(r.der),
            escape(&if mapping.is_empty() { "none".to_owned() } else { mapping.join(", ") }),
            r.matched.len(),
            r.unmatched.len()
        );
        b.push_str("<h3>Unmatched events by cause</h3>");
        if !blame_table(&mut b, &r.classes) {
            b.push_str("<p>Every event is matched.</p>");
        }
        b.push_str("<h3>Both sides on one time axis</h3>");
        drawing(&mut b, k, r);
        b.push_str("</section>\n");
    }
    b.push_str("</main>");
    Ok(page_with(&title, None, &b, None, &[STYLE, EVENT_STYLE], SCRIPT))
}
