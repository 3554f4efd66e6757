//! The conversation as a picture: an SVG file written directly from the [`Analysis`], for
//! articles and posts (and, through [`super::png`], a PNG). It draws what the HTML report's
//! timeline draws, with the report's colour-blind-safe palette (Okabe–Ito):
//!
//! ```text
//!  Title
//!  ■ speech  ▒ overlap  | backchannel  ─► successful  ╌► unsuccessful  ▬ floor  ◆ claim
//!             0:00        0:10        0:20        0:30
//!  Husband    ▓▓▓          ▓▓▓▓   ▓▓▓                      one lane per speaker
//!  Wife          ▓▓▓▓▓▓▓▓▓▒▒▓▓▓▓▓▓▓▓  ▓▓▓▓▓▓▓▓              overlaps darker
//!  Interviewer                                ▓▓▓▓▓
//!  floor      ────────────────────────────────────        the holder's colour
//! ```
//!
//! Interruption attempts are arrows from the interrupter's lane to the floor holder's, solid
//! when the floor changed hands and dashed when it did not, as in the HTML report. The
//! `card` layout puts the summary sentences ([`crate::summary`]) above the timeline, sized for
//! social posts (1200 × 675 px unless the text needs more). Every element carries a class
//! (`lane`, `arrow successful`, `bc`, `claim`, `floor`), so a test can count what is drawn.
//!
//! Text is set in DejaVu Sans (bundled, see [`super::png`]); line breaks of the summary are
//! computed from an average glyph width of that font, which errs on the wide side.

use crate::analysis::Millis;
use std::fmt::Write as _;

use super::encode::escape;
use crate::analysis::onsets::{OnsetClass, Outcome};
use crate::analysis::Analysis;
use crate::error::{Error, Result};
use crate::summary;

/// Okabe–Ito, in the order of the HTML report's lanes.
const PALETTE: [&str; 8] =
    ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"];

/// The font family of every text.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// Light or dark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Theme {
    /// Dark ink on white.
    #[default]
    Light,
    /// Light ink on near-black.
    Dark,
}

impl Theme {
    /// Every value, in documentation order.
    pub const ALL: [Theme; 2] = [Theme::Light, Theme::Dark];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

crate::named::named_enum!(Theme, "theme");

/// What the picture holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Layout {
    /// Title, legend and timeline.
    #[default]
    Timeline,
    /// Title, the summary sentences and the timeline, for social posts.
    Card,
}

impl Layout {
    /// Every value, in documentation order.
    pub const ALL: [Layout; 2] = [Layout::Timeline, Layout::Card];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Layout::Timeline => "timeline",
            Layout::Card => "card",
        }
    }
}

crate::named::named_enum!(Layout, "layout");

/// Settings of a picture.
#[derive(Clone, Debug)]
pub struct ImageOptions {
    /// The title (default: the recording id).
    pub title: Option<String>,
    /// A line under the title (the provenance of the data, say).
    pub subtitle: Option<String>,
    /// Start of the window shown (ms; default: the start of the conversation).
    pub from: Option<i64>,
    /// End of the window shown (ms; default: its end).
    pub to: Option<i64>,
    /// Width in pixels (default 1200).
    pub width: u32,
    /// Light or dark.
    pub theme: Theme,
    /// Timeline or card.
    pub layout: Layout,
}

impl Default for ImageOptions {
    fn default() -> Self {
        ImageOptions {
            title: None,
            subtitle: None,
            from: None,
            to: None,
            width: 1200,
            theme: Theme::Light,
            layout: Layout::Timeline,
        }
    }
}

/// The colours of a theme.
struct Ink {
    background: &'static str,
    text: &'static str,
    muted: &'static str,
    stripe: [&'static str; 2],
    /// Overlap: the column across the lanes, then the overlapping lanes themselves.
    shade: &'static str,
    shade_lane: &'static str,
    axis: &'static str,
    /// Okabe–Ito black is invisible on a dark page: it becomes light grey there.
    black: &'static str,
}

const LIGHT: Ink = Ink {
    background: "#ffffff",
    text: "#1a1a1a",
    muted: "#555555",
    stripe: ["#fafafa", "#f2f2f2"],
    shade: "rgba(0,0,0,0.07)",
    shade_lane: "rgba(0,0,0,0.25)",
    axis: "#888888",
    black: "#000000",
};

const DARK: Ink = Ink {
    background: "#14171b",
    text: "#ececec",
    muted: "#b0b0b0",
    stripe: ["#1b1f24", "#20252b"],
    shade: "rgba(255,255,255,0.08)",
    shade_lane: "rgba(255,255,255,0.35)",
    axis: "#9a9a9a",
    black: "#dddddd",
};

/// Text safe for XML: escaped, control characters (which XML 1.0 forbids) dropped.
fn xml(s: &str) -> String {
    let clean: String =
        s.chars().filter(|c| !c.is_control() || matches!(c, '\t' | '\n' | '\r')).collect();
    escape(&clean)
}

/// Milliseconds as `m:ss` (or `h:mm:ss`), with tenths when the step needs them.
fn clock(ms: i64, tenths: bool) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let ds = (ms.unsigned_abs() + if tenths { 50 } else { 0 }) / 100;
    let (h, m, s, d) = (ds / 36_000, ds / 600 % 60, ds / 10 % 60, ds % 10);
    let base = if h > 0 { format!("{sign}{h}:{m:02}:{s:02}") } else { format!("{sign}{m}:{s:02}") };
    if tenths {
        format!("{base}.{d}")
    } else {
        base
    }
}

/// Breaks `text` into lines of at most `max` pixels at `size` px, by DejaVu Sans's average
/// advance (about 0.6 em, rounded up).
fn wrap(text: &str, size: f64, max: f64) -> Vec<String> {
    let per_line = ((max / (size * 0.6)).floor() as usize).max(8);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let len = line.chars().count() + 1 + word.chars().count();
        if !line.is_empty() && len > per_line {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// Horizontal scale: time (ms) to x (px).
struct Scale {
    from: i64,
    to: i64,
    left: f64,
    width: f64,
}

impl Scale {
    fn x(&self, t: i64) -> f64 {
        let t = t.clamp(self.from, self.to);
        self.left + (t - self.from) as f64 / (self.to - self.from) as f64 * self.width
    }

    fn contains(&self, t: i64) -> bool {
        (self.from..=self.to).contains(&t)
    }
}

/// Spans `[a, b)` (ms) cut to the window, as x ranges, with neighbours closer than half a
/// pixel merged so a long meeting draws a few thousand rectangles, not a hundred thousand.
fn runs(spans: impl Iterator<Item = (i64, i64)>, s: &Scale) -> Vec<(f64, f64)> {
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (a, b) in spans {
        if b <= s.from || a >= s.to {
            continue;
        }
        let (x0, x1) = (s.x(a), s.x(b));
        match out.last_mut() {
            Some(last) if x0 - last.1 < 0.5 => last.1 = last.1.max(x1),
            _ => out.push((x0, x1)),
        }
    }
    out
}

fn rect(b: &mut String, class: &str, x0: f64, y: f64, x1: f64, h: f64, fill: &str) {
    let w = (x1 - x0).max(0.6);
    let _ = write!(
        b,
        "<rect class=\"{class}\" x=\"{x0:.1}\" y=\"{y:.1}\" width=\"{w:.1}\" height=\"{h:.1}\" fill=\"{fill}\"/>"
    );
}

/// The SVG picture of one analysed conversation.
pub fn conversation_svg(recording: &str, a: &Analysis, opts: &ImageOptions) -> Result<String> {
    let ink = match opts.theme {
        Theme::Light => &LIGHT,
        Theme::Dark => &DARK,
    };
    if !(320..=10_000).contains(&opts.width) {
        return Err(Error::invalid(format!("image width {} px: give 320 to 10000", opts.width)));
    }
    let start = a.conversation.start.map_or(0, Millis::get);
    let end = start + a.conversation.span.get();
    let from = opts.from.unwrap_or(start);
    let to = opts.to.unwrap_or(end.max(from + 1000));
    if to <= from {
        return Err(Error::invalid(format!(
            "the window ends ({} ms) before it starts ({} ms)",
            to, from
        )));
    }
    let names: Vec<&String> = a.speakers.keys().collect();
    let colour = |i: usize| {
        let c = PALETTE[i % PALETTE.len()];
        if c == "#000000" {
            ink.black
        } else {
            c
        }
    };
    let lane_of = |name: &str| names.iter().position(|n| n.as_str() == name);
    let width = f64::from(opts.width);
    let margin = 24.0;
    let label_w = (width * 0.14).clamp(90.0, 170.0);
    let plot_left = margin + label_w;
    let plot_w = width - plot_left - margin;
    let scale = Scale { from, to, left: plot_left, width: plot_w };

    let mut body = String::new();
    let mut y = margin;
    // Title and subtitle.
    let title = opts.title.clone().unwrap_or_else(|| recording.to_owned());
    let title_size = if opts.layout == Layout::Card { 30.0 } else { 22.0 };
    y += title_size;
    let _ = write!(
        body,
        "<text class=\"title\" x=\"{margin}\" y=\"{y:.1}\" font-size=\"{title_size}\" font-weight=\"bold\" fill=\"{}\">{}</text>",
        ink.text,
        xml(&title)
    );
    if let Some(sub) = &opts.subtitle {
        for line in wrap(sub, 13.0, width - 2.0 * margin) {
            y += 19.0;
            let _ = write!(
                body,
                "<text class=\"subtitle\" x=\"{margin}\" y=\"{y:.1}\" font-size=\"13\" fill=\"{}\">{}</text>",
                ink.muted,
                xml(&line)
            );
        }
    }
    let window_note = format!(
        "{} – {}{}",
        clock(from, false),
        clock(to, false),
        if opts.from.is_some() || opts.to.is_some() { " (window)" } else { "" }
    );
    y += 20.0;
    let _ = write!(
        body,
        "<text class=\"window\" x=\"{margin}\" y=\"{y:.1}\" font-size=\"13\" fill=\"{}\">{} · {} speakers · {}</text>",
        ink.muted,
        xml(recording),
        names.len(),
        window_note
    );
    // The summary (card only).
    if opts.layout == Layout::Card {
        y += 14.0;
        let size = 17.0;
        let _ = write!(body, "<g class=\"summary\">");
        for sentence in summary::summarise(a) {
            for line in wrap(&sentence.text, size, width - 2.0 * margin) {
                y += size * 1.4;
                let _ = write!(
                    body,
                    "<text x=\"{margin}\" y=\"{y:.1}\" font-size=\"{size}\" fill=\"{}\">{}</text>",
                    ink.text,
                    xml(&line)
                );
            }
            y += 4.0;
        }
        body.push_str("</g>");
    }
    // Legend.
    y += 26.0;
    legend(&mut body, margin, y, ink);
    y += 22.0;

    // Lanes.
    let lane_h = if opts.layout == Layout::Card && names.len() <= 4 { 40.0 } else { 30.0 };
    let lanes_top = y;
    let lanes_h = lane_h * names.len() as f64;
    for (i, name) in names.iter().enumerate() {
        let ly = lanes_top + lane_h * i as f64;
        let _ = write!(body, "<g class=\"lane\" data-speaker=\"{}\">", xml(name));
        rect(&mut body, "stripe", plot_left, ly, plot_left + plot_w, lane_h, ink.stripe[i % 2]);
        let _ = write!(
            body,
            "<rect x=\"{margin}\" y=\"{:.1}\" width=\"10\" height=\"10\" fill=\"{}\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"14\" fill=\"{}\">{}</text>",
            ly + lane_h / 2.0 - 5.0,
            colour(i),
            margin + 16.0,
            ly + lane_h / 2.0 + 5.0,
            ink.text,
            xml(&ellipsis(name, label_w - 20.0, 14.0))
        );
        let spans = a
            .talkspurts
            .iter()
            .filter(|t| &*t.speaker == name.as_str() && !t.is_backchannel)
            .map(|t| (t.start.get(), t.end.get()));
        for (x0, x1) in runs(spans, &scale) {
            rect(&mut body, "speech", x0, ly + 7.0, x1, lane_h - 14.0, colour(i));
        }
        body.push_str("</g>");
    }
    // Overlaps: a light column across the lanes, darker on the lanes that overlap.
    let overlaps: Vec<&crate::analysis::result::JointOut> =
        a.joint.iter().filter(|j| j.active.len() >= 2).collect();
    body.push_str("<g class=\"overlaps\">");
    for (x0, x1) in runs(overlaps.iter().map(|j| (j.start.get(), j.end.get())), &scale) {
        rect(&mut body, "overlap", x0, lanes_top, x1, lanes_h, ink.shade);
    }
    for (i, name) in names.iter().enumerate() {
        let ly = lanes_top + lane_h * i as f64;
        let mine = overlaps
            .iter()
            .filter(|j| j.active.iter().any(|s| &**s == name.as_str()))
            .map(|j| (j.start.get(), j.end.get()));
        for (x0, x1) in runs(mine, &scale) {
            rect(&mut body, "overlap-lane", x0, ly + 4.0, x1, lane_h - 8.0, ink.shade_lane);
        }
    }
    body.push_str("</g>");
    // Backchannels: a tick in the speaker's colour with a cap.
    body.push_str("<g class=\"backchannels\">");
    for t in a.talkspurts.iter().filter(|t| t.is_backchannel && scale.contains(t.start.get())) {
        let Some(i) = lane_of(&t.speaker) else { continue };
        let x = scale.x(t.start.get());
        let ly = lanes_top + lane_h * i as f64;
        let _ = write!(
            body,
            "<g class=\"bc\"><line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"{}\" stroke-width=\"2\"/><line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{}\" stroke-width=\"1\"/></g>",
            ly + 4.0,
            ly + lane_h - 4.0,
            colour(i),
            x - 3.0,
            ly + 4.0,
            x + 3.0,
            ly + 4.0,
            ink.text
        );
    }
    body.push_str("</g>");
    // The floor band: the holder from each claim to the next.
    let band_y = lanes_top + lanes_h + 6.0;
    let band_h = 12.0;
    let _ = write!(
        body,
        "<g class=\"floor\"><text x=\"{margin}\" y=\"{:.1}\" font-size=\"12\" fill=\"{}\">floor</text>",
        band_y + 10.0,
        ink.muted
    );
    let mut turns: Vec<&crate::analysis::result::TurnOut> = a.turns.iter().collect();
    turns.sort_by_key(|t| t.claim);
    let span_end = a.talkspurts.iter().map(|t| t.end.get()).max().unwrap_or(end);
    for (k, t) in turns.iter().enumerate() {
        let next = turns.get(k + 1).map_or(span_end, |n| n.claim.get());
        let Some(lane) = lane_of(&t.speaker) else { continue };
        let claim = t.claim.get();
        if next <= scale.from || claim >= scale.to || next <= claim {
            continue;
        }
        rect(&mut body, "holder", scale.x(claim), band_y, scale.x(next), band_h, colour(lane));
    }
    body.push_str("</g>");
    // Interruption attempts: arrows from the interrupter's lane to the holder's.
    let _ = write!(
        body,
        "<defs><marker id=\"ah\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{}\"/></marker></defs><g class=\"arrows\">",
        ink.text
    );
    for o in &a.onsets {
        if !matches!(o.class, OnsetClass::Interruption | OnsetClass::SilentInterruption)
            || !scale.contains(o.time.get())
        {
            continue;
        }
        let (Some(from_lane), Some(to_lane)) =
            (lane_of(&o.speaker), o.holder.as_deref().and_then(lane_of))
        else {
            continue;
        };
        let solid = o.outcome == Outcome::FloorTaken;
        let x = scale.x(o.time.get());
        let y1 = lanes_top + lane_h * (from_lane as f64 + 0.5);
        let mut y2 = lanes_top + lane_h * (to_lane as f64 + 0.5);
        y2 -= if y2 > y1 { 6.0 } else { -6.0 };
        let _ = write!(
            body,
            "<g class=\"arrow {}\" data-time=\"{}\"><path d=\"M{x:.1},{y1:.1} C{:.1},{y1:.1} {:.1},{y2:.1} {x:.1},{y2:.1}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\"{} marker-end=\"url(#ah)\"/><circle cx=\"{x:.1}\" cy=\"{y1:.1}\" r=\"3\" fill=\"{}\"/></g>",
            if solid { "successful" } else { "unsuccessful" },
            o.time,
            x + 14.0,
            x + 14.0,
            ink.text,
            if solid { "2" } else { "1.6" },
            if solid { "" } else { " stroke-dasharray=\"4 3\"" },
            ink.text
        );
    }
    body.push_str("</g>");
    // Floor claims in words: a yellow diamond on the claimant's lane.
    body.push_str("<g class=\"claims\">");
    for v in a.verbal_claims.iter().filter(|v| scale.contains(v.start.get())) {
        let Some(i) = lane_of(&v.speaker) else { continue };
        let x = scale.x(v.start.get());
        let ly = lanes_top + lane_h * i as f64;
        let _ = write!(
            body,
            "<path class=\"claim\" d=\"M{x:.1},{:.1} l6,7 l-6,7 l-6,-7 z\" fill=\"#F0E442\" stroke=\"#000000\"/>",
            ly + 1.0
        );
    }
    body.push_str("</g>");
    // The time axis.
    let axis_y = band_y + band_h + 8.0;
    axis(&mut body, &scale, axis_y, ink);
    let mut height = axis_y + 22.0 + margin;
    if opts.layout == Layout::Card {
        // Sized for posts: 16:9 unless the text needs more; the credit line at the foot.
        height = (height + 6.0).max((width * 9.0 / 16.0).round());
        let _ = write!(
            body,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"12\" text-anchor=\"end\" fill=\"{}\">overtalk · every number above is a number of its JSON output</text>",
            width - margin,
            height - margin + 6.0,
            ink.muted
        );
    }
    let height = height.ceil();
    let mut svg = String::with_capacity(body.len() + 512);
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{height}\" viewBox=\"0 0 {w} {height}\" font-family=\"{FONT_FAMILY}, sans-serif\" role=\"img\" aria-label=\"{}\" data-speakers=\"{}\"><title>{}</title><rect class=\"background\" width=\"{w}\" height=\"{height}\" fill=\"{}\"/>",
        xml(&title),
        names.len(),
        xml(&title),
        ink.background,
        w = opts.width,
    );
    svg.push_str(&body);
    svg.push_str("</svg>\n");
    Ok(svg)
}

/// `name` cut with an ellipsis to fit `max` px at `size` px.
fn ellipsis(name: &str, max: f64, size: f64) -> String {
    let fits = ((max / (size * 0.6)).floor() as usize).max(3);
    if name.chars().count() <= fits {
        return name.to_owned();
    }
    let mut s: String = name.chars().take(fits - 1).collect();
    s.push('…');
    s
}

fn legend(b: &mut String, left: f64, y: f64, ink: &Ink) {
    let _ = write!(b, "<g class=\"legend\" font-size=\"12\" fill=\"{}\">", ink.muted);
    let (top, mid) = (y - 6.0, y - 1.0);
    let items: [(String, &str); 7] = [
        (format!("<rect x=\"{{x}}\" y=\"{top:.1}\" width=\"22\" height=\"10\" fill=\"#0072B2\"/>"), "speech"),
        (format!("<rect x=\"{{x}}\" y=\"{top:.1}\" width=\"22\" height=\"10\" fill=\"{}\"/>", ink.shade_lane), "overlap"),
        (format!("<rect x=\"{{x10}}\" y=\"{:.1}\" width=\"2\" height=\"12\" fill=\"{}\"/>", y - 7.0, ink.text), "backchannel"),
        (format!("<path d=\"M{{x}},{mid:.1} h20\" stroke=\"{}\" stroke-width=\"2\" marker-end=\"url(#ah)\"/>", ink.text), "interruption, floor taken"),
        (format!("<path d=\"M{{x}},{mid:.1} h20\" stroke=\"{}\" stroke-width=\"1.6\" stroke-dasharray=\"4 3\" marker-end=\"url(#ah)\"/>", ink.text), "interruption, floor kept"),
        (format!("<rect x=\"{{x}}\" y=\"{:.1}\" width=\"22\" height=\"5\" fill=\"#0072B2\"/>", y - 3.0), "floor holder"),
        (format!("<path d=\"M{{x10}},{:.1} l6,7 l-6,7 l-6,-7 z\" fill=\"#F0E442\" stroke=\"#000000\"/>", y - 8.0), "floor claim in words"),
    ];
    let mut x = left;
    for (swatch, label) in items {
        b.push_str(
            &swatch
                .replace("{x10}", &format!("{:.1}", x + 10.0))
                .replace("{x}", &format!("{x:.1}")),
        );
        let _ = write!(b, "<text x=\"{:.1}\" y=\"{:.1}\">{label}</text>", x + 28.0, y + 4.0);
        x += 28.0 + label.chars().count() as f64 * 6.8 + 18.0;
    }
    b.push_str("</g>");
}

fn axis(b: &mut String, s: &Scale, y: f64, ink: &Ink) {
    const STEPS: [i64; 18] = [
        100, 200, 500, 1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000,
        900_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000,
    ];
    let span = s.to - s.from;
    let most = (s.width / 90.0).max(2.0) as i64;
    let step = STEPS.iter().copied().find(|st| span / st <= most).unwrap_or(14_400_000);
    let tenths = step < 1000;
    let _ = write!(
        b,
        "<g class=\"axis\" font-size=\"12\" fill=\"{}\"><line x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" stroke=\"{}\"/>",
        ink.muted,
        s.left,
        s.left + s.width,
        ink.axis
    );
    let mut t = (s.from + step - 1).div_euclid(step) * step;
    while t <= s.to {
        let x = s.x(t);
        let _ = write!(
            b,
            "<line x1=\"{x:.1}\" y1=\"{y:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\" stroke=\"{}\"/><text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
            y + 5.0,
            ink.axis,
            y + 18.0,
            clock(t, tenths)
        );
        t += step;
    }
    b.push_str("</g>");
}
