#!/usr/bin/env bash
# An MP4 of 300 frames at 1280×720 (all views, the position animating) against ffmpeg alone
# encoding 300 synthetic 1280×720 RGBA frames with the arguments the app gives it (libx264
# veryfast, CRF 18, yuv420p, even-size padding, faststart). Target: the app within 2× of ffmpeg.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${ROPELAB:-build/ropelab}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
seconds() { local start=$(date +%s.%N); "$@" >/dev/null; awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }'; }
app=$(seconds "$bin" render --out "$out/lab.mp4" --frames 300 --fps 30 --size 1280x720 --animate position)
alone=$(seconds ffmpeg -hide_banner -loglevel error -y -f lavfi -i "testsrc2=size=1280x720:rate=30,format=rgba" \
    -frames:v 300 -vf "pad=ceil(iw/2)*2:ceil(ih/2)*2" -c:v libx264 -preset veryfast -crf 18 -pix_fmt yuv420p \
    -movflags +faststart -f mp4 "$out/ffmpeg.mp4")
frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$out/lab.mp4")
awk -v app="$app" -v alone="$alone" -v frames="$frames" \
    'BEGIN { printf "{\"app_s\": %.2f, \"ffmpeg_alone_s\": %.2f, \"ratio\": %.2f, \"frames\": %d}\n", app, alone, app / alone, frames }'
