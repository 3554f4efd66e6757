//! Reads arbitrary bytes as chat: any result is fine, a panic, hang or blow-up is not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use overtalk::format::{read_bytes, Format, Limits, ReadOptions};

fuzz_target!(|data: &[u8]| {
    let options = ReadOptions {
        limits: Limits { max_bytes: 1 << 20, max_line_bytes: 1 << 16, max_depth: 64, ..Limits::default() },
        ..ReadOptions::default()
    };
    let _ = read_bytes(data, None, Some(Format::Chat), &options);
});
