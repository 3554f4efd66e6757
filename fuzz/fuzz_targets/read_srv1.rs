//! Reads arbitrary bytes as YouTube srv1 (transcript XML) captions: any result is fine, a panic, hang or blow-up is not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use overtalk::format::{read_bytes, Format};

fuzz_target!(|data: &[u8]| {
    let options = overtalk_fuzz::read_options();
    let _ = read_bytes(data, None, Some(Format::Srv1), &options);
});
