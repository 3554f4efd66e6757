//! What every fuzz target shares: the read options under which arbitrary bytes are read.
//!
//! The limits are smaller than the library's defaults so that a blow-up (a line, a nesting
//! depth or an input far larger than any real file) is found in seconds, not hours: a reader
//! must refuse such input with an error, never allocate without bound.

use overtalk::format::{Limits, ReadOptions};

/// The read options of every fuzz target: 1 MiB of input, 64 KiB lines, nesting depth 64.
pub fn read_options() -> ReadOptions {
    ReadOptions {
        limits: Limits { max_bytes: 1 << 20, max_line_bytes: 1 << 16, max_depth: 64, ..Limits::default() },
        ..ReadOptions::default()
    }
}
