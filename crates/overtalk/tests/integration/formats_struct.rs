//! TextGrid, EAF and CHAT: golden reads of real files, round trips through RTTM and through each
//! format itself, property round trips, and hostile input.

#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use overtalk::format::{
    read_bytes, read_path, read_str, tiers, write, Format, Limits, ReadOptions, ReadOutput,
};
use overtalk::{Content, Corpus, ErrorKind, Segment, Transcript, TranscriptBuilder, WarningKind};
use proptest::prelude::*;

fn fixture(sub: &str, name: &str) -> PathBuf {
    overtalk_testkit::fixtures().join(sub).join(name)
}

fn read_fixture(sub: &str, name: &str) -> ReadOutput {
    let path = fixture(sub, name);
    read_path(&path, None, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn only(out: &ReadOutput) -> (&str, &Transcript) {
    assert_eq!(out.corpus.len(), 1);
    out.corpus.iter().next().unwrap()
}

fn kinds(out: &ReadOutput) -> Vec<(WarningKind, Option<usize>, Option<usize>)> {
    out.warnings.iter().map(|w| (w.kind, w.line, w.column)).collect()
}

/// `(start µs, end µs, speaker)` of every track, in annotation order.
fn tracks(t: &Transcript) -> Vec<(i64, i64, String)> {
    t.utterances()
        .map(|u| (u.segment.start().micros(), u.segment.end().micros(), u.speaker_name.to_owned()))
        .collect()
}

fn texts(t: &Transcript) -> Vec<Option<String>> {
    t.contents().iter().map(|c| c.as_ref().and_then(|c| c.text.clone())).collect()
}

fn speakers(t: &Transcript) -> Vec<String> {
    t.annotation().speakers().iter().map(|(_, n)| n.to_owned()).collect()
}

fn speakers_with_tracks(t: &Transcript) -> BTreeSet<String> {
    t.utterances().map(|u| u.speaker_name.to_owned()).collect()
}

fn count(t: &Transcript, speaker: &str) -> usize {
    t.utterances().filter(|u| u.speaker_name == speaker).count()
}

/// Writes `corpus` as `format` and reads it back (same recording id).
fn through(corpus: &Corpus, format: Format) -> ReadOutput {
    let mut buf = Vec::new();
    write(corpus, format, &mut buf).unwrap_or_else(|e| panic!("writing {format}: {e}"));
    let id = corpus.ids().next().unwrap_or("recording").to_owned();
    let options = ReadOptions { recording_id: Some(id), ..ReadOptions::default() };
    read_bytes(&buf, None, Some(format), &options)
        .unwrap_or_else(|e| panic!("reading back {format}: {e}\n{}", String::from_utf8_lossy(&buf)))
}

/// Every sample reads, and converts to RTTM and to its own format and back with the same tracks
/// (to the microsecond) and the same speakers.
fn round_trips(sub: &str, name: &str, own: Format) {
    let out = read_fixture(sub, name);
    let (_, t) = only(&out);
    if t.is_untimed() {
        // RTTM holds tracks only: a transcript without times is refused, not written empty.
        let e = write(&out.corpus, Format::Rttm, &mut Vec::new()).unwrap_err();
        assert!(e.to_string().contains("holds timed segments only"), "{name}: {e}");
        let back = through(&out.corpus, own);
        let (_, b) = only(&back);
        assert_eq!(b.untimed().len(), t.untimed().len(), "{name} via {own}");
        assert_eq!(speakers(b), speakers(t), "{name} via {own}");
        return;
    }
    let rttm = through(&out.corpus, Format::Rttm);
    if t.annotation().is_empty() {
        // RTTM holds tracks only: nothing to write, nothing read back.
        assert!(rttm.corpus.is_empty(), "{name} via rttm");
    } else {
        let (_, r) = only(&rttm);
        assert_eq!(tracks(r), tracks(t), "{name} via rttm");
        assert_eq!(speakers_with_tracks(r), speakers_with_tracks(t), "{name} via rttm");
    }
    let back = through(&out.corpus, own);
    let (_, b) = only(&back);
    assert_eq!(tracks(b), tracks(t), "{name} via {own}");
    assert_eq!(speakers(b), speakers(t), "{name} via {own}");
    assert_eq!(texts(b), texts(t), "{name} via {own}");
    // And RTTM back into the format: the same tracks again.
    let again = through(&rttm.corpus, own);
    assert_eq!(tracks(only(&again).1), tracks(t), "{name} rttm → {own}");
    assert_eq!(speakers(only(&again).1), speakers_with_tracks(t).into_iter().collect::<Vec<_>>());
}

// ---------------------------------------------------------------- TextGrid

#[test]
fn textgrid_short_and_long_forms_read_alike() {
    let short = read_fixture("textgrid", "praatio_textgrid_to_merge_short.TextGrid");
    let long = read_fixture("textgrid", "praatio_textgrid_to_merge_long.TextGrid");
    assert_eq!(kinds(&short), vec![]);
    assert_eq!(kinds(&long), vec![]);
    let (id, t) = only(&short);
    assert_eq!(id, "praatio_textgrid_to_merge_short");
    assert_eq!(t, only(&long).1);
    assert_eq!(speakers(t), ["bob", "mary", "sarah"]);
    assert_eq!((count(t, "bob"), count(t, "mary"), count(t, "sarah")), (4, 4, 3));
    assert_eq!(t.declared_extent(), Segment::from_micros(0, 10_000_000));
    // 0.7363043110515426 s rounds to 736 304 µs; mary and sarah overlap 3.773579–4.136635.
    let v = tracks(t);
    assert_eq!(v[0], (736_304, 1_559_822, "bob".to_owned()));
    assert!(v.contains(&(3_773_579, 4_136_635, "mary".to_owned())));
    assert!(v.contains(&(3_773_579, 4_136_635, "sarah".to_owned())));
    assert_eq!(texts(t)[0].as_deref(), Some("01a"));
    assert_eq!(t.annotation().overlap().duration().micros(), 4_136_635 - 3_773_579);
}

#[test]
fn textgrid_elan_export_and_utf16() {
    let elan = read_fixture("textgrid", "praatio_bobby_words_elan_export.TextGrid");
    assert_eq!(kinds(&elan), vec![(WarningKind::Note, Some(62), Some(17))]);
    let (_, t) = only(&elan);
    assert_eq!(speakers(t), ["\"word\"", "phrase"]);
    assert_eq!((count(t, "\"word\""), count(t, "phrase")), (4, 1));
    assert_eq!(tracks(t)[0], (64_691, 411_565, "\"word\"".to_owned()));
    assert_eq!(texts(t)[0].as_deref(), Some("\"\"\"BOBBY\"\"\"\nNoun"));

    let mary = read_fixture("textgrid", "praatio_mary_long_utf16.TextGrid");
    // The phone tier aligns the word tier's speaker: one speaker, not two who always overlap.
    assert_eq!(
        kinds(&mary),
        vec![(WarningKind::Note, Some(110), Some(17)), (WarningKind::Note, Some(10), Some(17))]
    );
    let (_, t) = only(&mary);
    assert_eq!(speakers(t), ["word"]);
    assert_eq!(count(t, "word"), 4);
    assert_eq!(tracks(t)[0], (315_420, 675_550, "word".to_owned()));
    assert_eq!(t.declared_extent(), Segment::from_micros(0, 1_869_687));
    // Asked for, the phone tier is read (its ə intact through UTF-16).
    let phones = ReadOptions {
        tiers: overtalk::format::tiers::TierSelection {
            only: vec!["phone".into()],
            ignore: vec![],
        },
        ..ReadOptions::default()
    };
    let out =
        read_path(&fixture("textgrid", "praatio_mary_long_utf16.TextGrid"), None, &phones).unwrap();
    let (_, t) = only(&out);
    assert_eq!(speakers(t), ["phone"]);
    assert_eq!(count(t, "phone"), 14);
    assert_eq!(tracks(t)[0], (315_420, 385_268, "phone".to_owned()));
    let schwa = t.utterances().find(|u| u.segment.start().micros() == 385_268).unwrap();
    assert_eq!(schwa.content.and_then(|c| c.text.as_deref()), Some("ə"));
}

#[test]
fn textgrid_samples_round_trip() {
    for name in [
        "praatio_textgrid_to_merge_short.TextGrid",
        "praatio_textgrid_to_merge_long.TextGrid",
        "praatio_bobby_words_elan_export.TextGrid",
        "praatio_mary_long_utf16.TextGrid",
    ] {
        round_trips("textgrid", name, Format::TextGrid);
    }
}

// ---------------------------------------------------------------- EAF

#[test]
fn eaf_sample_counts_participants_once() {
    let out = read_fixture("eaf", "speach_test2.eaf");
    assert_eq!(
        kinds(&out),
        vec![(WarningKind::Note, Some(129), Some(5)), (WarningKind::Note, Some(109), Some(5)),]
    );
    assert!(
        out.warnings[0].message.starts_with("3 child tier(s) skipped: "),
        "{}",
        out.warnings[0]
    );
    assert_eq!(
        out.warnings[1].message,
        "1 tier(s) left out as not speakers: \"marker\" (no PARTICIPANT and no dependent tiers, while other tiers name theirs); choose with --tiers or --ignore-tiers"
    );
    let (_, t) = only(&out);
    // The child tiers of P001 are not counted: 8 utterances, not 20; the marker tier is no one.
    assert_eq!(speakers(t), ["P001", "R004001"]);
    assert_eq!((count(t, "P001"), count(t, "R004001")), (8, 0));
    // Asked for by name, the marker tier is read as a speaker again.
    let marker = ReadOptions {
        tiers: overtalk::format::tiers::TierSelection {
            only: vec!["marker".into(), "*(Utterance)".into()],
            ignore: vec![],
        },
        ..ReadOptions::default()
    };
    let again = read_path(&fixture("eaf", "speach_test2.eaf"), None, &marker).unwrap();
    let (_, m) = only(&again);
    assert_eq!(speakers(m), ["P001", "R004001", "marker"]);
    assert_eq!(count(m, "marker"), 3);
    let p: Vec<_> = t.utterances().filter(|u| u.speaker_name == "P001").collect();
    assert_eq!(p[0].segment, Segment::from_millis(1040, 2330).unwrap());
    assert_eq!(p[1].content.and_then(|c| c.text.as_deref()), Some("このリンゴ、おいしいね！"));
    assert_eq!(p[7].segment, Segment::from_millis(16615, 17485).unwrap());
    assert_eq!(p[7].content.and_then(|c| c.text.as_deref()), Some("Oh thanks"));
    let speech: i64 = p.iter().map(|u| u.segment.duration().micros()).sum();
    assert_eq!(speech, 12_770_000);
}

/// pympi's floor-transfer fixture: the participants' annotations out of time order in the
/// file are read in time order, and the tier of pympi's own gap and overlap labels (no
/// participant) and the empty tier are no speakers.
#[test]
fn eaf_pympi_fto_reads_two_participants() {
    let out = read_fixture("eaf", "pympi_fto.eaf");
    assert_eq!(kinds(&out), vec![(WarningKind::Note, Some(35), Some(5))]);
    assert_eq!(
        out.warnings[0].message,
        "2 tier(s) left out as not speakers: \"default\" (no PARTICIPANT and no dependent tiers, while other tiers name theirs), \"fto-ab\" (no PARTICIPANT and no dependent tiers, while other tiers name theirs); choose with --tiers or --ignore-tiers"
    );
    let (_, t) = only(&out);
    assert_eq!(speakers(t), ["a", "b"]);
    let ms = |a: i64, b: i64, s: &str| (a * 1000, b * 1000, s.to_owned());
    assert_eq!(
        tracks(t),
        vec![
            ms(0, 1629, "a"),
            ms(1790, 2820, "a"),
            ms(2630, 3660, "b"),
            ms(4280, 5800, "a"),
            ms(4690, 5050, "b"),
            ms(6240, 7560, "b"),
            ms(7990, 9550, "b"),
        ]
    );
}

#[test]
fn eaf_sample_round_trips() {
    round_trips("eaf", "speach_test2.eaf", Format::Eaf);
}

// ---------------------------------------------------------------- CHAT

#[test]
fn chat_sample_with_bullets() {
    let out = read_fixture("chat", "eng_multi_speaker.cha");
    assert_eq!(kinds(&out), vec![]);
    let (_, t) = only(&out);
    assert_eq!(speakers(t), ["CHI", "FAT", "MOT"]);
    assert_eq!((count(t, "CHI"), count(t, "FAT"), count(t, "MOT")), (4, 8, 0));
    let v = tracks(t);
    assert_eq!(v[0], (600_000, 2_219_000, "FAT".to_owned()));
    assert_eq!(v[7], (12_249_000, 13_198_000, "FAT".to_owned()));
    assert_eq!(texts(t)[7].as_deref(), Some("that's the &-uh [>] +/."));
    assert_eq!(texts(t)[8].as_deref(), Some("<what's> [<] that ?"));
    assert_eq!(texts(t)[9].as_deref(), Some("+, taperecorder over there ."));
    assert_eq!(v[11], (15_799_000, 17_618_000, "FAT".to_owned()));
}

/// The real sample's markers against its bullets (the figures docs/guide.md quotes): the
/// overlap the transcriber heard (`[>]`/`[<]`) is not in the bullets, which touch at 13.198 s;
/// the `+/.` coincides with the next speaker starting at the holder's end, as do 7 unmarked
/// changes of speaker where the bullets touch.
#[test]
fn chat_sample_markers_against_its_bullets() {
    use overtalk::analysis::markers::{compare, Agreement};
    let out = read_fixture("chat", "eng_multi_speaker.cha");
    let m = compare(only(&out).1).unwrap();
    assert_eq!((m.utterances, m.untimed), (12, 0));
    let forms: Vec<(&str, usize)> = m.markers.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(forms, [("+/.", 1), ("[<]", 1), ("[>]", 1)]);
    let a = |both, marker_only, timing_only, neither, agreement| Agreement {
        both,
        marker_only,
        timing_only,
        neither,
        agreement: Some(agreement),
    };
    assert_eq!(m.overlap, a(0, 2, 0, 10, 0.0));
    assert_eq!(m.interruption, a(1, 0, 7, 4, 0.125));
    assert_eq!(m.interruption_before_end, a(0, 1, 0, 11, 0.0));
    // Without bullets there is nothing to compare.
    let untimed = read_fixture("chat", "eng_overlap_ca.cha");
    assert_eq!(compare(only(&untimed).1), None);
}

#[test]
fn chat_sample_without_bullets_is_an_untimed_transcript() {
    let out = read_fixture("chat", "eng_overlap_ca.cha");
    assert_eq!(kinds(&out), vec![(WarningKind::Note, None, None)]);
    assert_eq!(
        out.warnings[0].message,
        "no time bullets: read as an untimed transcript of 10 utterance(s) in order, with 6 overlap marker(s) ([>] 3, [<] 3) and 0 interruption(s) (+/. 0, +//. 0); measures that need times cannot be made"
    );
    let (_, t) = only(&out);
    assert_eq!(speakers(t), ["INV", "PAR"]);
    assert!(t.annotation().is_empty());
    assert!(t.is_untimed());
    let a = t.annotation();
    let order: Vec<(&str, usize)> =
        t.untimed().iter().map(|u| (a.speaker_name(u.speaker), u.line)).collect();
    assert_eq!(order[..3], [("PAR", 7), ("INV", 8), ("PAR", 9)]);
    assert_eq!(order.len(), 10);
    let first = &t.untimed()[0].content;
    assert_eq!(first.text.as_deref(), Some("so I was telling [>] him about it ."));
    let words: Vec<&str> = first.words.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(words, ["so", "I", "was", "telling", "him", "about", "it."]);
    let words: Vec<&str> =
        t.untimed()[14 - 7].content.words.iter().map(|w| w.text.as_str()).collect();
    assert_eq!(words, ["and", "then", "I", "told", "her."]);
    // Untimed transcripts are valid CHAT: strict reads them, and CHAT writes them back in order.
    let strict = ReadOptions { strict: true, ..ReadOptions::default() };
    read_path(&fixture("chat", "eng_overlap_ca.cha"), None, &strict).unwrap();
    let back = through(&out.corpus, Format::Chat);
    assert_eq!(only(&back).1.untimed(), t.untimed());
}

/// A partly aligned transcript (2 of its 10 utterances carry a bullet) is valid CHAT: one note
/// counts the utterances without time, and `--strict` reads it.
#[test]
fn chat_partly_aligned_transcript_is_valid() {
    let out = read_fixture("chat", "yue_hku_timed.cha");
    assert_eq!(kinds(&out), vec![(WarningKind::Note, Some(15), None)]);
    assert_eq!(
        out.warnings[0].message,
        "8 of 10 utterance(s) have no time bullet (first at line 15); kept in order without time, left out of every time measure"
    );
    let (_, t) = only(&out);
    assert_eq!(
        tracks(t),
        [(2_000_000, 18_623_000, "PAR".to_owned()), (23_079_000, 24_440_000, "PAR".to_owned())]
    );
    assert_eq!(t.untimed().len(), 8);
    let strict = ReadOptions { strict: true, ..ReadOptions::default() };
    let again = read_path(&fixture("chat", "yue_hku_timed.cha"), None, &strict).unwrap();
    assert_eq!(again.corpus, out.corpus);
}

#[test]
fn chat_interruption_markers_are_counted() {
    let text = "@Begin\n@Participants:\tA Adult, B Adult\n*A:\tso I +/.\n*B:\tno wait +//.\n*A:\t+, anyway .\n@End\n";
    let out = read_str(text, Format::Chat, &ReadOptions::default()).unwrap();
    assert_eq!(kinds(&out), vec![(WarningKind::Note, None, None)]);
    assert!(
        out.warnings[0].message.contains("3 utterance(s)")
            && out.warnings[0].message.contains("2 interruption(s) (+/. 1, +//. 1)"),
        "{}",
        out.warnings[0]
    );
}

#[test]
fn chat_samples_round_trip() {
    round_trips("chat", "eng_multi_speaker.cha", Format::Chat);
    round_trips("chat", "eng_overlap_ca.cha", Format::Chat);
}

// ---------------------------------------------------------------- shared data (corpus scale)

/// The same samples straight from the shared data folder, when present: every file reads with
/// no error and the copies above are identical to them.
#[test]
fn shared_samples_match_the_fixtures() {
    let Some(root) = overtalk_testkit::shared_data("shared_samples_match_the_fixtures") else {
        return;
    };
    for sub in ["textgrid", "eaf", "chat"] {
        let dir = root.join("format-samples").join(sub);
        let mut n = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let copy = fixture(sub, &name);
            assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&copy).unwrap(), "{name}");
            read_path(&path, None, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
            n += 1;
        }
        assert!(n > 0, "{}", dir.display());
    }
}

/// `--strict` rejects what is malformed, not what is merely worth a note: every well-formed real
/// sample reads under it with the same warnings as without, and the one malformed sample (Teams'
/// unpadded WebVTT times) is rejected where it breaks the syntax.
#[test]
fn strict_accepts_every_well_formed_shared_sample() {
    let Some(root) =
        overtalk_testkit::shared_data("strict_accepts_every_well_formed_shared_sample")
    else {
        return;
    };
    // (file, line, column) of each malformed sample.
    let malformed = [("webvttpy_teams_timeframe.vtt", 3, 1)];
    let strict = ReadOptions { strict: true, ..ReadOptions::default() };
    let mut n = 0;
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("format-samples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() && !p.ends_with("uem"))
        .collect();
    dirs.sort();
    for dir in dirs {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let lenient = read_path(&path, None, &ReadOptions::default())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            match malformed.iter().find(|m| m.0 == name) {
                Some(&(_, line, column)) => {
                    let e = read_path(&path, None, &strict).unwrap_err();
                    assert_eq!((e.line(), e.column()), (Some(line), Some(column)), "{name}: {e}");
                }
                None => {
                    let out =
                        read_path(&path, None, &strict).unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert_eq!(out.warnings, lenient.warnings, "{name}");
                    assert_eq!(out.corpus, lenient.corpus, "{name}");
                }
            }
            n += 1;
        }
    }
    assert!(n >= 20, "only {n} samples found");
}

// ---------------------------------------------------------------- detection

#[test]
fn sniffing_finds_the_three_formats() {
    let read = |p: &Path| std::fs::read(p).unwrap();
    for (sub, name, format) in [
        ("textgrid", "praatio_textgrid_to_merge_short.TextGrid", Format::TextGrid),
        ("textgrid", "praatio_mary_long_utf16.TextGrid", Format::TextGrid),
        ("eaf", "speach_test2.eaf", Format::Eaf),
        ("chat", "eng_multi_speaker.cha", Format::Chat),
    ] {
        let out = read_bytes(&read(&fixture(sub, name)), None, None, &ReadOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(out.format, Some(format), "{name}");
    }
    assert_eq!(
        overtalk::format::sniff("File type= \"ooTextFile\"\nObject class = \"TextGrid\"\n"),
        Some(Format::TextGrid)
    );
    assert_eq!(overtalk::format::sniff("@Font:\tCAfont:13:0\n@Begin\n"), Some(Format::Chat));
}

// ---------------------------------------------------------------- property round trips

/// Labels with quotes, XML metacharacters, spaces and non-ASCII letters.
fn arb_label() -> impl Strategy<Value = String> {
    "[a-zA-Zé\"<>&' 日]{1,8}".prop_filter("not blank", |s| !s.trim().is_empty())
}

/// A speaker name that the TextGrid reader takes for a speaker tier: not a name it reads as an
/// aligner's tier (`phones`, `MAU`, `words`) or as notes, a translation or glosses (`FT`,
/// `pos`), which it sets aside by design when their intervals repeat another tier's.
fn arb_speaker_tier() -> impl Strategy<Value = String> {
    arb_label().prop_filter("a name the reader sets aside", |s| {
        !tiers::names_notes(s) && tiers::alignment_level(s, true).is_none()
    })
}

fn arb_text() -> impl Strategy<Value = Option<String>> {
    prop::option::of("[a-z\"<>&'!?.,日]{1,6}([ \t\n\r][a-z\"<>&'日]{1,6}){0,4}")
}

/// A transcript whose speakers do not overlap themselves, times in units of `unit` µs.
fn arb_transcript(
    names: impl Strategy<Value = String>,
    unit: i64,
) -> impl Strategy<Value = Transcript> {
    prop::collection::vec(
        (names, prop::collection::vec((0i64..3000, 1i64..3000, arb_text()), 0..6)),
        0..4,
    )
    .prop_map(move |speakers| {
        let mut b = TranscriptBuilder::new();
        let mut seen = BTreeSet::new();
        for (name, turns) in speakers {
            if !seen.insert(name.clone()) {
                continue;
            }
            b.speaker(&name);
            let mut cursor = 0;
            for (gap, dur, text) in turns {
                let start = cursor + gap;
                let end = start + dur;
                cursor = end;
                let seg = Segment::from_micros(start * unit, end * unit).unwrap();
                b.add(seg, &name, text.map(Content::text));
            }
        }
        b.build()
    })
}

/// A transcript whose tracks may overlap, even for one speaker.
fn arb_overlapping(
    names: impl Strategy<Value = String>,
    unit: i64,
) -> impl Strategy<Value = Transcript> {
    prop::collection::vec((names, 0i64..5000, 1i64..3000, arb_text()), 0..12).prop_map(move |v| {
        let mut b = TranscriptBuilder::new();
        for (name, start, dur, text) in v {
            let seg = Segment::from_micros(start * unit, (start + dur) * unit).unwrap();
            b.add(seg, &name, text.map(Content::text));
        }
        b.build()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// TextGrid is exact to the microsecond; texts come back as written, except that a tier
    /// whose every interval is labelled with the speaker's name reads as speech without words
    /// (the writer labels speech without text so; see the reader).
    #[test]
    fn textgrid_round_trip(t in arb_transcript(arb_speaker_tier(), 1)) {
        let corpus = Corpus::single("r", t.clone());
        let back = through(&corpus, Format::TextGrid);
        let (_, b) = only(&back);
        prop_assert_eq!(b.annotation(), t.annotation());
        let names: Vec<String> = t.utterances().map(|u| u.speaker_name.to_owned()).collect();
        for ((x, y), name) in texts(b).iter().zip(texts(&t)).zip(&names) {
            match y {
                Some(y) if y.trim() == name && x.is_none() => {}
                Some(y) => prop_assert_eq!(x.as_deref(), Some(y.as_str())),
                None => {}
            }
        }
    }

    /// EAF at millisecond precision, self-overlap included: texts and contents exact.
    #[test]
    fn eaf_round_trip(t in arb_overlapping(arb_label(), 1000)) {
        let corpus = Corpus::single("r", t.clone());
        let back = through(&corpus, Format::Eaf);
        let (_, b) = only(&back);
        prop_assert_eq!(b.annotation(), t.annotation());
        prop_assert_eq!(texts(b), texts(&t));
    }

    /// CHAT at millisecond precision with valid codes, self-overlap included.
    #[test]
    fn chat_round_trip(t in arb_overlapping("[A-Z][A-Z0-9]{0,6}", 1000)) {
        let corpus = Corpus::single("r", t.clone());
        let back = through(&corpus, Format::Chat);
        let (_, b) = only(&back);
        prop_assert_eq!(b.annotation(), t.annotation());
    }

    /// No input makes a reader panic: every outcome is a value or an error.
    #[test]
    fn readers_never_panic(s in "[ -~\t\n\u{15}ə日]{0,200}") {
        for f in [Format::TextGrid, Format::Eaf, Format::Chat] {
            let _ = read_str(&s, f, &ReadOptions::default());
        }
    }

    /// Mutated real files never make a reader panic.
    #[test]
    fn mutated_samples_never_panic(cut in 0usize..4000, byte in 0u8..128, at in 0usize..4000) {
        for (sub, name, f) in [
            ("textgrid", "praatio_textgrid_to_merge_long.TextGrid", Format::TextGrid),
            ("eaf", "speach_test2.eaf", Format::Eaf),
            ("chat", "eng_multi_speaker.cha", Format::Chat),
        ] {
            let mut bytes = std::fs::read(fixture(sub, name)).unwrap();
            let at = at % bytes.len();
            bytes[at] = byte;
            bytes.truncate(cut.max(at + 1));
            let _ = read_bytes(&bytes, None, Some(f), &ReadOptions::default());
        }
    }
}

// ---------------------------------------------------------------- hostile input

/// What hostile input may produce: a parse error naming a line and column, a limit error, an
/// unsupported-input error, or a successful read with warnings.
fn assert_clean(result: &overtalk::Result<ReadOutput>, what: &str) {
    match result {
        Ok(_) => {}
        Err(e) => match e.kind() {
            ErrorKind::Parse { line, column, .. } => {
                assert!(*line > 0 && *column > 0, "{what}: {e}")
            }
            ErrorKind::Limit(_) | ErrorKind::Unsupported(_) => {}
            _ => panic!("{what}: unexpected error kind: {e}"),
        },
    }
}

fn hostile(format: Format, text: &str) -> overtalk::Result<ReadOutput> {
    read_str(text, format, &ReadOptions::default())
}

fn err_pos(format: Format, text: &str) -> (Option<usize>, Option<usize>) {
    let e = hostile(format, text).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Parse { .. }), "{e}");
    (e.line(), e.column())
}

const TG_HEAD: &str = "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n";

#[test]
fn hostile_textgrid() {
    let f = Format::TextGrid;
    assert_eq!(err_pos(f, ""), (Some(1), Some(1)));
    let long =
        std::fs::read_to_string(fixture("textgrid", "praatio_textgrid_to_merge_long.TextGrid"))
            .unwrap();
    let cut = &long[..long.len() / 2];
    let (line, _) = err_pos(f, cut);
    assert_eq!(line, Some(cut.lines().count()));
    assert_eq!(err_pos(f, "\u{0}\u{1}\u{7f}garbage<<"), (Some(1), Some(13)));
    assert_eq!(err_pos(f, "\u{0}\u{1}\u{7f}garbage 12"), (Some(1), Some(12)));
    assert_eq!(err_pos(f, &format!("{TG_HEAD}0 NaN <exists> 0\n")), (Some(3), Some(3)));
    assert_eq!(err_pos(f, &format!("{TG_HEAD}0 1e300 <exists> 0\n")), (Some(3), Some(3)));
    assert_eq!(
        err_pos(f, &format!("{TG_HEAD}0 10 <exists> 99999999999999999999999\n")),
        (Some(3), Some(15))
    );
    // A hostile count does not allocate: the file simply ends too early.
    assert_eq!(
        err_pos(
            f,
            &format!(
                "{TG_HEAD}0 10 <exists> 1\n\"IntervalTier\" \"a\" 0 10 18446744073709551615\n"
            )
        ),
        (Some(5), Some(1))
    );
    let neg = hostile(
        f,
        &format!("{TG_HEAD}-5 10 <exists> 1\n\"IntervalTier\" \"a\" -5 10 1 -5 10 \"x\"\n"),
    )
    .unwrap();
    assert_eq!(
        kinds(&neg),
        vec![(WarningKind::Repaired, Some(3), Some(4)), (WarningKind::Repaired, Some(4), Some(31))]
    );
    assert_eq!(tracks(only(&neg).1), vec![(0, 10_000_000, "a".to_owned())]);
    let e = hostile(f, &format!("{TG_HEAD}\"{}\"\n", "x".repeat(10 << 20))).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Limit(_)), "{e}");
    assert!(e.to_string().contains("line 3"), "{e}");
    let e = read_bytes(
        b"File type = \"ooBinaryFile\"\n\x00\x01",
        None,
        Some(f),
        &ReadOptions::default(),
    )
    .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Parse { .. } | ErrorKind::Unsupported(_)), "{e}");
}

#[test]
fn hostile_eaf() {
    let f = Format::Eaf;
    assert_eq!(err_pos(f, ""), (Some(1), Some(1)));
    let sample = std::fs::read_to_string(fixture("eaf", "speach_test2.eaf")).unwrap();
    let mut cut = sample.len() / 2;
    while !sample.is_char_boundary(cut) {
        cut -= 1;
    }
    let (line, col) = err_pos(f, &sample[..cut]);
    assert!(line.is_some() && col.is_some());
    assert_eq!(err_pos(f, "\u{0}\u{1}garbage"), (Some(1), Some(1)));
    assert_eq!(err_pos(f, "<ANNOTATION_DOCUMENT>\n<TIME_ORDER><TIME_SLOT TIME_SLOT_ID=\"t\" TIME_VALUE=\"NaN\"/></TIME_ORDER></ANNOTATION_DOCUMENT>"), (Some(2), Some(13)));
    assert_eq!(err_pos(f, "<ANNOTATION_DOCUMENT>\n<TIME_ORDER><TIME_SLOT TIME_SLOT_ID=\"t\" TIME_VALUE=\"99999999999999999999\"/></TIME_ORDER></ANNOTATION_DOCUMENT>"), (Some(2), Some(13)));
    assert_eq!(
        err_pos(f, "<ANNOTATION_DOCUMENT>\n  <TIER TIER_ID=\"a&bogus;\"/></ANNOTATION_DOCUMENT>"),
        (Some(2), Some(3))
    );
    assert_eq!(err_pos(f, "<html><body/></html>"), (Some(1), Some(1)));
    let neg = hostile(f, "<ANNOTATION_DOCUMENT><TIME_ORDER><TIME_SLOT TIME_SLOT_ID=\"a\" TIME_VALUE=\"-500\"/><TIME_SLOT TIME_SLOT_ID=\"b\" TIME_VALUE=\"900\"/></TIME_ORDER>\n<TIER TIER_ID=\"x\"><ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID=\"a1\" TIME_SLOT_REF1=\"a\" TIME_SLOT_REF2=\"b\"><ANNOTATION_VALUE>hi</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION></TIER></ANNOTATION_DOCUMENT>").unwrap();
    // The negative time repaired; a note that the tier without PARTICIPANT names its speaker.
    assert_eq!(
        kinds(&neg),
        vec![(WarningKind::Repaired, Some(2), Some(31)), (WarningKind::Note, None, None)]
    );
    assert_eq!(tracks(only(&neg).1), vec![(0, 900_000, "x".to_owned())]);
    // 10 000 levels deep: a limit error, no stack overflow.
    let deep = format!(
        "<ANNOTATION_DOCUMENT>{}{}</ANNOTATION_DOCUMENT>",
        "<x>".repeat(10_000),
        "</x>".repeat(10_000)
    );
    let e = hostile(f, &deep).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Limit(_)), "{e}");
    assert!(e.to_string().contains("line 1, column 787"), "{e}");
    // A 10 MB line: an unterminated attribute is an error at its element.
    let huge = format!("<ANNOTATION_DOCUMENT>\n <TIER TIER_ID=\"{}", "x".repeat(10 << 20));
    assert_eq!(err_pos(f, &huge).0, Some(2));
    // A 10 MB value inside a valid document reads (EAF may legitimately be one long line).
    let big = format!("<ANNOTATION_DOCUMENT><TIME_ORDER><TIME_SLOT TIME_SLOT_ID=\"a\" TIME_VALUE=\"0\"/><TIME_SLOT TIME_SLOT_ID=\"b\" TIME_VALUE=\"1\"/></TIME_ORDER><TIER TIER_ID=\"x\"><ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID=\"a1\" TIME_SLOT_REF1=\"a\" TIME_SLOT_REF2=\"b\"><ANNOTATION_VALUE>{}</ANNOTATION_VALUE></ALIGNABLE_ANNOTATION></ANNOTATION></TIER></ANNOTATION_DOCUMENT>", "y".repeat(10 << 20));
    assert_eq!(
        texts(only(&hostile(f, &big).unwrap()).1)[0].as_ref().map(String::len),
        Some(10 << 20)
    );
    let units = hostile(
        f,
        "<ANNOTATION_DOCUMENT><HEADER TIME_UNITS=\"PAL-frames\"/></ANNOTATION_DOCUMENT>",
    )
    .unwrap_err();
    assert!(matches!(units.kind(), ErrorKind::Unsupported(_)), "{units}");
}

#[test]
fn hostile_chat() {
    let f = Format::Chat;
    let empty = hostile(f, "").unwrap();
    assert_eq!(
        kinds(&empty),
        vec![
            (WarningKind::Note, Some(1), Some(1)),
            (WarningKind::Note, Some(1), None),
            (WarningKind::Note, None, None)
        ]
    );
    assert_eq!(empty.warnings[2].message, overtalk::format::EMPTY_INPUT);
    let sample = std::fs::read_to_string(fixture("chat", "eng_multi_speaker.cha")).unwrap();
    let cut = &sample[..sample.find("*CHI:\t<what").unwrap() + 20];
    let out = hostile(f, cut).unwrap();
    assert_eq!(
        kinds(&out),
        vec![(WarningKind::Note, Some(18), None), (WarningKind::Note, Some(18), None)]
    );
    assert_eq!(only(&out).1.annotation().len(), 8);
    let garbage = hostile(f, "\u{0}\u{1}\u{15}garbage\n").unwrap();
    assert_eq!(
        kinds(&garbage),
        vec![
            (WarningKind::Skipped, Some(1), Some(1)),
            (WarningKind::Note, Some(1), Some(1)),
            (WarningKind::Note, Some(1), None),
            (WarningKind::Note, None, None)
        ]
    );
    assert_eq!(err_pos(f, "@Begin\n*A:\tx . \u{15}NaN_5\u{15}\n"), (Some(2), Some(9)));
    assert_eq!(err_pos(f, "@Begin\n*A:\tx . \u{15}-5_10\u{15}\n"), (Some(2), Some(9)));
    assert_eq!(err_pos(f, "@Begin\n*A:\tx . \u{15}0_99999999999999\u{15}\n"), (Some(2), Some(9)));
    let e = hostile(f, &format!("@Begin\n*A:\t{}\n", "x".repeat(10 << 20))).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Limit(_)), "{e}");
    assert!(e.to_string().contains("line 2"), "{e}");
}

#[test]
fn invalid_encodings_name_line_and_column() {
    let utf8 = ReadOptions { encoding: Some("utf-8".into()), ..ReadOptions::default() };
    for f in [Format::TextGrid, Format::Eaf, Format::Chat] {
        let e = read_bytes(b"ok\nab\xff\xfe", None, Some(f), &utf8).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(3)), "{f}: {e}");
        // UTF-16 LE with an unpaired surrogate on line 2.
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend("a\nbc".encode_utf16().flat_map(u16::to_le_bytes));
        bytes.extend([0x00, 0xD8, b'x', 0x00]);
        let e = read_bytes(&bytes, None, Some(f), &ReadOptions::default()).unwrap_err();
        assert_eq!((e.line(), e.column()), (Some(2), Some(3)), "{f}: {e}");
    }
}

#[test]
fn random_bytes_never_panic() {
    // A fixed pseudo-random stream (xorshift), so the test is reproducible.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for len in [1usize, 7, 64, 1000, 65_537] {
        let bytes: Vec<u8> = (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (x >> 24) as u8
            })
            .collect();
        for f in [Format::TextGrid, Format::Eaf, Format::Chat] {
            let r = read_bytes(&bytes, None, Some(f), &ReadOptions::default());
            assert_clean(&r, &format!("{f} {len} random bytes"));
        }
    }
}

#[test]
fn writers_never_panic_on_extreme_or_empty_transcripts() {
    let mut b = TranscriptBuilder::new();
    b.add(
        Segment::from_micros(i64::MAX - 10, i64::MAX).unwrap(),
        "a",
        Some(Content::text("\u{1}\u{15}")),
    );
    b.add(Segment::from_micros(-5_000_000, -1).unwrap(), "b", None);
    b.add(Segment::from_micros(0, 1).unwrap(), "", Some(Content::text(" ")));
    let extreme = Corpus::single("x", b.build());
    for f in [Format::TextGrid, Format::Eaf, Format::Chat] {
        let mut buf = Vec::new();
        write(&extreme, f, &mut buf).unwrap_or_else(|e| panic!("{f}: {e}"));
        // Reading the result back is an error or a value, never a panic.
        assert_clean(&read_bytes(&buf, None, Some(f), &ReadOptions::default()), &format!("{f}"));
        // An empty corpus writes a valid empty file that reads back empty, with the note
        // that nobody speaks in it.
        let mut buf = Vec::new();
        write(&Corpus::new(), f, &mut buf).unwrap();
        let back = read_bytes(&buf, None, Some(f), &ReadOptions::default()).unwrap();
        let notes: Vec<&str> = back.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(notes, [overtalk::format::EMPTY_INPUT], "{f}");
        assert!(only(&back).1.annotation().speakers().is_empty(), "{f}");
    }
    // Unaligned slots far apart: the interpolation is exact and cannot overflow.
    let mut text = String::from(
        "<ANNOTATION_DOCUMENT><TIME_ORDER><TIME_SLOT TIME_SLOT_ID=\"a\" TIME_VALUE=\"0\"/>",
    );
    for i in 0..30_000 {
        text.push_str(&format!("<TIME_SLOT TIME_SLOT_ID=\"u{i}\"/>"));
    }
    text.push_str("<TIME_SLOT TIME_SLOT_ID=\"z\" TIME_VALUE=\"360000000000\"/></TIME_ORDER><TIER TIER_ID=\"T\"><ANNOTATION><ALIGNABLE_ANNOTATION ANNOTATION_ID=\"x\" TIME_SLOT_REF1=\"u0\" TIME_SLOT_REF2=\"u29999\"><ANNOTATION_VALUE/></ALIGNABLE_ANNOTATION></ANNOTATION></TIER></ANNOTATION_DOCUMENT>");
    let out = hostile(Format::Eaf, &text).unwrap();
    // u0 is 1/30001 of the way, u29999 is 30000/30001: in ms, rounded half away from zero.
    let v: i128 = 360_000_000_000; // 100 000 hours in ms, the largest time accepted
    let at = |k: i128| (v * k * 2 + 30_001) / (2 * 30_001); // half away from zero, positive
    let (s_ms, e) = (at(1), at(30_000));
    assert_eq!(tracks(only(&out).1), vec![(s_ms as i64 * 1000, e as i64 * 1000, "T".to_owned())]);
}

#[test]
fn limits_apply() {
    let tight = ReadOptions {
        limits: Limits { max_line_bytes: 10, ..Limits::default() },
        ..ReadOptions::default()
    };
    let e = read_path(&fixture("chat", "eng_multi_speaker.cha"), None, &tight).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Limit(_)), "{e}");
    let e =
        read_path(&fixture("textgrid", "praatio_textgrid_to_merge_long.TextGrid"), None, &tight)
            .unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Limit(_)), "{e}");
    let shallow = ReadOptions {
        limits: Limits { max_depth: 4, ..Limits::default() },
        ..ReadOptions::default()
    };
    let e = read_path(&fixture("eaf", "speach_test2.eaf"), None, &shallow).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Limit(_)), "{e}");
    // Child tiers and a tier without participant are notes about a valid file, not repairs.
    let strict = ReadOptions { strict: true, ..ReadOptions::default() };
    read_path(&fixture("eaf", "speach_test2.eaf"), None, &strict).unwrap();
}
