//! The conversation as a picture: the SVG is well-formed XML, usvg renders it, and it draws the
//! events of the JSON (one lane per speaker, one arrow per interruption attempt, solid when the
//! floor changed hands, as many as the HTML report's timeline draws); the PNG is the same on
//! every run.

use std::collections::BTreeMap;

use overtalk::analysis::{analyze, Analysis, Params};
use overtalk::format::{read_path, ReadOptions};
use overtalk::report::png::svg_to_png;
use overtalk::report::svg::{conversation_svg, ImageOptions, Layout, Theme};
use overtalk::report::{conversation_report, ConversationView, ReportOptions};
use overtalk::{Segment, Transcript, TranscriptBuilder};
use quick_xml::events::Event;
use quick_xml::Reader;

fn example(ext: &str) -> Transcript {
    let path = format!("{}/../../examples/red-carpet/red-carpet.{ext}", env!("CARGO_MANIFEST_DIR"));
    let read = read_path(std::path::Path::new(&path), None, &ReadOptions::default()).unwrap();
    read.corpus.get("red-carpet").unwrap().clone()
}

/// Elements of the SVG by class (the first word of `class`, and the whole attribute), after
/// checking that the whole document is well-formed.
fn classes(svg: &str) -> BTreeMap<String, usize> {
    let mut reader = Reader::from_str(svg);
    reader.config_mut().check_end_names = true;
    let mut out = BTreeMap::new();
    loop {
        match reader.read_event().unwrap() {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                for a in e.attributes() {
                    let a = a.unwrap();
                    if a.key.as_ref() == b"class" {
                        let v = a.unescape_value().unwrap().into_owned();
                        *out.entry(v).or_default() += 1;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Well-formedness alone: quick-xml with end names checked reads to the end.
fn well_formed(svg: &str) {
    let mut reader = Reader::from_str(svg);
    reader.config_mut().check_end_names = true;
    let mut open = 0i64;
    loop {
        match reader.read_event().unwrap() {
            Event::Eof => break,
            Event::Start(_) => open += 1,
            Event::End(_) => open -= 1,
            _ => {}
        }
    }
    assert_eq!(open, 0, "unbalanced elements");
}

fn count(c: &BTreeMap<String, usize>, class: &str) -> usize {
    c.get(class).copied().unwrap_or(0)
}

/// The arrows the HTML report's script draws, from the JSON it embeds: attempts (rule-2 and
/// silent interruptions) whose holder has a lane, split by outcome (report.js,
/// conversationModel).
fn html_arrows(a: &Analysis) -> (usize, usize) {
    let view = ConversationView { recording: "x", analysis: a, transcript: None };
    let page = conversation_report(&[view], &ReportOptions::default()).unwrap();
    let open = "<script type=\"application/json\" id=\"overtalk-data\">";
    let from = page.find(open).unwrap() + open.len();
    let to = from + page[from..].find("</script>").unwrap();
    let data: serde_json::Value = serde_json::from_str(&page[from..to]).unwrap();
    let r = &data["conversations"][0]["result"];
    let speakers = r["speakers"].as_object().unwrap();
    let (mut solid, mut dashed) = (0, 0);
    for o in r["onsets"].as_array().unwrap() {
        let attempt = o["class"] == "interruption" || o["class"] == "silent_interruption";
        let holder = o["holder"].as_str().is_some_and(|h| speakers.contains_key(h));
        if attempt && holder {
            if o["outcome"] == "floor_taken" {
                solid += 1;
            } else {
                dashed += 1;
            }
        }
    }
    (solid, dashed)
}

/// The picture draws what the JSON holds.
fn check_events(a: &Analysis, svg: &str, label: &str) {
    well_formed(svg);
    let c = classes(svg);
    let n = &a.conversation.counts;
    assert_eq!(count(&c, "lane"), a.speakers.len(), "{label}: lanes");
    assert_eq!(Some(count(&c, "arrow successful")), n.events.successful, "{label}: solid arrows");
    assert_eq!(
        Some(count(&c, "arrow successful") + count(&c, "arrow unsuccessful")),
        n.events.interruptions,
        "{label}: arrows"
    );
    let (solid, dashed) = html_arrows(a);
    assert_eq!((count(&c, "arrow successful"), count(&c, "arrow unsuccessful")), (solid, dashed));
    assert_eq!(count(&c, "bc"), n.events.backchannels, "{label}: backchannels");
    assert_eq!(count(&c, "claim"), n.events.verbal_claims, "{label}: floor claims");
    let holders = a.turns.len();
    assert!(count(&c, "holder") <= holders && (holders == 0 || count(&c, "holder") > 0));
}

#[test]
fn red_carpet_svg_shows_the_events_of_the_json() {
    for ext in ["rttm", "vtt"] {
        let a = analyze(&example(ext), &Params::default()).unwrap();
        for layout in [Layout::Timeline, Layout::Card] {
            for theme in [Theme::Light, Theme::Dark] {
                let opts = ImageOptions { layout, theme, ..ImageOptions::default() };
                let svg = conversation_svg("red-carpet", &a, &opts).unwrap();
                check_events(&a, &svg, ext);
                // usvg reads it too (the PNG path).
                let png = svg_to_png(&svg, 1.0).unwrap();
                assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
            }
        }
        let card = conversation_svg(
            "red-carpet",
            &a,
            &ImageOptions { layout: Layout::Card, ..ImageOptions::default() },
        )
        .unwrap();
        assert!(card.contains("height=\"675\""), "a card is 16:9 at 1200 px");
        for s in overtalk::summary::summarise(&a) {
            let first = s.text.split_whitespace().take(3).collect::<Vec<_>>().join(" ");
            assert!(card.contains(&first), "the card carries {first:?}");
        }
    }
    let a = analyze(&example("vtt"), &Params::default()).unwrap();
    assert!(a.conversation.counts.events.verbal_claims > 0, "the example has a claim to draw");
    assert!(a.conversation.counts.events.interruptions > Some(0));
}

#[test]
fn a_window_shows_the_events_inside_it() {
    let a = analyze(&example("rttm"), &Params::default()).unwrap();
    let (from, to) = (4_000, 12_000);
    let opts = ImageOptions { from: Some(from), to: Some(to), ..ImageOptions::default() };
    let svg = conversation_svg("red-carpet", &a, &opts).unwrap();
    well_formed(&svg);
    let c = classes(&svg);
    let inside = a
        .onsets
        .iter()
        .filter(|o| {
            matches!(
                o.class,
                overtalk::analysis::onsets::OnsetClass::Interruption
                    | overtalk::analysis::onsets::OnsetClass::SilentInterruption
            ) && (from..=to).contains(&o.time.get())
        })
        .count();
    assert!(inside > 0 && Some(inside) <= a.conversation.counts.events.interruptions);
    assert_eq!(count(&c, "arrow successful") + count(&c, "arrow unsuccessful"), inside);
    assert!(svg.contains("0:04 – 0:12 (window)"));
    // A window that ends before it starts, and widths out of range, are errors.
    let bad = ImageOptions { from: Some(5_000), to: Some(4_000), ..ImageOptions::default() };
    assert!(conversation_svg("x", &a, &bad).is_err());
    let narrow = ImageOptions { width: 10, ..ImageOptions::default() };
    assert!(conversation_svg("x", &a, &narrow).unwrap_err().to_string().contains("width"));
}

#[test]
fn hostile_names_stay_text() {
    let mut b = TranscriptBuilder::new();
    b.add(Segment::from_millis(0, 2000).unwrap(), "<b>&\"x\u{1}'</b>", None);
    b.add(Segment::from_millis(1500, 4000).unwrap(), "]]><script>", None);
    let a = analyze(&b.build(), &Params::default()).unwrap();
    let svg = conversation_svg("a&b<c>", &a, &ImageOptions::default()).unwrap();
    well_formed(&svg);
    assert!(!svg.contains("<script>") && !svg.contains('\u{1}'));
    svg_to_png(&svg, 1.0).unwrap();
    // No speakers at all: a picture with no lanes, not an error.
    let empty = analyze(&Transcript::default(), &Params::default()).unwrap();
    let svg = conversation_svg("empty", &empty, &ImageOptions::default()).unwrap();
    assert_eq!(count(&classes(&svg), "lane"), 0);
}

#[test]
fn png_is_the_same_on_every_run() {
    let a = analyze(&example("vtt"), &Params::default()).unwrap();
    let opts = ImageOptions { layout: Layout::Card, ..ImageOptions::default() };
    let svg = conversation_svg("red-carpet", &a, &opts).unwrap();
    let first = svg_to_png(&svg, 1.0).unwrap();
    assert_eq!(first, svg_to_png(&svg, 1.0).unwrap());
    let again = conversation_svg("red-carpet", &a, &opts).unwrap();
    assert_eq!(first, svg_to_png(&again, 1.0).unwrap());
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&first).unwrap();
    assert_eq!((pixmap.width(), pixmap.height()), (1200, 675));
    // Text was drawn with the bundled font: the title row is not blank.
    let row = |y: u32| (0..1200).filter(|&x| pixmap.pixel(x, y).unwrap().red() < 128).count();
    assert!((30..60).map(row).sum::<usize>() > 100, "the title is drawn");
}

#[test]
fn ami_test_meetings_draw_the_events_of_the_json() {
    let Some(data) = overtalk_testkit::shared_data("report_image ami_test_meetings") else {
        return;
    };
    let dir = data.join("corpora/ami/only_words/rttms/test");
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    let mut n = 0;
    for f in &files {
        let read = read_path(f, None, &ReadOptions::default()).unwrap();
        for (id, t) in read.corpus.iter() {
            let a = analyze(t, &Params::default()).unwrap();
            let svg = conversation_svg(id, &a, &ImageOptions::default()).unwrap();
            check_events(&a, &svg, id);
            n += 1;
        }
    }
    assert_eq!(n, 16);
}
