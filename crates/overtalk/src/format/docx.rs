//! The text of a Word `.docx` file, for the paragraph transcripts Rev and Otter deliver as Word
//! documents ([`super::paragraphs`] reads the text).
//!
//! A `.docx` is a zip archive; its body is the XML member `word/document.xml`. Each `<w:p>`
//! paragraph becomes one line; `<w:t>` runs are its text, `<w:tab/>` a tab and `<w:br/>` or
//! `<w:cr/>` a line break. Everything else (styles, comments, headers, images) is ignored.
//!
//! ```text
//! report.docx ──zip──► word/document.xml ──<w:p>/<w:t>──► "Speaker 1  0:04\nSo the plan…\n"
//! ```
//!
//! Hostile input: a file that is not a zip archive, a zip without `word/document.xml`, corrupt
//! compressed data, or XML that does not parse are errors saying which; the member is inflated
//! with a cap ([`Limits::max_bytes`]), so a zip bomb is a limit error; XML nesting is capped at
//! [`Limits::max_depth`].

use std::io::Read;

use quick_xml::events::Event;
use quick_xml::Reader;

use crate::error::{Error, Result};
use crate::format::Limits;

/// The member holding the document body.
const BODY: &str = "word/document.xml";

fn parse_error(message: impl Into<String>) -> Error {
    Error::parse("docx", 1, 1, message)
}

/// Whether `bytes` start like a zip archive.
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// The uncompressed bytes of member `name`, at most `max` bytes (the archive is read by the
/// `zip` crate; whatever compression it reads, a member larger than `max` is a limit error before
/// and while it is inflated, so a zip bomb stops at the cap).
fn member(bytes: &[u8], name: &str, max: usize) -> Result<Vec<u8>> {
    if !is_zip(bytes) {
        return Err(parse_error(
            "not a .docx: a .docx file is a zip archive, and this file does not start with the zip signature \"PK\\x03\\x04\" (a .doc, .rtf or text file renamed? save it as .docx or .txt)",
        ));
    }
    let too_big = |size: u64| {
        Error::limit(format!(
            "docx: {name} is {size} bytes uncompressed or more, more than the limit of {max} bytes"
        ))
    };
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes))
        .map_err(|e| parse_error(format!("corrupt .docx (truncated?): {e}")))?;
    let mut file = match archive.by_name(name) {
        Ok(file) => file,
        Err(zip::result::ZipError::FileNotFound) => {
            return Err(parse_error(format!("not a Word document: the zip archive has no {name}")))
        }
        Err(e) => return Err(parse_error(format!("corrupt .docx: {name}: {e}"))),
    };
    if file.size() > max as u64 {
        return Err(too_big(file.size()));
    }
    let mut out = Vec::new();
    (&mut file)
        .take(max as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| parse_error(format!("corrupt .docx: bad compressed data in {name}: {e}")))?;
    if out.len() > max {
        return Err(too_big(out.len() as u64));
    }
    Ok(out)
}

/// The text of a `.docx`: one line per paragraph (see the module doc).
pub fn text(bytes: &[u8], limits: &Limits) -> Result<String> {
    let xml = member(bytes, BODY, limits.max_bytes)?;
    let xml =
        std::str::from_utf8(&xml).map_err(|_| parse_error(format!("{BODY} is not UTF-8 text")))?;
    let mut reader = Reader::from_str(xml);
    let mut out = String::new();
    let mut depth = 0usize;
    let mut in_text = false;
    loop {
        let pos = reader.buffer_position() as usize;
        let event = reader.read_event().map_err(|e| {
            let (line, column) = crate::format::position_of(xml, pos);
            Error::parse("docx", line, column, format!("{BODY}: {e}"))
        })?;
        match event {
            Event::Start(e) => {
                depth += 1;
                if depth > limits.max_depth {
                    return Err(Error::limit(format!(
                        "docx: {BODY} is nested deeper than the limit of {} elements",
                        limits.max_depth
                    )));
                }
                in_text = e.local_name().as_ref() == b"t";
            }
            Event::Empty(e) => match e.local_name().as_ref() {
                b"tab" => out.push('\t'),
                b"br" | b"cr" => out.push('\n'),
                b"p" => out.push('\n'),
                _ => {}
            },
            Event::End(e) => {
                depth = depth.saturating_sub(1);
                in_text = false;
                if e.local_name().as_ref() == b"p" {
                    out.push('\n');
                }
            }
            Event::Text(t) if in_text => {
                let s = t.unescape().map_err(|e| parse_error(format!("{BODY}: bad text: {e}")))?;
                out.push_str(&s);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    Ok(out)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A zip archive with the given members, each stored or deflated, as Word would write it.
    pub(crate) fn zip(members: &[(&str, &[u8], bool)]) -> Vec<u8> {
        use std::io::Write;
        use zip::write::SimpleFileOptions;
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (name, data, deflate) in members {
            let method = if *deflate {
                zip::CompressionMethod::Deflated
            } else {
                zip::CompressionMethod::Stored
            };
            w.start_file(*name, SimpleFileOptions::default().compression_method(method))
                .expect("a member starts");
            w.write_all(data).expect("a member is written");
        }
        w.finish().expect("the archive is finished").into_inner()
    }

    /// A `.docx` whose paragraphs are `lines` (each a `<w:p>` of one run), deflated.
    pub(crate) fn deflated_docx(lines: &[&str]) -> Vec<u8> {
        let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n<w:document xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\"><w:body>");
        for l in lines {
            let escaped = l.replace('&', "&amp;").replace('<', "&lt;");
            xml.push_str(&format!("<w:p><w:pPr><w:jc w:val=\"left\"/></w:pPr><w:r><w:t xml:space=\"preserve\">{escaped}</w:t></w:r></w:p>"));
        }
        xml.push_str("<w:sectPr/></w:body></w:document>");
        zip(&[("[Content_Types].xml", b"<Types/>", false), (BODY, xml.as_bytes(), true)])
    }

    #[test]
    fn paragraphs_runs_tabs_and_breaks() {
        let xml = "<w:document xmlns:w=\"w\"><w:body><w:p><w:r><w:t>Speaker 1</w:t></w:r><w:r><w:tab/><w:t>0:04</w:t></w:r></w:p><w:p><w:r><w:t>So &amp; then</w:t><w:br/><w:t>more</w:t></w:r></w:p><w:p/></w:body></w:document>";
        let z = zip(&[(BODY, xml.as_bytes(), false)]);
        assert_eq!(text(&z, &Limits::default()).unwrap(), "Speaker 1\t0:04\nSo & then\nmore\n\n");
        let d = deflated_docx(&["Ana (00:01):", "hi <there>"]);
        assert_eq!(text(&d, &Limits::default()).unwrap(), "Ana (00:01):\nhi <there>\n");
    }

    #[test]
    fn hostile_containers_are_clear_errors() {
        let e = text(b"Speaker 1  0:04\nhello\n", &Limits::default()).unwrap_err();
        assert!(e.to_string().contains("not a .docx"), "{e}");
        assert_eq!((e.line(), e.column()), (Some(1), Some(1)));
        let e = text(b"PK\x03\x04garbage", &Limits::default()).unwrap_err();
        assert!(e.to_string().contains("corrupt .docx"), "{e}");
        let no_body = zip(&[("word/other.xml", b"<x/>", false)]);
        let e = text(&no_body, &Limits::default()).unwrap_err();
        assert!(e.to_string().contains("no word/document.xml"), "{e}");
        let big = deflated_docx(&[&"a".repeat(10_000)]);
        let limits = Limits { max_bytes: 1000, ..Limits::default() };
        assert!(matches!(text(&big, &limits).unwrap_err().kind(), crate::ErrorKind::Limit(_)));
        let bad_xml = zip(&[(BODY, b"<w:p><w:t>x</w:q></w:p>", false)]);
        assert!(text(&bad_xml, &Limits::default()).is_err());
    }
}
