#!/usr/bin/env bash
# What the interactive window costs when nobody touches it (app/idle_pacer.h): the CPU the app
# uses over SECONDS (default 5) once open, as a share of one core, paused and playing, under a
# virtual X server (Xvfb ignores vsync, so this is the frame cap's work, not the display's).
# Then the same with a click every 0.2 s through the X server (xdotool), to show the window wakes.
# Usage: bench/idle_cpu.sh [build/ropelab] [seconds]
# Runs under its own display: tests/support/xvfb 1920x1080x24 bench/idle_cpu.sh
set -euo pipefail
bin=$(realpath "${1:-build/ropelab}")
seconds=${2:-5}
ticks=$(getconf CLK_TCK)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cd "$dir"
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
measure() {  # label, clicks (0 or 1), gui arguments...
    local label=$1 clicks=$2
    shift 2
    "$bin" gui --size 1280x720 "$@" >app.log 2>&1 &
    local pid=$!
    local window
    window=$(timeout 20 xdotool search --sync --onlyvisible --pid "$pid" | head -1)
    sleep 1  # past start-up and the first exact pass
    local t0 c0 end
    t0=$(date +%s.%N)
    c0=$(cpu_ticks "$pid")
    end=$(echo "$t0 + $seconds" | bc)
    while [ "$(echo "$(date +%s.%N) < $end" | bc)" = 1 ]; do
        [ "$clicks" = 1 ] && xdotool mousemove --window "$window" 900 400 click --delay 20 1
        sleep 0.2
    done
    local c1 t1
    c1=$(cpu_ticks "$pid")
    t1=$(date +%s.%N)
    kill "$pid"
    wait "$pid" 2>/dev/null || true
    printf '%-28s %5.2f cores (%.2f CPU-s over %.1f s)\n' "$label" \
        "$(echo "($c1 - $c0) / $ticks / ($t1 - $t0)" | bc -l)" "$(echo "($c1 - $c0) / $ticks" | bc -l)" "$(echo "$t1 - $t0" | bc -l)"
}
device=$("$bin" gui --frames 2 --stats --size 64x64 2>/dev/null | sed -n 's/.*"device": "\([^"]*\)".*/\1/p')
echo "$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)), GL: $device"
measure "paused, left alone" 0 --paused
measure "paused, a click each 0.2 s" 1 --paused
measure "playing (the default)" 0
