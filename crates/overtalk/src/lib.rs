//! # overtalk
//!
//! The floor of a conversation, measured: who spoke when, who held the floor, who talked over
//! whom — and diarization scoring that agrees with md-eval, dscore and pyannote.metrics.
//!
//! ## The model
//!
//! ```text
//! time        Time(i64 µs), Delta                 one rounding rule, exact equality
//! Segment     [start, end)                         half-open, never empty
//! Timeline    sorted segments (may overlap)        support, gaps, crop, extrude, segmentation
//! Region      disjoint sorted segments             UEM, speech, overlap; set algebra
//! Annotation  segments labelled with speakers      built once, then immutable
//! Transcript  annotation + text and words
//! Corpus      recording id → transcript
//! ```
//!
//! ## Dependency direction
//!
//! `time` ← `model` ← {`format`, `analysis`, `score`, `words`} ← {`events`, `output`, `report`}.
//! `events` scores the dynamics of a hypothesis against a reference with both. `output` writes
//! analyses and scores (JSON and its schema, JSONL, CSV/TSV, Markdown, terminal tables) behind
//! one exporter trait. `words` lays the
//! timed words of one transcript on the speakers of another (captions on a detection). `analysis` and `score` do not
//! know each other or `format`; they take model values and return plain result values. Nothing
//! in this crate prints or touches the terminal. `atomic` writes a file so that no reader sees
//! half of it: every front end and installer writes its files through it.
//!
//! ## Example
//!
//! ```
//! use overtalk::format::{read_str, Format, ReadOptions};
//!
//! let rttm = "SPEAKER clip 1 0.00 4.00 <NA> <NA> Wife <NA> <NA>\n\
//!             SPEAKER clip 1 3.50 1.00 <NA> <NA> Husband <NA> <NA>\n";
//! let read = read_str(rttm, Format::Rttm, &ReadOptions::default()).unwrap();
//! let clip = read.corpus.get("clip").unwrap().annotation();
//! assert_eq!(clip.overlap().duration().micros(), 500_000);
//! ```

#![deny(missing_docs)]

pub mod analysis;
pub mod atomic;
pub mod corpus_analysis;
pub mod cut;
pub mod error;
pub mod events;
pub mod format;
pub mod model;
pub mod named;
pub mod output;
pub mod report;
pub mod score;
pub mod summary;
pub mod time;
pub mod words;

pub use error::{Error, ErrorKind, Recovery, Result, Severity, Warning, WarningKind};
pub use model::{
    Annotation, AnnotationBuilder, Content, Corpus, CropMode, Mark, MarkKind, Region, Segment,
    SpeakerId, SpeakerTable, Timeline, Track, Transcript, TranscriptBuilder, Utterance, Word,
};
pub use time::{Delta, FrameGrid, Rounding, Time};
