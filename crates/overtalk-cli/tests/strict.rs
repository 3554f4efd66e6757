//! `--strict` rejects what is malformed and accepts what is merely worth a note: every
//! well-formed real sample of the shared data reads under it, and each malformed time is
//! rejected at its line and column (and read with a warning without it).

use std::path::Path;

use crate::util::{shared_data, Dir};

/// Every file of `../shared/data/format-samples/` through `overtalk info --strict` (UEM files
/// with the RTTM of their recording): exit 0 with the same warnings as without `--strict`,
/// except the one malformed sample, Teams' unpadded WebVTT times, which exits 2 at its line and
/// column.
#[test]
fn strict_accepts_every_well_formed_shared_sample() {
    let Some(root) = shared_data("strict_accepts_every_well_formed_shared_sample") else {
        return;
    };
    let samples = root.join("format-samples");
    let dir = Dir::new();
    let mut checked = 0;
    let mut subs: Vec<_> = std::fs::read_dir(&samples)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    subs.sort();
    for sub in subs {
        let mut files: Vec<_> = std::fs::read_dir(&sub)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e != "md"))
            .collect();
        files.sort();
        for file in files {
            let name = file.file_name().unwrap().to_string_lossy().into_owned();
            let args: Vec<String> = if sub.ends_with("uem") {
                let rttm = match name.as_str() {
                    "ami_ES2011a.uem" => "ami_ES2011a.rttm",
                    _ => "dscore_ref.rttm",
                };
                let rttm = samples.join("rttm").join(rttm);
                vec!["info".into(), path(&rttm), "--uem".into(), path(&file)]
            } else {
                vec!["info".into(), path(&file)]
            };
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let lenient = dir.run(&args);
            assert_eq!(lenient.code(), 0, "{name}: {}", lenient.stderr());
            let strict = dir.run(&[&args[..], &["--strict"]].concat());
            if name == "webvttpy_teams_timeframe.vtt" {
                assert_eq!(strict.code(), 2, "{name}");
                let at = format!("{}:3:1: webvtt: cue start \"0:0:0.0\"", path(&file));
                assert!(strict.stderr().contains(&at), "{name}: {}", strict.stderr());
            } else {
                assert_eq!(strict.code(), 0, "{name}: {}", strict.stderr());
                assert_eq!(strict.stderr(), lenient.stderr(), "{name}");
                assert_eq!(strict.stdout(), lenient.stdout(), "{name}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 22, "samples checked");
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// Each malformed time of the real files (SRT `00:00.00` without hours, `00:00:01` without
/// milliseconds, WebVTT without milliseconds or with seconds above 59, Praat's `"ad"x`): read
/// with a warning at its position, rejected by `--strict` at the same position with exit 2.
#[test]
fn strict_rejects_each_malformed_time() {
    let dir = Dir::new();
    let grid = "File type = \"ooTextFile\"\nObject class = \"TextGrid\"\n0\n2\n<exists>\n1\n\"IntervalTier\"\n\"A\"\n0\n2\n1\n0\n2\n\"ad\"x\n";
    let cases = [
        ("a.srt", "1\n00:00.00 --> 00:00:01,000\nA: hi\n", "2:1", "(no hours)"),
        ("b.srt", "1\n00:00:01 --> 00:00:02,000\nA: hi\n", "2:1", "(no milliseconds)"),
        ("c.vtt", "WEBVTT\n\n00:00:01 --> 00:00:02.000\n<v A>hi\n", "3:1", "(no milliseconds)"),
        ("d.vtt", "WEBVTT\n\n00:61.000 --> 00:62.000\n<v A>hi\n", "3:1", "(seconds above 59)"),
        ("e.TextGrid", grid, "14:5", "text right after a closing quote"),
    ];
    for (name, text, at, what) in cases {
        dir.create(name, text);
        let lenient = dir.run(&["info", name]);
        assert_eq!(lenient.code(), 0, "{name}: {}", lenient.stderr());
        let (line, column) = at.split_once(':').unwrap();
        let warned = format!("{name}: line {line}, column {column}: ");
        assert!(lenient.stderr().contains(&warned), "{name}: {}", lenient.stderr());
        assert!(lenient.stderr().contains(what), "{name}: {}", lenient.stderr());
        let strict = dir.run(&["info", "--strict", name]);
        assert_eq!(strict.code(), 2, "{name}: {}", strict.stderr());
        assert!(
            strict.stderr().starts_with(&format!("overtalk: error: {name}:{at}: ")),
            "{name}: {}",
            strict.stderr()
        );
        assert!(strict.stderr().contains(what), "{name}: {}", strict.stderr());
        assert_eq!(strict.stdout(), "", "{name}");
    }
}

/// A table saved on Windows (`\r\n`), by an old Mac tool (a lone `\r`) or with blank lines
/// between its rows: the bad cell is named at the line and column an editor shows, in the
/// warning and in the `--strict` error alike.
#[test]
fn table_rows_are_named_at_their_line_whatever_ends_the_lines() {
    let dir = Dir::new();
    let cases = [
        ("crlf.csv", "start,end,speaker\r\n0,1,A\r\n2,x,B\r\n", "3:3"),
        ("cr.csv", "start,end,speaker\r0,1,A\r2,x,B\r", "3:3"),
        ("blank.csv", "start,end,speaker\n0,1,A\n\n\n2,x,B\n", "5:3"),
        ("quoted.csv", "start,end,speaker,text\r\n0,1,A,\"hi\nthere\"\r\n2,x,B,ok\r\n", "4:3"),
        ("crlf.tsv", "start\tend\tspeaker\r\n0\t1\tA\r\n2\tx\tB\r\n", "3:3"),
    ];
    for (name, text, at) in cases {
        dir.create(name, text);
        let (line, column) = at.split_once(':').unwrap();
        let lenient = dir.run(&["info", name]);
        assert_eq!(lenient.code(), 0, "{name}: {}", lenient.stderr());
        assert_eq!(
            lenient.stderr(),
            format!("overtalk: warning: {name}: line {line}, column {column}: end \"x\": not a time; row skipped (missing-time)\n"),
        );
        let strict = dir.run(&["info", "--strict", name]);
        assert_eq!(strict.code(), 2, "{name}");
        let ext = name.rsplit('.').next().unwrap();
        assert_eq!(
            strict.stderr(),
            format!("overtalk: error: {name}:{at}: {ext}: end \"x\": not a time\n"),
        );
    }
}

/// Every transcript of the repository's `examples/` reads under `--strict` (exit 0), as the
/// README promises for well-formed files; the rush transcript's title line is a note.
#[test]
fn strict_accepts_every_example_transcript() {
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples");
    let dir = Dir::new();
    for name in [
        "rush-transcript/town-hall.txt",
        "red-carpet/red-carpet.rttm",
        "red-carpet/red-carpet.vtt",
        "red-carpet-cut/only-wife.rttm",
        "red-carpet-cut/without-husband.rttm",
    ] {
        let file = path(&examples.join(name));
        let run = dir.run(&["info", &file, "--strict", "--format", "tsv"]);
        assert_eq!(run.code(), 0, "{name}: {}", run.stderr());
    }
    let town_hall = path(&examples.join("rush-transcript/town-hall.txt"));
    let run = dir.run(&["info", &town_hall, "--strict", "--format", "tsv"]);
    assert_eq!(
        run.stderr().lines().next(),
        Some(
            format!(
                "overtalk: warning: {town_hall}: line 1, column 1: 1 line(s) above the first speaker's turn skipped (a title, a date): not speech (note)"
            )
            .as_str()
        )
    );
}

/// A timed paragraph transcript under its title and date reads under `--strict`, as an untimed
/// one does: the head is a note. A cold open above the first time is words left out, and
/// `--strict` refuses it at its line.
#[test]
fn a_timed_transcript_with_a_title_reads_under_strict() {
    let dir = Dir::new();
    let turns = "Ana Ruiz (00:00:01):\nWelcome everyone to the meeting tonight.\n\n\
                 Bob Lee (00:00:05):\nThank you, glad to be here.\n";
    dir.create("titled.txt", &format!("Town Hall Meeting Transcript\nMarch 3, 2024\n\n{turns}"));
    let strict = dir.run(&["info", "--strict", "titled.txt"]);
    assert_eq!(strict.code(), 0, "{}", strict.stderr());
    assert!(
        strict.stderr().starts_with("overtalk: warning: titled.txt: line 1, column 1: 2 line(s) above the first timestamped paragraph skipped (a title, a date): not speech (note)\n"),
        "{}",
        strict.stderr()
    );
    dir.create(
        "cold.txt",
        &format!("Town Hall\nWe are live from the town hall tonight.\n\n{turns}"),
    );
    let strict = dir.run(&["info", "--strict", "cold.txt"]);
    assert_eq!(strict.code(), 2);
    assert_eq!(
        strict.stderr(),
        "overtalk: error: cold.txt:1:1: rev: 2 line(s) of text before the first timestamped paragraph\n"
    );
}
