//! Integration tests of the library, one module per area (analysis, formats, scoring, events, reports, cuts): one test binary, linked once.

// A failed unwrap in a test is a failed test with its location, which is what we want.
#![allow(clippy::unwrap_used)]

mod analysis_dyad;
mod analysis_golden;
mod analysis_props;
mod analysis_realdata;
mod cut_otio;
mod events;
mod formats_broadcast;
mod formats_json;
mod formats_paragraphs;
mod formats_struct;
mod formats_text;
mod formats_youtube;
mod hostile;
mod orchestration;
mod report_html;
mod report_image;
mod score_conformance;
mod score_props;
mod summary;
mod time_grid;
mod words_laid;
