//! The HTML report: structure, the CSP hashes, escaping of hostile input, no external URL, and
//! the numbers on the page equal to the serialised result (one source of truth).

#![allow(clippy::unwrap_used)] // Test helpers fail loudly.

use overtalk::analysis::{analyze, Analysis, Params};
use overtalk::format::{read_path, read_str, Format, ReadOptions};
use overtalk::report::{
    conversation_report, csp_hash, score_report, Audio, ConversationView, ReportOptions, ScoreView,
    TrackAudio,
};
use overtalk::score::{score_corpus, Metrics, RecordingInput, ScoreOptions};
use overtalk::{Annotation, Content, Delta, Segment, Transcript, TranscriptBuilder};
use serde_json::Value;

fn red_carpet() -> Transcript {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../examples/red-carpet/red-carpet.vtt");
    let read = read_path(&path, None, &ReadOptions::default()).unwrap();
    read.corpus.get("red-carpet").unwrap().clone()
}

fn report_of(id: &str, t: &Transcript) -> (Analysis, String) {
    let a = analyze(t, &Params::default()).unwrap();
    let html = conversation_report(
        &[ConversationView { recording: id, analysis: &a, transcript: Some(t) }],
        &ReportOptions::default(),
    )
    .unwrap();
    (a, html)
}

/// The text between `open` (searched from `from`) and the next `close`.
fn between<'a>(s: &'a str, open: &str, close: &str) -> &'a str {
    let a = s.find(open).unwrap() + open.len();
    let b = a + s[a..].find(close).unwrap();
    &s[a..b]
}

fn payload(html: &str) -> Value {
    let json =
        between(html, "<script type=\"application/json\" id=\"overtalk-data\">", "</script>");
    serde_json::from_str(json).unwrap()
}

/// The value of attribute `name` in one tag's text.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let a = tag.find(&key)? + key.len();
    let b = a + tag[a..].find('"')?;
    Some(&tag[a..b])
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Every start tag `<name …>` of the document.
fn tags<'a>(html: &'a str, name: &str) -> Vec<&'a str> {
    let open = format!("<{name} ");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(i) = rest.find(&open) {
        let end = i + rest[i..].find('>').unwrap();
        out.push(&rest[i..=end]);
        rest = &rest[end..];
    }
    out
}

#[test]
fn structure_and_csp_hashes() {
    let (a, html) = report_of("red-carpet", &red_carpet());
    assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"en\">"));
    assert!(html.trim_end().ends_with("</html>"));
    // Exactly one data block and one script; the style and script are admitted by hash.
    assert_eq!(html.matches("<script").count(), 2);
    assert_eq!(html.matches("</script>").count(), 2);
    assert_eq!(html.matches("<style>").count(), 1);
    let script = between(&html, "<script>", "</script>");
    let style = between(&html, "<style>", "</style>");
    let meta = tags(&html, "meta").into_iter().find(|t| t.contains("http-equiv")).unwrap();
    let csp = unescape(attr(meta, "content").unwrap());
    assert_eq!(
        csp,
        format!(
            "default-src 'none'; script-src {}; style-src {}; img-src data:; base-uri 'none'; form-action 'none'; require-trusted-types-for 'script'; trusted-types 'none'",
            csp_hash(script),
            csp_hash(style)
        )
    );
    // One section, one timeline, one lane container per conversation; a matrix of n×n cells.
    assert_eq!(html.matches("<section class=\"conv\"").count(), 1);
    assert_eq!(html.matches("<div class=\"timeline\" data-index=\"0\"").count(), 1);
    let n = a.speakers.len();
    assert_eq!(n, 3);
    assert_eq!(
        tags(&html, "td").iter().filter(|t| t.contains("class=\"cell\"")).count(),
        n * (n - 1)
    );
    assert_eq!(tags(&html, "tr").iter().filter(|t| t.contains("data-speaker=")).count(), n);
    // No inline style attributes or event handler attributes (the CSP would refuse them).
    assert!(!html.contains(" style=\""));
    assert!(!html.contains(" onclick=") && !html.contains(" onload="));
    // The transcript: one line per utterance, with the events inline.
    assert_eq!(html.matches("<p class=\"utt\">").count(), 18);
    use overtalk::analysis::onsets::OnsetClass;
    let inline = a
        .onsets
        .iter()
        .filter(|o| !matches!(o.class, OnsetClass::Opening | OnsetClass::SmoothSwitch))
        .count()
        + a.verbal_claims.len();
    assert_eq!(html.matches("class=\"ev-link ").count(), inline);
    assert_eq!(inline, 13);
    // The first interruption (Husband at 7.9 s) sits in the line of the utterance it starts.
    let first = a.onsets.iter().position(|o| o.class == OnsetClass::Interruption).unwrap();
    assert_eq!(a.onsets[first].time.get(), 7900);
    let line = between(&html, "data-t=\"7900\" aria-label", "</p>");
    assert!(line.contains(&format!("data-ev=\"o{first}\">interruption (successful)</button>")));
    assert!(line.contains("It&#39;s gonna be great. You&#39;re a winner."));
}

#[test]
fn no_external_urls() {
    let (_, html) = report_of("red-carpet", &red_carpet());
    for name in ["a", "audio", "img", "link", "script", "source", "iframe"] {
        for t in tags(&html, name) {
            for key in ["src", "href"] {
                if let Some(v) = attr(t, key) {
                    assert!(v.starts_with('#') || v.starts_with("data:"), "{t}");
                }
            }
        }
    }
    assert!(!html.contains("<link"));
    assert!(!html.contains("https://"));
    // The one "http://" is the SVG namespace name, an identifier that is never fetched.
    assert_eq!(html.matches("http://").count(), html.matches("http://www.w3.org/2000/svg").count());
    assert_eq!(html.matches("http://").count(), 1);
    assert!(!html.contains("@import") && !html.contains("url(http"));
}

#[test]
fn numbers_equal_the_serialised_result() {
    let (a, html) = report_of("red-carpet", &red_carpet());
    // The embedded result is the conversation object of the JSON output: the analysis as
    // serialised, its recording id and its summary.
    let data = payload(&html);
    let conversation = overtalk::output::Conversation::new("red-carpet", None, &a);
    let want = serde_json::to_value(overtalk::summary::Summarised::new(&conversation)).unwrap();
    assert_eq!(data["conversations"][0]["result"], want);
    assert_eq!(data["conversations"].as_array().unwrap().len(), 1);
    // Matrix cells carry the pair values exactly.
    let mut seen = 0;
    for t in tags(&html, "td").into_iter().filter(|t| t.contains("class=\"cell\"")) {
        let x = unescape(attr(t, "data-interrupter").unwrap());
        let f = unescape(attr(t, "data-interruptee").unwrap());
        let att: usize = attr(t, "data-attempts").unwrap().parse().unwrap();
        let suc: usize = attr(t, "data-successful").unwrap().parse().unwrap();
        let rate: Value = serde_json::from_str(attr(t, "data-rate").unwrap()).unwrap();
        match a.pairs.iter().find(|p| *p.interrupter == *x && *p.interruptee == *f) {
            Some(p) => {
                assert_eq!((att, suc), (p.attempts, p.successful), "{x}→{f}");
                assert_eq!(
                    rate,
                    serde_json::to_value(p.rate_per_min_of_interruptee_floor).unwrap()
                );
                seen += 1;
            }
            // No attempt: 0 per minute of the holder's floor, shown as such (not `–`).
            None => {
                assert_eq!((att, suc), (0, 0), "{x}→{f}");
                assert!(a.speakers[f.as_str()].floor.get() > 0);
                assert_eq!(rate, Value::from(0.0), "{x}→{f}");
            }
        }
    }
    assert_eq!(seen, a.pairs.len());
    // Interviewer→Wife is not listed (no attempt, no talk-over): 0.00/min, not `–`.
    assert!(html.contains("data-interrupter=\"Interviewer\" data-interruptee=\"Wife\" data-attempts=\"0\" data-successful=\"0\" data-rate=\"0.0\">0 / 0<span class=\"sub\">0.00/min</span>"));
    // Red carpet: Husband→Wife 2 attempts (1 successful), Wife→Husband 2 (2) (§7.2).
    let hw =
        a.pairs.iter().find(|p| &*p.interrupter == "Husband" && &*p.interruptee == "Wife").unwrap();
    assert_eq!((hw.attempts, hw.successful), (2, 1));
    assert!(html.contains("data-interrupter=\"Husband\" data-interruptee=\"Wife\" data-attempts=\"2\" data-successful=\"1\""));
    // Talk and floor shares: data-v is the JSON number.
    for t in tags(&html, "td") {
        let (Some(field), Some(v)) = (attr(t, "data-field"), attr(t, "data-v")) else { continue };
        if field != "talk_share" && field != "floor_share" {
            continue;
        }
        let v: Value = serde_json::from_str(v).unwrap();
        let found = a.speakers.values().any(|s| {
            let want = if field == "talk_share" { s.talk_share } else { s.floor_share };
            serde_json::to_value(want).unwrap() == v
        });
        assert!(found, "{field} {v}");
    }
    let hus = &a.speakers["Husband"];
    let row =
        tags(&html, "tr").into_iter().find(|t| t.contains("data-speaker=\"Husband\"")).unwrap();
    assert!(row.contains("Husband"));
    let needle = format!(
        "data-field=\"talk_share\" data-v=\"{}\"",
        serde_json::to_string(&hus.talk_share).unwrap()
    );
    assert!(html.contains(&needle));
    // Headline counts.
    let c = &a.conversation.counts.events;
    assert_eq!((c.interruptions, c.successful), (Some(4), Some(3)));
    assert!(html.contains("data-field=\"interruptions\" data-v=\"4\""));
    // The FTO histogram holds every transfer with an offset.
    let total = a.transfers.iter().filter(|t| t.fto.is_some()).count();
    assert_eq!(total, 10);
    let bars: usize = tags(&html, "rect")
        .iter()
        .map(|t| attr(t, "data-count").unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(bars, total);
}

const EVIL: &str = "\"><img src=x onerror=alert(1)>";

fn hostile() -> Transcript {
    let mut b = TranscriptBuilder::new();
    let ms = |a, z| Segment::from_millis(a, z).unwrap();
    b.add(
        ms(0, 4000),
        EVIL,
        Some(Content::text("Hello </script><script>alert(2)</script> there, go on")),
    );
    b.add(
        ms(2000, 6000),
        "Bob",
        Some(Content::text("wait </script><script>window.x=1</script> <!-- no")),
    );
    b.add(ms(6500, 9000), EVIL, Some(Content::text("right. & 'quoted' \u{2028}")));
    b.build()
}

#[test]
fn hostile_names_and_words_are_inert() {
    let t = hostile();
    let id = "rec\"><svg onload=alert(3)>";
    let a = analyze(&t, &Params::default()).unwrap();
    let opts = ReportOptions {
        title: Some("<b>title</b>".into()),
        sources: vec!["x\"><script>alert(4)</script>.vtt".into()],
        detection: vec!["rec: ge2e <script>alert(5)</script>".into()],
        ..ReportOptions::default()
    };
    let html = conversation_report(
        &[ConversationView { recording: id, analysis: &a, transcript: Some(&t) }],
        &opts,
    )
    .unwrap();
    assert!(!html.contains("<img"));
    assert!(!html.contains("<svg onload"));
    assert!(!html.contains("<b>title"));
    assert!(!html.contains("<!--"));
    assert_eq!(html.matches("<script").count(), 2);
    assert_eq!(html.matches("</script").count(), 2);
    // In HTML text and attributes the name is escaped.
    assert!(html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"));
    assert!(html.contains("data-speaker=\"&quot;&gt;&lt;img src=x onerror=alert(1)&gt;\""));
    assert!(html.contains("data-recording=\"rec&quot;&gt;&lt;svg onload=alert(3)&gt;\""));
    assert!(html.contains("wait &lt;/script&gt;&lt;script&gt;window.x=1&lt;/script&gt;"));
    assert!(html.contains("<p>Detected: rec: ge2e &lt;script&gt;alert(5)&lt;/script&gt;</p>"));
    // The embedded JSON gives the strings back unchanged.
    let data = payload(&html);
    let conv = &data["conversations"][0];
    assert_eq!(conv["result"]["recording"], id);
    assert!(conv["result"]["speakers"].get(EVIL).is_some());
    let utts = conv["utterances"].as_array().unwrap();
    assert_eq!(utts[0]["s"], EVIL);
    assert_eq!(utts[1]["text"], "wait </script><script>window.x=1</script> <!-- no");
    assert_eq!(utts[2]["text"], "right. & 'quoted' \u{2028}");
}

#[test]
fn embedded_and_linked_audio() {
    let t = red_carpet();
    let a = analyze(&t, &Params::default()).unwrap();
    let view = [ConversationView { recording: "red-carpet", analysis: &a, transcript: Some(&t) }];
    let bytes: Vec<u8> = (0u8..=255).collect();
    let opts = ReportOptions {
        audio: Some(Audio::Embedded { mime: "audio/mpeg".into(), bytes: bytes.clone() }),
        ..ReportOptions::default()
    };
    let html = conversation_report(&view, &opts).unwrap();
    let tag = tags(&html, "audio")[0];
    let src = attr(tag, "src").unwrap();
    assert_eq!(src, format!("data:audio/mpeg;base64,{}", overtalk::report::base64(&bytes)));
    assert!(html.contains("; media-src data:\""));
    let opts = ReportOptions {
        audio: Some(Audio::Linked("clip \"1\".mp3".into())),
        ..ReportOptions::default()
    };
    let html = conversation_report(&view, &opts).unwrap();
    assert_eq!(attr(tags(&html, "audio")[0], "src"), Some("clip &quot;1&quot;.mp3"));
    assert!(html.contains("; media-src &#39;self&#39; file: blob:\""));
    assert_eq!(Audio::mime_for("x.OGG"), Some("audio/ogg"));
    // Tracks play together: one transport, followers, a mute box each; names are escaped.
    let opts = ReportOptions {
        audio: Some(Audio::Tracks(vec![
            TrackAudio {
                name: "A<b>".into(),
                audio: Audio::Linked("a.wav".into()),
                offset: Delta::ZERO,
            },
            TrackAudio {
                name: "B".into(),
                audio: Audio::Embedded { mime: "audio/wav".into(), bytes: vec![1, 2, 3] },
                offset: Delta::ZERO,
            },
        ])),
        ..ReportOptions::default()
    };
    let html = conversation_report(&view, &opts).unwrap();
    let players = tags(&html, "audio");
    assert_eq!(players.len(), 2);
    assert_eq!(attr(players[0], "id"), Some("overtalk-audio"));
    assert_eq!(attr(players[0], "src"), Some("a.wav"));
    assert_eq!(attr(players[0], "data-track"), Some("A&lt;b&gt;"));
    assert_eq!(attr(players[1], "class"), Some("overtalk-follower"));
    assert_eq!(attr(players[1], "src"), Some("data:audio/wav;base64,AQID"));
    assert!(html.contains("2 tracks played together (A&lt;b&gt;, B)"));
    assert!(html.contains("data-index=\"1\" checked> B</label>"));
    assert!(html.contains("; media-src &#39;self&#39; file: blob: data:\""));
    // Tracks of one recorder carry no offset, and the note says nothing of offsets.
    assert!(players.iter().all(|p| attr(p, "data-offset").is_none()));
    assert!(!html.contains("Each track plays from its offset"));
    // Tracks of separate devices: each player carries its start on the timeline, exact to the
    // microsecond (the script plays timeline time t at the track's own t − offset).
    let track = |name: &str, file: &str, us: i64| TrackAudio {
        name: name.into(),
        audio: Audio::Linked(file.into()),
        offset: Delta::from_micros(us),
    };
    let opts = ReportOptions {
        audio: Some(Audio::Tracks(vec![
            track("Host", "host.wav", -1_250_000),
            track("Guest", "guest.wav", 2_500_000),
            track("Cam", "cam.wav", 0),
            track("Far", "far.wav", 1_000_001),
        ])),
        ..ReportOptions::default()
    };
    let html = conversation_report(&view, &opts).unwrap();
    let players = tags(&html, "audio");
    let got: Vec<(Option<&str>, Option<&str>, Option<&str>)> = players
        .iter()
        .map(|p| (attr(p, "data-track"), attr(p, "data-offset"), attr(p, "src")))
        .collect();
    assert_eq!(
        got,
        [
            (Some("Host"), Some("-1.250"), Some("host.wav")),
            (Some("Guest"), Some("2.500"), Some("guest.wav")),
            (Some("Cam"), None, Some("cam.wav")),
            (Some("Far"), Some("1.000001"), Some("far.wav")),
        ]
    );
    assert_eq!(attr(players[0], "id"), Some("overtalk-audio"));
    assert!(
        html.contains(
            "4 tracks played together (Host from -1.250 s, Guest from +2.500 s, Cam, Far from \
             +1.000001 s): this player drives them all, and a track that drifts more than 50 ms \
             from it is re-aligned. Each track plays from its offset on the timeline \
             (--track-offset) and is silent outside its own stretch; a track that ends after \
             this player plays on to its end, its own controls (play, pause, seek) shown in this \
             player's place until a seek or a click brings the timeline back within this \
             player's stretch."
        ),
        "{html}"
    );
    // A set nested in a set, or an empty set, is an error, not a silent empty player.
    for (bad, want) in [
        (Audio::Tracks(vec![]), "a track set needs at least one track"),
        (
            Audio::Tracks(vec![TrackAudio {
                name: "A".into(),
                audio: Audio::Tracks(vec![]),
                offset: Delta::ZERO,
            }]),
            "a track of a track set cannot be a track set",
        ),
    ] {
        let opts = ReportOptions { audio: Some(bad), ..ReportOptions::default() };
        let e = conversation_report(&view, &opts).unwrap_err().to_string();
        assert_eq!(e, want);
    }
    assert_eq!(Audio::mime_for("x.txt"), None);
}

#[test]
fn several_conversations_and_empty_input() {
    let t = red_carpet();
    let a = analyze(&t, &Params::default()).unwrap();
    let e = Transcript::from_annotation(Annotation::from_labelled(Vec::<(Segment, &str)>::new()));
    let ea = analyze(&e, &Params::default()).unwrap();
    let html = conversation_report(
        &[
            ConversationView { recording: "one", analysis: &a, transcript: Some(&t) },
            ConversationView { recording: "two", analysis: &ea, transcript: None },
        ],
        &ReportOptions::default(),
    )
    .unwrap();
    assert_eq!(html.matches("<section class=\"conv\"").count(), 2);
    assert!(html.contains("<a href=\"#conv-1\">two</a>"));
    assert_eq!(payload(&html)["conversations"].as_array().unwrap().len(), 2);
    let html = conversation_report(&[], &ReportOptions::default()).unwrap();
    assert!(html.contains("No recordings."));
}

#[test]
fn score_report_tables_equal_the_score() {
    let rttm = |s: &str| {
        read_str(s, Format::Rttm, &ReadOptions::default())
            .unwrap()
            .corpus
            .get("f")
            .unwrap()
            .annotation()
            .clone()
    };
    let reference = rttm(
        "SPEAKER f 1 0.00 10.00 <NA> <NA> A <NA> <NA>\nSPEAKER f 1 10.00 10.00 <NA> <NA> B <NA> <NA>\n",
    );
    let hypothesis = rttm(
        "SPEAKER f 1 0.00 12.00 <NA> <NA> x <NA> <NA>\nSPEAKER f 1 12.00 9.00 <NA> <NA> \"><i>y <NA> <NA>\n",
    );
    let inputs = [RecordingInput::new("f", Some(reference), Some(hypothesis))];
    let opts = ScoreOptions::default();
    let scored = score_corpus(&inputs, None, &opts, Metrics::ALL, true).unwrap();
    let report = scored.report.clone();
    let html = score_report(
        &ScoreView { report: &report, mapped: &scored.mapped },
        &ReportOptions::default(),
    )
    .unwrap();
    assert!(!html.contains("<i>y"));
    let data = payload(&html);
    assert_eq!(data["report"], serde_json::to_value(&report).unwrap());
    let f = &data["files"][0];
    assert_eq!(f["reference"].as_array().unwrap().len(), 2);
    let hyp = f["hypothesis"].as_array().unwrap();
    let x = hyp.iter().find(|h| h["speaker"] == "x").unwrap();
    let y = hyp.iter().find(|h| h["speaker"] == "\"><i>y").unwrap();
    assert_eq!((&x["mapped"], &y["mapped"]), (&Value::from("A"), &Value::from("B")));
    let kinds: Vec<&str> =
        f["errors"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert!(kinds.contains(&"confusion") && kinds.contains(&"false-alarm"));
    let d = &report.files[0].der;
    assert_eq!(d.confusion.micros(), 2_000_000);
    let want = format!(
        "data-field=\"confusion_s\" data-v=\"{}\"",
        serde_json::to_string(&d.confusion.as_secs_f64()).unwrap()
    );
    assert_eq!(html.matches(&want).count(), 2); // the file row and the total row
    let der =
        format!("data-field=\"der\" data-v=\"{}\"", serde_json::to_string(&report.der()).unwrap());
    assert!(html.contains(&der));
}

#[test]
fn ami_meeting_report_matches_its_analysis() {
    let Some(shared) = overtalk_testkit::shared_data("ami_meeting_report_matches_its_analysis")
    else {
        return;
    };
    let path = shared.join("corpora/ami/only_words/rttms/test/ES2004a.rttm");
    let read = read_path(&path, None, &ReadOptions::default()).unwrap();
    let t = read.corpus.get("ES2004a").unwrap();
    let (a, html) = report_of("ES2004a", t);
    let conversation = overtalk::output::Conversation::new("ES2004a", None, &a);
    let want = serde_json::to_value(overtalk::summary::Summarised::new(&conversation)).unwrap();
    assert_eq!(payload(&html)["conversations"][0]["result"], want);
    assert_eq!(a.speakers.len(), 4);
    let cells: Vec<&str> =
        tags(&html, "td").into_iter().filter(|t| t.contains("class=\"cell\"")).collect();
    assert_eq!(cells.len(), 12);
    let attempts: usize =
        cells.iter().map(|t| attr(t, "data-attempts").unwrap().parse::<usize>().unwrap()).sum();
    assert_eq!(Some(attempts), a.conversation.counts.events.interruptions);
    // No words in an RTTM: no transcript section.
    assert!(!html.contains("<h3>Transcript</h3>"));
}

#[test]
fn start_times_only_show_not_measurable_never_zero() {
    // A paragraph transcript: ends estimated, so nothing says who talked over whom.
    let text = "Ann (00:00):\nSo I think the plan works.\n\nBen (00:04):\nNo wait, it doesn't.\n\nAnn (00:09):\nIt does.\n";
    let read = read_str(text, Format::Rev, &ReadOptions::default()).unwrap();
    let t = read.corpus.get("recording").unwrap().clone();
    let (a, html) = report_of("debate", &t);
    assert!(a.estimated_times.is_some());
    let headline = between(&html, "<p class=\"headline\">", "</p>");
    assert!(headline.contains("interruptions and terminal overlaps not measurable"), "{headline}");
    assert!(headline.contains("floor claims in words not measurable"), "{headline}");
    assert!(!headline.contains("0 interruptions"), "{headline}");
    // Singular where the count is 1: two speakers, three turns, two transfers.
    assert!(headline.starts_with("2 speakers"), "{headline}");
    assert!(headline.contains("2 floor transfers"), "{headline}");
    let table = between(&html, "<table class=\"speakers\">", "</table>");
    assert!(!table.contains("data-field=\"interruptions_made\""), "{table}");
    assert_eq!(table.matches("not measurable").count(), 4, "{table}");
    assert!(!html.contains("<table class=\"matrix\">"));
    // The same in the numbers: unknown, not zero.
    let k = &a.conversation.counts.events;
    assert_eq!((k.interruptions, k.talk_over_events, a.conversation.overlap), (None, None, None));
    assert!(a.speakers.values().all(|s| s.interruptions_made.is_none()));
    // Measured times keep their counts, in the singular when there is one.
    let (a, html) = report_of("red-carpet", &red_carpet());
    let headline = between(&html, "<p class=\"headline\">", "</p>");
    let n = a.conversation.counts.events.interruptions.unwrap();
    let word = if n == 1 { "interruption " } else { "interruptions " };
    assert!(headline.contains(&format!("{n}</span> {word}")), "{headline}");
    assert!(html.contains("<table class=\"matrix\">"));
}

/// A two-speaker WebVTT whose durations end in 5 ms: Ann talks 3755 ms, Ben's turn is 1115 ms.
fn half_centisecond_times() -> Transcript {
    let text = "WEBVTT\n\n00:00:00.000 --> 00:00:03.755\n<v Ann>So I think the plan works for everyone here.\n\n00:00:04.000 --> 00:00:05.115\n<v Ben>No, it doesn't.\n";
    read_str(text, Format::WebVtt, &ReadOptions::default())
        .unwrap()
        .corpus
        .get("recording")
        .unwrap()
        .clone()
}

#[test]
fn seconds_are_rounded_as_the_table_rounds_them() {
    let (a, html) = report_of("plan", &half_centisecond_times());
    assert_eq!((a.speakers["Ann"].talk.get(), a.speakers["Ben"].floor.get()), (3755, 1115));
    // The speaker table: 3.755 s and 1.115 s read 3.76 and 1.12, as in `analyze` (the f64
    // formatting gave 3.75 and 1.11).
    let table = between(&html, "<table class=\"speakers\">", "</table>");
    assert!(table.contains("data-field=\"talk\" data-v=\"3755\">3.76<"), "{table}");
    assert!(table.contains("data-field=\"floor\" data-v=\"1115\">1.12<"), "{table}");
    let turns = between(&html, "<table class=\"monologues\">", "</table>");
    assert!(turns.contains("<td data-v=\"1115\">1.12</td>"), "{turns}");
    assert!(turns.contains("<td data-v=\"3755\">3.76</td>"), "{turns}");
    let headline = between(&html, "<p class=\"headline\">", "</p>");
    assert!(headline.contains("span 5.12 s · speech 4.87 s"), "{headline}");
}

#[test]
fn the_script_clock_rounds_once_and_never_shows_sixty_seconds() {
    // The page's own `clock` (tooltips, the timeline's range), run by Node when it is installed.
    let (_, html) = report_of("red-carpet", &red_carpet());
    let script = between(&html, "<script>", "</script>");
    let start = script.find("function clock(ms)").unwrap();
    let end = start + script[start..].find("\n  }\n").unwrap() + 4;
    let program = format!(
        "{}\nconsole.log([1115, 8405, 59996, 119960, 3599960, -150].map(clock).join(' '));",
        &script[start..end]
    );
    let out = match std::process::Command::new("node").arg("-e").arg(&program).output() {
        Ok(out) => out,
        Err(e) => {
            eprintln!("node not available ({e}); the script's clock is not run");
            return;
        }
    };
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim(),
        "0:01.12 0:08.41 1:00.00 2:00.0 1:00:00.0 −0:00.15"
    );
}

/// The page's own player script for tracks at offsets, run by Node (when it is installed) on
/// stand-in audio elements: Host's file starts 1.25 s before the timeline (its first 1.25 s
/// never played), Guest's 2.5 s after it, Cam's at 0. At timeline time t each follower is at
/// its own t − offset, paused before its start (and started by a timer when the transport
/// reaches it) and after its end; a click plays that moment of the timeline.
#[test]
fn the_player_script_plays_each_track_at_its_offset() {
    let t = red_carpet();
    let a = analyze(&t, &Params::default()).unwrap();
    let view = [ConversationView { recording: "red-carpet", analysis: &a, transcript: Some(&t) }];
    let track = |name: &str, us: i64| TrackAudio {
        name: name.into(),
        audio: Audio::Linked(format!("{name}.wav")),
        offset: Delta::from_micros(us),
    };
    let opts = ReportOptions {
        audio: Some(Audio::Tracks(vec![
            track("Host", -1_250_000),
            track("Guest", 2_500_000),
            track("Cam", 0),
        ])),
        ..ReportOptions::default()
    };
    let html = conversation_report(&view, &opts).unwrap();
    let players = tags(&html, "audio");
    let offsets: Vec<Option<&str>> = players.iter().map(|p| attr(p, "data-offset")).collect();
    assert_eq!(offsets, [Some("-1.250"), Some("2.500"), None]);
    let script = between(&html, "<script>", "</script>");
    let open = "  var audio = document.getElementById('overtalk-audio');";
    let sync = format!("{open}{}", between(script, open, "  function el("));
    let start = script.find("  function play(t0, t1) {").unwrap();
    let play = &script[start..start + script[start..].find("\n  }\n").unwrap() + 4];
    // Stand-ins for the three <audio> elements (data-offset as the page writes it) and a
    // timer queue run by hand.
    let harness = format!(
        r#"
function Media(offset, duration) {{
  this.attrs = offset === null ? {{}} : {{ 'data-offset': offset }};
  this.currentTime = 0; this.duration = duration; this.paused = true; this.playbackRate = 1;
  this.on = {{}};
}}
Media.prototype.getAttribute = function (k) {{ return k in this.attrs ? this.attrs[k] : null; }};
Media.prototype.addEventListener = function (t, f) {{ (this.on[t] = this.on[t] || []).push(f); }};
Media.prototype.fire = function (t) {{ (this.on[t] || []).forEach(function (f) {{ f(); }}); }};
Media.prototype.play = function () {{ this.paused = false; this.fire('play'); return {{ catch: function () {{}} }}; }};
Media.prototype.pause = function () {{ if (!this.paused) {{ this.paused = true; this.fire('pause'); }} }};
var players = [
  new Media({host}, 40), new Media({guest}, 30), new Media({cam}, 38.5)
];
var document = {{
  getElementById: function (id) {{ return id === 'overtalk-audio' ? players[0] : null; }},
  querySelectorAll: function (s) {{ return s === 'audio.overtalk-follower' ? players.slice(1) : []; }}
}};
var timers = [];
function setTimeout(f, ms) {{ timers.push({{ f: f, ms: ms }}); return timers.length; }}
function clearTimeout(id) {{ if (timers[id - 1]) timers[id - 1].f = null; }}
(function () {{
{sync}
{play}
  var host = players[0], out = [];
  function state(what) {{
    out.push(what + ': ' + players.map(function (p) {{
      return p.currentTime.toFixed(3) + (p.paused ? ' paused' : ' playing');
    }}).join(', ') + ' | timers ' + timers.filter(function (t) {{ return t.f; }})
      .map(function (t) {{ return t.ms.toFixed(1); }}).join(' '));
  }}
  function at(timeline) {{ host.currentTime = timeline + 1.25; host.fire('timeupdate'); }}
  host.fire('loadedmetadata'); state('loaded');
  play(5000, 9000); host.fire('seeked'); state('event at 5 s');
  play(1000, 4000); host.fire('seeked'); state('event at 1 s');
  at(2.5); var due = timers.filter(function (t) {{ return t.f; }}); timers = [];
  due.forEach(function (t) {{ t.f(); }}); state('timer at 2.5 s');
  at(3.2); state('drift at 3.2 s');
  at(4.0); state('stop at 4 s');
  play(31000, 60000); host.fire('seeked'); state('event at 31 s');
  at(33.0); state('Guest ended at 33 s');
  host.playbackRate = 2; host.fire('ratechange');
  play(0, 60000); host.fire('seeked'); state('event at 0 s, speed 2');
  console.log(out.join('\n'));
}})();
"#,
        host = "'-1.250'",
        guest = "'2.500'",
        cam = "null",
    );
    let out = match std::process::Command::new("node").arg("-e").arg(&harness).output() {
        Ok(out) => out,
        Err(e) => {
            eprintln!("node not available ({e}); the player script is not run");
            return;
        }
    };
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim(),
        "loaded: 1.250 paused, 0.000 paused, 0.000 paused | timers \n\
         event at 5 s: 6.250 playing, 2.500 playing, 5.000 playing | timers \n\
         event at 1 s: 2.250 playing, 0.000 paused, 1.000 playing | timers 1500.0\n\
         timer at 2.5 s: 3.750 playing, 0.000 playing, 2.500 playing | timers \n\
         drift at 3.2 s: 4.450 playing, 0.700 playing, 3.200 playing | timers \n\
         stop at 4 s: 5.250 paused, 1.500 paused, 4.000 paused | timers \n\
         event at 31 s: 32.250 playing, 28.500 playing, 31.000 playing | timers \n\
         Guest ended at 33 s: 34.250 playing, 30.000 paused, 33.000 playing | timers \n\
         event at 0 s, speed 2: 1.250 playing, 0.000 paused, 0.000 playing | timers 1250.0"
    );
}

/// Runs the page's own player script (`html`'s) in Node on stand-ins for its `<audio>`
/// elements, `media` naming them (`new Media(offset, duration)`, the first the transport),
/// with a timer queue run by hand; `body` drives it and prints. `None` when Node is missing.
///
/// The stand-ins keep the rules of the HTML spec the player depends on: a media element at
/// its end has `ended` true, and `play()` on it first seeks to 0.
fn run_player(html: &str, media: &str, body: &str) -> Option<String> {
    let script = between(html, "<script>", "</script>");
    let open = "  var audio = document.getElementById('overtalk-audio');";
    let sync = format!("{open}{}", between(script, open, "  function el("));
    let start = script.find("  function play(t0, t1) {").unwrap();
    let play = &script[start..start + script[start..].find("\n  }\n").unwrap() + 4];
    let harness = format!(
        r#"
function Media(offset, duration) {{
  this.attrs = offset === null ? {{}} : {{ 'data-offset': offset }};
  this.currentTime = 0; this.duration = duration; this.paused = true; this.playbackRate = 1;
  this.on = {{}};
}}
Object.defineProperty(Media.prototype, 'ended', {{
  get: function () {{ return this.currentTime >= this.duration; }}
}});
Media.prototype.getAttribute = function (k) {{ return k in this.attrs ? this.attrs[k] : null; }};
Media.prototype.addEventListener = function (t, f) {{ (this.on[t] = this.on[t] || []).push(f); }};
Media.prototype.fire = function (t) {{ (this.on[t] || []).forEach(function (f) {{ f(); }}); }};
Media.prototype.play = function () {{
  if (this.ended) this.currentTime = 0;
  this.paused = false; this.fire('play'); return {{ catch: function () {{}} }};
}};
Media.prototype.pause = function () {{ if (!this.paused) {{ this.paused = true; this.fire('pause'); }} }};
// Playback reaching the element's end: its last timeupdate, then pause and ended.
Media.prototype.finish = function () {{
  this.currentTime = this.duration; this.fire('timeupdate');
  this.paused = true; this.fire('pause'); this.fire('ended');
}};
var players = [{media}];
var document = {{
  getElementById: function (id) {{ return id === 'overtalk-audio' ? players[0] : null; }},
  querySelectorAll: function (s) {{ return s === 'audio.overtalk-follower' ? players.slice(1) : []; }}
}};
var timers = [];
function setTimeout(f, ms) {{ timers.push({{ f: f, ms: ms }}); return timers.length; }}
function clearTimeout(id) {{ if (timers[id - 1]) timers[id - 1].f = null; }}
(function () {{
{sync}
{play}
  var out = [];
  function state(what) {{
    out.push(what + ': ' + players.map(function (p) {{
      return p.currentTime.toFixed(3) + (p.paused ? ' paused' : ' playing');
    }}).join(', ') + ' | timers ' + timers.filter(function (t) {{ return t.f; }})
      .map(function (t) {{ return t.ms.toFixed(1); }}).join(' '));
  }}
  function due() {{
    var d = timers.filter(function (t) {{ return t.f; }}); timers = [];
    d.forEach(function (t) {{ t.f(); }});
  }}
{body}
  console.log(out.join('\n'));
}})();
"#
    );
    let out = match std::process::Command::new("node").arg("-e").arg(&harness).output() {
        Ok(out) => out,
        Err(e) => {
            eprintln!("node not available ({e}); the player script is not run");
            return None;
        }
    };
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8(out.stdout).unwrap().trim().to_owned())
}

/// A report of red-carpet with the tracks `(name, offset in µs)`.
fn report_with_tracks(tracks: &[(&str, i64)]) -> String {
    let t = red_carpet();
    let a = analyze(&t, &Params::default()).unwrap();
    let view = [ConversationView { recording: "red-carpet", analysis: &a, transcript: Some(&t) }];
    let tracks = tracks
        .iter()
        .map(|&(name, us)| TrackAudio {
            name: name.into(),
            audio: Audio::Linked(format!("{name}.wav")),
            offset: Delta::from_micros(us),
        })
        .collect();
    let opts = ReportOptions { audio: Some(Audio::Tracks(tracks)), ..ReportOptions::default() };
    conversation_report(&view, &opts).unwrap()
}

/// The transport's track ends before a later one: Host from 0 s, 10 s long, drives; Guest from
/// +5 s, 10 s long, ends at 15 s on the timeline. When Host ends, Guest plays its last 5 s on
/// (Host's play button pauses and resumes it), and a click past Host's end plays that moment of
/// Guest (Host held at its end, never restarted from 0, also when Guest reports a time a few
/// ms short of Host's end); a seek of Host's own controls takes the transport back.
#[test]
fn the_player_script_plays_a_track_on_past_the_transports_end() {
    let html = report_with_tracks(&[("Host", 0), ("Guest", 5_000_000)]);
    let players = tags(&html, "audio");
    let offsets: Vec<Option<&str>> = players.iter().map(|p| attr(p, "data-offset")).collect();
    assert_eq!(offsets, [None, Some("5.000")]);
    let body = r#"
  var host = players[0], guest = players[1];
  function at(timeline) { host.currentTime = timeline; host.fire('timeupdate'); }
  function guestAt(timeline) { guest.currentTime = timeline - 5; guest.fire('timeupdate'); }
  host.fire('loadedmetadata'); state('loaded');
  play(0, 60000); host.fire('seeked'); state('play from 0 s');
  at(5); due(); state('Guest starts at 5 s');
  at(9.5); state('at 9.5 s');
  guest.currentTime = 4.997; host.finish(); state('Host ended at 10 s, Guest 3 ms behind');
  guestAt(12); state('at 12 s');
  host.play(); state('Host play button: pause');
  host.fire('seeked'); state('its seek back to its end');
  host.play(); state('Host play button: resume');
  guestAt(13.2); state('at 13.2 s');
  guest.finish(); state('Guest ended at 15 s');
  play(12000, 14000); guest.fire('seeked'); state('event at 12 s');
  guestAt(14); state('stop at 14 s');
  play(3000, 60000); host.fire('seeked'); state('event at 3 s');
  play(11000, 60000); guest.fire('seeked'); host.fire('seeked'); state('event at 11 s while Host plays');
  host.currentTime = 4; host.fire('seeked'); state('Host seek bar to 4 s');
  host.playbackRate = 2; host.fire('ratechange');
  play(10000, 60000); guest.fire('seeked'); state('event at 10 s, speed 2');
  out.push('rates ' + players.map(function (p) { return p.playbackRate; }).join(' '));
  host.play(); state('Host play button: pause');
  host.play(); state('Host play button: resume');
  guest.finish(); host.play(); state('after the end, Host play button: from the start');
"#;
    let Some(out) = run_player(&html, "new Media(null, 10), new Media('5.000', 10)", body) else {
        return;
    };
    assert_eq!(
        out,
        "loaded: 0.000 paused, 0.000 paused | timers \n\
         play from 0 s: 0.000 playing, 0.000 paused | timers 5000.0\n\
         Guest starts at 5 s: 5.000 playing, 0.000 playing | timers \n\
         at 9.5 s: 9.500 playing, 4.500 playing | timers \n\
         Host ended at 10 s, Guest 3 ms behind: 10.000 paused, 4.997 playing | timers \n\
         at 12 s: 10.000 paused, 7.000 playing | timers \n\
         Host play button: pause: 10.000 paused, 7.000 paused | timers \n\
         its seek back to its end: 10.000 paused, 7.000 paused | timers \n\
         Host play button: resume: 10.000 paused, 7.000 playing | timers \n\
         at 13.2 s: 10.000 paused, 8.200 playing | timers \n\
         Guest ended at 15 s: 10.000 paused, 10.000 paused | timers \n\
         event at 12 s: 10.000 paused, 7.000 playing | timers \n\
         stop at 14 s: 10.000 paused, 9.000 paused | timers \n\
         event at 3 s: 3.000 playing, 0.000 paused | timers 2000.0\n\
         event at 11 s while Host plays: 10.000 paused, 6.000 playing | timers \n\
         Host seek bar to 4 s: 4.000 playing, 0.000 paused | timers 1000.0\n\
         event at 10 s, speed 2: 10.000 paused, 5.000 playing | timers \n\
         rates 2 2\n\
         Host play button: pause: 10.000 paused, 5.000 paused | timers \n\
         Host play button: resume: 10.000 paused, 5.000 playing | timers \n\
         after the end, Host play button: from the start: 0.000 playing, 0.000 paused | timers 2500.0"
    );
}

/// The controls shown are the transport's (Host from 0 s, 10 s long; Guest from +5 s, 10 s
/// long): when Host ends and Guest plays on, Guest's controls replace Host's, so the button
/// shown says "pause" while Guest plays; Guest's own pause and play act on every track, a seek
/// of Guest's bar into Host's stretch gives the transport and the controls back to Host, and
/// so does playing Guest again after every track's end: the timeline plays again from 0 (the
/// browser restarts Guest at its own start, 5 s into the timeline, which would skip Host's
/// first 5 s).
#[test]
fn the_player_script_shows_the_controls_of_the_track_playing_on() {
    let html = report_with_tracks(&[("Host", 0), ("Guest", 5_000_000)]);
    let body = r#"
  var host = players[0], guest = players[1];
  host.controls = true; guest.controls = false;
  function at(timeline) { host.currentTime = timeline; host.fire('timeupdate'); }
  function shown(what) {
    state(what);
    out.push('  controls ' + players.filter(function (p) { return p.controls; })
      .map(function (p) { return p === host ? 'Host' : 'Guest'; }).join(' '));
  }
  host.fire('loadedmetadata');
  play(0, 60000); host.fire('seeked'); at(5); due(); at(9.5); shown('at 9.5 s');
  guest.currentTime = 5; host.finish(); shown('Host ended at 10 s');
  guest.pause(); shown('Guest pause button');
  guest.play(); shown('Guest play button');
  guest.currentTime = 2; guest.fire('seeked'); shown('Guest seek bar to its 2 s');
  play(12000, 60000); guest.fire('seeked'); shown('event at 12 s');
  guest.finish(); shown('Guest ended at 15 s');
  guest.play(); guest.fire('seeked'); shown('Guest play button after the end');
"#;
    let Some(out) = run_player(&html, "new Media(null, 10), new Media('5.000', 10)", body) else {
        return;
    };
    assert_eq!(
        out,
        "at 9.5 s: 9.500 playing, 4.500 playing | timers \n  controls Host\n\
         Host ended at 10 s: 10.000 paused, 5.000 playing | timers \n  controls Guest\n\
         Guest pause button: 10.000 paused, 5.000 paused | timers \n  controls Guest\n\
         Guest play button: 10.000 paused, 5.000 playing | timers \n  controls Guest\n\
         Guest seek bar to its 2 s: 7.000 playing, 2.000 playing | timers \n  controls Host\n\
         event at 12 s: 10.000 paused, 7.000 playing | timers \n  controls Guest\n\
         Guest ended at 15 s: 10.000 paused, 10.000 paused | timers \n  controls Guest\n\
         Guest play button after the end: 0.000 playing, 0.000 paused | timers 5000.0\n  \
         controls Host"
    );
}

/// Tracks of one recorder (no offsets) play as they always did: the first track drives, the
/// others follow its play, seek, drift, speed and pause, and stop with it at its end; a click
/// past its end changes nothing of that.
#[test]
fn the_player_script_without_offsets_follows_the_transport() {
    let html = report_with_tracks(&[("Host", 0), ("Guest", 0)]);
    let players = tags(&html, "audio");
    assert!(players.iter().all(|p| attr(p, "data-offset").is_none()));
    let body = r#"
  var host = players[0], guest = players[1];
  function at(timeline) { host.currentTime = timeline; host.fire('timeupdate'); }
  host.fire('loadedmetadata'); state('loaded');
  play(2000, 4000); host.fire('seeked'); state('event at 2 s');
  at(2.5); guest.currentTime = 2.58; at(2.54); state('within 50 ms at 2.54 s');
  guest.currentTime = 2.7; at(2.6); state('drift at 2.6 s');
  at(4); state('stop at 4 s');
  host.playbackRate = 1.5; host.fire('ratechange');
  play(8000, 60000); host.fire('seeked'); state('event at 8 s, speed 1.5');
  out.push('rates ' + players.map(function (p) { return p.playbackRate; }).join(' '));
  host.pause(); state('pause');
  host.play(); state('play');
  host.finish(); state('Host ended at 10 s');
  host.play(); host.fire('seeked'); state('play again from the start');
"#;
    let Some(out) = run_player(&html, "new Media(null, 10), new Media(null, 10)", body) else {
        return;
    };
    assert_eq!(
        out,
        "loaded: 0.000 paused, 0.000 paused | timers \n\
         event at 2 s: 2.000 playing, 2.000 playing | timers \n\
         within 50 ms at 2.54 s: 2.540 playing, 2.580 playing | timers \n\
         drift at 2.6 s: 2.600 playing, 2.600 playing | timers \n\
         stop at 4 s: 4.000 paused, 4.000 paused | timers \n\
         event at 8 s, speed 1.5: 8.000 playing, 8.000 playing | timers \n\
         rates 1.5 1.5\n\
         pause: 8.000 paused, 8.000 paused | timers \n\
         play: 8.000 playing, 8.000 playing | timers \n\
         Host ended at 10 s: 10.000 paused, 10.000 paused | timers \n\
         play again from the start: 0.000 playing, 0.000 playing | timers"
    );
}
