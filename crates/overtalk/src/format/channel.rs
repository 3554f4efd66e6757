//! Channels of line-based NIST formats (RTTM, STM), which the model does not keep.
//!
//! An RTTM or STM line names a file and a channel. overtalk reads a recording per file, as
//! dscore and pyannote.metrics do (md-eval scores each channel apart), and writes channel 1.
//! That is lossless for the usual file, where every line is on channel 1; otherwise one
//! [`WarningKind::Note`] per file says what was not kept, at the first line concerned:
//!
//! ```text
//! line 1  SPEAKER conv1 1 0.0 2.0 … A   ┐ conv1 is on channels 1 and 2: read as one
//! line 2  SPEAKER conv1 2 1.5 1.0 … B   ┘ conversation, so A and B overlap 1.5–2.0 s
//! line 3  SPEAKER conv2 A 0.0 1.0 … C     channel A is written as 1
//! ```
//!
//! Two channels of one file are usually the two sides of one call (telephone corpora put each
//! side on its own channel), where overlap across channels is overlap in the conversation.

use std::collections::BTreeSet;

use rustc_hash::FxHashMap;

use crate::error::{Result, WarningKind};
use crate::format::ReadContext;

/// How many channel and recording names a message lists.
const LISTED: usize = 4;

/// The channels seen per recording of one file.
#[derive(Debug, Default)]
pub(crate) struct Channels<'t> {
    /// The channels of each recording, in order of first appearance.
    per: FxHashMap<&'t str, Vec<&'t str>>,
    /// The recording and channel of the previous line (files hold runs of one).
    last: Option<(&'t str, &'t str)>,
    /// The first line on a channel other than `1`, or on a second channel of its recording.
    first: Option<(usize, usize)>,
}

impl<'t> Channels<'t> {
    /// Records that line `line` of `recording` is on `channel` (named at `column`).
    pub(crate) fn see(&mut self, recording: &'t str, channel: &'t str, line: usize, column: usize) {
        if self.last == Some((recording, channel)) {
            return;
        }
        self.last = Some((recording, channel));
        let seen = self.per.entry(recording).or_default();
        if !seen.contains(&channel) {
            seen.push(channel);
            if self.first.is_none() && (channel != "1" || seen.len() > 1) {
                self.first = Some((line, column));
            }
        }
    }

    /// Notes what was not kept, once the file is read (nothing when every line is on channel 1).
    pub(crate) fn finish(self, ctx: &mut ReadContext<'_>) -> Result<()> {
        let Some((line, column)) = self.first else { return Ok(()) };
        let mut several: Vec<(&str, &Vec<&str>)> =
            self.per.iter().filter(|(_, c)| c.len() > 1).map(|(r, c)| (*r, c)).collect();
        several.sort_unstable();
        let names: BTreeSet<&str> =
            self.per.values().flatten().copied().filter(|c| *c != "1").collect();
        let message = if several.is_empty() {
            format!(
                "lines are on channel {} (not 1); the channel is not kept and is written as 1",
                list(names.iter().copied(), names.len())
            )
        } else {
            let k = several.len();
            let shown = several
                .iter()
                .take(LISTED)
                .map(|(r, c)| format!("{r}: {}", list(c.iter().copied(), c.len())))
                .collect::<Vec<_>>()
                .join("; ");
            let more = if k > LISTED { "; …" } else { "" };
            format!(
                "{k} recording(s) have lines on more than one channel ({shown}{more}); channels are not kept: each recording is read as one conversation, so speech on different channels can overlap (as dscore and pyannote.metrics read it; md-eval scores each channel apart), and is written as channel 1"
            )
        };
        ctx.warn_at(WarningKind::Note, line, Some(column), message)
    }
}

/// `a, b, c, …` of the first [`LISTED`] of `n` names.
fn list<'a>(names: impl Iterator<Item = &'a str>, n: usize) -> String {
    let shown: Vec<&str> = names.take(LISTED).collect();
    let more = if n > LISTED { ", …" } else { "" };
    format!("{}{more}", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{Format, ReadOptions};

    fn notes(
        lines: &[(&'static str, &'static str)],
    ) -> Vec<(Option<usize>, Option<usize>, String)> {
        let options = ReadOptions::default();
        let mut ctx = ReadContext::new(Format::Rttm, &options);
        let mut c = Channels::default();
        for (n, (rec, ch)) in lines.iter().enumerate() {
            c.see(rec, ch, n + 1, 14);
        }
        c.finish(&mut ctx).unwrap();
        ctx.into_warnings().into_iter().map(|w| (w.line, w.column, w.message)).collect()
    }

    #[test]
    fn channel_one_everywhere_is_silent() {
        assert_eq!(notes(&[("a", "1"), ("b", "1"), ("a", "1")]), vec![]);
    }

    #[test]
    fn another_channel_is_noted_once() {
        assert_eq!(
            notes(&[("a", "1"), ("b", "A"), ("b", "A"), ("c", "B")]),
            vec![(
                Some(2),
                Some(14),
                "lines are on channel A, B (not 1); the channel is not kept and is written as 1"
                    .to_owned()
            )]
        );
    }

    #[test]
    fn a_recording_on_two_channels_says_that_they_can_overlap() {
        let w = notes(&[("conv1", "1"), ("conv1", "2"), ("conv1", "1"), ("conv2", "1")]);
        assert_eq!(w.len(), 1);
        assert_eq!((w[0].0, w[0].1), (Some(2), Some(14)));
        assert!(
            w[0].2.starts_with(
                "1 recording(s) have lines on more than one channel (conv1: 1, 2); channels are not kept: each recording is read as one conversation, so speech on different channels can overlap"
            ),
            "{}",
            w[0].2
        );
    }
}
