//! One module per subcommand: its flags (`Args`) and its `run`.

pub mod convert;
pub mod detect;
pub mod generate;
pub mod info;
pub mod models;
