#!/usr/bin/env bash
# Builds the npm package `rigkit` as a tarball: target/npm/rigkit-VERSION.tgz (VERSION is the
# crate's). The page's release build (dist/) supplies the wasm and its glue; `--from-dist`
# packs the dist/ already built instead of building it first.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/tests/node_modules/.bin:$HOME/.cargo/bin:$PATH"

if [ "${1:-}" != "--from-dist" ]; then
  trunk build --release --offline --locked
fi
for built in dist/rigkit.js dist/rigkit_bg.wasm; do
  [ -f "$built" ] || { echo "pack.sh: $built is missing: run without --from-dist to build it" >&2; exit 1; }
done

version="$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n1)"
stage=target/npm/package
rm -rf "$stage"
mkdir -p "$stage/web"
cp dist/rigkit.js dist/rigkit_bg.wasm "$stage/"
cp web/rigkit-embed.js web/rigkit-embed.d.ts web/rigkit-three.js web/rigkit-three.d.ts \
  web/rig-worker.js web/carry-helper.js web/frames.js web/gpu.js "$stage/web/"
cp npm/README.md "$stage/"
sed "s/\"0.0.0-set-by-pack\"/\"$version\"/" npm/package.json > "$stage/package.json"
(cd "$stage" && npm pack --silent --pack-destination ..)
echo "target/npm/rigkit-$version.tgz"
