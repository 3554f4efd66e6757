//! Lines out of time order, warned about once per file.
//!
//! Line-based formats (RTTM, STM, CTM, paragraph transcripts) may list their lines in any order;
//! readers sort them. A file edited by hand or concatenated from parts can have thousands of
//! such lines, so a warning per line (or per recording) would bury every other warning. Instead
//! the first line out of order gets one [`WarningKind::Unsorted`] warning, where it is found (so
//! warnings stay in line order), and when the file is read its message is replaced by the count:
//!
//! ```text
//! line 2  SPEAKER a 1 2.0 …    ┐
//! line 3  SPEAKER a 1 0.0 …    ├ "2 lines out of time order (first at line 3); sorted on reading"
//! line 4  SPEAKER a 1 1.0 …    ┘   (one warning, at line 3)
//! ```
//!
//! A line is out of time order when it starts before a line above it of the same recording.

use std::collections::BTreeSet;

use crate::error::{Result, WarningKind};
use crate::format::ReadContext;
use crate::time::Time;

/// Counts the lines of one file that start before an earlier line of their recording.
#[derive(Debug)]
pub(crate) struct OutOfOrder<'t> {
    /// What a line is called in the message (`line`, `paragraph`).
    what: &'static str,
    /// What the reader does about it, ending the message.
    then: &'static str,
    count: usize,
    first: Option<usize>,
    recordings: BTreeSet<&'t str>,
}

impl<'t> OutOfOrder<'t> {
    /// Lines that are sorted on reading.
    pub(crate) fn lines() -> OutOfOrder<'t> {
        OutOfOrder::new("line", "sorted on reading")
    }

    /// Out-of-order items called `what` (singular), about which the reader does `then`.
    pub(crate) fn new(what: &'static str, then: &'static str) -> OutOfOrder<'t> {
        OutOfOrder { what, then, count: 0, first: None, recordings: BTreeSet::new() }
    }

    /// Checks the line `line` of `recording` starting at `start`, where `latest` is the latest
    /// start of that recording so far (updated here). The first line out of order is warned
    /// about at `line` and `column`.
    pub(crate) fn check(
        &mut self,
        ctx: &mut ReadContext<'_>,
        recording: &'t str,
        latest: &mut Time,
        start: Time,
        line: usize,
        column: Option<usize>,
    ) -> Result<()> {
        if start < *latest {
            self.found(ctx, recording, line, column)?;
        }
        *latest = (*latest).max(start);
        Ok(())
    }

    /// Counts the line `line` of `recording` as out of order (the reader decided it is).
    pub(crate) fn found(
        &mut self,
        ctx: &mut ReadContext<'_>,
        recording: &'t str,
        line: usize,
        column: Option<usize>,
    ) -> Result<()> {
        self.count += 1;
        self.recordings.insert(recording);
        if self.first.is_none() {
            self.first = Some(line);
            let message = self.message(1);
            ctx.warn_at(WarningKind::Unsorted, line, column, message)?;
        }
        Ok(())
    }

    /// Gives the one warning its count, once the file is read; `recordings` is how many the file
    /// holds (named in the message when it is more than one).
    pub(crate) fn finish(self, ctx: &mut ReadContext<'_>, recordings: usize) {
        if self.count > 0 {
            let message = self.message(recordings);
            ctx.amend_first(WarningKind::Unsorted, message);
        }
    }

    fn message(&self, recordings: usize) -> String {
        let first = self.first.unwrap_or(0);
        let (what, n) = (self.what, self.count);
        let head = if n == 1 {
            format!("1 {what} out of time order (line {first})")
        } else {
            format!("{n} {what}s out of time order (first at line {first})")
        };
        if recordings > 1 {
            let k = self.recordings.len();
            let names: Vec<&str> = self.recordings.iter().copied().take(3).collect();
            let more = if k > 3 { ", …" } else { "" };
            format!(
                "{head}, in {k} of {recordings} recordings ({}{more}); {}",
                names.join(", "),
                self.then
            )
        } else {
            format!("{head}; {}", self.then)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{Format, ReadOptions};

    #[test]
    fn one_warning_per_file_with_the_count_and_the_first_line() {
        let options = ReadOptions::default();
        let mut ctx = ReadContext::new(Format::Rttm, &options);
        let mut o = OutOfOrder::lines();
        let (mut a, mut b) = (Time::from_micros(i64::MIN), Time::from_micros(i64::MIN));
        let lines = [("a", 5, 1), ("b", 9, 2), ("a", 6, 3), ("b", 2, 4), ("b", 3, 5), ("b", 10, 6)];
        for (rec, start, line) in lines {
            let latest = if rec == "a" { &mut a } else { &mut b };
            o.check(&mut ctx, rec, latest, Time::from_micros(start), line, Some(13)).unwrap();
        }
        o.finish(&mut ctx, 2);
        let w = ctx.into_warnings();
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!((w[0].kind, w[0].line, w[0].column), (WarningKind::Unsorted, Some(4), Some(13)));
        assert_eq!(
            w[0].message,
            "2 lines out of time order (first at line 4), in 1 of 2 recordings (b); sorted on reading"
        );
    }
}
