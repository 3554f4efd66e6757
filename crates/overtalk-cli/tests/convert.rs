use crate::util::Dir;

const RTTM: &str = "SPEAKER clip 1 3.500 1.000 <NA> <NA> SPEAKER_01 <NA> <NA>\nSPEAKER clip 1 0.000 4.000 <NA> <NA> SPEAKER_00 <NA> <NA>\n";

#[test]
fn stdin_to_stdout_is_canonical_rttm() {
    let dir = Dir::new();
    let out = dir.run_with_stdin(&["convert", "-", "--to", "rttm", "-o", "-"], Some(RTTM)).ok();
    assert_eq!(
        out,
        "SPEAKER clip 1 0.000 4.000 <NA> <NA> SPEAKER_00 <NA> <NA>\nSPEAKER clip 1 3.500 1.000 <NA> <NA> SPEAKER_01 <NA> <NA>\n"
    );
}

#[test]
fn speakers_are_renamed_from_toml() {
    let dir = Dir::new();
    dir.create("clip.rttm", RTTM);
    dir.create("names.toml", "SPEAKER_00 = \"Wife\"\n\"SPEAKER_01\" = \"Husband Name\"\n");
    let run = dir.run(&["convert", "clip.rttm", "--speakers", "names.toml", "-o", "out.rttm"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(
        run.stderr().contains("\"Husband Name\" written as \"Husband_Name\""),
        "{}",
        run.stderr()
    );
    assert_eq!(
        dir.read("out.rttm"),
        "SPEAKER clip 1 0.000 4.000 <NA> <NA> Wife <NA> <NA>\nSPEAKER clip 1 3.500 1.000 <NA> <NA> Husband_Name <NA> <NA>\n"
    );
}

#[test]
fn never_overwrites_an_input() {
    let dir = Dir::new();
    dir.create("clip.rttm", RTTM);
    let run = dir.run(&["convert", "clip.rttm", "-o", "clip.rttm"]);
    assert_eq!(run.code(), 2);
    assert!(run.stderr().contains("refusing to overwrite an input"), "{}", run.stderr());
    assert_eq!(dir.read("clip.rttm"), RTTM);
}

/// A named pipe stays a pipe: special files are written in place, not replaced by a rename
/// (`-o /dev/null` must never replace the device).
#[cfg(unix)]
#[test]
fn writes_into_a_named_pipe_without_replacing_it() {
    use std::os::unix::fs::FileTypeExt;
    let dir = Dir::new();
    dir.create("clip.rttm", RTTM);
    let fifo = dir.path().join("pipe.rttm");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let run = dir.run(&["convert", "clip.rttm", "-o", "pipe.rttm"]);
    // Checked before joining: had the pipe been replaced, the reader would wait forever.
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    let received = crate::util::release_fifo(&fifo, reader, false);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(
        received,
        "SPEAKER clip 1 0.000 4.000 <NA> <NA> SPEAKER_00 <NA> <NA>\nSPEAKER clip 1 3.500 1.000 <NA> <NA> SPEAKER_01 <NA> <NA>\n"
    );
}

/// A named pipe (`<(command)`, a FIFO) is read once: its format told by its content and every
/// byte of it read, where opening it twice lost the first bytes to the recording check.
#[cfg(unix)]
#[test]
fn reads_a_named_pipe_once() {
    let dir = Dir::new();
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let writer = {
        let fifo = fifo.clone();
        let sorted = "SPEAKER clip 1 0.000 4.000 <NA> <NA> SPEAKER_00 <NA> <NA>\nSPEAKER clip 1 3.500 1.000 <NA> <NA> SPEAKER_01 <NA> <NA>\n";
        std::thread::spawn(move || std::fs::write(fifo, sorted).unwrap())
    };
    let run = dir.run(&["convert", "pipe", "--to", "rttm", "-o", "-"]);
    crate::util::release_fifo(&fifo, writer, true);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(run.stderr(), "");
    assert_eq!(
        run.stdout(),
        "SPEAKER clip 1 0.000 4.000 <NA> <NA> SPEAKER_00 <NA> <NA>\nSPEAKER clip 1 3.500 1.000 <NA> <NA> SPEAKER_01 <NA> <NA>\n"
    );
}

/// A named pipe is read up to the size limit and no further: its size is not known up front.
#[cfg(unix)]
#[test]
fn a_named_pipe_over_the_size_limit_is_refused() {
    let dir = Dir::new();
    let fifo = dir.path().join("pipe.rttm");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    let writer = {
        let fifo = fifo.clone();
        let line = "SPEAKER clip 1 0.000 4.000 <NA> <NA> A <NA> <NA>\n";
        // 1.5 MiB; the write fails (broken pipe) once the reader stops.
        std::thread::spawn(move || drop(std::fs::write(fifo, line.repeat(1_572_864 / line.len()))))
    };
    let run = dir.run(&["convert", "pipe.rttm", "--max-file-mib", "1", "-o", "-"]);
    crate::util::release_fifo(&fifo, writer, true);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert_eq!(
        run.stderr().lines().next().unwrap_or(""),
        "overtalk: error: pipe.rttm: limit exceeded: input is more than the limit of 1048576 bytes"
    );
}

/// Writing through a symbolic link replaces the file it points to and keeps the link.
#[cfg(unix)]
#[test]
fn writes_through_a_symbolic_link_and_keeps_it() {
    let dir = Dir::new();
    dir.create("clip.rttm", RTTM);
    dir.create("real/out.rttm", "old\n");
    std::os::unix::fs::symlink(dir.path().join("real/out.rttm"), dir.path().join("link.rttm"))
        .unwrap();
    let run = dir.run(&["convert", "clip.rttm", "-o", "link.rttm"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(std::fs::symlink_metadata(dir.path().join("link.rttm")).unwrap().is_symlink());
    assert_eq!(dir.read("real/out.rttm"), dir.read("link.rttm"));
    assert!(dir.read("real/out.rttm").starts_with("SPEAKER clip 1 0.000 4.000"));
}

#[test]
fn strict_turns_a_warning_into_an_error_with_its_position() {
    let dir = Dir::new();
    dir.create(
        "bad.rttm",
        "SPEAKER r 1 2.0 1.0 <NA> <NA> a <NA> <NA>\nSPEAKER r 1 3.0 0 <NA> <NA> a <NA> <NA>\nSPEAKER r 1 1.0 -0.5 <NA> <NA> a <NA> <NA>\n",
    );
    let lenient = dir.run(&["convert", "bad.rttm", "-o", "-", "--to", "rttm"]);
    assert_eq!(lenient.code(), 0);
    assert!(
        lenient.stderr().contains("bad.rttm: line 3, column 13: 1 line out of time order (line 3)"),
        "{}",
        lenient.stderr()
    );
    // Unsorted lines and a zero-length turn are valid RTTM (notes); the negative duration is
    // the first repair.
    let strict = dir.run(&["convert", "bad.rttm", "-o", "-", "--to", "rttm", "--strict"]);
    assert_eq!(strict.code(), 2);
    assert!(
        strict
            .stderr()
            .contains("bad.rttm:3:17: rttm: segment ends (0.500) before it starts (1.000)"),
        "{}",
        strict.stderr()
    );
    assert_eq!(strict.stdout(), "");
}

#[test]
fn a_failed_write_leaves_no_partial_file() {
    let dir = Dir::new();
    dir.create(
        "multi.rttm",
        "SPEAKER a 1 0 1 <NA> <NA> x <NA> <NA>\nSPEAKER b 1 0 1 <NA> <NA> x <NA> <NA>\n",
    );
    let run = dir.run(&["convert", "multi.rttm", "-o", "out.vtt"]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(!dir.path().join("out.vtt").exists());
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

#[test]
fn an_output_name_without_a_known_extension_asks_for_to() {
    let dir = Dir::new();
    dir.create("clip.rttm", RTTM);
    let run = dir.run(&["convert", "clip.rttm", "-o", "out.docx"]);
    assert_eq!(run.code(), 2);
    assert!(run.stderr().contains("out.docx: cannot tell the output format"), "{}", run.stderr());
    dir.run(&["convert", "clip.rttm", "-o", "out.json"]).ok();
    assert!(dir.read("out.json").contains("\"schema_version\""));
}

/// A recording id is data: written into a directory, it becomes one file name there, never a
/// path out of it; two ids that would share a name stop the conversion before any file is
/// written.
#[test]
fn recording_ids_are_file_names_inside_the_output_directory() {
    let dir = Dir::new();
    std::fs::create_dir_all(dir.path().join("in/out")).unwrap();
    dir.create("victim.rttm", "kept\n");
    dir.create(
        "in/t.rttm",
        "SPEAKER ../../victim 1 0 1 <NA> <NA> EVIL <NA> <NA>\nSPEAKER /abs 1 0 1 <NA> <NA> A <NA> <NA>\nSPEAKER .. 1 0 1 <NA> <NA> A <NA> <NA>\n",
    );
    let run = dir.run(&["convert", "in/t.rttm", "-o", "in/out/", "--to", "webvtt"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(dir.read("victim.rttm"), "kept\n");
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("in/out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["_..vtt", "_._.._victim.vtt", "_abs.vtt"]);
    assert!(
        run.stderr().contains("recording \"../../victim\" written as _._.._victim.vtt"),
        "{}",
        run.stderr()
    );
    dir.create(
        "clash.rttm",
        "SPEAKER a/b 1 0 1 <NA> <NA> A <NA> <NA>\nSPEAKER a_b 1 0 1 <NA> <NA> A <NA> <NA>\n",
    );
    let run = dir.run(&["convert", "clash.rttm", "-o", "clash/", "--to", "webvtt"]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(run.stderr().contains("would both be written to a_b.vtt"), "{}", run.stderr());
    assert!(!dir.path().join("clash").exists());
}

/// Any output name the file system takes can be written: the hidden file of the atomic write
/// has a short name of its own.
#[test]
fn a_long_output_name_is_written() {
    let dir = Dir::new();
    dir.create("clip.rttm", RTTM);
    let name = format!("{}.rttm", "a".repeat(245));
    dir.run(&["convert", "clip.rttm", "-o", &name]).ok();
    assert!(dir.read(&name).starts_with("SPEAKER"));
}

/// A hard link to an input is that input: not overwritten either.
#[cfg(unix)]
#[test]
fn a_hard_link_to_an_input_is_the_input() {
    let dir = Dir::new();
    dir.create("clip.rttm", RTTM);
    std::fs::hard_link(dir.path().join("clip.rttm"), dir.path().join("link.rttm")).unwrap();
    let run = dir.run(&["convert", "clip.rttm", "-o", "link.rttm"]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(run.stderr().contains("refusing to overwrite an input file"), "{}", run.stderr());
    dir.create("names.toml", "\"A\" = \"B\"\n");
    std::fs::hard_link(dir.path().join("names.toml"), dir.path().join("n2.toml")).unwrap();
    let run = dir.run(&[
        "convert",
        "clip.rttm",
        "--speakers",
        "names.toml",
        "-o",
        "n2.toml",
        "--to",
        "rttm",
    ]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
}

/// SBV, srv1 and srv2 are read only: an output named for one is refused with the format's
/// name, and no file is written.
#[test]
fn read_only_caption_formats_are_refused_as_outputs() {
    let dir = Dir::new();
    dir.create("a.srt", "1\n00:00:01,000 --> 00:00:02,000\n[A]: hi\n");
    for (out, name) in [("x.sbv", "sbv"), ("x.srv1", "srv1"), ("x.srv2", "srv2")] {
        let run = dir.run(&["convert", "a.srt", "-q", "-o", out]);
        assert_eq!(run.code(), 2, "{}", run.stderr());
        assert_eq!(
            run.stderr(),
            format!("overtalk: error: unsupported: writing {name} is not supported (it is read only); overtalk writes rttm, uem, lab, webvtt, srt, textgrid, eaf, chat, whisperx, csv, tsv, stm, ctm, json, seglst, podcast\n")
        );
        assert!(!dir.path().join(out).exists(), "{out}");
    }
}

/// `convert --help` names the formats `--to` writes, and they are the ones the library writes.
#[test]
fn convert_help_lists_the_written_formats() {
    let help = Dir::new().run(&["convert", "--help"]).ok();
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let listed = format!(
        "Written: {}; the other formats are read only",
        overtalk::format::Format::writable_names()
    );
    assert!(flat.contains(&listed), "{listed}\n{flat}");
}

/// Files as speech-to-text services and caption tools hand them out, named as users save them,
/// are detected and converted: YouTube's `.sbv` captions, a Google Speech-to-Text operation,
/// OpenAI's `verbose_json` with words alone, an Amazon Transcribe Call Analytics transcript.
#[test]
fn service_outputs_convert_to_rttm() {
    let dir = Dir::new();
    dir.create(
        "captions.sbv",
        "0:00:00.100,0:00:00.900\nHello there.\n\n1:00:01.100,1:00:01.400\nHi.\n",
    );
    dir.create(
        "operation.json",
        r#"{"name": "1", "metadata": {"@type": "type.googleapis.com/google.cloud.speech.v1.LongRunningRecognizeMetadata", "progressPercent": 100},
 "done": true, "response": {"results": [{"alternatives": [{"words": [
  {"startTime": "0.100s", "endTime": "0.500s", "word": "hello", "speakerTag": 1, "speakerLabel": "1"},
  {"startTime": "1.200s", "endTime": "1.500s", "word": "hi", "speakerTag": 2, "speakerLabel": "2"}]}]}]}}"#,
    );
    dir.create(
        "whisper.json",
        r#"{"task": "transcribe", "language": "english", "duration": 3.0, "text": "Hi there.", "words": [{"word": "Hi", "start": 0.2, "end": 0.5}, {"word": "there", "start": 0.5, "end": 0.9}]}"#,
    );
    dir.create(
        "call.json",
        r#"{"JobStatus": "COMPLETED", "Participants": [{"ParticipantRole": "AGENT"}, {"ParticipantRole": "CUSTOMER"}], "Transcript": [
 {"Content": "Hello.", "BeginOffsetMillis": 100, "EndOffsetMillis": 900, "ParticipantRole": "AGENT", "Items": []},
 {"Content": "Hi.", "BeginOffsetMillis": 700, "EndOffsetMillis": 1300, "ParticipantRole": "CUSTOMER", "Items": []}]}"#,
    );
    let rttm = |input: &str| {
        dir.run(&["convert", input, "-o", "out.rttm"]).ok();
        dir.read("out.rttm")
    };
    assert_eq!(
        rttm("captions.sbv"),
        "SPEAKER captions 1 0.100 0.800 <NA> <NA> unknown <NA> <NA>\nSPEAKER captions 1 3601.100 0.300 <NA> <NA> unknown <NA> <NA>\n"
    );
    assert_eq!(
        rttm("operation.json"),
        "SPEAKER operation 1 0.100 0.400 <NA> <NA> speaker_1 <NA> <NA>\nSPEAKER operation 1 1.200 0.300 <NA> <NA> speaker_2 <NA> <NA>\n"
    );
    assert_eq!(rttm("whisper.json"), "SPEAKER whisper 1 0.200 0.700 <NA> <NA> unknown <NA> <NA>\n");
    assert_eq!(
        rttm("call.json"),
        "SPEAKER call 1 0.100 0.800 <NA> <NA> AGENT <NA> <NA>\nSPEAKER call 1 0.700 0.600 <NA> <NA> CUSTOMER <NA> <NA>\n"
    );
}

/// YouTube's own captions as yt-dlp saves them (`NAME.en.srv3`, `NAME.en.json3`) are detected
/// and converted: the manual captions' `>> NAME:` turns become the speakers; a malformed file
/// is refused under `--strict` with its file, line and column.
#[test]
fn youtube_srv3_and_json3_captions_convert_to_rttm() {
    let dir = Dir::new();
    let fixture = |name: &str| {
        std::fs::read_to_string(overtalk_testkit::fixtures().join("youtube").join(name)).unwrap()
    };
    dir.create("talk.en.srv3", &fixture("interview_manual.srv3"));
    dir.create("talk.en.json3", &fixture("interview_manual.json3"));
    let expected = "SPEAKER talk.en 1 1.200 2.800 <NA> <NA> ANA <NA> <NA>\n\
SPEAKER talk.en 1 4.100 2.300 <NA> <NA> BEN <NA> <NA>\n\
SPEAKER talk.en 1 6.400 3.100 <NA> <NA> ANA <NA> <NA>\n\
SPEAKER talk.en 1 9.500 3.600 <NA> <NA> BEN <NA> <NA>\n\
SPEAKER talk.en 1 15.100 1.250 <NA> <NA> ANA <NA> <NA>\n\
SPEAKER talk.en 1 16.350 1.250 <NA> <NA> BEN <NA> <NA>\n";
    for input in ["talk.en.srv3", "talk.en.json3"] {
        dir.run(&["convert", input, "-o", "out.rttm"]).ok();
        assert_eq!(dir.read("out.rttm"), expected, "{input}");
    }
    dir.create(
        "bad.json3",
        "{\"wireMagic\": \"pb3\", \"events\": [\n {\"tStartMs\": \"soon\", \"dDurationMs\": 900, \"segs\": [{\"utf8\": \"a\"}]}]}",
    );
    let run = dir.run(&["convert", "bad.json3", "--strict", "-o", "out.rttm"]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(
        run.stderr()
            .contains("bad.json3:2:2: json3: event `tStartMs` \"soon\" is no whole milliseconds"),
        "{}",
        run.stderr()
    );
}
