#!/usr/bin/env bash
# How fast `ropelab export-data` writes the score view at 2^24 distances, as CSV and as JSON:
# the default columns (distance, rope, bound, relative_bound, sinusoidal), every one computed in
# float64 from exact phases and written as shortest round-trip text (issue 38). For each run it
# prints the file's size, the seconds, MB/s (10^6 bytes) and the peak resident memory
# (/usr/bin/time %M), and the CPU seconds (user + sys: on a shared machine, what the wall time
# would be at best with its cores to itself is about CPU / cores); the best of the runs last. The target is >= 300 MB/s with the memory
# bounded (streamed: the same peak at any length, never the table as text).
# Usage: bench/export_data.sh [build/ropelab] [runs (default 3)]
set -euo pipefail
bin=${1:-build/ropelab}
runs=${2:-3}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for format in csv json; do
    best=
    for run in $(seq "$runs"); do
        out="$dir/scores.$format"
        /usr/bin/time -f '%e %M %U %S' -o "$dir/time" "$bin" export-data --view scores --max-distance 16777216 --out "$out"
        read -r seconds kib user sys <"$dir/time"
        bytes=$(stat -c %s "$out")
        rate=$(echo "scale=1; $bytes / $seconds / 1000000" | bc)
        printf '%-4s run %d: %d bytes  %6.2f s  %7.1f MB/s  peak %d MB  CPU %.2f s\n' "$format" "$run" "$bytes" "$seconds" "$rate" \
            $((kib / 1024)) "$(echo "$user + $sys" | bc)"
        if [ -z "$best" ] || [ "$(echo "$seconds < $best" | bc)" = 1 ]; then best=$seconds; best_rate=$rate; fi
        rm -f "$out"
    done
    printf '%-4s best of %d: %.2f s, %.1f MB/s\n' "$format" "$runs" "$best" "$best_rate"
done
