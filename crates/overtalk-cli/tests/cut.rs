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
