//! Detects the format of arbitrary bytes and reads them, as `overtalk` does for a file it is
//! given without `--from`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use overtalk::format::read_bytes;

fuzz_target!(|data: &[u8]| {
    let options = overtalk_fuzz::read_options();
    let _ = read_bytes(data, None, None, &options);
});
