//! FCPXML 1.8 (`.fcpxml`): Final Cut Pro's interchange format.
//!
//! ```text
//! fcpxml ─ resources (format, asset per media) ─ library ─ event ─ project ─ sequence ─ spine
//!   spine: asset-clip (offset = record, start = source, duration) and gap, in record order;
//!          the other media ride on each spine clip as connected clips (lane −1, −2, …)
//! ```
//!
//! Times are rational seconds, exact: frame `f` at 29.97 is `f×1001/30000s` (reduced), so
//! every value is a whole number of frames of the sequence's `frameDuration`. Version 1.8
//! keeps the media path on the asset's `src` attribute, which Final Cut Pro 10.4 and later
//! import and which OpenTimelineIO's FCPX adapter reads. A multicam cut
//! ([`super::Edit::angles`]) is a spine whose asset-clips each refer to their angle's asset.

use quick_xml::escape::escape;

use super::{Edit, Rate};

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs().max(1)
    } else {
        gcd(b, a % b)
    }
}

/// Frames as FCPXML rational seconds (`0s`, `4s`, `1001/6000s`).
pub fn time(rate: Rate, frames: i64) -> String {
    let (n, d) = (frames * i64::from(rate.den), i64::from(rate.num));
    if n == 0 {
        return "0s".to_owned();
    }
    let g = gcd(n, d);
    let (n, d) = (n / g, d / g);
    if d == 1 {
        format!("{n}s")
    } else {
        format!("{n}/{d}s")
    }
}

/// The edit as FCPXML.
pub fn write(edit: &Edit<'_>) -> String {
    let cut = edit.cut;
    let r = cut.rate;
    let t = |f: i64| time(r, f);
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE fcpxml>\n<fcpxml version=\"1.8\">\n  <resources>\n",
    );
    s.push_str(&format!(
        "    <format id=\"r0\" name=\"FFVideoFormat1080p{}\" frameDuration=\"{}\" width=\"1920\" height=\"1080\"/>\n",
        r.name().replace(['.', 'd', 'f'], ""),
        time(r, 1)
    ));
    for (m, media) in edit.media.iter().enumerate() {
        s.push_str(&format!(
            "    <asset id=\"a{m}\" name=\"{}\" src=\"{}\" start=\"0s\" duration=\"{}\" hasVideo=\"{}\" hasAudio=\"1\" format=\"r0\" audioSources=\"1\" audioChannels=\"{}\" audioRate=\"{}\"/>\n",
            escape(media.name.as_str()),
            escape(media.url().as_str()),
            t(cut.media_frames),
            u8::from(media.video),
            media.channels.max(1),
            media.sample_rate
        ));
    }
    s.push_str(&format!(
        "  </resources>\n  <library>\n    <event name=\"overtalk\">\n      <project name=\"{}\">\n        <sequence format=\"r0\" duration=\"{}\" tcStart=\"0s\" tcFormat=\"{}\" audioLayout=\"stereo\" audioRate=\"48k\">\n          <spine>\n",
        escape(edit.name),
        t(cut.record_frames()),
        if r.drop_frame { "DF" } else { "NDF" }
    ));
    let mut at = 0;
    for (k, c) in cut.clips.iter().enumerate() {
        if c.record_in > at {
            s.push_str(&format!(
                "            <gap name=\"Gap\" offset=\"{}\" start=\"0s\" duration=\"{}\"/>\n",
                t(at),
                t(c.record_in - at)
            ));
        }
        let first = edit.media_of(0, k);
        let name = |m: usize| {
            if c.note.is_empty() {
                escape(edit.media[m].name.as_str()).into_owned()
            } else {
                escape(c.note.as_str()).into_owned()
            }
        };
        s.push_str(&format!(
            "            <asset-clip ref=\"a{first}\" name=\"{}\" offset=\"{}\" start=\"{}\" duration=\"{}\" format=\"r0\" tcFormat=\"{}\"",
            name(first),
            t(c.record_in),
            t(c.source_in),
            t(c.duration),
            if r.drop_frame { "DF" } else { "NDF" }
        ));
        if edit.track_count() > 1 {
            s.push_str(">\n");
            for m in 1..edit.media.len() {
                s.push_str(&format!(
                    "              <asset-clip ref=\"a{m}\" lane=\"-{m}\" name=\"{}\" offset=\"{}\" start=\"{}\" duration=\"{}\" format=\"r0\"/>\n",
                    name(m),
                    t(c.source_in),
                    t(c.source_in),
                    t(c.duration)
                ));
            }
            s.push_str("            </asset-clip>\n");
        } else {
            s.push_str("/>\n");
        }
        at = c.record_out();
    }
    if cut.in_place && cut.media_frames > at {
        s.push_str(&format!(
            "            <gap name=\"Gap\" offset=\"{}\" start=\"0s\" duration=\"{}\"/>\n",
            t(at),
            t(cut.media_frames - at)
        ));
    }
    s.push_str("          </spine>\n        </sequence>\n      </project>\n    </event>\n  </library>\n</fcpxml>\n");
    s
}
