//! The HTML report of transcripts without times (rush transcripts, CHAT without bullets): the
//! turn-order analysis ([`crate::analysis::turn_order`]) drawn on an axis of words, not of
//! time, with the tables of `analyze` and the transcript.
//!
//! Nothing on the page is a time. The picture gives each speaker a lane and lays the turns
//! end to end in the order they were said, each as long as its words; a turn the next
//! speaker took before its sentence ended has a notch at its end, red for a dash or an
//! ellipsis (the transcriber's cut-off mark):
//!
//! ```text
//!          words spoken, in order (no times) ->
//! SMITH    ███████▌         ████                ██
//! JONES           ██████▌       ████████▌  ◆
//! MOD      ████                          ████
//!                 ^ taken before SMITH's sentence ended
//! ```
//!
//! As the timed report does, the page embeds the result once as JSON (the envelope's
//! `untimed` objects, exactly as `analyze --format json` writes them) and renders every number
//! from that value. It has no script of its own: it is static HTML and SVG.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::encode::{escape, script_json};
use super::html::{page_with, pct, title, toc, ReportOptions, STYLE};
use crate::analysis::turn_order::{TurnEnd, TurnOrder};
use crate::error::{Error, Result};
use crate::output::untimed::UntimedRecording;

/// The speakers' colours, as the timed report's lanes have them (Okabe–Ito).
const PALETTE: [&str; 8] =
    ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"];

/// Width of the turn picture's drawing area and of its label column, in SVG units.
const PLOT_W: f64 = 960.0;
const LABEL_W: f64 = 130.0;
const LANE_H: f64 = 26.0;

/// The report of `recordings`, one section each: the summary, the turns in order, the speaker
/// table, the interruptions by rule, who followed whom, the floor claims, what cannot be
/// measured, and the transcript turn by turn.
pub fn untimed_report(recordings: &[UntimedRecording<'_>], opts: &ReportOptions) -> Result<String> {
    #[derive(serde::Serialize)]
    struct Payload<'a> {
        kind: &'static str,
        schema_version: u32,
        untimed: &'a [UntimedRecording<'a>],
    }
    let payload = Payload { kind: "untimed", schema_version: 1, untimed: recordings };
    let payload = serde_json::to_string(&payload)
        .map_err(|e| Error::invalid(format!("serialising the report: {e}")))?;
    let ids: Vec<&str> = recordings.iter().map(|u| u.recording).collect();
    let title = title(opts, &ids);
    let mut b = String::new();
    let _ = write!(b, "<header class=\"top\"><h1>{}</h1>", escape(&title));
    if !opts.sources.is_empty() {
        let _ = write!(b, "<p>Input: {}</p>", escape(&opts.sources.join(", ")));
    }
    b.push_str("<p>A transcript without times: everything here is measured from the order of the turns, their words, and the transcriber's punctuation and notes (rule book §5.10). Nothing on this page is a time. The numbers are those of <code>overtalk analyze --format json</code>, embedded in this file, which is self-contained and makes no network request.</p>");
    toc(&mut b, "Transcripts", "untimed", &ids);
    b.push_str("</header>\n<main id=\"main\">");
    if recordings.is_empty() {
        b.push_str("<p>No transcripts.</p>");
    }
    for (k, u) in recordings.iter().enumerate() {
        section(&mut b, k, u);
    }
    b.push_str("</main>");
    Ok(page_with(&title, None, &b, Some(&script_json(&payload)), &[STYLE], ""))
}

/// Each speaker's colour index, in the order of the speaker table (by name).
fn colours(o: &TurnOrder) -> BTreeMap<&str, usize> {
    o.speakers.keys().enumerate().map(|(i, name)| (name.as_str(), i % PALETTE.len())).collect()
}

fn section(b: &mut String, k: usize, u: &UntimedRecording<'_>) {
    let o = u.order;
    let colour = colours(o);
    let _ = write!(
        b,
        "<section id=\"untimed-{k}\"><h2>{} <span class=\"note\">(transcript without times)</span></h2>",
        escape(u.recording)
    );
    let _ = write!(
        b,
        "<div class=\"summary\"><p>{} speakers, {} turns, {} speaker changes, {} words.</p>",
        o.speakers.len(),
        o.turns,
        o.speaker_changes,
        o.words
    );
    if let Some((name, s)) = o.speakers.iter().max_by_key(|(_, s)| s.words) {
        if o.words > 0 {
            let _ = write!(
                b,
                "<p>{} said the most: {} of the words, in {} of the turns.</p>",
                escape(name),
                pct(s.word_share),
                pct(s.turn_share)
            );
        }
    }
    if let Some(p) = o.pairs.iter().max_by_key(|p| (p.no_sentence_end, p.cut_off)) {
        let _ = write!(
            b,
            "<p>{} followed {} before the sentence ended {} time(s), {} of them after a dash or an ellipsis.</p>",
            escape(&p.interrupter),
            escape(&p.interruptee),
            p.no_sentence_end,
            p.cut_off
        );
    }
    let _ = write!(
        b,
        "<p class=\"note\">{}.</p></div>",
        escape(&crate::output::sentence_start(&o.basis))
    );

    b.push_str("<h3>The turns in order</h3>");
    turn_picture(b, o, &colour);

    b.push_str("<h3>Speakers</h3>");
    speaker_table(b, o, &colour);

    b.push_str("<h3>Interruptions by rule</h3><p class=\"note\">Published counts of one debate differ by what they count; each rule is applied and shown with what it counts.</p>");
    b.push_str("<table><thead><tr><th scope=\"col\">rule</th><th scope=\"col\">count</th><th scope=\"col\">by speaker</th><th scope=\"col\">what it counts</th></tr></thead><tbody>");
    for r in &o.rules {
        let count = r.count.map_or_else(|| "not measurable".to_owned(), |c| c.to_string());
        let by: Vec<String> =
            r.by_speaker.iter().map(|(name, n)| format!("{} {n}", escape(name))).collect();
        let by = if r.count.is_none() || by.is_empty() { "–".to_owned() } else { by.join(", ") };
        let _ = write!(
            b,
            "<tr><th scope=\"row\"><code>{}</code></th><td data-v=\"{}\">{}</td><td class=\"l\">{by}</td><td class=\"l\">{}<span class=\"sub\">{}</span></td></tr>",
            escape(&r.rule),
            r.count.map_or_else(|| "null".to_owned(), |c| c.to_string()),
            count,
            escape(&r.description),
            escape(&r.basis)
        );
    }
    b.push_str("</tbody></table>");

    if !o.pairs.is_empty() {
        b.push_str("<h3>Who followed whom before the sentence ended</h3><table><thead><tr><th scope=\"col\">next speaker</th><th scope=\"col\">holder</th><th scope=\"col\">after a dash or ellipsis</th><th scope=\"col\">before the sentence ended</th></tr></thead><tbody>");
        for p in &o.pairs {
            let _ = write!(
                b,
                "<tr><th scope=\"row\">{}</th><td class=\"l\">{}</td><td>{}</td><td>{}</td></tr>",
                named(&p.interrupter, &colour),
                named(&p.interruptee, &colour),
                p.cut_off,
                p.no_sentence_end
            );
        }
        b.push_str("</tbody></table>");
    }

    if !o.verbal_claims.is_empty() {
        b.push_str("<h3>Floor claims in the words</h3><ul>");
        for c in &o.verbal_claims {
            let after = match (&c.after, c.reclaims) {
                (Some(a), true) => {
                    format!(", after {}, who followed this speaker's unfinished turn", escape(a))
                }
                (Some(a), false) => format!(", after {}", escape(a)),
                (None, _) => String::new(),
            };
            let _ = write!(
                b,
                "<li><a href=\"#untimed-{k}-t{}\">turn {}</a>: {} “{}”{after}</li>",
                c.turn,
                c.turn,
                named(&c.speaker, &colour),
                escape(&c.phrase)
            );
        }
        b.push_str("</ul>");
    }

    b.push_str("<h3>Not measurable without times</h3><ul>");
    for what in &o.not_measurable {
        let _ = write!(b, "<li>{}</li>", escape(what));
    }
    b.push_str("</ul>");

    transcript(b, k, o, &colour);
    b.push_str("</section>\n");
}

/// A speaker's name in their colour.
fn named(name: &str, colour: &BTreeMap<&str, usize>) -> String {
    let c = colour.get(name).copied().unwrap_or(7);
    format!("<span class=\"c{c}\">{}</span>", escape(name))
}

/// Each speaker's lane, the turns laid end to end by their words, the changes before a
/// sentence ended notched, the crosstalk notes and floor claims marked.
fn turn_picture(b: &mut String, o: &TurnOrder, colour: &BTreeMap<&str, usize>) {
    let lanes: BTreeMap<&str, usize> =
        o.speakers.keys().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    // Each turn as wide as its words, and at least a sliver (0.8 units) so that every turn
    // can be seen; then all scaled together to the plot's width, so that they always fit.
    let words: f64 = o.turn_list.iter().map(|t| t.words.max(1) as f64).sum::<f64>().max(1.0);
    let widths: Vec<f64> =
        o.turn_list.iter().map(|t| (t.words.max(1) as f64 * PLOT_W / words).max(0.8)).collect();
    let scale = PLOT_W / widths.iter().sum::<f64>().max(1.0);
    let height = lanes.len() as f64 * LANE_H + 34.0;
    let width = LABEL_W + PLOT_W + 10.0;
    let _ = write!(
        b,
        "<svg class=\"hist\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\" aria-label=\"The turns in order, each as long as its words; no times\">"
    );
    for (name, &lane) in &lanes {
        let y = lane as f64 * LANE_H;
        let c = PALETTE[colour.get(name).copied().unwrap_or(7)];
        let _ = write!(
            b,
            "<rect x=\"{LABEL_W}\" y=\"{y}\" width=\"{PLOT_W}\" height=\"{LANE_H}\" fill=\"{}\"/><text x=\"4\" y=\"{:.1}\"><tspan fill=\"{c}\">■</tspan> {}</text>",
            if lane % 2 == 0 { "#f7f7f7" } else { "#ffffff" },
            y + LANE_H * 0.65,
            escape(name)
        );
    }
    let crosstalk: std::collections::HashSet<usize> =
        o.marked_overlaps.iter().map(|n| n.turn).collect();
    let claims: std::collections::HashSet<usize> = o.verbal_claims.iter().map(|c| c.turn).collect();
    let mut x = LABEL_W;
    for (i, (t, w)) in o.turn_list.iter().zip(&widths).enumerate() {
        let lane = lanes.get(t.speaker.as_str()).copied().unwrap_or(0);
        let y = lane as f64 * LANE_H + 4.0;
        let w = w * scale;
        let c = PALETTE[colour.get(t.speaker.as_str()).copied().unwrap_or(7)];
        let ends = match t.ends {
            TurnEnd::Sentence => "ends a sentence",
            TurnEnd::CutOff => "ends with a dash or an ellipsis",
            TurnEnd::Open => "ends without a sentence end",
            TurnEnd::Empty => "notes only",
        };
        let _ = write!(
            b,
            "<g><title>turn {}: {}, {} word(s), {ends}: {}</title><rect x=\"{x:.2}\" y=\"{y:.1}\" width=\"{w:.2}\" height=\"{:.1}\" fill=\"{c}\"/>",
            t.turn,
            escape(&t.speaker),
            t.words,
            escape(&first_words(&t.text, 16)),
            LANE_H - 8.0
        );
        // The next speaker took the floor before this turn's sentence ended.
        let taken = i + 1 < o.turn_list.len()
            && o.turn_list[i + 1].speaker != t.speaker
            && matches!(t.ends, TurnEnd::CutOff | TurnEnd::Open);
        if taken {
            let stroke = if t.ends == TurnEnd::CutOff { "#B34700" } else { "#555" };
            let _ = write!(
                b,
                "<path d=\"M{:.2} {:.1}v{:.1}\" stroke=\"{stroke}\" stroke-width=\"3\"/>",
                x + w,
                y - 3.0,
                LANE_H - 2.0
            );
        }
        if crosstalk.contains(&t.turn) {
            let _ = write!(
                b,
                "<rect x=\"{x:.2}\" y=\"{:.1}\" width=\"{w:.2}\" height=\"3\" fill=\"#333\"/>",
                y + LANE_H - 9.0
            );
        }
        if claims.contains(&t.turn) {
            let cx = x + w / 2.0;
            let cy = y - 1.0;
            let _ = write!(
                b,
                "<path d=\"M{cx:.2} {:.1}l4 4l-4 4l-4 -4z\" fill=\"#F0E442\" stroke=\"#000\" stroke-width=\"0.7\"/>",
                cy - 4.0
            );
        }
        b.push_str("</g>");
        x += w;
    }
    let axis_y = lanes.len() as f64 * LANE_H + 16.0;
    let _ = write!(
        b,
        "<text x=\"{LABEL_W}\" y=\"{axis_y}\">0</text><text x=\"{:.1}\" y=\"{axis_y}\" text-anchor=\"end\">{} words</text><text x=\"{:.1}\" y=\"{axis_y}\" text-anchor=\"middle\">words spoken, in order (no times)</text></svg>",
        LABEL_W + PLOT_W,
        o.words,
        LABEL_W + PLOT_W / 2.0
    );
    b.push_str("<ul class=\"legend\"><li>a bar: one turn, as long as its words</li><li>a red notch at its end: the next speaker followed a dash or an ellipsis (cut off)</li><li>a grey notch: the next speaker followed before the sentence ended</li><li>a dark underline: a crosstalk note in the turn</li><li>a yellow diamond: a floor claim</li></ul>");
}

/// The first `n` words of `text`, with an ellipsis when there are more.
fn first_words(text: &str, n: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut s = words[..words.len().min(n)].join(" ");
    if words.len() > n {
        s.push_str(" …");
    }
    s
}

/// The speaker table, with the word share as a bar.
fn speaker_table(b: &mut String, o: &TurnOrder, colour: &BTreeMap<&str, usize>) {
    b.push_str("<table><thead><tr><th scope=\"col\">speaker</th><th scope=\"col\">turns</th><th scope=\"col\">turn share</th><th scope=\"col\">words</th><th scope=\"col\">word share</th><th scope=\"col\">longest turn (words)</th><th scope=\"col\">median turn (words)</th><th scope=\"col\">questions</th><th scope=\"col\">cut off (made / received)</th><th scope=\"col\">before the end (made / received)</th><th scope=\"col\">crosstalk notes</th><th scope=\"col\">floor claims</th></tr></thead><tbody>");
    for (name, s) in &o.speakers {
        let c = PALETTE[colour.get(name.as_str()).copied().unwrap_or(7)];
        let bar = s.word_share.unwrap_or(0.0) * 80.0;
        let _ = write!(
            b,
            "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td><td>{}</td><td><svg class=\"hist\" width=\"84\" height=\"10\" aria-hidden=\"true\"><rect x=\"0\" y=\"1\" width=\"{bar:.1}\" height=\"8\" fill=\"{c}\"/></svg> {}</td><td>{}</td><td>{}</td><td>{}</td><td>{} / {}</td><td>{} / {}</td><td>{}</td><td>{}</td></tr>",
            named(name, colour),
            s.turns,
            pct(s.turn_share),
            s.words,
            pct(s.word_share),
            s.longest_turn_words,
            s.median_turn_words.map_or_else(|| "–".to_owned(), |m| format!("{m:.1}")),
            s.questions,
            s.cut_off_made,
            s.cut_off_received,
            s.no_sentence_end_made,
            s.no_sentence_end_received,
            s.crosstalk_notes,
            s.verbal_claims
        );
    }
    b.push_str("</tbody></table><p class=\"note\">cut off: turns taken right after another speaker's turn ended with a dash or an ellipsis (made), and this speaker's turns so followed (received); before the end: the same for any turn that ended without a sentence end, dashes included.</p>");
}

/// Every turn: its number, speaker, how it ends, and its text as written.
fn transcript(b: &mut String, k: usize, o: &TurnOrder, colour: &BTreeMap<&str, usize>) {
    b.push_str("<h3>Transcript</h3><div class=\"transcript\">");
    for (i, t) in o.turn_list.iter().enumerate() {
        let taken = i + 1 < o.turn_list.len() && o.turn_list[i + 1].speaker != t.speaker;
        let mark = match (t.ends, taken) {
            (TurnEnd::CutOff, true) => " <span class=\"note\">[cut off]</span>",
            (TurnEnd::Open, true) => {
                " <span class=\"note\">[followed before the sentence ended]</span>"
            }
            _ => "",
        };
        let line = if t.line > 0 {
            format!(" <span class=\"note\">line {}</span>", t.line)
        } else {
            String::new()
        };
        let text = escape(&t.text).replace('\n', "<br>");
        let _ = write!(
            b,
            "<p class=\"utt\" id=\"untimed-{k}-t{}\"><span class=\"note\">{}</span> <span class=\"spk\">{}</span>{text}{mark}{line}</p>",
            t.turn,
            t.turn,
            named(&t.speaker, colour)
        );
    }
    b.push_str("</div>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::params::Params;
    use crate::format::{read_str, Format, ReadOptions};

    fn order(text: &str) -> TurnOrder {
        let out = read_str(text, Format::Paragraphs, &ReadOptions::default()).unwrap();
        let t = out.corpus.iter().next().unwrap().1;
        crate::analysis::turn_order::analyze(t, &Params::default()).unwrap()
    }

    /// The page embeds the JSON objects `analyze` writes, draws one bar per turn in its
    /// speaker's lane with the cut-off notches, escapes what the input says, and runs no
    /// script.
    #[test]
    fn the_page_draws_every_turn_and_embeds_the_json() {
        let o = order("SMITH: The plan we passed --\nJONES: It was <never> passed. (CROSSTALK)\nSMITH: Listen, the plan\nJONES: Let me finish.\nSMITH: No.\n");
        let u = UntimedRecording::new("town <hall>", &o);
        let page = untimed_report(&[u], &ReportOptions::default()).unwrap();
        let open = "<script type=\"application/json\" id=\"overtalk-data\">";
        let a = page.find(open).unwrap() + open.len();
        let z = a + page[a..].find("</script>").unwrap();
        let embedded: serde_json::Value = serde_json::from_str(&page[a..z]).unwrap();
        assert_eq!(embedded["untimed"][0], serde_json::to_value(u).unwrap());
        assert_eq!(page.matches("<title>turn ").count(), 5);
        // Turn 1 ends with a dash (red notch), turn 3 without a sentence end (grey notch).
        assert_eq!(page.matches("stroke=\"#B34700\"").count(), 1);
        assert_eq!(page.matches("stroke=\"#555\"").count(), 1);
        assert!(page.contains("It was &lt;never&gt; passed."));
        assert!(!page.contains("<never>"));
        assert!(page.contains("<h1>overtalk report: town &lt;hall&gt;</h1>"));
        assert!(page.contains("[cut off]"));
        assert!(page.contains("JONES</span> “let me finish”"));
        assert!(page.contains("<script></script>"));
    }

    /// The basis of an untimed analysis starts a sentence in the page and in the Markdown, so
    /// it starts with a capital there (the JSON phrase is written to be quoted mid-sentence);
    /// one turn of 16, an exact 6.25 %, reads 6.3 % in both, as the table writes it.
    #[test]
    fn the_basis_starts_its_sentence_and_ties_round_away_from_zero() {
        let text: String =
            (0..15)
                .map(|k| {
                    if k % 2 == 0 {
                        "A: hello there friend.\n"
                    } else {
                        "B: hello there friend.\n"
                    }
                })
                .chain(["C: yes.\n"])
                .collect();
        let o = order(&text);
        assert!(o.basis.starts_with("the order of the turns"));
        let u = UntimedRecording::new("tie", &o);
        let page = untimed_report(&[u], &ReportOptions::default()).unwrap();
        assert!(page.contains("<p class=\"note\">The order of the turns, their words, and the transcriber&#39;s punctuation and notes: the transcript has no times.</p>"), "{page}");
        assert!(page.contains("6.3 %") && !page.contains("6.2 %"));
        let mut md = Vec::new();
        crate::output::untimed::write_markdown(&[u], &mut md).unwrap();
        let md = String::from_utf8(md).unwrap();
        assert!(md.contains("3 speakers, 16 turns, 15 speaker changes, 46 words. The order of the turns, their words, and the transcriber's punctuation and notes: the transcript has no times.\n"), "{md}");
        assert!(md.contains("| C | 1 | 6.3% | 1 | 2.2% |"), "{md}");
        let mut table = Vec::new();
        crate::output::untimed::write_table(&[u], &mut table).unwrap();
        assert!(String::from_utf8(table).unwrap().contains("    6.3%"));
    }

    /// However many turns, the picture's bars fit its plot: a 1 500-turn debate ends at the
    /// plot's right edge.
    #[test]
    fn many_turns_fit_the_picture() {
        let text: String = (0..1500)
            .map(|k| {
                if k % 2 == 0 {
                    "SMITH: No.\n"
                } else {
                    "JONES: Yes, it was passed in the end.\n"
                }
            })
            .collect();
        let o = order(&text);
        let u = UntimedRecording::new("debate", &o);
        let page = untimed_report(&[u], &ReportOptions::default()).unwrap();
        let mut right: f64 = 0.0;
        for g in page.split("<g><title>turn ").skip(1) {
            let rect = &g[g.find("<rect x=\"").unwrap() + 9..];
            let x: f64 = rect[..rect.find('"').unwrap()].parse().unwrap();
            let w = &rect[rect.find("width=\"").unwrap() + 7..];
            let w: f64 = w[..w.find('"').unwrap()].parse().unwrap();
            right = right.max(x + w);
        }
        assert!((right - (LABEL_W + PLOT_W)).abs() < 0.5, "{right}");
    }
}
