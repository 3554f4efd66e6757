//! Every reader against a catalogue of broken inputs: each gives a result (perhaps with
//! warnings) or an error that names the file and, for parse errors, the line and column — never
//! a panic, a hang, or memory beyond the configured limits.

use std::path::Path;
use std::time::{Duration, Instant};

use overtalk::format::{read_path, Format, Limits, ReadOptions};
use overtalk::ErrorKind;

/// Broken inputs, by name.
fn catalogue() -> Vec<(&'static str, Vec<u8>)> {
    let mut v: Vec<(&'static str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("whitespace", b"  \n\n\t\r\n".to_vec()),
        ("truncated-rttm", b"SPEAKER rec 1 0.5".to_vec()),
        ("truncated-vtt", b"WEBVTT\n\n00:00:01.000 --> 00:0".to_vec()),
        ("truncated-xml", b"<?xml version=\"1.0\"?><ANNOTATION_DOCUMENT><TIME_ORDER><TIME_SLOT".to_vec()),
        ("truncated-json", b"{\"segments\": [{\"start\": 1.0, \"end\"".to_vec()),
        ("truncated-textgrid", b"File type = \"ooTextFile\"\nObject class = \"TextGrid\"\nxmin = 0\nxmax = ".to_vec()),
        ("nan-rttm", b"SPEAKER rec 1 NaN 1.0 <NA> <NA> a <NA> <NA>\n".to_vec()),
        ("nan-json", b"{\"segments\": [{\"start\": NaN, \"end\": 2.0, \"text\": \"hi\", \"speaker\": \"A\"}]}".to_vec()),
        ("negative-rttm", b"SPEAKER rec 1 -5.0 1.0 <NA> <NA> a <NA> <NA>\nSPEAKER rec 1 1.0 -1.0 <NA> <NA> a <NA> <NA>\n".to_vec()),
        ("enormous-rttm", b"SPEAKER rec 1 1e300 1e300 <NA> <NA> a <NA> <NA>\n".to_vec()),
        ("enormous-vtt", b"WEBVTT\n\n99999999999:00:00.000 --> 99999999999:00:01.000\nhello\n".to_vec()),
        ("enormous-csv", b"start,end,speaker\n0,99999999999999999999,a\n".to_vec()),
        ("invalid-utf8", b"SPEAKER rec 1 0 1 <NA> <NA> \xff\xfe\xfd <NA> <NA>\n".to_vec()),
        ("invalid-utf16", [0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00].to_vec()),
        ("nul-bytes", vec![0u8; 4096]),
    ];
    // Deterministic binary garbage.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    let garbage: Vec<u8> = (0..65_536)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x >> 24) as u8
        })
        .collect();
    v.push(("garbage", garbage));
    let mut long_line = b"SPEAKER rec 1 0 1 <NA> <NA> ".to_vec();
    long_line.extend(std::iter::repeat_n(b'x', 10 << 20));
    long_line.extend(b" <NA> <NA>\n");
    v.push(("10mb-line", long_line));
    let mut deep = b"<?xml version=\"1.0\"?><ANNOTATION_DOCUMENT>".to_vec();
    deep.extend(b"<a>".repeat(10_000));
    v.push(("xml-10000-deep", deep));
    v.push(("json-10000-deep", b"[".repeat(10_000)));
    v
}

#[test]
fn no_reader_panics_hangs_or_loses_the_position() {
    let dir = std::env::temp_dir().join(format!("overtalk-hostile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let options = ReadOptions {
        limits: Limits { max_line_bytes: 1 << 20, max_depth: 256, ..Limits::default() },
        ..ReadOptions::default()
    };
    let readable: Vec<Format> = Format::ALL.into_iter().filter(|&f| f != Format::Uem).collect();
    for (name, bytes) in catalogue() {
        let path = dir.join(format!("{name}.input"));
        std::fs::write(&path, &bytes).unwrap();
        for format in readable.iter().copied().map(Some).chain([None]) {
            let started = Instant::now();
            let result = read_path(&path, format, &options);
            let took = started.elapsed();
            // A hang guard, not a benchmark: the slowest reading here (the 10 MB line through
            // the paragraph readers) takes about 0.2 s in a release build and 6–16 s in this
            // unoptimised one on two shared cores; a hang never ends.
            assert!(took < Duration::from_secs(60), "{name} as {format:?} took {took:?}");
            if let Err(e) = result {
                check_error(&e, &path, name, format);
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

fn check_error(e: &overtalk::Error, path: &Path, name: &str, format: Option<Format>) {
    let shown = e.to_string();
    assert!(
        shown.starts_with(&path.display().to_string()),
        "{name} as {format:?}: error does not name the file: {shown}"
    );
    if let ErrorKind::Parse { line, column, .. } = e.kind() {
        // Empty input has no line to point at; everything else must.
        if name != "empty" && name != "whitespace" {
            assert!(
                *line > 0 && *column > 0,
                "{name} as {format:?}: parse error without line and column: {shown}"
            );
        }
    }
    if name == "10mb-line" {
        if let ErrorKind::Limit(m) = e.kind() {
            assert!(
                m.contains("line 1"),
                "{name} as {format:?}: limit error does not name the line: {m}"
            );
        }
    }
}

#[test]
fn limits_are_configurable_and_reported() {
    let dir = std::env::temp_dir().join(format!("overtalk-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a.rttm");
    std::fs::write(&path, "SPEAKER rec 1 0 1 <NA> <NA> a <NA> <NA>\n".repeat(100)).unwrap();
    let small = ReadOptions {
        limits: Limits { max_bytes: 100, ..Limits::default() },
        ..ReadOptions::default()
    };
    let e = read_path(&path, None, &small).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Limit(_)), "{e}");
    let short = ReadOptions {
        limits: Limits { max_line_bytes: 10, ..Limits::default() },
        ..ReadOptions::default()
    };
    let e = read_path(&path, None, &short).unwrap_err();
    assert!(e.to_string().contains("line 1"), "{e}");
    assert!(read_path(&path, None, &ReadOptions::default()).is_ok());
    std::fs::remove_dir_all(&dir).ok();
}
