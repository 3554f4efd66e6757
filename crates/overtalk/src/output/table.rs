//! The terminal table: columns aligned by display width (wide characters take two columns,
//! combining marks none), labels left-aligned and numbers right-aligned.

use super::markup::{Markup, MarkupStyle};

/// The analysis as aligned plain-text tables (an [`super::Exporter`] through `Markup`).
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// The preset name shown in the parameters line.
    pub preset: String,
}

impl Markup for Table {
    fn preset(&self) -> &str {
        &self.preset
    }

    fn style(&self) -> MarkupStyle {
        MarkupStyle::Terminal
    }
}
