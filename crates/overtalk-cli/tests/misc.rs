use crate::util::Dir;

#[test]
fn help_shows_examples_for_every_subcommand() {
    let dir = Dir::new();
    let top = dir.run(&["--help"]).ok();
    let subcommands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter(|l| !l[2..].starts_with(' '))
        .filter_map(|l| l.split_whitespace().next().map(str::to_owned))
        .filter(|c| c != "help")
        .collect();
    assert!(subcommands.len() >= 4, "{top}");
    for sub in subcommands {
        let help = dir.run(&[sub.as_str(), "--help"]).ok();
        assert!(help.contains("Example"), "`overtalk {sub} --help` has no example:\n{help}");
    }
}

#[test]
fn usage_errors_exit_2_and_missing_files_name_the_path() {
    let dir = Dir::new();
    assert_eq!(dir.run(&["info"]).code(), 2);
    assert_eq!(dir.run(&["no-such-command"]).code(), 2);
    let run = dir.run(&["info", "missing.rttm"]);
    assert_eq!(run.code(), 2);
    assert!(run.stderr().contains("missing.rttm"), "{}", run.stderr());
}

#[test]
fn man_page_and_completions_are_generated() {
    let dir = Dir::new();
    assert!(dir.run(&["man"]).ok().contains(".TH overtalk"));
    assert!(dir.run(&["completions", "bash"]).ok().contains("overtalk"));
    dir.run(&["man", "-o", "man"]).ok();
    assert!(dir.path().join("man/overtalk.1").exists());
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let dir = Dir::new();
    let line = "SPEAKER clip 1 0.000 1.000 <NA> <NA> a <NA> <NA>\n";
    let mut text = String::new();
    for i in 0..200_000 {
        text.push_str(&line.replace("0.000", &format!("{i}.000")));
    }
    let path = dir.create("big.rttm", &text);
    let mut child = Command::new(env!("CARGO_BIN_EXE_overtalk"))
        .args(["convert", path.to_str().unwrap(), "-o", "-", "--to", "rttm"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `overtalk completions SHELL | head`, `overtalk man | head` and `overtalk models list | head`: the reader is gone before
/// anything is written (the pipe's other end has already exited), so every write fails with a
/// broken pipe, which must end quietly with exit 0 for every shell.
#[test]
fn completions_and_man_into_a_closed_pipe_exit_0() {
    let bin = env!("CARGO_BIN_EXE_overtalk");
    for args in [
        "models path",
        "models list",
        "completions bash",
        "completions elvish",
        "completions fish",
        "completions powershell",
        "completions zsh",
        "man",
    ] {
        // `true` exits at once; the sleep makes sure it has before overtalk writes.
        let script = format!("{{ sleep 0.3; \"$0\" {args}; echo \"exit $?\" >&2; }} | true");
        let dir = Dir::new();
        let out = std::process::Command::new("sh")
            .args(["-c", &script, bin])
            .env("OVERTALK_MODEL_DIR", dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.trim(), "exit 0", "overtalk {args}");
    }
}

/// The README's first commands: an install line for the `overtalk` command the page uses, then
/// the main job on one bundled conversation (a single result, not a corpus) and the tests.
#[test]
fn the_readme_first_screen_installs_the_command_and_runs_one_conversation() {
    let root = crate::util::repo_root();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let block: Vec<&str> = readme
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .unwrap()
        .lines()
        .map(|l| l.split(" #").next().unwrap_or(l).trim())
        .collect();
    assert_eq!(block[0], "cargo install --path crates/overtalk-cli");
    let manifest = std::fs::read_to_string(root.join("crates/overtalk-cli/Cargo.toml")).unwrap();
    assert!(manifest.contains("[[bin]]\nname = \"overtalk\""), "the package installs `overtalk`");
    assert_eq!(block[2], "cargo test --workspace");
    let args: Vec<&str> = block[1].split_whitespace().collect();
    assert_eq!(args[0], "overtalk");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_overtalk"))
        .args(&args[1..])
        .current_dir(&root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.starts_with("red-carpet: 3 speakers"), "{stdout}");
    assert!(!stdout.contains("corpus:"), "one conversation, not a corpus: {stdout}");
    assert!(stdout.contains("headline: 11 turns, 10 floor transfers"), "{stdout}");
}

/// docs/guide.md quotes the output of its command as the current binary writes it.
#[test]
fn the_guide_quotes_the_current_output() {
    let root = crate::util::repo_root();
    let guide = std::fs::read_to_string(root.join("docs/guide.md")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_overtalk"))
        .args(["analyze", "examples/red-carpet/red-carpet.vtt"])
        .current_dir(&root)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let quoted = format!("```text\n{}```", String::from_utf8_lossy(&out.stdout));
    assert!(guide.contains(&quoted), "docs/guide.md does not quote the current output:\n{quoted}");
}

/// A names file cannot make a speaker vanish (an empty name is the ignored label) or hold a
/// control character; two speakers given one name are merged with a warning.
#[test]
fn names_files_refuse_empty_names_and_say_when_they_merge_speakers() {
    let dir = Dir::new();
    dir.create(
        "t.rttm",
        "SPEAKER r 1 0 1 <NA> <NA> Wife <NA> <NA>\nSPEAKER r 1 2 1 <NA> <NA> Husband <NA> <NA>\n",
    );
    dir.create("empty.toml", "\"Wife\" = \"\"\n");
    let run = dir.run(&["analyze", "t.rttm", "--speakers", "empty.toml"]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(
        run.stderr().contains("speaker \"Wife\" is renamed to an empty name"),
        "{}",
        run.stderr()
    );
    dir.create("nul.toml", "\"Wife\" = \"\\u0000\"\n");
    assert_eq!(
        dir.run(&["convert", "t.rttm", "--speakers", "nul.toml", "-o", "-", "--to", "rttm"]).code(),
        2
    );
    dir.create("merge.toml", "\"Wife\" = \"Husband\"\n");
    let run = dir.run(&["analyze", "t.rttm", "--speakers", "merge.toml"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(
        run.stderr().contains("speakers \"Husband\", \"Wife\" are all named \"Husband\""),
        "{}",
        run.stderr()
    );
}

/// Inputs and options that cannot mean what they say are refused by name, and an empty result
/// made by the parameters is said: stdin given twice, `--uem -`, a NaN `--max-der`, a picture
/// window after the conversation or a clock time with 99 seconds.
#[test]
fn impossible_requests_are_refused_and_empty_results_said() {
    let dir = Dir::new();
    let rttm = "SPEAKER r 1 0 2 <NA> <NA> A <NA> <NA>\nSPEAKER r 1 3 2 <NA> <NA> B <NA> <NA>\n";
    dir.create("a.rttm", rttm);
    let run = dir.run_with_stdin(&["score", "-r", "-", "-s", "-"], Some(rttm));
    assert_eq!(run.code(), 2);
    assert!(run.stderr().contains("`-` (stdin) is given twice"), "{}", run.stderr());
    let run = dir.run_with_stdin(&["info", "-", "-"], Some(rttm));
    assert!(run.stderr().contains("`-` (stdin) is given twice"), "{}", run.stderr());
    // Lenient, an unreadable time skips its row; strict, it is the error, and says nothing
    // of skipping.
    dir.create("bad.csv", "start,end,speaker\n0,1,A\nx,2,B\n");
    let run = dir.run(&["info", "bad.csv"]);
    assert!(run.stderr().contains("start \"x\": not a time; row skipped"), "{}", run.stderr());
    let run = dir.run(&["info", "bad.csv", "--strict"]);
    assert_eq!(run.code(), 2);
    assert!(
        run.stderr().contains("bad.csv:3:1") && !run.stderr().contains("skipped"),
        "{}",
        run.stderr()
    );
    let run = dir.run(&["score", "-r", "a.rttm", "-s", "a.rttm", "-u", "-"]);
    assert!(run.stderr().contains("--uem -: a UEM is read from a file"), "{}", run.stderr());
    let run = dir.run(&["score", "-r", "a.rttm", "-s", "a.rttm", "--max-der", "NaN"]);
    assert!(
        run.stderr().contains("--max-der must be a non-negative percentage"),
        "{}",
        run.stderr()
    );
    let run = dir.run(&["report", "a.rttm", "--start", "100", "-o", "w.svg"]);
    assert!(
        run.stderr().contains("--start 100 is at or after the end of the conversation (5 s)"),
        "{}",
        run.stderr()
    );
    assert_eq!(dir.run(&["report", "a.rttm", "--start", "99:99", "-o", "w.svg"]).code(), 2);
    let run = dir.run(&["analyze", "a.rttm", "--min-segment", "100000", "--format", "json"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(run.stderr().contains("none of the input's 2 segment(s) is left"), "{}", run.stderr());
    assert!(run.stdout().contains("none of the input's 2 segment(s) is left"));
    // Flags of another mode of `cut`, and a gain that would amplify.
    let run = dir.run(&["cut", "a.rttm", "--without", "A", "--camera", "A=a.mp4", "-o", "x.edl"]);
    assert!(run.stderr().contains("--camera goes with --follow-speaker"), "{}", run.stderr());
    let run = dir.run(&["cut", "a.rttm", "--without", "A", "--by", "B", "-o", "x.edl"]);
    assert!(run.stderr().contains("--by goes with --events"), "{}", run.stderr());
    let run = dir.run(&["cut", "a.rttm", "--without", "A", "--duck", "NaN", "-o", "x.edl"]);
    assert!(run.stderr().contains("--duck is a gain in dB"), "{}", run.stderr());
    // `man -o -` is stdout.
    let man = dir.run(&["man", "-o", "-"]).ok();
    assert!(man.starts_with(".ie") || man.contains(".TH"), "{man}");
    assert!(!dir.path().join("-").exists());
}

/// A negative number given without `=` reaches the command's own range check, which names the
/// option, instead of clap's "unexpected argument".
#[test]
fn negative_numbers_reach_the_range_checks() {
    let dir = Dir::new();
    dir.create("a.rttm", "SPEAKER r 1 0 2 <NA> <NA> A <NA> <NA>\n");
    let run = dir.run(&["score", "-r", "a.rttm", "-s", "a.rttm", "--collar", "-1"]);
    assert!(
        run.stderr().contains("--collar must be a non-negative number of seconds"),
        "{}",
        run.stderr()
    );
    let run = dir.run(&["analyze", "a.rttm", "--min-segment", "-5"]);
    assert!(run.stderr().contains("min_segment = -5 ms is out of range"), "{}", run.stderr());
}

/// A file in which nobody speaks is an error naming it, in every format, for the commands
/// that describe speech: a script cannot take it for a result of 0 speakers. The reader's
/// warnings say why; `score` still reads an empty reference (a silent recording).
#[test]
fn inputs_without_speech_are_errors_whatever_the_format() {
    let dir = Dir::new();
    let files = [
        ("empty.srt", ""),
        ("blank.rttm", "\n \n"),
        ("empty.cha", ""),
        ("header.csv", "start,end,speaker\n"),
        ("header.vtt", "WEBVTT\n"),
        ("dropped.rttm", "SPEAKER r 1 2.0 0 <NA> <NA> A <NA> <NA>\n"),
    ];
    for (name, text) in files {
        dir.create(name, text);
        for command in ["info", "analyze", "convert"] {
            // `info` lists an RTTM without speech (a silent recording's reference), with a note.
            if command == "info" && name.ends_with(".rttm") {
                let run = dir.run(&[command, name]);
                assert_eq!(run.code(), 0, "{name}: {}", run.stderr());
                assert!(run.stderr().contains("no speech"), "{name}: {}", run.stderr());
                continue;
            }
            let mut argv = vec![command, name];
            if command == "convert" {
                argv.extend(["--to", "rttm", "-o", "-"]);
            }
            let run = dir.run(&argv);
            assert_eq!(run.code(), 2, "{argv:?}: {}", run.stdout());
            assert_eq!(run.stdout(), "", "{argv:?}");
            assert!(
                run.stderr().ends_with(&format!("overtalk: error: {name}: the input holds no speech (no segment, turn or word{}): nothing to describe\n",
                    if name == "blank.rttm" { "" } else { "; see the warnings above" })),
                "{argv:?}: {}",
                run.stderr()
            );
        }
    }
    assert_eq!(
        dir.run(&["info", "header.csv"]).stderr(),
        "overtalk: warning: header.csv: line 1, column 1: no rows after the header (note)\n\
         overtalk: error: header.csv: the input holds no speech (no segment, turn or word; see the warnings above): nothing to describe\n"
    );
    let quiet = dir.run(&["info", "-q", "empty.srt"]);
    assert_eq!(
        quiet.stderr(),
        "overtalk: error: empty.srt: the input holds no speech (no segment, turn or word): nothing to describe\n"
    );
    // One silent file among others is still named.
    dir.create("a.rttm", "SPEAKER a 1 0 2 <NA> <NA> A <NA> <NA>\n");
    let run = dir.run(&["info", "a.rttm", "empty.srt"]);
    assert_eq!(run.code(), 2);
    assert!(
        run.stderr().contains("error: empty.srt: the input holds no speech"),
        "{}",
        run.stderr()
    );
    // Scoring reads an empty reference as before: a silent recording is a valid reference.
    let before = dir.run(&["score", "-r", "blank.rttm", "-s", "a.rttm"]);
    assert_eq!(before.code(), 0, "{}", before.stderr());
    assert!(!before.stderr().contains("nothing to describe"), "{}", before.stderr());
}

/// An empty input whose name does not say its format (stdin, `.json`, `.txt`) is called empty,
/// not a file of unknown format to be named with `--from`.
#[test]
fn an_empty_input_is_called_empty() {
    let dir = Dir::new();
    dir.create("a.json", "");
    dir.create("b.txt", "\u{feff}\r\n \n");
    let run = dir.run(&["info", "a.json"]);
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: a.json: the input is empty: no transcript or diarization to read\n"
    );
    let run = dir.run(&["analyze", "b.txt"]);
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: b.txt: the input holds no text (only white space or a byte-order mark): no transcript or diarization to read\n"
    );
    let run = dir.run_with_stdin(&["convert", "-", "-o", "out.rttm"], Some(""));
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: <stdin>: the input is empty: no transcript or diarization to read\n"
    );
    assert!(!dir.path().join("out.rttm").exists());
}

/// `overtalk … 2>&1 >/dev/null | head -1`: standard error is a pipe whose reader is gone
/// before the warnings are written. The warnings are lost, as output into a closed pipe is, but the
/// command does its work and exits as it would have: no panic (exit 101), no file left unwritten,
/// and the exit status of a failed check kept.
#[test]
fn warnings_into_a_closed_pipe_do_not_stop_the_command() {
    let bin = env!("CARGO_BIN_EXE_overtalk");
    let dir = Dir::new();
    // Unsorted, self-overlapping and zero-length lines: three warnings at least.
    dir.create(
        "w.rttm",
        "SPEAKER rec 1 3.0 1.0 <NA> <NA> A <NA> <NA>\n\
         SPEAKER rec 1 0.0 2.0 <NA> <NA> A <NA> <NA>\n\
         SPEAKER rec 1 1.0 2.0 <NA> <NA> A <NA> <NA>\n\
         SPEAKER rec 1 5.0 0.0 <NA> <NA> B <NA> <NA>\n\
         SPEAKER rec 1 5.0 1.0 <NA> <NA> B <NA> <NA>\n",
    );
    for (args, code, written) in [
        ("convert w.rttm -o out.vtt", 0, Some("out.vtt")),
        ("analyze w.rttm -o out.json --format json", 0, Some("out.json")),
        ("info w.rttm", 0, None),
        ("validate w.rttm", 1, None),
    ] {
        // `true` exits at once; the sleep makes sure it has before overtalk writes.
        let script = format!(
            "{{ sleep 0.3; \"$0\" {args} 2>&1 >/dev/null; echo \"exit $?\" >&3; }} 3>&2 | true"
        );
        let out = std::process::Command::new("sh")
            .args(["-c", &script, bin])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.trim(), format!("exit {code}"), "overtalk {args}");
        if let Some(name) = written {
            assert!(dir.path().join(name).exists(), "overtalk {args}: {name} not written");
        }
    }
}

/// A speaker label holding an escape sequence or NUL is printed as it can be seen: the table
/// on the terminal carries no escape for the terminal to obey, and `A` and `A\0` are two
/// speakers that look different. Under `--strict` such a label is refused.
#[test]
fn control_characters_in_speaker_labels_never_reach_the_terminal() {
    let dir = Dir::new();
    dir.create(
        "esc.rttm",
        "SPEAKER rec 1 0 2 <NA> <NA> \u{1b}]0;owned\u{7}A <NA> <NA>\n\
         SPEAKER rec 1 2.5 2 <NA> <NA> A\0 <NA> <NA>\n\
         SPEAKER rec 1 5 2 <NA> <NA> A <NA> <NA>\n",
    );
    let run = dir.run(&["analyze", "esc.rttm"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(!run.stdout().contains(['\u{1b}', '\u{7}', '\0']), "{}", run.stdout());
    assert!(run.stdout().contains("\n\u{fffd}]0;owned\u{fffd}A "), "{}", run.stdout());
    assert!(run.stdout().contains("\nA\u{fffd} "), "{}", run.stdout());
    assert_eq!(
        run.stderr(),
        "overtalk: warning: esc.rttm: rec: speaker \"\\u{1b}]0;owned\\u{7}A\" holds control characters (a line break, a tab, NUL, an escape); read as \"\u{fffd}]0;owned\u{fffd}A\" (repaired)\n\
         overtalk: warning: esc.rttm: rec: speaker \"A\\0\" holds control characters (a line break, a tab, NUL, an escape); read as \"A\u{fffd}\" (repaired)\n"
    );
    let strict = dir.run(&["info", "--strict", "esc.rttm"]);
    assert_eq!(strict.code(), 2);
    assert_eq!(
        strict.stderr(),
        "overtalk: error: esc.rttm: rttm: rec: speaker \"\\u{1b}]0;owned\\u{7}A\" holds control characters (a line break, a tab, NUL, an escape)\n"
    );
}

/// A stream without end (`/dev/zero`, which declares no size) is read up to `--max-file-mib`
/// and refused there, quickly and by name.
#[cfg(unix)]
#[test]
fn an_endless_stream_is_refused_at_the_limit() {
    let dir = Dir::new();
    let started = std::time::Instant::now();
    let run = dir.run(&["info", "/dev/zero", "--from", "rttm", "--max-file-mib", "8"]);
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: /dev/zero: limit exceeded: input is more than the limit of 8388608 bytes\n"
    );
    let out = std::process::Command::new("sh")
        .args(["-c", "head -c 2097152 /dev/zero | \"$0\" info - --from rttm --max-file-mib 1"])
        .arg(env!("CARGO_BIN_EXE_overtalk"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "overtalk: error: <stdin>: limit exceeded: input is more than the limit of 1048576 bytes\n"
    );
    assert!(started.elapsed() < std::time::Duration::from_secs(10));
}

/// Without `--format`, a report takes its format from the output file's name, as `convert`,
/// `cut` and `report` do: `-o ami.json` holds JSON, not the terminal table. An explicit
/// `--format` wins, and a name that says no format (`.txt`) keeps the table.
#[test]
fn reports_take_their_format_from_the_output_name() {
    let dir = Dir::new();
    dir.create(
        "a.rttm",
        "SPEAKER r 1 0 2 <NA> <NA> A <NA> <NA>\nSPEAKER r 1 3 2 <NA> <NA> B <NA> <NA>\n",
    );
    dir.run(&["info", "a.rttm", "-o", "i.tsv"]).ok();
    assert_eq!(
        dir.read("i.tsv"),
        "recording\tspeakers\tsegments\tduration_s\tspeech_s\toverlap_s\toverlap_pct\nr\t2\t2\t5.000\t4.000\t0.000\t0.0\n"
    );
    dir.run(&["analyze", "a.rttm", "-o", "a.csv", "--events", "speakers"]).ok();
    assert_eq!(
        dir.read("a.csv"),
        "recording,speaker,mode,talk,talk_share,solo,floor,floor_share,turns,longest_turn,words,wpm,backchannels,interruptions_made,interruptions_made_successful,interruptions_received,interruptions_received_successful,median_fto_in\n\
         r,A,timing,2000,0.5,2000,3000,0.6,1,2000,0,,0,0,0,0,0,\n\
         r,B,timing,2000,0.5,2000,2000,0.4,1,2000,0,,0,0,0,0,0,1000\n"
    );
    dir.run(&["analyze", "a.rttm", "-o", "a.json"]).ok();
    let json: serde_json::Value = serde_json::from_str(&dir.read("a.json")).unwrap();
    assert_eq!(json["conversations"][0]["recording"], "r");
    dir.run(&["analyze", "a.rttm", "-o", "a.jsonl"]).ok();
    assert_eq!(dir.read("a.jsonl").lines().count(), 1);
    assert!(dir.read("a.jsonl").starts_with("{\"recording\":\"r\",\"schema_version\":3,"));
    dir.run(&["analyze", "a.rttm", "-o", "a.htm"]).ok();
    assert!(dir.read("a.htm").starts_with("<!DOCTYPE html>"));
    dir.run(&["score", "-r", "a.rttm", "-s", "a.rttm", "-o", "s.csv"]).ok();
    assert_eq!(
        dir.read("s.csv").lines().nth(1),
        Some("r,scored,4.000,4.000,0.000,0.000,0.000,0.00,0.00,A=A B=B,overtalk,0.000,0.000,all")
    );
    // `--errors` needs JSON, which the name now gives.
    dir.run(&["score", "-r", "a.rttm", "-s", "a.rttm", "--errors", "-o", "s.json"]).ok();
    let json: serde_json::Value = serde_json::from_str(&dir.read("s.json")).unwrap();
    assert_eq!(json["collar_per_side_s"], 0.0);
    dir.run(&["validate", "a.rttm", "-o", "v.json"]).ok();
    let json: serde_json::Value = serde_json::from_str(&dir.read("v.json")).unwrap();
    assert_eq!(json["files"][0]["verdicts"]["md-eval"], "accepts");
    // `--format` wins over the name; a name of no format keeps the table.
    dir.run(&["analyze", "a.rttm", "-o", "a.md", "--format", "table"]).ok();
    assert!(dir.read("a.md").starts_with("r: 2 speakers, span 5.00 s"), "{}", dir.read("a.md"));
    dir.run(&["analyze", "a.rttm", "-o", "a.txt"]).ok();
    assert!(dir.read("a.txt").starts_with("r: 2 speakers, span 5.00 s"), "{}", dir.read("a.txt"));
    // A name of a report format the command does not write is refused, not filled with the
    // table.
    for (args, said) in [
        (&["info", "a.rttm", "-o", "i.csv"][..], "i.csv: the .csv extension names a format this command does not write (it writes table, json, md, tsv); give --format or name the output after one of them"),
        (&["validate", "a.rttm", "-o", "v.md"], "v.md: the .md extension names a format this command does not write (it writes text, json); give --format or name the output after one of them"),
        // A report named .pdf held HTML.
        (&["report", "a.rttm", "-o", "r.pdf"], "r.pdf: the .pdf extension names a format this command does not write (it writes html, svg, png); give --format or name the output after one of them"),
    ] {
        let run = dir.run(args);
        assert_eq!(run.code(), 2, "{args:?}");
        assert_eq!(run.stderr(), format!("overtalk: error: {said}\n"), "{args:?}");
    }
    assert!(!dir.path().join("i.csv").exists() && !dir.path().join("v.md").exists());
    assert!(!dir.path().join("r.pdf").exists());
}

/// `analyze --events` chooses the rows of a CSV or TSV; with another format it is refused
/// rather than ignored (the table of `--events speakers` is not the per-speaker CSV).
#[test]
fn analyze_events_without_a_delimited_output_is_refused() {
    let dir = Dir::new();
    dir.create("a.rttm", "SPEAKER r 1 0 2 <NA> <NA> A <NA> <NA>\n");
    let run = dir.run(&["analyze", "a.rttm", "--events", "speakers"]);
    assert_eq!(run.code(), 2);
    assert_eq!(run.stdout(), "");
    assert_eq!(
        run.stderr(),
        "overtalk: error: --events speakers picks the rows of a CSV or TSV (--format csv|tsv, or -o FILE.csv), not of the table output\n"
    );
    let run = dir.run(&["analyze", "a.rttm", "--events", "turns", "-o", "t.json"]);
    assert_eq!(
        run.stderr(),
        "overtalk: error: --events turns picks the rows of a CSV or TSV (--format csv|tsv, or -o FILE.csv), not of the json output\n"
    );
    assert!(!dir.path().join("t.json").exists());
    let tsv = dir.run(&["analyze", "a.rttm", "--events", "turns", "--format", "tsv"]).ok();
    assert_eq!(tsv.lines().count(), 2, "{tsv}");
}

/// A missing file reads alike whichever option names it: the path, then `no such file or
/// directory`, once, without the system's `(os error 2)`.
#[test]
fn a_missing_file_is_said_alike_by_every_option() {
    let dir = Dir::new();
    dir.create("a.rttm", "SPEAKER r 1 0 2 <NA> <NA> A <NA> <NA>\n");
    dir.create("b.wav", "");
    for (args, said) in [
        (&["analyze", "nosuch.vtt"][..], "nosuch.vtt: no such file or directory"),
        (
            &["analyze", "a.rttm", "--speakers", "nosuch.toml"],
            "reading nosuch.toml: no such file or directory",
        ),
        (
            &["analyze", "a.rttm", "--config", "nosuch.toml"],
            "reading nosuch.toml: no such file or directory",
        ),
        (&["detect", "nosuch.wav"], "detecting speech: nosuch.wav: no such file or directory"),
        (
            &["detect", "--track", "A=nosuch.wav", "--track", "B=b.wav"],
            "detecting speech: nosuch.wav: no such file or directory",
        ),
        (
            &["report", "a.rttm", "--audio", "nosuch.wav", "-o", "r.html"],
            "reading nosuch.wav: no such file or directory",
        ),
        (
            &["cut", "a.rttm", "--only", "A", "--audio", "nosuch.wav", "-o", "x.wav"],
            "nosuch.wav: no such file or directory",
        ),
    ] {
        let run = dir.run(args);
        assert_eq!(run.code(), 2, "{args:?}");
        assert_eq!(run.stderr(), format!("overtalk: error: {said}\n"), "{args:?}");
        assert_eq!(run.stdout(), "", "{args:?}");
    }
    assert!(!dir.path().join("r.html").exists() && !dir.path().join("x.wav").exists());
}

/// Flags of recordings given with transcripts alone are refused, not silently ignored.
#[test]
fn recording_flags_without_a_recording_are_refused() {
    let dir = Dir::new();
    dir.create("a.rttm", "SPEAKER r 1 0 2 <NA> <NA> A <NA> <NA>\n");
    let run = dir.run(&["analyze", "a.rttm", "--track-offset", "A=2"]);
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "overtalk: error: --track-offset places a --track file on the common timeline; give the tracks with --track NAME=FILE (the channels of one recording share its clock)\n"
    );
    for (args, flags) in [
        (&["analyze", "a.rttm", "--num-speakers", "2"][..], "--num-speakers tells"),
        (&["report", "a.rttm", "--diarize"], "--diarize tells"),
        (
            &[
                "score",
                "-r",
                "a.rttm",
                "-s",
                "a.rttm",
                "--min-speakers",
                "2",
                "--max-speakers",
                "3",
            ],
            "--min-speakers, --max-speakers tell",
        ),
    ] {
        let run = dir.run(args);
        assert_eq!(run.code(), 2, "{args:?}");
        assert_eq!(
            run.stderr(),
            format!("overtalk: error: {flags} the speakers of a recording apart; the inputs hold no recording (a transcript's speakers are its own)\n"),
            "{args:?}"
        );
    }
}

/// A write the system refuses is said in the same plain words (no `(os error 28)`).
#[cfg(target_os = "linux")]
#[test]
fn a_full_device_is_said_in_plain_words() {
    let dir = Dir::new();
    dir.create("a.rttm", "SPEAKER r 1 0 2 <NA> <NA> A <NA> <NA>\n");
    let run = dir.run(&["convert", "a.rttm", "--to", "rttm", "-o", "/dev/full"]);
    assert_eq!(run.code(), 2);
    assert_eq!(run.stderr(), "overtalk: error: /dev/full: writing: no space left on device\n");
}

/// One line longer than the line limit, in an input whose format cannot be told, is refused
/// for its length on standard input as in a file, not as a format that cannot be told.
#[test]
fn an_overlong_line_is_named_on_stdin_as_in_a_file() {
    let dir = Dir::new();
    let line = format!("{}\n", "word ".repeat(400_000));
    let message = "limit exceeded: line 1 is 2000000 bytes long, more than the limit of 1048576 bytes, and the format cannot be told from the rest of the input; name it with --from\n";
    let run = dir.run_with_stdin(&["info", "-"], Some(&line));
    assert_eq!(run.code(), 2);
    assert_eq!(run.stderr(), format!("overtalk: error: <stdin>: {message}"));
    dir.create("long.txt", &line);
    let run = dir.run(&["info", "long.txt"]);
    assert_eq!(run.code(), 2);
    assert_eq!(run.stderr(), format!("overtalk: error: long.txt: {message}"));
    // Below the limit, the same text is what it was: no format told.
    let run = dir.run_with_stdin(&["info", "-"], Some("word word word\n"));
    assert_eq!(
        run.stderr(),
        "overtalk: error: <stdin>: unsupported: cannot tell the format from the file name or content, and no speaker turns found in it as text (no times, no speakers' labels that come back); name it with --from\n"
    );
}

/// Every time option reads the same forms (seconds, `s`, `ms`, m:ss, h:mm:ss): the same
/// value written each way gives the same result, and a bare number keeps the option's unit
/// (milliseconds for the analysis parameters).
#[test]
fn every_time_option_reads_the_same_forms() {
    let dir = Dir::new();
    dir.create(
        "a.rttm",
        "SPEAKER r 1 0 2 <NA> <NA> A <NA> <NA>\nSPEAKER r 1 1.5 2 <NA> <NA> B <NA> <NA>\n",
    );
    let score = |collar: &str| {
        dir.run(&["score", "-r", "a.rttm", "-s", "a.rttm", "--collar", collar, "--format", "json"])
            .ok()
    };
    let seconds = score("0.25");
    for collar in ["0.25s", "250ms", "0:00.25", "0:00:00.25"] {
        assert_eq!(score(collar), seconds, "{collar}");
    }
    let latch = |value: &str| {
        let out = dir.run(&["analyze", "a.rttm", "--latch-tolerance", value]).ok();
        out.lines().find(|l| l.starts_with("parameters")).unwrap().to_owned()
    };
    for value in ["120", "120ms", "0.12s", "0:00.12"] {
        let line = latch(value);
        assert!(line.contains("latch_tolerance 120 ms,"), "{value}: {line}");
    }
    // A bare number of an `MS` option is milliseconds: `0.12` is a fraction of one.
    let run = dir.run(&["analyze", "a.rttm", "--latch-tolerance", "0.12"]);
    assert_eq!(
        run.stderr(),
        "error: invalid value '0.12' for '--latch-tolerance <MS>': \"0.12\": this option takes \
         whole milliseconds\n\nFor more information, try '--help'.\n"
    );
    let run = dir.run(&["analyze", "a.rttm", "--latch-tolerance", "2 minutes"]);
    assert_eq!(
        run.stderr(),
        "error: invalid value '2 minutes' for '--latch-tolerance <MS>': \"2 minutes\" is no time: \
         give seconds (`62.5`, `62.5s`), milliseconds (`500ms`), m:ss or h:mm:ss (`1:02.5`, \
         `1:02:03.5`); a bare number here is milliseconds\n\nFor more information, try '--help'.\n"
    );
}
