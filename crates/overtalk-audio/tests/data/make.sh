#!/usr/bin/env bash
# Regenerates the small coded clips used by tests/decode.rs (needs ffmpeg, espeak-ng, sox,
# opus-tools and mkvtoolnix from Debian).
# The signal is made here, so the clips carry no third-party content:
#   44.1 kHz stereo, 1.0 s; left: a 1 kHz tone burst 0.300–0.600 s; right: a 500 Hz burst
#   0.500–0.800 s; silence elsewhere. The decoder tests check both onsets in every format.
set -euo pipefail
cd "$(dirname "$0")"
SIG="aevalsrc=exprs='0.5*sin(2*PI*1000*t)*between(t,0.3,0.6)|0.5*sin(2*PI*500*t)*between(t,0.5,0.8)':s=44100:d=1"
VID="color=c=black:s=16x16:r=5:d=1"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
ff -f lavfi -i "$SIG" -c:a flac burst.flac
ff -f lavfi -i "$SIG" -c:a libmp3lame -b:a 64k burst.mp3
ff -f lavfi -i "$SIG" -c:a libvorbis -q:a 0 burst.ogg
ff -f lavfi -i "$SIG" -c:a aac -b:a 48k burst.m4a
# ADTS (raw AAC): no container to declare the priming, which stays, as ffmpeg plays it.
ff -f lavfi -i "$SIG" -c:a aac -b:a 48k burst.aac
ff -f lavfi -i "$SIG" -c:a adpcm_ima_wav burst.adpcm.wav
ff -f lavfi -i "$SIG" -c:a adpcm_ms burst.msadpcm.wav
ff -f lavfi -i "$VID" -f lavfi -i "$SIG" -c:v mpeg4 -c:a aac -b:a 48k -shortest burst.mp4
ff -f lavfi -i "$VID" -f lavfi -i "$SIG" -c:v mpeg4 -c:a aac -b:a 48k -shortest burst.mov
ff -f lavfi -i "$VID" -f lavfi -i "$SIG" -c:v mpeg4 -c:a aac -b:a 48k -shortest burst.mkv
ff -f lavfi -i "$VID" -f lavfi -i "$SIG" -c:v libvpx -c:a libvorbis -q:a 0 -shortest burst.webm
ff -f lavfi -i "$SIG" -c:a libopus -b:a 32k burst.opus
# Opus: 2.5 ms packets, and Opus in Matroska and WebM.
ff -f lavfi -i "$SIG" -c:a libopus -b:a 64k -frame_duration 2.5 burst.2p5ms.opus
ff -f lavfi -i "$SIG" -c:a libopus -b:a 32k burst.opus.mkv
ff -f lavfi -i "$VID" -f lavfi -i "$SIG" -c:v libvpx -c:a libopus -b:a 32k -shortest burst.opus.webm
# Audio that starts 1.5 s into the file's timeline, after the video (an MP4 edit list's empty
# edit; a WebM track whose first block is at 1.488 s): the burst plays at 1.8 s.
VID3="color=c=black:s=16x16:r=5:d=3"
ff -f lavfi -i "$VID3" -itsoffset 1.5 -f lavfi -i "$SIG" -map 0:v -map 1:a -c:v mpeg4 -c:a aac -b:a 48k burst.offset.mp4
ff -f lavfi -i "$VID3" -itsoffset 1.5 -f lavfi -i "$SIG" -map 0:v -map 1:a -c:v libvpx -c:a libopus -b:a 32k burst.offset.webm
# Streams that do not start at 0 (a cut of a longer file keeping its timestamps): 2 s of the
# same bursts 1 s later (left 1.3-1.6 s, right 1.5-1.8 s), cut at 1 s with -copyts, so the first
# Ogg page's granule position is that of the original (ffprobe start_time: Opus 1.000, Vorbis
# 0.826); and burst.m4a cut at 0.2 s with stream copy (MP4 edit list media_time 628, 800 ms).
SIG2="aevalsrc=exprs='0.5*sin(2*PI*1000*t)*between(t,1.3,1.6)|0.5*sin(2*PI*500*t)*between(t,1.5,1.8)':s=44100:d=2"
ff -f lavfi -i "$SIG2" -c:a libopus -b:a 32k /tmp/overtalk-late.opus
ff -f lavfi -i "$SIG2" -c:a libvorbis -q:a 0 -page_duration 200000 /tmp/overtalk-late.ogg
ff -copyts -ss 1.0 -i /tmp/overtalk-late.opus -c copy burst.late.opus
ff -copyts -ss 1.0 -i /tmp/overtalk-late.ogg -c copy burst.late.ogg
rm -f /tmp/overtalk-late.opus /tmp/overtalk-late.ogg
ff -ss 0.2 -i burst.m4a -c copy burst.trim.m4a
# burst.faststart.m4a: burst.m4a remuxed with its moov box (the index) before the audio, as
# files made for progressive download are; the truncation tests cut it inside its mdat.
ff -i burst.m4a -c copy -movflags +faststart burst.faststart.m4a
# Fragmented MP4: an index (moov) listing no samples, then fragments (moof + mdat), as
# recorders and streams write them. burst.m4a in five fragments of about 0.2 s with no closing
# mfra (as a recorder leaves the file); burst.mp4 (video and audio) in fragments of about 0.3 s
# at its keyframes, as OBS writes them; burst.m4a as DASH segments of 0.3 s joined after their
# initialisation segment (each segment with its styp and sidx); burst.opus's packets; and
# 0.25-0.35 s of burst.flac re-encoded as FLAC in four fragments of 1152 frames.
ff -i burst.m4a -c copy -movflags empty_moov+default_base_moof+skip_trailer -frag_duration 200000 burst.frag.m4a
ff -i burst.mp4 -c copy -movflags frag_keyframe+empty_moov -frag_duration 300000 burst.frag.mp4
rm -rf /tmp/overtalk-dash && mkdir /tmp/overtalk-dash
ff -i burst.m4a -c copy -f dash -seg_duration 0.3 /tmp/overtalk-dash/burst.mpd
cat /tmp/overtalk-dash/init-stream0.m4s /tmp/overtalk-dash/chunk-stream0-*.m4s > burst.dash.m4a
rm -rf /tmp/overtalk-dash
ff -i burst.opus -c copy -movflags frag_keyframe+empty_moov burst.frag.opus.mp4
# burst.offset.mp4 fragmented: without an edit list, ffmpeg starts the audio 1.5 s late by
# giving its first sample (the priming packet) a duration of 66 116 frames.
ff -i burst.offset.mp4 -c copy -movflags frag_keyframe+empty_moov -frag_duration 500000 burst.offset.frag.mp4
ff -ss 0.25 -t 0.1 -i burst.flac -c:a flac -frame_size 1152 -strict -2 -movflags empty_moov+skip_trailer -frag_duration 20000 burst.frag.flac.mp4
# Gaps in the timestamps (a recorder that dropped 0.5 s of audio): the bursts with every
# filter frame from 0.4 s on (the frame at 0.418 s, aevalsrc's 1024-sample frames) stamped 0.5 s
# later, so the right burst plays at 1.0 s: Opus in WebM (the timestamps jump), AAC in M4A
# and in fragmented MP4 (ffmpeg gives the sample before the drop the gap's
# duration), AAC in Matroska (millisecond timestamps that jump).
GAP="asetpts='PTS+gte(T,0.4)*0.5/TB'"
ff -f lavfi -i "$SIG" -af "$GAP" -c:a libopus -b:a 32k burst.gap.webm
ff -f lavfi -i "$SIG" -af "$GAP" -c:a aac -b:a 48k burst.gap.m4a
ff -f lavfi -i "$SIG" -af "$GAP" -c:a aac -b:a 48k -movflags frag_keyframe+empty_moov burst.gap.frag.m4a
ff -f lavfi -i "$SIG" -af "$GAP" -c:a aac -b:a 48k burst.gap.mkv
# Opus: mono from a 16 kHz input, and 5.1 (multistream, refused with a clear error).
ff -f lavfi -i "sine=f=440:d=0.5" -ac 1 -ar 16000 -c:a libopus -b:a 24k tone.mono16k.opus
ff -f lavfi -i "sine=f=440:d=0.2" -af "pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0" -c:a libopus -b:a 48k tone.6ch.opus
ls -l burst.* tone.*

# speech.wav: a synthetic sentence (espeak-ng, voice en-us) at 16 kHz mono, padded with exactly
# 1.0 s of digital silence on both sides, so the true speech extent is known by construction.
espeak-ng -v en-us -s 170 -w /tmp/overtalk-speech-raw.wav "The new microphones pick up much less noise from the hallway."
sox -D /tmp/overtalk-speech-raw.wav -r 16000 -b 16 -c 1 speech.wav silence 1 0.01 0.1% reverse silence 1 0.01 0.1% reverse pad 1 1 norm -3
rm -f /tmp/overtalk-speech-raw.wav

# speech.opus*: speech.wav through libopus (opusenc, SILK at 24 kbit/s), the same packets in
# WebM, and libopus's decoding of them: the reference the pure-Rust Opus decoder must match.
opusenc --quiet --bitrate 24 speech.wav speech.opus
mkvmerge -q --webm -o speech.opus.webm speech.opus
opusdec --quiet --no-dither --rate 48000 speech.opus /tmp/overtalk-speech-libopus.wav
sox /tmp/overtalk-speech-libopus.wav speech.opus.libopus.flac
rm -f /tmp/overtalk-speech-libopus.wav

# AIFF, CAF, Apple Lossless and MPEG-1 Layer II: make_pyav.py (PyAV, which bundles FFmpeg).

# empty.{opus,mp3,m4a}: containers written with no audio at all (0 frames): headers only.
for e in opus:libopus mp3:libmp3lame m4a:aac; do
  ff -f lavfi -i anullsrc=r=48000:cl=mono -frames:a 0 -c:a "${e#*:}" "empty.${e%%:*}"
done
# One audio track per microphone, as OBS records: each burst on a mono track of its own, and
# speech.wav on track 1 then 4 s late on track 2.
SPLIT="[0:a]pan=mono|c0=c0[L];[0:a]pan=mono|c0=c1[R]"
ff -f lavfi -i "$SIG" -filter_complex "$SPLIT" -map "[L]" -map "[R]" -c:a aac -b:a 32k burst.2tracks.mp4
ff -f lavfi -i "$SIG" -filter_complex "$SPLIT" -map "[L]" -map "[R]" -c:a libvorbis -q:a 0 burst.2tracks.mkv
ff -f lavfi -i "$SIG" -filter_complex "[0:a]asplit[S][M0];[M0]pan=mono|c0=c0[M]" -map "[S]" -map "[M]" \
  -c:a libvorbis -q:a 0 burst.stereo2tracks.mkv
ff -i speech.wav -filter_complex "[0:a]apad=pad_dur=4[H];[0:a]adelay=4000,apad=pad_dur=0[G]" \
  -map "[H]" -map "[G]" -c:a libvorbis -q:a 0 -shortest speech.2tracks.mkv
# MP3 in a WAV file (format tag 0x0055), as call and broadcast recorders write it.
ff -f lavfi -i "$SIG" -c:a libmp3lame -b:a 64k -f wav burst.mp3.wav
# Codecs without a decoder here, for the errors that name them: A-law in MOV (a sound track
# the demuxer skips) and AC-3 in MP4 (a codec it knows by name), 0.1 s each.
ff -f lavfi -i "sine=f=440:r=8000:d=0.1" -c:a pcm_alaw unsupported.alaw.mov
ff -f lavfi -i "sine=f=440:r=48000:d=0.1" -c:a ac3 -b:a 64k unsupported.ac3.mp4
# Two MP3 files of different rates joined byte for byte (`cat`): 1 s at 16 kHz (a 1 kHz burst
# at 0.3-0.6 s), then 1 s at 8 kHz (a 500 Hz burst at 0.3-0.6 s).
ff -f lavfi -i "aevalsrc=exprs='0.5*sin(2*PI*1000*t)*between(t,0.3,0.6)':s=16000:d=1" \
  -c:a libmp3lame -b:a 32k rates.16k.tmp.mp3
ff -f lavfi -i "aevalsrc=exprs='0.5*sin(2*PI*500*t)*between(t,0.3,0.6)':s=8000:d=1" \
  -c:a libmp3lame -b:a 16k rates.8k.tmp.mp3
cat rates.16k.tmp.mp3 rates.8k.tmp.mp3 > rates.joined.mp3
rm rates.16k.tmp.mp3 rates.8k.tmp.mp3
# One mono and one stereo MP3 at the same rate (16 kHz, LAME header each), joined in the tests
# (`cat layout.mono.mp3 layout.stereo.mp3`): a 1 kHz burst at 0.3-0.6 s in each, the stereo
# one's on the left channel only.
ff -f lavfi -i "aevalsrc=exprs='0.5*sin(2*PI*1000*t)*between(t,0.3,0.6)':s=16000:d=1" \
  -c:a libmp3lame -b:a 32k layout.mono.mp3
ff -f lavfi -i "aevalsrc=exprs='0.5*sin(2*PI*1000*t)*between(t,0.3,0.6)|0':s=16000:d=1" \
  -c:a libmp3lame -b:a 32k layout.stereo.mp3
# A second file shorter than a padding could be (0.1 s at 16 kHz: five frames of 576), joined
# after layout.mono.mp3 in the tests: its frames past the first file's must not be dropped.
ff -f lavfi -i "aevalsrc=exprs='0.5*sin(2*PI*1000*t)':s=16000:d=0.1" \
  -c:a libmp3lame -b:a 32k layout.short.mp3
