#!/usr/bin/env bash
# Proves the `pure` test tier needs no GL: no pure test executable links a GL, EGL, GLX, epoxy,
# GLFW, GBM or Wayland library, and `ctest -L pure` passes with every way to a GL context shut (no Mesa
# drivers, no EGL vendor, no EGL platform, no display). A gl-tier test is run with the same
# settings first and must find no context: otherwise the check would prove nothing.
#   scripts/pure_without_gl.sh [BUILD_DIR]   (default build/, already built)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
no_gl=(env LIBGL_DRIVERS_PATH=/nonexistent __EGL_VENDOR_LIBRARY_DIRS=/nonexistent EGL_PLATFORM=none DISPLAY= WAYLAND_DISPLAY=)

# 1. The settings really shut GL: a GL test skips for want of a context.
probe=$("${no_gl[@]}" "$build/tests/gpu_tests" --gtest_filter='GlTest.*' --gtest_brief=0 2>&1 || true)
if ! grep -q "no OpenGL >= 4.3 context" <<<"$probe"; then
    echo "pure_without_gl: with GL shut, gpu_tests still found a context; the check means nothing:" >&2
    echo "$probe" | tail -20 >&2
    exit 1
fi

# 2. No pure executable links a GL library. (libX11 and libxcb may come in with cairo, whose PDF
# writer the figure tests use: cairo links its X surfaces' libraries but opens no display unless
# asked, and step 3 runs with DISPLAY unset, so a test that tried would fail.)
executables=$(ctest --test-dir "$build" -L '^pure$' --show-only=json-v1 |
    python3 -c 'import json, sys; print("\n".join(sorted({t["command"][0] for t in json.load(sys.stdin)["tests"]})))')
[ -n "$executables" ] || { echo "pure_without_gl: no pure tests found in $build" >&2; exit 1; }
status=0
for exe in $executables; do
    linked=$(ldd "$exe" | grep -Eo 'lib(EGL|GL[A-Za-z]*|OpenGL|epoxy|glfw|gbm|wayland)[^ ]*' | sort -u | tr '\n' ' ' || true)
    if [ -n "$linked" ]; then
        echo "pure_without_gl: $(basename "$exe") links $linked" >&2
        status=1
    fi
done
[ $status -eq 0 ] || exit 1

# 3. The pure tier passes with GL shut.
"${no_gl[@]}" ctest --test-dir "$build" -L '^pure$' --output-on-failure --parallel "$(nproc)"
echo "pure tier without GL: passed ($(wc -w <<<"$executables") executables, none linking GL)"
