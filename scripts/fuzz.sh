#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) and runs each for SECONDS (default 60).
# Crashes are saved as tests/fuzz/crashes/<target>-*; fix each with a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
if ! command -v clang++ >/dev/null || ! dpkg-query -W libclang-rt-14-dev >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-14-dev >/dev/null
    else
        echo "fuzzing needs: sudo apt-get install clang libclang-rt-14-dev" >&2
        exit 1
    fi
fi
if [ ! -f build-fuzz/CMakeCache.txt ]; then
    cmake -S . -B build-fuzz -G Ninja -DROPELAB_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
          -DCMAKE_CXX_COMPILER=clang++ >/dev/null
fi
cmake --build build-fuzz --parallel "$(nproc)"
mkdir -p tests/fuzz/crashes
status=0
for target in config_json session lesson vector_spec array_file; do
    work=$(mktemp -d)
    cp tests/fuzz/corpus/$target/* "$work/" 2>/dev/null || true
    echo "fuzz_$target: ${seconds} s"
    if ! build-fuzz/tests/fuzz/fuzz_$target "$work" -max_total_time="$seconds" -max_len=65536 \
           -artifact_prefix=tests/fuzz/crashes/$target- -print_final_stats=1 2>"$work.log"; then
        tail -30 "$work.log"
        status=1
    else
        grep -E "stat::number_of_executed_units|stat::new_units_added" "$work.log" | sed "s/^/  /"
    fi
    rm -rf "$work" "$work.log"
done
exit $status
