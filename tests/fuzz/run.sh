#!/usr/bin/env bash
# Fuzzes each input reader for a bounded time: bash tests/fuzz/run.sh [SECONDS_PER_TARGET]
# Seeds are tests/fuzz/seeds/<target> (minimised, committed; see minimise.sh) and tests/corpus;
# what a run finds goes to tests/fuzz/corpus/<target> (not committed). Any crash found is
# copied to tests/fuzz/regressions/<target>/, which `cargo test --test corpus` replays from
# then on, and the script fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds="${1:-20}"
# cargo-fuzz needs unstable rustc flags (sanitizers); this machine has the stable toolchain only.
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target}/fuzz"
status=0
for target in glb glb_json obj bvh fbx fbx_tree dae; do
  mkdir -p "tests/fuzz/corpus/$target" "tests/fuzz/seeds/$target"
  log="$(mktemp)"
  rc=0
  extra=()
  [ "$target" = glb_json ] && extra=(-dict=tests/fuzz/gltf.dict)
  # A byte picking the base file, then up to 64 edits of 8 bytes (fuzz_targets/fbx_tree.rs).
  [ "$target" = fbx_tree ] && extra=(-max_len=513 -len_control=0)
  cargo fuzz run --fuzz-dir tests/fuzz -O "$target" "tests/fuzz/corpus/$target" \
    "tests/fuzz/seeds/$target" tests/corpus -- -max_total_time="$seconds" -rss_limit_mb=2048 \
    "${extra[@]}" >"$log" 2>&1 || rc=$?
  grep -E '^Done|panicked|SUMMARY|ERROR|^error' "$log" || true
  if [ "$rc" != 0 ]; then
    tail -n 30 "$log" >&2
    echo "fuzz: $target exited with status $rc" >&2
    status=1
  fi
  rm -f "$log"
  for crash in tests/fuzz/artifacts/"$target"/*; do
    [ -e "$crash" ] || continue
    mkdir -p "tests/fuzz/regressions/$target"
    cp "$crash" "tests/fuzz/regressions/$target/"
    echo "fuzz: $target found $(basename "$crash"); kept in tests/fuzz/regressions/$target" >&2
    status=1
  done
done
exit "$status"
