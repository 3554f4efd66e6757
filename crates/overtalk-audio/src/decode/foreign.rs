//! Recordings in formats the decoder does not read, named: a phone's AMR file, a Windows Media
//! file, a WAV or MOV whose audio is in a codec without a decoder here. Without a name the
//! user sees a guess (symphonia's probe scans the bytes for a frame marker and may take a Sun
//! AU file's samples for ADTS AAC), or "no audio track" for a MOV whose μ-law track the
//! demuxer skipped, or "invalid UTF-8" when the file is read as a transcript.
//!
//! ```text
//! first bytes      "#!AMR\n"        → AMR-NB (phone recorders)
//! WAV fmt chunk    format tag 0x0031 → GSM 6.10 (call recorders)
//! MOV stsd entry   "ulaw"           → μ-law
//! ```
//!
//! Each is refused with its name and the way out: the exact command that converts it
//! ([`convert_hint`]), with the file's own path quoted for a shell.

use std::ffi::OsStr;
use std::fmt::Write as _;
use std::path::{Component, Path};

use symphonia::core::codecs::audio::AudioCodecId;

use super::mp4_edits::{be_u32, child, children};

/// The format of a recording that the decoder does not read, by its first bytes (at least
/// 12 of them): the containers symphonia has no reader for.
pub fn foreign_container(head: &[u8]) -> Option<&'static str> {
    let at = |i: usize, sig: &[u8]| head.get(i..i + sig.len()) == Some(sig);
    let byte = |i: usize| head.get(i).copied();
    let le16 = |i: usize| Some(u16::from_le_bytes(head.get(i..i + 2)?.try_into().ok()?));
    // Signatures that are ASCII are taken only with the binary header fields that follow
    // them, so that a transcript whose first line begins "MAC JONES:" or "TTA1 …" is text.
    if at(0, b"#!AMR-WB\n") {
        Some("AMR-WB")
    } else if at(0, b"#!AMR\n") {
        Some("AMR")
    } else if at(0, &[0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA]) {
        // The ASF header object's GUID.
        Some("Windows Media (ASF: WMA/WMV)")
    } else if at(0, b".snd") && byte(4) == Some(0) && be_u32(head, 4).is_some_and(|o| o >= 24) {
        // The header's length, big-endian: at least 24, far below 2^24.
        Some("Sun/NeXT AU")
    } else if (at(0, b".RMF") && byte(4) == Some(0)) || at(0, b".ra\xfd") {
        Some("RealMedia")
    } else if at(0, b"MAC ") && le16(4).is_some_and(|v| (3800..=4200).contains(&v)) {
        // The encoder's version, little-endian (3.80–4.20).
        Some("Monkey's Audio (APE)")
    } else if at(0, b"wvpk") && byte(7) == Some(0) {
        // The block's size, little-endian: never 16 MiB.
        Some("WavPack")
    } else if at(0, b"TTA1") && matches!(le16(4), Some(1 | 2)) {
        Some("True Audio (TTA)")
    } else if at(0, b"Creative Voice File\x1a") {
        Some("Creative Voice (VOC)")
    } else if at(0, b"MThd\0\0\0\x06") {
        Some("MIDI (notes, not a recording)")
    } else {
        None
    }
}

/// Whether a format [`foreign_container`] names holds one channel only (AMR-NB and AMR-WB as
/// phones write them), so that its conversion may mix down without losing a channel.
pub fn foreign_is_mono(name: &str) -> bool {
    name.starts_with("AMR")
}

/// Whether ffmpeg can turn a format [`foreign_container`] names into a recording: every one but
/// MIDI, which holds notes, not sound.
pub fn foreign_is_audio(name: &str) -> bool {
    !name.starts_with("MIDI")
}

/// The way out of a refusal, for the end of its message: `convert it first: ` and the ffmpeg
/// command that converts the file at `path` into a WAV file this decoder reads, at 16 kHz (the
/// analysis rate, [`crate::resample::ANALYSIS_RATE`]), mixed down to one channel when the recording has only one
/// (`mono`; otherwise its channels are kept, since a call with one speaker per channel is
/// told apart by them). Every refusal of a format or codec ffmpeg reads ends with it.
///
/// The output is named after the input, in the same folder, with the extension `.wav`
/// (`.pcm.wav` when the input already ends in `.wav`), so the command never overwrites the
/// file it reads. Both paths are quoted for a POSIX shell: in single quotes, a quote inside
/// written `'\''`; a path that is not UTF-8 or holds a control character (a newline) in
/// `$'…'` with its bytes escaped. A relative path that starts with `-` or holds a `:` is
/// written `./…`, so ffmpeg takes it for neither an option nor a protocol (`10:30.amr`).
/// Without a path (decoding bytes held in memory) the command names `IN` and `OUT.wav`.
///
/// ```
/// use std::path::Path;
/// use overtalk_audio::decode::convert_hint;
/// assert_eq!(
///     convert_hint(Some(Path::new("it's a call.amr")), true),
///     r"convert it first: ffmpeg -i 'it'\''s a call.amr' -ac 1 -ar 16000 'it'\''s a call.wav'"
/// );
/// assert_eq!(
///     convert_hint(Some(Path::new("gsm.wav")), false),
///     "convert it first: ffmpeg -i 'gsm.wav' -ar 16000 'gsm.pcm.wav'"
/// );
/// assert_eq!(convert_hint(None, true), "convert it first: ffmpeg -i IN -ac 1 -ar 16000 OUT.wav");
/// ```
pub fn convert_hint(path: Option<&Path>, mono: bool) -> String {
    format!("convert it first: {}", convert_command(path, mono, crate::resample::ANALYSIS_RATE))
}

/// The ffmpeg command of [`convert_hint`] alone, at a chosen sample rate: the file at `path`
/// decoded to a WAV beside it at `rate` Hz (mono when `mono`), both paths quoted for a shell.
///
/// ```
/// use std::path::Path;
/// use overtalk_audio::decode::convert_command;
/// assert_eq!(
///     convert_command(Some(Path::new("joined show.mp3")), false, 44_100),
///     "ffmpeg -i 'joined show.mp3' -ar 44100 'joined show.wav'"
/// );
/// assert_eq!(convert_command(None, true, 8_000), "ffmpeg -i IN -ac 1 -ar 8000 OUT.wav");
/// ```
pub fn convert_command(path: Option<&Path>, mono: bool, rate: u32) -> String {
    let channels = if mono { "-ac 1 " } else { "" };
    let (input, output) = match path.filter(|p| p.file_name().is_some()) {
        Some(path) => {
            // `.WAV` too: the same file where names ignore case.
            let wav = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("wav"));
            let out = path.with_extension(if wav { "pcm.wav" } else { "wav" });
            (shell_word(path), shell_word(&out))
        }
        None => ("IN".to_owned(), "OUT.wav".to_owned()),
    };
    format!("ffmpeg -i {input} {channels}-ar {rate} {output}")
}

/// `path` as one word of a POSIX shell command line, for ffmpeg ([`convert_hint`]).
fn shell_word(path: &Path) -> String {
    let risky = match path.components().next() {
        Some(Component::Normal(first)) => {
            let first = os_bytes(first);
            first.first() == Some(&b'-') || first.contains(&b':')
        }
        _ => false,
    };
    let path = if risky { Path::new(".").join(path) } else { path.to_path_buf() };
    match path.to_str().filter(|t| !t.chars().any(char::is_control)) {
        Some(t) => format!("'{}'", t.replace('\'', r"'\''")),
        None => {
            // ANSI-C quoting: every byte but printable ASCII escaped.
            let mut quoted = String::from("$'");
            for &b in &os_bytes(path.as_os_str()) {
                match b {
                    b'\'' | b'\\' => {
                        quoted.push('\\');
                        quoted.push(char::from(b));
                    }
                    0x20..=0x7E => quoted.push(char::from(b)),
                    _ => {
                        let _ = write!(quoted, "\\x{b:02x}");
                    }
                }
            }
            quoted.push('\'');
            quoted
        }
    }
}

/// The bytes of a name as the system spells it (Unix: as they are; elsewhere: its text).
fn os_bytes(name: &OsStr) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        name.as_bytes().to_vec()
    }
    #[cfg(not(unix))]
    {
        name.to_string_lossy().into_owned().into_bytes()
    }
}

/// The codec of a WAV format tag that the decoder does not read (those it reads, PCM, float,
/// A-law, μ-law and the two ADPCMs, are `None`), from the registry of RFC 2361 and Microsoft's
/// `mmreg.h`.
pub(super) fn wav_codec(tag: u16) -> Option<&'static str> {
    Some(match tag {
        0x0001 | 0x0002 | 0x0003 | 0x0006 | 0x0007 | 0x0011 | 0xFFFE => return None,
        0x0010 => "OKI ADPCM",
        0x0014 | 0x0040 | 0x0045 | 0x0064 => "G.721/G.723/G.726 ADPCM",
        0x0020 => "Yamaha ADPCM",
        0x0022 => "DSP Group TrueSpeech",
        0x0031 => "GSM 6.10",
        0x0042 => "G.723.1",
        0x0050 => "MPEG-1 audio (Layer 1 or 2)",
        0x0055 => "MPEG Layer 3 (MP3)",
        0x0057 => "AMR-NB",
        0x0058 => "AMR-WB",
        0x0083 | 0x0133 => "G.729",
        0x00FF | 0x1610 => "AAC",
        0x0160..=0x0163 => "Windows Media Audio",
        0x0270 => "Sony ATRAC3",
        0x028F => "G.722",
        0x2000 => "AC-3 (Dolby Digital)",
        0x2001 => "DTS",
        0x674F..=0x6751 | 0x676F..=0x6771 => "Vorbis",
        0x704F => "Opus",
        0xF1AC => "FLAC",
        _ => "a codec",
    })
}

/// The format tag of a WAV file's `fmt ` chunk body (the sub-format of an extensible one).
pub(super) fn wav_format_tag(fmt: &[u8]) -> Option<u16> {
    let tag = u16::from_le_bytes(fmt.get(0..2)?.try_into().ok()?);
    if tag == 0xFFFE {
        // WAVE_FORMAT_EXTENSIBLE: the sub-format GUID starts with the tag, at byte 24.
        return Some(u16::from_le_bytes(fmt.get(24..26)?.try_into().ok()?));
    }
    Some(tag)
}

/// For a PCM or float WAV `fmt ` chunk whose blocks give each sample more bytes than its
/// size needs (24-bit samples in 4-byte slots, block align 8 for two channels, as some
/// writers make them): `(bits, bytes per sample in a block, channels)`. symphonia reads such
/// samples packed (3 bytes each), so every sample after the first would be read from the
/// wrong bytes; and whether the padding is before or after the sample is not said (hound pads
/// after, the format's rule for WAVE_FORMAT_EXTENSIBLE is before), so no reading is safe.
/// `None` for any other chunk (an extensible one whose container size is the slot is read as
/// the standard says).
pub(super) fn wav_padded_samples(fmt: &[u8]) -> Option<(u16, u16, u16)> {
    let u16_at = |at: usize| Some(u16::from_le_bytes(fmt.get(at..at + 2)?.try_into().ok()?));
    let (channels, block_align, bits) = (u16_at(2)?, u16_at(12)?, u16_at(14)?);
    if !matches!(wav_format_tag(fmt)?, 1 | 3) || channels == 0 || bits == 0 {
        return None;
    }
    let slot = block_align / channels;
    (block_align % channels == 0 && slot > bits.div_ceil(8)).then_some((bits, slot, channels))
}

/// The error for a chunk [`wav_padded_samples`] finds (WAV or RF64): the layout named.
pub(super) fn wav_padded_error(fmt: &[u8]) -> Option<overtalk::Error> {
    let (bits, slot, channels) = wav_padded_samples(fmt)?;
    Some(overtalk::Error::recording(
        overtalk::error::RecordingProblem::Corrupt,
        format!(
            "the WAV header declares {bits}-bit samples in slots of {slot} bytes ({channels} \
             channel{} in blocks of {} bytes): where a sample lies in its slot is not said, so \
             it is not guessed; convert the file with the program that wrote it, or to FLAC",
            if channels == 1 { "" } else { "s" },
            u32::from(slot) * u32::from(channels)
        ),
    ))
}

/// An MPEG-1 Layer II frame header (4 bytes) whose bitrate the standard does not allow with
/// its channel mode (ISO/IEC 11172-3 §2.4.2.3): 224–384 kbit/s in mono (ffmpeg's `-c:a mp2`
/// writes mono at 384 kbit/s by default), 32, 48, 56 or 80 kbit/s in stereo. symphonia's
/// reader refuses such frames, so the file looks as if it held no audio; the decoder says
/// what it holds instead. `Some((kbit/s, "mono" | "stereo"))` for such a header.
pub(super) fn forbidden_layer2(header: &[u8]) -> Option<(u32, &'static str)> {
    const KBPS: [u32; 15] = [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384];
    let [0xFF, b1, b2, b3] = *header.get(..4)? else { return None };
    // MPEG-1 (version bits 11), Layer II (layer bits 10).
    if b1 & 0xFE != 0xFC {
        return None;
    }
    let kbps = *KBPS.get(usize::from(b2 >> 4))?;
    let mono = b3 >> 6 == 3;
    match (mono, kbps) {
        (true, 224..) => Some((kbps, "mono")),
        (false, 32 | 48 | 56 | 80) => Some((kbps, "stereo")),
        _ => None,
    }
}

/// The name of a codec symphonia knows by its identifier but has no decoder for here.
pub(super) fn codec_name(id: AudioCodecId) -> Option<&'static str> {
    use symphonia::core::codecs::audio::well_known as c;
    Some(match id {
        c::CODEC_ID_AC3 => "AC-3 (Dolby Digital)",
        c::CODEC_ID_EAC3 => "Enhanced AC-3 (Dolby Digital Plus)",
        c::CODEC_ID_AC4 => "Dolby AC-4",
        c::CODEC_ID_DCA => "DTS",
        c::CODEC_ID_WMA => "Windows Media Audio",
        c::CODEC_ID_SPEEX => "Speex",
        c::CODEC_ID_MUSEPACK => "Musepack",
        c::CODEC_ID_ATRAC1 | c::CODEC_ID_ATRAC3 | c::CODEC_ID_ATRAC3PLUS | c::CODEC_ID_ATRAC9 => {
            "ATRAC"
        }
        c::CODEC_ID_RA10 | c::CODEC_ID_RA20 | c::CODEC_ID_SIPR | c::CODEC_ID_COOK => "RealAudio",
        c::CODEC_ID_SBC | c::CODEC_ID_APTX | c::CODEC_ID_APTX_HD | c::CODEC_ID_LDAC => {
            "a Bluetooth codec"
        }
        c::CODEC_ID_WAVPACK => "WavPack",
        c::CODEC_ID_MONKEYS_AUDIO => "Monkey's Audio",
        c::CODEC_ID_TTA => "True Audio",
        _ => return None,
    })
}

/// The sample entries of a `moov` box's sound tracks (`hdlr` "soun"), in track order: the
/// codec of each, as its four-character code.
pub(super) fn mp4_sound_entries(moov: &[u8]) -> Vec<[u8; 4]> {
    children(moov)
        .filter(|(kind, _)| kind == b"trak")
        .filter_map(|(_, trak)| {
            let mdia = child(trak, b"mdia")?;
            // hdlr: version and flags (4), pre-defined (4), handler type (4).
            let hdlr = child(mdia, b"hdlr")?;
            if hdlr.get(8..12)? != b"soun" {
                return None;
            }
            let stsd = child(child(child(mdia, b"minf")?, b"stbl")?, b"stsd")?;
            // stsd: version and flags (4), entry count (4), then the entries as boxes.
            let (kind, _) = children(stsd.get(8..)?).next()?;
            Some(kind)
        })
        .collect()
}

/// The name of an MP4/MOV sound sample entry's codec, for an error.
pub(super) fn mp4_entry_name(entry: [u8; 4]) -> String {
    let known = match &entry {
        b"ulaw" => "μ-law",
        b"alaw" => "A-law",
        b"ima4" => "IMA ADPCM",
        b"samr" => "AMR-NB",
        b"sawb" => "AMR-WB",
        b"sevc" | b"secb" | b"sqcp" => "a phone codec (EVRC or QCELP)",
        b"ac-3" => "AC-3 (Dolby Digital)",
        b"ec-3" => "Enhanced AC-3 (Dolby Digital Plus)",
        b"ac-4" => "Dolby AC-4",
        b"dtsc" | b"dtsh" | b"dtsl" | b"dtse" => "DTS",
        b"MAC3" | b"MAC6" => "MACE",
        b"QDM2" | b"QDMC" => "QDesign",
        b"Qclp" => "QCELP",
        _ => "",
    };
    let code: String = entry
        .iter()
        .map(|&b| if b.is_ascii_graphic() || b == b' ' { b as char } else { '?' })
        .collect();
    if known.is_empty() {
        format!("'{code}'")
    } else {
        format!("{known} ('{code}')")
    }
}

#[cfg(test)]
mod tests {
    use super::super::mp4_edits::boxed;
    use super::*;

    #[test]
    fn formats_without_a_reader_are_named_by_their_first_bytes() {
        assert_eq!(foreign_container(b"#!AMR\n\x3c\x91\x17\x16\xbe\x66"), Some("AMR"));
        assert_eq!(foreign_container(b"#!AMR-WB\n\x04\x10\x20"), Some("AMR-WB"));
        let asf = [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11, 0xA6, 0xD9, 0x00, 0xAA];
        assert_eq!(foreign_container(&asf), Some("Windows Media (ASF: WMA/WMV)"));
        assert_eq!(foreign_container(b".snd\0\0\0\x18\xff\xff\xff\xff"), Some("Sun/NeXT AU"));
        assert_eq!(foreign_container(b".snd\0\0\0\x04\xff\xff\xff\xff"), None, "no AU header");
        assert_eq!(
            foreign_container(b"MThd\0\0\0\x06\0\x01\0\x02"),
            Some("MIDI (notes, not a recording)")
        );
        // What the decoder reads, text, and too little to tell.
        assert_eq!(foreign_container(b"RIFF\x24\0\0\0WAVEfmt "), None);
        assert_eq!(foreign_container(b"#!AMR"), None);
        // Text that begins with an ASCII signature stays text.
        for text in [
            &b"MAC JONES: Hello there"[..],
            b"TTA1 minutes of the meeting",
            b"wvpk notes",
            b".snd is a file name",
            b".RMF archive",
            b"Creative Voices podcast, episode 4",
        ] {
            assert_eq!(foreign_container(text), None, "{}", String::from_utf8_lossy(text));
        }
        assert_eq!(foreign_container(b"MAC \x96\x0f\0\0\0\0\0\0"), Some("Monkey's Audio (APE)"));
        assert_eq!(foreign_container(b"TTA1\x01\0\x02\0\x10\0"), Some("True Audio (TTA)"));
        assert_eq!(foreign_container(b"wvpk\x20\x10\0\0\x10\x04"), Some("WavPack"));
        assert_eq!(foreign_container(b"SPEAKER a 1 0.0 1.0 <NA>"), None);
        assert_eq!(foreign_container(b""), None);
    }

    #[test]
    fn the_conversion_command_quotes_the_path_and_never_writes_over_it() {
        let hint = |p: &str, mono| convert_hint(Some(Path::new(p)), mono);
        assert_eq!(
            hint("/data/calls/Bob's call 1.amr", true),
            r"convert it first: ffmpeg -i '/data/calls/Bob'\''s call 1.amr' -ac 1 -ar 16000 '/data/calls/Bob'\''s call 1.wav'"
        );
        // A WAV in a codec without a decoder: the output is not the input, whatever its case.
        assert_eq!(
            hint("gsm.wav", true),
            "convert it first: ffmpeg -i 'gsm.wav' -ac 1 -ar 16000 'gsm.pcm.wav'"
        );
        assert_eq!(
            hint("GSM.WAV", false),
            "convert it first: ffmpeg -i 'GSM.WAV' -ar 16000 'GSM.pcm.wav'"
        );
        assert_eq!(hint("memo", false), "convert it first: ffmpeg -i 'memo' -ar 16000 'memo.wav'");
        assert_eq!(
            hint("a.b/memo", false),
            "convert it first: ffmpeg -i 'a.b/memo' -ar 16000 'a.b/memo.wav'"
        );
        // Neither an option nor a protocol to ffmpeg.
        assert_eq!(
            hint("-x.amr", true),
            "convert it first: ffmpeg -i './-x.amr' -ac 1 -ar 16000 './-x.wav'"
        );
        assert_eq!(
            hint("10:30 call.wma", false),
            "convert it first: ffmpeg -i './10:30 call.wma' -ar 16000 './10:30 call.wav'"
        );
        assert_eq!(
            hint("in/10:30.wma", false),
            "convert it first: ffmpeg -i 'in/10:30.wma' -ar 16000 'in/10:30.wav'"
        );
        // A newline, a backslash and a quote: ANSI-C quoting, byte for byte.
        assert_eq!(
            hint("a\nb\\'c.amr", true),
            r"convert it first: ffmpeg -i $'a\x0ab\\\'c.amr' -ac 1 -ar 16000 $'a\x0ab\\\'c.wav'"
        );
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStrExt;
            let latin1 = Path::new(OsStr::from_bytes(b"caf\xe9.amr"));
            assert_eq!(
                convert_hint(Some(latin1), true),
                r"convert it first: ffmpeg -i $'caf\xe9.amr' -ac 1 -ar 16000 $'caf\xe9.wav'"
            );
        }
        assert_eq!(convert_hint(None, false), "convert it first: ffmpeg -i IN -ar 16000 OUT.wav");
        assert_eq!(convert_hint(Some(Path::new("/")), false), convert_hint(None, false));
        assert!(foreign_is_mono("AMR-WB") && !foreign_is_mono("Sun/NeXT AU"));
        assert!(foreign_is_audio("AMR") && !foreign_is_audio("MIDI (notes, not a recording)"));
    }

    #[test]
    fn wav_tags_name_the_codecs_without_a_decoder() {
        for read in [0x0001, 0x0003, 0x0006, 0x0007, 0x0002, 0x0011] {
            assert_eq!(wav_codec(read), None, "{read:#x}");
        }
        assert_eq!(wav_codec(0x0031), Some("GSM 6.10"));
        assert_eq!(wav_codec(0x0055), Some("MPEG Layer 3 (MP3)"));
        assert_eq!(wav_codec(0x1234), Some("a codec"));
        let mut fmt = vec![0u8; 40];
        fmt[0..2].copy_from_slice(&0xFFFEu16.to_le_bytes());
        fmt[24..26].copy_from_slice(&0x0031u16.to_le_bytes());
        assert_eq!(wav_format_tag(&fmt), Some(0x0031), "extensible: the sub-format");
        assert_eq!(wav_format_tag(&fmt[..20]), None, "cut before the sub-format");
        assert_eq!(wav_format_tag(&[0x31, 0x00]), Some(0x0031));
        assert_eq!(wav_format_tag(&[0x31]), None);
    }

    #[test]
    fn sound_tracks_name_their_sample_entry() {
        let track = |handler: &[u8; 4], entry: &[u8; 4]| {
            let mut hdlr = vec![0u8; 8];
            hdlr.extend_from_slice(handler);
            hdlr.extend_from_slice(&[0u8; 12]);
            let mut stsd = vec![0, 0, 0, 0, 0, 0, 0, 1];
            stsd.extend(boxed(entry, &[0u8; 28]));
            let stbl = boxed(b"stbl", &boxed(b"stsd", &stsd));
            let minf = boxed(b"minf", &stbl);
            let mdia = boxed(b"mdia", &[boxed(b"hdlr", &hdlr), minf].concat());
            boxed(b"trak", &mdia)
        };
        let moov =
            [track(b"vide", b"avc1"), track(b"soun", b"ulaw"), track(b"soun", b"samr")].concat();
        assert_eq!(mp4_sound_entries(&moov), [*b"ulaw", *b"samr"]);
        assert_eq!(mp4_entry_name(*b"ulaw"), "μ-law ('ulaw')");
        assert_eq!(mp4_entry_name(*b"samr"), "AMR-NB ('samr')");
        assert_eq!(mp4_entry_name(*b"zz\x01z"), "'zz?z'");
        // A truncated stsd: no entry, no panic.
        assert!(mp4_sound_entries(&boxed(b"trak", &[0u8; 3])).is_empty());
    }

    #[test]
    fn codecs_known_by_identifier_are_named() {
        use symphonia::core::codecs::audio::well_known as c;
        assert_eq!(codec_name(c::CODEC_ID_AC3), Some("AC-3 (Dolby Digital)"));
        assert_eq!(codec_name(c::CODEC_ID_FLAC), None);
    }
}
