#!/bin/sh
# Creates bench/.venv with pympi-ling and compares overtalk's H&E intervals with pympi on every
# two-speaker pair of the AMI test meetings. Run from the repository root.
set -eu
DATA="${OVERTALK_SHARED_DATA:-../shared/data}"
if [ ! -x bench/.venv/bin/python ]; then
    python3 -m venv bench/.venv
fi
bench/.venv/bin/pip install -q pympi-ling
cargo build -q --bin overtalk
exec bench/.venv/bin/python bench/pympi_agreement.py target/debug/overtalk \
    "$DATA/corpora/ami/only_words/rttms/test" "$DATA/peer-results/pympi-ami-test.tsv"
