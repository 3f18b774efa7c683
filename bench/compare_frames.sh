#!/usr/bin/env bash
# Frame times of the lab with one setting and with compare mode's four (the Llama 3.1 ×8
# comparison), at the lab's targets: mean ≤ 16 ms idle at N = 4096; with θ changing every frame
# at N = 2^20 (--churn, a slider dragged) mean ≤ 33 ms and no frame over 100 ms. Each line is
# `gui --frames 300 --stats` (1280×720, all eight views, under Xvfb).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ROPELAB:-build/ropelab}
run() { xvfb-run -a -s "-screen 0 1920x1080x24" "$bin" gui --size 1280x720 --frames 300 --stats "$@" | tail -1; }
echo "1 setting,  N=4096, idle:  $(run --max-distance 4096)"
echo "4 settings, N=4096, idle:  $(run --comparison llama3.1-scaling --max-distance 4096)"
echo "1 setting,  N=2^20, churn: $(run --max-distance 1048576 --churn)"
echo "4 settings, N=2^20, churn: $(run --comparison llama3.1-scaling --max-distance 1048576 --churn)"
