#!/usr/bin/env bash
# Builds the libFuzzer targets (the shared sanitizer build, scripts/sanitized_build.sh) and runs each
# for SECONDS (default 60).
# Crashes are saved as tests/fuzz/crashes/<target>-*; fix each with a regression test.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
bash scripts/sanitized_build.sh fuzz_config_json fuzz_session fuzz_lesson fuzz_vector_spec fuzz_array_file
mkdir -p tests/fuzz/crashes
status=0
for target in config_json session lesson vector_spec array_file; do
    work=$(mktemp -d)
    cp tests/fuzz/corpus/$target/* "$work/" 2>/dev/null || true
    echo "fuzz_$target: ${seconds} s"
    if ! build-san/tests/fuzz/fuzz_$target "$work" -max_total_time="$seconds" -max_len=65536 \
           -artifact_prefix=tests/fuzz/crashes/$target- -print_final_stats=1 2>"$work.log"; then
        tail -30 "$work.log"
        status=1
    else
        grep -E "stat::number_of_executed_units|stat::new_units_added" "$work.log" | sed "s/^/  /"
    fi
    rm -rf "$work" "$work.log"
done
exit $status
