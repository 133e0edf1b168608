#!/usr/bin/env bash
# Builds the Python wheel `rigkit` into target/wheels/ (one wheel for CPython 3.9 and later on
# this platform): maturin in a virtual environment, the crate's `wheel` profile (optimised,
# unwinding). `--dev` builds with the dev profile instead: quicker, as the tests use it.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/rigkit/target}"
venv="${RIGKIT_VENV:-$HOME/.cache/rigkit/venv}"

if [ ! -x "$venv/bin/maturin" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "maturin==1.16.0"
fi
profile=()
[ "${1:-}" = "--dev" ] && profile=(--profile dev)
"$venv/bin/maturin" build --locked --manifest-path python/Cargo.toml --out target/wheels "${profile[@]}"
