#!/usr/bin/env bash
# Video export against ffmpeg alone, side by side in one run, each timed RUNS times (median):
#   app_s          the app's MP4: 300 frames of the whole lab at 1280×720, the position animating
#                  (render, GPU pass to yuv420p, read-back, pipe, encode);
#   ffmpeg_alone_s ffmpeg alone encoding 300 synthetic 1280×720 frames (testsrc2, made in
#                  yuv420p) with the settings the app gives it: yuv420p in, libx264 veryfast,
#                  CRF 18, BT.709 tv-range tags, faststart;
#   ffmpeg_lab_frames_s  ffmpeg alone encoding the app's own 300 frames, decoded beforehand (not
#                  timed) to raw yuv420p: the same settings on the same pictures, so that
#                  app_s − ffmpeg_lab_frames_s is what rendering and our pipeline cost.
# Target: ratio = app_s / ffmpeg_alone_s ≤ 1.5. JSON on stdout.
# Usage: bench/export_vs_ffmpeg.sh   (ROPELAB=path/to/ropelab, RUNS=3)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ROPELAB:-build/ropelab}
runs=${RUNS:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
seconds() { local start=$(date +%s.%N); "$@" >/dev/null; awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
tags=(-colorspace bt709 -color_primaries bt709 -color_trc bt709 -color_range tv)
encode=(-c:v libx264 -preset veryfast -crf 18 "${tags[@]}" -movflags +faststart -f mp4)
ffmpeg_quiet=(ffmpeg -hide_banner -loglevel error -y)

app=() alone=() lab_frames=()
for ((run = 0; run < runs; ++run)); do
    app+=("$(seconds "$bin" render --out "$out/lab.mp4" --frames 300 --fps 30 --size 1280x720 --animate position)")
    alone+=("$(seconds "${ffmpeg_quiet[@]}" -f lavfi -i "testsrc2=size=1280x720:rate=30,format=yuv420p" -frames:v 300 \
        "${encode[@]}" "$out/synthetic.mp4")")
    if ((run == 0)); then  # the app's frames as it piped them (decoding is not timed)
        "${ffmpeg_quiet[@]}" -i "$out/lab.mp4" -f rawvideo -pix_fmt yuv420p "$out/lab.yuv"
    fi
    lab_frames+=("$(seconds "${ffmpeg_quiet[@]}" -f rawvideo -pix_fmt yuv420p -s 1280x720 -r 30 "${tags[@]}" \
        -i "$out/lab.yuv" "${encode[@]}" "$out/again.mp4")")
done
frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$out/lab.mp4")
list() { local IFS=,; echo "[$*]"; }
awk -v app="$(median "${app[@]}")" -v alone="$(median "${alone[@]}")" -v lab="$(median "${lab_frames[@]}")" \
    -v apps="$(list "${app[@]}")" -v alones="$(list "${alone[@]}")" -v labs="$(list "${lab_frames[@]}")" \
    -v frames="$frames" -v runs="$runs" 'BEGIN {
    printf "{\"app_s\": %.2f, \"ffmpeg_alone_s\": %.2f, \"ffmpeg_lab_frames_s\": %.2f, \"ratio\": %.2f, ", app, alone, lab, app / alone
    printf "\"ratio_to_lab_frames\": %.2f, \"frames\": %d, \"runs\": %d, ", app / lab, frames, runs
    printf "\"app_runs_s\": %s, \"ffmpeg_alone_runs_s\": %s, \"ffmpeg_lab_frames_runs_s\": %s}\n", apps, alones, labs
}'
