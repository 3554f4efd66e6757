//! Text aligned by display columns, for every terminal table: wide characters (CJK, most emoji)
//! take two columns and combining marks none.

/// The number of terminal columns `s` takes: wide characters (CJK, most emoji) count two and
/// combining marks none, so tables of such names line up.
pub fn width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// `s` followed by spaces up to `w` columns (as `{:<w$}`, by display width).
pub fn pad_right(s: &str, w: usize) -> String {
    format!("{s}{}", " ".repeat(w.saturating_sub(width(s))))
}

/// `s` preceded by spaces up to `w` columns (as `{:>w$}`, by display width).
pub fn pad_left(s: &str, w: usize) -> String {
    format!("{}{s}", " ".repeat(w.saturating_sub(width(s))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_counts_display_columns() {
        assert_eq!(width("王芳"), 4);
        assert_eq!(width("e\u{301}"), 1, "a combining accent takes no column");
        assert_eq!(pad_right("王芳", 6), "王芳  ");
        assert_eq!(pad_left("王芳", 6), "  王芳");
        assert_eq!(pad_right("Husband", 4), "Husband", "never truncated");
    }
}
