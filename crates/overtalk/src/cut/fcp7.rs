//! Final Cut Pro 7 XML (`xmeml` version 4, `.xml`): what Premiere Pro and DaVinci Resolve
//! import as "FCP XML".
//!
//! ```text
//! xmeml ─ sequence (rate, timecode) ─ media ─ audio|video ─ track ─ clipitem …
//!   clipitem: start/end = record frames, in/out = source frames, file (pathurl, rate)
//! ```
//!
//! Frame counts are at the sequence's `timebase` (the nominal rate: 30 for 29.97) with
//! `<ntsc>TRUE</ntsc>` marking the 1000/1001 rates, as FCP7 defines them; the sequence
//! timecode's `displayformat` is `DF` or `NDF`. The first use of a file carries its
//! description, later ones refer to its id, as importers expect. Gaps are simply the frames
//! between clipitems. A multicam cut ([`super::Edit::angles`]) is one video track (when the
//! angles have pictures) and one audio track whose clipitems each name their angle's file.

use quick_xml::escape::escape;

use super::Edit;

fn rate_xml(edit: &Edit<'_>) -> String {
    let r = edit.cut.rate;
    format!(
        "<rate><timebase>{}</timebase><ntsc>{}</ntsc></rate>",
        r.nominal(),
        if r.is_ntsc() { "TRUE" } else { "FALSE" }
    )
}

fn timecode_xml(edit: &Edit<'_>, frame: i64) -> String {
    let r = edit.cut.rate;
    format!(
        "<timecode>{}<string>{}</string><frame>{frame}</frame><displayformat>{}</displayformat></timecode>",
        rate_xml(edit),
        r.timecode(frame),
        if r.drop_frame { "DF" } else { "NDF" }
    )
}

/// The edit as FCP7 XML.
pub fn write(edit: &Edit<'_>) -> String {
    let cut = edit.cut;
    let rate = rate_xml(edit);
    let mut s = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE xmeml>\n<xmeml version=\"4\">\n",
    );
    s.push_str(&format!(
        "  <sequence id=\"sequence-1\">\n    <name>{}</name>\n    <duration>{}</duration>\n    {rate}\n    {}\n    <media>\n",
        escape(edit.name),
        cut.record_frames(),
        timecode_xml(edit, 0)
    ));
    let mut item = 0;
    let mut described = vec![false; edit.media.len()];
    for kind in ["video", "audio"] {
        let tracks: Vec<usize> = (0..edit.track_count())
            .filter(|&t| {
                kind == "audio"
                    || match edit.angles {
                        Some(_) => edit.media.iter().any(|m| m.video),
                        None => edit.media[t].video,
                    }
            })
            .collect();
        if tracks.is_empty() {
            continue;
        }
        s.push_str(&format!("      <{kind}>\n"));
        for t in tracks {
            s.push_str("        <track>\n");
            for (k, c) in cut.clips.iter().enumerate() {
                let m = edit.media_of(t, k);
                let media = &edit.media[m];
                if kind == "video" && !media.video {
                    continue;
                }
                item += 1;
                let name = if c.note.is_empty() { media.name.as_str() } else { c.note.as_str() };
                s.push_str(&format!(
                    "          <clipitem id=\"clipitem-{item}\">\n            <name>{}</name>\n            <enabled>TRUE</enabled>\n            <duration>{}</duration>\n            {rate}\n            <start>{}</start>\n            <end>{}</end>\n            <in>{}</in>\n            <out>{}</out>\n",
                    escape(name),
                    cut.media_frames,
                    c.record_in,
                    c.record_out(),
                    c.source_in,
                    c.source_out()
                ));
                let id = format!("file-{}", m + 1);
                if !described[m] {
                    described[m] = true;
                    s.push_str(&format!(
                        "            <file id=\"{id}\">\n              <name>{}</name>\n              <pathurl>{}</pathurl>\n              {rate}\n              <duration>{}</duration>\n              {}\n              <media>\n{}                <audio>\n                  <samplecharacteristics><depth>16</depth><samplerate>{}</samplerate></samplecharacteristics>\n                  <channelcount>{}</channelcount>\n                </audio>\n              </media>\n            </file>\n",
                        escape(media.name.as_str()),
                        escape(media.url().as_str()),
                        cut.media_frames,
                        timecode_xml(edit, 0),
                        if media.video { "                <video/>\n" } else { "" },
                        media.sample_rate,
                        media.channels.max(1)
                    ));
                } else {
                    s.push_str(&format!("            <file id=\"{id}\"/>\n"));
                }
                s.push_str(&format!(
                    "            <sourcetrack><mediatype>{kind}</mediatype><trackindex>1</trackindex></sourcetrack>\n          </clipitem>\n"
                ));
            }
            s.push_str("        </track>\n");
        }
        s.push_str(&format!("      </{kind}>\n"));
    }
    s.push_str("    </media>\n  </sequence>\n</xmeml>\n");
    s
}
