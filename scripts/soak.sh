#!/usr/bin/env bash
# The reliability soak: the real app under Xvfb, built with AddressSanitizer and UBSan, FRAMES
# frames (default 2000; the full soak is 20000) of seeded random parameter and view changes, in
# the shared sanitizer build (scripts/sanitized_build.sh: clang, -O1, line tables).
# Fails on any sanitizer report, a leak through ropelab's code at exit, a GL error, a
# non-finite value on screen, or > 5% growth of resident memory or of the live heap.
set -euo pipefail
cd "$(dirname "$0")/.."
frames=${1:-2000}
bash scripts/sanitized_build.sh ropelab
# A small quarantine, and freed pages handed back each second: memory the sanitizer parks would
# otherwise read as growth. Leaks are reported at exit but do not change the exit status: Mesa
# keeps a few driver-lifetime allocations (from libraries already unloaded, so unnamed); the
# check below fails only on leaks whose stack passes through ropelab's own code.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:quarantine_size_mb=32:allocator_release_to_os_interval_ms=1000
export LSAN_OPTIONS=exitcode=0 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
out=$(xvfb-run -a -s "-screen 0 1920x1080x24" build-san/ropelab gui --frames "$frames" --soak 1 --stats 2>"$errors")
echo "$out"
python3 - "$out" "$errors" "$PWD" <<'PY'
import json, re, sys
lines = [json.loads(l) for l in sys.argv[1].splitlines() if l.startswith("{")]
soak = [l for l in lines if "soak_frames" in l][0]
log = open(sys.argv[2]).read()
leaks = [b for b in re.split(r"\n(?=(?:Direct|Indirect) leak)", log) if re.match(r"(Direct|Indirect) leak", b)]
# The sanitizer's own frames (its malloc interceptors and operator new, linked into the binary by
# clang) name the binary's path on every leak, the driver's too: look past them.
def own_frames(block):
    return "\n".join(l for l in block.splitlines() if "__interceptor_" not in l and "operator new" not in l)
ours = [b for b in leaks if "ropelab::" in own_frames(b) or sys.argv[3] + "/" in own_frames(b)]
problems = []
if soak["gl_errors"]: problems.append(f"{soak['gl_errors']} GL errors")
if soak["non_finite_frames"]: problems.append(f"{soak['non_finite_frames']} frames with non-finite values")
if soak["rss_growth_percent"] > 5: problems.append(f"resident memory grew {soak['rss_growth_percent']:.1f}%")
if soak["heap_growth_percent"] > 5: problems.append(f"the live heap grew {soak['heap_growth_percent']:.1f}%")
if ours: problems.append(f"{len(ours)} leaks through ropelab's code:\n" + "\n".join(ours))
print(f"leaks at exit: {len(ours)} through ropelab's code, {len(leaks) - len(ours)} elsewhere (driver)")
print(f"memory: resident {soak['rss_early_kib']} -> {soak['rss_late_kib']} KiB ({soak['rss_growth_percent']:+.1f}%), "
      f"live heap {soak['heap_early_kib']} -> {soak['heap_late_kib']} KiB ({soak['heap_growth_percent']:+.1f}%)")
print("soak: " + ("; ".join(problems) if problems else "clean"))
sys.exit(1 if problems else 0)
PY
