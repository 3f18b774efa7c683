#!/usr/bin/env bash
# The lab never freezes: worst frame times, the start included, at the largest valid settings.
# Each line is `gui --frames F --stats` (1280×720, all views, under Xvfb): max_ms is the
# worst frame, first_frame_ms counts from the window's opening, exact_ms is when the last exact
# curve was on screen (-1: not within F frames). Target: no frame over 100 ms.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ROPELAB:-build/ropelab}
run() { xvfb-run -a -s "-screen 0 1920x1080x24" "$bin" gui --size 1280x720 --stats "$@" | tail -1; }
big="--max-distance 16777216 --head-dim 512"
mean="--vectors mean --samples 65536"
four="--compare rope_theta=500000 --compare rope_type=yarn,factor=8,original_max_position_embeddings=4096 --compare layout=half --heatmap-difference 1"
echo "N=4096, d=128, idle:                                   $(run --frames 300)"
echo "N=2^24, d=512, start until exact:                      $(run --frames 1500 $big)"
echo "N=2^24, d=512, θ changed every frame:                  $(run --frames 300 $big --churn)"
echo "N=2^24, d=512, mean of 65536, 4 settings, until exact: $(run --frames 2500 $big $mean $four)"
echo "N=2^24, d=512, mean of 65536, 4 settings, θ churn:     $(run --frames 300 $big $mean $four --churn)"
