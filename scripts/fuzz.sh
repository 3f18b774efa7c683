#!/usr/bin/env bash
# Builds the libFuzzer targets (the shared sanitizer build, scripts/sanitized_build.sh) and runs each
# for SECONDS (default 60).
# Crashes are saved as tests/fuzz/crashes/<target>-*; fix each with a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
bash scripts/sanitized_build.sh fuzz_config_json fuzz_session fuzz_lesson fuzz_vector_spec fuzz_array_file fuzz_gguf fuzz_safetensors
mkdir -p tests/fuzz/crashes

# One target for SECONDS from a copy of its seed corpus; its report (or the crash's tail) is
# printed whole when it ends, so lanes running side by side never interleave lines.
fuzz_one() {
    local target=$1 work
    work=$(mktemp -d)
    cp tests/fuzz/corpus/$target/* "$work/" 2>/dev/null || true
    local report="fuzz_$target: ${seconds} s"$'\n'
    if ! build-san/tests/fuzz/fuzz_$target "$work" -max_total_time="$seconds" -max_len=65536 \
           -artifact_prefix=tests/fuzz/crashes/$target- -print_final_stats=1 2>"$work.log"; then
        echo "$report$(tail -30 "$work.log")"
        rm -rf "$work" "$work.log"
        return 1
    fi
    echo "$report$(grep -E "stat::number_of_executed_units|stat::new_units_added" "$work.log" | sed "s/^/  /")"
    rm -rf "$work" "$work.log"
}
export -f fuzz_one
export seconds

# Each target gets its SECONDS of wall time; FUZZ_LANES of them run at once (default: the cores),
# so five targets take three rounds, not five, where CI's soak leaves a core.
lanes=${FUZZ_LANES:-$(nproc)}
printf "%s\n" config_json session lesson vector_spec array_file gguf safetensors |
    xargs -P "$lanes" -I{} bash -c 'fuzz_one {}'
