//! Hostile and unusual audio: each case gives a clear error or a correct result, never a panic,
//! and memory stays bounded.

// Helpers outside `#[test]` functions unwrap too: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};

use overtalk::error::RecordingProblem;
use overtalk::{Delta, ErrorKind};
use overtalk_audio::decode::{decode_all, frames_to_delta, AppendedWav, DecodeOptions, Decoder};

/// The fields of a joined-WAV finding: offset, bytes, the first joined file's rate and frames,
/// how many files, and their total duration.
fn appended(a: AppendedWav) -> (u64, u64, Option<u32>, Option<u64>, u64, Option<Delta>) {
    (a.offset, a.bytes, a.sample_rate, a.frames, a.files, a.duration)
}
use overtalk_audio::multitrack::TrackWarning;
use overtalk_audio::pipeline::{detect, detect_bytes, detect_recording, DetectOptions, TrackSpec};

use crate::wav::Wav;

struct Tmp(tempfile::TempDir);

impl Tmp {
    fn new() -> Tmp {
        Tmp(tempfile::tempdir().unwrap())
    }
    fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
}

fn write_wav(path: &Path, rate: u32, channels: u16, frames: &[Vec<f32>], float: bool) {
    let spec = hound::WavSpec {
        channels,
        sample_rate: rate,
        bits_per_sample: if float { 32 } else { 16 },
        sample_format: if float { hound::SampleFormat::Float } else { hound::SampleFormat::Int },
    };
    let mut w = hound::WavWriter::create(path, spec).unwrap();
    for f in frames {
        for &s in f {
            if float {
                w.write_sample(s).unwrap();
            } else {
                w.write_sample((s * 32767.0) as i16).unwrap();
            }
        }
    }
    w.finalize().unwrap();
}

fn tone(rate: u32, secs: f64) -> Vec<Vec<f32>> {
    let n = (f64::from(rate) * secs) as usize;
    (0..n).map(|i| vec![(i as f32 * 0.05).sin() * 0.5]).collect()
}

/// Decoding options under which a truncated file is an error (`--strict`).
fn strict() -> DecodeOptions {
    DecodeOptions { strict: true, ..DecodeOptions::default() }
}

fn kind_of(e: &overtalk::Error) -> &'static str {
    match e.kind() {
        ErrorKind::Io(_) => "io",
        ErrorKind::Invalid(_) => "invalid",
        ErrorKind::Limit(_) => "limit",
        ErrorKind::Unsupported(_) => "unsupported",
        ErrorKind::Parse { .. } => "parse",
        ErrorKind::Recording { problem: RecordingProblem::Container, .. } => "container",
        ErrorKind::Recording { problem: RecordingProblem::Codec, .. } => "codec",
        ErrorKind::Recording { problem: RecordingProblem::Truncated, .. } => "truncated",
        ErrorKind::Recording { problem: RecordingProblem::Empty, .. } => "empty",
        ErrorKind::Recording { problem: RecordingProblem::Corrupt, .. } => "corrupt",
        _ => "other",
    }
}

#[test]
fn empty_file_is_invalid() {
    let t = Tmp::new();
    let p = t.path("empty.wav");
    std::fs::write(&p, b"").unwrap();
    let e = Decoder::open(&p, &DecodeOptions::default()).unwrap_err();
    assert_eq!(kind_of(&e), "empty");
    assert_eq!(e.to_string(), format!("{}: the file is empty (0 bytes)", p.display()));
}

#[test]
fn missing_file_is_an_io_error_naming_the_file() {
    let e = Decoder::open(Path::new("/nonexistent/x.wav"), &DecodeOptions::default()).unwrap_err();
    assert_eq!(kind_of(&e), "io");
    assert!(e.to_string().starts_with("/nonexistent/x.wav: "), "{e}");
}

#[test]
fn zero_length_wav_is_invalid() {
    let t = Tmp::new();
    for (channels, name) in [(1, "zero.wav"), (48, "zero48.wav")] {
        let p = t.path(name);
        write_wav(&p, 16_000, channels, &[], false);
        let e = decode_all(&p, &DecodeOptions::default()).unwrap_err();
        assert_eq!(kind_of(&e), "empty", "{e}");
        assert_eq!(
            e.to_string(),
            format!("{}: the recording contains no audio samples", p.display())
        );
    }
}

/// A header's sample rate outside what recordings have (1 Hz would make a short file hours
/// long) is a corrupt header; a directory is no recording, said as such.
#[test]
fn absurd_sample_rates_and_directories_are_refused() {
    let t = Tmp::new();
    for rate in [1, 999, 1_000_000] {
        let p = t.path("rate.wav");
        write_wav(&p, rate, 1, &tone(16_000, 0.1), false);
        let e = decode_all(&p, &DecodeOptions::default()).unwrap_err();
        assert_eq!(kind_of(&e), "corrupt", "{rate}: {e}");
        assert!(e.to_string().contains(&format!("declares {rate} samples a second")), "{e}");
    }
    let e = decode_all(&t.path(""), &DecodeOptions::default()).unwrap_err();
    assert!(e.to_string().contains("is a directory, not a recording"), "{e}");
}

#[test]
fn one_sample_file_decodes_and_detects_nothing() {
    let t = Tmp::new();
    let p = t.path("one.wav");
    write_wav(&p, 16_000, 1, &[vec![0.5]], false);
    let (info, ch) = decode_all(&p, &DecodeOptions::default()).unwrap();
    assert_eq!((info.sample_rate, ch.len(), ch[0].len()), (16_000, 1, 1));
    let spec = TrackSpec::file("A", p);
    let found = detect(&[spec], &DetectOptions::default(), &mut |_| {}).unwrap();
    assert!(found.annotation.is_empty());
    assert_eq!(found.duration, Delta::from_micros(63)); // 1 / 16000 s, rounded to the microsecond
}

#[test]
fn one_sample_files_in_float_and_with_48_channels_decode() {
    let t = Tmp::new();
    let p = t.path("one-f32.wav");
    write_wav(&p, 48_000, 1, &[vec![-0.25]], true);
    let (info, ch) = decode_all(&p, &DecodeOptions::default()).unwrap();
    assert_eq!((info.codec.as_str(), ch.len(), ch[0].clone()), ("pcm_f32le", 1, vec![-0.25]));
    let p = t.path("one-48.wav");
    write_wav(&p, 16_000, 48, &[(0..48).map(|c| c as f32 / 64.0).collect()], true);
    let (info, ch) = decode_all(&p, &DecodeOptions::default()).unwrap();
    assert_eq!((info.channels, ch.len()), (48, 48));
    for (c, x) in ch.iter().enumerate() {
        assert_eq!(x[..], [c as f32 / 64.0]);
    }
}

#[test]
fn garbage_is_unsupported() {
    let t = Tmp::new();
    let p = t.path("noise.wav");
    std::fs::write(&p, (0..5000u32).map(|i| (i * 7919 % 251) as u8).collect::<Vec<_>>()).unwrap();
    let e = Decoder::open(&p, &DecodeOptions::default()).unwrap_err();
    assert_eq!(kind_of(&e), "container", "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "{0}: unsupported: not a recognised audio or video container; if ffmpeg plays it, convert it first: ffmpeg -i '{0}' -ar 16000 '{1}'",
            p.display(),
            p.with_extension("pcm.wav").display()
        )
    );
}

#[test]
fn wrong_extension_still_decodes() {
    let t = Tmp::new();
    let p = t.path("really-a-wav.mp3");
    write_wav(&p, 16_000, 1, &tone(16_000, 0.5), false);
    let (info, ch) = decode_all(&p, &DecodeOptions::default()).unwrap();
    assert_eq!((info.codec.as_str(), ch[0].len()), ("pcm_s16le", 8000));
}

#[test]
fn coded_files_with_the_wrong_extension_decode_the_same() {
    // The extension is only a hint: each clip renamed to another format's extension gives
    // exactly the same samples.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let t = Tmp::new();
    for (name, wrong) in [
        ("burst.flac", "x.mp3"),
        ("burst.mp3", "x.wav"),
        ("burst.ogg", "x.m4a"),
        ("burst.m4a", "x.ogg"),
        ("burst.webm", "x.mp4"),
        ("burst.mkv", "x.flac"),
        ("burst.adpcm.wav", "x.webm"),
        ("burst.mov", "x"),
    ] {
        let p = t.path(wrong);
        std::fs::copy(dir.join(name), &p).unwrap();
        let (_, right) = decode_all(&dir.join(name), &DecodeOptions::default()).unwrap();
        let (_, renamed) = decode_all(&p, &DecodeOptions::default()).unwrap();
        assert!(right == renamed, "{name} as {wrong}");
    }
}

#[test]
fn truncated_wav_is_reported_with_the_time() {
    // 2 s of 16-bit mono cut in half: 15,989 whole frames remain, all decoded.
    let t = Tmp::new();
    let p = t.path("cut.wav");
    write_wav(&p, 16_000, 1, &tone(16_000, 2.0), false);
    let bytes = std::fs::read(&p).unwrap();
    std::fs::write(&p, &bytes[..bytes.len() / 2]).unwrap();
    let e = decode_all(&p, &strict()).unwrap_err();
    assert_eq!(kind_of(&e), "truncated", "{e}");
    assert_eq!(
        e.to_string(),
        format!("{}: the file is truncated: the audio stops at 0.999313 s", p.display())
    );
    // Leniently, the whole frames are read and the shortfall is stated.
    assert_eq!(
        decode_outcome(&p, &DecodeOptions::default()),
        format!("{}: ok 15989, truncated 0.999313 of 2.000", p.display())
    );
}

#[test]
fn truncated_forty_eight_channel_wav_is_reported_with_the_time() {
    // Read by the WAV fallback: 5000 frames of 48 channels, cut inside frame 3001. The 3000
    // whole frames decode (two blocks of 1365 and one of 270), then the truncation is reported.
    let t = Tmp::new();
    let p = t.path("cut48.wav");
    let frames: Vec<Vec<f32>> = (0..5000).map(|_| vec![0.25; 48]).collect();
    write_wav(&p, 16_000, 48, &frames, false);
    let bytes = std::fs::read(&p).unwrap();
    let header = bytes.len() - 5000 * 48 * 2;
    std::fs::write(&p, &bytes[..header + 3000 * 48 * 2 + 7]).unwrap();
    let mut d = Decoder::open(&p, &strict()).unwrap();
    let mut frames = 0;
    let e = loop {
        match d.next_block() {
            Ok(Some(b)) => frames += b.frames(),
            Ok(None) => panic!("a truncated file decoded to {frames} frames"),
            Err(e) => break e,
        }
    };
    assert_eq!(frames, 3000);
    assert_eq!(e.to_string(), "the file is truncated: the audio stops at 0.1875 s");
    let e = decode_all(&p, &strict()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("{}: the file is truncated: the audio stops at 0.1875 s", p.display())
    );
    assert_eq!(
        decode_outcome(&p, &DecodeOptions::default()),
        format!("{}: ok 3000, truncated 0.1875 of 0.3125", p.display())
    );
}

/// What each committed clip gives when cut to 16 bytes, a third and two thirds of its length,
/// and one byte short: the message after the path.
const CUT_CLIPS: &[(&str, [&str; 4])] = &[
    (
        "burst.flac",
        [
            "the file is truncated: it ends before any complete block of audio",
            "the file is truncated: the audio stops at 0.313469 s",
            "the file is truncated: the audio stops at 0.522449 s",
            "the file is truncated: the audio stops at 0.940408 s",
        ],
    ),
    (
        "burst.mp3",
        [
            "the MP3 file holds no audio (no MPEG audio frame)",
            "the file is truncated: the audio stops at 0.288413 s, before the 1.000 s its header \
             declares",
            "the file is truncated: the audio stops at 0.654127 s, before the 1.000 s its header \
             declares",
            // The last frame is lost; the slack for encoders' rounding accepts the rest.
            "ok 43823",
        ],
    ),
    (
        "burst.ogg",
        [
            "the file is truncated: it ends before any complete block of audio",
            // One Ogg page holds the whole second of this clip.
            "the file is truncated: it ends before any complete block of audio",
            "the file is truncated: it ends before any complete block of audio",
            "the file is truncated: the audio stops at 0.999909 s",
        ],
    ),
    (
        "burst.m4a",
        [
            "the MP4/M4A/MOV file is truncated: it ends after 16 bytes, inside its ftyp box (the \
             file type, 28 bytes from byte 0), before any audio",
            "the MP4/MOV file has no index (moov box): it is truncated or was never finalised (an \
             interrupted recording); it ends after 1611 bytes, inside its mdat box (the audio and \
             video data, 3856 bytes from byte 36)",
            "the MP4/MOV file has no index (moov box): it is truncated or was never finalised (an \
             interrupted recording); it ends after 3223 bytes, inside its mdat box (the audio and \
             video data, 3856 bytes from byte 36)",
            "the MP4/MOV file has no index (moov box): it is truncated or was never finalised (an \
             interrupted recording); it ends after 4834 bytes, inside its moov box (the index, 943 \
             bytes from byte 3892)",
        ],
    ),
    (
        "burst.mkv",
        [
            "malformed audio (reading the container header): mkv (ebml): no current element",
            "the file is truncated: the audio stops at 0.371519 s",
            "the file is truncated: the audio stops at 0.580499 s",
            "the file is truncated: the audio stops at 1.044898 s",
        ],
    ),
    (
        "burst.webm",
        [
            "malformed audio (reading the container header): mkv (ebml): no current element",
            "the file is truncated: it ends before any complete block of audio",
            "the file is truncated: it ends before any complete block of audio",
            "the file is truncated: the audio stops at 1.023129 s",
        ],
    ),
    (
        "burst.adpcm.wav",
        [
            "the file is truncated: it ends before any complete block of audio",
            "the file is truncated: the audio stops at 0.322857 s",
            "the file is truncated: the audio stops at 0.668776 s",
            "the file is truncated: the audio stops at 0.991633 s",
        ],
    ),
];

/// Decodes `p` to its end: the error, or `ok FRAMES` and, for a file read as far as it goes,
/// `truncated READ of DECLARED` (seconds).
fn decode_outcome(p: &Path, options: &DecodeOptions) -> String {
    let run = || -> overtalk::Result<String> {
        let mut d = Decoder::open(p, options)?;
        let mut frames = 0;
        while let Some(b) = d.next_block().map_err(|e| e.with_path(p))? {
            frames += b.frames();
        }
        Ok(match d.stats().truncated {
            None => format!("{}: ok {frames}", p.display()),
            Some(t) => format!(
                "{}: ok {frames}, truncated {} of {}",
                p.display(),
                t.read,
                t.declared.map_or_else(|| "?".to_owned(), |d| d.to_string())
            ),
        })
    };
    run().unwrap_or_else(|e| e.to_string())
}

/// Cuts each clip of `table` to 16 bytes, a third and two thirds of its length, and one byte
/// short, and checks what decoding gives (under `--strict` when `strict`).
fn check_cuts_with(table: &[(&str, [&str; 4])], strict: bool) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let t = Tmp::new();
    let options = DecodeOptions { strict, ..DecodeOptions::default() };
    let mut failed = Vec::new();
    for (name, want) in table {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let cuts = [16, bytes.len() / 3, bytes.len() * 2 / 3, bytes.len() - 1];
        for (cut, want) in cuts.into_iter().zip(want) {
            let p = t.path(name);
            std::fs::write(&p, &bytes[..cut]).unwrap();
            let got = decode_outcome(&p, &options);
            let want = format!("{}: {want}", p.display());
            if got != want {
                failed.push(format!("{name} cut at {cut}:\n  got  {got}\n  want {want}"));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// The strict outcome of each cut: truncation is an error.
fn check_cuts(table: &[(&str, [&str; 4])]) {
    check_cuts_with(table, true);
}

#[test]
fn truncated_coded_files_give_exact_errors() {
    check_cuts(CUT_CLIPS);
}

#[test]
fn truncated_opus_files_give_exact_errors() {
    check_cuts(&[
        (
            "burst.opus",
            [
                "the file is truncated: it ends before any complete block of audio",
                "the file is truncated: it ends before any complete block of audio",
                "the file is truncated: it ends before any complete block of audio",
                "the file is truncated: the audio stops at 0.9935 s",
            ],
        ),
        (
            "burst.opus.webm",
            [
                "malformed audio (reading the container header): mkv (ebml): no current element",
                "the file is truncated: the audio stops at 0.5335 s",
                "the file is truncated: the audio stops at 0.7735 s",
                "the file is truncated: the audio stops at 1.000 s",
            ],
        ),
    ]);
}

#[test]
fn a_real_length_mp4_cut_reports_the_missing_index() {
    // ffmpeg writes the moov box after the audio, so any cut MP4 lacks its index.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let t = Tmp::new();
    for name in ["burst.mp4", "burst.mov"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let p = t.path(name);
        let cut = bytes.len() / 2;
        std::fs::write(&p, &bytes[..cut]).unwrap();
        let e = decode_all(&p, &DecodeOptions::default()).unwrap_err();
        assert_eq!(kind_of(&e), "truncated");
        let want = format!(
            "{}: the MP4/MOV file has no index (moov box): it is truncated or was never finalised \
             (an interrupted recording); it ends after {cut} bytes, inside its mdat box",
            p.display()
        );
        assert!(e.to_string().starts_with(&want), "{e}");
    }
}

#[test]
fn a_fast_start_mp4_cut_inside_its_audio_reads_as_far_as_it_goes() {
    // `-movflags +faststart` puts the moov box (the index) before the audio: a download cut
    // short keeps its index, and the audio up to the cut decodes.
    check_cuts(&[(
        "burst.faststart.m4a",
        [
            "the MP4/M4A/MOV file is truncated: it ends after 16 bytes, inside its ftyp box (the \
             file type, 28 bytes from byte 0), before any audio",
            "the file is truncated: the audio stops at 0.301859 s",
            "the file is truncated: the audio stops at 0.534059 s",
            "the file is truncated: the audio stops at 0.998458 s",
        ],
    )]);
    // Leniently, what is there is read and the shortfall stated.
    check_cuts_with(
        &[(
            "burst.faststart.m4a",
            [
                "the MP4/M4A/MOV file is truncated: it ends after 16 bytes, inside its ftyp box \
                 (the file type, 28 bytes from byte 0), before any audio",
                "ok 13312, truncated 0.301859 of 1.000",
                "ok 23552, truncated 0.534059 of 1.000",
                "ok 44032, truncated 0.998458 of 1.000",
            ],
        )],
        false,
    );
    // Whole, it is the same audio as the file with its index at the end.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let (_, fast) = decode_all(&dir.join("burst.faststart.m4a"), &strict()).unwrap();
    let (_, plain) = decode_all(&dir.join("burst.m4a"), &strict()).unwrap();
    assert!(fast == plain && fast[0].len() == 44_100);
}

#[test]
fn a_whole_mp4_with_its_index_last_and_a_cut_box_after_it_reads_whole() {
    // The index (moov) after the audio, then a box cut short after its header (`free`, then
    // `udta`): all the audio is there, read as it is, the cut box ignored as before.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let plain = std::fs::read(dir.join("burst.m4a")).unwrap();
    let t = Tmp::new();
    for kind in [b"free", b"udta"] {
        let mut bytes = plain.clone();
        bytes.extend_from_slice(&100u32.to_be_bytes());
        bytes.extend_from_slice(kind);
        bytes.extend_from_slice(&[0; 8]);
        let p = t.path("trailing.m4a");
        std::fs::write(&p, &bytes).unwrap();
        for strict in [true, false] {
            let options = DecodeOptions { strict, ..DecodeOptions::default() };
            assert_eq!(decode_outcome(&p, &options), format!("{}: ok 44100", p.display()));
        }
        let (_, whole) = decode_all(&p, &strict()).unwrap();
        let (_, want) = decode_all(&dir.join("burst.m4a"), &strict()).unwrap();
        assert!(whole == want && whole[0].len() == 44_100);
    }
}

#[test]
fn a_fragmented_mp4_cut_inside_a_fragment_reads_as_far_as_it_goes() {
    // A fragmented file (a recorder's, a stream's) has its index first and then fragments; cut
    // inside one, the fragments before it decode and the cut is told. Its index declares no
    // length: the fragments read give the length, and a cut one says the file is truncated.
    check_cuts(&[
        (
            "burst.frag.m4a",
            [
                "the MP4/M4A/MOV file is truncated: it ends after 16 bytes, inside its ftyp box \
                 (the file type, 28 bytes from byte 0), before any audio",
                "the file is truncated: the audio stops at 0.371519 s",
                "the file is truncated: the audio stops at 0.580499 s",
                "the file is truncated: the audio stops at 1.021678 s",
            ],
        ),
        (
            "burst.frag.mp4",
            [
                "the MP4/M4A/MOV file is truncated: it ends after 16 bytes, inside its ftyp box \
                 (the file type, 32 bytes from byte 0), before any audio",
                "the file is truncated: the audio stops at 0.301859 s",
                "the file is truncated: the audio stops at 0.580499 s",
                // Inside the closing `mfra` (the fragments' random access index): all the audio
                // is there.
                "ok 45124",
            ],
        ),
    ]);
    check_cuts_with(
        &[
            (
                "burst.frag.m4a",
                [
                    "the MP4/M4A/MOV file is truncated: it ends after 16 bytes, inside its ftyp \
                     box (the file type, 28 bytes from byte 0), before any audio",
                    "ok 16384, truncated 0.371519 of ?",
                    "ok 25600, truncated 0.580499 of ?",
                    "ok 45056, truncated 1.021678 of ?",
                ],
            ),
            (
                "burst.frag.mp4",
                [
                    "the MP4/M4A/MOV file is truncated: it ends after 16 bytes, inside its ftyp \
                     box (the file type, 32 bytes from byte 0), before any audio",
                    "ok 13312, truncated 0.301859 of ?",
                    "ok 25600, truncated 0.580499 of ?",
                    "ok 45124",
                ],
            ),
        ],
        false,
    );
}

/// The top-level boxes of an MP4 file: `(type, start, end)`.
fn mp4_boxes(bytes: &[u8]) -> Vec<([u8; 4], usize, usize)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 8 <= bytes.len() {
        let size = u32::from_be_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
        assert!(size >= 8, "the fixtures have no 64-bit or open-ended boxes");
        out.push((bytes[at + 4..at + 8].try_into().unwrap(), at, at + size));
        at += size;
    }
    assert_eq!(at, bytes.len());
    out
}

/// Every interleaved sample of `p` read leniently, the truncation it reports, or the error.
fn decode_lenient(p: &Path) -> overtalk::Result<(Vec<f32>, Option<Delta>)> {
    let mut d = Decoder::open(p, &DecodeOptions::default())?;
    let mut x = Vec::new();
    while let Some(b) = d.next_block().map_err(|e| e.with_path(p))? {
        x.extend_from_slice(b.interleaved());
    }
    Ok((x, d.stats().truncated.map(|t| t.read)))
}

#[test]
fn every_cut_of_an_mp4_gives_audio_or_a_clear_error() {
    // Each MP4 layout cut at every byte up to its first audio data and every 23rd byte after
    // it: the audio before the cut, exactly as the whole file has it, or an error that names
    // the file and says it is truncated, after how many bytes and in which box, never a panic. Where the cut falls inside the audio data, the truncation is
    // told; a cut right after a fragment's data cannot be told (nothing declares the length).
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let t = Tmp::new();
    let mut failed = Vec::new();
    let mut outcomes = [0usize; 3];
    for name in [
        "burst.m4a",
        "burst.faststart.m4a",
        "burst.frag.m4a",
        "burst.frag.mp4",
        "burst.dash.m4a",
        "burst.frag.opus.mp4",
        "burst.frag.flac.mp4",
    ] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let boxes = mp4_boxes(&bytes);
        let (whole, _) = decode_lenient(&dir.join(name)).unwrap();
        let first_data = boxes.iter().find(|b| &b.0 == b"mdat").unwrap().1 + 16;
        let cuts = (0..first_data).chain((first_data..bytes.len()).step_by(23));
        let p = t.path(name);
        for cut in cuts {
            std::fs::write(&p, &bytes[..cut]).unwrap();
            let in_data = boxes.iter().any(|b| &b.0 == b"mdat" && b.1 + 8 < cut && cut < b.2);
            let after_data = boxes.iter().any(|b| &b.0 == b"mdat" && b.2 == cut);
            let problem = match decode_lenient(&p) {
                Ok((x, truncated)) => {
                    outcomes[0] += 1;
                    if x.is_empty() || x[..] != whole[..x.len()] {
                        Some(format!("{} samples, not the whole file's first ones", x.len()))
                    } else if in_data && truncated.is_none() {
                        Some("cut inside the audio data, and not told".to_owned())
                    } else if after_data && truncated.is_some() {
                        Some("cut after whole audio data, and told as truncated".to_owned())
                    } else {
                        None
                    }
                }
                Err(e) => {
                    let text = e.to_string();
                    let named = text.starts_with(&format!("{}: ", p.display()));
                    // Read leniently, an error means no audio: it says where the file ends,
                    // unless it ends between whole boxes with its index (after the audio) not
                    // there, the one case the decoder cannot tell from an unfinished file.
                    let counted = text.contains(&format!("it ends after {cut} byte"))
                        || text.ends_with("never finalised (an interrupted recording)");
                    outcomes[if cut == 0 { 1 } else { 2 }] += 1;
                    let clear = if cut == 0 {
                        text == format!("{}: the file is empty (0 bytes)", p.display())
                    } else {
                        kind_of(&e) == "truncated" && named && counted && text.contains("truncated")
                    };
                    (!clear).then(|| format!("error: {text}"))
                }
            };
            if let Some(problem) = problem {
                failed.push(format!("{name} cut at {cut}: {problem}"));
            }
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
    assert_eq!(outcomes, [1125, 7, 6786]);
}

/// Every interleaved sample of `p`, and how many non-finite ones the decoder replaced.
fn decode_counting_non_finite(p: &Path) -> (Vec<f32>, u64) {
    let mut d = Decoder::open(p, &DecodeOptions::default()).unwrap();
    let mut all = Vec::new();
    while let Some(b) = d.next_block().unwrap() {
        all.extend_from_slice(b.interleaved());
    }
    (all, d.stats().non_finite)
}

#[test]
fn a_wav_header_written_before_its_length_was_known_reads_to_the_end() {
    // `ffmpeg -f wav -` to a pipe writes 0xFFFFFFFF as the RIFF and data sizes; a recorder that
    // stopped before finishing its header leaves 0. Both hold every sample to the end of the
    // file; a size past the end is truncation, still an error.
    let t = Tmp::new();
    let p = t.path("whole.wav");
    write_wav(&p, 16_000, 1, &tone(16_000, 1.5), false);
    let whole = std::fs::read(&p).unwrap();
    let frames = |bytes: &[u8], name: &str| {
        let q = t.path(name);
        std::fs::write(&q, bytes).unwrap();
        let mut d = Decoder::open(&q, &strict())?;
        let mut n = 0;
        while let Some(b) = d.next_block()? {
            n += b.frames();
        }
        Ok::<_, overtalk::Error>((n, d.stats().placeholder_length))
    };
    assert_eq!(frames(&whole, "a.wav").unwrap(), (24_000, false));
    for placeholder in [u32::MAX, 0] {
        let b = Wav::parse(&whole).placeholder_sizes(placeholder).bytes();
        assert_eq!(frames(&b, "p.wav").unwrap(), (24_000, true), "{placeholder:#x}");
    }
    let mut cut = whole.clone();
    cut.truncate(whole.len() - 1000);
    let e = frames(&cut, "cut.wav").unwrap_err();
    assert_eq!(kind_of(&e), "truncated");
    // Said once per track by detection.
    let q = t.path("pipe.wav");
    Wav::parse(&whole).data_size(u32::MAX).write(&q);
    let spec = TrackSpec::file("A", q.clone());
    let found = detect_recording(&[spec], &DetectOptions::default(), None, &mut |_| {}).unwrap();
    assert_eq!(found.warnings, [TrackWarning::PlaceholderLength { path: q.clone() }]);
    assert_eq!(
        found.warnings[0].to_string(),
        format!(
            "{}: the WAV header gives no length (written to a pipe, or by a recorder that did not finish the file); the audio was read to the end of the file",
            q.display()
        )
    );
}

#[test]
fn a_wav_file_joined_after_another_is_named_not_dropped_in_silence() {
    // `cat first.wav second.wav`: the first header's sizes end the recording where the second
    // file starts, so the decoder (as ffmpeg) reads only the first. Here the second is at
    // another sample rate, as a call recorder's export joined to a podcast's 16 kHz file.
    let t = Tmp::new();
    let (first, second) = (t.path("first.wav"), t.path("second.wav"));
    write_wav(&first, 16_000, 1, &tone(16_000, 1.5), false);
    write_wav(&second, 8_000, 1, &tone(8_000, 0.75), false);
    let mut joined = std::fs::read(&first).unwrap();
    assert_eq!(joined.len(), 48_044);
    joined.extend(std::fs::read(&second).unwrap());
    let q = t.path("joined.wav");
    std::fs::write(&q, &joined).unwrap();
    let mut d = Decoder::open(&q, &strict()).unwrap();
    while d.next_block().unwrap().is_some() {}
    assert_eq!(d.stats().frames, 24_000);
    assert_eq!(
        d.stats().appended_wav.map(appended),
        Some((48_044, 12_044, Some(8_000), Some(6_000), 1, Some(Delta::from_millis(750))))
    );
    let spec = TrackSpec::file("A", q.clone());
    let found = detect_recording(&[spec], &DetectOptions::default(), None, &mut |_| {}).unwrap();
    assert_eq!(
        found.warnings,
        [TrackWarning::AppendedWav {
            path: q.clone(),
            read: 1.5,
            bytes: 12_044,
            sample_rate: Some(8_000),
            seconds: Some(0.75),
            files: 1,
            total: Some(0.75),
        }]
    );
    assert_eq!(
        found.warnings[0].to_string(),
        format!(
            "{}: another WAV file is joined to its end byte for byte (at 1.500 s, 12044 bytes: 0.750 s at 8000 Hz) and was not read: its header ends the recording there, so only the first file was heard; join the files with a tool that writes one header and one sample rate (sox, or ffmpeg's concat filter), or give each on its own",
            q.display()
        )
    );
    // Bytes after the RIFF chunk that are not a WAV file (a tag, padding) say nothing, and
    // neither does the first file alone.
    let mut tagged = std::fs::read(&first).unwrap();
    tagged.extend_from_slice(b"ID3\x04\0\0\0\0\0\0 and some padding");
    std::fs::write(&q, &tagged).unwrap();
    let mut d = Decoder::open(&q, &strict()).unwrap();
    while d.next_block().unwrap().is_some() {}
    assert_eq!((d.stats().frames, d.stats().appended_wav), (24_000, None));
    let d = Decoder::open(&first, &strict()).unwrap();
    assert_eq!(d.stats().appended_wav, None);
}

#[test]
fn a_wav_file_joined_after_another_is_measured_only_as_far_as_its_header_can_say() {
    let t = Tmp::new();
    let q = t.path("joined.wav");
    // Read by the WAV fallback (48 channels in a plain header), then an 8 kHz µ-law call
    // export: one byte a frame, 4000 frames.
    let first = t.path("first.wav");
    Wav::pcm16(16_000, 48, &vec![0i16; 1600 * 48]).write(&first);
    let head = std::fs::read(&first).unwrap();
    let mu_law = Wav::new(7, 1, 8_000, 1, 8, &[0xFF; 4_000]).bytes();
    std::fs::write(&q, [head.as_slice(), &mu_law].concat()).unwrap();
    let mut d = Decoder::open(&q, &strict()).unwrap();
    while d.next_block().unwrap().is_some() {}
    assert_eq!(
        (d.info().channels, d.stats().frames, d.stats().appended_wav.map(appended)),
        (
            48,
            1_600,
            Some((153_644, 4_044, Some(8_000), Some(4_000), 1, Some(Delta::from_millis(500))))
        )
    );
    // IMA ADPCM packs many frames in a block: its rate is named, not a length.
    let mono = t.path("mono.wav");
    write_wav(&mono, 16_000, 1, &tone(16_000, 0.5), false);
    let head = std::fs::read(&mono).unwrap();
    let adpcm = Wav::new(0x11, 1, 8_000, 256, 4, &[0; 512]).bytes();
    std::fs::write(&q, [head.as_slice(), &adpcm].concat()).unwrap();
    let spec = TrackSpec::file("A", q.clone());
    let found = detect_recording(&[spec], &DetectOptions::default(), None, &mut |_| {}).unwrap();
    assert_eq!(
        found.warnings,
        [TrackWarning::AppendedWav {
            path: q.clone(),
            read: 0.5,
            bytes: 556,
            sample_rate: Some(8_000),
            seconds: None,
            files: 1,
            total: None,
        }]
    );
    assert_eq!(
        found.warnings[0].to_string(),
        format!(
            "{}: another WAV file is joined to its end byte for byte (at 0.500 s, 556 bytes at 8000 Hz) and was not read: its header ends the recording there, so only the first file was heard; join the files with a tool that writes one header and one sample rate (sox, or ffmpeg's concat filter), or give each on its own",
            q.display()
        )
    );
    // Sizes that lie: a data chunk longer than the file counts what the file holds, and a
    // chunk whose size runs past the end leaves the length unknown, with nothing read.
    let long = Wav::new(1, 1, 8_000, 2, 16, &[0; 100]).data_size(0xFFFF_FFF0).bytes();
    std::fs::write(&q, [head.as_slice(), &long].concat()).unwrap();
    let d = Decoder::open(&q, &strict()).unwrap();
    assert_eq!(d.stats().appended_wav.and_then(|a| a.frames), Some(50));
    let mut lost = b"RIFF\x10\0\0\0WAVELIST\xFF\xFF\xFF\xFF".to_vec();
    lost.extend_from_slice(&[0; 64]);
    std::fs::write(&q, [head.as_slice(), &lost].concat()).unwrap();
    let d = Decoder::open(&q, &strict()).unwrap();
    assert_eq!(d.stats().appended_wav.map(appended), Some((16_044, 84, None, None, 1, None)));
}

#[test]
fn mp3_frames_at_a_second_rate_become_silence_as_long_as_they_play() {
    // `cat a16k.mp3 b8k.mp3`: the decoder keeps one rate per stream and cannot decode the 8 kHz
    // frames. They were counted as corrupt packets and became silence of half their length
    // (576 samples each taken at 16 kHz), so later times came early; now they are named and
    // last as long as they play. The first file's 175 frames of encoder padding stay before
    // them, as ffmpeg keeps a joined file's padding.
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/rates.joined.mp3");
    let mut d = Decoder::open(&p, &DecodeOptions::default()).unwrap();
    while d.next_block().unwrap().is_some() {}
    let s = d.stats();
    assert_eq!(d.info().sample_rate, 16_000);
    assert_eq!(
        (s.frames, s.bad_packets, s.other_rate_packets, s.other_rate, s.other_rate_frames),
        (34_607, 0, 16, Some(8_000), 18_432)
    );
    let spec = TrackSpec::file("A", p.clone());
    let found = detect_recording(&[spec], &DetectOptions::default(), None, &mut |_| {}).unwrap();
    assert_eq!(
        found.warnings,
        [TrackWarning::OtherRateFrames {
            path: p.clone(),
            packets: 16,
            rate: 16_000,
            other: 8_000,
            seconds: 1.152
        }]
    );
    assert_eq!(
        found.warnings[0].to_string(),
        format!(
            "{}: 16 MPEG audio frames at 8000 Hz, where the stream starts at 16000 Hz (MP3 files of two rates joined byte for byte?), cannot be decoded in one stream and were replaced by 1.152 s of silence, as long as they play; convert the file to one rate (`ffmpeg -i '{}' -ar 16000 '{}'` decodes each part at its own) to hear them",
            p.display(),
            p.display(),
            p.with_extension("wav").display()
        )
    );
}

#[test]
fn nan_samples_in_float_wav_become_silence_and_are_counted() {
    let t = Tmp::new();
    let p = t.path("nan.wav");
    let mut frames = tone(16_000, 0.5);
    for f in frames.iter_mut().skip(100).step_by(1000) {
        f[0] = f32::NAN;
    }
    frames[5][0] = f32::INFINITY;
    write_wav(&p, 16_000, 1, &frames, true);
    let (all, non_finite) = decode_counting_non_finite(&p);
    assert_eq!(non_finite, 9);
    assert!(all.iter().all(|v| v.is_finite()));
    assert_eq!(all[100], 0.0);
    assert_eq!(all[5], 0.0);
}

#[test]
fn replaced_samples_are_a_typed_warning_of_the_detected_recording() {
    // Detection says what was replaced, as a value naming the file and the count, printed as
    // the sentence the command line shows.
    let t = Tmp::new();
    let p = t.path("nan.wav");
    let mut frames = tone(16_000, 0.5);
    for f in frames.iter_mut().skip(100).step_by(1000) {
        f[0] = f32::NAN;
    }
    write_wav(&p, 16_000, 1, &frames, true);
    let spec = TrackSpec::file("A", p.clone());
    let found = detect_recording(&[spec], &DetectOptions::default(), None, &mut |_| {}).unwrap();
    assert_eq!(found.warnings, [TrackWarning::NonFinite { path: p.clone(), samples: 8 }]);
    assert_eq!(
        found.warnings[0].to_string(),
        format!("{}: 8 non-finite samples (NaN or infinity) were replaced by silence", p.display())
    );
    let packets = TrackWarning::CorruptPackets { path: p.clone(), packets: 2 };
    assert_eq!(
        packets.to_string(),
        format!("{}: 2 corrupt packets were replaced by silence", p.display())
    );
}

#[test]
fn a_recording_mostly_at_full_scale_is_said_to_be_clipped_or_not_audio() {
    // One second of full-scale binary noise (0 or the 16-bit minimum, as a test file of
    // pyannote.audio, `tests/data/empty.wav`, holds): the detector finds "speech" in it, so the
    // result says the samples are at full scale. 3 samples of 5 are: 60.0 %.
    let t = Tmp::new();
    let p = t.path("noise.wav");
    let frames: Vec<Vec<f32>> =
        (0..16_000).map(|i| vec![if i % 5 < 3 { -1.0 } else { 0.0 }]).collect();
    write_wav(&p, 16_000, 1, &frames, false);
    let mut d = Decoder::open(&p, &DecodeOptions::default()).unwrap();
    while d.next_block().unwrap().is_some() {}
    assert_eq!((d.stats().samples, d.stats().full_scale), (16_000, 9_600));
    let spec = TrackSpec::file("A", p.clone());
    let found = detect_recording(&[spec], &DetectOptions::default(), None, &mut |_| {}).unwrap();
    assert_eq!(found.warnings, [TrackWarning::FullScale { path: p.clone(), share: 0.6 }]);
    assert_eq!(
        found.warnings[0].to_string(),
        format!(
            "{}: 60.0 % of the samples are at full scale: the recording is clipped throughout \
             or is not audio (noise, data), so the speech found in it may not be speech",
            p.display()
        )
    );
    // Speech clipped now and then stays under the 1 % share: no warning. 159 samples of
    // 16,000 at either full scale (+32767 and −32767 in 16 bits) are 0.99 %.
    let q = t.path("peaks.wav");
    let mut frames = tone(16_000, 1.0);
    for (k, f) in frames.iter_mut().step_by(100).take(159).enumerate() {
        f[0] = if k % 2 == 0 { 1.0 } else { -1.0 };
    }
    write_wav(&q, 16_000, 1, &frames, false);
    let mut d = Decoder::open(&q, &DecodeOptions::default()).unwrap();
    while d.next_block().unwrap().is_some() {}
    assert_eq!((d.stats().samples, d.stats().full_scale), (16_000, 159));
    let spec = TrackSpec::file("A", q.clone());
    let found = detect_recording(&[spec], &DetectOptions::default(), None, &mut |_| {}).unwrap();
    assert_eq!(found.warnings, []);
}

#[test]
fn non_finite_samples_in_a_48_channel_file_become_silence_and_are_counted() {
    // The WAV fallback applies the same rule: NaN and ±∞ become 0 and are counted, so the
    // command line can warn.
    let t = Tmp::new();
    let p = t.path("nan48.wav");
    let mut frames: Vec<Vec<f32>> = (0..2000).map(|_| vec![0.5; 48]).collect();
    frames[0][0] = f32::NAN;
    frames[1500][47] = f32::NEG_INFINITY;
    frames[1999][20] = f32::INFINITY;
    write_wav(&p, 16_000, 48, &frames, true);
    let (all, non_finite) = decode_counting_non_finite(&p);
    assert_eq!(non_finite, 3);
    assert_eq!((all[0], all[1500 * 48 + 47], all[1999 * 48 + 20]), (0.0, 0.0, 0.0));
    assert_eq!(all.iter().filter(|&&v| v == 0.5).count(), 2000 * 48 - 3);
}

#[test]
fn ten_hours_stream_in_fixed_blocks_with_exact_times() {
    // A real ten-hour recording, kept fast: 1 kHz mono 16-bit (the lowest rate a recording is
    // taken at; 36 million frames), its data a sparse run of zeros. Blocks keep one size, so
    // memory does not grow with duration, and the last sample ends at exactly 10:00:00
    // (36,000,000,000 µs, past 32-bit microseconds).
    let t = Tmp::new();
    let p = t.path("ten-hours.wav");
    let frames: u64 = 10 * 3600 * 1000;
    let empty = Wav::pcm16(1000, 1, &[]);
    let header = empty.bytes().len() as u64;
    let data_len = (frames * 2) as u32;
    empty.data_size(data_len).riff_size(data_len + (header as u32 - 8)).write(&p);
    std::fs::OpenOptions::new().write(true).open(&p).unwrap().set_len(header + frames * 2).unwrap();
    let mut d = Decoder::open(&p, &DecodeOptions::default()).unwrap();
    assert_eq!(d.info().declared_duration(), Some(Delta::from_micros(36_000_000_000)));
    let (mut blocks, mut next, mut size, mut last) = (0u64, 0u64, 0usize, 0usize);
    while let Some(b) = d.next_block().unwrap() {
        assert_eq!(b.first_frame, next);
        if blocks == 0 {
            size = b.frames();
        } else {
            assert_eq!(last, size, "only the last block may be shorter");
        }
        assert!(b.interleaved().iter().all(|&v| v == 0.0));
        next += b.frames() as u64;
        last = b.frames();
        blocks += 1;
    }
    assert_eq!(next, frames);
    assert_eq!(blocks, frames.div_ceil(size as u64));
    assert_eq!(frames_to_delta(next, 1000), Delta::from_micros(36_000_000_000));
    // Under a one-hour cap, the declared length is refused before decoding.
    let hour = DecodeOptions {
        max_duration: Delta::from_micros(3_600_000_000),
        ..DecodeOptions::default()
    };
    let e = Decoder::open(&p, &hour).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: limit exceeded: the recording lasts 36000.000 s, longer than the 3600.000 s allowed",
            p.display()
        )
    );
}

#[test]
fn eight_channels_decode_each_channel_separately_and_caps_apply() {
    let t = Tmp::new();
    let p = t.path("eight.wav");
    // Channel c carries the constant (c + 1) / 100.
    let frames: Vec<Vec<f32>> =
        (0..1600).map(|_| (0..8).map(|c| (c + 1) as f32 / 100.0).collect()).collect();
    write_wav(&p, 16_000, 8, &frames, true);
    let (info, ch) = decode_all(&p, &DecodeOptions::default()).unwrap();
    assert_eq!((info.channels, ch.len(), ch[0].len()), (8, 8, 1600));
    for (c, x) in ch.iter().enumerate() {
        assert_eq!(x[800], (c + 1) as f32 / 100.0);
    }
    let few = DecodeOptions { max_channels: 4, ..DecodeOptions::default() };
    let e = Decoder::open(&p, &few).unwrap_err();
    assert_eq!(kind_of(&e), "limit");
    assert_eq!(
        e.to_string(),
        format!(
            "{}: limit exceeded: the recording has 8 channels, more than the 4 allowed",
            p.display()
        )
    );
}

#[test]
fn forty_eight_channels_decode_exactly_and_stream_in_small_blocks() {
    // symphonia maps WAV channels to speaker positions and refuses more than 18; the WAV
    // fallback reads any channel count. Channel c carries the constant (c + 1) / 64, exact in
    // float and in 16-bit PCM.
    let t = Tmp::new();
    for float in [true, false] {
        let p = t.path(if float { "many-f32.wav" } else { "many-s16.wav" });
        let frames: Vec<Vec<f32>> =
            (0..5000).map(|_| (0..48).map(|c| (c + 1) as f32 / 64.0).collect()).collect();
        write_wav(&p, 16_000, 48, &frames, float);
        let mut d = Decoder::open(&p, &DecodeOptions::default()).unwrap();
        let info = d.info().clone();
        assert_eq!(info.channels, 48);
        assert_eq!(info.codec, if float { "pcm_f32le" } else { "pcm_s16le" });
        assert_eq!(info.declared_frames, Some(5000));
        let mut sizes = Vec::new();
        let mut next = 0;
        while let Some(b) = d.next_block().unwrap() {
            assert_eq!(b.first_frame, next);
            next += b.frames() as u64;
            sizes.push(b.frames());
            for c in 0..48 {
                let want = if float {
                    (c + 1) as f32 / 64.0
                } else {
                    // write_wav scales by 32767 and truncates; the decoder divides by 32768.
                    (((c + 1) as f32 / 64.0) * 32767.0) as i16 as f32 / 32768.0
                };
                assert!(b.channel(c).all(|v| v == want), "channel {c}");
            }
        }
        // 65536 samples a block: 1365 frames of 48 channels.
        assert_eq!(sizes, [1365, 1365, 1365, 905]);
        assert_eq!(d.stats().frames, 5000);
    }
}

#[test]
fn forty_eight_channels_in_a_plain_wav_header_decode_exactly() {
    // symphonia calls this header's channel count invalid; the WAV fallback reads it.
    let t = Tmp::new();
    let p = t.path("plain48.wav");
    let samples: Vec<i16> = (0..300).flat_map(|_| (0..48).map(|c| c * 100 - 2400)).collect();
    Wav::pcm16(16_000, 48, &samples).write(&p);
    let (info, ch) = decode_all(&p, &DecodeOptions::default()).unwrap();
    assert_eq!((info.codec.as_str(), info.channels, ch.len()), ("pcm_s16le", 48, 48));
    for (c, x) in ch.iter().enumerate() {
        let want = (c as f32 * 100.0 - 2400.0) / 32768.0;
        assert_eq!((x.len(), x.iter().all(|&v| v == want)), (300, true), "channel {c}");
    }
}

#[test]
fn forty_eight_channels_pick_named_channels_for_detection() {
    // A 48-channel recording where channel 10 ("Ana") speaks first and channel 40 ("Ben")
    // later; every other channel is silent. Naming two channels detects each speaker in turn,
    // as `--channels` does.
    let speech = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/speech.wav");
    let (_, ch) = decode_all(&speech, &DecodeOptions::default()).unwrap();
    let clip = &ch[0]; // 1 s silence, speech, 1 s silence at 16 kHz
    let n = clip.len();
    let frames: Vec<Vec<f32>> = (0..2 * n)
        .map(|i| {
            let mut f = vec![0.0; 48];
            if i < n {
                f[10] = clip[i];
            } else {
                f[40] = clip[i - n];
            }
            f
        })
        .collect();
    let t = Tmp::new();
    let p = t.path("room.wav");
    write_wav(&p, 16_000, 48, &frames, false);
    let spec = |name: &str, c: usize| TrackSpec {
        name: name.into(),
        path: p.clone(),
        channel: Some(c),
        audio_track: None,
        offset: overtalk::Delta::ZERO,
    };
    let found = detect(&[spec("Ana", 10), spec("Ben", 40)], &DetectOptions::default(), &mut |_| {})
        .unwrap();
    assert_eq!(found.tracks.len(), 2);
    assert_eq!((found.tracks[0].channel, found.tracks[1].channel), (Some(10), Some(40)));
    let first = clip.iter().position(|v| *v != 0.0).unwrap();
    let last = clip.iter().rposition(|v| *v != 0.0).unwrap() + 1;
    let secs = |i: usize| i as f64 / 16_000.0;
    let mut seen = [0.0f64; 2];
    for track in found.annotation.tracks() {
        let who = found.annotation.speaker_name(track.speaker).to_string();
        let (s, e) = (track.segment.start().as_secs_f64(), track.segment.end().as_secs_f64());
        let offset = if who == "Ana" { 0 } else { n };
        // Each speaker's speech lies within their own clip's speech, give or take 0.2 s.
        assert!(
            s >= secs(offset + first) - 0.2 && e <= secs(offset + last) + 0.2,
            "{who} {s}..{e}"
        );
        seen[usize::from(who == "Ben")] += e - s;
    }
    let spoken = secs(last - first);
    assert!(seen[0] > 0.8 * spoken && seen[1] > 0.8 * spoken, "{seen:?} of {spoken}");
}

#[test]
fn a_channel_beyond_the_recording_is_a_clear_error() {
    let t = Tmp::new();
    let p = t.path("many.wav");
    let frames: Vec<Vec<f32>> = (0..1600).map(|_| vec![0.0; 48]).collect();
    write_wav(&p, 16_000, 48, &frames, false);
    // Channels are 0-based in a TrackSpec and 1-based in messages.
    let spec = TrackSpec {
        name: "Z".into(),
        path: p.clone(),
        channel: Some(48),
        audio_track: None,
        offset: overtalk::Delta::ZERO,
    };
    let e =
        detect(std::slice::from_ref(&spec), &DetectOptions::default(), &mut |_| {}).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: channel 49 requested for \"Z\", but the recording has 48 channels: name one \
             speaker per channel, at most 48 (`_` skips a channel)",
            p.display()
        )
    );
    // A mono recording (a call recorded mixed): its speakers are told apart by voice.
    let mono = t.path("mono.wav");
    write_wav(&mono, 8_000, 1, &vec![vec![0.0]; 800], false);
    let specs: Vec<TrackSpec> = ["Agent", "Customer"]
        .iter()
        .enumerate()
        .map(|(c, name)| TrackSpec {
            name: (*name).into(),
            path: mono.clone(),
            channel: Some(c),
            ..spec.clone()
        })
        .collect();
    let e = detect(&specs, &DetectOptions::default(), &mut |_| {}).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: channel 2 requested for \"Customer\", but the recording has 1 channel, which \
             every speaker in it shares: read it as one mixed recording, without naming \
             channels, and its speakers are told apart by their voices (diarization, once the \
             speaker model is installed: `overtalk models install`)",
            mono.display()
        )
    );
}

#[test]
fn duration_and_size_caps_are_limit_errors() {
    let t = Tmp::new();
    let p = t.path("long.wav");
    write_wav(&p, 16_000, 1, &tone(16_000, 3.0), false);
    let short =
        DecodeOptions { max_duration: Delta::from_micros(1_000_000), ..DecodeOptions::default() };
    let e = decode_all(&p, &short).unwrap_err();
    assert_eq!(kind_of(&e), "limit");
    assert_eq!(
        e.to_string(),
        format!(
            "{}: limit exceeded: the recording lasts 3.000 s, longer than the 1.000 s allowed",
            p.display()
        )
    );
    let small = DecodeOptions { max_bytes: 1000, ..DecodeOptions::default() };
    let e = Decoder::open(&p, &small).unwrap_err();
    assert_eq!(kind_of(&e), "limit");
    assert_eq!(
        e.to_string(),
        format!(
            "{}: limit exceeded: the file has 96044 bytes, more than the 1000 allowed",
            p.display()
        )
    );
}

#[test]
fn a_ten_hour_header_is_refused_before_decoding_under_a_one_hour_cap() {
    // A WAV header that declares ten hours of 16 kHz audio (1.15 GB) but holds one second.
    let t = Tmp::new();
    let p = t.path("ten-hours.wav");
    write_wav(&p, 16_000, 1, &tone(16_000, 1.0), false);
    let whole = Wav::parse(&std::fs::read(&p).unwrap());
    let header = (whole.bytes().len() - whole.chunk(b"data").unwrap().len()) as u32;
    let data_len: u32 = 10 * 3600 * 16_000 * 2;
    whole.data_size(data_len).riff_size(data_len + header - 8).write(&p);
    let hour = DecodeOptions {
        max_duration: Delta::from_micros(3_600_000_000),
        ..DecodeOptions::default()
    };
    let e = Decoder::open(&p, &hour).unwrap_err();
    assert_eq!(kind_of(&e), "limit", "{e}");
    assert_eq!(
        e.to_string(),
        format!(
            "{}: limit exceeded: the recording lasts 36000.000 s, longer than the 3600.000 s \
             allowed",
            p.display()
        )
    );
    // Without the cap, the lie is found when the data runs out.
    let e = decode_all(&p, &strict()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("{}: the file is truncated: the audio stops at 1.000 s", p.display())
    );
}

#[test]
fn mismatched_lengths_and_rates_are_clear_errors() {
    let t = Tmp::new();
    let (a, b, c) = (t.path("a.wav"), t.path("b.wav"), t.path("c.wav"));
    write_wav(&a, 16_000, 1, &tone(16_000, 3.0), false);
    write_wav(&b, 16_000, 1, &tone(16_000, 5.0), false);
    write_wav(&c, 48_000, 1, &tone(48_000, 3.0), false);
    let spec = |n: &str, p: &Path| TrackSpec::file(n, p);
    let e = detect(&[spec("A", &a), spec("B", &b)], &DetectOptions::default(), &mut |_| {})
        .unwrap_err();
    assert!(e.to_string().starts_with("tracks have different lengths: A ("), "{e}");
    assert!(e.to_string().contains("lasts 3.000 s, B ("), "{e}");
    let e = detect(&[spec("A", &a), spec("C", &c)], &DetectOptions::default(), &mut |_| {})
        .unwrap_err();
    assert!(e.to_string().starts_with("tracks have different sample rates: A ("), "{e}");
    let ok = DetectOptions { allow_rate_mismatch: true, ..DetectOptions::default() };
    let found = detect(&[spec("A", &a), spec("C", &c)], &ok, &mut |_| {}).unwrap();
    assert_eq!(found.duration, Delta::from_micros(3_000_000));
}

#[test]
fn detect_bytes_survives_arbitrary_prefixes_of_real_files() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let options = DetectOptions::default();
    for name in ["burst.flac", "burst.mp3", "burst.m4a", "burst.webm", "burst.adpcm.wav"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        for cut in (0..bytes.len()).step_by(997) {
            let _ = detect_bytes(bytes[..cut].to_vec(), &options);
        }
        let whole = detect_bytes(bytes, &options).unwrap();
        assert_eq!(whole.tracks.len(), 2, "{name}");
    }
}

/// An RF64 file: `ds64` with the real sizes, a `JUNK` chunk, `fmt ` (format tag 1 or 3), and
/// `data` with the 32-bit size 0xFFFFFFFF. `data_len` may exceed `data` (then the file is
/// extended with zeros, sparse).
fn rf64(path: &Path, rate: u32, channels: u16, tag: u16, bits: u16, data: &[u8], data_len: u64) {
    let align = channels * bits / 8;
    let mut ds64 = Vec::new();
    for size in [data_len + 92 - 8, data_len, data_len / u64::from(align)] {
        ds64.extend_from_slice(&size.to_le_bytes());
    }
    ds64.extend_from_slice(&0u32.to_le_bytes());
    let b = Wav::new(tag, channels, rate, align, bits, data)
        .magic(b"RF64")
        .placeholder_sizes(u32::MAX)
        .insert_before(b"fmt ", b"ds64", &ds64)
        .insert_before(b"fmt ", b"JUNK", &[0; 4])
        .bytes();
    assert_eq!(b.len(), 92 + data.len());
    std::fs::write(path, &b).unwrap();
    std::fs::OpenOptions::new().write(true).open(path).unwrap().set_len(92 + data_len).unwrap();
}

/// A long call recording in RF64 holds G.711 as often as PCM; it was refused ("RF64 with
/// format tag 0x0007 … only integer and float PCM are"). A-law and μ-law in RF64 now decode
/// to the values of the same bytes in a plain WAV (which symphonia reads), every byte value in
/// both channels.
#[test]
fn rf64_g711_decodes_as_the_same_samples_in_wav() {
    let t = Tmp::new();
    let bytes: Vec<u8> = (0..=255).collect();
    for (tag, codec) in [(6u16, "pcm_alaw"), (7, "pcm_mulaw")] {
        let wav = Wav::new(tag, 2, 8_000, 2, 8, &bytes).fmt_extension(&[0, 0]).bytes();
        let mut d = Decoder::from_bytes(wav, Some("wav"), &DecodeOptions::default()).unwrap();
        let mut want = Vec::new();
        while let Some(b) = d.next_block().unwrap() {
            want.extend_from_slice(b.interleaved());
        }
        let p = t.path(&format!("call-{tag}.wav"));
        rf64(&p, 8_000, 2, tag, 8, &bytes, 256);
        let mut d = Decoder::open(&p, &DecodeOptions::default()).unwrap();
        assert_eq!((d.info().codec.as_str(), d.info().channels), (codec, 2));
        let mut got = Vec::new();
        while let Some(b) = d.next_block().unwrap() {
            got.extend_from_slice(b.interleaved());
        }
        assert_eq!((got.len(), &got), (256, &want), "{codec}");
        assert_eq!(d.stats().truncated, None, "{codec}");
    }
}

#[test]
fn rf64_with_48_channels_decodes_exactly() {
    // Channel c carries a constant, exact in each sample format.
    let t = Tmp::new();
    let frames = 3000;
    for (tag, bits, codec) in
        [(1u16, 16u16, "pcm_s16le"), (1, 24, "pcm_s24le"), (3, 32, "pcm_f32le"), (1, 8, "pcm_u8")]
    {
        let p = t.path(&format!("many-{bits}-{tag}.rf64"));
        let value = |c: usize| (c as f32 - 24.0) / 32.0; // -0.75 … 0.71875, exact in 8 bits
        let mut data = Vec::new();
        for _ in 0..frames {
            for c in 0..48 {
                let v = value(c);
                match (tag, bits) {
                    (1, 8) => data.push((v * 128.0 + 128.0) as u8),
                    (1, 16) => data.extend_from_slice(&((v * 32768.0) as i16).to_le_bytes()),
                    (1, 24) => {
                        data.extend_from_slice(&((v * 8_388_608.0) as i32).to_le_bytes()[..3])
                    }
                    _ => data.extend_from_slice(&v.to_le_bytes()),
                }
            }
        }
        rf64(&p, 48_000, 48, tag, bits, &data, data.len() as u64);
        let mut d = Decoder::open(&p, &DecodeOptions::default()).unwrap();
        assert_eq!(
            (d.info().codec.as_str(), d.info().channels, d.info().declared_frames),
            (codec, 48, Some(frames))
        );
        let mut n = 0;
        while let Some(b) = d.next_block().unwrap() {
            assert!(b.frames() <= 1365);
            for c in 0..48 {
                assert!(b.channel(c).all(|v| v == value(c)), "{codec} channel {c}");
            }
            n += b.frames();
        }
        assert_eq!(n as u64, frames);
    }
}

#[test]
fn a_ten_hour_eight_channel_rf64_is_read_past_four_gigabytes() {
    // Ten hours of 8 channels at 16 kHz, 16-bit: 9.2 GB of data, sparse. The declared length
    // comes from the 64-bit ds64 size; a one-hour cap refuses it before decoding.
    let t = Tmp::new();
    let p = t.path("ten-hours.rf64");
    let frames: u64 = 10 * 3600 * 16_000;
    let first: Vec<u8> = (0..8 * 1000).flat_map(|i: i16| (i % 8 * 1000).to_le_bytes()).collect();
    rf64(&p, 16_000, 8, 1, 16, &first, frames * 16);
    let mut d = Decoder::open(&p, &DecodeOptions::default()).unwrap();
    assert_eq!(d.info().declared_frames, Some(frames));
    assert_eq!(d.info().declared_duration(), Some(Delta::from_micros(36_000_000_000)));
    let b = d.next_block().unwrap().unwrap();
    assert_eq!((b.first_frame, b.frames()), (0, 8192));
    assert!(b.channel(3).take(1000).all(|v| v == 3000.0 / 32768.0));
    let hour = DecodeOptions {
        max_duration: Delta::from_micros(3_600_000_000),
        ..DecodeOptions::default()
    };
    let e = Decoder::open(&p, &hour).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: limit exceeded: the recording lasts 36000.000 s, longer than the 3600.000 s \
             allowed",
            p.display()
        )
    );
}

#[test]
fn truncated_and_malformed_rf64_are_clear_errors() {
    let t = Tmp::new();
    let p = t.path("cut.rf64");
    // Declares 2 s of stereo 16 kHz but holds 0.5 s and half a frame.
    let data = vec![0u8; 8000 * 4 + 2];
    rf64(&p, 16_000, 2, 1, 16, &data, 64_000 * 2);
    let bytes = std::fs::read(&p).unwrap();
    std::fs::write(&p, &bytes[..92 + data.len()]).unwrap();
    let e = decode_all(&p, &strict()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!("{}: the file is truncated: the audio stops at 0.500 s", p.display())
    );
    assert_eq!(
        decode_outcome(&p, &DecodeOptions::default()),
        format!("{}: ok 8000, truncated 0.500 of 2.000", p.display())
    );
    // Cut inside the header.
    std::fs::write(&p, &bytes[..60]).unwrap();
    let e = decode_all(&p, &DecodeOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: the file is truncated: it ends before any complete block of audio",
            p.display()
        )
    );
    // ADPCM in RF64 is not read.
    rf64(&p, 16_000, 2, 0x11, 4, &[0; 64], 64);
    let e = decode_all(&p, &DecodeOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{0}: unsupported: RF64 with format tag 0x0011 and 4-bit samples is not supported \
             (integer and float PCM, A-law and μ-law are); convert it first: ffmpeg -i '{0}' -ar \
             16000 '{1}'",
            p.display(),
            p.with_extension("wav").display()
        )
    );
}

#[test]
fn an_mp3_without_a_length_header_is_cut_without_a_false_alarm() {
    // Without its Info frame, symphonia estimates an MP3's length from the file size; falling
    // short of an estimate is not called truncation, so a cut file gives the audio present.
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut bytes = std::fs::read(dir.join("burst.mp3")).unwrap();
    let id3 = 10 + bytes[6..10].iter().fold(0usize, |n, &b| n << 7 | usize::from(b & 0x7F));
    assert_eq!(
        (&bytes[id3..id3 + 2], &bytes[id3 + 36..id3 + 40]),
        (&[0xFF, 0xFB][..], &b"Info"[..])
    );
    bytes.drain(id3..id3 + 208); // the Info frame: 64 kb/s at 44.1 kHz, no padding
    let t = Tmp::new();
    let p = t.path("no-info.mp3");
    std::fs::write(&p, &bytes).unwrap();
    let (info, whole) = decode_all(&p, &DecodeOptions::default()).unwrap();
    // 40 frames of 1152; the encoder's priming is no longer known, so it stays.
    assert_eq!((info.declared_frames, whole[0].len()), (Some(46_080), 46_080));
    std::fs::write(&p, &bytes[..bytes.len() * 2 / 3]).unwrap();
    let (_, cut) = decode_all(&p, &DecodeOptions::default()).unwrap();
    assert_eq!(cut[0].len(), 26 * 1152);
}

#[test]
fn truncated_files_are_read_as_far_as_they_go_unless_strict() {
    // The cuts of `truncated_coded_files_give_exact_errors`, read leniently: each one with audio
    // before the cut delivers it and says how much was read against the declared length (`?`
    // where the header declares none: Ogg and Matroska read as a stream). A cut before any
    // audio stays an error; one byte short of an MP3 is within the encoders' rounding slack.
    check_cuts_with(
        &[
            (
                "burst.flac",
                [
                    "the file is truncated: it ends before any complete block of audio",
                    "ok 13824, truncated 0.313469 of 1.000",
                    "ok 23040, truncated 0.522449 of 1.000",
                    "ok 41472, truncated 0.940408 of 1.000",
                ],
            ),
            (
                "burst.mp3",
                [
                    "the MP3 file holds no audio (no MPEG audio frame)",
                    "ok 12719, truncated 0.288413 of 1.000",
                    "ok 28847, truncated 0.654127 of 1.000",
                    "ok 43823",
                ],
            ),
            (
                "burst.ogg",
                [
                    "the file is truncated: it ends before any complete block of audio",
                    "the file is truncated: it ends before any complete block of audio",
                    "the file is truncated: it ends before any complete block of audio",
                    "ok 44096, truncated 0.999909 of ?",
                ],
            ),
            (
                "burst.mkv",
                [
                    "malformed audio (reading the container header): mkv (ebml): no current element",
                    "ok 16384, truncated 0.371519 of ?",
                    "ok 25600, truncated 0.580499 of ?",
                    "ok 46080, truncated 1.044898 of ?",
                ],
            ),
            (
                "burst.webm",
                [
                    "malformed audio (reading the container header): mkv (ebml): no current element",
                    "the file is truncated: it ends before any complete block of audio",
                    "the file is truncated: it ends before any complete block of audio",
                    "ok 45120, truncated 1.023129 of ?",
                ],
            ),
            (
                "burst.adpcm.wav",
                [
                    "the file is truncated: it ends before any complete block of audio",
                    "ok 14238, truncated 0.322857 of 1.014694",
                    "ok 29493, truncated 0.668776 of 1.014694",
                    "ok 43731, truncated 0.991633 of 1.014694",
                ],
            ),
            (
                "burst.opus",
                [
                    "the file is truncated: it ends before any complete block of audio",
                    "the file is truncated: it ends before any complete block of audio",
                    "the file is truncated: it ends before any complete block of audio",
                    "ok 47688, truncated 0.9935 of ?",
                ],
            ),
            (
                "burst.opus.webm",
                [
                    "malformed audio (reading the container header): mkv (ebml): no current element",
                    "ok 25608, truncated 0.5335 of ?",
                    "ok 37128, truncated 0.7735 of ?",
                    "ok 48000, truncated 1.000 of ?",
                ],
            ),
        ],
        false,
    );
}

#[test]
fn a_wav_whose_data_chunk_comes_before_its_format_chunk_is_read() {
    // 0.5 s of a stereo 16-bit tone at 16 kHz, its `data` chunk moved before `fmt ` (as ffmpeg
    // reads it): the same 8000 frames, sample for sample, and a cut one is read as far as it
    // goes.
    let t = Tmp::new();
    let usual = t.path("usual.wav");
    let frames: Vec<Vec<f32>> = tone(16_000, 0.5).into_iter().map(|f| vec![f[0], -f[0]]).collect();
    write_wav(&usual, 16_000, 2, &frames, false);
    let file = Wav::parse(&std::fs::read(&usual).unwrap()).only(&[b"data", b"fmt "]).bytes();
    let p = t.path("data-first.wav");
    std::fs::write(&p, &file).unwrap();
    let (info, got) = decode_all(&p, &strict()).unwrap();
    let (_, want) = decode_all(&usual, &strict()).unwrap();
    assert_eq!((info.sample_rate, info.channels, info.codec.as_str()), (16_000, 2, "pcm_s16le"));
    assert_eq!(info.declared_frames, Some(8000));
    assert_eq!(got[0].len(), 8000);
    assert!(got == want, "the samples differ from the usual layout's");
    // Cut in the middle of the samples: the format chunk after them is gone too, so the file
    // has no format and stays refused.
    std::fs::write(&p, &file[..12 + 8 + 16_000]).unwrap();
    let e = decode_all(&p, &DecodeOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: malformed audio (reading the container header): wav: missing format chunk",
            p.display()
        )
    );
}

#[test]
fn files_with_no_audio_say_so_naming_their_container() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for (name, want) in [
        ("empty.opus", "the Ogg file holds no audio (its stream ends after its headers)"),
        ("empty.mp3", "the MP3 file holds no audio (no MPEG audio frame)"),
        ("empty.m4a", "the MP4/M4A/MOV file holds no audio (no audio track with samples)"),
    ] {
        let p = dir.join(name);
        let e = decode_all(&p, &DecodeOptions::default()).unwrap_err();
        assert_eq!(kind_of(&e), "empty", "{name}: {e}");
        assert_eq!(e.to_string(), format!("{}: {want}", p.display()));
    }
}

/// AAC whose priming is read from the container or kept: ADTS (`burst.aac`) and Matroska
/// (`burst.mkv`, whose track header the decoder walks for a `CodecDelay`), with every 7th byte
/// of their first 600 (the headers) and every 97th after set five ways, decode to an answer
/// (samples, never more than the file's 1024-frame packets allow, or an error), never a
/// panic or a hang.
#[test]
fn aac_files_with_bytes_changed_decode_or_fail_cleanly() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    for name in ["burst.aac", "burst.mkv"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let ext = name.rsplit('.').next();
        let (mut ok, mut failed) = (0, 0);
        let at = (0..600).step_by(7).chain((600..bytes.len()).step_by(97));
        for i in at {
            for v in [0x00, 0x01, 0x7F, 0x80, 0xFF] {
                let mut f = bytes.clone();
                f[i] = v;
                let run = || -> overtalk::Result<usize> {
                    let mut d = Decoder::from_bytes(f, ext, &DecodeOptions::default())?;
                    let mut frames = 0;
                    while let Some(b) = d.next_block()? {
                        frames += b.frames();
                    }
                    Ok(frames)
                };
                match run() {
                    Ok(frames) => {
                        // At most the 46 080 frames of the file's 45 packets, and a packet more
                        // where a changed byte makes one frame look like two.
                        assert!(frames <= 47_104, "{name}: byte {i} = {v:#x}: {frames} frames");
                        ok += 1;
                    }
                    Err(_) => failed += 1,
                }
            }
        }
        println!("{name}: {ok} decoded, {failed} refused");
        assert!(ok > failed, "{name}: {ok} decoded, {failed} refused");
    }
}

/// `whole` (a sized WAV file) with its RIFF and data sizes set to `placeholder`, as a streaming
/// recorder or `ffmpeg -f wav -` to a pipe leaves them.
fn with_placeholder_sizes(whole: &[u8], placeholder: u32) -> Vec<u8> {
    Wav::parse(whole).placeholder_sizes(placeholder).bytes()
}

#[test]
fn a_streamed_wav_with_another_joined_after_it_ends_where_the_second_header_starts() {
    // A recorder's streamed file (sizes never written) with a second file joined after it:
    // the second header was read as samples (noise) to the end of the file. Now the samples end
    // where the second `RIFF…WAVE` header starts, and the joined file is named as for a sized
    // first file.
    let t = Tmp::new();
    let (first, second) = (t.path("first.wav"), t.path("second.wav"));
    write_wav(&first, 16_000, 1, &tone(16_000, 1.5), false);
    write_wav(&second, 8_000, 1, &tone(8_000, 0.75), false);
    let (first, second) = (std::fs::read(&first).unwrap(), std::fs::read(&second).unwrap());
    let q = t.path("streamed.wav");
    for placeholder in [u32::MAX, 0] {
        std::fs::write(&q, [with_placeholder_sizes(&first, placeholder), second.clone()].concat())
            .unwrap();
        let (info, channels) = decode_all(&q, &strict()).unwrap();
        assert_eq!((info.sample_rate, channels[0].len()), (16_000, 24_000), "{placeholder:#x}");
        // The samples are the first file's, to the last one: no header bytes among them.
        let expected: Vec<f32> = tone(16_000, 1.5)
            .iter()
            .map(|f| f32::from((f[0] * 32767.0) as i16) / 32768.0)
            .collect();
        assert_eq!(channels[0], expected, "{placeholder:#x}");
        let mut d = Decoder::open(&q, &strict()).unwrap();
        while d.next_block().unwrap().is_some() {}
        let s = d.stats();
        assert_eq!(
            (s.frames, s.placeholder_length, s.appended_wav.map(appended)),
            (
                24_000,
                true,
                Some((48_044, 12_044, Some(8_000), Some(6_000), 1, Some(Delta::from_millis(750))))
            ),
            "{placeholder:#x}"
        );
        let spec = TrackSpec::file("A", q.clone());
        let found =
            detect_recording(&[spec], &DetectOptions::default(), None, &mut |_| {}).unwrap();
        // The joined file's warning says where the samples end, so the placeholder's ("read to
        // the end of the file") is not said.
        assert_eq!(
            found.warnings,
            [TrackWarning::AppendedWav {
                path: q.clone(),
                read: 1.5,
                bytes: 12_044,
                sample_rate: Some(8_000),
                seconds: Some(0.75),
                files: 1,
                total: Some(0.75),
            }],
            "{placeholder:#x}"
        );
    }
    // The joined file streamed too: its length is what the file holds after its header.
    let joined = [with_placeholder_sizes(&first, u32::MAX), with_placeholder_sizes(&second, 0)];
    std::fs::write(&q, joined.concat()).unwrap();
    let d = Decoder::open(&q, &strict()).unwrap();
    assert_eq!(
        d.stats().appended_wav.map(appended),
        Some((48_044, 12_044, Some(8_000), Some(6_000), 1, Some(Delta::from_millis(750))))
    );
    // Alone, a streamed file still reads to its end.
    std::fs::write(&q, with_placeholder_sizes(&first, u32::MAX)).unwrap();
    let mut d = Decoder::open(&q, &strict()).unwrap();
    while d.next_block().unwrap().is_some() {}
    assert_eq!((d.stats().frames, d.stats().appended_wav), (24_000, None));
}

#[test]
fn three_wav_files_joined_are_counted_with_their_total_length() {
    // `cat a.wav b.wav c.wav`: every file after the first is found, each where the one before
    // ends (the last one streamed, with placeholder sizes), and the warning says how many and
    // how long they are together.
    let t = Tmp::new();
    let (a, b, c) = (t.path("a.wav"), t.path("b.wav"), t.path("c.wav"));
    write_wav(&a, 16_000, 1, &tone(16_000, 1.0), false);
    write_wav(&b, 8_000, 1, &tone(8_000, 0.5), false);
    write_wav(
        &c,
        44_100,
        2,
        &tone(44_100, 0.25).iter().map(|f| vec![f[0], f[0]]).collect::<Vec<_>>(),
        false,
    );
    let (a, b, c) =
        (std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap(), std::fs::read(&c).unwrap());
    let q = t.path("three.wav");
    std::fs::write(&q, [a.clone(), b.clone(), with_placeholder_sizes(&c, u32::MAX)].concat())
        .unwrap();
    let mut d = Decoder::open(&q, &strict()).unwrap();
    while d.next_block().unwrap().is_some() {}
    assert_eq!(
        (d.stats().frames, d.stats().appended_wav.map(appended)),
        (
            16_000,
            Some((
                32_044,
                8_044 + 44_144,
                Some(8_000),
                Some(4_000),
                2,
                Some(Delta::from_millis(750))
            ))
        )
    );
    let spec = TrackSpec::file("A", q.clone());
    let found = detect_recording(&[spec], &DetectOptions::default(), None, &mut |_| {}).unwrap();
    assert_eq!(
        found.warnings,
        [TrackWarning::AppendedWav {
            path: q.clone(),
            read: 1.0,
            bytes: 52_188,
            sample_rate: Some(8_000),
            seconds: Some(0.5),
            files: 2,
            total: Some(0.75),
        }]
    );
    assert_eq!(
        found.warnings[0].to_string(),
        format!(
            "{}: 2 more WAV files are joined to its end byte for byte (at 1.000 s, 52188 bytes: 0.750 s in all; the first 0.500 s at 8000 Hz) and were not read: the first header ends the recording there, so only the first file was heard; join the files with a tool that writes one header and one sample rate (sox, or ffmpeg's concat filter), or give each on its own",
            q.display()
        )
    );
    // One of them without a length (a compressed format's block holds many frames): the
    // count stays, the total is unknown.
    let adpcm = Wav::new(0x11, 1, 8_000, 256, 4, &[0; 512]).bytes();
    std::fs::write(&q, [a.clone(), adpcm, b.clone(), b].concat()).unwrap();
    let d = Decoder::open(&q, &strict()).unwrap();
    assert_eq!(
        d.stats().appended_wav.map(appended),
        Some((32_044, 556 + 2 * 8_044, Some(8_000), None, 3, None))
    );
}

/// The interleaved samples, frame count and stats of MP3 bytes.
fn decode_mp3(bytes: Vec<u8>) -> (usize, Vec<f32>, overtalk_audio::decode::DecodeStats) {
    let mut d = Decoder::from_bytes(bytes, Some("mp3"), &DecodeOptions::default()).unwrap();
    let mut all = Vec::new();
    while let Some(b) = d.next_block().unwrap() {
        all.extend(b.mono());
    }
    (d.info().channels, all, d.stats())
}

#[test]
fn mp3_files_of_one_rate_joined_are_all_decoded_whatever_their_channels() {
    // `cat mono.mp3 stereo.mp3` (16 kHz each, LAME headers, a 1 kHz burst at 0.3–0.6 s in
    // each): the stereo frames were "corrupt packets replaced by silence", and a second file
    // of the same layout was dropped without a word (the first file's header declares its
    // length and the demuxer trimmed every packet past it to nothing). ffmpeg plays 33 455
    // frames, the second burst from frame 22 082 (mixed to mono as the mean of the channels);
    // so does the decoder now, in every order, to the frame.
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let read = |name: &str| std::fs::read(data.join(name)).unwrap();
    let (mono, stereo) = (read("layout.mono.mp3"), read("layout.stereo.mp3"));
    let onsets = |samples: &[f32]| {
        let first = samples.iter().position(|s| s.abs() > 0.1).unwrap();
        let second = 16_000 + samples[16_000..].iter().position(|s| s.abs() > 0.1).unwrap();
        (first, second)
    };
    let (channels, all, s) = decode_mp3([mono.clone(), stereo.clone()].concat());
    assert_eq!((channels, all.len(), onsets(&all)), (1, 33_455, (4_801, 22_082)));
    assert_eq!(
        (s.bad_packets, s.other_layout_packets, s.other_layout_channels, s.other_layout_frames),
        (0, 30, Some((1, 2)), 17_280)
    );
    // Past the first file's declared 16 000 frames: its padding and the whole second file.
    assert_eq!(s.past_declared_frames, 17_455);
    // Stereo first: the burst is on the left only, so the mean of the channels crosses 0.1 a
    // frame later in the first file and a frame earlier (the mono file spread to both) in the
    // second; ffmpeg's decoding, mixed the same way, crosses at 4 802 and 22 081 too.
    let (channels, all, s) = decode_mp3([stereo.clone(), mono.clone()].concat());
    assert_eq!((channels, all.len(), onsets(&all)), (2, 33_455, (4_802, 22_081)));
    assert_eq!(
        (s.bad_packets, s.other_layout_packets, s.other_layout_channels, s.past_declared_frames),
        (0, 30, Some((2, 1)), 17_455)
    );
    // The same layout twice: the second burst at full amplitude crosses a frame earlier than
    // the stereo file's mixed down (ffmpeg: 22 081 too).
    let (channels, all, s) = decode_mp3([mono.clone(), mono.clone()].concat());
    assert_eq!((channels, all.len(), onsets(&all)), (1, 33_455, (4_801, 22_081)));
    assert_eq!((s.bad_packets, s.other_layout_packets, s.past_declared_frames), (0, 0, 17_455));
    // One file alone ends at its declared length: its padding is no joined file.
    let (_, all, s) = decode_mp3(mono.clone());
    assert_eq!((all.len(), s.past_declared_frames), (16_000, 0));
    // Detection names both findings, with the time they hold.
    let t = Tmp::new();
    let q = t.path("joined.mp3");
    std::fs::write(&q, [mono, stereo].concat()).unwrap();
    let spec = TrackSpec::file("A", q.clone());
    let found = detect_recording(&[spec], &DetectOptions::default(), None, &mut |_| {}).unwrap();
    assert_eq!(
        found.warnings,
        [
            TrackWarning::OtherChannelFrames {
                path: q.clone(),
                packets: 30,
                channels: 1,
                other: 2,
                seconds: 1.08
            },
            TrackWarning::PastDeclaredLength { path: q.clone(), seconds: 1.090938 },
        ]
    );
    let text: Vec<String> = found.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        text,
        [
            format!(
                "{}: 30 MPEG audio frames (1.080 s) are in stereo, where the stream starts in mono (MP3 files joined byte for byte?); they were decoded on their own and mixed down to mono, in place",
                q.display()
            ),
            format!(
                "{}: the MP3 goes on 1.091 s past the length its header declares (MP3 files joined byte for byte?); all of it was decoded, as ffmpeg plays it",
                q.display()
            ),
        ]
    );
}

/// `bytes` without its ID3v2 tag (`ID3`, a 10-byte header and a syncsafe size), when it has
/// one.
fn without_id3(bytes: &[u8]) -> &[u8] {
    if !bytes.starts_with(b"ID3") {
        return bytes;
    }
    let size = bytes[6..10].iter().fold(0usize, |n, &b| (n << 7) | usize::from(b & 0x7F));
    &bytes[10 + size..]
}

/// `bytes` (an MPEG-2 Layer III stream at 16 kHz, as `layout.*.mp3`) without its first frame.
fn without_first_frame(bytes: &[u8]) -> &[u8] {
    const KBPS: [usize; 15] = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
    assert_eq!(&bytes[..2], [0xFF, 0xF3], "an MPEG-2 Layer III frame header");
    let (kbps, padded) = (KBPS[usize::from(bytes[2] >> 4)], usize::from((bytes[2] >> 1) & 1));
    &bytes[72 * kbps * 1000 / 16_000 + padded..]
}

#[test]
fn a_short_mp3_joined_after_another_is_kept_not_taken_for_padding() {
    // `cat mono.mp3 short.mp3` (16 kHz, LAME headers): 1 s, then 0.1 s of a 1 kHz tone in five
    // frames of 576. Past the first file's declared 16 000 frames come its padding (175) and
    // the second file's 2 880 frames: 3 055, less than the 4 095 frames of padding a LAME
    // header can declare, so the second file was dropped as padding. Its frames start past the
    // 30 the first file's Info frame counts, so they are a file of their own: ffmpeg 5.1 plays
    // 19 055 frames, the tone from frame 17 281 (after the second file's 1 105 frames of
    // priming), and so does the decoder, to the frame.
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let read = |name: &str| std::fs::read(data.join(name)).unwrap();
    let (mono, short) = (read("layout.mono.mp3"), read("layout.short.mp3"));
    let second_onset =
        |all: &[f32]| 16_000 + all[16_000..].iter().position(|s| s.abs() > 0.1).unwrap();
    let (_, all, s) = decode_mp3([mono.clone(), short.clone()].concat());
    assert_eq!((all.len(), second_onset(&all), s.past_declared_frames), (19_055, 17_281, 3_055));
    assert_eq!((s.bad_packets, s.other_layout_packets, s.other_rate_packets), (0, 0, 0));
    // The second file's frames alone, without its ID3 tag and Info frame (a stream cut out of
    // a longer one): the frame headers past the counted ones tell it all the same (ffmpeg 5.1:
    // 19 055 frames, the tone from 17 281).
    let bare = without_first_frame(without_id3(&short));
    let (_, all, s) = decode_mp3([&mono[..], bare].concat());
    assert_eq!((all.len(), second_onset(&all), s.past_declared_frames), (19_055, 17_281, 3_055));
    // Its Info frame without the ID3 tag before it: ffmpeg 5.1 decodes that frame as 576
    // frames of silence (19 631 frames, the tone from 17 857); the demuxer skips it, as it
    // skips every Info frame after the first, so the decoder gives 576 frames fewer.
    let (_, all, _) = decode_mp3([&mono[..], without_id3(&short)].concat());
    assert_eq!((all.len(), second_onset(&all)), (19_055, 17_281));
    // Three files: the second short one and a third.
    let (_, all, s) = decode_mp3([mono.clone(), short.clone(), short.clone()].concat());
    assert_eq!((all.len(), s.past_declared_frames), (21_935, 5_935));
    // Each file alone ends at its declared length: its padding is no joined file.
    let (_, all, s) = decode_mp3(short.clone());
    assert_eq!((all.len(), s.past_declared_frames), (1_600, 0));
    let (_, all, s) = decode_mp3(mono.clone());
    assert_eq!((all.len(), s.past_declared_frames), (16_000, 0));
}

#[test]
fn a_malformed_list_chunk_before_the_samples_is_skipped_as_ffmpeg_skips_it() {
    // A LIST/INFO entry of odd length written without its pad byte (some taggers do): the
    // entry runs past its list, and the file was refused as "malformed audio (reading the
    // container header): riff: chunk length exceeds parent (list) chunk length". ffmpeg plays
    // it; so does the decoder now, with every sample.
    let t = Tmp::new();
    let p = t.path("plain.wav");
    write_wav(&p, 16_000, 1, &tone(16_000, 0.5), false);
    // The list's own size is right (15 bytes, then its pad byte); its entry's is not.
    let tagged = Wav::parse(&std::fs::read(&p).unwrap())
        .insert_before(b"data", b"LIST", b"INFOICMT\x03\0\0\0ab\0")
        .bytes();
    let q = t.path("tagged.wav");
    std::fs::write(&q, &tagged).unwrap();
    let (_, want) = decode_all(&p, &strict()).unwrap();
    let (info, got) = decode_all(&q, &strict()).unwrap();
    assert_eq!((info.sample_rate, got[0].len()), (16_000, 8_000));
    assert_eq!(got, want);
    // Streamed with placeholder sizes, the same.
    std::fs::write(&q, with_placeholder_sizes(&tagged, u32::MAX)).unwrap();
    let mut d = Decoder::open(&q, &strict()).unwrap();
    while d.next_block().unwrap().is_some() {}
    assert_eq!((d.stats().frames, d.stats().placeholder_length), (8_000, true));
}

#[test]
fn a_joined_header_is_found_on_either_side_of_a_search_block_boundary() {
    // The samples of a streamed file are searched for the next `RIFF…WAVE` header in blocks of
    // 64 KiB (65 536 bytes from the first sample); a header that starts at the last byte of a
    // block, the first of the next, or one whose 16 bytes straddle the two ends the samples
    // where it starts all the same.
    let t = Tmp::new();
    let second = t.path("second.wav");
    write_wav(&second, 8_000, 1, &tone(8_000, 0.5), false);
    let second = std::fs::read(&second).unwrap();
    let first = t.path("first.wav");
    let q = t.path("streamed.wav");
    let all = tone(8_000, 9.0);
    // 16-bit mono: a frame is 2 bytes, so the header starts 2 × frames bytes into the samples.
    for frames in [32_760, 32_767, 32_768, 32_769, 65_536] {
        write_wav(&first, 8_000, 1, &all[..frames], false);
        let first = std::fs::read(&first).unwrap();
        std::fs::write(&q, [with_placeholder_sizes(&first, u32::MAX), second.clone()].concat())
            .unwrap();
        let mut d = Decoder::open(&q, &strict()).unwrap();
        while d.next_block().unwrap().is_some() {}
        let offset = 44 + 2 * frames as u64;
        assert_eq!(
            (d.stats().frames, d.stats().appended_wav.map(appended)),
            (
                frames as u64,
                Some((offset, 8_044, Some(8_000), Some(4_000), 1, Some(Delta::from_millis(500))))
            ),
            "{frames} frames"
        );
    }
}
