//! Reads arbitrary bytes as a paragraph transcript (Rev, Otter, YouTube …) and as a .docx, and
//! counts interruptions rule by rule: any result is fine, a panic, hang or blow-up is not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use overtalk::format::{read_bytes, Format, Limits, ReadOptions};

fuzz_target!(|data: &[u8]| {
    let options = ReadOptions {
        limits: Limits { max_bytes: 1 << 20, max_line_bytes: 1 << 16, max_depth: 64, ..Limits::default() },
        ..ReadOptions::default()
    };
    for (name, format) in [(None, Some(Format::Paragraphs)), (Some("t.docx"), None)] {
        if let Ok(out) = read_bytes(data, name, format, &options) {
            for (_, t) in out.corpus.iter() {
                let _ = overtalk::analysis::rules::assess(t);
            }
        }
    }
});
