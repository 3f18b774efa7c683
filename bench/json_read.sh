#!/usr/bin/env bash
# How long `ropelab freqs --config` takes to read the biggest configs the JSON reader accepts:
# 199,999 values (an array of empty objects, ~0.6 MB) and one object of 20,000 keys, each
# beside a real model's fields. Reading is linear; before the one-pass reader the same shapes
# at 600,000 objects and 200,000 keys took 43 s and 21 s.
# Usage: bench/json_read.sh [build/ropelab]
set -euo pipefail
bin=${1:-build/ropelab}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir" <<'PY'
import sys
d = sys.argv[1]
model = '"model_type": "llama", "head_dim": 128, "rope_theta": 500000.0'
open(d + '/values.json', 'w').write('{' + model + ', "x": [' + ','.join(['{}'] * 199990) + ']}')
open(d + '/keys.json', 'w').write('{' + model + ', "x": {' + ','.join('"k%d": 0' % i for i in range(20000)) + '}}')
PY
for f in values keys; do
    best=
    for run in 1 2 3; do
        start=$(date +%s.%N)
        "$bin" freqs --config "$dir/$f.json" >/dev/null 2>&1
        end=$(date +%s.%N)
        t=$(echo "$end - $start" | bc)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
    done
    printf '%-7s %8d bytes  best of 3: %.3f s\n' "$f" "$(stat -c %s "$dir/$f.json")" "$best"
done
