#!/usr/bin/env bash
# Installs the newest wheel in target/wheels/ (python/build.sh) into a fresh virtual
# environment with Ray, and runs the Python package's tests (python/tests): the API on real
# characters and a catalog rigged on a local Ray cluster.
set -euo pipefail
cd "$(dirname "$0")/.."

wheel="$(ls -t target/wheels/rigkit-*.whl 2>/dev/null | head -n1)"
[ -n "$wheel" ] || { echo "python/test.sh: no wheel in target/wheels: run python/build.sh first" >&2; exit 1; }
venv="$(mktemp -d "${TMPDIR:-/tmp}/rigkit-python-test.XXXXXX")"
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" "ray==2.60.0"
RAY_USAGE_STATS_ENABLED=0 "$venv/bin/python" -m unittest discover -s python/tests -v
