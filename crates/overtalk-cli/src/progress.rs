//! Progress bars on standard error for the long steps (decoding, detection, diarization).
//!
//! Bars appear only when standard error is a terminal and `--quiet` is not given, so scripts
//! and pipes never see them.

use std::io::IsTerminal;
use std::path::Path;
use std::time::Duration;

use overtalk::Delta;

use crate::app::Globals;

/// A bar counting seconds of audio, or `None` when progress is not shown.
pub(crate) fn seconds_bar(globals: Globals) -> Option<indicatif::ProgressBar> {
    if globals.quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(0);
    let style =
        indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} s ({eta})")
            .map(|s| s.progress_chars("=> "))
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    Some(bar)
}

/// Shows `done` of `total` seconds of `path` on `bar`.
pub(crate) fn show_seconds(
    bar: &indicatif::ProgressBar,
    path: &Path,
    done: Delta,
    total: Option<Delta>,
) {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    bar.set_message(name);
    if let Some(total) = total {
        bar.set_length(total.micros().max(0) as u64 / 1_000_000);
    }
    bar.set_position(done.micros().max(0) as u64 / 1_000_000);
}

/// A spinner with elapsed time for a step whose length is not known in advance, or `None`
/// when progress is not shown.
pub(crate) fn spinner(globals: Globals, message: &str) -> Option<indicatif::ProgressBar> {
    if globals.quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg} ({elapsed})") {
        bar.set_style(style);
    }
    bar.set_message(message.to_owned());
    bar.enable_steady_tick(Duration::from_millis(120));
    Some(bar)
}

/// A spinner for a step whose progress is known as a share (telling speakers apart), that
/// turns into a bar in percent, with the time left, at the first share reported by
/// [`show_share`] (a step that reports none stays a spinner); `None` when progress is not shown.
pub(crate) fn percent_bar(globals: Globals, message: &str) -> Option<indicatif::ProgressBar> {
    let bar = spinner(globals, message)?;
    bar.set_length(1000);
    Some(bar)
}

/// Shows `share` (0 to 1) of the step done on a [`percent_bar`].
pub(crate) fn show_share(bar: &indicatif::ProgressBar, share: f64) {
    let permille = (share.clamp(0.0, 1.0) * 1000.0).round() as u64;
    if bar.position() == 0 {
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{spinner} {msg} [{bar:30}] {percent:>3} % ({elapsed}, {eta} left)",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
    }
    // Threads report out of order: the bar never goes back.
    if permille > bar.position() {
        bar.set_position(permille);
    }
}
