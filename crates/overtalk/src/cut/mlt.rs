//! MLT XML (`.mlt`): the project format of Shotcut and Kdenlive, and what `melt` renders
//! headless.
//!
//! ```text
//! <mlt>
//!   <profile frame_rate_num=30000 frame_rate_den=1001 …/>
//!   <producer id="producer0"> resource = the media </producer>
//!   <playlist id="playlist0"> <blank length=N/> <entry producer="producer0" in=A out=B/> …
//!   <tractor> <multitrack> <track producer="playlist0"/> … </multitrack> </tractor>
//! </mlt>
//! ```
//!
//! The producer declares its `length` in frames (without it melt plays one frame of each
//! entry). `in` and `out` are frame numbers and **inclusive** in MLT (`out = source_out − 1`); blanks
//! stand for the gaps of an in-place cut. The profile's frame rate is the edit's, so MLT's
//! frames are the cut list's frames. A multicam cut ([`super::Edit::angles`]) is one playlist
//! whose entries name their angle's producer (every angle declared once).

use quick_xml::escape::escape;

use super::Edit;

/// The edit as an MLT document.
pub fn write(edit: &Edit<'_>) -> String {
    let r = edit.cut.rate;
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n");
    s.push_str(&format!(
        "<mlt LC_NUMERIC=\"C\" version=\"7.0.0\" title=\"{}\" producer=\"main_bin\">\n",
        escape(edit.name)
    ));
    s.push_str(&format!(
        "  <profile description=\"overtalk {}\" width=\"1920\" height=\"1080\" progressive=\"1\" sample_aspect_num=\"1\" sample_aspect_den=\"1\" display_aspect_num=\"16\" display_aspect_den=\"9\" frame_rate_num=\"{}\" frame_rate_den=\"{}\" colorspace=\"709\"/>\n",
        r.name(),
        r.num,
        r.den
    ));
    for (m, media) in edit.media.iter().enumerate() {
        s.push_str(&format!(
            "  <producer id=\"producer{m}\" in=\"0\" out=\"{}\">\n    <property name=\"length\">{}</property>\n    <property name=\"resource\">{}</property>\n    <property name=\"mlt_service\">avformat-novalidate</property>\n    <property name=\"overtalk:name\">{}</property>\n  </producer>\n",
            (edit.cut.media_frames - 1).max(0),
            edit.cut.media_frames,
            escape(media.path.as_str()),
            escape(media.name.as_str())
        ));
    }
    let tracks = edit.track_count();
    for m in 0..tracks {
        s.push_str(&format!("  <playlist id=\"playlist{m}\">\n"));
        let mut at = 0;
        for (k, c) in edit.cut.clips.iter().enumerate() {
            if c.record_in > at {
                s.push_str(&format!("    <blank length=\"{}\"/>\n", c.record_in - at));
            }
            s.push_str(&format!(
                "    <entry producer=\"producer{}\" in=\"{}\" out=\"{}\">",
                edit.media_of(m, k),
                c.source_in,
                c.source_out() - 1
            ));
            if !c.note.is_empty() {
                s.push_str(&format!(
                    "<property name=\"overtalk:note\">{}</property>",
                    escape(c.note.as_str())
                ));
            }
            s.push_str("</entry>\n");
            at = c.record_out();
        }
        s.push_str("  </playlist>\n");
    }
    s.push_str("  <tractor id=\"tractor0\">\n    <multitrack>\n");
    for m in 0..tracks {
        s.push_str(&format!("      <track producer=\"playlist{m}\"/>\n"));
    }
    s.push_str("    </multitrack>\n");
    // Tracks after the first are mixed into it (MLT plays only the top track's sound otherwise).
    for m in 1..tracks {
        s.push_str(&format!(
            "    <transition id=\"mix{m}\">\n      <property name=\"a_track\">0</property>\n      <property name=\"b_track\">{m}</property>\n      <property name=\"mlt_service\">mix</property>\n      <property name=\"always_active\">1</property>\n      <property name=\"sum\">1</property>\n    </transition>\n"
        ));
    }
    s.push_str("  </tractor>\n</mlt>\n");
    s
}
