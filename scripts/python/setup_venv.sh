#!/usr/bin/env bash
# Makes scripts/python/.venv: the `overtalk` package built from this clone by pip (maturin is
# the PEP 517 backend of crates/overtalk-py), pytest, and the packages of the tests' extras
# (pyannote, pympi, pandas, Arrow, Ray, Dask, meeteval) at versions known to install here; the benchmark
# (bench/python_bench.py) runs in the same venv.
#   scripts/python/setup_venv.sh           the default test run (.ci/run)
#   scripts/python/setup_venv.sh --spark   adds pyspark, for `pytest -m spark` (needs a JRE)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
venv="${OVERTALK_PY_VENV:-$here/.venv}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
pip=("$venv/bin/python" -m pip install -q --disable-pip-version-check)
extra=()
for arg in "$@"; do
  case "$arg" in
    --spark) extra+=("pyspark==4.3.0") ;;
    *) echo "unknown option $arg" >&2; exit 2 ;;
  esac
done
"${pip[@]}" \
  "pytest==9.2.0" \
  "numpy==2.4.6" \
  "pandas==3.1.1" \
  "pyarrow==26.0.1" \
  "pyannote.core==6.1.0" \
  "pyannote.database==6.1.1" \
  "pympi-ling==1.71" \
  "ray[data]==2.60.0" \
  "dask[bag]==2026.8.0" \
  "meeteval==0.4.3" \
  "simplejson==4.3.0" \
  ${extra[@]+"${extra[@]}"}
# The package itself, built by maturin from the clone: an abi3 wheel, release profile unless
# OVERTALK_PY_PROFILE names another (CI takes `dev`, reusing what `cargo test --workspace` built).
if [ -n "${OVERTALK_PY_PROFILE:-}" ]; then
  export MATURIN_PEP517_ARGS="--profile $OVERTALK_PY_PROFILE"
fi
"${pip[@]}" --force-reinstall --no-deps "$repo/crates/overtalk-py"
"$venv/bin/python" -c 'import overtalk; print("overtalk", overtalk.__version__, "from", overtalk.__file__)'
