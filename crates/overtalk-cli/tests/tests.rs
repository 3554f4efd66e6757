//! Integration tests of the `overtalk` binary, one module per subcommand.

mod util;

mod convert;
mod detect;
mod info;
mod misc;
