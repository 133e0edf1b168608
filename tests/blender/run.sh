#!/usr/bin/env bash
# Blender "automatic weights" (bone heat) reference skinning for the evaluation characters.
# Offline tooling only: Blender (the bpy wheel, GPL) runs as an external program from a
# virtualenv outside the repository; nothing of it is part of rigkit. See README.md.
#
#   bash tests/blender/run.sh [--input DIR] [--output DIR] [--timeout SECONDS]
#
# Defaults: --input /work/shared/data/eval, --output <repo>/target/blender-weights.
set -euo pipefail

BPY_VERSION=4.5.4   # bpy 4.5.x wheels are built for CPython 3.11 only
VENV="${RIGKIT_BPY_VENV:-$HOME/.cache/rigkit/bpy-venv}"
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

installed() {
    "$VENV/bin/python" -c "import importlib.metadata as m, sys; \
sys.exit(m.version('bpy') != '$BPY_VERSION')" 2>/dev/null
}

if ! installed; then
    if [ ! -x "$VENV/bin/python" ]; then
        PYTHON="${PYTHON:-$(command -v python3.11 || command -v python3)}"
        if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 11))'; then
            echo "bpy $BPY_VERSION needs Python 3.11; $PYTHON is $("$PYTHON" -V 2>&1)." \
                 "Set PYTHON=/path/to/python3.11." >&2
            exit 1
        fi
        mkdir -p "$(dirname "$VENV")"
        "$PYTHON" -m venv "$VENV"
    fi
    echo "installing bpy==$BPY_VERSION into $VENV (a large download)" >&2
    "$VENV/bin/python" -m pip install --disable-pip-version-check "bpy==$BPY_VERSION"
fi

exec "$VENV/bin/python" "$HERE/auto_weights.py" "$@"
