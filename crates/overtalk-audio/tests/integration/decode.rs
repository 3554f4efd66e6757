//! Every decoder path on a small clip: committed coded clips (tests/data, made by
//! tests/data/make.sh) and WAV variants written here. Onsets must agree with the signal within
//! 1 ms after priming removal, so times line up across formats.

// Helpers outside `#[test]` functions unwrap too: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use overtalk_audio::decode::{decode_all, DecodeOptions, Decoder};

use crate::wav::Wav;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// Seconds of the first sample louder than 0.25 (the bursts have amplitude 0.5).
fn onset(x: &[f32], rate: u32) -> f64 {
    let i = x.iter().position(|v| v.abs() > 0.25).expect("a burst");
    i as f64 / f64::from(rate)
}

/// Decodes a clip and checks rate, channels, both onsets (within 1 ms) and the length; returns
/// the two onsets in seconds, less the priming its container does not declare (kept, as
/// ffmpeg plays it).
fn check_clip_at(name: &str, rate: u32) -> (f64, f64) {
    let late = undeclared_priming(name) as f64 / f64::from(rate);
    let (info, ch) = decode_all(&data(name), &DecodeOptions::default()).unwrap();
    assert_eq!(info.sample_rate, rate, "{name}");
    assert_eq!(ch.len(), 2, "{name}");
    let left = onset(&ch[0], rate);
    let right = onset(&ch[1], rate);
    println!(
        "{name}: {} priming {} onsets {left:.5} {right:.5} len {}",
        info.codec,
        info.priming,
        ch[0].len()
    );
    let (left, right) = (left - late, right - late);
    assert!((left - 0.300).abs() < 0.001, "{name}: left onset {left}");
    assert!((right - 0.500).abs() < 0.001, "{name}: right onset {right}");
    let secs = ch[0].len() as f64 / f64::from(rate) - late;
    assert!((0.99..1.06).contains(&secs), "{name}: {secs} s");
    (left, right)
}

fn check_clip(name: &str) {
    check_clip_at(name, 44_100);
}

/// The AAC priming a clip's container does not declare (no MP4 edit list, no Matroska
/// `CodecDelay`): kept, as ffmpeg plays it, so its signal comes 1024 frames (23 ms) late.
fn undeclared_priming(name: &str) -> usize {
    match name {
        "burst.mkv" | "burst.frag.m4a" | "burst.frag.mp4" | "burst.aac" => 1024,
        _ => 0,
    }
}

/// Every clip this build decodes, with its sample rate and exact length in frames, as ffmpeg
/// decodes it (`ffmpeg -i F -f s16le -`), but for AAC in MP4 and Opus in MP4, whose
/// encoder padding after the declared length ffmpeg keeps and the decoder drops. The signal
/// lasts 1 s. Vorbis in Matroska/WebM keeps the encoder's padding after the last sample (at
/// most one packet), as ffmpeg does (nothing declares it); Opus in Matroska/WebM drops it
/// (`DiscardPadding`), as ffmpeg does; ADPCM pads to its block (IMA: 1017 frames, MS: 1012);
/// AAC without declared priming keeps it (ADTS: its padding too, 46 080 frames).
fn all_clips() -> Vec<(&'static str, u32, usize)> {
    vec![
        ("burst.flac", 44_100, 44_100),
        ("burst.mp3", 44_100, 44_100),
        ("burst.ogg", 44_100, 44_100),
        ("burst.m4a", 44_100, 44_100),
        ("burst.adpcm.wav", 44_100, 44_748),
        ("burst.msadpcm.wav", 44_100, 44_528),
        ("burst.mp4", 44_100, 44_100),
        ("burst.mov", 44_100, 44_100),
        ("burst.mkv", 44_100, 46_080),
        ("burst.aac", 44_100, 46_080),
        ("burst.webm", 44_100, 45_120),
        ("burst.opus", 48_000, 48_000),
        ("burst.2p5ms.opus", 48_000, 48_000),
        ("burst.opus.webm", 48_000, 48_000),
        ("burst.opus.mkv", 48_000, 48_000),
        ("burst.aiff", 44_100, 44_100),
        ("burst.caf", 44_100, 44_100),
        ("burst.alac.m4a", 44_100, 44_100),
        ("burst.alac.caf", 44_100, 44_100),
        ("burst.frag.m4a", 44_100, 45_124),
        ("burst.frag.mp4", 44_100, 45_124),
        ("burst.dash.m4a", 44_100, 44_100),
        ("burst.frag.opus.mp4", 48_000, 48_000),
    ]
}

#[test]
fn lengths_are_exact() {
    for (name, rate, frames) in all_clips() {
        let (info, ch) = decode_all(&data(name), &DecodeOptions::default()).unwrap();
        assert_eq!((info.sample_rate, ch[0].len(), ch[1].len()), (rate, frames, frames), "{name}");
    }
}

#[test]
fn onsets_agree_across_formats_within_a_millisecond() {
    let onsets: Vec<(&str, f64, f64)> = all_clips()
        .into_iter()
        .map(|(name, rate, _)| {
            let (l, r) = check_clip_at(name, rate);
            (name, l, r)
        })
        .collect();
    for (name, l, r) in &onsets {
        for (other, l2, r2) in &onsets {
            assert!((l - l2).abs() < 0.001, "left onsets of {name} and {other}: {l} vs {l2}");
            assert!((r - r2).abs() < 0.001, "right onsets of {name} and {other}: {r} vs {r2}");
        }
    }
}

#[test]
fn flac() {
    check_clip("burst.flac");
}

#[test]
fn mp3() {
    check_clip("burst.mp3");
}

#[test]
fn ogg_vorbis() {
    check_clip("burst.ogg");
}

#[test]
fn aac_in_m4a() {
    check_clip("burst.m4a");
}

#[test]
fn adpcm_wav() {
    check_clip("burst.adpcm.wav");
}

#[test]
fn audio_of_mp4() {
    check_clip("burst.mp4");
}

#[test]
fn audio_of_mov() {
    check_clip("burst.mov");
}

#[test]
fn audio_of_mkv() {
    check_clip("burst.mkv");
}

#[test]
fn audio_of_webm() {
    check_clip("burst.webm");
}

/// Audio that starts 1.5 s into the file's timeline (after the video) decodes on that
/// timeline: silence first, the burst where ffmpeg plays it, the silence said.
#[test]
fn audio_that_starts_late_is_put_on_the_files_timeline() {
    // MP4: an empty edit of 1476 ms, then the media from its first sample, so the 1024 frames
    // of AAC priming are on the timeline too: 65,092 + 1024 frames of silence at 44.1 kHz.
    // WebM: the first packet at 1488 ms (Matroska's millisecond ticks), plus the 312 frames of
    // Opus pre-skip: 71,424 + 312 at 48 kHz. ffmpeg plays the left burst at 1.7993 and 1.7940 s.
    for (name, rate, lead, left) in [
        ("burst.offset.mp4", 44_100, 66_116, 1.7992),
        ("burst.offset.webm", 48_000, 71_736, 1.7945),
    ] {
        let mut d = Decoder::open(&data(name), &DecodeOptions::default()).unwrap();
        assert_eq!(d.info().lead, lead, "{name}");
        let mut x = Vec::new();
        while let Some(b) = d.next_block().unwrap() {
            x.extend(b.channel(0));
        }
        assert_eq!(d.stats().leading_silence, lead, "{name}");
        assert!(x[..lead as usize].iter().all(|v| *v == 0.0), "{name}");
        let at = onset(&x, rate);
        assert!((at - left).abs() < 0.001, "{name}: left onset {at}");
    }
    // The same signal without the offset still starts at 0.
    let d = Decoder::open(&data("burst.mp4"), &DecodeOptions::default()).unwrap();
    assert_eq!(d.info().lead, 0);
}

#[test]
fn aiff_and_caf() {
    check_clip("burst.aiff");
    check_clip("burst.caf");
}

#[test]
fn alac_in_m4a_and_caf() {
    check_clip("burst.alac.m4a");
    check_clip("burst.alac.caf");
}

/// MPEG-1 Layer II (broadcast audio): decoded, but a raw MP2 stream says nothing of its
/// encoder's delay, so nothing is trimmed and times come out 11 ms late here (481 frames:
/// the polyphase filter bank's delay), documented in `decode.rs`.
#[test]
fn mpeg_layer_2() {
    let (info, ch) = decode_all(&data("burst.mp2"), &DecodeOptions::default()).unwrap();
    assert_eq!((info.sample_rate, ch.len(), info.priming), (44_100, 2, 0));
    let (_, exact) = decode_all(&data("burst.flac"), &DecodeOptions::default()).unwrap();
    let frame = |x: &[f32]| (onset(x, 44_100) * 44_100.0).round() as i64;
    for c in 0..2 {
        assert_eq!(frame(&ch[c]) - frame(&exact[c]), 481, "channel {c}");
    }
    // 44 100 frames and the delay, in whole Layer II frames of 1152.
    assert_eq!(ch[0].len(), 39 * 1152);
}

/// MP3 in a WAV file (format tag 0x0055, as call and broadcast recorders write it): the data
/// chunk is read as an MP3 stream. Like a raw stream it carries no encoder delay (no LAME
/// header), so nothing is trimmed and times come out as late as ffmpeg plays them: the
/// encoder's and decoder's delay, 1 105 frames here (25 ms), against 0 for `burst.mp3`, whose
/// LAME header states it.
#[test]
fn mp3_in_wav() {
    let (info, ch) = decode_all(&data("burst.mp3.wav"), &DecodeOptions::default()).unwrap();
    assert_eq!((info.sample_rate, ch.len(), info.codec.as_str()), (44_100, 2, "mp3"));
    let (_, exact) = decode_all(&data("burst.flac"), &DecodeOptions::default()).unwrap();
    let frame = |x: &[f32]| (onset(x, 44_100) * 44_100.0).round() as i64;
    let late: Vec<i64> = (0..2).map(|c| frame(&ch[c]) - frame(&exact[c])).collect();
    assert_eq!(late, [1_105, 1_105]);
    // 44 100 frames and the delays, in whole MP3 frames of 1152.
    assert_eq!(ch[0].len(), 40 * 1152);
}

/// A file with one audio track per microphone (as OBS records): the default track is read
/// and the other counted as unread; `audio_track` reads either, each at its own place on the
/// timeline (the MP4's edit list of that track, by its `tkhd` id); a track past the last is an
/// error naming the count.
#[test]
fn one_audio_track_of_several_is_chosen_and_the_others_counted() {
    for name in ["burst.2tracks.mp4", "burst.2tracks.mkv"] {
        let open = |audio_track| {
            let options = DecodeOptions { audio_track, ..DecodeOptions::default() };
            let mut d = Decoder::open(&data(name), &options).unwrap();
            let mut x = Vec::new();
            while let Some(b) = d.next_block().unwrap() {
                x.extend(b.channel(0));
            }
            assert_eq!(d.stats().audio_tracks, 2, "{name}");
            (d.info().channels, onset(&x, 44_100), d.stats().unread_audio_tracks)
        };
        let (channels, at, unread) = open(None);
        assert_eq!((channels, unread), (1, 1), "{name}");
        assert!((at - 0.300).abs() < 0.001, "{name}: default track's onset {at}");
        let (channels, at, unread) = open(Some(0));
        assert_eq!((channels, unread), (1, 0), "{name}");
        assert!((at - 0.300).abs() < 0.001, "{name}: first track's onset {at}");
        let (channels, at, unread) = open(Some(1));
        assert_eq!((channels, unread), (1, 0), "{name}");
        assert!((at - 0.500).abs() < 0.001, "{name}: second track's onset {at}");
        let options = DecodeOptions { audio_track: Some(2), ..DecodeOptions::default() };
        let e = Decoder::open(&data(name), &options).unwrap_err();
        assert!(
            e.to_string()
                .ends_with("audio track 3 requested, but the recording has 2 audio tracks"),
            "{e}"
        );
    }
    // One audio track: nothing unread; a second one is not there.
    let d = Decoder::open(&data("burst.m4a"), &DecodeOptions::default()).unwrap();
    assert_eq!(d.stats().unread_audio_tracks, 0);
    let options = DecodeOptions { audio_track: Some(1), ..DecodeOptions::default() };
    let e = Decoder::open(&data("burst.m4a"), &options).unwrap_err();
    assert!(e.to_string().ends_with("but the recording has 1 audio track"), "{e}");
}

/// Opus in the default build (the pure-Rust decoder in `decode/opus.rs`).
mod opus {
    use super::*;

    #[test]
    fn ogg_opus() {
        check_clip_at("burst.opus", 48_000);
    }

    #[test]
    fn ogg_opus_priming_is_the_pre_skip_and_the_length_is_the_granule_position() {
        // ffmpeg's libopus writes a pre-skip of 312 frames; the last granule position ends the
        // stream at exactly 1 s.
        let (info, ch) = decode_all(&data("burst.opus"), &DecodeOptions::default()).unwrap();
        assert_eq!((info.codec.as_str(), info.priming, info.channels), ("opus", 312, 2));
        assert_eq!(ch[0].len(), 48_000);
    }

    /// The Ogg page checksum (CRC-32, polynomial 0x04c11db7, no reflection, over the page with
    /// its checksum field zeroed).
    fn ogg_crc(page: &[u8]) -> u32 {
        let mut crc = 0u32;
        for &b in page {
            crc ^= u32::from(b) << 24;
            for _ in 0..8 {
                crc = if crc & 0x8000_0000 != 0 { (crc << 1) ^ 0x04c1_1db7 } else { crc << 1 };
            }
        }
        crc
    }

    #[test]
    fn ogg_opus_pre_skip_longer_than_the_first_packet() {
        // burst.opus has 20 ms packets (960 frames) and a pre-skip of 312. Raising the pre-skip
        // by 960 to 1272 makes it span two packets: the audio then starts 20 ms earlier and is
        // 960 frames shorter, exactly.
        let mut bytes = std::fs::read(data("burst.opus")).unwrap();
        assert_eq!(&bytes[28..36], b"OpusHead");
        assert_eq!(u16::from_le_bytes([bytes[38], bytes[39]]), 312);
        bytes[38..40].copy_from_slice(&1272u16.to_le_bytes());
        let page_len = 27 + usize::from(bytes[26]) + usize::from(bytes[27]);
        bytes[22..26].fill(0);
        let crc = ogg_crc(&bytes[..page_len]);
        bytes[22..26].copy_from_slice(&crc.to_le_bytes());
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("long-pre-skip.opus");
        std::fs::write(&p, &bytes).unwrap();
        let (info, ch) = decode_all(&p, &DecodeOptions::default()).unwrap();
        assert_eq!(info.priming, 1272);
        assert_eq!(ch[0].len(), 48_000 - 960);
        let (original, base) = decode_all(&data("burst.opus"), &DecodeOptions::default()).unwrap();
        assert_eq!(original.priming, 312);
        assert_eq!(ch[0][..], base[0][960..]);
        assert_eq!(ch[1][..], base[1][960..]);
    }

    #[test]
    fn ogg_opus_with_short_packets() {
        // 2.5 ms packets (120 frames); ffmpeg's libopus writes a 120-frame pre-skip for them.
        check_clip_at("burst.2p5ms.opus", 48_000);
        let (info, ch) = decode_all(&data("burst.2p5ms.opus"), &DecodeOptions::default()).unwrap();
        assert_eq!((info.priming, ch[0].len()), (120, 48_000));
    }

    #[test]
    fn opus_in_webm() {
        check_clip_at("burst.opus.webm", 48_000);
    }

    #[test]
    fn opus_in_mkv() {
        check_clip_at("burst.opus.mkv", 48_000);
    }

    #[test]
    fn mono_opus_from_16_khz_input_decodes_at_48_khz() {
        // The header records a 16 kHz input; Opus decodes at 48 kHz whatever the input was.
        let (info, ch) = decode_all(&data("tone.mono16k.opus"), &DecodeOptions::default()).unwrap();
        assert_eq!((info.sample_rate, info.channels, ch.len()), (48_000, 1, 1));
        assert_eq!(ch[0].len(), 24_000);
        // A 440 Hz tone: 440 upward zero crossings a second, give or take the edges.
        let ups = ch[0].windows(2).filter(|w| w[0] < 0.0 && w[1] >= 0.0).count();
        assert!((218..=221).contains(&ups), "{ups} upward crossings in 0.5 s");
    }

    /// Sample by sample against libopus: `speech.opus` (SILK, 24 kbit/s, mono) decoded by
    /// libopus 1.3.1 (`opusdec --no-dither --rate 48000`, 16-bit) is committed beside it.
    /// The pure-Rust decoder (a port of libopus 1.6) agrees within one 16-bit step everywhere,
    /// in Ogg and in WebM (101.3 dB: the 16-bit reference's own rounding is most of it).
    #[test]
    fn opus_matches_libopus() {
        let (_, reference) =
            decode_all(&data("speech.opus.libopus.flac"), &DecodeOptions::default()).unwrap();
        let r = &reference[0];
        for (name, frames) in [("speech.opus", 248_103), ("speech.opus.webm", 248_103)] {
            let (info, ch) = decode_all(&data(name), &DecodeOptions::default()).unwrap();
            assert_eq!((info.sample_rate, ch.len(), ch[0].len()), (48_000, 1, frames), "{name}");
            assert_eq!(r.len(), 248_103);
            let (mut signal, mut error, mut max) = (0f64, 0f64, 0f32);
            for (x, y) in ch[0].iter().zip(r) {
                signal += f64::from(*y).powi(2);
                error += f64::from(x - y).powi(2);
                max = max.max((x - y).abs());
            }
            let snr = (10.0 * (signal / error).log10() * 10.0).round() / 10.0;
            assert_eq!((snr, (max * 32768.0).round()), (101.3, 1.0), "{name}");
        }
    }

    #[test]
    fn multichannel_opus_is_a_clear_error() {
        let e = Decoder::open(&data("tone.6ch.opus"), &DecodeOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{0}: unsupported: Opus with 6 channels: multistream Opus is not supported; only \
                 mono and stereo Opus are; convert it first: ffmpeg -i '{0}' -ar 16000 '{1}'",
                data("tone.6ch.opus").display(),
                data("tone.6ch.wav").display()
            )
        );
    }
}

/// A WAV with the plain `fmt ` chunk (16 bytes; 18 with an empty extension for G.711, as the
/// format requires): format tag, channels, bits, raw data.
fn plain_wav(tag: u16, channels: u16, bits: u16, data: &[u8]) -> Vec<u8> {
    let wav = Wav::new(tag, channels, 8000, channels * bits / 8, bits, data);
    // A-law and µ-law with the 18-byte chunk (an extension size of 0), as their writers do.
    let wav = if tag == 6 || tag == 7 { wav.fmt_extension(&0u16.to_le_bytes()) } else { wav };
    wav.bytes()
}

fn decode_wav_bytes(bytes: Vec<u8>) -> (String, Vec<f32>) {
    let mut d = Decoder::from_bytes(bytes, Some("wav"), &DecodeOptions::default()).unwrap();
    let codec = d.info().codec.clone();
    let mut out = Vec::new();
    while let Some(b) = d.next_block().unwrap() {
        out.extend_from_slice(b.interleaved());
    }
    (codec, out)
}

#[test]
fn wav_sample_formats_decode_exactly() {
    let values = [-1.0f32, -0.5, -0.25, 0.0, 0.25, 0.5, 0.75];
    let mut u8s = Vec::new();
    let mut s24 = Vec::new();
    let mut s32 = Vec::new();
    let mut f64s = Vec::new();
    for v in values {
        u8s.push((v * 128.0 + 128.0) as u8);
        s24.extend_from_slice(&((v * 8_388_608.0) as i32).to_le_bytes()[..3]);
        s32.extend_from_slice(&((f64::from(v) * 2_147_483_648.0) as i32).to_le_bytes());
        f64s.extend_from_slice(&f64::from(v).to_le_bytes());
    }
    for (tag, bits, data, codec) in [
        (1u16, 8u16, u8s, "pcm_u8"),
        (1, 24, s24, "pcm_s24le"),
        (1, 32, s32, "pcm_s32le"),
        (3, 64, f64s, "pcm_f64le"),
    ] {
        let (got_codec, got) = decode_wav_bytes(plain_wav(tag, 1, bits, &data));
        assert_eq!((got_codec.as_str(), &got[..]), (codec, &values[..]), "{codec}");
    }
}

#[test]
fn g711_wav_decodes_to_the_standard_values() {
    // ITU-T G.711 decoding, in 16-bit units.
    fn mulaw(byte: u8) -> i32 {
        let x = !byte;
        let mag = (((i32::from(x & 0x0F) << 3) + 0x84) << ((x >> 4) & 7)) - 0x84;
        if x & 0x80 != 0 {
            -mag
        } else {
            mag
        }
    }
    fn alaw(byte: u8) -> i32 {
        let x = byte ^ 0x55;
        let (exp, mant) = (i32::from((x >> 4) & 7), i32::from(x & 0x0F));
        let mag = if exp == 0 { (mant << 4) + 8 } else { ((mant << 4) + 0x108) << (exp - 1) };
        if x & 0x80 != 0 {
            mag
        } else {
            -mag
        }
    }
    let bytes: Vec<u8> = (0..=255).collect();
    for (tag, codec, table) in
        [(6u16, "pcm_alaw", alaw as fn(u8) -> i32), (7, "pcm_mulaw", mulaw as fn(u8) -> i32)]
    {
        let (got_codec, got) = decode_wav_bytes(plain_wav(tag, 1, 8, &bytes));
        let want: Vec<f32> = bytes.iter().map(|&b| table(b) as f32 / 32768.0).collect();
        assert_eq!(got_codec, codec);
        assert_eq!(got, want, "{codec}");
    }
}

/// A G.711 WAV read through its plain format chunk keeps what any WAV gets: placeholder sizes
/// are said (`DecodeStats::placeholder_length`), a WAV file joined after it is found and
/// named whether the sizes are real (`cat a.wav b.wav`) or placeholders (its samples then end
/// where the joined header starts, instead of decoding that header and the next file's
/// samples as μ-law), and a file whose `data` chunk comes before a 16-byte `fmt ` chunk decodes
/// too.
#[test]
fn g711_wav_with_an_odd_format_chunk_keeps_the_wav_checks() {
    let bytes: Vec<u8> = (0..=255).collect();
    let plain = Wav::new(7, 1, 8000, 1, 8, &bytes);
    let (_, want) = decode_wav_bytes(plain.clone().fmt_extension(&[0, 0]).bytes());
    let second = Wav::pcm16(16_000, 1, &[0; 160]).bytes();
    let open = |file: Vec<u8>| {
        let mut d = Decoder::from_bytes(file, Some("wav"), &DecodeOptions::default()).unwrap();
        let mut got = Vec::new();
        while let Some(b) = d.next_block().unwrap() {
            got.extend_from_slice(b.interleaved());
        }
        let s = d.stats();
        (got, s.placeholder_length, s.appended_wav.map(|a| (a.offset, a.sample_rate, a.frames)))
    };
    // Placeholder sizes, nothing after: read to the end, and said.
    let (got, placeholder, appended) = open(plain.clone().placeholder_sizes(u32::MAX).bytes());
    assert_eq!((&got, placeholder, appended), (&want, true, None));
    // Real sizes, another file joined after (`cat`): named.
    let first = plain.bytes();
    let (got, placeholder, appended) = open([first.clone(), second.clone()].concat());
    assert_eq!((&got, placeholder), (&want, false));
    assert_eq!(appended, Some((first.len() as u64, Some(16_000), Some(160))));
    // Placeholder sizes and a file joined after: the samples end at its header.
    let streamed = plain.clone().placeholder_sizes(u32::MAX).bytes();
    let (got, placeholder, appended) = open([streamed.clone(), second].concat());
    assert_eq!((&got, placeholder), (&want, true));
    assert_eq!(appended, Some((streamed.len() as u64, Some(16_000), Some(160))));
    // The data chunk before a 16-byte fmt chunk.
    let (codec, got) = decode_wav_bytes(plain.only(&[b"data", b"fmt "]).bytes());
    assert_eq!((codec.as_str(), &got), ("pcm_mulaw", &want));
}

/// A-law and μ-law WAV files as telephone and call-recording systems write them: the `fmt `
/// chunk of 16 bytes (no extension size), of 20 (an extension of 2 bytes), or
/// WAVE_FORMAT_EXTENSIBLE with the G.711 sub-format (its channel mask says "left, right": a
/// call with one party per channel). ffmpeg reads every one; symphonia refused the first two
/// ("malformed fmt_mulaw chunk") and the extensible μ-law ("unsupported fmt_ext sub-type"),
/// and failed on the extensible A-law at its first packet ("unexpected bits per sample").
/// Each now decodes to the samples of the plain 18-byte chunk, value for value, in both
/// channels; so does one whose sizes are a streaming writer's placeholders, and one cut short
/// is read as far as it goes and said to be truncated, as any WAV is.
#[test]
fn g711_wav_with_any_format_chunk_decodes_as_the_plain_one() {
    // 128 stereo frames: every byte value once, left and right interleaved.
    let bytes: Vec<u8> = (0..=255).collect();
    for (tag, codec) in [(6u16, "pcm_alaw"), (7, "pcm_mulaw")] {
        let plain = Wav::new(tag, 2, 8000, 2, 8, &bytes);
        let (want_codec, want) = decode_wav_bytes(plain.clone().fmt_extension(&[0, 0]).bytes());
        assert_eq!((want_codec.as_str(), want.len()), (codec, 256));
        let mut guid = tag.to_le_bytes().to_vec();
        guid.extend_from_slice(&[0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xAA, 0, 0x38, 0x9B, 0x71]);
        let mut extensible = Wav::new(0xFFFE, 2, 8000, 2, 8, &bytes);
        // cbSize 22, valid bits 8, channel mask FL | FR, the sub-format.
        extensible =
            extensible.fmt_extension(&[[22, 0, 8, 0, 3, 0, 0, 0].as_slice(), &guid].concat());
        let fact = 128u32.to_le_bytes();
        for (what, wav) in [
            ("fmt of 16 bytes", plain.clone()),
            ("fmt of 20 bytes", plain.clone().fmt_extension(&[2, 0, 0, 0])),
            ("fmt of 16 bytes, fact and LIST", {
                let w = plain.clone().insert_before(b"data", b"fact", &fact);
                w.insert_before(b"data", b"LIST", b"INFOISFT\x04\0\0\0pbx\0")
            }),
            ("extensible", extensible.clone().insert_before(b"data", b"fact", &fact)),
            ("fmt of 16 bytes, placeholder sizes", plain.clone().placeholder_sizes(u32::MAX)),
            ("extensible, placeholder sizes", extensible.clone().placeholder_sizes(u32::MAX)),
        ] {
            let (got_codec, got) = decode_wav_bytes(wav.bytes());
            assert_eq!((got_codec.as_str(), &got), (codec, &want), "{codec}, {what}");
        }
        // Cut short: the 100 frames the file holds of the 128 its data chunk declares.
        for (what, wav) in [("fmt of 16 bytes", plain.clone()), ("extensible", extensible)] {
            let mut file = wav.bytes();
            file.truncate(file.len() - 56);
            let mut d = Decoder::from_bytes(file, Some("wav"), &DecodeOptions::default()).unwrap();
            let mut got = Vec::new();
            while let Some(b) = d.next_block().unwrap() {
                got.extend_from_slice(b.interleaved());
            }
            assert_eq!(got, want[..200], "{codec}, {what}, cut short");
            let cut = d.stats().truncated.expect("said to be truncated");
            assert_eq!(cut.read, overtalk::Delta::from_micros(12_500), "{codec}, {what}");
            assert_eq!(cut.declared, Some(overtalk::Delta::from_micros(16_000)), "{what}");
        }
    }
}

/// Decodes all of `bytes` (channel 0) with its info and stats.
fn decode_left(
    d: &mut Decoder,
) -> (overtalk_audio::decode::AudioInfo, overtalk_audio::decode::DecodeStats, Vec<f32>) {
    let mut x = Vec::new();
    while let Some(b) = d.next_block().unwrap() {
        x.extend(b.channel(0));
    }
    (d.info().clone(), d.stats(), x)
}

/// An Ogg stream cut from a longer one (`ffmpeg -copyts -ss 1 -c copy`, a live stream joined
/// late) starts where its first granule position says, ffprobe's `start_time`: Opus at 1.000 s
/// (the pre-skip still dropped), Vorbis's first packet at 36,416 / 44,100 = 0.8258 s, its
/// first sample half a 2048-frame block later (37,440). The burst is at 1.300 s of the
/// original's timeline in both, as ffmpeg plays it.
#[test]
fn an_ogg_stream_that_starts_after_0_keeps_its_times() {
    for (name, rate, lead, priming, frames) in [
        ("burst.late.opus", 48_000, 48_000, 312, 96_000),
        ("burst.late.ogg", 44_100, 37_440, 0, 88_200),
    ] {
        let mut d = Decoder::open(&data(name), &DecodeOptions::default()).unwrap();
        let (info, stats, x) = decode_left(&mut d);
        assert_eq!((info.lead, info.priming, stats.leading_silence), (lead, priming, lead));
        assert!(x[..lead as usize].iter().all(|v| *v == 0.0), "{name}");
        let at = onset(&x, rate);
        assert!((at - 1.300).abs() < 0.001, "{name}: left onset {at}");
        // The declared end is the stream's end on that timeline; nothing reads as truncated.
        assert_eq!(info.declared_duration(), Some(overtalk::Delta::from_micros(2_000_000)));
        assert_eq!((x.len(), stats.frames), (frames, frames as u64), "{name}");
    }
}

/// The edit list of `burst.m4a` (1000 ms of media from its 1024 frames of priming) replaced by
/// one entry: `duration_ms` of media from `media_time`, as an editor's trim writes it.
fn with_media_edit(duration_ms: u32, media_time: u32) -> Vec<u8> {
    let mut f = std::fs::read(data("burst.m4a")).unwrap();
    let at = f.windows(4).position(|w| w == b"elst").unwrap() + 4;
    assert_eq!(&f[at..at + 16], [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0x03, 0xE8, 0, 0, 4, 0]);
    f[at + 8..at + 12].copy_from_slice(&duration_ms.to_be_bytes());
    f[at + 12..at + 16].copy_from_slice(&media_time.to_be_bytes());
    f
}

/// An MP4 edit list that trims the start puts time 0 at the media at its `media_time`, and
/// its duration ends the audio, as ffmpeg plays it: the burst 0.2 s earlier.
#[test]
fn an_mp4_edit_list_that_trims_the_start_is_honoured() {
    // `ffmpeg -ss 0.2 -i burst.m4a -c copy`: the packets kept start 628 frames before 0.2 s
    // (`media_time` 628), 800 ms played.
    let mut d = Decoder::open(&data("burst.trim.m4a"), &DecodeOptions::default()).unwrap();
    let (info, stats, x) = decode_left(&mut d);
    assert_eq!((info.priming, info.lead, stats.leading_silence), (628, 0, 0));
    assert_eq!(x.len(), 35_280);
    let at = onset(&x, 44_100);
    assert!((at - 0.100).abs() < 0.001, "left onset {at}");
    // An editor's trim keeping all the media: 0.2 s and the priming skipped, 0.7 s played.
    let f = with_media_edit(700, 1024 + 8820);
    let mut d = Decoder::from_bytes(f, Some("m4a"), &DecodeOptions::default()).unwrap();
    let (info, _, x) = decode_left(&mut d);
    assert_eq!((info.priming, info.lead), (9844, 0));
    assert_eq!(info.declared_duration(), Some(overtalk::Delta::from_micros(700_000)));
    assert_eq!(x.len(), 30_870);
    let at = onset(&x, 44_100);
    assert!((at - 0.100).abs() < 0.001, "left onset {at}");
}

/// Fragmented MP4 (an index that lists no samples, then fragments: `moof` + `mdat`) decodes to
/// the same samples as the unfragmented file it was remuxed from, packet for packet: AAC in
/// five fragments without a closing `mfra` (as a recorder leaves it), AAC beside a video track
/// (OBS's fragmented MP4), DASH segments joined after their initialisation segment (each with
/// its own `styp` and `sidx`), Opus, and FLAC (its samples exactly those of `burst.flac`).
#[test]
fn fragmented_mp4_decodes_like_the_file_it_was_made_from() {
    let options = DecodeOptions { strict: true, ..DecodeOptions::default() };
    // The fragments of `frag.m4a` and `frag.mp4` (remuxed by ffmpeg 5.1) lost the edit list
    // of the file they were made from: their 1024 frames of priming are kept, as ffmpeg plays
    // them, and the samples after it are those of the original.
    for (name, from, declared, priming, kept) in [
        ("burst.frag.m4a", "burst.m4a", 45_124, 0, 1024),
        ("burst.frag.mp4", "burst.mp4", 45_124, 0, 1024),
        ("burst.dash.m4a", "burst.m4a", 45_124, 1024, 0),
        ("burst.frag.opus.mp4", "burst.opus", 48_312, 312, 0),
    ] {
        let mut d = Decoder::open(&data(name), &options).unwrap();
        let mut x = Vec::new();
        while let Some(b) = d.next_block().unwrap() {
            x.extend_from_slice(b.interleaved());
        }
        let info = d.info().clone();
        assert_eq!((info.declared_frames, info.priming, info.lead), (Some(declared), priming, 0));
        assert_eq!(d.stats().truncated, None, "{name}");
        let mut d = Decoder::open(&data(from), &options).unwrap();
        let mut want = Vec::new();
        while let Some(b) = d.next_block().unwrap() {
            want.extend_from_slice(b.interleaved());
        }
        assert_eq!(x.len(), want.len() + 2 * kept, "{name}");
        assert!(x[2 * kept..] == want, "{name} decodes unlike {from}");
    }
    // FLAC in four fragments of 1152 frames: 0.25–0.35 s of `burst.flac`, re-encoded, so
    // lossless: the very samples, the left burst starting 0.05 s in.
    let (info, ch) = decode_all(&data("burst.frag.flac.mp4"), &options).unwrap();
    assert_eq!((info.codec.as_str(), info.declared_frames, info.priming), ("flac", Some(4410), 0));
    let (_, whole) = decode_all(&data("burst.flac"), &options).unwrap();
    for c in 0..2 {
        assert_eq!(ch[c].len(), 4410);
        assert!(ch[c] == whole[c][11_025..15_435], "channel {c}");
    }
    // The burst starts at 0.3 s (frame 13 230 of the whole); 0.5 sin(2π 1000 t) first passes
    // 0.25 four frames later, 13 234 − 11 025 frames into the clip.
    assert_eq!(ch[0].iter().position(|v| v.abs() > 0.25), Some(2209));
}

/// ffmpeg fragments a track that starts late without an edit list: its first sample (the
/// priming packet) lasts 66 116 frames, a gap on the timeline that no decoded sample fills.
/// The samples decode whole and are not taken for a truncated file; the gap is filled with
/// silence, so the burst comes 1.5 s late, where ffmpeg plays it: the priming packet (kept, as
/// in every AAC file that declares none) at 0, the gap after it, the second packet, where
/// the signal starts, at 66 116 ticks on the file's timeline, and the burst at 1.7993 s.
#[test]
fn a_fragmented_mp4_whose_first_sample_spans_a_gap_is_not_truncated() {
    let options = DecodeOptions { strict: true, ..DecodeOptions::default() };
    let mut d = Decoder::open(&data("burst.offset.frag.mp4"), &options).unwrap();
    let mut x = Vec::new();
    while let Some(b) = d.next_block().unwrap() {
        x.extend(b.channel(0));
    }
    // The durations: 66 116 for the first sample, 1024 for each of the other 44 (this muxing
    // does not shorten the last one to the recording's end).
    assert_eq!(d.info().declared_frames, Some(66_116 + 44 * 1024));
    assert_eq!((d.info().lead, d.info().priming, d.stats().truncated), (0, 0, None));
    // The priming packet, the gap, then 44 packets of 1024 frames.
    assert_eq!(x.len(), 66_116 + 44 * 1024);
    assert!(x[1024..66_116].iter().all(|&v| v == 0.0));
    let s = d.stats();
    // The gap after the priming is where the track starts, as an edit list's empty edit says
    // (a late start, not a drop).
    assert_eq!((s.leading_silence, s.gaps, s.gap_frames, s.clock_resets), (65_092, 0, 0, 0));
    assert!((onset(&x, 44_100) - 1.7993).abs() < 0.001, "{}", onset(&x, 44_100));
}

/// Every clip without a gap in its timestamps decodes without one: the packets' timestamps
/// (milliseconds in Matroska, granule positions in Ogg, sample durations in MP4) follow the
/// samples decoded in every container and codec.
#[test]
fn clips_without_gaps_have_none() {
    let mut names: Vec<&str> = all_clips().into_iter().map(|(name, _, _)| name).collect();
    names.extend([
        "burst.offset.mp4",
        "burst.offset.webm",
        "burst.late.ogg",
        "burst.late.opus",
        "burst.trim.m4a",
        "burst.faststart.m4a",
        "burst.frag.flac.mp4",
        "speech.opus",
        "speech.opus.webm",
    ]);
    for name in names {
        let mut d = Decoder::open(&data(name), &DecodeOptions::default()).unwrap();
        while d.next_block().unwrap().is_some() {}
        let s = d.stats();
        assert_eq!((s.gaps, s.gap_frames, s.clock_resets), (0, 0, 0), "{name}");
    }
}

/// A recorder that dropped 0.5 s of audio (`make.sh`: every frame from 0.418 s on stamped
/// 0.5 s later): the gap is filled with silence, so the right burst, after the drop, comes
/// 0.5 s later than in the clip without it, and the left burst, before the drop, where it
/// was. The timestamps jump in WebM (Opus) and Matroska (AAC, milliseconds); in MP4, plain
/// and fragmented, the sample before the drop lasts 1024 + 22 050 ticks.
#[test]
fn gaps_in_the_timestamps_are_filled_with_silence() {
    for (gapped, plain) in [
        ("burst.gap.webm", "burst.opus"),
        ("burst.gap.mkv", "burst.mkv"),
        ("burst.gap.m4a", "burst.m4a"),
        ("burst.gap.frag.m4a", "burst.frag.m4a"),
    ] {
        let options = DecodeOptions { strict: true, ..DecodeOptions::default() };
        let mut d = Decoder::open(&data(gapped), &options).unwrap();
        let rate = d.info().sample_rate;
        let (mut left, mut right) = (Vec::new(), Vec::new());
        while let Some(b) = d.next_block().unwrap() {
            left.extend(b.channel(0));
            right.extend(b.channel(1));
        }
        let s = d.stats();
        assert_eq!((s.gaps, s.clock_resets, s.truncated), (1, 0, None), "{gapped}");
        // 0.5 s, within Matroska's rounding of two timestamps to the millisecond.
        let gap = s.gap_frames as f64 / f64::from(rate);
        assert!((gap - 0.5).abs() <= 0.0015, "{gapped}: gap {gap}");
        let (_, ch) = decode_all(&data(plain), &DecodeOptions::default()).unwrap();
        let (l, r) = (onset(&left, rate), onset(&right, rate));
        let (pl, pr) = (onset(&ch[0], rate), onset(&ch[1], rate));
        assert!((l - pl).abs() <= 0.001, "{gapped}: left {l} vs {pl}");
        assert!((r - (pr + 0.5)).abs() <= 0.0015, "{gapped}: right {r} vs {pr} + 0.5");
        // The clip's whole length, the drop included.
        let len = left.len() as f64 / f64::from(rate);
        assert!(
            (len - (ch[0].len() as f64 / f64::from(rate) + 0.5)).abs() <= 0.03,
            "{gapped}: {len}"
        );
    }
}

/// Detection says a gap was filled, as a typed warning naming the file, the count and the
/// seconds, printed as the sentence the command line shows.
#[test]
fn a_filled_gap_is_a_typed_warning_of_the_detected_recording() {
    use overtalk_audio::multitrack::TrackWarning;
    use overtalk_audio::pipeline::{detect_recording, DetectOptions, TrackSpec};
    let p = data("burst.gap.m4a");
    let spec = TrackSpec::file("A", p.clone());
    let found = detect_recording(&[spec], &DetectOptions::default(), None, &mut |_| {}).unwrap();
    let gaps = [TrackWarning::TimestampGaps { path: p.clone(), gaps: 1, seconds: 0.5, resets: 0 }];
    assert_eq!(found.warnings, gaps);
    assert_eq!(
        found.warnings[0].to_string(),
        format!(
            "{}: its audio has 1 gap in its timestamps (0.500 s in all: audio the recorder \
             dropped or paused), filled with silence so that later times stay on the file's \
             timeline",
            p.display()
        )
    );
    let both = TrackWarning::TimestampGaps { path: p.clone(), gaps: 2, seconds: 1.25, resets: 3 };
    assert_eq!(
        both.to_string(),
        format!(
            "{}: its audio has 2 gaps in its timestamps (1.250 s in all: audio the recorder \
             dropped or paused), filled with silence so that later times stay on the file's \
             timeline; its timestamps also go back, or jump too far to fill, 3 times \
             (recordings joined with their clocks restarted, or a damaged file?); the audio is \
             kept in file order",
            p.display()
        )
    );
    let reset = TrackWarning::TimestampGaps { path: p.clone(), gaps: 0, seconds: 0.0, resets: 1 };
    assert_eq!(
        reset.to_string(),
        format!(
            "{}: its timestamps go back, or jump too far to fill, once (recordings joined with \
             their clocks restarted, or a damaged file?); the audio is kept in file order",
            p.display()
        )
    );
}

/// A recorder that writes a drop in the fragments' decode times (`tfdt`) alone, the sample
/// durations running on as if nothing were missing: `burst.frag.m4a` with the decode time of
/// every fragment from the third on (at 0.418 s) moved 0.5 s (22 050 ticks) later. symphonia
/// ignores `tfdt`; the decoder reads the jump and fills it, so the right burst (after it)
/// comes 0.5 s later and the left burst (before it) where it was.
#[test]
fn a_jump_in_the_fragments_decode_times_is_filled_with_silence() {
    let mut bytes = std::fs::read(data("burst.frag.m4a")).unwrap();
    let mut at = 0;
    let mut found = 0;
    while let Some(i) = bytes[at..].windows(4).position(|w| w == b"tfdt") {
        let i = at + i;
        found += 1;
        // Version 1: a 64-bit time after the version and flags.
        assert_eq!(bytes[i + 4], 1);
        if found >= 3 {
            let time = u64::from_be_bytes(bytes[i + 8..i + 16].try_into().unwrap()) + 22_050;
            bytes[i + 8..i + 16].copy_from_slice(&time.to_be_bytes());
        }
        at = i + 4;
    }
    assert_eq!(found, 5);
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("dropped.m4a");
    std::fs::write(&p, &bytes).unwrap();
    let options = DecodeOptions { strict: true, ..DecodeOptions::default() };
    let mut d = Decoder::open(&p, &options).unwrap();
    let (mut left, mut right) = (Vec::new(), Vec::new());
    while let Some(b) = d.next_block().unwrap() {
        left.extend(b.channel(0));
        right.extend(b.channel(1));
    }
    let s = d.stats();
    assert_eq!((s.gaps, s.gap_frames, s.clock_resets, s.truncated), (1, 22_050, 0, None));
    let (_, ch) = decode_all(&data("burst.frag.m4a"), &DecodeOptions::default()).unwrap();
    assert_eq!(left.len(), ch[0].len() + 22_050);
    let first = |x: &[f32]| x.iter().position(|v| v.abs() > 0.25).unwrap();
    let (l, r) = (first(&left), first(&right));
    let (pl, pr) = (first(&ch[0]), first(&ch[1]));
    assert_eq!((l, r), (pl, pr + 22_050));
    // The samples after the jump are those of the clip, 22 050 frames later.
    assert_eq!(&right[18_432 + 22_050..], &ch[1][18_432..]);
}

/// Writes `bytes` to a file in a new temporary directory (kept alive by the guard).
fn written(name: &str, bytes: &[u8]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join(name);
    std::fs::write(&p, bytes).unwrap();
    (dir, p)
}

/// A gap after where the audio ends (`burst.gap.m4a` with its edit list ending at 0.3 s,
/// before the drop at 0.418 s) is not delivered, and not reported.
#[test]
fn a_gap_past_the_end_of_the_audio_is_not_reported() {
    let mut bytes = std::fs::read(data("burst.gap.m4a")).unwrap();
    let at = bytes.windows(4).position(|w| w == b"elst").unwrap();
    // Version 0, one entry: segment duration (movie ticks, 1/1000 s), media time.
    assert_eq!(&bytes[at + 4..at + 20], &[0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 5, 0xdc, 0, 0, 4, 0]);
    bytes[at + 12..at + 16].copy_from_slice(&300u32.to_be_bytes());
    let (_dir, p) = written("ends.m4a", &bytes);
    let mut d = Decoder::open(&p, &DecodeOptions::default()).unwrap();
    let mut n = 0;
    while let Some(b) = d.next_block().unwrap() {
        n += b.frames();
    }
    let s = d.stats();
    assert_eq!((n, s.gaps, s.gap_frames, s.clock_resets), (13_230, 0, 0, 0));
}

/// A corrupt packet in Matroska, whose blocks give no length: the silence that replaces it
/// runs to the next packet's timestamp, counted as the corrupt packet (one of them), not as
/// audio the recorder dropped. `burst.opus.mkv` with one block's Opus packet made invalid
/// (code 3, no frames).
#[test]
fn a_corrupt_packet_without_a_length_is_no_drop() {
    let clean = std::fs::read(data("burst.opus.mkv")).unwrap();
    // The tenth one-byte-sized SimpleBlock (0xA3, size 7) of track 1: track, timecode (2),
    // flags, then the 3 bytes of the packet.
    let blocks: Vec<usize> =
        (0..clean.len() - 3).filter(|&i| clean[i..i + 3] == [0xA3, 0x87, 0x81]).collect();
    assert!(blocks.len() >= 10);
    let at = blocks[9] + 6;
    let mut bytes = clean.clone();
    bytes[at] |= 3;
    bytes[at + 1] = 0;
    let (_dir, p) = written("bad.mkv", &bytes);
    let length = |p: &std::path::Path| {
        let mut d = Decoder::open(p, &DecodeOptions::default()).unwrap();
        let mut n = 0;
        while let Some(b) = d.next_block().unwrap() {
            n += b.frames();
        }
        (n, d.stats())
    };
    let (n, s) = length(&p);
    let (clean_n, _) = length(&data("burst.opus.mkv"));
    assert_eq!((s.bad_packets, s.gaps, s.gap_frames, s.clock_resets), (1, 0, 0, 0));
    // The same length, within Matroska's millisecond timestamps.
    assert!(n.abs_diff(clean_n) <= 48, "{n} vs {clean_n}");
}

/// WebM/Opus decodes to exactly ffmpeg's length: the `OpusHead` pre-skip is dropped at the
/// start and the last block's `DiscardPadding` at the end. Tones of lengths that leave
/// different paddings in the last 20 ms packet, made and decoded by ffmpeg (skipped with a
/// printed reason when ffmpeg or its libopus encoder is missing).
#[test]
fn webm_opus_decodes_to_ffmpegs_length() {
    use std::process::Command;
    let dir = tempfile::tempdir().unwrap();
    for (seconds, frames) in [("1.01", 48_480usize), ("0.5", 24_000), ("2.003", 96_144)] {
        let webm = dir.path().join(format!("tone{seconds}.webm"));
        let made = Command::new("ffmpeg")
            .args(["-loglevel", "error", "-y", "-f", "lavfi", "-i"])
            .arg(format!("sine=frequency=440:duration={seconds}:sample_rate=48000"))
            .args(["-c:a", "libopus", "-b:a", "24k"])
            .arg(&webm)
            .status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!(
                "skipping webm_opus_decodes_to_ffmpegs_length: ffmpeg with libopus not found"
            );
            return;
        }
        let pcm = Command::new("ffmpeg")
            .args(["-loglevel", "error", "-i"])
            .arg(&webm)
            .args(["-f", "s16le", "-"])
            .output()
            .unwrap();
        assert_eq!(pcm.stdout.len() / 2, frames, "ffmpeg's own length of {seconds} s");
        let (info, ch) = decode_all(&webm, &DecodeOptions::default()).unwrap();
        assert_eq!((info.sample_rate, ch[0].len()), (48_000, frames), "{seconds} s");
    }
}

/// Two WebM/Opus tones joined by ffmpeg's concat demuxer (`-c copy`): the first one's last
/// block keeps its `DiscardPadding`, now mid-stream, and ffmpeg drops it there as at the end
/// (0.51 s + 0.73 s = 59 520 frames, and the second stream's pre-skip, 312 frames, which a
/// joined stream does not drop: 59 832). Without the mid-stream trim the decoded length is
/// 168 frames (3.5 ms, the first tone's padding) longer. Skipped with a printed reason when ffmpeg or libopus is missing.
#[test]
fn webm_opus_padding_mid_stream_is_dropped_as_ffmpeg_does() {
    use std::process::Command;
    let dir = tempfile::tempdir().unwrap();
    let mut list = String::new();
    for (name, tone) in [("a", "frequency=440:duration=0.51"), ("b", "frequency=660:duration=0.73")]
    {
        let webm = dir.path().join(format!("{name}.webm"));
        let made = Command::new("ffmpeg")
            .args(["-loglevel", "error", "-y", "-f", "lavfi", "-i"])
            .arg(format!("sine={tone}:sample_rate=48000"))
            .args(["-c:a", "libopus", "-b:a", "24k"])
            .arg(&webm)
            .status();
        if !made.is_ok_and(|s| s.success()) {
            eprintln!(
                "skipping webm_opus_padding_mid_stream_is_dropped_as_ffmpeg_does: ffmpeg with \
                 libopus not found"
            );
            return;
        }
        list.push_str(&format!("file '{}'\n", webm.display()));
    }
    let list_path = dir.path().join("list.txt");
    std::fs::write(&list_path, list).unwrap();
    let joined = dir.path().join("ab.webm");
    let made = Command::new("ffmpeg")
        .args(["-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-i"])
        .arg(&list_path)
        .args(["-c", "copy"])
        .arg(&joined)
        .status()
        .unwrap();
    assert!(made.success());
    let pcm = Command::new("ffmpeg")
        .args(["-loglevel", "error", "-i"])
        .arg(&joined)
        .args(["-f", "s16le", "-"])
        .output()
        .unwrap();
    assert_eq!(pcm.stdout.len() / 2, 59_832, "ffmpeg's own length");
    let (info, ch) = decode_all(&joined, &DecodeOptions::default()).unwrap();
    assert_eq!((info.sample_rate, ch[0].len()), (48_000, 59_832));
}

/// AAC's priming (1024 frames) is dropped only where the container declares it, as ffmpeg
/// plays the file: an MP4 edit list (`burst.m4a`), a Matroska `CodecDelay` (`burst.mkv` with
/// its audio track's `Language` element, 7 bytes, replaced by a `CodecDelay` of 23 219 955 ns,
/// 1024 frames at 44.1 kHz, as ffmpeg 6.1 and later write it). Where nothing declares it (ADTS,
/// Matroska from ffmpeg 5.1, an MP4 fragmented without an edit list) it is kept, and the burst
/// plays 1024 frames late, where ffmpeg plays it (0.3 s + 23.2 ms; the first sample over 0.25
/// is frame 13 234 of the left channel with the priming dropped).
#[test]
fn aac_priming_is_dropped_only_where_the_container_declares_it() {
    let mut mkv = std::fs::read(data("burst.mkv")).unwrap();
    let language = [0x22, 0xB5, 0x9C, 0x83, b'u', b'n', b'd'];
    let at: Vec<usize> =
        mkv.windows(7).enumerate().filter(|(_, w)| *w == language).map(|(i, _)| i).collect();
    // The video track's, then the audio track's.
    assert_eq!(at.len(), 2);
    mkv[at[1]..at[1] + 7].copy_from_slice(&[0x56, 0xAA, 0x84, 0x01, 0x62, 0x4E, 0xF3]);
    let (_dir, delayed) = written("delayed.mkv", &mkv);
    for (path, priming, frames, left) in [
        (data("burst.m4a"), 1024, 44_100, 13_234),
        (delayed, 1024, 45_056, 13_234),
        (data("burst.mkv"), 0, 46_080, 14_258),
        (data("burst.aac"), 0, 46_080, 14_258),
        (data("burst.frag.m4a"), 0, 45_124, 14_258),
    ] {
        let (info, ch) = decode_all(&path, &DecodeOptions::default()).unwrap();
        let first = ch[0].iter().position(|v| v.abs() > 0.25);
        assert_eq!(
            (info.codec.as_str(), info.priming, ch[0].len(), first),
            ("aac", priming, frames, Some(left)),
            "{}",
            path.display()
        );
    }
}

/// AAC decodes to ffmpeg's onset and, where the container declares no end, to its length:
/// ADTS, Matroska and an MP4 without an edit list (`-use_editlist 0`, and fragmented), made
/// and decoded by ffmpeg at 44.1 and 16 kHz. An MP4 declares where its samples end (the last
/// sample's duration), which the decoder keeps to and ffmpeg 5.1 does not: its length there is
/// ffmpeg's less the last packet's padding. Skipped with a printed reason when ffmpeg is
/// missing.
#[test]
fn aac_decodes_to_ffmpegs_onset_and_length() {
    use std::process::Command;
    let dir = tempfile::tempdir().unwrap();
    for rate in ["44100", "16000"] {
        for (name, args) in [
            ("adts.aac", &[][..]),
            ("aac.mkv", &[][..]),
            ("noedit.m4a", &["-use_editlist", "0"][..]),
            ("frag.m4a", &["-movflags", "frag_keyframe+empty_moov"][..]),
            ("edit.m4a", &[][..]),
        ] {
            let f = dir.path().join(format!("{rate}.{name}"));
            let made = Command::new("ffmpeg")
                .args(["-loglevel", "error", "-y", "-f", "lavfi", "-i"])
                .arg(format!(
                    "aevalsrc=exprs='0.5*sin(2*PI*1000*t)*between(t,0.3,0.6)':s={rate}:d=1.01"
                ))
                .args(["-c:a", "aac", "-b:a", "32k"])
                .args(args)
                .arg(&f)
                .status();
            if !made.is_ok_and(|s| s.success()) {
                eprintln!(
                    "skipping aac_decodes_to_ffmpegs_onset_and_length: ffmpeg (with its aac \
                     encoder) could not make {}",
                    f.display()
                );
                return;
            }
            let pcm = Command::new("ffmpeg")
                .args(["-loglevel", "error", "-i"])
                .arg(&f)
                .args(["-f", "s16le", "-ac", "1", "-"])
                .output()
                .unwrap();
            let theirs: Vec<f32> = pcm
                .stdout
                .chunks_exact(2)
                .map(|b| f32::from(i16::from_le_bytes([b[0], b[1]])) / 32768.0)
                .collect();
            let (info, ch) = decode_all(&f, &DecodeOptions::default()).unwrap();
            let first = |x: &[f32]| x.iter().position(|v| v.abs() > 0.25);
            assert_eq!(first(&ch[0]), first(&theirs), "{rate}.{name}: onset");
            assert!(first(&ch[0]).is_some(), "{rate}.{name}: no burst");
            if name.ends_with("m4a") {
                // The recording's 1.01 s and the priming the file does not declare.
                let n = (rate.parse::<usize>().unwrap() * 101).div_ceil(100);
                let kept = if name == "edit.m4a" { 0 } else { 1024 };
                assert_eq!(
                    (ch[0].len(), info.priming),
                    (n + kept, 1024 - kept as u64),
                    "{rate}.{name}"
                );
            } else {
                assert_eq!((ch[0].len(), info.priming), (theirs.len(), 0), "{rate}.{name}");
            }
        }
    }
}

/// A Matroska `CodecDelay` that is wrong or hostile (written into `burst.mkv`'s AAC track in
/// place of its 7-byte `Language` element): 0 declares none; one of more than 1 s
/// (0xFFFFFFFF ns, 4.29 s) is refused as a broken header; one of 1 s is taken (44 100
/// frames dropped); an 8-byte element that overruns its track entry is refused by the demuxer
/// (and not read by `mkv_trim::codec_delay`, which stops at a child that overruns its
/// parent). Never a panic or a hang.
#[test]
fn a_wrong_matroska_codec_delay_is_an_answer_not_a_panic() {
    let plain = std::fs::read(data("burst.mkv")).unwrap();
    let language = [0x22, 0xB5, 0x9C, 0x83, b'u', b'n', b'd'];
    let at = plain.windows(7).rposition(|w| w == language).unwrap();
    let decode = |element: [u8; 7]| {
        let mut f = plain.clone();
        f[at..at + 7].copy_from_slice(&element);
        let (_dir, p) = written("delay.mkv", &f);
        match decode_all(&p, &DecodeOptions::default()) {
            Ok((info, ch)) => format!("priming {}, {} frames", info.priming, ch[0].len()),
            Err(e) => e.to_string().replace(&p.display().to_string(), "delay.mkv"),
        }
    };
    assert_eq!(decode([0x56, 0xAA, 0x84, 0, 0, 0, 0]), "priming 0, 46080 frames");
    assert_eq!(
        decode([0x56, 0xAA, 0x84, 0xFF, 0xFF, 0xFF, 0xFF]),
        "delay.mkv: the Matroska audio track declares a CodecDelay of 4.294967 s, longer \
         than any codec's delay (at most 1 s): the track header is broken"
    );
    // 1 s is still taken for a delay: 44 100 of the 46 080 decoded frames are dropped.
    assert_eq!(decode([0x56, 0xAA, 0x84, 0x3B, 0x9A, 0xCA, 0x00]), "priming 44100, 1980 frames");
    assert_eq!(
        decode([0x56, 0xAA, 0x88, 0xFF, 0xFF, 0xFF, 0xFF]),
        "delay.mkv: malformed audio (reading the container header): mkv (ebml): encountered an \
         unexpected element"
    );
}

/// MPEG-1 Layer II at a bitrate the standard does not allow with its channel mode (mono at
/// 384 kbit/s is what `ffmpeg -c:a mp2` writes for a mono input): symphonia's reader refuses
/// its frames, and the file is named for what it is, not as a file without audio. Three
/// frames with empty payloads after an ID3v2 tag, raw and in WAV (format tag 0x0050), and
/// stereo at 32 kbit/s (allowed only in mono); a frame allowed in mono (128 kbit/s) is not
/// taken for one.
#[test]
fn mono_mp2_at_a_forbidden_bitrate_is_named() {
    // A frame at `kbps` (bitrate index `b2 >> 4`), mono (`b3` 0xC4) or stereo (0x04).
    let frame_of = |b2: u8, b3: u8, kbps: usize| {
        let mut f = vec![0xFF, 0xFD, b2, b3];
        f.resize(144 * kbps * 1000 / 44_100, 0);
        f
    };
    let frame = |b2: u8| frame_of(b2, 0xC4, if b2 == 0xE0 { 384 } else { 128 });
    let mut raw = b"ID3\x04\x00\x00\x00\x00\x00\x0A".to_vec();
    raw.extend_from_slice(&[0; 10]);
    (0..3).for_each(|_| raw.extend(frame(0xE0)));
    let wav = plain_wav(0x0050, 1, 0, &raw[20..]);
    let want = "unsupported: the file is MPEG-1 Layer II (MP2) audio in mono at 384 kbit/s, a \
                bitrate the standard does not allow in mono (ffmpeg writes mono MP2 at 384 \
                kbit/s by default), which this decoder does not read; convert it first: ffmpeg";
    for (name, out, bytes) in [("mono.mp2", "mono.wav", &raw), ("mono.wav", "mono.pcm.wav", &wav)] {
        let (_dir, p) = written(name, bytes);
        let e = decode_all(&p, &DecodeOptions::default()).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{0}: {want} -i '{0}' -ac 1 -ar 16000 '{1}'",
                p.display(),
                p.with_file_name(out).display()
            )
        );
    }
    // Stereo at 32 kbit/s, allowed only in mono.
    let stereo: Vec<u8> = (0..3).flat_map(|_| frame_of(0x10, 0x04, 32)).collect();
    let (_dir, p) = written("stereo.mp2", &stereo);
    assert_eq!(
        decode_all(&p, &DecodeOptions::default()).unwrap_err().to_string(),
        format!(
            "{0}: unsupported: the file is MPEG-1 Layer II (MP2) audio in stereo at 32 kbit/s, a \
             bitrate the standard does not allow in stereo, which this decoder does not read; \
             convert it first: ffmpeg -i '{0}' -ar 16000 '{1}'",
            p.display(),
            p.with_extension("wav").display()
        )
    );
    let mut allowed = Vec::new();
    (0..3).for_each(|_| allowed.extend(frame(0x80)));
    let (_dir, p) = written("allowed.mp2", &allowed);
    let (info, ch) = decode_all(&p, &DecodeOptions::default()).unwrap();
    assert_eq!((info.codec.as_str(), ch.len()), ("mp2", 1));
}

/// An edit list whose media edit starts at frame 0 declares no priming: the 1024 frames of it
/// are played, as ffmpeg plays them, with no window of silence added or dropped. Measured with
/// ffmpeg 5.1 on this very file (`ffmpeg -i F -f s16le -ac 2 -`, left channel): first sample
/// over 0.25 at 14 258 (1024 after `burst.m4a`'s 13 234); its length, 45 056, is the last
/// packet played whole (`docs/recordings.md`), where the decoder ends with the edit (1000 ms).
#[test]
fn an_mp4_edit_list_from_media_time_0_plays_the_priming_as_ffmpeg_does() {
    for (media_time, priming, burst) in [(0, 0, 14_258), (1024, 1024, 13_234)] {
        let f = with_media_edit(1000, media_time);
        let mut d = Decoder::from_bytes(f, Some("m4a"), &DecodeOptions::default()).unwrap();
        let (info, stats, x) = decode_left(&mut d);
        assert_eq!((info.priming, info.lead, stats.leading_silence), (priming, 0, 0));
        assert_eq!(x.len(), 44_100);
        assert_eq!(x.iter().position(|v| v.abs() > 0.25), Some(burst), "media_time {media_time}");
    }
}

/// A WAV of 24-bit samples in 4-byte slots (block align 8 for two channels; hound's test file
/// `pcmwaveformat-24bit-4byte-48kHz-stereo.wav`, samples −96, 23 052, 8 388 607, −8 360 672)
/// was read as packed 3-byte samples: every sample but the first from the wrong bytes, with no
/// error (ffmpeg 5.1 reads it the same wrong way). Where a sample lies in its slot is not said,
/// so the file is refused, by name; the same samples in WAVE_FORMAT_EXTENSIBLE with a 32-bit
/// container are read as the format says (the sample in the high bytes).
#[test]
fn wav_samples_padded_in_their_blocks_are_refused_not_misread() {
    let wav = |fmt: &[u8]| {
        let data = [
            0xa0, 0xff, 0xff, 0x00, 0x0c, 0x5a, 0x00, 0x00, 0xff, 0xff, 0x7f, 0x00, 0x20, 0x6d,
            0x80, 0x00,
        ];
        let mut f = b"RIFF".to_vec();
        f.extend((4 + 8 + fmt.len() as u32 + 8 + 16).to_le_bytes());
        f.extend(b"WAVEfmt ");
        f.extend((fmt.len() as u32).to_le_bytes());
        f.extend(fmt);
        f.extend(b"data");
        f.extend(16u32.to_le_bytes());
        f.extend(data);
        f
    };
    // PCM, 2 channels, 48 kHz, 384 000 bytes/s, block align 8, 24 bits.
    let plain = [1, 0, 2, 0, 0x80, 0xbb, 0, 0, 0, 0xdc, 5, 0, 8, 0, 24, 0];
    let e = Decoder::from_bytes(wav(&plain), Some("wav"), &DecodeOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the WAV header declares 24-bit samples in slots of 4 bytes (2 channels in blocks of 8 \
         bytes): where a sample lies in its slot is not said, so it is not guessed; convert the \
         file with the program that wrote it, or to FLAC"
    );
    let mut ext = plain.to_vec();
    ext[0..2].copy_from_slice(&0xFFFEu16.to_le_bytes());
    ext[14] = 32;
    ext.extend([22, 0, 24, 0, 3, 0, 0, 0]);
    ext.extend([1, 0, 0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xaa, 0, 0x38, 0x9b, 0x71]);
    let mut d = Decoder::from_bytes(wav(&ext), Some("wav"), &DecodeOptions::default()).unwrap();
    let (_, _, left) = decode_left(&mut d);
    assert_eq!(left, [0x00FF_FFA0 as f32 / 2f32.powi(31), 0x007F_FFFF as f32 / 2f32.powi(31)]);
}
