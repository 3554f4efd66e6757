//! `overtalk report -o clip.svg|clip.png`: the conversation as a picture, and the summary in
//! the analyze outputs.

use crate::util::Dir;

fn example(name: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/red-carpet")
        .join(name)
        .display()
        .to_string()
}

/// The README's card, as the README's command makes it.
pub const CARD_ARGS: &[&str] = &[
    "--layout",
    "card",
    "--title",
    "Red carpet, March 2025: who held the floor",
    "--subtitle",
    "Illustrative re-enactment: the quotes as printed in press reports, every timing invented (examples/red-carpet). Not a measurement of the real clip.",
];

#[test]
fn report_draws_svg_and_png_by_extension_or_format() {
    let d = Dir::new();
    let vtt = example("red-carpet.vtt");
    // The rule book's classes, whose arrows are known: 3 successful, 1 not (the calibrated
    // default finds none in this text, where every overlapped line ends complete).
    d.run(&["report", &vtt, "-o", "clip.svg", "--classifier", "rules"]).ok();
    let svg = d.read("clip.svg");
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{}", &svg[..80]);
    assert_eq!(svg.matches("class=\"lane\"").count(), 3);
    assert_eq!(svg.matches("class=\"arrow successful\"").count(), 3);
    assert_eq!(svg.matches("class=\"arrow unsuccessful\"").count(), 1);
    d.run(&["report", &vtt, "--format", "png", "-o", "clip.out", "--theme", "dark"]).ok();
    let png = std::fs::read(d.path().join("clip.out")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    d.run(&["report", &vtt, "--start", "0:04", "--end", "12", "-o", "w.svg"]).ok();
    assert!(d.read("w.svg").contains("0:04 – 0:12 (window)"));
    // The HTML report is still the default, and carries the summary at the top.
    d.run(&["report", &vtt, "-o", "r.html"]).ok();
    let html = d.read("r.html");
    let summary = html.find("<div class=\"summary\">").unwrap();
    assert!(summary < html.find("class=\"headline\"").unwrap());
    assert!(html.contains("data-paths=\"/speakers/Wife/floor_share /speakers/Husband/floor_share /speakers/Interviewer/floor_share\""));
}

#[test]
fn a_picture_is_of_one_conversation_and_a_bad_window_is_an_error() {
    let d = Dir::new();
    let (vtt, rttm) = (example("red-carpet.vtt"), example("red-carpet.rttm"));
    let r = d.run(&["report", &vtt, &rttm, "-o", "two.png"]);
    assert_eq!(r.code(), 2, "an error: {}", r.stderr());
    assert!(
        r.stderr().contains("a picture shows one conversation; the inputs hold 2"),
        "{}",
        r.stderr()
    );
    let r = d.run(&["report", &vtt, "--start", "20", "--end", "10", "-o", "w.svg"]);
    assert_eq!(r.code(), 2);
    assert!(r.stderr().contains("the window ends"), "{}", r.stderr());
    assert!(!d.path().join("w.svg").exists(), "no output on error");
    let r = d.run(&["report", &vtt, "--start", "1:x", "-o", "w.svg"]);
    assert_eq!(r.code(), 2, "a usage error: {}", r.stderr());
    assert_eq!(
        r.stderr(),
        "error: invalid value '1:x' for '--start <TIME>': \"1:x\" is no time: give seconds \
         (`62.5`, `62.5s`), milliseconds (`500ms`), m:ss or h:mm:ss (`1:02.5`, `1:02:03.5`)\n\n\
         For more information, try '--help'.\n"
    );
}

#[test]
fn analyze_writes_the_summary_in_every_human_format_and_json() {
    let d = Dir::new();
    let rttm = example("red-carpet.rttm");
    let json: serde_json::Value =
        serde_json::from_str(&d.run(&["analyze", &rttm, "--format", "json"]).ok()).unwrap();
    let one = &json["conversations"][0];
    let floor = &one["summary"][2];
    assert_eq!(
        floor["text"],
        "Wife held the floor 67 % of the time; Husband 19 % and Interviewer 14 %."
    );
    assert_eq!(floor["numbers"][0]["path"], "/speakers/Wife/floor_share");
    assert_eq!(one.pointer("/speakers/Wife/floor_share").unwrap(), &floor["numbers"][0]["value"]);
    let line: serde_json::Value = serde_json::from_str(
        d.run(&["analyze", &rttm, "--format", "jsonl"]).ok().lines().next().unwrap(),
    )
    .unwrap();
    assert_eq!(line["summary"], one["summary"]);
    let sentence = "The floor changed hands 10 times, in 11 turns.";
    assert!(d.run(&["analyze", &rttm]).ok().contains(sentence));
    assert!(d.run(&["analyze", &rttm, "--format", "md"]).ok().contains(sentence));
}

/// The card the README shows is what the current binary draws, byte for byte.
#[test]
fn the_readme_card_is_the_current_picture() {
    let d = Dir::new();
    let mut args = vec!["report", "-q"];
    let vtt = example("red-carpet.vtt");
    args.push(&vtt);
    args.extend_from_slice(CARD_ARGS);
    args.extend_from_slice(&["-o", "card.png"]);
    d.run(&args).ok();
    let now = std::fs::read(d.path().join("card.png")).unwrap();
    let committed =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/img/red-carpet-card.png");
    let committed = std::fs::read(committed).unwrap();
    assert!(
        now == committed,
        "docs/img/red-carpet-card.png is not the current picture: remake it with the README's command"
    );
    // And again: the same bytes on every run.
    d.run(&args).ok();
    assert_eq!(std::fs::read(d.path().join("card.png")).unwrap(), now);
}

/// A lane per speaker: many speakers made the PNG hundreds of thousands of pixels tall
/// (20 000 speakers: 1200 × 600 186 px, 5.9 GB and 107 s to draw). A picture of more than
/// 100 million pixels is refused before it is drawn, and says what to change; the same
/// conversation as SVG is written.
#[test]
fn a_picture_too_large_to_draw_is_refused_before_it_is_drawn() {
    let d = Dir::new();
    let rttm: String =
        (0..40).map(|i| format!("SPEAKER rec 1 {i}.0 0.8 <NA> <NA> S{i} <NA> <NA>\n")).collect();
    d.create("many.rttm", &rttm);
    let started = std::time::Instant::now();
    let r = d.run(&["report", "many.rttm", "--width", "10000", "--scale", "4", "-o", "m.png"]);
    assert_eq!(r.code(), 2);
    assert_eq!(
        r.stderr(),
        "overtalk: error: drawing rec: limit exceeded: a 40000 × 5544 px picture is more than the limit of 100 million pixels (0.9 GB to draw): give a smaller --width or --scale, a shorter window (--start, --end), or write SVG (--format svg)\n"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    assert!(!d.path().join("m.png").exists());
    d.run(&["report", "many.rttm", "--width", "10000", "-o", "m.svg"]).ok();
    // Its own size at scale 1 is drawn.
    d.run(&["report", "many.rttm", "-o", "m1.png"]).ok();
}

/// The picture flags on an HTML report, and a recording on a picture, are refused with what to
/// do instead (exit 2, nothing written), not left out of the output silently.
#[test]
fn flags_the_chosen_output_cannot_show_are_refused() {
    let d = Dir::new();
    let vtt = example("red-carpet.vtt");
    let run = d.run(&["report", &vtt, "--layout", "card", "-o", "-"]);
    assert_eq!(run.code(), 2);
    assert_eq!(run.stdout(), "");
    assert_eq!(
        run.stderr(),
        "overtalk: error: --layout shapes a picture, but the report written to stdout is HTML: name an .svg or .png output (-o card.png) or give --format svg|png\n"
    );
    let run = d.run(&["report", &vtt, "--theme", "dark", "--width", "800", "-o", "r.html"]);
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: --width, --theme shape a picture, but the report written to r.html is HTML: name an .svg or .png output (-o card.png) or give --format svg|png\n"
    );
    assert!(!d.path().join("r.html").exists());
    d.create("a.wav", "");
    let run = d.run(&["report", &vtt, "--audio", "a.wav", "-o", "card.png"]);
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: --audio is for the HTML report (a recording playable at every event); a picture cannot play it: leave it out, or write HTML (-o report.html)\n"
    );
    assert!(!d.path().join("card.png").exists());
    // The same flags with a picture output are what they are for.
    d.run(&["report", &vtt, "--layout", "card", "--format", "svg", "-o", "-"]).ok();
}
