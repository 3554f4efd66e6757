//! One module per subcommand: its flags (`Args`) and its `run`.

pub mod analyze;
pub mod convert;
pub mod cut;
pub mod detect;
pub mod generate;
pub mod info;
#[cfg(feature = "live")]
pub mod live;
#[cfg(not(feature = "live"))]
pub mod live_missing;
pub mod models;
pub mod models_pyannote;
pub mod report;
pub mod report_image;
pub mod schema;
pub mod score;
pub mod validate;
