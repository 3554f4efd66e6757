//! Reads arbitrary bytes as a paragraph transcript (Rev, Otter, YouTube …) and as a .docx, and
//! counts interruptions rule by rule: any result is fine, a panic, hang or blow-up is not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use overtalk::format::{read_bytes, Format};

fuzz_target!(|data: &[u8]| {
    let options = overtalk_fuzz::read_options();
    for (name, format) in [(None, Some(Format::Paragraphs)), (Some("t.docx"), None)] {
        if let Ok(out) = read_bytes(data, name, format, &options) {
            for (_, t) in out.corpus.iter() {
                let _ = overtalk::analysis::rules::assess(t);
            }
        }
    }
});
