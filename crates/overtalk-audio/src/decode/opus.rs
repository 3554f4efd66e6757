//! Opus as a symphonia decoder, in pure Rust: the `opus-rs` crate (a port of libopus 1.6's
//! SILK, CELT and hybrid decoders), so the default build reads Ogg Opus and Opus in
//! WebM/Matroska with no system library. (It replaced the `opus-decoder` crate, whose CELT
//! path computed every FFT as a direct transform with a sine and a cosine per term: an hour
//! of WebM/Opus took ten minutes to decode; with `opus-rs`, a minute of CELT takes 0.1 s and
//! matches libopus to 9e-8.)
//!
//! symphonia demuxes the container and hands over the `OpusHead` as the track's extra data;
//! this decoder reads the channel mapping from it and decodes each packet at 48 kHz. Mono and
//! stereo Opus (one stream) decode; multistream Opus (5.1 and other layouts of more than one
//! stream) is refused with a clear error.
//!
//! The pre-skip is not applied here: [`super::Decoder`] drops it itself (it can span several
//! packets) and zeroes it in the header it passes on. The container's per-packet trims (the Ogg
//! granule position of the last page) are applied; Matroska's `DiscardPadding`, which the
//! demuxer does not pass on, is applied by [`super::Decoder`] (the `mkv_trim` submodule). A packet the decoder rejects is a
//! `DecodeError`, which the caller replaces by silence of the packet's length and counts.
//!
//! **Against libopus.** Test `opus_matches_libopus` in `tests/decode.rs` holds a SILK speech
//! clip (`speech.opus`, in Ogg and in WebM) to libopus 1.3.1's 16-bit output: within one
//! 16-bit step everywhere (101.3 dB). A minute of CELT speech (ffmpeg's libopus encoder at its
//! defaults) matches ffmpeg's decoder to 9e-8 (138 dB), decoded in 0.09 s.

use opus_rs::OpusDecoder as Stream;
use symphonia::core::audio::{
    layouts, AsGenericAudioBufferRef, AudioBuffer, AudioMut, AudioSpec, GenericAudioBufferRef,
};
use symphonia::core::codecs::audio::well_known::CODEC_ID_OPUS;
use symphonia::core::codecs::audio::{
    AudioCodecParameters, AudioDecoder, AudioDecoderOptions, FinalizeResult,
};
use symphonia::core::codecs::registry::{RegisterableAudioDecoder, SupportedAudioCodec};
use symphonia::core::codecs::CodecInfo;
use symphonia::core::errors::{Error, Result};
use symphonia::core::packet::PacketRef;

/// Opus always decodes at 48 kHz here (the header's input rate is only informative).
const RATE: u32 = 48_000;

/// The longest packet Opus allows: 120 ms (RFC 6716 §3.2.5), in frames at 48 kHz.
const MAX_PACKET_FRAMES: usize = 5_760;

/// The codecs this decoder registers for.
const SUPPORTED: &[SupportedAudioCodec] = &[SupportedAudioCodec {
    id: CODEC_ID_OPUS,
    info: CodecInfo { short_name: "opus", long_name: "Opus (pure Rust)", profiles: &[] },
}];

/// A symphonia [`AudioDecoder`] for Opus built on the pure-Rust `opus-rs` crate.
pub(crate) struct OpusDecoder {
    params: AudioCodecParameters,
    inner: Stream,
    channels: usize,
    /// Interleaved output of the last packet.
    pcm: Vec<f32>,
    buf: AudioBuffer<f32>,
}

/// The channel count of a one-stream Opus track, read from its `OpusHead` (RFC 7845 §5.1.1);
/// without a header (a container that carries none) the track's channel count decides.
/// Multistream layouts are refused (see the module documentation).
fn channels(head: Option<&[u8]>, declared: Option<usize>) -> Result<usize> {
    let Some(head) = head.filter(|h| h.starts_with(b"OpusHead")) else {
        return match declared {
            Some(c @ 1..=2) => Ok(c),
            _ => Err(Error::Unsupported("only mono and stereo Opus are supported")),
        };
    };
    if head.len() < 19 {
        return Err(Error::DecodeError("opus: the OpusHead is shorter than 19 bytes"));
    }
    let count = usize::from(head[9]);
    if head[18] == 0 {
        return match count {
            1..=2 => Ok(count),
            _ => Err(Error::DecodeError("opus: mapping family 0 with more than two channels")),
        };
    }
    // Mapping families 1 and 255: one stream whose channels map in order is plain Opus.
    let table = head.get(19..21 + count).ok_or(Error::DecodeError(
        "opus: the OpusHead stream map is shorter than its channel count",
    ))?;
    let one_stream = matches!((count, table), (1, [1, 0, 0]) | (2, [1, 1, 0, 1]));
    if one_stream {
        Ok(count)
    } else {
        Err(Error::Unsupported("multistream Opus is not supported; only mono and stereo Opus are"))
    }
}

/// A decoder at the start of a stream of `channels` channels.
fn fresh(channels: usize) -> Result<Stream> {
    Stream::new(RATE as i32, channels)
        .map_err(|_| Error::Unsupported("opus: the decoder refused the stream layout"))
}

impl OpusDecoder {
    fn try_new(params: &AudioCodecParameters) -> Result<OpusDecoder> {
        let declared = params.channels.as_ref().map(|c| c.count());
        let n = channels(params.extra_data.as_deref(), declared)?;
        let inner = fresh(n)?;
        let layout = match &params.channels {
            Some(c) if c.count() == n => c.clone(),
            _ if n == 1 => layouts::CHANNEL_LAYOUT_MONO,
            _ => layouts::CHANNEL_LAYOUT_STEREO,
        };
        Ok(OpusDecoder {
            params: params.clone(),
            inner,
            channels: n,
            pcm: vec![0.0; MAX_PACKET_FRAMES * n],
            buf: AudioBuffer::new(AudioSpec::new(RATE, layout), MAX_PACKET_FRAMES),
        })
    }
}

impl AudioDecoder for OpusDecoder {
    fn reset(&mut self) {
        if let Ok(d) = fresh(self.channels) {
            self.inner = d;
        }
    }

    fn codec_info(&self) -> &CodecInfo {
        &SUPPORTED[0].info
    }

    fn codec_params(&self) -> &AudioCodecParameters {
        &self.params
    }

    fn decode_ref(&mut self, packet: &PacketRef<'_>) -> Result<GenericAudioBufferRef<'_>> {
        self.buf.clear();
        // An empty packet would ask for loss concealment; the container never sends one on
        // purpose, so it is malformed input.
        if packet.data.is_empty() {
            return Err(Error::DecodeError("opus: empty packet"));
        }
        let frames = match self.inner.decode(packet.data, MAX_PACKET_FRAMES, &mut self.pcm) {
            Ok(n) if n <= MAX_PACKET_FRAMES => n,
            Ok(_) => return Err(Error::DecodeError("opus: packet longer than 120 ms")),
            Err(_) => {
                // The decoder state after a rejected packet is not trusted: start afresh.
                self.reset();
                return Err(Error::DecodeError("opus: invalid packet"));
            }
        };
        self.buf.render_uninit(Some(frames));
        let channels = self.channels;
        for c in 0..channels {
            if let Some(plane) = self.buf.plane_mut(c) {
                for (dst, frame) in plane.iter_mut().zip(self.pcm.chunks_exact(channels)) {
                    *dst = frame[c];
                }
            }
        }
        let trim = |d: u64| usize::try_from(d).unwrap_or(usize::MAX);
        self.buf.trim(trim(packet.trim_start.get()), trim(packet.trim_end.get()));
        Ok(self.buf.as_generic_audio_buffer_ref())
    }

    fn finalize(&mut self) -> FinalizeResult {
        FinalizeResult::default()
    }

    fn last_decoded(&self) -> GenericAudioBufferRef<'_> {
        self.buf.as_generic_audio_buffer_ref()
    }
}

impl RegisterableAudioDecoder for OpusDecoder {
    fn try_registry_new(
        params: &AudioCodecParameters,
        _opts: &AudioDecoderOptions,
    ) -> Result<Box<dyn AudioDecoder>> {
        Ok(Box::new(OpusDecoder::try_new(params)?))
    }

    fn supported_codecs() -> &'static [SupportedAudioCodec] {
        SUPPORTED
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use symphonia::core::packet::Packet;
    use symphonia::core::units::{Duration, Timestamp};

    fn packet(data: Vec<u8>) -> Packet {
        Packet::new(0, Timestamp::ZERO, Duration::new(960), data)
    }

    fn head(channels: u8, family: u8, rest: &[u8]) -> Vec<u8> {
        let mut h = b"OpusHead".to_vec();
        h.extend_from_slice(&[1, channels, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, family]);
        h.extend_from_slice(rest);
        h
    }

    #[test]
    fn one_stream_layouts_are_plain_opus() {
        assert_eq!(channels(Some(&head(2, 0, &[])), Some(2)).unwrap(), 2);
        assert_eq!(channels(Some(&head(1, 1, &[1, 0, 0])), Some(1)).unwrap(), 1);
        assert_eq!(channels(Some(&head(2, 255, &[1, 1, 0, 1])), None).unwrap(), 2);
        assert_eq!(channels(None, Some(1)).unwrap(), 1);
    }

    #[test]
    fn multistream_and_broken_headers_are_errors_not_panics() {
        let cases: [(Vec<u8>, &str); 5] = [
            (b"OpusHead\x01\x02".to_vec(), "opus: the OpusHead is shorter than 19 bytes"),
            (head(3, 0, &[]), "opus: mapping family 0 with more than two channels"),
            (
                head(6, 1, &[4, 2, 0, 4]),
                "opus: the OpusHead stream map is shorter than its channel count",
            ),
            (
                head(6, 1, &[4, 2, 0, 4, 1, 2, 3, 5]),
                "multistream Opus is not supported; only mono and stereo Opus are",
            ),
            (
                head(2, 1, &[2, 0, 0, 1]),
                "multistream Opus is not supported; only mono and stereo Opus are",
            ),
        ];
        for (h, want) in cases {
            match channels(Some(&h), None) {
                Err(Error::DecodeError(m) | Error::Unsupported(m)) => assert_eq!(m, want),
                other => panic!("{want}: got {other:?}"),
            }
        }
        match channels(None, Some(3)) {
            Err(Error::Unsupported(m)) => {
                assert_eq!(m, "only mono and stereo Opus are supported")
            }
            other => panic!("got {other:?}"),
        }
    }

    #[test]
    fn garbage_packets_are_decode_errors_and_the_next_packet_decodes() {
        let params = AudioCodecParameters {
            codec: CODEC_ID_OPUS,
            sample_rate: Some(RATE),
            channels: None,
            extra_data: Some(head(1, 0, &[]).into_boxed_slice()),
            ..Default::default()
        };
        let mut d = OpusDecoder::try_new(&params).unwrap();
        // A deterministic byte soup: every TOC byte, nine lengths (xorshift bytes).
        let mut x: u32 = 0x9E37_79B9;
        let (mut ok, mut bad) = (0u32, 0u32);
        for toc in 0..=255u8 {
            for len in [1usize, 2, 3, 5, 8, 13, 21, 34, 55] {
                let mut p = vec![toc];
                for _ in 1..len {
                    x ^= x << 13;
                    x ^= x >> 17;
                    x ^= x << 5;
                    p.push(x as u8);
                }
                match d.decode(&packet(p)) {
                    Ok(b) => {
                        assert!(b.frames() <= MAX_PACKET_FRAMES);
                        ok += 1;
                    }
                    Err(Error::DecodeError(_)) => bad += 1,
                    Err(e) => panic!("toc {toc} len {len}: {e}"),
                }
            }
        }
        // The split is the decoder's (opus-rs); what matters is no panic and the recovery below.
        assert_eq!((ok, bad), (1064, 1240));
        // A 20 ms CELT silence frame (TOC 0xF8, code 0) still decodes after all that.
        assert_eq!(d.decode(&packet(vec![0xF8, 0xFF, 0xFE])).unwrap().frames(), 960);
    }
}
