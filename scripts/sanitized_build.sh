#!/usr/bin/env bash
# The one sanitizer build (build-san/, clang, AddressSanitizer + UBSan + fuzzer coverage) that
# scripts/fuzz.sh and scripts/soak.sh share: the app the soak drives and the libFuzzer targets,
# compiled from the same objects. Incremental: a second call only rebuilds what changed.
#   scripts/sanitized_build.sh [TARGET...]   (default: everything in build-san)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v clang++ >/dev/null || ! dpkg-query -W libclang-rt-14-dev >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-14-dev >/dev/null
    else
        echo "the sanitizer build needs: sudo apt-get install clang libclang-rt-14-dev" >&2
        exit 1
    fi
fi
if [ ! -f build-san/CMakeCache.txt ]; then
    cmake -S . -B build-san -G Ninja -DROPELAB_SANITIZE=ON -DCMAKE_CXX_COMPILER=clang++ >/dev/null
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build build-san --parallel "$(nproc)" "${targets[@]}"
