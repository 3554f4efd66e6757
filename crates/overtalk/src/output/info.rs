//! The outputs of `info`: a first glance at recordings, speakers and speech — the JSON object
//! `{schema_version, recordings, totals}` and the table in terminal, Markdown and TSV form.
//!
//! "Segments" are the tracks as the file gives them (RTTM lines, cues, intervals), not turns.
//! The duration runs from time 0 to the end of the recording when the file states it (a
//! TextGrid's `xmax`, AssemblyAI's `audio_duration`, Deepgram's `metadata.duration`), or to the
//! end of the last segment when that is later or the file states no end
//! ([`Transcript::span`]); the overlapped share is the time with two or more speakers divided
//! by the time with at least one.

use std::collections::BTreeSet;
use std::io::{self, Write};

use serde::Serialize;

use super::align::{pad_left, pad_right, width};
use crate::analysis::markers::{self, MarkersVsTiming};
use crate::model::{Region, Transcript};
use crate::time::{Delta, Time};

/// The version of the `info` JSON object (2: `turns` became `segments`, the file's segments).
pub const INFO_SCHEMA_VERSION: u32 = 2;

/// One recording's line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InfoRow {
    /// Recording id.
    pub recording: String,
    /// The input it came from, as the front end names it.
    pub source: String,
    /// Speakers.
    pub speakers: usize,
    /// Segments as the file gives them (schema version 1 called them `turns`).
    pub segments: usize,
    /// From time 0 to the end of the last turn (or the declared end of the recording, if later).
    /// `null` for a transcript without times.
    pub duration_s: Option<f64>,
    /// The UEM duration, when a UEM was given and names the recording.
    pub uem_s: Option<f64>,
    /// Time with at least one speaker.
    /// `null` for a transcript without times.
    pub speech_s: Option<f64>,
    /// Time with two or more speakers; `null` when the input cannot show two speakers at once
    /// (ends estimated from start times: paragraph transcripts; or no times at all).
    pub overlap_s: Option<f64>,
    /// `overlap_s / speech_s` (0 without speech; `null` with `overlap_s`).
    pub overlap_share: Option<f64>,
    /// Whether the transcript has words.
    pub has_text: bool,
    /// Utterances without times (a rush transcript, CHAT without bullets): none of the times
    /// above measure them. Left out when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub untimed_utterances: usize,
    /// Segments whose end was estimated (paragraph transcripts give start times only): the
    /// durations rest on the estimate, and overlap is not measurable. Left out when 0.
    #[serde(skip_serializing_if = "is_zero")]
    pub estimated_ends: usize,
    /// CHAT with time bullets only: the transcriber's overlap and interruption markers against
    /// the timing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chat_markers_vs_timing: Option<MarkersVsTiming>,
    /// Exact sums for the totals (not written).
    #[serde(skip)]
    sums: Sums,
}

/// The exact durations behind a row, summed for the totals.
#[derive(Debug, Clone, Default, PartialEq)]
struct Sums {
    duration: Delta,
    uem: Delta,
    speech: Delta,
    overlap: Delta,
    /// Whether the overlap is measurable (see [`InfoRow::overlap_s`]).
    overlap_measurable: bool,
    names: Vec<String>,
}

/// Sums over every recording.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InfoTotals {
    /// Recordings.
    pub recordings: usize,
    /// Segments.
    pub segments: usize,
    /// Summed durations, in hours.
    pub duration_hours: f64,
    /// Summed UEM durations, in hours (when a UEM was given).
    pub uem_hours: Option<f64>,
    /// Summed speech, in hours.
    pub speech_hours: f64,
    /// Summed overlap over summed speech, of the recordings whose overlap is measurable
    /// (`null` when none is).
    pub overlap_share: Option<f64>,
    /// Fewest speakers of a recording.
    pub speakers_per_recording_min: usize,
    /// Mean speakers per recording.
    pub speakers_per_recording_mean: f64,
    /// Most speakers of a recording.
    pub speakers_per_recording_max: usize,
    /// Speaker names over all recordings, counted once.
    pub distinct_speakers: usize,
}

/// The whole `info` output.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Info {
    /// [`INFO_SCHEMA_VERSION`].
    pub schema_version: u32,
    /// One row per recording, in input order.
    pub recordings: Vec<InfoRow>,
    /// Sums over the rows.
    pub totals: InfoTotals,
}

/// How `info` is written besides JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InfoStyle {
    /// Aligned for the terminal, with the CHAT marker tables.
    Table,
    /// Markdown, with the CHAT marker tables.
    Markdown,
    /// One tab-separated table for programs: seconds, no total row.
    Tsv,
}

impl InfoRow {
    /// The row of recording `id` read from `source`. `uem` is the recording's UEM region when
    /// one names it; `chat` says the input was CHAT (whose markers are compared to the timing).
    pub fn of(id: &str, source: &str, t: &Transcript, uem: Option<&Region>, chat: bool) -> InfoRow {
        let a = t.annotation();
        let sp = a.speech().duration();
        let ov = a.overlap().duration();
        let u = uem.map(Region::duration);
        let end = t.span().map_or(Time::ZERO, |s| s.end());
        // Estimated ends never overlap the next start; without times nothing is measured.
        let measurable = t.estimated_ends() == 0 && !t.is_untimed();
        InfoRow {
            recording: id.to_owned(),
            source: source.to_owned(),
            speakers: a.speakers().len(),
            segments: a.len(),
            duration_s: (!t.is_untimed()).then(|| end.as_secs_f64()),
            uem_s: u.map(|d| d.as_secs_f64()),
            speech_s: (!t.is_untimed()).then(|| sp.as_secs_f64()),
            overlap_s: measurable.then(|| ov.as_secs_f64()),
            overlap_share: measurable.then(|| share(ov, sp)),
            has_text: t.has_text() || t.untimed().iter().any(|u| !u.content.is_empty()),
            untimed_utterances: t.untimed().len(),
            estimated_ends: t.estimated_ends(),
            chat_markers_vs_timing: if chat { markers::compare(t) } else { None },
            sums: Sums {
                duration: end - Time::ZERO,
                uem: u.unwrap_or_default(),
                speech: sp,
                overlap: ov,
                overlap_measurable: measurable,
                names: a.speakers().iter().map(|(_, n)| n.to_owned()).collect(),
            },
        }
    }
}

impl Info {
    /// The output of `rows`; `with_uem` adds the UEM column and total (a UEM was read).
    pub fn new(rows: Vec<InfoRow>, with_uem: bool) -> Info {
        let (mut speech, mut overlap, mut uem_total) = (Delta::ZERO, Delta::ZERO, Delta::ZERO);
        // Speech of the recordings whose overlap is measurable, for the overlapped share.
        let mut measured_speech = Delta::ZERO;
        let mut any_measurable = false;
        let mut duration = Delta::ZERO;
        let mut names = BTreeSet::new();
        for r in &rows {
            duration += r.sums.duration;
            speech += r.sums.speech;
            if r.sums.overlap_measurable {
                overlap += r.sums.overlap;
                measured_speech += r.sums.speech;
                any_measurable = true;
            }
            uem_total += r.sums.uem;
            names.extend(r.sums.names.iter().cloned());
        }
        let counts: Vec<usize> = rows.iter().map(|r| r.speakers).collect();
        let totals = InfoTotals {
            recordings: rows.len(),
            segments: rows.iter().map(|r| r.segments).sum(),
            duration_hours: duration.as_secs_f64() / 3600.0,
            uem_hours: with_uem.then(|| uem_total.as_secs_f64() / 3600.0),
            speech_hours: speech.as_secs_f64() / 3600.0,
            overlap_share: any_measurable.then(|| share(overlap, measured_speech)),
            speakers_per_recording_min: counts.iter().copied().min().unwrap_or(0),
            speakers_per_recording_mean: if counts.is_empty() {
                0.0
            } else {
                counts.iter().sum::<usize>() as f64 / counts.len() as f64
            },
            speakers_per_recording_max: counts.iter().copied().max().unwrap_or(0),
            distinct_speakers: names.len(),
        };
        Info { schema_version: INFO_SCHEMA_VERSION, recordings: rows, totals }
    }

    /// Writes the pretty-printed JSON object and a newline.
    pub fn write_json(&self, out: &mut dyn Write) -> io::Result<()> {
        serde_json::to_writer_pretty(&mut *out, self)?;
        writeln!(out)
    }

    /// Writes the table in `style`; the terminal and Markdown styles add each CHAT recording's
    /// markers-vs-timing table after it.
    pub fn write_table(&self, style: InfoStyle, out: &mut dyn Write) -> io::Result<()> {
        render_table(self, style, out)?;
        if style != InfoStyle::Tsv && self.recordings.iter().any(|r| r.overlap_s.is_none()) {
            writeln!(out, "overlap -: not measurable where ends are estimated (transcripts with start times only) or there are no times")?;
        }
        if style != InfoStyle::Tsv {
            for r in &self.recordings {
                if let Some(m) = &r.chat_markers_vs_timing {
                    writeln!(out)?;
                    let md = style == InfoStyle::Markdown;
                    super::chat_markers::write(m, Some(&r.recording), md, out)?;
                }
            }
        }
        Ok(())
    }
}

fn share(part: Delta, whole: Delta) -> f64 {
    if whole.micros() == 0 {
        0.0
    } else {
        part.micros() as f64 / whole.micros() as f64
    }
}

/// `cell`, or `-` for a value the input cannot measure.
fn dash(cell: Option<String>) -> String {
    cell.unwrap_or_else(|| "-".to_owned())
}

/// Whether a count is zero (left out of the JSON).
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Seconds as `h:mm:ss.ss` (rounded to the centisecond), so short clips keep their decimals.
fn hms(secs: f64) -> String {
    let cs = (secs * 100.0).round() as i64;
    let total = cs / 100;
    format!("{}:{:02}:{:02}.{:02}", total / 3600, total / 60 % 60, total % 60, cs % 100)
}

/// The TSV for programs: one row per recording, times in seconds (three decimals), the
/// overlapped share in percent, headers that name their units; no total row (a program sums).
fn render_tsv(info: &Info, out: &mut dyn Write) -> io::Result<()> {
    let with_uem = info.totals.uem_hours.is_some();
    let mut header = vec!["recording", "speakers", "segments", "duration_s"];
    if with_uem {
        header.push("uem_s");
    }
    header.extend(["speech_s", "overlap_s", "overlap_pct"]);
    let with_untimed = info.recordings.iter().any(|r| r.untimed_utterances > 0);
    if with_untimed {
        header.push("untimed_utterances");
    }
    writeln!(out, "{}", header.join("\t"))?;
    for r in &info.recordings {
        let duration = r.duration_s.map(|d| format!("{d:.3}")).unwrap_or_default();
        let mut row =
            vec![r.recording.clone(), r.speakers.to_string(), r.segments.to_string(), duration];
        if with_uem {
            row.push(r.uem_s.map_or_else(String::new, |u| format!("{u:.3}")));
        }
        // For programs, a value that was not measured is an empty cell.
        row.extend([
            r.speech_s.map(|v| format!("{v:.3}")).unwrap_or_default(),
            r.overlap_s.map(|o| format!("{o:.3}")).unwrap_or_default(),
            r.overlap_share.map(|o| crate::output::number::percent(o, 1)).unwrap_or_default(),
        ]);
        if with_untimed {
            row.push(r.untimed_utterances.to_string());
        }
        writeln!(out, "{}", row.join("\t"))?;
    }
    Ok(())
}

fn render_table(info: &Info, style: InfoStyle, out: &mut dyn Write) -> io::Result<()> {
    if style == InfoStyle::Tsv {
        return render_tsv(info, out);
    }
    let with_uem = info.totals.uem_hours.is_some();
    let mut header = vec!["recording", "speakers", "segments", "duration"];
    if with_uem {
        header.push("UEM duration");
    }
    header.extend(["speech", "overlap", "overlap %"]);
    let with_untimed = info.recordings.iter().any(|r| r.untimed_utterances > 0);
    if with_untimed {
        header.push("untimed utterances");
    }
    let mut rows: Vec<Vec<String>> = info
        .recordings
        .iter()
        .map(|r| {
            let duration = dash(r.duration_s.map(hms));
            let mut row =
                vec![r.recording.clone(), r.speakers.to_string(), r.segments.to_string(), duration];
            if with_uem {
                row.push(r.uem_s.map_or_else(|| "-".to_owned(), hms));
            }
            row.extend([
                dash(r.speech_s.map(hms)),
                dash(r.overlap_s.map(hms)),
                dash(r.overlap_share.map(|o| crate::output::number::percent(o, 1))),
            ]);
            if with_untimed {
                row.push(r.untimed_utterances.to_string());
            }
            row
        })
        .collect();
    let t = &info.totals;
    if info.recordings.len() > 1 {
        let mut row = vec![
            format!("total ({} recordings)", t.recordings),
            format!(
                "{}/{:.1}/{}",
                t.speakers_per_recording_min,
                t.speakers_per_recording_mean,
                t.speakers_per_recording_max
            ),
            t.segments.to_string(),
            format!("{:.2} h", t.duration_hours),
        ];
        if let Some(u) = t.uem_hours {
            row.push(format!("{u:.2} h"));
        }
        row.extend([
            format!("{:.2} h", t.speech_hours),
            "".to_owned(),
            dash(t.overlap_share.map(|o| crate::output::number::percent(o, 1))),
        ]);
        if with_untimed {
            row.push(
                info.recordings.iter().map(|r| r.untimed_utterances).sum::<usize>().to_string(),
            );
        }
        rows.push(row);
    }
    match style {
        InfoStyle::Tsv => {
            writeln!(out, "{}", header.join("\t"))?;
            for r in &rows {
                writeln!(out, "{}", r.join("\t"))?;
            }
        }
        InfoStyle::Markdown => {
            writeln!(out, "| {} |", header.join(" | "))?;
            writeln!(out, "|{}", header.iter().map(|_| " --- |").collect::<String>())?;
            for r in &rows {
                writeln!(out, "| {} |", r.join(" | "))?;
            }
        }
        InfoStyle::Table => {
            let widths: Vec<usize> = (0..header.len())
                .map(|i| {
                    rows.iter().map(|r| width(&r[i])).chain([width(header[i])]).max().unwrap_or(0)
                })
                .collect();
            let line = |cells: &[String]| -> String {
                cells
                    .iter()
                    .enumerate()
                    .map(
                        |(i, c)| {
                            if i == 0 {
                                pad_right(c, widths[i])
                            } else {
                                pad_left(c, widths[i])
                            }
                        },
                    )
                    .collect::<Vec<_>>()
                    .join("  ")
            };
            let header: Vec<String> = header.iter().map(|h| (*h).to_owned()).collect();
            writeln!(out, "{}", line(&header))?;
            for r in &rows {
                writeln!(out, "{}", line(r))?;
            }
            if info.recordings.len() > 1 {
                writeln!(out, "distinct speakers: {}", t.distinct_speakers)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Annotation, Segment};

    #[test]
    fn rows_and_totals_of_two_recordings() {
        let s = |a, b| Segment::from_millis(a, b).unwrap();
        let one = Transcript::from_annotation(Annotation::from_labelled([
            (s(0, 4_000), "A"),
            (s(3_000, 5_000), "B"),
        ]));
        let two = Transcript::from_annotation(Annotation::from_labelled([(s(1_000, 2_000), "A")]));
        let rows = vec![
            InfoRow::of("one", "a.rttm", &one, None, false),
            InfoRow::of("two", "a.rttm", &two, None, false),
        ];
        let info = Info::new(rows, false);
        assert_eq!(info.recordings[0].overlap_share, Some(0.2));
        assert_eq!(info.totals.segments, 3);
        assert_eq!(info.totals.distinct_speakers, 2);
        assert_eq!(info.totals.speakers_per_recording_mean, 1.5);
        let mut out = Vec::new();
        info.write_table(InfoStyle::Tsv, &mut out).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "recording\tspeakers\tsegments\tduration_s\tspeech_s\toverlap_s\toverlap_pct\n\
             one\t2\t2\t5.000\t5.000\t1.000\t20.0\n\
             two\t1\t1\t2.000\t1.000\t0.000\t0.0\n"
        );
    }
}
