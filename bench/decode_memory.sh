#!/usr/bin/env bash
# Peak memory of decoding does not grow with a recording's duration: `overtalk detect --vad none`
# on a 48-channel WAV (read by the WAV fallback, two channels named) and on an Ogg Opus file,
# each SHORT and LONG minutes long, peak RSS from /usr/bin/time. Not a test: it prints figures.
#
#   bench/decode_memory.sh                          # 1 and 10 minutes, debug build
#   SHORT=10 LONG=600 PROFILE=release bench/decode_memory.sh   # 10 min and 10 h
#
# Needs: cargo, ffmpeg (to encode the Opus files), python3.
set -euo pipefail
cd "$(dirname "$0")/.."
SHORT="${SHORT:-1}"
LONG="${LONG:-10}"
PROFILE="${PROFILE:-debug}"
OUT=bench/out/decode_memory
mkdir -p "$OUT"
if [ "$PROFILE" = release ]; then
  cargo build --release -q -p overtalk-cli
else
  cargo build -q -p overtalk-cli
fi
BIN="target/$PROFILE/overtalk"

# A 48-channel 16 kHz 16-bit WAV of silence, written sparse (header, then the file extended).
wav48() {
  python3 - "$1" "$2" <<'PY'
import struct, sys
path, minutes = sys.argv[1], int(sys.argv[2])
ch, rate = 48, 16000
data = minutes * 60 * rate * ch * 2
fmt = struct.pack('<HHIIHH', 1, ch, rate, rate * ch * 2, ch * 2, 16)
with open(path, 'wb') as f:
    f.write(b'RIFF' + struct.pack('<I', 36 + data) + b'WAVEfmt ' + struct.pack('<I', 16) + fmt
            + b'data' + struct.pack('<I', data))
    f.truncate(44 + data)
PY
}
names=$(python3 -c "print(','.join('A' if i == 10 else 'B' if i == 40 else '_' for i in range(48)))")

for m in "$SHORT" "$LONG"; do
  w="$OUT/silence48_${m}min.wav"
  [ -f "$w" ] || wav48 "$w" "$m"
  o="$OUT/tone_${m}min.opus"
  [ -f "$o" ] || ffmpeg -hide_banner -loglevel error -y -f lavfi -i "sine=f=440:d=$((m * 60))" \
    -ac 2 -c:a libopus -b:a 32k "$o"
done
ls -l "$OUT"
for m in "$SHORT" "$LONG"; do
  /usr/bin/time -f "48-channel WAV, $m min: %e s wall, peak RSS %M KB" \
    "$BIN" detect "$OUT/silence48_${m}min.wav" --channels "$names" --vad none -o "$OUT/out.rttm"
  /usr/bin/time -f "Ogg Opus stereo, $m min: %e s wall, peak RSS %M KB" \
    "$BIN" detect "$OUT/tone_${m}min.opus" --vad none -o "$OUT/out.rttm"
done
