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

use quick_xml::events::Event;
use quick_xml::Reader;

use crate::error::{Error, Result};
use crate::format::Limits;

/// The member holding the document body.
const BODY: &str = "word/document.xml";

fn parse_error(message: impl Into<String>) -> Error {
    Error::parse("docx", 1, 1, message)
}

fn u16_at(b: &[u8], at: usize) -> Result<u16> {
    b.get(at..at.saturating_add(2))
        .map(|s| u16::from_le_bytes([s[0], s[1]]))
        .ok_or_else(|| parse_error("truncated zip archive"))
}

fn u32_at(b: &[u8], at: usize) -> Result<u32> {
    b.get(at..at.saturating_add(4))
        .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
        .ok_or_else(|| parse_error("truncated zip archive"))
}

/// Whether `bytes` start like a zip archive.
pub fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04")
}

/// The uncompressed bytes of member `name` (stored or deflated), at most `max` bytes.
fn member(zip: &[u8], name: &str, max: usize) -> Result<Vec<u8>> {
    if !is_zip(zip) {
        return Err(parse_error(
            "not a .docx: a .docx file is a zip archive, and this file does not start with the zip signature \"PK\\x03\\x04\" (a .doc, .rtf or text file renamed? save it as .docx or .txt)",
        ));
    }
    // End of central directory: signature 0x06054b50 within the last 64 KiB + 22 bytes.
    let lo = zip.len().saturating_sub(65_557);
    let eocd = (lo..zip.len().saturating_sub(21))
        .rev()
        .find(|&i| zip[i..i + 4] == [0x50, 0x4b, 0x05, 0x06])
        .ok_or_else(|| {
            parse_error("corrupt .docx: no zip end of central directory (truncated?)")
        })?;
    let entries = u16_at(zip, eocd + 10)? as usize;
    let mut at = u32_at(zip, eocd + 16)? as usize;
    for _ in 0..entries {
        if u32_at(zip, at)? != 0x0201_4b50 {
            return Err(parse_error("corrupt .docx: bad zip central directory"));
        }
        let method = u16_at(zip, at + 10)?;
        let csize = u32_at(zip, at + 20)? as usize;
        let size = u32_at(zip, at + 24)? as usize;
        let nlen = u16_at(zip, at + 28)? as usize;
        let elen = u16_at(zip, at + 30)? as usize;
        let clen = u16_at(zip, at + 32)? as usize;
        let local = u32_at(zip, at + 42)? as usize;
        let ename = zip
            .get(at + 46..at + 46 + nlen)
            .ok_or_else(|| parse_error("corrupt .docx: truncated zip central directory"))?;
        if ename == name.as_bytes() {
            if u32_at(zip, local)? != 0x0403_4b50 {
                return Err(parse_error("corrupt .docx: bad zip local header"));
            }
            let start = local
                .saturating_add(30)
                .saturating_add(u16_at(zip, local + 26)? as usize)
                .saturating_add(u16_at(zip, local + 28)? as usize);
            let data = zip
                .get(start..start.saturating_add(csize))
                .ok_or_else(|| parse_error(format!("corrupt .docx: {name} is truncated")))?;
            if size > max {
                return Err(Error::limit(format!(
                    "docx: {name} is {size} bytes uncompressed, more than the limit of {max} bytes"
                )));
            }
            return match method {
                0 => Ok(data.to_vec()),
                8 => miniz_oxide::inflate::decompress_to_vec_with_limit(data, max).map_err(|e| {
                    parse_error(format!("corrupt .docx: bad compressed data in {name}: {e:?}"))
                }),
                m => Err(Error::unsupported(format!(
                    "docx: {name} uses zip compression method {m}; only stored and deflated are read"
                ))),
            };
        }
        at = at.saturating_add(46 + nlen + elen + clen);
    }
    Err(parse_error(format!("not a Word document: the zip archive has no {name}")))
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

    /// A stored (uncompressed) zip with the given members, as Word would write it (deflated
    /// members are tested through [`deflated_docx`]).
    pub(crate) fn zip(members: &[(&str, &[u8], bool)]) -> Vec<u8> {
        let mut out = Vec::new();
        let mut central = Vec::new();
        for (name, data, deflate) in members {
            let body = if *deflate {
                miniz_oxide::deflate::compress_to_vec(data, 6)
            } else {
                data.to_vec()
            };
            let offset = out.len() as u32;
            let method: u16 = if *deflate { 8 } else { 0 };
            out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
            out.extend_from_slice(&[20, 0, 0, 0]);
            out.extend_from_slice(&method.to_le_bytes());
            out.extend_from_slice(&[0; 8]); // time, date, crc
            out.extend_from_slice(&(body.len() as u32).to_le_bytes());
            out.extend_from_slice(&(data.len() as u32).to_le_bytes());
            out.extend_from_slice(&(name.len() as u16).to_le_bytes());
            out.extend_from_slice(&0u16.to_le_bytes());
            out.extend_from_slice(name.as_bytes());
            out.extend_from_slice(&body);
            central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
            central.extend_from_slice(&[20, 0, 20, 0, 0, 0]);
            central.extend_from_slice(&method.to_le_bytes());
            central.extend_from_slice(&[0; 8]);
            central.extend_from_slice(&(body.len() as u32).to_le_bytes());
            central.extend_from_slice(&(data.len() as u32).to_le_bytes());
            central.extend_from_slice(&(name.len() as u16).to_le_bytes());
            central.extend_from_slice(&[0; 12]); // extra, comment, disk, attributes
            central.extend_from_slice(&offset.to_le_bytes());
            central.extend_from_slice(name.as_bytes());
        }
        let cd_offset = out.len() as u32;
        out.extend_from_slice(&central);
        out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
        out.extend_from_slice(&[0; 4]);
        let n = members.len() as u16;
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&n.to_le_bytes());
        out.extend_from_slice(&(central.len() as u32).to_le_bytes());
        out.extend_from_slice(&cd_offset.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out
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
        assert!(e.to_string().contains("end of central directory"), "{e}");
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
