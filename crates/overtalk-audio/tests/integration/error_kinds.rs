//! The kinds of the audio paths' errors, each on a real failing input made here: a recording
//! that cannot be decoded (container, codec, truncated, empty, corrupt), a model file that
//! cannot be used (missing tensor, wrong hash, truncated, wrong shape, not a model) and a rate
//! that cannot be resampled, with what a front end can do about each ([`Recovery`]) and the
//! message, which the kind does not change.

use std::io::Write;
use std::path::Path;

use overtalk::error::{ModelProblem, RecordingProblem, ResamplingProblem};
use overtalk::{Error, ErrorKind, Recovery};
use overtalk_audio::decode::{decode_all, DecodeOptions, Decoder};
use overtalk_audio::diarize::embed::Ge2eWeights;
use overtalk_audio::diarize::models::{
    install_ge2e_from_wheel, write_safetensors, Tensor, PRETRAINED_MEMBER, PRETRAINED_SHA256,
};
use overtalk_audio::resample::Resampler16k;

use crate::wav::Wav;

/// The problem of a recording error (panics on another kind).
fn recording_problem(e: &Error) -> RecordingProblem {
    match e.kind() {
        ErrorKind::Recording { problem, .. } => *problem,
        other => panic!("not a recording error: {other:?}"),
    }
}

/// The problem of a model error (panics on another kind).
fn model_problem(e: &Error) -> ModelProblem {
    match e.kind() {
        ErrorKind::Model { problem, .. } => *problem,
        other => panic!("not a model error: {other:?}"),
    }
}

/// An RF64 file: `fmt` chunk with `tag`, `channels`, 16 kHz, `bits`, then `data` bytes.
fn rf64(path: &Path, tag: u16, channels: u16, bits: u16, data: &[u8]) {
    rf64_blocks(path, tag, channels, bits, channels * bits / 8, data);
}

/// [`rf64`] with blocks of `block` bytes.
fn rf64_blocks(path: &Path, tag: u16, channels: u16, bits: u16, block: u16, data: &[u8]) {
    // ds64: RIFF size (0), data size, sample count (0), table length (0).
    let mut ds64 = Vec::new();
    for size in [0, data.len() as u64, 0] {
        ds64.extend_from_slice(&size.to_le_bytes());
    }
    ds64.extend_from_slice(&0u32.to_le_bytes());
    Wav::new(tag, channels, 16_000, block, bits, data)
        .magic(b"RF64")
        .placeholder_sizes(u32::MAX)
        .insert_before(b"fmt ", b"ds64", &ds64)
        .write(path);
}

/// A WAV file whose `fmt ` chunk (16 bytes, or 40 for an extensible one) holds `tag` and
/// whose data chunk holds `data`.
fn wav_with_tag(path: &Path, tag: u16, extensible: bool, data: &[u8]) {
    let mut fmt = Vec::new();
    fmt.extend_from_slice(&(if extensible { 0xFFFE } else { tag }).to_le_bytes());
    fmt.extend_from_slice(&1u16.to_le_bytes());
    fmt.extend_from_slice(&8_000u32.to_le_bytes());
    fmt.extend_from_slice(&1_625u32.to_le_bytes());
    fmt.extend_from_slice(&65u16.to_le_bytes());
    fmt.extend_from_slice(&0u16.to_le_bytes());
    let mut wav = Wav::with_fmt(fmt, data);
    if extensible {
        let mut extension = Vec::new();
        extension.extend_from_slice(&22u16.to_le_bytes());
        extension.extend_from_slice(&0u16.to_le_bytes());
        extension.extend_from_slice(&4u32.to_le_bytes());
        extension.extend_from_slice(&tag.to_le_bytes());
        extension.extend_from_slice(b"\0\0\x00\x00\x10\x00\x80\x00\x00\xAA\x00\x38\x9B\x71");
        wav = wav.fmt_extension(&extension);
    }
    // A LIST chunk first, as recorders write one: the format chunk is found past it.
    wav.insert_before(b"fmt ", b"LIST", b"INFOISFT\x04\0\0\0test").write(path);
}

/// Recordings in a format or codec without a decoder here are refused with its name and the
/// way out, not with a guess: a phone's AMR file, Windows Media, a Sun AU file whose samples
/// look like AAC frames to a scanning probe, a call recorder's GSM WAV (plain and extensible), an MP3 WAV with no MPEG frame,
/// A-law in MOV (a track the demuxer skips), AC-3 in MP4.
#[test]
fn formats_and_codecs_without_a_decoder_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name);
    let open = |path: &Path| decode_all(path, &DecodeOptions::default()).unwrap_err();
    let noise: Vec<u8> = (0..4000u32).map(|i| (i * 7919 % 251) as u8).collect();
    // ADTS-like sync words all through, which the probe would take for AAC.
    let adts: Vec<u8> = [0xFFu8, 0xF1, 0x50, 0x80].iter().copied().cycle().take(4000).collect();
    let mut au = b".snd\0\0\0\x18\xff\xff\xff\xff\0\0\0\x03\0\0\x3e\x80\0\0\0\x01".to_vec();
    au.extend_from_slice(&adts);
    let asf = [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62];
    // AMR holds one channel, so its conversion mixes down; the others keep their channels.
    for (name, bytes, format, out, channels) in [
        ("call.amr", [&b"#!AMR\n"[..], &noise].concat(), "AMR", "call.wav", "-ac 1 "),
        ("memo.awb", [&b"#!AMR-WB\n"[..], &noise].concat(), "AMR-WB", "memo.wav", "-ac 1 "),
        ("show.wma", [&asf[..], &noise].concat(), "Windows Media (ASF: WMA/WMV)", "show.wav", ""),
        ("old.au", au, "Sun/NeXT AU", "old.wav", ""),
    ] {
        std::fs::write(p(name), bytes).unwrap();
        let e = open(&p(name));
        assert_eq!(recording_problem(&e), RecordingProblem::Container, "{name}");
        assert_eq!(
            e.to_string(),
            format!(
                "{0}: unsupported: the file is in the {format} format, which this decoder does not \
                 read; convert it first: ffmpeg -i '{0}' {channels}-ar 16000 '{1}'",
                p(name).display(),
                p(out).display()
            )
        );
    }
    // MIDI holds notes: there is nothing to convert.
    std::fs::write(p("song.mid"), [&b"MThd\0\0\0\x06\0\x01\0\x02"[..], &noise].concat()).unwrap();
    assert_eq!(
        open(&p("song.mid")).to_string(),
        format!(
            "{}: unsupported: the file is in the MIDI (notes, not a recording) format, which this \
             decoder does not read; give the recording itself",
            p("song.mid").display()
        )
    );
    for (name, tag, extensible, codec) in [
        ("gsm.wav", 0x0031, false, "GSM 6.10 audio (format tag 0x0031)"),
        ("odd.wav", 0x1234, false, "a codec audio (format tag 0x1234)"),
    ] {
        wav_with_tag(&p(name), tag, extensible, &noise);
        let e = open(&p(name));
        assert_eq!(recording_problem(&e), RecordingProblem::Codec, "{name}");
        // Mono (its `fmt ` chunk says one channel); the output is not the input.
        let out = p(name).with_extension("pcm.wav");
        assert_eq!(
            e.to_string(),
            format!(
                "{0}: unsupported: the WAV file holds {codec}, which this decoder does not read; \
                 convert it first: ffmpeg -i '{0}' -ac 1 -ar 16000 '{1}'",
                p(name).display(),
                out.display()
            )
        );
    }
    // MP3 in WAV is read (`decode::mp3_in_wav`); a data chunk without an MPEG frame is not.
    wav_with_tag(&p("mp3.wav"), 0x0055, true, &[0u8; 4000]);
    let e = open(&p("mp3.wav"));
    assert_eq!(recording_problem(&e), RecordingProblem::Corrupt);
    assert_eq!(
        e.to_string(),
        format!(
            "{}: the WAV file declares MPEG Layer 3 (MP3) audio (format tag \
             0x0055), but its data chunk holds no MPEG audio frame",
            p("mp3.wav").display()
        )
    );
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let (mov, mp4) = (data.join("unsupported.alaw.mov"), data.join("unsupported.ac3.mp4"));
    let e = open(&mov);
    assert_eq!(recording_problem(&e), RecordingProblem::Codec);
    assert_eq!(
        e.to_string(),
        format!(
            "{0}: unsupported: the MP4/M4A/MOV file's audio is A-law ('alaw'), which this decoder \
             does not read; convert it first: ffmpeg -i '{0}' -ar 16000 '{1}'",
            mov.display(),
            data.join("unsupported.alaw.wav").display()
        )
    );
    let e = open(&mp4);
    assert_eq!(recording_problem(&e), RecordingProblem::Codec);
    assert_eq!(
        e.to_string(),
        format!(
            "{0}: unsupported: the audio codec (AC-3 (Dolby Digital)) is not supported; convert \
             it first: ffmpeg -i '{0}' -ar 16000 '{1}'",
            mp4.display(),
            data.join("unsupported.ac3.wav").display()
        )
    );
}

/// The refusal of a format or codec ffmpeg reads ends with the exact command that converts
/// the file: its own path quoted for a shell (here with a space and a quote in the name), the
/// output named after it and never the input itself. An AMR file and a GSM WAV (mono: mixed
/// down), a Windows Media file (channels kept), and bytes held in memory (no path to name).
#[test]
fn refusals_name_the_command_that_converts_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().display();
    let noise: Vec<u8> = (0..4000u32).map(|i| (i * 7919 % 251) as u8).collect();
    let amr = dir.path().join("Bob's call 1.amr");
    std::fs::write(&amr, [&b"#!AMR\n"[..], &noise].concat()).unwrap();
    let e = decode_all(&amr, &DecodeOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            r"{d}/Bob's call 1.amr: unsupported: the file is in the AMR format, which this decoder does not read; convert it first: ffmpeg -i '{d}/Bob'\''s call 1.amr' -ac 1 -ar 16000 '{d}/Bob'\''s call 1.wav'"
        )
    );
    let gsm = dir.path().join("it's a call.wav");
    wav_with_tag(&gsm, 0x0031, false, &noise);
    let e = decode_all(&gsm, &DecodeOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            r"{d}/it's a call.wav: unsupported: the WAV file holds GSM 6.10 audio (format tag 0x0031), which this decoder does not read; convert it first: ffmpeg -i '{d}/it'\''s a call.wav' -ac 1 -ar 16000 '{d}/it'\''s a call.pcm.wav'"
        )
    );
    let asf = [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA, 0x00, 0x62];
    let wma = dir.path().join("Team sync 'final'.wma");
    std::fs::write(&wma, [&asf[..], &noise].concat()).unwrap();
    let e = decode_all(&wma, &DecodeOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            r"{d}/Team sync 'final'.wma: unsupported: the file is in the Windows Media (ASF: WMA/WMV) format, which this decoder does not read; convert it first: ffmpeg -i '{d}/Team sync '\''final'\''.wma' -ar 16000 '{d}/Team sync '\''final'\''.wav'"
        )
    );
    let e =
        Decoder::from_bytes([&b"#!AMR\n"[..], &noise].concat(), None, &DecodeOptions::default())
            .unwrap_err();
    assert_eq!(
        e.to_string(),
        "unsupported: the file is in the AMR format, which this decoder does not read; convert it \
         first: ffmpeg -i IN -ac 1 -ar 16000 OUT.wav"
    );
}

#[test]
fn a_recording_that_cannot_be_decoded_says_why_and_may_be_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let p = |name: &str| dir.path().join(name);
    let open = |path: &Path| decode_all(path, &DecodeOptions::default()).unwrap_err();

    // Not a container: bytes that no reader recognises.
    std::fs::write(
        p("noise.wav"),
        (0..5000u32).map(|i| (i * 7919 % 251) as u8).collect::<Vec<_>>(),
    )
    .unwrap();
    let e = open(&p("noise.wav"));
    assert_eq!(recording_problem(&e), RecordingProblem::Container);
    assert_eq!(
        e.to_string(),
        format!(
            "{0}: unsupported: not a recognised audio or video container; if ffmpeg plays it, convert it first: ffmpeg -i '{0}' -ar 16000 '{1}'",
            p("noise.wav").display(),
            p("noise.pcm.wav").display()
        )
    );

    // A codec overtalk does not decode in RF64: GSM 6.10 (format tag 0x31), mono; the way out
    // is the command that converts it.
    rf64_blocks(&p("gsm.wav"), 0x31, 1, 0, 65, &[0u8; 1625]);
    let e = open(&p("gsm.wav"));
    assert_eq!(recording_problem(&e), RecordingProblem::Codec);
    assert_eq!(
        e.to_string(),
        format!(
            "{0}: unsupported: RF64 with format tag 0x0031 and 0-bit samples is not supported \
             (integer and float PCM, A-law and μ-law are); convert it first: ffmpeg -i '{0}' \
             -ac 1 -ar 16000 '{1}'",
            p("gsm.wav").display(),
            p("gsm.pcm.wav").display()
        )
    );

    // Corrupt: an RF64 header declaring no channels.
    rf64(&p("nochannels.wav"), 1, 0, 16, &[0u8; 1600]);
    let e = open(&p("nochannels.wav"));
    assert_eq!(recording_problem(&e), RecordingProblem::Corrupt);
    assert_eq!(
        e.to_string(),
        format!("{}: malformed RF64 header: zero channels", p("nochannels.wav").display())
    );

    // Corrupt: 24-bit samples in 4-byte slots, which would be read packed from the wrong bytes.
    rf64_blocks(&p("padded.wav"), 1, 2, 24, 8, &[0u8; 1600]);
    let e = open(&p("padded.wav"));
    assert_eq!(recording_problem(&e), RecordingProblem::Corrupt);
    assert_eq!(
        e.to_string(),
        format!(
            "{}: the WAV header declares 24-bit samples in slots of 4 bytes (2 channels in \
             blocks of 8 bytes): where a sample lies in its slot is not said, so it is not \
             guessed; convert the file with the program that wrote it, or to FLAC",
            p("padded.wav").display()
        )
    );

    // Truncated: an RF64 file cut inside its header.
    rf64(&p("cut.wav"), 1, 1, 16, &[]);
    let bytes = std::fs::read(p("cut.wav")).unwrap();
    std::fs::write(p("cut.wav"), &bytes[..30]).unwrap();
    let e = open(&p("cut.wav"));
    assert_eq!(recording_problem(&e), RecordingProblem::Truncated);
    assert_eq!(
        e.to_string(),
        format!(
            "{}: the file is truncated: it ends before any complete block of audio",
            p("cut.wav").display()
        )
    );

    // Empty: a file of 0 bytes.
    std::fs::write(p("empty.wav"), b"").unwrap();
    let e = Decoder::open(&p("empty.wav"), &DecodeOptions::default()).unwrap_err();
    assert_eq!(recording_problem(&e), RecordingProblem::Empty);
    assert_eq!(e.to_string(), format!("{}: the file is empty (0 bytes)", p("empty.wav").display()));

    // Every one of them is about this recording: the others can still be read.
    for name in ["noise.wav", "gsm.wav", "nochannels.wav", "cut.wav"] {
        assert_eq!(open(&p(name)).recovery(), Recovery::SkipInput, "{name}");
    }
    assert_eq!(e.recovery(), Recovery::SkipInput);
}

/// A GE2E model file holding `tensors`, and the error loading it gives.
fn load_ge2e(dir: &Path, name: &str, bytes: &[u8]) -> Error {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    Ge2eWeights::load(&path).unwrap_err()
}

#[test]
fn a_model_that_cannot_be_used_says_why_and_stops_the_work() {
    let dir = tempfile::tempdir().unwrap();
    let one = |name: &str, shape: Vec<usize>| {
        let n = shape.iter().product();
        write_safetensors(&[Tensor { name: name.into(), shape, data: vec![0.5; n] }], &[]).unwrap()
    };

    // Missing: a safetensors file without the encoder's tensors.
    let e = load_ge2e(dir.path(), "other.safetensors", &one("x", vec![2]));
    assert_eq!(model_problem(&e), ModelProblem::Missing);
    assert_eq!(
        e.to_string(),
        format!(
            "{}: GE2E model: tensor lstm.weight_ih_l0 is missing",
            dir.path().join("other.safetensors").display()
        )
    );

    // Shape: the first tensor has the wrong shape.
    let e = load_ge2e(dir.path(), "shape.safetensors", &one("lstm.weight_ih_l0", vec![2]));
    assert_eq!(model_problem(&e), ModelProblem::Shape);
    assert!(e.to_string().ends_with("has shape [2], expected [1024, 40]"), "{e}");

    // Truncated: the header is cut short.
    let e = load_ge2e(dir.path(), "cut.safetensors", &[8, 0, 0, 0, 0, 0, 0, 0, b'{', b'}']);
    assert_eq!(model_problem(&e), ModelProblem::Truncated);
    assert_eq!(
        e.to_string(),
        format!(
            "{}: not a readable safetensors file: truncated header",
            dir.path().join("cut.safetensors").display()
        )
    );

    // Malformed: a "wheel" that is not a zip archive.
    let junk = dir.path().join("junk.whl");
    std::fs::write(&junk, b"not a zip").unwrap();
    let malformed = install_ge2e_from_wheel(&junk, dir.path()).unwrap_err();
    assert_eq!(model_problem(&malformed), ModelProblem::Malformed);
    assert!(std::error::Error::source(&malformed).is_some(), "the zip error is kept");

    // Hash: a wheel whose encoder is not the pinned one.
    let wheel = dir.path().join("fake.whl");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&wheel).unwrap());
    zip.start_file(PRETRAINED_MEMBER, zip::write::SimpleFileOptions::default()).unwrap();
    zip.write_all(b"not the pinned encoder").unwrap();
    zip.finish().unwrap();
    let e = install_ge2e_from_wheel(&wheel, dir.path()).unwrap_err();
    assert_eq!(model_problem(&e), ModelProblem::Hash);
    assert!(
        e.to_string().contains(&format!("has SHA-256 {}, expected {PRETRAINED_SHA256}", {
            overtalk_audio::diarize::models::sha256_hex(b"not the pinned encoder")
        })),
        "{e}"
    );

    // A model problem meets every input alike: the work stops until it is installed again.
    assert_eq!(e.recovery(), Recovery::Fatal);
    assert_eq!(malformed.recovery(), Recovery::Fatal);
}

#[test]
fn a_rate_that_cannot_be_resampled_is_a_resampling_error_about_the_input() {
    let e = Resampler16k::new(0).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::Resampling { problem: ResamplingProblem::Rate, .. }),
        "{e:?}"
    );
    assert_eq!(e.to_string(), "a sample rate of 0 Hz");
    assert_eq!(e.recovery(), Recovery::SkipInput);
}
