//! Reads arbitrary bytes as UEM: any result is fine, a panic, hang or blow-up is not.
#![no_main]

use libfuzzer_sys::fuzz_target;
use overtalk::format::uem;

fuzz_target!(|data: &[u8]| {
    let _ = uem::read_bytes(data, &overtalk_fuzz::read_options());
});
