//! `--words FILE`: captions without speakers laid on the speakers of a recording.

use crate::util::Dir;

/// The voice of the audio crate's committed speech clip (16 kHz mono), without its leading
/// and trailing digital silence (3.17 s).
fn voice() -> Vec<f32> {
    let path = crate::util::audio_fixture("speech.wav");
    let bytes = std::fs::read(path).expect("speech clip");
    let at = bytes.windows(4).position(|w| w == b"data").expect("data chunk") + 8;
    let s: Vec<i16> =
        bytes[at..].chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
    let first = s.iter().position(|v| *v != 0).unwrap_or(0);
    let last = s.iter().rposition(|v| *v != 0).map_or(0, |i| i + 1);
    s[first..last].iter().map(|&v| f32::from(v)).collect()
}

/// A 16 kHz 16-bit mono WAV.
fn wav(dir: &Dir, name: &str, samples: &[f32]) {
    let data: Vec<u8> =
        samples.iter().flat_map(|v| (v.clamp(-32768.0, 32767.0) as i16).to_le_bytes()).collect();
    let mut out = Vec::with_capacity(44 + data.len());
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data.len() as u32).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    for v in [16u32, 1 | (1 << 16), 16_000, 32_000, 2 | (16 << 16)] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(b"data");
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&data);
    std::fs::write(dir.path().join(name), out).expect("write wav");
}

/// Two mics, 10 s: Host talks from 0.5 s, Guest cuts in at 3.0 s, Host comes back at 5.7 s
/// over Guest's last words; each mic hears the other 20 dB down.
fn write_tracks(dir: &Dir) {
    let v = voice();
    let (mut host, mut guest) = (vec![0f32; 160_000], vec![0f32; 160_000]);
    for (at, by_host) in [(8_000, true), (48_000, false), (91_200, true)] {
        for (i, &x) in v.iter().enumerate() {
            let (h, g) = if by_host { (x, x * 0.1) } else { (x * 0.1, x) };
            host[at + i] += h;
            guest[at + i] += g;
        }
    }
    wav(dir, "host.wav", &host);
    wav(dir, "guest.wav", &guest);
}

/// `(speaker, word, start ms, end ms)` of what was said, in time order.
const SAID: &[(&str, &str, i64, i64)] = &[
    ("Host", "so", 600, 900),
    ("Host", "the", 900, 1100),
    ("Host", "plan", 1100, 1500),
    ("Host", "is", 1500, 1700),
    ("Host", "that", 1700, 2000),
    ("Host", "we", 2000, 2200),
    ("Host", "leave", 2200, 2600),
    ("Host", "early", 2600, 3200),
    ("Host", "and", 3200, 3600),
    ("Guest", "no", 3800, 4100),
    ("Guest", "wait", 4100, 4400),
    ("Guest", "we", 4400, 4600),
    ("Guest", "should", 4600, 4900),
    ("Guest", "go", 4900, 5100),
    ("Guest", "on", 5100, 5300),
    ("Guest", "saturday", 5300, 6000),
    ("Host", "when", 6300, 6600),
    ("Host", "I'm", 6600, 6800),
    ("Host", "talking", 6800, 7200),
    ("Host", "you're", 7200, 7500),
    ("Host", "not", 7500, 7700),
    ("Host", "talking.", 7700, 8100),
    ("Host", "let", 8100, 8300),
    ("Host", "me", 8300, 8400),
    ("Host", "finish.", 8400, 8800),
];

fn clock(t: i64) -> String {
    format!("00:00:{:02}.{:03}", t / 1000, t % 1000)
}

/// The words as YouTube auto-captions: four words a line, rolling cues, no speakers.
fn youtube() -> String {
    let lines: Vec<&[(&str, &str, i64, i64)]> = SAID.chunks(4).collect();
    let plain = |l: &[(&str, &str, i64, i64)]| l.iter().map(|w| w.1).collect::<Vec<_>>().join(" ");
    let mut out = String::from("WEBVTT\nKind: captions\nLanguage: en\n");
    for (k, line) in lines.iter().enumerate() {
        let end = lines.get(k + 1).map_or(line[line.len() - 1].3, |n| n[0].2 - 10);
        let mut timed = line[0].1.to_owned();
        for w in &line[1..] {
            timed.push_str(&format!("<{}><c> {}</c>", clock(w.2), w.1));
        }
        let above = if k == 0 { " ".to_owned() } else { plain(lines[k - 1]) };
        out.push_str(&format!("\n{} --> {}\n{above}\n{timed}\n", clock(line[0].2), clock(end)));
        if k + 1 < lines.len() {
            out.push_str(&format!(
                "\n{} --> {}\n{}\n \n",
                clock(end),
                clock(end + 10),
                plain(line)
            ));
        }
    }
    out
}

/// The words as Whisper JSON: segments of words with times, no speakers.
fn whisper() -> String {
    let words: Vec<serde_json::Value> = SAID
        .iter()
        .map(|w| serde_json::json!({"word": format!(" {}", w.1), "start": w.2 as f64 / 1000.0, "end": w.3 as f64 / 1000.0, "probability": 0.9}))
        .collect();
    serde_json::json!({"text": "", "language": "en", "segments": [
        {"id": 0, "start": 0.6, "end": 6.0, "text": "", "words": words[..16]},
        {"id": 1, "start": 6.3, "end": 8.8, "text": "", "words": words[16..]},
    ]})
    .to_string()
}

/// The transcript of the same words with its speakers: one voice cue per turn, inline times.
fn transcript() -> String {
    let mut out = String::from("WEBVTT\n");
    for (who, a, z) in [("Host", 500, 3670), ("Guest", 3000, 6170), ("Host", 5700, 8800)] {
        let ws: Vec<_> = SAID.iter().filter(|w| w.0 == who && w.2 >= a && w.3 <= z).collect();
        let body: Vec<String> = ws.iter().map(|w| format!("<{}>{}", clock(w.2), w.1)).collect();
        out.push_str(&format!(
            "\n{} --> {}\n<v {who}>{}</v>\n",
            clock(a),
            clock(z),
            body.join(" ")
        ));
    }
    out
}

/// `(speaker, phrase, start, end, answers speaker, answers class)` of each verbal claim, and
/// the time of the onset answered.
fn claims(json: &str) -> Vec<(String, i64)> {
    let all: serde_json::Value = serde_json::from_str(json).unwrap();
    all["conversations"][0]["verbal_claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let key = format!(
                "{} {} {}-{} answers {} {}",
                c["speaker"],
                c["phrase"],
                c["start"],
                c["end"],
                c["answers_speaker"],
                c["answers_class"]
            );
            (key, c["answers_time"].as_i64().unwrap_or(-1))
        })
        .collect()
}

#[test]
fn captions_laid_on_two_tracks_find_the_claims_of_the_transcript() {
    let dir = Dir::new();
    write_tracks(&dir);
    dir.create("auto.en.vtt", &youtube());
    dir.create("whisper.json", &whisper());
    dir.create("truth.vtt", &transcript());
    // The structural rules class the onset each claim answers: the calibrated classifier reads
    // the holder's last word before it stops, which depends on how the words of the overlap
    // are laid, so its class would compare the laying, not the claims.
    let rules = ["--classifier", "rules"];
    let truth =
        dir.run(&["analyze", "truth.vtt", "--format", "json", "--classifier", "rules"]).ok();
    let expected = claims(&truth);
    let claim = |p: &str, a, z| {
        (format!("\"Host\" \"{p}\" {a}-{z} answers \"Guest\" \"interruption\""), 3000)
    };
    assert_eq!(
        expected,
        vec![
            claim("when i'm talking", 6300, 7200),
            claim("you're not talking", 7200, 8100),
            claim("let me finish", 8100, 8800),
        ]
    );
    let tracks = ["--track", "Host=host.wav", "--track", "Guest=guest.wav"];
    let timing = dir.run(&[&["analyze"][..], &tracks, &["--format", "json"]].concat()).ok();
    assert_eq!(claims(&timing), vec![]);
    // The last caption line is one word without an inline time: timed by its cue. Three
    // words lie in the speech of both: "early" and "and" (Host's last words, as Guest cuts
    // in) and "saturday" (Guest's last, as Host comes back); the tracks' levels give each to
    // its speaker. (By timing, the caption's "and", which lasts until Guest's "no", went to
    // Guest, and Whisper's was a tie kept with the previous word's Host.)
    let notes = [
        ("auto.en.vtt", 3, "; 1 without times of their own spread evenly"),
        ("whisper.json", 3, ""),
    ];
    for (words, levels, spread) in notes {
        let run = dir.run(
            &[&["analyze"][..], &tracks, &["--words", words, "--format", "json"], &rules].concat(),
        );
        assert_eq!(run.code(), 0, "{}", run.stderr());
        assert_eq!(
            run.stderr(),
            format!("overtalk: note: {words}: 25 words laid on the speakers of host+guest: 25 by overlap ({levels} of them in the speech of several speakers by the tracks' levels, 0 there without a 3 dB margin between the levels; 0 by the tie rule), 0 on the nearest speech within 0.5 s{spread}\n")
        );
        let out = run.stdout();
        let all: serde_json::Value = serde_json::from_str(&out).unwrap();
        let v = &all["conversations"][0];
        assert_eq!(v["mode"], serde_json::json!({"Guest": "text", "Host": "text"}), "{words}");
        let method = v["detection"]["method"].as_str().unwrap();
        assert!(
            method.ends_with(&format!("; words from {words} laid on the speakers (most overlap; in overlapped speech by the tracks' levels: {levels} of 25 words)")),
            "{method}"
        );
        let got = claims(&out);
        assert_eq!(got.len(), expected.len(), "{words}: {got:?}");
        for (g, e) in got.iter().zip(&expected) {
            assert_eq!(g.0, e.0, "{words}");
            assert!((g.1 - e.1).abs() <= 50, "{words}: the interruption detected at {} ms", g.1);
        }
    }
    // `detect` writes the words on their speakers; `report` shows them.
    let run = dir.run(
        &[&["detect"][..], &tracks, &["--words", "whisper.json", "-o", "laid.vtt", "-q"]].concat(),
    );
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let vtt = dir.read("laid.vtt");
    assert!(
        vtt.contains("<v Guest><00:00:03.800>no <00:00:04.100>wait <00:00:04.400>we "),
        "{vtt}"
    );
    assert!(vtt.contains("<v Host><00:00:06.300>when <00:00:06.600>I'm"), "{vtt}");
    dir.run(
        &[&["report"][..], &tracks, &["--words", "auto.en.vtt", "-o", "r.html", "-q"]].concat(),
    )
    .ok();
    assert!(dir.read("r.html").contains("saturday"));
}

#[test]
fn words_that_are_not_of_the_recording_are_clear_errors() {
    let dir = Dir::new();
    write_tracks(&dir);
    let tracks = ["--track", "Host=host.wav", "--track", "Guest=guest.wav"];
    // Words far from any speech: an error, not an empty result.
    dir.create("late.srt", "1\n00:01:00,000 --> 00:01:02,000\nhello there\n");
    let run = dir.run(&[&["analyze"][..], &tracks, &["--words", "late.srt"]].concat());
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: --words late.srt: laying its words on host+guest: none of the 2 words lies in or within 0.5 s of the speakers' speech (are they the words of this recording?)\n"
    );
    // Some words in no speech: dropped with a warning that counts them, and those past the
    // recording's end (10 s) named as such; an error with --strict.
    dir.create(
        "some.srt",
        "1\n00:00:01,000 --> 00:00:02,000\nhello there\n\n2\n00:00:12,000 --> 00:00:13,000\ngone\n",
    );
    let run = dir.run(&[&["analyze"][..], &tracks, &["--words", "some.srt"]].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(run.stderr().contains(
        "overtalk: warning: some.srt: 1 of 3 words lie in no speech of host+guest and farther than 0.5 s from any: dropped; 1 of them starts after the recording ends (10.000 s): captions of another recording, or of a longer cut of this one?\n"
    ), "{}", run.stderr());
    // Words in the recording but in no speech (9.70–9.95 s: after the last turn) are not said
    // to be after its end.
    dir.create(
        "inside.srt",
        "1\n00:00:01,000 --> 00:00:02,000\nhello there\n\n2\n00:00:09,700 --> 00:00:09,950\nhush\n\n3\n00:00:12,000 --> 00:00:13,000\ngone again\n",
    );
    let inside = dir.run(&[&["analyze"][..], &tracks, &["--words", "inside.srt"]].concat());
    assert!(inside.stderr().contains(
        "overtalk: warning: inside.srt: 3 of 5 words lie in no speech of host+guest and farther than 0.5 s from any: dropped; 2 of them start after the recording ends (10.000 s): captions of another recording, or of a longer cut of this one?\n"
    ), "{}", inside.stderr());
    assert!(
        run.stderr().contains("3 without times of their own spread evenly"),
        "{}",
        run.stderr()
    );
    // A word past the end of the recording but within 0.5 s of its last speech is laid on
    // it, so it is not counted among the dropped ones past the end: a grid of 21 s whose
    // speech ends at 20.9 s, words at 1, 10 (dropped) and 21.1 s.
    dir.create("ana.TextGrid", "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n\nxmin = 0\nxmax = 21\ntiers? <exists>\nsize = 1\nitem []:\n    item [1]:\n        class = \"IntervalTier\"\n        name = \"Ana\"\n        xmin = 0\n        xmax = 21\n        intervals: size = 4\n        intervals [1]:\n            xmin = 0\n            xmax = 5\n            text = \"Ana\"\n        intervals [2]:\n            xmin = 5\n            xmax = 15\n            text = \"\"\n        intervals [3]:\n            xmin = 15\n            xmax = 20.9\n            text = \"Ana\"\n        intervals [4]:\n            xmin = 20.9\n            xmax = 21\n            text = \"\"\n");
    dir.create(
        "w.srt",
        "1\n00:00:01,000 --> 00:00:01,500\nhello\n\n2\n00:00:10,000 --> 00:00:10,300\nlost\n\n3\n00:00:21,100 --> 00:00:21,300\nbye\n",
    );
    let near = dir.run(&["analyze", "ana.TextGrid", "--words", "w.srt"]);
    assert!(near.stderr().contains(
        "overtalk: warning: w.srt: 1 of 3 words lie in no speech of ana and farther than 0.5 s from any: dropped\n"
    ), "{}", near.stderr());
    // Words for the first seconds only: the speaker they miss is named.
    assert!(
        run.stderr().contains("some.srt: the words cover 0 % of \"Guest\"'s speech"),
        "{}",
        run.stderr()
    );
    assert!(!run.stderr().contains("of \"Host\"'s speech"), "{}", run.stderr());
    let run = dir.run(&[&["analyze"][..], &tracks, &["--words", "some.srt", "--strict"]].concat());
    assert_eq!(run.code(), 2);
    assert!(
        run.stderr().ends_with("of a longer cut of this one? (--strict)\n"),
        "{}",
        run.stderr()
    );
    // A words file of no format it can tell points to --words-from, not --from.
    dir.create("odd.dat", "something\nelse entirely\n");
    let run = dir.run(&[&["analyze"][..], &tracks, &["--words", "odd.dat"]].concat());
    assert_eq!(run.code(), 2);
    assert!(run.stderr().contains("--words-from"), "{}", run.stderr());
    assert!(!run.stderr().contains(" --from"), "{}", run.stderr());
    // Caption cues that overlap each other (rolling captions): the file's one placeholder
    // speaker "overlaps themselves", which says nothing about the recording; not shown.
    dir.create(
        "rolling.srt",
        "1\n00:00:01,000 --> 00:00:02,500\nhello there\n\n2\n00:00:02,000 --> 00:00:03,000\nfriend\n",
    );
    let run = dir.run(&[&["analyze"][..], &tracks, &["--words", "rolling.srt"]].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(!run.stderr().contains("overlaps themselves"), "{}", run.stderr());
    // Broadcast captions mark a new speaker with `>>` and name no one: whose the lines are is
    // what the recording answers, so the file's own want of speakers is not shown.
    dir.create(
        "news.srt",
        "1\n00:00:01,000 --> 00:00:02,500\n>> hello there\n\n2\n00:00:02,600 --> 00:00:03,000\n>> friend\n",
    );
    let run = dir.run(&["convert", "news.srt", "--to", "rttm", "-o", "-"]);
    assert!(
        run.stderr().contains("open with `>>` (a new speaker) without a name")
            && run.stderr().contains("lost (missing-speaker)"),
        "{}",
        run.stderr()
    );
    let run = dir.run(&[&["analyze"][..], &tracks, &["--words", "news.srt"]].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(!run.stderr().contains("`>>`"), "{}", run.stderr());
    // A bad cue is skipped with a warning naming its line and column (its file then has no
    // words: an error); with --strict the bad cue itself is the error.
    dir.create("bad.vtt", "WEBVTT\n\n00:01.000 --> 00:0x.000\nhi\n");
    let run = dir.run(&[&["analyze"][..], &tracks, &["--words", "bad.vtt"]].concat());
    assert_eq!(run.code(), 2);
    assert!(
        run.stderr().starts_with("overtalk: warning: bad.vtt: line 3, column 15: "),
        "{}",
        run.stderr()
    );
    assert!(run.stderr().contains("the transcript has no words"), "{}", run.stderr());
    let run = dir.run(&[&["analyze"][..], &tracks, &["--words", "bad.vtt", "--strict"]].concat());
    assert_eq!(run.code(), 2);
    assert!(
        run.stderr().starts_with("overtalk: error: bad.vtt: line 3, column 15: cue end"),
        "{}",
        run.stderr()
    );
    // A note on valid captions (a caption of two named speakers, its time divided between
    // them) is no repair: printed, and --strict keeps it a warning, as for any input.
    dir.create(
        "marked.srt",
        "1\n00:00:00,600 --> 00:00:03,600\nso the plan is that we leave early and\n\n2\n00:00:03,800 --> 00:00:06,000\nANN: no wait\nBOB: we should go on saturday\n",
    );
    let run =
        dir.run(&[&["analyze"][..], &tracks, &["--words", "marked.srt", "--strict"]].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(
        run.stderr().contains("overtalk: warning: marked.srt: line 7, column 1: 1 block(s) hold two speakers or more on separate lines"),
        "{}",
        run.stderr()
    );
    dir.create("a.rttm", "SPEAKER a 1 0.0 1.0 <NA> <NA> A <NA> <NA>\n");
    // Words do not change a score: `score` says so instead of ignoring them.
    let run = dir.run(&["score", "-r", "a.rttm", "-s", "a.rttm", "--words", "some.srt"]);
    assert_eq!(run.code(), 2);
    assert_eq!(run.stderr(), "overtalk: error: --words some.srt: score compares who spoke when, which words do not change (DER and JER stay the same); give --words to detect, analyze or report to see the words on the speakers\n");
    // One words file for one conversation.
    dir.create("a.rttm", "SPEAKER a 1 0.0 1.0 <NA> <NA> A <NA> <NA>\n");
    dir.create("b.rttm", "SPEAKER b 1 0.0 1.0 <NA> <NA> B <NA> <NA>\n");
    let run = dir.run(&["analyze", "a.rttm", "b.rttm", "--words", "some.srt"]);
    assert_eq!(run.code(), 2);
    assert_eq!(run.stderr(), "overtalk: error: --words lays the words of one recording on its speakers; the inputs hold 2 recordings\n");
}

/// One mixed recording, diarized (a GE2E model with deterministic weights, so the path runs
/// without the real model): the words of the captions land on its speakers and every speaker
/// who got words is in text mode.
#[test]
fn captions_laid_on_a_diarized_mix() {
    let dir = Dir::new();
    write_tracks(&dir);
    let v = voice();
    // 8.9 s: the three turns and nothing after.
    let mut mix = vec![0f32; 142_000];
    for (at, gain) in [(8_000, 1.0), (48_000, 0.6), (91_200, 1.0)] {
        for (i, &x) in v.iter().enumerate() {
            mix[at + i] += x * gain;
        }
    }
    wav(&dir, "mix.wav", &mix);
    crate::detect::synthetic_ge2e(&dir, "ge2e.safetensors");
    dir.create("whisper.json", &whisper());
    let args = [
        "analyze",
        "mix.wav",
        "--embedding-model",
        "ge2e.safetensors",
        "--words",
        "whisper.json",
        "--format",
        "json",
    ];
    let run = dir.run(&args);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    // The synthetic model finds one speaker, which the diarizer notes first.
    let stderr = run.stderr();
    let notes: Vec<&str> = stderr.lines().collect();
    assert!(
        notes[0].starts_with("overtalk: note: mix: the diarizer found one speaker"),
        "{notes:?}"
    );
    assert!(
        notes[1]
            .starts_with("overtalk: note: whisper.json: 25 words laid on the speakers of mix: "),
        "{notes:?}"
    );
    let all: serde_json::Value = serde_json::from_str(&run.stdout()).unwrap();
    let v = &all["conversations"][0];
    let method = v["detection"]["method"].as_str().unwrap();
    assert!(method.starts_with("ge2e (model "), "{method}");
    assert!(
        method.ends_with("; words from whisper.json laid on the speakers (most overlap)"),
        "{method}"
    );
    let words: usize = v["speakers"]
        .as_object()
        .unwrap()
        .values()
        .map(|s| s["words"].as_u64().unwrap_or(0) as usize)
        .sum();
    assert_eq!(words, 25, "{}", v["speakers"]);
    assert!(v["mode"].as_object().unwrap().values().any(|m| m == "text"), "{}", v["mode"]);
}

/// Whisper JSON of `(word, start ms, end ms)`, one segment, no speakers.
pub(crate) fn whisper_of(words: &[(&str, i64, i64)]) -> String {
    let ws: Vec<serde_json::Value> = words
        .iter()
        .map(|w| serde_json::json!({"word": format!(" {}", w.0), "start": w.1 as f64 / 1000.0, "end": w.2 as f64 / 1000.0}))
        .collect();
    let (a, z) = (words[0].1 as f64 / 1000.0, words[words.len() - 1].2 as f64 / 1000.0);
    serde_json::json!({"text": "", "segments": [{"id": 0, "start": a, "end": z, "text": "", "words": ws}]})
        .to_string()
}

/// An interruption that goes on: Host talks from 0.5 s, Guest cuts in at 2.2 s and goes on
/// to 5.37 s; from 2.2 s until Host stops (3.67 s) they take turns word by word, each
/// silent 350 ms while the other speaks (a pause the detection closes, so both talk all
/// through the overlap). Each mic hears the other 20 dB down.
fn write_interruption(dir: &Dir) {
    let v = voice();
    let n = 160_000;
    let (mut host, mut guest) = (vec![0f32; n], vec![0f32; n]);
    // Guest's windows in the overlap, in samples: [2.20, 2.55), [2.90, 3.25), [3.60, 3.95).
    let guest_turn =
        |t: usize| (0..3).any(|k| (35_200 + k * 11_200..40_800 + k * 11_200).contains(&t));
    for (at, by_host) in [(8_000, true), (35_200, false)] {
        for (i, &x) in v.iter().enumerate() {
            let t = at + i;
            let on = if by_host { !guest_turn(t) } else { t >= 58_720 || guest_turn(t) };
            if !on {
                continue;
            }
            let (h, g) = if by_host { (x, x * 0.1) } else { (x * 0.1, x) };
            host[t] += h;
            guest[t] += g;
        }
    }
    wav(dir, "host.wav", &host);
    wav(dir, "guest.wav", &guest);
}

/// `(speaker, word, start ms, end ms)` of the interruption: Host's and Guest's words in
/// their windows of the overlap.
const INTERRUPTED: &[(&str, &str, i64, i64)] = &[
    ("Host", "we", 700, 1000),
    ("Host", "could", 1000, 1400),
    ("Host", "try", 1400, 1800),
    ("Guest", "no", 2250, 2500),
    ("Host", "the", 2600, 2850),
    ("Guest", "wait", 2950, 3200),
    ("Host", "other", 3300, 3550),
    ("Guest", "listen", 3650, 3900),
    ("Guest", "we", 4100, 4400),
    ("Guest", "tried", 4500, 4900),
];

/// Speaker and words of each cue of a WebVTT file `detect` wrote.
fn cues(vtt: &str) -> Vec<(String, Vec<String>)> {
    vtt.lines()
        .filter_map(|l| l.strip_prefix("<v "))
        .map(|l| {
            let (who, rest) = l.split_once('>').unwrap();
            let words = rest
                .trim_end_matches("</v>")
                .split_whitespace()
                .map(|w| w.rsplit('>').next().unwrap().to_owned())
                .collect();
            (who.to_owned(), words)
        })
        .collect()
}

#[test]
fn the_words_of_an_interruption_that_goes_on_go_to_the_interrupter() {
    let dir = Dir::new();
    write_interruption(&dir);
    let all: Vec<(&str, i64, i64)> = INTERRUPTED.iter().map(|w| (w.1, w.2, w.3)).collect();
    dir.create("mix.json", &whisper_of(&all));
    let tracks = ["--track", "Host=host.wav", "--track", "Guest=guest.wav"];
    let run =
        dir.run(&[&["detect"][..], &tracks, &["--words", "mix.json", "-o", "laid.vtt"]].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(
        run.stderr(),
        "overtalk: note: mix.json: 10 words laid on the speakers of host+guest: 10 by overlap (4 of them in the speech of several speakers by the tracks' levels, 0 there without a 3 dB margin between the levels; 0 by the tie rule), 0 on the nearest speech within 0.5 s\n"
    );
    let s = |w: &[&str]| w.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        cues(&dir.read("laid.vtt")),
        vec![
            ("Host".to_owned(), s(&["we", "could", "try", "the", "other"])),
            ("Guest".to_owned(), s(&["no", "wait", "listen", "we", "tried"])),
        ]
    );
    // Host's speech is detected until 3.61 s, Guest's from 2.20 s: four words lie in both.
    // Without the tracks (the detection given as a transcript), timing alone cannot tell:
    // every word of the overlap goes on with the holder (Guest's "no" and "wait" too).
    let run = dir.run(&[&["detect"][..], &tracks, &["-o", "who.rttm", "-q"]].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let run = dir.run(&["analyze", "who.rttm", "--words", "mix.json", "--format", "json"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(
        run.stderr(),
        "overtalk: note: mix.json: 10 words laid on the speakers of host+guest: 10 by overlap (4 of them by the tie rule), 0 on the nearest speech within 0.5 s\n"
    );
    let v: serde_json::Value = serde_json::from_str(&run.stdout()).unwrap();
    let words = |who: &str| v["conversations"][0]["speakers"][who]["words"].as_u64();
    assert_eq!((words("Host"), words("Guest")), (Some(7), Some(3)));
}

#[test]
fn each_tracks_own_words_are_laid_on_its_speaker_and_its_bleed_dropped() {
    let dir = Dir::new();
    write_interruption(&dir);
    let own = |who: &str| -> Vec<(&str, i64, i64)> {
        INTERRUPTED.iter().filter(|w| w.0 == who).map(|w| (w.1, w.2, w.3)).collect()
    };
    // Each track's own transcript has the other's voice in it too: Guest's "tried" on Host's
    // mic (0.89 s after Host stops), Host's "we could" on Guest's (0.8 s and more before
    // Guest starts); and Host's has a word where no one speaks.
    let mut host = own("Host");
    host.extend([("tried", 4500, 4900), ("hmm", 7000, 7200)]);
    let mut guest = vec![("we", 700, 1000), ("could", 1000, 1400)];
    guest.extend(own("Guest"));
    dir.create("host.json", &whisper_of(&host));
    dir.create("guest.json", &whisper_of(&guest));
    let tracks = ["--track", "Host=host.wav", "--track", "Guest=guest.wav"];
    let words = ["--track-words", "Host=host.json", "--track-words", "Guest=guest.json"];
    let run = dir.run(&[&["detect"][..], &tracks, &words, &["-o", "laid.vtt"]].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(
        run.stderr(),
        "overtalk: warning: host.json (--track-words Host): 2 of 7 words dropped: 1 in the others' speech (their voices heard on Host's microphone: bleed), 1 in no speech and farther than 0.5 s from Host's (silence)\n\
         overtalk: note: host.json: 5 words laid on \"Host\" of host+guest: 5 in their speech, 0 within 0.5 s of it, 2 dropped (1 as bleed)\n\
         overtalk: warning: guest.json (--track-words Guest): 2 of 7 words dropped: 2 in the others' speech (their voices heard on Guest's microphone: bleed)\n\
         overtalk: note: guest.json: 5 words laid on \"Guest\" of host+guest: 5 in their speech, 0 within 0.5 s of it, 2 dropped (2 as bleed)\n"
    );
    let s = |w: &[&str]| w.iter().map(|x| (*x).to_owned()).collect::<Vec<_>>();
    assert_eq!(
        cues(&dir.read("laid.vtt")),
        vec![
            ("Host".to_owned(), s(&["we", "could", "try", "the", "other"])),
            ("Guest".to_owned(), s(&["no", "wait", "listen", "we", "tried"])),
        ]
    );
    // The method record says how the words were laid; speakers renamed keep their words.
    dir.create("names.toml", "Host = \"Ann\"\nGuest = \"Bo\"\n");
    let run = dir.run(
        &[
            &["analyze"][..],
            &tracks,
            &words,
            &["--speakers", "names.toml", "--format", "json", "-q"],
        ]
        .concat(),
    );
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let v: serde_json::Value = serde_json::from_str(&run.stdout()).unwrap();
    let c = &v["conversations"][0];
    assert!(
        c["detection"]["method"].as_str().unwrap().ends_with(
            "; words of each track's own transcript laid on its speaker where their speech was detected, bleed dropped (Ann: host.json, 5 of 7 words; Bo: guest.json, 5 of 7 words)"
        ),
        "{}",
        c["detection"]["method"]
    );
    let n = |who: &str| c["speakers"][who]["words"].as_u64();
    assert_eq!((n("Ann"), n("Bo")), (Some(5), Some(5)));
    // --strict refuses words in no speech (not the bleed, which the rule is for).
    let run = dir.run(&[&["analyze"][..], &tracks, &words, &["--strict", "-q"]].concat());
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: --track-words: words in no speech and farther than 0.5 s from their speaker's were dropped (host.json: 1) (--strict)\n"
    );
    let only_guest = ["--track-words", "Guest=guest.json"];
    let run = dir.run(&[&["analyze"][..], &tracks, &only_guest, &["--strict", "-q"]].concat());
    assert_eq!(run.code(), 0, "{}", run.stderr());
    // Names that are not tracks, --words beside them, no tracks: errors before detection.
    let run = dir.run(&[&["detect"][..], &tracks, &["--track-words", "Hots=host.json"]].concat());
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: --track-words Hots=…: \"Hots\" is not a --track name (the tracks are \"Host\", \"Guest\")\n"
    );
    let run = dir.run(&[&["detect"][..], &tracks, &words[..2], &["--words", "host.json"]].concat());
    assert_eq!(run.code(), 2);
    assert!(run.stderr().contains("cannot be used with"), "{}", run.stderr());
    dir.create("a.rttm", "SPEAKER a 1 0.0 1.0 <NA> <NA> Host <NA> <NA>\n");
    let run = dir.run(&["analyze", "a.rttm", "--track-words", "Host=host.json"]);
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: --track-words gives the words of a --track's own recording; give the tracks with --track NAME=FILE\n"
    );
    let run =
        dir.run(&[&["detect"][..], &tracks, &["--track-words", "Host=missing.json"]].concat());
    assert_eq!(run.code(), 2);
    assert!(run.stderr().contains("missing.json"), "{}", run.stderr());
    let run =
        dir.run(&["score", "-r", "a.rttm", "-s", "a.rttm", "--track-words", "Host=host.json"]);
    assert_eq!(run.code(), 2);
    assert!(run
        .stderr()
        .starts_with("overtalk: error: --track-words Host=host.json: score compares"));
}
