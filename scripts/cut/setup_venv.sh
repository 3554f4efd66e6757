#!/usr/bin/env bash
# Makes scripts/cut/.venv with OpenTimelineIO and its editor adapters from PyPI, for the
# cut-list round trips (otio_check.py, run by crates/overtalk/tests/cut_otio.rs).
set -euo pipefail
cd "$(dirname "$0")"
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install -q \
  'opentimelineio>=0.17' \
  'otio-cmx3600-adapter>=1.0' \
  'otio-fcp-adapter>=1.0' \
  'otio-fcpx-xml-adapter>=1.0'
.venv/bin/python -c 'import opentimelineio as o; print("opentimelineio", o.__version__)'
