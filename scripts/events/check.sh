#!/usr/bin/env bash
# Makes a venv with sed_eval 0.2.1 from PyPI (once) and compares the matching counts of
# `overtalk score --events` with sed_eval's on the event fixtures.
#
#   scripts/events/check.sh [OVERTALK_BINARY]
#
# VENV (default target/sed-eval-venv) is where the venv lives.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin=${1:-$root/target/release/overtalk}
venv=${VENV:-$root/target/sed-eval-venv}
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import sed_eval' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet 'sed_eval==0.2.1'
fi
fixtures=$root/crates/overtalk/tests/data/events
status=0
for ref in "$fixtures"/*.ref.rttm; do
    hyp=${ref%.ref.rttm}.hyp.rttm
    echo "== $(basename "${ref%.ref.rttm}")"
    "$bin" score --events --format json -r "$ref" -s "$hyp" \
        | "$venv/bin/python" "$root/scripts/events/sed_eval_check.py" - || status=1
done
exit $status
