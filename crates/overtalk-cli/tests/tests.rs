//! Integration tests of the `overtalk` binary, one module per subcommand.

mod util;

mod convert;
mod info;
mod misc;
