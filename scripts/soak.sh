#!/usr/bin/env bash
# The reliability soak: the real app under Xvfb, built with AddressSanitizer and UBSan, FRAMES
# frames (default 2000; the full soak is 20000) of seeded random parameter and view changes.
# Fails on any sanitizer report, GL error, non-finite value on screen, or > 5% memory growth.
set -euo pipefail
cd "$(dirname "$0")/.."
frames=${1:-2000}
if [ ! -f build-asan/CMakeCache.txt ]; then
    cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
          -DCMAKE_CXX_FLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer" \
          -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
fi
cmake --build build-asan --target ropelab --parallel "$(nproc)"
# Leak checking is off: Mesa keeps driver-lifetime allocations; memory growth is checked instead.
# A small quarantine: freed memory parked for use-after-free detection would otherwise read as growth.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:quarantine_size_mb=32 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
out=$(xvfb-run -a -s "-screen 0 1920x1080x24" build-asan/ropelab gui --frames "$frames" --soak 1 --stats)
echo "$out"
python3 - "$out" <<'PY'
import json, sys
lines = [json.loads(l) for l in sys.argv[1].splitlines() if l.startswith("{")]
soak = [l for l in lines if "soak_frames" in l][0]
problems = []
if soak["gl_errors"]: problems.append(f"{soak['gl_errors']} GL errors")
if soak["non_finite_frames"]: problems.append(f"{soak['non_finite_frames']} frames with non-finite values")
if soak["rss_growth_percent"] > 5: problems.append(f"memory grew {soak['rss_growth_percent']:.1f}%")
print("soak: " + ("; ".join(problems) if problems else "clean"))
sys.exit(1 if problems else 0)
PY
