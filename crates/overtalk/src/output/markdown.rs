//! Markdown: a `##` heading per conversation, pipe tables and bullet lists, for pasting into
//! notes and issues.

use super::markup::{Markup, MarkupStyle};

/// The analysis as Markdown (an [`super::Exporter`] through `Markup`).
#[derive(Debug, Clone, Default)]
pub struct Markdown {
    /// The preset name shown in the parameters line.
    pub preset: String,
}

impl Markup for Markdown {
    fn preset(&self) -> &str {
        &self.preset
    }

    fn style(&self) -> MarkupStyle {
        MarkupStyle::Markdown
    }
}
