//! A CSV cut list: one row per clip, frames and timecode, for spreadsheets and scripts.
//!
//! Columns: `clip, speaker, note, source_in, source_out, record_in, record_out` (timecode at
//! the edit's rate), `source_in_frame, duration_frames, record_in_frame`, and
//! `source_start_s, source_end_s` (seconds, exact to the microsecond, from the frames), and
//! `media`: the file the clip plays (its angle's in a multicam cut, else the first track's).

use super::Edit;

/// The edit's clips as CSV (RFC 4180 quoting).
pub fn write(edit: &Edit<'_>) -> String {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    let r = edit.cut.rate;
    let _ = w.write_record([
        "clip",
        "speaker",
        "note",
        "source_in",
        "source_out",
        "record_in",
        "record_out",
        "source_in_frame",
        "duration_frames",
        "record_in_frame",
        "source_start_s",
        "source_end_s",
        "media",
    ]);
    for (i, c) in edit.cut.clips.iter().enumerate() {
        let secs = |f: i64| crate::time::Time::from_micros(r.micros_of(f)).to_string();
        let _ = w.write_record([
            (i + 1).to_string(),
            c.speaker.clone().unwrap_or_default(),
            c.note.clone(),
            r.timecode(c.source_in),
            r.timecode(c.source_out()),
            r.timecode(c.record_in),
            r.timecode(c.record_out()),
            c.source_in.to_string(),
            c.duration.to_string(),
            c.record_in.to_string(),
            secs(c.source_in),
            secs(c.source_out()),
            edit.media.get(edit.media_of(0, i)).map(|m| m.name.clone()).unwrap_or_default(),
        ]);
    }
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
}
