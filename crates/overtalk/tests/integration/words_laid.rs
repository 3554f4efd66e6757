//! Words from captions laid on detected speakers: a YouTube auto-caption file and a Whisper
//! JSON of the same words, laid on who-spoke-when, give text mode and the floor claims that a
//! transcript of those words with its speakers gives.
#![allow(clippy::unwrap_used)]

use overtalk::analysis::result::Mode;
use overtalk::analysis::{analyze, Analysis, Millis, Params};
use overtalk::format::{read_str, Format, ReadOptions};
use overtalk::words::{lay, words_of, LayOptions};
use overtalk::{Content, Segment, Time, Transcript, TranscriptBuilder, Word};

/// Who spoke when, as a detector gives it: Host, interrupted by Guest at 3.0 s, comes back at
/// 6.2 s over Guest's last words to claim the floor.
const TURNS: [(&str, i64, i64); 3] =
    [("Host", 500, 3400), ("Guest", 3000, 6600), ("Host", 6200, 9500)];

/// The words each speaker said, `(speaker, word, start ms, end ms)`, in time order.
const SAID: &[(&str, &str, i64, i64)] = &[
    ("Host", "so", 500, 700),
    ("Host", "the", 700, 900),
    ("Host", "plan", 900, 1300),
    ("Host", "is", 1300, 1500),
    ("Host", "that", 1500, 1800),
    ("Host", "we", 1800, 2000),
    ("Host", "leave", 2000, 2400),
    ("Host", "early", 2400, 2900),
    ("Host", "and", 2900, 3100),
    ("Guest", "no", 3100, 3600),
    ("Guest", "wait", 3600, 4000),
    ("Guest", "we", 4000, 4200),
    ("Guest", "should", 4200, 4500),
    ("Guest", "go", 4500, 4800),
    ("Guest", "on", 4800, 5000),
    ("Guest", "saturday", 5000, 5600),
    ("Guest", "because", 5600, 6100),
    ("Guest", "it's", 6100, 6300),
    ("Guest", "quiet", 6300, 6500),
    ("Host", "when", 6500, 6900),
    ("Host", "I'm", 6900, 7100),
    ("Host", "talking", 7100, 7600),
    ("Host", "you're", 7600, 7900),
    ("Host", "not", 7900, 8100),
    ("Host", "talking.", 8100, 8800),
    ("Host", "let", 8800, 9000),
    ("Host", "me", 9000, 9100),
    ("Host", "finish.", 9100, 9500),
];

fn ms(a: i64, z: i64) -> Segment {
    Segment::from_millis(a, z).unwrap()
}

/// The detection: the turns without words.
fn detected() -> Transcript {
    let mut b = TranscriptBuilder::new();
    for (who, a, z) in TURNS {
        b.add(ms(a, z), who, None);
    }
    b.build()
}

/// The transcript of the same words with its speakers: each turn with the words said in it.
fn reference() -> Transcript {
    let mut b = TranscriptBuilder::new();
    let mut placed = 0;
    for (who, a, z) in TURNS {
        let words: Vec<Word> = SAID
            .iter()
            .filter(|w| w.0 == who && w.2 >= a && w.3 <= z)
            .map(|w| Word::timed(w.1, Time::from_millis(w.2), Time::from_millis(w.3)))
            .collect();
        placed += words.len();
        b.add(ms(a, z), who, Some(Content { text: None, words }));
    }
    assert_eq!(placed, SAID.len());
    b.build()
}

fn clock(t: i64) -> String {
    format!("00:00:{:02}.{:03}", t / 1000, t % 1000)
}

/// The words as YouTube's auto-captions give them: no speakers, four words a line, each cue
/// repeating the line before, a 10 ms cue that only repeats, inline times for every word.
fn youtube_vtt() -> String {
    let lines: Vec<&[(&str, &str, i64, i64)]> = SAID.chunks(4).collect();
    let mut out = String::from("WEBVTT\nKind: captions\nLanguage: en\n");
    let plain = |l: &[(&str, &str, i64, i64)]| l.iter().map(|w| w.1).collect::<Vec<_>>().join(" ");
    for (k, line) in lines.iter().enumerate() {
        let start = line[0].2;
        let end = lines.get(k + 1).map_or(line[line.len() - 1].3, |n| n[0].2 - 10);
        let mut timed = line[0].1.to_owned();
        for w in &line[1..] {
            timed.push_str(&format!("<{}><c> {}</c>", clock(w.2), w.1));
        }
        let above = if k == 0 { " ".to_owned() } else { plain(lines[k - 1]) };
        out.push_str(&format!(
            "\n{} --> {} align:start position:0%\n{above}\n{timed}\n",
            clock(start),
            clock(end)
        ));
        if k + 1 < lines.len() {
            out.push_str(&format!(
                "\n{} --> {} align:start position:0%\n{}\n \n",
                clock(end),
                clock(end + 10),
                plain(line)
            ));
        }
    }
    out
}

/// The words as OpenAI Whisper's JSON gives them (`--word_timestamps True`): one segment per
/// sentence-ish stretch, words with a leading space and a probability, no speakers.
fn whisper_json() -> String {
    let cut = [0, 9, 19, SAID.len()];
    let segments: Vec<serde_json::Value> = cut
        .windows(2)
        .enumerate()
        .map(|(id, r)| {
            let ws = &SAID[r[0]..r[1]];
            serde_json::json!({
                "id": id,
                "start": ws[0].2 as f64 / 1000.0,
                "end": ws[ws.len() - 1].3 as f64 / 1000.0,
                "text": ws.iter().map(|w| format!(" {}", w.1)).collect::<String>(),
                "words": ws.iter().map(|w| serde_json::json!({
                    "word": format!(" {}", w.1),
                    "start": w.2 as f64 / 1000.0,
                    "end": w.3 as f64 / 1000.0,
                    "probability": 0.9,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    serde_json::json!({"text": "", "segments": segments, "language": "en"}).to_string()
}

/// `(speaker, phrase, start, end, the onset answered)` of every verbal claim.
fn claims(a: &Analysis) -> Vec<(String, String, i64, i64, Option<String>)> {
    a.verbal_claims
        .iter()
        .map(|c| {
            let answered = c.answers.map(|_| {
                let who = c.answers_speaker.as_deref().unwrap_or("");
                format!("{who} {:?} {:?}", c.answers_time.map(Millis::get), c.answers_class)
            });
            (c.speaker.to_string(), c.phrase.clone(), c.start.get(), c.end.get(), answered)
        })
        .collect()
}

fn laid_from(text: &str, format: Format) -> (Transcript, overtalk::words::LayStats) {
    let read = read_str(text, format, &ReadOptions::default()).unwrap();
    let captions = read.corpus.iter().next().unwrap().1;
    let words = words_of(captions);
    let laid = lay(&detected(), &words, &LayOptions::default(), None).unwrap();
    (laid.transcript, laid.stats)
}

#[test]
fn captions_laid_on_a_detection_find_the_claims_of_the_transcript() {
    let params = Params::default();
    let truth = analyze(&reference(), &params).unwrap();
    let expected = claims(&truth);
    let onset = Some("Guest Some(3000) Some(Interruption)".to_owned());
    let claim = |p: &str, a, z| ("Host".to_owned(), p.to_owned(), a, z, onset.clone());
    assert_eq!(
        expected,
        vec![
            claim("when i'm talking", 6500, 7600),
            claim("you're not talking", 7600, 8800),
            claim("let me finish", 8800, 9500),
        ]
    );
    let timing_only = analyze(&detected(), &params).unwrap();
    assert!(timing_only.verbal_claims.is_empty());
    assert!(timing_only.mode.values().all(|m| *m == Mode::Timing));
    for (name, text, format) in
        [("youtube", youtube_vtt(), Format::WebVtt), ("whisper", whisper_json(), Format::WhisperX)]
    {
        let (laid, stats) = laid_from(&text, format);
        assert_eq!(
            (stats.words, stats.by_overlap, stats.nearest, stats.dropped),
            (SAID.len(), SAID.len(), 0, 0),
            "{name}"
        );
        // Every word on the speaker who said it, in the turn it was said in.
        let who: Vec<(String, Vec<String>)> = laid
            .utterances()
            .map(|u| {
                let words = u.content.map(|c| c.words.iter().map(|w| w.text.clone()).collect());
                (u.speaker_name.to_owned(), words.unwrap_or_default())
            })
            .collect();
        let want: Vec<(String, Vec<String>)> = reference()
            .utterances()
            .map(|u| {
                let words = u.content.unwrap().words.iter().map(|w| w.text.clone()).collect();
                (u.speaker_name.to_owned(), words)
            })
            .collect();
        assert_eq!(who, want, "{name}");
        let a = analyze(&laid, &params).unwrap();
        assert!(a.mode.values().all(|m| *m == Mode::Text), "{name}: {:?}", a.mode);
        assert_eq!(claims(&a), expected, "{name}");
        assert_eq!(a.onsets, truth.onsets, "{name}");
    }
}
