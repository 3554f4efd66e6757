//! What the XML readers (ELAN EAF, EXMARaLDA, Transcriber) share: line and column of a byte
//! offset, the next event with malformed XML as an error, the nesting limit and the root
//! element, attributes, the times of a timeline whose points may lack one, and the warning for
//! an element whose time attribute is unreadable (YouTube's srv1, srv2 and srv3).

use std::cell::Cell;

use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use crate::error::{Error, Result, WarningKind};
use crate::format::textgrid::LineIndex;
use crate::format::ReadContext;

/// An XML document being read by one format's reader.
pub(crate) struct XmlDoc<'t> {
    index: LineIndex<'t>,
    len: usize,
    /// The format's name, for limit errors (which carry no reader prefix of their own).
    format: &'static str,
    max_depth: usize,
    /// Whether the root element has been opened.
    saw_root: Cell<bool>,
}

impl<'t> XmlDoc<'t> {
    /// A document over `text`, read as `format` under the limits of `ctx`.
    pub(crate) fn new(text: &'t str, format: &'static str, ctx: &ReadContext<'_>) -> XmlDoc<'t> {
        XmlDoc {
            index: LineIndex::new(text),
            len: text.len(),
            format,
            max_depth: ctx.limits().max_depth,
            saw_root: Cell::new(false),
        }
    }

    /// 1-based line and column of byte offset `at`.
    pub(crate) fn pos(&self, at: usize) -> (usize, usize) {
        self.index.position(at)
    }

    /// An error at byte offset `at`.
    pub(crate) fn error(
        &self,
        ctx: &ReadContext<'_>,
        at: usize,
        message: impl Into<String>,
    ) -> Error {
        let (line, column) = self.pos(at);
        ctx.error(line, column, message)
    }

    /// The next event and the offset where it starts; malformed XML is an error at the offset
    /// where the parser stopped.
    pub(crate) fn next<'a>(
        &self,
        reader: &mut Reader<&'a [u8]>,
        ctx: &ReadContext<'_>,
    ) -> Result<(usize, Event<'a>)> {
        let at = reader.buffer_position() as usize;
        match reader.read_event() {
            Ok(e) => Ok((at, e)),
            Err(err) => {
                let at = reader.error_position() as usize;
                Err(self.error(ctx, at, format!("malformed XML: {err}")))
            }
        }
    }

    /// Checks an element opening at `at` with `depth` elements open around it: the nesting
    /// limit (for a start tag), and that the first element is the format's `root` (`what`
    /// names the document in the message: "an EAF file").
    pub(crate) fn opening(
        &self,
        ctx: &ReadContext<'_>,
        e: &BytesStart<'_>,
        empty: bool,
        at: usize,
        depth: usize,
        (root, what): (&str, &str),
    ) -> Result<()> {
        if !empty && depth >= self.max_depth {
            let (line, column) = self.pos(at);
            return Err(Error::limit(format!(
                "{}: line {line}, column {column}: XML nested deeper than the limit of {} elements",
                self.format, self.max_depth
            )));
        }
        if depth == 0 {
            if self.saw_root.replace(true) {
                return Err(self.error(ctx, at, "content after the root element"));
            }
            let name = e.name();
            if name.as_ref() != root.as_bytes() {
                return Err(self.error(
                    ctx,
                    at,
                    format!(
                        "root element <{}>; {what}'s root is <{root}>",
                        String::from_utf8_lossy(name.as_ref())
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Checks the end of the document: a root element seen (`missing` is the message when
    /// there was none), and nothing left open. A document that ends with elements still open
    /// (cut off in a download or a copy, or saved without its closing `</Trans>`) is read as
    /// far as it goes, with a repair warning, an error under `--strict`: what an element cut
    /// off at the end held is not read, since readers take an element when it closes.
    pub(crate) fn finish(
        &self,
        ctx: &mut ReadContext<'_>,
        open: usize,
        missing: &str,
    ) -> Result<()> {
        if !self.saw_root.get() {
            return Err(self.error(ctx, self.len, missing));
        }
        if open > 0 {
            let (line, column) = self.pos(self.len);
            ctx.warn_at(
                WarningKind::Repaired,
                line,
                Some(column),
                format!(
                    "the document ends with {open} element(s) still open (truncated?); read as far as it goes, an element cut off at the end not read"
                ),
            )?;
        }
        Ok(())
    }
}

/// The attributes of an element as `(name, unescaped value)`, or an error at `at`.
pub(crate) fn attributes(
    e: &BytesStart<'_>,
    doc: &XmlDoc<'_>,
    ctx: &ReadContext<'_>,
    at: usize,
) -> Result<Vec<(String, String)>> {
    let mut out = Vec::new();
    for a in e.attributes() {
        let a = a.map_err(|err| doc.error(ctx, at, format!("bad attribute: {err}")))?;
        let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
        let value = a
            .unescape_value()
            .map_err(|err| doc.error(ctx, at, format!("bad attribute {key}: {err}")))?;
        out.push((key, value.into_owned()));
    }
    Ok(out)
}

/// The value of attribute `name`, if present.
pub(crate) fn attr(attrs: &[(String, String)], name: &str) -> Option<String> {
    attrs.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
}

/// The times of a timeline's points, in order, where some have none (EAF time slots without a
/// `TIME_VALUE`, EXMARaLDA points without a `time`): a missing time is interpolated linearly,
/// by position, between the nearest known times before and after it, rounded half away from
/// zero, or taken from the only known neighbour; `None` when no point has a time.
///
/// ```text
/// known     0   ·   ·   900   ·
/// resolved  0  300 600  900  900
/// ```
pub(crate) fn interpolate(known: &[Option<i64>]) -> Vec<Option<i64>> {
    let mut next: Vec<Option<(usize, i64)>> = vec![None; known.len()];
    let mut following = None;
    for i in (0..known.len()).rev() {
        next[i] = following;
        if let Some(v) = known[i] {
            following = Some((i, v));
        }
    }
    let mut prev: Option<(usize, i64)> = None;
    let mut out = Vec::with_capacity(known.len());
    for i in 0..known.len() {
        out.push(match known[i] {
            Some(v) => {
                prev = Some((i, v));
                Some(v)
            }
            None => match (prev, next[i]) {
                (Some((p, vp)), Some((n, vn))) => {
                    // Exact in i128: vp + (vn − vp)·(i − p)/(n − p), half away from zero.
                    let num = i128::from(vn - vp) * (i - p) as i128;
                    let den = (n - p) as i128;
                    let q = num / den;
                    let q = if 2 * (num % den).abs() >= den { q + num.signum() } else { q };
                    Some(vp + i64::try_from(q).unwrap_or(0))
                }
                (Some((_, v)), None) | (None, Some((_, v))) => Some(v),
                (None, None) => None,
            },
        });
    }
    out
}

/// One time attribute of a timed element: its name, its value as written (if present), and
/// whether that value was read.
pub(crate) struct TimeAttr<'a> {
    /// The attribute's name (`t`, `start`, `d`, `dur`).
    pub name: &'a str,
    /// Its value as written, `None` when the element has no such attribute.
    pub value: Option<&'a str>,
    /// Whether the value was read as a time.
    pub read: bool,
}

/// Checks a timed element's start (required) and duration (optional) attributes, as YouTube's
/// timed-text formats give them: `true` when both are readable; else one
/// [`WarningKind::Skipped`] at `at` that names the element, the first unreadable attribute, its
/// value (at most 30 characters) and the `unit` the format writes times in (`<p> with t =
/// "1.5", not whole milliseconds; skipped`), unless `quiet` (an element that is no caption),
/// and `false`. Under `--strict` the warning is the error (without `; skipped`).
pub(crate) fn timed_element(
    ctx: &mut ReadContext<'_>,
    at: (usize, usize),
    element: &str,
    start: TimeAttr<'_>,
    duration: TimeAttr<'_>,
    unit: &str,
    quiet: bool,
) -> Result<bool> {
    let bad = if !start.read {
        start
    } else if duration.value.is_some() && !duration.read {
        duration
    } else {
        return Ok(true);
    };
    if !quiet {
        let shown = bad
            .value
            .map_or("none".to_owned(), |v| format!("{:?}", v.chars().take(30).collect::<String>()));
        ctx.warn_at(
            WarningKind::Skipped,
            at.0,
            Some(at.1),
            format!("{element} with {} = {shown}, not {unit}; skipped", bad.name),
        )?;
    }
    Ok(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The srv1, srv2 and srv3 readers share the warning for an unreadable time attribute,
    /// each in its own unit; under `--strict` it is the error, without `; skipped`; an srv3
    /// line break (`a="1"`) without a time is no caption and has no warning.
    #[test]
    fn an_unreadable_time_attribute_is_one_warning_in_each_format() {
        use crate::format::{read_str, Format, ReadOptions};
        let strict = ReadOptions { strict: true, ..Default::default() };
        for (format, text, lenient, refused) in [
            (
                Format::Srv1,
                "<transcript>\n<text start=\"1.5\" dur=\"-2\">a</text>\n<text start=\"4\" dur=\"1\">&gt;&gt; A: b</text></transcript>",
                "<text> with dur = \"-2\", not seconds; skipped",
                "line 2, column 1: srv1: <text> with dur = \"-2\", not seconds",
            ),
            (
                Format::Srv2,
                "<timedtext>\n<text d=\"10\">a</text>\n<text t=\"4000\" d=\"1000\">&gt;&gt; A: b</text></timedtext>",
                "<text> with t = none, not whole milliseconds; skipped",
                "line 2, column 1: srv2: <text> with t = none, not whole milliseconds",
            ),
            (
                Format::Srv3,
                "<timedtext format=\"3\"><body>\n<p t=\"1.5\" d=\"20\">a</p>\n<p a=\"1\"/>\n<p t=\"4000\" d=\"1000\">&gt;&gt; A: b</p></body></timedtext>",
                "<p> with t = \"1.5\", not whole milliseconds; skipped",
                "line 2, column 1: srv3: <p> with t = \"1.5\", not whole milliseconds",
            ),
        ] {
            let out = read_str(text, format, &ReadOptions::default()).unwrap();
            let w: Vec<_> = out
                .warnings
                .iter()
                .map(|w| (w.kind, w.line, w.column, w.message.as_str()))
                .collect();
            assert_eq!(w, [(WarningKind::Skipped, Some(2), Some(1), lenient)], "{format:?}");
            let e = read_str(text, format, &strict).unwrap_err().to_string();
            assert_eq!(e, refused, "{format:?}");
        }
    }

    #[test]
    fn missing_times_are_interpolated_by_position() {
        let got = interpolate(&[Some(0), None, None, Some(900), None]);
        assert_eq!(got, [Some(0), Some(300), Some(600), Some(900), Some(900)]);
        // Half away from zero: 1/3 of 1000 is 333, 2/3 is 667; going down, −333 and −667.
        assert_eq!(interpolate(&[Some(0), None, None, Some(1000)])[1..3], [Some(333), Some(667)]);
        assert_eq!(interpolate(&[Some(1000), None, None, Some(0)])[1..3], [Some(667), Some(333)]);
        assert_eq!(interpolate(&[None, Some(5), None]), [Some(5), Some(5), Some(5)]);
        assert_eq!(interpolate(&[None, None]), [None, None]);
    }
}
