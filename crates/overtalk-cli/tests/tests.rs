//! Integration tests of the `overtalk` binary, one module per subcommand.

// A failed unwrap in the harness is a failed test with its location, which is what we want.
#![allow(clippy::unwrap_used)]

mod util;

mod agreement;
mod analyze;
mod chat_markers;
mod convert;
mod cut;
mod detect;
mod end_to_end;
mod events;
mod info;
mod live;
mod misc;
mod paragraphs;
mod pyannote;
mod report_image;
mod strict;
mod words;
