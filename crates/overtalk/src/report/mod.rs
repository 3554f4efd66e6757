//! Reports: one self-contained HTML file per analysis or scoring run, and the conversation
//! as a picture (`svg`, rasterised to PNG by `png`).
//!
//! The report computes nothing of its own. It embeds the serialised result — the very value
//! `overtalk analyze --format json` (or the score report) writes — once, as JSON, and renders
//! the summary tables from the same value, so every number on the page is a number of the JSON
//! output. A small inline script draws the timelines from that JSON on a canvas, with an SVG
//! layer for the events a reader can point at.
//!
//! ```text
//! Analysis ─┬─► serde JSON ─► <script type="application/json"> ─► timeline (canvas + SVG)
//!           └─► tables, matrix, FTO histogram, monologues, transcript (static HTML)
//! ```
//!
//! Everything from the input (speaker names, words, file names) is escaped where it lands:
//! [`escape`] for HTML text and attributes, [`script_json`] for the embedded JSON; the script
//! only ever writes it with `textContent`. A Content-Security-Policy admits the page's own
//! inline script and style (by SHA-256 hash) and nothing from the network.

mod encode;
pub(crate) mod event_score;
pub mod html;
pub mod png;
pub mod svg;
pub mod turn_order;

pub use encode::{base64, csp_hash, escape, script_json, sha256};
pub use event_score::event_score_report;
pub use html::{
    conversation_report, score_report, Audio, ConversationView, ReportOptions, ScoreView,
    TrackAudio,
};
pub use turn_order::untimed_report;
