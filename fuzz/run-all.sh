#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 600), seeded with the repository's fixtures,
# and prints executions and crashes per target. Needs cargo-fuzz (`cargo install cargo-fuzz`);
# on a stable toolchain RUSTC_BOOTSTRAP=1 lets it use the sanitizer flags.
#   fuzz/run-all.sh [SECONDS] [TARGET…]
set -uo pipefail
cd "$(dirname "$0")"
secs="${1:-600}"
shift || true
export RUSTC_BOOTSTRAP=1
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo fuzz list)
cargo fuzz build -O >/dev/null 2>&1 || { echo "cargo fuzz build failed"; exit 2; }
seeds="../crates/overtalk/tests/data ../examples"
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  find $seeds -type f ! -name '*.md' -size -200k -exec cp -n {} "corpus/$t/" \; 2>/dev/null
  # The audio target also starts from the decoder's clips (every container it reads).
  [ "$t" = decode_detect ] && find ../crates/overtalk-audio/tests/data -type f -size -200k \
    ! -name '*.md' ! -name '*.sh' ! -name '*.py' -exec cp -n {} "corpus/$t/" \; 2>/dev/null
  log="corpus/$t.log"
  cargo fuzz run -O "$t" -- -max_total_time="$secs" -max_len=262144 -rss_limit_mb=2048 -timeout=10 >"$log" 2>&1
  rc=$?
  runs=$(grep -oE 'Done [0-9]+ runs' "$log" | grep -oE '[0-9]+' | tail -1)
  crashes=$(ls "artifacts/$t" 2>/dev/null | wc -l)
  printf '%-18s runs=%-10s crashes=%s exit=%s\n' "$t" "${runs:-?}" "$crashes" "$rc"
done
