//! What the terminal table and Markdown share: the layout of a conversation (heading,
//! per-speaker table, who interrupts whom, headline counts, parameters) and of the corpus
//! totals. The few pieces in which the formats differ are a [`MarkupStyle`]; the blanket
//! implementation makes every [`Markup`] an [`Exporter`].

use std::io::{self, Write};

use super::align::{pad_left, pad_right, width};
use super::number::{fixed, hours, pct, secs, secs_from_ms};
use super::totals::CorpusTotals;
use super::{
    count_or_unmeasurable, counted, counted_or_unmeasurable, Conversation, Exporter,
    MAX_MATRIX_SPEAKERS, NOT_MEASURABLE, OVERLAP_NOT_MEASURABLE,
};
use crate::analysis::intervals::{HeKind, Layer};
use crate::analysis::result::Mode;
use crate::analysis::warning::SPEAKERS_NOT_SEPARATED;
use crate::analysis::{Analysis, AnalysisWarning, Classifier, Params};

/// What makes a human format: its preset line and its [`MarkupStyle`].
pub trait Markup {
    /// The preset name shown in the parameters line.
    fn preset(&self) -> &str;
    /// How headings, lists, notes and tables are written.
    fn style(&self) -> MarkupStyle;
}

/// The two human styles, which differ only in these few pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkupStyle {
    /// Aligned plain text for the terminal.
    Terminal,
    /// Markdown: `##` headings, pipe tables, bullet lists and quoted notes.
    Markdown,
}

impl MarkupStyle {
    /// A conversation's heading, followed by a blank line.
    pub fn heading(self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        match self {
            MarkupStyle::Terminal => writeln!(out, "{text}\n"),
            MarkupStyle::Markdown => writeln!(out, "## {text}\n"),
        }
    }

    /// The corpus heading, above its table.
    pub fn corpus_heading(self, text: &str, out: &mut dyn Write) -> io::Result<()> {
        match self {
            MarkupStyle::Terminal => writeln!(out, "{text}"),
            MarkupStyle::Markdown => writeln!(out, "## {text}\n"),
        }
    }

    /// What starts a list item.
    pub fn bullet(self) -> &'static str {
        match self {
            MarkupStyle::Terminal => "",
            MarkupStyle::Markdown => "- ",
        }
    }

    /// What starts a note set apart from the text.
    pub fn note(self) -> &'static str {
        match self {
            MarkupStyle::Terminal => "",
            MarkupStyle::Markdown => "> ",
        }
    }

    /// What goes between a table's caption line and the table.
    pub fn after_caption(self, out: &mut dyn Write) -> io::Result<()> {
        match self {
            MarkupStyle::Terminal => Ok(()),
            MarkupStyle::Markdown => writeln!(out),
        }
    }

    /// A table: a header row and rows of as many cells; the first column is a label
    /// (left-aligned on the terminal), the others numbers (right-aligned).
    pub fn table(
        self,
        header: &[String],
        rows: &[Vec<String>],
        out: &mut dyn Write,
    ) -> io::Result<()> {
        match self {
            MarkupStyle::Terminal => aligned_table(header, rows, out),
            MarkupStyle::Markdown => pipe_table(header, rows, out),
        }
    }

    /// Whether tables are written as Markdown pipe tables (rather than aligned columns).
    pub fn is_markdown(self) -> bool {
        self == MarkupStyle::Markdown
    }
}

/// A Markdown pipe table; a `|` or a line break inside a cell (a speaker named `A|B`) is
/// escaped, so it cannot split the cell.
fn pipe_table(header: &[String], rows: &[Vec<String>], out: &mut dyn Write) -> io::Result<()> {
    let row = |cells: &[String]| -> String {
        let cells: Vec<String> =
            cells.iter().map(|c| c.replace('|', "\\|").replace(['\n', '\r'], " ")).collect();
        format!("| {} |", cells.join(" | "))
    };
    writeln!(out, "{}", row(header))?;
    writeln!(out, "|{}", header.iter().map(|_| " --- |").collect::<String>())?;
    for r in rows {
        writeln!(out, "{}", row(r))?;
    }
    Ok(())
}

/// Columns aligned by display width, two spaces apart, trailing spaces trimmed.
fn aligned_table(header: &[String], rows: &[Vec<String>], out: &mut dyn Write) -> io::Result<()> {
    let widths: Vec<usize> = (0..header.len())
        .map(|i| rows.iter().map(|r| width(&r[i])).chain([width(&header[i])]).max().unwrap_or(0))
        .collect();
    let line = |cells: &[String]| -> String {
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| if i == 0 { pad_right(c, widths[i]) } else { pad_left(c, widths[i]) })
            .collect::<Vec<_>>()
            .join("  ")
    };
    writeln!(out, "{}", line(header).trim_end())?;
    for r in rows {
        writeln!(out, "{}", line(r).trim_end())?;
    }
    Ok(())
}

impl<'a, T: Markup> Exporter<[Conversation<'a>]> for T {
    fn export(&self, conversations: &[Conversation<'a>], out: &mut dyn Write) -> io::Result<()> {
        for (k, c) in conversations.iter().enumerate() {
            if k > 0 {
                writeln!(out)?;
            }
            conversation(self, c.recording, c.analysis, c.method(), out)?;
        }
        if conversations.len() > 1 {
            writeln!(out)?;
            corpus(self, &CorpusTotals::of(conversations), out)?;
        }
        if conversations.is_empty() {
            writeln!(out, "no recordings")?;
        }
        Ok(())
    }
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

/// One conversation: the heading, the per-speaker table, who interrupts whom, the headline
/// counts and the parameters.
fn conversation<M: Markup + ?Sized>(
    m: &M,
    id: &str,
    r: &Analysis,
    detection: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let c = &r.conversation;
    let speakers = match r.speakers.len() {
        // A recording in which detection found nobody talking.
        0 if detection.is_some() => "no speech found in the recording, 0 speakers".to_owned(),
        1 => "1 speaker".to_owned(),
        n => format!("{n} speakers"),
    };
    // Ends estimated: the timing rule's interruptions cannot be measured either.
    let unmeasured = r.estimated_times.is_some();
    let overlap = match (c.overlap, r.overlap_unmeasurable()) {
        (Some(o), None) => {
            format!("overlap {} s ({} of speech)", secs(o.get()), pct(c.overlap_ratio))
        }
        (_, why) => format!("overlap {NOT_MEASURABLE} ({})", why.unwrap_or("not measured")),
    };
    let heading = format!(
        "{id}: {speakers}, span {} s, speech {} s, {overlap}",
        secs(c.span.get()),
        secs(c.speech.get()),
    );
    m.style().heading(&heading, out)?;
    if r.diagnostics.warnings.iter().any(|w| matches!(w, AnalysisWarning::SpeakersNotSeparated)) {
        writeln!(out, "{}{SPEAKERS_NOT_SEPARATED}\n", m.style().note())?;
    }
    if r.diagnostics.warnings.iter().any(|w| matches!(w, AnalysisWarning::OverlapNotMeasurable)) {
        writeln!(out, "{}{OVERLAP_NOT_MEASURABLE}\n", m.style().note())?;
    }
    // The plain-language summary, one sentence a line (one paragraph in Markdown).
    for sentence in crate::summary::summarise(r) {
        writeln!(out, "{}", sentence.text)?;
    }
    writeln!(out)?;
    let header = strings(&[
        "speaker",
        "mode",
        "talk s",
        "talk %",
        "solo s",
        "floor s",
        "floor %",
        "turns",
        "longest s",
        "wpm",
        "BCs",
        "int. made (succ.)",
        "received (succ.)",
        "median FTO in s",
    ]);
    let rows: Vec<Vec<String>> = r
        .speakers
        .iter()
        .map(|(name, s)| {
            vec![
                name.clone(),
                match r.mode.get(name) {
                    Some(Mode::Text) => "text".to_owned(),
                    _ => "timing".to_owned(),
                },
                secs(s.talk.get()),
                pct(s.talk_share),
                s.solo.map_or_else(|| "-".to_owned(), |t| secs(t.get())),
                secs(s.floor.get()),
                pct(s.floor_share),
                s.turns.to_string(),
                s.longest_turn.map_or_else(|| "-".to_owned(), |t| secs(t.get())),
                fixed(s.wpm, 1),
                s.backchannels.to_string(),
                made_and_successful(s.interruptions_made),
                made_and_successful(s.interruptions_received),
                secs_from_ms(s.median_fto_in),
            ]
        })
        .collect();
    m.style().table(&header, &rows, out)?;
    let bullet = m.style().bullet();
    if unmeasured {
        return estimated_rest(m, r, detection, out);
    }
    who_interrupts_whom(m, r, out)?;
    let k = &c.counts.events;
    let he = |layer: Layer, kind: HeKind| {
        c.he_counts.get(&layer).and_then(|m| m.get(&kind)).copied().unwrap_or(Some(0))
    };
    // The counts that need overlap, or why they are not given.
    let overlapping = match (k.talk_over_events, k.terminal_overlaps, k.simultaneous_starts) {
        (Some(t), Some(o), Some(s)) => {
            format!("{t} talk-over events ({o} terminal overlaps); {s} simultaneous starts")
        }
        _ => format!(
            "talk-over events, terminal overlaps and simultaneous starts {NOT_MEASURABLE} ({})",
            r.overlap_unmeasurable().unwrap_or("not measured")
        ),
    };
    writeln!(out)?;
    writeln!(
        out,
        "{bullet}headline: {} turns, {} floor transfers ({}/min); {} interruptions ({} successful, {} unsuccessful); {overlapping}; {} backchannels; {} verbal floor claims",
        k.turns,
        k.transfers,
        fixed(c.transfers_per_min, 2),
        count_or_unmeasurable(k.interruptions),
        count_or_unmeasurable(k.successful),
        count_or_unmeasurable(k.unsuccessful),
        k.backchannels,
        k.verbal_claims
    )?;
    for layer in [Layer::Acoustic, Layer::Floor] {
        writeln!(
            out,
            "{bullet}{} H&E: {}, {}, {}, {}, {} NGNO{}",
            if layer == Layer::Acoustic { "acoustic" } else { "floor (BC-filtered)" },
            counted_or_unmeasurable(he(layer, HeKind::Gap), "gap", "gaps"),
            counted_or_unmeasurable(he(layer, HeKind::Pause), "pause", "pauses"),
            counted_or_unmeasurable(
                he(layer, HeKind::OverlapBetween),
                "overlap between",
                "overlaps between"
            ),
            counted_or_unmeasurable(
                he(layer, HeKind::OverlapWithin),
                "overlap within",
                "overlaps within"
            ),
            count_or_unmeasurable(he(layer, HeKind::Ngno)),
            if layer == Layer::Acoustic {
                let share = if c.overlap_between_share.is_none() && c.overlap.is_none() {
                    format!("the overlaps' share of between-speaker intervals {NOT_MEASURABLE}")
                } else {
                    format!(
                        "overlaps are {} of between-speaker intervals",
                        pct(c.overlap_between_share)
                    )
                };
                format!("; {}; {share}", counted(c.long_silences, "long silence", "long silences"))
            } else {
                String::new()
            }
        )?;
    }
    for v in &r.verbal_claims {
        writeln!(
            out,
            "{bullet}verbal floor claim: {} \"{}\" at {} s{}",
            v.speaker,
            v.phrase,
            secs(v.start.get()),
            match (&v.answers_speaker, v.answers_time) {
                (Some(s), Some(t)) => format!(" (answers {s} at {} s)", secs(t.get())),
                _ => String::new(),
            }
        )?;
    }
    if let Some(markers) = &r.chat_markers_vs_timing {
        writeln!(out)?;
        super::chat_markers::write(markers, None, m.style().is_markdown(), out)?;
        writeln!(out)?;
    }
    params(r, m.preset(), detection, bullet, out)
}

/// The parameters line, the classifier and the detection method.
fn params(
    r: &Analysis,
    preset: &str,
    detection: Option<&str>,
    bullet: &str,
    out: &mut dyn Write,
) -> io::Result<()> {
    let p = &r.params;
    writeln!(
        out,
        "{bullet}parameters (preset {preset}): latch_tolerance {} ms, min_segment {} ms, bridge_pause {} ms, bc_max_duration {} ms, bc_max_words {}, bc_min_cue_share {}, bc_pre/post_silence {}/{} ms, bc_context {} ms, bc_resume_window {} ms, min_floor_solo {} ms, terminal_window {} ms, simul_start_tol {} ms, silent_int_max_gap {} ms, long_silence {} ms, bc_counts_as_talk {}, laughter_is_floor {}, bc_lexicon {} words",
        p.latch_tolerance, p.min_segment, p.bridge_pause, p.bc_max_duration, p.bc_max_words, p.bc_min_cue_share,
        p.bc_pre_silence, p.bc_post_silence, p.bc_context, p.bc_resume_window, p.min_floor_solo, p.terminal_window,
        p.simul_start_tol, p.silent_int_max_gap, p.long_silence, p.bc_counts_as_talk, p.laughter_is_floor, p.bc_lexicon.len()
    )?;
    writeln!(out, "{bullet}backchannels and interruptions decided by: {}", classifier_note(p))?;
    if let Some(method) = detection {
        writeln!(out, "{bullet}speech detected from the recording: {method}")?;
    }
    Ok(())
}

/// Who interrupts whom: a matrix (rows interrupter, columns interruptee, "attempts/successful
/// (talk-over) rate") for up to [`MAX_MATRIX_SPEAKERS`] speakers, else one row per pair that
/// has any, most attempts first. Linear in the cells shown.
fn who_interrupts_whom<M: Markup + ?Sized>(
    m: &M,
    r: &Analysis,
    out: &mut dyn Write,
) -> io::Result<()> {
    let cell = |p: &crate::analysis::result::PairOut| {
        format!(
            "{}/{} ({}) {}",
            p.attempts,
            p.successful,
            count_or_unmeasurable(p.talk_over_events),
            p.rate_per_min_of_interruptee_floor
                .map_or_else(|| "-".to_owned(), |v| format!("{v:.2}/min"))
        )
    };
    writeln!(out)?;
    let names: Vec<&String> = r.speakers.keys().collect();
    if names.len() > MAX_MATRIX_SPEAKERS {
        writeln!(out, "who interrupts whom ({} speakers: each pair with an attempt or a talk-over event, most attempts first; attempts/successful, talk-over events in brackets; per min of the holder's floor):", names.len())?;
        m.style().after_caption(out)?;
        let pairs = super::listed_pairs(r);
        let header = ["interrupter", "holder", "interruptions"].map(str::to_owned);
        let rows: Vec<Vec<String>> = pairs
            .iter()
            .map(|p| vec![p.interrupter.to_string(), p.interruptee.to_string(), cell(p)])
            .collect();
        return m.style().table(&header, &rows, out);
    }
    writeln!(out, "who interrupts whom (row interrupts column: attempts/successful, talk-over events in brackets; per min of the column's floor):")?;
    m.style().after_caption(out)?;
    let by_pair: std::collections::HashMap<(&str, &str), _> =
        r.pairs.iter().map(|p| ((&*p.interrupter, &*p.interruptee), p)).collect();
    // A pair without events: no attempt, and no talk-over event unless none could be seen.
    let talk_over_seen = r.conversation.counts.events.talk_over_events.is_some();
    let empty_pair = format!("0/0 ({})", count_or_unmeasurable(talk_over_seen.then_some(0)));
    let mut header = vec!["interrupter \\ holder".to_owned()];
    header.extend(names.iter().map(|n| (*n).clone()));
    let rows: Vec<Vec<String>> = names
        .iter()
        .map(|x| {
            let mut row = vec![(*x).clone()];
            for f in &names {
                row.push(if x == f {
                    "-".to_owned()
                } else {
                    by_pair
                        .get(&(x.as_str(), f.as_str()))
                        .map_or_else(|| empty_pair.clone(), |p| cell(p))
                });
            }
            row
        })
        .collect();
    m.style().table(&header, &rows, out)
}

/// The rest of [`conversation`] for transcripts with estimated ends: the counts that rest on
/// start times, what rests on the estimates, the marked overlaps, and the interruptions counted
/// rule by rule (in place of the timing rule's who-interrupts-whom, which cannot be measured).
fn estimated_rest<M: Markup + ?Sized>(
    m: &M,
    r: &Analysis,
    detection: Option<&str>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let bullet = m.style().bullet();
    let Some(e) = &r.estimated_times else { return Ok(()) };
    let c = &r.conversation;
    writeln!(out)?;
    writeln!(
        out,
        "{bullet}headline: {} turns, {} floor transfers ({}/min); interruptions, talk-over events and overlaps by timing: {NOT_MEASURABLE} (ends estimated; see rule by rule below); {} backchannels",
        c.counts.events.turns,
        c.counts.events.transfers,
        fixed(c.transfers_per_min, 2),
        c.counts.events.backchannels,
    )?;
    writeln!(
        out,
        "{bullet}ends estimated: {} of {} tracks (start times only; each end is the next start, or sooner at {} words a second); timing-only mode; resting on estimated ends: {}; from start times alone: {}",
        e.estimated_ends,
        e.tracks,
        e.words_per_second,
        e.rest_on_estimated_ends.join("; "),
        e.from_start_times.join("; ")
    )?;
    writeln!(
        out,
        "{bullet}overlap: {}; marked overlaps ([crosstalk] notes, the transcriber's judgement): {}",
        e.overlap,
        e.marked_overlaps.len()
    )?;
    for m in &e.marked_overlaps {
        writeln!(
            out,
            "{bullet}  marked overlap at {} s ({}){}: [{}]",
            secs(m.time.get()),
            m.time_from,
            m.speaker.as_ref().map_or_else(String::new, |s| format!(" in {s}'s paragraph")),
            m.text
        )?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "interruptions rule by rule (why counts published for the same conversation differ):"
    )?;
    m.style().after_caption(out)?;
    let header = strings(&["rule", "interruptions", "by speaker"]);
    let rows: Vec<Vec<String>> = e
        .rules
        .iter()
        .map(|r| {
            vec![
                r.rule.clone(),
                r.count.map_or_else(|| NOT_MEASURABLE.to_owned(), |n| n.to_string()),
                if r.by_speaker.is_empty() {
                    "-".to_owned()
                } else {
                    r.by_speaker
                        .iter()
                        .map(|(s, n)| format!("{s} {n}"))
                        .collect::<Vec<_>>()
                        .join(", ")
                },
            ]
        })
        .collect();
    m.style().table(&header, &rows, out)?;
    writeln!(out)?;
    for rule in &e.rules {
        writeln!(out, "{bullet}{}: {} ({})", rule.rule, rule.description, rule.basis)?;
    }
    params(r, m.preset(), detection, bullet, out)
}

/// Which classifier produced the backchannel and interruption counts, in words.
fn classifier_note(p: &Params) -> String {
    match p.classifier {
        Classifier::Rules => {
            "rules (the structural definitions, conversation-metrics.md §5.4)".to_owned()
        }
        Classifier::Calibrated => format!(
            "calibrated (fitted on human labels, §5.8; decision horizon {})",
            p.decision_horizon.map_or("unbounded".to_owned(), |h| format!("{h} ms"))
        ),
        Classifier::Joint => format!(
            "joint (calibrated on human labels with the three-way talkspurt decision, §5.8; decision horizon {})",
            p.decision_horizon.map_or("unbounded".to_owned(), |h| format!("{h} ms"))
        ),
    }
}

/// The totals of a corpus of more than one conversation.
fn corpus<M: Markup + ?Sized>(m: &M, t: &CorpusTotals, out: &mut dyn Write) -> io::Result<()> {
    m.style().corpus_heading(
        &format!("corpus: {}", counted(t.recordings, "recording", "recordings")),
        out,
    )?;
    let header = strings(&[
        "speech h",
        "overlap %",
        "turns",
        "transfers",
        "interruptions",
        "successful",
        "talk-over",
        "terminal",
        "simultaneous",
        "BCs",
    ]);
    let row = vec![
        hours(t.speech),
        if t.overlap.is_none() { NOT_MEASURABLE.to_owned() } else { pct(t.overlap_ratio) },
        t.counts.turns.to_string(),
        t.counts.transfers.to_string(),
        count_or_unmeasurable(t.counts.interruptions),
        count_or_unmeasurable(t.counts.successful),
        count_or_unmeasurable(t.counts.talk_over_events),
        count_or_unmeasurable(t.counts.terminal_overlaps),
        count_or_unmeasurable(t.counts.simultaneous_starts),
        t.counts.backchannels.to_string(),
    ];
    m.style().table(&header, &[row], out)
}

/// Interruptions "attempts (successful)", or [`NOT_MEASURABLE`] when the times cannot tell.
fn made_and_successful(c: Option<crate::analysis::result::Counts>) -> String {
    c.map_or_else(|| NOT_MEASURABLE.to_owned(), |c| format!("{} ({})", c.attempts, c.successful))
}
