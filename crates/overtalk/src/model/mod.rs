//! The conversation model: three layers of time, plus speakers, text and corpora.
//!
//! ```text
//! Segment      [██████)                       one half-open interval [start, end)
//! Timeline     [██████)  [███)                sorted segments, may overlap
//!                 [████████)
//! Region       [███████████████)  [██)        disjoint normalised set (UEM, speech, overlap)
//! Annotation   A [██████)     [██)            segments labelled with speakers
//!              B    [█████)
//! Transcript   Annotation + text and words per track
//! Corpus       recording id → Transcript
//! ```
//!
//! Times are integer microseconds ([`crate::time`]); every value is built once and not mutated.

mod annotation;
mod corpus;
mod region;
mod segment;
mod speaker;
mod timeline;
mod transcript;

pub use annotation::{Annotation, AnnotationBuilder, Track};
pub use corpus::Corpus;
pub use region::Region;
pub use segment::Segment;
pub use speaker::{SpeakerId, SpeakerTable};
pub use timeline::{CropMode, Timeline};
pub use transcript::{
    Content, Mark, MarkKind, Transcript, TranscriptBuilder, Untimed, Utterance, Word,
};
