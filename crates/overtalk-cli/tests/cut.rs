use crate::util::Dir;

/// Wife 0–4 s, Husband 3.5–6 s, Wife 7–9 s, Husband 9.5–10 s.
const RTTM: &str = "SPEAKER clip 1 0.000 4.000 <NA> <NA> Wife <NA> <NA>\n\
SPEAKER clip 1 3.500 2.500 <NA> <NA> Husband <NA> <NA>\n\
SPEAKER clip 1 7.000 2.000 <NA> <NA> Wife <NA> <NA>\n\
SPEAKER clip 1 9.500 0.500 <NA> <NA> Husband <NA> <NA>\n";

#[test]
fn without_a_speaker_writes_a_premiere_edl_and_the_remapped_rttm() {
    let dir = Dir::new();
    dir.create("clip.rttm", RTTM);
    let run = dir.run(&[
        "cut",
        "clip.rttm",
        "--without",
        "Husband",
        "--media",
        "clip.wav",
        "-o",
        "out.edl",
        "--transcript",
        "out.rttm",
    ]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(
        dir.read("out.edl"),
        "TITLE: clip (without Husband)\nFCM: NON-DROP FRAME\n\n\
001  AX       A     C        00:00:00:00 00:00:04:00 00:00:00:00 00:00:04:00\n* FROM CLIP NAME: clip.wav\n\n\
002  AX       A     C        00:00:06:00 00:00:09:13 00:00:04:00 00:00:07:13\n* FROM CLIP NAME: clip.wav\n"
    );
    assert_eq!(
        dir.read("out.rttm"),
        "SPEAKER clip 1 0.000 4.000 <NA> <NA> Wife <NA> <NA>\n\
SPEAKER clip 1 3.500 0.500 <NA> <NA> Husband <NA> <NA>\n\
SPEAKER clip 1 5.000 2.000 <NA> <NA> Wife <NA> <NA>\n\
SPEAKER clip 1 7.500 0.020 <NA> <NA> Husband <NA> <NA>\n"
    );
}

/// A mono 8 kHz 16-bit WAV of `samples` samples at a constant 0.25, in `dir`.
fn write_constant_wav(dir: &Dir, name: &str, samples: usize) {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: 8000,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(dir.path().join(name), spec).unwrap();
    for _ in 0..samples {
        w.write_sample(8192i16).unwrap();
    }
    w.finalize().unwrap();
}

#[test]
fn renders_audio_with_the_cut_length() {
    let dir = Dir::new();
    dir.create("clip.rttm", RTTM);
    write_constant_wav(&dir, "clip.wav", 80_000);
    let run =
        dir.run(&["cut", "clip.rttm", "--only", "Wife", "--audio", "clip.wav", "-o", "wife.wav"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let r = hound::WavReader::open(dir.path().join("wife.wav")).unwrap();
    // Wife: 0–4 s and 7–9 s, 150 frames at 25 fps, 320 samples each.
    assert_eq!(r.len(), 48_000);
    let x: Vec<f32> = r.into_samples::<f32>().map(|s| s.unwrap()).collect();
    // A constant passes the crossfade at the join unchanged.
    assert!(x[31_000..33_000].iter().all(|v| (v - 0.25).abs() < 1e-6));
}

#[test]
fn muting_keeps_the_recording_length_to_the_sample() {
    let dir = Dir::new();
    dir.create("clip.rttm", RTTM);
    // 10.0035 s: 80,028 samples, 28 into the 251st frame at 25 fps (320 samples a frame).
    write_constant_wav(&dir, "clip.wav", 80_028);
    // Muting Wife's solo speech (0–3.5 s, 7–9 s) keeps the rest, up to the recording's end.
    let run =
        dir.run(&["cut", "clip.rttm", "--mute", "Wife", "--audio", "clip.wav", "-o", "m.wav"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let r = hound::WavReader::open(dir.path().join("m.wav")).unwrap();
    assert_eq!(r.len(), 80_028);
    let x: Vec<f32> = r.into_samples::<f32>().map(|s| s.unwrap()).collect();
    assert_eq!((x[8_000], x[40_000], x[64_000]), (0.0, 0.25, 0.0));
    // The last sample is the recording's, and nothing follows it.
    assert_eq!(x[80_027], 0.25);
}

#[test]
fn a_truncated_recording_is_not_rendered_short() {
    let dir = Dir::new();
    dir.create("clip.rttm", RTTM);
    write_constant_wav(&dir, "full.wav", 80_000);
    // Cut the file at 5 s: its header still declares 10 s.
    let bytes = std::fs::read(dir.path().join("full.wav")).unwrap();
    std::fs::write(dir.path().join("clip.wav"), &bytes[..44 + 80_000]).unwrap();
    let run =
        dir.run(&["cut", "clip.rttm", "--only", "Wife", "--audio", "clip.wav", "-o", "wife.wav"]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert!(run.stderr().contains("clip.wav: the file is truncated"), "{}", run.stderr());
    assert!(!dir.path().join("wife.wav").exists());
}

#[test]
fn errors_are_clear_and_inputs_safe() {
    let dir = Dir::new();
    dir.create("clip.rttm", RTTM);
    let run =
        dir.run(&["cut", "clip.rttm", "--only", "Nobody", "--media", "m.wav", "-o", "o.otio"]);
    assert_eq!(run.code(), 2);
    assert!(
        run.stderr().contains("no speaker \"Nobody\" (speakers: Husband, Wife)"),
        "{}",
        run.stderr()
    );
    let run = dir.run(&["cut", "clip.rttm", "--only", "Wife", "--media", "m.wav", "-o", "o.txt"]);
    assert_eq!(run.code(), 2);
    assert!(run.stderr().contains("use --format"), "{}", run.stderr());
    let run = dir.run(&["cut", "clip.rttm", "--only", "Wife", "-o", "o.wav"]);
    assert_eq!(run.code(), 2);
    assert!(run.stderr().contains("--audio"), "{}", run.stderr());
    let run =
        dir.run(&["cut", "clip.rttm", "--only", "Wife", "--format", "csv", "-o", "clip.rttm"]);
    assert_eq!(run.code(), 2);
    assert_eq!(dir.read("clip.rttm"), RTTM);
    // A transcript output of no known format, or the edit's own file, is refused before the
    // edit is written.
    for (transcript, says) in
        [("e.xyz", "--transcript e.xyz: cannot tell the format"), ("e.edl", "the same file as -o")]
    {
        let run = dir.run(&[
            "cut",
            "clip.rttm",
            "--only",
            "Wife",
            "--media",
            "m.wav",
            "-o",
            "e.edl",
            "--transcript",
            transcript,
        ]);
        assert_eq!(run.code(), 2, "{transcript}");
        assert!(run.stderr().contains(says), "{}", run.stderr());
        assert!(!dir.path().join("e.edl").exists());
    }
}

/// A mono 16 kHz 16-bit WAV of `(value, samples)` runs, in `dir`.
fn write_runs_wav(dir: &Dir, name: &str, runs: &[(i16, usize)]) {
    write_runs_wav_at(dir, name, 16_000, runs);
}

/// [`write_runs_wav`] at `rate` Hz.
fn write_runs_wav_at(dir: &Dir, name: &str, rate: u32, runs: &[(i16, usize)]) {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(dir.path().join(name), spec).unwrap();
    for &(v, n) in runs {
        for _ in 0..n {
            w.write_sample(v).unwrap();
        }
    }
    w.finalize().unwrap();
}

/// Host 0–1 s, Guest 1.2–1.8 s, on the session clock.
const DEVICES_RTTM: &str = "SPEAKER show 1 0.000 1.000 <NA> <NA> Host <NA> <NA>\n\
SPEAKER show 1 1.200 0.600 <NA> <NA> Guest <NA> <NA>\n";

/// Tracks recorded on separate devices are cut on the session clock: Host's recorder started
/// 0.5 s early (its file's first 8,000 samples, at 0.75, lie before the session and are
/// dropped; then 0.25), Guest's 0.5 s late and stopped at 2 s (1.5 s at 0.5: silent before
/// sample 8,000 and after sample 32,000 of the session). The session lasts 2.5 s, 40,000
/// samples; `--mute` keeps its timing, so each output sample is the session's.
#[test]
fn tracks_of_separate_devices_are_cut_on_the_session_clock() {
    let dir = Dir::new();
    dir.create("show.rttm", DEVICES_RTTM);
    write_runs_wav(&dir, "host.wav", &[(24_576, 8_000), (8_192, 40_000)]);
    write_runs_wav(&dir, "guest.wav", &[(16_384, 24_000)]);
    let cut = |mute: &str, out: &str| {
        let run = dir.run(&[
            "cut",
            "show.rttm",
            "--mute",
            mute,
            "--track",
            "Host=host.wav",
            "--track",
            "Guest=guest.wav",
            "--track-offset",
            "Host=-0.5",
            "--track-offset",
            "Guest=0.5",
            "-o",
            out,
        ]);
        assert_eq!(run.code(), 0, "{}", run.stderr());
        let r = hound::WavReader::open(dir.path().join(out)).unwrap();
        assert_eq!((r.spec().sample_rate, r.spec().channels), (16_000, 1));
        r.into_samples::<f32>().map(|s| s.unwrap()).collect::<Vec<f32>>()
    };
    // Guest muted (its track dropped, its solo speech 1.2–1.8 s a gap): Host alone, from its
    // file's sample 8,000 at session sample 0, to the session's end.
    let host = cut("Guest", "host-only.wav");
    assert_eq!(host.len(), 40_000);
    assert_eq!((host[0], host[1_600], host[15_000]), (0.25, 0.25, 0.25));
    assert_eq!((host[19_200], host[24_000], host[28_639]), (0.0, 0.0, 0.0));
    assert_eq!((host[32_000], host[35_200], host[39_999]), (0.25, 0.25, 0.25));
    // Host muted (its solo speech 0–1 s a gap): Guest alone, from session sample 8,000 (its
    // own 0) to 32,000 (its end), silent after.
    let guest = cut("Host", "guest-only.wav");
    assert_eq!(guest.len(), 40_000);
    assert_eq!((guest[8_000], guest[15_999]), (0.0, 0.0));
    assert_eq!((guest[17_000], guest[24_000], guest[31_999]), (0.5, 0.5, 0.5));
    assert_eq!((guest[32_000], guest[36_000], guest[39_999]), (0.0, 0.0, 0.0));
    // Without the offsets the two files are taken from the session's start, as they are.
    let run = dir.run(&[
        "cut",
        "show.rttm",
        "--mute",
        "Host",
        "--track",
        "Host=host.wav",
        "--track",
        "Guest=guest.wav",
        "-o",
        "plain.wav",
    ]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let plain: Vec<f32> = hound::WavReader::open(dir.path().join("plain.wav"))
        .unwrap()
        .into_samples::<f32>()
        .map(|s| s.unwrap())
        .collect();
    assert_eq!(plain.len(), 48_000);
    assert_eq!((plain[17_000], plain[23_999], plain[24_000]), (0.5, 0.5, 0.0));
}

/// Offsets that cannot place a track, and cut lists that would name the moved files, are
/// refused with the flag and the file named; nothing is written.
#[test]
fn bad_track_offsets_of_a_cut_are_refused() {
    let dir = Dir::new();
    dir.create("show.rttm", DEVICES_RTTM);
    write_runs_wav(&dir, "host.wav", &[(24_576, 8_000), (8_192, 40_000)]);
    write_runs_wav(&dir, "guest.wav", &[(16_384, 24_000)]);
    let refused = |offsets: &[&str], out: &str| {
        let args = [
            &["cut", "show.rttm", "--mute", "Host", "--track", "Host=host.wav"][..],
            &["--track", "Guest=guest.wav"],
            offsets,
            &["-o", out],
        ]
        .concat();
        let run = dir.run(&args);
        assert_eq!(run.code(), 2, "{}", run.stderr());
        assert!(!dir.path().join(out).exists());
        run.stderr()
    };
    assert_eq!(
        refused(&["--track-offset", "Guest=-1.5"], "a.wav"),
        "overtalk: error: guest.wav: the offset -1.500 s of \"Guest\" puts the whole of its \
         recording (1.500 s) before the common start of the tracks\n"
    );
    // Within half a sample of the end (23,999.6 samples, rounded to all 24,000).
    assert_eq!(
        refused(&["--track-offset", "Guest=-1.499975"], "b.wav"),
        "overtalk: error: guest.wav: the offset -1.499975 s of \"Guest\" puts the whole of its \
         recording (1.500 s) before the common start of the tracks\n"
    );
    assert_eq!(
        refused(&["--track-offset", "Guest=86399"], "c.wav"),
        "overtalk: error: guest.wav: limit exceeded: the offset 86399.000 s of \"Guest\" puts \
         the end of its recording (1.500 s) at 86400.500 s on the common timeline, later than \
         the longest recording accepted (86400.000 s)\n"
    );
    assert_eq!(
        refused(&["--track-offset", "Guest=90000"], "d.wav"),
        "overtalk: error: guest.wav: limit exceeded: the offset 90000.000 s of \"Guest\" is \
         longer than the longest recording accepted (86400.000 s)\n"
    );
    assert_eq!(
        refused(&["--track-offset", "Gust=1"], "e.wav"),
        "overtalk: error: --track-offset Gust=1: \"Gust\" is not a --track name (the tracks are \
         \"Host\", \"Guest\")\n"
    );
    assert_eq!(
        refused(&["--track-offset", "Guest=later"], "f.wav"),
        "overtalk: error: --track-offset Guest=later: \"later\" is no time: give seconds \
         (`62.5`, `62.5s`), milliseconds (`500ms`), m:ss or h:mm:ss (`1:02.5`, `1:02:03.5`)\n"
    );
    assert_eq!(
        refused(&["--track-offset", "Guest=0.5"], "g.otio"),
        "overtalk: error: --track-offset: a cut list would name each --track file with times of \
         the common timeline, which an editor reads on the file's own timeline; render the cut \
         (-o FILE.wav), or name media on the common timeline with --media PATH or --audio FILE\n"
    );
    // Cut lists of media on the session clock are written as before.
    let run = dir.run(&[
        "cut",
        "show.rttm",
        "--mute",
        "Host",
        "--track",
        "Host=host.wav",
        "--track",
        "Guest=guest.wav",
        "--track-offset",
        "Guest=0.5",
        "--media",
        "show.wav",
        "-o",
        "show.csv",
    ]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(dir.read("show.csv").contains("show.wav"), "{}", dir.read("show.csv"));
}

/// Tracks at different sample rates cannot be mixed sample by sample: refused, naming both
/// tracks, their files and rates; nothing is written.
#[test]
fn tracks_at_different_rates_are_refused_naming_both() {
    let dir = Dir::new();
    dir.create("show.rttm", DEVICES_RTTM);
    write_runs_wav(&dir, "host.wav", &[(8_192, 40_000)]);
    write_runs_wav_at(&dir, "slow.wav", 8_000, &[(8_192, 20_000)]);
    let run = dir.run(&[
        "cut",
        "show.rttm",
        "--mute",
        "Host",
        "--track",
        "Host=host.wav",
        "--track",
        "Guest=slow.wav",
        "-o",
        "out.wav",
    ]);
    assert_eq!(run.code(), 2, "{}", run.stderr());
    assert_eq!(
        run.stderr(),
        "overtalk: error: tracks have different sample rates: Host (host.wav) is 16000 Hz, Guest \
         (slow.wav) is 8000 Hz; a cut mixes the tracks sample by sample, so resample them to one \
         rate first\n"
    );
    assert!(!dir.path().join("out.wav").exists());
}

/// `--without` (or `--mute`) of every speaker kept only the silences between them, written as
/// an edit with exit 0. It is refused, naming the speakers, and nothing is written.
#[test]
fn removing_every_speaker_is_refused() {
    let dir = Dir::new();
    dir.create("clip.rttm", RTTM);
    for flag in ["--without", "--mute"] {
        let run = dir.run(&["cut", "clip.rttm", flag, "Wife", flag, "Husband", "-o", "out.csv"]);
        assert_eq!(run.code(), 2);
        assert_eq!(
            run.stderr(),
            format!("overtalk: error: cutting clip: {flag} names every speaker (Husband, Wife): nothing of the speech would be kept, only the silences between it\n")
        );
        assert!(!dir.path().join("out.csv").exists());
    }
}

/// A duration `cut` cannot read says the forms it takes, the forms every time option of the
/// command line takes; `--context 0:02` is one of them.
#[test]
fn a_bad_duration_names_the_forms_it_takes() {
    let dir = Dir::new();
    dir.create("a.rttm", "SPEAKER r 1 0 2 <NA> <NA> A <NA> <NA>\n");
    let cut = |context: &str| {
        dir.run(&[
            "cut",
            "a.rttm",
            "--events",
            "interruptions",
            "--context",
            context,
            "-o",
            "c.csv",
        ])
    };
    let run = cut("2 minutes");
    assert_eq!(run.code(), 2);
    assert_eq!(
        run.stderr(),
        "error: invalid value '2 minutes' for '--context <TIME>': \"2 minutes\" is no time: give \
         seconds (`62.5`, `62.5s`), milliseconds (`500ms`), m:ss or h:mm:ss (`1:02.5`, \
         `1:02:03.5`)\n\nFor more information, try '--help'.\n"
    );
    assert!(!dir.path().join("c.csv").exists());
    // Each form is read: the cut goes on to find no interruption in the one speaker's file.
    for context in ["0:02", "2", "2s", "2000ms", "0:00:02.0"] {
        let run = cut(context);
        assert_eq!(run.code(), 2, "{context}");
        assert_eq!(
            run.stderr(),
            "overtalk: error: cutting r: the selection keeps nothing\n",
            "{context}"
        );
    }
}
