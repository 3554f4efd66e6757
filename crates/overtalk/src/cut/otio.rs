//! OpenTimelineIO JSON (`.otio`): a `Timeline.1` with one track per media, clips and gaps
//! at the edit's rate.
//!
//! ```text
//! Timeline ─ Stack ─┬─ Track (Audio|Video) ─ [Gap] Clip Clip [Gap] Clip …
//!                   └─ Track …                 one per media, the same cuts
//! ```
//!
//! A multicam cut ([`Edit::angles`]) is one track whose clips each reference their angle's
//! media (a `Video` track when any angle has pictures).
//!
//! Every time is a `RationalTime` whose `value` is a whole frame count and whose `rate` is the
//! rate as a float (`30000/1001` as OpenTimelineIO writes it); record positions are implied by
//! the order of clips and gaps, as in OpenTimelineIO itself. Clip metadata carries the speaker
//! and the note under `overtalk`.

use serde_json::{json, Value};

use super::{Clip, Edit};

fn rt(frames: i64, rate: f64) -> Value {
    json!({"OTIO_SCHEMA": "RationalTime.1", "rate": rate, "value": frames as f64})
}

fn range(start: i64, duration: i64, rate: f64) -> Value {
    json!({"OTIO_SCHEMA": "TimeRange.1", "duration": rt(duration, rate), "start_time": rt(start, rate)})
}

fn gap(frames: i64, rate: f64) -> Value {
    json!({
        "OTIO_SCHEMA": "Gap.1", "metadata": {}, "name": "", "source_range": range(0, frames, rate),
        "effects": [], "markers": [], "enabled": true
    })
}

fn clip(edit: &Edit<'_>, m: usize, c: &Clip, rate: f64) -> Value {
    let media = &edit.media[m];
    let name = if c.note.is_empty() { media.name.clone() } else { c.note.clone() };
    json!({
        "OTIO_SCHEMA": "Clip.2",
        "metadata": {"overtalk": {"speaker": c.speaker, "note": c.note}},
        "name": name,
        "source_range": range(c.source_in, c.duration, rate),
        "effects": [], "markers": [], "enabled": true,
        "media_references": {"DEFAULT_MEDIA": {
            "OTIO_SCHEMA": "ExternalReference.1", "metadata": {}, "name": media.name,
            "available_range": range(0, edit.cut.media_frames, rate),
            "available_image_bounds": null,
            "target_url": media.url()
        }},
        "active_media_reference_key": "DEFAULT_MEDIA"
    })
}

/// The edit as OpenTimelineIO JSON.
pub fn write(edit: &Edit<'_>) -> String {
    let rate = edit.cut.rate.as_f64();
    let tracks: Vec<Value> = (0..edit.track_count())
        .map(|track| {
            let mut children = Vec::new();
            let mut at = 0;
            for (k, c) in edit.cut.clips.iter().enumerate() {
                if c.record_in > at {
                    children.push(gap(c.record_in - at, rate));
                }
                children.push(clip(edit, edit.media_of(track, k), c, rate));
                at = c.record_out();
            }
            if edit.cut.in_place && edit.cut.media_frames > at {
                children.push(gap(edit.cut.media_frames - at, rate));
            }
            let (name, video) = match edit.angles {
                Some(_) => ("angles".to_owned(), edit.media.iter().any(|m| m.video)),
                None => (edit.media[track].name.clone(), edit.media[track].video),
            };
            json!({
                "OTIO_SCHEMA": "Track.1", "metadata": {}, "name": name,
                "source_range": null, "effects": [], "markers": [], "enabled": true,
                "children": children,
                "kind": if video { "Video" } else { "Audio" }
            })
        })
        .collect();
    let v = json!({
        "OTIO_SCHEMA": "Timeline.1",
        "metadata": {"overtalk": {"fps": edit.cut.rate.name()}},
        "name": edit.name,
        "global_start_time": rt(0, rate),
        "tracks": {
            "OTIO_SCHEMA": "Stack.1", "metadata": {}, "name": "tracks", "source_range": null,
            "effects": [], "markers": [], "enabled": true, "children": tracks
        }
    });
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}
