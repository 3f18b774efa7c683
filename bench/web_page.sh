#!/usr/bin/env bash
# The web lab's size and speed in Debian's chromium, headless (SwiftShader's WebGL2 on the CPU):
# the wasm's size (raw and gzip -9, fonts included: they are compiled in), the first frame after
# the page began loading, and the default workspace's frames over 10 s of playing, all in the
# browser's own timing (performance.now). Needs the page: run ./web first.
# Usage: bench/web_page.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
[ -f build-web/ropelab.wasm ] || { echo "bench/web_page.sh: no build-web/ropelab.wasm: run ./web first" >&2; exit 2; }
raw=$(stat -c %s build-web/ropelab.wasm)
gz=$(gzip -9 -c build-web/ropelab.wasm | wc -c)
js=$(stat -c %s build-web/ropelab.js)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/steps.json" <<STEPS
[{"open": "index.html"}, {"sleep": $seconds}, {"eval": "Module.ropelab('timing')", "save": "$work/timing.json"}]
STEPS
node --no-warnings --experimental-websocket tests/web/browser.mjs "$work/steps.json" build-web >"$work/log" 2>&1 || { cat "$work/log"; exit 1; }
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'), chromium $(chromium --version 2>/dev/null | awk '{print $2}')"
echo "wasm: $raw bytes, $gz gzipped; js: $js bytes"
echo "timing over ${seconds} s of the default workspace playing: $(cat "$work/timing.json")"
