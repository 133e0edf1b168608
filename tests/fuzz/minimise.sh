#!/usr/bin/env bash
# Folds what long fuzzing runs found into the committed seeds: bash tests/fuzz/minimise.sh TARGET...
# For each target, the fewest inputs of its working corpus (tests/fuzz/corpus/TARGET, not
# committed), its seeds (tests/fuzz/seeds/TARGET) and tests/corpus that still reach every code
# edge any of them reaches (libFuzzer's set-cover merge on edges alone) replace the seeds.
set -euo pipefail
cd "$(dirname "$0")/../.."
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/fuzz"
for target in "$@"; do
  cargo fuzz build --fuzz-dir tests/fuzz -O "$target"
  binary="$CARGO_TARGET_DIR/x86_64-unknown-linux-gnu/release/$target"
  fresh="$(mktemp -d)"
  mkdir -p "tests/fuzz/corpus/$target" "tests/fuzz/seeds/$target"
  "$binary" -set_cover_merge=1 -use_counters=0 -use_cmp=0 -rss_limit_mb=2048 "$fresh" \
    "tests/fuzz/corpus/$target" "tests/fuzz/seeds/$target" tests/corpus 2>&1 | grep MERGE-OUTER | tail -n 1
  rm -rf "tests/fuzz/seeds/$target"
  mv "$fresh" "tests/fuzz/seeds/$target"
  echo "$target: $(ls "tests/fuzz/seeds/$target" | wc -l) seeds"
done
