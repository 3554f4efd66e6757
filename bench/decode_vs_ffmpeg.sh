#!/usr/bin/env bash
# Decoded length and onset of every container and codec the decoder reads, beside ffmpeg's
# (docs/recordings.md): makes the test files in a temporary folder with ffmpeg and sox, then
# prints one Markdown row per file (the `decode_vs_ffmpeg` example of overtalk-audio).
#
#   cargo build --release -p overtalk-audio --example decode_vs_ffmpeg
#   bench/decode_vs_ffmpeg.sh [target/release/examples/decode_vs_ffmpeg]
#
# Needs ffmpeg (with libmp3lame, libshine, libvorbis, libopus), sox and python3. About 2.5 MB
# of files, removed at the end.
set -euo pipefail
TOOL=$(realpath "${1:-target/release/examples/decode_vs_ffmpeg}")
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
cd "$DIR"
SIG="aevalsrc=exprs='0.5*sin(2*PI*1000*t)*between(t,0.3,0.6)':s=44100:d=1"
SIG2="aevalsrc=exprs='0.5*sin(2*PI*1000*t)*between(t,0.3,0.6)|0.5*sin(2*PI*500*t)*between(t,0.5,0.8)':s=44100:d=1"
SIGODD="aevalsrc=exprs='0.5*sin(2*PI*1000*t)*between(t,0.3,0.6)':s=44100:d=1.0000227"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
for c in pcm_u8 pcm_s16le pcm_s24le pcm_s32le pcm_f32le pcm_f64le pcm_alaw pcm_mulaw adpcm_ima_wav adpcm_ms; do ff -f lavfi -i "$SIG" -c:a $c w.$c.wav; done
ff -f lavfi -i "$SIGODD" -c:a pcm_u8 w.odd_u8.wav
ff -f lavfi -i "$SIG" -c:a pcm_s16le -rf64 always w.rf64.wav
sox w.pcm_s16le.wav -b 24 w.sox_ext24.wav
sox w.pcm_s16le.wav -e floating-point -b 32 w.sox_f32.wav
ff -f lavfi -i "$SIG" -c:a pcm_s16be a.s16.aiff
sox w.pcm_s16le.wav -e float -b 32 a.aifc.aifc
ff -f lavfi -i "$SIG" -c:a flac f.flac
ff -f lavfi -i "$SIG" -c:a flac f.flac.ogg
ff -f lavfi -i "$SIG" -c:a flac f.flac.mkv
ff -f lavfi -i "$SIG" -c:a libmp3lame -b:a 64k m.cbr.mp3
ff -f lavfi -i "$SIG" -c:a libmp3lame -q:a 4 m.vbr.mp3
ff -f lavfi -i "$SIG" -c:a libmp3lame -b:a 64k -write_xing 0 m.noxing.mp3
ff -f lavfi -i "$SIG" -c:a libmp3lame -b:a 64k -write_xing 0 -id3v2_version 0 m.noxing.noid3.mp3
ff -f lavfi -i "$SIG" -c:a libmp3lame -b:a 64k -id3v2_version 3 -metadata title=x -metadata artist=y m.id3v23.mp3
ff -f lavfi -i "$SIG" -ar 48000 -c:a libmp3lame -b:a 64k m.48k.mp3
ff -f lavfi -i "$SIG" -ar 16000 -c:a libmp3lame -b:a 32k m.16k.mp3
ff -f lavfi -i "$SIG" -c:a libshine -b:a 64k m.shine.mp3
ff -f lavfi -i "$SIG" -c:a mp2 m.mp2
ff -f lavfi -i "$SIG" -c:a aac -b:a 48k c.aac.m4a
ff -f lavfi -i "$SIG" -c:a aac -b:a 48k -use_editlist 0 c.noedts.m4a
ff -f lavfi -i "$SIG" -c:a aac -b:a 48k c.adts.aac
ff -f lavfi -i "$SIG" -c:a aac -b:a 48k c.aac.mkv
ff -f lavfi -i "$SIG" -c:a aac -b:a 48k -movflags frag_keyframe+empty_moov c.frag.m4a
ff -f lavfi -i "$SIG" -c:a aac -b:a 48k -f mov c.aac.mov
ff -f lavfi -i "$SIG" -ar 16000 -c:a aac -b:a 32k c.16k.m4a
ff -f lavfi -i "$SIG" -c:a alac c.alac.m4a
ff -f lavfi -i "$SIG" -c:a alac c.alac.caf
ff -f lavfi -i "$SIG" -c:a pcm_s16le c.pcm.caf
ff -f lavfi -i "$SIG" -c:a libvorbis -q:a 0 v.vorbis.ogg
ff -f lavfi -i "$SIG" -c:a libvorbis -q:a 0 v.vorbis.webm
ff -f lavfi -i "$SIG" -c:a libvorbis -q:a 0 v.vorbis.mkv
ff -f lavfi -i "$SIG" -ar 16000 -c:a libvorbis -q:a 0 v.vorbis16k.webm
ff -f lavfi -i "$SIG" -ar 48000 -c:a libvorbis -q:a 3 v.vorbis48k.mkv
ff -f lavfi -i "$SIG" -c:a libopus -b:a 32k o.opus.ogg
ff -f lavfi -i "$SIG" -c:a libopus -b:a 32k o.opus.webm
ff -f lavfi -i "$SIG" -c:a libopus -b:a 32k o.opus.mkv
ff -f lavfi -i "$SIG" -c:a libopus -b:a 32k o.opus.mp4
ff -f lavfi -i "$SIG2" -c:a libvorbis -q:a 0 s.vorbis.webm
ff -f lavfi -i "$SIG2" -c:a libmp3lame -b:a 96k s.mp3
ff -f lavfi -i "$SIG2" -c:a aac -b:a 96k s.m4a
ff -f lavfi -i "$SIG" -c:a mp2 -b:a 128k m.128k.mp2
ff -f lavfi -i "$SIG" -c:a mp2 -f wav m.mp2.wav
ff -f lavfi -i "$SIG2" -c:a mp2 s.mp2
# MP3 files joined byte for byte (`cat`), the second shorter than the padding a LAME header
# can declare (4 095 frames): 0.05 s at 44.1 kHz, 0.1 s at 16 kHz; and the second one's
# frames alone (its ID3 tag and Info frame cut off), and three files.
mkdir parts
ff -f lavfi -i "aevalsrc=exprs='0.5*sin(2*PI*1000*t)':s=44100:d=0.05" -c:a libmp3lame -b:a 64k parts/short44.mp3
ff -f lavfi -i "aevalsrc=exprs='0.5*sin(2*PI*1000*t)':s=16000:d=0.1" -c:a libmp3lame -b:a 32k parts/short16.mp3
cat m.cbr.mp3 parts/short44.mp3 > j.short.mp3
cat m.16k.mp3 parts/short16.mp3 > j.short16k.mp3
cat m.16k.mp3 parts/short16.mp3 parts/short16.mp3 > j.three16k.mp3
cat m.cbr.mp3 m.vbr.mp3 > j.cbr_vbr.mp3
python3 - <<'PY'
# The second file's frames alone: past its ID3v2 tag and its first frame (the Info frame).
d = open('parts/short16.mp3', 'rb').read()
size = 0
for b in d[6:10]:
    size = (size << 7) | (b & 0x7F)
d = d[10 + size:]
kbps = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160][d[2] >> 4]
first = 72 * kbps * 1000 // 16000 + ((d[2] >> 1) & 1)
open('j.bare16k.mp3', 'wb').write(open('m.16k.mp3', 'rb').read() + d[first:])
PY
# The odd-sized u8 data chunk followed by its pad byte and a LIST chunk.
python3 - <<'PY'
import struct
b = bytearray(open('w.odd_u8.wav', 'rb').read())
i = 12
while b[i:i + 4] != b'data':
    i += 8 + struct.unpack('<I', b[i + 4:i + 8])[0]
size = struct.unpack('<I', b[i + 4:i + 8])[0]
body = b[:i + 8 + size] + b'\0' * (size & 1)
body += b'LIST' + struct.pack('<I', 17) + b'INFOICMT\x05\0\0\0abcd\0' + b'\0'
body[4:8] = struct.pack('<I', len(body) - 8)
open('w.odd_u8_list.wav', 'wb').write(body)
PY
"$TOOL" ./*.*
