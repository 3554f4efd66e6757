//! CMX3600 edit decision lists (`.edl`), in the dialect each editor's importer expects.
//!
//! ```text
//! TITLE: interview without Husband
//! FCM: DROP FRAME
//!
//! 001  AX       A     C        00:00:00;00 00:00:04;09 00:00:00;00 00:00:04;09
//! * FROM CLIP NAME: interview.wav
//! ```
//!
//! One EDL holds one track of one source per event line, so an edit with several media (one
//! per speaker's microphone) is written as one EDL per media ([`write_all`]); importers put
//! each on its own track. Timecode is drop-frame (`;`) at 29.97/59.94 DF and non-drop
//! otherwise, with the `FCM` line saying which; source timecode assumes the media starts at
//! `00:00:00:00`. CMX3600 numbers events 001–999; longer lists continue with four digits, which
//! Premiere, Resolve and OpenTimelineIO read.
//!
//! | style | reel | comments | why |
//! | --- | --- | --- | --- |
//! | `premiere` | `AX` | `* FROM CLIP NAME:` the file name | Premiere relinks `AX` events by clip name; other `FROM` comments make it name clips UNKNOWN |
//! | `resolve` | file stem, ≤ 32 characters | `* FROM CLIP NAME:`, `* SOURCE FILE:` | Resolve conforms by source file name or reel |
//! | `avid` | file stem, 8 characters `A–Z 0–9` | `* FROM CLIP NAME:`, `* FROM CLIP:` path | Media Composer's 8-character reels (the CMX limit) |
//!
//! A multicam cut ([`Edit::angles`]) is one EDL whose events switch reel: each event names its
//! angle's reel and file, so a conform relinks every speaker's camera. Reels of different
//! media that would read alike (two stems with the same first 8 characters) end in the
//! media's number instead (`INTERVI2`); Premiere's `AX` events are told apart by clip name.

use super::{Edit, Media};

/// The dialect of an EDL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Adobe Premiere Pro.
    Premiere,
    /// DaVinci Resolve.
    Resolve,
    /// Avid Media Composer (and plain CMX3600).
    Avid,
}

impl Style {
    /// Every style, in documentation order.
    pub const ALL: [Style; 3] = [Style::Premiere, Style::Resolve, Style::Avid];

    /// The name on the command line (`--style`).
    pub fn name(self) -> &'static str {
        match self {
            Style::Premiere => "premiere",
            Style::Resolve => "resolve",
            Style::Avid => "avid",
        }
    }
}

impl crate::named::Named for Style {
    fn all() -> &'static [Style] {
        &Style::ALL
    }
    fn name(self) -> &'static str {
        Style::name(self)
    }
}

impl std::fmt::Display for Style {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Reads a name of [`Style::ALL`], in any case, or an alias (`davinci`, `cmx`, `cmx3600`).
impl std::str::FromStr for Style {
    type Err = String;
    fn from_str(s: &str) -> Result<Style, String> {
        match s.to_ascii_lowercase().as_str() {
            "premiere" => Ok(Style::Premiere),
            "resolve" | "davinci" => Ok(Style::Resolve),
            "avid" | "cmx" | "cmx3600" => Ok(Style::Avid),
            _ => Err(format!("unknown EDL style {s:?} (premiere, resolve or avid)")),
        }
    }
}

/// The reel name of `media` in a style.
pub fn reel(media: &Media, style: Style) -> String {
    let stem = media.name.rsplit_once('.').map_or(media.name.as_str(), |(s, _)| s);
    match style {
        Style::Premiere => "AX".to_owned(),
        Style::Resolve => {
            let r: String = stem
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' })
                .take(32)
                .collect();
            if r.is_empty() {
                "AX".to_owned()
            } else {
                r
            }
        }
        Style::Avid => {
            let r: String = stem
                .chars()
                .filter(char::is_ascii_alphanumeric)
                .map(|c| c.to_ascii_uppercase())
                .take(8)
                .collect();
            if r.is_empty() {
                "AX".to_owned()
            } else {
                r
            }
        }
    }
}

/// The channel field: `V` plus `AA` for video (`AA/V`), `A` for mono sound, `AA` for stereo.
fn channels(media: &Media) -> &'static str {
    match (media.video, media.channels) {
        (true, _) => "AA/V",
        (false, 0 | 1) => "A",
        (false, _) => "AA",
    }
}

/// Keeps a comment on one line (no CR/LF).
fn one_line(s: &str) -> String {
    s.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// The reel of every media of the edit, made distinct where two would read alike
/// (Premiere's `AX` excepted: it relinks by clip name).
pub fn reels(edit: &Edit<'_>, style: Style) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(edit.media.len());
    let limit: usize = if style == Style::Avid { 8 } else { 32 };
    for (m, media) in edit.media.iter().enumerate() {
        let mut r = reel(media, style);
        let stem = r.clone();
        let mut n = m + 1;
        while style != Style::Premiere && out.contains(&r) {
            let tail = n.to_string();
            let keep = stem.chars().count().min(limit.saturating_sub(tail.len()));
            r = stem.chars().take(keep).collect::<String>() + &tail;
            n += edit.media.len();
        }
        out.push(r);
    }
    out
}

/// The EDL of track `track` (the media at that index; the one track of a multicam cut).
pub fn write(edit: &Edit<'_>, track: usize, style: Style) -> String {
    let r = edit.cut.rate;
    let track = track.min(edit.media.len().saturating_sub(1));
    let mut s = String::new();
    let title: String = one_line(edit.name).chars().take(70).collect();
    s.push_str(&format!("TITLE: {title}\n"));
    s.push_str(if r.drop_frame { "FCM: DROP FRAME\n" } else { "FCM: NON-DROP FRAME\n" });
    let reels = reels(edit, style);
    for (i, c) in edit.cut.clips.iter().enumerate() {
        let m = edit.media_of(track, i);
        let media = &edit.media[m];
        s.push('\n');
        s.push_str(&format!(
            "{:03}  {:<8} {:<5} C        {} {} {} {}\n",
            i + 1,
            reels[m],
            channels(media),
            r.timecode(c.source_in),
            r.timecode(c.source_out()),
            r.timecode(c.record_in),
            r.timecode(c.record_out())
        ));
        s.push_str(&format!("* FROM CLIP NAME: {}\n", one_line(&media.name)));
        match style {
            Style::Premiere => {}
            Style::Resolve => s.push_str(&format!("* SOURCE FILE: {}\n", one_line(&media.path))),
            Style::Avid => s.push_str(&format!("* FROM CLIP: {}\n", one_line(&media.path))),
        }
        if !c.note.is_empty() && style != Style::Premiere {
            s.push_str(&format!("* COMMENT: {}\n", one_line(&c.note)));
        }
    }
    s
}

/// One EDL per track: `(media index, text)` (one EDL for a multicam cut).
pub fn write_all(edit: &Edit<'_>, style: Style) -> Vec<(usize, String)> {
    (0..edit.track_count()).map(|m| (m, write(edit, m, style))).collect()
}
